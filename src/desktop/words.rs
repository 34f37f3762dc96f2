//! The desktop floor's words: what the platform files (`x11.rs`,
//! `win32.rs`, `macos.rs`) and the files above them say to each other,
//! below all of them. A window as the window system lists it
//! ([`WindowInfo`]) and why none or no picture ([`CaptureError`]); a
//! mouse button ([`Button`]) and why no click ([`InputError`]); a mark on
//! the game's board ([`Mark`]); a standard stream of the console
//! ([`Stream`]); who asked a stop ([`Asker`]), the keys that stop a run
//! from anywhere ([`GlobalKey`]) and why one is not the bot's
//! ([`GrabError`]). Types and their plain rules only: what a platform
//! does with them is its own, and nothing here imports another file of
//! the floor but the screen's ([`super::screen`]).

use thiserror::Error;

use super::screen::{ScreenPoint, ScreenRect};

/// A window as the window system reports it; the position is the top-left
/// of its client area on the screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowInfo {
    pub id: u32,
    pub pid: Option<u32>,
    pub title: String,
    pub app: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    pub minimised: bool,
    /// Not on the screen for another reason than being minimised: on
    /// another desktop (X11: unmapped; Windows: cloaked), or hidden.
    pub hidden: bool,
}

impl WindowInfo {
    /// Neither minimised, hidden nor of zero size: its pixels are on the
    /// screen, where a capture finds them.
    pub fn is_visible(&self) -> bool {
        !self.minimised && !self.hidden && self.width > 0 && self.height > 0
    }

    /// The client area on the desktop.
    pub fn area(&self) -> ScreenRect {
        ScreenRect {
            x: self.x,
            y: self.y,
            width: self.width,
            height: self.height,
        }
    }
}

impl std::fmt::Display for WindowInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Titles are other programs' text: quoted, escaped and cut. A
        // window whose program the system does not name (on X11, one
        // without WM_CLASS) shows no "()".
        write!(f, "{}", crate::text::title(&self.title))?;
        if !self.app.is_empty() {
            write!(f, " ({})", crate::text::printable(&self.app))?;
        }
        write!(
            f,
            " at {},{} size {}x{}",
            self.x, self.y, self.width, self.height
        )
    }
}

/// Why no window or no picture of it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CaptureError {
    #[error("cannot list the windows: {cause}")]
    NoDesktop { cause: String },
    #[error("cannot reach the X11 display (DISPLAY={display:?}): {cause}")]
    NoDisplay { display: String, cause: String },
    #[error(
        "a Wayland session without X11 (WAYLAND_DISPLAY={wayland:?}, no DISPLAY): the bot sees and clicks windows through X11 only; run the game client under XWayland and give the bot its DISPLAY (e.g. DISPLAY=:0)"
    )]
    WaylandOnly { wayland: String },
    #[error(
        "no visible window's title or application contains {query}; visible windows: {candidates}"
    )]
    NoMatch { query: String, candidates: String },
    #[error("{count} windows match {query}: {candidates}; give a longer TEXT")]
    Several {
        query: String,
        count: usize,
        candidates: String,
    },
    #[error("the window {} is minimised", crate::text::title(.title))]
    Minimised { title: String },
    #[error(
        "the window {} is not on the screen (on another desktop, or hidden)",
        crate::text::title(.title)
    )]
    Hidden { title: String },
    #[error("the window {} has zero size", crate::text::title(.title))]
    ZeroSize { title: String },
    #[error("the window {} is gone (closed)", crate::text::title(.title))]
    Gone { title: String },
    #[error("the display closed (its X server ended): no window can be seen")]
    DisplayClosed,
    #[error("cannot capture the window {}: {cause}", crate::text::title(.title))]
    Grab { title: String, cause: String },
    #[error("the window {} is not on any screen", crate::text::title(.title))]
    OffScreen { title: String },
    /// The system lists no monitor at all: where the window is cannot be
    /// told, and is never said as off screen.
    #[error("the system lists no monitor ({cause}): the screen cannot be read")]
    NoMonitor { cause: String },
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
    #[error(
        "the window in front runs as administrator, and Windows keeps a normal program's mouse out of it ({0}): start the bot as administrator too (right-click bot.exe, or the terminal it runs in, then Run as administrator)"
    )]
    Elevated(String),
    /// Said as the stop asked for (`by`): `q`, Escape, Ctrl-C, the
    /// terminal closing; who asked is read as the stop is seen.
    #[error("stopped by {by}")]
    Interrupted { by: String },
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

/// A physical mouse button, as the platform presses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    Left,
    Middle,
    Right,
}

/// One mark: rectangles of the desktop in one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub rects: Vec<ScreenRect>,
    /// Red, green, blue.
    pub colour: [u8; 3],
}

/// The standard streams whose console mode the bot sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Input,
    Output,
    Error,
}

/// Who asked a run to stop, to say the stop as the one asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asker {
    /// Ctrl-C read as a key.
    CtrlC,
    /// A key that stops: `q` in the guided session's terminal or in the
    /// bot's own windows.
    Key(char),
    /// Escape, in the terminal or the bot's own windows.
    Escape,
    /// The terminal the session reads its keys from went away.
    TerminalClosed,
    /// Pause, the key that stops from anywhere (`stop::StopKey`),
    /// pressed in any window.
    StopKey,
    /// Ctrl+Shift+Backspace, the stop from anywhere that every keyboard
    /// has.
    StopChord,
    /// The Stop button of the bot's own window.
    StopButton,
    /// The bot's own window closed, or Quit, during a run.
    Closing,
    /// A request to end the process (SIGTERM; Windows' log-off or
    /// shut-down).
    EndRequest,
    /// The display the bot's windows were on closed (the X server ended,
    /// or their connection was killed).
    DisplayClosed,
}

impl Asker {
    pub(super) fn code(self) -> u8 {
        match self {
            Asker::CtrlC => 1,
            Asker::Escape => 2,
            Asker::TerminalClosed => 3,
            Asker::StopKey => 4,
            Asker::StopButton => 5,
            Asker::Closing => 6,
            Asker::StopChord => 7,
            Asker::EndRequest => 8,
            Asker::DisplayClosed => 9,
            // Keys are letters: above every other code.
            Asker::Key(key) => u8::try_from(key).map_or(32, |k| k.max(32)),
        }
    }

    /// The asker of `code`; `None` for 0, a signal's.
    pub(super) fn of(code: u8) -> Option<Asker> {
        match code {
            0 => None,
            1 => Some(Asker::CtrlC),
            2 => Some(Asker::Escape),
            3 => Some(Asker::TerminalClosed),
            4 => Some(Asker::StopKey),
            5 => Some(Asker::StopButton),
            6 => Some(Asker::Closing),
            7 => Some(Asker::StopChord),
            8 => Some(Asker::EndRequest),
            9 => Some(Asker::DisplayClosed),
            key => Some(Asker::Key(char::from(key))),
        }
    }
}

impl std::fmt::Display for Asker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Asker::CtrlC => f.write_str("Ctrl-C"),
            Asker::Key(key) => write!(f, "{key}"),
            Asker::Escape => f.write_str("Escape"),
            Asker::TerminalClosed => f.write_str("the terminal closing"),
            Asker::StopKey => write!(f, "the {} key", PAUSE.name),
            Asker::StopChord => f.write_str(CHORD.name),
            Asker::StopButton => f.write_str("Stop"),
            Asker::Closing => f.write_str("closing the app"),
            Asker::EndRequest => f.write_str("a request to end the bot"),
            Asker::DisplayClosed => f.write_str("the display closing"),
        }
    }
}

/// A key that stops a run from anywhere: its name on the keycaps, as
/// X11 grabs it (its keysym, and the modifiers held with it: `None` for
/// any) and as Windows' `RegisterHotKey` takes it (the modifiers, with
/// `MOD_NOREPEAT` so that a key held down says it once, the virtual key,
/// and the hot key's id, the thread's own: 0 to 0xBFFF), and who it is
/// as the stop's asker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalKey {
    pub name: &'static str,
    #[cfg_attr(any(windows, target_os = "macos"), allow(dead_code))]
    pub(super) keysym: u32,
    #[cfg_attr(any(windows, target_os = "macos"), allow(dead_code))]
    pub(super) modifiers: Option<u16>,
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(super) hot_key: (u32, u32),
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(super) id: i32,
    pub(super) asker: Asker,
}

/// Pause, bare (`XK_Pause`; `VK_PAUSE`): the stop a game never uses.
pub const PAUSE: GlobalKey = GlobalKey {
    name: "Pause",
    keysym: 0xff13,
    modifiers: None,
    hot_key: (0x4000, 0x13),
    id: 0x5053,
    asker: Asker::StopKey,
};

/// Ctrl+Shift+Backspace (`XK_BackSpace` with Control and Shift;
/// `MOD_CONTROL | MOD_SHIFT`, `VK_BACK`): the stop of the keyboards
/// without Pause (most laptops, compact ones). No layout types with it:
/// Ctrl+Alt is AltGr on Windows (Ctrl+Alt+S was a Polish "s acute"),
/// Windows-key chords are the system's (`RegisterHotKey`), F12 the
/// debugger's; Backspace with Ctrl deletes a word, and with Shift too
/// is no shortcut of Windows, Chrome, Edge, Firefox or Discord (Shift+
/// Escape is Chrome's task manager, Ctrl+Shift+Escape Windows').
pub const CHORD: GlobalKey = GlobalKey {
    name: "Ctrl+Shift+Backspace",
    keysym: 0xff08,
    modifiers: Some(0x4 | 0x1),
    hot_key: (0x4000 | 0x2 | 0x4, 0x08),
    id: 0x5054,
    asker: Asker::StopChord,
};

/// The keys that stop a run from anywhere, each grabbed for it.
pub const GLOBAL_KEYS: [GlobalKey; 2] = [PAUSE, CHORD];

/// What a press of the key that stops from anywhere calls, on the
/// thread that listens for it.
pub type Pressed = Box<dyn Fn() + Send>;

/// Why the key that stops from anywhere is not the bot's.
#[derive(Debug, thiserror::Error)]
pub enum GrabError {
    /// Another program holds it (X11's `BadAccess`, Windows'
    /// `ERROR_HOTKEY_ALREADY_REGISTERED`).
    #[error("another program holds it")]
    Taken,
    /// The window system could not be asked, or refused otherwise.
    #[error("{0}")]
    Failed(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_keys_are_pause_bare_and_ctrl_shift_backspace_and_their_presses_come_to_the_thread()
    {
        // RegisterHotKey(NULL, id, MOD_NOREPEAT, VK_PAUSE): no modifier
        // to hold, one WM_HOTKEY for a key held down; and
        // MOD_CONTROL | MOD_SHIFT | MOD_NOREPEAT with VK_BACK: never
        // MOD_ALT with MOD_CONTROL, which AltGr is (a layout's typing).
        assert_eq!(PAUSE.hot_key, (0x4000, 0x13));
        assert_eq!(CHORD.hot_key, (0x4006, 0x08));
        assert_ne!(CHORD.hot_key.0 & 0x3, 0x3, "Ctrl+Alt is AltGr");
        // X11: Pause with any modifiers; BackSpace with Control (4) and
        // Shift (1), never Mod1 (Alt) or Mod5 (AltGr, ISO_Level3_Shift).
        assert_eq!((PAUSE.keysym, PAUSE.modifiers), (0xff13, None));
        assert_eq!((CHORD.keysym, CHORD.modifiers), (0xff08, Some(5)));
        for key in GLOBAL_KEYS {
            assert!((0..=0xBFFF).contains(&key.id));
        }
        assert_ne!(PAUSE.id, CHORD.id);
    }
}
