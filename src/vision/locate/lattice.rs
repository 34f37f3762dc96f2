//! The lattice of the piles: blobs of similar size one pitch apart in a
//! row or a column linked into groups, and a least-squares fit of the
//! biggest group's pitch and origin, without the blobs that lie off it.

use super::blobs::Pile;
use super::{SearchShape, VisionError};
use crate::geometry::{Geometry, PixelPoint};

/// The lattice of the piles found: column `c`, row `r` (rows grow
/// downwards, as in the image) is centred at `(centre_x + c * pitch_x,
/// centre_y + r * pitch_y)`; `cells` are the lattice cells known to hold a
/// pile.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PileGrid {
    pub centre_x: f32,
    pub centre_y: f32,
    pub pitch_x: f32,
    pub pitch_y: f32,
    pub cells: Vec<(i32, i32)>,
    /// The piles' mean larger side, in pixels.
    pub pile_size: f32,
    /// False when the pitch is only guessed from the size of a lone pile:
    /// to within a tenth or so, too little to find a board's far cells.
    pub pitch_known: bool,
}

impl PileGrid {
    pub fn point(&self, column: i32, row: i32) -> PixelPoint {
        PixelPoint::new(
            self.centre_x + column as f32 * self.pitch_x,
            self.centre_y + row as f32 * self.pitch_y,
        )
    }

    /// The corners between the cells found, where the board's background
    /// shows (corners shared by at least two of them, so inside the board
    /// whatever its placement); when there are fewer than [`MIN_CORNERS`],
    /// the corners of the cells around them too.
    pub fn inner_corners(&self) -> Vec<PixelPoint> {
        let cells: std::collections::HashSet<(i32, i32)> = self.cells.iter().copied().collect();
        let corner = |c: i32, r: i32| {
            PixelPoint::new(
                self.centre_x + (c as f32 - 0.5) * self.pitch_x,
                self.centre_y + (r as f32 - 0.5) * self.pitch_y,
            )
        };
        // Corner (c, r) is the top-left corner of cell (c, r). The lowest
        // cells are the board's bottom row (gravity), whose lower corners
        // lie on its bottom edge, often in the grass.
        let bottom = self.cells.iter().map(|c| c.1).max().unwrap_or(0);
        let mut all: Vec<(i32, i32)> = self
            .cells
            .iter()
            .flat_map(|&(c, r)| [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)])
            .filter(|&(_, r)| r <= bottom)
            .collect();
        all.sort_unstable();
        all.dedup();
        let shared: Vec<PixelPoint> = all
            .iter()
            .filter(|&&(c, r)| {
                [(c - 1, r - 1), (c, r - 1), (c - 1, r), (c, r)]
                    .iter()
                    .filter(|k| cells.contains(k))
                    .count()
                    >= 2
            })
            .map(|&(c, r)| corner(c, r))
            .collect();
        if shared.len() >= MIN_CORNERS {
            return shared;
        }
        // A median of a few corners can land on a trunk: the corners of the
        // cells around them too, most of them inside the board.
        let mut around: Vec<(i32, i32)> = self
            .cells
            .iter()
            .flat_map(|&(c, r)| {
                (c - 1..=c + 2).flat_map(move |x| (r - 1..=r + 2).map(move |y| (x, y)))
            })
            .collect();
        around.sort_unstable();
        around.dedup();
        around.iter().map(|&(c, r)| corner(c, r)).collect()
    }

    /// This lattice with its pitch times `scale`, around the centre of
    /// lattice cell (0, 0).
    pub(super) fn scaled(&self, scale: f32) -> PileGrid {
        PileGrid {
            pitch_x: self.pitch_x * scale,
            pitch_y: self.pitch_y * scale,
            ..self.clone()
        }
    }

    /// The board whose column 0 is lattice column `left` and whose row 0 is
    /// lattice row `bottom`.
    pub(super) fn geometry(&self, shape: &SearchShape, left: i32, bottom: i32) -> Geometry {
        let top = bottom - (i32::from(shape.height) - 1);
        let corner = self.point(left, top);
        Geometry {
            x: corner.x - 0.5 * self.pitch_x,
            y: corner.y - 0.5 * self.pitch_y,
            pitch_x: self.pitch_x,
            pitch_y: self.pitch_y,
            width: shape.width,
            height: shape.height,
        }
    }
}

/// A pile with its lattice position in the group.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placed {
    pub pile: Pile,
    pub column: i32,
    pub row: i32,
}

/// Links piles of similar size one pitch apart in a row or a column, and
/// returns the linked groups with lattice positions, heaviest first (by the
/// piles' total area, so a few big piles outweigh a row of small icons).
pub(super) fn lattice_groups(piles: &[Pile]) -> Vec<Vec<Placed>> {
    let n = piles.len();
    let mut links: Vec<Vec<(usize, i32, i32)>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (piles[i], piles[j]);
            if a.size.max(b.size) / a.size.min(b.size) > 1.6 {
                continue;
            }
            let s = 0.5 * (a.size + b.size);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let one_step = |d: f32| (0.9 * s..=1.9 * s).contains(&d.abs());
            let step = if dy.abs() < 0.3 * s && one_step(dx) {
                (dx.signum() as i32, 0)
            } else if dx.abs() < 0.3 * s && one_step(dy) {
                (0, dy.signum() as i32)
            } else {
                continue;
            };
            links[i].push((j, step.0, step.1));
            links[j].push((i, -step.0, -step.1));
        }
    }
    let mut placed: Vec<Option<(i32, i32)>> = vec![None; n];
    let mut groups: Vec<Vec<Placed>> = Vec::new();
    for root in 0..n {
        if placed[root].is_some() {
            continue;
        }
        placed[root] = Some((0, 0));
        let mut group = vec![root];
        let mut k = 0;
        while k < group.len() {
            let i = group[k];
            let (c, r) = placed[i].expect("grouped piles are placed");
            for &(j, dc, dr) in &links[i] {
                if placed[j].is_none() {
                    placed[j] = Some((c + dc, r + dr));
                    group.push(j);
                }
            }
            k += 1;
        }
        groups.push(
            group
                .iter()
                .map(|&i| {
                    let (column, row) = placed[i].expect("grouped piles are placed");
                    Placed {
                        pile: piles[i],
                        column,
                        row,
                    }
                })
                .collect(),
        );
    }
    let weight =
        |group: &Vec<Placed>| -> f32 { group.iter().map(|p| p.pile.size * p.pile.size).sum() };
    groups.sort_by(|a, b| weight(b).total_cmp(&weight(a)));
    groups
}

/// Least-squares line `v = origin + index * pitch`; `None` with one index.
fn fit_line(points: impl Iterator<Item = (i32, f32)> + Clone) -> Option<(f32, f32)> {
    let n = points.clone().count() as f32;
    let (si, sv, sii, siv) = points.fold((0.0f32, 0.0f32, 0.0f32, 0.0f32), |acc, (i, v)| {
        let i = i as f32;
        (acc.0 + i, acc.1 + v, acc.2 + i * i, acc.3 + i * v)
    });
    let denominator = n * sii - si * si;
    if denominator.abs() < 1e-3 {
        return None;
    }
    let pitch = (n * siv - si * sv) / denominator;
    Some(((sv - pitch * si) / n, pitch))
}

/// The fewest corners shared by the cells found that measure the board's
/// background.
const MIN_CORNERS: usize = 6;

/// A pile of the board lies on the lattice, within a few hundredths of a
/// pitch; a blob linked to the group that lies farther off than this once
/// the lattice is fitted (a button a pitch and a half under the board, an
/// icon) is no pile of it.
const OFF_LATTICE: f32 = 0.25;

/// The lattice through the group's piles: least-squares pitch and origin,
/// fitted again without the blob farthest off it for as long as one lies
/// more than [`OFF_LATTICE`] off.
pub(super) fn fit_grid(group: &[Placed], shape: &SearchShape) -> Result<PileGrid, VisionError> {
    let mut members = group.to_vec();
    loop {
        let grid = fit_all(&members, shape)?;
        let off = |p: &Placed| {
            let at = grid.point(p.column, p.row);
            ((p.pile.x - at.x) / grid.pitch_x)
                .abs()
                .max(((p.pile.y - at.y) / grid.pitch_y).abs())
        };
        let worst =
            (0..members.len()).max_by(|&a, &b| off(&members[a]).total_cmp(&off(&members[b])));
        match worst {
            Some(i) if members.len() > 1 && off(&members[i]) > OFF_LATTICE => {
                log::debug!(
                    "a blob {:.2} pitches off the lattice: not a pile",
                    off(&members[i])
                );
                members.swap_remove(i);
            }
            _ => return Ok(grid),
        }
    }
}

/// The lattice through all of the group's piles.
fn fit_all(group: &[Placed], shape: &SearchShape) -> Result<PileGrid, VisionError> {
    let columns = group.iter().map(|p| (p.column, p.pile.x));
    let rows = group.iter().map(|p| (p.row, p.pile.y));
    let mean_size = group.iter().map(|p| p.pile.size).sum::<f32>() / group.len() as f32;
    let (pitch_x, pitch_y, pitch_known) = match (fit_line(columns.clone()), fit_line(rows.clone()))
    {
        (Some((_, px)), Some((_, py))) => (px, py, true),
        (Some((_, px)), None) => (px, px * shape.aspect, true),
        (None, Some((_, py))) => (py / shape.aspect, py, true),
        (None, None) => {
            let px = mean_size / shape.pile_size;
            (px, px * shape.aspect, false)
        }
    };
    if !(pitch_x > 0.0 && pitch_y > 0.0) {
        return Err(VisionError::NoBoard(
            "the piles found do not form a grid".into(),
        ));
    }
    // Origins from the means, with the fitted (or assumed) pitches.
    let n = group.len() as f32;
    let centre_x = group
        .iter()
        .map(|p| p.pile.x - p.column as f32 * pitch_x)
        .sum::<f32>()
        / n;
    let centre_y = group
        .iter()
        .map(|p| p.pile.y - p.row as f32 * pitch_y)
        .sum::<f32>()
        / n;
    Ok(PileGrid {
        centre_x,
        centre_y,
        pitch_x,
        pitch_y,
        cells: group.iter().map(|p| (p.column, p.row)).collect(),
        pile_size: mean_size,
        pitch_known,
    })
}
