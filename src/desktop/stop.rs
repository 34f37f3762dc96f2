//! Stop requests: Ctrl-C, and the signals that end a process (SIGTERM,
//! SIGHUP), and standard output that can no longer be written. Each sets
//! a flag that the live loop and assist mode check before every capture
//! and every click, so that a stop never falls between a press and its
//! release: the button is never left down. Windows' console close,
//! log-off and shut-down events are other: Windows ends the process as
//! soon as their handler returns, so the handler ([`ending`]) sets the
//! flag and, before it returns, waits for a click in progress to release
//! its button, or releases it itself. And the key that stops a run from
//! anywhere ([`StopKey`]): the Pause key, taken from the whole desktop
//! while a run is on (X11's `GrabKey` on the root window, Windows'
//! `RegisterHotKey`) and given back when it ends, so that a player whose
//! keyboard is the game's need not find the bot's window to stop it.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use super::InputError;

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
        let signals = Signals::new();
        let told = signals.clone();
        result = ctrlc::set_handler(move || signalled(told.which()))
            .map_err(|e| InputError::Device(format!("cannot catch Ctrl-C: {e}")));
        // After ctrlc's: the flags' handlers chain to its handler, and
        // Windows calls the last handler set first.
        if result.is_ok() {
            result = signals.tell().map_err(InputError::Device);
        }
        if result.is_ok() {
            result = super::platform::catch_console_end().map_err(InputError::Device);
        }
    });
    result
}

/// A signal came, said as `asker`: the stop asked, the end kept; a second
/// one ends the process (see [`catch`]).
fn signalled(asker: Asker) {
    let before = ENDING.swap(asker.code(), Ordering::SeqCst);
    // A request to end after a stop asked by a key is the first end: the
    // run stopping ends its game, then the face ends.
    let second = REQUESTED.load(Ordering::SeqCst) && (asker == Asker::CtrlC || before != 0);
    if !second {
        ask(asker);
        return;
    }
    wait_released(|| HELD.load(Ordering::SeqCst), RELEASE_WAIT);
    // The way out that drops nothing: the console's mode is put back
    // here, and a console that closes at exit waits.
    super::console::restore_input_mode();
    super::console::hold_if_closing();
    std::process::exit(i32::from(exit_code(asker)));
}

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
/// the one kept), and the run under way stops.
fn end_by(asker: Asker) {
    ENDING
        .compare_exchange(0, asker.code(), Ordering::SeqCst, Ordering::SeqCst)
        .ok();
    ask(asker);
}

/// The request to end the process that came (a signal, the terminal or
/// the display closing), if one did; kept for the process's life.
pub fn end_asked() -> Option<Asker> {
    Asker::of(ENDING.load(Ordering::SeqCst))
}

/// The face said its end (its summary, its last line): a process ended
/// from outside ([`ending`]) may go.
pub fn face_ended() {
    FACE_ENDED.store(true, Ordering::SeqCst);
}

/// How long [`Signals::which`] waits for a flag of the signal that woke
/// it: the handler that sets it runs on, at once, after ctrlc's.
#[cfg(unix)]
const FLAG_WAIT: Duration = Duration::from_millis(20);

/// Which signal came: ctrlc's handler is one for SIGINT, SIGTERM and
/// SIGHUP, and these flags, set by handlers of their own that chain to
/// it, tell SIGTERM and SIGHUP from Ctrl-C.
#[derive(Clone, Debug, Default)]
struct Signals {
    #[cfg(unix)]
    hang_up: std::sync::Arc<AtomicBool>,
    #[cfg(unix)]
    terminate: std::sync::Arc<AtomicBool>,
}

impl Signals {
    fn new() -> Signals {
        Signals::default()
    }

    /// Sets the flags' handlers, after ctrlc's (which they chain to).
    #[cfg(unix)]
    fn tell(&self) -> Result<(), String> {
        use signal_hook::consts::{SIGHUP, SIGTERM};
        for (signal, flag) in [(SIGHUP, &self.hang_up), (SIGTERM, &self.terminate)] {
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
    /// (without the wait, one closed terminal in three was taken for one).
    fn which(&self) -> Asker {
        #[cfg(unix)]
        {
            let looked = Instant::now();
            loop {
                if self.hang_up.swap(false, Ordering::SeqCst) {
                    return Asker::TerminalClosed;
                }
                if self.terminate.swap(false, Ordering::SeqCst) {
                    return Asker::EndRequest;
                }
                if looked.elapsed() > FLAG_WAIT {
                    break;
                }
                std::thread::yield_now();
            }
        }
        Asker::CtrlC
    }
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

/// Who asked a run to stop, to say the stop as the one asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asker {
    /// Ctrl-C read as a key.
    CtrlC,
    /// A key that stops: `q` in the guided session's terminal or in the
    /// bot's own windows.
    Key(char),
    /// Escape, in the terminal or the bot's own windows.
    Escape,
    /// The terminal the session reads its keys from went away.
    TerminalClosed,
    /// Pause, the key that stops from anywhere ([`StopKey`]), pressed in
    /// any window.
    StopKey,
    /// Ctrl+Shift+Backspace, the stop from anywhere that every keyboard
    /// has.
    StopChord,
    /// The Stop button of the bot's own window.
    StopButton,
    /// The bot's own window closed, or Quit, during a run.
    Closing,
    /// A request to end the process (SIGTERM; Windows' log-off or
    /// shut-down).
    EndRequest,
    /// The display the bot's windows were on closed (the X server ended,
    /// or their connection was killed).
    DisplayClosed,
}

impl Asker {
    fn code(self) -> u8 {
        match self {
            Asker::CtrlC => 1,
            Asker::Escape => 2,
            Asker::TerminalClosed => 3,
            Asker::StopKey => 4,
            Asker::StopButton => 5,
            Asker::Closing => 6,
            Asker::StopChord => 7,
            Asker::EndRequest => 8,
            Asker::DisplayClosed => 9,
            // Keys are letters: above every other code.
            Asker::Key(key) => u8::try_from(key).map_or(32, |k| k.max(32)),
        }
    }

    /// The asker of `code`; `None` for 0, a signal's.
    fn of(code: u8) -> Option<Asker> {
        match code {
            0 => None,
            1 => Some(Asker::CtrlC),
            2 => Some(Asker::Escape),
            3 => Some(Asker::TerminalClosed),
            4 => Some(Asker::StopKey),
            5 => Some(Asker::StopButton),
            6 => Some(Asker::Closing),
            7 => Some(Asker::StopChord),
            8 => Some(Asker::EndRequest),
            9 => Some(Asker::DisplayClosed),
            key => Some(Asker::Key(char::from(key))),
        }
    }
}

impl std::fmt::Display for Asker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Asker::CtrlC => f.write_str("Ctrl-C"),
            Asker::Key(key) => write!(f, "{key}"),
            Asker::Escape => f.write_str("Escape"),
            Asker::TerminalClosed => f.write_str("the terminal closing"),
            Asker::StopKey => write!(f, "the {} key", PAUSE.name),
            Asker::StopChord => f.write_str(CHORD.name),
            Asker::StopButton => f.write_str("Stop"),
            Asker::Closing => f.write_str("closing the app"),
            Asker::EndRequest => f.write_str("a request to end the bot"),
            Asker::DisplayClosed => f.write_str("the display closing"),
        }
    }
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

/// Who stopped a run, in its summary's words: "Escape", "the Pause key",
/// "Stop"; "Ctrl-C" for Ctrl-C's signal (or another request to end).
pub fn stopped_by() -> String {
    asker().map_or_else(|| "Ctrl-C".to_owned(), |a| a.to_string())
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
        Err(InputError::Interrupted)
    } else if OUTPUT_FAILED.load(Ordering::SeqCst) {
        Err(InputError::OutputFailed)
    } else {
        Ok(())
    }
}

/// A key that stops a run from anywhere: its name on the keycaps, as
/// X11 grabs it (its keysym, and the modifiers held with it: `None` for
/// any) and as Windows' `RegisterHotKey` takes it (the modifiers, with
/// `MOD_NOREPEAT` so that a key held down says it once, the virtual key,
/// and the hot key's id, the thread's own: 0 to 0xBFFF), and who it is
/// as the stop's asker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalKey {
    pub name: &'static str,
    #[cfg_attr(any(windows, target_os = "macos"), allow(dead_code))]
    pub(super) keysym: u32,
    #[cfg_attr(any(windows, target_os = "macos"), allow(dead_code))]
    pub(super) modifiers: Option<u16>,
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(super) hot_key: (u32, u32),
    #[cfg_attr(not(windows), allow(dead_code))]
    pub(super) id: i32,
    asker: Asker,
}

/// Pause, bare (`XK_Pause`; `VK_PAUSE`): the stop a game never uses.
pub const PAUSE: GlobalKey = GlobalKey {
    name: "Pause",
    keysym: 0xff13,
    modifiers: None,
    hot_key: (0x4000, 0x13),
    id: 0x5053,
    asker: Asker::StopKey,
};

/// Ctrl+Shift+Backspace (`XK_BackSpace` with Control and Shift;
/// `MOD_CONTROL | MOD_SHIFT`, `VK_BACK`): the stop of the keyboards
/// without Pause (most laptops, compact ones). No layout types with it:
/// Ctrl+Alt is AltGr on Windows (Ctrl+Alt+S was a Polish "s acute"),
/// Windows-key chords are the system's (`RegisterHotKey`), F12 the
/// debugger's; Backspace with Ctrl deletes a word, and with Shift too
/// is no shortcut of Windows, Chrome, Edge, Firefox or Discord (Shift+
/// Escape is Chrome's task manager, Ctrl+Shift+Escape Windows').
pub const CHORD: GlobalKey = GlobalKey {
    name: "Ctrl+Shift+Backspace",
    keysym: 0xff08,
    modifiers: Some(0x4 | 0x1),
    hot_key: (0x4000 | 0x2 | 0x4, 0x08),
    id: 0x5054,
    asker: Asker::StopChord,
};

/// The keys that stop a run from anywhere, each grabbed for it.
pub const GLOBAL_KEYS: [GlobalKey; 2] = [PAUSE, CHORD];

/// What a press of the key that stops from anywhere calls, on the
/// thread that listens for it.
pub type Pressed = Box<dyn Fn() + Send>;

/// Why the key that stops from anywhere is not the bot's.
#[derive(Debug, thiserror::Error)]
pub enum GrabError {
    /// Another program holds it (X11's `BadAccess`, Windows'
    /// `ERROR_HOTKEY_ALREADY_REGISTERED`).
    #[error("another program holds it")]
    Taken,
    /// The window system could not be asked, or refused otherwise.
    #[error("{0}")]
    Failed(String),
}

/// The keys that stop a run from anywhere ([`GLOBAL_KEYS`]), taken from
/// the whole desktop for as long as this value lives: a press in any
/// window, the game's included, asks the run to stop as that key. A key
/// another program holds is said not available, and the run goes on with
/// the others ([`StopKey::said`]).
#[derive(Debug)]
pub struct StopKey {
    grabs: Vec<(GlobalKey, Result<super::platform::StopKeyGrab, GrabError>)>,
}

impl StopKey {
    /// Takes the keys for a run.
    pub fn grab() -> StopKey {
        let grabs = GLOBAL_KEYS
            .iter()
            .map(|&key| {
                let grab =
                    super::platform::StopKeyGrab::grab(key, Box::new(move || ask(key.asker)));
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
    fn the_stop_keys_are_pause_bare_and_ctrl_shift_backspace_and_their_presses_come_to_the_thread()
    {
        // RegisterHotKey(NULL, id, MOD_NOREPEAT, VK_PAUSE): no modifier
        // to hold, one WM_HOTKEY for a key held down; and
        // MOD_CONTROL | MOD_SHIFT | MOD_NOREPEAT with VK_BACK: never
        // MOD_ALT with MOD_CONTROL, which AltGr is (a layout's typing).
        assert_eq!(PAUSE.hot_key, (0x4000, 0x13));
        assert_eq!(CHORD.hot_key, (0x4006, 0x08));
        assert_ne!(CHORD.hot_key.0 & 0x3, 0x3, "Ctrl+Alt is AltGr");
        // X11: Pause with any modifiers; BackSpace with Control (4) and
        // Shift (1), never Mod1 (Alt) or Mod5 (AltGr, ISO_Level3_Shift).
        assert_eq!((PAUSE.keysym, PAUSE.modifiers), (0xff13, None));
        assert_eq!((CHORD.keysym, CHORD.modifiers), (0xff08, Some(5)));
        for key in GLOBAL_KEYS {
            assert!((0..=0xBFFF).contains(&key.id));
        }
        assert_ne!(PAUSE.id, CHORD.id);
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
