//! A book's photographs written into its PDF from their files, never held
//! in memory together. Typst keeps every image it lays out until the PDF
//! is written, and the PDF itself is made in memory: a blog of a thousand
//! pictures needed gigabytes. So Typst is given, for each JPEG and PNG, a
//! stand-in of the same natural size (an SVG holding a 16 × 1 pixel PNG
//! that carries the image's number), and once the PDF is made each
//! stand-in's image object is replaced, in an incremental update appended
//! to the file (ISO 32000-1, 7.5.6), by the real image read from its file
//! while the PDF is written: a JPEG as it is (DCT), a PNG decoded and
//! deflated one at a time. The page draws the image object where it drew
//! the stand-in, over the same box, so nothing on the page moves.

use miniz_oxide::deflate::compress_to_vec_zlib;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use stoa_render::stoa_image::{self, Kind, Probe};
use stoa_render::{Body, Sink};

/// What every stand-in's pixels begin with; its number follows.
const MAGIC: &[u8; 8] = b"stoa\x00img";
/// A stand-in's width in pixels: the magic and the number, one byte each.
const WIDTH: u32 = 16;
/// Deflate level for a PNG's pixels: zlib's default.
const LEVEL: u8 = 6;

/// The images a PDF is given as stand-ins, by virtual path.
#[derive(Debug, Default)]
pub(crate) struct StandIns {
    /// Virtual path → the image's number.
    numbers: HashMap<String, usize>,
    /// By number: the image's file.
    files: Vec<PathBuf>,
}

impl StandIns {
    /// Stand-ins for the images `assets` maps (virtual path → file),
    /// numbered in the order of their paths.
    pub(crate) fn new(assets: &HashMap<String, PathBuf>) -> Arc<Self> {
        let mut paths: Vec<(&String, &PathBuf)> = assets.iter().collect();
        paths.sort();
        Arc::new(StandIns {
            numbers: paths
                .iter()
                .enumerate()
                .map(|(n, (vpath, _))| ((*vpath).clone(), n))
                .collect(),
            files: paths.into_iter().map(|(_, file)| file.clone()).collect(),
        })
    }

    /// The SVG Typst is given for the image at `vpath` whose file holds
    /// `bytes`; `None` for an image given as it is (not a JPEG or PNG this
    /// module can write, or not one of the stand-ins).
    pub(crate) fn svg(&self, vpath: &str, bytes: &[u8]) -> Option<Vec<u8>> {
        let number = *self.numbers.get(vpath)?;
        let probe = stoa_image::probe(bytes)?;
        let gray = Colour::of(bytes, &probe)?.gray();
        // The image's colour profile travels with its stand-in, so that
        // the PDF's image is described in the colours its pixels are in.
        let png = stand_in_png(number, gray, icc_profile(bytes, probe.kind).as_deref());
        stoa_image::in_svg_as(&probe, "image/png", &png)
    }
}

/// How much of an image's file is read for its stand-in: enough for the
/// header of nearly every photograph. Reading whole files of hundreds of
/// kilobytes while Typst lays a book out left the allocator's heap full
/// of holes: a third more memory for a blog of a thousand photographs.
const HEAD: usize = 64 * 1024;

impl StandIns {
    /// [`StandIns::svg`] for the image at `vpath` in the file `path`, of
    /// which only the header is read (the whole file when it is longer
    /// than [`HEAD`]); `None` for an image given as it is.
    pub(crate) fn svg_of_file(&self, vpath: &str, path: &Path) -> Option<Vec<u8>> {
        if !self.numbers.contains_key(vpath) {
            return None;
        }
        let head = head_of(path).ok()?;
        self.svg(vpath, &head)
    }
}

/// The bytes of the image at `path` up to its pixels, when those start
/// within the first [`HEAD`] bytes; else the whole file.
fn head_of(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(HEAD);
    std::fs::File::open(path)?
        .take(HEAD as u64)
        .read_to_end(&mut head)?;
    if head.len() < HEAD || header_complete(&head) {
        return Ok(head);
    }
    std::fs::read(path)
}

/// Whether `head` holds an image's whole header: a JPEG's segments up to
/// its scan, a PNG's chunks up to its first IDAT.
fn header_complete(head: &[u8]) -> bool {
    if head.starts_with(b"\x89PNG") {
        let mut at = 8;
        while at + 8 <= head.len() {
            if &head[at + 4..at + 8] == b"IDAT" {
                return true;
            }
            let len = u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
            at += 12 + len as usize;
        }
        return false;
    }
    jpeg_segments(head).any(|(marker, _)| marker == SOS)
}

/// The colours of an image this module writes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Colour {
    /// A JPEG of one (gray) or three (colour) components.
    Jpeg { components: u8 },
    /// A PNG; its pixels are decoded as it is written.
    Png { gray: bool },
}

impl Colour {
    fn of(bytes: &[u8], probe: &Probe) -> Option<Colour> {
        match probe.kind {
            Kind::Jpeg => match jpeg_components(bytes)? {
                components @ (1 | 3) => Some(Colour::Jpeg { components }),
                // CMYK needs its own colour space and inversion: given to
                // Typst as it is.
                _ => None,
            },
            Kind::Png => {
                let info = png::Decoder::new(io::Cursor::new(bytes)).read_info().ok()?;
                let gray = matches!(
                    info.info().color_type,
                    png::ColorType::Grayscale | png::ColorType::GrayscaleAlpha
                );
                Some(Colour::Png { gray })
            }
            _ => None,
        }
    }

    fn gray(self) -> bool {
        match self {
            Colour::Jpeg { components } => components == 1,
            Colour::Png { gray } => gray,
        }
    }
}

/// The number of components a baseline or progressive JPEG has, from its
/// frame header.
fn jpeg_components(bytes: &[u8]) -> Option<u8> {
    // SOF0–SOF15, but DHT (C4), JPG (C8) and DAC (CC); its body: the
    // precision, the height, the width, then the number of components.
    let is_frame = |m: u8| (0xC0..=0xCF).contains(&m) && ![0xC4, 0xC8, 0xCC].contains(&m);
    jpeg_segments(bytes)
        .find(|&(marker, _)| is_frame(marker))
        .and_then(|(_, body)| body.get(5).copied())
}

/// The start of a JPEG's scan: its pixels follow.
const SOS: u8 = 0xDA;

/// A JPEG's segments up to its scan, as (marker, body); the scan's marker
/// last, with no body. It stops early at bytes that are not a segment.
fn jpeg_segments(bytes: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut at = 2;
    std::iter::from_fn(move || {
        // Fill bytes (0xFF) may stand before a marker.
        while bytes.get(at..at + 2) == Some(&[0xFF, 0xFF]) {
            at += 1;
        }
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        if marker == SOS {
            at = bytes.len();
            return Some((SOS, &bytes[..0]));
        }
        let len = usize::from(u16::from_be_bytes([
            *bytes.get(at + 2)?,
            *bytes.get(at + 3)?,
        ]));
        let body = bytes.get(at + 4..at + 2 + len)?;
        at += 2 + len;
        Some((marker, body))
    })
}

/// The colour profile embedded in a JPEG (its APP2 `ICC_PROFILE`
/// segments, in order) or a PNG (`iCCP`).
fn icc_profile(bytes: &[u8], kind: Kind) -> Option<Vec<u8>> {
    if kind == Kind::Png {
        let reader = png::Decoder::new(io::Cursor::new(bytes)).read_info().ok()?;
        return reader.info().icc_profile.as_ref().map(|p| p.to_vec());
    }
    // APP2 segments: `ICC_PROFILE\0`, the part's number, the count, the part.
    let mut parts: Vec<(u8, &[u8])> = jpeg_segments(bytes)
        .filter(|(marker, body)| *marker == 0xE2 && body.len() > 14)
        .filter(|(_, body)| body.starts_with(b"ICC_PROFILE\0"))
        .map(|(_, body)| (body[12], &body[14..]))
        .collect();
    parts.sort_by_key(|(seq, _)| *seq);
    (!parts.is_empty()).then(|| parts.into_iter().flat_map(|(_, p)| p.to_vec()).collect())
}

/// The stand-in for image `number`: 16 pixels wide, one high, gray or
/// RGB as the image is, with its colour profile, whose first 16 bytes of
/// pixels are the magic and the number (each byte once per channel in
/// RGB: every channel holds it).
fn stand_in_png(number: usize, gray: bool, icc: Option<&[u8]>) -> Vec<u8> {
    let mut marker = MAGIC.to_vec();
    marker.extend_from_slice(&(number as u64).to_be_bytes());
    let pixels: Vec<u8> = match gray {
        true => marker,
        false => marker.iter().flat_map(|&b| [b, b, b]).collect(),
    };
    let mut out = Vec::new();
    let mut info = png::Info::with_size(WIDTH, 1);
    info.color_type = match gray {
        true => png::ColorType::Grayscale,
        false => png::ColorType::Rgb,
    };
    info.bit_depth = png::BitDepth::Eight;
    info.icc_profile = icc.map(std::borrow::Cow::Borrowed);
    let encoder = png::Encoder::with_info(&mut out, info).expect("a valid header");
    let mut writer = encoder.write_header().expect("a PNG in memory");
    writer.write_image_data(&pixels).expect("a PNG in memory");
    writer.finish().expect("a PNG in memory");
    out
}

/// The number a stand-in's decoded pixels carry (gray, or RGB with each
/// byte thrice).
fn number_in(pixels: &[u8]) -> Option<usize> {
    let gray = pixels.get(..16)?;
    let rgb: Option<Vec<u8>> = pixels
        .get(..48)
        .map(|p| p.chunks_exact(3).map(|c| c[0]).collect());
    let marker = match gray.starts_with(MAGIC) {
        true => gray.to_vec(),
        false => rgb.filter(|m| m.starts_with(MAGIC))?,
    };
    let number = u64::from_be_bytes(marker[8..16].try_into().ok()?);
    usize::try_from(number).ok()
}

/// The PDF Typst wrote with its stand-ins replaced: the bytes as they are
/// when it has none, else written with the images read from their files.
pub(crate) fn streamed(pdf: Vec<u8>, stand_ins: Option<&Arc<StandIns>>) -> io::Result<Body> {
    let Some(stand_ins) = stand_ins.filter(|s| !s.files.is_empty()) else {
        return Ok(Body::Bytes(pdf));
    };
    let file = Pdf::read(&pdf)?;
    let found = file.stand_ins(&pdf, stand_ins.files.len());
    if found.is_empty() {
        return Ok(Body::Bytes(pdf));
    }
    let stand_ins = Arc::clone(stand_ins);
    Ok(Body::Written(Box::new(move |to| {
        to.write_all(&pdf)?;
        let start = pdf.len() as u64;
        update(&file, &found, &stand_ins.files, start, to)
    })))
}

/// A stand-in's image object in the PDF.
#[derive(Debug)]
struct Found {
    /// Its object number.
    object: u32,
    /// The image it stands in for.
    number: usize,
    /// Its colour space, as the PDF writes it (`12 0 R`, `/DeviceGray`).
    colour_space: String,
}

/// What the update needs of the PDF Typst wrote: where its objects are,
/// and its trailer.
#[derive(Debug)]
struct Pdf {
    /// In-use object number → offset.
    offsets: Vec<(u32, usize)>,
    /// `/Size` of the trailer: the next free object number.
    size: u32,
    /// The trailer's entries kept in the update (`/Root`, `/Info`, `/ID`).
    kept: String,
    /// Where its cross-reference table starts.
    startxref: usize,
}

impl Pdf {
    /// Reads the cross-reference table of a PDF with one (as typst-pdf
    /// writes it: a table, no object streams).
    fn read(pdf: &[u8]) -> io::Result<Pdf> {
        let bad = |what: &str| io::Error::other(format!("the PDF Typst wrote {what}"));
        let tail = &pdf[pdf.len().saturating_sub(64)..];
        let at = find(tail, b"startxref").ok_or_else(|| bad("has no startxref"))?;
        let startxref: usize = std::str::from_utf8(&tail[at + 9..])
            .ok()
            .and_then(|t| t.split_whitespace().next()?.parse().ok())
            .ok_or_else(|| bad("has no table offset"))?;
        let table = pdf.get(startxref..).ok_or_else(|| bad("ends early"))?;
        if !table.starts_with(b"xref") {
            return Err(bad("has no cross-reference table"));
        }
        let end = find(table, b"trailer").ok_or_else(|| bad("has no trailer"))?;
        let text = std::str::from_utf8(&table[4..end]).map_err(|_| bad("has a bad table"))?;
        let mut offsets = Vec::new();
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        while let Some(header) = lines.next() {
            let mut parts = header.split_whitespace().map(str::parse::<u32>);
            let (Some(Ok(first)), Some(Ok(count))) = (parts.next(), parts.next()) else {
                return Err(bad("has a bad subsection"));
            };
            for n in first..first + count {
                let entry = lines.next().ok_or_else(|| bad("has a short table"))?;
                let mut fields = entry.split_whitespace();
                let offset = fields.next().and_then(|o| o.parse().ok());
                if let (Some(offset), Some("n")) = (offset, fields.nth(1)) {
                    offsets.push((n, offset));
                }
            }
        }
        let trailer = Dict::parse(&table[end + 7..]).ok_or_else(|| bad("has a bad trailer"))?;
        let size = trailer
            .get("Size")
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("has no /Size"))?;
        let kept = ["Root", "Info", "ID"]
            .iter()
            .filter_map(|k| trailer.get(k).map(|v| format!("/{k} {v}")))
            .collect::<Vec<_>>()
            .join("");
        Ok(Pdf {
            offsets,
            size,
            kept,
            startxref,
        })
    }

    /// The stand-ins among its image objects (numbers below `count`).
    fn stand_ins(&self, pdf: &[u8], count: usize) -> Vec<Found> {
        let mut found = Vec::new();
        for &(object, offset) in &self.offsets {
            let Some(rest) = pdf.get(offset..) else {
                continue;
            };
            let Some(open) = find(&rest[..rest.len().min(64)], b"<<") else {
                continue;
            };
            let Some(dict) = Dict::parse(&rest[open..]) else {
                continue;
            };
            let is_stand_in = dict.get("Subtype") == Some("/Image")
                && dict.get("Width") == Some("16")
                && dict.get("Height") == Some("1");
            if !is_stand_in {
                continue;
            }
            let Some(data) = dict.stream(&rest[open..]) else {
                continue;
            };
            let pixels = match dict.get("Filter") {
                Some("/FlateDecode") => miniz_oxide::inflate::decompress_to_vec_zlib(data).ok(),
                None => Some(data.to_vec()),
                _ => None,
            };
            let number = pixels.as_deref().and_then(number_in);
            if let (Some(number), Some(colour_space)) = (number, dict.get("ColorSpace"))
                && number < count
            {
                found.push(Found {
                    object,
                    number,
                    colour_space: colour_space.to_string(),
                });
            }
        }
        found
    }
}

/// A flat reading of a PDF dictionary: each key's value as written.
struct Dict {
    entries: Vec<(String, String)>,
    /// Where the dictionary ends, after `>>`.
    end: usize,
}

impl Dict {
    /// The dictionary at the start of `bytes` (`<<` first).
    fn parse(bytes: &[u8]) -> Option<Dict> {
        let start = find(&bytes[..bytes.len().min(16)], b"<<")? + 2;
        let mut at = start;
        let mut entries = Vec::new();
        loop {
            at = skip_space(bytes, at);
            if bytes.get(at..at + 2)? == b">>" {
                return Some(Dict {
                    entries,
                    end: at + 2,
                });
            }
            if bytes[at] != b'/' {
                return None;
            }
            let key_end = token_end(bytes, at + 1);
            let key = String::from_utf8_lossy(&bytes[at + 1..key_end]).into_owned();
            let value_start = skip_space(bytes, key_end);
            let value_end = value_end(bytes, value_start)?;
            let value = String::from_utf8_lossy(&bytes[value_start..value_end]);
            entries.push((key, value.trim().to_string()));
            at = value_end;
        }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The stream data after the dictionary in `bytes`, by its direct
    /// `/Length`.
    fn stream<'b>(&self, bytes: &'b [u8]) -> Option<&'b [u8]> {
        let length: usize = self.get("Length")?.parse().ok()?;
        let mut at = skip_space(bytes, self.end);
        if !bytes.get(at..)?.starts_with(b"stream") {
            return None;
        }
        at += 6;
        at += match bytes.get(at..at + 2)? {
            b"\r\n" => 2,
            [b'\n', _] => 1,
            _ => return None,
        };
        bytes.get(at..at + length)
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | b'\x0c' | b'\0')
}

fn is_delimiter(b: u8) -> bool {
    is_space(b) || b"()<>[]{}/%".contains(&b)
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && is_space(bytes[at]) {
        at += 1;
    }
    at
}

fn token_end(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && !is_delimiter(bytes[at]) {
        at += 1;
    }
    at
}

/// Where the value starting at `at` ends: a name, a number or a reference
/// (`12 0 R`), or a bracketed array, dictionary or string.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'[' | b'(' => balanced(bytes, at),
        b'<' if bytes.get(at + 1) == Some(&b'<') => Dict::parse(&bytes[at..]).map(|d| at + d.end),
        b'<' => Some(at + find(&bytes[at..], b">")? + 1),
        b'/' => Some(token_end(bytes, at + 1)),
        _ => {
            // A number, or a reference: `n g R`.
            let first = token_end(bytes, at);
            Some(reference_end(bytes, at, first).unwrap_or(first))
        }
    }
}

/// Where the reference `n g R` starting at `at` ends, its first number
/// ending at `first`; `None` when the value is a number alone.
fn reference_end(bytes: &[u8], at: usize, first: usize) -> Option<usize> {
    let digits = |s: usize, e: usize| e > s && bytes[s..e].iter().all(u8::is_ascii_digit);
    let g_start = skip_space(bytes, first);
    let g_end = token_end(bytes, g_start);
    let r_start = skip_space(bytes, g_end);
    (digits(at, first) && digits(g_start, g_end) && bytes.get(r_start) == Some(&b'R'))
        .then_some(r_start + 1)
}

/// The end of the array or string opening at `at` (nesting counted, a
/// string's escapes skipped).
fn balanced(bytes: &[u8], at: usize) -> Option<usize> {
    let (open, close) = match bytes[at] {
        b'[' => (b'[', b']'),
        _ => (b'(', b')'),
    };
    let mut depth = 0usize;
    let mut i = at;
    while i < bytes.len() {
        let b = bytes[i];
        if open == b'(' && b == b'\\' {
            i += 2;
            continue;
        }
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Appends the update: each stand-in's object written again as its image
/// (and a soft mask for a PNG's transparency, as a new object), then the
/// update's table and trailer. `start` is where the update begins.
fn update(
    pdf: &Pdf,
    found: &[Found],
    files: &[PathBuf],
    start: u64,
    to: &mut dyn Sink,
) -> io::Result<()> {
    let mut out = Counting { to, at: start };
    let mut entries: Vec<(u32, u64)> = Vec::new();
    let mut next = pdf.size;
    for f in found {
        let path = &files[f.number];
        let image = Image::of(path).map_err(|e| cannot_read(path, e))?;
        let mask = image.mask.as_ref().map(|_| {
            next += 1;
            next - 1
        });
        entries.push((f.object, out.at));
        image.write_object(f.object, &f.colour_space, mask, path, &mut out)?;
        if let (Some(object), Some(alpha)) = (mask, &image.mask) {
            entries.push((object, out.at));
            write!(
                out,
                "{object} 0 obj\n<</Type/XObject/Subtype/Image/Width {}/Height {}/ColorSpace/DeviceGray/BitsPerComponent 8/Filter/FlateDecode/Length {}>>\nstream\n",
                image.width,
                image.height,
                alpha.len()
            )?;
            out.write_all(alpha)?;
            out.write_all(b"\nendstream\nendobj\n")?;
        }
    }
    entries.sort();
    let table = out.at;
    out.write_all(b"xref\n")?;
    // One subsection per run of consecutive numbers.
    let mut i = 0;
    while i < entries.len() {
        let mut j = i + 1;
        while j < entries.len() && entries[j].0 == entries[j - 1].0 + 1 {
            j += 1;
        }
        writeln!(out, "{} {}", entries[i].0, j - i)?;
        for &(_, offset) in &entries[i..j] {
            write!(out, "{offset:010} 00000 n\r\n")?;
        }
        i = j;
    }
    write!(
        out,
        "trailer\n<</Size {next}{}/Prev {}>>\nstartxref\n{table}\n%%EOF\n",
        pdf.kept, pdf.startxref
    )?;
    Ok(())
}

fn cannot_read(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("cannot read the image {}: {e}", path.display()),
    )
}

/// An image as the PDF holds it.
struct Image {
    width: u32,
    height: u32,
    /// `/DCTDecode` (the JPEG's bytes) or `/FlateDecode` (pixels).
    filter: &'static str,
    data: Data,
    /// A PNG's alpha, deflated, when any pixel is not opaque.
    mask: Option<Vec<u8>>,
    /// Bits per component (8 but for a PNG's palette of few colours).
    bits: u8,
    /// `/DecodeParms` for a PNG's own compressed rows (its filters are
    /// the PDF's PNG predictors).
    parms: Option<String>,
    /// A PNG's palette (RGB triples): the image's colour space is then an
    /// index into it, on the stand-in's.
    palette: Option<Vec<u8>>,
}

/// An image's stream data: made in memory (a PNG decoded), or pieces of
/// its file copied as they are, never read into memory whole (reading
/// files of hundreds of kilobytes one after the other raised glibc's
/// threshold for giving memory back, and the memory of the build with it).
enum Data {
    Made(Vec<u8>),
    /// (offset, length) in the image's file.
    Pieces(Vec<(u64, u64)>),
}

impl Data {
    fn len(&self) -> u64 {
        match self {
            Data::Made(bytes) => bytes.len() as u64,
            Data::Pieces(pieces) => pieces.iter().map(|(_, len)| len).sum(),
        }
    }

    fn write(&self, path: &Path, out: &mut dyn Write) -> io::Result<()> {
        use std::io::{Read, Seek};
        match self {
            Data::Made(bytes) => out.write_all(bytes),
            Data::Pieces(pieces) => {
                let mut file = std::fs::File::open(path)?;
                for &(offset, len) in pieces {
                    file.seek(io::SeekFrom::Start(offset))?;
                    let copied = io::copy(&mut (&mut file).take(len), out)?;
                    if copied != len {
                        return Err(io::Error::other("it is shorter than it was"));
                    }
                }
                Ok(())
            }
        }
    }
}

impl Image {
    fn of(path: &Path) -> io::Result<Image> {
        let bad = |what: &str| io::Error::other(format!("{what} (it changed during the build?)"));
        let head = head_of(path)?;
        let probe = stoa_image::probe(&head).ok_or_else(|| bad("cannot be read"))?;
        match probe.kind {
            Kind::Jpeg => Ok(Image {
                width: probe.width,
                height: probe.height,
                filter: "/DCTDecode",
                data: Data::Pieces(vec![(0, std::fs::metadata(path)?.len())]),
                mask: None,
                bits: 8,
                parms: None,
                palette: None,
            }),
            Kind::Png => match png_rows(&mut std::fs::File::open(path)?) {
                Some(image) => Ok(image),
                None => png_image(&std::fs::read(path)?)
                    .map_err(|e| bad(&format!("is not a PNG stoa can read: {e}"))),
            },
            _ => Err(bad("is no longer a JPEG or a PNG")),
        }
    }

    fn write_object(
        &self,
        object: u32,
        colour_space: &str,
        mask: Option<u32>,
        path: &Path,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mask = mask.map(|m| format!("/SMask {m} 0 R")).unwrap_or_default();
        let parms = self
            .parms
            .as_ref()
            .map(|p| format!("/DecodeParms{p}"))
            .unwrap_or_default();
        let colour_space = match &self.palette {
            Some(rgb) => {
                let hex: String = rgb.iter().map(|b| format!("{b:02X}")).collect();
                format!("[/Indexed {colour_space} {} <{hex}>]", rgb.len() / 3 - 1)
            }
            None => colour_space.to_string(),
        };
        write!(
            out,
            "{object} 0 obj\n<</Type/XObject/Subtype/Image/Width {}/Height {}/ColorSpace {colour_space}/BitsPerComponent {}/Filter{}{parms}{mask}/Length {}>>\nstream\n",
            self.width,
            self.height,
            self.bits,
            self.filter,
            self.data.len()
        )?;
        self.data.write(path, out)?;
        out.write_all(b"\nendstream\nendobj\n")
    }
}

/// A PNG whose compressed rows a PDF reads as they are (ISO 32000-1,
/// 7.4.4.4: the PNG predictors): not interlaced, without transparency, of
/// 8-bit gray or RGB or a palette; `None` for another, which is decoded.
/// Nothing is decoded or compressed again: the PNG's IDAT data is copied.
fn png_rows(file: &mut (impl io::Read + io::Seek)) -> Option<Image> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    let mut signature = [0; 8];
    file.read_exact(&mut signature).ok()?;
    if signature != SIGNATURE {
        return None;
    }
    let (mut header, mut palette, mut pieces) = (None, None, Vec::new());
    let mut at = SIGNATURE.len() as u64;
    loop {
        let mut chunk = [0; 8];
        file.read_exact(&mut chunk).ok()?;
        let len = u64::from(u32::from_be_bytes(chunk[..4].try_into().ok()?));
        let small = |file: &mut _| -> Option<Vec<u8>> {
            let mut body = vec![0; usize::try_from(len).ok()?.min(1 << 16)];
            io::Read::read_exact(file, &mut body).ok()?;
            Some(body)
        };
        match &chunk[4..] {
            b"IHDR" if len == 13 => header = Some(small(file)?),
            b"PLTE" if len <= 768 => palette = Some(small(file)?),
            // Transparency needs a soft mask: decoded.
            b"tRNS" => return None,
            b"IDAT" => pieces.push((at + 8, len)),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + len;
        file.seek(io::SeekFrom::Start(at)).ok()?;
    }
    let header = header?;
    let width = u32::from_be_bytes(header[0..4].try_into().ok()?);
    let height = u32::from_be_bytes(header[4..8].try_into().ok()?);
    let (depth, colour, interlace) = (header[8], header[9], header[12]);
    let colours = match (colour, depth) {
        (0, 8) => 1,
        (2, 8) => 3,
        (3, 1 | 2 | 4 | 8) => 1,
        _ => return None,
    };
    if interlace != 0 || pieces.is_empty() || (colour == 3) != palette.is_some() {
        return None;
    }
    Some(Image {
        width,
        height,
        filter: "/FlateDecode",
        data: Data::Pieces(pieces),
        mask: None,
        bits: depth,
        parms: Some(format!(
            "<</Predictor 15/Colors {colours}/BitsPerComponent {depth}/Columns {width}>>"
        )),
        palette: palette.filter(|_| colour == 3),
    })
}

/// A PNG's pixels as 8-bit gray or RGB, deflated, and its alpha apart.
fn png_image(bytes: &[u8]) -> Result<Image, png::DecodingError> {
    let mut decoder = png::Decoder::new(io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let frame = reader.next_frame(&mut buf)?;
    buf.truncate(frame.buffer_size());
    let channels = frame.color_type.samples();
    let (colour, alpha): (Vec<u8>, Option<Vec<u8>>) = match frame.color_type {
        png::ColorType::GrayscaleAlpha | png::ColorType::Rgba => {
            let colours = channels - 1;
            let mut colour = Vec::with_capacity(buf.len() / channels * colours);
            let mut alpha = Vec::with_capacity(buf.len() / channels);
            for px in buf.chunks_exact(channels) {
                colour.extend_from_slice(&px[..colours]);
                alpha.push(px[colours]);
            }
            let opaque = alpha.iter().all(|&a| a == u8::MAX);
            (colour, (!opaque).then_some(alpha))
        }
        _ => (buf, None),
    };
    Ok(Image {
        width: frame.width,
        height: frame.height,
        filter: "/FlateDecode",
        data: Data::Made(compress_to_vec_zlib(&colour, LEVEL)),
        mask: alpha.map(|a| compress_to_vec_zlib(&a, LEVEL)),
        bits: 8,
        parms: None,
        palette: None,
    })
}

/// A writer that knows how far it has written.
struct Counting<'a> {
    to: &'a mut dyn Sink,
    at: u64,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.to.write(buf)?;
        self.at += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.to.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG of `w` × `h` pixels of `colour` (RGBA: transparent where
    /// alpha is below 255).
    fn png_of(w: u32, h: u32, rgba: [u8; 4]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        let pixels: Vec<u8> = (0..w * h).flat_map(|_| rgba).collect();
        writer.write_image_data(&pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn a_stand_in_carries_its_number_in_gray_and_in_colour() {
        for gray in [true, false] {
            for number in [0, 7, 123_456] {
                let png = stand_in_png(number, gray, None);
                let mut reader = png::Decoder::new(io::Cursor::new(png)).read_info().unwrap();
                let mut buf = vec![0; reader.output_buffer_size().unwrap()];
                reader.next_frame(&mut buf).unwrap();
                assert_eq!(number_in(&buf), Some(number), "gray {gray}");
            }
        }
        assert_eq!(number_in(&[0; 48]), None);
    }

    #[test]
    fn a_jpegs_components_come_from_its_frame_header() {
        // SOI, an APP0 of 4 bytes, then SOF0 / SOF2 with 3 / 1 components.
        let jpeg = |sof: u8, n: u8| {
            vec![
                0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 1, 2, 0xFF, sof, 0, 8, 8, 0, 16, 0, 16, n,
            ]
        };
        assert_eq!(jpeg_components(&jpeg(0xC0, 3)), Some(3));
        assert_eq!(jpeg_components(&jpeg(0xC2, 1)), Some(1));
        // A Huffman table is no frame header.
        assert_eq!(jpeg_components(&jpeg(0xC4, 3)[..12]), None);
        assert_eq!(jpeg_components(b"not a jpeg"), None);
    }

    #[test]
    fn a_colour_profile_is_read_from_a_jpeg_and_travels_with_the_stand_in() {
        // Two APP2 segments given out of order, then the frame header.
        let app2 = |seq: u8, data: &[u8]| {
            let mut s = vec![0xFF, 0xE2];
            s.extend_from_slice(&((2 + 14 + data.len()) as u16).to_be_bytes());
            s.extend_from_slice(b"ICC_PROFILE\0");
            s.extend_from_slice(&[seq, 2]);
            s.extend_from_slice(data);
            s
        };
        let mut jpeg = vec![0xFF, 0xD8];
        jpeg.extend(app2(2, b"second"));
        jpeg.extend(app2(1, b"first-"));
        jpeg.extend([0xFF, 0xC0, 0, 8, 8, 0, 16, 0, 16, 3]);
        let icc = icc_profile(&jpeg, Kind::Jpeg).unwrap();
        assert_eq!(icc, b"first-second");
        assert_eq!(icc_profile(&jpeg[..2], Kind::Jpeg), None);
        let png = stand_in_png(3, false, Some(&icc));
        assert_eq!(icc_profile(&png, Kind::Png).unwrap(), icc);
        assert_eq!(icc_profile(&stand_in_png(3, false, None), Kind::Png), None);
    }

    /// A PNG of `w` × `h` pixels of colour type `colour` and `depth`, with
    /// `palette` and `trns` chunks when given.
    fn png_typed(
        (w, h): (u32, u32),
        colour: png::ColorType,
        depth: png::BitDepth,
        palette: Option<&[u8]>,
        trns: Option<&[u8]>,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(colour);
        encoder.set_depth(depth);
        if let Some(p) = palette {
            encoder.set_palette(p.to_vec());
        }
        if let Some(t) = trns {
            encoder.set_trns(t.to_vec());
        }
        let mut writer = encoder.write_header().unwrap();
        let row = (w as usize * colour.samples() * depth as usize).div_ceil(8);
        writer.write_image_data(&vec![1; row * h as usize]).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn a_pngs_own_rows_go_into_the_pdf_when_a_pdf_can_read_them() {
        use png::{BitDepth, ColorType};
        let palette = [0, 0, 0, 255, 255, 255];
        let indexed = png_typed(
            (9, 4),
            ColorType::Indexed,
            BitDepth::Two,
            Some(&palette),
            None,
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("indexed.png");
        std::fs::write(&file, &indexed).unwrap();
        let image = png_rows(&mut std::fs::File::open(&file).unwrap()).expect("an indexed PNG");
        assert_eq!((image.width, image.height, image.bits), (9, 4, 2));
        assert_eq!(image.palette.as_deref(), Some(palette.as_slice()));
        assert_eq!(
            image.parms.as_deref(),
            Some("<</Predictor 15/Colors 1/BitsPerComponent 2/Columns 9>>")
        );
        let mut written = Vec::new();
        image
            .write_object(5, "7 0 R", None, &file, &mut written)
            .unwrap();
        let object = &written["5 0 obj\n".len()..];
        let data = Dict::parse(object).unwrap().stream(object).unwrap();
        // Each row: its filter byte, then 9 pixels of 2 bits in 3 bytes.
        let rows = miniz_oxide::inflate::decompress_to_vec_zlib(data).unwrap();
        assert_eq!(rows.len(), 4 * (1 + 3));
        let text = String::from_utf8_lossy(&written);
        assert!(
            text.contains("/ColorSpace [/Indexed 7 0 R 1 <000000FFFFFF>]"),
            "{text}"
        );
        let rgb = png_typed((5, 5), ColorType::Rgb, BitDepth::Eight, None, None);
        assert_eq!(png_rows(&mut io::Cursor::new(&rgb)).unwrap().palette, None);
        // Transparency, alpha and 16 bits are decoded instead.
        let keyed = png_typed(
            (2, 2),
            ColorType::Indexed,
            BitDepth::Eight,
            Some(&palette),
            Some(&[0]),
        );
        assert!(png_rows(&mut io::Cursor::new(&keyed)).is_none());
        assert!(
            png_rows(&mut io::Cursor::new(png_typed(
                (2, 2),
                ColorType::Rgba,
                BitDepth::Eight,
                None,
                None
            )))
            .is_none()
        );
        assert!(
            png_rows(&mut io::Cursor::new(png_typed(
                (2, 2),
                ColorType::Rgb,
                BitDepth::Sixteen,
                None,
                None
            )))
            .is_none()
        );
        assert!(png_rows(&mut io::Cursor::new(b"\x89PNG\r\n\x1a\nbroken")).is_none());
    }

    #[test]
    fn a_stand_in_reads_the_header_alone_when_it_can() {
        let dir = tempfile::tempdir().unwrap();
        // A JPEG whose scan starts early, then 100 KB of "pixels".
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xC0, 0, 8, 8, 0, 16, 0, 16, 3];
        jpeg.extend([0xFF, 0xDA, 0, 2]);
        jpeg.resize(100_000, 7);
        let early = dir.path().join("early.jpg");
        std::fs::write(&early, &jpeg).unwrap();
        assert_eq!(head_of(&early).unwrap().len(), HEAD);
        // A header longer than HEAD (a large APP segment, twice): whole.
        let mut long = vec![0xFF, 0xD8];
        for _ in 0..2 {
            long.extend([0xFF, 0xE1, 0xFF, 0xFF]);
            long.resize(long.len() + 0xFFFD, 0);
        }
        long.extend([0xFF, 0xDA, 0, 2, 1, 2, 3]);
        let late = dir.path().join("late.jpg");
        std::fs::write(&late, &long).unwrap();
        assert_eq!(head_of(&late).unwrap(), long);
        let png = stand_in_png(1, true, None);
        assert!(header_complete(&png));
        assert!(!header_complete(&png[..20]));
    }

    #[test]
    fn a_dictionary_is_read_value_by_value() {
        let text = b"<</Length 12/Type/XObject/ColorSpace 2445 0 R/Decode[1 0 [2]]/D<</A(x\\)y)>>/N -3.5/S(a(b)c)/H<ab>>>stream";
        let dict = Dict::parse(text).unwrap();
        assert_eq!(dict.get("Length"), Some("12"));
        assert_eq!(dict.get("Type"), Some("/XObject"));
        assert_eq!(dict.get("ColorSpace"), Some("2445 0 R"));
        assert_eq!(dict.get("Decode"), Some("[1 0 [2]]"));
        assert_eq!(dict.get("D"), Some("<</A(x\\)y)>>"));
        assert_eq!(dict.get("N"), Some("-3.5"));
        assert_eq!(dict.get("S"), Some("(a(b)c)"));
        assert_eq!(dict.get("H"), Some("<ab>"));
        assert_eq!(&text[dict.end..], b"stream");
        assert!(Dict::parse(b"<</A 1").is_none());
    }

    /// A PDF as typst-pdf writes one, holding one stand-in (for image 0)
    /// and one other object.
    fn pdf_with_stand_in(gray: bool) -> Vec<u8> {
        let png = stand_in_png(0, gray, None);
        let mut reader = png::Decoder::new(io::Cursor::new(png)).read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut pixels).unwrap();
        let data = compress_to_vec_zlib(&pixels, 6);
        let mut pdf = b"%PDF-1.7\n".to_vec();
        let first = pdf.len();
        pdf.extend_from_slice(b"1 0 obj\n<</Type/Catalog>>\nendobj\n");
        let second = pdf.len();
        write!(
            pdf,
            "2 0 obj\n<</Length {}/Type/XObject/Subtype/Image/Filter/FlateDecode/Width 16/Height 1/ColorSpace/DeviceRGB/BitsPerComponent 8>>\nstream\n",
            data.len()
        )
        .unwrap();
        pdf.extend_from_slice(&data);
        pdf.extend_from_slice(b"\nendstream\nendobj\n");
        let xref = pdf.len();
        write!(
            pdf,
            "xref\n0 3\n0000000000 65535 f\r\n{first:010} 00000 n\r\n{second:010} 00000 n\r\ntrailer\n<</Size 3/Root 1 0 R/ID[(a)(b)]>>\nstartxref\n{xref}\n%%EOF"
        )
        .unwrap();
        pdf
    }

    #[test]
    fn the_stand_in_is_replaced_by_its_image_in_an_update() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("logo.png");
        std::fs::write(&file, png_of(30, 20, [200, 10, 10, 128])).unwrap();
        let assets = HashMap::from([("/assets/0/logo.png".to_string(), file)]);
        let stand_ins = StandIns::new(&assets);
        let pdf = pdf_with_stand_in(false);
        let old_xref = Pdf::read(&pdf).unwrap().startxref;
        let body = streamed(pdf.clone(), Some(&stand_ins)).unwrap();
        assert!(matches!(body, Body::Written(_)));
        let out = body.to_bytes().unwrap();
        assert!(out.starts_with(&pdf), "an update leaves the file as it was");
        let updated = Pdf::read(&out).unwrap();
        assert_eq!(updated.size, 4, "one new object: the soft mask");
        let at = |n: u32| updated.offsets.iter().find(|(o, _)| *o == n).unwrap().1;
        let image = Dict::parse(&out[at(2) + "2 0 obj\n".len()..]).unwrap();
        assert_eq!(image.get("Width"), Some("30"));
        assert_eq!(image.get("Height"), Some("20"));
        assert_eq!(image.get("ColorSpace"), Some("/DeviceRGB"));
        assert_eq!(image.get("SMask"), Some("3 0 R"));
        let data = image.stream(&out[at(2) + "2 0 obj\n".len()..]).unwrap();
        let pixels = miniz_oxide::inflate::decompress_to_vec_zlib(data).unwrap();
        assert_eq!(&pixels[..6], &[200, 10, 10, 200, 10, 10]);
        let mask = Dict::parse(&out[at(3) + "3 0 obj\n".len()..]).unwrap();
        assert_eq!(mask.get("ColorSpace"), Some("/DeviceGray"));
        let trailer = &out[out.len() - 120..];
        let prev = format!("/Prev {old_xref}>>");
        assert!(
            find(trailer, prev.as_bytes()).is_some(),
            "the update leads back"
        );
        assert!(find(trailer, b"/Root 1 0 R/ID [(a)(b)]").is_some());
    }

    #[test]
    fn a_pdf_without_stand_ins_is_given_as_it_is() {
        let pdf = pdf_with_stand_in(true);
        assert!(matches!(streamed(pdf.clone(), None).unwrap(), Body::Bytes(b) if b == pdf));
        let none = StandIns::new(&HashMap::new());
        assert!(matches!(
            streamed(pdf, Some(&none)).unwrap(),
            Body::Bytes(_)
        ));
    }

    #[test]
    fn an_image_gone_before_the_pdf_is_written_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gone.png");
        std::fs::write(&file, png_of(2, 2, [0, 0, 0, 255])).unwrap();
        let assets = HashMap::from([("/assets/0/gone.png".to_string(), file.clone())]);
        let body = streamed(pdf_with_stand_in(false), Some(&StandIns::new(&assets))).unwrap();
        std::fs::remove_file(&file).unwrap();
        let error = body.to_bytes().unwrap_err().to_string();
        assert!(
            error.contains("cannot read the image") && error.contains("gone.png"),
            "{error}"
        );
    }
}
