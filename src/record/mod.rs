//! The game log (`--game-log FILE`): the player's record, one JSON line
//! per game that live play or assist mode saw, appended as the game ends.
//! [`GameRecord`] is the line, a contract for scripts (README, "Your
//! record"); [`GameLog`] appends records, each a whole line in one write
//! after what the file holds, never touching that; [`read`] takes a log
//! back, the good lines as records and the bad ones (a line cut short by
//! a crash or a full disk, a line edited by hand) named with why, never
//! fatal; [`stats`] sums the records up for `bot stats`.

pub mod stats;

use std::fmt;
use std::fs::File;
use std::io::{self, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::files::{self, FileError};
use crate::game::{Board, Cell, REWARD_CLICKS, Rules};

/// The most a game log may hold to be read: a game's line is about 1 KB
/// (its board and a few dozen clicks), so this is a hundred thousand
/// games, years of play, and still a read that fits in memory.
pub const MAX_LOG_BYTES: u64 = 128 << 20;

/// How many lines that are no record a read keeps, with why: the first
/// ones tell what went wrong; the rest are only counted (a log garbled
/// whole would otherwise take many times its size to hold, and to say).
pub const KEPT_BAD_LINES: usize = 20;

/// How much of why a line was skipped is said: the start of the JSON
/// reader's message is the part that tells.
const MAX_WHY: usize = 100;

/// One game, as one line of the log, fields in this order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The version of the bot that saw the game (`CARGO_PKG_VERSION`).
    pub version: String,
    /// When the game started: UTC, RFC 3339 to the second
    /// ([`now_rfc3339`]).
    pub started: String,
    pub mode: GameMode,
    /// The first board read, as its board string (RULES.md).
    #[serde(serialize_with = "as_text", deserialize_with = "board_from_text")]
    pub board: Board,
    /// The rules in force at the end of the game, by the command line's
    /// name (`centre-rows`, ...).
    #[serde(serialize_with = "as_text", deserialize_with = "rules_from_text")]
    pub rules: Rules,
    /// The fewest clicks that clear the first board under those rules.
    pub optimum: u32,
    /// Whether [`optimum`](Self::optimum) is proven; else it is the
    /// shortest clearing the solver found in its time.
    pub optimum_proven: bool,
    /// Every click of the game, in order.
    pub clicks: Vec<ClickRecord>,
    /// Assist mode: some clicks were not seen (the board changed in a way
    /// no clicks explain), so `clicks` is a lower bound and no reward is
    /// claimed. Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clicks_unseen: bool,
    /// Whether the board was cleared.
    pub cleared: bool,
    /// Whether the game earned the reward ([`crate::game::earns_reward`]).
    pub reward: bool,
    /// From the first board read to the end of the game.
    pub duration_ms: u64,
    pub end: End,
    /// Why the game stopped, when it stopped on an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl GameRecord {
    /// What makes the record one no game can have left, if anything: a
    /// click off the board, a reward without a clear or for more clicks
    /// than the reward allows, an end that contradicts `cleared`, an
    /// optimum the board cannot have (fewer clicks than it has colours,
    /// more than it has tiles), a clear in fewer clicks than a proven
    /// optimum (unless the clicks were not all seen).
    pub fn fault(&self) -> Option<String> {
        let (width, height) = (self.board.width(), self.board.height());
        if let Some((n, click)) = self
            .clicks
            .iter()
            .enumerate()
            .find(|(_, c)| c.cell[0] >= width || c.cell[1] >= height)
        {
            let [x, y] = click.cell;
            return Some(format!(
                "click {}: cell ({x},{y}) off the {width}x{height} board",
                n + 1
            ));
        }
        let clicks = self.clicks.len();
        if self.reward && !self.cleared {
            return Some("a reward without a clear".to_owned());
        }
        if self.reward && clicks > REWARD_CLICKS {
            return Some(format!(
                "a reward for {clicks} clicks ({REWARD_CLICKS} at most)"
            ));
        }
        if self.cleared != (self.end == End::Cleared) {
            return Some(format!(
                "cleared {} but the end is {}",
                self.cleared,
                serde_json::to_string(&self.end).expect("plain data serialises")
            ));
        }
        let (least, most) = (self.board.colours_left(), self.board.tile_count());
        if !(least..=most as u32).contains(&self.optimum) {
            return Some(format!(
                "optimum {}: this board needs {least} to {most} clicks",
                self.optimum
            ));
        }
        if self.cleared
            && !self.clicks_unseen
            && self.optimum_proven
            && clicks < self.optimum as usize
        {
            return Some(format!(
                "cleared in {clicks} clicks, fewer than its proven optimum {}",
                self.optimum
            ));
        }
        None
    }

    /// How many clicks more than the optimum the game took, for a cleared
    /// game (below 0 when the player beat an optimum that was not proven);
    /// `None` for a game left uncleared, whose clicks cleared nothing, and
    /// for one whose clicks were not all seen.
    pub fn over_optimum(&self) -> Option<i64> {
        (self.cleared && !self.clicks_unseen)
            .then(|| self.clicks.len() as i64 - i64::from(self.optimum))
    }
}

/// Who clicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameMode {
    /// The bot played (live play).
    Play,
    /// The player clicked, with hints (assist mode).
    Assist,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// The board is empty.
    Cleared,
    /// Live play's `--max-moves` clicks were made.
    MaxMoves,
    /// A safety stop or an error ([`GameRecord::error`] says which).
    Stopped,
    /// Ctrl-C (or a signal to end).
    Interrupted,
    /// The game window closed.
    WindowClosed,
    /// A new board appeared before this one was cleared: the player gave
    /// up on it.
    NewBoard,
}

/// One click of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClickRecord {
    /// The cell clicked, `[x, y]`: x from the left, y from the bottom row
    /// (RULES.md).
    pub cell: [u8; 2],
    /// When, from the start of the game.
    pub t_ms: u64,
    /// Assist mode: whether the click was the one hinted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub followed: Option<bool>,
    /// Assist mode: how many clicks it added to the whole game (0 when it
    /// was as good as the hint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<i64>,
}

impl ClickRecord {
    /// A click on `cell` at `since_start` into the game, with no hint to
    /// follow (live play's; assist mode sets `followed` and `cost`).
    pub fn new(cell: Cell, since_start: Duration) -> ClickRecord {
        ClickRecord {
            cell: [cell.x, cell.y],
            t_ms: u64::try_from(since_start.as_millis()).unwrap_or(u64::MAX),
            followed: None,
            cost: None,
        }
    }
}

/// Now, as [`GameRecord::started`] says it: UTC to the second,
/// `2026-11-25T18:00:00Z` (a clock set before 1970 says 1970).
pub fn now_rfc3339() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since.as_secs())
}

/// `seconds` after 1970-01-01T00:00:00Z, in RFC 3339 (UTC, to the second).
fn rfc3339(seconds: u64) -> String {
    let (days, time) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}

/// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`: years counted from March, so that the leap day is
/// the last of its year, in 400-year eras of 146097 days).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// A game log not opened, written or read: the path and the cause.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error("{}: cannot open the game log: {cause}", .path.display())]
    Open { path: PathBuf, cause: FileError },
    #[error("{}: cannot write the game log: {cause}", .path.display())]
    Write { path: PathBuf, cause: io::Error },
    #[error("{}: cannot read the game log: {cause}", .path.display())]
    Read { path: PathBuf, cause: FileError },
}

/// The game log, open to append records to. Opened before the first game,
/// so that a log that cannot be written is said before any play.
#[derive(Debug)]
pub struct GameLog {
    path: PathBuf,
    file: File,
}

impl GameLog {
    /// Opens `path` to append to (created when missing; what it holds is
    /// kept). Refused: anything but a regular file, and any of `inputs`,
    /// the files the run reads (a log typed over the calibration).
    pub fn open(path: &Path, inputs: &[&Path]) -> Result<GameLog, RecordError> {
        let file = files::open_log_readable(path, inputs).map_err(|cause| RecordError::Open {
            path: path.to_owned(),
            cause,
        })?;
        Ok(GameLog {
            path: path.to_owned(),
            file,
        })
    }

    /// The log's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` as one line, in one write, flushed. When the file
    /// ends inside a line (one cut short), the record starts a line of its
    /// own, so that only the cut line is lost.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), RecordError> {
        let json = serde_json::to_string(record).expect("plain data serialises");
        self.write_line(&json).map_err(|cause| RecordError::Write {
            path: self.path.clone(),
            cause,
        })
    }

    fn write_line(&mut self, json: &str) -> io::Result<()> {
        let mut line = String::with_capacity(json.len() + 2);
        if self.ends_mid_line()? {
            line.push('\n');
        }
        line += json;
        line.push('\n');
        // Appended by the system at the end, whatever was read.
        self.file.write_all(line.as_bytes())?;
        self.file.flush()
    }

    /// Whether the file's last byte ends no line. Looked at before every
    /// record, not once: another run may share the log, and a write of
    /// ours that failed part way (a full disk) leaves a cut line too.
    fn ends_mid_line(&mut self) -> io::Result<bool> {
        let length = self.file.metadata()?.len();
        if length == 0 {
            return Ok(false);
        }
        self.file.seek(SeekFrom::Start(length - 1))?;
        let mut last = [0];
        self.file.read_exact(&mut last)?;
        Ok(last[0] != b'\n')
    }
}

/// A log read: its good records, and the lines that were none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    pub records: Vec<GameRecord>,
    /// The first lines that were no record (as many as the read kept).
    pub bad: Vec<BadLine>,
    /// How many lines were no record, those kept included.
    pub bad_count: usize,
    /// The bytes of the log's oldest part left unread: a log past
    /// [`MAX_LOG_BYTES`] is read from its newest records.
    pub unread_bytes: u64,
}

impl Loaded {
    /// Line `line` of `path` is no record: counted, and kept with `why`
    /// while fewer than `keep` are (`why` is worked out only then).
    fn skip(&mut self, path: &Path, line: usize, keep: usize, why: impl FnOnce() -> String) {
        self.bad_count += 1;
        if self.bad.len() < keep {
            self.bad.push(BadLine {
                path: path.to_owned(),
                line,
                why: why(),
            });
        }
    }
}

/// A line of a log that is no record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BadLine {
    #[serde(serialize_with = "path_text")]
    pub path: PathBuf,
    /// From 1.
    pub line: usize,
    /// Why, in a few words: `truncated` for a line cut short.
    pub why: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: skipped: {}",
            self.path.display(),
            self.line,
            self.why
        )
    }
}

/// A path as text, as it is shown (a name that is no UTF-8 is no error).
fn path_text<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&path.display())
}

/// Reads the game log `path`: a file that cannot be read is an error; a
/// line that is no record is not, it is counted, and the first `keep` are
/// named in [`Loaded::bad`]. Blank lines are skipped. A log past
/// [`MAX_LOG_BYTES`] (years of play, or a log that grew by mistake) is
/// read from its newest records, from the first whole line of its last
/// [`MAX_LOG_BYTES`], the part left said in [`Loaded::unread_bytes`].
pub fn read(path: &Path, keep: usize) -> Result<Loaded, RecordError> {
    read_newest(path, keep, MAX_LOG_BYTES)
}

/// [`read`], reading at most the last `limit` bytes.
fn read_newest(path: &Path, keep: usize, limit: u64) -> Result<Loaded, RecordError> {
    let error = |cause| RecordError::Read {
        path: path.to_owned(),
        cause,
    };
    let (bytes, unread) = files::read_end(path, limit).map_err(error)?;
    let (bytes, unread) = match unread {
        0 => (&bytes[..], 0),
        // The line cut at the start is no record.
        _ => match bytes.iter().position(|&b| b == b'\n') {
            Some(at) => (&bytes[at + 1..], unread + at as u64 + 1),
            None => (&bytes[bytes.len()..], unread + bytes.len() as u64),
        },
    };
    let mut loaded = parse(path, bytes, keep);
    loaded.unread_bytes = unread;
    Ok(loaded)
}

/// The records and bad lines of a log's bytes, the first `keep` bad
/// lines kept.
fn parse(path: &Path, bytes: &[u8], keep: usize) -> Loaded {
    let mut loaded = Loaded::default();
    // An editor's "Unicode" save: no line of it is UTF-8 text.
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        loaded.skip(path, 1, keep, || {
            "the log is UTF-16 text: save it as UTF-8".to_owned()
        });
        return loaded;
    }
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(text) = std::str::from_utf8(line) else {
            loaded.skip(path, number, keep, || "not UTF-8 text".to_owned());
            continue;
        };
        let text = if index == 0 {
            files::without_bom(text)
        } else {
            text
        };
        let garbled = if text.contains('\0') {
            Some("NUL bytes (UTF-16 text?): the log is UTF-8 text")
        } else if text.contains('\r') {
            Some("lines ended by CR alone: the log's lines end with LF")
        } else if text.starts_with('\u{feff}') {
            Some("a byte-order mark inside the log (two logs joined?)")
        } else {
            None
        };
        if let Some(garbled) = garbled {
            loaded.skip(path, number, keep, || garbled.to_owned());
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(text) {
            Ok(record) => match record.fault() {
                None => loaded.records.push(record),
                Some(fault) => loaded.skip(path, number, keep, || fault),
            },
            // The text ends before the record does: a write cut short,
            // whether a later record started its own line after it or not.
            Err(e) if e.is_eof() => loaded.skip(path, number, keep, || "truncated".to_owned()),
            Err(e) => loaded.skip(path, number, keep, || why(&e)),
        }
    }
    loaded
}

/// The JSON reader's complaint about a line, without where in the line
/// (the log's lines are one-line objects: the column tells no one much),
/// cut short, and printable (it may quote the line); text that is no JSON
/// at all is called so.
fn why(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" at line ") {
        Some(at) => &text[..at],
        None => &text,
    };
    let text = crate::text::printable(text);
    let shown = match error.classify() {
        serde_json::error::Category::Syntax => format!("not JSON ({text})"),
        _ => text,
    };
    if shown.chars().count() <= MAX_WHY {
        return shown;
    }
    let cut: String = shown.chars().take(MAX_WHY).collect();
    format!("{cut}...")
}

/// A game's value written as its text: a board as its board string, rules
/// by name.
fn as_text<T: fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// A board read back through its parser: a record read holds a valid
/// board.
fn board_from_text<'de, D: Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
    from_text(d, "board")
}

/// Rules read back by name: a record read holds known rules.
fn rules_from_text<'de, D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
    from_text(d, "rules")
}

/// `what` read from its text, or an error saying what was wrong with it.
fn from_text<'de, T, D>(d: D, what: &str) -> Result<T, D::Error>
where
    T: FromStr<Err: fmt::Display>,
    D: Deserializer<'de>,
{
    let text = String::deserialize(d)?;
    text.parse()
        .map_err(|e| serde::de::Error::custom(format!("{what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EXAMPLE_BOARD, earns_reward};

    /// An assisted game of the example board: 12 clicks, one off the hint.
    fn record() -> GameRecord {
        let mut clicks: Vec<ClickRecord> = (0..12)
            .map(|i| ClickRecord {
                followed: Some(i != 3),
                cost: Some(i64::from(i == 3)),
                ..ClickRecord::new(
                    Cell::new(i % 8, 0),
                    Duration::from_millis(1500 * u64::from(i)),
                )
            })
            .collect();
        clicks[0].t_ms = 900;
        GameRecord {
            version: "0.1.0".into(),
            started: "2026-11-25T18:00:00Z".into(),
            mode: GameMode::Assist,
            board: EXAMPLE_BOARD.parse().unwrap(),
            rules: Rules::CentreColumns,
            optimum: 11,
            optimum_proven: true,
            clicks,
            clicks_unseen: false,
            cleared: true,
            reward: earns_reward(12, true),
            duration_ms: 17_250,
            end: End::Cleared,
            error: None,
        }
    }

    /// A game live play stopped on an error after two clicks.
    fn stopped() -> GameRecord {
        GameRecord {
            mode: GameMode::Play,
            rules: Rules::CentreRows,
            optimum_proven: false,
            clicks: vec![
                ClickRecord::new(Cell::new(7, 0), Duration::from_millis(40)),
                ClickRecord::new(Cell::new(3, 1), Duration::from_millis(1234)),
            ],
            cleared: false,
            reward: false,
            duration_ms: 2000,
            end: End::Stopped,
            error: Some("another window covers the board".into()),
            ..record()
        }
    }

    #[test]
    fn a_record_is_one_line_with_the_documented_fields_in_order() {
        let line = serde_json::to_string(&stopped()).unwrap();
        assert_eq!(
            line,
            concat!(
                r#"{"version":"0.1.0","started":"2026-11-25T18:00:00Z","mode":"play","#,
                r#""board":"GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG","#,
                r#""rules":"centre-rows","optimum":11,"optimum_proven":false,"#,
                r#""clicks":[{"cell":[7,0],"t_ms":40},{"cell":[3,1],"t_ms":1234}],"#,
                r#""cleared":false,"reward":false,"duration_ms":2000,"end":"stopped","#,
                r#""error":"another window covers the board"}"#
            )
        );
        // Assist mode's clicks say whether they followed the hint and what
        // they cost; no error, no field.
        let line = serde_json::to_string(&record()).unwrap();
        assert!(
            line.contains(r#""clicks":[{"cell":[0,0],"t_ms":900,"followed":true,"cost":0},"#),
            "{line}"
        );
        assert!(
            line.contains(r#"{"cell":[3,0],"t_ms":4500,"followed":false,"cost":1}"#),
            "{line}"
        );
        assert!(
            line.contains(r#""mode":"assist","#) && line.contains(r#""rules":"centre-columns","#)
        );
        assert!(
            line.ends_with(r#""duration_ms":17250,"end":"cleared"}"#),
            "{line}"
        );
        // Both read back as they were.
        for record in [record(), stopped()] {
            let line = serde_json::to_string(&record).unwrap();
            assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), record);
        }
    }

    #[test]
    fn every_end_has_its_kebab_case_name() {
        let names: Vec<String> = [
            End::Cleared,
            End::MaxMoves,
            End::Stopped,
            End::Interrupted,
            End::WindowClosed,
            End::NewBoard,
        ]
        .iter()
        .map(|end| serde_json::to_string(end).unwrap())
        .collect();
        assert_eq!(
            names,
            [
                r#""cleared""#,
                r#""max-moves""#,
                r#""stopped""#,
                r#""interrupted""#,
                r#""window-closed""#,
                r#""new-board""#
            ]
        );
    }

    #[test]
    fn clicks_over_the_optimum_count_cleared_games_only() {
        assert_eq!(record().over_optimum(), Some(1));
        assert_eq!(stopped().over_optimum(), None);
        let beaten = GameRecord {
            clicks: record().clicks[..10].to_vec(),
            clicks_unseen: false,
            optimum_proven: false,
            ..record()
        };
        assert_eq!(beaten.over_optimum(), Some(-1));
    }

    #[test]
    fn times_are_utc_to_the_second() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(rfc3339(1_795_629_600), "2026-11-25T18:00:00Z");
        assert_eq!(rfc3339(4_102_444_799), "2099-12-31T23:59:59Z");
        let now = now_rfc3339();
        assert_eq!(now.len(), "2026-11-25T18:00:00Z".len(), "{now}");
        assert!(now.as_str() > "2025" && now.ends_with('Z'), "{now}");
    }

    #[test]
    fn every_day_follows_the_one_before() {
        // Against a calendar walked a day at a time, 1970 to 2400 (the
        // leap rules of 2000, 2100 and 2400 included).
        let leap =
            |y: u64| y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
        let (mut year, mut month, mut day) = (1970, 1, 1);
        for days in 0..157_000 {
            assert_eq!(civil_from_days(days), (year, month, day), "day {days}");
            let length = match month {
                2 if leap(year) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                (day, month) = (1, month + 1);
            }
            if month > 12 {
                (month, year) = (1, year + 1);
            }
        }
        assert!(year >= 2399, "{year}");
    }

    fn line(record: &GameRecord) -> String {
        serde_json::to_string(record).unwrap()
    }

    #[test]
    fn appending_keeps_what_the_log_holds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        std::fs::write(&path, "kept\n").unwrap();
        let mut log = GameLog::open(&path, &[]).unwrap();
        assert_eq!(log.path(), path);
        log.append(&record()).unwrap();
        log.append(&stopped()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!("kept\n{}\n{}\n", line(&record()), line(&stopped()))
        );
        // Another run's log, opened later, appends after both.
        drop(log);
        GameLog::open(&path, &[])
            .unwrap()
            .append(&record())
            .unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with(&text));
    }

    #[test]
    fn a_record_after_a_cut_line_starts_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let good = line(&record());
        let cut = &good[..good.len() / 2];
        std::fs::write(&path, format!("{good}\n{cut}")).unwrap();
        let mut log = GameLog::open(&path, &[]).unwrap();
        log.append(&stopped()).unwrap();
        // Cut again, after the log was opened (another run, a full disk).
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(cut.as_bytes())
            .unwrap();
        log.append(&record()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!("{good}\n{cut}\n{}\n{cut}\n{good}\n", line(&stopped()))
        );
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert_eq!(loaded.records, [record(), stopped(), record()]);
        let bad: Vec<(usize, &str)> = loaded
            .bad
            .iter()
            .map(|b| (b.line, b.why.as_str()))
            .collect();
        assert_eq!(bad, [(2, "truncated"), (4, "truncated")]);
    }

    #[test]
    fn a_log_that_cannot_be_opened_is_said_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("games.jsonl");
        std::fs::create_dir(&folder).unwrap();
        let error = GameLog::open(&folder, &[]).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "{}: cannot open the game log: not a regular file (a folder)",
                folder.display()
            )
        );
        let calibration = dir.path().join("c.toml");
        std::fs::write(&calibration, "version = 1\n").unwrap();
        let error = GameLog::open(&calibration, &[&calibration]).unwrap_err();
        assert!(
            error.to_string().contains("one of the run's inputs"),
            "{error}"
        );
        let missing = dir.path().join("no-such-folder/games.jsonl");
        let error = GameLog::open(&missing, &[]).unwrap_err().to_string();
        assert!(error.starts_with(&missing.display().to_string()), "{error}");
    }

    #[test]
    fn reading_skips_blank_lines_and_names_the_bad_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let good = line(&record());
        let unknown_end = good.replace(r#""end":"cleared""#, r#""end":"won""#);
        let bad_board = good.replace("GGGGBOYO,", "GGGGBXYO,");
        let no_optimum = good.replace(r#""optimum":11,"#, "");
        let bad_rules = good.replace("centre-columns", "sideways");
        let mut bytes = format!(
            "\u{feff}{good}\r\n\n   \n{unknown_end}\nnot json\n{bad_board}\n{no_optimum}\n"
        )
        .into_bytes();
        bytes.extend(b"\xff\xfe\n");
        bytes.extend(format!("{good}\n{bad_rules}\n{}", &good[..20]).as_bytes());
        std::fs::write(&path, bytes).unwrap();
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert_eq!(loaded.records, [record(), record()]);
        let bad: Vec<String> = loaded.bad.iter().map(ToString::to_string).collect();
        let at = |line: usize, why: &str| format!("{}:{line}: skipped: {why}", path.display());
        assert_eq!(bad.len(), 7, "{bad:#?}");
        assert!(
            bad[0].starts_with(&at(4, "unknown variant `won`")),
            "{}",
            bad[0]
        );
        assert!(
            bad[1].starts_with(&at(5, "not JSON (expected")),
            "{}",
            bad[1]
        );
        assert!(
            bad[2].starts_with(&at(
                6,
                "board: row 1 (y=5), column 6 (x=5): unknown letter 'X'"
            )),
            "{}",
            bad[2]
        );
        assert_eq!(bad[3], at(7, "missing field `optimum`"));
        assert_eq!(bad[4], at(8, "not UTF-8 text"));
        assert!(
            bad[5].starts_with(&at(10, r#"rules: unknown rules "sideways""#)),
            "{}",
            bad[5]
        );
        assert_eq!(bad[6], at(11, "truncated"));
        assert!(bad.iter().all(|b| !b.contains(" at line ")), "{bad:#?}");
        // A last line whole but for its line end is a record.
        std::fs::write(&path, &good).unwrap();
        assert_eq!(read(&path, KEPT_BAD_LINES).unwrap().records, [record()]);
    }

    #[test]
    fn a_record_no_game_can_leave_is_a_bad_line() {
        assert_eq!(record().fault(), None);
        assert_eq!(stopped().fault(), None);
        let fault = |edit: fn(&mut GameRecord)| {
            let mut record = record();
            edit(&mut record);
            record.fault().unwrap()
        };
        assert_eq!(
            fault(|r| r.clicks[2].cell = [8, 0]),
            "click 3: cell (8,0) off the 8x6 board"
        );
        assert_eq!(
            fault(|r| {
                r.cleared = false;
                r.end = End::Stopped;
            }),
            "a reward without a clear"
        );
        assert_eq!(
            fault(|r| r.clicks.push(r.clicks[0])),
            "a reward for 13 clicks (12 at most)"
        );
        assert_eq!(
            fault(|r| r.end = End::NewBoard),
            r#"cleared true but the end is "new-board""#
        );
        assert_eq!(
            fault(|r| r.optimum = 4),
            "optimum 4: this board needs 5 to 48 clicks"
        );
        assert_eq!(
            fault(|r| r.optimum = 13),
            "cleared in 12 clicks, fewer than its proven optimum 13"
        );
        // A count that is only a lower bound may fall below it.
        let mut unseen = record();
        (unseen.optimum, unseen.clicks_unseen, unseen.reward) = (13, true, false);
        assert_eq!(unseen.fault(), None);
    }

    #[test]
    fn text_that_is_no_log_line_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let good = line(&record());
        let utf16: Vec<u8> = "\u{feff}x\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        std::fs::write(&path, &utf16).unwrap();
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert_eq!(
            loaded.bad[0].why,
            "the log is UTF-16 text: save it as UTF-8"
        );
        assert_eq!(loaded.bad_count, 1);
        let without_bom = &utf16[2..];
        std::fs::write(&path, without_bom).unwrap();
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert!(
            loaded.bad[0].why.starts_with("NUL bytes"),
            "{:?}",
            loaded.bad
        );
        std::fs::write(&path, format!("{good}\r{good}\r")).unwrap();
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert_eq!(
            loaded.bad[0].why,
            "lines ended by CR alone: the log's lines end with LF"
        );
        std::fs::write(&path, format!("{good}\n\u{feff}{good}\n")).unwrap();
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert_eq!(loaded.records, [record()]);
        assert_eq!(loaded.bad[0].line, 2);
        assert!(loaded.bad[0].why.starts_with("a byte-order mark inside"));
        // A record no game can leave is named, not counted.
        let impossible = good.replace(r#""optimum":11"#, r#""optimum":99"#);
        std::fs::write(&path, format!("{impossible}\n{good}\n")).unwrap();
        let loaded = read(&path, KEPT_BAD_LINES).unwrap();
        assert_eq!(loaded.records, [record()]);
        assert_eq!(
            loaded.bad[0].why,
            "optimum 99: this board needs 5 to 48 clicks"
        );
    }

    #[test]
    fn a_log_that_cannot_be_read_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("games.jsonl");
        let error = read(&missing, KEPT_BAD_LINES).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!(
                "{}: cannot read the game log: ",
                missing.display()
            )),
            "{error}"
        );
        std::fs::write(&missing, "").unwrap();
        assert_eq!(read(&missing, KEPT_BAD_LINES).unwrap(), Loaded::default());
    }

    #[test]
    fn a_complaint_is_printable_and_a_long_one_cut() {
        let complaint = |mode: &str| {
            let text = format!(r#"{{"version":"0.1.0","mode":"{mode}"}}"#);
            why(&serde_json::from_str::<GameRecord>(&text).unwrap_err())
        };
        let escape = complaint(r"\u001b[31m");
        assert!(
            escape.starts_with(r"unknown variant `\u{1b}[31m`"),
            "{escape}"
        );
        let long = complaint(&"x".repeat(300));
        assert!(long.starts_with("unknown variant `xxx"), "{long}");
        assert_eq!(long.chars().count(), MAX_WHY + 3, "{long}");
        assert!(long.ends_with("..."), "{long}");
    }

    #[test]
    fn a_log_past_its_limit_is_read_from_its_newest_whole_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let line = serde_json::to_string(&record()).unwrap();
        let text = format!("{line}\n").repeat(10);
        std::fs::write(&path, &text).unwrap();
        let whole = read_newest(&path, 5, 1 << 20).unwrap();
        assert_eq!((whole.records.len(), whole.unread_bytes), (10, 0));
        // Three and a half records' worth: the cut one is left, unread.
        let limit = (line.len() as u64 + 1) * 7 / 2;
        let newest = read_newest(&path, 5, limit).unwrap();
        assert_eq!(newest.records.len(), 3);
        assert_eq!(newest.bad_count, 0);
        assert_eq!(newest.unread_bytes, (line.len() as u64 + 1) * 7);
    }
}
