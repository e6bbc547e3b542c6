//! The list of editions the page shows, kept in the output folder so that a
//! partial build (`stoa build -b one-book`, `-l es`) lists what it did not
//! build too. The files themselves stay the truth: an edition is listed again
//! only with the files of it still on disk.

use std::path::Path;

use stoa_doc::Diagnostic;

use crate::SiteEntry;

/// File name of the list of editions in the output folder. Hidden: it is
/// stoa's bookkeeping, not something for readers; not `.stoa-…`, which
/// names temporary files that the next build removes.
pub const MANIFEST: &str = ".editions.json";

/// The editions the last build listed, as written in `out_dir`. A missing
/// or unreadable list (an older stoa, a hand edit) is an empty one: the
/// build then lists what it made, as it always did.
pub fn previous_entries(out_dir: &Path) -> Vec<SiteEntry> {
    let path = out_dir.join(MANIFEST);
    // Only a regular file is read: a FIFO put there would wait for a writer
    // forever, a device would never end.
    if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
        return Vec::new();
    }
    let Ok(text) = std::fs::read(&path) else {
        return Vec::new();
    };
    serde_json::from_slice(&text).unwrap_or_default()
}

/// The editions to list: every `fresh` one, and each `previous` one that was
/// not made again, that `keep` accepts (its book and language still exist)
/// and whose files are still in `out_dir` (only those that are). Sorted by
/// book then language.
pub fn merge(
    out_dir: &Path,
    previous: Vec<SiteEntry>,
    fresh: Vec<SiteEntry>,
    keep: impl Fn(&SiteEntry) -> bool,
) -> Vec<SiteEntry> {
    let mut merged = fresh;
    for mut old in previous {
        let made_again = merged
            .iter()
            .any(|e| e.book == old.book && e.lang == old.lang);
        if made_again || !keep(&old) {
            continue;
        }
        let present =
            |rel: &Path| crate::files::relative_href(rel).is_ok() && out_dir.join(rel).is_file();
        old.files.retain(|f| present(f));
        old.cover = old.cover.filter(|c| present(c));
        old.cover_2x = old.cover_2x.filter(|c| present(c));
        if !old
            .files
            .iter()
            .any(|f| f.extension().is_some_and(|x| x == "pdf"))
        {
            old.pages = None;
        }
        old.web = old.web.filter(|w| present(w));
        if crate::check_entry(&old).is_ok() {
            merged.push(old);
        }
    }
    merged.sort_by(|a, b| (&a.book, &a.lang).cmp(&(&b.book, &b.lang)));
    merged
}

/// Writes the list atomically, sorted, so that rebuilds are byte-identical.
pub(crate) fn write(out_dir: &Path, entries: &[SiteEntry]) -> Result<(), Diagnostic> {
    let mut sorted: Vec<&SiteEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| (&a.book, &a.lang).cmp(&(&b.book, &b.lang)));
    let mut json = serde_json::to_vec_pretty(&sorted)
        .map_err(|e| Diagnostic::error(format!("cannot list the editions: {e}")))?;
    json.push(b'\n');
    crate::write_atomically(&out_dir.join(MANIFEST), &json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn entry(book: &str, lang: &str, files: &[&str]) -> SiteEntry {
        SiteEntry {
            book: book.into(),
            lang: lang.into(),
            title: format!("{book} {lang}"),
            subtitle: None,
            author: "A".into(),
            description: None,
            identifier: format!("urn:x:{book}:{lang}"),
            date: "2024-01-02".into(),
            modified: "2024-01-02T00:00:00Z".into(),
            cover: None,
            cover_2x: None,
            files: files.iter().map(PathBuf::from).collect(),
            web: None,
            pages: Some(9),
            contents: vec!["One".into()],
            contents_label: None,
            parts: Vec::new(),
            posts: 1,
            book_posts: 1,
        }
    }

    fn touch(dir: &Path, rel: &str) {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"x").unwrap();
    }

    #[test]
    fn a_partial_build_keeps_what_it_did_not_make() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "a/a-en.epub");
        touch(dir.path(), "b/b-en.epub");
        touch(dir.path(), "b/b-en.pdf");
        write(
            dir.path(),
            &[
                entry("a", "en", &["a/a-en.epub"]),
                entry("b", "en", &["b/b-en.epub", "b/b-en.pdf"]),
            ],
        )
        .unwrap();
        std::fs::remove_file(dir.path().join("b/b-en.pdf")).unwrap();
        let fresh = vec![entry("a", "en", &["a/a-en.epub"])];
        let merged = merge(dir.path(), previous_entries(dir.path()), fresh, |_| true);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[1].book, "b");
        // The PDF is gone from the disk, so from the list.
        assert_eq!(merged[1].files, vec![PathBuf::from("b/b-en.epub")]);
    }

    #[test]
    fn gone_books_and_files_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "gone/gone-en.epub");
        let previous = vec![
            entry("gone", "en", &["gone/gone-en.epub"]),
            entry("nofiles", "en", &["nofiles/nofiles-en.epub"]),
            entry("escape", "en", &["../outside.epub"]),
        ];
        let merged = merge(dir.path(), previous, Vec::new(), |e| e.book != "gone");
        assert!(merged.is_empty(), "{merged:?}");
    }

    #[test]
    fn a_damaged_list_is_an_empty_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(MANIFEST), b"{not json").unwrap();
        assert!(previous_entries(dir.path()).is_empty());
    }

    /// The regression: a FIFO in place of the list made the build wait
    /// for a writer forever.
    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_list_is_an_empty_one() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join(MANIFEST);
        let made = std::process::Command::new("mkfifo").arg(&list).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        assert!(previous_entries(dir.path()).is_empty());
    }
}
