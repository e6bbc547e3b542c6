//! The readers' download page and OPDS catalog, written into dist/.
//! `write_site` turns the editions a build made into `index.html`, `opds.xml` and one feed per language.

mod escape;
mod files;
mod html;
mod i18n;
mod manifest;
mod opds;

use std::io::Write;
use std::path::{Path, PathBuf};

pub use stoa_doc::Diagnostic;

pub use files::FileKind;
use files::{Cover, FileInfo};
pub use manifest::{MANIFEST, merge, previous_entries};

/// One edition (a book in one language) as the download page and the catalog list it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SiteEntry {
    /// The book's directory name in dist/, e.g. `dialogues`.
    pub book: String,
    /// BCP 47 language tag of the edition, e.g. `pt-BR`.
    pub lang: String,
    /// Title in the edition's language.
    pub title: String,
    /// Subtitle in the edition's language.
    pub subtitle: Option<String>,
    /// Author's name as printed.
    pub author: String,
    /// A paragraph telling readers what the book is.
    pub description: Option<String>,
    /// The edition's unique identifier, e.g. `urn:uuid:…`; the OPDS entry id.
    pub identifier: String,
    /// Publication date, `YYYY-MM-DD`.
    pub date: String,
    /// Last modification, RFC 3339; the OPDS `updated`.
    pub modified: String,
    /// Cover thumbnail, relative to the output directory.
    pub cover: Option<PathBuf>,
    /// The same cover at twice the resolution, for high-density screens
    /// (`srcset` 2x); relative to the output directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_2x: Option<PathBuf>,
    /// The edition's files (EPUB, PDF), relative to the output directory.
    pub files: Vec<PathBuf>,
    /// The web edition's start page, relative to the output directory.
    pub web: Option<PathBuf>,
    /// How many pages the PDF has; the page shows it beside its button.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<usize>,
    /// The titles of the edition's chapters, in reading order: its contents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contents: Vec<String>,
    /// The book's word for its contents in this language (its `[labels]`),
    /// so the page says what the book does; the locale table's otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contents_label: Option<String>,
    /// The parts the contents fall into, in order: the page lists each
    /// part's chapters under its title. Chapters in no part (back matter)
    /// stand at the top level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<ContentsPart>,
    /// How many of the book's posts this edition has (the others are not
    /// translated yet); the page and the catalog say "14 of 15 posts".
    pub posts: usize,
    /// How many posts the book lists; 0 leaves completeness unsaid.
    pub book_posts: usize,
}

/// A part of an edition's contents: its title, in the edition's language,
/// and the chapters it holds, as a range of [`SiteEntry::contents`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ContentsPart {
    /// The part's title.
    pub title: String,
    /// The index in `contents` of the part's first chapter.
    pub start: usize,
    /// How many chapters the part holds, from `start` on.
    pub len: usize,
}

/// An entry with what was learnt from the files on disk.
struct Edition<'a> {
    entry: &'a SiteEntry,
    cover: Option<Cover>,
    /// The cover for high-density screens.
    cover_2x: Option<Cover>,
    files: Vec<FileInfo>,
    /// The href of the web edition's start page.
    web: Option<String>,
}

/// File name of the download page.
pub const INDEX_HTML: &str = "index.html";
/// File name of the catalog of every edition.
pub const OPDS_XML: &str = "opds.xml";

/// The file name of the catalog of one language, e.g. `opds-pt-BR.xml`.
pub fn opds_file_name(lang: &str) -> String {
    format!("opds-{lang}.xml")
}

/// Writes `index.html`, `opds.xml` and `opds-<lang>.xml` for each language into `out_dir`.
///
/// Reads every file of every entry (for its size and SHA-256), so call it after the
/// files are written. Each output replaces the old one atomically. Returns the paths
/// of the page and the catalogs written, in `out_dir`; the list of editions
/// itself ([`MANIFEST`]) is written too, last, for the next partial build.
pub fn write_site(
    out_dir: &Path,
    entries: &[SiteEntry],
    kinds: &[FileKind],
) -> Result<Vec<PathBuf>, Diagnostic> {
    let editions = load_editions(out_dir, entries, kinds)?;
    let langs = i18n::page_languages(editions.iter().map(|e| e.entry.lang.as_str()));
    let mut outputs = vec![
        (INDEX_HTML.to_string(), html::render(&editions, &langs)),
        (OPDS_XML.to_string(), opds::render(&editions, &langs, None)),
    ];
    for lang in &langs {
        outputs.push((
            opds_file_name(lang),
            opds::render(&editions, &langs, Some(lang)),
        ));
    }
    let mut written = Vec::with_capacity(outputs.len());
    for (name, text) in outputs {
        let path = out_dir.join(name);
        write_atomically(&path, text.as_bytes())?;
        written.push(path);
    }
    manifest::write(out_dir, entries)?;
    Ok(written)
}

/// Checks the entries, reads their files and sorts them by book then language,
/// so that the output does not depend on the order the driver finished in.
fn load_editions<'a>(
    out_dir: &Path,
    entries: &'a [SiteEntry],
    kinds: &[FileKind],
) -> Result<Vec<Edition<'a>>, Diagnostic> {
    let mut editions = Vec::with_capacity(entries.len());
    for entry in entries {
        check_entry(entry)?;
        let mut files = entry
            .files
            .iter()
            .map(|f| FileInfo::read(out_dir, f, kinds))
            .collect::<Result<Vec<_>, _>>()?;
        files.sort_by(|a, b| (a.rank, &a.href).cmp(&(b.rank, &b.href)));
        let cover = entry
            .cover
            .as_deref()
            .map(|c| Cover::read(out_dir, c))
            .transpose()?;
        let cover_2x = entry
            .cover_2x
            .as_deref()
            .map(|c| Cover::read(out_dir, c))
            .transpose()?;
        let web = entry
            .web
            .as_deref()
            .map(|w| files::web_href(out_dir, w))
            .transpose()?;
        editions.push(Edition {
            entry,
            cover,
            cover_2x,
            files,
            web,
        });
    }
    editions.sort_by(|a, b| {
        (&a.entry.book, i18n::lang_rank(&a.entry.lang), &a.entry.lang).cmp(&(
            &b.entry.book,
            i18n::lang_rank(&b.entry.lang),
            &b.entry.lang,
        ))
    });
    if let Some(w) = editions
        .windows(2)
        .find(|w| w[0].entry.book == w[1].entry.book && w[0].entry.lang == w[1].entry.lang)
    {
        return Err(Diagnostic::error(format!(
            "the edition {}/{} is listed twice",
            w[0].entry.book, w[0].entry.lang
        )));
    }
    Ok(editions)
}

/// Refuses what would make an invalid page or catalog, with a message naming the edition.
pub(crate) fn check_entry(entry: &SiteEntry) -> Result<(), Diagnostic> {
    let name = format!("{}/{}", entry.book, entry.lang);
    let bad = |what: &str| Err(Diagnostic::error(format!("site entry {name}: {what}")));
    if entry.book.is_empty() || entry.lang.is_empty() {
        return bad("the book and the language must not be empty");
    }
    if !entry
        .lang
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return bad("the language must be a BCP 47 tag such as `pt-BR`");
    }
    if chrono::NaiveDate::parse_from_str(&entry.date, "%Y-%m-%d").is_err() {
        return bad(&format!("the date `{}` is not YYYY-MM-DD", entry.date));
    }
    if chrono::DateTime::parse_from_rfc3339(&entry.modified).is_err() {
        return bad(&format!(
            "the modification time `{}` is not RFC 3339",
            entry.modified
        ));
    }
    if entry.files.is_empty() && entry.web.is_none() {
        return bad("no files to download and no web edition");
    }
    Ok(())
}

/// Writes through a temporary file in the same directory and renames it, so a
/// server or a reader never sees half a page.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    let fail =
        |e: std::io::Error| Diagnostic::error(format!("cannot write {}: {e}", path.display()));
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".stoa-site-")
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    make_world_readable(tmp.as_file()).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Temporary files are created private (0600); a page that a web server must read
/// should have the usual 0644.
#[cfg(unix)]
fn make_world_readable(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn make_world_readable(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}
