//! Raw HTML as real blog posts hold it (issue 49): phrase elements, images,
//! centred and aligned wrappers, an embedded player, a figure, details, a
//! table, a definition list, a script and an element stoa does not know,
//! links empty, broken, mistyped and without their scheme, a heading named
//! as its chapter and an empty one, in two languages. Every format shows
//! what it means, none prints a tag,
//! every image is in all three, and what is left out is said at its line.
//! Emoji print with the embedded emoji face; CJK, which no embedded face
//! has, is set in the machine's CJK faces when no font pack is installed
//! (said once), in the project's own fonts, and stops the PDF with the
//! command that fetches the pack when there are none.

use crate::prelude::*;

const LANGS: [&str; 2] = ["en", "pt-BR"];

#[test]
fn raw_html_becomes_the_book_in_every_format_never_tags() {
    let project = project_from(&fixture("raw-html/books"));
    let root = project.path();
    let out = stoa(root, &["build"]);
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    // The machine's CJK faces (scripts/install-test-tools installs Noto
    // CJK) set the CJK paragraph, said once for both editions.
    let machine = "warning: no CJK font pack is installed: the PDF sets Chinese, Japanese and Korean text in this machine's";
    assert_eq!(printed.matches(machine).count(), 1, "{printed}");
    assert!(!printed.contains("no font of the PDF has"), "{printed}");
    for lang in LANGS {
        let post = format!("books/posts/raw-html/{lang}.md");
        for (needle, message) in [
            ("]()", "warning: a link with no address; its text is kept"),
            (
                "](github)",
                "warning: the link to `github` leads to no web address and no post",
            ),
            (
                "](#raw-htlm)",
                "warning: the link to `#raw-htlm` leads to nothing in this edition",
            ),
            (
                "https://example.com/picture.png",
                "warning: the image `https://example.com/picture.png` is not shown: it is on the web",
            ),
            (
                "<script>",
                "warning: the HTML element `<script>` is left out",
            ),
            (
                "<marquee>",
                "warning: the HTML element `<marquee>` is not one stoa reads",
            ),
        ] {
            let line = line_of(root, &post, needle);
            assert!(
                printed.contains(&format!("{post}:{line}:")) && printed.contains(message),
                "{post}:{line} {message}\n{printed}"
            );
        }
    }
    let dist = root.join("dist/raw-html");
    let epubs: Vec<_> = LANGS
        .iter()
        .map(|l| dist.join(format!("raw-html-{l}.epub")))
        .collect();
    let found = epubcheck(&epubs);
    assert!(found.is_empty(), "EPUBCheck: {found:?}");
    let pages: Vec<_> = LANGS
        .iter()
        .map(|l| dist.join(format!("{l}/raw-html.html")))
        .collect();
    let errors = nu_errors(&pages);
    assert!(errors.is_empty(), "the Nu HTML checker: {errors:#?}");

    // The tags of the posts, none of which may be printed.
    let tags = [
        "<sub",
        "<sup",
        "<kbd",
        "<mark",
        "<abbr",
        "<u>",
        "<br",
        "<center",
        "<p ",
        "<img",
        "<div",
        "</div",
        "<iframe",
        "<figure",
        "<figcaption",
        "<details",
        "<summary",
        "<table",
        "<tr",
        "<td",
        "<th",
        "<dl",
        "<dt",
        "<dd",
        "<script",
        "<marquee",
        "never shown",
        "nunca mostrado",
    ];
    for (lang, epub) in LANGS.iter().zip(&epubs) {
        let pdf = dist.join(format!("raw-html-{lang}.pdf"));
        let text = pdftotext(&pdf, &[]);
        for tag in tags {
            assert!(
                !text.contains(tag),
                "{lang}: `{tag}` printed in the PDF:\n{text}"
            );
        }
        assert!(
            text.contains("List<String>"),
            "{lang}: a type stays as typed:\n{text}"
        );
        assert!(
            text.contains("https://www.youtube.com/watch?v=d"),
            "{lang}: {text}"
        );
        // Three of the post's images are its own file: in print, ...
        let images = tool("pdfimages", &["-list"], &pdf);
        assert_eq!(images.lines().skip(2).count(), 3, "{lang}: {images}");
        // ... in the EPUB ...
        let page = zip_entry(epub, "OEBPS/raw-html.xhtml");
        assert_eq!(
            page.matches("<img src=\"images/raw-html/1-square.png\"")
                .count(),
            3,
            "{page}"
        );
        for element in [
            "<sub>2</sub>",
            "<sup>2</sup>",
            "<kbd>Ctrl</kbd>",
            "<mark>",
            "<abbr title=\"HyperText Markup Language\">HTML</abbr>",
            "<u>",
            "<br/>",
            "<table>",
            "<blockquote>",
        ] {
            assert!(page.contains(element), "{lang}: {element} in {page}");
        }
        assert!(
            !page.contains("&lt;center") && !page.contains("&lt;img"),
            "{page}"
        );
        // ... and on the web.
        let web = std::fs::read_to_string(dist.join(format!("{lang}/raw-html.html"))).unwrap();
        assert_eq!(
            web.matches("<img src=\"images/raw-html/1-square.png\"")
                .count(),
            3,
            "{web}"
        );
        assert!(web.contains("<kbd>Ctrl</kbd>"), "{web}");
        // The links: the scheme-less address an https link, the broken ones
        // their words, the embedded video, object and embed links to them.
        for page in [&page, &web] {
            assert!(
                page.contains("href=\"https://www.example.com/notes\""),
                "{lang}: {page}"
            );
            for address in ["talk.mp4", "slides.pdf", "demo.svg"] {
                let href = format!("href=\"https://example.com/{address}\"");
                assert!(page.contains(&href), "{lang}: {address} in {page}");
            }
            assert!(
                !page.contains("href=\"github\"") && !page.contains("#raw-htlm"),
                "{lang}: {page}"
            );
        }
    }
}

#[test]
fn cjk_is_set_in_the_machines_faces_or_the_projects_or_stops_the_pdf() {
    let project = project_from(&fixture("raw-html/books"));
    let root = project.path();
    let pdf = root.join("dist/raw-html/raw-html-en.pdf");
    let build = |fonts: Option<&str>| {
        let mut command = stoa_command(root);
        command.args(["build", "--no-site", "-f", "pdf", "-l", "en"]);
        if let Some(folders) = fonts {
            command.env("STOA_SYSTEM_FONT_DIRS", folders);
        }
        let out = command.output().expect("stoa runs");
        (out.status.success(), output_text(&out))
    };
    // No pack and no machine fonts: the PDF stops at the CJK paragraph
    // with the command that fetches the pack.
    let (ok, said) = build(Some(""));
    assert!(!ok, "{said}");
    let post = "books/posts/raw-html/en.md";
    let cjk = line_of(root, post, "日本語");
    assert!(
        said.contains(&format!(
            "{post}:{cjk}:1: error: this book has Chinese, Japanese or Korean text (`日` first)"
        )),
        "{said}"
    );
    assert!(
        said.contains("run `stoa fonts add noto-serif-cjk` once"),
        "{said}"
    );
    assert!(!pdf.exists());

    // The machine's faces, named.
    let (ok, said) = build(None);
    assert!(ok, "{said}");
    assert!(said.contains("this machine's Noto"), "{said}");
    let fonts = tool("pdffonts", &[], &pdf);
    assert!(
        fonts.contains("CJK"),
        "a CJK face of the system is embedded:\n{fonts}"
    );
    let text = pdf_text(&pdf).replace(' ', "");
    assert!(text.contains("日本語の文章と中文的段落"), "{text}");

    // The project's own `fonts/` folder (beside `books/`) serves as well,
    // without the machine's fonts, and nothing is said.
    let serif = std::path::Path::new("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc");
    std::fs::create_dir_all(root.join("fonts")).unwrap();
    std::fs::copy(serif, root.join("fonts/NotoSerifCJK-Regular.ttc")).unwrap();
    let (ok, own) = build(Some(""));
    assert!(ok, "{own}");
    assert!(
        !own.contains("no font of the PDF has") && !own.contains("CJK font pack"),
        "{own}"
    );
    let fonts = tool("pdffonts", &[], &pdf);
    assert!(
        fonts.contains("NotoSerifCJK"),
        "the project's CJK face:\n{fonts}"
    );
    // The author's own face wins over the machine's too.
    let (ok, own) = build(None);
    assert!(ok, "{own}");
    assert!(!own.contains("this machine's"), "{own}");
}

/// Pieces of raw HTML as real posts hold them, nested, unclosed and
/// hostile, for the generated posts below.
const HTML: &[&str] = &[
    "<div align=\"center\">",
    "</div>",
    "<center>",
    "</center>",
    "<b>",
    "</b>",
    "<i><b>",
    "</i>",
    "<sup>",
    "</sup>",
    "<sub>x</sub>",
    "<kbd>K</kbd>",
    "<mark>",
    "</mark>",
    "<details><summary>S</summary>",
    "</details>",
    "<table><tr><td>1</td>",
    "</table>",
    "<iframe src=\"https://www.youtube.com/embed/x\"></iframe>",
    "<img src=\"https://example.com/a.png\" alt=\"a\">",
    "<br>",
    "<p align=\"right\">",
    "</p>",
    "<script>alert(1)</script>",
    "<style>p{}</style>",
    "<span lang=\"la\">",
    "</span>",
    "<a href=\"#nowhere\">",
    "<a href=\"javascript:x\">",
    "<a href=\"https://x.org\">",
    "</a>",
    "<h2>T</h2>",
    "<h2 id=\"raw-html\">Same id</h2>",
    "<ul><li>",
    "</li></ul>",
    "<dl><dt>T</dt><dd>",
    "</dd></dl>",
    "<blockquote>",
    "</blockquote>",
    "<pre><code>x < y</code></pre>",
    "<!-- c -->",
    "<marquee>",
    "<figure><figcaption>C</figcaption></figure>",
    "&amp; &lt;",
    "<abbr title=\"t\">A</abbr>",
    "<video src=\"//cdn.org/v.mp4\"></video>",
    "<q>",
    "<font face=x>",
    "</font>",
    "<div><div><div>",
    "<table><tr><th>✅</th></tr></table>",
];

/// Markdown around them.
const MARKDOWN: &[&str] = &[
    "\n\n",
    "\n",
    "## ",
    "- ",
    "> ",
    "*",
    "**",
    "`",
    "[x](#raw-html)",
    "[y]()",
    "[z](github)",
    "www.example.com ",
    "Text ",
    "words ",
    "$x^2$",
    "\n\n$$y = \\frac{1}{2}$$\n\n",
    "\\ref ",
    "🚀 ",
    "日本 ",
    "List<String> ",
    "[^n] ",
    "\n\n[^n]: a note\n\n",
    "|a|b|\n|-|-|\n|1|2|\n",
];

/// Posts made of Markdown and raw HTML at random (a fixed seed;
/// `STOA_FUZZ_SEED` for another) make a book
/// whose EPUB passes EPUBCheck and whose web edition passes the Nu checker:
/// whatever the mix, the gate and the checkers find nothing.
#[test]
fn generated_posts_of_markdown_and_raw_html_make_valid_books() {
    let dir = tempfile::tempdir().unwrap();
    let books = dir.path().join("books");
    // Another sequence on demand, as the fuzz run takes it.
    let mut state: u64 = std::env::var("STOA_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_4749_u64)
        .max(1);
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let slugs: Vec<String> = (0..16).map(|i| format!("generated-{i}")).collect();
    for slug in &slugs {
        let mut body = String::new();
        for _ in 0..60 {
            match next(2) {
                0 => body.push_str(HTML[next(HTML.len())]),
                _ => body.push_str(MARKDOWN[next(MARKDOWN.len())]),
            }
        }
        let folder = books.join("posts").join(slug);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("en.md"),
            format!("+++\ntitle = \"Post {slug}\"\n+++\n\n{body}\n"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(books.join("mix")).unwrap();
    let list: Vec<String> = slugs.iter().map(|s| format!("\"{s}\"")).collect();
    std::fs::write(
        books.join("mix/book.toml"),
        format!(
            "author = \"A\"\nlanguages = [\"en\"]\nidentifier = \"urn:x:mix\"\nposts = [{}]\n\n[title]\nen = \"Mix\"\n",
            list.join(", ")
        ),
    )
    .unwrap();
    let out = stoa(
        dir.path(),
        &["build", "--no-site", "-f", "epub", "-f", "html"],
    );
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    assert!(!printed.contains("internal error"), "{printed}");
    let epub = dir.path().join("dist/mix/mix-en.epub");
    let found = epubcheck(std::slice::from_ref(&epub));
    assert!(found.is_empty(), "EPUBCheck: {found:?}");
    let pages: Vec<_> = slugs
        .iter()
        .map(|s| dir.path().join(format!("dist/mix/en/{s}.html")))
        .collect();
    let errors = nu_errors(&pages);
    assert!(errors.is_empty(), "the Nu HTML checker: {errors:#?}");
}
