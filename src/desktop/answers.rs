//! What the platform files (`x11.rs`, `win32.rs`, `macos.rs`) call back for,
//! below them: the rules that turn what a system answers into the floor's terms
//! (a pointer mapping or a swapped-buttons flag into the primary button,
//! an input call's refusal into its error, a hot key's thread message
//! into a press or the run's end, a console's processes into whether it
//! closes at exit, the marks into the overlay's bounds, a path into
//! Explorer's argument). Each is pure and tested on every platform,
//! whichever platform calls it.

use std::path::Path;

use super::screen::ScreenRect;
use super::words::{Button, GrabError, InputError, Mark};

/// Explorer's command line for showing `path` selected: `/select,` and
/// the path in quotes, as one argument Explorer parses itself (it takes
/// neither a quoted `"/select,PATH"` nor the path as an argument of its
/// own).
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn select_argument(path: &Path) -> String {
    format!("/select,\"{}\"", path.display())
}

/// The physical button that acts as the primary (logical button 1) under
/// an X11 pointer mapping (entry `i` is what physical button `i + 1` acts
/// as): `None` when no button it can press is the
/// primary (the bot is unsure, and does not click).
#[cfg_attr(any(windows, target_os = "macos"), allow(dead_code))]
pub(super) fn primary_of_mapping(mapping: &[u8]) -> Option<Button> {
    let physical = mapping.iter().position(|&logical| logical == 1)? + 1;
    match physical {
        1 => Some(Button::Left),
        2 => Some(Button::Middle),
        3 => Some(Button::Right),
        _ => None,
    }
}

/// The button to press for the primary on Windows, where injected
/// presses are physical: with the buttons swapped (`SM_SWAPBUTTON`, a
/// left-handed player) a `MOUSEEVENTF_LEFTDOWN` arrives as a right click,
/// and the primary is the physical right button.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn primary_when_swapped(swapped: bool) -> Button {
    if swapped { Button::Right } else { Button::Left }
}

/// What `SendInput` sending `sent` of `asked` events means: fewer were
/// refused, and Windows' isolation of an elevated window (UIPI) refuses
/// without saying so (neither the count nor `GetLastError` tells it from
/// another block, Microsoft's documentation of `SendInput`), so a refusal
/// is [`InputError::Elevated`], which says what to do.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn sent(sent: u32, asked: u32) -> Result<(), InputError> {
    if sent == asked {
        return Ok(());
    }
    Err(InputError::Elevated(format!(
        "SendInput sent {sent} of {asked} events: blocked, by the isolation of a window run as administrator (UIPI) or a locked desktop"
    )))
}

/// The error of a system call that did `what` and failed with `cause`:
/// "access is denied" (`SetCursorPos` while an elevated window is in
/// front) is [`InputError::Elevated`], any other the device's.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn refused(what: &str, cause: &std::io::Error) -> InputError {
    if cause.kind() == std::io::ErrorKind::PermissionDenied {
        InputError::Elevated(format!("{what}: {cause}"))
    } else {
        InputError::Device(format!("{what}: {cause}"))
    }
}

/// The smallest rectangle holding every rectangle of `marks`; `None`
/// for none.
pub(super) fn bounds(marks: &[Mark]) -> Option<ScreenRect> {
    let mut rects = marks.iter().flat_map(|m| &m.rects);
    let first = *rects.next()?;
    let edges = |r: &ScreenRect| (r.x, r.y, r.x + r.width as i32, r.y + r.height as i32);
    let (l, t, r, b) = rects.fold(edges(&first), |(l, t, r, b), rect| {
        let (l2, t2, r2, b2) = edges(rect);
        (l.min(l2), t.min(t2), r.max(r2), b.max(b2))
    });
    Some(ScreenRect {
        x: l,
        y: t,
        width: (r - l) as u32,
        height: (b - t) as u32,
    })
}

/// Whether a console shared by `processes` processes, the bot's parent
/// having the command line `parent`, closes when the bot exits: the bot
/// alone on it (Windows made it for a double-click or a shortcut), or
/// the bot and the `cmd.exe /c` that runs a batch file (Explorer's way of
/// running one, and the console goes when the batch file ends). An
/// interactive `cmd` (the terminal stays) runs a batch file itself,
/// without `/c`.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn closes_at_exit(processes: u32, parent: Option<&str>) -> bool {
    processes == 1 || (processes == 2 && parent.is_some_and(runs_a_batch_file))
}

/// Whether `command` is `cmd.exe /c` running a batch file (`.bat`, `.cmd`).
#[cfg_attr(not(windows), allow(dead_code))]
fn runs_a_batch_file(command: &str) -> bool {
    let command = command.to_lowercase();
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or_default().trim_matches('"');
    let cmd = program.ends_with("cmd.exe") || program == "cmd";
    let once = words.clone().any(|w| w.starts_with("/c"));
    let batch = words.any(|w| {
        let w = w.trim_matches('"');
        w.ends_with(".bat") || w.ends_with(".cmd")
    });
    cmd && once && batch
}

/// `WM_HOTKEY`: the hot key pressed, posted to the queue of the thread
/// that registered it (a hot key registered with no window has no window
/// procedure to call).
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) const WM_HOTKEY: u32 = 0x0312;

/// `WM_APP`: the message the run's end posts to that thread, to end its
/// loop (`WM_QUIT` is for `PostQuitMessage` alone, by the docs).
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) const WM_APP: u32 = 0x8000;

/// `ERROR_HOTKEY_ALREADY_REGISTERED`: another program holds the key.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) const ERROR_HOTKEY_ALREADY_REGISTERED: u32 = 1409;

/// What the key-listening thread of Windows does with a message taken
/// from its queue.
#[cfg_attr(not(windows), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HotKeyMessage {
    /// The stop key pressed: ask the stop.
    Pressed,
    /// The run ended: give the key back and end the thread.
    End,
    /// Anything else: wait on.
    Other,
}

/// [`HotKeyMessage`] of a thread message (`message`, `wparam`): only the
/// hot key `id` (the thread's) is a press.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn hot_key_message(message: u32, wparam: usize, id: i32) -> HotKeyMessage {
    match message {
        WM_HOTKEY if wparam == id as usize => HotKeyMessage::Pressed,
        WM_APP => HotKeyMessage::End,
        _ => HotKeyMessage::Other,
    }
}

/// Windows' refusal of the hot key, by the error `RegisterHotKey` left.
#[cfg_attr(not(windows), allow(dead_code))]
pub(super) fn hot_key_refused(error: u32) -> GrabError {
    if error == ERROR_HOTKEY_ALREADY_REGISTERED {
        GrabError::Taken
    } else {
        GrabError::Failed(format!("Windows refused it (error {error})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explorer_is_given_the_path_quoted_after_select() {
        let path = Path::new(r"C:\Users\Zoë Ana\AppData\Local\dustbot\report 1.html");
        assert_eq!(
            select_argument(path),
            r#"/select,"C:\Users\Zoë Ana\AppData\Local\dustbot\report 1.html""#
        );
    }

    #[test]
    fn access_denied_to_the_mouse_says_to_run_as_administrator() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let error = refused("cannot put the cursor at (5, 5)", &denied);
        assert!(matches!(error, InputError::Elevated(_)), "{error}");
        assert!(
            error.to_string().contains("as administrator too"),
            "{error}"
        );
        let other = refused("x", &std::io::Error::other("the desktop is locked"));
        assert!(matches!(other, InputError::Device(_)), "{other}");
        // SendInput sending fewer events than asked: UIPI, said as such.
        let blocked = sent(0, 1).unwrap_err();
        assert!(matches!(blocked, InputError::Elevated(_)), "{blocked}");
        assert!(
            blocked.to_string().contains("as administrator too"),
            "{blocked}"
        );
        assert!(sent(2, 2).is_ok());
    }

    #[test]
    fn the_primary_is_pressed_with_the_buttons_swapped() {
        // X11's default mapping, and a left-handed player's
        // (`xmodmap -e "pointer = 3 2 1"`).
        assert_eq!(primary_of_mapping(&[1, 2, 3, 4, 5]), Some(Button::Left));
        assert_eq!(primary_of_mapping(&[3, 2, 1, 4, 5]), Some(Button::Right));
        assert_eq!(primary_of_mapping(&[2, 1, 3]), Some(Button::Middle));
        // No button the bot can press is the primary: unsure, no click.
        assert_eq!(primary_of_mapping(&[0, 2, 3, 4, 5, 6, 7, 1]), None);
        assert_eq!(primary_of_mapping(&[2, 3]), None);
        // Windows: SM_SWAPBUTTON.
        assert_eq!(primary_when_swapped(false), Button::Left);
        assert_eq!(primary_when_swapped(true), Button::Right);
    }

    #[test]
    fn the_bounds_hold_every_marks_rectangles() {
        // (x, y, width, height)
        let rects = |all: &[(i32, i32, u32, u32)]| -> Vec<ScreenRect> {
            all.iter()
                .map(|&(x, y, width, height)| ScreenRect {
                    x,
                    y,
                    width,
                    height,
                })
                .collect()
        };
        let marks = [
            Mark {
                rects: rects(&[(10, 20, 5, 5), (-4, 30, 2, 2)]),
                colour: [255, 0, 0],
            },
            Mark {
                rects: rects(&[(50, 0, 10, 1)]),
                colour: [0, 0, 255],
            },
        ];
        assert_eq!(bounds(&marks), rects(&[(-4, 0, 64, 32)]).pop());
        assert_eq!(bounds(&[]), None);
    }

    #[test]
    fn a_console_that_closes_at_exit_keeps_a_failure_on_the_screen() {
        // A double-click, a shortcut: the bot alone on its console.
        assert!(closes_at_exit(1, None));
        // A batch file double-clicked: Explorer's cmd.exe /c runs it.
        let batch = r#"C:\WINDOWS\system32\cmd.exe /c ""C:\Users\Ana\Desktop\play dust.bat" ""#;
        assert!(closes_at_exit(2, Some(batch)));
        assert!(closes_at_exit(2, Some("cmd /C run.cmd")));
        // An interactive cmd runs the bot, or a batch file, itself.
        assert!(!closes_at_exit(2, Some(r"C:\WINDOWS\system32\cmd.exe")));
        assert!(!closes_at_exit(2, Some("powershell.exe -File run.bat")));
        assert!(!closes_at_exit(2, None));
        // cmd /c from a terminal: the terminal's shell shares the console.
        assert!(!closes_at_exit(3, Some(batch)));
    }

    #[test]
    fn the_hot_keys_thread_presses_on_its_key_ends_on_the_runs_end_and_says_a_key_taken() {
        // The registering thread's queue: its hot key is a press, the
        // run's end ends the loop, the rest (another id, a timer) waits.
        let id = crate::desktop::words::GLOBAL_KEYS[0].id;
        let wparam = id as usize;
        assert_eq!(hot_key_message(0x0312, wparam, id), HotKeyMessage::Pressed);
        assert_eq!(
            hot_key_message(0x0312, wparam + 1, id),
            HotKeyMessage::Other
        );
        assert_eq!(hot_key_message(0x8000, 0, id), HotKeyMessage::End);
        assert_eq!(hot_key_message(0x0113, wparam, id), HotKeyMessage::Other);
        // Held by another program: the run goes on, said so.
        assert!(matches!(hot_key_refused(1409), GrabError::Taken));
        let other = hot_key_refused(5).to_string();
        assert!(other.contains("error 5"), "{other}");
    }
}
