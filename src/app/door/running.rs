//! The door's runs: hints or play started on the game found, game after
//! game until stopped ([`crate::app::runner`]), their notes shown as they
//! come, their end said, a run's thread that died said as a fault.

use std::thread::JoinHandle;

use super::{Action, Door, Empty, Phase, Slot, panic_text, ready};
use crate::app::runner::{Note, RunEnd, StopKeys};
use crate::app::settings::Choice;
use crate::app::words::Advice;
use crate::app::{InUse, Mode, Run, Target};
use crate::desktop::stop::Asker;

impl Door {
    /// Hints or play, game after game until stopped.
    pub(super) fn start(&mut self, choice: Choice) {
        let Phase::Ready { .. } = self.phase else {
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
        self.remember("your choice", |s| s.last_choice = Some(choice));
        let mode = match choice {
            Choice::Hints => Mode::Assist,
            Choice::Play => Mode::Play,
        };
        let in_use = InUse {
            calibration: self.calibration.clone(),
            path: self.calibration_path.clone(),
            unusable: None,
        };
        let mut options = self.options.clone();
        options.remember(Some(&self.settings));
        let mut run = match Run::with(&options, mode, Target::Found(window), in_use) {
            Ok(run) => run,
            Err(error) => return self.fail(format!("{error:#}")),
        };
        run.live.query = text;
        run.live.proof = self.proof.clone();
        run.games = 0;
        self.status.game.clear();
        self.status.more.clear();
        self.status.summary.clear();
        // The run takes up the door's proof, if still under way, and
        // says when its plan comes: the door's word would stand stale.
        if self.proving {
            self.proving = false;
            self.status.optimum.clear();
        }
        let run = self.outside.run(run, self.face.hint_window);
        self.enter(Phase::Running { run, choice });
    }

    /// The keys that stop the run from anywhere, taken for it: said with
    /// the window's own stop, and under the status while the run goes on.
    fn stop_keys(&mut self, keys: &StopKeys) {
        let Phase::Running { choice, .. } = self.phase else {
            return;
        };
        let stop = self.face.label(Action::Stop(Asker::StopButton));
        let stops = if keys.held {
            format!("{stop} here or {} from anywhere", keys.names)
        } else {
            format!("{stop} here")
        };
        let line = match choice {
            Choice::Hints => format!("hints: click as the hint says; {stops} ends them"),
            Choice::Play => format!("playing: move the mouse to stop, or {stops}"),
        };
        self.say(Slot::Doing, line);
        let summary = match keys.held {
            true => keys.said.clone(),
            false => format!("{}: {stop} here ends the run", keys.said),
        };
        self.say(Slot::Summary, summary);
    }

    pub(super) fn note(&mut self, note: Note) {
        match note {
            Note::Calibration(name) => {
                self.say(Slot::Doing, format!("reading with the calibration {name}"));
            }
            Note::Window(window) => self.say(Slot::Doing, format!("window {window}")),
            Note::StopKeys(keys) => self.stop_keys(&keys),
            Note::Picture(shown) => self.shown = Some(shown),
            // The picture shows it.
            Note::Hint(_) => {}
            Note::Doing(line) => self.say(Slot::Doing, line),
            // The app learns the rules again each game: no advice.
            Note::Game(line) | Note::Learned { line, .. } => self.say(Slot::Game, line),
            Note::Notice(line) => self.say_more(vec![line]),
            Note::Ended(ended) => self.ended(ended),
        }
    }

    /// The run is over: its summary said, and its error unless it is a
    /// stop the player asked for; the game read again.
    fn ended(&mut self, ended: RunEnd) {
        // The stop keys' line, until the summary says the end.
        self.status.summary.clear();
        if let Phase::Running { mut run, .. } = std::mem::replace(&mut self.phase, ready()) {
            run.join();
        }
        let stopped = ended.stopped();
        if let Some(summary) = ended.summary {
            self.say(Slot::Summary, summary);
        }
        // The game as it is now, however the run ended: its title and
        // board moved on from the first's (cleared, part played), which
        // the run's first plan no longer shows.
        self.read_again();
        match ended.error {
            Some((error, advice)) if !stopped => {
                let advice = match advice {
                    Some(Advice::Teach { .. }) => format!(
                        "; press {} to calibrate on this board",
                        self.face.label(Action::Calibrate)
                    ),
                    _ => String::new(),
                };
                self.fail(format!("{error:#}{advice}"));
            }
            _ => {
                self.offer_again();
                self.say(Slot::Doing, "ended: back at the menu".to_owned());
            }
        }
    }

    /// The run's thread ended without saying its end: it panicked. Its
    /// stop key given back, the fault said with Try again.
    pub(super) fn worker_died(&mut self) {
        let Phase::Running { run, .. } = std::mem::replace(&mut self.phase, ready()) else {
            return;
        };
        let why = match run.thread.map(JoinHandle::join) {
            Some(Err(panic)) => panic_text(panic.as_ref()),
            _ => "it ended without a word".to_owned(),
        };
        self.status.summary.clear();
        self.read_again();
        self.fail(format!(
            "the run stopped on a fault in the bot ({why}): press {} to look again, or {} to save a report",
            self.face.label(Action::TryAgain),
            self.face.label(Action::Report)
        ));
    }

    /// A run under way asked to stop, by `asker`.
    pub(super) fn ask_stop(&mut self, asker: Asker) {
        if let Phase::Running { run, .. } = &self.phase {
            run.stop(asker);
            self.say(Slot::Doing, "stopping".to_owned());
        }
    }

    /// A run under way asked to stop and waited for, its end said as any
    /// run's: the face is closing.
    pub fn close(&mut self) {
        if let Phase::Running { mut run, .. } = std::mem::replace(&mut self.phase, ready()) {
            // A signal's stop, asked first, is the one said.
            run.stop(Asker::Closing);
            run.join();
            for note in run.notes.try_iter() {
                self.note(note);
            }
        }
    }
}
