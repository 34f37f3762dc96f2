//! Admissible lower bounds: how many moves a board needs at least. The
//! exact search prunes with them, so they must never overestimate.
//!
//! The colour bound here holds under every variant of the rules: it looks
//! only at the colours and clusters of the board it is given, and its
//! argument (a colour goes for good only in a move that takes its last
//! cluster) holds whatever a move does to the tiles that stay. Under
//! `gravity` it is summed over the runs of columns between empty ones,
//! games of their own there (see [`Shape::splits`]). The halves bound
//! (`halves`) holds under fewer variants.

use crate::game::{Board, Rules};

use super::planes::{Bits, Planes, Shape};

/// The bound the search uses: every colour left needs a move of its own,
/// the one that removes its last tiles in one cluster; and while no colour
/// is a single cluster, the next move cannot be such a last move (it
/// removes one cluster of a colour that has others), so one more is needed.
/// Where empty columns split the board into games of their own, the sum
/// of their bounds: a colour in two of them needs a move in each.
#[inline]
pub(super) fn bound<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> u32 {
    if shape.splits() {
        return shape
            .parts(planes)
            .map(|part| part.present.count_ones() + extra_move(shape, &part))
            .sum();
    }
    planes.present.count_ones() + extra_move(shape, planes)
}

/// [`bound`], or a smaller bound when that cannot change the answer to
/// "does the board need `budget` moves or more?": the flood fills behind the
/// extra move are most of the bound's cost and only matter at the margin.
#[inline]
pub(super) fn bound_against<T: Bits>(shape: &Shape<T>, planes: &Planes<T>, budget: u32) -> u32 {
    if shape.splits() {
        return split_bound_against(shape, planes, budget);
    }
    let colours = planes.present.count_ones();
    if colours + 1 != budget {
        return colours;
    }
    colours + extra_move(shape, planes)
}

/// [`bound_against`] for a shape that splits: the parts' colours, and
/// their extra moves only when those could reach `budget`.
fn split_bound_against<T: Bits>(shape: &Shape<T>, planes: &Planes<T>, budget: u32) -> u32 {
    let (colours, parts) = shape.parts(planes).fold((0, 0), |(colours, parts), part| {
        (colours + part.present.count_ones(), parts + 1)
    });
    if colours >= budget || colours + parts < budget {
        return colours;
    }
    bound(shape, planes)
}

/// 1 when no colour present is a single cluster.
#[inline]
fn extra_move<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> u32 {
    if planes.each().any(|plane| shape.is_one_cluster(plane)) {
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
    fn under_gravity_each_part_between_empty_columns_needs_its_colours() {
        // Column 2 is empty: G and O on both sides need two moves each.
        let split = board("GO OG,GO OG");
        let planes = Planes::<u64>::of(&split);
        let gravity = Shape::of(&split, Rules::Gravity);
        assert_eq!(bound(&gravity, &planes), 4);
        for budget in 1..6 {
            let against = bound_against(&gravity, &planes, budget);
            assert!(against <= 4, "{budget}");
            assert_eq!(against >= budget, budget <= 4, "{budget}");
        }
        // The other rules close the gap: one game, two colours, neither
        // in one cluster.
        let rows = Shape::of(&split, Rules::CentreRows);
        assert_eq!(bound(&rows, &planes), 3);
        assert_eq!(lower_bound(&split), 3);
    }

    #[test]
    fn the_real_board_needs_six() {
        let real = board("GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG");
        assert_eq!(lower_bound(&real), 6);
    }
}
