//! Small helpers for what plugins do most: make containers and rewrite text.

use crate::{Attrs, Block, Inline, Role, walk_blocks_mut};

/// An inline container of class `class`, with no role and no attributes.
pub fn span(class: impl Into<String>, content: Vec<Inline>) -> Inline {
    Inline::Span {
        role: None,
        class: class.into(),
        attrs: Attrs::new(),
        content,
    }
}

/// An inline container that means `role` (what every format renders it
/// as), of class `class` (for the plugin's own styles), with no attributes.
pub fn span_with_role(role: Role, class: impl Into<String>, content: Vec<Inline>) -> Inline {
    Inline::Span {
        role: Some(role),
        class: class.into(),
        attrs: Attrs::new(),
        content,
    }
}

/// A block container of class `class`, with no role and no attributes.
pub fn div(class: impl Into<String>, blocks: Vec<Block>) -> Block {
    Block::Div {
        role: None,
        class: class.into(),
        attrs: Attrs::new(),
        blocks,
    }
}

/// A block container that means `role`, of class `class`, with no attributes.
pub fn div_with_role(role: Role, class: impl Into<String>, blocks: Vec<Block>) -> Block {
    Block::Div {
        role: Some(role),
        class: class.into(),
        attrs: Attrs::new(),
        blocks,
    }
}

/// Rewrites plain text: `f` gets every text inline (in paragraphs, headings
/// and table cells, also inside emphasis, links and spans; never code) and
/// returns what replaces it, or `None` to keep it. What `f` returns is not
/// visited again, so wrapping a word in a span cannot loop.
pub fn rewrite_text(blocks: &mut [Block], f: &mut dyn FnMut(&str) -> Option<Vec<Inline>>) {
    walk_blocks_mut(blocks, &mut |block| {
        for run in block.inline_runs_mut() {
            rewrite(run, f);
        }
    });
}

/// Children first, then this level: the replacements of this level are
/// never seen again.
fn rewrite(inlines: &mut Vec<Inline>, f: &mut dyn FnMut(&str) -> Option<Vec<Inline>>) {
    for inline in inlines.iter_mut() {
        if let Some(content) = inline.children_mut() {
            rewrite(content, f);
        }
    }
    if !inlines.iter().any(|i| matches!(i, Inline::Text { .. })) {
        return;
    }
    *inlines = std::mem::take(inlines)
        .into_iter()
        .flat_map(|inline| match inline {
            Inline::Text { text } => f(&text).unwrap_or_else(|| vec![Inline::Text { text }]),
            other => vec![other],
        })
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewritten_text_is_not_visited_again() {
        let mut blocks = vec![Block::Paragraph {
            content: vec![
                Inline::text("a stoa"),
                Inline::Emph {
                    content: vec![Inline::text("stoa")],
                },
                Inline::Code {
                    text: "stoa".into(),
                },
            ],
        }];
        let mut calls = 0;
        rewrite_text(&mut blocks, &mut |text| {
            calls += 1;
            Some(vec![span("w", vec![Inline::text(text)])])
        });
        assert_eq!(calls, 2, "each text once; code untouched");
        let Block::Paragraph { content } = &blocks[0] else {
            unreachable!()
        };
        assert_eq!(content[0], span("w", vec![Inline::text("a stoa")]));
        let Inline::Emph { content: inner } = &content[1] else {
            unreachable!()
        };
        assert_eq!(inner[0], span("w", vec![Inline::text("stoa")]));
    }
}
