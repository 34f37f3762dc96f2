//! The life of a game, written once for every driver: how a game starts
//! (Ctrl-C taken over, the first board read and held still, an empty
//! board refused), what is kept of it as it goes (the [`GameReport`]: the
//! first board, the optimum, every click with its time, the rules
//! learned), how it ends (one [`End`], classified from the error once),
//! and games in a row: the record of each appended to the game log as it
//! ends, the wait for the next game's board between them, the run's end
//! however it comes. A [`Driver`] holds only its policy for the middle of
//! a game: live play clicks, verifies and re-plans; assist mode watches,
//! explains and hints.

use std::fmt;
use std::time::{Duration, Instant};

use super::eye::Eye;
use super::screen::ScreenBoard;
use super::settling::{Pace, Settling};
use super::{LiveError, LiveSettings, Moment, Settled};
use crate::desktop::{CaptureError, Desktop, GameWindow, InputError, stop};
use crate::game::{Board, Cell, Rules, earns_reward};
use crate::live::{Explanation, Learned};
use crate::record::{self, ClickRecord, End, GameLog, GameMode, GameRecord, RecordError};
use crate::solver::SolveOptions;
use crate::vision::Swamp;

/// What plays or watches the middle of a game: from its first board,
/// read and not empty, to its end.
pub trait Driver: 'static {
    /// The driver's own events, nested in [`Event::Driver`].
    type Event<'a>;

    /// How the game log names the driver's games.
    const MODE: GameMode;

    /// The settings every driver shares.
    fn live(&self) -> &LiveSettings;

    /// Whether Ctrl-C is taken over before the first read, so that a stop
    /// during the first plan ends the game with its record. A driver that
    /// never clicks on a game it records may be ended as any program is.
    fn catches_stop(&self) -> bool {
        true
    }

    /// Whether Ctrl-C and the game window closing are the driver's own
    /// ends of a game (the player is done), not stops.
    fn ends_at_will(&self) -> bool {
        false
    }

    /// Plays or watches the game in `window` from `start` until it ends:
    /// how it ended, or `None` when it was not played (planned only).
    fn game(
        &mut self,
        desktop: &mut dyn Desktop,
        window: &mut Box<dyn GameWindow>,
        start: Start,
        game: &mut Game<'_, Self>,
    ) -> Result<Option<End>, LiveError>;
}

/// A game's first board, held still, where the board is in the window,
/// and the swamp it showed.
#[derive(Debug)]
pub struct Start {
    pub(crate) board: ScreenBoard,
    pub(crate) swamp: Swamp,
    pub(crate) settled: Settled,
}

impl Start {
    /// The eye on `window`, at the board found at the start (no search).
    pub fn eye<'w>(&self, window: &'w mut dyn GameWindow, settings: &'w LiveSettings) -> Eye<'w> {
        Eye::at(
            window,
            &settings.calibration,
            self.board,
            self.swamp.clone(),
        )
    }
}

/// What happens in a run, as it happens, for the command line to show.
#[derive(Debug)]
pub enum Event<'a, D> {
    /// A game's first board, read.
    Board { board: &'a Board, confidence: f32 },
    /// The board after click `number` showed other rules than those
    /// followed: `rules` from now on, the first of the `candidates` that
    /// explain every click so far.
    RulesSwitched {
        number: u32,
        rules: Rules,
        candidates: &'a [Rules],
    },
    /// What the driver did.
    Driver(D),
    /// A game ended: its report.
    Ended(&'a GameReport),
    /// The next game's board is waited for.
    WaitingNext,
    /// No game is on at the start of a game (why), and more games are
    /// wanted: a game's board is waited for.
    NoGame(&'a LiveError),
    /// The game window closed between games: the run ends.
    WindowClosed,
    /// The game log (the default one) could not take a game's record
    /// (why): the games from here on go unrecorded, said once.
    Unrecorded(&'a RecordError),
}

/// The callback that is told of every event.
pub type Observe<'o, D> = dyn for<'a> FnMut(Event<'a, <D as Driver>::Event<'a>>) + 'o;

/// One game as it goes, for its driver: its report, and the events to
/// tell.
pub struct Game<'o, D: Driver + ?Sized> {
    pub report: GameReport,
    observe: &'o mut Observe<'o, D>,
}

impl<D: Driver + ?Sized> fmt::Debug for Game<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("report", &self.report)
            .finish()
    }
}

impl<D: Driver + ?Sized> Game<'_, D> {
    /// Tells of something the driver did.
    pub fn tell(&mut self, event: D::Event<'_>) {
        (self.observe)(Event::Driver(event));
    }

    /// The board after click `number` (or several up to it), for the rules
    /// learned: whether the rules followed explain it, and when only others
    /// do, a change of rules, told, after which the optimum known is not
    /// the game's.
    pub fn see(&mut self, number: u32, explains: impl Fn(Rules) -> bool) -> Explanation {
        let seen = self.report.learned.see(number, explains);
        if let Explanation::Switched { rules, candidates } = &seen {
            self.report.optimum = None;
            (self.observe)(Event::RulesSwitched {
                number,
                rules: *rules,
                candidates,
            });
        }
        seen
    }
}

/// One game: what its record is made of, and what its summary says.
#[derive(Clone, Debug)]
pub struct GameReport {
    started: Instant,
    started_at: String,
    first: Option<Board>,
    /// The rules followed at the end, and what the clicks showed.
    pub learned: Learned,
    optimum: Option<(usize, bool)>,
    /// Click numbers with their record: a click made again (the game did
    /// not take it) replaces the one before.
    clicks: Vec<(u32, ClickRecord)>,
    unseen: bool,
    replans: u32,
    end: Option<End>,
    /// How long the game took, once it ended.
    took: Option<Duration>,
}

impl GameReport {
    /// A game that starts now, with the rules `learned` so far.
    pub fn start(learned: Learned) -> GameReport {
        GameReport {
            started: Instant::now(),
            started_at: record::now_rfc3339(),
            first: None,
            learned,
            optimum: None,
            clicks: Vec::new(),
            unseen: false,
            replans: 0,
            end: None,
            took: None,
        }
    }

    /// The first board read, when one was.
    pub fn first(&self) -> Option<&Board> {
        self.first.as_ref()
    }

    /// The first board read, not empty: a game from now on.
    pub fn set_first(&mut self, board: Board) {
        self.first = Some(board);
    }

    /// The first board's optimum under the rules in force, and whether it
    /// is proven; `None` while not known (the rules changed since).
    pub fn optimum(&self) -> Option<(usize, bool)> {
        self.optimum
    }

    /// The first board's optimum under the rules in force: the first plan,
    /// or a plan of the first board made again under new rules.
    pub fn set_optimum(&mut self, length: usize, proven: bool) {
        self.optimum = Some((length, proven));
    }

    /// Click `number` on `cell`; in assist mode whether it followed the
    /// hint and what it cost, when that can be told.
    pub fn click(&mut self, number: u32, cell: Cell, followed: Option<bool>, cost: Option<i64>) {
        let click = ClickRecord {
            followed,
            cost,
            ..ClickRecord::new(cell, self.started.elapsed())
        };
        self.clicks.retain(|&(n, _)| n != number);
        self.clicks.push((number, click));
    }

    /// Click `number` and those after it changed nothing: they are no
    /// clicks of the game (a window that takes none may be no game at
    /// all: a picture of a board).
    pub fn took_no_effect(&mut self, number: u32) {
        self.clicks.retain(|&(n, _)| n < number);
    }

    /// How many clicks were made so far.
    pub fn clicks(&self) -> u32 {
        self.clicks.len() as u32
    }

    /// The board changed in a way no clicks explain: from now on the count
    /// is only a lower bound, and no reward is claimed.
    pub fn clicks_unseen(&mut self) {
        self.unseen = true;
    }

    /// Whether some clicks were not seen.
    pub fn unseen(&self) -> bool {
        self.unseen
    }

    /// A re-plan for a board the rules in force did not explain; how many
    /// there were, this one included.
    pub fn replanned(&mut self) -> u32 {
        self.replans += 1;
        self.replans
    }

    /// Re-plans for boards the rules in force did not explain (not those
    /// for a change of rules).
    pub fn replans(&self) -> u32 {
        self.replans
    }

    /// From the start of the game (its first capture) until now, or
    /// until it ended.
    pub fn elapsed(&self) -> Duration {
        self.took.unwrap_or_else(|| self.started.elapsed())
    }

    /// The game ended as `end` (`None`: it was planned only).
    pub fn ended(&mut self, end: Option<End>) {
        self.end = end;
        self.took = Some(self.started.elapsed());
    }

    /// How the game ended; `None` for a game planned only.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// An optimum the rules made stale is planned again from the first
    /// board, with the solver's budget cut short by a stop.
    fn settle_optimum(&mut self, solve: &SolveOptions) {
        if let (None, Some(board)) = (self.optimum, self.first) {
            // For the record, after the game: nobody waits on it.
            self.optimum = super::plan(&board, solve, None, self.learned.rules(), &mut |_| {})
                .ok()
                .map(|plan| (plan.length(), plan.proven_optimal));
        }
    }

    /// The game's record, when a board was read and the game was played
    /// (a click made: hints opened and closed are no game): in `mode`,
    /// after `error` when it stopped on one.
    pub fn record(&self, mode: GameMode, error: Option<String>) -> Option<GameRecord> {
        let (board, end) = (self.first?, self.end?);
        if self.clicks.is_empty() {
            return None;
        }
        let (optimum, optimum_proven) = self.optimum.unwrap_or((0, false));
        let cleared = end == End::Cleared;
        let clicks: Vec<ClickRecord> = self.clicks.iter().map(|&(_, c)| c).collect();
        Some(GameRecord {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            started: self.started_at.clone(),
            mode,
            board,
            rules: self.learned.rules(),
            optimum: optimum as u32,
            optimum_proven,
            // A count that is only a lower bound claims no reward.
            reward: earns_reward(clicks.len(), cleared) && !self.unseen,
            clicks_unseen: self.unseen,
            clicks,
            cleared,
            duration_ms: u64::try_from(self.elapsed().as_millis()).unwrap_or(u64::MAX),
            end,
            error,
        })
    }
}

/// How a game that stopped on `error` ended, for its record.
pub fn end_of(error: &LiveError) -> End {
    match error {
        // The display's end asks every run to stop, as a signal does.
        LiveError::Input(InputError::Interrupted { .. })
        | LiveError::Capture(CaptureError::DisplayClosed) => End::Interrupted,
        LiveError::Capture(CaptureError::Gone { .. }) => End::WindowClosed,
        _ => End::Stopped,
    }
}

/// A capture or an input that failed because the display itself went
/// (the X server ended): said as that, never as the game's window closed
/// or the mouse lost.
fn as_display_closed(error: LiveError) -> LiveError {
    match error {
        LiveError::Capture(CaptureError::Grab { .. } | CaptureError::NoDesktop { .. })
        | LiveError::Input(InputError::Device(_))
            if crate::desktop::display_lost() =>
        {
            LiveError::Capture(CaptureError::DisplayClosed)
        }
        error => error,
    }
}

/// A game that stopped on an error, with how far it got.
#[derive(Debug)]
pub struct Stopped {
    pub error: LiveError,
    pub report: GameReport,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (stopped after {} click(s))",
            self.error,
            self.report.clicks()
        )
    }
}

impl std::error::Error for Stopped {}

/// Plays or watches one game in `window` with `driver`, from its first
/// read to its end: its report (which says how it ended), or the stop
/// with how far it got.
pub fn game<D: Driver>(
    driver: &mut D,
    desktop: &mut dyn Desktop,
    window: &mut Box<dyn GameWindow>,
    observe: &mut Observe<'_, D>,
) -> Result<GameReport, Box<Stopped>> {
    let mut game = Game {
        report: GameReport::start(Learned::new(driver.live().rules)),
        observe,
    };
    let ended = play_game(driver, desktop, window, &mut game);
    let mut report = game.report;
    match ended {
        Ok(end) => {
            report.ended(end);
            if end.is_some() {
                report.settle_optimum(&driver.live().solve);
            }
            (game.observe)(Event::Ended(&report));
            Ok(report)
        }
        Err(error) => {
            let error = as_display_closed(error);
            let end = end_of(&error);
            if let LiveError::NoEffect { number } = error {
                report.took_no_effect(number);
            }
            report.ended(Some(end));
            report.settle_optimum(&driver.live().solve);
            if driver.ends_at_will() && matches!(end, End::Interrupted | End::WindowClosed) {
                (game.observe)(Event::Ended(&report));
                return Ok(report);
            }
            Err(Box::new(Stopped { error, report }))
        }
    }
}

/// Finds the board in `window` and reads it once it holds still; Ctrl-C
/// stops the wait. A board that never holds still does not fit.
pub(crate) fn first_board<'w>(
    window: &'w mut dyn GameWindow,
    settings: &'w LiveSettings,
) -> Result<(Eye<'w>, Settled), LiveError> {
    let mut eye = Eye::open(window, &settings.calibration)?;
    let rule = Settling::new(None, Vec::new(), Pace::new(settings.anim).hold());
    let guard = &mut || Ok(stop::check()?);
    let settled =
        super::wait_settled(&mut eye, guard, rule, settings, Moment::Start).map_err(|error| {
            match error {
                LiveError::Unsettled { cause, .. } => LiveError::Misfit(cause),
                other => other,
            }
        })?;
    Ok((eye, settled))
}

/// The first read, the empty-board check, then the driver.
fn play_game<D: Driver>(
    driver: &mut D,
    desktop: &mut dyn Desktop,
    window: &mut Box<dyn GameWindow>,
    game: &mut Game<'_, D>,
) -> Result<Option<End>, LiveError> {
    // Caught before the first read: a stop during the first plan ends it
    // at once, and the game whose board was read is recorded.
    if driver.catches_stop() {
        stop::catch()?;
    }
    let (eye, settled) = first_board(window.as_mut(), driver.live())?;
    let start = Start {
        board: eye.board,
        swamp: eye.swamp,
        settled,
    };
    let board = start.settled.board;
    (game.observe)(Event::Board {
        board: &board,
        confidence: start.settled.frame.confidence,
    });
    // An empty board is a game not started (or over), not a win.
    if board.is_cleared() {
        return Err(LiveError::NoDust);
    }
    game.report.set_first(board);
    driver.game(desktop, window, start, game)
}

/// The games of one run: how many are wanted, the game log, the records
/// of those played.
#[derive(Debug)]
pub struct Session {
    /// How many games to see; `None` until Ctrl-C.
    limit: Option<u32>,
    log: Option<GameLog>,
    /// A failing log is dropped, not a stop ([`Session::unrecorded_on_failure`]).
    log_optional: bool,
    played: Vec<GameRecord>,
}

/// Why a run ended before the games it wanted.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A game stopped; its record could not be logged when the log's
    /// error is given too.
    #[error("{0}")]
    Stopped(Box<Stopped>, Option<RecordError>),
    /// Waiting for the next game.
    #[error("waiting for the next game: {0}")]
    Waiting(LiveError),
    /// The game log cannot take a record (the run ends after its game).
    #[error(transparent)]
    Log(#[from] RecordError),
}

impl Session {
    /// A run of `games` games (0: until Ctrl-C), each appended to `log`.
    pub fn new(games: u32, log: Option<GameLog>) -> Session {
        Session {
            limit: (games > 0).then_some(games),
            log,
            log_optional: false,
            played: Vec::new(),
        }
    }

    /// The records of the games played so far.
    pub fn played(&self) -> &[GameRecord] {
        &self.played
    }

    /// Whether the run goes until Ctrl-C (`--games 0`).
    pub fn until_stopped(&self) -> bool {
        self.limit.is_none()
    }

    /// Whether the run's summary is worth a line: more than one game
    /// asked or played.
    pub fn has_summary(&self) -> bool {
        self.played.len() > 1 || self.limit != Some(1)
    }

    /// Whether another game is wanted after those played.
    fn want_more(&self) -> bool {
        self.limit
            .is_none_or(|limit| self.played.len() < limit as usize)
    }

    /// Plays or watches games in `window` with `driver` until as many as
    /// wanted ended, the window closed between games, or Ctrl-C. Ctrl-C
    /// ends a run until Ctrl-C well, in a game or between games; a stop in
    /// a game ends the run with it, its record kept. A game with an empty
    /// board at the start, when more games are to come, is waited out as
    /// the time between games.
    pub fn run<D: Driver>(
        &mut self,
        driver: &mut D,
        desktop: &mut dyn Desktop,
        window: &mut Box<dyn GameWindow>,
        observe: &mut Observe<'_, D>,
    ) -> Result<(), RunError> {
        loop {
            let (report, error) = match game(driver, desktop, window, observe) {
                Ok(report) => (report, None),
                // No game on yet: with games to come, the time before one
                // is the time between games.
                Err(stopped)
                    if matches!(stopped.error, LiveError::NoDust | LiveError::Misfit(_))
                        && self.limit != Some(1)
                        && self.want_more() =>
                {
                    observe(Event::NoGame(&stopped.error));
                    if wait_next(driver.live(), window.as_mut(), observe)? {
                        continue;
                    }
                    return Ok(());
                }
                Err(stopped) => {
                    let Stopped { error, report } = *stopped;
                    (report, Some(error))
                }
            };
            let Some(end) = report.end() else {
                // Planned only: a dry run is one game.
                return Ok(());
            };
            let record = report.record(D::MODE, error.as_ref().map(LiveError::to_string));
            let logged = match record {
                Some(record) => self.keep(record),
                None => Ok(()),
            };
            let logged = match logged {
                Err(error) if self.log_optional => {
                    observe(Event::Unrecorded(&error));
                    self.log = None;
                    Ok(())
                }
                logged => logged,
            };
            if let Some(error) = error {
                // `--games 0` goes until Ctrl-C: that is its end, well.
                if end == End::Interrupted && self.until_stopped() {
                    return Ok(logged?);
                }
                let stopped = Box::new(Stopped { error, report });
                return Err(RunError::Stopped(stopped, logged.err()));
            }
            logged?;
            let next = match end {
                // The next game's board is on the screen already.
                End::NewBoard => self.want_more(),
                End::Cleared | End::MaxMoves if self.want_more() => {
                    observe(Event::WaitingNext);
                    wait_next(driver.live(), window.as_mut(), observe)?
                }
                _ => false,
            };
            if !next {
                return Ok(());
            }
        }
    }

    /// A log the player did not name (the record by default): when it
    /// cannot take a game (a full disk), that is said once and the games
    /// go on unrecorded, instead of ending the run.
    pub fn unrecorded_on_failure(mut self) -> Session {
        self.log_optional = true;
        self
    }

    /// Keeps the record of a game that ended and appends it to the log.
    fn keep(&mut self, record: GameRecord) -> Result<(), RecordError> {
        let logged = match self.log.as_mut() {
            Some(log) => log.append(&record),
            None => Ok(()),
        };
        self.played.push(record);
        logged
    }
}

/// Waits for the next game's board in `window`; `false`
/// when Ctrl-C or the game window closing ended the wait (the run ends
/// well).
fn wait_next<D: Driver + ?Sized>(
    settings: &LiveSettings,
    window: &mut dyn GameWindow,
    observe: &mut Observe<'_, D>,
) -> Result<bool, RunError> {
    stop::catch().map_err(|e| RunError::Waiting(e.into()))?;
    match super::wait_next_game(window, settings) {
        Ok(()) => Ok(true),
        Err(LiveError::Input(InputError::Interrupted { .. })) => Ok(false),
        Err(LiveError::Capture(CaptureError::Gone { .. })) => {
            observe(Event::WindowClosed);
            Ok(false)
        }
        Err(error) => Err(RunError::Waiting(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EXAMPLE_BOARD;
    use crate::live::RulesChoice;

    fn solve() -> SolveOptions {
        SolveOptions {
            time_limit: Duration::from_secs(10),
            ..SolveOptions::default()
        }
    }

    fn report(rules: Rules) -> GameReport {
        let mut report = GameReport::start(Learned::new(RulesChoice::Given(rules)));
        report.set_first(EXAMPLE_BOARD.parse().unwrap());
        report
    }

    #[test]
    fn a_click_made_again_is_one_click_of_the_record() {
        let mut report = report(Rules::CentreRows);
        report.set_optimum(11, true);
        report.click(1, Cell::new(7, 0), None, None);
        report.click(1, Cell::new(7, 0), None, None);
        report.click(2, Cell::new(3, 1), Some(false), Some(1));
        report.ended(Some(End::Stopped));
        let record = report.record(GameMode::Assist, Some("why".into())).unwrap();
        assert_eq!(record.clicks.len(), 2);
        assert_eq!(record.clicks[0].cell, [7, 0]);
        assert_eq!(record.clicks[1].followed, Some(false));
        assert_eq!(record.clicks[1].cost, Some(1));
        assert_eq!((record.optimum, record.optimum_proven), (11, true));
        assert!(!record.cleared && !record.reward);
        assert_eq!(record.board.to_string(), EXAMPLE_BOARD);
        assert_eq!(record.error.as_deref(), Some("why"));
    }

    #[test]
    fn no_board_read_or_a_game_planned_only_is_no_record() {
        let mut unread = GameReport::start(Learned::new(RulesChoice::Auto));
        unread.ended(Some(End::Interrupted));
        assert!(unread.record(GameMode::Play, None).is_none());
        let mut planned = report(Rules::CentreRows);
        planned.ended(None);
        assert!(planned.record(GameMode::Play, None).is_none());
        // Hints opened and closed, no click: no game to lower the rate.
        let mut unplayed = report(Rules::CentreRows);
        unplayed.ended(Some(End::Interrupted));
        assert!(unplayed.record(GameMode::Assist, None).is_none());
    }

    #[test]
    fn a_count_with_clicks_unseen_claims_no_reward() {
        let mut report = report(Rules::CentreRows);
        report.set_optimum(11, true);
        for number in 1..=11 {
            report.click(number, Cell::new(0, 0), None, None);
        }
        report.clicks_unseen();
        report.ended(Some(End::Cleared));
        let record = report.record(GameMode::Assist, None).unwrap();
        assert!(record.cleared && record.clicks_unseen && !record.reward);
    }

    #[test]
    fn an_optimum_not_known_is_planned_under_the_rules_in_force() {
        let mut report = report(Rules::Gravity);
        report.settle_optimum(&solve());
        let board: Board = EXAMPLE_BOARD.parse().unwrap();
        let gravity =
            super::super::plan(&board, &solve(), None, Rules::Gravity, &mut |_| {}).unwrap();
        assert_eq!(
            report.optimum(),
            Some((gravity.length(), gravity.proven_optimal))
        );
        report.click(1, Cell::new(0, 0), None, None);
        report.ended(Some(End::Cleared));
        assert_eq!(
            report.record(GameMode::Play, None).unwrap().rules,
            Rules::Gravity
        );
    }
}
