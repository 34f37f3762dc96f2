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

mod answers;
pub mod capture;
pub mod console;
pub mod fake;
pub mod folders;
pub mod hdr;
pub mod input;
pub mod marks;
pub mod own;
pub mod place;
pub mod process;
mod screen;
pub mod stop;

// One platform under one name: the floor calls `platform::...`, and each
// platform module provides every function of the contract below, those
// it has no use for doing nothing. X11 serves Linux and the BSDs; macOS
// has its own (`macos.rs`, with the main thread's part in
// `macos_main.rs`, its decisions in `macos_rules.rs`, tested everywhere).
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
mod x11;
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
use x11 as platform;
#[cfg(windows)]
mod win32;
#[cfg(windows)]
use win32 as platform;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as platform;
#[cfg(target_os = "macos")]
mod macos_main;
#[cfg(target_os = "macos")]
pub use macos_main::main_thread_serves_windows;
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

/// The platform contract: every function a platform module (`x11.rs`,
/// `win32.rs`, `macos.rs`) provides, with its signature, checked by the compiler
/// against the platform built. A function added to one platform is added
/// here and to the others.
const _PLATFORM_CONTRACT: () = {
    use input::Button;
    use platform::{Mouse, Pixels};
    // The process, before any window: DPI awareness (Windows).
    let _: fn() -> Result<(), String> = platform::prepare;
    // The console the bot runs in (Windows; none under X11).
    let _: fn() -> bool = platform::own_console;
    let _: fn() -> bool = platform::console_closes_at_exit;
    let _: fn() -> Option<u32> = platform::console_window;
    let _: fn() -> Result<(), String> = platform::catch_console_end;
    // Windows' console (a Unix terminal is flushed by termios alike on
    // every Unix: `drop_typed_ahead` below).
    #[cfg(windows)]
    let _: fn() = platform::drop_typed_ahead;
    let _: fn(console::Stream) -> Option<u32> = platform::console_mode;
    let _: fn(console::Stream, u32) -> bool = platform::set_console_mode;
    let _: fn(&std::path::Path) = platform::show_in_explorer;
    let _: fn(&str, &str) = platform::show_message;
    // Windows and processes.
    let _: fn() -> Result<(), CaptureError> = platform::check_display;
    let _: fn() -> bool = platform::display_alive;
    let _: fn(u32) -> Option<String> = platform::wm_name;
    let _: fn(u32) -> Option<ScreenRect> = platform::client_area;
    let _: fn(u32) -> bool = platform::shown;
    let _: fn() -> Option<Vec<MonitorArea>> = platform::monitor_areas;
    let _: fn(ScreenPoint) -> Result<Option<u32>, String> = platform::window_at;
    let _: fn(u32) -> Option<u32> = platform::parent_of;
    // A monitor's DXGI colour space (HDR), by a window or a point.
    let _: fn(u32) -> Result<Option<i32>, String> = platform::colour_space_of_window;
    let _: fn(ScreenPoint) -> Result<Option<i32>, String> = platform::colour_space_at;
    let _: fn(u32) -> Option<u64> = platform::started_at;
    let _: fn(u32) -> Option<String> = platform::command_line_of;
    // Pixels through a kept connection (X11; none on Windows).
    let _: fn() -> Result<Pixels, String> = Pixels::connect;
    let _: fn(&Pixels, ScreenRect) -> Result<RgbaImage, String> = Pixels::grab;
    // The mouse.
    let _: fn() -> Result<Mouse, String> = Mouse::connect;
    let _: fn(&Mouse) -> Result<Button, String> = Mouse::primary;
    let _: fn(&Mouse, Option<Button>) -> Result<bool, String> = Mouse::primary_down;
    let _: fn(&mut Mouse) -> Result<ScreenPoint, InputError> = Mouse::location;
    let _: fn(&mut Mouse, ScreenPoint) -> Result<(), InputError> = Mouse::move_to;
    let _: fn(&mut Mouse, Button, bool) -> Result<(), InputError> = Mouse::press;
    // The bot's own windows.
    let _: fn(u32) -> Result<(), String> = platform::bring_to_front;
    let _: fn(u32, std::time::Duration) -> bool = platform::answers;
    let _: fn() -> Result<(), String> = platform::survive_window_errors;
    // The marks over the game's board: a window of the bot's own that
    // takes no click, shown, hidden, kept above, its events taken in.
    let _: fn() -> Result<platform::Overlay, String> = platform::Overlay::open;
    let _: fn(&mut platform::Overlay, &[marks::Mark]) -> Result<(), String> =
        platform::Overlay::show;
    let _: fn(&mut platform::Overlay) -> Result<(), String> = platform::Overlay::hide;
    let _: fn(&mut platform::Overlay) -> Result<bool, String> = platform::Overlay::pump;
    let _: fn(&mut platform::Overlay) -> Result<(), String> = platform::Overlay::raise;
    // The key that stops a run from anywhere, held while the value lives.
    type Grab = Result<platform::StopKeyGrab, stop::GrabError>;
    let _: fn(stop::GlobalKey, stop::Pressed) -> Grab = platform::StopKeyGrab::grab;
};

use image::RgbaImage;

pub use capture::{CaptureError, WindowInfo, names, screens};
pub use input::{InputError, Mouse};
pub use marks::{BoardMarks, Mark};
pub use own::{Key, OwnWindow, Standing, end_windows};
pub use screen::{MonitorArea, Region, ScreenPoint, ScreenRect};

/// The game window, as live play and assist mode watch it.
pub trait GameWindow: std::fmt::Debug {
    /// The window as last refreshed (title, place, size).
    fn info(&self) -> &WindowInfo;

    /// The window's geometry now: an error when it is closed, minimised,
    /// not shown (another desktop) or of zero size.
    fn refresh(&mut self) -> Result<&WindowInfo, CaptureError>;

    /// The window's title now, for a message (a browser's tab may have
    /// changed it since the window was found); the title found when it
    /// cannot be read.
    fn title_now(&self) -> String {
        self.info().title.clone()
    }

    /// The windows in front of this one that overlap `region` of its
    /// client area (at its place as last refreshed), front-most first: a
    /// click there would land on them.
    fn covering(&self, region: Region) -> Result<Vec<WindowInfo>, CaptureError>;

    /// A picture of `region` of the client area (at the window's place as
    /// last refreshed) as the screen shows it, windows in front included,
    /// clipped to the screen the region starts on; returns the part
    /// captured, in client coordinates.
    fn capture_region(&mut self, region: Region) -> Result<(RgbaImage, Region), CaptureError>;

    /// Pictures of `parts` of the client area (at the window's place as
    /// last refreshed) as the screen shows them, one each: an error when
    /// one is not wholly on the screen the capture is on. For glances at a
    /// few rows, where one capture of all of them would take much more.
    fn capture_parts(&mut self, parts: &[Region]) -> Result<Vec<RgbaImage>, CaptureError> {
        capture::parts_of_one_capture(self, parts)
    }

    /// The screen the last capture was on, in desktop coordinates.
    fn screen(&self) -> Option<ScreenRect>;

    /// That screen's work area (less the taskbar and the docks), where
    /// the bot's windows go; the whole screen where none is known.
    fn work_area(&self) -> Option<ScreenRect> {
        self.screen()
    }

    /// The display scale of the screen the last capture was on (1.0 for
    /// 100%, 1.5 for 150%): what the window manager's frames are drawn
    /// at.
    fn screen_scale(&self) -> f32 {
        1.0
    }

    /// The top-level window a press at `point` (desktop pixels) would go
    /// to, as the window system finds it there (its id as the window list
    /// gives it; `None` over the bare desktop): the game's own id when a
    /// click there reaches it. A window that lets clicks through (a
    /// transparent overlay) is not found; one the window list leaves out
    /// (the bot's own, on Windows) is.
    fn window_at(&self, point: ScreenPoint) -> Result<Option<u32>, CaptureError>;

    /// The whole client area as the screen shows it now (the geometry
    /// refreshed first), clipped to the screen it starts on.
    fn capture_client(&mut self) -> Result<RgbaImage, CaptureError> {
        let info = self.refresh()?;
        let client = Region::whole(info.width, info.height);
        Ok(self.capture_region(client)?.0)
    }
}

/// The mouse, as the bot moves and presses it. Coordinates are the
/// desktop's pixels, the same as capture's.
pub trait Pointer {
    /// Where the pointer is now, once every event sent before has been
    /// taken in by the window system (a round trip): a click's release
    /// read back here has reached it.
    fn location(&mut self) -> Result<ScreenPoint, InputError>;

    /// Puts the pointer at `to`.
    fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError>;

    /// Presses (`true`) or releases the primary button where the pointer
    /// is: the one applications take as the left click, which is the
    /// right-hand button of a left-handed player's swapped mouse.
    fn button(&mut self, down: bool) -> Result<(), InputError>;

    /// Whether the primary button is down as the window system has taken
    /// the events in so far: a release sent reads up only once it has
    /// arrived.
    fn primary_down(&mut self) -> Result<bool, InputError>;
}

/// The player's desktop: its windows and its mouse.
pub trait Desktop {
    /// Every window the window system lists, front-most first, except the
    /// bot's own (its process, its terminal and the console it runs in).
    fn windows(&mut self) -> Result<Vec<WindowInfo>, CaptureError>;

    /// The window `info` describes, to watch.
    fn open(&mut self, info: &WindowInfo) -> Result<Box<dyn GameWindow>, CaptureError>;

    /// The mouse.
    fn pointer(&mut self) -> Result<Box<dyn Pointer>, InputError>;

    /// The window of the terminal (or console) the bot runs in, when it
    /// has one on this desktop: it may lie over the game's board.
    fn own_terminal(&mut self) -> Result<Option<WindowInfo>, CaptureError> {
        Ok(None)
    }

    /// The windows in front of `info` over its client area, the bot's own
    /// terminal included: what hides its board.
    fn in_front_of(&mut self, info: &WindowInfo) -> Result<Vec<WindowInfo>, CaptureError> {
        let window = self.open(info)?;
        window.covering(Region::whole(info.width, info.height))
    }

    /// The visible windows: shown, not minimised, not of zero size.
    fn visible_windows(&mut self) -> Result<Vec<WindowInfo>, CaptureError> {
        Ok(self
            .windows()?
            .into_iter()
            .filter(WindowInfo::is_visible)
            .collect())
    }
}

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

/// Whether the display is gone (its X server ended): asked when a
/// capture or an input fails. When it is, every run is asked to stop and
/// the faces end, as on a request to end ([`stop::end_asked`]).
pub fn display_lost() -> bool {
    // No display named is no display lost (the scripted desktop's runs).
    let lost = platform::check_display().is_ok() && !platform::display_alive();
    if lost {
        stop::display_closed();
    }
    lost
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
