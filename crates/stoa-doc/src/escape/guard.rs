//! No second escaper. Issue 31 found four, whose rules had drifted apart
//! (one let through characters XML forbids): this test reads the
//! workspace's sources and fails, naming the file and the line, wherever
//! markup or a Typst string literal is escaped by hand outside this module.

use std::path::{Path, PathBuf};

/// What escaping by hand looks like in Rust source, each sign the pieces
/// that one line shows together: an XML reference written as a string
/// literal (`'&' => out.push_str("&amp;")`, `.replace('<', "&lt;")`,
/// `write!(out, "&#{};", ...)`), or a backslash doubled in a match arm, as
/// a string literal's escaper does (`'\\' => out.push_str("\\\\")`; a
/// lexer that skips `'\\'` escapes nothing).
const SIGNS: &[&[&str]] = &[
    &["\"&amp;\""],
    &["\"&lt;\""],
    &["\"&gt;\""],
    &["\"&quot;\""],
    &["\"&#39;\""],
    &["\"&#{"],
    &[r"'\\' =>", r#""\\\\""#],
];

/// The files that may show a sign, and why. Each must still show one, so
/// that the list does not outlive its reasons.
const EXCEPTIONS: &[(&str, &str)] = &[
    ("crates/stoa-doc/src/escape/xml.rs", "the XML escaper"),
    ("crates/stoa-doc/src/escape/typst.rs", "the Typst escaper"),
    ("crates/stoa-doc/src/escape/guard.rs", "this test"),
    (
        "crates/stoa-serve/src/live.rs",
        "JSON string literals for the live-reload stream: JSON, not markup or Typst",
    ),
    (
        "crates/stoa-cli/src/new/mod.rs",
        "TOML basic strings in the files `stoa new` writes: TOML, not markup or Typst",
    ),
];

#[test]
fn no_escaper_outside_this_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files = sources(&root);
    assert!(
        files.iter().any(|f| f.ends_with("src/escape/xml.rs")),
        "the workspace's sources are not under {}",
        root.display()
    );
    let mut found = Vec::new();
    let mut excused = Vec::new();
    for file in &files {
        let name = file.strip_prefix(&root).unwrap_or(file);
        let name = name.to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(file).expect("a readable source");
        let lines = signs(&text);
        if lines.is_empty() {
            continue;
        }
        if EXCEPTIONS.iter().any(|(path, _)| *path == name) {
            excused.push(name);
            continue;
        }
        found.extend(
            lines
                .into_iter()
                .map(|(n, line)| format!("{name}:{n}: {line}")),
        );
    }
    assert!(
        found.is_empty(),
        "text escaped by hand: call stoa_doc::escape instead \
         (or add an exception with its reason):\n{}",
        found.join("\n")
    );
    for (path, why) in EXCEPTIONS {
        assert!(
            excused.iter().any(|e| e == path),
            "{path} ({why}) shows no sign any more: remove its exception"
        );
    }
}

/// The lines of `text` before its test module that show a sign, numbered
/// from 1. A reference as the first argument of `replace` is decoded (an
/// SVG renderer's label read back as text), not written.
fn signs(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| {
            let module = w[1].trim();
            w[0].trim() == "#[cfg(test)]" && module.starts_with("mod ") && module.ends_with('{')
        })
        .unwrap_or(lines.len());
    let shows = |line: &str, pieces: &[&str]| {
        let decoded = |piece: &&str| line.contains(&format!("replace({piece}"));
        pieces.iter().all(|piece| line.contains(piece)) && !pieces.iter().any(decoded)
    };
    lines[..end]
        .iter()
        .enumerate()
        .filter(|(_, line)| SIGNS.iter().any(|pieces| shows(line, pieces)))
        .map(|(i, line)| (i + 1, line.trim().to_string()))
        .collect()
}

/// Every `.rs` file under `src` of the workspace's crates and plugins
/// (a plugin's cdylib included), test folders and `tests.rs` files left
/// out.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut crates = Vec::new();
    for group in ["crates", "plugins"] {
        for entry in std::fs::read_dir(root.join(group))
            .into_iter()
            .flatten()
            .flatten()
        {
            crates.push(entry.path().join("src"));
            crates.push(entry.path().join("cdylib/src"));
        }
    }
    let mut files = Vec::new();
    for dir in crates {
        walk(&dir, &mut files);
    }
    files.sort();
    files
}

/// Collects the `.rs` files under `dir` into `out`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "tests" {
                walk(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

#[test]
fn references_are_signs_outside_tests_only() {
    let text = "fn a() {\n    '&' => out.push_str(\"&amp;\"),\n    x.replace(\"&lt;\", \"<\")\n}\n\
                #[cfg(test)]\nmod tests {\n    \"&gt;\"\n}\n";
    assert_eq!(
        signs(text),
        [(2, "'&' => out.push_str(\"&amp;\"),".to_string())]
    );
}

#[test]
fn a_doubled_backslash_is_a_sign_and_a_skipped_one_is_not() {
    let escaper = r#"'\\' => out.push_str("\\\\"),"#;
    assert_eq!(signs(escaper), [(1, escaper.to_string())]);
    assert!(signs(r"'\\' => i += 2,").is_empty());
}
