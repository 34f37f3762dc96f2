//! The bot's eye on the game window: captures the board as the screen shows
//! it (so a window in front of the board makes the read fail, as a click
//! would land on that window), reads it with the calibration, and follows
//! the window when it moves or is resized. Every frame refreshes the
//! window's geometry first, so each says where the window was when it was
//! taken. Between frames, a glance ([`super::watch`]) at a few rows where
//! the board was tells whether anything changed since the last frame.

use std::time::Instant;

use image::RgbaImage;

use super::screen::ScreenBoard;
use super::watch::{self, Glance};
use super::{LiveError, Moment, NoBoard};
use crate::desktop::{GameWindow, Region, ScreenRect, WindowInfo};
use crate::game::Board;
use crate::vision::{self, Calibration, Geometry, VisionError};

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
}

/// The window and where its board is.
#[derive(Debug)]
pub struct Eye<'w> {
    window: &'w mut dyn GameWindow,
    calibration: &'w Calibration,
    /// The board in the client area found at the last search, and the
    /// client area at the last frame.
    pub board: ScreenBoard,
    /// The glance of the last frame of the board's region.
    seen: Option<Glance>,
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
        let (geometry, _) = find(window, calibration, client, None)?;
        log::debug!(
            "board at {geometry:?} in the {}x{} window",
            client.width,
            client.height
        );
        Ok(Eye {
            window,
            calibration,
            board: ScreenBoard { geometry, client },
            seen: None,
        })
    }

    /// Refreshes the window's geometry (an error when it is closed or
    /// minimised), then captures and reads the board where the window is
    /// now. A resized window is searched again.
    pub fn frame(&mut self) -> Result<Frame, LiveError> {
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
            let (geometry, frame) = find(&mut *self.window, self.calibration, client, Some(&hint))?;
            self.board.geometry = geometry;
            return Ok(frame);
        }
        let region = self.board.region().ok_or(LiveError::OffBoard)?;
        let (image, part) = self.window.capture_region(region)?;
        if part != region {
            return Err(LiveError::OffScreen);
        }
        self.seen = Some(Glance::of_capture(&image, region));
        let started = Instant::now();
        let geometry = self.board.geometry.translated(part.x as f32, part.y as f32);
        let reading = vision::read_at(&image, self.calibration, &geometry);
        log::debug!(
            "read the board in {:.1} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
        Ok(Frame {
            board: reading.board(),
            confidence: reading.min_confidence(),
            image,
            client,
            taken: Instant::now(),
        })
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

    /// `Err(Covered)` when another window is in front of the board: a
    /// click on the board would land there.
    pub fn uncovered(&self, when: Moment) -> Result<(), LiveError> {
        match self.in_front(0)?.first() {
            Some(by) => Err(LiveError::Covered {
                when,
                by: by.to_string(),
            }),
            None => Ok(()),
        }
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
}

/// A glance at `area` of `window`'s client area (at its place as last
/// refreshed); `None` when it cannot be captured.
pub fn glance(window: &mut dyn GameWindow, area: Region) -> Option<Glance> {
    let rows = window.capture_parts(&watch::rows(area)).ok()?;
    Some(Glance::of_rows(&rows))
}

/// Captures the whole client area as the screen shows it and searches the
/// board: the geometry in the client area and the frame read.
fn find(
    window: &mut dyn GameWindow,
    calibration: &Calibration,
    client: ScreenRect,
    hint: Option<&Geometry>,
) -> Result<(Geometry, Frame), LiveError> {
    let (image, part) = window.capture_region(Region::whole(client.width, client.height))?;
    let started = Instant::now();
    let hint = hint.map(|g| g.translated(part.x as f32, part.y as f32));
    let reading = vision::read(&image, calibration, hint.as_ref())
        .map_err(|cause| LiveError::Misfit(NoBoard::Unread(cause)))?;
    log::debug!(
        "searched the board in {:.1} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let geometry = reading
        .geometry
        .translated(-(part.x as f32), -(part.y as f32));
    let frame = Frame {
        board: reading.board(),
        confidence: reading.min_confidence(),
        image,
        client,
        taken: Instant::now(),
    };
    Ok((geometry, frame))
}
