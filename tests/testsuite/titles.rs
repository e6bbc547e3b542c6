//! Titles and page makeup in the PDF, on one build of books/ and the titles
//! fixture: no chapter title leaves a single word on its last line (read
//! from pdftotext's layout), running heads use the post's `short-title` and
//! never end on a short word or a colon, and a lead-in ending in a colon
//! stays on the page of the list it introduces.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The PDFs' folder of the project (books/ and the titles fixture).
struct Built {
    dist: PathBuf,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let project = kept_until_exit(project_from(&repo_root().join("books")));
        copy_dir(&fixture("titles/books"), &project.join("books"));
        let out = stoa(
            &project,
            &["build", "-q", "-f", "pdf", "--no-site", "-o", "dist"],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "stoa build failed:\n{stderr}");
        Built {
            dist: project.join("dist"),
        }
    })
}

/// Lowercase letters and digits of each word (pdftotext may give a
/// no-break space or a space; quotes and colons do not matter here).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace())
        .map(|w| {
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The titles of a book's posts in `lang`, from their Markdown, and the
/// about-the-author heading.
fn titles(books: &Path, book: &str, lang: &str) -> Vec<String> {
    let config: toml::Table =
        toml::from_str(&std::fs::read_to_string(books.join(book).join("book.toml")).unwrap())
            .unwrap();
    let mut out: Vec<String> = config["posts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|slug| post_title(books, slug.as_str().unwrap(), lang))
        .collect();
    if config.contains_key("about") {
        out.push(
            if lang == "en" {
                "About the Author"
            } else {
                "Sobre o Autor"
            }
            .into(),
        );
    }
    out
}

/// The lines a title is set on: consecutive lines (not the contents'
/// dotted lines) whose words are exactly the title's.
fn title_lines(pages: &[String], title: &[String]) -> Option<Vec<String>> {
    for page in pages {
        let lines: Vec<&str> = page.lines().collect();
        for start in 0..lines.len() {
            let mut got: Vec<String> = Vec::new();
            for (n, line) in lines[start..].iter().enumerate() {
                if line.contains(". .") {
                    break;
                }
                got.extend(words(line));
                if got.len() > title.len() || title[..got.len()] != got[..] {
                    break;
                }
                if got.len() == title.len() {
                    return Some(
                        lines[start..=start + n]
                            .iter()
                            .map(|l| l.to_string())
                            .collect(),
                    );
                }
            }
        }
    }
    None
}

#[test]
fn no_chapter_title_leaves_a_word_alone_on_its_last_line() {
    let built = built();
    let books = repo_root().join("books");
    let fixture_books = fixture("titles/books");
    let mut checked = 0;
    let mut broken = 0;
    for (root, book, lang) in [
        (&books, "dialogues", "en"),
        (&books, "dialogues", "pt-BR"),
        (&books, "collection", "en"),
        (&books, "collection", "pt-BR"),
        (&fixture_books, "titles", "en"),
    ] {
        let pdf = built.dist.join(format!("{book}/{book}-{lang}.pdf"));
        let pages = pdf_pages(&pdf);
        for title in titles(root, book, lang) {
            let want = words(&title);
            let lines = title_lines(&pages, &want)
                .unwrap_or_else(|| panic!("{book}-{lang}: title `{title}` not found in the PDF"));
            if lines.len() > 1 {
                broken += 1;
                let last = words(lines.last().unwrap());
                assert!(
                    last.len() >= 2,
                    "{book}-{lang}: `{title}` leaves one word on its last line: {lines:#?}"
                );
                for line in &lines[..lines.len() - 1] {
                    let end = line.split_whitespace().last().unwrap_or_default();
                    assert!(
                        !stoa_locale::is_short_word(end, lang),
                        "{book}-{lang}: `{title}` breaks after `{end}`: {lines:#?}"
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} titles");
    assert!(
        broken >= 5,
        "only {broken} titles take two lines: the check checks little"
    );
}

/// The running heads of the right-hand text pages (their first line,
/// without the folio).
fn odd_heads(pages: &[String]) -> Vec<String> {
    pages
        .iter()
        .filter_map(|p| p.lines().find(|l| !l.trim().is_empty()))
        .filter_map(|line| {
            let mut w: Vec<&str> = line.split_whitespace().collect();
            let folio = w.pop()?;
            folio.parse::<u32>().ok()?;
            (!w.is_empty() && !w[0].chars().all(|c| c.is_ascii_digit())).then(|| w.join(" "))
        })
        .collect()
}

#[test]
fn running_heads_use_the_short_title_and_end_on_a_whole_word() {
    let built = built();
    let heads = odd_heads(&pdf_pages(&built.dist.join("titles/titles-en.pdf")));
    assert!(
        heads.iter().any(|h| h == "Reference Architectures"),
        "the short title: {heads:#?}"
    );
    assert!(
        !heads.iter().any(|h| h.contains("Engineering")),
        "never the long title: {heads:#?}"
    );
    for (book, lang) in [
        ("collection", "pt-BR"),
        ("collection", "en"),
        ("dialogues", "en"),
    ] {
        let pdf = built.dist.join(format!("{book}/{book}-{lang}.pdf"));
        let heads = odd_heads(&pdf_pages(&pdf));
        assert!(heads.len() >= 5, "{book}-{lang}: {heads:?}");
        for head in &heads {
            let head = head.trim_end_matches('…').trim_end();
            let last = head.split_whitespace().last().unwrap_or_default();
            assert!(
                !last.ends_with(':') && !stoa_locale::is_short_word(last, lang),
                "{book}-{lang}: the running head `{head}` ends on `{last}`"
            );
        }
    }
}

/// Whether the fixture's lead-in shares its page with the list after it.
fn lead_in_with_its_list(pdf: &Path) -> bool {
    let pages = pdf_pages(pdf);
    let lead = pages
        .iter()
        .position(|p| p.contains("check these three things:"))
        .expect("the lead-in");
    pages[lead].contains("the window is closed")
}

#[test]
fn a_lead_in_stays_with_the_list_it_introduces() {
    let built = built();
    assert!(
        lead_in_with_its_list(&built.dist.join("titles/titles-en.pdf")),
        "the lead-in ends a page and its list starts the next"
    );
    // The fixture is one where it matters: with a theme whose `lead-in`
    // does not keep, the lead-in ends a page. (If this fails, the page
    // layout moved: lengthen or shorten the short lines before the lead-in
    // in tests/fixtures/v1/titles/books/posts/lead-in/en.md.)
    let project = tempfile::tempdir().expect("tempdir");
    copy_dir(&fixture("titles/books"), &project.path().join("books"));
    let theme = project.path().join("themes/classic");
    std::fs::create_dir_all(&theme).unwrap();
    let classic = std::fs::read_to_string(repo_root().join("themes/classic/book.typ")).unwrap();
    std::fs::write(
        theme.join("book.typ"),
        format!("{classic}\n#let lead-in(indent: false, body) = block(body)\n"),
    )
    .unwrap();
    let out = stoa(
        project.path(),
        &["build", "-q", "-f", "pdf", "--no-site", "-o", "dist"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !lead_in_with_its_list(&project.path().join("dist/titles/titles-en.pdf")),
        "without keeping, the fixture's lead-in should end a page"
    );
}
