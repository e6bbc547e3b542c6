//! How deep a tree may be. Every renderer walks the tree recursively, so a
//! tree deep enough exhausts a thread's stack and aborts the whole build.
//! Markdown is held to its own nesting limit when parsed (stoa-markdown);
//! a plugin can nest further, so the driver checks each book after its
//! plugins with [`check_depth`], which itself never recurses.

use crate::{Block, Book, Diagnostic, Inline};

/// The deepest tree a renderer is given, in levels of blocks and inlines
/// (a list is two: the list and its item's blocks). Above what Markdown
/// may produce, well below what a 2 MiB thread stack holds.
pub const MAX_TREE_DEPTH: usize = 520;

/// Levels of nested blocks and inlines in `blocks` (0 when empty), with an
/// explicit stack, so that measuring a deep tree cannot overflow.
pub fn tree_depth(blocks: &[Block]) -> usize {
    enum Node<'a> {
        Block(&'a Block),
        Inline(&'a Inline),
    }
    let mut deepest = 0;
    let mut stack: Vec<(Node, usize)> = blocks.iter().map(|b| (Node::Block(b), 1)).collect();
    while let Some((node, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        match node {
            Node::Block(block) => {
                for child in block.child_blocks().into_iter().flatten() {
                    stack.push((Node::Block(child), depth + 1));
                }
                for inline in block.inline_runs().into_iter().flatten() {
                    stack.push((Node::Inline(inline), depth + 1));
                }
            }
            Node::Inline(inline) => {
                for child in inline.children() {
                    stack.push((Node::Inline(child), depth + 1));
                }
            }
        }
    }
    deepest
}

/// An error for each chapter of `book` deeper than [`MAX_TREE_DEPTH`], at
/// its source file.
pub fn check_depth(book: &Book) -> Result<(), Vec<Diagnostic>> {
    let errors: Vec<Diagnostic> = book
        .chapters
        .iter()
        .filter_map(|chapter| {
            let depth = tree_depth(&chapter.blocks);
            (depth > MAX_TREE_DEPTH).then(|| {
                let error = Diagnostic::error(format!(
                    "the chapter `{}` is nested {depth} levels deep after the plugins ran, \
                     more than the {MAX_TREE_DEPTH} a book can hold",
                    chapter.slug
                ))
                .with_hint(
                    "a plugin nests its containers without end: run the build without it \
                     to find which, and report it to its author",
                );
                match &chapter.source {
                    Some(source) => error.in_file(source),
                    None => error,
                }
            })
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Chapter;

    fn quotes(levels: usize) -> Vec<Block> {
        let mut blocks = vec![Block::Paragraph {
            content: vec![Inline::text("deep")],
        }];
        for _ in 0..levels {
            blocks = vec![Block::Quote { blocks }];
        }
        blocks
    }

    #[test]
    fn depth_counts_blocks_and_inlines() {
        assert_eq!(tree_depth(&[]), 0);
        assert_eq!(tree_depth(&quotes(0)), 2);
        assert_eq!(tree_depth(&quotes(3)), 5);
    }

    #[test]
    fn a_chapter_too_deep_is_an_error_at_its_source() {
        let mut book = crate::tests::empty_book();
        book.chapters.push(Chapter {
            slug: "deep".into(),
            source: Some("posts/deep/en.md".into()),
            blocks: quotes(MAX_TREE_DEPTH),
            ..Chapter::default()
        });
        let errors = check_depth(&book).unwrap_err();
        assert_eq!(errors[0].file.as_deref(), Some("posts/deep/en.md"));
        assert!(
            errors[0].message.contains("522 levels deep"),
            "{}",
            errors[0]
        );
        book.chapters[0].blocks = quotes(MAX_TREE_DEPTH - 2);
        assert!(check_depth(&book).is_ok());
        // Dropping a deep tree recurses too: take it apart level by level.
        let mut blocks = std::mem::take(&mut book.chapters[0].blocks);
        while let Some(Block::Quote { blocks: inner }) = blocks.pop() {
            blocks = inner;
        }
    }
}
