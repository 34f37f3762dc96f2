//! The door's calibration: the board the game's window shows proposed
//! for the player to confirm or correct, the calibration learned on it
//! saved and used from then on ([`crate::app::calibrate`]), or the default
//! in place of a saved one that cannot be used.

use super::{Action, Door, Phase, Slot};
use crate::app::calibrate::Calibrating;
use crate::app::settings;
use crate::game::Board;

impl Door {
    /// The board being calibrated on changed by `change` (a face's
    /// correction: a cell clicked, a row typed); what it refused said.
    pub fn correct(&mut self, change: impl FnOnce(&Board) -> Result<(Board, String), String>) {
        let Phase::Calibrating { board, .. } = &mut self.phase else {
            return;
        };
        let line = match change(board) {
            Ok((changed, line)) => {
                *board = changed;
                line
            }
            Err(refused) => refused,
        };
        self.say(Slot::Doing, format!("calibrate: {line}"));
    }

    /// The default calibration, read with since the door opened, in place
    /// of the one the settings name, which is forgotten (a settings file
    /// that does not parse is never written over: said).
    pub(super) fn use_default(&mut self) {
        if self.options.calibration.is_none() {
            self.remember("the default calibration", |s| s.calibration = None);
        }
        self.status.summary.clear();
    }

    /// Calibrating on the board the game's window shows now: captured
    /// once, the board read from it shown for the player to confirm or
    /// correct.
    pub(super) fn calibrate(&mut self) {
        match self.phase {
            Phase::Ready { .. } => {}
            Phase::Unusable => {
                self.use_default();
                self.look_again(
                    "looking for the game, to calibrate on its board once found".to_owned(),
                );
                if let Phase::Looking {
                    calibrate_when_found,
                    ..
                } = &mut self.phase
                {
                    *calibrate_when_found = true;
                }
                return;
            }
            Phase::Running { .. } | Phase::Calibrating { .. } => return,
            _ => {
                let line = format!(
                    "no game found yet: start the dust game so that a full board shows, then press {}",
                    self.face.label(Action::Calibrate)
                );
                return self.say(Slot::Doing, line);
            }
        }
        let Some((window, _)) = &self.game else {
            return;
        };
        let window = window.clone();
        match Calibrating::capture(self.outside.desktop(), &window, &self.calibration) {
            Ok(calibrating) => {
                let board = calibrating.proposed;
                self.status.more.clear();
                self.said
                    .push(format!("calibrate: the board read: {board}"));
                self.say(
                    Slot::Doing,
                    "calibrate: is this the board in the game? Correct each cell that differs, then save; cancel leaves the calibration as it is"
                        .to_owned(),
                );
                self.enter(Phase::Calibrating {
                    calibrating: Box::new(calibrating),
                    board,
                });
            }
            Err(error) => self.fail(format!("{error}")),
        }
    }

    /// The board confirmed: a calibration learned on it, saved in the
    /// settings folder, read back from there, and used from now on; an
    /// error leaves the board shown, to correct or cancel.
    /// The calibration left as it was, the menu back.
    pub(super) fn cancel_calibration(&mut self) {
        if let Phase::Calibrating { .. } = self.phase {
            self.enter(super::ready());
            self.status.more.clear();
            let line = format!("calibration unchanged: {}", self.calibration_name());
            self.say(Slot::Doing, line);
        }
    }

    pub(super) fn save_calibration(&mut self) {
        let Phase::Calibrating { calibrating, board } = &self.phase else {
            return;
        };
        let board = *board;
        let saved = calibrating.save(&board, &self.places.config);
        let saved = match saved {
            Ok(saved) => saved,
            Err(error) => {
                self.say_more(vec![format!("error: {error:#}")]);
                self.offer_again();
                return;
            }
        };
        let path = saved.path.clone();
        let remembered = match settings::update(&self.places.settings, |s| {
            s.calibration = Some(path);
        }) {
            Ok(_) => String::new(),
            Err(error) => format!(" (not remembered for the next start: {error})"),
        };
        self.calibration = saved.calibration;
        self.calibration_path = saved.path;
        self.status.more.clear();
        self.say(Slot::Calibration, self.calibration_line());
        let line = format!(
            "saved the calibration as {}: used from now on{remembered}",
            self.calibration_path.display()
        );
        self.say(Slot::Doing, line);
        self.show_board(Some(board));
        self.ready();
    }
}
