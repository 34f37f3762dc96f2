//! Admissible lower bounds: how many moves a board needs at least. The
//! exact search prunes with them, so they must never overestimate.

use crate::game::Board;

use super::planes::{Bits, Planes, Shape};

/// The bound the search uses: every colour left needs a move of its own,
/// the one that removes its last tiles in one cluster; and while no colour
/// is a single cluster, the next move cannot be such a last move (it
/// removes one cluster of a colour that has others), so one more is needed.
#[inline]
pub(super) fn bound<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> u32 {
    planes.present.count_ones() + extra_move(shape, planes)
}

/// [`bound`], or a smaller bound when that cannot change the answer to
/// "does the board need `budget` moves or more?": the flood fills behind the
/// extra move are most of the bound's cost and only matter at the margin.
#[inline]
pub(super) fn bound_against<T: Bits>(shape: &Shape<T>, planes: &Planes<T>, budget: u32) -> u32 {
    let colours = planes.present.count_ones();
    if colours + 1 != budget {
        return colours;
    }
    colours + extra_move(shape, planes)
}

/// 1 when no colour present is a single cluster.
#[inline]
fn extra_move<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> u32 {
    if planes.each().any(|plane| shape.is_one_cluster(plane)) {
        return 0;
    }
    u32::from(!planes.is_cleared())
}

/// The most moves-to-go the search's bound proves for `board` on its own:
/// the colours left, plus one while no colour is a single cluster.
pub fn lower_bound(board: &Board) -> u32 {
    bound(&Shape::<u128>::of(board), &Planes::of(board))
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
    fn the_real_board_needs_six() {
        let real = board("GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG");
        assert_eq!(lower_bound(&real), 6);
    }
}
