//! Renders hand-built books and checks the PDFs with poppler's tools.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use stoa_doc::{
    Asset, Attrs, Block, Book, Diagnostic, IdIndex, Inline, NoteNumbering, NotePlacement,
    NoteStyle, NotesPlan, Role, Style,
};
use stoa_pdf::{PdfRenderer, generate_source_of};
use stoa_render::{Format, Output, RenderContext, Rendered, Renderer};

/// What the driver hands the renderer for `book`: its own notes plan and id
/// index, the classic theme (or `theme`), no cover.
fn with_context<T>(
    book: &Book,
    theme: &Path,
    roots: &[PathBuf],
    f: impl FnOnce(&RenderContext) -> T,
) -> T {
    let notes = NotesPlan::of(book);
    let ids = IdIndex::of(book);
    let theme = stoa_render::Theme::folder("test", theme);
    let ctx = RenderContext::new(
        book,
        &notes,
        &ids,
        &theme,
        roots,
        stoa_render::Layout::empty(),
    )
    .with_sources(true);
    f(&ctx)
}

fn render_with(book: &Book, theme: &Path, roots: &[PathBuf]) -> Result<Rendered, Vec<Diagnostic>> {
    with_context(book, theme, roots, |ctx| PdfRenderer.render(ctx))
}

/// The PDF, its Typst source and the warnings.
#[derive(Debug)]
struct Pdf {
    pdf: Vec<u8>,
    source: String,
    warnings: Vec<Diagnostic>,
}

fn render(book: &Book, roots: &[PathBuf]) -> Result<Pdf, Vec<Diagnostic>> {
    let rendered = render_with(book, &theme_dir(), roots)?;
    let Output::File(pdf) = rendered.output else {
        panic!("a PDF is one file");
    };
    let pdf = pdf.to_bytes().expect("the PDF's images readable");
    let [(ext, source)] = &rendered.sources[..] else {
        panic!("one source asked for, {} given", rendered.sources.len());
    };
    assert_eq!(ext, "typ");
    Ok(Pdf {
        pdf,
        source: String::from_utf8(source.clone()).expect("UTF-8 Typst"),
        warnings: rendered.warnings,
    })
}

fn render_ok(book: &Book) -> Pdf {
    render(book, &[]).unwrap_or_else(|e| panic!("render failed: {}", show(&e)))
}

fn show(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs a poppler tool on `pdf`; a missing tool fails the test, because a
/// skipped check would pass silently on a machine that cannot run it.
fn poppler(tool: &str, pdf: &[u8], args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("book.pdf");
    std::fs::write(&path, pdf).expect("the PDF written");
    let output = Command::new(tool)
        .args(args)
        .arg(&path)
        .args(if tool == "pdftotext" {
            &["-"][..]
        } else {
            &[][..]
        })
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{tool}` ({e}): install poppler-utils by running the repository's \
                 install script (or `apt-get install poppler-utils`)"
            )
        });
    assert!(
        output.status.success(),
        "{tool} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 from poppler")
}

fn page_text(pdf: &[u8], page: usize) -> String {
    let n = page.to_string();
    poppler("pdftotext", pdf, &["-f", &n, "-l", &n])
}

fn page_count(pdf: &[u8]) -> usize {
    let info = poppler("pdfinfo", pdf, &[]);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a page count")
}

#[test]
fn post_text_prints_literally() {
    let book = injection_book();
    let out = render_ok(&book);
    // -raw: content-stream order, which keeps the space in a short line like `= a`.
    let text = poppler("pdftotext", &out.pdf, &["-raw"]);
    let expected = PAYLOADS.iter().copied().chain([
        "= a",
        "- b",
        "+ c",
        "1. d",
        "#e",
        "// f",
        "Heading #h $ @ <x>",
        "@Override",
        "= <T> #x $y // ]",
        "item *x* #y",
        "item _z_ ]",
        "cell #a",
        "cell $b",
        "cell <c>",
        "cell @d",
        "link *text* #here",
        "strong ]",
        "`code` #c",
        "Title #t $ @u <v>",
    ]);
    for s in expected {
        assert!(text.contains(s), "`{s}` is not in the PDF's text:\n{text}");
    }
    assert!(
        !text.contains("root:"),
        "a file of the system leaked into the PDF"
    );
}

#[test]
fn generated_source_has_no_markup_from_the_book() {
    use typst::syntax::{SyntaxKind, SyntaxNode, parse};
    fn check(node: &SyntaxNode, path: &mut Vec<SyntaxKind>) {
        let kind = node.kind();
        let markup = matches!(
            kind,
            SyntaxKind::Strong
                | SyntaxKind::Emph
                | SyntaxKind::Heading
                | SyntaxKind::ListItem
                | SyntaxKind::EnumItem
                | SyntaxKind::TermItem
                | SyntaxKind::Ref
                | SyntaxKind::Label
                | SyntaxKind::Link
                | SyntaxKind::SmartQuote
                | SyntaxKind::Escape
                | SyntaxKind::Shorthand
                | SyntaxKind::Equation
                | SyntaxKind::Raw
        );
        let text = kind == SyntaxKind::Text && !node.full_text().trim().is_empty();
        assert!(
            !markup && !text,
            "markup {kind:?} `{}` in the source",
            node.full_text()
        );
        path.push(kind);
        for child in node.children() {
            check(child, path);
        }
        path.pop();
    }
    let source = generate_source_of(&injection_book());
    let root = parse(&source);
    assert!(
        root.errors_and_warnings().0.is_empty(),
        "the source does not parse"
    );
    check(&root, &mut Vec::new());
}

#[test]
fn same_book_same_bytes_even_in_parallel() {
    let book = sample_book();
    let first = render_ok(&book).pdf;
    let others: Vec<Vec<u8>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2).map(|_| s.spawn(|| render_ok(&book).pdf)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    for other in others {
        assert!(first == other, "two renders of one book differ");
    }
}

#[test]
fn chapters_open_on_right_hand_pages() {
    // The sample has a one-page chapter, so that the next would open on a
    // left page if nothing pushed it to the right.
    let book = sample_book();
    let pdf = render_ok(&book).pdf;
    let pages: Vec<String> = (1..=page_count(&pdf)).map(|n| page_text(&pdf, n)).collect();
    let starts = |page: &String, words: &str| page.trim_start().starts_with(words);
    let contents = pages
        .iter()
        .position(|p| starts(p, &book.labels.contents))
        .expect("a contents page");
    let mut previous = contents;
    for chapter in &book.chapters {
        // The first page after the contents that starts with the title is
        // the opening (running heads, which repeat it, come later).
        let words: Vec<&str> = chapter.title.split_whitespace().take(3).collect();
        let opening = (previous + 1..pages.len())
            .find(|&i| starts(&pages[i], &words.join(" ")))
            .unwrap_or_else(|| panic!("`{}` never opens", chapter.title));
        let page = opening + 1;
        assert!(
            page % 2 == 1,
            "`{}` opens on even page {page}",
            chapter.title
        );
        previous = opening;
    }
}

#[test]
fn fonts_embedded_metadata_and_trim_size() {
    let book = sample_book();
    let pdf = render_ok(&book).pdf;
    let fonts = poppler("pdffonts", &pdf, &[]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "no fonts listed:\n{fonts}");
    for row in rows {
        // Columns: name type encoding emb sub uni; the type may hold spaces,
        // so count from the right.
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cols[cols.len() - 5], "yes", "font not embedded: {row}");
    }
    let info = poppler("pdfinfo", &pdf, &[]);
    assert!(
        info.contains(&format!("Title:           {}", book.meta.title)),
        "{info}"
    );
    assert!(
        info.contains(&format!("Author:          {}", book.meta.author)),
        "{info}"
    );
    let size = info
        .lines()
        .find_map(|l| l.strip_prefix("Page size:"))
        .expect("a page size");
    let nums: Vec<f64> = size
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        (nums[0] - 396.85).abs() < 0.01 && (nums[1] - 595.28).abs() < 0.01,
        "{size}"
    );
    assert!(info.contains("Tagged:          yes"), "{info}");
}

/// A 1×1 white PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xff, 0xff, 0x3f,
    0x00, 0x05, 0xfe, 0x02, 0xfe, 0x0d, 0xef, 0x46, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

fn book_with_image(path: &Path) -> Book {
    let mut book = book(vec![chapter(
        "img",
        "Pictures",
        vec![p(vec![Inline::Image {
            url: "images/img/dot.png".into(),
            alt: "A dot".into(),
            title: String::new(),
        }])],
    )]);
    book.assets.push(Asset {
        name: "images/img/dot.png".into(),
        path: path.display().to_string(),
        media_type: "image/png".into(),
    });
    book
}

#[test]
fn images_inside_the_roots_render_and_outside_fail() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path().join("book");
    std::fs::create_dir_all(root.join("img")).expect("folders");
    let inside = root.join("img/dot.png");
    let outside = dir.path().join("dot.png");
    std::fs::write(&inside, PNG).expect("written");
    std::fs::write(&outside, PNG).expect("written");

    let roots = vec![root.clone()];
    let ok = render(&book_with_image(&inside), &roots);
    assert!(ok.is_ok(), "{}", show(&ok.err().unwrap_or_default()));

    let err = render(&book_with_image(&outside), &roots).expect_err("outside the roots");
    assert!(
        show(&err).contains(&outside.display().to_string()),
        "{}",
        show(&err)
    );

    // `..` in the asset's path does not get around the check.
    let sneaky = root.join("img/../../dot.png");
    let err = render(&book_with_image(&sneaky), &roots).expect_err("outside the roots");
    assert!(show(&err).contains("dot.png"), "{}", show(&err));

    let missing = root.join("img/none.png");
    let err = render(&book_with_image(&missing), &roots).expect_err("a missing file");
    assert!(
        show(&err).contains(&missing.display().to_string()),
        "{}",
        show(&err)
    );
}

#[test]
fn broken_theme_names_its_file_and_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let template =
        "#let book(..args, body) = body\n#let chapter(..args, body) = body\n#let x = (1 +)\n";
    std::fs::write(dir.path().join("book.typ"), template).expect("written");
    let book = sample_book();
    let err = render_with(&book, dir.path(), &[]).expect_err("a broken theme");
    let d = &err[0];
    assert!(
        d.file.as_deref().is_some_and(|f| f.ends_with("book.typ")),
        "{}",
        show(&err)
    );
    assert_eq!(d.line, Some(3), "{}", show(&err));
}

#[test]
fn a_theme_older_than_an_argument_is_told_what_to_do() {
    // A theme exported before stoa passed `cover:` and `year:` (or any
    // later argument) lacks the parameter: the error says why and what to do.
    let dir = tempfile::tempdir().expect("a temporary folder");
    for file in ["book.typ", "code.tmTheme"] {
        let text = std::fs::read_to_string(theme_dir().join(file)).expect("the classic theme");
        let older = text.replace("  cover: (:),\n", "");
        assert!(
            file != "book.typ" || older != text,
            "the theme declares `cover`"
        );
        std::fs::write(dir.path().join(file), older).expect("written");
    }
    let err = render_with(&sample_book(), dir.path(), &[]).expect_err("an older theme");
    let d = err
        .iter()
        .find(|d| d.message.starts_with("unexpected argument"))
        .unwrap_or_else(|| panic!("{}", show(&err)));
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(
        hint.contains("predates") && hint.contains("stoa theme export"),
        "{}",
        show(&err)
    );
}

#[test]
fn plugin_styles_apply_and_cannot_reach_out() {
    let mut book = book(vec![chapter(
        "d",
        "Exchange",
        vec![Block::Div {
            role: None,
            class: "exchange".into(),
            attrs: [("voice".to_owned(), "Sócrates".to_owned())].into(),
            blocks: vec![pt("Who speaks?")],
        }],
    )]);
    let style = |code: &str| Style {
        origin: "voices".into(),
        format: "pdf".into(),
        code: code.into(),
    };
    // A style written before roles existed: `(class, attrs, body)`.
    book.styles.push(style(
        "#let div = { let base = div; (class, attrs, body) => if class == \"exchange\" [#attrs.voice: #body] else { base(class, attrs, body) } }\n#datetime.today().display()",
    ));
    let text = poppler("pdftotext", &render_ok(&book).pdf, &[]);
    assert!(text.contains("Sócrates: Who speaks?"), "{text}");
    assert!(
        text.contains("2024-05-17"),
        "today() is not the book's date:\n{text}"
    );

    for code in [
        "#read(\"/etc/passwd\")",
        "#import \"@preview/cetz:0.3.0\": *",
    ] {
        book.styles = vec![style(code)];
        let err = render(&book, &[]).expect_err("no reading outside, no packages");
        assert!(show(&err).contains("plugin `voices`"), "{}", show(&err));
    }
}

#[test]
fn styles_written_before_roles_compose_with_roles() {
    let div = |role: Option<Role>, class: &str, blocks: Vec<Block>| Block::Div {
        role,
        class: class.into(),
        attrs: Attrs::new(),
        blocks,
    };
    let book = book(vec![chapter(
        "d",
        "Terms",
        vec![div(
            Some(Role::DefinitionList),
            "terms",
            vec![
                div(Some(Role::Term), "term", vec![pt("Logos")]),
                div(Some(Role::Definition), "def", vec![pt("Word, reason.")]),
            ],
        )],
    )]);
    let mut styled = book.clone();
    // Two styles of the `(class, attrs, body)` form: one handles its class
    // and passes the rest on, the other reads the role from `attrs`.
    for (origin, code) in [
        (
            "a",
            "#let div = { let base = div; (class, attrs, body) => if class == \"term\" [TERM #body] else { base(class, attrs, body) } }",
        ),
        (
            "b",
            "#let div = { let base = div; (class, attrs, body) => if attrs.at(\"stoa:role\", default: none) == \"definition\" [DEF #body] else { base(class, attrs, body) } }",
        ),
    ] {
        styled.styles.push(Style {
            origin: origin.into(),
            format: "pdf".into(),
            code: code.into(),
        });
    }
    let text = poppler("pdftotext", &render_ok(&styled).pdf, &[]);
    assert!(
        text.contains("TERM Logos") && text.contains("DEF Word, reason."),
        "{text}"
    );
}

#[test]
fn pdf_standards() {
    let footnotes = notes_book(NoteStyle {
        placement: NotePlacement::Footnotes,
        numbering: NoteNumbering::Continuous,
    });
    for mut book in [sample_book(), footnotes] {
        for standard in ["pdf/a-2b", "pdf/ua-1"] {
            book.print.standard = Some(standard.into());
            let out = render(&book, &[]);
            assert!(
                out.is_ok(),
                "{standard}: {}",
                show(&out.err().unwrap_or_default())
            );
        }
    }
    let mut book = sample_book();
    book.print.standard = Some("pdf/x-4".into());
    let err = render(&book, &[]).expect_err("an unknown standard");
    let text = show(&err);
    assert!(
        text.contains("pdf/x-4") && text.contains("pdf/a-2b") && text.contains("pdf/ua-1"),
        "{text}"
    );
}

#[test]
fn cover_png_is_the_first_page() {
    let book = sample_book();
    assert!(PdfRenderer.draws_covers());
    assert_eq!(PdfRenderer.name(), Format::Pdf.name());
    let png = with_context(&book, &theme_dir(), &[], |ctx| {
        PdfRenderer.cover_png(ctx, 1.0)
    })
    .expect("a cover");
    assert!(png.starts_with(b"\x89PNG"));
    // 1 pixel per point: the trim size in points, rounded.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (397, 595));
}

/// The number printed before each note's text, read from the PDF: `1` of
/// a footnote's `1 Nota a de Segundo.`, of an endnote's `1. Nota a …`.
fn printed_numbers(pdf: &[u8]) -> Vec<(String, String)> {
    let text = poppler("pdftotext", pdf, &["-layout"]);
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            let (number, rest) = line.split_once(char::is_whitespace)?;
            let note = rest.trim_start();
            note.starts_with("Nota ")
                .then(|| (number.trim_end_matches('.').to_owned(), note.to_owned()))
        })
        .collect()
}

#[test]
fn notes_print_the_plans_numbers_in_every_mode() {
    let modes = [
        NotePlacement::Footnotes,
        NotePlacement::Endnotes,
        NotePlacement::NotesChapter,
    ];
    for placement in modes {
        for (numbering, numbers) in [
            (NoteNumbering::PerChapter, ["1", "1", "2", "1"]),
            (NoteNumbering::Continuous, ["1", "2", "3", "4"]),
        ] {
            let book = notes_book(NoteStyle {
                placement,
                numbering,
            });
            let out = render_ok(&book);
            let expected: Vec<(String, String)> = numbers
                .iter()
                .zip([
                    "Nota a de Primeiro.",
                    "Nota a de Segundo.",
                    "Nota b de Segundo.",
                    "Nota x de Terceiro.",
                ])
                .map(|(n, note)| (n.to_string(), note.to_string()))
                .collect();
            assert_eq!(
                printed_numbers(&out.pdf),
                expected,
                "{placement:?}, {numbering:?}"
            );
            assert!(out.warnings.is_empty(), "{}", show(&out.warnings));
        }
    }
}

#[test]
fn the_notes_chapter_holds_every_chapters_notes_under_its_title() {
    let book = notes_book(NoteStyle {
        placement: NotePlacement::NotesChapter,
        numbering: NoteNumbering::PerChapter,
    });
    let pdf = render_ok(&book).pdf;
    let last = page_count(&pdf);
    let notes_page = (1..=last)
        .rev()
        .find(|&n| page_text(&pdf, n).trim_start().starts_with("Notas"))
        .expect("a notes chapter");
    let text = page_text(&pdf, notes_page);
    let at = |words: &str| {
        text.find(words)
            .unwrap_or_else(|| panic!("`{words}` not in the notes chapter:\n{text}"))
    };
    assert!(at("Primeiro") < at("Nota a de Primeiro."));
    assert!(at("Nota a de Primeiro.") < at("Segundo"));
    assert!(at("Segundo") < at("Nota b de Segundo."));
    assert!(at("Terceiro") < at("Nota x de Terceiro."));
}

#[test]
fn dates_are_the_locale_tables_in_both_languages() {
    for (lang, book_date, post_date) in [
        ("en", "May 17, 2024", "March 2, 2023"),
        ("pt-BR", "17 de maio de 2024", "2 de março de 2023"),
    ] {
        let mut book = notes_book(NoteStyle::default());
        book.lang = lang.into();
        let pdf = render_ok(&book).pdf;
        let text = poppler("pdftotext", &pdf, &[]);
        assert!(text.contains(book_date), "{lang}: {text}");
        assert_eq!(text.matches(post_date).count(), 3, "{lang}: {text}");
        let info = poppler("pdfinfo", &pdf, &[]);
        assert!(info.contains("2024"), "the metadata keeps the date: {info}");
    }
}

#[test]
fn roles_print_without_a_plugin_style() {
    let book = sample_book();
    let pdf = render_ok(&book).pdf;
    let text = poppler("pdftotext", &pdf, &[]);
    for words in ["Legibilidade", "Retórica", "Sócrates", "Fedro"] {
        assert!(text.contains(words), "`{words}` not printed:\n{text}");
    }
    let source = generate_source_of(&book);
    assert!(source.contains(r#""stoa:role": "glossary""#), "{source}");
    assert!(source.contains(r#""stoa:role": "speaker""#), "{source}");
}

#[test]
fn a_link_to_a_chapter_reaches_its_title() {
    let mut book = sample_book();
    book.chapters[0].blocks.push(p(vec![Inline::Link {
        url: "#termos".into(),
        title: String::new(),
        content: vec![t("os termos")],
    }]));
    let out = render_ok(&book);
    assert!(
        out.source
            .contains(r##"#link(label("ch:termos"))[#"os termos"]"##),
        "{}",
        out.source
    );
}

#[test]
fn the_page_map_says_where_each_page_begins_with_the_pdf_labels() {
    let long = "This paragraph is long enough to take a few lines of the page, \
                so that many of them fill several pages of the book. "
        .repeat(4);
    let blocks: Vec<Block> = (0..40).map(|_| pt(&long)).collect();
    let book = book(vec![
        chapter("one", "One", blocks),
        chapter("two", "Two", vec![pt("Short.")]),
    ]);
    let rendered = render_with(&book, &theme_dir(), &[]).expect("renders");
    let pages = rendered.pages.expect("the PDF maps its pages");
    let starts: Vec<(String, &str)> = pages
        .iter()
        .filter(|(k, _)| k.offset.is_none())
        .map(|(k, l)| (k.block.to_text(), l))
        .collect();
    // Pages that begin inside a paragraph begin at a word of it, which
    // the map names by its text position.
    let inside: Vec<_> = pages.iter().filter(|(k, _)| k.offset.is_some()).collect();
    assert!(!inside.is_empty(), "{pages:?}");
    for (start, label) in &inside {
        assert_eq!(start.block.chapter, 0, "{start:?}");
        let at = start.offset.unwrap();
        let chars: Vec<char> = long.chars().collect();
        assert!(
            at > 0 && chars[at - 1] == ' ' && chars[at] != ' ',
            "page {label} begins at a word: {start:?}"
        );
    }
    assert_eq!(starts[0], ("0".to_owned(), "1"), "{starts:?}");
    assert!(starts.len() > 3, "{starts:?}");
    // Arabic labels from 1, one entry per page at most, in book order.
    let numbers: Vec<u32> = starts.iter().map(|(_, l)| l.parse().unwrap()).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    let (key, label) = starts.last().unwrap();
    assert_eq!(key, "1", "the second chapter opens a page: {starts:?}");
    assert!(
        label.parse::<u32>().unwrap() % 2 == 1,
        "on a right-hand page"
    );
}

#[test]
fn a_table_over_several_pages_keeps_the_page_starts_in_book_order() {
    // Typst repeats a table's header on every page it runs over: that
    // text, set again, must not be taken for where the page begins.
    let cell = |t: &str| vec![stoa_doc::Inline::text(t)];
    let rows: Vec<Vec<Vec<stoa_doc::Inline>>> = (0..150)
        .map(|i| vec![cell(&format!("row {i}")), cell("some words in a cell")])
        .collect();
    let table = Block::Table {
        align: vec![stoa_doc::Align::None; 2],
        head: vec![cell("Header one"), cell("Header two")],
        rows,
    };
    let book = book(vec![chapter("one", "One", vec![pt("Before."), table])]);
    let rendered = render_with(&book, &theme_dir(), &[]).expect("renders");
    let pages = rendered.pages.expect("the PDF maps its pages");
    let labels: Vec<u32> = pages.iter().map(|(_, l)| l.parse().unwrap()).collect();
    assert!(labels.len() > 2, "{pages:?}");
    assert!(labels.windows(2).all(|w| w[0] < w[1]), "{pages:?}");
    assert!(
        pages
            .iter()
            .skip(1)
            .all(|(start, _)| start.offset.is_some()),
        "the table's pages begin inside it: {pages:?}"
    );
}
