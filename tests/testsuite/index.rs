//! The back-of-book index of the collection (books/collection/index.toml):
//! at least 60 entries in each language; the EPUB, the web edition and the
//! PDF list the same entries in the same order with the same pages; every
//! EPUB locator reaches an element holding words that the PDF prints on
//! the locator's page. Reads the shared build of books/.

use crate::prelude::*;
use std::path::Path;

/// One entry as a format lists it: its term and its locators (the page
/// shown, and where the link leads).
#[derive(Debug, PartialEq)]
struct Listed {
    term: String,
    locators: Vec<(String, String)>,
}

/// The text of markup, tags dropped, entities read.
fn text_of(markup: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in markup.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// Letters and digits only, lowercased: what survives hyphenation, columns
/// and line breaks in pdftotext's output and in the markup.
fn letters(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The value of attribute `name` in the tag that starts `tag`.
fn attr<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let end = tag.find('>')?;
    let at = tag[..end].find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The entries of an index page (EPUB or web), in document order, sub-
/// entries after their entry.
fn listed(page: &str) -> Vec<Listed> {
    let starts: Vec<usize> = page
        .match_indices("<li class=\"index-entry\"")
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .map(|&start| {
            let rest = &page[start + 1..];
            // The entry's own line ends where its sub-entries or the next entry begin.
            let end = [rest.find("<ul"), rest.find("<li"), rest.find("</li>")]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(rest.len());
            let line = &rest[..end];
            let term_at = line
                .find("class=\"index-term\"")
                .expect("an entry has a term");
            let term_markup = &line[term_at..];
            let term = text_of(
                &term_markup
                    [term_markup.find('>').unwrap() + 1..term_markup.find("</span>").unwrap()],
            );
            let locators = line
                .match_indices("<a class=\"index-locator\"")
                .map(|(i, _)| {
                    let a = &line[i..];
                    let shown = text_of(&a[a.find('>').unwrap() + 1..a.find("</a>").unwrap()]);
                    (shown, attr(a, "href").expect("a locator links").to_string())
                })
                .collect();
            Listed { term, locators }
        })
        .collect()
}

/// A page of two columns as `pdftotext -layout` gives it, read as a
/// reader does: the left column, then the right.
fn columns(page: &str) -> String {
    let (mut left, mut right) = (String::new(), String::new());
    for line in page.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent >= 10 {
            right.push_str(line.trim());
            right.push('\n');
            continue;
        }
        match line.trim_start().find("   ") {
            Some(at) => {
                let at = indent + at;
                left.push_str(&line[..at]);
                right.push_str(line[at..].trim());
                right.push('\n');
            }
            None => left.push_str(line),
        }
        left.push('\n');
    }
    left + &right
}

/// The words of the element with id `id` in `xhtml`.
fn element_words(xhtml: &str, id: &str) -> Option<String> {
    let at = xhtml.find(&format!(" id=\"{id}\""))?;
    let open = xhtml[..at].rfind('<')?;
    let tag = &xhtml[open + 1..];
    let name: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    // A print page may begin inside the words (an empty marker element):
    // the words run to the first closing tag after some text.
    let body = &xhtml[open..];
    let close_tag = format!("</{name}>");
    body.match_indices(&close_tag)
        .map(|(close, _)| text_of(&body[..close]))
        .find(|words| !words.trim().is_empty())
}

fn check_edition(dist: &Path, lang: &str) {
    let epub = dist.join(format!("collection/collection-{lang}.epub"));
    let pdf = dist.join(format!("collection/collection-{lang}.pdf"));
    let epub_index = zip_entry(&epub, "OEBPS/book-index.xhtml");
    assert!(
        epub_index.contains("epub:type=\"index\"") && epub_index.contains("role=\"doc-index\""),
        "the EPUB's index is marked as one"
    );
    let entries = listed(&epub_index);
    assert!(entries.len() >= 60, "{lang}: {} entries", entries.len());
    let web = std::fs::read_to_string(dist.join(format!("collection/{lang}/book-index.html")))
        .expect("the web edition has the index page");
    let web_entries = listed(&web);
    let terms = |l: &[Listed]| -> Vec<(String, Vec<String>)> {
        l.iter()
            .map(|e| {
                (
                    e.term.clone(),
                    e.locators.iter().map(|x| x.0.clone()).collect(),
                )
            })
            .collect()
    };
    assert_eq!(
        terms(&web_entries),
        terms(&entries),
        "{lang}: the web edition's index is the EPUB's"
    );

    // The PDF prints the same entries, in the same order, with the same
    // pages, from the index's bookmark on (it is the last chapter).
    let pages: Vec<String> = pdftotext(&pdf, &["-enc", "UTF-8"])
        .split('\u{c}')
        .map(str::to_owned)
        .collect();
    let heading =
        text_of(&epub_index[epub_index.find("<h1").unwrap()..epub_index.find("</h1>").unwrap()]);
    let opens = pdf_outline(&pdf)
        .into_iter()
        .rfind(|o| letters(&o.title) == letters(&heading))
        .unwrap_or_else(|| panic!("{lang}: the PDF's bookmarks have `{heading}`"))
        .page as usize;
    // Two columns: `-layout` keeps them side by side; each page is read
    // left column first.
    let laid_out = pdf_pages(&pdf);
    let index_text: String = laid_out[opens - 1..]
        .iter()
        .map(|p| letters(&columns(p)))
        .collect();
    let mut at = 0;
    for e in &entries {
        let word = letters(&e.term);
        let found = index_text[at..].find(&word).unwrap_or_else(|| {
            panic!(
                "{lang}: the PDF's index lists `{}` in the EPUB's order",
                e.term
            )
        });
        at += found + word.len();
        for (shown, _) in &e.locators {
            // A range's dash is not a letter: `58–64` reads `5864`.
            let shown = letters(shown);
            let found = index_text[at..].find(shown.as_str()).unwrap_or_else(|| {
                panic!(
                    "{lang}: the PDF's index gives `{}` the page {shown}",
                    e.term
                )
            });
            at += found + shown.len();
        }
    }

    // Each locator leads to an element holding the words of the term,
    // and the PDF prints those words on the locator's page.
    let first = first_body_page(&pdf);
    let mut checked = 0;
    let mut ranges = 0;
    for e in &entries {
        for (shown, href) in &e.locators {
            let (file, id) = href.split_once('#').expect("a locator has a fragment");
            let chapter = zip_entry(&epub, &format!("OEBPS/{file}"));
            // A range (a place without words, to the end of its section):
            // its end is in the chapter, on a later page.
            if let Some((from, to)) = shown.split_once('\u{2013}') {
                let (from, to): (usize, usize) = (from.parse().unwrap(), to.parse().unwrap());
                assert!(from < to, "{lang}: `{}`'s range {shown}", e.term);
                assert!(
                    chapter.contains(&format!(r#"id="{id}-end""#)),
                    "{lang}: `{}`'s range {href} has its end in {file}",
                    e.term
                );
                ranges += 1;
                continue;
            }
            let words = element_words(&chapter, id)
                .unwrap_or_else(|| panic!("{lang}: `{}` leads to {href}, which exists", e.term));
            let first_word = words
                .split_whitespace()
                .next()
                .map(letters)
                .unwrap_or_default();
            assert!(!first_word.is_empty(), "{lang}: {href} holds words");
            let page: usize = shown.parse().expect("a body page number");
            let text = letters(&pages[first + page - 1]);
            assert!(
                text.contains(&first_word),
                "{lang}: `{}`'s locator {href} says page {shown}, and page {shown} prints `{words}`",
                e.term
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "{lang}: {checked} locators checked");
    assert_eq!(
        ranges, 2,
        "{lang}: the Flink notes' state and deployment sections"
    );
}

#[test]
fn every_format_lists_the_same_index_and_its_pages_hold_their_terms() {
    let dist = books().dist();
    for lang in ["en", "pt-BR"] {
        check_edition(&dist, lang);
    }
}

#[test]
fn a_mistaken_index_term_is_an_error_at_its_place() {
    let project = project_from(&repo_root().join("books"));
    let post = "books/posts/market-value/en.md";
    let line = line_of(project.path(), post, "photograph of a perception") + 2;
    let file = project.path().join(post);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let line = (line..=lines.len())
        .find(|&l| lines[l - 1].len() > 40)
        .expect("a paragraph");
    let target = lines[line - 1];
    let edited = text.replacen(target, &format!("{target} [value]{{.index kee=x}}"), 1);
    std::fs::write(&file, edited).unwrap();
    let out = stoa(
        project.path(),
        &["check", "--quick", "-b", "collection", "-l", "en"],
    );
    let col = target.chars().count() + 2 + "[value]{.index ".chars().count();
    // `stoa check` prints its findings on standard output.
    let text = output_text(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let expected =
        format!("{post}:{line}:{col}: error: `kee` is not an attribute of an index term");
    assert!(text.contains(&expected), "`{expected}` not in:\n{text}");
    assert!(text.contains("help: an index term takes `key`"), "{text}");
}

/// `stoa check` warns of a terms-file entry found nowhere and of a see
/// reference to an entry the index lacks, each at its line of index.toml
/// (or of the post, for a mark's), the closest entry suggested.
#[test]
fn check_warns_of_terms_never_found_and_references_to_no_entry() {
    let dir = project_from(&fixture("preflight").join("books"));
    std::fs::write(
        dir.path().join("books/lowres/index.toml"),
        "[en]\nwall = [\"wall\"]\nzyxwv = [\"zyxwvut\"]\nconcrete = { see = \"wal\" }\n",
    )
    .unwrap();
    // A reference written in a post's mark is told at the post's line.
    let post = dir.path().join("books/posts/photo/en.md");
    let text = std::fs::read_to_string(&post).unwrap();
    let text = text.replace(
        "The wall is grey all over.",
        "The wall is [grey]{.index see-also=\"colours; concrete\"} all over.",
    );
    std::fs::write(&post, text).unwrap();
    let out = stoa(dir.path(), &["check", "--quick", "--warn"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains(
            "books/posts/photo/en.md:10:27: warning: the index entry `grey` says \
             “see also colours”, but the index has no entry `colours`"
        ),
        "{log}"
    );
    assert!(
        log.contains(
            "books/lowres/index.toml:3:1: warning: index term `zyxwv` is never found \
             in the en edition: check its spelling or remove it"
        ),
        "{log}"
    );
    assert!(
        log.contains(
            "books/lowres/index.toml:4:1: warning: the index entry `concrete` says \
             “see wal”, but the index has no entry `wal`"
        ),
        "{log}"
    );
    assert!(log.contains("did you mean `wall`?"), "{log}");
    assert!(!log.contains("index term `wall`"), "{log}");
}
