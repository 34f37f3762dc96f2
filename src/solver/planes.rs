//! Boards as the searches see them: one bit plane per colour, and the
//! shape that plays a move on them (floods, gravity, then the second step
//! of the rules in force: rows or whole columns closing up) with a few
//! dozen word operations, because the searches make millions of boards
//! and drop nearly all of them after a glance at their bounds. A whole
//! board's planes are `u128`; the halves' relaxed games play on one
//! side's planes as `u64`.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use crate::game::{Board, MAX_COLOURS, Rules};

/// What a bit plane needs: `u64` or `u128`.
pub(super) trait Bits:
    Copy
    + std::fmt::Debug
    + Send
    + Sync
    + Eq
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const BITS: u32;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    /// The lowest bit set, alone.
    fn lowest(self) -> Self;
    /// The `n` lowest bits (all of them for `n >= BITS`).
    fn low(n: u32) -> Self;
    /// The low bits of `bits`, as many as fit.
    fn from_u128(bits: u128) -> Self;
    fn to_u128(self) -> u128;
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn count_ones(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn low(n: u32) -> Self {
                <$t>::MAX
                    .checked_shr(<$t>::BITS.saturating_sub(n))
                    .unwrap_or(0)
            }
            #[inline]
            fn from_u128(bits: u128) -> Self {
                bits as $t
            }
            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

bits!(u64);
bits!(u128);

/// A board's tiles: where each colour is, and which colours are left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Planes<T> {
    /// Index = colour; bit `x * height + y` = cell `(x, y)`.
    pub colour: [T; MAX_COLOURS as usize],
    /// One bit per colour left.
    pub present: u8,
}

impl<T: Bits> Planes<T> {
    pub(super) fn new(colour: [T; MAX_COLOURS as usize]) -> Planes<T> {
        let present = colour
            .iter()
            .enumerate()
            .fold(0, |bits, (c, &p)| bits | u8::from(p != T::default()) << c);
        Planes { colour, present }
    }

    pub(super) fn is_cleared(&self) -> bool {
        self.present == 0
    }

    /// The colours left, lowest first.
    #[inline]
    pub(super) fn colours(&self) -> impl Iterator<Item = usize> + use<T> {
        let mut colours = self.present;
        std::iter::from_fn(move || {
            (colours != 0).then(|| {
                let c = colours.trailing_zeros() as usize;
                colours &= colours - 1;
                c
            })
        })
    }

    /// The planes of the colours left, lowest colour first.
    #[inline]
    pub(super) fn each(&self) -> impl Iterator<Item = T> + '_ {
        self.colours().map(|c| self.colour[c])
    }

    /// The planes of `board`, which must fit in `T`.
    pub(super) fn of(board: &Board) -> Planes<T> {
        debug_assert!(board.size() <= T::BITS as usize, "{board:?}");
        // Bit-sliced: the 4 bits of every cell's value (0 empty, `c + 1`
        // colour `c`) gathered eight cells at a time into one mask per
        // bit, then each colour's plane is where all four bits match its
        // value.
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
        Planes::new(std::array::from_fn(|c| {
            let value = c + 1;
            let [lo, hi] = (0..4).fold([u64::MAX; 2], |[lo, hi], bit| {
                let [s_lo, s_hi] = slices[bit];
                if value >> bit & 1 == 1 {
                    [lo & s_lo, hi & s_hi]
                } else {
                    [lo & !s_lo, hi & !s_hi]
                }
            });
            T::from_u128(u128::from(lo) | u128::from(hi) << 64)
        }))
    }
}

/// A board shape on bit planes: `columns` columns of `height` cells, the
/// first `toward_high` of them sliding toward higher columns in the
/// second step of the rules and the rest toward lower ones, with the masks
/// that keep shifted sets inside their column or half.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape<T> {
    columns: u32,
    height: u32,
    /// What slides after gravity.
    close: Close,
    /// Whether the mirror image of a board plays a game of the same
    /// length ([`Rules::mirror_symmetric`]).
    mirror_symmetric: bool,
    all: T,
    /// The bottom row: after gravity a column is empty when its bottom
    /// cell is.
    bottom: T,
    /// Cells at least 1, 2, 4, ... rows up: shifting a set up by so many
    /// must not wrap from one column into the next.
    up: [T; 7],
    /// Cells at least 1, 2, 4, ... rows below the top: the same shifting
    /// down.
    below: [T; 7],
    /// Cells that may receive a bit shifted down (not the top row).
    not_top: T,
    /// The cells that slide toward higher columns (a board's left half).
    high_half: T,
    /// The cells that slide toward lower columns (a board's right half).
    low_half: T,
    /// The widest half's columns: no tile slides farther than this less one.
    widest_half: u32,
    /// `None` when the columns, padded to a power of two, do not fit in
    /// `T`.
    swaps: Option<Swaps<T>>,
}

/// What closes up after gravity, toward the centre (or, for a half or
/// `left-columns`, toward the side given by the shape's `toward_high`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Close {
    /// Each row's tiles: `centre-rows`.
    Rows,
    /// Whole columns: `centre-columns` and `left-columns`.
    Columns,
    /// Nothing: `gravity`.
    Nothing,
}

/// A mirror as swaps of column blocks (halves, then quarters, and so on)
/// of the columns padded to a power of two.
#[derive(Clone, Copy, Debug)]
struct Swaps<T> {
    /// (The first block of each pair, the shift to the second.)
    steps: [(T, u32); 7],
    count: usize,
    /// The shift that takes the padding off.
    padding: u32,
}

impl<T: Bits> Shape<T> {
    /// The shape of `board` under `rules`, which must fit in `T`: its left
    /// half slides right, its right half left, or under `left-columns`
    /// everything slides left.
    pub(super) fn of(board: &Board, rules: Rules) -> Shape<T> {
        debug_assert!(board.size() <= T::BITS as usize, "{board:?}");
        let w = u32::from(board.width());
        let toward_high = if rules == Rules::LeftColumns {
            0
        } else {
            w / 2
        };
        Shape::new(w, u32::from(board.height()), toward_high, rules)
    }

    /// `columns` columns of `height` cells playing `rules`, of which the
    /// first `toward_high` slide toward higher columns (a side of the
    /// board plays the board's rules with all its columns sliding toward
    /// the centre).
    pub(super) fn new(columns: u32, height: u32, toward_high: u32, rules: Rules) -> Shape<T> {
        let cells = |from: u32, to: u32| T::low(to * height) & !T::low(from * height);
        let row =
            |y: u32| (0..columns).fold(T::default(), |m, x| m | T::low(1) << (x * height + y));
        let rows_from = |from: u32| (from..height).fold(T::default(), |m, y| m | row(y));
        Shape {
            columns,
            height,
            close: match rules {
                Rules::CentreRows => Close::Rows,
                Rules::CentreColumns | Rules::LeftColumns => Close::Columns,
                Rules::Gravity => Close::Nothing,
            },
            mirror_symmetric: rules.mirror_symmetric(columns as u8),
            all: cells(0, columns),
            bottom: row(0),
            up: std::array::from_fn(|k| rows_from(1 << k)),
            below: std::array::from_fn(|k| {
                cells(0, columns) & !rows_from(height.saturating_sub(1 << k))
            }),
            not_top: cells(0, columns) & !row(height - 1),
            high_half: cells(0, toward_high),
            low_half: cells(toward_high, columns),
            widest_half: toward_high.max(columns - toward_high),
            swaps: Self::swaps(columns, height),
        }
    }

    fn swaps(columns: u32, height: u32) -> Option<Swaps<T>> {
        let padded = columns.next_power_of_two();
        if padded * height > T::BITS {
            return None;
        }
        let mut steps = [(T::default(), 0); 7];
        let mut count = 0;
        let mut block = padded / 2;
        while block > 0 {
            let first = (0..padded)
                .filter(|x| (x / block).is_multiple_of(2))
                .fold(T::default(), |m, x| m | T::low(height) << (x * height));
            steps[count] = (first, block * height);
            count += 1;
            block /= 2;
        }
        Some(Swaps {
            steps,
            count,
            padding: (padded - columns) * height,
        })
    }

    /// Whether a board and its mirror image play games of the same length.
    pub(super) fn mirror_symmetric(&self) -> bool {
        self.mirror_symmetric
    }

    /// This shape, with keys that tell a board from its mirror image.
    pub(super) fn oriented(mut self) -> Shape<T> {
        self.mirror_symmetric = false;
        self
    }

    /// The cells of the half that slides toward higher columns (a board's
    /// left half), then of the other.
    pub(super) fn halves(&self) -> [T; 2] {
        [self.high_half, self.low_half]
    }

    /// Whether a board moved sideways plays a game of the same length:
    /// when only whole columns close up, or nothing does, what a move does
    /// depends on the order of the columns, never on where they stand.
    pub(super) fn shift_invariant(&self) -> bool {
        self.close != Close::Rows
    }

    /// Whether tiles stay in their columns for good: under `gravity`,
    /// where nothing moves sideways.
    pub(super) fn columns_stay(&self) -> bool {
        self.close == Close::Nothing
    }

    /// How many runs of neighbouring columns hold tiles of `plane`: where
    /// columns stay, tiles of two runs never meet (a column between them
    /// holds none of the colour, and never will).
    #[inline]
    pub(super) fn column_runs(&self, plane: T) -> u32 {
        // Every tile's column marked at its bottom cell.
        let mut columns = plane;
        let mut reach = 1;
        while reach < self.height {
            columns = columns | (columns >> reach & self.below[reach.trailing_zeros() as usize]);
            reach *= 2;
        }
        let columns = columns & self.bottom;
        (columns & !(columns << self.height)).count_ones()
    }

    /// `planes` moved sideways so that their first non-empty column is
    /// the shape's first (see [`Shape::shift_invariant`]).
    #[inline]
    pub(super) fn move_to_first_column(&self, planes: &mut Planes<T>) {
        let occupied = planes.each().fold(T::default(), |all, plane| all | plane);
        let shift = occupied.trailing_zeros() / self.height * self.height;
        if shift < T::BITS {
            for plane in &mut planes.colour {
                *plane = *plane >> shift;
            }
        }
    }

    /// Every cell of the shape.
    pub(super) fn all(&self) -> T {
        self.all
    }

    /// The cells 4-adjacent to some cell of `set`.
    #[inline]
    pub(super) fn neighbours(&self, set: T) -> T {
        (set << 1 & self.up[0])
            | (set >> 1 & self.not_top)
            | set << self.height
            | set >> self.height
    }

    /// Grows `seed` to its 4-connected component inside `within`.
    #[inline]
    pub(super) fn flood(&self, seed: T, within: T) -> T {
        let mut set = seed & within;
        loop {
            let grown = (set | self.neighbours(set)) & within;
            if grown == set {
                return set;
            }
            set = grown;
        }
    }

    /// True when the tiles of `plane` (not empty) form a single cluster.
    #[inline]
    pub(super) fn is_one_cluster(&self, plane: T) -> bool {
        if plane.lowest() == plane {
            return true;
        }
        // A lone tile among others settles it without a flood, and early
        // in a game most colours have one.
        plane & !self.neighbours(plane) == T::default()
            && self.flood(plane.lowest(), plane) == plane
    }

    /// About how many clusters the tiles of `plane` form, for ranking
    /// boards, without a flood: tiles less adjacent pairs plus 2x2 squares
    /// (Euler's formula for a grid graph); exact unless a cluster encloses
    /// a hole, which makes it less.
    #[inline]
    pub(super) fn cluster_estimate(&self, plane: T) -> u32 {
        let vertical = plane & plane >> 1 & self.not_top;
        let horizontal = plane & plane >> self.height;
        let squares = vertical & vertical >> self.height;
        (plane.count_ones() + squares.count_ones())
            .saturating_sub(vertical.count_ones() + horizontal.count_ones())
    }

    /// The clusters of `plane`, each as its cells, lowest first: the moves
    /// on that colour.
    #[inline]
    pub(super) fn clusters(&self, plane: T) -> impl Iterator<Item = T> + '_ {
        let mut rest = plane;
        std::iter::from_fn(move || {
            (rest != T::default()).then(|| {
                let cells = self.flood(rest.lowest(), plane);
                rest = rest & !cells;
                cells
            })
        })
    }

    /// `planes` after removing `cells`: gravity in every column, then the
    /// second step of the rules, as [`Board::remove_under`] plays a move.
    /// Each step moves by one cell every tile that has a hole anywhere
    /// below it (or, closing up, anywhere nearer the centre), until none
    /// has.
    #[inline]
    pub(super) fn remove(&self, planes: &Planes<T>, cells: T) -> Planes<T> {
        let h = self.height;
        // Every plane, present or not, and in place: a fixed count of the
        // same steps costs less than a loop over the colours left, or
        // `array::map`, which made a call per plane.
        let mut colour = planes.colour;
        for plane in &mut colour {
            *plane = *plane & !cells;
        }
        let mut occupied = colour.iter().fold(T::default(), |all, &plane| all | plane);
        loop {
            let holes = !occupied & self.all;
            // Cells with a hole anywhere below: one row up, then farther.
            let below = self.spread_up(holes << 1 & self.up[0], h.saturating_sub(2));
            let down = occupied & below;
            if down == T::default() {
                break;
            }
            let fall = |p: T| p & !down | (p & down) >> 1;
            for plane in &mut colour {
                *plane = fall(*plane);
            }
            occupied = fall(occupied);
        }
        match self.close {
            Close::Rows => self.close_up(&mut colour, occupied, |occupied| !occupied & self.all),
            // A column is empty when its bottom cell is: the holes are the
            // whole of such columns, so the rows slide together.
            Close::Columns => self.close_up(&mut colour, occupied, |occupied| {
                self.spread_up(!occupied & self.bottom, h - 1)
            }),
            Close::Nothing => {}
        }
        Planes::new(colour)
    }

    /// `set` with the cells up to `rows` above each of its cells, in the
    /// same column, added.
    #[inline]
    fn spread_up(&self, set: T, rows: u32) -> T {
        let mut spread = set;
        let (mut reach, mut k) = (1, 0);
        while reach <= rows {
            spread = spread | spread << reach & self.up[k];
            reach *= 2;
            k += 1;
        }
        spread
    }

    /// Slides the tiles of `colour` (all of them `occupied`) toward the
    /// centre, one cell a round, while a hole that `holes` finds among the
    /// cells not occupied is nearer the centre in the same row.
    #[inline(always)]
    fn close_up(
        &self,
        colour: &mut [T; MAX_COLOURS as usize],
        mut occupied: T,
        holes: impl Fn(T) -> T,
    ) {
        let h = self.height;
        loop {
            let holes = holes(occupied);
            // Cells with a hole nearer the centre in the same row.
            let mut outer_high = (holes & self.high_half) >> h;
            let mut outer_low = (holes & self.low_half) << h & self.low_half;
            let mut reach = 1;
            while reach + 1 < self.widest_half {
                outer_high = outer_high | outer_high >> (reach * h);
                outer_low = outer_low | (outer_low << (reach * h) & self.low_half);
                reach *= 2;
            }
            let high = occupied & outer_high;
            let low = occupied & outer_low;
            if high == T::default() && low == T::default() {
                break;
            }
            let slide = |p: T| p & !(high | low) | (p & high) << h | (p & low) >> h;
            for plane in colour.iter_mut() {
                *plane = slide(*plane);
            }
            occupied = slide(occupied);
        }
    }

    /// `plane` seen in a mirror: column `x` becomes `columns - 1 - x`.
    #[inline]
    pub(super) fn mirror(&self, plane: T) -> T {
        if let Some(swaps) = &self.swaps {
            let steps = &swaps.steps[..swaps.count];
            let mirrored = steps.iter().fold(plane, |x, &(first, shift)| {
                let t = (x >> shift ^ x) & first;
                x ^ t ^ t << shift
            });
            return mirrored >> swaps.padding;
        }
        let h = self.height;
        let column = T::low(h);
        (0..self.columns).fold(T::default(), |mirrored, x| {
            mirrored | (plane >> (x * h) & column) << ((self.columns - 1 - x) * h)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardRng, Colour};

    /// Plays random games on the board and on planes of `T` side by side,
    /// under every variant of the rules.
    fn play_alike<T: Bits>(shapes: &[(u32, u32, u8)]) {
        let mut rng = BoardRng::new(5);
        for rules in Rules::ALL {
            for &(w, h, colours) in shapes {
                play_alike_under::<T>(&mut rng, (w, h, colours), rules);
            }
        }
    }

    fn play_alike_under<T: Bits>(
        rng: &mut BoardRng,
        (w, h, colours): (u32, u32, u8),
        rules: Rules,
    ) {
        let empty = Board::empty(w as u8, h as u8).unwrap();
        let shape = Shape::<T>::of(&empty, rules);
        for _ in 0..30 {
            let mut board = rng.board(w as u8, h as u8, colours).unwrap();
            while !board.is_cleared() {
                let planes = Planes::<T>::of(&board);
                let clusters = board.clusters();
                let cluster = clusters[rng.below(clusters.len() as u64) as usize];
                let cells = T::from_u128(cluster.cells.0);
                let after = board.remove_under(cluster.cells, rules);
                assert_eq!(
                    shape.remove(&planes, cells),
                    Planes::of(&after),
                    "{rules} {board} {cluster:?}"
                );
                let plane = planes.colour[cluster.colour.index() as usize];
                assert_eq!(shape.clusters(plane).filter(|&c| c == cells).count(), 1);
                board = after;
            }
            assert!(Planes::<T>::of(&board).is_cleared());
        }
    }

    #[test]
    fn planes_play_as_the_board_does() {
        let small = [
            (8, 6, 5),
            (7, 5, 4),
            (4, 8, 3),
            (9, 3, 8),
            (1, 5, 2),
            (8, 8, 5),
        ];
        play_alike::<u64>(&small);
        play_alike::<u128>(&small);
        play_alike::<u128>(&[(16, 8, 6), (11, 11, 5), (13, 9, 7)]);
    }

    fn mirror_alike<T: Bits>(shapes: &[(u32, u32)]) {
        let mut rng = BoardRng::new(9);
        for &(w, h) in shapes {
            let shape = Shape::<T>::new(w, h, w / 2, Rules::default());
            for _ in 0..5 {
                let board = rng.board(w as u8, h as u8, 5).unwrap();
                let mirrored = Planes::<T>::of(&board.mirrored());
                for (plane, mirror) in Planes::of(&board).colour.iter().zip(mirrored.colour) {
                    assert_eq!(shape.mirror(*plane), mirror, "{board}");
                }
            }
        }
    }

    #[test]
    fn a_mirrored_plane_is_the_mirrored_board() {
        // Swaps of column blocks where the columns, padded to a power of
        // two, fit (all but 9x7 in u64 and 11x11 in u128), else a loop.
        mirror_alike::<u64>(&[(8, 6), (7, 5), (3, 5), (1, 4), (9, 7)]);
        mirror_alike::<u128>(&[(8, 6), (7, 5), (16, 8), (9, 8), (11, 11)]);
    }

    #[test]
    fn the_cluster_estimate_counts_clusters_without_holes() {
        let estimate = |text: &str| {
            let board: Board = text.parse().unwrap();
            Shape::<u128>::of(&board, Rules::default())
                .cluster_estimate(Planes::of(&board).colour[0])
        };
        assert_eq!(estimate("GG,GG"), 1);
        assert_eq!(estimate("G G,GGG"), 1);
        assert_eq!(estimate("GOG,GOG"), 2);
        // A ring: one cluster around a hole.
        assert_eq!(estimate("GGG,GOG,GGG"), 0);
        let mut rng = BoardRng::new(3);
        for _ in 0..100 {
            let board = rng.board(8, 6, 3).unwrap();
            let shape = Shape::<u128>::of(&board, Rules::default());
            let planes = Planes::of(&board);
            let clusters = board.clusters();
            for colour in Colour::all(3) {
                let plane = planes.colour[colour.index() as usize];
                let exact = clusters.iter().filter(|c| c.colour == colour).count() as u32;
                assert!(shape.cluster_estimate(plane) <= exact, "{board}");
            }
        }
    }
}
