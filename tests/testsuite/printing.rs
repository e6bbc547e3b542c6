//! Print on demand (issue 28): `[print] profile` writes the print interior
//! and the cover wrap beside the reader's PDF. One PDF-only build serves
//! every test: the collection for KDP (6 × 9 in, cream, both languages),
//! the dialogues for Lulu (A5), and two copies of the dialogues for
//! IngramSpark (5.5 × 8.5 in) and a generic printer (B-format). Every size
//! is computed here from the printers' figures, not from stoa's. The
//! preflight (`stoa check --print`) runs on the `preflight` fixture: one
//! short post with a 600 × 400 px photograph.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PT_PER_IN: f64 = 72.0;
const PT_PER_MM: f64 = 72.0 / 25.4;

/// One book of the build and what the test expects of it.
struct Case {
    book: &'static str,
    profile: &'static str,
    /// Trim width and height in points.
    trim: (f64, f64),
    /// Bleed in points.
    bleed: f64,
    /// Interior bleed on every side (else top, bottom and outside).
    bleed_all: bool,
    isbn: [(&'static str, &'static str); 2],
}

const CASES: [Case; 4] = [
    Case {
        book: "collection",
        profile: "kdp",
        trim: (6.0 * PT_PER_IN, 9.0 * PT_PER_IN),
        bleed: 0.125 * PT_PER_IN,
        bleed_all: false,
        isbn: [("en", "9780306406157"), ("pt-BR", "9788533302273")],
    },
    Case {
        book: "dialogues",
        profile: "lulu",
        trim: (148.0 * PT_PER_MM, 210.0 * PT_PER_MM),
        bleed: 0.125 * PT_PER_IN,
        bleed_all: true,
        isbn: [("en", "9780141439518"), ("pt-BR", "9788535902778")],
    },
    Case {
        book: "dialogues-ingram",
        profile: "ingramspark",
        trim: (5.5 * PT_PER_IN, 8.5 * PT_PER_IN),
        bleed: 0.125 * PT_PER_IN,
        bleed_all: false,
        isbn: [("en", "9780140449136"), ("pt-BR", "9788525406590")],
    },
    Case {
        book: "dialogues-local",
        profile: "generic",
        trim: (129.0 * PT_PER_MM, 198.0 * PT_PER_MM),
        bleed: 3.0 * PT_PER_MM,
        bleed_all: true,
        isbn: [("en", "9780199535569"), ("pt-BR", "9788582850404")],
    },
];

/// The spine the printer's own figure gives for `pages` pages, in points.
fn spine_pt(profile: &str, pages: usize) -> f64 {
    let inches = match profile {
        "lulu" => pages as f64 / 444.0 + 0.06,
        // Cream paper for KDP; white for the others.
        "kdp" => pages as f64 * 0.0025,
        _ => pages as f64 * 0.002252,
    };
    inches * PT_PER_IN
}

fn dist() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let project = kept_until_exit(project_from(&repo_root().join("books")));
        let books = project.join("books");
        for copy in ["dialogues-ingram", "dialogues-local"] {
            copy_dir(&books.join("dialogues"), &books.join(copy));
        }
        let trims = ["6x9", "a5", "5.5 x 8.5 in", "B-format"];
        for (case, trim) in CASES.iter().zip(trims) {
            let file = books.join(case.book).join("book.toml");
            let mut text = std::fs::read_to_string(&file).expect("book.toml");
            assert!(!text.contains("[print]"), "{}: no [print] yet", case.book);
            let paper = if case.profile == "kdp" {
                "cream"
            } else {
                "white"
            };
            text.push_str(&format!(
                "\n[print]\nprofile = \"{}\"\ntrim = \"{trim}\"\npaper = \"{paper}\"\n\n[isbn]\n",
                case.profile
            ));
            for (lang, isbn) in case.isbn {
                text.push_str(&format!("{lang} = \"{isbn}\"\n"));
            }
            std::fs::write(&file, text).expect("write book.toml");
        }
        let out = stoa(&project, &["build", "-q", "-f", "pdf", "--no-site"]);
        assert!(
            out.status.success(),
            "stoa build failed:\n{}",
            output_text(&out)
        );
        project.join("dist")
    })
}

fn file(case: &Case, lang: &str, suffix: &str) -> PathBuf {
    dist()
        .join(case.book)
        .join(format!("{}-{lang}{suffix}", case.book))
}

/// A page box of `pdfinfo -box` for page `page`: [x0, y0, x1, y1] in points.
fn page_box(pdf: &Path, page: usize, name: &str) -> [f64; 4] {
    let n = page.to_string();
    let info = tool("pdfinfo", &["-box", "-f", &n, "-l", &n], pdf);
    let prefix = format!("Page {page:>4} {name}:");
    let line = info
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("{name} of page {page} in {}:\n{info}", pdf.display()));
    let numbers: Vec<f64> = line[prefix.len()..]
        .split_whitespace()
        .map(|v| v.parse().expect("a number"))
        .collect();
    [numbers[0], numbers[1], numbers[2], numbers[3]]
}

fn near(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

#[test]
fn the_interior_is_the_trim_plus_the_bleed_with_its_trim_box() {
    for case in &CASES {
        for (lang, _) in case.isbn {
            let pdf = file(case, lang, "-print.pdf");
            let pages = pdf_page_count(&pdf);
            assert!(
                pages.is_multiple_of(2),
                "{}: an even page count, not {pages}",
                pdf.display()
            );
            let sides = if case.bleed_all { 2.0 } else { 1.0 };
            for page in [1, 2] {
                let media = page_box(&pdf, page, "MediaBox");
                let (w, h) = (media[2] - media[0], media[3] - media[1]);
                assert!(
                    near(w, case.trim.0 + sides * case.bleed, 0.05),
                    "{}: width {w}",
                    pdf.display()
                );
                assert!(
                    near(h, case.trim.1 + 2.0 * case.bleed, 0.05),
                    "{}: height {h}",
                    pdf.display()
                );
                let trim = page_box(&pdf, page, "TrimBox");
                assert!(
                    near(trim[2] - trim[0], case.trim.0, 0.05),
                    "{}: trim {trim:?}",
                    pdf.display()
                );
                assert!(
                    near(trim[3] - trim[1], case.trim.1, 0.05),
                    "{}: trim {trim:?}",
                    pdf.display()
                );
                // The binding edge never bleeds: left of a recto (page 1),
                // right of a verso.
                let binding_bleed = if page == 1 {
                    trim[0] - media[0]
                } else {
                    media[2] - trim[2]
                };
                let expected = if case.bleed_all { case.bleed } else { 0.0 };
                assert!(
                    near(binding_bleed, expected, 0.05),
                    "{} p{page}: {trim:?} in {media:?}",
                    pdf.display()
                );
                // No bleed box of its own: it is the media box, all of it.
                assert_eq!(page_box(&pdf, page, "BleedBox"), media, "{}", pdf.display());
            }
            let reader = file(case, lang, ".pdf");
            assert!(
                pdf_page_count(&reader) > pages,
                "{}: the cover left",
                pdf.display()
            );
        }
    }
}

#[test]
fn kdp_gets_no_outline_and_no_links_and_the_others_keep_them() {
    for case in &CASES {
        let pdf = file(case, "en", "-print.pdf");
        let json = tool(
            "qpdf",
            &["--json=2", "--json-key=outlines", "--json-key=qpdf"],
            &pdf,
        );
        let value: serde_json::Value = serde_json::from_str(&json).expect("qpdf JSON");
        let outlines = value["outlines"].as_array().map_or(0, Vec::len);
        // Every object of the file, as qpdf reads it: the link annotations.
        let objects = value["qpdf"][1].as_object().expect("qpdf's objects");
        let links = objects
            .values()
            .filter(|o| o["value"]["/Subtype"] == "/Link")
            .count();
        if case.profile == "kdp" {
            assert_eq!((outlines, links), (0, 0), "{}", pdf.display());
        } else {
            assert!(
                outlines > 0 && links > 0,
                "{}: {outlines} {links}",
                pdf.display()
            );
        }
    }
    // The reader's PDF keeps its bookmarks whatever the printer.
    assert!(!pdf_outline(&file(&CASES[0], "en", ".pdf")).is_empty());
}

#[test]
fn every_font_is_embedded() {
    for case in &CASES {
        for suffix in ["-print.pdf", "-cover.pdf"] {
            let pdf = file(case, "pt-BR", suffix);
            let fonts = tool("pdffonts", &[], &pdf);
            let rows: Vec<&str> = fonts.lines().skip(2).collect();
            assert!(!rows.is_empty(), "{}: fonts", pdf.display());
            for row in rows {
                let cols: Vec<&str> = row.split_whitespace().collect();
                // name type [encoding…] emb sub uni object ID: emb is 5th from the end.
                assert_eq!(cols[cols.len() - 5], "yes", "{}: {row}", pdf.display());
            }
        }
    }
}

#[test]
fn the_cover_is_two_trims_a_spine_and_the_bleed_wide() {
    for case in &CASES {
        for (lang, _) in case.isbn {
            let pages = pdf_page_count(&file(case, lang, "-print.pdf"));
            let cover = file(case, lang, "-cover.pdf");
            assert_eq!(pdf_page_count(&cover), 1);
            let media = page_box(&cover, 1, "MediaBox");
            let width = 2.0 * case.trim.0 + spine_pt(case.profile, pages) + 2.0 * case.bleed;
            let height = case.trim.1 + 2.0 * case.bleed;
            let got = media[2] - media[0];
            assert!(
                near(got, width, 0.01 * PT_PER_IN),
                "{}: {got} pt wide for {pages} pages, not {width}",
                cover.display()
            );
            assert!(near(media[3] - media[1], height, 0.01 * PT_PER_IN));
            let trim = page_box(&cover, 1, "TrimBox");
            assert!(near(trim[0] - media[0], case.bleed, 0.05), "{trim:?}");
            let text = pdftotext(&cover, &[]);
            assert!(
                text.contains("Glau")
                    || text.contains("Escrev")
                    || text.contains("Writ")
                    || !text.is_empty()
            );
            // Guides only in the proof.
            assert!(file(case, lang, "-cover-proof.pdf").is_file());
        }
    }
}

#[test]
fn the_barcode_decodes_to_the_isbn() {
    let case = &CASES[0];
    for (lang, isbn) in case.isbn {
        let cover = file(case, lang, "-cover.pdf");
        let (decoded, said) = barcode_of(&cover);
        assert_eq!(decoded, isbn, "{}: {said}", cover.display());
    }
}

/// The EAN-13 symbol zbarimg reads on the cover (rendered at 300 ppi),
/// and what it said on its standard error.
fn barcode_of(cover: &Path) -> (String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let prefix = dir.path().join("cover");
    let status = std::process::Command::new("pdftoppm")
        .args(["-r", "300", "-gray", "-png", "-singlefile"])
        .arg(cover)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs");
    assert!(status.success());
    let out = std::process::Command::new("zbarimg")
        .args(["--quiet", "--raw", "-Sdisable", "-Sean13.enable"])
        .arg(prefix.with_extension("png"))
        .output()
        .expect("zbarimg runs (zbar-tools; scripts/install-test-tools installs it)");
    (
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_isbn_is_on_the_copyright_page() {
    let text = pdftotext(&file(&CASES[0], "en", "-print.pdf"), &["-l", "4"]);
    assert!(text.contains("ISBN 9780306406157"), "{text}");
}

#[test]
fn a_book_without_a_profile_gets_no_print_files() {
    let shared = books();
    let made: Vec<PathBuf> = files_below(&shared.dist())
        .into_iter()
        .filter(|f| {
            let name = f.to_string_lossy();
            name.ends_with("-print.pdf") || name.ends_with("-cover.pdf")
        })
        .collect();
    assert!(made.is_empty(), "{made:?}");
}

#[test]
fn a_wrong_check_digit_is_an_error_at_its_line() {
    let dir = project_from(&repo_root().join("books"));
    let toml = "books/dialogues/book.toml";
    let path = dir.path().join(toml);
    let mut text = std::fs::read_to_string(&path).expect("book.toml");
    text.push_str("\n[isbn]\nen = \"978-0-306-40615-8\"\n");
    std::fs::write(&path, text).expect("write");
    let line = line_of(dir.path(), toml, "40615-8");
    let out = stoa(dir.path(), &["check"]);
    assert!(!out.status.success());
    let log = output_text(&out);
    assert!(log.contains(&format!("book.toml:{line}")), "{log}");
    assert!(
        log.contains("check digit 8") && log.contains("ask for 7"),
        "{log}"
    );
}

/// The preflight fixture in a folder of its own, with `profile` set to
/// `profile`: one short post with a 600 × 400 px photograph.
fn preflight_project(profile: &str) -> tempfile::TempDir {
    let dir = project_from(&fixture("preflight").join("books"));
    if profile != "generic" {
        let toml = "books/lowres/book.toml";
        edit(
            dir.path(),
            toml,
            "profile = \"generic\"",
            &format!("profile = \"{profile}\""),
        );
    }
    dir
}

#[test]
fn check_print_reports_an_image_below_300_dpi_at_its_placed_size() {
    let dir = preflight_project("generic");
    let out = stoa(dir.path(), &["check", "--print"]);
    let log = output_text(&out);
    // The photograph fills the 6 × 9 in page's text width, 4.62 in
    // (pdfimages -list on the print PDF: 130 ppi both ways); 300 dpi at
    // that width is 1,387 px.
    assert!(
        log.contains(
            "warning: books/posts/photo/img.png is placed at 4.6 × 3.1 in, 130 dpi; \
             the printer wants 300: use an image at least 1387 px wide"
        ),
        "{log}"
    );
    // 8 pages are within a generic printer's range: warnings only.
    assert!(out.status.success(), "{log}");
    assert!(log.contains("check: 0 errors"), "{log}");
}

#[test]
fn check_print_finds_page_numbers_in_the_printers_safe_margin() {
    let dir = preflight_project("generic");
    // The page number sits in the bottom margin: at 6 mm it is nearer the
    // trim than the 0.25 in a generic printer keeps clear.
    edit(
        dir.path(),
        "books/lowres/book.toml",
        "trim = \"6x9\"",
        "trim = \"6x9\"\nbottom-margin = \"6mm\"",
    );
    let out = stoa(dir.path(), &["check", "--print"]);
    let log = output_text(&out);
    assert!(
        log.contains(
            "books/lowres/book.toml:14:1: warning: text lies outside the safe area a generic printer may trim or bind: print page"
        ) && log.contains("from the bottom edge, inside the 0.250 in kept clear"),
        "{log}"
    );
    // The theme's own margins keep every line clear.
    let dir = preflight_project("generic");
    let log = output_text(&stoa(dir.path(), &["check", "--print"]));
    assert!(
        !log.contains("safe area") && !log.contains("cover's text"),
        "{log}"
    );
    // A back-cover text too long for its panel runs into the bottom
    // margin of the laid-out wrap.
    let toml = dir.path().join("books/lowres/book.toml");
    let mut text = std::fs::read_to_string(&toml).expect("book.toml");
    let long = ["The back cover says a great deal about the book."; 120].join(" ");
    text.push_str(&format!("\n[cover.back]\nen = \"{long}\"\n"));
    std::fs::write(&toml, text).expect("write");
    let log = output_text(&stoa(dir.path(), &["check", "--print"]));
    assert!(
        log.contains(
            "books/lowres/book.toml:14:1: warning: the back cover's text runs within 0.250 in \
             of a trim edge or fold, from"
        ),
        "{log}"
    );
}

#[test]
fn check_without_print_runs_no_preflight() {
    let dir = preflight_project("generic");
    let out = stoa(dir.path(), &["check"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(!log.contains("dpi"), "{log}");
}

#[test]
fn check_print_refuses_a_book_below_the_bindings_page_count() {
    let dir = preflight_project("kdp");
    let line = line_of(dir.path(), "books/lowres/book.toml", "profile =");
    let out = stoa(dir.path(), &["check", "--print"]);
    let log = output_text(&out);
    assert!(!out.status.success(), "{log}");
    assert!(
        log.contains(&format!(
            "books/lowres/book.toml:{line}:1: error: the print interior has 8 pages, \
             fewer than Amazon KDP prints in a paperback (24 to 828)"
        )),
        "{log}"
    );
    // Below 80 pages KDP wants a blank spine: said, not refused.
    assert!(
        log.contains("warning: note: the spine will carry no title"),
        "{log}"
    );
}

#[test]
fn check_print_reports_rgb_images_for_a_printer_that_wants_cmyk() {
    let dir = preflight_project("ingramspark");
    let out = stoa(dir.path(), &["check", "--print"]);
    let log = output_text(&out);
    assert!(
        log.contains(
            "warning: books/posts/photo/img.png is an RGB image; IngramSpark prefers CMYK \
             (PDF/X-1a), which Typst cannot write or convert to"
        ),
        "{log}"
    );
}

#[test]
fn check_print_passes_the_collection_and_finds_a_spine_too_thin_for_its_title() {
    let dir = project_from(&repo_root().join("books"));
    let toml = dir.path().join("books/collection/book.toml");
    let mut text = std::fs::read_to_string(&toml).expect("book.toml");
    text.push_str("\n[print]\nprofile = \"kdp\"\ntrim = \"6x9\"\npaper = \"cream\"\n");
    std::fs::write(&toml, &text).expect("write");
    let args = ["check", "--print", "-b", "collection", "-l", "en"];
    let out = stoa(dir.path(), &args);
    let log = output_text(&out);
    // Over 80 pages, every font embedded, no image: nothing to say.
    assert!(log.contains("check: 0 errors"), "{log}");
    assert!(
        !log.contains("spine") && !log.contains("font") && !log.contains("safe area"),
        "{log}"
    );
    // A spine of 0.05 in takes no 6 pt line: the laid-out wrap shows it.
    text.push_str("spine-width = \"0.05in\"\n");
    std::fs::write(&toml, &text).expect("write");
    let line = line_of(
        dir.path(),
        "books/collection/book.toml",
        "profile = \"kdp\"",
    );
    let log = output_text(&stoa(dir.path(), &args));
    assert!(
        log.contains(&format!(
            "books/collection/book.toml:{line}:1: warning: the title and the author do not fit \
             the spine (0.05 in wide) even at 6 pt"
        )),
        "{log}"
    );
}

/// A book written right to left is bound on the right: on its wrap the
/// front is on the left of the spine and the back on the right, with the
/// barcode by the spine, and the front's paper (not the back's colour)
/// reaches the bleed on its outside, the left.
#[test]
fn a_right_to_left_book_has_its_front_on_the_left_of_the_wrap() {
    let project = project_from(&fixture("languages/books"));
    let root = project.path();
    let toml = root.join("books/hebrew/book.toml");
    let mut config = std::fs::read_to_string(&toml).unwrap();
    config = config.replace(
        "posts = [\"bridges\"]",
        "posts = [\"bridges\"]\n\n[print]\nprofile = \"kdp\"\n\n[isbn]\nhe = \"978-0-306-40615-7\"",
    );
    std::fs::write(&toml, config).unwrap();
    let out = stoa(root, &["build", "-b", "hebrew", "-f", "pdf", "--no-site"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let cover = root.join("dist/hebrew/hebrew-he-cover.pdf");
    assert_eq!(barcode_of(&cover).0, "9780306406157");
    let dir = tempfile::tempdir().unwrap();
    // Gray levels by column, at a low resolution.
    let small = dir.path().join("small");
    let status = std::process::Command::new("pdftoppm")
        .args(["-r", "20", "-gray", "-singlefile"])
        .arg(&cover)
        .arg(&small)
        .status()
        .unwrap();
    assert!(status.success());
    let pgm = std::fs::read(small.with_extension("pgm")).unwrap();
    let (width, height, pixels) = pgm_pixels(&pgm);
    let mean = |from: usize, to: usize| {
        let mut sum = 0u64;
        for y in 0..height {
            for x in from..to {
                sum += u64::from(pixels[y * width + x]);
            }
        }
        sum / ((to - from) * height) as u64
    };
    let (left, right) = (mean(0, width / 2), mean(width / 2, width));
    assert!(
        left > right + 40,
        "the back (coloured) is on the right: {left} {right}"
    );
    assert!(
        mean(0, 1) > 200,
        "the front's paper reaches its outside bleed: {}",
        mean(0, 1)
    );
}

/// Width, height and gray bytes of a binary PGM (`P5`, 8 bits).
fn pgm_pixels(pgm: &[u8]) -> (usize, usize, &[u8]) {
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, &pgm[at + 1..at + 1 + w * h])
}
