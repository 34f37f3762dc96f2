//! Stop requests: Ctrl-C, and the signals that end a process (SIGTERM,
//! SIGHUP; on Windows the console's close and log-off events), and
//! standard output that can no longer be written. Each only sets a flag that the live loop and assist mode check before every
//! capture and every click, so that a stop never falls between a press
//! and its release: the button is never left down.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use super::InputError;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static OUTPUT_FAILED: AtomicBool = AtomicBool::new(false);

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

/// Standard output could not be written: a stop as Ctrl-C is, but a
/// failure (what the run does can no longer be said).
pub fn output_failed() {
    OUTPUT_FAILED.store(true, Ordering::SeqCst);
}

/// `Err(Interrupted)` once a stop was asked for, `Err(OutputFailed)` once
/// standard output failed.
pub fn check() -> Result<(), InputError> {
    if REQUESTED.load(Ordering::SeqCst) {
        Err(InputError::Interrupted)
    } else if OUTPUT_FAILED.load(Ordering::SeqCst) {
        Err(InputError::OutputFailed)
    } else {
        Ok(())
    }
}
