//! A build that stays warm: `stoa watch` keeps one [`Session`] and calls
//! [`Session::build`] after every change, so what did not change is reused.
//!
//! The session holds the build cache (see `crate::cache`) in memory: each
//! artifact's key, the page maps of the PDFs and the covers drawn. A build
//! hashes the inputs (fast: no parsing), loads only the books with a stale
//! artifact and renders only those artifacts; Typst's fonts and library are
//! loaded once per process (stoa-pdf), and its memoization is trimmed after
//! each build so that memory stays flat over many builds.

use crate::cache::Cache;
use crate::plan::{BuildOptions, Report, Sink, build_cached};

/// How many builds Typst's memoized results survive unused: enough for the
/// next edit of the same chapter to find them, few enough to stay bounded
/// (typst-cli's `watch` keeps 10).
const TYPST_MEMO_AGE: usize = 10;

/// A build driver kept between builds, so that later builds redo only what
/// their input changed.
pub struct Session {
    options: BuildOptions,
    cache: Cache,
    force_next: bool,
}

impl Session {
    /// A session that builds what `options` asks for. Its first build reads
    /// the cache the output folder holds from earlier runs.
    pub fn new(options: BuildOptions) -> Self {
        Session {
            options,
            cache: Cache::default(),
            force_next: false,
        }
    }

    /// What this session builds.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// Makes the next build ignore the cache and make everything again
    /// (`--force`).
    pub fn force_next(&mut self) {
        self.force_next = true;
    }

    /// Builds again, telling `sink` as it goes. Artifacts whose bytes did not
    /// change are reported with `written: false`; those whose inputs did not
    /// change are not even rendered.
    pub fn build(&mut self, sink: Sink) -> Report {
        if std::mem::take(&mut self.force_next) {
            self.cache = Cache::forced(&self.options.out_dir);
        }
        let report = build_cached(&self.options, sink, &mut self.cache);
        stoa_pdf::evict_memoized(TYPST_MEMO_AGE);
        report
    }
}
