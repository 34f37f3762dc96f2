//! The stop asked for, below the platform files whose handlers ask it:
//! the flag that Ctrl-C, the signals to end, the stop keys and the faces
//! set, and that the live loop and assist mode check before every
//! capture and every click ([`check`]); who asked ([`asker`]); the end
//! of the process asked for ([`end_asked`]), kept for the faces; and the
//! wait of a process ended from outside ([`ending`]: Windows' console
//! closing, X11's display lost, macOS's Quit) for a click in progress to
//! release its button and for the runs to record their games. How the
//! stops are caught (the signals, the keys from anywhere) is
//! [`super::stop`]'s.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use super::words::{Asker, InputError};

static REQUESTED: AtomicBool = AtomicBool::new(false);
/// Who asked for the stop requested (an [`Asker`]'s code; 0: Ctrl-C's
/// signal or a signal to end, which the handler cannot tell apart).
static ASKER: AtomicU8 = AtomicU8::new(0);
static OUTPUT_FAILED: AtomicBool = AtomicBool::new(false);
/// The request to end the process that came, once one did (an
/// [`Asker`]'s code; 0: none): a signal, the terminal or the display
/// closing. Never cleared: a face ends on it once the run it stopped has
/// said its summary.
static ENDING: AtomicU8 = AtomicU8::new(0);
/// The face said its end after [`ENDING`]: [`ending`] may return.
static FACE_ENDED: AtomicBool = AtomicBool::new(false);
/// The left button is down: between a click's press and its release.
static HELD: AtomicBool = AtomicBool::new(false);

/// The exit code of a run ended by a second Ctrl-C (128 + SIGINT).
const SECOND_STOP_EXIT: u8 = 130;

/// The longest a second stop waits for a click's release: a click holds
/// the button 40 ms, and its release is read back within a second.
const RELEASE_WAIT: Duration = Duration::from_secs(2);

/// The exit code of a process ended by `asker`'s request: 128 and the
/// signal's number, as a shell says it (SIGINT 2, SIGHUP 1, SIGTERM 15).
pub fn exit_code(asker: Asker) -> u8 {
    match asker {
        Asker::TerminalClosed => 129,
        Asker::EndRequest => 143,
        Asker::DisplayClosed => 1,
        _ => SECOND_STOP_EXIT,
    }
}

/// The display closed (its X server ended): no run can go on, and the
/// faces end as on a request to end.
pub(super) fn display_closed() {
    end_by(Asker::DisplayClosed);
}

/// The terminal the bot reads its keys from is gone (a read failed
/// after it hung up): the face ends as on SIGHUP, which may come a moment
/// later or not at all.
pub fn terminal_closed() {
    end_by(Asker::TerminalClosed);
}

/// The process is to end, as `asker` says (the first request to end is
/// the one kept, see [`kept_end`]), and the run under way stops.
pub(super) fn end_by(asker: Asker) {
    ENDING
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
            Some(kept_end(now, asker))
        })
        .ok();
    ask(asker);
}

/// The end kept when `asker` asks to end after the end `now` (a code, 0
/// for none): the first, but never Ctrl-C over a request to end, which
/// Ctrl-C is not in a terminal's face (it answers a question there): a
/// terminal that closed after it still ends the face.
fn kept_end(now: u8, asker: Asker) -> u8 {
    if now == 0 || now == Asker::CtrlC.code() {
        asker.code()
    } else {
        now
    }
}

/// The request to end the process that came (a signal, the terminal or
/// the display closing), if one did; kept for the process's life.
pub(super) fn end_asked() -> Option<Asker> {
    Asker::of(ENDING.load(Ordering::SeqCst))
}

/// The face said its end (its summary, its last line): a process ended
/// from outside ([`ending`]) may go.
pub fn face_ended() {
    FACE_ENDED.store(true, Ordering::SeqCst);
}

/// Waits while `held` says a click holds the button, at most `wait`;
/// whether it is still held.
fn wait_released(held: impl Fn() -> bool, wait: Duration) -> bool {
    let asked = Instant::now();
    while held() && asked.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(2));
    }
    held()
}

/// The process is about to be ended from outside, as `asker` says
/// (Windows' console closed, X11's connection of the bot's own windows
/// lost): a stop is asked for, and a click in progress gets the time to
/// release its button, else `release` releases it (through a connection
/// of its own); then the runs on other threads get the time to end their
/// game and record it, and the face to say its end. Returns once the
/// button is up and they ended.
pub(super) fn ending(asker: Asker, release: impl FnOnce()) {
    end_by(asker);
    end_the_hold(|| HELD.load(Ordering::SeqCst), release, RELEASE_WAIT);
    let here = std::thread::current().id();
    let elsewhere = || runs().iter().any(|&thread| thread != here);
    let asked = Instant::now();
    while elsewhere() && asked.elapsed() < RUN_END_WAIT {
        std::thread::sleep(Duration::from_millis(10));
    }
    let asked = Instant::now();
    while !FACE_ENDED.load(Ordering::SeqCst) && asked.elapsed() < FACE_END_WAIT {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The longest [`ending`] waits for the face to say its end after the
/// runs ended: a face looks at the stop each frame or each key's wait.
const FACE_END_WAIT: Duration = Duration::from_secs(1);

/// The longest [`ending`] waits for a run to end its game: the next step
/// of a run sees the stop (a capture or a click), and a search checks it
/// as often. With [`RELEASE_WAIT`], within the 5 s Windows gives a
/// console's close handler.
const RUN_END_WAIT: Duration = Duration::from_secs(2);

/// The threads with a run of games under way.
static RUNS: std::sync::Mutex<Vec<std::thread::ThreadId>> = std::sync::Mutex::new(Vec::new());

fn runs() -> std::sync::MutexGuard<'static, Vec<std::thread::ThreadId>> {
    RUNS.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A run of games under way on this thread, while the value lives: a
/// process ended from outside waits for it to record its game.
#[derive(Debug)]
pub struct Running(std::thread::ThreadId);

impl Running {
    pub fn start() -> Running {
        let thread = std::thread::current().id();
        runs().push(thread);
        Running(thread)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut runs = runs();
        if let Some(at) = runs.iter().position(|&t| t == self.0) {
            runs.swap_remove(at);
        }
    }
}

/// [`ending`]'s rule: when `held` still says so after `wait`, `release`.
fn end_the_hold(held: impl Fn() -> bool, release: impl FnOnce(), wait: Duration) {
    if wait_released(held, wait) {
        release();
        HELD.store(false, Ordering::SeqCst);
    }
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

/// Asks the run to stop, by `asker` (the first to ask is the one said).
pub fn ask(asker: Asker) {
    if !REQUESTED.load(Ordering::SeqCst) {
        ASKER.store(asker.code(), Ordering::SeqCst);
    }
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Who asked for the stop, once one is asked: `None` before, and for
/// Ctrl-C's signal (or another request to end).
pub fn asker() -> Option<Asker> {
    if REQUESTED.load(Ordering::SeqCst) {
        Asker::of(ASKER.load(Ordering::SeqCst))
    } else {
        None
    }
}

/// The stop asked for, in words: "q", "Escape", "Ctrl-C (or a request to
/// end)".
pub fn said() -> String {
    asker().map_or_else(
        || "Ctrl-C (or a request to end)".to_owned(),
        |a| a.to_string(),
    )
}

/// Forgets the stop asked for: a run that ended by it is over, and the
/// next one starts unasked.
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
    ASKER.store(0, Ordering::SeqCst);
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
        Err(InputError::Interrupted { by: said() })
    } else if OUTPUT_FAILED.load(Ordering::SeqCst) {
        Err(InputError::OutputFailed)
    } else {
        Ok(())
    }
}

/// A signal came, said as `asker`: the stop asked and the end kept,
/// and `false`; `true` for a second one, once a click in progress has
/// released its button: then the process ends (see `stop::catch`).
pub(super) fn second_stop(asker: Asker) -> bool {
    let before = ENDING.swap(asker.code(), Ordering::SeqCst);
    // A request to end after a stop asked by a key is the first end: the
    // run stopping ends its game, then the face ends.
    let second = REQUESTED.load(Ordering::SeqCst) && (asker == Asker::CtrlC || before != 0);
    if !second {
        ask(asker);
        return false;
    }
    wait_released(|| HELD.load(Ordering::SeqCst), RELEASE_WAIT);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_stop_is_said_as_the_one_asked_for() {
        for asker in [
            Asker::CtrlC,
            Asker::Key('q'),
            Asker::Escape,
            Asker::TerminalClosed,
            Asker::StopKey,
            Asker::StopButton,
            Asker::Closing,
            Asker::StopChord,
            Asker::EndRequest,
            Asker::DisplayClosed,
            Asker::Key('&'),
        ] {
            assert_eq!(Asker::of(asker.code()), Some(asker));
        }
        assert_eq!(
            [
                Asker::TerminalClosed,
                Asker::EndRequest,
                Asker::CtrlC,
                Asker::DisplayClosed
            ]
            .map(exit_code),
            [129, 143, 130, 1]
        );
        assert_eq!(Asker::Key('q').to_string(), "q");
        assert_eq!(Asker::StopKey.to_string(), "the Pause key");
        assert_eq!(Asker::StopChord.to_string(), "Ctrl+Shift+Backspace");
    }

    #[test]
    fn a_request_to_end_after_ctrl_c_is_the_end_kept() {
        let (ctrl_c, closed, end) = (Asker::CtrlC, Asker::TerminalClosed, Asker::EndRequest);
        assert_eq!(kept_end(0, closed), closed.code());
        assert_eq!(kept_end(ctrl_c.code(), closed), closed.code());
        assert_eq!(kept_end(ctrl_c.code(), end), end.code());
        // The first request to end stays.
        assert_eq!(kept_end(end.code(), closed), end.code());
        assert_eq!(kept_end(closed.code(), ctrl_c), closed.code());
    }

    #[test]
    fn a_hold_that_does_not_end_is_released_before_the_process_ends() {
        let released = Cell::new(false);
        end_the_hold(|| true, || released.set(true), Duration::from_millis(20));
        assert!(released.get());
    }

    #[test]
    fn a_click_that_releases_in_time_is_not_released_twice() {
        let started = Instant::now();
        let released = Cell::new(false);
        // The click's own release comes 10 ms in.
        let held = || started.elapsed() < Duration::from_millis(10);
        end_the_hold(held, || released.set(true), Duration::from_secs(2));
        assert!(!released.get());
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
