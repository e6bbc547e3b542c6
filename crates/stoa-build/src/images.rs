//! The image step: each image of an edition made, once, as each format
//! being made takes it ([`Renderer::image_target`]): scaled to the size it
//! is shown at, converted where its readers cannot show it (see the
//! stoa-image crate). An image already right for a format is given as it
//! is. What is made is kept in the build cache
//! (`<out>/.cache/stoa/images/<key>.<ext>`) under a key of the image's
//! bytes and what was made of it: a second build decodes nothing.
//!
//! Memory stays bounded: images are made in parallel, but the pixels
//! decoded at once are capped ([`PIXEL_BUDGET`]), and a renderer is given
//! the small file made, never a large decoded image.

use crate::cache::CACHE_DIR;
use crate::covers::Stored;
use crate::keys::Hasher;
use crate::options::BuildOptions;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use stoa_book::{BookConfig, Edition};
use stoa_doc::{Asset, Diagnostic};
use stoa_render::stoa_image::{self, Plan, Target};
use stoa_render::{ImageSettings, MadeImage, MadeImages};

/// The folder of the images made, inside [`CACHE_DIR`].
const IMAGES_DIR: &str = "images";

/// What the keys of made images stand for: raise it when stoa-image
/// makes different bytes from the same plan.
const MAKER_VERSION: &str = "stoa-image 1";

/// The most pixels decoded at once across threads: two 24-megapixel
/// photographs (about 150 MB as RGB). A larger image is made alone.
const PIXEL_BUDGET: u64 = 48_000_000;

/// The images made for each format of `making`, by format name.
pub(crate) fn make_all(
    options: &BuildOptions,
    config: &BookConfig,
    edition: &Edition,
    making: &[&str],
    stored: Stored,
) -> Result<HashMap<&'static str, MadeImages>, Vec<Diagnostic>> {
    let settings = ImageSettings {
        pdf_ppi: config.images.pdf_ppi,
        jpeg_quality: config.images.jpeg_quality,
        keep_webp: config.images.epub_webp,
    };
    let book = &edition.book;
    let targets: Vec<(&'static str, Target)> = making
        .iter()
        .map(|f| options.renderer(f))
        .filter_map(|r| Some((r.name(), r.image_target(book, &settings)?)))
        .collect();
    let mut made: HashMap<&'static str, MadeImages> = HashMap::new();
    if targets.is_empty() || book.assets.is_empty() {
        return Ok(made);
    }
    let _t = crate::timings::phase(|| format!("  images {}-{}", config.id, book.lang));
    let roots: Vec<PathBuf> = edition
        .roots
        .iter()
        .filter_map(|r| r.canonicalize().ok())
        .collect();
    let results: Vec<Result<Vec<Made>, Diagnostic>> = book
        .assets
        .par_iter()
        .map(|asset| make_one(&options.out_dir, asset, &roots, &targets, &BUDGET, stored))
        .collect();
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok(list) => {
                for (format, name, image) in list {
                    made.entry(format).or_default().insert(name, image);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(made)
    } else {
        Err(errors)
    }
}

/// The files of the build cache that `made` uses, by name.
pub(crate) fn files(made: &HashMap<&'static str, MadeImages>) -> Vec<String> {
    let mut names: Vec<String> = made
        .values()
        .flat_map(|images| images.values())
        .flat_map(|m| m.path.iter().chain(m.smaller.iter().map(|(p, _)| p)))
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The slot of the build cache's record that keeps the made image `file`
/// of an edition (beside its covers): `<book>/<lang>/image/<file>`.
pub(crate) fn slot(edition: &str, file: &str) -> String {
    format!("{edition}/image/{file}")
}

/// Removes the images of `out_dir`'s cache that no edition uses: the
/// files not among `used` (the records' keys, which for an image are its
/// file name).
pub(crate) fn prune(out_dir: &Path, used: &std::collections::HashSet<crate::keys::Key>) {
    let dir = out_dir.join(CACHE_DIR).join(IMAGES_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !used.contains(&name) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// An image made for a format: the format, the asset's name, the file.
type Made = (&'static str, String, MadeImage);

/// One file to make of an image: where it is kept, what it is, and the
/// quality of a JPEG.
struct Wanted {
    path: PathBuf,
    plan: Plan,
    kind: stoa_image::Kind,
    size: (u32, u32),
    quality: u8,
}

/// The files made of `asset` for each target that needs one.
fn make_one(
    out_dir: &Path,
    asset: &Asset,
    roots: &[PathBuf],
    targets: &[(&'static str, Target)],
    budget: &Budget,
    stored: Stored,
) -> Result<Vec<Made>, Diagnostic> {
    let mut out = Vec::new();
    if !is_raster(&asset.media_type) {
        return Ok(out);
    }
    // Only a file inside the book's folders (a plugin may have changed the
    // tree): any other is left for the renderer to refuse.
    let Ok(real) = Path::new(&asset.path).canonicalize() else {
        return Ok(out);
    };
    if !roots.iter().any(|r| real.starts_with(r)) {
        return Ok(out);
    }
    let failed = |why: String| {
        Diagnostic::error(format!("the image {} {why}", asset.path))
            .in_file(asset.path.clone())
            .with_hint("export the image again as PNG or JPEG")
    };
    let bytes = stoa_book::limits::read_bounded(&real, stoa_book::limits::MAX_IMAGE_BYTES)
        .map_err(|e| failed(format!("cannot be read: {e}")))?;
    let Some(probe) = stoa_image::probe(&bytes) else {
        return Ok(out);
    };
    let mut source = Hasher::new("image source");
    source.bytes(&bytes);
    let source = source.finish();
    let wanted = |plan: Plan, target: &Target| -> Option<Wanted> {
        let Plan::Make {
            kind,
            width,
            height,
            ..
        } = plan
        else {
            return None;
        };
        let mut h = Hasher::new("image");
        h.str(MAKER_VERSION)
            .str(&source)
            .str(&format!("{plan:?}"))
            .str(&target.jpeg_quality.to_string());
        let path = out_dir.join(CACHE_DIR).join(IMAGES_DIR).join(format!(
            "{}.{}",
            h.finish(),
            kind.extension()
        ));
        Some(Wanted {
            path,
            plan,
            kind,
            size: (width, height),
            quality: target.jpeg_quality,
        })
    };
    // First what each format wants, then the files made, all of one
    // decoding of the image.
    let mut all: Vec<Wanted> = Vec::new();
    for (format, target) in targets {
        let main = wanted(stoa_image::plan(&probe, target), target);
        let (width, height) = main.as_ref().map_or(probe.shown(), |w| w.size);
        // A smaller copy for a web page's srcset, when the image is wider.
        let smaller = target
            .smaller()
            .and_then(|small| wanted(stoa_image::plan(&probe, &small), &small))
            .filter(|w| w.size.0 < width);
        let media_type = main.as_ref().map_or(probe.kind, |w| w.kind).media_type();
        out.push((
            *format,
            asset.name.clone(),
            MadeImage {
                path: main.as_ref().map(|w| w.path.clone()),
                media_type,
                width,
                height,
                smaller: smaller.as_ref().map(|w| (w.path.clone(), w.size.0)),
            },
        ));
        all.extend(main);
        all.extend(smaller);
    }
    make_missing(
        &source,
        &bytes,
        probe.pixels(),
        all,
        budget,
        stored,
        &failed,
    )?;
    Ok(out)
}

/// Makes the files of `wanted` the cache does not hold (all of them when
/// `stored` is [`Stored::Replace`], `--force`), of one decoding of
/// `bytes`. One edition at a time per image: the editions of a book in
/// several languages share their images, and the second finds the files
/// the first made.
fn make_missing(
    source: &str,
    bytes: &[u8],
    pixels: u64,
    mut wanted: Vec<Wanted>,
    budget: &Budget,
    stored: Stored,
    failed: &dyn Fn(String) -> Diagnostic,
) -> Result<(), Diagnostic> {
    wanted.sort_by(|a, b| a.path.cmp(&b.path));
    wanted.dedup_by(|a, b| a.path == b.path);
    let missing = |w: &&Wanted| stored == Stored::Replace || !is_kept(&w.path, w.kind);
    if !wanted.iter().any(|w| missing(&w)) {
        return Ok(());
    }
    let lock = image_lock(source);
    let _mine = lock.lock().unwrap_or_else(|e| e.into_inner());
    let missing: Vec<&Wanted> = wanted.iter().filter(missing).collect();
    if missing.is_empty() {
        return Ok(());
    }
    // Waiting for the budget holds no other lock but this image's, which
    // only another edition's step for the same image waits for.
    let _held = budget.hold(pixels);
    let decoded = stoa_image::Decoded::of(bytes).map_err(|e| failed(e.to_string()))?;
    for w in missing {
        let made = stoa_image::make_from(&decoded, &w.plan, w.quality)
            .map_err(|e| failed(e.to_string()))?
            .ok_or_else(|| failed("was not made".into()))?;
        crate::output::write_atomically(&w.path, &made.bytes).map_err(|e| {
            Diagnostic::error(format!(
                "cannot keep an image made in {}: {e}",
                w.path.display()
            ))
            .with_hint("make room on its disk, or check the permissions of the output folder and of its .cache folder")
        })?;
    }
    Ok(())
}

/// The lock of one source image (by its key), shared by the threads of
/// this process: made once, it lives as long as the process (a few bytes
/// an image).
fn image_lock(source: &str) -> std::sync::Arc<Mutex<()>> {
    static LOCKS: Mutex<Option<HashMap<String, std::sync::Arc<Mutex<()>>>>> = Mutex::new(None);
    let mut locks = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
    locks
        .get_or_insert_with(HashMap::new)
        .entry(source.to_string())
        .or_default()
        .clone()
}

fn is_raster(media_type: &str) -> bool {
    matches!(media_type, "image/jpeg" | "image/png" | "image/webp")
}

/// Whether the cache holds a file made before at `path`: a regular file
/// whose header is of `kind`.
fn is_kept(path: &Path, kind: stoa_image::Kind) -> bool {
    const HEAD: u64 = 64 << 10;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.len() == 0 {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    use std::io::Read;
    if file.take(HEAD).read_to_end(&mut head).is_err() {
        return false;
    }
    match kind {
        stoa_image::Kind::Jpeg => head.starts_with(&[0xFF, 0xD8, 0xFF]),
        stoa_image::Kind::Png => head.starts_with(b"\x89PNG\r\n\x1a\n"),
        _ => false,
    }
}

/// The process's cap on decoded pixels: the editions prepared side by side
/// share it.
static BUDGET: Budget = Budget::new(PIXEL_BUDGET);

/// A cap on the pixels decoded at once: [`Budget::hold`] waits until its
/// share is free.
struct Budget {
    free: Mutex<u64>,
    freed: Condvar,
    total: u64,
}

impl Budget {
    const fn new(total: u64) -> Self {
        Budget {
            free: Mutex::new(total),
            freed: Condvar::new(),
            total,
        }
    }

    /// Holds `pixels` of the budget (all of it, for an image larger than
    /// the whole) until the guard is dropped.
    fn hold(&self, pixels: u64) -> Held<'_> {
        let share = pixels.clamp(1, self.total);
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free < share {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= share;
        Held {
            budget: self,
            share,
        }
    }
}

struct Held<'a> {
    budget: &'a Budget,
    share: u64,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut free = self.budget.free.lock().unwrap_or_else(|e| e.into_inner());
        *free += self.share;
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_lets_a_share_through_only_when_it_is_free() {
        let budget = Budget::new(10);
        let a = budget.hold(6);
        let b = budget.hold(4);
        assert_eq!(*budget.free.lock().unwrap(), 0);
        drop(a);
        // Larger than the whole: waits for all of it.
        drop(b);
        let all = budget.hold(1_000);
        assert_eq!(*budget.free.lock().unwrap(), 0);
        drop(all);
        assert_eq!(*budget.free.lock().unwrap(), 10);
    }

    #[test]
    fn only_a_whole_file_of_the_kind_counts_as_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.png");
        assert!(!is_kept(&path, stoa_image::Kind::Png));
        std::fs::write(&path, b"\x89PNG\r\n\x1a\nrest").unwrap();
        assert!(is_kept(&path, stoa_image::Kind::Png));
        assert!(!is_kept(&path, stoa_image::Kind::Jpeg));
        std::fs::write(&path, b"").unwrap();
        assert!(!is_kept(&path, stoa_image::Kind::Png));
    }
}
