//! Renders a book to `target/stoa-pdf-sample/` for looking at:
//!
//!     cargo run -p stoa-pdf --example render_sample [BOOK] [continuous] [STYLE.typ...]
//!
//! BOOK is `sample` (the tests' sample book, the default), `injection`,
//! `footnotes`, `endnotes`, `notes-chapter` (the tests' notes book in that
//! mode, numbered per chapter or `continuous`), `en` (the sample in
//! English) or the path of a book as JSON (e.g. a tree dumped by a plugin
//! test). Each `.typ` file is pasted as a plugin style, named after the file.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::time::Instant;

use stoa_doc::{Book, IdIndex, NoteNumbering, NotePlacement, NoteStyle, NotesPlan, Style};
use stoa_pdf::PdfRenderer;
use stoa_render::{Output, RenderContext, Renderer};

fn book(name: &str, numbering: NoteNumbering) -> Book {
    let notes = |placement| {
        common::notes_book(NoteStyle {
            placement,
            numbering,
        })
    };
    match name {
        "injection" => common::injection_book(),
        "footnotes" => notes(NotePlacement::Footnotes),
        "endnotes" => notes(NotePlacement::Endnotes),
        "notes-chapter" => notes(NotePlacement::NotesChapter),
        "en" => {
            let mut book = common::sample_book();
            book.lang = "en".into();
            book
        }
        path if path.ends_with(".json") => {
            let json = std::fs::read_to_string(path).expect("a readable book");
            stoa_doc::serde_json::from_str(&json).expect("a book as JSON")
        }
        _ => common::sample_book(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("sample", String::as_str);
    let numbering = match args.iter().any(|a| a == "continuous") {
        true => NoteNumbering::Continuous,
        false => NoteNumbering::PerChapter,
    };
    let mut book = book(name, numbering);
    for path in args.iter().filter(|a| a.ends_with(".typ")) {
        book.styles.push(Style {
            origin: Path::new(path)
                .file_stem()
                .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned()),
            format: "pdf".into(),
            code: std::fs::read_to_string(path).expect("a readable style"),
        });
    }
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/stoa-pdf-sample");
    std::fs::create_dir_all(&out).expect("an output folder");
    let theme = stoa_render::Theme::folder("classic", common::theme_dir());
    let notes = NotesPlan::of(&book);
    let ids = IdIndex::of(&book);
    let ctx = RenderContext::new(
        &book,
        &notes,
        &ids,
        &theme,
        &[],
        stoa_render::Layout::empty(),
    )
    .with_sources(true);
    for round in 1..=2 {
        let start = Instant::now();
        match PdfRenderer.render(&ctx) {
            Ok(rendered) => {
                let Output::File(pdf) = &rendered.output else {
                    unreachable!("a PDF is one file")
                };
                let pdf = pdf.to_bytes().expect("the PDF's images readable");
                eprintln!("render {round}: {:?}, {} bytes", start.elapsed(), pdf.len());
                for w in &rendered.warnings {
                    eprintln!("{w}");
                }
                std::fs::write(out.join("sample.pdf"), &pdf).expect("written");
                for (ext, bytes) in &rendered.sources {
                    std::fs::write(out.join(format!("sample.{ext}")), bytes).expect("written");
                }
            }
            Err(errors) => {
                for e in errors {
                    eprintln!("{e}");
                }
                std::process::exit(1);
            }
        }
    }
    let start = Instant::now();
    let png = PdfRenderer.cover_png(&ctx, 2.0).expect("a cover");
    eprintln!("cover: {:?}, {} bytes", start.elapsed(), png.len());
    std::fs::write(out.join("cover.png"), png).expect("written");
}
