//! Covers kept between builds. A cover is drawn from the edition's title,
//! author, cover settings and image and from the theme, never from its
//! posts: after an edit, or in a new process, the cover drawn before is
//! still right. Each cover drawn is kept in the build cache
//! (`<out>/.cache/stoa/covers/<key>.png`) under a key of what it is drawn
//! from: the painter's [`Renderer::cover_key`], the theme's files as the
//! painter reads them, and stoa's own identity. A complete build removes
//! the covers it did not use.

use crate::cache::CACHE_DIR;
use crate::keys::{Hasher, Key, stoa_identity, theme_key};
use crate::options::BuildOptions;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use stoa_doc::Diagnostic;
use stoa_render::{RenderContext, Renderer};

/// The folder of the covers, inside [`CACHE_DIR`].
const COVERS_DIR: &str = "covers";

/// The largest cover read back; a larger file is drawn again.
const MAX_COVER_BYTES: u64 = 64 << 20;

/// Where an edition's cover comes from.
pub(crate) enum CoverPlan {
    /// No format of this build that is made needs one.
    Skip,
    /// Drawn now, or taken from the build cache as `Stored` says.
    Draw(Stored),
}

/// Whether a cover may come from, and go to, the build cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stored {
    /// Taken from the cache when it is there; kept there when drawn.
    Reuse,
    /// Drawn whatever the cache holds (`--force`), then kept.
    Replace,
    /// Neither read nor written (`stoa check` writes nothing).
    Off,
}

/// The cover of the edition of `ctx` at `pixels_per_pt`, as PNG, drawn by
/// `painter` unless the cache holds it; with the key it is kept under.
pub(crate) fn cover_png(
    options: &BuildOptions,
    painter: &dyn Renderer,
    ctx: &RenderContext,
    pixels_per_pt: f32,
    stored: Stored,
) -> Result<(Vec<u8>, Option<Key>), Vec<Diagnostic>> {
    let key = match stored {
        Stored::Off => None,
        Stored::Reuse | Stored::Replace => key(painter, ctx, pixels_per_pt),
    };
    if let (Some(key), Stored::Reuse) = (&key, stored)
        && let Some(png) = read(&options.out_dir, key)
    {
        return Ok((png, Some(key.clone())));
    }
    let png = painter.cover_png(ctx, pixels_per_pt)?;
    if let Some(key) = &key {
        // A cover that cannot be kept is drawn again next time: no error.
        let _ = crate::output::write_atomically(&path(&options.out_dir, key), &png);
    }
    Ok((png, key))
}

/// The key of the cover, when the painter can say what it is drawn from.
fn key(painter: &dyn Renderer, ctx: &RenderContext, pixels_per_pt: f32) -> Option<Key> {
    let drawn_from = painter.cover_key(ctx, pixels_per_pt)?;
    let mut h = Hasher::new("cover");
    h.str(stoa_identity()).str(painter.name()).str(&drawn_from);
    h.str(&theme_key(ctx.theme, painter));
    Some(h.finish())
}

fn path(out_dir: &Path, key: &str) -> PathBuf {
    out_dir
        .join(CACHE_DIR)
        .join(COVERS_DIR)
        .join(format!("{key}.png"))
}

/// The cover kept under `key`, if it is there and is a PNG.
fn read(out_dir: &Path, key: &str) -> Option<Vec<u8>> {
    let path = path(out_dir, key);
    // Only a regular file of a sane size: a FIFO or a device put there is
    // never opened for long.
    stoa_book::limits::regular_file(&path, MAX_COVER_BYTES).ok()?;
    let png = stoa_book::limits::read_bounded(&path, MAX_COVER_BYTES).ok()?;
    png.starts_with(b"\x89PNG\r\n\x1a\n").then_some(png)
}

/// Removes the covers of `out_dir`'s cache whose key is not in `used`.
pub(crate) fn prune(out_dir: &Path, used: &HashSet<Key>) {
    let dir = out_dir.join(CACHE_DIR).join(COVERS_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let kept = name
            .strip_suffix(".png")
            .is_some_and(|key| used.contains(key));
        if !kept && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_cover_is_read_back_and_anything_else_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        assert_eq!(read(out, "k"), None);
        let png = b"\x89PNG\r\n\x1a\nrest".to_vec();
        crate::output::write_atomically(&path(out, "k"), &png).unwrap();
        assert_eq!(read(out, "k"), Some(png));
        crate::output::write_atomically(&path(out, "bad"), b"GIF89a").unwrap();
        assert_eq!(read(out, "bad"), None, "not a PNG");
        prune(out, &HashSet::from(["k".to_string()]));
        assert!(path(out, "k").is_file());
        assert!(!path(out, "bad").exists(), "unused covers are removed");
    }
}
