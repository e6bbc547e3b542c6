//! A small fake dist/: a few bytes as EPUB and PDF files, tiny PNG covers, and the entries describing them.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use stoa_site::SiteEntry;

/// Writes the fake files into `dir` and returns the entries for them.
pub fn fake_dist(dir: &Path) -> Vec<SiteEntry> {
    let mut entries = Vec::new();
    for (book, lang, title, subtitle, description, cover) in EDITIONS {
        let base = format!("{book}/{book}-{lang}");
        fs::create_dir_all(dir.join(book)).unwrap();
        let mut files = Vec::new();
        for (ext, len) in [("epub", 1_234_567usize), ("pdf", 2_345)] {
            let rel = PathBuf::from(format!("{base}.{ext}"));
            fs::write(dir.join(&rel), content(&rel, len)).unwrap();
            files.push(rel);
        }
        // The first edition of each book has a web edition.
        let web = (!entries.iter().any(|e: &SiteEntry| e.book == *book)).then(|| {
            let rel = PathBuf::from(format!("{book}/{lang}/index.html"));
            fs::create_dir_all(dir.join(rel.parent().unwrap())).unwrap();
            fs::write(dir.join(&rel), "<!doctype html><title>x</title>").unwrap();
            rel
        });
        let cover_2x = cover.map(|(top, band)| {
            let rel = PathBuf::from(format!("{base}-cover-2x.png"));
            fs::write(dir.join(&rel), png(240, 360, top, band)).unwrap();
            rel
        });
        let cover = cover.map(|(top, band)| {
            let rel = PathBuf::from(format!("{base}-cover.png"));
            fs::write(dir.join(&rel), png(120, 180, top, band)).unwrap();
            rel
        });
        entries.push(SiteEntry {
            book: book.to_string(),
            lang: lang.to_string(),
            title: title.to_string(),
            subtitle: subtitle.map(str::to_string),
            author: "Vinícius Gomes Batista".to_string(),
            description: Some(description.to_string()),
            identifier: format!(
                "urn:uuid:00000000-0000-5000-8000-{:012x}",
                entries.len() + 1
            ),
            date: "2026-11-30".to_string(),
            modified: format!("2026-12-0{}T10:00:00Z", entries.len() + 1),
            cover,
            cover_2x,
            files,
            web,
            pages: Some(96 + entries.len()),
            contents: vec![
                format!("{title}: the first chapter"),
                "Dialogue on <Labels> & Truth".to_string(),
            ],
            contents_label: (*lang == "en").then(|| "Table of contents".to_string()),
            parts: Vec::new(),
            posts: 0,
            book_posts: 0,
        });
    }
    entries
}

type Edition = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static str,
    Option<([u8; 3], [u8; 3])>,
);

const EDITIONS: &[Edition] = &[
    (
        "dialogues",
        "pt-BR",
        "Diálogos com Glauco",
        Some("Quatro conversas socráticas"),
        "Quatro diálogos na forma de A República, de Platão, em que Sócrates e Glauco conversam sobre rótulos, mestres, quem ensina e uma ferramenta nova. Uma pergunta de cada vez, sem resposta pronta.",
        Some(([0x2b, 0x3a, 0x55], [0xe8, 0xc3, 0x7a])),
    ),
    (
        "dialogues",
        "en",
        "Dialogues with Glaucon",
        Some("Four Socratic conversations"),
        "Four dialogues in the form of Plato’s Republic, in which Socrates and Glaucon talk about labels, masters, those who teach and a new tool. One question at a time, and no ready answer.",
        Some(([0x2b, 0x3a, 0x55], [0xe8, 0xc3, 0x7a])),
    ),
    (
        "essays",
        "en",
        "Essays & <Notes>",
        None,
        "Short pieces on data engineering, studying, and knowing when to stop: \"what to study\" & 'where to stop'.",
        None,
    ),
    (
        "essays",
        "pt-BR",
        "Ensaios & <Notas>",
        None,
        "Textos curtos sobre engenharia de dados, estudo e saber a hora de parar.",
        Some(([0x6b, 0x23, 0x1c], [0xf3, 0xe6, 0xd0])),
    ),
];

/// Deterministic filler bytes that differ per file, so checksums differ too.
fn content(rel: &Path, len: usize) -> Vec<u8> {
    let seed = Sha256::digest(rel.to_string_lossy().as_bytes());
    (0..len).map(|i| seed[i % seed.len()] ^ (i as u8)).collect()
}

/// Lower-case hex SHA-256 of a file.
pub fn sha256_hex(path: &Path) -> String {
    Sha256::digest(fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Undoes the percent-encoding of an href.
pub fn percent_decode(href: &str) -> String {
    let bytes = href.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&href[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// A valid RGB PNG: a plain cover with a band across it, made without an image
/// library (stored deflate blocks, CRC-32 and Adler-32 by hand).
pub fn png(width: u32, height: u32, background: [u8; 3], band: [u8; 3]) -> Vec<u8> {
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0); // filter: none
        let in_band = (height * 3 / 5..height * 3 / 5 + height / 12).contains(&y);
        for _ in 0..width {
            raw.extend_from_slice(if in_band { &band } else { &background });
        }
    }
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &zlib_stored(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = data.chunks(65_535).collect();
    for (i, block) in blocks.iter().enumerate() {
        out.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    out.extend_from_slice(&((b << 16) | a).to_be_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The file kinds of a build of stoa's formats, as the driver's registry
/// describes them.
pub fn kinds() -> Vec<stoa_site::FileKind> {
    vec![
        stoa_site::FileKind {
            extension: "epub",
            label: "EPUB",
            media_type: "application/epub+zip",
            paged: false,
        },
        stoa_site::FileKind {
            extension: "pdf",
            label: "PDF",
            media_type: "application/pdf",
            paged: true,
        },
    ]
}
