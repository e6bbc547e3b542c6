//! The print edition's pages in every format: the PDF labels its front
//! matter i, ii, … and its text 1, 2, … with no label twice; the EPUB's page
//! list (and the web edition's page anchors) name those labels, and the
//! text that follows each page break begins on that page of the PDF, as
//! pdftotext reads it (block granularity, one line of tolerance).

use crate::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Builds the PDF, the EPUB and the web edition of every book of `project`.
fn build_all(project: &Path) -> PathBuf {
    let args = [
        "build",
        "--no-site",
        "--out",
        "dist",
        "--format",
        "pdf",
        "--format",
        "epub",
        "--format",
        "html",
    ];
    let result = stoa(project, &args);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "stoa build failed:\n{stderr}");
    project.join("dist")
}

/// Lowercase roman numerals, as PDF's `/r` style writes them.
fn roman(mut n: u64) -> String {
    let table = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut out = String::new();
    for (value, letters) in table {
        while n >= value {
            out.push_str(letters);
            n -= value;
        }
    }
    out
}

/// The label of every page of the PDF, from its page-label tree as qpdf
/// reads it.
fn page_labels(pdf: &Path) -> Vec<String> {
    let json = tool("qpdf", &["--json=2", "--json-key=pagelabels"], pdf);
    let value: serde_json::Value = serde_json::from_str(&json).expect("qpdf JSON");
    let ranges: Vec<(u64, String, u64)> = value["pagelabels"]
        .as_array()
        .expect("the PDF has page labels")
        .iter()
        .map(|r| {
            let label = &r["label"];
            (
                r["index"].as_u64().expect("index"),
                label["/S"].as_str().unwrap_or("").to_owned(),
                label["/St"].as_u64().unwrap_or(1),
            )
        })
        .collect();
    let pages = pdf_page_count(pdf) as u64;
    (0..pages)
        .map(|i| {
            let (start, style, first) = ranges
                .iter()
                .rev()
                .find(|(start, _, _)| *start <= i)
                .expect("a label range covers every page");
            let n = first + (i - start);
            match style.as_str() {
                "/r" => roman(n),
                "/D" => n.to_string(),
                other => panic!("unexpected page label style {other} in {}", pdf.display()),
            }
        })
        .collect()
}

/// Letters only, lowercased: what survives hyphenation, small capitals,
/// ligatures and line breaks in both the XHTML and pdftotext's output.
fn letters(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The text of markup, tags dropped.
fn strip_tags(markup: &str) -> String {
    // An inline SVG (a diagram) counts as an image: its labels are text in
    // both formats, but in an order of its own, and its title and
    // description are never printed.
    let mut visible = String::with_capacity(markup.len());
    let mut rest = markup;
    while let Some(start) = rest.find("<svg") {
        visible.push_str(&rest[..start]);
        rest = rest[start..]
            .find("</svg>")
            .map_or("", |end| &rest[start + end + "</svg>".len()..]);
    }
    visible.push_str(rest);
    let mut out = String::new();
    let mut in_tag = false;
    for c in visible.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// (label, href) of each entry of the EPUB's page list.
fn page_list(epub: &Path) -> Vec<(String, String)> {
    let nav = zip_entry(epub, "OEBPS/nav.xhtml");
    let start = nav
        .find("epub:type=\"page-list\"")
        .unwrap_or_else(|| panic!("{}: no page-list nav", epub.display()));
    let list = &nav[start..nav[start..].find("</nav>").map_or(nav.len(), |e| start + e)];
    list.match_indices("<a href=\"")
        .map(|(i, m)| {
            let rest = &list[i + m.len()..];
            let href = &rest[..rest.find('"').expect("href ends")];
            let text = &rest[rest.find('>').expect("a tag ends") + 1..];
            let label = &text[..text.find("</a>").expect("a ends")];
            (label.to_owned(), href.to_owned())
        })
        .collect()
}

/// Whether the page-break marker that starts at byte `at` of `xhtml` is
/// inside a paragraph's text (a page that begins mid-paragraph) rather
/// than between blocks: text, or the end of an inline element, before it.
fn inside_text(xhtml: &str, at: usize) -> bool {
    let before = xhtml[..at].trim_end();
    !before.ends_with('>')
        || ["</em>", "</strong>", "</a>", "</span>", "</code>", "</del>"]
            .iter()
            .any(|close| before.ends_with(close))
}

/// What one edition's check found: the problems, and how many of its
/// page-list entries mark a page that begins inside a paragraph.
struct Checked {
    problems: Vec<String>,
    inside: usize,
}

/// Checks one edition.
fn check_edition(dist: &Path, book: &str, lang: &str) -> Checked {
    let mut problems = Vec::new();
    let mut inside = 0;
    let stem = dist.join(book).join(format!("{book}-{lang}"));
    let (pdf, epub) = (stem.with_extension("pdf"), stem.with_extension("epub"));
    let labels = page_labels(&pdf);
    // Front matter i, ii, …; then 1, 2, …; no label twice.
    let first_arabic = labels
        .iter()
        .position(|l| l.chars().all(|c| c.is_ascii_digit()))
        .expect("the text is numbered in arabic");
    for (i, label) in labels[..first_arabic].iter().enumerate() {
        assert_eq!(
            *label,
            roman(i as u64 + 1),
            "{}: front matter",
            pdf.display()
        );
    }
    assert_eq!(labels[first_arabic], "1", "{}", pdf.display());
    let distinct: HashSet<&String> = labels.iter().collect();
    assert_eq!(
        distinct.len(),
        labels.len(),
        "{}: {labels:?}",
        pdf.display()
    );

    let text = pdftotext(&pdf, &["-enc", "UTF-8"]);
    let pages: Vec<&str> = text.split('\u{c}').collect();
    let entries = page_list(&epub);
    assert!(!entries.is_empty(), "{}: empty page list", epub.display());
    let spine = spine(&epub);
    let first_chapter = spine
        .iter()
        .find(|h| !["cover.xhtml", "title.xhtml", "contents.xhtml"].contains(&h.as_str()))
        .expect("a chapter");
    // The first chapter opens on page 1, or, in a book with parts, after
    // its part's page (a page of the PDF with no text of the EPUB's).
    let config = std::fs::read_to_string(repo_root().join("books").join(book).join("book.toml"))
        .unwrap_or_default();
    let has_parts = config.lines().any(|l| l.trim() == "[[parts]]");
    let opening = if has_parts {
        entries[0].0.clone()
    } else {
        "1".to_owned()
    };
    assert_eq!(
        entries[0],
        (opening.clone(), format!("{first_chapter}#page-{opening}")),
        "{}: the first chapter opens on page 1 (or after its part's page)",
        epub.display()
    );
    let mut seen = HashSet::new();
    for (label, href) in &entries {
        assert!(seen.insert(label), "{}: page {label} twice", epub.display());
        let (file, id) = href.split_once('#').expect("href has a fragment");
        let xhtml = zip_entry(&epub, &format!("OEBPS/{file}"));
        let marker = format!("id=\"{id}\"");
        let at = xhtml
            .find(&marker)
            .unwrap_or_else(|| panic!("{}: {href} has no marker", epub.display()));
        let tag_start = xhtml[..at].rfind('<').expect("tag start");
        let tag = &xhtml[tag_start..];
        let tag = &tag[..tag.find('>').expect("tag end")];
        assert!(
            tag.contains("epub:type=\"pagebreak\"")
                && tag.contains("role=\"doc-pagebreak\"")
                && tag.contains(&format!("aria-label=\"{label}\"")),
            "{}: {tag}",
            epub.display()
        );
        // The web edition has the same anchor in the same chapter.
        let web = dist
            .join(book)
            .join(lang)
            .join(file.replace(".xhtml", ".html"));
        let page = std::fs::read_to_string(&web).expect("web page");
        assert!(page.contains(&marker), "{}: no {marker}", web.display());
        // The text after the marker begins on that page of the PDF.
        let end = xhtml[at..].find("</span>").expect("the marker is closed") + at;
        let after = letters(&strip_tags(&xhtml[end..]));
        // Enough letters to tell a block from the others on its page; not
        // so many that what an image draws (text in the PDF, none in the
        // XHTML) comes in between.
        let wanted: String = after.chars().take(12).collect();
        let index = labels
            .iter()
            .position(|l| l == label)
            .unwrap_or_else(|| panic!("{}: no PDF page {label}", pdf.display()));
        let lines = |p: usize| -> Vec<&str> {
            pages
                .get(p)
                .map(|t| t.lines().filter(|l| !l.trim().is_empty()).collect())
                .unwrap_or_default()
        };
        // One line of tolerance: the block may begin on the last line of
        // the page before, or on the first line of text of the next (after
        // its running head).
        let before = lines(index.wrapping_sub(1)).last().copied().unwrap_or("");
        let next: Vec<&str> = lines(index + 1).into_iter().take(2).collect();
        let mut window = letters(&format!("{before}\n{}\n{}", pages[index], next.join("\n")));
        if inside_text(&xhtml, tag_start) {
            // Inside a paragraph the place is known to the word: the text
            // after the marker opens the page (after its number and running
            // head), one line of tolerance either way.
            inside += 1;
            let head: Vec<&str> = lines(index).into_iter().take(4).collect();
            window = letters(&format!("{before}\n{}", head.join("\n")));
        }
        if !window.contains(&wanted) {
            problems.push(format!(
                "{}: page {label}: `{wanted}` is not on PDF page {} ({})",
                epub.display(),
                index + 1,
                pages[index].chars().take(200).collect::<String>()
            ));
        }
    }
    Checked { problems, inside }
}

/// The page references of a glossary appendix as written in (X)HTML:
/// for each, whether its page link leads where its title link does, and
/// the page label it prints.
fn page_refs(markup: &str) -> Vec<(bool, String)> {
    let href = |a: &str| a.split('"').nth(1).unwrap_or("").to_owned();
    markup
        .split("<span class=\"glossary-backref\">")
        .skip(1)
        .map(|rest| {
            let span = &rest[..rest.find("</span>").expect("the span ends")];
            let links: Vec<&str> = span.split("<a ").skip(1).collect();
            let (Some(title), Some(page)) = (links.first(), links.get(1)) else {
                return (false, format!("no page link in {span}"));
            };
            let label = &page[page.find('>').expect("a tag ends") + 1..];
            let label = &label[..label.find("</a>").expect("a ends")];
            (href(title) == href(page), label.to_owned())
        })
        .collect()
}

/// The page numbers the PDF's glossary appendix prints (`…, p. 7`), from
/// the page labelled `first` to the end of the appendix.
fn pdf_page_refs(text: &str, labels: &[String], first: &str, end: Option<&str>) -> Vec<String> {
    let from = labels
        .iter()
        .position(|l| l == first)
        .expect("the appendix's page");
    let to = end
        .and_then(|e| labels.iter().position(|l| l == e))
        .unwrap_or(labels.len());
    let pages: Vec<&str> = text.split('\u{c}').collect();
    let mut found = Vec::new();
    for page in &pages[from..to] {
        for (at, _) in page.match_indices("p.") {
            let rest = page[at + 2..].trim_start_matches(|c: char| c.is_whitespace());
            let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if !number.is_empty() {
                found.push(number);
            }
        }
    }
    found
}

/// The glossary appendix of one edition names the same print pages in the
/// PDF, the EPUB and the web edition, each linking to the use it names.
fn check_glossary(dist: &Path, book: &str, lang: &str) -> Vec<String> {
    let stem = dist.join(book).join(format!("{book}-{lang}"));
    let (pdf, epub) = (stem.with_extension("pdf"), stem.with_extension("epub"));
    let spine = spine(&epub);
    let at = spine
        .iter()
        .position(|h| h == "glossary.xhtml")
        .expect("the book has a glossary appendix");
    let xhtml = zip_entry(&epub, "OEBPS/glossary.xhtml");
    let first_marker = |markup: &str| {
        let at = markup.find("aria-label=\"")? + "aria-label=\"".len();
        Some(markup[at..at + markup[at..].find('"')?].to_owned())
    };
    let first = first_marker(&xhtml).expect("the appendix begins a page");
    let end = spine
        .get(at + 1)
        .and_then(|next| first_marker(&zip_entry(&epub, &format!("OEBPS/{next}"))));
    let text = pdftotext(&pdf, &["-enc", "UTF-8"]);
    let printed = pdf_page_refs(&text, &page_labels(&pdf), &first, end.as_deref());
    let web = std::fs::read_to_string(dist.join(book).join(lang).join("glossary.html"))
        .expect("the web edition's glossary");
    let mut problems = Vec::new();
    for (format, refs) in [("EPUB", page_refs(&xhtml)), ("web", page_refs(&web))] {
        if refs.iter().any(|(same, _)| !same) {
            problems.push(format!(
                "{book}-{lang} {format}: a page link leads elsewhere: {refs:?}"
            ));
        }
        let labels: Vec<String> = refs.into_iter().map(|(_, l)| l).collect();
        if printed.is_empty() || labels != printed {
            problems.push(format!(
                "{book}-{lang}: the glossary's pages: PDF {printed:?}, {format} {labels:?}"
            ));
        }
    }
    problems
}

#[test]
fn the_page_list_of_each_edition_matches_its_pdf() {
    let dist = books().dist();
    let mut problems = Vec::new();
    let mut epubs = Vec::new();
    for book in ["collection", "dialogues"] {
        for lang in ["en", "pt-BR"] {
            let checked = check_edition(&dist, book, lang);
            problems.extend(checked.problems);
            // The books have long paragraphs and dialogue turns that run
            // over a page: those pages are marked where they begin.
            if checked.inside == 0 {
                problems.push(format!("{book}-{lang}: no page marked inside a paragraph"));
            }
            epubs.push(dist.join(book).join(format!("{book}-{lang}.epub")));
        }
    }
    // The glossary appendix names the same pages in every format.
    for lang in ["en", "pt-BR"] {
        problems.extend(check_glossary(&dist, "dialogues", lang));
    }
    let torture = torture_project();
    let torture_dist = build_all(torture.path());
    problems.extend(check_edition(&torture_dist, "torture", "en").problems);
    epubs.push(torture_dist.join("torture/torture-en.epub"));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let failures = epubcheck(&epubs);
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .map(|(f, r)| format!("{}:\n{r}", f.display()))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn without_the_pdf_there_is_no_page_list() {
    let project = torture_project();
    let result = stoa(
        project.path(),
        &["build", "--no-site", "--out", "dist", "--format", "epub"],
    );
    assert!(result.status.success());
    let epub = project.path().join("dist/torture/torture-en.epub");
    let nav = zip_entry(&epub, "OEBPS/nav.xhtml");
    assert!(!nav.contains("page-list"), "{nav}");
    let opf = zip_entry(&epub, "OEBPS/content.opf");
    assert!(
        !opf.contains("pageBreakMarkers") && !opf.contains("dc:source"),
        "{opf}"
    );
}
