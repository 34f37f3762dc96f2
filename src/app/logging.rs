//! The log of every face: its lines on standard error (the level as the
//! face asks: -v, -q, `DUSTBOT_LOG`), kept apart from the command line's
//! progress bars, the last lines kept for a report ([`super::report`]),
//! and the desktop app's log file in the data folder (its failures that no
//! window showed), whose end the report takes too.

use std::collections::VecDeque;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use indicatif::MultiProgress;

use crate::desktop::folders;
use crate::files::{self, Existing, FileError};

/// Sets up the log (standard error, where `shown`; its lines are kept
/// for a report either way) and returns the progress bars that its lines
/// keep clear of.
pub fn init(verbose: u8, quiet: u8, shown: bool) -> indicatif::MultiProgress {
    let level = match i16::from(verbose) - i16::from(quiet) {
        i16::MIN..=-2 => log::LevelFilter::Error,
        -1 => log::LevelFilter::Warn,
        0 => log::LevelFilter::Info,
        1 => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    };
    // enigo warns of the keyboard's modifier map, which the bot never
    // uses (it only moves and clicks the mouse): noise to a player, said
    // at every game. Its errors still show, and all of it with -v.
    let enigo = if level >= log::LevelFilter::Debug {
        level
    } else {
        level.min(log::LevelFilter::Error)
    };
    // xcap logs an error line for each process whose program it cannot
    // open (on Windows, every process of another user or elevated, the
    // game run as administrator among them) while it lists the windows:
    // nothing the player can act on, shown with -v only.
    let xcap = if level >= log::LevelFilter::Debug {
        level
    } else {
        log::LevelFilter::Off
    };
    install(
        env_logger::Builder::new()
            .filter_level(level)
            .filter_module("enigo", enigo)
            .filter_module("xcap", xcap)
            .parse_env("DUSTBOT_LOG")
            .format(log_line)
            .build(),
        shown,
    )
}

/// A log line as `[2026-11-26T06:30:56Z INFO ] message`: the time in UTC
/// to the second, by the game log's clock (`record::now_rfc3339`) rather
/// than env_logger's, whose time zone crate would be compiled for this
/// one line, and the level in its colour where the terminal has colour.
fn log_line(out: &mut env_logger::fmt::Formatter, record: &log::Record<'_>) -> std::io::Result<()> {
    let level = out.default_level_style(record.level());
    writeln!(
        out,
        "[{} {level}{:<5}{level:#}] {}",
        crate::record::now_rfc3339(),
        record.level(),
        record.args()
    )
}

/// The logger: `env_logger`'s, writing each line with the bars lifted
/// (where `shown`), and keeping it for a report.
struct Bridge {
    logger: env_logger::Logger,
    bars: MultiProgress,
    shown: bool,
}

impl log::Log for Bridge {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        self.logger.enabled(metadata)
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.logger.matches(record) {
            if self.shown {
                self.bars.suspend(|| self.logger.log(record));
            }
            let line = format!("{:<5} {}", record.level(), record.args());
            let mut kept = SESSION_LOG.lock().unwrap_or_else(PoisonError::into_inner);
            if kept.len() == KEPT_LOG_LINES {
                kept.pop_front();
            }
            kept.push_back(line);
        }
    }

    fn flush(&self) {
        self.logger.flush();
    }
}

/// How many of the last lines the log showed are kept for a report.
const KEPT_LOG_LINES: usize = 300;

/// The last lines the log showed in this process.
static SESSION_LOG: Mutex<VecDeque<String>> = Mutex::new(VecDeque::new());

/// The last lines the log showed in this process, oldest first (at most
/// [`KEPT_LOG_LINES`]): the session's log of a report.
pub fn session_log() -> Vec<String> {
    let kept = SESSION_LOG.lock().unwrap_or_else(PoisonError::into_inner);
    kept.iter().cloned().collect()
}

/// Installs `logger` as the log's, and returns the bars it keeps apart
/// from its lines: every progress bar is to be added to them.
fn install(logger: env_logger::Logger, shown: bool) -> MultiProgress {
    let bars = MultiProgress::new();
    let level = logger.filter();
    let bridge = Bridge {
        logger,
        bars: bars.clone(),
        shown,
    };
    // Only a second call fails, and the first logger is as good.
    if log::set_boxed_logger(Box::new(bridge)).is_ok() {
        log::set_max_level(level);
    }
    bars
}

/// The log file's name in the data folder.
const LOG: &str = "dustbot.log";

/// The most of the log a report takes, from its end.
pub const REPORTED_BYTES: usize = 16 * 1024;

/// Where the desktop app's failures are written: the data folder's
/// `dustbot.log`.
pub fn app_log() -> Option<PathBuf> {
    folders::data_folder().ok().map(|data| data.join(LOG))
}

/// The most the app's log holds: past it, its older half goes before the
/// next line (a start that fails again and again adds a line each time).
const LOG_LIMIT: u64 = 1 << 20;

/// Appends `text` to the log, with the time; a log that cannot be written
/// is no further failure.
pub fn append(text: &str) {
    let Some(path) = app_log() else { return };
    let line = format!("{} {text}\n", crate::record::now_rfc3339());
    if let Err(error) = append_bounded(&path, &line, LOG_LIMIT) {
        log::warn!("{}: cannot write the app's log: {error}", path.display());
    }
}

/// Appends `line` to the log at `path` (its folder made when missing),
/// never through a link; a log grown past `limit` keeps its newer half,
/// from a line's start, replaced whole.
fn append_bounded(path: &Path, line: &str, limit: u64) -> Result<(), FileError> {
    std::fs::create_dir_all(files::folder_of(path))?;
    let mut file = files::open_log_readable(path, &[])?;
    let len = file.metadata()?.len();
    if len + line.len() as u64 <= limit {
        file.write_all(line.as_bytes())?;
        return Ok(());
    }
    let mut kept = end_of(&mut file, len, limit / 2)?;
    if len > limit / 2 {
        // From the first whole line.
        let cut = kept.iter().position(|&b| b == b'\n').map_or(0, |at| at + 1);
        kept.drain(..cut);
    }
    kept.extend_from_slice(line.as_bytes());
    // Windows replaces no file that is open.
    drop(file);
    Ok(files::write_whole(path, &kept, Existing::Replace)?)
}

/// The last `most` bytes of `file`, `len` bytes long.
fn end_of(file: &mut std::fs::File, len: u64, most: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    file.seek(SeekFrom::Start(len.saturating_sub(most)))?;
    let mut bytes = Vec::new();
    file.take(most).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The end of the log, at most [`REPORTED_BYTES`], for the report; `None`
/// without one. Never through a link: a log linked to a private file would
/// put that file in the report.
pub fn tail() -> Option<String> {
    let path = app_log()?;
    let mut file = files::open_no_follow(std::fs::OpenOptions::new().read(true), &path).ok()?;
    let len = file.metadata().ok()?.len();
    let bytes = end_of(&mut file, len, REPORTED_BYTES as u64).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_its_newer_half_past_its_limit_from_a_whole_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/dustbot.log");
        for n in 0..100 {
            append_bounded(&path, &format!("line {n:03} of the log\n"), 400).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() <= 400, "{} bytes", text.len());
        assert!(text.ends_with("line 099 of the log\n"), "{text}");
        assert!(text.starts_with("line "), "{text}");
        assert!(!text.contains("line 050"), "{text}");
        assert!(text.lines().all(|l| l.len() == "line 000 of the log".len()));
    }

    #[cfg(unix)]
    #[test]
    fn the_log_is_never_written_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "my notes").unwrap();
        let path = dir.path().join("dustbot.log");
        std::os::unix::fs::symlink(&notes, &path).unwrap();
        assert!(append_bounded(&path, "a line\n", 400).is_err());
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    }
}
