//! Following the player on the board alone: which boards one click can
//! make, which click made a board, and where the tiles a plan will click
//! are on the board the player sees now. Pure game logic, so the rules of
//! following can be tested without a screen.

use crate::game::{Board, Cell, Step};

/// Every board one click on `board` can leave (one per cluster).
pub fn successors(board: &Board) -> Vec<Board> {
    board
        .clusters()
        .iter()
        .map(|cluster| board.remove(cluster.cells))
        .collect()
}

/// The click on `before` that leaves `after`, if one does (when several
/// clusters leave the same board, the first in scan order: they are the
/// same move to the player).
pub fn explain(before: &Board, after: &Board) -> Option<Step> {
    before.clusters().iter().find_map(|cluster| {
        let board_after = before.remove(cluster.cells);
        (board_after == *after).then_some(Step {
            cell: cluster.cell,
            colour: cluster.colour,
            size: cluster.size,
            board_after,
        })
    })
}

/// Where on `board` each click of `plan` (played from `board`) is: the
/// cell now holding the tile that click will remove. Tiles only move
/// between clicks, so each clicked tile is traced back through the moves
/// before it.
pub fn clicks_on(board: &Board, plan: &[Step]) -> Vec<Cell> {
    // The moves of each step: (from on the board before it, to after it).
    let mut before = *board;
    let mut moves: Vec<Vec<(Cell, Cell)>> = Vec::with_capacity(plan.len());
    for step in plan {
        let cells = before
            .cluster_at(step.cell)
            .map_or(Default::default(), |c| c.cells);
        moves.push(before.tile_moves(cells));
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
    use crate::game::replay;

    const REAL: &str = "GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG";
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
            let found = explain(&before, &step.board_after).unwrap();
            assert_eq!(found.board_after, step.board_after);
            assert_eq!((found.colour, found.size), (step.colour, step.size));
            // The explaining cluster holds the cell clicked.
            let cluster = before.cluster_at(step.cell).unwrap();
            assert_eq!(before.cluster_at(found.cell).unwrap(), cluster);
            assert!(successors(&before).contains(&step.board_after));
            before = step.board_after;
        }
    }

    #[test]
    fn two_clicks_at_once_or_another_board_are_not_explained() {
        let board: Board = REAL.parse().unwrap();
        let plan = seed_plan(&board);
        assert_eq!(explain(&board, &plan[1].board_after), None);
        assert_eq!(explain(&board, &board), None);
        let other: Board = "OOBYRGGR,YROBRYRR,GOGOYORO,YBBGYRGG,YOYOYRGY,YYGOOOGO"
            .parse()
            .unwrap();
        assert_eq!(explain(&board, &other), None);
        assert!(!successors(&board).contains(&other));
    }

    #[test]
    fn each_planned_click_is_on_the_tile_it_will_remove() {
        let board: Board = REAL.parse().unwrap();
        let plan = seed_plan(&board);
        let cells = clicks_on(&board, &plan);
        assert_eq!(cells.len(), plan.len());
        assert_eq!(cells[0], plan[0].cell);
        // Every click is on a distinct tile of the colour it removes.
        for (cell, step) in cells.iter().zip(&plan) {
            assert_eq!(board.get(*cell), Some(step.colour), "{cell}");
        }
        let mut unique = cells.clone();
        unique.sort_by_key(|c| (c.x, c.y));
        unique.dedup();
        assert_eq!(unique.len(), cells.len());
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
}
