//! Nothing vanishes: the app's failures that no window shows (an error
//! before its window opens, a panic) are appended to `dustbot.log` in the
//! data folder, which the report takes, and shown where a program without
//! a console can show them (a message box on Windows). A panic's hook
//! does both, then Rust's own hook prints it as ever.

use std::io::Write as _;
use std::path::PathBuf;

use crate::desktop::{self, folders};

/// The log file's name in the data folder.
const LOG: &str = "dustbot.log";

/// The most of the log a report takes, from its end.
pub const REPORTED_BYTES: usize = 16 * 1024;

/// Where the app's failures are written: the data folder's `dustbot.log`.
pub fn path() -> Option<PathBuf> {
    folders::data_folder().ok().map(|data| data.join(LOG))
}

/// Appends `text` to the log, with the time; a log that cannot be written
/// is no further failure.
pub fn write(text: &str) {
    let Some(path) = path() else { return };
    let written = std::fs::create_dir_all(crate::files::folder_of(&path)).and_then(|()| {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)?;
        writeln!(file, "{} {text}", crate::record::now_rfc3339())
    });
    if let Err(error) = written {
        log::warn!("{}: cannot write the app's log: {error}", path.display());
    }
}

/// `text` said everywhere a failure goes: standard error, the log, and a
/// message box where the platform has one.
pub fn say(text: &str) {
    eprintln!("{text}");
    write(text);
    let told = match path() {
        Some(path) => format!("{text}\n\n(also written to {})", path.display()),
        None => text.to_owned(),
    };
    desktop::show_message("dustbot", &told);
}

/// Installs the panic hook: a panic written to the log, and on the main
/// thread (the app ends) said as [`say`] does; then as Rust says it. A
/// run's thread that panics ends in the window's Failed, which says it.
pub fn catch_panics() {
    let rust = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = format!("dustbot stopped on a fault: {info}");
        if std::thread::current().name() == Some("main") {
            say(&text);
        } else {
            write(&text);
        }
        rust(info);
    }));
}

/// The end of the log, at most [`REPORTED_BYTES`], for the report; `None`
/// without one.
pub fn tail() -> Option<String> {
    let bytes = std::fs::read(path()?).ok()?;
    let from = bytes.len().saturating_sub(REPORTED_BYTES);
    Some(String::from_utf8_lossy(&bytes[from..]).into_owned())
}
