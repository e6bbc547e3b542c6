//! Scholarly books end to end (the `scholarly` fixture, in English and
//! Portuguese): formulas, labelled figures, tables, listings and equations
//! referenced from other chapters, and citations in two styles. Every
//! format prints the same captions, references and bibliography entries;
//! the EPUBs pass EPUBCheck, the web edition the Nu checker; MathML carries
//! its alt text and the PDF draws formulas as glyphs. A reference to no
//! label, a formula that cannot be read and an unknown citation key are
//! each one error at their line and column.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The fixture built once, every format: (project, its dist folder).
fn built() -> &'static (PathBuf, PathBuf) {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let project = kept_until_exit(project_from(&fixture("scholarly/books")));
        let out = stoa(&project, &["build"]);
        assert!(out.status.success(), "{}", output_text(&out));
        let dist = project.join("dist");
        (project, dist)
    })
}

/// The texts of every element of `markup` whose start tag holds `open`
/// (from there to the tag's end), up to `close`, squeezed.
fn elements(markup: &str, open: &str, close: &str) -> Vec<String> {
    markup
        .match_indices(open)
        .filter_map(|(at, _)| {
            let rest = &markup[at..];
            let (start, end) = (rest.find('>')? + 1, rest.find(close)?);
            Some(markup_text(rest.get(start..end)?))
        })
        .collect()
}

/// Every XHTML document of `epub`, in name order.
fn documents(epub: &Path) -> String {
    zip_names(epub)
        .into_iter()
        .filter(|n| n.ends_with(".xhtml"))
        .map(|n| zip_entry(epub, &n))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every HTML page of one language of the web edition.
fn web_pages(dist: &Path, book: &str, lang: &str) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dist.join(book).join(lang))
        .expect("the web edition")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages
}

/// What one edition must print: its captions and references.
struct Expected {
    book: &'static str,
    lang: &'static str,
    captions: &'static [&'static str],
    references: &'static [&'static str],
}

const EDITIONS: [Expected; 4] = [
    Expected {
        book: "scholarly",
        lang: "en",
        captions: &[
            "Figure 1. The logistic curve: slow, then fast, then slow again",
            "Table 1. Growth rates and ceilings of three cultures",
            "Listing 1. Gaussian elimination without pivoting",
            "Figure 2. The steps of Gaussian elimination",
        ],
        references: &[
            "whose solution is the S-shaped curve of Figure 1",
            "The growth model of Equation (2)",
            "the rates of Table 1",
            "the exponential of Equation (1) is a series too",
            "The code of Listing 1",
            "and Figure 2 is its outline",
        ],
    },
    Expected {
        book: "scholarly",
        lang: "pt-BR",
        captions: &[
            "Figura 1 – A curva logística: lenta, depois rápida, depois lenta de novo",
            "Tabela 1 – Taxas de crescimento e tetos de três culturas",
            "Listagem 1 – Eliminação de Gauss sem pivotamento",
            "Figura 2 – Os passos da eliminação de Gauss",
        ],
        references: &[
            "cuja solução é a curva em S da Figura 1",
            "O modelo de crescimento da Equação (2)",
            "com as taxas da Tabela 1",
            "e a exponencial da Equação (1) também é uma série",
            "O código da Listagem 1",
            "e a Figura 2 é o seu esboço",
        ],
    },
    Expected {
        book: "scholarly-ieee",
        lang: "en",
        captions: &[
            "Figure 1.1. The logistic curve: slow, then fast, then slow again",
            "Table 1.1. Growth rates and ceilings of three cultures",
            "Listing 2.1. Gaussian elimination without pivoting",
            "Figure 2.1. The steps of Gaussian elimination",
        ],
        references: &[
            "The growth model of Equation (1.2)",
            "the rates of Table 1.1",
            "the exponential of Equation (1.1) is a series too",
            "The code of Listing 2.1",
            "and Figure 2.1 is its outline",
        ],
    },
    Expected {
        book: "scholarly-ieee",
        lang: "pt-BR",
        captions: &[
            "Figura 1.1 – A curva logística: lenta, depois rápida, depois lenta de novo",
            "Tabela 1.1 – Taxas de crescimento e tetos de três culturas",
            "Listagem 2.1 – Eliminação de Gauss sem pivotamento",
            "Figura 2.1 – Os passos da eliminação de Gauss",
        ],
        references: &[
            "O modelo de crescimento da Equação (1.2)",
            "O código da Listagem 2.1",
        ],
    },
];

/// The PDF's text with the page a reference prints after it taken out
/// (", p. 3"), to read the same words as the EPUB.
fn without_pages(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(", p. ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 5..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            out.push_str(", p. ");
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

#[test]
fn captions_references_and_works_cited_read_the_same_in_every_format() {
    let (_, dist) = built();
    for e in &EDITIONS {
        let base = dist.join(e.book).join(format!("{}-{}", e.book, e.lang));
        let epub = base.with_extension("epub");
        let docs = documents(&epub);
        let epub_words = epub_text(&epub);
        let pdf_all = pdf_text(&base.with_extension("pdf"));
        let pdf_words = without_pages(&pdf_all);
        let web: String = web_pages(dist, e.book, e.lang)
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("page"))
            .collect();
        let web_words = markup_text(&web);
        let captions = elements(&docs, "<figcaption", "</figcaption>");
        assert_eq!(captions, e.captions_in_order(), "{}-{}", e.book, e.lang);
        for words in e.captions.iter().chain(e.references) {
            let words = squeeze(words);
            assert!(
                epub_words.contains(&words),
                "{}-{}: EPUB lacks {words:?}",
                e.book,
                e.lang
            );
            assert!(
                web_words.contains(&words),
                "{}-{}: web lacks {words:?}",
                e.book,
                e.lang
            );
            assert!(
                pdf_words.contains(&words),
                "{}-{}: PDF lacks {words:?}:\n{pdf_words}",
                e.book,
                e.lang
            );
        }
        // The works cited, entry by entry, as the EPUB lists them.
        let entries = elements(&docs, "epub:type=\"biblioentry\"", "</p>");
        // IEEE's book lists each post's works after it: Euler twice.
        let listed = if e.book == "scholarly" { 8 } else { 9 };
        assert_eq!(entries.len(), listed, "{}-{}: {entries:?}", e.book, e.lang);
        for entry in &entries {
            // The way back is the screen's (print has none).
            let entry = entry.trim_end_matches(['↩', '\u{fe0e}', ' ']);
            assert!(
                web_words.contains(entry),
                "{}-{}: web lacks {entry:?}",
                e.book,
                e.lang
            );
            // pdftotext joins a word hyphenated at a line's end without
            // its hyphen (Wellesley-Cambridge reads WellesleyCambridge).
            let unhyphenated = |t: &str| t.replace(['-', '\u{ad}'], "");
            assert!(
                unhyphenated(&pdf_all).contains(&unhyphenated(entry)),
                "{}-{}: PDF lacks {entry:?}",
                e.book,
                e.lang
            );
        }
        // Each reference is a link to its element.
        // Each of the twelve references of the posts is a link with words.
        let links = elements(&docs, "<span class=\"xref\"", "</span>");
        assert_eq!(links.len(), 12, "{}-{}: {links:?}", e.book, e.lang);
        assert!(links.iter().all(|l| !l.is_empty()), "{links:?}");
        assert!(
            docs.contains(r##"href="growth.xhtml#eq-logistic""##),
            "{}",
            e.book
        );
        // The IEEE book reads the works from CSL-JSON: the same entries as
        // the BibTeX file gave.
        if (e.book, e.lang) == ("scholarly-ieee", "en") {
            for entry in [
                "[4] G. Strang, Introduction to Linear Algebra, 5th ed. Wellesley: Wellesley-Cambridge Press, 2016.",
                "[6] D. E. Knuth, “Literate Programming,” The Computer Journal, vol. 27, no. 2, pp. 97–111, 1984, doi: 10.1093/comjnl/27.2.97.",
                "[5] G. H. Golub and C. F. Van Loan, Matrix Computations, 4th ed. Baltimore: Johns Hopkins University Press, 2013.",
            ] {
                assert!(
                    epub_words.contains(entry),
                    "CSL-JSON: {entry}\n{epub_words}"
                );
            }
        }
        // The IEEE book lists its figures and tables, each with its page.
        if e.book == "scholarly-ieee" {
            let title = if e.lang == "en" {
                "List of Figures"
            } else {
                "Lista de Figuras"
            };
            for words in [&epub_words, &pdf_words, &web_words] {
                assert!(words.contains(title), "{}-{}: {title}", e.book, e.lang);
            }
            let list = zip_entry(&epub, "OEBPS/list-of-figures.xhtml");
            assert!(
                list.contains(r##"href="growth.xhtml#fig-logistic""##),
                "{list}"
            );
            assert!(
                list.contains(", p.\u{a0}<a"),
                "the list names the pages: {list}"
            );
        }
    }
}

impl Expected {
    /// The captions, squeezed, in the order the book prints them.
    fn captions_in_order(&self) -> Vec<String> {
        self.captions.iter().map(|c| squeeze(c)).collect()
    }
}

#[test]
fn the_scholarly_books_pass_epubcheck_and_the_nu_checker() {
    let (_, dist) = built();
    let epubs = files_below(dist)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "epub"))
        .map(|p| dist.join(p))
        .collect::<Vec<_>>();
    assert_eq!(epubs.len(), 4, "{epubs:?}");
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "{failures:?}");
    let pages: Vec<PathBuf> = ["scholarly", "scholarly-ieee"]
        .iter()
        .flat_map(|b| ["en", "pt-BR"].map(|l| web_pages(dist, b, l)))
        .flatten()
        .collect();
    let errors = nu_errors(&pages);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn formulas_carry_alt_text_and_print_as_glyphs() {
    let (_, dist) = built();
    let epub = dist.join("scholarly/scholarly-en.epub");
    let docs = documents(&epub);
    let maths = docs.matches("<math ").count();
    assert!(maths >= 30, "{maths} formulas");
    assert_eq!(
        docs.matches("<math ").count(),
        docs.matches("alttext=").count()
    );
    // One picture in the PDF: the logistic curve. Every formula is text.
    let images = tool(
        "pdfimages",
        &["-list"],
        &dist.join("scholarly/scholarly-en.pdf"),
    );
    let rows = images
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .count();
    assert_eq!(rows, 1, "{images}");
    // A numbered equation's number beside it, in the EPUB and the PDF.
    assert!(
        docs.contains(r#"<span class="equation-number">(2)</span>"#),
        "{docs}"
    );
    let pdf = pdf_text(&dist.join("scholarly/scholarly-en.pdf"));
    assert!(pdf.contains("(2)"), "{pdf}");
    // `\dot{N}` is an accent, not the theme's accent colour.
    assert!(pdf.contains("𝑁̇ = 𝑟𝑁"), "{pdf}");
    assert!(!pdf.contains("rgb("), "{pdf}");
}

/// The IEEE book asks for its formulas as images in the EPUB (`[math]
/// epub = "svg"`): each is an `<img>` of an SVG drawn by the PDF's own
/// typesetting, outlines and no text, with the LaTeX as its alternative
/// text, sized in ems; no MathML is left in the EPUB, and the web edition
/// keeps it.
#[test]
fn formulas_asked_as_images_are_svg_drawn_by_the_print_typesetting() {
    let (_, dist) = built();
    let epub = dist.join("scholarly-ieee/scholarly-ieee-en.epub");
    let docs = documents(&epub);
    assert!(!docs.contains("<math"), "no MathML left");
    let images = elements(&docs, "<img class=\"math", "/>");
    let tags: Vec<&str> = docs
        .match_indices("<img class=\"math")
        .map(|(at, _)| &docs[at..at + docs[at..].find("/>").unwrap()])
        .collect();
    assert!(tags.len() >= 30, "{} formulas: {images:?}", tags.len());
    let names = zip_names(&epub);
    let opf = zip_entry(&epub, "OEBPS/content.opf");
    assert!(!opf.contains("mathml"), "no document claims MathML:\n{opf}");
    for tag in &tags {
        let attr = |name: &str| {
            let key = format!(" {name}=\"");
            let at = tag.find(&key).unwrap_or_else(|| panic!("{name} in {tag}")) + key.len();
            tag[at..at + tag[at..].find('"').unwrap()].to_string()
        };
        assert!(!attr("alt").trim().is_empty(), "{tag}");
        let style = attr("style");
        assert!(style.contains("em;") || style.ends_with("em"), "{tag}");
        let file = format!("OEBPS/{}", attr("src"));
        assert!(names.contains(&file), "{file} in the EPUB");
        let href = format!("href=\"{}\"", attr("src"));
        assert!(
            opf.lines()
                .any(|l| l.contains(&href) && l.contains("media-type=\"image/svg+xml\"")),
            "{file} in the manifest"
        );
        let svg = zip_entry(&epub, &file);
        assert!(
            svg.contains("<path") && !svg.contains("<text"),
            "{file}: {svg}"
        );
    }
    // The same LaTeX as the MathML book's alt text, display formulas apart.
    assert!(
        docs.contains(r#"alt="\begin{aligned} \dot{N} &amp;= rN(1 - N/K)"#),
        "{docs}"
    );
    assert!(docs.contains("class=\"math display\""), "{docs}");
    let web: String = web_pages(dist, "scholarly-ieee", "en")
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(web.contains("<math "), "the web edition keeps MathML");
}

/// In print a reference to an element on another page names its page, and
/// that page holds the element's caption.
#[test]
fn a_reference_in_print_names_the_page_of_its_target() {
    let (_, dist) = built();
    let pdf = dist.join("scholarly/scholarly-en.pdf");
    let pages = pdf_pages(&pdf);
    let text = pdf_text(&pdf);
    let at = text
        .find("The code of Listing 1, p. ")
        .expect("the page after the reference");
    let shown: String = text[at + "The code of Listing 1, p. ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let shown: usize = shown.parse().expect("a page number");
    // The printed number is the body's page; the PDF's page list starts
    // with the front matter.
    let holding: Vec<usize> = pages
        .iter()
        .enumerate()
        .filter(|(_, p)| squeeze(p).contains("Listing 1. Gaussian elimination"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(holding.len(), 1, "{holding:?}");
    let first = first_body_page(&pdf);
    assert_eq!(holding[0] + 1 - first, shown);
}

/// A project of the fixture with `post`'s English file edited.
fn edited(post: &str, from: &str, to: &str) -> tempfile::TempDir {
    let project = project_from(&fixture("scholarly/books"));
    edit(
        project.path(),
        &format!("books/posts/{post}/en.md"),
        from,
        to,
    );
    project
}

#[test]
fn an_unknown_label_is_one_error_at_its_place() {
    let project = edited("series", "The code of @lst:solve", "The code of @lst:solv");
    let out = stoa(project.path(), &["build", "-b", "scholarly", "-f", "epub"]);
    let line = line_of(project.path(), "books/posts/series/en.md", "@lst:solv");
    assert_fails_with(
        &out,
        &[
            &format!("series/en.md:{line}:13: error: `@lst:solv` refers to no label of the book"),
            "did you mean `@lst:solve`?",
        ],
    );
    assert_eq!(
        output_text(&out).matches("error:").count(),
        1,
        "{}",
        output_text(&out)
    );
}

#[test]
fn a_formula_warning_and_an_unknown_key_error_are_each_said_once_at_their_place() {
    // A formula that cannot be read is a warning (it prints as its LaTeX),
    // said once, at its place; the book is made.
    let project = edited(
        "growth",
        "$N_0$ is the starting",
        "$\\left( N_0$ is the starting",
    );
    let out = stoa(project.path(), &["build", "-b", "scholarly", "-f", "epub"]);
    let line = line_of(project.path(), "books/posts/growth/en.md", "$\\left( N_0$");
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    let warning =
        format!("growth/en.md:{line}:7: warning: the formula `\\left( N_0` cannot be read");
    assert_eq!(printed.matches(&warning).count(), 1, "{printed}");
    assert!(!printed.contains("error:"), "{printed}");

    let project = edited("matrices", "[@golub2013]", "[@golub2031]");
    let out = stoa(project.path(), &["build", "-b", "scholarly", "-f", "epub"]);
    let line = line_of(project.path(), "books/posts/matrices/en.md", "@golub2031");
    assert_fails_with(
        &out,
        &[
            &format!("matrices/en.md:{line}:"),
            "no work in the bibliography has the key `golub2031`",
            "did you mean @golub2013?",
        ],
    );
    assert_eq!(
        output_text(&out).matches("error:").count(),
        1,
        "{}",
        output_text(&out)
    );
}
