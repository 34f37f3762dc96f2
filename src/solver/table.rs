//! The transposition table: for boards already searched, the number of
//! moves they were proven to need at least. Shared by all search threads
//! without locks; its size is fixed up front, so memory stays bounded.

use std::sync::atomic::{AtomicU64, Ordering};

use super::key::Key;

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const WAYS: usize = 4;

/// One entry: `check ^ data` beside `data`, so that a torn write by two
/// threads (one word from each) fails the check instead of lying.
#[derive(Default)]
struct Entry {
    tagged: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Entry; WAYS]);

pub(super) struct Table {
    buckets: Vec<Bucket>,
    mask: u64,
}

impl Table {
    /// A table of at most `mb` MiB (the largest power of two of buckets
    /// that fits).
    pub(super) fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        let mut buckets = Vec::with_capacity(count);
        buckets.resize_with(count, Bucket::default);
        Table {
            buckets,
            mask: count as u64 - 1,
        }
    }

    /// The size in MiB.
    pub(super) fn mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    fn bucket(&self, key: Key) -> &Bucket {
        &self.buckets[(key.slot & self.mask) as usize]
    }

    /// The proven lower bound stored for `key`, or 0.
    #[inline]
    pub(super) fn bound(&self, key: Key) -> u32 {
        for entry in &self.bucket(key).0 {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.tagged.load(Ordering::Relaxed) ^ data == key.check && data != 0 {
                return data as u32;
            }
        }
        0
    }

    /// Records that `key` needs at least `bound` moves. Replaces the entry
    /// with the smallest bound when the bucket is full: small bounds are
    /// the cheapest to prove again.
    #[inline]
    pub(super) fn store(&self, key: Key, bound: u32) {
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_bound = u64::MAX;
        for entry in &bucket.0 {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.tagged.load(Ordering::Relaxed) ^ data == key.check {
                if data >= u64::from(bound) {
                    return;
                }
                victim = entry;
                break;
            }
            if data < victim_bound {
                victim = entry;
                victim_bound = data;
            }
        }
        let data = u64::from(bound);
        victim.data.store(data, Ordering::Relaxed);
        victim.tagged.store(key.check ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_highest_bound_and_misses_unknown_keys() {
        let table = Table::new(1);
        let key = Key { slot: 5, check: 99 };
        assert_eq!(table.bound(key), 0);
        table.store(key, 7);
        table.store(key, 4);
        assert_eq!(table.bound(key), 7);
        table.store(key, 9);
        assert_eq!(table.bound(key), 9);
        assert_eq!(table.bound(Key { slot: 5, check: 98 }), 0);
    }

    #[test]
    fn a_full_bucket_drops_its_smallest_bound() {
        let table = Table::new(1);
        for (check, bound) in [(1, 5), (2, 3), (3, 8), (4, 6), (5, 7)] {
            table.store(Key { slot: 0, check }, bound);
        }
        assert_eq!(table.bound(Key { slot: 0, check: 2 }), 0);
        assert_eq!(table.bound(Key { slot: 0, check: 5 }), 7);
        assert_eq!(table.bound(Key { slot: 0, check: 3 }), 8);
    }
}
