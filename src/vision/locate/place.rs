//! Placing the lattice's piles on the board: the game's rules (gravity
//! fills the bottom row, each row's tiles touch the centre line) and, when
//! they leave a choice, the board's visible edges or an earlier read.

use image::RgbaImage;

use super::{Geometry, PileGrid, SearchShape, VisionError, min_max};
use crate::colour::Balance;

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
    let geometry_for = |shift: i32| grid.geometry(shape, first_column - shift, last_row);
    let chosen = match (candidates.as_slice(), near) {
        ([only], _) => *only,
        (several, Some(near)) => *several
            .iter()
            .min_by(|&&a, &&b| {
                let da = (geometry_for(a).x - near.x).abs();
                let db = (geometry_for(b).x - near.x).abs();
                da.total_cmp(&db)
            })
            .expect("several candidates"),
        (several, None) => {
            let lattice = Lattice {
                centre_x: grid.centre_x,
                bottom_y: grid.centre_y + last_row as f32 * grid.pitch_y,
                pitch_x: grid.pitch_x,
                pitch_y: grid.pitch_y,
                height: shape.height,
            };
            by_edges(image, &lattice, several, first_column, width).ok_or_else(|| {
                VisionError::NoBoard(format!(
                    "only {span_x} columns hold piles and the board's edges do not show: cannot tell which board columns they are"
                ))
            })?
        }
    };
    Ok(geometry_for(chosen))
}

/// The group's lattice in pixels: column `c` is at `centre_x + c *
/// pitch_x`, board row `r` at `bottom_y - r * pitch_y`.
struct Lattice {
    centre_x: f32,
    bottom_y: f32,
    pitch_x: f32,
    pitch_y: f32,
    height: u8,
}

/// Picks the placement whose board rectangle has the clearest left and
/// right edges: the board's background picture ends there, so the colour
/// changes along the whole height of the board, while a line inside the
/// board runs through gaps between piles and a line outside through the
/// window. `None` when no placement stands out (e.g. the picture goes on
/// beyond the board).
fn by_edges(
    image: &RgbaImage,
    lattice: &Lattice,
    candidates: &[i32],
    first_column: i32,
    width: i32,
) -> Option<i32> {
    let oklab = |x: f32, y: f32| -> Option<[f32; 3]> {
        let (x, y) = (x.floor(), y.floor());
        if x < 0.0 || y < 0.0 || x >= image.width() as f32 || y >= image.height() as f32 {
            return None;
        }
        let p = image.get_pixel(x as u32, y as u32).0;
        Some(Balance::NONE.oklab([p[0], p[1], p[2]]))
    };
    let top = lattice.bottom_y - (f32::from(lattice.height) - 0.5) * lattice.pitch_y;
    let bottom = lattice.bottom_y + 0.5 * lattice.pitch_y;
    let reach = (0.03 * lattice.pitch_x).max(2.0);
    // Median colour change across the vertical line at `x`, over the
    // board's height; `None` when the line is off the image.
    let across = |x: f32| -> Option<f32> {
        let step = (lattice.pitch_y / 10.0).max(1.0);
        let mut changes = Vec::new();
        let mut y = top + 0.5 * step;
        while y < bottom {
            if let (Some(a), Some(b)) = (oklab(x - reach, y), oklab(x + reach, y)) {
                changes.push((a[0] - b[0]).hypot((a[1] - b[1]).hypot(a[2] - b[2])));
            }
            y += step;
        }
        if changes.len() < 4 {
            return None;
        }
        let mid = changes.len() / 2;
        Some(*changes.select_nth_unstable_by(mid, f32::total_cmp).1)
    };
    // The board's picture may end a little off the cell boundary (the
    // lattice comes from the piles' centres): the strongest line near it.
    let edge = |x: f32| -> Option<f32> {
        [-0.1f32, -0.05, 0.0, 0.05, 0.1]
            .iter()
            .filter_map(|o| across(x + o * lattice.pitch_x))
            .max_by(f32::total_cmp)
    };
    // The board is always whole in the image; where it meets the image's
    // border (a capture or crop of the board alone), the border is its edge.
    let image_width = image.width() as f32;
    let slack = 0.3 * lattice.pitch_x;
    let side = |x: f32| -> Option<f32> {
        if x < -slack || x > image_width + slack {
            None
        } else if x < slack.min(reach + 0.1 * lattice.pitch_x)
            || x > image_width - slack.min(reach + 0.1 * lattice.pitch_x)
        {
            Some(BORDER)
        } else {
            Some(edge(x).unwrap_or(0.0))
        }
    };
    let score = |shift: i32| -> f32 {
        let left = lattice.centre_x + (first_column - shift) as f32 * lattice.pitch_x
            - 0.5 * lattice.pitch_x;
        // Both edges must show: a wrong placement has one inside the board.
        match (side(left), side(left + width as f32 * lattice.pitch_x)) {
            (Some(a), Some(b)) => a.min(b),
            _ => -1.0,
        }
    };
    let mut scored: Vec<(i32, f32)> = candidates.iter().map(|&k| (k, score(k))).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    log::debug!("board placements by their edges: {scored:?}");
    match scored.as_slice() {
        [best, second, ..] if best.1 >= EDGE && best.1 >= 2.0 * second.1 => Some(best.0),
        _ => None,
    }
}

/// The least Oklab colour change that counts as the board's edge.
const EDGE: f32 = 0.04;
/// What the image's border counts for as an edge of the board.
const BORDER: f32 = 0.15;
