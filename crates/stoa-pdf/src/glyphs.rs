//! Characters no font of the PDF has. Typst draws each as an empty box
//! and says nothing, while the EPUB and the web edition show it with the
//! reader's fonts: before a book is laid out, every character it prints
//! is looked up in the fonts its PDF may use (the theme's, the embedded
//! text faces, the emoji face), and those none has are one warning per
//! script, naming the characters and where they are written.

use std::collections::BTreeMap;

use stoa_doc::{Block, Book, Diagnostic, Inline, for_each_block, for_each_inline};
use typst::text::FontBook;
use unicode_script::{Script, UnicodeScript};

/// How many characters of one script a warning names.
const SHOWN: usize = 12;

/// Where the characters of one script that no font has are written.
#[derive(Default)]
struct Missing {
    chars: Vec<char>,
    /// The posts (their source files) in the order met, each once, with
    /// the first such character met in each.
    posts: Vec<(String, char)>,
}

/// One warning per script whose characters no font of `fonts` has.
pub(crate) fn check(book: &Book, fonts: &FontBook) -> Vec<Diagnostic> {
    let covered = |c: char| {
        (0..)
            .map_while(|i| fonts.info(i))
            .any(|info| info.coverage.contains(c as u32))
    };
    let mut missing: BTreeMap<&'static str, Missing> = BTreeMap::new();
    let mut seen = std::collections::HashMap::new();
    let mut note = |text: &str, post: &str| {
        for c in text.chars() {
            if invisible(c) {
                continue;
            }
            let has = *seen.entry(c).or_insert_with(|| covered(c));
            if has {
                continue;
            }
            let entry = missing.entry(script_name(c)).or_default();
            if !entry.chars.contains(&c) {
                entry.chars.push(c);
            }
            if !entry.posts.iter().any(|(p, _)| p == post) {
                entry.posts.push((post.to_string(), c));
            }
        }
    };
    each_text(book, &mut note);
    missing
        .into_iter()
        .map(|(script, m)| warning(script, m))
        .collect()
}

/// The characters the laid-out `document` draws as the missing-glyph
/// shape (glyph 0: an empty box), in the order met, each once. The check
/// before layout ([`check`]) reads the posts; this one reads what was
/// printed, words stoa adds included (dates, labels, running heads).
pub(crate) fn boxes(document: &typst_layout::PagedDocument) -> Vec<char> {
    fn walk(frame: &typst::layout::Frame, found: &mut Vec<char>) {
        for (_, item) in frame.items() {
            match item {
                typst::layout::FrameItem::Group(group) => walk(&group.frame, found),
                typst::layout::FrameItem::Text(text) => {
                    for glyph in text.glyphs.iter().filter(|g| g.id == 0) {
                        let chars = text.text.get(glyph.range()).unwrap_or("");
                        for c in chars.chars().filter(|&c| !invisible(c)) {
                            if !found.contains(&c) {
                                found.push(c);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    for page in document.pages() {
        walk(&page.frame, &mut found);
    }
    found
}

/// The warning for characters printed as empty boxes that [`check`] did
/// not name (it names those of the posts).
pub(crate) fn boxes_warning(drawn: &[char], named: &[Diagnostic]) -> Option<Diagnostic> {
    let said: String = named.iter().map(|d| d.message.as_str()).collect();
    let new: String = drawn.iter().filter(|c| !said.contains(**c)).collect();
    (!new.is_empty()).then(|| {
        Diagnostic::warning(format!(
            "the PDF prints these characters as empty boxes: {new} (in words stoa adds: \
             dates, labels, headings)"
        ))
        .with_hint("give the edition a font that has them (see `stoa fonts`), or other words in `[labels.<lang>]`")
    })
}

/// Calls `f` with each text the PDF prints of the book (titles, dates in
/// words, the posts' text and code) and the file it is written in.
pub(crate) fn each_text(book: &Book, f: &mut dyn FnMut(&str, &str)) {
    let date = |d: &str| stoa_locale::long_date(&book.lang, d);
    f(&book.meta.title, "book.toml");
    f(&book.meta.author, "book.toml");
    f(&date(&book.meta.date), "book.toml");
    if let Some(subtitle) = &book.meta.subtitle {
        f(subtitle, "book.toml");
    }
    for chapter in &book.chapters {
        let post = chapter.source.as_deref().unwrap_or(&chapter.slug);
        f(&chapter.title, post);
        if let Some(d) = &chapter.date {
            f(&date(d), post);
        }
        for_each_block(&chapter.blocks, &mut |block| {
            if let Block::Code { text, .. } = block {
                f(text, post);
            }
            for_each_inline(block, &mut |inline| match inline {
                Inline::Text { text } | Inline::Code { text } => f(text, post),
                _ => {}
            });
        });
    }
}

fn warning(script: &str, m: Missing) -> Diagnostic {
    let shown: String = m.chars.iter().take(SHOWN).collect();
    let more = match m.chars.len().saturating_sub(SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let what = match script {
        "Common" => "symbols and punctuation".to_string(),
        s => format!("{s} characters"),
    };
    let places: Vec<(String, Option<(usize, usize)>)> = m
        .posts
        .iter()
        .map(|(post, c)| (post.clone(), line_of(post, *c)))
        .collect();
    let posts: Vec<String> = places
        .iter()
        .map(|(post, at)| match at {
            Some((line, _)) => format!("{post}:{line}"),
            None => post.clone(),
        })
        .collect();
    let mut warning = Diagnostic::warning(format!(
        "no font of the PDF has these {what}: {shown}{more} (at {}); they print as empty boxes",
        posts.join(", ")
    ));
    if let Some((file, at)) = places.into_iter().next() {
        warning = warning.in_file(file);
        if let Some((line, column)) = at {
            warning = warning.at(line, column);
        }
    }
    warning.with_hint(
        "put a font that has them (for CJK, e.g. Noto Serif CJK) in the project's `fonts/` \
         folder (beside `books/`) or the theme's, or set `[fonts] system = true` in book.toml \
         to use this machine's; the EPUB and the web edition show them with the reader's fonts",
    )
}

/// The line and column where `c` is first written in the post's file,
/// when the file can be read (its path as the build shows it).
pub(crate) fn line_of(post: &str, c: char) -> Option<(usize, usize)> {
    let text = std::fs::read_to_string(post).ok()?;
    text.lines().enumerate().find_map(|(i, line)| {
        let column = line.chars().position(|x| x == c)?;
        Some((i + 1, column + 1))
    })
}

/// Characters that draw nothing: spaces, controls, joiners, variation
/// selectors, tags and other default-ignorable marks.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{00ad}' | '\u{034f}' | '\u{061c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}'
            | '\u{17b5}' | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}' | '\u{feff}' | '\u{ffa0}' | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}')
}

/// The script a character belongs to, by its name (`Han`, `Arabic`;
/// `Common` for symbols and emoji).
fn script_name(c: char) -> &'static str {
    match c.script() {
        Script::Inherited | Script::Unknown => "Common",
        s => s.full_name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_doc::{BookMeta, Chapter, Inline, Labels, Print, TREE_VERSION};

    fn book(text: &str) -> Book {
        Book {
            version: TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: BookMeta {
                title: "T".into(),
                ..BookMeta::default()
            },
            labels: Labels::default(),
            assets: Vec::new(),
            styles: Vec::new(),
            print: Print::default(),
            chapters: vec![Chapter {
                slug: "p".into(),
                title: "Title".into(),
                source: Some("books/posts/p/en.md".into()),
                blocks: vec![Block::Paragraph {
                    content: vec![Inline::text(text)],
                }],
                ..Chapter::default()
            }],
        }
    }

    fn fonts() -> FontBook {
        FontBook::from_infos(crate::fonts::faces().iter().map(|f| f.info().clone()))
    }

    #[test]
    fn emoji_and_text_have_a_font_and_cjk_is_named_by_script() {
        let found = check(&book("Feito ✅ não ⛔️ vai 🚀 — “ok” café Ωμέγα"), &fonts());
        assert!(found.is_empty(), "{found:?}");
        let found = check(&book("日本語 と 中文, 한국어 ✅"), &fonts());
        let messages: Vec<_> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages
                .iter()
                .any(|m| m.contains("Han characters: 日本語中文")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("Hiragana characters: と")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("Hangul characters: 한국어")),
            "{messages:?}"
        );
        assert!(
            messages[0].contains("(at books/posts/p/en.md)"),
            "{messages:?}"
        );
        assert_eq!(found[0].file.as_deref(), Some("books/posts/p/en.md"));
    }
}
