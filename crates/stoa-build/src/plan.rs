//! What to build, and building it: books × languages × formats, in parallel.

use crate::output::write_atomically;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;
use stoa_book::{BookConfig, Edition, load_config, load_editions};
use stoa_doc::{ChapterKind, Diagnostic, IdIndex, NotesPlan};
pub use stoa_render::Format;
use stoa_render::{Output, PageMap, RenderContext, Renderer, Theme};

/// Every output format stoa writes, one renderer each. A new format is a
/// new crate implementing [`Renderer`] and one line here.
static RENDERERS: &[&dyn Renderer] = &[
    &stoa_epub::EpubRenderer,
    &stoa_pdf::PdfRenderer,
    &stoa_html::HtmlRenderer,
];

/// The renderer of `format`.
pub(crate) fn renderer(format: Format) -> &'static dyn Renderer {
    RENDERERS
        .iter()
        .copied()
        .find(|r| r.format() == format)
        .expect("every format has a renderer in RENDERERS")
}

/// The renderer that draws covers, if any.
fn cover_painter() -> Option<&'static dyn Renderer> {
    RENDERERS.iter().copied().find(|r| r.draws_covers())
}

/// What to build and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The folder that holds one folder per book.
    pub books_dir: PathBuf,
    /// The folder that holds one folder per theme.
    pub themes_dir: PathBuf,
    /// Where artifacts go: `<out>/<book>/<book>-<lang>.<ext>`.
    pub out_dir: PathBuf,
    /// Book ids to build; empty means all.
    pub books: Vec<String>,
    /// Languages to build; empty means all.
    pub languages: Vec<String>,
    /// Formats to build.
    pub formats: Vec<Format>,
    /// Worker threads; `None` means one per core.
    pub jobs: Option<usize>,
    /// Also write the renderers' intermediate sources (the generated
    /// Typst) beside each artifact.
    pub emit_sources: bool,
    /// SOURCE_DATE_EPOCH, for the modification date in the metadata.
    pub source_date_epoch: Option<i64>,
    /// Also write the download page (index.html) and the OPDS catalogs.
    pub site: bool,
    /// Make stale translations errors instead of warnings (`--deny-stale`).
    pub deny_stale: bool,
    /// Folders to look for plugins in first (`--plugin-dir`).
    pub plugin_dirs: Vec<PathBuf>,
    /// The value of STOA_PLUGIN_PATH, if set.
    pub plugin_path: Option<std::ffi::OsString>,
    /// The folder of the stoa executable, searched last.
    pub exe_dir: Option<PathBuf>,
}

/// One file the build wrote.
#[derive(Clone, Debug)]
pub struct Artifact {
    /// Book id.
    pub book: String,
    /// Language tag.
    pub lang: String,
    /// Format.
    pub format: Format,
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
    fn fail(&mut self, sink: Sink, name: &str, errors: Vec<Diagnostic>) {
        if errors.is_empty() {
            return;
        }
        sink(Event::Failed(name, &errors));
        self.errors.extend(errors);
    }
}

/// Where a build tells what it does.
pub type Sink<'a> = &'a (dyn Fn(Event) + Sync);

/// Builds what `options` asks for, telling `sink` as it goes.
pub fn build(options: &BuildOptions, sink: Sink) -> Report {
    // One build per output folder at a time; what an interrupted build left
    // is removed before anything new is written.
    let _lock = match crate::guard::OutputLock::acquire(&options.out_dir) {
        Ok(lock) => lock,
        Err(error) => {
            let mut report = Report::default();
            report.fail(sink, "output folder", vec![error]);
            return report;
        }
    };
    crate::guard::remove_leftovers(&options.out_dir);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build();
    match pool {
        Ok(pool) => pool.install(|| build_in_pool(options, sink)),
        Err(e) => {
            let mut report = Report::default();
            let error = Diagnostic::error(format!("cannot start worker threads: {e}"));
            report.fail(sink, "build", vec![error]);
            report
        }
    }
}

fn build_in_pool(options: &BuildOptions, sink: Sink) -> Report {
    build_or_check(options, sink, None)
}

/// A build, or with `check` set, everything a build validates without
/// writing (see `crate::check`).
pub(crate) fn build_or_check(
    options: &BuildOptions,
    sink: Sink,
    check: Option<crate::check::Depth>,
) -> Report {
    let mut report = Report::default();
    let configs = match select_books(options) {
        Ok(configs) => configs,
        Err(errors) => {
            report.fail(sink, "build", errors);
            return report;
        }
    };
    let chosen: Vec<&BookConfig> = configs.iter().flatten().collect();
    if crate::translations::report_stale(options, &chosen, sink, &mut report) {
        return report;
    }
    let mut editions = Vec::new();
    let loaded: Vec<_> = configs
        .par_iter()
        .map(|config| match config {
            Ok(config) => {
                let langs = (!options.languages.is_empty()).then_some(options.languages.as_slice());
                let editions = load_editions(config, langs, options.source_date_epoch);
                (Some(config), editions, Vec::new())
            }
            Err(errors) => (None, Vec::new(), errors.clone()),
        })
        .collect();
    let loaded: Vec<_> = loaded
        .into_par_iter()
        .map(|(config, results, errors)| {
            let results: Vec<_> = results
                .into_par_iter()
                .map(|(lang, result)| {
                    let result = result
                        .and_then(|e| {
                            crate::plugins::run_plugins(
                                options,
                                config.expect("a loaded config"),
                                e,
                            )
                        })
                        .map(draw_diagrams)
                        .map(|e| place_note_calls(config.expect("a loaded config"), e));
                    (lang, result)
                })
                .collect();
            (config, results, errors)
        })
        .collect();
    // A mistake in book.toml met by every edition is told once, at its line.
    let mut reported = crate::diagnostics::Reported::default();
    for (config, results, errors) in loaded {
        let file = errors
            .first()
            .and_then(|e| e.file.clone())
            .unwrap_or_default();
        report.fail(sink, &file, errors);
        for (lang, result) in results {
            match result {
                Ok(edition) => {
                    editions.push((config.expect("editions come from a config"), edition))
                }
                Err(errors) => {
                    let id = config.map_or(String::new(), |c| c.id.clone());
                    let names = || crate::diagnostics::plugin_names(options, config);
                    let errors = reported.settle(config, errors, &names);
                    report.fail(sink, &format!("{id} ({lang})"), errors);
                }
            }
        }
    }
    for (_, edition) in &editions {
        for warning in &edition.warnings {
            sink(Event::Warning(warning));
            report.warnings.push(warning.clone());
        }
    }
    if let Some(depth) = check {
        crate::check::validate(options, &editions, depth, sink, &mut report);
        return report;
    }
    if options.site && !editions.is_empty() {
        // The page lists every file with its SHA-256: until it is written
        // again, last, from the files on disk, no page is better than one
        // whose sums an interrupted build made wrong. (With no edition to
        // build, no file changes and the page stays.)
        if let Err(error) = retire_site(&options.out_dir) {
            report.fail(sink, "download page", vec![error]);
            return report;
        }
    }
    let page_counts = render_all(options, &editions, sink, &mut report);
    write_site(options, &editions, &page_counts, sink, &mut report);
    report
}

/// Writes each edition's cover thumbnail, then the download page and the
/// OPDS catalogs listing every edition whose files are in the output folder.
fn write_site(
    options: &BuildOptions,
    editions: &[(&BookConfig, Edition)],
    page_counts: &PageCounts,
    sink: Sink,
    report: &mut Report,
) {
    if !options.site {
        return;
    }
    let entries: Vec<Result<Option<stoa_site::SiteEntry>, Vec<Diagnostic>>> = editions
        .par_iter()
        .map(|(config, edition)| {
            let pages = page_counts
                .get(&(config.id.clone(), edition.book.lang.clone()))
                .copied();
            site_entry(options, config, edition, pages)
        })
        .collect();
    let mut listed = Vec::new();
    for entry in entries {
        match entry {
            Ok(Some(entry)) => listed.push(entry),
            Ok(None) => {}
            Err(errors) => report.fail(sink, "download page", errors),
        }
    }
    // A PDF this build did not make keeps the page count it had.
    crate::site::keep_page_counts(options, &mut listed);
    // A partial build lists what earlier builds left in the folder too.
    let listed = crate::site::with_previous(options, listed);
    if listed.is_empty() {
        return;
    }
    if let Err(error) = stoa_site::write_site(&options.out_dir, &listed) {
        report.fail(sink, "download page", vec![error]);
    }
}

/// Removes the download page and the OPDS catalogs before any artifact is
/// replaced (see `build_in_pool`).
fn retire_site(out_dir: &Path) -> Result<(), Diagnostic> {
    let Ok(entries) = std::fs::read_dir(out_dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = name == stoa_site::INDEX_HTML
            || name == stoa_site::OPDS_XML
            || (name.starts_with("opds-") && name.ends_with(".xml"));
        if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
            std::fs::remove_file(entry.path()).map_err(|e| {
                Diagnostic::error(format!("cannot replace {}: {e}", entry.path().display()))
            })?;
        }
    }
    Ok(())
}

/// Puts the edition's note calls before or after punctuation as its
/// language (or book.toml) says, after the plugins have added their notes.
fn place_note_calls(config: &BookConfig, mut edition: Edition) -> Edition {
    if let Some(language) = config.languages.iter().find(|l| l.tag == edition.book.lang) {
        crate::note_calls::place(&mut edition.book, language.note_call);
    }
    edition
}

/// Thumbnail size: 0.75 pixel per point gives about 300 × 446 pixels.
const THUMBNAIL_PIXELS_PER_PT: f32 = 0.75;

/// The thumbnail for high-density screens (`srcset` 2x): twice as sharp,
/// since the page shows the cover up to 176 CSS pixels wide.
const THUMBNAIL_2X_PIXELS_PER_PT: f32 = 2.0 * THUMBNAIL_PIXELS_PER_PT;

/// The PDF's page count of each edition rendered, by (book id, language).
type PageCounts = std::collections::BTreeMap<(String, String), usize>;

/// The entry of one edition on the download page; `pages` is the page count
/// of the PDF this build made, if it made one.
fn site_entry(
    options: &BuildOptions,
    config: &BookConfig,
    edition: &Edition,
    pages: Option<usize>,
) -> Result<Option<stoa_site::SiteEntry>, Vec<Diagnostic>> {
    let book = &edition.book;
    let stem = format!("{}-{}", config.id, book.lang);
    let mut files = Vec::new();
    let mut web = None;
    for format in Format::ALL {
        let file = PathBuf::from(&config.id).join(format!("{stem}.{}", format.name()));
        let index = PathBuf::from(&config.id)
            .join(&book.lang)
            .join("index.html");
        if options.out_dir.join(&file).is_file() {
            files.push(file);
        } else if options.out_dir.join(&index).is_file() && format == Format::Html {
            web = Some(index);
        }
    }
    if files.is_empty() && web.is_none() {
        return Ok(None);
    }
    let (cover, cover_2x) = match cover_painter() {
        Some(painter) => {
            let (notes, ids) = (NotesPlan::of(book), IdIndex::default());
            let theme = theme_dir(options, config)?;
            let ctx = RenderContext {
                book,
                notes: &notes,
                ids: &ids,
                theme: &theme,
                roots: &edition.roots,
                cover_png: None,
                emit_sources: false,
                pages: None,
                alternates: &[],
            };
            let png = painter.cover_png(&ctx, THUMBNAIL_PIXELS_PER_PT)?;
            let cover = PathBuf::from(&config.id).join(format!("{stem}-cover.png"));
            write(&options.out_dir.join(&cover), &png)?;
            let png = painter.cover_png(&ctx, THUMBNAIL_2X_PIXELS_PER_PT)?;
            let cover_2x = PathBuf::from(&config.id).join(format!("{stem}-cover-2x.png"));
            write(&options.out_dir.join(&cover_2x), &png)?;
            (Some(cover), Some(cover_2x))
        }
        None => (None, None),
    };
    let has_pdf = files
        .iter()
        .any(|f| f.extension().is_some_and(|e| e == Format::Pdf.name()));
    Ok(Some(stoa_site::SiteEntry {
        book: config.id.clone(),
        lang: book.lang.clone(),
        title: book.meta.title.clone(),
        subtitle: book.meta.subtitle.clone(),
        author: book.meta.author.clone(),
        description: book.meta.description.clone(),
        identifier: book.meta.identifier.clone(),
        date: book.meta.date.clone(),
        modified: book.meta.modified.clone(),
        cover,
        cover_2x,
        files,
        web,
        pages: pages.filter(|_| has_pdf),
        contents: book.chapters.iter().map(|c| c.title.clone()).collect(),
        contents_label: Some(book.labels.contents.clone()),
        posts: book
            .chapters
            .iter()
            .filter(|c| c.kind == ChapterKind::Post)
            .count(),
        book_posts: config.posts.len(),
    }))
}

/// Loads the configuration of every selected book. An unknown book or
/// language asked for on the command line is an error for the whole build.
fn select_books(
    options: &BuildOptions,
) -> Result<Vec<Result<BookConfig, Vec<Diagnostic>>>, Vec<Diagnostic>> {
    let dirs = stoa_book::discover(&options.books_dir).map_err(|d| vec![d])?;
    let ids: Vec<String> = dirs.iter().map(|d| file_name(d)).collect();
    let mut errors = Vec::new();
    if dirs.is_empty() {
        errors.push(
            Diagnostic::error(format!("no book found in {}", options.books_dir.display()))
                .with_hint("a book is a folder with a book.toml; see docs/reference.md"),
        );
    }
    for wanted in options.books.iter().filter(|b| !ids.contains(b)) {
        errors.push(
            Diagnostic::error(format!(
                "there is no book `{wanted}` in {}",
                options.books_dir.display()
            ))
            .with_hint(match stoa_book::suggest::closest(wanted, &ids) {
                Some(near) => format!("did you mean `{near}`? The books are: {}", ids.join(", ")),
                None => format!("the books are: {}", ids.join(", ")),
            }),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let chosen: Vec<&PathBuf> = dirs
        .iter()
        .filter(|d| options.books.is_empty() || options.books.contains(&file_name(d)))
        .collect();
    let configs: Vec<_> = chosen.par_iter().map(|d| load_config(d)).collect();
    for lang in &options.languages {
        let known = configs
            .iter()
            .flatten()
            .any(|c| c.languages.iter().any(|l| &l.tag == lang));
        let all_loaded = configs.iter().all(Result::is_ok);
        if !known && all_loaded {
            let tags: Vec<&str> = configs
                .iter()
                .flatten()
                .flat_map(|c| c.languages.iter().map(|l| l.tag.as_str()))
                .collect();
            let hint = match stoa_book::suggest::closest(lang, &tags) {
                Some(near) => format!("did you mean `{near}`? Or drop --lang"),
                None => "check the `languages` of the books, or drop --lang".to_string(),
            };
            errors.push(
                Diagnostic::error(format!("no selected book is written in `{lang}`"))
                    .with_hint(hint),
            );
        }
    }
    if errors.is_empty() {
        Ok(configs)
    } else {
        Err(errors)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// One edition with what every format reads, computed once: the notes
/// plan, the id index, the theme and the cover.
pub(crate) struct Prepared<'a> {
    config: &'a BookConfig,
    edition: &'a Edition,
    notes: NotesPlan,
    ids: IdIndex,
    theme: Theme,
    cover: Option<Vec<u8>>,
    alternates: Vec<stoa_render::Alternate>,
}

impl Prepared<'_> {
    pub(crate) fn context(&self, options: &BuildOptions) -> RenderContext<'_> {
        self.context_with(options, None)
    }

    /// The context, with the print edition's page map when there is one.
    fn context_with<'p>(
        &'p self,
        options: &BuildOptions,
        pages: Option<&'p PageMap>,
    ) -> RenderContext<'p> {
        RenderContext {
            book: &self.edition.book,
            notes: &self.notes,
            ids: &self.ids,
            theme: &self.theme,
            roots: &self.edition.roots,
            cover_png: self.cover.as_deref(),
            emit_sources: options.emit_sources,
            pages,
            alternates: &self.alternates,
        }
    }

    fn stem(&self) -> String {
        format!("{}-{}", self.config.id, self.edition.book.lang)
    }
}

/// Cover resolution: 3 pixels per point makes a 14 × 21 cm cover about
/// 1190 × 1786 pixels, sharp on tablets without bloating the EPUB.
const COVER_PIXELS_PER_PT: f32 = 3.0;

pub(crate) fn prepare<'a>(
    options: &BuildOptions,
    config: &'a BookConfig,
    edition: &'a Edition,
) -> Result<Prepared<'a>, Vec<Diagnostic>> {
    let mut prepared = Prepared {
        config,
        edition,
        notes: NotesPlan::of(&edition.book),
        ids: IdIndex::of(&edition.book),
        theme: theme_dir(options, config)?,
        cover: None,
        alternates: Vec::new(),
    };
    // The EPUB's and the web edition's cover is the print edition's first
    // page, drawn once for both, so that every edition looks alike.
    let wants_cover = options.formats.iter().any(|&f| !renderer(f).draws_covers());
    if let (true, Some(painter)) = (wants_cover, cover_painter()) {
        let png = painter.cover_png(&prepared.context(options), COVER_PIXELS_PER_PT)?;
        prepared.cover = Some(png);
    }
    Ok(prepared)
}

struct Job<'a> {
    prepared: &'a Prepared<'a>,
    format: Format,
}

impl Job<'_> {
    fn name(&self) -> String {
        format!("{}.{}", self.prepared.stem(), self.format.name())
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

fn render_all(
    options: &BuildOptions,
    editions: &[(&BookConfig, Edition)],
    sink: Sink,
    report: &mut Report,
) -> PageCounts {
    let prepared: Vec<_> = editions
        .par_iter()
        .map(|(config, edition)| prepare(options, config, edition))
        .collect();
    let mut ready = Vec::new();
    for result in prepared {
        match result {
            Ok(p) => ready.push(p),
            Err(errors) => report.fail(sink, "cover", errors),
        }
    }
    let books = ready
        .iter()
        .map(|p| (p.config.id.as_str(), &p.edition.book));
    let alternates = crate::translations::alternates(books);
    for (p, alternates) in ready.iter_mut().zip(alternates) {
        p.alternates = alternates;
    }
    sink(Event::Planned(ready.len() * options.formats.len()));
    // Per edition, the formats that map pages (the PDF) come first: the
    // others mark the print pages with their map. Editions run in parallel.
    let results: Vec<_> = ready
        .par_iter()
        .flat_map_iter(|prepared| {
            let key = (
                prepared.config.id.clone(),
                prepared.edition.book.lang.clone(),
            );
            let (first, rest): (Vec<Format>, Vec<Format>) = options
                .formats
                .iter()
                .partition(|&&f| renderer(f).maps_pages());
            let mut pages = None;
            let mut results = Vec::new();
            for format in first {
                let result = run_reported(options, &Job { prepared, format }, None, sink);
                if let Ok((_, _, Some(map))) = &result {
                    pages = Some(map.clone());
                }
                results.push(result);
            }
            let later: Vec<_> = rest
                .par_iter()
                .map(|&format| {
                    run_reported(options, &Job { prepared, format }, pages.as_ref(), sink)
                })
                .collect();
            results.extend(later);
            results.into_iter().map(move |r| (key.clone(), r))
        })
        .collect();
    let mut page_counts = PageCounts::new();
    for (key, result) in results {
        match result {
            Ok((artifact, warnings, map)) => {
                if let Some(count) = map.as_ref().and_then(PageMap::page_count) {
                    page_counts.insert(key, count);
                }
                report.artifacts.push(artifact);
                report.warnings.extend(warnings);
            }
            // Already shown by `run_reported`.
            Err(errors) => report.errors.extend(errors),
        }
    }
    report.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    page_counts
}

/// What one job made: the artifact, its warnings, and its page map.
type JobResult = Result<(Artifact, Vec<Diagnostic>, Option<PageMap>), Vec<Diagnostic>>;

/// [`run_job`], telling the sink how it went.
fn run_reported(
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
        Ok((artifact, _, _)) => sink(Event::Built(artifact)),
        Err(errors) => sink(Event::Failed(&job.name(), errors)),
    }
    result
}

fn run_job(options: &BuildOptions, job: &Job, pages: Option<&PageMap>, sink: Sink) -> JobResult {
    let started = Instant::now();
    let rendered = renderer(job.format).render(&job.prepared.context_with(options, pages))?;
    for warning in &rendered.warnings {
        sink(Event::Warning(warning));
    }
    let path = job.path(&options.out_dir, &rendered.output);
    match &rendered.output {
        Output::File(bytes) => write(&path, bytes)?,
        Output::Folder(files) => write_folder(&path, files)?,
    }
    for (ext, bytes) in &rendered.sources {
        let stem = job.prepared.stem();
        let source = path.with_file_name(format!("{stem}.{ext}"));
        write(&source, bytes)?;
    }
    let artifact = Artifact {
        book: job.prepared.config.id.clone(),
        lang: job.prepared.edition.book.lang.clone(),
        format: job.format,
        path,
        bytes: rendered.output.bytes(),
        seconds: started.elapsed().as_secs_f64(),
        written: true,
    };
    Ok((artifact, rendered.warnings, rendered.pages))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Vec<Diagnostic>> {
    write_atomically(path, bytes).map_err(|e| {
        vec![Diagnostic::error(format!(
            "cannot write {}: {e}",
            path.display()
        ))]
    })
}

fn write_folder(path: &Path, files: &[(String, Vec<u8>)]) -> Result<(), Vec<Diagnostic>> {
    crate::output::replace_folder(path, files).map_err(|e| {
        vec![Diagnostic::error(format!(
            "cannot write {}: {e}",
            path.display()
        ))]
    })
}

/// The book's theme: the folder `themes/<name>/` when there is one, else
/// the theme of that name built into stoa (`classic`).
fn theme_dir(options: &BuildOptions, config: &BookConfig) -> Result<Theme, Vec<Diagnostic>> {
    let dir = options.themes_dir.join(&config.theme);
    if let Some(theme) = Theme::resolve(&options.themes_dir, &config.theme) {
        Ok(theme)
    } else {
        Err(vec![
            Diagnostic::error(format!(
                "the theme `{}` does not exist: no folder {} and no built-in theme of that name",
                config.theme,
                dir.display()
            ))
            .in_file(&config.file)
            .with_hint(crate::diagnostics::theme_hint(options, &config.theme)),
        ])
    }
}

/// Draws the edition's diagrams once, after the plugins (which still see
/// the author's code blocks), for every format to read from the tree.
fn draw_diagrams(mut edition: Edition) -> Edition {
    let read = |file: &str| std::fs::read_to_string(file).ok();
    let warnings = stoa_diagram::draw_book(&mut edition.book, &read);
    edition.warnings.extend(warnings);
    edition
}
