//! Live play: the one place that wires capture, vision, solver and input
//! into the verified click loop. It reads the board from the game window,
//! plans with the solver, and for every move checks the board is still
//! where and what the plan assumes, clicks the cell's centre, waits for the
//! board to settle and compares it with the plan's prediction, re-planning
//! from the board read when they differ. With `auto` rules it also holds
//! each board read against every variant of the rules (`learn`) and
//! switches to the one the game shows. It learns from each click how long
//! the game animates, waits that long before the next click, and clicks
//! again once when a click changed nothing. Whenever it is unsure (window
//! gone, moved while aiming, board unreadable, the user took the mouse,
//! Ctrl-C) it stops without clicking.

#[cfg(test)]
mod animations;
pub(crate) mod eye;
pub(crate) mod learn;
pub(crate) mod place;
pub(crate) mod settle;

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use image::RgbaImage;
use thiserror::Error;

use crate::desktop::{CaptureError, Desktop, GameWindow, InputError, Mouse, ScreenPoint, stop};
use crate::game::{Board, Rules, Step};
use crate::solver::{self, Outcome, SolveOptions};
use crate::vision::{Calibration, VisionError};
use eye::{Eye, Frame};
pub use learn::{Learned, RulesChoice, Seen};
use settle::{Pace, Progress, Settle};

/// How often the board is captured while it settles.
const POLL: Duration = Duration::from_millis(50);

/// How many times aiming looks again when the window moves in between.
const AIM_TRIES: u32 = 5;

/// What live play was asked for.
#[derive(Debug)]
pub struct PlaySettings {
    pub calibration: Calibration,
    /// The solver's settings; its `rules` give way to the rules in force.
    pub solve: SolveOptions,
    /// The rules to play by, or `auto`.
    pub rules: RulesChoice,
    /// How long to wait for the board to settle after a click (and to read
    /// it steadily at the start).
    pub settle: Duration,
    /// How long the game animates a move, when the player knows it.
    pub anim: Option<Duration>,
    pub max_replans: u32,
    pub max_moves: Option<u32>,
    /// Where frames are saved when the board read differs from the plan or
    /// play stops on an unreadable board.
    pub debug_dir: PathBuf,
    /// Read and plan, never click.
    pub dry_run: bool,
}

/// Why live play stopped (or never started).
#[derive(Debug, Error)]
pub enum PlayError {
    #[error(transparent)]
    Capture(#[from] CaptureError),
    #[error(transparent)]
    Input(#[from] InputError),
    // Both causes look alike from here: a window with too little dust to
    // place a board, and a calibration made for another screen.
    #[error(
        "no board read in the window ({0}): start a game if none is on, else calibrate for this window (bot calibrate --window TEXT)"
    )]
    Misfit(String),
    #[error("the board is not inside the window any more")]
    OffBoard,
    #[error("the board is partly off the screen: move the window fully onto one screen")]
    OffScreen,
    #[error("the board is unreadable {when} (covered by another window?): {cause}")]
    Unreadable { when: String, cause: String },
    #[error("the board changed {when} without a click: expected {expected}, read {found}")]
    Changed {
        when: String,
        expected: Box<Board>,
        found: Box<Board>,
    },
    #[error("the board did not settle within {waited_ms} ms {when}: {cause}")]
    Unsettled {
        when: String,
        waited_ms: u128,
        cause: String,
    },
    #[error("another window covers the board {when}: {by}")]
    Covered { when: String, by: String },
    #[error("the window kept moving while aiming {when}")]
    Unsteady { when: String },
    #[error("the board read differed from the plan {count} times (at most {max} re-plans)")]
    TooManyReplans { count: u32, max: u32 },
    #[error(
        "click {number} changed nothing, and neither did the same click again: the game did not take the bot's clicks (a game run as administrator ignores a normal process's input: run the bot as administrator too) or its window did not take the click (is another window or a dialog in front of it?)"
    )]
    NoEffect { number: u32 },
    #[error("no dust on the board: start a game first")]
    NoDust,
    #[error("the solver found no way to clear {0}")]
    NoPlan(Box<Board>),
}

/// A stop, with how far play got.
#[derive(Debug, Error)]
#[error("{error} (stopped after {clicks} click(s))")]
pub struct Stopped {
    pub error: PlayError,
    pub clicks: u32,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    Cleared,
    MaxMoves,
    DryRun,
}

/// A game played (or planned).
#[derive(Clone, Debug)]
pub struct Report {
    pub finish: Finish,
    pub clicks: u32,
    /// The first plan's length, and whether it was proven optimal.
    pub planned: usize,
    pub proven_optimal: bool,
    /// Re-plans for boards the rules in force did not explain (not those
    /// for a change of rules).
    pub replans: u32,
    /// From the first capture to the end.
    pub elapsed: Duration,
    /// The rules played by at the end, and what the clicks showed.
    pub learned: Learned,
}

/// What happens, as it happens, for the command line to show.
#[derive(Debug)]
pub enum Event<'a> {
    /// The board read at the start.
    Board {
        board: &'a Board,
        confidence: f32,
    },
    Plan {
        outcome: &'a Outcome,
        replans: u32,
    },
    Click {
        number: u32,
        step: &'a Step,
        at: ScreenPoint,
    },
    /// Click `number` changed nothing (the board settled as it was): it is
    /// made again after `wait`.
    Lost {
        number: u32,
        wait: Duration,
    },
    /// The board read after click `number` showed other rules than those
    /// played by: `rules` from now on, the first of the `candidates` that
    /// explain every click so far.
    RulesSwitched {
        number: u32,
        rules: Rules,
        candidates: &'a [Rules],
    },
    /// The board read after a click is not the plan's, and no rules still
    /// in question explain it.
    Mismatch {
        number: u32,
        expected: &'a Board,
        found: &'a Board,
        frames: &'a [PathBuf],
    },
}

/// Plays the game in `window` until the board is cleared, `--max-moves`
/// is reached, or something makes the bot unsure.
pub fn play(
    desktop: &mut dyn Desktop,
    window: &mut dyn GameWindow,
    settings: &PlaySettings,
    observe: &mut dyn FnMut(Event),
) -> Result<Report, Stopped> {
    let mut game = Game {
        settings,
        observe,
        started: Instant::now(),
        clicks: 0,
        replans: 0,
        learned: Learned::new(settings.rules),
        pace: Pace::new(settings.anim),
        last_click: None,
    };
    let result = game.run(desktop, window);
    let clicks = game.clicks;
    result.map_err(|error| Stopped { error, clicks })
}

struct Game<'s, 'o> {
    settings: &'s PlaySettings,
    observe: &'o mut dyn FnMut(Event),
    started: Instant,
    clicks: u32,
    replans: u32,
    learned: Learned,
    pace: Pace,
    /// When the last click was made.
    last_click: Option<Instant>,
}

impl Game<'_, '_> {
    fn run(
        &mut self,
        desktop: &mut dyn Desktop,
        window: &mut dyn GameWindow,
    ) -> Result<Report, PlayError> {
        let settings = self.settings;
        let mut eye = Eye::open(window, &settings.calibration)?;
        let (mut board, frame, _) =
            self.settle(&mut eye, None, None, Vec::new())
                .map_err(|error| match error {
                    PlayError::Unsettled { cause, .. } => PlayError::Misfit(cause),
                    other => other,
                })?;
        (self.observe)(Event::Board {
            board: &board,
            confidence: frame.confidence,
        });
        // An empty board is a game not started (or over), not a win.
        if board.is_cleared() {
            return Err(PlayError::NoDust);
        }
        let first = self.plan(&board)?;
        let (planned, proven_optimal) = (first.length(), first.proven_optimal);
        let report = |game: &Game, finish| Report {
            finish,
            clicks: game.clicks,
            planned,
            proven_optimal,
            replans: game.replans,
            elapsed: game.started.elapsed(),
            learned: game.learned.clone(),
        };
        if settings.dry_run {
            return Ok(report(self, Finish::DryRun));
        }
        stop::catch()?;
        let mut mouse = Mouse::new(desktop.pointer()?)?;
        let mut plan = first;
        loop {
            match self.follow(&mut eye, &mut mouse, &board, &plan.moves)? {
                Followed::Cleared => return Ok(report(self, Finish::Cleared)),
                Followed::MaxMoves => return Ok(report(self, Finish::MaxMoves)),
                Followed::Differs(read) => {
                    self.replans += 1;
                    if self.replans > settings.max_replans {
                        return Err(PlayError::TooManyReplans {
                            count: self.replans,
                            max: settings.max_replans,
                        });
                    }
                    board = read;
                    plan = self.plan(&board)?;
                }
                // The game was right and the plan's rules wrong: not a
                // re-plan that `--max-replans` bounds.
                Followed::RulesSwitched(read) => {
                    board = read;
                    plan = self.plan(&board)?;
                }
            }
        }
    }

    fn plan(&mut self, board: &Board) -> Result<Outcome, PlayError> {
        let outcome = plan(board, &self.settings.solve, self.learned.rules())?;
        (self.observe)(Event::Plan {
            outcome: &outcome,
            replans: self.replans,
        });
        Ok(outcome)
    }

    /// Clicks the plan's moves from `board`, each verified.
    fn follow(
        &mut self,
        eye: &mut Eye,
        mouse: &mut Mouse,
        board: &Board,
        moves: &[Step],
    ) -> Result<Followed, PlayError> {
        let mut current = *board;
        for step in moves {
            if self
                .settings
                .max_moves
                .is_some_and(|max| self.clicks >= max)
            {
                return Ok(Followed::MaxMoves);
            }
            let number = self.clicks + 1;
            let last_taken = self.last_click;
            let (read, frame, aimed) = match self.click(eye, mouse, &current, step, number)? {
                Some(done) => done,
                None => {
                    let wait = self.pace.between_clicks();
                    log::warn!("click {number} changed nothing: clicking again");
                    (self.observe)(Event::Lost { number, wait });
                    sleep(wait);
                    let done = self
                        .click(eye, mouse, &current, step, number)?
                        .ok_or(PlayError::NoEffect { number })?;
                    // The game ignored a click made sooner than this one.
                    if let (Some(before), Some(now)) = (last_taken, self.last_click) {
                        self.pace.took_input(now.duration_since(before));
                    }
                    done
                }
            };
            let predicted = |rules| current.play_under(step.cell, rules).map(|(after, _)| after);
            let seen = self
                .learned
                .see(number, |rules| predicted(rules) == Ok(read));
            if let Seen::Switched { rules, candidates } = &seen {
                (self.observe)(Event::RulesSwitched {
                    number,
                    rules: *rules,
                    candidates,
                });
                return Ok(Followed::RulesSwitched(read));
            }
            if seen == Seen::Unexplained {
                let frames = save_frames(
                    &self.settings.debug_dir,
                    &format!("click-{number:02}"),
                    &[("before", &aimed.image), ("after", &frame.image)],
                );
                log::warn!(
                    "click {number}: the board read is not the plan's\n  expected {}\n  read     {read}",
                    step.board_after
                );
                (self.observe)(Event::Mismatch {
                    number,
                    expected: &step.board_after,
                    found: &read,
                    frames: &frames,
                });
                return Ok(Followed::Differs(read));
            }
            current = read;
        }
        Ok(if current.is_cleared() {
            Followed::Cleared
        } else {
            Followed::Differs(current)
        })
    }

    /// Aims at `step`'s cell on `current`, clicks it once the game has
    /// had the time it takes after the last click, and waits for the board
    /// to settle: the board read, its frame and the frame aimed at, or
    /// `None` when the board settled as it was (the click changed nothing).
    fn click(
        &mut self,
        eye: &mut Eye,
        mouse: &mut Mouse,
        current: &Board,
        step: &Step,
        number: u32,
    ) -> Result<Option<(Board, Frame, Frame)>, PlayError> {
        // A game may go on animating, or ignore input, after its board
        // looks final.
        if let Some(last) = self.last_click {
            sleep((last + self.pace.between_clicks()).saturating_duration_since(Instant::now()));
        }
        let when = format!("before click {number}");
        mouse.check()?;
        let (at, rest, aimed) = aim(eye, current, step, &when, &self.settings.debug_dir)?;
        // Within a quarter cell of the centre is on the cell.
        let within = (0.25 * eye.geometry.pitch_x.min(eye.geometry.pitch_y)) as i32;
        let pressed = Instant::now();
        let clicked = mouse.click(at, within);
        // A click whose pointer moved before its release was still
        // pressed on the cell: it counts, then play stops.
        if let Ok(()) | Err(InputError::Moved { .. }) = clicked {
            self.last_click = Some(pressed);
            self.clicks = number;
            (self.observe)(Event::Click { number, step, at });
        }
        clicked?;
        mouse.rest(rest)?;
        // Only the board the rules in force make settles at once: another
        // variant's may be an in-between state of these rules (the board
        // after the fall alone is what `gravity` makes).
        let expected = current
            .play_under(step.cell, self.learned.rules())
            .map(|(after, _)| after)
            .into_iter()
            .collect();
        let (read, frame, since) = self.settle(eye, Some(&mut *mouse), Some(*current), expected)?;
        log::debug!(
            "click {number}: settled {} ms after the click",
            pressed.elapsed().as_millis()
        );
        if read == *current {
            return Ok(None);
        }
        self.pace.animated(since.saturating_duration_since(pressed));
        Ok(Some((read, frame, aimed)))
    }

    /// [`settle`] after `self.clicks` clicks; the user taking the mouse
    /// (or Ctrl-C, before the mouse is taken) stops it.
    fn settle(
        &mut self,
        eye: &mut Eye,
        mouse: Option<&mut Mouse>,
        before: Option<Board>,
        expected: Vec<Board>,
    ) -> Result<(Board, Frame, Instant), PlayError> {
        let when = match self.clicks {
            0 => "at the start".to_owned(),
            n => format!("after click {n}"),
        };
        let rule = Settle::new(before, expected, self.pace.hold());
        let mut mouse = mouse;
        let mut guard = || match mouse.as_deref_mut() {
            Some(mouse) => Ok(mouse.check()?),
            None => Ok(stop::check()?),
        };
        settle(
            eye,
            &mut guard,
            rule,
            self.settings.settle,
            &when,
            &self.settings.debug_dir,
        )
    }
}

/// Captures every [`POLL`] until the board settles by `rule` (see
/// [`Settle`]), for at most `wait`: the board, its frame, and when it
/// was first read so. Runs `guard` before every capture (the user's mouse,
/// Ctrl-C), so that a stop is seen at once. A window in front of the
/// board is an error at once: its pixels could pass for an animation frame
/// or even for a board.
pub(crate) fn settle(
    eye: &mut Eye,
    guard: &mut dyn FnMut() -> Result<(), PlayError>,
    mut rule: Settle,
    wait: Duration,
    when: &str,
    debug_dir: &Path,
) -> Result<(Board, Frame, Instant), PlayError> {
    let started = Instant::now();
    let deadline = started + wait;
    loop {
        let tick = Instant::now();
        guard()?;
        let frame = eye.look()?;
        uncovered(eye, when)?;
        let board = frame.board.as_ref().ok().copied();
        if let Progress::Settled(board) = rule.see(board, frame.taken) {
            log::debug!("settled {when} in {} ms", started.elapsed().as_millis());
            let since = rule.steady_since().unwrap_or(frame.taken);
            return Ok((board, frame, since));
        }
        if tick >= deadline {
            if let Some(board) = rule.timed_out() {
                let since = rule.steady_since().unwrap_or(frame.taken);
                return Ok((board, frame, since));
            }
            let cause = match &frame.board {
                Ok(_) => "the board kept changing".to_owned(),
                Err(error) => describe(error),
            };
            save_frames(debug_dir, "unsettled", &[("last", &frame.image)]);
            return Err(PlayError::Unsettled {
                when: when.to_owned(),
                waited_ms: started.elapsed().as_millis(),
                cause,
            });
        }
        sleep(POLL.saturating_sub(tick.elapsed()));
    }
}

/// The best plan the solver finds from `board` under `rules` within its
/// budget (proven or not); an error when it clears nothing.
pub(crate) fn plan(
    board: &Board,
    options: &SolveOptions,
    rules: Rules,
) -> Result<Outcome, PlayError> {
    let options = SolveOptions {
        rules,
        ..options.clone()
    };
    let outcome = solver::solve(board, &options, &mut |_| {});
    let last = outcome.moves.last().map_or(*board, |step| step.board_after);
    if !last.is_cleared() {
        return Err(PlayError::NoPlan(Box::new(*board)));
    }
    Ok(outcome)
}

/// How following a plan ended.
enum Followed {
    Cleared,
    MaxMoves,
    /// The board read differs from the plan's: re-plan from it.
    Differs(Board),
    /// The board read showed other rules: re-plan from it under them.
    RulesSwitched(Board),
}

/// Checks the board is still where and what the plan assumes and returns
/// where to click, where to rest the mouse, and the frame checked: a fresh
/// read at the window's current place must be `expected`, and the window
/// must still be there just after; if it moved in between, look again.
fn aim(
    eye: &mut Eye,
    expected: &Board,
    step: &Step,
    when: &str,
    debug_dir: &Path,
) -> Result<(ScreenPoint, ScreenPoint, Frame), PlayError> {
    for _ in 0..AIM_TRIES {
        let frame = eye.look()?;
        let found = match &frame.board {
            Ok(board) => *board,
            Err(error) => {
                save_frames(debug_dir, "unreadable", &[("frame", &frame.image)]);
                return Err(PlayError::Unreadable {
                    when: when.to_owned(),
                    cause: describe(error),
                });
            }
        };
        if found != *expected {
            save_frames(debug_dir, "changed", &[("frame", &frame.image)]);
            return Err(PlayError::Changed {
                when: when.to_owned(),
                expected: Box::new(*expected),
                found: Box::new(found),
            });
        }
        uncovered(eye, when)?;
        // Moved or resized since the frame (a resize may keep the corner):
        // the geometry is stale, look again.
        if eye.place_now()? != (frame.origin, frame.size) {
            continue;
        }
        let at = place::click_point(&eye.geometry, eye.size, frame.origin, step.cell)
            .ok_or(PlayError::OffBoard)?;
        let rest = place::rest_point(
            &eye.geometry,
            eye.size,
            frame.origin,
            &eye.screen(),
            &step.board_after,
        );
        return Ok((at, rest, frame));
    }
    Err(PlayError::Unsteady {
        when: when.to_owned(),
    })
}

/// `Err(Covered)` when another window is in front of the board.
pub(crate) fn uncovered(eye: &Eye, when: &str) -> Result<(), PlayError> {
    match eye.covered_by()? {
        Some(by) => Err(PlayError::Covered {
            when: when.to_owned(),
            by,
        }),
        None => Ok(()),
    }
}

/// A vision error in a few words: the list of every unsure cell is too
/// long for a one-line message.
fn describe(error: &VisionError) -> String {
    match error {
        VisionError::Unsure(cells) => format!("unsure of {} cell(s)", cells.len()),
        other => other.to_string(),
    }
}

/// Saves frames as `DIR/NAME-LABEL.png` for a later look; a frame that
/// cannot be saved is worth a warning, not a stop.
pub(crate) fn save_frames(dir: &Path, name: &str, frames: &[(&str, &RgbaImage)]) -> Vec<PathBuf> {
    if let Err(error) = std::fs::create_dir_all(dir) {
        log::warn!("{}: cannot create the debug folder: {error}", dir.display());
        return Vec::new();
    }
    frames
        .iter()
        .filter_map(|(label, image)| {
            let path = dir.join(format!("{name}-{label}.png"));
            match crate::files::save_png(&path, *image, crate::files::Existing::Replace) {
                Ok(()) => Some(path),
                Err(error) => {
                    log::warn!("{}: cannot save the frame: {error}", path.display());
                    None
                }
            }
        })
        .collect()
}
