//! Reading a board from an image: a known geometry first (the last
//! read's, or the calibration's for an image of its size), a search of the
//! image when that does not fit, then every cell read as a colour or empty
//! with a confidence, under the balances that undo a capture's light, and
//! the settled check on the whole.

use image::RgbaImage;

use super::classify::{self, CellVerdict, Judge, Scratch};
use super::{Calibration, CellReading, Reading, VisionError, doubt, locate};
use crate::colour::{self, Balance};
use crate::game::Colour;
use crate::geometry::{Geometry, PixelPoint};

/// Reads the board in `image`. Tries `hint` (the last read's geometry)
/// first, then the calibration's stored geometry for an image of its size;
/// searches the image when neither fits. Fails only when no board is found;
/// unsure cells are in the reading (see [`Reading::board`]).
///
/// ```
/// use dustbot::game::{Board, EXAMPLE_BOARD};
/// use dustbot::render::{self, Look, Shot, Surround};
/// use dustbot::vision::{self, Calibration};
///
/// // A game window drawn in the real game's colours, read back.
/// let board: Board = EXAMPLE_BOARD.parse()?;
/// let shot = Shot { scale: 0.5, surround: Surround::Window, seed: 7 };
/// let (picture, _) = render::screenshot(&board, &Look::nodiatis(), &shot);
/// let calibration = Calibration::load(&Calibration::default_path())?;
/// let reading = vision::read(&picture.to_image(), &calibration, None)?;
/// assert_eq!(reading.board()?, board);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    let mut scratch = Scratch::default();
    let mut grid = locate::find_grid(image, &shape, |grid| {
        let pitch = (grid.pitch_x, grid.pitch_y);
        let background = grid_background(image, grid);
        let dust = 0.5 * calibration.thresholds.confidence;
        let mut looks = vec![locate::BlobReading::Nothing; grid.cells.len()];
        // Under the capture's light as it is, then washed out, for the
        // cells not yet read as dust.
        for saturation in std::iter::once(1.0).chain(RESATURATIONS) {
            let judge = judge_from(&background, calibration, saturation);
            for (look, &(c, r)) in looks.iter_mut().zip(&grid.cells) {
                if *look == locate::BlobReading::Dust {
                    continue;
                }
                let centre = grid.point(c, r);
                match centred_pile(image, centre, pitch, &judge, calibration, &mut scratch) {
                    Some(v) if v.confidence >= dust => *look = locate::BlobReading::Dust,
                    Some(_) => *look = locate::BlobReading::Faint,
                    None => {}
                }
            }
            if looks.iter().all(|&l| l == locate::BlobReading::Dust) {
                break;
            }
        }
        looks
    })?;
    // Let the cell reader complete the piles the blob search missed (a
    // decoy beside the board read half surely would shift it), then place
    // the board.
    let judge = judge_from(&grid_background(image, &grid), calibration, 1.0);
    let pitch = (grid.pitch_x, grid.pitch_y);
    locate::grow(&mut grid, &shape, |centre| {
        centred_pile(image, centre, pitch, &judge, calibration, &mut scratch)
            .is_some_and(|v| v.confidence >= calibration.thresholds.confidence)
    });
    log::debug!(
        "lattice: pitch {:.1} x {:.1}, piles at {:?}",
        grid.pitch_x,
        grid.pitch_y,
        grid.cells
    );
    let geometry = locate::place(image, &grid, &shape, hint.or(stored.as_ref()))?;
    Ok(read_at(image, calibration, &geometry))
}

/// The pixels of the background between the piles of a lattice found by
/// the search, where its judge is balanced.
fn grid_background(image: &RgbaImage, grid: &locate::PileGrid) -> Vec<[u8; 3]> {
    classify::patch_pixels(image, &grid.inner_corners(), (grid.pitch_x, grid.pitch_y))
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
/// the balance to the colours of the sure piles and reads again, then
/// tries without a balance; when the best of those gives no board, tries
/// undoing a washed-out capture. Returns the reading, checked for a
/// settled board, and the judge it used.
fn read_with(
    image: &RgbaImage,
    calibration: &Calibration,
    geometry: &Geometry,
) -> (Reading, Judge) {
    let background = classify::corner_pixels(image, geometry);
    let judge = judge_from(&background, calibration, 1.0);
    let (mut reading, mut stats) = read_cells(image, calibration, geometry, &judge);
    let first = reading.clone();
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
    settle(image, &mut reading, &stats);
    // A washed-out capture is read half way by the balances above, which
    // undo a tint or a haze: a board unsure or in doubt everywhere it is
    // washed out.
    if reading.board().is_err()
        && let Some((mut second, second_stats, other)) =
            washed_out(image, calibration, geometry, &background, &first)
        && second.min_confidence() > reading.min_confidence()
    {
        settle(image, &mut second, &second_stats);
        (reading, used) = (second, other);
    }
    (reading, used)
}

/// Marks the cells of `reading` that a settled board would not show (see
/// [`doubt::check`]).
fn settle(image: &RgbaImage, reading: &mut Reading, stats: &[classify::CellStats]) {
    let strength: Vec<f32> = reading.cells.iter().map(|c| c.strength).collect();
    doubt::check(
        image,
        &reading.geometry,
        &mut reading.cells,
        stats,
        &strength,
    );
}

/// The saturation gains tried on a washed-out capture, whose colours have
/// all drifted toward grey (and yellow toward green): they undo a capture
/// at 0.5 to 0.85 of the game's saturation to within about a tenth.
const RESATURATIONS: [f32; 4] = [1.2, 1.4, 1.65, 2.0];

/// The reading under the saturation gain that brings the board's piles as
/// a whole nearest their colours, when one brings them nearer than
/// `first` (the reading without a gain) does; with its cells' statistics
/// and its judge, balanced on the `background` pixels. A washed-out capture moves every pile toward grey; a
/// cluster fading out moves only itself, and a gain that restored it
/// would take the board's other piles away from their colours, so none is
/// taken.
fn washed_out(
    image: &RgbaImage,
    calibration: &Calibration,
    geometry: &Geometry,
    background: &[[u8; 3]],
    first: &Reading,
) -> Option<(Reading, Vec<classify::CellStats>, Judge)> {
    let misfit = |reading: &Reading| {
        let mut distances: Vec<f32> = reading
            .cells
            .iter()
            .filter(|c| c.colour.is_some())
            .map(|c| c.delta_e)
            .collect();
        let mid = distances.len() / 2;
        (!distances.is_empty()).then(|| *distances.select_nth_unstable_by(mid, f32::total_cmp).1)
    };
    let baseline = misfit(first)?;
    RESATURATIONS
        .into_iter()
        .filter_map(|saturation| {
            let judge = judge_from(background, calibration, saturation);
            let (reading, stats) = read_cells(image, calibration, geometry, &judge);
            Some((misfit(&reading)?, reading, stats, judge))
        })
        .filter(|(misfit, ..)| *misfit < baseline)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, reading, stats, judge)| (reading, stats, judge))
}

/// How strongly a cell's pile stands out (see [`doubt::pile_strength`]).
fn strength(stats: &classify::CellStats, calibration: &Calibration, colour: Colour) -> f32 {
    let Some(pile) = stats.colour else {
        return 0.0;
    };
    let model = &calibration.colours[colour.index() as usize];
    doubt::pile_strength(
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

/// How this capture's pixels are judged: their saturation times
/// `saturation`, white-balanced so that the board's `background` pixels
/// match the calibration's background, then compared with that
/// background.
fn judge_from(background: &[[u8; 3]], calibration: &Calibration, saturation: f32) -> Judge {
    let measured = classify::median_linear(background, saturation);
    let reference = calibration.background.linear_rgb;
    let balance = measured
        .map_or(Balance::NONE, |measured| {
            Balance::between(measured, reference, calibration.thresholds.balance_limit)
        })
        .resaturated(saturation);
    let background_lab = colour::oklab_from_linear(reference);
    Judge {
        balance,
        background: background_lab,
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
    // `doubt`.)
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
        let centre = g.point(x as f32, y as f32);
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
