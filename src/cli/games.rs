//! Many games in a row (`--games N`) and the player's record
//! (`--game-log FILE`), for live play and assist mode alike: how many games
//! are left, the wait for the next game's board between them, a record of
//! each game (appended to the log as it ends) and the run's summary.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};

use super::args::PlayArgs;
use super::say;
use crate::desktop::{CaptureError, GameWindow, InputError, stop};
use crate::game::{Board, Cell, Rules};
use crate::live::{self, LiveError, LiveSettings};
use crate::record::stats::Stats;
use crate::record::{self, ClickRecord, End, GameLog, GameRecord, Mode};
use crate::solver::SolveOptions;

/// The games of one run.
pub(super) struct Games {
    /// How many games to see; `None` until Ctrl-C.
    limit: Option<u32>,
    log: Option<GameLog>,
    played: Vec<GameRecord>,
}

impl Games {
    /// The run `args` ask for; the game log is opened now, so that one
    /// that cannot be written is said before any game.
    pub fn new(args: &PlayArgs, calibration: &Path) -> Result<Games> {
        let log = match &args.live.game_log {
            Some(path) => Some(GameLog::open(path, &[calibration])?),
            None => None,
        };
        Ok(Games {
            limit: (args.live.games > 0).then_some(args.live.games),
            log,
            played: Vec::new(),
        })
    }

    /// Whether another game is wanted after those played.
    pub fn want_more(&self) -> bool {
        self.limit
            .is_none_or(|limit| self.played.len() < limit as usize)
    }

    /// Keeps the record of a game that ended and appends it to the log.
    pub fn ended(&mut self, record: GameRecord) -> Result<()> {
        if let Some(log) = self.log.as_mut() {
            log.append(&record)?;
        }
        self.played.push(record);
        Ok(())
    }

    /// Whether the run goes until Ctrl-C (`--games 0`): Ctrl-C is then
    /// how it ends, well, in a game or between games.
    pub fn until_stopped(&self) -> bool {
        self.limit.is_none()
    }

    /// Waits for the next game's board in `window`, said once; `false`
    /// when Ctrl-C or the game window closing ended the wait (the run ends
    /// well, with its summary).
    pub fn wait_next(&self, window: &mut dyn GameWindow, settings: &LiveSettings) -> Result<bool> {
        stop::catch()?;
        say!("waiting for the next game");
        match live::wait_next_game(window, settings) {
            Ok(_) => Ok(true),
            Err(LiveError::Input(InputError::Interrupted)) => Ok(false),
            Err(LiveError::Capture(CaptureError::Gone { .. })) => {
                say!("the game window closed: no more games");
                Ok(false)
            }
            Err(error) => Err(error).context("waiting for the next game"),
        }
    }

    /// A game stopped the run (its record, when a board was read): the
    /// record is kept and logged, a log that cannot take it said at once
    /// (the run ends with the stop's error), then the run's summary.
    pub fn stopped(&mut self, record: Option<GameRecord>) {
        if let Some(record) = record
            && let Err(error) = self.ended(record)
        {
            eprintln!("error: {error:#}");
        }
        self.finish();
    }

    /// Prints the run's last line, for more than one game.
    pub fn finish(&self) {
        if self.played.len() > 1 || self.limit != Some(1) {
            say!("{}", summary(&self.played));
        }
    }
}

/// "3 games: 3 cleared, the reward in 3 (100%), 0.33 clicks over the
/// optimum on average, median game 4.80 s".
fn summary(played: &[GameRecord]) -> String {
    let all = Stats::of(played).overall;
    let mut text = format!("{} game(s): {} cleared", all.games, all.cleared);
    if let Some(rate) = all.reward_rate {
        text += &format!(", the reward in {} ({:.0}%)", all.rewards, 100.0 * rate);
    }
    if let Some(over) = all.mean_clicks_over_optimum {
        text += &format!(", {over:.2} clicks over the optimum on average");
    }
    if let Some(ms) = all.median_cleared_ms {
        text += &format!(", median game {:.2} s", ms / 1000.0);
    }
    text
}

/// One game as it goes: its first board, the optimum, the rules and every
/// click, timed from its start, for its record.
pub(super) struct Tally {
    started: Instant,
    started_at: String,
    first: Option<Board>,
    rules: Rules,
    optimum: Option<(usize, bool)>,
    /// Click numbers with their record: a click made again (the game did
    /// not take it) replaces the one before.
    clicks: Vec<(u32, ClickRecord)>,
    /// Some clicks were not seen: the count is a lower bound.
    unseen: bool,
}

impl Tally {
    pub fn start(rules: Rules) -> Tally {
        Tally {
            started: Instant::now(),
            started_at: record::now_rfc3339(),
            first: None,
            rules,
            optimum: None,
            clicks: Vec::new(),
            unseen: false,
        }
    }

    /// The board changed in a way no clicks explain: from now on the count
    /// is only a lower bound.
    pub fn clicks_unseen(&mut self) {
        self.unseen = true;
    }

    /// The first board read.
    pub fn board(&mut self, board: &Board) {
        self.first.get_or_insert(*board);
    }

    /// The first board's optimum under the rules in force: the first plan
    /// (from the first board) or assist mode's hints, which name it.
    pub fn optimum(&mut self, length: usize, proven: bool) {
        self.optimum = Some((length, proven));
    }

    /// The game shows other rules: the optimum known is not theirs.
    pub fn rules_switched(&mut self, rules: Rules) {
        self.rules = rules;
        self.optimum = None;
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

    /// How many clicks were made so far.
    pub fn clicks(&self) -> usize {
        self.clicks.len()
    }

    /// Whether the first board's optimum under the rules in force is
    /// known (a first plan, or a hint, since the last change of rules).
    pub fn knows_optimum(&self) -> bool {
        self.optimum.is_some()
    }

    /// The game's record, when a board was read: it ended as `end`, after
    /// `error` when it stopped on one. An optimum not known (the rules
    /// changed since) is planned now with `solve`.
    pub fn record(
        self,
        mode: Mode,
        end: End,
        error: Option<String>,
        solve: &SolveOptions,
    ) -> Option<GameRecord> {
        let board = self.first?;
        let (optimum, optimum_proven) = self.optimum.unwrap_or_else(|| {
            live::plan(&board, solve, self.rules)
                .map_or((0, false), |plan| (plan.length(), plan.proven_optimal))
        });
        let cleared = end == End::Cleared;
        let clicks: Vec<ClickRecord> = self.clicks.into_iter().map(|(_, c)| c).collect();
        Some(GameRecord {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            started: self.started_at,
            mode,
            board,
            rules: self.rules,
            optimum: optimum as u32,
            optimum_proven,
            // A count that is only a lower bound claims no reward.
            reward: record::earns_reward(clicks.len(), cleared) && !self.unseen,
            clicks_unseen: self.unseen,
            clicks,
            cleared,
            duration_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            end,
            error,
        })
    }
}

/// How a game that stopped on `error` ended, for its record.
pub(super) fn end_of(error: &LiveError) -> End {
    match error {
        LiveError::Input(InputError::Interrupted) => End::Interrupted,
        LiveError::Capture(CaptureError::Gone { .. }) => End::WindowClosed,
        _ => End::Stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

    fn solve() -> SolveOptions {
        SolveOptions {
            time_limit: std::time::Duration::from_secs(10),
            ..SolveOptions::default()
        }
    }

    #[test]
    fn a_click_made_again_is_one_click_of_the_record() {
        let board: Board = EXAMPLE.parse().unwrap();
        let mut tally = Tally::start(Rules::CentreRows);
        tally.board(&board);
        tally.optimum(11, true);
        tally.click(1, Cell::new(7, 0), None, None);
        tally.click(1, Cell::new(7, 0), None, None);
        tally.click(2, Cell::new(3, 1), Some(false), Some(1));
        let record = tally
            .record(Mode::Assist, End::Stopped, Some("why".into()), &solve())
            .unwrap();
        assert_eq!(record.clicks.len(), 2);
        assert_eq!(record.clicks[0].cell, [7, 0]);
        assert_eq!(record.clicks[1].followed, Some(false));
        assert_eq!(record.clicks[1].cost, Some(1));
        assert_eq!((record.optimum, record.optimum_proven), (11, true));
        assert!(!record.cleared && !record.reward);
        assert_eq!(record.board, board);
        assert_eq!(record.error.as_deref(), Some("why"));
    }

    #[test]
    fn no_board_read_is_no_game() {
        let tally = Tally::start(Rules::CentreRows);
        assert!(
            tally
                .record(Mode::Play, End::Interrupted, None, &solve())
                .is_none()
        );
    }

    #[test]
    fn an_optimum_the_rules_made_stale_is_planned_again() {
        let board: Board = EXAMPLE.parse().unwrap();
        let mut tally = Tally::start(Rules::CentreRows);
        tally.board(&board);
        tally.optimum(11, true);
        tally.rules_switched(Rules::Gravity);
        assert!(!tally.knows_optimum());
        let record = tally
            .record(Mode::Play, End::Cleared, None, &solve())
            .unwrap();
        let gravity = crate::live::plan(&board, &solve(), Rules::Gravity).unwrap();
        assert_eq!(record.rules, Rules::Gravity);
        assert_eq!(record.optimum as usize, gravity.length());
        assert_eq!(record.optimum_proven, gravity.proven_optimal);
    }

    #[test]
    fn the_summary_counts_games_cleared_and_rewards() {
        let board: Board = EXAMPLE.parse().unwrap();
        let game = |clicks: usize, end: End| {
            let mut tally = Tally::start(Rules::CentreRows);
            tally.board(&board);
            tally.optimum(11, true);
            for n in 0..clicks {
                tally.click(n as u32 + 1, Cell::new(0, 0), None, None);
            }
            tally.record(Mode::Play, end, None, &solve()).unwrap()
        };
        let played = [
            game(11, End::Cleared),
            game(13, End::Cleared),
            game(4, End::Interrupted),
        ];
        let text = summary(&played);
        assert!(
            text.starts_with("3 game(s): 2 cleared, the reward in 1 (33%), 1.00 clicks over the optimum on average"),
            "{text}"
        );
    }
}
