//! LaTeX math, parsed once and written twice: as MathML (with the formula
//! as its `alttext`) for EPUB and HTML, and as Typst math for print.
//!
//! The parser is pulldown-latex's: a pull parser of the LaTeX math most
//! blogs write (KaTeX's and MathJax's commands, amsmath environments), and
//! the MathML Core writer of the same crate. Its events are the one
//! reading of a formula; the Typst writer here walks the same events, so
//! the print edition shows what the ebook shows. Chosen over math-core
//! (MathML only, no events to write Typst from), mitex (Typst only, and
//! its output needs a Typst package's definitions at run time) and
//! tex2typst-rs (GPL).

mod mathml;
mod nodes;
mod typst;

use std::fmt;
use stoa_doc::{Attrs, Inline, Role};

/// A formula as the author wrote it, between `$…$` (inline) or `$$…$$`
/// (display).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formula<'a> {
    /// The LaTeX source, without its dollar signs.
    pub tex: &'a str,
    /// Display math (a centred line of its own) rather than inline.
    pub display: bool,
}

impl<'a> Formula<'a> {
    /// An inline formula.
    pub fn inline(tex: &'a str) -> Self {
        Formula {
            tex,
            display: false,
        }
    }

    /// A display formula.
    pub fn display(tex: &'a str) -> Self {
        Formula { tex, display: true }
    }

    /// Whether the formula parses: the check a post's loading makes, so
    /// that an error is reported once, at the post's line, and renderers
    /// never meet it.
    pub fn check(&self) -> Result<(), MathError> {
        nodes::events(self.tex).map(drop)
    }

    /// The formula as a MathML `<math>` element, well-formed XML, with the
    /// LaTeX source as its `alttext` (read aloud by screen readers that do
    /// not speak MathML) and as a TeX annotation.
    pub fn mathml(&self) -> Result<String, MathError> {
        mathml::write(self)
    }

    /// The formula as Typst math markup, dollar signs included (`$x$`
    /// inline, `$ x $` display); nothing in it is read as code.
    pub fn typst(&self) -> Result<String, MathError> {
        typst::write(self)
    }
}

/// The formula as the tree holds it: a span of role `math` and class
/// `math` whose one inline is the LaTeX as code (what a renderer that does
/// not know math shows), `display="block"` in its attributes for display
/// math.
pub fn span(tex: &str, display: bool) -> Inline {
    let mut attrs = Attrs::new();
    if display {
        attrs.insert(DISPLAY_KEY.into(), DISPLAY_BLOCK.into());
    }
    Inline::Span {
        role: Some(Role::Math),
        class: "math".into(),
        attrs,
        content: vec![Inline::Code { text: tex.into() }],
    }
}

/// The LaTeX of a math span (see [`span`]), and whether it is display math.
pub fn of_span(attrs: &Attrs, content: &[Inline]) -> (String, bool) {
    let display = attrs.get(DISPLAY_KEY).is_some_and(|d| d == DISPLAY_BLOCK);
    (stoa_doc::inlines_text(content), display)
}

/// Every formula of `book`, each once, sorted: (LaTeX, display). Those in
/// footnotes and containers too, since every renderer writes them.
pub fn formulas_of(book: &stoa_doc::Book) -> Vec<(String, bool)> {
    use stoa_doc::{Block, FnVisitor, Walk, visit};
    let mut found = std::collections::BTreeSet::new();
    for chapter in &book.chapters {
        visit(
            &chapter.blocks,
            &mut FnVisitor {
                on_block: |_: &Block| Walk::Continue,
                on_inline: |inline: &Inline| {
                    if let Inline::Span {
                        role: Some(Role::Math),
                        attrs,
                        content,
                        ..
                    } = inline
                    {
                        found.insert(of_span(attrs, content));
                        return Walk::Skip;
                    }
                    Walk::Continue
                },
            },
        );
    }
    found.into_iter().collect()
}

const DISPLAY_KEY: &str = "display";
const DISPLAY_BLOCK: &str = "block";

/// Why a formula cannot be read: what is wrong, and the part of the
/// formula where the parser stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MathError {
    /// What is wrong, e.g. `unbalanced group found, expected it to be
    /// closed with "}"`.
    pub message: String,
    /// The text around the place, as the parser shows it.
    pub context: String,
}

impl fmt::Display for MathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.context.is_empty() {
            write!(f, "\n{}", self.context)?;
        }
        Ok(())
    }
}

impl std::error::Error for MathError {}

#[cfg(test)]
mod tests;
