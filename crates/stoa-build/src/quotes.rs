//! Quotation marks as the book's language sets them (CLDR's, through
//! `stoa_locale::quotes`): the Markdown's smart punctuation and the author
//! write `“…”`, which a German book prints `„…“`, a French one `« … »`,
//! a Japanese one `「…」`. Settled once in the tree, before any format is
//! rendered, so that every format agrees; code is left as written, and so
//! are single quotes, whose closing mark is also the apostrophe.

use stoa_doc::{Block, Book, Inline};

/// Sets every `“` and `”` of `book`'s text in its language's marks.
pub(crate) fn localize(book: &mut Book) {
    let (open, close) = stoa_locale::quotes(&book.lang);
    if (open, close) == ('“', '”') {
        return;
    }
    // French sets a no-break space inside its guillemets: a narrow one,
    // as the Imprimerie nationale and today's French typesetting do.
    let inner = match stoa_locale::primary(&book.lang).eq_ignore_ascii_case("fr") {
        true => "\u{202f}",
        false => "",
    };
    let marks = Marks { open, close, inner };
    marks.text(&mut book.meta.title);
    if let Some(subtitle) = &mut book.meta.subtitle {
        marks.text(subtitle);
    }
    for chapter in &mut book.chapters {
        marks.text(&mut chapter.title);
        marks.blocks(&mut chapter.blocks);
    }
}

struct Marks {
    open: char,
    close: char,
    inner: &'static str,
}

impl Marks {
    fn blocks(&self, blocks: &mut [Block]) {
        for block in blocks {
            for run in block.inline_runs_mut() {
                self.inlines(run);
            }
            for children in block.child_blocks_mut() {
                self.blocks(children);
            }
        }
    }

    fn inlines(&self, run: &mut [Inline]) {
        for inline in run {
            match inline {
                Inline::Text { text } => self.text(text),
                other => {
                    if let Some(children) = other.children_mut() {
                        self.inlines(children);
                    }
                }
            }
        }
    }

    fn text(&self, text: &mut String) {
        if !text.contains(['“', '”']) {
            return;
        }
        let mut out = String::with_capacity(text.len() + 8);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '“' => {
                    out.push(self.open);
                    // A space the author put after the opening mark stays
                    // the only one.
                    if !chars.peek().is_some_and(|n| n.is_whitespace()) {
                        out.push_str(self.inner);
                    }
                }
                '”' => {
                    // A space the author put before the closing mark is
                    // the no-break one already.
                    if !self.inner.is_empty() && !out.ends_with(char::is_whitespace) {
                        out.push_str(self.inner);
                    }
                    out.push(self.close);
                }
                c => out.push(c),
            }
        }
        *text = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(lang: &str) -> Marks {
        let (open, close) = stoa_locale::quotes(lang);
        let inner = if lang == "fr" { "\u{202f}" } else { "" };
        Marks { open, close, inner }
    }

    /// A paragraph as the Markdown `He said "yes", and *"no"*; `"code"`
    /// stays; it's 'one'.` is read, in the marks of `lang`.
    fn said(lang: &str) -> String {
        let text = |t: &str| Inline::Text { text: t.into() };
        let mut blocks = vec![Block::Paragraph {
            content: vec![
                text("He said “yes”, and "),
                Inline::Emph {
                    content: vec![text("“no”")],
                },
                text("; "),
                Inline::Code {
                    text: "\"code\"".into(),
                },
                text(" stays; it’s ‘one’."),
            ],
        }];
        marks(lang).blocks(&mut blocks);
        match &blocks[0] {
            Block::Paragraph { content } => stoa_doc::inlines_text(content),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn each_language_sets_its_own_marks() {
        assert_eq!(
            said("de-AT"),
            "He said „yes“, and „no“; \"code\" stays; it’s ‘one’."
        );
        assert_eq!(
            said("fr"),
            "He said «\u{202f}yes\u{202f}», and «\u{202f}no\u{202f}»; \"code\" stays; it’s ‘one’."
        );
        assert_eq!(
            said("ru"),
            "He said «yes», and «no»; \"code\" stays; it’s ‘one’."
        );
        let mut title = "“はい”".to_string();
        marks("ja").text(&mut title);
        assert_eq!(title, "「はい」");
        // A space inside the marks is not doubled.
        let mut spaced = "“ oui ”".to_string();
        marks("fr").text(&mut spaced);
        assert_eq!(spaced, "« oui »");
    }
}
