//! The plugin on the real posts of books/posts: exactly the turns the corpus
//! has in each language, and none anywhere else.

use serde_json::json;
use std::path::{Path, PathBuf};
use stoa_plugin_dialogue::Dialogue;
use stoa_sdk::{Block, Chapter, Context, Role, Transform, for_each_block};

/// Turns per dialogue, the same in both languages.
const DIALOGUES: [(&str, usize); 4] = [
    ("dialogue-on-masters", 41),
    ("dialogue-on-the-new-tool", 74),
    ("dialogue-on-labels-and-truth", 29),
    ("dialogue-on-those-who-teach", 29),
];

fn posts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../books/posts")
}

/// A post as stoa reads it: the body after the `+++` front matter, parsed.
fn chapter(slug: &str, lang: &str) -> Option<Chapter> {
    let path = posts_dir().join(slug).join(format!("{lang}.md"));
    let text = std::fs::read_to_string(&path).ok()?;
    let (body, first_line) = match text.strip_prefix("+++\n") {
        Some(rest) => {
            let end = rest.find("\n+++\n").expect("closed front matter");
            let front_lines = rest[..end].lines().count() + 2;
            (&rest[end + 5..], front_lines + 1)
        }
        None => (text.as_str(), 1),
    };
    Some(Chapter {
        slug: slug.into(),
        title: slug.into(),
        source: Some(path.display().to_string()),
        blocks: stoa_markdown::parse(body, first_line).blocks,
        ..Chapter::default()
    })
}

/// Divs anywhere in the tree for which `wanted` holds, given role and class.
fn count_divs(blocks: &[Block], wanted: impl Fn(Option<&Role>, &str) -> bool) -> usize {
    let mut n = 0;
    for_each_block(blocks, &mut |block| {
        if let Block::Div { role, class, .. } = block
            && wanted(role.as_ref(), class)
        {
            n += 1;
        }
    });
    n
}

/// Turn divs anywhere in the tree: role and class agree.
fn count_turns(blocks: &[Block]) -> usize {
    let by_role = count_divs(blocks, |role, _| role == Some(&Role::Turn));
    let by_class = count_divs(blocks, |_, class| class == "turn");
    assert_eq!(by_role, by_class, "every turn says so by its role");
    by_role
}

fn count_class(blocks: &[Block], wanted: &str) -> usize {
    count_divs(blocks, |_, class| class == wanted)
}

fn slugs() -> Vec<String> {
    let mut slugs: Vec<String> = std::fs::read_dir(posts_dir())
        .expect("books/posts")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    slugs.sort();
    slugs
}

fn check(config: serde_json::Value) {
    for lang in ["en", "pt-BR"] {
        let mut total = 0;
        let mut seen = 0;
        for slug in slugs() {
            let Some(mut chapter) = chapter(&slug, lang) else {
                continue;
            };
            seen += 1;
            let ctx = Context::new(config.clone(), lang, "collection").for_chapter(&slug);
            Dialogue.transform(&mut chapter, &ctx).expect("transform");
            assert!(ctx.diagnostics().is_empty(), "{slug} {lang}");
            let turns = count_turns(&chapter.blocks);
            let expected = DIALOGUES
                .iter()
                .find(|(s, _)| *s == slug)
                .map_or(0, |(_, n)| *n);
            assert_eq!(turns, expected, "turns in {slug} ({lang})");
            if expected > 0 {
                assert_eq!(count_class(&chapter.blocks, "dialogue"), 1, "{slug} {lang}");
                assert_eq!(
                    count_class(&chapter.blocks, "dialogue-ending"),
                    1,
                    "{slug} {lang}"
                );
            } else {
                assert_eq!(
                    count_class(&chapter.blocks, "dialogue-ending"),
                    0,
                    "{slug} {lang}"
                );
            }
            total += turns;
        }
        assert!(seen >= 14, "read the posts in {lang}: {seen}");
        assert_eq!(total, 173, "turns in all the {lang} posts");
    }
}

#[test]
fn detected_speakers_give_exactly_the_corpus_turns() {
    check(json!({}));
}

#[test]
fn configured_speakers_give_the_same_turns() {
    check(json!({
        "speakers": ["SÓCRATES", "GLAUCO", "SOCRATES", "GLAUCON"],
        "names": "title-case",
        "characters": true,
    }));
}
