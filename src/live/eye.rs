//! The bot's eye on the game window: captures the board as the screen shows
//! it (so a window in front of the board makes the read fail, as a click
//! would land on that window), reads it with the calibration, and follows
//! the window when it moves or is resized. Every frame refreshes the
//! window's geometry first, so each says where the window was when it was
//! taken. Between frames, a glance ([`super::watch`]) at a few rows where
//! the board was tells whether anything changed since the last frame.

use std::time::{Duration, Instant};

use image::RgbaImage;

use super::screen::ScreenBoard;
use super::watch::{self, Glance};
use super::{LiveError, Moment, NoBoard, POLL};
use crate::desktop::process::is_own_terminal;
use crate::desktop::{GameWindow, Region, ScreenPoint, ScreenRect, WindowInfo};
use crate::game::{Board, Cell};
use crate::geometry::Geometry;
use crate::vision::{self, Calibration, Swamp, VisionError};

/// One capture of the board, read.
#[derive(Debug)]
pub struct Frame {
    /// The capture (the board region, or the whole window for a search).
    pub image: RgbaImage,
    /// The window's client area on the desktop when the frame was taken.
    pub client: ScreenRect,
    pub board: Result<Board, VisionError>,
    pub confidence: f32,
    pub taken: Instant,
    /// Whether the capture shows the game's own board area (its swamp as
    /// the game showed it): only such a frame may be kept, as no picture
    /// of another window ever is.
    pub shows_the_game: bool,
    /// The board's region of the client area captured, and its glance
    /// (none for a capture of the whole window).
    glance: Option<(Region, Glance)>,
}

/// How long a check of the windows in front serves a click, at most.
pub const FRESH: Duration = POLL;

/// One capture of the board's region, not read yet.
#[derive(Debug)]
pub struct Capture {
    image: RgbaImage,
    client: ScreenRect,
    pub taken: Instant,
    region: Region,
    pub glance: Glance,
}

/// What a capture brought: the board's region, or (the window resized)
/// the whole window searched and read.
#[derive(Debug)]
pub enum Captured {
    Board(Capture),
    Searched(Frame),
}

/// The window and where its board is.
#[derive(Debug)]
pub struct Eye<'w> {
    window: &'w mut dyn GameWindow,
    calibration: &'w Calibration,
    /// The board in the client area found at the last search, and the
    /// client area at the last frame.
    pub board: ScreenBoard,
    /// The swamp as the game showed it at that search: a frame whose
    /// corners show another picture is not the game's.
    pub swamp: Swamp,
    /// The glance of the last frame of the board's region.
    seen: Option<Glance>,
    /// When the windows in front were last found clear of the board.
    clear_at: std::cell::Cell<Option<Instant>>,
}

impl<'w> Eye<'w> {
    /// Finds the board in the window: a whole-window capture read with the
    /// calibration (its stored geometry first). A window where no board is
    /// found does not fit the calibration.
    pub fn open(
        window: &'w mut dyn GameWindow,
        calibration: &'w Calibration,
    ) -> Result<Eye<'w>, LiveError> {
        let client = window.refresh()?.area();
        let (geometry, _, swamp) = find(window, calibration, client, None)?;
        log::debug!(
            "board at {geometry:?} in the {}x{} window",
            client.width,
            client.height
        );
        Ok(Eye {
            window,
            calibration,
            board: ScreenBoard { geometry, client },
            swamp,
            seen: None,
            clear_at: std::cell::Cell::new(None),
        })
    }

    /// The eye on `window` with its board where it was found before (no
    /// search), and the swamp seen then: a game's board, found at its
    /// start.
    pub fn at(
        window: &'w mut dyn GameWindow,
        calibration: &'w Calibration,
        board: ScreenBoard,
        swamp: Swamp,
    ) -> Eye<'w> {
        Eye {
            window,
            calibration,
            board,
            swamp,
            seen: None,
            clear_at: std::cell::Cell::new(None),
        }
    }

    /// Refreshes the window's geometry (an error when it is closed or
    /// minimised), then captures and reads the board where the window is
    /// now. A resized window is searched again.
    pub fn frame(&mut self) -> Result<Frame, LiveError> {
        match self.capture()? {
            Captured::Board(capture) => Ok(self.read(capture)),
            Captured::Searched(frame) => Ok(frame),
        }
    }

    /// Refreshes the window's geometry (an error when it is closed or
    /// minimised), then captures the board's region where the window is
    /// now, unread: a capture whose pixels are those of the one before
    /// reads the same. A resized window is searched again, and that
    /// search's frame is read.
    pub fn capture(&mut self) -> Result<Captured, LiveError> {
        let client = self.window.refresh()?.area();
        let before = self.board.client;
        self.board.client = client;
        if client.origin() != before.origin() {
            log::info!(
                "the window moved from {} to {}: reading it there",
                before.origin(),
                client.origin()
            );
        }
        if (client.width, client.height) != (before.width, before.height) {
            log::info!(
                "the window was resized from {}x{} to {}x{}: searching the board",
                before.width,
                before.height,
                client.width,
                client.height
            );
            let hint = self.board.geometry;
            self.seen = None;
            let (geometry, frame, swamp) =
                find(&mut *self.window, self.calibration, client, Some(&hint))?;
            self.board.geometry = geometry;
            self.swamp = swamp;
            return Ok(Captured::Searched(frame));
        }
        let region = self.board.region().ok_or(LiveError::OffBoard)?;
        let (image, part) = self.window.capture_region(region)?;
        if part != region {
            return Err(LiveError::OffScreen);
        }
        let seen = Glance::of_capture(&image, region);
        self.seen = Some(seen);
        Ok(Captured::Board(Capture {
            image,
            client,
            taken: Instant::now(),
            region,
            glance: seen,
        }))
    }

    /// Reads the board in `capture`, a capture of the board's region.
    pub fn read(&self, capture: Capture) -> Frame {
        let Capture {
            image,
            client,
            taken,
            region,
            glance,
        } = capture;
        let started = Instant::now();
        let geometry = self
            .board
            .geometry
            .translated(region.x as f32, region.y as f32);
        let reading = vision::read_at(&image, self.calibration, &geometry);
        // Black where the window was (another desktop a moment before the
        // window said so) reads as a board of empty cells, and another
        // window over the board as anything: neither shows the swamp.
        let swamp = self.swamp.seen_in(&image, &geometry);
        let shows_the_game = swamp >= vision::SWAMP_SHOWN;
        log::debug!(
            "read the board in {:.1} ms (the swamp at {:.0}% of its corners)",
            started.elapsed().as_secs_f64() * 1000.0,
            swamp * 100.0
        );
        Frame {
            board: if shows_the_game {
                reading.board()
            } else {
                Err(VisionError::NoSwamp(swamp))
            },
            confidence: reading.min_confidence(),
            image,
            client,
            taken,
            shows_the_game,
            glance: Some((region, glance)),
        }
    }

    /// Whether the board's pixels are still those of `frame`, by a glance
    /// at a few rows where the board is (the window's place is not looked
    /// up): the board read in `frame` is the board now. `false` when the
    /// board's region changed since, anything there changed, or the glance
    /// failed.
    pub fn still_shows(&mut self, frame: &Frame) -> bool {
        match (frame.glance, self.board.region()) {
            (Some((region, seen)), Some(now)) if region == now => {
                glance(self.window, region) == Some(seen)
            }
            _ => false,
        }
    }

    /// Whether the board's pixels are those of the last frame, by a glance
    /// at a few rows where the board was then (the window's place is not
    /// looked up): `false` when anything there changed or the glance
    /// failed, and a frame is due.
    pub fn holds_still(&mut self) -> bool {
        match (self.seen, self.board.region()) {
            (Some(seen), Some(region)) => glance(self.window, region) == Some(seen),
            _ => false,
        }
    }

    /// `Err(Covered)` when another window in front of the board takes
    /// the clicks there: a click on the board would land on it. A window
    /// that lets clicks through (a transparent overlay) is no cover.
    pub fn uncovered(&self, when: Moment) -> Result<(), LiveError> {
        let started = Instant::now();
        let board = self.board.area();
        let front = self.in_front(0)?;
        for by in &front {
            let Some(over) = by.area().intersection(&board) else {
                continue;
            };
            let centre = ScreenPoint::new(
                over.x + (over.width / 2) as i32,
                over.y + (over.height / 2) as i32,
            );
            if !self.takes_click_at(centre)? {
                if is_own_terminal(by, &front) {
                    return Err(LiveError::TerminalOver { when });
                }
                return Err(covered_by(by, when));
            }
        }
        self.clear_at.set(Some(started));
        Ok(())
    }

    /// [`Eye::uncovered`], unless the windows in front were found clear of
    /// the board after `taken` and within [`FRESH`]: the check made with
    /// the read that settled a board serves the click that follows it (a
    /// window put in front since changes the board's pixels, which the
    /// aim's glance sees, or takes the press, which is asked for at the
    /// click's point just before it), and while a board settles, captures
    /// left unread are checked once a [`FRESH`] at most.
    pub fn uncovered_after(&self, taken: Instant, when: Moment) -> Result<(), LiveError> {
        match self.clear_at.get() {
            Some(clear) if clear >= taken && clear.elapsed() <= FRESH => Ok(()),
            _ => self.uncovered(when),
        }
    }

    /// `Err(Covered)` unless a press at `point` would reach the game
    /// window, as the window system finds it there now; the window in the
    /// way is named when the window list shows it.
    pub fn takes_click(&self, point: ScreenPoint, when: Moment) -> Result<(), LiveError> {
        if self.takes_click_at(point)? {
            return Ok(());
        }
        let listed = self.in_front(0)?;
        Err(match listed.iter().find(|w| w.area().contains(point)) {
            Some(by) => covered_by(by, when),
            None => LiveError::Covered {
                when,
                by: "a window the window list does not show (one of the bot's own?)".to_owned(),
            },
        })
    }

    fn takes_click_at(&self, point: ScreenPoint) -> Result<bool, LiveError> {
        let game = self.window.info().id;
        Ok(self.window.window_at(point)? == Some(game))
    }

    /// Whether window `id` (one of the bot's own, which the window list
    /// may leave out) is what the window system finds at a cell of the
    /// board or one of its corners.
    pub fn window_over_board(&self, id: u32) -> Result<bool, LiveError> {
        let board = self.board.area();
        let (right, bottom) = (
            board.x + board.width as i32 - 1,
            board.y + board.height as i32 - 1,
        );
        let corners = [
            (board.x, board.y),
            (right, board.y),
            (board.x, bottom),
            (right, bottom),
        ]
        .map(|(x, y)| ScreenPoint::new(x, y));
        let g = self.board.geometry;
        let cells = (0..g.width).flat_map(|x| (0..g.height).map(move |y| Cell::new(x, y)));
        for point in corners
            .into_iter()
            .chain(cells.filter_map(|cell| self.board.click_point(cell)))
        {
            if self.window.window_at(point)? == Some(id) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The windows in front of the game window over its board or within
    /// `margin` pixels of it, front-most first.
    pub fn in_front(&self, margin: u32) -> Result<Vec<WindowInfo>, LiveError> {
        let started = Instant::now();
        let board = self.board.region().ok_or(LiveError::OffBoard)?;
        let around = board
            .on_screen(self.board.client.origin())
            .grown(margin)
            .in_client(self.board.client.origin());
        let covering = self.window.covering(around)?;
        log::debug!(
            "checked the windows in front in {:.1} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
        Ok(covering)
    }

    /// The window's client area now (an error when it is closed or
    /// minimised).
    pub fn client_now(&mut self) -> Result<ScreenRect, LiveError> {
        Ok(self.window.refresh()?.area())
    }

    /// The screen the board was last captured on (desktop coordinates);
    /// the window's own area before any capture.
    pub fn screen(&self) -> ScreenRect {
        self.window.screen().unwrap_or(self.board.client)
    }

    /// That screen's work area (less the taskbar and the docks): where
    /// the hint window goes.
    pub fn work_area(&self) -> ScreenRect {
        self.window.work_area().unwrap_or_else(|| self.screen())
    }

    /// The display scale of that screen.
    pub fn screen_scale(&self) -> f32 {
        self.window.screen_scale()
    }
}

/// A glance at `area` of `window`'s client area (at its place as last
/// refreshed); `None` when it cannot be captured.
pub fn glance(window: &mut dyn GameWindow, area: Region) -> Option<Glance> {
    let rows = window.capture_parts(&watch::rows(area)).ok()?;
    Some(Glance::of_rows(&rows))
}

/// Captures the whole client area as the screen shows it and searches the
/// board: the geometry in the client area, the frame read and the swamp
/// it shows (a board was found there: the game's).
fn find(
    window: &mut dyn GameWindow,
    calibration: &Calibration,
    client: ScreenRect,
    hint: Option<&Geometry>,
) -> Result<(Geometry, Frame, Swamp), LiveError> {
    let (image, part) = window.capture_region(Region::whole(client.width, client.height))?;
    let started = Instant::now();
    let hint = hint.map(|g| g.translated(part.x as f32, part.y as f32));
    let reading = vision::read(&image, calibration, hint.as_ref())
        .map_err(|cause| LiveError::Misfit(NoBoard::Unread(cause)))?;
    log::debug!(
        "searched the board in {:.1} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let swamp = Swamp::of(&image, &reading.geometry);
    let geometry = reading
        .geometry
        .translated(-(part.x as f32), -(part.y as f32));
    let frame = Frame {
        board: reading.board(),
        confidence: reading.min_confidence(),
        image,
        client,
        taken: Instant::now(),
        shows_the_game: true,
        glance: None,
    };
    Ok((geometry, frame, swamp))
}

/// The error of a board covered by `by`: the bot's own window said as
/// the bot's (move it aside), any other as another window.
fn covered_by(by: &WindowInfo, when: Moment) -> LiveError {
    if by.is_ours() {
        LiveError::OwnWindowOver {
            when,
            by: by.to_string(),
        }
    } else {
        LiveError::Covered {
            when,
            by: by.to_string(),
        }
    }
}
