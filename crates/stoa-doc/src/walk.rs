//! Helpers to visit and rewrite a tree without writing the recursion again.

use crate::{Block, Inline};

/// Calls `f` on every block, depth first, parents before children.
pub fn walk_blocks_mut(blocks: &mut [Block], f: &mut dyn FnMut(&mut Block)) {
    for block in blocks {
        f(block);
        match block {
            Block::List { items, .. } => {
                for item in items {
                    walk_blocks_mut(&mut item.blocks, f);
                }
            }
            Block::Quote { blocks }
            | Block::FootnoteDef { blocks, .. }
            | Block::Div { blocks, .. } => walk_blocks_mut(blocks, f),
            _ => {}
        }
    }
}

/// Calls `f` on every list of inlines in the blocks (paragraphs, headings,
/// table cells), then on the inlines nested inside them.
pub fn walk_inlines_mut(blocks: &mut [Block], f: &mut dyn FnMut(&mut Vec<Inline>)) {
    walk_blocks_mut(blocks, &mut |block| match block {
        Block::Heading { content, .. } | Block::Paragraph { content } => visit_inlines(content, f),
        Block::Table { head, rows, .. } => {
            for cell in head.iter_mut().chain(rows.iter_mut().flatten()) {
                visit_inlines(cell, f);
            }
        }
        _ => {}
    });
}

fn visit_inlines(inlines: &mut Vec<Inline>, f: &mut dyn FnMut(&mut Vec<Inline>)) {
    f(inlines);
    for inline in inlines.iter_mut() {
        match inline {
            Inline::Emph { content }
            | Inline::Strong { content }
            | Inline::Strike { content }
            | Inline::Link { content, .. }
            | Inline::Span { content, .. } => visit_inlines(content, f),
            _ => {}
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
        Inline::FootnoteRef { .. } => {}
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
    fn tree_round_trips_through_json() {
        let block = para("x");
        let json = serde_json::to_string(&block).unwrap();
        assert!(json.starts_with(r#"{"type":"paragraph""#), "{json}");
        assert_eq!(serde_json::from_str::<Block>(&json).unwrap(), block);
    }
}
