//! The PDF writer: the document tree becomes Typst source,
//! compiled in-process through our own World and exported with typst-pdf.

mod depth;
mod diag;
mod escape;
mod source;
mod world;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use stoa_doc::{Book, Diagnostic, Inline};
use typst::diag::{SourceDiagnostic, Warned};
use typst::foundations::{Datetime, Smart};
use typst::utils::Scalar;
use typst_layout::PagedDocument;
use typst_pdf::{PdfOptions, PdfStandard, PdfStandards, Timestamp};
use typst_render::RenderOptions;

use crate::source::{Generated, Parts, asset_vpath, generate, parse_date};
use crate::world::StoaWorld;

/// A look for the print edition: a folder `themes/<name>/` with `book.typ`
/// (the Typst template) and optionally `fonts/` (`*.ttf`, `*.otf`).
#[derive(Clone, Debug)]
pub struct Theme {
    /// The theme's folder.
    pub dir: PathBuf,
}

/// What to render, with what, and which folders the book may read from.
#[derive(Clone, Copy, Debug)]
pub struct PdfRequest<'a> {
    /// The book, in one language.
    pub book: &'a Book,
    /// The theme.
    pub theme: &'a Theme,
    /// Folders images may come from besides the theme: the book's folder,
    /// the posts folder. An image elsewhere is an error.
    pub roots: &'a [PathBuf],
}

/// A rendered PDF.
#[derive(Clone, Debug)]
pub struct PdfOutput {
    /// The PDF file.
    pub pdf: Vec<u8>,
    /// The generated Typst main file, for `--emit-typst`.
    pub typst_source: String,
    /// What deserves a look but did not stop the rendering.
    pub warnings: Vec<Diagnostic>,
}

/// The Typst main file for `book`: an import of the theme and calls into it.
pub fn generate_source(book: &Book) -> String {
    generate(book, Parts::Book).source
}

/// Renders `req.book` as a print-ready PDF. Safe to call from many threads at once.
pub fn render_pdf(req: &PdfRequest) -> Result<PdfOutput, Vec<Diagnostic>> {
    let standards = pdf_standards(req.book)?;
    let generated = generate(req.book, Parts::Book);
    let (document, mut warnings) = compile(req, &generated)?;
    let options = PdfOptions {
        ident: Smart::Custom(req.book.meta.identifier.clone()),
        timestamp: book_date(req.book).map(Timestamp::new_utc),
        standards,
        tagged: true,
        ..PdfOptions::default()
    };
    let pdf = typst_pdf::pdf(&document, &options).map_err(|errors| {
        let world = world(req, &generated, HashMap::new());
        convert_all(&world, req, &generated, &errors)
    })?;
    warnings.extend(generated.warnings);
    Ok(PdfOutput {
        pdf,
        typst_source: generated.source,
        warnings,
    })
}

/// The book's cover, the same page as the PDF's first, as a PNG image.
pub fn render_cover_png(req: &PdfRequest, pixels_per_pt: f32) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let generated = generate(req.book, Parts::Cover);
    let (document, _) = compile(req, &generated)?;
    let Some(page) = document.pages().first() else {
        return Err(vec![Diagnostic::error("the theme made no cover page")]);
    };
    let options = RenderOptions {
        pixel_per_pt: Scalar::new(f64::from(pixels_per_pt)),
        render_bleed: false,
    };
    typst_render::render(page, &options)
        .encode_png()
        .map_err(|e| {
            vec![Diagnostic::error(format!(
                "cannot encode the cover as PNG: {e}"
            ))]
        })
}

/// Checks the request, then lays the generated source out.
fn compile(
    req: &PdfRequest,
    generated: &Generated,
) -> Result<(PagedDocument, Vec<Diagnostic>), Vec<Diagnostic>> {
    check_print(req.book)?;
    let theme_dir = theme_dir(req.theme)?;
    // The cover shows no images of the posts, so a bad one must not stop it.
    let assets = match generated.parts {
        Parts::Book => checked_assets(req.book, req.roots)?,
        Parts::Cover => HashMap::new(),
    };
    let world = StoaWorld::new(
        generated.source.clone(),
        theme_dir,
        assets,
        book_date(req.book),
    );
    let Warned { output, warnings } = typst::compile::<PagedDocument>(&world);
    let warnings = convert_all(&world, req, generated, &warnings);
    match output {
        Ok(document) => Ok((document, warnings)),
        Err(errors) => Err(convert_all(&world, req, generated, &errors)),
    }
}

/// A world for explaining errors that come after compilation.
fn world(req: &PdfRequest, generated: &Generated, assets: HashMap<String, PathBuf>) -> StoaWorld {
    let dir = theme_dir(req.theme).unwrap_or_else(|_| req.theme.dir.clone());
    StoaWorld::new(generated.source.clone(), dir, assets, None)
}

fn convert_all(
    world: &StoaWorld,
    req: &PdfRequest,
    generated: &Generated,
    diags: &[SourceDiagnostic],
) -> Vec<Diagnostic> {
    let origins = diag::Origins {
        book_id: &req.book.id,
        styles: &generated.styles,
    };
    diags
        .iter()
        .map(|d| diag::convert(world, &origins, d))
        .collect()
}

/// The theme folder, canonical, holding a `book.typ`.
fn theme_dir(theme: &Theme) -> Result<PathBuf, Vec<Diagnostic>> {
    let template = theme.dir.join("book.typ");
    if !template.is_file() {
        return Err(vec![
            Diagnostic::error(format!("the theme has no template {}", template.display()))
                .with_hint("a theme folder holds book.typ and, optionally, fonts/"),
        ]);
    }
    theme.dir.canonicalize().map_err(|e| {
        vec![Diagnostic::error(format!(
            "cannot read the theme folder {}: {e}",
            theme.dir.display()
        ))]
    })
}

/// `print.standard` as typst-pdf's standards.
fn pdf_standards(book: &Book) -> Result<PdfStandards, Vec<Diagnostic>> {
    let list: &[PdfStandard] = match book.print.standard.as_deref() {
        None | Some("") => &[],
        Some("pdf/a-2b") => &[PdfStandard::A_2b],
        Some("pdf/ua-1") => &[PdfStandard::Ua_1],
        Some(other) => {
            return Err(vec![
                Diagnostic::error(format!(
                    "unknown PDF standard `{other}` in [print] standard"
                ))
                .with_hint("use `pdf/a-2b` or `pdf/ua-1`, or leave `standard` out"),
            ]);
        }
    };
    PdfStandards::new(list).map_err(|e| vec![Diagnostic::error(e.message().to_string())])
}

/// Refuses page sizes Typst would choke on or lay out absurdly.
fn check_print(book: &Book) -> Result<(), Vec<Diagnostic>> {
    let p = &book.print;
    let positive = [
        ("width_mm", p.width_mm),
        ("height_mm", p.height_mm),
        ("font_size_pt", p.font_size_pt),
    ];
    let margins = [
        ("inner_mm", p.inner_mm),
        ("outer_mm", p.outer_mm),
        ("top_mm", p.top_mm),
        ("bottom_mm", p.bottom_mm),
    ];
    let mut errors: Vec<Diagnostic> = positive
        .iter()
        .filter(|(_, v)| !(v.is_finite() && *v > 0.0))
        .chain(
            margins
                .iter()
                .filter(|(_, v)| !(v.is_finite() && *v >= 0.0)),
        )
        .map(|(name, v)| Diagnostic::error(format!("[print] {name} = {v} is not a usable size")))
        .collect();
    if errors.is_empty()
        && (p.inner_mm + p.outer_mm >= p.width_mm || p.top_mm + p.bottom_mm >= p.height_mm)
    {
        errors.push(Diagnostic::error(
            "[print] margins leave no room for the text",
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn book_date(book: &Book) -> Option<Datetime> {
    let (y, m, d) = parse_date(&book.meta.date)?;
    Datetime::from_ymd(y, m, d)
}

/// The images the chapters show, each checked to exist inside one of the
/// roots, as virtual path → real path for the World.
fn checked_assets(
    book: &Book,
    roots: &[PathBuf],
) -> Result<HashMap<String, PathBuf>, Vec<Diagnostic>> {
    let roots: Vec<PathBuf> = roots.iter().filter_map(|r| r.canonicalize().ok()).collect();
    let by_name: HashMap<&str, usize> = book
        .assets
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    let mut map = HashMap::new();
    let mut errors = Vec::new();
    for (url, chapter_source) in image_urls(book) {
        let Some(&index) = by_name.get(url) else {
            let mut d = Diagnostic::error(format!("image `{url}` is not among the book's assets"));
            if let Some(src) = chapter_source {
                d = d.in_file(src);
            }
            errors.push(d);
            continue;
        };
        let asset = &book.assets[index];
        match inside_roots(Path::new(&asset.path), &roots) {
            Ok(real) => {
                map.insert(asset_vpath(index, &asset.name), real);
            }
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(errors)
    }
}

/// The file, canonical, if it exists and lies inside one of the roots.
fn inside_roots(path: &Path, roots: &[PathBuf]) -> Result<PathBuf, Diagnostic> {
    let real = path.canonicalize().map_err(|e| {
        Diagnostic::error(format!("image file not found: {} ({e})", path.display()))
            .in_file(path.display().to_string())
    })?;
    if roots.iter().any(|root| real.starts_with(root)) {
        Ok(real)
    } else {
        Err(Diagnostic::error(format!(
            "image {} lies outside the book's folders; stoa reads images only from inside them",
            path.display()
        ))
        .in_file(path.display().to_string())
        .with_hint("move the image into the post's or the book's folder"))
    }
}

/// Every image the chapters show, with the file of the chapter that shows it.
fn image_urls(book: &Book) -> Vec<(&str, Option<&str>)> {
    let mut urls = Vec::new();
    for chapter in &book.chapters {
        source::visit(&chapter.blocks, &mut |block| {
            source::for_inlines(block, &mut |inline| {
                if let Inline::Image { url, .. } = inline {
                    urls.push((url.as_str(), chapter.source.as_deref()));
                }
            });
        });
    }
    urls
}
