//! The desktop floor: everything that touches the player's screen, and the
//! only place with per-platform code. It owns the window list and the game
//! window's geometry and pixels ([`capture`]), the mouse ([`input`]), the
//! stop requests (Ctrl-C and the signals that end a process, and the
//! Pause key from anywhere while a run is on: [`stop`]),
//! the console the bot runs in ([`console`]: colour, QuickEdit, the wait
//! for Enter before it closes), which windows are the bot's own (its
//! terminal, its hint window), the bot's own windows themselves ([`own`]:
//! the app's, practice and hint windows, `winit` and `softbuffer` kept on
//! this floor; [`marks`]: the hints drawn on the game's own board; [`place`]:
//! where they go beside the game), HDR on a monitor ([`hdr`]),
//! and the platform's folders ([`folders`]: where settings and data go, and
//! whether the bot was started from inside an archive). The rest of the
//! bot is written against the three traits here, [`Desktop`],
//! [`GameWindow`] and [`Pointer`]: the system's desktop (X11 through
//! `xcap` and `enigo`, or Win32) implements them, and so does [`fake`], a
//! scripted desktop (frames in, clicks out) on which the live loop and
//! assist mode run without a screen.

// Each file imports only files below it. The ground: the screen's and
// the floor's words, the stop asked for, and the rules the platform
// files call back for; then the platform files, one of them built, under
// one name (`platform`); then what uses the platform (capture, input,
// the marks, the stop keys, the console, the bot's own windows); this
// file on top, where the rest of the bot finds them.
mod answers;
mod asked;
pub mod capture;
pub mod console;
pub mod fake;
pub mod folders;
pub mod hdr;
pub mod input;
pub mod marks;
pub mod own;
pub mod place;
mod platform;
pub mod process;
mod screen;
pub mod stop;
mod traits;
mod words;

#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
mod macos_main;
#[cfg(windows)]
mod win32;
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
mod x11;
#[cfg(target_os = "macos")]
pub use own::main_thread_serves_windows;
#[cfg(any(target_os = "macos", test))]
mod macos_rules;
#[cfg(not(any(
    windows,
    target_os = "macos",
    all(
        unix,
        not(any(target_os = "macos", target_os = "ios", target_os = "android"))
    )
)))]
compile_error!(
    "dustbot's desktop floor has platforms for X11 (Linux, the BSDs), Win32 and macOS only: \
     on this OS build the library without it (cargo build --lib --no-default-features)"
);

pub use capture::{display_lost, names, screens};
pub use input::Mouse;
pub use marks::BoardMarks;
pub use own::{Key, OwnWindow, Standing, end_windows};
pub use screen::{MonitorArea, Region, ScreenPoint, ScreenRect};
pub use traits::{Desktop, GameWindow, Pointer};
pub use words::{Button, CaptureError, InputError, Mark, WindowInfo};

/// The desktop the bot runs on.
pub fn system() -> capture::SystemDesktop {
    capture::SystemDesktop::new()
}

/// Prepares the process for the desktop before any window, capture or
/// input call: on Windows it declares itself per-monitor DPI aware, so
/// that captured pixels, window geometry and pointer coordinates are the
/// same pixels at any display scaling and on every monitor. Returns why
/// that failed, if it did (the bot then refuses to play on a scaled
/// display); elsewhere there is nothing to do.
pub fn prepare() -> Result<(), String> {
    platform::prepare()
}

/// Whether the bot was started on its own console (a double-click in
/// Explorer on Windows, a shortcut), which closes when the bot exits:
/// then a bare `bot` says what to do and waits for Enter instead of
/// flashing past.
pub fn own_console() -> bool {
    platform::own_console()
}

/// Brings the bot's own terminal (its window `id`) back to the front after
/// a run, where the platform lets it (else Windows flashes its taskbar
/// button); why not, when it did not.
pub fn bring_to_front(id: u32) -> Result<(), String> {
    platform::bring_to_front(id)
}

/// Whether the window `id` (another app's) answers within `wait`: a
/// stopped or hung app does not (X11's `_NET_WM_PING`, Windows'
/// `SendMessageTimeoutW`); where nothing can ask, it is taken as
/// answering.
pub fn answers(id: u32, wait: std::time::Duration) -> bool {
    platform::answers(id, wait)
}

/// Shows a failure where a program without a console can show it: a
/// message box on Windows, waiting for its OK; nothing on X11, where
/// standard error and the log file say it.
pub fn show_message(title: &str, text: &str) {
    platform::show_message(title, text);
}

/// Drops what was typed on the bot's terminal (or console) and not read
/// yet: a question is answered only by a key pressed after it is asked.
pub fn drop_typed_ahead() {
    // Not a terminal, or one gone: nothing typed to drop.
    #[cfg(unix)]
    let _ = rustix::termios::tcflush(std::io::stdin(), rustix::termios::QueueSelector::IFlush);
    #[cfg(windows)]
    platform::drop_typed_ahead();
}
