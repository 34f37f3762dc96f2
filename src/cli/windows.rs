//! `bot windows`: the visible windows, as `--window` chooses among them,
//! terminals marked (`--window` never takes one whose title holds its
//! text or the bot's command line), and another dustbot's own windows
//! (its app, its hint window: never the game, whatever they show);
//! titles are other programs' text, printed with their control
//! characters escaped.

use std::process::ExitCode;

use anyhow::Result;

use super::say;

use crate::desktop::Desktop as _;
use crate::text::printable;

pub fn run() -> Result<ExitCode> {
    let windows = crate::desktop::system().visible_windows()?;
    say!(
        "{:<40} {:<20} {:>12} {:>10}  KIND",
        "TITLE",
        "APPLICATION",
        "POSITION",
        "SIZE"
    );
    for w in &windows {
        say!(
            "{:<40} {:<20} {:>12} {:>10}  {}",
            printable(&w.title),
            printable(&w.app),
            format!("{},{}", w.x, w.y),
            format!("{}x{}", w.width, w.height),
            kind(w)
        );
    }
    if windows.is_empty() {
        say!("(no visible window)");
    }
    Ok(ExitCode::SUCCESS)
}

/// What the KIND column says of `window`: why it is never the game, if
/// it never is.
fn kind(window: &crate::desktop::WindowInfo) -> &'static str {
    if window.is_another_bots() {
        "dustbot's own: never the game"
    } else if window.is_terminal() {
        "terminal"
    } else {
        ""
    }
}
