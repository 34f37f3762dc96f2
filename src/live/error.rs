//! Why live play or assist mode stopped, and when in a game: the one
//! error type both drivers stop with, in words a player can act on.

use std::fmt;

use thiserror::Error;

use crate::desktop::{CaptureError, InputError};
use crate::game::Board;
use crate::vision::VisionError;

/// When in a game something happened, for the messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    Start,
    BeforeClick(u32),
    AfterClick(u32),
    AfterPlayerClick(u32),
    /// While the assistant watches the player think.
    Watching,
}

impl fmt::Display for Moment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Moment::Start => write!(f, "at the start"),
            Moment::BeforeClick(n) => write!(f, "before click {n}"),
            Moment::AfterClick(n) => write!(f, "after click {n}"),
            Moment::AfterPlayerClick(n) => write!(f, "after the player's click {n}"),
            Moment::Watching => write!(f, "now"),
        }
    }
}

/// Why no steady board was read.
#[derive(Debug, Error)]
pub enum NoBoard {
    #[error("the board kept changing")]
    KeptChanging,
    #[error("{}", brief(.0))]
    Unread(VisionError),
}

/// Why live play or assist mode stopped (or never started).
#[derive(Debug, Error)]
pub enum LiveError {
    #[error(transparent)]
    Capture(#[from] CaptureError),
    #[error(transparent)]
    Input(#[from] InputError),
    // Both causes look alike from here: a window with too little dust to
    // place a board, and a calibration made for another screen.
    #[error(
        "no board read in the window ({0}): start a game if none is on, else calibrate on this window's board"
    )]
    Misfit(NoBoard),
    #[error("the board is not inside the window any more")]
    OffBoard,
    #[error("the board is partly off the screen: move the window fully onto one screen")]
    OffScreen,
    #[error("the board is unreadable {when} (covered by another window?): {}", brief(.cause))]
    Unreadable { when: Moment, cause: VisionError },
    #[error("the board changed {when} without a click: expected {expected}, read {found}")]
    Changed {
        when: Moment,
        expected: Box<Board>,
        found: Box<Board>,
    },
    #[error("the board did not settle within {waited_ms} ms {when}: {cause}")]
    Unsettled {
        when: Moment,
        waited_ms: u128,
        cause: NoBoard,
    },
    #[error("another window covers the board {when}: {by}")]
    Covered { when: Moment, by: String },
    /// The terminal the bot runs in: the bot's own, never "another".
    #[error("this terminal covers the board {when}: move it aside")]
    TerminalOver { when: Moment },
    /// A window of the bot's own (the app's, the hint window): never
    /// "another".
    #[error("the bot's own window ({by}) covers the board {when}: move it aside")]
    OwnWindowOver { when: Moment, by: String },
    #[error("the window kept moving while aiming {when}")]
    Unsteady { when: Moment },
    #[error("the board read differed from the plan {count} times (at most {max} re-plans)")]
    TooManyReplans { count: u32, max: u32 },
    #[error(
        "click {number} changed nothing, and neither did the same click again: is this window a picture of a board (an image viewer, a browser page) rather than the game? Else the window did not take the click (is a dialog in front of it?){ELEVATED}"
    )]
    NoEffect { number: u32 },
    #[error("no dust on the board: start a game first")]
    NoDust,
    #[error("the solver found no way to clear {0}")]
    NoPlan(Box<Board>),
}

/// Why a game may take no click that only Windows has: a game run as
/// administrator ignores a normal process's input.
const ELEVATED: &str = if cfg!(windows) {
    "; a game run as administrator ignores a normal program's clicks: then run the bot as administrator too"
} else {
    ""
};

/// A vision error in a few words: the list of every unsure cell is too
/// long for a one-line message.
fn brief(error: &VisionError) -> String {
    match error {
        VisionError::Unsure(cells) => format!("unsure of {} cell(s)", cells.len()),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_read_as_the_messages_say_them() {
        assert_eq!(Moment::Start.to_string(), "at the start");
        assert_eq!(Moment::BeforeClick(4).to_string(), "before click 4");
        assert_eq!(Moment::AfterClick(4).to_string(), "after click 4");
        assert_eq!(
            Moment::AfterPlayerClick(2).to_string(),
            "after the player's click 2"
        );
        let error = LiveError::Unsettled {
            when: Moment::AfterClick(3),
            waited_ms: 2000,
            cause: NoBoard::KeptChanging,
        };
        assert_eq!(
            error.to_string(),
            "the board did not settle within 2000 ms after click 3: the board kept changing"
        );
    }
}
