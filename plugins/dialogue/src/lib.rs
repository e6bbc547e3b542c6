//! The dialogue plugin: typesets Socratic dialogues as dialogue.
//!
//! A *turn* is a top-level paragraph that begins with a speaker's name and a
//! colon (`SÓCRATES: ...`). Consecutive turns become a `dialogue` div (role
//! [`Role::Dialogue`]); each turn a `turn` div ([`Role::Turn`], attribute
//! `speaker`) whose paragraph opens with a `speaker` span ([`Role::Speaker`])
//! holding the name, followed by the colon and a no-break space (so screen
//! readers and pdftotext read "name: speech"). The roles say what these
//! are to every renderer; the classes carry this plugin's look. A paragraph
//! that begins with `..` right after a dialogue becomes its
//! `dialogue-ending`. With `characters = true` each dialogue opens with a
//! `dialogue-characters` div listing its speakers.
//!
//! Settings, `[plugins.dialogue]` in book.toml or in a post's front matter
//! (which wins, key by key):
//! - `speakers = ["SÓCRATES", "GLAUCO"]`: the only names that make turns
//!   (compared without regard to case). Without it, a name makes turns only
//!   when it is written in capitals, begins at least two paragraphs, and the
//!   post has at least two such speakers taking turns. `speakers = []` turns
//!   the plugin off for a post.
//! - `names = "as-written"` (default) or `"title-case"` (`SÓCRATES` →
//!   `Sócrates`, set in small capitals).
//! - `characters = true`: the list of speakers ("Personagens", "Characters").
#![forbid(unsafe_code)]

mod config;

pub use config::{Names, Settings};

use std::collections::BTreeMap;
use stoa_sdk::{
    Attrs, Block, Chapter, Configure, Context, Format, Inline, Plugin, PluginError, Role, Styles,
    Transform, div_with_role, span,
};

const NBSP: char = '\u{a0}';

/// The style sheet, for EPUB and the web edition.
pub const CSS: &str = include_str!("dialogue.css");
/// The Typst styles: shadow the theme's `div` and `span` for our classes.
pub const TYPST: &str = include_str!("dialogue.typ");

/// The plugin.
#[derive(Default)]
pub struct Dialogue;

impl Plugin for Dialogue {
    const NAME: &'static str = "dialogue";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
}

impl Configure for Dialogue {
    /// The book's settings are checked here, once per edition; a post's
    /// own (in its front matter) where that post is transformed.
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        Settings::default().apply(ctx.config(), "book.toml")
    }
}

impl Transform for Dialogue {
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        let mut settings = Settings::default();
        settings.apply(ctx.config(), "book.toml")?;
        if let Some(table) = chapter.plugin_data.get(Self::NAME) {
            let place = match &chapter.source {
                Some(source) => format!("the front matter of {source}"),
                None => format!("the front matter of `{}`", chapter.slug),
            };
            settings.apply(table, &place)?;
        }
        let blocks = std::mem::take(&mut chapter.blocks);
        // The edition's word, from stoa's table or the book's labels; the
        // plugin's own only from a host that sends none.
        let heading = match ctx.labels().characters.trim() {
            "" => characters_heading(ctx.lang()),
            word => word,
        };
        chapter.blocks = typeset(blocks, &settings, heading);
        Ok(())
    }
}

impl Styles for Dialogue {
    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub | Format::Html => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

// Exported as a library by the `cdylib/` crate beside this one; stoa links
// this crate in as a built-in (a second `stoa_plugin_v1` in stoa would clash).

/// Finds the dialogues among top-level `blocks` and sets them as dialogue;
/// `heading` heads the list of speakers ("Characters").
pub fn typeset(blocks: Vec<Block>, settings: &Settings, heading: &str) -> Vec<Block> {
    let labels: Vec<Option<String>> = blocks.iter().map(label_name).collect();
    let speakers = speakers(&labels, settings);
    let is_turn = |i: usize| matches!(&labels[i], Some(name) if speakers.iter().any(|s| s == name));

    let mut out = Vec::with_capacity(blocks.len());
    let mut dialogue: Vec<Block> = Vec::new();
    let mut cast: Vec<String> = Vec::new();
    for (i, block) in blocks.into_iter().enumerate() {
        if is_turn(i) {
            let Block::Paragraph { content } = block else {
                unreachable!("only paragraphs have labels")
            };
            let (turn, display) = turn(content, settings.names);
            if !cast.contains(&display) {
                cast.push(display);
            }
            dialogue.push(turn);
            continue;
        }
        let closing = !dialogue.is_empty();
        if closing {
            out.push(close(&mut dialogue, &mut cast, settings, heading));
        }
        if closing && is_ending(&block) {
            let mut ending = vec![block];
            ending.extend(ornament());
            out.push(stoa_sdk::div("dialogue-ending", ending));
        } else {
            out.push(block);
        }
    }
    if !dialogue.is_empty() {
        out.push(close(&mut dialogue, &mut cast, settings, heading));
    }
    out
}

/// The `dialogue` div of the turns gathered so far.
fn close(
    turns: &mut Vec<Block>,
    cast: &mut Vec<String>,
    settings: &Settings,
    heading: &str,
) -> Block {
    let mut blocks = Vec::with_capacity(turns.len() + 1);
    let cast = std::mem::take(cast);
    if settings.characters {
        blocks.push(characters(&cast, heading));
    }
    blocks.append(turns);
    div_with_role(Role::Dialogue, "dialogue", blocks)
}

/// The list of speakers at the head of a dialogue.
fn characters(cast: &[String], heading: &str) -> Block {
    let mut names = Vec::new();
    for (i, name) in cast.iter().enumerate() {
        if i > 0 {
            names.push(Inline::text(", "));
        }
        names.push(speaker_span(name));
    }
    stoa_sdk::div(
        "dialogue-characters",
        vec![
            Block::Paragraph {
                content: vec![span("characters-heading", vec![Inline::text(heading)])],
            },
            Block::Paragraph { content: names },
        ],
    )
}

/// "Characters" in the edition's language, for a host that sends no
/// labels (stoa's locale table is the one source otherwise).
pub fn characters_heading(lang: &str) -> &'static str {
    let primary = lang.split(['-', '_']).next().unwrap_or("");
    match primary.to_ascii_lowercase().as_str() {
        "pt" => "Personagens",
        "es" => "Personajes",
        "fr" => "Personnages",
        "it" => "Personaggi",
        "de" => "Personen",
        _ => "Characters",
    }
}

/// The speakers of a post: the configured ones present, or those detected.
fn speakers(labels: &[Option<String>], settings: &Settings) -> Vec<String> {
    let names = labels.iter().flatten();
    if let Some(configured) = &settings.speakers {
        let wanted: Vec<String> = configured.iter().map(|s| s.to_lowercase()).collect();
        let mut found: Vec<String> = names
            .filter(|n| wanted.contains(&n.to_lowercase()))
            .cloned()
            .collect();
        found.dedup();
        return found;
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for name in names.clone().filter(|n| in_capitals(n)) {
        *counts.entry(name).or_default() += 1;
    }
    counts.retain(|_, n| *n >= 2);
    // The turns of these speakers in order, each run of one speaker counted
    // once: two speakers taking turns make at least three runs (A B A).
    let mut runs: Vec<&str> = Vec::new();
    for name in names.filter(|n| counts.contains_key(n.as_str())) {
        if runs.last() != Some(&name.as_str()) {
            runs.push(name);
        }
    }
    if counts.len() < 2 || runs.len() < 3 {
        return Vec::new();
    }
    counts.into_keys().map(str::to_string).collect()
}

/// Written in capitals: at least two letters, none of them lowercase.
fn in_capitals(name: &str) -> bool {
    let letters = name.chars().filter(|c| c.is_alphabetic());
    letters.clone().count() >= 2 && letters.clone().all(|c| !c.is_lowercase())
}

/// The name a paragraph opens with, before a colon, if it looks like one.
fn label_name(block: &Block) -> Option<String> {
    let Block::Paragraph { content } = block else {
        return None;
    };
    split_label(content).map(|label| label.name)
}

/// A paragraph's label: the name (trimmed), how many inlines it takes, and
/// the text after its colon in the last of them.
struct Label {
    name: String,
    skip: usize,
    after: String,
}

/// The label of a paragraph: `NAME: text`, `**NAME:** text` or
/// `**NAME**: text` (also with emphasis).
fn split_label(content: &[Inline]) -> Option<Label> {
    let label = |name: &str, skip: usize, after: &str| {
        follows_label(after, content.get(skip)).then_some(())?;
        Some(Label {
            name: valid_name(name)?,
            skip,
            after: after.to_string(),
        })
    };
    match content.first()? {
        Inline::Text { text } => {
            let (name, rest) = text.split_once(':')?;
            label(name, 1, rest)
        }
        Inline::Strong { content: inner } | Inline::Emph { content: inner } => {
            let [Inline::Text { text }] = inner.as_slice() else {
                return None;
            };
            match text.strip_suffix(':') {
                Some(name) => match content.get(1) {
                    Some(Inline::Text { text: next }) => label(name, 2, next),
                    _ => label(name, 1, ""),
                },
                None => match content.get(1) {
                    Some(Inline::Text { text: next }) => label(text, 2, next.strip_prefix(':')?),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

/// After a label's colon comes a space, or the end of the text inline and
/// then a break or more inlines; never `12:00` or `http://`.
fn follows_label(rest: &str, next: Option<&Inline>) -> bool {
    match rest.chars().next() {
        Some(c) => c.is_whitespace(),
        None => next.is_some(),
    }
}

/// A name: one to four words of letters (and `.`, `-`, `'`, `’` inside), at
/// most 40 characters; `None` for anything else.
fn valid_name(name: &str) -> Option<String> {
    let name = name.trim_end_matches(|c: char| c.is_whitespace());
    let ok = !name.is_empty()
        && name.chars().count() <= 40
        && name.split_whitespace().count() <= 4
        && name.chars().next().is_some_and(char::is_alphabetic)
        && name.chars().all(|c| {
            c.is_alphabetic()
                || c == ' '
                || matches!(c, '.' | '-' | '\'' | '’')
                || ('\u{300}'..='\u{36f}').contains(&c)
        });
    ok.then(|| name.to_string())
}

/// A turn: the paragraph with its label replaced by a `speaker` span, in a
/// `turn` div. Returns the div and the name as shown.
fn turn(mut content: Vec<Inline>, names: Names) -> (Block, String) {
    let Label { name, skip, after } = split_label(&content).expect("a turn has a label");
    let display = match names {
        Names::AsWritten => name.clone(),
        Names::TitleCase => title_case(&name),
    };
    let mut rest: Vec<Inline> = content.split_off(skip);
    let after = after.trim_start();
    if after.is_empty() && matches!(rest.first(), Some(Inline::SoftBreak | Inline::LineBreak)) {
        rest.remove(0);
    }
    let mut paragraph = vec![
        speaker_span(&display),
        Inline::text(format!(":{NBSP}{after}")),
    ];
    paragraph.append(&mut rest);
    let mut attrs = Attrs::new();
    attrs.insert("speaker".into(), name);
    let div = Block::Div {
        role: Some(Role::Turn),
        class: "turn".into(),
        attrs,
        blocks: vec![Block::Paragraph { content: paragraph }],
    };
    (div, display)
}

/// The `speaker` span of a name ([`Role::Speaker`]), in a turn and in the
/// list of characters alike. A name in capitals gets `case = "upper"`, so
/// that the styles set it in small capitals of capital height rather than
/// in full capitals (the letters stay as written).
fn speaker_span(name: &str) -> Inline {
    let mut attrs = Attrs::new();
    if in_capitals(name) {
        attrs.insert("case".into(), "upper".into());
    }
    Inline::Span {
        role: Some(Role::Speaker),
        class: "speaker".into(),
        attrs,
        content: vec![Inline::text(name)],
    }
}

/// `SÓCRATES` → `Sócrates`, `ÉDIPO REI` → `Édipo Rei`, `JEAN-LUC` →
/// `Jean-Luc`: each word's first letter kept, the others in lowercase.
pub fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut word_start = true;
    for c in name.chars() {
        if c.is_alphabetic() {
            if word_start {
                out.push(c);
            } else {
                out.extend(c.to_lowercase());
            }
            word_start = false;
        } else {
            out.push(c);
            // Marks continue their letter; spaces, hyphens and dots start a word.
            if !('\u{300}'..='\u{36f}').contains(&c) {
                word_start = matches!(c, ' ' | '-' | '.' | NBSP);
            }
        }
    }
    out
}

/// The ornament under a dialogue's closing line, as raw output for each
/// format: what the theme's styles cannot draw. In EPUB and on the web an
/// asterism that screen readers skip (it is decoration, not text); in
/// print three small lozenges drawn by Typst, so that no font needs the
/// glyph. No post text goes into it.
pub fn ornament() -> [Block; 3] {
    const MARKUP: &str = r#"<p class="dialogue-ornament" aria-hidden="true">⁂</p>"#;
    const TYPST: &str = "#align(center, block(above: 1em, stack(dir: ltr, spacing: 0.6em,         ..range(3).map(_ => rotate(45deg, square(size: 0.3em, fill: luma(35%)))))))";
    [
        Block::raw("epub", MARKUP),
        Block::raw("html", MARKUP),
        Block::raw("pdf", TYPST),
    ]
}

/// A paragraph the author begins with `..`: the closing line of a dialogue.
fn is_ending(block: &Block) -> bool {
    let Block::Paragraph { content } = block else {
        return false;
    };
    let mut first = content.first();
    while let Some(Inline::Emph { content } | Inline::Strong { content }) = first {
        first = content.first();
    }
    matches!(first, Some(Inline::Text { text }) if text.starts_with(".."))
}

#[cfg(test)]
mod tests;
