//! What a player's own desktop does to the bot, on a real X server with
//! openbox: another dustbot running beside it, another desktop switched
//! to in the middle of a game, a notification over the board. The bot
//! takes none of them for the game, records no game they did not give,
//! keeps no picture of them, and goes on once the game shows again.
// X11: Xvfb, openbox, xdotool, xmessage, tmux.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use dustbot::app::door::{Action, Offer};
use dustbot::gui::layout::Layout;

use crate::app_x11::App;
use crate::guided_x11::Pane;
use crate::x11_support::*;

/// A title that names no game: the practice window is found by its board.
const GAME: &str = "Dust Practice";

/// The practice window on the real game's board (11 clicks) at the
/// screen's top-left, with its animations at `anim_ms`.
fn game_at_corner(desktop: &Desktop, anim_ms: u64) -> Practice {
    let game = desktop.practice(REAL_BOARD, anim_ms, GAME);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    game
}

/// What the bot wrote on its standard output so far.
fn said(desktop: &Desktop) -> String {
    std::fs::read_to_string(desktop.path("bot.out")).unwrap_or_default()
}

/// Waits until the bot has said `text`; all it said.
fn wait_said(desktop: &Desktop, text: &str) -> String {
    wait_for(&format!("the bot to say {text:?}"), || {
        let all = said(desktop);
        all.contains(text).then_some(all)
    })
}

/// The pictures in the bot's debug folder (the test's `debug/`).
fn frames_kept(desktop: &Desktop) -> Vec<PathBuf> {
    std::fs::read_dir(desktop.path("debug"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "png"))
                .collect()
        })
        .unwrap_or_default()
}

/// Follows hints `from..to` (0-based) of the hint log at `log`, as the
/// player clicks them, and waits for the hint after the last.
fn follow(desktop: &Desktop, log: &Path, from: usize, to: usize) {
    for n in from..to {
        desktop.click(hinted_point(&hint(log, n)));
        hint(log, n + 1);
    }
}

/// The game at the corner (11 clicks) and the assistant on it, with its
/// hint log: the window, the run, the log.
fn hinting(desktop: &Desktop) -> (Practice, BotRun, PathBuf) {
    let game = game_at_corner(desktop, 150);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    (game, bot, log)
}

/// Follows the hints from line `from` to the end: the run ends well, the
/// player's every click was one of the 11 hinted, and the one game
/// recorded is cleared in them.
fn hinted_to_the_end(
    desktop: &Desktop,
    game: &Practice,
    bot: BotRun,
    log: &Path,
    from: usize,
) -> Finished {
    let (lines, _) = follow_hints(desktop, log, from);
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert_eq!(lines.last().unwrap()["clicks"], 11, "{lines:?}");
    assert_eq!(game.clicks().len(), 11, "{}", run.dump());
    let games = desktop.recorded();
    assert_eq!(games.len(), 1, "{games:?}\n{}", run.dump());
    assert_eq!(games[0]["cleared"], true, "{}", games[0]);
    let clicks = games[0]["clicks"].as_array().map(Vec::len);
    assert_eq!(clicks, Some(11), "{}", games[0]);
    run
}

/// `bot report` written in the data folder, the one report there: its
/// page.
fn the_report(desktop: &Desktop) -> String {
    let out = desktop.run_bot(&["report"]);
    assert!(out.status.success(), "{out:?}");
    let reports: Vec<PathBuf> = std::fs::read_dir(desktop.path("data/dustbot"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("report-"))
        .collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    std::fs::read_to_string(&reports[0]).unwrap()
}

/// A notification as a desktop's notifier draws it: a window of its own
/// over the others that no window manager frames or lists
/// (override-redirect), here over the whole board of the game at the
/// corner.
fn notification(desktop: &Desktop) -> Running {
    let child = Command::new("xmessage")
        .args([
            "-xrm",
            "*overrideRedirect: True",
            "-geometry",
            "720x600+0+0",
            "You have 3 new messages",
        ])
        .env("DISPLAY", &desktop.display)
        .spawn()
        .expect("xmessage (scripts/install-deps installs x11-utils)");
    // Mapped and drawn at once: no window manager stands between.
    std::thread::sleep(Duration::from_millis(500));
    Running(child)
}

#[test]
fn another_dustbots_window_is_never_taken_for_the_game() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    // The app beside the game shows the board it read, in the game's look.
    let app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.wait_for("optimum 11 clicks, proven", 1);
    // `bot windows` says what it is.
    let out = desktop.run_bot(&["windows"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    let line = listed
        .lines()
        .find(|l| l.starts_with("dustbot "))
        .unwrap_or_else(|| panic!("the app's window is not listed: {listed}"));
    assert!(line.ends_with("dustbot's own: never the game"), "{listed}");
    // --window never takes it.
    let out = desktop.run_bot(&["--window", "dustbot", "--dry-run"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no visible window"), "{stderr}");
    // `bot` alone, the window the app remembered forgotten, reads every
    // window: it asks about the game alone.
    std::fs::remove_file(desktop.path("config/dustbot/settings.toml")).unwrap();
    let pane = Pane::start(&desktop, &[]);
    let screen = pane.wait_for("is this window the game?", 1);
    assert!(
        screen.contains(&format!("a full board shows in \"{GAME}")),
        "{screen}"
    );
    assert!(!screen.contains("\"dustbot\""), "{screen}");
    assert!(!screen.contains("windows may be the game"), "{screen}");
}

#[test]
fn hints_wait_out_another_desktop_and_go_on_where_they_were() {
    let desktop = Desktop::start();
    let (game, bot, log) = hinting(&desktop);
    follow(&desktop, &log, 0, 3);
    // Another desktop, a window on it where the board was: the screen
    // there is no frame of the game, nor an empty board.
    let out = desktop.xdotool(&["set_desktop", "1"]);
    assert!(out.status.success(), "{out:?}");
    let (_notes, _) = desktop.plain_window("notes");
    let waiting = wait_said(&desktop, "waiting");
    assert!(waiting.contains("is not on the screen"), "{waiting}");
    std::thread::sleep(Duration::from_secs(2));
    assert!(!said(&desktop).contains("cleared"), "{}", said(&desktop));
    assert!(desktop.recorded().is_empty(), "{:?}", desktop.recorded());
    // Back: the hints go on from the fourth click, to the end.
    let out = desktop.xdotool(&["set_desktop", "0"]);
    assert!(out.status.success(), "{out:?}");
    // The waiting line is over, and said to be.
    wait_said(&desktop, "the board reads again: the hints go on");
    let run = hinted_to_the_end(&desktop, &game, bot, &log, 3);
    assert!(
        run.stdout.contains("cleared in 11 clicks"),
        "{}",
        run.dump()
    );
    // No log line for the player to read but those asked for.
    assert!(!run.stderr.contains("marks on the board"), "{}", run.dump());
}

#[test]
fn a_notification_over_the_board_is_no_empty_board_and_no_frame_is_kept() {
    let desktop = Desktop::start();
    let (game, bot, log) = hinting(&desktop);
    follow(&desktop, &log, 0, 2);
    // Over the whole board, where no window list shows it: the hints wait.
    let shown = notification(&desktop);
    let waiting = wait_said(&desktop, "waiting");
    assert!(
        waiting.contains("other pixels than the game's"),
        "{waiting}"
    );
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        frames_kept(&desktop).is_empty(),
        "{:?}",
        frames_kept(&desktop)
    );
    assert!(desktop.recorded().is_empty(), "{:?}", desktop.recorded());
    // Gone: the hints go on to the end.
    drop(shown);
    hinted_to_the_end(&desktop, &game, bot, &log, 2);
    assert!(
        frames_kept(&desktop).is_empty(),
        "{:?}",
        frames_kept(&desktop)
    );
}

#[test]
fn play_stopped_by_a_notification_keeps_no_picture_of_it_and_the_report_says_so() {
    let desktop = Desktop::start();
    // Slow moves, so that the notification comes while the bot plays.
    let game = game_at_corner(&desktop, 600);
    let bot = desktop.start_bot(GAME, &[]);
    game.wait_for_clicks(2);
    let _shown = notification(&desktop);
    let run = bot.finish();
    assert_eq!(run.code, Some(2), "{}", run.dump());
    assert!(
        frames_kept(&desktop).is_empty(),
        "{:?}",
        frames_kept(&desktop)
    );
    // The report takes no frame, and says which it takes.
    let page = the_report(&desktop);
    assert!(page.contains("the 0 newest frames the bot saved"), "{page}");
    assert!(
        !page.contains("data:image/png"),
        "the report holds a picture"
    );
}

/// The share of the pixels that two captures of one place have alike.
fn alike(a: &[u8], b: &[u8]) -> f64 {
    let same = a
        .chunks(4)
        .zip(b.chunks(4))
        .filter(|(p, q)| p[..3] == q[..3])
        .count();
    same as f64 / (a.len() / 4).max(1) as f64
}

/// The screen's pixels in the rectangle `(x, y, width, height)`, RGBA.
fn screen_pixels(display: &str, (x, y, w, h): (i32, i32, i32, i32)) -> Vec<u8> {
    let shot = screenshot(display);
    image::imageops::crop_imm(&shot, x as u32, y as u32, w as u32, h as u32)
        .to_image()
        .into_raw()
}

#[test]
fn the_apps_window_is_drawn_again_once_another_window_uncovers_it() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    let app = App::start(&desktop);
    // At the menu nothing changes: nothing else draws the window again.
    app.yes_it_is_the_game(&desktop);
    app.wait_for("optimum 11 clicks, proven", 1);
    let id = app.window(&desktop);
    // The part on the screen: the frame may reach past its edge.
    let (x, y, w, h) = desktop.window_rectangle(&id);
    let screen = desktop.xdotool(&["getdisplaygeometry"]);
    let screen = String::from_utf8_lossy(&screen.stdout).into_owned();
    let (right, bottom) = screen.trim().split_once(' ').unwrap();
    let rect = (
        x,
        y,
        w.min(right.parse::<i32>().unwrap() - x),
        h.min(bottom.parse::<i32>().unwrap() - y),
    );
    // Its picture, held still: no game, no search's news.
    let drawn = wait_for("the app's window to hold still", || {
        let a = screen_pixels(&desktop.display, rect);
        std::thread::sleep(Duration::from_millis(300));
        let b = screen_pixels(&desktop.display, rect);
        (alike(&a, &b) > 0.99).then_some(b)
    });
    // Another window over it, as openbox (no compositor) shows it, then
    // gone: what it covered is the app's to draw again.
    let (cover, cover_id) = desktop.plain_window("cover");
    let (x, y, w, h) = rect;
    let (x, y, w, h) = (x.to_string(), y.to_string(), w.to_string(), h.to_string());
    for args in [
        ["windowmove", "--sync", &cover_id, &x, &y].as_slice(),
        &["windowsize", "--sync", &cover_id, &w, &h],
        &["windowraise", &cover_id],
    ] {
        let out = desktop.xdotool(args);
        assert!(out.status.success(), "{out:?}");
    }
    wait_for("the cover over the app", || {
        (alike(&drawn, &screen_pixels(&desktop.display, rect)) < 0.5).then_some(())
    });
    drop(cover);
    // At once, as a player sees it: within a second.
    let uncovered = std::time::Instant::now();
    while alike(&drawn, &screen_pixels(&desktop.display, rect)) < 0.99 {
        assert!(
            uncovered.elapsed() < Duration::from_secs(1),
            "the app's window was not drawn again"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_app_killed_from_outside_during_play_leaves_the_button_up_and_records_the_game() {
    let desktop = Desktop::start();
    // Slow moves: the app is killed while it plays.
    let game = desktop.practice(REAL_BOARD, 600, GAME);
    let mut app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.wait_for("optimum 11 clicks, proven", 1);
    app.key(&desktop, "2");
    game.wait_for_clicks(2);
    // xkill ends the connection of the app's window: its other
    // connections (the mouse's among them) live on until the process ends.
    desktop.x_tool("xkill", &["-id", &app.window(&desktop)]);
    app.exit_code();
    assert!(!left_button_down(&desktop.display), "{}", app.said());
    let games = desktop.recorded();
    assert_eq!(games.len(), 1, "{games:?}\n{}", app.said());
    assert_eq!(games[0]["mode"], "play", "{}", games[0]);
    assert_eq!(games[0]["cleared"], false, "{}", games[0]);
    assert_eq!(games[0]["end"], "interrupted", "{}", games[0]);
    let clicks = games[0]["clicks"].as_array().map_or(0, Vec::len);
    assert!((2..11).contains(&clicks), "{}", games[0]);
}

#[test]
fn a_run_names_the_stops_that_reach_the_bot_and_every_summary_says_why_it_ended() {
    let desktop = Desktop::start();
    let game = desktop.practice(REAL_BOARD, 300, GAME);
    let mut app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    // Hints: the stops named are those that work wherever the keyboard
    // is; Escape goes to the game once the player clicks there.
    app.key(&desktop, "1");
    let said = app.wait_for("hint: click", 1);
    let run = said
        .split("hints: click as the hint says")
        .nth(1)
        .unwrap_or_default();
    assert!(
        said.contains("Stop here or Pause or Ctrl+Shift+Backspace from anywhere ends them"),
        "{said}"
    );
    assert!(!run.contains("Escape"), "{said}");
    // Escape in the app's own window still stops, said as such.
    app.key(&desktop, "Escape");
    let said = app.wait_for("ended: back at the menu", 1);
    assert!(said.contains("; stopped by Escape"), "{said}");
    // Hints, stopped by the Stop button.
    app.key(&desktop, "1");
    app.wait_for("hint: click", 2);
    app.click(
        &desktop,
        Action::Stop(dustbot::desktop::stop::Asker::StopButton),
    );
    let said = app.wait_for("ended: back at the menu", 2);
    assert!(said.contains("; stopped by Stop"), "{said}");
    // Play, stopped by the player's hand on the mouse.
    app.key(&desktop, "2");
    game.wait_for_clicks(1);
    desktop.xdotool(&["mousemove", "5", "5"]);
    app.wait_for("; stopped: the mouse moved", 1);
    // A move during a click is said as the error it may be (the click
    // may have landed elsewhere), then the menu is back with Try again.
    std::thread::sleep(Duration::from_millis(300));
    let said = app.said();
    if said
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default()
        .starts_with("error: ")
    {
        app.click_in(&desktop, Offer::Failed, Action::TryAgain);
    }
    // The menu back, its buttons said: the game found again after Try
    // again, or the run ended; the fourth such line either way.
    app.wait_for("menu: 1 Hints, 2 Play", 4);
    // Quit during a run: the run's end said, then the app's.
    app.key(&desktop, "1");
    app.wait_for("Ctrl+Shift+Backspace from anywhere ends them", 2);
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
    let said = app.said();
    assert!(said.contains("; stopped by closing the app"), "{said}");
    assert!(said.trim_end().ends_with("dustbot: closed"), "{said}");
}

#[test]
fn a_no_is_taken_back_with_y_in_both_faces() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    // The app: n, then y takes it back.
    let app = App::start(&desktop);
    app.wait_for("is this window the game?", 1);
    app.key(&desktop, "n");
    let said = app.wait_for("Yes takes it back", 1);
    assert!(said.contains(&format!("you said \"{GAME}")), "{said}");
    app.wait_for("you said it is not the game", 1);
    app.key(&desktop, "y");
    app.wait_for("found the game by its board", 1);
    app.wait_for("optimum 11 clicks, proven", 1);
    // `bot` alone: the same, the window remembered forgotten.
    std::fs::remove_file(desktop.path("config/dustbot/settings.toml")).unwrap();
    let pane = Pane::start(&desktop, &[]);
    pane.wait_for("is this window the game?", 1);
    pane.keys("n");
    let screen = pane.wait_for("y takes it back", 1);
    assert!(screen.contains(&format!("you said \"{GAME}")), "{screen}");
    pane.wait_for("looking again every", 1);
    pane.keys("y");
    pane.wait_for("found the game by its board", 1);
    pane.wait_for("What now?", 1);
}

#[test]
fn the_question_and_the_menu_go_with_their_window() {
    let desktop = Desktop::start();
    // Asked about, then closed: the question is withdrawn, y takes nothing.
    let game = desktop.practice(REAL_BOARD, 150, GAME);
    let app = App::start(&desktop);
    app.wait_for("is this window the game?", 1);
    drop(game);
    app.wait_for("closed: looking for the game", 1);
    app.key(&desktop, "y");
    std::thread::sleep(Duration::from_millis(500));
    assert!(!app.said().contains("found the game"), "{}", app.said());
    // Found, then closed: the menu is not the closed window's.
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    app.wait_for("is this window the game?", 2);
    app.key(&desktop, "y");
    app.wait_for("menu: 1 Hints, 2 Play", 1);
    drop(_game);
    app.wait_for("closed: looking for the game", 2);
    app.key(&desktop, "1");
    app.wait_for("no game found yet", 1);
    assert!(
        !app.said().contains("hints: click as the hint says"),
        "{}",
        app.said()
    );
}

#[test]
fn the_app_names_the_built_in_calibration_and_a_data_folder_it_cannot_write() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    // The app alone in a folder (no calibration file beside it), its data
    // folder under a file: nothing can be made there.
    let bin = desktop.path("bin");
    std::fs::create_dir(&bin).unwrap();
    let copy = bin.join("dustbot");
    std::fs::copy(env!("CARGO_BIN_EXE_dustbot"), &copy).unwrap();
    std::fs::write(desktop.path("data"), "a file, not a folder").unwrap();
    let (_app, _) = desktop.open_window("dustbot", || {
        let mut command = desktop.on_this_display(&copy, &[] as &[&str]);
        command.current_dir(&bin);
        command
    });
    let out = desktop.path("dustbot.out");
    let said = || std::fs::read_to_string(&out).unwrap_or_default();
    let said = wait_for("the app's first lines", || {
        let all = said();
        all.contains("is this window the game?").then_some(all)
    });
    assert!(
        said.contains("calibration: built into the bot (no file calibration/nodiatis.toml)"),
        "{said}"
    );
    assert!(said.contains("the data folder cannot be written"), "{said}");
    assert!(said.contains("the games are not recorded"), "{said}");
    // The window says each once, in the app's words: never a flag.
    assert_eq!(
        said.matches("the data folder cannot be written").count(),
        1,
        "{said}"
    );
    assert!(!said.contains("--"), "{said}");
}

#[test]
fn the_bots_own_terminal_over_the_board_is_said_as_its_own() {
    let desktop = Desktop::start();
    let _game = game_at_corner(&desktop, 150);
    let out = desktop.path("terminal.out");
    // `bot` in a terminal of its own (xterm names its window in WINDOWID),
    // beside the game.
    let line = format!(
        "'{}' --window '{GAME}' --assist --games 0 > '{}' 2>&1",
        bot_path(),
        out.display()
    );
    let (_terminal, id) = desktop.open_window("mine", || {
        let mut command = desktop.on_this_display(
            "xterm",
            &[
                "-T",
                "mine",
                "-geometry",
                "80x20+900+0",
                "-e",
                "sh",
                "-c",
                &line,
            ],
        );
        command.env_remove("WINDOWID");
        command
    });
    let said = || std::fs::read_to_string(&out).unwrap_or_default();
    wait_for("the first hint", || {
        said().contains("hint: click").then_some(())
    });
    // Dragged over the board: said as this terminal, never another window.
    let out_move = desktop.xdotool(&["windowmove", "--sync", &id, "40", "40"]);
    assert!(out_move.status.success(), "{out_move:?}");
    desktop.xdotool(&["windowraise", &id]);
    wait_for("the terminal said over the board", || {
        said()
            .contains("this terminal covers the board")
            .then_some(())
    });
    assert!(
        !said().contains("another window covers the board"),
        "{}",
        said()
    );
    // Moved aside: the hints go on.
    desktop.xdotool(&["windowmove", "--sync", &id, "900", "0"]);
    wait_for("the hints back", || {
        said().contains("the board reads again").then_some(())
    });
    assert!(!said().contains("marks on the board:"), "{}", said());
}

#[test]
fn a_second_dustbot_brings_the_first_forward_and_ends_with_0() {
    let desktop = Desktop::start();
    let app = App::start(&desktop);
    app.wait_for("looking again every", 1);
    // Another window over it has the keyboard, as a second double-click
    // finds the desktop.
    let (_notes, notes) = desktop.plain_window("notes");
    let active = || {
        let out = desktop.xdotool(&["getactivewindow"]);
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    wait_for("the notes to have the keyboard", || {
        (active() == notes).then_some(())
    });
    let second = desktop
        .on_this_display(env!("CARGO_BIN_EXE_dustbot"), &[] as &[&str])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&second.stdout);
    assert_eq!(second.status.code(), Some(0), "{said}");
    assert!(
        said.contains("dustbot runs already: its window brought to the front"),
        "{said}"
    );
    // One app's window, and it in front.
    let found = desktop.xdotool(&["search", "--onlyvisible", "--name", "^dustbot$"]);
    let windows = String::from_utf8_lossy(&found.stdout).lines().count();
    assert_eq!(windows, 1, "{}", app.said());
    // In front with the keyboard, or marked as asking for the player's
    // attention where the window manager keeps the keyboard where it is
    // (openbox's focus stealing prevention, on a busy machine).
    let id = app.window(&desktop);
    let attention = || {
        let out = desktop
            .on_this_display("xprop", &["-id", &id, "_NET_WM_STATE"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).contains("_NET_WM_STATE_DEMANDS_ATTENTION")
    };
    wait_for("the first app in front", || {
        (active() == id || attention()).then_some(())
    });
}

#[test]
fn a_saved_calibration_gone_or_broken_settings_show_in_the_app_with_the_choice_of_the_default() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    let folder = desktop.path("config/dustbot");
    std::fs::create_dir_all(&folder).unwrap();
    let gone = folder.join("calibration.toml");
    let settings = folder.join("settings.toml");
    std::fs::write(
        &settings,
        format!("calibration = {:?}\n", gone.display().to_string()),
    )
    .unwrap();
    let mut app = App::start(&desktop);
    let said = app.wait_for("the default calibration reads meanwhile, or calibrate", 1);
    assert!(said.contains(&gone.display().to_string()), "{said}");
    // The choice in the window: the default, by its button.
    app.click_in(&desktop, Offer::Unusable, Action::UseDefault);
    // And the game is read with the default, which is remembered.
    app.yes_it_is_the_game(&desktop);
    app.wait_for("optimum 11 clicks, proven", 1);
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
    let kept = std::fs::read_to_string(&settings).unwrap();
    assert!(!kept.contains("calibration.toml"), "{kept}");
    // A settings file that is no TOML: the same choice, its line named,
    // the file never written over.
    std::fs::write(&settings, "calibration = [\n").unwrap();
    let app = App::start(&desktop);
    let said = app.wait_for("the default calibration reads meanwhile, or calibrate", 1);
    assert!(said.contains("line 1"), "{said}");
    app.click_in(&desktop, Offer::Unusable, Action::UseDefault);
    app.wait_for("is this window the game?", 1);
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "calibration = [\n"
    );
}

#[test]
fn at_a_desktop_scale_of_150_percent_the_app_is_one_and_a_half_times_as_big_and_uncut() {
    let desktop = Desktop::start_on("2560x1600x24");
    // The desktop's scale as a desktop environment sets it (GNOME, KDE
    // and Xfce write Xft.dpi): 144 dots an inch is 150%.
    let resources = desktop.path("Xresources");
    std::fs::write(&resources, "Xft.dpi: 144\n").unwrap();
    desktop.x_tool("xrdb", &["-merge", resources.to_str().unwrap()]);
    let game = desktop.practice(REAL_BOARD, 150, GAME);
    let mut app = App::start(&desktop);
    let said = app.wait_for("is this window the game?", 1);
    assert!(said.contains(" at scale 1.5"), "{said}");
    app.yes_it_is_the_game(&desktop);
    let said = app.wait_for("placed beside the game", 1);
    let id = app.window(&desktop);
    let (x, y, w, h) = desktop.window_rectangle(&id);
    let (width, height) = Layout::new((8, 6), 1.5).size;
    assert_eq!((w, h), (width as i32, height as i32), "{said}");
    // Whole on the screen, beside the game.
    assert!(x >= 0 && y >= 0 && x + w <= 2560 && y + h <= 1600, "{said}");
    assert!(!desktop.overlap(&id, &game.id), "{said}");
    // Its board drawn at that scale too, filling its place: at 1x it
    // filled two thirds of it, the rest the window's background.
    let picture = Layout::new((8, 6), 1.5).picture;
    let (left, top) = app.client_place(&desktop);
    let at = (
        left + picture.x + picture.width * 9 / 10,
        top + picture.y + picture.height / 2,
    );
    let pixel = screenshot(&desktop.display)
        .get_pixel(at.0 as u32, at.1 as u32)
        .0;
    assert_ne!(pixel[..3], [28, 26, 24], "the board's place at {at:?}");
    // A game in the screen's right third reads whole: the screen is
    // 2560 pixels wide at any scale (xcap's monitors are two thirds).
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
    desktop.xdotool(&["windowmove", "--sync", &game.id, "1800", "100"]);
    let out = desktop.run_bot(&["--window", GAME, "--dry-run"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("board read (lowest confidence"), "{stdout}");
}

#[test]
fn with_an_azerty_layout_the_keys_labelled_1_to_4_and_q_do_what_the_buttons_say() {
    let desktop = Desktop::start();
    let _game = desktop.practice(REAL_BOARD, 150, GAME);
    // A French player's keyboard: its top row types & é " ' unshifted,
    // and q is where QWERTY has a.
    desktop.x_tool("setxkbmap", &["fr"]);
    let mut app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.wait_for("optimum 11 clicks, proven", 1);
    // The keypad's 4 with NumLock on, as the keyboard sends it to the
    // window that has it: the record (none yet).
    let id = app.window(&desktop);
    let out = desktop.xdotool(&["windowactivate", "--sync", &id]);
    assert!(out.status.success(), "{out:?}");
    for key in ["Num_Lock", "KP_4"] {
        let out = desktop.xdotool(&["key", key]);
        assert!(out.status.success(), "{out:?}");
    }
    let said = app.wait_for("no games recorded yet", 1);
    // The top row's fourth key, unshifted ('): the record again.
    app.key(&desktop, "apostrophe");
    app.wait_for(
        "no games recorded yet",
        said.matches("no games recorded yet").count() + 1,
    );
    // The top row's first key, unshifted (&): hints.
    app.key(&desktop, "ampersand");
    app.wait_for("hints: click as the hint says", 1);
    app.key(&desktop, "Escape");
    app.wait_for("ended: back at the menu", 1);
    // q as the layout types it quits.
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
}

#[test]
fn an_error_before_the_apps_window_goes_to_its_log_and_the_report_takes_it() {
    let desktop = Desktop::start();
    // No display where the app looks: it fails before its window opens,
    // where a player who double-clicked it sees no terminal.
    let out = desktop
        .on_this_display(env!("CARGO_BIN_EXE_dustbot"), &[] as &[&str])
        .env("DISPLAY", ":999")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let said = stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let log = std::fs::read_to_string(desktop.path("data/dustbot/dustbot.log")).unwrap();
    assert!(log.contains(said), "{log}");
    // The report takes the app's log.
    let page = the_report(&desktop);
    assert!(page.contains("the app&#39;s log"), "{page}");
    assert!(page.contains("cannot open the window"), "{page}");
}

/// A click whose press and release both come while the window looks
/// away (its process stopped meanwhile, as a busy machine holds it back
/// for longer than a frame) is a click all the same, where it was: the
/// toolkit tells each press, not the button's state at each frame.
#[test]
fn a_click_shorter_than_a_frame_is_a_click_in_the_practice_window() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let (left, top) = desktop.client_place(&practice.id);
    let (x, y) = (250, 170);
    practice.signal("STOP");
    desktop.click((left + x, top + y));
    practice.signal("CONT");
    practice.wait_for_clicks(1);
    let clicks = practice.clicks();
    assert_eq!(clicks.len(), 1, "{clicks:?}");
    assert_eq!(clicks[0]["px"], serde_json::json!([x, y]), "{clicks:?}");
}

#[test]
fn the_apps_own_window_over_the_board_is_said_to_cover_it_never_no_game() {
    let desktop = Desktop::start();
    // The app first: no game yet.
    let app = App::start(&desktop);
    app.wait_for("no game found", 1);
    // The game opens, and the app's window comes over its board (a player
    // dragged it there).
    let practice = desktop.practice(REAL_BOARD, 150, GAME);
    let (x, y, width, _) = desktop.window_rectangle(&practice.id);
    let window = app.window(&desktop);
    let over = [(x + width / 4).to_string(), (y + 20).to_string()];
    desktop.xdotool(&["windowmove", "--sync", &window, &over[0], &over[1]]);
    desktop.xdotool(&["windowraise", &window]);
    assert!(desktop.overlap(&window, &practice.id));
    // Said as the bot's own window over the windows it reads, never as a
    // game not there.
    let said = app.wait_for("covers the windows it would read", 1);
    let covered = said
        .split("the bot's own window")
        .nth(1)
        .unwrap_or_default();
    assert!(covered.contains("\"dustbot\""), "{said}");
    assert!(covered.contains("move it aside"), "{said}");
    assert_eq!(said.matches("no game found").count(), 1, "{said}");
    // Moved aside, right of the game: the game is found under it.
    let aside = (x + width + 20).to_string();
    desktop.xdotool(&["windowmove", "--sync", &window, &aside, "0"]);
    assert!(!desktop.overlap(&window, &practice.id));
    app.wait_for("is this window the game?", 1);
}

#[test]
fn an_escape_held_as_the_practice_window_takes_the_keyboard_does_not_close_it() {
    let desktop = Desktop::start();
    let mut practice = desktop.practice(REAL_BOARD, 150, "Dust Practice");
    let (terminal_process, terminal) = desktop.terminal("a player's terminal");
    // Escape held down in another window, then the practice window takes
    // the keyboard, for longer than the autorepeat's delay (660 ms).
    desktop.focus(&terminal);
    assert!(desktop.xdotool(&["keydown", "Escape"]).status.success());
    desktop.focus(&practice.id);
    std::thread::sleep(Duration::from_millis(1200));
    let still = practice.is_running();
    assert!(desktop.xdotool(&["keyup", "Escape"]).status.success());
    drop(terminal_process);
    assert!(
        still,
        "the practice window closed on an Escape pressed before it had the keyboard"
    );
    // Pressed in it now: it closes.
    desktop.key_in(&practice.id, "Escape");
    wait_for("the practice window to close on Escape", || {
        (!practice.is_running()).then_some(())
    });
}

#[test]
fn a_second_dustbot_restores_a_minimised_first_says_a_stopped_one_and_opens_after_a_quit() {
    let desktop = Desktop::start();
    let mut app = App::start(&desktop);
    app.wait_for("looking again every", 1);
    let second = || {
        let out = desktop
            .on_this_display(env!("CARGO_BIN_EXE_dustbot"), &[] as &[&str])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // Minimised: restored, shown again.
    let id = app.window(&desktop);
    assert!(desktop.xdotool(&["windowminimize", &id]).status.success());
    wait_for("the app minimised", || {
        desktop.visible("dustbot").is_none().then_some(())
    });
    let (code, said) = second();
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("its window brought to the front"), "{said}");
    wait_for("the first app shown again", || desktop.visible("dustbot"));
    // Stopped (SIGSTOP): it does not answer, and is said so, never
    // "brought to the front".
    app.signal("STOP");
    let (code, said) = second();
    app.signal("CONT");
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("does not answer (process "), "{said}");
    assert!(!said.contains("brought to the front"), "{said}");
    // Quit, and started again at once: the second start opens.
    assert_eq!(app.quit_by_key(&desktop), Some(0), "{}", app.said());
    let again = App::start(&desktop);
    again.wait_for("looking again every", 1);
}

#[test]
fn the_apps_own_window_dragged_over_the_board_in_play_is_said_as_the_bots() {
    let desktop = Desktop::start();
    let practice = desktop.practice(REAL_BOARD, 300, GAME);
    let app = App::start(&desktop);
    app.yes_it_is_the_game(&desktop);
    app.key(&desktop, "2");
    practice.wait_for_clicks(1);
    // The player drags the app over the game's board during play.
    let (x, y, width, _) = desktop.window_rectangle(&practice.id);
    let window = app.window(&desktop);
    let over = [(x + width / 4).to_string(), (y + 20).to_string()];
    desktop.xdotool(&["windowmove", "--sync", &window, &over[0], &over[1]]);
    desktop.xdotool(&["windowraise", &window]);
    let said = app.wait_for("covers the board", 1);
    assert!(said.contains("the bot's own window (\"dustbot\""), "{said}");
    assert!(!said.contains("another window covers the board"), "{said}");
    assert!(practice.clicks().len() < 11, "{said}");
}
