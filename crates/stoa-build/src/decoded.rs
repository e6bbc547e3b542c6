//! The images known to decode whole, kept in the build cache between
//! builds (`<out>/.cache/stoa/decoded`, one content key a line): reading a
//! post checks each of its images by decoding it (stoa-book's picture
//! check), and a blog of a thousand photographs would decode them all
//! again for an edit of one word. Only the decoding is skipped; each
//! image's kind and size are read every time. A file that cannot be read
//! or written costs time, never a wrong book: the image is decoded.

use crate::cache::CACHE_DIR;
use std::path::{Path, PathBuf};

/// The file in [`CACHE_DIR`].
const FILE: &str = "decoded";

fn path(out_dir: &Path) -> PathBuf {
    out_dir.join(CACHE_DIR).join(FILE)
}

/// Tells the picture check what earlier builds decoded.
pub(crate) fn recall(out_dir: &Path) {
    let Ok(text) = std::fs::read_to_string(path(out_dir)) else {
        return;
    };
    stoa_book::remember_decoded(text.lines().filter(|line| is_key(line)).map(str::to_string));
}

/// Keeps what this process decoded, or was told, for the images it read.
pub(crate) fn keep(out_dir: &Path) {
    let keys = stoa_book::decoded_images();
    let mut text = keys.join("\n");
    text.push('\n');
    let file = path(out_dir);
    if keys.is_empty() || stoa_render::file_holds(&file, text.as_bytes()) {
        return;
    }
    let _ = std::fs::create_dir_all(out_dir.join(CACHE_DIR));
    let _ = crate::output::write_atomically(&file, text.as_bytes());
}

/// A content key as stoa-book writes one: 32 hex digits, `-`, a length.
fn is_key(line: &str) -> bool {
    line.split_once('-').is_some_and(|(hash, len)| {
        hash.len() == 32
            && hash.bytes().all(|b| b.is_ascii_hexdigit())
            && !len.is_empty()
            && len.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_well_formed_keys_are_recalled() {
        assert!(is_key("0123456789abcdef0123456789abcdef-42"));
        for bad in [
            "",
            "0123-42",
            "0123456789abcdef0123456789abcdeg-42",
            "0123456789abcdef0123456789abcdef-",
            "0123456789abcdef0123456789abcdef-4x",
        ] {
            assert!(!is_key(bad), "{bad}");
        }
    }
}
