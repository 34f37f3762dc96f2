//! What a player asks of the door ([`Action`]: a face's keys and
//! buttons), what the door offers ([`Offer`]: the question a face puts and
//! its actions), and whether the face goes on ([`Flow`]).

use crate::desktop::stop::Asker;

/// What a player asks of the door: a face's keys and buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Hints,
    Play,
    /// The last choice again (Enter at the terminal's menu).
    Again,
    /// The run under way asked to stop, by whom.
    Stop(Asker),
    Calibrate,
    Record,
    Report,
    Quit,
    /// Yes, this window is the game; while looking, the last No taken
    /// back.
    Yes,
    No,
    TryAgain,
    /// The board to calibrate on confirmed, or left as it was.
    Save,
    Cancel,
    /// The default calibration in place of the one that cannot be used.
    UseDefault,
}

/// What the door offers now: the question a face puts and its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Looking for the game: quit, or take the last No back.
    Looking,
    /// Is this window, found by its board alone, the game?
    Question,
    /// The game found: hints, play, calibrate, the record, a report.
    Menu,
    /// Hints or play go on: stop.
    Running,
    /// An error said: try again, save a report.
    Failed,
    /// The board read shown to be confirmed or corrected: save, cancel.
    Calibrating,
    /// The saved calibration or the settings cannot be used: the default,
    /// a new calibration, or quit.
    Unusable,
}

impl Offer {
    /// Every offer, in the order a player meets them.
    pub const ALL: [Offer; 7] = [
        Offer::Looking,
        Offer::Question,
        Offer::Menu,
        Offer::Running,
        Offer::Failed,
        Offer::Calibrating,
        Offer::Unusable,
    ];

    /// The actions on offer, in the order a face shows them.
    pub fn actions(self) -> &'static [Action] {
        const MENU: &[Action] = &[
            Action::Hints,
            Action::Play,
            Action::Stop(Asker::StopButton),
            Action::Calibrate,
            Action::Record,
            Action::Report,
            Action::Quit,
        ];
        match self {
            Offer::Looking | Offer::Menu | Offer::Running => MENU,
            Offer::Question => &[Action::Yes, Action::No, Action::Quit],
            Offer::Failed => &[Action::TryAgain, Action::Report, Action::Quit],
            Offer::Calibrating => &[Action::Save, Action::Cancel, Action::Quit],
            Offer::Unusable => &[Action::UseDefault, Action::Calibrate, Action::Quit],
        }
    }
}

/// What the door knows of the face that drives it: whether hints show in
/// a window of their own beside the game (the terminal's face has no
/// other), and how the face names each action, its key or its button,
/// where a line of the door's names one (the door says no face's words).
#[derive(Clone, Copy, Debug)]
pub struct Face {
    pub hint_window: bool,
    pub labels: fn(Action) -> &'static str,
}

impl Face {
    /// The face's name for `action`.
    pub fn label(&self, action: Action) -> &'static str {
        (self.labels)(action)
    }
}

/// Whether the face goes on or the player quit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Go,
    Quit,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_offer_has_quit_and_the_menu_stops_a_run() {
        for offer in Offer::ALL {
            assert!(offer.actions().contains(&Action::Quit), "{offer:?}");
        }
        assert!(
            Offer::Running
                .actions()
                .contains(&Action::Stop(Asker::StopButton))
        );
        assert_eq!(Offer::Question.actions()[..2], [Action::Yes, Action::No]);
    }
}
