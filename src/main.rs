//! `bot`: the command line. All the work is in the `dustbot` library.

fn main() -> std::process::ExitCode {
    // On macOS the main thread serves the bot's windows (AppKit's rule),
    // the work on a thread of its own.
    #[cfg(target_os = "macos")]
    return dustbot::desktop::main_thread_serves_windows(false, dustbot::cli::main);
    #[cfg(not(target_os = "macos"))]
    dustbot::cli::main()
}
