//! The fonts stoa embeds (typst-assets', and from `fonts/` Noto Emoji, a
//! monochrome emoji face made for print: 1,464 characters, 885 KB, 580 KB
//! deflated; and a Noto serif text face, regular and bold, for each script
//! typst-assets lacks: 3.2 MB, 1.4 MB deflated; all OFL), kept deflated in
//! the binary
//! (build.rs) and inflated only when a document uses one; what each holds
//! comes from `embedded-fonts.json`, so that no font is inflated to be
//! put in the font book.

use std::sync::OnceLock;
use typst::foundations::Bytes;
use typst::text::{Font, FontInfo};

include!(concat!(env!("OUT_DIR"), "/fonts.rs"));

/// One face of an embedded font file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Face {
    /// The file, in build.rs's order.
    file: usize,
    /// The face within the file.
    index: u32,
    /// What Typst reads of it to choose fonts.
    info: FontInfo,
}

impl Face {
    /// What Typst reads of the face to choose fonts.
    pub(crate) fn info(&self) -> &FontInfo {
        &self.info
    }

    /// The face, read from its file (inflated on first use).
    fn read(&self) -> Option<Font> {
        Font::new(file(self.file)?, self.index)
    }
}

/// Embedded face `i` of [`faces`], read once per process: Typst asks for a
/// font many times in a document, and reading one parses its tables.
pub(crate) fn font(i: usize) -> Option<Font> {
    static FONTS: OnceLock<Vec<OnceLock<Option<Font>>>> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| faces().iter().map(|_| OnceLock::new()).collect());
    fonts.get(i)?.get_or_init(|| faces().get(i)?.read()).clone()
}

/// The faces of the embedded fonts, in order: written by the test below
/// from the fonts themselves (`STOA_BLESS=1 cargo test -p stoa-pdf
/// embedded_faces`), which fails when they no longer agree.
const FACES: &str = include_str!("embedded-fonts.json");

/// Every embedded face, read once per process.
pub(crate) fn faces() -> &'static [Face] {
    static FACES_READ: OnceLock<Vec<Face>> = OnceLock::new();
    // A test reads the same text: it cannot fail in a build that passed it.
    FACES_READ.get_or_init(|| serde_json::from_str(FACES).unwrap_or_default())
}

/// Embedded file `i`, inflated once per process.
fn file(i: usize) -> Option<Bytes> {
    static FILES: OnceLock<Vec<OnceLock<Option<Bytes>>>> = OnceLock::new();
    let files = FILES.get_or_init(|| DEFLATED.iter().map(|_| OnceLock::new()).collect());
    files
        .get(i)?
        .get_or_init(|| {
            let (data, len) = DEFLATED.get(i)?;
            let inflated = miniz_oxide::inflate::decompress_to_vec_with_limit(data, *len).ok()?;
            (inflated.len() == *len).then(|| Bytes::new(inflated))
        })
        .clone()
}

/// Whether `path` names a font file Typst reads.
pub(crate) fn is_font_file(path: &std::path::Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(
        ext.to_ascii_lowercase().as_str(),
        "ttf" | "otf" | "ttc" | "otc"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The font files build.rs embeds, in its order.
    fn originals() -> Vec<&'static [u8]> {
        typst_assets::fonts()
            .chain(OWN_FONTS.iter().copied())
            .collect()
    }

    /// The faces as Typst reads them from the embedded fonts.
    fn read_faces() -> Vec<Face> {
        originals()
            .into_iter()
            .enumerate()
            .flat_map(|(file, data)| {
                Font::iter(Bytes::new(data)).map(move |font| Face {
                    file,
                    index: font.index(),
                    info: font.info().clone(),
                })
            })
            .collect()
    }

    #[test]
    fn embedded_faces_are_those_of_the_fonts() {
        let read = read_faces();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/embedded-fonts.json");
        if std::env::var_os("STOA_BLESS").is_some() {
            let json = serde_json::to_string(&read).unwrap();
            std::fs::write(path, json + "\n").unwrap();
        }
        let kept: Vec<Face> = serde_json::from_str(FACES).expect("embedded-fonts.json");
        assert!(
            kept == read,
            "src/embedded-fonts.json does not describe the embedded fonts: after a \
             typst-assets upgrade or a change in fonts/, run STOA_BLESS=1 cargo test -p stoa-pdf \
             embedded_faces"
        );
        assert_eq!(faces(), &read[..]);
    }

    #[test]
    fn each_embedded_file_inflates_to_typst_assets_bytes() {
        let originals = originals();
        assert_eq!(DEFLATED.len(), originals.len());
        let deflated: usize = DEFLATED.iter().map(|(d, _)| d.len()).sum();
        let inflated: usize = originals.iter().map(|d| d.len()).sum();
        assert!(
            deflated * 10 < inflated * 7,
            "{deflated} of {inflated} bytes"
        );
        for (i, original) in originals.iter().enumerate() {
            assert_eq!(file(i).unwrap().as_slice(), *original, "file {i}");
        }
        for (i, face) in faces().iter().enumerate() {
            let read = font(i).unwrap();
            assert_eq!(read.info(), face.info());
            assert!(read == font(i).unwrap(), "read once");
        }
        assert!(font(faces().len()).is_none());
        assert!(file(originals.len()).is_none());
    }
}
