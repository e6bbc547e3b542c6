//! The pixel density an image says it has, read as Typst reads it (EXIF
//! first, then JPEG's JFIF header, then PNG's pHYs chunk): it sets the
//! image's natural size on a page, which a remade image must keep.

use std::io::Cursor;

/// Pixels per inch, when the image says (a positive number).
pub(crate) fn dpi(bytes: &[u8]) -> Option<f64> {
    exif_dpi(bytes)
        .or_else(|| jfif_dpi(bytes))
        .or_else(|| png_dpi(bytes))
        .filter(|d| d.is_finite() && *d > 0.0)
}

fn exif_dpi(bytes: &[u8]) -> Option<f64> {
    let exif = exif::Reader::new()
        .read_from_container(&mut Cursor::new(bytes))
        .ok()?;
    let axis = |tag| {
        let field = exif.get_field(tag, exif::In::PRIMARY)?;
        let exif::Value::Rational(r) = &field.value else {
            return None;
        };
        Some(r.first()?.to_f64())
    };
    [axis(exif::Tag::XResolution), axis(exif::Tag::YResolution)]
        .into_iter()
        .flatten()
        .reduce(f64::max)
}

fn jfif_dpi(bytes: &[u8]) -> Option<f64> {
    let at = |i: usize, expect: &[u8]| bytes.get(i..)?.starts_with(expect).then_some(());
    at(0, b"\xFF\xD8\xFF\xE0\0")?;
    at(6, b"JFIF\0")?;
    let u16_at = |i: usize| Some(u16::from_be_bytes(bytes.get(i..i + 2)?.try_into().ok()?));
    if u16_at(4)? < 16 {
        return None;
    }
    let per_unit = f64::from(u16_at(14)?.max(u16_at(16)?));
    match *bytes.get(13)? {
        1 => Some(per_unit),
        2 => Some(per_unit * 2.54),
        _ => None,
    }
}

fn png_dpi(bytes: &[u8]) -> Option<f64> {
    let decoder = png::Decoder::new(Cursor::new(bytes));
    let reader = decoder.read_info().ok()?;
    let dims = reader.info().pixel_dims?;
    match dims.unit {
        png::Unit::Meter => Some(f64::from(dims.xppu.max(dims.yppu)) * 0.0254),
        png::Unit::Unspecified => None,
    }
}
