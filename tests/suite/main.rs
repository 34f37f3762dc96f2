//! The end-to-end tests, one program: every file here is a module, so the
//! crate is linked into one test program instead of one per file, and
//! libtest runs the tests that wait (on an X server, an animation, a
//! child process) beside those that compute (the vision stress, the
//! solver's proofs). Each test keeps to its own temporary folder, its own
//! child processes and, on X11, its own display; the X11 tests take their
//! turn one at a time (`x11_support::Desktop`), as they judge timing.
//!
//! `cargo test --test suite MODULE::` runs one file's tests, e.g.
//! `cargo test --test suite live_x11::`. The X11 modules are Unix-only; the
//! rest also run as a Windows program under Wine (`scripts/windows-test`).

mod vision_support;
#[cfg(unix)]
mod x11_support;

// The player's screen, on a real X server (Unix only).
mod app_x11;
mod assist_x11;
mod desktop_x11;
mod games_x11;
#[cfg(unix)]
mod guided_x11;
mod hostile_x11;
mod live_x11;
mod marks_x11;

// The command line through the real binary.
mod bench_cli;
mod calibrate_cli;
mod capture_cli;
mod dry_run_cli;
mod hostile_input;
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
