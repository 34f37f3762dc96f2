//! What the door acts on: the desktop it looks at and where its searches
//! and runs go on ([`Outside`]: the player's, or a test's scripted one),
//! and where the player's files are ([`Places`]).

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};

use anyhow::Result;

use crate::app::Run;
use crate::app::runner::{self, Handle};
use crate::app::settings;
use crate::desktop::{self, Desktop};
use crate::live::find::{self, Search, Seen};
use crate::vision::Calibration;

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
    fn run(&mut self, run: Run, hint_window: bool) -> Handle;
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

    fn run(&mut self, run: Run, hint_window: bool) -> Handle {
        runner::start(run, hint_window)
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
