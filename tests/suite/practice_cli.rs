//! `bot practice` through the real binary: the board `--optimum N` opens
//! has a proven optimum of exactly N clicks, and the seed repeats it; an
//! option out of its range is a one-line error. (The window itself is
//! tested with live play, in `tests/suite/live_x11.rs`; here there is no
//! display, so the run ends after choosing the board.)
// Without DISPLAY the window cannot open on Linux; on Windows it opens,
// and the run would wait for it to be closed.
#![cfg(unix)]

use std::process::{Command, Output, Stdio};

fn practice(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bot"))
        .arg("practice")
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The board string a practice run printed.
fn board_of(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .find(|l| l.matches(',').count() == 5)
        .unwrap_or_else(|| panic!("no board in {stdout}"))
        .to_owned()
}

#[test]
fn a_board_of_the_optimum_asked_for() {
    let out = practice(&["--optimum", "12", "--seed", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("drawn from seed 3 has a proven optimum of 12 clicks"),
        "{stdout}"
    );
    let board = board_of(&out);
    let solved = Command::new(env!("CARGO_BIN_EXE_bot"))
        .args(["solve", "--json", &board])
        .output()
        .unwrap();
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&solved.stdout).trim()).unwrap();
    assert_eq!(json["length"], 12, "{json}");
    assert_eq!(json["proven_optimal"], true, "{json}");
    // The same seed, the same board.
    assert_eq!(
        board_of(&practice(&["--optimum", "12", "--seed", "3"])),
        board
    );
}

#[test]
fn an_optimum_outside_the_levels_is_a_one_line_error() {
    for bad in ["8", "14", "x"] {
        let out = practice(&["--optimum", bad]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("--optimum"), "{stderr}");
    }
}

#[test]
fn a_next_after_out_of_its_range_is_a_one_line_error() {
    for (bad, why) in [
        ("60001", "must be 0 to 60000 ms"),
        ("-1", "must be 0 to 60000 ms"),
        ("soon", "not a whole number"),
    ] {
        let out = practice(&["--next-after", bad]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("--next-after") && stderr.contains(why),
            "{stderr}"
        );
    }
}
