//! Finding the game window where there is none to find, through the real
//! binary: no display at all, or a Wayland session without X11, is a
//! one-line error that says what works, exit 2.
// DISPLAY and WAYLAND_DISPLAY mean nothing on Windows, where there is
// always a desktop.
#![cfg(unix)]

use std::process::{Command, Output, Stdio};

use crate::vision_support::assert_one_line_error;

/// Runs `bot` with `DISPLAY` unset and `WAYLAND_DISPLAY` as given.
fn without_x11(args: &[&str], wayland: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bot"));
    command
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null());
    if let Some(wayland) = wayland {
        command.env("WAYLAND_DISPLAY", wayland);
    }
    command.output().unwrap()
}

#[test]
fn a_wayland_session_without_x11_says_what_works() {
    for args in [
        &["windows"][..],
        &["--window", "Nodiatis"],
        &["--window", "Nodiatis", "--dry-run"],
    ] {
        let out = without_x11(args, Some("wayland-0"));
        assert_one_line_error(&out, "WAYLAND_DISPLAY=\"wayland-0\", no DISPLAY");
        assert_one_line_error(&out, "run the game client under XWayland");
        let out = without_x11(args, None);
        assert_one_line_error(&out, "DISPLAY is not set");
    }
}

#[cfg(unix)]
#[test]
fn a_display_name_that_is_not_text_is_called_so() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_bot"))
        .args(["windows"])
        .env("DISPLAY", std::ffi::OsStr::from_bytes(b":\xff0"))
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_one_line_error(&out, "DISPLAY is not UTF-8 text");
}
