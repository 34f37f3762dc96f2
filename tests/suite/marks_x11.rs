//! The hint marked on the game's own board, on a real X server: the
//! practice window plays the game, `bot --assist` marks the next click
//! on it, and the test looks at the screen (root captures, as the bot
//! does) and plays the player with xdotool, clicking on the marks
//! themselves.
#![cfg(unix)]

use std::path::Path;
use std::process::Command;

use dustbot::vision::{self, Calibration, Reading};
use image::RgbaImage;
use serde_json::Value;
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, MapState};

use crate::x11_support::*;

const GAME: &str = "Dust Practice";

/// A board whose proven optimum is 12 clicks (found in under a second).
const TWELVE: &str = "BBRRYROG,GRYRYOBY,BRORYYGO,GYGBROOO,GBYBYRBG,OOOYBRBR";

const ANIM: u64 = 250;

/// The next click's ring colour (assist::marks).
const RING: [u8; 3] = [255, 214, 0];
/// The second click's.
const LATER: [u8; 3] = [205, 160, 40];

/// The marks windows mapped on the screen (by their class).
fn mapped_marks(display: &str) -> usize {
    let (conn, screen) = x11rb::connect(Some(display)).unwrap();
    let root = conn.setup().roots[screen].root;
    let tree = conn.query_tree(root).unwrap().reply().unwrap();
    tree.children
        .iter()
        .filter(|&&w| {
            let class = conn
                .get_property(false, w, AtomEnum::WM_CLASS, AtomEnum::STRING, 0, 64)
                .unwrap()
                .reply()
                .map(|p| p.value)
                .unwrap_or_default();
            class.starts_with(b"dustbot-marks\0")
                && conn
                    .get_window_attributes(w)
                    .unwrap()
                    .reply()
                    .is_ok_and(|a| a.map_state == MapState::VIEWABLE)
        })
        .count()
}

/// The cell `(x, y)`'s centre and the pitch, from a hint line's grid.
fn centre(line: &Value, (x, y): (u8, u8)) -> ((f64, f64), f64) {
    let g = &line["geometry"];
    let f = |k: &str| g[k].as_f64().unwrap();
    let row_from_top = f64::from(5 - y);
    (
        (
            f("x") + (f64::from(x) + 0.5) * f("pitch_x"),
            f("y") + (row_from_top + 0.5) * f("pitch_y"),
        ),
        f("pitch_x"),
    )
}

/// The next click's cell in a hint line.
fn next_cell(line: &Value) -> (u8, u8) {
    let n = &line["next"];
    (
        n["x"].as_u64().unwrap() as u8,
        n["y"].as_u64().unwrap() as u8,
    )
}

/// The points in the middle of the four sides of the ring around the
/// cell at `centre`, `pitch` wide: in the band between cells.
fn ring_points(((cx, cy), pitch): ((f64, f64), f64)) -> [(u32, u32); 4] {
    let d = 0.49 * pitch;
    [(cx, cy - d), (cx, cy + d), (cx - d, cy), (cx + d, cy)].map(|(x, y)| (x as u32, y as u32))
}

fn ringed(shot: &RgbaImage, points: &[(u32, u32)]) -> bool {
    points
        .iter()
        .all(|&(x, y)| shot.get_pixel(x, y).0[..3] == RING)
}

fn calibration() -> Calibration {
    Calibration::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/calibration/nodiatis.toml"
    )))
    .unwrap()
}

/// The cells read, their colours, confidences and doubts: what must not
/// change.
fn cells(reading: &Reading) -> Vec<String> {
    reading
        .cells
        .iter()
        .map(|c| format!("{} {:?} {} {:?}", c.cell, c.colour, c.confidence, c.doubt))
        .collect()
}

#[test]
fn the_next_click_is_marked_on_the_board_and_no_read_sees_it() {
    let desktop = Desktop::start();
    let game = desktop.practice(TWELVE, ANIM, GAME);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    // The pointer away from the board: no hover glow in either capture.
    desktop.xdotool(&["mousemove", "1500", "900"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let before = screenshot(&desktop.display);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    let first = hint(&log, 0);
    let hinted = centre(&first, next_cell(&first));
    let after = wait_for("the mark on the board", || {
        let shot = screenshot(&desktop.display);
        ringed(&shot, &ring_points(hinted)).then_some(shot)
    });
    // Every cell's reading window as the game drew it, the hinted one's
    // too; the mark's pixels all in the band between cells.
    let (_, pitch) = hinted;
    for x in 0..8 {
        for y in 0..6 {
            let ((cx, cy), _) = centre(&first, (x, y));
            let half = 0.4 * pitch;
            for py in (cy - half) as u32..=(cy + half) as u32 {
                for px in (cx - half) as u32..=(cx + half) as u32 {
                    assert_eq!(
                        before.get_pixel(px, py),
                        after.get_pixel(px, py),
                        "({px}, {py}) in cell ({x}, {y})'s reading window"
                    );
                }
            }
        }
    }
    // The quieter mark of the click after it is there too, on the board.
    let ((x0, y0), _) = centre(&first, (0, 5));
    let board = image::imageops::crop_imm(
        &after,
        (x0 - pitch / 2.0) as u32,
        (y0 - pitch / 2.0) as u32,
        (8.0 * pitch) as u32,
        (6.0 * pitch) as u32,
    )
    .to_image();
    let second = board.pixels().filter(|p| p.0[..3] == LATER).count();
    assert!(second > 0, "no pixel of the second click's mark");
    // The bot's own reads of the two captures: the same board, cell by
    // cell the same colours and confidences, at the same place.
    let cal = calibration();
    let (without, with) = (
        desktop.client_pixels(&game.id, &before),
        desktop.client_pixels(&game.id, &after),
    );
    let found = vision::read(&without, &cal, None).unwrap();
    let marked = vision::read_at(&with, &cal, &found.geometry);
    assert_eq!(cells(&marked), cells(&found));
    assert_eq!(marked.board().unwrap().to_string(), TWELVE);
    // A search through the marks finds the same board (a grid a fraction
    // of a pixel off: the bot never searches with them shown).
    let searched = vision::read(&with, &cal, None).unwrap();
    assert_eq!(searched.board().unwrap().to_string(), TWELVE);
    // The README's picture, when asked for.
    if let Some(path) = std::env::var_os("DUSTBOT_MARKS_PICTURE") {
        with.save(path).unwrap();
    }
    bot.interrupt();
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert!(
        run.stdout
            .contains("hints marked on the board (the bot's captures show the marks, "),
        "{}",
        run.dump()
    );
    // The run is over: no mark stays (the game repaints what the marks
    // covered a moment after they go).
    assert_eq!(mapped_marks(&desktop.display), 0);
    wait_for("the ring gone from the screen", || {
        (!ringed(&screenshot(&desktop.display), &ring_points(hinted))).then_some(())
    });
}

#[test]
fn a_player_clicking_on_the_marks_clears_in_the_proven_optimum() {
    assert_eq!(proven_optimum(TWELVE), 12);
    let desktop = Desktop::start();
    let game = desktop.practice(TWELVE, ANIM, GAME);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(
        GAME,
        &[
            "--assist",
            "--hints",
            "board",
            "--hint-log",
            log.to_str().unwrap(),
        ],
    );
    let mut n = 0;
    loop {
        let line = hint(&log, n);
        if line["cleared"] == true {
            break;
        }
        assert!(n < 20, "too many hints");
        // The player clicks the ring's top side, inside the hinted cell:
        // the click goes through the mark to the game.
        let points = ring_points(centre(&line, next_cell(&line)));
        wait_for("the mark of the next click", || {
            ringed(&screenshot(&desktop.display), &points).then_some(())
        });
        let (x, y) = points[0];
        let ((_, cy), pitch) = centre(&line, next_cell(&line));
        // Just inside the cell, on the mark.
        let y = y.max((cy - 0.47 * pitch) as u32);
        assert_eq!(screenshot(&desktop.display).get_pixel(x, y).0[..3], RING);
        desktop.click((i64::from(x), i64::from(y)));
        n += 1;
        hint(&log, n);
    }
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert_eq!(game.clicks().len(), 12, "{}", run.dump());
    assert!(
        run.stdout
            .contains("cleared in 12 clicks (optimum 12 proven at the start)"),
        "{}",
        run.dump()
    );
    // Board only: no hint window.
    assert!(!run.stdout.contains("hint window \""), "{}", run.dump());
}

#[test]
fn the_mark_goes_under_a_window_over_the_board_follows_the_game_and_escape_in_the_hint_window_ends_the_hints()
 {
    let desktop = Desktop::start();
    let game = desktop.practice(TWELVE, ANIM, GAME);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    let first = hint(&log, 0);
    let points = ring_points(centre(&first, next_cell(&first)));
    wait_for("the mark", || {
        ringed(&screenshot(&desktop.display), &points).then_some(())
    });
    assert_eq!(mapped_marks(&desktop.display), 1);
    // An xterm over the whole board: the mark goes, not over it.
    let xterm = desktop.open_window("Over the board", || {
        let mut command = Command::new("xterm");
        command
            .args([
                "-T",
                "Over the board",
                "-geometry",
                "120x50+0+0",
                "-e",
                "sleep",
                "120",
            ])
            .env("DISPLAY", &desktop.display);
        command
    });
    wait_for("the mark to go", || {
        (mapped_marks(&desktop.display) == 0).then_some(())
    });
    assert!(!ringed(&screenshot(&desktop.display), &points));
    // The xterm gone, the mark is back.
    drop(xterm);
    wait_for("the mark to come back", || {
        ringed(&screenshot(&desktop.display), &points).then_some(())
    });
    // The game window moved: the mark follows it (with the hint line the
    // move brings).
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "100"]);
    let moved = hint(&log, 1);
    assert_ne!(moved["geometry"], first["geometry"]);
    let points = ring_points(centre(&moved, next_cell(&moved)));
    wait_for("the mark where the board is now", || {
        ringed(&screenshot(&desktop.display), &points).then_some(())
    });
    // Escape in the hint window ends the hints, said as Escape (it was
    // said as Ctrl-C).
    let id = desktop.visible("Dust Hint").expect("the hint window");
    desktop.key_in(&id, "Escape");
    let run = bot.finish();
    let stopped = run.stdout.contains("stopped by Escape after 0 click(s)");
    assert!(run.code == Some(0) && stopped, "{}", run.dump());
    assert!(game.clicks().is_empty());
    assert_eq!(mapped_marks(&desktop.display), 0);
}
