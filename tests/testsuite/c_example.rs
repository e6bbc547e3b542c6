//! The C example plugin of the repository (plugins/reading-time-c), built
//! with `cc` as its README says and used by a real build: its line reaches
//! the EPUB, its raw Typst the PDF, and the EPUB stays valid.

use crate::prelude::{compile_c_plugin, copy_dir, epubcheck, repo_root, stoa_bin, zip_entry};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles the example into `dir`, as its README says (with warnings as
/// errors).
fn compile(dir: &Path) {
    compile_c_plugin(
        "plugins/reading-time-c/reading_time.c",
        "crates/stoa-sdk/include",
        dir,
        "reading_time_c",
    );
}

#[test]
fn the_c_example_works_in_a_real_build() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    copy_dir(&repo_root().join("themes"), &root.join("themes"));
    let plugins: PathBuf = root.join("books/reading/plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    compile(&plugins);
    std::fs::create_dir_all(root.join("books/posts/long")).unwrap();
    let words = "word ".repeat(450);
    for (lang, title) in [("en", "Long"), ("pt-BR", "Longo")] {
        std::fs::write(
            root.join(format!("books/posts/long/{lang}.md")),
            format!("+++\ntitle = \"{title}\"\ndate = 2024-05-01\n+++\n\n{words}\n"),
        )
        .unwrap();
    }
    std::fs::write(
        root.join("books/reading/book.toml"),
        "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\n\
         identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-00000000c2c4\"\n\
         date = 2024-05-31\nposts = [\"long\"]\nplugin-dir = \"plugins\"\n\n\
         [title]\nen = \"Reading\"\npt-BR = \"Leitura\"\n\n\
         [plugins.reading-time-c]\nwords-per-minute = 150\n",
    )
    .unwrap();
    let out = Command::new(stoa_bin())
        .args([
            "build",
            "--no-site",
            "-f",
            "epub",
            "-f",
            "pdf",
            "--emit-typst",
        ])
        .current_dir(root)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let dist = root.join("dist/reading");
    let epub = dist.join("reading-en.epub");
    // 450 words at 150 a minute.
    let page = zip_entry(&epub, "OEBPS/long.xhtml");
    assert!(
        page.contains("<div class=\"reading-time\"><p>3 min read</p>"),
        "{page}"
    );
    let pt = zip_entry(&dist.join("reading-pt-BR.epub"), "OEBPS/long.xhtml");
    assert!(pt.contains("3 min de leitura"), "{pt}");
    let typst = std::fs::read_to_string(dist.join("reading-en.typ")).unwrap();
    assert!(typst.contains("#[#line(length: 3em, stroke: 0.4pt + luma(60%))]"));
    assert!(dist.join("reading-en.pdf").is_file());
    let found = epubcheck(&[epub]);
    assert!(found.is_empty(), "EPUBCheck: {found:?}");
}
