//! Beam search for a fast first solution: level by level, keep the `width`
//! most promising boards (fewest moves still needed by the bound, then
//! fewest tiles), dropping boards already seen at that level. It proves
//! nothing; it gives the exact search an upper bound to beat, usually the
//! optimum itself.

use std::collections::HashSet;

use crate::game::{Board, Cell};

use super::bound::{Shape, bound};
use super::key::key;

/// Runs a beam of `width` from `board`, offering each level's first
/// cleared board to `offer`. Returns false when `stop` said so.
pub(super) fn run(
    board: &Board,
    width: usize,
    nodes: &mut u64,
    mut stop: impl FnMut() -> bool,
    mut offer: impl FnMut(&[Cell]),
) -> bool {
    let shape = Shape::of(board);
    let mut beam: Vec<(Board, Vec<Cell>)> = vec![(*board, Vec::new())];
    let mut seen = HashSet::new();
    while !beam.is_empty() {
        let mut next = Vec::new();
        seen.clear();
        for (board, path) in &beam {
            for cluster in board.clusters().iter() {
                *nodes += 1;
                let child = board.remove(cluster.cells);
                let mut clicks = path.clone();
                clicks.push(cluster.cell);
                if child.is_cleared() {
                    offer(&clicks);
                    return true;
                }
                if seen.insert(key(&child)) {
                    let rank = (bound(&shape, &child), child.tile_count());
                    next.push((rank, child, clicks));
                }
            }
            if stop() {
                return false;
            }
        }
        next.sort_by_key(|(rank, _, _)| *rank);
        next.truncate(width);
        beam = next.into_iter().map(|(_, b, c)| (b, c)).collect();
    }
    true
}
