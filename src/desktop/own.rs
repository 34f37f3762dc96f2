//! The bot's own windows (the desktop app's, the practice window, the
//! hint window): one type over `winit` (the window and its events) and
//! `softbuffer` (its pixels), so that the window toolkit stays on this
//! floor. A window shows a picture of 0RGB words, tells each press of
//! the primary button and where it was, each press and release of a key
//! (a letter or a digit as the player's layout types it, or a named key:
//! [`Key`]; what it means is the window owner's), its scale and when that
//! changed (moved to a monitor of another scale), and says whether it is
//! still there: closed by the player, or destroyed by another program.
//!
//! winit allows one event loop per process, made once (a second is
//! `EventLoopError::RecreationAttempt`, even after the first is gone), and
//! a window lives on the loop's thread. So every window of the process
//! lives on one thread of its own, made at the first window and running
//! the loop for the process's life: any thread may open windows, several
//! times, and a window answers its events (an expose, a click) at once,
//! however long its owner takes between two looks. The owner's
//! [`OwnWindow`] asks that thread ([`Ask`]) and reads what it heard
//! ([`Inbox`]).

use std::collections::{HashMap, VecDeque};
use std::num::NonZeroU32;
use std::rc::Rc;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, mpsc};
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop, EventLoopProxy, OwnedDisplayHandle};
use winit::keyboard::{Key as Logical, KeyCode, KeyLocation, NamedKey, PhysicalKey};
use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::window::{Window, WindowButtons, WindowId, WindowLevel};

#[cfg(target_os = "macos")]
use super::macos_main as mac;
use super::platform;

/// How a window of the bot's stands among the others as it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// A window the player works in (the app's, the practice window): as
    /// the others are, taking the keyboard as it opens.
    Own,
    /// A window beside the game (the hint window): above the others, and
    /// opened without taking the keyboard from the game or the terminal,
    /// whose keys the player is typing.
    Aside,
}

/// A key as the bot's windows hear it: a character, or a named key.
/// What a key means is the window's own (the app's keymap is the app's
/// face's, `gui`; the practice and hint windows read theirs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A key that types a letter or a digit, as the player knows it
    /// ([`crate::text::answer`]: the letter lower case, AZERTY's number
    /// row as its digits); the keypad's digits by their place.
    Char(char),
    Escape,
    Space,
    Enter,
    /// The keypad's Enter, a key of its own.
    NumPadEnter,
}

impl Key {
    /// The key of an event: the keypad's digits by their place (a keypad
    /// has one layout, and without NumLock they type no digit), Escape,
    /// Space and the two Enters by their names, the others by the
    /// character they type in the player's layout ([`Key::typed`]): a
    /// key's place would make AZERTY's `a` a `q` and its number row type
    /// no digit.
    fn of(logical: &Logical, physical: PhysicalKey, location: KeyLocation) -> Option<Key> {
        if let Some(key) = Key::keypad(physical) {
            return Some(key);
        }
        match logical {
            Logical::Named(NamedKey::Escape) => Some(Key::Escape),
            Logical::Named(NamedKey::Space) => Some(Key::Space),
            Logical::Named(NamedKey::Enter) if location == KeyLocation::Numpad => {
                Some(Key::NumPadEnter)
            }
            Logical::Named(NamedKey::Enter) => Some(Key::Enter),
            Logical::Character(text) => {
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Key::typed(c),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The key that typed `c` in the player's layout, as the player knows
    /// it: the letters as typed (lower case, shifted or not: a press and
    /// its release are one key), the digits of the top row (AZERTY's
    /// `& é " '` too); `None` for a key that types neither.
    fn typed(c: char) -> Option<Key> {
        crate::text::answer(c).map(Key::Char)
    }

    /// The keypad's digits, by their place.
    fn keypad(physical: PhysicalKey) -> Option<Key> {
        let PhysicalKey::Code(code) = physical else {
            return None;
        };
        let digit = match code {
            KeyCode::Numpad0 => '0',
            KeyCode::Numpad1 => '1',
            KeyCode::Numpad2 => '2',
            KeyCode::Numpad3 => '3',
            KeyCode::Numpad4 => '4',
            KeyCode::Numpad5 => '5',
            KeyCode::Numpad6 => '6',
            KeyCode::Numpad7 => '7',
            KeyCode::Numpad8 => '8',
            KeyCode::Numpad9 => '9',
            _ => return None,
        };
        Some(Key::Char(digit))
    }
}

/// The ids of the windows this process has open: the window list leaves
/// them out, whatever it reads of their process.
static OPEN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn open_ids() -> MutexGuard<'static, Vec<u32>> {
    OPEN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether the window `id` is one this process has open.
pub(super) fn is_ours(id: u32) -> bool {
    open_ids().contains(&id)
}

/// What the windows' thread heard for one window, and the picture its
/// owner shows in it, shared between the two.
#[derive(Debug, Default)]
struct Inbox {
    /// The presses of the primary button not yet taken, where each was.
    presses: VecDeque<(f32, f32)>,
    /// The keys' presses and releases not yet told, in order.
    keys: VecDeque<(Key, bool)>,
    /// The keys held now.
    held: Vec<Key>,
    /// The keys held since before the window (or its question) asked:
    /// their presses count only after their release.
    stale: Vec<Key>,
    closed: bool,
    destroyed: bool,
    scales: Scales,
    /// The picture shown: 0RGB words, row by row, and its size.
    pixels: Vec<u32>,
    size: (usize, usize),
    /// Where its owner asked the window's frame to go, until it is there
    /// ([`OwnWindow::wait_placed`]).
    placing: Option<(i32, i32)>,
}

/// A window's scale as the toolkit reads it, and the scale its owner
/// draws for: a change of the one the other has not followed is drawn
/// for ([`OwnWindow::rescaled`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scales {
    now: f64,
    drawn_for: f64,
}

impl Default for Scales {
    fn default() -> Scales {
        Scales::at(1.0)
    }
}

impl Scales {
    fn at(scale: f64) -> Scales {
        Scales {
            now: scale,
            drawn_for: scale,
        }
    }

    /// The bot moved the window itself, at the size it chose for the
    /// monitor it lands on: its scale there, `landed`, is drawn for
    /// already. On Windows the move's `WM_DPICHANGED` comes within the
    /// move (`SetWindowPos`), and winit reads its scale then
    /// (`window_state.scale_factor`), telling `ScaleFactorChanged` after:
    /// followed, it would draw at the target's scale times the change,
    /// twice scaled (0.67x or 1.5x between 100% and 150%).
    fn moved_by_owner(&mut self, landed: f64) {
        *self = Scales::at(landed);
    }

    /// The toolkit tells the window's scale changed (a move by the
    /// player, the desktop's scale changed, or the bot's own move told).
    fn changed(&mut self, scale: f64) {
        self.now = scale;
    }

    /// By how much the scale changed since it was last drawn for, when it
    /// did; drawn for from now on.
    fn rescaled(&mut self) -> Option<f32> {
        if self.now == self.drawn_for {
            return None;
        }
        let by = self.now / self.drawn_for;
        self.drawn_for = self.now;
        Some(by as f32)
    }
}

type Shared = Arc<Mutex<Inbox>>;

fn inbox(shared: &Shared) -> MutexGuard<'_, Inbox> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What an owner asks the windows' thread.
enum Ask {
    Open {
        title: String,
        size: (usize, usize),
        standing: Standing,
        at: Option<(i32, i32)>,
        opened: mpsc::Sender<Result<(WindowId, u32, Shared), String>>,
    },
    /// Draw the picture in the window's inbox.
    Show(WindowId),
    Title(WindowId, String),
    Place(WindowId, (i32, i32)),
    Resize(WindowId, (usize, usize)),
    /// Destroy the window, then say so.
    Close(WindowId, mpsc::Sender<()>),
    /// Destroy every window and end the event loop: the process ends.
    End,
}

/// A window on the windows' thread.
struct Live {
    window: Rc<Window>,
    surface: softbuffer::Surface<OwnedDisplayHandle, Rc<Window>>,
    shared: Shared,
    /// Its client area's size, as asked: kept through a change of scale
    /// until the owner draws for the new one.
    size: PhysicalSize<u32>,
    /// Where the pointer was last seen in the client area: a press event
    /// tells no place.
    pointer: Option<(f32, f32)>,
}

impl Live {
    /// Draws the picture shown (again, for an expose: no compositor keeps
    /// a covered window's pixels).
    fn draw(&mut self) -> Result<(), String> {
        let inbox = inbox(&self.shared);
        let (width, height) = inbox.size;
        let (Some(w), Some(h)) = (
            NonZeroU32::new(width as u32),
            NonZeroU32::new(height as u32),
        ) else {
            return Ok(());
        };
        let text = |e: softbuffer::SoftBufferError| e.to_string();
        self.surface.resize(w, h).map_err(text)?;
        let mut buffer = self.surface.buffer_mut().map_err(text)?;
        buffer.copy_from_slice(&inbox.pixels);
        buffer.present().map_err(text)
    }
}

/// The windows' thread's state: the windows open, and softbuffer's
/// connection to the display, made with the first.
#[derive(Default)]
struct Windows {
    live: HashMap<WindowId, Live>,
    context: Option<softbuffer::Context<OwnedDisplayHandle>>,
}

impl Windows {
    fn open(
        &mut self,
        event_loop: &ActiveEventLoop,
        title: &str,
        (width, height): (usize, usize),
        standing: Standing,
        at: Option<(i32, i32)>,
    ) -> Result<(WindowId, u32, Shared), String> {
        let size = PhysicalSize::new(width as u32, height as u32);
        let attributes = attributes(title, size, standing, at);
        let window = Rc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| e.to_string())?,
        );
        let id = id_of(&window)?;
        #[cfg(not(any(windows, target_os = "macos")))]
        if standing == Standing::Aside {
            // Untold, the window manager decides: shown all the same.
            if let Err(error) = platform::unfocused_when_mapped(id) {
                log::warn!("the window manager may give the hint window the keyboard: {error}");
            }
            window.set_visible(true);
            // As winit does after a map: the window manager takes no
            // state of a window it does not manage yet.
            window.set_window_level(WindowLevel::AlwaysOnTop);
        }
        let context = match self.context.take() {
            Some(context) => context,
            None => softbuffer::Context::new(event_loop.owned_display_handle())
                .map_err(|e| e.to_string())?,
        };
        let surface = softbuffer::Surface::new(&context, Rc::clone(&window));
        self.context = Some(context);
        let shared = Arc::new(Mutex::new(Inbox {
            scales: Scales::at(window.scale_factor()),
            ..Inbox::default()
        }));
        let live = Live {
            surface: surface.map_err(|e| e.to_string())?,
            window,
            shared: Arc::clone(&shared),
            size,
            pointer: None,
        };
        let window_id = live.window.id();
        self.live.insert(window_id, live);
        Ok((window_id, id, shared))
    }
}

/// What a window is made with: its client area `size`, fixed (the
/// pictures are drawn for it), and its standing. A window aside is
/// `WS_EX_TOPMOST` on Windows (`WindowLevel::AlwaysOnTop`) and shown with
/// `SW_SHOWNOACTIVATE` (winit 0.30's `with_active(false)`: the window's
/// first `ShowWindow`, `window_state.rs` `apply_diff`), so that the
/// game keeps the keyboard. On X11 winit does not apply it (its docs:
/// "X11: Unsupported"): the window is made hidden, and shown once the
/// window manager is told not to focus it ([`Windows::open`]).
///
/// `at`, the frame's top-left asked for, is where an X11 window is made
/// (winit's `USPosition`), so that the window manager maps it there and
/// nowhere first. Windows and macOS make the window where the system puts
/// it and [`OwnWindow::open`] places it then, as every move of the bot's:
/// winit shows a Windows window before it moves it to a position given
/// (`set_visible` comes first in its `init`): shown at the system's
/// place first all the same; on macOS the position given is the
/// content's, not the frame's.
fn attributes(
    title: &str,
    size: PhysicalSize<u32>,
    standing: Standing,
    at: Option<(i32, i32)>,
) -> winit::window::WindowAttributes {
    let attributes = Window::default_attributes();
    // The taskbar's button takes the large icon (Windows: `ICON_BIG`);
    // the title bar and Alt+Tab the window's.
    #[cfg(windows)]
    let attributes = winit::platform::windows::WindowAttributesExtWindows::with_taskbar_icon(
        attributes,
        window_icon(),
    );
    let attributes = attributes
        .with_window_icon(window_icon())
        .with_title(title)
        .with_inner_size(size)
        .with_resizable(false)
        // A window of a fixed size offers no maximise button on Windows
        // and macOS. On X11 winit passes no buttons, but the size fixed
        // (minimum and maximum alike in WM_NORMAL_HINTS) takes maximise
        // and resize out of openbox's allowed actions; openbox 3.6 still
        // draws the button, inert, with or without _MOTIF_WM_HINTS'
        // functions leaving it out (tried, before and after mapping).
        .with_enabled_buttons(WindowButtons::CLOSE | WindowButtons::MINIMIZE)
        .with_window_level(match standing {
            Standing::Own => WindowLevel::Normal,
            Standing::Aside => WindowLevel::AlwaysOnTop,
        })
        .with_active(standing == Standing::Own);
    // Hidden, and where it goes, on X11 only: on macOS winit's
    // `set_visible` makes the window key (`makeKeyAndOrderFront`), taking
    // the keyboard.
    #[cfg(not(any(windows, target_os = "macos")))]
    let attributes = {
        let attributes = attributes.with_visible(standing == Standing::Own);
        match at {
            Some((x, y)) => attributes.with_position(winit::dpi::PhysicalPosition::new(x, y)),
            None => attributes,
        }
    };
    #[cfg(any(windows, target_os = "macos"))]
    let _ = at;
    attributes
}

/// The icon file built into the programs (`build.rs` links it as their
/// resource too), drawn by the renderer (`render::icon`).
const ICON_FILE: &[u8] = include_bytes!("../../windows/dustbot.ico");

/// The bot's icon for its windows: the 32-pixel picture of
/// [`ICON_FILE`], read once; `None` (the system's own) should it not
/// read.
fn window_icon() -> Option<winit::window::Icon> {
    static ICON: OnceLock<Option<winit::window::Icon>> = OnceLock::new();
    ICON.get_or_init(|| {
        let png = ico_entry(ICON_FILE, 32)?;
        let picture = image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .ok()?
            .to_rgba8();
        let (width, height) = picture.dimensions();
        winit::window::Icon::from_rgba(picture.into_raw(), width, height).ok()
    })
    .clone()
}

/// The image of `side` pixels in an icon file's bytes (its entries: 16
/// bytes each after a 6-byte header, the width first, the image's length
/// and offset last).
fn ico_entry(file: &[u8], side: u8) -> Option<&[u8]> {
    let count = u16::from_le_bytes([*file.get(4)?, *file.get(5)?]) as usize;
    (0..count).find_map(|i| {
        let entry = file.get(6 + 16 * i..6 + 16 * (i + 1))?;
        let word = |at: usize| {
            u32::from_le_bytes([entry[at], entry[at + 1], entry[at + 2], entry[at + 3]]) as usize
        };
        (entry[0] == side).then_some(())?;
        file.get(word(12)..word(12) + word(8))
    })
}

/// The window's id as the window list gives it: the X window's id, the
/// window handle's value on Windows.
fn id_of(window: &Window) -> Result<u32, String> {
    let handle = window.window_handle().map_err(|e| e.to_string())?;
    match handle.as_raw() {
        // An X id fits 29 bits (a `c_ulong`, 64 bits on Linux); a window
        // handle 32, as 64-bit Windows shares them with 32-bit programs.
        #[cfg(not(any(windows, target_os = "macos")))]
        RawWindowHandle::Xlib(x) => Ok(x.window as u32),
        #[cfg(not(any(windows, target_os = "macos")))]
        RawWindowHandle::Xcb(x) => Ok(x.window.get()),
        #[cfg(windows)]
        RawWindowHandle::Win32(w) => Ok(w.hwnd.get() as u32),
        #[cfg(target_os = "macos")]
        RawWindowHandle::AppKit(view) => mac::window_number(view.ns_view),
        other => Err(format!(
            "a window of neither X11, Win32 nor AppKit: {other:?}"
        )),
    }
}

impl ApplicationHandler<Ask> for Windows {
    fn resumed(&mut self, _: &ActiveEventLoop) {}

    /// macOS: the app ended from the Dock, its menu (Command-Q) or the
    /// log-out (`terminate:`), which ends the process once this returns
    /// (winit 0.30.13, `src/platform_impl/macos/app_state.rs`); an end
    /// asked for ([`Ask::End`]) has closed the windows first.
    #[cfg(target_os = "macos")]
    fn exiting(&mut self, _: &ActiveEventLoop) {
        if !self.live.is_empty() {
            platform::terminating();
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, ask: Ask) {
        match ask {
            Ask::Open {
                title,
                size,
                standing,
                at,
                opened,
            } => {
                // The owner may have given up waiting: nobody to tell.
                opened
                    .send(self.open(event_loop, &title, size, standing, at))
                    .ok();
            }
            Ask::Close(id, closed) => {
                self.live.remove(&id);
                closed.send(()).ok();
            }
            Ask::End => {
                self.live.clear();
                event_loop.exit();
            }
            Ask::Show(id) => {
                if let Some(live) = self.live.get_mut(&id)
                    && let Err(error) = live.draw()
                {
                    log::warn!("the window cannot be drawn: {error}");
                }
            }
            Ask::Title(id, title) => {
                if let Some(live) = self.live.get(&id) {
                    live.window.set_title(&title);
                }
            }
            Ask::Place(id, (x, y)) => {
                if let Some(live) = self.live.get(&id) {
                    // The desktop's units: pixels, points on macOS (where
                    // a physical position is points times the scale).
                    #[cfg(not(target_os = "macos"))]
                    live.window
                        .set_outer_position(winit::dpi::PhysicalPosition::new(x, y));
                    #[cfg(target_os = "macos")]
                    live.window
                        .set_outer_position(winit::dpi::LogicalPosition::new(x, y));
                    let landed = live.window.scale_factor();
                    let mut inbox = inbox(&live.shared);
                    inbox.scales.moved_by_owner(landed);
                    // Windows and macOS move it within the call (winit's
                    // `SetWindowPos`, `setFrameTopLeftPoint:`); an X11
                    // window manager a moment later, said by its
                    // configure event (`WindowEvent::Moved`), of which
                    // winit says none where the window already was.
                    let there = || {
                        let at = live.window.outer_position().ok()?;
                        Some((at.x, at.y) == (x, y))
                    };
                    if cfg!(any(windows, target_os = "macos")) || there() == Some(true) {
                        inbox.placing = None;
                    }
                }
            }
            Ask::Resize(id, (width, height)) => {
                if let Some(live) = self.live.get_mut(&id) {
                    live.size = PhysicalSize::new(width as u32, height as u32);
                    // The new size comes with the next configure event; the
                    // answer, when there is one at once, changes nothing.
                    let _ = live.window.request_inner_size(live.size);
                }
            }
        }
    }

    fn window_event(&mut self, _: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        let Some(live) = self.live.get_mut(&id) else {
            return;
        };
        match event {
            WindowEvent::RedrawRequested => {
                if let Err(error) = live.draw() {
                    log::debug!("the window's picture not drawn again: {error}");
                }
            }
            WindowEvent::Moved(at) => {
                let mut inbox = inbox(&live.shared);
                if inbox.placing == Some((at.x, at.y)) {
                    inbox.placing = None;
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                live.pointer = Some((position.x as f32, position.y as f32));
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } => match live.pointer {
                Some(at) => inbox(&live.shared).presses.push_back(at),
                None => log::debug!("a press on the window, the pointer's place unknown"),
            },
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                #[cfg(debug_assertions)]
                fault_asked(&event);
                heard(&mut inbox(&live.shared), &event, is_synthetic);
            }
            WindowEvent::ScaleFactorChanged {
                scale_factor,
                mut inner_size_writer,
            } => {
                // The picture keeps its size until its owner draws it for
                // the new scale: the toolkit's own resize would stretch
                // the client area around a picture of the old size.
                let _ = inner_size_writer.request_inner_size(live.size);
                inbox(&live.shared).scales.changed(scale_factor);
            }
            WindowEvent::CloseRequested => {
                inbox(&live.shared).closed = true;
                // Gone from the screen at once, whatever its owner does
                // before it drops it.
                live.window.set_visible(false);
            }
            WindowEvent::Destroyed => {
                inbox(&live.shared).destroyed = true;
                self.live.remove(&id);
            }
            _ => {}
        }
    }
}

/// A test build's way to a fault on the windows' thread (the suite's
/// test of a thread that dies): F12 pressed in a window of the bot's
/// panics there while `DUSTBOT_WINDOWS_FAULT` is set.
#[cfg(debug_assertions)]
fn fault_asked(event: &KeyEvent) {
    if event.state == ElementState::Pressed
        && event.physical_key == PhysicalKey::Code(KeyCode::F12)
        && std::env::var_os("DUSTBOT_WINDOWS_FAULT").is_some()
    {
        panic!("a fault injected into the windows' thread (DUSTBOT_WINDOWS_FAULT)");
    }
}

/// Keeps a key's press (a repeat of a held key too) or release, where it
/// counts ([`counts`]).
fn heard(inbox: &mut Inbox, event: &KeyEvent, synthetic: bool) {
    let Some(key) = Key::of(&event.logical_key, event.physical_key, event.location) else {
        return;
    };
    let down = event.state == ElementState::Pressed;
    if counts(inbox, key, down, synthetic, event.repeat) {
        inbox.keys.push_back((key, down));
    }
}

/// Whether a key's press or release counts, and the keys held as it
/// leaves them. winit reports the keys held as a window gains the
/// keyboard as presses of their own ("synthetic", on X11 and Windows) and
/// their autorepeat as presses: an Escape held as the practice window
/// opens would close it, a Return held as the app starts would answer its
/// question. A key held from before counts once released and pressed
/// again; a repeat counts only of a press that counted.
fn counts(inbox: &mut Inbox, key: Key, down: bool, synthetic: bool, repeat: bool) -> bool {
    let held_before = inbox.held.contains(&key);
    inbox.held.retain(|&k| k != key);
    if !down {
        inbox.stale.retain(|&k| k != key);
        return !synthetic;
    }
    if synthetic {
        inbox.stale.push(key);
        return false;
    }
    if inbox.stale.contains(&key) || (repeat && !held_before) {
        return false;
    }
    inbox.held.push(key);
    true
}

/// The way to ask the windows' thread, once it is made.
static PROXY: OnceLock<Result<Mutex<EventLoopProxy<Ask>>, String>> = OnceLock::new();

/// The windows' thread, while it runs.
static THREAD: Mutex<Option<std::thread::JoinHandle<()>>> = Mutex::new(None);

/// Why the windows' thread ended, once it has: every window is gone
/// with it ([`windows_ended`]).
static ENDED: Mutex<Option<String>> = Mutex::new(None);

/// Runs the windows' event loop (`run`) and keeps in `ended` why it
/// ended: its error, a panic's message, or its leaving asked for. A
/// window whose thread is gone reads as closed: an app that read only
/// its inbox looped on without a window, holding its single-instance
/// lock.
fn keep_why_it_ends(ended: &Mutex<Option<String>>, run: impl FnOnce() -> Result<(), String>) {
    let why = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(())) => "the windows' event loop was left".to_owned(),
        Ok(Err(error)) => format!("the windows' event loop ended: {error}"),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            format!("the windows' thread stopped on a fault: {message}")
        }
    };
    log::debug!("{why}");
    *ended.lock().unwrap_or_else(PoisonError::into_inner) = Some(why);
}

/// Why the windows' thread ended, when it has: the bot's windows are all
/// gone, each reads as closed ([`OwnWindow::is_open`]).
pub fn windows_ended() -> Option<String> {
    ENDED.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

/// The windows' thread, made at the first call: the way to ask it. On
/// macOS it is the process's main thread, asked to start the windows
/// (`desktop::main_thread_serves_windows`).
fn windows_thread() -> Result<&'static Mutex<EventLoopProxy<Ask>>, String> {
    PROXY
        .get_or_init(|| {
            let (made, proxy) = mpsc::channel();
            #[cfg(target_os = "macos")]
            mac::start_on_main(Box::new(move || run_windows(made)))?;
            #[cfg(not(target_os = "macos"))]
            {
                let thread = std::thread::Builder::new()
                    .name("windows".into())
                    .spawn(move || run_windows(made))
                    .map_err(|e| e.to_string())?;
                *THREAD.lock().unwrap_or_else(PoisonError::into_inner) = Some(thread);
            }
            let proxy = proxy
                .recv()
                .map_err(|_| "the windows' thread ended".to_owned())??;
            Ok(Mutex::new(proxy))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Makes the event loop, says it made (its proxy) to `made` or why not,
/// and runs it until [`Ask::End`].
fn run_windows(made: mpsc::Sender<Result<EventLoopProxy<Ask>, String>>) {
    match event_loop() {
        Ok(event_loop) => {
            made.send(Ok(event_loop.create_proxy())).ok();
            keep_why_it_ends(&ENDED, || {
                event_loop
                    .run_app(&mut Windows::default())
                    .map_err(|e| e.to_string())
            });
        }
        Err(error) => {
            made.send(Err(error)).ok();
        }
    }
}

/// The event loop, on a thread that is not the process's first: winit
/// refuses that unless told it may (macOS needs the first thread: see
/// `desktop::macos_main`).
fn event_loop() -> Result<EventLoop<Ask>, String> {
    let mut builder = EventLoop::with_user_event();
    #[cfg(windows)]
    winit::platform::windows::EventLoopBuilderExtWindows::with_any_thread(&mut builder, true);
    #[cfg(not(any(windows, target_os = "macos")))]
    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
    #[cfg(target_os = "macos")]
    mac::policy(&mut builder);
    builder
        .build()
        .map_err(|e| without_source_place(&e.to_string()))
}

/// A toolkit's error without the place in its source it was made at:
/// winit's OS errors say "os error at FILE:LINE: why", FILE a path of the
/// machine that built the bot, nothing to a player.
fn without_source_place(error: &str) -> String {
    match error
        .strip_prefix("os error at ")
        .and_then(|rest| rest.split_once(": "))
    {
        Some((_, why)) => why.to_owned(),
        None => error.to_owned(),
    }
}

/// Starts the windows' event loop (on the main thread) before anything
/// else of AppKit's is used: winit must make NSApplication itself.
#[cfg(target_os = "macos")]
fn start_windows() -> Result<(), String> {
    windows_thread().map(|_| ())
}

/// Runs `body` on a thread of its own (the process's body) while this,
/// the main thread, serves the bot's windows and the calls sent to it
/// (`macos_main.rs`); returns what the body returned, once it ended (its
/// panic goes on here), the windows ended first. `app`: the desktop app
/// (a regular app), else `bot`.
#[cfg(target_os = "macos")]
pub fn main_thread_serves_windows<T: Send + 'static>(
    app: bool,
    body: impl FnOnce() -> T + Send + 'static,
) -> T {
    let windows = mac::WindowsLoop {
        start: start_windows,
        end: end_windows,
    };
    mac::main_thread_serves_windows(app, windows, body)
}

/// Asks the windows' thread.
fn ask(what: Ask) -> Result<(), String> {
    windows_thread()?
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send_event(what)
        .map_err(|_| "the windows' event loop has ended".to_owned())
}

/// Ends the windows' thread, where one was made, before the process
/// ends: its windows destroyed and its event loop left, waited for at
/// most [`ANSWER_WAIT`]: `dustbot.exe` under Wine, its event loop still
/// running as `main` returned, once hung in its exit for over 30 s
/// (`make test`, beside the fake desktop's tests under Wine); the thread
/// is left first, so that no exit finds it in the window system's calls.
pub fn end_windows() {
    let Some(Ok(proxy)) = PROXY.get() else {
        return;
    };
    let asked = proxy
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send_event(Ask::End);
    let thread = THREAD.lock().unwrap_or_else(PoisonError::into_inner).take();
    let (Ok(()), Some(thread)) = (asked, thread) else {
        return;
    };
    let ended = std::time::Instant::now();
    while !thread.is_finished() {
        if ended.elapsed() > ANSWER_WAIT {
            log::debug!("the windows' thread did not end in time");
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    thread.join().ok();
}

/// How long an owner waits for its window to be made or destroyed.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// How long an owner waits for its window to be where it put it
/// ([`OwnWindow::wait_placed`]): a window manager moves it within
/// milliseconds, or puts it elsewhere and never says it is there.
const PLACE_WAIT: Duration = Duration::from_secs(1);

/// A window of the bot's own.
pub struct OwnWindow {
    window: WindowId,
    shared: Shared,
    /// Its id, as the window list gives it.
    id: u32,
    /// Told of every key's press and release, in [`OwnWindow::pump`].
    on_keys: Option<Box<dyn FnMut(Key, bool)>>,
    /// The keys pressed since the pump before the last: a press released
    /// before the next look is down for that look.
    pressed: Vec<Key>,
    /// The time between two frames at most, and when the next is due.
    period: Option<Duration>,
    due: Instant,
}

impl std::fmt::Debug for OwnWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnWindow")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl OwnWindow {
    /// Opens a window titled `title` whose client area is `size` pixels,
    /// standing as `standing` says (as the window manager allows), its
    /// frame's top-left at `at` where given ([`OwnWindow::place`]; made
    /// there under X11, see [`attributes`]).
    pub fn open(
        title: &str,
        size: (usize, usize),
        standing: Standing,
        at: Option<(i32, i32)>,
    ) -> Result<OwnWindow, String> {
        if let Err(error) = platform::survive_window_errors() {
            log::warn!("{title}: the window system's errors on it may end the bot: {error}");
        }
        let (opened, answer) = mpsc::channel();
        ask(Ask::Open {
            title: title.to_owned(),
            size,
            standing,
            at,
            opened,
        })?;
        let (window, id, shared) = answer
            .recv_timeout(ANSWER_WAIT)
            .map_err(|_| "the windows' thread did not make the window".to_owned())??;
        open_ids().push(id);
        let mut made = OwnWindow {
            window,
            shared,
            id,
            on_keys: None,
            pressed: Vec::new(),
            period: None,
            due: Instant::now(),
        };
        if let Some(at) = at {
            made.place(at);
        }
        Ok(made)
    }

    /// The window's id, as the window list gives it.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// How often [`OwnWindow::show`] and [`OwnWindow::pump`] may run at
    /// most, waiting in them as needed; 0 never waits.
    pub fn set_rate(&mut self, per_second: usize) {
        self.period = (per_second > 0).then(|| Duration::from_secs(1) / per_second as u32);
    }

    /// Puts the window's frame with its top-left at `at` (desktop pixels),
    /// at the size last asked ([`OwnWindow::resize`]): the size its owner
    /// chose for the monitor there, kept through the change of scale the
    /// move brings.
    pub fn place(&mut self, at: (i32, i32)) {
        inbox(&self.shared).placing = Some(at);
        self.tell(Ask::Place(self.window, at));
    }

    /// Waits until the window's frame is where [`OwnWindow::place`] last
    /// put it (at once when it was never placed), [`PLACE_WAIT`] at most.
    /// Under X11 the window manager moves it a moment after it is asked,
    /// and may put it elsewhere (off a dock's strut): then it never is.
    pub fn wait_placed(&self) {
        let asked = Instant::now();
        while inbox(&self.shared).placing.is_some() {
            if asked.elapsed() >= PLACE_WAIT {
                log::debug!("the window is not where it was put: the window manager moved it on");
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn set_title(&mut self, title: &str) {
        self.tell(Ask::Title(self.window, title.to_owned()));
    }

    /// Makes the client area `size` pixels: the next pictures' size.
    pub fn resize(&mut self, size: (usize, usize)) {
        self.tell(Ask::Resize(self.window, size));
    }

    /// Asks the windows' thread something that has no answer; said in
    /// the log when the thread is gone (the window then reads as closed).
    fn tell(&self, what: Ask) {
        if let Err(error) = ask(what) {
            log::debug!("the window: {error}");
        }
    }

    /// Shows `pixels` (0RGB words, `size` pixels, row by row) and takes
    /// in the window's events.
    pub fn show(&mut self, pixels: &[u32], size: (usize, usize)) -> Result<(), String> {
        {
            let mut inbox = inbox(&self.shared);
            inbox.pixels.clear();
            inbox.pixels.extend_from_slice(pixels);
            inbox.size = size;
        }
        let shown = ask(Ask::Show(self.window));
        self.pump();
        shown
    }

    /// Takes in the window's events: tells the keys heard to
    /// [`OwnWindow::on_keys`]' listener, after waiting for the frame's
    /// time (see [`OwnWindow::set_rate`]). The windows' thread draws the
    /// picture again when the window is uncovered.
    pub fn pump(&mut self) {
        if let Some(period) = self.period {
            let now = Instant::now();
            if self.due > now {
                std::thread::sleep(self.due - now);
            }
            self.due = (self.due + period).max(Instant::now());
        }
        let keys: Vec<(Key, bool)> = inbox(&self.shared).keys.drain(..).collect();
        self.pressed.clear();
        for (key, down) in keys {
            if down {
                self.pressed.push(key);
            }
            if let Some(heard) = &mut self.on_keys {
                heard(key, down);
            }
        }
    }

    /// Whether the window is still there: not closed by the player, not
    /// destroyed by another program, its thread not ended
    /// ([`windows_ended`]).
    pub fn is_open(&self) -> bool {
        let inbox = inbox(&self.shared);
        !inbox.closed && !inbox.destroyed && windows_ended().is_none()
    }

    /// Whether another program destroyed the window.
    pub fn destroyed(&self) -> bool {
        inbox(&self.shared).destroyed
    }

    /// Where in the client area the primary (left) button was pressed
    /// since the last call, if it was; one press a call, in order, however
    /// short each was.
    pub fn press(&mut self) -> Option<(f32, f32)> {
        inbox(&self.shared).presses.pop_front()
    }

    /// Whether `key` is down, or was pressed since the last events were
    /// taken in.
    pub fn key_down(&self, key: Key) -> bool {
        self.pressed.contains(&key) || inbox(&self.shared).held.contains(&key)
    }

    /// A new question shows: the keys held now count again only once
    /// released and pressed (their autorepeat answers nothing).
    pub fn forget_held(&mut self) {
        let mut inbox = inbox(&self.shared);
        let held = std::mem::take(&mut inbox.held);
        inbox.stale.extend(held);
    }

    /// Tells `heard` of every press and release of the keys there are,
    /// however short, as [`OwnWindow::pump`] takes them in.
    pub fn on_keys(&mut self, heard: impl FnMut(Key, bool) + 'static) {
        self.on_keys = Some(Box::new(heard));
    }

    /// The scale of the window's monitor (1.5 at 150%), as the toolkit
    /// reads it.
    pub fn scale(&self) -> f64 {
        inbox(&self.shared).scales.now
    }

    /// By how much the window's scale changed since the last call (1.5
    /// from 100% to 150%), when it did: moved to a monitor of another
    /// scale, or the desktop's scale changed. The window keeps its size
    /// meanwhile: its owner draws at its own scale times this and resizes
    /// the window ([`OwnWindow::resize`]), so that nothing is cut off.
    /// The bot's own moves ([`OwnWindow::place`]) are drawn for already.
    pub fn rescaled(&mut self) -> Option<f32> {
        inbox(&self.shared).scales.rescaled()
    }
}

impl Drop for OwnWindow {
    /// Destroys the window: on X11 before this returns, on Windows a
    /// moment after (winit posts the destruction to the window's thread).
    fn drop(&mut self) {
        open_ids().retain(|&id| id != self.id);
        let (closed, answer) = mpsc::channel();
        if ask(Ask::Close(self.window, closed)).is_ok() && answer.recv_timeout(ANSWER_WAIT).is_err()
        {
            log::debug!("the window was not destroyed in time");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolkit_error_is_said_without_the_build_machines_path() {
        assert_eq!(
            without_source_place(
                "os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set."
            ),
            "neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set."
        );
        assert_eq!(
            without_source_place("os error at C:\\src\\winit\\mod.rs:12: no"),
            "no"
        );
        assert_eq!(without_source_place("the loop ended"), "the loop ended");
    }

    #[test]
    fn a_key_held_from_before_counts_only_once_released_and_pressed_again() {
        let mut inbox = Inbox::default();
        let esc = Key::Escape;
        // Held as the window gained the keyboard, then its autorepeat
        // (which X11 may report as plain presses).
        assert!(!counts(&mut inbox, esc, true, true, false));
        assert!(!counts(&mut inbox, esc, true, false, true));
        assert!(!counts(&mut inbox, esc, true, false, false));
        // Released, then pressed: it counts, and so does its repeat.
        assert!(counts(&mut inbox, esc, false, false, false));
        assert!(counts(&mut inbox, esc, true, false, false));
        assert!(counts(&mut inbox, esc, true, false, true));
        assert!(counts(&mut inbox, esc, false, false, false));
        // A repeat of a press never heard is dropped.
        assert!(!counts(&mut inbox, Key::Enter, true, false, true));
        // A synthetic release (the keyboard gone) says nothing.
        assert!(counts(&mut inbox, Key::Enter, true, false, false));
        assert!(!counts(&mut inbox, Key::Enter, false, true, false));
        assert!(inbox.held.is_empty());
    }

    #[test]
    fn the_hint_window_opens_on_top_without_the_keyboard_and_the_app_with_it() {
        let size = PhysicalSize::new(300, 200);
        let aside = attributes("dustbot hints", size, Standing::Aside, Some((40, 30)));
        assert!(!aside.active, "the game keeps the keyboard");
        assert_eq!(aside.window_level, WindowLevel::AlwaysOnTop);
        let own = attributes("dustbot", size, Standing::Own, None);
        assert!(own.active, "the app takes the keyboard at its start");
        assert_eq!(own.window_level, WindowLevel::Normal);
        // X11: the window aside is shown once the window manager is told.
        #[cfg(not(any(windows, target_os = "macos")))]
        assert!(!aside.visible && own.visible);
        // X11: made where it is placed, mapped nowhere else first; Windows
        // and macOS: placed once made (see `attributes`).
        let made_at = aside.position.map(|at| at.to_physical::<i32>(1.0));
        let asked = winit::dpi::PhysicalPosition::new(40, 30);
        assert_eq!(
            made_at,
            cfg!(not(any(windows, target_os = "macos"))).then_some(asked)
        );
        assert_eq!(own.position, None);
        for made in [aside, own] {
            assert!(!made.resizable);
            assert!(!made.enabled_buttons.contains(WindowButtons::MAXIMIZE));
            assert_eq!(made.inner_size, Some(size.into()));
        }
    }

    #[test]
    fn every_window_of_the_bots_has_its_icon() {
        let png = ico_entry(ICON_FILE, 32).expect("a 32-pixel icon");
        assert_eq!(&png[1..4], b"PNG");
        assert!(ico_entry(ICON_FILE, 24).is_none());
        assert!(window_icon().is_some());
        for standing in [Standing::Own, Standing::Aside] {
            let made = attributes("dustbot", PhysicalSize::new(10, 10), standing, None);
            assert!(made.window_icon.is_some(), "{standing:?}");
        }
    }

    #[test]
    fn a_windows_thread_that_ends_says_why_a_panic_included() {
        let ended = Mutex::new(None);
        // A panic injected into a thread that runs as the windows' does.
        std::thread::scope(|threads| {
            threads.spawn(|| keep_why_it_ends(&ended, || panic!("injected into the loop")));
        });
        let why = ended.lock().unwrap().take().unwrap();
        assert_eq!(
            why,
            "the windows' thread stopped on a fault: injected into the loop"
        );
        keep_why_it_ends(&ended, || Err("the display went away".into()));
        let why = ended.lock().unwrap().take().unwrap();
        assert_eq!(why, "the windows' event loop ended: the display went away");
        keep_why_it_ends(&ended, || Ok(()));
        assert!(ended.lock().unwrap().is_some());
    }

    /// The app's size drawn for `scale` (800x600 at 100%), as the
    /// owners' layouts scale it.
    fn chosen(scale: f64) -> (u32, u32) {
        (
            (800.0 * scale).round() as u32,
            (600.0 * scale).round() as u32,
        )
    }

    #[test]
    fn the_bots_own_move_to_another_scale_ends_at_the_size_it_chose_there_both_ways() {
        for (from, to) in [(1.0, 1.5), (1.5, 1.0)] {
            let mut scales = Scales::at(from);
            // The owner draws for the target monitor's scale, resizes to
            // the size it chose there and moves the window: on Windows
            // the move's WM_DPICHANGED comes within it, winit's scale is
            // the target's as the move returns, ScaleFactorChanged told
            // after (and answered with the size asked).
            let mut drawn = to;
            scales.moved_by_owner(to);
            scales.changed(to);
            if let Some(by) = scales.rescaled() {
                drawn *= f64::from(by);
            }
            assert_eq!(chosen(drawn), chosen(to), "{from} -> {to}");
            // Twice scaled it would be 1800x1350 or 533x400.
            assert_ne!(chosen(to * to / from), chosen(to));
            assert_eq!(scales.rescaled(), None);
        }
    }

    #[test]
    fn a_move_by_the_player_to_another_scale_is_drawn_for_once_both_ways() {
        for (from, to) in [(1.0, 1.5), (1.5, 1.0)] {
            let mut scales = Scales::at(from);
            let mut drawn = from;
            scales.changed(to);
            if let Some(by) = scales.rescaled() {
                drawn *= f64::from(by);
            }
            assert_eq!(chosen(drawn), chosen(to), "{from} -> {to}");
            assert_eq!(scales.rescaled(), None);
        }
    }

    fn typed(text: &str) -> Option<Key> {
        Key::of(
            &Logical::Character(text.into()),
            PhysicalKey::Code(KeyCode::KeyA),
            KeyLocation::Standard,
        )
    }

    #[test]
    fn the_keys_that_type_are_told_by_what_they_type_in_any_layout() {
        // QWERTY and AZERTY's number row, unshifted and shifted: the keys
        // labelled 1 to 4, wherever they are.
        for (text, key) in [
            ("1", Key::Char('1')),
            ("&", Key::Char('1')),
            ("é", Key::Char('2')),
            ("\"", Key::Char('3')),
            ("'", Key::Char('4')),
        ] {
            assert_eq!(typed(text), Some(key), "{text}");
        }
        // The letters as typed, wherever the layout puts them (the key
        // given is QWERTY's `a`, AZERTY's `q`), shifted or not.
        assert_eq!(typed("q"), Some(Key::Char('q')));
        assert_eq!(typed("Y"), Some(Key::Char('y')));
        assert_eq!(typed("5"), Some(Key::Char('5')));
        assert_eq!(typed("/"), None);
        assert_eq!(typed("12"), None);
    }

    #[test]
    fn the_keypads_digits_are_told_by_their_place_with_numlock_or_not() {
        let keypad = |logical: Logical, code| {
            Key::of(&logical, PhysicalKey::Code(code), KeyLocation::Numpad)
        };
        assert_eq!(
            keypad(Logical::Character("4".into()), KeyCode::Numpad4),
            Some(Key::Char('4'))
        );
        assert_eq!(
            keypad(Logical::Named(NamedKey::End), KeyCode::Numpad1),
            Some(Key::Char('1'))
        );
        assert_eq!(
            keypad(Logical::Named(NamedKey::Clear), KeyCode::Numpad5),
            Some(Key::Char('5'))
        );
        assert_eq!(
            keypad(Logical::Character("+".into()), KeyCode::NumpadAdd),
            None
        );
    }

    #[test]
    fn the_keys_that_type_nothing_are_told_by_their_names() {
        use KeyLocation::{Numpad, Standard};
        for (name, location, key) in [
            (NamedKey::Escape, Standard, Some(Key::Escape)),
            (NamedKey::Space, Standard, Some(Key::Space)),
            (NamedKey::Enter, Standard, Some(Key::Enter)),
            (NamedKey::Enter, Numpad, Some(Key::NumPadEnter)),
            (NamedKey::Tab, Standard, None),
        ] {
            let physical = PhysicalKey::Code(KeyCode::Enter);
            assert_eq!(Key::of(&Logical::Named(name), physical, location), key);
        }
    }
}

/// The bot's own windows as Windows sees them, through its own calls
/// (each unsafe call says why it is sound).
#[cfg(all(test, windows))]
#[allow(unsafe_code)]
mod on_windows {
    use super::*;
    use windows_sys::Win32::Foundation::HWND;

    /// The window handle behind a window's id (the handle's value).
    fn handle(id: u32) -> HWND {
        id as usize as HWND
    }

    /// A press and its release that come in at once (a busy machine's
    /// click, shorter than a frame) are one press, where the pointer was;
    /// the window keeps working after, and is gone once dropped.
    #[test]
    fn a_click_within_one_frame_is_one_press_where_it_was() {
        use windows_sys::Win32::UI::WindowsAndMessaging::{
            IsWindow, PostMessageW, WM_LBUTTONDOWN, WM_LBUTTONUP, WM_MOUSEMOVE,
        };
        let lparam = |x: isize, y: isize| (y << 16) | x;
        let mut window =
            OwnWindow::open("dustbot presses", (120, 80), Standing::Own, None).unwrap();
        let hwnd = handle(window.id());
        for (x, y) in [(30, 40), (90, 10)] {
            for message in [WM_MOUSEMOVE, WM_LBUTTONDOWN, WM_LBUTTONUP] {
                // SAFETY: a message to a window of this process.
                assert_ne!(unsafe { PostMessageW(hwnd, message, 0, lparam(x, y)) }, 0);
            }
        }
        let mut presses = Vec::new();
        let asked = std::time::Instant::now();
        while presses.len() < 2 && asked.elapsed() < std::time::Duration::from_secs(10) {
            window.pump();
            presses.extend(window.press());
        }
        assert_eq!(presses, [(30.0, 40.0), (90.0, 10.0)]);
        assert!(window.is_open());
        drop(window);
        // winit destroys a window through a message posted to its thread:
        // gone a moment after.
        let dropped = std::time::Instant::now();
        // SAFETY: asks whether a handle names a window.
        while unsafe { IsWindow(hwnd) } != 0 {
            assert!(dropped.elapsed() < std::time::Duration::from_secs(10));
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// The hint window opens beside the game without taking the keyboard
    /// from it (`SW_SHOWNOACTIVATE`: winit's `with_active(false)`), while
    /// the app's window takes it at its start; here the app's window
    /// stands for the game. Under Wine it runs in a Wine desktop
    /// (`scripts/windows-test`), where Wine alone decides as Windows does:
    /// on an X desktop openbox's focus offer to the new window decides.
    #[test]
    fn the_hint_window_opens_without_taking_the_keyboard_from_the_window_that_has_it() {
        use windows_sys::Win32::UI::WindowsAndMessaging::{GetForegroundWindow, IsWindowVisible};
        let wait = |what: &str, done: &dyn Fn() -> bool| {
            let asked = std::time::Instant::now();
            while !done() {
                assert!(
                    asked.elapsed() < std::time::Duration::from_secs(10),
                    "{what}"
                );
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        };
        let app = OwnWindow::open("dustbot keyboard", (160, 100), Standing::Own, None).unwrap();
        let app_hwnd = handle(app.id());
        // SAFETY: reads which window has the keyboard.
        wait("the app's window takes the keyboard", &|| unsafe {
            GetForegroundWindow() == app_hwnd
        });
        let hints =
            OwnWindow::open("dustbot hints aside", (160, 100), Standing::Aside, None).unwrap();
        let hints_hwnd = handle(hints.id());
        // SAFETY: asks whether a window of this process is shown.
        wait("the hint window is shown", &|| unsafe {
            IsWindowVisible(hints_hwnd) != 0
        });
        // Not a glance: a focus taken later (a window manager's offer
        // answered on the windows' thread) would be missed by one.
        let shown = std::time::Instant::now();
        while shown.elapsed() < std::time::Duration::from_millis(500) {
            // SAFETY: reads which window has the keyboard.
            assert_eq!(unsafe { GetForegroundWindow() }, app_hwnd);
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
