//! Technical tokens in prose, end to end (issue 15): the collection's PDFs,
//! in both languages, print command-line options with their two hyphens,
//! never hyphenate an identifier, never repeat the hyphen of a key or a
//! name at a break, and every token stoa finds in the corpus reaches the
//! PDF whole; Portuguese prose keeps its repeated hyphen and both languages
//! keep their hyphenation. The EPUB and the web edition mark the same tokens.

use crate::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use stoa_doc::{Block, Inline};

const LANGS: [&str; 2] = ["en", "pt-BR"];

/// The identifiers the issue names, as the corpus writes them.
const NAMED: [&str; 10] = [
    "--savepointPath",
    "allowedLateness",
    "ValueState",
    "processElement",
    "ZooKeeper",
    ".setParallelism(2)",
    "high-availability.storageDir",
    "flink-s3-fs-presto",
    "Chandy-Lamport",
    // An artifact's name, lowercase with two hyphens or more.
    "flink-connector-kafka",
];

/// The collection's output folder, in the shared build of the real books.
fn collection() -> PathBuf {
    books().dist().join("collection")
}

/// The PDF's text with `-layout`, one line of print per line.
fn pdf_lines(lang: &str) -> Vec<String> {
    let pdf = collection().join(format!("collection-{lang}.pdf"));
    pdftotext(&pdf, &["-layout"])
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

/// The text with each line that ends in `.`, `/`, `_` or `-` joined to the
/// next with nothing between, and so is a line ending in a small letter
/// whose next line starts with a capital (a long camelCase name may break
/// there, `number|OfTask|Slots`, rather than leave a line with holes):
/// a token broken across lines reads whole, and a hyphen added at a break
/// (or repeated) stays visible.
fn joined(lines: &[String]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        let next = lines.get(i + 1).and_then(|l| l.chars().next());
        let hump =
            line.ends_with(|c: char| c.is_lowercase()) && next.is_some_and(char::is_uppercase);
        if !line.ends_with(['.', '/', '_', '-']) && !hump {
            out.push('\n');
        }
    }
    out
}

/// Every way a hyphen added at a break (hyphenation, or Portuguese's
/// repeated hyphen) would spoil `token`.
fn spoiled(token: &str) -> Vec<String> {
    token
        .char_indices()
        .skip(1)
        .map(|(i, _)| format!("{}-{}", &token[..i], &token[i..]))
        .collect()
}

/// The tokens stoa marks in the posts of the collection in `lang`.
fn corpus_tokens(lang: &str) -> BTreeSet<String> {
    let book = std::fs::read_to_string(repo_root().join("books/collection/book.toml"))
        .expect("the collection's book.toml");
    let book: toml::Value = toml::from_str(&book).expect("book.toml parses");
    let posts = book["posts"].as_array().expect("a list of posts");
    let mut tokens = BTreeSet::new();
    for post in posts {
        let post = post.as_str().expect("a post's name");
        let path = repo_root().join(format!("books/posts/{post}/{lang}.md"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // The front matter (between `+++` or `---` lines) is not prose.
        let body = ["+++", "---"]
            .iter()
            .find_map(|fence| {
                text.strip_prefix(&format!("{fence}\n"))?
                    .split_once(&format!("\n{fence}\n"))
            })
            .map_or(text.as_str(), |(_, body)| body);
        let parsed = stoa_markdown::parse(body, 1);
        for_each_token(&parsed.blocks, &mut |token| {
            tokens.insert(token);
        });
    }
    tokens
}

#[test]
fn options_keep_their_two_hyphens() {
    for lang in LANGS {
        let text = joined(&pdf_lines(lang));
        assert!(
            text.contains("flink stop --savepointPath") || text.contains("--savepointPath"),
            "{lang}: `--savepointPath` lost a hyphen"
        );
        for bad in ["–savepointPath", "—savepointPath", " -savepointPath"] {
            assert!(!text.contains(bad), "{lang}: `{bad}` printed");
        }
    }
}

#[test]
fn the_named_identifiers_are_never_broken_by_a_hyphen() {
    for lang in LANGS {
        let text = joined(&pdf_lines(lang));
        for token in NAMED {
            assert!(text.contains(token), "{lang}: `{token}` not found whole");
            for bad in spoiled(token) {
                assert!(!text.contains(&bad), "{lang}: `{bad}` printed");
            }
        }
    }
}

#[test]
fn every_token_of_the_corpus_reaches_the_pdf_whole() {
    for lang in LANGS {
        let tokens = corpus_tokens(lang);
        assert!(
            tokens.len() > 100,
            "{lang}: only {} tokens found",
            tokens.len()
        );
        for named in NAMED {
            assert!(tokens.contains(named), "{lang}: `{named}` not a token");
        }
        let text = joined(&pdf_lines(lang));
        let missing: Vec<&String> = tokens.iter().filter(|t| !text.contains(*t)).collect();
        assert!(
            missing.is_empty(),
            "{lang}: not whole in the PDF: {missing:?}"
        );
        let broken: Vec<String> = tokens
            .iter()
            .flat_map(|t| spoiled(t))
            .filter(|bad| text.contains(bad))
            .collect();
        assert!(broken.is_empty(), "{lang}: broken by a hyphen: {broken:?}");
    }
}

#[test]
fn prose_keeps_hyphenation_and_the_portuguese_repeated_hyphen() {
    // A line ending in a hyphen after a letter and a next line starting with
    // a lower-case letter: a word hyphenated at the margin.
    let hyphenated = |lines: &[String]| {
        lines.windows(2).any(|w| {
            w[0].ends_with('-')
                && w[0].chars().rev().nth(1).is_some_and(char::is_alphabetic)
                && w[1].starts_with(|c: char| c.is_lowercase())
        })
    };
    for lang in LANGS {
        assert!(
            hyphenated(&pdf_lines(lang)),
            "{lang}: prose is no longer hyphenated"
        );
    }
    // Portuguese repeats the hyphen of a compound at a break (`obedece-` /
    // `-se`): prose keeps that rule.
    let pt = pdf_lines("pt-BR");
    assert!(
        pt.windows(2).any(|w| w[0].ends_with('-')
            && w[1].starts_with('-')
            && w[1][1..].starts_with(|c: char| c.is_lowercase())),
        "pt-BR: the repeated hyphen of prose is gone"
    );
}

#[test]
fn the_epub_and_the_web_edition_mark_the_same_tokens() {
    let dist = &collection();
    for lang in LANGS {
        let epub = dist.join(format!("collection-{lang}.epub"));
        let chapter = zip_entry(&epub, "OEBPS/studying-apache-flink.xhtml");
        assert!(
            chapter.contains(r#"<span class="tok">--savepoint<wbr/>Path</span>"#),
            "{lang}: the EPUB does not mark the option"
        );
        assert!(
            chapter.contains(r#"<span class="tok">high-availability.<wbr/>storageDir</span>"#),
            "{lang}: the EPUB's key has no break opportunities"
        );
        let web = web_page(dist, lang, "studying-apache-flink");
        assert!(
            web.contains(r#"<span class="tok">high-availability.<wbr>storageDir</span>"#),
            "{lang}: the web edition does not mark the key"
        );
        let css = zip_entry(&epub, "OEBPS/stylesheet.css");
        assert!(
            css.contains("span.tok"),
            "{lang}: no token rule in the EPUB's CSS"
        );
    }
}

/// The web edition's page of `post` in `lang`.
fn web_page(dist: &Path, lang: &str, post: &str) -> String {
    let page = dist.join(lang).join(format!("{post}.html"));
    std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()))
}

/// Calls `f` with the text of every token marked in `blocks`.
fn for_each_token(blocks: &[Block], f: &mut dyn FnMut(String)) {
    stoa_doc::for_each_block(blocks, &mut |block| {
        stoa_doc::for_each_inline(block, &mut |inline: &Inline| {
            if stoa_markdown::is_token(inline) {
                f(stoa_doc::inline_text(inline));
            }
        });
    });
}

/// The helper above sees tokens inside emphasis too.
#[test]
fn the_walk_sees_tokens_inside_emphasis() {
    let parsed = stoa_markdown::parse("*the ZooKeeper quorum*\n", 1);
    let mut found = Vec::new();
    for_each_token(&parsed.blocks, &mut |token| found.push(token));
    assert_eq!(found, ["ZooKeeper"]);
    assert!(matches!(parsed.blocks[0], Block::Paragraph { .. }));
}
