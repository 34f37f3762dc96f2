//! The end-to-end tests, one program: every file here is a module, so the
//! crate is linked into one test program instead of one per file, and
//! libtest runs the tests that wait (on an X server, an animation, a
//! child process) beside those that compute (the vision stress, the
//! solver's proofs). Each test keeps to its own temporary folder, its own
//! child processes and, on X11, its own display; the X11 tests take their
//! turn one at a time (`x11_support::Desktop`), as they judge timing.
//!
//! `cargo test --test suite MODULE::` runs one file's tests, e.g.
//! `cargo test --test suite live_x11::`. The X11 modules are Unix-only (not
//! macOS); the rest also run as a Windows program under Wine
//! (`scripts/windows-test`) and on a Mac (the workflow's macOS job).

mod vision_support;
#[cfg(all(unix, not(target_os = "macos")))]
mod x11_support;

// The player's screen, on a real X server (Unix only; a Mac has its own
// desktop checks, scripts/macos-desktop).
#[cfg(not(target_os = "macos"))]
mod app_x11;
#[cfg(not(target_os = "macos"))]
mod assist_x11;
#[cfg(not(target_os = "macos"))]
mod desktop_x11;
#[cfg(not(target_os = "macos"))]
mod games_x11;
#[cfg(all(unix, not(target_os = "macos")))]
mod guided_x11;
#[cfg(not(target_os = "macos"))]
mod hostile_x11;
#[cfg(not(target_os = "macos"))]
mod live_x11;
#[cfg(not(target_os = "macos"))]
mod marks_x11;

// The command line through the real binary.
mod bench_cli;
mod calibrate_cli;
// DISPLAY and WAYLAND_DISPLAY's errors: X11's.
#[cfg(not(target_os = "macos"))]
mod capture_cli;
mod dry_run_cli;
mod hostile_input;
// Without DISPLAY no window opens on Linux; on a Mac it opens, and the
// run would wait for it to be closed.
#[cfg(not(target_os = "macos"))]
mod practice_cli;
mod solve_cli;
mod stats_cli;

// The library's stages end to end, in process.
mod fake_desktop;
mod samples;
mod seed_solution;
mod solver_correctness;
mod vision_light;
mod vision_real;
mod vision_stress;
