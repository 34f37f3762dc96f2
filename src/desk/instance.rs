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
pub enum Start {
    /// No other app runs: this one holds the lock.
    First(Lock),
    /// Another app runs, its window's id when it has said it.
    Running(Option<u32>),
}

/// The lock file in `data` (the data folder).
pub fn path_in(data: &Path) -> PathBuf {
    data.join(LOCK)
}

/// The file beside the lock at `lock` that holds the app's window id.
fn window_file(lock: &Path) -> PathBuf {
    lock.with_extension("window")
}

/// Takes the lock at `path` (its folder made when missing), or finds it
/// held by another app; an error when the file cannot be made or locked
/// (a folder that cannot be written): the app then starts unguarded.
pub fn take(path: &Path) -> Result<Start, String> {
    let say = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    std::fs::create_dir_all(crate::files::folder_of(path)).map_err(|e| say(&e))?;
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| say(&e))?;
    let window = window_file(path);
    match file.try_lock() {
        Ok(()) => {
            // An id left by an app that ended names no window of ours.
            std::fs::write(&window, "").map_err(|e| say(&e))?;
            Ok(Start::First(Lock {
                _file: file,
                window,
            }))
        }
        Err(TryLockError::WouldBlock) => {
            let id = std::fs::read_to_string(&window)
                .ok()
                .and_then(|text| text.trim().parse().ok());
            Ok(Start::Running(id))
        }
        Err(TryLockError::Error(e)) => Err(say(&e)),
    }
}

impl Lock {
    /// Writes the app's window id for a second start to bring forward.
    pub fn tell(&self, window: u32) {
        if let Err(error) = std::fs::write(&self.window, window.to_string()) {
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
        let Ok(Start::First(first)) = take(&path) else {
            panic!("the first start takes the lock");
        };
        first.tell(0x1c0_0007);
        match take(&path) {
            Ok(Start::Running(id)) => assert_eq!(id, Some(0x1c0_0007)),
            other => panic!("a second start while the first runs: {other:?}"),
        }
        // The first gone (as at a crash: its file closed by the system):
        // the next start is the first, and the old id is gone.
        drop(first);
        let Ok(Start::First(_next)) = take(&path) else {
            panic!("the lock left is taken");
        };
        assert_eq!(std::fs::read_to_string(window_file(&path)).unwrap(), "");
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
