//! What a build tells as it goes ([`Event`], through a [`Sink`]) and what
//! it made in the end ([`Report`]).

use std::path::PathBuf;
use stoa_doc::Diagnostic;

/// One file the build wrote.
#[derive(Clone, Debug)]
pub struct Artifact {
    /// Book id.
    pub book: String,
    /// Language tag.
    pub lang: String,
    /// The format's name (its renderer's).
    pub format: &'static str,
    /// Where it was written: a file, or the web edition's folder.
    pub path: PathBuf,
    /// Its size in bytes, every file of a folder counted.
    pub bytes: u64,
    /// How long rendering and writing took.
    pub seconds: f64,
    /// False when the file already held these bytes and was left alone.
    pub written: bool,
}

/// Something the user may want to see while the build runs.
#[derive(Debug)]
pub enum Event<'a> {
    /// The number of artifacts about to be made.
    Planned(usize),
    /// An artifact was written.
    Built(&'a Artifact),
    /// An artifact could not be made.
    Failed(&'a str, &'a [Diagnostic]),
    /// A warning about the input.
    Warning(&'a Diagnostic),
}

/// The outcome of a build.
#[derive(Debug, Default)]
pub struct Report {
    /// Files written, sorted by path.
    pub artifacts: Vec<Artifact>,
    /// Everything that failed.
    pub errors: Vec<Diagnostic>,
    /// Everything worth a look.
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    /// True when nothing failed.
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Tells `sink` that `name` failed with `errors`, and records them: the
    /// one way an error enters a report, so that every error counted in the
    /// summary has been shown.
    pub(crate) fn fail(&mut self, sink: Sink, name: &str, errors: Vec<Diagnostic>) {
        if errors.is_empty() {
            return;
        }
        sink(Event::Failed(name, &errors));
        self.errors.extend(errors);
    }

    /// A report of one failure, told to `sink`.
    pub(crate) fn failed(sink: Sink, name: &str, errors: Vec<Diagnostic>) -> Report {
        let mut report = Report::default();
        report.fail(sink, name, errors);
        report
    }

    /// Tells `sink` of `warnings` and records them.
    pub(crate) fn warn<'w>(
        &mut self,
        sink: Sink,
        warnings: impl IntoIterator<Item = &'w Diagnostic>,
    ) {
        for warning in warnings {
            sink(Event::Warning(warning));
            self.warnings.push(warning.clone());
        }
    }
}

/// Where a build tells what it does.
pub type Sink<'a> = &'a (dyn Fn(Event) + Sync);
