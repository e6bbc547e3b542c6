//! Step 2: every reference to a label made a link that reads the target's
//! label and number ("Figure 3"), or its number alone (`-@fig:wall`).

use crate::find::{is_label_char, span};
use crate::{Problem, Targets, label_text};
use std::collections::{HashMap, HashSet};
use stoa_doc::xref::{self, Kind, label_id};
use stoa_doc::{Book, ChapterKind, Inline, Labels, at_token, push_text_lines, walk_inlines_mut};

/// Makes the references of `book`'s posts links to their targets; a
/// reference to no label is a problem. Returns the labels referenced.
pub(crate) fn link(
    book: &mut Book,
    targets: &Targets,
    problems: &mut Vec<Problem>,
) -> HashSet<String> {
    let labels = book.labels.clone();
    let mut names: Vec<&str> = targets.keys().map(String::as_str).collect();
    names.sort_unstable();
    let mut referenced = HashSet::new();
    for (index, chapter) in book.chapters.iter_mut().enumerate() {
        if !matches!(chapter.kind, ChapterKind::Post | ChapterKind::About) {
            continue;
        }
        let mut linker = Linker {
            targets,
            names: &names,
            labels: &labels,
            chapter: index,
            seen: HashMap::new(),
            problems,
            referenced: &mut referenced,
        };
        walk_inlines_mut(&mut chapter.blocks, &mut |inlines| {
            if inlines.iter().any(may_refer) {
                *inlines = linker.run(std::mem::take(inlines));
            }
        });
    }
    referenced
}

struct Linker<'a> {
    targets: &'a Targets,
    names: &'a [&'a str],
    labels: &'a Labels,
    chapter: usize,
    /// How often each reference was written in the chapter so far.
    seen: HashMap<String, usize>,
    problems: &'a mut Vec<Problem>,
    referenced: &'a mut HashSet<String>,
}

/// Whether an inline may hold a reference: text with `@`, or a technical
/// token that begins with one (stoa-markdown marks `@name` as one).
fn may_refer(inline: &Inline) -> bool {
    match inline {
        Inline::Text { text } => text.contains('@'),
        _ => at_token(inline).is_some(),
    }
}

/// One reference found in a text: its byte range, the labels it names
/// and whether it prints the number alone.
struct Found {
    start: usize,
    end: usize,
    labels: Vec<String>,
    bare: bool,
}

impl Linker<'_> {
    /// `inlines` with the references in its texts made links; as they were
    /// when they hold none.
    fn run(&mut self, inlines: Vec<Inline>) -> Vec<Inline> {
        let mut out = Vec::with_capacity(inlines.len());
        let mut text = String::new();
        let mut changed = false;
        for inline in &inlines {
            match inline {
                Inline::Text { text: t } => text.push_str(t),
                // A line break in the source may fall inside a bracket.
                Inline::SoftBreak => text.push('\n'),
                other => match at_token(other) {
                    Some(t) => text.push_str(&t),
                    None => {
                        changed |= self.flush(&mut text, &mut out);
                        out.push(other.clone());
                    }
                },
            }
        }
        changed |= self.flush(&mut text, &mut out);
        if changed { out } else { inlines }
    }

    /// The text `run` as inlines, its references made links; true when it
    /// held one.
    fn flush(&mut self, run: &mut String, out: &mut Vec<Inline>) -> bool {
        let text = std::mem::take(run);
        let found = references(&text);
        let mut from = 0;
        for f in &found {
            push_text_lines(&text[from..f.start], out);
            self.reference(f, &text[f.start..f.end], out);
            from = f.end;
        }
        push_text_lines(&text[from..], out);
        !found.is_empty()
    }

    /// The links of one reference, or its text as written when one of its
    /// labels names nothing (a problem).
    fn reference(&mut self, found: &Found, written: &str, out: &mut Vec<Inline>) {
        let mut links = Vec::new();
        for label in &found.labels {
            let needle = format!("@{label}");
            let nth = self.seen.entry(needle.clone()).or_default();
            let occurrence = *nth;
            *nth += 1;
            match self.targets.get(label) {
                Some(target) => links.push((label, target)),
                None => {
                    let hint = match stoa_book::suggest::closest(label, self.names) {
                        Some(near) => format!("did you mean `@{near}`?"),
                        None => format!(
                            "label the {} `{{#{label}}}`, or correct the reference",
                            Kind::of_label(label).map_or("element", Kind::name)
                        ),
                    };
                    self.problems.push(Problem {
                        chapter: self.chapter,
                        needle,
                        nth: occurrence,
                        message: format!("`@{label}` refers to no label of the book"),
                        hint,
                    });
                }
            }
        }
        if links.len() != found.labels.len() {
            push_text_lines(written, out);
            return;
        }
        for (i, (label, target)) in links.into_iter().enumerate() {
            if i > 0 {
                out.push(Inline::text(", "));
            }
            self.referenced.insert(label.clone());
            let text = if found.bare {
                target.number.clone()
            } else {
                label_text(self.labels, target.kind, &target.number)
            };
            out.push(span(
                xref::XREF_ROLE,
                vec![Inline::Link {
                    url: format!("#{}", label_id(label)),
                    title: String::new(),
                    content: vec![Inline::text(text)],
                }],
            ));
        }
    }
}

/// Every reference in `text`, in order: `[@fig:a]`, `[-@fig:a]`,
/// `[@fig:a; @tbl:b]`, `@fig:a` and `-@fig:a` at the start of a word.
fn references(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find('@').map(|i| at + i) {
        at = i + 1;
        if let Some(f) = bracketed(text, i).or_else(|| narrative(text, i)) {
            if found.last().is_some_and(|l: &Found| f.start < l.end) {
                continue;
            }
            at = f.end;
            found.push(f);
        }
    }
    found
}

/// The label that starts at byte `at` (just after an `@`), if it is one:
/// its length (a final `.` or `:` ends the sentence, not the label).
fn label_at(text: &str, at: usize) -> Option<&str> {
    let rest = &text[at..];
    let len: usize = rest
        .chars()
        .take_while(|c| is_label_char(*c))
        .map(char::len_utf8)
        .sum();
    let label = rest[..len].trim_end_matches(['.', ':']);
    Kind::of_label(label).map(|_| label)
}

/// `[@fig:a]` or `[-@fig:a; @tbl:b]` around the `@` at `i`.
fn bracketed(text: &str, i: usize) -> Option<Found> {
    let open = text[..i].rfind('[')?;
    let head = text[open + 1..i].trim();
    if !(head.is_empty() || head == "-") || text[open..i].contains(']') {
        return None;
    }
    let close = open + text[open..].find(']')?;
    let inner = &text[open + 1..close];
    let mut labels = Vec::new();
    let mut bare = false;
    for (n, item) in inner.split(';').enumerate() {
        let item = item.trim();
        let (dash, item) = match item.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let name = item.strip_prefix('@')?;
        let label = label_at(name, 0)?;
        if label.len() != name.len() {
            return None;
        }
        if n == 0 {
            bare = dash;
        }
        labels.push(label.to_string());
    }
    Some(Found {
        start: open,
        end: close + 1,
        labels,
        bare,
    })
}

/// `@fig:a` or `-@fig:a` at the start of a word, at the `@` at `i`.
fn narrative(text: &str, i: usize) -> Option<Found> {
    let before = text[..i].chars().next_back();
    let (start, bare) = match before {
        Some('-') => {
            if !text[..i - 1].chars().next_back().is_none_or(starts_word) {
                return None;
            }
            (i - 1, true)
        }
        None => (i, false),
        Some(c) if starts_word(c) => (i, false),
        Some(_) => return None,
    };
    let label = label_at(text, i + 1)?;
    Some(Found {
        start,
        end: i + 1 + label.len(),
        labels: vec![label.to_string()],
        bare,
    })
}

/// Whether a reference may follow `c`: a space or an opening bracket or
/// quote (an `@` inside a word is an address).
fn starts_word(c: char) -> bool {
    c.is_whitespace() || "([{\u{201c}\u{2018}".contains(c)
}
