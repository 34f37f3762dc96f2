//! The front door, with no face: what `bot` alone on a terminal and the
//! desktop app `dustbot` both do before and between the games, written
//! once. The door looks for the game ([`find::search`], on a thread, again
//! every [`LOOK_AGAIN`] while none is found), asks about a window found by
//! its board alone, remembers the game's window, shows its board with the
//! proven optimum, starts hints or play on a thread of their own
//! ([`super::worker`]) and takes their notes, calibrates on the game's
//! board, shows the record and writes the report; a failure is said with
//! Try again, a saved calibration or settings file that cannot be used
//! offers the default or a new calibration.
//!
//! A face drives it: its keys and buttons become [`Action`]s, and it
//! shows what the door says: the lines said since it last looked
//! ([`Door::take_said`], the terminal prints them, the window echoes them),
//! the status as it stands ([`Door::status_lines`], the window paints it),
//! the board with the plan ([`Door::shown`]), and what is offered now
//! ([`Door::offer`]: the question, the menu, the buttons). The door calls
//! [`Door::advance`] of no face: the face calls it in its loop.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::calibrate::Calibrating;
use super::settings::{self, Choice, Settings};
use super::worker::{self, Note, Shown};
use super::{Mode, Options, Run, Target, calibration_name};
use crate::desktop::stop::{self, Asker, StopKey};
use crate::desktop::{self, Desktop, WindowInfo};
use crate::game::Board;
use crate::live::find::{self, Found, Search, Seen};
use crate::solver;
use crate::vision::Calibration;

/// How often the windows are looked at again while no game is found, and
/// the window asked about or the game's is looked for in the window list.
pub const LOOK_AGAIN: Duration = Duration::from_secs(2);

/// What a player asks of the door: a face's keys and buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Hints,
    Play,
    /// The last choice again (Enter at the terminal's menu).
    Again,
    /// The run under way asked to stop, by whom.
    Stop(Asker),
    Calibrate,
    Record,
    Report,
    Quit,
    /// Yes, this window is the game; while looking, the last No taken
    /// back.
    Yes,
    No,
    TryAgain,
    /// The board to calibrate on confirmed, or left as it was.
    Save,
    Cancel,
    /// The default calibration in place of the one that cannot be used.
    UseDefault,
}

/// What the door offers now: the question a face puts and its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Looking for the game: quit, or take the last No back.
    Looking,
    /// Is this window, found by its board alone, the game?
    Question,
    /// The game found: hints, play, calibrate, the record, a report.
    Menu,
    /// Hints or play go on: stop.
    Running,
    /// An error said: try again, save a report.
    Failed,
    /// The board read shown to be confirmed or corrected: save, cancel.
    Calibrating,
    /// The saved calibration or the settings cannot be used: the default,
    /// a new calibration, or quit.
    Lost,
}

impl Offer {
    /// The actions on offer, in the order a face shows them.
    pub fn actions(self) -> &'static [Action] {
        const MENU: &[Action] = &[
            Action::Hints,
            Action::Play,
            Action::Stop(Asker::StopButton),
            Action::Calibrate,
            Action::Record,
            Action::Report,
            Action::Quit,
        ];
        match self {
            Offer::Looking | Offer::Menu | Offer::Running => MENU,
            Offer::Question => &[Action::Yes, Action::No, Action::Quit],
            Offer::Failed => &[Action::TryAgain, Action::Report, Action::Quit],
            Offer::Calibrating => &[Action::Save, Action::Cancel, Action::Quit],
            Offer::Lost => &[Action::UseDefault, Action::Calibrate, Action::Quit],
        }
    }
}

/// The world the door acts on: the desktop it looks at, and where its
/// searches and runs go on. The system's runs them on threads of their
/// own, so that a face keeps answering; a test's may run them in place on
/// a scripted desktop.
pub trait Outside {
    fn desktop(&mut self) -> &mut dyn Desktop;

    /// One search for the game with `calibration`, the text `remembered`
    /// tried first; the result, with the windows seen, to come.
    fn search(
        &mut self,
        calibration: Calibration,
        remembered: Option<String>,
        seen: Seen,
    ) -> Receiver<(Search, Seen)>;

    /// Starts `run` (hints in a window of their own when `hint_window`):
    /// its notes, and the thread it runs on, where it has one.
    fn run(&mut self, run: Run, hint_window: bool) -> (Receiver<Note>, Option<JoinHandle<()>>);
}

/// The player's desktop, searches and runs on threads of their own.
#[derive(Debug, Default)]
pub struct System {
    desktop: desktop::capture::SystemDesktop,
}

impl Outside for System {
    fn desktop(&mut self) -> &mut dyn Desktop {
        &mut self.desktop
    }

    fn search(
        &mut self,
        calibration: Calibration,
        remembered: Option<String>,
        mut seen: Seen,
    ) -> Receiver<(Search, Seen)> {
        let (tx, rx) = mpsc::channel();
        // It reads every window, up to the search's budget.
        std::thread::spawn(move || {
            let mut desktop = desktop::system();
            let search = find::search(
                &mut desktop,
                &calibration,
                remembered.as_deref(),
                find::SEARCH_BUDGET,
                &mut seen,
            )
            .unwrap_or_else(|error| {
                log::warn!("no windows to look at: {error}");
                Search::default()
            });
            tx.send((search, seen)).ok();
        });
        rx
    }

    fn run(&mut self, run: Run, hint_window: bool) -> (Receiver<Note>, Option<JoinHandle<()>>) {
        let (notes, worker) = worker::start(run, hint_window);
        (notes, Some(worker))
    }
}

/// Where the door keeps the player's files: the settings file, the
/// folder calibrations are saved in, the data folder (the game log, the
/// record's plot, reports).
#[derive(Clone, Debug)]
pub struct Places {
    pub settings: PathBuf,
    pub config: PathBuf,
    pub data: PathBuf,
}

impl Places {
    /// The system's folders for the bot; an error where none can be
    /// named (no home).
    pub fn system() -> Result<Places> {
        Ok(Places {
            settings: settings::settings_path()?,
            config: desktop::folders::config_folder()?,
            data: desktop::folders::data_folder()?,
        })
    }

    /// The game log a run records in by default.
    pub fn game_log(&self) -> PathBuf {
        self.data.join(settings::GAME_LOG_FILE)
    }
}

/// Whether the face goes on or the player quit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Go,
    Quit,
}

/// The status lines, as they stand.
#[derive(Debug, Default)]
struct Status {
    window: String,
    calibration: String,
    optimum: String,
    doing: String,
    game: String,
    summary: String,
    /// The record's table, the windows tried, or an error's lines.
    more: Vec<String>,
}

/// Where the door is.
enum Phase {
    /// Looking for the game: a search under way, or the time of the next;
    /// whether the empty result was said (and how).
    Looking {
        search: Option<Receiver<(Search, Seen)>>,
        next: Instant,
        said: Option<Empty>,
    },
    /// A window found by its board alone: is it the game?
    Asking(Found),
    /// The game found: the menu.
    Ready,
    /// Hints or play, the stop keys the bot's while they go on.
    Running {
        notes: Receiver<Note>,
        worker: Option<JoinHandle<()>>,
        _stop_key: StopKey,
    },
    /// An error said, with Try again and Save a report.
    Failed,
    /// The board read from the game's window, shown for the player to
    /// confirm or correct (`board`), then Save or Cancel.
    Calibrating {
        calibrating: Box<Calibrating>,
        board: Board,
    },
    /// The calibration the settings name, or the settings themselves,
    /// cannot be used.
    Lost,
}

/// How a search that found nothing was said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Empty {
    /// No game among the windows.
    None,
    /// The bot's own terminal covers the windows it would read.
    Covered,
}

/// The door.
pub struct Door {
    options: Options,
    outside: Box<dyn Outside>,
    places: Places,
    /// Whether hints show in a window of their own beside the game (the
    /// terminal's face has no other), or in the face's window.
    hint_window: bool,
    phase: Phase,
    status: Status,
    /// The lines said since the face last took them.
    said: Vec<String>,
    /// Counts the questions put: a face shows its offer again when it
    /// changes (a new question, the menu after an action).
    asked: u32,
    shown: Option<Shown>,
    /// The record's plot, shown by a face that can until the next action.
    plot: Option<PathBuf>,
    /// Troubles said once, shown under the status while they hold.
    notices: Vec<String>,
    calibration: Calibration,
    calibration_path: PathBuf,
    /// A calibration in use in place of the one the settings name (the
    /// default chosen, one just made), said in errors.
    calibration_instead: Option<PathBuf>,
    /// Calibrate once the game is found (chosen where the saved
    /// calibration could not be used).
    calibrate_when_found: bool,
    /// Between searches: the windows read lately.
    seen: Option<Seen>,
    /// Whether a search's readings are kept for the next: not the first
    /// search's, which may read a window the face's own window still
    /// covers while the window manager places it.
    keep_seen: bool,
    /// Windows the player said are not the game.
    declined: find::Declined,
    /// The game's window and the text that finds it again.
    game: Option<(WindowInfo, String)>,
    /// When the window asked about, or the game's, was last looked for.
    checked: Instant,
    last_error: Option<String>,
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
    pub fn on_this_desktop(options: Options, hint_window: bool) -> Result<Door> {
        Door::open(
            options,
            hint_window,
            Box::new(System::default()),
            Places::system()?,
        )
    }

    /// Opens the door with the run's `options` on `outside`, the player's
    /// files in `places`: the settings read, the calibration loaded (a
    /// saved one, or settings, that cannot be used is said with a choice),
    /// the game looked for at once. `hint_window`: hints show in a window
    /// of their own. An error only for a calibration file named in the
    /// options that cannot be loaded.
    pub fn open(
        options: Options,
        hint_window: bool,
        outside: Box<dyn Outside>,
        places: Places,
    ) -> Result<Door> {
        let default = Calibration::default_path();
        let mut door = Door {
            options,
            outside,
            places,
            hint_window,
            phase: Phase::Ready,
            status: Status::default(),
            said: Vec::new(),
            asked: 0,
            shown: None,
            plot: None,
            notices: Vec::new(),
            calibration: Calibration::load_default(&default)?,
            calibration_path: default,
            calibration_instead: None,
            calibrate_when_found: false,
            seen: Some(Seen::default()),
            keep_seen: false,
            declined: find::Declined::default(),
            game: None,
            checked: Instant::now(),
            last_error: None,
        };
        let settings = Settings::load(&door.places.settings);
        if let Ok(settings) = &settings {
            door.say_remembered(settings);
        }
        door.check_folders();
        let loaded = match settings {
            Err(error) => Err(format!("{error}")),
            Ok(settings) => {
                let named = door.options.calibration.clone().or(settings.calibration);
                match named {
                    None => Ok(()),
                    Some(path) => match Calibration::load(&path) {
                        Ok(calibration) => {
                            door.calibration = calibration;
                            door.calibration_path = path;
                            Ok(())
                        }
                        // A file named on the command line is the
                        // player's to mend: refused as any flag is.
                        Err(error) if door.options.calibration.is_some() => {
                            return Err(anyhow::Error::from(error)
                                .context(format!("--calibration {}", path.display())));
                        }
                        Err(error) => {
                            let line = settings::line_of(&door.places.settings, "calibration")
                                .map(|line| format!(" line {line}"))
                                .unwrap_or_default();
                            Err(format!(
                                "{error} (the calibration saved in {}{line})",
                                door.places.settings.display()
                            ))
                        }
                    },
                }
            }
        };
        door.say(Slot::Calibration, door.calibration_line());
        match loaded {
            Ok(()) => door.phase = looking(),
            Err(error) => {
                door.say(Slot::Doing, format!("error: {error}"));
                door.say(
                    Slot::Summary,
                    "the default calibration reads meanwhile, or calibrate on the game's board"
                        .to_owned(),
                );
                door.phase = Phase::Lost;
                door.asked += 1;
            }
        }
        Ok(door)
    }

    /// What is offered now.
    pub fn offer(&self) -> Offer {
        match self.phase {
            Phase::Looking { .. } => Offer::Looking,
            Phase::Asking(_) => Offer::Question,
            Phase::Ready => Offer::Menu,
            Phase::Running { .. } => Offer::Running,
            Phase::Failed => Offer::Failed,
            Phase::Calibrating { .. } => Offer::Calibrating,
            Phase::Lost => Offer::Lost,
        }
    }

    /// Counts the questions put: the offer is to be shown again when it
    /// changes.
    pub fn asked(&self) -> u32 {
        self.asked
    }

    /// The lines said since the last call, in order.
    pub fn take_said(&mut self) -> Vec<String> {
        std::mem::take(&mut self.said)
    }

    /// The status lines as they stand, the notices under them.
    pub fn status_lines(&self) -> Vec<&str> {
        let s = &self.status;
        [
            &s.window,
            &s.calibration,
            &s.optimum,
            &s.doing,
            &s.game,
            &s.summary,
        ]
        .into_iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .chain(s.more.iter().map(String::as_str))
        .chain(self.notices.iter().map(String::as_str))
        .collect()
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
        self.plot.as_deref()
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
        self.settings().last_choice
    }

    /// The settings as the file says now (another session may have
    /// changed them); none where it cannot be read.
    fn settings(&self) -> Settings {
        Settings::load(&self.places.settings).unwrap_or_default()
    }

    /// Says a trouble once, shown under the status while it holds.
    pub fn notice(&mut self, line: String) {
        if !self.notices.contains(&line) {
            self.said.push(line.clone());
            self.notices.push(line);
        }
    }

    /// Moves on: a search started or its result taken, the run's notes
    /// taken, the game's window looked for.
    pub fn advance(&mut self) {
        match &mut self.phase {
            Phase::Looking { search, next, .. } => match search {
                None if Instant::now() >= *next => {
                    let seen = self.seen.take().unwrap_or_default();
                    let remembered = Settings::load(&self.places.settings)
                        .ok()
                        .and_then(|s| s.window);
                    let calibration = self.calibration.clone();
                    *search = Some(self.outside.search(calibration, remembered, seen));
                }
                None => {}
                Some(rx) => match rx.try_recv() {
                    Ok((result, seen)) => {
                        self.seen = self.keep_seen.then_some(seen);
                        self.keep_seen = true;
                        self.searched(result);
                    }
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => {
                        self.fail("the search for the game failed".to_owned());
                    }
                },
            },
            Phase::Running { notes, .. } => {
                let mut taken = Vec::new();
                let gone = loop {
                    match notes.try_recv() {
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
            Phase::Asking(_) | Phase::Ready if self.checked.elapsed() >= LOOK_AGAIN => {
                self.checked = Instant::now();
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
                if let (Phase::Ready, Some(choice)) = (&self.phase, self.last_choice()) {
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
            Action::Cancel => {
                if let Phase::Calibrating { .. } = self.phase {
                    self.phase = Phase::Ready;
                    self.asked += 1;
                    self.status.more.clear();
                    let line = format!("calibration unchanged: {}", self.calibration_name());
                    self.say(Slot::Doing, line);
                }
            }
            Action::Yes => {
                let found = match &self.phase {
                    Phase::Asking(found) => Some(found.clone()),
                    Phase::Looking { .. } => self.declined.take_back(),
                    _ => None,
                };
                if let Some(found) = found {
                    let line = format!("found the game by its board: {}", found.window);
                    self.say(Slot::Doing, line);
                    self.found(found);
                }
            }
            Action::No => {
                if let Phase::Asking(found) = &self.phase {
                    self.declined.decline(found);
                    let line =
                        format!("you said {} is not the game: y takes it back", found.window);
                    self.say(Slot::Doing, line);
                    self.phase = looking();
                }
            }
            // The game looked for again (the error may be its window gone).
            Action::TryAgain => {
                if let Phase::Failed = self.phase {
                    self.declined.forget();
                    self.look_again("looking for the game".to_owned());
                }
            }
            Action::UseDefault => {
                if let Phase::Lost = self.phase {
                    self.use_default();
                    self.look_again("looking for the game".to_owned());
                }
            }
        }
        Flow::Go
    }

    /// The board being calibrated on changed by `change` (a face's
    /// correction: a cell clicked, a row typed); what it refused said.
    pub fn correct(&mut self, change: impl FnOnce(&Board) -> Result<(Board, String), String>) {
        let Phase::Calibrating { board, .. } = &mut self.phase else {
            return;
        };
        let line = match change(board) {
            Ok((changed, line)) => {
                *board = changed;
                line
            }
            Err(refused) => refused,
        };
        self.say(Slot::Doing, format!("calibrate: {line}"));
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

    /// Says `text` (every line of it) and shows its first line in `slot`.
    fn say(&mut self, slot: Slot, text: String) {
        self.said.extend(text.lines().map(str::to_owned));
        let first = text.lines().next().unwrap_or_default().to_owned();
        *match slot {
            Slot::Window => &mut self.status.window,
            Slot::Calibration => &mut self.status.calibration,
            Slot::Optimum => &mut self.status.optimum,
            Slot::Doing => &mut self.status.doing,
            Slot::Game => &mut self.status.game,
            Slot::Summary => &mut self.status.summary,
        } = first;
    }

    /// Says `lines` under the status, in place of what was there.
    fn say_more(&mut self, lines: Vec<String>) {
        self.said.extend(lines.iter().cloned());
        self.status.more = lines;
    }

    /// "remembered (settings.toml): the window ..., your last choice ...".
    fn say_remembered(&mut self, s: &Settings) {
        if s == &Settings::default() {
            return;
        }
        let mut parts = Vec::new();
        if let Some(window) = &s.window {
            parts.push(format!("the window {}", crate::text::excerpt(window)));
        }
        if let Some(path) = &s.calibration {
            parts.push(format!("the calibration {}", path.display()));
        }
        if let Some(choice) = s.last_choice {
            parts.push(format!(
                "your last choice, {} {}",
                choice.key(),
                choice.name()
            ));
        }
        let line = format!(
            "remembered ({}): {}",
            self.places.settings.display(),
            parts.join(", ")
        );
        self.said.push(line);
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

    /// Saves one change to the settings; one that cannot be saved is said
    /// once, `what` not remembered.
    fn remember(&mut self, what: &str, change: impl FnOnce(&mut Settings)) {
        if let Err(error) = settings::update(&self.places.settings, change) {
            self.notice(format!("{what} is not remembered: {error}"));
        }
    }

    /// The default calibration in place of the one the settings name,
    /// which is forgotten (a settings file that does not parse is never
    /// written over: said).
    fn use_default(&mut self) {
        let path = Calibration::default_path();
        match Calibration::load_default(&path) {
            Ok(calibration) => {
                self.calibration = calibration;
                self.calibration_path = path.clone();
                self.calibration_instead = Some(path);
            }
            Err(error) => return self.fail(format!("{error}")),
        }
        if self.options.calibration.is_none() {
            self.remember("the default calibration", |s| s.calibration = None);
        }
        self.say(Slot::Calibration, self.calibration_line());
        self.status.summary.clear();
    }

    /// The window asked about, or the game's at the menu, closed: the
    /// question withdrawn, the menu gone, the game looked for again.
    fn still_there(&mut self) {
        let window = match (&self.phase, &self.game) {
            (Phase::Asking(found), _) => &found.window,
            (Phase::Ready, Some((window, _))) => window,
            _ => return,
        };
        let Ok(all) = self.outside.desktop().windows() else {
            return;
        };
        if all.iter().any(|w| w.id == window.id) {
            return;
        }
        let line = format!("{window} closed: looking for the game");
        self.status.summary.clear();
        self.look_again(line);
    }

    /// The game forgotten (its window, its board, what was said of it)
    /// and looked for again, `line` said.
    fn look_again(&mut self, line: String) {
        self.status.window.clear();
        self.status.optimum.clear();
        self.status.more.clear();
        self.game = None;
        self.shown = None;
        self.phase = looking();
        self.say(Slot::Doing, line);
    }

    /// A search's result: the game found, a question, or the windows
    /// tried said and another search in [`LOOK_AGAIN`].
    fn searched(&mut self, mut search: Search) {
        self.declined.leave_out(&mut search);
        // Of several, the ones found by name first (the search's order);
        // each found by its board alone is asked about in turn.
        match search.found.into_iter().next() {
            Some(one) if !one.needs_a_yes() => {
                let line = format!("found the game by {}: {}", one.by.words(), one.window);
                self.say(Slot::Doing, line);
                self.found(one);
            }
            Some(one) => {
                self.status.more.clear();
                let line = format!(
                    "a full board shows in {}: is this window the game? (it may be a picture of a board)",
                    one.window
                );
                self.say(Slot::Doing, line);
                self.phase = Phase::Asking(one);
                self.asked += 1;
            }
            None => {
                let empty = if search.covering.is_some() {
                    Empty::Covered
                } else {
                    Empty::None
                };
                let Phase::Looking {
                    search: pending,
                    next,
                    said,
                } = &mut self.phase
                else {
                    return;
                };
                *pending = None;
                *next = Instant::now() + LOOK_AGAIN;
                if *said == Some(empty) {
                    return;
                }
                *said = Some(empty);
                let again = format!("looking again every {} s", LOOK_AGAIN.as_secs());
                match &search.covering {
                    // Its own terminal hides what it would read: never
                    // "no game", which would blame the game.
                    Some(terminal) => {
                        let line = format!(
                            "this terminal ({terminal}) covers the windows it would read: move it aside; {again}"
                        );
                        self.say(Slot::Doing, line);
                        self.say_more(Vec::new());
                    }
                    None => {
                        let declined = if self.declined.last().is_some() {
                            " but the one you said is not the game (y takes it back)"
                        } else {
                            ""
                        };
                        let line = format!(
                            "no game found: no window is named {} and none shows a full board{declined}; start the dust game so that a full board shows: {again}",
                            find::GAME_NAME,
                        );
                        self.say(Slot::Doing, line);
                        let tried = search
                            .tried
                            .iter()
                            .map(|(window, why)| format!("  {window}: {why}"))
                            .collect();
                        self.say_more(tried);
                    }
                }
            }
        }
    }

    /// The game is `found`: remembered, its board shown with the proven
    /// optimum, and the menu (or the calibration chosen before).
    fn found(&mut self, found: Found) {
        self.status.more.clear();
        let all = self.outside.desktop().windows().unwrap_or_default();
        // The text that finds it again, remembered; a window no text tells
        // from the others is played by its id, and not remembered.
        let text = find::text_that_finds(&all, &found.window);
        match &text {
            Some(text) => {
                let text = text.clone();
                if self.settings().window.as_ref() != Some(&text) {
                    self.remember("the game's window", |s| s.window = Some(text));
                }
            }
            None => self.said.push(
                "no title tells this window from the others: it is not remembered".to_owned(),
            ),
        }
        self.say(Slot::Window, format!("window: {}", found.window));
        // Once, as the game is found: a washed-out capture misreads.
        if let Some(advice) = desktop::hdr::HdrState::warn_for_game(found.window.id) {
            self.say_more(vec![advice.to_owned()]);
        }
        self.show_board(found.board);
        let text = text.unwrap_or_else(|| found.window.title.clone());
        self.game = Some((found.window, text));
        self.ready();
        if std::mem::take(&mut self.calibrate_when_found) {
            self.calibrate();
        }
    }

    /// The menu, asked.
    fn ready(&mut self) {
        self.phase = Phase::Ready;
        self.asked += 1;
        self.say(
            Slot::Summary,
            "1 hints, 2 play for me (moving the mouse stops it), 3 calibrate, 4 the record"
                .to_owned(),
        );
    }

    /// `board` (the one read now, if any) shown with its proven optimum.
    fn show_board(&mut self, board: Option<Board>) {
        let Some(board) = board else {
            self.shown = None;
            return self.say(
                Slot::Optimum,
                "no board read now (a game not started, or one part played)".to_owned(),
            );
        };
        self.said.push(format!("board read: {board}"));
        let outcome = solver::solve(&board, &self.options.solve, &mut |_| {});
        let caption = super::words::optimum_caption(outcome.length(), outcome.proven_optimal);
        self.say(Slot::Optimum, caption.clone());
        self.shown = Some(Shown {
            board,
            clicks: crate::assist::clicks_on(&board, &outcome.moves, outcome.rules),
            caption: vec![caption],
        });
    }

    /// After a run: the game's window as it is now (its title may change
    /// as it goes) and its board read again, with the menu.
    fn read_again(&mut self) {
        let Some((window, _)) = &mut self.game else {
            return;
        };
        let desktop = self.outside.desktop();
        if let Some(now) = desktop
            .windows()
            .ok()
            .and_then(|all| all.into_iter().find(|w| w.id == window.id))
        {
            *window = now;
        }
        let window = window.clone();
        let board = find::read_board(desktop, &window, &self.calibration).ok();
        self.status.window = format!("window: {window}");
        self.show_board(board);
    }

    /// Calibrating on the board the game's window shows now: captured
    /// once, the board read from it shown for the player to confirm or
    /// correct.
    fn calibrate(&mut self) {
        match self.phase {
            Phase::Ready => {}
            Phase::Lost => {
                self.use_default();
                self.calibrate_when_found = true;
                return self.look_again(
                    "looking for the game, to calibrate on its board once found".to_owned(),
                );
            }
            Phase::Running { .. } | Phase::Calibrating { .. } => return,
            _ => {
                return self.say(
                    Slot::Doing,
                    "no game found yet: start the dust game so that a full board shows, then 3 calibrates on it"
                        .to_owned(),
                );
            }
        }
        let Some((window, _)) = &self.game else {
            return;
        };
        let window = window.clone();
        match Calibrating::capture(self.outside.desktop(), &window, &self.calibration) {
            Ok(calibrating) => {
                let board = calibrating.proposed;
                self.status.more.clear();
                self.said
                    .push(format!("calibrate: the board read: {board}"));
                self.say(
                    Slot::Doing,
                    "calibrate: is this the board in the game? Correct each cell that differs, then save; cancel leaves the calibration as it is"
                        .to_owned(),
                );
                self.phase = Phase::Calibrating {
                    calibrating: Box::new(calibrating),
                    board,
                };
                self.asked += 1;
            }
            Err(error) => self.fail(format!("{error}")),
        }
    }

    /// The board confirmed: a calibration learned on it, saved in the
    /// settings folder, read back from there, and used from now on; an
    /// error leaves the board shown, to correct or cancel.
    fn save_calibration(&mut self) {
        let Phase::Calibrating { calibrating, board } = &self.phase else {
            return;
        };
        let board = *board;
        let saved = calibrating.save(&board, &self.places.config);
        let saved = match saved {
            Ok(saved) => saved,
            Err(error) => {
                self.say_more(vec![format!("error: {error:#}")]);
                self.asked += 1;
                return;
            }
        };
        let path = saved.path.clone();
        let remembered = match settings::update(&self.places.settings, |s| {
            s.calibration = Some(path);
        }) {
            Ok(_) => String::new(),
            Err(error) => format!(" (not remembered for the next start: {error})"),
        };
        self.calibration = saved.calibration;
        self.calibration_path = saved.path.clone();
        self.calibration_instead = Some(saved.path);
        self.status.more.clear();
        self.say(Slot::Calibration, self.calibration_line());
        let line = format!(
            "saved the calibration as {}: used from now on{remembered}",
            self.calibration_path.display()
        );
        self.say(Slot::Doing, line);
        self.show_board(Some(board));
        self.ready();
    }

    /// Hints or play, game after game until stopped.
    fn start(&mut self, choice: Choice) {
        let Phase::Ready = self.phase else {
            if !matches!(self.phase, Phase::Running { .. }) {
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

    fn note(&mut self, note: Note) {
        match note {
            Note::Picture(shown) => self.shown = Some(shown),
            Note::Doing(line) => self.say(Slot::Doing, line),
            Note::Game(line) => self.say(Slot::Game, line),
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
                match error {
                    Some(error) => self.fail(error),
                    None => {
                        self.read_again();
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
    fn worker_died(&mut self) {
        let Phase::Running { worker, .. } = std::mem::replace(&mut self.phase, Phase::Ready) else {
            return;
        };
        let why = match worker.map(JoinHandle::join) {
            Some(Err(panic)) => panic_text(panic.as_ref()),
            _ => "it ended without a word".to_owned(),
        };
        stop::clear();
        self.status.summary.clear();
        self.fail(format!(
            "the run stopped on a fault in the bot ({why}): Try again, or Save a report"
        ));
    }

    /// Says `error`, with Try again and Save a report.
    fn fail(&mut self, error: String) {
        self.say_more(vec![format!("error: {error}")]);
        self.last_error = Some(error);
        self.phase = Phase::Failed;
        self.asked += 1;
    }

    /// A run under way asked to stop, by `asker`.
    fn ask_stop(&mut self, asker: Asker) {
        if let Phase::Running { .. } = self.phase {
            stop::ask(asker);
            self.say(Slot::Doing, "stopping".to_owned());
        }
    }

    /// The record of the default game log, said; its plot saved beside
    /// it, for a face that can to show (never in a viewer the bot opens:
    /// it would lie over the game, whose board the bot reads).
    fn record(&mut self) {
        let log = self.places.game_log();
        let lines = if log.exists() {
            let plot = self.places.data.join("record.png");
            super::stats::record_text(&[log], Some(&plot), false).map(|text| {
                self.plot = Some(plot);
                text.lines().map(str::to_owned).collect()
            })
        } else {
            let folder = crate::files::folder_of(&log);
            Ok(vec![match crate::files::check_folder(&folder) {
                Ok(()) => format!(
                    "no games recorded yet ({}): hints and play record each game",
                    log.display()
                ),
                Err(why) => format!(
                    "no games recorded: the data folder {} cannot be written ({why})",
                    folder.display()
                ),
            }])
        };
        match lines {
            Ok(lines) => self.say_more(lines),
            Err(error) => self.fail(format!("{error:#}")),
        }
        if let Phase::Ready = self.phase {
            self.asked += 1;
        }
    }

    /// The report, saved in the data folder, with the last error.
    fn report(&mut self) {
        let error = self.last_error.as_deref();
        let line = match super::report::save(&self.places.data, error, &self.options.debug_dir()) {
            Ok(path) => format!(
                "wrote the report {}: attach it to your question",
                path.display()
            ),
            Err(error) => format!("error: {error:#}"),
        };
        self.say(Slot::Doing, line);
        if let Phase::Ready | Phase::Failed = self.phase {
            self.asked += 1;
        }
    }
}

/// A status line.
#[derive(Clone, Copy)]
enum Slot {
    Window,
    Calibration,
    Optimum,
    Doing,
    Game,
    Summary,
}

/// Looking for the game, at once.
fn looking() -> Phase {
    Phase::Looking {
        search: None,
        next: Instant::now(),
        said: None,
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

    #[test]
    fn each_offer_has_quit_and_the_menu_stops_a_run() {
        for offer in [
            Offer::Looking,
            Offer::Question,
            Offer::Menu,
            Offer::Running,
            Offer::Failed,
            Offer::Calibrating,
            Offer::Lost,
        ] {
            assert!(offer.actions().contains(&Action::Quit), "{offer:?}");
        }
        assert!(
            Offer::Running
                .actions()
                .contains(&Action::Stop(Asker::StopButton))
        );
        assert_eq!(Offer::Question.actions()[..2], [Action::Yes, Action::No]);
    }
}
