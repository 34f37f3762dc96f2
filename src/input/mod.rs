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

/// How often, and how far apart, the pointer is read back after a move
/// before it counts as put elsewhere.
const READ_BACK_TRIES: u32 = 10;
const READ_BACK_WAIT: Duration = Duration::from_millis(2);

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
    #[error(
        "the mouse went to {found}, not {wanted} (a screen edge, another monitor or display scaling?): no click"
    )]
    Misplaced {
        wanted: ScreenPoint,
        found: ScreenPoint,
    },
}

/// True when the pointer, read back at `found` after a move to `wanted`,
/// is within `within` pixels of it on both axes: a press there lands on
/// the same cell.
pub fn on_target(found: ScreenPoint, wanted: ScreenPoint, within: i32) -> bool {
    (found.x - wanted.x).abs() <= within && (found.y - wanted.y).abs() <= within
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
    /// after checking that the user has not taken the mouse, and, once
    /// moved, that the pointer is really there (within `within` pixels):
    /// the system may put it elsewhere. The mouse stays at `at` until
    /// [`Mouse::rest`].
    pub fn click(&mut self, at: ScreenPoint, within: i32) -> Result<(), InputError> {
        self.check()?;
        self.move_to(at, within)?;
        self.enigo
            .button(Button::Left, Direction::Press)
            .map_err(device)?;
        sleep(HOLD);
        self.enigo
            .button(Button::Left, Direction::Release)
            .map_err(device)?;
        log::debug!("clicked at {at}");
        Ok(())
    }

    /// Moves the mouse to `rest`, where it must stay until the next click,
    /// after checking that the user did not take it during the click (moving
    /// it on would hide that).
    pub fn rest(&mut self, rest: ScreenPoint) -> Result<(), InputError> {
        self.check()?;
        self.move_to(rest, 0)?;
        log::debug!("mouse left at {rest}");
        Ok(())
    }

    /// Moves the pointer to `to` and reads it back: where it really is
    /// becomes where the bot left it, and must be within `within` pixels.
    fn move_to(&mut self, to: ScreenPoint, within: i32) -> Result<(), InputError> {
        self.enigo
            .move_mouse(to.x, to.y, Coordinate::Abs)
            .map_err(device)?;
        // The window system may take a moment to report the move.
        let mut found = self.location()?;
        for _ in 0..READ_BACK_TRIES {
            if on_target(found, to, within) {
                break;
            }
            sleep(READ_BACK_WAIT);
            found = self.location()?;
        }
        self.left_at = found;
        if !on_target(found, to, within) {
            return Err(InputError::Misplaced { wanted: to, found });
        }
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
    fn a_pointer_put_elsewhere_is_off_target() {
        let wanted = ScreenPoint::new(500, 300);
        assert!(on_target(wanted, wanted, 0));
        assert!(on_target(ScreenPoint::new(512, 290), wanted, 24));
        // Clamped at a screen edge, or scaled by 1.25.
        assert!(!on_target(ScreenPoint::new(500, 0), wanted, 24));
        assert!(!on_target(ScreenPoint::new(625, 375), wanted, 24));
    }

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
