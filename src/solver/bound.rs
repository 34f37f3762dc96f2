//! Admissible lower bounds: how many moves a board needs at least. The
//! exact search prunes with them, so they must never overestimate.
//!
//! The colour bound here holds under every variant of the rules: it looks
//! only at the colours and clusters of the board it is given, and its
//! argument (a colour goes for good only in a move that takes its last
//! cluster) holds whatever a move does to the tiles that stay. Under
//! `gravity` a colour counts once per run of neighbouring columns that
//! hold it, whose tiles never meet those of another run (see
//! [`Shape::column_runs`]). The halves bound (`halves`) holds under fewer
//! variants.

use crate::game::{Board, Rules};

use super::planes::{Bits, Planes, Shape};

/// The bound the search uses: every colour left needs a move of its own,
/// the one that removes its last tiles in one cluster (under `gravity`,
/// one for each run of columns that holds it); and while no colour is a
/// single cluster, the next move cannot be such a last move (it removes
/// one cluster of a colour that has others), so one more is needed.
#[inline]
pub(super) fn bound<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> u32 {
    let last = last_moves(shape, planes);
    last + extra_move(shape, planes, last)
}

/// [`bound`], or a smaller bound when that cannot change the answer to
/// "does the board need `budget` moves or more?": the flood fills behind the
/// extra move are most of the bound's cost and only matter at the margin.
#[inline]
pub(super) fn bound_against<T: Bits>(shape: &Shape<T>, planes: &Planes<T>, budget: u32) -> u32 {
    let last = last_moves(shape, planes);
    if last + 1 != budget {
        return last;
    }
    last + extra_move(shape, planes, last)
}

/// The moves that each take the last tiles of a colour (under `gravity`,
/// of a colour in a run of columns).
#[inline]
fn last_moves<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> u32 {
    if shape.columns_stay() {
        return planes.each().map(|plane| shape.column_runs(plane)).sum();
    }
    planes.present.count_ones()
}

/// 1 when no colour present is a single cluster, `last` being the
/// board's [`last_moves`]. (Under `gravity` a colour in several runs of
/// columns is not one cluster, though a run of it may be: then there are
/// more last moves than colours, and no extra one is counted.)
#[inline]
fn extra_move<T: Bits>(shape: &Shape<T>, planes: &Planes<T>, last: u32) -> u32 {
    if last > planes.present.count_ones() || planes.each().any(|plane| shape.is_one_cluster(plane))
    {
        return 0;
    }
    u32::from(!planes.is_cleared())
}

/// The most moves-to-go the search's bound proves for `board` on its own,
/// under any rules: the colours left, plus one while no colour is a single
/// cluster.
pub fn lower_bound(board: &Board) -> u32 {
    // The bound plays no move: any rules' shape gives the same.
    bound(
        &Shape::<u128>::of(board, Rules::default()),
        &Planes::of(board),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn one_more_move_when_no_colour_is_one_cluster() {
        // G is one cluster: 2 colours, 2 moves suffice (O, then G).
        assert_eq!(lower_bound(&board("GG,OG")), 2);
        // G and O both split in two: the first move cannot finish a colour.
        assert_eq!(lower_bound(&board("GO,OG")), 3);
        assert_eq!(lower_bound(&board("  ,  ")), 0);
        assert_eq!(lower_bound(&board("  ,G ")), 1);
    }

    #[test]
    fn under_gravity_a_colour_needs_a_move_for_each_run_of_columns_holding_it() {
        let gravity = |text: &str| {
            let board = board(text);
            let shape = Shape::<u64>::of(&board, Rules::Gravity);
            (shape, Planes::of(&board))
        };
        // Column 2 is empty: G and O on both sides need two moves each.
        let (shape, planes) = gravity("GO OG,GO OG");
        assert_eq!(bound(&shape, &planes), 4);
        for budget in 1..6 {
            let against = bound_against(&shape, &planes, budget);
            assert!(against <= 4, "{budget}");
            assert_eq!(against >= budget, budget <= 4, "{budget}");
        }
        // The other rules close the gap: one game, two colours, neither
        // in one cluster.
        assert_eq!(lower_bound(&board("GO OG,GO OG")), 3);
        // Columns 1 and 2 hold no O: the two Os never meet (the rows
        // would bring them together).
        let (shape, planes) = gravity("OGGO,GGGG");
        assert_eq!(bound(&shape, &planes), 3);
        assert_eq!(lower_bound(&board("OGGO,GGGG")), 2);
        // Every column holds a G: one run, one cluster.
        let (shape, planes) = gravity("GOG,GGG");
        assert_eq!(bound(&shape, &planes), 2);
    }

    #[test]
    fn the_real_board_needs_six() {
        let real = board(crate::game::EXAMPLE_BOARD);
        assert_eq!(lower_bound(&real), 6);
    }
}
