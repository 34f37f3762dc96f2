//! How hints are said (`bot --window TEXT --assist [--hint-log FILE]`, the
//! guided session's `1`): one line per hint and per player's click
//! (what it cost when it was not the hint) and per change of rules, writes
//! the hint log as JSON lines, and ends with the rules learned and the
//! clicks used against the optimum at the start.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::output::frame_list;
use super::say;
use crate::assist::{Event, Hint, Probe, Verdict};
use crate::game::Step;
use crate::live::session::GameReport;
use crate::record::End;

/// Prints one event.
pub(super) fn show(event: &Event) {
    say!("{}", line(event));
}

/// One event in words: the terminal's line, the desktop app's status.
pub(super) fn line(event: &Event) -> String {
    match event {
        Event::HintWindow(Ok((title, placement))) => {
            format!("hint window {title:?} {placement} (Escape or q there ends the hints)")
        }
        Event::BoardMarks(Ok(Probe::Seen(pixels))) => format!(
            "hints marked on the board (the bot's captures show the marks, {pixels} pixels, and read the board the same)"
        ),
        Event::BoardMarks(Ok(Probe::Unseen)) => {
            "hints marked on the board (the bot's captures leave the marks out)".to_owned()
        }
        Event::BoardMarks(Err(why)) => format!("no marks on the board ({why}): hints beside it"),
        Event::HintWindow(Err(cause)) => {
            format!("no hint window ({cause}): hints on the terminal only")
        }
        Event::HintWindowClosed(why) => {
            format!("hint window closed {why}: hints on the terminal only")
        }
        Event::Move {
            number,
            steps,
            verdict,
        } => {
            let names: Vec<String> = steps.iter().map(move_name).collect();
            match names.as_slice() {
                [one] => format!(
                    "click {number}: you clicked {one}: {}",
                    verdict_text(verdict)
                ),
                several => format!(
                    "clicks {}-{number}: you clicked {} within one animation: {}",
                    number + 1 - several.len() as u32,
                    several.join(", then "),
                    verdict_text(verdict)
                ),
            }
        }
        Event::Unexplained {
            before,
            after,
            frames,
        } => format!(
            "the board changed in a way no clicks explain: re-planning from the board read; the clicks counted are at least those made, no reward claimed\n  before {before}\n  after  {after}\n  frames {}",
            frame_list(frames)
        ),
        Event::Waiting(text) => (*text).to_owned(),
        Event::Readable => "the board reads again: the hints go on".to_owned(),
        Event::Hint(hint) => hint_line(hint),
    }
}

/// "(3,1) B x3": a move as the player sees it.
fn move_name(step: &Step) -> String {
    format!("{} {} x{}", step.cell, step.colour.letter(), step.size)
}

/// What a player's click did to the plan.
fn verdict_text(verdict: &Verdict) -> String {
    match *verdict {
        Verdict::AsHinted => "as hinted".to_owned(),
        Verdict::Cost {
            cost,
            from_here,
            total,
        } => {
            let cost = match cost {
                0 => "as good as the hint".to_owned(),
                c if c > 0 => format!("that click cost {c}"),
                c => format!("that click saved {}", -c),
            };
            format!("{cost}: optimum from here {from_here}, {total} in all")
        }
        Verdict::NewRules { from_here, total } => {
            format!(
                "re-planned under the game's rules: optimum from here {from_here}, {total} in all"
            )
        }
    }
}

/// One hint on one line: the next click, then the caption.
fn hint_line(hint: &Hint) -> String {
    let caption = hint.caption().join(" — ");
    match (hint.plan.first(), hint.next_at) {
        (Some(step), Some(at)) => format!("hint: click {} at {at} — {caption}", move_name(step)),
        (Some(step), None) => format!("hint: click {} — {caption}", move_name(step)),
        (None, _) => caption,
    }
}

/// The last line: how the game ended, the clicks against the optimum.
pub(super) fn summary(report: &GameReport) -> String {
    let optimum = match report.optimum() {
        Some((length, proven)) => format!(
            "optimum {length}{} at the start",
            if proven { " proven" } else { "" }
        ),
        None => "no board read".to_owned(),
    };
    let secs = report.elapsed().as_secs_f64();
    let clicks = report.clicks();
    match report.end() {
        Some(End::Cleared) => format!("cleared in {clicks} clicks ({optimum}) in {secs:.1} s"),
        Some(End::NewBoard) => format!("a new game's board after {clicks} click(s) ({optimum})"),
        Some(End::WindowClosed) => {
            format!("the game window closed after {clicks} click(s) ({optimum}): assistant ended")
        }
        Some(End::Interrupted) => format!(
            "stopped by {} after {clicks} click(s) ({optimum})",
            crate::desktop::stop::stopped_by()
        ),
        // Stops, which end with an error of their own.
        _ => format!("ended after {clicks} click(s) ({optimum})"),
    }
}

/// The hint log: one JSON object per hint, flushed at once, so that a
/// script can follow it as the game goes.
pub(super) struct HintLog {
    path: PathBuf,
    out: BufWriter<File>,
}

/// One line of the hint log, fields in this order.
#[derive(Serialize)]
struct HintLine {
    t_ms: u64,
    board: String,
    clicks: u32,
    player_move: Option<MoveLine>,
    next: Option<NextLine>,
    remaining: usize,
    proven_optimal: bool,
    cleared: bool,
    geometry: GridLine,
}

/// The board's cells on the screen: the top-left of the top row's first
/// cell and the pitch, in desktop pixels.
#[derive(Serialize)]
struct GridLine {
    x: f32,
    y: f32,
    pitch_x: f32,
    pitch_y: f32,
}

#[derive(Serialize)]
struct MoveLine {
    x: u8,
    y: u8,
    color: String,
    size: u8,
}

#[derive(Serialize)]
struct NextLine {
    #[serde(flatten)]
    click: MoveLine,
    screen: Option<[i32; 2]>,
}

impl From<&Step> for MoveLine {
    fn from(step: &Step) -> MoveLine {
        MoveLine {
            x: step.cell.x,
            y: step.cell.y,
            color: step.colour.letter().to_string(),
            size: step.size,
        }
    }
}

impl HintLog {
    /// Opens the log to append to; never the calibration read.
    pub(super) fn create(path: &Path, calibration: &Path) -> Result<HintLog> {
        let file = crate::files::open_log(path, &[calibration])
            .with_context(|| format!("{}: cannot write the hint log", path.display()))?;
        Ok(HintLog {
            path: path.to_owned(),
            out: BufWriter::new(file),
        })
    }

    pub(super) fn write(&mut self, hint: &Hint) -> Result<()> {
        let line = HintLine {
            t_ms: hint.elapsed.as_millis() as u64,
            board: hint.board.to_string(),
            clicks: hint.clicks,
            player_move: hint.player_move.as_ref().map(MoveLine::from),
            next: hint.plan.first().map(|step| NextLine {
                click: MoveLine::from(step),
                screen: hint.next_at.map(|p| [p.x, p.y]),
            }),
            remaining: hint.plan.len(),
            proven_optimal: hint.proven_optimal,
            cleared: hint.board.is_cleared(),
            geometry: GridLine {
                x: hint.on_screen.x,
                y: hint.on_screen.y,
                pitch_x: hint.on_screen.pitch_x,
                pitch_y: hint.on_screen.pitch_y,
            },
        };
        let text = serde_json::to_string(&line).expect("plain data serialises");
        writeln!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .with_context(|| format!("{}: cannot write the hint log", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::desktop::ScreenPoint;
    use crate::game::{Board, Cell, Rules, replay};

    fn hint() -> Hint {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let plan = replay(&board, &[Cell::new(7, 0), Cell::new(3, 1)]).unwrap();
        Hint {
            elapsed: Duration::from_millis(1234),
            board,
            clicks: 0,
            player_move: None,
            plan,
            rules: Rules::CentreRows,
            proven_optimal: true,
            optimum: 11,
            optimum_proven: true,
            clicks_unseen: false,
            on_screen: crate::geometry::Geometry::square(140.0, 90.0, 80.0, 8, 6),
            next_at: Some(ScreenPoint::new(740, 530)),
        }
    }

    #[test]
    fn a_hint_line_names_the_click_its_point_and_the_caption() {
        assert_eq!(
            hint_line(&hint()),
            "hint: click (7,0) G x5 at (740, 530) — click 1 of 2, optimum 11 (proven) — reward reachable"
        );
    }

    #[test]
    fn a_click_off_the_plan_says_what_it_cost() {
        let cost = Verdict::Cost {
            cost: 1,
            from_here: 10,
            total: 12,
        };
        assert_eq!(
            verdict_text(&cost),
            "that click cost 1: optimum from here 10, 12 in all"
        );
        assert_eq!(verdict_text(&Verdict::AsHinted), "as hinted");
    }

    #[test]
    fn the_hint_log_has_the_documented_fields_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hints.jsonl");
        let mut log = HintLog::create(&path, Path::new("no-calibration.toml")).unwrap();
        log.write(&hint()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let value: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        // Documented order, as written.
        let at: Vec<usize> = [
            "t_ms",
            "board",
            "clicks",
            "player_move",
            "next",
            "remaining",
            "proven_optimal",
            "cleared",
            "geometry",
        ]
        .iter()
        .map(|key| text.find(&format!("\"{key}\":")).unwrap())
        .collect();
        assert!(at.is_sorted(), "{text}");
        assert_eq!(value.as_object().unwrap().len(), 9);
        assert_eq!(value["t_ms"], 1234);
        assert_eq!(value["player_move"], serde_json::Value::Null);
        assert_eq!(
            value["next"],
            serde_json::json!({"x": 7, "y": 0, "color": "G", "size": 5, "screen": [740, 530]})
        );
        assert_eq!(value["remaining"], 2);
        assert_eq!(
            value["geometry"],
            serde_json::json!({"x": 140.0, "y": 90.0, "pitch_x": 80.0, "pitch_y": 80.0})
        );
    }
}
