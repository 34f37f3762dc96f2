//! The console the bot runs in, as a double-clicked `bot.exe` meets it on
//! Windows: Windows 10's console host draws escape codes as text until
//! virtual-terminal processing is on, so colour waits for it ([`colour`]);
//! a click in the console starts a QuickEdit selection that freezes the
//! bot at its next write, so QuickEdit is off while the guided session
//! runs and the player's mode is back after ([`QuickEditOff`]); a
//! console made for the bot closes with it, so every way out (an error,
//! a panic, the second Ctrl-C) waits for Enter first ([`hold_if_closing`]);
//! a file the player must find again is shown in Explorer
//! ([`show_in_explorer`]). The decisions are pure functions of the mode
//! bits, tested on every platform; elsewhere than Windows there is no
//! console mode, and each of these does nothing.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use super::platform;
use super::words::Stream;

/// Output: escape sequences are drawn, not printed
/// (`ENABLE_VIRTUAL_TERMINAL_PROCESSING`).
pub(super) const VIRTUAL_TERMINAL: u32 = 0x0004;
/// Output: control characters (`\n`, `\r`, backspace) act as such
/// (`ENABLE_PROCESSED_OUTPUT`); VT processing needs it.
pub(super) const PROCESSED_OUTPUT: u32 = 0x0001;
/// Input: a click or drag selects text and stops the program's writes
/// until the selection ends (`ENABLE_QUICK_EDIT_MODE`).
pub(super) const QUICK_EDIT: u32 = 0x0040;
/// Input: the QuickEdit and insert bits are taken from the mode given
/// only with this set (`ENABLE_EXTENDED_FLAGS`).
pub(super) const EXTENDED_FLAGS: u32 = 0x0080;

/// The output mode `mode` with escape sequences drawn.
fn with_colour(mode: u32) -> u32 {
    mode | PROCESSED_OUTPUT | VIRTUAL_TERMINAL
}

/// The input mode `mode` without QuickEdit (and the flag that makes
/// Windows read that bit).
fn without_quick_edit(mode: u32) -> u32 {
    (mode & !QUICK_EDIT) | EXTENDED_FLAGS
}

/// Whether escape codes show as colour on an output whose console mode
/// was `before` (`None`: no console, a pipe, a file or a Unix terminal,
/// which the console mode does not decide) once `set` is what setting
/// [`with_colour`] did.
fn colour_shows(before: Option<u32>, set: impl FnOnce(u32) -> bool) -> bool {
    match before {
        None => true,
        Some(mode) if with_colour(mode) == mode => true,
        Some(mode) => set(with_colour(mode)),
    }
}

/// Turns virtual-terminal processing on for standard output and error,
/// and says whether escape codes now show as colour on standard output:
/// false on a console that does not take it (an old console host), where
/// text goes out plain. Call it before any colour; it may be called
/// again (it sets nothing twice). Whether the output is a terminal at
/// all is the caller's question.
pub fn colour() -> bool {
    let set = |stream| move |mode| platform::set_console_mode(stream, mode);
    colour_shows(platform::console_mode(Stream::Error), set(Stream::Error));
    colour_shows(platform::console_mode(Stream::Output), set(Stream::Output))
}

/// The input mode before QuickEdit was turned off, to restore (the low 32
/// bits), with bit 32 set while there is one.
static INPUT_MODE_BEFORE: AtomicU64 = AtomicU64::new(0);
const SAVED: u64 = 1 << 32;

/// QuickEdit off on the console's input while this lives: a click in the
/// console then no longer freezes the bot. The player's mode is restored
/// when it is dropped, and by [`restore_input_mode`] on the ways out that
/// drop nothing (the second Ctrl-C ends the process at once): the
/// console may be a terminal the player goes on using.
#[derive(Debug)]
#[must_use = "QuickEdit is back on when this is dropped"]
pub struct QuickEditOff(());

/// Turns QuickEdit off for as long as the value returned lives (see
/// [`QuickEditOff`]); nothing is changed where there is no console input
/// or QuickEdit is off already.
pub fn quick_edit_off() -> QuickEditOff {
    #[cfg(unix)]
    keep_terminal_mode();
    if let Some(mode) = platform::console_mode(Stream::Input) {
        let off = without_quick_edit(mode);
        if off != mode && platform::set_console_mode(Stream::Input, off) {
            INPUT_MODE_BEFORE.store(SAVED | u64::from(mode), Ordering::SeqCst);
        }
    }
    QuickEditOff(())
}

impl Drop for QuickEditOff {
    fn drop(&mut self) {
        restore_input_mode();
    }
}

/// Puts back the console input mode [`quick_edit_off`] changed, if it
/// changed one; once.
pub fn restore_input_mode() {
    let saved = INPUT_MODE_BEFORE.swap(0, Ordering::SeqCst);
    if saved & SAVED != 0 {
        platform::set_console_mode(Stream::Input, saved as u32);
    }
    #[cfg(unix)]
    if let Some(mode) = TERMINAL_BEFORE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
    {
        // A key read in raw mode when the process ends (a request to end
        // while the menu waits) would leave the player's terminal raw.
        let _ = rustix::termios::tcsetattr(
            std::io::stdin(),
            rustix::termios::OptionalActions::Now,
            &mode,
        );
    }
}

/// The terminal's mode when the session started (Unix), to put back on
/// the ways out that end a key's read in raw mode.
#[cfg(unix)]
static TERMINAL_BEFORE: std::sync::Mutex<Option<rustix::termios::Termios>> =
    std::sync::Mutex::new(None);

/// Keeps the terminal's mode as it is now (see [`TERMINAL_BEFORE`]).
#[cfg(unix)]
fn keep_terminal_mode() {
    if let Ok(mode) = rustix::termios::tcgetattr(std::io::stdin()) {
        *TERMINAL_BEFORE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(mode);
    }
}

/// Whether the console closes when the bot exits (a double-click, a
/// shortcut, a batch file run from Explorer: see
/// [`super::answers::closes_at_exit`]); then waits for Enter, so that what was
/// said last can be read. Every way out of a run that failed takes it.
pub fn hold_if_closing() {
    if platform::console_closes_at_exit() {
        use std::io::Write as _;
        // A console that cannot be written is no reason to panic here.
        writeln!(std::io::stdout(), "Press Enter to close this window.").ok();
        std::io::stdout().flush().ok();
        std::io::stdin().read_line(&mut String::new()).ok();
    }
}

/// Shows `path` selected in a file manager's window, so that a player
/// finds a file saved under a hidden folder (`%LOCALAPPDATA%`): Windows'
/// Explorer; elsewhere nothing (the path is said). Never waits, never
/// fails the caller: the path has been said already.
pub fn show_in_explorer(path: &Path) {
    platform::show_in_explorer(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_needs_virtual_terminal_processing_and_keeps_the_other_bits() {
        // conhost's default output mode: processed, wrap at the end of line.
        let conhost = 0x0003;
        assert_eq!(with_colour(conhost), 0x0007);
        assert_eq!(with_colour(0), PROCESSED_OUTPUT | VIRTUAL_TERMINAL);
        // Windows Terminal has it on already: nothing to set.
        let never = |_: u32| -> bool { panic!("set without need") };
        assert!(colour_shows(Some(0x0007), never));
        // No console: the mode does not decide.
        assert!(colour_shows(None, never));
        // A console that refuses VT (Windows before 10): plain text.
        assert!(!colour_shows(Some(conhost), |_| false));
        let mut asked = None;
        assert!(colour_shows(Some(conhost), |mode| {
            asked = Some(mode);
            true
        }));
        assert_eq!(asked, Some(0x0007));
    }

    #[test]
    fn quick_edit_goes_off_with_the_flag_that_makes_windows_read_it() {
        // conhost's default input mode: processed, line, echo, insert,
        // QuickEdit, extended flags (0x1f7).
        let conhost = 0x01f7;
        let off = without_quick_edit(conhost);
        assert_eq!(off & QUICK_EDIT, 0);
        assert_ne!(off & EXTENDED_FLAGS, 0);
        // Every other bit kept: line input, echo, processed input.
        assert_eq!(off, conhost & !QUICK_EDIT);
        // Without the extended flag Windows would ignore the change.
        assert_eq!(
            without_quick_edit(0x0007 | QUICK_EDIT),
            0x0007 | EXTENDED_FLAGS
        );
    }

    #[test]
    #[cfg(windows)]
    fn the_console_mode_bits_are_windows_own() {
        use windows_sys::Win32::System::Console::{
            ENABLE_EXTENDED_FLAGS, ENABLE_PROCESSED_OUTPUT, ENABLE_QUICK_EDIT_MODE,
            ENABLE_VIRTUAL_TERMINAL_PROCESSING,
        };
        assert_eq!(VIRTUAL_TERMINAL, ENABLE_VIRTUAL_TERMINAL_PROCESSING);
        assert_eq!(PROCESSED_OUTPUT, ENABLE_PROCESSED_OUTPUT);
        assert_eq!(QUICK_EDIT, ENABLE_QUICK_EDIT_MODE);
        assert_eq!(EXTENDED_FLAGS, ENABLE_EXTENDED_FLAGS);
    }
}
