//! `bot --window TEXT [--dry-run] [--assist]`: the runner's run
//! ([`crate::app::runner`]) printed as it goes (the window, the keys that
//! stop it, the board read, the plan, every click or hint, every change
//! of rules, every mismatch) and ended with its summary. The printer's
//! own policy: every hint in the hint log too when one is named, the
//! run's advice said by the flags that follow it, and every stop a
//! one-line error with exit code 2.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::{assist, say};
use crate::app::Run;
use crate::app::runner::{self, Note};
use crate::app::words::Advice;
use crate::desktop::Desktop;

/// The games `run` asks for on `desktop`, said on the terminal as they
/// go (with hints, each hint also in `hint_log` when one is named).
pub fn games(run: &Run, desktop: &mut dyn Desktop, hint_log: Option<&Path>) -> Result<ExitCode> {
    // A log that cannot be written is found before the game starts.
    let mut log = match hint_log {
        Some(path) => Some(assist::HintLog::create(path, &run.calibration_path)?),
        None => None,
    };
    let mut log_error = None;
    let ended = runner::run_on(run, desktop, true, &mut |note| {
        print(note, log.as_mut(), &mut log_error);
    });
    if let Some(summary) = &ended.summary {
        say!("{summary}");
    }
    if let Some((error, advice)) = ended.error {
        let advice = advice.map(|advice| flags(&advice)).unwrap_or_default();
        return Err(anyhow::anyhow!("{error:#}{advice}"));
    }
    match log_error {
        Some(error) => Err(error),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Prints one note of the run; a hint goes into the hint log too, whose
/// first failure is kept for the end (said at once: the hints go on).
fn print(note: Note, log: Option<&mut assist::HintLog>, log_error: &mut Option<anyhow::Error>) {
    match note {
        Note::Window(window) => say!("window {window}"),
        Note::StopKeys(keys) => say!("{}", keys.said),
        Note::Hint(hint) => {
            if let Some(log) = log
                && let Err(error) = log.write(&hint)
            {
                eprintln!("error: {error:#}");
                log_error.get_or_insert(error);
            }
        }
        Note::Doing(line) | Note::Game(line) | Note::Notice(line) => say!("{line}"),
        Note::Learned { line, advice } => say!("{line}{}", flags(&advice)),
        // The flags named the calibration; the terminal draws no board.
        Note::Calibration(_) | Note::Picture(_) | Note::Ended(_) => {}
    }
}

/// The flags that would help after a run's error, as a tail to it.
fn flags(advice: &Advice) -> String {
    match advice {
        Advice::MoreReplans => "; --max-replans allows more".to_owned(),
        Advice::LongerSettle => "; --settle-ms waits longer".to_owned(),
        Advice::Teach { frame } => format!(
            "; to teach the calibration this board: bot calibrate FULL.png --board FULL_BOARD {} --board THIS_BOARD",
            frame.display()
        ),
        Advice::Rules(Some(rules)) => format!(": pass --rules {rules} next time"),
        Advice::Rules(None) => ": pass the game's with --rules next time".to_owned(),
    }
}
