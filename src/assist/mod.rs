//! Assist mode: the driver on the live floor ([`crate::live`]) that
//! hints, the bot's eyes and solver for a player who clicks for
//! themselves. It reads the board as live play does (stored geometry, two
//! agreeing reads of a settled board), plans, and shows the next click in
//! a hint window of its own and on the terminal; then it watches the
//! board, works out which click the player made (under the rules in force,
//! learning them as live play does with `auto`), says what a click off the
//! plan cost, and re-plans. It never opens an input device: the player's
//! mouse over the board is expected, and whatever it sees, it never clicks.
//! The next clicks are also marked on the game's own board ([`marks`]),
//! where the platform shows such marks and they change no read; the
//! player chooses where ([`Hints`]). A board it cannot read (covered,
//! mid-hover, moved off the screen) is waited out and said once, not a
//! reason to stop; it ends when the board is cleared, when the game window
//! closes, on Ctrl-C, or on Escape or `q` in the hint window.

mod follow;
mod marks;
mod window;

use std::path::PathBuf;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::desktop::place::Placement;
use crate::desktop::stop::{self, Asker};
use crate::desktop::{CaptureError, Desktop, GameWindow, ScreenPoint, ScreenRect};
use crate::game::{Board, REWARD_CLICKS, Rules, Step};
use crate::geometry::Geometry;
use crate::live::eye::{Eye, Frame};
use crate::live::session::{self, Driver, Start};
use crate::live::settling::{Pace, Settling};
use crate::live::watch::Cadence;
use crate::live::{self, Explanation, LiveError, LiveSettings, Moment, Settled};
use crate::record::{End, GameMode};
use crate::render::Look;
pub use follow::clicks_on;
use marks::OnBoard;
pub use marks::{Hints, Probe};
use window::HintWindow;
pub use window::picture;

/// How often a closed game window is looked for again.
const REFIND: Duration = Duration::from_millis(100);

/// Assist mode, as it was asked for.
#[derive(Debug)]
pub struct Assist {
    pub live: LiveSettings,
    /// The game's colours, for the hint window; `None` shows no window.
    pub look: Option<Look>,
    /// Where the hints show.
    pub hints: Hints,
    /// What a key that ends the hints in the hint window does: asks the
    /// run's owner to stop it, as that key.
    pub stop: fn(Asker),
}

/// One hint: the board read, how the game went so far and the plan from
/// here.
#[derive(Clone, Debug)]
pub struct Hint {
    /// Since the assistant started.
    pub elapsed: Duration,
    pub board: Board,
    /// The player's clicks seen so far.
    pub clicks: u32,
    /// The click that made this board, if one did.
    pub player_move: Option<Step>,
    /// The clicks from here, the next first, under `rules`.
    pub plan: Vec<Step>,
    pub rules: Rules,
    /// Whether `plan` is proven to be the shortest from here.
    pub proven_optimal: bool,
    /// The first board's plan length, and whether it was proven.
    pub optimum: usize,
    pub optimum_proven: bool,
    /// Some clicks were not seen (the board changed in a way no clicks
    /// explain): `clicks` is only a lower bound.
    pub clicks_unseen: bool,
    /// The board's cells in desktop pixels, so that a script can click
    /// any cell.
    pub on_screen: Geometry,
    /// The screen point of the next click's cell centre.
    pub next_at: Option<ScreenPoint>,
}

impl Hint {
    /// The clicks of the whole game if the player follows the plan.
    pub fn total(&self) -> usize {
        self.clicks as usize + self.plan.len()
    }

    /// The hint in words: "click N of M, optimum K (proven)" (or "(not
    /// proven)"), then what that means for the reward; once cleared, the
    /// result.
    pub fn caption(&self) -> Vec<String> {
        // An optimum the search ran out of time on is only the best found:
        // said so, as the door says it, never passed off as the optimum.
        let proven = if self.optimum_proven {
            " (proven)"
        } else {
            " (not proven)"
        };
        let optimum = format!("optimum {}{proven}", self.optimum);
        let total = self.total();
        // A count that is only a lower bound claims no reward.
        let untold = "the reward cannot be told (clicks not all seen)";
        if self.board.is_cleared() {
            if self.clicks_unseen {
                return vec![
                    format!("cleared in at least {total} clicks, {optimum}"),
                    untold.to_owned(),
                ];
            }
            let reward = if total <= REWARD_CLICKS {
                "within the reward's clicks".to_owned()
            } else {
                format!("over the reward's {REWARD_CLICKS} clicks")
            };
            return vec![format!("cleared in {total} clicks, {optimum}"), reward];
        }
        let reward = if self.clicks_unseen {
            untold.to_owned()
        } else if total <= REWARD_CLICKS {
            "reward reachable".to_owned()
        } else {
            format!("reward out of reach ({REWARD_CLICKS} clicks at most)")
        };
        vec![
            format!("click {} of {total}, {optimum}", self.clicks + 1),
            reward,
        ]
    }

    /// A hint on the example board, two clicks before it is cleared: for
    /// the tests of what is said and logged of a hint.
    #[cfg(test)]
    pub fn example() -> Hint {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let plan = crate::game::replay(
            &board,
            &[crate::game::Cell::new(7, 0), crate::game::Cell::new(3, 1)],
        )
        .unwrap();
        Hint {
            elapsed: Duration::from_millis(1234),
            board,
            clicks: 0,
            player_move: None,
            plan,
            rules: Rules::CentreRows,
            proven_optimal: true,
            optimum: 11,
            optimum_proven: true,
            clicks_unseen: false,
            on_screen: Geometry::square(140.0, 90.0, 80.0, 8, 6),
            next_at: Some(ScreenPoint::new(740, 530)),
        }
    }
}

/// What a player's click did to the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The hinted click (or one that leaves the same board).
    AsHinted,
    /// Another click: the whole game's clicks went up by `cost` (0 for a
    /// click as good as the hint's); `from_here` clicks are left, `total`
    /// in all.
    Cost {
        cost: i64,
        from_here: usize,
        total: usize,
    },
    /// The click showed other rules than the hint's (no cost can be told
    /// against a plan made under the wrong ones): re-planned under them,
    /// `from_here` clicks are left, `total` in all.
    NewRules { from_here: usize, total: usize },
}

/// What happens, as it happens, for the command line to show.
#[derive(Debug)]
pub enum Event<'a> {
    /// The plan is still being worked out after
    /// [`live::STILL_PROVING_AFTER`]: the length of the best solution found
    /// by then, if any.
    StillProving {
        best: Option<usize>,
    },
    /// The hint window opened with this title at this place, or could
    /// not open (why).
    HintWindow(Result<(&'a str, &'a Placement), &'a str>),
    /// The hint window was closed ("by the player", "as ..."): the hints
    /// go on in the terminal.
    HintWindowClosed(&'a str),
    /// The hints are marked on the game's board (what the probe found of
    /// the marks in the captures), or are not, or no longer (why): they
    /// go on beside it.
    BoardMarks(Result<Probe, &'a str>),
    /// The player's clicks up to `number` made the board change by
    /// `steps` (one, or the fewest that make the change when several came
    /// within one animation), in order; `verdict` is for them all.
    Move {
        number: u32,
        steps: &'a [Step],
        verdict: Verdict,
    },
    /// The board changed in a way no clicks explain (up to
    /// [`follow::MOST_CLICKS_AT_ONCE`]): the count is a lower bound.
    Unexplained {
        before: &'a Board,
        after: &'a Board,
        frames: &'a [PathBuf],
    },
    /// The board cannot be read for now (said once until it can again).
    Waiting(&'a str),
    /// The board reads again after a [`Event::Waiting`]: what was waited
    /// out is over.
    Readable,
    Hint(&'a Hint),
}

impl Driver for Assist {
    type Event<'a> = Event<'a>;
    const MODE: GameMode = GameMode::Assist;

    fn live(&self) -> &LiveSettings {
        &self.live
    }

    /// The player is done.
    fn ends_at_will(&self) -> bool {
        true
    }

    /// Hints every click until the board is cleared, a new game's board
    /// shows, the window closes (and no window replaces it) or Ctrl-C.
    fn game(
        &mut self,
        desktop: &mut dyn Desktop,
        window: &mut Box<dyn GameWindow>,
        start: Start,
        game: &mut session::Game<'_, Assist>,
    ) -> Result<Option<End>, LiveError> {
        let settings = &*self;
        let mut eye = start.eye(window.as_mut(), &settings.live);
        let mut game = Assisting::start(&mut eye, start.settled, settings, game)?;
        let mut end = game.watch(&mut eye)?;
        // A game window closed may be the game's window made anew (a page
        // reloaded, a client restarted): the assistant follows it there,
        // and its board is a change like any other.
        while end == End::WindowClosed {
            let Some(found) = replacement(desktop, &settings.live) else {
                break;
            };
            log::info!("the game window was replaced: following the new one");
            *window = found;
            let (mut eye, settled) =
                match live::session::first_board(window.as_mut(), &settings.live) {
                    Ok(read) => read,
                    Err(error) => match ending(&error, None) {
                        Some(ended) => {
                            end = ended;
                            continue;
                        }
                        None => return Err(error),
                    },
                };
            end = match game.changed(&eye, settled)? {
                Some(ended) => ended,
                None => game.watch(&mut eye)?,
            };
        }
        Ok(Some(end))
    }
}

/// A window `--window` names again, within the settle time of the old
/// one closing, that shows a board; `None` when there is none (or Ctrl-C).
fn replacement(desktop: &mut dyn Desktop, settings: &LiveSettings) -> Option<Box<dyn GameWindow>> {
    let deadline = Instant::now() + settings.settle_limit;
    while stop::check().is_ok() && Instant::now() < deadline {
        if let Ok(mut window) = crate::live::find::by_text(desktop, &settings.query)
            && Eye::open(window.as_mut(), &settings.calibration).is_ok()
        {
            return Some(window);
        }
        sleep(REFIND);
    }
    None
}

struct Assisting<'s, 'g, 'o> {
    settings: &'s Assist,
    game: &'g mut session::Game<'o, Assist>,
    hints: Option<HintWindow>,
    marks: Option<OnBoard>,
    /// The board as last settled, and its frame.
    board: Board,
    last: Frame,
    /// The first board read, whose optimum the hints name.
    first: Board,
    plan: Vec<Step>,
    proven: bool,
    /// How long the game's animations take, as seen.
    pace: Pace,
    /// A trouble was said and the board has not been read since.
    waiting: bool,
    /// The window's client area when the last hint was given.
    hinted_at: ScreenRect,
}

impl<'s, 'g, 'o> Assisting<'s, 'g, 'o> {
    /// Plans from the first board, opens the hint window and the marks
    /// on the board (as asked, and where they can be) and shows the first
    /// hint.
    fn start(
        eye: &mut Eye,
        first: Settled,
        settings: &'s Assist,
        game: &'g mut session::Game<'o, Assist>,
    ) -> Result<Assisting<'s, 'g, 'o>, LiveError> {
        let board = first.board;
        let (plan, proven) = plan(&board, &settings.live, game.report.learned.rules(), game)?;
        game.report.set_optimum(plan.len(), proven);
        let mut assisted = Assisting {
            settings,
            game,
            hints: None,
            marks: None,
            board,
            last: first.frame,
            first: board,
            plan,
            proven,
            pace: Pace::new(settings.live.anim),
            waiting: false,
            hinted_at: eye.board.client,
        };
        if settings.hints.beside() {
            assisted.open_hints(eye);
        }
        if settings.hints.on_board() {
            assisted.open_marks(eye);
        }
        assisted.hint(eye, None);
        Ok(assisted)
    }

    /// Opens the hint window, said either way.
    fn open_hints(&mut self, eye: &Eye) {
        let Some(look) = &self.settings.look else {
            return;
        };
        let opened = open_window(
            eye,
            &self.board,
            look,
            self.settings.stop,
            &self.settings.live.query,
        );
        match &opened {
            Ok(w) => self
                .game
                .tell(Event::HintWindow(Ok((&w.title, &w.placement)))),
            Err(cause) => self.game.tell(Event::HintWindow(Err(cause))),
        }
        self.hints = opened.ok();
    }

    /// Makes the marks window and probes whether the bot's reads stay
    /// the same with the marks on the board; said either way.
    fn open_marks(&mut self, eye: &mut Eye) {
        let rules = self.game.report.learned.rules();
        let probed = OnBoard::open().and_then(|mut marks| {
            let probe = marks.probe(eye, &self.board, &self.plan, rules)?;
            Ok((marks, probe))
        });
        match probed {
            Ok((marks, probe)) => {
                log::debug!("marks on the board: {probe:?}");
                self.marks = Some(marks);
                self.game.tell(Event::BoardMarks(Ok(probe)));
            }
            Err(why) => self.no_marks(eye, &why),
        }
    }

    /// The marks cannot be (or stay) on the board: said, and the hints
    /// go on beside it, in a hint window opened for them if none is.
    fn no_marks(&mut self, eye: &Eye, why: &str) {
        log::warn!("no marks on the board: {why}");
        self.marks = None;
        self.game.tell(Event::BoardMarks(Err(why)));
        if self.hints.is_none() && !self.settings.hints.beside() {
            self.open_hints(eye);
        }
    }

    /// Marks the plan's next clicks on the board as `eye` last saw it.
    fn mark(&mut self, eye: &Eye) {
        let rules = self.game.report.learned.rules();
        if let Some(marks) = self.marks.as_mut()
            && let Err(why) = marks.show(eye, &self.board, &self.plan, rules)
        {
            self.no_marks(eye, &why);
        }
    }

    /// Takes the marks off the board (it is about to change, or be
    /// searched, or cannot be read).
    fn unmark(&mut self, eye: &Eye) {
        if let Some(marks) = self.marks.as_mut()
            && let Err(why) = marks.hide()
        {
            self.no_marks(eye, &why);
        }
    }

    /// Whether the marks are off the board while the plan has clicks.
    fn marks_due(&self) -> bool {
        self.marks.as_ref().is_some_and(|m| !m.shown()) && !self.plan.is_empty()
    }

    /// [`Assisting::watching`], the marks taken off at its end: a window
    /// made anew is searched without them.
    fn watch(&mut self, eye: &mut Eye) -> Result<End, LiveError> {
        let end = self.watching(eye);
        self.unmark(eye);
        end
    }

    /// Watches the board until the game ends: while it holds still, a
    /// glance at a few rows of it stands for the full check (the window's
    /// place, what covers it, the board read), made again every so often
    /// and at once when the glance differs.
    fn watching(&mut self, eye: &mut Eye) -> Result<End, LiveError> {
        let mut cadence = Cadence::new(Instant::now());
        loop {
            let tick = Instant::now();
            // Ctrl-C ends the game well; standard output failed stops it.
            if let Err(stop) = stop::check() {
                let error = LiveError::from(stop);
                return ending(&error, None).ok_or(error);
            }
            self.pump(eye);
            if !cadence.check_due(tick) {
                if eye.holds_still() {
                    sleep(cadence.glance_gap(tick).saturating_sub(tick.elapsed()));
                    continue;
                }
                // Something moved there (maybe the mouse to click): fast.
                cadence.changed(tick);
            }
            cadence.checked(tick);
            if self.hints_over_board(eye, false) {
                continue;
            }
            // Marks left where a moved or resized window's board was
            // could fall where its cells are read, or be searched: off.
            if self.marks.as_ref().is_some_and(OnBoard::shown)
                && eye.client_now().ok() != Some(self.hinted_at)
            {
                self.unmark(eye);
            }
            let frame = eye.frame().and_then(|frame| {
                eye.uncovered(Moment::Watching)?;
                Ok(frame)
            });
            let changed = match frame {
                Ok(frame) if frame.board.as_ref().ok() == Some(&self.board) => {
                    self.readable();
                    self.last = frame;
                    // The hint's screen points moved with the window.
                    if eye.board.client != self.hinted_at {
                        self.hint(eye, None);
                    } else if self.marks_due() {
                        self.mark(eye);
                    }
                    false
                }
                Ok(_) => true,
                Err(error) => {
                    if let Some(finish) = ending(&error, Some(eye)) {
                        return Ok(finish);
                    }
                    self.wait(eye, &error);
                    false
                }
            };
            if changed {
                if let Some(finish) = self.follow(eye)? {
                    return Ok(finish);
                }
                cadence.changed(Instant::now());
            } else {
                sleep(cadence.glance_gap(tick).saturating_sub(tick.elapsed()));
            }
        }
    }

    /// The board changed (or cannot be read): waits for it to settle, any
    /// board one click makes under the rules in force being expected, and
    /// follows the player there; learns how long the animation took.
    fn follow(&mut self, eye: &mut Eye) -> Result<Option<End>, LiveError> {
        let when = Moment::AfterPlayerClick(self.game.report.clicks() + 1);
        // The change was just seen: the click was made a little earlier.
        let changed = Instant::now();
        // The marks are the board before the click's: off while the
        // board settles, back with the next hint.
        self.unmark(eye);
        // Only the boards the rules in force make settle at once: another
        // variant's may be an in-between state of these rules.
        let expected = follow::successors(&self.board, &[self.game.report.learned.rules()]);
        let rule = Settling::new(Some(self.board), expected, self.pace.hold());
        let hints = &mut self.hints;
        let mut guard = || {
            // The hint window stays responsive while the board settles.
            if let Some(window) = hints.as_mut() {
                window.pump();
            }
            Ok(stop::check()?)
        };
        let settled = live::wait_settled(eye, &mut guard, rule, &self.settings.live, when);
        let settled = match settled {
            Ok(settled) => {
                if settled.board != self.board {
                    self.pace
                        .animated(settled.since.saturating_duration_since(changed));
                }
                settled
            }
            Err(error) => {
                if let Some(finish) = ending(&error, Some(eye)) {
                    return Ok(Some(finish));
                }
                self.wait(eye, &error);
                return Ok(None);
            }
        };
        self.changed(eye, settled)
    }

    /// The board settled: when it is not the board before, finds the
    /// click that made it, or says that none did, re-plans when the plan
    /// no longer holds, and hints again.
    fn changed(&mut self, eye: &Eye, settled: Settled) -> Result<Option<End>, LiveError> {
        let settings = &self.settings.live;
        let (read, frame) = (settled.board, settled.frame);
        self.readable();
        if read == self.board {
            self.last = frame;
            return Ok(None);
        }
        let number = self.game.report.clicks() + 1;
        // Clicks within one animation show as one change: the fewest
        // clicks that make it are counted, never one for all.
        let before = self.board;
        let explain =
            |rules| follow::explain_clicks(&before, &read, rules, follow::MOST_CLICKS_AT_ONCE);
        let seen = self.game.see(number, |rules| explain(rules).is_some());
        let rules = self.game.report.learned.rules();
        let player_moves = match seen {
            Explanation::Unexplained => None,
            _ => explain(rules),
        };
        match &player_moves {
            // No click leaves a board full: the next game's (the player
            // gave this one up), whose clicks never go against this
            // one's optimum.
            None if read.is_full() => {
                log::info!("a new game's board: {read}");
                return Ok(Some(End::NewBoard));
            }
            Some(steps) => {
                let clicks = self.game.report.clicks();
                let before = clicks as usize + self.plan.len();
                let clicks = clicks + steps.len() as u32;
                let verdict = if let Explanation::Switched { .. } = seen {
                    (self.plan, self.proven) = plan(&read, settings, rules, self.game)?;
                    // The optimum the hints name is the game's, under its
                    // rules.
                    let (first, proven) = plan(&self.first, settings, rules, self.game)?;
                    self.game.report.set_optimum(first.len(), proven);
                    Verdict::NewRules {
                        from_here: self.plan.len(),
                        total: clicks as usize + self.plan.len(),
                    }
                } else if self.plan.get(steps.len() - 1).map(|s| s.board_after) == Some(read) {
                    self.plan.drain(..steps.len());
                    Verdict::AsHinted
                } else {
                    (self.plan, self.proven) = plan(&read, settings, rules, self.game)?;
                    let total = clicks as usize + self.plan.len();
                    Verdict::Cost {
                        cost: total as i64 - before as i64,
                        from_here: self.plan.len(),
                        total,
                    }
                };
                self.record_clicks(clicks, steps, verdict);
                self.game.tell(Event::Move {
                    number: clicks,
                    steps,
                    verdict,
                });
            }
            None => {
                let frames = live::save_frames(
                    &settings.debug_dir,
                    &format!("unexplained-{:02}", self.game.report.clicks()),
                    &[("before", &self.last), ("after", &frame)],
                );
                self.game.report.clicks_unseen();
                log::warn!(
                    "the board changed in a way no clicks explain\n  before {}\n  after  {read}",
                    self.board
                );
                self.game.tell(Event::Unexplained {
                    before: &self.board,
                    after: &read,
                    frames: &frames,
                });
                (self.plan, self.proven) = plan(&read, settings, rules, self.game)?;
            }
        }
        self.board = read;
        self.last = frame;
        self.hint(eye, player_moves.and_then(|steps| steps.last().copied()));
        Ok(self.board.is_cleared().then_some(End::Cleared))
    }

    /// The player's clicks up to `number`, `steps` in order, into the
    /// game's report: whether they followed the hints and what they cost
    /// (`verdict`, for them all, said of the last; the ones before it
    /// followed the hints when all did).
    fn record_clicks(&mut self, number: u32, steps: &[Step], verdict: Verdict) {
        let (followed, cost) = match verdict {
            Verdict::AsHinted => (Some(true), Some(0)),
            Verdict::Cost { cost, .. } => (Some(false), Some(cost)),
            // The hint was made under other rules: neither can be told.
            Verdict::NewRules { .. } => (None, None),
        };
        let first = number + 1 - steps.len() as u32;
        for (n, step) in (first..).zip(steps) {
            let (followed, cost) = if n == number || followed == Some(true) {
                (followed, cost)
            } else {
                (None, None)
            };
            self.game.report.click(n, step.cell, followed, cost);
        }
    }

    /// Shows the hint for the board as it is now.
    fn hint(&mut self, eye: &Eye, player_move: Option<Step>) {
        self.hinted_at = eye.board.client;
        let next_at = self
            .plan
            .first()
            .and_then(|step| eye.board.click_point(step.cell));
        let report = &self.game.report;
        // Known from the first plan on: a change of rules plans the first
        // board again at once.
        let (optimum, optimum_proven) = report.optimum().unwrap_or((0, false));
        let hint = Hint {
            elapsed: report.elapsed(),
            board: self.board,
            clicks: report.clicks(),
            player_move,
            plan: self.plan.clone(),
            rules: report.learned.rules(),
            proven_optimal: self.proven,
            optimum,
            optimum_proven,
            clicks_unseen: report.unseen(),
            on_screen: eye.board.on_screen(),
            next_at,
        };
        if let Some(window) = self.hints.as_mut()
            && !window.show(&hint)
        {
            let by = window.closed_by();
            self.close_hints(by);
        }
        self.mark(eye);
        self.game.tell(Event::Hint(&hint));
    }

    /// Keeps the hint window responsive (a window the player closed is
    /// let go, and the hints go on in the terminal), and the marks above
    /// the game window.
    fn pump(&mut self, eye: &Eye) {
        if let Some(window) = self.hints.as_mut()
            && !window.pump()
        {
            let by = window.closed_by();
            self.close_hints(by);
        }
        if let Some(marks) = self.marks.as_mut()
            && let Err(why) = marks.pump(eye)
        {
            self.no_marks(eye, &why);
        }
    }

    /// Closes the hint window when it is over the board or near enough
    /// for its frame to be (the player moved it there): the board must be
    /// read, and the assistant never waits on its own window. True when it
    /// did. `thorough` (when the board cannot be read) also asks the
    /// window system what is at the board's cells: the window list may
    /// leave the bot's own windows out (xcap does on Windows), and those
    /// questions are too many for every frame.
    fn hints_over_board(&mut self, eye: &Eye, thorough: bool) -> bool {
        let Some(window) = &self.hints else {
            return false;
        };
        let id = window.id();
        let over = eye
            .in_front(crate::desktop::place::GAP.unsigned_abs())
            .is_ok_and(|windows| windows.iter().any(|w| w.id == id))
            || (thorough && eye.window_over_board(id).unwrap_or(false));
        if over {
            self.close_hints("as it was over the board");
        }
        over
    }

    fn close_hints(&mut self, why: &str) {
        self.hints = None;
        self.game.tell(Event::HintWindowClosed(why));
    }

    /// The board reads: a wait said before is over, and said so.
    fn readable(&mut self) {
        if std::mem::take(&mut self.waiting) {
            self.game.tell(Event::Readable);
        }
    }

    /// Says why the board cannot be read, once until it can again; when
    /// the hint window was in the way, closes it instead.
    fn wait(&mut self, eye: &Eye, error: &LiveError) {
        self.unmark(eye);
        if self.hints_over_board(eye, true) {
            return;
        }
        if !self.waiting {
            self.waiting = true;
            let text = format!("{error}: waiting");
            self.game.tell(Event::Waiting(&text));
        }
    }
}

/// The plan from `board` under `rules`, and whether it is proven optimal;
/// `game` is told when the search runs long.
fn plan(
    board: &Board,
    settings: &LiveSettings,
    rules: Rules,
    game: &mut session::Game<'_, Assist>,
) -> Result<(Vec<Step>, bool), LiveError> {
    let (solve, proof) = (&settings.solve, settings.proof.as_ref());
    let outcome = live::plan(board, solve, proof, rules, &mut |best| {
        game.tell(Event::StillProving { best });
    })?;
    Ok((outcome.moves, outcome.proven_optimal))
}

/// The errors that end assistance: Ctrl-C, and the game window closed
/// (a capture that failed because the window went counts, when `eye` can
/// tell).
fn ending(error: &LiveError, eye: Option<&mut Eye>) -> Option<End> {
    match (session::end_of(error), error) {
        (end @ (End::Interrupted | End::WindowClosed), _) => Some(end),
        (_, LiveError::Capture(_)) => match eye.map(Eye::client_now) {
            Some(Err(LiveError::Capture(CaptureError::Gone { .. }))) => Some(End::WindowClosed),
            _ => None,
        },
        _ => None,
    }
}

/// Opens the hint window beside the game window, away from its board.
fn open_window(
    eye: &Eye,
    board: &Board,
    look: &Look,
    stop: fn(Asker),
    query: &str,
) -> Result<HintWindow, String> {
    HintWindow::open(
        query,
        (board.width(), board.height()),
        (look, stop),
        (eye.board.client, eye.board.area(), eye.work_area()),
        eye.screen_scale(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, replay};

    fn hint(clicks: u32, plan_len: usize, optimum: usize) -> Hint {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let plan = replay(&board, &[Cell::new(7, 0)]).unwrap();
        Hint {
            elapsed: Duration::ZERO,
            board,
            clicks,
            player_move: None,
            plan: plan.iter().cycle().take(plan_len).copied().collect(),
            rules: Rules::CentreRows,
            proven_optimal: true,
            optimum,
            optimum_proven: true,
            clicks_unseen: false,
            on_screen: Geometry::square(0.0, 0.0, 80.0, 8, 6),
            next_at: None,
        }
    }

    #[test]
    fn the_caption_counts_clicks_against_the_optimum_and_the_reward() {
        assert_eq!(
            hint(0, 11, 11).caption(),
            ["click 1 of 11, optimum 11 (proven)", "reward reachable"]
        );
        assert_eq!(
            hint(4, 9, 11).caption(),
            [
                "click 5 of 13, optimum 11 (proven)",
                "reward out of reach (12 clicks at most)"
            ]
        );
        let mut unseen = hint(4, 7, 11);
        unseen.clicks_unseen = true;
        assert_eq!(
            unseen.caption(),
            [
                "click 5 of 11, optimum 11 (proven)",
                "the reward cannot be told (clicks not all seen)"
            ]
        );
        let mut unproven = hint(0, 16, 16);
        unproven.optimum_proven = false;
        assert_eq!(
            unproven.caption(),
            [
                "click 1 of 16, optimum 16 (not proven)",
                "reward out of reach (12 clicks at most)"
            ]
        );
        let mut cleared = hint(12, 0, 11);
        cleared.board = Board::empty(8, 6).unwrap();
        assert_eq!(
            cleared.caption(),
            [
                "cleared in 12 clicks, optimum 11 (proven)",
                "within the reward's clicks"
            ]
        );
    }
}
