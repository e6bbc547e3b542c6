//! The print interior (`<book>-<lang>-print.pdf`): the reader's PDF as laid
//! out, made into what a printer takes. The cover page (and the blank page
//! behind it) leave, so that the half title is page 1, a recto; a blank page
//! makes the count even; every page gets the profile's bleed (a `TrimBox`
//! in typst-pdf); for a printer that forbids them (KDP), the link
//! annotations and the bookmarks go. Nothing is laid out again: the pages
//! are the reader's PDF's pages, so the page map and the index agree.

use std::collections::HashMap;

use stoa_doc::{Book, Diagnostic, Press, Severity};
use stoa_press::{BleedSides, Profile};
use stoa_render::RenderContext;
use typst::diag::Warned;
use typst::foundations::{NativeElement, Smart};
use typst::introspection::{Location, Tag};
use typst::layout::{Abs, Frame, FrameItem, Point, Sides, Size};
use typst::model::{Document, HeadingElem};
use typst::syntax::Span;
use typst::visualize::Geometry;
use typst_layout::{Page, PagedDocument};
use typst_pdf::PdfOptions;

use crate::source::Parts;
use crate::world::StoaWorld;
use crate::wrap::{self, Wrap};
use crate::{Job, checked_theme};

/// The profile of a press job (stoa-book checked the name).
pub(crate) fn profile(press: &Press) -> Profile {
    Profile::parse(&press.profile).unwrap_or(Profile::Generic)
}

/// The least inside margin, in mm, for `pages` pages under `press`, no
/// less than the book's own `inner_mm`.
pub(crate) fn inner_margin(press: &Press, inner_mm: f64, pages: usize) -> f64 {
    inner_mm.max(profile(press).gutter_mm(pages))
}

/// The print interior of the laid-out `document` (see the module's doc).
/// `rtl`: the book is bound on the right.
pub(crate) fn interior(document: &PagedDocument, press: &Press, rtl: bool) -> PagedDocument {
    let profile = profile(press);
    let mut pages: Vec<Page> = document.pages().iter().skip(1).cloned().collect();
    if pages.first().is_some_and(|p| is_blank(&p.frame)) {
        pages.remove(0);
    }
    if pages.len() % 2 == 1
        && let Some(last) = pages.last()
    {
        let mut blank = last.clone();
        blank.frame = Frame::hard(last.frame.size());
        blank.number += 1;
        blank.fill = Smart::Auto;
        pages.push(blank);
    }
    let bleed = Abs::mm(profile.bleed_mm());
    let bare = profile.bare_interior();
    let headings = if bare {
        heading_locations(&pages)
    } else {
        Vec::new()
    };
    for (index, page) in pages.iter_mut().enumerate() {
        // Page 1 is a recto: its outside edge is on the right in a book
        // bound on the left.
        let outside_right = (index % 2 == 0) != rtl;
        page.bleed = match profile.bleed_sides() {
            BleedSides::All => Sides::splat(bleed),
            BleedSides::Outside if outside_right => Sides::new(Abs::zero(), bleed, bleed, bleed),
            BleedSides::Outside => Sides::new(bleed, bleed, Abs::zero(), bleed),
        };
        if bare {
            strip(&mut page.frame, &headings);
        }
    }
    PagedDocument::new(pages.into_iter().collect(), document.info().clone())
}

/// The book laid out again with the printer's gutter for `pages` pages,
/// when that is wider than the book's own inside margin; `None` when the
/// book has no press job or its margin is wide enough.
pub(crate) fn geared(book: &Book, pages: usize) -> Option<Book> {
    let press = book.print.press.as_ref()?;
    let inner = inner_margin(press, book.print.inner_mm, pages);
    (inner > book.print.inner_mm + 1e-9).then(|| {
        let mut geared = book.clone();
        geared.print.inner_mm = inner;
        geared
    })
}

/// The print interior, the cover wrap and its proof of the laid-out
/// `document`, as (suffix, bytes); with what the printer would refuse or
/// the author should know (the preflight) as warnings.
pub(crate) fn files(
    job: &Job,
    ctx: &RenderContext,
    document: &PagedDocument,
    press: &Press,
    options: &PdfOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<(String, Vec<u8>)>, Vec<Diagnostic>> {
    let book = job.book;
    let inside = interior(document, press, stoa_locale::is_rtl(&book.lang));
    let export = |doc: &PagedDocument, what: &str, tagged: bool| {
        let options = PdfOptions {
            ident: Smart::Custom(format!("{}#{what}", book.meta.identifier)),
            timestamp: options.timestamp,
            tagged,
            ..PdfOptions::default()
        };
        typst_pdf::pdf(doc, &options).map_err(|errors| {
            errors
                .iter()
                .map(|e| Diagnostic::error(format!("cannot write the {what} PDF: {}", e.message)))
                .collect::<Vec<_>>()
        })
    };
    let print = export(&inside, "print", !profile(press).bare_interior())?;
    let pages = inside.pages().len();
    let Some(wrap) = Wrap::of(book, pages) else {
        return Ok(vec![("-print.pdf".into(), print)]);
    };
    if !press.preflight {
        warnings.extend(preflight(book, press, pages, &wrap));
    }
    let front = front_cover(job, ctx, &wrap)?;
    let theme = checked_theme(job.theme)?;
    let mut files = vec![("-print.pdf".to_owned(), print)];
    for (suffix, guides) in [("-cover.pdf", false), ("-cover-proof.pdf", true)] {
        let laid = lay_out_wrap(book, &theme, &wrap, guides)?;
        let sheet = compose(&laid, &front, &wrap);
        files.push((suffix.to_owned(), export(&sheet, "cover", false)?));
        if press.preflight && !guides {
            warnings.extend(crate::preflight::run(book, press, &inside, &wrap, &laid));
        }
    }
    Ok(files)
}

/// The cover proof of the laid-out `document` (the `-cover-proof.pdf`'s
/// one page: the wrap with its guides), for the reference-page tests;
/// `None` when the book has no press job or its profile no wrap.
pub(crate) fn cover_proof(
    job: &Job,
    ctx: &RenderContext,
    document: &PagedDocument,
) -> Result<Option<PagedDocument>, Vec<Diagnostic>> {
    let Some(press) = &job.book.print.press else {
        return Ok(None);
    };
    let inside = interior(document, press, stoa_locale::is_rtl(&job.book.lang));
    let Some(wrap) = Wrap::of(job.book, inside.pages().len()) else {
        return Ok(None);
    };
    let front = front_cover(job, ctx, &wrap)?;
    let laid = lay_out_wrap(job.book, &checked_theme(job.theme)?, &wrap, true)?;
    Ok(Some(compose(&laid, &front, &wrap)))
}

/// The back and the spine of `wrap` laid out (with the proof's `guides`
/// or without), for [`compose`] to place the front on.
fn lay_out_wrap(
    book: &Book,
    theme: &stoa_render::Theme,
    wrap: &Wrap,
    guides: bool,
) -> Result<PagedDocument, Vec<Diagnostic>> {
    let source = wrap::source(book, wrap, guides);
    // The book's fonts (its project's, its CJK faces), as its pages have.
    let fonts = crate::world::FontChoice::for_book(book, theme)
        .map(|(choice, _)| choice)
        .unwrap_or_else(|_| crate::world::FontChoice::of(&book.print));
    let world = StoaWorld::new(source, theme.clone(), HashMap::new(), None).with_fonts(fonts);
    let Warned { output, .. } = typst::compile::<PagedDocument>(&world);
    output.map_err(|errors| {
        errors
            .iter()
            .map(|e| Diagnostic::error(format!("cannot lay out the cover wrap: {}", e.message)))
            .collect()
    })
}

/// What the printer of `press` would refuse in a book of `pages` print
/// pages, or what the author should know (the build's short preflight;
/// `stoa check --print` runs crate::preflight instead): the page count out of the
/// binding's range, a spine too thin for its text, RGB images for a
/// printer that wants CMYK (Typst cannot convert them).
fn preflight(book: &Book, press: &Press, pages: usize, wrap: &Wrap) -> Vec<Diagnostic> {
    let profile = profile(press);
    let mut out = Vec::new();
    // The check's wording at the profile's line; a warning here, since
    // the build still writes the file (`stoa check --print` refuses it).
    if let Some(mut d) = crate::preflight::page_count(press, profile, pages) {
        d.severity = Severity::Warning;
        out.push(d);
    }
    if !wrap.spine_text {
        out.push(crate::preflight::blank_spine(press, profile, pages));
    }
    if profile.wants_cmyk() && !book.assets.is_empty() {
        out.push(
            Diagnostic::warning(format!(
                "{} prefers CMYK images (PDF/X-1a); the book's {} images stay RGB, which Typst cannot convert",
                profile.label(),
                book.assets.len()
            ))
            .with_hint("IngramSpark accepts RGB files; convert them with a prepress tool if it insists"),
        );
    }
    out
}

/// The front cover as the theme draws it: the ebook cover's page at the
/// trim size, or (the author's own image, which must reach the edges)
/// at the trim size with the bleed on its top, bottom and outside.
fn front_cover(job: &Job, ctx: &RenderContext, wrap: &Wrap) -> Result<Page, Vec<Diagnostic>> {
    let mut book = Book {
        chapters: Vec::new(),
        ..job.book.clone()
    };
    if book.print.cover.image.is_some() {
        book.print.width_mm = wrap.trim.0 + wrap.bleed;
        book.print.height_mm = wrap.trim.1 + 2.0 * wrap.bleed;
    }
    let generated = crate::source::generate(&book, ctx.notes, ctx.ids, Parts::Cover);
    let cover_job = Job {
        book: &book,
        ..*job
    };
    let (document, _) = cover_job.compile(&generated)?;
    document
        .pages()
        .first()
        .cloned()
        .ok_or_else(|| vec![Diagnostic::error("the theme made no cover page")])
}

/// The sheet: the laid-out back and spine with the front placed on them,
/// then cut to its trim with the bleed around it (a `TrimBox`).
fn compose(laid: &PagedDocument, front: &Page, wrap: &Wrap) -> PagedDocument {
    let mut page = laid.pages()[0].clone();
    let bleed = Abs::mm(wrap.bleed);
    let bled = front.frame.width() > Abs::mm(wrap.trim.0 + wrap.bleed / 2.0);
    let mut front_frame = front.frame.clone();
    if let Smart::Custom(Some(paint)) = &front.fill {
        // The page's fill, which is not in its frame, reaching the bleed.
        // The outside is on the right of a book bound on the left, on the
        // left of one bound on the right.
        let outside = if wrap.rtl { -bleed } else { Abs::zero() };
        let (at, size) = if bled {
            (Point::zero(), front_frame.size())
        } else {
            (
                Point::new(outside, -bleed),
                front_frame.size() + Size::new(bleed, bleed * 2.0),
            )
        };
        let shape = Geometry::Rect(size).filled(paint.clone());
        front_frame.prepend(at, FrameItem::Shape(shape, Span::detached()));
    }
    let y = if bled { Abs::zero() } else { bleed };
    // An image of its own carries the outside's bleed in its frame.
    let x = match bled && wrap.rtl {
        true => Abs::mm(wrap.front_x()) - bleed,
        false => Abs::mm(wrap.front_x()),
    };
    page.frame.push_frame(Point::new(x, y), front_frame);
    let (w, h) = wrap.sheet();
    let mut trimmed = Frame::hard(Size::new(
        Abs::mm(w) - bleed * 2.0,
        Abs::mm(h) - bleed * 2.0,
    ));
    trimmed.push_frame(Point::new(-bleed, -bleed), page.frame);
    page.frame = trimmed;
    page.bleed = Sides::splat(bleed);
    PagedDocument::new(std::iter::once(page).collect(), laid.info().clone())
}

/// Whether a frame draws nothing (tags and empty groups aside).
fn is_blank(frame: &Frame) -> bool {
    frame.items().all(|(_, item)| match item {
        FrameItem::Group(group) => is_blank(&group.frame),
        FrameItem::Tag(_) | FrameItem::Link(..) => true,
        FrameItem::Text(_) | FrameItem::Shape(..) | FrameItem::Image(..) => false,
    })
}

/// Where the headings start: the bookmarks are made from them.
fn heading_locations(pages: &[Page]) -> Vec<Location> {
    fn walk(frame: &Frame, out: &mut Vec<Location>) {
        for (_, item) in frame.items() {
            match item {
                FrameItem::Group(group) => walk(&group.frame, out),
                FrameItem::Tag(Tag::Start(content, _)) if content.elem() == HeadingElem::ELEM => {
                    out.extend(content.location());
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for page in pages {
        walk(&page.frame, &mut out);
    }
    out.sort_unstable_by_key(|l| l.hash());
    out
}

/// Removes the links and the headings' tags (so no bookmark is made),
/// through every group.
fn strip(frame: &mut Frame, headings: &[Location]) {
    frame.retain(|item| match item {
        FrameItem::Link(..) => false,
        FrameItem::Tag(tag) => headings
            .binary_search_by_key(&tag.location().hash(), |l| l.hash())
            .is_err(),
        FrameItem::Group(group) => {
            strip(&mut group.frame, headings);
            true
        }
        _ => true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use typst::layout::Size;

    #[test]
    fn blank_frames_are_those_that_draw_nothing() {
        let frame = Frame::hard(Size::new(Abs::pt(100.0), Abs::pt(100.0)));
        assert!(is_blank(&frame));
        let mut drawn = frame.clone();
        let shape = typst::visualize::Geometry::Rect(Size::splat(Abs::pt(1.0)))
            .filled(typst::visualize::Color::BLACK);
        drawn.push(
            typst::layout::Point::zero(),
            FrameItem::Shape(shape, typst::syntax::Span::detached()),
        );
        assert!(!is_blank(&drawn));
    }

    #[test]
    fn gutters_never_shrink_the_books_own_margin() {
        let press = Press {
            profile: "kdp".into(),
            ..Press::default()
        };
        assert_eq!(inner_margin(&press, 20.0, 100), 20.0);
        assert!((inner_margin(&press, 5.0, 100) - 9.525).abs() < 1e-9);
        assert!((inner_margin(&press, 5.0, 400) - 15.875).abs() < 1e-9);
    }
}
