//! Parts and openings, end to end on the parts fixture (one build of every
//! format): the EPUB's navigation (nav.xhtml and toc.ncx) nests each
//! part's posts under its title, the PDF gives each part a right-hand page
//! of its own, listed in its contents and its outline, the web edition's
//! contents lists the parts, a post that runs on starts on the page where
//! the one before it ends, and no page is left blank that no rule asks
//! for. Then each mistake in `[[parts]]` or `opening` is an error at its
//! line of book.toml (or of the post).

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const BOOK: &str = "parts";

/// The fixture built once, every format, and its output folder.
struct Built {
    dist: PathBuf,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let project = kept_until_exit(project_from(&fixture("parts/books")));
        let out = stoa(&project, &["build", "-q", "--no-site", "-o", "dist"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "stoa build failed:\n{stderr}");
        assert!(stderr.trim().is_empty(), "no warning expected:\n{stderr}");
        Built {
            dist: project.join("dist"),
        }
    })
}

fn file(ext: &str) -> PathBuf {
    built().dist.join(BOOK).join(format!("{BOOK}-en.{ext}"))
}

/// The text of each page of the PDF (index 0 is page 1), in reading
/// order rather than laid out.
fn page_texts(pdf: &Path) -> Vec<String> {
    let text = pdftotext(pdf, &["-enc", "UTF-8"]);
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    // The text ends with a form feed: no page after it.
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

/// The 1-based number of the first page after the contents whose text
/// contains `needle` (the contents page lists every title).
fn page_of(pages: &[String], needle: &str) -> usize {
    let contents = pages
        .iter()
        .position(|p| p.contains("Contents"))
        .expect("a contents page");
    pages
        .iter()
        .enumerate()
        .skip(contents + 1)
        .find(|(_, p)| p.contains(needle))
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` is on no page after the contents"))
}

/// Parses (X)HTML with its doctype.
fn parse(text: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, options).expect("well-formed XML")
}

/// The 1-based number of the page that holds `title` and nothing else
/// (no folio, no running head): a part's page.
fn part_page(pages: &[String], title: &str) -> usize {
    pages
        .iter()
        .position(|p| p.split_whitespace().collect::<Vec<_>>().join(" ") == title)
        .unwrap_or_else(|| panic!("no page holds `{title}` alone: {pages:#?}"))
        + 1
}

/// The texts of the links directly in `li`'s nested list.
fn nested_titles(li: roxmltree::Node) -> Vec<String> {
    li.children()
        .filter(|n| n.has_tag_name("ol"))
        .flat_map(|ol| ol.children().filter(|n| n.has_tag_name("li")))
        .filter_map(|item| item.children().find(|n| n.has_tag_name("a")))
        .map(|a| a.text().unwrap_or_default().trim().to_string())
        .collect()
}

#[test]
fn the_epub_navigation_nests_posts_under_their_parts() {
    let epub = file("epub");
    let failures = epubcheck(std::slice::from_ref(&epub));
    assert!(failures.is_empty(), "EPUBCheck:\n{failures:#?}");

    let nav = zip_entry(&epub, "OEBPS/nav.xhtml");
    let doc = parse(&nav);
    let toc = doc
        .descendants()
        .find(|n| n.has_tag_name("nav") && n.attribute("id") == Some("toc"))
        .expect("the toc nav");
    let top: Vec<roxmltree::Node> = toc
        .children()
        .filter(|n| n.has_tag_name("ol"))
        .flat_map(|ol| ol.children().filter(|n| n.has_tag_name("li")))
        .collect();
    let part = |title: &str| {
        *top.iter()
            .find(|li| {
                li.children()
                    .find(|n| n.has_tag_name("a"))
                    .and_then(|a| a.text())
                    .is_some_and(|t| t.trim() == title)
            })
            .unwrap_or_else(|| panic!("no top-level entry `{title}`:\n{nav}"))
    };
    assert_eq!(
        nested_titles(part("First Things")),
        ["Alpha Essay", "Bravo Essay"],
        "{nav}"
    );
    assert_eq!(
        nested_titles(part("Short Pieces")),
        ["Charlie Thought", "Delta Thought", "Echo Thought"],
        "{nav}"
    );
    let top_titles: Vec<String> = top
        .iter()
        .filter_map(|li| li.children().find(|n| n.has_tag_name("a")))
        .map(|a| a.text().unwrap_or_default().trim().to_string())
        .collect();
    assert!(
        !top_titles.iter().any(|t| t.ends_with("Essay")),
        "posts only under their part: {top_titles:?}"
    );

    // The legacy NCX nests the same way.
    let ncx = zip_entry(&epub, "OEBPS/toc.ncx");
    let doc = parse(&ncx);
    let label = |n: roxmltree::Node| {
        n.descendants()
            .find(|d| d.has_tag_name("text"))
            .and_then(|t| t.text())
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let point = doc
        .descendants()
        .find(|n| n.has_tag_name("navPoint") && label(*n) == "Short Pieces")
        .unwrap_or_else(|| panic!("no navPoint for the part:\n{ncx}"));
    let kids: Vec<String> = point
        .children()
        .filter(|n| n.has_tag_name("navPoint"))
        .map(label)
        .collect();
    assert_eq!(
        kids,
        ["Charlie Thought", "Delta Thought", "Echo Thought"],
        "{ncx}"
    );

    // The contents page shows the parts too.
    let contents = zip_entry(&epub, "OEBPS/contents.xhtml");
    assert!(
        contents
            .contains(r#"<li class="part" id="part-2"><h2 class="part-title">Short Pieces</h2>"#),
        "{contents}"
    );
}

#[test]
fn the_pdf_gives_each_part_a_recto_in_the_contents_and_the_outline() {
    let pdf = file("pdf");
    let pages = page_texts(&pdf);
    for title in ["First Things", "Short Pieces"] {
        // A page of its own: the title and nothing else (no folio, no head).
        let page = part_page(&pages, title);
        assert!(page % 2 == 1, "`{title}` is on page {page}, a verso");
        let contents = pages.iter().position(|p| p.contains("Contents")).unwrap() + 1;
        assert!(contents < page && pages[contents - 1].contains(title));
        let entries = pdf_outline(&pdf);
        assert!(
            entries
                .iter()
                .any(|e| e.title == title && e.depth == 0 && e.page == page as u64),
            "`{title}` in the outline, leading to page {page}: {entries:?}"
        );
    }
    // The bookmarks nest each part's posts under the part's entry.
    let want = [
        ("First Things", 0),
        ("Alpha Essay", 1),
        ("Bravo Essay", 1),
        ("Short Pieces", 0),
        ("Charlie Thought", 1),
        ("Delta Thought", 1),
        ("Echo Thought", 1),
    ];
    let entries = pdf_outline(&pdf);
    let got: Vec<(&str, usize)> = entries
        .iter()
        .map(|e| (e.title.as_str(), e.depth))
        .filter(|(t, _)| want.iter().any(|(w, _)| w == t))
        .collect();
    assert_eq!(got, want, "{entries:?}");
}

#[test]
fn a_run_on_post_shares_the_page_and_no_page_is_blank_without_a_rule() {
    let pages = page_texts(&file("pdf"));
    let part = part_page(&pages, "Short Pieces");
    // The part's first post, running on, opens on the next page (the
    // verso behind the part's page), not on the next recto.
    assert_eq!(page_of(&pages, "Charlie Thought"), part + 1);
    // The next runs on below it, on the page where Charlie ends.
    assert_eq!(
        page_of(&pages, "Delta Thought"),
        page_of(&pages, "charlieend"),
        "Delta runs on after Charlie"
    );
    // Echo's front matter asks for a recto: the next one.
    let echo = page_of(&pages, "Echo Thought");
    assert!(echo % 2 == 1 && echo <= part + 2, "Echo on page {echo}");
    // A blank page in the body is a verso before a part or a post that
    // must open on a recto.
    let first = part_page(&pages, "First Things");
    for (i, text) in pages.iter().enumerate().skip(first) {
        if !text.trim().is_empty() {
            continue;
        }
        let next = pages.get(i + 1).map(String::as_str).unwrap_or("");
        let recto_rule = [
            "First Things",
            "Short Pieces",
            "Alpha Essay",
            "Bravo Essay",
            "Echo Thought",
        ]
        .iter()
        .any(|t| next.contains(t));
        assert!(
            (i + 1) % 2 == 0 && recto_rule,
            "page {} is blank, and no rule asks for it (next: {next})",
            i + 1
        );
    }
}

#[test]
fn the_web_edition_lists_the_parts() {
    let web = built().dist.join(BOOK).join("en");
    let index = std::fs::read_to_string(web.join("index.html")).expect("index.html");
    for (id, title) in [("part-1", "First Things"), ("part-2", "Short Pieces")] {
        assert!(
            index.contains(&format!(
                r#"<li class="part" id="{id}"><h3 class="part-title">{title}</h3><ol>"#
            )),
            "{index}"
        );
    }
    let nested = index.find("part-2").unwrap() < index.find("delta.html").unwrap();
    assert!(nested, "{index}");
    // A chapter page says which part it is in and leads back to it.
    let delta = std::fs::read_to_string(web.join("delta.html")).expect("delta.html");
    assert!(
        delta.contains(r#"<a class="book-part" href="index.html#part-2">Short Pieces</a>"#),
        "{delta}"
    );
}

/// Builds a copy of the fixture whose book.toml (or post `echo`) is
/// edited by `edit`, and returns the failed build's output.
fn build_edited(edit: &dyn Fn(&Path)) -> std::process::Output {
    let project = project_from(&fixture("parts/books"));
    edit(project.path());
    stoa(
        project.path(),
        &["build", "-f", "epub", "--no-site", "-o", "dist"],
    )
}

fn edit_book(from: &'static str, to: &'static str) -> impl Fn(&Path) {
    move |project: &Path| {
        let path = project.join("books/parts/book.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "the fixture has `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
}

#[test]
fn a_post_in_two_parts_is_an_error_at_its_line() {
    let out = build_edited(&edit_book(
        r#"["charlie", "delta", "echo"]"#,
        r#"["charlie", "delta", "echo", "alpha"]"#,
    ));
    assert_fails_with(
        &out,
        &[
            "book.toml:16:",
            "post `alpha` is in two parts: part `First Things` (line 11) and part `Short Pieces`",
            "remove it from one of them",
        ],
    );
}

#[test]
fn a_post_in_no_part_is_an_error_at_its_line() {
    let out = build_edited(&edit_book(r#"["alpha", "bravo"]"#, r#"["alpha"]"#));
    assert_fails_with(
        &out,
        &[
            "book.toml:7:",
            "post `bravo` is in no part",
            "part `First Things` (line 9), after `alpha`",
        ],
    );
}

#[test]
fn an_unknown_post_in_a_part_is_an_error_at_its_line() {
    let out = build_edited(&edit_book(
        r#"["charlie", "delta", "echo"]"#,
        r#"["charlie", "delta", "echo", "echoo"]"#,
    ));
    assert_fails_with(
        &out,
        &[
            "book.toml:16:",
            "part `Short Pieces` lists `echoo`, which is not in `posts`",
            "did you mean `echo`?",
        ],
    );
}

#[test]
fn a_part_without_a_title_in_a_language_is_an_error_at_its_line() {
    let out = build_edited(&|project: &Path| {
        edit_book(r#"languages = ["en"]"#, r#"languages = ["en", "pt-BR"]"#)(project);
        edit_book(
            "en = \"Parts Fixture\"",
            "en = \"Parts Fixture\"\npt-BR = \"Partes\"",
        )(project);
    });
    assert_fails_with(
        &out,
        &[
            "book.toml:9:",
            "part `First Things` has no title for `pt-BR`",
            "book.toml:13:",
            "part `Short Pieces` has no title for `pt-BR`",
            "title.pt-BR = \"…\"",
        ],
    );
}

#[test]
fn parts_out_of_the_order_of_posts_are_an_error_at_their_line() {
    let out = build_edited(&edit_book(r#"["alpha", "bravo"]"#, r#"["bravo", "alpha"]"#));
    assert_fails_with(
        &out,
        &[
            "book.toml:11:",
            "the parts list `bravo` where `posts` has `alpha` (line 7)",
        ],
    );
}

#[test]
fn an_unknown_opening_is_an_error_at_its_line_in_book_toml_and_in_a_post() {
    let out = build_edited(&edit_book(r#"opening = "run-on""#, r#"opening = "run_on""#));
    assert_fails_with(
        &out,
        &[
            "book.toml:15:",
            "unknown opening `run_on`",
            "did you mean \"run-on\"?",
        ],
    );
    let out = build_edited(&|project: &Path| {
        let path = project.join("books/posts/echo/en.md");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace("opening = \"right\"", "opening = \"left\""),
        )
        .unwrap();
    });
    assert_fails_with(
        &out,
        &[
            "echo/en.md:3:",
            "unknown opening `left`",
            "\"right\", \"any\", \"run-on\"",
        ],
    );
}
