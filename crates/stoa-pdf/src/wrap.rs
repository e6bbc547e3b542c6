//! The cover wrap (`<book>-<lang>-cover.pdf`): back, spine and front on one
//! page of 2 × trim + spine + 2 × bleed, sized from the print interior's
//! page count. The front is the ebook's cover page as the theme lays it
//! out, placed as a frame; the back and the spine are ours: the cover's
//! colour, the back text and the author's biography (string literals), the
//! ISBN's EAN-13 barcode in a white box (numbers only), and the title and
//! the author on the spine when the book is thick enough. The proof
//! (`…-cover-proof.pdf`) is the same page with its guides drawn.

use std::fmt::Write;

use stoa_barcode::{Ean13, Geometry, Isbn};
use stoa_doc::Book;
use stoa_doc::escape::typst_string;
use stoa_press::{MM_PER_IN, Paper, Profile};

/// The barcode's white box: 2 × 1.2 in, 0.25 in from the spine and the
/// bottom trim (KDP's barcode area; the other printers take the same).
const BOX_MM: (f64, f64) = (2.0 * MM_PER_IN, 1.2 * MM_PER_IN);
const BOX_INSET_MM: f64 = 0.25 * MM_PER_IN;
/// The barcode at 90 % of nominal size: GS1 allows 80 % to 200 %, and
/// the symbol and its ISBN line then fit the box with room around them.
const MAGNIFICATION: f64 = 0.9;

/// The wrap's sizes, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Wrap {
    /// The trimmed page of the interior.
    pub trim: (f64, f64),
    /// The bleed on every side of the wrap.
    pub bleed: f64,
    /// The spine's width.
    pub spine: f64,
    /// Whether the spine carries the title and the author.
    pub spine_text: bool,
    /// The margin that text keeps from every trim edge and fold.
    pub safe: f64,
    /// A book bound on the right (Arabic, Hebrew, Persian…): its front is
    /// on the left of the sheet, its back on the right.
    pub rtl: bool,
}

impl Wrap {
    /// The wrap of `book` (which has a press job) for `pages` interior pages.
    pub(crate) fn of(book: &Book, pages: usize) -> Option<Wrap> {
        let press = book.print.press.as_ref()?;
        let profile = Profile::parse(&press.profile)?;
        let paper = Paper::parse(&press.paper).unwrap_or(Paper::White);
        let spine = press
            .spine_mm
            .unwrap_or_else(|| profile.spine_mm(pages, paper));
        Some(Wrap {
            trim: (book.print.width_mm, book.print.height_mm),
            bleed: profile.bleed_mm(),
            spine,
            spine_text: pages >= profile.spine_text_pages(),
            safe: profile.safe_margin_mm(),
            rtl: stoa_locale::is_rtl(&book.lang),
        })
    }

    /// The whole sheet: 2 × trim + spine + 2 × bleed wide, trim + 2 × bleed tall.
    pub(crate) fn sheet(&self) -> (f64, f64) {
        (
            2.0 * self.trim.0 + self.spine + 2.0 * self.bleed,
            self.trim.1 + 2.0 * self.bleed,
        )
    }

    /// Where the front cover's trimmed page begins on the sheet.
    pub(crate) fn front_x(&self) -> f64 {
        match self.rtl {
            true => self.bleed,
            false => self.bleed + self.trim.0 + self.spine,
        }
    }

    /// Where the back cover's trimmed page begins on the sheet.
    pub(crate) fn back_x(&self) -> f64 {
        match self.rtl {
            true => self.bleed + self.trim.0 + self.spine,
            false => self.bleed,
        }
    }

    /// Where the spine begins on the sheet (between the two, either way).
    pub(crate) fn spine_x(&self) -> f64 {
        self.bleed + self.trim.0
    }
}

/// The Typst main file of the back and the spine (the front is placed
/// after layout); with `guides`, the proof's lines over them.
pub(crate) fn source(book: &Book, wrap: &Wrap, guides: bool) -> String {
    let w = wrap;
    let (sheet_w, sheet_h) = w.sheet();
    let meta = &book.meta;
    let press = book.print.press.as_ref();
    let back = press
        .and_then(|p| p.back.as_deref())
        .or(meta.description.as_deref());
    let bio = press.and_then(|p| p.bio.as_deref());
    let (lang, region) = crate::source::lang_region(&book.lang);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "#set document(title: {}, author: {})",
        typst_string(&meta.title),
        typst_string(&meta.author)
    );
    let _ = writeln!(
        s,
        "#set page(width: {}mm, height: {}mm, margin: 0pt, fill: none)",
        n(sheet_w),
        n(sheet_h)
    );
    let _ = writeln!(
        s,
        "#set text(font: ({}), size: 10pt, lang: {}, region: {}, hyphenate: true)",
        TEXT_FONTS
            .iter()
            .map(|f| typst_string(f))
            .chain(
                crate::cjk::families_for(book)
                    .iter()
                    .map(|f| typst_string(f))
            )
            .collect::<Vec<_>>()
            .join(", "),
        typst_string(&lang),
        region.as_deref().map_or("none".to_owned(), typst_string)
    );
    s.push_str("#set par(justify: true, leading: 0.6em, spacing: 0.9em, first-line-indent: 0pt)\n");
    let _ = writeln!(
        s,
        "#let colour = rgb({})",
        typst_string(&book.print.cover.colour)
    );
    s.push_str(
        "#let light = { let (r, g, b, ..) = colour.components(); \
         0.2126 * float(r) + 0.7152 * float(g) + 0.0722 * float(b) > 0.5 }\n\
         #let ink = if light { rgb(\"#1f2a33\") } else { rgb(\"#f3ede1\") }\n",
    );
    // The back and the spine in the cover's colour, into the bleed.
    let (coloured_x, coloured_w) = match w.rtl {
        true => (w.spine_x(), sheet_w - w.spine_x()),
        false => (0.0, w.front_x()),
    };
    let _ = writeln!(
        s,
        "#place(top + left, dx: {}mm, rect(width: {}mm, height: 100%, fill: colour, stroke: none))",
        n(coloured_x),
        n(coloured_w)
    );
    // The back's text, inside the safe area, above the barcode's box.
    let text_w = w.trim.0 - 2.0 * w.safe;
    let text_h = w.trim.1 - 2.0 * w.safe - BOX_MM.1 - 6.0;
    let _ = writeln!(
        s,
        "#place(top + left, dx: {}mm, dy: {}mm, block(width: {}mm, height: {}mm, clip: true, {{\n  set text(fill: ink)",
        n(w.back_x() + w.safe),
        n(w.bleed + w.safe + 6.0),
        n(text_w),
        n(text_h)
    );
    if let Some(back) = back {
        let _ = writeln!(s, "  text(size: 11.5pt, {})", typst_string(back));
    }
    if let Some(bio) = bio {
        let _ = writeln!(
            s,
            "  v(1.8em)\n  line(length: 18%, stroke: 0.5pt + ink)\n  v(0.6em)\n  text(size: 9.5pt, style: \"italic\", {})",
            typst_string(bio)
        );
    }
    s.push_str("}))\n");
    if let Some(isbn) = book.print.isbn.as_deref().and_then(|i| Isbn::parse(i).ok()) {
        barcode(&mut s, w, &isbn);
    }
    if w.spine_text {
        spine(&mut s, book, w);
    }
    if guides {
        guide_lines(&mut s, w);
    }
    s
}

/// The ISBN line and the EAN-13 symbol in a white box at the back's
/// bottom, by the spine (its right in a book bound on the left, its left
/// in one bound on the right).
fn barcode(s: &mut String, w: &Wrap, isbn: &Isbn) {
    let g = Geometry::at(MAGNIFICATION);
    let box_x = match w.rtl {
        true => w.back_x() + BOX_INSET_MM,
        false => w.spine_x() - BOX_INSET_MM - BOX_MM.0,
    };
    let box_y = w.bleed + w.trim.1 - BOX_INSET_MM - BOX_MM.1;
    let _ = writeln!(
        s,
        "#place(top + left, dx: {}mm, dy: {}mm, rect(width: {}mm, height: {}mm, fill: white, stroke: none))",
        n(box_x),
        n(box_y),
        n(BOX_MM.0),
        n(BOX_MM.1)
    );
    let symbol_x = box_x + (BOX_MM.0 - g.width_mm()) / 2.0;
    let left = symbol_x + Geometry::QUIET_LEFT as f64 * g.module_mm;
    let line_h = 3.6;
    let symbol_y = box_y + (BOX_MM.1 - g.height_mm() - line_h) / 2.0 + line_h;
    let _ = writeln!(
        s,
        "#place(top + left, dx: {}mm, dy: {}mm, box(width: {}mm, align(center, text(font: \"DejaVu Sans Mono\", size: 7.5pt, fill: black, tracking: 0.02em, {}))))",
        n(box_x),
        n(symbol_y - line_h),
        n(BOX_MM.0),
        typst_string(&format!("ISBN {}", isbn.display()))
    );
    let ean = Ean13::of(isbn.digit_values());
    for bar in ean.bars() {
        let height = g.bar_mm + if bar.guard { g.guard_extra_mm } else { 0.0 };
        let _ = writeln!(
            s,
            "#place(top + left, dx: {}mm, dy: {}mm, rect(width: {}mm, height: {}mm, fill: black, stroke: none))",
            n(left + bar.x as f64 * g.module_mm),
            n(symbol_y),
            n(bar.width as f64 * g.module_mm),
            n(height)
        );
    }
    for (digits, centre) in ean.digit_groups() {
        let width = if digits.len() == 1 { 8.0 } else { 42.0 } * g.module_mm;
        let _ = writeln!(
            s,
            "#place(top + left, dx: {}mm, dy: {}mm, box(width: {}mm, align(center, text(font: \"DejaVu Sans Mono\", size: {}pt, fill: black, {}))))",
            n(left + centre * g.module_mm - width / 2.0),
            n(symbol_y + g.bar_mm + 0.25),
            n(width),
            n(g.digit_mm * 72.0 / MM_PER_IN * 1.25),
            typst_string(&digits)
        );
    }
}

/// The title and the author along the spine, reading down (or up, where
/// the language says so), in the largest size that fits.
fn spine(s: &mut String, book: &Book, w: &Wrap) {
    let angle = if stoa_press::spine_reads_up(&book.lang) {
        "-90deg"
    } else {
        "90deg"
    };
    let room = w.trim.1 - 2.0 * w.safe;
    let _ = writeln!(
        s,
        "#place(top + left, dx: {x}mm, dy: {y}mm, box(width: {sw}mm, height: {h}mm, align(center + horizon, rotate({angle}, reflow: true, context {{\n  \
           let words(sz) = text(size: sz, fill: ink, {{ smallcaps(all: true, {title}); h(1.2em); text(size: 0.85em, {author}) }})\n  \
           let sizes = (10pt, 9pt, 8pt, 7pt, 6pt).filter(sz => measure(words(sz)).width <= {room}mm and measure(words(sz)).height <= {sw}mm * 0.7)\n  \
           if sizes.len() > 0 {{ words(sizes.first()) }}\n}}))))",
        x = n(w.spine_x()),
        y = n(w.bleed),
        sw = n(w.spine),
        h = n(w.trim.1),
        title = typst_string(&book.meta.title),
        author = typst_string(&book.meta.author),
        room = n(room),
    );
}

/// The proof's guides: the trim (red), the spine's folds (blue), the safe
/// area (green, dashed).
fn guide_lines(s: &mut String, w: &Wrap) {
    let (sheet_w, sheet_h) = w.sheet();
    let mut rect = |x: f64, y: f64, width: f64, height: f64, stroke: &str| {
        let _ = writeln!(
            s,
            "#place(top + left, dx: {}mm, dy: {}mm, rect(width: {}mm, height: {}mm, fill: none, stroke: {stroke}))",
            n(x),
            n(y),
            n(width),
            n(height)
        );
    };
    rect(
        w.bleed,
        w.bleed,
        sheet_w - 2.0 * w.bleed,
        sheet_h - 2.0 * w.bleed,
        "0.4pt + red",
    );
    rect(w.spine_x(), w.bleed, w.spine, w.trim.1, "0.4pt + blue");
    let safe = (sheet_w - 2.0 * w.bleed - w.spine) / 2.0 - 2.0 * w.safe;
    for x in [w.back_x() + w.safe, w.front_x() + w.safe] {
        rect(
            x,
            w.bleed + w.safe,
            safe,
            w.trim.1 - 2.0 * w.safe,
            "(paint: green, thickness: 0.4pt, dash: \"dashed\")",
        );
    }
}

/// A length in millimetres as Typst reads it: three decimals, no exponent.
fn n(mm: f64) -> String {
    let text = format!("{mm:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The wrap's text faces: the classic theme's (Libertinus, then a Noto
/// serif face for each script it lacks), so that a back cover in Arabic or
/// Hindi is set in a text face, not in boxes.
const TEXT_FONTS: &[&str] = &[
    "Libertinus Serif",
    "New Computer Modern",
    "Noto Naskh Arabic",
    "Noto Serif Devanagari",
    "Noto Serif Bengali",
    "Noto Serif Tamil",
    "Noto Serif Thai",
    "Noto Serif Ethiopic",
    "Noto Serif Sinhala",
    "Noto Serif Khmer",
];

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_doc::{Press, Print};

    fn book(pages_profile: &str, isbn: Option<&str>) -> Book {
        Book {
            version: stoa_doc::TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: stoa_doc::BookMeta {
                title: "A #title with $ and ]".into(),
                author: "A. Author".into(),
                description: Some("#read(\"/etc/passwd\")".into()),
                ..stoa_doc::BookMeta::default()
            },
            labels: stoa_doc::Labels::default(),
            chapters: Vec::new(),
            assets: Vec::new(),
            styles: Vec::new(),
            print: Print {
                width_mm: 152.4,
                height_mm: 228.6,
                isbn: isbn.map(str::to_owned),
                press: Some(Press {
                    profile: pages_profile.into(),
                    paper: "cream".into(),
                    binding: "paperback".into(),
                    ..Press::default()
                }),
                ..Print::default()
            },
        }
    }

    #[test]
    fn the_sheet_is_two_trims_a_spine_and_the_bleed() {
        let wrap = Wrap::of(&book("kdp", None), 300).unwrap();
        // 6 × 9 in, 300 cream pages: 2 × 6 + 0.75 + 2 × 0.125 = 13 in by 9.25 in.
        let (w, h) = wrap.sheet();
        assert!((w / MM_PER_IN - 13.0).abs() < 1e-9, "{w}");
        assert!((h / MM_PER_IN - 9.25).abs() < 1e-9, "{h}");
        assert!(wrap.spine_text);
        assert!(!Wrap::of(&book("kdp", None), 78).unwrap().spine_text);
    }

    #[test]
    fn a_book_bound_on_the_right_has_its_front_on_the_left() {
        let mut b = book("kdp", Some("978-0-306-40615-7"));
        let ltr = Wrap::of(&b, 300).unwrap();
        b.lang = "fa".into();
        let rtl = Wrap::of(&b, 300).unwrap();
        assert!(!ltr.rtl && rtl.rtl);
        assert_eq!(rtl.sheet(), ltr.sheet());
        assert_eq!((rtl.front_x(), rtl.back_x()), (ltr.back_x(), ltr.front_x()));
        assert_eq!(rtl.front_x(), rtl.bleed);
        assert_eq!(rtl.spine_x(), ltr.spine_x());
        // The back's text starts past the spine, the colour covers the
        // spine and the back, and the barcode sits by the spine.
        let src = source(&b, &rtl, false);
        let back_text = format!("dx: {}mm, dy:", n(rtl.back_x() + rtl.safe));
        assert!(src.contains(&back_text), "{src}");
        let colour = format!(
            "dx: {}mm, rect(width: {}mm",
            n(rtl.spine_x()),
            n(rtl.sheet().0 - rtl.spine_x())
        );
        assert!(src.contains(&colour), "{src}");
        let barcode = format!("dx: {}mm", n(rtl.back_x() + BOX_INSET_MM));
        assert!(src.contains(&barcode), "{src}");
    }

    #[test]
    fn the_books_words_reach_typst_only_as_strings() {
        let b = book("kdp", Some("978-0-306-40615-7"));
        let src = source(&b, &Wrap::of(&b, 200).unwrap(), false);
        assert!(src.contains("\"#read(\\\"/etc/passwd\\\")\""), "{src}");
        assert!(src.contains("\"ISBN 978-0-306-40615-7\""), "{src}");
        assert!(!src.contains("stroke: 0.4pt + red"));
        // Two bars per digit and the guards: 30 rectangles of bars.
        assert_eq!(src.matches("fill: black, stroke: none").count(), 30);
        assert!(source(&b, &Wrap::of(&b, 200).unwrap(), true).contains("0.4pt + red"));
    }
}
