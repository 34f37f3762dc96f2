//! The words of a run, for every face (the command line, the guided
//! session, the desktop app): the solver's improving solutions, the
//! verdict and the move list, the solved board's JSON object (`bot solve
//! --json`, and inside the dry run's), the lines of live play and of hints
//! (each event, each game's last line, the run's summary and why it
//! ended), and the error a run ends with. Faces print or paint them; none
//! words them again.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use crate::app::{Ran, Run};
use crate::desktop::stop::Asker;
use crate::game::{Board, Rules};
use crate::live::session::{Event, GameReport, RunError};
use crate::live::{self, Learned, LiveError, RulesChoice};
use crate::play;
use crate::record::stats::Stats;
use crate::record::{End, GameRecord};
use crate::solver::{Improvement, Outcome};

mod hints;

pub use hints::{hints_line, hints_summary};

/// One line of the anytime log: `  0.412 ms  solution in 13 moves`.
pub fn improvement_line(found: &Improvement) -> String {
    format!(
        "{:>10.3} ms  solution in {} moves",
        found.elapsed.as_secs_f64() * 1e3,
        found.length
    )
}

/// The verdict and the move list as `bot solve` prints them: step, cell to
/// click, colour, cluster size, and with `show_boards` the board after each
/// move.
pub fn describe(outcome: &Outcome, show_boards: bool) -> String {
    let mut text = String::new();
    let ms = outcome.elapsed.as_secs_f64() * 1e3;
    if outcome.proven_optimal {
        writeln!(
            text,
            "{} moves, proven optimal in {ms:.1} ms ({} nodes)",
            outcome.length(),
            outcome.nodes
        )
    } else {
        writeln!(
            text,
            "{} moves, the best found in {ms:.1} ms ({} nodes); not proven: no solution shorter than {} exists",
            outcome.length(),
            outcome.nodes,
            outcome.lower_bound
        )
    }
    .expect("writing to a String");
    for (i, step) in outcome.moves.iter().enumerate() {
        writeln!(
            text,
            "{:>3}. click {} {} x{}",
            i + 1,
            step.cell,
            step.colour.letter(),
            step.size
        )
        .expect("writing to a String");
        if show_boards {
            writeln!(text, "{}", step.board_after.grid()).expect("writing to a String");
        }
    }
    text
}

/// The `--json` object of one solved board: a contract for scripts.
pub fn outcome_json(board: &Board, outcome: &Outcome) -> serde_json::Value {
    let ms = |d: std::time::Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
    json!({
        "board": board.to_string(),
        "width": board.width(),
        "height": board.height(),
        "length": outcome.length(),
        "proven_optimal": outcome.proven_optimal,
        "lower_bound": outcome.lower_bound,
        "elapsed_ms": ms(outcome.elapsed),
        "nodes": outcome.nodes,
        "rules": outcome.rules.name(),
        "moves": outcome.moves.iter().map(|s| json!({
            "x": s.cell.x,
            "y": s.cell.y,
            "color": s.colour.letter().to_string(),
            "size": s.size,
        })).collect::<Vec<_>>(),
        "improvements": outcome.improvements.iter().map(|i| json!({
            "length": i.length,
            "ms": ms(i.elapsed),
        })).collect::<Vec<_>>(),
    })
}

/// The board read at the start of live play or assistance, with the lowest
/// cell confidence, then as a grid.
pub fn board_read(board: &Board, confidence: f32) -> String {
    format!(
        "board read (lowest confidence {confidence:.2}): {board}\n{}",
        board.grid()
    )
}

/// The line of live play and assist mode when the board after click
/// `number` showed other rules: `rules` from now on, the first of the
/// `candidates` left.
pub fn rules_switched(number: u32, rules: Rules, candidates: &[Rules]) -> String {
    if candidates.len() == 1 {
        return format!(
            "click {number}: {} ({rules}): re-planning",
            rules.describe()
        );
    }
    format!(
        "click {number}: the board fits {} alike, not the rules played by: trying {rules} ({}): re-planning",
        either(candidates),
        rules.describe()
    )
}

/// The line before the summary when `auto` learned other rules than the
/// default (none otherwise): what the clicks showed, and the advice to
/// give the rules next time (the rules, where one alone explains them).
pub fn rules_learned(choice: RulesChoice, learned: &Learned) -> Option<(String, Advice)> {
    let at = learned
        .switched_at()
        .filter(|_| choice == RulesChoice::Auto)?;
    let rules = learned.rules();
    Some(match learned.candidates() {
        [_] => (
            format!("rules: {rules}, learned at click {at}"),
            Advice::Rules(Some(rules)),
        ),
        candidates => (
            format!(
                "rules: played as {rules} from click {at}; {} explain every click alike",
                either(candidates)
            ),
            Advice::Rules(None),
        ),
    })
}

/// "a, b or c".
fn either(rules: &[Rules]) -> String {
    let names: Vec<&str> = rules.iter().map(|r| r.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The frames saved for a surprise, or that none could be.
pub fn frame_list(frames: &[std::path::PathBuf]) -> String {
    if frames.is_empty() {
        return "(none saved)".to_owned();
    }
    let names: Vec<String> = frames.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

/// The error `ran` ended with, every stop one, with the window and the
/// calibration where they are part of its cause ([`context`]), and what
/// would help where something would ([`Advice`]); none for a run that
/// ended well.
pub fn ran_error(run: &Run, ran: Ran) -> Option<(anyhow::Error, Option<Advice>)> {
    let error = ran.result.err()?;
    let context = context(&ran.title_now, &run.calibration_path, &error);
    let (error, advice) = match error {
        RunError::Stopped(stopped, unlogged) => {
            if let Some(error) = unlogged {
                eprintln!("error: {error}");
            }
            let advice = Advice::of(&run.live.debug_dir, &stopped.error);
            (anyhow::anyhow!("{stopped}"), advice)
        }
        error => (error.into(), None),
    };
    Some(match context {
        Some(context) => (error.context(context), advice),
        None => (error, advice),
    })
}

/// What would help after a run's error: each face says it its own way
/// (the command line by its flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advice {
    /// More re-plans allowed: the board kept differing from the plan.
    MoreReplans,
    /// A longer wait for the board to settle.
    LongerSettle,
    /// The calibration taught the board it could not read, from its frame
    /// (saved as `frame`).
    Teach { frame: std::path::PathBuf },
    /// The game's rules given next time: these, or the game's own where
    /// several explain its clicks.
    Rules(Option<Rules>),
}

impl Advice {
    /// The advice for a run stopped on `error`, frames saved in `debug_dir`.
    fn of(debug_dir: &Path, error: &LiveError) -> Option<Advice> {
        match error {
            LiveError::TooManyReplans { .. } => Some(Advice::MoreReplans),
            LiveError::Unsettled { .. } => Some(Advice::LongerSettle),
            LiveError::Unreadable { .. } => Some(Advice::Teach {
                frame: debug_dir.join("unreadable-frame.png"),
            }),
            _ => None,
        }
    }
}

/// What a run's error is said with, where it is part of the cause: the
/// window by its title of now (left out where the error names it
/// already), and the calibration only where the board was read wrong or
/// not at all (said as built in where it is): the game minimised, closed
/// or covered is no reason to calibrate again.
fn context(title: &str, calibration: &Path, error: &RunError) -> Option<String> {
    let live = match error {
        RunError::Stopped(stopped, _) => Some(&stopped.error),
        RunError::Waiting(error) => Some(error),
        RunError::Log(_) => None,
    };
    let window = format!("window {}", crate::text::title(title));
    match live {
        Some(LiveError::Capture(_)) | None => None,
        Some(
            LiveError::Unreadable { .. }
            | LiveError::Misfit(_)
            | LiveError::Changed { .. }
            | LiveError::TooManyReplans { .. },
        ) => Some(format!(
            "{window}, calibration {}",
            crate::app::calibration_name(calibration)
        )),
        Some(_) => Some(window),
    }
}

/// What every driver's run says, in lines (the boards read, the changes
/// of rules, the waits between games): a driver's own events go to
/// `driver`, a game's last line is `summary`'s.
pub fn game_lines<E>(
    event: Event<'_, E>,
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
        // The rules learned are said apart, with their advice.
        Event::Ended(report) => vec![summary(report)],
        Event::WaitingNext => vec!["waiting for the next game".to_owned()],
        Event::NoGame(why) => vec![format!("no game on ({why}): waiting for one")],
        Event::WindowClosed => vec!["the game window closed: no more games".to_owned()],
        Event::Unrecorded(why) => vec![format!(
            "{why}: the games from here on are not recorded (play and hints go on)"
        )],
    }
}

/// "3 games: 3 cleared, the reward in 3 (100%), 0.33 clicks over the
/// optimum on average, median game 4.80 s; stopped by the Pause key": the
/// games `ran` played, and why it ended.
pub fn run_summary(played: &[GameRecord], finish: Finish) -> String {
    format!("{}; {}", games_summary(played), finish_line(finish))
}

/// How a run ended, as its runner read it from the run's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The games asked for were played.
    Played,
    /// A stop asked for, by whom.
    Asked(Asker),
    /// The player's hand on the mouse during play.
    MouseMoved,
    /// The game's window closed.
    WindowClosed,
    /// The game log could not take a record.
    Unlogged,
    /// An error, said after the summary.
    Failed,
}

/// Why a run ended, in words.
fn finish_line(finish: Finish) -> String {
    match finish {
        Finish::Played => "ended: the games asked for were played".to_owned(),
        Finish::Asked(asker) => format!("stopped by {asker}"),
        Finish::MouseMoved => "stopped: the mouse moved".to_owned(),
        Finish::WindowClosed => "ended: the game window closed".to_owned(),
        Finish::Unlogged => "stopped: the game log cannot be written".to_owned(),
        Finish::Failed => "stopped by an error".to_owned(),
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

/// `what` (the plan of live play and hints, the optimum the door shows)
/// still being proven, with the best solution found so far.
pub fn still_proving_line(what: &str, best: Option<usize>) -> String {
    let found = match best {
        Some(clicks) => format!("{clicks} clicks found so far"),
        None => "no solution found yet".to_owned(),
    };
    format!(
        "still proving {what} after {} s: {found}",
        live::STILL_PROVING_AFTER.as_secs()
    )
}

/// One event of live play in words (said by the runner, [`super::runner`]).
pub fn play_line(event: &play::Event, planned: &mut usize) -> String {
    match event {
        play::Event::StillProving { best } => still_proving_line("the plan", *best),
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
pub fn play_summary(report: &GameReport, max_moves: Option<u32>, asked: Option<Asker>) -> String {
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
            asked.unwrap_or(Asker::CtrlC)
        ),
        // Stops, which end with an error of their own.
        Some(_) => format!("ended after {clicks} click(s) ({plan}) in {secs:.2} s"),
    }
}

/// "optimum 11 clicks, proven": the caption under a plan.
pub fn optimum_caption(length: usize, proven: bool) -> String {
    let proven = if proven { ", proven" } else { " (not proven)" };
    format!("optimum {length} clicks{proven}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::session::Stopped;

    #[test]
    fn a_long_proof_reads_alike_in_play_and_in_hints() {
        let mut planned = 0;
        for (best, found) in [
            (Some(14), "14 clicks found so far"),
            (None, "no solution found yet"),
        ] {
            let line = play_line(&play::Event::StillProving { best }, &mut planned);
            assert_eq!(line, format!("still proving the plan after 1 s: {found}"));
            assert_eq!(
                hints_line(&crate::assist::Event::StillProving { best }),
                line
            );
        }
    }

    #[test]
    fn the_rules_lines_name_the_variants() {
        let columns = [Rules::CentreColumns, Rules::LeftColumns, Rules::Gravity];
        assert_eq!(
            rules_switched(2, Rules::CentreColumns, &[Rules::CentreColumns]),
            "click 2: the game contracts whole columns toward the centre (centre-columns): re-planning"
        );
        assert_eq!(
            rules_switched(1, Rules::CentreColumns, &columns),
            "click 1: the board fits centre-columns, left-columns or gravity alike, not the rules played by: trying centre-columns (the game contracts whole columns toward the centre): re-planning"
        );
        let mut learned = Learned::new(RulesChoice::Auto);
        assert_eq!(rules_learned(RulesChoice::Auto, &learned), None);
        learned.see(3, |rules| rules == Rules::Gravity);
        assert_eq!(
            rules_learned(RulesChoice::Auto, &learned).unwrap(),
            (
                "rules: gravity, learned at click 3".to_owned(),
                Advice::Rules(Some(Rules::Gravity))
            )
        );
        assert_eq!(
            rules_learned(RulesChoice::Given(Rules::Gravity), &learned),
            None
        );
    }
    use crate::game::Cell;

    #[test]
    fn a_runs_error_names_the_calibration_only_where_the_board_was_read_wrong() {
        let stopped = |error| {
            RunError::Stopped(
                Box::new(Stopped {
                    error,
                    report: report(None, 0),
                }),
                None,
            )
        };
        let built_in = crate::vision::Calibration::default_path();
        let covered = LiveError::Covered {
            when: crate::live::Moment::Start,
            by: "\"notes\"".to_owned(),
        };
        assert_eq!(
            context("Dust", &built_in, &stopped(covered)).unwrap(),
            "window \"Dust\""
        );
        let minimised = crate::desktop::CaptureError::Minimised {
            title: "Dust".to_owned(),
        };
        assert_eq!(
            context("Dust", &built_in, &RunError::Waiting(minimised.into())),
            None
        );
        let replans = LiveError::TooManyReplans { count: 4, max: 3 };
        let said = context("Dust", &built_in, &stopped(replans)).unwrap();
        assert!(said.starts_with("window \"Dust\", calibration "), "{said}");
        if !built_in.is_file() {
            assert!(said.contains("built into the bot"), "{said}");
        }
    }

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
            play_summary(&report(Some(End::Cleared), 11), None, None)
                .starts_with("cleared in 11 clicks (plan 11 proven optimal, 0 re-plan(s)) in 0.")
        );
        assert!(
            play_summary(&report(Some(End::MaxMoves), 3), Some(3), None)
                .starts_with("stopped at --max-moves 3: 3 clicks")
        );
        assert!(play_summary(&report(None, 0), None, None).starts_with("dry run, no click"));
        // Who stopped it, as the runner says.
        let stopped = play_summary(
            &report(Some(End::Interrupted), 2),
            None,
            Some(Asker::StopKey),
        );
        assert!(
            stopped.starts_with("stopped by the Pause key after 2 click(s)"),
            "{stopped}"
        );
    }

    #[test]
    fn an_error_says_the_window_once_by_its_title_of_now() {
        let calibration = Path::new("calibration/nodiatis.toml");
        let gone = RunError::Waiting(LiveError::Capture(crate::desktop::CaptureError::Gone {
            title: "Nodiatis".into(),
        }));
        // The error names the window already.
        assert_eq!(context("Nodiatis", calibration, &gone), None);
        let other = RunError::Waiting(LiveError::NoDust);
        assert_eq!(
            context("Nodiatis - Aldric", calibration, &other).unwrap(),
            "window \"Nodiatis - Aldric\""
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
            report.record(crate::record::GameMode::Play, None).unwrap()
        };
        let played = [
            game(11, End::Cleared),
            game(13, End::Cleared),
            game(4, End::Interrupted),
        ];
        let text = run_summary(&played, Finish::Asked(Asker::CtrlC));
        assert!(
            text.starts_with("3 game(s): 2 cleared, the reward in 1 (33%), 1.00 clicks over the optimum on average"),
            "{text}"
        );
        // Why it ended: the stop, by whom.
        assert!(text.ends_with("; stopped by Ctrl-C"), "{text}");
        let said = |finish| run_summary(&played[..1], finish);
        assert!(said(Finish::Asked(Asker::StopKey)).ends_with("; stopped by the Pause key"));
        assert!(said(Finish::MouseMoved).ends_with("; stopped: the mouse moved"));
        assert!(said(Finish::Failed).ends_with("; stopped by an error"));
        assert!(said(Finish::WindowClosed).ends_with("; ended: the game window closed"));
        assert!(said(Finish::Played).ends_with("; ended: the games asked for were played"));
    }
}
