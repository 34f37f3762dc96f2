//! Assist mode end to end on a real X server: the practice window plays
//! the game, `bot --window "Dust Practice" --assist --hint-log FILE` hints,
//! and the player is the test, clicking with xdotool at the hint's screen
//! point as a user would. Judged from the practice window's click log
//! (what the player really did), the hint log and the bot's output.
// X11: Xvfb, openbox and xdotool. On Windows, scripts/windows-test plays
// the player under Wine instead.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use dustbot::game::Board;
use serde_json::Value;

use crate::x11_support::*;

const GAME: &str = "Dust Practice";

/// A board whose proven optimum is 12 clicks (found in under a second).
const TWELVE: &str = "BBRRYROG,GRYRYOBY,BRORYYGO,GYGBROOO,GBYBYRBG,OOOYBRBR";

/// Animation of the practice window in these tests, in milliseconds.
const ANIM: u64 = 250;

/// Every click the practice window received removed tiles of a cell.
fn assert_all_on_cells(clicks: &[Value]) {
    for click in clicks {
        assert!(click["cell"].is_array(), "off the board: {click}");
        assert!(click["size"].as_u64().unwrap() > 0, "no effect: {click}");
    }
}

/// The bot ended well and printed nothing as an error.
fn assert_ended_well(run: &Finished) {
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert!(!run.stderr.contains("error:"), "{}", run.dump());
}

/// Follows every hint of the twelve-click game in `game` to the end, the
/// assistant started with `log`: it ends well, the player's twelve clicks
/// are on cells and each as hinted, one hint line for each and one for the
/// cleared board. The run, the hint lines and the clicks.
fn follow_twelve(
    desktop: &Desktop,
    game: &Practice,
    bot: BotRun,
    log: &Path,
) -> (Finished, Vec<Value>, Vec<Value>) {
    let (lines, latencies) = follow_hints(desktop, log, 0);
    let run = bot.finish();
    assert_ended_well(&run);
    eprintln!("click to hint, ms (animation {ANIM}): {latencies:?}");
    let clicks = game.clicks();
    assert_eq!(clicks.len(), 12, "{}", run.dump());
    assert_all_on_cells(&clicks);
    assert_eq!(lines.len(), 13);
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.ends_with(": as hinted"))
            .count(),
        12,
        "{}",
        run.dump()
    );
    (run, lines, clicks)
}

/// A 1280x900 screen with the practice window at `scale` (1 is the real
/// game's size) in its middle.
fn centred_on_a_small_screen(scale: f32) -> (Desktop, Practice) {
    let desktop = Desktop::start_on("1280x900x24");
    let game = desktop.practice_scaled(TWELVE, ANIM, GAME, scale);
    let (_, _, w, h) = desktop.window_rectangle(&game.id);
    let (x, y) = ((1280 - w) / 2, (900 - h) / 2);
    desktop.xdotool(&[
        "windowmove",
        "--sync",
        &game.id,
        &x.to_string(),
        &y.to_string(),
    ]);
    (desktop, game)
}

/// A practice window at the screen's top-left, so the hint has room.
/// (The assistant may find it before it is moved: it hints again there.)
fn game_at_corner(desktop: &Desktop, board: &str) -> Practice {
    game_at_corner_under(desktop, board, "centre-rows")
}

/// [`game_at_corner`] playing the rules named `rules`.
fn game_at_corner_under(desktop: &Desktop, board: &str, rules: &str) -> Practice {
    let game = desktop.practice_under(board, ANIM, GAME, rules);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    game
}

#[test]
fn following_every_hint_clears_a_twelve_click_board_in_twelve_clicks() {
    assert_eq!(proven_optimum(TWELVE), 12);
    let desktop = Desktop::start();
    let game = game_at_corner(&desktop, TWELVE);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    // The player's clicks, exactly: twelve, each on a cell, the last
    // clearing the board.
    let (run, lines, clicks) = follow_twelve(&desktop, &game, bot, &log);
    assert!(
        run.stdout
            .contains("cleared in 12 clicks (optimum 12 proven at the start)"),
        "{}",
        run.dump()
    );
    // Each line sees the click the line before hinted, as hinted.
    for (k, pair) in lines.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        assert_eq!(after["clicks"], k as u64 + 1);
        assert_eq!(after["remaining"], 11 - k as u64);
        for key in ["x", "y", "color", "size"] {
            assert_eq!(after["player_move"][key], before["next"][key], "{after}");
        }
        assert_eq!(
            after["board"], clicks[k]["board_after"],
            "the hint's board is the window's"
        );
    }
    assert_eq!(lines[0]["player_move"], Value::Null);
    assert_eq!(lines[0]["proven_optimal"], true);
    assert_eq!(lines[12]["next"], Value::Null);
    assert!(
        run.stdout
            .contains("click 1 of 12, optimum 12 (proven) — reward reachable"),
        "{}",
        run.dump()
    );
}

/// A left-handed player (the buttons swapped) who clicks every hint with
/// the primary button is followed to the end.
#[test]
fn a_left_handed_player_is_followed_to_the_end() {
    let desktop = Desktop::start();
    desktop.swap_buttons();
    let game = game_at_corner(&desktop, TWELVE);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    let (run, _, _) = follow_twelve(&desktop, &game, bot, &log);
    assert!(
        run.stdout
            .contains("cleared in 12 clicks (optimum 12 proven at the start)"),
        "{}",
        run.dump()
    );
}

#[test]
fn auto_rules_learn_the_games_rules_from_the_players_click() {
    learns_from_the_players_click("smooth", ANIM);
}

/// The same game with the moves animated in every other style but `idle`
/// (a player clicking as soon as the hint shows loses clicks there, and
/// the assistant never clicks), as short as each allows.
#[test]
fn auto_rules_learn_the_games_rules_under_every_animation_style() {
    for style in ["phases", "pop", "flash", "slow", "score", "dust"] {
        learns_from_the_players_click(style, 100);
    }
}

/// Assists a game of `TELLING_BOARD` under centre-columns animated in
/// `style` over `anim_ms`: the rules are learned at the first click, with
/// no re-plan but that one.
fn learns_from_the_players_click(style: &str, anim_ms: u64) {
    let desktop = Desktop::start();
    let game = desktop.practice_styled(TELLING_BOARD, anim_ms, GAME, "centre-columns", style);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    let (lines, _) = follow_hints(&desktop, &log, 0);
    let run = bot.finish();
    assert_ended_well(&run);
    let clicks = game.clicks();
    assert_all_on_cells(&clicks);
    // The first hint, under centre-rows, is the board's telling click; the
    // window played centre-columns, which alone explains its board.
    assert_eq!(
        (&lines[0]["next"]["x"], &lines[0]["next"]["y"]),
        (&Value::from(2), &Value::from(0))
    );
    let after: &str = clicks[0]["board_after"].as_str().unwrap();
    let from_here = proven_optimum_under(after, "centre-columns");
    assert_eq!(clicks.len(), 1 + from_here, "{style}\n{}", run.dump());
    for said in [
        "click 1: the game contracts whole columns toward the centre (centre-columns): re-planning"
            .to_owned(),
        format!(
            "click 1: you clicked (2,0) G x7: re-planned under the game's rules: optimum from here {from_here}, {} in all",
            1 + from_here
        ),
        format!(
            "cleared in {} clicks (optimum {} proven at the start)",
            clicks.len(),
            proven_optimum_under(TELLING_BOARD, "centre-columns")
        ),
        "rules: centre-columns, learned at click 1: pass --rules centre-columns next time"
            .to_owned(),
    ] {
        assert!(
            run.stdout.contains(&said),
            "{style}: {said}\n{}",
            run.dump()
        );
    }
    // Every hint after the first follows the game's rules: as hinted.
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.ends_with(": as hinted"))
            .count(),
        from_here,
        "{}",
        run.dump()
    );
}

#[test]
fn a_click_off_the_hint_is_costed_and_the_new_hints_clear_the_rest_optimally() {
    let start: Board = TWELVE.parse().unwrap();
    let desktop = Desktop::start();
    let game = game_at_corner(&desktop, TWELVE);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    let first = hint(&log, 0);
    // A single tile the hint does not name.
    let hinted = (
        first["next"]["x"].as_u64().unwrap() as u8,
        first["next"]["y"].as_u64().unwrap() as u8,
    );
    let single = start
        .clusters()
        .iter()
        .find(|c| c.size == 1 && (c.cell.x, c.cell.y) != hinted)
        .copied()
        .expect("the board has a single tile");
    let (after, _) = start.play(single.cell).unwrap();
    let from_here = proven_optimum(&after.to_string());
    desktop.click(cell_point(&first, (single.cell.x, single.cell.y), 6));
    let (lines, _) = follow_hints(&desktop, &log, 1);
    let run = bot.finish();
    assert_ended_well(&run);
    let clicks = game.clicks();
    assert_all_on_cells(&clicks);
    assert_eq!(
        clicks[0]["cell"],
        serde_json::json!([single.cell.x, single.cell.y])
    );
    assert_eq!(clicks.len(), 1 + from_here, "{}", run.dump());
    // What that click cost, against the optimum of 12.
    let cost = 1 + from_here as i64 - 12;
    let judged = match cost {
        0 => "as good as the hint".to_owned(),
        c => format!("that click cost {c}"),
    };
    let said = format!(
        "click 1: you clicked {} {} x1: {judged}: optimum from here {from_here}, {} in all",
        single.cell,
        single.colour.letter(),
        1 + from_here
    );
    assert!(run.stdout.contains(&said), "{said}\n{}", run.dump());
    assert_eq!(lines[0]["board"], after.to_string());
    assert_eq!(lines[0]["remaining"], from_here as u64);
    assert!(
        run.stdout.contains(&format!(
            "cleared in {} clicks (optimum 12 proven at the start)",
            1 + from_here
        )),
        "{}",
        run.dump()
    );
}

#[test]
fn the_hint_window_is_beside_the_game_above_it_and_never_read_as_the_game() {
    let desktop = Desktop::start();
    let game = game_at_corner(&desktop, TWELVE);
    let log = desktop.path("hints.jsonl");
    // The player is in the game: it keeps the keyboard when the hint
    // window opens (openbox focuses a new window unless told not to).
    desktop.focus(&game.id);
    // "dust" names the game window; the hint window must take a title it
    // does not name.
    let bot = desktop.start_bot("dust", &["--assist", "--hint-log", log.to_str().unwrap()]);
    hint(&log, 0);
    // The hint window's thread maps it a moment after the first hint.
    let id = wait_for("a window titled Hint", || desktop.visible("Hint"));
    assert!(!desktop.overlap(&id, &game.id), "the hint is over the game");
    let shown = std::time::Instant::now();
    while shown.elapsed() < std::time::Duration::from_millis(500) {
        let focus = desktop.xdotool(&["getwindowfocus"]);
        let focus = String::from_utf8_lossy(&focus.stdout);
        assert_eq!(focus.trim(), game.id, "the keyboard left the game");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let state = std::process::Command::new("xprop")
        .args(["-id", &id, "_NET_WM_STATE"])
        .env("DISPLAY", &desktop.display)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&state.stdout).contains("_NET_WM_STATE_ABOVE"),
        "{state:?}"
    );
    // Another bot asked for "dust" finds the game alone, and reads it.
    let probe = desktop.run_bot(&["--window", "dust", "--dry-run", "--time", "0.05"]);
    let text = String::from_utf8_lossy(&probe.stdout);
    assert!(probe.status.success(), "{probe:?}");
    assert!(
        text.contains("board read") && text.contains(TWELVE),
        "{text}"
    );
    // The player's click is followed as usual.
    desktop.click(hinted_point(&hint(&log, 0)));
    let second = hint(&log, 1);
    assert_eq!(second["clicks"], 1);
    // The player drags the hint window over the board: the assistant
    // closes it, says so, and follows the next click all the same.
    let g = &second["geometry"];
    let corner = |k: &str| (g[k].as_f64().unwrap() as i32 + 40).to_string();
    desktop.xdotool(&["windowmove", "--sync", &id, &corner("x"), &corner("y")]);
    wait_for("the hint window to close", || {
        desktop.visible("Hint").is_none().then_some(())
    });
    desktop.click(hinted_point(&second));
    assert_eq!(hint(&log, 2)["clicks"], 2);
    // Closing the game ends the assistant with one line.
    drop(game);
    let run = bot.finish();
    assert_ended_well(&run);
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(
        run.stdout
            .contains("hint window closed as it was over the board: hints on the terminal only")
            && last.starts_with("the game window closed after 2 click(s)")
            && last.ends_with("assistant ended"),
        "{}",
        run.dump()
    );
}

#[test]
fn a_game_window_leaving_no_room_beside_it_has_every_hint_followed_without_a_stall() {
    // The practice window at 1.25 times the real size (900x700) centred on
    // a 1280x900 screen: 190 pixels either side, less than any hint window
    // with its frame; the hint goes over the game, away from the board.
    let (desktop, game) = centred_on_a_small_screen(1.25);
    let log = desktop.path("hints.jsonl");
    let mut frames = desktop.watch_frames();
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    let first = hint(&log, 0);
    // The hint window's thread maps it a moment after the first hint.
    let id = wait_for("a hint window", || desktop.visible("Dust Hint"));
    // Its client area, and its frame (openbox's title bar above it), keep
    // clear of the board.
    let g = &first["geometry"];
    let f = |k: &str| g[k].as_f64().unwrap() as i32;
    let board = (f("x"), f("y"), 8 * f("pitch_x"), 6 * f("pitch_y"));
    wait_for("the hint window clear of the board", || {
        let (hx, hy, hw, hh) = desktop.window_rectangle(&id);
        let (frame_top, frame) = (hy - 30, 4);
        (hx + hw + frame <= board.0
            || board.0 + board.2 <= hx - frame
            || hy + hh + frame <= board.1
            || board.1 + board.3 <= frame_top)
            .then_some(())
    });
    assert!(desktop.overlap(&id, &game.id), "no room beside the game");
    // It is shown there first: never where openbox would put it (over
    // the game), moved after.
    let shown = frames.shown_at(&id);
    assert_eq!(
        shown.len(),
        1,
        "the hint window's frame was shown at {shown:?}"
    );
    let (run, ..) = follow_twelve(&desktop, &game, bot, &log);
    assert!(
        run.stdout.contains(
            "hint window \"Dust Hint\" over the game window, away from its board, at 50% size"
        ),
        "{}",
        run.dump()
    );
    // Never a wait on a window over the board, its own least of all.
    for never in ["covers the board", "waiting", "hint window closed"] {
        assert!(!run.stdout.contains(never), "{never}: {}", run.dump());
    }
}

#[test]
fn with_no_room_away_from_the_board_the_hints_stay_on_the_terminal() {
    // 1.5 times the real size: a 960x720 board leaves 160 pixels either
    // side of it on 1280x900, less than the smallest hint with its frame.
    let (desktop, game) = centred_on_a_small_screen(1.5);
    let log = desktop.path("hints.jsonl");
    let bot = desktop.start_bot(GAME, &["--assist", "--hint-log", log.to_str().unwrap()]);
    desktop.click(hinted_point(&hint(&log, 0)));
    assert_eq!(hint(&log, 1)["clicks"], 1);
    assert_eq!(desktop.visible("Dust Hint"), None);
    bot.interrupt();
    let run = bot.finish();
    assert_ended_well(&run);
    assert_all_on_cells(&game.clicks());
    assert!(
        run.stdout.contains(
            "no hint window (no room on the screen for it away from the board): \
             hints on the terminal only"
        ),
        "{}",
        run.dump()
    );
    assert!(
        run.stdout.contains("click 1: you clicked"),
        "{}",
        run.dump()
    );
}

#[test]
fn a_board_no_click_explains_is_reported_and_the_assistant_replans_from_it() {
    // Part played (a full board would be the next game): RULES.md's
    // board after its first move.
    const OTHER: &str = "GGGGBO  ,RORGYGY ,RRBGOOB ,BRBOBYR ,BRYBBRRO,OYGGRORY";
    let desktop = Desktop::start();
    // Time enough for the new window to open before the old one counts
    // as closed for good.
    let hint_log = ["--hint-log", "hints.jsonl"];
    let (game, bot, log) = assist_on(&desktop, TWELVE, hint_log, &["--settle-ms", "15000"]);
    hint(&log, 0);
    // The game's window replaced by another, same title, same place, with
    // a different board.
    drop(game);
    let game = game_at_corner(&desktop, OTHER);
    // The first hint on the new board, then the hint again once the window
    // is at its place (it may be found before it is moved there).
    let first = hint(&log, 1);
    assert_eq!(first["board"], OTHER);
    assert_eq!(first["player_move"], Value::Null);
    assert_eq!(first["clicks"], 0);
    let (left, top) = desktop.window_place(&game.id);
    let placed = wait_for("the hint at the window's place", || {
        let lines = hints(&log);
        let g = &lines.last()?["geometry"];
        let near = |key: &str, edge: i32| {
            // The board is half a cell inside the window.
            (g[key].as_f64().unwrap() - f64::from(edge + 40)).abs() < 30.0
        };
        (near("x", left) && near("y", top)).then_some(lines.len() - 1)
    });
    follow_hints(&desktop, &log, placed);
    let run = bot.finish();
    assert_ended_well(&run);
    let said = format!(
        "the board changed in a way no clicks explain: re-planning from the board read; the clicks counted are at least those made, no reward claimed\n  before {TWELVE}\n  after  {OTHER}\n  frames "
    );
    assert!(run.stdout.contains(&said), "{}", run.dump());
    for frame in ["before", "after"] {
        let path = desktop.path(&format!("debug/unexplained-00-{frame}.png"));
        assert!(path.is_file(), "{}", path.display());
    }
    let clicks = game.clicks();
    assert_all_on_cells(&clicks);
    assert_eq!(clicks.len(), proven_optimum(OTHER), "{}", run.dump());
}

/// `board` at the screen's corner and the assistant on it with a log
/// (`log`: `--hint-log` or `--game-log`, and its file's name) and `more`
/// arguments: the window, the run, the log's path.
fn assist_on(
    desktop: &Desktop,
    board: &str,
    log: [&str; 2],
    more: &[&str],
) -> (Practice, BotRun, PathBuf) {
    let game = game_at_corner(desktop, board);
    let path = desktop.path(log[1]);
    let mut args = vec!["--assist", log[0], path.to_str().unwrap()];
    args.extend_from_slice(more);
    let bot = desktop.start_bot(GAME, &args);
    (game, bot, path)
}

/// The twelve-click game at the screen's corner and the assistant on it
/// with a hint log, its first hint given: the window, the run, the log.
fn assisting_twelve(desktop: &Desktop) -> (Practice, BotRun, PathBuf) {
    let (game, bot, log) = assist_on(desktop, TWELVE, ["--hint-log", "hints.jsonl"], &[]);
    hint(&log, 0);
    (game, bot, log)
}

#[test]
fn ctrl_c_ends_the_assistant_with_one_line() {
    let desktop = Desktop::start();
    let (game, bot, _) = assisting_twelve(&desktop);
    bot.interrupt();
    let run = bot.finish();
    assert_ended_well(&run);
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("stopped by Ctrl-C after 0 click(s)"),
        "{}",
        run.dump()
    );
    assert!(game.clicks().is_empty(), "the assistant never clicks");
}

#[test]
fn assist_options_are_checked_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let bot = |args: &[&str]| {
        std::process::Command::new(bot_path())
            .args(args)
            .current_dir(dir.path())
            .env_remove("DISPLAY")
            .output()
            .unwrap()
    };
    let one_line_error = |out: &std::process::Output, says: &str| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{says:?} in {stderr}");
    };
    one_line_error(&bot(&["--assist"]), "--window");
    one_line_error(
        &bot(&["--window", GAME, "--hint-log", "h.jsonl"]),
        "--assist",
    );
    one_line_error(
        &bot(&["--window", GAME, "--assist", "--dry-run"]),
        "--dry-run",
    );
    one_line_error(
        &bot(&["--window", GAME, "--assist", "--max-moves", "3"]),
        "--max-moves",
    );
    // A hint log that cannot be written is said before the game is looked
    // for (there is no display here).
    one_line_error(
        &bot(&[
            "--window",
            GAME,
            "--assist",
            "--hint-log",
            "no/such/dir/h.jsonl",
        ]),
        "no/such/dir/h.jsonl: cannot write the hint log",
    );
}

#[test]
fn a_hint_window_destroyed_from_outside_is_a_hint_window_closed() {
    let desktop = Desktop::start();
    let (game, bot, log) = assisting_twelve(&desktop);
    let id = wait_for("the hint window", || desktop.visible("Dust Hint"));
    // Another program destroys it (no close request the window could
    // answer): the assistant goes on with the hints on the terminal.
    let destroyed = desktop.xdotool(&["windowclose", &id]);
    assert!(destroyed.status.success(), "{destroyed:?}");
    desktop.click(hinted_point(&hint(&log, 0)));
    assert_eq!(hint(&log, 1)["clicks"], 1);
    drop(game);
    let run = bot.finish();
    assert_ended_well(&run);
    assert!(
        run.stdout
            .contains("hint window closed by another program: hints on the terminal only"),
        "{}",
        run.dump()
    );
}

/// A board whose proof takes seconds on one thread (13 clicks).
const SLOW: &str = "OBORRBOY,YOGGYGBY,BOOGYYRG,RRBYROOB,RYBYBGBB,OGGORORR";

/// The assistant on [`SLOW`], planning on one thread, stopped by
/// `signals` sent one after the other once the board is read: how long
/// it took to end after them, the run, and the game log.
fn stopped_while_planning(signals: &[&str]) -> (std::time::Duration, Finished, Vec<Value>) {
    let desktop = Desktop::start();
    let games = ["--game-log", "games.jsonl"];
    let (_game, bot, log) = assist_on(&desktop, SLOW, games, &["--threads", "1"]);
    wait_for("the board read", || {
        let said = std::fs::read_to_string(desktop.path("bot.out")).unwrap_or_default();
        said.contains("board read").then_some(())
    });
    // Well into the proof.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let asked = std::time::Instant::now();
    for signal in signals {
        bot.signal(signal);
    }
    let run = bot.finish();
    let took = asked.elapsed();
    assert!(
        !left_button_down(&desktop.display),
        "the button was left down"
    );
    let records = json_lines(&log);
    (took, run, records)
}

#[test]
fn a_stop_never_waits_for_the_solver() {
    assert!(proven_optimum(SLOW) == 13);
    for signal in ["INT", "TERM", "HUP"] {
        let (took, run, records) = stopped_while_planning(&[signal]);
        assert!(
            took.as_millis() < 1500,
            "SIG{signal}: {took:?}\n{}",
            run.dump()
        );
        assert_ended_well(&run);
        // No click was made: no game to record (it would lower the
        // reward rate).
        assert!(records.is_empty(), "{records:?}");
    }
    // A second Ctrl-C ends the process at once, whatever the first is
    // waiting for.
    let (took, run, _) = stopped_while_planning(&["INT", "INT"]);
    assert!(took.as_millis() < 1500, "{took:?}\n{}", run.dump());
    assert!(matches!(run.code, Some(0 | 130)), "{}", run.dump());
}
