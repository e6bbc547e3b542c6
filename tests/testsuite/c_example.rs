//! The C example plugin of the repository (plugins/reading-time-c), built
//! with `cc` as its README says and used by a real build: its line reaches
//! the EPUB, its raw Typst the PDF, and the EPUB stays valid.

use crate::prelude::{compile_c_plugin, epubcheck, reading_time_project, stoa_bin, zip_entry};
use std::path::Path;
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
    let plugins = reading_time_project(root, 450);
    compile(&plugins);
    let out = Command::new(stoa_bin())
        .args([
            "build",
            "--no-site",
            "-f",
            "epub",
            "-f",
            "pdf",
            "--emit-typst",
            // The library comes with the book: trusted for this run.
            "--trust-plugins",
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
