//! A scripted desktop: frames in, clicks out. One game window whose
//! pixels a [`Content`] draws at the time of each capture, and a pointer
//! whose clicks go to that scene, so that live play and assist mode run
//! their real loops without a screen, on any platform. A clone of the
//! desktop, kept by the test, plays the user and the window system: it
//! moves the pointer or the window, puts another window in front (one
//! that takes clicks, a click-through overlay, or one the window list
//! leaves out), closes the game, and keeps every press and release the
//! bot made. A scene may retitle its window as its game goes. The desktop may be scaled (a monitor
//! at 125% or 150%): the scene then draws and takes clicks in its own
//! logical pixels, and the desktop converts, as Windows does for a
//! per-monitor DPI-aware process.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use image::RgbaImage;

use super::screen::{Region, ScreenPoint, ScreenRect};
use super::traits::{Desktop, GameWindow, Pointer};
use super::words::{CaptureError, InputError, WindowInfo};

/// What the fake game window shows and does.
pub trait Content {
    /// The client area at `now`, `size` pixels (the window's size on the
    /// desktop, scaled).
    fn frame(&mut self, now: Instant, size: (u32, u32)) -> RgbaImage;

    /// A click (press and release at the same point) at `at`, in the
    /// scene's own pixels of the client area.
    fn click(&mut self, at: (f32, f32), now: Instant);

    /// Whether the scene closed its window (a player who closes the game
    /// once it is cleared): the window is gone from then on.
    fn closed(&self) -> bool {
        false
    }

    /// The window's title as the scene has it now, if it changes as the
    /// game goes (the practice window counts its clicks there); `None`
    /// keeps the title the desktop was made with.
    fn title(&self) -> Option<String> {
        None
    }
}

/// A monitor's display scaling: how many of its physical pixels make one
/// logical pixel (1.0, 1.25, 1.5, 2.0 for 100% to 200%).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale(pub f32);

impl Scale {
    /// A logical length in physical pixels, rounded as Windows rounds a
    /// window's size.
    pub fn physical(self, logical: u32) -> u32 {
        (logical as f32 * self.0).round() as u32
    }

    /// A physical point of a client area in the scene's logical pixels.
    pub fn logical(self, (x, y): (i32, i32)) -> (f32, f32) {
        (x as f32 / self.0, y as f32 / self.0)
    }
}

/// How a window in front of the game shows and takes clicks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// An ordinary window: listed, drawn over the game, and a click on it
    /// goes to it.
    Opaque,
    /// A transparent overlay that lets clicks through (a GPU vendor's, a
    /// recorder's): listed, shows the game, takes no click.
    ClickThrough,
    /// A window the window list leaves out (on Windows xcap leaves out
    /// the bot's own), that shows the game through it and takes the
    /// clicks on it.
    Unlisted,
}

/// One click the bot made: where the button went down and where it came
/// up, on the desktop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Click {
    pub press: ScreenPoint,
    pub release: ScreenPoint,
}

struct State {
    scene: Box<dyn Content>,
    /// The game window; its size is the scene's, scaled.
    window: WindowInfo,
    scale: Scale,
    /// The monitor the window is on, in desktop pixels.
    monitor: ScreenRect,
    open: bool,
    /// Windows in front of the game, front-most first.
    in_front: Vec<(WindowInfo, Cover)>,
    pointer: ScreenPoint,
    pressed: Option<ScreenPoint>,
    clicks: Vec<Click>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("window", &self.window)
            .field("pointer", &self.pointer)
            .finish_non_exhaustive()
    }
}

impl State {
    /// Whether the game window is there: not closed by the user, nor by
    /// its scene.
    fn shown(&self) -> bool {
        self.open && !self.scene.closed()
    }

    /// A press at `press` and a release at `release`: the game takes the
    /// click where the release is when both fall in its client area.
    fn deliver(&mut self, press: ScreenPoint, release: ScreenPoint) {
        let w = self.window.area();
        let game = Some(self.window.id);
        if self.window_at(press) == game && self.window_at(release) == game {
            let client = (release.x - w.x, release.y - w.y);
            let point = self.scale.logical(client);
            self.scene.click(point, Instant::now());
            if let Some(title) = self.scene.title() {
                self.window.title = title;
            }
        }
    }

    /// The window a press at `point` goes to: the front-most that takes
    /// clicks there, the game's if none, `None` off every window.
    fn window_at(&self, point: ScreenPoint) -> Option<u32> {
        self.in_front
            .iter()
            .find(|(w, cover)| *cover != Cover::ClickThrough && w.area().contains(point))
            .map(|(w, _)| w.id)
            .or_else(|| {
                (self.shown() && self.window.area().contains(point)).then_some(self.window.id)
            })
    }

    /// The windows in front that the window list shows.
    fn listed(&self) -> impl Iterator<Item = &WindowInfo> {
        self.in_front
            .iter()
            .filter(|(_, cover)| *cover != Cover::Unlisted)
            .map(|(w, _)| w)
    }
}

/// The scripted desktop.
#[derive(Clone)]
pub struct FakeDesktop {
    state: Rc<RefCell<State>>,
}

impl std::fmt::Debug for FakeDesktop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeDesktop").finish_non_exhaustive()
    }
}

impl FakeDesktop {
    /// A desktop whose `monitor` (desktop pixels) holds one window titled
    /// `title`, its client area's top-left at `at`, `size` logical pixels
    /// drawn by `scene`, at display scaling `scale`. The pointer starts at
    /// the monitor's top-left.
    pub fn new(
        title: &str,
        at: (i32, i32),
        size: (u32, u32),
        scale: Scale,
        monitor: ScreenRect,
        scene: Box<dyn Content>,
    ) -> FakeDesktop {
        let window = WindowInfo {
            id: 1,
            pid: Some(1),
            title: title.to_owned(),
            app: "fake".to_owned(),
            x: at.0,
            y: at.1,
            width: scale.physical(size.0),
            height: scale.physical(size.1),
            minimised: false,
            hidden: false,
        };
        FakeDesktop {
            state: Rc::new(RefCell::new(State {
                scene,
                window,
                scale,
                monitor,
                open: true,
                in_front: Vec::new(),
                pointer: ScreenPoint::new(monitor.x, monitor.y),
                pressed: None,
                clicks: Vec::new(),
            })),
        }
    }

    /// Every click the bot made so far.
    pub fn clicks(&self) -> Vec<Click> {
        self.state.borrow().clicks.clone()
    }

    /// The game window as the desktop has it now.
    pub fn window(&self) -> WindowInfo {
        self.state.borrow().window.clone()
    }

    /// The user moves the pointer to `to`.
    pub fn move_pointer(&self, to: ScreenPoint) {
        self.state.borrow_mut().pointer = to;
    }

    /// The user moves the game window to `to` (its client area's top-left).
    pub fn move_window(&self, to: (i32, i32)) {
        let mut state = self.state.borrow_mut();
        (state.window.x, state.window.y) = to;
    }

    /// Another window comes to the front over `area` (desktop pixels).
    pub fn cover(&self, title: &str, area: ScreenRect) {
        self.cover_with(title, area, Cover::Opaque);
    }

    /// Another window that shows and takes clicks as `cover` says comes
    /// to the front over `area` (desktop pixels).
    pub fn cover_with(&self, title: &str, area: ScreenRect, cover: Cover) {
        let mut state = self.state.borrow_mut();
        let id = 2 + state.in_front.len() as u32;
        let window = WindowInfo {
            id,
            pid: Some(id),
            title: title.to_owned(),
            app: "other".to_owned(),
            x: area.x,
            y: area.y,
            width: area.width,
            height: area.height,
            minimised: false,
            hidden: false,
        };
        state.in_front.insert(0, (window, cover));
    }

    /// The user clicks at `at` (desktop pixels) with their own mouse: the
    /// game takes it, the bot's clicks do not count it.
    pub fn player_click(&self, at: ScreenPoint) {
        let mut state = self.state.borrow_mut();
        state.deliver(at, at);
    }

    /// The user minimises the game window (`true`) or restores it.
    pub fn minimise(&self, minimised: bool) {
        self.state.borrow_mut().window.minimised = minimised;
    }

    /// The game window is closed.
    pub fn close(&self) {
        self.state.borrow_mut().open = false;
    }

    /// The game window is closed and another one, of the same title at
    /// the same place, opens in its stead drawn by `scene` (a page
    /// reloaded, a client restarted).
    pub fn replace(&self, scene: Box<dyn Content>) {
        let mut state = self.state.borrow_mut();
        state.window.id += 100;
        state.scene = scene;
        state.open = true;
    }
}

impl Desktop for FakeDesktop {
    fn windows(&mut self) -> Result<Vec<WindowInfo>, CaptureError> {
        let state = self.state.borrow();
        let mut all: Vec<WindowInfo> = state.listed().cloned().collect();
        if state.shown() {
            all.push(state.window.clone());
        }
        Ok(all)
    }

    fn open(&mut self, info: &WindowInfo) -> Result<Box<dyn GameWindow>, CaptureError> {
        Ok(Box::new(FakeWindow {
            state: Rc::clone(&self.state),
            info: info.clone(),
        }))
    }

    fn pointer(&mut self) -> Result<Box<dyn Pointer>, InputError> {
        Ok(Box::new(self.clone()))
    }
}

/// The game window of a [`FakeDesktop`].
#[derive(Debug)]
struct FakeWindow {
    state: Rc<RefCell<State>>,
    info: WindowInfo,
}

impl GameWindow for FakeWindow {
    fn info(&self) -> &WindowInfo {
        &self.info
    }

    fn refresh(&mut self) -> Result<&WindowInfo, CaptureError> {
        let state = self.state.borrow();
        if !state.shown() || state.window.id != self.info.id {
            return Err(CaptureError::Gone {
                title: self.info.title.clone(),
            });
        }
        self.info = state.window.clone();
        Ok(&self.info)
    }

    fn covering(&self, region: Region) -> Result<Vec<WindowInfo>, CaptureError> {
        let on_desktop = region.on_screen(self.info.area().origin());
        Ok(self
            .state
            .borrow()
            .listed()
            .filter(|w| w.area().intersection(&on_desktop).is_some())
            .cloned()
            .collect())
    }

    fn window_at(&self, point: ScreenPoint) -> Result<Option<u32>, CaptureError> {
        Ok(self.state.borrow().window_at(point))
    }

    fn capture_region(&mut self, region: Region) -> Result<(RgbaImage, Region), CaptureError> {
        let mut state = self.state.borrow_mut();
        let (width, height) = (state.window.width, state.window.height);
        let client = Region::whole(width, height);
        // The monitor, in client coordinates: a region off it is cut there.
        let origin = self.info.area().origin();
        let monitor = state.monitor.in_client(origin);
        let part = region
            .intersection(&client)
            .and_then(|r| r.intersection(&monitor))
            .ok_or_else(|| CaptureError::OffScreen {
                title: self.info.title.clone(),
            })?;
        let frame = state.scene.frame(Instant::now(), (width, height));
        let mut image = image::imageops::crop_imm(
            &frame,
            part.x as u32,
            part.y as u32,
            part.width,
            part.height,
        )
        .to_image();
        // A window in front shows instead of the game where it overlaps.
        let shown = part.on_screen(origin);
        let opaque = state.in_front.iter().filter(|(_, c)| *c == Cover::Opaque);
        for (other, _) in opaque {
            if let Some(cover) = other.area().intersection(&shown) {
                let cover = cover.in_client(shown.origin());
                for y in cover.y..cover.y + cover.height as i32 {
                    for x in cover.x..cover.x + cover.width as i32 {
                        image.put_pixel(x as u32, y as u32, image::Rgba([200, 200, 200, 255]));
                    }
                }
            }
        }
        Ok((image, part))
    }

    fn screen(&self) -> Option<ScreenRect> {
        Some(self.state.borrow().monitor)
    }

    fn screen_scale(&self) -> f32 {
        self.state.borrow().scale.0
    }
}

impl Pointer for FakeDesktop {
    fn location(&mut self) -> Result<ScreenPoint, InputError> {
        Ok(self.state.borrow().pointer)
    }

    fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError> {
        self.state.borrow_mut().pointer = to;
        Ok(())
    }

    fn primary_down(&mut self) -> Result<bool, InputError> {
        Ok(self.state.borrow().pressed.is_some())
    }

    fn button(&mut self, down: bool) -> Result<(), InputError> {
        let mut state = self.state.borrow_mut();
        let at = state.pointer;
        if down {
            state.pressed = Some(at);
            return Ok(());
        }
        let Some(press) = state.pressed.take() else {
            return Ok(());
        };
        state.clicks.push(Click { press, release: at });
        state.deliver(press, at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_lengths_and_points_convert_both_ways() {
        for (scale, length, physical) in [
            (1.0, 720, 720),
            (1.25, 720, 900),
            (1.5, 720, 1080),
            (2.0, 720, 1440),
            (1.25, 1, 1),
            (1.5, 3, 5),
        ] {
            assert_eq!(
                Scale(scale).physical(length),
                physical,
                "{scale} x {length}"
            );
        }
        // A cell centre at (120, 120) logical is drawn at 150% at (180,
        // 180) physical, and a click there reaches the scene at (120, 120).
        assert_eq!(Scale(1.5).logical((180, 180)), (120.0, 120.0));
        assert_eq!(Scale(1.25).logical((150, 50)), (120.0, 40.0));
        assert_eq!(Scale(2.0).logical((161, 0)), (80.5, 0.0));
    }
}
