//! Where live play looks and clicks: the board's region of the window (what
//! to capture), the screen point of a cell's centre (where to click) and a
//! resting place for the mouse off the board (so that hover effects do not
//! disturb the next read). Pure arithmetic on a fresh window geometry, so
//! that every click point is checked to lie on the board before use.

use crate::desktop::{Region, ScreenPoint};
use crate::game::{Board, Cell};
use crate::vision::{Geometry, PixelPoint};

/// Pixels captured around the board: the cells' reads stay well inside,
/// a small margin absorbs rounding of the board's edges.
const MARGIN: f32 = 2.0;

/// How far off the board the mouse rests, in pitches: far enough to leave
/// any hover glow of the edge cells, near enough to stay in the window.
const REST: f32 = 0.25;

/// The client area of a window `size` pixels big.
pub fn client(size: (u32, u32)) -> Region {
    Region {
        x: 0,
        y: 0,
        width: size.0,
        height: size.1,
    }
}

/// The board's rectangle (plus a small margin) in the client area, clipped
/// to it; `None` when the board lies outside the window.
pub fn board_region(geometry: &Geometry, size: (u32, u32)) -> Option<Region> {
    let (w, h) = geometry.size();
    let left = (geometry.x - MARGIN).floor() as i32;
    let top = (geometry.y - MARGIN).floor() as i32;
    let right = (geometry.x + w + MARGIN).ceil() as i32;
    let bottom = (geometry.y + h + MARGIN).ceil() as i32;
    Region {
        x: left,
        y: top,
        width: (right - left).max(0) as u32,
        height: (bottom - top).max(0) as u32,
    }
    .intersection(&client(size))
}

/// The screen point of `cell`'s centre for a window whose client area is at
/// `origin`, or `None` when the rounded point would not be inside both the
/// board and the client area (a click there could land elsewhere).
pub fn click_point(
    geometry: &Geometry,
    size: (u32, u32),
    origin: (i32, i32),
    cell: Cell,
) -> Option<ScreenPoint> {
    let centre = geometry.cell_centre(cell);
    let (x, y) = (centre.x.round(), centre.y.round());
    let on_board = geometry.cell_at(PixelPoint::new(x, y)) == Some(cell);
    let in_window = x >= 0.0 && y >= 0.0 && x < size.0 as f32 && y < size.1 as f32;
    (on_board && in_window).then(|| ScreenPoint::new(origin.0 + x as i32, origin.1 + y as i32))
}

/// Where the mouse waits after a click: beside the board inside the window
/// and on the screen `screen` (desktop coordinates) where there is room
/// (left, right, below, above); else, on a board that fills the window,
/// over a cell that `after` (the board the click leaves) has empty for
/// good: one in an edge column, which neither gravity nor the contraction
/// fills again, the highest first, else one of the top row. Never outside
/// the window, where the screen may clamp it (the fail-safe would take
/// that for the user).
pub fn rest_point(
    geometry: &Geometry,
    size: (u32, u32),
    origin: (i32, i32),
    screen: &Region,
    after: &Board,
) -> ScreenPoint {
    let (w, h) = geometry.size();
    let (middle_x, middle_y) = (geometry.x + w / 2.0, geometry.y + h / 2.0);
    let (off_x, off_y) = (REST * geometry.pitch_x, REST * geometry.pitch_y);
    let to_screen = |(x, y): (f32, f32)| {
        ScreenPoint::new(origin.0 + x.round() as i32, origin.1 + y.round() as i32)
    };
    let on_screen = |p: ScreenPoint| {
        p.x >= screen.x
            && p.y >= screen.y
            && p.x < screen.x + screen.width as i32
            && p.y < screen.y + screen.height as i32
    };
    let in_window =
        |&(x, y): &(f32, f32)| x >= 0.0 && y >= 0.0 && x < size.0 as f32 && y < size.1 as f32;
    let beside = [
        (geometry.x - off_x, middle_y),
        (geometry.x + w + off_x, middle_y),
        (middle_x, geometry.y + h + off_y),
        (middle_x, geometry.y - off_y),
    ];
    if let Some(p) = beside
        .into_iter()
        .filter(in_window)
        .map(to_screen)
        .find(|&p| on_screen(p))
    {
        return p;
    }
    let top = geometry.height - 1;
    let edges = [0, geometry.width - 1];
    let empty_for_good = (0..geometry.height)
        .rev()
        .flat_map(|y| edges.map(|x| Cell::new(x, y)))
        .chain((0..geometry.width).map(|x| Cell::new(x, top)))
        .find(|&cell| after.get(cell).is_none());
    let centre = |cell| {
        let p = geometry.cell_centre(cell);
        (p.x, p.y)
    };
    // Some cell is empty after any click; the board's top-left corner
    // otherwise, inside it.
    to_screen(empty_for_good.map_or((geometry.x + 1.0, geometry.y + 1.0), centre))
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

    #[test]
    fn the_region_holds_the_board_and_stays_in_the_window() {
        let region = board_region(&practice(), (720, 560)).unwrap();
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
        let region = board_region(&tight, (643, 470)).unwrap();
        assert_eq!((region.x, region.y), (0, 0));
        // The board's right edge plus the margin, the window's bottom edge.
        assert_eq!((region.width, region.height), (641, 470));
        let away = Geometry {
            x: 900.0,
            ..practice()
        };
        assert_eq!(board_region(&away, (720, 560)), None);
    }

    #[test]
    fn clicks_go_to_cell_centres_on_the_screen() {
        let g = practice();
        let at = click_point(&g, (720, 560), (100, 50), Cell::new(0, 0)).unwrap();
        assert_eq!(at, ScreenPoint::new(100 + 80, 50 + 480));
        let top_right = click_point(&g, (720, 560), (0, 0), Cell::new(7, 5)).unwrap();
        assert_eq!(top_right, ScreenPoint::new(640, 80));
    }

    #[test]
    fn no_click_point_outside_the_window() {
        let g = Geometry {
            x: -100.0,
            ..practice()
        };
        assert_eq!(click_point(&g, (720, 560), (0, 0), Cell::new(0, 0)), None);
        assert!(click_point(&g, (720, 560), (0, 0), Cell::new(3, 0)).is_some());
        let small = (600, 560);
        assert_eq!(
            click_point(&practice(), small, (0, 0), Cell::new(7, 0)),
            None
        );
    }

    fn screen() -> Region {
        Region {
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
        let rest = rest_point(&g, (720, 560), (100, 50), &screen(), &after);
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
        let rest = rest_point(&g, (720, 560), (-30, 50), &screen(), &after);
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
        let rest = rest_point(&g, (643, 470), (100, 50), &screen(), &after);
        // Inside the window, over the highest empty cell of column 0
        // (the top row's).
        let local = PixelPoint::new((rest.x - 100) as f32, (rest.y - 50) as f32);
        assert!(local.x >= 0.0 && local.y >= 0.0 && local.x < 643.0 && local.y < 470.0);
        assert_eq!(g.cell_at(local), Some(Cell::new(0, 5)));
        // Column 0 full to the top: the right edge column.
        let after: Board = "G       ,G       ,G YY    ,GGGGRRR ,BBBBGGGG,OOOOYYYY"
            .parse()
            .unwrap();
        let rest = rest_point(&g, (643, 470), (100, 50), &screen(), &after);
        let local = PixelPoint::new((rest.x - 100) as f32, (rest.y - 50) as f32);
        assert_eq!(g.cell_at(local), Some(Cell::new(7, 5)));
    }
}
