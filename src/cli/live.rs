//! `bot --window TEXT [--dry-run]`: live play in the game window. Turns the
//! play arguments into live play's settings, prints what happens (the board
//! read, the plan, every click, every change of rules, every mismatch) and
//! ends with the rules learned and the clicks used against the plan and
//! the total time. Every stop is a one-line
//! error with exit code 2. The Pause key stops the games from any window
//! while they go on.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::output::{board_read, describe, frame_list, rules_learned, rules_switched};
use super::{assist, say};
use crate::app::{self, Mode, Run};
use crate::desktop::{InputError, stop};
use crate::live::session::{Driver, Event, GameReport, Observe, RunError, Stopped};
use crate::live::{LiveError, RulesChoice};
use crate::play;
use crate::record::stats::Stats;
use crate::record::{End, GameRecord};

/// The games `run` asks for, said on the terminal as they go (with
/// hints, each hint also in `hint_log` when one is named): the flags'
/// run and the guided session's alike.
pub(super) fn games(run: &Run, hint_log: Option<&Path>) -> Result<ExitCode> {
    match run.mode {
        Mode::Play | Mode::Watch => play(run),
        Mode::Assist => hints(run, hint_log),
    }
}

/// Hints as `run` says, said as they go, each in `hint_log` too when one
/// is named.
fn hints(run: &Run, hint_log: Option<&Path>) -> Result<ExitCode> {
    // A log that cannot be written is found before the game starts.
    let mut log = match hint_log {
        Some(path) => Some(assist::HintLog::create(path, &run.calibration_path)?),
        None => None,
    };
    let mut log_error = None;
    let code = run_games(run, run.assist(), &mut |event| {
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
        show_game(event, run.live.rules, driver, assist::summary)
    })?;
    match log_error {
        Some(error) => Err(error),
        None => Ok(code),
    }
}

/// Live play (or a dry run on the window) as `run` says, said as it goes.
fn play(run: &Run) -> Result<ExitCode> {
    let mut planned = 0;
    run_games(run, run.play(), &mut |event| {
        show_game(
            event,
            run.live.rules,
            |event| show(&event, &mut planned),
            |report| summary(report, run.max_moves),
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

/// How `ran` ended, as the error it is said with: every stop is a
/// one-line error naming the window and the calibration.
pub(super) fn ran_result(run: &Run, ran: app::Ran) -> Result<()> {
    let error = match ran.result {
        Ok(()) => return Ok(()),
        Err(error) => error,
    };
    let context = context(&ran.title_now, &run.calibration_path, &error);
    match error {
        RunError::Stopped(stopped, unlogged) => {
            if let Some(error) = unlogged {
                eprintln!("error: {error}");
            }
            Err(stop_error(&run.live.debug_dir, &stopped)).context(context)
        }
        error => Err(error).context(context),
    }
}

/// What a run's error is said with: the window by its title of now and
/// the calibration, the window left out where the error names it already.
fn context(title: &str, calibration: &Path, error: &RunError) -> String {
    let live = match error {
        RunError::Stopped(stopped, _) => Some(&stopped.error),
        RunError::Waiting(error) => Some(error),
        RunError::Log(_) => None,
    };
    let calibration = format!("calibration {}", calibration.display());
    match live {
        Some(LiveError::Capture(_)) => calibration,
        _ => format!("window {}, {calibration}", crate::text::title(title)),
    }
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

/// What every driver's run says, in lines (the boards read, the changes
/// of rules, the waits between games, the rules learned at a game's
/// end): a driver's own events go to `driver`, a game's last line is
/// `summary`'s.
pub(super) fn game_lines<E>(
    event: Event<'_, E>,
    choice: RulesChoice,
    driver: impl FnOnce(E),
    summary: impl FnOnce(&GameReport) -> String,
) -> Vec<String> {
    match event {
        Event::Board { board, confidence } => vec![board_read(board, confidence)],
        Event::RulesSwitched {
            number,
            rules,
            candidates,
        } => vec![rules_switched(number, rules, candidates)],
        Event::Driver(event) => {
            driver(event);
            Vec::new()
        }
        Event::Ended(report) => rules_learned(choice, &report.learned)
            .into_iter()
            .chain([summary(report)])
            .collect(),
        Event::WaitingNext => vec!["waiting for the next game".to_owned()],
        Event::NoGame(why) => vec![format!("no game on ({why}): waiting for one")],
        Event::WindowClosed => vec!["the game window closed: no more games".to_owned()],
    }
}

/// The error a stop ends the run with: what the library says, and the
/// flag to change when one would help.
fn stop_error(debug_dir: &Path, stopped: &Stopped) -> anyhow::Error {
    let hint = match stopped.error {
        LiveError::TooManyReplans { .. } => "; --max-replans allows more".to_owned(),
        LiveError::Unsettled { .. } => "; --settle-ms waits longer".to_owned(),
        LiveError::Unreadable { .. } => format!(
            "; to teach the calibration this board: bot calibrate FULL.png --board FULL_BOARD {} --board THIS_BOARD",
            debug_dir.join("unreadable-frame.png").display()
        ),
        _ => String::new(),
    };
    anyhow::anyhow!("{stopped}{hint}")
}

/// "3 games: 3 cleared, the reward in 3 (100%), 0.33 clicks over the
/// optimum on average, median game 4.80 s; stopped by the Pause key": the
/// games `ran` played, and why it ended.
pub(super) fn run_summary(ran: &app::Ran) -> String {
    format!("{}; {}", games_summary(&ran.played), why_ended(ran))
}

/// Why a run ended, in words: as the games asked for ended, the stop
/// asked for and by whom, the mouse moved, the game window closed, an
/// error (said after it).
fn why_ended(ran: &app::Ran) -> String {
    let error = match &ran.result {
        Ok(()) => None,
        Err(RunError::Stopped(stopped, _)) => Some(&stopped.error),
        Err(RunError::Waiting(error)) => Some(error),
        Err(RunError::Log(_)) => return "stopped: the game log cannot be written".to_owned(),
    };
    let end = error.map_or_else(
        || ran.played.last().map(|game| game.end),
        |error| Some(crate::live::session::end_of(error)),
    );
    match (error, end) {
        (Some(LiveError::Input(InputError::UserMoved { .. } | InputError::Moved { .. })), _) => {
            "stopped: the mouse moved".to_owned()
        }
        (_, Some(End::Interrupted)) => format!("stopped by {}", stop::stopped_by()),
        (_, Some(End::WindowClosed)) => "ended: the game window closed".to_owned(),
        (Some(_), _) => "stopped by an error".to_owned(),
        // Stopped between games, where no game records it.
        (None, _) if stop::requested().load(std::sync::atomic::Ordering::SeqCst) => {
            format!("stopped by {}", stop::stopped_by())
        }
        (None, _) => "ended: the games asked for were played".to_owned(),
    }
}

/// "3 games: 3 cleared, the reward in 3 (100%), 0.33 clicks over the
/// optimum on average, median game 4.80 s".
fn games_summary(played: &[GameRecord]) -> String {
    let all = Stats::of(played).overall;
    let mut text = format!("{} game(s): {} cleared", all.games, all.cleared);
    if let Some(rate) = all.reward_rate {
        text += &format!(", the reward in {} ({:.0}%)", all.rewards, 100.0 * rate);
    }
    if let Some(over) = all.mean_clicks_over_optimum {
        text += &format!(", {over:.2} clicks over the optimum on average");
    }
    if let Some(ms) = all.median_cleared_ms {
        text += &format!(", median game {:.2} s", ms / 1000.0);
    }
    text
}

/// Prints one event of live play; `planned` keeps the current plan's
/// length for the click lines.
fn show(event: &play::Event, planned: &mut usize) {
    say!("{}", play_line(event, planned));
}

/// One event of live play in words (see [`show`]).
pub(super) fn play_line(event: &play::Event, planned: &mut usize) -> String {
    match event {
        play::Event::Plan { outcome, replans } => {
            *planned = outcome.length();
            let again = match replans {
                0 => String::new(),
                n => format!("re-plan {n}: "),
            };
            format!("{again}plan: {}", describe(outcome, false).trim_end())
        }
        play::Event::Click { number, step, at } => format!(
            "click {number}: {} {} x{} at {at} (plan {planned})",
            step.cell,
            step.colour.letter(),
            step.size
        ),
        play::Event::Lost { number, wait } => format!(
            "click {number}: the board did not change (the game did not take the click?): clicking again in {} ms",
            wait.as_millis()
        ),
        play::Event::Mismatch {
            number,
            expected,
            found,
            frames,
        } => format!(
            "click {number}: the board read differs from the plan\n  expected {expected}\n  read     {found}\n  frames   {}",
            frame_list(frames)
        ),
    }
}

/// The last line: clicks used against the first board's plan, and the
/// time.
pub(super) fn summary(report: &GameReport, max_moves: Option<u32>) -> String {
    let plan = match report.optimum() {
        Some((length, proven)) => {
            format!(
                "plan {length}{}",
                if proven { " proven optimal" } else { "" }
            )
        }
        None => "no plan".to_owned(),
    };
    let plan = format!("{plan}, {} re-plan(s)", report.replans());
    let secs = report.elapsed().as_secs_f64();
    let clicks = report.clicks();
    match report.end() {
        Some(End::Cleared) => format!("cleared in {clicks} clicks ({plan}) in {secs:.2} s"),
        Some(End::MaxMoves) => format!(
            "stopped at --max-moves {}: {clicks} clicks ({plan}) in {secs:.2} s",
            max_moves.unwrap_or(clicks)
        ),
        None => format!("dry run, no click ({plan}) in {secs:.2} s"),
        Some(End::NewBoard) => {
            format!("a new game's board after {clicks} click(s) ({plan}) in {secs:.2} s")
        }
        Some(End::Interrupted) => format!(
            "stopped by {} after {clicks} click(s) ({plan}) in {secs:.2} s",
            stop::stopped_by()
        ),
        // Stops, which end with an error of their own.
        Some(_) => format!("ended after {clicks} click(s) ({plan}) in {secs:.2} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, Rules};
    use crate::live::Learned;

    fn report(end: Option<End>, clicks: u32) -> GameReport {
        let mut report = GameReport::start(Learned::new(RulesChoice::Auto));
        report.set_optimum(11, true);
        for number in 1..=clicks {
            report.click(number, Cell::new(0, 0), None, None);
        }
        report.ended(end);
        report
    }

    #[test]
    fn the_summary_sets_clicks_against_the_plan() {
        assert!(
            summary(&report(Some(End::Cleared), 11), None)
                .starts_with("cleared in 11 clicks (plan 11 proven optimal, 0 re-plan(s)) in 0.")
        );
        assert!(
            summary(&report(Some(End::MaxMoves), 3), Some(3))
                .starts_with("stopped at --max-moves 3: 3 clicks")
        );
        assert!(summary(&report(None, 0), None).starts_with("dry run, no click"));
    }

    #[test]
    fn an_error_says_the_window_once_by_its_title_of_now() {
        let calibration = Path::new("calibration/nodiatis.toml");
        let gone = RunError::Waiting(LiveError::Capture(crate::desktop::CaptureError::Gone {
            title: "Nodiatis".into(),
        }));
        let said = format!("{}: {gone}", context("Nodiatis", calibration, &gone));
        assert_eq!(said.matches("Nodiatis\"").count(), 1, "{said}");
        let other = RunError::Waiting(LiveError::NoDust);
        assert_eq!(
            context("Nodiatis - Aldric", calibration, &other),
            "window \"Nodiatis - Aldric\", calibration calibration/nodiatis.toml"
        );
    }

    #[test]
    fn the_run_summary_counts_games_cleared_and_rewards() {
        let board: crate::game::Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let game = |clicks: u32, end: End| {
            let mut report = GameReport::start(Learned::new(RulesChoice::Given(Rules::CentreRows)));
            report.set_first(board);
            report.set_optimum(11, true);
            for number in 1..=clicks {
                report.click(number, Cell::new(0, 0), None, None);
            }
            report.ended(Some(end));
            report.record(crate::record::Mode::Play, None).unwrap()
        };
        let played = [
            game(11, End::Cleared),
            game(13, End::Cleared),
            game(4, End::Interrupted),
        ];
        let ran = |result| app::Ran {
            played: played.to_vec(),
            has_summary: true,
            title_now: String::new(),
            result,
        };
        let text = run_summary(&ran(Ok(())));
        assert!(
            text.starts_with("3 game(s): 2 cleared, the reward in 1 (33%), 1.00 clicks over the optimum on average"),
            "{text}"
        );
        // Why it ended: the last game's stop, by whom.
        assert!(text.ends_with("; stopped by Ctrl-C"), "{text}");
        let moved = LiveError::Input(InputError::UserMoved {
            expected: crate::desktop::ScreenPoint::new(1, 1),
            found: crate::desktop::ScreenPoint::new(9, 9),
        });
        let stopped = |error| {
            let report = GameReport::start(Learned::new(RulesChoice::Auto));
            Err(RunError::Stopped(Box::new(Stopped { error, report }), None))
        };
        assert!(run_summary(&ran(stopped(moved))).ends_with("; stopped: the mouse moved"));
        assert!(run_summary(&ran(stopped(LiveError::NoDust))).ends_with("; stopped by an error"));
        let closed = LiveError::Capture(crate::desktop::CaptureError::Gone {
            title: "Nodiatis".into(),
        });
        assert!(run_summary(&ran(stopped(closed))).ends_with("; ended: the game window closed"));
        let all = app::Ran {
            played: vec![game(11, End::Cleared)],
            ..ran(Ok(()))
        };
        assert!(run_summary(&all).ends_with("; ended: the games asked for were played"));
    }
}
