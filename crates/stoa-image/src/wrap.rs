//! A raster image wrapped in an SVG of its natural size, for the PDF:
//! Typst decodes every raster image it lays out and keeps its pixels until
//! the document is written (about 1.4 MB for a photograph 827 pixels
//! wide, so a gigabyte and more for a blog of a thousand pictures), but it
//! keeps an SVG's embedded image as the file it is, and its PDF writer
//! embeds a JPEG as it is. The SVG is sized as Typst sizes the image
//! itself (its pixels over the density it says it has, 72 ppi when it
//! says none) and turned as its EXIF says, so the page does not change.

use crate::{Kind, Probe};
use base64::Engine;
use std::fmt::Write;

/// Typst's density for an image that says none.
const DEFAULT_DPI: f64 = 72.0;

/// The SVG holding the JPEG or PNG `bytes` (of `probe`); `None` for any
/// other kind, which is given as it is.
pub fn in_svg(bytes: &[u8], probe: &Probe) -> Option<Vec<u8>> {
    match probe.kind {
        Kind::Jpeg | Kind::Png => in_svg_as(probe, probe.kind.media_type(), bytes),
        _ => None,
    }
}

/// The SVG of the natural size and orientation of the image `probe`
/// describes, showing `bytes` (of `media_type`) stretched over it: the
/// image itself, or a stand-in the PDF replaces (see stoa-pdf).
pub fn in_svg_as(probe: &Probe, media_type: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    let (w, h) = (probe.width, probe.height);
    if w == 0 || h == 0 {
        return None;
    }
    let (shown_w, shown_h) = probe.shown();
    // Points at the image's density: its natural size in Typst.
    let scale = 72.0 / probe.dpi.unwrap_or(DEFAULT_DPI);
    let (pt_w, pt_h) = (f64::from(shown_w) * scale, f64::from(shown_h) * scale);
    // The EXIF orientation as the transform that shows the stored pixels
    // upright (a PDF writer does not read EXIF).
    let (w, h) = (f64::from(w), f64::from(h));
    let transform = match probe.orientation {
        2 => format!("matrix(-1 0 0 1 {w} 0)"),
        3 => format!("matrix(-1 0 0 -1 {w} {h})"),
        4 => format!("matrix(1 0 0 -1 0 {h})"),
        5 => "matrix(0 1 1 0 0 0)".to_string(),
        6 => format!("matrix(0 1 -1 0 {h} 0)"),
        7 => format!("matrix(0 -1 -1 0 {h} {w})"),
        8 => format!("matrix(0 -1 1 0 0 {w})"),
        _ => String::new(),
    };
    let mut svg = String::with_capacity(bytes.len() * 4 / 3 + 400);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         width=\"{pt_w}pt\" height=\"{pt_h}pt\" viewBox=\"0 0 {shown_w} {shown_h}\">\
         <image width=\"{w}\" height=\"{h}\" preserveAspectRatio=\"none\""
    );
    if !transform.is_empty() {
        let _ = write!(svg, " transform=\"{transform}\"");
    }
    let _ = write!(svg, " xlink:href=\"data:{media_type};base64,");
    base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut svg);
    svg.push_str("\"/></svg>");
    Some(svg.into_bytes())
}
