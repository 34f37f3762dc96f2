//! A run's whole life, in one place, for every face: the driver its mode
//! asks for, the keys that stop it from anywhere taken from the desktop,
//! said and given back, the game's window said, each game's lines, and
//! its end, a value ([`RunEnd`]: its summary, who or what stopped it, its
//! error). The faces only listen: the door on a thread of the run's own,
//! its notes over a channel ([`start`]), the command line in place
//! through a printer that keeps its own policy. The runner owns the stop
//! flag a run checks: it starts each run unasked, asks it for a face
//! ([`Handle::stop`]) or a key in the run's own window, reads who asked
//! once the run ends, and leaves it unasked again (the stop floor sets it
//! too, for the signals and the keys that stop from anywhere).

use std::cell::RefCell;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

use crate::app::words::{self, Advice, Finish, game_lines, optimum_caption};
use crate::app::{self, Mode, Ran, Run};
use crate::assist::{Assist, Hint};
use crate::desktop::stop::{self, Asker, StopKey};
use crate::desktop::{Desktop, InputError, WindowInfo};
use crate::game::{Board, Cell};
use crate::live::LiveError;
use crate::live::session::{Event, RunError, end_of};
use crate::play::{self, Play};
use crate::record::End;

/// A board to show with the plan on it: the cells in the order they will
/// be clicked, and a caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub board: Board,
    pub clicks: Vec<Cell>,
    pub caption: Vec<String>,
}

/// The keys that stop the run from anywhere, as the runner took them:
/// whether any is the bot's, their names ("Pause or
/// Ctrl+Shift+Backspace"), and the line that says them with each one
/// not available and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StopKeys {
    pub held: bool,
    pub names: String,
    pub said: String,
}

/// What the run says, as it goes: a face takes what it shows.
#[derive(Debug)]
pub enum Note {
    /// The calibration the boards are read with, named for the player.
    Calibration(String),
    /// The game's window, opened for the run.
    Window(WindowInfo),
    /// The keys that stop the run from anywhere, taken for it.
    StopKeys(StopKeys),
    /// A board with its plan: a hint's, or a game's first plan.
    Picture(Shown),
    /// A hint, whole (for the command line's hint log).
    Hint(Box<Hint>),
    /// What the bot is doing (a hint, a click, a wait).
    Doing(String),
    /// A game's last lines.
    Game(String),
    /// What goes without something for the rest of the run (the game
    /// log that cannot be written), said once under the status.
    Notice(String),
    /// The rules a game was learned to play by, before its last line,
    /// with the advice to give them next time.
    Learned { line: String, advice: Advice },
    /// The run is over (the last note).
    Ended(RunEnd),
}

/// How a run ended: its summary, who or what stopped it, and its error.
#[derive(Debug)]
pub struct RunEnd {
    /// The games played and why they ended; none for a run that never
    /// reached a game's window.
    pub summary: Option<String>,
    pub finish: Finish,
    /// The error the run ended with, every stop one (as the command line
    /// says it), with what would help where something would.
    pub error: Option<(anyhow::Error, Option<Advice>)>,
}

impl RunEnd {
    /// Whether the run ended on a stop the player asked for (a key, a
    /// button, a signal, the hand on the mouse during play): said as a
    /// stop by a face that has more to offer, never as an error.
    pub fn stopped(&self) -> bool {
        matches!(self.finish, Finish::Asked(_) | Finish::MouseMoved)
    }
}

/// A run on a thread of its own ([`start`]): its notes, and its stop.
#[derive(Debug)]
pub struct Handle {
    pub notes: Receiver<Note>,
    pub thread: Option<JoinHandle<()>>,
}

impl Handle {
    /// Asks the run to stop, by `asker` (the first to ask is the one said).
    pub fn stop(&self, asker: Asker) {
        stop::ask(asker);
    }

    /// Waits for the run's thread; the notes it left stay to be taken.
    pub fn join(&mut self) {
        if let Some(thread) = self.thread.take() {
            thread.join().ok();
        }
    }
}

/// Starts `run` on a thread, on the system's desktop, hints in a window
/// of their own when `hint_window`; its notes, the last one
/// [`Note::Ended`].
pub fn start(run: Run, hint_window: bool) -> Handle {
    let (tx, notes) = mpsc::channel();
    let thread = thread::spawn(move || {
        run_told(&run, &mut crate::desktop::system(), hint_window, &tx);
    });
    Handle {
        notes,
        thread: Some(thread),
    }
}

/// Runs `run` on `desktop` here and now, each note sent to `tx` as it
/// comes, the last one [`Note::Ended`] (a face gone takes none).
pub fn run_told(run: &Run, desktop: &mut dyn Desktop, hint_window: bool, tx: &Sender<Note>) {
    let ended = run_on(run, desktop, hint_window, &mut |note| {
        tx.send(note).ok();
    });
    tx.send(Note::Ended(ended)).ok();
}

/// Runs `run` on `desktop` here and now, telling `listen` of each note,
/// and ends with how it ended (not told: returned). Hints show in a
/// window of their own when `hint_window`.
pub fn run_on(
    run: &Run,
    desktop: &mut dyn Desktop,
    hint_window: bool,
    listen: &mut dyn FnMut(Note),
) -> RunEnd {
    let _unasked = Unasked::start();
    listen(Note::Calibration(crate::app::calibration_name(
        &run.calibration_path,
    )));
    // The player's keyboard is the game's once they click there: the
    // keys that stop from anywhere are the bot's while the run goes on.
    let stop_key = StopKey::grab();
    let keys = StopKeys {
        held: stop_key.held(),
        names: stop_key.names(),
        said: stop_key.said(),
    };
    // Told of the window before the games and of each game's events,
    // never both at once.
    let listen = RefCell::new(listen);
    let found = |window: &WindowInfo| {
        let mut listen = listen.borrow_mut();
        listen(Note::Window(window.clone()));
        listen(Note::StopKeys(keys));
    };
    let tell = |note| (listen.borrow_mut())(note);
    // The one place a mode is turned into a driver, for every face.
    let ran = match run.mode {
        Mode::Play | Mode::Watch => {
            let driver = Play {
                live: run.live.clone(),
                max_replans: run.max_replans,
                max_moves: run.max_moves,
                dry_run: run.mode == Mode::Watch,
            };
            play(run, driver, desktop, found, &tell)
        }
        Mode::Assist => {
            let assist = Assist {
                look: hint_window.then(|| app::look_of(&run.live.calibration)),
                live: run.live.clone(),
                hints: run.hints,
                stop: stop::ask,
            };
            hints(run, assist, desktop, found, &tell)
        }
    };
    drop(stop_key);
    ended(run, ran)
}

/// The stop flag while a run goes on: unasked as it starts (a stop asked
/// before is not carried into it, but a request to end the process is:
/// the run stops at once) and as it ends, a panic's included.
struct Unasked;

impl Unasked {
    fn start() -> Unasked {
        if stop::end_beyond_ctrl_c().is_none() {
            stop::clear();
        }
        Unasked
    }
}

impl Drop for Unasked {
    fn drop(&mut self) {
        stop::clear();
    }
}

/// Who asked the run to stop, once one was asked: Ctrl-C where a signal
/// could not be told apart.
fn asked() -> Option<Asker> {
    stop::requested()
        .load(Ordering::SeqCst)
        .then(|| stop::asker().unwrap_or(Asker::CtrlC))
}

/// At a game's end, the rules it was learned to play by, if it learned
/// other than the default: told before its last line.
fn learned<E>(event: &Event<'_, E>, run: &Run, listen: &dyn Fn(Note)) {
    if let Event::Ended(report) = event
        && let Some((line, advice)) = words::rules_learned(run.live.rules, &report.learned)
    {
        listen(Note::Learned { line, advice });
    }
}

/// The note that carries the `lines` of `event`: a game's lines at its
/// end, a notice for what goes without the game log, else what the bot
/// does.
fn note_of<E>(event: &Event<'_, E>) -> fn(String) -> Note {
    match event {
        Event::Ended(_) => Note::Game,
        Event::Unrecorded(_) => Note::Notice,
        _ => Note::Doing,
    }
}

/// Tells `listen` of one event of a game: the rules learned at its end,
/// then the lines every driver's run says ([`game_lines`]: a driver's
/// own events go to `driver`, a game's last line is `summary`'s).
fn tell<E>(
    event: Event<'_, E>,
    run: &Run,
    listen: &dyn Fn(Note),
    driver: impl FnOnce(E),
    summary: impl FnOnce(&crate::live::session::GameReport) -> String,
) {
    learned(&event, run, listen);
    let note = note_of(&event);
    for line in game_lines(event, driver, summary) {
        listen(note(line));
    }
}

/// Hints, each shown with its board.
fn hints(
    run: &Run,
    assist: Assist,
    desktop: &mut dyn Desktop,
    found: impl FnOnce(&WindowInfo),
    listen: &dyn Fn(Note),
) -> anyhow::Result<Ran> {
    app::games(run, assist, desktop, found, &mut |event| {
        tell(
            event,
            run,
            listen,
            |event| {
                if let crate::assist::Event::Hint(hint) = &event {
                    let clicks = crate::assist::clicks_on(&hint.board, &hint.plan, hint.rules);
                    listen(Note::Picture(Shown {
                        board: hint.board,
                        clicks,
                        caption: hint.caption(),
                    }));
                    listen(Note::Hint(Box::new((*hint).clone())));
                }
                listen(Note::Doing(words::hints_line(&event)));
            },
            |report| words::hints_summary(report, asked()),
        );
    })
}

/// Play, each game's first plan shown on its board.
fn play(
    run: &Run,
    driver: Play,
    desktop: &mut dyn Desktop,
    found: impl FnOnce(&WindowInfo),
    listen: &dyn Fn(Note),
) -> anyhow::Result<Ran> {
    let mut planned = 0;
    let mut first: Option<Board> = None;
    app::games(run, driver, desktop, found, &mut |event| {
        if let Event::Board { board, .. } = &event {
            first = Some(**board);
        }
        tell(
            event,
            run,
            listen,
            |event| {
                if let (
                    play::Event::Plan {
                        outcome,
                        replans: 0,
                    },
                    Some(board),
                ) = (&event, first)
                {
                    listen(Note::Picture(Shown {
                        board,
                        clicks: crate::assist::clicks_on(&board, &outcome.moves, outcome.rules),
                        caption: vec![optimum_caption(outcome.length(), outcome.proven_optimal)],
                    }));
                }
                listen(Note::Doing(words::play_line(&event, &mut planned)));
            },
            |report| words::play_summary(report, run.max_moves, asked()),
        );
    })
}

/// How `ran` ended ([`Finish`]), read from its result and its last game,
/// and from who asked for a stop.
fn finish(ran: &Ran) -> Finish {
    let error = match &ran.result {
        Ok(()) => None,
        Err(RunError::Stopped(stopped, _)) => Some(&stopped.error),
        Err(RunError::Waiting(error)) => Some(error),
        Err(RunError::Log(_)) => return Finish::Unlogged,
    };
    let end = error.map_or_else(
        || ran.played.last().map(|game| game.end),
        |error| Some(end_of(error)),
    );
    match (error, end) {
        (Some(LiveError::Input(InputError::UserMoved { .. } | InputError::Moved { .. })), _) => {
            Finish::MouseMoved
        }
        (_, Some(End::Interrupted)) => Finish::Asked(asked().unwrap_or(Asker::CtrlC)),
        (_, Some(End::WindowClosed)) => Finish::WindowClosed,
        // Closed between games, where no game records it.
        (None, _) if ran.window_closed => Finish::WindowClosed,
        (Some(_), _) => Finish::Failed,
        // Stopped between games, where no game records it.
        (None, _) => asked().map_or(Finish::Played, Finish::Asked),
    }
}

/// The run's end: its summary, how it finished, its error.
fn ended(run: &Run, ran: anyhow::Result<Ran>) -> RunEnd {
    let ran = match ran {
        Ok(ran) => ran,
        Err(error) => {
            return RunEnd {
                summary: None,
                finish: Finish::Failed,
                error: Some((error, None)),
            };
        }
    };
    let finish = finish(&ran);
    let summary = ran
        .has_summary
        .then(|| words::run_summary(&ran.played, finish));
    RunEnd {
        summary,
        finish,
        error: words::ran_error(run, ran),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::session::{GameReport, Stopped};
    use crate::live::{Learned, RulesChoice};

    fn ran(result: Result<(), RunError>, window_closed: bool) -> Ran {
        Ran {
            played: Vec::new(),
            has_summary: true,
            title_now: "Nodiatis".to_owned(),
            window_closed,
            result,
        }
    }

    fn stopped(error: LiveError) -> Result<(), RunError> {
        let report = GameReport::start(Learned::new(RulesChoice::Auto));
        Err(RunError::Stopped(Box::new(Stopped { error, report }), None))
    }

    #[test]
    fn how_a_run_finished_is_read_from_its_result_not_from_its_words() {
        let moved = LiveError::Input(InputError::UserMoved {
            expected: crate::desktop::ScreenPoint::new(1, 1),
            found: crate::desktop::ScreenPoint::new(9, 9),
        });
        assert_eq!(finish(&ran(stopped(moved), false)), Finish::MouseMoved);
        assert_eq!(
            finish(&ran(stopped(LiveError::NoDust), false)),
            Finish::Failed
        );
        let gone = LiveError::Capture(crate::desktop::CaptureError::Gone {
            title: "Nodiatis".into(),
        });
        assert_eq!(finish(&ran(stopped(gone), false)), Finish::WindowClosed);
        // Closed between games, where no game records it.
        let waiting = Err(RunError::Waiting(LiveError::NoDust));
        assert_eq!(finish(&ran(waiting, false)), Finish::Failed);
        assert_eq!(finish(&ran(Ok(()), true)), Finish::WindowClosed);
    }

    #[test]
    fn a_stop_asked_is_said_as_a_stop_and_an_error_as_one() {
        let ended = |finish| RunEnd {
            summary: None,
            finish,
            error: None,
        };
        assert!(ended(Finish::Asked(Asker::StopButton)).stopped());
        assert!(ended(Finish::MouseMoved).stopped());
        for finish in [Finish::Failed, Finish::WindowClosed, Finish::Played] {
            assert!(!ended(finish).stopped(), "{finish:?}");
        }
    }
}
