//! The board and the one rule that changes it: a move.

use std::fmt;

use thiserror::Error;

use super::cell::{Cell, CellSet, Colour};
use super::parse::BoardError;
use super::rules::Rules;
use super::{MAX_CELLS, MAX_COLOURS};

/// A board of `width` x `height` cells, each empty or holding one colour.
///
/// Cells are stored column by column (`index = x * height + y`) so that
/// gravity works on contiguous runs. The value is `Copy` and small (130
/// bytes), so searches can keep boards on the stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    /// 0 is empty, `c + 1` is colour `c`.
    cells: [u8; MAX_CELLS],
}

/// A 4-connected group of same-coloured tiles: what one click removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cluster {
    /// The cluster's first cell in the seed's scan order (bottom row first,
    /// left to right), so printed moves match the article's.
    pub cell: Cell,
    pub colour: Colour,
    pub size: u8,
    pub cells: CellSet,
}

/// The clusters of a board, kept on the stack: a board has at most
/// [`MAX_CELLS`] clusters (every tile alone).
#[derive(Clone, Debug)]
pub struct ClusterList {
    len: usize,
    items: [Cluster; MAX_CELLS],
}

impl ClusterList {
    const BLANK: Cluster = Cluster {
        cell: Cell::new(0, 0),
        colour: match Colour::new(0) {
            Some(c) => c,
            None => unreachable!(),
        },
        size: 0,
        cells: CellSet::EMPTY,
    };

    pub fn as_slice(&self) -> &[Cluster] {
        &self.items[..self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Cluster] {
        &mut self.items[..self.len]
    }

    /// Orders the clusters biggest first; equal sizes keep scan order.
    pub fn sort_biggest_first(&mut self) {
        self.as_mut_slice()
            .sort_by_key(|c| std::cmp::Reverse(c.size));
    }
}

impl std::ops::Deref for ClusterList {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        self.as_slice()
    }
}

/// Why a click cannot be played.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    #[error("cell {cell} is outside the {width}x{height} board")]
    OutOfBounds { cell: Cell, width: u8, height: u8 },
    #[error("cell {cell} is empty: clicking it does nothing")]
    EmptyCell { cell: Cell },
}

/// One played move and the board it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub cell: Cell,
    pub colour: Colour,
    pub size: u8,
    pub board_after: Board,
}

/// Plays `clicks` in order from `board`, returning every step.
pub fn replay(board: &Board, clicks: &[Cell]) -> Result<Vec<Step>, MoveError> {
    replay_under(board, clicks, Rules::CentreRows)
}

/// [`replay`] under `rules`.
pub fn replay_under(board: &Board, clicks: &[Cell], rules: Rules) -> Result<Vec<Step>, MoveError> {
    let mut current = *board;
    clicks
        .iter()
        .map(|&cell| {
            let cluster = current.cluster_at(cell)?;
            current = current.remove_under(cluster.cells, rules);
            Ok(Step {
                cell,
                colour: cluster.colour,
                size: cluster.size,
                board_after: current,
            })
        })
        .collect()
}

impl Board {
    /// An empty board. Fails when the shape has no cells or more than
    /// [`MAX_CELLS`].
    pub fn empty(width: u8, height: u8) -> Result<Board, BoardError> {
        let cells = width as usize * height as usize;
        if cells == 0 || cells > MAX_CELLS {
            return Err(BoardError::Size {
                width: width.into(),
                height: height.into(),
            });
        }
        Ok(Board {
            width,
            height,
            cells: [0; MAX_CELLS],
        })
    }

    /// Builds a board from a function of each cell, checking the game's
    /// shape: no tile may float above an empty cell.
    pub fn from_fn(
        width: u8,
        height: u8,
        mut colour_at: impl FnMut(Cell) -> Option<Colour>,
    ) -> Result<Board, BoardError> {
        let mut board = Board::empty(width, height)?;
        for x in 0..width {
            for y in 0..height {
                let cell = Cell::new(x, y);
                if let Some(colour) = colour_at(cell) {
                    let index = board.index(cell);
                    board.cells[index] = colour.index() + 1;
                }
            }
        }
        board.check_no_floating()?;
        Ok(board)
    }

    fn check_no_floating(&self) -> Result<(), BoardError> {
        for x in 0..self.width {
            for y in 1..self.height {
                let cell = Cell::new(x, y);
                let below = Cell::new(x, y - 1);
                if self.get(cell).is_some() && self.get(below).is_none() {
                    return Err(BoardError::Floating {
                        row: self.height - y,
                        cell,
                    });
                }
            }
        }
        Ok(())
    }

    pub const fn width(&self) -> u8 {
        self.width
    }

    pub const fn height(&self) -> u8 {
        self.height
    }

    /// Number of cells, `width * height`.
    pub const fn size(&self) -> usize {
        self.width as usize * self.height as usize
    }

    #[inline]
    pub const fn index(&self, cell: Cell) -> usize {
        cell.x as usize * self.height as usize + cell.y as usize
    }

    #[inline]
    pub const fn cell_of(&self, index: usize) -> Cell {
        Cell::new(
            (index / self.height as usize) as u8,
            (index % self.height as usize) as u8,
        )
    }

    pub const fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// The colour at `cell`, or `None` when it is empty or off the board.
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Colour> {
        if !self.contains(cell) {
            return None;
        }
        match self.cells[self.index(cell)] {
            0 => None,
            v => Colour::new(v - 1),
        }
    }

    /// The raw cell values in index order: 0 empty, `c + 1` colour `c`.
    #[inline]
    pub fn raw(&self) -> &[u8] {
        &self.cells[..self.size()]
    }

    /// True when every tile is gone: the game is won.
    pub fn is_cleared(&self) -> bool {
        self.raw().iter().all(|&v| v == 0)
    }

    /// True when every cell holds a tile: a game no click has touched.
    pub fn is_full(&self) -> bool {
        self.raw().iter().all(|&v| v != 0)
    }

    pub fn tile_count(&self) -> usize {
        self.raw().iter().filter(|&&v| v != 0).count()
    }

    /// The colours present, one bit per colour index.
    #[inline]
    pub fn colour_bits(&self) -> u8 {
        self.raw()
            .iter()
            .fold(0u16, |bits, &v| bits | 1 << v)
            .wrapping_shr(1) as u8
    }

    /// How many different colours are left: each needs at least one move.
    #[inline]
    pub fn colours_left(&self) -> u32 {
        self.colour_bits().count_ones()
    }

    /// The cells holding `colour`.
    pub fn cells_of(&self, colour: Colour) -> CellSet {
        let value = colour.index() + 1;
        let mut set = CellSet::EMPTY;
        for (index, &v) in self.raw().iter().enumerate() {
            if v == value {
                set = set.with(index);
            }
        }
        set
    }

    /// Cells of the bottom row (`y = 0`); shifting a set up or down by one
    /// must not wrap from one column into the next.
    fn row_mask(&self, y: u8) -> u128 {
        (0..self.width).fold(0u128, |m, x| {
            m | 1u128 << (x as usize * self.height as usize + y as usize)
        })
    }

    fn all_mask(&self) -> u128 {
        if self.size() == MAX_CELLS {
            u128::MAX
        } else {
            (1u128 << self.size()) - 1
        }
    }

    /// Grows `seed` to its 4-connected component inside `within`.
    fn flood(&self, seed: u128, within: u128) -> u128 {
        let h = self.height as u32;
        let not_bottom = !self.row_mask(0);
        let not_top = !self.row_mask(self.height - 1);
        let mut set = seed & within;
        loop {
            let grown = set | (set << 1 & not_bottom) | (set >> 1 & not_top) | set << h | set >> h;
            let grown = grown & within;
            if grown == set {
                return set;
            }
            set = grown;
        }
    }

    /// The first cell of `cells` in the seed's scan order: lowest row, then
    /// leftmost.
    fn first_in_scan_order(&self, cells: u128) -> Cell {
        for y in 0..self.height {
            let row = cells & self.row_mask(y);
            if row != 0 {
                return self.cell_of(row.trailing_zeros() as usize);
            }
        }
        unreachable!("an empty cluster has no first cell")
    }

    fn cluster_from(&self, cells: u128, colour: Colour) -> Cluster {
        Cluster {
            cell: self.first_in_scan_order(cells),
            colour,
            size: cells.count_ones() as u8,
            cells: CellSet(cells),
        }
    }

    /// The cluster a click on `cell` removes.
    pub fn cluster_at(&self, cell: Cell) -> Result<Cluster, MoveError> {
        if !self.contains(cell) {
            return Err(MoveError::OutOfBounds {
                cell,
                width: self.width,
                height: self.height,
            });
        }
        let colour = self.get(cell).ok_or(MoveError::EmptyCell { cell })?;
        let cells = self.flood(1u128 << self.index(cell), self.cells_of(colour).0);
        Ok(self.cluster_from(cells, colour))
    }

    /// Every cluster, in the seed's scan order (bottom row first, left to
    /// right, by each cluster's first cell).
    pub fn clusters(&self) -> ClusterList {
        let mut list = ClusterList {
            len: 0,
            items: [ClusterList::BLANK; MAX_CELLS],
        };
        let mut per_colour = [0u128; MAX_COLOURS as usize];
        for (index, &v) in self.raw().iter().enumerate() {
            if v != 0 {
                per_colour[v as usize - 1] |= 1u128 << index;
            }
        }
        let mut found = [0u128; MAX_COLOURS as usize];
        for y in 0..self.height {
            for x in 0..self.width {
                let index = self.index(Cell::new(x, y));
                let v = self.cells[index];
                if v == 0 || found[v as usize - 1] >> index & 1 == 1 {
                    continue;
                }
                let c = v as usize - 1;
                let cells = self.flood(1u128 << index, per_colour[c]);
                found[c] |= cells;
                list.items[list.len] = Cluster {
                    cell: Cell::new(x, y),
                    colour: Colour::new(c as u8).expect("stored colours are valid"),
                    size: cells.count_ones() as u8,
                    cells: CellSet(cells),
                };
                list.len += 1;
            }
        }
        list
    }

    /// Plays a click on `cell`: the board after the move and the cluster it
    /// removed.
    ///
    /// ```
    /// use dustbot::game::{Board, Cell};
    ///
    /// // Cells count from the bottom-left; any cluster goes, a single
    /// // tile too, and an empty cell is no move.
    /// let board: Board = "RRB,BBR".parse()?;
    /// let (after, removed) = board.play(Cell::new(0, 1)).unwrap();
    /// assert_eq!((removed.colour.letter(), removed.size), ('R', 2));
    /// // What is left of the top row closes up toward the centre.
    /// assert_eq!(after.to_string(), " B ,BBR");
    /// assert!(after.play(Cell::new(0, 1)).is_err());
    /// # Ok::<(), dustbot::game::BoardError>(())
    /// ```
    pub fn play(&self, cell: Cell) -> Result<(Board, Cluster), MoveError> {
        self.play_under(cell, Rules::CentreRows)
    }

    /// Removes `cells` (a cluster of this board), then applies gravity in
    /// every column and the contraction toward the centre in every row:
    /// [`Board::remove_under`] the default rules.
    pub fn remove(&self, cells: CellSet) -> Board {
        self.remove_under(cells, Rules::CentreRows)
    }

    /// Plays a click on `cell` under `rules`: the board after the move and
    /// the cluster it removed.
    pub fn play_under(&self, cell: Cell, rules: Rules) -> Result<(Board, Cluster), MoveError> {
        let cluster = self.cluster_at(cell)?;
        Ok((self.remove_under(cluster.cells, rules), cluster))
    }

    /// Removes `cells`, then applies gravity in every column and the
    /// second step of `rules`.
    ///
    /// Contract: `cells` is a set of tiles of this board; the rules only
    /// ever remove one cluster, but any set of tiles gives a valid board.
    pub fn remove_under(&self, cells: CellSet, rules: Rules) -> Board {
        let (mut next, heights) = self.fall(cells);
        let heights = &heights[..self.width as usize];
        match rules {
            Rules::CentreRows => next.contract_rows(heights),
            Rules::CentreColumns | Rules::LeftColumns => {
                let h = self.height as usize;
                let fallen = next;
                next.cells[..self.size()].fill(0);
                for (from, to) in column_moves(heights, rules) {
                    next.cells[to * h..(to + 1) * h]
                        .copy_from_slice(&fallen.cells[from * h..(from + 1) * h]);
                }
            }
            Rules::Gravity => {}
        }
        next
    }

    /// Gravity after removing `cells`: every column compacted downward,
    /// keeping order; with each column's height.
    fn fall(&self, cells: CellSet) -> (Board, [u8; MAX_CELLS]) {
        let mut next = *self;
        let h = self.height as usize;
        let w = self.width as usize;
        let removed = cells.0 & self.all_mask();
        // Columns are always bottom-packed, so a height says where a
        // column's tiles are.
        let mut heights = [0u8; MAX_CELLS];
        for (x, height) in heights[..w].iter_mut().enumerate() {
            let column = x * h;
            if removed >> column & ((1u128 << h) - 1) == 0 {
                let cells = &next.cells[column..column + h];
                *height = cells.iter().filter(|&&v| v != 0).count() as u8;
                continue;
            }
            // Branch-free: every tile is written, and kept by moving on.
            let gone = (removed >> column) as u64;
            let mut to = column;
            for from in column..column + h {
                let v = next.cells[from];
                next.cells[to] = v;
                to += usize::from(v != 0 && gone >> (from - column) & 1 == 0);
            }
            next.cells[to..column + h].fill(0);
            *height = (to - column) as u8;
        }
        (next, heights)
    }

    /// The contraction of [`Rules::CentreRows`], row by row, on a board
    /// after gravity whose columns are `heights` tall: each half slides
    /// toward the centre. A half's row has a gap only where a column is
    /// lower than one farther out, so only those rows are redone.
    /// Branch-free: each tile is written to the next free cell, where it
    /// stays if it is a tile; that cell is free or the tile's own.
    fn contract_rows(&mut self, heights: &[u8]) {
        let (h, w) = (self.height as usize, self.width as usize);
        let centre = w / 2;
        let (lo, hi) = gaps(heights[..centre].iter());
        for y in lo..hi {
            let mut to = centre;
            for x in (0..centre).rev() {
                let v = self.cells[x * h + y];
                self.cells[(to - 1) * h + y] = v;
                to -= usize::from(v != 0);
            }
            for x in 0..to {
                self.cells[x * h + y] = 0;
            }
        }
        let (lo, hi) = gaps(heights[centre..w].iter().rev());
        for y in lo..hi {
            let mut to = centre;
            for x in centre..w {
                let v = self.cells[x * h + y];
                self.cells[to * h + y] = v;
                to += usize::from(v != 0);
            }
            for x in to..w {
                self.cells[x * h + y] = 0;
            }
        }
    }

    /// Where every tile that `remove(cells)` keeps goes: `(from, to)` pairs,
    /// for drawing the fall and the contraction as movement (the practice
    /// window). Agrees with [`Board::remove`] (tested).
    pub fn tile_moves(&self, cells: CellSet) -> Vec<(Cell, Cell)> {
        self.tile_moves_under(cells, Rules::CentreRows)
    }

    /// [`Board::tile_moves`] under `rules`; agrees with
    /// [`Board::remove_under`] (tested).
    pub fn tile_moves_under(&self, cells: CellSet, rules: Rules) -> Vec<(Cell, Cell)> {
        let removed = cells.0 & self.all_mask();
        let centre = self.width / 2;
        // After gravity, (from, to-row) per kept tile, grouped by row, and
        // each column's height.
        let mut rows: Vec<Vec<(Cell, u8)>> = vec![Vec::new(); self.height as usize];
        let mut heights = vec![0u8; self.width as usize];
        for x in 0..self.width {
            let mut row = 0;
            for y in 0..self.height {
                let cell = Cell::new(x, y);
                if self.get(cell).is_some() && removed >> self.index(cell) & 1 == 0 {
                    rows[row as usize].push((cell, x));
                    row += 1;
                }
            }
            heights[x as usize] = row;
        }
        let columns: Vec<(usize, usize)> = column_moves(&heights, rules);
        let mut moves = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let y = y as u8;
            match rules {
                Rules::CentreRows => {
                    let (left, right): (Vec<_>, Vec<_>) =
                        row.iter().partition(|(_, x)| *x < centre);
                    let start = centre - left.len() as u8;
                    for (i, (from, _)) in left.iter().enumerate() {
                        moves.push((*from, Cell::new(start + i as u8, y)));
                    }
                    for (i, (from, _)) in right.iter().enumerate() {
                        moves.push((*from, Cell::new(centre + i as u8, y)));
                    }
                }
                _ => moves.extend(row.iter().map(|&(from, x)| {
                    let to = columns
                        .iter()
                        .find(|&&(f, _)| f == x as usize)
                        .map_or(x, |&(_, t)| t as u8);
                    (from, Cell::new(to, y))
                })),
            }
        }
        moves
    }

    /// The board seen in a mirror (`x -> width-1-x`): a game of the same
    /// length when the width is even. At an odd width the middle column
    /// belongs to the right half, so the mirror image plays another game.
    pub fn mirrored(&self) -> Board {
        let mut next = *self;
        for x in 0..self.width {
            for y in 0..self.height {
                let from = self.index(Cell::new(x, y));
                let to = self.index(Cell::new(self.width - 1 - x, y));
                next.cells[to] = self.cells[from];
            }
        }
        next
    }

    /// The board with colour `c` replaced by `map[c]`. `map` must be a
    /// permutation of the colours in use.
    pub fn relabelled(&self, map: &[Colour]) -> Board {
        let mut next = *self;
        for v in next.cells[..self.size()].iter_mut() {
            if *v != 0 {
                *v = map[*v as usize - 1].index() + 1;
            }
        }
        next
    }

    /// A grid with coordinates, as the seed prints it: the top row first.
    pub fn grid(&self) -> Grid<'_> {
        Grid(self)
    }
}

/// A board drawn as a grid with row and column numbers.
#[derive(Debug)]
pub struct Grid<'a>(&'a Board);

impl fmt::Display for Grid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.0;
        write!(f, "  |")?;
        for x in 0..board.width {
            write!(f, " {}", x % 10)?;
        }
        writeln!(f)?;
        writeln!(f, "--+{}", "-".repeat(2 * board.width as usize))?;
        for y in (0..board.height).rev() {
            write!(f, "{} |", y % 10)?;
            for x in 0..board.width {
                let letter = board.get(Cell::new(x, y)).map_or(' ', Colour::letter);
                write!(f, " {letter}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Display for Board {
    /// The board string of `RULES.md`: rows from the top, comma-separated.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.height).rev() {
            for x in 0..self.width {
                let letter = self.get(Cell::new(x, y)).map_or(' ', Colour::letter);
                write!(f, "{letter}")?;
            }
            if y > 0 {
                write!(f, ",")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    /// A picture, so a failing assert shows the board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board \"{self}\"")?;
        write!(f, "{}", self.grid())
    }
}

/// Where each non-empty column goes (`(from, to)` in columns) when the
/// columns close up under `rules`, on a board after gravity whose columns
/// are `heights` tall (a column is empty when its height is 0): toward the
/// left under [`Rules::LeftColumns`], toward the centre by halves under
/// [`Rules::CentreColumns`], nowhere under the others.
fn column_moves(heights: &[u8], rules: Rules) -> Vec<(usize, usize)> {
    let full = |range: std::ops::Range<usize>| range.filter(|&x| heights[x] > 0);
    let w = heights.len();
    match rules {
        Rules::LeftColumns => full(0..w)
            .enumerate()
            .map(|(to, from)| (from, to))
            .collect(),
        Rules::CentreColumns => {
            let centre = w / 2;
            let left: Vec<usize> = full(0..centre).collect();
            let start = centre - left.len();
            let right = full(centre..w)
                .enumerate()
                .map(|(i, from)| (from, centre + i));
            left.iter()
                .enumerate()
                .map(|(i, &from)| (from, start + i))
                .chain(right)
                .collect()
        }
        Rules::CentreRows | Rules::Gravity => full(0..w).map(|x| (x, x)).collect(),
    }
}

/// The rows `lo..hi` of a half that need contracting, given its column
/// heights from the outer edge toward the centre: a row has a gap where a
/// column is lower than one farther out.
fn gaps<'a>(outer_to_centre: impl Iterator<Item = &'a u8>) -> (usize, usize) {
    let (mut lo, mut hi, mut highest) = (usize::MAX, 0, 0);
    for &height in outer_to_centre {
        let height = height as usize;
        if height < highest {
            lo = lo.min(height);
            hi = highest;
        }
        highest = highest.max(height);
    }
    (lo.min(hi), hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = crate::game::EXAMPLE_BOARD;

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    /// RULES.md, "Rule variants": under each variant, four clicks from one
    /// start, as (click, cluster size, board after).
    const VARIANT_START: &str = "YBBGYGBB,GYOYYOYB,BBGYYYRB,YBRRBRYR,BRRGGOBG,OYYGRYGB";
    /// A click `(x, y)`, the size of the cluster it takes, the board after.
    type Click = ((u8, u8), u8, &'static str);
    const VARIANT_VECTORS: [(Rules, [Click; 4]); 4] = [
        (
            Rules::CentreRows,
            [
                (
                    (3, 3),
                    6,
                    " YBBBB  , GYOGYB ,BBGGORB ,YBRRBRYR,BRRGGOBG,OYYGRYGB",
                ),
                (
                    (1, 1),
                    4,
                    "    BB  ,  YBGYB ,BGBOORB ,YBYGBRYR,BBGGGOBG,OYYGRYGB",
                ),
                (
                    (2, 1),
                    5,
                    "    B   ,    BYB , BGYGRB , YBBORYR,BBYBBOBG,OYYORYGB",
                ),
                (
                    (2, 2),
                    4,
                    "        ,    BYB ,   BBRB ,  YGGRYR,BBYYOOBG,OYYORYGB",
                ),
            ],
        ),
        (
            Rules::CentreColumns,
            [
                (
                    (3, 3),
                    6,
                    "YBB   BB,GYO  GYB,BBGG ORB,YBRRBRYR,BRRGGOBG,OYYGRYGB",
                ),
                (
                    (1, 1),
                    4,
                    "Y     BB,GB   GYB,BYB  ORB,YBOGBRYR,BBGGGOBG,OYYGRYGB",
                ),
                (
                    (2, 1),
                    5,
                    " Y    BB, GB  GYB, BY  ORB, YBB RYR, BBOBOBG, OYYRYGB",
                ),
                (
                    (1, 1),
                    4,
                    "      BB, Y   GYB, G   ORB, BB  RYR, YYOBOBG, OYYRYGB",
                ),
            ],
        ),
        (
            Rules::LeftColumns,
            [
                (
                    (3, 3),
                    6,
                    "YBB   BB,GYO  GYB,BBGG ORB,YBRRBRYR,BRRGGOBG,OYYGRYGB",
                ),
                (
                    (1, 1),
                    4,
                    "Y     BB,GB   GYB,BYB  ORB,YBOGBRYR,BBGGGOBG,OYYGRYGB",
                ),
                (
                    (2, 1),
                    5,
                    "Y    BB ,GB  GYB ,BY  ORB ,YBB RYR ,BBOBOBG ,OYYRYGB ",
                ),
                (
                    (0, 1),
                    4,
                    "     BB ,Y   GYB ,G   ORB ,BB  RYR ,YYOBOBG ,OYYRYGB ",
                ),
            ],
        ),
        (
            Rules::Gravity,
            [
                (
                    (3, 3),
                    6,
                    "YBB   BB,GYO  GYB,BBGG ORB,YBRRBRYR,BRRGGOBG,OYYGRYGB",
                ),
                (
                    (1, 1),
                    4,
                    "Y     BB,GB   GYB,BYB  ORB,YBOGBRYR,BBGGGOBG,OYYGRYGB",
                ),
                (
                    (2, 1),
                    5,
                    "Y     BB,GB   GYB,BY   ORB,YBB  RYR,BBO BOBG,OYY RYGB",
                ),
                (
                    (0, 1),
                    4,
                    "      BB,Y    GYB,G    ORB,BB   RYR,YYO BOBG,OYY RYGB",
                ),
            ],
        ),
    ];

    #[test]
    fn a_board_is_full_until_its_first_click() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        assert!(board.is_full());
        let (after, _) = board.play(Cell::new(7, 0)).unwrap();
        assert!(!after.is_full());
        assert!(!Board::empty(8, 6).unwrap().is_full());
    }

    #[test]
    fn every_variant_plays_its_rules_md_vectors() {
        for (rules, clicks) in VARIANT_VECTORS {
            let mut current = board(VARIANT_START);
            for ((x, y), size, after) in clicks {
                // Each click takes the largest cluster, ties to the lowest
                // x then y.
                let clusters = current.clusters();
                let largest = clusters.iter().map(|c| c.size).max().unwrap();
                let first = clusters
                    .iter()
                    .filter(|c| c.size == largest)
                    .flat_map(|c| c.cells.indices().map(|i| current.cell_of(i)))
                    .min_by_key(|c| (c.x, c.y))
                    .unwrap();
                let cell = Cell::new(x, y);
                assert_eq!(current.cluster_at(first), current.cluster_at(cell));
                let (next, cluster) = current.play_under(cell, rules).unwrap();
                assert_eq!(cluster.size, size, "{rules} {cell}");
                assert_eq!(next, board(after), "{rules} {cell}\n{}", next.grid());
                current = next;
            }
        }
    }

    #[test]
    fn tile_moves_agree_with_every_variant() {
        let mut rng = crate::game::BoardRng::new(11);
        for rules in Rules::ALL {
            for (w, h) in [(8, 6), (7, 5), (1, 4), (9, 3)] {
                let mut current = rng.board(w, h, 4).unwrap();
                while !current.is_cleared() {
                    let clusters = current.clusters();
                    let cluster = clusters[rng.below(clusters.len() as u64) as usize];
                    let after = current.remove_under(cluster.cells, rules);
                    let mut moved = Board::empty(w, h).unwrap();
                    for (from, to) in current.tile_moves_under(cluster.cells, rules) {
                        moved.cells[moved.index(to)] = current.cells[current.index(from)];
                    }
                    assert_eq!(moved, after, "{rules} {w}x{h}");
                    current = after;
                }
            }
        }
    }

    #[test]
    fn tile_moves_agree_with_remove() {
        let mut rng = crate::game::BoardRng::new(7);
        for _ in 0..50 {
            let mut b = rng.board(8, 6, 5).unwrap();
            while !b.is_cleared() {
                for cluster in b.clusters().iter() {
                    let after = b.remove(cluster.cells);
                    let moves = b.tile_moves(cluster.cells);
                    assert_eq!(moves.len(), after.tile_count());
                    let moved = Board::from_fn(8, 6, |c| {
                        moves.iter().find(|m| m.1 == c).and_then(|m| b.get(m.0))
                    })
                    .unwrap();
                    assert_eq!(moved, after, "{b} minus {cluster:?}");
                }
                let first = b.clusters()[0];
                b = b.remove(first.cells);
            }
        }
    }

    #[test]
    fn real_board_has_the_articles_28_clusters() {
        let b = board(REAL);
        assert_eq!(b.clusters().len(), 28);
        assert_eq!(b.colours_left(), 5);
        assert_eq!(b.tile_count(), 48);
    }

    #[test]
    fn first_move_of_the_seed_solution() {
        let b = board(REAL);
        let (after, cluster) = b.play(Cell::new(7, 0)).unwrap();
        assert_eq!(cluster.size, 5);
        assert_eq!(cluster.colour.letter(), 'G');
        assert_eq!(
            after.to_string(),
            "GGGGBO  ,RORGYGY ,RRBGOOB ,BRBOBYR ,BRYBBRRO,OYGGRORY"
        );
    }

    #[test]
    fn clicking_empty_or_outside_is_an_error() {
        let b = board("  ,G ");
        assert_eq!(
            b.play(Cell::new(1, 0)).unwrap_err(),
            MoveError::EmptyCell {
                cell: Cell::new(1, 0)
            }
        );
        assert!(matches!(
            b.play(Cell::new(2, 0)),
            Err(MoveError::OutOfBounds { .. })
        ));
    }

    #[test]
    fn contraction_is_per_row_and_can_split_a_column() {
        let b = board("O   ,GRBY");
        let (after, _) = b.play(Cell::new(1, 0)).unwrap();
        // Gravity first: O stays on G; then row 0 "G BY" -> " GBY", row 1
        // "O   " -> " O  ".
        assert_eq!(after.to_string(), " O  , GBY");
        // A split: the bottom row loses a left-half tile, the row above
        // does not, so the upper tile ends in another column than its base.
        let b = board("O   ,GGRB,YRRB");
        let (after, _) = b.play(Cell::new(0, 1)).unwrap();
        // Column 0: O falls onto Y. Rows: "    ", "O RB" -> " ORB", "YRRB".
        assert_eq!(after.to_string(), "    , ORB,YRRB");
        // A board given with a gap is contracted by the first move, even in
        // rows the move does not touch.
        let b = board("G   ,GR B,GRBB");
        let (after, _) = b.play(Cell::new(3, 0)).unwrap();
        assert_eq!(after.to_string(), " G  ,GR  ,GR  ");
    }

    #[test]
    fn mirror_and_relabel_keep_clusters() {
        let b = board(REAL);
        assert_eq!(b.mirrored().clusters().len(), 28);
        assert_eq!(b.mirrored().mirrored(), b);
        let map: Vec<Colour> = [4, 3, 2, 1, 0]
            .iter()
            .map(|&i| Colour::new(i).unwrap())
            .collect();
        assert_eq!(b.relabelled(&map).clusters().len(), 28);
    }

    #[test]
    fn debug_draws_the_grid() {
        let text = format!("{:?}", board("GO,RY"));
        assert!(text.contains("1 | G O"), "{text}");
        assert!(text.contains("0 | R Y"), "{text}");
    }
}
