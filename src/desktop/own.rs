//! The bot's own windows (the practice window, the hint window): one type
//! over `minifb`, so that the window toolkit stays on this floor. A
//! window shows a picture of 0RGB words, tells each press of the primary
//! button and where it was (the platform hears them, `platform::Presses`:
//! minifb keeps the button's state only, which misses a click released
//! before the next frame), whether a few keys are down, and says whether
//! it is still there: closed by the player, or destroyed by another
//! program (which on X11 would otherwise end the process through Xlib's
//! default error handler).

use std::time::{Duration, Instant};

use minifb::{InputCallback, MouseButton, MouseMode, ScaleMode, Window, WindowOptions};

use super::platform;

/// The keys the bot's windows listen to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Escape,
    N,
    /// `q`: quits the desktop app, ends hints in the hint window.
    Q,
    Space,
    Enter,
    NumPadEnter,
    /// The desktop app's keys: the guided session's 1 to 4, y.
    One,
    Two,
    Three,
    Four,
    Y,
}

impl Key {
    const ALL: [(Key, minifb::Key); 11] = [
        (Key::Escape, minifb::Key::Escape),
        (Key::N, minifb::Key::N),
        (Key::Q, minifb::Key::Q),
        (Key::Space, minifb::Key::Space),
        (Key::Enter, minifb::Key::Enter),
        (Key::NumPadEnter, minifb::Key::NumPadEnter),
        (Key::One, minifb::Key::Key1),
        (Key::Two, minifb::Key::Key2),
        (Key::Three, minifb::Key::Key3),
        (Key::Four, minifb::Key::Key4),
        (Key::Y, minifb::Key::Y),
    ];

    fn of(key: minifb::Key) -> Option<Key> {
        Key::ALL
            .iter()
            .find_map(|&(ours, theirs)| (theirs == key).then_some(ours))
    }

    /// The key that typed `c` in the player's layout, as the player knows
    /// it: the letters as typed, the digits of the top row (AZERTY's
    /// `& é " '` too) and of the keypad (NumLock on).
    fn typed(c: char) -> Option<Key> {
        Some(match crate::text::answer(c)? {
            'q' => Key::Q,
            'n' => Key::N,
            'y' => Key::Y,
            '1' => Key::One,
            '2' => Key::Two,
            '3' => Key::Three,
            '4' => Key::Four,
            _ => return None,
        })
    }

    /// The keypad's digits 1 to 4, by their place (a keypad has one
    /// layout): minifb on X11 tells them by their keys, not as characters
    /// typed. (On Windows they also type their digit: the app's digit
    /// keys do what they do once, whatever a second press finds.)
    fn keypad(key: minifb::Key) -> Option<Key> {
        match key {
            minifb::Key::NumPad1 => Some(Key::One),
            minifb::Key::NumPad2 => Some(Key::Two),
            minifb::Key::NumPad3 => Some(Key::Three),
            minifb::Key::NumPad4 => Some(Key::Four),
            _ => None,
        }
    }

    /// Whether the key types a character, told by the character typed
    /// ([`Key::typed`]) rather than by the key's place: minifb's places
    /// are scan codes on Windows (AZERTY's `a` quit, `q` did nothing) and
    /// keysyms on X11 (AZERTY's number row typed nothing the app knew).
    fn types(self) -> bool {
        !matches!(
            self,
            Key::Escape | Key::Space | Key::Enter | Key::NumPadEnter
        )
    }

    fn toolkits(self) -> minifb::Key {
        Key::ALL
            .iter()
            .find_map(|&(ours, theirs)| (ours == self).then_some(theirs))
            .unwrap_or(minifb::Key::Unknown)
    }
}

/// The ids of the windows this process has open. The window list leaves
/// them out: on X11 a `minifb` window names no process (no
/// `_NET_WM_PID`) until [`OwnWindow::open`] names it, after its mapping.
static OPEN: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Whether the window `id` is one this process has open.
pub(super) fn is_ours(id: u32) -> bool {
    OPEN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .contains(&id)
}

/// A window of the bot's own.
pub struct OwnWindow {
    /// Every press of the primary button, however short; `None` where
    /// the platform would not give them, the button's state serving then.
    /// Dropped before the window, which it watches.
    presses: Option<platform::Presses>,
    window: Window,
    /// Its id, as the window list gives it.
    id: u32,
    /// Whether the primary button was down at the last [`OwnWindow::press`].
    was_down: bool,
    /// The picture shown last, its size, and when it was sent: sent again
    /// now and then by [`OwnWindow::pump`].
    shown: Vec<u32>,
    shown_size: (usize, usize),
    sent: Instant,
}

/// How often a window at rest sends its picture again, so that what
/// another window covered comes back: minifb draws on no expose event,
/// and without a compositor (openbox, i3, xfce without compositing) an
/// uncovered window stays black until its picture comes again. Seldom, as
/// each sending takes time from the window's polls.
const REPAINT: Duration = Duration::from_millis(250);

impl std::fmt::Debug for OwnWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnWindow")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl OwnWindow {
    /// Opens a window titled `title` whose client area is `size` pixels,
    /// kept above the other windows when `topmost` (as the window manager
    /// allows; said in the log when it does not).
    pub fn open(title: &str, size: (usize, usize), topmost: bool) -> Result<OwnWindow, String> {
        if let Err(error) = platform::survive_window_errors() {
            log::warn!("{title}: the window system's errors on it may end the bot: {error}");
        }
        let options = WindowOptions {
            topmost,
            // The pictures shown are the client area's size, and the window
            // cannot be resized: on X11 minifb then copies them row by row
            // where stretching looked up every pixel.
            scale_mode: ScaleMode::UpperLeft,
            ..WindowOptions::default()
        };
        let window = Window::new(title, size.0, size.1, options).map_err(|e| e.to_string())?;
        // The handle's value: an X window id on X11 and a window handle
        // on Windows, both what the window list gives.
        let id = window.get_window_handle() as usize as u32;
        OPEN.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(id);
        if let Err(error) = platform::name_the_process(id) {
            log::warn!("{title}: another dustbot may take this window for the game: {error}");
        }
        let presses = platform::Presses::watch(id)
            .inspect_err(|error| {
                log::warn!("{title}: a click shorter than a frame may be missed: {error}");
            })
            .ok();
        let own = OwnWindow {
            presses,
            window,
            id,
            was_down: false,
            shown: Vec::new(),
            shown_size: (0, 0),
            sent: Instant::now(),
        };
        // minifb keeps a window on top itself on Windows, not on X11.
        if topmost && let Err(error) = platform::keep_above(id) {
            log::warn!("{title}: cannot be kept above the other windows: {error}");
        }
        Ok(own)
    }

    /// The window's id, as the window list gives it.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// How often [`OwnWindow::show`] and [`OwnWindow::pump`] may run at
    /// most, waiting in them as needed; 0 never waits.
    pub fn set_rate(&mut self, per_second: usize) {
        self.window.set_target_fps(per_second);
    }

    /// Puts the window's frame with its top-left at `at` (desktop pixels).
    pub fn place(&mut self, at: (i32, i32)) {
        self.window.set_position(at.0 as isize, at.1 as isize);
    }

    pub fn set_title(&mut self, title: &str) {
        self.window.set_title(title);
    }

    /// Shows `pixels` (0RGB words, `size` pixels, row by row) and takes
    /// in the window's events.
    pub fn show(&mut self, pixels: &[u32], size: (usize, usize)) -> Result<(), String> {
        self.shown.clear();
        self.shown.extend_from_slice(pixels);
        self.shown_size = size;
        self.send()
    }

    /// Takes in the window's events (moves, input, closing), and sends
    /// the picture shown again every [`REPAINT`].
    pub fn pump(&mut self) {
        if !self.shown.is_empty() && self.sent.elapsed() >= REPAINT {
            if let Err(error) = self.send() {
                log::debug!("the window's picture not sent again: {error}");
            }
            return;
        }
        self.window.update();
    }

    /// Sends the picture shown, which takes in the events too.
    fn send(&mut self) -> Result<(), String> {
        self.sent = Instant::now();
        let (width, height) = self.shown_size;
        self.window
            .update_with_buffer(&self.shown, width, height)
            .map_err(|e| e.to_string())
    }

    /// Whether the window is still there: not closed by the player, not
    /// destroyed by another program.
    pub fn is_open(&self) -> bool {
        self.window.is_open() && !self.destroyed()
    }

    /// Whether another program destroyed the window.
    pub fn destroyed(&self) -> bool {
        platform::lost(self.id)
    }

    /// Where in the client area the primary (left) button was pressed
    /// since the last call, if it was; one press a call, in order.
    pub fn press(&mut self) -> Option<(f32, f32)> {
        if let Some(presses) = &mut self.presses {
            match presses.next() {
                Ok(press) => return press,
                Err(error) => {
                    log::warn!("the window's presses: {error}");
                    self.presses = None;
                }
            }
        }
        let down = self.primary_down();
        let pressed = down && !self.was_down;
        self.was_down = down;
        if !pressed {
            return None;
        }
        // minifb asks where the pointer is before it takes the events in: a
        // press that came with a move since the last poll would be placed
        // where the pointer was before the move. Ask again, and take that
        // answer while the button is still held. When the release came in
        // too, the pointer may have moved on since (the bot moves away once
        // the server has its release, and a busy machine can hold a window
        // back that long): where it was before these events is then the
        // press's place.
        let before = self.pointer();
        self.pump();
        if self.primary_down() {
            self.pointer()
        } else {
            before
        }
    }

    /// Whether the primary (left) button is down over the window, as of
    /// the last events taken in.
    fn primary_down(&self) -> bool {
        self.window.get_mouse_down(MouseButton::Left)
    }

    /// Where the pointer is in the client area, when it is over it.
    fn pointer(&self) -> Option<(f32, f32)> {
        self.window.get_mouse_pos(MouseMode::Discard)
    }

    /// Whether `key` is down, as of the last events taken in.
    pub fn key_down(&self, key: Key) -> bool {
        self.window.is_key_down(key.toolkits())
    }

    /// Tells `heard` of every press and release of the keys there are,
    /// however short: the key state misses a press released before the
    /// next events are taken in (as `xdotool key` sends them).
    pub fn on_keys(&mut self, heard: impl FnMut(Key, bool) + 'static) {
        self.window.set_input_callback(Box::new(Heard(heard)));
    }
}

impl Drop for OwnWindow {
    fn drop(&mut self) {
        OPEN.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .retain(|&id| id != self.id);
    }
}

struct Heard<F>(F);

impl<F: FnMut(Key, bool)> InputCallback for Heard<F> {
    // A character typed is a press and its release (the release types
    // nothing): a key held types again, as a press each.
    fn add_char(&mut self, c: u32) {
        if let Some(key) = char::from_u32(c).and_then(Key::typed) {
            (self.0)(key, true);
            (self.0)(key, false);
        }
    }

    fn set_key_state(&mut self, key: minifb::Key, down: bool) {
        if let Some(key) = Key::of(key)
            .filter(|key| !key.types())
            .or_else(|| Key::keypad(key))
        {
            (self.0)(key, down);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_that_type_are_told_by_what_they_type_in_any_layout() {
        // QWERTY and AZERTY's number row, unshifted and shifted, and the
        // keypad with NumLock: the keys labelled 1 to 4.
        for (typed, key) in [
            ('1', Key::One),
            ('&', Key::One),
            ('é', Key::Two),
            ('"', Key::Three),
        ] {
            assert_eq!(Key::typed(typed), Some(key), "{typed}");
        }
        assert_eq!(Key::typed('\''), Some(Key::Four));
        // The letters as typed, wherever the layout puts them.
        assert_eq!(Key::typed('q'), Some(Key::Q));
        assert_eq!(Key::typed('Y'), Some(Key::Y));
        assert_eq!(Key::typed('a'), None);
        assert_eq!(Key::keypad(minifb::Key::NumPad4), Some(Key::Four));
        assert_eq!(Key::keypad(minifb::Key::NumPad5), None);
        assert_eq!(Key::typed('5'), None);
        // Escape and Enter type nothing the app reads: their state.
        assert!(!Key::Escape.types() && !Key::Enter.types());
        assert!(Key::Q.types() && Key::One.types());
    }

    #[test]
    fn every_key_maps_to_the_toolkits_and_back() {
        for (ours, theirs) in Key::ALL {
            assert_eq!(ours.toolkits(), theirs);
            assert_eq!(Key::of(theirs), Some(ours));
        }
        assert_eq!(Key::of(minifb::Key::M), None);
    }
}
