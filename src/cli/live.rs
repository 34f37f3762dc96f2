//! `bot --window TEXT [--dry-run]`: live play in the game window. Turns the
//! play arguments into live play's settings, prints what happens (the board
//! read, the plan, every click, every change of rules, every mismatch) and
//! ends with the rules learned and the clicks used against the plan and
//! the total time. Every stop is a one-line
//! error with exit code 2.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::args::PlayArgs;
use super::games::{Games, Tally, end_of};
use super::output::{board_read, describe, frame_list, rules_learned, rules_switched};
use super::{live_settings, say};
use crate::desktop::Desktop as _;
use crate::live::LiveError;
use crate::play::{self, Event, Finish, PlaySettings, Report};
use crate::record::{End, Mode};

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let Some(query) = args.window.as_deref() else {
        bail!("live play needs --window TEXT");
    };
    let (live, calibration_path) = live_settings(args, query)?;
    let mut games = Games::new(args, &calibration_path)?;
    let mut desktop = crate::desktop::system();
    let mut window = desktop.find(query)?;
    say!("window {}", window.info());
    let settings = PlaySettings {
        live,
        max_replans: args.live.max_replans,
        max_moves: args.live.max_moves,
        dry_run: args.dry_run,
    };
    let context = format!(
        "window {}, calibration {}",
        crate::text::excerpt(&window.info().title),
        calibration_path.display()
    );
    loop {
        let mut tally = Tally::start(settings.live.rules.start());
        let mut planned = 0;
        let played = play::play(&mut desktop, window.as_mut(), &settings, &mut |event| {
            keep(&mut tally, &event);
            show(&event, &mut planned)
        });
        let report = match played {
            Ok(report) => report,
            Err(stopped) => {
                let interrupted = end_of(&stopped.error) == End::Interrupted;
                games.stopped(tally.record(
                    Mode::Play,
                    end_of(&stopped.error),
                    Some(stopped.to_string()),
                    &settings.live.solve,
                ));
                // `--games 0` plays until Ctrl-C: that is its end, well.
                if interrupted && games.until_stopped() {
                    return Ok(ExitCode::SUCCESS);
                }
                return Err(stop_error(args, stopped)).with_context(|| context.clone());
            }
        };
        if let Some(line) = rules_learned(args.rules, &report.learned) {
            say!("{line}");
        }
        say!("{}", summary(&report, args.live.max_moves));
        if settings.dry_run {
            return Ok(ExitCode::SUCCESS);
        }
        let end = match report.finish {
            Finish::MaxMoves => End::MaxMoves,
            Finish::NewBoard => End::NewBoard,
            _ => End::Cleared,
        };
        if let Some(record) = tally.record(Mode::Play, end, None, &settings.live.solve) {
            games.ended(record)?;
        }
        let next = match report.finish {
            // The next game's board is on the screen already.
            Finish::NewBoard => games.want_more(),
            _ => {
                games.want_more()
                    && games
                        .wait_next(window.as_mut(), &settings.live)
                        .with_context(|| context.clone())?
            }
        };
        if !next {
            break;
        }
    }
    games.finish();
    Ok(ExitCode::SUCCESS)
}

/// The error a stop ends the run with: what the library says, and the
/// flag to change when one would help.
fn stop_error(args: &PlayArgs, stopped: play::Stopped) -> anyhow::Error {
    let hint = match stopped.error {
        LiveError::TooManyReplans { .. } => "; --max-replans allows more".to_owned(),
        LiveError::Unsettled { .. } => "; --settle-ms waits longer".to_owned(),
        LiveError::Unreadable { .. } => format!(
            "; to teach the calibration this board: bot calibrate FULL.png --board FULL_BOARD {} --board THIS_BOARD",
            args.live.debug_dir.join("unreadable-frame.png").display()
        ),
        _ => String::new(),
    };
    anyhow::anyhow!("{stopped}{hint}")
}

/// Keeps what the game's record needs of an event.
fn keep(tally: &mut Tally, event: &Event) {
    match event {
        Event::Board { board, .. } => tally.board(board),
        // The first plan is from the first board.
        Event::Plan { outcome, .. } if !tally.knows_optimum() && tally.clicks() == 0 => {
            tally.optimum(outcome.length(), outcome.proven_optimal)
        }
        Event::Click { number, step, .. } => tally.click(*number, step.cell, None, None),
        Event::RulesSwitched { rules, .. } => tally.rules_switched(*rules),
        _ => {}
    }
}

/// Prints one event; `planned` keeps the current plan's length for the
/// click lines.
fn show(event: &Event, planned: &mut usize) {
    match event {
        Event::Board { board, confidence } => say!("{}", board_read(board, *confidence)),
        Event::Plan { outcome, replans } => {
            *planned = outcome.length();
            if *replans > 0 {
                super::show(&format!("re-plan {replans}: "));
            }
            super::show(&format!("plan: {}", describe(outcome, false)));
        }
        Event::Click { number, step, at } => say!(
            "click {number}: {} {} x{} at {at} (plan {planned})",
            step.cell,
            step.colour.letter(),
            step.size
        ),
        Event::Lost { number, wait } => say!(
            "click {number}: the board did not change (the game did not take the click?): clicking again in {} ms",
            wait.as_millis()
        ),
        Event::RulesSwitched {
            number,
            rules,
            candidates,
        } => say!("{}", rules_switched(*number, *rules, candidates)),
        Event::Mismatch {
            number,
            expected,
            found,
            frames,
        } => say!(
            "click {number}: the board read differs from the plan\n  expected {expected}\n  read     {found}\n  frames   {}",
            frame_list(frames)
        ),
    }
}

/// The last line: clicks used against the first plan, and the time.
fn summary(report: &Report, max_moves: Option<u32>) -> String {
    let plan = format!(
        "plan {}{}, {} re-plan(s)",
        report.planned,
        if report.proven_optimal {
            " proven optimal"
        } else {
            ""
        },
        report.replans
    );
    let secs = report.elapsed.as_secs_f64();
    match report.finish {
        Finish::Cleared => format!(
            "cleared in {} clicks ({plan}) in {secs:.2} s",
            report.clicks
        ),
        Finish::MaxMoves => format!(
            "stopped at --max-moves {}: {} clicks ({plan}) in {secs:.2} s",
            max_moves.unwrap_or(report.clicks),
            report.clicks
        ),
        Finish::DryRun => format!("dry run, no click ({plan}) in {secs:.2} s"),
        Finish::NewBoard => format!(
            "a new game's board after {} click(s) ({plan}) in {secs:.2} s",
            report.clicks
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn report(finish: Finish, clicks: u32) -> Report {
        Report {
            finish,
            clicks,
            planned: 11,
            proven_optimal: true,
            replans: 0,
            elapsed: Duration::from_millis(5250),
            learned: crate::live::Learned::new(crate::live::RulesChoice::Auto),
        }
    }

    #[test]
    fn the_summary_sets_clicks_against_the_plan() {
        assert_eq!(
            summary(&report(Finish::Cleared, 11), None),
            "cleared in 11 clicks (plan 11 proven optimal, 0 re-plan(s)) in 5.25 s"
        );
        assert!(
            summary(&report(Finish::MaxMoves, 3), Some(3))
                .starts_with("stopped at --max-moves 3: 3 clicks")
        );
        assert!(summary(&report(Finish::DryRun, 0), None).starts_with("dry run, no click"));
    }
}
