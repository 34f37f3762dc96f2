//! Where the board is on the screen: the board's geometry in the game
//! window's client area and where that client area is on the desktop, one
//! [`ScreenBoard`]. From it come the board's region of the window (what to
//! capture), the screen point of a cell's centre (where to click), a
//! resting place for the mouse off the board (so that hover effects do not
//! disturb the next read) and the board's cells in desktop pixels (for the
//! hints). Pure arithmetic on a fresh window geometry, so that every click
//! point is checked to lie on the board before use.

use crate::desktop::{Region, ScreenPoint, ScreenRect};
use crate::game::{Board, Cell};
use crate::geometry::{Geometry, PixelPoint};

/// Pixels captured around the board: the cells' reads stay well inside,
/// a small margin absorbs rounding of the board's edges.
const MARGIN: f32 = 2.0;

/// How far off the board the mouse rests, in pitches: far enough to leave
/// any hover glow of the edge cells, near enough to stay in the window.
const REST: f32 = 0.25;

/// The board in a game window, and that window's client area on the
/// desktop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenBoard {
    /// The board in the client area, in its pixels.
    pub geometry: Geometry,
    pub client: ScreenRect,
}

impl ScreenBoard {
    /// The board's rectangle (plus a small margin) in the client area,
    /// clipped to it; `None` when the board lies outside the window.
    pub fn region(&self) -> Option<Region> {
        let g = &self.geometry;
        let (w, h) = g.size();
        let left = (g.x - MARGIN).floor() as i32;
        let top = (g.y - MARGIN).floor() as i32;
        let right = (g.x + w + MARGIN).ceil() as i32;
        let bottom = (g.y + h + MARGIN).ceil() as i32;
        Region {
            x: left,
            y: top,
            width: (right - left).max(0) as u32,
            height: (bottom - top).max(0) as u32,
        }
        .intersection(&Region::whole(self.client.width, self.client.height))
    }

    /// The board's rectangle on the desktop; the whole client area when
    /// the board lies outside it.
    pub fn area(&self) -> ScreenRect {
        self.region()
            .map_or(self.client, |r| r.on_screen(self.client.origin()))
    }

    /// The board's cells in desktop pixels.
    pub fn on_screen(&self) -> Geometry {
        // In the client area's pixels, the desktop's origin is at minus
        // the client area's corner.
        self.geometry
            .translated(-(self.client.x as f32), -(self.client.y as f32))
    }

    /// The screen point of `cell`'s centre, or `None` when the rounded
    /// point would not be inside both the board and the client area (a
    /// click there could land elsewhere).
    pub fn click_point(&self, cell: Cell) -> Option<ScreenPoint> {
        let centre = self.geometry.cell_centre(cell);
        let (x, y) = (centre.x.round(), centre.y.round());
        let on_board = self.geometry.cell_at(PixelPoint::new(x, y)) == Some(cell);
        let point = self.screen_point((x, y));
        (on_board && self.client.contains(point)).then_some(point)
    }

    /// Where the mouse waits after a click: beside the board inside the
    /// window and on the screen `screen` where there is room (left,
    /// right, below, above); else, on a board that fills the window, over
    /// a cell that `after` (the board the click leaves) has empty for
    /// good: one in an edge column, which neither gravity nor the
    /// contraction fills again, the highest first, else one of the top
    /// row. Never outside the window, where the screen may clamp it (the
    /// fail-safe would take that for the user).
    pub fn rest_point(&self, screen: &ScreenRect, after: &Board) -> ScreenPoint {
        let g = &self.geometry;
        let (w, h) = g.size();
        let (middle_x, middle_y) = (g.x + w / 2.0, g.y + h / 2.0);
        let (off_x, off_y) = (REST * g.pitch_x, REST * g.pitch_y);
        let beside = [
            (g.x - off_x, middle_y),
            (g.x + w + off_x, middle_y),
            (middle_x, g.y + h + off_y),
            (middle_x, g.y - off_y),
        ];
        if let Some(p) = beside
            .into_iter()
            .map(|p| self.screen_point(p))
            .find(|&p| self.client.contains(p) && screen.contains(p))
        {
            return p;
        }
        let top = g.height - 1;
        let edges = [0, g.width - 1];
        let empty_for_good = (0..g.height)
            .rev()
            .flat_map(|y| edges.map(|x| Cell::new(x, y)))
            .chain((0..g.width).map(|x| Cell::new(x, top)))
            .find(|&cell| after.get(cell).is_none());
        let centre = |cell| {
            let p = g.cell_centre(cell);
            (p.x, p.y)
        };
        // Some cell is empty after any click; the board's top-left corner
        // otherwise, inside it.
        self.screen_point(empty_for_good.map_or((g.x + 1.0, g.y + 1.0), centre))
    }

    /// A point of the client area (its pixels) on the desktop, rounded.
    fn screen_point(&self, (x, y): (f32, f32)) -> ScreenPoint {
        ScreenPoint::new(
            self.client.x + x.round() as i32,
            self.client.y + y.round() as i32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn practice() -> Geometry {
        Geometry {
            x: 40.0,
            y: 40.0,
            pitch_x: 80.0,
            pitch_y: 80.0,
            width: 8,
            height: 6,
        }
    }

    fn at(geometry: Geometry, (x, y): (i32, i32), (width, height): (u32, u32)) -> ScreenBoard {
        ScreenBoard {
            geometry,
            client: ScreenRect {
                x,
                y,
                width,
                height,
            },
        }
    }

    #[test]
    fn the_region_holds_the_board_and_stays_in_the_window() {
        let region = at(practice(), (0, 0), (720, 560)).region().unwrap();
        assert_eq!(
            region,
            Region {
                x: 38,
                y: 38,
                width: 644,
                height: 484
            }
        );
        let tight = Geometry {
            x: -1.9,
            y: -3.8,
            ..practice()
        };
        let region = at(tight, (0, 0), (643, 470)).region().unwrap();
        assert_eq!((region.x, region.y), (0, 0));
        // The board's right edge plus the margin, the window's bottom edge.
        assert_eq!((region.width, region.height), (641, 470));
        let away = Geometry {
            x: 900.0,
            ..practice()
        };
        assert_eq!(at(away, (0, 0), (720, 560)).region(), None);
        let board = at(practice(), (100, 50), (720, 560));
        assert_eq!(
            board.area(),
            ScreenRect {
                x: 138,
                y: 88,
                width: 644,
                height: 484
            }
        );
        let cells = board.on_screen();
        assert_eq!((cells.x, cells.y, cells.pitch_x), (140.0, 90.0, 80.0));
    }

    #[test]
    fn clicks_go_to_cell_centres_on_the_screen() {
        let g = practice();
        let point = at(g, (100, 50), (720, 560))
            .click_point(Cell::new(0, 0))
            .unwrap();
        assert_eq!(point, ScreenPoint::new(100 + 80, 50 + 480));
        let top_right = at(g, (0, 0), (720, 560))
            .click_point(Cell::new(7, 5))
            .unwrap();
        assert_eq!(top_right, ScreenPoint::new(640, 80));
    }

    #[test]
    fn no_click_point_outside_the_window() {
        let g = Geometry {
            x: -100.0,
            ..practice()
        };
        let board = at(g, (0, 0), (720, 560));
        assert_eq!(board.click_point(Cell::new(0, 0)), None);
        assert!(board.click_point(Cell::new(3, 0)).is_some());
        let small = at(practice(), (0, 0), (600, 560));
        assert_eq!(small.click_point(Cell::new(7, 0)), None);
    }

    fn screen() -> ScreenRect {
        ScreenRect {
            x: 0,
            y: 0,
            width: 1600,
            height: 1000,
        }
    }

    #[test]
    fn the_mouse_rests_off_the_board() {
        let g = practice();
        let after = Board::empty(8, 6).unwrap();
        let rest = at(g, (100, 50), (720, 560)).rest_point(&screen(), &after);
        assert_eq!(rest, ScreenPoint::new(100 + 20, 50 + 280));
        let local = PixelPoint::new((rest.x - 100) as f32, (rest.y - 50) as f32);
        assert!(!g.contains(local));
    }

    #[test]
    fn the_rest_point_stays_on_the_screen() {
        // The window's left edge at the screen's: left of the board is
        // off the screen, right of it is not.
        let g = practice();
        let after = Board::empty(8, 6).unwrap();
        let rest = at(g, (-30, 50), (720, 560)).rest_point(&screen(), &after);
        assert_eq!(rest, ScreenPoint::new(-30 + 700, 50 + 280));
    }

    #[test]
    fn a_board_filling_the_window_rests_the_mouse_on_a_cell_empty_for_good() {
        // The default calibration's geometry fills its 643x470 window.
        let g = Geometry {
            x: -1.9,
            y: -3.8,
            pitch_x: 80.1,
            pitch_y: 80.2,
            width: 8,
            height: 6,
        };
        let after: Board = "        ,        ,  YY    , GGGRRR ,BBBBGGGG,OOOOYYYY"
            .parse()
            .unwrap();
        let rest = at(g, (100, 50), (643, 470)).rest_point(&screen(), &after);
        // Inside the window, over the highest empty cell of column 0
        // (the top row's).
        let local = PixelPoint::new((rest.x - 100) as f32, (rest.y - 50) as f32);
        assert!(local.x >= 0.0 && local.y >= 0.0 && local.x < 643.0 && local.y < 470.0);
        assert_eq!(g.cell_at(local), Some(Cell::new(0, 5)));
        // Column 0 full to the top: the right edge column.
        let after: Board = "G       ,G       ,G YY    ,GGGGRRR ,BBBBGGGG,OOOOYYYY"
            .parse()
            .unwrap();
        let rest = at(g, (100, 50), (643, 470)).rest_point(&screen(), &after);
        let local = PixelPoint::new((rest.x - 100) as f32, (rest.y - 50) as f32);
        assert_eq!(g.cell_at(local), Some(Cell::new(7, 5)));
    }
}
