//! The desktop floor: everything that touches the player's screen, and the
//! only place with per-platform code. It owns the window list and the game
//! window's geometry and pixels ([`capture`]), the mouse ([`input`]), the
//! stop requests (Ctrl-C and the signals that end a process, [`stop`]),
//! which windows are the bot's own (its terminal, its hint window), and
//! the bot's own windows themselves ([`own`]: the practice and hint
//! windows, `minifb` kept on this floor; [`marks`]: the hints drawn on
//! the game's own board). The rest of the bot is written against
//! the three traits here, [`Desktop`], [`GameWindow`] and [`Pointer`]: the
//! system's desktop (X11 through `xcap` and `enigo`, or Win32) implements
//! them, and so does [`fake`], a scripted desktop (frames in, clicks out)
//! on which the live loop and assist mode run without a screen.

pub mod capture;
pub mod fake;
pub mod input;
pub mod marks;
pub mod own;
mod screen;
pub mod stop;

// One platform under one name: the floor calls `platform::...` and each
// platform module has every function, those it has no use for doing
// nothing.
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as platform;
#[cfg(windows)]
mod win32;
#[cfg(windows)]
use win32 as platform;

use image::RgbaImage;

pub use capture::{CaptureError, WindowInfo, names, screens};
pub use input::{InputError, Mouse};
pub use marks::{BoardMarks, Mark};
pub use own::{Key, OwnWindow};
pub use screen::{Region, ScreenPoint, ScreenRect};

/// The game window, as live play and assist mode watch it.
pub trait GameWindow: std::fmt::Debug {
    /// The window as last refreshed (title, place, size).
    fn info(&self) -> &WindowInfo;

    /// The window's geometry now: an error when it is closed, minimised or
    /// of zero size.
    fn refresh(&mut self) -> Result<&WindowInfo, CaptureError>;

    /// The window's title now, for a message (a browser's tab may have
    /// changed it since the window was found); the title found when it
    /// cannot be read.
    fn title_now(&self) -> String {
        self.info().title.clone()
    }

    /// The windows in front of this one that overlap `region` of its
    /// client area (at its place as last refreshed), front-most first: a
    /// click there would land on them.
    fn covering(&self, region: Region) -> Result<Vec<WindowInfo>, CaptureError>;

    /// A picture of `region` of the client area (at the window's place as
    /// last refreshed) as the screen shows it, windows in front included,
    /// clipped to the screen the region starts on; returns the part
    /// captured, in client coordinates.
    fn capture_region(&mut self, region: Region) -> Result<(RgbaImage, Region), CaptureError>;

    /// Pictures of `parts` of the client area (at the window's place as
    /// last refreshed) as the screen shows them, one each: an error when
    /// one is not wholly on the screen the capture is on. For glances at a
    /// few rows, where one capture of all of them would take much more.
    fn capture_parts(&mut self, parts: &[Region]) -> Result<Vec<RgbaImage>, CaptureError> {
        capture::parts_of_one_capture(self, parts)
    }

    /// The screen the last capture was on, in desktop coordinates.
    fn screen(&self) -> Option<ScreenRect>;

    /// The display scale of the screen the last capture was on (1.0 for
    /// 100%, 1.5 for 150%): what the window manager's frames are drawn
    /// at.
    fn screen_scale(&self) -> f32 {
        1.0
    }

    /// The top-level window a press at `point` (desktop pixels) would go
    /// to, as the window system finds it there (its id as the window list
    /// gives it; `None` over the bare desktop): the game's own id when a
    /// click there reaches it. A window that lets clicks through (a
    /// transparent overlay) is not found; one the window list leaves out
    /// (the bot's own, on Windows) is.
    fn window_at(&self, point: ScreenPoint) -> Result<Option<u32>, CaptureError>;

    /// The whole client area as the screen shows it now (the geometry
    /// refreshed first), clipped to the screen it starts on.
    fn capture_client(&mut self) -> Result<RgbaImage, CaptureError> {
        let info = self.refresh()?;
        let client = Region::whole(info.width, info.height);
        Ok(self.capture_region(client)?.0)
    }
}

/// The mouse, as the bot moves and presses it. Coordinates are the
/// desktop's pixels, the same as capture's.
pub trait Pointer {
    /// Where the pointer is now, once every event sent before has been
    /// taken in by the window system (a round trip): a click's release
    /// read back here has reached it.
    fn location(&mut self) -> Result<ScreenPoint, InputError>;

    /// Puts the pointer at `to`.
    fn move_to(&mut self, to: ScreenPoint) -> Result<(), InputError>;

    /// Presses (`true`) or releases the primary button where the pointer
    /// is: the one applications take as the left click, which is the
    /// right-hand button of a left-handed player's swapped mouse.
    fn button(&mut self, down: bool) -> Result<(), InputError>;

    /// Whether the primary button is down as the window system has taken
    /// the events in so far: a release sent reads up only once it has
    /// arrived.
    fn primary_down(&mut self) -> Result<bool, InputError>;
}

/// The player's desktop: its windows and its mouse.
pub trait Desktop {
    /// Every window the window system lists, front-most first, except the
    /// bot's own (its process, its terminal and the console it runs in).
    fn windows(&mut self) -> Result<Vec<WindowInfo>, CaptureError>;

    /// The window `info` describes, to watch.
    fn open(&mut self, info: &WindowInfo) -> Result<Box<dyn GameWindow>, CaptureError>;

    /// The mouse.
    fn pointer(&mut self) -> Result<Box<dyn Pointer>, InputError>;

    /// The visible windows: not minimised, not of zero size.
    fn visible_windows(&mut self) -> Result<Vec<WindowInfo>, CaptureError> {
        Ok(self
            .windows()?
            .into_iter()
            .filter(WindowInfo::is_visible)
            .collect())
    }

    /// The one window whose title or application name contains `query`,
    /// ignoring case, and that is not a terminal showing the bot's
    /// command line (see [`capture::pick`]).
    fn find(&mut self, query: &str) -> Result<Box<dyn GameWindow>, CaptureError> {
        let all = self.windows()?;
        let info = capture::pick(&all, query, &capture::CommandLine::own())?;
        self.open(&info)
    }
}

/// The desktop the bot runs on.
pub fn system() -> capture::SystemDesktop {
    capture::SystemDesktop::new()
}

/// Prepares the process for the desktop before any window, capture or
/// input call: on Windows it declares itself per-monitor DPI aware, so
/// that captured pixels, window geometry and pointer coordinates are the
/// same pixels at any display scaling and on every monitor. Returns why
/// that failed, if it did (the bot then refuses to play on a scaled
/// display); elsewhere there is nothing to do.
pub fn prepare() -> Result<(), String> {
    platform::prepare()
}

/// Whether the bot was started on its own console (a double-click in
/// Explorer on Windows, a shortcut), which closes when the bot exits:
/// then a bare `bot` says what to do and waits for Enter instead of
/// flashing past.
pub fn own_console() -> bool {
    platform::own_console()
}

/// Whether the console the bot runs in closes when it exits (see
/// [`closes_at_exit`]): a failed run then waits for Enter, so that the
/// player can read why.
pub fn console_closes_at_exit() -> bool {
    platform::console_closes_at_exit()
}

/// Whether a console shared by `processes` processes, the bot's parent
/// having the command line `parent`, closes when the bot exits: the bot
/// alone on it (Windows made it for a double-click or a shortcut), or
/// the bot and the `cmd.exe /c` that runs a batch file (Explorer's way of
/// running one, and the console goes when the batch file ends). An
/// interactive `cmd` (the terminal stays) runs a batch file itself,
/// without `/c`.
pub fn closes_at_exit(processes: u32, parent: Option<&str>) -> bool {
    processes == 1 || (processes == 2 && parent.is_some_and(runs_a_batch_file))
}

/// Whether `command` is `cmd.exe /c` running a batch file (`.bat`, `.cmd`).
fn runs_a_batch_file(command: &str) -> bool {
    let command = command.to_lowercase();
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or_default().trim_matches('"');
    let cmd = program.ends_with("cmd.exe") || program == "cmd";
    let once = words.clone().any(|w| w.starts_with("/c"));
    let batch = words.any(|w| {
        let w = w.trim_matches('"');
        w.ends_with(".bat") || w.ends_with(".cmd")
    });
    cmd && once && batch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_console_that_closes_at_exit_keeps_a_failure_on_the_screen() {
        // A double-click, a shortcut: the bot alone on its console.
        assert!(closes_at_exit(1, None));
        // A batch file double-clicked: Explorer's cmd.exe /c runs it.
        let batch = r#"C:\WINDOWS\system32\cmd.exe /c ""C:\Users\Ana\Desktop\play dust.bat" ""#;
        assert!(closes_at_exit(2, Some(batch)));
        assert!(closes_at_exit(2, Some("cmd /C run.cmd")));
        // An interactive cmd runs the bot, or a batch file, itself.
        assert!(!closes_at_exit(2, Some(r"C:\WINDOWS\system32\cmd.exe")));
        assert!(!closes_at_exit(2, Some("powershell.exe -File run.bat")));
        assert!(!closes_at_exit(2, None));
        // cmd /c from a terminal: the terminal's shell shares the console.
        assert!(!closes_at_exit(3, Some(batch)));
    }
}
