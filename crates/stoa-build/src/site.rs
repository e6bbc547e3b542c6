//! The download page and the OPDS catalogs: each edition's entry (its
//! files, its contents, its cover thumbnails), and which editions the page
//! lists after a partial build: those just made, and those an earlier
//! build left whose book and language still exist.

use crate::covers::Stored;
use crate::jobs::write;
use crate::keys::Key;
use crate::ledger::{Ledger, Made};
use crate::options::BuildOptions;
use crate::plan::{Build, edition_id};
use crate::prepare::theme_dir;
use crate::render::Rendered;
use crate::report::Report;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use stoa_book::{BookConfig, Edition};
use stoa_doc::{ChapterKind, Diagnostic, IdIndex, NotesPlan};
use stoa_render::RenderContext;
use stoa_site::{FileKind, SiteEntry};

/// What the download page says of each file format of the build, in build
/// order.
fn file_kinds(options: &BuildOptions) -> Vec<FileKind> {
    options
        .renderers
        .iter()
        .filter(|r| !r.writes_folder())
        .map(|r| FileKind {
            extension: r.extension(),
            label: r.label(),
            media_type: r.media_type(),
            paged: r.maps_pages(),
        })
        .collect()
}

/// Writes each edition's cover thumbnail, moves the editions' files into
/// place (`rendered`), then replaces the download page and the OPDS
/// catalogs, listing every edition whose files are in the output folder.
/// Between the moves and the page, a reader sees the old page listing the
/// new files (sums wrong) for as long as a few renames take; a build killed
/// there leaves the page stale, and the next build, finding it so, writes
/// it again (see `ledger::Made::fresh`).
/// Returns what it made, and what `rendered` made, for the cache.
pub(crate) fn write_site(
    build: &Build,
    editions: &[(&BookConfig, Edition)],
    rendered: Rendered,
    report: &mut Report,
    site_key: Option<Key>,
) -> Ledger {
    let (options, sink, plan) = (build.options, build.sink, &build.plan);
    if !options.site {
        return rendered.commit(build, report);
    }
    let page_counts = rendered.page_counts.clone();
    let pending = rendered.pending();
    // The thumbnails the cache shows unchanged are not drawn again.
    let thumbnails: Vec<(Option<Key>, bool)> = editions
        .iter()
        .map(|(config, edition)| plan.thumbnails(config, &edition.book.lang))
        .collect();
    let stored = plan.stored();
    let entries: Vec<Result<Option<Listed>, Vec<Diagnostic>>> = editions
        .par_iter()
        .zip(&thumbnails)
        .map(|((config, edition), (_, fresh))| {
            let pages = page_counts
                .get(&(config.id.clone(), edition.book.lang.clone()))
                .copied();
            let thumbnails = if *fresh { None } else { Some(stored) };
            site_entry(options, config, edition, pages, thumbnails, &pending)
        })
        .collect();
    let mut ledger = Ledger::default();
    let mut listed = Vec::new();
    for ((entry, (key, fresh)), (config, edition)) in
        entries.into_iter().zip(thumbnails).zip(editions)
    {
        match entry {
            Ok(Some((entry, drawn_from, failed))) => {
                if !failed.is_empty() {
                    // Listed without its thumbnail: its files are in place.
                    report.fail(sink, "download page", failed);
                }
                let id = edition_id(&config.id, &edition.book.lang);
                let slots = drawn_from
                    .into_iter()
                    .map(|(use_, key)| (format!("{id}/{use_}"), key));
                ledger.covers.extend(slots);
                if !fresh {
                    let drawn: Vec<PathBuf> = [&entry.cover, &entry.cover_2x]
                        .into_iter()
                        .flatten()
                        .map(|p| options.out_dir.join(p))
                        .collect();
                    let made = key.and_then(|key| {
                        let path = drawn.first()?.clone();
                        Made::new(&options.out_dir, key, path, 0, &drawn, Vec::new(), None)
                    });
                    let id = edition_id(&config.id, &edition.book.lang);
                    ledger.thumbnails.push((id, made));
                }
                listed.push(entry)
            }
            Ok(None) => {}
            Err(errors) => report.fail(sink, "download page", errors),
        }
    }
    ledger.extend(rendered.commit(build, report));
    let site_key = site_key.filter(|_| report.ok());
    // Only what is in place is listed: the files of an edition that failed
    // were never moved.
    listed.retain_mut(|entry| in_place(options, entry));
    // A PDF this build did not make keeps the page count it had.
    keep_page_counts(options, &mut listed);
    // A partial build lists what earlier builds left in the folder too.
    let listed = with_previous(options, listed);
    ledger.site = Some(None);
    if listed.is_empty() {
        return ledger;
    }
    match stoa_site::write_site(&options.out_dir, &listed, &file_kinds(options)) {
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
            if let (Some(key), true) = (site_key, report.ok()) {
                let made = Made::new(&options.out_dir, key, index, 0, &written, Vec::new(), None);
                ledger.site = Some(made);
            }
        }
        Err(error) => report.fail(sink, "download page", vec![error]),
    }
    ledger
}

/// Thumbnail size: 0.75 pixel per point gives about 300 × 446 pixels.
const THUMBNAIL_PIXELS_PER_PT: f32 = 0.75;

/// The thumbnail for high-density screens (`srcset` 2x): twice as sharp,
/// since the page shows the cover up to 176 CSS pixels wide.
const THUMBNAIL_2X_PIXELS_PER_PT: f32 = 2.0 * THUMBNAIL_PIXELS_PER_PT;

/// An edition's entry on the download page, and the covers of the build
/// cache its thumbnails came from.
/// And why its thumbnails are missing, if they could not be made.
type Listed = (SiteEntry, Vec<(&'static str, Key)>, Vec<Diagnostic>);

/// The entry of one edition on the download page, with the keys of the
/// covers of the build cache its thumbnails came from; `pages` is the page
/// count of the PDF this build made, if it made one. The thumbnails are
/// drawn (or taken from the build cache) as `thumbnails` says; `None`: an
/// earlier build left them, still right.
fn site_entry(
    options: &BuildOptions,
    config: &BookConfig,
    edition: &Edition,
    pages: Option<usize>,
    thumbnails: Option<Stored>,
    pending: &HashSet<PathBuf>,
) -> Result<Option<Listed>, Vec<Diagnostic>> {
    let book = &edition.book;
    // In place, or to be moved into place before the page is written.
    let there = |path: &Path, folder: bool| {
        let full = options.out_dir.join(path);
        let placed = if folder {
            full.is_dir()
        } else {
            full.is_file()
        };
        placed || pending.contains(&full)
    };
    let stem = format!("{}-{}", config.id, book.lang);
    let mut files = Vec::new();
    let mut web = None;
    for renderer in options.renderers.iter() {
        if renderer.writes_folder() {
            let folder = PathBuf::from(&config.id).join(&book.lang);
            let index = folder.join("index.html");
            if there(&index, false) || there(&folder, true) {
                web = Some(index);
            }
            continue;
        }
        let file = PathBuf::from(&config.id).join(format!("{stem}.{}", renderer.extension()));
        if there(&file, false) {
            files.push(file);
        }
    }
    if files.is_empty() && web.is_none() {
        return Ok(None);
    }
    let mut drawn_from = Vec::new();
    let mut failed = Vec::new();
    let (cover, cover_2x) = match (options.renderers.cover_painter(), thumbnails) {
        // Drawn by an earlier build from the same edition and theme, and
        // still as it left them.
        (Some(_), None) => (
            Some(PathBuf::from(&config.id).join(format!("{stem}-cover.png"))),
            Some(PathBuf::from(&config.id).join(format!("{stem}-cover-2x.png"))),
        ),
        (Some(painter), Some(stored)) => {
            let (notes, ids) = (NotesPlan::of(book), IdIndex::default());
            let theme = theme_dir(options, config)?;
            let (roots, layout) = (&edition.roots, &edition.layout);
            let ctx = RenderContext::new(book, &notes, &ids, &theme, roots, layout);
            let _t = crate::timings::phase(|| format!("  thumbnails {stem}"));
            let mut draw = |pixels_per_pt: f32, use_: &'static str, name: String| {
                let (png, key) =
                    crate::covers::cover_png(options, painter, &ctx, pixels_per_pt, stored)?;
                drawn_from.extend(key.map(|k| (use_, k)));
                let path = PathBuf::from(&config.id).join(name);
                write(&options.out_dir.join(&path), &png)?;
                Ok::<_, Vec<Diagnostic>>(path)
            };
            let drawn = draw(
                THUMBNAIL_PIXELS_PER_PT,
                "thumbnail",
                format!("{stem}-cover.png"),
            )
            .and_then(|cover| {
                let cover_2x = draw(
                    THUMBNAIL_2X_PIXELS_PER_PT,
                    "thumbnail-2x",
                    format!("{stem}-cover-2x.png"),
                )?;
                Ok((cover, cover_2x))
            });
            match drawn {
                Ok((cover, cover_2x)) => (Some(cover), Some(cover_2x)),
                Err(errors) => {
                    failed = errors;
                    (None, None)
                }
            }
        }
        (None, _) => (None, None),
    };
    let has_pdf = files.iter().any(|f| has_paged_extension(options, f));
    let entry = SiteEntry {
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
    };
    Ok(Some((entry, drawn_from, failed)))
}

/// `fresh` plus the editions of earlier builds still in the output folder,
/// without those whose book folder (or language in its book.toml) is gone.
fn with_previous(options: &BuildOptions, fresh: Vec<SiteEntry>) -> Vec<SiteEntry> {
    let previous = stoa_site::previous_entries(&options.out_dir);
    // Each book's languages, read once; `None` when its book.toml is gone,
    // and every language kept when it does not load (the build says why).
    let mut languages: BTreeMap<String, Option<Option<Vec<String>>>> = BTreeMap::new();
    for entry in &previous {
        languages.entry(entry.book.clone()).or_insert_with(|| {
            let dir = options.books_dir.join(&entry.book);
            let exists = stoa_book::slug::problem(&entry.book).is_none()
                && dir.join(stoa_book::BOOK_FILE).is_file();
            exists.then(|| {
                stoa_book::load_config(&dir)
                    .ok()
                    .map(|c| c.languages.into_iter().map(|l| l.tag).collect())
            })
        });
    }
    stoa_site::merge(&options.out_dir, previous, fresh, |entry| {
        match languages.get(&entry.book) {
            Some(Some(Some(tags))) => tags.contains(&entry.lang),
            Some(Some(None)) => true,
            _ => false,
        }
    })
}

/// Gives each fresh edition that has a PDF but no page count (this build
/// made its other formats only) the count the last build listed for it: the
/// PDF on disk is the one that build made.
fn keep_page_counts(options: &BuildOptions, fresh: &mut [SiteEntry]) {
    if fresh.iter().all(|e| e.pages.is_some()) {
        return;
    }
    let previous = stoa_site::previous_entries(&options.out_dir);
    for entry in fresh.iter_mut().filter(|e| e.pages.is_none()) {
        let has_pdf = entry.files.iter().any(|f| has_paged_extension(options, f));
        if !has_pdf {
            continue;
        }
        entry.pages = previous
            .iter()
            .find(|p| p.book == entry.book && p.lang == entry.lang)
            .and_then(|p| p.pages);
    }
}

/// Whether `file` is of a paged format (the PDF), whose page count the
/// page shows.
fn has_paged_extension(options: &BuildOptions, file: &Path) -> bool {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    options
        .renderers
        .iter()
        .any(|r| r.maps_pages() && !r.writes_folder() && r.extension() == ext)
}

/// Whether the files `entry` lists are in the output folder (an edition
/// that failed keeps what an earlier build left, or nothing); drops those
/// that are not, and false when none is left.
fn in_place(options: &BuildOptions, entry: &mut SiteEntry) -> bool {
    let out = &options.out_dir;
    entry.files.retain(|f| out.join(f).is_file());
    if entry.web.as_ref().is_some_and(|w| !out.join(w).is_file()) {
        entry.web = None;
    }
    !entry.files.is_empty() || entry.web.is_some()
}
