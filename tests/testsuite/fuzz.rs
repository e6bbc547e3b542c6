//! The bounded fuzz run of CI: a fixed number of deterministic cases, made
//! by mutating the real posts and the torture fixtures, through the same
//! checks as the cargo-fuzz targets of `fuzz/` (the Markdown parser, the tree
//! to EPUB, the tree to Typst). Longer runs on demand: see fuzz/README.md.

#[path = "../../fuzz/src/case.rs"]
mod case;

use crate::prelude::{fixture, repo_root};
use std::path::PathBuf;

/// Cases per run: enough to walk every mutation over every seed, few
/// enough for a few seconds. `STOA_FUZZ_CASES` asks for more, and
/// `STOA_FUZZ_SEED` for another sequence, for a longer run on stable.
const CASES: usize = 600;

/// The generator's seed unless `STOA_FUZZ_SEED` says otherwise.
const SEED: u64 = 0x5eed_0f57_0a0a;

fn from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Tokens that open and close stoa's constructs, as in fuzz/markdown.dict.
const TOKENS: &[&str] = &[
    "> ",
    "- ",
    "* ",
    "1. ",
    "  ",
    "    ",
    "\n",
    "\n\n",
    "*",
    "**",
    "_",
    "~~",
    "`",
    "```",
    "# ",
    "###### ",
    "[x] ",
    "[^a]",
    "[^a]: ",
    "](",
    "![",
    "<https://x>",
    "<br>",
    "<!-- ",
    " -->",
    "<span lang=\"pt-BR\">",
    "</span>",
    "<sup>",
    "</sup>",
    "<b><i>",
    "</b>",
    "<div align=\"center\">\n\n",
    "\n</div>\n",
    "<center>",
    "<img src=\"x.png\" alt=\"a\">",
    "<img src=\"https://x.org/a.png\">",
    "<iframe src=\"https://www.youtube.com/embed/x\"></iframe>",
    "<table><tr><td>",
    "<details><summary>",
    "<script>",
    "<kbd>",
    "<a href=\"javascript:x\">",
    "<a href=\"#x\">",
    "|",
    "| --- |\n",
    "{#id}",
    "\\",
    "&amp;",
    "&#0;",
    "\u{0}",
    "\u{c}",
    "\u{7f}",
    "\u{85}",
    "\u{feff}",
    "'",
    "\"",
    "--",
    "...",
    "+++",
    "[a](b c)",
    "[a](<a b|c>)",
    "javascript:",
    "<svg>",
    "é",
    "\u{301}",
    "\u{1F600}",
    "\r\n",
];

/// A small deterministic generator (xorshift64*), so a failure is a case
/// number anyone can replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [repo_root().join("books/posts"), fixture("torture/posts")] {
        for post in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            for file in std::fs::read_dir(post.path())
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
            {
                if file.path().extension().is_some_and(|e| e == "md") {
                    files.push(file.path());
                }
            }
        }
    }
    files.sort();
    assert!(files.len() > 10, "the seeds are found: {files:?}");
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// One mutation of `input`, byte-level like libFuzzer's, plus the
/// structural ones a Markdown parser is most likely to trip on.
fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let at = rng.below(input.len() + 1);
    match rng.below(8) {
        0 => {
            let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
            input.splice(at..at, token.iter().copied());
        }
        1 => {
            let end = (at + rng.below(64)).min(input.len());
            input.drain(at..end);
        }
        2 => {
            let end = (at + rng.below(200)).min(input.len());
            let copy = input[at..end].to_vec();
            input.splice(at..at, copy);
        }
        3 if !input.is_empty() => {
            let i = rng.below(input.len());
            input[i] = rng.next() as u8;
        }
        4 => {
            // Splice in part of another post.
            let other = &seeds[rng.below(seeds.len())];
            let from = rng.below(other.len());
            let end = (from + rng.below(400)).min(other.len());
            input.splice(at..at, other[from..end].iter().copied());
        }
        5 => {
            // Deep nesting: a run of quote or list markers, or emphasis.
            let token = [
                "> ",
                "- ",
                "  - ",
                "*",
                "[",
                "<span lang=\"en\">",
                "<sup>",
                "<div>",
            ][rng.below(8)];
            let run = token.repeat(1 + rng.below(300));
            input.splice(at..at, run.into_bytes());
        }
        6 => input.truncate(at),
        _ => {
            let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
            let times = 1 + rng.below(20);
            input.splice(at..at, token.repeat(times));
        }
    }
}

#[test]
fn mutated_posts_never_break_the_parser_the_epub_or_the_typst_source() {
    let seeds = seeds();
    let mut rng = Rng(from_env("STOA_FUZZ_SEED", SEED).max(1));
    let cases = from_env("STOA_FUZZ_CASES", CASES as u64) as usize;
    for (i, seed) in seeds.iter().enumerate() {
        run(&format!("seed {i}"), seed);
    }
    // Inputs cargo-fuzz found, kept once fixed.
    run(
        "NUL in a heading (toc.ncx)",
        b"+++\ntitle = \"Only a heading\"\n+++\n\n## The heading is all the\0\0\0As\n",
    );
    for i in 0..cases {
        let mut input = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rng.below(6) {
            mutate(&mut rng, &mut input, &seeds);
        }
        run(&format!("case {i}"), &input);
    }
}

/// Runs one case; on a failure, keeps the input for `cargo fuzz run all <file>`.
fn run(name: &str, input: &[u8]) {
    let outcome = std::panic::catch_unwind(|| case::all(input));
    if let Err(panic) = outcome {
        let kept = std::env::temp_dir().join(format!("stoa-fuzz-{}.md", name.replace(' ', "-")));
        std::fs::write(&kept, input).unwrap();
        let why = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!(
            "{name} fails (input kept in {}; replay with `cargo fuzz run all {}`): {why:.2000}",
            kept.display(),
            kept.display()
        );
    }
}

/// Tokens of BibTeX that reference, nest and join.
const BIB_TOKENS: &[&str] = &[
    "@string{s = s # s}\n",
    "@string{a = b}\n@string{b = a}\n",
    "crossref = {",
    "xdata = {",
    "{",
    "}",
    " # ",
    "\"",
    "@book{k,",
    ",",
    "=",
    "@comment{",
    "%",
    "\\",
    "[",
    "]",
    "\n",
];

#[test]
fn mutated_bibliographies_are_read_or_refused_never_a_crash() {
    let seeds: Vec<Vec<u8>> = ["references.bib", "references.json"]
        .iter()
        .map(|f| std::fs::read(fixture("scholarly/books").join(f)).unwrap())
        .collect();
    let mut rng = Rng(from_env("STOA_FUZZ_SEED", SEED).max(1));
    let cases = from_env("STOA_FUZZ_CASES", CASES as u64) as usize / 2;
    for i in 0..cases {
        let mut input = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(input.len() + 1);
            match rng.below(4) {
                0 => {
                    let token = BIB_TOKENS[rng.below(BIB_TOKENS.len())];
                    input.splice(at..at, token.repeat(1 + rng.below(100)).into_bytes());
                }
                1 => {
                    let end = (at + rng.below(200)).min(input.len());
                    input.drain(at..end);
                }
                _ => mutate(&mut rng, &mut input, &seeds),
            }
        }
        case::bibliography(&input);
    }
}
