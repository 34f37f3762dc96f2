//! The article's three solvers, reproduced as baselines: depth-first branch
//! and bound over clusters, pruning a child unless
//! `colours_left(child) + depth + 1 < best_length`, single-threaded, no
//! memory of boards seen, under the rules the search plays. Only the child
//! order differs:
//! - standard: biggest cluster first;
//! - lookahead: biggest (cluster size + biggest cluster of the board it
//!   leaves) first;
//! - shortlook: lookahead for the first [`SHORTLOOK_DEPTH`] moves, standard
//!   deeper (the article leaves its depth "to the reader").
//!
//! Ties keep the article's scan order (a stable sort; the article's
//! `std::sort` leaves them unspecified).

use crate::game::{Board, Cell};

use super::Search;

/// How deep shortlook orders by lookahead.
pub(super) const SHORTLOOK_DEPTH: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    Standard,
    Lookahead,
    Shortlook,
}

impl Order {
    fn looks_ahead(self, depth: usize) -> bool {
        match self {
            Order::Standard => false,
            Order::Lookahead => true,
            Order::Shortlook => depth < SHORTLOOK_DEPTH,
        }
    }
}

/// The article's starting bound: no solution is longer than the board has
/// cells.
const MAX_DEPTH: usize = 128;

pub(super) fn solve(board: &Board, order: Order, search: &mut Search) {
    let mut dfs = Dfs {
        order,
        search,
        path: Vec::new(),
        stopped: false,
    };
    let max_depth = MAX_DEPTH.min(board.size());
    dfs.visit(board, 0, max_depth);
    if !dfs.stopped {
        search.proven = true;
    }
}

struct Dfs<'s, 'a> {
    order: Order,
    search: &'s mut Search<'a>,
    path: Vec<Cell>,
    stopped: bool,
}

impl Dfs<'_, '_> {
    /// Searches below `board` at `depth` for solutions shorter than
    /// `max_depth` moves in all; returns the (possibly) tightened bound.
    fn visit(&mut self, board: &Board, depth: usize, mut max_depth: usize) -> usize {
        let mut clusters = board.clusters();
        clusters.sort_biggest_first();
        let mut children = Vec::with_capacity(clusters.len());
        for cluster in clusters.iter() {
            self.search.nodes += 1;
            if self.search.nodes.is_multiple_of(4096) && self.search.out_of_time() {
                self.stopped = true;
            }
            if self.stopped {
                return max_depth;
            }
            let child = board.remove_under(cluster.cells, self.search.rules);
            if child.is_cleared() {
                self.path.push(cluster.cell);
                self.search.offer(&self.path);
                self.path.pop();
                return depth + 1;
            }
            let rank = if self.order.looks_ahead(depth) {
                let mut next = child.clusters();
                next.sort_biggest_first();
                usize::from(cluster.size) + usize::from(next[0].size)
            } else {
                usize::from(cluster.size)
            };
            children.push((rank, cluster.cell, child));
        }
        if self.order.looks_ahead(depth) {
            children.sort_by_key(|&(rank, _, _)| std::cmp::Reverse(rank));
        }
        for (_, cell, child) in &children {
            if child.colours_left() as usize + depth + 1 < max_depth {
                self.path.push(*cell);
                max_depth = self.visit(child, depth + 1, max_depth);
                self.path.pop();
            }
            if self.stopped {
                break;
            }
        }
        max_depth
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SolveOptions, Strategy, solve};
    use crate::game::Board;

    #[test]
    fn each_baseline_proves_a_small_board() {
        // Optimum 3 (see the bound's tests): O at the top right, O, G.
        let board: Board = "GO,OG".parse().unwrap();
        for strategy in [Strategy::Standard, Strategy::Lookahead, Strategy::Shortlook] {
            let options = SolveOptions {
                strategy,
                ..SolveOptions::default()
            };
            let outcome = solve(&board, &options, &mut |_| {});
            assert!(outcome.proven_optimal, "{strategy:?}");
            assert_eq!(outcome.length(), 3, "{strategy:?}");
        }
    }
}
