//! The script matrix (issue 57), on tests/fixtures/v1/scripts: article 1
//! of the Universal Declaration of Human Rights in twenty languages and
//! fourteen scripts, each its own edition. Every PDF sets its text in a
//! text face that has the script (never the code face, never an empty
//! box), Chinese, Japanese and Korean in the CJK font pack, which the
//! tests serve from 127.0.0.1 (tests/fixtures/v1/font-pack: the pack's
//! faces cut down to the matrix's characters) with the machine's fonts
//! out of reach; and every EPUB passes EPUBCheck.
//!
//! The fixture is built once for the whole file; each test reads the output.

use crate::prelude::*;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

/// Each edition's language and the face its body text must be set in
/// (as pdffonts names it, without the subset prefix).
const FACES: [(&str, &str); 20] = [
    ("ar", "NotoNaskhArabic-Regular"),
    ("fa", "NotoNaskhArabic-Regular"),
    ("ur", "NotoNaskhArabic-Regular"),
    ("he", "LibertinusSerif-Regular"),
    ("hi", "NotoSerifDevanagari-Regular"),
    ("bn", "NotoSerifBengali-Regular"),
    ("ta", "NotoSerifTamil-Regular"),
    ("th", "NotoSerifThai-Regular"),
    ("am", "NotoSerifEthiopic-Regular"),
    ("ka", "NewCM10-Regular"),
    ("hy", "NewCM10-Regular"),
    ("si", "NotoSerifSinhala-Regular"),
    ("km", "NotoSerifKhmer-Regular"),
    ("ru", "LibertinusSerif-Regular"),
    ("uk", "LibertinusSerif-Regular"),
    ("el", "LibertinusSerif-Regular"),
    // Each in its own region's forms.
    ("zh-Hans", "NotoSerifCJKsc-Regular"),
    ("zh-Hant", "NotoSerifCJKtc-Regular"),
    ("ja", "NotoSerifCJKjp-Regular"),
    ("ko", "NotoSerifCJKkr-Regular"),
];

/// The test pack's files.
fn pack_files() -> PathBuf {
    fixture("font-pack")
}

/// A catalog that pins the test pack's files as `noto-serif-cjk`, each
/// with `sha` in place of its own SHA-256 when given.
fn catalog_toml(sha: Option<&str>) -> String {
    let mut text = String::from(
        "[[pack]]\nname = \"noto-serif-cjk\"\nversion = \"2.001-test\"\n\
         summary = \"the pack cut down to the script matrix\"\n\
         license = \"SIL Open Font License 1.1\"\nsource = \"tests\"\nstyle = \"serif\"\n",
    );
    for name in ["NotoSerifCJK-Regular.ttc", "NotoSerifCJK-Bold.ttc"] {
        let bytes = std::fs::read(pack_files().join(name)).unwrap();
        let own: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        text.push_str(&format!(
            "[[pack.file]]\nname = \"{name}\"\nurl = \"https://fonts.invalid/{name}\"\n\
             size = {}\nsha256 = \"{}\"\n",
            bytes.len(),
            sha.unwrap_or(&own)
        ));
    }
    text
}

/// A user of their own: a cache folder and a catalog, and no machine fonts.
struct User {
    cache: PathBuf,
    catalog: PathBuf,
}

impl User {
    fn new(sha: Option<&str>) -> User {
        let home = kept_until_exit(tempfile::tempdir().unwrap());
        let catalog = home.join("catalog.toml");
        std::fs::write(&catalog, catalog_toml(sha)).unwrap();
        User {
            cache: home.join("cache"),
            catalog,
        }
    }

    /// `stoa args` in `cwd` as this user, with `fonts` as the machine's
    /// font folders.
    fn stoa(&self, cwd: &Path, args: &[&str], fonts: &str) -> Output {
        stoa_command(cwd)
            .args(args)
            .env("XDG_CACHE_HOME", &self.cache)
            .env("STOA_FONT_PACK_CATALOG", &self.catalog)
            .env("STOA_SYSTEM_FONT_DIRS", fonts)
            .output()
            .expect("stoa runs")
    }

    /// Installs the test pack from a server on 127.0.0.1, its mirror.
    fn add_pack(&self, cwd: &Path) {
        let server = stoa_tests::web_server::serve(&pack_files());
        let mirror = format!("{}/", server.address);
        let args = ["fonts", "add", "noto-serif-cjk", "--from", &mirror];
        let add = self.stoa(cwd, &args, "");
        assert!(add.status.success(), "{}", output_text(&add));
    }

    /// What is in the pack folder.
    fn packs(&self) -> Vec<String> {
        let dir = self.cache.join("stoa/font-packs");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let user = User::new(None);
        let project = kept_until_exit(project_from(&fixture("scripts/books")));
        user.add_pack(&project);
        assert_eq!(user.packs(), ["noto-serif-cjk-2.001-test"]);
        let args = ["build", "--format", "pdf", "--format", "epub", "--no-site"];
        let out = user.stoa(&project, &args, "");
        let log = output_text(&out);
        assert!(out.status.success(), "stoa build failed:\n{log}");
        Built {
            dist: project.join("dist"),
            log,
        }
    })
}

/// The fonts of a PDF as pdffonts names them, subset prefixes dropped.
fn fonts_of(pdf: &std::path::Path) -> Vec<String> {
    tool("pdffonts", &[], pdf)
        .lines()
        .skip(2)
        .filter_map(|line| line.split_whitespace().next())
        .map(|name| name.split_once('+').map_or(name, |(_, n)| n).to_string())
        .collect()
}

#[test]
fn every_script_is_set_in_a_text_face_that_has_it() {
    let built = built();
    assert!(
        !built.log.contains("no font of the PDF has"),
        "a script drawn as boxes:\n{}",
        built.log
    );
    let mut wrong = Vec::new();
    for (lang, face) in FACES {
        let fonts = fonts_of(&built.dist.join(format!("udhr/udhr-{lang}.pdf")));
        let has = |f: &str| fonts.iter().any(|n| n.starts_with(f));
        if !has(face) || has("DejaVuSansMono") {
            wrong.push(format!("{lang}: {fonts:?}, wanted {face} and no code face"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_script_makes_a_valid_epub() {
    let epubs: Vec<PathBuf> = FACES
        .iter()
        .map(|(lang, _)| built().dist.join(format!("udhr/udhr-{lang}.epub")))
        .collect();
    let found = epubcheck(&epubs);
    assert!(found.is_empty(), "{found:#?}");
}

/// Russian and Ukrainian have stoa's words: their editions build with no
/// "no words for" warning, and print their dates and headings in their own
/// language.
#[test]
fn russian_and_ukrainian_editions_have_their_own_words() {
    let built = built();
    for lang in ["ru", "uk"] {
        assert!(
            !built.log.contains(&format!("no words for `{lang}`")),
            "{}",
            built.log
        );
    }
    for (lang, words) in [
        ("ru", ["10 декабря 1948 г.", "Содержание"]),
        ("uk", ["10 грудня 1948 р.", "Зміст"]),
    ] {
        let text = squeeze(&pdftotext(
            &built.dist.join(format!("udhr/udhr-{lang}.pdf")),
            &[],
        ));
        for word in words {
            assert!(text.contains(word), "{lang}: {word:?} in {text}");
        }
    }
}

/// Dates are written as CLDR has each language write them: its calendar
/// and its digits (Persian: the Solar Hijri calendar; Thai: the Buddhist
/// era; Bengali digits).
#[test]
fn dates_are_in_each_languages_own_form() {
    let built = built();
    // Persian from the EPUB: pdftotext gives right-to-left lines in the
    // order of the page, not of reading.
    let epub = epub_text(&built.dist.join("udhr/udhr-fa.epub"));
    assert!(epub.contains("۱۹ آذر ۱۳۲۷"), "{epub}");
    for (lang, date) in [
        ("th", "10 ธันวาคม 2491"),
        ("bn", "১০ ডিসেম্বর, ১৯৪৮"),
        ("hi", "10 दिसंबर, 1948"),
        ("zh-Hans", "1948年12月10日"),
        ("ja", "1948年12月10日"),
        ("ko", "1948년12월10일"),
    ] {
        let pdf = built.dist.join(format!("udhr/udhr-{lang}.pdf"));
        // pdftotext puts the spaces Typst adds between CJK and Latin
        // text (a quarter em) into words: they are not compared.
        let text = pdftotext(&pdf, &[]).replace([' ', '\u{a0}'], "");
        assert!(
            text.contains(&date.replace(' ', "")),
            "{lang}: {date:?} in {text}"
        );
    }
}

/// CJK lines follow their languages' rules: no line starts with closing
/// punctuation, and nothing is hyphenated.
#[test]
fn cjk_lines_never_start_with_closing_punctuation() {
    let built = built();
    for lang in ["zh-Hans", "zh-Hant", "ja"] {
        let text = pdftotext(&built.dist.join(format!("udhr/udhr-{lang}.pdf")), &[]);
        for line in text.lines().map(str::trim) {
            let first = line.chars().next().unwrap_or(' ');
            assert!(!"。、，．！？」』）".contains(first), "{lang}: {line}");
            assert!(!line.ends_with('-'), "{lang}: {line}");
        }
    }
}

/// `stoa fonts add` refuses a pack it cannot fetch whole or whose bytes are
/// not the pinned ones, says why and what to do, and installs nothing.
#[test]
fn a_pack_that_cannot_be_fetched_or_checked_installs_nothing() {
    let project = kept_until_exit(project_from(&fixture("scripts/books")));
    let server = stoa_tests::web_server::serve(&pack_files());
    let add = |user: &User, from: &str, timeout: &str| {
        let args = [
            "fonts",
            "add",
            "noto-serif-cjk",
            "--from",
            from,
            "--timeout",
            timeout,
        ];
        let out = user.stoa(&project, &args, "");
        assert!(!out.status.success(), "{}", output_text(&out));
        assert!(user.packs().is_empty(), "{:?}", user.packs());
        output_text(&out)
    };
    let user = User::new(None);
    let said = add(&user, &format!("{}/missing/", server.address), "30");
    assert!(
        said.contains("missing/NotoSerifCJK-Regular.ttc: the server answered 404"),
        "{said}"
    );
    assert!(said.contains("help: check the network"), "{said}");

    let wrong = "0".repeat(64);
    let user = User::new(Some(&wrong));
    let said = add(&user, &format!("{}/", server.address), "30");
    assert!(
        said.contains("is not the file the pack pins: its SHA-256 is"),
        "{said}"
    );
    assert!(
        said.contains(&format!("not {wrong}; nothing was installed")),
        "{said}"
    );

    let silent = stoa_tests::web_server::start();
    let user = User::new(None);
    let said = add(&user, &format!("{}/silent/", silent.address), "1");
    assert!(said.contains("no complete answer within 1 s"), "{said}");

    let broken = User::new(None);
    std::fs::write(&broken.catalog, "[[pack]]\nname = 1\n").unwrap();
    let out = broken.stoa(&project, &["fonts", "list"], "");
    let said = output_text(&out);
    assert!(!out.status.success());
    assert!(said.contains("catalog.toml cannot be used:"), "{said}");
    assert!(said.contains("unset STOA_FONT_PACK_CATALOG"), "{said}");

    let user = User::new(None);
    let out = user.stoa(&project, &["fonts", "add", "noto-cjk"], "");
    let said = output_text(&out);
    assert!(!out.status.success());
    assert!(
        said.contains("no font pack is called `noto-cjk`; the packs are: noto-serif-cjk"),
        "{said}"
    );
}

/// Without the pack, a CJK edition is set in the machine's CJK faces,
/// which the build names once; with neither, its PDF stops with the
/// command that fetches the pack, at the first CJK character, and the
/// EPUB, which needs no font, builds alone.
#[test]
fn without_the_pack_the_machines_faces_serve_else_the_pdf_stops_with_the_command() {
    let project = kept_until_exit(project_from(&fixture("scripts/books")));
    let user = User::new(None);
    let build = [
        "build",
        "--no-site",
        "-l",
        "ja",
        "-l",
        "ko",
        "-f",
        "pdf",
        "-f",
        "epub",
    ];
    let out = user.stoa(&project, &build, "");
    let said = output_text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("posts/article-1/ja.md:2:10: error: this book has Chinese, Japanese or Korean text (`第` first)"),
        "{said}"
    );
    assert!(
        said.contains("run `stoa fonts add noto-serif-cjk` once"),
        "{said}"
    );
    assert!(!project.join("dist/udhr/udhr-ja.pdf").exists());
    let epub_only = ["build", "--no-site", "-l", "ja", "-f", "epub"];
    let out = user.stoa(&project, &epub_only, "");
    assert!(out.status.success(), "{}", output_text(&out));
    assert!(project.join("dist/udhr/udhr-ja.epub").is_file());

    // The machine's faces (Debian's fonts-noto-cjk, which
    // scripts/install-test-tools installs), named once for both editions.
    let machine = "/usr/share/fonts/opentype/noto";
    let out = user.stoa(&project, &build, machine);
    let said = output_text(&out);
    assert!(out.status.success(), "{said}");
    let warning = "no CJK font pack is installed: the PDF sets Chinese, Japanese and Korean text in this machine's";
    assert_eq!(said.matches(warning).count(), 1, "{said}");
    // A pack installed later is seen by the next build, which makes the
    // PDF again in it and says nothing of the machine.
    user.add_pack(&project);
    let out = user.stoa(&project, &build, machine);
    let said = output_text(&out);
    assert!(out.status.success(), "{said}");
    assert!(!said.contains(warning), "{said}");
    assert!(said.contains("built dist/udhr/udhr-ko.pdf"), "{said}");
    let fonts = fonts_of(&project.join("dist/udhr/udhr-ko.pdf"));
    assert!(
        fonts
            .iter()
            .any(|f| f.starts_with("NotoSerifCJKkr") || f.starts_with("NotoSansCJKkr")),
        "{fonts:?}"
    );
}

/// Every CJK edition's text layer holds its article whole (a Korean PDF
/// once lost the syllable 이 from it): copied or searched, the text is the
/// author's.
#[test]
fn the_text_layer_of_cjk_pdfs_holds_every_character() {
    let built = built();
    for lang in ["zh-Hans", "zh-Hant", "ja", "ko"] {
        let post = std::fs::read_to_string(
            fixture("scripts/books/posts/article-1").join(format!("{lang}.md")),
        )
        .unwrap();
        let article: String = post
            .rsplit("+++")
            .next()
            .unwrap()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let pdf = built.dist.join(format!("udhr/udhr-{lang}.pdf"));
        let text: String = pdftotext(&pdf, &[])
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        assert!(text.contains(&article), "{lang}: {article} in {text}");
    }
}

/// A character no font has, in words stoa adds around the posts (here a
/// label in Ol Chiki), is drawn as an empty box: the build says which, as
/// the check before layout does for the posts' own characters.
#[test]
fn a_label_printed_as_empty_boxes_is_named() {
    let project = kept_until_exit(project_from(&fixture("scripts/books")));
    let toml = project.join("books/udhr/book.toml");
    let mut config = std::fs::read_to_string(&toml).unwrap();
    config.push_str("\n[labels.ru]\ncontents = \"ᱚᱞ ᱪᱤᱠᱤ\"\n");
    std::fs::write(&toml, config).unwrap();
    let user = User::new(None);
    let out = user.stoa(
        &project,
        &["build", "--no-site", "-l", "ru", "-f", "pdf"],
        "",
    );
    let said = output_text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("warning: the PDF prints these characters as empty boxes: ᱚᱞᱪᱤᱠ"),
        "{said}"
    );
}
