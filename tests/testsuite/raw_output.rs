//! Raw output from plugins in real builds: each format gets the payload for
//! it and none of the others'; a payload stoa refuses is an error naming
//! the plugin and the post; the dialogue's ornament (raw output of a
//! bundled plugin) keeps the EPUB valid; and a file a plugin adds follows
//! one rule in every format.
//!
//! The plugin is `tests/fixtures/v1/plugins/c_raw.c`, written in C on the
//! host API, compiled once per test process.

use crate::prelude::{
    compile_c_plugin, copy_dir, epubcheck, pdftotext, repo_root, stoa_bin, zip_entry, zip_names,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The folder holding the compiled fixture, and a PNG beside it.
fn plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("raw-plugins");
        compile_c_plugin(
            "tests/fixtures/v1/plugins/c_raw.c",
            "crates/stoa-sdk/include",
            &dir,
            "c_raw",
        );
        let png = repo_root().join("tests/fixtures/v1/torture/posts/image/square.png");
        std::fs::copy(png, dir.join("square.png")).unwrap();
        dir
    })
}

const POST: &str = "+++\ntitle = \"Hello\"\ndate = 2024-05-01\n+++\n\nA short post.\n\n\
SOCRATES: Where are you going?\n\nGLAUCON: Down to the harbour.\n\n\
SOCRATES: May I come?\n\nGLAUCON: Come.\n\n..and the two went down together.\n";

/// A one-post book `raw` with the dialogue plugin and `[plugins.c_raw]`
/// holding `table`.
fn project(table: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&repo_root().join("themes"), &root.join("themes"));
    std::fs::create_dir_all(root.join("books/posts/hello")).unwrap();
    std::fs::write(root.join("books/posts/hello/en.md"), POST).unwrap();
    std::fs::create_dir_all(root.join("books/raw")).unwrap();
    std::fs::write(
        root.join("books/raw/book.toml"),
        format!(
            "author = \"A\"\nlanguages = [\"en\"]\n\
             identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-00000000c2c2\"\n\
             date = 2024-05-31\nposts = [\"hello\"]\n\n[title]\nen = \"Raw\"\n\n\
             [plugins.dialogue]\n\n[plugins.c_raw]\n{table}\n"
        ),
    )
    .unwrap();
    dir
}

fn build(project: &Path, args: &[&str], asset: Option<&Path>) -> (Output, String) {
    let mut command = Command::new(stoa_bin());
    command
        .args(["build", "--no-site", "--plugin-dir"])
        .arg(plugin_dir())
        .args(args)
        .current_dir(project)
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("C_RAW_ASSET");
    if let Some(asset) = asset {
        command.env("C_RAW_ASSET", asset);
    }
    let out = command.output().expect("stoa runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out, stderr)
}

fn pdf_text(pdf: &Path) -> String {
    pdftotext(pdf, &[])
}

#[test]
fn each_format_gets_its_own_raw_output_and_no_other() {
    let project = project(
        "epub = '<p class=\"raw-mark\">EPUBRAW <em>one</em></p>'\n\
         html = '<p class=\"raw-mark\">HTMLRAW<br/></p>'\n\
         pdf = '#text(fill: blue)[PDFRAW] #set text(red)'\n",
    );
    let (out, stderr) = build(project.path(), &["--emit-typst"], None);
    assert!(out.status.success(), "{stderr}");
    let dist = project.path().join("dist/raw");

    let epub = dist.join("raw-en.epub");
    let page = zip_entry(&epub, "OEBPS/hello.xhtml");
    assert!(
        page.contains("<p class=\"raw-mark\">EPUBRAW <em>one</em></p>"),
        "{page}"
    );
    assert!(
        !page.contains("HTMLRAW") && !page.contains("PDFRAW"),
        "{page}"
    );
    // The dialogue's ornament, raw output of a bundled plugin.
    assert!(
        page.contains("<p class=\"dialogue-ornament\" aria-hidden=\"true\">⁂</p>"),
        "{page}"
    );
    let found = epubcheck(&[epub]);
    assert!(found.is_empty(), "EPUBCheck: {found:?}");

    let web = std::fs::read_to_string(dist.join("en/hello.html")).unwrap();
    assert!(
        web.contains("<p class=\"raw-mark\">HTMLRAW<br></p>"),
        "{web}"
    );
    assert!(!web.contains("EPUBRAW") && !web.contains("PDFRAW"), "{web}");
    assert!(web.contains("dialogue-ornament"));

    let text = pdf_text(&dist.join("raw-en.pdf"));
    assert!(text.contains("PDFRAW"), "{text}");
    assert!(
        !text.contains("EPUBRAW") && !text.contains("HTMLRAW"),
        "{text}"
    );
    // In its own block: the red set rule ends with it.
    let typst = std::fs::read_to_string(dist.join("raw-en.typ")).unwrap();
    assert!(
        typst.contains("#[#text(fill: blue)[PDFRAW] #set text(red)]"),
        "{typst}"
    );
}

#[test]
fn invalid_raw_output_is_an_error_naming_the_plugin_and_the_post() {
    for (table, says) in [
        ("epub = '<p>unclosed'", "well-formed"),
        ("html = '<p onclick=\"x()\">a</p>'", "event handlers"),
        ("pdf = '#read(\"/etc/passwd\")'", "`read`"),
        ("pdf = 'a ] #set page(width: 1cm) ['", "pdf"),
        // In a process of its own, the plugin gets the host API as well.
        ("isolate = true\nepub = '<script>x()</script>'", "scripts"),
    ] {
        let project = project(table);
        let (out, stderr) = build(project.path(), &["-f", "epub"], None);
        assert_eq!(out.status.code(), Some(1), "{table}: {stderr}");
        assert!(stderr.contains("plugin `c_raw`"), "{table}: {stderr}");
        assert!(
            stderr.contains("books/posts/hello/en.md"),
            "{table}: {stderr}"
        );
        assert!(stderr.contains(says), "{table}: {stderr}");
        assert!(!project.path().join("dist/raw").exists(), "{table}");
    }
}

#[test]
fn a_file_from_outside_is_refused_in_every_format_and_one_in_the_plugins_folder_is_used() {
    let project = project("");
    let outside = tempfile::tempdir().unwrap();
    let png = outside.path().join("square.png");
    std::fs::copy(plugin_dir().join("square.png"), &png).unwrap();
    for format in ["epub", "pdf", "html"] {
        let (out, stderr) = build(project.path(), &["-f", format], Some(&png));
        assert_eq!(out.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("plugin `c_raw` adds the file"),
            "{format}: {stderr}"
        );
        assert!(
            stderr.contains("outside the book's folder"),
            "{format}: {stderr}"
        );
    }
    let own = plugin_dir().join("square.png");
    let (out, stderr) = build(project.path(), &[], Some(&own));
    assert!(out.status.success(), "{stderr}");
    let dist = project.path().join("dist/raw");
    let epub = dist.join("raw-en.epub");
    assert!(
        zip_names(&epub)
            .iter()
            .any(|n| n.ends_with("plugin/figure.png"))
    );
    assert!(
        dist.join("en/plugin/figure.png").is_file(),
        "the web edition has it"
    );
    assert!(dist.join("raw-en.pdf").is_file(), "the PDF read it");
}
