//! Short, stable fingerprints of a source's normalised text: one for the
//! whole post (is the translation up to date?) and one tiny digest per
//! block (which paragraphs changed since?).

use crate::text::Block;
use sha2::{Digest, Sha256};
use stoa_book::{FINGERPRINT_LEN, PARAGRAPH_DIGEST_LEN};

/// The fingerprint of a post's blocks: the first 64 bits of the SHA-256
/// of their normalised texts, one per line pair, in hex. Whitespace inside
/// a block does not count; splitting or joining blocks does.
pub fn fingerprint(blocks: &[Block]) -> String {
    let mut hash = Sha256::new();
    for (i, block) in blocks.iter().enumerate() {
        if i > 0 {
            hash.update(b"\n\n");
        }
        hash.update(block.text.as_bytes());
    }
    hex(&hash.finalize(), FINGERPRINT_LEN)
}

/// One short digest per block, concatenated: enough to tell which blocks
/// changed, too short to stand for the text.
pub fn paragraph_digests(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| hex(&Sha256::digest(b.text.as_bytes()), PARAGRAPH_DIGEST_LEN))
        .collect()
}

/// The digests of [`paragraph_digests`], one string per block.
pub fn split_digests(digests: &str) -> Vec<&str> {
    (0..digests.len() / PARAGRAPH_DIGEST_LEN)
        .filter_map(|i| digests.get(i * PARAGRAPH_DIGEST_LEN..(i + 1) * PARAGRAPH_DIGEST_LEN))
        .collect()
}

fn hex(bytes: &[u8], digits: usize) -> String {
    bytes
        .iter()
        .flat_map(|b| [b >> 4, b & 0xf])
        .take(digits)
        .map(|n| char::from_digit(u32::from(n), 16).unwrap_or('0'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::body_blocks;

    #[test]
    fn the_fingerprint_is_stable() {
        // Written down once: a change here would make every marked
        // translation in every book stale.
        let blocks = body_blocks("Hello, world.\n\nSecond paragraph.\n", 1);
        assert_eq!(fingerprint(&blocks), "492fb28998d48117");
        assert_eq!(paragraph_digests(&blocks), "f8c33fc3");
        assert_eq!(fingerprint(&blocks).len(), FINGERPRINT_LEN);
    }

    #[test]
    fn whitespace_only_edits_keep_the_fingerprint() {
        let a = body_blocks("Hello, world.\n\nSecond paragraph.\n", 1);
        let b = body_blocks("\n\nHello,\n   world.  \n\n\n\nSecond\tparagraph.", 5);
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert_eq!(paragraph_digests(&a), paragraph_digests(&b));
    }

    #[test]
    fn words_and_paragraph_breaks_change_it() {
        let a = body_blocks("Hello, world.\n\nSecond paragraph.\n", 1);
        let edited = body_blocks("Hello, world!\n\nSecond paragraph.\n", 1);
        let merged = body_blocks("Hello, world.\nSecond paragraph.\n", 1);
        assert_ne!(fingerprint(&a), fingerprint(&edited));
        assert_ne!(fingerprint(&a), fingerprint(&merged));
        let digests = paragraph_digests(&edited);
        let parts = split_digests(&digests);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1], &paragraph_digests(&a)[4..]);
    }
}
