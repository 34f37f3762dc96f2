//! `dustbot`: the desktop app, a window of the bot's own (no console on
//! Windows). All the work is in the `dustbot` library.
#![cfg_attr(windows, windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    // On macOS the main thread serves the bot's windows (AppKit's rule),
    // the app's door and runs on a thread of their own.
    #[cfg(target_os = "macos")]
    return dustbot::desktop::main_thread_serves_windows(true, dustbot::gui::main);
    #[cfg(not(target_os = "macos"))]
    dustbot::gui::main()
}
