//! Hints on the terminal (`bot --window TEXT --assist [--hint-log FILE]`):
//! each event printed in the app floor's words ([`crate::app::words`]),
//! and the hint log, one JSON line per hint.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::assist::Hint;
use crate::game::Step;

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
    use super::*;

    #[test]
    fn the_hint_log_has_the_documented_fields_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hints.jsonl");
        let mut log = HintLog::create(&path, Path::new("no-calibration.toml")).unwrap();
        log.write(&Hint::example()).unwrap();
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
