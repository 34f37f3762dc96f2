//! Vision: finds the board in an image and reads each cell against a
//! calibrated palette. This file is the facade: what a read gives (a
//! [`Reading`] of every cell, the errors) and the entry points; [`read()`]
//! (in `read.rs`) tries a known geometry first, searches the image when
//! that does not fit, then reads every cell as a colour or empty with a
//! confidence. [`Reading::board`] turns a confident, well-shaped reading of
//! a settled board into a [`Board`]. Loading files (`load.rs`), the
//! calibration, learning one, the search (`locate/`), one cell's read
//! (`classify.rs`) and the settled check (`doubt.rs`) have files of
//! their own.

mod calibration;
mod classify;
mod doubt;
mod learn;
mod load;
mod locate;
mod read;
mod swamp;

use std::fmt;

use thiserror::Error;

pub use calibration::{
    BackgroundModel, BoardShape, Calibration, CalibrationError, ColourModel, EmptyModel, PileModel,
    StoredGeometry, Thresholds, VERSION,
};
/// Where a read looks in each cell (half the side of the square around
/// its centre) and at each inner cell corner (the background's patches),
/// in pitches, and the longest straight edge a settled board shows: the
/// bounds of what assist mode may draw on the game's board.
#[cfg(feature = "desktop")]
pub(crate) use classify::{CORNER_PATCH, WINDOW as CELL_WINDOW};
pub use doubt::Doubt;
#[cfg(test)]
pub(crate) use doubt::MAX_STRAIGHT_EDGE;
pub use learn::{LearnError, cluster_colours, learn, learn_from, learn_on, propose};
pub use load::{LoadError, MAX_IMAGE_BYTES, MAX_PIXELS, load};
pub use read::{read, read_at};
pub use swamp::{SHOWN as SWAMP_SHOWN, Swamp};

use crate::game::{Board, BoardError, Cell, Colour};
use crate::geometry::Geometry;

/// Why an image gives no board.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum VisionError {
    #[error("no board found: {0}")]
    NoBoard(String),
    #[error("unsure of {} cell(s): {}", .0.len(), list_cells(.0))]
    Unsure(Vec<(Cell, f32)>),
    #[error("the reading is not a possible board: {0}")]
    Shape(BoardError),
    #[error("not a settled board (mid-animation or covered): {}", list_doubts(.0))]
    Unsettled(Vec<(Cell, Doubt)>),
    /// The board's place shows another picture than the game's swamp
    /// (at this share of its corners).
    #[error(
        "the board's place shows other pixels than the game's (its swamp at {:.0}% of the corners): another window or desktop there?",
        .0 * 100.0
    )]
    NoSwamp(f32),
}

fn list_cells(cells: &[(Cell, f32)]) -> String {
    listed(
        cells
            .iter()
            .map(|(cell, confidence)| format!("{cell} at {confidence:.2}"))
            .collect(),
    )
}

/// The cells in doubt, grouped by why: "a fading pile at (1,0), (2,0)".
fn list_doubts(doubts: &[(Cell, Doubt)]) -> String {
    let mut groups: Vec<(Doubt, Vec<String>)> = Vec::new();
    for (cell, doubt) in doubts {
        match groups.iter_mut().find(|(d, _)| d == doubt) {
            Some((_, cells)) => cells.push(cell.to_string()),
            None => groups.push((*doubt, vec![cell.to_string()])),
        }
    }
    groups
        .into_iter()
        .map(|(doubt, cells)| format!("{doubt} at {}", listed(cells)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The most cells an error names; a garbled picture may have all of them
/// in doubt, and an error stays one short line.
const LISTED: usize = 6;

/// The first [`LISTED`] items, and how many more.
fn listed(items: Vec<String>) -> String {
    let more = items.len().saturating_sub(LISTED);
    let mut text = items
        .into_iter()
        .take(LISTED)
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        text += &format!(" and {more} more");
    }
    text
}

/// One cell as read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellReading {
    pub cell: Cell,
    /// The colour read, `None` for an empty cell.
    pub colour: Option<Colour>,
    /// 0 (a guess) to 1 (sure).
    pub confidence: f32,
    /// CIEDE2000 distance from the colour's calibrated centre.
    pub delta_e: f32,
    /// The pile's centre of mass relative to the cell centre, in pitches.
    pub offset: [f32; 2],
    /// Share of the cell's window that is pile-coloured.
    pub mass: f32,
    /// How strongly the pile stands out from the background against its
    /// colour's calibrated centre (1 as calibrated, about its opacity for
    /// a fading pile; 0 for an empty cell).
    pub strength: f32,
    /// Why the reading cannot be trusted whatever its confidence: the
    /// frame is not of a settled, visible board there.
    pub doubt: Option<Doubt>,
}

impl CellReading {
    /// True when the confidence reaches `threshold` (never for NaN).
    pub fn is_sure(&self, threshold: f32) -> bool {
        self.confidence >= threshold
    }
}

/// Every cell of a board as read from one image.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub geometry: Geometry,
    /// Column by column: index `x * height + y`.
    pub cells: Vec<CellReading>,
    /// The calibration's confidence threshold.
    pub threshold: f32,
}

impl Reading {
    /// The board read, if every cell is at or above the threshold and no
    /// tile floats; the error names the unsure cells.
    pub fn board(&self) -> Result<Board, VisionError> {
        let doubts: Vec<(Cell, Doubt)> = self
            .cells
            .iter()
            .filter_map(|c| Some((c.cell, c.doubt?)))
            .collect();
        if !doubts.is_empty() {
            return Err(VisionError::Unsettled(doubts));
        }
        let unsure: Vec<(Cell, f32)> = self
            .cells
            .iter()
            .filter(|c| !c.is_sure(self.threshold))
            .map(|c| (c.cell, c.confidence))
            .collect();
        if !unsure.is_empty() {
            return Err(VisionError::Unsure(unsure));
        }
        self.guess().map_err(VisionError::Shape)
    }

    /// The board as read, unsure cells included (for pictures and
    /// messages); fails only on a floating tile.
    pub fn guess(&self) -> Result<Board, BoardError> {
        Board::from_fn(self.geometry.width, self.geometry.height, |cell| {
            self.cell(cell).colour
        })
    }

    /// Each cell: the colour read (`None` for empty) and whether it was
    /// read at or above the threshold.
    pub fn marks(&self) -> impl Iterator<Item = (Cell, Option<Colour>, bool)> + '_ {
        self.cells
            .iter()
            .map(|c| (c.cell, c.colour, c.is_sure(self.threshold)))
    }

    /// The lowest cell confidence.
    pub fn min_confidence(&self) -> f32 {
        self.cells.iter().map(|c| c.confidence).fold(1.0, f32::min)
    }

    /// The reading of `cell`.
    pub fn cell(&self, cell: Cell) -> &CellReading {
        &self.cells[cell.x as usize * self.geometry.height as usize + cell.y as usize]
    }

    /// A grid of the cells' confidences, top row first, as `bot calibrate`
    /// prints it.
    pub fn confidence_grid(&self) -> ConfidenceGrid<'_> {
        ConfidenceGrid(self)
    }
}

/// A reading's confidences as a grid with coordinates.
#[derive(Debug)]
pub struct ConfidenceGrid<'a>(&'a Reading);

impl fmt::Display for ConfidenceGrid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.0.geometry;
        write!(f, "  |")?;
        for x in 0..g.width {
            write!(f, "   {x}  ")?;
        }
        writeln!(f)?;
        writeln!(f, "--+{}", "-".repeat(6 * g.width as usize))?;
        for y in (0..g.height).rev() {
            write!(f, "{y} |")?;
            for x in 0..g.width {
                let c = self.0.cell(Cell::new(x, y));
                let letter = c.colour.map_or('.', Colour::letter);
                write!(f, " {letter}{:.2}", c.confidence)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(confidences: &[(Cell, Option<char>, f32)]) -> Reading {
        let geometry = Geometry {
            x: 0.0,
            y: 0.0,
            pitch_x: 10.0,
            pitch_y: 10.0,
            width: 2,
            height: 2,
        };
        let cells = geometry
            .cells()
            .map(|cell| {
                let (_, letter, confidence) = confidences
                    .iter()
                    .find(|c| c.0 == cell)
                    .copied()
                    .unwrap_or((cell, None, 1.0));
                CellReading {
                    cell,
                    colour: letter.and_then(Colour::from_letter),
                    confidence,
                    delta_e: 0.0,
                    offset: [0.0; 2],
                    mass: 0.0,
                    strength: 0.0,
                    doubt: None,
                }
            })
            .collect();
        Reading {
            geometry,
            cells,
            threshold: 0.5,
        }
    }

    #[test]
    fn a_sure_reading_is_a_board() {
        let r = reading(&[
            (Cell::new(0, 0), Some('G'), 0.9),
            (Cell::new(1, 0), Some('B'), 0.6),
        ]);
        assert_eq!(r.board().unwrap().to_string(), "  ,GB");
        assert_eq!(r.min_confidence(), 0.6);
    }

    #[test]
    fn unsure_cells_are_named() {
        let r = reading(&[
            (Cell::new(0, 0), Some('G'), 0.3),
            (Cell::new(1, 1), None, 0.1),
        ]);
        let error = r.board().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unsure of 2 cell(s): (0,0) at 0.30, (1,1) at 0.10"
        );
        assert_eq!(r.guess().unwrap().to_string(), "  ,G ");
    }

    #[test]
    fn a_floating_tile_is_no_board() {
        let r = reading(&[(Cell::new(0, 1), Some('G'), 0.9)]);
        assert!(matches!(r.board(), Err(VisionError::Shape(_))));
    }

    #[test]
    fn the_confidence_grid_has_the_top_row_first() {
        let r = reading(&[
            (Cell::new(0, 1), Some('G'), 0.9),
            (Cell::new(0, 0), Some('R'), 0.8),
        ]);
        let grid = r.confidence_grid().to_string();
        let rows: Vec<&str> = grid.lines().collect();
        assert!(rows[2].starts_with("1 | G0.90"), "{grid}");
        assert!(rows[3].starts_with("0 | R0.80"), "{grid}");
    }
}
