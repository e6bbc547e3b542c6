//! epub-builder stamps each zip entry with the current time, writes a
//! navigation document without a language, and gives `dc:language` the same
//! id as `dc:creator` (an EPUBCheck error). Repacking fixes all three:
//! entries keep their order and get one fixed timestamp, nav.xhtml gets
//! `lang`, and the language gets an id of its own.

use std::io::{Cursor, Read, Write};
use stoa_doc::Book;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// Rewrites the archive deterministically.
pub fn repack(raw: &[u8], book: &Book) -> std::io::Result<Vec<u8>> {
    let mut archive = ZipArchive::new(Cursor::new(raw)).map_err(std::io::Error::other)?;
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    let time = zip_time(&book.meta.modified);
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(std::io::Error::other)?;
        let name = entry.name().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes)?;
        if name == "OEBPS/nav.xhtml" {
            bytes = with_language(&bytes, &book.lang);
        }
        if name == "OEBPS/content.opf" {
            bytes = String::from_utf8_lossy(&bytes)
                .replace(
                    "<dc:language id=\"epub-creator-",
                    "<dc:language id=\"epub-language-",
                )
                .into_bytes();
        }
        // The mimetype must come first and uncompressed (OCF 3.3 §4.2.5).
        let method = if name == "mimetype" {
            CompressionMethod::Stored
        } else {
            CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .last_modified_time(time)
            .unix_permissions(0o644);
        out.start_file(name, options)
            .map_err(std::io::Error::other)?;
        out.write_all(&bytes)?;
    }
    Ok(out.finish().map_err(std::io::Error::other)?.into_inner())
}

fn with_language(nav: &[u8], lang: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(nav);
    let lang = stoa_xhtml::escape(lang);
    text.replacen(
        "xmlns:epub=\"http://www.idpf.org/2007/ops\">",
        &format!(
            "xmlns:epub=\"http://www.idpf.org/2007/ops\" lang=\"{lang}\" xml:lang=\"{lang}\">"
        ),
        1,
    )
    .into_bytes()
}

/// A zip timestamp from `YYYY-MM-DDTHH:MM:SSZ`; zip cannot store years
/// before 1980, so earlier dates become 1980-01-01.
fn zip_time(iso: &str) -> DateTime {
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
        assert!(out.ends_with(r#"lang="pt-BR" xml:lang="pt-BR">"#), "{out}");
    }
}
