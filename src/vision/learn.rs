//! Learning a calibration from one screenshot: with the true board given
//! (`bot calibrate --board`), or by grouping the pile colours into the
//! game's colours and naming the groups by hue as `RULES.md` describes them.

use image::RgbaImage;
use thiserror::Error;

use super::calibration::{
    BackgroundModel, BoardShape, Calibration, ColourModel, EmptyModel, PileModel, StoredGeometry,
    Thresholds, VERSION, round4,
};
use super::classify::{self, CellStats, Judge, Scratch};
use super::{VisionError, locate};
use crate::colour::{self, Balance};
use crate::game::{Board, Cell, Colour, NODIATIS_COLOURS};
use crate::geometry::Geometry;

/// The defaults a fresh calibration starts from.
const CONFIDENCE: f32 = 0.5;
const MAX_DELTA_E: f32 = 25.0;
const BALANCE_LIMIT: f32 = 12.0;
/// Without a true board, a cell whose central part is at least this share
/// pile-coloured holds a pile.
const OCCUPIED: f32 = 0.3;
/// The pile threshold sits this far above the background's 98th
/// percentile distance from its own median colour.
const BACKGROUND_MARGIN: f32 = 1.25;
/// ... and never below this Oklab distance (a flat background).
const MIN_PILE_DISTANCE: f32 = 0.012;
/// An empty cell's share when the screenshot shows none.
const EMPTY_FRACTION: f32 = 0.05;

/// How the game's colours look, from `RULES.md`: the sRGB of a typical
/// lime green, salmon, magenta, gold and sky-blue pile, in colour order.
const LOOKS: [[u8; 3]; NODIATIS_COLOURS as usize] = [
    [110, 220, 60],
    [240, 130, 110],
    [200, 60, 190],
    [230, 190, 50],
    [90, 190, 235],
];

/// What RULES.md calls each look, in the order of [`LOOKS`].
const LOOK_NAMES: [&str; NODIATIS_COLOURS as usize] = ["lime", "salmon", "magenta", "gold", "cyan"];

/// Why a screenshot gives no calibration.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LearnError {
    #[error(transparent)]
    Vision(#[from] VisionError),
    #[error("cell {cell}: the board given has {expected} there, but the screenshot shows {seen}")]
    Mismatch {
        cell: Cell,
        expected: String,
        seen: String,
    },
    #[error(
        "the board given has {}; the screenshot's board needs all of {letters}",
        if found.is_empty() { "no colour".to_owned() } else { format!("only the colours {found}") }
    )]
    MissingColours { found: String, letters: String },
    #[error(
        "the piles given as {letter} look {seen}, not {expected}: is the board given right? (nothing learned)"
    )]
    WrongHue {
        letter: char,
        expected: &'static str,
        seen: &'static str,
    },
    #[error(
        "the calibration learned does not read the board back (it reads {read}): nothing learned"
    )]
    NotReadBack { read: String },
    #[error("found {found} piles, fewer than the {colours} colours to learn")]
    TooFewPiles { found: usize, colours: u8 },
    #[error("screenshot {number}: {error}")]
    InShot {
        number: usize,
        error: Box<LearnError>,
    },
}

impl LearnError {
    /// The error, naming the screenshot (counted from 1) when there are
    /// several.
    fn in_shot(self, index: usize, count: usize) -> LearnError {
        if count < 2 {
            return self;
        }
        LearnError::InShot {
            number: index + 1,
            error: Box::new(self),
        }
    }
}

/// What the screenshot's cells look like before any colour is known.
struct Survey {
    geometry: Geometry,
    image_size: (u32, u32),
    pile_size: f32,
    pile_distance: f32,
    background: [f32; 3],
    stats: Vec<(Cell, CellStats)>,
}

fn survey(image: &RgbaImage, width: u8, height: u8) -> Result<Survey, LearnError> {
    let shape = locate::SearchShape {
        width,
        height,
        aspect: 1.0,
        pile_size: 0.85,
    };
    let found = locate::locate(image, &shape, None)?;
    let geometry = found.geometry;
    let background = classify::background(image, &geometry)
        .ok_or_else(|| VisionError::NoBoard("the board's corners are outside the image".into()))?;
    let background_lab = colour::oklab_from_linear(background);
    let mut judge = Judge {
        balance: Balance::NONE,
        background: background_lab,
        threshold: 0.0,
    };
    // A pixel is pile-coloured when it is clearly farther from the
    // background colour than the background's own pixels are.
    let mut spread: Vec<f32> = classify::corner_pixels(image, &geometry)
        .into_iter()
        .map(|rgb| judge.judge(rgb).1)
        .collect();
    spread.sort_by(f32::total_cmp);
    let p98 = spread[(spread.len() - 1) * 98 / 100];
    judge.threshold = (BACKGROUND_MARGIN * p98).max(MIN_PILE_DISTANCE);
    let stats = measure_cells(image, &geometry, &judge);
    Ok(Survey {
        geometry,
        image_size: image.dimensions(),
        pile_size: found.pile_size,
        pile_distance: judge.threshold,
        background,
        stats,
    })
}

/// Every cell of the board at `geometry` measured with `judge`.
fn measure_cells(image: &RgbaImage, geometry: &Geometry, judge: &Judge) -> Vec<(Cell, CellStats)> {
    let pitch = (geometry.pitch_x, geometry.pitch_y);
    let mut scratch = Scratch::default();
    geometry
        .cells()
        .map(|cell| {
            let centre = geometry.cell_centre(cell);
            (
                cell,
                classify::measure(image, centre, pitch, judge, &mut scratch),
            )
        })
        .collect()
}

/// Learns a calibration from a screenshot of `truth`.
pub fn learn(image: &RgbaImage, truth: &Board) -> Result<Calibration, LearnError> {
    learn_from(&[(image, truth)])
}

/// Learns a calibration from screenshots of known boards. The first gives
/// the board's place in its frame and the background the colours are
/// balanced against; the piles of all of them give the colours; the empty
/// cells of all of them what an empty cell looks like. A mid-game
/// screenshot so teaches the real swamp where piles used to be: a pixel
/// belongs to a pile when it stands farther from the background than the
/// swamp of every screenshot does.
pub fn learn_from(shots: &[(&RgbaImage, &Board)]) -> Result<Calibration, LearnError> {
    let colours = shots.iter().fold(0, |bits, (_, b)| bits | b.colour_bits());
    if colours.count_ones() < u32::from(NODIATIS_COLOURS) || colours >> NODIATIS_COLOURS != 0 {
        let found = Colour::all(8)
            .filter(|c| colours >> c.index() & 1 == 1)
            .map(Colour::letter)
            .collect();
        return Err(LearnError::MissingColours {
            found,
            letters: Colour::LETTERS[..NODIATIS_COLOURS as usize]
                .iter()
                .collect(),
        });
    }
    let mut surveys = Vec::new();
    for (shot, (image, truth)) in shots.iter().enumerate() {
        let survey = survey(image, truth.width(), truth.height())
            .map_err(|e| e.in_shot(shot, shots.len()))?;
        surveys.push(survey);
    }
    // One threshold for all: the one that keeps every swamp out.
    let pile_distance = surveys.iter().map(|s| s.pile_distance).fold(0.0, f32::max);
    let mut labels = Vec::new();
    for (shot, (survey, (image, truth))) in surveys.iter_mut().zip(shots).enumerate() {
        if survey.pile_distance < pile_distance {
            let background_lab = colour::oklab_from_linear(survey.background);
            let judge = Judge {
                balance: Balance::NONE,
                background: background_lab,
                threshold: pile_distance,
            };
            survey.stats = measure_cells(image, &survey.geometry, &judge);
            survey.pile_distance = pile_distance;
        }
        for (cell, stats) in &survey.stats {
            let label = truth.get(*cell);
            let looks_occupied = stats.fraction >= OCCUPIED / 2.0 && stats.colour.is_some();
            if label.is_some() != looks_occupied {
                let error = LearnError::Mismatch {
                    cell: *cell,
                    expected: label.map_or("an empty cell".into(), |c| {
                        format!("{} ({})", c.letter(), c.name())
                    }),
                    seen: if looks_occupied {
                        "a pile".into()
                    } else {
                        "an empty cell".into()
                    },
                };
                return Err(error.in_shot(shot, shots.len()));
            }
            labels.push(label);
        }
    }
    let calibration = build(&surveys, &labels, NODIATIS_COLOURS);
    check_hues(&calibration)?;
    Ok(calibration)
}

/// Each learned colour must look like its name: of the looks of RULES.md,
/// its hue must be nearest its own. A board string with two letters
/// swapped throughout would otherwise teach the swap to every later read.
fn check_hues(calibration: &Calibration) -> Result<(), LearnError> {
    let look_hues: Vec<f32> = LOOKS
        .iter()
        .map(|&rgb| lab_hue(colour::cielab(Balance::NONE.oklab(rgb))))
        .collect();
    let gap = |a: f32, b: f32| {
        let d = (a - b).rem_euclid(360.0);
        d.min(360.0 - d)
    };
    for (i, model) in calibration.colours.iter().enumerate().take(LOOKS.len()) {
        let hue = lab_hue(model.lab);
        let nearest = (0..look_hues.len())
            .min_by(|&a, &b| gap(hue, look_hues[a]).total_cmp(&gap(hue, look_hues[b])))
            .expect("five looks");
        if nearest != i {
            return Err(LearnError::WrongHue {
                letter: model.letter,
                expected: LOOK_NAMES[i],
                seen: LOOK_NAMES[nearest],
            });
        }
    }
    Ok(())
}

/// Calibrating on the board a picture shows (`bot calibrate` on one
/// screenshot, the guided session's `3`), step one: the board to propose
/// to the player, read with `current` where it reads whole, else its
/// piles' colours grouped and named by hue ([`cluster_colours`]). The
/// player confirms or corrects it; [`learn_on`] is step two.
pub fn propose(
    picture: &RgbaImage,
    current: Option<&Calibration>,
    width: u8,
    height: u8,
) -> Result<Board, LearnError> {
    if let Some(board) = current
        .and_then(|calibration| super::read(picture, calibration, None).ok())
        .and_then(|reading| reading.board().ok())
    {
        return Ok(board);
    }
    Ok(cluster_colours(picture, width, height)?.1)
}

/// Calibrating on a board, step two: learns from `picture` showing
/// `board` (as the player confirmed it) and reads the picture back with
/// what it learned: only a calibration that reads `board` back is one.
pub fn learn_on(picture: &RgbaImage, board: &Board) -> Result<Calibration, LearnError> {
    let calibration = learn(picture, board)?;
    let back = super::read(picture, &calibration, None)
        .map_err(LearnError::from)?
        .board()
        .map_err(LearnError::from)?;
    if back != *board {
        return Err(LearnError::NotReadBack {
            read: back.to_string(),
        });
    }
    Ok(calibration)
}

/// Learns a calibration without the true board: groups the piles' colours
/// into the game's five and names each group by its hue. Returns the
/// calibration and the board it reads, for the user to confirm.
pub fn cluster_colours(
    image: &RgbaImage,
    width: u8,
    height: u8,
) -> Result<(Calibration, Board), LearnError> {
    let survey = survey(image, width, height)?;
    let k = NODIATIS_COLOURS as usize;
    let piles: Vec<(usize, [f32; 3])> = survey
        .stats
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| s.fraction >= OCCUPIED)
        .filter_map(|(i, (_, s))| s.colour.map(|c| (i, colour::cielab(c))))
        .collect();
    if piles.len() < k {
        return Err(LearnError::TooFewPiles {
            found: piles.len(),
            colours: NODIATIS_COLOURS,
        });
    }
    let points: Vec<[f32; 3]> = piles.iter().map(|p| p.1).collect();
    let groups = k_means(&points, k);
    // Name the groups: the assignment of groups to colours whose hues are
    // closest to the looks of RULES.md, over all orders.
    let centres: Vec<[f32; 3]> = (0..k)
        .map(|g| {
            mean(
                points
                    .iter()
                    .zip(&groups)
                    .filter(|(_, h)| **h == g)
                    .map(|(p, _)| *p),
            )
        })
        .collect();
    let group_hues: Vec<f32> = centres.iter().map(|&lab| lab_hue(lab)).collect();
    let look_hues: Vec<f32> = LOOKS
        .iter()
        .map(|&rgb| colour::hue(Balance::NONE.oklab(rgb)))
        .collect();
    let names = best_assignment(&group_hues, &look_hues);
    let mut labels: Vec<Option<Colour>> = vec![None; survey.stats.len()];
    for ((i, _), &g) in piles.iter().zip(&groups) {
        labels[*i] = Colour::new(names[g] as u8);
    }
    let board = Board::from_fn(width, height, |cell| {
        labels[survey
            .stats
            .iter()
            .position(|(c, _)| *c == cell)
            .expect("every cell is surveyed")]
    })
    .map_err(|e| LearnError::Vision(VisionError::Shape(e)))?;
    Ok((
        build(std::slice::from_ref(&survey), &labels, NODIATIS_COLOURS),
        board,
    ))
}

/// Hue (degrees) of a CIELAB colour.
fn lab_hue(lab: [f32; 3]) -> f32 {
    lab[2].atan2(lab[1]).to_degrees().rem_euclid(360.0)
}

/// For each group, the colour index whose hue it takes: the permutation
/// with the least total hue difference.
fn best_assignment(group_hues: &[f32], look_hues: &[f32]) -> Vec<usize> {
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for p in permutations(n - 1) {
            for at in 0..=p.len() {
                let mut q = p.clone();
                q.insert(at, n - 1);
                all.push(q);
            }
        }
        all
    }
    let angle = |a: f32, b: f32| {
        let d = (a - b).rem_euclid(360.0);
        d.min(360.0 - d)
    };
    permutations(group_hues.len())
        .into_iter()
        .min_by(|p, q| {
            let cost = |perm: &Vec<usize>| -> f32 {
                perm.iter()
                    .enumerate()
                    .map(|(g, &c)| angle(group_hues[g], look_hues[c]))
                    .sum()
            };
            cost(p).total_cmp(&cost(q))
        })
        .expect("at least one permutation")
}

fn mean(points: impl Iterator<Item = [f32; 3]>) -> [f32; 3] {
    let (sum, n) = points.fold(([0.0f32; 3], 0usize), |(s, n), p| {
        ([s[0] + p[0], s[1] + p[1], s[2] + p[2]], n + 1)
    });
    let n = n.max(1) as f32;
    sum.map(|v| v / n)
}

/// Deterministic k-means in CIELAB: farthest-point seeding from the most
/// colourful point, then Lloyd iterations with the CIEDE2000 difference.
fn k_means(points: &[[f32; 3]], k: usize) -> Vec<usize> {
    let chroma = |p: &[f32; 3]| p[1].hypot(p[2]);
    let first = (0..points.len())
        .max_by(|&a, &b| chroma(&points[a]).total_cmp(&chroma(&points[b])))
        .expect("points to group");
    let mut centres = vec![points[first]];
    while centres.len() < k {
        let farthest = points
            .iter()
            .max_by(|a, b| {
                let da = centres
                    .iter()
                    .map(|c| colour::delta_e(**a, *c))
                    .fold(f32::INFINITY, f32::min);
                let db = centres
                    .iter()
                    .map(|c| colour::delta_e(**b, *c))
                    .fold(f32::INFINITY, f32::min);
                da.total_cmp(&db)
            })
            .expect("points to group");
        centres.push(*farthest);
    }
    let mut groups = vec![0; points.len()];
    for _ in 0..50 {
        let next: Vec<usize> = points
            .iter()
            .map(|p| {
                (0..k)
                    .min_by(|&a, &b| {
                        colour::delta_e(*p, centres[a]).total_cmp(&colour::delta_e(*p, centres[b]))
                    })
                    .expect("k > 0")
            })
            .collect();
        let settled = next == groups;
        groups = next;
        for (g, centre) in centres.iter_mut().enumerate() {
            let members: Vec<[f32; 3]> = points
                .iter()
                .zip(&groups)
                .filter(|(_, h)| **h == g)
                .map(|(p, _)| *p)
                .collect();
            if !members.is_empty() {
                *centre = mean(members.into_iter());
            }
        }
        if settled {
            break;
        }
    }
    groups
}

/// The calibration of surveyed screenshots whose cells, one survey after
/// the other, carry `labels`; the first gives the place and background.
fn build(surveys: &[Survey], labels: &[Option<Colour>], colours: u8) -> Calibration {
    let median = |mut values: Vec<f32>, default: f32| {
        if values.is_empty() {
            return default;
        }
        let mid = values.len() / 2;
        *values.select_nth_unstable_by(mid, f32::total_cmp).1
    };
    let cells: Vec<&CellStats> = surveys
        .iter()
        .flat_map(|s| s.stats.iter().map(|(_, stats)| stats))
        .collect();
    let pile_fractions = cells
        .iter()
        .zip(labels)
        .filter(|(_, l)| l.is_some())
        .map(|(s, _)| s.fraction)
        .collect();
    let empty_fractions: Vec<f32> = cells
        .iter()
        .zip(labels)
        .filter(|(_, l)| l.is_none())
        .map(|(s, _)| s.fraction)
        .collect();
    let models = Colour::all(colours)
        .map(|c| {
            let labs: Vec<[f32; 3]> = cells
                .iter()
                .zip(labels)
                .filter(|(_, l)| **l == Some(c))
                .filter_map(|(s, _)| s.colour.map(colour::cielab))
                .collect();
            let centre = mean(labs.iter().copied());
            let spread = (labs
                .iter()
                .map(|&l| colour::delta_e(l, centre).powi(2))
                .sum::<f32>()
                / labs.len().max(1) as f32)
                .sqrt();
            ColourModel {
                letter: c.letter(),
                name: c.name().into(),
                lab: centre.map(round4),
                spread: round4(spread),
            }
        })
        .collect();
    let survey = &surveys[0];
    let g = survey.geometry;
    Calibration {
        version: VERSION,
        board: BoardShape {
            width: g.width,
            height: g.height,
        },
        geometry: StoredGeometry {
            image_width: survey.image_size.0,
            image_height: survey.image_size.1,
            x: round4(g.x),
            y: round4(g.y),
            pitch_x: round4(g.pitch_x),
            pitch_y: round4(g.pitch_y),
        },
        background: BackgroundModel {
            linear_rgb: survey.background.map(round4),
        },
        piles: PileModel {
            fraction: round4(median(pile_fractions, 0.5)),
            size: round4(survey.pile_size),
        },
        empty: EmptyModel {
            fraction: round4(median(empty_fractions, EMPTY_FRACTION)),
        },
        thresholds: Thresholds {
            confidence: CONFIDENCE,
            pile_distance: round4(survey.pile_distance),
            max_delta_e: MAX_DELTA_E,
            balance_limit: BALANCE_LIMIT,
        },
        colours: models,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_named_by_the_nearest_hues() {
        // Hues of the looks: green, orange, red, yellow, blue.
        let looks = [140.0, 30.0, 330.0, 90.0, 230.0];
        // Groups found in another order, a little off.
        let groups = [225.0, 95.0, 25.0, 340.0, 150.0];
        assert_eq!(best_assignment(&groups, &looks), vec![4, 3, 1, 2, 0]);
    }

    #[test]
    fn k_means_separates_clear_groups() {
        let points = [
            [50.0, 40.0, 10.0],
            [52.0, 41.0, 9.0],
            [60.0, -30.0, 40.0],
            [61.0, -29.0, 41.0],
            [55.0, -10.0, -30.0],
        ];
        let groups = k_means(&points, 3);
        assert_eq!(groups[0], groups[1]);
        assert_eq!(groups[2], groups[3]);
        let distinct: std::collections::HashSet<_> = groups.iter().collect();
        assert_eq!(distinct.len(), 3);
    }

    #[test]
    fn learning_needs_every_colour_and_a_board() {
        let image = RgbaImage::from_pixel(200, 200, image::Rgba([80, 90, 90, 255]));
        let two_colours: Board = "GGGGOOOO,GGGGOOOO,GGGGOOOO,GGGGOOOO,GGGGOOOO,GGGGOOOO"
            .parse()
            .unwrap();
        let error = learn(&image, &two_colours).unwrap_err();
        assert!(matches!(error, LearnError::MissingColours { .. }));
        assert!(
            error
                .to_string()
                .starts_with("the board given has only the colours")
        );
        let empty = Board::empty(8, 6).unwrap();
        assert_eq!(
            learn(&image, &empty).unwrap_err().to_string(),
            "the board given has no colour; the screenshot's board needs all of GORYB"
        );
        let all: Board = "GORYBGOR,GORYBGOR,GORYBGOR,GORYBGOR,GORYBGOR,GORYBGOR"
            .parse()
            .unwrap();
        assert!(matches!(learn(&image, &all), Err(LearnError::Vision(_))));
    }
}
