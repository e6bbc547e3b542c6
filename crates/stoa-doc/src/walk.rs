//! One way to traverse the tree: the children of every node, a visitor
//! that can skip a subtree or stop early, and mutable walks. Every match on
//! the node kinds lives here and is exhaustive, so a new kind of block or
//! inline does not compile until each traversal knows what it holds.

use crate::{Block, Inline};

/// What a [`Visitor`] wants after seeing a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Go on, into the node's children.
    Continue,
    /// Go on, but not into this node's children.
    Skip,
    /// Stop the whole traversal.
    Stop,
}

impl Block {
    /// The runs of blocks directly inside this block: each list item's
    /// blocks, a quote's, a note's, a container's.
    pub fn child_blocks(&self) -> Vec<&[Block]> {
        match self {
            Block::List { items, .. } => items.iter().map(|i| i.blocks.as_slice()).collect(),
            Block::Quote { blocks }
            | Block::FootnoteDef { blocks, .. }
            | Block::Div { blocks, .. } => vec![blocks.as_slice()],
            Block::Heading { .. }
            | Block::Paragraph { .. }
            | Block::Code { .. }
            | Block::Table { .. }
            | Block::Rule
            | Block::Raw { .. } => Vec::new(),
        }
    }

    /// [`Block::child_blocks`], mutable.
    pub fn child_blocks_mut(&mut self) -> Vec<&mut Vec<Block>> {
        match self {
            Block::List { items, .. } => items.iter_mut().map(|i| &mut i.blocks).collect(),
            Block::Quote { blocks }
            | Block::FootnoteDef { blocks, .. }
            | Block::Div { blocks, .. } => vec![blocks],
            Block::Heading { .. }
            | Block::Paragraph { .. }
            | Block::Code { .. }
            | Block::Table { .. }
            | Block::Rule
            | Block::Raw { .. } => Vec::new(),
        }
    }

    /// The runs of inlines this block holds itself (not those of nested
    /// blocks): a heading's or paragraph's text, each table cell.
    pub fn inline_runs(&self) -> Vec<&[Inline]> {
        match self {
            Block::Heading { content, .. } | Block::Paragraph { content } => vec![content],
            Block::Table { head, rows, .. } => head
                .iter()
                .chain(rows.iter().flatten())
                .map(Vec::as_slice)
                .collect(),
            Block::List { .. }
            | Block::Quote { .. }
            | Block::Code { .. }
            | Block::Rule
            | Block::Raw { .. }
            | Block::FootnoteDef { .. }
            | Block::Div { .. } => Vec::new(),
        }
    }

    /// [`Block::inline_runs`], mutable.
    pub fn inline_runs_mut(&mut self) -> Vec<&mut Vec<Inline>> {
        match self {
            Block::Heading { content, .. } | Block::Paragraph { content } => vec![content],
            Block::Table { head, rows, .. } => {
                head.iter_mut().chain(rows.iter_mut().flatten()).collect()
            }
            Block::List { .. }
            | Block::Quote { .. }
            | Block::Code { .. }
            | Block::Rule
            | Block::Raw { .. }
            | Block::FootnoteDef { .. }
            | Block::Div { .. } => Vec::new(),
        }
    }
}

impl Inline {
    /// The inlines directly inside this one (emphasis, links, spans).
    pub fn children(&self) -> &[Inline] {
        match self {
            Inline::Emph { content }
            | Inline::Strong { content }
            | Inline::Strike { content }
            | Inline::Link { content, .. }
            | Inline::Span { content, .. } => content,
            Inline::Text { .. }
            | Inline::Code { .. }
            | Inline::Image { .. }
            | Inline::FootnoteRef { .. }
            | Inline::LineBreak
            | Inline::SoftBreak
            | Inline::Raw { .. } => &[],
        }
    }

    /// [`Inline::children`], mutable; `None` for an inline that holds none.
    pub fn children_mut(&mut self) -> Option<&mut Vec<Inline>> {
        match self {
            Inline::Emph { content }
            | Inline::Strong { content }
            | Inline::Strike { content }
            | Inline::Link { content, .. }
            | Inline::Span { content, .. } => Some(content),
            Inline::Text { .. }
            | Inline::Code { .. }
            | Inline::Image { .. }
            | Inline::FootnoteRef { .. }
            | Inline::LineBreak
            | Inline::SoftBreak
            | Inline::Raw { .. } => None,
        }
    }
}

/// Sees the nodes of a tree in reading order: a block, then the inlines it
/// holds (depth first), then the blocks nested in it.
pub trait Visitor {
    /// Called on every block.
    fn block(&mut self, _block: &Block) -> Walk {
        Walk::Continue
    }

    /// Called on every inline.
    fn inline(&mut self, _inline: &Inline) -> Walk {
        Walk::Continue
    }
}

/// Walks `blocks` with `visitor`; false when the visitor stopped it.
pub fn visit(blocks: &[Block], visitor: &mut dyn Visitor) -> bool {
    for block in blocks {
        match visitor.block(block) {
            Walk::Stop => return false,
            Walk::Skip => continue,
            Walk::Continue => {}
        }
        for run in block.inline_runs() {
            if !visit_inlines(run, visitor) {
                return false;
            }
        }
        for child in block.child_blocks() {
            if !visit(child, visitor) {
                return false;
            }
        }
    }
    true
}

/// Walks `inlines` with `visitor`; false when the visitor stopped it.
pub fn visit_inlines(inlines: &[Inline], visitor: &mut dyn Visitor) -> bool {
    for inline in inlines {
        match visitor.inline(inline) {
            Walk::Stop => return false,
            Walk::Skip => continue,
            Walk::Continue => {}
        }
        if !visit_inlines(inline.children(), visitor) {
            return false;
        }
    }
    true
}

/// A [`Visitor`] made of two closures, for walks too small for a type.
pub struct FnVisitor<B, I> {
    /// Called on blocks.
    pub on_block: B,
    /// Called on inlines.
    pub on_inline: I,
}

impl<B: FnMut(&Block) -> Walk, I: FnMut(&Inline) -> Walk> Visitor for FnVisitor<B, I> {
    fn block(&mut self, block: &Block) -> Walk {
        (self.on_block)(block)
    }

    fn inline(&mut self, inline: &Inline) -> Walk {
        (self.on_inline)(inline)
    }
}

/// Calls `f` on every block, in reading order, parents before children.
pub fn for_each_block<'a>(blocks: &'a [Block], f: &mut dyn FnMut(&'a Block)) {
    for block in blocks {
        f(block);
        for child in block.child_blocks() {
            for_each_block(child, f);
        }
    }
}

/// Calls `f` on every inline that `block` holds itself (not those of
/// nested blocks), depth first.
pub fn for_each_inline<'a>(block: &'a Block, f: &mut dyn FnMut(&'a Inline)) {
    fn go<'a>(inlines: &'a [Inline], f: &mut dyn FnMut(&'a Inline)) {
        for inline in inlines {
            f(inline);
            go(inline.children(), f);
        }
    }
    for run in block.inline_runs() {
        go(run, f);
    }
}

/// Calls `f` on every block, depth first, parents before children.
pub fn walk_blocks_mut(blocks: &mut [Block], f: &mut dyn FnMut(&mut Block)) {
    for block in blocks {
        f(block);
        for child in block.child_blocks_mut() {
            walk_blocks_mut(child, f);
        }
    }
}

/// Calls `f` on every list of inlines in the blocks (paragraphs, headings,
/// table cells), then on the inlines nested inside them.
pub fn walk_inlines_mut(blocks: &mut [Block], f: &mut dyn FnMut(&mut Vec<Inline>)) {
    walk_blocks_mut(blocks, &mut |block| {
        for run in block.inline_runs_mut() {
            visit_inlines_mut(run, f);
        }
    });
}

fn visit_inlines_mut(inlines: &mut Vec<Inline>, f: &mut dyn FnMut(&mut Vec<Inline>)) {
    f(inlines);
    for inline in inlines.iter_mut() {
        if let Some(children) = inline.children_mut() {
            visit_inlines_mut(children, f);
        }
    }
}

/// The plain text of one inline, as a reader would read it aloud.
pub fn inline_text(inline: &Inline) -> String {
    let mut out = String::new();
    push_text(inline, &mut out);
    out
}

/// The plain text of a run of inlines.
pub fn inlines_text(inlines: &[Inline]) -> String {
    let mut out = String::new();
    for inline in inlines {
        push_text(inline, &mut out);
    }
    out
}

fn push_text(inline: &Inline, out: &mut String) {
    match inline {
        Inline::Text { text } | Inline::Code { text } => out.push_str(text),
        Inline::Emph { content }
        | Inline::Strong { content }
        | Inline::Strike { content }
        | Inline::Link { content, .. }
        | Inline::Span { content, .. } => {
            for child in content {
                push_text(child, out);
            }
        }
        Inline::Image { alt, .. } => out.push_str(alt),
        Inline::LineBreak | Inline::SoftBreak => out.push(' '),
        // Raw code is markup for one format, not text of the post.
        Inline::FootnoteRef { .. } | Inline::Raw { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ListItem;

    fn para(text: &str) -> Block {
        Block::Paragraph {
            content: vec![Inline::Emph {
                content: vec![Inline::text(text)],
            }],
        }
    }

    #[test]
    fn reaches_inlines_nested_in_lists_and_quotes() {
        let mut blocks = vec![Block::Quote {
            blocks: vec![Block::List {
                start: None,
                tight: true,
                items: vec![ListItem {
                    checked: None,
                    blocks: vec![para("deep")],
                }],
            }],
        }];
        let mut seen = Vec::new();
        walk_inlines_mut(&mut blocks, &mut |inlines| {
            for inline in inlines.iter_mut() {
                if let Inline::Text { text } = inline {
                    seen.push(text.clone());
                    *text = text.to_uppercase();
                }
            }
        });
        assert_eq!(seen, ["deep"]);
        let Block::Quote { blocks } = &blocks[0] else {
            unreachable!()
        };
        let Block::List { items, .. } = &blocks[0] else {
            unreachable!()
        };
        let Block::Paragraph { content } = &items[0].blocks[0] else {
            unreachable!()
        };
        assert_eq!(inlines_text(content), "DEEP");
    }

    #[test]
    fn a_visitor_can_skip_a_subtree_and_stop_early() {
        let blocks = vec![
            Block::FootnoteDef {
                label: "n".into(),
                blocks: vec![para("in a note")],
            },
            para("first"),
            para("second"),
        ];
        let mut seen = Vec::new();
        let finished = visit(
            &blocks,
            &mut FnVisitor {
                on_block: |b: &Block| match b {
                    Block::FootnoteDef { .. } => Walk::Skip,
                    _ => Walk::Continue,
                },
                on_inline: |i: &Inline| match i {
                    Inline::Text { text } => {
                        seen.push(text.clone());
                        if text == "first" {
                            Walk::Stop
                        } else {
                            Walk::Continue
                        }
                    }
                    _ => Walk::Continue,
                },
            },
        );
        assert!(!finished);
        assert_eq!(seen, ["first"]);
    }

    #[test]
    fn tree_round_trips_through_json() {
        let block = para("x");
        let json = serde_json::to_string(&block).unwrap();
        assert!(json.starts_with(r#"{"type":"paragraph""#), "{json}");
        assert_eq!(serde_json::from_str::<Block>(&json).unwrap(), block);
    }
}
