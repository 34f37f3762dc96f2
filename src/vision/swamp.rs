//! The board's own background, the swamp, as one capture of the game shows
//! it at the inner cell corners, where no pile reaches: what tells the
//! game's board area from another window's pixels in its place (a window
//! on another desktop leaves the screen there to other windows, a
//! notification can lie over the board). A black screen reads as a board
//! of empty cells, and a terminal's picture is no frame of the game: both
//! are told by their corners, which show no swamp.

use image::RgbaImage;

use super::classify;
use crate::colour;
use crate::geometry::{Geometry, PixelPoint};

/// What the swamp showed at each inner cell corner of one capture of the
/// board: the median colour of the corner's patch, in Oklab.
#[derive(Clone, Debug, PartialEq)]
pub struct Swamp {
    corners: Vec<Option<[f32; 3]>>,
}

/// How far (Oklab) a corner's colour may drift from the one the game
/// showed there and still be the swamp: a pile's glow that comes and
/// goes beside it, the player's hover lighting a cluster, a frame of
/// a fading pile. Another window's pixels differ by more.
const SAME_CORNER: f32 = 0.06;

/// The share of the corners that must show the swamp as it was for a
/// capture to show the game's board: a few may be crossed by a pile on
/// its way, and a window over a part of the board shows other pixels at
/// the corners it covers.
pub const SHOWN: f32 = 0.9;

impl Swamp {
    /// The swamp of `image`, the board at `geometry` in it.
    pub fn of(image: &RgbaImage, geometry: &Geometry) -> Swamp {
        Swamp {
            corners: classify::inner_corners(geometry)
                .iter()
                .map(|&corner| corner_colour(image, corner, geometry))
                .collect(),
        }
    }

    /// The share of the corners (0 to 1) where `image`, the board at
    /// `geometry` in it (the board's shape this swamp was taken at),
    /// shows the swamp as this one: 1 for a capture of the same game, 0
    /// for a black screen or another window over the whole board.
    pub fn seen_in(&self, image: &RgbaImage, geometry: &Geometry) -> f32 {
        let now = Swamp::of(image, geometry);
        if now.corners.len() != self.corners.len() || self.corners.is_empty() {
            return 0.0;
        }
        let same = self
            .corners
            .iter()
            .zip(&now.corners)
            .filter(|(was, is)| match (was, is) {
                (Some(a), Some(b)) => distance(*a, *b) <= SAME_CORNER,
                _ => false,
            })
            .count();
        same as f32 / self.corners.len() as f32
    }
}

/// The Euclidean distance of two Oklab colours.
fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f32>()
        .sqrt()
}

/// The median colour of the patch at `corner`, in Oklab; `None` where the
/// patch is off the image.
fn corner_colour(image: &RgbaImage, corner: PixelPoint, geometry: &Geometry) -> Option<[f32; 3]> {
    let pixels = classify::patch_pixels(image, &[corner], (geometry.pitch_x, geometry.pitch_y));
    classify::median_linear(&pixels, 1.0).map(colour::oklab_from_linear)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, EXAMPLE_BOARD};
    use crate::render::{Canvas, Look, Shot, Stage, Surround, Tile, screenshot, tiles};

    fn shot(board: &Board, scale: f32, seed: u64) -> (RgbaImage, Geometry) {
        let shot = Shot {
            scale,
            surround: Surround::Window,
            seed,
        };
        let (canvas, geometry) = screenshot(board, &Look::nodiatis(), &shot);
        (canvas.to_image(), geometry)
    }

    #[test]
    fn every_board_of_a_game_shows_the_swamp_of_its_start() {
        let full: Board = EXAMPLE_BOARD.parse().unwrap();
        let solution = crate::solver::solve(&full, &Default::default(), &mut |_| {});
        for (scale, seed) in [(0.5, 1), (1.0, 7), (1.5, 21)] {
            let (first, geometry) = shot(&full, scale, seed);
            let swamp = Swamp::of(&first, &geometry);
            // Down to the cleared board, whose corners no pile lights.
            for step in &solution.moves {
                let (later, at) = shot(&step.board_after, scale, seed);
                assert_eq!(at, geometry);
                assert_eq!(
                    swamp.seen_in(&later, &geometry),
                    1.0,
                    "{}",
                    step.board_after
                );
            }
            // The clusters under the mouse lit, as the practice window
            // lights the hovered one.
            let stage = Stage::of_shot(
                8,
                6,
                &Look::nodiatis(),
                &Shot {
                    scale,
                    surround: Surround::Window,
                    seed,
                },
            );
            let mut lit = Canvas::new(0, 0, [0, 0, 0]);
            stage.paint(&tiles(&full), &mut lit);
            for tile in tiles(&full).iter().step_by(3) {
                stage.paint_hover(tile, 1.4, 0.7, &mut lit);
            }
            assert_eq!(swamp.seen_in(&lit.to_image(), &geometry), 1.0);
        }
    }

    #[test]
    fn a_black_screen_another_window_or_piles_on_their_way_show_no_swamp() {
        let full: Board = EXAMPLE_BOARD.parse().unwrap();
        let (first, geometry) = shot(&full, 1.0, 3);
        let swamp = Swamp::of(&first, &geometry);
        let (width, height) = first.dimensions();
        // Another desktop's bare root window; a terminal with its text.
        let black = RgbaImage::new(width, height);
        assert_eq!(swamp.seen_in(&black, &geometry), 0.0);
        let mut terminal = Canvas::new(width as usize, height as usize, [250, 250, 250]);
        for row in 0..30 {
            terminal.text(4, row * 16, "$ bot --window Nodiatis", 13.0, [20, 20, 20]);
        }
        assert!(swamp.seen_in(&terminal.to_image(), &geometry) < 0.1);
        // A notification over the board's top right: a part of its corners.
        let mut covered = Canvas::from_image(&first);
        let (x, y) = (geometry.x as i64, geometry.y as i64);
        covered.fill(x + 400, y, 240, 170, [48, 48, 52]);
        let seen = swamp.seen_in(&covered.to_image(), &geometry);
        assert!(seen < SHOWN && seen > 0.5, "{seen}");
        // Every pile half a cell on its way, over the corners: no settled
        // board, and not the swamp as the game showed it either.
        let stage = Stage::of_shot(
            8,
            6,
            &Look::nodiatis(),
            &Shot {
                scale: 1.0,
                surround: Surround::Window,
                seed: 3,
            },
        );
        let moving: Vec<Tile> = tiles(&full)
            .into_iter()
            .map(|t| Tile {
                x: t.x + 0.5,
                y: t.y + 0.5,
                ..t
            })
            .collect();
        let mut out = Canvas::new(0, 0, [0, 0, 0]);
        stage.paint(&moving, &mut out);
        assert!(swamp.seen_in(&out.to_image(), &geometry) < SHOWN);
        // A board of another shape is no frame of this one.
        let mut smaller = geometry;
        smaller.width = 7;
        assert_eq!(swamp.seen_in(&first, &smaller), 0.0);
    }
}
