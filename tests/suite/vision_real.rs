//! Reads the real screenshot (`../shared/real/dust-game.png`): with the
//! committed default calibration, with one learned from it, at other
//! scales inside a busy window, and as JPEG.

use crate::vision_support::*;
use dustbot::vision::{self, Calibration};

fn default_calibration() -> Calibration {
    Calibration::load(&repo("calibration/nodiatis.toml")).unwrap()
}

#[test]
fn default_calibration_reads_the_real_screenshot_exactly() {
    let (image, truth) = real();
    let reading = vision::read(&image, &default_calibration(), None).unwrap();
    assert_eq!(reading.board().unwrap(), truth);
    assert!(
        reading.min_confidence() >= 0.6,
        "{}",
        reading.confidence_grid()
    );
}

#[test]
fn learned_calibration_reads_the_real_screenshot_exactly() {
    let (image, truth) = real();
    let calibration = vision::learn(&image, &truth).unwrap();
    let reading = vision::read(&image, &calibration, None).unwrap();
    assert_eq!(reading.board().unwrap(), truth);
    let g = reading.geometry;
    assert!(
        (g.pitch_x - 80.0).abs() < 1.5 && (g.pitch_y - 80.0).abs() < 1.5,
        "{g:?}"
    );
}

#[test]
fn clustering_names_the_colours_as_the_rules_do() {
    let (image, truth) = real();
    let (_, board) = vision::cluster_colours(&image, 8, 6).unwrap();
    assert_eq!(board, truth);
}

#[test]
fn finds_the_board_at_half_to_twice_the_size_in_a_busy_window() {
    let (image, truth) = real();
    let calibration = default_calibration();
    for (scale, size, at) in [
        (1.0, (1280, 800), (300, 120)),
        (0.5, (1280, 800), (700, 400)),
        (0.75, (1280, 800), (250, 60)),
        (1.5, (1280, 1000), (220, 50)),
        (2.0, (1600, 1100), (200, 60)),
    ] {
        let window = in_window(&image, scale, size, at);
        let reading = vision::read(&window, &calibration, None).unwrap();
        let g = reading.geometry;
        assert_eq!(
            reading
                .board()
                .unwrap_or_else(|e| panic!("scale {scale}: {e}\n{}", reading.confidence_grid())),
            truth,
            "scale {scale}"
        );
        assert!(
            (g.pitch_x / scale - 80.0).abs() < 2.0,
            "scale {scale}: {g:?}"
        );
        // The stored geometry of the last read is the fast path.
        let again = vision::read(&window, &calibration, Some(&g)).unwrap();
        assert_eq!(again.geometry, g);
    }
}

#[test]
fn reads_a_jpeg_of_the_real_screenshot() {
    let (image, truth) = real();
    let calibration = default_calibration();
    for quality in [90, 75] {
        let reading = vision::read(&jpeg(&image, quality), &calibration, None).unwrap();
        assert_eq!(reading.board().unwrap(), truth, "quality {quality}");
    }
}

#[test]
fn a_wrong_hint_is_not_trusted() {
    let (image, truth) = real();
    let calibration = default_calibration();
    let window = in_window(&image, 1.0, (1280, 800), (300, 120));
    let good = vision::read(&window, &calibration, None).unwrap().geometry;
    let mut shifted = good;
    shifted.x += good.pitch_x;
    let reading = vision::read(&window, &calibration, Some(&shifted)).unwrap();
    assert_eq!(reading.board().unwrap(), truth);
    assert!((reading.geometry.x - good.x).abs() < 1.0);
}

#[test]
fn reads_every_board_of_the_seed_game_mid_game_in_a_window() {
    let calibration = default_calibration();
    let boards = seed_boards();
    assert!(boards.len() >= 11);
    for board in boards.iter().filter(|b| !b.is_cleared()) {
        let image = mid_game(board);
        // Crops of the board alone, and the board in a window.
        let crop = vision::read(&image, &calibration, None).and_then(|r| r.board());
        assert_eq!(crop, Ok(*board));
        let small =
            image::imageops::resize(&image, 386, 282, image::imageops::FilterType::Triangle);
        let small_crop = vision::read(&small, &calibration, None).and_then(|r| r.board());
        assert_eq!(small_crop, Ok(*board), "a 0.6 crop");
        for (scale, at) in [(1.0, (300, 120)), (0.6, (500, 300))] {
            let window = in_window(&image, scale, (1280, 800), at);
            let reading = vision::read(&window, &calibration, None)
                .unwrap_or_else(|e| panic!("{board:?} at {scale}: {e}"));
            assert_eq!(
                reading.board().unwrap_or_else(|e| panic!(
                    "{board:?} at {scale}: {e}\n{}",
                    reading.confidence_grid()
                )),
                *board,
                "scale {scale}"
            );
        }
    }
}

#[test]
fn reads_mid_game_boards_at_other_scales_and_as_jpeg() {
    let calibration = default_calibration();
    let boards = seed_boards();
    // Boards with cyan piles at the edges of their rows (the hardest to
    // find) and with empty columns on either side.
    for index in [2, 5, 7, 9] {
        let board = &boards[index];
        let image = mid_game(board);
        for (scale, quality) in [(0.5, 85), (1.25, 0), (2.0, 60)] {
            let size = ((643.0 * scale) as u32 + 300, (470.0 * scale) as u32 + 250);
            let mut window = in_window(&image, scale, size, (150, 100));
            if quality > 0 {
                window = jpeg(&window, quality);
            }
            let reading = vision::read(&window, &calibration, None)
                .unwrap_or_else(|e| panic!("board {index} at {scale}, q {quality}: {e}"));
            let read = reading.board().unwrap_or_else(|e| {
                panic!(
                    "board {index} at {scale}, q {quality}: {e}\n{}",
                    reading.confidence_grid()
                )
            });
            assert_eq!(read, *board, "board {index} at {scale}, q {quality}");
        }
    }
}
