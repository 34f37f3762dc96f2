//! Admissible lower bounds: how many moves a board needs at least. The
//! exact search prunes with them, so they must never overestimate.

use crate::game::{Board, MAX_COLOURS};

/// A board's cells as one bit set per colour, with the masks that keep a
/// flood fill inside its column, precomputed once per board shape because
/// the search floods millions of times.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    height: u32,
    /// Cells that may receive a bit shifted up (not the bottom row).
    not_bottom: u128,
    /// Cells that may receive a bit shifted down (not the top row).
    not_top: u128,
}

impl Shape {
    pub(super) fn of(board: &Board) -> Shape {
        let h = u32::from(board.height());
        let row =
            |y: u32| (0..u32::from(board.width())).fold(0u128, |m, x| m | 1u128 << (x * h + y));
        Shape {
            height: h,
            not_bottom: !row(0),
            not_top: !row(h - 1),
        }
    }

    /// Grows `seed` to its 4-connected component inside `within`.
    #[inline]
    pub(super) fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut set = seed & within;
        loop {
            let grown = (set
                | (set << 1 & self.not_bottom)
                | (set >> 1 & self.not_top)
                | set << self.height
                | set >> self.height)
                & within;
            if grown == set {
                return set;
            }
            set = grown;
        }
    }
}

/// One bit set per colour (index = colour), and the colours present.
#[inline]
pub(super) fn planes(board: &Board) -> ([u128; MAX_COLOURS as usize], u8) {
    let mut planes = [0u128; MAX_COLOURS as usize];
    let mut present = 0u8;
    for (index, &v) in board.raw().iter().enumerate() {
        if v != 0 {
            planes[v as usize - 1] |= 1u128 << index;
            present |= 1 << (v - 1);
        }
    }
    (planes, present)
}

/// The bound the search uses: every colour left needs a move of its own,
/// the one that removes its last tiles in one cluster; and while no colour
/// is a single cluster, the next move cannot be such a last move (it
/// removes one cluster of a colour that has others), so one more is needed.
#[inline]
pub(super) fn bound(shape: &Shape, board: &Board) -> u32 {
    let (planes, present) = planes(board);
    let colours = present.count_ones();
    if colours == 0 {
        return 0;
    }
    let mut bits = present;
    while bits != 0 {
        let c = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let plane = planes[c];
        if shape.flood(plane & plane.wrapping_neg(), plane) == plane {
            return colours;
        }
    }
    colours + 1
}

/// The most moves-to-go the search's bound proves for `board` on its own:
/// the colours left, plus one while no colour is a single cluster.
pub fn lower_bound(board: &Board) -> u32 {
    bound(&Shape::of(board), board)
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
