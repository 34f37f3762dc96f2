//! The bot's places on the player's system: the folder where the platform
//! keeps a program's settings (Windows `%APPDATA%\dustbot\`, elsewhere
//! `$XDG_CONFIG_HOME/dustbot/`), the one for its data (the game log, the
//! record's plot, reports), and the system's picture viewer. The rest of
//! the bot names no platform folder and no viewer.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The bot's folder's name inside the platform's.
const APP_FOLDER: &str = "dustbot";

/// Why the bot has no folder of its own.
#[derive(Debug, Error)]
#[error(
    "no folder for the bot's settings and data: neither {0} nor HOME is set (set one to a folder the bot may write)"
)]
pub struct NoFolder(&'static str);

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
) -> Result<PathBuf, NoFolder> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if windows {
        return set("APPDATA")
            .map(|base| base.join(APP_FOLDER))
            .ok_or(NoFolder("APPDATA"));
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
        .ok_or(NoFolder(variable))
}

/// The bot's config folder on this platform.
pub fn config_folder() -> Result<PathBuf, NoFolder> {
    folder(Kind::Config, cfg!(windows), |name| std::env::var_os(name))
}

/// The bot's data folder on this platform.
pub fn data_folder() -> Result<PathBuf, NoFolder> {
    folder(Kind::Data, cfg!(windows), |name| std::env::var_os(name))
}

/// Opens `path` with the system's picture viewer, without waiting for it;
/// why not when it cannot be started.
pub fn open_picture(path: &Path) -> Result<(), String> {
    let viewer = if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let mut child = std::process::Command::new(viewer)
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("{viewer}: {e}"))?;
    // Reaped when it ends; the caller goes on meanwhile.
    std::thread::spawn(move || child.wait());
    Ok(())
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
}
