//! Blocks and inlines to XHTML. Footnotes without a plugin become the
//! chapter's endnotes, numbered in the order they are first referenced.

use crate::xml::Xml;
use std::collections::BTreeMap;
use stoa_doc::{Align, Attrs, Block, Inline, Labels, ListItem};

/// Renders one chapter's blocks; `notes` collects its footnotes.
pub struct Renderer<'a> {
    labels: &'a Labels,
    definitions: BTreeMap<String, Vec<Block>>,
    /// Labels in the order of first reference.
    order: Vec<String>,
    /// How many times each label has been referenced.
    refs: BTreeMap<String, usize>,
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
        }
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
                self.blocks(blocks, x);
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
                self.wrapped("a", &[("href", url), (title_attr, title)], content, x);
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
        }
        let number = self
            .order
            .iter()
            .position(|l| l == label)
            .map_or(0, |i| i + 1);
        let count = self.refs.entry(label.to_string()).or_default();
        *count += 1;
        let id = ref_id(number, *count);
        let href = format!("#note-{number}");
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

    fn endnotes(&mut self, x: &mut Xml) {
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
        x.open("ol", &[]);
        // A note may reference another note, so the list can grow while we write it.
        let mut i = 0;
        while i < self.order.len() {
            let label = self.order[i].clone();
            let number = i + 1;
            let blocks = self.definitions.get(&label).cloned().unwrap_or_default();
            let id = format!("note-{number}");
            x.open("li", &[("id", &id), ("epub:type", "endnote")]);
            self.blocks(&blocks, x);
            let back = format!("#{}", ref_id(number, 1));
            x.open("p", &[("class", "backlink")])
                .open(
                    "a",
                    &[
                        ("href", &back),
                        ("role", "doc-backlink"),
                        ("title", &self.labels.back_to_text.clone()),
                    ],
                )
                .text("↩\u{fe0e}")
                .close()
                .close();
            x.close().newline();
            i += 1;
        }
        x.close().close();
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
            html.contains(r#"<li id="note-1" epub:type="endnote"><p>note</p>"#),
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
