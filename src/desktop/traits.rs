//! The desktop as the rest of the bot is written against it: the three
//! traits [`Desktop`] (the windows and the mouse), [`GameWindow`] (the
//! game window watched, its pixels) and [`Pointer`] (the mouse moved and
//! pressed). The system's desktop ([`super::capture`], [`super::input`])
//! implements them, and so does the scripted one ([`super::fake`]): the
//! live loop and assist mode run on either.

use image::RgbaImage;

use super::screen::{Region, ScreenPoint, ScreenRect};
use super::words::{CaptureError, InputError, WindowInfo};

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
        parts_of_one_capture(self, parts)
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

/// `parts` of `window`'s client area cut from one capture of the
/// rectangle around them all: [`GameWindow::capture_parts`] where the
/// platform has nothing cheaper. An error when the capture was cut at the
/// screen's edge.
pub(super) fn parts_of_one_capture<W: GameWindow + ?Sized>(
    window: &mut W,
    parts: &[Region],
) -> Result<Vec<RgbaImage>, CaptureError> {
    let Some(first) = parts.first() else {
        return Ok(Vec::new());
    };
    let (mut left, mut top) = (first.x, first.y);
    let (mut right, mut bottom) = (left, top);
    for part in parts {
        left = left.min(part.x);
        top = top.min(part.y);
        right = right.max(part.x + part.width as i32);
        bottom = bottom.max(part.y + part.height as i32);
    }
    let around = Region {
        x: left,
        y: top,
        width: (right - left) as u32,
        height: (bottom - top) as u32,
    };
    let (image, captured) = window.capture_region(around)?;
    if captured != around {
        return Err(CaptureError::OffScreen {
            title: window.info().title.clone(),
        });
    }
    Ok(parts
        .iter()
        .map(|part| {
            let (x, y) = ((part.x - left) as u32, (part.y - top) as u32);
            image::imageops::crop_imm(&image, x, y, part.width, part.height).to_image()
        })
        .collect())
}
