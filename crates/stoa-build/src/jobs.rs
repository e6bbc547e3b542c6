//! One job: one format of one edition rendered and written (or told from
//! the cache), and the writing of files unless they hold the same bytes.

use crate::ledger::Made;
use crate::options::BuildOptions;
use crate::output::write_atomically;
use crate::prepare::Prepared;
use crate::report::{Artifact, Event, Sink};
use crate::stage::Stage;
use std::path::{Path, PathBuf};
use std::time::Instant;
use stoa_doc::Diagnostic;
use stoa_render::{Body, Output, PageMap, Renderer};

/// One format of one prepared edition to make.
pub(crate) struct Job<'a> {
    pub(crate) prepared: &'a Prepared<'a>,
    pub(crate) renderer: &'static dyn Renderer,
    /// Write the files even when they hold these bytes (`--force`).
    pub(crate) rewrite: bool,
    /// Where the edition's files wait until all its formats are made.
    pub(crate) stage: &'a Stage,
}

impl Job<'_> {
    pub(crate) fn name(&self) -> String {
        format!("{}.{}", self.prepared.stem(), self.renderer.extension())
    }

    /// `<out>/<book>/<book>-<lang>.<ext>` for a file, `<out>/<book>/<lang>/`
    /// for a folder.
    fn path(&self, out_dir: &Path, output: &Output) -> PathBuf {
        let book_dir = out_dir.join(&self.prepared.config.id);
        match output {
            Output::File(_) => book_dir.join(self.name()),
            Output::Folder(_) => book_dir.join(&self.prepared.edition.book.lang),
        }
    }
}

/// What one job made.
pub(crate) struct JobDone {
    /// The artifact.
    pub(crate) artifact: Artifact,
    /// The renderer's warnings.
    pub(crate) warnings: Vec<Diagnostic>,
    /// The page map a paged renderer made (not told again from the cache).
    pub(crate) pages: Option<PageMap>,
    /// The PDF's page count.
    pub(crate) page_count: Option<usize>,
    /// Every file written for it: the artifact, and the sources beside it.
    pub(crate) files: Vec<PathBuf>,
    /// True when the cache told it and nothing was rendered.
    pub(crate) cached: bool,
}

/// What one job made, or why it failed.
pub(crate) type JobResult = Result<JobDone, Vec<Diagnostic>>;

/// One job's result with its edition (book id, language) and format.
pub(crate) type EditionJob = ((String, String), (&'static str, JobResult));

/// An artifact the cache shows unchanged: told to the sink as built, its
/// warnings told again, nothing rendered or written.
pub(crate) fn cached(
    prepared: &Prepared,
    format: &'static str,
    made: &Made,
    sink: Sink,
) -> JobResult {
    for warning in &made.warnings {
        sink(Event::Warning(warning));
    }
    let artifact = made.artifact(&prepared.config.id, &prepared.edition.book.lang, format);
    sink(Event::Built(&artifact));
    Ok(JobDone {
        artifact,
        warnings: made.warnings.clone(),
        pages: None,
        page_count: made.page_count,
        files: Vec::new(),
        cached: true,
    })
}

/// [`run_job`], telling the sink how it went.
pub(crate) fn run_reported(
    options: &BuildOptions,
    job: &Job,
    pages: Option<&PageMap>,
    sink: Sink,
) -> JobResult {
    let mut result = run_job(options, job, pages, sink);
    if let Err(errors) = &mut result
        && errors.is_empty()
    {
        // A failure must be counted and shown, even one that says nothing.
        errors.push(Diagnostic::error(format!(
            "{} could not be made, and the renderer did not say why",
            job.name()
        )));
    }
    match &result {
        Ok(done) => sink(Event::Built(&done.artifact)),
        Err(errors) => sink(Event::Failed(&job.name(), errors)),
    }
    result
}

fn run_job(options: &BuildOptions, job: &Job, pages: Option<&PageMap>, sink: Sink) -> JobResult {
    let started = Instant::now();
    let t = crate::timings::phase(|| format!("  render {}", job.name()));
    let rendered = job
        .renderer
        .render(&job.prepared.context_with(options, job.renderer, pages))?;
    drop(t);
    let _t = crate::timings::phase(|| format!("  write {}", job.name()));
    for warning in &rendered.warnings {
        sink(Event::Warning(warning));
    }
    let path = job.path(&options.out_dir, &rendered.output);
    let stage = job.stage;
    let (mut written, bytes) = match &rendered.output {
        Output::File(body) => stage.file(&path, body, job.rewrite)?,
        Output::Folder(files) => stage.folder(&path, files, job.rewrite)?,
    };
    let mut files = vec![path.clone()];
    for (ext, source_bytes) in &rendered.sources {
        let stem = job.prepared.stem();
        let source = path.with_file_name(format!("{stem}.{ext}"));
        let body = Body::Bytes(source_bytes.clone());
        written |= stage.file(&source, &body, job.rewrite)?.0;
        files.push(source);
    }
    for (suffix, body) in &rendered.companions {
        let stem = job.prepared.stem();
        let companion = path.with_file_name(format!("{stem}{suffix}"));
        written |= stage.file(&companion, body, job.rewrite)?.0;
        files.push(companion);
    }
    let artifact = Artifact {
        book: job.prepared.config.id.clone(),
        lang: job.prepared.edition.book.lang.clone(),
        format: job.renderer.name(),
        path,
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        written,
    };
    let page_count = rendered.pages.as_ref().and_then(PageMap::page_count);
    Ok(JobDone {
        artifact,
        warnings: rendered.warnings,
        pages: rendered.pages,
        page_count,
        files,
        cached: false,
    })
}

/// Writes `bytes` to `path` unless the file already holds exactly them (a
/// file left alone keeps its time, for the tools that watch the output);
/// true when it wrote.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<bool, Vec<Diagnostic>> {
    if stoa_render::file_holds(path, bytes) {
        return Ok(false);
    }
    write_atomically(path, bytes).map_err(|e| vec![crate::output::cannot_write(path, &e)])?;
    Ok(true)
}
