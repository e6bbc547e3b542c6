//! epub-builder stamps each zip entry with the current time, writes a
//! navigation document without a language, and gives `dc:language` the same
//! id as `dc:creator` (an EPUBCheck error). Repacking fixes all three:
//! entries keep their order and get one fixed timestamp, nav.xhtml gets
//! `lang`, and the language gets an id of its own.
//!
//! It also adds what epub-builder cannot write: the package's `xml:lang`,
//! the subtitle, the print edition as the source of the page list, and in
//! the navigation document the `doc-toc` role, a hidden landmarks nav (one
//! visible, labelled nav: landmarks stay distinguishable) and the page list.

use std::collections::HashMap;
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};
use stoa_doc::Book;
use stoa_render::{Body, Sink};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// What the repacking adds beyond fixes.
pub struct Extras<'a> {
    /// The page list, as (label, href), in book order; empty without one.
    pub page_list: &'a [(String, String)],
    /// The glossary document that has a Search Key Map, if any.
    pub glossary: Option<&'a str>,
}

/// An EPUB made but for its images: the archive with an empty stand-in
/// for each, and the file each is read from as it is written.
pub struct Packed {
    /// The archive, every image empty.
    pub bytes: Vec<u8>,
    /// Each image's entry name (`OEBPS/...`) and file.
    pub images: Vec<(String, PathBuf)>,
    /// The time every entry is stamped with.
    pub(crate) time: DateTime,
}

impl Packed {
    /// The EPUB as the build writes it: the archive copied entry by entry,
    /// each image read from its file and deflated as epub-builder would
    /// have (so the bytes are those an EPUB made in memory would have).
    pub fn into_body(self) -> Body {
        if self.images.is_empty() {
            return Body::Bytes(self.bytes);
        }
        Body::Written(Box::new(move |to| self.write(to)))
    }

    fn write(&self, to: &mut dyn Sink) -> std::io::Result<()> {
        let files: HashMap<&str, &Path> = self
            .images
            .iter()
            .map(|(name, path)| (name.as_str(), path.as_path()))
            .collect();
        let mut archive =
            ZipArchive::new(Cursor::new(&self.bytes)).map_err(std::io::Error::other)?;
        let mut out = ZipWriter::new(to);
        for i in 0..archive.len() {
            let entry = archive.by_index_raw(i).map_err(std::io::Error::other)?;
            let Some(path) = files.get(entry.name()) else {
                out.raw_copy_file(entry).map_err(std::io::Error::other)?;
                continue;
            };
            let name = entry.name().to_string();
            // Read whole (one image at a time) and given in one write: the
            // deflater cuts its blocks by what each write gives it, and one
            // write makes the bytes epub-builder made.
            let bytes = std::fs::read(path).map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))
            })?;
            out.start_file(name.as_str(), entry_options(&name, self.time))
                .map_err(std::io::Error::other)?;
            out.write_all(&bytes)?;
        }
        out.finish().map_err(std::io::Error::other)?;
        Ok(())
    }
}

/// Rewrites the archive deterministically.
pub fn repack(raw: &[u8], book: &Book, extras: &Extras) -> std::io::Result<Vec<u8>> {
    let mut archive = ZipArchive::new(Cursor::new(raw)).map_err(std::io::Error::other)?;
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    let time = zip_time(&book.meta.modified);
    let mut with_properties = crate::svg::documents_with_properties(&mut archive)?;
    if let Some(glossary) = extras.glossary {
        crate::glossary::mark(&mut with_properties, glossary);
    }
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(std::io::Error::other)?;
        let name = entry.name().to_string();
        // An entry kept as it is, already deflated by epub-builder (with
        // the same settings), is copied without inflating and deflating it
        // again: the bytes are the same, the cover and images cost nothing.
        let kept = !matches!(
            name.as_str(),
            "mimetype" | "OEBPS/nav.xhtml" | "OEBPS/content.opf"
        );
        if kept && entry.compression() == CompressionMethod::Deflated {
            out.raw_copy_file_touch(entry, time, Some(0o644))
                .map_err(std::io::Error::other)?;
            continue;
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes)?;
        if name == "OEBPS/nav.xhtml" {
            bytes = navigation(&with_language(&bytes, &book.lang), extras.page_list);
        }
        if name == "OEBPS/content.opf" {
            bytes = package(&bytes, book, !extras.page_list.is_empty());
            bytes = crate::svg::mark(&bytes, &with_properties);
        }
        let options = entry_options(&name, time);
        out.start_file(name, options)
            .map_err(std::io::Error::other)?;
        out.write_all(&bytes)?;
    }
    Ok(out.finish().map_err(std::io::Error::other)?.into_inner())
}

/// The package document: the language fix, `xml:lang` on the package,
/// the title typed as main and the subtitle, and, when the EPUB has a page
/// list (`paged`), the print edition as its source.
fn package(opf: &[u8], book: &Book, paged: bool) -> Vec<u8> {
    let lang = stoa_doc::escape::xml_attribute(&book.lang);
    let mut text = String::from_utf8_lossy(opf)
        .replace(
            "<dc:language id=\"epub-creator-",
            "<dc:language id=\"epub-language-",
        )
        .replacen(
            "<package version=",
            &format!("<package xml:lang=\"{lang}\" version="),
            1,
        );
    let mut after_title =
        String::from("\n    <meta refines=\"#title\" property=\"title-type\">main</meta>");
    if let Some(subtitle) = book
        .meta
        .subtitle
        .as_deref()
        .filter(|s| !s.trim().is_empty())
    {
        after_title.push_str(&format!(
            "\n    <dc:title id=\"subtitle\">{}</dc:title>\n    <meta refines=\"#subtitle\" property=\"title-type\">subtitle</meta>",
            stoa_doc::escape::xml_text(subtitle)
        ));
    }
    if paged {
        // The PDF edition carries the same identifier (typst-pdf's `ident`);
        // a printed book with an ISBN is named by it. The ISBN is the print
        // edition's: an ebook has an ISBN of its own, so it is not the
        // EPUB's dc:identifier.
        let source = match &book.print.isbn {
            Some(isbn) => format!("urn:isbn:{}", isbn.replace('-', "")),
            None => book.meta.identifier.clone(),
        };
        after_title.push_str(&format!(
            "\n    <dc:source id=\"print-edition\">{}</dc:source>\n    <meta refines=\"#print-edition\" property=\"source-of\">pagination</meta>",
            stoa_doc::escape::xml_text(&source)
        ));
    }
    if let Some(at) = text.find("<dc:title>") {
        text.replace_range(at..at + "<dc:title>".len(), "<dc:title id=\"title\">");
        if let Some(end) = text[at..].find("</dc:title>") {
            let end = at + end + "</dc:title>".len();
            text.insert_str(end, &after_title);
        }
    }
    text.into_bytes()
}

/// The navigation document: the contents nav named by its heading and
/// given its role, the landmarks hidden (reading systems use them; a
/// reader sees the contents), and the page list, if any.
fn navigation(nav: &[u8], page_list: &[(String, String)]) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(nav)
        .replacen(
            "<nav epub:type = \"toc\" id=\"toc\">",
            "<nav epub:type=\"toc\" id=\"toc\" role=\"doc-toc\" aria-labelledby=\"toc-title\">",
            1,
        )
        .replacen(
            "<nav epub:type = \"landmarks\">",
            "<nav epub:type=\"landmarks\" hidden=\"hidden\">",
            1,
        );
    if !page_list.is_empty()
        && let Some(at) = text.rfind("</body>")
    {
        text.insert_str(at, &crate::page_list::nav(page_list));
    }
    text.into_bytes()
}

fn with_language(nav: &[u8], lang: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(nav);
    // Right to left like every other page of the book.
    let dir = if stoa_locale::is_rtl(lang) {
        " dir=\"rtl\""
    } else {
        ""
    };
    let lang = stoa_doc::escape::xml_attribute(lang);
    text.replacen(
        "xmlns:epub=\"http://www.idpf.org/2007/ops\">",
        &format!(
            "xmlns:epub=\"http://www.idpf.org/2007/ops\" lang=\"{lang}\" xml:lang=\"{lang}\"{dir}>"
        ),
        1,
    )
    .into_bytes()
}

/// A zip timestamp from `YYYY-MM-DDTHH:MM:SSZ`; zip cannot store years
/// before 1980, so earlier dates become 1980-01-01.
/// How an entry is stored: the mimetype first and uncompressed (OCF 3.3
/// §4.2.5), the rest deflated; one time and readable by all, so that two
/// builds give the same bytes.
fn entry_options(name: &str, time: DateTime) -> SimpleFileOptions {
    let method = if name == "mimetype" {
        CompressionMethod::Stored
    } else {
        CompressionMethod::Deflated
    };
    SimpleFileOptions::default()
        .compression_method(method)
        .last_modified_time(time)
        .unix_permissions(0o644)
}

pub(crate) fn zip_time(iso: &str) -> DateTime {
    let n = |range: std::ops::Range<usize>| iso.get(range).and_then(|s| s.parse::<u16>().ok());
    let parsed = (|| {
        let year = n(0..4)?.max(1980);
        DateTime::from_date_and_time(
            year,
            n(5..7)? as u8,
            n(8..10)? as u8,
            n(11..13)? as u8,
            n(14..16)? as u8,
            n(17..19)? as u8,
        )
        .ok()
    })();
    parsed.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repacking as it was before entries were copied raw: every entry
    /// inflated and deflated again.
    fn recompressed(raw: &[u8], time: DateTime) -> Vec<u8> {
        let mut archive = ZipArchive::new(Cursor::new(raw)).unwrap();
        let mut out = ZipWriter::new(Cursor::new(Vec::new()));
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i).unwrap();
            let name = entry.name().to_string();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            let options = entry_options(&name, time);
            out.start_file(name, options).unwrap();
            out.write_all(&bytes).unwrap();
        }
        out.finish().unwrap().into_inner()
    }

    #[test]
    fn entries_copied_raw_give_the_bytes_recompressing_gave() {
        // As epub-builder's ZipLibrary writes: the mimetype stored, the
        // rest deflated with the default settings, stamped with the clock.
        let mut raw = ZipWriter::new(Cursor::new(Vec::new()));
        let stored = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
        raw.start_file("mimetype", stored).unwrap();
        raw.write_all(b"application/epub+zip").unwrap();
        let noise: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        let chapter = "<p>Some words, again and again.</p>\n".repeat(500);
        for (name, bytes) in [
            ("OEBPS/images/cover.png", noise.as_slice()),
            ("OEBPS/chapter_001.xhtml", chapter.as_bytes()),
            ("OEBPS/empty.css", b"".as_slice()),
        ] {
            raw.start_file(name, SimpleFileOptions::default()).unwrap();
            raw.write_all(bytes).unwrap();
        }
        let raw = raw.finish().unwrap().into_inner();
        let book = crate::tests::book();
        let extras = Extras {
            page_list: &[],
            glossary: None,
        };
        let repacked = repack(&raw, &book, &extras).unwrap();
        assert_eq!(repacked, recompressed(&raw, zip_time(&book.meta.modified)));
    }

    #[test]
    fn timestamps_come_from_the_book() {
        let t = zip_time("2024-05-31T12:34:56Z");
        assert_eq!(
            (t.year(), t.month(), t.day(), t.hour(), t.minute()),
            (2024, 5, 31, 12, 34)
        );
        assert_eq!(zip_time("1970-01-01T00:00:00Z").year(), 1980);
    }

    #[test]
    fn nav_gets_a_language() {
        let nav = br#"<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">"#;
        let out = String::from_utf8(with_language(nav, "pt-BR")).unwrap();
        let hebrew = String::from_utf8(with_language(nav, "he")).unwrap();
        assert!(
            hebrew.contains("lang=\"he\" xml:lang=\"he\" dir=\"rtl\">"),
            "{hebrew}"
        );
        assert!(!out.contains("dir="), "{out}");
        assert!(out.ends_with(r#"lang="pt-BR" xml:lang="pt-BR">"#), "{out}");
    }
}
