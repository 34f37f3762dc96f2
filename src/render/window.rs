//! The game window around the board in sample screenshots: a title bar,
//! a menu, a chat panel with text and coloured status bars, an inventory
//! of small coloured icons (some in the dust hues, which a reader must not
//! take for piles), buttons and a wooden frame around the board. The user
//! interface keeps its size whatever the board's scale, as a game client
//! does when only its play area zooms.

use super::Look;
use super::canvas::{Canvas, srgb};
use super::noise::{self, NoiseStream};
use crate::colour::{linear_from_cielab, oklab_from_linear};

const TITLE: usize = 26;
const MENU: usize = 22;
const LEFT: usize = 250;
const RIGHT: usize = 200;
const HEADER: usize = 44;
const FOOTER: usize = 90;
const GAP: usize = 24;
const FRAME: usize = 8;
/// The smallest window, as the game client's.
const MIN_SIZE: (usize, usize) = (1280, 800);

const WINDOW: [u8; 3] = [38, 34, 30];
const PANEL: [u8; 3] = [28, 26, 24];
const TEXT: [u8; 3] = [205, 196, 170];
const WOOD: [u8; 3] = [58, 48, 40];
/// The interface's text size (the em, in pixels).
const TEXT_SIZE: f32 = 15.0;

const WORDS: [&str; 24] = [
    "anyone", "selling", "dust", "swamp", "guild", "raid", "tonight", "need", "healer", "for",
    "the", "crypt", "lol", "gg", "trade", "gems", "who", "has", "a", "map", "wts", "ore", "brb",
    "nice",
];
const NAMES: [&str; 6] = ["Aldric", "Mira", "Thorn", "Vex", "Oona", "Brask"];

/// A window for a board picture of `board` pixels; returns it with the
/// board's top-left corner.
pub(crate) fn window(board: (usize, usize), look: &Look, seed: u64) -> (Canvas, (usize, usize)) {
    let (bw, bh) = board;
    let width = MIN_SIZE.0.max(LEFT + 2 * (GAP + FRAME) + bw + RIGHT);
    let height = MIN_SIZE
        .1
        .max(TITLE + MENU + HEADER + 2 * FRAME + bh + FOOTER);
    let mut c = Canvas::new(width, height, WINDOW);
    let mut stream = NoiseStream::new(noise::hash(seed, 0x1d, 0));
    let (w, h) = (width as i64, height as i64);
    // Title bar with its buttons, and the menu.
    c.fill(0, 0, w, TITLE as i64, [52, 60, 84]);
    let line = super::font::line_height(TEXT_SIZE).round() as i64;
    let middle = |top: i64, height: i64| top + (height - line) / 2;
    c.text(
        10,
        middle(0, TITLE as i64),
        "Nodiatis - Dust",
        TEXT_SIZE,
        [232, 232, 236],
    );
    for (i, colour) in [[90, 96, 110], [90, 96, 110], [176, 64, 56]]
        .iter()
        .enumerate()
    {
        c.fill(w - 30 * (3 - i as i64) - 6, 5, 24, 16, *colour);
    }
    c.fill(0, TITLE as i64, w, MENU as i64, [196, 192, 184]);
    let mut x = 10;
    for item in ["File", "Character", "Inventory", "Map", "Guild", "Help"] {
        c.text(
            x,
            middle(TITLE as i64, MENU as i64),
            item,
            TEXT_SIZE,
            [30, 30, 34],
        );
        x += text_width(item) + 24;
    }
    let top = (TITLE + MENU) as i64;
    // Chat panel: health and mana bars, then lines of chat.
    c.fill(0, top, LEFT as i64, h - top, PANEL);
    c.fill(12, top + 12, 200, 8, [170, 40, 40]);
    c.fill(12, top + 26, 200, 8, [40, 80, 170]);
    let mut y = top + 48;
    while y + 14 < h - 12 {
        let name = NAMES[(stream.next() * NAMES.len() as f32) as usize];
        let mut line = format!("{name}:");
        for _ in 0..stream.range(2.0, 5.0) as usize {
            line.push(' ');
            line.push_str(WORDS[(stream.next() * WORDS.len() as f32) as usize]);
        }
        while text_width(&line) > LEFT as i64 - 20 {
            line.pop();
        }
        c.text(10, y, &line, TEXT_SIZE, TEXT);
        y += 20;
    }
    // Inventory: slots, some holding a small coloured icon.
    let right = w - RIGHT as i64;
    c.fill(right, top, RIGHT as i64, h - top, PANEL);
    c.text(right + 12, top + 6, "Inventory", TEXT_SIZE, TEXT);
    let dust: Vec<[u8; 3]> = look
        .piles
        .iter()
        .map(|&lab| {
            let [l, a, b] = oklab_from_linear(linear_from_cielab(lab));
            srgb([l + 0.15, a * 1.4, b * 1.4])
        })
        .collect();
    let others = [
        [150, 90, 200],
        [230, 230, 230],
        [140, 100, 60],
        [60, 170, 90],
    ];
    for row in 0..8 {
        for column in 0..6 {
            let (sx, sy) = (right + 12 + column * 30, top + 36 + row * 30);
            c.fill(sx, sy, 24, 24, [50, 46, 42]);
            c.fill(sx + 1, sy + 1, 22, 22, [34, 31, 28]);
            let pick = stream.next();
            if pick < 0.6 {
                let colour = if pick < 0.35 {
                    dust[(stream.next() * dust.len() as f32) as usize % dust.len().max(1)]
                } else {
                    others[(stream.next() * others.len() as f32) as usize % others.len()]
                };
                icon(&mut c, sx + 4, sy + 4, colour, stream.next());
            }
        }
    }
    // The play area: a title above the board, the board in a wooden frame,
    // the clock, the click count and buttons below.
    let area = (LEFT as i64, w - RIGHT as i64);
    let bx = (area.0 + area.1 - bw as i64) / 2;
    let spare = h - top - (HEADER + 2 * FRAME + bh + FOOTER) as i64;
    let by = top + HEADER as i64 + FRAME as i64 + spare / 2;
    c.text(
        bx,
        by - FRAME as i64 - 30,
        "Dust - clear the board",
        TEXT_SIZE,
        TEXT,
    );
    let f = FRAME as i64;
    frame(&mut c, (bx, by), (bw as i64, bh as i64), f);
    let below = by + bh as i64 + f + 14;
    let seconds = 20 + (stream.next() * 40.0) as u32;
    c.text(
        bx,
        below,
        &format!("Time 0:{seconds:02}   Clicks 0"),
        TEXT_SIZE,
        TEXT,
    );
    let mut x = bx;
    for label in ["New game", "Hint", "Quit"] {
        // 12 pixels a letter, the text centred: a narrower blue button
        // is the size of a pile, which a reader may take for one.
        let bw = label.len() as i64 * 12 + 20;
        c.fill(x, below + 26, bw, 28, [70, 84, 120]);
        c.fill(x, below + 26, bw, 2, [110, 124, 160]);
        c.text(
            x + (bw - text_width(label)) / 2,
            middle(below + 26, 28),
            label,
            TEXT_SIZE,
            [240, 240, 240],
        );
        x += bw + 12;
    }
    (c, (bx as usize, by as usize))
}

/// The width of `text` in the interface's font, in pixels.
fn text_width(text: &str) -> i64 {
    super::font::text_width(text, TEXT_SIZE)
}

/// A wooden frame `width` pixels wide around the board at `at` of `size`
/// pixels, lit from the top-left, with a dark groove next to the board.
pub fn frame(c: &mut Canvas, at: (i64, i64), size: (i64, i64), width: i64) {
    let ((x, y), (w, h), f) = (at, size, width);
    let light = (f / 4).max(1);
    c.fill(x - f, y - f, w + 2 * f, h + 2 * f, WOOD);
    c.fill(x - f, y - f, w + 2 * f, light, [96, 84, 70]);
    c.fill(x - f, y - f, light, h + 2 * f, [96, 84, 70]);
    c.fill(
        x - light,
        y - light,
        w + 2 * light,
        h + 2 * light,
        [20, 18, 16],
    );
}

/// A 16-pixel icon: a gem, a coin or a rune, by `kind` (0..1).
fn icon(c: &mut Canvas, x: i64, y: i64, colour: [u8; 3], kind: f32) {
    let dark = colour.map(|v| v / 2);
    if kind < 0.33 {
        // A gem: a diamond.
        for row in 0..16i64 {
            let half = 8 - (row - 8).abs();
            c.fill(x + 8 - half, y + row, 2 * half, 1, colour);
        }
        c.fill(x + 6, y + 5, 3, 3, [250, 250, 250]);
    } else if kind < 0.66 {
        // A coin: a disc with a rim.
        for row in 0..16i64 {
            let dy = row as f32 - 7.5;
            let half = (64.0 - dy * dy).max(0.0).sqrt() as i64;
            c.fill(x + 8 - half, y + row, 2 * half, 1, dark);
            c.fill(x + 9 - half, y + row, 2 * half - 2, 1, colour);
        }
    } else {
        // A rune: a square stone with a mark.
        c.fill(x, y, 16, 16, dark);
        c.fill(x + 2, y + 2, 12, 12, colour);
        c.fill(x + 7, y + 4, 2, 8, dark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_fits_the_board_and_grows_for_big_boards() {
        let look = Look::nodiatis();
        let (small, (x, y)) = window((320, 240), &look, 1);
        assert_eq!((small.width, small.height), MIN_SIZE);
        assert!(x > LEFT && x + 320 < small.width - RIGHT);
        assert!(y > TITLE + MENU && y + 240 < small.height);
        // The frame surrounds the board.
        assert_eq!(small.get(x - FRAME + 3, y + 100), WOOD);
        let (big, (x, y)) = window((1280, 960), &look, 1);
        assert!(big.width >= x + 1280 + RIGHT && big.height >= y + 960 + FOOTER);
    }

    #[test]
    fn icons_are_small_and_colourful() {
        let mut c = Canvas::new(20, 20, [0, 0, 0]);
        for kind in [0.1, 0.5, 0.9] {
            c.fill(0, 0, 20, 20, [0, 0, 0]);
            icon(&mut c, 2, 2, [240, 200, 40], kind);
            let lit: Vec<(usize, usize)> = (0..20)
                .flat_map(|y| (0..20).map(move |x| (x, y)))
                .filter(|&(x, y)| c.get(x, y) != [0, 0, 0])
                .collect();
            assert!(lit.len() > 60, "{kind}");
            assert!(
                lit.iter()
                    .all(|&(x, y)| (2..18).contains(&x) && (2..18).contains(&y))
            );
        }
    }
}
