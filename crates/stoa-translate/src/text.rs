//! A post as a list of blocks: the title, the summary, then the body's
//! paragraphs (a dialogue's turns, headings, lists, code), each with its
//! line and its normalised text.

use stoa_book::PostHeader;

/// What a block is, as far as alignment needs to know: a translation keeps
/// the kind of each block of its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The front matter's title.
    Title,
    /// The front matter's summary.
    Summary,
    /// A heading of this level.
    Heading(u8),
    /// A dialogue turn; the number tells the speakers apart in order of
    /// appearance (0 for the first speaker), since names are translated.
    Turn(u16),
    /// A fenced code block.
    Code,
    /// Anything else: a paragraph, a list, a quote, a table.
    Text,
}

/// One block of a post.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// What it is.
    pub kind: Kind,
    /// Its first line in the file, 1-based.
    pub line: usize,
    /// Its text with every run of whitespace made one space, trimmed.
    pub text: String,
}

/// The text with every run of whitespace (spaces, tabs, line breaks) made
/// one space, and none at the ends: re-wrapping a paragraph or trimming
/// trailing spaces does not change a post.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every block of a post: title, summary, then the body.
pub fn blocks(header: &PostHeader) -> Vec<Block> {
    let mut out = vec![Block {
        kind: Kind::Title,
        line: header.title_line,
        text: normalize(&header.title),
    }];
    if let Some((summary, line)) = &header.summary {
        out.push(Block {
            kind: Kind::Summary,
            line: *line,
            text: normalize(summary),
        });
    }
    let text = &header.file.text;
    let start = header.body_start.min(text.len());
    let first_line = stoa_book::line_col(text, start).0;
    out.extend(body_blocks(&text[start..], first_line));
    out
}

/// The blocks of Markdown `body`, whose first line is `first_line` of its
/// file: runs of lines between blank lines, a fenced code block whole.
pub fn body_blocks(body: &str, first_line: usize) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut start = first_line;
    let mut fence: Option<(char, usize)> = None;
    let mut speakers: Vec<String> = Vec::new();
    let mut flush = |lines: &mut Vec<&str>, start: usize, out: &mut Vec<Block>| {
        if lines.is_empty() {
            return;
        }
        let raw = lines.join("\n");
        lines.clear();
        let kind = kind_of(&raw, &mut speakers);
        // Where the index points is not what the post says: a translation
        // stays in step when an index mark is added, and a line holding
        // only a mark is no block to translate.
        let text = match kind {
            Kind::Code => normalize(&raw),
            _ => normalize(&stoa_markdown::strip_index_marks(&raw)),
        };
        if !text.is_empty() {
            out.push(Block {
                kind,
                line: start,
                text,
            });
        }
    };
    for (i, line) in body.lines().enumerate() {
        let number = first_line + i;
        let trimmed = line.trim_start();
        if let Some((ch, len)) = fence {
            current.push(line);
            if fence_of(trimmed).is_some_and(|(c, l)| c == ch && l >= len)
                && trimmed.trim_start_matches(ch).trim().is_empty()
            {
                fence = None;
            }
            continue;
        }
        if trimmed.is_empty() {
            flush(&mut current, start, &mut out);
            continue;
        }
        if current.is_empty() {
            start = number;
        }
        if let Some(open) = fence_of(trimmed) {
            fence = Some(open);
        }
        current.push(line);
    }
    flush(&mut current, start, &mut out);
    out
}

/// The fence character and length a line opens or closes a code block with.
fn fence_of(line: &str) -> Option<(char, usize)> {
    let ch = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = line.chars().take_while(|c| *c == ch).count();
    (len >= 3).then_some((ch, len))
}

fn kind_of(raw: &str, speakers: &mut Vec<String>) -> Kind {
    let first = raw.trim_start();
    if fence_of(first).is_some() {
        return Kind::Code;
    }
    let hashes = first.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&hashes) && first[hashes..].starts_with([' ', '\t']) {
        return Kind::Heading(hashes as u8);
    }
    match speaker(first) {
        Some(name) => {
            let n = speakers.iter().position(|s| *s == name).unwrap_or_else(|| {
                speakers.push(name);
                speakers.len() - 1
            });
            Kind::Turn(u16::try_from(n).unwrap_or(u16::MAX))
        }
        None => Kind::Text,
    }
}

/// The speaker of a dialogue turn: a name in capitals before a colon at the
/// start of the paragraph (`SÓCRATES: …`, `**GLAUCO**: …`), the way the
/// dialogue plugin reads it.
fn speaker(paragraph: &str) -> Option<String> {
    let (name, _) = paragraph.split_once(':')?;
    let name = name.trim().trim_matches('*').trim();
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    let plain = name
        .chars()
        .all(|c| c.is_uppercase() || c == ' ' || c == '.' || c == '-' || c == '\'');
    (letters >= 2 && name.chars().count() <= 40 && plain).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_normalised() {
        assert_eq!(normalize("  a\tb \n  c  "), "a b c");
        assert_eq!(normalize("a b c"), normalize("a\r\nb   c\n"));
    }

    #[test]
    fn blocks_split_at_blank_lines_and_keep_their_lines() {
        let body = "\nFirst line\nstill first.\n\n\n## Heading\n\n- a\n- b\n";
        let blocks = body_blocks(body, 10);
        let got: Vec<_> = blocks
            .iter()
            .map(|b| (b.kind, b.line, b.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Kind::Text, 11, "First line still first."),
                (Kind::Heading(2), 15, "## Heading"),
                (Kind::Text, 17, "- a - b"),
            ]
        );
    }

    #[test]
    fn index_marks_are_not_the_posts_text() {
        let marked = "## State\n\n[]{.index key=\"state\" range=\"section\"}\n\n\
                      [Keyed state]{.index key=\"state!keyed\"} is kept.\n";
        let plain = "## State\n\nKeyed state is kept.\n";
        assert_eq!(body_blocks(marked, 1).len(), 2);
        assert_eq!(
            crate::fingerprint::fingerprint(&body_blocks(marked, 1)),
            crate::fingerprint::fingerprint(&body_blocks(plain, 1))
        );
        let code = "```md\n[x]{.index}\n```\n";
        assert_eq!(body_blocks(code, 1)[0].text, "```md [x]{.index} ```");
    }

    #[test]
    fn a_fenced_code_block_is_one_block_even_with_blank_lines() {
        let body = "```rust\nfn a() {}\n\nfn b() {}\n```\n\nAfter.\n";
        let blocks = body_blocks(body, 1);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].kind, Kind::Code);
        assert_eq!(blocks[1].line, 7);
    }

    #[test]
    fn turns_number_their_speakers_in_order() {
        let body = "SÓCRATES: Olá.\n\nGLAUCO: Olá.\n\nSÓCRATES: Então.\n\nNot: a turn.\n";
        let kinds: Vec<_> = body_blocks(body, 1).iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [Kind::Turn(0), Kind::Turn(1), Kind::Turn(0), Kind::Text]
        );
    }
}
