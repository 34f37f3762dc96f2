//! Placing the lattice's piles on the board: the game's rules (gravity
//! fills the bottom row, each row's tiles touch the centre line) and, when
//! they leave a choice, the board's visible edges or an earlier read.

use image::RgbaImage;

use super::{PileGrid, SearchShape, VisionError, min_max};
use crate::colour::Balance;
use crate::geometry::Geometry;

/// Places the grid's cells on the board: the lowest row is row 0 (gravity),
/// and the columns are those where every row's tiles touch the centre line
/// (contraction); when several placements obey the rules, the board's
/// visible edges or `near` decide.
pub(crate) fn place(
    image: &RgbaImage,
    grid: &PileGrid,
    shape: &SearchShape,
    near: Option<&Geometry>,
) -> Result<Geometry, VisionError> {
    let cells = &grid.cells;
    let (first_column, last_column) = min_max(cells.iter().map(|c| c.0));
    let (first_row, last_row) = min_max(cells.iter().map(|c| c.1));
    let span_x = last_column - first_column + 1;
    let span_y = last_row - first_row + 1;
    let (width, height) = (i32::from(shape.width), i32::from(shape.height));
    if span_x > width || span_y > height {
        return Err(VisionError::NoBoard(format!(
            "the piles form a {span_x}x{span_y} grid, larger than the {width}x{height} board"
        )));
    }
    let centre = width / 2;
    let obeys_rules = |shift: i32| {
        (first_row..=last_row).all(|row| {
            let occupied = cells
                .iter()
                .filter(|c| c.1 == row)
                .map(|c| c.0 - first_column + shift);
            let (a, b) = min_max(occupied);
            a > b || (a < centre && b >= centre) || b == centre - 1 || a == centre
        })
    };
    let every_shift: Vec<i32> = (0..=width - span_x).collect();
    let lawful: Vec<i32> = every_shift
        .iter()
        .copied()
        .filter(|&s| obeys_rules(s))
        .collect();
    // A pile the reader missed can make the true placement look unlawful:
    // then let the edges choose among all placements.
    let candidates = if lawful.is_empty() {
        &every_shift
    } else {
        &lawful
    };
    // A lone pile's size gives the pitch to within a tenth or so; an
    // earlier read's, or the board's edges, give it exactly.
    let near_pitch = near
        .map(|n| n.pitch_x / grid.pitch_x)
        .filter(|k| (1.0 - PITCH_GUESS..=1.0 + PITCH_GUESS).contains(k));
    let grid = match near_pitch {
        Some(k) if !grid.pitch_known => &grid.scaled(k),
        _ => grid,
    };
    let geometry_for = |shift: i32, scale: f32| {
        grid.scaled(scale)
            .geometry(shape, first_column - shift, last_row)
    };
    let (chosen, scale) = match (candidates.as_slice(), near) {
        ([only], None) if !grid.pitch_known => by_edges(image, grid, shape, &[*only], first_column)
            .ok_or_else(|| VisionError::NoBoard(NO_EDGES_PITCH.into()))?,
        ([only], _) => (*only, 1.0),
        (several, Some(near)) => (
            *several
                .iter()
                .min_by(|&&a, &&b| {
                    let da = (geometry_for(a, 1.0).x - near.x).abs();
                    let db = (geometry_for(b, 1.0).x - near.x).abs();
                    da.total_cmp(&db)
                })
                .expect("several candidates"),
            1.0,
        ),
        (several, None) => {
            by_edges(image, grid, shape, several, first_column).ok_or_else(|| {
                VisionError::NoBoard(format!(
                    "only {span_x} columns hold piles and {NO_EDGES_COLUMNS}"
                ))
            })?
        }
    };
    Ok(geometry_for(chosen, scale))
}

const NO_EDGES_PITCH: &str =
    "one pile, and the board's edges do not show: cannot tell the board's size";
const NO_EDGES_COLUMNS: &str =
    "the board's edges do not show: cannot tell which board columns they are";

/// How far off a lone pile's size may put the pitch, either way.
const PITCH_GUESS: f32 = 0.15;

/// The scales of a guessed pitch tried, by steps of 0.005: the far edge,
/// up to eight pitches away, lands within a fiftieth of a pitch of one.
const PITCH_SCALES: [f32; 61] = {
    let mut scales = [0.0; 61];
    let mut i = 0;
    while i < 61 {
        scales[i] = 1.0 - PITCH_GUESS + 0.005 * i as f32;
        i += 1;
    }
    scales
};

/// Picks the placement (and, when the grid's pitch is only guessed, the
/// scale of the pitch) whose board rectangle has the clearest left and
/// right edges: the board's background picture ends there, so the colour
/// changes along the whole height of the board, while a line inside the
/// board runs through gaps between piles and a line outside through the
/// window. `None` when no placement stands out (e.g. the picture goes on
/// beyond the board).
fn by_edges(
    image: &RgbaImage,
    grid: &PileGrid,
    shape: &SearchShape,
    candidates: &[i32],
    first_column: i32,
) -> Option<(i32, f32)> {
    let last_row = grid.cells.iter().map(|c| c.1).max().unwrap_or(0);
    let bottom_y = grid.point(0, last_row).y;
    let edges = Edges {
        image,
        top: bottom_y - (f32::from(shape.height) - 0.5) * grid.pitch_y,
        bottom: bottom_y + 0.5 * grid.pitch_y,
        pitch: (grid.pitch_x, grid.pitch_y),
    };
    let width = f32::from(shape.width);
    let mut scored: Vec<(i32, f32, f32)> = candidates
        .iter()
        .map(|&shift| {
            let left = grid.point(first_column - shift, 0).x - 0.5 * grid.pitch_x;
            let right = left + width * grid.pitch_x;
            if grid.pitch_known {
                // Both edges must show: a wrong placement has one inside
                // the board.
                let score = match (edges.near(left), edges.near(right)) {
                    (Some(a), Some(b)) => a.min(b),
                    _ => OFF_IMAGE,
                };
                return (shift, score, 1.0);
            }
            // The pitch is a guess: the scale of it that puts both edges on
            // lines of the picture, the pile staying where it is.
            let pile = grid.point(first_column, 0).x;
            let cells_left = shift as f32 + 0.5;
            PITCH_SCALES
                .map(|k| {
                    let left = pile - cells_left * grid.pitch_x * k;
                    let right = left + width * grid.pitch_x * k;
                    let score = match (edges.aligned(left), edges.aligned(right)) {
                        (Some(a), Some(b)) => a.min(b),
                        _ => OFF_IMAGE,
                    };
                    (shift, score, k)
                })
                .into_iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("scales")
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    log::debug!("board placements by their edges (shift, score, pitch scale): {scored:?}");
    match scored.as_slice() {
        [best] if best.1 >= EDGE => Some((best.0, best.2)),
        [best, second, ..] if best.1 >= EDGE && best.1 >= 2.0 * second.1 => Some((best.0, best.2)),
        _ => None,
    }
}

/// Where a board's picture ends: lines across which the colour changes
/// along the board's whole height, from `top` to `bottom`.
struct Edges<'a> {
    image: &'a RgbaImage,
    top: f32,
    bottom: f32,
    pitch: (f32, f32),
}

impl Edges<'_> {
    fn oklab(&self, x: f32, y: f32) -> Option<[f32; 3]> {
        let (x, y) = (x.floor(), y.floor());
        let image = self.image;
        if x < 0.0 || y < 0.0 || x >= image.width() as f32 || y >= image.height() as f32 {
            return None;
        }
        let p = image.get_pixel(x as u32, y as u32).0;
        Some(Balance::NONE.oklab([p[0], p[1], p[2]]))
    }

    /// Half the width of the step looked for.
    fn reach(&self) -> f32 {
        (0.03 * self.pitch.0).max(2.0)
    }

    /// Median colour change across the vertical line at `x`, over the
    /// board's height; `None` when the line is off the image.
    fn across(&self, x: f32) -> Option<f32> {
        let step = (self.pitch.1 / 10.0).max(1.0);
        let reach = self.reach();
        let mut changes = Vec::new();
        let mut y = self.top + 0.5 * step;
        while y < self.bottom {
            if let (Some(a), Some(b)) = (self.oklab(x - reach, y), self.oklab(x + reach, y)) {
                changes.push((a[0] - b[0]).hypot((a[1] - b[1]).hypot(a[2] - b[2])));
            }
            y += step;
        }
        if changes.len() < 4 {
            return None;
        }
        let mid = changes.len() / 2;
        Some(*changes.select_nth_unstable_by(mid, f32::total_cmp).1)
    }

    /// How far past the image's border a board edge may be taken to lie.
    fn slack(&self) -> f32 {
        0.3 * self.pitch.0
    }

    /// How close to the image's border the border itself is the edge.
    fn at_border(&self) -> f32 {
        self.slack().min(self.reach() + 0.1 * self.pitch.0)
    }

    /// The edge's strength at `x`, the strongest line within a tenth of a
    /// pitch (the board's picture may end a little off the cell boundary,
    /// and the lattice comes from the piles' centres). The board is always
    /// whole in the image; where it meets the image's border (a capture or
    /// crop of the board alone), the border is its edge. `None` when `x`
    /// is off the image.
    fn near(&self, x: f32) -> Option<f32> {
        let image_width = self.image.width() as f32;
        if x < -self.slack() || x > image_width + self.slack() {
            None
        } else if x < self.at_border() || x > image_width - self.at_border() {
            Some(BORDER)
        } else {
            Some(
                [-0.1f32, -0.05, 0.0, 0.05, 0.1]
                    .iter()
                    .filter_map(|o| self.across(x + o * self.pitch.0))
                    .max_by(f32::total_cmp)
                    .unwrap_or(0.0),
            )
        }
    }

    /// The edge's strength at `x`, for a board whose pitch is searched:
    /// the strongest line within a fiftieth of a pitch, less the further
    /// off it lies, so that the scale that puts the edge on the line wins.
    /// The image's border is the edge of a board that meets it. `None`
    /// when `x` is off the image.
    fn aligned(&self, x: f32) -> Option<f32> {
        let image_width = self.image.width() as f32;
        if x < -self.slack() || x > image_width + self.slack() {
            return None;
        }
        let wiggle = (0.02 * self.pitch.0).max(2.0).round();
        let mut best = 0.0f32;
        let mut o = -wiggle;
        while o <= wiggle {
            let at = x + o;
            let strength = if at.abs() <= 1.0 || (at - image_width).abs() <= 1.0 {
                BORDER
            } else {
                self.across(at).unwrap_or(0.0)
            };
            best = best.max(strength * (1.0 - 0.25 * o.abs() / wiggle));
            o += 1.0;
        }
        Some(best)
    }
}

/// The score of a placement that puts the board partly off the image,
/// which it never is.
const OFF_IMAGE: f32 = -1.0;

/// The least Oklab colour change that counts as the board's edge.
const EDGE: f32 = 0.04;
/// What the image's border counts for as an edge of the board.
const BORDER: f32 = 0.15;
