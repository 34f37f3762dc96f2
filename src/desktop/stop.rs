//! Stop requests, caught: Ctrl-C, and the signals that end a process
//! (SIGTERM, SIGHUP), and Windows' console close, log-off and shut-down
//! events (whose handler, [`super::asked::ending`], waits for a click in
//! progress to release its button, as Windows ends the process once it
//! returns). Each sets the flag of [`super::asked`], which the live loop
//! and assist mode check before every capture and every click, so that a
//! stop never falls between a press and its release: the button is never
//! left down. And the key that stops a run from anywhere ([`StopKey`]):
//! the Pause key, taken from the whole desktop while a run is on (X11's
//! `GrabKey` on the root window, Windows' `RegisterHotKey`) and given back
//! when it ends, so that a player whose keyboard is the game's need not
//! find the bot's window to stop it. The stop's state and words are below
//! the platform files ([`super::asked`], [`super::words`]); they are said
//! here too, where the rest of the bot has always found them.

use std::sync::Once;
#[cfg(unix)]
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(unix)]
use std::time::{Duration, Instant};

use super::asked;
pub use super::asked::{
    Running, ask, asker, check, clear, exit_code, face_ended, output_failed, requested, said,
    terminal_closed,
};
use super::platform;
use super::words::InputError;
pub use super::words::{Asker, CHORD, GLOBAL_KEYS, GlobalKey, GrabError, PAUSE, Pressed};

/// Makes Ctrl-C and the termination signals set the stop flag instead of
/// killing the process; once per process (a handler cannot be set twice).
/// Each is said as what it means: Ctrl-C, SIGHUP as the terminal closing,
/// SIGTERM as a request to end ([`end_asked`] keeps it for the faces,
/// which end once the run it stopped has said its summary). A second
/// stop ends the process at once (after Enter on a console that closes
/// at exit, to read what was said): the first is taken at the next step,
/// and a player who asks again wants no wait. Even so the button is never
/// left down: the handler runs on a thread of its own, and waits while a
/// click holds it (40 ms), so the process ends between clicks.
pub fn catch() -> Result<(), InputError> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        let signals = SIGNALS.get_or_init(Signals::new);
        let told = signals.clone();
        result = ctrlc::set_handler(move || signalled(told.which()))
            .map_err(|e| InputError::Device(format!("cannot catch Ctrl-C: {e}")));
        // After ctrlc's: the flags' handlers chain to its handler, and
        // Windows calls the last handler set first.
        if result.is_ok() {
            result = signals.tell().map_err(InputError::Device);
        }
        if result.is_ok() {
            result = platform::catch_console_end().map_err(InputError::Device);
        }
    });
    result
}

/// A signal came, said as `asker`: the stop asked, the end kept; a second
/// one ends the process (see [`catch`]).
fn signalled(asker: Asker) {
    if !asked::second_stop(asker) {
        return;
    }
    // The way out that drops nothing: the console's mode is put back
    // here, and a console that closes at exit waits.
    super::console::restore_input_mode();
    super::console::hold_if_closing();
    std::process::exit(i32::from(asked::exit_code(asker)));
}

/// The request to end the process that came, if one did (see
/// [`asked::end_asked`]), a signal to end taken for Ctrl-C included
/// (see [`Signals::late`]).
pub fn end_asked() -> Option<Asker> {
    take_late_signal();
    asked::end_asked()
}

/// The request to end the process that came, if one did, other than
/// Ctrl-C: a signal to end (SIGTERM), the terminal closing (SIGHUP) or
/// the display closing. Ctrl-C stops a run, and answers a question in a
/// terminal's face; it ends no run before it starts.
pub fn end_beyond_ctrl_c() -> Option<Asker> {
    end_asked().filter(|&asker| asker != Asker::CtrlC)
}

/// A signal to end whose flag came after [`Signals::which`] stopped
/// waiting for it, taken now as the end it asks.
fn take_late_signal() {
    if let Some(asker) = SIGNALS.get().and_then(Signals::late) {
        asked::end_by(asker);
    }
}

/// The flags of the signals caught, once they are (see [`catch`]).
static SIGNALS: std::sync::OnceLock<Signals> = std::sync::OnceLock::new();

/// How long [`Signals::which`] waits for a flag of the signal that woke
/// it: the handler that sets it runs on, at once, after ctrlc's. A flag
/// later than that (a handler's thread put off on a loaded machine) is
/// taken by [`Signals::late`].
#[cfg(unix)]
const FLAG_WAIT: Duration = Duration::from_millis(20);

/// Which signal came: ctrlc's handler is one for SIGINT, SIGTERM and
/// SIGHUP, and these flags, set by handlers of their own that chain to
/// it, tell them apart.
#[derive(Clone, Debug, Default)]
struct Signals {
    #[cfg(unix)]
    interrupt: std::sync::Arc<AtomicBool>,
    #[cfg(unix)]
    hang_up: std::sync::Arc<AtomicBool>,
    #[cfg(unix)]
    terminate: std::sync::Arc<AtomicBool>,
    /// A signal came whose flag [`Signals::which`] did not see in time:
    /// it was taken for Ctrl-C.
    #[cfg(unix)]
    unseen: std::sync::Arc<AtomicBool>,
}

impl Signals {
    fn new() -> Signals {
        Signals::default()
    }

    /// Sets the flags' handlers, after ctrlc's (which they chain to).
    #[cfg(unix)]
    fn tell(&self) -> Result<(), String> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        for (signal, flag) in [
            (SIGINT, &self.interrupt),
            (SIGHUP, &self.hang_up),
            (SIGTERM, &self.terminate),
        ] {
            signal_hook::flag::register(signal, std::sync::Arc::clone(flag))
                .map_err(|e| format!("cannot tell the signals apart: {e}"))?;
        }
        Ok(())
    }

    /// Windows' console events are told apart by their own handler.
    #[cfg(not(unix))]
    fn tell(&self) -> Result<(), String> {
        Ok(())
    }

    /// The signal that came, as its asker; Ctrl-C when no flag is set.
    /// signal-hook's handler calls the one before it (ctrlc's, which
    /// wakes its thread, where this runs) before it sets its flags: a
    /// flag is waited for a moment before the signal is taken for Ctrl-C
    /// (without the wait, one closed terminal in three was taken for one),
    /// and one that comes later still is [`Signals::late`]'s.
    fn which(&self) -> Asker {
        #[cfg(unix)]
        {
            let looked = Instant::now();
            loop {
                if let Some(end) = self.take_end() {
                    return end;
                }
                if self.interrupt.swap(false, Ordering::SeqCst) {
                    return Asker::CtrlC;
                }
                if looked.elapsed() > FLAG_WAIT {
                    self.unseen.store(true, Ordering::SeqCst);
                    break;
                }
                std::thread::yield_now();
            }
        }
        Asker::CtrlC
    }

    /// The request to end of a signal that [`Signals::which`] took for
    /// Ctrl-C, its flag set since: a terminal that closed, on a machine
    /// busy enough to put off the flag's handler, still ends the face
    /// that Ctrl-C would not. Looked at only after such a signal, so that
    /// a flag `which` is about to see stays its own.
    fn late(&self) -> Option<Asker> {
        #[cfg(unix)]
        {
            if !self.unseen.load(Ordering::SeqCst) {
                return None;
            }
            let end = self.take_end();
            // Without one, the signal may have been Ctrl-C after all, its
            // flag late.
            if end.is_some() || self.interrupt.swap(false, Ordering::SeqCst) {
                self.unseen.store(false, Ordering::SeqCst);
            }
            end
        }
        #[cfg(not(unix))]
        None
    }

    /// The request to end whose flag is set, taking it: the terminal
    /// closing (SIGHUP) or a signal to end (SIGTERM).
    #[cfg(unix)]
    fn take_end(&self) -> Option<Asker> {
        if self.hang_up.swap(false, Ordering::SeqCst) {
            Some(Asker::TerminalClosed)
        } else if self.terminate.swap(false, Ordering::SeqCst) {
            Some(Asker::EndRequest)
        } else {
            None
        }
    }
}

/// The keys that stop a run from anywhere ([`GLOBAL_KEYS`]), taken from
/// the whole desktop for as long as this value lives: a press in any
/// window, the game's included, asks the run to stop as that key. A key
/// another program holds is said not available, and the run goes on with
/// the others ([`StopKey::said`]).
#[derive(Debug)]
pub struct StopKey {
    grabs: Vec<(GlobalKey, Result<platform::StopKeyGrab, GrabError>)>,
}

impl StopKey {
    /// Takes the keys for a run.
    pub fn grab() -> StopKey {
        let grabs = GLOBAL_KEYS
            .iter()
            .map(|&key| {
                let grab = platform::StopKeyGrab::grab(key, Box::new(move || ask(key.asker)));
                if let Err(why) = &grab {
                    log::debug!("{} is not the bot's: {why}", key.name);
                }
                (key, grab)
            })
            .collect();
        StopKey { grabs }
    }

    /// Whether any of the keys is the bot's.
    pub fn held(&self) -> bool {
        self.grabs.iter().any(|(_, grab)| grab.is_ok())
    }

    /// The keys that stop from anywhere, in words: "Pause or Ctrl+Shift+Backspace".
    pub fn names(&self) -> String {
        said_keys(&self.held_names())
    }

    fn held_names(&self) -> Vec<&'static str> {
        self.grabs
            .iter()
            .filter(|(_, grab)| grab.is_ok())
            .map(|(key, _)| key.name)
            .collect()
    }

    /// What the player is told: "Pause or Ctrl+Shift+Backspace stops
    /// from anywhere", and each key that is not available, and why.
    pub fn said(&self) -> String {
        let held = self.held_names();
        let refused: Vec<String> = self
            .grabs
            .iter()
            .filter_map(|(key, grab)| {
                let why = grab.as_ref().err()?;
                Some(format!("the {} key is not available ({why})", key.name))
            })
            .collect();
        let mut said = Vec::new();
        if !held.is_empty() {
            said.push(format!("{} stops from anywhere", said_keys(&held)));
        }
        said.extend(refused);
        said.join("; ")
    }
}

/// Key names joined as a player reads them: "Pause or Ctrl+Shift+Backspace".
fn said_keys(names: &[&str]) -> String {
    names.join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_signal_whose_flag_comes_late_is_taken_as_what_it_was() {
        let set = |flag: &std::sync::Arc<AtomicBool>| flag.store(true, Ordering::SeqCst);
        let signals = Signals::new();
        // Each flag in time says its signal, and nothing is late.
        for (flag, asker) in [
            (&signals.interrupt, Asker::CtrlC),
            (&signals.hang_up, Asker::TerminalClosed),
            (&signals.terminate, Asker::EndRequest),
        ] {
            set(flag);
            assert_eq!(signals.which(), asker);
            assert_eq!(signals.late(), None);
        }
        // A flag not yet set when asked: Ctrl-C, until it comes.
        assert_eq!(signals.which(), Asker::CtrlC);
        assert_eq!(signals.late(), None);
        set(&signals.hang_up);
        assert_eq!(signals.late(), Some(Asker::TerminalClosed));
        assert_eq!(signals.late(), None);
        // Late and Ctrl-C after all: nothing to end, and the next flag in
        // time is its own signal's, not taken as late.
        assert_eq!(signals.which(), Asker::CtrlC);
        set(&signals.interrupt);
        assert_eq!(signals.late(), None);
        set(&signals.terminate);
        assert_eq!(signals.late(), None);
        assert_eq!(signals.which(), Asker::EndRequest);
    }

    #[test]
    fn a_key_another_program_holds_is_said_not_available() {
        let taken = StopKey {
            grabs: vec![
                (PAUSE, Err(GrabError::Taken)),
                (CHORD, Err(GrabError::Taken)),
            ],
        };
        assert!(!taken.held());
        assert_eq!(
            taken.said(),
            "the Pause key is not available (another program holds it); the Ctrl+Shift+Backspace key is not available (another program holds it)"
        );
        assert_eq!(
            said_keys(&["Pause", "Ctrl+Shift+Backspace"]),
            "Pause or Ctrl+Shift+Backspace"
        );
    }
}
