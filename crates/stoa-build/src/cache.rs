//! The build cache: what each artifact was last made from, keyed by the
//! content of its inputs (never their timestamps), kept in
//! `<out>/.cache/stoa/` so that a build whose inputs did not change renders
//! and writes nothing, and, in a [`Session`](crate::Session), what is worth
//! keeping in memory between builds (page maps, covers).
//!
//! A key is a SHA-256 over everything that decides an artifact's bytes: the
//! files of the book's folder, of each post folder it lists (other
//! languages' Markdown left out, their names kept), the images the posts
//! use, the theme files the format reads, the plugins' identity and
//! settings, stoa's own identity, SOURCE_DATE_EPOCH and the options. The
//! outputs themselves are checked by size and modification time: a file in
//! the output folder changed or removed by hand is made again.
//!
//! The cache is only ever an optimisation: a store that is missing, corrupt,
//! from another stoa or unwritable is an empty one, and the build is a cold
//! one.

use crate::options::BuildOptions;
use crate::report::Artifact;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stoa_book::BookConfig;
use stoa_doc::Diagnostic;
use stoa_render::PageMap;

/// The cache's folder, inside the output folder. Hidden, so that `stoa
/// serve` never serves it; not named `.stoa-…`, which names the temporary
/// files the next build removes.
pub const CACHE_DIR: &str = ".cache/stoa";

/// The store's file in [`CACHE_DIR`].
const STORE_FILE: &str = "build.json";

/// The store's layout; a store of another layout is dropped.
const STORE_VERSION: u32 = 2;

/// A content key: a SHA-256 as lowercase hex.
pub(crate) type Key = String;

/// A SHA-256 fed with length-prefixed pieces, so that two different lists
/// of pieces never hash alike.
#[derive(Clone)]
pub(crate) struct Hasher(Sha256);

impl Hasher {
    /// A hasher for keys of one kind (`domain`), so that keys of different
    /// kinds never collide.
    pub(crate) fn new(domain: &str) -> Self {
        let mut h = Hasher(Sha256::new());
        h.str(domain);
        h
    }

    /// Adds `bytes`, with their length.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// Adds a string.
    pub(crate) fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    /// Adds a path as text.
    pub(crate) fn path(&mut self, path: &Path) -> &mut Self {
        self.bytes(path.as_os_str().as_encoded_bytes())
    }

    /// The key.
    pub(crate) fn finish(self) -> Key {
        hex(&self.0.finalize())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a file's bytes, or a key saying it cannot be read (so a
/// file that appears later changes the key).
pub(crate) fn file_key(path: &Path) -> Key {
    let mut h = Hasher::new("file");
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        h.str("not a file");
        return h.finish();
    }
    match std::fs::read(path) {
        Ok(bytes) => h.bytes(&bytes),
        Err(_) => h.str("unreadable"),
    };
    h.finish()
}

/// Adds every file below `dir` (sorted, by relative path) to `h`: names
/// always, contents unless `skip_content` says so for that relative path.
/// Nothing is followed out of the tree but what `std::fs` follows itself.
pub(crate) fn hash_tree(h: &mut Hasher, dir: &Path, skip_content: &dyn Fn(&str) -> bool) {
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    // Depth-first in sorted order; a bound keeps a link cycle from looping.
    let mut seen = 0usize;
    while let Some((folder, prefix)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            h.str("unreadable folder").str(&prefix);
            continue;
        };
        let mut names: Vec<(String, PathBuf)> = entries
            .flatten()
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect();
        names.sort();
        let mut subfolders = Vec::new();
        for (name, path) in names {
            seen += 1;
            if seen > 100_000 {
                h.str("too many files");
                return;
            }
            let rel = format!("{prefix}{name}");
            let meta = std::fs::metadata(&path);
            if meta.as_ref().is_ok_and(|m| !m.is_dir() && !m.is_file()) {
                // A FIFO or a device is never read (it could block); the
                // build refuses it with a clear error of its own.
                h.str("special").str(&rel);
                continue;
            }
            if meta.is_ok_and(|m| m.is_dir()) {
                h.str("dir").str(&rel);
                subfolders.push((path, format!("{rel}/")));
            } else {
                h.str("file").str(&rel);
                if skip_content(&rel) {
                    continue;
                }
                match std::fs::read(&path) {
                    Ok(bytes) => h.bytes(&bytes),
                    Err(_) => h.str("unreadable"),
                };
            }
        }
        // Reversed so that the stack pops them in sorted order.
        stack.extend(subfolders.into_iter().rev());
    }
}

/// Who made the cache: this stoa's version and its executable (size and
/// modification time), so that a rebuilt or upgraded stoa starts afresh.
pub(crate) fn stoa_identity() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let mut h = Hasher::new("stoa");
        h.str(env!("CARGO_PKG_VERSION"));
        if let Ok(exe) = std::env::current_exe() {
            h.path(&exe);
            if let Ok(meta) = std::fs::metadata(&exe) {
                h.str(&meta.len().to_string())
                    .str(&mtime(&meta).to_string());
            }
        }
        h.finish()
    })
}

fn mtime(meta: &std::fs::Metadata) -> i128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128)
}

/// One file of the output folder as the build left it: its size and
/// modification time tell whether someone changed it since.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileStamp {
    /// Relative to the output folder, `/`-separated.
    path: String,
    len: u64,
    mtime: i128,
}

impl FileStamp {
    /// The stamp of `path` (inside `out_dir`) now; `None` when it is missing.
    fn of(out_dir: &Path, path: &Path) -> Option<FileStamp> {
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() {
            return None;
        }
        let rel = path.strip_prefix(out_dir).ok()?;
        Some(FileStamp {
            path: rel.to_string_lossy().replace('\\', "/"),
            len: meta.len(),
            mtime: mtime(&meta),
        })
    }

    fn still_there(&self, out_dir: &Path) -> bool {
        FileStamp::of(out_dir, &out_dir.join(&self.path)).as_ref() == Some(self)
    }
}

/// The stamps of `paths`, each a file or a folder (every file in it).
pub(crate) fn stamps(out_dir: &Path, paths: &[PathBuf]) -> Option<Vec<FileStamp>> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut stack = vec![path.clone()];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).ok()?.flatten() {
                    let p = entry.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        out.push(FileStamp::of(out_dir, &p)?);
                    }
                }
            }
        } else {
            out.push(FileStamp::of(out_dir, path)?);
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Some(out)
}

/// What the cache remembers of one artifact (or of the download page, or of
/// an edition's thumbnails).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Made {
    /// The key of the inputs it was made from.
    pub(crate) key: Key,
    /// The artifact's path (a file, or the web edition's folder).
    pub(crate) path: PathBuf,
    /// Its size, as the report gives it.
    pub(crate) bytes: u64,
    /// Every file written for it, as it was left.
    files: Vec<FileStamp>,
    /// The renderer's warnings, told again when it is not made again.
    pub(crate) warnings: Vec<Diagnostic>,
    /// The PDF's page count, for the download page.
    pub(crate) page_count: Option<usize>,
}

impl Made {
    /// A record of what was just written at `paths`; `None` when a file is
    /// already gone (then nothing is remembered and the next build makes it).
    pub(crate) fn new(
        out_dir: &Path,
        key: Key,
        path: PathBuf,
        bytes: u64,
        written: &[PathBuf],
        warnings: Vec<Diagnostic>,
        page_count: Option<usize>,
    ) -> Option<Made> {
        Some(Made {
            key,
            path,
            bytes,
            files: stamps(out_dir, written)?,
            warnings,
            page_count,
        })
    }

    /// Whether it was made from `key` and its files are as it left them.
    pub(crate) fn fresh(&self, out_dir: &Path, key: &str) -> bool {
        self.key == key && self.intact(out_dir)
    }

    /// Whether its files are as it left them, whatever they were made from.
    pub(crate) fn intact(&self, out_dir: &Path) -> bool {
        !self.files.is_empty() && self.files.iter().all(|f| f.still_there(out_dir))
    }

    /// The artifact as a build reports it when it leaves it alone.
    pub(crate) fn artifact(&self, book: &str, lang: &str, format: &'static str) -> Artifact {
        Artifact {
            book: book.to_string(),
            lang: lang.to_string(),
            format,
            path: self.path.clone(),
            bytes: self.bytes,
            seconds: 0.0,
            written: false,
        }
    }
}

/// What the cache remembers of one edition's input.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct EditionInput {
    /// The key of its files before loading ([`edition_base_key`]).
    base: Key,
    /// Files the loaded edition turned out to read beyond those (its
    /// images), each with its key.
    extra: Vec<(PathBuf, Key)>,
    /// The warnings loading it gave, told again when it is not loaded.
    pub(crate) warnings: Vec<Diagnostic>,
    /// Its chapters' slugs, sorted: what the other languages' web editions
    /// link to, known without loading it.
    slugs: Vec<String>,
}

/// The store kept on disk between runs.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Store {
    version: u32,
    stoa: String,
    /// By `<book>/<lang>/<format>`.
    artifacts: BTreeMap<String, Made>,
    /// By `<book>/<lang>`.
    editions: BTreeMap<String, EditionInput>,
    /// The download page's thumbnails, by `<book>/<lang>`.
    thumbnails: BTreeMap<String, Made>,
    /// The covers kept in the build cache (see `crate::covers`), by
    /// `<book>/<lang>/<use>`: the cover and each thumbnail.
    #[serde(default)]
    covers: BTreeMap<String, Key>,
    /// The download page and the catalogs.
    site: Option<Made>,
}

/// The cache a build reads and updates: the store, and what a session
/// keeps in memory besides.
#[derive(Default)]
pub(crate) struct Cache {
    store: Store,
    /// Page maps by the key of the PDF that made them.
    page_maps: HashMap<Key, PageMap>,
    /// Whether this build made every book in every language: only then
    /// are the covers no edition uses removed.
    complete: bool,
    /// The last page map each edition's PDF made in this session, by
    /// edition id: after an edit, the EPUB and the web edition are made
    /// with it before the PDF, and again only if the new map differs.
    recent_maps: HashMap<String, PageMap>,
    /// Keys used by the build under way; what is not used is evicted after it.
    used: HashSet<Key>,
    /// Where the store was read from, so a session reads it only once.
    loaded_from: Option<PathBuf>,
    /// Write every file even when it holds the same bytes (`--force`).
    pub(crate) rewrite: bool,
}

impl Cache {
    /// An empty cache for `--force`: everything is made and written again,
    /// and the store written after the build replaces the old one.
    pub(crate) fn forced(out_dir: &Path) -> Cache {
        Cache {
            loaded_from: Some(out_dir.to_path_buf()),
            rewrite: true,
            ..Cache::default()
        }
    }

    /// The cache kept in `out_dir`; an empty one when it is missing,
    /// unreadable, corrupt or another stoa's, with a warning when it is
    /// there but cannot be read.
    fn load_or_why(out_dir: &Path) -> (Cache, Option<Diagnostic>) {
        let (store, why) = match read_store_or_why(out_dir) {
            Ok(store) => (store.unwrap_or_default(), None),
            Err(why) => (Store::default(), Some(unreadable_store(out_dir, &why))),
        };
        let cache = Cache {
            loaded_from: Some(out_dir.to_path_buf()),
            store,
            ..Cache::default()
        };
        (cache, why)
    }

    /// Reads the store of `out_dir` unless this cache already holds it; a
    /// warning when it is there but cannot be read.
    pub(crate) fn attach(&mut self, out_dir: &Path) -> Option<Diagnostic> {
        if self.loaded_from.as_deref() == Some(out_dir) {
            return None;
        }
        let (cache, why) = Cache::load_or_why(out_dir);
        *self = cache;
        why
    }

    /// Writes the store into `out_dir` and forgets what this build did not
    /// use. A store that cannot be written is no error, but a warning (in
    /// `warning`): the next build is then a cold one.
    /// After a failed build (`ok` false) memory is kept: the next build,
    /// once the mistake is fixed, still finds it.
    /// Returns, after a complete build that made everything it planned, the
    /// keys of the covers the editions use: the others may go (see
    /// `crate::covers::prune`).
    pub(crate) fn finish(
        &mut self,
        out_dir: &Path,
        ok: bool,
        warning: &mut Option<Diagnostic>,
    ) -> Option<HashSet<Key>> {
        let used = std::mem::take(&mut self.used);
        // `--force` holds for one build.
        self.rewrite = false;
        let complete = std::mem::take(&mut self.complete);
        if ok {
            self.page_maps.retain(|k, _| used.contains(k));
        }
        self.store.version = STORE_VERSION;
        self.store.stoa = stoa_identity().to_string();
        if let Ok(json) = serde_json::to_vec(&self.store) {
            let path = out_dir.join(CACHE_DIR).join(STORE_FILE);
            if let Err(e) = crate::output::write_atomically(&path, &json) {
                *warning = Some(
                    Diagnostic::warning(format!(
                        "cannot write the build cache {}: {e}; the next build makes every file \
                         again, as a first build does",
                        path.display()
                    ))
                    .with_hint(
                        "check the permissions of the output folder and of its .cache folder",
                    ),
                );
            }
        }
        (ok && complete).then(|| self.store.covers.values().cloned().collect())
    }

    pub(crate) fn artifact(&self, id: &str) -> Option<&Made> {
        self.store.artifacts.get(id)
    }

    pub(crate) fn set_artifact(&mut self, id: String, made: Option<Made>) {
        match made {
            Some(made) => self.store.artifacts.insert(id, made),
            None => self.store.artifacts.remove(&id),
        };
    }

    pub(crate) fn thumbnails(&self, id: &str) -> Option<&Made> {
        self.store.thumbnails.get(id)
    }

    pub(crate) fn set_thumbnails(&mut self, id: String, made: Option<Made>) {
        match made {
            Some(made) => self.store.thumbnails.insert(id, made),
            None => self.store.thumbnails.remove(&id),
        };
    }

    pub(crate) fn site(&self) -> Option<&Made> {
        self.store.site.as_ref()
    }

    pub(crate) fn set_site(&mut self, made: Option<Made>) {
        self.store.site = made;
    }

    /// The full key of an edition whose files hash to `base`, when the
    /// cache knows what else it reads and those files did not change.
    pub(crate) fn edition_key(&self, id: &str, base: &str) -> Option<Key> {
        let input = self.store.editions.get(id)?;
        if input.base != base {
            return None;
        }
        let extra: Vec<(PathBuf, Key)> = input
            .extra
            .iter()
            .map(|(p, _)| (p.clone(), file_key(p)))
            .collect();
        (extra == input.extra).then(|| full_edition_key(base, &extra))
    }

    /// The chapters' slugs of an edition whose record is current (see
    /// [`Cache::edition_key`]).
    pub(crate) fn edition_slugs(&self, id: &str, base: &str) -> Option<&[String]> {
        self.edition_key(id, base)?;
        Some(&self.store.editions.get(id)?.slugs)
    }

    pub(crate) fn edition_warnings(&self, id: &str) -> &[Diagnostic] {
        self.store
            .editions
            .get(id)
            .map_or(&[], |e| e.warnings.as_slice())
    }

    /// Records a loaded edition; returns its full key.
    pub(crate) fn set_edition(
        &mut self,
        id: String,
        base: Key,
        extra: Vec<PathBuf>,
        warnings: Vec<Diagnostic>,
        slugs: Vec<String>,
    ) -> Key {
        let mut extra: Vec<(PathBuf, Key)> = extra
            .into_iter()
            .map(|p| {
                let k = file_key(&p);
                (p, k)
            })
            .collect();
        extra.sort();
        extra.dedup();
        let key = full_edition_key(&base, &extra);
        self.store.editions.insert(
            id,
            EditionInput {
                base,
                extra,
                warnings,
                slugs,
            },
        );
        key
    }

    /// Forgets the editions, artifacts and thumbnails of editions not in
    /// `keep` (a book or language removed), so the store does not grow.
    pub(crate) fn retain_editions(&mut self, keep: &HashSet<String>) {
        let edition_of = |id: &str| -> String {
            let mut parts = id.splitn(3, '/');
            format!(
                "{}/{}",
                parts.next().unwrap_or(""),
                parts.next().unwrap_or("")
            )
        };
        self.store.editions.retain(|k, _| keep.contains(k));
        self.recent_maps.retain(|k, _| keep.contains(k));
        self.store.thumbnails.retain(|k, _| keep.contains(k));
        self.store
            .covers
            .retain(|slot, _| keep.contains(&edition_of(slot)));
        self.store
            .artifacts
            .retain(|k, _| keep.contains(&edition_of(k)));
    }

    pub(crate) fn page_map(&mut self, pdf_key: &str) -> Option<PageMap> {
        let map = self.page_maps.get(pdf_key).cloned();
        if map.is_some() {
            self.used.insert(pdf_key.to_string());
        }
        map
    }

    pub(crate) fn set_page_map(&mut self, pdf_key: Key, map: PageMap) {
        self.used.insert(pdf_key.clone());
        self.page_maps.insert(pdf_key, map);
    }

    /// The last page map the PDF of edition `id` made in this session.
    pub(crate) fn recent_map(&self, id: &str) -> Option<&PageMap> {
        self.recent_maps.get(id)
    }

    /// Remembers the page map the PDF of edition `id` made.
    pub(crate) fn set_recent_map(&mut self, id: String, map: PageMap) {
        self.recent_maps.insert(id, map);
    }

    /// Records that the cover `slot` (`<book>/<lang>/<use>`) is the one
    /// kept under `key`.
    pub(crate) fn set_cover(&mut self, slot: String, key: Key) {
        self.store.covers.insert(slot, key);
    }

    /// Records that this build makes every book in every language.
    pub(crate) fn set_complete(&mut self) {
        self.complete = true;
    }

    /// How many page maps are held in memory (for tests).
    #[cfg(test)]
    fn held(&self) -> usize {
        self.page_maps.len()
    }
}

/// The largest store read: some hundred bytes an artifact, so a project of
/// ten thousand editions stays far below it. A larger file is no store of
/// stoa's and is rebuilt.
const MAX_STORE_BYTES: u64 = 256 << 20;

/// The store of `out_dir`: `Ok(None)` when there is none, or one another
/// stoa wrote or that does not parse (expected after an upgrade, or a
/// build killed before its first store); `Err` with the reason when the
/// file is there but cannot be read.
fn read_store_or_why(out_dir: &Path) -> Result<Option<Store>, String> {
    let path = out_dir.join(CACHE_DIR).join(STORE_FILE);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    // Only a regular file is read: opening a FIFO put there waits for a
    // writer forever, and a device (/dev/zero) never ends.
    stoa_book::limits::regular_file(&path, MAX_STORE_BYTES)?;
    let bytes = stoa_book::limits::read_bounded(&path, MAX_STORE_BYTES)
        .map_err(|e| format!("cannot be read: {e}"))?;
    let Ok(store) = serde_json::from_slice::<Store>(&bytes) else {
        return Ok(None);
    };
    Ok((store.version == STORE_VERSION && store.stoa == stoa_identity()).then_some(store))
}

/// The warning for a build cache that cannot be read.
fn unreadable_store(out_dir: &Path, why: &str) -> Diagnostic {
    let path = out_dir.join(CACHE_DIR).join(STORE_FILE);
    Diagnostic::warning(format!(
        "the build cache {} {why}: this build makes every file again, as a first build does",
        path.display()
    ))
    .with_hint(
        "remove the file, or fix its permissions, so that later builds redo only what changed",
    )
}

fn full_edition_key(base: &str, extra: &[(PathBuf, Key)]) -> Key {
    let mut h = Hasher::new("edition");
    h.str(base);
    for (path, key) in extra {
        h.path(path).str(key);
    }
    h.finish()
}

/// The options that decide artifacts' bytes (not `jobs`, not the selection).
fn options_key(h: &mut Hasher, options: &BuildOptions) {
    h.path(&options.books_dir).path(&options.themes_dir);
    h.str(&format!(
        "{:?} {}",
        options.source_date_epoch, options.emit_sources
    ));
    for dir in &options.plugin_dirs {
        h.path(dir);
    }
    h.str(&format!("{:?} {:?}", options.plugin_path, options.exe_dir));
}

/// The key of one edition's files, read without parsing anything: the
/// book's folder, each post folder it lists (the Markdown of its other
/// languages named but not read), the plugins it runs, and the options.
pub(crate) fn edition_base_key(options: &BuildOptions, config: &BookConfig, lang: &str) -> Key {
    let mut h = Hasher::new("edition-files");
    options_key(&mut h, options);
    h.str(lang);
    h.path(&config.dir);
    hash_tree(&mut h, &config.dir, &|_| false);
    h.path(&config.posts_dir);
    let others: Vec<String> = config
        .languages
        .iter()
        .filter(|l| l.tag != lang)
        .map(|l| format!("{}.md", l.tag))
        .collect();
    let slugs = config
        .posts
        .iter()
        .map(|(s, _)| s)
        .chain(config.about.as_ref().map(|(s, _)| s));
    for slug in slugs {
        h.str("post").str(slug);
        hash_tree(&mut h, &config.posts_dir.join(slug), &|rel| {
            others.iter().any(|o| o == rel)
        });
    }
    plugins_key(&mut h, options, config);
    h.finish()
}

/// The plugins a book runs: their names and settings are in book.toml
/// (hashed with the book's folder); a plugin found as a library is known by
/// its files' names, sizes and times in the search path (a built-in one is
/// part of stoa).
fn plugins_key(h: &mut Hasher, options: &BuildOptions, config: &BookConfig) {
    if config.plugins.is_empty() {
        return;
    }
    let search = crate::builtin::search_path(options, config.plugin_dir.as_deref());
    for dir in search.dirs() {
        h.path(dir);
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut found: Vec<String> = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let normal = name.replace('-', "_");
            let ours = config
                .plugins
                .iter()
                .any(|p| normal.contains(&p.name.replace('-', "_")));
            if !ours {
                continue;
            }
            if let Ok(meta) = entry.metadata() {
                found.push(format!("{name} {} {}", meta.len(), mtime(&meta)));
            }
        }
        found.sort();
        for f in found {
            h.str(&f);
        }
    }
}

/// The key of a theme's files as `renderer` reads them
/// ([`Renderer::reads_theme_file`](stoa_render::Renderer::reads_theme_file)):
/// the PDF leaves the style sheets out, so a CSS edit leaves it alone. A
/// built-in theme is part of stoa.
pub(crate) fn theme_key(theme: &stoa_render::Theme, renderer: &dyn stoa_render::Renderer) -> Key {
    let mut h = Hasher::new("theme");
    h.str(theme.name()).str(renderer.name());
    if let Some(dir) = theme.dir() {
        h.path(dir);
        hash_tree(&mut h, dir, &|rel| !renderer.reads_theme_file(rel));
    }
    h.finish()
}

/// Removes the store of `out_dir` (for tests and `--force`'s callers that
/// want no trace).
#[cfg(test)]
fn store_path(out_dir: &Path) -> PathBuf {
    out_dir.join(CACHE_DIR).join(STORE_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_that_cannot_be_read_or_written_is_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where the store goes: it can be neither read nor written.
        std::fs::create_dir_all(dir.path().join(CACHE_DIR).join(STORE_FILE)).unwrap();
        let (mut cache, why) = Cache::load_or_why(dir.path());
        let why = why.expect("a warning").to_string();
        assert!(why.contains("makes every file again"), "{why}");
        let mut warning = None;
        cache.finish(dir.path(), true, &mut warning);
        let warning = warning.expect("a warning").to_string();
        assert!(
            warning.contains("cannot write the build cache"),
            "{warning}"
        );
        // None at all is no warning: a first build.
        let empty = tempfile::tempdir().unwrap();
        assert!(Cache::load_or_why(empty.path()).1.is_none());
    }

    #[test]
    fn pieces_are_length_prefixed() {
        let mut a = Hasher::new("t");
        a.str("ab").str("c");
        let mut b = Hasher::new("t");
        b.str("a").str("bc");
        assert_ne!(a.finish(), b.finish());
    }

    #[test]
    fn a_tree_key_follows_content_names_and_skips() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p/img")).unwrap();
        std::fs::write(dir.path().join("p/en.md"), "one").unwrap();
        std::fs::write(dir.path().join("p/pt.md"), "um").unwrap();
        std::fs::write(dir.path().join("p/img/a.png"), "png").unwrap();
        let key = |skip: &dyn Fn(&str) -> bool| {
            let mut h = Hasher::new("t");
            hash_tree(&mut h, &dir.path().join("p"), skip);
            h.finish()
        };
        let skip_pt = |rel: &str| rel == "pt.md";
        let before = key(&skip_pt);
        assert_eq!(before, key(&skip_pt), "the same files give the same key");
        std::fs::write(dir.path().join("p/pt.md"), "dois").unwrap();
        assert_eq!(
            before,
            key(&skip_pt),
            "a skipped file's content is not read"
        );
        std::fs::write(dir.path().join("p/img/a.png"), "png2").unwrap();
        let after = key(&skip_pt);
        assert_ne!(before, after, "a nested file's content counts");
        std::fs::write(dir.path().join("p/es.md"), "x").unwrap();
        assert_ne!(after, key(&skip_pt), "a new file counts");
    }

    /// The regression: a FIFO in a post folder blocked the build forever,
    /// read to hash it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_named_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("en.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        let mut h = Hasher::new("t");
        hash_tree(&mut h, dir.path(), &|_| false);
        assert_eq!(file_key(&fifo), file_key(&dir.path().join("missing")));
    }

    /// The regression: a FIFO in place of the store made `stoa build`
    /// wait for a writer forever.
    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_store_is_no_store() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_path(dir.path());
        std::fs::create_dir_all(store.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&store).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        assert!(read_store_or_why(dir.path()).is_err(), "not read, and said");
    }

    fn made(out: &Path, key: &str, file: &str) -> Made {
        let path = out.join(file);
        Made::new(out, key.into(), path.clone(), 1, &[path], Vec::new(), None).unwrap()
    }

    #[test]
    fn an_artifact_is_fresh_only_with_its_key_and_its_files_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join("a.epub"), "bytes").unwrap();
        let m = made(out, "k1", "a.epub");
        assert!(m.fresh(out, "k1"));
        assert!(!m.fresh(out, "k2"), "another key");
        std::fs::write(out.join("a.epub"), "other bytes").unwrap();
        assert!(!m.fresh(out, "k1"), "changed by hand");
        let m = made(out, "k1", "a.epub");
        std::fs::remove_file(out.join("a.epub")).unwrap();
        assert!(!m.fresh(out, "k1"), "removed");
    }

    #[test]
    fn the_store_survives_a_round_trip_and_a_corrupt_one_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join("a.epub"), "bytes").unwrap();
        let mut cache = Cache::load_or_why(out).0;
        let m = made(out, "k1", "a.epub");
        cache.set_artifact("b/en/epub".into(), Some(m));
        cache.finish(out, true, &mut None);
        let again = Cache::load_or_why(out).0;
        assert!(again.artifact("b/en/epub").unwrap().fresh(out, "k1"));
        for junk in [&b"{not json"[..], b"", b"{\"version\": 99}", &[0xff, 0xfe]] {
            std::fs::write(store_path(out), junk).unwrap();
            assert!(Cache::load_or_why(out).0.artifact("b/en/epub").is_none());
        }
        // A folder where the store should be: unreadable, and no panic when
        // writing over it either.
        std::fs::remove_file(store_path(out)).unwrap();
        std::fs::create_dir_all(store_path(out)).unwrap();
        let mut cache = Cache::load_or_why(out).0;
        assert!(cache.artifact("b/en/epub").is_none());
        cache.finish(out, true, &mut None);
    }

    #[test]
    fn an_edition_key_changes_with_its_images() {
        let dir = tempfile::tempdir().unwrap();
        let img = dir.path().join("a.png");
        std::fs::write(&img, "one").unwrap();
        let mut cache = Cache::default();
        let key = cache.set_edition(
            "b/en".into(),
            "base".into(),
            vec![img.clone()],
            Vec::new(),
            vec!["a".into()],
        );
        assert_eq!(cache.edition_key("b/en", "base"), Some(key.clone()));
        assert_eq!(cache.edition_slugs("b/en", "base"), Some(&["a".into()][..]));
        assert_eq!(cache.edition_key("b/en", "other"), None);
        assert_eq!(cache.edition_slugs("b/en", "other"), None);
        std::fs::write(&img, "two").unwrap();
        assert_eq!(cache.edition_key("b/en", "base"), None);
        assert_eq!(cache.edition_slugs("b/en", "base"), None);
    }

    #[test]
    fn memory_not_used_by_the_last_build_is_evicted() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = Cache::load_or_why(dir.path()).0;
        cache.set_page_map("p1".into(), PageMap::default());
        cache.set_page_map("p2".into(), PageMap::default());
        cache.finish(dir.path(), true, &mut None);
        assert_eq!(cache.held(), 2, "used by the build just finished");
        assert!(cache.page_map("p1").is_some());
        cache.finish(dir.path(), true, &mut None);
        assert_eq!(cache.held(), 1, "p2 went unused");
        cache.finish(dir.path(), true, &mut None);
        assert_eq!(cache.held(), 0);
    }
}
