//! Beam search for a fast first solution: level by level, keep the `width`
//! most promising boards (fewest moves still needed by the bound, then
//! fewest tiles), dropping boards already seen at that level. It proves
//! nothing; it gives the exact search an upper bound to beat, usually the
//! optimum itself.

use std::collections::HashSet;

use crate::game::{Board, Cell};

use super::bound::{Shape, extra_move, planes};
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
    // Every board kept, as (parent, click): paths are rebuilt only for the
    // solution, so a level costs no allocation per child.
    let mut kept: Vec<(usize, Cell)> = Vec::new();
    let mut beam: Vec<(Board, usize)> = vec![(*board, usize::MAX)];
    let mut next = Vec::new();
    let mut seen = HashSet::new();
    while !beam.is_empty() {
        next.clear();
        seen.clear();
        for &(board, at) in &beam {
            for cluster in board.clusters().iter() {
                *nodes += 1;
                let child = board.remove(cluster.cells);
                if child.is_cleared() {
                    let mut clicks = vec![cluster.cell];
                    let mut at = at;
                    while at != usize::MAX {
                        let (parent, cell) = kept[at];
                        clicks.push(cell);
                        at = parent;
                    }
                    clicks.reverse();
                    offer(&clicks);
                    return true;
                }
                if seen.insert(key(&child)) {
                    let rank = promise(&shape, &child);
                    next.push((rank, child, at, cluster.cell));
                }
            }
            if stop() {
                return false;
            }
        }
        let width = width.min(next.len());
        if width > 0 {
            next.select_nth_unstable_by_key(width - 1, |(rank, ..)| *rank);
        }
        next.truncate(width);
        next.sort_by_key(|(rank, ..)| *rank);
        beam.clear();
        for &(_, child, parent, cell) in &next {
            kept.push((parent, cell));
            beam.push((child, kept.len() - 1));
        }
    }
    true
}

/// How far `board` looks from cleared, smaller first: twice the colours
/// bound plus the clusters left, then the tiles left. The clusters tell
/// apart the many boards the bound ranks alike, and a colour in fewer
/// clusters is fewer moves from going in one.
fn promise(shape: &Shape, board: &Board) -> (u32, usize) {
    let (planes, present) = planes(board);
    let bound = present.count_ones() + extra_move(shape, &planes, present);
    let mut clusters = 0;
    let mut colours = present;
    while colours != 0 {
        clusters += shape.cluster_count(planes[colours.trailing_zeros() as usize]);
        colours &= colours - 1;
    }
    (2 * bound + clusters, board.tile_count())
}
