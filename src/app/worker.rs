//! A run of games for the front door ([`super::door`]), on a thread of its
//! own: the face stays on the main thread and keeps answering (Stop,
//! Escape, q, closing) while the games go on. The run is the flags' (`app::games`
//! with the same drivers and the same words); what it says comes back as
//! [`Note`]s, owned, for the face to show.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

use anyhow::Result;

use crate::app::words::{self, game_lines, optimum_caption};
use crate::app::{self, Driving, Ran, Run};
use crate::assist::Assist;
use crate::desktop::{Desktop, InputError};
use crate::game::{Board, Cell};
use crate::live::LiveError;
use crate::live::session::{Event, RunError, end_of};
use crate::play::Play;
use crate::record::End;

/// A board to show with the plan on it: the cells in the order they will
/// be clicked, and a caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub board: Board,
    pub clicks: Vec<Cell>,
    pub caption: Vec<String>,
}

/// What the run says, as it goes.
#[derive(Debug)]
pub enum Note {
    Picture(Shown),
    /// What the bot is doing (a hint, a click, a wait).
    Doing(String),
    /// A game's last lines.
    Game(String),
    /// What goes without something for the rest of the run (the game
    /// log that cannot be written), said once under the status.
    Notice(String),
    /// The run is over: its summary, and the error it ended with (none
    /// for a stop asked for).
    Ended {
        summary: Option<String>,
        error: Option<String>,
    },
}

/// Starts `run` on a thread, on the system's desktop, hints in a window
/// of their own when `hint_window`; its notes, the last one
/// [`Note::Ended`].
pub fn start(run: Run, hint_window: bool) -> (Receiver<Note>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || {
        drive(&run, &mut crate::desktop::system(), hint_window, &tx);
    });
    (rx, handle)
}

/// Runs `run` on `desktop` here and now, each note sent to `tx` as it
/// comes, the last one [`Note::Ended`].
pub fn drive(run: &Run, desktop: &mut dyn Desktop, hint_window: bool, tx: &Sender<Note>) {
    // Which calibration reads the boards: a new one is in use at once.
    tx.send(Note::Doing(format!(
        "reading with the calibration {}",
        crate::app::calibration_name(&run.calibration_path)
    )))
    .ok();
    let ran = match run.driver() {
        Driving::Assist(driver) => hints(run, driver, desktop, hint_window, tx),
        Driving::Play(driver) => play(run, driver, desktop, tx),
    };
    // The face may be gone already: nobody to tell.
    tx.send(ended(run, ran)).ok();
}

/// Sends the `lines` of `event` as a game's lines at its end, a notice
/// for what goes without the game log, else as what the bot does.
fn tell<'t, E>(tx: &'t Sender<Note>, event: &Event<'_, E>) -> impl FnOnce(Vec<String>) + 't {
    let note: fn(String) -> Note = match event {
        Event::Ended(_) => Note::Game,
        Event::Unrecorded(_) => Note::Notice,
        _ => Note::Doing,
    };
    move |lines| {
        for line in lines {
            tx.send(note(line)).ok();
        }
    }
}

/// The window found, said.
fn found(tx: &Sender<Note>) -> impl FnOnce(&crate::desktop::WindowInfo) + '_ {
    move |window| {
        tx.send(Note::Doing(format!("window {window}"))).ok();
    }
}

/// Hints, each shown with its board: in a window of their own beside the
/// game when `hint_window`, else only in the face's (the app's window is
/// beside the game already).
fn hints(
    run: &Run,
    mut assist: Assist,
    desktop: &mut dyn Desktop,
    hint_window: bool,
    tx: &Sender<Note>,
) -> Result<Ran> {
    if !hint_window {
        assist.look = None;
    }
    let rules = run.live.rules;
    app::games(run, assist, desktop, found(tx), &mut |event| {
        let tell = tell(tx, &event);
        let lines = game_lines(
            event,
            rules,
            |event| {
                if let crate::assist::Event::Hint(hint) = &event {
                    let clicks = crate::assist::clicks_on(&hint.board, &hint.plan, hint.rules);
                    let shown = Shown {
                        board: hint.board,
                        clicks,
                        caption: hint.caption(),
                    };
                    tx.send(Note::Picture(shown)).ok();
                }
                tx.send(Note::Doing(words::hints_line(&event))).ok();
            },
            words::hints_summary,
        );
        tell(lines);
    })
}

/// Play, each game's first plan shown on its board.
fn play(run: &Run, driver: Play, desktop: &mut dyn Desktop, tx: &Sender<Note>) -> Result<Ran> {
    let rules = run.live.rules;
    let mut planned = 0;
    let mut first: Option<Board> = None;
    app::games(run, driver, desktop, found(tx), &mut |event| {
        if let Event::Board { board, .. } = &event {
            first = Some(**board);
        }
        let tell = tell(tx, &event);
        let lines = game_lines(
            event,
            rules,
            |event| {
                if let (
                    crate::play::Event::Plan {
                        outcome,
                        replans: 0,
                    },
                    Some(board),
                ) = (&event, first)
                {
                    let shown = Shown {
                        board,
                        clicks: crate::assist::clicks_on(&board, &outcome.moves, outcome.rules),
                        caption: vec![optimum_caption(outcome.length(), outcome.proven_optimal)],
                    };
                    tx.send(Note::Picture(shown)).ok();
                }
                tx.send(Note::Doing(words::play_line(&event, &mut planned)))
                    .ok();
            },
            |report| words::play_summary(report, run.max_moves),
        );
        tell(lines);
    })
}

/// The run's end: its summary, and its error as the command line says
/// it, unless it is the stop the player asked for in the window.
fn ended(run: &Run, ran: Result<Ran>) -> Note {
    let ran = match ran {
        Ok(ran) => ran,
        Err(error) => {
            return Note::Ended {
                summary: None,
                error: Some(format!("{error:#}")),
            };
        }
    };
    let summary = ran.has_summary.then(|| words::run_summary(&ran));
    let asked = crate::desktop::stop::asker().is_some();
    let error = match &ran.result {
        // The Stop asked for in the window, or the player's hand on the
        // mouse during play: a stop, said as one, never an error.
        Err(RunError::Stopped(stopped, _))
            if (asked && end_of(&stopped.error) == End::Interrupted)
                || matches!(
                    stopped.error,
                    LiveError::Input(InputError::UserMoved { .. })
                ) =>
        {
            None
        }
        _ => words::ran_result(run, ran).err().map(|e| format!("{e:#}")),
    };
    Note::Ended { summary, error }
}
