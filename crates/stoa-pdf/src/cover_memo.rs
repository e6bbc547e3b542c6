//! Covers drawn before, kept for the life of the process: `stoa watch`
//! draws every edited edition's cover and thumbnails again, and a cold
//! build draws each cover three times (the EPUB's, two thumbnails) from the
//! same Typst source. A cover is reused only when its world is the same
//! (source, theme, images, date, size) and every file its layout read
//! still reads the same, so a theme edited in between is seen.

use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock};

use typst::syntax::FileId;

use crate::world::{StoaWorld, lock};

/// How many covers are kept: a few per edition (the cover and its two
/// thumbnails) for a handful of books; the oldest goes first.
const KEPT: usize = 32;

/// One cover drawn.
struct Drawn {
    key: u128,
    read: Vec<(FileId, u128)>,
    png: Vec<u8>,
}

fn drawn() -> &'static Mutex<VecDeque<Drawn>> {
    static DRAWN: OnceLock<Mutex<VecDeque<Drawn>>> = OnceLock::new();
    DRAWN.get_or_init(Default::default)
}

/// The cover drawn before in a world like `world` (its identity `key`),
/// if the files it read still read the same.
pub(crate) fn find(key: u128, world: &StoaWorld) -> Option<Vec<u8>> {
    let candidate = {
        let drawn = lock(drawn());
        let d = drawn.iter().find(|d| d.key == key)?;
        (d.read.clone(), d.png.clone())
    };
    // Read outside the lock: other threads draw their covers meanwhile.
    let (read, png) = candidate;
    read.iter()
        .all(|(id, hash)| world.file_hash(*id) == *hash)
        .then_some(png)
}

/// Keeps the cover `png` drawn in `world` (identity `key`).
pub(crate) fn keep(key: u128, world: &StoaWorld, png: &[u8]) {
    let read = world.files_read();
    let mut drawn = lock(drawn());
    drawn.retain(|d| d.key != key);
    if drawn.len() >= KEPT {
        drawn.pop_front();
    }
    drawn.push_back(Drawn {
        key,
        read,
        png: png.to_vec(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use typst::syntax::{RootedPath, VirtualPath, VirtualRoot};

    fn world(theme: &std::path::Path) -> StoaWorld {
        let theme = stoa_render::Theme::folder("memo-test", theme);
        StoaWorld::new("cover".into(), theme, HashMap::new(), None)
    }

    fn id(path: &str) -> FileId {
        RootedPath::new(VirtualRoot::Project, VirtualPath::new(path).unwrap()).intern()
    }

    #[test]
    fn a_cover_is_reused_until_a_file_it_read_changes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.typ"), "one").unwrap();
        let first = world(dir.path());
        let key = first.identity(3);
        // What the layout read: the template, and a file that is missing.
        first.file_hash(id("/theme/book.typ"));
        first.file_hash(id("/theme/missing.typ"));
        keep(key, &first, b"drawn");
        assert_eq!(
            find(key, &world(dir.path())).as_deref(),
            Some(&b"drawn"[..])
        );
        assert_eq!(
            find(world(dir.path()).identity(2), &world(dir.path())),
            None
        );
        // The template edited: drawn again.
        std::fs::write(dir.path().join("book.typ"), "two").unwrap();
        assert_eq!(find(key, &world(dir.path())), None);
        // Back as it was, and the missing file made: drawn again too.
        std::fs::write(dir.path().join("book.typ"), "one").unwrap();
        assert!(find(key, &world(dir.path())).is_some());
        std::fs::write(dir.path().join("missing.typ"), "").unwrap();
        assert_eq!(find(key, &world(dir.path())), None);
    }
}
