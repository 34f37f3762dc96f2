//! Following the player on the board alone: which boards one click can
//! make, which clicks made a board (the fewest, for clicks made within
//! one animation), and where the tiles a plan will click
//! are on the board the player sees now, each under given rules. Pure
//! game logic, so the rules of following can be tested without a screen.

use std::collections::HashSet;

use crate::game::{Board, Cell, MAX_COLOURS, Rules, Step};

/// The most clicks one change of the board is searched for: a player
/// makes two or three within one animation; four leaves room, and the
/// search stays small (a click is tried only on a colour the board after
/// holds fewer of, by no more than what is left to remove).
pub const MOST_CLICKS_AT_ONCE: usize = 4;

/// Every board one click on `board` can leave under any of `rules` (one
/// per cluster and rules, without repeats).
pub fn successors(board: &Board, rules: &[Rules]) -> Vec<Board> {
    let mut boards = Vec::new();
    for cluster in board.clusters().iter() {
        for &rules in rules {
            let after = board.remove_under(cluster.cells, rules);
            if !boards.contains(&after) {
                boards.push(after);
            }
        }
    }
    boards
}

/// The fewest clicks on `before`, at most `most`, that leave `after`
/// under `rules`, in order; `None` when no such clicks do (a misread,
/// another board, more clicks). Of the shortest, the first in scan
/// order (when several clusters leave the same board, they are the same
/// move to the player). Fewer clicks than the player made can never leave the board
/// the player left, so the count is never below the real one but by
/// clicks that cancel out, which no board shows.
pub fn explain_clicks(
    before: &Board,
    after: &Board,
    rules: Rules,
    most: usize,
) -> Option<Vec<Step>> {
    let goal = colour_counts(after);
    let mut seen = HashSet::from([*before]);
    // Breadth first: the first sequence found is a shortest.
    let mut level = vec![(*before, Vec::new())];
    for _ in 0..most {
        let mut next = Vec::new();
        for (board, steps) in &level {
            let counts = colour_counts(board);
            for cluster in board.clusters().iter() {
                let colour = usize::from(cluster.colour.index());
                // Tiles of a colour the board after still holds are
                // never removed on the way there.
                if counts[colour] < goal[colour] + usize::from(cluster.size) {
                    continue;
                }
                let board_after = board.remove_under(cluster.cells, rules);
                if !seen.insert(board_after) {
                    continue;
                }
                let mut path: Vec<Step> = steps.clone();
                path.push(Step {
                    cell: cluster.cell,
                    colour: cluster.colour,
                    size: cluster.size,
                    board_after,
                });
                if board_after == *after {
                    return Some(path);
                }
                next.push((board_after, path));
            }
        }
        level = next;
    }
    None
}

/// How many tiles of each colour `board` holds.
fn colour_counts(board: &Board) -> [usize; MAX_COLOURS as usize] {
    let mut counts = [0; MAX_COLOURS as usize];
    for &v in board.raw().iter().filter(|&&v| v != 0) {
        counts[usize::from(v) - 1] += 1;
    }
    counts
}

/// Where on `board` each click of `plan` (played from `board` under
/// `rules`) is: the cell now holding the tile that click will remove.
/// Tiles only move between clicks, so each clicked tile is traced back
/// through the moves before it.
pub fn clicks_on(board: &Board, plan: &[Step], rules: Rules) -> Vec<Cell> {
    // The moves of each step: (from on the board before it, to after it).
    let mut before = *board;
    let mut moves: Vec<Vec<(Cell, Cell)>> = Vec::with_capacity(plan.len());
    for step in plan {
        let cells = before
            .cluster_at(step.cell)
            .map_or(Default::default(), |c| c.cells);
        moves.push(before.tile_moves_under(cells, rules));
        before = step.board_after;
    }
    plan.iter()
        .enumerate()
        .map(|(k, step)| {
            moves[..k].iter().rev().fold(step.cell, |cell, step_moves| {
                step_moves
                    .iter()
                    .find(|&&(_, to)| to == cell)
                    .map_or(cell, |&(from, _)| from)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardRng, replay, replay_under};

    const REAL: &str = crate::game::EXAMPLE_BOARD;
    /// The seed's optimal solution (RULES.md).
    const SEED: [(u8, u8); 11] = [
        (7, 0),
        (3, 1),
        (3, 1),
        (2, 0),
        (2, 1),
        (3, 3),
        (5, 0),
        (4, 0),
        (2, 1),
        (2, 0),
        (3, 0),
    ];

    /// The one click on `before` that leaves `after`, if one does.
    fn explain(before: &Board, after: &Board, rules: Rules) -> Option<Step> {
        explain_clicks(before, after, rules, 1).map(|steps| steps[0])
    }

    fn seed_plan(board: &Board) -> Vec<Step> {
        let clicks: Vec<Cell> = SEED.iter().map(|&(x, y)| Cell::new(x, y)).collect();
        replay(board, &clicks).unwrap()
    }

    #[test]
    fn every_click_is_explained_by_its_own_cluster() {
        let board: Board = REAL.parse().unwrap();
        let plan = seed_plan(&board);
        let mut before = board;
        for step in &plan {
            let found = explain(&before, &step.board_after, Rules::CentreRows).unwrap();
            assert_eq!(found.board_after, step.board_after);
            assert_eq!((found.colour, found.size), (step.colour, step.size));
            // The explaining cluster holds the cell clicked.
            let cluster = before.cluster_at(step.cell).unwrap();
            assert_eq!(before.cluster_at(found.cell).unwrap(), cluster);
            assert!(successors(&before, &[Rules::CentreRows]).contains(&step.board_after));
            before = step.board_after;
        }
    }

    #[test]
    fn clicks_within_one_animation_are_counted_in_full() {
        let board: Board = REAL.parse().unwrap();
        let plan = seed_plan(&board);
        let rules = Rules::CentreRows;
        for k in 1..=3 {
            let steps = explain_clicks(&board, &plan[k - 1].board_after, rules, 4).unwrap();
            assert_eq!(steps.len(), k, "the seed's first {k} clicks");
            assert_eq!(steps.last().unwrap().board_after, plan[k - 1].board_after);
        }
        // Random boards, random clicks: never more than were made, and the
        // clicks found replay to the board after.
        let mut rng = BoardRng::new(34);
        for _ in 0..50 {
            let start = rng.board(8, 6, 5).unwrap();
            let mut after = start;
            let made = 2 + rng.below(3) as usize;
            for _ in 0..made {
                let clusters = after.clusters();
                let clusters = clusters.as_slice();
                let pick = clusters[rng.below(clusters.len() as u64) as usize];
                after = after.remove_under(pick.cells, rules);
            }
            let steps = explain_clicks(&start, &after, rules, 4).unwrap();
            assert!(steps.len() <= made, "{} for {made}", steps.len());
            let cells: Vec<Cell> = steps.iter().map(|s| s.cell).collect();
            let replayed = replay_under(&start, &cells, rules).unwrap();
            assert_eq!(replayed.last().unwrap().board_after, after);
        }
        // More clicks than searched for, or another board: none.
        assert_eq!(explain_clicks(&board, &plan[4].board_after, rules, 4), None);
        let other: Board = "OOBYRGGR,YROBRYRR,GOGOYORO,YBBGYRGG,YOYOYRGY,YYGOOOGO"
            .parse()
            .unwrap();
        assert_eq!(explain_clicks(&board, &other, rules, 4), None);
    }

    #[test]
    fn two_clicks_at_once_or_another_board_are_not_explained() {
        let board: Board = REAL.parse().unwrap();
        let plan = seed_plan(&board);
        let rules = Rules::CentreRows;
        assert_eq!(explain(&board, &plan[1].board_after, rules), None);
        assert_eq!(explain(&board, &board, rules), None);
        let other: Board = "OOBYRGGR,YROBRYRR,GOGOYORO,YBBGYRGG,YOYOYRGY,YYGOOOGO"
            .parse()
            .unwrap();
        assert_eq!(explain(&board, &other, rules), None);
        assert!(!successors(&board, &Rules::ALL).contains(&other));
    }

    #[test]
    fn a_click_is_explained_under_the_rules_that_make_its_board() {
        // RULES.md's vectors: the third click, (2,1) x5, leaves a board of
        // its own under each variant.
        let start: Board = "YBBGYGBB,GYOYYOYB,BBGYYYRB,YBRRBRYR,BRRGGOBG,OYYGRYGB"
            .parse()
            .unwrap();
        let clicks = [Cell::new(3, 3), Cell::new(1, 1), Cell::new(2, 1)];
        for truth in [Rules::CentreColumns, Rules::LeftColumns, Rules::Gravity] {
            let steps = replay_under(&start, &clicks, truth).unwrap();
            let (before, after) = (steps[1].board_after, steps[2].board_after);
            for rules in Rules::ALL {
                let found = explain(&before, &after, rules);
                assert_eq!(found.is_some(), rules == truth, "{truth} under {rules}");
                assert_eq!(
                    successors(&before, &[rules]).contains(&after),
                    rules == truth
                );
            }
            let found = explain(&before, &after, truth).unwrap();
            assert_eq!(before.cluster_at(found.cell), before.cluster_at(clicks[2]));
        }
    }

    #[test]
    fn each_planned_click_is_on_the_tile_it_will_remove() {
        let board: Board = REAL.parse().unwrap();
        let plan = seed_plan(&board);
        let cells = clicks_on(&board, &plan, Rules::CentreRows);
        assert_on_distinct_tiles(&board, &plan, &cells);
        assert_eq!(cells[0], plan[0].cell);
        // Played on the board as it is now, the traced cells are the
        // plan's: removing everything but the clicked tiles' clusters in
        // order gives the same boards. Check the second click directly: the
        // tile at (3,1) after the first click was somewhere on the board.
        let (_, first) = board.play(plan[0].cell).unwrap();
        let moves = board.tile_moves(first.cells);
        let to = moves
            .iter()
            .find(|&&(from, _)| from == cells[1])
            .map_or(cells[1], |m| m.1);
        assert_eq!(to, plan[1].cell);
    }

    #[test]
    fn planned_clicks_are_traced_under_the_plans_rules() {
        let mut rng = BoardRng::new(4);
        for rules in Rules::ALL {
            let board = rng.board(8, 6, 5).unwrap();
            // A random game: each click on the cluster's first cell.
            let mut clicks = Vec::new();
            let mut current = board;
            while !current.is_cleared() {
                let clusters = current.clusters();
                let cluster = clusters[rng.below(clusters.len() as u64) as usize];
                clicks.push(cluster.cell);
                current = current.remove_under(cluster.cells, rules);
            }
            let plan = replay_under(&board, &clicks, rules).unwrap();
            assert_on_distinct_tiles(&board, &plan, &clicks_on(&board, &plan, rules));
        }
    }

    /// Every click of `plan` is on a distinct tile of `board` of the colour
    /// it removes.
    fn assert_on_distinct_tiles(board: &Board, plan: &[Step], cells: &[Cell]) {
        assert_eq!(cells.len(), plan.len());
        for (cell, step) in cells.iter().zip(plan) {
            assert_eq!(board.get(*cell), Some(step.colour), "{board} {cell}");
        }
        let mut unique = cells.to_vec();
        unique.sort_by_key(|c| (c.x, c.y));
        unique.dedup();
        assert_eq!(unique.len(), cells.len(), "{board}");
    }
}
