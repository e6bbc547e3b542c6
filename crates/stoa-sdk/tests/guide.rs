//! The examples of docs/plugins.md that are not the example plugin itself,
//! compiled and run: the visitor, and hooks declared by the traits a plugin
//! implements (what a built-in made of it offers, and nothing more).

use serde_json::json;
use stoa_sdk::{
    Block, Chapter, Context, Inline, Plugin, PluginError, Transform, Visitor, Walk, visit,
};

/// Counts the words of a chapter's text, not of its code.
struct Words(usize);

impl Visitor for Words {
    fn block(&mut self, block: &Block) -> Walk {
        match block {
            Block::Code { .. } => Walk::Skip,
            _ => Walk::Continue,
        }
    }
    fn inline(&mut self, inline: &Inline) -> Walk {
        if let Inline::Text { text } = inline {
            self.0 += text.split_whitespace().count();
        }
        Walk::Continue
    }
}

#[derive(Default)]
struct ReadingTime;

impl Plugin for ReadingTime {
    const NAME: &'static str = "reading-time";
    const VERSION: &'static str = "1.0.0";
}

impl Transform for ReadingTime {
    fn transform(&self, chapter: &mut Chapter, _ctx: &Context) -> Result<(), PluginError> {
        let mut words = Words(0);
        visit(&chapter.blocks, &mut words);
        let minutes = words.0.div_ceil(200);
        chapter
            .summary
            .get_or_insert_with(|| format!("{minutes} min"));
        Ok(())
    }
}

#[test]
fn the_guides_visitor_counts_words_outside_code() {
    let mut chapter = Chapter {
        blocks: vec![
            Block::Paragraph {
                content: vec![Inline::text("one two "), Inline::text("three")],
            },
            Block::Code {
                lang: None,
                text: "not words at all".into(),
            },
        ],
        ..Chapter::default()
    };
    let mut words = Words(0);
    visit(&chapter.blocks, &mut words);
    assert_eq!(words.0, 3);
    ReadingTime
        .transform(&mut chapter, &Context::new(json!({}), "en", "b"))
        .unwrap();
    assert_eq!(chapter.summary.as_deref(), Some("1 min"));
}

#[test]
fn only_the_hooks_a_plugin_implements_are_offered() {
    let builtin = stoa_sdk::builtin_plugin!(ReadingTime);
    assert_eq!(builtin.hooks().names(), ["transform"]);
    assert!(!builtin.hooks().finish, "finish is never called for it");
}
