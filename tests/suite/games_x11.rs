//! Many games in a row on a real X server: the practice window starts the
//! next board by itself after a clear (`--next-after`), the bot plays or
//! assists `--games 3` of them and appends each to its `--game-log`, and
//! `bot stats` sums the log up. Judged line by line against the practice
//! window's click log (what the game really took).
// X11: Xvfb, openbox and xdotool.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use dustbot::game::Board;
use serde_json::Value;

use crate::x11_support::*;

const GAME: &str = "Dust Practice";

/// The practice window's animation in these tests, in milliseconds.
const ANIM: u64 = 200;

/// The practice window's boards in order: the first given, then each new
/// one from its log.
fn boards(game: &Practice, first: &str) -> Vec<String> {
    let mut boards = vec![first.to_owned()];
    boards.extend(
        game.new_boards()
            .iter()
            .map(|line| line["new_board"].as_str().unwrap().to_owned()),
    );
    boards
}

/// The game log's lines.
fn records(path: &Path) -> Vec<Value> {
    json_lines(path)
}

/// The practice window's clicks of game `k` (1-based), as cells.
fn cells_of_game(game: &Practice, k: u64) -> Vec<Value> {
    game.clicks()
        .into_iter()
        .filter(|click| click["game"] == k)
        .map(|click| click["cell"].clone())
        .collect()
}

/// The cells of a record's clicks, in order.
fn record_cells(record: &Value) -> Vec<Value> {
    record["clicks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cell"].clone())
        .collect()
}

/// What the record of game 1, given up for a new board, says: its board
/// and every click the window took in it, no clear, no reward.
fn assert_given_up(record: &Value, game: &Practice) {
    assert_eq!(record["end"], "new-board", "{record}");
    assert_eq!(record["board"], QUICK_BOARD, "{record}");
    assert_eq!(record["cleared"], false, "{record}");
    assert_eq!(record["reward"], false, "{record}");
    assert_eq!(record_cells(record), cells_of_game(game, 1), "{record}");
}

/// What every record of a cleared game says, whoever clicked: its board
/// is the window's, its clicks are those the window took, in order, the
/// optimum is proven and the reward follows from the clicks.
fn assert_cleared_game(record: &Value, game: &Practice, k: u64, board: &str, mode: &str) {
    assert_eq!(record["version"], env!("CARGO_PKG_VERSION"), "{record}");
    assert_eq!(record["mode"], mode, "{record}");
    assert_eq!(record["board"], board, "{record}");
    assert_eq!(record["rules"], "centre-rows", "{record}");
    assert_eq!(record["optimum"], proven_optimum(board) as u64, "{record}");
    assert_eq!(record["optimum_proven"], true, "{record}");
    assert_eq!(record["cleared"], true, "{record}");
    assert_eq!(record["end"], "cleared", "{record}");
    assert!(record.get("error").is_none(), "{record}");
    let clicks = record["clicks"].as_array().unwrap();
    assert_eq!(
        record_cells(record),
        cells_of_game(game, k),
        "game {k}: {record}"
    );
    assert_eq!(record["reward"], clicks.len() <= 12, "{record}");
    let times: Vec<u64> = clicks.iter().map(|c| c["t_ms"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{record}");
    assert!(
        record["duration_ms"].as_u64().unwrap() >= *times.last().unwrap(),
        "{record}"
    );
    let started = record["started"].as_str().unwrap();
    assert!(
        started.len() == 20 && started.ends_with('Z'),
        "{started}: not RFC 3339 UTC"
    );
}

/// `bot stats --json` on `log`.
fn stats(desktop: &Desktop, log: &Path) -> Value {
    let out = desktop.run_bot(&["stats", "--json", log.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn live_play_clears_three_games_in_a_row_and_logs_each() {
    let desktop = Desktop::start();
    let game = desktop.practice_with(QUICK_BOARD, ANIM, GAME, &["--next-after", "300"]);
    let log = desktop.path("games.jsonl");
    let run = desktop
        .start_bot(GAME, &["--games", "3", "--game-log", log.to_str().unwrap()])
        .finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    let said = |text: &str| run.stdout.matches(text).count();
    assert_eq!(said("waiting for the next game"), 2, "{}", run.dump());
    assert_eq!(said("cleared in "), 3, "{}", run.dump());
    assert!(
        run.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("3 game(s): 3 cleared"),
        "{}",
        run.dump()
    );
    // The window started a fourth board after the third clear: the bot
    // played three, and not one click of the fourth.
    let boards = boards(&game, QUICK_BOARD);
    let lines = records(&log);
    assert_eq!(lines.len(), 3, "{lines:?}");
    let mut clicks = 0;
    for (k, record) in lines.iter().enumerate() {
        let k = k + 1;
        assert_cleared_game(record, &game, k as u64, &boards[k - 1], "play");
        assert_eq!(
            record["clicks"].as_array().unwrap().len() as u64,
            record["optimum"].as_u64().unwrap(),
            "game {k} in the optimum: {record}"
        );
        assert!(record["clicks"][0].get("followed").is_none(), "{record}");
        clicks += record["optimum"].as_u64().unwrap() as usize;
    }
    assert_eq!(game.clicks().len(), clicks);
    let sums = stats(&desktop, &log);
    assert_eq!(sums["overall"]["games"], 3, "{sums}");
    assert_eq!(sums["overall"]["cleared"], 3, "{sums}");
    assert_eq!(sums["overall"]["mean_clicks_over_optimum"], 0.0, "{sums}");
    // Appending: a second run's game goes after the first run's, on the
    // fourth board once the window has dealt and painted it (a run that
    // starts on a half-painted board rightly finds none).
    wait_for("the fourth board", || {
        (game.new_boards().len() >= 3).then_some(())
    });
    let painted = || desktop.client_pixels(&game.id, &screenshot(&desktop.display));
    let mut last = painted();
    wait_for("the fourth board painted", || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let now = painted();
        let still = now == last;
        last = now;
        still.then_some(())
    });
    let before = std::fs::read_to_string(&log).unwrap();
    let again = desktop
        .start_bot(
            GAME,
            &["--max-moves", "1", "--game-log", log.to_str().unwrap()],
        )
        .finish();
    assert_eq!(again.code, Some(0), "{}", again.dump());
    let after = std::fs::read_to_string(&log).unwrap();
    assert!(after.starts_with(&before), "the log was rewritten");
    let last = records(&log).pop().unwrap();
    assert_eq!(last["end"], "max-moves", "{last}");
    assert_eq!(last["cleared"], false, "{last}");
    assert_eq!(last["clicks"].as_array().unwrap().len(), 1, "{last}");
}

/// The practice window (with `practice` arguments) at the screen's corner
/// and the assistant on it for `games` games, with a game log and a hint
/// log: the window, the run, the game log's path and the hint log's.
fn assisting(
    desktop: &Desktop,
    games: u32,
    practice: &[&str],
) -> (Practice, BotRun, PathBuf, PathBuf) {
    let game = desktop.practice_with(QUICK_BOARD, ANIM, GAME, practice);
    desktop.xdotool(&["windowmove", "--sync", &game.id, "0", "0"]);
    let log = desktop.path("games.jsonl");
    let hint_log = desktop.path("hints.jsonl");
    let games = games.to_string();
    let bot = desktop.start_bot(
        GAME,
        &[
            "--assist",
            "--games",
            &games,
            "--game-log",
            log.to_str().unwrap(),
            "--hint-log",
            hint_log.to_str().unwrap(),
        ],
    );
    (game, bot, log, hint_log)
}

#[test]
fn assist_follows_three_games_one_click_off_the_hint_and_logs_its_cost() {
    let desktop = Desktop::start();
    let (game, bot, log, hint_log) = assisting(&desktop, 3, &["--next-after", "300"]);
    // The player follows every hint but the first of game 2, where they
    // click another cluster.
    let mut n = 0;
    for k in 1..=3 {
        let first = hint(&hint_log, n);
        assert_eq!(first["clicks"], 0, "game {k}: {first}");
        if k == 2 {
            let board: Board = first["board"].as_str().unwrap().parse().unwrap();
            let hinted = (
                first["next"]["x"].as_u64().unwrap() as u8,
                first["next"]["y"].as_u64().unwrap() as u8,
            );
            let hinted = board
                .cluster_at(dustbot::game::Cell::new(hinted.0, hinted.1))
                .unwrap();
            // A cluster is named by one of its cells, the same whichever
            // of its cells is asked.
            let other = board
                .clusters()
                .iter()
                .find(|c| c.cell != hinted.cell)
                .unwrap()
                .cell;
            desktop.click(cell_point(&first, (other.x, other.y), board.height()));
            n += 1;
        }
        let (lines, _) = follow_hints(&desktop, &hint_log, n);
        n += lines.len();
    }
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert!(!run.stderr.contains("error:"), "{}", run.dump());
    assert_eq!(
        run.stdout.matches("waiting for the next game").count(),
        2,
        "{}",
        run.dump()
    );
    let boards = boards(&game, QUICK_BOARD);
    let lines = records(&log);
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (k, record) in lines.iter().enumerate() {
        let k = k + 1;
        assert_cleared_game(record, &game, k as u64, &boards[k - 1], "assist");
        let clicks = record["clicks"].as_array().unwrap();
        let off: Vec<&Value> = clicks.iter().filter(|c| c["followed"] == false).collect();
        let cost: i64 = clicks.iter().map(|c| c["cost"].as_i64().unwrap()).sum();
        // Every click's cost, summed, is what the game took over its
        // optimum.
        let over = clicks.len() as i64 - record["optimum"].as_i64().unwrap();
        assert_eq!(cost, over, "game {k}: {record}");
        if k == 2 {
            assert_eq!(off.len(), 1, "{record}");
            assert_eq!(clicks[0]["followed"], false, "{record}");
        } else {
            assert!(off.is_empty(), "game {k}: {record}");
            assert_eq!(over, 0, "game {k}: {record}");
        }
    }
    let sums = stats(&desktop, &log);
    assert_eq!(sums["overall"]["games"], 3, "{sums}");
    let over =
        lines[1]["clicks"].as_array().unwrap().len() as f64 - lines[1]["optimum"].as_f64().unwrap();
    let mean = sums["overall"]["mean_clicks_over_optimum"]
        .as_f64()
        .unwrap();
    assert!((mean - over / 3.0).abs() < 1e-9, "{sums}");
}

/// Presses the practice window's N key: a new board at once, the one in
/// play given up.
fn give_up(desktop: &Desktop, game: &Practice) {
    let press = desktop.xdotool(&["key", "--window", &game.id, "n"]);
    assert!(press.status.success(), "{press:?}");
}

/// The assistant on `games` games (see [`assisting`]), the player
/// following the first hint, then giving the game up with the window's
/// key for a new board.
fn assisted_then_given_up(desktop: &Desktop, games: u32) -> (Practice, BotRun, PathBuf, PathBuf) {
    let (game, bot, log, hint_log) = assisting(desktop, games, &[]);
    desktop.click(hinted_point(&hint(&hint_log, 0)));
    hint(&hint_log, 1);
    give_up(desktop, &game);
    (game, bot, log, hint_log)
}

#[test]
fn a_new_board_before_the_clear_ends_the_assisted_game_as_given_up() {
    let desktop = Desktop::start();
    let (game, bot, log, hint_log) = assisted_then_given_up(&desktop, 2);
    let next = wait_for("the next board", || game.new_boards().pop());
    let first = hint(&hint_log, 2);
    assert_eq!(first["board"], next["new_board"], "{first}");
    assert_eq!(first["clicks"], 0, "{first}");
    follow_hints(&desktop, &hint_log, 2);
    let run = ended_well_saying(bot, "a new game's board after 1 click(s)");
    // No wait: the next game's board was on the screen already.
    assert!(
        !run.stdout.contains("waiting for the next game"),
        "{}",
        run.dump()
    );
    let lines = records(&log);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let given_up = &lines[0];
    assert_given_up(given_up, &game);
    assert_eq!(given_up["clicks"][0]["followed"], true, "{given_up}");
    let board = next["new_board"].as_str().unwrap();
    assert_cleared_game(&lines[1], &game, 2, board, "assist");
    let sums = stats(&desktop, &log);
    assert_eq!(sums["overall"]["games"], 2, "{sums}");
    assert_eq!(sums["overall"]["cleared"], 1, "{sums}");
}

/// Waits for `bot` to end, and checks that it ended well (exit 0) and
/// said `said`.
fn ended_well_saying(bot: BotRun, said: &str) -> Finished {
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert!(run.stdout.contains(said), "{said:?}\n{}", run.dump());
    run
}

/// Waits until the game log at `log` holds `n` records.
fn wait_for_records(log: &Path, n: usize) {
    wait_for(&format!("{n} game record(s)"), || {
        (records(log).len() == n).then_some(())
    });
}

/// The practice window and live play on it for `games` games (`0`:
/// until Ctrl-C) with a game log: the window, the run and the log.
fn playing(desktop: &Desktop, games: &str) -> (Practice, BotRun, PathBuf) {
    let game = desktop.practice(QUICK_BOARD, ANIM, GAME);
    let log = desktop.path("games.jsonl");
    let args = ["--games", games, "--game-log", log.to_str().unwrap()];
    let bot = desktop.start_bot(GAME, &args);
    (game, bot, log)
}

#[test]
fn games_0_plays_until_ctrl_c_and_ends_well_with_the_summary() {
    let desktop = Desktop::start();
    let (game, bot, log) = playing(&desktop, "0");
    // The first game cleared and logged, the bot waits for the next one
    // (the window starts none by itself here).
    wait_for_records(&log, 1);
    bot.interrupt();
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    assert!(
        run.stdout.contains("waiting for the next game"),
        "{}",
        run.dump()
    );
    assert!(
        run.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("1 game(s): 1 cleared"),
        "{}",
        run.dump()
    );
    let lines = records(&log);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_cleared_game(&lines[0], &game, 1, QUICK_BOARD, "play");
}

#[test]
fn an_output_closed_mid_game_stops_the_run_and_records_the_game() {
    use std::io::BufRead as _;
    let desktop = Desktop::start();
    let game = desktop.practice(QUICK_BOARD, ANIM, GAME);
    let log = desktop.path("games.jsonl");
    let mut child = Running(
        desktop
            .command(&[
                "--window",
                GAME,
                "--games",
                "3",
                "--game-log",
                log.to_str().unwrap(),
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(desktop.path("bot.err")).unwrap())
            .spawn()
            .unwrap(),
    );
    // `| head`: the reader goes once the first click is said.
    let mut lines = std::io::BufReader::new(child.0.stdout.take().unwrap()).lines();
    let seen = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.starts_with("click 1:"));
    assert!(seen.is_some(), "no first click said");
    drop(lines);
    let status = wait_for("the bot to end", || child.0.try_wait().unwrap());
    let stderr = std::fs::read_to_string(desktop.path("bot.err")).unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("standard output cannot be written"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        !left_button_down(&desktop.display),
        "the button was left down"
    );
    // The game in progress is recorded as stopped, with every click the
    // window took.
    let lines = records(&log);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let record = &lines[0];
    assert_eq!(record["end"], "stopped", "{record}");
    assert!(
        record["error"]
            .as_str()
            .unwrap()
            .contains("standard output"),
        "{record}"
    );
    let cells = record_cells(record);
    assert!(!cells.is_empty(), "{record}");
    // The window takes a click at its next frame, maybe after the bot ended.
    game.wait_for_clicks(cells.len());
    assert_eq!(cells, cells_of_game(&game, 1), "{record}");
}

#[test]
fn an_output_that_cannot_be_written_ends_the_window_commands_with_exit_2() {
    let desktop = Desktop::start();
    let _game = desktop.practice(QUICK_BOARD, ANIM, GAME);
    for args in [
        &["windows"][..],
        &["--window", GAME, "--dry-run"],
        &["--window", GAME, "--assist"],
        &["--window", GAME, "--max-moves", "1"],
    ] {
        crate::vision_support::assert_full_output_fails(&mut desktop.command(args));
    }
}

#[test]
fn a_new_board_during_a_live_game_ends_it_as_given_up() {
    let desktop = Desktop::start();
    let (game, bot, log) = playing(&desktop, "2");
    game.wait_for_clicks(2);
    give_up(&desktop, &game);
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    let boards = boards(&game, QUICK_BOARD);
    assert_eq!(boards.len(), 2, "{boards:?}");
    let lines = records(&log);
    assert_eq!(lines.len(), 2, "{lines:?}");
    // Game 1: its board, its clicks, given up; never the next board's.
    assert_given_up(&lines[0], &game);
    // Game 2: the new board, from its first read, in its own optimum.
    let next = &lines[1];
    assert_cleared_game(next, &game, 2, &boards[1], "play");
    let optimum = next["optimum"].as_u64().unwrap();
    assert_eq!(record_cells(next).len() as u64, optimum, "{next}");
    let said = run.stdout.contains("a new game's board after");
    assert!(said, "{}", run.dump());
}

#[test]
fn a_new_board_ends_the_only_assisted_game_and_the_run() {
    let desktop = Desktop::start();
    let (game, bot, log, _) = assisted_then_given_up(&desktop, 1);
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    let lines = records(&log);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_given_up(&lines[0], &game);
}

#[test]
fn clicks_within_one_animation_are_all_counted_in_the_record() {
    let desktop = Desktop::start();
    // A smooth fade starts from the board the first click left, shown at
    // rest for a frame: on a busy machine a frame held over 10 ms is that
    // board settled (as it would be in a game drawn at 60 Hz), and the
    // clicks are told apart. The cluster that goes at once never shows it.
    let (game, bot, log, hint_log) = assisting(&desktop, 1, &["--anim-style", "pop"]);
    let first = hint(&hint_log, 0);
    let board: Board = first["board"].as_str().unwrap().parse().unwrap();
    let hinted = dustbot::game::Cell::new(
        first["next"]["x"].as_u64().unwrap() as u8,
        first["next"]["y"].as_u64().unwrap() as u8,
    );
    let (after, _) = board.play(hinted).unwrap();
    let second = after.clusters().as_slice()[0].cell;
    // The hint, then another cluster at once: both within the first
    // click's animation, one change to the assistant.
    let points = [
        hinted_point(&first),
        cell_point(&first, (second.x, second.y), board.height()),
    ];
    let mut script = Vec::new();
    for (x, y) in points {
        script.extend([
            "mousemove".to_owned(),
            x.to_string(),
            y.to_string(),
            "mousedown".into(),
            "1".into(),
            "sleep".into(),
            "0.03".into(),
            "mouseup".into(),
            "1".into(),
            // The hand lifted before the next click.
            "sleep".into(),
            "0.02".into(),
        ]);
    }
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    assert!(desktop.xdotool(&script).status.success());
    game.wait_for_clicks(2);
    follow_hints(&desktop, &hint_log, 1);
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    let lines = records(&log);
    assert_eq!(lines.len(), 1, "{lines:?}");
    // Every click the window took, and the reward only for them all.
    assert_cleared_game(&lines[0], &game, 1, QUICK_BOARD, "assist");
    assert!(lines[0].get("clicks_unseen").is_none(), "{}", lines[0]);
    let said = run.stdout.contains("clicks 1-2: you clicked");
    assert!(said, "{}", run.dump());
}

#[test]
fn games_0_ends_well_on_ctrl_c_within_a_game_too() {
    let desktop = Desktop::start();
    let (game, bot, log) = playing(&desktop, "0");
    game.wait_for_clicks(2);
    bot.interrupt();
    let run = bot.finish();
    assert_eq!(run.code, Some(0), "{}", run.dump());
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("1 game(s): 0 cleared"), "{}", run.dump());
    let lines = records(&log);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["end"], "interrupted", "{}", lines[0]);
}

#[test]
fn a_window_closed_between_games_ends_the_run_with_the_summary() {
    let desktop = Desktop::start();
    let (game, bot, log) = playing(&desktop, "2");
    wait_for_records(&log, 1);
    drop(game);
    let run = ended_well_saying(bot, "the game window closed: no more games");
    let last = run.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("1 game(s): 1 cleared"), "{}", run.dump());
}
