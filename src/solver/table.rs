//! The transposition table: for boards already searched, the number of
//! moves they were proven to need at least. Shared by all search threads
//! without locks; its size is fixed up front, so memory stays bounded.

use std::sync::atomic::{AtomicU64, Ordering};

use super::key::Key;

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const WAYS: usize = 4;

/// Words per page of memory (4 KiB, the smallest on the systems we run on).
const PAGE_WORDS: usize = 4096 / 8;

/// Words per bucket. An entry is two words: `check ^ data`, then `data`, so
/// that a torn write by two threads (one word from each) fails the check
/// instead of lying.
const BUCKET_WORDS: usize = 2 * WAYS;

pub(super) struct Table {
    /// Zeroed by the system, which hands out pages that read as zero; one
    /// word of each page is written when the table is made (see
    /// [`Table::new`]): 0.35 ms for 1 MiB, 96 ms for 256 MiB on this
    /// project's 2-core machine, paid once per size, and the table only
    /// grows to what the search before it showed it will fill.
    words: Box<[AtomicU64]>,
    /// The first word of bucket 0, on a cache line of its own.
    start: usize,
    mask: u64,
}

impl Table {
    /// A table of at most `mb` MiB (the largest power of two of buckets
    /// that fits).
    pub(super) fn new(mb: usize) -> Table {
        let count = Self::buckets(mb);
        let words: Box<[AtomicU64]> =
            bytemuck::allocation::zeroed_slice_box(count * BUCKET_WORDS + BUCKET_WORDS - 1);
        // A page first read maps the system's zero page, and the first
        // write to it then replaces that mapping, which makes the kernel
        // interrupt every other core running the search to flush it:
        // writing a word of each page first takes a fresh page at once.
        for word in words.iter().step_by(PAGE_WORDS) {
            word.store(0, Ordering::Relaxed);
        }
        let misaligned = words.as_ptr() as usize % (BUCKET_WORDS * 8);
        let start = (BUCKET_WORDS * 8 - misaligned) % (BUCKET_WORDS * 8) / 8;
        Table {
            words,
            start,
            mask: count as u64 - 1,
        }
    }

    /// The buckets of a table of at most `mb` MiB: the largest power of
    /// two that fits, at least one.
    fn buckets(mb: usize) -> usize {
        let count = ((mb.max(1) << 20) / (BUCKET_WORDS * 8)).max(1);
        1usize << (usize::BITS - 1 - count.leading_zeros())
    }

    /// Gives the table room for `mb` MiB when that makes it bigger,
    /// dropping what it holds; a size that rounds down to the table's own
    /// keeps it as it is.
    pub(super) fn grow(&mut self, mb: usize) {
        if Self::buckets(mb) > self.mask as usize + 1 {
            // The old table goes first: the two never take memory at once.
            self.words = Box::new([]);
            *self = Table::new(mb);
        }
    }

    /// The size in MiB.
    pub(super) fn mb(&self) -> usize {
        ((self.mask as usize + 1) * BUCKET_WORDS * 8) >> 20
    }

    /// The bucket of `key`: `WAYS` entries of (tagged, data).
    fn bucket(&self, key: Key) -> &[AtomicU64] {
        let first = self.start + (key.slot & self.mask) as usize * BUCKET_WORDS;
        &self.words[first..first + BUCKET_WORDS]
    }

    /// The proven lower bound stored for `key`, or 0.
    #[inline]
    pub(super) fn bound(&self, key: Key) -> u32 {
        for entry in self.bucket(key).chunks_exact(2) {
            let data = entry[1].load(Ordering::Relaxed);
            if entry[0].load(Ordering::Relaxed) ^ data == key.check && data != 0 {
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
        let mut victim = &bucket[..2];
        let mut victim_bound = u64::MAX;
        for entry in bucket.chunks_exact(2) {
            let data = entry[1].load(Ordering::Relaxed);
            if entry[0].load(Ordering::Relaxed) ^ data == key.check {
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
        victim[1].store(data, Ordering::Relaxed);
        victim[0].store(key.check ^ data, Ordering::Relaxed);
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

    #[test]
    fn grows_only_to_a_bigger_size() {
        let mut table = Table::new(2);
        let key = Key { slot: 5, check: 99 };
        table.store(key, 7);
        // 3 MiB rounds down to the 2 it has: the table stays as it is.
        table.grow(3);
        assert_eq!((table.mb(), table.bound(key)), (2, 7));
        table.grow(1);
        assert_eq!((table.mb(), table.bound(key)), (2, 7));
        table.grow(4);
        assert_eq!((table.mb(), table.bound(key)), (4, 0));
    }
}
