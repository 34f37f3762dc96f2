//! One app at a time: the first `dustbot` holds a lock on a file in the
//! data folder for its life, and writes its window's id in a file beside
//! it; a second start finds the lock held, brings that window to the
//! front and ends, as a second double-click on a slow first start should.
//! The lock is the system's (`flock` on Linux, `LockFileEx` on Windows,
//! through std's `File::try_lock`): it goes with the process that holds
//! it, a crash included, so no stale file keeps the app from starting.
//! (The id has a file of its own: Windows' lock keeps other handles from
//! reading the locked file.)

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::files::{self, Existing};

/// The lock file's name in the data folder.
const LOCK: &str = "dustbot-app.lock";

/// The app's lock, held while the value lives, and where its window's id
/// goes.
#[derive(Debug)]
pub struct Lock {
    _file: File,
    window: PathBuf,
}

/// What a start found.
#[derive(Debug)]
pub enum Claim {
    /// No other app runs: this one holds the lock.
    First(Lock),
    /// Another app runs, and what it said of itself.
    Running(First),
}

/// What the app that holds the lock says of itself, in the file beside
/// the lock: its window (once it has one), the display it is on, its
/// process.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct First {
    pub window: Option<u32>,
    pub display: Option<String>,
    pub pid: Option<u32>,
}

impl First {
    /// This process, on this display, its window when it has one.
    fn this(window: Option<u32>) -> First {
        First {
            window,
            display: this_display(),
            pid: Some(std::process::id()),
        }
    }

    /// The file's text: a `key=value` a line.
    fn text(&self) -> String {
        let mut text = String::new();
        if let Some(window) = self.window {
            text += &format!("window={window}\n");
        }
        if let Some(display) = &self.display {
            text += &format!("display={display}\n");
        }
        if let Some(pid) = self.pid {
            text += &format!("pid={pid}\n");
        }
        text
    }

    /// What `text` says; what it does not say, or says wrong, is unknown.
    fn read(text: &str) -> First {
        let mut first = First::default();
        for line in text.lines() {
            match line.split_once('=') {
                Some(("window", id)) => first.window = id.trim().parse().ok(),
                Some(("display", display)) => first.display = Some(display.trim().to_owned()),
                Some(("pid", pid)) => first.pid = pid.trim().parse().ok(),
                _ => {}
            }
        }
        first
    }

    /// Whether the first app is on a display other than this process's
    /// (X11's DISPLAY): its window cannot be brought forward from here.
    pub fn elsewhere(&self) -> bool {
        self.display.is_some() && self.display != this_display()
    }
}

/// The display this process's windows go to: X11's `DISPLAY`; none on
/// Windows and macOS, whose session has one desktop.
fn this_display() -> Option<String> {
    if cfg!(any(windows, target_os = "macos")) {
        return None;
    }
    std::env::var("DISPLAY").ok().filter(|d| !d.is_empty())
}

/// The lock file in `data` (the data folder).
pub fn path_in(data: &Path) -> PathBuf {
    data.join(LOCK)
}

/// The file beside the lock at `lock` that holds the app's window id.
fn window_file(lock: &Path) -> PathBuf {
    lock.with_extension("window")
}

/// How long a start held off by the lock tries again: an app quit just
/// before ends within it, and its lock goes with it.
const QUIT_WAIT: Duration = Duration::from_secs(1);

/// Takes the lock at `path` (its folder made when missing), or finds it
/// held by another app (tried again for [`QUIT_WAIT`]: a start just after
/// a quit opens); an error when the file cannot be made or locked (a
/// folder that cannot be written): the app then starts unguarded.
pub fn take(path: &Path) -> Result<Claim, String> {
    let started = Instant::now();
    loop {
        match take_once(path)? {
            Claim::Running(_) if started.elapsed() < QUIT_WAIT => {
                std::thread::sleep(Duration::from_millis(50));
            }
            start => return Ok(start),
        }
    }
}

fn take_once(path: &Path) -> Result<Claim, String> {
    let say = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    std::fs::create_dir_all(crate::files::folder_of(path)).map_err(|e| say(&e))?;
    // Never through a link: a lock linked to a player's file would be
    // held on that file.
    let file = files::open_no_follow(
        OpenOptions::new().write(true).create(true).truncate(false),
        path,
    )
    .map_err(|e| say(&e))?;
    let window = window_file(path);
    match file.try_lock() {
        Ok(()) => {
            // What an app that ended left names no window of ours.
            write_id(&window, &First::this(None)).map_err(|e| say(&e))?;
            Ok(Claim::First(Lock {
                _file: file,
                window,
            }))
        }
        Err(TryLockError::WouldBlock) => {
            let said = files::read_text(&window, 4096, "the app's window file").unwrap_or_default();
            Ok(Claim::Running(First::read(&said)))
        }
        Err(TryLockError::Error(e)) => Err(say(&e)),
    }
}

/// Writes the window file whole, replacing it: a link there is replaced,
/// never written through.
fn write_id(path: &Path, first: &First) -> std::io::Result<()> {
    files::write_whole(path, first.text().as_bytes(), Existing::Replace)
}

impl Lock {
    /// Writes the app's window id for a second start to bring forward.
    pub fn tell(&self, window: u32) {
        if let Err(error) = write_id(&self.window, &First::this(Some(window))) {
            log::warn!("the app's window id is not written for a second start: {error}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_start_finds_the_first_and_its_window_then_takes_the_lock_it_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_in(&dir.path().join("data"));
        let Ok(Claim::First(first)) = take(&path) else {
            panic!("the first start takes the lock");
        };
        first.tell(0x1c0_0007);
        match take(&path) {
            Ok(Claim::Running(said)) => {
                assert_eq!(said.window, Some(0x1c0_0007));
                assert_eq!(said.pid, Some(std::process::id()));
                assert!(!said.elsewhere());
            }
            other => panic!("a second start while the first runs: {other:?}"),
        }
        // The first gone (as at a crash: its file closed by the system):
        // the next start is the first, and the old id is gone.
        drop(first);
        let Ok(Claim::First(_next)) = take(&path) else {
            panic!("the lock left is taken");
        };
        let left = std::fs::read_to_string(window_file(&path)).unwrap();
        assert_eq!(First::read(&left).window, None, "{left}");
    }

    #[test]
    fn the_first_apps_record_reads_back_and_another_display_is_told() {
        let first = First {
            window: Some(7),
            display: Some(":93".to_owned()),
            pid: Some(42),
        };
        assert_eq!(First::read(&first.text()), first);
        assert_eq!(First::read("window=x\nnonsense\n"), First::default());
        let ours = this_display();
        let there = First {
            display: Some(format!("{}-elsewhere", ours.clone().unwrap_or_default())),
            ..First::default()
        };
        assert!(there.elsewhere());
        let here = First {
            display: ours,
            ..First::default()
        };
        assert!(!here.elsewhere());
    }

    #[cfg(unix)]
    #[test]
    fn the_lock_and_the_window_id_never_write_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "my notes").unwrap();
        let path = path_in(dir.path());
        // The window id's file linked to the player's notes.
        std::os::unix::fs::symlink(&notes, window_file(&path)).unwrap();
        let Ok(Claim::First(first)) = take(&path) else {
            panic!("the first start takes the lock");
        };
        first.tell(0x1c0_0007);
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
        let said = std::fs::read_to_string(window_file(&path)).unwrap();
        assert_eq!(First::read(&said).window, Some(29_360_135), "{said}");
        drop(first);
        // The lock itself linked to the notes: refused, never held there.
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&notes, &path).unwrap();
        let error = take(&path).unwrap_err();
        assert!(error.contains("a link"), "{error}");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    }

    #[test]
    fn a_folder_that_cannot_hold_the_lock_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("data");
        std::fs::write(&file, "a file, not a folder").unwrap();
        let error = take(&path_in(&file)).unwrap_err();
        assert!(error.contains(LOCK), "{error}");
    }
}
