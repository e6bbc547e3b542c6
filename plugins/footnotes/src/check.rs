//! Undefined references and unused definitions.

use stoa_sdk::{Block, Inline, for_each_block, for_each_inline};

/// Something wrong with a chapter's notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// `[^label]` with no `[^label]: ...`.
    Undefined(String),
    /// `[^label]: ...` that nothing references.
    Unused(String),
    /// A second `[^label]: ...`; the first one is used.
    Duplicate(String),
}

impl Problem {
    /// The warning, with the line in `source` (the post's Markdown) when the
    /// label can be found there; notes another plugin made have no line.
    pub fn message(&self, source: Option<&str>) -> String {
        let (what, line) = match self {
            Problem::Undefined(l) => (
                format!("footnote reference `[^{l}]` has no definition; it is printed as written"),
                source.and_then(|s| find_line(s, l, false, 0)),
            ),
            Problem::Unused(l) => (
                format!("footnote `[^{l}]` is defined but never referenced; it is left out"),
                source.and_then(|s| find_line(s, l, true, 0)),
            ),
            Problem::Duplicate(l) => (
                format!("footnote `[^{l}]` is defined twice; the first definition is used"),
                source.and_then(|s| find_line(s, l, true, 1)),
            ),
        };
        match line {
            Some(n) => format!("line {n}: {what}"),
            None => what,
        }
    }
}

/// The 1-based line of the `skip`+1-th definition (`def`) or of the first
/// reference of `label`.
fn find_line(source: &str, label: &str, def: bool, skip: usize) -> Option<usize> {
    let needle = format!("[^{label}]");
    let mut fenced = false;
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let t = line.trim_start();
            if t.starts_with("```") || t.starts_with("~~~") {
                fenced = !fenced;
            }
            !fenced
        })
        .filter(|(_, line)| {
            let t = line.trim_start();
            let is_def = t.starts_with(&format!("{needle}:"));
            if def {
                is_def
            } else {
                line.replace(&format!("{needle}:"), "").contains(&needle)
            }
        })
        .nth(skip)
        .map(|(i, _)| i + 1)
}

/// The problems of one chapter's notes, in the order of the text.
pub fn check(blocks: &[Block]) -> Vec<Problem> {
    let mut defs = Vec::new();
    let mut refs = Vec::new();
    visit(blocks, &mut defs, &mut refs);
    let mut problems = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for r in &refs {
        if !defs.contains(r) && !seen.contains(&r.as_str()) {
            seen.push(r);
            problems.push(Problem::Undefined(r.clone()));
        }
    }
    for (i, d) in defs.iter().enumerate() {
        if defs[..i].contains(d) {
            problems.push(Problem::Duplicate(d.clone()));
        } else if !refs.contains(d) {
            problems.push(Problem::Unused(d.clone()));
        }
    }
    problems
}

/// The definitions and references of `blocks`, in reading order: a block's
/// own text, then the blocks inside it (notes in notes count).
fn visit(blocks: &[Block], defs: &mut Vec<String>, refs: &mut Vec<String>) {
    for_each_block(blocks, &mut |block| {
        if let Block::FootnoteDef { label, .. } = block {
            defs.push(label.clone());
        }
        for_each_inline(block, &mut |inline| {
            if let Inline::FootnoteRef { label } = inline {
                refs.push(label.clone());
            }
        });
    });
}
