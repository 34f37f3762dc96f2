//! Hostile input that needs a desktop, on a real X server of the test's
//! own: window titles that carry escape sequences and newlines (a web page
//! sets its browser tab's), a `--window` text of a hundred kilobytes, and
//! `bot calibrate --window` next to files it must not replace.

// X11: Xvfb, openbox and xdotool.
#![cfg(unix)]

use std::process::Command;

use crate::x11_support::*;

const GAME: &str = "Dust Practice";

/// A title that would clear the terminal, retitle it and break a line.
const HOSTILE_TITLE: &str = "tab \u{1b}[2J\u{1b}]0;pwned\u{7}\nsecond line";

#[test]
fn titles_reach_the_terminal_escaped() {
    let desktop = Desktop::start();
    let _window = desktop.plain_window("to be renamed");
    let found = desktop.xdotool(&["search", "--name", "to be renamed"]);
    let id = String::from_utf8_lossy(&found.stdout)
        .lines()
        .next()
        .unwrap()
        .to_owned();
    // As a browser sets it: UTF-8 text, both names.
    for name in ["_NET_WM_NAME", "WM_NAME"] {
        let status = Command::new("xprop")
            .args(["-id", &id, "-f", name, "8u", "-set", name, HOSTILE_TITLE])
            .env("DISPLAY", &desktop.display)
            .status()
            .unwrap();
        assert!(status.success());
    }
    let listed = wait_for("the window in the list", || {
        let out = desktop.run_bot(&["windows"]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        stdout.contains("tab ").then_some(stdout)
    });
    let line = listed.lines().find(|l| l.contains("tab ")).unwrap();
    assert!(
        line.contains("tab \\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\nsecond line"),
        "{line}"
    );
    for out in [
        desktop.run_bot(&["windows"]),
        desktop.run_bot(&["--window", "no such window"]),
        desktop.run_bot(&["--window", "tab", "--dry-run"]),
    ] {
        let all = [out.stdout, out.stderr].concat();
        let text = String::from_utf8_lossy(&all);
        assert!(
            !text.contains(['\u{1b}', '\u{7}']),
            "a control character reached the terminal: {text:?}"
        );
    }
    // A hundred kilobytes of --window text: a one-line error to read.
    let long = "x".repeat(100_000);
    let out = desktop.run_bot(&["--window", &long]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.len() < 1000, "{} bytes", stderr.len());
    assert!(stderr.contains("(99940 more characters)"), "{stderr}");
}

#[test]
fn calibrate_from_the_window_replaces_nothing_and_writes_both_or_neither() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 100, GAME);
    std::fs::create_dir(desktop.path("calibration")).unwrap();
    let kept = desktop.path("calibration/mine-window.png");
    std::fs::write(&kept, "an earlier screenshot").unwrap();
    let args = [
        "calibrate",
        "--window",
        GAME,
        "--board",
        REAL_BOARD,
        "--name",
        "mine",
        "--countdown",
        "0",
    ];
    let out = desktop.run_bot(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("mine-window.png: already exists"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap(),
        "an earlier screenshot"
    );
    assert!(!desktop.path("calibration/mine.toml").exists());
    // A screenshot that cannot be kept (a folder holds its name): no
    // calibration either, even with --force.
    std::fs::remove_file(&kept).unwrap();
    std::fs::create_dir(&kept).unwrap();
    let out = desktop.run_bot(&[&args[..], &["--force"]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("nothing written"), "{stderr}");
    assert!(!desktop.path("calibration/mine.toml").exists());
    // And with room for both, both.
    std::fs::remove_dir(&kept).unwrap();
    let out = desktop.run_bot(&args);
    assert!(out.status.success(), "{out:?}");
    assert!(desktop.path("calibration/mine.toml").is_file());
    assert!(kept.is_file());
}

#[test]
fn a_window_with_no_game_says_so() {
    let desktop = Desktop::start();
    // The default calibration does not know the practice window's size:
    // with no pile, no board can be placed, which a game not started and
    // a calibration for another screen both cause.
    let empty = ["        "; 6].join(",");
    let (_game, _) = desktop.open_window(GAME, || {
        desktop.command(&["practice", "--board", &empty, "--title", GAME])
    });
    for args in [&["--window", GAME][..], &["--window", GAME, "--assist"]] {
        let out = desktop.run_bot(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("start a game if none is on"), "{stderr}");
    }
}
