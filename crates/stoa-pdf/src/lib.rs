//! The PDF writer: the document tree becomes Typst source,
//! compiled in-process through our own World and exported with typst-pdf.
//!
//! The driver reaches it only as [`PdfRenderer`], an implementation of
//! [`stoa_render::Renderer`]. Note numbers and places come from the notes
//! plan, link targets from the id index, dates from the locale table: the
//! PDF prints what the other formats print.

mod cjk;
mod cover_memo;
mod depth;
mod diag;
mod diagram;
#[cfg(test)]
mod escape;
mod fonts;
mod formulas;
mod glyphs;
mod pages;
mod png_out;
mod preflight;
mod press;
pub mod raw;
mod source;
mod stand_in;
mod system_fonts;
mod text;
mod titles;
mod world;
mod wrap;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use stoa_doc::{Book, Diagnostic, IdIndex, Inline, NotesPlan, for_each_block, for_each_inline};
use stoa_render::stoa_image::Target as ImageTarget;
use stoa_render::{Format, ImageSettings, Output, RenderContext, Rendered, Renderer, Theme};
use typst::diag::{SourceDiagnostic, Warned};
use typst::foundations::{Datetime, Smart};
use typst::utils::Scalar;
use typst_layout::PagedDocument;
use typst_pdf::{PdfOptions, PdfStandard, PdfStandards, Timestamp};
use typst_render::RenderOptions;

use crate::source::{Generated, Parts, asset_vpath, generate, generate_with};
use crate::world::StoaWorld;

/// The laid-out text per page, for tests that read what the PDF says.
pub use crate::text::page_texts;

/// The print edition's renderer: the book becomes Typst source, laid out
/// with the theme's `book.typ` (`<theme>/book.typ`, fonts in
/// `<theme>/fonts/`) and exported as PDF. It also draws the book's cover,
/// which the other formats use. Safe to call from many threads at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdfRenderer;

impl Renderer for PdfRenderer {
    fn name(&self) -> &'static str {
        Format::Pdf.name()
    }

    /// Images at the density the page wants where they are placed (at
    /// most the measure wide): a print job's 300 ppi, else the reader's
    /// `[images] pdf-ppi`; never more pixels than the file has.
    fn image_target(&self, book: &Book, settings: &ImageSettings) -> Option<ImageTarget> {
        let p = &book.print;
        let measure_mm = p.width_mm - p.inner_mm - p.outer_mm;
        let ppi = if p.press.is_some() {
            preflight::PRINT_DPI
        } else {
            settings.pdf_ppi
        };
        (measure_mm.is_finite() && measure_mm > 0.0).then(|| ImageTarget {
            max_side: None,
            max_pixels: None,
            placement: Some(stoa_render::stoa_image::Placement {
                measure_in: measure_mm / 25.4,
                ppi,
            }),
            keep_webp: false,
            jpeg_quality: settings.jpeg_quality,
            srcset_side: None,
        })
    }

    fn label(&self) -> &'static str {
        "PDF"
    }

    /// The fonts it may find beyond its own: the font packs installed and
    /// the machine's font files (see [`cjk`] and [`system_fonts`]).
    fn machine_key(&self) -> String {
        cjk::machine_key()
    }

    fn media_type(&self) -> &'static str {
        "application/pdf"
    }

    /// Everything but the style sheets, which only the EPUB and the web
    /// edition read: a CSS edit leaves the PDF (and the cover) alone.
    fn reads_theme_file(&self, rel: &str) -> bool {
        !rel.ends_with(".css")
    }

    /// Raw output for this format: see [`Renderer::check_raw`].
    fn check_raw(&self, payload: &str, _inline: bool) -> Result<(), String> {
        raw::render(payload).map(drop)
    }

    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>> {
        let mut job = Job::of(ctx);
        let standards = pdf_standards(job.book)?;
        let Laid {
            geared,
            generated,
            mut document,
            mut warnings,
            stand_ins,
        } = job.lay_out(ctx)?;
        if let Some(book) = &geared {
            job.book = book;
        }
        // The creation date is stoa's, not the theme's: `meta.modified`,
        // which SOURCE_DATE_EPOCH sets (else the book's date), as in the
        // EPUB. A theme's `set document(date: ..)` would win over the
        // timestamp in typst-pdf, so it is set back to `auto`.
        let created = modified_date(job.book);
        if created.is_some() {
            document.info_mut().date = Smart::Auto;
        }
        let options = PdfOptions {
            ident: Smart::Custom(job.book.meta.identifier.clone()),
            timestamp: created.map(Timestamp::new_utc),
            standards,
            tagged: true,
            ..PdfOptions::default()
        };
        let pdf = typst_pdf::pdf(&document, &options).map_err(|errors| {
            let world = job.world(&generated);
            job.convert_all(&world, &generated, &errors)
        })?;
        let pdf = stand_in::streamed(pdf, stand_ins.as_ref()).map_err(cannot_write_images)?;
        let companions = match &job.book.print.press {
            Some(press) => {
                let made = press::files(&job, ctx, &document, press, &options, &mut warnings)?;
                let mut files = Vec::new();
                for (suffix, bytes) in made {
                    let body = stand_in::streamed(bytes, stand_ins.as_ref())
                        .map_err(cannot_write_images)?;
                    files.push((suffix, body));
                }
                files
            }
            None => Vec::new(),
        };
        warnings.extend(generated.warnings);
        let (choice, said) =
            world::FontChoice::for_book(job.book, job.theme).map_err(|e| vec![e])?;
        warnings.extend(said.filter(|_| cjk::first_time()));
        let fonts = world::font_set(job.theme, &choice);
        let named = glyphs::check(job.book, fonts.book());
        warnings.extend(glyphs::boxes_warning(&glyphs::boxes(&document), &named));
        warnings.extend(named);
        // The source parsed once more (the world that laid it out is gone):
        // glyph spans lead to its literals. A few milliseconds a book.
        let main = typst::syntax::Source::new(world::main_id(), generated.source.clone());
        let pages = Some(pages::page_map(&document, main, &generated.runs));
        let sources = match ctx.emit_sources {
            true => vec![("typ".to_owned(), generated.source.into_bytes())],
            false => Vec::new(),
        };
        Ok(Rendered {
            output: Output::File(pdf),
            sources,
            warnings,
            pages,
            companions,
        })
    }

    fn draws_covers(&self) -> bool {
        true
    }

    fn draws_formulas(&self) -> bool {
        true
    }

    fn formula_images(
        &self,
        ctx: &RenderContext,
        formulas: &[(String, bool)],
    ) -> Result<stoa_render::FormulaImages, Vec<Diagnostic>> {
        formulas::draw(formulas, ctx.book.print.font_size_pt, ctx.theme)
    }

    /// The PDF knows where its pages begin: [`Rendered::pages`].
    fn maps_pages(&self) -> bool {
        true
    }

    /// The cover's own Typst source (the title, the author, the cover's
    /// settings and the labels), the content of its image, its date and
    /// size: the posts are not on it.
    fn cover_key(&self, ctx: &RenderContext, pixels_per_pt: f32) -> Option<String> {
        let job = Job::of(ctx);
        let generated = generate(job.book, ctx.notes, ctx.ids, Parts::Cover);
        let world = job.world_for(&generated).ok()?;
        let key = world.content_key(pixels_per_pt.to_bits())?;
        Some(format!("{key:032x}"))
    }

    /// The cover: the same page as the PDF's first, as a PNG image.
    fn cover_png(
        &self,
        ctx: &RenderContext,
        pixels_per_pt: f32,
    ) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let job = Job::of(ctx);
        let generated = generate(job.book, ctx.notes, ctx.ids, Parts::Cover);
        let world = job.world_for(&generated)?;
        // Most builds draw a cover drawn before (the same book, theme and
        // size): an edit of a chapter leaves its book's cover as it was.
        let key = world.identity(pixels_per_pt.to_bits());
        if let Some(png) = cover_memo::find(key, &world) {
            return Ok(png);
        }
        let (document, _) = job.compile_in(&world, &generated)?;
        let Some(page) = document.pages().first() else {
            return Err(vec![Diagnostic::error("the theme made no cover page")]);
        };
        let png = page_png(page, pixels_per_pt).map_err(|e| {
            vec![Diagnostic::error(format!(
                "cannot encode the cover as PNG: {e}"
            ))]
        })?;
        cover_memo::keep(key, &world, &png);
        Ok(png)
    }
}

/// The Typst main file for `book`: an import of the theme and calls into
/// it. `notes` and `ids` must be those of this very book.
pub fn generate_source(book: &Book, notes: &NotesPlan, ids: &IdIndex) -> String {
    generate(book, notes, ids, Parts::Book).source
}

/// [`generate_source`], planning the notes and indexing the ids itself:
/// for tests and for looking at a theme.
pub fn generate_source_of(book: &Book) -> String {
    generate_source(book, &NotesPlan::of(book), &IdIndex::of(book))
}

/// The edition in `ctx` laid out as [`PdfRenderer`] lays it out (with the
/// printer's gutter), and its cover proof when it has a press job, not
/// exported: for tests that look at its pages (stoa-tests' reference
/// pages, `tests/testsuite/ref_pages.rs`).
pub fn lay_out(ctx: &RenderContext) -> Result<LaidOut, Vec<Diagnostic>> {
    let job = Job::of(ctx);
    let laid = job.lay_out(ctx)?;
    let job = Job {
        book: laid.geared.as_ref().unwrap_or(job.book),
        ..job
    };
    let proof = press::cover_proof(&job, ctx, &laid.document)?;
    Ok(LaidOut {
        document: laid.document,
        proof,
    })
}

/// A laid-out edition ([`lay_out`]): its pages' text, and its pages and
/// cover proof drawn as PNG images.
pub struct LaidOut {
    document: PagedDocument,
    proof: Option<PagedDocument>,
}

impl LaidOut {
    /// The laid-out text of each page, as [`page_texts`] gives it: for a
    /// test to find the page that shows what it looks at.
    pub fn texts(&self) -> Vec<String> {
        let pages = self.document.pages().iter();
        pages.map(|p| text::page_text(&p.frame)).collect()
    }

    /// Page `index` (from 0: the cover) drawn at `pixels_per_pt`, without
    /// its bleed, as a PNG image.
    pub fn page_png(&self, index: usize, pixels_per_pt: f32) -> Result<Vec<u8>, String> {
        let page = self.document.pages().get(index);
        let page = page.ok_or_else(|| format!("the PDF has no page {}", index + 1))?;
        page_png(page, pixels_per_pt)
    }

    /// The cover proof (the wrap with its guides, as `-cover-proof.pdf`
    /// prints it) drawn at `pixels_per_pt` as a PNG image; `None` for a
    /// book without a press job.
    pub fn cover_proof_png(&self, pixels_per_pt: f32) -> Option<Result<Vec<u8>, String>> {
        let page = self.proof.as_ref()?.pages().first()?;
        Some(page_png(page, pixels_per_pt))
    }
}

/// `page` drawn at `pixels_per_pt`, without its bleed, as a PNG image.
fn page_png(page: &typst_layout::Page, pixels_per_pt: f32) -> Result<Vec<u8>, String> {
    let options = RenderOptions {
        pixel_per_pt: Scalar::new(f64::from(pixels_per_pt)),
        render_bleed: false,
    };
    png_out::encode(&typst_render::render(page, &options))
}

/// A book laid out as the PDF prints it ([`Job::lay_out`]).
struct Laid {
    /// The book with the printer's wider gutter, when it was laid out so.
    geared: Option<Book>,
    generated: Generated,
    document: PagedDocument,
    warnings: Vec<Diagnostic>,
    /// The images Typst was given stand-ins for, written into the PDF.
    stand_ins: Option<Arc<stand_in::StandIns>>,
}

/// A document laid out, its warnings and its stand-ins.
type StandingIn = (
    PagedDocument,
    Vec<Diagnostic>,
    Option<Arc<stand_in::StandIns>>,
);

/// What one rendering reads: the book, the theme, the folders images may
/// come from.
#[derive(Clone, Copy)]
struct Job<'a> {
    book: &'a Book,
    theme: &'a Theme,
    roots: &'a [PathBuf],
    /// The images made for the PDF (see [`Renderer::image_target`]).
    images: Option<&'a stoa_render::MadeImages>,
}

impl<'a> Job<'a> {
    fn of(ctx: &RenderContext<'a>) -> Self {
        Job {
            book: ctx.book,
            theme: ctx.theme,
            roots: ctx.roots,
            images: ctx.images,
        }
    }

    /// Lays the book out as the PDF prints it.
    fn lay_out(&self, ctx: &RenderContext) -> Result<Laid, Vec<Diagnostic>> {
        let generated = generate_with(self.book, ctx.notes, ctx.ids, Parts::Book, ctx.layout);
        let (document, warnings, stand_ins) = self.compile_standing_in(&generated)?;
        // A printer's gutter grows with the page count: a book that needs
        // a wider inside margin than its own is laid out once more with it.
        let Some(geared) = press::geared(self.book, document.pages().len()) else {
            return Ok(Laid {
                geared: None,
                generated,
                document,
                warnings,
                stand_ins,
            });
        };
        let job = Job {
            book: &geared,
            ..*self
        };
        let generated = generate_with(&geared, ctx.notes, ctx.ids, Parts::Book, ctx.layout);
        let (document, warnings, stand_ins) = job.compile_standing_in(&generated)?;
        Ok(Laid {
            geared: Some(geared),
            generated,
            document,
            warnings,
            stand_ins,
        })
    }

    /// Checks the book and theme, then lays the generated source out.
    fn compile(
        &self,
        generated: &Generated,
    ) -> Result<(PagedDocument, Vec<Diagnostic>), Vec<Diagnostic>> {
        self.compile_standing_in(generated)
            .map(|(doc, warnings, _)| (doc, warnings))
    }

    /// [`Job::compile`], with the stand-ins its world gave for images.
    fn compile_standing_in(&self, generated: &Generated) -> Result<StandingIn, Vec<Diagnostic>> {
        let world = self.world_for(generated)?;
        let (document, warnings) = self.compile_in(&world, generated)?;
        Ok((document, warnings, world.stand_ins()))
    }

    /// Checks the book and theme; the world that lays the generated source
    /// out.
    fn world_for(&self, generated: &Generated) -> Result<StoaWorld, Vec<Diagnostic>> {
        check_print(self.book)?;
        let theme = checked_theme(self.theme)?;
        // The cover shows no images of the posts, so a bad one must not stop it.
        let mut assets = match generated.parts {
            Parts::Book => checked_assets(self.book, self.roots, self.images)?,
            Parts::Cover => HashMap::new(),
        };
        if let Some(image) = &self.book.print.cover.image {
            let roots: Vec<PathBuf> = self
                .roots
                .iter()
                .filter_map(|r| r.canonicalize().ok())
                .collect();
            let real = inside_roots(Path::new(image), &roots).map_err(|d| vec![d])?;
            assets.insert(source::cover_vpath(image), real);
        }
        // `datetime.today()` is the day the build stands for, never the clock's.
        let today = modified_date(self.book)
            .and_then(|d| Datetime::from_ymd(d.year()?, d.month()?, d.day()?))
            .or_else(|| book_date(self.book));
        let world = StoaWorld::new(generated.source.clone(), theme, assets, today)
            .with_fonts(self.fonts(generated.parts)?)
            .with_wrapped_images(self.images.is_some());
        // The pages of a book the image step served are written to a PDF,
        // never drawn: its images can wait for the PDF's writing.
        Ok(match (self.images, generated.parts) {
            (Some(_), Parts::Book) => world.with_stand_ins(),
            _ => world,
        })
    }

    /// The book's fonts ([`world::FontChoice::for_book`]); the warning it
    /// may give is the render's, said once. A cover is drawn whatever the
    /// fonts (the EPUB needs it): the PDF's own error tells the author.
    fn fonts(&self, parts: Parts) -> Result<world::FontChoice, Vec<Diagnostic>> {
        match world::FontChoice::for_book(self.book, self.theme) {
            Ok((choice, _)) => Ok(choice),
            Err(_) if parts == Parts::Cover => Ok(world::FontChoice::of(&self.book.print)),
            Err(e) => Err(vec![e]),
        }
    }

    /// Lays the generated source out in `world` (see [`Job::world_for`]).
    fn compile_in(
        &self,
        world: &StoaWorld,
        generated: &Generated,
    ) -> Result<(PagedDocument, Vec<Diagnostic>), Vec<Diagnostic>> {
        let Warned { output, warnings } = typst::compile::<PagedDocument>(world);
        world::forget_old_compilations();
        let warnings = self.convert_all(world, generated, &warnings);
        match output {
            Ok(document) => Ok((document, warnings)),
            Err(errors) => Err(self.convert_all(world, generated, &errors)),
        }
    }

    /// A world for explaining errors that come after compilation.
    fn world(&self, generated: &Generated) -> StoaWorld {
        let theme = checked_theme(self.theme).unwrap_or_else(|_| self.theme.clone());
        StoaWorld::new(generated.source.clone(), theme, HashMap::new(), None)
    }

    fn convert_all(
        &self,
        world: &StoaWorld,
        generated: &Generated,
        diags: &[SourceDiagnostic],
    ) -> Vec<Diagnostic> {
        let origins = diag::Origins {
            book_id: &self.book.id,
            styles: &generated.styles,
        };
        diags
            .iter()
            .map(|d| diag::convert(world, &origins, d))
            .collect()
    }
}

/// The theme, holding a `book.typ`; a folder theme with its folder canonical.
fn checked_theme(theme: &Theme) -> Result<Theme, Vec<Diagnostic>> {
    if !theme.has("book.typ") {
        return Err(vec![
            Diagnostic::error(format!(
                "the theme has no template {}",
                theme.describe("book.typ")
            ))
            .with_hint("a theme folder holds book.typ and, optionally, fonts/"),
        ]);
    }
    theme.canonical().map_err(|e| {
        vec![Diagnostic::error(format!(
            "cannot read the theme folder {}: {e}",
            theme.describe("")
        ))]
    })
}

/// The error of a PDF whose images cannot be placed in it.
fn cannot_write_images(e: std::io::Error) -> Vec<Diagnostic> {
    vec![Diagnostic::error(format!(
        "cannot place the images in the PDF: {e}"
    ))]
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

/// When the edition was last changed, `meta.modified`
/// (`YYYY-MM-DDTHH:MM:SSZ`, from SOURCE_DATE_EPOCH or the book's date), as a
/// UTC date and time; `None` when it is not in that shape.
fn modified_date(book: &Book) -> Option<Datetime> {
    let m = book.meta.modified.trim();
    let (date, time) = m.strip_suffix('Z')?.split_once('T')?;
    let (y, mo, d) = stoa_locale::parse_date(date)?;
    let mut hms = time.split(':').map(|n| n.parse::<u8>().ok());
    let (Some(Some(h)), Some(Some(mi)), Some(Some(s)), None) =
        (hms.next(), hms.next(), hms.next(), hms.next())
    else {
        return None;
    };
    Datetime::from_ymd_hms(y, mo, d, h, mi, s)
}

fn book_date(book: &Book) -> Option<Datetime> {
    let (y, m, d) = stoa_locale::parse_date(&book.meta.date)?;
    Datetime::from_ymd(y, m, d)
}

/// The images the chapters show, each checked to exist inside one of the
/// roots, as virtual path → real path for the World.
fn checked_assets(
    book: &Book,
    roots: &[PathBuf],
    images: Option<&stoa_render::MadeImages>,
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
        // An image the image step made is stoa's own file, made from one
        // it checked.
        if let Some(path) = images
            .and_then(|m| m.get(&asset.name))
            .and_then(|made| made.path.as_ref())
        {
            map.insert(asset_vpath(index, &asset.name), path.clone());
            continue;
        }
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

/// Every image the chapters show (their notes included), with the file of
/// the chapter that shows it.
fn image_urls(book: &Book) -> Vec<(&str, Option<&str>)> {
    let mut urls = Vec::new();
    for chapter in &book.chapters {
        for_each_block(&chapter.blocks, &mut |block| {
            for_each_inline(block, &mut |inline| {
                if let Inline::Image { url, .. } = inline {
                    urls.push((url.as_str(), chapter.source.as_deref()));
                }
            });
        });
    }
    urls
}

#[cfg(test)]
mod date_tests {
    use super::*;

    fn book_modified(modified: &str) -> Book {
        Book {
            version: stoa_doc::TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: stoa_doc::BookMeta {
                date: "2024-05-31".into(),
                modified: modified.into(),
                ..stoa_doc::BookMeta::default()
            },
            labels: stoa_doc::Labels::default(),
            chapters: Vec::new(),
            assets: Vec::new(),
            styles: Vec::new(),
            print: stoa_doc::Print::default(),
        }
    }

    #[test]
    fn the_creation_date_is_the_modified_time_source_date_epoch_sets() {
        let d = modified_date(&book_modified("2024-06-01T12:34:56Z")).unwrap();
        assert_eq!(
            (
                d.year(),
                d.month(),
                d.day(),
                d.hour(),
                d.minute(),
                d.second()
            ),
            (Some(2024), Some(6), Some(1), Some(12), Some(34), Some(56))
        );
        assert!(modified_date(&book_modified("2024-06-01")).is_none());
        assert!(modified_date(&book_modified("2024-06-01T25:00:00Z")).is_none());
        assert!(modified_date(&book_modified("2024-06-01T12:00:00:00Z")).is_none());
    }
}
