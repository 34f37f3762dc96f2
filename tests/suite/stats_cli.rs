//! `bot stats` through the real binary, on game logs written as live play
//! and assist mode write them (`record::GameLog`) and then damaged as a
//! crash or an editor would: the table's numbers per rule variant, the
//! `--json` object, the `--plot` picture, bad lines skipped and named,
//! a missing log an error naming it.

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use dustbot::game::earns_reward;
use dustbot::game::{Cell, EXAMPLE_BOARD, Rules};
use dustbot::record::{ClickRecord, End, GameLog, GameMode, GameRecord, now_rfc3339};

use crate::vision_support::{assert_one_line_error, bot};

/// An assisted game of `clicks` clicks on a board of optimum `optimum`
/// under `rules`, cleared or given up, lasting `seconds`.
fn game(rules: Rules, optimum: u32, clicks: usize, cleared: bool, seconds: u64) -> GameRecord {
    GameRecord {
        version: env!("CARGO_PKG_VERSION").into(),
        started: now_rfc3339(),
        mode: GameMode::Assist,
        board: EXAMPLE_BOARD.parse().unwrap(),
        rules,
        optimum,
        optimum_proven: true,
        clicks: (0..clicks)
            .map(|i| ClickRecord {
                followed: Some(true),
                cost: Some(0),
                ..ClickRecord::new(Cell::new(3, 0), Duration::from_secs(i as u64 + 1))
            })
            .collect(),
        clicks_unseen: false,
        cleared,
        reward: earns_reward(clicks, cleared),
        duration_ms: seconds * 1000,
        end: if cleared { End::Cleared } else { End::NewBoard },
        error: None,
    }
}

/// `games.jsonl`: five games under two rule variants, a line of garbage,
/// a record cut short (the last line), as lines 1 to 7.
///
/// centre-rows: 11 clicks for 11 in 30 s (reward), 14 for 12 in 50 s (no
/// reward), one given up after 3 clicks; gravity: 13 for 13 in 40 s (no
/// reward, 13 clicks), 12 for 10 in 20 s (reward).
fn write_log(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("games.jsonl");
    let mut log = GameLog::open(&path, &[]).unwrap();
    for record in [
        game(Rules::CentreRows, 11, 11, true, 30),
        game(Rules::CentreRows, 12, 14, true, 50),
        game(Rules::CentreRows, 12, 3, false, 8),
        game(Rules::Gravity, 13, 13, true, 40),
        game(Rules::Gravity, 10, 12, true, 20),
    ] {
        log.append(&record).unwrap();
    }
    let cut = serde_json::to_string(&game(Rules::Gravity, 9, 9, true, 9)).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    write!(
        file,
        "{{\"this\": is not a record\n{}",
        &cut[..cut.len() / 2]
    )
    .unwrap();
    path
}

/// The text of `key` in each object of the array `list`.
fn texts<'a>(list: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[key].as_str().unwrap())
        .collect()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A table row's words.
fn row<'a>(text: &'a str, first: &str) -> Vec<&'a str> {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(first))
        .unwrap_or_else(|| panic!("no row {first}: {text}"));
    line.split_whitespace().collect()
}

#[test]
fn the_table_sums_all_games_and_each_rule_variant_and_names_the_lines_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write_log(dir.path());
    let out = bot(dir.path(), &["stats", "games.jsonl"]);
    let (text, warnings) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}\n{warnings}");
    assert!(
        text.starts_with("5 games in games.jsonl; 2 lines skipped\n"),
        "{text}"
    );
    // Over the optimum: 0, +2 and 0, +2 (mean 1); times of the cleared
    // games: 30 50 and 40 20 (the given-up game's 8 s is no game time).
    assert_eq!(
        row(&text, "all"),
        ["all", "5", "4", "2", "40%", "+1.00", "35.0", "s"]
    );
    assert_eq!(
        row(&text, "centre-rows"),
        ["centre-rows", "3", "2", "1", "33%", "+1.00", "40.0", "s"]
    );
    assert_eq!(
        row(&text, "gravity"),
        ["gravity", "2", "2", "1", "50%", "+1.00", "30.0", "s"]
    );
    assert!(
        warnings.contains("games.jsonl:6: skipped: not JSON"),
        "{warnings}"
    );
    assert!(
        warnings.contains("games.jsonl:7: skipped: truncated"),
        "{warnings}"
    );
}

#[test]
fn a_record_appended_after_a_cut_line_is_read_and_logs_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_log(dir.path());
    // The next game of the player, after the crash: a line of its own.
    GameLog::open(&path, &[])
        .unwrap()
        .append(&game(Rules::Gravity, 11, 11, true, 60))
        .unwrap();
    let other = dir.path().join("older.jsonl");
    GameLog::open(&other, &[])
        .unwrap()
        .append(&game(Rules::LeftColumns, 11, 12, true, 45))
        .unwrap();
    let out = bot(dir.path(), &["stats", "games.jsonl", "older.jsonl"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    assert!(
        text.starts_with("7 games in games.jsonl, older.jsonl; 2 lines skipped\n"),
        "{text}"
    );
    assert_eq!(row(&text, "all")[..5], ["all", "7", "6", "4", "57%"]);
    assert_eq!(
        row(&text, "gravity"),
        ["gravity", "3", "3", "2", "67%", "+0.67", "40.0", "s"]
    );
    assert_eq!(
        row(&text, "left-columns")[..4],
        ["left-columns", "1", "1", "1"]
    );
}

#[test]
fn json_has_the_sums_per_rules_and_the_lines_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write_log(dir.path());
    let out = bot(dir.path(), &["stats", "--json", "games.jsonl"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(text.lines().count(), 1, "one object: {text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["logs"], serde_json::json!(["games.jsonl"]));
    let overall = &json["overall"];
    assert_eq!(overall["games"], 5);
    assert_eq!(overall["cleared"], 4);
    assert_eq!(overall["rewards"], 2);
    assert_eq!(overall["reward_rate"], 0.4);
    assert_eq!(overall["mean_clicks_over_optimum"], 1.0);
    assert_eq!(overall["median_cleared_ms"], 35_000.0);
    assert_eq!(
        texts(&json["by_rules"], "rules"),
        ["centre-rows", "gravity"]
    );
    assert_eq!(json["by_rules"][1]["median_cleared_ms"], 30_000.0);
    assert_eq!(
        json["bad_lines"][1],
        serde_json::json!({"path": "games.jsonl", "line": 7, "why": "truncated"})
    );
    let why = json["bad_lines"][0]["why"].as_str().unwrap();
    assert!(why.starts_with("not JSON"), "{why}");
    assert_eq!(json["bad_lines"].as_array().unwrap().len(), 2);
}

#[test]
fn the_plot_is_a_png_of_its_size_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    write_log(dir.path());
    let out = bot(
        dir.path(),
        &["stats", "games.jsonl", "--plot", "record.png"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    assert!(text.ends_with("plot: record.png\n"), "{text}");
    let picture = image::open(dir.path().join("record.png")).unwrap();
    assert_eq!(
        (picture.width(), picture.height()),
        dustbot::chart::trend::SIZE
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["games.jsonl", "record.png"], "nothing beside");
    // With --json the object stays alone on standard output.
    let out = bot(
        dir.path(),
        &["stats", "--json", "games.jsonl", "--plot", "again.png"],
    );
    assert_eq!(stdout(&out).lines().count(), 1);
    assert!(dir.path().join("again.png").is_file());
}

#[test]
fn a_missing_log_is_an_error_naming_it_and_an_empty_one_has_no_games() {
    let dir = tempfile::tempdir().unwrap();
    write_log(dir.path());
    let out = bot(dir.path(), &["stats", "games.jsonl", "missing.jsonl"]);
    assert_one_line_error(&out, "missing.jsonl: cannot read the game log");
    assert_eq!(stdout(&out), "", "no half answer");
    let out = bot(dir.path(), &["stats", "games.jsonl", "--plot", "no/x.png"]);
    assert_one_line_error(&out, "--plot no/x.png: no folder no");
    std::fs::write(dir.path().join("empty.jsonl"), "\n\n").unwrap();
    let out = bot(dir.path(), &["stats", "empty.jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "no games in empty.jsonl\n");
    // No log named: the default game log, named while it is missing.
    let out = bot(dir.path(), &["stats"]);
    assert_one_line_error(&out, "no games recorded yet");
    assert_one_line_error(&out, "games.jsonl");
}

#[test]
fn a_plot_over_one_of_the_logs_is_refused_before_any_read() {
    let dir = tempfile::tempdir().unwrap();
    let log = write_log(dir.path());
    let kept = std::fs::read(&log).unwrap();
    // The log named as the plot, under its own name, another spelling and
    // a hard link.
    std::fs::copy(&log, dir.path().join("rec.png")).unwrap();
    std::fs::hard_link(&log, dir.path().join("link.png")).unwrap();
    for (logs, plot) in [
        (&["rec.png"][..], "rec.png"),
        (&["games.jsonl", "rec.png"], "./rec.png"),
        (&["games.jsonl"], "link.png"),
    ] {
        let mut args = vec!["stats"];
        args.extend_from_slice(logs);
        args.extend(["--plot", plot]);
        let out = bot(dir.path(), &args);
        assert_one_line_error(&out, &format!("--plot {plot}: it is the log"));
        assert_eq!(stdout(&out), "", "{args:?}");
    }
    assert_eq!(std::fs::read(&log).unwrap(), kept);
    assert_eq!(std::fs::read(dir.path().join("rec.png")).unwrap(), kept);
}

/// A log garbled whole (20 MB of lines that are no record) is read in
/// little more than its size: the first lines skipped are named with why,
/// the rest counted.
// ulimit is Unix's.
#[cfg(unix)]
#[test]
fn a_garbled_log_names_its_first_bad_lines_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let lines = 10_000_000;
    std::fs::write(dir.path().join("x.jsonl"), "x\n".repeat(lines)).unwrap();
    write_log(dir.path());
    // 200 MiB of address space: the log's bytes and the program, not a
    // record of every line.
    let script = "ulimit -v 204800; exec \"$0\" stats x.jsonl games.jsonl --json";
    let out = std::process::Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_bot")])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The garbled log's lines, and the two of the good log.
    assert_eq!(
        json["skipped_lines"],
        lines as u64 + 2,
        "{}",
        json["skipped_lines"]
    );
    let named = json["bad_lines"].as_array().unwrap();
    assert_eq!(named.len(), 20);
    assert_eq!(named[19]["line"], 20);
    assert_eq!(json["overall"]["games"], 5);
    let said = stderr(&out);
    assert_eq!(said.lines().count(), 21, "{said}");
    assert!(
        said.lines()
            .last()
            .unwrap()
            .ends_with("and 9999982 more lines skipped (the first 20 are named)"),
        "{said}"
    );
}

#[test]
fn records_no_game_can_leave_are_named_and_a_log_given_twice_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let log = write_log(dir.path());
    std::fs::hard_link(&log, dir.path().join("link.jsonl")).unwrap();
    let out = bot(
        dir.path(),
        &[
            "stats",
            "--json",
            "games.jsonl",
            "./games.jsonl",
            "link.jsonl",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["overall"]["games"], 5, "{json}");
    let said = stderr(&out);
    assert_eq!(said.matches("counted once").count(), 2, "{said}");
    // A reward claimed for 13 clicks, a click off the board, and the log
    // saved as UTF-16: named, never counted.
    let mut greedy = game(Rules::CentreRows, 11, 13, true, 30);
    greedy.reward = true;
    let mut off = game(Rules::CentreRows, 11, 11, true, 30);
    off.clicks[4].cell = [3, 6];
    let text = format!(
        "{}\n{}\n",
        serde_json::to_string(&greedy).unwrap(),
        serde_json::to_string(&off).unwrap()
    );
    std::fs::write(dir.path().join("bad.jsonl"), text).unwrap();
    let utf16: Vec<u8> = std::fs::read_to_string(&log)
        .unwrap()
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    std::fs::write(
        dir.path().join("utf16.jsonl"),
        [&[0xff, 0xfe], &utf16[..]].concat(),
    )
    .unwrap();
    let out = bot(dir.path(), &["stats", "--json", "bad.jsonl", "utf16.jsonl"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["overall"]["games"], 0, "{json}");
    assert_eq!(
        texts(&json["bad_lines"], "why"),
        [
            "a reward for 13 clicks (12 at most)",
            "click 5: cell (3,6) off the 8x6 board",
            "the log is UTF-16 text: save it as UTF-8"
        ]
    );
}
