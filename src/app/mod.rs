//! The run and the door, between the faces and the live floor. The
//! command line's flags, the guided session (`bot` alone) and the desktop
//! app lead into the same games: each sets the run's knobs ([`Options`])
//! and builds one [`Run`], the value that says everything a run of games
//! needs (what it does, the game's window found or the text that finds it,
//! the calibration loaded, the solver's budget, how many games, the game
//! log, ...), and hands it to [`games`], which opens the window, the game
//! log and the games in a row; [`runner`] lives a run's whole life for
//! every face (the driver, the stop keys, the notes, its end as a value).
//! The front door before and between the games ([`door`]) is this
//! floor's, with no face: the guided session and the app drive it. So are what every face says and
//! keeps: the words of a run ([`words`]), the record's table and plot ([`record_view`]),
//! the report ([`report`]), the log ([`logging`]), and the player's
//! settings file ([`settings`]).

pub mod calibrate;
pub mod door;
pub mod logging;
pub mod record_view;
pub mod report;
pub mod runner;
pub mod settings;
pub mod words;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, Result};

use crate::assist::Hints;
use crate::desktop::{Desktop, GameWindow, WindowInfo};
use crate::live::session::{Driver, Event, Observe, RunError, Session};
use crate::live::{LiveSettings, RulesChoice};
use crate::record::{GameLog, GameRecord};
use crate::render::Look;
use crate::solver::SolveOptions;
use crate::vision::Calibration;

/// What a run of games does with the game: the one place a run's kind is
/// settled, whichever door asked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The bot clicks: plan, click, verify, re-plan.
    Play,
    /// Reads and plans from the live window, never clicks.
    Watch,
    /// Hints for a player who clicks for themselves.
    Assist,
}

/// Which game log a run appends its games to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameLogChoice {
    /// `games.jsonl` in the bot's data folder, opened once the window is
    /// found; a folder that cannot be written is said and play goes on.
    Default,
    /// A file named by the player: one that cannot be written stops the
    /// run before the game.
    File(PathBuf),
    /// No record.
    Off,
}

/// Where the game is: a window already found (played by its id: a twin
/// of the same title is never taken for it), or the text that finds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Found(WindowInfo),
    Text(String),
}

/// Everything a run of games needs, built once by whichever door.
#[derive(Debug)]
pub struct Run {
    pub mode: Mode,
    pub target: Target,
    /// The calibration, the solver's budget, the rules, the settling and
    /// the debug folder, and the text that finds the window again (a game
    /// that makes its window anew, the bot's own windows left out).
    pub live: LiveSettings,
    /// Where the calibration came from, said in errors and logs.
    pub calibration_path: PathBuf,
    /// How many games (0: until stopped).
    pub games: u32,
    pub game_log: GameLogChoice,
    /// Play only: how often to re-plan, and a cap on the clicks.
    pub max_replans: u32,
    pub max_moves: Option<u32>,
    /// Assist only: where the hints show (on the board, beside it, both).
    pub hints: Hints,
}

/// The knobs of a run of games, whichever face sets them: the command
/// line's flags convert into them, the guided session takes them from the
/// flags given with `bot` alone, the desktop app takes the defaults. The
/// defaults are written here once; the flags' are pinned to them by a
/// test of the command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// The calibration file named, else the one the settings name, else
    /// the default ([`calibration_now`]).
    pub calibration: Option<PathBuf>,
    /// The solver's budget (its rules are the start of `rules`).
    pub solve: SolveOptions,
    pub rules: RulesChoice,
    /// How long a board may take to settle after a click, and the
    /// animation's length when the player knows it.
    pub settle_limit: Duration,
    pub anim: Option<Duration>,
    /// The folder frames are saved in, when one is named ([`Options::debug_dir`]).
    pub debug_dir: Option<PathBuf>,
    /// How many games (0: until stopped).
    pub games: u32,
    pub game_log: GameLogChoice,
    pub max_replans: u32,
    pub max_moves: Option<u32>,
    /// Where the hints show, when named; else the settings' choice.
    pub hints: Option<Hints>,
}

impl Default for Options {
    fn default() -> Options {
        let rules = RulesChoice::Auto;
        Options {
            calibration: None,
            solve: SolveOptions {
                rules: rules.start(),
                ..SolveOptions::default()
            },
            rules,
            settle_limit: Duration::from_secs(3),
            anim: None,
            debug_dir: None,
            games: 1,
            game_log: GameLogChoice::Default,
            max_replans: 3,
            max_moves: None,
            hints: None,
        }
    }
}

impl Options {
    /// The player's choices from their `settings` where the options name
    /// none: where the hints show.
    pub fn remember(&mut self, settings: Option<&settings::Settings>) {
        if self.hints.is_none() {
            self.hints = settings.and_then(|s| s.hints);
        }
    }

    /// Where frames are saved: the folder named, else [`default_debug_dir`].
    pub fn debug_dir(&self) -> PathBuf {
        self.debug_dir.clone().unwrap_or_else(default_debug_dir)
    }
}

/// What a run of games did: the games recorded, whether it had a summary
/// to say, the window's title now (for a message), whether the game's
/// window closed between games (the end of a run that goes until
/// stopped), and how it ended.
#[derive(Debug)]
pub struct Ran {
    pub played: Vec<GameRecord>,
    pub has_summary: bool,
    pub title_now: String,
    pub window_closed: bool,
    pub result: Result<(), RunError>,
}

impl Run {
    /// The run `options` ask for in `mode`, in the window `target` names,
    /// with the player's settings read once: where the hints show (named,
    /// else the settings' key, else both) and the calibration in use
    /// ([`calibration_now`]).
    pub fn of(options: &Options, mode: Mode, target: Target) -> Result<Run> {
        let (in_use, settings) = calibration_now(options.calibration.as_deref())?;
        let mut options = options.clone();
        options.remember(settings.as_ref());
        Run::with(&options, mode, target, in_use)
    }

    /// [`Run::of`] with the settings' choices in `options` already and
    /// the calibration in use loaded: the folder frames go to checked
    /// before the game (as `--out` is before a dry run).
    pub fn with(options: &Options, mode: Mode, target: Target, in_use: InUse) -> Result<Run> {
        let InUse {
            calibration,
            path: calibration_path,
            ..
        } = in_use;
        let debug_dir = options.debug_dir();
        check_debug_dir(&debug_dir, options.debug_dir.is_some())?;
        let query = match &target {
            Target::Text(text) => text.clone(),
            Target::Found(window) => window.title.clone(),
        };
        let live = LiveSettings {
            calibration,
            solve: options.solve.clone(),
            rules: options.rules,
            settle_limit: options.settle_limit,
            anim: options.anim,
            debug_dir,
            query,
            proof: None,
        };
        Ok(Run {
            mode,
            target,
            live,
            calibration_path,
            games: options.games,
            game_log: options.game_log.clone(),
            max_replans: options.max_replans,
            max_moves: options.max_moves,
            hints: options.hints.unwrap_or_default(),
        })
    }
}

/// Runs `driver`'s games on `desktop` as `run` says: the game log opened
/// (a file named that cannot be written refuses the run), the window
/// opened, `found` told of it, then the games in a row, each told to
/// `observe`.
pub fn games<D: Driver>(
    run: &Run,
    mut driver: D,
    desktop: &mut dyn Desktop,
    found: impl FnOnce(&WindowInfo),
    observe: &mut Observe<'_, D>,
) -> Result<Ran> {
    let calibration = run.calibration_path.as_path();
    // A log that cannot be written is said before any game.
    let log = match &run.game_log {
        GameLogChoice::File(path) => Some(GameLog::open(path, &[calibration])?),
        _ => None,
    };
    let mut window: Box<dyn GameWindow> = match &run.target {
        Target::Found(info) => desktop.open(info)?,
        Target::Text(text) => crate::live::find::by_text(desktop, text)?,
    };
    // The default log once there is a game to record: none made for a
    // window not found, nor for a run that never clicks.
    let mut session = match run.game_log {
        GameLogChoice::Default if run.mode != Mode::Watch => {
            Session::new(run.games, default_log(calibration)).unrecorded_on_failure()
        }
        _ => Session::new(run.games, log),
    };
    found(window.info());
    let running = crate::desktop::stop::Running::start();
    let mut window_closed = false;
    let result = session.run(&mut driver, desktop, &mut window, &mut |event| {
        window_closed |= matches!(event, Event::WindowClosed);
        observe(event);
    });
    drop(running);
    Ok(Ran {
        played: session.played().to_vec(),
        has_summary: session.has_summary(),
        title_now: window.title_now(),
        window_closed,
        result,
    })
}

/// The game log in the bot's data folder, made when missing; a record
/// by default is no reason to refuse play: when it cannot be written
/// (no home, a read-only folder) that is said and the games go on.
fn default_log(calibration: &Path) -> Option<GameLog> {
    let opened = settings::default_game_log()
        .map_err(anyhow::Error::from)
        .and_then(|path| {
            std::fs::create_dir_all(crate::files::folder_of(&path))
                .with_context(|| format!("{}: cannot make its folder", path.display()))?;
            Ok(GameLog::open(&path, &[calibration])?)
        });
    match opened {
        Ok(log) => {
            log::debug!("recording the games in {}", log.path().display());
            Some(log)
        }
        Err(error) => {
            log::warn!("{error:#}: the games are not recorded");
            None
        }
    }
}

/// The calibration a run reads with, loaded, where it came from, and why
/// the one the settings name could not be used, if it could not.
#[derive(Clone, Debug)]
pub struct InUse {
    pub calibration: Calibration,
    pub path: PathBuf,
    pub unusable: Option<String>,
}

/// The calibration in use, the one rule of every face: the file `given`,
/// else the one the player's `settings` name (made on their board),
/// else the default. A file given that cannot be loaded is the player's
/// to mend: refused. Settings that cannot be read, or a calibration they
/// name that cannot be loaded, leave the default in use, with the reason
/// (the settings file's line named when `settings_file` says where).
pub fn calibration_in_use(
    given: Option<&Path>,
    settings: &Result<settings::Settings, settings::SettingsError>,
    settings_file: Option<&Path>,
) -> Result<InUse> {
    let default = |unusable| -> Result<InUse> {
        let path = Calibration::default_path();
        Ok(InUse {
            calibration: Calibration::load_default(&path)?,
            path,
            unusable,
        })
    };
    if let Some(path) = given {
        return Ok(InUse {
            calibration: Calibration::load(path)
                .with_context(|| format!("--calibration {}", path.display()))?,
            path: path.to_owned(),
            unusable: None,
        });
    }
    let saved = match settings {
        Err(error) => return default(Some(error.to_string())),
        Ok(settings) => settings.calibration.clone(),
    };
    let Some(path) = saved else {
        return default(None);
    };
    match Calibration::load(&path) {
        Ok(calibration) => Ok(InUse {
            calibration,
            path,
            unusable: None,
        }),
        Err(error) => {
            let file = settings_file.map_or_else(
                || "the settings".to_owned(),
                |file| {
                    let line = settings::line_of(file, "calibration")
                        .map(|line| format!(" line {line}"))
                        .unwrap_or_default();
                    format!("{}{line}", file.display())
                },
            );
            default(Some(format!("{error} (the calibration saved in {file})")))
        }
    }
}

/// [`calibration_in_use`] with the player's settings read now, once,
/// for the command line's runs (a saved calibration that cannot be used
/// is said on standard error): with the settings, where they could be
/// read.
pub fn calibration_now(given: Option<&Path>) -> Result<(InUse, Option<settings::Settings>)> {
    let file = settings::settings_path().ok();
    let settings = settings::current();
    let in_use = calibration_in_use(given, &settings, file.as_deref())?;
    if let Some(why) = &in_use.unusable {
        log::warn!("{why}: the default calibration reads");
    }
    Ok((in_use, settings.ok()))
}

/// The calibration loaded from `path` ([`calibration_in_use`]'s), named for the
/// player: its file, or the one built into the bot where the default file
/// is not there.
pub fn calibration_name(path: &Path) -> String {
    if !path.is_file() && path == Calibration::default_path() {
        format!("built into the bot (no file {})", path.display())
    } else {
        path.display().to_string()
    }
}

/// Where frames are saved when nothing says where.
pub fn default_debug_dir() -> PathBuf {
    PathBuf::from("debug")
}

/// Checks the folder frames are saved in before the game: one `given`
/// that cannot be written refuses the run (frames are saved when
/// something goes wrong, which is no time to learn it); the default one
/// only goes without frames, said.
pub fn check_debug_dir(dir: &Path, given: bool) -> Result<()> {
    match crate::files::check_folder(dir) {
        Ok(()) => Ok(()),
        Err(cause) if given => Err(cause)
            .with_context(|| format!("--debug-dir {}: cannot save frames there", dir.display())),
        Err(cause) => {
            log::warn!(
                "{}: cannot save frames there ({cause}): play goes on, and a frame worth a look is not kept (--debug-dir DIR names another folder)",
                dir.display()
            );
            Ok(())
        }
    }
}

/// The colours a calibration was made from, to draw in: a board drawn in
/// them reads with that calibration (the renderer knows no calibration).
pub fn look_of(calibration: &Calibration) -> Look {
    Look {
        fog: calibration.background.linear_rgb,
        piles: calibration.colours.iter().map(|c| c.lab).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_calibration_has_the_real_games_colours() {
        let calibration = Calibration::load(&Calibration::default_path()).unwrap();
        assert_eq!(look_of(&calibration), Look::nodiatis());
    }
}
