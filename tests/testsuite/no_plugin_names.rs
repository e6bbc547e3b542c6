//! A renderer never knows a plugin by name: the tree says what a thing is
//! (roles, note styles), so renaming a plugin's class cannot change a book.
//! This reads the sources of the renderers and of stoa-doc and looks for the
//! bundled plugins' names and for every class they put in the tree.

use crate::prelude::repo_root;
use std::path::{Path, PathBuf};

/// Crates that must not know the plugins.
const RENDERER_CRATES: [&str; 5] = [
    "crates/stoa-epub",
    "crates/stoa-pdf",
    "crates/stoa-html",
    "crates/stoa-xhtml",
    "crates/stoa-render",
];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The first string literal of the call or field that starts at `at`
/// (within its first line or two: a class follows a role at most).
fn literal_after(text: &str, at: usize) -> Option<&str> {
    let window: String = text[at..].chars().take(120).collect();
    let start = window.find('"')?;
    let before = &window[..start];
    if before.contains(';') || before.contains('{') {
        return None;
    }
    let offset = at + text[at..].find('"')? + 1;
    text[offset..].split('"').next()
}

/// Words of the tree itself that plugins also use as names: the role names
/// and the note placements (a plugin called `glossary` makes glossaries).
/// They belong to stoa-doc; a renderer may meet them through the tree.
fn tree_vocabulary() -> Vec<String> {
    let mut words: Vec<String> = stoa_doc::Role::KNOWN
        .iter()
        .map(|r| r.name().to_string())
        .collect();
    for placement in [
        stoa_doc::NotePlacement::Endnotes,
        stoa_doc::NotePlacement::Footnotes,
        stoa_doc::NotePlacement::NotesChapter,
    ] {
        let json = serde_json::to_string(&placement).expect("placement");
        words.push(json.trim_matches('"').to_string());
    }
    words
}

/// The classes of the containers the bundled plugins put in the tree and
/// their names, read from their sources, less the tree's own words.
fn plugin_vocabulary() -> Vec<String> {
    let tree = tree_vocabulary();
    all_plugin_words()
        .into_iter()
        .filter(|w| !tree.contains(w))
        .collect()
}

fn all_plugin_words() -> Vec<String> {
    let mut names = Vec::new();
    for plugin in ["dialogue", "footnotes", "glossary"] {
        let dir = repo_root().join("plugins").join(plugin).join("src");
        for file in rust_files(&dir) {
            if file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("plugin source");
            for key in [
                "const NAME: &'static str =",
                "class:",
                "div(",
                "span(",
                "container(",
                "div_with_role(",
                "span_with_role(",
            ] {
                for (at, _) in text.match_indices(key) {
                    if let Some(lit) = literal_after(&text, at + key.len())
                        && !lit.is_empty()
                        && lit.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                        && !names.iter().any(|n| n == lit)
                    {
                        names.push(lit.to_string());
                    }
                }
            }
        }
    }
    names.sort();
    names
}

#[test]
fn the_vocabulary_is_read_from_the_plugins() {
    let all = all_plugin_words();
    for expected in [
        "glossary",
        "footnotes",
        "dialogue",
        "glossary-list",
        "speaker",
    ] {
        assert!(
            all.iter().any(|n| n == expected),
            "{expected} not found in {all:?}: the scan is broken"
        );
    }
    let names = plugin_vocabulary();
    for expected in [
        "glossary-list",
        "glossary-term",
        "glossary-ref",
        "dialogue-ending",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} not found in {names:?}"
        );
    }
}

#[test]
fn renderers_contain_no_plugin_name_or_class() {
    let names = plugin_vocabulary();
    let mut found = Vec::new();
    for krate in RENDERER_CRATES {
        for file in rust_files(&repo_root().join(krate)) {
            let text = std::fs::read_to_string(&file).expect("source");
            for name in &names {
                if text.contains(&format!("\"{name}\"")) {
                    found.push(format!("{}: \"{name}\"", file.display()));
                }
            }
            if text.contains("plugin_data") {
                found.push(format!("{}: reads plugin_data", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "renderers know plugins: {found:#?}");
}

/// stoa-doc names roles, which plugins use; it names no plugin and none of
/// their classes, and reads no plugin's data (the compatibility shims keep
/// their own `stoa:` keys).
#[test]
fn the_tree_knows_roles_not_plugins() {
    let roles = [
        "glossary",
        "dialogue",
        "turn",
        "speaker",
        "definition",
        "term",
    ];
    let names = plugin_vocabulary();
    let mut found = Vec::new();
    for file in rust_files(&repo_root().join("crates/stoa-doc")) {
        let text = std::fs::read_to_string(&file).expect("source");
        for name in names.iter().filter(|n| !roles.contains(&n.as_str())) {
            if text.contains(&format!("\"{name}\"")) {
                found.push(format!("{}: \"{name}\"", file.display()));
            }
        }
        let reads_plugin_data = text
            .match_indices("plugin_data")
            .any(|(at, _)| !text[at..].starts_with("plugin_data\n"))
            && !file.ends_with("compat.rs")
            && !file.ends_with("tree.rs");
        if reads_plugin_data {
            found.push(format!("{}: reads plugin_data", file.display()));
        }
    }
    assert!(found.is_empty(), "stoa-doc knows plugins: {found:#?}");
}
