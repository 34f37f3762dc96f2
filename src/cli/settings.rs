//! The player's settings and the bot's own folders: where the platform
//! keeps a program's settings (Windows `%APPDATA%\dustbot\`, elsewhere
//! `$XDG_CONFIG_HOME/dustbot/`) and its data (the game log, the record's
//! plot), and the settings file there, `settings.toml`, which the guided
//! session (`bot` alone) writes: the text that finds the game's window,
//! the calibration made on the player's board, the menu's last choice.
//! Flags given on the command line win over it. A broken file is an error
//! naming its line and is never written over: the player's hand-made file
//! is theirs until they fix or remove it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::files;

/// The settings file's name in the config folder.
const SETTINGS_FILE: &str = "settings.toml";

/// The game log's name in the data folder.
const GAME_LOG_FILE: &str = "games.jsonl";

/// The bot's folder's name inside the platform's.
const APP_FOLDER: &str = "dustbot";

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
    #[error(
        "no folder for the bot's settings and data: neither {0} nor HOME is set (set one to a folder the bot may write)"
    )]
    NoFolder(&'static str),
}

/// The two kinds of folder the bot keeps files in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Config,
    Data,
}

/// Where the platform keeps a program's files of `kind`, the bot's own
/// folder in it; `windows` says which platform's rule, `env` reads the
/// environment. Windows keeps both in `%APPDATA%` (the roaming profile,
/// where a player's settings follow them); elsewhere the XDG base
/// directories, an absolute `XDG_*_HOME` or else the defaults under HOME.
fn folder(
    kind: Kind,
    windows: bool,
    env: impl Fn(&str) -> Option<OsString>,
) -> Result<PathBuf, SettingsError> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if windows {
        return set("APPDATA")
            .map(|base| base.join(APP_FOLDER))
            .ok_or(SettingsError::NoFolder("APPDATA"));
    }
    let (variable, under_home) = match kind {
        Kind::Config => ("XDG_CONFIG_HOME", Path::new(".config").to_owned()),
        Kind::Data => ("XDG_DATA_HOME", Path::new(".local").join("share")),
    };
    // The XDG rule: a relative path is to be ignored.
    if let Some(base) = set(variable).filter(|p| p.is_absolute()) {
        return Ok(base.join(APP_FOLDER));
    }
    set("HOME")
        .map(|home| home.join(under_home).join(APP_FOLDER))
        .ok_or(SettingsError::NoFolder(variable))
}

/// The bot's config folder on this platform.
pub fn config_folder() -> Result<PathBuf, SettingsError> {
    folder(Kind::Config, cfg!(windows), |name| std::env::var_os(name))
}

/// The bot's data folder on this platform.
pub fn data_folder() -> Result<PathBuf, SettingsError> {
    folder(Kind::Data, cfg!(windows), |name| std::env::var_os(name))
}

/// The settings file.
pub fn settings_path() -> Result<PathBuf, SettingsError> {
    Ok(config_folder()?.join(SETTINGS_FILE))
}

/// The game log live play and assist mode append to unless told
/// otherwise, and `bot stats` reads when given no log.
pub fn default_game_log() -> Result<PathBuf, SettingsError> {
    Ok(data_folder()?.join(GAME_LOG_FILE))
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
        text
    }

    /// Writes the settings to `path` whole, its folder made when missing.
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let write = |cause| SettingsError::Write {
            path: path.to_owned(),
            cause,
        };
        std::fs::create_dir_all(files::folder_of(path)).map_err(write)?;
        files::write_whole(path, self.to_toml().as_bytes(), files::Existing::Replace).map_err(write)
    }

    /// The calibration to use when no `--calibration` is given: the one
    /// made on the player's board, when it is set.
    pub fn calibration(&self) -> Option<&Path> {
        self.calibration.as_deref()
    }
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

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn the_folders_follow_each_platforms_rule() {
        // Absolute paths as the host has them (the test runs under Wine
        // too, where `/cfg` is not absolute).
        let home = std::env::temp_dir().join("ana");
        let config = std::env::temp_dir().join("cfg");
        let (home_text, config_text) = (home.to_str().unwrap(), config.to_str().unwrap());
        let linux = [("HOME", home_text), ("XDG_CONFIG_HOME", config_text)];
        assert_eq!(
            folder(Kind::Config, false, env(&linux)).unwrap(),
            config.join("dustbot")
        );
        assert_eq!(
            folder(Kind::Data, false, env(&linux)).unwrap(),
            home.join(".local").join("share").join("dustbot")
        );
        // A relative XDG path is ignored, as the specification says.
        let relative = [("HOME", home_text), ("XDG_CONFIG_HOME", "cfg")];
        assert_eq!(
            folder(Kind::Config, false, env(&relative)).unwrap(),
            home.join(".config").join("dustbot")
        );
        let windows = [("APPDATA", r"C:\Users\Ana\AppData\Roaming"), ("HOME", "/x")];
        let on_windows = folder(Kind::Data, true, env(&windows)).unwrap();
        assert!(on_windows.starts_with(r"C:\Users\Ana\AppData\Roaming"));
        assert!(on_windows.ends_with("dustbot"));
        let error = folder(Kind::Config, false, env(&[])).unwrap_err();
        assert!(error.to_string().contains("XDG_CONFIG_HOME"), "{error}");
        assert!(folder(Kind::Config, true, env(&[("HOME", "/x")])).is_err());
    }

    #[test]
    fn settings_written_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep").join("settings.toml");
        let settings = Settings {
            window: Some("Dust \"Practice\" \\ é".into()),
            calibration: Some(dir.path().join("calibration.toml")),
            last_choice: Some(Choice::Play),
        };
        settings.save(&path).unwrap();
        assert_eq!(Settings::load(&path).unwrap(), settings);
        let text = std::fs::read_to_string(&path).unwrap();
        for key in ["window", "calibration", "last_choice"] {
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
