//! The glossary plugin: a post's glossary becomes a semantic glossary, the
//! first use of each term in the text leads to its definition, and the book
//! gets an appendix merging the glossaries of every post.
//!
//! A post's *glossary* is a heading whose text is the glossary heading of the
//! post's language ("Glossary", "Glossário") followed by a list whose every
//! item reads `term: definition`. A list of that shape anywhere else is left
//! alone. The list is replaced by a div of role [`Role::Glossary`] (class
//! `glossary-list`) holding, per term, a [`Role::Term`] div (class
//! `glossary-term`, id `gloss-<post>-<term>`) and a [`Role::Definition`]
//! div (class `glossary-def`, id `gloss-<post>-<term>-def`); the heading
//! stays. The roles say what these are, so every renderer sets a glossary
//! (`<dl>` with its EPUB semantics and ARIA roles, in EPUB and on the web);
//! the classes carry this plugin's own look, in its CSS and Typst styles.
//!
//! The first use of each term in the post's text (not in headings, code,
//! links, notes or the glossary itself) is found as whole words, without
//! regard to case, tolerating plural endings (and Portuguese feminine and
//! plural forms), and accents as [`words::Accents`] says. It becomes:
//! - `first-use = "link"` (default): a [`Role::GlossaryRef`] span (class
//!   `glossary-ref`, id `gloss-use-<post>-<term>`) around a link to the
//!   term's definition in the appendix (or in the post when `appendix =
//!   false`); in EPUB a pop-up where the reading system supports it, in PDF
//!   an internal link;
//! - `first-use = "footnote"`: a `glossary-use` span followed by a footnote
//!   (`FootnoteRef`/`FootnoteDef`, label `glossary-<term>`) giving the
//!   definition;
//! - `first-use = "none"`: nothing.
//!
//! `finish` adds the appendix (slug `glossary`, kind appendix, role
//! [`Role::Glossary`], a landmark; after the last post): every term of every
//! post, sorted by [`words::collate`], each with its definition and links
//! back to where it is used, with the print page of that use: each link
//! is a page reference ([`stoa_sdk::PAGE_REF_ROLE`]); the PDF prints the
//! page it lays the use on, the EPUB and the web edition the same page,
//! from the PDF's page map.
//!
//! Settings in `[plugins.glossary]`:
//! - `headings = { en = "Glossary", pt-BR = "Glossário" }`: the heading that
//!   opens a post's glossary, per language (a language falls back to its
//!   primary subtag, `pt` for `pt-BR`); default: the edition's word, from
//!   stoa's locale table or the book's `[labels.<lang>] glossary`;
//! - `title = { en = "Glossary", pt-BR = "Glossário" }`: the appendix title
//!   (default: the heading);
//! - `first-use = "link" | "footnote" | "none"`;
//! - `inflection = true`: tolerate inflected forms;
//! - `accents = "term" | "ignore"`: see [`words::Accents`];
//! - `appendix = true`: add the appendix;
//! - `post-glossary = true | false`: keep the post's own glossary (its
//!   heading and list) where the author wrote it. Default: dropped when
//!   first uses become notes that define the terms (`first-use =
//!   "footnote"`), since the note already says what the list would, kept
//!   otherwise. Dropping it needs the definitions said somewhere else: the
//!   appendix or the notes.
//!
//! Warnings: a term never used in its post's text; a term defined twice in
//! one glossary; one term with two different definitions (naming both posts;
//! the appendix keeps the first).
#![forbid(unsafe_code)]

pub mod words;

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use stoa_sdk::{
    Attrs, Block, Book, Chapter, ChapterKind, Configure, Context, Finish, Format, Inline, Labels,
    Plugin, PluginDiagnostic, PluginError, Role, Styles, Transform, inlines_text,
};
use words::{Accents, Matching};

/// The style sheet, for EPUB and the web edition.
pub const CSS: &str = include_str!("glossary.css");
/// The Typst styles: shadow the theme's `div` and `span` for our classes.
pub const TYPST: &str = include_str!("glossary.typ");

/// Where `transform` leaves a post's terms for `finish` (removed there).
const STASH: &str = "glossary/terms";

/// What the first use of a term becomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstUse {
    /// A link to the definition.
    #[default]
    Link,
    /// A footnote with the definition.
    Footnote,
    /// Left as it is.
    None,
}

/// The plugin's settings, `[plugins.glossary]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Settings {
    /// The heading of a post's glossary, per language, as the book gives
    /// them; [`Settings::for_edition`] adds the edition's word.
    pub headings: BTreeMap<String, String>,
    /// The appendix title, per language; the heading when absent.
    pub title: BTreeMap<String, String>,
    /// What the first use of a term becomes.
    pub first_use: FirstUse,
    /// Tolerate inflected forms of a term.
    pub inflection: bool,
    /// How accents are compared.
    pub accents: Accents,
    /// Add the glossary appendix.
    pub appendix: bool,
    /// Keep the post's own glossary list; `None`: see [`Settings::keeps_post_list`].
    pub post_glossary: Option<bool>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            headings: BTreeMap::new(),
            title: BTreeMap::new(),
            first_use: FirstUse::Link,
            inflection: true,
            accents: Accents::Term,
            appendix: true,
            post_glossary: None,
        }
    }
}

impl Settings {
    /// Reads the settings as the book gives them.
    pub fn from_config(config: &serde_json::Value) -> Result<Self, PluginError> {
        let settings: Settings = serde_json::from_value(config.clone()).map_err(|e| {
            PluginError::new(format!("[plugins.glossary] in book.toml: {e}")).with_hint(
                "keys: headings, title, first-use (link, footnote, none), inflection, accents (term, ignore), appendix, post-glossary",
            )
        })?;
        if !settings.keeps_post_list()
            && !settings.appendix
            && settings.first_use != FirstUse::Footnote
        {
            return Err(PluginError::new(
                "[plugins.glossary] in book.toml: `post-glossary = false` with `appendix = false` and no notes leaves the terms defined nowhere",
            )
            .with_hint("keep the appendix, set first-use = \"footnote\", or remove `post-glossary = false`"));
        }
        Ok(settings)
    }

    /// The settings for the edition of `ctx`: a language the book's
    /// `headings` leave out gets the edition's word for "Glossary" (stoa's
    /// locale table, or the book's `[labels.<lang>]`), so that `## Glosario`
    /// opens a Spanish glossary with no setting. A host that sends no
    /// labels gets the locale table's word all the same: the SDK carries
    /// the table, so the plugin keeps no list of its own.
    pub fn for_edition(ctx: &Context) -> Result<Self, PluginError> {
        let mut settings = Settings::from_config(ctx.config())?;
        let lang = ctx.lang();
        let word = match ctx.labels().glossary.trim() {
            "" => Labels::for_language(lang).glossary,
            word => word.to_string(),
        };
        let given = ctx
            .config()
            .get("headings")
            .and_then(|h| serde_json::from_value::<BTreeMap<String, String>>(h.clone()).ok())
            .is_some_and(|h| per_lang(&h, lang).is_some());
        if !given {
            settings.headings.insert(lang.to_string(), word);
        }
        Ok(settings)
    }

    /// Whether a post's own glossary stays in the post: as `post-glossary`
    /// says, else unless first uses become notes defining the terms.
    pub fn keeps_post_list(&self) -> bool {
        self.post_glossary
            .unwrap_or(self.first_use != FirstUse::Footnote)
    }

    /// The glossary heading for `lang`.
    pub fn heading(&self, lang: &str) -> Option<&str> {
        per_lang(&self.headings, lang)
    }

    /// The appendix title for `lang`: the book's, else the heading, else
    /// the locale table's word.
    pub fn title(&self, lang: &str) -> String {
        per_lang(&self.title, lang)
            .or_else(|| self.heading(lang))
            .map_or_else(|| Labels::for_language(lang).glossary, str::to_string)
    }

    fn matching<'a>(&self, lang: &'a str) -> Matching<'a> {
        Matching {
            lang,
            inflection: self.inflection,
            accents: self.accents,
        }
    }
}

/// The value for `lang`, else for its primary subtag, else for a language
/// with the same primary subtag.
fn per_lang<'a>(map: &'a BTreeMap<String, String>, lang: &str) -> Option<&'a str> {
    let primary = lang.split(['-', '_']).next().unwrap_or(lang);
    let same = |k: &str| k.split(['-', '_']).next() == Some(primary);
    map.get(lang)
        .or_else(|| map.get(primary))
        .or_else(|| map.iter().find(|(k, _)| same(k)).map(|(_, v)| v))
        .map(String::as_str)
}

/// One term of a post's glossary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The term as written.
    pub term: String,
    /// Its name in ids.
    pub key: String,
    /// The definition.
    pub definition: Vec<Inline>,
    /// Whether the text uses it.
    #[serde(default)]
    pub used: bool,
    /// Whether the post still shows it in its own glossary.
    #[serde(default = "yes")]
    pub listed: bool,
}

fn yes() -> bool {
    true
}

/// The plugin.
#[derive(Default)]
pub struct Glossary;

impl Plugin for Glossary {
    const NAME: &'static str = "glossary";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
}

impl Configure for Glossary {
    /// The settings are checked here, once per edition: the hooks below
    /// read settings that are known to be right.
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        Settings::for_edition(ctx).map(drop)
    }
}

impl Transform for Glossary {
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        let settings = Settings::for_edition(ctx)?;
        let entries = transform_chapter(chapter, &settings, ctx.lang(), &|m| ctx.warn(m));
        if !entries.is_empty() {
            let value = serde_json::to_value(&entries).map_err(PluginError::new)?;
            chapter.plugin_data.insert(STASH.into(), value);
        }
        Ok(())
    }
}

impl Finish for Glossary {
    fn finish(&self, book: &mut Book, ctx: &Context) -> Result<(), PluginError> {
        let settings = Settings::for_edition(ctx)?;
        finish_book(book, &settings, &|d| ctx.report(d));
        Ok(())
    }
}

impl Styles for Glossary {
    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub | Format::Html => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

// Exported as a library by the `cdylib/` crate beside this one; stoa links
// this crate in as a built-in (a second `stoa_plugin_v1` in stoa would clash).

/// Finds the chapter's glossary, makes it semantic and marks the first use
/// of each term; returns the terms (empty when the post has no glossary).
pub fn transform_chapter(
    chapter: &mut Chapter,
    settings: &Settings,
    lang: &str,
    warn: &dyn Fn(String),
) -> Vec<Entry> {
    let Some(heading) = settings.heading(lang) else {
        return Vec::new();
    };
    let Some((list_at, mut entries)) = find_glossary(&chapter.blocks, heading, warn) else {
        return Vec::new();
    };
    let slug = chapter.slug.clone();
    let keep = settings.keeps_post_list();
    chapter.blocks[list_at] = glossary_list(
        entries.iter().map(|e| {
            let id = format!("gloss-{}-{}", slug, e.key);
            (e, id, Vec::new())
        }),
        false,
    );
    let mut marker = Marker {
        settings,
        matching: settings.matching(lang),
        words: entries.iter().map(|e| words::term_words(&e.term)).collect(),
        entries: &mut entries,
        slug: &slug,
        notes: Vec::new(),
    };
    mark_blocks(&mut chapter.blocks, &mut marker);
    let notes = std::mem::take(&mut marker.notes);
    if !keep {
        // The heading before the list goes with it: the notes (or the
        // appendix) say what it said.
        chapter.blocks.drain(list_at - 1..=list_at);
        for entry in &mut entries {
            entry.listed = false;
        }
    }
    chapter.blocks.extend(notes);
    for entry in &entries {
        if !entry.used {
            warn(format!(
                "glossary term `{}` is never used in the text of the post",
                entry.term
            ));
        }
    }
    entries
}

/// The index of the glossary list and its terms: the first top-level
/// heading reading `heading` whose next block is a list of `term: definition`.
fn find_glossary(
    blocks: &[Block],
    heading: &str,
    warn: &dyn Fn(String),
) -> Option<(usize, Vec<Entry>)> {
    let want = words::fold(heading.trim());
    for (i, block) in blocks.iter().enumerate() {
        let Block::Heading { content, .. } = block else {
            continue;
        };
        if words::fold(inlines_text(content).trim()) != want {
            continue;
        }
        let Some(Block::List { items, .. }) = blocks.get(i + 1) else {
            continue;
        };
        let parsed: Option<Vec<(Vec<Inline>, Vec<Inline>)>> = items
            .iter()
            .map(|item| match item.blocks.as_slice() {
                [Block::Paragraph { content }] => split_item(content),
                _ => None,
            })
            .collect();
        let Some(parsed) = parsed.filter(|p| !p.is_empty()) else {
            continue;
        };
        let mut entries: Vec<Entry> = Vec::new();
        for (term, definition) in parsed {
            let term = inlines_text(&term).trim().to_string();
            let key = match words::slug(&term) {
                k if k.is_empty() => format!("term-{}", entries.len() + 1),
                k => k,
            };
            if entries.iter().any(|e| e.key == key) {
                warn(format!(
                    "glossary term `{term}` is defined twice in the post; the first definition is kept"
                ));
                continue;
            }
            entries.push(Entry {
                term,
                key,
                definition,
                used: false,
                listed: true,
            });
        }
        return Some((i + 1, entries));
    }
    None
}

/// `term: definition` split at the first colon of the item's top-level
/// text; `None` when the item has no such colon or the term looks like a
/// sentence rather than a term (more than five words).
pub fn split_item(content: &[Inline]) -> Option<(Vec<Inline>, Vec<Inline>)> {
    let (at, colon) = content
        .iter()
        .enumerate()
        .find_map(|(i, inline)| match inline {
            Inline::Text { text } => text.find(':').map(|c| (i, c)),
            _ => None,
        })?;
    let Inline::Text { text } = &content[at] else {
        return None;
    };
    let mut term = content[..at].to_vec();
    term.push(Inline::text(&text[..colon]));
    let rest = text[colon + 1..].trim_start();
    let mut definition = Vec::new();
    if !rest.is_empty() {
        definition.push(Inline::text(rest));
    }
    definition.extend(content[at + 1..].iter().cloned());
    let term_text = inlines_text(&term);
    let word_count = words::words(&term_text).len();
    let ok = (1..=5).contains(&word_count) && !inlines_text(&definition).trim().is_empty();
    ok.then(|| {
        term.retain(|i| *i != Inline::text(""));
        (term, definition)
    })
}

/// The glossary: a [`Role::Glossary`] div holding only, per entry, a term
/// (with `id`) and a definition (id `<id>-def`) followed by `extra` blocks
/// inside it. Only terms and definitions: the renderers set such a list as
/// `dl`, `dt` and `dd`.
fn glossary_list<'e>(
    entries: impl Iterator<Item = (&'e Entry, String, Vec<Block>)>,
    appendix: bool,
) -> Block {
    let mut blocks = Vec::new();
    for (entry, id, extra) in entries {
        let def_id = if appendix {
            def_id_in_appendix(&entry.key)
        } else {
            format!("{id}-def")
        };
        blocks.push(container(
            Some(Role::Term),
            "glossary-term",
            &[("id", &id)],
            vec![Block::Paragraph {
                content: vec![Inline::text(&entry.term)],
            }],
        ));
        let mut def = vec![Block::Paragraph {
            content: entry.definition.clone(),
        }];
        def.extend(extra);
        blocks.push(container(
            Some(Role::Definition),
            "glossary-def",
            &[("id", &def_id)],
            def,
        ));
    }
    // The appendix's last entry never stands alone at the top of a page:
    // the definition before it keeps with it (the PDF reads `keep`).
    if appendix && blocks.len() >= 4 {
        let at = blocks.len() - 3;
        if let Block::Div { attrs, .. } = &mut blocks[at] {
            attrs.insert("keep".into(), "with-next".into());
        }
    }
    container(Some(Role::Glossary), "glossary-list", &[], blocks)
}

fn container(role: Option<Role>, class: &str, attrs: &[(&str, &str)], blocks: Vec<Block>) -> Block {
    Block::Div {
        role,
        class: class.into(),
        attrs: attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        blocks,
    }
}

fn term_id_in_appendix(key: &str) -> String {
    format!("glossary-{key}")
}

fn def_id_in_appendix(key: &str) -> String {
    format!("glossdef-{key}")
}

fn use_id(slug: &str, key: &str) -> String {
    format!("gloss-use-{slug}-{key}")
}

struct Marker<'a> {
    settings: &'a Settings,
    matching: Matching<'a>,
    entries: &'a mut Vec<Entry>,
    /// The words of each entry's term.
    words: Vec<Vec<String>>,
    slug: &'a str,
    /// Footnote definitions to append to the chapter.
    notes: Vec<Block>,
}

impl Marker<'_> {
    fn done(&self) -> bool {
        self.entries.iter().all(|e| e.used)
    }

    /// `text` with the first use of each unused term marked.
    fn split(&mut self, text: &str) -> Vec<Inline> {
        let mut out = Vec::new();
        let mut rest = text;
        loop {
            // The earliest match; at one place, the term with most words.
            let best = (0..self.entries.len())
                .filter(|&i| !self.entries[i].used)
                .filter_map(|i| self.matching.find(rest, &self.words[i]).map(|r| (r, i)))
                .min_by_key(|&((s, e), i)| (s, std::cmp::Reverse(e), i));
            let Some(((s, e), i)) = best else { break };
            if s > 0 {
                out.push(Inline::text(&rest[..s]));
            }
            out.extend(self.mark(i, &rest[s..e]));
            rest = &rest[e..];
        }
        if !rest.is_empty() {
            out.push(Inline::text(rest));
        }
        out
    }

    fn mark(&mut self, i: usize, found: &str) -> Vec<Inline> {
        let entry = &mut self.entries[i];
        entry.used = true;
        let id = use_id(self.slug, &entry.key);
        let mut attrs = Attrs::new();
        attrs.insert("id".into(), id);
        match self.settings.first_use {
            FirstUse::None => vec![Inline::text(found)],
            FirstUse::Link => {
                let target = if self.settings.appendix {
                    def_id_in_appendix(&entry.key)
                } else {
                    format!("gloss-{}-{}-def", self.slug, entry.key)
                };
                // The role, not attributes of ours, gives it its EPUB
                // semantics and ARIA role in every renderer.
                vec![Inline::Span {
                    role: Some(Role::GlossaryRef),
                    class: "glossary-ref".into(),
                    attrs,
                    content: vec![Inline::Link {
                        url: format!("#{target}"),
                        title: inlines_text(&entry.definition).trim().to_string(),
                        content: vec![Inline::text(found)],
                    }],
                }]
            }
            FirstUse::Footnote => {
                let label = format!("glossary-{}", entry.key);
                let mut note = vec![
                    Inline::Emph {
                        content: vec![Inline::text(&entry.term)],
                    },
                    Inline::text(": "),
                ];
                note.extend(entry.definition.iter().cloned());
                self.notes.push(Block::FootnoteDef {
                    label: label.clone(),
                    blocks: vec![Block::Paragraph { content: note }],
                });
                vec![
                    Inline::Span {
                        role: None,
                        class: "glossary-use".into(),
                        attrs,
                        content: vec![Inline::text(found)],
                    },
                    Inline::FootnoteRef { label },
                ]
            }
        }
    }
}

/// Marks first uses in reading order; headings, code, notes and the
/// containers of glossaries and of names (this plugin's, and what any
/// plugin marks so by role) are not text.
fn mark_blocks(blocks: &mut [Block], m: &mut Marker) {
    for block in blocks {
        if m.done() {
            return;
        }
        match block {
            Block::Paragraph { content } => mark_inlines(content, m),
            Block::List { items, .. } => {
                for item in items {
                    mark_blocks(&mut item.blocks, m);
                }
            }
            Block::Quote { blocks } => mark_blocks(blocks, m),
            Block::Div {
                role,
                class,
                blocks,
                ..
            } => {
                if !is_reference_matter(role.as_ref(), class) {
                    mark_blocks(blocks, m)
                }
            }
            Block::Table { head, rows, .. } => {
                for cell in head.iter_mut().chain(rows.iter_mut().flatten()) {
                    mark_inlines(cell, m);
                }
            }
            Block::Heading { .. }
            | Block::Code { .. }
            | Block::Rule
            | Block::Raw { .. }
            | Block::FootnoteDef { .. } => {}
        }
    }
}

fn mark_inlines(inlines: &mut Vec<Inline>, m: &mut Marker) {
    let old = std::mem::take(inlines);
    for mut inline in old {
        if m.done() {
            inlines.push(inline);
            continue;
        }
        match &mut inline {
            Inline::Text { text } => {
                let text = std::mem::take(text);
                inlines.extend(m.split(&text));
                continue;
            }
            Inline::Emph { content } | Inline::Strong { content } | Inline::Strike { content } => {
                mark_inlines(content, m)
            }
            Inline::Span {
                role,
                class,
                content,
                ..
            } => {
                if !is_reference_matter(role.as_ref(), class) {
                    mark_inlines(content, m)
                }
            }
            // A link already leads somewhere; the rest (raw output for
            // one format included) holds no prose.
            Inline::Link { .. }
            | Inline::Code { .. }
            | Inline::Image { .. }
            | Inline::FootnoteRef { .. }
            | Inline::LineBreak
            | Inline::SoftBreak
            | Inline::Raw { .. } => {}
        }
        inlines.push(inline);
    }
}

/// Whether a container holds a glossary, a reference to one, a term or a
/// speaker's name rather than prose where a term could be used: this
/// plugin's own containers, and any plugin's that say so by their role (the
/// definitions of another definition list are prose, and are marked).
fn is_reference_matter(role: Option<&Role>, class: &str) -> bool {
    let by_role = matches!(
        role,
        Some(Role::Glossary | Role::Term | Role::GlossaryRef | Role::Speaker)
    );
    by_role || class.starts_with("glossary")
}

/// One term of the appendix.
struct Merged {
    entry: Entry,
    /// Slug of the post that defined it first.
    first: String,
    /// (post slug, post title, id to link to, if any).
    places: Vec<(String, String, Option<String>)>,
}

/// Collects the terms `transform` left in the chapters, warns about terms
/// defined differently, and adds the appendix.
pub fn finish_book(book: &mut Book, settings: &Settings, report: &dyn Fn(PluginDiagnostic)) {
    let mut merged: Vec<Merged> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for chapter in &mut book.chapters {
        let Some(value) = chapter.plugin_data.remove(STASH) else {
            continue;
        };
        let Ok(entries) = serde_json::from_value::<Vec<Entry>>(value) else {
            continue;
        };
        for entry in entries {
            // The use in the text; else the post's glossary; else (a term
            // never used, its list dropped) no place to point to.
            let target = if entry.used {
                Some(use_id(&chapter.slug, &entry.key))
            } else if entry.listed {
                Some(format!("gloss-{}-{}", chapter.slug, entry.key))
            } else {
                None
            };
            let place = (chapter.slug.clone(), chapter.title.clone(), target);
            match by_key.get(&entry.key) {
                Some(&i) => {
                    let m = &mut merged[i];
                    let (a, b) = (
                        normalize_def(&m.entry.definition),
                        normalize_def(&entry.definition),
                    );
                    if a != b {
                        report(
                            PluginDiagnostic::warning(format!(
                                "glossary term `{}` has two definitions: “{}” in `{}` and “{}” in `{}`; the appendix keeps the first",
                                entry.term,
                                inlines_text(&m.entry.definition).trim(),
                                m.first,
                                inlines_text(&entry.definition).trim(),
                                chapter.slug
                            ))
                            .in_chapter(chapter.slug.clone()),
                        );
                    }
                    m.places.push(place);
                }
                None => {
                    by_key.insert(entry.key.clone(), merged.len());
                    merged.push(Merged {
                        first: chapter.slug.clone(),
                        places: vec![place],
                        entry,
                    });
                }
            }
        }
    }
    if merged.is_empty() || !settings.appendix {
        return;
    }
    let lang = book.lang.clone();
    merged.sort_by(|a, b| words::collate(&a.entry.term, &b.entry.term, &lang));
    let list = glossary_list(
        merged.iter().map(|m| {
            let mut refs = Vec::new();
            for (i, (_, title, target)) in m.places.iter().enumerate() {
                if i > 0 {
                    refs.push(Inline::text("; "));
                }
                // A page reference: every format prints the page of
                // the use after the post's title, the same page.
                let Some(target) = target else {
                    refs.push(Inline::text(title));
                    continue;
                };
                refs.push(Inline::Span {
                    role: Some(Role::Other(stoa_sdk::PAGE_REF_ROLE.into())),
                    class: "glossary-backref".into(),
                    attrs: Attrs::new(),
                    content: vec![Inline::Link {
                        url: format!("#{target}"),
                        title: String::new(),
                        content: vec![Inline::text(title)],
                    }],
                });
            }
            let extra = vec![container(
                None,
                "glossary-places",
                &[],
                vec![Block::Paragraph { content: refs }],
            )];
            (&m.entry, term_id_in_appendix(&m.entry.key), extra)
        }),
        true,
    );
    let mut slug = "glossary".to_string();
    let mut n = 1;
    while book.chapters.iter().any(|c| c.slug == slug) {
        n += 1;
        slug = format!("glossary-{n}");
    }
    let appendix = Chapter {
        slug,
        kind: ChapterKind::Appendix,
        role: Some(Role::Glossary),
        title: settings.title(&lang),
        blocks: vec![list],
        ..Chapter::default()
    };
    let at = book
        .chapters
        .iter()
        .rposition(|c| c.kind == ChapterKind::Post)
        .map_or(book.chapters.len(), |i| i + 1);
    book.chapters.insert(at, appendix);
}

/// A definition as compared for duplicates: its words, folded.
fn normalize_def(def: &[Inline]) -> String {
    let text = inlines_text(def);
    words::words(&text)
        .into_iter()
        .map(|(s, e)| words::fold(&text[s..e]))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
