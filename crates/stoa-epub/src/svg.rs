//! EPUB 3.3 asks the manifest to say which content documents hold inline
//! SVG (`properties="svg"`, a diagram drawn by stoa-diagram) or MathML
//! (`properties="mathml"`, a formula); epub-builder cannot say it, so the
//! repacking does.

use std::io::{Read, Seek};
use zip::ZipArchive;

/// The names (relative to `OEBPS/`) of the XHTML documents that hold an
/// `<svg` or a `<math` element, each with the manifest properties it needs.
pub(crate) fn documents_with_properties<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
) -> std::io::Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(std::io::Error::other)?;
        let Some(name) = entry.name().strip_prefix("OEBPS/").map(str::to_string) else {
            continue;
        };
        if !name.ends_with(".xhtml") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text)?;
        let properties = match (text.contains("<svg"), text.contains("<math")) {
            (true, true) => "svg mathml",
            (true, false) => "svg",
            (false, true) => "mathml",
            (false, false) => continue,
        };
        found.push((name, properties.to_string()));
    }
    Ok(found)
}

/// The package document with each document's properties added to those
/// of its manifest item.
pub(crate) fn mark<P: AsRef<str>>(opf: &[u8], documents: &[(String, P)]) -> Vec<u8> {
    let text = String::from_utf8_lossy(opf);
    if documents.is_empty() {
        return text.into_owned().into_bytes();
    }
    let mut out = String::with_capacity(text.len() + 32 * documents.len());
    let mut rest: &str = &text;
    while let Some(i) = rest.find("<item ") {
        let Some(len) = rest[i..].find('>') else {
            break;
        };
        let tag = &rest[i..=i + len];
        out.push_str(&rest[..i]);
        let href = tag
            .split_once("href=\"")
            .and_then(|(_, r)| r.split_once('"'))
            .map(|(h, _)| h);
        let properties = href.and_then(|h| documents.iter().find(|(d, _)| d == h));
        if let Some((_, properties)) = properties {
            if let Some((before, after)) = tag.split_once("properties=\"") {
                out.push_str(before);
                out.push_str("properties=\"");
                out.push_str(properties.as_ref());
                out.push(' ');
                out.push_str(after);
            } else {
                let end = if tag.ends_with("/>") {
                    tag.len() - 2
                } else {
                    tag.len() - 1
                };
                out.push_str(tag[..end].trim_end());
                out.push_str(" properties=\"");
                out.push_str(properties.as_ref());
                out.push('"');
                out.push_str(&tag[end..]);
            }
        } else {
            out.push_str(tag);
        }
        rest = &rest[i + len + 1..];
    }
    out.push_str(rest);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_documents_with_properties_are_marked() {
        let opf = r#"<manifest><item media-type="application/xhtml+xml" id="a" href="a.xhtml"/>
<item id="n" href="nav.xhtml" properties="nav" media-type="application/xhtml+xml"/>
<item id="b" href="b.xhtml" media-type="application/xhtml+xml"/></manifest>"#;
        let out = String::from_utf8(mark(
            opf.as_bytes(),
            &[("a.xhtml".into(), "svg"), ("nav.xhtml".into(), "svg")],
        ))
        .unwrap();
        assert!(
            out.contains(r#"id="a" href="a.xhtml" properties="svg"/>"#),
            "{out}"
        );
        assert!(out.contains(r#"properties="svg nav""#), "{out}");
        assert!(
            out.contains(r#"<item id="b" href="b.xhtml" media-type="application/xhtml+xml"/>"#)
        );
        assert_eq!(mark::<&str>(opf.as_bytes(), &[]), opf.as_bytes());
        let out =
            String::from_utf8(mark(opf.as_bytes(), &[("b.xhtml".into(), "svg mathml")])).unwrap();
        assert!(
            out.contains(
                r#"href="b.xhtml" media-type="application/xhtml+xml" properties="svg mathml"/>"#
            ),
            "{out}"
        );
    }
}
