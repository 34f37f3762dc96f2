//! The main thread on macOS. AppKit runs windows only on the process's
//! first thread, and winit's event loop panics anywhere else (winit
//! 0.30.13, `src/platform_impl/macos/event_loop.rs`: "on macOS,
//! `EventLoop` must be created on the main thread!"); softbuffer's
//! surfaces (`src/backends/cg.rs`) and Carbon's hot keys want it too. So
//! on a Mac the program's body (the command line's work, the app's door
//! and runs) runs on a thread of its own, and the main thread waits for
//! work in a run loop: the bot's windows' event loop, started by the
//! first window, mark or stop key asked for, and the calls
//! `dispatch2::run_on_main` sends it, which a run loop serves before
//! winit's and winit's (NSApplication's) after (dispatch2 0.3.1,
//! `src/main_thread_bound.rs`). `bot` takes no Dock icon and not the
//! keyboard (an accessory app); `dustbot` is a regular app.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError, mpsc};

use objc2_core_foundation::{CFRunLoop, kCFRunLoopDefaultMode};
use winit::event_loop::EventLoopBuilder;
use winit::platform::macos::{ActivationPolicy, EventLoopBuilderExtMacOS};

/// Work for the main thread.
enum ToMain {
    /// Run this there (the windows' event loop, until it ends).
    Run(Box<dyn FnOnce() + Send>),
    /// The body has ended: the process may end.
    BodyEnded,
}

/// The way to the main thread, once it serves.
static TO_MAIN: OnceLock<Mutex<mpsc::Sender<ToMain>>> = OnceLock::new();

/// Whether the program is the app (a regular app) or `bot` (an
/// accessory: no Dock icon, no menu bar, the terminal keeps the keys).
static APP: AtomicBool = AtomicBool::new(false);

/// The main thread's stack: a spawned thread gets 2 MiB, the main
/// thread 8, and the solver and the vision have run on 8 so far.
const BODY_STACK: usize = 8 << 20;

/// How long the main thread waits in its run loop between two looks
/// for work: a window asked for starts within it.
const LOOK_EVERY: f64 = 0.05;

/// How the bot's windows' event loop starts and ends (`own.rs`'s),
/// told as the main thread starts to serve: the platform file starts it
/// before AppKit is used, and the body's end ends it, while this file
/// stays below both.
pub(super) struct WindowsLoop {
    pub(super) start: fn() -> Result<(), String>,
    pub(super) end: fn(),
}

/// The windows' loop, once the main thread serves.
static WINDOWS_LOOP: OnceLock<WindowsLoop> = OnceLock::new();

/// Runs `body` on a thread of its own (the process's body) while this,
/// the main thread, serves the bot's windows (started and ended as
/// `windows` says) and the calls sent to it; returns what the body
/// returned, once it ended (its panic goes on here). `app`: the desktop
/// app (a regular app), else `bot`.
pub(super) fn main_thread_serves_windows<T: Send + 'static>(
    app: bool,
    windows: WindowsLoop,
    body: impl FnOnce() -> T + Send + 'static,
) -> T {
    APP.store(app, Ordering::SeqCst);
    WINDOWS_LOOP.set(windows).ok();
    let (tell, told) = mpsc::channel();
    TO_MAIN.set(Mutex::new(tell.clone())).ok();
    let body = std::thread::Builder::new()
        .name("body".into())
        .stack_size(BODY_STACK)
        .spawn(move || {
            let _ended = Ended(tell);
            body()
        });
    let body = match body {
        Ok(body) => body,
        Err(error) => panic!("no thread for the program's body: {error}"),
    };
    loop {
        match told.try_recv() {
            Ok(ToMain::Run(work)) => work(),
            Ok(ToMain::BodyEnded) | Err(mpsc::TryRecvError::Disconnected) => break,
            Err(mpsc::TryRecvError::Empty) => {
                // SAFETY: a constant CoreFoundation string, set before
                // any Rust code runs.
                #[allow(unsafe_code)]
                let mode = unsafe { kCFRunLoopDefaultMode };
                CFRunLoop::run_in_mode(mode, LOOK_EVERY, true);
            }
        }
    }
    body.join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Said when the body ends, returned or panicked: its windows ended
/// (the main thread leaves their event loop), then the main thread told.
struct Ended(mpsc::Sender<ToMain>);

impl Drop for Ended {
    fn drop(&mut self) {
        if let Some(windows) = WINDOWS_LOOP.get() {
            (windows.end)();
        }
        self.0.send(ToMain::BodyEnded).ok();
    }
}

/// Asks the main thread to run `work` (the windows' event loop); an
/// error where no main thread serves (a program that did not start
/// through [`main_thread_serves_windows`], a test).
pub(super) fn start_on_main(work: Box<dyn FnOnce() + Send>) -> Result<(), String> {
    let to_main = TO_MAIN.get().ok_or_else(|| {
        "on macOS the bot's windows run on the main thread, and this program keeps it".to_owned()
    })?;
    to_main
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send(ToMain::Run(work))
        .map_err(|_| "the main thread no longer serves the bot's windows".to_owned())
}

/// Whether the main thread serves the calls sent to it: a call sent
/// otherwise would wait for ever (dispatch2's `run_on_main`).
fn main_thread_serves() -> bool {
    TO_MAIN.get().is_some()
}

/// The windows' event loop started on the main thread (winit must make
/// NSApplication before AppKit's windows or Carbon's hot keys are used
/// there); an error where the main thread does not serve them.
pub(super) fn start_windows() -> Result<(), String> {
    match WINDOWS_LOOP.get() {
        Some(windows) if main_thread_serves() => (windows.start)(),
        _ => Err("the main thread does not serve the bot's windows".into()),
    }
}

/// The app's kind, as the event loop is made: `bot` an accessory (no
/// Dock icon, no menu, the terminal not deactivated: winit would make an
/// unbundled program regular and activate it, winit 0.30.13
/// `src/platform_impl/macos/app_state.rs`), the app regular.
pub(super) fn policy<T>(builder: &mut EventLoopBuilder<T>) {
    if APP.load(Ordering::SeqCst) {
        builder.with_activation_policy(ActivationPolicy::Regular);
    } else {
        builder
            .with_activation_policy(ActivationPolicy::Accessory)
            .with_default_menu(false)
            .with_activate_ignoring_other_apps(false);
    }
}

/// The window number (`CGWindowID`, as the window server's list gives
/// it) of the window that holds the `NSView` winit hands out
/// (`-[NSView window]`, `-[NSWindow windowNumber]`); on the main thread,
/// where the event loop runs.
pub(super) fn window_number(ns_view: std::ptr::NonNull<std::ffi::c_void>) -> Result<u32, String> {
    // SAFETY: winit's handle is its window's content view, alive while
    // the window is (the caller holds it), on the main thread.
    #[allow(unsafe_code)]
    let view: &objc2_app_kit::NSView = unsafe { ns_view.cast().as_ref() };
    let window = view
        .window()
        .ok_or_else(|| "the view is in no window".to_owned())?;
    u32::try_from(window.windowNumber()).map_err(|e| e.to_string())
}
