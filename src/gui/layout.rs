//! Where the parts of the desktop app's window go, at a scale: the board
//! picture (the hint picture of the renderer) on top, the status lines
//! under it, a row of buttons at the bottom; and which button, or which
//! cell of the board drawn, a point of the window is on. Pure geometry,
//! so that the clicks land where the buttons and cells are drawn, and the
//! tests click them there.

use crate::app::door::{Action, Offer};
use crate::game::Cell;
use crate::geometry::{Geometry, PixelPoint};
use crate::render::{hint_geometry, hint_size};

/// The status lines: the window, the calibration, the optimum, what the
/// bot does, the last game, the run's summary, and the record's table,
/// each wrapped to the window's width.
pub const STATUS_LINES: usize = 18;
/// The status text's size (the em, in pixels) at scale 1.
const TEXT: f32 = 13.0;
const BUTTON_HEIGHT: f32 = 28.0;
/// Buttons side by side in a row: as narrow as the board picture, the
/// window leaves the game the room it needs beside it.
const COLUMNS: usize = 3;
const GAP: f32 = 8.0;

/// What a button of the window is labelled for the door's `action`.
pub fn label(action: Action) -> &'static str {
    match action {
        Action::Hints => "1 Hints",
        Action::Play => "2 Play",
        Action::Again => "Again",
        Action::Stop(_) => "Stop",
        Action::Calibrate => "3 Calibrate",
        Action::Record => "4 Record",
        Action::Report => "Report",
        Action::Quit => "Quit",
        Action::Yes => "Yes",
        Action::No => "No",
        Action::TryAgain => "Try again",
        Action::Save => "Save",
        Action::Cancel => "Cancel",
        Action::UseDefault => "Use default",
    }
}

/// A rectangle of the window's client area, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: i64,
    pub y: i64,
    pub width: i64,
    pub height: i64,
}

impl Rect {
    pub fn contains(&self, (x, y): (i64, i64)) -> bool {
        (self.x..self.x + self.width).contains(&x) && (self.y..self.y + self.height).contains(&y)
    }

    pub fn centre(&self) -> (i64, i64) {
        (self.x + self.width / 2, self.y + self.height / 2)
    }
}

/// The window's parts at one scale, for boards of one size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub scale: f32,
    /// The client area's size.
    pub size: (usize, usize),
    /// The board picture's place and size.
    pub picture: Rect,
    /// The board's cells in the window.
    pub board: Geometry,
    /// The top-left of the first status line, the lines' text size and
    /// pitch.
    pub status: (i64, i64),
    pub text: f32,
    pub line: i64,
    /// The buttons' row: its top and its height.
    pub buttons_y: i64,
    pub button_height: i64,
    gap: i64,
}

impl Layout {
    /// The window for boards of `cells` at `scale` (1: the hint picture's
    /// cells of 40 pixels), as wide as the picture.
    pub fn new(cells: (u8, u8), scale: f32) -> Layout {
        let (width, ph) = hint_size(cells.0, cells.1, scale);
        let gap = (GAP * scale).round() as i64;
        let text = TEXT * scale;
        let line = (text * 1.35).ceil() as i64;
        let status_y = ph as i64 + gap;
        let buttons_y = status_y + line * STATUS_LINES as i64 + gap;
        let button_height = (BUTTON_HEIGHT * scale).round() as i64;
        let most = Offer::ALL
            .iter()
            .map(|offer| offer.actions().len())
            .max()
            .unwrap_or(0);
        let rows = most.div_ceil(COLUMNS) as i64;
        let height = buttons_y + rows * (button_height + gap);
        Layout {
            scale,
            size: (width, height as usize),
            picture: Rect {
                x: 0,
                y: 0,
                width: width as i64,
                height: ph as i64,
            },
            // The picture is at the window's top-left.
            board: hint_geometry(cells.0, cells.1, scale),
            status: (gap, status_y),
            text,
            line,
            buttons_y,
            button_height,
            gap,
        }
    }

    /// The width the status lines are wrapped to.
    pub fn status_width(&self) -> i64 {
        self.size.0 as i64 - 2 * self.gap
    }

    /// The buttons of `row`, [`COLUMNS`] to a row, of one width.
    pub fn buttons(&self, row: &[Action]) -> Vec<(Action, Rect)> {
        let n = COLUMNS as i64;
        let width = (self.size.0 as i64 - self.gap * (n + 1)) / n;
        row.iter()
            .enumerate()
            .map(|(i, &button)| {
                let (column, line) = ((i % COLUMNS) as i64, (i / COLUMNS) as i64);
                let rect = Rect {
                    x: self.gap + column * (width + self.gap),
                    y: self.buttons_y + line * (self.button_height + self.gap),
                    width,
                    height: self.button_height,
                };
                (button, rect)
            })
            .collect()
    }

    /// The cell of the board drawn at `point`, if any.
    pub fn cell_at(&self, (x, y): (i64, i64)) -> Option<Cell> {
        self.board.cell_at(PixelPoint::new(x as f32, y as f32))
    }

    /// The centre of `cell` of the board drawn, in whole pixels.
    pub fn cell_centre(&self, cell: Cell) -> (i64, i64) {
        let centre = self.board.cell_centre(cell);
        (centre.x.floor() as i64, centre.y.floor() as i64)
    }

    /// The button of `row` at `point`, if any.
    pub fn button_at(&self, row: &[Action], point: (i64, i64)) -> Option<Action> {
        self.buttons(row)
            .into_iter()
            .find_map(|(button, rect)| rect.contains(point).then_some(button))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_is_found_at_its_centre_and_none_between() {
        for scale in [1.0, 0.8, 0.5] {
            let layout = Layout::new((8, 6), scale);
            for offer in Offer::ALL {
                let row = offer.actions();
                let buttons = layout.buttons(row);
                for (button, rect) in &buttons {
                    assert_eq!(layout.button_at(row, rect.centre()), Some(*button));
                    // Inside the window, below the status lines.
                    assert!(rect.x >= 0 && rect.x + rect.width <= layout.size.0 as i64);
                    assert!(rect.y + rect.height <= layout.size.1 as i64);
                    assert!(rect.y >= layout.status.1 + layout.line * STATUS_LINES as i64);
                }
                let gap = (buttons[0].1.x + buttons[0].1.width, layout.buttons_y + 1);
                assert_eq!(layout.button_at(row, gap), None);
                // The picture is no button.
                assert_eq!(layout.button_at(row, layout.picture.centre()), None);
            }
        }
    }

    #[test]
    fn the_labels_fit_their_buttons() {
        let layout = Layout::new((8, 6), 0.5);
        for offer in Offer::ALL {
            for (button, rect) in layout.buttons(offer.actions()) {
                let (w, _) = crate::render::font::text_size(label(button), layout.text);
                assert!(i64::from(w) < rect.width, "{button:?} at 50%");
            }
        }
    }

    #[test]
    fn the_window_is_as_wide_as_the_picture_and_the_status_under_it() {
        let layout = Layout::new((8, 6), 1.0);
        let (w, h) = hint_size(8, 6, 1.0);
        assert_eq!(layout.size.0, w);
        assert!(layout.status.1 >= h as i64);
        // Rows of three for the menu, the last one at the bottom.
        let menu = Offer::Menu.actions();
        let buttons = layout.buttons(menu);
        assert_eq!(buttons[3].1.x, buttons[0].1.x);
        assert!(buttons[3].1.y > buttons[0].1.y);
        let last = buttons[menu.len() - 1].1;
        assert!(last.y + last.height <= layout.size.1 as i64);
    }

    #[test]
    fn every_cell_is_found_at_its_centre_and_none_off_the_board() {
        for scale in [1.0, 0.8, 0.5] {
            let layout = Layout::new((8, 6), scale);
            for x in 0..8 {
                for y in 0..6 {
                    let cell = Cell::new(x, y);
                    let centre = layout.cell_centre(cell);
                    assert_eq!(layout.cell_at(centre), Some(cell), "{cell:?} at {scale}");
                    assert!(layout.picture.contains(centre));
                }
            }
            // Row 0 is the bottom row, as the game counts them.
            let (_, bottom) = layout.cell_centre(Cell::new(0, 0));
            let (_, top) = layout.cell_centre(Cell::new(0, 5));
            assert!(bottom > top);
            // The board's edges: a pixel inside, the next one out.
            let g = layout.board;
            let (x0, y0) = (g.x.ceil() as i64, g.y.ceil() as i64);
            assert_eq!(layout.cell_at((x0, y0)), Some(Cell::new(0, 5)));
            assert_eq!(layout.cell_at((x0 - 1, y0)), None);
            assert_eq!(layout.cell_at((x0, y0 - 1)), None);
            let (w, h) = g.size();
            let (x1, y1) = ((g.x + w).ceil() as i64, (g.y + h).ceil() as i64);
            assert_eq!(layout.cell_at((x1 - 1, y1 - 1)), Some(Cell::new(7, 0)));
            assert_eq!(layout.cell_at((x1, y1 - 1)), None);
            assert_eq!(layout.cell_at((x1 - 1, y1)), None);
            // No button is on the board, nor the board on a button.
            for (_, rect) in layout.buttons(Offer::Calibrating.actions()) {
                assert_eq!(layout.cell_at(rect.centre()), None);
            }
        }
    }
}
