//! Blocks and inlines to (X)HTML. Notes are numbered and placed by the
//! edition's [`NotesPlan`](stoa_doc::NotesPlan), links resolved by its
//! [`IdIndex`](stoa_doc::IdIndex), and the meaning of containers read from
//! their [`Role`], never from their class: the class is kept for styling.

mod index;
mod xref;

use crate::Markup;
use crate::xml::Xml;
use std::collections::{BTreeMap, HashMap};
use stoa_doc::{
    Align, Attrs, Block, ChapterNotes, FnVisitor, Inline, LinkTarget, ListItem, Note, Placement,
    Role, Walk, visit,
};

/// Writes the blocks of one chapter (or, in the notes chapter, the notes
/// of one chapter) into one file.
pub(crate) struct Writer<'m, 'a> {
    m: &'m Markup<'a>,
    /// The chapter whose text is written: links and notes resolve from it.
    source: usize,
    /// The chapter of the file being written.
    page: usize,
    /// The source chapter's notes.
    notes: &'a ChapterNotes,
    /// How many references to each note have been written.
    refs: HashMap<String, usize>,
    /// Footnotes referenced and not yet written, by number.
    pending: BTreeMap<usize, &'a Note>,
    /// How many lists, quotes, definition lists and notes the writer is in:
    /// footnote asides wait until it is out of them.
    hold: usize,
    /// How many links the writer is in: a note reference inside a link
    /// cannot be a link itself.
    in_link: usize,
    /// Before the ids of references (those inside notes in the notes
    /// chapter, which holds the notes of many chapters).
    ref_prefix: String,
    /// The block path whose children the next block sequence marks with
    /// print page breaks: the chapter's top level and the blocks of a
    /// top-level container, as the PDF marks them.
    mark: Option<Vec<usize>>,
    /// Inside a marked block in which print pages begin: where they do.
    inside: Option<Inside<'a>>,
}

/// The print pages that begin inside the text of the marked block being
/// written, and how far into its text the writer is, counted by the rule
/// the PDF follows ([`stoa_render::text_len`]).
struct Inside<'a> {
    /// The text position reached.
    pos: usize,
    /// (text position, page label), in order.
    marks: Vec<(usize, &'a str)>,
    /// How many of `marks` are written.
    written: usize,
}

impl<'m, 'a> Writer<'m, 'a> {
    /// A writer for the text of chapter `source` in the file of `page`.
    pub(crate) fn new(m: &'m Markup<'a>, source: usize, page: usize) -> Self {
        Writer {
            m,
            source,
            page,
            notes: m.notes.chapter(source),
            refs: HashMap::new(),
            pending: BTreeMap::new(),
            hold: 0,
            in_link: 0,
            ref_prefix: String::new(),
            mark: None,
            inside: None,
        }
    }

    /// The blocks, then the notes the plan puts after them.
    pub(crate) fn chapter(mut self, blocks: &[Block], x: &mut Xml) {
        self.mark = Some(Vec::new());
        self.blocks(blocks, x);
        self.flush_asides(x);
        if self.notes.placement == Placement::Endnotes && !self.notes.notes.is_empty() {
            self.endnotes(x);
        }
    }

    fn blocks(&mut self, blocks: &[Block], x: &mut Xml) {
        let marked = self.mark.take();
        for (i, block) in blocks.iter().enumerate() {
            // Definitions are written where the plan places their notes.
            if let Block::FootnoteDef { .. } = block {
                continue;
            }
            if let Some(parent) = &marked {
                let mut path = parent.clone();
                path.push(i);
                self.m.page_break_at(self.source, &path, x);
                self.enter(&path);
                if parent.is_empty() && matches!(block, Block::Div { .. }) {
                    self.mark = Some(path);
                }
            }
            self.block(block, x);
            self.mark = None;
            if marked.is_some() {
                self.leave(x);
            }
            x.newline();
            if self.hold == 0 {
                // A note's text is not the block's: no page begins in it.
                let inside = self.inside.take();
                self.flush_asides(x);
                self.inside = inside;
            }
        }
    }

    fn block(&mut self, block: &Block, x: &mut Xml) {
        if let Some(drawing) = stoa_diagram::diagram_of(block) {
            crate::diagram::write(&drawing, x);
            return;
        }
        if self.index_block(block, x) || self.xref_block(block, x) {
            return;
        }
        match block {
            Block::Heading { level, id, content } => {
                x.open(heading_tag(*level), &[("id", id)]);
                self.inlines(content, x);
                x.close();
            }
            Block::Paragraph { content } => {
                let dir = if has_rtl(content) { "dir" } else { "" };
                // An image alone in its paragraph is a figure: unindented,
                // centred (as the PDF sets it), never pushed past the measure.
                let class = if is_lone_image(content) {
                    ("class", "figure")
                } else {
                    ("", "")
                };
                x.open("p", &[class, (dir, "auto")]);
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
                self.held(blocks, x);
                x.close();
            }
            Block::Code { lang, text } => crate::highlight::code_block(lang.as_deref(), text, x),
            Block::Table { align, head, rows } => self.table(align, head, rows, x),
            Block::Rule => {
                x.empty("hr", &[]);
            }
            Block::FootnoteDef { .. } => {}
            Block::Raw { format, payload } => self.raw(format, payload, false, x),
            Block::Div {
                role,
                class,
                attrs,
                blocks,
            } => match role.as_ref().zip(definition_items(role.as_ref(), blocks)) {
                Some((role, items)) => self.definition_list(role, class, attrs, &items, x),
                None => {
                    let attrs = self
                        .m
                        .container_attrs(class, role.as_ref(), attrs, false, true);
                    x.open_owned("div", &attrs);
                    self.blocks(blocks, x);
                    x.close();
                }
            },
        }
    }

    /// A plugin's raw output: written (in this dialect) when it is for this
    /// edition's format, dropped otherwise. stoa-build checked it right
    /// after the plugin returned it, naming the plugin; one that fails here
    /// (a tree built without the driver) is left out rather than written broken.
    fn raw(&mut self, format: &str, payload: &str, inline: bool, x: &mut Xml) {
        if format == crate::raw::format_of(self.m.flavor)
            && let Ok(markup) = crate::raw::render(payload, self.m.flavor, inline)
        {
            x.markup(&markup);
        }
    }

    /// `blocks` written while footnote asides wait.
    fn held(&mut self, blocks: &[Block], x: &mut Xml) {
        self.hold += 1;
        self.blocks(blocks, x);
        self.hold -= 1;
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
                // A form control needs a name: the item's text is what it
                // says is done or to do.
                let name = match item.blocks.first() {
                    Some(Block::Paragraph { content }) => stoa_doc::inlines_text(content),
                    _ => String::new(),
                };
                let label = if name.trim().is_empty() {
                    ""
                } else {
                    "aria-label"
                };
                x.empty(
                    "input",
                    &[
                        ("type", "checkbox"),
                        ("disabled", "disabled"),
                        (state, "checked"),
                        (label, name.trim()),
                    ],
                );
                x.text(" ");
            }
            // A tight item's first paragraph is written without <p>, as
            // Markdown renderers do, so the list keeps its compact look.
            match item.blocks.split_first() {
                Some((Block::Paragraph { content }, rest)) if tight => {
                    self.inlines(content, x);
                    self.blocks(rest, x);
                }
                _ => self.blocks(&item.blocks, x),
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

    /// A definition list (a glossary is one): terms as `<dt><dfn>`,
    /// definitions as `<dd>`, each keeping its class and attributes.
    /// Footnote asides wait until after the list.
    fn definition_list(
        &mut self,
        role: &Role,
        class: &str,
        attrs: &Attrs,
        items: &[DlItem],
        x: &mut Xml,
    ) {
        let in_glossary = *role == Role::Glossary;
        // `dl` may take neither a landmark role nor `doc-glossary`, and an
        // `epub:type` without its matching role fails accessibility checks:
        // the list keeps its class; its terms and definitions (`glossterm`,
        // `glossdef`, whose roles `dt` and `dd` have) carry the meaning.
        let attrs = self
            .m
            .container_attrs(class, None, attrs, in_glossary, false);
        x.open_owned("dl", &attrs).newline();
        self.hold += 1;
        let marked = self.mark.take();
        for (j, item) in items.iter().enumerate() {
            let attrs =
                self.m
                    .container_attrs(item.class, Some(item.role), item.attrs, in_glossary, false);
            let term = *item.role == Role::Term;
            x.open_owned(if term { "dt" } else { "dd" }, &attrs);
            // A `dl` holds only terms and definitions: a page break goes inside.
            if let Some(parent) = &marked {
                let mut path = parent.clone();
                path.push(j);
                self.m.page_break_at(self.source, &path, x);
                self.enter(&path);
            }
            match item.blocks {
                [Block::Paragraph { content }] if term => {
                    x.open("dfn", &[]);
                    self.inlines(content, x);
                    x.close();
                }
                blocks => self.blocks(blocks, x),
            }
            if marked.is_some() {
                self.leave(x);
            }
            x.close().newline();
        }
        self.hold -= 1;
        x.close();
    }

    /// Starts the marked block `path`: the pages that begin inside its
    /// text are written where they do.
    fn enter(&mut self, path: &[usize]) {
        let marks = self
            .m
            .pages
            .map(|p| p.inside(self.source, path))
            .unwrap_or_default();
        self.inside = (!marks.is_empty()).then_some(Inside {
            pos: 0,
            marks,
            written: 0,
        });
    }

    /// Ends the marked block: a page said to begin past its text (which
    /// the PDF never says) is marked at its end rather than lost.
    fn leave(&mut self, x: &mut Xml) {
        if let Some(inside) = self.inside.take() {
            for (_, label) in &inside.marks[inside.written..] {
                self.m.page_break_in(self.source, label, x);
            }
        }
    }

    fn inlines(&mut self, inlines: &[Inline], x: &mut Xml) {
        for inline in inlines {
            let pos = self.inside.as_ref().map_or(0, |i| i.pos);
            self.inline(inline, x);
            // Whatever the inline wrote, the position moves by the rule
            // the PDF follows.
            if let Some(inside) = &mut self.inside {
                inside.pos = pos + stoa_render::text_len(inline);
            }
        }
    }

    /// Text, with the markers of the pages that begin inside it.
    fn text(&mut self, text: &str, x: &mut Xml) {
        let Some(inside) = &mut self.inside else {
            x.text(text);
            return;
        };
        let mut rest = text;
        let mut at = inside.pos;
        let end = at + text.chars().count();
        while let Some(&(offset, label)) = inside.marks.get(inside.written) {
            if offset >= end {
                break;
            }
            let cut = offset.saturating_sub(at);
            let byte = rest.char_indices().nth(cut).map_or(rest.len(), |(b, _)| b);
            x.text(&rest[..byte]);
            self.m.page_break_in(self.source, label, x);
            rest = &rest[byte..];
            at += cut;
            inside.written += 1;
        }
        x.text(rest);
        inside.pos = end;
    }

    fn inline(&mut self, inline: &Inline, x: &mut Xml) {
        match inline {
            Inline::Text { text } => self.text(text, x),
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
            } => self.link(url, title, Vec::new(), content, x),
            // An image the book has no file for (a plugin's, or a tree
            // made without loading) is its description, never a link to
            // a file the package lacks.
            Inline::Image { url, alt, .. }
                if !self.m.book.assets.iter().any(|a| a.name == *url) =>
            {
                x.text(alt);
            }
            Inline::Image { url, alt, title } => {
                let title_attr = if title.is_empty() { "" } else { "title" };
                match self.m.images.and_then(|m| m.get(url.as_str())) {
                    Some(made) => sized_image(url, alt, (title_attr, title), made, x),
                    None => {
                        x.empty("img", &[("src", url), ("alt", alt), (title_attr, title)]);
                    }
                }
            }
            Inline::FootnoteRef { label } => self.note_ref(label, x),
            Inline::LineBreak => {
                x.empty("br", &[]);
            }
            Inline::SoftBreak => {
                x.text("\n");
            }
            Inline::Raw { format, payload } => self.raw(format, payload, true, x),
            // A technical token (stoa-markdown's `tokens`): the theme keeps
            // it unhyphenated, in lining figures; it may break only where
            // `<wbr>` says.
            Inline::Span {
                role: Some(Role::Other(role)),
                class,
                content,
                ..
            } if role == stoa_doc::TOKEN_ROLE => {
                crate::token::write(class, &stoa_doc::inlines_text(content), x)
            }
            // A formula: MathML, its LaTeX as the alternative text, or the
            // image drawn of it with the same text; the LaTeX as code where
            // it cannot be read (the post's loading reported it).
            Inline::Span {
                role: Some(Role::Math),
                attrs,
                content,
                ..
            } => {
                let (tex, display) = stoa_math::of_span(attrs, content);
                if let Some((file, image)) = self.m.formula_image(&tex, display) {
                    crate::formula_img(&file, &tex, display, image, x);
                } else {
                    let formula = stoa_math::Formula { tex: &tex, display };
                    match formula.mathml() {
                        Ok(mathml) => {
                            x.markup(&mathml);
                        }
                        Err(_) => self.inlines(content, x),
                    }
                }
            }
            Inline::Span {
                role,
                class,
                attrs,
                content,
            } => {
                let attrs = index::mark_attrs(role.as_ref(), attrs).unwrap_or_else(|| {
                    self.m
                        .container_attrs(class, role.as_ref(), attrs, false, true)
                });
                match (role, content.as_slice()) {
                    // A glossary reference around one link is that link,
                    // carrying the span's semantics.
                    (
                        Some(Role::GlossaryRef),
                        [
                            Inline::Link {
                                url,
                                title,
                                content,
                            },
                        ],
                    ) => self.link(url, title, attrs, content, x),
                    // A phrase element (`sup`, `kbd`, `abbr`, …) is that
                    // element, which every reading system and screen
                    // reader knows.
                    _ => {
                        let element = role.as_ref().and_then(Role::html_element);
                        x.open_owned(element.unwrap_or("span"), &attrs);
                        self.inlines(content, x);
                        self.page_ref(inline, x);
                        x.close();
                    }
                }
            }
        }
    }

    /// A link with `attrs` before its `href`; one to an id no chapter has
    /// is its text alone.
    fn link(
        &mut self,
        url: &str,
        title: &str,
        mut attrs: Vec<(String, String)>,
        content: &[Inline],
        x: &mut Xml,
    ) {
        // Links do not nest (HTML forbids it): a link inside a link, which
        // a post's raw HTML or a plugin can make, is its words.
        let href = self.href(url).filter(|_| self.in_link == 0);
        let Some(href) = href else {
            return self.inlines(content, x);
        };
        attrs.push(("href".into(), href));
        if !title.is_empty() {
            attrs.push(("title".into(), title.into()));
        }
        x.open_owned("a", &attrs);
        self.in_link += 1;
        self.inlines(content, x);
        self.in_link -= 1;
        x.close();
    }

    /// After a page reference's link ([`stoa_doc::PAGE_REF_ROLE`]): `, p. 7`,
    /// the print page of the link's target as the PDF prints it, linking
    /// there too. Nothing without the PDF's page map.
    fn page_ref(&mut self, inline: &Inline, x: &mut Xml) {
        let (Some(url), Some(pages)) = (stoa_doc::page_ref_url(inline), self.m.pages) else {
            return;
        };
        let (chapter, id) = match self.m.ids.resolve(url, self.source) {
            LinkTarget::Here(id) => (self.source, id),
            LinkTarget::Chapter { chapter, id } => (chapter, id),
            LinkTarget::External(_) | LinkTarget::Missing(_) => return,
        };
        let Some(label) = pages.page_of(chapter, id) else {
            return;
        };
        // As the PDF's theme writes it: a no-break space before the number.
        x.text(", p.\u{a0}");
        x.element("a", &[("href", &self.href_to(chapter, id))], label);
    }

    /// Where `url`, written in the source chapter, leads from this file.
    fn href(&self, url: &str) -> Option<String> {
        match self.m.ids.resolve(url, self.source) {
            LinkTarget::External(url) => Some(url.to_string()),
            LinkTarget::Here(id) => Some(self.href_to(self.source, id)),
            LinkTarget::Chapter { chapter, id } => Some(self.href_to(chapter, id)),
            LinkTarget::Missing(_) => None,
        }
    }

    /// `#id` in chapter `chapter`, as written in this file.
    fn href_to(&self, chapter: usize, id: &str) -> String {
        if chapter == self.page {
            format!("#{id}")
        } else {
            format!("{}#{id}", self.m.chapter_file(chapter))
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

    /// A superscript number linking to the note; a reference without a
    /// definition is printed as the author wrote it.
    fn note_ref(&mut self, label: &str, x: &mut Xml) {
        let notes: &'a ChapterNotes = self.notes;
        let Some(note) = notes.note(label) else {
            x.text(&format!("[^{label}]"));
            return;
        };
        let nth = {
            let count = self.refs.entry(label.to_string()).or_default();
            *count += 1;
            *count
        };
        if nth == 1 && notes.placement == Placement::Footnotes {
            self.pending.insert(note.number, note);
        }
        let id = format!("{}{}", self.ref_prefix, ChapterNotes::ref_id(note, nth));
        let number = note.number.to_string();
        if self.in_link > 0 {
            // Links do not nest: the number stays, as the way back's target.
            x.element("sup", &[("id", &id)], &number);
            return;
        }
        let href = self.note_href(note);
        let epub_type = if self.m.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        x.open("sup", &[])
            .open(
                "a",
                &[
                    ("id", &id),
                    ("href", &href),
                    (epub_type, "noteref"),
                    ("role", "doc-noteref"),
                ],
            )
            .text(&number)
            .close()
            .close();
    }

    /// Where the plan prints `note`, as written in this file.
    fn note_href(&self, note: &Note) -> String {
        match self.notes.placement {
            Placement::Collected { chapter } => self.href_to(chapter, &note.id),
            Placement::Endnotes | Placement::Footnotes => format!("#{}", note.id),
        }
    }

    /// The footnotes referenced so far and not yet written, as asides after
    /// the block that refers to them, in the same document, so that reading
    /// systems show them as pop-ups (Kobo pops up only a note that follows
    /// its reference in the same file). A note may refer to another: it
    /// joins the queue, which is written in number order.
    fn flush_asides(&mut self, x: &mut Xml) {
        while let Some((_, note)) = self.pending.pop_first() {
            self.aside(note, x);
        }
    }

    fn aside(&mut self, note: &'a Note, x: &mut Xml) {
        let epub_type = if self.m.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        x.open(
            "aside",
            &[
                ("id", &note.id),
                ("class", "footnote"),
                (epub_type, "footnote"),
                ("role", "doc-footnote"),
            ],
        );
        let back = format!("#{}", ChapterNotes::ref_id(note, 1));
        let number = format!("{}.", note.number);
        let title = self.m.book.labels.back_to_text.as_str();
        let mark = |x: &mut Xml| {
            x.open(
                "a",
                &[
                    ("class", "note-number"),
                    ("href", &back),
                    ("role", "doc-backlink"),
                    ("title", title),
                ],
            )
            .text(&number)
            .close()
            .text(" ");
        };
        self.hold += 1;
        x.open("p", &[]);
        mark(x);
        match note.blocks.split_first() {
            Some((Block::Paragraph { content }, rest)) => {
                self.inlines(content, x);
                x.close().newline();
                self.blocks(rest, x);
            }
            _ => {
                x.close().newline();
                self.blocks(&note.blocks, x);
            }
        }
        self.hold -= 1;
        x.close().newline();
    }

    /// The chapter's notes after its text, under the notes heading.
    fn endnotes(&mut self, x: &mut Xml) {
        let epub_type = if self.m.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        x.open(
            "section",
            &[
                ("class", "endnotes"),
                (epub_type, "endnotes"),
                ("role", "doc-endnotes"),
            ],
        );
        x.element("h2", &[], &self.m.book.labels.notes).newline();
        self.note_items(&|note| format!("#{}", ChapterNotes::ref_id(note, 1)), x);
        x.close();
    }

    /// The source chapter's notes in the notes chapter: references inside
    /// them get ids of their own, and each note leads back to its first
    /// reference, in the chapter's file or in an earlier note here.
    pub(crate) fn collected(mut self, x: &mut Xml) {
        let slug = &self.m.book.chapters[self.source].slug;
        self.ref_prefix = format!("{slug}-");
        self.refs = text_references(&self.m.book.chapters[self.source].blocks);
        let in_text = self.refs.clone();
        let file = self.m.chapter_file(self.source);
        let prefix = self.ref_prefix.clone();
        let back = move |note: &Note| {
            let first = ChapterNotes::ref_id(note, 1);
            if in_text.get(&note.label).copied().unwrap_or(0) > 0 {
                format!("{file}#{first}")
            } else {
                format!("#{prefix}{first}")
            }
        };
        self.note_items(&back, x);
    }

    /// The numbered list of the notes, each leading back along `back`.
    fn note_items(&mut self, back: &dyn Fn(&Note) -> String, x: &mut Xml) {
        let notes: &'a ChapterNotes = self.notes;
        let start = notes.first_number().unwrap_or(1);
        let start_text = start.to_string();
        let start_attr = if start != 1 { "start" } else { "" };
        x.open("ol", &[(start_attr, &start_text)]);
        let epub_type = if self.m.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        self.hold += 1;
        for note in &notes.notes {
            x.open("li", &[("id", &note.id), (epub_type, "endnote")]);
            let href = back(note);
            // The way back ends the note's last paragraph, as in printed
            // books, rather than sitting alone on a line of its own.
            match note.blocks.split_last() {
                Some((Block::Paragraph { content }, rest)) => {
                    self.blocks(rest, x);
                    x.open("p", &[]);
                    self.inlines(content, x);
                    x.text("\u{a0}");
                    self.backlink(&href, x);
                    x.close();
                }
                _ => {
                    self.blocks(&note.blocks, x);
                    x.open("p", &[("class", "backlink")]);
                    self.backlink(&href, x);
                    x.close();
                }
            }
            x.close().newline();
        }
        self.hold -= 1;
        x.close();
    }

    /// The link from a note back to where it is referenced.
    fn backlink(&self, href: &str, x: &mut Xml) {
        x.open(
            "a",
            &[
                ("href", href),
                ("role", "doc-backlink"),
                ("title", &self.m.book.labels.back_to_text),
            ],
        )
        .text("↩\u{fe0e}")
        .close();
    }
}

/// How many times the text (outside note definitions) refers to each note.
fn text_references(blocks: &[Block]) -> HashMap<String, usize> {
    let counts = std::cell::RefCell::new(HashMap::new());
    visit(
        blocks,
        &mut FnVisitor {
            on_block: |block: &Block| match block {
                Block::FootnoteDef { .. } => Walk::Skip,
                Block::Heading { .. }
                | Block::Paragraph { .. }
                | Block::List { .. }
                | Block::Quote { .. }
                | Block::Code { .. }
                | Block::Table { .. }
                | Block::Rule
                | Block::Raw { .. }
                | Block::Div { .. } => Walk::Continue,
            },
            on_inline: |inline: &Inline| {
                if let Inline::FootnoteRef { label } = inline {
                    *counts.borrow_mut().entry(label.clone()).or_default() += 1;
                }
                Walk::Continue
            },
        },
    );
    counts.into_inner()
}

/// One term or definition of a definition list.
struct DlItem<'b> {
    role: &'b Role,
    class: &'b str,
    attrs: &'b Attrs,
    blocks: &'b [Block],
}

/// The terms and definitions of a container whose role is a definition
/// list, when it holds only those and they pair up as HTML wants (a term
/// first, a definition last); `None` otherwise, and the container is
/// written as a plain `div`.
fn definition_items<'b>(role: Option<&Role>, blocks: &'b [Block]) -> Option<Vec<DlItem<'b>>> {
    if !role.is_some_and(Role::is_definition_list) {
        return None;
    }
    let items = blocks
        .iter()
        .map(|block| {
            let Block::Div {
                role: Some(role @ (Role::Term | Role::Definition)),
                class,
                attrs,
                blocks,
            } = block
            else {
                return None;
            };
            Some(DlItem {
                role,
                class,
                attrs,
                blocks,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let pairs = matches!(items.first(), Some(i) if *i.role == Role::Term)
        && matches!(items.last(), Some(i) if *i.role == Role::Definition);
    pairs.then_some(items)
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

/// True when the text holds a right-to-left letter (Hebrew, Arabic and kin).
fn has_rtl(inlines: &[Inline]) -> bool {
    stoa_doc::inlines_text(inlines)
        .chars()
        .any(|c| matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF))
}

/// An image whose size the web edition knows: said, so that the page does
/// not move as it loads; loaded when near the screen; and, beside a
/// smaller copy, the copy offered to narrow screens (`srcset`).
fn sized_image(
    url: &str,
    alt: &str,
    title: (&str, &str),
    made: &stoa_render::MadeImage,
    x: &mut Xml,
) {
    let (width, height) = (made.width.to_string(), made.height.to_string());
    let srcset = made.smaller.as_ref().map(|(_, w)| {
        format!(
            "{} {w}w, {url} {}w",
            stoa_render::smaller_name(url, *w),
            made.width
        )
    });
    let (srcset_attr, srcset) = match &srcset {
        Some(s) => ("srcset", s.as_str()),
        None => ("", ""),
    };
    // The text column is at most about 40em wide.
    let sizes = if srcset.is_empty() {
        ("", "")
    } else {
        ("sizes", "(max-width: 42em) 100vw, 40em")
    };
    x.empty(
        "img",
        &[
            ("src", url),
            (srcset_attr, srcset),
            sizes,
            ("alt", alt),
            title,
            ("width", &width),
            ("height", &height),
            ("loading", "lazy"),
            ("decoding", "async"),
        ],
    );
}

/// Whether a paragraph holds one image and nothing else but blanks.
fn is_lone_image(content: &[Inline]) -> bool {
    let mut visible = content.iter().filter(|i| match i {
        Inline::SoftBreak => false,
        Inline::Text { text } => !text.trim().is_empty(),
        _ => true,
    });
    matches!(
        (visible.next(), visible.next()),
        (Some(Inline::Image { .. }), None)
    )
}
