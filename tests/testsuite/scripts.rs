//! The script matrix (issue 57), on tests/fixtures/v1/scripts: article 1
//! of the Universal Declaration of Human Rights in sixteen languages and
//! eleven scripts, each its own edition. Every PDF sets its text in a text
//! face that has the script (never the code face, never an empty box), and
//! every EPUB passes EPUBCheck.
//!
//! The fixture is built once for the whole file; each test reads the output.

use crate::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Each edition's language and the face its body text must be set in
/// (as pdffonts names it, without the subset prefix).
const FACES: [(&str, &str); 16] = [
    ("ar", "NotoNaskhArabic-Regular"),
    ("fa", "NotoNaskhArabic-Regular"),
    ("ur", "NotoNaskhArabic-Regular"),
    ("he", "LibertinusSerif-Regular"),
    ("hi", "NotoSerifDevanagari-Regular"),
    ("bn", "NotoSerifBengali-Regular"),
    ("ta", "NotoSerifTamil-Regular"),
    ("th", "NotoSerifThai-Regular"),
    ("am", "NotoSerifEthiopic-Regular"),
    ("ka", "NewCM10-Regular"),
    ("hy", "NewCM10-Regular"),
    ("si", "NotoSerifSinhala-Regular"),
    ("km", "NotoSerifKhmer-Regular"),
    ("ru", "LibertinusSerif-Regular"),
    ("uk", "LibertinusSerif-Regular"),
    ("el", "LibertinusSerif-Regular"),
];

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    let args = ["--format", "pdf", "--format", "epub", "--no-site"];
    BUILT.get_or_init(|| build_fixture("scripts/books", &args))
}

/// The fonts of a PDF as pdffonts names them, subset prefixes dropped.
fn fonts_of(pdf: &std::path::Path) -> Vec<String> {
    tool("pdffonts", &[], pdf)
        .lines()
        .skip(2)
        .filter_map(|line| line.split_whitespace().next())
        .map(|name| name.split_once('+').map_or(name, |(_, n)| n).to_string())
        .collect()
}

#[test]
fn every_script_is_set_in_a_text_face_that_has_it() {
    let built = built();
    assert!(
        !built.log.contains("no font of the PDF has"),
        "a script drawn as boxes:\n{}",
        built.log
    );
    let mut wrong = Vec::new();
    for (lang, face) in FACES {
        let fonts = fonts_of(&built.dist.join(format!("udhr/udhr-{lang}.pdf")));
        let has = |f: &str| fonts.iter().any(|n| n.starts_with(f));
        if !has(face) || has("DejaVuSansMono") {
            wrong.push(format!("{lang}: {fonts:?}, wanted {face} and no code face"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_script_makes_a_valid_epub() {
    let epubs: Vec<PathBuf> = FACES
        .iter()
        .map(|(lang, _)| built().dist.join(format!("udhr/udhr-{lang}.epub")))
        .collect();
    let found = epubcheck(&epubs);
    assert!(found.is_empty(), "{found:#?}");
}

/// Russian and Ukrainian have stoa's words: their editions build with no
/// "no words for" warning, and print their dates and headings in their own
/// language.
#[test]
fn russian_and_ukrainian_editions_have_their_own_words() {
    let built = built();
    for lang in ["ru", "uk"] {
        assert!(
            !built.log.contains(&format!("no words for `{lang}`")),
            "{}",
            built.log
        );
    }
    for (lang, words) in [
        ("ru", ["10 декабря 1948 г.", "Содержание"]),
        ("uk", ["10 грудня 1948 р.", "Зміст"]),
    ] {
        let text = squeeze(&pdftotext(
            &built.dist.join(format!("udhr/udhr-{lang}.pdf")),
            &[],
        ));
        for word in words {
            assert!(text.contains(word), "{lang}: {word:?} in {text}");
        }
    }
}
