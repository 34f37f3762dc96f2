//! Canonical keys: one hash for every board that plays the same game up to
//! the two exact symmetries of RULES.md, so the transposition table shares
//! what it proved between them. A board's colour planes are hashed as a
//! set, in no order, so relabelling the colours leaves the hash alone;
//! when the rules in force are mirror-symmetric at the board's width
//! ([`Rules::mirror_symmetric`](crate::game::Rules::mirror_symmetric):
//! all but `centre-rows` at odd widths) the mirror image (`x -> W-1-x`) is
//! hashed too, and the smaller hash is the key. Under the rules where a
//! board moved sideways plays the same game (all but `centre-rows`, see
//! [`Shape::shift_invariant`]) each is first moved to the left edge, so
//! that under `centre-columns` the boards whose columns stand in the same
//! order, split otherwise between the halves, share a key.

use super::planes::{Bits, Planes, Shape};

/// A 128-bit key: 64 bits pick the table slot, the other 64 check it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Key {
    pub slot: u64,
    pub check: u64,
}

/// The canonical key of the board of `planes`.
#[inline]
pub(super) fn key<T: Bits>(shape: &Shape<T>, planes: &Planes<T>) -> Key {
    let canonical = |mut planes: Planes<T>| {
        if shape.shift_invariant() {
            shape.move_to_first_column(&mut planes);
        }
        hash(&planes)
    };
    let ahead = canonical(*planes);
    // Under `centre-rows` at an odd width the middle column belongs to
    // the right half: there the mirror image plays another game.
    if !shape.mirror_symmetric() {
        return ahead;
    }
    let mut mirrored = *planes;
    for plane in &mut mirrored.colour {
        *plane = shape.mirror(*plane);
    }
    ahead.min(canonical(mirrored))
}

/// Hashes the set of the planes: the same for relabelled boards, not for
/// mirrored ones.
#[inline]
pub(super) fn hash<T: Bits>(planes: &Planes<T>) -> Key {
    hash_set(planes.each().map(|plane| {
        let plane = plane.to_u128();
        [plane as u64, (plane >> 64) as u64]
    }))
}

/// Hashes a set of items of two words, in any order: the sum of a hash of
/// each, which needs no sorting.
#[inline]
pub(super) fn hash_set(items: impl Iterator<Item = [u64; 2]>) -> Key {
    let (slot, check) = items.fold((0u64, 0u64), |(slot, check), [low, high]| {
        (
            slot.wrapping_add(fold(
                low ^ 0x243f_6a88_85a3_08d3,
                high ^ 0x1319_8a2e_0370_7344,
            )),
            check.wrapping_add(fold(
                low ^ 0xa409_3822_299f_31d0,
                high ^ 0x082e_fa98_ec4e_6c89,
            )),
        )
    });
    Key {
        slot: finish(slot),
        check: finish(check ^ slot.rotate_left(29)),
    }
}

/// The product of `a` and `b`, its high half folded onto its low half.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    product as u64 ^ (product >> 64) as u64
}

/// The SplitMix64 finaliser: every input bit reaches every output bit.
#[inline]
fn finish(mut z: u64) -> u64 {
    z = (z ^ z >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ z >> 31
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, BoardRng, Colour, Rules};

    #[test]
    fn symmetric_boards_share_a_key_and_others_do_not() {
        let mut rng = BoardRng::new(7);
        let mut keys = std::collections::HashSet::new();
        for _ in 0..200 {
            let board = rng.board(8, 6, 5).unwrap();
            let map: Vec<Colour> = [3, 0, 4, 1, 2]
                .iter()
                .map(|&i| Colour::new(i).unwrap())
                .collect();
            let shape = Shape::<u128>::of(&board, Rules::default());
            let key = |board: &Board| key(&shape, &Planes::of(board));
            let k = key(&board);
            assert_eq!(key(&board.mirrored()), k);
            assert_eq!(key(&board.relabelled(&map)), k);
            assert_eq!(key(&board.relabelled(&map).mirrored()), k);
            keys.insert(k);
        }
        assert_eq!(keys.len(), 200, "distinct random boards collided");
    }

    #[test]
    fn the_mirror_shares_a_key_only_under_symmetric_rules() {
        let mut rng = BoardRng::new(3);
        let (even, odd) = (rng.board(8, 6, 5).unwrap(), rng.board(7, 5, 5).unwrap());
        for (board, rules, shared) in [
            (even, Rules::CentreRows, true),
            (even, Rules::LeftColumns, true),
            (odd, Rules::CentreRows, false),
            (odd, Rules::CentreColumns, true),
            (odd, Rules::LeftColumns, true),
            (odd, Rules::Gravity, true),
        ] {
            let shape = Shape::<u64>::of(&board, rules);
            let key = |board: &Board| key(&shape, &Planes::of(board));
            assert_eq!(key(&board) == key(&board.mirrored()), shared, "{rules}");
        }
    }

    #[test]
    fn boards_moved_sideways_share_a_key_where_the_rules_allow() {
        // The same two columns, one column apart, and a third board.
        let right: Board = "    , OR , GO ".parse().unwrap();
        let left: Board = "    ,OR  ,GO  ".parse().unwrap();
        let other: Board = "    ,RO  ,GO  ".parse().unwrap();
        for rules in Rules::ALL {
            let shape = Shape::<u64>::of(&left, rules);
            let key = |board: &Board| key(&shape, &Planes::of(board));
            let shared = rules != Rules::CentreRows;
            assert_eq!(key(&right) == key(&left), shared, "{rules}");
            assert_ne!(key(&left), key(&other), "{rules}");
        }
    }

    #[test]
    fn a_move_changes_the_key() {
        let board: Board = crate::game::EXAMPLE_BOARD.parse().unwrap();
        let shape = Shape::<u64>::of(&board, Rules::default());
        let key = |board: &Board| key(&shape, &Planes::of(board));
        for cluster in board.clusters().iter() {
            assert_ne!(key(&board.remove(cluster.cells)), key(&board));
        }
    }
}
