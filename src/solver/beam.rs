//! Beam search for solutions fast: level by level, keep the `width` most
//! promising boards (see [`promise`]), dropping boards already seen at that
//! level and boards that the colours bound shows cannot beat the best
//! solution known. It proves nothing; it gives the exact search an upper
//! bound to beat, often the optimum itself. Its memory grows with its
//! width, beside the exact search's table: memory the system refuses
//! ends the beam, never the program.

use std::collections::{HashSet, TryReserveError};
use std::hash::{BuildHasherDefault, Hasher};

use crate::game::{Board, Cell};

use super::bound::bound;
use super::key::hash;
use super::planes::{Bits, Planes, Shape};

/// Runs a beam of `width` from `board`, whose shape (and rules) is
/// `shape`, offering each level's first cleared board to `offer` (each
/// click on its cluster's lowest cell) when it is shorter than what `beat`
/// says, asked at each level, is the shortest solution known. Returns
/// false when `stop` said so, and an error when the system refused the
/// memory a level needed (a memory limit).
pub(super) fn run<T: Bits>(
    board: &Board,
    shape: &Shape<T>,
    width: usize,
    nodes: &mut u64,
    mut beat: impl FnMut() -> usize,
    mut stop: impl FnMut() -> bool,
    mut offer: impl FnMut(&[Cell]),
) -> Result<bool, TryReserveError> {
    // Every board kept, as (parent, click): paths are rebuilt only for the
    // solution, so a level costs no allocation per child.
    let mut kept: Vec<(usize, Cell)> = Vec::new();
    let mut beam: Vec<(Planes<T>, usize)> = vec![(Planes::of(board), usize::MAX)];
    let mut survivors = Vec::new();
    // A level's children as (rank, parent in the beam, cells removed): a
    // fifth of a board's size, and only the survivors are played again.
    let mut next: Vec<((u32, u32), u32, T)> = Vec::new();
    let mut seen: HashSet<u64, BuildHasherDefault<Prehashed>> = HashSet::default();
    // The clicks that reached the beam's boards.
    let mut depth = 0;
    while !beam.is_empty() {
        // A child is worth a place only if it can still be cleared in
        // fewer clicks than the best solution known: a place given to one
        // that cannot is a place taken from one that might.
        let beat = beat();
        next.clear();
        seen.clear();
        // Room for a board's children at most (a cluster has a tile at
        // least), made once a board rather than once a child.
        let children = board.tile_count();
        for (from, &(planes, at)) in beam.iter().enumerate() {
            seen.try_reserve(children)?;
            next.try_reserve(children)?;
            for plane in planes.each() {
                for cells in shape.clusters(plane) {
                    *nodes += 1;
                    let child = shape.remove(&planes, cells);
                    let cell = board.cell_of(cells.trailing_zeros() as usize);
                    if child.is_cleared() {
                        // Every board of this level is this many clicks in.
                        if depth + 1 >= beat {
                            return Ok(true);
                        }
                        let mut clicks = vec![cell];
                        let mut at = at;
                        while at != usize::MAX {
                            let (parent, cell) = kept[at];
                            clicks.push(cell);
                            at = parent;
                        }
                        clicks.reverse();
                        offer(&clicks);
                        return Ok(true);
                    }
                    let bound = bound(shape, &child);
                    if depth + 1 + bound as usize >= beat {
                        continue;
                    }
                    // Boards met twice at a level come from the same root:
                    // the mirror image is not worth a second hash.
                    if seen.insert(hash(&child).slot) {
                        next.push((promise(shape, &child, bound), from as u32, cells));
                    }
                }
            }
            if stop() {
                return Ok(false);
            }
        }
        let width = width.min(next.len());
        if width > 0 {
            next.select_nth_unstable_by_key(width - 1, |(rank, ..)| *rank);
        }
        next.truncate(width);
        // Unstable, as it needs no memory of its own; ties go to the
        // better parent, then the lower cell, so the order is the same on
        // every run.
        next.sort_unstable_by_key(|&(rank, from, cells)| (rank, from, cells.trailing_zeros()));
        survivors.clear();
        survivors.try_reserve(next.len())?;
        kept.try_reserve(next.len())?;
        for &(_, from, cells) in &next {
            let (planes, at) = beam[from as usize];
            kept.push((at, board.cell_of(cells.trailing_zeros() as usize)));
            survivors.push((shape.remove(&planes, cells), kept.len() - 1));
        }
        std::mem::swap(&mut beam, &mut survivors);
        depth += 1;
    }
    Ok(true)
}

/// How far the board of `planes`, whose colours bound is `bound`, looks
/// from cleared, smaller first: twice the bound plus the clusters left,
/// then the tiles left. The clusters tell apart the many boards the bound
/// ranks alike, and a colour in fewer clusters is fewer moves from going
/// in one.
fn promise<T: Bits>(shape: &Shape<T>, planes: &Planes<T>, bound: u32) -> (u32, u32) {
    let (clusters, tiles) = planes.each().fold((0, 0), |(clusters, tiles), plane| {
        (
            clusters + shape.cluster_estimate(plane),
            tiles + plane.count_ones(),
        )
    });
    (2 * bound + clusters, tiles)
}

/// The hasher of a set of hashes: they are used as they are.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }
}
