//! What to build, and building it: books × languages × formats, in parallel.

use crate::cache::Cache;
use crate::output::write_atomically;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;
use stoa_book::{BookConfig, Edition, load_config};
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

impl BuildOptions {
    /// Every book, language and format of `books_dir` into `out_dir`, with
    /// the themes of `themes_dir`, one worker per core: what `stoa build`
    /// does with no options but `--no-site`. Change the fields to narrow it.
    pub fn new(books_dir: PathBuf, themes_dir: PathBuf, out_dir: PathBuf) -> BuildOptions {
        BuildOptions {
            books_dir,
            themes_dir,
            out_dir,
            books: Vec::new(),
            languages: Vec::new(),
            formats: Format::ALL.to_vec(),
            jobs: None,
            emit_sources: false,
            source_date_epoch: None,
            site: false,
            deny_stale: false,
            plugin_dirs: Vec::new(),
            plugin_path: None,
            exe_dir: None,
        }
    }
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

/// Builds what `options` asks for, telling `sink` as it goes. What the
/// cache in the output folder shows unchanged since the last build is
/// neither rendered nor written (see `crate::cache`).
pub fn build(options: &BuildOptions, sink: Sink) -> Report {
    build_cached(options, sink, &mut Cache::default())
}

/// Builds like [`build`], but makes every artifact again whatever the cache
/// says (`stoa build --force`); the cache is then written afresh.
pub fn build_forced(options: &BuildOptions, sink: Sink) -> Report {
    build_cached(options, sink, &mut Cache::forced(&options.out_dir))
}

/// The error for a link to a folder inside the output folder: what stoa
/// wrote into it would land outside the output folder.
fn link_inside(out_dir: &Path) -> Option<Diagnostic> {
    let (link, to) = crate::output::folder_link_inside(out_dir)?;
    Some(
        Diagnostic::error(format!(
            "{} is a link to {}: stoa writes only inside its output folder, never through a link",
            link.display(),
            to.display()
        ))
        .with_hint("remove the link (the build makes the folder again), or build into another folder with --out"),
    )
}

/// A build that reads and updates `cache` (read from the output folder
/// unless it already holds that folder's store).
pub(crate) fn build_cached(options: &BuildOptions, sink: Sink, cache: &mut Cache) -> Report {
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
    let _whole = crate::timings::phase(|| "build".into());
    crate::guard::remove_leftovers(&options.out_dir);
    if let Some(error) = link_inside(&options.out_dir) {
        let mut report = Report::default();
        report.fail(sink, "output folder", vec![error]);
        return report;
    }
    // Read under the lock: another build may be writing it until then.
    cache.attach(&options.out_dir);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build();
    let report = match pool {
        Ok(pool) => pool.install(|| build_or_check_with(options, sink, None, Some(&mut *cache))),
        Err(e) => {
            let mut report = Report::default();
            let error = Diagnostic::error(format!("cannot start worker threads: {e}"));
            report.fail(sink, "build", vec![error]);
            report
        }
    };
    let _t = crate::timings::phase(|| "cache store".into());
    cache.finish(&options.out_dir, report.ok());
    report
}

/// A build, or with `check` set, everything a build validates without
/// writing (see `crate::check`).
pub(crate) fn build_or_check(
    options: &BuildOptions,
    sink: Sink,
    check: Option<crate::check::Depth>,
) -> Report {
    build_or_check_with(options, sink, check, None)
}

/// [`build_or_check`], skipping what `cache` shows unchanged.
fn build_or_check_with(
    options: &BuildOptions,
    sink: Sink,
    check: Option<crate::check::Depth>,
    cache: Option<&mut Cache>,
) -> Report {
    let mut report = Report::default();
    let t = crate::timings::phase(|| "books and stale translations".into());
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
    drop(t);
    let t = crate::timings::phase(|| "plan (hash inputs)".into());
    // What the cache shows unchanged: those books are not even loaded. The
    // download page needs every edition's entry when its own list is gone.
    let mut incr = cache.map(|cache| {
        let load_all = options.site && !cache.site().is_some_and(|m| m.intact(&options.out_dir));
        let plan = crate::incremental::Plan::new(options, &chosen, cache, load_all);
        crate::incremental::Incremental::new(cache, plan)
    });
    drop(t);
    let t = crate::timings::phase(|| "load editions (parse, plugins, diagrams)".into());
    // Only the editions the cache does not show unchanged are loaded.
    let to_load = |config: &BookConfig| match incr.as_ref() {
        Some(incr) => incr.plan.to_load(&config.id),
        None => crate::incremental::selected_languages(options, config),
    };
    let wanted: Vec<(&BookConfig, Vec<String>)> = chosen.iter().map(|c| (*c, to_load(c))).collect();
    for errors in configs.iter().filter_map(|c| c.as_ref().err()) {
        let file = errors
            .first()
            .and_then(|e| e.file.clone())
            .unwrap_or_default();
        report.fail(sink, &file, errors.clone());
    }
    let mut loading = Loading::default();
    loading.load(options, wanted, sink, &mut report);
    if let Some(incr) = incr.as_mut() {
        incr.record_editions(options, &loading.editions);
        // Editions that link to the ones just loaded are loaded too when
        // those editions' chapters changed.
        let more = incr.settle_pending(options, &chosen);
        let wanted: Vec<(&BookConfig, Vec<String>)> = chosen
            .iter()
            .map(|c| {
                let langs = more.iter().filter(|(b, _)| *b == c.id);
                (*c, langs.map(|(_, l)| l.clone()).collect())
            })
            .collect();
        let first = loading.load(options, wanted, sink, &mut report);
        incr.record_editions(options, &loading.editions[first..]);
    }
    let mut editions = loading.editions;
    // In the order of a cold build: books as selected, languages as listed.
    let position = |config: &BookConfig, lang: &str| {
        let book = chosen.iter().position(|c| c.id == config.id);
        (book, config.languages.iter().position(|l| l.tag == lang))
    };
    editions.sort_by_key(|(config, edition)| position(config, &edition.book.lang));
    drop(t);
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
    let mut site_key = None;
    let mut site_fresh = false;
    if let Some(incr) = incr.as_mut() {
        incr.replay_warnings(sink, &mut report);
        site_key = incr.site_key(options, &configs, !report.ok());
        site_fresh = site_key.as_ref().is_some_and(|k| {
            incr.cache
                .site()
                .is_some_and(|m| m.fresh(&options.out_dir, k))
        });
    }
    if options.site && !editions.is_empty() && !site_fresh {
        // The page lists every file with its SHA-256: until it is written
        // again, last, from the files on disk, no page is better than one
        // whose sums an interrupted build made wrong. (With no edition to
        // build, no file changes and the page stays.)
        if let Err(error) = retire_site(&options.out_dir) {
            report.fail(sink, "download page", vec![error]);
            return report;
        }
    }
    let t = crate::timings::phase(|| "render".into());
    let page_counts = render_all(options, &editions, sink, &mut report, incr.as_mut());
    drop(t);
    let _t = crate::timings::phase(|| "download page".into());
    if !site_fresh {
        let site_key = site_key.filter(|_| report.ok());
        write_site(
            options,
            &editions,
            &page_counts,
            sink,
            &mut report,
            incr,
            site_key,
        );
    }
    report
}

/// The editions a build loaded, and the mistakes it told.
#[derive(Default)]
struct Loading<'a> {
    editions: Vec<(&'a BookConfig, Edition)>,
    /// A mistake in book.toml met by every edition is told once, at its line.
    reported: crate::diagnostics::Reported,
}

impl<'a> Loading<'a> {
    /// Loads the editions of each book in the languages given with it, with
    /// the book's plugins run, diagrams drawn and note calls placed; reports
    /// those that fail. Returns the index of the first edition it added.
    fn load(
        &mut self,
        options: &BuildOptions,
        wanted: Vec<(&'a BookConfig, Vec<String>)>,
        sink: Sink,
        report: &mut Report,
    ) -> usize {
        let first = self.editions.len();
        let loaded: Vec<_> = wanted
            .into_par_iter()
            .filter(|(_, langs)| !langs.is_empty())
            .map(|(config, langs)| {
                let _t = crate::timings::phase(|| format!("  load {}", config.id));
                let results = crate::plugins::load_editions(options, config, Some(&langs));
                let results: Vec<_> = results
                    .into_par_iter()
                    .map(|(lang, result)| {
                        let result = result
                            .map(draw_diagrams)
                            .map(|e| place_note_calls(config, e));
                        (lang, result)
                    })
                    .collect();
                (config, results)
            })
            .collect();
        for (config, results) in loaded {
            for (lang, result) in results {
                match result {
                    Ok(edition) => self.editions.push((config, edition)),
                    Err(errors) => {
                        let names = || crate::diagnostics::plugin_names(options, Some(config));
                        let errors = self.reported.settle(Some(config), errors, &names);
                        report.fail(sink, &format!("{} ({lang})", config.id), errors);
                    }
                }
            }
        }
        first
    }
}

/// Writes each edition's cover thumbnail, then the download page and the
/// OPDS catalogs listing every edition whose files are in the output folder.
fn write_site(
    options: &BuildOptions,
    editions: &[(&BookConfig, Edition)],
    page_counts: &PageCounts,
    sink: Sink,
    report: &mut Report,
    mut incr: Option<crate::incremental::Incremental>,
    site_key: Option<crate::cache::Key>,
) {
    if let Some(incr) = incr.as_mut() {
        incr.forget_others(options);
    }
    if !options.site {
        return;
    }
    // The thumbnails the cache shows unchanged are not drawn again.
    let thumbnails: Vec<(Option<crate::cache::Key>, bool)> = editions
        .iter()
        .map(|(config, edition)| match incr.as_ref() {
            Some(incr) => incr.thumbnails(options, config, &edition.book.lang),
            None => (None, false),
        })
        .collect();
    let entries: Vec<Result<Option<stoa_site::SiteEntry>, Vec<Diagnostic>>> = editions
        .par_iter()
        .zip(&thumbnails)
        .map(|((config, edition), (_, fresh))| {
            let pages = page_counts
                .get(&(config.id.clone(), edition.book.lang.clone()))
                .copied();
            site_entry(options, config, edition, pages, *fresh)
        })
        .collect();
    let mut listed = Vec::new();
    for ((entry, (key, fresh)), (config, edition)) in
        entries.into_iter().zip(thumbnails).zip(editions)
    {
        match entry {
            Ok(Some(entry)) => {
                if let (Some(incr), false) = (incr.as_mut(), fresh) {
                    let drawn: Vec<PathBuf> = [&entry.cover, &entry.cover_2x]
                        .into_iter()
                        .flatten()
                        .map(|p| options.out_dir.join(p))
                        .collect();
                    let made = key.and_then(|key| {
                        let path = drawn.first()?.clone();
                        crate::cache::Made::new(
                            &options.out_dir,
                            key,
                            path,
                            0,
                            &drawn,
                            Vec::new(),
                            None,
                        )
                    });
                    let id = crate::incremental::edition_id(&config.id, &edition.book.lang);
                    incr.cache.set_thumbnails(id, made);
                }
                listed.push(entry)
            }
            Ok(None) => {}
            Err(errors) => report.fail(sink, "download page", errors),
        }
    }
    // A PDF this build did not make keeps the page count it had.
    crate::site::keep_page_counts(options, &mut listed);
    // A partial build lists what earlier builds left in the folder too.
    let listed = crate::site::with_previous(options, listed);
    if let Some(incr) = incr.as_mut() {
        incr.cache.set_site(None);
    }
    if listed.is_empty() {
        return;
    }
    match stoa_site::write_site(&options.out_dir, &listed) {
        Ok(mut written) => {
            // Remembered only when this build made everything it planned.
            written.push(options.out_dir.join(stoa_site::MANIFEST));
            // The page lists the files it found: one removed or changed
            // by hand (a PDF deleted) makes it stale.
            for entry in &listed {
                let files = entry
                    .files
                    .iter()
                    .chain(&entry.cover)
                    .chain(&entry.cover_2x);
                written.extend(files.chain(&entry.web).map(|f| options.out_dir.join(f)));
            }
            let index = options.out_dir.join(stoa_site::INDEX_HTML);
            if let (Some(incr), Some(key), true) = (incr.as_mut(), site_key, report.ok()) {
                let made = crate::cache::Made::new(
                    &options.out_dir,
                    key,
                    index,
                    0,
                    &written,
                    Vec::new(),
                    None,
                );
                incr.cache.set_site(made);
            }
        }
        Err(error) => report.fail(sink, "download page", vec![error]),
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
    thumbnails_fresh: bool,
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
        // Drawn by an earlier build from the same edition and theme, and
        // still as it left them.
        Some(_) if thumbnails_fresh => (
            Some(PathBuf::from(&config.id).join(format!("{stem}-cover.png"))),
            Some(PathBuf::from(&config.id).join(format!("{stem}-cover-2x.png"))),
        ),
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
                layout: &edition.layout,
            };
            let _t = crate::timings::phase(|| format!("  thumbnails {stem}"));
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
        parts: edition
            .layout
            .groups(&book.chapters)
            .into_iter()
            .filter_map(|group| {
                Some(stoa_site::ContentsPart {
                    title: edition.layout.parts[group.part?].title.clone(),
                    start: *group.chapters.first()?,
                    len: group.chapters.len(),
                })
            })
            .collect(),
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
            layout: &self.edition.layout,
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
    // The EPUB's and the web edition's cover is the print edition's first
    // page, drawn once for both, so that every edition looks alike.
    let wants_cover = options.formats.iter().any(|&f| !renderer(f).draws_covers());
    let cover = if wants_cover {
        CoverPlan::Draw
    } else {
        CoverPlan::Skip
    };
    prepare_with(options, config, edition, cover)
}

/// Where an edition's cover comes from.
pub(crate) enum CoverPlan {
    /// No format of this build that is made needs one.
    Skip,
    /// Drawn by an earlier build of this session.
    Known(Vec<u8>),
    /// To be drawn now.
    Draw,
}

/// [`prepare`], with the cover as `cover` says.
fn prepare_with<'a>(
    options: &BuildOptions,
    config: &'a BookConfig,
    edition: &'a Edition,
    cover: CoverPlan,
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
    match (cover, cover_painter()) {
        (CoverPlan::Known(png), _) => prepared.cover = Some(png),
        (CoverPlan::Draw, Some(painter)) => {
            let _t = crate::timings::phase(|| format!("  cover {}", prepared.stem()));
            let png = painter.cover_png(&prepared.context(options), COVER_PIXELS_PER_PT)?;
            prepared.cover = Some(png);
        }
        _ => {}
    }
    Ok(prepared)
}

struct Job<'a> {
    prepared: &'a Prepared<'a>,
    format: Format,
    /// Write the files even when they hold these bytes (`--force`).
    rewrite: bool,
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
    mut incr: Option<&mut crate::incremental::Incremental>,
) -> PageCounts {
    // What the cache says of each edition: which formats are fresh, the
    // page map and the cover it still holds.
    let works: Vec<crate::incremental::Work> = editions
        .iter()
        .map(|(config, edition)| match incr.as_deref_mut() {
            Some(incr) => incr.work(options, config, &edition.book.lang),
            None => crate::incremental::Work::cold(options),
        })
        .collect();
    let prepared: Vec<_> = editions
        .par_iter()
        .zip(works)
        .map(|((config, edition), mut work)| {
            let cover = work.cover.take().unwrap_or(CoverPlan::Skip);
            prepare_with(options, config, edition, cover).map(|p| (p, work))
        })
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
        .map(|(p, _)| (p.config.id.as_str(), &p.edition.book));
    let alternates = crate::translations::alternates(books);
    for ((p, _), mut alternates) in ready.iter_mut().zip(alternates) {
        if let Some(incr) = incr.as_deref() {
            incr.add_unloaded_alternates(p.config, &p.edition.book.lang, &mut alternates);
        }
        p.alternates = alternates;
    }
    let replayed = incr.as_ref().map_or(0, |i| i.replayed_count(options));
    let rewrite = incr.as_ref().is_some_and(|i| i.cache.rewrite);
    sink(Event::Planned(
        (ready.len() * options.formats.len()) + replayed,
    ));
    if let Some(incr) = incr.as_deref_mut() {
        incr.replay_artifacts(options, sink, report);
    }
    let (first, rest): (Vec<Format>, Vec<Format>) = options
        .formats
        .iter()
        .partition(|&&f| renderer(f).maps_pages());
    // After an edit, the EPUB and the web edition are made first, with the
    // page map the edition's PDF made last time in this session: the author
    // sees them without waiting for Typst. They are made again below only
    // if the new PDF maps its pages differently, so that what ends on disk
    // is what a cold build writes.
    let early: Vec<Vec<(Format, Option<JobResult>)>> = ready
        .par_iter()
        .map(|(prepared, work)| {
            let stale = |f: &&Format| work.fresh(**f).is_none();
            let map = work
                .previous_map
                .as_ref()
                .filter(|_| first.iter().any(|f| stale(&f)));
            rest.par_iter()
                .map(|&format| {
                    let result = map.filter(|_| stale(&&format)).map(|map| {
                        let job = Job {
                            prepared,
                            format,
                            rewrite,
                        };
                        run_reported(options, &job, Some(map), sink)
                    });
                    (format, result)
                })
                .collect()
        })
        .collect();
    // Per edition, the formats that map pages (the PDF) come first: the
    // others mark the print pages with their map. Editions run in parallel,
    // in rounds of two per thread: Typst works in parallel inside a
    // compilation, and a thread waiting there starts another edition (rayon
    // steals work), so that without rounds a build of hundreds of editions
    // held many half-made books at once (15 MiB each); two per thread keep
    // the threads busy while one edition waits.
    let per_round = 2 * rayon::current_num_threads().max(1);
    let mut early = early.into_iter();
    let mut results: Vec<EditionJob> = Vec::new();
    for round in ready.chunks(per_round) {
        let early: Vec<_> = early.by_ref().take(round.len()).collect();
        let made: Vec<EditionJob> = round
            .par_iter()
            .zip(early)
            .flat_map_iter(|((prepared, work), early)| {
                let key = (
                    prepared.config.id.clone(),
                    prepared.edition.book.lang.clone(),
                );
                let first = first.clone();
                // A fresh PDF is rendered again (and, its bytes the same, not
                // written) only when a stale format needs its page map and no
                // earlier build of this session kept it.
                let rest_stale = rest.iter().any(|&f| work.fresh(f).is_none());
                let mut pages = None;
                let mut results = Vec::new();
                for format in first {
                    let result = match work.fresh(format) {
                        Some(made) if !rest_stale || work.page_map.is_some() => {
                            pages = work.page_map.clone();
                            cached(prepared, format, made, sink)
                        }
                        _ => run_reported(
                            options,
                            &Job {
                                prepared,
                                format,
                                rewrite,
                            },
                            None,
                            sink,
                        ),
                    };
                    if let Ok(done) = &result
                        && let Some(map) = &done.pages
                    {
                        pages = Some(map.clone());
                    }
                    results.push((format, result));
                }
                let later: Vec<_> = early
                    .into_par_iter()
                    .map(|(format, early)| {
                        let result = match (work.fresh(format), early) {
                            (Some(made), _) => cached(prepared, format, made, sink),
                            // Made with the map the PDF made again: final.
                            (None, Some(result))
                                if pages.is_some() && pages == work.previous_map =>
                            {
                                result
                            }
                            (None, early) => {
                                let job = Job {
                                    prepared,
                                    format,
                                    rewrite,
                                };
                                let mut result = run_reported(options, &job, pages.as_ref(), sink);
                                // Written by this build either way.
                                if let (Some(Ok(early)), Ok(done)) = (&early, &mut result) {
                                    done.artifact.written |= early.artifact.written;
                                    done.artifact.seconds += early.artifact.seconds;
                                }
                                result
                            }
                        };
                        (format, result)
                    })
                    .collect();
                results.extend(later);
                results.into_iter().map(move |r| (key.clone(), r))
            })
            .collect();
        results.extend(made);
    }
    if let Some(incr) = incr {
        let covers = ready
            .iter()
            .filter_map(|(p, w)| Some((w.cover_key.clone()?, p.cover.clone()?)));
        incr.record_covers(covers);
        incr.record_results(options, &results);
    }
    let mut page_counts = PageCounts::new();
    for (key, (_, result)) in results {
        match result {
            Ok(done) => {
                if let Some(count) = done.page_count {
                    page_counts.insert(key, count);
                }
                report.artifacts.push(done.artifact);
                report.warnings.extend(done.warnings);
            }
            // Already shown by `run_reported`.
            Err(errors) => report.errors.extend(errors),
        }
    }
    report.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    page_counts
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
pub(crate) type EditionJob = ((String, String), (Format, JobResult));

/// An artifact the cache shows unchanged: told to the sink as built, its
/// warnings told again, nothing rendered or written.
fn cached(prepared: &Prepared, format: Format, made: &crate::cache::Made, sink: Sink) -> JobResult {
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
        Ok(done) => sink(Event::Built(&done.artifact)),
        Err(errors) => sink(Event::Failed(&job.name(), errors)),
    }
    result
}

fn run_job(options: &BuildOptions, job: &Job, pages: Option<&PageMap>, sink: Sink) -> JobResult {
    let started = Instant::now();
    let t = crate::timings::phase(|| format!("  render {}", job.name()));
    let rendered = renderer(job.format).render(&job.prepared.context_with(options, pages))?;
    drop(t);
    let _t = crate::timings::phase(|| format!("  write {}", job.name()));
    for warning in &rendered.warnings {
        sink(Event::Warning(warning));
    }
    let path = job.path(&options.out_dir, &rendered.output);
    let mut written = match &rendered.output {
        Output::File(bytes) => write_unless_same(&path, bytes, job.rewrite)?,
        Output::Folder(files) => write_folder(&path, files, job.rewrite)?,
    };
    let mut files = vec![path.clone()];
    for (ext, bytes) in &rendered.sources {
        let stem = job.prepared.stem();
        let source = path.with_file_name(format!("{stem}.{ext}"));
        written |= write_unless_same(&source, bytes, job.rewrite)?;
        files.push(source);
    }
    let artifact = Artifact {
        book: job.prepared.config.id.clone(),
        lang: job.prepared.edition.book.lang.clone(),
        format: job.format,
        path,
        bytes: rendered.output.bytes(),
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
fn write(path: &Path, bytes: &[u8]) -> Result<bool, Vec<Diagnostic>> {
    write_unless_same(path, bytes, false)
}

/// [`write`], or with `rewrite`, writes whatever the file holds.
fn write_unless_same(path: &Path, bytes: &[u8], rewrite: bool) -> Result<bool, Vec<Diagnostic>> {
    if !rewrite && crate::cache::holds(path, bytes) {
        return Ok(false);
    }
    write_atomically(path, bytes).map_err(|e| {
        vec![Diagnostic::error(format!(
            "cannot write {}: {e}",
            path.display()
        ))]
    })?;
    Ok(true)
}

/// Replaces the folder at `path` with `files` unless it holds exactly them;
/// true when it wrote.
fn write_folder(
    path: &Path,
    files: &[(String, Vec<u8>)],
    rewrite: bool,
) -> Result<bool, Vec<Diagnostic>> {
    if !rewrite && crate::cache::folder_holds(path, files) {
        return Ok(false);
    }
    crate::output::replace_folder(path, files).map_err(|e| {
        vec![Diagnostic::error(format!(
            "cannot write {}: {e}",
            path.display()
        ))]
    })?;
    Ok(true)
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
