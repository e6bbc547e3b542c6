//! Decoding, scaling and encoding one image: JPEG for photographs, PNG
//! (a palette when it has few colours) for flat graphics and
//! transparency, with the source's colour profile and the density that
//! keeps its natural size.

use crate::{Error, Kind};
use fast_image_resize::{IntoImageView, Resizer, images::Image};
use image::{DynamicImage, ImageDecoder, ImageEncoder};
use std::borrow::Cow;
use std::io::Cursor;

/// An image made for an output.
#[derive(Clone, Debug, PartialEq)]
pub struct Made {
    /// The file.
    pub bytes: Vec<u8>,
    /// Its kind.
    pub kind: Kind,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
}

/// The most bytes a decoded image may take: a 100-megapixel RGBA image.
const MAX_DECODED_BYTES: u64 = 400 << 20;

/// An image decoded once, to make several files of.
pub struct Decoded {
    pixels: DynamicImage,
    icc: Option<Vec<u8>>,
}

impl Decoded {
    /// Decodes `bytes` (turned as its EXIF says).
    pub fn of(bytes: &[u8]) -> Result<Decoded, Error> {
        let (pixels, icc) = decode(bytes)?;
        Ok(Decoded { pixels, icc })
    }
}

pub(crate) fn make(
    decoded: &Decoded,
    (width, height): (u32, u32),
    kind: Kind,
    dpi: Option<u16>,
    jpeg_quality: u8,
) -> Result<Made, Error> {
    let icc = decoded.icc.clone();
    let pixels = eight_bit(&decoded.pixels, kind);
    let pixels = if (pixels.width(), pixels.height()) == (width, height) {
        pixels
    } else {
        Cow::Owned(resize(&pixels, width, height)?)
    };
    // A CMYK JPEG is decoded to RGB: its profile no longer fits.
    let icc = icc.filter(|p| !is_cmyk_profile(p));
    let bytes = match kind {
        Kind::Jpeg => jpeg(&pixels, jpeg_quality, dpi, icc.as_deref())?,
        Kind::Png => png(&pixels, dpi, icc.as_deref())?,
        Kind::WebP => webp(&pixels)?,
        Kind::Gif | Kind::Svg => {
            return Err(Error(format!("cannot make a {kind:?} image")));
        }
    };
    Ok(Made {
        bytes,
        kind,
        width,
        height,
    })
}

/// The image's pixels, turned as its EXIF says, and its colour profile.
fn decode(bytes: &[u8]) -> Result<(DynamicImage, Option<Vec<u8>>), Error> {
    let bad = |e: image::ImageError| Error(format!("cannot be decoded: {e}"));
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| Error(format!("cannot be read: {e}")))?;
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(bad)?;
    let icc = decoder
        .icc_profile()
        .ok()
        .flatten()
        .filter(|p| !p.is_empty());
    let orientation = decoder.orientation().ok();
    let mut pixels = DynamicImage::from_decoder(decoder).map_err(bad)?;
    if let Some(o) = orientation {
        pixels.apply_orientation(o);
    }
    Ok((pixels, icc))
}

/// The pixels in 8 bits a channel, as the kind made takes them: JPEG has
/// no transparency. Borrowed when they already are.
fn eight_bit(pixels: &DynamicImage, kind: Kind) -> Cow<'_, DynamicImage> {
    let alpha = pixels.color().has_alpha() && kind != Kind::Jpeg;
    let grey = matches!(
        pixels,
        DynamicImage::ImageLuma8(_)
            | DynamicImage::ImageLumaA8(_)
            | DynamicImage::ImageLuma16(_)
            | DynamicImage::ImageLumaA16(_)
    );
    match (grey, alpha, pixels) {
        (true, false, DynamicImage::ImageLuma8(_))
        | (true, true, DynamicImage::ImageLumaA8(_))
        | (false, false, DynamicImage::ImageRgb8(_))
        | (false, true, DynamicImage::ImageRgba8(_)) => Cow::Borrowed(pixels),
        (true, false, _) => Cow::Owned(DynamicImage::ImageLuma8(pixels.to_luma8())),
        (true, true, _) => Cow::Owned(DynamicImage::ImageLumaA8(pixels.to_luma_alpha8())),
        (false, false, _) => Cow::Owned(DynamicImage::ImageRgb8(pixels.to_rgb8())),
        (false, true, _) => Cow::Owned(DynamicImage::ImageRgba8(pixels.to_rgba8())),
    }
}

/// Scaled to `width` × `height` (Lanczos3; transparency weighs colour).
fn resize(pixels: &DynamicImage, width: u32, height: u32) -> Result<DynamicImage, Error> {
    let pixel_type = pixels
        .pixel_type()
        .ok_or_else(|| Error("has pixels of a kind that cannot be scaled".into()))?;
    let mut out = Image::new(width, height, pixel_type);
    Resizer::new()
        .resize(pixels, &mut out, None)
        .map_err(|e| Error(format!("cannot be scaled: {e}")))?;
    let buffer = out.into_vec();
    let made = match pixels {
        DynamicImage::ImageLuma8(_) => {
            image::GrayImage::from_raw(width, height, buffer).map(DynamicImage::ImageLuma8)
        }
        DynamicImage::ImageLumaA8(_) => {
            image::GrayAlphaImage::from_raw(width, height, buffer).map(DynamicImage::ImageLumaA8)
        }
        DynamicImage::ImageRgba8(_) => {
            image::RgbaImage::from_raw(width, height, buffer).map(DynamicImage::ImageRgba8)
        }
        _ => image::RgbImage::from_raw(width, height, buffer).map(DynamicImage::ImageRgb8),
    };
    made.ok_or_else(|| Error("scaled to a buffer of the wrong size".into()))
}

fn jpeg(
    pixels: &DynamicImage,
    quality: u8,
    dpi: Option<u16>,
    icc: Option<&[u8]>,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let mut encoder =
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100));
    if let Some(d) = dpi {
        encoder.set_pixel_density(image::codecs::jpeg::PixelDensity::dpi(d));
    }
    if let Some(icc) = icc {
        // A profile the encoder cannot write is left out, not an error.
        let _ = encoder.set_icc_profile(icc.to_vec());
    }
    encoder
        .write_image(
            pixels.as_bytes(),
            pixels.width(),
            pixels.height(),
            pixels.color().into(),
        )
        .map_err(|e| Error(format!("cannot be written as JPEG: {e}")))?;
    Ok(out)
}

/// WebP, lossless (the one kind `image` writes): a WebP scaled for a book
/// that keeps WebP (`[images] epub-webp`), under the name it had.
fn webp(pixels: &DynamicImage) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut out)
        .write_image(
            pixels.as_bytes(),
            pixels.width(),
            pixels.height(),
            pixels.color().into(),
        )
        .map_err(|e| Error(format!("cannot be written as WebP: {e}")))?;
    Ok(out)
}

/// PNG: indexed when the image has 256 colours or fewer (a screenshot, a
/// chart), which is lossless and several times smaller; else as it is.
fn png(pixels: &DynamicImage, dpi: Option<u16>, icc: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    let rgba = pixels.to_rgba8();
    let (width, height) = (pixels.width(), pixels.height());
    let mut info = png::Info::with_size(width, height);
    if let Some(d) = dpi {
        // Pixels per metre, as PNG says density.
        let ppm = (f64::from(d) / 0.0254).round() as u32;
        info.pixel_dims = Some(png::PixelDimensions {
            xppu: ppm,
            yppu: ppm,
            unit: png::Unit::Meter,
        });
    }
    info.icc_profile = icc.map(|p| Cow::Owned(p.to_vec()));
    let mut out = Vec::new();
    let write = |info: png::Info,
                 data: &[u8],
                 palette: Option<(Vec<u8>, Vec<u8>)>,
                 color,
                 out: &mut Vec<u8>| {
        let mut encoder = png::Encoder::with_info(&mut *out, info)?;
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        // Balanced, not High: a third of the time for files about 7 % larger.
        encoder.set_compression(png::Compression::Balanced);
        if let Some((palette, trns)) = palette {
            encoder.set_palette(palette);
            if !trns.is_empty() {
                encoder.set_trns(trns);
            }
        }
        let mut writer = encoder.write_header()?;
        writer.write_image_data(data)?;
        writer.finish()
    };
    let result = match palette_of(&rgba) {
        Some((palette, trns, indices)) => write(
            info,
            &indices,
            Some((palette, trns)),
            png::ColorType::Indexed,
            &mut out,
        ),
        None => {
            let (color, data): (png::ColorType, Cow<[u8]>) = match pixels {
                DynamicImage::ImageLuma8(p) => {
                    (png::ColorType::Grayscale, Cow::Borrowed(p.as_raw()))
                }
                DynamicImage::ImageLumaA8(p) => {
                    (png::ColorType::GrayscaleAlpha, Cow::Borrowed(p.as_raw()))
                }
                DynamicImage::ImageRgb8(p) => (png::ColorType::Rgb, Cow::Borrowed(p.as_raw())),
                _ => (png::ColorType::Rgba, Cow::Owned(rgba.into_raw())),
            };
            write(info, &data, None, color, &mut out)
        }
    };
    result.map_err(|e| Error(format!("cannot be written as PNG: {e}")))?;
    Ok(out)
}

/// The image's colours when there are 256 or fewer: the palette (RGB),
/// the alpha of each entry (empty when all are opaque) and each pixel's
/// index. Deterministic: colours in the order they first appear.
fn palette_of(rgba: &image::RgbaImage) -> Option<(Vec<u8>, Vec<u8>, Vec<u8>)> {
    let mut colours: std::collections::HashMap<[u8; 4], u8> = std::collections::HashMap::new();
    let mut order: Vec<[u8; 4]> = Vec::new();
    let mut indices = Vec::with_capacity(rgba.as_raw().len() / 4);
    for p in rgba.pixels() {
        let index = match colours.get(&p.0) {
            Some(i) => *i,
            None => {
                if order.len() == 256 {
                    return None;
                }
                let i = order.len() as u8;
                colours.insert(p.0, i);
                order.push(p.0);
                i
            }
        };
        indices.push(index);
    }
    let palette = order.iter().flat_map(|c| [c[0], c[1], c[2]]).collect();
    let trns = if order.iter().all(|c| c[3] == 255) {
        Vec::new()
    } else {
        order.iter().map(|c| c[3]).collect()
    };
    Some((palette, trns, indices))
}

/// Whether an ICC profile describes CMYK (its colour space, bytes 16–19).
fn is_cmyk_profile(profile: &[u8]) -> bool {
    profile.get(16..20) == Some(b"CMYK")
}
