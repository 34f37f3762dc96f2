//! The transposition table: for boards already searched, the number of
//! moves they were proven to need at least. Shared by all search threads
//! without locks; its size is bounded by `--tt-mb`, which is bounded by
//! the machine's memory, and a size the system does not give is not
//! taken: the search goes on with a smaller table.

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

/// The most MiB `--tt-mb` may give a table: half the machine's memory
/// where it is known (`/proc/meminfo` on Linux), so that a typo cannot take
/// it all; 65536 elsewhere.
pub fn max_table_mb() -> u32 {
    const ELSEWHERE: u32 = 65536;
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("MemTotal:"))?
                .trim()
                .strip_suffix("kB")?
                .trim()
                .parse::<u64>()
                .ok()
        });
    total_kib.map_or(ELSEWHERE, |kib| {
        u32::try_from(kib / 1024 / 2)
            .unwrap_or(u32::MAX)
            .clamp(1, ELSEWHERE)
    })
}

/// The processor's prefetch of the cache line at `address`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn prefetch<T>(address: *const T) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: a prefetch reads nothing the program sees and never faults,
    // whatever the address (SSE, which every x86_64 processor has).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) }
}

/// Elsewhere the probe waits on its miss.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn prefetch<T>(_: *const T) {}

/// Asks Linux to back the table's whole 2 MiB stretches with pages of that
/// size, before any of its pages is touched. The searches probe the tables
/// at random, and with 4 KiB pages nearly every probe of a table of tens
/// of MiB also misses the TLB (see BENCHMARKS.md, "huge pages"). Where the
/// system has transparent huge pages off, or none to give, the table keeps
/// small pages: the advice changes nothing the search reads.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(words: &[AtomicU64]) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = words.as_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + std::mem::size_of_val(words)) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies within `words`, which this table owns, and
        // MADV_HUGEPAGE only changes how its pages are backed, never what
        // they hold (zeros, as the allocation gave them).
        let refused =
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        if refused != 0 {
            log::debug!(
                "no huge pages for the table: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// Elsewhere pages come as the system gives them.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &[AtomicU64]) {}

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
    /// that fits), or the largest power of two the system gives.
    pub(super) fn new(mb: usize) -> Table {
        Self::as_big_as_given(Self::buckets(mb))
    }

    /// A table of `count` buckets, halved until the system gives the
    /// memory: a smaller table only makes the search slower.
    fn as_big_as_given(count: usize) -> Table {
        let mut count = count;
        loop {
            match Self::try_with(count) {
                Some(table) => return table,
                None if count > 1 => {
                    log::warn!(
                        "the transposition table cannot have {} MiB: trying half",
                        Self::mb_of(count)
                    );
                    count /= 2;
                }
                // Not even a bucket: nothing else could run either.
                None => std::alloc::handle_alloc_error(std::alloc::Layout::new::<
                    [u64; 2 * BUCKET_WORDS],
                >()),
            }
        }
    }

    /// A table of `count` buckets, if the system gives the memory.
    fn try_with(count: usize) -> Option<Table> {
        let words: Box<[AtomicU64]> = bytemuck::allocation::try_zeroed_slice_box(
            count
                .checked_mul(BUCKET_WORDS)?
                .checked_add(BUCKET_WORDS - 1)?,
        )
        .ok()?;
        advise_huge_pages(&words);
        // A page first read maps the system's zero page, and the first
        // write to it then replaces that mapping, which makes the kernel
        // interrupt every other core running the search to flush it:
        // writing a word of each page first takes a fresh page at once.
        for word in words.iter().step_by(PAGE_WORDS) {
            word.store(0, Ordering::Relaxed);
        }
        let misaligned = words.as_ptr() as usize % (BUCKET_WORDS * 8);
        let start = (BUCKET_WORDS * 8 - misaligned) % (BUCKET_WORDS * 8) / 8;
        Some(Table {
            words,
            start,
            mask: count as u64 - 1,
        })
    }

    /// The buckets of a table of at most `mb` MiB: the largest power of
    /// two that fits, at least one.
    fn buckets(mb: usize) -> usize {
        let count = ((mb.max(1) << 20) / (BUCKET_WORDS * 8)).max(1);
        1usize << (usize::BITS - 1 - count.leading_zeros())
    }

    /// Gives the table room for `mb` MiB when that makes it bigger,
    /// dropping what it holds; a size that rounds down to the table's own
    /// keeps it as it is. When the system does not give the memory (a
    /// limit below `--tt-mb`), the table keeps its size and the search
    /// goes on.
    pub(super) fn grow(&mut self, mb: usize) {
        let (had, wanted) = (self.mask as usize + 1, Self::buckets(mb));
        if wanted > had {
            // The old table goes first: the two never take memory at once.
            self.words = Box::new([]);
            *self = Self::try_with(wanted).unwrap_or_else(|| {
                log::warn!(
                    "the transposition table cannot grow to {} MiB: it stays at {} MiB",
                    Self::mb_of(wanted),
                    Self::mb_of(had)
                );
                Self::as_big_as_given(had)
            });
        }
    }

    /// The size in MiB.
    pub(super) fn mb(&self) -> usize {
        Self::mb_of(self.mask as usize + 1)
    }

    /// The size in MiB of `count` buckets.
    fn mb_of(count: usize) -> usize {
        count.saturating_mul(BUCKET_WORDS * 8) >> 20
    }

    /// The first word of `key`'s bucket.
    #[inline(always)]
    fn first_word(&self, key: Key) -> usize {
        self.start + (key.slot & self.mask) as usize * BUCKET_WORDS
    }

    /// The bucket of `key`: `WAYS` entries.
    fn bucket(&self, key: Key) -> &[AtomicU64] {
        let first = self.first_word(key);
        &self.words[first..first + BUCKET_WORDS]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that
    /// a probe soon after finds it there: a search that knows several keys
    /// before it probes them waits on their misses together, not one by
    /// one. A hint only: nothing is read or changed.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: Key) {
        prefetch(self.words.as_ptr().wrapping_add(self.first_word(key)));
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
    fn a_grow_the_system_refuses_keeps_the_tables_size() {
        let mut table = Table::new(2);
        // More than any address space: no system gives it.
        table.grow(usize::MAX >> 20);
        assert_eq!(table.mb(), 2);
        let key = key(5, 99);
        table.store(key, 7);
        assert_eq!(table.bound(key), 7);
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

    /// Whether the kernel may back the mapping that holds `address` with
    /// huge pages (`THPeligible` in `/proc/self/smaps`).
    #[cfg(target_os = "linux")]
    fn huge_pages_eligible(address: usize) -> bool {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps is readable");
        let mut inside = false;
        for line in smaps.lines() {
            let range = line
                .split_whitespace()
                .next()
                .and_then(|r| r.split_once('-'));
            if let Some((Ok(from), Ok(to))) =
                range.map(|(f, t)| (usize::from_str_radix(f, 16), usize::from_str_radix(t, 16)))
            {
                inside = (from..to).contains(&address);
            } else if inside && let Some(flag) = line.strip_prefix("THPeligible:") {
                return flag.trim() == "1";
            }
        }
        panic!("no mapping in /proc/self/smaps holds {address:#x}")
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_big_table_asks_for_huge_pages_where_the_system_has_them() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        let table = Table::new(16);
        // The table's first whole huge page: the stretch before it stays
        // in small pages.
        let first = (table.words.as_ptr() as usize).next_multiple_of(2 << 20);
        let eligible = huge_pages_eligible(first);
        // Under "madvise", only an advised mapping is eligible; "always"
        // makes every mapping so, and "never" (or no huge pages) none.
        if mode.contains("[madvise]") || mode.contains("[always]") {
            assert!(eligible, "the table's pages may not be huge ({mode:?})");
        } else {
            assert!(!eligible, "huge pages are off ({mode:?})");
        }
        // The advice changes nothing the table holds.
        let key = key(5, 99);
        assert_eq!(table.bound(key), 0);
        table.store(key, 7);
        assert_eq!(table.bound(key), 7);
    }
}
