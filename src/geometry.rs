//! Where the board is in an image: pixel positions, and the mapping between
//! pixels and cells (origin and pitch). Pixels and cells are separate types
//! so that one is never passed for the other.

use serde::{Deserialize, Serialize};

use crate::game::Cell;

/// A position in an image, in pixels (x to the right, y down).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PixelPoint {
    pub x: f32,
    pub y: f32,
}

impl PixelPoint {
    pub const fn new(x: f32, y: f32) -> PixelPoint {
        PixelPoint { x, y }
    }
}

/// The board's place in an image: the top-left corner of the board (the
/// top-left of cell `(0, height-1)`) and the cell pitch, in pixels.
///
/// Cell centres are where the piles' centres of mass are, so a click at
/// [`Geometry::cell_centre`] lands on the pile.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Geometry {
    pub x: f32,
    pub y: f32,
    pub pitch_x: f32,
    pub pitch_y: f32,
    pub width: u8,
    pub height: u8,
}

impl Geometry {
    /// A board of square cells `pitch` pixels wide, `width` x `height`
    /// cells, its top-left corner at `(x, y)`: the renderer draws boards so.
    pub fn square(x: f32, y: f32, pitch: f32, width: u8, height: u8) -> Geometry {
        Geometry {
            x,
            y,
            pitch_x: pitch,
            pitch_y: pitch,
            width,
            height,
        }
    }

    /// The centre of `cell` in pixels. Row 0 is the bottom row.
    pub fn cell_centre(&self, cell: Cell) -> PixelPoint {
        self.point(f32::from(cell.x), f32::from(cell.y))
    }

    /// The pixel at the centre of the cell at column `x`, row `y` (from the
    /// bottom) in cells: fractional between cells (a pile on its way), and
    /// outside the board for `x = -1` (to look next to it).
    pub fn point(&self, x: f32, y: f32) -> PixelPoint {
        let row_from_top = f32::from(self.height) - 1.0 - y;
        PixelPoint::new(
            self.x + (x + 0.5) * self.pitch_x,
            self.y + (row_from_top + 0.5) * self.pitch_y,
        )
    }

    /// The cell under `p`, or `None` when `p` is off the board.
    pub fn cell_at(&self, p: PixelPoint) -> Option<Cell> {
        if !self.contains(p) {
            return None;
        }
        let column = ((p.x - self.x) / self.pitch_x).floor() as u8;
        let row_from_top = ((p.y - self.y) / self.pitch_y).floor() as u8;
        Some(Cell::new(
            column.min(self.width - 1),
            self.height - 1 - row_from_top.min(self.height - 1),
        ))
    }

    /// True when `p` is inside the board's rectangle.
    pub fn contains(&self, p: PixelPoint) -> bool {
        p.x >= self.x
            && p.y >= self.y
            && p.x < self.x + f32::from(self.width) * self.pitch_x
            && p.y < self.y + f32::from(self.height) * self.pitch_y
    }

    /// The board's size in pixels.
    pub fn size(&self) -> (f32, f32) {
        (
            f32::from(self.width) * self.pitch_x,
            f32::from(self.height) * self.pitch_y,
        )
    }

    /// The board's size in whole pixels, as a picture of it has.
    pub fn pixel_size(&self) -> (usize, usize) {
        let (w, h) = self.size();
        (w.round().max(1.0) as usize, h.round().max(1.0) as usize)
    }

    /// The same board seen in an image whose origin is at `(dx, dy)` of
    /// this one's (e.g. a capture of the board region only).
    pub fn translated(&self, dx: f32, dy: f32) -> Geometry {
        Geometry {
            x: self.x - dx,
            y: self.y - dy,
            ..*self
        }
    }

    /// Every cell, column by column.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let (width, height) = (self.width, self.height);
        (0..width).flat_map(move |x| (0..height).map(move |y| Cell::new(x, y)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real() -> Geometry {
        Geometry {
            x: 2.0,
            y: -6.0,
            pitch_x: 80.0,
            pitch_y: 79.0,
            width: 8,
            height: 6,
        }
    }

    #[test]
    fn centres_round_trip_to_their_cells() {
        let g = real();
        for cell in g.cells() {
            let p = g.cell_centre(cell);
            assert!(g.contains(p));
            assert_eq!(g.cell_at(p), Some(cell));
        }
        assert_eq!(g.cells().count(), 48);
    }

    #[test]
    fn row_zero_is_the_bottom_row() {
        let g = real();
        let bottom = g.cell_centre(Cell::new(0, 0));
        let top = g.cell_centre(Cell::new(0, 5));
        assert!(bottom.y > top.y);
        assert_eq!(top, PixelPoint::new(42.0, 33.5));
        assert_eq!(g.point(0.0, 5.0), top);
    }

    #[test]
    fn a_region_capture_keeps_the_cells() {
        let g = real();
        let region = g.translated(100.0, 50.0);
        let cell = Cell::new(3, 2);
        let (a, b) = (g.cell_centre(cell), region.cell_centre(cell));
        assert_eq!((a.x - b.x, a.y - b.y), (100.0, 50.0));
    }

    #[test]
    fn outside_points_have_no_cell() {
        let g = real();
        for p in [
            PixelPoint::new(1.9, 100.0),
            PixelPoint::new(642.0, 100.0),
            PixelPoint::new(100.0, -6.5),
            PixelPoint::new(100.0, 468.0),
        ] {
            assert!(!g.contains(p), "{p:?}");
            assert_eq!(g.cell_at(p), None);
        }
        assert_eq!(
            g.cell_at(PixelPoint::new(641.9, 467.9)),
            Some(Cell::new(7, 0))
        );
    }
}
