//! One batch per burst: an editor's save is several events (a temporary
//! file, a rename, a delete and re-create), a `git checkout` hundreds. The
//! batch is ready once nothing new came for a quiet period, or when the
//! burst has gone on for the longest wait (so a file written continuously
//! still gets built now and then). Time is passed in, so it is tested
//! without a clock.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// More changed paths than this in one batch are not listed one by one: the
/// batch asks for a full rebuild instead, and memory stays bounded.
const MAX_PATHS: usize = 4096;

/// The changes of one burst.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// The paths changed, sorted, each once.
    pub paths: Vec<PathBuf>,
    /// Too many paths, or lost events: anything may have changed.
    pub rescan: bool,
    /// When the burst's first event arrived.
    pub first: Option<Instant>,
}

/// Gathers changes until a burst is over.
#[derive(Debug)]
pub struct Debouncer {
    quiet: Duration,
    longest: Duration,
    paths: BTreeSet<PathBuf>,
    rescan: bool,
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Debouncer {
    /// A batch is ready `quiet` after its last event, or `longest` after its
    /// first, whichever comes first.
    pub fn new(quiet: Duration, longest: Duration) -> Debouncer {
        Debouncer {
            quiet,
            longest: longest.max(quiet),
            paths: BTreeSet::new(),
            rescan: false,
            first: None,
            last: None,
        }
    }

    /// Records changed paths seen at `now`.
    pub fn add(&mut self, paths: impl IntoIterator<Item = PathBuf>, now: Instant) {
        for path in paths {
            if self.rescan {
                break;
            }
            self.paths.insert(path);
            if self.paths.len() > MAX_PATHS {
                self.paths.clear();
                self.rescan = true;
            }
        }
        self.touch(now);
    }

    /// Records that events were lost at `now`: the batch rebuilds everything.
    pub fn add_rescan(&mut self, now: Instant) {
        self.paths.clear();
        self.rescan = true;
        self.touch(now);
    }

    fn touch(&mut self, now: Instant) {
        self.first.get_or_insert(now);
        self.last = Some(now);
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    /// When the waiting batch will be ready, if one waits.
    pub fn deadline(&self) -> Option<Instant> {
        let (first, last) = (self.first?, self.last?);
        Some((last + self.quiet).min(first + self.longest))
    }

    /// The batch, if it is ready at `now`; the debouncer starts afresh.
    pub fn take(&mut self, now: Instant) -> Option<Batch> {
        if now < self.deadline()? {
            return None;
        }
        let batch = Batch {
            paths: std::mem::take(&mut self.paths).into_iter().collect(),
            rescan: std::mem::replace(&mut self.rescan, false),
            first: self.first.take(),
        };
        self.last = None;
        Some(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Duration = Duration::from_millis(30);
    const LONGEST: Duration = Duration::from_millis(500);

    fn ms(start: Instant, n: u64) -> Instant {
        start + Duration::from_millis(n)
    }

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn a_burst_of_events_is_one_batch_after_the_quiet_period() {
        let t = Instant::now();
        let mut d = Debouncer::new(QUIET, LONGEST);
        assert_eq!(d.deadline(), None);
        assert_eq!(d.take(ms(t, 1000)), None);
        // A save: temporary written, renamed onto en.md, the folder touched.
        d.add([p("/b/posts/a/en.md")], ms(t, 0));
        d.add([p("/b/posts/a/en.md"), p("/b/posts/a")], ms(t, 5));
        d.add([p("/b/posts/a/en.md")], ms(t, 12));
        assert_eq!(
            d.take(ms(t, 41)),
            None,
            "still within 30 ms of the last event"
        );
        let batch = d.take(ms(t, 42)).expect("ready 30 ms after the last event");
        assert_eq!(batch.paths, [p("/b/posts/a"), p("/b/posts/a/en.md")]);
        assert!(!batch.rescan);
        assert_eq!(batch.first, Some(t));
        assert!(d.is_empty());
        assert_eq!(d.take(ms(t, 2000)), None);
    }

    #[test]
    fn a_never_ending_burst_is_still_built_at_the_longest_wait() {
        let t = Instant::now();
        let mut d = Debouncer::new(QUIET, LONGEST);
        for i in 0..100 {
            d.add([p("/b/posts/a/en.md")], ms(t, i * 10));
            if i * 10 < 500 {
                assert_eq!(d.take(ms(t, i * 10)), None);
            }
        }
        assert_eq!(d.deadline(), Some(ms(t, 500)));
        assert!(d.take(ms(t, 990)).is_some());
    }

    #[test]
    fn delete_and_recreate_is_one_change() {
        let t = Instant::now();
        let mut d = Debouncer::new(QUIET, LONGEST);
        d.add([p("/b/book.toml")], ms(t, 0)); // removed
        d.add([p("/b/book.toml")], ms(t, 1)); // created
        d.add([p("/b/book.toml")], ms(t, 2)); // written
        let batch = d.take(ms(t, 100)).unwrap();
        assert_eq!(batch.paths, [p("/b/book.toml")]);
    }

    #[test]
    fn too_many_paths_or_lost_events_rebuild_everything_in_bounded_memory() {
        let t = Instant::now();
        let mut d = Debouncer::new(QUIET, LONGEST);
        d.add((0..10_000).map(|i| p(&format!("/b/{i}"))), ms(t, 0));
        let batch = d.take(ms(t, 100)).unwrap();
        assert!(batch.rescan);
        assert!(batch.paths.is_empty());
        d.add([p("/b/x")], ms(t, 200));
        d.add_rescan(ms(t, 201));
        d.add([p("/b/y")], ms(t, 202));
        let batch = d.take(ms(t, 300)).unwrap();
        assert!(batch.rescan && batch.paths.is_empty());
        // The next batch starts clean.
        d.add([p("/b/z")], ms(t, 400));
        assert!(!d.take(ms(t, 500)).unwrap().rescan);
    }
}
