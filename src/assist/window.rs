//! The hint window: a small window of the bot's own, titled "Dust Hint",
//! where Escape or `q` ends the hints,
//! kept above the others (the player's eyes are on the game) and placed
//! where it never covers the board: beside the game window where the
//! screen has room, drawn smaller where only that fits, else over the
//! game window's parts away from the board; with no such room there is no
//! window and the hints stay on the terminal. It shows the hint picture of
//! the renderer. The bot never reads its own windows as the game (capture
//! leaves the bot's process out), and its title is chosen so that
//! `--window` cannot name it either.

use image::RgbaImage;

use super::Hint;
use super::follow::clicks_on;
use crate::desktop::place::{Placement, place_sized};
use crate::desktop::stop::Asker;
use crate::desktop::{self, Key, OwnWindow, ScreenRect, Standing};
use crate::render::{Canvas, HintPainter, Look, hint_size};

/// Titles for the hint window, the first that `--window`'s text is not part
/// of; the last one is empty, which no text is part of.
const TITLES: [&str; 4] = ["Dust Hint", "Hint", "Assistant", ""];

/// Why there is no hint window when no place has room for it.
pub const NO_ROOM: &str = "no room on the screen for it away from the board";

/// The hint window.
pub struct HintWindow {
    window: OwnWindow,
    /// What the painter draws for, kept to draw at another scale.
    cells: (u8, u8),
    look: Look,
    painter: HintPainter,
    frame: Canvas,
    pub title: String,
    pub placement: Placement,
}

impl std::fmt::Debug for HintWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HintWindow")
            .field("title", &self.title)
            .field("placement", &self.placement)
            .finish_non_exhaustive()
    }
}

impl HintWindow {
    /// Opens the window for boards of `cells` where [`place`] puts it for
    /// `game` (the game window's client area on the desktop), `board` (the
    /// board's area on the desktop) and `screen` (its work area: the
    /// taskbar's and the docks' room left out), kept above the other
    /// windows where the window manager allows it; [`NO_ROOM`] when no
    /// place has room.
    pub fn open(
        query: &str,
        cells: (u8, u8),
        (look, stop): (&Look, fn(Asker)),
        (game, board, screen): (ScreenRect, ScreenRect, ScreenRect),
        scale: f32,
    ) -> Result<HintWindow, String> {
        let placement = place(game, board, (screen, scale), cells).ok_or(NO_ROOM)?;
        let painter = HintPainter::new(cells.0, cells.1, look, placement.scale);
        let (width, height) = painter.size();
        let title = title_for(query);
        let mut window =
            OwnWindow::open(&title, (width, height), Standing::Aside, Some(placement.at))?;
        // The assistant paces itself: no waiting in the window's updates.
        window.set_rate(0);
        // The keyboard is the game's once the player clicks it: the
        // bot's own window is where a key ends the hints, as Ctrl-C does.
        window.on_keys(move |key, down| {
            if let (true, Some(asker)) = (down, ends_hints(key)) {
                stop(asker);
            }
        });
        // Shown to the assistant's checks where it stands: where the
        // window manager first put it, it may be over the board, which
        // would close it as moved there by the player.
        window.wait_placed();
        Ok(HintWindow {
            window,
            cells,
            look: look.clone(),
            painter,
            frame: Canvas::new(width, height, [0, 0, 0]),
            title,
            placement,
        })
    }

    /// Shows `hint`; false once the window is closed (by the player, or
    /// destroyed by another program).
    pub fn show(&mut self, hint: &Hint) -> bool {
        if !self.window.is_open() {
            return false;
        }
        if let Some(by) = self.window.rescaled() {
            self.rescale(by);
        }
        paint(&self.painter, hint, &mut self.frame);
        let size = (self.frame.width, self.frame.height);
        self.window.show(&self.frame.pixels, size).is_ok()
    }

    /// Draws at `by` times the scale, the window resized to fit: moved to
    /// a monitor of another scale, it keeps its size to the eye.
    fn rescale(&mut self, by: f32) {
        self.placement.scale *= by;
        let (cells, scale) = (self.cells, self.placement.scale);
        self.painter = HintPainter::new(cells.0, cells.1, &self.look, scale);
        let (width, height) = self.painter.size();
        self.frame = Canvas::new(width, height, [0, 0, 0]);
        self.window.resize((width, height));
    }

    /// Handles the window's events (moves, repaints, closing); false once
    /// the window is closed.
    pub fn pump(&mut self) -> bool {
        if self.window.is_open() {
            self.window.pump();
        }
        self.window.is_open()
    }

    /// The window's id, as the window list gives it.
    pub fn id(&self) -> u32 {
        self.window.id()
    }

    /// Who closed the window, in the words of the terminal's line.
    pub fn closed_by(&self) -> &'static str {
        if self.window.destroyed() {
            "by another program"
        } else {
            "by the player"
        }
    }
}

/// Whether `key` in the hint window ends the hints: Escape or `q`.
pub fn ends_hints(key: Key) -> Option<Asker> {
    match key {
        Key::Escape => Some(Asker::Escape),
        Key::Char('q' | 'Q') => Some(Asker::Key('q')),
        _ => None,
    }
}

/// The hint window's picture of `hint`, drawn in `look` at full size: what
/// the window shows, as an image (for documentation).
pub fn picture(hint: &Hint, look: &Look) -> RgbaImage {
    let painter = HintPainter::new(hint.board.width(), hint.board.height(), look, 1.0);
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

/// Where the hint window for boards of `cells` goes, for `game` (the game
/// window's client area), `board` and `screen` (all on the desktop, the
/// screen's work area, at `screen_scale`): beside the game window at the biggest scale
/// that has room (to its right, left, below or above), the screen's own
/// first; else over the game window, beside the board at the biggest
/// scale that has room there; `None` when neither has. The window with
/// its frame keeps [`GAP`](crate::desktop::place::GAP) from the board, always.
pub fn place(
    game: ScreenRect,
    board: ScreenRect,
    (screen, screen_scale): (ScreenRect, f32),
    cells: (u8, u8),
) -> Option<Placement> {
    place_sized(game, board, (screen, screen_scale), |scale| {
        hint_size(cells.0, cells.1, scale)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desktop::place::{Border, GAP, Spot};

    #[test]
    fn the_hint_window_stays_off_the_taskbar_at_1920x1080_at_every_scale() {
        for taskbar in [48, 72] {
            for scale in [1.0, 1.25, 1.5] {
                let work = ScreenRect::new(0, 0, 1920, 1080 - taskbar);
                // The game on the left, its top 63 px down, its board in
                // its lower part: the hint window beside it.
                let game = ScreenRect::new(0, 63, (1280.0 * scale) as u32, (800.0 * scale) as u32);
                let board = ScreenRect::new(
                    (200.0 * scale) as i32,
                    63 + (300.0 * scale) as i32,
                    (600.0 * scale) as u32,
                    (450.0 * scale) as u32,
                );
                let placed = place(game, board, (work, scale), (8, 6))
                    .unwrap_or_else(|| panic!("{taskbar} at {scale}: no room"));
                let (w, h) = Border::at_scale(scale).around({
                    let (w, h) = hint_size(8, 6, placed.scale);
                    (w as i32, h as i32)
                });
                let outer = ScreenRect::new(placed.at.0, placed.at.1, w as u32, h as u32);
                assert_eq!(
                    work.intersection(&outer),
                    Some(outer),
                    "{taskbar} at {scale}: {placed:?}"
                );
            }
        }
    }

    #[test]
    fn the_frame_is_the_screens_scale_of_windows_own() {
        assert_eq!(Border::at_scale(1.0), FRAME);
        assert_eq!(Border::at_scale(1.5), Border { side: 12, top: 47 });
        // On a screen at 150%, the window with its frame at that scale
        // keeps clear of the board, where one placed for 100% frames
        // would not fit: the room below the game holds the hint at full
        // size with a 100% frame, not with a 150% one.
        let (game, board) = practice(1.0, (100, 50));
        let (w, h) = hint_size(8, 6, 1.0);
        let top = 50 + 560 + GAP;
        let screen = ScreenRect::new(0, 0, 1100, (top + h as i32 + 45) as u32);
        let below = screen.height as i32 - top;
        assert!(h as i32 + 31 + 8 <= below && h as i32 + 47 + 12 > below);
        assert!(w as i32 + 2 * 12 <= 1100);
        let at_100 = place(game, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!((at_100.spot, at_100.scale), (Spot::Beside, 1.0));
        let scaled = Border::at_scale(1.5);
        let placement = place(game, board, (screen, 1.5), (8, 6)).unwrap();
        let hint = outer_with(&placement, scaled);
        assert_eq!(hint.intersection(&screen), Some(hint), "{placement:?}");
        assert!(
            hint.intersection(&board.grown(GAP.unsigned_abs()))
                .is_none(),
            "{placement:?}"
        );
        assert!(
            placement.scale < 1.0 || placement.spot == Spot::Over,
            "{placement:?}"
        );
    }

    #[test]
    fn a_scaled_screen_gets_the_hint_at_its_scale_where_there_is_room() {
        // At 150% with room: the hint as big to the eye as at 100%.
        let (game, board) = practice(1.5, (100, 50));
        let screen = ScreenRect::new(0, 0, 3000, 2000);
        let placement = place(game, board, (screen, 1.5), (8, 6)).unwrap();
        assert_eq!((placement.spot, placement.scale), (Spot::Beside, 1.5));
        let hint = outer_with(&placement, Border::at_scale(1.5));
        assert_eq!(hint.intersection(&screen), Some(hint), "{placement:?}");
        // Smaller only where there is not: on a screen just wide enough
        // for the game and a hint at 1.2 beside it.
        let (w, _) = hint_size(8, 6, 1.2);
        let narrow = ScreenRect::new(
            0,
            0,
            (100 + game.width as i32 + GAP + w as i32 + 30) as u32,
            50 + game.height + 50,
        );
        let placement = place(game, board, (narrow, 1.5), (8, 6)).unwrap();
        assert_eq!((placement.spot, placement.scale), (Spot::Beside, 1.2));
        // 100% stays as it was: never more than the screen's scale.
        let (game, board) = practice(1.0, (100, 50));
        let placement = place(game, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!(placement.scale, 1.0);
    }

    #[test]
    fn escape_or_q_in_the_hint_window_ends_the_hints() {
        // Each said as the key it is, never as Ctrl-C.
        assert_eq!(ends_hints(Key::Escape), Some(Asker::Escape));
        assert_eq!(ends_hints(Key::Char('q')), Some(Asker::Key('q')));
        for other in [Key::Char('n'), Key::Space, Key::Enter, Key::NumPadEnter] {
            assert_eq!(ends_hints(other), None, "{other:?}");
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

    /// The practice window at `scale` (its board 8x6 cells of 80 x scale
    /// pixels in a margin of half a cell) with its client area's top-left
    /// at `at`: the window and the board.
    fn practice(scale: f32, at: (i32, i32)) -> (ScreenRect, ScreenRect) {
        let pitch = (80.0 * scale) as u32;
        let board = ScreenRect::new(
            at.0 + pitch as i32 / 2,
            at.1 + pitch as i32 / 2,
            8 * pitch,
            6 * pitch,
        );
        (ScreenRect::new(at.0, at.1, 9 * pitch, 7 * pitch), board)
    }

    /// `game` centred on `screen`.
    fn centred(screen: ScreenRect, scale: f32) -> (ScreenRect, ScreenRect) {
        let (game, _) = practice(scale, (0, 0));
        let at = (
            (screen.width - game.width) as i32 / 2,
            (screen.height - game.height) as i32 / 2,
        );
        practice(scale, at)
    }

    const FRAME: Border = Border { side: 8, top: 31 };

    /// The window's area with `frame`.
    fn outer_with(placement: &Placement, frame: Border) -> ScreenRect {
        let (w, h) = hint_size(8, 6, placement.scale);
        let (w, h) = frame.around((w as i32, h as i32));
        ScreenRect::new(placement.at.0, placement.at.1, w as u32, h as u32)
    }

    /// The window's area with its frame at 100%.
    fn outer(placement: &Placement) -> ScreenRect {
        outer_with(placement, FRAME)
    }

    /// The hint's frame is on the screen, [`GAP`] away from the board.
    fn assert_clear(placement: &Placement, board: ScreenRect, screen: ScreenRect) {
        let hint = outer(placement);
        assert_eq!(hint.intersection(&screen), Some(hint), "{placement:?}");
        assert!(
            hint.intersection(&board.grown(GAP.unsigned_abs()))
                .is_none(),
            "{placement:?} over {board:?}"
        );
    }

    #[test]
    fn the_hint_goes_beside_the_game_at_full_size_where_there_is_room() {
        let screen = ScreenRect::new(0, 0, 1600, 1000);
        let (w, h) = {
            let (w, h) = hint_size(8, 6, 1.0);
            FRAME.around((w as i32, h as i32))
        };
        // Room on the right.
        let (game, board) = practice(1.0, (100, 50));
        let placement = place(game, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!((placement.spot, placement.scale), (Spot::Beside, 1.0));
        assert_eq!(placement.at, (100 + 720 + GAP, 50 - GAP));
        assert!(
            outer(&placement)
                .intersection(&game.grown(GAP.unsigned_abs()))
                .is_none()
        );
        // No room on the right: on the left.
        let (game, board) = practice(1.0, (800, 50));
        let placement = place(game, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!(placement.at, (800 - GAP - w, 50 - GAP));
        assert!(
            outer(&placement)
                .intersection(&game.grown(GAP.unsigned_abs()))
                .is_none()
        );
        // A game filling the width: below, then above.
        let wide = ScreenRect::new(0, 0, 1600, 560);
        let board = ScreenRect::new(480, 40, 640, 480);
        assert_eq!(
            place(wide, board, (screen, 1.0), (8, 6)).unwrap().at,
            (0, 560 + GAP)
        );
        let wide = ScreenRect::new(0, 440, 1600, 560);
        let board = ScreenRect::new(480, 480, 640, 480);
        assert_eq!(
            place(wide, board, (screen, 1.0), (8, 6)).unwrap().at,
            (0, 440 - GAP - h)
        );
    }

    #[test]
    fn a_centred_game_on_a_small_screen_gets_the_hint_smaller_beside_it() {
        // The case: 1280x900, the practice window at its real size
        // centred, 280 pixels on either side.
        let screen = ScreenRect::new(0, 0, 1280, 900);
        let (game, board) = centred(screen, 1.0);
        let placement = place(game, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!(placement.spot, Spot::Beside);
        assert!(
            placement.scale < 1.0 && placement.scale >= 0.5,
            "{placement:?}"
        );
        assert!(
            outer(&placement)
                .intersection(&game.grown(GAP.unsigned_abs()))
                .is_none()
        );
        assert_clear(&placement, board, screen);
        assert_eq!(
            placement.to_string(),
            format!(
                "beside the game window, at {:.0}% size",
                placement.scale * 100.0
            )
        );
    }

    #[test]
    fn a_game_filling_the_screen_gets_the_hint_over_it_away_from_the_board() {
        // 1.25 times the real size: 900x700 of 1280x900, no room beside.
        let screen = ScreenRect::new(0, 0, 1280, 900);
        let (game, board) = centred(screen, 1.25);
        let placement = place(game, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!(placement.spot, Spot::Over, "{placement:?}");
        assert!(outer(&placement).intersection(&game).is_some());
        assert_clear(&placement, board, screen);
        // A full-screen game with its board in a corner: at full size.
        let screen = ScreenRect::new(0, 0, 1600, 1000);
        let board = ScreenRect::new(40, 40, 640, 480);
        let placement = place(screen, board, (screen, 1.0), (8, 6)).unwrap();
        assert_eq!((placement.spot, placement.scale), (Spot::Over, 1.0));
        assert_clear(&placement, board, screen);
    }

    #[test]
    fn a_screen_with_no_room_away_from_the_board_gets_no_hint_window() {
        // 1.5 times the real size: a 960x720 board on 1280x900 leaves 160
        // pixels on either side, less than the smallest hint with frames.
        let screen = ScreenRect::new(0, 0, 1280, 900);
        let (game, board) = centred(screen, 1.5);
        assert_eq!(place(game, board, (screen, 1.0), (8, 6)), None);
        // A screen the board alone fills.
        let board = ScreenRect::new(10, 10, 620, 460);
        assert_eq!(
            place(board, board, (ScreenRect::new(0, 0, 640, 480), 1.0), (8, 6)),
            None
        );
    }
}
