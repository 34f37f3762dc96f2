//! Standard output, written one way by every command: a write that fails
//! (a pipe closed by `| head`, a full disk, `> /dev/full`) is never the
//! panic `println!` makes of it. The first failure is kept: the run exits
//! 2 at its end whatever it did, and live play and assist mode stop at
//! their next step as on Ctrl-C ([`stop::output_failed`]), so that the
//! game in progress is recorded and the button is never left down.

use std::io::Write as _;
use std::sync::Mutex;

use crate::desktop::stop;

/// Why standard output could not be written, once it could not.
static FAILED: Mutex<Option<String>> = Mutex::new(None);

/// Writes `text` at once (a search may go on for long, and a script may
/// follow the lines as they come); whether standard output is still open.
pub fn show(text: &str) -> bool {
    let mut out = std::io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    let Err(error) = written else {
        return true;
    };
    FAILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get_or_insert_with(|| error.to_string());
    stop::output_failed();
    false
}

/// Why standard output could not be written, when a write failed.
pub fn failure() -> Option<String> {
    FAILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// `println!` through [`show`] (a failure is kept there).
macro_rules! say {
    () => {{
        $crate::cli::stdout::show("\n");
    }};
    ($($arg:tt)*) => {{
        $crate::cli::stdout::show(&format!("{}\n", format_args!($($arg)*)));
    }};
}
pub(crate) use say;
