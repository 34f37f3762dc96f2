//! Calibrating on the player's board, once for both doors that do it (the
//! guided session's `3`, the desktop app's Calibrate): the game's window
//! captured once and the board it shows proposed ([`Calibrating::capture`]);
//! the board the player confirmed or corrected is the truth a calibration
//! is learned from, which is saved in the settings folder under a name no
//! file has yet, then loaded back from that file and checked to read the
//! same board from the same capture before a door puts it in use
//! ([`Calibrating::save`]). Which file the settings name is each door's to
//! write: each says a settings file it cannot write in its own way.

use std::path::{Path, PathBuf};

use image::RgbaImage;
use thiserror::Error;

use crate::desktop::{CaptureError, Desktop, WindowInfo};
use crate::game::{Board, NODIATIS_HEIGHT, NODIATIS_WIDTH};
use crate::vision::{self, Calibration, CalibrationError, LearnError, VisionError};

/// Why a calibration was not made; nothing is in use but the old one.
#[derive(Debug, Error)]
pub enum CalibrateError {
    #[error("cannot capture the game's window: {0}")]
    Capture(#[from] CaptureError),
    #[error("no board to calibrate on in the window: {0}")]
    NoBoard(LearnError),
    #[error("cannot learn the colours: nothing saved: {0}")]
    Learn(LearnError),
    #[error("{0}")]
    Save(CalibrationError),
    #[error("{folder}: a thousand calibrations already: remove the old ones")]
    Full { folder: PathBuf },
    #[error(
        "the calibration saved as {path}, loaded back, does not read the board ({why}): it is removed, the old one stays in use"
    )]
    NotReadBack { path: PathBuf, why: String },
}

/// A calibration saved and loaded back, ready for use.
#[derive(Debug)]
pub struct Saved {
    pub calibration: Calibration,
    pub path: PathBuf,
}

/// The game's window as captured for calibrating, and the board proposed
/// to the player on it.
#[derive(Clone, Debug)]
pub struct Calibrating {
    pub picture: RgbaImage,
    pub proposed: Board,
}

impl Calibrating {
    /// Captures `window` once and proposes the board it shows: read with
    /// `current` where that reads it whole, else its piles' colours grouped
    /// and named by hue.
    pub fn capture(
        desktop: &mut dyn Desktop,
        window: &WindowInfo,
        current: &Calibration,
    ) -> Result<Calibrating, CalibrateError> {
        let picture = desktop.open(window)?.capture_client()?;
        let proposed = vision::propose(&picture, Some(current), NODIATIS_WIDTH, NODIATIS_HEIGHT)
            .map_err(CalibrateError::NoBoard)?;
        Ok(Calibrating { picture, proposed })
    }

    /// Learns a calibration from the capture showing `truth` (the board
    /// the player confirmed), saves it in `folder` under a name of its own,
    /// and loads it back from there: it is used only when the file read
    /// reads `truth` from the capture, else the file is removed.
    pub fn save(&self, truth: &Board, folder: &Path) -> Result<Saved, CalibrateError> {
        let learned = vision::learn_on(&self.picture, truth).map_err(CalibrateError::Learn)?;
        let path = save_new(&learned, folder)?;
        match read_back(&path, &self.picture, truth) {
            Ok(calibration) => Ok(Saved { calibration, path }),
            Err(why) => {
                // A file that does not read the board would be named
                // next start by nobody, but found by the next `3`'s name.
                std::fs::remove_file(&path).ok();
                Err(CalibrateError::NotReadBack { path, why })
            }
        }
    }
}

/// The calibration at `path`, when it reads `truth` from `picture`; else
/// why not.
fn read_back(path: &Path, picture: &RgbaImage, truth: &Board) -> Result<Calibration, String> {
    let loaded = Calibration::load(path).map_err(|e| e.to_string())?;
    let read = vision::read(picture, &loaded, None)
        .and_then(|reading| reading.board())
        .map_err(|e: VisionError| e.to_string())?;
    if read != *truth {
        return Err(format!("it reads {read}"));
    }
    Ok(loaded)
}

/// Writes `calibration` into `folder` under a name no file has yet
/// (`calibration.toml`, else `calibration-2.toml`, ...): a second
/// session's calibration, saved meanwhile, is never written over.
fn save_new(calibration: &Calibration, folder: &Path) -> Result<PathBuf, CalibrateError> {
    for n in 1..1000 {
        let name = match n {
            1 => "calibration.toml".to_owned(),
            n => format!("calibration-{n}.toml"),
        };
        let path = folder.join(name);
        match calibration.save(&path, false) {
            Err(CalibrationError::Exists { .. }) => continue,
            saved => return saved.map(|()| path).map_err(CalibrateError::Save),
        }
    }
    Err(CalibrateError::Full {
        folder: folder.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{self, Look, Shot, Surround};

    /// A game window showing `board` in the game's look, and the board.
    fn shot(board: &str) -> (RgbaImage, Board) {
        let board: Board = board.parse().unwrap();
        let shot = Shot {
            scale: 0.5,
            surround: Surround::Window,
            seed: 7,
        };
        let (picture, _) = render::screenshot(&board, &Look::nodiatis(), &shot);
        (picture.to_image(), board)
    }

    #[test]
    fn a_calibration_saved_is_loaded_back_and_the_next_gets_a_name_of_its_own() {
        let folder = tempfile::tempdir().unwrap();
        let (picture, board) = shot(crate::game::EXAMPLE_BOARD);
        let calibrating = Calibrating {
            picture,
            proposed: board,
        };
        let first = calibrating.save(&board, folder.path()).unwrap();
        assert_eq!(first.path, folder.path().join("calibration.toml"));
        assert_eq!(Calibration::load(&first.path).unwrap(), first.calibration);
        let second = calibrating.save(&board, folder.path()).unwrap();
        assert_eq!(second.path, folder.path().join("calibration-2.toml"));
    }

    #[test]
    fn a_wrong_truth_saves_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let (picture, board) = shot(crate::game::EXAMPLE_BOARD);
        // Two colours swapped throughout: learned, they would look wrong.
        let swapped =
            board.relabelled(&[1, 0, 2, 3, 4].map(|i| crate::game::Colour::new(i).unwrap()));
        let calibrating = Calibrating {
            picture,
            proposed: board,
        };
        let error = calibrating.save(&swapped, folder.path()).unwrap_err();
        assert!(matches!(error, CalibrateError::Learn(_)), "{error}");
        assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_folder_that_cannot_be_written_is_said() {
        let folder = tempfile::tempdir().unwrap();
        let blocked = folder.path().join("a file");
        std::fs::write(&blocked, "").unwrap();
        let (picture, board) = shot(crate::game::EXAMPLE_BOARD);
        let calibrating = Calibrating {
            picture,
            proposed: board,
        };
        let error = calibrating.save(&board, &blocked).unwrap_err();
        assert!(matches!(error, CalibrateError::Save(_)), "{error}");
        assert!(error.to_string().contains("cannot write"), "{error}");
    }
}
