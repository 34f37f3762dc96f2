//! Where the bot's own windows go on the desktop: a window manager's
//! frame around a window ([`Border`]), the scales a window is tried at
//! ([`scales`]), and the place beside the game window, or over it away
//! from its board, that has room for a window of a given size
//! ([`place_sized`]). The hint window and the desktop app's window are
//! both placed here; what goes in them is theirs.

use super::screen::ScreenRect;

/// Pixels kept between a placed window's frame and the game window (or
/// its board).
pub const GAP: i32 = 24;

/// A window manager's frame around a window, in desktop pixels: borders
/// left, right and below, and the title bar with its border above. A
/// window placed at a point has its frame's corner there, its client area
/// further right and down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Border {
    pub side: i32,
    pub top: i32,
}

impl Border {
    /// The frame Windows 10 and 11 give a window on a screen at `scale`:
    /// a resize border of 8 pixels at 100% (`SM_CXSIZEFRAME` plus
    /// `SM_CXPADDEDBORDER`, part of the window's rectangle though drawn
    /// invisible) and a caption of 23 (`SM_CYCAPTION`), both scaled with
    /// the screen as a per-monitor aware process sees them. The X11
    /// window managers' frames are thinner: the hint keeps clear there too.
    pub fn at_scale(scale: f32) -> Border {
        let scaled = |pixels: f32| (pixels * scale.max(1.0)).round() as i32;
        Border {
            side: scaled(8.0),
            top: scaled(8.0 + 23.0),
        }
    }

    /// The size of a window whose client area is `(w, h)`, its frame
    /// included.
    pub fn around(self, (w, h): (i32, i32)) -> (i32, i32) {
        (w + 2 * self.side, h + self.top + self.side)
    }
}

/// The scales a window of the bot's is tried at, biggest first, as parts of
/// the screen's scale (1.5 at 150%: a window as big to the eye as at
/// 100%); at half size its cells are 20 pixels and its caption is about
/// as small as text reads.
const SCALES: [f32; 4] = [1.0, 0.8, 0.65, 0.5];

/// The smallest scale a window of the bot's is drawn at, whatever the
/// screen's: the text as small as it reads, which a small screen at 150%
/// (a netbook's 1024x600 less its panel) needs to show the whole window.
const SMALLEST: f32 = 0.5;

/// The scales a window of the bot's is tried at on a screen at
/// `screen_scale`, biggest first: [`SCALES`] of the screen's (of 1 on a
/// screen below 100%), then [`SMALLEST`] where they stop above it.
pub fn scales(screen_scale: f32) -> Vec<f32> {
    let mut scales: Vec<f32> = SCALES
        .iter()
        .map(|part| part * screen_scale.max(1.0))
        .collect();
    if scales.last().is_some_and(|&last| last > SMALLEST) {
        scales.push(SMALLEST);
    }
    scales
}

/// Where a window of the bot's goes beside the game: its frame's top-left on the desktop, the
/// scale of its picture, and what it is next to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub at: (i32, i32),
    pub scale: f32,
    pub spot: Spot,
}

/// Beside the game window, or over its parts away from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    Beside,
    Over,
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.spot {
            Spot::Beside => "beside the game window",
            Spot::Over => "over the game window, away from its board",
        })?;
        if self.scale < 1.0 {
            write!(f, ", at {:.0}% size", self.scale * 100.0)?;
        }
        Ok(())
    }
}

/// Where a window whose client area at a scale is `size`'s goes, for
/// `game` (the game window's client area), `board` and `screen` (all on
/// the desktop, the screen's work area, at `screen_scale`): beside the
/// game window at the biggest scale that has room (to its right, left,
/// below or above), the screen's own first; else over the game window,
/// beside the board at the biggest scale that has room there; `None`
/// when neither has. The window with its frame keeps [`GAP`] from the
/// board, always. The hint window's place (`assist::window::place`) and
/// the desktop app's are both this.
pub fn place_sized(
    game: ScreenRect,
    board: ScreenRect,
    (screen, screen_scale): (ScreenRect, f32),
    size: impl Fn(f32) -> (usize, usize),
) -> Option<Placement> {
    let frame = Border::at_scale(screen_scale);
    let sizes: Vec<(f32, (i32, i32))> = scales(screen_scale)
        .into_iter()
        .map(|scale| {
            let (w, h) = size(scale);
            (scale, frame.around((w as i32, h as i32)))
        })
        .collect();
    let found = |spot: Spot, clear: ScreenRect| {
        sizes.iter().find_map(|&(scale, outer)| {
            Some(Placement {
                at: outside(clear, screen, outer)?,
                scale,
                spot,
            })
        })
    };
    let gap = GAP.unsigned_abs();
    found(Spot::Beside, game.grown(gap)).or_else(|| found(Spot::Over, board.grown(gap)))
}

/// The top-left of a window of `size` (its frame included) on `screen`
/// that does not overlap `clear`: touching its right, left, bottom or top
/// side, the first with room, and as near its top-left corner as the
/// screen allows.
fn outside(clear: ScreenRect, screen: ScreenRect, (w, h): (i32, i32)) -> Option<(i32, i32)> {
    let (left, top) = (screen.x, screen.y);
    let right = screen.x + screen.width as i32;
    let bottom = screen.y + screen.height as i32;
    let clamp_x = |x: i32| x.min(right - w).max(left);
    let clamp_y = |y: i32| y.min(bottom - h).max(top);
    let (clear_right, clear_bottom) = (clear.x + clear.width as i32, clear.y + clear.height as i32);
    let sides = [
        (clear_right, clamp_y(clear.y)),
        (clear.x - w, clamp_y(clear.y)),
        (clamp_x(clear.x), clear_bottom),
        (clamp_x(clear.x), clear.y - h),
    ];
    let fits = |&(x, y): &(i32, i32)| {
        let window = ScreenRect {
            x,
            y,
            width: w as u32,
            height: h as u32,
        };
        window.intersection(&screen) == Some(window) && window.intersection(&clear).is_none()
    };
    sides.into_iter().find(fits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_and_the_scales_follow_the_screens_scale() {
        assert_eq!(Border::at_scale(1.0), Border { side: 8, top: 31 });
        assert_eq!(Border::at_scale(0.75), Border::at_scale(1.0));
        assert_eq!(Border::at_scale(1.0).around((100, 50)), (116, 89));
        assert_eq!(scales(1.0), SCALES);
        assert_eq!(scales(0.5), SCALES);
        assert_eq!(scales(2.0), [2.0, 1.6, 1.3, 1.0, SMALLEST]);
        let at_150: Vec<f32> = SCALES.iter().map(|part| part * 1.5).collect();
        assert_eq!(scales(1.5), [at_150, vec![SMALLEST]].concat());
    }

    #[test]
    fn a_window_goes_beside_the_game_else_over_it_away_from_the_board_else_nowhere() {
        let screen = (ScreenRect::new(0, 0, 1600, 1000), 1.0);
        let game = ScreenRect::new(100, 50, 720, 560);
        let board = ScreenRect::new(140, 90, 640, 480);
        let fixed = |_: f32| (300, 200);
        let beside = place_sized(game, board, screen, fixed).unwrap();
        assert_eq!((beside.spot, beside.scale), (Spot::Beside, 1.0));
        assert_eq!(beside.at, (100 + 720 + GAP, 50 - GAP));
        assert_eq!(beside.to_string(), "beside the game window");
        // The game fills the screen: over it, away from the board.
        let over = place_sized(screen.0, board, screen, fixed).unwrap();
        assert_eq!(over.spot, Spot::Over);
        // Only a smaller size fits beside the board: that scale.
        let narrow = (
            ScreenRect::new(0, 0, 640 + 2 * GAP as u32 + 40 + 180, 600),
            1.0,
        );
        let sized = |scale: f32| ((300.0 * scale) as usize, (200.0 * scale) as usize);
        let small =
            place_sized(narrow.0, ScreenRect::new(40, 40, 640, 480), narrow, sized).unwrap();
        assert_eq!((small.spot, small.scale), (Spot::Over, 0.5));
        assert_eq!(
            small.to_string(),
            "over the game window, away from its board, at 50% size"
        );
        // No room anywhere.
        let tiny = (ScreenRect::new(0, 0, 700, 500), 1.0);
        assert_eq!(place_sized(tiny.0, tiny.0, tiny, fixed), None);
    }
}
