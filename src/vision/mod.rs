//! Vision: finds the board in an image and reads each cell against a
//! calibrated palette. [`read`] is the one entry point: it tries a known
//! geometry first (the last read's, or the calibration's for an image of
//! its size), searches the image when that does not fit, then reads every
//! cell as a colour or empty with a confidence. [`Reading::board`] turns a
//! confident, well-shaped reading into a [`Board`].

mod calibration;
mod classify;
mod learn;
mod locate;
mod settled;

use std::fmt;
use std::path::{Path, PathBuf};

use image::RgbaImage;
use thiserror::Error;

pub use crate::geometry::{Geometry, PixelPoint};
pub use calibration::{
    BackgroundModel, BoardShape, Calibration, CalibrationError, ColourModel, EmptyModel, PileModel,
    StoredGeometry, Thresholds, VERSION,
};
pub use learn::{LearnError, cluster_colours, learn, learn_from};
pub use settled::Doubt;

use crate::colour::{self, Balance};
use crate::game::{Board, BoardError, Cell, Colour};
use classify::{CellVerdict, Judge, Scratch};

/// Why an image file cannot be used. Every message names the file.
#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{path}: cannot read it: {cause}")]
    Read {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: not a PNG or JPEG image ({message})")]
    Format { path: PathBuf, message: String },
    #[error("{path}: broken image: {message}")]
    Decode { path: PathBuf, message: String },
    #[error(
        "{path}: {width}x{height} pixels is more than the {} megapixels of any screen capture",
        MAX_PIXELS / 1_000_000
    )]
    TooLarge {
        path: PathBuf,
        width: u32,
        height: u32,
    },
}

/// The most pixels an image may have: an 8K screen is 33 megapixels. A
/// picture's size is read from its header before it is decoded, so that a
/// small file that unpacks to gigabytes (a decompression bomb) costs
/// nothing.
pub const MAX_PIXELS: u64 = 40_000_000;

/// Loads a PNG or JPEG file (recognised by its contents, not its name) as
/// RGBA, the pixel format captures come in.
pub fn load(path: &Path) -> Result<RgbaImage, LoadError> {
    let bytes = std::fs::read(path).map_err(|cause| LoadError::Read {
        path: path.to_owned(),
        cause,
    })?;
    let format = image::guess_format(&bytes)
        .ok()
        .filter(|f| matches!(f, image::ImageFormat::Png | image::ImageFormat::Jpeg))
        .ok_or_else(|| LoadError::Format {
            path: path.to_owned(),
            message: "unrecognised file contents".into(),
        })?;
    let decode_error = |e: image::ImageError| {
        // The decoder's messages may span lines; an error is one line.
        let message = match e {
            image::ImageError::IoError(cause) => format!("truncated or unreadable data ({cause})"),
            other => other.to_string().replace('\n', " "),
        };
        LoadError::Decode {
            path: path.to_owned(),
            message,
        }
    };
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(&bytes), format);
    let (width, height) = reader().into_dimensions().map_err(decode_error)?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(LoadError::TooLarge {
            path: path.to_owned(),
            width,
            height,
        });
    }
    let image = reader().decode().map_err(decode_error)?;
    Ok(image.to_rgba8())
}

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

/// Reads the board in `image`. Tries `hint` (the last read's geometry)
/// first, then the calibration's stored geometry for an image of its size;
/// searches the image when neither fits. Fails only when no board is found;
/// unsure cells are in the reading (see [`Reading::board`]).
pub fn read(
    image: &RgbaImage,
    calibration: &Calibration,
    hint: Option<&Geometry>,
) -> Result<Reading, VisionError> {
    let stored = calibration.stored_geometry(image.dimensions());
    for known in hint.into_iter().chain(stored.as_ref()) {
        let (reading, judge) = read_with(image, calibration, known);
        if fits(image, calibration, &reading, &judge) {
            return Ok(reading);
        }
        log::debug!("geometry {known:?} does not fit the image: searching");
    }
    let shape = search_shape(calibration);
    let mut grid = locate::find_grid(image, &shape)?;
    // Let the cell reader complete the piles the blob search missed, then
    // place the board.
    let judge = judge_from(
        classify::median_linear(classify::patch_pixels(
            image,
            &grid.inner_corners(),
            (grid.pitch_x, grid.pitch_y),
        )),
        calibration,
    );
    let pitch = (grid.pitch_x, grid.pitch_y);
    let mut scratch = Scratch::default();
    locate::grow(&mut grid, &shape, |centre| {
        centred_pile(image, centre, pitch, &judge, calibration, &mut scratch)
            .is_some_and(|v| v.confidence >= 0.5 * calibration.thresholds.confidence)
    });
    let geometry = locate::place(image, &grid, &shape, hint.or(stored.as_ref()))?;
    Ok(read_at(image, calibration, &geometry))
}

fn search_shape(calibration: &Calibration) -> locate::SearchShape {
    let g = &calibration.geometry;
    locate::SearchShape {
        width: calibration.board.width,
        height: calibration.board.height,
        aspect: g.pitch_y / g.pitch_x,
        pile_size: calibration.piles.size,
    }
}

/// Reads every cell at a known geometry.
pub fn read_at(image: &RgbaImage, calibration: &Calibration, geometry: &Geometry) -> Reading {
    read_with(image, calibration, geometry).0
}

/// Reads every cell with the background's white balance; when that leaves
/// cells unsure (a coloured haze over the capture, not only a tint), fits
/// the balance to the colours of the sure piles and reads again. Returns
/// the better reading and the judge it used.
fn read_with(
    image: &RgbaImage,
    calibration: &Calibration,
    geometry: &Geometry,
) -> (Reading, Judge) {
    let judge = judge(image, calibration, geometry);
    let (mut reading, mut stats) = read_cells(image, calibration, geometry, &judge);
    let mut used = judge;
    // The background's balance undoes a capture's own light, which changes
    // piles and swamp alike; a swamp that is only darker or lighter where
    // the piles are (another picture, a shadow) wants no balance at all.
    let unbalanced = Judge {
        balance: Balance::NONE,
        ..judge
    };
    for other in [
        classify::refine(&judge, &reading, &stats, calibration),
        Some(unbalanced),
    ]
    .into_iter()
    .flatten()
    {
        if reading.min_confidence() >= reading.threshold {
            break;
        }
        let (second, second_stats) = read_cells(image, calibration, geometry, &other);
        if second.min_confidence() > reading.min_confidence() {
            (reading, stats, used) = (second, second_stats, other);
        }
    }
    let strength: Vec<f32> = reading.cells.iter().map(|c| c.strength).collect();
    settled::check(image, geometry, &mut reading.cells, &stats, &strength);
    (reading, used)
}

/// How strongly a cell's pile stands out (see [`settled::pile_strength`]).
fn strength(stats: &classify::CellStats, calibration: &Calibration, colour: Colour) -> f32 {
    let Some(pile) = stats.colour else {
        return 0.0;
    };
    let model = &calibration.colours[colour.index() as usize];
    settled::pile_strength(
        pile,
        colour::oklab_from_linear(colour::linear_from_cielab(model.lab)),
        colour::oklab_from_linear(calibration.background.linear_rgb),
    )
}

fn read_cells(
    image: &RgbaImage,
    calibration: &Calibration,
    geometry: &Geometry,
    judge: &Judge,
) -> (Reading, Vec<classify::CellStats>) {
    let mut scratch = Scratch::default();
    let (cells, stats) = geometry
        .cells()
        .map(|cell| {
            let stats = classify::measure(
                image,
                geometry.cell_centre(cell),
                (geometry.pitch_x, geometry.pitch_y),
                judge,
                &mut scratch,
            );
            let CellVerdict {
                colour,
                confidence,
                delta_e,
            } = classify::classify(&stats, calibration);
            let reading = CellReading {
                cell,
                colour,
                confidence,
                delta_e,
                offset: stats.offset,
                mass: stats.mass,
                strength: colour.map_or(0.0, |c| strength(&stats, calibration, c)),
                doubt: None,
            };
            (reading, stats)
        })
        .unzip();
    let reading = Reading {
        geometry: *geometry,
        cells,
        threshold: calibration.thresholds.confidence,
    };
    (reading, stats)
}

/// How this capture's pixels are judged: white-balanced so that its board
/// background matches the calibration's, then compared with that
/// background.
fn judge(image: &RgbaImage, calibration: &Calibration, geometry: &Geometry) -> Judge {
    judge_from(classify::background(image, geometry), calibration)
}

/// The judge for a capture whose board background measures `measured`.
fn judge_from(measured: Option<[f32; 3]>, calibration: &Calibration) -> Judge {
    let reference = calibration.background.linear_rgb;
    let balance = measured.map_or(Balance::NONE, |measured| {
        Balance::between(measured, reference, calibration.thresholds.balance_limit)
    });
    let [_, a, b] = colour::oklab_from_linear(reference);
    Judge {
        balance,
        background: [a, b],
        threshold: calibration.thresholds.pile_distance,
    }
}

/// True when a reading at a known geometry is the board: every cell sure,
/// the shape possible, every pile centred in its cell, and no pile just
/// outside the board (which a geometry shifted by a cell would leave).
fn fits(image: &RgbaImage, calibration: &Calibration, reading: &Reading, judge: &Judge) -> bool {
    if reading.board().is_err() {
        return false;
    }
    // (A board is only given for piles centred in their cells: see
    // `settled`.)
    let g = &reading.geometry;
    let mut scratch = Scratch::default();
    let pitch = (g.pitch_x, g.pitch_y);
    let (w, h) = (i32::from(g.width), i32::from(g.height));
    let outside = (0..h)
        .flat_map(|y| [(-1, y), (w, y)])
        .chain((0..w).map(|x| (x, -1)));
    // A pile next to the board is read as surely as the board's own and sits
    // centred on the lattice; window decorations there are neither.
    outside.into_iter().all(|(x, y)| {
        let centre = g.lattice_point(x, y);
        centred_pile(image, centre, pitch, judge, calibration, &mut scratch)
            .is_none_or(|v| v.confidence < reading.threshold)
    })
}

/// A pile's centre of mass lies within this many pitches of where a
/// search takes a cell's centre to be; window decorations rarely do.
const CENTRED: f32 = 0.15;

/// The verdict on the window around `centre` when it holds a pile centred
/// there (see [`CENTRED`]), else `None`.
fn centred_pile(
    image: &RgbaImage,
    centre: PixelPoint,
    pitch: (f32, f32),
    judge: &Judge,
    calibration: &Calibration,
    scratch: &mut Scratch,
) -> Option<CellVerdict> {
    let stats = classify::measure(image, centre, pitch, judge, scratch);
    let verdict = classify::classify(&stats, calibration);
    let centred = stats.offset[0].abs() < CENTRED && stats.offset[1].abs() < CENTRED;
    (verdict.colour.is_some() && centred).then_some(verdict)
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
