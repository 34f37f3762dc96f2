//! The door's record and report: the record of the default game log said
//! (its plot saved, and what it shows kept for a face that draws it),
//! and the report written
//! into the data folder with the last error.

use super::{Door, Phase, Slot};

impl Door {
    /// The record of the default game log, said; its plot saved beside
    /// it, for a face that can to show (never in a viewer the bot opens:
    /// it would lie over the game, whose board the bot reads).
    pub(super) fn record(&mut self) {
        let log = self.places.game_log();
        let lines = if log.exists() {
            let plot = self.places.data.join("record.png");
            let named = Some((plot.as_path(), "the record's plot"));
            crate::app::record_view::record(&[log], named, false).map(|(text, trend)| {
                self.plot = Some((plot.clone(), trend));
                text.lines().map(str::to_owned).collect()
            })
        } else {
            let folder = crate::files::folder_of(&log);
            Ok(vec![match crate::files::check_folder(&folder) {
                Ok(()) => format!(
                    "no games recorded yet ({}): hints and play record each game",
                    log.display()
                ),
                Err(why) => format!(
                    "no games recorded: the data folder {} cannot be written ({why})",
                    folder.display()
                ),
            }])
        };
        match lines {
            Ok(lines) => self.say_more(lines),
            Err(error) => self.fail(format!("{error:#}")),
        }
        if let Phase::Ready { .. } = self.phase {
            self.offer_again();
        }
    }

    /// The report, saved in the data folder, with the last error.
    pub(super) fn report(&mut self) {
        let error = match &self.phase {
            Phase::Failed { error } => Some(error.as_str()),
            _ => None,
        };
        let saved = crate::app::report::save(&self.places.data, error, &self.options.debug_dir());
        let line = match saved {
            Ok(path) => {
                // Where a player finds it (Windows' data folder is hidden).
                crate::desktop::console::show_in_explorer(&path);
                format!(
                    "wrote the report {}: attach it to your question",
                    path.display()
                )
            }
            Err(error) => format!("error: {error:#}"),
        };
        self.say(Slot::Doing, line);
        if let Phase::Ready { .. } | Phase::Failed { .. } = self.phase {
            self.offer_again();
        }
    }
}
