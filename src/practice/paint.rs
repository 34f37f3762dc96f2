//! Draws practice frames with the game-look renderer: the swamp and the
//! piles of the samples inside a small dark window with a wooden frame,
//! the click count above the board and the result under it once cleared,
//! with the key that starts the next board.
//! The piles move between cells and fade for the animation, and a style
//! may draw a score or specks of dust over the board. Text is drawn in
//! grey only: nothing but the piles and the specks is colourful, so the
//! default calibration reads every frame at rest, the cleared board
//! included.

use super::style::Drawn;
use crate::colour::{linear_from_cielab, oklab_from_linear};
use crate::geometry::Geometry;
use crate::render::{self, Canvas, Look, Stage, srgb};

/// What a frame shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub drawn: Drawn,
    pub clicks: u32,
    pub cleared: bool,
}

const WINDOW: [u8; 3] = [38, 34, 30];
const TEXT: [u8; 3] = [222, 222, 218];
/// The text size, in pitches (16 pixels at the real size).
const TEXT_SIZE: f32 = 0.2;
/// The frame's width, in pitches (8 pixels at the real size).
const FRAME: f32 = 0.1;
/// The swamp picture is the same in every practice window.
const SEED: u64 = 1;

/// Draws frames for one window: the window, the frame and the swamp are
/// drawn once, the piles and the text on every frame.
#[derive(Debug)]
pub struct Painter {
    stage: Stage,
    /// Text size: the em, in pixels.
    text: f32,
    /// Each dust colour's specks, in colour order.
    specks: Vec<[u8; 3]>,
}

impl Painter {
    /// A painter for a `size` window with the board at `geometry` (square
    /// cells, as [`super::layout`] makes them).
    pub fn new(geometry: &Geometry, size: (usize, usize), look: &Look) -> Painter {
        let mut base = Canvas::new(size.0, size.1, WINDOW);
        let (w, h) = geometry.pixel_size();
        let frame = (FRAME * geometry.pitch_x).round().max(2.0) as i64;
        let at = (geometry.x.round() as i64, geometry.y.round() as i64);
        render::frame(&mut base, at, (w as i64, h as i64), frame);
        Painter {
            stage: Stage::new(look, base, *geometry, SEED),
            text: (TEXT_SIZE * geometry.pitch_x).max(7.0),
            specks: look
                .piles
                .iter()
                .map(|&lab| srgb(oklab_from_linear(linear_from_cielab(lab))))
                .collect(),
        }
    }

    /// Draws `scene` into `frame` (which takes the window's size).
    pub fn paint(&self, scene: &Scene, frame: &mut Canvas) {
        self.stage.paint(&scene.drawn.tiles, frame);
        let p = self.stage.geometry();
        let side = (p.pitch_x / 16.0).round().max(1.0) as i64;
        for speck in &scene.drawn.specks {
            if let Some(&rgb) = self.specks.get(speck.colour.index() as usize) {
                let at = p.point(speck.x, speck.y);
                let alpha = (speck.alpha.clamp(0.0, 1.0) * 255.0).round() as u32;
                let (x, y) = (
                    at.x.round() as i64 - side / 2,
                    at.y.round() as i64 - side / 2,
                );
                frame.shade(x, y, side, side, rgb, alpha);
            }
        }
        if let Some(score) = &scene.drawn.score {
            // Twice the size of the window's text, centred on its point.
            let size = 2.0 * self.text;
            let at = p.point(score.x, score.y);
            let height = render::font::line_height(size).round() as i64;
            let width = render::font::text_width(&score.text, size);
            let (x, y) = (
                at.x.round() as i64 - width / 2,
                at.y.round() as i64 - height / 2,
            );
            frame.text(x, y, &score.text, size, TEXT);
        }
        let (w, h) = p.pixel_size();
        let (left, top) = (p.x.round() as i64, p.y.round() as i64);
        let line = render::font::line_height(self.text).round() as i64;
        // Centred in the margins above and under the board.
        let above = (top - line) / 2;
        let under = top + h as i64 + (frame.height as i64 - top - h as i64 - line) / 2;
        let clicks = format!("Clicks {}", scene.clicks);
        let right = left + w as i64 - self.width(&clicks);
        frame.text(left, above, "Dust practice", self.text, TEXT);
        frame.text(right, above, &clicks, self.text, TEXT);
        if scene.cleared {
            let result = format!(
                "Cleared in {} clicks — press N for a new board",
                scene.clicks
            );
            let x = left + (w as i64 - self.width(&result)) / 2;
            frame.text(x, under, &result, self.text, TEXT);
        }
    }

    fn width(&self, text: &str) -> i64 {
        render::font::text_width(text, self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Board;
    use crate::practice::layout;
    use crate::vision::{self, Calibration};

    fn frame(board: &Board, scale: f32, clicks: u32) -> (image::RgbaImage, Geometry) {
        let (geometry, size) = layout(board, scale);
        let painter = Painter::new(&geometry, size, &Look::nodiatis());
        let scene = Scene {
            drawn: Drawn {
                tiles: render::tiles(board),
                ..Drawn::default()
            },
            clicks,
            cleared: board.is_cleared(),
        };
        let mut canvas = Canvas::new(0, 0, WINDOW);
        painter.paint(&scene, &mut canvas);
        assert_eq!((canvas.width, canvas.height), size);
        (canvas.to_image(), geometry)
    }

    #[test]
    fn the_default_calibration_reads_a_practice_frame() {
        let calibration = Calibration::load(&Calibration::default_path()).unwrap();
        for (text, scale) in [
            (crate::game::EXAMPLE_BOARD, 1.0),
            ("        ,        ,    YB  ,  BBBYR ,  BBYRRO, OYYRORY", 1.0),
            (crate::game::EXAMPLE_BOARD, 0.5),
            (
                "        ,        ,        ,  BBY   ,  BBBBO , OYYYYY ",
                0.75,
            ),
            (crate::game::EXAMPLE_BOARD, 2.0),
        ] {
            let board: Board = text.parse().unwrap();
            let (image, geometry) = frame(&board, scale, 12);
            let reading = vision::read(&image, &calibration, None).unwrap();
            assert_eq!(reading.board().unwrap(), board, "scale {scale}");
            // Clicks land near the centres of the cells that hold piles.
            let g = reading.geometry;
            for cell in g.cells().filter(|&c| board.get(c).is_some()) {
                let (read, drawn) = (g.cell_centre(cell), geometry.cell_centre(cell));
                let off = (read.x - drawn.x).hypot(read.y - drawn.y);
                assert!(
                    off < 0.1 * geometry.pitch_x,
                    "scale {scale}: {cell} off by {off}"
                );
            }
        }
    }

    #[test]
    fn the_cleared_board_reads_as_empty_where_it_was() {
        let calibration = Calibration::load(&Calibration::default_path()).unwrap();
        let board = Board::empty(8, 6).unwrap();
        let (image, geometry) = frame(&board, 1.0, 11);
        let reading = vision::read_at(&image, &calibration, &geometry);
        assert_eq!(reading.board().unwrap(), board);
    }

    #[test]
    fn the_click_count_and_the_result_are_written_outside_the_board() {
        let board = Board::empty(8, 6).unwrap();
        let (three, geometry) = frame(&board, 1.0, 3);
        let (four, _) = frame(&board, 1.0, 4);
        let differ = |y0: u32, y1: u32| {
            (y0..y1)
                .any(|y| (0..three.width()).any(|x| three.get_pixel(x, y) != four.get_pixel(x, y)))
        };
        let (top, bottom) = (geometry.y as u32, (geometry.y + geometry.size().1) as u32);
        assert!(differ(0, top), "the count is above the board");
        assert!(differ(bottom, three.height()), "the result is under it");
        assert!(!differ(top, bottom), "the board is untouched");
    }

    #[test]
    fn the_result_and_its_key_fit_the_smallest_window() {
        let board = Board::empty(8, 6).unwrap();
        for scale in [*crate::practice::SCALES.start(), 1.0] {
            let (image, _) = frame(&board, scale, 13);
            // The text leaves the window's outer columns as the window.
            let window = image::Rgba([WINDOW[0], WINDOW[1], WINDOW[2], 255]);
            for x in [0, 1, image.width() - 2, image.width() - 1] {
                let touched = (0..image.height()).filter(|&y| *image.get_pixel(x, y) != window);
                assert_eq!(touched.count(), 0, "scale {scale}, column {x}");
            }
        }
    }
}
