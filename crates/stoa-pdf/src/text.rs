//! The text of the print edition as it is laid out, page by page, for
//! tests that assert on what the PDF says (the plugin test kit,
//! `stoa-plugin-testkit`) without a PDF reader: read from Typst's frames
//! before export, so it is exact and costs no PDF parsing.

use stoa_doc::Diagnostic;
use stoa_render::RenderContext;
use typst::layout::{Abs, Frame, FrameItem, Point};
use typst::text::TextItem;

use crate::Job;
use crate::source::{Parts, generate};

/// The laid-out text of the edition in `ctx`, one string per page (cover,
/// title page and contents included), lines separated by `\n`, and the
/// warnings the layout gave. The same layout as [`crate::PdfRenderer`]'s,
/// minus the export: what fails there (the book, the theme, the plugins'
/// Typst styles) fails here, with the same diagnostics.
pub fn page_texts(ctx: &RenderContext) -> Result<(Vec<String>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let job = Job::of(ctx);
    let generated = generate(job.book, ctx.notes, ctx.ids, Parts::Book);
    let (document, mut warnings) = job.compile(&generated)?;
    warnings.extend(generated.warnings);
    let pages = document
        .pages()
        .iter()
        .map(|p| page_text(&p.frame))
        .collect();
    Ok((pages, warnings))
}

/// The laid-out text of one page, lines separated by `\n`.
pub(crate) fn page_text(frame: &Frame) -> String {
    let mut items = Vec::new();
    text_items(frame, Point::zero(), &mut items);
    lines(&items)
}

/// Every text item of `frame` and its subframes, in layout order, with its
/// position on the page.
fn text_items<'f>(frame: &'f Frame, origin: Point, out: &mut Vec<(Point, &'f TextItem)>) {
    for (pos, item) in frame.items() {
        let at = origin + *pos;
        match item {
            FrameItem::Group(group) => {
                let shift = Point::new(group.transform.tx, group.transform.ty);
                text_items(&group.frame, at + shift, out);
            }
            FrameItem::Text(text) => out.push((at, text)),
            _ => {}
        }
    }
}

/// The items as lines: a new line where the baseline moves, a space where
/// two items on one line leave a gap (justified words, a span's edge).
fn lines(items: &[(Point, &TextItem)]) -> String {
    let mut out = String::new();
    let mut last: Option<(Point, Abs, Abs)> = None;
    for (at, item) in items {
        if let Some((prev, end, size)) = last {
            if (at.y - prev.y).abs() > size * 0.3 {
                out.push('\n');
            } else if at.x - end > size * 0.15 && !out.ends_with(' ') {
                out.push(' ');
            }
        }
        out.push_str(&item.text);
        last = Some((*at, at.x + item.width(), item.size));
    }
    out
}
