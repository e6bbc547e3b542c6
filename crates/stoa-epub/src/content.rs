//! Blocks and inlines to XHTML. Footnotes without a plugin become the
//! chapter's endnotes, numbered in the order they are first referenced; the
//! footnotes plugin's settings (`plugin_data["footnotes"]`, see
//! docs/footnotes.md) place them as pop-up asides after the block that
//! references them, or in a notes chapter, numbered per post or through the book.

use crate::targets::Targets;
use crate::xml::Xml;
use std::collections::BTreeMap;
use stoa_doc::{Align, Attrs, Block, Book, Chapter, Inline, Labels, ListItem};

/// Where a chapter's notes go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// An endnotes section at the end of the chapter (the default).
    #[default]
    Endnotes,
    /// `footnote` asides after the block that references them.
    Footnotes,
    /// In the notes chapter, the file named here, under the chapter's heading.
    Collected {
        /// The notes chapter's file.
        file: String,
    },
}

/// How a chapter's notes are placed and numbered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoteSetup {
    /// Where the notes go.
    pub placement: Placement,
    /// Notes numbered before this chapter (continuous numbering).
    pub offset: usize,
    /// Prefix of the notes' ids in the notes chapter (the chapter's slug).
    pub slug: String,
}

/// The notes chapter the footnotes plugin added, if any.
fn collector(book: &Book) -> Option<&Chapter> {
    book.chapters.iter().find(|c| stoa_doc::collects_notes(c))
}

/// How `chapter` of `book` places and numbers its notes.
pub fn note_setup(book: &Book, chapter: &Chapter) -> NoteSetup {
    let mut setup = NoteSetup {
        slug: chapter.slug.clone(),
        ..NoteSetup::default()
    };
    let Some((mode, continuous)) = stoa_doc::note_mode(chapter) else {
        return setup;
    };
    setup.placement = match (mode, collector(book)) {
        ("footnotes", _) => Placement::Footnotes,
        ("notes-chapter", Some(notes)) => Placement::Collected {
            file: crate::chapter_file(&notes.slug),
        },
        _ => Placement::Endnotes,
    };
    if continuous {
        setup.offset = book
            .chapters
            .iter()
            .take_while(|c| !std::ptr::eq(*c, chapter))
            .filter(|c| stoa_doc::note_mode(c).is_some() && !stoa_doc::collects_notes(c))
            .map(|c| note_count(&book.labels, c))
            .sum();
    }
    setup
}

/// How many notes a chapter numbers.
fn note_count(labels: &Labels, chapter: &Chapter) -> usize {
    let mut scratch = Xml::new();
    let mut r = Renderer::new(labels, &chapter.blocks);
    r.blocks(&chapter.blocks, &mut scratch);
    r.note_items(&mut scratch);
    r.order.len()
}

/// The notes chapter's content: under a heading per post, the notes of
/// every post that sends its notes there, each linking back to its reference.
pub fn collected_notes(book: &Book, x: &mut Xml) {
    let Some(notes) = collector(book) else {
        return;
    };
    let file = crate::chapter_file(&notes.slug);
    for chapter in &book.chapters {
        let mut setup = note_setup(book, chapter);
        if setup.placement != (Placement::Collected { file: file.clone() }) {
            continue;
        }
        let mut r = Renderer::new(&book.labels, &chapter.blocks);
        setup.slug.clone_from(&chapter.slug);
        r.setup = setup;
        r.back_file = crate::chapter_file(&chapter.slug);
        let mut scratch = Xml::new();
        r.blocks(&chapter.blocks, &mut scratch);
        if r.order.is_empty() {
            continue;
        }
        let heading = format!("{}-notes", chapter.slug);
        x.open(
            "section",
            &[("class", "collected-notes"), ("aria-labelledby", &heading)],
        );
        let href = crate::chapter_file(&chapter.slug);
        x.open("h2", &[("id", &heading)])
            .element("a", &[("href", &href)], &chapter.title)
            .close()
            .newline();
        r.note_items(x);
        x.close().newline();
    }
}

/// Renders one chapter's blocks; `notes` collects its footnotes.
pub struct Renderer<'a> {
    labels: &'a Labels,
    definitions: BTreeMap<String, Vec<Block>>,
    /// Labels in the order of first reference.
    order: Vec<String>,
    /// How many times each label has been referenced.
    refs: BTreeMap<String, usize>,
    /// Where the notes go and how they are numbered.
    setup: NoteSetup,
    /// Footnotes referenced but not yet written (indices into `order`).
    pending: Vec<usize>,
    /// How many lists and quotes the writer is in: asides wait until it is out.
    hold: usize,
    /// The file of the references, for backlinks from the notes chapter.
    back_file: String,
    /// The book's ids and the file being written, to resolve `#id` links
    /// into other chapters.
    targets: Option<(&'a Targets, String)>,
}

impl<'a> Renderer<'a> {
    /// A renderer for `blocks`, which may define footnotes anywhere.
    pub fn new(labels: &'a Labels, blocks: &[Block]) -> Self {
        let mut definitions = BTreeMap::new();
        collect_definitions(blocks, &mut definitions);
        Renderer {
            labels,
            definitions,
            order: Vec::new(),
            refs: BTreeMap::new(),
            setup: NoteSetup::default(),
            pending: Vec::new(),
            hold: 0,
            back_file: String::new(),
            targets: None,
        }
    }

    /// Resolves `#id` links whose id is in another chapter of the book;
    /// `file` is the chapter being written.
    pub fn with_targets(mut self, targets: &'a Targets, file: String) -> Self {
        self.targets = Some((targets, file));
        self
    }

    /// `url` as written in the current file (see [`Targets::href`]).
    fn href<'u>(&self, url: &'u str) -> std::borrow::Cow<'u, str> {
        match &self.targets {
            Some((targets, file)) => targets.href(url, file),
            None => url.into(),
        }
    }

    /// Places and numbers the notes as `setup` says.
    pub fn with_notes(mut self, setup: NoteSetup) -> Self {
        self.setup = setup;
        self
    }

    /// The blocks, then the endnotes if any were referenced.
    pub fn chapter(mut self, blocks: &[Block], x: &mut Xml) {
        self.blocks(blocks, x);
        self.endnotes(x);
    }

    fn blocks(&mut self, blocks: &[Block], x: &mut Xml) {
        for block in blocks {
            self.block(block, x);
            x.newline();
            if self.hold == 0 {
                self.footnotes(x);
            }
        }
    }

    fn block(&mut self, block: &Block, x: &mut Xml) {
        match block {
            Block::Heading { level, id, content } => {
                x.open(heading_tag(*level), &[("id", id)]);
                self.inlines(content, x);
                x.close();
            }
            Block::Paragraph { content } => {
                let dir = if has_rtl(content) { "dir" } else { "" };
                x.open("p", &[(dir, "auto")]);
                self.inlines(content, x);
                x.close();
            }
            Block::List {
                start,
                tight,
                items,
            } => self.list(*start, *tight, items, x),
            Block::Quote { blocks } => {
                x.open("blockquote", &[]);
                self.hold += 1;
                self.blocks(blocks, x);
                self.hold -= 1;
                x.close();
            }
            Block::Code { lang, text } => {
                let class = lang.as_ref().map(|l| format!("language-{l}"));
                let attr = class.as_deref().map_or(("", ""), |c| ("class", c));
                x.open("pre", &[]).element("code", &[attr], text).close();
            }
            Block::Table { align, head, rows } => self.table(align, head, rows, x),
            Block::Rule => {
                x.empty("hr", &[]);
            }
            // Definitions are printed with the endnotes, where they are numbered.
            Block::FootnoteDef { .. } => {}
            Block::Div { class, attrs, .. } if is_definition_list(block) => {
                self.definition_list(class, attrs, block, x)
            }
            Block::Div {
                class,
                attrs,
                blocks,
            } => {
                let attrs = html_attrs(class, attrs);
                let attrs: Vec<(&str, &str)> = attrs
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                x.open("div", &attrs);
                self.blocks(blocks, x);
                x.close();
            }
        }
    }

    fn list(&mut self, start: Option<u64>, tight: bool, items: &[ListItem], x: &mut Xml) {
        let start_text = start.filter(|&s| s != 1).map(|s| s.to_string());
        let class = if tight { "" } else { "class" };
        match (start, &start_text) {
            (Some(_), Some(s)) => x.open("ol", &[("start", s), (class, "loose")]),
            (Some(_), None) => x.open("ol", &[(class, "loose")]),
            (None, _) => x.open("ul", &[(class, "loose")]),
        };
        self.hold += 1;
        for item in items {
            x.open("li", &[]);
            if let Some(checked) = item.checked {
                let state = if checked { "checked" } else { "" };
                x.empty(
                    "input",
                    &[
                        ("type", "checkbox"),
                        ("disabled", "disabled"),
                        (state, "checked"),
                    ],
                );
                x.text(" ");
            }
            // A tight item's single paragraph is written without <p>, as
            // Markdown renderers do, so the list keeps its compact look.
            match item.blocks.as_slice() {
                [Block::Paragraph { content }] if tight => self.inlines(content, x),
                [Block::Paragraph { content }, rest @ ..] if tight => {
                    self.inlines(content, x);
                    self.blocks(rest, x);
                }
                blocks => self.blocks(blocks, x),
            }
            x.close().newline();
        }
        self.hold -= 1;
        x.close();
    }

    fn table(
        &mut self,
        align: &[Align],
        head: &[Vec<Inline>],
        rows: &[Vec<Vec<Inline>>],
        x: &mut Xml,
    ) {
        x.open("table", &[]);
        if head.iter().any(|c| !c.is_empty()) {
            x.open("thead", &[]).open("tr", &[]);
            for (cell, a) in head.iter().zip(align) {
                x.open("th", &[("scope", "col"), align_class(*a)]);
                self.inlines(cell, x);
                x.close();
            }
            x.close().close();
        }
        x.open("tbody", &[]);
        for row in rows {
            x.open("tr", &[]);
            for (cell, a) in row.iter().zip(align) {
                x.open("td", &[align_class(*a)]);
                self.inlines(cell, x);
                x.close();
            }
            x.close().newline();
        }
        x.close().close();
    }

    fn inlines(&mut self, inlines: &[Inline], x: &mut Xml) {
        for inline in inlines {
            self.inline(inline, x);
        }
    }

    fn inline(&mut self, inline: &Inline, x: &mut Xml) {
        match inline {
            Inline::Text { text } => {
                x.text(text);
            }
            Inline::Emph { content } => self.wrapped("em", &[], content, x),
            Inline::Strong { content } => self.wrapped("strong", &[], content, x),
            Inline::Strike { content } => self.wrapped("del", &[], content, x),
            Inline::Code { text } => {
                x.element("code", &[], text);
            }
            Inline::Link {
                url,
                title,
                content,
            } => {
                let title_attr = if title.is_empty() { "" } else { "title" };
                let href = self.href(url).into_owned();
                self.wrapped("a", &[("href", &href), (title_attr, title)], content, x);
            }
            Inline::Image { url, alt, title } => {
                let title_attr = if title.is_empty() { "" } else { "title" };
                x.empty("img", &[("src", url), ("alt", alt), (title_attr, title)]);
            }
            Inline::FootnoteRef { label } => self.note_ref(label, x),
            Inline::LineBreak => {
                x.empty("br", &[]);
            }
            Inline::SoftBreak => {
                x.text("\n");
            }
            // A span of a link-like class around one link is that link, with
            // the span's class and attributes (a glossary reference is an
            // `<a epub:type="noteref">` so that reading systems pop it up).
            Inline::Span {
                class,
                attrs,
                content,
            } if LINK_SPANS.contains(&class.as_str())
                && matches!(content.as_slice(), [Inline::Link { .. }]) =>
            {
                let [
                    Inline::Link {
                        url,
                        title,
                        content,
                    },
                ] = content.as_slice()
                else {
                    unreachable!("matched above")
                };
                let mut attrs = html_attrs(class, attrs);
                attrs.push(("href".into(), self.href(url).into_owned()));
                if !title.is_empty() {
                    attrs.push(("title".into(), title.clone()));
                }
                let attrs: Vec<(&str, &str)> = attrs
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                self.wrapped("a", &attrs, content, x);
            }
            Inline::Span {
                class,
                attrs,
                content,
            } => {
                let attrs = html_attrs(class, attrs);
                let attrs: Vec<(&str, &str)> = attrs
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                self.wrapped("span", &attrs, content, x);
            }
        }
    }

    /// A `glossary-list` div as `<dl>`: its `glossary-term` divs become
    /// `<dt><dfn>` and its `glossary-def` divs `<dd>`, keeping class and
    /// attributes (ids, `epub:type`). Footnote asides wait until after the list.
    fn definition_list(&mut self, class: &str, attrs: &Attrs, block: &Block, x: &mut Xml) {
        let Block::Div { blocks, .. } = block else {
            return;
        };
        open_with(x, "dl", &html_attrs(class, attrs));
        x.newline();
        self.hold += 1;
        for child in blocks {
            let Block::Div {
                class,
                attrs,
                blocks,
            } = child
            else {
                continue;
            };
            let term = class == "glossary-term";
            open_with(x, if term { "dt" } else { "dd" }, &html_attrs(class, attrs));
            match blocks.as_slice() {
                [Block::Paragraph { content }] if term => {
                    x.open("dfn", &[]);
                    self.inlines(content, x);
                    x.close();
                }
                blocks => self.blocks(blocks, x),
            }
            x.close().newline();
        }
        self.hold -= 1;
        x.close();
    }

    fn wrapped(
        &mut self,
        tag: &'static str,
        attrs: &[(&str, &str)],
        content: &[Inline],
        x: &mut Xml,
    ) {
        x.open(tag, attrs);
        self.inlines(content, x);
        x.close();
    }

    /// A superscript number linking to the note; an undefined note is
    /// printed as the author wrote it.
    fn note_ref(&mut self, label: &str, x: &mut Xml) {
        if !self.definitions.contains_key(label) {
            x.text(&format!("[^{label}]"));
            return;
        }
        if !self.order.iter().any(|l| l == label) {
            self.order.push(label.to_string());
            self.pending.push(self.order.len() - 1);
        }
        let number = self
            .order
            .iter()
            .position(|l| l == label)
            .map_or(0, |i| i + 1 + self.setup.offset);
        let count = self.refs.entry(label.to_string()).or_default();
        *count += 1;
        let id = ref_id(number, *count);
        let href = match &self.setup.placement {
            Placement::Collected { file } => format!("{file}#{}", self.note_id(number)),
            _ => format!("#{}", self.note_id(number)),
        };
        x.open("sup", &[])
            .open(
                "a",
                &[
                    ("id", &id),
                    ("href", &href),
                    ("epub:type", "noteref"),
                    ("role", "doc-noteref"),
                ],
            )
            .text(&number.to_string())
            .close()
            .close();
    }

    /// The id of note `number`: unique in the chapter, or in the notes chapter.
    fn note_id(&self, number: usize) -> String {
        match self.setup.placement {
            Placement::Collected { .. } => format!("{}-note-{number}", self.setup.slug),
            _ => format!("note-{number}"),
        }
    }

    /// The footnotes referenced so far and not yet written, as asides: after
    /// the block that references them, in the same document, so that
    /// reading systems show them as pop-ups (docs/footnotes.md).
    fn footnotes(&mut self, x: &mut Xml) {
        if self.setup.placement != Placement::Footnotes {
            return;
        }
        // A note may reference another note: it joins the queue.
        while !self.pending.is_empty() {
            let i = self.pending.remove(0);
            let label = self.order[i].clone();
            let number = i + 1 + self.setup.offset;
            let blocks = self.definitions.get(&label).cloned().unwrap_or_default();
            let id = self.note_id(number);
            x.open(
                "aside",
                &[
                    ("id", &id),
                    ("class", "footnote"),
                    ("epub:type", "footnote"),
                    ("role", "doc-footnote"),
                ],
            );
            let back = format!("#{}", ref_id(number, 1));
            let title = self.labels.back_to_text.clone();
            let mark = |x: &mut Xml| {
                x.open(
                    "a",
                    &[
                        ("class", "note-number"),
                        ("href", &back),
                        ("role", "doc-backlink"),
                        ("title", &title),
                    ],
                )
                .text(&format!("{number}."))
                .close()
                .text(" ");
            };
            self.hold += 1;
            match blocks.split_first() {
                Some((Block::Paragraph { content }, rest)) => {
                    x.open("p", &[]);
                    mark(x);
                    self.inlines(content, x);
                    x.close().newline();
                    self.blocks(rest, x);
                }
                _ => {
                    x.open("p", &[]);
                    mark(x);
                    x.close().newline();
                    self.blocks(&blocks, x);
                }
            }
            self.hold -= 1;
            x.close().newline();
        }
    }

    fn endnotes(&mut self, x: &mut Xml) {
        match self.setup.placement {
            Placement::Footnotes => return self.footnotes(x),
            // The notes chapter writes them.
            Placement::Collected { .. } => return,
            Placement::Endnotes => {}
        }
        if self.order.is_empty() {
            return;
        }
        x.open(
            "section",
            &[
                ("class", "endnotes"),
                ("epub:type", "endnotes"),
                ("role", "doc-endnotes"),
            ],
        );
        x.element("h2", &[], &self.labels.notes.clone()).newline();
        self.note_items(x);
        x.close();
    }

    /// The link from a note back to where it is referenced.
    fn backlink(&self, href: &str, x: &mut Xml) {
        x.open(
            "a",
            &[
                ("href", href),
                ("role", "doc-backlink"),
                ("title", &self.labels.back_to_text),
            ],
        )
        .text("↩\u{fe0e}")
        .close();
    }

    /// The numbered list of the notes, each linking back to its first reference.
    fn note_items(&mut self, x: &mut Xml) {
        let start = (self.setup.offset + 1).to_string();
        let start_attr = if self.setup.offset > 0 { "start" } else { "" };
        x.open("ol", &[(start_attr, &start)]);
        // A note may reference another note, so the list can grow while we write it.
        let mut i = 0;
        while i < self.order.len() {
            let label = self.order[i].clone();
            let number = i + 1 + self.setup.offset;
            let blocks = self.definitions.get(&label).cloned().unwrap_or_default();
            let id = self.note_id(number);
            x.open("li", &[("id", &id), ("epub:type", "endnote")]);
            let back = format!("{}#{}", self.back_file, ref_id(number, 1));
            // The way back ends the note's last paragraph, as in printed
            // books, rather than sitting alone on a line of its own.
            match blocks.split_last() {
                Some((Block::Paragraph { content }, rest)) => {
                    self.blocks(rest, x);
                    x.open("p", &[]);
                    self.inlines(content, x);
                    x.text("\u{a0}");
                    self.backlink(&back, x);
                    x.close();
                }
                _ => {
                    self.blocks(&blocks, x);
                    x.open("p", &[("class", "backlink")]);
                    self.backlink(&back, x);
                    x.close();
                }
            }
            x.close().newline();
            i += 1;
        }
        x.close();
    }
}

fn ref_id(number: usize, count: usize) -> String {
    if count == 1 {
        format!("noteref-{number}")
    } else {
        format!("noteref-{number}-{count}")
    }
}

fn collect_definitions(blocks: &[Block], out: &mut BTreeMap<String, Vec<Block>>) {
    for block in blocks {
        match block {
            Block::FootnoteDef { label, blocks } => {
                out.entry(label.clone()).or_insert_with(|| blocks.clone());
                collect_definitions(blocks, out);
            }
            Block::Quote { blocks } | Block::Div { blocks, .. } => collect_definitions(blocks, out),
            Block::List { items, .. } => {
                for item in items {
                    collect_definitions(&item.blocks, out);
                }
            }
            _ => {}
        }
    }
}

/// Classes of spans that, around a single link, are written as that link.
const LINK_SPANS: &[&str] = &["glossary-ref"];

/// Whether `block` is a `glossary-list` div holding only `glossary-term`
/// and `glossary-def` divs: the EPUB writes it as a definition list.
fn is_definition_list(block: &Block) -> bool {
    matches!(block, Block::Div { class, blocks, .. } if class == "glossary-list"
        && !blocks.is_empty()
        && blocks.iter().all(|b| matches!(b, Block::Div { class, .. }
            if class == "glossary-term" || class == "glossary-def")))
}

fn open_with(x: &mut Xml, tag: &'static str, attrs: &[(String, String)]) {
    let attrs: Vec<(&str, &str)> = attrs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    x.open(tag, &attrs);
}

/// Heading levels inside a chapter start at 2: the chapter title is the h1.
fn heading_tag(level: u8) -> &'static str {
    match level {
        0..=2 => "h2",
        3 => "h3",
        4 => "h4",
        5 => "h5",
        _ => "h6",
    }
}

fn align_class(a: Align) -> (&'static str, &'static str) {
    match a {
        Align::None => ("", ""),
        Align::Left => ("class", "left"),
        Align::Center => ("class", "center"),
        Align::Right => ("class", "right"),
    }
}

/// A container's class and attributes as XHTML attributes. Accessibility and
/// EPUB semantics pass through; everything else becomes `data-*`.
fn html_attrs(class: &str, attrs: &Attrs) -> Vec<(String, String)> {
    let mut out = vec![("class".to_string(), class.to_string())];
    for (key, value) in attrs {
        let passes = matches!(key.as_str(), "id" | "role" | "epub:type" | "lang" | "title")
            || key.starts_with("aria-");
        let clean: String = key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect::<String>()
            .to_ascii_lowercase();
        if passes {
            out.push((key.clone(), value.clone()));
            if key == "lang" {
                out.push(("xml:lang".into(), value.clone()));
            }
        } else if !clean.is_empty() {
            out.push((format!("data-{clean}"), value.clone()));
        }
    }
    out
}

/// True when the text holds a right-to-left letter (Hebrew, Arabic and kin).
fn has_rtl(inlines: &[Inline]) -> bool {
    stoa_doc::inlines_text(inlines)
        .chars()
        .any(|c| matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(blocks: &[Block]) -> String {
        let labels = Labels {
            notes: "Notes".into(),
            back_to_text: "Back".into(),
            ..Labels::default()
        };
        let mut x = Xml::new();
        Renderer::new(&labels, blocks).chapter(blocks, &mut x);
        x.finish()
    }

    fn para(content: Vec<Inline>) -> Block {
        Block::Paragraph { content }
    }

    #[test]
    fn footnotes_become_numbered_endnotes() {
        let blocks = vec![
            para(vec![
                Inline::text("a"),
                Inline::FootnoteRef { label: "x".into() },
                Inline::FootnoteRef { label: "x".into() },
                Inline::FootnoteRef {
                    label: "missing".into(),
                },
            ]),
            Block::FootnoteDef {
                label: "x".into(),
                blocks: vec![para(vec![Inline::text("note")])],
            },
        ];
        let html = render(&blocks);
        assert!(
            html.contains(
                r##"<a id="noteref-1" href="#note-1" epub:type="noteref" role="doc-noteref">1</a>"##
            ),
            "{html}"
        );
        assert!(html.contains(r#"id="noteref-1-2""#));
        assert!(html.contains("[^missing]"));
        assert!(
            html.contains(
                "<li id=\"note-1\" epub:type=\"endnote\"><p>note\u{a0}<a href=\"#noteref-1\" role=\"doc-backlink\""
            ),
            "{html}"
        );
    }

    #[test]
    fn plugin_attributes_are_safe() {
        let mut attrs = Attrs::new();
        attrs.insert("role".into(), "note".into());
        attrs.insert("on click\"".into(), "x".into());
        let html = render(&[Block::Div {
            class: "c".into(),
            attrs,
            blocks: vec![],
        }]);
        assert!(
            html.contains(r#"<div class="c" data-onclick="x" role="note">"#),
            "{html}"
        );
    }

    #[test]
    fn rtl_paragraphs_get_auto_direction() {
        assert!(render(&[para(vec![Inline::text("שלום")])]).contains("dir=\"auto\""));
        assert!(!render(&[para(vec![Inline::text("olá")])]).contains("dir="));
    }
}
