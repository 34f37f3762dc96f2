//! The bot's places on the player's system: its folder for settings
//! (config) and the one for data (the game log, the record's plot, the
//! reports with their frames), each inside the base folder the platform's
//! rule gives; the system's picture viewer; and whether the bot runs from
//! the temporary folder an archive tool unpacked it into for one run
//! (Explorer opening an exe inside a zip), where nothing it needs lies
//! beside it and nothing it keeps stays. The rest of the bot names no
//! platform folder and no viewer.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// No base folder can be found: the environment lacks the variable named
/// (and HOME).
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "no folder for the bot's {kind}: neither {variable} nor HOME is set (set one to a folder the bot may write)"
)]
pub struct FolderError {
    /// "settings" or "data".
    pub kind: &'static str,
    /// The variable looked at first.
    pub variable: &'static str,
}

/// The bot's folder's name inside the platform's.
const APP_FOLDER: &str = "dustbot";

/// The two kinds of base folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Config,
    Data,
}

/// Which platform's rule finds the base folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// `%APPDATA%` (roaming: small settings follow the player to another
    /// machine) for settings, `%LOCALAPPDATA%` for data: the game log and
    /// the reports, which hold frames and speak of this machine's screens,
    /// are large and machine-specific, which Microsoft keeps out of the
    /// roaming profile.
    Windows,
    /// The XDG base directories: an absolute `XDG_CONFIG_HOME` or
    /// `XDG_DATA_HOME`, else `~/.config` and `~/.local/share`.
    Xdg,
    /// macOS: `~/Library/Application Support` for both, as Apple's "File
    /// System Programming Guide" has it for an app's own files (and the
    /// dirs crate's `config_dir` and `data_dir`, `src/mac.rs`); not
    /// `~/Library/Preferences`, which is `NSUserDefaults`'s. The XDG
    /// variables are not read there.
    MacOs,
}

impl Rule {
    fn of_this_platform() -> Rule {
        if cfg!(windows) {
            Rule::Windows
        } else if cfg!(target_os = "macos") {
            Rule::MacOs
        } else {
            Rule::Xdg
        }
    }
}

/// The bot's settings folder: `dustbot` in the platform's base folder for
/// a program's settings.
pub fn config_folder() -> Result<PathBuf, FolderError> {
    let base = base(Kind::Config, Rule::of_this_platform(), |name| {
        std::env::var_os(name)
    })?;
    Ok(base.join(APP_FOLDER))
}

/// The bot's data folder: `dustbot` in the platform's base folder for a
/// program's data.
pub fn data_folder() -> Result<PathBuf, FolderError> {
    let base = base(Kind::Data, Rule::of_this_platform(), |name| {
        std::env::var_os(name)
    })?;
    Ok(base.join(APP_FOLDER))
}

/// The base folder of `kind` by `rule`, `env` reading the environment.
fn base(
    kind: Kind,
    rule: Rule,
    env: impl Fn(&str) -> Option<OsString>,
) -> Result<PathBuf, FolderError> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let (what, variable) = match (kind, rule) {
        (Kind::Config, Rule::Windows) => ("settings", "APPDATA"),
        (Kind::Data, Rule::Windows) => ("data", "LOCALAPPDATA"),
        (Kind::Config, Rule::Xdg) => ("settings", "XDG_CONFIG_HOME"),
        (Kind::Data, Rule::Xdg) => ("data", "XDG_DATA_HOME"),
        (Kind::Config, Rule::MacOs) => ("settings", "HOME"),
        (Kind::Data, Rule::MacOs) => ("data", "HOME"),
    };
    let missing = FolderError {
        kind: what,
        variable,
    };
    if rule == Rule::Windows {
        return set(variable).ok_or(missing);
    }
    if rule == Rule::MacOs {
        let under_home = Path::new("Library").join("Application Support");
        return set("HOME").map(|home| home.join(under_home)).ok_or(missing);
    }
    // The XDG rule: a relative path is to be ignored.
    if let Some(base) = set(variable).filter(|p| p.is_absolute()) {
        return Ok(base);
    }
    let under_home = match kind {
        Kind::Config => Path::new(".config").to_owned(),
        Kind::Data => Path::new(".local").join("share"),
    };
    set("HOME").map(|home| home.join(under_home)).ok_or(missing)
}

/// The temporary folder an archive tool unpacked the running bot into for
/// this one run, if it runs from one: Explorer opening `bot.exe` inside a
/// zip copies that file alone to `%TEMP%\Temp1_NAME.zip\...`, WinRAR to
/// `%TEMP%\Rar$EX...`, 7-Zip to `%TEMP%\7zO...`. The calibration and the
/// README are not beside it there, and the folder goes when the tool
/// cleans up: the player is to extract the archive first.
pub fn unpacked_for_one_run() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    unpacked_folder(&exe).map(Path::to_owned)
}

/// The archive tool's folder among `exe`'s ancestors (see
/// [`unpacked_for_one_run`]): one named as such a tool names them, right
/// under a folder named `Temp`. Judged by names alone: `%TEMP%` may be
/// spelled in its short 8.3 form (`C:\Users\RUNNER~1\...`) while the
/// program's path is not, so the two paths cannot be compared.
fn unpacked_folder(exe: &Path) -> Option<&Path> {
    exe.ancestors().skip(1).find(|folder| {
        let parent_is_temp = folder
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|name| name.eq_ignore_ascii_case("temp"));
        parent_is_temp
            && folder
                .file_name()
                .and_then(|name| name.to_str())
                .is_some_and(named_by_an_archive_tool)
    })
}

/// Whether a folder's `name` is one an archive tool gives the folder it
/// unpacks a file into to open it: Explorer's `Temp1_NAME.zip` (a number,
/// then the archive's name), WinRAR's `Rar$EX...` (`Rar$DI...` when
/// dragged out), 7-Zip's `7zO` and hexadecimal digits.
fn named_by_an_archive_tool(name: &str) -> bool {
    let explorer = name
        .strip_prefix("Temp")
        .and_then(|rest| rest.split_once('_'))
        .is_some_and(|(number, archive)| {
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) && !archive.is_empty()
        });
    let winrar = name.starts_with("Rar$");
    let seven_zip = name
        .strip_prefix("7zO")
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_hexdigit()));
    explorer || winrar || seven_zip
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn windows_keeps_settings_roaming_and_data_local() {
        let windows = [
            ("APPDATA", r"C:\Users\Ana\AppData\Roaming"),
            ("LOCALAPPDATA", r"C:\Users\Ana\AppData\Local"),
            ("HOME", "/x"),
        ];
        assert_eq!(
            base(Kind::Config, Rule::Windows, env(&windows)).unwrap(),
            PathBuf::from(r"C:\Users\Ana\AppData\Roaming")
        );
        assert_eq!(
            base(Kind::Data, Rule::Windows, env(&windows)).unwrap(),
            PathBuf::from(r"C:\Users\Ana\AppData\Local")
        );
        // HOME is no Windows folder: without the variable, an error naming it.
        let roaming_only = [("APPDATA", r"C:\Users\Ana\AppData\Roaming"), ("HOME", "/x")];
        let error = base(Kind::Data, Rule::Windows, env(&roaming_only)).unwrap_err();
        assert_eq!(error.variable, "LOCALAPPDATA");
        assert!(error.to_string().contains("LOCALAPPDATA"), "{error}");
    }

    #[test]
    fn elsewhere_the_xdg_folders_or_the_defaults_under_home() {
        // Absolute paths as the host has them (the test runs under Wine
        // too, where `/c` is not absolute).
        let [home, config, data] = ["ana", "c", "d"].map(|name| std::env::temp_dir().join(name));
        let text = |path: &PathBuf| path.to_str().unwrap().to_owned();
        let (home_text, config_text, data_text) = (text(&home), text(&config), text(&data));
        let set = [
            ("XDG_CONFIG_HOME", config_text.as_str()),
            ("XDG_DATA_HOME", data_text.as_str()),
            ("HOME", home_text.as_str()),
        ];
        assert_eq!(base(Kind::Config, Rule::Xdg, env(&set)).unwrap(), config);
        assert_eq!(base(Kind::Data, Rule::Xdg, env(&set)).unwrap(), data);
        // Relative or empty XDG variables are ignored.
        let relative = [
            ("XDG_CONFIG_HOME", "c"),
            ("XDG_DATA_HOME", ""),
            ("HOME", home_text.as_str()),
        ];
        assert_eq!(
            base(Kind::Config, Rule::Xdg, env(&relative)).unwrap(),
            home.join(".config")
        );
        assert_eq!(
            base(Kind::Data, Rule::Xdg, env(&relative)).unwrap(),
            home.join(".local").join("share")
        );
        let error = base(Kind::Config, Rule::Xdg, env(&[])).unwrap_err();
        assert_eq!(error.variable, "XDG_CONFIG_HOME");
    }

    #[test]
    fn a_mac_keeps_settings_and_data_in_application_support() {
        let home = std::env::temp_dir().join("ana");
        let home_text = home.to_str().unwrap().to_owned();
        // The XDG variables are a Linux desktop's: not read on a Mac.
        let set = [
            ("XDG_CONFIG_HOME", "/c"),
            ("XDG_DATA_HOME", "/d"),
            ("HOME", home_text.as_str()),
        ];
        let support = home.join("Library").join("Application Support");
        assert_eq!(base(Kind::Config, Rule::MacOs, env(&set)).unwrap(), support);
        assert_eq!(base(Kind::Data, Rule::MacOs, env(&set)).unwrap(), support);
        let error = base(Kind::Data, Rule::MacOs, env(&[("XDG_DATA_HOME", "/d")])).unwrap_err();
        assert_eq!((error.kind, error.variable), ("data", "HOME"));
    }

    #[test]
    fn an_exe_opened_inside_an_archive_is_told_from_one_extracted() {
        // Paths with / so that they are paths on every platform.
        let explorer = Path::new(
            "C:/Users/Ana/AppData/Local/Temp/Temp1_dustbot-0.1.0-windows-x86_64.zip/dustbot/bot.exe",
        );
        assert_eq!(
            unpacked_folder(explorer),
            Some(Path::new(
                "C:/Users/Ana/AppData/Local/Temp/Temp1_dustbot-0.1.0-windows-x86_64.zip"
            ))
        );
        for opened in [
            "C:/Users/RUNNER~1/AppData/Local/Temp/Temp12_dustbot.zip/dustbot/bot.exe",
            "C:/Users/Ana/AppData/Local/TEMP/Rar$EXa5432.18044/dustbot/bot.exe",
            "C:/Users/Ana/AppData/Local/Temp/7zO8A1B2C3D/bot.exe",
        ] {
            assert!(unpacked_folder(Path::new(opened)).is_some(), "{opened}");
        }
        for extracted in [
            // Extracted where Extract All proposes, beside the zip.
            "C:/Users/Ana/Downloads/dustbot-0.1.0-windows-x86_64/dustbot/bot.exe",
            // A player's folder that only looks like one: not under Temp.
            "C:/Games/Temp1_old.zip/bot.exe",
            // Under Temp, but not an archive tool's name.
            "C:/Users/Ana/AppData/Local/Temp/dustbot/bot.exe",
            "C:/Users/Ana/AppData/Local/Temp/Temp_x.zip/bot.exe",
            "C:/Users/Ana/AppData/Local/Temp/Temp1_/bot.exe",
            "C:/Users/Ana/AppData/Local/Temp/7zOnothex/bot.exe",
            "/tmp/.tmpAbC123/bot",
        ] {
            assert_eq!(unpacked_folder(Path::new(extracted)), None, "{extracted}");
        }
    }
}
