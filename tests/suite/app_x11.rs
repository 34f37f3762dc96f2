//! The desktop app end to end: `dustbot` beside the practice window on a
//! real X server, no title given. The player is the test: keys sent to
//! the app's window, its buttons clicked at their places (the library's
//! layout says where), the hints followed in the practice window. Judged
//! from what the app says on its standard output (every line its window
//! shows), the practice window's click log and the default game log in
//! the test's folders, and the app's exit code.
// X11: Xvfb, openbox, xdotool.
#![cfg(unix)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dustbot::app::door::{Action, Offer};
use dustbot::game::{Board, Cell, Colour};
use dustbot::gui::layout::Layout;

use crate::x11_support::*;

/// A title that names no game: the practice window is found by its board.
const GAME: &str = "Dust Practice";

/// The app running, its window and its output.
pub(crate) struct App {
    process: Running,
    id: String,
    out: PathBuf,
    started: Instant,
}

/// Where the app said it last placed its window beside the game (its
/// frame's top-left), from all it said.
fn placed_at(said: &str) -> Option<(i32, i32)> {
    let (_, at) = said.rsplit_once("placed beside the game at (")?;
    let (x, y) = at.split_once(')')?.0.split_once(", ")?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

impl App {
    /// Starts `dustbot` with no argument and waits for its window.
    pub(crate) fn start(desktop: &Desktop) -> App {
        App::start_with(desktop, &[])
    }

    /// [`App::start`] with `env` set.
    pub(crate) fn start_with(desktop: &Desktop, env: &[(&str, &str)]) -> App {
        let started = Instant::now();
        let (process, id) = desktop.open_window("dustbot", || {
            let mut command =
                desktop.on_this_display(env!("CARGO_BIN_EXE_dustbot"), &[] as &[&str]);
            command.envs(env.iter().copied());
            command
        });
        App {
            process,
            id,
            out: desktop.path("dustbot.out"),
            started,
        }
    }

    pub(crate) fn said(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    /// Waits until the app has said `text` `times` times; all it said.
    pub(crate) fn wait_for(&self, text: &str, times: usize) -> String {
        let started = Instant::now();
        loop {
            let said = self.said();
            if said.matches(text).count() >= times {
                return said;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no {text:?} x{times} from the app:\n{said}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The app's window as it is now: the app opens it anew when it goes
    /// beside the game at another display scale, with another id.
    pub(crate) fn window(&self, desktop: &Desktop) -> String {
        let found = desktop.xdotool(&["search", "--onlyvisible", "--name", "^dustbot$"]);
        String::from_utf8_lossy(&found.stdout)
            .lines()
            .last()
            .map_or_else(|| self.id.clone(), str::to_owned)
    }

    /// Presses `key` (xdotool's name) in the app's window.
    pub(crate) fn key(&self, desktop: &Desktop, key: &str) {
        desktop.key_in(&self.window(desktop), key);
    }

    /// Presses q in the app's window: the app ends on the key's press,
    /// so the release may find the window gone (X BadWindow), which is
    /// no failure; the exit code says whether it quit.
    pub(crate) fn quit_by_key(&mut self, desktop: &Desktop) -> Option<i32> {
        desktop.focus(&self.window(desktop));
        let out = desktop.xdotool(&["keydown", "q"]);
        assert!(out.status.success(), "{out:?}");
        desktop.xdotool(&["keyup", "q"]);
        self.exit_code()
    }

    /// Says yes to the window found by its board: the practice window is
    /// named for no game, so the app asks first.
    pub(crate) fn yes_it_is_the_game(&self, desktop: &Desktop) {
        self.wait_for("is this window the game?", 1);
        self.key(desktop, "y");
        self.wait_for("found the game by its board", 1);
        // The menu, once the window is beside the game: moved by the
        // window manager a moment after the app asks, its frame's
        // top-left where the app said.
        let said = self.wait_for("menu: 1 Hints, 2 Play", 1);
        if let Some((x, y)) = placed_at(&said) {
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(2) {
                let window = self.window(desktop);
                if let Some((left, top)) = desktop.frame_extents(&window)
                    && desktop.client_place(&window) == (i64::from(x) + left, i64::from(y) + top)
                {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        // Left where it was (no room beside the game), or moved on by
        // the window manager (off a dock's strut): once it stays.
        let mut last = self.client_place(desktop);
        wait_for("the app's window to stay in its place", || {
            std::thread::sleep(Duration::from_millis(150));
            let now = self.client_place(desktop);
            let still = now == last;
            last = now;
            still.then_some(())
        });
    }

    /// The window's layout at the scale the app said last.
    pub(crate) fn layout(&self) -> Layout {
        let said = self.said();
        let scale: f32 = said
            .lines()
            .rev()
            .find_map(|l| l.split(" at scale ").nth(1))
            .expect("the app says its window's scale")
            .trim()
            .parse()
            .unwrap();
        Layout::new((8, 6), scale)
    }

    /// Clicks `button` of `row` where the window draws it.
    pub(crate) fn click_in(&self, desktop: &Desktop, offer: Offer, button: Action) {
        let (_, rect) = self
            .layout()
            .buttons(offer.actions())
            .into_iter()
            .find(|(b, _)| *b == button)
            .unwrap();
        self.click_at(desktop, rect.centre());
    }

    /// Clicks `button` of the menu where the window draws it.
    pub(crate) fn click(&self, desktop: &Desktop, button: Action) {
        self.click_in(desktop, Offer::Menu, button);
    }

    /// Clicks the point `(x, y)` of the window's client area.
    pub(crate) fn click_at(&self, desktop: &Desktop, (x, y): (i64, i64)) {
        let (left, top) = self.client_place(desktop);
        desktop.click((left + x, top + y));
    }

    /// The top-left of the window's client area on the screen, as
    /// `xwininfo` gives it (xdotool's geometry of a window in a frame is
    /// off by the frame's title bar under openbox).
    pub(crate) fn client_place(&self, desktop: &Desktop) -> (i64, i64) {
        desktop.client_place(&self.window(desktop))
    }

    /// Sends `signal` ("STOP", "CONT", "TERM") to the app.
    pub(crate) fn signal(&self, signal: &str) {
        self.process.signal(signal);
    }

    /// Waits for the process to end; its exit code.
    pub(crate) fn exit_code(&mut self) -> Option<i32> {
        let status = wait_for("the app to end", || self.process.0.try_wait().unwrap());
        status.code()
    }
}

#[test]
fn a_fault_on_the_windows_thread_ends_the_app_with_its_reason_and_frees_its_lock() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    let mut app = App::start_with(&desktop, &[("DUSTBOT_WINDOWS_FAULT", "1")]);
    app.yes_it_is_the_game(&desktop);
    app.key(&desktop, "1");
    app.wait_for("hint: click", 1);
    // A test build's fault on the windows' thread: the window goes with
    // it; the app, which read only its inbox, looped on without one.
    app.key(&desktop, "F12");
    assert_eq!(app.exit_code(), Some(2), "{}", app.said());
    let said = app.said();
    assert!(
        said.contains("ended: back at the menu"),
        "the run's summary: {said}"
    );
    assert!(said.contains("dustbot: closed"), "{said}");
    assert!(
        said.contains(
            "error: the window is gone: the windows' thread stopped on a fault: a fault injected"
        ),
        "{said}"
    );
    // Its lock released: a start now opens the app, which quits with 0.
    let mut again = App::start(&desktop);
    assert_eq!(again.quit_by_key(&desktop), Some(0), "{}", again.said());
}

#[test]
fn the_app_beside_the_game_stays_above_a_dock_at_the_screens_bottom() {
    let desktop = Desktop::start();
    // A taskbar's 60 px: the app beside a game whose top is 220 px down
    // would reach 220 + its 813 px with the frame, over the dock, on the
    // whole screen's 1000.
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let out = desktop.xdotool(&["windowmove", &practice.id, "0", "220"]);
    assert!(out.status.success(), "{out:?}");
    let (_dock, work_bottom) = desktop.dock_at_bottom(60);
    assert_eq!(work_bottom, 940);
    let app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    let said = app.wait_for("placed beside the game", 1);
    let (_, game_y, _, _) = desktop.window_rectangle(&practice.id);
    let (_, _, _, h) = desktop.window_rectangle(&app.window(&desktop));
    assert!(game_y >= 200, "the game at {game_y}: {said}");
    // Where the bot put it (its frame's top-left), not where the window
    // manager let it go (openbox keeps a window off a strut by itself, as
    // Windows does not): with the frame Windows gives at 100% (31 px
    // above the client area, 8 below), above the dock.
    let (_, placed_y) = placed_at(&said).unwrap_or_else(|| panic!("no place said: {said}"));
    assert!(
        placed_y + 31 + h + 8 <= work_bottom,
        "placed at y {placed_y}, {h} px tall, under the dock (from {work_bottom}): {said}"
    );
    assert!(
        !desktop.overlap(&app.window(&desktop), &practice.id),
        "{said}"
    );
}

#[test]
fn the_apps_window_is_of_one_size_and_openbox_offers_no_maximise_for_it() {
    let desktop = Desktop::start();
    let mut app = App::start(&desktop);
    let said = app.wait_for("looking again every", 1);
    let window = app.window(&desktop);
    let out = desktop
        .on_this_display(
            "xprop",
            &["-id", &window, "WM_NORMAL_HINTS", "_NET_WM_ALLOWED_ACTIONS"],
        )
        .output()
        .expect("xprop (scripts/install-deps installs x11-utils)");
    let hints = String::from_utf8_lossy(&out.stdout);
    // Its size fixed: as small as it is big, the size it said.
    let (_, _, w, h) = desktop.window_rectangle(&window);
    let size = format!("{w} by {h}");
    for bound in ["minimum size", "maximum size"] {
        assert!(
            hints.contains(&format!("program specified {bound}: {size}")),
            "{bound} {size}: {hints}\n{said}"
        );
    }
    // So the window manager offers neither a maximise nor a resize
    // (openbox 3.6 still draws the button, which then does nothing).
    let actions = hints
        .lines()
        .find(|l| l.starts_with("_NET_WM_ALLOWED_ACTIONS"))
        .unwrap_or_default();
    assert!(actions.contains("_NET_WM_ACTION_MINIMIZE"), "{hints}");
    assert!(actions.contains("_NET_WM_ACTION_CLOSE"), "{hints}");
    assert!(!actions.contains("_NET_WM_ACTION_MAXIMIZE"), "{hints}");
    assert!(!actions.contains("_NET_WM_ACTION_RESIZE"), "{hints}");
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
}

/// A netbook's screen, where the app beside the practice window (720x560,
/// centred by openbox) has no room at any scale.
const NETBOOK: &str = "1024x600x24";

#[test]
fn on_a_1024x600_screen_the_app_opens_off_the_game_small_and_partly_off_the_screen() {
    let desktop = Desktop::start_on(NETBOOK);
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let mut frames = desktop.watch_frames();
    let mut app = App::start(&desktop);
    // Off the game from the start: its board read, the game asked about,
    // never the bot's own window over it, shown where it opened and
    // nowhere first (where openbox puts a new window, over the game).
    app.wait_for("is this window the game?", 1);
    let shown = frames.shown_at(&app.window(&desktop));
    assert_eq!(shown.len(), 1, "the app's frame was shown at {shown:?}");
    app.yes_it_is_the_game(&desktop);
    let said = app.wait_for("placed beside the game", 1);
    assert!(!said.contains("covers the windows"), "{said}");
    assert!(!said.contains("no room beside the game"), "{said}");
    assert!(said.contains("at scale 0.5"), "{said}");
    let window = app.window(&desktop);
    assert!(!desktop.overlap(&window, &practice.id), "{said}");
    // Partly off the screen's right edge, three quarters of it on it.
    let (x, _, width, _) = desktop.window_rectangle(&window);
    assert!(
        x + width > 1024 && x + width * 3 / 4 <= 1024,
        "at {x}, {width} wide: {said}"
    );
    // Played from there.
    app.key(&desktop, "2");
    app.wait_for("cleared in 11 clicks", 1);
    assert_eq!(practice.clicks().len(), 11);
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
}

#[test]
fn a_game_that_leaves_no_room_has_the_app_ask_to_be_moved_never_to_start_the_game() {
    // An 800x600 screen: the game's 720 px leave no place clear of it.
    let desktop = Desktop::start_on("800x600x24");
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    let mut app = App::start(&desktop);
    let said = app.wait_for("covers the windows it would read", 1);
    assert!(said.contains("the bot's own window (\"dustbot\""), "{said}");
    assert!(said.contains("move it aside"), "{said}");
    // A key asks for the game: the line that says why stays.
    app.key(&desktop, "1");
    std::thread::sleep(Duration::from_millis(500));
    let said = app.said();
    assert!(!said.contains("start the dust game"), "{said}");
    assert!(!said.contains("no game found"), "{said}");
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
}

#[test]
fn key_2_clears_the_game_in_the_optimum_record_shows_it_and_closing_ends_with_0() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let mut app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    let said = app.wait_for("optimum 11 clicks, proven", 1);
    assert!(said.contains("calibration: "), "{said}");
    // Beside the game, never over it.
    assert!(said.contains("placed beside the game"), "{said}");
    assert!(
        !desktop.overlap(&app.window(&desktop), &practice.id),
        "{said}"
    );
    app.key(&desktop, "2");
    let said = app.wait_for("cleared in 11 clicks", 1);
    assert!(said.contains("move the mouse to stop"), "{said}");
    assert_eq!(practice.clicks().len(), 11, "{said}");
    // Game after game until Stop: Escape ends the run with its summary.
    app.key(&desktop, "Escape");
    let said = app.wait_for("1 game(s): 1 cleared", 1);
    assert!(!said.contains("error"), "{said}");
    let games = desktop.recorded();
    assert_eq!(games.len(), 1, "{said}");
    assert_eq!(games[0]["mode"], "play");
    assert_eq!(games[0]["cleared"], true);
    app.click(&desktop, Action::Record);
    // In the app's own window: no viewer over the game.
    let said = app.wait_for("the plot is drawn here", 1);
    assert!(!said.contains("picture viewer"), "{said}");
    assert!(said.contains("1 game in "), "{said}");
    assert!(said.contains("over optimum"), "{said}");
    assert!(desktop.path("data/dustbot/record.png").is_file(), "{said}");
    // The window closed from outside: the app ends, with 0.
    let out = desktop.xdotool(&["windowclose", &app.window(&desktop)]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(app.exit_code(), Some(0), "{}", app.said());
}

/// The screen point of the hint `n` (from 1) the app said, once said.
fn hint(said: &str, n: usize) -> Option<(i64, i64)> {
    let line = said
        .lines()
        .filter(|l| l.starts_with("hint: click"))
        .nth(n - 1)?;
    let at = line.split(" at (").nth(1)?;
    let (x, rest) = at.split_once(", ")?;
    let y = rest.split(')').next()?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

#[test]
fn hints_by_button_lead_to_the_clear_stop_ends_them_and_q_quits() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let picture = std::env::var_os("DUSTBOT_APP_PICTURE");
    if picture.is_some() {
        // The calibration in the working folder, named there as a
        // player's is: no path of this machine in the picture.
        std::fs::create_dir(desktop.path("calibration")).unwrap();
        let default = crate::vision_support::repo("calibration/nodiatis.toml");
        std::fs::copy(default, desktop.path("calibration/nodiatis.toml")).unwrap();
    }
    let mut app = App::start(&desktop);
    // The time to the first hint, in the player's steps (the window of a
    // game named Nodiatis needs no yes): measured, said, and bounded
    // loosely (a loaded machine is slower).
    app.wait_for("is this window the game?", 1);
    let found = app.started.elapsed();
    app.yes_it_is_the_game(&desktop);
    app.click(&desktop, Action::Hints);
    let clicked = Instant::now();
    app.wait_for("hint: click", 1);
    let first_hint = clicked.elapsed();
    eprintln!(
        "dustbot: the game found {:.2} s after the start; the first hint {:.2} s after the Hints button",
        found.as_secs_f64(),
        first_hint.as_secs_f64()
    );
    assert!(first_hint < Duration::from_secs(10), "{first_hint:?}");
    // The README's picture, when asked for: the app beside the game, the
    // next click marked on the game's own board.
    if let Some(path) = picture {
        app.wait_for("hints marked on the board", 1);
        let (gx, gy, gw, gh) = desktop.window_rectangle(&practice.id);
        let (ax, ay, aw, ah) = desktop.window_rectangle(&app.window(&desktop));
        let (left, top) = (gx.min(ax) - 8, gy.min(ay) - 30);
        let (right, bottom) = ((gx + gw).max(ax + aw) + 8, (gy + gh).max(ay + ah) + 8);
        let shot = screenshot(&desktop.display);
        let (width, height) = (right - left, bottom.min(shot.height() as i32) - top);
        let both =
            image::imageops::crop_imm(&shot, left as u32, top as u32, width as u32, height as u32);
        let (w, h) = (width as u32 * 3 / 4, height as u32 * 3 / 4);
        image::imageops::resize(
            &both.to_image(),
            w,
            h,
            image::imageops::FilterType::Triangle,
        )
        .save(path)
        .unwrap();
    }
    // The player follows every hint, as the app says it.
    for n in 1..=11 {
        let said = app.wait_for("hint: click", n);
        desktop.click(hint(&said, n).unwrap());
        practice.wait_for_clicks(n);
    }
    let said = app.wait_for("cleared in 11 clicks", 1);
    assert_eq!(practice.clicks().len(), 11, "{said}");
    app.click(
        &desktop,
        Action::Stop(dustbot::desktop::stop::Asker::StopButton),
    );
    let said = app.wait_for("1 game(s): 1 cleared", 1);
    assert!(!said.contains("error"), "{said}");
    let games = desktop.recorded();
    assert_eq!(games.len(), 1, "{said}");
    assert_eq!(games[0]["mode"], "assist");
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
}

/// The board the app says it read to calibrate on, its `n`th (from 1).
fn board_read(said: &str, n: usize) -> Board {
    said.lines()
        .filter_map(|l| l.strip_prefix("calibrate: the board read: "))
        .nth(n - 1)
        .expect("the board read, said")
        .parse()
        .unwrap()
}

#[test]
fn key_3_shows_the_board_a_click_changes_a_cell_escape_keeps_the_old_and_save_calibrates() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let mut app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.wait_for("optimum 11 clicks, proven", 1);
    let saved = desktop.path("config/dustbot/calibration.toml");
    // 3: the board read from the game's window, shown for the player.
    app.key(&desktop, "3");
    let said = app.wait_for("calibrate: is this the board in the game?", 1);
    let board = board_read(&said, 1);
    assert_eq!(board, REAL_BOARD.parse().unwrap());
    // A click on the top-left cell gives it the next colour.
    let top_left = Cell::new(0, 5);
    let was = board.get(top_left).unwrap();
    let next = Colour::new(was.index() + 1).filter(|c| c.index() < 5);
    app.click_at(&desktop, app.layout().cell_centre(top_left));
    let now = match next {
        Some(c) => format!("is now {} {}", c.letter(), c.name()),
        None => "is now empty".to_owned(),
    };
    app.wait_for(&format!("calibrate: column 0 row 5 {now}"), 1);
    // Saved as it is, that board is not the game's: said in the window,
    // nothing written, the board still shown to correct.
    app.key(&desktop, "Return");
    let said = app.wait_for("error: cannot learn the colours: nothing saved", 1);
    assert!(!saved.exists(), "{said}");
    // Escape leaves the calibration as it was.
    app.key(&desktop, "Escape");
    let said = app.wait_for("calibration unchanged: ", 1);
    assert!(!saved.exists(), "{said}");
    assert!(!said.contains("saved the calibration"), "{said}");
    // 3 again: the board read anew, the correction gone; Save (the
    // button) calibrates on it.
    app.key(&desktop, "3");
    let said = app.wait_for("calibrate: is this the board in the game?", 2);
    assert_eq!(board_read(&said, 2), board);
    app.click_in(&desktop, Offer::Calibrating, Action::Save);
    let said = app.wait_for("saved the calibration as ", 1);
    calibration_saved(&desktop, &said);
    // Hints read the board with it: the first hint followed, the next one
    // read from the board it left.
    app.key(&desktop, "1");
    let said = app.wait_for("hint: click", 1);
    assert!(
        said.contains(&format!("reading with the calibration {}", saved.display())),
        "{said}"
    );
    desktop.click(hint(&said, 1).unwrap());
    practice.wait_for_clicks(1);
    app.wait_for("hint: click", 2);
    app.key(&desktop, "Escape");
    app.wait_for("ended: back at the menu", 1);
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
}

#[test]
fn pause_stops_hints_from_the_game_and_is_given_back_at_the_end() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.key(&desktop, "1");
    app.wait_for("hint: click", 1);
    let said = app.wait_for("Pause or Ctrl+Shift+Backspace stops from anywhere", 1);
    assert!(!said.contains("not available"), "{said}");
    // The keyboard is the game's: Pause pressed there ends the hints,
    // said as the stop it is, with no error.
    desktop.focus(&practice.id);
    let out = desktop.xdotool(&["key", "Pause"]);
    assert!(out.status.success(), "{out:?}");
    let said = app.wait_for("ended: back at the menu", 1);
    assert!(said.contains("stopped by the Pause key"), "{said}");
    assert!(!said.contains("error"), "{said}");
    assert!(practice.clicks().is_empty(), "{said}");
    // Given back at the end: the next run takes it again, and the stop
    // of the keyboards without Pause, Ctrl+Shift+Backspace from the game,
    // ends it. Ctrl+Alt+S (AltGr+S, a Polish "s acute" on Windows) is
    // the game's: typed there first, it stops nothing, and the stop is
    // said as the chord's.
    app.key(&desktop, "1");
    let said = app.wait_for("Pause or Ctrl+Shift+Backspace stops from anywhere", 2);
    assert!(!said.contains("not available"), "{said}");
    desktop.focus(&practice.id);
    let out = desktop.xdotool(&["key", "ctrl+alt+s"]);
    assert!(out.status.success(), "{out:?}");
    let out = desktop.xdotool(&["key", "ctrl+shift+BackSpace"]);
    assert!(out.status.success(), "{out:?}");
    let said = app.wait_for("ended: back at the menu", 2);
    assert!(said.contains("stopped by Ctrl+Shift+Backspace"), "{said}");
    assert!(practice.clicks().is_empty(), "{said}");
}

#[test]
fn a_pause_key_another_program_holds_is_said_and_the_hints_go_on() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    // `bot` alone's hints hold the Pause key while they go on.
    let bot = desktop.start_bot(GAME, &["--assist", "--games", "0"]);
    wait_for("the bot to hold the Pause key", || {
        let out = std::fs::read_to_string(desktop.path("bot.out")).unwrap_or_default();
        out.contains("Pause or Ctrl+Shift+Backspace stops from anywhere")
            .then_some(())
    });
    let app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.key(&desktop, "1");
    let said = app.wait_for("the Pause key is not available", 1);
    assert!(said.contains("another program holds it"), "{said}");
    assert!(said.contains("Stop here ends the run"), "{said}");
    // The run goes on without it.
    app.wait_for("hint: click", 1);
    app.key(&desktop, "Escape");
    let said = app.wait_for("ended: back at the menu", 1);
    assert!(!said.contains("error"), "{said}");
    bot.interrupt();
    let finished = bot.finish();
    assert!(
        finished
            .stdout
            .contains("Pause or Ctrl+Shift+Backspace stops from anywhere"),
        "{}",
        finished.dump()
    );
}

#[test]
fn a_request_to_end_or_the_windows_connection_killed_end_the_app_with_its_summary() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    // SIGTERM (`kill PID`, a log-out) during hints.
    let mut app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.key(&desktop, "1");
    app.wait_for("ends them", 1);
    app.signal("TERM");
    assert_eq!(app.exit_code(), Some(0), "{}", app.said());
    let said = app.said();
    assert!(
        said.contains("; stopped by a request to end the bot"),
        "{said}"
    );
    assert!(
        said.trim_end()
            .ends_with("dustbot: closed by a request to end the bot"),
        "{said}"
    );
    // xkill on its window: the connection of its windows killed, the run
    // ended and said before the process goes.
    let mut app = App::start(&desktop);
    app.wait_for("menu: 1 Hints, 2 Play", 1);
    app.key(&desktop, "1");
    app.wait_for("ends them", 1);
    let killed = desktop.xdotool(&["windowkill", &app.window(&desktop)]);
    assert!(killed.status.success(), "{killed:?}");
    app.exit_code();
    let said = app.said();
    let last = said.split("dustbot 0.").last().unwrap_or_default();
    assert!(last.contains("; stopped by the display closing"), "{said}");
    assert!(
        last.trim_end()
            .ends_with("dustbot: closed by the display closing"),
        "{said}"
    );
}

#[test]
fn a_game_log_that_cannot_take_a_record_mid_session_is_said_in_the_window() {
    let desktop = Desktop::start();
    let _practice = desktop.practice(REAL_BOARD, 150, GAME);
    // A disk that holds 64 KiB of each file the app writes (`ulimit -f`,
    // SIGXFSZ ignored, so that a write past it fails as on a full disk),
    // and a game log as full as that already (blank lines, which the
    // record skips): the settings and the app's words fit, a game's
    // record does not.
    let log = desktop.path("data/dustbot/games.jsonl");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    std::fs::write(&log, "\n".repeat(65_400)).unwrap();
    let (process, _) = desktop.open_window("dustbot", || {
        desktop.on_this_display(
            "sh",
            &[
                "-c",
                "trap '' XFSZ; ulimit -f 128; exec \"$0\"",
                env!("CARGO_BIN_EXE_dustbot"),
            ],
        )
    });
    let out = desktop.path("dustbot.out");
    let said = || std::fs::read_to_string(&out).unwrap_or_default();
    wait_for("the question", || {
        said().contains("is this window the game?").then_some(())
    });
    desktop.key_in(&first_window(&desktop), "y");
    wait_for("the menu", || {
        said().contains("menu: 1 Hints, 2 Play").then_some(())
    });
    desktop.key_in(&first_window(&desktop), "2");
    let all = wait_for("the game's record refused, said", || {
        let all = said();
        all.contains("the games from here on are not recorded")
            .then_some(all)
    });
    assert!(all.contains("cleared in 11 clicks"), "{all}");
    process.signal("TERM");
}

/// The app's window, as xdotool finds it.
fn first_window(desktop: &Desktop) -> String {
    let found = desktop.xdotool(&["search", "--onlyvisible", "--name", "^dustbot$"]);
    String::from_utf8_lossy(&found.stdout)
        .lines()
        .last()
        .expect("the app's window")
        .to_owned()
}
