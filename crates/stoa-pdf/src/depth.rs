//! Typst's parser stops at a fixed nesting depth, and a list nested two
//! hundred levels deep cannot be printed legibly anyway. Beyond
//! [`MAX_DEPTH`] levels of lists and quotes, the PDF sets the content at
//! the deepest level allowed (nothing is dropped) and says so in a warning.

use std::borrow::Cow;

use stoa_doc::{Block, Chapter, Diagnostic};

/// Levels of nested lists and quotes the PDF keeps.
pub const MAX_DEPTH: usize = 12;

/// The chapter with its deepest containers flattened, and a warning if any were.
pub fn flatten_chapter(chapter: &Chapter) -> Option<(Chapter, Diagnostic)> {
    if depth(&chapter.blocks) <= MAX_DEPTH {
        return None;
    }
    let mut flat = chapter.clone();
    flat.blocks = flatten(std::mem::take(&mut flat.blocks), 0);
    let mut warning = Diagnostic::warning(format!(
        "lists or quotes nested deeper than {MAX_DEPTH} levels are set at level {MAX_DEPTH} in the PDF"
    ))
    .with_hint("the EPUB keeps the full nesting; flatten the Markdown to control the print layout");
    if let Some(source) = &chapter.source {
        warning = warning.in_file(source);
    }
    Some((flat, warning))
}

/// `blocks` (a note's, which the notes plan hands out unflattened) within
/// [`MAX_DEPTH`]; the chapter's warning already covers them.
pub fn bounded(blocks: &[Block]) -> Cow<'_, [Block]> {
    if depth(blocks) <= MAX_DEPTH {
        Cow::Borrowed(blocks)
    } else {
        Cow::Owned(flatten(blocks.to_vec(), 0))
    }
}

/// Whether `block` adds a level of nesting (its children are indented).
fn nests(block: &Block) -> bool {
    match block {
        Block::List { .. } | Block::Quote { .. } => true,
        // A container or a note holds its blocks at its own level.
        Block::Div { .. } | Block::FootnoteDef { .. } => false,
        Block::Heading { .. }
        | Block::Paragraph { .. }
        | Block::Code { .. }
        | Block::Table { .. }
        | Block::Rule
        | Block::Raw { .. } => false,
    }
}

fn depth(blocks: &[Block]) -> usize {
    blocks
        .iter()
        .map(|b| {
            let inner = b.child_blocks().into_iter().map(depth).max().unwrap_or(0);
            usize::from(nests(b)) + inner
        })
        .max()
        .unwrap_or(0)
}

fn flatten(blocks: Vec<Block>, level: usize) -> Vec<Block> {
    let mut out = Vec::new();
    for mut block in blocks {
        let nests = nests(&block);
        if nests && level >= MAX_DEPTH {
            // At the limit a container's content joins its parent.
            for run in block.child_blocks_mut() {
                out.extend(flatten(std::mem::take(run), level));
            }
            continue;
        }
        let inner = if nests { level + 1 } else { level };
        for run in block.child_blocks_mut() {
            *run = flatten(std::mem::take(run), inner);
        }
        out.push(block);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_doc::{Inline, ListItem, for_each_block, inlines_text};

    fn nested(levels: usize) -> Vec<Block> {
        let mut blocks = vec![Block::Paragraph {
            content: vec![Inline::text("bottom")],
        }];
        for i in 0..levels {
            blocks = vec![Block::List {
                start: None,
                tight: true,
                items: vec![ListItem {
                    checked: None,
                    blocks: std::iter::once(Block::Paragraph {
                        content: vec![Inline::text(format!("level {i}"))],
                    })
                    .chain(blocks)
                    .collect(),
                }],
            }];
        }
        blocks
    }

    fn texts(blocks: &[Block]) -> Vec<String> {
        let mut out = Vec::new();
        for_each_block(blocks, &mut |b| {
            if let Block::Paragraph { content } = b {
                out.push(inlines_text(content));
            }
        });
        out
    }

    #[test]
    fn shallow_chapters_are_left_alone() {
        let chapter = Chapter {
            blocks: nested(MAX_DEPTH),
            ..Chapter::default()
        };
        assert!(flatten_chapter(&chapter).is_none());
        assert!(matches!(bounded(&chapter.blocks), Cow::Borrowed(_)));
    }

    #[test]
    fn deep_chapters_keep_every_word_at_bounded_depth() {
        let chapter = Chapter {
            blocks: nested(200),
            source: Some("p.md".into()),
            ..Chapter::default()
        };
        let (flat, warning) = flatten_chapter(&chapter).unwrap();
        assert_eq!(depth(&flat.blocks), MAX_DEPTH);
        assert_eq!(texts(&chapter.blocks), texts(&flat.blocks));
        assert_eq!(warning.file.as_deref(), Some("p.md"));
        assert_eq!(bounded(&chapter.blocks).as_ref(), flat.blocks.as_slice());
    }
}
