//! The desktop on Linux: an X11 display (through `xcap`, `enigo` and
//! `x11rb`), with `/proc` for the processes the bot runs in, and Xlib's
//! handler of a lost connection for the bot's own windows (winit's), the
//! one `unsafe` call here. Through x11rb it reads what xcap does not: the
//! pointer's buttons and their mapping (which physical button is the
//! primary), the top-level window at a point, and a title set only as
//! ICCCM `WM_NAME`; with the names the Windows half has, doing nothing where X11 has
//! nothing to do (see `desktop::platform`).

use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::thread::sleep;
use std::time::Duration;

use enigo::{Coordinate, Direction, Enigo, Mouse as _, Settings};
use image::RgbaImage;
use x11rb::connection::{Connection, RequestConnection as _};
use x11rb::protocol::Event;
use x11rb::protocol::randr::ConnectionExt as _;
use x11rb::protocol::shape::{self, ConnectionExt as _, SK, SO};
use x11rb::protocol::xproto::{
    Atom, AtomEnum, ChangeGCAux, ChangeWindowAttributesAux, ClientMessageEvent, ClipOrdering,
    ConfigureWindowAux, ConnectionExt, CreateGCAux, CreateWindowAux, EventMask, Gcontext,
    ImageFormat, ImageOrder, KeyButMask, MapState, PropMode, Rectangle, StackMode, Visibility,
    VisualClass, Window, WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::screen::{MonitorArea, ScreenPoint, ScreenRect};
use super::words::{
    Asker, Button, CaptureError, GlobalKey, GrabError, InputError, Mark, Pressed, Stream,
};

/// `Ok` when there is an X11 display to list windows on; else what works
/// instead of what the window system's library makes of it.
pub(super) fn check_display() -> Result<(), CaptureError> {
    let variable = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(display) = variable("DISPLAY") {
        return match display.to_str() {
            Some(_) => Ok(()),
            None => Err(CaptureError::NoDisplay {
                display: display.to_string_lossy().into_owned(),
                cause: "DISPLAY is not UTF-8 text, so no display name".into(),
            }),
        };
    }
    Err(match variable("WAYLAND_DISPLAY") {
        Some(wayland) => CaptureError::WaylandOnly {
            wayland: wayland.to_string_lossy().into_owned(),
        },
        None => CaptureError::NoDisplay {
            display: String::new(),
            cause: "DISPLAY is not set".into(),
        },
    })
}

/// Whether the X server still takes connections: a window that cannot
/// be found may be the display's end.
pub(super) fn display_alive() -> bool {
    x11rb::connect(None).is_ok()
}

/// The pointer: moved and pressed with enigo (XTest), its buttons and
/// their mapping read as the X server has them.
pub(super) struct Mouse {
    enigo: Enigo,
    conn: RustConnection,
    root: Window,
}

impl Mouse {
    pub(super) fn connect() -> Result<Mouse, String> {
        // enigo's XTest requests ask the server to hold each press and
        // release 12 ms by default (and the sync after it waits on that):
        // every click would land, and its animation start, that much after
        // the bot's checks. The bot holds the button itself (`HOLD`).
        let settings = Settings {
            linux_delay: 0,
            ..Settings::default()
        };
        let enigo = Enigo::new(&settings).map_err(|e| e.to_string())?;
        let (conn, screen) = x11rb::connect(None).map_err(|e| e.to_string())?;
        let root = conn.setup().roots[screen].root;
        Ok(Mouse { enigo, conn, root })
    }

    /// Where the pointer is, once the server has taken in every fake
    /// event sent before (a pointer query is a round trip).
    pub(super) fn location(&mut self) -> Result<ScreenPoint, InputError> {
        let (x, y) = self.enigo.location().map_err(device)?;
        Ok(ScreenPoint::new(x, y))
    }

    /// Moves the cursor to `to`: enigo's absolute move, which reaches the
    /// whole X screen.
    pub(super) fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
        self.enigo
            .move_mouse(to.x, to.y, Coordinate::Abs)
            .map_err(device)
    }

    /// Presses (`down`) or releases the physical `button`.
    pub(super) fn press(&mut self, button: Button, down: bool) -> Result<(), InputError> {
        let button = match button {
            Button::Left => enigo::Button::Left,
            Button::Middle => enigo::Button::Middle,
            Button::Right => enigo::Button::Right,
        };
        let direction = if down {
            Direction::Press
        } else {
            Direction::Release
        };
        self.enigo.button(button, direction).map_err(device)
    }

    /// The pointer's mapping: entry `i` is the logical button that
    /// physical button `i + 1` acts as (`xmodmap -e "pointer = 3 2 1"`
    /// swaps the first and the third for a left-handed player). Fake
    /// presses (XTest) are physical and go through it.
    pub(super) fn mapping(&self) -> Result<Vec<u8>, String> {
        Ok(self
            .conn
            .get_pointer_mapping()
            .map_err(|e| e.to_string())?
            .reply()
            .map_err(|e| e.to_string())?
            .map)
    }

    /// Whether the primary (logical button 1, what applications take as
    /// the left click) is down, once the server has taken in every event
    /// before this query (a round trip): while a grab freezes the
    /// pointer, a release sent waits in the server's queue, and the
    /// button still reads down. The server's button mask is of logical
    /// buttons.
    pub(super) fn primary_down(&self, _pressed: Option<Button>) -> Result<bool, String> {
        let reply = self
            .conn
            .query_pointer(self.root)
            .map_err(|e| e.to_string())?
            .reply()
            .map_err(|e| e.to_string())?;
        Ok(reply.mask.contains(KeyButMask::BUTTON1))
    }

    /// The physical button that is the primary now, as the pointer
    /// mapping has it.
    pub(super) fn primary(&self) -> Result<Button, String> {
        let mapping = self.mapping()?;
        super::answers::primary_of_mapping(&mapping).ok_or_else(|| {
            format!("no button the bot can press is the primary in the pointer mapping {mapping:?}")
        })
    }
}

/// An error of enigo's: the device's.
fn device(error: enigo::InputError) -> InputError {
    InputError::Device(error.to_string())
}

// What Windows alone needs, which X11 has no use for: the same names, so
// that the floor above calls one platform.

/// A terminal here has no console mode: escape codes are drawn, and a
/// click selects text without stopping the program.
pub(super) fn console_mode(_: Stream) -> Option<u32> {
    None
}

/// See [`console_mode`]: nothing to set.
pub(super) fn set_console_mode(_: Stream, _: u32) -> bool {
    false
}

/// No file manager is opened: the path has been said.
pub(super) fn show_in_explorer(_: &std::path::Path) {}

/// Nothing to declare: an X11 client's pixels are the screen's.
pub(super) fn prepare() -> Result<(), String> {
    Ok(())
}

/// The bot never owns the terminal it runs in here: it outlives the bot.
pub(super) fn own_console() -> bool {
    false
}

/// See [`own_console`].
pub(super) fn console_closes_at_exit() -> bool {
    false
}

/// The terminal is one of the bot's ancestors here, found as such.
pub(super) fn console_window() -> Option<u32> {
    None
}

/// `xcap`'s geometry is the client area's already.
pub(super) fn client_area(_id: u32) -> Option<ScreenRect> {
    None
}

/// No HDR under X11: no colour space to read.
pub(super) fn colour_space_of_window(_id: u32) -> Result<Option<i32>, String> {
    Ok(None)
}

/// As [`colour_space_of_window`].
pub(super) fn colour_space_at(_point: ScreenPoint) -> Result<Option<i32>, String> {
    Ok(None)
}

/// No console events here: the signals that end a process are caught
/// with Ctrl-C's.
pub(super) fn catch_console_end() -> Result<(), String> {
    Ok(())
}

/// The screen's pixels through one connection to the X server, kept for
/// the game window's life.
pub(crate) struct Pixels {
    conn: RustConnection,
    root: Window,
    /// Where red is in each 4-byte pixel the server sends (blue, green
    /// and red side by side, in the server's byte order).
    red_first: bool,
}

impl std::fmt::Debug for Pixels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pixels").field("root", &self.root).finish()
    }
}

impl Pixels {
    /// A connection to the display whose root window is true colour at 4
    /// bytes a pixel, as every X server of today's desktops is; an error
    /// (capture through `xcap` then) for anything else, and under
    /// Wayland, where `xcap` captures through the compositor.
    pub(crate) fn connect() -> Result<Pixels, String> {
        if wayland_session() {
            return Err("a Wayland session".into());
        }
        let (conn, screen) = x11rb::connect(None).map_err(|e| e.to_string())?;
        let setup = conn.setup();
        let root = &setup.roots[screen];
        let bits = setup
            .pixmap_formats
            .iter()
            .find(|f| f.depth == root.root_depth)
            .map(|f| f.bits_per_pixel);
        if !matches!(root.root_depth, 24 | 32) || bits != Some(32) {
            return Err(format!(
                "a root window of depth {} at {bits:?} bits a pixel",
                root.root_depth
            ));
        }
        let red_first = setup.image_byte_order == ImageOrder::MSB_FIRST;
        let root = root.root;
        Ok(Pixels {
            conn,
            root,
            red_first,
        })
    }

    /// The pixels of `area` of the desktop, which must be on the screen.
    pub(crate) fn grab(&self, area: ScreenRect) -> Result<RgbaImage, String> {
        let mut images = self.grab_all(&[area])?;
        Ok(images.remove(0))
    }

    /// The pixels of each of `areas`, asked for all at once and then
    /// taken in: one round trip to the server for them all, where one
    /// each cost the bot and the server a wake-up each (a glance is 24
    /// rows).
    pub(crate) fn grab_all(&self, areas: &[ScreenRect]) -> Result<Vec<RgbaImage>, String> {
        let asked = areas
            .iter()
            .map(|area| {
                let too_big = |_| {
                    format!(
                        "{}x{} pixels is too big to capture",
                        area.width, area.height
                    )
                };
                let (x, y) = (i16::try_from(area.x), i16::try_from(area.y));
                let (width, height) = (u16::try_from(area.width), u16::try_from(area.height));
                self.conn
                    .get_image(
                        ImageFormat::Z_PIXMAP,
                        self.root,
                        x.map_err(too_big)?,
                        y.map_err(too_big)?,
                        width.map_err(too_big)?,
                        height.map_err(too_big)?,
                        u32::MAX,
                    )
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<_>, String>>()?;
        asked
            .into_iter()
            .zip(areas)
            .map(|(cookie, area)| {
                let reply = cookie.reply().map_err(|e| e.to_string())?;
                // Each pixel as the server sends it (xRGB in its byte
                // order) to RGBA.
                let rgba = reply
                    .data
                    .chunks_exact(4)
                    .flat_map(|p| match self.red_first {
                        true => [p[1], p[2], p[3], 255],
                        false => [p[2], p[1], p[0], 255],
                    })
                    .collect();
                RgbaImage::from_raw(area.width, area.height, rgba)
                    .ok_or_else(|| "the X server sent too few pixels".to_owned())
            })
            .collect()
    }
}

/// Whether the bot runs in a Wayland session, where the X server (if
/// any) is XWayland's and sees only its own clients.
fn wayland_session() -> bool {
    std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty())
        || std::env::var_os("XDG_SESSION_TYPE").is_some_and(|t| t == "wayland")
}

/// The marks window (see `desktop::marks`): one override-redirect window,
/// which no window manager takes in, list or stacks, shaped to the marks'
/// rectangles (its bounding shape) so that it is nothing elsewhere, with
/// an empty input shape so that every press goes through it to the window
/// below. Painted with plain fills of the root visual's colours: it needs
/// no compositor. A window manager raises the game window over it when
/// the player clicks the game: the window asks to hear when it is
/// covered (`VisibilityNotify`), for its owner to raise it again.
pub(super) struct Overlay {
    conn: RustConnection,
    window: Window,
    gc: Gcontext,
    /// The root visual's red, green and blue masks.
    masks: [u32; 3],
    /// The marks shown and where the window is, for repaints.
    marks: Vec<Mark>,
    at: ScreenRect,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay")
            .field("window", &self.window)
            .field("at", &self.at)
            .finish_non_exhaustive()
    }
}

fn x_error(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl Overlay {
    /// The window, made unmapped; an error where the X server has no
    /// shape extension or the session is Wayland's (the overlay would
    /// not be above the game's native window there).
    pub(super) fn open() -> Result<Overlay, String> {
        if wayland_session() {
            return Err("a Wayland session".into());
        }
        let (conn, screen) = x11rb::connect(None).map_err(x_error)?;
        if conn
            .extension_information(shape::X11_EXTENSION_NAME)
            .map_err(x_error)?
            .is_none()
        {
            return Err("the X server has no shape extension".into());
        }
        let root = &conn.setup().roots[screen];
        let (root_window, visual) = (root.root, root.root_visual);
        let masks = root
            .allowed_depths
            .iter()
            .flat_map(|d| &d.visuals)
            .find(|v| v.visual_id == visual)
            .filter(|v| v.class == VisualClass::TRUE_COLOR || v.class == VisualClass::DIRECT_COLOR)
            .map(|v| [v.red_mask, v.green_mask, v.blue_mask])
            .ok_or("the screen's visual is not true colour")?;
        let window = conn.generate_id().map_err(x_error)?;
        let aux = CreateWindowAux::new()
            .override_redirect(1)
            .background_pixel(0)
            .event_mask(EventMask::EXPOSURE | EventMask::VISIBILITY_CHANGE);
        conn.create_window(
            x11rb::COPY_DEPTH_FROM_PARENT,
            window,
            root_window,
            0,
            0,
            1,
            1,
            0,
            WindowClass::INPUT_OUTPUT,
            x11rb::COPY_FROM_PARENT,
            &aux,
        )
        .map_err(x_error)?;
        // A compositor may blur or shadow an unknown override-redirect
        // window: its class lets the player exclude it.
        conn.change_property8(
            PropMode::REPLACE,
            window,
            AtomEnum::WM_CLASS,
            AtomEnum::STRING,
            b"dustbot-marks\0Dustbot\0",
        )
        .map_err(x_error)?;
        // No press ever lands on the marks.
        conn.shape_rectangles(
            SO::SET,
            SK::INPUT,
            ClipOrdering::UNSORTED,
            window,
            0,
            0,
            &[],
        )
        .map_err(x_error)?;
        let gc = conn.generate_id().map_err(x_error)?;
        conn.create_gc(gc, window, &CreateGCAux::new())
            .map_err(x_error)?;
        sync(&conn)?;
        Ok(Overlay {
            conn,
            window,
            gc,
            masks,
            marks: Vec::new(),
            at: ScreenRect {
                x: 0,
                y: 0,
                width: 1,
                height: 1,
            },
        })
    }

    /// Shapes the window to `marks`, maps it above every window and
    /// paints it; done when this returns (a round trip), so that a
    /// capture on another connection sees them.
    pub(super) fn show(&mut self, marks: &[Mark]) -> Result<(), String> {
        let at = super::answers::bounds(marks).ok_or("no marks")?;
        let rects = within(at, marks.iter().flat_map(|m| &m.rects));
        let conn = &self.conn;
        conn.configure_window(
            self.window,
            &ConfigureWindowAux::new()
                .x(at.x)
                .y(at.y)
                .width(at.width.max(1))
                .height(at.height.max(1))
                .stack_mode(StackMode::ABOVE),
        )
        .map_err(x_error)?;
        let set = |kind, rects: &[Rectangle]| {
            conn.shape_rectangles(
                SO::SET,
                kind,
                ClipOrdering::UNSORTED,
                self.window,
                0,
                0,
                rects,
            )
            .map(|_| ())
            .map_err(x_error)
        };
        set(SK::BOUNDING, &rects)?;
        set(SK::INPUT, &[])?;
        conn.map_window(self.window).map_err(x_error)?;
        self.marks = marks.to_vec();
        self.at = at;
        self.paint()?;
        sync(&self.conn)
    }

    /// Fills each mark in its colour, the first last (on top).
    fn paint(&self) -> Result<(), String> {
        for mark in self.marks.iter().rev() {
            let pixel = pixel_of(mark.colour, self.masks);
            self.conn
                .change_gc(self.gc, &ChangeGCAux::new().foreground(pixel))
                .map_err(x_error)?;
            let rects = within(self.at, &mark.rects);
            self.conn
                .poly_fill_rectangle(self.window, self.gc, &rects)
                .map_err(x_error)?;
        }
        Ok(())
    }

    /// Unmaps the window; done when this returns.
    pub(super) fn hide(&mut self) -> Result<(), String> {
        self.conn.unmap_window(self.window).map_err(x_error)?;
        sync(&self.conn)
    }

    /// Repaints what was exposed; true when a window came over the marks
    /// since the last call.
    pub(super) fn pump(&mut self) -> Result<bool, String> {
        let (mut exposed, mut covered) = (false, false);
        while let Some(event) = self.conn.poll_for_event().map_err(x_error)? {
            match event {
                Event::Expose(_) => exposed = true,
                Event::VisibilityNotify(v) => covered |= v.state != Visibility::UNOBSCURED,
                _ => {}
            }
        }
        if exposed {
            self.paint()?;
            self.conn.flush().map_err(x_error)?;
        }
        Ok(covered)
    }

    /// Puts the window above every other again; done when this returns.
    pub(super) fn raise(&mut self) -> Result<(), String> {
        let above = ConfigureWindowAux::new().stack_mode(StackMode::ABOVE);
        self.conn
            .configure_window(self.window, &above)
            .map_err(x_error)?;
        sync(&self.conn)
    }
}

impl Drop for Overlay {
    fn drop(&mut self) {
        // The window goes with the connection anyway: said for the log.
        if let Err(error) = self
            .conn
            .destroy_window(self.window)
            .map_err(x_error)
            .and_then(|_| self.conn.flush().map_err(x_error))
        {
            log::debug!("the marks window: {error}");
        }
    }
}

/// `rects` of the desktop in the pixels of a window at `at`.
fn within<'r>(at: ScreenRect, rects: impl IntoIterator<Item = &'r ScreenRect>) -> Vec<Rectangle> {
    let size = |v: u32| v.min(u32::from(u16::MAX)) as u16;
    rects
        .into_iter()
        .map(|r| Rectangle {
            x: clamp16(r.x - at.x),
            y: clamp16(r.y - at.y),
            width: size(r.width),
            height: size(r.height),
        })
        .collect()
}

/// Waits until the server has done every request sent on `conn` (a round
/// trip): what another connection asks next sees its effect.
fn sync(conn: &RustConnection) -> Result<(), String> {
    conn.get_input_focus()
        .map_err(x_error)?
        .reply()
        .map(|_| ())
        .map_err(x_error)
}

/// The pixel value of `colour` in a true-colour visual of `masks` (red,
/// green, blue): each 8-bit channel scaled to its mask's bits.
fn pixel_of(colour: [u8; 3], masks: [u32; 3]) -> u32 {
    colour.iter().zip(masks).fold(0, |pixel, (&channel, mask)| {
        if mask == 0 {
            return pixel;
        }
        let shift = mask.trailing_zeros();
        let max = u64::from(mask >> shift);
        let value = (u64::from(channel) * max + 127) / 255;
        pixel | ((value as u32) << shift) & mask
    })
}

/// The parent of process `pid`, from `/proc` (none where it does not
/// exist).
pub(super) fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields after the
    // last ')' are the state, then the parent.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The command line of process `pid`, its words joined by spaces, from
/// `/proc`.
pub(super) fn command_line_of(pid: u32) -> Option<String> {
    let words = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let words: Vec<String> = words
        .split(|&b| b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// When process `pid` started, in clock ticks since boot, from `/proc`.
pub(super) fn started_at(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The 22nd field; the fields after the command's ')' start at the 3rd.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .parse()
        .ok()
}

/// The process's own connection to the display for the queries here,
/// made at the first: the same display as xcap's and enigo's.
fn display() -> Result<&'static (RustConnection, Window), String> {
    static DISPLAY: OnceLock<Result<(RustConnection, Window), String>> = OnceLock::new();
    DISPLAY
        .get_or_init(|| {
            let (conn, screen) = x11rb::connect(None).map_err(|e| e.to_string())?;
            let root = conn.setup().roots[screen].root;
            Ok((conn, root))
        })
        .as_ref()
        .map_err(Clone::clone)
}

fn atom(conn: &RustConnection, name: &[u8]) -> Result<Atom, String> {
    Ok(conn
        .intern_atom(false, name)
        .map_err(|e| e.to_string())?
        .reply()
        .map_err(|e| e.to_string())?
        .atom)
}

/// A program on X11 says a failure on standard error (a terminal, the
/// desktop's session log) and in its log file.
pub(super) fn show_message(_title: &str, _text: &str) {}

/// The monitors' rectangles in the desktop's pixels, one for each monitor
/// xcap lists (each RandR monitor's outputs, in order): xcap gives them
/// divided by the desktop's scale (`Xft.dpi` 144: two thirds), while the
/// windows' places, the captures and the clicks are in pixels, so that at
/// 150% a window in the screen's right third would read as off it. Each
/// one's work area is its part of the window manager's `_NET_WORKAREA`
/// for the current desktop (the desktop less the docks' struts: EWMH).
pub(super) fn monitor_areas() -> Option<Vec<MonitorArea>> {
    let (conn, root) = display().ok()?;
    let reply = conn.randr_get_monitors(*root, true).ok()?.reply().ok()?;
    let reserved = work_area(conn, *root);
    Some(
        reply
            .monitors
            .iter()
            .flat_map(|m| {
                let rect = ScreenRect {
                    x: i32::from(m.x),
                    y: i32::from(m.y),
                    width: u32::from(m.width),
                    height: u32::from(m.height),
                };
                m.outputs
                    .iter()
                    .map(move |_| MonitorArea::within(rect, reserved))
            })
            .collect(),
    )
}

/// The current desktop's work area, as the window manager sets it on the
/// root (`_NET_WORKAREA`: x, y, width, height for each desktop, the one
/// shown at `_NET_CURRENT_DESKTOP`); `None` without a window manager that
/// says it.
fn work_area(conn: &RustConnection, root: Window) -> Option<ScreenRect> {
    let cardinals = |name: &[u8]| -> Option<Vec<u32>> {
        let reply = conn
            .get_property(
                false,
                root,
                atom(conn, name).ok()?,
                AtomEnum::CARDINAL,
                0,
                1024,
            )
            .ok()?
            .reply()
            .ok()?;
        Some(reply.value32()?.collect())
    };
    let desktop = cardinals(b"_NET_CURRENT_DESKTOP")
        .and_then(|d| d.first().copied())
        .unwrap_or(0) as usize;
    work_area_of(&cardinals(b"_NET_WORKAREA")?, desktop)
}

/// Desktop `desktop`'s rectangle in a `_NET_WORKAREA` value.
fn work_area_of(values: &[u32], desktop: usize) -> Option<ScreenRect> {
    let four = values.chunks_exact(4).nth(desktop)?;
    (four[2] > 0 && four[3] > 0).then(|| ScreenRect {
        x: four[0] as i32,
        y: four[1] as i32,
        width: four[2],
        height: four[3],
    })
}

/// Whether window `id`'s pixels are on the screen: mapped with all its
/// ancestors (the window manager unmaps the frames of the windows on
/// another desktop, and of iconified ones). A window that cannot be asked
/// about (gone) counts as shown: its geometry says it is gone.
pub(super) fn shown(id: u32) -> bool {
    let Ok((conn, _)) = display() else {
        return true;
    };
    conn.get_window_attributes(id)
        .ok()
        .and_then(|cookie| cookie.reply().ok())
        .is_none_or(|attributes| attributes.map_state == MapState::VIEWABLE)
}

/// Window `id`'s ICCCM title (`WM_NAME`), of whatever text type it was
/// set as; `None` when it has none.
pub(super) fn wm_name(id: u32) -> Option<String> {
    let (conn, _) = display().ok()?;
    let reply = conn
        .get_property(false, id, AtomEnum::WM_NAME, AtomEnum::ANY, 0, 1024)
        .ok()?
        .reply()
        .ok()?;
    let utf8 = atom(conn, b"UTF8_STRING").ok()?;
    let title = decode_text(reply.type_ == utf8, &reply.value);
    (!title.is_empty()).then_some(title)
}

/// A text property's bytes as text: UTF-8 when its type says so, else
/// ISO Latin-1 (`STRING`, and the ASCII that compound text mostly is), a
/// character per byte.
fn decode_text(utf8: bool, bytes: &[u8]) -> String {
    if utf8 {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    }
}

/// The top-level window at `point`, as the window list names it (the
/// client window inside the window manager's frame), `None` over the
/// bare root. The server's own answer for the root's child at the point,
/// which honours input shapes: a click-through overlay (an empty input
/// shape) is not found, as a press there goes through it. It is the child
/// a pointer query gives with the pointer there, without moving it.
pub(super) fn window_at(point: ScreenPoint) -> Result<Option<u32>, String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let (conn, root) = display()?;
    let (x, y) = (clamp16(point.x), clamp16(point.y));
    let child = conn
        .translate_coordinates(*root, *root, x, y)
        .map_err(|e| text(&e))?
        .reply()
        .map_err(|e| text(&e))?
        .child;
    if child == x11rb::NONE {
        return Ok(None);
    }
    let state = atom(conn, b"WM_STATE")?;
    Ok(Some(client_of(conn, child, state, 3)?.unwrap_or(child)))
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// The client window in `frame` (the window that has `WM_STATE`, as
/// ICCCM's clients do), looked for `depth` levels down, top-most first.
fn client_of(
    conn: &RustConnection,
    frame: Window,
    state: Atom,
    depth: u32,
) -> Result<Option<Window>, String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let has_state = conn
        .get_property(false, frame, state, AtomEnum::ANY, 0, 0)
        .map_err(|e| text(&e))?
        .reply()
        .is_ok_and(|r| r.type_ != x11rb::NONE);
    if has_state {
        return Ok(Some(frame));
    }
    if depth == 0 {
        return Ok(None);
    }
    let Ok(tree) = conn.query_tree(frame).map_err(|e| text(&e))?.reply() else {
        return Ok(None); // gone meanwhile
    };
    for child in tree.children.into_iter().rev() {
        if let Some(client) = client_of(conn, child, state, depth - 1)? {
            return Ok(Some(client));
        }
    }
    Ok(None)
}

/// Asks the window manager to bring window `id` to the front and give it
/// the focus (`_NET_ACTIVE_WINDOW`, as a pager asks: window managers
/// honour that where they would refuse an application's own request).
pub(super) fn bring_to_front(id: u32) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let (conn, root) = display()?;
    let active = atom(conn, b"_NET_ACTIVE_WINDOW")?;
    let is_active = || {
        conn.get_property(false, *root, active, AtomEnum::WINDOW, 0, 1)
            .ok()
            .and_then(|cookie| cookie.reply().ok())
            .and_then(|reply| reply.value32().and_then(|mut v| v.next()))
            == Some(id)
    };
    // Asked again while it is not in front: under load openbox once left
    // the window that had the keyboard in front, neither activating the
    // window asked for nor marking it (a second dustbot's start, beside
    // other work). Each ask is a pager's (source 2), at time 0: now.
    for _ in 0..3 {
        let event = ClientMessageEvent::new(32, id, active, [2, 0, 0, 0, 0]);
        conn.send_event(
            false,
            *root,
            EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
            event,
        )
        .map_err(|e| text(&e))?;
        conn.flush().map_err(|e| text(&e))?;
        for _ in 0..10 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            if is_active() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Tells the window manager not to give window `id`, not yet mapped, the
/// keyboard when it is: EWMH's `_NET_WM_USER_TIME` of 0 ("the window
/// should not be focused when it is mapped"), which openbox honours where
/// it would focus any new window. The server has it when this returns,
/// before a map asked for on another connection (winit's).
pub(super) fn unfocused_when_mapped(id: u32) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let (conn, _) = display()?;
    let user_time = atom(conn, b"_NET_WM_USER_TIME")?;
    conn.change_property32(PropMode::REPLACE, id, user_time, AtomEnum::CARDINAL, &[0])
        .map_err(|e| text(&e))?
        .check()
        .map_err(|e| text(&e))
}

/// Whether the window `id` answers a ping (`_NET_WM_PING`, EWMH's "is
/// this client still alive?": the client sends the message back to the
/// root) within `wait`: a stopped or hung app does not. A window that
/// takes no ping is taken as answering.
pub(super) fn answers(id: u32, wait: std::time::Duration) -> bool {
    let asked = || -> Result<bool, String> {
        let text = |e: &dyn std::fmt::Display| e.to_string();
        let (conn, screen) = x11rb::connect(None).map_err(|e| text(&e))?;
        let root = conn.setup().roots[screen].root;
        let protocols = atom(&conn, b"WM_PROTOCOLS")?;
        let ping = atom(&conn, b"_NET_WM_PING")?;
        let taken = conn
            .get_property(false, id, protocols, AtomEnum::ATOM, 0, 32)
            .map_err(|e| text(&e))?
            .reply()
            .map_err(|e| text(&e))?;
        if !taken
            .value32()
            .is_some_and(|mut atoms| atoms.any(|a| a == ping))
        {
            return Ok(true);
        }
        // The answer comes to the root, as a message to its redirecting
        // and notified clients.
        let listen = ChangeWindowAttributesAux::new().event_mask(EventMask::SUBSTRUCTURE_NOTIFY);
        conn.change_window_attributes(root, &listen)
            .map_err(|e| text(&e))?;
        let stamp = 0x5054_u32;
        let event = ClientMessageEvent::new(32, id, protocols, [ping, stamp, id, 0, 0]);
        conn.send_event(false, id, EventMask::NO_EVENT, event)
            .map_err(|e| text(&e))?;
        conn.flush().map_err(|e| text(&e))?;
        let asked = std::time::Instant::now();
        while asked.elapsed() < wait {
            while let Some(event) = conn.poll_for_event().map_err(|e| text(&e))? {
                if let Event::ClientMessage(message) = event {
                    let data = message.data.as_data32();
                    if data[0] == ping && data[2] == id {
                        return Ok(true);
                    }
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        Ok(false)
    };
    asked().unwrap_or_else(|why| {
        log::debug!("window {id} not pinged: {why}");
        true
    })
}

/// Makes the loss of the connection of the bot's own windows (`xkill` on
/// one of them, the X server ending) a stop that leaves no button down
/// and records the game ([`on_connection_lost`]) before Xlib ends the
/// process. Once per process; winit's Xlib is the process's one. An Xlib
/// error (a window destroyed by another program, then drawn on) is no
/// end: winit's own error handler logs it and goes on, and the window's
/// destruction comes as an event.
pub(super) fn survive_window_errors() -> Result<(), String> {
    static XLIB: OnceLock<Result<x11_dl::xlib::Xlib, String>> = OnceLock::new();
    let xlib = XLIB
        .get_or_init(|| {
            let xlib = x11_dl::xlib::Xlib::open().map_err(|e| e.to_string())?;
            // SAFETY: sets a process-wide function pointer to a handler
            // that reads nothing Xlib passes; the library stays loaded in
            // `XLIB` for the process's life.
            #[allow(unsafe_code)]
            unsafe {
                (xlib.XSetIOErrorHandler)(Some(on_connection_lost));
            }
            Ok(xlib)
        })
        .as_ref();
    xlib.map(|_| ()).map_err(Clone::clone)
}

/// The connection of the bot's own windows is gone (`xkill` on one of
/// them, the X server ending): Xlib ends the process once this returns.
/// Before that the run is stopped, the button released through the
/// input's own connection (which outlives this one) and the game
/// recorded (see `stop::ending`).
#[allow(unsafe_code)]
unsafe extern "C" fn on_connection_lost(
    _display: *mut x11_dl::xlib::Display,
) -> std::os::raw::c_int {
    log::warn!("the connection of the bot's windows to the display was lost: stopping");
    super::asked::ending(Asker::DisplayClosed, release_primary);
    0
}

/// Releases the primary button through a connection of its own.
fn release_primary() {
    let released = Mouse::connect().and_then(|mut mouse| {
        let button = mouse.primary()?;
        mouse.press(button, false).map_err(|e| e.to_string())
    });
    if let Err(error) = released {
        log::warn!("the button could not be released: {error}");
    }
}

/// The key that stops a run from anywhere, grabbed on the root window
/// through a connection of its own (the process's other connections are
/// busy with captures and the bot's windows), whose thread reads the
/// presses. The grab is given back when this value is dropped: the
/// thread ungrabs and closes the connection, and the server drops any
/// grab of a closed connection anyway.
pub(super) struct StopKeyGrab {
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for StopKeyGrab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopKeyGrab").finish_non_exhaustive()
    }
}

/// How often the thread looks for a press: a stop is taken at the next
/// step of the run anyway.
const STOP_KEY_POLL: Duration = Duration::from_millis(20);

impl StopKeyGrab {
    /// Grabs `key` on the root window, so that it comes to the bot
    /// whichever window has the focus: Pause with any modifiers
    /// (`AnyModifier`), a chord with its modifiers whatever NumLock and
    /// CapsLock are; `pressed` is called at each press. `Taken` when
    /// another client holds it (`BadAccess`).
    pub(super) fn grab(key: GlobalKey, pressed: Pressed) -> Result<StopKeyGrab, GrabError> {
        use x11rb::protocol::xproto::{GrabMode, ModMask};
        let failed = |e: &dyn std::fmt::Display| GrabError::Failed(e.to_string());
        let (conn, screen) = x11rb::connect(None).map_err(|e| failed(&e))?;
        let root = conn.setup().roots[screen].root;
        let (min, max) = (conn.setup().min_keycode, conn.setup().max_keycode);
        let mapping = conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(|e| failed(&e))?
            .reply()
            .map_err(|e| failed(&e))?;
        let codes = keycodes_of(
            key.keysym,
            min,
            mapping.keysyms_per_keycode,
            &mapping.keysyms,
        );
        if codes.is_empty() {
            return Err(GrabError::Failed(format!(
                "no key of this keyboard types {}",
                key.name
            )));
        }
        let masks = grab_masks(key.modifiers);
        for (&code, &mask) in codes.iter().flat_map(|c| masks.iter().map(move |m| (c, m))) {
            let checked = conn
                .grab_key(
                    false,
                    root,
                    ModMask::from(mask),
                    code,
                    GrabMode::ASYNC,
                    GrabMode::ASYNC,
                )
                .map_err(|e| failed(&e))?
                .check();
            match checked {
                Ok(()) => {}
                Err(x11rb::errors::ReplyError::X11Error(error))
                    if error.error_kind == x11rb::protocol::ErrorKind::Access =>
                {
                    return Err(GrabError::Taken);
                }
                Err(error) => return Err(failed(&error)),
            }
        }
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let ended = std::sync::Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            while !ended.load(Ordering::SeqCst) {
                loop {
                    match conn.poll_for_event() {
                        Ok(Some(Event::KeyPress(press))) if codes.contains(&press.detail) => {
                            pressed();
                        }
                        Ok(Some(_)) => {}
                        Ok(None) => break,
                        // The display gone: nothing more to read.
                        Err(_) => return,
                    }
                }
                sleep(STOP_KEY_POLL);
            }
            for &code in &codes {
                for &mask in &masks {
                    conn.ungrab_key(code, root, ModMask::from(mask)).ok();
                }
            }
            conn.flush().ok();
        });
        Ok(StopKeyGrab {
            done,
            thread: Some(thread),
        })
    }
}

impl Drop for StopKeyGrab {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.join().ok();
        }
    }
}

/// The modifier masks a key is grabbed with: `AnyModifier` (0x8000) for
/// a bare key; a chord's `modifiers` with CapsLock (Lock, 0x2) and NumLock
/// (Mod2, 0x10) each on or off, as X11 grabs the exact state.
fn grab_masks(modifiers: Option<u16>) -> Vec<u16> {
    match modifiers {
        None => vec![0x8000],
        Some(held) => [0, 0x2, 0x10, 0x12]
            .iter()
            .map(|locks| held | locks)
            .collect(),
    }
}

/// The keycodes whose keysyms hold `keysym`, in a keyboard mapping from
/// `min` with `per` keysyms a keycode.
fn keycodes_of(keysym: u32, min: u8, per: u8, keysyms: &[u32]) -> Vec<u8> {
    keysyms
        .chunks(usize::from(per.max(1)))
        .zip(min..=u8::MAX)
        .filter(|(syms, _)| syms.contains(&keysym))
        .map(|(_, code)| code)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_monitors_work_area_is_its_part_of_the_current_desktops() {
        // Two desktops; the second's work area leaves 48 px at the bottom
        // (a dock's strut) of a desktop 3840 wide over two monitors.
        let values = [0, 0, 3840, 1080, 0, 0, 3840, 1032];
        let work = work_area_of(&values, 1).unwrap();
        assert_eq!(work_area_of(&values, 2), None);
        assert_eq!(work_area_of(&[0, 0, 0, 0], 0), None);
        let right = ScreenRect {
            x: 1920,
            y: 0,
            width: 1920,
            height: 1080,
        };
        let area = MonitorArea::within(right, Some(work));
        assert_eq!(
            area.work,
            ScreenRect {
                height: 1032,
                ..right
            }
        );
        assert_eq!(MonitorArea::within(right, None), MonitorArea::whole(right));
    }

    #[test]
    fn mark_colours_are_the_visuals_pixels() {
        // The usual 24-bit visual, and a 16-bit one (5-6-5).
        let rgb = [0xff_0000, 0x00_ff00, 0x00_00ff];
        assert_eq!(pixel_of([0x12, 0x34, 0x56], rgb), 0x12_3456);
        let rgb565 = [0xf800, 0x07e0, 0x001f];
        assert_eq!(pixel_of([255, 255, 255], rgb565), 0xffff);
        assert_eq!(pixel_of([255, 0, 0], rgb565), 0xf800);
        assert_eq!(pixel_of([0, 128, 0], rgb565), 32 << 5);
    }

    #[test]
    fn titles_of_every_text_type_read() {
        // xterm sets WM_NAME as STRING, ISO Latin-1.
        assert_eq!(
            decode_text(false, b"bot --window Dust"),
            "bot --window Dust"
        );
        assert_eq!(decode_text(false, b"caf\xe9"), "café");
        assert_eq!(decode_text(true, "café".as_bytes()), "café");
    }

    #[test]
    fn the_pause_key_is_found_at_every_keycode_that_types_it() {
        // Two keysyms a keycode from 8: Pause at 10 alone, and as the
        // shifted keysym of 12 (Ctrl+Break's key on some layouts).
        let pause = crate::desktop::words::PAUSE.keysym;
        let keysyms = [0x61, 0x41, 0x62, 0x42, pause, 0, 0x63, 0x43, 0xff6b, pause];
        assert_eq!(keycodes_of(pause, 8, 2, &keysyms), [10, 12]);
        assert!(keycodes_of(pause, 8, 2, &keysyms[..4]).is_empty());
    }

    #[test]
    fn a_chord_is_grabbed_whatever_capslock_and_numlock_are() {
        assert_eq!(grab_masks(None), [0x8000]);
        assert_eq!(grab_masks(Some(0xc)), [0xc, 0xe, 0x1c, 0x1e]);
    }

    #[test]
    fn this_process_started_after_its_parent() {
        let own = started_at(std::process::id()).unwrap();
        let parent = started_at(parent_of(std::process::id()).unwrap()).unwrap();
        assert!(parent <= own, "{parent} > {own}");
    }
}
