//! The bot's eye on the game window: captures the board as the screen shows
//! it (so a window in front of the board makes the read fail, as a click
//! would land on that window), reads it with the calibration, and follows
//! the window when it moves or is resized. Every look refreshes the
//! window's geometry first, so each frame says where the window was when it
//! was taken.

use std::time::Instant;

use image::RgbaImage;

use super::PlayError;
use super::place;
use crate::desktop::{GameWindow, Region, WindowInfo};
use crate::game::Board;
use crate::vision::{self, Calibration, Geometry, VisionError};

/// Where a window's client area is on the desktop, and its size.
pub type Place = ((i32, i32), (u32, u32));

/// One look at the board.
#[derive(Debug)]
pub struct Frame {
    /// The capture (the board region, or the whole window for a search).
    pub image: RgbaImage,
    /// The window's client area on the desktop when the frame was taken,
    /// and its size.
    pub origin: (i32, i32),
    pub size: (u32, u32),
    pub board: Result<Board, VisionError>,
    pub confidence: f32,
    pub taken: Instant,
}

/// The window and where its board is.
#[derive(Debug)]
pub struct Eye<'w> {
    window: &'w mut dyn GameWindow,
    calibration: &'w Calibration,
    /// The board in the client area.
    pub geometry: Geometry,
    /// The client size `geometry` was found at.
    pub size: (u32, u32),
    /// The client area on the desktop at the last look.
    pub origin: (i32, i32),
}

impl<'w> Eye<'w> {
    /// Finds the board in the window: a whole-window capture read with the
    /// calibration (its stored geometry first). A window where no board is
    /// found does not fit the calibration.
    pub fn open(
        window: &'w mut dyn GameWindow,
        calibration: &'w Calibration,
    ) -> Result<Eye<'w>, PlayError> {
        let info = window.refresh()?;
        let size = (info.width, info.height);
        let origin = (info.x, info.y);
        let (geometry, _) = find(window, calibration, size, None)?;
        log::debug!("board at {geometry:?} in the {}x{} window", size.0, size.1);
        Ok(Eye {
            window,
            calibration,
            geometry,
            size,
            origin,
        })
    }

    /// Refreshes the window's geometry (an error when it is closed or
    /// minimised), then captures and reads the board where the window is
    /// now. A resized window is searched again.
    pub fn look(&mut self) -> Result<Frame, PlayError> {
        let info = self.window.refresh()?;
        let (size, origin) = ((info.width, info.height), (info.x, info.y));
        if origin != self.origin {
            log::info!(
                "the window moved from {:?} to {:?}: reading it there",
                self.origin,
                origin
            );
            self.origin = origin;
        }
        if size != self.size {
            log::info!(
                "the window was resized from {:?} to {:?}: searching the board",
                self.size,
                size
            );
            self.size = size;
            let hint = self.geometry;
            let (geometry, frame) = find(&mut *self.window, self.calibration, size, Some(&hint))?;
            self.geometry = geometry;
            return Ok(frame);
        }
        let region = place::board_region(&self.geometry, size).ok_or(PlayError::OffBoard)?;
        let (image, part) = self.window.capture_region(region)?;
        if part != region {
            return Err(PlayError::OffScreen);
        }
        let started = Instant::now();
        let geometry = self.geometry.translated(part.x as f32, part.y as f32);
        let reading = vision::read_at(&image, self.calibration, &geometry);
        log::debug!(
            "read the board in {:.1} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
        Ok(Frame {
            board: reading.board(),
            confidence: reading.min_confidence(),
            image,
            origin,
            size,
            taken: Instant::now(),
        })
    }

    /// The first window in front of the game window over its board, if
    /// any (its title): a click on the board would land there.
    pub fn covered_by(&self) -> Result<Option<String>, PlayError> {
        Ok(self.in_front(0)?.first().map(ToString::to_string))
    }

    /// The windows in front of the game window over its board or within
    /// `margin` pixels of it, front-most first.
    pub fn in_front(&self, margin: u32) -> Result<Vec<WindowInfo>, PlayError> {
        let started = Instant::now();
        let board = place::board_region(&self.geometry, self.size).ok_or(PlayError::OffBoard)?;
        let region = Region {
            x: board.x - margin as i32,
            y: board.y - margin as i32,
            width: board.width + 2 * margin,
            height: board.height + 2 * margin,
        };
        let covering = self.window.covering(region)?;
        log::debug!(
            "checked the windows in front in {:.1} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
        Ok(covering)
    }

    /// The window's place and size now (an error when it is closed or
    /// minimised).
    pub fn place_now(&mut self) -> Result<Place, PlayError> {
        let info = self.window.refresh()?;
        Ok(((info.x, info.y), (info.width, info.height)))
    }

    /// The screen the board was last captured on (desktop coordinates);
    /// the window's own area before any capture.
    pub fn screen(&self) -> Region {
        self.window.screen().unwrap_or(Region {
            x: self.origin.0,
            y: self.origin.1,
            width: self.size.0,
            height: self.size.1,
        })
    }
}

/// Captures the whole client area as the screen shows it and searches the
/// board: the geometry in the client area and the frame read.
fn find(
    window: &mut dyn GameWindow,
    calibration: &Calibration,
    size: (u32, u32),
    hint: Option<&Geometry>,
) -> Result<(Geometry, Frame), PlayError> {
    let origin = (window.info().x, window.info().y);
    let (image, part) = window.capture_region(place::client(size))?;
    let started = Instant::now();
    let hint = hint.map(|g| g.translated(part.x as f32, part.y as f32));
    let reading = vision::read(&image, calibration, hint.as_ref())
        .map_err(|cause| PlayError::Misfit(cause.to_string()))?;
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
        origin,
        size,
        taken: Instant::now(),
    };
    Ok((geometry, frame))
}
