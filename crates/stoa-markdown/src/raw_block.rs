//! A block of raw HTML (lines that begin with an HTML element's tag, up to
//! a blank line): parsed as a browser would by stoa-html-md, which gives
//! it back as Markdown (figures, tables, embeds, images, emphasis) that is
//! read here into the tree. Nothing of it is printed as tags.

use crate::build::Builder;
use crate::html::{DROPPED, starts_with_element, strip_comments, tags};
use crate::raw_inline::image_source;
use crate::{ImageRef, Pos};
use stoa_doc::{Block, Diagnostic, Inline};
use stoa_html_md::{ImageSource, Options};

impl Builder<'_> {
    /// An HTML block: read as HTML when it begins with an element's tag;
    /// else (`<Map>` alone on a line) shown as the text the author typed,
    /// its lines kept as line breaks. Comments vanish.
    pub(crate) fn html_block(&mut self, text: String, offset: usize) {
        let text = strip_comments(&text);
        if text.trim().is_empty() {
            return;
        }
        if self.nested || !starts_with_element(&text) {
            return self.literal_block(&text);
        }
        let pos = self.lines.pos(offset);
        let mut dropped = Vec::new();
        for tag in tags(&text).filter(|t| !t.end) {
            if DROPPED.contains(&tag.name.as_str()) && !dropped.contains(&tag.name) {
                dropped.push(tag.name);
            }
        }
        for name in dropped {
            self.unsupported(&name, offset, true);
        }
        let mut resolve = |src: &str| match image_source(src) {
            Ok(path) => ImageSource::Local(path),
            Err(why) => ImageSource::Unavailable(why.into()),
        };
        let converted = stoa_html_md::convert(&text, &Options::default(), &mut resolve);
        for warning in converted.warnings {
            self.out.diagnostics.push(
                Diagnostic::warning(format!("in this HTML: {warning}"))
                    .at(pos.line, pos.column)
                    .with_hint("write it in Markdown, or leave it out"),
            );
        }
        self.nested_markdown(&converted.markdown, pos);
    }

    /// Reads the Markdown an HTML block became, at the block's place: its
    /// headings take ids unique in the whole post, its depth counts from
    /// where it stands, and whatever it reports is reported at the block.
    fn nested_markdown(&mut self, markdown: &str, pos: Pos) {
        let mut inner = Builder::new(markdown, pos.line);
        inner.nested = true;
        inner.ids = std::mem::take(&mut self.ids);
        inner.levels = self.levels;
        inner.inline_levels = self.inline_levels;
        let (blocks, out, ids) = inner.fold();
        self.ids = ids;
        for image in out.images {
            self.out.images.push(ImageRef {
                url: image.url,
                pos,
            });
        }
        for diagnostic in out.diagnostics {
            self.out
                .diagnostics
                .push(diagnostic.at(pos.line, pos.column));
        }
        for block in blocks {
            self.block(block);
        }
    }

    fn literal_block(&mut self, text: &str) {
        let mut content = Vec::new();
        for (i, line) in text.trim_end().lines().enumerate() {
            if i > 0 {
                content.push(Inline::LineBreak);
            }
            content.push(Inline::text(line));
        }
        self.block(Block::Paragraph { content });
    }
}
