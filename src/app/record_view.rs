//! The player's record from game logs ([`crate::record`]), for every face
//! (`bot stats`, the guided session's `4`, the app's Record): a short table of the games, how many were cleared and earned the
//! reward, the clicks over the optimum and the time of the cleared ones,
//! for all the games and per rule variant when they were played under
//! several; or the same sums as one JSON object. A line
//! that is no record is said on standard error and counted, never fatal;
//! a log that cannot be read is an error naming it. A plot
//! FILE.png: the record as a picture ([`crate::chart::trend`]), its path
//! checked before the logs are read.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::chart::trend::{self, Dot, Trend};
use crate::files;
use crate::game::REWARD_CLICKS;
use crate::record::stats::{Group, Stats};
use crate::record::{self, BadLine, GameRecord, KEPT_BAD_LINES};

/// The record of the games in `logs` as a table (with `json`, one JSON
/// object), and its plot drawn at `plot` when one is named (with how the
/// face names it in an error: "--plot", "the record's plot"): `bot
/// stats`, the guided session's and the desktop app's record alike.
pub fn record_text(logs: &[PathBuf], plot: Option<(&Path, &str)>, json: bool) -> Result<String> {
    record(logs, plot, json).map(|(text, _)| text)
}

/// [`record_text`], with what its plot shows, for a face that draws it
/// at its own size ([`trend::trend_on`]).
pub fn record(
    logs: &[PathBuf],
    plot: Option<(&Path, &str)>,
    json: bool,
) -> Result<(String, Trend)> {
    if let Some((path, named)) = plot {
        check_plot_path(path, named)?;
        // Before any read: the plot would replace the log.
        if let Some(log) = logs.iter().find(|log| files::same_file(path, log)) {
            bail!(
                "{named} {}: it is the log {} read: name another file for the plot",
                path.display(),
                log.display()
            );
        }
    }
    let Read {
        records,
        bad,
        skipped,
        unread,
    } = read_logs(logs)?;
    let stats = Stats::of(&records);
    let text = if json {
        let report = Report {
            logs: logs.iter().map(|p| p.display().to_string()).collect(),
            stats: &stats,
            bad_lines: &bad,
            skipped_lines: skipped,
        };
        format!(
            "{}\n",
            serde_json::to_string(&report).expect("plain data serialises")
        )
    } else {
        table(&stats, logs, skipped)
    };
    let mut text = text;
    for line in unread {
        // Standard output holds the JSON object alone.
        if json {
            log::warn!("{line}");
        } else {
            text += &format!("{line}\n");
        }
    }
    let shown = trend_of(&records, &stats);
    if let Some((path, named)) = plot {
        save_plot(path, &trend::trend(&shown)?, named)?;
        // Standard output holds the JSON object alone.
        if json {
            log::info!("plot: {}", path.display());
        } else {
            text += &format!("plot: {}\n", path.display());
        }
    }
    Ok((text, shown))
}

/// The games of a record's logs, read: the bad lines named (and said on
/// standard error), how many were skipped, and the parts of a log too
/// big that were not read, in words.
struct Read {
    records: Vec<GameRecord>,
    bad: Vec<BadLine>,
    skipped: usize,
    unread: Vec<String>,
}

/// Reads the games of `logs`, a log given twice (or a link to it) once.
fn read_logs(logs: &[PathBuf]) -> Result<Read> {
    let mut read = Read {
        records: Vec::new(),
        bad: Vec::new(),
        skipped: 0,
        unread: Vec::new(),
    };
    for (n, path) in logs.iter().enumerate() {
        if let Some(first) = logs[..n].iter().find(|l| files::same_file(path, l)) {
            log::warn!(
                "{}: the same file as {}: counted once",
                path.display(),
                first.display()
            );
            continue;
        }
        let loaded = record::read(path, KEPT_BAD_LINES - read.bad.len())?;
        if loaded.unread_bytes > 0 {
            read.unread.push(format!(
                "{}: its oldest {:.1} MiB are not counted (the newest {} MiB of records are)",
                path.display(),
                loaded.unread_bytes as f64 / f64::from(1 << 20),
                record::MAX_LOG_BYTES >> 20
            ));
        }
        read.records.extend(loaded.records);
        read.bad.extend(loaded.bad);
        read.skipped += loaded.bad_count;
    }
    for line in &read.bad {
        log::warn!("{line}");
    }
    if read.skipped > read.bad.len() {
        log::warn!(
            "and {} more lines skipped (the first {KEPT_BAD_LINES} are named)",
            read.skipped - read.bad.len()
        );
    }
    Ok(read)
}

/// Writes a plot's picture to `path` whole (an interrupted run leaves no
/// half picture); an error names it as `named` ("--plot").
pub fn save_plot(path: &Path, picture: &image::RgbImage, named: &str) -> Result<()> {
    files::save_png(path, picture, files::Existing::Replace)
        .with_context(|| format!("{named} {}: cannot write it", path.display()))
}

/// Refuses a plot's path (`bot bench`'s and `bot stats`' `--plot`, the
/// record's) that the end of the run could not write, before the run: a
/// missing or unwritable folder, a folder for a file, a name that is no
/// PNG's; named as `named` says.
pub fn check_plot_path(path: &Path, named: &str) -> Result<()> {
    let shown = format!("{named} {}", path.display());
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        bail!("{shown}: the plot is a PNG: name the file FILE.png");
    }
    if path.is_dir() {
        bail!("{shown}: a folder, not a file");
    }
    let folder = files::folder_of(path);
    if !folder.is_dir() {
        bail!("{shown}: no folder {}", folder.display());
    }
    files::probe_folder(&folder)
        .with_context(|| format!("{shown}: cannot write into {}", folder.display()))
}

/// `--json`'s object: the logs read, the sums, the first lines skipped
/// and how many were.
#[derive(Serialize)]
struct Report<'a> {
    logs: Vec<String>,
    #[serde(flatten)]
    stats: &'a Stats,
    bad_lines: &'a [BadLine],
    skipped_lines: usize,
}

/// The headline, a row per group (all the games, then each rule variant
/// when there are several; the one variant's alone when there is one)
/// and what the columns count.
fn table(stats: &Stats, logs: &[PathBuf], skipped: usize) -> String {
    let mut text = headline(stats.overall.games, logs, skipped);
    if stats.overall.games == 0 {
        return text;
    }
    let rows: Vec<&Group> = match stats.by_rules.as_slice() {
        [one] => vec![one],
        several => std::iter::once(&stats.overall).chain(several).collect(),
    };
    let line = |cells: [&str; 7]| {
        let mut line = format!("{:<w$}", cells[0], w = WIDTHS[0]);
        for (cell, width) in cells.iter().zip(WIDTHS).skip(1) {
            line += &format!(" {cell:>width$}");
        }
        line + "\n"
    };
    text += &line(HEADS);
    for group in rows {
        text += &line([
            group.rules.map_or("all", |r| r.name()),
            &group.games.to_string(),
            &group.cleared.to_string(),
            &group.rewards.to_string(),
            &group
                .reward_rate
                .map_or("-".into(), |r| format!("{:.0}%", r * 100.0)),
            &group
                .mean_clicks_over_optimum
                .map_or("-".into(), |m| format!("{m:+.2}")),
            &group
                .median_cleared_ms
                .map_or("-".into(), |ms| format!("{:.1} s", ms / 1e3)),
        ]);
    }
    text += &format!(
        "reward: cleared in {REWARD_CLICKS} clicks or fewer; over optimum (mean clicks) and median time: of the cleared games\n"
    );
    text
}

/// The record table's column heads, and each column's width in
/// characters (a terminal's cells): the first left-aligned, the others
/// right-aligned, a space between.
const HEADS: [&str; 7] = [
    "rules",
    "games",
    "cleared",
    "reward",
    "rate",
    "over optimum",
    "median time",
];
const WIDTHS: [usize; 7] = [14, 5, 7, 6, 5, 12, 11];

/// The record table among `lines` (the record's text, as
/// [`record_text`] sets it out), for a face whose font is not a
/// terminal's and lays out its columns itself: the index of its head
/// line, its number of lines, and its cells, a row per line, the heads
/// first; `None` where the lines hold no table.
pub fn table_in(lines: &[&str]) -> Option<(usize, usize, Vec<Vec<String>>)> {
    let width = WIDTHS.iter().sum::<usize>() + WIDTHS.len() - 1;
    let cells = |line: &str| -> Option<Vec<String>> {
        if line.chars().count() != width {
            return None;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut at = 0;
        let mut row = Vec::new();
        for (i, w) in WIDTHS.into_iter().enumerate() {
            if i > 0 {
                // A space between columns, always.
                (chars[at] == ' ').then_some(())?;
                at += 1;
            }
            row.push(
                chars[at..at + w]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_owned(),
            );
            at += w;
        }
        Some(row)
    };
    let head = lines
        .iter()
        .position(|line| cells(line).is_some_and(|row| row == HEADS))?;
    let rows: Vec<Vec<String>> = lines[head..].iter().map_while(|l| cells(l)).collect();
    Some((head, rows.len(), rows))
}

/// "12 games in a.jsonl, b.jsonl; 2 lines skipped", or "no games in ...".
fn headline(games: usize, logs: &[PathBuf], skipped: usize) -> String {
    let names: Vec<String> = logs.iter().map(|p| p.display().to_string()).collect();
    let count = match games {
        0 => "no games".to_owned(),
        n => games_count(n),
    };
    let skipped = match skipped {
        0 => String::new(),
        1 => "; 1 line skipped".to_owned(),
        n => format!("; {n} lines skipped"),
    };
    format!("{count} in {}{skipped}\n", names.join(", "))
}

/// "1 game", "12 games".
fn games_count(games: usize) -> String {
    match games {
        1 => "1 game".to_owned(),
        n => format!("{n} games"),
    }
}

/// What the picture shows of `records`.
fn trend_of(records: &[GameRecord], stats: &Stats) -> Trend {
    let all = &stats.overall;
    let title = match all.games {
        0 => "Your record: no games yet".to_owned(),
        games => format!(
            "Your record: {}, {} cleared, {} with the reward ({:.0}%)",
            games_count(games),
            all.cleared,
            all.rewards,
            all.reward_rate.unwrap_or(0.0) * 100.0
        ),
    };
    Trend {
        title,
        reward_clicks: REWARD_CLICKS,
        games: records
            .iter()
            .map(|r| Dot {
                over_optimum: r.over_optimum(),
                reward: r.reward,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn the_headline_counts_games_logs_and_skipped_lines() {
        let logs = [PathBuf::from("a.jsonl"), PathBuf::from("b.jsonl")];
        assert_eq!(headline(0, &logs[..1], 0), "no games in a.jsonl\n");
        assert_eq!(
            headline(1, &logs, 1),
            "1 game in a.jsonl, b.jsonl; 1 line skipped\n"
        );
        assert_eq!(
            headline(12, &logs[..1], 3),
            "12 games in a.jsonl; 3 lines skipped\n"
        );
    }

    fn group(rules: Option<Rules>, games: usize, cleared: usize, rewards: usize) -> Group {
        Group {
            rules,
            games,
            cleared,
            rewards,
            reward_rate: Some(rewards as f64 / games as f64),
            mean_clicks_over_optimum: (cleared > 0).then_some(1.0 / 3.0),
            median_cleared_ms: (cleared > 0).then_some(41_250.0),
        }
    }

    #[test]
    fn the_table_has_a_row_per_rules_played_and_all_when_several() {
        let logs = [PathBuf::from("games.jsonl")];
        let several = Stats {
            overall: group(None, 3, 2, 1),
            by_rules: vec![
                group(Some(Rules::CentreRows), 2, 2, 1),
                group(Some(Rules::Gravity), 1, 0, 0),
            ],
        };
        let text = table(&several, &logs, 0);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "3 games in games.jsonl");
        let words = |line: &str| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            words(lines[2]),
            ["all", "3", "2", "1", "33%", "+0.33", "41.2", "s"]
        );
        assert_eq!(
            words(lines[3]),
            ["centre-rows", "2", "2", "1", "50%", "+0.33", "41.2", "s"]
        );
        assert_eq!(words(lines[4]), ["gravity", "1", "0", "0", "0%", "-", "-"]);
        assert!(lines[5].starts_with("reward: cleared in 12 clicks"));
        // Aligned: every row as long as the header, the numbers flush right.
        assert!(
            lines[1..5].iter().all(|l| l.len() == lines[1].len()),
            "{text}"
        );
        // Its cells, for a face that sets the columns out itself: the
        // head and the three rows, a cell's spaces kept, none around.
        let (head, count, cells) = table_in(&lines).unwrap();
        assert_eq!((head, count), (1, 4));
        assert_eq!(cells[0], HEADS);
        assert_eq!(
            cells[3],
            ["gravity", "1", "0", "0", "0%", "-", "-"].map(String::from)
        );
        assert_eq!(cells[1][6], "41.2 s");
        assert_eq!(table_in(&lines[2..]), None);
        let one = Stats {
            overall: group(None, 2, 2, 1),
            by_rules: vec![group(Some(Rules::Gravity), 2, 2, 1)],
        };
        let text = table(&one, &logs, 2);
        assert!(text.starts_with(
            "2 games in games.jsonl; 2 lines skipped
"
        ));
        assert_eq!(
            text.lines().filter(|l| l.starts_with("gravity ")).count(),
            1
        );
        assert!(!text.contains("all "), "{text}");
        let none = Stats::of(&[]);
        assert_eq!(
            table(&none, &logs, 1),
            "no games in games.jsonl; 1 line skipped
"
        );
    }

    #[test]
    fn a_plot_path_that_cannot_be_written_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        check_plot_path(&d.join("x.png"), "--plot").unwrap();
        check_plot_path(&d.join("X.PNG"), "--plot").unwrap();
        let refused = |path: &Path| format!("{:#}", check_plot_path(path, "--plot").unwrap_err());
        let missing = d.join("no-such").join("x.png");
        let e = refused(&missing);
        assert!(e.contains(&missing.display().to_string()), "{e}");
        assert!(e.contains("no folder"), "{e}");
        assert!(refused(&d.join("x.jpg")).contains("PNG"));
        std::fs::create_dir(d.join("dir.png")).unwrap();
        assert!(refused(&d.join("dir.png")).contains("a folder"));
        std::fs::write(d.join("file"), "").unwrap();
        assert!(refused(&d.join("file").join("x.png")).contains("no folder"));
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 2, "no probe left");
    }
}
