//! Images are checked once, where posts are read, so every format gets the
//! same verdict at the post's line: a regular file of a sane size, whose
//! content is the format its name says, whose header is within the pixel
//! limit and which decodes to the end; an SVG holds no script, no event
//! handler and no reference to anything outside itself.

use crate::limits::{MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, read_bounded, regular_file};
use std::io::Cursor;
use std::path::Path;

/// What is wrong with an image: the message (after the image's name) and
/// what to do.
pub type Problem = (String, String);

/// The media type an image's name says it has (by its extension), `None`
/// for a kind of image that no format takes.
pub(crate) fn media_type(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?;
    stoa_mime::media_type(ext).filter(|kind| IMAGE_TYPES.contains(kind))
}

/// The kinds of image every format takes (an icon is the web's alone).
const IMAGE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/svg+xml",
];

/// Whether the GIF `bytes` is animated (has a second frame).
pub(crate) fn is_animated_gif(bytes: &[u8]) -> bool {
    use image::AnimationDecoder;
    image::codecs::gif::GifDecoder::new(Cursor::new(bytes))
        .map(|d| d.into_frames().take(2).filter(Result::is_ok).count() == 2)
        .unwrap_or(false)
}

/// Checks the image at `path`, whose name says it is `media_type`.
pub fn check(path: &Path, media_type: &str) -> Result<(), Problem> {
    check_bytes(path, media_type).map(drop)
}

/// [`check`], giving the bytes read.
pub(crate) fn check_bytes(path: &Path, media_type: &str) -> Result<Vec<u8>, Problem> {
    regular_file(path, MAX_IMAGE_BYTES).map_err(|why| {
        (
            why,
            format!(
                "use a regular image file of at most {} MiB",
                MAX_IMAGE_BYTES / (1024 * 1024)
            ),
        )
    })?;
    let bytes = read_bounded(path, MAX_IMAGE_BYTES)
        .map_err(|e| (format!("cannot be read: {e}"), "check the file".to_string()))?;
    if bytes.is_empty() {
        return Err(("is empty".into(), "export the image again".into()));
    }
    if media_type == "image/svg+xml" {
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            (
                "is not a text SVG (not UTF-8)".to_string(),
                "export it again as plain SVG".to_string(),
            )
        })?;
        check_svg(text)?;
        return Ok(bytes);
    }
    check_raster(&bytes, media_type)?;
    Ok(bytes)
}

/// What was learnt of images' bytes by decoding them, by content (see
/// [`content_key`]): an image shown in two languages' editions, or a book
/// built again by `stoa watch`, is decoded once (a decode is a tenth of a
/// second for a large photograph, and a blog has hundreds). The images
/// that decoded whole are kept between builds too (see [`decoded_images`]).
#[derive(Default)]
struct Decodes {
    verdicts: std::collections::HashMap<String, Result<(), Problem>>,
    /// The contents asked about by this process.
    asked: std::collections::BTreeSet<String>,
}

fn decodes() -> std::sync::MutexGuard<'static, Decodes> {
    static DECODES: std::sync::OnceLock<std::sync::Mutex<Decodes>> = std::sync::OnceLock::new();
    let decodes = DECODES.get_or_init(Default::default);
    decodes.lock().unwrap_or_else(|e| e.into_inner())
}

/// A name for the content `bytes`: two 64-bit hashes and the length.
fn content_key(bytes: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let hash = |seed: u8| {
        let mut h = std::hash::DefaultHasher::new();
        (seed, bytes).hash(&mut h);
        h.finish()
    };
    format!("{:016x}{:016x}-{}", hash(0), hash(1), bytes.len())
}

/// The contents (see [`content_key`]) of the images this process decoded
/// whole, or was told had been: for the build cache to keep.
pub fn decoded_images() -> Vec<String> {
    let decodes = decodes();
    decodes
        .asked
        .iter()
        .filter(|key| matches!(decodes.verdicts.get(*key), Some(Ok(()))))
        .cloned()
        .collect()
}

/// Takes `keys` (from [`decoded_images`] of an earlier build) as images
/// that decode whole: they are not decoded again. Only the decoding is
/// skipped; an image's kind and size are checked every time.
pub fn remember_decoded(keys: impl IntoIterator<Item = String>) {
    let mut decodes = decodes();
    for key in keys {
        decodes.verdicts.entry(key).or_insert(Ok(()));
    }
}

/// Whether `reader`'s image decodes to the end, remembered by content.
fn decodes_whole(bytes: &[u8], reader: image::ImageReader<Cursor<&[u8]>>) -> Result<(), Problem> {
    let key = content_key(bytes);
    let known = {
        let mut decodes = decodes();
        decodes.asked.insert(key.clone());
        decodes.verdicts.get(&key).cloned()
    };
    if let Some(verdict) = known {
        return verdict;
    }
    let verdict = decode(reader);
    decodes().verdicts.insert(key, verdict.clone());
    verdict
}

fn check_raster(bytes: &[u8], media_type: &str) -> Result<(), Problem> {
    let reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| (format!("cannot be read: {e}"), String::new()))?;
    let Some(format) = reader.format() else {
        return Err((
            format!(
                "is not an image: its content is not {}",
                name_of(media_type)
            ),
            "export the image again, or check that the right file has this name".into(),
        ));
    };
    let actual = format.to_mime_type();
    if actual != media_type {
        return Err((
            format!(
                "is {} but its name says {}",
                name_of(actual),
                name_of(media_type)
            ),
            format!(
                "rename it to end in .{}",
                format.extensions_str().first().copied().unwrap_or("?")
            ),
        ));
    }
    // The header alone says how large the image is: refuse a huge one
    // before anything is decoded.
    let size = imagesize::blob_size(bytes).map_err(|e| {
        (
            format!("is damaged or truncated: {e}"),
            "export the image again".to_string(),
        )
    })?;
    let (width, height) = (size.width as u64, size.height as u64);
    let pixels = width.saturating_mul(height);
    if pixels > MAX_IMAGE_PIXELS {
        return Err((
            format!(
                "is {width} × {height} pixels, more than the {} megapixels allowed",
                MAX_IMAGE_PIXELS / 1_000_000
            ),
            "scale it down: 2,000 pixels across are plenty for a page".into(),
        ));
    }
    decodes_whole(bytes, reader)
}

#[cfg(test)]
thread_local! {
    /// How many images [`decode`] decoded on this thread, for the tests.
    static DECODED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Decodes the image of `reader` to the end, within the pixel limit.
fn decode(mut reader: image::ImageReader<Cursor<&[u8]>>) -> Result<(), Problem> {
    #[cfg(test)]
    DECODED.set(DECODED.get() + 1);
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_IMAGE_PIXELS * 8);
    reader.limits(limits);
    reader.decode().map(drop).map_err(|e| {
        (
            format!("is damaged or truncated: {e}"),
            "export the image again".to_string(),
        )
    })
}

fn name_of(media_type: &str) -> &'static str {
    match media_type {
        "image/png" => "a PNG image",
        "image/jpeg" => "a JPEG image",
        "image/gif" => "a GIF image",
        "image/webp" => "a WebP image",
        "image/svg+xml" => "an SVG image",
        _ => "an image of another format",
    }
}

/// Elements that run code or embed a document of another kind.
const ACTIVE_ELEMENTS: &[&str] = &[
    "script",
    "foreignObject",
    "iframe",
    "embed",
    "object",
    "handler",
    "listener",
];

fn check_svg(text: &str) -> Result<(), Problem> {
    let export = "remove it, or export the SVG again as plain SVG (an image in a book cannot run code or fetch anything)";
    // Entities are how XML bombs and external entities work; no drawing needs them.
    if text.contains("<!ENTITY") {
        return Err((
            "declares XML entities".into(),
            "remove the <!ENTITY …> declarations".into(),
        ));
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(|e| {
        (
            format!("is not well-formed XML: {e}"),
            "export the SVG again".to_string(),
        )
    })?;
    if doc.root_element().tag_name().name() != "svg" {
        return Err((
            "is not an SVG: its root element is not <svg>".into(),
            "check that the right file has this name".into(),
        ));
    }
    for node in doc.descendants().filter(|n| n.is_element()) {
        let line = doc.text_pos_at(node.range().start).row;
        let name = node.tag_name().name();
        if ACTIVE_ELEMENTS.contains(&name) {
            return Err((
                format!("has a <{name}> element (line {line} of the SVG)"),
                export.into(),
            ));
        }
        if name == "style"
            && let Some(reason) = external_in_css(&node_text(node))
        {
            return Err((
                format!("{reason} in a <style> element (line {line} of the SVG)"),
                export.into(),
            ));
        }
        for attr in node.attributes() {
            let key = attr.name();
            let value = attr.value();
            if key.len() > 2 && key[..2].eq_ignore_ascii_case("on") {
                return Err((
                    format!("has an event handler `{key}` (line {line} of the SVG)"),
                    export.into(),
                ));
            }
            if key == "href" && !local_reference(value) {
                return Err((
                    format!("refers to `{value:.60}` outside itself (line {line} of the SVG)"),
                    export.into(),
                ));
            }
            if let Some(reason) = external_in_css(value) {
                return Err((
                    format!("{reason} in `{key}` (line {line} of the SVG)"),
                    export.into(),
                ));
            }
        }
    }
    Ok(())
}

fn node_text(node: roxmltree::Node) -> String {
    node.descendants().filter_map(|n| n.text()).collect()
}

/// Whether an `href` stays inside the file: a fragment, or an image
/// embedded as data.
fn local_reference(value: &str) -> bool {
    let value = value.trim();
    value.starts_with('#')
        || ["png", "jpeg", "gif", "webp"]
            .iter()
            .any(|t| value.starts_with(&format!("data:image/{t}")))
}

/// Why CSS (a style sheet or an attribute) reaches outside the file, if it does.
fn external_in_css(css: &str) -> Option<&'static str> {
    let lower = css.to_ascii_lowercase();
    if lower.contains("@import") {
        return Some("imports a style sheet");
    }
    let mut rest = lower.as_str();
    while let Some(i) = rest.find("url(") {
        rest = &rest[i + 4..];
        let target = rest.trim_start().trim_start_matches(['"', '\'']);
        if !local_reference(target) {
            return Some("refers to a file or address outside itself");
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A blank PNG of `width` × `height` pixels.
    pub(crate) fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        image::RgbaImage::new(width, height)
            .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn an_image_is_decoded_once_however_often_it_is_checked() {
        // A size no other test uses: its verdict is this test's own.
        let bytes = png(37, 23);
        for name in ["a.png", "b.png", "a.png"] {
            assert_eq!(check_bytes(name, &bytes, "image/png"), Ok(()));
        }
        let mut broken = bytes.clone();
        broken.truncate(bytes.len() - 20);
        for _ in 0..2 {
            assert!(check_bytes("c.png", &broken, "image/png").is_err());
        }
        assert_eq!(DECODED.get(), 2, "each content decoded once");
        // Known from an earlier build: not decoded, but its header still
        // read (a name that lies is still found out).
        let other = png(41, 23);
        remember_decoded([content_key(&other)]);
        assert_eq!(check_bytes("d.png", &other, "image/png"), Ok(()));
        assert_eq!(DECODED.get(), 2);
        assert!(decoded_images().contains(&content_key(&other)));
        assert!(!decoded_images().contains(&content_key(&broken)));
        assert!(check_bytes("d.jpg", &other, "image/jpeg").is_err());
    }

    fn check_bytes(name: &str, bytes: &[u8], media_type: &str) -> Result<(), Problem> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        check(&path, media_type)
    }

    #[test]
    fn good_images_pass() {
        assert_eq!(check_bytes("a.png", &png(3, 2), "image/png"), Ok(()));
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="1" height="1"/><use xlink:href="#g"/></svg>"##;
        assert_eq!(
            check_bytes("a.svg", svg.as_bytes(), "image/svg+xml"),
            Ok(())
        );
    }

    #[test]
    fn bad_rasters_are_refused() {
        let good = png(16, 16);
        let cases: [(&[u8], &str, &str); 4] = [
            (b"just some text\n", "image/png", "not an image"),
            (b"", "image/png", "empty"),
            (&good[..good.len() / 2], "image/png", "damaged or truncated"),
            (
                &good,
                "image/jpeg",
                "is a PNG image but its name says a JPEG image",
            ),
        ];
        for (bytes, media_type, why) in cases {
            let (message, hint) = check_bytes("x", bytes, media_type).unwrap_err();
            assert!(message.contains(why), "{why}: {message}");
            assert!(!hint.is_empty());
        }
    }

    /// The CRC of a PNG chunk (type and data), bit by bit.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn a_huge_image_is_refused_from_its_header() {
        // A 40000 × 40000 PNG header, with no pixel data behind it: the
        // header alone must be enough to refuse it.
        let mut header = png(1, 1);
        header[16..20].copy_from_slice(&40_000u32.to_be_bytes());
        header[20..24].copy_from_slice(&40_000u32.to_be_bytes());
        let crc = crc32(&header[12..29]);
        header[29..33].copy_from_slice(&crc.to_be_bytes());
        let (message, _) = check_bytes("big.png", &header, "image/png").unwrap_err();
        assert!(message.contains("40000 × 40000"), "{message}");
    }

    #[test]
    fn active_or_external_svgs_are_refused() {
        let wrap = |inner: &str| {
            format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n{inner}\n</svg>"
            )
        };
        let cases = [
            (
                wrap("<script>alert(1)</script>"),
                "<script> element (line 2",
            ),
            (wrap("<rect onclick=\"x()\"/>"), "event handler `onclick`"),
            (
                wrap("<image href=\"http://evil/x.png\"/>"),
                "outside itself",
            ),
            (wrap("<use xlink:href=\"other.svg#a\"/>"), "outside itself"),
            (
                wrap("<rect style=\"fill:url(http://x/y)\"/>"),
                "outside itself",
            ),
            (
                wrap("<style>@import url(x.css);</style>"),
                "imports a style sheet",
            ),
            (
                wrap("<foreignObject><p>x</p></foreignObject>"),
                "<foreignObject>",
            ),
            (
                "<!DOCTYPE svg [<!ENTITY a \"b\">]><svg/>".to_string(),
                "entities",
            ),
            ("<html/>".to_string(), "root element"),
            ("<svg".to_string(), "not well-formed"),
        ];
        for (svg, why) in cases {
            let (message, _) = check_bytes("x.svg", svg.as_bytes(), "image/svg+xml").unwrap_err();
            assert!(message.contains(why), "{why}: {message}");
        }
    }
}
