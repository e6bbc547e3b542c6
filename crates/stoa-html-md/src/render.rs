//! The Markdown tree written as CommonMark: whitespace folded as HTML
//! folds it, every character that Markdown would read as markup escaped.

use crate::convert::{Block, Inline};
use crate::space::fold_space;

/// Adjacent texts as one, so that escaping sees each character's
/// neighbours.
fn merge_texts(inl: &mut Vec<Inline>) {
    let mut out: Vec<Inline> = Vec::with_capacity(inl.len());
    for mut x in std::mem::take(inl) {
        match &mut x {
            Inline::Em(v) | Inline::Strong(v) | Inline::Strike(v) | Inline::Phrase(_, v) => {
                merge_texts(v)
            }
            Inline::Link { content, .. } => merge_texts(content),
            _ => {}
        }
        if let (Some(Inline::Text(a)), Inline::Text(b)) = (out.last_mut(), &x) {
            a.push_str(b);
            continue;
        }
        out.push(x);
    }
    *inl = out;
}

/// Folds whitespace across a paragraph's inlines (a space at the end of one
/// text and the start of the next is one space), then trims the
/// paragraph's ends and the spaces around its line breaks.
fn normalize(inl: &mut Vec<Inline>) {
    fn fold(inl: &mut [Inline], space: &mut bool) {
        for i in inl {
            match i {
                Inline::Text(t) => {
                    let mut out = String::with_capacity(t.len());
                    for c in t.chars() {
                        if matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}') {
                            if !*space {
                                out.push(' ');
                            }
                            *space = true;
                        } else {
                            out.push(c);
                            *space = false;
                        }
                    }
                    *t = out;
                }
                Inline::Em(v) | Inline::Strong(v) | Inline::Strike(v) | Inline::Phrase(_, v) => {
                    fold(v, space)
                }
                Inline::Link { content, .. } => fold(content, space),
                Inline::Break => *space = true,
                Inline::Code(_) | Inline::Image { .. } | Inline::NoteRef(_) => *space = false,
            }
        }
    }
    let mut space = true;
    fold(inl, &mut space);
    merge_texts(inl);
    // Spaces before a break or at the end.
    fn trim_end(inl: &mut [Inline]) -> bool {
        for i in inl.iter_mut().rev() {
            match i {
                Inline::Text(t) => {
                    let trimmed = t.trim_end_matches(' ').len();
                    t.truncate(trimmed);
                    if !t.is_empty() {
                        return true;
                    }
                }
                Inline::Em(v) | Inline::Strong(v) | Inline::Strike(v) | Inline::Phrase(_, v) => {
                    if trim_end(v) {
                        return true;
                    }
                }
                Inline::Link { content, .. } => {
                    if trim_end(content) {
                        return true;
                    }
                }
                _ => return true,
            }
        }
        false
    }
    let mut start = 0;
    for i in 0..=inl.len() {
        if i == inl.len() || matches!(inl[i], Inline::Break) {
            trim_end(&mut inl[start..i]);
            start = i + 1;
        }
    }
}

/// Escapes text so that CommonMark reads it back as the same characters.
/// `heading` also escapes what closes a heading (`#`) or gives it
/// attributes (`{`).
pub(crate) fn escape(text: &str, heading: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i > 0 { Some(chars[i - 1]) } else { None };
        let next = chars.get(i + 1).copied();
        let escape = match c {
            // `$` opens math (stoa reads `$x$` and `$$x$$`).
            '\\' | '`' | '*' | '[' | ']' | '|' | '~' | '$' => true,
            // Inside a word (`snake_case`) an underscore cannot open or
            // close emphasis.
            '_' => {
                !(prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric))
            }
            // Raw HTML and autolinks (`<a`, `</`, `<!`, `<?`, `<me@x.org>`)
            // start with `<` and no space.
            '<' => next.is_none_or(|n| !n.is_whitespace()),
            // An entity or a character reference: `&amp;`, `&#38;`.
            '&' => {
                let rest = &chars[i + 1..];
                let name = rest
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '#')
                    .count();
                name > 0 && rest.get(name) == Some(&';')
            }
            '#' | '{' | '}' => heading,
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Escapes what a line of a paragraph would start a block with: `#`, `>`,
/// `-`, `+`, `=` (a setext underline), `1.`, `1)`.
fn escape_line_start(line: &str) -> String {
    let first = line.chars().next();
    match first {
        Some('#' | '>' | '-' | '+' | '=') => format!("\\{line}"),
        Some(c) if c.is_ascii_digit() => {
            let digits = line.chars().take_while(char::is_ascii_digit).count();
            match line[digits..].chars().next() {
                Some('.' | ')') if digits <= 9 => {
                    format!("{}\\{}", &line[..digits], &line[digits..])
                }
                _ => line.to_string(),
            }
        }
        _ => line.to_string(),
    }
}

/// Where inlines are written.
#[derive(Clone, Copy)]
struct Ctx {
    heading: bool,
    table: bool,
}

fn code_span(code: &str, ctx: Ctx) -> String {
    let code = fold_space(code);
    if code.is_empty() {
        return String::new();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in code.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = code.starts_with('`')
        || code.ends_with('`')
        || (code.starts_with(' ') && code.ends_with(' ') && code.trim() != "");
    let body = if ctx.table {
        code.replace('|', "\\|")
    } else {
        code
    };
    if pad {
        format!("{fence} {body} {fence}")
    } else {
        format!("{fence}{body}{fence}")
    }
}

fn destination(href: &str) -> String {
    let mut out = String::with_capacity(href.len());
    for c in href.trim().chars() {
        match c {
            ' ' => out.push_str("%20"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\\' => out.push_str("%5C"),
            '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn title_attr(title: &str) -> String {
    let t = fold_space(title);
    let t = t.trim();
    if t.is_empty() {
        return String::new();
    }
    let mut out = String::from(" \"");
    for c in t.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Wraps rendered emphasis content in its delimiters, with the content's
/// outer spaces outside them (CommonMark's `** a**` is not emphasis).
fn delimit(inner: String, delim: &str) -> String {
    let inner = inner
        .trim_start_matches("\\\n")
        .trim_end_matches("\\\n")
        .replace("\\\n", " ");
    let trimmed = inner.trim_matches(' ');
    if trimmed.is_empty() {
        return if inner.is_empty() {
            String::new()
        } else {
            " ".into()
        };
    }
    let lead = if inner.starts_with(' ') { " " } else { "" };
    let trail = if inner.ends_with(' ') && !inner.ends_with("\\ ") {
        " "
    } else {
        ""
    };
    format!("{lead}{delim}{trimmed}{delim}{trail}")
}

fn inlines(inl: &[Inline], ctx: Ctx) -> String {
    let mut out = String::new();
    for i in inl {
        match i {
            Inline::Text(t) => out.push_str(&escape(t, ctx.heading)),
            Inline::Em(v) => out.push_str(&delimit(inlines(v, ctx), "*")),
            Inline::Strong(v) => out.push_str(&delimit(inlines(v, ctx), "**")),
            Inline::Strike(v) => out.push_str(&delimit(inlines(v, ctx), "~~")),
            Inline::Phrase(name, v) => {
                out.push_str(&format!("<{name}>{}</{name}>", inlines(v, ctx)))
            }
            Inline::Code(c) => out.push_str(&code_span(c, ctx)),
            Inline::Link {
                href,
                title,
                content,
            } => {
                let text = inlines(content, ctx);
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                // `!` then a link would be an image.
                if out.ends_with('!') && !out.ends_with("\\!") {
                    out.insert(out.len() - 1, '\\');
                }
                out.push_str(&format!(
                    "[{text}]({}{})",
                    destination(href),
                    title_attr(title)
                ));
            }
            Inline::Image { src, alt, title } => {
                out.push_str(&format!(
                    "![{}]({}{})",
                    escape(&fold_space(alt), false).trim(),
                    destination(src),
                    title_attr(title)
                ));
            }
            Inline::Break => {
                if ctx.heading || ctx.table {
                    out.push(' ');
                } else {
                    out.push_str("\\\n");
                }
            }
            Inline::NoteRef(n) => out.push_str(&format!("[^{n}]")),
        }
    }
    out
}

/// A paragraph's inlines as its lines, each escaped at its start.
fn paragraph(inl: &[Inline]) -> String {
    let mut inl = inl.to_vec();
    normalize(&mut inl);
    // A break before anything is shown, or after everything, breaks nothing.
    let shown =
        |i: &Inline| !matches!(i, Inline::Break) && !matches!(i, Inline::Text(t) if t.is_empty());
    let start = inl.iter().position(shown).unwrap_or(inl.len());
    let end = inl.iter().rposition(shown).map_or(start, |e| e + 1);
    let inl = &inl[start..end.max(start)];
    let text = inlines(
        inl,
        Ctx {
            heading: false,
            table: false,
        },
    );
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| escape_line_start(l.trim_start_matches(' ')))
        .collect();
    lines.join("\n")
}

fn one_line(inl: &[Inline], ctx: Ctx) -> String {
    let mut inl = inl.to_vec();
    normalize(&mut inl);
    let t = inlines(&inl, ctx);
    fold_space(&t).trim().to_string()
}

/// The smallest heading level the blocks use, to shift them so that the
/// body's headings start at `##` (the title is the post's `#`).
fn min_heading(blocks: &[Block]) -> Option<u8> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading(l, _) => Some(*l),
            Block::Quote(inner) => min_heading(inner),
            Block::List { items, .. } => items.iter().filter_map(|i| min_heading(i)).min(),
            _ => None,
        })
        .min()
}

struct Writer {
    shift: i16,
}

impl Writer {
    fn blocks(&self, blocks: &[Block]) -> Vec<String> {
        blocks
            .iter()
            .filter_map(|b| self.block(b))
            .filter(|s| !s.is_empty())
            .collect()
    }

    fn join(parts: &[String]) -> String {
        parts.join("\n\n")
    }

    fn block(&self, b: &Block) -> Option<String> {
        Some(match b {
            Block::Para(inl) => paragraph(inl),
            Block::Heading(level, inl) => {
                let text = one_line(
                    inl,
                    Ctx {
                        heading: true,
                        table: false,
                    },
                );
                if text.is_empty() {
                    return None;
                }
                let level = (i16::from(*level) + self.shift).clamp(2, 6) as usize;
                format!("{} {}", "#".repeat(level), text)
            }
            Block::Code { lang, text } => {
                let mut longest = 0;
                let mut run = 0;
                for c in text.chars() {
                    if c == '`' {
                        run += 1;
                        longest = longest.max(run);
                    } else {
                        run = 0;
                    }
                }
                let fence = "`".repeat((longest + 1).max(3));
                if text.is_empty() {
                    format!("{fence}{lang}\n{fence}")
                } else {
                    format!("{fence}{lang}\n{text}\n{fence}")
                }
            }
            Block::Quote(inner) => {
                let body = Self::join(&self.blocks(inner));
                if body.is_empty() {
                    return None;
                }
                body.lines()
                    .map(|l| {
                        if l.is_empty() {
                            ">".to_string()
                        } else {
                            format!("> {l}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            Block::List {
                ordered,
                start,
                items,
            } => {
                let rendered: Vec<Vec<String>> = items.iter().map(|i| self.blocks(i)).collect();
                let rendered: Vec<Vec<String>> =
                    rendered.into_iter().filter(|r| !r.is_empty()).collect();
                if rendered.is_empty() {
                    return None;
                }
                // Tight when every item is one paragraph (and lists in it).
                let tight = items.iter().all(|i| {
                    i.iter()
                        .filter(|b| !matches!(b, Block::List { .. }))
                        .count()
                        <= 1
                        && i.first()
                            .is_none_or(|b| matches!(b, Block::Para(_) | Block::List { .. }))
                });
                let mut out = Vec::new();
                for (n, parts) in rendered.iter().enumerate() {
                    let marker = if *ordered {
                        format!("{}. ", start + n as u64)
                    } else {
                        "- ".to_string()
                    };
                    let indent = " ".repeat(marker.len());
                    let body = if tight {
                        parts.join("\n")
                    } else {
                        Self::join(parts)
                    };
                    let mut lines = body.lines();
                    let mut item = String::new();
                    match lines.next() {
                        // An item that opens with a list or a code block
                        // starts on the marker's line all the same.
                        Some(first) => {
                            item.push_str(&marker);
                            item.push_str(first);
                        }
                        None => item.push_str(marker.trim_end()),
                    }
                    for l in lines {
                        item.push('\n');
                        if !l.is_empty() {
                            item.push_str(&indent);
                            item.push_str(l);
                        }
                    }
                    out.push(item);
                }
                out.join(if tight { "\n" } else { "\n\n" })
            }
            Block::Table { head, rows } => {
                let width = rows
                    .iter()
                    .map(Vec::len)
                    .chain([head.len()])
                    .max()
                    .unwrap_or(0);
                if width == 0 {
                    return None;
                }
                let ctx = Ctx {
                    heading: false,
                    table: true,
                };
                let row = |cells: &[Vec<Inline>]| -> String {
                    let mut s = String::from("|");
                    for i in 0..width {
                        let cell = cells.get(i).map(|c| one_line(c, ctx)).unwrap_or_default();
                        s.push(' ');
                        s.push_str(&cell);
                        s.push_str(" |");
                    }
                    s
                };
                let mut out = vec![row(head), format!("|{}", " --- |".repeat(width))];
                out.extend(rows.iter().map(|r| row(r)));
                out.join("\n")
            }
            Block::Rule => "---".to_string(),
        })
    }
}

/// The whole post: its blocks, then its notes.
pub(crate) fn document(blocks: &[Block], notes: &[(usize, Vec<Block>)]) -> String {
    let shift = min_heading(blocks).map_or(0, |m| 2 - i16::from(m));
    let w = Writer { shift };
    let mut parts = w.blocks(blocks);
    for (label, body) in notes {
        let text = Writer::join(&w.blocks(body));
        let mut lines = text.lines();
        let mut def = format!("[^{label}]: {}", lines.next().unwrap_or(""));
        for l in lines {
            def.push('\n');
            if !l.is_empty() {
                def.push_str("    ");
                def.push_str(l);
            }
        }
        parts.push(def);
    }
    let mut out = Writer::join(&parts);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Inlines as one line of plain text (titles, alt texts).
pub(crate) fn plain(text: &str) -> String {
    fold_space(text).trim().to_string()
}
