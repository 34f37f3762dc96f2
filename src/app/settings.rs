//! The player's settings: the settings file in the bot's config folder
//! ([`crate::desktop::folders`]), `settings.toml`, which the guided
//! session (`bot` alone) and the desktop app write: the text that finds the game's window,
//! the calibration made on the player's board, the menu's last choice.
//! Flags given on the command line win over it. A broken file is an error
//! naming its line and is never written over: the player's hand-made file
//! is theirs until they fix or remove it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::desktop::folders::{self, FolderError};
use crate::files;

/// The settings file's name in the config folder.
const SETTINGS_FILE: &str = "settings.toml";

/// The game log's name in the data folder.
pub const GAME_LOG_FILE: &str = "games.jsonl";

/// A settings file is a few lines: anything much bigger is not one.
const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// What the guided session remembers between starts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The text that finds the game's window: part of its title or
    /// application name, as `--window` takes it.
    pub window: Option<String>,
    /// The calibration made on the player's board (menu key 3).
    pub calibration: Option<PathBuf>,
    /// The menu's last choice, offered first (Enter) at the next start.
    pub last_choice: Option<Choice>,
    /// Where hints show: on the game's board, beside it, or both (as
    /// `--hints`, which wins over it).
    pub hints: Option<crate::assist::Hints>,
}

/// The menu's choices worth offering again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    Hints,
    Play,
}

impl Choice {
    /// The key that makes this choice in the menu.
    pub fn key(self) -> char {
        match self {
            Choice::Hints => '1',
            Choice::Play => '2',
        }
    }

    /// The choice in the menu's words.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Hints => "hints",
            Choice::Play => "play for me",
        }
    }
}

/// Why the settings cannot be read or written.
#[derive(Debug, Error)]
pub enum SettingsError {
    #[error(
        "{}: line {line}: {message}; fix the line or remove the file (it is not written over while it is broken)",
        path.display()
    )]
    Broken {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{}: cannot read the settings: {cause}", path.display())]
    Read {
        path: PathBuf,
        cause: files::FileError,
    },
    #[error("{}: cannot write the settings: {cause}", path.display())]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error(transparent)]
    NoFolder(#[from] FolderError),
}

/// The settings file.
pub fn settings_path() -> Result<PathBuf, SettingsError> {
    Ok(folders::config_folder()?.join(SETTINGS_FILE))
}

/// The game log live play and assist mode append to unless told
/// otherwise, and `bot stats` reads when given no log.
pub fn default_game_log() -> Result<PathBuf, SettingsError> {
    Ok(folders::data_folder()?.join(GAME_LOG_FILE))
}

/// Where `bot --help` says the settings are.
pub fn help_line() -> String {
    match settings_path() {
        Ok(path) => format!(
            "Settings: {} (written by `bot` alone on a terminal; flags win over it)",
            path.display()
        ),
        Err(error) => format!("Settings: none ({error})"),
    }
}

impl Settings {
    /// The settings at `path`: none yet when there is no file.
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        if !path.exists() {
            return Ok(Settings::default());
        }
        let text =
            files::read_text(path, MAX_SETTINGS_BYTES, "a settings file").map_err(|cause| {
                SettingsError::Read {
                    path: path.to_owned(),
                    cause,
                }
            })?;
        Settings::parse(&text).map_err(|(line, message)| SettingsError::Broken {
            path: path.to_owned(),
            line,
            message,
        })
    }

    /// The settings in `text`, or the line (from 1) that breaks them and
    /// what is wrong there (an unknown key named).
    fn parse(text: &str) -> Result<Settings, (usize, String)> {
        let text = files::without_bom(text);
        toml::from_str(text).map_err(|error: toml::de::Error| {
            let at = error.span().map_or(0, |span| span.start);
            let line = 1 + text[..at.min(text.len())].matches('\n').count();
            (line, error.message().trim().to_owned())
        })
    }

    /// The file's text: every key documented, those not set left as
    /// comments to fill in.
    fn to_toml(&self) -> String {
        let quoted = |text: &str| toml::Value::String(text.to_owned()).to_string();
        let line = |key: &str, value: Option<String>| match value {
            Some(value) => format!("{key} = {value}\n"),
            None => format!("# {key} = (not set)\n"),
        };
        let mut text = String::from(
            "# dustbot's settings, written by the guided session (`bot` alone on a\n\
             # terminal). Flags given on the command line win over them.\n\n",
        );
        text += "# The text that finds the game's window: part of its title or\n\
                 # application name, ignoring case (as --window TEXT).\n";
        text += &line("window", self.window.as_deref().map(quoted));
        text += "\n# The calibration file made on your board (the menu's 3), used by every\n\
                 # run that is given no --calibration.\n";
        text += &line(
            "calibration",
            self.calibration
                .as_ref()
                .map(|p| quoted(&p.to_string_lossy())),
        );
        text += "\n# The menu's last choice, offered first (Enter): \"hints\" or \"play\".\n";
        text += &line(
            "last_choice",
            self.last_choice.map(|c| {
                quoted(match c {
                    Choice::Hints => "hints",
                    Choice::Play => "play",
                })
            }),
        );
        text += "\n# Where hints show: \"board\" (marked on the game's own board),\n\
                 # \"beside\" (the hint window beside it) or \"both\" (as --hints).\n";
        text += &line(
            "hints",
            self.hints.map(|h| {
                quoted(match h {
                    crate::assist::Hints::Board => "board",
                    crate::assist::Hints::Beside => "beside",
                    crate::assist::Hints::Both => "both",
                })
            }),
        );
        text
    }

    /// Writes the settings to `path` whole, its folder made when missing;
    /// through a link to where it points (a dotfiles manager's link stays
    /// a link).
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let write = |cause| SettingsError::Write {
            path: path.to_owned(),
            cause,
        };
        let target = through_links(path).map_err(write)?;
        std::fs::create_dir_all(files::folder_of(&target)).map_err(write)?;
        files::write_whole(&target, self.to_toml().as_bytes(), files::Existing::Replace)
            .map_err(write)
    }

    /// The calibration to use when no `--calibration` is given: the one
    /// made on the player's board, when it is set.
    pub fn calibration(&self) -> Option<&Path> {
        self.calibration.as_deref()
    }
}

/// Changes one key of the settings at `path`: the file read again first,
/// so that what another session or the player's hand wrote since is
/// kept, `change` made to it, and written back where it changed
/// something. A file that no longer parses is an error and is not
/// written over. Returns the settings as they stand.
pub fn update(path: &Path, change: impl FnOnce(&mut Settings)) -> Result<Settings, SettingsError> {
    let mut settings = Settings::load(path)?;
    let before = settings.clone();
    change(&mut settings);
    if settings != before {
        settings.save(path)?;
    }
    Ok(settings)
}

/// The line (from 1) of the settings file at `path` that sets `key`.
pub fn line_of(path: &Path, key: &str) -> Option<usize> {
    let text = files::read_text(path, MAX_SETTINGS_BYTES, "a settings file").ok()?;
    text.lines()
        .position(|line| {
            line.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|at| at + 1)
}

/// Where a write to `path` lands: the file a link (or a chain of them)
/// points to, else `path` itself.
fn through_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut path = path.to_owned();
    // A loop of links is the file system's error to say, at the write.
    for _ in 0..16 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = files::folder_of(&path).join(target);
            }
            _ => break,
        }
    }
    Ok(path)
}

/// The settings of this run: those in the settings file, or none when
/// there is no folder for them (said); a broken file is an error.
pub fn current() -> Result<Settings, SettingsError> {
    match settings_path() {
        Ok(path) => Settings::load(&path),
        Err(error) => {
            log::debug!("{error}");
            Ok(Settings::default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_written_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep").join("settings.toml");
        let settings = Settings {
            window: Some("Dust \"Practice\" \\ é".into()),
            calibration: Some(dir.path().join("calibration.toml")),
            last_choice: Some(Choice::Play),
            hints: Some(crate::assist::Hints::Board),
        };
        settings.save(&path).unwrap();
        assert_eq!(Settings::load(&path).unwrap(), settings);
        let text = std::fs::read_to_string(&path).unwrap();
        for key in ["window", "calibration", "last_choice", "hints"] {
            let documented = text
                .lines()
                .take_while(|l| !l.starts_with(&format!("{key} =")))
                .last()
                .unwrap();
            assert!(documented.starts_with('#'), "{key} undocumented: {text}");
        }
        // Keys not set stay as comments, and read back as not set.
        Settings::default().save(&path).unwrap();
        assert_eq!(Settings::load(&path).unwrap(), Settings::default());
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("# window =")
        );
    }

    #[test]
    fn one_key_is_changed_over_what_the_file_holds_now() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        // What this session holds in memory is not what the file holds
        // now: another session saved its calibration since.
        Settings::default().save(&path).unwrap();
        let other = dir.path().join("theirs.toml");
        update(&path, |s| s.calibration = Some(other.clone())).unwrap();
        let saved = update(&path, |s| s.last_choice = Some(Choice::Hints)).unwrap();
        assert_eq!(saved.calibration.as_deref(), Some(other.as_path()));
        assert_eq!(Settings::load(&path).unwrap(), saved);
        assert_eq!(line_of(&path, "last_choice").map(|l| l > 1), Some(true));
        // Broken by hand meanwhile: refused, and the file kept as it is.
        std::fs::write(&path, "window = \"Dust\n").unwrap();
        let error = update(&path, |s| s.last_choice = Some(Choice::Play)).unwrap_err();
        assert!(error.to_string().contains("line 1"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "window = \"Dust\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_settings_file_is_written_through_its_link() {
        let dir = tempfile::tempdir().unwrap();
        let dotfiles = dir.path().join("dotfiles");
        std::fs::create_dir(&dotfiles).unwrap();
        let real = dotfiles.join("dustbot.toml");
        Settings::default().save(&real).unwrap();
        let link = dir.path().join("settings.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        update(&link, |s| s.window = Some("Dust Practice".into())).unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(
            Settings::load(&real).unwrap().window.as_deref(),
            Some("Dust Practice")
        );
        // Linked to a player's file that is no settings: never written.
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "buy milk\n").unwrap();
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&notes, &link).unwrap();
        assert!(update(&link, |s| s.window = Some("Dust".into())).is_err());
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "buy milk\n");
    }

    #[test]
    fn no_file_is_no_settings_yet() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Settings::load(&dir.path().join("none.toml")).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn a_broken_file_names_its_line_and_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        let broken = "window = \"Dust\"\n\nlast_choice = \"hints\nx = 1\n";
        std::fs::write(&path, broken).unwrap();
        let error = Settings::load(&path).unwrap_err().to_string();
        assert!(error.contains("line 3"), "{error}");
        assert!(error.contains(&path.display().to_string()), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
        let unknown = "window = \"Dust\"\ncolour = \"red\"\n";
        std::fs::write(&path, unknown).unwrap();
        let error = Settings::load(&path).unwrap_err().to_string();
        assert!(error.contains("line 2"), "{error}");
        assert!(error.contains("colour"), "{error}");
        let wrong = "last_choice = \"dance\"\n";
        std::fs::write(&path, wrong).unwrap();
        let error = Settings::load(&path).unwrap_err().to_string();
        assert!(
            error.contains("line 1") && error.contains("dance"),
            "{error}"
        );
    }
}
