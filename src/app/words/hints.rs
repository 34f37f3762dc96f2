//! The words of hints: each event of the assistant in a line (the hint,
//! the player's click and what it cost, the hint window, the marks on the
//! board), and a game's last line against the optimum at its start.

use super::frame_list;
use crate::assist::{self, Hint, Probe, Verdict};
use crate::desktop::stop::Asker;
use crate::game::Step;
use crate::live::session::GameReport;
use crate::record::End;

/// One event in words: the terminal's line, the desktop app's status.
pub fn hints_line(event: &assist::Event) -> String {
    match event {
        assist::Event::StillProving { best } => super::still_proving_line("the plan", *best),
        assist::Event::HintWindow(Ok((title, placement))) => {
            format!("hint window {title:?} {placement} (Escape or q there ends the hints)")
        }
        assist::Event::BoardMarks(Ok(Probe::Seen(pixels))) => format!(
            "hints marked on the board (the bot's captures show the marks, {pixels} pixels, and read the board the same)"
        ),
        assist::Event::BoardMarks(Ok(Probe::Unseen)) => {
            "hints marked on the board (the bot's captures leave the marks out)".to_owned()
        }
        assist::Event::BoardMarks(Err(why)) => {
            format!("no marks on the board ({why}): hints beside it")
        }
        assist::Event::HintWindow(Err(cause)) => {
            format!("no hint window ({cause}): hints on the terminal only")
        }
        assist::Event::HintWindowClosed(why) => {
            format!("hint window closed {why}: hints on the terminal only")
        }
        assist::Event::Move {
            number,
            steps,
            verdict,
        } => {
            let names: Vec<String> = steps.iter().map(move_name).collect();
            match names.as_slice() {
                [one] => format!(
                    "click {number}: you clicked {one}: {}",
                    verdict_text(verdict)
                ),
                several => format!(
                    "clicks {}-{number}: you clicked {} within one animation: {}",
                    number + 1 - several.len() as u32,
                    several.join(", then "),
                    verdict_text(verdict)
                ),
            }
        }
        assist::Event::Unexplained {
            before,
            after,
            frames,
        } => format!(
            "the board changed in a way no clicks explain: re-planning from the board read; the clicks counted are at least those made, no reward claimed\n  before {before}\n  after  {after}\n  frames {}",
            frame_list(frames)
        ),
        assist::Event::Waiting(text) => (*text).to_owned(),
        assist::Event::Readable => "the board reads again: the hints go on".to_owned(),
        assist::Event::Hint(hint) => hint_line(hint),
    }
}

/// "(3,1) B x3": a move as the player sees it.
fn move_name(step: &Step) -> String {
    format!("{} {} x{}", step.cell, step.colour.letter(), step.size)
}

/// What a player's click did to the plan.
fn verdict_text(verdict: &Verdict) -> String {
    match *verdict {
        Verdict::AsHinted => "as hinted".to_owned(),
        Verdict::Cost {
            cost,
            from_here,
            total,
        } => {
            let cost = match cost {
                0 => "as good as the hint".to_owned(),
                c if c > 0 => format!("that click cost {c}"),
                c => format!("that click saved {}", -c),
            };
            format!("{cost}: optimum from here {from_here}, {total} in all")
        }
        Verdict::NewRules { from_here, total } => {
            format!(
                "re-planned under the game's rules: optimum from here {from_here}, {total} in all"
            )
        }
    }
}

/// One hint on one line: the next click, then the caption.
fn hint_line(hint: &Hint) -> String {
    let caption = hint.caption().join(" — ");
    match (hint.plan.first(), hint.next_at) {
        (Some(step), Some(at)) => format!("hint: click {} at {at} — {caption}", move_name(step)),
        (Some(step), None) => format!("hint: click {} — {caption}", move_name(step)),
        (None, _) => caption,
    }
}

/// The last line: how the game ended, the clicks against the optimum.
pub fn hints_summary(report: &GameReport, asked: Option<Asker>) -> String {
    let optimum = match report.optimum() {
        Some((length, proven)) => format!(
            "optimum {length}{} at the start",
            if proven { " proven" } else { "" }
        ),
        None => "no board read".to_owned(),
    };
    let secs = report.elapsed().as_secs_f64();
    let clicks = report.clicks();
    match report.end() {
        Some(End::Cleared) => format!("cleared in {clicks} clicks ({optimum}) in {secs:.1} s"),
        Some(End::NewBoard) => format!("a new game's board after {clicks} click(s) ({optimum})"),
        Some(End::WindowClosed) => {
            format!("the game window closed after {clicks} click(s) ({optimum}): assistant ended")
        }
        Some(End::Interrupted) => format!(
            "stopped by {} after {clicks} click(s) ({optimum})",
            asked.unwrap_or(Asker::CtrlC)
        ),
        // Stops, which end with an error of their own.
        _ => format!("ended after {clicks} click(s) ({optimum})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_line_names_the_click_its_point_and_the_caption() {
        assert_eq!(
            hint_line(&Hint::example()),
            "hint: click (7,0) G x5 at (740, 530) — click 1 of 2, optimum 11 (proven) — reward reachable"
        );
    }

    #[test]
    fn a_click_off_the_plan_says_what_it_cost() {
        let cost = Verdict::Cost {
            cost: 1,
            from_here: 10,
            total: 12,
        };
        assert_eq!(
            verdict_text(&cost),
            "that click cost 1: optimum from here 10, 12 in all"
        );
        assert_eq!(verdict_text(&Verdict::AsHinted), "as hinted");
    }
}
