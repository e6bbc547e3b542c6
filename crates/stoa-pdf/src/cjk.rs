//! Chinese, Japanese and Korean text in the PDF. Their faces are too large
//! to bundle: a book that has such text is set in an installed font pack
//! (`stoa fonts add`, the same bytes on every machine), else in this
//! machine's CJK faces (said once), else it stops with the command that
//! fetches the pack. The faces are given to the theme in the order the
//! book's language wants them (`cjk-fonts`), so that a Japanese book gets
//! Japanese glyph forms and a Taiwanese one Traditional forms.

use crate::system_fonts::{self, SystemFace};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use stoa_doc::{Book, Diagnostic};

/// Where a book's CJK faces come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Cjk {
    /// The project's own `fonts/` folder's files (in the font set already:
    /// the author's choice comes first).
    Own(Vec<PathBuf>),
    /// An installed pack's files.
    Pack(Vec<PathBuf>),
    /// The machine's faces that have CJK characters.
    System,
}

/// Whether `c` is written only in CJK text: Han, kana, hangul, bopomofo.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF // Hiragana, Katakana
        | 0x3100..=0x312F // Bopomofo
        | 0x3130..=0x318F // Hangul compatibility jamo
        | 0x31F0..=0x31FF // Katakana extensions
        | 0x3400..=0x4DBF // Han extension A
        | 0x4E00..=0x9FFF // Han
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0x1100..=0x11FF // Hangul jamo
        | 0xF900..=0xFAFF // Han compatibility
        | 0x20000..=0x3FFFF // Han extensions B onwards
    )
}

/// The book's first CJK character and the post it is in: a post's
/// first, where an error can point at its line, else book.toml's.
pub(crate) fn first_in(book: &Book) -> Option<(char, String)> {
    let (mut in_post, mut in_book) = (None, None);
    crate::glyphs::each_text(book, &mut |text, post| {
        let slot = match post == "book.toml" {
            true => &mut in_book,
            false => &mut in_post,
        };
        if slot.is_none()
            && let Some(c) = text.chars().find(|&c| is_cjk(c))
        {
            *slot = Some((c, post.to_string()));
        }
    });
    in_post.or(in_book)
}

/// What sets the CJK text of a book that has some: the project's own
/// CJK faces, else an installed pack, else the machine's CJK faces;
/// `None` when there are none of these.
fn source(book: &Book) -> Option<Cjk> {
    if let Some(files) = own_cjk(book) {
        return Some(Cjk::Own(files));
    }
    match installed_pack() {
        Some(files) => Some(Cjk::Pack(files)),
        None => (!system_cjk().is_empty()).then_some(Cjk::System),
    }
}

/// The font files of the project's `fonts/` folder that have CJK faces.
fn own_cjk(book: &Book) -> Option<Vec<PathBuf>> {
    let folder = book.print.fonts_folder.as_deref()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| crate::fonts::is_font_file(p))
        .collect();
    files.sort();
    files.retain(|f| {
        pack_faces(std::slice::from_ref(f))
            .iter()
            .any(|face| has_cjk(face))
    });
    (!files.is_empty()).then_some(files)
}

/// Whether a face has CJK characters.
fn has_cjk(face: &SystemFace) -> bool {
    ['漢', 'あ', '한']
        .iter()
        .any(|&c| face.info().coverage.contains(c as u32))
}

/// The CJK faces a book needs, with a warning when they are the
/// machine's; `Ok(None)` when it has no CJK text, or when neither a pack
/// nor the machine has faces for it but its own fonts (the theme's, the
/// project's) do.
pub(crate) fn choose(
    book: &Book,
    own_has: &dyn Fn(char) -> bool,
) -> Result<(Option<Cjk>, Option<Diagnostic>), Diagnostic> {
    let Some((c, post)) = first_in(book) else {
        return Ok((None, None));
    };
    match source(book) {
        Some(Cjk::System) => Ok((Some(Cjk::System), Some(machine_faces()))),
        Some(chosen) => Ok((Some(chosen), None)),
        None if own_has(c) => Ok((None, None)),
        None => {
            let mut error = Diagnostic::error(format!(
                "this book has Chinese, Japanese or Korean text (`{c}` first) and no font of \
                 the PDF has it"
            ));
            if let Some((line, column)) = crate::glyphs::line_of(&post, c) {
                error = error.in_file(post).at(line, column);
            } else {
                error = error.in_file(post);
            }
            // A catalog of one's own that cannot be read hides the packs.
            let hint = match stoa_font_packs::catalog() {
                Err(e) => format!("{e}; fix it, or unset {}", stoa_font_packs::CATALOG_VAR),
                Ok(_) => "run `stoa fonts add noto-serif-cjk` once (54 MB; every later build uses \
                          it), or put a CJK font in the project's `fonts/` folder; the EPUB and the \
                          web edition need no font: `-f epub -f html` builds them alone"
                    .to_string(),
            };
            Err(error.with_hint(hint))
        }
    }
}

/// The families the theme is given for the book's CJK text
/// (`cjk-fonts`), in the order its language wants them; none for a book
/// without CJK text.
pub(crate) fn families_for(book: &Book) -> Vec<String> {
    match first_in(book).and_then(|_| source(book)) {
        Some(cjk) => families(&cjk, &book.lang),
        None => Vec::new(),
    }
}

/// Whether this is the first time the process asks: a warning about the
/// machine is said once, not once per edition.
pub(crate) fn first_time() -> bool {
    static SAID: OnceLock<()> = OnceLock::new();
    SAID.set(()).is_ok()
}

/// What of the machine decides which faces a PDF may use: the packs
/// installed, and the machine's font files (names, sizes, times: listed
/// once per process, never read).
pub(crate) fn machine_key() -> String {
    let mut key = String::new();
    for pack in stoa_font_packs::installed() {
        key.push_str(&pack.pack.folder_name());
        key.push('\n');
    }
    key.push_str(system_fonts::stamp());
    key
}

/// The files of the installed pack for the classic theme's serif text,
/// else of any installed pack.
fn installed_pack() -> Option<Vec<PathBuf>> {
    let mut packs = stoa_font_packs::installed();
    packs.sort_by_key(|p| p.pack.style != "serif");
    packs.into_iter().next().map(|p| p.files)
}

/// The machine's faces that have CJK characters.
pub(crate) fn system_cjk() -> Vec<&'static SystemFace> {
    system_fonts::faces()
        .iter()
        .filter(|f| has_cjk(f))
        .collect()
}

/// The warning that the machine's faces set the CJK text.
fn machine_faces() -> Diagnostic {
    let mut families: Vec<&str> = system_cjk()
        .iter()
        .map(|f| f.info().family.as_str())
        .collect();
    families.sort_unstable();
    families.dedup();
    Diagnostic::warning(format!(
        "no CJK font pack is installed: the PDF sets Chinese, Japanese and Korean text in this \
         machine's {}",
        families.join(", ")
    ))
    .with_hint(
        "another machine may set it in other faces; `stoa fonts add noto-serif-cjk` pins \
         them, the same everywhere",
    )
}

/// The faces of a pack's (or the project's) font files, read once per
/// process.
pub(crate) fn pack_faces(files: &[PathBuf]) -> Vec<&'static SystemFace> {
    type Read = Vec<(PathBuf, &'static [SystemFace])>;
    static READ: OnceLock<Mutex<Read>> = OnceLock::new();
    let read = READ.get_or_init(Default::default);
    let mut read = read.lock().unwrap_or_else(|e| e.into_inner());
    let mut faces = Vec::new();
    for file in files {
        let known = read.iter().find(|(p, _)| p == file).map(|(_, f)| *f);
        let of_file = known.unwrap_or_else(|| {
            let leaked: &'static [SystemFace] = Vec::leak(system_fonts::read_faces(file));
            read.push((file.clone(), leaked));
            leaked
        });
        faces.extend(of_file.iter());
    }
    faces
}

/// The CJK faces' families in the order the language `tag` wants them:
/// its own region's forms first (JP for Japanese, KR for Korean, TC for
/// Traditional Chinese, SC for Simplified and every other language).
pub(crate) fn families(cjk: &Cjk, tag: &str) -> Vec<String> {
    let faces = match cjk {
        Cjk::Own(files) => pack_faces(files)
            .into_iter()
            .filter(|f| has_cjk(f))
            .collect(),
        Cjk::Pack(files) => pack_faces(files),
        Cjk::System => system_cjk(),
    };
    let mut families: Vec<String> = faces.iter().map(|f| f.info().family.clone()).collect();
    families.sort();
    families.dedup();
    let order = region_order(tag);
    families.sort_by_key(|family| {
        let region = family.rsplit(' ').next().unwrap_or("");
        let rank = order.iter().position(|r| *r == region);
        (rank.unwrap_or(order.len()), style_rank(family))
    });
    families
}

/// Serif faces before the others, the monospaced ones last: the classic
/// theme sets its text in a serif (the machine may have Sans and Mono
/// faces of the same region too).
fn style_rank(family: &str) -> u8 {
    if family.contains("Mono") {
        2
    } else if family.contains("Serif") || family.contains("Mincho") || family.contains("Song") {
        0
    } else {
        1
    }
}

/// The regions of CJK faces, the language's own first.
fn region_order(tag: &str) -> [&'static str; 5] {
    let lower = tag.to_ascii_lowercase();
    let mut subtags = lower.split(['-', '_']);
    let lang = subtags.next().unwrap_or("");
    let rest: Vec<&str> = subtags.collect();
    let traditional = rest.contains(&"hant")
        || (!rest.contains(&"hans") && rest.iter().any(|s| ["tw", "hk", "mo"].contains(s)));
    match lang {
        "ja" => ["JP", "TC", "SC", "HK", "KR"],
        "ko" => ["KR", "TC", "SC", "HK", "JP"],
        "zh" if traditional && rest.contains(&"hk") => ["HK", "TC", "SC", "JP", "KR"],
        "zh" if traditional => ["TC", "HK", "SC", "JP", "KR"],
        _ => ["SC", "TC", "HK", "JP", "KR"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_letters_are_known_and_others_are_not() {
        for c in ['漢', '字', 'あ', 'カ', '한', 'ㄅ', '𠀀'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'é', 'ж', 'ع', '。', '、', '1', '😀'] {
            assert!(!is_cjk(c), "{c}");
        }
    }

    #[test]
    fn each_language_puts_its_own_forms_first() {
        assert_eq!(region_order("ja")[0], "JP");
        assert_eq!(region_order("ko-KR")[0], "KR");
        assert_eq!(region_order("zh")[0], "SC");
        assert_eq!(region_order("zh-CN")[0], "SC");
        assert_eq!(region_order("zh-Hans-HK")[0], "SC");
        assert_eq!(region_order("zh-TW")[0], "TC");
        assert_eq!(region_order("zh-Hant")[0], "TC");
        assert_eq!(region_order("zh-HK")[0], "HK");
        assert_eq!(region_order("en")[0], "SC");
    }

    #[test]
    fn serif_faces_come_before_sans_and_mono_ones() {
        let mut families = [
            "Noto Sans Mono CJK JP",
            "Noto Sans CJK JP",
            "Noto Serif CJK JP",
        ];
        families.sort_by_key(|f| style_rank(f));
        assert_eq!(
            families,
            [
                "Noto Serif CJK JP",
                "Noto Sans CJK JP",
                "Noto Sans Mono CJK JP"
            ]
        );
    }
}
