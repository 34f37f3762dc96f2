//! The desktop on macOS: the window server's list and pictures and the
//! posted mouse events of CoreGraphics, the marks' windows of AppKit,
//! the stop key of Carbon's hot keys (which need no permission), and the
//! process table through libc; with the names the other platforms have,
//! doing nothing where a Mac has nothing to do (see `desktop::platform`).
//! The desktop's units are points, as the window list, the displays'
//! bounds and the mouse events are: a capture comes to one pixel a point
//! ([`macos_rules::to_points`](super::macos_rules::to_points)). What a
//! Mac decides differently is plain code in `desktop::macos_rules`,
//! tested on every platform. The `unsafe` here: the window list's
//! dictionaries, the process table's buffers and Carbon's functions, each
//! on values this module owns.
#![allow(unsafe_code)]

use std::ffi::c_void;
use std::sync::{Mutex, Once, PoisonError};

use dispatch2::run_on_main;
use image::RgbaImage;
use objc2::MainThreadMarker;
use objc2::rc::Retained;
use objc2_app_kit::{
    NSApplicationActivationOptions, NSBackingStoreType, NSColor, NSFloatingWindowLevel,
    NSRunningApplication, NSWindow, NSWindowCollectionBehavior, NSWindowSharingType,
    NSWindowStyleMask,
};
use objc2_core_foundation::{
    CFDictionary, CFNumber, CFRetained, CFString, CGPoint, CGRect, CGSize,
};
use objc2_core_graphics::{
    CGBitmapContextCreate, CGColorSpace, CGContext, CGDisplayBounds, CGEvent, CGEventField,
    CGEventSource, CGEventSourceStateID, CGEventTapLocation, CGEventType, CGImage,
    CGImageAlphaInfo, CGImageByteOrderInfo, CGInterpolationQuality, CGMainDisplayID, CGMouseButton,
    CGPreflightPostEventAccess, CGPreflightScreenCaptureAccess,
    CGRectMakeWithDictionaryRepresentation, CGRequestPostEventAccess, CGRequestScreenCaptureAccess,
    CGWindowImageOption, CGWindowListCopyWindowInfo, CGWindowListOption, kCGColorSpaceSRGB,
};

use super::macos_rules::{self, ListedWindow, Permission};
use super::screen::{MonitorArea, ScreenPoint, ScreenRect};
use super::words::{
    Asker, Button, CaptureError, GlobalKey, GrabError, InputError, Mark, Pressed, Stream,
};

/// Makes sure the process has its connection to the window server before
/// any capture (`CGMainDisplayID` opens it: a command line program that
/// captures first may otherwise find no display).
pub(super) fn prepare() -> Result<(), String> {
    let _ = CGMainDisplayID();
    Ok(())
}

/// The window server lasts as long as the player's session, and the
/// process with it.
pub(super) fn display_alive() -> bool {
    true
}

/// `Ok` when the bot may see the other apps' windows (Screen Recording,
/// `CGPreflightScreenCaptureAccess`, macOS 10.15+: without it the window
/// list has no titles and a capture shows the wallpaper, without an
/// error). Else macOS is asked once to prompt the player
/// (`CGRequestScreenCaptureAccess`, which adds the app to the list in
/// System Settings) and the error says what to do, for the app the
/// grant goes to.
pub(super) fn check_display() -> Result<(), CaptureError> {
    if CGPreflightScreenCaptureAccess() {
        return Ok(());
    }
    static ASKED: Once = Once::new();
    ASKED.call_once(|| {
        CGRequestScreenCaptureAccess();
    });
    Err(CaptureError::NoDesktop {
        cause: macos_rules::permission_words(Permission::ScreenRecording, &granted_app()),
    })
}

/// The app macOS gives the bot's permissions to: the first app among the
/// bot's process and its ancestors (the terminal for `bot`).
fn granted_app() -> String {
    let mut paths = Vec::new();
    let mut pid = Some(std::process::id());
    while let Some(p) = pid.filter(|&p| p > 1 && paths.len() < 32) {
        paths.extend(path_of(p));
        pid = parent_of(p);
    }
    macos_rules::responsible_app(paths.iter().map(String::as_str))
        .unwrap_or_else(|| "the app that started the bot".to_owned())
}

/// The executable's path of process `pid` (`proc_pidpath`, libc).
fn path_of(pid: u32) -> Option<String> {
    let mut buffer = vec![0u8; libc::PROC_PIDPATHINFO_MAXSIZE as usize];
    // SAFETY: the buffer is as long as said.
    let length = unsafe {
        libc::proc_pidpath(
            pid as libc::c_int,
            buffer.as_mut_ptr().cast(),
            buffer.len() as u32,
        )
    };
    let length = usize::try_from(length).ok().filter(|&l| l > 0)?;
    Some(String::from_utf8_lossy(&buffer[..length]).into_owned())
}

/// The mouse: events posted at the HID level (`CGEventPost`,
/// `kCGHIDEventTap`), as a mouse's own are, so the window under the
/// pointer takes them; each press a single click (its click state 1),
/// where enigo counts presses anywhere within the double-click interval
/// as one double click (enigo 0.6.1, `src/macos/macos_impl.rs`).
#[derive(Debug)]
pub(super) struct Mouse {
    /// The button held down, if any: a move then drags it.
    held: Option<Button>,
}

impl Mouse {
    /// The mouse, once macOS lets the bot post events (Accessibility,
    /// `CGPreflightPostEventAccess`, macOS 10.15+: without it every
    /// posted event is dropped without a word); else the prompt is asked
    /// for (`CGRequestPostEventAccess`) and the error says what to do.
    pub(super) fn connect() -> Result<Mouse, String> {
        if !CGPreflightPostEventAccess() {
            CGRequestPostEventAccess();
            return Err(macos_rules::permission_words(
                Permission::Accessibility,
                &granted_app(),
            ));
        }
        Ok(Mouse { held: None })
    }

    /// Where the pointer is, in points: a new event's location
    /// (`CGEventCreate(NULL)`, `CGEventGetLocation`), the window server's
    /// pointer once the events posted before are in.
    pub(super) fn location(&mut self) -> Result<ScreenPoint, InputError> {
        let event = CGEvent::new(None)
            .ok_or_else(|| InputError::Device("no event to read the pointer from".into()))?;
        let at = CGEvent::location(Some(&event));
        Ok(ScreenPoint::new(at.x.round() as i32, at.y.round() as i32))
    }

    /// Puts the pointer at `to` (points): a move, a drag while a button
    /// is held (what a hand on the mouse would send); returns once the
    /// window server has the pointer there (at most [`MOVE_WAIT`]): a
    /// posted event is taken in a moment later, and a read of the pointer
    /// before would take the old place for the player's hand.
    pub(super) fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
        let kind = match self.held {
            None => CGEventType::MouseMoved,
            Some(Button::Left) => CGEventType::LeftMouseDragged,
            Some(Button::Right) => CGEventType::RightMouseDragged,
            Some(Button::Middle) => CGEventType::OtherMouseDragged,
        };
        post(kind, to, self.held.map_or(CGMouseButton::Left, cg_button))?;
        let asked = std::time::Instant::now();
        while self.location()? != to && asked.elapsed() < MOVE_WAIT {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        Ok(())
    }

    /// Presses (`down`) or releases `button` where the pointer is.
    pub(super) fn press(&mut self, button: Button, down: bool) -> Result<(), InputError> {
        let kind = match (button, down) {
            (Button::Left, true) => CGEventType::LeftMouseDown,
            (Button::Left, false) => CGEventType::LeftMouseUp,
            (Button::Right, true) => CGEventType::RightMouseDown,
            (Button::Right, false) => CGEventType::RightMouseUp,
            (Button::Middle, true) => CGEventType::OtherMouseDown,
            (Button::Middle, false) => CGEventType::OtherMouseUp,
        };
        let at = self.location()?;
        post(kind, at, cg_button(button))?;
        self.held = down.then_some(button);
        Ok(())
    }

    /// Whether the primary button is down, as the window server has the
    /// events in (`CGEventSourceButtonState`, the combined session's
    /// state: posted events count).
    pub(super) fn primary_down(&self, _pressed: Option<Button>) -> Result<bool, String> {
        Ok(CGEventSource::button_state(
            CGEventSourceStateID::CombinedSessionState,
            CGMouseButton::Left,
        ))
    }

    /// The left button: macOS swaps a left-handed player's buttons
    /// before the events are made, so the left event is the primary.
    pub(super) fn primary(&self) -> Result<Button, String> {
        Ok(Button::Left)
    }
}

/// The longest [`Mouse::move_to`] waits for the pointer to be where it
/// was put.
const MOVE_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

fn cg_button(button: Button) -> CGMouseButton {
    match button {
        Button::Left => CGMouseButton::Left,
        Button::Right => CGMouseButton::Right,
        Button::Middle => CGMouseButton::Center,
    }
}

/// Posts one mouse event of `kind` at `at` (points), a single click.
fn post(kind: CGEventType, at: ScreenPoint, button: CGMouseButton) -> Result<(), InputError> {
    let point = CGPoint::new(f64::from(at.x), f64::from(at.y));
    let event = CGEvent::new_mouse_event(None, kind, point, button)
        .ok_or_else(|| InputError::Device("CoreGraphics made no mouse event".into()))?;
    CGEvent::set_integer_value_field(Some(&event), CGEventField::MouseEventClickState, 1);
    CGEvent::post(CGEventTapLocation::HIDEventTap, Some(&event));
    Ok(())
}

/// The screen's pixels: the window server's picture of a rectangle
/// (`CGWindowListCreateImage`, nominal resolution: one pixel a point),
/// the marks' windows left out (listed below them), in sRGB.
pub(crate) struct Pixels;

impl std::fmt::Debug for Pixels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pixels").finish()
    }
}

impl Pixels {
    /// Nothing to hold open: the window server is asked each time.
    pub(crate) fn connect() -> Result<Pixels, String> {
        Ok(Pixels)
    }

    /// The pixels of `area` (points) of the desktop, one a point.
    /// `CGWindowListCreateImage` is deprecated for ScreenCaptureKit
    /// (objc2-core-graphics 0.3.2 `CGWindow.rs`; the macOS 15 SDK's
    /// headers obsolete it, the system still has it) and is what xcap
    /// 0.9.8 captures with (`src/macos/capture.rs`). With
    /// `kCGWindowImageNominalResolution` the picture is the rectangle's
    /// size in points ("The returned image size is the same as the screen
    /// size", Apple's `CGWindowImageOption`); a picture at the backing
    /// scale anyway is brought to points.
    /// The pixels of each of `areas`, one picture each.
    pub(crate) fn grab_all(&self, areas: &[ScreenRect]) -> Result<Vec<RgbaImage>, String> {
        areas.iter().map(|&area| self.grab(area)).collect()
    }

    pub(crate) fn grab(&self, area: ScreenRect) -> Result<RgbaImage, String> {
        let rect = CGRect::new(
            CGPoint::new(f64::from(area.x), f64::from(area.y)),
            CGSize::new(f64::from(area.width), f64::from(area.height)),
        );
        // The windows below the front-most mark, when marks show: the
        // marks (and the menu bar's level above them) left out.
        let (option, below) = match front_mark() {
            Some(mark) => (CGWindowListOption::OptionOnScreenBelowWindow, mark),
            None => (CGWindowListOption::OptionOnScreenOnly, 0),
        };
        #[allow(deprecated)]
        let image = objc2_core_graphics::CGWindowListCreateImage(
            rect,
            option,
            below,
            CGWindowImageOption::NominalResolution,
        )
        .ok_or_else(|| "the window server gave no picture".to_owned())?;
        macos_rules::to_points(srgb_of(&image)?, area)
    }
}

/// A `CGImage`'s pixels in sRGB, as RGBA: drawn into an sRGB bitmap
/// context (`CGBitmapContextCreate` with `kCGColorSpaceSRGB`, 8 bits a
/// channel, the fourth byte skipped), which converts them from the
/// display's profile (Display P3 on a Mac's own screen): the calibration
/// and the vision read sRGB, as X11 and Windows captures are. Its size
/// kept: no resampling.
fn srgb_of(image: &CGImage) -> Result<RgbaImage, String> {
    let (width, height) = (CGImage::width(Some(image)), CGImage::height(Some(image)));
    // SAFETY: a constant string of CoreGraphics'.
    let name = unsafe { kCGColorSpaceSRGB };
    let srgb = CGColorSpace::with_name(Some(name)).ok_or("no sRGB colour space")?;
    let mut rgba = vec![0u8; width * height * 4];
    let info = CGImageAlphaInfo::NoneSkipLast.0 | CGImageByteOrderInfo::Order32Big.0;
    // SAFETY: the buffer holds `height` rows of `width * 4` bytes and
    // outlives the context, dropped below before it is read.
    let context = unsafe {
        CGBitmapContextCreate(
            rgba.as_mut_ptr().cast(),
            width,
            height,
            8,
            width * 4,
            Some(&srgb),
            info,
        )
    }
    .ok_or("no sRGB bitmap to draw the picture into")?;
    let whole = CGRect::new(
        CGPoint::new(0.0, 0.0),
        CGSize::new(width as f64, height as f64),
    );
    CGContext::set_interpolation_quality(Some(&context), CGInterpolationQuality::None);
    CGContext::draw_image(Some(&context), whole, Some(image));
    drop(context);
    for pixel in rgba.chunks_exact_mut(4) {
        pixel[3] = 255;
    }
    RgbaImage::from_raw(width as u32, height as u32, rgba)
        .ok_or_else(|| "the picture's size overflows".to_owned())
}

/// The windows the window server shows, front-most first (the desktop's
/// own left out): `CGWindowListCopyWindowInfo`, its required keys
/// (`kCGWindowNumber`, `kCGWindowLayer`, `kCGWindowBounds`,
/// `kCGWindowOwnerPID`, `kCGWindowAlpha`: Apple's "Required Window List
/// Keys").
fn listed_windows() -> Vec<ListedWindow> {
    let option =
        CGWindowListOption::OptionOnScreenOnly | CGWindowListOption::ExcludeDesktopElements;
    let Some(list) = CGWindowListCopyWindowInfo(option, 0) else {
        return Vec::new();
    };
    (0..list.count())
        .filter_map(|i| {
            // SAFETY: the list holds dictionaries, alive with it.
            let entry = unsafe { list.value_at_index(i).cast::<CFDictionary>().as_ref()? };
            listed(entry)
        })
        .collect()
}

/// One window of the list, from its dictionary.
fn listed(entry: &CFDictionary) -> Option<ListedWindow> {
    let number = |key| value::<CFNumber>(entry, key);
    let bounds = value::<CFDictionary>(entry, "kCGWindowBounds")?;
    let mut rect = CGRect::default();
    // SAFETY: a rectangle to write, a dictionary to read.
    if !unsafe { CGRectMakeWithDictionaryRepresentation(Some(bounds), &mut rect) } {
        return None;
    }
    Some(ListedWindow {
        id: u32::try_from(number("kCGWindowNumber")?.as_i64()?).ok()?,
        pid: u32::try_from(number("kCGWindowOwnerPID")?.as_i64()?).ok()?,
        layer: i32::try_from(number("kCGWindowLayer")?.as_i64()?).ok()?,
        alpha: number("kCGWindowAlpha")?.as_f64()?,
        bounds: ScreenRect {
            x: rect.origin.x.round() as i32,
            y: rect.origin.y.round() as i32,
            width: rect.size.width.round().max(0.0) as u32,
            height: rect.size.height.round().max(0.0) as u32,
        },
    })
}

/// The value of `key` in a window's dictionary, of the type its key
/// documents (CGWindow.h: numbers, the bounds a dictionary).
fn value<'a, T>(entry: &'a CFDictionary, key: &str) -> Option<&'a T> {
    let key: CFRetained<CFString> = CFString::from_str(key);
    let key: *const CFString = &*key;
    // SAFETY: the key is a CFString; the value, when there, is the
    // documented type and lives as long as the dictionary.
    unsafe { entry.value(key.cast()).cast::<T>().as_ref() }
}

/// The window a press at `point` would go to (see
/// [`macos_rules::window_at`]).
pub(super) fn window_at(point: ScreenPoint) -> Result<Option<u32>, String> {
    Ok(macos_rules::window_at(
        &listed_windows(),
        point,
        std::process::id(),
    ))
}

/// Whether window `id` is on the screen: in the window server's list of
/// the windows shown (a minimised window, or one on another Space, is
/// not).
pub(super) fn shown(id: u32) -> bool {
    listed_windows().iter().any(|w| w.id == id)
}

/// The list's name is the title already.
pub(super) fn wm_name(_id: u32) -> Option<String> {
    None
}

/// No public call gives another app's content rectangle without
/// Accessibility: the bounds (title bar in) are the window's, and the
/// board is found inside.
pub(super) fn client_area(_id: u32) -> Option<ScreenRect> {
    None
}

/// xcap's monitors are in points already (`CGDisplayBounds`), each taken
/// whole as its work area: NSScreen's `visibleFrame` (the menu bar and
/// the Dock left out) is asked on the main thread only, which is not
/// done yet.
pub(super) fn monitor_areas() -> Option<Vec<MonitorArea>> {
    None
}

/// A Mac's window server says an app does not answer with its own
/// spinning cursor; nothing asks it here: taken as answering.
pub(super) fn answers(_id: u32, _wait: std::time::Duration) -> bool {
    true
}

/// Brings the app of window `id` (the bot's terminal) to the front:
/// `-[NSRunningApplication activateWithOptions:]` for its process.
pub(super) fn bring_to_front(id: u32) -> Result<(), String> {
    let pid = listed_windows()
        .iter()
        .find(|w| w.id == id)
        .map(|w| w.pid)
        .ok_or_else(|| format!("window {id} is not shown"))?;
    let app = NSRunningApplication::runningApplicationWithProcessIdentifier(pid as libc::pid_t)
        .ok_or_else(|| format!("process {pid} is no app"))?;
    if app.activateWithOptions(NSApplicationActivationOptions::ActivateAllWindows) {
        Ok(())
    } else {
        Err(format!(
            "macOS did not bring process {pid}'s app to the front"
        ))
    }
}

/// The app is ended from outside (`terminate:`: the Dock's Quit, the
/// menu's Command-Q, the log-out), a request to end the process: a stop
/// asked for, a click in progress released (see `stop::ending`).
pub(super) fn terminating() {
    super::asked::ending(Asker::EndRequest, || {
        let mut mouse = Mouse {
            held: Some(Button::Left),
        };
        if let Err(error) = mouse.press(Button::Left, false) {
            log::debug!("the button not released at the end: {error}");
        }
    });
}

/// No X connection to lose.
pub(super) fn survive_window_errors() -> Result<(), String> {
    Ok(())
}

// What Windows alone needs, which a Mac has no use for: the same names.

/// A terminal here has no console mode.
pub(super) fn console_mode(_: Stream) -> Option<u32> {
    None
}

/// See [`console_mode`]: nothing to set.
pub(super) fn set_console_mode(_: Stream, _: u32) -> bool {
    false
}

/// Reveals `path` in the Finder (`open -R`).
pub(super) fn show_in_explorer(path: &std::path::Path) {
    if let Err(error) = std::process::Command::new("open")
        .arg("-R")
        .arg(path)
        .status()
    {
        log::debug!("the Finder not opened on {}: {error}", path.display());
    }
}

/// The bot never owns the terminal it runs in.
pub(super) fn own_console() -> bool {
    false
}

/// See [`own_console`].
pub(super) fn console_closes_at_exit() -> bool {
    false
}

/// The terminal is one of the bot's ancestors, found as such.
pub(super) fn console_window() -> Option<u32> {
    None
}

/// No console to be closed under the bot.
pub(super) fn catch_console_end() -> Result<(), String> {
    Ok(())
}

/// No HDR colour space to read: a Mac's captures come in the display's
/// profile instead.
pub(super) fn colour_space_of_window(_id: u32) -> Result<Option<i32>, String> {
    Ok(None)
}

/// See [`colour_space_of_window`].
pub(super) fn colour_space_at(_point: ScreenPoint) -> Result<Option<i32>, String> {
    Ok(None)
}

/// A failure said where a program started from the Finder shows it: an
/// alert (`osascript`'s `display alert`), waited for.
pub(super) fn show_message(title: &str, text: &str) {
    let script = macos_rules::alert_script(title, text);
    if let Err(error) = std::process::Command::new("osascript")
        .args(["-e", &script])
        .status()
    {
        log::debug!("no alert shown: {error}");
    }
}

/// The parent of process `pid`: `proc_pidinfo(PROC_PIDT_SHORTBSDINFO)`,
/// which answers for the root-owned `login` between a terminal and its
/// shell too (`PROC_PIDTBSDINFO` answers only for the user's own).
pub(super) fn parent_of(pid: u32) -> Option<u32> {
    // SAFETY: plain data, all zeros a valid value.
    let mut info: libc::proc_bsdshortinfo = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::proc_bsdshortinfo>() as libc::c_int;
    // SAFETY: the buffer is the structure, its size said.
    let written = unsafe {
        libc::proc_pidinfo(
            pid as libc::c_int,
            libc::PROC_PIDT_SHORTBSDINFO,
            0,
            (&raw mut info).cast(),
            size,
        )
    };
    (written == size && info.pbsi_ppid != 0).then_some(info.pbsi_ppid)
}

/// `sysctl`'s answer to `name`, at most `capacity` bytes.
fn sysctl(name: &mut [libc::c_int], capacity: usize) -> Option<Vec<u8>> {
    let mut buffer = vec![0u8; capacity];
    let mut length = buffer.len();
    // SAFETY: the name's and the buffer's lengths are theirs.
    let failed = unsafe {
        libc::sysctl(
            name.as_mut_ptr(),
            name.len() as libc::c_uint,
            buffer.as_mut_ptr().cast::<c_void>(),
            &mut length,
            std::ptr::null_mut(),
            0,
        )
    };
    (failed == 0).then(|| {
        buffer.truncate(length);
        buffer
    })
}

/// When process `pid` started, in microseconds since 1970: its
/// `kinfo_proc` (`sysctl(CTL_KERN, KERN_PROC, KERN_PROC_PID)`, 648 bytes
/// on 64-bit macOS, asked with room to spare: sysctl says how much it
/// wrote), which needs no permission.
pub(super) fn started_at(pid: u32) -> Option<u64> {
    let mut name = [
        libc::CTL_KERN,
        libc::KERN_PROC,
        libc::KERN_PROC_PID,
        pid as libc::c_int,
    ];
    macos_rules::start_time_of(&sysctl(&mut name, 1024)?)
}

/// The command line of process `pid`, its words joined by spaces
/// (`sysctl(CTL_KERN, KERN_PROCARGS2)`: the user's own processes).
pub(super) fn command_line_of(pid: u32) -> Option<String> {
    let mut name = [libc::CTL_KERN, libc::KERN_PROCARGS2, pid as libc::c_int];
    macos_rules::command_line_of_procargs(&sysctl(&mut name, 256 * 1024)?)
}

/// The marks' windows' numbers, in the order they were brought to the
/// front (the last is the front-most): left out of the bot's own
/// captures.
static MARKS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// The front-most mark's window: a capture of what is below it leaves
/// out every mark.
fn front_mark() -> Option<u32> {
    MARKS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .last()
        .copied()
}

thread_local! {
    /// The marks' windows, on the main thread (AppKit's windows live
    /// there): one borderless window a rectangle.
    static MARK_WINDOWS: std::cell::RefCell<Vec<Retained<NSWindow>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The marks over the game's board: one borderless window a rectangle,
/// filled with its colour, above the apps' windows (the floating level),
/// taking no click (`ignoresMouseEvents`), no shadow, on every Space, out
/// of the window cycle; shown without taking the keyboard
/// (`orderFrontRegardless`). AppKit's, made on the main thread through
/// `dispatch2::run_on_main` once the windows' event loop runs there
/// (winit must make NSApplication itself). `sharingType` none keeps them
/// out of other apps' older captures (a "legacy constant" now, Apple's
/// `NSWindow.SharingType`); the bot's own captures leave them out by
/// their numbers.
#[derive(Debug)]
pub(super) struct Overlay {
    shown: bool,
}

impl Overlay {
    /// The marks, none made yet; an error where the main thread does not
    /// serve the bot's windows.
    pub(super) fn open() -> Result<Overlay, String> {
        start_windows()?;
        Ok(Overlay { shown: false })
    }

    /// Shows `marks` (points), one window a rectangle, and waits for the
    /// window server to draw them (two frames).
    pub(super) fn show(&mut self, marks: &[Mark]) -> Result<(), String> {
        if super::answers::bounds(marks).is_none() {
            return self.hide();
        }
        let rects: Vec<(ScreenRect, [u8; 3])> = marks
            .iter()
            .flat_map(|m| m.rects.iter().map(|&r| (r, m.colour)))
            .collect();
        let main_height = CGDisplayBounds(CGMainDisplayID()).size.height;
        let numbers = run_on_main(move |mtm| show_marks(mtm, &rects, main_height))?;
        *MARKS.lock().unwrap_or_else(PoisonError::into_inner) = numbers;
        self.shown = true;
        std::thread::sleep(std::time::Duration::from_millis(35));
        Ok(())
    }

    /// Hides the marks.
    pub(super) fn hide(&mut self) -> Result<(), String> {
        run_on_main(|_| {
            MARK_WINDOWS.with_borrow(|windows| windows.iter().for_each(|w| w.orderOut(None)))
        });
        MARKS.lock().unwrap_or_else(PoisonError::into_inner).clear();
        self.shown = false;
        Ok(())
    }

    /// Nothing to take in: the main thread's loop takes the windows'
    /// events; never covered (the floating level is above the apps').
    pub(super) fn pump(&mut self) -> Result<bool, String> {
        Ok(false)
    }

    /// Puts the marks in front again.
    pub(super) fn raise(&mut self) -> Result<(), String> {
        if self.shown {
            run_on_main(|_| {
                MARK_WINDOWS
                    .with_borrow(|windows| windows.iter().for_each(|w| w.orderFrontRegardless()))
            });
        }
        Ok(())
    }
}

impl Drop for Overlay {
    fn drop(&mut self) {
        if self.shown {
            self.hide().ok();
        }
    }
}

/// On the main thread: the marks' windows placed and filled, as many as
/// `rects`, the others hidden; their numbers.
fn show_marks(
    mtm: MainThreadMarker,
    rects: &[(ScreenRect, [u8; 3])],
    main_height: f64,
) -> Result<Vec<u32>, String> {
    MARK_WINDOWS.with_borrow_mut(|windows| {
        while windows.len() < rects.len() {
            windows.push(mark_window(mtm));
        }
        for window in &windows[rects.len()..] {
            window.orderOut(None);
        }
        let mut numbers = Vec::new();
        for (window, &(rect, [r, g, b])) in windows.iter().zip(rects) {
            let [x, y, width, height] = macos_rules::appkit_frame(rect, main_height);
            let frame = CGRect::new(CGPoint::new(x, y), CGSize::new(width, height));
            window.setFrame_display(frame, true);
            let colour = |c: u8| f64::from(c) / 255.0;
            window.setBackgroundColor(Some(&NSColor::colorWithSRGBRed_green_blue_alpha(
                colour(r),
                colour(g),
                colour(b),
                1.0,
            )));
            window.orderFrontRegardless();
            numbers.push(u32::try_from(window.windowNumber()).map_err(|e| e.to_string())?);
        }
        Ok(numbers)
    })
}

/// One mark's window (see [`Overlay`]).
fn mark_window(mtm: MainThreadMarker) -> Retained<NSWindow> {
    let frame = CGRect::new(CGPoint::new(0.0, 0.0), CGSize::new(1.0, 1.0));
    // SAFETY: a window AppKit owns, released by its last Retained (not
    // when closed: `releasedWhenClosed` off).
    let window = unsafe {
        let window = NSWindow::initWithContentRect_styleMask_backing_defer(
            mtm.alloc(),
            frame,
            NSWindowStyleMask::Borderless,
            NSBackingStoreType::Buffered,
            false,
        );
        window.setReleasedWhenClosed(false);
        window
    };
    window.setOpaque(true);
    window.setHasShadow(false);
    window.setIgnoresMouseEvents(true);
    window.setLevel(NSFloatingWindowLevel);
    window.setSharingType(NSWindowSharingType::None);
    window.setCollectionBehavior(
        NSWindowCollectionBehavior::CanJoinAllSpaces
            | NSWindowCollectionBehavior::Stationary
            | NSWindowCollectionBehavior::IgnoresCycle,
    );
    window
}

/// The windows' event loop started on the main thread (winit must make
/// NSApplication before AppKit's windows or Carbon's hot keys are used
/// there), and the main thread serving calls.
fn start_windows() -> Result<(), String> {
    super::macos_main::start_windows()
}

/// Carbon's hot keys (`Carbon.framework`, `HIToolbox/CarbonEvents.h`):
/// the one global shortcut a program may take without Accessibility or
/// Input Monitoring, what the global-hotkey crate uses
/// (tauri-apps/global-hotkey, `src/platform_impl/macos/mod.rs`).
mod carbon {
    use std::ffi::c_void;

    pub(super) type OsStatus = i32;
    pub(super) type EventTargetRef = *mut c_void;
    pub(super) type EventHotKeyRef = *mut c_void;
    pub(super) type EventRef = *mut c_void;
    pub(super) type EventHandlerCallRef = *mut c_void;
    pub(super) type EventHandlerRef = *mut c_void;
    pub(super) type EventHandler =
        extern "C" fn(EventHandlerCallRef, EventRef, *mut c_void) -> OsStatus;

    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    pub(super) struct EventHotKeyId {
        pub(super) signature: u32,
        pub(super) id: u32,
    }

    #[repr(C)]
    pub(super) struct EventTypeSpec {
        pub(super) event_class: u32,
        pub(super) event_kind: u32,
    }

    /// `kEventClassKeyboard`, `kEventHotKeyPressed`.
    pub(super) const CLASS_KEYBOARD: u32 = u32::from_be_bytes(*b"keyb");
    pub(super) const HOT_KEY_PRESSED: u32 = 5;
    /// `kEventParamDirectObject`, `typeEventHotKeyID`.
    pub(super) const PARAM_DIRECT_OBJECT: u32 = u32::from_be_bytes(*b"----");
    pub(super) const TYPE_HOT_KEY_ID: u32 = u32::from_be_bytes(*b"hkid");
    /// `eventHotKeyExistsErr`: another program holds the chord.
    pub(super) const HOT_KEY_EXISTS: OsStatus = -9878;

    #[link(name = "Carbon", kind = "framework")]
    unsafe extern "C" {
        pub(super) fn GetApplicationEventTarget() -> EventTargetRef;
        pub(super) fn InstallEventHandler(
            target: EventTargetRef,
            handler: EventHandler,
            count: usize,
            types: *const EventTypeSpec,
            user_data: *mut c_void,
            handler_ref: *mut EventHandlerRef,
        ) -> OsStatus;
        pub(super) fn RegisterEventHotKey(
            key_code: u32,
            modifiers: u32,
            id: EventHotKeyId,
            target: EventTargetRef,
            options: u32,
            hot_key: *mut EventHotKeyRef,
        ) -> OsStatus;
        pub(super) fn UnregisterEventHotKey(hot_key: EventHotKeyRef) -> OsStatus;
        pub(super) fn GetEventParameter(
            event: EventRef,
            name: u32,
            desired_type: u32,
            actual_type: *mut u32,
            size: usize,
            actual_size: *mut usize,
            data: *mut c_void,
        ) -> OsStatus;
    }
}

/// The hot keys' signature, `dstb`: the bot's among the process's.
const HOT_KEY_SIGNATURE: u32 = u32::from_be_bytes(*b"dstb");

/// What each hot key held calls when pressed, by its id.
static PRESSED: Mutex<Vec<(u32, Pressed)>> = Mutex::new(Vec::new());

/// Carbon's handler of hot key presses, on the main thread: calls the
/// press's [`super::stop::Pressed`].
extern "C" fn on_hot_key(
    _next: carbon::EventHandlerCallRef,
    event: carbon::EventRef,
    _data: *mut c_void,
) -> carbon::OsStatus {
    let mut id = carbon::EventHotKeyId::default();
    // SAFETY: Carbon's event, read into a value of the type asked for.
    let status = unsafe {
        carbon::GetEventParameter(
            event,
            carbon::PARAM_DIRECT_OBJECT,
            carbon::TYPE_HOT_KEY_ID,
            std::ptr::null_mut(),
            std::mem::size_of::<carbon::EventHotKeyId>(),
            std::ptr::null_mut(),
            (&raw mut id).cast(),
        )
    };
    if status == 0 && id.signature == HOT_KEY_SIGNATURE {
        let pressed = PRESSED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, pressed)) = pressed.iter().find(|(held, _)| *held == id.id) {
            pressed();
        }
    }
    0
}

/// The key that stops a run from anywhere (`RegisterEventHotKey` on the
/// application's target, on the main thread while the windows' loop
/// runs there), held until dropped. The chords are the Mac's
/// ([`macos_rules::carbon_hot_key`]): Control-Shift-Delete, and F15
/// for Pause.
pub(super) struct StopKeyGrab {
    /// Carbon's reference, as an address (it is used on the main thread
    /// alone).
    hot_key: usize,
    id: u32,
}

impl std::fmt::Debug for StopKeyGrab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopKeyGrab")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl StopKeyGrab {
    /// Registers `key` as a hot key; `Taken` when another program holds
    /// it (`eventHotKeyExistsErr`).
    pub(super) fn grab(key: GlobalKey, pressed: Pressed) -> Result<StopKeyGrab, GrabError> {
        let (modifiers, code) = macos_rules::carbon_hot_key(key.hot_key)
            .ok_or_else(|| GrabError::Failed(format!("{} has no key on a Mac", key.name)))?;
        start_windows().map_err(GrabError::Failed)?;
        let id = key.id as u32;
        PRESSED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((id, pressed));
        let registered = run_on_main(move |_| register(code, modifiers, id));
        match registered {
            Ok(hot_key) => Ok(StopKeyGrab { hot_key, id }),
            Err(error) => {
                forget(id);
                Err(error)
            }
        }
    }
}

/// On the main thread: the handler installed (once), the hot key
/// registered; its reference as an address.
fn register(code: u32, modifiers: u32, id: u32) -> Result<usize, GrabError> {
    static HANDLER: Mutex<Option<carbon::OsStatus>> = Mutex::new(None);
    let mut installed = HANDLER.lock().unwrap_or_else(PoisonError::into_inner);
    let status = *installed.get_or_insert_with(|| {
        let pressed = carbon::EventTypeSpec {
            event_class: carbon::CLASS_KEYBOARD,
            event_kind: carbon::HOT_KEY_PRESSED,
        };
        // SAFETY: the handler is a function for the process's life; the
        // type list is read during the call.
        unsafe {
            carbon::InstallEventHandler(
                carbon::GetApplicationEventTarget(),
                on_hot_key,
                1,
                &pressed,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        }
    });
    if status != 0 {
        return Err(GrabError::Failed(format!(
            "Carbon's handler of hot keys not installed (OSStatus {status})"
        )));
    }
    let mut hot_key: carbon::EventHotKeyRef = std::ptr::null_mut();
    let hot_key_id = carbon::EventHotKeyId {
        signature: HOT_KEY_SIGNATURE,
        id,
    };
    // SAFETY: plain values; the reference is written on success.
    let status = unsafe {
        carbon::RegisterEventHotKey(
            code,
            modifiers,
            hot_key_id,
            carbon::GetApplicationEventTarget(),
            0,
            &mut hot_key,
        )
    };
    match status {
        0 => Ok(hot_key as usize),
        carbon::HOT_KEY_EXISTS => Err(GrabError::Taken),
        other => Err(GrabError::Failed(format!(
            "RegisterEventHotKey: OSStatus {other}"
        ))),
    }
}

/// Forgets what hot key `id`'s press calls.
fn forget(id: u32) {
    PRESSED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|(held, _)| *held != id);
}

impl Drop for StopKeyGrab {
    fn drop(&mut self) {
        let hot_key = self.hot_key;
        run_on_main(move |_| {
            // SAFETY: the reference RegisterEventHotKey gave, once.
            unsafe { carbon::UnregisterEventHotKey(hot_key as carbon::EventHotKeyRef) };
        });
        forget(self.id);
    }
}
