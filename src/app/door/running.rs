//! The door's runs: hints or play started on the game found, game after
//! game until stopped ([`crate::app::worker`]), their notes shown as they
//! come, their end said, a run's thread that died said as a fault.

use std::thread::JoinHandle;

use super::{Door, Empty, Phase, Slot, panic_text};
use crate::app::settings::Choice;
use crate::app::worker::Note;
use crate::app::{Mode, Run, Target};
use crate::desktop::stop::{self, Asker, StopKey};

impl Door {
    /// Hints or play, game after game until stopped.
    pub(super) fn start(&mut self, choice: Choice) {
        let Phase::Ready = self.phase else {
            // Where the bot's own window covers the game, or the game is
            // out of sight, the line that says so stays: the game is no
            // reason to blame.
            let said_why = matches!(
                self.phase,
                Phase::Looking {
                    said: Some(Empty::Covered | Empty::Hidden),
                    ..
                } | Phase::Running { .. }
            );
            if !said_why {
                self.say(
                    Slot::Doing,
                    "no game found yet: start the dust game so that a full board shows".to_owned(),
                );
            }
            return;
        };
        let Some((window, text)) = self.game.clone() else {
            return;
        };
        if self.last_choice() != Some(choice) {
            self.remember("your choice", |s| s.last_choice = Some(choice));
        }
        let mode = match choice {
            Choice::Hints => Mode::Assist,
            Choice::Play => Mode::Play,
        };
        let loaded = (self.calibration.clone(), self.calibration_path.clone());
        let mut options = self.options.clone();
        // Named, else the settings' key, else both.
        options.hints = Some(
            options
                .hints
                .unwrap_or(self.settings().hints.unwrap_or_default()),
        );
        let mut run = match Run::with(&options, mode, Target::Found(window), loaded) {
            Ok(run) => run,
            Err(error) => return self.fail(format!("{error:#}")),
        };
        run.live.query = text;
        run.games = 0;
        // A stop asked before is not carried into the run.
        stop::clear();
        // The player's keyboard is the game's once they click there: the
        // stops named are those that reach the bot wherever it is.
        let stop_key = StopKey::grab();
        let stops = if stop_key.held() {
            format!("Stop here or {} from anywhere", stop_key.names())
        } else {
            "Stop here".to_owned()
        };
        let line = match choice {
            Choice::Hints => format!("hints: click as the hint says; {stops} ends them"),
            Choice::Play => format!("playing: move the mouse to stop, or {stops}"),
        };
        self.say(Slot::Doing, line);
        self.status.game.clear();
        self.status.more.clear();
        let summary = match stop_key.held() {
            true => stop_key.said(),
            false => format!("{}: Stop here ends the run", stop_key.said()),
        };
        self.say(Slot::Summary, summary);
        let (notes, worker) = self.outside.run(run, self.hint_window);
        self.phase = Phase::Running {
            notes,
            worker,
            _stop_key: stop_key,
        };
        self.asked += 1;
    }

    pub(super) fn note(&mut self, note: Note) {
        match note {
            Note::Picture(shown) => self.shown = Some(shown),
            Note::Doing(line) => self.say(Slot::Doing, line),
            Note::Game(line) => self.say(Slot::Game, line),
            Note::Notice(line) => self.say_more(vec![line]),
            Note::Ended { summary, error } => {
                stop::clear();
                // The stop keys' line, until the summary says the end.
                self.status.summary.clear();
                if let Phase::Running {
                    worker: Some(worker),
                    ..
                } = std::mem::replace(&mut self.phase, Phase::Ready)
                {
                    worker.join().ok();
                }
                if let Some(summary) = summary {
                    self.say(Slot::Summary, summary);
                }
                // The game as it is now, however the run ended: its title
                // and board moved on from the first's (cleared, part
                // played), which the run's first plan no longer shows.
                self.read_again();
                match error {
                    Some(error) => self.fail(error),
                    None => {
                        self.asked += 1;
                        self.say(
                            Slot::Doing,
                            "ended: 1 hints, 2 play, 3 calibrate".to_owned(),
                        );
                    }
                }
            }
        }
    }

    /// The run's thread ended without saying its end: it panicked. Its
    /// stop key given back, the fault said with Try again.
    pub(super) fn worker_died(&mut self) {
        let Phase::Running { worker, .. } = std::mem::replace(&mut self.phase, Phase::Ready) else {
            return;
        };
        let why = match worker.map(JoinHandle::join) {
            Some(Err(panic)) => panic_text(panic.as_ref()),
            _ => "it ended without a word".to_owned(),
        };
        stop::clear();
        self.status.summary.clear();
        self.read_again();
        self.fail(format!(
            "the run stopped on a fault in the bot ({why}): Try again, or Save a report"
        ));
    }

    /// A run under way asked to stop, by `asker`.
    pub(super) fn ask_stop(&mut self, asker: Asker) {
        if let Phase::Running { .. } = self.phase {
            stop::ask(asker);
            self.say(Slot::Doing, "stopping".to_owned());
        }
    }

    /// A run under way asked to stop and waited for, its end said as any
    /// run's: the face is closing.
    pub fn close(&mut self) {
        if let Phase::Running { notes, worker, .. } =
            std::mem::replace(&mut self.phase, Phase::Ready)
        {
            // A signal's stop is asked already, and said as one.
            if !stop::requested().load(std::sync::atomic::Ordering::SeqCst) {
                stop::ask(Asker::Closing);
            }
            if let Some(worker) = worker {
                worker.join().ok();
            }
            for note in notes.try_iter() {
                self.note(note);
            }
        }
    }
}
