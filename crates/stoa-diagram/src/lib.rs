//! Draws diagrams written as code (Mermaid) as SVG with a text alternative,
//! once per edition, in a pass over the tree that every format then reads.
//!
//! The author writes a fenced code block whose info string is `mermaid`.
//! [`draw_book`] replaces each such block with a container (role
//! [`ROLE`]) that holds the drawing (SVG), a text alternative (the nodes and
//! edges in words, for screen readers) and the caption, and keeps the
//! original code block as its only child: a renderer that does not know
//! diagrams shows the code, and every renderer that does draws the same
//! picture ([`diagram_of`]). A diagram that cannot be drawn stays a code
//! block and becomes a warning naming the file and the line; a block whose
//! info string is `mermaid-source` is shown as code on purpose.
//!
//! The drawing is made by the `mermaid-svg` crate. Of the pure-Rust
//! Mermaid renderers it is the one whose output every format can embed as
//! it is (presentation attributes only: no CSS, no `foreignObject`, no
//! filters, no system fonts) and the lightest by far (one dependency, some
//! 40k lines, against some 400k lines and 25 crates for `merman`, whose
//! layout is closer to Mermaid's own); `mermaid-rs-renderer` scans the
//! system's fonts, which makes a drawing depend on the machine. Its layout
//! does not keep a subgraph's nodes together, so flowcharts with groups
//! are laid out here instead ([`flow`], [`layout`]): each group on its own,
//! then as one block of its parent, so that frames never overlap and no
//! arrow crosses a group's name.

mod alt;
mod flow;
mod layout;
mod svg;
mod words;

use stoa_doc::{Attrs, Block, Book, Diagnostic, Role};

/// The info string of a diagram drawn from Mermaid code.
pub const LANG: &str = "mermaid";
/// The info string of Mermaid code shown as code, on the author's request.
pub const SOURCE_LANG: &str = "mermaid-source";
/// The role (a [`Role::Other`] name) of the container holding a drawing.
pub const ROLE: &str = "diagram";
/// The container's class, for style sheets.
pub const CLASS: &str = "diagram";
/// The font family the drawings are set in: the classic theme's body face,
/// so that a diagram reads as part of the page in print and on screen.
pub const FONT: &str = "Libertinus Serif, serif";

/// The largest diagram drawn, in bytes of code: layout time grows faster
/// than the diagram, and a diagram this long is no longer read as a
/// picture. A longer one is shown as code, with a warning.
pub const MAX_SOURCE_BYTES: usize = 16 * 1024;

const SVG_KEY: &str = "stoa:svg";
const ALT_KEY: &str = "stoa:alt";
const CAPTION_KEY: &str = "stoa:caption";
const WIDTH_KEY: &str = "stoa:width";
const HEIGHT_KEY: &str = "stoa:height";

/// One diagram, drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// A standalone SVG document (`<svg xmlns=…>`), with `role="img"`, a
    /// `<title>` and a `<desc>`, its ids prefixed so that several drawings
    /// can share one page.
    pub svg: String,
    /// The text alternative: what the diagram shows, in words.
    pub alt: String,
    /// The caption the author gave (the diagram's `title:`), if any.
    pub caption: Option<String>,
    /// Natural width in CSS pixels.
    pub width: f64,
    /// Natural height in CSS pixels.
    pub height: f64,
}

/// Why a diagram could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawError {
    /// What is wrong, as the renderer said it.
    pub message: String,
    /// The 1-based line inside the diagram's code, when known.
    pub line: Option<usize>,
}

/// Draws the Mermaid code `source` for a book in language `lang` (its text
/// alternative is written in that language). `id_prefix` is put before
/// every id inside the SVG, and must be unique in the book.
pub fn draw(source: &str, lang: &str, id_prefix: &str) -> Result<Drawing, DrawError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(DrawError {
            message: format!(
                "its code is {} KiB, more than the {} KiB stoa draws",
                source.len().div_ceil(1024),
                MAX_SOURCE_BYTES / 1024
            ),
            line: None,
        });
    }
    let (caption, body) = svg::split_caption(source);
    let theme = mermaid_svg::Theme::neutral().with_font(FONT);
    let (diagram, meta) = mermaid_svg::parse_with_meta(&body).map_err(parse_error)?;
    let own = match &diagram {
        mermaid_svg::Diagram::Flowchart(chart) => flow::plan(chart),
        _ => None,
    };
    let raw = match own {
        Some(scene) => flow::render(&scene, &theme),
        None => mermaid_svg::render_with(&body, &theme).map_err(|e| match e {
            mermaid_svg::RenderError::Parse(e) => parse_error(e),
            other => DrawError {
                message: other.to_string(),
                line: None,
            },
        })?,
    };
    let words = words::for_lang(lang);
    let alt = match meta.acc_descr.as_deref().map(str::trim) {
        Some(described) if !described.is_empty() => described.to_string(),
        _ => alt::describe(&diagram, words, &raw),
    };
    let title = caption
        .clone()
        .or_else(|| meta.acc_title.clone())
        .unwrap_or_else(|| alt::kind_name(&diagram, words).to_string());
    let fixed = svg::finish(&raw, id_prefix, &title, &alt).ok_or_else(|| DrawError {
        message: "the renderer returned no SVG drawing".into(),
        line: None,
    })?;
    Ok(Drawing {
        svg: fixed.svg,
        alt,
        caption,
        width: fixed.width,
        height: fixed.height,
    })
}

fn parse_error(e: mermaid_svg::ParseError) -> DrawError {
    let line = match &e {
        mermaid_svg::ParseError::Syntax { line, .. } => Some(*line),
        _ => None,
    };
    DrawError {
        message: e.to_string(),
        line,
    }
}

/// A drawing as the tree carries it, borrowed from a container.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiagramRef<'a> {
    /// The SVG document ([`Drawing::svg`]).
    pub svg: &'a str,
    /// The text alternative.
    pub alt: &'a str,
    /// The caption, if the author gave one.
    pub caption: Option<&'a str>,
    /// Natural width in CSS pixels.
    pub width: f64,
    /// Natural height in CSS pixels.
    pub height: f64,
}

/// The drawing a container holds, if `block` is one made by [`draw_book`].
/// Renderers call this on every [`Block::Div`]; anything else is `None`.
pub fn diagram_of(block: &Block) -> Option<DiagramRef<'_>> {
    let Block::Div {
        role: Some(Role::Other(role)),
        attrs,
        ..
    } = block
    else {
        return None;
    };
    if role != ROLE {
        return None;
    }
    let number = |key: &str| attrs.get(key).and_then(|v| v.parse::<f64>().ok());
    Some(DiagramRef {
        svg: attrs.get(SVG_KEY)?,
        alt: attrs.get(ALT_KEY)?,
        caption: attrs.get(CAPTION_KEY).map(String::as_str),
        width: number(WIDTH_KEY)?,
        height: number(HEIGHT_KEY)?,
    })
}

/// The container that carries `drawing` in the tree, keeping `code` (the
/// original block) as its child.
fn container(drawing: Drawing, code: Block) -> Block {
    let mut attrs = Attrs::new();
    attrs.insert(SVG_KEY.into(), drawing.svg);
    attrs.insert(ALT_KEY.into(), drawing.alt);
    if let Some(caption) = drawing.caption {
        attrs.insert(CAPTION_KEY.into(), caption);
    }
    attrs.insert(WIDTH_KEY.into(), number(drawing.width));
    attrs.insert(HEIGHT_KEY.into(), number(drawing.height));
    Block::Div {
        role: Some(Role::Other(ROLE.into())),
        class: CLASS.into(),
        attrs,
        blocks: vec![code],
    }
}

/// A length written with at most two decimals, the same on every platform.
fn number(value: f64) -> String {
    let s = format!("{value:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Draws every `mermaid` code block of `book`, in place. `read` returns the
/// text of a chapter's source file (its `source`), used only to find the
/// line of a diagram that cannot be drawn; it may return `None`. Returns
/// one warning per diagram left as code.
pub fn draw_book(book: &mut Book, read: &dyn Fn(&str) -> Option<String>) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let lang = book.lang.clone();
    for chapter in &mut book.chapters {
        let mut count = 0;
        let mut failures = Vec::new();
        let slug = chapter.slug.clone();
        each_code_block(&mut chapter.blocks, &mut |block| {
            let Block::Code {
                lang: Some(info),
                text,
            } = block
            else {
                return;
            };
            if info != LANG {
                return;
            }
            count += 1;
            let prefix = format!("dg-{slug}-{count}-");
            match draw(text, &lang, &prefix) {
                Ok(drawing) => {
                    let code = std::mem::replace(block, Block::Rule);
                    *block = container(drawing, code);
                }
                Err(error) => failures.push((text.clone(), error)),
            }
        });
        let file = chapter.source.clone();
        let source = file.as_deref().and_then(read);
        let mut from = 0;
        for (text, error) in failures {
            let mut warning = Diagnostic::warning(format!(
                "this Mermaid diagram cannot be drawn ({}); its code is shown instead",
                error.message
            ))
            .with_hint(format!(
                "fix the diagram, or write ```{SOURCE_LANG} to show the code on purpose"
            ));
            if let Some(file) = &file {
                warning = warning.in_file(file);
                if let Some((line, next)) =
                    source.as_deref().and_then(|s| fence_line(s, &text, from))
                {
                    from = next;
                    warning = warning.at(line, 1);
                }
            }
            warnings.push(warning);
        }
    }
    warnings
}

/// Calls `f` on every code block of `blocks`, in reading order, at any
/// depth. Unlike a general walk it does not go into what `f` puts in a
/// block's place, so a container that keeps the code is not visited again.
fn each_code_block(blocks: &mut [Block], f: &mut dyn FnMut(&mut Block)) {
    for block in blocks {
        match block {
            Block::Code { .. } => f(block),
            Block::Quote { blocks }
            | Block::FootnoteDef { blocks, .. }
            | Block::Div { blocks, .. } => each_code_block(blocks, f),
            Block::List { items, .. } => {
                for item in items {
                    each_code_block(&mut item.blocks, f);
                }
            }
            Block::Heading { .. }
            | Block::Paragraph { .. }
            | Block::Table { .. }
            | Block::Rule
            | Block::Raw { .. } => {}
        }
    }
}

/// The 1-based line of the ```mermaid fence, at or after byte `from` of
/// `source`, whose code is `code`; and where to look for the next one.
fn fence_line(source: &str, code: &str, from: usize) -> Option<(usize, usize)> {
    let mut offset = 0;
    for (number, line) in source.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        if start < from {
            continue;
        }
        let trimmed = line.trim_start();
        let fence = trimmed
            .strip_prefix("```")
            .or_else(|| trimmed.strip_prefix("~~~"));
        if fence.is_some_and(|rest| rest.trim_start().starts_with(LANG))
            && source[offset..].starts_with(code.trim_end_matches('\n'))
        {
            return Some((number + 1, offset));
        }
    }
    None
}

#[cfg(test)]
mod tests;
