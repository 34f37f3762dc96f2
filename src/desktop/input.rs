//! Input: clicks at screen pixels (with `enigo` on X11, with `SendInput`
//! on Windows), and the two ways a user
//! stops the bot: moving the mouse away from where the bot left it (the
//! fail-safe, checked before every click) and Ctrl-C. A click is made
//! with the primary button as the player's settings have it (swapped for
//! a left-handed player), and the cursor is moved again when the system
//! put it elsewhere. It knows nothing of boards; live play decides where
//! to click.

use std::thread::sleep;
use std::time::{Duration, Instant};

use super::asked;
use super::platform;
use super::screen::ScreenPoint;
use super::traits::Pointer;
use super::words::{Button, InputError};

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

/// How many times the pointer is moved to its target before it counts
/// as put elsewhere: Windows' `SetCursorPos` onto another monitor (of
/// another scale) can land clamped at the first monitor's edge on its
/// first call, and right on the next.
const MOVE_TRIES: u32 = 3;

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
        asked::check()?;
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
            if !self.pointer.primary_down()? {
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

    /// Moves the pointer to `to` and reads it back, moving it again
    /// ([`MOVE_TRIES`] in all) while it is elsewhere: where it really is
    /// becomes where the bot left it, and must be within `within` pixels.
    fn move_to(&mut self, to: ScreenPoint, within: i32) -> Result<(), InputError> {
        let mut found = self.left_at;
        for _ in 0..MOVE_TRIES {
            self.pointer.move_to(to)?;
            // The window system may take a moment to report the move.
            found = self.pointer.location()?;
            for _ in 0..READ_BACK_TRIES / MOVE_TRIES {
                if on_target(found, to, within) {
                    break;
                }
                sleep(READ_BACK_WAIT);
                found = self.pointer.location()?;
            }
            self.left_at = found;
            if on_target(found, to, within) {
                return Ok(());
            }
            log::debug!("the pointer went to {found}, not {to}: moving it again");
        }
        Err(InputError::Misplaced { wanted: to, found })
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
        asked::holding(true);
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
            asked::holding(false);
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

/// The system's mouse, the platform's (`platform::Mouse`), with the
/// physical button it pressed.
pub struct SystemPointer {
    mouse: platform::Mouse,
    /// The physical button pressed and not yet released: the release is
    /// of that button, whatever the mapping says meanwhile.
    pressed: Option<Button>,
}

impl std::fmt::Debug for SystemPointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SystemPointer").finish_non_exhaustive()
    }
}

impl SystemPointer {
    pub fn new() -> Result<SystemPointer, InputError> {
        Ok(SystemPointer {
            mouse: platform::Mouse::connect().map_err(InputError::Device)?,
            pressed: None,
        })
    }

    /// The physical button that is the primary now, read before each
    /// press: a player may swap the buttons while the bot runs.
    fn primary(&self) -> Result<Button, InputError> {
        self.mouse.primary().map_err(InputError::Device)
    }
}

impl Pointer for SystemPointer {
    fn location(&mut self) -> Result<ScreenPoint, InputError> {
        self.mouse.location()
    }

    fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
        self.mouse.move_to(to)
    }

    fn primary_down(&mut self) -> Result<bool, InputError> {
        self.mouse
            .primary_down(self.pressed)
            .map_err(InputError::Device)
    }

    fn button(&mut self, down: bool) -> Result<(), InputError> {
        if down {
            let button = self.primary()?;
            self.mouse.press(button, true)?;
            self.pressed = Some(button);
            return Ok(());
        }
        let button = self.pressed.map_or_else(|| self.primary(), Ok)?;
        self.mouse.press(button, false)?;
        self.pressed = None;
        Ok(())
    }
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

    /// A pointer whose first `clamped` moves land at `edge` (Windows'
    /// SetCursorPos onto another monitor), later ones where sent.
    struct Clamping {
        at: ScreenPoint,
        edge: ScreenPoint,
        clamped: u32,
        down: bool,
        presses: u32,
    }

    impl Pointer for Clamping {
        fn location(&mut self) -> Result<ScreenPoint, InputError> {
            Ok(self.at)
        }
        fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
            self.at = if self.clamped > 0 { self.edge } else { to };
            self.clamped = self.clamped.saturating_sub(1);
            Ok(())
        }
        fn button(&mut self, down: bool) -> Result<(), InputError> {
            self.presses += u32::from(down);
            self.down = down;
            Ok(())
        }
        fn primary_down(&mut self) -> Result<bool, InputError> {
            Ok(self.down)
        }
    }

    fn clamping(clamped: u32) -> Clamping {
        Clamping {
            at: ScreenPoint::new(100, 100),
            edge: ScreenPoint::new(1919, 500),
            clamped,
            down: false,
            presses: 0,
        }
    }

    #[test]
    fn a_cursor_clamped_at_a_monitor_edge_is_moved_again() {
        let target = ScreenPoint::new(2400, 500);
        let mut mouse = Mouse::new(Box::new(clamping(1))).unwrap();
        mouse.click(target, 5).unwrap();
        assert_eq!(mouse.left_at, target);
        // Clamped every time: no click, and the place it went is said.
        let mut mouse = Mouse::new(Box::new(clamping(u32::MAX))).unwrap();
        let error = mouse.click(target, 5).unwrap_err();
        assert_eq!(
            error,
            InputError::Misplaced {
                wanted: target,
                found: ScreenPoint::new(1919, 500)
            }
        );
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
