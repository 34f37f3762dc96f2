//! Live play: the driver on the live floor ([`crate::live`]) that clicks,
//! the one place that wires capture, vision, solver and input into the
//! verified click loop. It reads the board from the game window,
//! plans with the solver, and for every move checks the board is still
//! where and what the plan assumes, clicks the cell's centre, waits for the
//! board to settle and compares it with the plan's prediction, re-planning
//! from the board read when they differ. With `auto` rules it also holds
//! each board read against every variant of the rules ([`crate::live::rules`]) and
//! switches to the one the game shows. It learns from each click how long
//! the game animates, waits that long before the next click, and clicks
//! again once when a click changed nothing. Whenever it is unsure (window
//! gone, moved while aiming, board unreadable, the user took the mouse,
//! Ctrl-C) it stops without clicking.

use std::path::PathBuf;
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::desktop::{Desktop, GameWindow, InputError, Mouse, ScreenPoint, stop};
use crate::game::{Board, Step};
use crate::live::eye::{Eye, Frame};
use crate::live::session::{self, Driver, Start};
use crate::live::settling::{Pace, Settling};
use crate::live::{self, Explanation, LiveError, LiveSettings, Moment, Settled};
use crate::record::{End, GameMode};
use crate::solver::Outcome;

/// How many times aiming looks again when the window moves in between.
const AIM_TRIES: u32 = 5;

/// Live play, as it was asked for.
#[derive(Debug)]
pub struct Play {
    pub live: LiveSettings,
    pub max_replans: u32,
    pub max_moves: Option<u32>,
    /// Read and plan, never click.
    pub dry_run: bool,
}

/// What live play does, as it happens, for the command line to show.
#[derive(Debug)]
pub enum Event<'a> {
    /// The plan is still being worked out after
    /// [`live::STILL_PROVING_AFTER`]: the length of the best solution found
    /// by then, if any.
    StillProving {
        best: Option<usize>,
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
    /// The board read after a click is not the plan's, and no rules still
    /// in question explain it.
    Mismatch {
        number: u32,
        expected: &'a Board,
        found: &'a Board,
        frames: &'a [PathBuf],
    },
}

impl Driver for Play {
    type Event<'a> = Event<'a>;
    const MODE: GameMode = GameMode::Play;

    fn live(&self) -> &LiveSettings {
        &self.live
    }

    /// A dry run clicks nothing and is ended as any program is.
    fn catches_stop(&self) -> bool {
        !self.dry_run
    }

    /// Plays until the board is cleared, `--max-moves` is reached, a new
    /// game's board shows, or something makes the bot unsure; a dry run
    /// only plans.
    fn game(
        &mut self,
        desktop: &mut dyn Desktop,
        window: &mut Box<dyn GameWindow>,
        start: Start,
        game: &mut session::Game<'_, Play>,
    ) -> Result<Option<End>, LiveError> {
        let mut eye = start.eye(window.as_mut(), &self.live);
        Playing {
            settings: self,
            game,
            pace: Pace::new(self.live.anim),
            last_click: None,
        }
        .run(desktop, &mut eye, start.settled.board)
    }
}

struct Playing<'s, 'g, 'o> {
    settings: &'s Play,
    game: &'g mut session::Game<'o, Play>,
    pace: Pace,
    /// When the last click was made.
    last_click: Option<Instant>,
}

impl Playing<'_, '_, '_> {
    fn run(
        &mut self,
        desktop: &mut dyn Desktop,
        eye: &mut Eye,
        mut board: Board,
    ) -> Result<Option<End>, LiveError> {
        let settings = self.settings;
        let first = self.plan(&board)?;
        self.game
            .report
            .set_optimum(first.length(), first.proven_optimal);
        if settings.dry_run {
            return Ok(None);
        }
        // A stop asked for during the plan, which it cut short.
        stop::check()?;
        let mut mouse = Mouse::new(desktop.pointer()?)?;
        let mut plan = first;
        loop {
            let followed = match self.follow(eye, &mut mouse, &board, &plan.moves) {
                // A full board before a click, where the plan's was: a
                // new game, not this one's board changed.
                Err(LiveError::Changed { found, .. }) if found.is_full() => Followed::NewBoard,
                followed => followed?,
            };
            match followed {
                Followed::Cleared => return Ok(Some(End::Cleared)),
                Followed::MaxMoves => return Ok(Some(End::MaxMoves)),
                Followed::NewBoard => return Ok(Some(End::NewBoard)),
                Followed::Differs(read) => {
                    let replans = self.game.report.replanned();
                    if replans > settings.max_replans {
                        return Err(LiveError::TooManyReplans {
                            count: replans,
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

    fn plan(&mut self, board: &Board) -> Result<Outcome, LiveError> {
        let rules = self.game.report.learned.rules();
        let game = &mut *self.game;
        let (solve, proof) = (&self.settings.live.solve, self.settings.live.proof.as_ref());
        let outcome = live::plan(board, solve, proof, rules, &mut |best| {
            game.tell(Event::StillProving { best });
        })?;
        let replans = self.game.report.replans();
        self.game.tell(Event::Plan {
            outcome: &outcome,
            replans,
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
    ) -> Result<Followed, LiveError> {
        let mut current = *board;
        // The frame the board was last settled on, for the next aim.
        let mut recent = None;
        for step in moves {
            if self
                .settings
                .max_moves
                .is_some_and(|max| self.game.report.clicks() >= max)
            {
                return Ok(Followed::MaxMoves);
            }
            let number = self.game.report.clicks() + 1;
            let last_taken = self.last_click;
            let (settled, aimed) =
                match self.click(eye, mouse, &current, step, number, recent.take())? {
                    Some(done) => done,
                    None => {
                        let wait = self.pace.between_clicks();
                        log::warn!("click {number} changed nothing: clicking again");
                        self.game.tell(Event::Lost { number, wait });
                        sleep(wait);
                        let done = self
                            .click(eye, mouse, &current, step, number, None)?
                            .ok_or(LiveError::NoEffect { number })?;
                        // The game ignored a click made sooner than this one.
                        if let (Some(before), Some(now)) = (last_taken, self.last_click) {
                            self.pace.took_input(now.duration_since(before));
                        }
                        done
                    }
                };
            let read = settled.board;
            let predicted = |rules| current.play_under(step.cell, rules).map(|(after, _)| after);
            let seen = self.game.see(number, |rules| predicted(rules) == Ok(read));
            if let Explanation::Switched { .. } = seen {
                return Ok(Followed::RulesSwitched(read));
            }
            // No click leaves a board full: a new game's board, whose
            // clicks never go against this one's optimum.
            if seen == Explanation::Unexplained && read.is_full() {
                log::info!("click {number}: a new game's board: {read}");
                return Ok(Followed::NewBoard);
            }
            if seen == Explanation::Unexplained {
                let frames = live::save_frames(
                    &self.settings.live.debug_dir,
                    &format!("click-{number:02}"),
                    &[("before", &aimed), ("after", &settled.frame)],
                );
                log::warn!(
                    "click {number}: the board read is not the plan's\n  expected {}\n  read     {read}",
                    step.board_after
                );
                self.game.tell(Event::Mismatch {
                    number,
                    expected: &step.board_after,
                    found: &read,
                    frames: &frames,
                });
                return Ok(Followed::Differs(read));
            }
            current = read;
            recent = Some(settled.frame);
        }
        Ok(if current.is_cleared() {
            Followed::Cleared
        } else {
            Followed::Differs(current)
        })
    }

    /// Aims at `step`'s cell on `current`, clicks it once the game has
    /// had the time it takes after the last click, and waits for the board
    /// to settle: the board settled and the frame aimed at, or `None` when
    /// the board settled as it was (the click changed nothing). `recent`
    /// is the frame `current` was settled on, if any (see [`aim`]).
    fn click(
        &mut self,
        eye: &mut Eye,
        mouse: &mut Mouse,
        current: &Board,
        step: &Step,
        number: u32,
        recent: Option<Frame>,
    ) -> Result<Option<(Settled, Frame)>, LiveError> {
        // A game may go on animating, or ignore input, after its board
        // looks final.
        if let Some(last) = self.last_click {
            sleep(
                self.pace
                    .next_click(last)
                    .saturating_duration_since(Instant::now()),
            );
        }
        let live = &self.settings.live;
        mouse.check()?;
        let (at, rest, aimed) = aim(
            eye,
            current,
            step,
            Moment::BeforeClick(number),
            live,
            recent,
        )?;
        // Within a quarter cell of the centre is on the cell.
        let g = &eye.board.geometry;
        let within = (0.25 * g.pitch_x.min(g.pitch_y)) as i32;
        // The window system's own word on where a press there goes.
        eye.takes_click(at, Moment::BeforeClick(number))?;
        let pressed = Instant::now();
        let clicked = mouse.click(at, within);
        // A click whose pointer moved before its release was still
        // pressed on the cell: it counts, then play stops.
        if let Ok(()) | Err(InputError::Moved { .. }) = clicked {
            self.last_click = Some(pressed);
            self.game.report.click(number, step.cell, None, None);
            self.game.tell(Event::Click { number, step, at });
        }
        clicked?;
        mouse.rest(rest)?;
        // Only the board the rules in force make settles at once: another
        // variant's may be an in-between state of these rules (the board
        // after the fall alone is what `gravity` makes).
        let expected = current
            .play_under(step.cell, self.game.report.learned.rules())
            .map(|(after, _)| after)
            .into_iter()
            .collect();
        let rule = Settling::new(Some(*current), expected, self.pace.hold())
            .ending_at(self.pace.ends(pressed));
        // The user taking the mouse stops it.
        let settled = live::wait_settled(
            eye,
            &mut || Ok(mouse.check()?),
            rule,
            live,
            Moment::AfterClick(number),
        )?;
        log::debug!(
            "click {number}: settled {} ms after the click",
            pressed.elapsed().as_millis()
        );
        if settled.board == *current {
            return Ok(None);
        }
        let moving = settled.moving.unwrap_or(pressed);
        self.pace
            .animated(moving.saturating_duration_since(pressed));
        Ok(Some((settled, aimed)))
    }
}

/// How following a plan ended.
enum Followed {
    Cleared,
    MaxMoves,
    /// The board read differs from the plan's: re-plan from it.
    Differs(Board),
    /// The board read showed other rules: re-plan from it under them.
    RulesSwitched(Board),
    /// A new game's board: this game ends.
    NewBoard,
}

/// Checks the board is still where and what the plan assumes and returns
/// where to click, where to rest the mouse, and the frame checked: a fresh
/// read at the window's current place must be `expected`, and the window
/// must still be there just after; if it moved in between, look again.
/// The read is `recent`'s (a frame that read `expected`) where a glance
/// finds its pixels still on the board: the same pixels read the same.
fn aim(
    eye: &mut Eye,
    expected: &Board,
    step: &Step,
    when: Moment,
    settings: &LiveSettings,
    recent: Option<Frame>,
) -> Result<(ScreenPoint, ScreenPoint, Frame), LiveError> {
    let mut recent = recent.filter(|frame| frame.board.as_ref() == Ok(expected));
    for _ in 0..AIM_TRIES {
        let frame = match recent.take() {
            Some(frame) if eye.still_shows(&frame) => frame,
            _ => eye.frame()?,
        };
        let found = match &frame.board {
            Ok(board) => *board,
            Err(cause) => {
                live::save_frames(&settings.debug_dir, "unreadable", &[("frame", &frame)]);
                return Err(LiveError::Unreadable {
                    when,
                    cause: cause.clone(),
                });
            }
        };
        if found != *expected {
            live::save_frames(&settings.debug_dir, "changed", &[("frame", &frame)]);
            return Err(LiveError::Changed {
                when,
                expected: Box::new(*expected),
                found: Box::new(found),
            });
        }
        eye.uncovered_after(frame.taken, when)?;
        // Moved or resized since the frame (a resize may keep the corner):
        // the geometry is stale, look again.
        if eye.client_now()? != frame.client {
            continue;
        }
        let at = eye
            .board
            .click_point(step.cell)
            .ok_or(LiveError::OffBoard)?;
        let rest = eye.board.rest_point(&eye.screen(), &step.board_after);
        return Ok((at, rest, frame));
    }
    Err(LiveError::Unsteady { when })
}
