//! A post's Markdown as the lints see it: its top-level blocks in order, each
//! with its first line, plain text and the source position of each piece of
//! text. The document tree carries no source positions, so the lints read
//! pulldown-cmark's events with their offsets, in the dialect stoa-markdown
//! parses posts in ([`stoa_markdown::VERBATIM_OPTIONS`]).

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

/// What a top-level block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A heading of this level.
    Heading(u8),
    /// A paragraph.
    Paragraph,
    /// A paragraph that holds only images, or a diagram: a figure.
    Figure,
    /// A list.
    List,
    /// A block quote.
    Quote,
    /// A code block.
    Code,
    /// A table.
    Table,
    /// A thematic break.
    Rule,
    /// Raw HTML (a comment, most often).
    Html,
    /// A footnote definition.
    Note,
}

/// A piece of text with where it starts in the file.
#[derive(Clone, Debug)]
pub struct Piece {
    /// Byte offset of the piece in the block's `text`.
    pub at: usize,
    /// Byte offset in the file.
    pub source: usize,
}

/// One top-level block.
#[derive(Clone, Debug)]
pub struct Block {
    /// What it is.
    pub kind: Kind,
    /// Byte offset of its start in the file.
    pub start: usize,
    /// Its plain text (code excluded), paragraphs inside separated by `\n`.
    pub text: String,
    /// Where each piece of `text` comes from.
    pub pieces: Vec<Piece>,
    /// The heading's id: `{#id}`, or made from its text as stoa does.
    pub id: Option<String>,
    /// The links in it: target and offset in the file.
    pub links: Vec<(String, usize)>,
    /// The ids it defines (`{#id}` on headings inside, footnote labels).
    pub ids: Vec<String>,
    /// The items of a list, as plain text with their offset in the file.
    pub items: Vec<(String, usize)>,
    /// Byte ranges of `text` inside `<span lang="…">`: a language the
    /// author declared, which is no slip.
    pub declared: Vec<std::ops::Range<usize>>,
}

impl Block {
    /// The file offset of byte `at` of the block's text.
    pub fn source_of(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.at <= at);
        match i.checked_sub(1).map(|i| &self.pieces[i]) {
            Some(p) => p.source + (at - p.at),
            None => self.start,
        }
    }
}

/// The top-level blocks of the Markdown `body`, which starts `base` bytes into the file.
pub fn blocks(body: &str, base: usize) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut depth = 0usize;
    let mut item_depth = 0usize;
    let mut image_depth = 0usize;
    let mut current: Option<Block> = None;
    let mut has_text = false;
    let mut has_image = false;
    let mut in_code = false;
    let mut item: Option<(String, usize)> = None;
    let mut spans: Vec<usize> = Vec::new();
    // The parser's dialect, with the text as written: each piece of a
    // block's text maps back to its bytes in the file.
    let options = stoa_markdown::VERBATIM_OPTIONS;
    for (event, range) in Parser::new_ext(body, options).into_offset_iter() {
        let offset = base + range.start;
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    (has_text, has_image) = (false, false);
                    let kind = match &tag {
                        Tag::Heading { level, .. } => Kind::Heading(level_number(*level)),
                        Tag::List(_) => Kind::List,
                        Tag::BlockQuote(_) => Kind::Quote,
                        Tag::CodeBlock(_) => Kind::Code,
                        Tag::Table(_) => Kind::Table,
                        Tag::HtmlBlock => Kind::Html,
                        Tag::FootnoteDefinition(_) => Kind::Note,
                        _ => Kind::Paragraph,
                    };
                    let mut block = new_block(kind, offset);
                    if let Tag::Heading { id: Some(id), .. } = &tag {
                        block.id = Some(id.to_string());
                    }
                    if let Tag::FootnoteDefinition(label) = &tag {
                        block.ids.push(label.to_string());
                    }
                    current = Some(block);
                }
                depth += 1;
                let Some(b) = current.as_mut() else { continue };
                match &tag {
                    Tag::Item => {
                        item_depth += 1;
                        if item_depth == 1 {
                            item = Some((String::new(), offset));
                        }
                    }
                    Tag::Paragraph
                        if depth > 1 && !b.text.is_empty() && !b.text.ends_with('\n') =>
                    {
                        b.text.push('\n');
                    }
                    Tag::Heading { id: Some(id), .. } if depth > 1 => b.ids.push(id.to_string()),
                    Tag::FootnoteDefinition(label) if depth > 1 => b.ids.push(label.to_string()),
                    Tag::Link { dest_url, .. } => b.links.push((dest_url.to_string(), offset)),
                    Tag::Image { .. } => {
                        image_depth += 1;
                        has_image = true;
                    }
                    Tag::CodeBlock(kind) => {
                        in_code = true;
                        // A diagram written as code is drawn as a figure.
                        if let pulldown_cmark::CodeBlockKind::Fenced(info) = kind
                            && info.trim_start().starts_with("mermaid")
                            && depth == 1
                        {
                            b.kind = Kind::Figure;
                        }
                    }
                    _ => {}
                }
            }
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                match end {
                    TagEnd::Item => {
                        if item_depth == 1
                            && let (Some(b), Some(i)) = (current.as_mut(), item.take())
                        {
                            b.items.push((i.0.trim().to_string(), i.1));
                        }
                        item_depth = item_depth.saturating_sub(1);
                        if let Some(b) = current.as_mut()
                            && !b.text.ends_with('\n')
                        {
                            b.text.push('\n');
                        }
                    }
                    TagEnd::Image => image_depth = image_depth.saturating_sub(1),
                    TagEnd::CodeBlock => in_code = false,
                    _ => {}
                }
                if depth == 0
                    && let Some(mut block) = current.take()
                {
                    spans.clear();
                    if block.kind == Kind::Paragraph && has_image && !has_text {
                        block.kind = Kind::Figure;
                    }
                    if let Kind::Heading(_) = block.kind
                        && block.id.is_none()
                    {
                        block.id = Some(stoa_markdown::slugify(block.text.trim()));
                    }
                    out.push(block);
                }
            }
            Event::Text(text) | Event::Code(text) => {
                if in_code || image_depth > 0 {
                    continue;
                }
                let Some(b) = current.as_mut() else { continue };
                if !text.trim().is_empty() {
                    has_text = true;
                }
                b.pieces.push(Piece {
                    at: b.text.len(),
                    source: offset,
                });
                b.text.push_str(&text);
                if let Some(i) = item.as_mut() {
                    i.0.push_str(&text);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(b) = current.as_mut() {
                    b.text.push(' ');
                }
                if let Some(i) = item.as_mut() {
                    i.0.push(' ');
                }
            }
            Event::Rule if depth == 0 => out.push(new_block(Kind::Rule, offset)),
            Event::Html(html) | Event::InlineHtml(html) => {
                if depth == 0 {
                    let mut block = new_block(Kind::Html, offset);
                    block.text.push_str(&html);
                    out.push(block);
                } else if let Some(b) = current.as_mut() {
                    if b.kind == Kind::Html {
                        b.text.push_str(&html);
                    } else {
                        let tag = html.trim().to_ascii_lowercase();
                        if tag.starts_with("<span") && tag.contains("lang=") {
                            spans.push(b.text.len());
                        } else if tag == "</span>"
                            && let Some(start) = spans.pop()
                        {
                            b.declared.push(start..b.text.len());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn new_block(kind: Kind, start: usize) -> Block {
    Block {
        kind,
        start,
        text: String::new(),
        pieces: Vec::new(),
        id: None,
        links: Vec::new(),
        ids: Vec::new(),
        items: Vec::new(),
        declared: Vec::new(),
    }
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}
