//! The transposition table: for boards already searched, the number of
//! moves they were proven to need at least. Shared by all search threads
//! without locks; its size is fixed up front, so memory stays bounded.

use std::sync::atomic::{AtomicU64, Ordering};

use super::key::Key;

/// Entries per bucket: eight one-word entries fill one 64-byte cache line.
const WAYS: usize = 8;

/// Words per page of memory (4 KiB, the smallest on the systems we run on).
const PAGE_WORDS: usize = 4096 / 8;

/// Words per bucket. An entry is one word, written whole (two threads'
/// writes cannot mix): the key's check in its high bits, the data in the
/// low [`DATA_BITS`], 0 for none. The 56 bits of check left make a false
/// match about one in 7 * 10^16 per entry compared (eight per lookup). A
/// word per entry rather than two holds twice the entries in the same
/// memory: the 14-click board of the bench's 200, whose proof spends much
/// of its time waiting on the tables, 9.54 and 9.55 s -> 8.70 and 8.64 s.
const BUCKET_WORDS: usize = WAYS;

/// The bits of an entry that hold its data.
const DATA_BITS: u32 = 8;
const DATA: u64 = (1 << DATA_BITS) - 1;

/// The most an entry holds: a bound above it is stored as this, which
/// only weakens it.
pub(super) const MAX_DATA: u32 = DATA as u32;

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

    /// The bucket of `key`: `WAYS` entries.
    fn bucket(&self, key: Key) -> &[AtomicU64] {
        let first = self.start + (key.slot & self.mask) as usize * BUCKET_WORDS;
        &self.words[first..first + BUCKET_WORDS]
    }

    /// The proven lower bound stored for `key`, or 0.
    #[inline(always)]
    pub(super) fn bound(&self, key: Key) -> u32 {
        for entry in self.bucket(key) {
            if let Some(data) = data_of(entry.load(Ordering::Relaxed), key) {
                return data as u32;
            }
        }
        0
    }

    /// Records that `key` needs at least `bound` moves (at most
    /// [`MAX_DATA`] of them). Replaces the entry with the smallest bound
    /// when the bucket is full: small bounds are the cheapest to prove
    /// again.
    #[inline]
    pub(super) fn store(&self, key: Key, bound: u32) {
        let data = u64::from(bound.min(MAX_DATA));
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_data = u64::MAX;
        for entry in bucket {
            let held = entry.load(Ordering::Relaxed);
            if let Some(held) = data_of(held, key) {
                if held >= data {
                    return;
                }
                victim = entry;
                break;
            }
            if held & DATA < victim_data {
                victim = entry;
                victim_data = held & DATA;
            }
        }
        victim.store(key.check & !DATA | data, Ordering::Relaxed);
    }
}

/// The data of `entry` when it is `key`'s.
#[inline(always)]
fn data_of(entry: u64, key: Key) -> Option<u64> {
    ((entry ^ key.check) & !DATA == 0 && entry & DATA != 0).then_some(entry & DATA)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key whose check is `n` in the bits above the data's.
    fn key(slot: u64, n: u64) -> Key {
        Key {
            slot,
            check: n << DATA_BITS,
        }
    }

    #[test]
    fn keeps_the_highest_bound_and_misses_unknown_keys() {
        let table = Table::new(1);
        let key99 = key(5, 99);
        assert_eq!(table.bound(key99), 0);
        table.store(key99, 7);
        table.store(key99, 4);
        assert_eq!(table.bound(key99), 7);
        table.store(key99, 9);
        assert_eq!(table.bound(key99), 9);
        assert_eq!(table.bound(key(5, 98)), 0);
        // A bound too big for an entry is kept as the most it holds.
        table.store(key(6, 1), 1000);
        assert_eq!(table.bound(key(6, 1)), MAX_DATA);
    }

    #[test]
    fn a_full_bucket_drops_its_smallest_bound() {
        let table = Table::new(1);
        // One more than the bucket holds, all in bucket 0.
        let bounds = [5, 3, 8, 6, 7, 9, 4, 10, 11];
        assert_eq!(bounds.len(), WAYS + 1);
        for (n, &bound) in bounds.iter().enumerate() {
            table.store(key(0, n as u64 + 1), bound);
        }
        assert_eq!(table.bound(key(0, 2)), 0);
        assert_eq!(table.bound(key(0, 1)), 5);
        assert_eq!(table.bound(key(0, 9)), 11);
    }

    #[test]
    fn grows_only_to_a_bigger_size() {
        let mut table = Table::new(2);
        let key = key(5, 99);
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
