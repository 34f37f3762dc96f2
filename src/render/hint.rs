//! The assistant's hint picture: the board in the game's look at half its
//! size (or smaller, where the screen has less room), the next click
//! ringed and every click still to come numbered on the tile it will
//! remove (where that tile is now, so the player can see the whole plan on
//! the board in front of them), under a caption of two lines whose text is
//! sized to fit the picture's width. Drawn for the hint window and for the
//! README's picture.

use super::annotate::{CLICK, label};
use super::{Canvas, Look, Stage, font, tiles};
use crate::game::{Board, Cell};
use crate::geometry::Geometry;

/// At scale 1: the hint's cell pitch (half the game's), the room around
/// everything, the frame around the board, and the caption's text size
/// (the em), in pixels.
const PITCH: f32 = 40.0;
const MARGIN: f32 = 12.0;
const FRAME: f32 = 4.0;
const CAPTION: f32 = 17.0;
/// Caption lines above the board.
const LINES: usize = 2;
/// The click numbers' text size, in pitches.
const NUMBER: f32 = 0.45;

const PANEL: [u8; 3] = [28, 26, 24];
const TEXT: [u8; 3] = [232, 228, 214];
const RING: [u8; 3] = [255, 255, 255];

/// Where the parts of a hint picture go, at one scale.
#[derive(Clone, Copy, Debug)]
struct HintLayout {
    /// The board in the picture.
    placement: Geometry,
    /// The picture's size in pixels.
    size: (usize, usize),
    margin: i64,
    frame: i64,
    /// The caption's text size, at most, and its lines' pitch in pixels.
    caption: f32,
    line: i64,
}

impl HintLayout {
    fn new(width: u8, height: u8, scale: f32) -> HintLayout {
        let margin = (MARGIN * scale).round().max(4.0);
        let frame = (FRAME * scale).round().max(2.0);
        let caption = CAPTION * scale;
        let line = font::line_height(caption).ceil();
        let top = margin + LINES as f32 * line + (margin / 2.0).round() + frame;
        let pitch = (PITCH * scale).round();
        let placement = Geometry::square(margin + frame, top, pitch, width, height);
        let (bw, bh) = placement.pixel_size();
        let size = (
            bw + 2 * (frame + margin) as usize,
            top as usize + bh + (frame + margin) as usize,
        );
        HintLayout {
            placement,
            size,
            margin: margin as i64,
            frame: frame as i64,
            caption,
            line: line as i64,
        }
    }
}

/// The size in pixels of the hint picture of a `width` x `height` board
/// at `scale` (1 draws cells of 40 pixels).
pub fn hint_size(width: u8, height: u8, scale: f32) -> (usize, usize) {
    HintLayout::new(width, height, scale).size
}

/// Where the board is in the hint picture of a `width` x `height` board
/// at `scale`: what a click on the picture's cells is measured against.
pub fn hint_geometry(width: u8, height: u8, scale: f32) -> Geometry {
    HintLayout::new(width, height, scale).placement
}

/// Draws hint pictures of one board size at one scale: the panel, the
/// frame and the swamp are drawn once, the piles, the marks and the
/// caption on every hint.
#[derive(Debug)]
pub struct HintPainter {
    stage: Stage,
    layout: HintLayout,
}

impl HintPainter {
    /// A painter for boards of `width` x `height` cells at `scale`.
    pub fn new(width: u8, height: u8, look: &Look, scale: f32) -> HintPainter {
        let layout = HintLayout::new(width, height, scale);
        let (w, h) = layout.size;
        let mut base = Canvas::new(w, h, PANEL);
        let placement = layout.placement;
        let (bw, bh) = placement.pixel_size();
        let at = (placement.x as i64, placement.y as i64);
        super::frame(&mut base, at, (bw as i64, bh as i64), layout.frame);
        HintPainter {
            stage: Stage::new(look, base, placement, 1),
            layout,
        }
    }

    /// The picture's size in pixels.
    pub fn size(&self) -> (usize, usize) {
        self.layout.size
    }

    /// Where the board is in the picture.
    pub fn geometry(&self) -> Geometry {
        self.stage.geometry()
    }

    /// Draws `board` with `clicks` (cells of this board, in the order they
    /// will be clicked: the first is ringed, every one numbered) under
    /// `caption` (one entry per line, each started with a capital; lines
    /// past the caption's room are left out; text too wide for the picture
    /// is drawn smaller) into `out`.
    pub fn paint(&self, board: &Board, clicks: &[Cell], caption: &[String], out: &mut Canvas) {
        self.stage.paint(&tiles(board), out);
        let HintLayout {
            margin,
            caption: most,
            line,
            ..
        } = self.layout;
        let lines: Vec<String> = caption.iter().take(LINES).map(|l| capitalised(l)).collect();
        let room = (out.width as i64 - 2 * margin) as f32;
        let widest = lines
            .iter()
            .map(|l| font::text_size(l, most).0)
            .max()
            .unwrap_or(0)
            .max(1) as f32;
        let size = most.min(most * room / widest);
        for (i, text) in lines.iter().enumerate() {
            // Smaller text keeps its line's middle.
            let shift = (line - font::line_height(size).round() as i64) / 2;
            out.text(margin, margin + i as i64 * line + shift, text, size, TEXT);
        }
        let g = self.stage.geometry();
        let pitch = g.pitch_x as i64;
        let corner = |cell: Cell| {
            let c = g.cell_centre(cell);
            (c.x as i64 - pitch / 2, c.y as i64 - pitch / 2)
        };
        if let Some(&next) = clicks.first() {
            let (x, y) = corner(next);
            let ring = (g.pitch_x / 13.0).round().max(2.0) as i64;
            out.outline(x, y, pitch, pitch, ring, RING);
        }
        let number_size = NUMBER * g.pitch_x;
        for (i, &cell) in clicks.iter().enumerate() {
            let number = (i + 1).to_string();
            let (tw, th) = font::text_size(&number, number_size);
            let (x, y) = corner(cell);
            label(
                out,
                x + (pitch - i64::from(tw)) / 2,
                y + (pitch - i64::from(th)) / 2,
                &number,
                number_size,
                CLICK,
            );
        }
    }
}

/// `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = crate::game::EXAMPLE_BOARD;

    /// Whether `rgb` is `want` up to anti-aliasing.
    fn about(rgb: [u8; 3], want: [u8; 3]) -> bool {
        rgb.iter().zip(want).all(|(a, b)| a.abs_diff(b) <= 40)
    }

    #[test]
    fn the_board_is_where_the_painter_draws_it() {
        for scale in [1.0, 0.5] {
            let painter = HintPainter::new(8, 6, &Look::nodiatis(), scale);
            assert_eq!(hint_geometry(8, 6, scale), painter.geometry());
        }
    }

    #[test]
    fn the_next_click_is_ringed_and_the_caption_is_above_the_board() {
        let board: Board = REAL.parse().unwrap();
        let painter = HintPainter::new(8, 6, &Look::nodiatis(), 1.0);
        let (w, h) = painter.size();
        let g = painter.geometry();
        assert!(g.x as usize + 8 * 40 < w && g.y as usize + 6 * 40 < h);
        let mut plain = Canvas::new(0, 0, PANEL);
        painter.paint(&board, &[], &[], &mut plain);
        let mut hinted = Canvas::new(0, 0, PANEL);
        let next = Cell::new(7, 0);
        let caption = ["click 1 of 11, optimum 11 (proven)".to_owned()];
        painter.paint(&board, &[next, Cell::new(3, 1)], &caption, &mut hinted);
        let differs = |x: usize, y: usize| plain.get(x, y) != hinted.get(x, y);
        // The ring's corner, and the numbers on both cells.
        let c = g.cell_centre(next);
        let (x0, y0) = ((c.x - 19.0) as usize, (c.y - 19.0) as usize);
        assert_eq!(hinted.get(x0, y0), RING);
        for cell in [next, Cell::new(3, 1)] {
            let c = g.cell_centre(cell);
            let around = (c.y as usize - 6..c.y as usize + 6)
                .flat_map(|y| (c.x as usize - 6..c.x as usize + 6).map(move |x| (x, y)));
            assert!(
                around.clone().any(|(x, y)| about(hinted.get(x, y), CLICK)),
                "{cell}"
            );
        }
        // The caption is drawn above the board, nothing else changes there.
        assert!((0..g.y as usize).any(|y| (0..w).any(|x| differs(x, y))));
        let untouched = g.cell_centre(Cell::new(0, 5));
        assert!(!differs(untouched.x as usize, untouched.y as usize));
    }

    #[test]
    fn the_caption_fits_the_picture_at_every_scale() {
        let board: Board = REAL.parse().unwrap();
        let caption = [
            "click 5 of 13, optimum 11 (proven)".to_owned(),
            "reward out of reach (12 clicks at most)".to_owned(),
        ];
        let mut last = (usize::MAX, usize::MAX);
        for scale in [1.0, 0.8, 0.65, 0.5] {
            let painter = HintPainter::new(8, 6, &Look::nodiatis(), scale);
            let (w, h) = painter.size();
            assert_eq!((w, h), hint_size(8, 6, scale));
            assert!(w < last.0 && h < last.1, "scale {scale}: {w}x{h}");
            last = (w, h);
            let (mut plain, mut written) = (Canvas::new(0, 0, PANEL), Canvas::new(0, 0, PANEL));
            painter.paint(&board, &[], &[], &mut plain);
            painter.paint(&board, &[], &caption, &mut written);
            let margin = painter.layout.margin as usize;
            let top = painter.geometry().y as usize;
            let changed: Vec<(usize, usize)> = (0..top)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .filter(|&(x, y)| plain.get(x, y) != written.get(x, y))
                .collect();
            // Both lines are written, within the margins, the second
            // reaching across most of the width.
            let right = changed.iter().map(|p| p.0).max().unwrap();
            assert!(
                right < w - margin + 1,
                "scale {scale}: text at {right} of {w}"
            );
            assert!(right > w / 2, "scale {scale}: text ends at {right} of {w}");
            assert!(changed.iter().all(|p| p.0 >= margin - 1), "scale {scale}");
            let bottom = changed.iter().map(|p| p.1).max().unwrap();
            assert!(bottom > top / 2, "scale {scale}: two lines");
        }
        assert_eq!(capitalised("reward reachable"), "Reward reachable");
        assert_eq!(capitalised(""), "");
    }
}
