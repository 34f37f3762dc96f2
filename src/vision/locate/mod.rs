//! Finding the board in an image with no coordinates given: mark the
//! pile-coloured pixels (colourfulness above an Otsu threshold, on a downsampled
//! copy), group them into blobs, keep the blobs of pile size, link blobs
//! that sit one pitch apart in a row or a column, and take the heaviest
//! linked group that the cell reader takes for dust as the board's piles.
//! A least-squares fit of the lattice gives the pitch and origin; the
//! game's rules (gravity fills the bottom row, each row's tiles touch the
//! centre line) place the group on the board when columns are empty, and
//! the board's edges when the rules leave a choice (or a lone pile leaves
//! the pitch a guess).

mod blobs;
mod lattice;
mod place;

use image::RgbaImage;

use super::VisionError;
use crate::geometry::{Geometry, PixelPoint};
use blobs::pile_blobs;
use lattice::{Placed, fit_grid, lattice_groups};

pub(crate) use lattice::PileGrid;
pub(crate) use place::place;

/// What the search needs to know about the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SearchShape {
    pub width: u8,
    pub height: u8,
    /// `pitch_y / pitch_x`.
    pub aspect: f32,
    /// A pile's larger side as a share of the pitch.
    pub pile_size: f32,
}

/// of the pitch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Located {
    pub geometry: Geometry,
    pub pile_size: f32,
}

/// Finds the board from the pile blobs alone. `near` breaks ties when the
/// board's columns are ambiguous (the geometry of an earlier read).
pub(crate) fn locate(
    image: &RgbaImage,
    shape: &SearchShape,
    near: Option<&Geometry>,
) -> Result<Located, VisionError> {
    let grid = find_grid(image, shape, |grid| {
        vec![BlobReading::Dust; grid.cells.len()]
    })?;
    let geometry = place(image, &grid, shape, near)?;
    Ok(Located {
        geometry,
        pile_size: grid.pile_size / geometry.pitch_x,
    })
}

/// What the cell reader makes of a blob of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlobReading {
    /// A dust pile.
    Dust,
    /// Something like a pile, too unsure to say (a pile in odd light).
    Faint,
    /// No pile at all: a piece of the swamp or the window.
    Nothing,
}

/// Finds the piles' lattice: blobs of pile size linked one pitch apart, the
/// heaviest group of them that the cell reader takes for the board's piles
/// (a pair of buttons the size of big piles, one pitch apart, outweighs a
/// few small piles, and is no dust). `look` says what each cell of a
/// group's lattice holds: a group is the board's when at least half of its
/// blobs are dust, and its lattice is fitted again without the blobs that
/// hold nothing (a blob of the swamp linked to a lone pile gives a false
/// pitch).
pub(crate) fn find_grid(
    image: &RgbaImage,
    shape: &SearchShape,
    mut look: impl FnMut(&PileGrid) -> Vec<BlobReading>,
) -> Result<PileGrid, VisionError> {
    let piles = pile_blobs(image);
    if piles.is_empty() {
        return Err(VisionError::NoBoard(
            "no pile-coloured blob of pile size".into(),
        ));
    }
    let mut failed = None;
    for group in lattice_groups(&piles) {
        let group = trim_to_board(group, shape);
        let grid = match fit_grid(&group, shape) {
            Ok(grid) => grid,
            Err(error) => {
                failed = failed.or(Some(error));
                continue;
            }
        };
        let looks = look(&grid);
        let dust = looks.iter().filter(|&&l| l == BlobReading::Dust).count();
        if 2 * dust < grid.cells.len() {
            log::debug!("a group of pile-sized blobs that is no dust");
            continue;
        }
        // `fit_grid` keeps the group's blobs on the lattice: match the
        // looks by lattice cell.
        let kept: Vec<Placed> = group
            .into_iter()
            .filter(|p| {
                grid.cells
                    .iter()
                    .position(|&c| c == (p.column, p.row))
                    .is_some_and(|i| looks[i] != BlobReading::Nothing)
            })
            .collect();
        if kept.len() == grid.cells.len() {
            return Ok(grid);
        }
        log::debug!(
            "{} of a group's {} blobs hold no pile",
            grid.cells.len() - kept.len(),
            grid.cells.len()
        );
        return fit_grid(&kept, shape);
    }
    Err(failed.unwrap_or_else(|| {
        VisionError::NoBoard("no group of pile-sized blobs reads as dust piles".into())
    }))
}

/// When the linked blobs span more than the board (a button or a picture
/// about a pitch from the board's edge links to its piles), keeps the
/// board-sized window of them that best obeys gravity (fewest blobs with
/// nothing under them inside the window), then the one with the most
/// blobs. A row of buttons under the board leaves the real bottom row
/// hanging over gaps; the board's own rows never do, bar missed piles.
fn trim_to_board(group: Vec<Placed>, shape: &SearchShape) -> Vec<Placed> {
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
pub(crate) fn grow(
    grid: &mut PileGrid,
    shape: &SearchShape,
    mut occupied: impl FnMut(PixelPoint) -> bool,
) {
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

/// The least and greatest of `values`.
fn min_max(values: impl Iterator<Item = i32>) -> (i32, i32) {
    values.fold((i32::MAX, i32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;

    const SHAPE: SearchShape = SearchShape {
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
        assert_board_at_origin(&image);
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
        in_panel(&mut image, [40, 34, 30], None);
        assert_board_at_origin(&image);
    }

    #[test]
    fn the_board_panel_edges_give_a_lone_piles_board_its_pitch() {
        // One pile: its size guesses the pitch a few hundredths off, which
        // the panel's edges, eight pitches apart, correct.
        let rows = [
            "........", "........", "........", "........", "........", "....#...",
        ];
        let mut image = lattice(&rows, (100.0, 150.0), 60.0);
        in_panel(&mut image, [40, 34, 30], None);
        let guess = find_grid(&image, &SHAPE, |grid| {
            vec![BlobReading::Dust; grid.cells.len()]
        })
        .unwrap();
        assert!(
            !guess.pitch_known && (guess.pitch_x - 60.0).abs() > 1.0,
            "{guess:?}"
        );
        let g = locate(&image, &SHAPE, None).unwrap().geometry;
        assert!(
            (g.pitch_x - 60.0).abs() < 0.7
                && (g.x - 100.0).abs() < 3.0
                && (g.y - 150.0).abs() < 3.0,
            "{g:?}"
        );
    }

    /// Puts the board of [`lattice`] at (100, 150), pitch 60, in a panel:
    /// the window around it `window`, and its background `swamp` if given.
    fn in_panel(image: &mut RgbaImage, window: [u8; 3], swamp: Option<[u8; 3]>) {
        let colour = |c: [u8; 3]| Rgba([c[0], c[1], c[2], 255]);
        for (x, y, p) in image.enumerate_pixels_mut() {
            let inside = (100..580).contains(&x) && (150..510).contains(&y);
            if !inside {
                *p = colour(window);
            } else if let Some(swamp) = swamp
                && p.0 == [70, 84, 82, 255]
            {
                *p = colour(swamp);
            }
        }
    }

    /// Locates the board in `image` where [`lattice`] put it, (100, 150).
    fn assert_board_at_origin(image: &RgbaImage) {
        let g = locate(image, &SHAPE, None).unwrap().geometry;
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
    fn buttons_a_pitch_and_a_half_under_the_board_are_no_row() {
        // The piles span five rows: with the buttons, six, as many as the
        // board has, so only their place off the lattice tells them apart.
        let rows = [
            "........", "...##...", "..####..", ".######.", "########", "########",
        ];
        let mut image = lattice(&rows, (100.0, 150.0), 60.0);
        // Half a pitch and more off the columns, a pitch and a half under
        // the bottom row's centres.
        button(&mut image, 230, 556, 66, 28);
        button(&mut image, 311, 556, 66, 28);
        assert_board_at_origin(&image);
    }

    #[test]
    fn piles_on_a_colourful_swamp_are_found() {
        // A cast makes the whole swamp more colourful than the window
        // around it: the piles are the most colourful part of that blob.
        let mut image = lattice(&["########"; 6], (100.0, 150.0), 60.0);
        in_panel(&mut image, [40, 40, 44], Some([40, 90, 130]));
        assert_board_at_origin(&image);
    }

    #[test]
    fn no_piles_no_board() {
        let image = RgbaImage::from_pixel(300, 200, Rgba([70, 84, 82, 255]));
        assert!(matches!(
            locate(&image, &SHAPE, None),
            Err(VisionError::NoBoard(_))
        ));
    }
}
