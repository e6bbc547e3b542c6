//! Which editions the download page lists after a partial build: those just
//! made, and those an earlier build left whose book and language still exist.

use crate::plan::BuildOptions;
use std::collections::BTreeMap;
use stoa_site::SiteEntry;

/// `fresh` plus the editions of earlier builds still in the output folder,
/// without those whose book folder (or language in its book.toml) is gone.
pub(crate) fn with_previous(options: &BuildOptions, fresh: Vec<SiteEntry>) -> Vec<SiteEntry> {
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
pub(crate) fn keep_page_counts(options: &BuildOptions, fresh: &mut [SiteEntry]) {
    if fresh.iter().all(|e| e.pages.is_some()) {
        return;
    }
    let previous = stoa_site::previous_entries(&options.out_dir);
    for entry in fresh.iter_mut().filter(|e| e.pages.is_none()) {
        let has_pdf = entry
            .files
            .iter()
            .any(|f| f.extension().is_some_and(|x| x == "pdf"));
        if !has_pdf {
            continue;
        }
        entry.pages = previous
            .iter()
            .find(|p| p.book == entry.book && p.lang == entry.lang)
            .and_then(|p| p.pages);
    }
}
