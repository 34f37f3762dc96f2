//! Input: clicks at screen pixels with `enigo`, and the two ways a user
//! stops the bot: moving the mouse away from where the bot left it (the
//! fail-safe, checked before every click) and Ctrl-C. It knows nothing of
//! boards; live play decides where to click.

use std::thread::sleep;
use std::time::{Duration, Instant};

#[cfg(not(windows))]
use enigo::Coordinate;
use enigo::{Button, Direction, Enigo, Mouse as _, Settings};
use thiserror::Error;

use super::Pointer;
use super::stop;

/// How long a click holds the button down: the game misses shorter presses.
pub const HOLD: Duration = Duration::from_millis(40);

/// How long a click's release may take to reach the window system (a
/// window manager that holds the pointer): the bot waits on the target.
const RELEASE_WAIT: Duration = Duration::from_secs(5);

/// How often, and how far apart, the pointer is read back after a move
/// before it counts as put elsewhere: a window system under load may take
/// tens of milliseconds to report a move.
const READ_BACK_TRIES: u32 = 100;
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
    #[error("stopped by Ctrl-C (or a request to end)")]
    Interrupted,
    #[error("standard output cannot be written (a closed pipe, a full disk): stopped")]
    OutputFailed,
    #[error(
        "the window system has not taken the click's release at {at} after {waited_ms} ms (a frozen window manager?): stopped with the pointer on the cell"
    )]
    Unreleased { at: ScreenPoint, waited_ms: u128 },
    #[error(
        "the mouse moved to {found} while the bot clicked at {wanted}: the click may have landed there instead: stopped for the user"
    )]
    Moved {
        wanted: ScreenPoint,
        found: ScreenPoint,
    },
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

/// The mouse, and where the bot last left it.
pub struct Mouse {
    pointer: Box<dyn Pointer>,
    left_at: ScreenPoint,
}

impl std::fmt::Debug for Mouse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mouse")
            .field("left_at", &self.left_at)
            .finish_non_exhaustive()
    }
}

impl Mouse {
    /// Takes `pointer` where it is now: the user must not move it from
    /// here while the bot plays.
    pub fn new(mut pointer: Box<dyn Pointer>) -> Result<Mouse, InputError> {
        let left_at = pointer.location()?;
        Ok(Mouse { pointer, left_at })
    }

    /// `Ok` when the mouse is still where the bot left it and no stop was
    /// asked for.
    pub fn check(&mut self) -> Result<(), InputError> {
        stop::check()?;
        let found = self.pointer.location()?;
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
    /// the system may put it elsewhere. The release is read back (a round
    /// trip, so the window system has taken it in) with the pointer still
    /// on the target before this returns: a click whose pointer was moved
    /// between press and release may have landed elsewhere, and is an
    /// error. The button is released on every way out, a panic included.
    /// The mouse stays at `at` until [`Mouse::rest`].
    pub fn click(&mut self, at: ScreenPoint, within: i32) -> Result<(), InputError> {
        self.check()?;
        self.move_to(at, within)?;
        let held = Held::press(self.pointer.as_mut())?;
        sleep(HOLD);
        held.release()?;
        // The release must reach the window system with the pointer still
        // on the target before the pointer moves on: a frozen window
        // manager's grab holds it in the server's queue, and a move sent
        // meanwhile could overtake it.
        let started = Instant::now();
        loop {
            let found = self.pointer.location()?;
            if !on_target(found, at, within) {
                self.left_at = found;
                return Err(InputError::Moved { wanted: at, found });
            }
            if !self.pointer.left_down()? {
                break;
            }
            if started.elapsed() >= RELEASE_WAIT {
                return Err(InputError::Unreleased {
                    at,
                    waited_ms: RELEASE_WAIT.as_millis(),
                });
            }
            sleep(READ_BACK_WAIT);
        }
        log::debug!(
            "clicked at {at}, released in {:.1} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
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
        self.pointer.move_to(to)?;
        // The window system may take a moment to report the move.
        let mut found = self.pointer.location()?;
        for _ in 0..READ_BACK_TRIES {
            if on_target(found, to, within) {
                break;
            }
            sleep(READ_BACK_WAIT);
            found = self.pointer.location()?;
        }
        self.left_at = found;
        if !on_target(found, to, within) {
            return Err(InputError::Misplaced { wanted: to, found });
        }
        Ok(())
    }
}

/// The left button held down: released when dropped, so that no way out
/// of a click (an error, a panic) leaves it down. A stop request (Ctrl-C,
/// SIGTERM, SIGHUP) only sets a flag, so the hold always ends here.
struct Held<'p> {
    pointer: Option<&'p mut dyn Pointer>,
}

impl<'p> Held<'p> {
    fn press(pointer: &'p mut dyn Pointer) -> Result<Held<'p>, InputError> {
        // Held before the press is asked for: a press that fails half way
        // is released too.
        let mut held = Held {
            pointer: Some(pointer),
        };
        stop::holding(true);
        held.pointer.as_mut().expect("just set").button(true)?;
        Ok(held)
    }

    fn release(mut self) -> Result<(), InputError> {
        match self.pointer.take() {
            Some(pointer) => Held::up(pointer),
            None => Ok(()),
        }
    }

    fn up(pointer: &mut dyn Pointer) -> Result<(), InputError> {
        let released = pointer.button(false);
        if released.is_ok() {
            stop::holding(false);
        }
        released
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if let Some(pointer) = self.pointer.take()
            && let Err(error) = Held::up(pointer)
        {
            log::error!("cannot release the mouse button: {error}");
        }
    }
}

/// The system's mouse: `enigo`, and on Windows the cursor put with
/// `SetCursorPos` (enigo's absolute moves reach the primary monitor only).
pub struct SystemPointer {
    enigo: Enigo,
    #[cfg(unix)]
    buttons: super::unix::Buttons,
}

impl std::fmt::Debug for SystemPointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SystemPointer").finish_non_exhaustive()
    }
}

impl SystemPointer {
    pub fn new() -> Result<SystemPointer, InputError> {
        let enigo =
            Enigo::new(&Settings::default()).map_err(|e| InputError::Device(e.to_string()))?;
        Ok(SystemPointer {
            enigo,
            #[cfg(unix)]
            buttons: super::unix::Buttons::connect().map_err(InputError::Device)?,
        })
    }
}

impl Pointer for SystemPointer {
    fn location(&mut self) -> Result<ScreenPoint, InputError> {
        // On X11 a pointer query is a round trip: the server has taken in
        // every fake event sent before it.
        let (x, y) = self.enigo.location().map_err(device)?;
        Ok(ScreenPoint::new(x, y))
    }

    fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
        #[cfg(windows)]
        return super::win32::set_cursor(to).map_err(InputError::Device);
        #[cfg(not(windows))]
        self.enigo
            .move_mouse(to.x, to.y, Coordinate::Abs)
            .map_err(device)
    }

    fn left_down(&mut self) -> Result<bool, InputError> {
        #[cfg(unix)]
        return self.buttons.left_down().map_err(InputError::Device);
        #[cfg(windows)]
        return Ok(super::win32::left_down());
        #[cfg(not(any(unix, windows)))]
        Ok(false)
    }

    fn button(&mut self, down: bool) -> Result<(), InputError> {
        let direction = if down {
            Direction::Press
        } else {
            Direction::Release
        };
        self.enigo.button(Button::Left, direction).map_err(device)
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
