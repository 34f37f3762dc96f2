//! What the door says: each line said once for the faces to take, and
//! the status lines as they stand (the window found, the calibration, the
//! optimum, what the bot does, the last game, the summary, and the lines
//! under them), with the troubles that hold.

use super::Door;
use crate::app::settings::Settings;

/// The status lines, as they stand.
#[derive(Debug, Default)]
pub(super) struct StatusLines {
    pub(super) window: String,
    pub(super) calibration: String,
    pub(super) optimum: String,
    pub(super) doing: String,
    pub(super) game: String,
    pub(super) summary: String,
    /// The record's table, the windows tried, or an error's lines.
    pub(super) more: Vec<String>,
}

/// A status line.
#[derive(Clone, Copy)]
pub(super) enum Slot {
    Window,
    Calibration,
    Optimum,
    Doing,
    Game,
    Summary,
}

impl Door {
    /// The status lines as they stand, the notices under them.
    pub fn status_lines(&self) -> Vec<&str> {
        let s = &self.status;
        [
            &s.window,
            &s.calibration,
            &s.optimum,
            &s.doing,
            &s.game,
            &s.summary,
        ]
        .into_iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .chain(s.more.iter().map(String::as_str))
        .chain(self.notices.iter().map(String::as_str))
        .collect()
    }

    /// Says a trouble once, shown under the status while it holds.
    pub fn notice(&mut self, line: String) {
        if !self.notices.contains(&line) {
            self.said.push(line.clone());
            self.notices.push(line);
        }
    }

    /// Says `text` (every line of it) and shows its first line in `slot`.
    pub(super) fn say(&mut self, slot: Slot, text: String) {
        self.said.extend(text.lines().map(str::to_owned));
        let first = text.lines().next().unwrap_or_default().to_owned();
        *match slot {
            Slot::Window => &mut self.status.window,
            Slot::Calibration => &mut self.status.calibration,
            Slot::Optimum => &mut self.status.optimum,
            Slot::Doing => &mut self.status.doing,
            Slot::Game => &mut self.status.game,
            Slot::Summary => &mut self.status.summary,
        } = first;
    }

    /// Says `lines` under the status, in place of what was there.
    pub(super) fn say_more(&mut self, lines: Vec<String>) {
        self.said.extend(lines.iter().cloned());
        self.status.more = lines;
    }

    /// "remembered (settings.toml): the window ..., your last choice ...".
    pub(super) fn say_remembered(&mut self, s: &Settings) {
        if s == &Settings::default() {
            return;
        }
        let mut parts = Vec::new();
        if let Some(window) = &s.window {
            parts.push(format!("the window {}", crate::text::excerpt(window)));
        }
        if let Some(path) = &s.calibration {
            parts.push(format!("the calibration {}", path.display()));
        }
        if let Some(choice) = s.last_choice {
            parts.push(format!(
                "your last choice, {} {}",
                choice.key(),
                choice.name()
            ));
        }
        let line = format!(
            "remembered ({}): {}",
            self.places.settings.display(),
            parts.join(", ")
        );
        self.said.push(line);
    }
}
