//! The assistant's hint picture: the board in the game's look at half its
//! size, the next click ringed and every click still to come numbered on
//! the tile it will remove (where that tile is now, so the player can see
//! the whole plan on the board in front of them), under a caption of a
//! few lines. Drawn for the hint window and for the README's picture.

use super::annotate::{CLICK, label};
use super::{Canvas, Look, Stage, tiles};
use crate::game::{Board, Cell};
use crate::geometry::Geometry;

/// The hint's cell pitch, in pixels: half the game's.
const PITCH: f32 = 40.0;
/// Room around everything, in pixels.
const MARGIN: i64 = 12;
/// Pixels per font dot of the caption and of the numbers.
const DOT: i64 = 2;
/// Caption lines above the board.
const LINES: i64 = 2;
/// Caption characters a line holds.
const COLUMNS: i64 = 36;
/// The frame around the board, in pixels.
const FRAME: i64 = 4;

const PANEL: [u8; 3] = [28, 26, 24];
const TEXT: [u8; 3] = [232, 228, 214];
const RING: [u8; 3] = [255, 255, 255];

/// Draws hint pictures of one board size: the panel, the frame and the
/// swamp are drawn once, the piles, the marks and the caption on every
/// hint.
#[derive(Debug)]
pub struct HintPainter {
    stage: Stage,
}

impl HintPainter {
    /// A painter for boards of `width` x `height` cells.
    pub fn new(width: u8, height: u8, look: &Look) -> HintPainter {
        let line = line_height();
        let top = MARGIN + LINES * line + MARGIN / 2 + FRAME;
        let placement = Geometry::square((MARGIN + FRAME) as f32, top as f32, PITCH, width, height);
        let (bw, bh) = placement.pixel_size();
        let caption = COLUMNS * i64::from(super::font::ADVANCE) * DOT;
        let w = (bw as i64 + 2 * FRAME).max(caption) + 2 * MARGIN;
        let h = top + bh as i64 + FRAME + MARGIN;
        let mut base = Canvas::new(w as usize, h as usize, PANEL);
        let at = (placement.x as i64, placement.y as i64);
        super::frame(&mut base, at, (bw as i64, bh as i64), FRAME);
        HintPainter {
            stage: Stage::new(look, base, placement, 1),
        }
    }

    /// The picture's size in pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.stage.base().width, self.stage.base().height)
    }

    /// Where the board is in the picture.
    pub fn geometry(&self) -> Geometry {
        self.stage.geometry()
    }

    /// Draws `board` with `clicks` (cells of this board, in the order they
    /// will be clicked: the first is ringed, every one numbered) under
    /// `caption` (one entry per line; lines past the caption's room are
    /// left out) into `out`.
    pub fn paint(&self, board: &Board, clicks: &[Cell], caption: &[String], out: &mut Canvas) {
        self.stage.paint(&tiles(board), out);
        for (i, text) in caption.iter().take(LINES as usize).enumerate() {
            out.text(MARGIN, MARGIN + i as i64 * line_height(), text, DOT, TEXT);
        }
        let g = self.stage.geometry();
        let pitch = PITCH as i64;
        let corner = |cell: Cell| {
            let c = g.cell_centre(cell);
            (c.x as i64 - pitch / 2, c.y as i64 - pitch / 2)
        };
        if let Some(&next) = clicks.first() {
            let (x, y) = corner(next);
            out.outline(x, y, pitch, pitch, 3, RING);
        }
        for (i, &cell) in clicks.iter().enumerate() {
            let number = (i + 1).to_string();
            let (tw, th) = super::font::text_size(&number);
            let (tw, th) = (i64::from(tw) * DOT, i64::from(th) * DOT);
            let (x, y) = corner(cell);
            label(
                out,
                x + (pitch - tw) / 2,
                y + (pitch - th) / 2,
                &number,
                DOT,
                CLICK,
            );
        }
    }
}

/// Pixels from one caption line's top to the next one's.
fn line_height() -> i64 {
    (i64::from(super::font::GLYPH_H) + 4) * DOT
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

    #[test]
    fn the_next_click_is_ringed_and_the_caption_is_above_the_board() {
        let board: Board = REAL.parse().unwrap();
        let painter = HintPainter::new(8, 6, &Look::nodiatis());
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
                around.clone().any(|(x, y)| hinted.get(x, y) == CLICK),
                "{cell}"
            );
        }
        // The caption is drawn above the board, nothing else changes there.
        assert!((0..g.y as usize).any(|y| (0..w).any(|x| differs(x, y))));
        let untouched = g.cell_centre(Cell::new(0, 5));
        assert!(!differs(untouched.x as usize, untouched.y as usize));
    }
}
