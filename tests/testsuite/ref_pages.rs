//! Reference pages, in the manner of Typst's own `tests/ref`: the pages of
//! a small book, one feature a page (tests/fixtures/v1/ref), drawn in
//! process at a low resolution and compared with the pictures kept in
//! tests/ref/. The other PDF tests read text, fonts and metadata; only
//! these see a running head pushed off its place, a dialogue's hanging
//! indent lost or a spine drawn where it is not.
//!
//! The book is loaded as a check loads it (plugins, diagrams, the notes
//! plan) through [`stoa_build::check`], with a PDF renderer that keeps the
//! layout ([`stoa_pdf::lay_out`]) instead of exporting it; each page is
//! found by its text, so a fixture that grows does not shift the others.
//! The PDF's fonts are stoa's embedded ones (the fixture asks for no
//! system fonts), so every machine draws the same pixels, save for
//! rounding: a page passes when few pixels differ, and little.
//!
//! After an intended change, rewrite the pictures and look at them:
//!
//! ```text
//! STOA_BLESS=1 cargo test -p stoa-tests --test testsuite ref_pages::
//! ```
//!
//! A page that differs is written, with the reference and the difference,
//! to an HTML page under the test's temporary folder (its path is in the
//! failure).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::prelude::*;
use stoa_build::{BuildOptions, Depth};
use stoa_doc::Diagnostic;
use stoa_pdf::LaidOut;
use stoa_render::{Output, RenderContext, Rendered, Renderer, Renderers};

/// Pixels per point of a book page: a 5 × 8 in page is 360 × 576 pixels,
/// enough to see every line and rule, small enough to keep.
const PAGE_SCALE: f32 = 1.0;

/// Grey levels kept: 16 (four bits a pixel) keep the pictures small, and
/// the antialiased edges the tolerance forgives anyway.
const LEVELS: u8 = 16;

/// How far apart two pixels' grey may be (of 255) and still be the same:
/// more than a grey level, less than any drawn change.
const PIXEL_TOLERANCE: u8 = 40;

/// How many pixels of a picture (a fraction) may differ: rounding on
/// another processor moves a few edge pixels, a moved line moves hundreds.
const MAX_DIFFERING: f64 = 0.000_2;

/// The largest reference kept in the repository.
const MAX_REF_BYTES: usize = 20 * 1024;

/// What one reference picture shows.
struct Ref {
    /// Its file's name in tests/ref/, without `.png`.
    name: &'static str,
    /// Where in the book it is.
    shows: Shows,
}

/// Which picture of the laid-out book a reference is.
enum Shows {
    /// The page with this index (from 0: the cover).
    Page(usize),
    /// The first page whose text holds these words.
    PageWith(&'static str),
    /// The cover proof, whole, at this scale.
    Proof(f32),
    /// A part of the cover proof at this scale, as `(x, y, width, height)`
    /// in points of the trimmed wrap.
    ProofPart(f32, [f32; 4]),
}

/// The references, one a feature. The fixture's wrap is 2 × 5 in + a
/// 0.5 in spine wide and 8 in tall, in points 756 × 576: the spine runs
/// from 360 to 396, the barcode's box is 2 × 1.2 in, 0.25 in from the
/// spine and the bottom (198 to 342 across, 472 to 558 down).
const REFS: &[Ref] = &[
    Ref {
        name: "cover",
        shows: Shows::Page(0),
    },
    Ref {
        name: "contents",
        shows: Shows::PageWith("Contents"),
    },
    Ref {
        name: "chapter-opening",
        shows: Shows::PageWith("The first paragraph of a chapter"),
    },
    Ref {
        name: "running-head",
        shows: Shows::PageWith("The last paragraph of the opening chapter"),
    },
    Ref {
        name: "dialogue",
        shows: Shows::PageWith("what do you see on this page?"),
    },
    Ref {
        name: "footnotes",
        shows: Shows::PageWith("The first note, short."),
    },
    Ref {
        name: "code",
        shows: Shows::PageWith("Adds two numbers."),
    },
    Ref {
        name: "table",
        shows: Shows::PageWith("The sizes we counted are in"),
    },
    Ref {
        name: "display-math",
        shows: Shows::PageWith("is referred to by its number"),
    },
    Ref {
        name: "diagram",
        shows: Shows::PageWith("A paragraph after the diagram."),
    },
    Ref {
        name: "glossary",
        shows: Shows::PageWith("Words Defined, p."),
    },
    Ref {
        name: "index",
        shows: Shows::PageWith("margin, 2"),
    },
    Ref {
        name: "cover-wrap",
        shows: Shows::Proof(0.6),
    },
    Ref {
        name: "spine-and-barcode",
        shows: Shows::ProofPart(2.5, [190.0, 462.0, 220.0, 114.0]),
    },
];

#[test]
fn pages_look_as_the_references_show() {
    let laid = laid_out_fixture();
    let texts = laid.texts();
    let bless = std::env::var_os("STOA_BLESS").is_some();
    let mut failed = Vec::new();
    for reference in REFS {
        let new = picture(&laid, &texts, reference);
        let path = ref_path(reference.name);
        if bless {
            bless_one(&path, &new);
        } else if let Some(failure) = compare(reference.name, &path, &new) {
            failed.push(failure);
        }
    }
    if !failed.is_empty() {
        let report = write_report(&failed);
        let lines: Vec<String> = failed.iter().map(|f| f.line()).collect();
        panic!(
            "{} reference page(s) differ:\n{}\nold, new and difference side by side: {}\n\
             if the change is intended: STOA_BLESS=1 cargo test -p stoa-tests --test testsuite ref_pages::",
            failed.len(),
            lines.join("\n"),
            report.display()
        );
    }
}

/// The reference's picture: `tests/ref/<name>.png`.
fn ref_path(name: &str) -> PathBuf {
    repo_root().join("tests/ref").join(format!("{name}.png"))
}

// --- The book, laid out ------------------------------------------------

/// The layout the renderer below kept, one edition's.
static LAID: Mutex<Option<LaidOut>> = Mutex::new(None);

/// The PDF renderer as far as the layout, which it keeps in [`LAID`]: a
/// check hands it the edition exactly as a build hands the real one.
struct KeepsLayout;

impl Renderer for KeepsLayout {
    fn name(&self) -> &'static str {
        stoa_pdf::PdfRenderer.name()
    }

    fn label(&self) -> &'static str {
        stoa_pdf::PdfRenderer.label()
    }

    fn media_type(&self) -> &'static str {
        stoa_pdf::PdfRenderer.media_type()
    }

    /// The PDF draws its own cover: no other renderer is asked for one.
    fn draws_covers(&self) -> bool {
        true
    }

    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>> {
        let laid = stoa_pdf::lay_out(ctx)?;
        *LAID.lock().expect("the kept layout") = Some(laid);
        Ok(Rendered {
            output: Output::File(Vec::new().into()),
            sources: Vec::new(),
            warnings: Vec::new(),
            pages: None,
            companions: Vec::new(),
        })
    }
}

/// The fixture book laid out, with the repository's themes (so that an
/// edit of themes/classic/book.typ shows here).
fn laid_out_fixture() -> LaidOut {
    static RENDERER: KeepsLayout = KeepsLayout;
    let books = fixture("ref").join("books");
    let options = BuildOptions::new(books, repo_root().join("themes"), PathBuf::from("unused"))
        .with_renderers(Renderers::new([&RENDERER as &dyn Renderer]));
    let report = stoa_build::check(&options, Depth::Render, &|_| {});
    let errors: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
    assert!(
        errors.is_empty(),
        "the fixture fails:\n{}",
        errors.join("\n")
    );
    LAID.lock()
        .expect("the kept layout")
        .take()
        .expect("the check rendered the fixture")
}

// --- Pictures ----------------------------------------------------------

/// A grey picture, a byte a pixel, at most [`LEVELS`] levels.
#[derive(Clone, PartialEq)]
struct Grey {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

/// The picture `reference` shows, freshly drawn.
fn picture(laid: &LaidOut, texts: &[String], reference: &Ref) -> Grey {
    let png = match &reference.shows {
        Shows::Page(index) => laid.page_png(*index, PAGE_SCALE),
        Shows::PageWith(words) => laid.page_png(page_with(texts, words), PAGE_SCALE),
        Shows::Proof(scale) | Shows::ProofPart(scale, _) => {
            let proof = laid.cover_proof_png(*scale);
            proof.expect("the fixture has a press job, so a cover proof")
        }
    };
    let png = png.unwrap_or_else(|e| panic!("{}: {e}", reference.name));
    let grey = quantised(&decode(&png));
    match &reference.shows {
        Shows::ProofPart(scale, part) => crop(&grey, *scale, *part),
        _ => grey,
    }
}

/// The index of the first page whose text holds `words`.
fn page_with(texts: &[String], words: &str) -> usize {
    texts
        .iter()
        .position(|t| squeeze(t).contains(words))
        .unwrap_or_else(|| {
            let pages: Vec<String> = texts
                .iter()
                .enumerate()
                .map(|(i, t)| format!("page {i}: {}", squeeze(t)))
                .collect();
            panic!("no page says `{words}`:\n{}", pages.join("\n"))
        })
}

/// A PNG image as grey: its luminance (BT.709), any alpha over white.
fn decode(png: &[u8]) -> Grey {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG image");
    let mut buf = vec![0; reader.output_buffer_size().expect("a PNG of sane size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(luminance)
        .collect();
    Grey {
        width: info.width as usize,
        height: info.height as usize,
        pixels,
    }
}

/// The grey of a pixel of one, two (grey and alpha), three or four
/// channels, over a white page.
fn luminance(p: &[u8]) -> u8 {
    let (grey, alpha) = match p {
        [g] => (f32::from(*g), 255.0),
        [g, a] => (f32::from(*g), f32::from(*a)),
        [r, g, b, rest @ ..] => {
            let grey = 0.2126 * f32::from(*r) + 0.7152 * f32::from(*g) + 0.0722 * f32::from(*b);
            (grey, rest.first().map_or(255.0, |a| f32::from(*a)))
        }
        [] => unreachable!("a pixel has a channel"),
    };
    let over_white = grey * alpha / 255.0 + (255.0 - alpha);
    over_white.round().clamp(0.0, 255.0) as u8
}

/// `grey` with [`LEVELS`] levels, as the reference is kept.
fn quantised(grey: &Grey) -> Grey {
    let step = 255 / (LEVELS - 1);
    let pixels = grey
        .pixels
        .iter()
        .map(|&g| ((u16::from(g) + u16::from(step) / 2) / u16::from(step)) as u8 * step)
        .collect();
    Grey {
        pixels,
        ..grey.clone()
    }
}

/// The part `[x, y, width, height]` (in points) of a picture drawn at
/// `scale` pixels a point.
fn crop(grey: &Grey, scale: f32, part: [f32; 4]) -> Grey {
    let [x, y, w, h] = part.map(|v| (v * scale).round() as usize);
    let (w, h) = (w.min(grey.width - x), h.min(grey.height - y));
    let pixels = (y..y + h)
        .flat_map(|row| &grey.pixels[row * grey.width + x..row * grey.width + x + w])
        .copied()
        .collect();
    Grey {
        width: w,
        height: h,
        pixels,
    }
}

/// `grey` as a four-bit greyscale PNG.
fn encode_grey(grey: &Grey) -> Vec<u8> {
    let step = 255 / (LEVELS - 1);
    let packed: Vec<u8> = grey
        .pixels
        .chunks(grey.width)
        .flat_map(|row| {
            row.chunks(2)
                .map(|pair| (pair[0] / step) << 4 | pair.get(1).map_or(0, |p| p / step))
                .collect::<Vec<u8>>()
        })
        .collect();
    write_png(
        grey,
        png::ColorType::Grayscale,
        png::BitDepth::Four,
        &packed,
    )
}

/// A PNG of `grey`'s size holding `data` in `color` at `depth`,
/// compressed as well as the encoder can.
fn write_png(grey: &Grey, color: png::ColorType, depth: png::BitDepth, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, grey.width as u32, grey.height as u32);
    encoder.set_color(color);
    encoder.set_depth(depth);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer.write_image_data(data).expect("the PNG's pixels");
    writer.finish().expect("a whole PNG");
    out
}

// --- Comparing and blessing ----------------------------------------------

/// A picture that differs from its reference.
struct Failure {
    name: &'static str,
    /// Why, in a few words.
    why: String,
    /// The reference's PNG, if there is one.
    old: Option<Vec<u8>>,
    new: Grey,
}

impl Failure {
    fn line(&self) -> String {
        format!("  {}: {}", self.name, self.why)
    }
}

/// `None` when `new` is the reference at `path`, within the tolerance.
fn compare(name: &'static str, path: &Path, new: &Grey) -> Option<Failure> {
    let failure = |why: String, old| {
        Some(Failure {
            name,
            why,
            old,
            new: new.clone(),
        })
    };
    let Ok(bytes) = std::fs::read(path) else {
        return failure(format!("no reference {}", path.display()), None);
    };
    let old = decode(&bytes);
    if (old.width, old.height) != (new.width, new.height) {
        let why = format!(
            "{} × {} pixels, the reference {} × {}",
            new.width, new.height, old.width, old.height
        );
        return failure(why, Some(bytes));
    }
    let differing = differing(&old, new);
    let fraction = differing as f64 / new.pixels.len() as f64;
    (fraction > MAX_DIFFERING).then_some(())?;
    failure(
        format!("{differing} pixels differ ({:.3} %)", fraction * 100.0),
        Some(bytes),
    )
}

/// How many pixels of two pictures of one size differ beyond the tolerance.
fn differing(old: &Grey, new: &Grey) -> usize {
    let pairs = old.pixels.iter().zip(&new.pixels);
    pairs
        .filter(|(a, b)| a.abs_diff(**b) > PIXEL_TOLERANCE)
        .count()
}

/// Writes `new` as the reference at `path` unless it is that already.
fn bless_one(path: &Path, new: &Grey) {
    let same = std::fs::read(path).is_ok_and(|old| decode(&old) == *new);
    if same {
        return;
    }
    let png = encode_grey(new);
    assert!(
        png.len() <= MAX_REF_BYTES,
        "{} would be {} bytes, over {MAX_REF_BYTES}: draw it smaller",
        path.display(),
        png.len()
    );
    std::fs::create_dir_all(path.parent().expect("tests/ref")).expect("tests/ref made");
    std::fs::write(path, png).expect("the reference written");
}

// --- The report --------------------------------------------------------

/// Writes the failed pictures (old, new, difference) and an HTML page
/// that shows them side by side into the test's temporary folder; the
/// page's path.
fn write_report(failed: &[Failure]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ref-pages");
    std::fs::create_dir_all(&dir).expect("the report's folder");
    let mut rows = String::new();
    for failure in failed {
        let name = failure.name;
        let write = |suffix: &str, png: &[u8]| {
            std::fs::write(dir.join(format!("{name}.{suffix}.png")), png).expect("a picture")
        };
        write("new", &encode_grey(&failure.new));
        if let Some(old) = &failure.old {
            write("old", old);
            write("diff", &difference(&decode(old), &failure.new));
        }
        rows.push_str(&format!(
            "<h2>{name}: {why}</h2>\n<div class=row>{old}{new}{diff}</div>\n",
            why = failure.why,
            old = figure(name, "old", failure.old.is_some()),
            new = figure(name, "new", true),
            diff = figure(name, "diff", failure.old.is_some()),
        ));
    }
    let page = dir.join("index.html");
    let html = format!(
        "<!DOCTYPE html>\n<html lang=en><meta charset=utf-8><title>Reference pages that differ</title>\n\
         <style>body{{font-family:sans-serif}} .row{{display:flex;gap:1em;align-items:flex-start}} \
         img{{border:1px solid #999;image-rendering:pixelated;max-width:32vw}}</style>\n\
         <h1>Reference pages that differ</h1>\n<p>old (tests/ref), new, and the difference \
         (red: pixels that differ beyond the tolerance).</p>\n{rows}</html>\n"
    );
    std::fs::write(&page, html).expect("the report page");
    page
}

/// One picture of a row of the report, or nothing when there is none.
fn figure(name: &str, which: &str, exists: bool) -> String {
    if !exists {
        return String::new();
    }
    format!(
        "<figure><img src=\"{name}.{which}.png\" alt=\"{which}\"><figcaption>{which}</figcaption></figure>"
    )
}

/// The difference of two pictures as an RGB PNG: the new one faint, the
/// pixels that differ beyond the tolerance red; of the larger size when
/// the sizes differ (what only one covers counts as differing).
fn difference(old: &Grey, new: &Grey) -> Vec<u8> {
    let size = Grey {
        width: old.width.max(new.width),
        height: old.height.max(new.height),
        pixels: Vec::new(),
    };
    let at = |g: &Grey, x: usize, y: usize| {
        (x < g.width && y < g.height).then(|| g.pixels[y * g.width + x])
    };
    let mut rgb = Vec::with_capacity(size.width * size.height * 3);
    for y in 0..size.height {
        for x in 0..size.width {
            let (a, b) = (at(old, x, y), at(new, x, y));
            let same = matches!((a, b), (Some(a), Some(b)) if a.abs_diff(b) <= PIXEL_TOLERANCE);
            let faint = 255 - (255 - b.unwrap_or(255)) / 4;
            rgb.extend(if same { [faint; 3] } else { [230, 0, 0] });
        }
    }
    write_png(&size, png::ColorType::Rgb, png::BitDepth::Eight, &rgb)
}
