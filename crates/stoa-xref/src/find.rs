//! Step 1: the labelled elements found in the posts, numbered in reading
//! order and made the tree's figures and equations.

use crate::{Problem, Settings, Target, Targets, label_text};
use std::collections::HashMap;
use stoa_doc::xref::{self, Kind, label_id};
use stoa_doc::{Attrs, Block, Book, ChapterKind, Inline, Labels, Role, inline_text, inlines_text};

/// Finds and numbers every labelled element of `book`'s posts.
pub(crate) fn number(book: &mut Book, settings: &Settings, problems: &mut Vec<Problem>) -> Targets {
    let mut n = Numberer {
        settings,
        labels: book.labels.clone(),
        chapter: 0,
        post: 0,
        counts: HashMap::new(),
        targets: Targets::new(),
        seen: HashMap::new(),
        problems,
    };
    for (index, chapter) in book.chapters.iter_mut().enumerate() {
        if !matches!(chapter.kind, ChapterKind::Post | ChapterKind::About) {
            continue;
        }
        n.chapter = index;
        n.post += 1;
        if settings.per_chapter {
            n.counts.clear();
        }
        n.seen.clear();
        n.blocks(&mut chapter.blocks);
    }
    n.targets
}

struct Numberer<'a> {
    settings: &'a Settings,
    labels: Labels,
    /// The chapter being read, and which post it is (from 1).
    chapter: usize,
    post: usize,
    /// How many of each kind are numbered so far (in the book, or in the
    /// chapter when numbered per chapter).
    counts: HashMap<Kind, usize>,
    targets: Targets,
    /// How often each label was written in this chapter so far, to find
    /// the one a problem is about in its file.
    seen: HashMap<String, usize>,
    problems: &'a mut Vec<Problem>,
}

/// What a block labels, as written.
enum Labelled {
    /// An image alone in its paragraph, then `{#fig:…}`: its caption.
    Image(String),
    /// A display formula alone in its paragraph, then `{#eq:…}`.
    Equation,
    /// `: A caption {#tbl:…}`: the caption's inlines, for the block
    /// before or after it.
    Caption(Vec<Inline>),
}

impl Numberer<'_> {
    /// Numbers the labelled blocks of `blocks` (and of the blocks inside
    /// them), in reading order.
    fn blocks(&mut self, blocks: &mut Vec<Block>) {
        let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
        // Whether `out`'s last block may still take a caption.
        let mut open = false;
        let mut input = std::mem::take(blocks).into_iter().peekable();
        while let Some(mut block) = input.next() {
            match labelled(&mut block) {
                Some((label, Labelled::Image(caption))) => {
                    let caption = vec![Inline::text(caption)];
                    out.push(self.figure(&label, Kind::Figure, block, caption));
                    open = false;
                }
                Some((label, Labelled::Equation)) => {
                    out.push(self.equation(&label, block));
                    open = false;
                }
                Some((label, Labelled::Caption(caption))) => {
                    let kind = Kind::of_label(&label).unwrap_or(Kind::Figure);
                    if open && out.last().is_some_and(|b| takes(kind, b)) {
                        let target = out.pop().unwrap_or(Block::Rule);
                        out.push(self.figure(&label, kind, target, caption));
                    } else if input.peek().is_some_and(|b| takes(kind, b)) {
                        let target = input.next().unwrap_or(Block::Rule);
                        out.push(self.figure(&label, kind, target, caption));
                    } else {
                        self.lonely_caption(&label, kind);
                        out.push(block);
                    }
                    open = false;
                }
                None => {
                    for child in block.child_blocks_mut() {
                        self.blocks(child);
                    }
                    open = true;
                    out.push(block);
                }
            }
        }
        *blocks = out;
    }

    /// The next number of `kind`, as printed: `3`, or `2.3` per chapter.
    fn next(&mut self, kind: Kind) -> String {
        let n = self.counts.entry(kind).or_default();
        *n += 1;
        if self.settings.per_chapter {
            format!("{}.{n}", self.post)
        } else {
            n.to_string()
        }
    }

    /// Records `label` as naming an element of `kind`; false (and a
    /// problem) when another element already has it.
    fn claim(&mut self, label: &str, kind: Kind, number: &str, caption: &[Inline]) -> bool {
        let nth = self.seen.entry(label.to_string()).or_default();
        let occurrence = *nth;
        *nth += 1;
        if let Some(first) = self.targets.get(label) {
            let (what, number) = (first.kind.name(), first.number.clone());
            self.problems.push(Problem {
                chapter: self.chapter,
                needle: format!("{{#{label}}}"),
                nth: occurrence,
                message: format!("the label `{label}` is given twice"),
                hint: format!(
                    "it already names {what} {number}; give this one another name, e.g. `{label}-2`"
                ),
            });
            return false;
        }
        self.targets.insert(
            label.to_string(),
            Target {
                kind,
                chapter: self.chapter,
                number: number.to_string(),
                caption: caption.to_vec(),
                order: self.targets.len(),
            },
        );
        true
    }

    /// `content` made the numbered figure, table or listing `label`, with
    /// its caption (above a table or listing, below a figure).
    fn figure(&mut self, label: &str, kind: Kind, content: Block, caption: Vec<Inline>) -> Block {
        let content = match (kind, content) {
            // The caption is the figure's now: not the image's too.
            (Kind::Figure, Block::Paragraph { content }) => Block::Paragraph {
                content: content.into_iter().map(untitled).collect(),
            },
            (_, other) => other,
        };
        let number = self.next(kind);
        if !self.claim(label, kind, &number, &caption) {
            return content;
        }
        let caption = self.caption(kind, &number, caption);
        let blocks = match kind {
            Kind::Table | Kind::Listing => vec![caption, content],
            Kind::Figure | Kind::Equation => vec![content, caption],
        };
        div(
            xref::FIGURE_ROLE,
            attrs(&[
                ("id", &label_id(label)),
                (xref::KIND, kind.name()),
                (xref::NUMBER, &number),
            ]),
            blocks,
        )
    }

    /// The caption: "Figure 3", the separator, the author's words.
    fn caption(&self, kind: Kind, number: &str, words: Vec<Inline>) -> Block {
        let mut content = vec![span(
            xref::CAPTION_LABEL_ROLE,
            vec![Inline::text(label_text(&self.labels, kind, number))],
        )];
        if !inlines_text(&words).trim().is_empty() {
            content.push(Inline::text(caption_separator(&self.labels)));
            content.extend(words);
        }
        div(
            xref::CAPTION_ROLE,
            Attrs::new(),
            vec![Block::Paragraph { content }],
        )
    }

    /// The display formula of `block` numbered as `label`: the number at
    /// the right of its line, "(3)".
    fn equation(&mut self, label: &str, block: Block) -> Block {
        let number = self.next(Kind::Equation);
        if !self.claim(label, Kind::Equation, &number, &[]) {
            return block;
        }
        let Block::Paragraph { mut content } = block else {
            return block;
        };
        content.retain(|i| !is_blank(i));
        content.push(span(
            xref::EQUATION_NUMBER_ROLE,
            vec![Inline::text(format!("({number})"))],
        ));
        div(
            xref::EQUATION_ROLE,
            attrs(&[("id", &label_id(label)), (xref::NUMBER, &number)]),
            vec![Block::Paragraph { content }],
        )
    }

    /// A caption with a label and nothing beside it to caption.
    fn lonely_caption(&mut self, label: &str, kind: Kind) {
        let nth = self.seen.entry(label.to_string()).or_default();
        let occurrence = *nth;
        *nth += 1;
        let what = match kind {
            Kind::Table => "a table",
            Kind::Listing => "a code block",
            Kind::Figure => "an image or a diagram",
            Kind::Equation => "nothing: an equation's label follows its formula",
        };
        let hint = match kind {
            Kind::Equation => format!("write it after the formula: `$$ … $$ {{#{label}}}`"),
            _ => format!(
                "put the caption on the line just before or after {what}, a blank line between"
            ),
        };
        self.problems.push(Problem {
            chapter: self.chapter,
            needle: format!("{{#{label}}}"),
            nth: occurrence,
            message: format!(
                "the caption labelled `{label}` is next to no {}",
                kind.name()
            ),
            hint,
        });
    }
}

/// What goes between a caption's label and its words: the separator and a
/// space (`Figure 3. A wall`), a dash between spaces, the first one not
/// breaking (`Figura 3 – Um muro`); a full-width space or colon alone, as
/// Chinese and Japanese set them (`图 3　标题`).
pub(crate) fn caption_separator(labels: &Labels) -> String {
    let given = &labels.caption_separator;
    if given.starts_with(['\u{3000}', '：']) {
        return given.to_string();
    }
    let sep = given.trim();
    if sep.starts_with(['–', '—', '-']) {
        format!("\u{a0}{sep} ")
    } else {
        format!("{sep} ")
    }
}

/// Whether `block` is what a caption of `kind` can caption.
fn takes(kind: Kind, block: &Block) -> bool {
    match kind {
        Kind::Table => matches!(block, Block::Table { .. }),
        Kind::Listing => matches!(block, Block::Code { .. }),
        Kind::Figure => stoa_diagram::diagram_of(block).is_some() || lone_image(block).is_some(),
        Kind::Equation => false,
    }
}

/// What `block` labels, its label taken out of it; `None` for a block
/// that labels nothing (left as it was).
fn labelled(block: &mut Block) -> Option<(String, Labelled)> {
    let Block::Paragraph { content } = block else {
        return None;
    };
    let text = inlines_text(content);
    let (label, start) = trailing_label(&text)?;
    let caption = caption_of(&text[..start]);
    let mut kept = content.clone();
    if !strip_suffix(&mut kept, text.len() - start) {
        return None;
    }
    let kind = Kind::of_label(&label)?;
    let found = match (caption, kind) {
        // The caption paragraph goes; what it labels takes its words.
        (Some(prefix), _) => {
            let mut words = kept;
            if !strip_prefix(&mut words, prefix) {
                return None;
            }
            return Some((label, Labelled::Caption(words)));
        }
        (None, Kind::Figure) => {
            let probe = Block::Paragraph {
                content: kept.clone(),
            };
            let caption = lone_image(&probe)?;
            Labelled::Image(caption)
        }
        (None, Kind::Equation) => {
            let mut visible = kept.iter().filter(|i| !is_blank(i));
            match (visible.next(), visible.next()) {
                (
                    Some(
                        math @ Inline::Span {
                            role: Some(Role::Math),
                            ..
                        },
                    ),
                    None,
                ) if is_display(math) => {}
                _ => return None,
            }
            Labelled::Equation
        }
        (None, _) => return None,
    };
    *content = kept;
    Some((label, found))
}

/// The caption an image alone in its paragraph gives its figure: its
/// title, else its description.
fn lone_image(block: &Block) -> Option<String> {
    let Block::Paragraph { content } = block else {
        return None;
    };
    let mut visible = content.iter().filter(|i| !is_blank(i));
    match (visible.next(), visible.next()) {
        (Some(Inline::Image { alt, title, .. }), None) => Some(if title.is_empty() {
            alt.clone()
        } else {
            title.clone()
        }),
        _ => None,
    }
}

fn is_display(math: &Inline) -> bool {
    let Inline::Span { attrs, content, .. } = math else {
        return false;
    };
    stoa_math::of_span(attrs, content).1
}

/// `{#fig:name}` at the end of `text` (spaces after it aside): the label
/// and the byte where the braces begin.
pub(crate) fn trailing_label(text: &str) -> Option<(String, usize)> {
    let trimmed = text.trim_end();
    let inner = trimmed.strip_suffix('}')?;
    let start = inner.rfind("{#")?;
    let label = inner[start + 2..].trim();
    let valid = Kind::of_label(label).is_some() && label.chars().all(is_label_char);
    valid.then(|| (label.to_string(), start))
}

/// Whether `c` may be in a label's name (after its prefix).
pub(crate) fn is_label_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')
}

/// The prefix that makes a paragraph a caption (`: `, or pandoc's
/// `Table: ` and `Listing: `), if `text` begins with one.
fn caption_of(text: &str) -> Option<&'static str> {
    [": ", "Table: ", "Listing: ", "Figure: "]
        .into_iter()
        .find(|p| text.starts_with(p))
}

/// Takes the last `bytes` of text off `content` (whole inlines, or the end
/// of a text), then the spaces before them; false when the cut falls
/// inside an inline that is not text.
fn strip_suffix(content: &mut Vec<Inline>, mut bytes: usize) -> bool {
    while bytes > 0 {
        let Some(last) = content.last_mut() else {
            return false;
        };
        let len = inline_text(last).len();
        if len <= bytes {
            content.pop();
            bytes -= len;
        } else if let Inline::Text { text } = last {
            text.truncate(text.len() - bytes);
            bytes = 0;
        } else {
            return false;
        }
    }
    while let Some(last) = content.last_mut() {
        match last {
            Inline::SoftBreak => {
                content.pop();
            }
            Inline::Text { text } if text.trim().is_empty() => {
                content.pop();
            }
            Inline::Text { text } => {
                let kept = text.trim_end().len();
                text.truncate(kept);
                break;
            }
            _ => break,
        }
    }
    true
}

/// Takes `prefix` off the first text of `content`.
fn strip_prefix(content: &mut Vec<Inline>, prefix: &str) -> bool {
    match content.first_mut() {
        Some(Inline::Text { text }) if text.starts_with(prefix) => {
            text.replace_range(..prefix.len(), "");
            if text.is_empty() {
                content.remove(0);
            }
            true
        }
        _ => false,
    }
}

fn untitled(inline: Inline) -> Inline {
    match inline {
        Inline::Image { url, alt, .. } => Inline::Image {
            url,
            alt,
            title: String::new(),
        },
        other => other,
    }
}

pub(crate) fn is_blank(inline: &Inline) -> bool {
    match inline {
        Inline::SoftBreak => true,
        Inline::Text { text } => text.trim().is_empty(),
        _ => false,
    }
}

pub(crate) fn attrs(pairs: &[(&str, &str)]) -> Attrs {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

pub(crate) fn div(role: &str, attrs: Attrs, blocks: Vec<Block>) -> Block {
    Block::Div {
        role: Some(Role::Other(role.into())),
        class: role.into(),
        attrs,
        blocks,
    }
}

pub(crate) fn span(role: &str, content: Vec<Inline>) -> Inline {
    Inline::Span {
        role: Some(Role::Other(role.into())),
        class: role.into(),
        attrs: Attrs::new(),
        content,
    }
}
