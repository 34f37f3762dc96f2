//! Input: clicks at screen pixels with `enigo`, and the two ways a user
//! stops the bot: moving the mouse away from where the bot left it (the
//! fail-safe, checked before every click) and Ctrl-C. It knows nothing of
//! boards; live play decides where to click.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::sleep;
use std::time::Duration;

use enigo::{Button, Coordinate, Direction, Enigo, Mouse as _, Settings};
use thiserror::Error;

/// How long a click holds the button down: the game misses shorter presses.
pub const HOLD: Duration = Duration::from_millis(40);

/// A position on the screen, in pixels (x to the right, y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenPoint {
    pub x: i32,
    pub y: i32,
}

impl ScreenPoint {
    pub const fn new(x: i32, y: i32) -> ScreenPoint {
        ScreenPoint { x, y }
    }
}

impl std::fmt::Display for ScreenPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Why no click.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InputError {
    #[error("cannot reach the mouse: {0}")]
    Device(String),
    #[error("the mouse moved to {found} (the bot left it at {expected}): stopped for the user")]
    UserMoved {
        expected: ScreenPoint,
        found: ScreenPoint,
    },
    #[error("stopped by Ctrl-C")]
    Interrupted,
}

/// Makes the process per-monitor DPI-aware on Windows, so that capture
/// pixels and click coordinates are the same pixels on a scaled display.
/// Must run before any capture or input; elsewhere there is nothing to do.
pub fn make_dpi_aware() {
    // Fails when the awareness was already set (e.g. by a manifest), which
    // is as good, so a failure is only worth a note.
    #[cfg(windows)]
    if enigo::set_dpi_awareness().is_err() {
        log::debug!("the process DPI awareness was already set");
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C set the stop flag instead of killing the process in the
/// middle of a press (the button is always released).
pub fn stop_on_ctrl_c() -> Result<(), InputError> {
    ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst))
        .map_err(|e| InputError::Device(format!("cannot catch Ctrl-C: {e}")))
}

/// `Err(Interrupted)` once Ctrl-C was pressed.
pub fn check_interrupt() -> Result<(), InputError> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        Err(InputError::Interrupted)
    } else {
        Ok(())
    }
}

/// The mouse, and where the bot last left it.
#[derive(Debug)]
pub struct Mouse {
    enigo: Enigo,
    left_at: ScreenPoint,
}

impl Mouse {
    /// Takes the mouse where it is now: the user must not move it from here
    /// while the bot plays.
    pub fn new() -> Result<Mouse, InputError> {
        let enigo =
            Enigo::new(&Settings::default()).map_err(|e| InputError::Device(e.to_string()))?;
        let mut mouse = Mouse {
            enigo,
            left_at: ScreenPoint::new(0, 0),
        };
        mouse.left_at = mouse.location()?;
        Ok(mouse)
    }

    /// Where the mouse is.
    pub fn location(&self) -> Result<ScreenPoint, InputError> {
        let (x, y) = self
            .enigo
            .location()
            .map_err(|e| InputError::Device(e.to_string()))?;
        Ok(ScreenPoint::new(x, y))
    }

    /// `Ok` when the mouse is still where the bot left it and Ctrl-C was
    /// not pressed.
    pub fn check(&self) -> Result<(), InputError> {
        check_interrupt()?;
        let found = self.location()?;
        if found != self.left_at {
            return Err(InputError::UserMoved {
                expected: self.left_at,
                found,
            });
        }
        Ok(())
    }

    /// Clicks the left button at `at` (move, press, hold [`HOLD`], release)
    /// after checking that the user has not taken the mouse. The mouse
    /// stays at `at` until [`Mouse::rest`].
    pub fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        self.check()?;
        self.enigo
            .move_mouse(at.x, at.y, Coordinate::Abs)
            .map_err(device)?;
        self.enigo
            .button(Button::Left, Direction::Press)
            .map_err(device)?;
        sleep(HOLD);
        self.enigo
            .button(Button::Left, Direction::Release)
            .map_err(device)?;
        self.left_at = at;
        log::debug!("clicked at {at}");
        Ok(())
    }

    /// Moves the mouse to `rest`, where it must stay until the next click,
    /// after checking that the user did not take it during the click (moving
    /// it on would hide that).
    pub fn rest(&mut self, rest: ScreenPoint) -> Result<(), InputError> {
        self.check()?;
        self.enigo
            .move_mouse(rest.x, rest.y, Coordinate::Abs)
            .map_err(device)?;
        self.left_at = rest;
        log::debug!("mouse left at {rest}");
        Ok(())
    }
}

fn device(error: enigo::InputError) -> InputError {
    InputError::Device(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_as_pairs() {
        assert_eq!(ScreenPoint::new(412, -3).to_string(), "(412, -3)");
    }

    #[test]
    fn the_user_moving_the_mouse_names_both_places() {
        let error = InputError::UserMoved {
            expected: ScreenPoint::new(1, 2),
            found: ScreenPoint::new(3, 4),
        };
        assert_eq!(
            error.to_string(),
            "the mouse moved to (3, 4) (the bot left it at (1, 2)): stopped for the user"
        );
    }
}
