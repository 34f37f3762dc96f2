//! The front door, with no face: what `bot` alone on a terminal and the
//! desktop app `dustbot` both do before and between the games, written
//! once. The door looks for the game ([`find::search`], on a thread, again
//! every [`LOOK_AGAIN`] while none is found), asks about a window found by
//! its board alone, remembers the game's window, shows its board with the
//! proven optimum, starts hints or play on a thread of their own
//! ([`super::runner`]) and takes their notes, calibrates on the game's
//! board, shows the record and writes the report; a failure is said with
//! Try again, a saved calibration or settings file that cannot be used
//! offers the default or a new calibration.
//!
//! A face drives it, and tells it how it names each action ([`Face`]:
//! its keys or its buttons), so that the door's lines say no face's words
//! and never a flag; its keys and buttons become [`Action`]s, and it
//! shows what the door says: the lines said since it last looked
//! ([`Door::take_said`], the terminal prints them, the window echoes them),
//! the status as it stands ([`Door::status_lines`], the window paints it),
//! the board with the plan ([`Door::shown`]), and what is offered now
//! ([`Door::offer`]: the question, the menu, the buttons; each face shows
//! its menu itself). The phase holds what matters only there, and moves
//! in one place (`Door::enter`, which counts the turns). The door calls
//! [`Door::advance`] of no face: the face calls it in its loop.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use anyhow::Result;

mod calibrating;
mod finding;
mod offer;
mod outside;
mod record;
mod running;
mod said;

pub use offer::{Action, Face, Flow, Offer};
pub use outside::{Outside, Places, System};
use said::{Slot, StatusLines};

use super::calibrate::Calibrating;
use super::runner::{Handle, Shown};
use super::settings::{self, Choice, Settings};
use super::{Options, calibration_name};
use crate::chart::trend::Trend;
use crate::desktop::WindowInfo;
use crate::game::Board;
use crate::live::find::{self, Found, Search, Seen};
use crate::vision::Calibration;

/// How often the windows are looked at again while no game is found, and
/// the window asked about or the game's is looked for in the window list.
pub const LOOK_AGAIN: Duration = Duration::from_secs(2);

/// Where the door is, with what matters only there.
enum Phase {
    /// Looking for the game: a search under way, or the time of the next;
    /// whether the empty result was said (and how); the windows read
    /// lately (with the search while one goes on), kept for the next
    /// search when `keep_seen` (not the door's first search's, which may
    /// read a window the face's own window still covers while the window
    /// manager places it); whether to calibrate once the game is found
    /// (chosen where the saved calibration could not be used).
    Looking {
        search: Option<Receiver<(Search, Seen)>>,
        next: Instant,
        said: Option<Empty>,
        seen: Option<Seen>,
        keep_seen: bool,
        calibrate_when_found: bool,
    },
    /// A window found by its board alone: is it the game? When it was
    /// last looked for in the window list.
    Asking {
        found: Found,
        checked: Instant,
        calibrate_when_found: bool,
    },
    /// The game found: the menu. When its window was last looked for.
    Ready { checked: Instant },
    /// Hints or play, as the player chose.
    Running { run: Handle, choice: Choice },
    /// An error said, with Try again and Save a report (which holds it).
    Failed { error: String },
    /// The board read from the game's window, shown for the player to
    /// confirm or correct (`board`), then Save or Cancel.
    Calibrating {
        calibrating: Box<Calibrating>,
        board: Board,
    },
    /// The calibration the settings name, or the settings themselves,
    /// cannot be used: the default, or a new calibration?
    Unusable,
}

/// How a search that found nothing was said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Empty {
    /// No game among the windows.
    NoGame,
    /// The bot's own terminal covers the windows it would read.
    Covered,
    /// The game's window does not show (minimised, another desktop).
    Hidden,
}

/// The door.
pub struct Door {
    options: Options,
    outside: Box<dyn Outside>,
    places: Places,
    face: Face,
    phase: Phase,
    status: StatusLines,
    /// The lines said since the face last took them.
    said: Vec<String>,
    /// Counts the offers put, each phase entered or offered again
    /// ([`Door::enter`]): a face shows its offer again when it changes.
    turn: u32,
    shown: Option<Shown>,
    /// The proof of the board shown, ended or under way: hints and play
    /// started on it take its plan rather than work it out again.
    proof: Option<crate::live::Proof>,
    /// The proof is under way and its optimum not yet said: taken when
    /// it ends ([`Door::proven`]).
    proving: bool,
    /// The record's plot, saved, and what it shows, for a face that can
    /// to draw until the next action.
    plot: Option<(PathBuf, Trend)>,
    /// Troubles said once, shown under the status while they hold.
    notices: Vec<String>,
    calibration: Calibration,
    calibration_path: PathBuf,
    /// Windows the player said are not the game.
    declined: find::Declined,
    /// The game's window and the text that finds it again.
    game: Option<(WindowInfo, String)>,
    /// The settings as last read or written (another session or the
    /// player's hand may change the file: it is read again where a choice
    /// is saved).
    settings: Settings,
}

impl std::fmt::Debug for Door {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Door")
            .field("offer", &self.offer())
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl Door {
    /// Opens the door on the player's desktop and folders ([`System`],
    /// [`Places::system`]); see [`Door::open`].
    pub fn on_this_desktop(options: Options, face: Face) -> Result<Door> {
        Door::open(
            options,
            face,
            Box::new(System::default()),
            Places::system()?,
        )
    }

    /// Opens the door with the run's `options` on `outside`, the player's
    /// files in `places`: the settings read, the calibration loaded (a
    /// saved one, or settings, that cannot be used is said with a choice),
    /// the game looked for at once, for `face`. An error only for a
    /// calibration file named in the options that cannot be loaded.
    pub fn open(
        options: Options,
        face: Face,
        outside: Box<dyn Outside>,
        places: Places,
    ) -> Result<Door> {
        let settings = Settings::load(&places.settings);
        let in_use = super::calibration_in_use(
            options.calibration.as_deref(),
            &settings,
            Some(&places.settings),
        )?;
        let mut door = Door {
            options,
            outside,
            places,
            face,
            phase: Phase::Unusable,
            status: StatusLines::default(),
            said: Vec::new(),
            turn: 0,
            shown: None,
            proof: None,
            proving: false,
            plot: None,
            notices: Vec::new(),
            calibration: in_use.calibration,
            calibration_path: in_use.path,
            declined: find::Declined::default(),
            game: None,
            settings: settings.as_ref().cloned().unwrap_or_default(),
        };
        if let Ok(settings) = &settings {
            door.say_remembered(settings);
        }
        door.check_folders();
        door.say(Slot::Calibration, door.calibration_line());
        match in_use.unusable {
            None => {
                door.enter(looking_with(false, false));
            }
            Some(error) => {
                door.say(Slot::Doing, format!("error: {error}"));
                door.say(
                    Slot::Summary,
                    "the default calibration reads meanwhile, or calibrate on the game's board"
                        .to_owned(),
                );
                door.enter(Phase::Unusable);
            }
        }
        Ok(door)
    }

    /// What is offered now.
    pub fn offer(&self) -> Offer {
        match self.phase {
            Phase::Looking { .. } => Offer::Looking,
            Phase::Asking { .. } => Offer::Question,
            Phase::Ready { .. } => Offer::Menu,
            Phase::Running { .. } => Offer::Running,
            Phase::Failed { .. } => Offer::Failed,
            Phase::Calibrating { .. } => Offer::Calibrating,
            Phase::Unusable => Offer::Unusable,
        }
    }

    /// Counts the offers put: the offer is to be shown again when it
    /// changes.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Moves to `phase`, its offer to be put: the one place the phase
    /// moves.
    fn enter(&mut self, phase: Phase) {
        self.phase = phase;
        self.turn += 1;
    }

    /// The offer of now put again (after lines said under it).
    fn offer_again(&mut self) {
        let phase = std::mem::replace(&mut self.phase, Phase::Unusable);
        self.enter(phase);
    }

    /// The lines said since the last call, in order.
    pub fn take_said(&mut self) -> Vec<String> {
        std::mem::take(&mut self.said)
    }

    /// The board to show with its plan, if there is one.
    pub fn shown(&self) -> Option<&Shown> {
        self.shown.as_ref()
    }

    /// The board being calibrated on, as the player corrected it so far.
    pub fn calibrating(&self) -> Option<&Board> {
        match &self.phase {
            Phase::Calibrating { board, .. } => Some(board),
            _ => None,
        }
    }

    /// The record's plot, until the next action.
    pub fn plot(&self) -> Option<&std::path::Path> {
        self.plot.as_ref().map(|(path, _)| path.as_path())
    }

    /// What the record's plot shows, until the next action: for a face
    /// that draws it at its own size.
    pub fn trend(&self) -> Option<&Trend> {
        self.plot.as_ref().map(|(_, trend)| trend)
    }

    /// The calibration the boards are read with.
    pub fn calibration(&self) -> &Calibration {
        &self.calibration
    }

    /// Where that calibration came from.
    pub fn calibration_path(&self) -> &std::path::Path {
        &self.calibration_path
    }

    /// The game's window, once found.
    pub fn game(&self) -> Option<&WindowInfo> {
        self.game.as_ref().map(|(window, _)| window)
    }

    /// The choice Enter repeats at the menu, if one was made before.
    pub fn last_choice(&self) -> Option<Choice> {
        self.settings.last_choice
    }

    /// Moves on: a proof or a search started or its result taken, the
    /// run's notes taken, the game's window looked for.
    pub fn advance(&mut self) {
        self.proven();
        match &mut self.phase {
            Phase::Looking {
                search,
                next,
                seen,
                keep_seen,
                ..
            } => match search {
                None if Instant::now() >= *next => {
                    let seen = seen.take().unwrap_or_default();
                    // Another session may have found the game since.
                    if let Ok(settings) = Settings::load(&self.places.settings) {
                        self.settings = settings;
                    }
                    let remembered = self.settings.window.clone();
                    let calibration = self.calibration.clone();
                    *search = Some(self.outside.search(calibration, remembered, seen));
                }
                None => {}
                Some(rx) => match rx.try_recv() {
                    Ok((result, read)) => {
                        *seen = keep_seen.then_some(read);
                        *keep_seen = true;
                        self.searched(result);
                    }
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => {
                        self.fail("the search for the game failed".to_owned());
                    }
                },
            },
            Phase::Running { run, .. } => {
                let mut taken = Vec::new();
                let gone = loop {
                    match run.notes.try_recv() {
                        Ok(note) => taken.push(note),
                        Err(TryRecvError::Empty) => break false,
                        Err(TryRecvError::Disconnected) => break true,
                    }
                };
                for note in taken {
                    self.note(note);
                }
                // The run's thread ended without its end (a fault in the
                // bot): said, with Try again, never a run shown as going on.
                if gone && matches!(self.phase, Phase::Running { .. }) {
                    self.worker_died();
                }
            }
            Phase::Asking { checked, .. } | Phase::Ready { checked }
                if checked.elapsed() >= LOOK_AGAIN =>
            {
                *checked = Instant::now();
                self.still_there();
            }
            _ => {}
        }
    }

    /// Does what the player asked, where it makes sense now.
    pub fn act(&mut self, action: Action) -> Flow {
        self.plot = None;
        match action {
            Action::Quit => return Flow::Quit,
            Action::Stop(asker) => self.ask_stop(asker),
            Action::Hints => self.start(Choice::Hints),
            Action::Play => self.start(Choice::Play),
            Action::Again => {
                if let (Phase::Ready { .. }, Some(choice)) = (&self.phase, self.last_choice()) {
                    self.start(choice);
                }
            }
            Action::Record => {
                if !matches!(self.phase, Phase::Running { .. }) {
                    self.record();
                }
            }
            Action::Report => self.report(),
            Action::Calibrate => self.calibrate(),
            Action::Save => self.save_calibration(),
            Action::Cancel => self.cancel_calibration(),
            Action::Yes => self.yes(),
            Action::No => self.no(),
            // The game looked for again (the error may be its window gone).
            Action::TryAgain => {
                if let Phase::Failed { .. } = self.phase {
                    self.declined.forget();
                    self.look_again("looking for the game".to_owned());
                }
            }
            Action::UseDefault => {
                if let Phase::Unusable = self.phase {
                    self.use_default();
                    self.look_again("looking for the game".to_owned());
                }
            }
        }
        Flow::Go
    }

    fn calibration_name(&self) -> String {
        calibration_name(&self.calibration_path)
    }

    fn calibration_line(&self) -> String {
        format!("calibration: {}", self.calibration_name())
    }

    /// The settings and data folders, which the door writes: one that
    /// cannot be written is said once, with what goes without it.
    fn check_folders(&mut self) {
        let folders = [
            (
                "settings",
                self.places.config.clone(),
                "the game's window and your calibration are not remembered for the next start",
            ),
            (
                "data",
                self.places.data.clone(),
                "the games are not recorded and no report can be saved",
            ),
        ];
        for (name, folder, without) in folders {
            let checked = crate::files::check_folder(&folder)
                .map_err(|e| format!("{}: {e}", folder.display()));
            if let Err(why) = checked {
                self.notice(format!(
                    "the {name} folder cannot be written ({why}): {without}"
                ));
            }
        }
    }

    /// Saves one change to the settings, the file read once first (what
    /// another session or the player's hand wrote since is kept) and
    /// written only where `change` changed it; one that cannot be saved
    /// is said once, `what` not remembered.
    fn remember(&mut self, what: &str, change: impl FnOnce(&mut Settings)) {
        match settings::update(&self.places.settings, change) {
            Ok(settings) => self.settings = settings,
            Err(error) => self.notice(format!("{what} is not remembered: {error}")),
        }
    }

    /// Says `error`, with Try again and Save a report.
    fn fail(&mut self, error: String) {
        self.say_more(vec![format!("error: {error}")]);
        self.enter(Phase::Failed { error });
    }
}

/// Looking for the game, at once.
fn looking() -> Phase {
    looking_with(true, false)
}

/// Looking for the game, at once: a search's readings kept for the next
/// when `keep_seen`, the game calibrated on once found when
/// `calibrate_when_found`.
fn looking_with(keep_seen: bool, calibrate_when_found: bool) -> Phase {
    Phase::Looking {
        search: None,
        next: Instant::now(),
        said: None,
        seen: None,
        keep_seen,
        calibrate_when_found,
    }
}

/// The menu, the game's window looked for in [`LOOK_AGAIN`].
fn ready() -> Phase {
    Phase::Ready {
        checked: Instant::now(),
    }
}

/// What a panic said, from its payload: the text of `panic!`'s message.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_panicked_is_said_with_its_message() {
        let worker = std::thread::spawn(|| panic!("a fault {}", 7));
        let said = panic_text(worker.join().unwrap_err().as_ref());
        assert_eq!(said, "a fault 7");
        let worker = std::thread::spawn(|| std::panic::panic_any(42u8));
        assert_eq!(
            panic_text(worker.join().unwrap_err().as_ref()),
            "no message"
        );
    }
}
