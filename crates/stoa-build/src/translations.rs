//! Stale translations, checked before a build: warnings, or errors with
//! `--deny-stale` (stoa-translate knows what is stale).

use crate::options::BuildOptions;
use crate::report::{Event, Report};
use stoa_book::BookConfig;
use stoa_doc::{Diagnostic, Severity};

/// One diagnostic per stale translation of the books being built, in the
/// languages being built; errors when `deny_stale` is set.
pub(crate) fn stale(options: &BuildOptions, configs: &[&BookConfig]) -> Vec<Diagnostic> {
    let statuses: Vec<_> = configs
        .iter()
        .map(|c| stoa_translate::book_status(c))
        .collect();
    let mut found = stoa_translate::check(&statuses, &options.languages);
    if options.deny_stale {
        for d in &mut found {
            d.severity = Severity::Error;
        }
    }
    found
}

/// Tells `sink` about every stale translation and records it in `report`.
/// True when they are errors (`--deny-stale`): the build stops there, so
/// that the artifacts of the last good build stay as they were.
pub(crate) fn report_stale(
    options: &BuildOptions,
    configs: &[&BookConfig],
    sink: &(dyn Fn(Event) + Sync),
    report: &mut Report,
) -> bool {
    let found = stale(options, configs);
    let denied: Vec<Diagnostic> = found
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .cloned()
        .collect();
    if !denied.is_empty() {
        sink(Event::Failed("stale translations (--deny-stale)", &denied));
        report.errors.extend(denied);
        return true;
    }
    for warning in found {
        sink(Event::Warning(&warning));
        report.warnings.push(warning);
    }
    false
}

/// The slugs of a book's chapters, sorted: what the web editions of the
/// other languages link to.
pub(crate) fn slugs(book: &stoa_doc::Book) -> Vec<String> {
    let mut slugs: Vec<String> = book.chapters.iter().map(|c| c.slug.clone()).collect();
    slugs.sort();
    slugs
}

/// For each edition of `editions` (book id, tree), the other editions of
/// the same book among them with their chapters: what the web edition
/// links each chapter to. Only editions of this build are named, so that
/// every link points to a page this build writes.
pub(crate) fn alternates<'a>(
    editions: impl Iterator<Item = (&'a str, &'a stoa_doc::Book)>,
) -> Vec<Vec<stoa_render::Alternate>> {
    let all: Vec<(&str, &str, Vec<String>)> = editions
        .map(|(id, book)| (id, book.lang.as_str(), slugs(book)))
        .collect();
    all.iter()
        .map(|(id, lang, _)| {
            all.iter()
                .filter(|(other, l, _)| other == id && l != lang)
                .map(|(_, l, slugs)| stoa_render::Alternate {
                    lang: l.to_string(),
                    slugs: slugs.clone(),
                })
                .collect()
        })
        .collect()
}

/// Adds to `alternates` (of the edition `lang` of `config`) the book's
/// other languages whose web edition an earlier build left in the output
/// folder and this build does not make (not built this time, or failed to
/// load): the language switch links to what the folder holds after the
/// build, and only to the pages it holds.
pub(crate) fn add_kept_alternates(
    options: &BuildOptions,
    config: &BookConfig,
    lang: &str,
    alternates: &mut Vec<stoa_render::Alternate>,
) {
    let mut added = false;
    for other in &config.languages {
        let tag = &other.tag;
        if tag == lang || alternates.iter().any(|a| &a.lang == tag) {
            continue;
        }
        let folder = options.out_dir.join(&config.id).join(tag);
        if let Some(slugs) = kept_pages(&folder) {
            alternates.push(stoa_render::Alternate {
                lang: tag.clone(),
                slugs,
            });
            added = true;
        }
    }
    if added {
        let position = |tag: &str| config.languages.iter().position(|l| l.tag == tag);
        alternates.sort_by_key(|a| position(&a.lang));
    }
}

/// The pages (`<slug>.html`) of a web edition in the output folder, sorted;
/// `None` when there is none there.
fn kept_pages(folder: &std::path::Path) -> Option<Vec<String>> {
    if !folder.join("index.html").is_file() {
        return None;
    }
    let mut slugs: Vec<String> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Some(name.strip_suffix(".html")?.to_string())
        })
        .collect();
    slugs.sort();
    Some(slugs)
}
