//! Pictures of a reading and its plan, for people (what a dry run writes):
//! the capture with the board's grid, each cell's letter, the unsure cells
//! framed in red and the click order numbered on the cells to click; and a
//! storyboard of the board before the plan and after each move, drawn in
//! the game's look, with the cluster each click removes outlined.

use image::RgbaImage;

use super::{Canvas, Look, Stage, tiles};
use crate::game::{Board, Cell, Colour, Step};
use crate::geometry::Geometry;

/// What a reader made of one cell, as the annotation shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellMark {
    pub cell: Cell,
    /// The colour read, `None` for an empty cell.
    pub colour: Option<Colour>,
    /// Read at or above the confidence threshold.
    pub sure: bool,
}

impl From<(Cell, Option<Colour>, bool)> for CellMark {
    fn from((cell, colour, sure): (Cell, Option<Colour>, bool)) -> CellMark {
        CellMark { cell, colour, sure }
    }
}

const GRID: [u8; 3] = [255, 255, 255];
const LETTER: [u8; 3] = [255, 255, 255];
const UNSURE: [u8; 3] = [255, 40, 40];
pub(super) const CLICK: [u8; 3] = [255, 226, 60];
const SHADOW: [u8; 3] = [0, 0, 0];
const PAPER: [u8; 3] = [24, 26, 28];

/// The click numbers of each cell: a cell clicked at steps 2 and 3 (the
/// board changes in between) shows "2,3".
fn click_labels(clicks: &[Cell]) -> Vec<(Cell, String)> {
    let mut labels: Vec<(Cell, String)> = Vec::new();
    for (i, &cell) in clicks.iter().enumerate() {
        let number = (i + 1).to_string();
        match labels.iter_mut().find(|(c, _)| *c == cell) {
            Some((_, label)) => {
                label.push(',');
                label.push_str(&number);
            }
            None => labels.push((cell, number)),
        }
    }
    labels
}

/// `text` at `size` (the em, in pixels) on a dark shadow so it reads on
/// any background.
pub(super) fn label(canvas: &mut Canvas, x: i64, y: i64, text: &str, size: f32, rgb: [u8; 3]) {
    let step = (size / 14.0).round().max(1.0) as i64;
    for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1), (1, 1)] {
        canvas.text(x + dx * step, y + dy * step, text, size, SHADOW);
    }
    canvas.text(x, y, text, size, rgb);
}

/// Ems from one stacked number's top to the next one's (digits are about
/// 0.7 em tall).
const LINE: f32 = 1.0;
/// The smallest text of a label, the em in pixels: smaller is not read.
const SMALLEST: f32 = 7.0;

/// A click label laid out to fit its cell.
#[derive(Debug, PartialEq)]
struct Label {
    rows: Vec<String>,
    /// The em, in pixels.
    size: f32,
}

impl Label {
    /// The size of the rows' block in pixels.
    fn pixels(&self) -> (i64, i64) {
        let width = self
            .rows
            .iter()
            .map(|r| text_pixels(r, self.size).0)
            .max()
            .unwrap_or(0);
        let height =
            (self.rows.len() - 1) as f32 * LINE * self.size + super::font::line_height(self.size);
        (width, height.round() as i64)
    }
}

/// `text` ("4,10,11") on one line, or its numbers stacked when that lets
/// them be drawn bigger; as big as fits 80% of the cell, up to 0.36 of its
/// height for the em.
fn label_lines(text: &str, pitch_x: f32, pitch_y: f32) -> Label {
    let cap = 0.36 * pitch_x.min(pitch_y);
    let layout = |rows: Vec<String>| {
        // Measured at 100 pixels to the em, then scaled.
        let unit = Label { rows, size: 100.0 };
        let (w, h) = unit.pixels();
        let fit = (80.0 * pitch_x / w.max(1) as f32)
            .min(80.0 * pitch_y / h as f32)
            .min(cap)
            .floor()
            .max(SMALLEST);
        Label { size: fit, ..unit }
    };
    let single = layout(vec![text.to_string()]);
    let stacked = layout(text.split(',').map(str::to_string).collect());
    if stacked.size > single.size {
        stacked
    } else {
        single
    }
}

/// The size of `text` in pixels at `size` (the em, in pixels).
fn text_pixels(text: &str, size: f32) -> (i64, i64) {
    let (w, h) = super::font::text_size(text, size);
    (i64::from(w), i64::from(h))
}

/// The capture with the board's grid (at `g`), each cell's letter at its
/// top-left corner, unsure cells framed in red, and the 1-based click
/// order written on the cells of `clicks` (cells of the board as it is
/// when each click comes).
pub fn annotate(image: &RgbaImage, g: &Geometry, marks: &[CellMark], clicks: &[Cell]) -> RgbaImage {
    let mut out = Canvas::from_image(image);
    let unit = g.pitch_x.min(g.pitch_y);
    let line = (unit / 80.0).round().max(1.0) as i64;
    let (w, h) = g.size();
    let (x0, y0) = (g.x.round() as i64, g.y.round() as i64);
    for i in 0..=i64::from(g.width) {
        let x = (g.x + i as f32 * g.pitch_x).round() as i64;
        out.fill(x - line / 2, y0, line, h.round() as i64, GRID);
    }
    for j in 0..=i64::from(g.height) {
        let y = (g.y + j as f32 * g.pitch_y).round() as i64;
        out.fill(x0, y - line / 2, w.round() as i64, line, GRID);
    }
    // The letters: their capitals' tops 3/40 of a cell below its corner
    // (a capital starts about 0.35 em under the line's top).
    let letter_size = 0.25 * unit;
    let inset = (0.075 * unit).round() as i64;
    let lift = (0.35 * letter_size).round() as i64;
    let corner = |cell: Cell| {
        let c = g.cell_centre(cell);
        (
            (c.x - 0.5 * g.pitch_x).round() as i64,
            (c.y - 0.5 * g.pitch_y).round() as i64,
        )
    };
    for c in marks {
        let (left, top) = corner(c.cell);
        let sure = c.sure;
        if !sure {
            let thick = 3 * line;
            let (pw, ph) = (g.pitch_x.round() as i64, g.pitch_y.round() as i64);
            out.outline(
                left + line,
                top + line,
                pw - 2 * line,
                ph - 2 * line,
                thick,
                UNSURE,
            );
        }
        if let Some(colour) = c.colour {
            let letter = colour.letter().to_string();
            let colour = if sure { LETTER } else { UNSURE };
            label(
                &mut out,
                left + inset,
                top + inset - lift,
                &letter,
                letter_size,
                colour,
            );
        }
    }
    for (cell, text) in click_labels(clicks) {
        let centre = g.cell_centre(cell);
        let lines = label_lines(&text, g.pitch_x, g.pitch_y);
        let size = lines.size;
        let (tw, th) = lines.pixels();
        let (x, y) = (
            centre.x.round() as i64 - tw / 2,
            centre.y.round() as i64 - th / 2,
        );
        let pad = (size / 8.0).round() as i64;
        out.shade(x - pad, y, tw + 2 * pad, th, SHADOW, 150);
        for (i, row) in lines.rows.iter().enumerate() {
            let (w, _) = text_pixels(row, size);
            let top = y + (i as f32 * LINE * size).round() as i64;
            label(&mut out, x + (tw - w) / 2, top, row, size, CLICK);
        }
    }
    out.to_image()
}

/// Cell pitch of the storyboard's boards, in pixels.
const PANEL_PITCH: f32 = 24.0;
/// Panels per row of the storyboard.
const PER_ROW: usize = 4;
const GAP: i64 = 12;
/// The captions' text size (the em, in pixels), and the click numbers'.
const CAPTION_SIZE: f32 = 15.0;
const NUMBER_SIZE: f32 = 12.0;

/// The board before the plan and after each step, in rows of panels drawn
/// in `look`; each panel's caption names the move that made it, and the
/// cluster the next click removes is outlined, with the click's number on
/// the clicked cell.
pub fn storyboard(start: &Board, steps: &[Step], look: &Look) -> RgbaImage {
    let placement = Geometry::square(0.0, 0.0, PANEL_PITCH, start.width(), start.height());
    let (pw, ph) = placement.pixel_size();
    let (pw, ph) = (pw as i64, ph as i64);
    let caption = text_pixels("0", CAPTION_SIZE).1 + 4;
    let panels = steps.len() + 1;
    let columns = panels.min(PER_ROW) as i64;
    let rows = panels.div_ceil(PER_ROW) as i64;
    let mut out = Canvas::new(
        (GAP + columns * (pw + GAP)) as usize,
        (GAP + rows * (ph + caption + GAP)) as usize,
        PAPER,
    );
    let stage = Stage::new(
        look,
        Canvas::new(pw as usize, ph as usize, PAPER),
        placement,
        1,
    );
    let mut panel = Canvas::new(0, 0, PAPER);
    let boards = std::iter::once(*start).chain(steps.iter().map(|s| s.board_after));
    for (i, board) in boards.enumerate() {
        let (left, top) = (
            GAP + (i % PER_ROW) as i64 * (pw + GAP),
            GAP + (i / PER_ROW) as i64 * (ph + caption + GAP),
        );
        stage.paint(&tiles(&board), &mut panel);
        out.paste(&panel, left, top);
        let title = match i.checked_sub(1).map(|k| &steps[k]) {
            None => "start".to_string(),
            Some(s) => format!("{i}. {} {}{}", s.cell, s.colour.letter(), s.size),
        };
        out.text(left, top + ph + 2, &title, CAPTION_SIZE, LETTER);
        let Some(next) = steps.get(i) else {
            continue;
        };
        let Ok(cluster) = board.cluster_at(next.cell) else {
            continue;
        };
        let pitch = PANEL_PITCH.round() as i64;
        let cell_corner = |cell: Cell| {
            let c = placement.cell_centre(cell);
            let (x, y) = (c.x, c.y);
            (left + x as i64 - pitch / 2, top + y as i64 - pitch / 2)
        };
        for cell in cluster.cells.indices().map(|k| board.cell_of(k)) {
            let (x, y) = cell_corner(cell);
            out.outline(x, y, pitch, pitch, 1, GRID);
        }
        let number = (i + 1).to_string();
        let (tw, th) = text_pixels(&number, NUMBER_SIZE);
        let (x, y) = cell_corner(next.cell);
        label(
            &mut out,
            x + (pitch - tw) / 2,
            y + (pitch - th) / 2,
            &number,
            NUMBER_SIZE,
            CLICK,
        );
    }
    out.to_image()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::replay;
    use crate::render::{Shot, Surround, screenshot};

    const SEED_BOARD: &str = crate::game::EXAMPLE_BOARD;

    #[test]
    fn long_labels_stack_their_numbers_to_stay_readable() {
        // A short label takes the biggest size a cell allows.
        let one = label_lines("7", 80.0, 80.0);
        assert_eq!((one.rows.len(), one.size), (1, 28.0));
        let two = label_lines("2,3", 80.0, 80.0);
        assert_eq!(two.rows, ["2,3"]);
        let three = label_lines("4,10,11", 80.0, 80.0);
        assert_eq!(three.rows, ["4", "10", "11"]);
        let (w, h) = three.pixels();
        assert!(three.size >= 14.0 && w <= 64 && h <= 64, "{three:?}");
        let tiny = label_lines("4,10,11", 20.0, 20.0);
        assert!(tiny.size >= SMALLEST && tiny.size < 10.0, "{tiny:?}");
    }

    #[test]
    fn a_cell_clicked_twice_gets_both_numbers() {
        let labels = click_labels(&[Cell::new(7, 0), Cell::new(3, 1), Cell::new(3, 1)]);
        assert_eq!(
            labels,
            vec![
                (Cell::new(7, 0), "1".into()),
                (Cell::new(3, 1), "2,3".into())
            ]
        );
    }

    /// The board drawn bare at scale 1, where it is, and every cell marked
    /// as read surely.
    fn drawn(board: &Board) -> (RgbaImage, Geometry, Vec<CellMark>) {
        let shot = Shot {
            scale: 1.0,
            surround: Surround::Bare,
            seed: 3,
        };
        let (canvas, p) = screenshot(board, &Look::nodiatis(), &shot);
        let geometry = p;
        let marks = geometry
            .cells()
            .map(|cell| CellMark {
                cell,
                colour: board.get(cell),
                sure: true,
            })
            .collect();
        (canvas.to_image(), geometry, marks)
    }

    #[test]
    fn the_annotation_numbers_the_clicked_cells_and_letters_every_pile() {
        let board: Board = SEED_BOARD.parse().unwrap();
        let (image, geometry, marks) = drawn(&board);
        let plain = annotate(&image, &geometry, &marks, &[]);
        let clicked = annotate(&image, &geometry, &marks, &[Cell::new(7, 0)]);
        assert_eq!(plain.dimensions(), image.dimensions());
        // The click's number sits at the clicked cell's centre, in the
        // click colour; the other cells are as without clicks.
        let centre = geometry.cell_centre(Cell::new(7, 0));
        // Whether a pixel of `rgb` is within `r` of `(cx, cy)`.
        let near = |img: &RgbaImage, cx: f32, cy: f32, r: i64, rgb: [u8; 3]| {
            let (cx, cy) = (cx as i64, cy as i64);
            (cy - r..=cy + r)
                .any(|y| (cx - r..=cx + r).any(|x| img.get_pixel(x as u32, y as u32).0[..3] == rgb))
        };
        assert!(near(&clicked, centre.x, centre.y, 10, CLICK));
        assert!(!near(&plain, centre.x, centre.y, 10, CLICK));
        let other = geometry.cell_centre(Cell::new(0, 5));
        assert!(!near(&clicked, other.x, other.y, 10, CLICK));
        // Every cell's top-left corner carries its letter in white, clear
        // of the grid lines 40 pixels from the centre.
        for cell in geometry.cells() {
            let c = geometry.cell_centre(cell);
            assert!(near(&plain, c.x - 29.0, c.y - 27.0, 6, LETTER), "{cell}");
            assert!(!near(&image, c.x - 29.0, c.y - 27.0, 6, LETTER), "{cell}");
        }
    }

    #[test]
    fn unsure_cells_are_framed_in_red() {
        let board: Board = SEED_BOARD.parse().unwrap();
        let (image, geometry, mut marks) = drawn(&board);
        let cell = Cell::new(2, 3);
        let index = usize::from(cell.x) * 6 + usize::from(cell.y);
        marks[index].sure = false;
        let marked = annotate(&image, &geometry, &marks, &[]);
        let c = geometry.cell_centre(cell);
        let (left, top) = ((c.x - 40.0) as u32, (c.y - 40.0) as u32);
        assert_eq!(marked.get_pixel(left + 2, top + 40).0[..3], UNSURE);
        let sure = geometry.cell_centre(Cell::new(3, 3));
        let (left, top) = ((sure.x - 40.0) as u32, (sure.y - 40.0) as u32);
        assert_ne!(marked.get_pixel(left + 2, top + 40).0[..3], UNSURE);
    }

    #[test]
    fn the_storyboard_has_a_panel_per_board_and_they_empty_out() {
        let board: Board = "        ,        ,        ,        ,        ,   GGOO "
            .parse()
            .unwrap();
        let steps = replay(&board, &[Cell::new(3, 0), Cell::new(4, 0)]).unwrap();
        let picture = storyboard(&board, &steps, &Look::nodiatis());
        let (pw, ph) = (8 * 24, 6 * 24);
        let caption = text_pixels("0", CAPTION_SIZE).1 + 4;
        assert_eq!(
            picture.dimensions(),
            (
                (GAP + 3 * (pw + GAP)) as u32,
                (GAP + ph + caption + GAP) as u32
            )
        );
        // The bottom row's centre holds piles in the first panel and none
        // in the last, where the board is empty.
        let colourful = |panel: i64| {
            let left = GAP + panel * (pw + GAP);
            let y = (GAP + ph - 12) as u32;
            (left + 72..left + 120).any(|x| {
                let [r, g, b, _] = picture.get_pixel(x as u32, y).0;
                r.max(g).max(b) - r.min(g).min(b) > 60
            })
        };
        assert!(colourful(0) && colourful(1));
        assert!(!colourful(2));
    }
}
