//! The renderer: draws boards in the look of the real game, for the sample
//! screenshots and the practice window. A [`Stage`] holds what does not
//! change from frame to frame (the swamp picture, the window around it, one
//! pile sprite per colour at the board's scale); [`Stage::paint`] lays
//! piles on it at any (fractional) cell position and opacity, fast enough
//! for animation. [`screenshot`] makes a whole picture: the board alone or
//! inside a game window. [`annotate()`] and [`storyboard()`] draw a reading and
//! its plan for people, [`HintPainter`] the assistant's hint, in the bundled [`font`] (which
//! the charts, [`crate::chart`], share). Everything is procedural and follows a seed; the only
//! things taken from the real game are colours measured on it.

mod annotate;
mod canvas;
mod decoys;
pub mod font;
mod hint;
pub mod icon;
mod noise;
mod pile;
mod swamp;
mod window;

pub use annotate::{CellMark, annotate, storyboard};
pub use canvas::Canvas;
#[cfg(feature = "desktop")]
pub(crate) use canvas::srgb;
pub use decoys::{PointerShape, pointer, tooltip};
pub use hint::{HintPainter, hint_geometry, hint_size};
pub use window::frame;

use crate::colour::{linear_from_cielab, oklab_from_linear};
use crate::game::{Board, Cell, Colour};
use crate::geometry::Geometry;
use pile::Sprite;

/// The colours the game is drawn in.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// The fog between the piles, in linear sRGB.
    pub fog: [f32; 3],
    /// Each dust colour as a reader measures a pile (the median of its
    /// pixels), CIELAB (D65), in colour order.
    pub piles: Vec<[f32; 3]>,
}

impl Look {
    /// The real game's colours, as measured on its screenshot (the same
    /// numbers as the default calibration's).
    pub fn nodiatis() -> Look {
        Look {
            fog: [0.1046, 0.1683, 0.15],
            piles: vec![
                [55.7184, -19.5912, 27.542],
                [47.0498, 21.3423, 15.649],
                [36.4751, 35.1616, -14.8493],
                [62.1943, -2.6898, 38.236],
                [50.7939, -12.3903, -10.2088],
            ],
        }
    }
}

/// One pile to draw: its colour, its place in cells (fractional while it
/// moves), and its opacity (0..1, while it fades).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tile {
    pub colour: Colour,
    pub x: f32,
    pub y: f32,
    pub alpha: f32,
}

/// The tiles of a board at rest.
pub fn tiles(board: &Board) -> Vec<Tile> {
    (0..board.width())
        .flat_map(|x| (0..board.height()).map(move |y| Cell::new(x, y)))
        .filter_map(|cell| {
            Some(Tile {
                colour: board.get(cell)?,
                x: f32::from(cell.x),
                y: f32::from(cell.y),
                alpha: 1.0,
            })
        })
        .collect()
}

/// A picture ready for piles: the background with the swamp drawn at the
/// board's place, and the sprites.
#[derive(Clone, Debug)]
pub struct Stage {
    placement: Geometry,
    base: Canvas,
    sprites: Vec<Sprite>,
}

impl Stage {
    /// Draws the swamp onto `base` at `placement` and makes the piles of
    /// every colour of `look` at its pitch.
    pub fn new(look: &Look, mut base: Canvas, placement: Geometry, seed: u64) -> Stage {
        let fog = oklab_from_linear(look.fog);
        let cells = (placement.width, placement.height);
        let picture = swamp::swamp(cells, placement.pitch_x, fog, seed);
        base.paste(
            &picture,
            placement.x.round() as i64,
            placement.y.round() as i64,
        );
        let sprites = look
            .piles
            .iter()
            .enumerate()
            .map(|(i, &lab)| {
                let centre = oklab_from_linear(linear_from_cielab(lab));
                Sprite::new(i, centre, fog, placement.pitch_x, seed)
            })
            .collect();
        Stage {
            placement,
            base,
            sprites,
        }
    }

    /// The stage of a screenshot as `shot` draws it, for a board of
    /// `width` x `height` cells: the piles are laid by [`Stage::paint`].
    pub fn of_shot(width: u8, height: u8, look: &Look, shot: &Shot) -> Stage {
        let mut placement = Geometry::square(0.0, 0.0, PITCH * shot.scale, width, height);
        let base = match shot.surround {
            Surround::Bare => {
                let (w, h) = placement.pixel_size();
                Canvas::new(w, h, [0, 0, 0])
            }
            Surround::Window => {
                let (canvas, (x, y)) = window::window(placement.pixel_size(), look, shot.seed);
                (placement.x, placement.y) = (x as f32, y as f32);
                canvas
            }
        };
        Stage::new(look, base, placement, shot.seed)
    }

    /// Where the board is in the picture.
    pub fn geometry(&self) -> Geometry {
        self.placement
    }

    /// The picture without piles.
    pub fn base(&self) -> &Canvas {
        &self.base
    }

    /// The picture without piles, to change before painting: the tests
    /// put other swamps behind the piles (darker, mirrored, banded) through
    /// it, since nobody has seen the real swamp where a pile used to be.
    pub fn base_mut(&mut self) -> &mut Canvas {
        &mut self.base
    }

    /// Draws `tile` again over `out` (painted before) as the pile under the
    /// mouse may look: `gain` times brighter (1.4 for 40%) with a glow of
    /// its colour reaching `reach` pitches from its centre.
    pub fn paint_hover(&self, tile: &Tile, gain: f32, reach: f32, out: &mut Canvas) {
        let Some(sprite) = self.sprites.get(tile.colour.index() as usize) else {
            return;
        };
        let p = &self.placement;
        let clip = self.clip();
        let centre = p.point(tile.x, tile.y);
        let centre = (centre.x, centre.y);
        sprite.halo(out, centre, reach * p.pitch_x, 0.6, clip);
        sprite.draw_lit(out, centre, tile.alpha, gain, clip);
    }

    /// The board's rectangle in pixels (x0, y0, x1, y1): piles are cut at
    /// its edges, as in the game.
    fn clip(&self) -> [i64; 4] {
        let p = &self.placement;
        let (w, h) = p.pixel_size();
        let (x0, y0) = (p.x.round() as i64, p.y.round() as i64);
        [x0, y0, x0 + w as i64, y0 + h as i64]
    }

    /// Draws the picture with `tiles` into `out` (which takes the base's
    /// size). Piles stay within the board: a tile moving in from outside
    /// is cut at its edge, as in the game.
    pub fn paint(&self, tiles: &[Tile], out: &mut Canvas) {
        out.width = self.base.width;
        out.height = self.base.height;
        out.pixels.clear();
        out.pixels.extend_from_slice(&self.base.pixels);
        let p = &self.placement;
        let clip = self.clip();
        for tile in tiles {
            if let Some(sprite) = self.sprites.get(tile.colour.index() as usize) {
                let centre = p.point(tile.x, tile.y);
                let (x, y) = (centre.x, centre.y);
                sprite.draw(out, x, y, tile.alpha, clip);
            }
        }
    }
}

/// What a sample screenshot shows around the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surround {
    /// The board's picture alone, as a crop of the board.
    Bare,
    /// The board inside a game window with title bar, menus, chat text,
    /// buttons and small coloured icons.
    Window,
}

/// How to draw a screenshot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    /// 1.0 is the real game's 80-pixel cells.
    pub scale: f32,
    pub surround: Surround,
    pub seed: u64,
}

/// The real game's cell pitch in pixels at scale 1.
pub const PITCH: f32 = 80.0;

/// A screenshot of `board` in `look`, and where the board is in it.
pub fn screenshot(board: &Board, look: &Look, shot: &Shot) -> (Canvas, Geometry) {
    let stage = Stage::of_shot(board.width(), board.height(), look, shot);
    let mut out = Canvas::new(0, 0, [0, 0, 0]);
    stage.paint(&tiles(board), &mut out);
    (out, stage.geometry())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MID_GAME: &str = "        ,        ,    YB  ,  BBBYR ,  BBYRRO, OYYRORY";

    #[test]
    fn centres_count_rows_from_the_bottom() {
        let p = Geometry::square(10.0, 20.0, 40.0, 8, 6);
        let at = |x, y| {
            let c = p.point(x, y);
            (c.x, c.y)
        };
        assert_eq!(at(0.0, 5.0), (30.0, 40.0));
        assert_eq!(at(7.0, 0.0), (310.0, 240.0));
        assert_eq!(at(0.5, 5.0), (50.0, 40.0));
        assert_eq!(p.pixel_size(), (320, 240));
    }

    #[test]
    fn empty_cells_show_the_swamp_and_full_ones_a_pile() {
        let board: Board = MID_GAME.parse().unwrap();
        let shot = Shot {
            scale: 0.5,
            surround: Surround::Bare,
            seed: 4,
        };
        let (picture, placement) = screenshot(&board, &Look::nodiatis(), &shot);
        let stage = Stage::new(
            &Look::nodiatis(),
            Canvas::new(320, 240, [0, 0, 0]),
            placement,
            4,
        );
        let changed = |x: f32, y: f32| {
            let c = placement.point(x, y);
            let (cx, cy) = (c.x as usize, c.y as usize);
            picture.get(cx, cy) != stage.base().get(cx, cy)
        };
        assert!(changed(1.0, 0.0) && changed(4.0, 3.0));
        assert!(!changed(0.0, 0.0) && !changed(3.0, 5.0));
        assert_eq!((picture.width, picture.height), (320, 240));
    }

    #[test]
    fn a_window_surrounds_the_board_and_the_seed_repeats_it() {
        let board: Board = MID_GAME.parse().unwrap();
        let shot = Shot {
            scale: 0.75,
            surround: Surround::Window,
            seed: 11,
        };
        let (a, placement) = screenshot(&board, &Look::nodiatis(), &shot);
        let (b, _) = screenshot(&board, &Look::nodiatis(), &shot);
        assert_eq!(a, b);
        let (w, h) = placement.pixel_size();
        assert!(placement.x > 100.0 && placement.y > 50.0);
        assert!(placement.x as usize + w < a.width && placement.y as usize + h < a.height);
        let other = Shot { seed: 12, ..shot };
        assert_ne!(screenshot(&board, &Look::nodiatis(), &other).0, a);
    }

    #[test]
    fn faded_and_moving_tiles_draw_between_cells() {
        let look = Look::nodiatis();
        let placement = Geometry::square(0.0, 0.0, 40.0, 8, 6);
        let stage = Stage::new(&look, Canvas::new(320, 240, [0, 0, 0]), placement, 1);
        let mut out = Canvas::new(0, 0, [0, 0, 0]);
        let tile = |x: f32, alpha: f32| Tile {
            colour: Colour::new(3).unwrap(),
            x,
            y: 0.0,
            alpha,
        };
        stage.paint(&[tile(0.5, 1.0)], &mut out);
        let between = placement.point(0.5, 0.0);
        let between = (between.x, between.y);
        let at = |c: &Canvas| c.get(between.0 as usize, between.1 as usize);
        assert_ne!(at(&out), at(stage.base()));
        stage.paint(&[tile(0.5, 0.0)], &mut out);
        assert_eq!(out, *stage.base());
    }
}
