//! Cells (board coordinates), colours (dust kinds) and sets of cells.

use std::fmt;

use super::MAX_COLOURS;

/// A cell of the board: `x` is the column (0 at the left), `y` the row (0 at
/// the bottom), as in `RULES.md`. Board coordinates, never pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

impl Cell {
    pub const fn new(x: u8, y: u8) -> Cell {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// One kind of dust pile. The real game has five; boards of up to
/// [`MAX_COLOURS`] are supported for tests and experiments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Colour(u8);

impl Colour {
    /// The letters of the board string format, in colour order. The first
    /// five are the real game's (`RULES.md`); the rest serve larger boards.
    pub const LETTERS: [char; MAX_COLOURS as usize] = ['G', 'O', 'R', 'Y', 'B', 'C', 'P', 'W'];
    /// The game's own names for the first five colours.
    pub const NAMES: [&'static str; MAX_COLOURS as usize] = [
        "green", "orange", "red", "yellow", "blue", "cyan", "purple", "white",
    ];

    /// The colour with this index, if it is below [`MAX_COLOURS`].
    pub const fn new(index: u8) -> Option<Colour> {
        if index < MAX_COLOURS {
            Some(Colour(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn letter(self) -> char {
        Colour::LETTERS[self.0 as usize]
    }

    pub const fn name(self) -> &'static str {
        Colour::NAMES[self.0 as usize]
    }

    pub fn from_letter(letter: char) -> Option<Colour> {
        Colour::LETTERS
            .iter()
            .position(|&l| l == letter)
            .map(|i| Colour(i as u8))
    }

    /// All colours of a game with `count` colours.
    pub fn all(count: u8) -> impl Iterator<Item = Colour> {
        (0..count.min(MAX_COLOURS)).map(Colour)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A set of cells of one board, one bit per cell at the board's index
/// `x * height + y` (columns are contiguous, so a column is a run of bits).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet(pub u128);

impl CellSet {
    pub const EMPTY: CellSet = CellSet(0);

    #[inline]
    pub const fn contains(self, index: usize) -> bool {
        self.0 >> index & 1 == 1
    }

    #[inline]
    pub const fn with(self, index: usize) -> CellSet {
        CellSet(self.0 | 1 << index)
    }

    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The indices in the set, lowest first.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(index)
        })
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CellSet({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for colour in Colour::all(MAX_COLOURS) {
            assert_eq!(Colour::from_letter(colour.letter()), Some(colour));
        }
        assert_eq!(Colour::from_letter('X'), None);
        assert_eq!(Colour::from_letter(' '), None);
        assert_eq!(Colour::new(MAX_COLOURS), None);
    }

    #[test]
    fn cell_set_iterates_lowest_first() {
        let set = CellSet::EMPTY.with(3).with(0).with(127);
        assert_eq!(set.indices().collect::<Vec<_>>(), vec![0, 3, 127]);
        assert_eq!(set.len(), 3);
        assert!(set.contains(127) && !set.contains(1));
    }
}
