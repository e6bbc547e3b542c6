//! Fixed lists written once: a test over the workspace's code that fails
//! when a second copy of one appears (`cargo test -p stoa-source-checks copies`).
//!
//! Each list has one home, which every other crate reads: the label keys
//! (`contents`, `about-author`, ...) and the glossary headings per
//! language in stoa-locale, the Markdown dialect (pulldown-cmark's
//! options) in stoa-markdown. A copy elsewhere would fall out of step the
//! day a key, a language or an option is added. Only code is searched:
//! comments, test files and what follows a file's first `#[cfg(test)]`
//! may name the words (tests do, to check them).

use super::module_graph::read_sources;
use std::path::Path;

/// Where each list lives, as paths from the workspace's root.
const LABELS_HOME: &str = "crates/stoa-locale/src/labels.rs";
const WORDS_HOME: &str = "crates/stoa-locale/src/table.rs";
const OPTIONS_HOME: &str = "crates/stoa-markdown/src/options.rs";

/// Lines within this many of each other that name two items of a list
/// are a copy of it.
const WINDOW: usize = 3;

/// The code of every Rust file of `crates/` and `plugins/`: (path from
/// the workspace's root, numbered lines), tests and comments left out.
fn workspace_code() -> Vec<(String, Vec<(usize, String)>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for folder in ["crates", "plugins"] {
        for (file, text) in read_sources(&root.join(folder)) {
            let test_file = file
                .split('/')
                .any(|p| matches!(p, "tests" | "benches" | "examples" | "tests.rs" | "target"));
            if test_file {
                continue;
            }
            let lines = text
                .lines()
                .take_while(|l| l.trim() != "#[cfg(test)]")
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with("//"))
                .map(|(i, l)| (i + 1, l.to_string()))
                .collect();
            out.push((format!("{folder}/{file}"), lines));
        }
    }
    assert!(out.len() > 100, "the workspace's code is found");
    out
}

/// The string literals of a line, in lower case.
fn literals(line: &str) -> Vec<String> {
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_lowercase)
        .collect()
}

/// `file:line` of each file outside `home` that has a copy of `list`.
fn copies_of(list: &[Vec<String>], home: &str) -> Vec<String> {
    workspace_code()
        .iter()
        .filter(|(file, _)| file != home)
        .filter_map(|(file, lines)| Some(format!("{file}:{}", copy_in(lines, list)?)))
        .collect()
}

/// The first line where two or more different items of `list` (each in
/// its forms, lower case) are string literals within [`WINDOW`] lines: a
/// copy of the list.
fn copy_in(lines: &[(usize, String)], list: &[Vec<String>]) -> Option<usize> {
    let items: Vec<(usize, usize)> = lines
        .iter()
        .flat_map(|(n, line)| {
            let literals = literals(line);
            list.iter()
                .enumerate()
                .filter(move |(_, forms)| literals.iter().any(|l| forms.contains(l)))
                .map(move |(item, _)| (*n, item))
        })
        .collect();
    items.iter().find_map(|&(n, item)| {
        let near = |&(m, other): &(usize, usize)| m >= n && m < n + WINDOW && other != item;
        items.iter().any(near).then_some(n)
    })
}

#[test]
fn the_label_keys_are_listed_once() {
    // The keys of two words or more: `contents` or `notes` alone name
    // many other things, and a copy of the list has the others too.
    let list: Vec<Vec<String>> = stoa_locale::LABEL_KEYS
        .iter()
        .filter(|k| k.contains('-'))
        .map(|k| vec![k.to_string(), k.replace('-', "_")])
        .collect();
    assert!(list.len() >= 3);
    let found = copies_of(&list, LABELS_HOME);
    assert!(
        found.is_empty(),
        "a second list of the label keys (read stoa_locale::LABEL_KEYS, or make the type with stoa_locale::with_label_keys!): {found:?}"
    );
}

#[test]
fn the_glossary_headings_are_listed_once() {
    let mut list: Vec<Vec<String>> = stoa_locale::LOCALES
        .iter()
        .map(|l| vec![l.book.glossary.to_lowercase()])
        .collect();
    list.dedup();
    assert!(list.len() >= 3);
    let found = copies_of(&list, WORDS_HOME);
    assert!(
        found.is_empty(),
        "a second list of the glossary headings (read stoa_locale's table, or a plugin its Context's labels): {found:?}"
    );
}

#[test]
fn the_markdown_dialect_is_written_once() {
    let needle = concat!("Options", "::ENABLE_");
    let found: Vec<String> = workspace_code()
        .into_iter()
        .filter(|(file, _)| file != OPTIONS_HOME)
        .flat_map(|(file, lines)| {
            lines
                .into_iter()
                .filter(|(_, l)| l.contains(needle))
                .map(move |(n, _)| format!("{file}:{n}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "pulldown-cmark's options outside stoa-markdown (read stoa_markdown::PARSER_OPTIONS or VERBATIM_OPTIONS): {found:?}"
    );
}

#[test]
fn a_copy_is_two_items_within_a_few_lines() {
    let list = [
        vec!["a-b".to_string(), "a_b".to_string()],
        vec!["c-d".to_string()],
    ];
    assert_eq!(literals(r#"x("A-b", 1), "c""#), ["a-b", "c"]);
    let numbered = |text: &str| -> Vec<(usize, String)> {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect()
    };
    assert_eq!(
        copy_in(&numbered("x\n[\"a_b\",\n \"C-D\"]"), &list),
        Some(2)
    );
    assert_eq!(copy_in(&numbered("\"a-b\" \"a_b\"\n\"c\""), &list), None);
    assert_eq!(copy_in(&numbered("\"a-b\"\n\n\n\"c-d\""), &list), None);
    assert_eq!(copy_in(&numbered("f(\"c-d\", \"a-b\")"), &list), Some(1));
}
