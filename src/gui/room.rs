//! Where the app's window goes on a screen with little room (a netbook's
//! 1024x600): the place and scale at which it covers none of the windows
//! it must leave clear (every window at the start, where the game may be
//! any of them; the game's once found), partly off the screen where the
//! screen has no other; else the place least in the way, whose window
//! then asks the player to move it. Pure geometry on the desktop's pixels,
//! the window manager's frame included ([`Border`]).

use crate::desktop::ScreenRect;
use crate::desktop::place::{Border, scales};

/// How much of the window's width may lie off the screen's left or right
/// edge, as a part of it: a quarter, so that its first two columns of
/// buttons and most of each status line still show.
const OFF_SCREEN: i32 = 4;

/// A place for the window: its frame's top-left on the desktop, and the
/// scale it is drawn at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Spot {
    pub at: (i32, i32),
    pub scale: f32,
}

/// The window's size with its frame at each scale it is tried at,
/// biggest first, for a client area of `size` at a scale on a screen at
/// `screen_scale`.
fn outer_sizes(screen_scale: f32, size: &impl Fn(f32) -> (usize, usize)) -> Vec<(f32, (i32, i32))> {
    let frame = Border::at_scale(screen_scale);
    scales(screen_scale)
        .into_iter()
        .map(|scale| {
            let (w, h) = size(scale);
            let outer = (w as i32 + 2 * frame.side, h as i32 + frame.top + frame.side);
            (scale, outer)
        })
        .collect()
}

/// A place on `screen` (its work area, at `screen_scale`) where the
/// window, whose client area at a scale is `size`'s, overlaps none of
/// `clear`: at the biggest scale that has one, in a corner or beside one
/// of `clear`, the nearest the screen's top-right corner; else at the
/// smallest scale with at most a quarter of its width off the screen's
/// left or right edge; `None` where neither has room.
pub(super) fn clear_of(
    clear: &[ScreenRect],
    (screen, screen_scale): (ScreenRect, f32),
    size: impl Fn(f32) -> (usize, usize),
) -> Option<Spot> {
    let sizes = outer_sizes(screen_scale, &size);
    let on_screen = sizes.iter().find_map(|&(scale, outer)| {
        let at = first_clear(clear, screen, outer, 0)?;
        Some(Spot { at, scale })
    });
    on_screen.or_else(|| {
        let &(scale, outer) = sizes.last()?;
        let at = first_clear(clear, screen, outer, outer.0 / OFF_SCREEN)?;
        Some(Spot { at, scale })
    })
}

/// Where the window goes when every place covers some of `clear`: at the
/// smallest scale, in the corner of `screen` where it covers least of
/// them (the top-right one of equals).
pub(super) fn least_in_the_way(
    clear: &[ScreenRect],
    (screen, screen_scale): (ScreenRect, f32),
    size: impl Fn(f32) -> (usize, usize),
) -> Spot {
    let sizes = outer_sizes(screen_scale, &size);
    let (scale, (w, h)) = sizes[sizes.len() - 1];
    let covered = |at: (i32, i32)| -> u64 {
        let ours = rect(at, (w, h));
        clear
            .iter()
            .filter_map(|r| r.intersection(&ours))
            .map(|r| u64::from(r.width) * u64::from(r.height))
            .sum()
    };
    let (left, top) = (screen.x, screen.y);
    let right = (screen.x + screen.width as i32 - w).max(left);
    let bottom = (screen.y + screen.height as i32 - h).max(top);
    let corners = [(right, top), (left, top), (right, bottom), (left, bottom)];
    let mut best = corners[0];
    for corner in corners {
        if covered(corner) < covered(best) {
            best = corner;
        }
    }
    Spot { at: best, scale }
}

/// The rectangle of a window of `(w, h)` at `at`.
fn rect((x, y): (i32, i32), (w, h): (i32, i32)) -> ScreenRect {
    ScreenRect {
        x,
        y,
        width: w.max(0) as u32,
        height: h.max(0) as u32,
    }
}

/// The top-left of a window of `(w, h)` that overlaps none of `clear`,
/// all of it on `screen` but at most `spill` pixels past its left or right
/// edge: tried at the screen's corners and edges and beside each of
/// `clear`, the one nearest the screen's top-right corner.
fn first_clear(
    clear: &[ScreenRect],
    screen: ScreenRect,
    (w, h): (i32, i32),
    spill: i32,
) -> Option<(i32, i32)> {
    let (left, top) = (screen.x, screen.y);
    let (right, bottom) = (left + screen.width as i32, top + screen.height as i32);
    let mut xs = vec![left - spill, left, right - w, right - w + spill];
    let mut ys = vec![top, bottom - h];
    for r in clear {
        xs.extend([r.x + r.width as i32, r.x - w]);
        ys.extend([r.y + r.height as i32, r.y - h]);
    }
    let fits = |&(x, y): &(i32, i32)| {
        let ours = rect((x, y), (w, h));
        x >= left - spill
            && x + w <= right + spill
            && y >= top
            && y + h <= bottom
            && clear.iter().all(|r| r.intersection(&ours).is_none())
    };
    let from_top_right = |&(x, y): &(i32, i32)| (right - (x + w)).abs() + (y - top).abs();
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
        .filter(fits)
        .min_by_key(from_top_right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::{CELLS, layout::Layout};

    fn size(scale: f32) -> (usize, usize) {
        Layout::new(CELLS, scale).size
    }

    const NETBOOK: ScreenRect = ScreenRect {
        x: 0,
        y: 0,
        width: 1024,
        height: 600,
    };

    #[test]
    fn on_a_wide_screen_the_window_goes_at_full_scale_in_the_top_right_corner() {
        let game = rect((100, 100), (720, 560));
        let screen = rect((0, 0), (1600, 1000));
        let spot = clear_of(&[game], (screen, 1.0), size).unwrap();
        let (w, _) = size(1.0);
        assert_eq!(spot.scale, 1.0);
        assert_eq!(spot.at, (1600 - w as i32 - 16, 0));
    }

    #[test]
    fn on_1024x600_beside_a_centred_game_it_goes_small_and_partly_off_the_screen() {
        // The practice window as openbox centres it there.
        let game = rect((152, 29), (720, 560));
        let spot = clear_of(&[game], (NETBOOK, 1.0), size).unwrap();
        assert_eq!(spot.scale, 0.5, "{spot:?}");
        let (w, h) = size(0.5);
        let ours = rect(spot.at, (w as i32 + 16, h as i32 + 39));
        assert!(ours.intersection(&game).is_none(), "{spot:?}");
        // No more than a quarter of it off the screen, all its height on.
        let shown = ours.intersection(&NETBOOK).unwrap();
        assert!(shown.width * 4 >= ours.width * 3, "{spot:?}");
        assert_eq!(shown.height, ours.height, "{spot:?}");
    }

    #[test]
    fn a_game_that_fills_the_screen_leaves_no_place_but_the_least_in_the_way() {
        let game = rect((0, 0), (900, 600));
        assert_eq!(clear_of(&[game], (NETBOOK, 1.0), size), None);
        let spot = least_in_the_way(&[game], (NETBOOK, 1.0), size);
        let (w, _) = size(0.5);
        assert_eq!(
            spot,
            Spot {
                at: (1024 - w as i32 - 16, 0),
                scale: 0.5
            }
        );
    }

    #[test]
    fn on_1024x600_at_150_percent_above_a_panel_the_whole_window_shows_beside_the_game() {
        // A 48-pixel panel at the bottom; the game as tall as the rest.
        let work = rect((0, 0), (1024, 552));
        let game = rect((152, 0), (720, 552));
        let spot = clear_of(&[game], (work, 1.5), size).unwrap();
        assert_eq!(spot.scale, 0.5, "{spot:?}");
        let frame = Border::at_scale(1.5);
        let (w, h) = size(0.5);
        let ours = rect(spot.at, frame.around((w as i32, h as i32)));
        assert!(ours.intersection(&game).is_none(), "{spot:?}");
        let shown = ours.intersection(&work).unwrap();
        assert_eq!(shown.height, ours.height, "above the panel: {spot:?}");
        assert!(shown.width * 4 >= ours.width * 3, "{spot:?}");
    }
}
