//! Typst's parser stops at a fixed nesting depth, and a list nested two
//! hundred levels deep cannot be printed legibly anyway. Beyond
//! [`MAX_DEPTH`] levels of lists and quotes, the PDF sets the content at
//! the deepest level allowed (nothing is dropped) and says so in a warning.

use stoa_doc::{Block, Chapter, Diagnostic, ListItem};

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

fn depth(blocks: &[Block]) -> usize {
    blocks
        .iter()
        .map(|b| match b {
            Block::List { items, .. } => {
                1 + items.iter().map(|i| depth(&i.blocks)).max().unwrap_or(0)
            }
            Block::Quote { blocks } => 1 + depth(blocks),
            Block::Div { blocks, .. } | Block::FootnoteDef { blocks, .. } => depth(blocks),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn flatten(blocks: Vec<Block>, level: usize) -> Vec<Block> {
    let mut out = Vec::new();
    for block in blocks {
        match block {
            // At the limit a container's content joins its parent.
            Block::List { items, .. } if level >= MAX_DEPTH => {
                for item in items {
                    out.extend(flatten(item.blocks, level));
                }
            }
            Block::Quote { blocks } if level >= MAX_DEPTH => out.extend(flatten(blocks, level)),
            Block::List {
                start,
                tight,
                items,
            } => {
                let items = items
                    .into_iter()
                    .map(|item| ListItem {
                        checked: item.checked,
                        blocks: flatten(item.blocks, level + 1),
                    })
                    .collect();
                out.push(Block::List {
                    start,
                    tight,
                    items,
                });
            }
            Block::Quote { blocks } => out.push(Block::Quote {
                blocks: flatten(blocks, level + 1),
            }),
            Block::Div {
                class,
                attrs,
                blocks,
            } => out.push(Block::Div {
                class,
                attrs,
                blocks: flatten(blocks, level),
            }),
            Block::FootnoteDef { label, blocks } => out.push(Block::FootnoteDef {
                label,
                blocks: flatten(blocks, level),
            }),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_doc::{Inline, inlines_text};

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

    fn texts(blocks: &[Block], out: &mut Vec<String>) {
        for b in blocks {
            match b {
                Block::Paragraph { content } => out.push(inlines_text(content)),
                Block::List { items, .. } => items.iter().for_each(|i| texts(&i.blocks, out)),
                Block::Quote { blocks } => texts(blocks, out),
                _ => {}
            }
        }
    }

    #[test]
    fn shallow_chapters_are_left_alone() {
        let chapter = Chapter {
            blocks: nested(MAX_DEPTH),
            ..Chapter::default()
        };
        assert!(flatten_chapter(&chapter).is_none());
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
        let (mut before, mut after) = (Vec::new(), Vec::new());
        texts(&chapter.blocks, &mut before);
        texts(&flat.blocks, &mut after);
        assert_eq!(before, after);
        assert_eq!(warning.file.as_deref(), Some("p.md"));
    }
}
