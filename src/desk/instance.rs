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
            // An id left by an app that ended names no window of ours.
            write_id(&window, "").map_err(|e| say(&e))?;
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

/// Writes the window id file whole, replacing it: a link there is
/// replaced, never written through.
fn write_id(path: &Path, id: &str) -> std::io::Result<()> {
    files::write_whole(path, id.as_bytes(), Existing::Replace)
}

impl Lock {
    /// Writes the app's window id for a second start to bring forward.
    pub fn tell(&self, window: u32) {
        if let Err(error) = write_id(&self.window, &window.to_string()) {
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

    #[cfg(unix)]
    #[test]
    fn the_lock_and_the_window_id_never_write_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "my notes").unwrap();
        let path = path_in(dir.path());
        // The window id's file linked to the player's notes.
        std::os::unix::fs::symlink(&notes, window_file(&path)).unwrap();
        let Ok(Start::First(first)) = take(&path) else {
            panic!("the first start takes the lock");
        };
        first.tell(0x1c0_0007);
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
        assert_eq!(
            std::fs::read_to_string(window_file(&path)).unwrap(),
            "29360135"
        );
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
