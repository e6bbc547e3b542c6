//! Folds pulldown-cmark's event stream into the tree with a stack of open
//! containers: each start event opens a frame, its end event closes it and
//! hands the finished node to the frame below.

use crate::ids::IdSet;
use crate::lines::LineIndex;
use crate::tag_node::TagNode;
use crate::typography::bind_punctuation;
use crate::{ImageRef, Parsed};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::collections::HashSet;
use std::ops::Range;
use stoa_doc::{Align, Block, Diagnostic, Inline, ListItem};

/// Schemes a link may use; anything else (`javascript:`, `data:`, ...) is dropped.
const SAFE_SCHEMES: &[&str] = &["http", "https", "mailto", "ftp"];

pub(crate) enum Frame {
    /// A container of blocks; loose inlines (tight list items) gather in `pending`.
    Blocks {
        kind: BlocksKind,
        blocks: Vec<Block>,
        pending: Vec<Inline>,
    },
    Inlines {
        kind: InlinesKind,
        content: Vec<Inline>,
    },
    List {
        start: Option<u64>,
        items: Vec<ListItem>,
        loose: bool,
    },
    Code {
        lang: Option<String>,
        text: String,
    },
    Html {
        text: String,
        offset: usize,
    },
    Table {
        align: Vec<Align>,
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
        in_head: bool,
    },
    Row {
        cells: Vec<Vec<Inline>>,
    },
}

pub(crate) enum BlocksKind {
    Root,
    Quote,
    Item { checked: Option<bool> },
    Footnote { label: String },
}

pub(crate) enum InlinesKind {
    Paragraph,
    Heading {
        level: u8,
        id: Option<String>,
    },
    Cell,
    Emph,
    Strong,
    Strike,
    Link {
        url: Option<String>,
        title: String,
    },
    Image {
        url: String,
        title: String,
    },
    /// An HTML element written in the text (`<sup>` … `</sup>`).
    Tag {
        name: String,
        node: TagNode,
    },
    /// `[`, not (yet) a link: the words of an index term when
    /// `]{.index …}` closes it, else the text it was.
    Bracket,
}

impl InlinesKind {
    /// Whether the frame is an HTML element's.
    pub(crate) fn is_tag(&self) -> bool {
        matches!(self, InlinesKind::Tag { .. })
    }
}

pub struct Builder<'a> {
    body: &'a str,
    pub(crate) lines: LineIndex<'a>,
    pub(crate) stack: Vec<Frame>,
    pub(crate) ids: IdSet,
    pub(crate) out: Parsed,
    /// Footnote references and definitions with their offsets, to warn
    /// about notes that are never defined or never used.
    note_refs: Vec<(String, usize)>,
    note_defs: Vec<(String, usize)>,
    /// Levels of nesting open: the frames [`counts`] says a reader sees as one.
    pub(crate) levels: usize,
    /// Of those, the inlines that hold inlines (emphasis, links, spans).
    pub(crate) inline_levels: usize,
    /// Containers opened beyond [`crate::MAX_NESTING`] and not yet closed:
    /// their events are folded into the deepest frame allowed, so the tree
    /// (and every recursive walk over it later) stays bounded.
    too_deep: usize,
    /// Whether the nesting error was reported (once per post).
    deep_reported: bool,
    /// The end of the last `{.index …}` read: the text events before it
    /// are its source, not the post's words.
    skip_to: usize,
    /// Reading the Markdown an HTML block became: HTML blocks in it are
    /// text (stoa-html-md escapes what Markdown would read as markup).
    pub(crate) nested: bool,
    /// HTML elements already reported as dropped or unknown.
    pub(crate) reported_tags: HashSet<String>,
    /// The open paragraph was cut around a numbered equation: what is left
    /// of it may be blank.
    split_paragraph: bool,
}

impl<'a> Builder<'a> {
    pub fn new(body: &'a str, first_line: usize) -> Self {
        Builder {
            body,
            lines: LineIndex::new(body, first_line),
            stack: vec![Frame::Blocks {
                kind: BlocksKind::Root,
                blocks: Vec::new(),
                pending: Vec::new(),
            }],
            ids: IdSet::default(),
            out: Parsed::default(),
            note_refs: Vec::new(),
            note_defs: Vec::new(),
            levels: 0,
            inline_levels: 0,
            too_deep: 0,
            deep_reported: false,
            skip_to: 0,
            nested: false,
            reported_tags: HashSet::new(),
            split_paragraph: false,
        }
    }

    pub fn run(mut self) -> Parsed {
        let mut blocks = self.fold_events();
        bind_all(&mut blocks);
        crate::tokens::mark(&mut blocks);
        self.check_notes();
        self.out.blocks = blocks;
        self.out
    }

    /// The blocks, what was reported and the ids taken, for the Markdown
    /// an HTML block became (the post's builder finishes them with its own).
    pub(crate) fn fold(mut self) -> (Vec<Block>, Parsed, IdSet) {
        let blocks = self.fold_events();
        (blocks, self.out, self.ids)
    }

    fn fold_events(&mut self) -> Vec<Block> {
        let body = self.body;
        for (event, range) in Parser::new_ext(body, crate::PARSER_OPTIONS).into_offset_iter() {
            self.event(event, range);
        }
        self.close_spans();
        let Some(Frame::Blocks {
            mut blocks,
            pending,
            ..
        }) = self.stack.pop()
        else {
            unreachable!("the root frame is the last one left")
        };
        flush(&mut blocks, pending);
        blocks
    }

    /// pulldown-cmark leaves a reference to a note that is never defined as
    /// the text `[^label]`; remember where, to warn about it.
    fn undefined_note(&mut self, offset: usize) {
        let rest = &self.body[offset..];
        let Some(after) = rest.strip_prefix("[^") else {
            return;
        };
        let Some(end) = after.find(']') else { return };
        let label = &after[..end];
        let in_code = matches!(
            self.stack.last(),
            Some(Frame::Code { .. } | Frame::Html { .. })
        );
        if !label.is_empty() && !label.contains(char::is_whitespace) && !in_code {
            self.note_refs.push((label.to_string(), offset));
        }
    }

    /// Warns about references to notes that are never defined (printed as
    /// written) and definitions that nothing refers to (not printed).
    fn check_notes(&mut self) {
        for (label, offset) in &self.note_refs {
            if !self.note_defs.iter().any(|(l, _)| l == label) {
                let pos = self.lines.pos(*offset);
                self.out.diagnostics.push(
                    Diagnostic::warning(format!(
                        "the note `[^{label}]` is never defined; it is printed as written"
                    ))
                    .at(pos.line, pos.column)
                    .with_hint(format!(
                        "add a line `[^{label}]: …` with the note, or remove the reference"
                    )),
                );
            }
        }
        for (label, offset) in &self.note_defs {
            if !self.note_refs.iter().any(|(l, _)| l == label) {
                let pos = self.lines.pos(*offset);
                self.out.diagnostics.push(
                    Diagnostic::warning(format!(
                        "the note `[^{label}]` is defined but never referred to; it is left out"
                    ))
                    .at(pos.line, pos.column)
                    .with_hint(format!(
                        "refer to it with `[^{label}]` in the text, or remove it"
                    )),
                );
            }
        }
    }

    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(end) => self.end(end),
            Event::Text(text) if range.start < self.skip_to => {
                // The rest of a text event an index term's `{…}` began in.
                let cut = self.skip_to - range.start;
                if text.len() == range.len() && cut < text.len() {
                    self.text(&text[cut..]);
                }
            }
            Event::SoftBreak if range.start < self.skip_to => {}
            Event::Text(text) if text.as_ref() == "[" && &self.body[range.clone()] == "[" => {
                self.open_bracket(range.start)
            }
            Event::Text(text) if text.as_ref() == "]" && &self.body[range.clone()] == "]" => {
                self.close_bracket(range)
            }
            Event::Text(text) => {
                self.undefined_note(range.start);
                let text = crate::tokens::unsmarten_option(self.body, &text, &range);
                self.text(text)
            }
            Event::Code(code) => self.inline(Inline::Code {
                text: code.to_string(),
            }),
            Event::InlineMath(tex) => self.math(&tex, false, range.start),
            Event::DisplayMath(tex) => self.math(&tex, true, range.start),
            Event::Html(html) => self.raw_html_line(&html, range.start),
            Event::InlineHtml(html) => self.inline_html(&html, range.start),
            Event::FootnoteReference(label) => {
                self.note_refs.push((label.to_string(), range.start));
                self.inline(Inline::FootnoteRef {
                    label: label.to_string(),
                })
            }
            Event::SoftBreak => self.inline(Inline::SoftBreak),
            Event::HardBreak => self.inline(Inline::LineBreak),
            Event::Rule => self.block(Block::Rule),
            Event::TaskListMarker(checked) => self.task_marker(checked),
        }
    }

    /// A formula (`$…$`, `$$…$$`): a span of role `math` holding its
    /// LaTeX as inline code (`stoa_math::span`). A formula that cannot be
    /// read is an error at its place, with the parser's reason.
    fn math(&mut self, tex: &str, display: bool, offset: usize) {
        // `$\eqref{key}$`: a reference, not a formula.
        if let Some(reference) = crate::mathjax::lone_reference(tex) {
            return self.inline(Inline::text(reference));
        }
        let numbered = match display {
            true => crate::mathjax::numbering(tex),
            false => crate::mathjax::Numbered {
                tex: tex.to_string(),
                label: None,
            },
        };
        // A formula MathJax's commands left is trimmed of the spaces they
        // stood between; any other is kept as written (its alt text).
        let tex = match numbered.tex == tex {
            true => tex,
            false => numbered.tex.trim(),
        };
        let formula = stoa_math::Formula { tex, display };
        if let Err(e) = formula.check() {
            let pos = self.lines.pos(offset);
            let mut hint = String::new();
            if !e.context.is_empty() {
                hint.push_str(&e.context);
                hint.push('\n');
            }
            hint.push_str(
                "write LaTeX math as KaTeX and MathJax read it; \
                 a dollar sign that is not math is written `\\$`",
            );
            // The book is still made: every format shows the formula's
            // LaTeX as code, and the author is told where.
            self.out.diagnostics.push(
                Diagnostic::warning(format!(
                    "the formula `{tex}` cannot be read ({}); it is printed as its LaTeX source",
                    e.message
                ))
                .at(pos.line, pos.column)
                .with_hint(hint),
            );
        }
        let span = stoa_math::span(tex, display);
        match numbered.label {
            Some(label) => self.numbered_equation(span, label, offset),
            None => self.inline(span),
        }
    }

    /// A display formula MathJax numbers (`\label`, `\tag`): a paragraph
    /// of its own followed by its stoa label, `$$…$$ {#eq:key}`, which
    /// stoa-xref numbers. The paragraph it stood in is cut around it.
    fn numbered_equation(&mut self, span: Inline, label: String, offset: usize) {
        let equation = Block::Paragraph {
            content: vec![span.clone(), Inline::text(format!(" {{#{label}}}"))],
        };
        let depth = self.stack.len();
        match self.stack.last_mut() {
            Some(Frame::Inlines {
                kind: InlinesKind::Paragraph,
                content,
            }) => {
                let before = trim_blank(std::mem::take(content));
                self.split_paragraph = true;
                if let Some(Frame::Blocks {
                    blocks, pending, ..
                }) = self.stack.get_mut(depth - 2)
                {
                    flush(blocks, std::mem::take(pending));
                    if !before.is_empty() {
                        blocks.push(Block::Paragraph { content: before });
                    }
                    blocks.push(equation);
                }
            }
            Some(Frame::Blocks { .. }) => self.block(equation),
            _ => {
                let pos = self.lines.pos(offset);
                self.out.diagnostics.push(
                    Diagnostic::warning(
                        "this formula's `\\label` or `\\tag` cannot number it here",
                    )
                    .at(pos.line, pos.column)
                    .with_hint("put the formula on lines of its own, outside emphasis and links"),
                );
                self.inline(span);
            }
        }
    }

    /// Opens `frame`, counting its level.
    pub(crate) fn push(&mut self, frame: Frame) {
        let level = level(&frame);
        self.levels += usize::from(level != Level::None);
        self.inline_levels += usize::from(level == Level::Inline);
        self.stack.push(frame);
    }

    /// Closes the innermost frame.
    pub(crate) fn pop(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        let level = level(&frame);
        self.levels -= usize::from(level != Level::None);
        self.inline_levels -= usize::from(level == Level::Inline);
        Some(frame)
    }

    /// Whether one more level of kind `level` would exceed
    /// [`crate::MAX_NESTING`] or [`crate::MAX_INLINE_NESTING`]; reports the
    /// error at `offset` the first time.
    pub(crate) fn at_limit(&mut self, offset: usize, level: Level) -> bool {
        let (limit, what) = match level {
            Level::None => return false,
            Level::Inline if self.inline_levels >= crate::MAX_INLINE_NESTING => (
                crate::MAX_INLINE_NESTING,
                "emphasis, links and language spans are",
            ),
            _ if self.levels >= crate::MAX_NESTING => (
                crate::MAX_NESTING,
                "the Markdown is (block quotes, list items, emphasis, links)",
            ),
            _ => return false,
        };
        if !self.deep_reported {
            self.deep_reported = true;
            let pos = self.lines.pos(offset);
            let (subject, detail) = what.split_once(" (").map_or((what, ""), |(s, d)| (s, d));
            let detail = if detail.is_empty() {
                String::new()
            } else {
                format!(" ({detail}")
            };
            self.out.diagnostics.push(
                Diagnostic::error(format!(
                    "{subject} nested more than {limit} levels deep here{detail}"
                ))
                .at(pos.line, pos.column)
                .with_hint("flatten the nesting: no reader can follow it, and no page can show it"),
            );
        }
        true
    }

    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        if self.too_deep > 0 {
            // Events nest, so the matching end is the next end at this count.
            self.too_deep += 1;
            return;
        }
        let frame = match tag {
            Tag::Paragraph => {
                if let Some(Frame::List { loose, .. }) = self.stack.iter_mut().rev().nth(1) {
                    *loose = true;
                }
                inlines(InlinesKind::Paragraph)
            }
            Tag::Heading { level, id, .. } => inlines(InlinesKind::Heading {
                level: level as u8,
                id: id.map(|id| id.to_string()),
            }),
            Tag::BlockQuote(_) => blocks(BlocksKind::Quote),
            Tag::CodeBlock(kind) => Frame::Code {
                lang: match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split_whitespace()
                        .next()
                        .map(str::to_string)
                        .filter(|l| !l.is_empty()),
                    CodeBlockKind::Indented => None,
                },
                text: String::new(),
            },
            Tag::HtmlBlock => Frame::Html {
                text: String::new(),
                offset: range.start,
            },
            Tag::List(start) => Frame::List {
                start,
                items: Vec::new(),
                loose: false,
            },
            Tag::Item => blocks(BlocksKind::Item { checked: None }),
            Tag::FootnoteDefinition(label) => {
                self.note_defs.push((label.to_string(), range.start));
                blocks(BlocksKind::Footnote {
                    label: label.to_string(),
                })
            }
            Tag::Table(aligns) => Frame::Table {
                align: aligns.into_iter().map(align).collect(),
                head: Vec::new(),
                rows: Vec::new(),
                in_head: false,
            },
            Tag::TableHead => {
                if let Some(Frame::Table { in_head, .. }) = self.stack.last_mut() {
                    *in_head = true;
                }
                Frame::Row { cells: Vec::new() }
            }
            Tag::TableRow => Frame::Row { cells: Vec::new() },
            Tag::TableCell => inlines(InlinesKind::Cell),
            Tag::Emphasis => inlines(InlinesKind::Emph),
            Tag::Strong => inlines(InlinesKind::Strong),
            Tag::Strikethrough => inlines(InlinesKind::Strike),
            Tag::Link {
                dest_url, title, ..
            } => {
                let url = self.checked_url(&dest_url, range.start);
                inlines(InlinesKind::Link {
                    url,
                    title: title.to_string(),
                })
            }
            Tag::Image {
                dest_url, title, ..
            } => {
                self.out.images.push(ImageRef {
                    url: dest_url.to_string(),
                    pos: self.lines.pos(range.start),
                });
                inlines(InlinesKind::Image {
                    url: dest_url.to_string(),
                    title: title.to_string(),
                })
            }
            // Not enabled in the parser options; kept as plain containers.
            Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => blocks(BlocksKind::Quote),
            Tag::Superscript | Tag::Subscript => inlines(InlinesKind::Emph),
        };
        if self.at_limit(range.start, level(&frame)) {
            self.too_deep = 1;
            return;
        }
        self.push(frame);
    }

    fn end(&mut self, end: TagEnd) {
        if self.too_deep > 0 {
            self.too_deep -= 1;
            return;
        }
        // An HTML element or a `[` left open ends with the element it is in.
        self.close_spans();
        let frame = self.pop().expect("an end event closes an open frame");
        match frame {
            Frame::Blocks {
                kind,
                mut blocks,
                pending,
            } => {
                flush(&mut blocks, pending);
                match kind {
                    BlocksKind::Root => unreachable!("the root never closes"),
                    BlocksKind::Quote => self.block(Block::Quote { blocks }),
                    BlocksKind::Footnote { label } => {
                        self.block(Block::FootnoteDef { label, blocks })
                    }
                    BlocksKind::Item { checked } => {
                        if let Some(Frame::List { items, .. }) = self.stack.last_mut() {
                            items.push(ListItem { checked, blocks });
                        }
                    }
                }
            }
            Frame::Inlines { kind, content } => self.close_inlines(kind, content),
            Frame::List {
                start,
                items,
                loose,
            } => self.block(Block::List {
                start,
                tight: !loose,
                items,
            }),
            Frame::Code { lang, text } => self.block(Block::Code { lang, text }),
            Frame::Html { text, offset } => self.html_block(text, offset),
            Frame::Table {
                align, head, rows, ..
            } => self.block(table(align, head, rows)),
            Frame::Row { cells } => {
                if let Some(Frame::Table {
                    head,
                    rows,
                    in_head,
                    ..
                }) = self.stack.last_mut()
                {
                    if *in_head && matches!(end, TagEnd::TableHead) {
                        *head = cells;
                        *in_head = false;
                    } else {
                        rows.push(cells);
                    }
                }
            }
        }
    }

    fn close_inlines(&mut self, kind: InlinesKind, content: Vec<Inline>) {
        match kind {
            InlinesKind::Paragraph if std::mem::take(&mut self.split_paragraph) => {
                let content = trim_blank(content);
                if !content.is_empty() {
                    self.block(Block::Paragraph { content });
                }
            }
            InlinesKind::Paragraph => self.block(Block::Paragraph { content }),
            // A heading without words (`##` alone) shows nothing and
            // leads nowhere: left out.
            InlinesKind::Heading { .. } if trim_blank(content.clone()).is_empty() => {}
            InlinesKind::Heading { level, id } => {
                let wanted = id.unwrap_or_else(|| stoa_doc::inlines_text(&content));
                let id = self.ids.unique(&wanted);
                self.block(Block::Heading { level, id, content })
            }
            InlinesKind::Cell => {
                if let Some(Frame::Row { cells }) = self.stack.last_mut() {
                    cells.push(content);
                }
            }
            InlinesKind::Emph => self.inline(Inline::Emph { content }),
            InlinesKind::Strong => self.inline(Inline::Strong { content }),
            InlinesKind::Strike => self.inline(Inline::Strike { content }),
            InlinesKind::Link {
                url: Some(url),
                title,
            } => self.inline(Inline::Link {
                url,
                title,
                content,
            }),
            // An unsafe link keeps its words and loses its target.
            InlinesKind::Link { url: None, .. } => {
                for inline in content {
                    self.inline(inline);
                }
            }
            // Only a `]` closes a bracket; kept as the text it was.
            InlinesKind::Bracket => {
                self.text("[");
                for inline in content {
                    self.inline(inline);
                }
            }
            InlinesKind::Tag { node, .. } => self.close_node(node, content),
            InlinesKind::Image { url, title } => self.inline(Inline::Image {
                url,
                alt: stoa_doc::inlines_text(&content),
                title,
            }),
        }
    }

    fn text(&mut self, text: &str) {
        match self.stack.last_mut() {
            Some(Frame::Code { text: code, .. }) => code.push_str(text),
            Some(Frame::Html { text: html, .. }) => html.push_str(text),
            _ => self.inline(Inline::text(crate::mathjax::refs_in_text(text))),
        }
    }

    pub(crate) fn inline(&mut self, inline: Inline) {
        match self.stack.last_mut() {
            Some(Frame::Inlines { content, .. }) => push_inline(content, inline),
            Some(Frame::Blocks { pending, .. }) => push_inline(pending, inline),
            _ => {}
        }
    }

    pub(crate) fn block(&mut self, block: Block) {
        if let Some(Frame::Blocks {
            blocks, pending, ..
        }) = self.stack.last_mut()
        {
            flush(blocks, std::mem::take(pending));
            blocks.push(block);
        }
    }

    fn task_marker(&mut self, checked: bool) {
        if let Some(Frame::Blocks {
            kind: BlocksKind::Item { checked: c },
            ..
        }) = self.stack.last_mut()
        {
            *c = Some(checked);
        }
    }

    fn raw_html_line(&mut self, html: &str, offset: usize) {
        match self.stack.last_mut() {
            Some(Frame::Html { text, .. }) => text.push_str(html),
            _ => self.inline_html(html, offset),
        }
    }

    /// A `[` that no link took: it may open an index term's words.
    fn open_bracket(&mut self, offset: usize) {
        self.undefined_note(offset);
        if self.too_deep > 0 || self.at_limit(offset, Level::Inline) {
            return self.text("[");
        }
        self.push(inlines(InlinesKind::Bracket));
    }

    /// A `]` that no link took: an index term when `{.index …}` follows
    /// it, else the text it was, closing the `[` before it.
    fn close_bracket(&mut self, range: Range<usize>) {
        let marked = crate::index_marks::read(self.body, range.end);
        let open = matches!(
            self.stack.last(),
            Some(Frame::Inlines {
                kind: InlinesKind::Bracket,
                ..
            })
        );
        let content = match open {
            true => match self.pop() {
                Some(Frame::Inlines { content, .. }) => Some(content),
                _ => None,
            },
            false => None,
        };
        let as_text = |b: &mut Self, content: Option<Vec<Inline>>| {
            if let Some(content) = content {
                b.text("[");
                for inline in content {
                    b.inline(inline);
                }
            }
            b.text("]");
        };
        match marked {
            None => as_text(self, content),
            Some(Err(m)) => {
                self.index_mistake(m.at, m.message, m.hint);
                as_text(self, content);
            }
            Some(Ok(marked)) => {
                self.skip_to = marked.end;
                let Some(content) = content else {
                    self.index_mistake(
                        range.start,
                        "this `]{.index}` closes no `[` of the same paragraph, emphasis or link"
                            .into(),
                        "put the words of the term in brackets: `[Flink]{.index}`".into(),
                    );
                    return;
                };
                match crate::index_marks::span(marked.attrs, content) {
                    Ok(span) => self.inline(span),
                    Err(why) => self.index_mistake(
                        range.start,
                        why.into(),
                        "write `[]{.index key=\"Flink\"}`, or put words in the brackets".into(),
                    ),
                }
            }
        }
    }

    /// An error in an index term, at byte `offset`.
    fn index_mistake(&mut self, offset: usize, message: String, hint: String) {
        let pos = self.lines.pos(offset);
        self.out.diagnostics.push(
            Diagnostic::error(message)
                .at(pos.line, pos.column)
                .with_hint(hint),
        );
    }

    /// Closes the HTML elements and `[` frames left open at the top.
    fn close_spans(&mut self) {
        loop {
            match self.stack.last() {
                Some(Frame::Inlines {
                    kind: InlinesKind::Tag { .. },
                    ..
                }) => self.close_top_tag(),
                Some(Frame::Inlines {
                    kind: InlinesKind::Bracket,
                    ..
                }) => {
                    if let Some(Frame::Inlines { content, .. }) = self.pop() {
                        self.text("[");
                        for inline in content {
                            self.inline(inline);
                        }
                    }
                }
                _ => break,
            }
        }
    }

    /// Returns the URL if it is safe to link to; warns and returns `None`
    /// otherwise. A link with no address (`[text]()`) is its text, with a
    /// warning: Typst refuses an empty URL, and an EPUB reader has nowhere
    /// to go. A scheme-less web address (`www.site.com/x`) is an `https:`
    /// link, as every browser's address bar reads it, not a file of the book.
    pub(crate) fn checked_url(&mut self, url: &str, offset: usize) -> Option<String> {
        if url.trim().is_empty() {
            let pos = self.lines.pos(offset);
            self.out.diagnostics.push(
                Diagnostic::warning("a link with no address; its text is kept")
                    .at(pos.line, pos.column)
                    .with_hint("write the address between the parentheses, `[text](https://…)`, or drop the brackets"),
            );
            return None;
        }
        if scheme(url).is_none() && url.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("www.")) {
            return Some(crate::url::encode(&format!("https://{url}")));
        }
        if let Some(rest) = url.strip_prefix("//") {
            return Some(crate::url::encode(&format!("https://{rest}")));
        }
        if scheme(url).is_none() && !url.starts_with('#') {
            return self.relative_link(url, offset);
        }
        match scheme(url) {
            Some(s) if !SAFE_SCHEMES.contains(&s.to_ascii_lowercase().as_str()) => {
                let pos = self.lines.pos(offset);
                self.out.diagnostics.push(
                    Diagnostic::warning(format!("link to `{s}:` dropped; its text is kept"))
                        .at(pos.line, pos.column)
                        .with_hint("only http, https, mailto and ftp links are allowed in a book"),
                );
                None
            }
            _ => Some(crate::url::encode(url)),
        }
    }

    /// A relative link: a book has no files to link to, only its posts. A
    /// link to another post as a blog writes it (`../on-anger/`,
    /// `on-anger.md`, `/posts/on-anger/index.html#part`) leads to that
    /// post's chapter (or the anchor it names), as `#on-anger` does; any
    /// other (`[GitHub](github)`, a typo for `[GitHub][github]`) keeps its
    /// words, with a warning: an EPUB would hold a link to nothing.
    fn relative_link(&mut self, url: &str, offset: usize) -> Option<String> {
        if let Some(id) = post_link(url) {
            return Some(format!("#{}", crate::url::encode(&id)));
        }
        let pos = self.lines.pos(offset);
        let label = url.trim().to_lowercase();
        let defined = self.body.lines().any(|line| {
            let line = line.trim_start().to_lowercase();
            line.strip_prefix('[')
                .and_then(|l| l.strip_prefix(label.as_str()))
                .is_some_and(|l| l.starts_with("]:"))
        });
        let hint = if defined {
            format!(
                "the post defines `[{label}]:`: write the link with brackets, `[text][{label}]`, not parentheses"
            )
        } else {
            "write a full address (`https://…`), or `#slug` to link to another post of the book"
                .to_string()
        };
        self.out.diagnostics.push(
            Diagnostic::warning(format!(
                "the link to `{url}` leads to no web address and no post; its text is kept"
            ))
            .at(pos.line, pos.column)
            .with_hint(hint),
        );
        None
    }
}

/// The anchor a relative link to another post leads to: the post's slug
/// (the last folder, or the file's name without `.md` or `.html`), or the
/// fragment it names. `None` when the link names no post.
fn post_link(url: &str) -> Option<String> {
    let (path, fragment) = match url.split_once('#') {
        Some((p, f)) => (p, Some(f).filter(|f| !f.is_empty())),
        None => (url, None),
    };
    let path = path.split('?').next().unwrap_or_default();
    let mut segments = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != "." && *s != "..");
    let mut last = segments.next_back()?;
    if matches!(last, "index.md" | "_index.md" | "index.html" | "index.htm") {
        last = segments.next_back()?;
    }
    let stem = [".md", ".markdown", ".html", ".htm"]
        .iter()
        .find_map(|ext| last.strip_suffix(ext));
    let names_post = stem.is_some() || path.ends_with('/') || path.contains('/');
    let slug = stem.unwrap_or(last);
    let slug_like = !slug.is_empty() && crate::slugify(slug) == slug;
    (names_post && slug_like).then(|| fragment.unwrap_or(slug).to_string())
}

/// Binds punctuation once text nodes are merged: smart punctuation hands
/// a dash over as a text event of its own, apart from the space before it.
fn bind_all(blocks: &mut [Block]) {
    stoa_doc::walk_inlines_mut(blocks, &mut |inlines| {
        for inline in inlines.iter_mut() {
            if let Inline::Text { text } = inline {
                *text = bind_punctuation(text);
            }
        }
    });
}

/// What level of nesting a frame adds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// None: a list is counted by its items, and a paragraph, heading or
    /// table holds its inlines at its own level.
    None,
    /// A quote, a list item, a note.
    Block,
    /// An inline that holds inlines.
    Inline,
}

fn level(frame: &Frame) -> Level {
    match frame {
        Frame::Blocks {
            kind: BlocksKind::Root,
            ..
        } => Level::None,
        Frame::Blocks { .. } => Level::Block,
        Frame::Inlines {
            kind: InlinesKind::Paragraph | InlinesKind::Heading { .. } | InlinesKind::Cell,
            ..
        } => Level::None,
        Frame::Inlines { .. } => Level::Inline,
        Frame::List { .. }
        | Frame::Code { .. }
        | Frame::Html { .. }
        | Frame::Table { .. }
        | Frame::Row { .. } => Level::None,
    }
}

fn inlines(kind: InlinesKind) -> Frame {
    Frame::Inlines {
        kind,
        content: Vec::new(),
    }
}

fn blocks(kind: BlocksKind) -> Frame {
    Frame::Blocks {
        kind,
        blocks: Vec::new(),
        pending: Vec::new(),
    }
}

/// Appends an inline, merging adjacent text so the tree stays small.
fn push_inline(content: &mut Vec<Inline>, inline: Inline) {
    if let (Some(Inline::Text { text: last }), Inline::Text { text }) =
        (content.last_mut(), &inline)
    {
        last.push_str(text);
        return;
    }
    content.push(inline);
}

/// Inlines without the line breaks and spaces at their ends.
fn trim_blank(mut content: Vec<Inline>) -> Vec<Inline> {
    let blank = |i: &Inline| match i {
        Inline::SoftBreak | Inline::LineBreak => true,
        Inline::Text { text } => text.trim().is_empty(),
        _ => false,
    };
    while content.last().is_some_and(blank) {
        content.pop();
    }
    let start = content
        .iter()
        .position(|i| !blank(i))
        .unwrap_or(content.len());
    content.drain(..start);
    if let Some(Inline::Text { text }) = content.last_mut() {
        text.truncate(text.trim_end().len());
    }
    if let Some(Inline::Text { text }) = content.first_mut() {
        *text = text.trim_start().to_string();
    }
    content
}

/// Turns the loose inlines of a tight list item into a paragraph.
fn flush(blocks: &mut Vec<Block>, pending: Vec<Inline>) {
    if !pending.is_empty() {
        blocks.push(Block::Paragraph { content: pending });
    }
}

/// The scheme of a URL (`javascript` in `javascript:alert(1)`), if it has one.
/// Browsers ignore whitespace and control characters inside a scheme, so they are
/// removed before looking.
pub(crate) fn scheme(url: &str) -> Option<String> {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect();
    let (scheme, _) = cleaned.split_once(':')?;
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_string())
}

fn align(a: pulldown_cmark::Alignment) -> Align {
    match a {
        pulldown_cmark::Alignment::None => Align::None,
        pulldown_cmark::Alignment::Left => Align::Left,
        pulldown_cmark::Alignment::Center => Align::Center,
        pulldown_cmark::Alignment::Right => Align::Right,
    }
}

/// A table whose rows all have one cell per column, padding short rows.
fn table(align: Vec<Align>, head: Vec<Vec<Inline>>, rows: Vec<Vec<Vec<Inline>>>) -> Block {
    let columns = align.len();
    let fit = |mut row: Vec<Vec<Inline>>| {
        row.resize_with(columns, Vec::new);
        row
    };
    Block::Table {
        align,
        head: fit(head),
        rows: rows.into_iter().map(fit).collect(),
    }
}
