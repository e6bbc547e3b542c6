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
