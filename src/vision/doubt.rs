//! Whether a reading shows a settled, visible board, on one frame alone: a
//! capture may catch the game mid-animation (piles falling or sliding
//! between cells, a cluster fading out) or something drawn over the board
//! (a tooltip, a dialog, another window). Every cell read can then be sure
//! of itself and the board still be one that is not on the screen, the
//! worst thing a reader can return. Each check here looks for what a
//! settled board never shows, and marks the cells it concerns with a
//! [`Doubt`]; a reading with any doubt gives no board.

use std::fmt;

use image::RgbaImage;

use super::CellReading;
use super::classify::CellStats;
use crate::geometry::Geometry;

/// Why a cell's reading cannot be trusted, whatever its confidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doubt {
    /// A pile whose centre of mass is off the cell's centre: it is moving
    /// between cells.
    OffCentre,
    /// A cell read as empty with part of a pile in it: one moving in.
    PartPile,
    /// A pile much fainter than the board's others: fading out.
    Faint,
    /// A straight, long edge crosses the cell: something is drawn over the
    /// board.
    Covered,
}

impl fmt::Display for Doubt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Doubt::OffCentre => "a pile off its cell's centre",
            Doubt::PartPile => "part of a pile",
            Doubt::Faint => "a fading pile",
            Doubt::Covered => "something over the board",
        })
    }
}

/// A settled pile's centre of mass lies within this many pitches of its
/// cell's centre (at most 0.04 on the stress suite's settled boards, 0.17
/// to 0.27 for piles a third to two thirds of a cell on their way).
const MAX_OFFSET: f32 = 0.12;

/// An empty cell's window holds at most this share of pile-coloured
/// samples, from its neighbours' glow (at most 0.09, with a lit pile next
/// to it), and its core next to none.
const MAX_EMPTY_MASS: f32 = 0.15;
const MAX_EMPTY_CORE: f32 = 0.05;

/// A pile half way between two cells fills neither core, but its half in
/// each lies this far off the cell's centre (0.31 and 0.32 pitches for a
/// pile half a cell up).
const PART_PILE_OFFSET: f32 = 0.2;

/// A pile stands out from the background at least this share as strongly
/// as the board's median pile does (a dim or washed-out capture dims them
/// all alike; a fading cluster is alone). The colours differ by up to a
/// third among themselves on settled boards, so only a cluster more than
/// half faded is told from them in one frame: earlier frames of the fade
/// show the board before the click, which live play's second read sees
/// change.
const MIN_RELATIVE_STRENGTH: f32 = 0.5;

/// A straight edge this long, in pitches, inside the board is no part of
/// the game: piles are round and the swamp's branches bend (a near
/// branch of the renderer's swamp runs straight along one pixel row for
/// up to about a pitch).
pub(crate) const MAX_STRAIGHT_EDGE: f32 = 1.5;

/// A luminance step of this much (0..255) between the two sides of a pixel
/// is an edge.
const EDGE_STEP: i32 = 40;

/// Marks the cells of `cells` that a settled, visible board would not show
/// as they are. `strength` is each cell's pile contrast against the
/// background (see [`pile_strength`]).
pub(crate) fn check(
    image: &RgbaImage,
    geometry: &Geometry,
    cells: &mut [CellReading],
    stats: &[CellStats],
    strength: &[f32],
) {
    let mut piles: Vec<f32> = cells
        .iter()
        .zip(strength)
        .filter(|(c, _)| c.colour.is_some())
        .map(|(_, s)| *s)
        .collect();
    let median = if piles.is_empty() {
        0.0
    } else {
        let mid = piles.len() / 2;
        *piles.select_nth_unstable_by(mid, f32::total_cmp).1
    };
    for ((cell, s), &strength) in cells.iter_mut().zip(stats).zip(strength) {
        let doubt = if cell.colour.is_some() {
            if s.offset[0].abs().max(s.offset[1].abs()) > MAX_OFFSET {
                Some(Doubt::OffCentre)
            } else if strength < MIN_RELATIVE_STRENGTH * median {
                Some(Doubt::Faint)
            } else {
                None
            }
        } else if s.mass > MAX_EMPTY_MASS
            && (s.fraction > MAX_EMPTY_CORE
                || s.offset[0].abs().max(s.offset[1].abs()) > PART_PILE_OFFSET)
        {
            Some(Doubt::PartPile)
        } else {
            None
        };
        cell.doubt = cell.doubt.or(doubt);
    }
    for covered in straight_edges(image, geometry) {
        if let Some(c) = cells.iter_mut().find(|c| c.cell == covered) {
            c.doubt = Some(Doubt::Covered);
        }
    }
}

/// How strongly a pile of Oklab colour `pile` stands out from the
/// background `background` against how its colour's calibrated centre
/// `model` does: about 1 for a pile as calibrated (more for a lit one),
/// its opacity for a fading one.
pub(crate) fn pile_strength(pile: [f32; 3], model: [f32; 3], background: [f32; 3]) -> f32 {
    let distance = |a: [f32; 3], b: [f32; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    distance(pile, background) / distance(model, background).max(1e-3)
}

/// The cells crossed by a straight horizontal edge longer than
/// [`MAX_STRAIGHT_EDGE`] pitches, looked for inside the board less a
/// margin of a fifth of a pitch (the board's own border is straight, and a
/// found board may sit a little off the drawn one). Only horizontal ones: the
/// swamp's near trees stand straight up, and every box has a top and a
/// bottom.
fn straight_edges(image: &RgbaImage, g: &Geometry) -> Vec<crate::game::Cell> {
    // Always inlined: the scan reads most pixels of the board twice, and
    // where the build has no local ThinLTO (the library's unit tests, the
    // Windows build) a closure, or `#[inline]` with `get_pixel`'s panic in
    // it, left a call each.
    #[inline(always)]
    fn luma(image: &RgbaImage, x: i64, y: i64) -> i32 {
        let p = image.get_pixel(x as u32, y as u32).0;
        (299 * i32::from(p[0]) + 587 * i32::from(p[1]) + 114 * i32::from(p[2])) / 1000
    }
    let margin_x = 0.2 * g.pitch_x;
    let margin_y = 0.2 * g.pitch_y;
    let (w, h) = g.size();
    let x0 = ((g.x + margin_x).ceil() as i64).max(1);
    let y0 = ((g.y + margin_y).ceil() as i64).max(1);
    let x1 = ((g.x + w - margin_x).floor() as i64).min(i64::from(image.width()) - 1);
    let y1 = ((g.y + h - margin_y).floor() as i64).min(i64::from(image.height()) - 1);
    let mut found = Vec::new();
    let mut mark = |x: i64, y: i64| {
        let p = crate::geometry::PixelPoint::new(x as f32 + 0.5, y as f32 + 0.5);
        if let Some(cell) = g.cell_at(p)
            && !found.contains(&cell)
        {
            found.push(cell);
        }
    };
    // Rows: a horizontal edge is a step between the pixels above and below,
    // which a sharp edge between two rows shows on both: every other row
    // finds it.
    let long_x = (MAX_STRAIGHT_EDGE * g.pitch_x) as i64;
    for y in (y0..y1).step_by(2) {
        let mut run = 0;
        for x in x0..x1 {
            let step = luma(image, x, y - 1) - luma(image, x, y + 1);
            run = if step.abs() > EDGE_STEP { run + 1 } else { 0 };
            if run == long_x {
                for back in (0..run).step_by(4) {
                    mark(x - back, y);
                }
            } else if run > long_x {
                mark(x, y);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;
    use crate::game::Cell;

    fn geometry() -> Geometry {
        Geometry {
            x: 0.0,
            y: 0.0,
            pitch_x: 40.0,
            pitch_y: 40.0,
            width: 4,
            height: 3,
        }
    }

    fn cell(x: u8, y: u8, colour: Option<u8>, strength: f32) -> (CellReading, CellStats, f32) {
        let reading = CellReading {
            cell: Cell::new(x, y),
            colour: colour.and_then(crate::game::Colour::new),
            confidence: 0.9,
            delta_e: 0.0,
            offset: [0.0; 2],
            mass: 0.0,
            strength,
            doubt: None,
        };
        let stats = CellStats {
            fraction: if colour.is_some() { 0.95 } else { 0.0 },
            colour: None,
            offset: [0.0; 2],
            coverage: 1.0,
            mass: if colour.is_some() { 0.6 } else { 0.0 },
        };
        (reading, stats, strength)
    }

    fn doubts(cells: Vec<(CellReading, CellStats, f32)>, image: &RgbaImage) -> Vec<Option<Doubt>> {
        let (mut readings, rest): (Vec<_>, Vec<_>) =
            cells.into_iter().map(|(r, s, k)| (r, (s, k))).unzip();
        let (stats, strength): (Vec<_>, Vec<_>) = rest.into_iter().unzip();
        check(image, &geometry(), &mut readings, &stats, &strength);
        readings.iter().map(|r| r.doubt).collect()
    }

    fn swamp() -> RgbaImage {
        // Rough, like the swamp: no long straight edge.
        RgbaImage::from_fn(160, 120, |x, y| {
            let v = 60 + ((x * 7 + y * 13) % 23) as u8;
            Rgba([v, v + 10, v + 8, 255])
        })
    }

    #[test]
    fn a_settled_board_has_no_doubt() {
        let cells = vec![
            cell(0, 0, Some(1), 1.0),
            cell(1, 0, Some(2), 0.8),
            cell(2, 0, Some(3), 1.1),
            cell(3, 0, None, 0.0),
        ];
        assert_eq!(doubts(cells, &swamp()), [None; 4]);
    }

    #[test]
    fn moving_fading_and_half_piles_are_doubted() {
        let mut off = cell(0, 0, Some(1), 1.0);
        off.1.offset = [0.25, 0.0];
        let faint = cell(1, 0, Some(2), 0.3);
        let mut part = cell(2, 0, None, 0.0);
        part.1.mass = 0.3;
        part.1.fraction = 0.2;
        let mut glow = cell(3, 0, None, 0.0);
        glow.1.mass = 0.1;
        let others = (0..4).map(|x| cell(x, 1, Some(1), 1.0));
        let cells = [off, faint, part, glow].into_iter().chain(others).collect();
        let found = doubts(cells, &swamp());
        assert_eq!(
            found[..4],
            [
                Some(Doubt::OffCentre),
                Some(Doubt::Faint),
                Some(Doubt::PartPile),
                None
            ]
        );
    }

    #[test]
    fn a_box_over_the_board_covers_the_cells_of_its_edge() {
        let mut image = swamp();
        // A dark box from (30, 50) to (130, 75): its top edge crosses
        // cells x = 0..3 of the middle row.
        for y in 50..75 {
            for x in 30..130 {
                image.put_pixel(x, y, Rgba([20, 18, 16, 255]));
            }
        }
        let cells = (0..4)
            .flat_map(|x| (0..3).map(move |y| cell(x, y, Some(1), 1.0)))
            .collect();
        let found = doubts(cells, &image);
        let covered: Vec<usize> = (0..found.len())
            .filter(|&i| found[i] == Some(Doubt::Covered))
            .collect();
        assert!(!covered.is_empty(), "{found:?}");
        // Nothing above the box is covered: the top row (y = 2).
        for x in 0..4 {
            assert_ne!(found[x * 3 + 2], Some(Doubt::Covered), "{found:?}");
        }
    }

    #[test]
    fn strength_is_the_contrast_against_the_calibrated_one() {
        let background = [0.4, -0.02, 0.0];
        let model = [0.7, 0.1, 0.1];
        assert!((pile_strength(model, model, background) - 1.0).abs() < 1e-6);
        let half = [0.55, 0.04, 0.05];
        assert!((pile_strength(half, model, background) - 0.5).abs() < 1e-3);
    }
}
