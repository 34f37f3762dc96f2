//! What several commands print the same way: the solver's improving
//! solutions as they come, the verdict and the move list, the solved
//! board's JSON object (`bot solve --json`, and inside the dry run's), and
//! live play's and assist mode's lines about the rules.

use std::fmt::Write as _;

use serde_json::json;

use crate::game::{Board, Rules};
use crate::live::{Learned, RulesChoice};
use crate::solver::{Improvement, Outcome};

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
/// default (none otherwise): what the clicks showed, and what to pass next
/// time.
pub fn rules_learned(choice: RulesChoice, learned: &Learned) -> Option<String> {
    let at = learned
        .switched_at()
        .filter(|_| choice == RulesChoice::Auto)?;
    let rules = learned.rules();
    Some(match learned.candidates() {
        [_] => format!("rules: {rules}, learned at click {at}: pass --rules {rules} next time"),
        candidates => format!(
            "rules: played as {rules} from click {at}; {} explain every click alike: pass the game's with --rules next time",
            either(candidates)
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

#[cfg(test)]
mod tests {
    use super::*;

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
            "rules: gravity, learned at click 3: pass --rules gravity next time"
        );
        assert_eq!(
            rules_learned(RulesChoice::Given(Rules::Gravity), &learned),
            None
        );
    }
}
