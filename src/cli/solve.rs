//! `bot solve BOARD...`: solves board strings (or one per line from standard
//! input with `-`), printing each improving solution as it is found, then
//! the moves; or one JSON object per board with `--json`. Also the solution
//! printing that dry runs and live play share.

use std::fmt::Write as _;
use std::io::BufRead;
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::json;

use super::args::{SolveArgs, StrategyArg};
use super::show;
use crate::game::Board;
use crate::solver::{self, Improvement, Outcome, SolveOptions, Strategy};

pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let options = SolveOptions {
        strategy: args.strategy.into(),
        time_limit: args.time,
        threads: args
            .threads
            .map_or(SolveOptions::default().threads, |n| n as usize),
        table_mb: args.tt_mb as usize,
    };
    for (index, text) in boards(&args.boards).enumerate() {
        let text = text?;
        let board: Board = text
            .parse()
            .with_context(|| format!("board {} {text:?}", index + 1))?;
        if !args.json {
            show(&format!("{}\n", board.grid()));
        }
        let outcome = solver::solve(&board, &options, &mut |found| {
            if !args.json {
                show(&format!("{}\n", improvement_line(found)));
            }
        });
        if args.json {
            show(&format!("{}\n", outcome_json(&board, &outcome)));
        } else {
            show(&describe(&outcome, args.show_boards));
        }
    }
    Ok(ExitCode::SUCCESS)
}

impl From<StrategyArg> for Strategy {
    fn from(arg: StrategyArg) -> Strategy {
        match arg {
            StrategyArg::Optimal => Strategy::Optimal,
            StrategyArg::Standard => Strategy::Standard,
            StrategyArg::Lookahead => Strategy::Lookahead,
            StrategyArg::Shortlook => Strategy::Shortlook,
        }
    }
}

/// The board strings given, with `-` standing for the lines of standard
/// input (blank lines skipped).
fn boards(args: &[String]) -> impl Iterator<Item = Result<String>> + '_ {
    args.iter()
        .flat_map(|arg| -> Box<dyn Iterator<Item = Result<String>>> {
            if arg == "-" {
                Box::new(
                    std::io::stdin()
                        .lock()
                        .lines()
                        .map(|line| line.context("cannot read boards from standard input"))
                        .filter(|line| line.as_ref().map_or(true, |l| !l.trim().is_empty())),
                )
            } else {
                Box::new(std::iter::once(Ok(arg.clone())))
            }
        })
}

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
        "length": outcome.length(),
        "proven_optimal": outcome.proven_optimal,
        "lower_bound": outcome.lower_bound,
        "elapsed_ms": ms(outcome.elapsed),
        "nodes": outcome.nodes,
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
