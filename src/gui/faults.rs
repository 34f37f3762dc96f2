//! Nothing vanishes: the app's failures that no window shows (an error
//! before its window opens, a panic) are appended to the app's log in the
//! data folder ([`logging::append`]), which the report takes, and shown
//! where a program without a console can show them (a message box on
//! Windows). A panic's hook
//! does both, then Rust's own hook prints it as ever.

use crate::app::logging::{self, append as write};
use crate::desktop;

/// `text` said everywhere a failure goes: standard error, the log, and a
/// message box where the platform has one.
pub fn say(text: &str) {
    eprintln!("{text}");
    write(text);
    let told = match logging::app_log() {
        Some(path) => format!("{text}\n\n(also written to {})", path.display()),
        None => text.to_owned(),
    };
    desktop::show_message("dustbot", &told);
}

/// Installs the panic hook: a panic written to the log, and on the main
/// thread (the app ends) said as [`say`] does; then as Rust says it. A
/// run's thread that panics ends in the window's Failed, which says it.
pub fn catch_panics() {
    let rust = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = format!("dustbot stopped on a fault: {info}");
        if std::thread::current().name() == Some("main") {
            say(&text);
        } else {
            write(&text);
        }
        rust(info);
    }));
}
