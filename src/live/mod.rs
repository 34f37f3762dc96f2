//! The live floor: what live play ([`crate::play`], which clicks) and
//! assist mode ([`crate::assist`], which hints) share on a game window that
//! is on the screen now. [`eye`] captures and reads the board where the
//! window is; [`settling`] says when a board read after a move is at rest
//! and learns how long the game animates; [`rules`] learns which variant
//! of the rules the game plays by; [`screen`] maps the board between the
//! window's pixels and the desktop's (what to capture, where to click,
//! where the mouse rests); [`watch`] says how to watch a board that holds
//! still cheaply; [`session`] holds the life of a game and of games in a
//! row, once for both drivers. This module holds the settings both drivers
//! share, the one error type they stop with (in `error`), the wait for a
//! settled board, the wait for the next game and the plan.

#[cfg(test)]
mod animations;
mod error;
pub(crate) mod eye;
pub mod find;
mod proof;
pub mod rules;
pub(crate) mod screen;
pub mod session;
pub(crate) mod settling;
pub(crate) mod watch;

use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::desktop::{CaptureError, GameWindow, Region, stop};
use crate::game::{Board, Rules};
use crate::solver::{self, Outcome, SolveOptions, StopFlag};
use crate::vision::Calibration;
pub use error::{LiveError, Moment, NoBoard};
use eye::{Capture, Captured, Eye, Frame};
pub use proof::{Proof, Proven};
pub use rules::{Explanation, Learned, RulesChoice};
use settling::{Settling, Status};
use watch::{Cadence, Glance};

/// How often the board is captured while it settles and its animation is
/// still due to run (see [`Settling::next_read`]), and glanced at right
/// after a change (see [`watch::Cadence`]).
pub const POLL: Duration = Duration::from_millis(50);

/// How often a window without a new game's board is searched again, at
/// most, while it changes.
const REFIND: Duration = Duration::from_millis(200);

/// What both drivers were asked for.
#[derive(Clone, Debug)]
pub struct LiveSettings {
    pub calibration: Calibration,
    /// The solver's settings; its `rules` give way to the rules in force.
    pub solve: SolveOptions,
    /// The rules to play by, or `auto`.
    pub rules: RulesChoice,
    /// How long a board may take to settle after a move (and to be read
    /// steadily at the start).
    pub settle_limit: Duration,
    /// How long the game animates a move, when the player knows it.
    pub anim: Option<Duration>,
    /// Where frames are saved when a board read is not what was expected
    /// or cannot be read.
    pub debug_dir: PathBuf,
    /// The `--window` text: a window made anew by the game is found by it,
    /// and the bot's own windows must not hold it.
    pub query: String,
    /// The proof of a board worked out ahead of the run, ended or under
    /// way (the front door proves the board it shows): the run's plan for
    /// that board and rules, taken rather than worked out again.
    pub proof: Option<Proof>,
}

/// A board settled: the board, its frame, when it was first read so
/// (where the animation that led to it ended, at the latest), and when it
/// was last read otherwise (when the animation was still on, if it was
/// read other).
#[derive(Debug)]
pub(crate) struct Settled {
    pub board: Board,
    pub frame: Frame,
    pub since: Instant,
    pub moving: Option<Instant>,
}

/// Waits until `window` shows the next game: a full board (no click has
/// touched it) held still, read as at the start of a game. Anything else
/// is waited out: no board (the game over, a menu, a result screen), a
/// board part played, a window in front. Ctrl-C, or the window closing,
/// ends the wait with an error. The bot never clicks to start a game: the
/// player or the game does. The window is searched again only when a
/// glance at it differs from the one before the last search, or it moved:
/// a window that holds still shows no new game.
pub(crate) fn wait_next_game(
    window: &mut dyn GameWindow,
    settings: &LiveSettings,
) -> Result<(), LiveError> {
    let mut cadence = Cadence::new(Instant::now());
    // The glance taken just before the last search (so no later change
    // passes for it).
    let mut searched = None;
    loop {
        let tick = Instant::now();
        stop::check()?;
        let mut moved = false;
        if cadence.check_due(tick) {
            cadence.checked(tick);
            let before = window.info().area();
            // Closed, minimised, moved or resized: the search says which.
            moved = window.refresh().map(|now| now.area()).ok() != Some(before);
        }
        let (width, height) = (window.info().width, window.info().height);
        let glance = eye::glance(window, Region::whole(width, height));
        if !moved && glance.is_some() && glance == searched {
            sleep(cadence.glance_gap(tick).saturating_sub(tick.elapsed()));
            continue;
        }
        cadence.changed(tick);
        searched = glance;
        match session::first_board(window, settings) {
            Ok((_, settled)) if settled.board.is_full() => return Ok(()),
            Err(
                error @ (LiveError::Input(_)
                | LiveError::Capture(
                    CaptureError::Gone { .. } | CaptureError::DisplayClosed,
                )),
            ) => {
                return Err(error);
            }
            Ok(_) | Err(_) => {}
        }
        sleep(REFIND.saturating_sub(tick.elapsed()));
    }
}

/// `board`, read in `frame`, settled by `rule`: steady since the rule
/// saw it hold (else since the frame), the animation's end as it saw it.
fn settled(rule: &Settling, board: Board, frame: Frame) -> Settled {
    Settled {
        board,
        since: rule.steady_since().unwrap_or(frame.taken),
        moving: rule.moving_until(),
        frame,
    }
}

/// Captures the board until it settles by `rule` (see [`Settling`]), as
/// often as the rule says, for at most the settings' limit. Runs `guard`
/// before every capture (the user's mouse, Ctrl-C), so that a stop is seen
/// at once. A capture is read where the rule asks ([`Settling::captured`]):
/// one whose pixels held since the captures before, and while the board
/// keeps moving one now and then. A window in front of the board is an
/// error at once (checked with every read, and every [`POLL`] between
/// them): its pixels could pass for an animation frame or even for a board.
/// A predicted board is settled by a glance that finds the pixels of the
/// frame that read it unchanged (the same pixels read the same); a glance
/// that differs brings a capture at once.
pub(crate) fn wait_settled(
    eye: &mut Eye,
    guard: &mut dyn FnMut() -> Result<(), LiveError>,
    mut rule: Settling,
    settings: &LiveSettings,
    when: Moment,
) -> Result<Settled, LiveError> {
    let started = Instant::now();
    let deadline = started + settings.settle_limit;
    // The frame read before, saved with the last when the time is up: the
    // two show what kept changing.
    let mut before: Option<Frame> = None;
    // The glance of the last capture of the board's region, and that
    // capture where it went unread (read when the time is up, as the frame
    // before the last).
    let mut last: Option<Glance> = None;
    let mut unread: Option<Capture> = None;
    loop {
        let tick = Instant::now();
        guard()?;
        if let (Some(board), Some(last)) = (rule.to_agree(), &before)
            && last.board.as_ref() == Ok(&board)
            && eye.still_shows(last)
            && let Status::Settled(board) = rule.held(Instant::now())
        {
            let frame = before.take().expect("the frame that read the board");
            log::debug!(
                "settled {when} in {} ms (agreed by a glance)",
                started.elapsed().as_millis()
            );
            return Ok(settled(&rule, board, frame));
        }
        let frame = match eye.capture()? {
            Captured::Searched(frame) => {
                last = None;
                rule.captured(frame.taken, false);
                frame
            }
            Captured::Board(capture) => {
                let same = last.replace(capture.glance) == Some(capture.glance);
                let previous = unread.take();
                let due = rule.captured(capture.taken, same);
                if tick >= deadline {
                    before = previous.map(|previous| eye.read(previous)).or(before);
                    eye.read(capture)
                } else if due {
                    eye.read(capture)
                } else {
                    let next = rule.next_read(capture.taken);
                    unread = Some(capture);
                    // A check this wait made within FRESH serves: the
                    // windows in front looked at every POLL at most.
                    eye.uncovered_after(started, when)?;
                    sleep(next.saturating_duration_since(Instant::now()));
                    continue;
                }
            }
        };
        eye.uncovered(when)?;
        let read = frame.board.as_ref().ok().copied();
        // A predicted board read from pixels that held long enough
        // settles at once; else the glance that follows settles it.
        let status = match rule.see(read, frame.taken) {
            Status::Wait => rule.held(frame.taken),
            settled => settled,
        };
        let board = match status {
            Status::Settled(board) => Some(board),
            Status::Wait if tick >= deadline => rule.timed_out(),
            Status::Wait => {
                // From the read: a glance must come AGREE after it.
                let next = rule.next_read(frame.taken);
                before = Some(frame);
                sleep(next.saturating_duration_since(Instant::now()));
                continue;
            }
        };
        if let Some(board) = board {
            log::debug!("settled {when} in {} ms", started.elapsed().as_millis());
            return Ok(settled(&rule, board, frame));
        }
        let mut frames = vec![("last", &frame)];
        frames.extend(before.as_ref().map(|b| ("before", b)));
        save_frames(&settings.debug_dir, "unsettled", &frames);
        return Err(LiveError::Unsettled {
            when,
            waited_ms: started.elapsed().as_millis(),
            cause: match frame.board {
                Ok(_) => NoBoard::KeptChanging,
                Err(error) => NoBoard::Unread(error),
            },
        });
    }
}

/// How long a plan is worked out before the player is told it still is:
/// most boards are proven within a tenth of a second, the hardest take
/// several seconds, and a bot silent that long looks stuck.
pub(crate) const STILL_PROVING_AFTER: Duration = Duration::from_secs(1);

/// The best plan the solver finds from `board` under `rules` within
/// `solve`'s budget (proven or not); an error when it clears nothing. The
/// plan of a proof worked out ahead (`proof`) for that board and rules is
/// taken, waited for if still under way; a proof of another board is
/// stopped, of no use to this run. When the search (or the wait) runs past
/// [`STILL_PROVING_AFTER`], `still` is told once, on this thread, with
/// the length of the best solution found by then, if any.
pub(crate) fn plan(
    board: &Board,
    solve: &SolveOptions,
    proof: Option<&Proof>,
    rules: Rules,
    still: &mut dyn FnMut(Option<usize>),
) -> Result<Outcome, LiveError> {
    if let Some(proof) = proof {
        if proof.serves(board, rules) {
            if let Some(outcome) = proof.wait(still)? {
                log::info!("the plan worked out before the run, taken");
                return Ok(outcome);
            }
        } else {
            proof.stop();
        }
    }
    let options = SolveOptions {
        rules,
        // A stop asked for ends the search at once, proven or not.
        stop: Some(StopFlag(stop::requested())),
        ..solve.clone()
    };
    // The search runs on a thread of its own so that this one, which
    // tells the player, can speak while it runs.
    let search = solver::Solving::start(board, &options);
    let outcome = match search.outcome.recv_timeout(STILL_PROVING_AFTER) {
        Err(RecvTimeoutError::Timeout) => {
            still(search.best());
            search.outcome.recv().ok()
        }
        result => result.ok(),
    }
    .expect("the search's thread sends its outcome unless it panicked");
    if !outcome.clears(board) {
        // A search cut short by a stop is the stop, not a board unsolved.
        stop::check()?;
        return Err(LiveError::NoPlan(Box::new(*board)));
    }
    Ok(outcome)
}

/// Whether `file` is named as [`save_frames`] names the frames the drivers
/// save (`unsettled-last.png`, `unreadable-frame.png`,
/// `changed-frame.png`, `click-07-before.png`, `unexplained-03-after.png`):
/// what a report may take from the debug folder, and nothing else there.
pub fn is_a_frame_name(file: &str) -> bool {
    let Some(stem) = file.strip_suffix(".png") else {
        return false;
    };
    if [
        "unsettled-before",
        "unsettled-last",
        "unreadable-frame",
        "changed-frame",
    ]
    .contains(&stem)
    {
        return true;
    }
    let numbered = |prefix: &str| {
        stem.strip_prefix(prefix)
            .and_then(|rest| rest.split_once('-'))
            .is_some_and(|(number, label)| {
                number.len() >= 2
                    && number.bytes().all(|b| b.is_ascii_digit())
                    && ["before", "after"].contains(&label)
            })
    };
    numbered("click-") || numbered("unexplained-")
}

/// Saves frames as `DIR/NAME-LABEL.png` for a later look; a frame that
/// cannot be saved is worth a warning, not a stop. Only frames that show
/// the game's own board area are kept: a capture of another window in its
/// place (another desktop, a notification over the board) is never
/// saved, and its file from an earlier frame of that name goes, so that
/// the folder never holds a frame of another moment under the name.
pub(crate) fn save_frames(dir: &Path, name: &str, frames: &[(&str, &Frame)]) -> Vec<PathBuf> {
    if let Err(error) = std::fs::create_dir_all(dir) {
        log::warn!("{}: cannot create the debug folder: {error}", dir.display());
        return Vec::new();
    }
    frames
        .iter()
        .filter_map(|(label, frame)| {
            let path = dir.join(format!("{name}-{label}.png"));
            if !frame.shows_the_game {
                log::info!(
                    "{}: not kept, the capture shows another picture than the game's",
                    path.display()
                );
                if let Err(error) = std::fs::remove_file(&path)
                    && error.kind() != std::io::ErrorKind::NotFound
                {
                    log::warn!("{}: cannot remove the older frame: {error}", path.display());
                }
                return None;
            }
            match crate::files::save_png(&path, &frame.image, crate::files::Existing::Replace) {
                Ok(()) => Some(path),
                Err(error) => {
                    log::warn!("{}: cannot save the frame: {error}", path.display());
                    None
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EXAMPLE_BOARD;

    #[test]
    fn a_plan_worked_out_before_is_taken_for_its_board_and_rules_alone() {
        let example: Board = EXAMPLE_BOARD.parse().unwrap();
        let solve = SolveOptions {
            time_limit: Duration::from_secs(10),
            ..SolveOptions::default()
        };
        let plan = |board: &Board, proof: Option<&Proof>, rules: Rules| {
            plan(board, &solve, proof, rules, &mut |_| {}).unwrap()
        };
        let searched = plan(&example, None, Rules::CentreRows);
        assert!(searched.proven_optimal && searched.nodes > 0);
        let proof = Proof::ended(example, Rules::CentreRows, searched.clone());
        let proof = Some(&proof);
        // The same board and rules: the plan at once, with no search.
        let taken = plan(&example, proof, Rules::CentreRows);
        assert_eq!(taken.nodes, 0);
        assert!(taken.proven_optimal);
        let cells = |o: &Outcome| o.moves.iter().map(|s| s.cell).collect::<Vec<_>>();
        assert_eq!(cells(&taken), cells(&searched));
        // Other rules, or another board: searched.
        let gravity = plan(&example, proof, Rules::Gravity);
        assert!(gravity.nodes > 0 && gravity.rules == Rules::Gravity);
        let after = searched.moves[0].board_after;
        let other = plan(&after, proof, Rules::CentreRows);
        assert!(other.nodes > 0 && other.length() == searched.length() - 1);
        // The best found within the budget is a plan, and said as not
        // proven; moves that do not clear the board are none.
        let unproven = Outcome {
            proven_optimal: false,
            lower_bound: 9,
            ..searched.clone()
        };
        let proof = Proof::ended(example, Rules::CentreRows, unproven.clone());
        let taken = plan(&example, Some(&proof), Rules::CentreRows);
        assert!(!taken.proven_optimal && taken.lower_bound == 9);
        let part = Outcome {
            moves: searched.moves[..3].to_vec(),
            ..unproven
        };
        let proof = Proof::ended(example, Rules::CentreRows, part.clone());
        assert!(matches!(proof.within(Duration::ZERO), Proven::NoPlan));
        let none = Outcome {
            moves: Vec::new(),
            ..part
        };
        let proof = Proof::ended(example, Rules::CentreRows, none);
        assert!(matches!(proof.within(Duration::ZERO), Proven::NoPlan));
    }

    #[test]
    fn a_proof_under_way_is_waited_for_on_its_board_and_stopped_on_another() {
        let example: Board = EXAMPLE_BOARD.parse().unwrap();
        let hard: Board = "OYGGGGOG,GOBYBOYY,ORYBOBGR,RRGRYGOB,YBBOBORY,ORYYYBGB"
            .parse()
            .unwrap();
        let solve = SolveOptions {
            time_limit: Duration::from_secs(30),
            ..SolveOptions::default()
        };
        let planned = |proof: &Proof| {
            plan(
                &example,
                &solve,
                Some(proof),
                Rules::CentreRows,
                &mut |_| {},
            )
            .unwrap()
        };
        // Its own board: the proof's plan, this run's search none.
        let proof = Proof::start(example, &solve);
        let taken = planned(&proof);
        assert!(taken.proven_optimal && taken.length() == 11 && taken.nodes == 0);
        assert!(taken.moves.last().unwrap().board_after.is_cleared());
        // Ended, it keeps its plan when a run meets another board.
        let after = taken.moves[0].board_after;
        plan(&after, &solve, Some(&proof), Rules::CentreRows, &mut |_| {}).unwrap();
        assert!(proof.serves(&example, Rules::CentreRows));
        // Another board: the proof (seconds of work) is stopped, so it
        // gives no plan, and the board is searched.
        let proof = Proof::start(hard, &solve);
        assert!(planned(&proof).nodes > 0);
        assert!(!proof.serves(&hard, Rules::CentreRows));
        assert!(matches!(
            proof.within(Duration::from_secs(30)),
            Proven::NoPlan
        ));
    }

    #[test]
    fn only_the_frames_the_drivers_save_are_named_as_frames() {
        for frame in [
            "unsettled-before.png",
            "unsettled-last.png",
            "unreadable-frame.png",
            "changed-frame.png",
            "click-07-before.png",
            "click-12-after.png",
            "unexplained-03-after.png",
        ] {
            assert!(is_a_frame_name(frame), "{frame}");
        }
        for other in [
            "notes.png",
            "click-7-before.png",
            "click-07-during.png",
            "unreadable-frame.png.txt",
            "screenshot.png",
            "frame-1.png",
        ] {
            assert!(!is_a_frame_name(other), "{other}");
        }
    }
}
