//! Reproducible random boards for benchmarks, tests and practice games.

use super::board::Board;
use super::cell::Colour;
use super::parse::BoardError;

/// A small deterministic generator (SplitMix64): the same seed gives the same
/// boards on every machine and every version, which a benchmark needs.
#[derive(Clone, Debug)]
pub struct BoardRng(u64);

impl BoardRng {
    pub fn new(seed: u64) -> BoardRng {
        BoardRng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, `n > 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        // Multiply-shift: unbiased enough for n far below 2^32.
        ((self.next_u64() >> 32) * n) >> 32
    }

    /// A full board, each cell a uniformly drawn colour of `colours`.
    pub fn board(&mut self, width: u8, height: u8, colours: u8) -> Result<Board, BoardError> {
        let colours = colours.max(1);
        Board::from_fn(width, height, |_| {
            Colour::new(self.below(colours as u64) as u8)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_board_and_all_colours_appear() {
        let a = BoardRng::new(7).board(8, 6, 5).unwrap();
        let b = BoardRng::new(7).board(8, 6, 5).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, BoardRng::new(8).board(8, 6, 5).unwrap());
        assert_eq!(a.tile_count(), 48);
        let mut rng = BoardRng::new(1);
        let mut seen = 0u8;
        for _ in 0..20 {
            seen |= rng.board(8, 6, 5).unwrap().colour_bits();
        }
        assert_eq!(seen, 0b11111);
    }
}
