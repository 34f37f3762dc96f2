//! Beam search for solutions fast: level by level, keep the `width` most
//! promising boards (see [`promise`]), dropping boards already seen at that
//! level. It proves nothing; it gives the exact search an upper bound to
//! beat, often the optimum itself.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::game::{Board, Cell};

use super::bound::bound;
use super::key::hash;
use super::planes::{Bits, Planes, Shape};

/// Runs a beam of `width` from `board`, whose shape (and rules) is
/// `shape`, offering each level's first cleared board to `offer` (each
/// click on its cluster's lowest cell). Returns false when `stop` said so.
pub(super) fn run<T: Bits>(
    board: &Board,
    shape: &Shape<T>,
    width: usize,
    nodes: &mut u64,
    mut stop: impl FnMut() -> bool,
    mut offer: impl FnMut(&[Cell]),
) -> bool {
    // Every board kept, as (parent, click): paths are rebuilt only for the
    // solution, so a level costs no allocation per child.
    let mut kept: Vec<(usize, Cell)> = Vec::new();
    let mut beam: Vec<(Planes<T>, usize)> = vec![(Planes::of(board), usize::MAX)];
    let mut survivors = Vec::new();
    // A level's children as (rank, parent in the beam, cells removed): a
    // fifth of a board's size, and only the survivors are played again.
    let mut next: Vec<((u32, u32), u32, T)> = Vec::new();
    let mut seen: HashSet<u64, BuildHasherDefault<Prehashed>> = HashSet::default();
    while !beam.is_empty() {
        next.clear();
        seen.clear();
        for (from, &(planes, at)) in beam.iter().enumerate() {
            for plane in planes.each() {
                for cells in shape.clusters(plane) {
                    *nodes += 1;
                    let child = shape.remove(&planes, cells);
                    let cell = board.cell_of(cells.trailing_zeros() as usize);
                    if child.is_cleared() {
                        let mut clicks = vec![cell];
                        let mut at = at;
                        while at != usize::MAX {
                            let (parent, cell) = kept[at];
                            clicks.push(cell);
                            at = parent;
                        }
                        clicks.reverse();
                        offer(&clicks);
                        return true;
                    }
                    // Boards met twice at a level come from the same root:
                    // the mirror image is not worth a second hash.
                    if seen.insert(hash(&child).slot) {
                        next.push((promise(shape, &child), from as u32, cells));
                    }
                }
            }
            if stop() {
                return false;
            }
        }
        let width = width.min(next.len());
        if width > 0 {
            next.select_nth_unstable_by_key(width - 1, |(rank, ..)| *rank);
        }
        next.truncate(width);
        next.sort_by_key(|(rank, ..)| *rank);
        survivors.clear();
        for &(_, from, cells) in &next {
            let (planes, at) = beam[from as usize];
            kept.push((at, board.cell_of(cells.trailing_zeros() as usize)));
            survivors.push((shape.remove(&planes, cells), kept.len() - 1));
        }
        std::mem::swap(&mut beam, &mut survivors);
    }
    true
}

/// How far the board of `planes` looks from cleared, smaller first: twice
/// the colours bound plus the clusters left, then the tiles left. The
/// clusters tell apart the many boards the bound ranks alike, and a colour
/// in fewer clusters is fewer moves from going in one.
fn promise<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> (u32, u32) {
    let (clusters, tiles) = planes.each().fold((0, 0), |(clusters, tiles), plane| {
        (
            clusters + shape.cluster_estimate(plane),
            tiles + plane.count_ones(),
        )
    });
    (2 * bound(shape, planes) + clusters, tiles)
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
