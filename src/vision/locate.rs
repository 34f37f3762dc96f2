//! Finding the board in an image with no coordinates given: mark the
//! pile-coloured pixels (colourfulness above an Otsu threshold, on a downsampled
//! copy), group them into blobs, keep the blobs of pile size, link blobs
//! that sit one pitch apart in a row or a column, and take the biggest
//! linked group as the board's piles. A least-squares fit of the lattice
//! gives the pitch and origin; the game's rules (gravity fills the bottom
//! row, each row's tiles touch the centre line) place the group on the
//! board when columns are empty.

use image::RgbaImage;

use super::{Geometry, PixelPoint, VisionError};
use crate::colour::Balance;

/// What the search needs to know about the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Shape {
    pub width: u8,
    pub height: u8,
    /// `pitch_y / pitch_x`.
    pub aspect: f32,
    /// A pile's larger side as a share of the pitch.
    pub pile_size: f32,
}

/// Blobs smaller than this (larger side, in pixels) are not piles: a
/// pile at half the real size is about 35 pixels across; toolbar icons are
/// usually smaller.
const MIN_PILE: f32 = 24.0;
/// Blobs larger than this are not piles: at twice the real size a pile is
/// about 140 pixels across.
const MAX_PILE: f32 = 220.0;

#[derive(Clone, Copy, Debug, Default)]
struct Blob {
    min_x: u32,
    min_y: u32,
    max_x: u32,
    max_y: u32,
    area: u32,
    sum_x: u64,
    sum_y: u64,
}

/// A pile-sized blob in image pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pile {
    x: f32,
    y: f32,
    size: f32,
}

/// A board found: its geometry, and the piles' mean larger side as a share
/// of the pitch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Found {
    pub geometry: Geometry,
    pub pile_size: f32,
}

/// Finds the board from the pile blobs alone. `near` breaks ties when the
/// board's columns are ambiguous (the geometry of an earlier read).
pub(crate) fn locate(
    image: &RgbaImage,
    shape: &Shape,
    near: Option<&Geometry>,
) -> Result<Found, VisionError> {
    let grid = find_grid(image, shape)?;
    let geometry = place(image, &grid, shape, near)?;
    Ok(Found {
        geometry,
        pile_size: grid.pile_size / geometry.pitch_x,
    })
}

/// The lattice of the piles found: column `c`, row `r` (rows grow
/// downwards, as in the image) is centred at `(centre_x + c * pitch_x,
/// centre_y + r * pitch_y)`; `cells` are the lattice cells known to hold a
/// pile.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Grid {
    pub centre_x: f32,
    pub centre_y: f32,
    pub pitch_x: f32,
    pub pitch_y: f32,
    pub cells: Vec<(i32, i32)>,
    /// The piles' mean larger side, in pixels.
    pub pile_size: f32,
}

impl Grid {
    pub fn point(&self, column: i32, row: i32) -> PixelPoint {
        PixelPoint::new(
            self.centre_x + column as f32 * self.pitch_x,
            self.centre_y + row as f32 * self.pitch_y,
        )
    }

    /// The corners between the cells found, where the board's background
    /// shows (corners shared by at least two of them, so inside the board
    /// whatever its placement); all their corners when there are none.
    pub fn inner_corners(&self) -> Vec<PixelPoint> {
        let cells: std::collections::HashSet<(i32, i32)> = self.cells.iter().copied().collect();
        let corner = |c: i32, r: i32| {
            PixelPoint::new(
                self.centre_x + (c as f32 - 0.5) * self.pitch_x,
                self.centre_y + (r as f32 - 0.5) * self.pitch_y,
            )
        };
        // Corner (c, r) is the top-left corner of cell (c, r).
        let mut all: Vec<(i32, i32)> = self
            .cells
            .iter()
            .flat_map(|&(c, r)| [(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)])
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
        if shared.is_empty() {
            all.iter().map(|&(c, r)| corner(c, r)).collect()
        } else {
            shared
        }
    }

    /// The board whose column 0 is lattice column `left` and whose row 0 is
    /// lattice row `bottom`.
    fn geometry(&self, shape: &Shape, left: i32, bottom: i32) -> Geometry {
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

/// Finds the piles' lattice: blobs of pile size linked one pitch apart.
pub(crate) fn find_grid(image: &RgbaImage, shape: &Shape) -> Result<Grid, VisionError> {
    let piles = pile_blobs(image);
    if piles.is_empty() {
        return Err(VisionError::NoBoard(
            "no pile-coloured blob of pile size".into(),
        ));
    }
    fit_grid(&trim_to_board(biggest_lattice_group(&piles), shape), shape)
}

/// When the linked blobs span more than the board (a button or a picture
/// about a pitch from the board's edge links to its piles), keeps the
/// board-sized window of them that best obeys gravity (fewest blobs with
/// nothing under them inside the window), then the one with the most
/// blobs. A row of buttons under the board leaves the real bottom row
/// hanging over gaps; the board's own rows never do, bar missed piles.
fn trim_to_board(group: Vec<Placed>, shape: &Shape) -> Vec<Placed> {
    let (first_column, last_column) = min_max(group.iter().map(|p| p.column));
    let (first_row, last_row) = min_max(group.iter().map(|p| p.row));
    let (width, height) = (i32::from(shape.width), i32::from(shape.height));
    if last_column - first_column < width && last_row - first_row < height {
        return group;
    }
    let occupied: std::collections::HashSet<(i32, i32)> =
        group.iter().map(|p| (p.column, p.row)).collect();
    let inside = |left: i32, top: i32, p: &Placed| {
        (left..left + width).contains(&p.column) && (top..top + height).contains(&p.row)
    };
    let lefts = first_column..=(last_column - width + 1).max(first_column);
    let tops = first_row..=(last_row - height + 1).max(first_row);
    let best = lefts
        .flat_map(|left| tops.clone().map(move |top| (left, top)))
        .min_by_key(|&(left, top)| {
            let bottom = (top + height - 1).min(last_row);
            let members = group.iter().filter(|p| inside(left, top, p));
            let hanging = members
                .clone()
                .filter(|p| p.row < bottom && !occupied.contains(&(p.column, p.row + 1)))
                .count();
            (hanging, std::cmp::Reverse(members.count()))
        });
    let Some((left, top)) = best else {
        return group;
    };
    log::debug!("the piles span more than the board: kept columns from {left}, rows from {top}");
    group.into_iter().filter(|p| inside(left, top, p)).collect()
}

/// Adds to the grid's cells every lattice cell that `occupied` says holds
/// a pile and that joins the cells found (4-connected, as a board's tiles
/// are) while the whole stays within the board's size. The blob search
/// misses piles whose colour is close to the background's (cyan on teal);
/// the cell reader does not.
pub(crate) fn grow(grid: &mut Grid, shape: &Shape, mut occupied: impl FnMut(PixelPoint) -> bool) {
    let (width, height) = (i32::from(shape.width), i32::from(shape.height));
    let mut known: std::collections::HashSet<(i32, i32)> = grid.cells.iter().copied().collect();
    let mut refused = std::collections::HashSet::new();
    let mut queue: Vec<(i32, i32)> = grid.cells.clone();
    while let Some((c, r)) = queue.pop() {
        for next in [(c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)] {
            if known.contains(&next) || refused.contains(&next) {
                continue;
            }
            let (lo_c, hi_c) = min_max(known.iter().map(|k| k.0).chain([next.0]));
            let (lo_r, hi_r) = min_max(known.iter().map(|k| k.1).chain([next.1]));
            let fits = hi_c - lo_c < width && hi_r - lo_r < height;
            if fits && occupied(grid.point(next.0, next.1)) {
                known.insert(next);
                grid.cells.push(next);
                queue.push(next);
            } else {
                refused.insert(next);
            }
        }
    }
}

/// The downsampling factor: cells stay at least ~18 pixels wide even at
/// half the real size in a big window.
fn factor(image: &RgbaImage) -> u32 {
    (image.width().min(image.height()) / 400).clamp(1, 3)
}

fn pile_blobs(image: &RgbaImage) -> Vec<Pile> {
    let f = factor(image);
    let (w, h) = (image.width() / f, image.height() / f);
    let mut colourful = vec![0.0f32; (w * h) as usize];
    let raw = image.as_raw();
    let stride = image.width() as usize * 4;
    let area = f * f;
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0u32; 3];
            for yy in 0..f {
                let row = (y * f + yy) as usize * stride;
                for xx in 0..f {
                    let i = row + (x * f + xx) as usize * 4;
                    sum[0] += u32::from(raw[i]);
                    sum[1] += u32::from(raw[i + 1]);
                    sum[2] += u32::from(raw[i + 2]);
                }
            }
            // Colourfulness as the spread of the channels: far cheaper than
            // Oklab chroma here, and Otsu's split adapts to its scale.
            let spread = sum.iter().max().unwrap_or(&0) - sum.iter().min().unwrap_or(&0);
            colourful[(y * w + x) as usize] = spread as f32 / (255 * area) as f32;
        }
    }
    let threshold = otsu(&colourful);
    let mask: Vec<bool> = colourful.iter().map(|&c| c > threshold).collect();
    let scale = f as f32;
    blobs(&mask, w, h)
        .into_iter()
        .filter_map(|b| {
            let bw = (b.max_x - b.min_x + 1) as f32 * scale;
            let bh = (b.max_y - b.min_y + 1) as f32 * scale;
            let size = bw.max(bh);
            let fill = b.area as f32 * scale * scale / (bw * bh);
            let pile_like =
                (MIN_PILE..=MAX_PILE).contains(&size) && bw.min(bh) / size > 0.35 && fill > 0.3;
            pile_like.then(|| Pile {
                x: (b.sum_x as f32 / b.area as f32 + 0.5) * scale,
                y: (b.sum_y as f32 / b.area as f32 + 0.5) * scale,
                size,
            })
        })
        .collect()
}

/// Otsu's threshold of colourfulness values: the split that best separates the
/// grey background from the piles, whatever the capture's brightness. Never
/// below a floor, so an image of greys does not split its noise.
fn otsu(values: &[f32]) -> f32 {
    const BINS: usize = 128;
    const TOP: f32 = 1.0;
    let mut histogram = [0u32; BINS];
    for &v in values {
        histogram[((v / TOP * BINS as f32) as usize).min(BINS - 1)] += 1;
    }
    let total = values.len() as f64;
    let sum_all: f64 = histogram
        .iter()
        .enumerate()
        .map(|(i, &n)| i as f64 * n as f64)
        .sum();
    let (mut weight_low, mut sum_low) = (0.0f64, 0.0f64);
    let (mut best, mut best_split) = (-1.0f64, 0usize);
    for (i, &n) in histogram.iter().enumerate() {
        weight_low += n as f64;
        sum_low += i as f64 * n as f64;
        let weight_high = total - weight_low;
        if weight_low == 0.0 || weight_high == 0.0 {
            continue;
        }
        let mean_low = sum_low / weight_low;
        let mean_high = (sum_all - sum_low) / weight_high;
        let between = weight_low * weight_high * (mean_low - mean_high).powi(2);
        if between > best {
            best = between;
            best_split = i;
        }
    }
    ((best_split + 1) as f32 * TOP / BINS as f32).max(0.06)
}

/// 8-connected components of a mask.
fn blobs(mask: &[bool], w: u32, h: u32) -> Vec<Blob> {
    let mut seen = vec![false; mask.len()];
    let mut stack = Vec::new();
    let mut found = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start as u32);
        let (sx, sy) = (start as u32 % w, start as u32 / w);
        let mut blob = Blob {
            min_x: sx,
            max_x: sx,
            min_y: sy,
            max_y: sy,
            ..Blob::default()
        };
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            blob.area += 1;
            blob.sum_x += u64::from(x);
            blob.sum_y += u64::from(y);
            blob.min_x = blob.min_x.min(x);
            blob.max_x = blob.max_x.max(x);
            blob.min_y = blob.min_y.min(y);
            blob.max_y = blob.max_y.max(y);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let j = (ny * w + nx) as usize;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j as u32);
                    }
                }
            }
        }
        found.push(blob);
    }
    found
}

/// A pile with its lattice position in the group.
#[derive(Clone, Copy, Debug)]
struct Placed {
    pile: Pile,
    column: i32,
    row: i32,
}

/// Links piles of similar size one pitch apart in a row or a column, and
/// returns the biggest linked group (by the piles' total area, so a few big
/// piles outweigh a row of small icons) with lattice positions.
fn biggest_lattice_group(piles: &[Pile]) -> Vec<Placed> {
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
    let mut best: Vec<Placed> = Vec::new();
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
        let weight = |members: &mut dyn Iterator<Item = Pile>| -> f32 {
            members.map(|p| p.size * p.size).sum()
        };
        let heavier =
            weight(&mut group.iter().map(|&i| piles[i])) > weight(&mut best.iter().map(|p| p.pile));
        if heavier {
            best = group
                .iter()
                .map(|&i| {
                    let (column, row) = placed[i].expect("grouped piles are placed");
                    Placed {
                        pile: piles[i],
                        column,
                        row,
                    }
                })
                .collect();
        }
    }
    best
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

/// The lattice through the group's piles: least-squares pitch and origin.
fn fit_grid(group: &[Placed], shape: &Shape) -> Result<Grid, VisionError> {
    let columns = group.iter().map(|p| (p.column, p.pile.x));
    let rows = group.iter().map(|p| (p.row, p.pile.y));
    let mean_size = group.iter().map(|p| p.pile.size).sum::<f32>() / group.len() as f32;
    let (pitch_x, pitch_y) = match (fit_line(columns.clone()), fit_line(rows.clone())) {
        (Some((_, px)), Some((_, py))) => (px, py),
        (Some((_, px)), None) => (px, px * shape.aspect),
        (None, Some((_, py))) => (py / shape.aspect, py),
        (None, None) => {
            let px = mean_size / shape.pile_size;
            (px, px * shape.aspect)
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
    Ok(Grid {
        centre_x,
        centre_y,
        pitch_x,
        pitch_y,
        cells: group.iter().map(|p| (p.column, p.row)).collect(),
        pile_size: mean_size,
    })
}

/// Places the grid's cells on the board: the lowest row is row 0 (gravity),
/// and the columns are those where every row's tiles touch the centre line
/// (contraction); when several placements obey the rules, the board's
/// visible edges or `near` decide.
pub(crate) fn place(
    image: &RgbaImage,
    grid: &Grid,
    shape: &Shape,
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

fn min_max(values: impl Iterator<Item = i32>) -> (i32, i32) {
    values.fold((i32::MAX, i32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;

    const SHAPE: Shape = Shape {
        width: 8,
        height: 6,
        aspect: 1.0,
        pile_size: 0.8,
    };

    /// A grey image with discs of `colour` at the cells of `rows` (top
    /// row first, `#` a pile) on a lattice at `origin` with `pitch`.
    fn lattice(rows: &[&str], origin: (f32, f32), pitch: f32) -> RgbaImage {
        let mut image = RgbaImage::from_pixel(900, 700, Rgba([70, 84, 82, 255]));
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch != '#' {
                    continue;
                }
                let cx = origin.0 + (c as f32 + 0.5) * pitch;
                let cy = origin.1 + (r as f32 + 0.5) * pitch;
                let radius = 0.38 * pitch;
                for y in (cy - radius) as u32..=(cy + radius) as u32 {
                    for x in (cx - radius) as u32..=(cx + radius) as u32 {
                        if (x as f32 - cx).hypot(y as f32 - cy) <= radius {
                            image.put_pixel(x, y, Rgba([130, 220, 60, 255]));
                        }
                    }
                }
            }
        }
        image
    }

    #[test]
    fn finds_a_full_board_and_ignores_a_stray_icon() {
        let full = ["########"; 6];
        let mut image = lattice(&full, (100.0, 150.0), 60.0);
        for y in 10..30 {
            for x in 10..30 {
                image.put_pixel(x, y, Rgba([240, 60, 200, 255]));
            }
        }
        let found = locate(&image, &SHAPE, None).unwrap();
        let g = found.geometry;
        assert!(
            (g.pitch_x - 60.0).abs() < 1.0 && (g.pitch_y - 60.0).abs() < 1.0,
            "{g:?}"
        );
        assert!(
            (g.x - 100.0).abs() < 2.0 && (g.y - 150.0).abs() < 2.0,
            "{g:?}"
        );
    }

    #[test]
    fn places_a_mid_game_board_by_the_centre_line() {
        // A full bottom row fixes the columns; the top rows are empty.
        let rows = [
            "........", "........", "...##...", "..####..", "..#####.", "########",
        ];
        let image = lattice(&rows, (100.0, 150.0), 60.0);
        let g = locate(&image, &SHAPE, None).unwrap().geometry;
        assert!(
            (g.x - 100.0).abs() < 2.0 && (g.y - 150.0).abs() < 2.0,
            "{g:?}"
        );
    }

    #[test]
    fn one_sided_board_is_ambiguous_without_a_hint() {
        // Tiles only left of the centre: x 2..3 or x 4..5 both obey the rules.
        let rows = [
            "........", "........", "........", "........", "...#....", "..##....",
        ];
        let image = lattice(&rows, (100.0, 150.0), 60.0);
        let error = locate(&image, &SHAPE, None).unwrap_err();
        assert!(error.to_string().contains("cannot tell"), "{error}");
        let near = Geometry {
            x: 100.0,
            y: 150.0,
            pitch_x: 60.0,
            pitch_y: 60.0,
            width: 8,
            height: 6,
        };
        let g = locate(&image, &SHAPE, Some(&near)).unwrap().geometry;
        assert!((g.x - 100.0).abs() < 2.0, "{g:?}");
    }

    #[test]
    fn the_board_panel_edges_place_a_one_sided_board() {
        let rows = [
            "........", "........", "........", "........", "...#....", "..##....",
        ];
        let mut image = lattice(&rows, (100.0, 150.0), 60.0);
        // The window around the board's panel is another colour.
        for (x, y, p) in image.enumerate_pixels_mut() {
            let inside = (100..580).contains(&x) && (150..510).contains(&y);
            if !inside {
                *p = Rgba([40, 34, 30, 255]);
            }
        }
        let g = locate(&image, &SHAPE, None).unwrap().geometry;
        assert!(
            (g.x - 100.0).abs() < 2.0 && (g.y - 150.0).abs() < 2.0,
            "{g:?}"
        );
    }

    /// Fills a rectangle of `image` with a button's blue.
    fn button(image: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32) {
        for yy in y..y + h {
            for xx in x..x + w {
                image.put_pixel(xx, yy, Rgba([70, 84, 160, 255]));
            }
        }
    }

    #[test]
    fn buttons_a_pitch_under_the_board_are_not_a_row() {
        for rows in [
            ["########"; 6],
            [
                "....#...", "..####..", ".######.", "########", "########", "########",
            ],
        ] {
            let mut image = lattice(&rows, (100.0, 150.0), 60.0);
            // Under the bottom row's centres, as a game's buttons might be.
            button(&mut image, 164, 530, 52, 34);
            button(&mut image, 224, 530, 52, 34);
            let g = locate(&image, &SHAPE, None).unwrap().geometry;
            assert!(
                (g.x - 100.0).abs() < 2.0 && (g.y - 150.0).abs() < 2.0,
                "{rows:?}: {g:?}"
            );
        }
    }

    #[test]
    fn no_piles_no_board() {
        let image = RgbaImage::from_pixel(300, 200, Rgba([70, 84, 82, 255]));
        assert!(matches!(
            locate(&image, &SHAPE, None),
            Err(VisionError::NoBoard(_))
        ));
    }

    #[test]
    fn otsu_splits_two_groups() {
        let mut values = vec![0.1f32; 500];
        values.extend(std::iter::repeat_n(0.5f32, 200));
        let t = otsu(&values);
        assert!(t > 0.1 && t < 0.5, "{t}");
    }
}
