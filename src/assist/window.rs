//! The hint window: a small window of the bot's own, titled "Dust Hint",
//! kept above the others (the player's eyes are on the game) and placed
//! beside the game window, never over its board. It shows the hint
//! picture of the renderer. The bot never reads its own windows as the
//! game (capture leaves the bot's process out), and its title is chosen so
//! that `--window` cannot name it either.

use minifb::Window;

use image::RgbaImage;

use super::Hint;
use super::follow::clicks_on;
use crate::desktop::{self, Region};
use crate::render::{Canvas, HintPainter, Look};

/// Titles for the hint window, the first that `--window`'s text is not part
/// of; the last one is empty, which no text is part of.
const TITLES: [&str; 4] = ["Dust Hint", "Hint", "Assistant", ""];

/// Pixels between the game window and the hint window: room for the
/// window manager's frames.
const GAP: i32 = 24;

/// The hint window.
pub struct HintWindow {
    window: Window,
    painter: HintPainter,
    frame: Canvas,
    pub title: String,
}

impl std::fmt::Debug for HintWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HintWindow")
            .field("title", &self.title)
            .finish_non_exhaustive()
    }
}

impl HintWindow {
    /// Opens the window for boards of `cells` beside `game` (the game
    /// window's client area on the desktop) on `screen`, away from `board`
    /// (the board's area on the desktop), kept above the other windows
    /// where the window manager allows it.
    pub fn open(
        query: &str,
        cells: (u8, u8),
        look: &Look,
        (game, board, screen): (Region, Region, Region),
    ) -> Result<HintWindow, String> {
        let painter = HintPainter::new(cells.0, cells.1, look);
        let (width, height) = painter.size();
        let title = title_for(query);
        let mut window = Window::new(&title, width, height, desktop::topmost_options())
            .map_err(|e| e.to_string())?;
        // The assistant paces itself: no waiting in the window's updates.
        window.set_target_fps(0);
        let (x, y) = beside(game, board, screen, (width as u32, height as u32));
        window.set_position(x as isize, y as isize);
        if let Err(error) = desktop::keep_above(&window) {
            log::warn!("the hint window cannot be kept above the others: {error}");
        }
        Ok(HintWindow {
            window,
            painter,
            frame: Canvas::new(width, height, [0, 0, 0]),
            title,
        })
    }

    /// Shows `hint`; false once the player has closed the window.
    pub fn show(&mut self, hint: &Hint) -> bool {
        if !self.window.is_open() {
            return false;
        }
        paint(&self.painter, hint, &mut self.frame);
        let (w, h) = (self.frame.width, self.frame.height);
        self.window
            .update_with_buffer(&self.frame.pixels, w, h)
            .is_ok()
    }

    /// Handles the window's events (moves, repaints, closing); false once
    /// the player has closed it.
    pub fn pump(&mut self) -> bool {
        if self.window.is_open() {
            self.window.update();
        }
        self.window.is_open()
    }
}

/// The hint window's picture of `hint`, drawn in `look`: what the window
/// shows, as an image (for documentation).
pub fn picture(hint: &Hint, look: &Look) -> RgbaImage {
    let painter = HintPainter::new(hint.board.width(), hint.board.height(), look);
    let mut out = Canvas::new(0, 0, [0, 0, 0]);
    paint(&painter, hint, &mut out);
    out.to_image()
}

/// Draws `hint` with `painter`: the board, the plan's clicks numbered on
/// the tiles they will remove, the caption.
fn paint(painter: &HintPainter, hint: &Hint, out: &mut Canvas) {
    let clicks = clicks_on(&hint.board, &hint.plan, hint.rules);
    painter.paint(&hint.board, &clicks, &hint.caption(), out);
}

/// The hint window's title: one `query` does not name.
pub fn title_for(query: &str) -> String {
    TITLES
        .iter()
        .find(|title| !desktop::names(title, query))
        .map_or_else(String::new, |t| (*t).to_owned())
}

/// Where a `size` window goes beside `game` on `screen` (desktop
/// coordinates): to its right, left, below or above, the first side with
/// room; else in the screen's corner farthest from `board`, which it may
/// then overlap only when the screen has no room at all.
pub fn beside(game: Region, board: Region, screen: Region, size: (u32, u32)) -> (i32, i32) {
    let (w, h) = (size.0 as i32, size.1 as i32);
    let (left, top) = (screen.x, screen.y);
    let right = screen.x + screen.width as i32;
    let bottom = screen.y + screen.height as i32;
    let clamp_y = |y: i32| y.min(bottom - h).max(top);
    let clamp_x = |x: i32| x.min(right - w).max(left);
    let sides = [
        (game.x + game.width as i32 + GAP, clamp_y(game.y)),
        (game.x - GAP - w, clamp_y(game.y)),
        (clamp_x(game.x), game.y + game.height as i32 + GAP),
        (clamp_x(game.x), game.y - GAP - h),
    ];
    let fits = |&(x, y): &(i32, i32)| x >= left && y >= top && x + w <= right && y + h <= bottom;
    if let Some(&place) = sides.iter().find(|p| fits(p)) {
        return place;
    }
    let corners = [
        (left, top),
        (right - w, top),
        (left, bottom - h),
        (right - w, bottom - h),
    ];
    let centre = (
        board.x + board.width as i32 / 2,
        board.y + board.height as i32 / 2,
    );
    let distance = |&(x, y): &(i32, i32)| {
        let (cx, cy) = (x + w / 2 - centre.0, y + h / 2 - centre.1);
        i64::from(cx) * i64::from(cx) + i64::from(cy) * i64::from(cy)
    };
    corners
        .into_iter()
        .max_by_key(distance)
        .expect("four corners")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(x: i32, y: i32, width: u32, height: u32) -> Region {
        Region {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn the_title_never_matches_the_window_asked_for() {
        assert_eq!(title_for("Nodiatis"), "Dust Hint");
        assert_eq!(title_for("Dust Practice"), "Dust Hint");
        for query in ["dust", "HINT", "Dust Hint", "in", "t", "a"] {
            let title = title_for(query);
            assert!(!desktop::names(&title, query), "{query:?} names {title:?}");
        }
    }

    #[test]
    fn the_hint_goes_beside_the_game_where_there_is_room() {
        let screen = region(0, 0, 1600, 1000);
        let size = (460, 360);
        // Room on the right.
        let game = region(100, 50, 720, 560);
        let board = region(140, 90, 640, 480);
        assert_eq!(beside(game, board, screen, size), (844, 50));
        // No room on the right: on the left.
        let game = region(800, 50, 720, 560);
        let board = region(840, 90, 640, 480);
        assert_eq!(beside(game, board, screen, size), (316, 50));
        // A game filling the width: below, then above.
        let game = region(0, 0, 1600, 560);
        let board = region(480, 40, 640, 480);
        assert_eq!(beside(game, board, screen, size), (0, 584));
        let game = region(0, 440, 1600, 560);
        assert_eq!(beside(game, board, screen, size).1, 440 - GAP - 360);
    }

    #[test]
    fn a_full_screen_game_gets_the_hint_away_from_its_board() {
        let screen = region(0, 0, 1600, 1000);
        let game = screen;
        let size = (460, 360);
        // A board at the top-left: the hint goes to the bottom-right.
        let board = region(40, 40, 640, 480);
        let (x, y) = beside(game, board, screen, size);
        assert_eq!((x, y), (1140, 640));
        let hint = region(x, y, size.0, size.1);
        assert!(hint.intersection(&board).is_none());
    }
}
