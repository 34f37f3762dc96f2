//! `bot solve` through the real binary: bad option values get a one-line
//! error naming the problem and exit code 2, never a panic or clap's
//! multi-line usage text.

mod vision_support;

use vision_support::{assert_one_line_error, bot};

const REAL: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";

fn run(args: &[&str]) -> std::process::Output {
    bot(&std::env::temp_dir(), args)
}

#[test]
fn unknown_strategy_is_a_one_line_error() {
    let out = run(&["solve", REAL, "--strategy", "fastest"]);
    assert_one_line_error(&out, "fastest");
    // The line says what would have been accepted.
    assert_one_line_error(&out, "shortlook");
    let out = run(&["bench", "--strategies", "optimal,fastest"]);
    assert_one_line_error(&out, "fastest");
}

#[test]
fn zero_or_negative_time_is_a_one_line_error() {
    for time in ["0", "-1", "-0.5", "soon"] {
        let out = run(&["solve", REAL, "--time", time]);
        assert_one_line_error(&out, &format!("{time:?}"));
        let joined = format!("--time={time}");
        let out = run(&["solve", &joined, REAL]);
        assert_one_line_error(&out, &format!("{time:?}"));
    }
    let out = run(&["bench", "--cap", "-2"]);
    assert_one_line_error(&out, "\"-2\"");
}

#[test]
fn unknown_option_and_missing_board_are_one_line_errors() {
    let out = run(&["solve", "--fast", REAL]);
    assert_one_line_error(&out, "--fast");
    let out = run(&["solve"]);
    assert_one_line_error(&out, "<BOARD>");
}

#[test]
fn help_still_prints_in_full() {
    let out = run(&["solve", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Usage: bot solve"), "{stdout}");
    assert!(stdout.contains("--strategy"), "{stdout}");
}
