//! Stop requests: Ctrl-C, and the signals that end a process (SIGTERM,
//! SIGHUP; on Windows the console's close and log-off events). Each only
//! sets a flag that the live loop and assist mode check before every
//! capture and every click, so that a stop never falls between a press
//! and its release: the button is never left down.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use super::InputError;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C and the termination signals set the stop flag instead of
/// killing the process; once per process (a handler cannot be set twice).
pub fn catch() -> Result<(), InputError> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = ctrlc::set_handler(|| REQUESTED.store(true, Ordering::SeqCst))
            .map_err(|e| InputError::Device(format!("cannot catch Ctrl-C: {e}")));
    });
    result
}

/// `Err(Interrupted)` once a stop was asked for.
pub fn check() -> Result<(), InputError> {
    if REQUESTED.load(Ordering::SeqCst) {
        Err(InputError::Interrupted)
    } else {
        Ok(())
    }
}
