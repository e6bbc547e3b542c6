//! Renders the tests' sample book to `target/stoa-pdf-sample/` for looking at:
//! `cargo run -p stoa-pdf --example render_sample [injection]`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use stoa_pdf::{PdfRequest, Theme, render_cover_png, render_pdf};

fn main() {
    let book = match std::env::args().nth(1).as_deref() {
        Some("injection") => common::injection_book(),
        _ => common::sample_book(),
    };
    let theme = Theme {
        dir: common::theme_dir(),
    };
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/stoa-pdf-sample");
    std::fs::create_dir_all(&out).expect("an output folder");
    let req = PdfRequest {
        book: &book,
        theme: &theme,
        roots: &[],
    };
    for round in 1..=2 {
        let start = Instant::now();
        match render_pdf(&req) {
            Ok(pdf) => {
                eprintln!(
                    "render {round}: {:?}, {} bytes",
                    start.elapsed(),
                    pdf.pdf.len()
                );
                for w in &pdf.warnings {
                    eprintln!("{w}");
                }
                std::fs::write(out.join("sample.pdf"), &pdf.pdf).expect("written");
                std::fs::write(out.join("sample.typ"), &pdf.typst_source).expect("written");
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
    let png = render_cover_png(&req, 2.0).expect("a cover");
    eprintln!("cover: {:?}, {} bytes", start.elapsed(), png.len());
    std::fs::write(out.join("cover.png"), png).expect("written");
}
