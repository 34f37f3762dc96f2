//! Stop requests: Ctrl-C, and the signals that end a process (SIGTERM,
//! SIGHUP; on Windows the console's close and log-off events), and
//! standard output that can no longer be written. Each only sets a flag that the live loop and assist mode check before every
//! capture and every click, so that a stop never falls between a press
//! and its release: the button is never left down.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::InputError;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static OUTPUT_FAILED: AtomicBool = AtomicBool::new(false);
/// The left button is down: between a click's press and its release.
static HELD: AtomicBool = AtomicBool::new(false);

/// The exit code of a run ended by a second Ctrl-C (128 + SIGINT).
const SECOND_STOP_EXIT: i32 = 130;

/// The longest a second stop waits for a click's release: a click holds
/// the button 40 ms, and its release is read back within a second.
const RELEASE_WAIT: Duration = Duration::from_secs(2);

/// Makes Ctrl-C and the termination signals set the stop flag instead of
/// killing the process; once per process (a handler cannot be set twice).
/// A second stop ends the process at once: the first is taken at the next
/// step, and a player who asks again wants no wait. Even so the button is
/// never left down: the handler runs on a thread of its own, and waits
/// while a click holds it (40 ms), so the process ends between clicks.
pub fn catch() -> Result<(), InputError> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                let asked = Instant::now();
                while HELD.load(Ordering::SeqCst) && asked.elapsed() < RELEASE_WAIT {
                    std::thread::sleep(Duration::from_millis(2));
                }
                std::process::exit(SECOND_STOP_EXIT);
            }
        })
        .map_err(|e| InputError::Device(format!("cannot catch Ctrl-C: {e}")));
    });
    result
}

/// The left button goes down (`true`) or up: a second stop waits for it
/// to be up before it ends the process.
pub(super) fn holding(held: bool) {
    HELD.store(held, Ordering::SeqCst);
}

/// The flag Ctrl-C and the signals to end set: a search that reads it
/// stops as at its deadline.
pub fn requested() -> &'static AtomicBool {
    &REQUESTED
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
