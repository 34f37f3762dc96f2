//! `dustbot`: the desktop app, a window of the bot's own (no console on
//! Windows). All the work is in the `dustbot` library.
#![cfg_attr(windows, windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    dustbot::desk::main()
}
