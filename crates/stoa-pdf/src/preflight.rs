//! The printers' preflight (`stoa check --print`), read from the print
//! interior as laid out, not guessed from the sources: each raster image's
//! resolution at the size it is placed at and whether it reaches a page
//! edge, the fonts the pages use, the page count against the binding, the
//! spine's text against the laid-out cover wrap, every line of text
//! against the printer's safe area.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use stoa_doc::{Book, Diagnostic, Press};
use stoa_press::{MM_PER_IN, Profile};
use typst::layout::{Abs, Frame, FrameItem, Point, Transform};
use typst::visualize::{Image, ImageKind};
use typst_layout::{Page, PagedDocument};

use crate::wrap::Wrap;

/// The resolution printers ask for, in dots per inch.
pub(crate) const PRINT_DPI: f64 = 300.0;
/// How near a page edge (in pt) an image counts as touching it.
const EDGE_PT: f64 = 0.5;

/// One raster image as placed on a page, in pt, page coordinates.
struct Placed {
    image: Image,
    /// The page, 1-based, in the print interior.
    page: usize,
    /// The placed width and height.
    size: (f64, f64),
    /// Left, top, right, bottom of its bounding box.
    bounds: [f64; 4],
}

/// Every finding of the preflight on the print interior `inside` of
/// `book`, and on its laid-out cover wrap `cover` (back and spine).
pub(crate) fn run(
    book: &Book,
    press: &Press,
    inside: &PagedDocument,
    wrap: &Wrap,
    cover: &PagedDocument,
) -> Vec<Diagnostic> {
    // stoa-book checked the name.
    let profile = Profile::parse(&press.profile).unwrap_or(Profile::Generic);
    let pages = inside.pages().len();
    let mut out = Vec::new();
    out.extend(page_count(press, profile, pages));
    out.extend(spine(press, profile, pages, wrap, cover));
    out.extend(fonts(inside));
    let rtl = stoa_locale::is_rtl(&book.lang);
    let safe = safe_area(inside.pages(), profile, rtl);
    out.extend(safe.into_iter().map(|d| at_profile(press, d)));
    let cover = cover_safe_area(cover, wrap);
    out.extend(cover.into_iter().map(|d| at_profile(press, d)));
    // The placed size comes from the layout (the frames' image items and
    // their transforms), so the theme's widths need no second guess.
    let placed = placed(inside.pages());
    let names = NameOf::new(book);
    for p in &placed {
        let name = names.of(&p.image);
        out.extend(resolution(p, &name));
        out.extend(bleed(p, &inside.pages()[p.page - 1], profile, &name));
    }
    if profile.wants_cmyk() {
        out.extend(rgb(&placed, &names, profile));
    }
    out
}

/// A diagnostic at the line of book.toml that names the profile.
fn at_profile(press: &Press, d: Diagnostic) -> Diagnostic {
    match &press.profile_at {
        Some((file, line, column)) => d.in_file(file.clone()).at(*line, *column),
        None => d,
    }
}

/// The page count out of the binding's range: an error, the printer
/// refuses the file.
pub(crate) fn page_count(press: &Press, profile: Profile, pages: usize) -> Option<Diagnostic> {
    let (low, high) = profile.pages();
    if (low..=high).contains(&pages) {
        return None;
    }
    let (what, hint) = if pages < low {
        (
            "fewer",
            "add posts, or choose a smaller trim size or a larger font size",
        )
    } else {
        (
            "more",
            "split the book, or choose a larger trim size or a smaller font size",
        )
    };
    let d = Diagnostic::error(format!(
        "the print interior has {pages} pages, {what} than {} prints in a paperback ({low} to {high})",
        profile.label()
    ))
    .with_hint(hint);
    Some(at_profile(press, d))
}

/// The spine's text: left out below the printer's page count (a note),
/// or not fitting the spine's width at 6 pt (a warning), as the laid-out
/// wrap shows: no text lies between the spine's folds.
fn spine(
    press: &Press,
    profile: Profile,
    pages: usize,
    wrap: &Wrap,
    cover: &PagedDocument,
) -> Option<Diagnostic> {
    if !wrap.spine_text {
        return Some(blank_spine(press, profile, pages));
    }
    let left = Abs::mm(wrap.bleed + wrap.trim.0).to_pt();
    let right = left + Abs::mm(wrap.spine).to_pt();
    let written = cover
        .pages()
        .iter()
        .any(|page| text_between(&page.frame, Transform::identity(), left, right));
    (!written).then(|| {
        let d = Diagnostic::warning(format!(
            "the title and the author do not fit the spine ({:.2} in wide) even at 6 pt: the spine is left blank",
            wrap.spine / MM_PER_IN
        ))
        .with_hint("shorten the title, or set `spine-width` to the printer's figure if it is wider");
        at_profile(press, d)
    })
}

/// The note that a book of `pages` is too short for text on its spine.
pub(crate) fn blank_spine(press: &Press, profile: Profile, pages: usize) -> Diagnostic {
    let d = Diagnostic::warning(format!(
        "note: the spine will carry no title: {} puts no text on a spine below {} pages, and the print interior has {pages}",
        profile.label(),
        profile.spine_text_pages()
    ))
    .with_hint("nothing to do; a longer book gets its title on the spine");
    at_profile(press, d)
}

/// Calls `f` with every item of `frame` but groups, descending into each
/// group through its transform, and the transform from the item's frame
/// to the page.
fn each_item(frame: &Frame, ts: Transform, f: &mut impl FnMut(Transform, Point, &FrameItem)) {
    for (pos, item) in frame.items() {
        match item {
            FrameItem::Group(group) => {
                let inner = ts
                    .pre_concat(Transform::translate(pos.x, pos.y))
                    .pre_concat(group.transform);
                each_item(&group.frame, inner, f);
            }
            _ => f(ts, *pos, item),
        }
    }
}

/// The box (left, top, right, bottom, in pt) on the page of the corners
/// `corners`, given in their frame, through `ts`.
fn bounds(corners: [Point; 4], ts: Transform) -> [f64; 4] {
    let corners = corners.map(|p| p.transform(ts));
    let xs = corners.map(|p| p.x.to_pt());
    let ys = corners.map(|p| p.y.to_pt());
    let min = |v: [f64; 4]| v.into_iter().fold(f64::INFINITY, f64::min);
    let max = |v: [f64; 4]| v.into_iter().fold(f64::NEG_INFINITY, f64::max);
    [min(xs), min(ys), max(xs), max(ys)]
}

/// Whether a text item starts between `left` and `right` (pt, page x).
fn text_between(frame: &Frame, ts: Transform, left: f64, right: f64) -> bool {
    let mut found = false;
    each_item(frame, ts, &mut |ts, pos, item| {
        if matches!(item, FrameItem::Text(_)) {
            found |= (left..=right).contains(&pos.transform(ts).x.to_pt());
        }
    });
    found
}

/// How many pages the safe-area warning names before it counts the rest.
const SAFE_PAGES_SHOWN: usize = 5;

/// One run of text as laid out: its text and its box, in pt, page
/// coordinates (left, top, right, bottom).
struct Line {
    text: String,
    bounds: [f64; 4],
}

/// The text runs of `frame`, through every group, with their ink boxes.
fn lines(frame: &Frame, ts: Transform, out: &mut Vec<Line>) {
    each_item(frame, ts, &mut |ts, pos, item| {
        let FrameItem::Text(text) = item else { return };
        let bbox = text.bbox();
        if !bbox.min.x.to_pt().is_finite() {
            return; // Only spaces: no ink.
        }
        // A text item's y axis points up from its baseline.
        let corners = [
            Point::new(bbox.min.x, -bbox.min.y),
            Point::new(bbox.max.x, -bbox.min.y),
            Point::new(bbox.min.x, -bbox.max.y),
            Point::new(bbox.max.x, -bbox.max.y),
        ]
        .map(|p| pos + p);
        out.push(Line {
            text: text.text.to_string(),
            bounds: bounds(corners, ts),
        });
    });
}

/// Text closer to a trim edge than the printer keeps clear: the outside,
/// top and bottom by the profile's safe margin, the binding edge by its
/// gutter for this page count. Found there, it is a running head or a
/// page number in too small a margin, or a line (a long code line, a
/// wide table) that runs out of the text block. One warning for the
/// book, naming the first pages and the nearest approach on each.
fn safe_area(pages: &[Page], profile: Profile, rtl: bool) -> Vec<Diagnostic> {
    let safe = Abs::mm(profile.safe_margin_mm()).to_pt();
    let gutter = Abs::mm(profile.gutter_mm(pages.len())).to_pt();
    let mut found = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        let size = page.frame.size();
        let (w, h) = (size.x.to_pt(), size.y.to_pt());
        // Page 1 is a recto: bound on its left in a left-to-right book.
        let binding_left = (index % 2 == 0) != rtl;
        let (left, right) = if binding_left {
            (gutter, safe)
        } else {
            (safe, gutter)
        };
        let mut laid = Vec::new();
        lines(&page.frame, Transform::identity(), &mut laid);
        let worst = laid
            .iter()
            .flat_map(|line| {
                let [l, t, r, b] = line.bounds;
                [
                    ("left", left - l, left),
                    ("top", safe - t, safe),
                    ("right", right - (w - r), right),
                    ("bottom", safe - (h - b), safe),
                ]
                .map(|(side, into, keep)| (into, side, keep, line))
            })
            .filter(|(into, ..)| *into > EDGE_PT)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((into, side, keep, line)) = worst {
            found.push(format!(
                "page {} (“{}”, {:.2} in from the {side} edge, inside the {:.3} in kept clear)",
                index + 1,
                snippet(&line.text),
                (keep - into).max(0.0) / 72.0,
                keep / 72.0,
            ));
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    let more = found.len().saturating_sub(SAFE_PAGES_SHOWN);
    let mut list = found
        .into_iter()
        .take(SAFE_PAGES_SHOWN)
        .collect::<Vec<_>>()
        .join("; ");
    if more > 0 {
        list.push_str(&format!("; and {more} more pages"));
    }
    vec![
        Diagnostic::warning(format!(
            "text lies outside the safe area {} may trim or bind: print {list}",
            profile.label()
        ))
        .with_hint(
            "widen the margins of [print] (`top-margin`, `bottom-margin`, `outer-margin`), or break the line that runs out",
        ),
    ]
}

/// The cover wrap's back and front text against the safe margin from
/// the trim edges and the spine's folds (the spine's own text is the
/// spine check's).
fn cover_safe_area(cover: &PagedDocument, wrap: &Wrap) -> Vec<Diagnostic> {
    let pt = |mm: f64| Abs::mm(mm).to_pt();
    let (bleed, safe) = (pt(wrap.bleed), pt(wrap.safe));
    let (trim_w, trim_h) = (pt(wrap.trim.0), pt(wrap.trim.1));
    let back = (bleed, bleed + trim_w);
    let front = (back.1 + pt(wrap.spine), back.1 + pt(wrap.spine) + trim_w);
    let (top, bottom) = (bleed, bleed + trim_h);
    let mut laid = Vec::new();
    for page in cover.pages() {
        lines(&page.frame, Transform::identity(), &mut laid);
    }
    // Per panel, the offending line nearest the top left: where the
    // author will see the text begin to run out.
    let mut out: BTreeMap<&str, &Line> = BTreeMap::new();
    for line in &laid {
        let [l, t, r, b] = line.bounds;
        let (panel, (from, to)) = if r <= back.1 + EDGE_PT {
            ("back", back)
        } else if l >= front.0 - EDGE_PT {
            ("front", front)
        } else {
            continue; // On the spine: the spine check's.
        };
        let inside = l >= from + safe - EDGE_PT
            && r <= to - safe + EDGE_PT
            && t >= top + safe - EDGE_PT
            && b <= bottom - safe + EDGE_PT;
        let first = |old: &Line| (t, l) < (old.bounds[1], old.bounds[0]);
        if !inside && out.get(panel).is_none_or(|old| first(old)) {
            out.insert(panel, line);
        }
    }
    out.into_iter()
        .map(|(panel, line)| {
            Diagnostic::warning(format!(
                "the {panel} cover's text runs within {:.3} in of a trim edge or fold, from “{}” on",
                wrap.safe / MM_PER_IN,
                snippet(&line.text)
            ))
            .with_hint("shorten the back-cover text (`[cover.back]`) or the bio (`[cover.bio]`)")
        })
        .collect()
}

/// The first words of a line, for naming it in a message.
fn snippet(text: &str) -> String {
    const CHARS: usize = 24;
    let text = text.trim();
    if text.chars().count() <= CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(CHARS).collect();
    format!("{}…", cut.trim_end())
}

/// Every font the pages use must travel in the file. typst-pdf embeds
/// (a subset of) each font it has the data of; a font without data
/// could not be embedded, and that is an error.
fn fonts(inside: &PagedDocument) -> Vec<Diagnostic> {
    let mut used = BTreeMap::new();
    for page in inside.pages() {
        collect_fonts(&page.frame, &mut used);
    }
    used.into_iter()
        .filter(|(_, bytes)| *bytes == 0)
        .map(|(family, _)| {
            Diagnostic::error(format!(
                "the font `{family}` has no data, so it cannot be embedded in the print interior"
            ))
            .with_hint("use a font file the theme ships (themes/<name>/fonts/) or an embedded one")
        })
        .collect()
}

/// The family and data length of every font used in `frame`.
fn collect_fonts(frame: &Frame, out: &mut BTreeMap<String, usize>) {
    each_item(frame, Transform::identity(), &mut |_, _, item| {
        if let FrameItem::Text(text) = item {
            out.insert(text.font.info().family.clone(), text.font.data().len());
        }
    });
}

/// The raster images of `pages` as placed, through every group.
fn placed(pages: &[Page]) -> Vec<Placed> {
    let mut out = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        walk(&page.frame, Transform::identity(), index + 1, &mut out);
    }
    out
}

fn walk(frame: &Frame, ts: Transform, page: usize, out: &mut Vec<Placed>) {
    each_item(frame, ts, &mut |ts, pos, item| {
        let FrameItem::Image(image, size, _) = item else {
            return;
        };
        if !matches!(image.kind(), ImageKind::Raster(_)) {
            return;
        }
        let corners = [
            pos,
            pos + Point::with_x(size.x),
            pos + Point::with_y(size.y),
            pos + size.to_point(),
        ];
        out.push(Placed {
            image: image.clone(),
            page,
            size: (
                size.x.to_pt() * ts.sx.get().hypot(ts.ky.get()),
                size.y.to_pt() * ts.kx.get().hypot(ts.sy.get()),
            ),
            bounds: bounds(corners, ts),
        });
    });
}

/// An image below 300 dpi at its placed size (the lower of its two
/// directions' resolutions).
fn resolution(p: &Placed, name: &str) -> Option<Diagnostic> {
    let ImageKind::Raster(raster) = p.image.kind() else {
        return None;
    };
    let (w_in, h_in) = (p.size.0 / 72.0, p.size.1 / 72.0);
    if w_in <= 0.0 || h_in <= 0.0 {
        return None;
    }
    let dpi = (f64::from(raster.width()) / w_in).min(f64::from(raster.height()) / h_in);
    if dpi >= PRINT_DPI - 0.5 {
        return None;
    }
    let needed = (w_in * PRINT_DPI - 1e-6).ceil();
    Some(Diagnostic::warning(format!(
        "{name} is placed at {} × {} in, {} dpi; the printer wants 300: use an image at least {needed} px wide",
        inches(w_in),
        inches(h_in),
        dpi.round()
    )))
}

/// Inches with one decimal, without a trailing `.0`.
fn inches(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_owned).unwrap_or(s)
}

/// An image that reaches a page edge: on a side without bleed (the
/// binding edge, for KDP and IngramSpark) it is cut; on a side with
/// bleed it must run on into the bleed, or a white hairline may show.
fn bleed(p: &Placed, page: &Page, profile: Profile, name: &str) -> Vec<Diagnostic> {
    let size = page.frame.size();
    let (w, h) = (size.x.to_pt(), size.y.to_pt());
    let [left, top, right, bottom] = p.bounds;
    let sides = [
        ("left", left <= EDGE_PT, page.bleed.left, -left),
        ("top", top <= EDGE_PT, page.bleed.top, -top),
        ("right", right >= w - EDGE_PT, page.bleed.right, right - w),
        (
            "bottom",
            bottom >= h - EDGE_PT,
            page.bleed.bottom,
            bottom - h,
        ),
    ];
    let mut out = Vec::new();
    for (side, touches, bleed, beyond) in sides {
        let bleed = bleed.to_pt();
        if !touches || (bleed > 0.0 && beyond >= bleed - EDGE_PT) {
            continue;
        }
        let (message, hint) = if bleed == 0.0 {
            (
                format!(
                    "{name} touches the {side} edge of print page {}, the binding edge, which has no bleed for {}",
                    p.page,
                    profile.label()
                ),
                "keep the image inside the margins (a smaller width)".to_owned(),
            )
        } else {
            (
                format!(
                    "{name} reaches the {side} edge of print page {} but not into the {:.3} in bleed",
                    p.page,
                    bleed / 72.0
                ),
                format!(
                    "make the image run {:.3} in past the page edge, or keep it inside the margins",
                    bleed / 72.0
                ),
            )
        };
        out.push(Diagnostic::warning(message).with_hint(hint));
    }
    out
}

/// Each colour image once, for a printer that wants CMYK: a report,
/// since Typst writes RGB only.
fn rgb(placed: &[Placed], names: &NameOf, profile: Profile) -> Vec<Diagnostic> {
    let mut seen = BTreeMap::new();
    for p in placed {
        if let ImageKind::Raster(raster) = p.image.kind()
            && raster.dynamic().color().has_color()
        {
            seen.entry(names.of(&p.image)).or_insert(());
        }
    }
    seen.into_keys()
        .map(|name| {
            Diagnostic::warning(format!(
                "{name} is an RGB image; {} prefers CMYK (PDF/X-1a), which Typst cannot write or convert to",
                profile.label()
            ))
            .with_hint("the printer accepts RGB; convert the PDF with a prepress tool if it insists")
        })
        .collect()
}

/// The book's image files by their bytes, so that an image in the layout
/// is named by the file the author put in the post's folder.
struct NameOf {
    by_bytes: HashMap<Vec<u8>, String>,
}

impl NameOf {
    fn new(book: &Book) -> NameOf {
        let cwd = std::env::current_dir().ok();
        let by_bytes = book
            .assets
            .iter()
            .filter_map(|asset| {
                let bytes = std::fs::read(&asset.path).ok()?;
                let path = Path::new(&asset.path);
                let shown = cwd
                    .as_deref()
                    .and_then(|cwd| path.strip_prefix(cwd).ok())
                    .unwrap_or(path);
                Some((bytes, shown.display().to_string()))
            })
            .collect();
        NameOf { by_bytes }
    }

    /// The file an image was read from, or what it is when it was made
    /// by the theme or a plugin.
    fn of(&self, image: &Image) -> String {
        match image.kind() {
            ImageKind::Raster(raster) => self
                .by_bytes
                .get(raster.data().as_slice())
                .cloned()
                .unwrap_or_else(|| "an image of the theme".to_owned()),
            _ => "a vector image".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typst::foundations::Bytes;
    use typst::layout::{Sides, Size};
    use typst::visualize::{ExchangeFormat, RasterImage};

    /// A `w` × `h` px PNG.
    fn png(w: u32, h: u32) -> Image {
        let mut data = Vec::new();
        let mut encoder = png::Encoder::new(&mut data, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer
            .write_image_data(&vec![128; (w * h * 3) as usize])
            .unwrap();
        drop(writer);
        let raster = RasterImage::plain(Bytes::new(data), ExchangeFormat::Png).unwrap();
        Image::plain(raster)
    }

    fn placed_at(image: Image, x: f64, w: f64, h: f64) -> Placed {
        Placed {
            image,
            page: 1,
            size: (w, h),
            bounds: [x, 100.0, x + w, 100.0 + h],
        }
    }

    #[test]
    fn resolution_is_pixels_over_placed_inches() {
        // 867 px over 6.1 in: 142 dpi.
        let p = placed_at(png(867, 568), 0.0, 6.1 * 72.0, 4.0 * 72.0);
        let d = resolution(&p, "img.png").unwrap();
        assert_eq!(
            d.message,
            "img.png is placed at 6.1 × 4 in, 142 dpi; the printer wants 300: use an image at least 1830 px wide"
        );
        let sharp = placed_at(png(300, 300), 0.0, 72.0, 72.0);
        assert!(resolution(&sharp, "a.png").is_none());
    }

    #[test]
    fn an_image_at_the_binding_edge_is_cut() {
        let page = Page {
            frame: Frame::hard(Size::new(Abs::pt(400.0), Abs::pt(600.0))),
            fill: typst::foundations::Smart::Auto,
            numbering: None,
            supplement: typst::foundations::Content::empty(),
            number: 1,
            bleed: Sides::new(Abs::zero(), Abs::pt(9.0), Abs::pt(9.0), Abs::pt(9.0)),
        };
        let at_left = placed_at(png(10, 10), 0.0, 100.0, 100.0);
        let found = bleed(&at_left, &page, Profile::Kdp, "a.png");
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("binding edge"),
            "{}",
            found[0].message
        );
        let inside = placed_at(png(10, 10), 50.0, 100.0, 100.0);
        assert!(bleed(&inside, &page, Profile::Kdp, "a.png").is_empty());
        // On a side with bleed, an image must run on into it.
        let at_right = placed_at(png(10, 10), 300.0, 100.0, 100.0);
        assert!(
            bleed(&at_right, &page, Profile::Kdp, "a.png")[0]
                .message
                .contains("not into the 0.125 in bleed")
        );
        let into = placed_at(png(10, 10), 300.0, 109.0, 100.0);
        assert!(bleed(&into, &page, Profile::Kdp, "a.png").is_empty());
    }

    #[test]
    fn page_counts_outside_the_binding_are_errors_at_the_profile() {
        let press = Press {
            profile: "kdp".into(),
            profile_at: Some(("books/b/book.toml".into(), 7, 1)),
            ..Press::default()
        };
        let d = page_count(&press, Profile::Kdp, 12).unwrap();
        assert_eq!(d.severity, stoa_doc::Severity::Error);
        assert_eq!(
            (d.file.as_deref(), d.line),
            (Some("books/b/book.toml"), Some(7))
        );
        assert!(
            d.message.contains("12 pages, fewer than Amazon KDP prints"),
            "{}",
            d.message
        );
        assert!(page_count(&press, Profile::Kdp, 24).is_none());
        assert!(page_count(&press, Profile::Kdp, 900).is_some());
    }

    /// `source` laid out by Typst, with the embedded fonts only.
    fn laid(source: &str) -> PagedDocument {
        let dir = tempfile::tempdir().unwrap();
        let theme = stoa_render::Theme::folder("preflight-test", dir.path());
        let world = crate::world::StoaWorld::new(source.into(), theme, HashMap::new(), None);
        typst::compile::<PagedDocument>(&world).output.unwrap()
    }

    #[test]
    fn the_fonts_of_a_laid_out_page_carry_their_data() {
        let doc = laid("#set page(width: 200pt, height: 100pt, margin: 20pt)\nSome _words_.");
        let mut used = BTreeMap::new();
        collect_fonts(&doc.pages()[0].frame, &mut used);
        assert!(!used.is_empty());
        assert!(used.values().all(|&bytes| bytes > 0), "{used:?}");
        assert!(fonts(&doc).is_empty());
    }

    #[test]
    fn text_is_found_between_two_verticals() {
        let doc =
            laid("#set page(width: 200pt, height: 100pt, margin: 0pt)\n#place(dx: 120pt)[spine]");
        let frame = &doc.pages()[0].frame;
        assert!(text_between(frame, Transform::identity(), 110.0, 130.0));
        assert!(!text_between(frame, Transform::identity(), 0.0, 100.0));
    }

    /// Two KDP pages of 6 × 9 in (432 × 648 pt) with 72 pt margins and
    /// `extra` placed on the first.
    fn kdp_pages(extra: &str) -> PagedDocument {
        laid(&format!(
            "#set page(width: 432pt, height: 648pt, margin: 72pt)\nBody text.{extra}\n#pagebreak()\nVerso."
        ))
    }

    #[test]
    fn text_within_the_margins_is_safe() {
        let doc = kdp_pages("");
        assert!(safe_area(doc.pages(), Profile::Kdp, false).is_empty());
    }

    #[test]
    fn a_page_number_in_the_bottom_safe_margin_is_named() {
        // 0.375 in is 27 pt; a number 10 pt above the bottom edge.
        let doc = kdp_pages("#place(bottom + center, dy: 62pt)[17]");
        let found = safe_area(doc.pages(), Profile::Kdp, false);
        assert_eq!(found.len(), 1);
        let message = &found[0].message;
        assert!(message.contains("Amazon KDP"), "{message}");
        assert!(message.contains("page 1 (“17”"), "{message}");
        assert!(message.contains("from the bottom edge"), "{message}");
        assert!(message.contains("0.375 in kept clear"), "{message}");
    }

    #[test]
    fn the_binding_edge_keeps_the_gutter_and_flips_right_to_left() {
        // IngramSpark keeps 0.25 in (18 pt) clear outside and a 0.375 in
        // (27 pt) gutter: text 20 pt from the left edge of page 1.
        let recto = kdp_pages("#place(left, dx: -52pt)[edge]");
        let found = safe_area(recto.pages(), Profile::IngramSpark, false);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains("from the left edge"));
        assert!(found[0].message.contains("0.375 in kept clear"));
        // Right to left, page 1 binds on its right: its left is the
        // outside, where 20 pt is clear of 18.
        assert!(safe_area(recto.pages(), Profile::IngramSpark, true).is_empty());
        // A line that runs out of the right margin by 60 pt.
        let long = kdp_pages("#place(right, dx: 60pt)[overflowing]");
        let found = safe_area(long.pages(), Profile::Kdp, false);
        let message = &found[0].message;
        assert!(message.contains("from the right edge"), "{message}");
    }

    #[test]
    fn many_pages_are_counted_not_listed() {
        let source = format!(
            "#set page(width: 432pt, height: 648pt, margin: 72pt)\n{}",
            (0..8)
                .map(|n| format!("#place(top, dy: -65pt)[head {n}]\n#pagebreak()"))
                .collect::<String>()
        );
        let doc = laid(&source);
        let found = safe_area(doc.pages(), Profile::Kdp, false);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("; and 3 more pages"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn snippets_are_cut_at_a_word_count_of_characters() {
        assert_eq!(snippet("  short  "), "short");
        assert_eq!(
            snippet("a line far longer than the snippet"),
            "a line far longer than t…"
        );
    }

    #[test]
    fn inches_drop_a_trailing_zero() {
        assert_eq!(inches(4.0), "4");
        assert_eq!(inches(6.1), "6.1");
        assert_eq!(inches(5.96), "6");
    }
}
