//! Numbered figures, tables and listings ([`stoa_doc::xref`]) as HTML
//! writes them: a `figure` whose `figcaption` comes first or last, so that
//! a screen reader names the figure by its caption. Numbered equations and
//! references need nothing of their own: a div, a span, a link.

use super::Writer;
use crate::xml::Xml;
use stoa_doc::{Block, xref};

impl Writer<'_, '_> {
    /// Writes `block` if it is a numbered figure or its caption; false
    /// otherwise.
    pub(super) fn xref_block(&mut self, block: &Block, x: &mut Xml) -> bool {
        let Block::Div {
            role,
            class,
            attrs,
            blocks,
        } = block
        else {
            return false;
        };
        match xref::role_name(role.as_ref()) {
            Some(xref::FIGURE_ROLE) => {
                let attrs = self
                    .m
                    .container_attrs(class, role.as_ref(), attrs, false, true);
                x.open_owned("figure", &attrs);
                self.blocks(blocks, x);
                x.close();
            }
            Some(xref::CAPTION_ROLE) => {
                x.open("figcaption", &[("class", class.as_str())]);
                for b in blocks {
                    match b {
                        Block::Paragraph { content } => self.inlines(content, x),
                        other => self.block(other, x),
                    }
                }
                x.close();
            }
            _ => return false,
        }
        true
    }
}
