//! Images made for each output: each read once (its size from the header
//! first), scaled to the size it is shown at, in a format its readers take.
//!
//! [`probe`] reads what an image's header says; [`plan`] decides, for one
//! output's [`Target`], whether the file can go as it is or must be made
//! again (smaller, or in another format); [`make`] decodes it, scales it
//! and encodes the result. A file that is already right is never touched,
//! so a book whose images are within every limit is byte-identical to one
//! built without this step.

mod density;
mod encode;
mod wrap;

use std::io::Cursor;

pub use encode::{Decoded, Made};
pub use wrap::{in_svg, in_svg_as};

/// The kinds of image a book holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// JPEG: photographs.
    Jpeg,
    /// PNG: flat graphics, screenshots, transparency.
    Png,
    /// GIF, perhaps animated.
    Gif,
    /// WebP, lossy or lossless.
    WebP,
    /// SVG: drawings.
    Svg,
}

impl Kind {
    /// Its media type.
    pub fn media_type(self) -> &'static str {
        match self {
            Kind::Jpeg => "image/jpeg",
            Kind::Png => "image/png",
            Kind::Gif => "image/gif",
            Kind::WebP => "image/webp",
            Kind::Svg => "image/svg+xml",
        }
    }

    /// The extension of a file of this kind.
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Jpeg => "jpg",
            Kind::Png => "png",
            Kind::Gif => "gif",
            Kind::WebP => "webp",
            Kind::Svg => "svg",
        }
    }

    /// The kind a media type names.
    pub fn of_media_type(media_type: &str) -> Option<Kind> {
        [Kind::Jpeg, Kind::Png, Kind::Gif, Kind::WebP, Kind::Svg]
            .into_iter()
            .find(|k| k.media_type() == media_type)
    }
}

/// What an image's header says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// Its kind, by its content.
    pub kind: Kind,
    /// Its width in pixels as stored (before any EXIF rotation).
    pub width: u32,
    /// Its height in pixels as stored.
    pub height: u32,
    /// Whether it has an alpha channel.
    pub alpha: bool,
    /// A WebP compressed with loss (a photograph), not losslessly.
    pub lossy: bool,
    /// Its EXIF orientation, 1 to 8 (1: as stored; 5 to 8 turn it a
    /// quarter, so that width and height swap when shown).
    pub orientation: u8,
    /// The pixel density it says it has (EXIF, JFIF or PNG's pHYs), as
    /// Typst reads it: what sets its natural size on a page.
    pub dpi: Option<f64>,
}

impl Probe {
    /// Its size in pixels as shown (after the EXIF rotation).
    pub fn shown(&self) -> (u32, u32) {
        if self.orientation >= 5 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }

    /// Its pixel count.
    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }
}

/// Reads an image's header (nothing is decoded); `None` for bytes that are
/// no image of a kind a book holds. An SVG is told by its text.
pub fn probe(bytes: &[u8]) -> Option<Probe> {
    if looks_like_svg(bytes) {
        return Some(Probe {
            kind: Kind::Svg,
            width: 0,
            height: 0,
            alpha: true,
            lossy: false,
            orientation: 1,
            dpi: None,
        });
    }
    let reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    let kind = match reader.format()? {
        image::ImageFormat::Jpeg => Kind::Jpeg,
        image::ImageFormat::Png => Kind::Png,
        image::ImageFormat::Gif => Kind::Gif,
        image::ImageFormat::WebP => Kind::WebP,
        _ => return None,
    };
    let mut decoder = reader.into_decoder().ok()?;
    use image::ImageDecoder;
    let (width, height) = decoder.dimensions();
    let alpha = decoder.color_type().has_alpha();
    let orientation = decoder.orientation().map_or(1, |o| o.to_exif());
    Some(Probe {
        kind,
        width,
        height,
        alpha,
        lossy: kind == Kind::WebP && webp_is_lossy(bytes),
        orientation,
        dpi: density::dpi(bytes),
    })
}

fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with("<svg") || (text.starts_with("<?xml") && text.contains("<svg"))
}

/// Whether a WebP file is compressed with loss: its first image chunk is
/// `VP8 ` (lossy) rather than `VP8L` (lossless), past an extended header.
fn webp_is_lossy(bytes: &[u8]) -> bool {
    let mut at = 12;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let (name, size) = chunk.split_at(4);
        let size = u32::from_le_bytes([size[0], size[1], size[2], size[3]]) as usize;
        match name {
            b"VP8 " => return true,
            b"VP8L" => return false,
            _ => at += 8 + size + (size & 1),
        }
    }
    false
}

/// The kind an image of `probe` is given to an output: WebP as JPEG (a
/// photograph) or PNG (lossless, or with transparency) unless the output
/// keeps WebP; every other kind as it is.
pub fn delivered(probe: &Probe, keep_webp: bool) -> Kind {
    match probe.kind {
        Kind::WebP if keep_webp => Kind::WebP,
        Kind::WebP if probe.lossy && !probe.alpha => Kind::Jpeg,
        Kind::WebP => Kind::Png,
        other => other,
    }
}

/// Where an image is placed on a page: what sets how many pixels it needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The widest it can be placed: the text's measure, in inches.
    pub measure_in: f64,
    /// The density wanted at the placed size, pixels per inch.
    pub ppi: f64,
}

/// What one output takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    /// The longest side, in pixels.
    pub max_side: Option<u32>,
    /// The most pixels.
    pub max_pixels: Option<u64>,
    /// Where the image is placed on a page (PDF).
    pub placement: Option<Placement>,
    /// WebP is given as it is (the output's readers all read it).
    pub keep_webp: bool,
    /// The quality of a JPEG made (1–100).
    pub jpeg_quality: u8,
    /// A second, smaller copy of at most this long side, for a web page's
    /// `srcset` (made by the caller with [`Target::smaller`]).
    pub srcset_side: Option<u32>,
}

impl Target {
    /// The target of the smaller copy for `srcset`, when there is one.
    pub fn smaller(&self) -> Option<Target> {
        let side = self.srcset_side?;
        Some(Target {
            max_side: Some(self.max_side.map_or(side, |s| s.min(side))),
            srcset_side: None,
            ..*self
        })
    }
}

/// What to do with one image for one output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Plan {
    /// The file as it is.
    Keep,
    /// Made again at `width` × `height` (as shown), as `kind`, saying it
    /// has `dpi` pixels per inch when that keeps its natural size.
    Make {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// The kind made.
        kind: Kind,
        /// The density written into the file, if any.
        dpi: Option<u16>,
    },
}

/// The natural density of an image without one: Typst's.
const DEFAULT_DPI: f64 = 72.0;

/// What `target` asks of an image of `probe`.
pub fn plan(probe: &Probe, target: &Target) -> Plan {
    if matches!(probe.kind, Kind::Svg | Kind::Gif) {
        // Drawings scale; a GIF may be animated, and is small.
        return Plan::Keep;
    }
    let kind = delivered(probe, target.keep_webp);
    let (w, h) = probe.shown();
    let (wf, hf) = (f64::from(w.max(1)), f64::from(h.max(1)));
    let mut scale: f64 = 1.0;
    if let Some(side) = target.max_side {
        scale = scale.min(f64::from(side) / wf.max(hf));
    }
    if let Some(pixels) = target.max_pixels {
        scale = scale.min((pixels as f64 / (wf * hf)).sqrt());
    }
    // On a page: an image is shown at its natural size (its pixels over
    // its density), shrunk to the measure.
    let mut dpi = None;
    if let Some(place) = target.placement {
        let natural_in = wf / probe.dpi.unwrap_or(DEFAULT_DPI);
        let placed_in = natural_in.min(place.measure_in);
        scale = scale.min(placed_in * place.ppi / wf);
        if natural_in < place.measure_in && scale < 1.0 {
            // Smaller than the measure: the new file must say the density
            // that keeps its natural size, or the page would change.
            dpi = Some(place.ppi.round().clamp(1.0, f64::from(u16::MAX)) as u16);
        }
    }
    let shrinks = scale < 1.0 && (wf * scale).round() < wf;
    if !shrinks && kind == probe.kind {
        return Plan::Keep;
    }
    let scale = scale.min(1.0);
    let (width, height) = match dpi {
        // Exactly the natural size at that density.
        Some(d) => {
            let natural = f64::from(d) / probe.dpi.unwrap_or(DEFAULT_DPI);
            (
                (wf * natural).round().max(1.0) as u32,
                (hf * natural).round().max(1.0) as u32,
            )
        }
        None => (
            (wf * scale).round().max(1.0) as u32,
            (hf * scale).round().max(1.0) as u32,
        ),
    };
    Plan::Make {
        width,
        height,
        kind,
        dpi,
    }
}

/// Why an image could not be made.
#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Makes the image `bytes` as `plan` says: decoded,
/// turned as its EXIF says, scaled, encoded. `None` for [`Plan::Keep`].
pub fn make(bytes: &[u8], plan: &Plan, jpeg_quality: u8) -> Result<Option<Made>, Error> {
    if *plan == Plan::Keep {
        return Ok(None);
    }
    make_from(&Decoded::of(bytes)?, plan, jpeg_quality)
}

/// [`make`] from an image already decoded: several files made of one
/// image decode it once.
pub fn make_from(decoded: &Decoded, plan: &Plan, jpeg_quality: u8) -> Result<Option<Made>, Error> {
    let Plan::Make {
        width,
        height,
        kind,
        dpi,
    } = *plan
    else {
        return Ok(None);
    };
    encode::make(decoded, (width, height), kind, dpi, jpeg_quality).map(Some)
}

#[cfg(test)]
mod tests;
