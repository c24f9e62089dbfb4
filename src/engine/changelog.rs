//! A task's changelog topic as the broker keeps it: its end offset, the keys of its store, and
//! how far the log cleaner has compacted it (Kafka's `LogCleaner`, `cleanup.policy`).
//!
//! A compacted changelog (`compact`, key-value stores) keeps one record per key once cleaned.
//! Writes update keys, so the log grows past its keys until its dirty part (what was written
//! since the last cleaning) reaches `min.cleanable.dirty.ratio` of the log; the cleaner then
//! brings it back to one record per key. At the default ratio of 0.5 the log swings between
//! one and two times its keys. With segments (`segment_records`), the segment being written
//! is never cleaned: the cleaner compacts at the first segment boundary past that point, so
//! the log can hold up to a segment more. A windowed store's changelog (`compact,delete`)
//! holds the writes of its retention; an append-only log holds everything ever written.
//!
//! A store that restores from nothing reads what the log holds, not every offset ever
//! written: in offsets, it starts at [`Log::start`], the end less what the log holds.

use crate::model::Cleanup;

/// What the log cleaner is set to (Kafka's topic configs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cleaner {
    /// `min.cleanable.dirty.ratio`.
    pub dirty_ratio: f64,
    /// `segment.bytes` in records, if segments count.
    pub segment: Option<f64>,
}

impl Cleaner {
    /// Records written since the last cleaning that make the dirty part reach the ratio, for
    /// a store of `keys` keys: dirty / (keys + dirty) = ratio.
    fn dirty_at(&self, keys: f64) -> f64 {
        keys * self.dirty_ratio / (1.0 - self.dirty_ratio)
    }

    /// The offset of the first cleaning after `clean_to`, and the offsets between cleanings
    /// after it, while the store holds `keys` keys: without segments as soon as the dirty
    /// part is large enough, with segments at the first segment boundary past that.
    fn schedule(&self, clean_to: f64, keys: f64) -> (f64, f64) {
        let dirty = self.dirty_at(keys);
        match self.segment {
            None => (clean_to + dirty, dirty),
            Some(segment) => {
                let first = ((clean_to + dirty) / segment).ceil() * segment;
                (first, (dirty / segment).ceil().max(1.0) * segment)
            }
        }
    }
}

/// A task's changelog as of `since`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Log {
    /// The end offset: every record ever written.
    pub end: f64,
    /// The keys of the task's store.
    pub keys: f64,
    /// The offset the cleaner has compacted the log up to.
    pub clean_to: f64,
    /// When these were last brought up to date.
    pub since: u64,
}

impl Log {
    /// A log of `records` records (keys, for a compacted one), just cleaned.
    pub fn new(records: u64) -> Log {
        let records = records as f64;
        Log {
            end: records,
            keys: records,
            clean_to: records,
            since: 0,
        }
    }

    /// The log at `now`, its task having been processed since `since` at `write_rate` writes
    /// and `key_growth` new keys a second: the cleaner compacted it each time its dirty part
    /// reached the ratio (counted with the keys it had at `since`).
    pub fn at(
        &self,
        now: u64,
        write_rate: f64,
        key_growth: f64,
        cleanup: Cleanup,
        cleaner: Cleaner,
    ) -> Log {
        let ms = now.saturating_sub(self.since) as f64;
        let mut log = Log {
            end: self.end + write_rate * ms / 1000.0,
            keys: self.keys + key_growth * ms / 1000.0,
            clean_to: self.clean_to,
            since: now,
        };
        if cleanup == Cleanup::Compact && self.keys >= 1.0 {
            let (first, period) = cleaner.schedule(self.clean_to, self.keys);
            let reached = match cleaner.segment {
                None => log.end,
                Some(segment) => (log.end / segment).floor() * segment,
            };
            if reached >= first {
                log.clean_to = first + ((reached - first) / period).floor() * period;
            }
        }
        log
    }

    /// Seconds after `since` until the cleaner next compacts the log, while its task writes
    /// `write_rate` records a second; `None` if it never will.
    pub fn next_cleaning(
        &self,
        write_rate: f64,
        cleanup: Cleanup,
        cleaner: Cleaner,
    ) -> Option<f64> {
        if cleanup != Cleanup::Compact || self.keys < 1.0 || write_rate <= 0.0 {
            return None;
        }
        let (first, _) = cleaner.schedule(self.clean_to, self.keys);
        Some(((first - self.end) / write_rate).max(0.0))
    }

    /// Records the log holds: what a store with no state reads.
    pub fn held(&self, cleanup: Cleanup, write_rate: f64) -> f64 {
        match cleanup {
            Cleanup::Compact => self.keys.min(self.clean_to) + (self.end - self.clean_to),
            Cleanup::Windowed { retention_ms } => {
                self.end.min(write_rate * retention_ms as f64 / 1000.0)
            }
            Cleanup::Append => self.end,
        }
    }

    /// The offset a store with no state starts reading at: the end less what the log holds.
    /// A store further behind is there too (what it missed was compacted or deleted).
    pub fn start(&self, cleanup: Cleanup, write_rate: f64) -> f64 {
        (self.end - self.held(cleanup, write_rate)).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: Cleaner = Cleaner {
        dirty_ratio: 0.5,
        segment: None,
    };

    #[test]
    fn a_compacted_log_swings_between_one_and_two_times_its_keys() {
        // A million keys, a thousand writes a second: the dirty part reaches the keys after
        // 1,000 s, and the cleaner brings the log back to a million records.
        let log = Log::new(1_000_000);
        let at = |s: u64| log.at(s * 1000, 1000.0, 0.0, Cleanup::Compact, HALF);
        assert_eq!(at(0).held(Cleanup::Compact, 1000.0), 1_000_000.0);
        assert_eq!(at(600).held(Cleanup::Compact, 1000.0), 1_600_000.0);
        assert_eq!(at(999).held(Cleanup::Compact, 1000.0), 1_999_000.0);
        assert_eq!(at(1000).held(Cleanup::Compact, 1000.0), 1_000_000.0);
        // Ten hours: 36 cleanings, the last at 36,000 s; the log holds its keys again.
        let ten_hours = at(36_000);
        assert_eq!(ten_hours.clean_to, 37_000_000.0);
        assert_eq!(ten_hours.held(Cleanup::Compact, 1000.0), 1_000_000.0);
        assert_eq!(ten_hours.start(Cleanup::Compact, 1000.0), 36_000_000.0);
        assert_eq!(
            at(36_250).held(Cleanup::Compact, 1000.0),
            1_250_000.0,
            "a quarter of the way to the next cleaning"
        );
    }

    #[test]
    fn the_next_cleaning_is_when_the_dirty_part_reaches_the_ratio() {
        let log = Log::new(100_000).at(30_000, 1000.0, 0.0, Cleanup::Compact, HALF);
        assert_eq!(
            log.next_cleaning(1000.0, Cleanup::Compact, HALF),
            Some(70.0)
        );
        // At a ratio of 0.75 the dirty part must be three times the keys.
        let three = Cleaner {
            dirty_ratio: 0.75,
            segment: None,
        };
        assert_eq!(
            log.next_cleaning(1000.0, Cleanup::Compact, three),
            Some(270.0)
        );
        assert_eq!(log.next_cleaning(0.0, Cleanup::Compact, HALF), None);
        assert_eq!(log.next_cleaning(1000.0, Cleanup::Append, HALF), None);
    }

    #[test]
    fn with_segments_the_cleaner_waits_for_the_segment_being_written_to_roll() {
        // 100,000 keys, segments of a million records: the first boundary past the dirty
        // threshold (200,000) is at 1,000,000, then one cleaning each segment.
        let segments = Cleaner {
            dirty_ratio: 0.5,
            segment: Some(1_000_000.0),
        };
        let log = Log::new(100_000);
        let at = |s: u64| log.at(s * 1000, 1000.0, 0.0, Cleanup::Compact, segments);
        assert_eq!(at(800).held(Cleanup::Compact, 1000.0), 900_000.0);
        assert_eq!(at(950).held(Cleanup::Compact, 1000.0), 100_000.0 + 50_000.0);
        assert_eq!(at(1899).clean_to, 1_000_000.0);
        assert_eq!(at(1950).clean_to, 2_000_000.0);
        assert_eq!(
            log.next_cleaning(1000.0, Cleanup::Compact, segments),
            Some(900.0)
        );
    }

    #[test]
    fn new_keys_raise_what_the_log_holds_after_a_cleaning() {
        let log = Log::new(100_000);
        let later = log.at(500_000, 1000.0, 100.0, Cleanup::Compact, HALF);
        assert_eq!(later.keys, 150_000.0);
        // Cleanings every 100,000 writes (the keys at the start): at 200,000 ... 600,000.
        assert_eq!(later.clean_to, 600_000.0);
        assert_eq!(later.held(Cleanup::Compact, 1000.0), 150_000.0);
    }

    #[test]
    fn a_windowed_log_holds_its_retention_and_an_append_only_one_everything() {
        let day = Cleanup::Windowed {
            retention_ms: 86_400_000,
        };
        let log = Log::new(1_000).at(3_600_000, 10.0, 0.0, day, HALF);
        assert_eq!(log.end, 37_000.0);
        assert_eq!(log.held(day, 10.0), 37_000.0);
        let week = log.at(7 * 86_400_000, 10.0, 0.0, day, HALF);
        assert_eq!(week.held(day, 10.0), 864_000.0);
        assert_eq!(week.start(day, 10.0), week.end - 864_000.0);
        let append = Log::new(1_000).at(3_600_000, 10.0, 0.0, Cleanup::Append, HALF);
        assert_eq!(append.held(Cleanup::Append, 10.0), 37_000.0);
        assert_eq!(append.start(Cleanup::Append, 10.0), 0.0);
    }
}
