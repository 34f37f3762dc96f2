//! One platform under one name: the floor calls `platform::...`, and
//! each platform module provides every function of the contract below,
//! those it has no use for doing nothing. X11 serves Linux and the BSDs;
//! macOS has its own (`macos.rs`, with the main thread's part in
//! `macos_main.rs`, its decisions in `macos_rules.rs`, tested
//! everywhere); Windows is `win32.rs`. The files that use the platform
//! (capture, input, the marks, the stop keys, the console, the bot's own
//! windows) stand above it; what the platform files say to them is below
//! them all ([`super::words`], [`super::screen`], [`super::asked`],
//! [`super::answers`](mod@super::answers)).

#[cfg(target_os = "macos")]
pub(super) use super::macos::*;
#[cfg(windows)]
pub(super) use super::win32::*;
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
pub(super) use super::x11::*;

/// The platform contract: every function a platform module (`x11.rs`,
/// `win32.rs`, `macos.rs`) provides, with its signature, checked by the compiler
/// against the platform built. A function added to one platform is added
/// here and to the others.
const _PLATFORM_CONTRACT: () = {
    use super::screen::{MonitorArea, ScreenPoint, ScreenRect};
    use super::words::{
        Button, CaptureError, GlobalKey, GrabError, InputError, Mark, Pressed, Stream,
    };
    use image::RgbaImage;
    // The process, before any window: DPI awareness (Windows).
    let _: fn() -> Result<(), String> = prepare;
    // The console the bot runs in (Windows; none under X11).
    let _: fn() -> bool = own_console;
    let _: fn() -> bool = console_closes_at_exit;
    let _: fn() -> Option<u32> = console_window;
    let _: fn() -> Result<(), String> = catch_console_end;
    // Windows' console (a Unix terminal is flushed by termios alike on
    // every Unix: `drop_typed_ahead` below).
    #[cfg(windows)]
    let _: fn() = drop_typed_ahead;
    let _: fn(Stream) -> Option<u32> = console_mode;
    let _: fn(Stream, u32) -> bool = set_console_mode;
    let _: fn(&std::path::Path) = show_in_explorer;
    let _: fn(&str, &str) = show_message;
    // Windows and processes.
    let _: fn() -> Result<(), CaptureError> = check_display;
    let _: fn() -> bool = display_alive;
    let _: fn(u32) -> Option<String> = wm_name;
    let _: fn(u32) -> Option<ScreenRect> = client_area;
    let _: fn(u32) -> bool = shown;
    // X11's hint window, made hidden: no keyboard when shown (Windows and
    // macOS show it so as winit makes it).
    #[cfg(not(any(windows, target_os = "macos")))]
    let _: fn(u32) -> Result<(), String> = unfocused_when_mapped;
    let _: fn() -> Option<Vec<MonitorArea>> = monitor_areas;
    let _: fn(ScreenPoint) -> Result<Option<u32>, String> = window_at;
    let _: fn(u32) -> Option<u32> = parent_of;
    // A monitor's DXGI colour space (HDR), by a window or a point.
    let _: fn(u32) -> Result<Option<i32>, String> = colour_space_of_window;
    let _: fn(ScreenPoint) -> Result<Option<i32>, String> = colour_space_at;
    let _: fn(u32) -> Option<u64> = started_at;
    let _: fn(u32) -> Option<String> = command_line_of;
    // The screen's pixels by desktop rectangle (X11's kept connection,
    // Windows' GDI, macOS' window server).
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
    let _: fn(u32) -> Result<(), String> = bring_to_front;
    let _: fn(u32, std::time::Duration) -> bool = answers;
    let _: fn() -> Result<(), String> = survive_window_errors;
    // The marks over the game's board: a window of the bot's own that
    // takes no click, shown, hidden, kept above, its events taken in.
    let _: fn() -> Result<Overlay, String> = Overlay::open;
    let _: fn(&mut Overlay, &[Mark]) -> Result<(), String> = Overlay::show;
    let _: fn(&mut Overlay) -> Result<(), String> = Overlay::hide;
    let _: fn(&mut Overlay) -> Result<bool, String> = Overlay::pump;
    let _: fn(&mut Overlay) -> Result<(), String> = Overlay::raise;
    // The key that stops a run from anywhere, held while the value lives.
    type Grab = Result<StopKeyGrab, GrabError>;
    let _: fn(GlobalKey, Pressed) -> Grab = StopKeyGrab::grab;
};
