//! `bot --window TEXT [--dry-run]`: live play in the game window. Turns the
//! play arguments into live play's settings, prints what happens (the board
//! read, the plan, every click, every change of rules, every mismatch) and
//! ends with the rules learned and the clicks used against the plan and
//! the total time. Every stop is a one-line
//! error with exit code 2. The Pause key stops the games from any window
//! while they go on.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::{assist, say};
use crate::app::words::{self, game_lines, play_line, ran_result, run_summary};
use crate::app::{self, Driving, Run};
use crate::assist::Assist;
use crate::live::RulesChoice;
use crate::live::session::{Driver, Event, GameReport, Observe};
use crate::play::{self, Play};

/// The games `run` asks for, said on the terminal as they go (with
/// hints, each hint also in `hint_log` when one is named): the flags'
/// run and the guided session's alike.
pub(super) fn games(run: &Run, hint_log: Option<&Path>) -> Result<ExitCode> {
    match run.driver() {
        Driving::Play(driver) => play(run, driver),
        Driving::Assist(driver) => hints(run, driver, hint_log),
    }
}

/// Hints as `run` says, said as they go, each in `hint_log` too when one
/// is named.
fn hints(run: &Run, driver: Assist, hint_log: Option<&Path>) -> Result<ExitCode> {
    // A log that cannot be written is found before the game starts.
    let mut log = match hint_log {
        Some(path) => Some(assist::HintLog::create(path, &run.calibration_path)?),
        None => None,
    };
    let mut log_error = None;
    let code = run_games(run, driver, &mut |event| {
        let driver = |event: crate::assist::Event| {
            assist::show(&event);
            if let (crate::assist::Event::Hint(hint), Some(log)) = (&event, log.as_mut())
                && let Err(error) = log.write(hint)
            {
                // Said at once, and again at the end: the hints go on.
                eprintln!("error: {error:#}");
                log_error.get_or_insert(error);
            }
        };
        show_game(event, run.live.rules, driver, words::hints_summary)
    })?;
    match log_error {
        Some(error) => Err(error),
        None => Ok(code),
    }
}

/// Live play (or a dry run on the window) as `run` says, said as it goes.
fn play(run: &Run, driver: Play) -> Result<ExitCode> {
    let mut planned = 0;
    run_games(run, driver, &mut |event| {
        show_game(
            event,
            run.live.rules,
            |event| show(&event, &mut planned),
            |report| words::play_summary(report, run.max_moves),
        )
    })
}

/// Runs `driver`'s games as `run` says, telling `observe` of every
/// event, and ends with the run's summary. Every stop is a one-line
/// error.
pub(super) fn run_games<D: Driver>(
    run: &Run,
    driver: D,
    observe: &mut Observe<'_, D>,
) -> Result<ExitCode> {
    // The player's keyboard is the game's once they click there: Pause
    // stops from anywhere, the key given back when the games end.
    let stop_key = crate::desktop::stop::StopKey::grab();
    let ran = app::games(
        run,
        driver,
        &mut crate::desktop::system(),
        |window| {
            say!("window {window}");
            say!("{}", stop_key.said());
        },
        observe,
    )?;
    drop(stop_key);
    if ran.has_summary {
        say!("{}", run_summary(&ran));
    }
    ran_result(run, ran).map(|()| ExitCode::SUCCESS)
}

/// Prints what every driver's run says (see [`game_lines`]).
pub(super) fn show_game<E>(
    event: Event<'_, E>,
    choice: RulesChoice,
    driver: impl FnOnce(E),
    summary: impl FnOnce(&GameReport) -> String,
) {
    for line in game_lines(event, choice, driver, summary) {
        say!("{line}");
    }
}

/// Prints one event of live play; `planned` keeps the current plan's
/// length for the click lines.
fn show(event: &play::Event, planned: &mut usize) {
    say!("{}", play_line(event, planned));
}
