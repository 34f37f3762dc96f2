//! The halves bound. Under `centre-rows`, `centre-columns` and `gravity`
//! tiles never cross the middle of the board: gravity keeps a tile in its
//! column, and the second step slides it (alone in its row, or with its
//! whole column) toward the centre within its own half, or not at all.
//! And what a half's tiles do depends only on which of that half's tiles
//! a move removes. So each half plays a game of its own under the same
//! rules, coupled to the other only through clusters that span the
//! middle. Under `left-columns` the right half's columns slide across the
//! middle into the left half, and the bound does not hold: [`Halves::new`]
//! gives none there (the exact search plays `left-columns` as
//! `centre-columns`, the same game, see `exact`; both are tested against
//! breadth-first search in `tests/suite/solver_correctness.rs`).
//!
//! Seen from one half, a move of the whole game removes either one cluster
//! of that half, or (a move whose cluster spans the middle) a set of its
//! clusters of one colour that all touch the centre column, of a colour the
//! other half still has. Counting a move that stays in one half as 2 and a
//! spanning move as 1 on each side, the cheapest way to clear each half in
//! that relaxed game, summed and halved, never exceeds the moves the whole
//! board needs. A relaxed game has half the cells, and its value depends
//! neither on the path nor on the budget, so each is worked out once, by a
//! small iterative deepening on bit planes, and kept in a table shared by
//! all threads.

use crate::game::{Board, MAX_COLOURS, Rules};

use super::Deadline;
use super::key::{Key, hash_set};
use super::planes::{Bits, Planes, Shape};
use super::table::{self, Table};

/// How many moves of a relaxed position are made, and their buckets in
/// the table asked for, before the first of them is searched: a bucket's
/// miss is met over two moves' work rather than one (three gain nothing
/// more, see BENCHMARKS.md).
const AHEAD: usize = 2;

/// The relaxed games enumerate every set of centre clusters of a colour: a
/// column of this many rows holds at most 4 clusters of one colour, so at
/// most 11 sets. Taller boards go without the bound.
const MAX_HEIGHT: usize = 8;

/// A side's cells are one bit each in a `u64`.
const MAX_SIDE_CELLS: usize = 64;

/// Marks a table entry as a relaxed game's exact value, not just a bound:
/// the top bit of an entry's data, so a value or bound is stored only up
/// to `EXACT - 1` (a bound stored lower only weakens; an exact value
/// that high, from a side of over 63 clusters, is kept as that bound).
const EXACT: u32 = table::MAX_DATA / 2 + 1;

/// How many relaxed positions a value's search visits between two looks at
/// the clock: a relaxed game of a wide board's half can take minutes, and
/// the search must stop at its deadline.
const CLOCK_EVERY: u32 = 1024;

/// The relaxed games of a board shape and the table of their values.
pub(super) struct Halves {
    /// Left, right.
    sides: [Side; 2],
    table: Table,
    /// When the search stops: past it, every relaxed game not yet settled
    /// is taken as feasible, which only weakens the bound.
    deadline: Deadline,
}

/// One value's look at the clock, every [`CLOCK_EVERY`] positions.
struct Clock {
    deadline: Deadline,
    ticks: u32,
    expired: bool,
}

impl Clock {
    fn new(deadline: Deadline) -> Clock {
        Clock {
            deadline,
            ticks: 0,
            expired: false,
        }
    }

    /// True once the deadline has passed (looked at now and then).
    #[inline]
    fn expired(&mut self) -> bool {
        if !self.expired {
            self.ticks += 1;
            if self.ticks == CLOCK_EVERY {
                self.ticks = 0;
                self.expired = self.deadline.passed();
            }
        }
        self.expired
    }
}

/// One side of the board as its relaxed game sees it: the board's cells
/// of that side, in the board's order (cell `c * height + y` of its column
/// `c`), every row (or column) sliding toward the centre.
struct Side {
    shape: Shape<u64>,
    /// Where the side's cells start in a board's bit planes.
    offset: u32,
    /// The board cells of this side.
    board_cells: u128,
    /// The side's column next to the other side.
    centre: u64,
}

/// One side's tiles.
type Half = Planes<u64>;

/// A relaxed position's move made ahead of its search (see
/// [`Halves::feasible_keyed`]): the half after it, its key, the colours
/// both sides have, and what the move cost.
type Ahead = (Half, Key, u8, u32);

/// The halves a move touched, prepared for [`Halves::after`]: the colours
/// both sides of the child have, and each touched half with its key.
#[derive(Clone, Copy)]
pub(super) struct Touched {
    cross: u8,
    halves: [Option<(Half, Key)>; 2],
}

impl Halves {
    /// The halves of boards shaped like `board` under `rules`, with a
    /// table of at most `mb` MiB, for a search that stops at `deadline`;
    /// `None` under rules that move tiles across the middle, and for boards
    /// too tall or a side too big for the relaxed games.
    pub(super) fn new(
        board: &Board,
        rules: Rules,
        mb: usize,
        deadline: Deadline,
    ) -> Option<Halves> {
        let (w, h) = (board.width() as usize, board.height() as usize);
        if rules.crosses_middle() || h > MAX_HEIGHT || (w - w / 2) * h > MAX_SIDE_CELLS {
            return None;
        }
        Some(Halves {
            sides: [
                Side::new(w / 2, h, 0, false, rules),
                Side::new(w - w / 2, h, w / 2, true, rules),
            ],
            table: Table::new(mb),
            deadline,
        })
    }

    /// Gives the table room for `mb` MiB (see [`Table::grow`]).
    pub(super) fn grow(&mut self, mb: usize) {
        self.table.grow(mb);
    }

    /// The moves `board` needs at least, by its halves' values.
    pub(super) fn bound(values: [u32; 2]) -> u32 {
        (values[0] + values[1]).div_ceil(2)
    }

    /// The values of both halves of `board`.
    pub(super) fn of<T: Bits>(&self, planes: &Planes<T>) -> [u32; 2] {
        let halves = self.split(planes);
        let cross = halves[0].present & halves[1].present;
        [0, 1].map(|side| {
            let half = &halves[side];
            let key = self.key(half, side, cross);
            let least = self.sides[side].least(half, cross);
            let clock = &mut Clock::new(self.deadline);
            self.settle(half, side, cross, least..=u32::MAX - 1, key, clock)
        })
    }

    /// The first step of [`Halves::after`]: the halves of the board of
    /// planes `child` that the move, which removed `removed`, touched, with
    /// their keys, their buckets in the table asked for (see
    /// [`Table::prefetch`]). A search that prepares all of a board's
    /// children before it takes their values waits on the table's misses
    /// together.
    #[inline]
    pub(super) fn prepare<T: Bits>(&self, child: &Planes<T>, removed: T) -> Touched {
        let cross = self.cross(child);
        let mut halves = [None; 2];
        for (side, relaxed) in self.sides.iter().enumerate() {
            if removed.to_u128() & relaxed.board_cells == 0 {
                continue;
            }
            let half = relaxed.half_of(child);
            let key = self.key(&half, side, cross);
            self.table.prefetch(key);
            halves[side] = Some((half, key));
        }
        Touched { cross, halves }
    }

    /// Bounds on the halves' values of the child `touched` was prepared
    /// from, one move after a board whose values were `parent`, for a
    /// search that has `moves` moves left for it: exact as long as the
    /// child fits in `moves`, else just enough to show that it does not.
    ///
    /// A half the move did not touch keeps its value: it can only have
    /// grown (the other half may have lost a colour), so the old one still
    /// bounds.
    pub(super) fn after(&self, touched: &Touched, parent: [u32; 2], moves: u32) -> [u32; 2] {
        let cross = touched.cross;
        let mut values = parent;
        // The touched sides whose value the table does not know exactly.
        let mut open = [None; 2];
        for (side, relaxed) in self.sides.iter().enumerate() {
            let Some((half, key)) = &touched.halves[side] else {
                continue;
            };
            let stored = self.table.bound(*key);
            if stored & EXACT != 0 {
                values[side] = stored & !EXACT;
            } else {
                values[side] = relaxed.floor(half, cross, stored);
                open[side] = Some((half, *key));
            }
        }
        for side in [0, 1] {
            if let Some((half, key)) = open[side] {
                // The child is out of reach once the two add up to more
                // than two half moves per move left.
                let Some(limit) = (2 * moves).checked_sub(values[1 - side]) else {
                    return values;
                };
                let clock = &mut Clock::new(self.deadline);
                values[side] = self.settle(half, side, cross, values[side]..=limit, key, clock);
            }
        }
        values
    }

    /// The colours both sides of the board of `planes` have.
    #[inline]
    pub(super) fn cross<T: Bits>(&self, planes: &Planes<T>) -> u8 {
        self.sides[0].colours_in(planes) & self.sides[1].colours_in(planes)
    }

    /// A bound on what [`Halves::after`] gives, without playing the move:
    /// the halves' values after the move that takes `cells` of `colour`
    /// from a board whose values are `values` and whose sides both have
    /// the colours of `cross`. In a side's relaxed game that move is one
    /// of its own, which costs 2, or, when it takes clusters of a colour
    /// both sides have that touch the centre (as a move spanning the
    /// middle does), one that costs 1: the side's value falls by no more.
    /// A side the move does not touch keeps its value (see `after`).
    #[inline]
    pub(super) fn at_most_down<T: Bits>(
        &self,
        values: [u32; 2],
        cells: T,
        colour: usize,
        cross: u8,
    ) -> [u32; 2] {
        let cells = cells.to_u128();
        let spans = cross >> colour & 1 != 0;
        let mut after = values;
        for (value, side) in after.iter_mut().zip(&self.sides) {
            if cells & side.board_cells == 0 {
                continue;
            }
            let at_centre = cells & (u128::from(side.centre) << side.offset) != 0;
            *value = value.saturating_sub(if spans && at_centre { 1 } else { 2 });
        }
        after
    }

    /// Side `side` of the board of `planes`, whose sides both have the
    /// colours of `cross`, for telling which of its own moves leave its
    /// value above `limit` (see [`Halves::is_beyond`]), with its slot in
    /// `memo` asked for (see [`Table::prefetch`]).
    pub(super) fn beyond<T: Bits>(
        &self,
        planes: &Planes<T>,
        side: usize,
        cross: u8,
        limit: u32,
        memo: &BeyondMemo,
    ) -> Beyond {
        let half = self.sides[side].half_of(planes);
        let key = self.key(&half, side, cross);
        let slot = (key.slot ^ u64::from(limit)) as usize & (memo.slots.len() - 1);
        table::prefetch(&raw const memo.slots[slot]);
        Beyond {
            half,
            side,
            cross,
            limit,
            check: key.check,
            slot,
        }
    }

    /// Whether the move that takes `cells` stays on the side of `beyond`
    /// and leaves its value above the limit: as `memo` knows, else as
    /// [`Halves::after`] would find it, then kept in `memo`.
    #[inline]
    pub(super) fn is_beyond<T: Bits>(
        &self,
        beyond: &Beyond,
        memo: &mut BeyondMemo,
        cells: T,
    ) -> bool {
        let cells = cells.to_u128();
        let relaxed = &self.sides[beyond.side];
        if cells & self.sides[1 - beyond.side].board_cells != 0 {
            return false;
        }
        let cluster = relaxed.cut(cells);
        let known = &mut memo.slots[beyond.slot];
        // A slot holding another half or limit (the other side's, the two
        // meeting in one slot, or any other board's) is emptied for this.
        if !known.holds(beyond) {
            *known = Known {
                check: beyond.check,
                limit: beyond.limit,
                tried: 0,
                beyond: 0,
            };
        }
        if known.tried & cluster == 0 {
            let child = relaxed.shape.remove(&beyond.half, cluster);
            let clock = &mut Clock::new(self.deadline);
            known.tried |= cluster;
            if !self.feasible(&child, beyond.side, beyond.cross, beyond.limit, clock) {
                known.beyond |= cluster;
            }
        }
        known.beyond & cluster != 0
    }

    /// The board's cells of the clusters `memo` already knows to be beyond
    /// the limit of `beyond`, save those at the centre: at another board
    /// with this side, the other side's tiles may join them across the
    /// middle.
    #[inline]
    pub(super) fn known_beyond<T: Bits>(&self, beyond: &Beyond, memo: &BeyondMemo) -> T {
        let known = &memo.slots[beyond.slot];
        if !known.holds(beyond) {
            return T::default();
        }
        let relaxed = &self.sides[beyond.side];
        let at_centre = relaxed
            .shape
            .flood(known.beyond & relaxed.centre, known.beyond);
        T::from_u128(u128::from(known.beyond & !at_centre) << relaxed.offset)
    }

    /// Both sides of the board of `planes`.
    fn split<T: Bits>(&self, planes: &Planes<T>) -> [Half; 2] {
        self.sides.each_ref().map(|side| side.half_of(planes))
    }

    /// The relaxed game's value of `half` (whose key is `key`), known to
    /// lie in `range` or above, if at most the range's end; else one more
    /// than the end, a bound. `cross` holds the colours both sides have.
    fn settle(
        &self,
        half: &Half,
        side: usize,
        cross: u8,
        range: std::ops::RangeInclusive<u32>,
        key: Key,
        clock: &mut Clock,
    ) -> u32 {
        let limit = *range.end();
        let mut budget = (*range.start()).max(self.table.bound(key) & !EXACT);
        while budget <= limit {
            if self.feasible(half, side, cross, budget, clock) {
                return budget;
            }
            budget += 1;
        }
        budget
    }

    /// True when `half` can be cleared within `budget` half moves in the
    /// relaxed game, where the other side has the colours of `cross`; also
    /// once `clock` has expired, which makes the bound weaker, never wrong
    /// (nothing is stored as infeasible on the strength of it).
    fn feasible(
        &self,
        half: &Half,
        side: usize,
        cross: u8,
        budget: u32,
        clock: &mut Clock,
    ) -> bool {
        let cross = cross & half.present;
        self.feasible_keyed(
            half,
            self.key(half, side, cross),
            side,
            cross,
            budget,
            clock,
        )
    }

    /// [`Halves::feasible`] for a half whose key is `key`, `cross` already
    /// cut to the colours the half has.
    fn feasible_keyed(
        &self,
        half: &Half,
        key: Key,
        side: usize,
        cross: u8,
        budget: u32,
        clock: &mut Clock,
    ) -> bool {
        if half.present == 0 || clock.expired() {
            return true;
        }
        let relaxed = &self.sides[side];
        let stored = self.table.bound(key);
        if stored & EXACT != 0 {
            return stored & !EXACT <= budget;
        }
        if stored > budget {
            return false;
        }
        let least = relaxed.floor(half, cross, stored);
        if least > budget {
            return false;
        }
        // A move wastes what it costs beyond what it takes off the least
        // cost of the colours left (a colour's whole cost when it takes
        // the colour whole, else nothing), and the moves together can waste
        // no more than the budget has to spare.
        let spare = budget - self::least(half.present, cross);
        // Each move's board is made, and its bucket in the table asked
        // for, `AHEAD` moves ahead of its search (in order, a ring): most
        // positions here fail, and a failing one searches all its moves,
        // so the table's misses are met while the search goes on.
        let mut ahead: [Option<Ahead>; AHEAD] = [None; AHEAD];
        let mut next = 0;
        let search = |due: Option<Ahead>, clock: &mut Clock| {
            due.is_some_and(|(child, key, cross, cost)| {
                self.feasible_keyed(&child, key, side, cross, budget - cost, clock)
            })
        };
        // Whether the game is won within the budget after the move made
        // before this one, which takes `cells` at `cost`.
        let mut feasible_before = |cells: u64, cost: u32, clock: &mut Clock| {
            let child = relaxed.shape.remove(half, cells);
            let cross = cross & child.present;
            let key = self.key(&child, side, cross);
            self.table.prefetch(key);
            let due = ahead[next].replace((child, key, cross, cost));
            next = (next + 1) % AHEAD;
            search(due, clock)
        };
        let mut found = false;
        // Spanning moves first: they cost half as much.
        'moves: for spanning in [true, false] {
            let mut colours = if spanning { cross } else { half.present };
            while colours != 0 {
                let colour = colours.trailing_zeros() as usize;
                colours &= colours - 1;
                let plane = half.colour[colour];
                let spans = cross >> colour & 1 != 0;
                if spare == 0 || (spare == 1 && !spanning) {
                    // Every move must take the colour whole: of the moves
                    // below, only one can (no flood of each cluster).
                    let whole = if spanning {
                        // All its clusters touch the centre.
                        relaxed.shape.flood(plane & relaxed.centre, plane) == plane
                    } else {
                        // One cluster, by a move of the side's own (for a
                        // spanning colour, one that wastes the 1 to spare).
                        (!spans || spare == 1 && plane & relaxed.centre == 0)
                            && relaxed.shape.is_one_cluster(plane)
                    };
                    if whole && feasible_before(plane, if spanning { 1 } else { 2 }, clock) {
                        found = true;
                        break 'moves;
                    }
                    continue;
                }
                let colour_cost = if spans { 1 } else { 2 };
                let mut touching = [0u64; MAX_HEIGHT / 2];
                let mut touching_count = 0;
                for cluster in relaxed.shape.clusters(plane) {
                    let cost = if spans && cluster & relaxed.centre != 0 {
                        touching[touching_count] = cluster;
                        touching_count += 1;
                        1
                    } else {
                        2
                    };
                    let waste = if cluster == plane {
                        cost - colour_cost
                    } else {
                        cost
                    };
                    if (cost == 1) == spanning
                        && waste <= spare
                        && feasible_before(cluster, cost, clock)
                    {
                        found = true;
                        break 'moves;
                    }
                }
                if !spanning {
                    continue;
                }
                // A spanning move may take several centre clusters at once.
                for subset in 1u32..1 << touching_count {
                    if subset.count_ones() < 2 {
                        continue;
                    }
                    let cells = (0..touching_count)
                        .filter(|&i| subset >> i & 1 != 0)
                        .fold(0, |m, i| m | touching[i]);
                    if u32::from(cells != plane) <= spare && feasible_before(cells, 1, clock) {
                        found = true;
                        break 'moves;
                    }
                }
            }
        }
        // The last moves made are still to be searched.
        for i in 0..AHEAD {
            found = found || search(ahead[(next + i) % AHEAD].take(), clock);
        }
        if clock.expired {
            // What was found may rest on a guess: keep none of it.
        } else if !found {
            self.table.store(key, (budget + 1).min(EXACT - 1));
        } else if least == budget {
            // A value too big to be marked exact is kept as a bound.
            self.table.store(
                key,
                if budget < EXACT {
                    budget | EXACT
                } else {
                    EXACT - 1
                },
            );
        }
        found
    }

    /// The key of a side's relaxed game: the set of its colours' planes,
    /// each with whether it spans (the game does not depend on which
    /// colour is which), and the side, whose rows slide the other way.
    /// (Mirroring the right side's planes would let the two sides share
    /// entries; the proof of the example board runs 3% fewer instructions
    /// without, in the same time.)
    fn key(&self, half: &Half, side: usize, cross: u8) -> Key {
        let side = (side as u64) << 1;
        hash_set(
            half.colours()
                .map(|c| [half.colour[c], side | u64::from(cross >> c & 1)]),
        )
    }
}

/// One side of a board, for telling which of the moves that stay on it
/// leave its relaxed game's value above a limit. The exact search cuts
/// them before it plays them, at boards where its bound leaves no more
/// than one half move to spare: there most such moves are cut, and a move
/// not played costs a fraction of one played and cut. What it finds is
/// kept for the half and limit in a [`BeyondMemo`].
#[derive(Clone, Copy)]
pub(super) struct Beyond {
    half: Half,
    side: usize,
    cross: u8,
    limit: u32,
    /// Its key's check, and its slot in the memo.
    check: u64,
    slot: usize,
}

/// What one thread found of [`Beyond`]s, by the halves' keys and limits: a
/// half met at one board of the search is met again at many (the other
/// side differs), with the same few limits.
pub(super) struct BeyondMemo {
    slots: Box<[Known]>,
}

/// A half's moves tried against a limit.
#[derive(Clone, Copy, bytemuck::Zeroable)]
struct Known {
    /// The half's key's check; 0 for none.
    check: u64,
    limit: u32,
    /// The half's cells of the clusters whose moves were tried.
    tried: u64,
    /// Of those, the ones whose moves leave the value above the limit.
    beyond: u64,
}

impl Known {
    /// Whether this slot holds what `beyond`'s half and limit found.
    #[inline]
    fn holds(&self, beyond: &Beyond) -> bool {
        self.check == beyond.check && self.limit == beyond.limit
    }
}

impl BeyondMemo {
    /// A memo of `slots` slots, a power of two; `None` when the system
    /// does not give the memory (a limit): the search goes on without.
    pub(super) fn new(slots: usize) -> Option<BeyondMemo> {
        // Zeroed by the system, page by page as the search reaches them.
        match bytemuck::allocation::try_zeroed_slice_box(slots) {
            Ok(slots) => Some(BeyondMemo { slots }),
            Err(()) => {
                log::debug!("no memo of {slots} slots: the system refused the memory");
                None
            }
        }
    }
}

impl Side {
    /// This side of the board of `planes`.
    fn half_of<T: Bits>(&self, planes: &Planes<T>) -> Half {
        let mut cut = [0; MAX_COLOURS as usize];
        for (cut, &plane) in cut.iter_mut().zip(&planes.colour) {
            if plane != T::default() {
                *cut = self.cut(plane.to_u128());
            }
        }
        Half::new(cut)
    }

    /// The colours this side of the board of `planes` has.
    fn colours_in<T: Bits>(&self, planes: &Planes<T>) -> u8 {
        planes
            .colour
            .iter()
            .enumerate()
            .fold(0, |bits, (c, &plane)| {
                bits | u8::from(plane.to_u128() & self.board_cells != 0) << c
            })
    }

    /// This side's cells of a board's bit plane.
    #[inline]
    fn cut(&self, plane: u128) -> u64 {
        (plane >> self.offset) as u64 & self.shape.all()
    }

    /// The side of `columns` columns of height `h` from the board's column
    /// `first_x` on, playing `rules`; the right side's rows (or columns)
    /// slide toward its first column.
    fn new(columns: usize, h: usize, first_x: usize, right: bool, rules: Rules) -> Side {
        let slide_up = if right { 0 } else { columns as u32 };
        let shape = Shape::new(columns as u32, h as u32, slide_up, rules);
        let cells = columns * h;
        let centre_x = if right { 0 } else { columns.saturating_sub(1) };
        Side {
            shape,
            offset: (first_x * h) as u32,
            board_cells: ((1u128 << cells) - 1) << (first_x * h),
            centre: (((1u64 << h) - 1) << (centre_x * h)) & shape.all(),
        }
    }

    /// A bound on a relaxed game: every colour needs a move of its own, a
    /// spanning one (1) if the other side has the colour, else 2; and the
    /// next move wastes what it costs beyond what it takes off that (see
    /// [`Side::waste`]). Where columns stay (`gravity`), a colour needs a
    /// move for each run of columns holding it (see
    /// [`Shape::column_runs`]), and only one of them in the centre column
    /// can span.
    fn least(&self, half: &Half, cross: u8) -> u32 {
        let plain = if self.shape.columns_stay() {
            let mut several_runs = false;
            let mut plain = 0;
            for colour in half.colours() {
                let plane = half.colour[colour];
                let runs = self.shape.column_runs(plane);
                let spans = cross >> colour & 1 != 0 && plane & self.centre != 0;
                several_runs |= runs > 1;
                plain += 2 * runs - u32::from(spans);
            }
            if several_runs {
                // The waste's argument below is about whole colours.
                return plain;
            }
            plain
        } else {
            least(half.present, cross)
        };
        let mut waste = 2;
        for colour in half.colours() {
            waste = waste.min(self.waste(half.colour[colour], cross >> colour & 1 != 0));
            if waste == 0 {
                break;
            }
        }
        plain + if half.present == 0 { 0 } else { waste }
    }

    /// What a relaxed game is known to need at least, given `stored`, its
    /// table entry when not an exact value: that bound, else (none) its
    /// least cost. A bound is stored only by a search that failed, and a
    /// search is made only within a budget the least cost leaves room
    /// for, so a stored bound is always above the least cost, which then
    /// need not be worked out again.
    #[inline]
    fn floor(&self, half: &Half, cross: u8, stored: u32) -> u32 {
        debug_assert!(stored == 0 || self.least(half, cross) < stored);
        if stored == 0 {
            self.least(half, cross)
        } else {
            stored
        }
    }

    /// The least a move on the tiles of `plane`, one colour, wastes: its
    /// cost beyond what it takes off the colours' own cost (the colour's
    /// when it takes the colour whole, else none). A colour the other side
    /// has (`spans`) costs 1, and a move on it spans when it takes only
    /// clusters that touch the centre: none wasted when those are all its
    /// tiles, 1 when some; a move of the side's own costs 2, 1 wasted when
    /// it takes such a colour whole. Any other colour costs 2, its moves
    /// too: none wasted when it is one cluster, else 2. (Where columns
    /// stay, a colour no centre tile has never spans, and costs 2.)
    fn waste(&self, plane: u64, spans: bool) -> u32 {
        let touches = plane & self.centre != 0;
        let one = || self.shape.is_one_cluster(plane);
        if !spans || (self.shape.columns_stay() && !touches) {
            return if one() { 0 } else { 2 };
        }
        if touches {
            // Every cluster touches the centre when a flood from the
            // centre reaches every tile.
            u32::from(self.shape.flood(plane & self.centre, plane) != plane)
        } else if one() {
            1
        } else {
            2
        }
    }
}

/// Every colour needs a move of its own: a spanning one (1) if the other
/// side has the colour, else 2.
fn least(present: u8, cross: u8) -> u32 {
    (present & cross).count_ones() + 2 * (present & !cross).count_ones()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::game::BoardRng;
    use crate::solver::{SolveOptions, Strategy, board_in_play, solve};

    /// A deadline no test reaches.
    fn far() -> Deadline {
        Deadline::at(Instant::now() + std::time::Duration::from_secs(3600))
    }

    #[test]
    fn past_the_deadline_a_value_is_a_weaker_bound_at_once() {
        // A wide board's half takes minutes to settle exactly.
        let board = BoardRng::new(7).board(16, 6, 5).unwrap();
        let planes = Planes::<u128>::of(&board);
        let exact_enough = Halves::new(
            &board,
            Rules::default(),
            1,
            Deadline::at(Instant::now() + std::time::Duration::from_millis(300)),
        )
        .unwrap();
        let started = Instant::now();
        let late = Halves::new(&board, Rules::default(), 1, Deadline::at(Instant::now())).unwrap();
        let weak = late.of(&planes);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        let stronger = exact_enough.of(&planes);
        // Both bound the same game; the late one no higher.
        assert!(
            weak[0] <= stronger[0] && weak[1] <= stronger[1],
            "{weak:?} {stronger:?}"
        );
        assert!(weak.iter().all(|&v| v > 0));
    }

    /// The variants under which no tile crosses the middle.
    const SIDED: [Rules; 3] = [Rules::CentreRows, Rules::CentreColumns, Rules::Gravity];

    #[test]
    fn no_halves_where_tiles_cross_the_middle() {
        let board = BoardRng::new(5).board(8, 6, 5).unwrap();
        for rules in Rules::ALL {
            let halves = Halves::new(&board, rules, 1, far());
            assert_eq!(halves.is_some(), SIDED.contains(&rules), "{rules}");
        }
    }

    #[test]
    fn a_side_plays_as_the_board_does() {
        let mut rng = BoardRng::new(5);
        for rules in SIDED {
            for (w, h) in [(8, 6), (7, 5), (4, 8), (9, 3)] {
                let halves = Halves::new(&rng.board(w, h, 4).unwrap(), rules, 1, far()).unwrap();
                for _ in 0..40 {
                    let mut board = rng.board(w, h, 4).unwrap();
                    while !board.is_cleared() {
                        let clusters = board.clusters();
                        let cluster = clusters[rng.below(clusters.len() as u64) as usize];
                        let after = board.remove_under(cluster.cells, rules);
                        let (before_halves, after_halves) = (
                            halves.split(&Planes::<u128>::of(&board)),
                            halves.split(&Planes::<u128>::of(&after)),
                        );
                        for side in [0, 1] {
                            let relaxed = &halves.sides[side];
                            let cells = relaxed.cut(cluster.cells.0);
                            let played = relaxed.shape.remove(&before_halves[side], cells);
                            assert_eq!(played, after_halves[side], "{rules} {board} {cluster:?}");
                        }
                        board = after;
                    }
                }
            }
        }
    }

    /// A relaxed game's value by trying every move, each board once:
    /// a side's own clusters at 2, and at 1, for a colour the other side
    /// has, any set of its clusters that touch the centre.
    fn value_by_every_move(
        halves: &Halves,
        side: usize,
        half: &Half,
        cross: u8,
        seen: &mut std::collections::HashMap<(u64, u64), u32>,
    ) -> u32 {
        let cross = cross & half.present;
        if half.present == 0 {
            return 0;
        }
        let key = halves.key(half, side, cross);
        if let Some(&value) = seen.get(&(key.slot, key.check)) {
            return value;
        }
        let relaxed = &halves.sides[side];
        let mut moves = Vec::new();
        for colour in half.colours() {
            let plane = half.colour[colour];
            let clusters: Vec<u64> = relaxed.shape.clusters(plane).collect();
            moves.extend(clusters.iter().map(|&cluster| (cluster, 2)));
            if cross >> colour & 1 != 0 {
                let touching: Vec<u64> = clusters
                    .into_iter()
                    .filter(|cluster| cluster & relaxed.centre != 0)
                    .collect();
                for subset in 1u32..1 << touching.len() {
                    let cells = (0..touching.len())
                        .filter(|&i| subset >> i & 1 != 0)
                        .fold(0, |cells, i| cells | touching[i]);
                    moves.push((cells, 1));
                }
            }
        }
        let value = moves
            .into_iter()
            .map(|(cells, cost)| {
                let child = relaxed.shape.remove(half, cells);
                cost + value_by_every_move(halves, side, &child, cross, seen)
            })
            .min()
            .expect("a half with tiles has a move");
        seen.insert((key.slot, key.check), value);
        value
    }

    #[test]
    fn a_sides_value_and_least_cost_agree_with_every_move_tried() {
        let mut rng = BoardRng::new(6769);
        let mut above_plain = 0;
        for rules in SIDED {
            for (w, h, c) in [(6, 4, 4), (6, 5, 3), (7, 4, 4), (8, 3, 5)] {
                let halves = Halves::new(&rng.board(w, h, c).unwrap(), rules, 1, far()).unwrap();
                for _ in 0..15 {
                    let board = rng.board(w, h, c).unwrap();
                    let planes = Planes::<u128>::of(&board);
                    let (values, cross) = (halves.of(&planes), halves.cross(&planes));
                    for (side, half) in halves.split(&planes).iter().enumerate() {
                        let seen = &mut std::collections::HashMap::new();
                        let value = value_by_every_move(&halves, side, half, cross, seen);
                        assert_eq!(values[side], value, "{rules} {board} {side}");
                        let least = halves.sides[side].least(half, cross & half.present);
                        assert!(least <= value, "{rules} {board} {side}");
                        above_plain += u32::from(least > self::least(half.present, cross));
                    }
                }
            }
        }
        // The least cost is more than the colours' own on some.
        assert!(above_plain > 0);
    }

    #[test]
    fn a_move_lowers_a_sides_value_no_more_than_it_costs() {
        // The exact search cuts a move on this bound before playing it.
        let mut rng = BoardRng::new(67);
        let mut lowered = [0; 3];
        for rules in SIDED {
            let halves = Halves::new(&rng.board(8, 6, 5).unwrap(), rules, 1, far()).unwrap();
            for _ in 0..20 {
                let board = board_in_play(&mut rng, rules, 24);
                let planes = Planes::<u128>::of(&board);
                let (values, cross) = (halves.of(&planes), halves.cross(&planes));
                for cluster in board.clusters().iter() {
                    let colour = usize::from(cluster.colour.index());
                    let bound = halves.at_most_down(values, cluster.cells.0, colour, cross);
                    let after = halves.of(&Planes::<u128>::of(
                        &board.remove_under(cluster.cells, rules),
                    ));
                    for side in [0, 1] {
                        assert!(bound[side] <= after[side], "{rules} {board} {cluster:?}");
                        // How far below the value a side's bound falls:
                        // the bound is not merely 0.
                        lowered[(values[side] - bound[side]) as usize] += 1;
                    }
                }
            }
        }
        assert!(lowered.iter().all(|&n| n > 0), "{lowered:?}");
    }

    #[test]
    fn a_memo_the_system_refuses_is_none_not_a_panic() {
        // Under a memory limit the search goes on without one.
        assert!(BeyondMemo::new(1 << 50).is_none());
        assert!(BeyondMemo::new(1 << 4).is_some());
    }

    #[test]
    fn a_move_is_beyond_a_limit_when_its_sides_value_is_above_it() {
        // The exact search cuts these moves unplayed, on this answer. Both
        // sides of a board are asked in turn, as the search asks them: in
        // a memo of one slot they always meet there.
        let mut rng = BoardRng::new(6768);
        let mut seen = [0; 2];
        for (rules, slots) in SIDED.into_iter().zip([1, 1 << 4, 1]) {
            let halves = Halves::new(&rng.board(8, 6, 5).unwrap(), rules, 1, far()).unwrap();
            let memo = &mut BeyondMemo::new(slots).unwrap();
            for _ in 0..20 {
                let board = board_in_play(&mut rng, rules, 28);
                let planes = Planes::<u128>::of(&board);
                let (values, cross) = (halves.of(&planes), halves.cross(&planes));
                for below in -1..=3 {
                    let limits = values.map(|value| value.saturating_add_signed(-below));
                    let beyond =
                        [0, 1].map(|side| halves.beyond(&planes, side, cross, limits[side], memo));
                    for cluster in board.clusters().iter() {
                        let cells = cluster.cells.0;
                        let child = board.remove_under(cluster.cells, rules);
                        let after = halves.of(&Planes::<u128>::of(&child));
                        // Found, then remembered.
                        for _ in 0..2 {
                            for side in [0, 1] {
                                let own = cells & halves.sides[1 - side].board_cells == 0;
                                let expected = own && after[side] > limits[side];
                                let found = halves.is_beyond(&beyond[side], memo, cells);
                                assert_eq!(
                                    found, expected,
                                    "{rules} {board} {cluster:?} side {side} limit {}",
                                    limits[side]
                                );
                                seen[usize::from(expected)] += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    /// The board of `left`'s left side and `right`'s right side.
    fn joined(left: &Board, right: &Board) -> Board {
        let (w, h) = (left.width(), left.height());
        Board::from_fn(w, h, |cell| {
            if cell.x < w / 2 {
                left.get(cell)
            } else {
                right.get(cell)
            }
        })
        .unwrap()
    }

    #[test]
    fn the_clusters_known_beyond_are_whole_clusters_of_every_board_with_the_side() {
        // The exact search leaves the cells a memo knows to be beyond out
        // of the board's clusters; the memo is met again at boards whose
        // other side differs, where a cluster at the centre may span.
        let mut rng = BoardRng::new(6769);
        let mut masked = 0;
        for rules in SIDED {
            let halves = Halves::new(&rng.board(8, 6, 5).unwrap(), rules, 1, far()).unwrap();
            for n in 0..40 {
                let (board, other) = if n % 2 == 0 {
                    (rng.board(8, 6, 5).unwrap(), rng.board(8, 6, 5).unwrap())
                } else {
                    (
                        board_in_play(&mut rng, rules, 30),
                        board_in_play(&mut rng, rules, 30),
                    )
                };
                let planes = Planes::<u128>::of(&board);
                let (values, cross) = (halves.of(&planes), halves.cross(&planes));
                for side in [0, 1] {
                    let again = if side == 0 {
                        joined(&board, &other)
                    } else {
                        joined(&other, &board)
                    };
                    let again_planes = Planes::<u128>::of(&again);
                    for below in 0..=2 {
                        let limit = values[side].saturating_sub(below);
                        let memo = &mut BeyondMemo::new(1).unwrap();
                        let beyond = halves.beyond(&planes, side, cross, limit, memo);
                        for cluster in board.clusters().iter() {
                            halves.is_beyond(&beyond, memo, cluster.cells.0);
                        }
                        let cross = halves.cross(&again_planes);
                        let beyond = halves.beyond(&again_planes, side, cross, limit, memo);
                        let known: u128 = halves.known_beyond(&beyond, memo);
                        let fresh = &mut BeyondMemo::new(1).unwrap();
                        for cluster in again.clusters().iter() {
                            let cells = cluster.cells.0;
                            if cells & known == 0 {
                                continue;
                            }
                            assert_eq!(cells & !known, 0, "{rules} {again} {cluster:?} {side}");
                            assert!(
                                halves.is_beyond(&beyond, fresh, cells),
                                "{rules} {again} {cluster:?} {side} {limit}"
                            );
                            masked += 1;
                        }
                    }
                }
            }
        }
        assert!(masked > 100, "{masked}");
    }

    #[test]
    fn never_above_the_optimum() {
        let mut rng = BoardRng::new(11);
        // The article's solver, the truth here, takes a minute on some 6x4
        // boards under gravity, whose games are longer.
        for (rules, width) in [
            (Rules::CentreRows, 6),
            (Rules::CentreColumns, 6),
            (Rules::Gravity, 5),
        ] {
            let mut boards: Vec<Board> = (0..30).map(|_| rng.board(width, 4, 4).unwrap()).collect();
            // Late games of the real shape, where the bound prunes most.
            for _ in 0..30 {
                let board = board_in_play(&mut rng, rules, 16);
                boards.push(board);
            }
            for board in boards {
                let halves = Halves::new(&board, rules, 1, far()).unwrap();
                // The article's solver proves its optimum without this bound.
                let options = SolveOptions {
                    strategy: Strategy::Standard,
                    rules,
                    ..SolveOptions::default()
                };
                let outcome = solve(&board, &options, &mut |_| {});
                assert!(outcome.proven_optimal, "{rules} {board}");
                let bound = Halves::bound(halves.of(&Planes::<u64>::of(&board)));
                assert!(bound as usize <= outcome.length(), "{rules} {board}");
            }
        }
    }
}
