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

    /// The cells 4-adjacent to some cell of `set`.
    #[inline]
    fn neighbours(&self, set: u128) -> u128 {
        (set << 1 & self.not_bottom)
            | (set >> 1 & self.not_top)
            | set << self.height
            | set >> self.height
    }

    /// True when the tiles of `plane` (not empty) form a single cluster.
    #[inline]
    pub(super) fn is_one_cluster(&self, plane: u128) -> bool {
        if plane & (plane - 1) == 0 {
            return true;
        }
        // A lone tile among others settles it without a flood, and early
        // in a game most colours have one.
        plane & !self.neighbours(plane) == 0
            && self.flood(plane & plane.wrapping_neg(), plane) == plane
    }

    /// About how many clusters the tiles of `plane` form, for ranking
    /// boards, without a flood: tiles less adjacent pairs plus 2x2 squares
    /// (Euler's formula for a grid graph); exact unless a cluster encloses
    /// a hole, which makes it less.
    #[inline]
    pub(super) fn cluster_estimate(&self, plane: u128) -> u32 {
        let vertical = plane & plane >> 1 & self.not_top;
        let horizontal = plane & plane >> self.height;
        let squares = vertical & vertical >> self.height;
        (plane.count_ones() + squares.count_ones())
            .saturating_sub(vertical.count_ones() + horizontal.count_ones())
    }

    /// The clusters of `plane`, each as its cells, lowest first: the moves
    /// on that colour.
    #[inline]
    pub(super) fn clusters(&self, plane: u128) -> impl Iterator<Item = u128> + '_ {
        let mut rest = plane;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let cells = self.flood(rest & rest.wrapping_neg(), plane);
                rest &= !cells;
                cells
            })
        })
    }

    /// Grows `seed` to its 4-connected component inside `within`.
    #[inline]
    pub(super) fn flood(&self, seed: u128, within: u128) -> u128 {
        let mut set = seed & within;
        loop {
            let grown = (set | self.neighbours(set)) & within;
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
    // Bit-sliced, as this runs for every board the search makes: the 4
    // bits of every cell's value (0 empty, `c + 1` colour `c`) gathered
    // eight cells at a time into one mask per bit, then each colour's
    // plane is where all four bits match its value. No branch, no store
    // to a plane chosen by a cell.
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    // Moves bit 0 of byte i to bit 56 + i; no two products overlap.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut slices = [[0u64; 2]; 4];
    for (i, eight) in board.raw().chunks(8).enumerate() {
        let word = eight
            .iter()
            .rev()
            .fold(0u64, |word, &v| word << 8 | u64::from(v));
        for (bit, slice) in slices.iter_mut().enumerate() {
            let gathered = (word >> bit & LOW_BITS).wrapping_mul(GATHER) >> 56;
            slice[i / 8] |= gathered << (8 * (i % 8));
        }
    }
    let planes: [u128; MAX_COLOURS as usize] = std::array::from_fn(|c| {
        let value = c + 1;
        let [lo, hi] = (0..4).fold([u64::MAX; 2], |[lo, hi], bit| {
            let [s_lo, s_hi] = slices[bit];
            if value >> bit & 1 == 1 {
                [lo & s_lo, hi & s_hi]
            } else {
                [lo & !s_lo, hi & !s_hi]
            }
        });
        u128::from(lo) | u128::from(hi) << 64
    });
    let present = planes
        .iter()
        .enumerate()
        .fold(0u8, |bits, (c, &plane)| bits | u8::from(plane != 0) << c);
    (planes, present)
}

/// The bound the search uses: every colour left needs a move of its own,
/// the one that removes its last tiles in one cluster; and while no colour
/// is a single cluster, the next move cannot be such a last move (it
/// removes one cluster of a colour that has others), so one more is needed.
#[inline]
pub(super) fn bound(shape: &Shape, board: &Board) -> u32 {
    let (planes, present) = planes(board);
    present.count_ones() + extra_move(shape, &planes, present)
}

/// [`bound`], or a smaller bound when that cannot change the answer to
/// "does the board need `budget` moves or more?": the flood fills behind the
/// extra move are most of the bound's cost and only matter at the margin.
#[inline]
pub(super) fn bound_against(
    shape: &Shape,
    planes: &[u128; MAX_COLOURS as usize],
    present: u8,
    budget: u32,
) -> u32 {
    let colours = present.count_ones();
    if colours + 1 != budget {
        return colours;
    }
    colours + extra_move(shape, planes, present)
}

/// 1 when no colour present is a single cluster.
#[inline]
pub(super) fn extra_move(shape: &Shape, planes: &[u128; MAX_COLOURS as usize], present: u8) -> u32 {
    let mut bits = present;
    while bits != 0 {
        let c = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if shape.is_one_cluster(planes[c]) {
            return 0;
        }
    }
    u32::from(present != 0)
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
    fn the_cluster_estimate_counts_clusters_without_holes() {
        let estimate = |text: &str| {
            let board = board(text);
            Shape::of(&board).cluster_estimate(planes(&board).0[0])
        };
        assert_eq!(estimate("GG,GG"), 1);
        assert_eq!(estimate("G G,GGG"), 1);
        assert_eq!(estimate("GOG,GOG"), 2);
        // A ring: one cluster around a hole.
        assert_eq!(estimate("GGG,GOG,GGG"), 0);
        let mut rng = crate::game::BoardRng::new(3);
        for _ in 0..100 {
            let board = rng.board(8, 6, 3).unwrap();
            let shape = Shape::of(&board);
            let (planes, _) = planes(&board);
            let clusters = board.clusters();
            for colour in crate::game::Colour::all(3) {
                let plane = planes[colour.index() as usize];
                let exact = clusters.iter().filter(|c| c.colour == colour).count() as u32;
                assert!(shape.cluster_estimate(plane) <= exact, "{board}");
            }
        }
    }

    #[test]
    fn the_real_board_needs_six() {
        let real = board("GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG");
        assert_eq!(lower_bound(&real), 6);
    }
}
