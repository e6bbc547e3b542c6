use super::*;
use std::io::Write;
use zip::write::SimpleFileOptions;

const CONTAINER: &str = r#"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#;

fn opf(extra: &str) -> String {
    format!(
        r#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="c1" href="one.xhtml" media-type="application/xhtml+xml"/>
<item id="img" href="images/a%20b.png" media-type="image/png"/>
{extra}</manifest><spine><itemref idref="c1"/></spine></package>"#
    )
}

const NAV: &str = r#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol><li><a href="one.xhtml#intro">One</a></li></ol></nav></body></html>"#;

fn one(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body><section id="one"><h2 id="intro">Intro</h2>{body}</section></body></html>"#
    )
}

fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in files {
        out.start_file(*name, SimpleFileOptions::default()).unwrap();
        out.write_all(text.as_bytes()).unwrap();
    }
    out.finish().unwrap().into_inner()
}

fn package(opf_extra: &str, nav: &str, body: &str, more: &[(&str, &str)]) -> Vec<u8> {
    package_of(&opf(opf_extra), nav, body, more)
}

/// The package with the package document `opf`.
fn package_of(opf: &str, nav: &str, body: &str, more: &[(&str, &str)]) -> Vec<u8> {
    let one = one(body);
    let mut files = vec![
        ("mimetype", "application/epub+zip"),
        ("META-INF/container.xml", CONTAINER),
        ("OEBPS/content.opf", opf),
        ("OEBPS/nav.xhtml", nav),
        ("OEBPS/one.xhtml", one.as_str()),
        ("OEBPS/images/a b.png", "png"),
    ];
    files.extend_from_slice(more);
    zip_of(&files)
}

fn problems(bytes: &[u8]) -> Vec<String> {
    epub(bytes).err().unwrap_or_default()
}

#[test]
fn a_sound_package_passes() {
    let body = r##"<p><a href="#intro">up</a> <a href="https://x.org/a#b">web</a> <a href="mailto:a@b.c">mail</a> <img src="images/a%20b.png" alt=""/></p>"##;
    assert_eq!(problems(&package("", NAV, body, &[])), Vec::<String>::new());
}

#[test]
fn each_mistake_is_named_with_its_file() {
    let cases = [
        (
            package("", NAV, r#"<p id="intro">twice</p>"#, &[]),
            "OEBPS/one.xhtml: the id `intro` is given twice",
        ),
        (
            package("", NAV, r#"<a href="github">x</a>"#, &[]),
            "OEBPS/one.xhtml: `github` leads to no file of the package",
        ),
        (
            package("", NAV, r##"<a href="#nowhere">x</a>"##, &[]),
            "OEBPS/one.xhtml: `#nowhere` leads to no id of OEBPS/one.xhtml",
        ),
        (
            package("", NAV, r#"<img src="../x.png" alt=""/>"#, &[]),
            "`../x.png` leads to no file",
        ),
        (
            package("", NAV, "<p>unclosed", &[]),
            "OEBPS/one.xhtml: not well-formed XML",
        ),
        (
            package(
                "",
                r#"<html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol><li><a href="one.xhtml">One</a><ol></ol></li></ol></nav></body></html>"#,
                "",
                &[],
            ),
            "OEBPS/nav.xhtml: an empty list",
        ),
        (
            package("", NAV, "", &[("OEBPS/extra.css", "p {}")]),
            "OEBPS/extra.css: in the package but not in its manifest",
        ),
        (
            package(
                r#"<item id="gone" href="gone.xhtml" media-type="application/xhtml+xml"/>"#,
                NAV,
                "",
                &[],
            ),
            "the manifest names `gone.xhtml`, which is not in the package",
        ),
    ];
    for (bytes, expected) in cases {
        let found = problems(&bytes);
        assert!(
            found.iter().any(|p| p.contains(expected)),
            "{expected}: {found:?}"
        );
    }
    assert!(problems(b"not a zip")[0].starts_with("the EPUB cannot be read"));
}

#[test]
fn paths_resolve_as_a_reading_system_resolves_them() {
    assert_eq!(join("OEBPS/", "../META-INF/x"), "META-INF/x");
    assert_eq!(join("OEBPS/text/", "./a.xhtml"), "OEBPS/text/a.xhtml");
    assert_eq!(decode("a%20b%C3%A9"), "a bé");
    assert!(has_scheme("https://x") && has_scheme("mailto:a") && !has_scheme("a.xhtml#x:y"));
}

/// A package whose metadata claims `features` (and WCAG AA with `wcag`),
/// with `nav` and a chapter of `body`.
fn claiming(features: &[&str], wcag: bool, nav: &str, body: &str) -> Vec<u8> {
    let mut meta = String::from("<metadata>");
    for f in features {
        meta.push_str(&format!(
            r#"<meta property="schema:accessibilityFeature">{f}</meta>"#
        ));
    }
    if wcag {
        meta.push_str(
            r#"<meta property="dcterms:conformsTo">EPUB Accessibility 1.1 - WCAG 2.1 Level AA</meta>"#,
        );
    }
    meta.push_str("</metadata><manifest>");
    package_of(&opf("").replacen("<manifest>", &meta, 1), nav, body, &[])
}

#[test]
fn a_claim_the_book_does_not_bear_out_is_a_problem() {
    let described = r#"<p><img src="images/a%20b.png" alt="A square"/></p>"#;
    let bare = r#"<p><img src="images/a%20b.png" alt=""/></p>"#;
    let decorative = r#"<p><img src="images/a%20b.png" alt="" role="presentation"/></p>"#;
    // True claims pass.
    assert!(problems(&claiming(&["alternativeText"], true, NAV, described)).is_empty());
    assert!(problems(&claiming(&[], true, NAV, decorative)).is_empty());
    // An image without its text, under a claim that needs it.
    let said = problems(&claiming(&["alternativeText"], false, NAV, bare));
    assert_eq!(
        said,
        [
            "OEBPS/content.opf: claims alternativeText, but images have no text alternative in OEBPS/one.xhtml"
        ]
    );
    let said = problems(&claiming(&[], true, NAV, bare));
    assert!(said[0].contains("claims WCAG conformance"), "{said:?}");
    // No claim, no problem: a book may have undescribed images.
    assert!(problems(&claiming(&[], false, NAV, bare)).is_empty());
    // Features that need something the documents lack.
    let said = problems(&claiming(
        &["pageNavigation", "MathML", "index"],
        false,
        NAV,
        described,
    ));
    assert_eq!(
        said,
        [
            "OEBPS/content.opf: claims pageNavigation, which the book does not have",
            "OEBPS/content.opf: claims MathML, which the book does not have",
            "OEBPS/content.opf: claims index, which the book does not have",
        ]
    );
    // And pass when the documents have them.
    let nav = r#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="one.xhtml#intro">One</a></li></ol></nav><nav epub:type="page-list"><ol><li><a href="one.xhtml#intro">1</a></li></ol></nav><nav epub:type="landmarks"><ol><li><a epub:type="index" href="one.xhtml#intro">Index</a></li></ol></nav></body></html>"#;
    let math = r#"<p><math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math></p>"#;
    assert!(
        problems(&claiming(
            &["pageNavigation", "MathML", "index"],
            false,
            nav,
            math
        ))
        .is_empty()
    );
}
