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

use crate::keys::{Key, stoa_identity};
use crate::ledger::{EditionInput, Ledger, Made};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
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

/// The cache a build reads, and what a session keeps in memory besides.
/// A build only reads it; what the build made is committed once, at its
/// end, from the build's [`Ledger`] ([`Cache::commit`]).
#[derive(Default)]
pub(crate) struct Cache {
    store: Store,
    /// Page maps by the key of the PDF that made them.
    page_maps: HashMap<Key, PageMap>,
    /// The last page map each edition's PDF made in this session, by
    /// edition id: after an edit, the EPUB and the web edition are made
    /// with it before the PDF, and again only if the new map differs.
    recent_maps: HashMap<String, PageMap>,
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

    /// Takes what a build made (`ledger`) and writes the store into
    /// `out_dir`: the one place the cache changes. A store that cannot be
    /// written is no error, but a warning (in `warning`): the next build is
    /// then a cold one.
    /// After a failed build (`ok` false) the page maps are all kept: the
    /// next build, once the mistake is fixed, still finds them.
    /// Returns, after a complete build that made everything it planned, the
    /// keys of the covers the editions use: the others may go (see
    /// `crate::covers::prune`).
    pub(crate) fn commit(
        &mut self,
        ledger: Ledger,
        out_dir: &Path,
        ok: bool,
        warning: &mut Option<Diagnostic>,
    ) -> Option<HashSet<Key>> {
        let complete = ledger.complete.is_some();
        self.take(ledger, ok);
        // `--force` holds for one build.
        self.rewrite = false;
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

    /// Applies a build's records to the store and to the session's memory.
    fn take(&mut self, ledger: Ledger, ok: bool) {
        let Ledger {
            editions,
            artifacts,
            page_maps,
            covers,
            thumbnails,
            site,
            complete,
        } = ledger;
        self.store.editions.extend(editions);
        put(&mut self.store.artifacts, artifacts);
        for (pdf_key, edition, map) in page_maps {
            self.recent_maps.insert(edition, map.clone());
            self.page_maps.insert(pdf_key, map);
        }
        // An edition that made its images again names all it uses now:
        // those it named before may go.
        let remade: HashSet<&str> = covers
            .iter()
            .filter_map(|(slot, _)| slot.split_once("/image/").map(|(e, _)| e))
            .collect();
        self.store.covers.retain(|slot, _| {
            slot.split_once("/image/")
                .is_none_or(|(edition, _)| !remade.contains(edition))
        });
        self.store.covers.extend(covers);
        put(&mut self.store.thumbnails, thumbnails);
        if let Some(site) = site {
            self.store.site = site;
        }
        if let Some(keep) = &complete {
            self.retain_editions(keep);
        }
        if ok {
            // A map is worth keeping while the PDF that made it is the one
            // in place: the others can never be asked for again.
            let current: HashSet<&Key> = self.store.artifacts.values().map(|m| &m.key).collect();
            self.page_maps.retain(|k, _| current.contains(k));
        }
    }

    /// Forgets the editions, artifacts and thumbnails of editions not in
    /// `keep` (a book or language removed), so the store does not grow.
    fn retain_editions(&mut self, keep: &HashSet<String>) {
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

    pub(crate) fn artifact(&self, id: &str) -> Option<&Made> {
        self.store.artifacts.get(id)
    }

    pub(crate) fn thumbnails(&self, id: &str) -> Option<&Made> {
        self.store.thumbnails.get(id)
    }

    pub(crate) fn site(&self) -> Option<&Made> {
        self.store.site.as_ref()
    }

    /// The full key of an edition whose files hash to `base`, when the
    /// cache knows what else it reads and those files did not change.
    pub(crate) fn edition_key(&self, id: &str, base: &str) -> Option<Key> {
        self.store.editions.get(id)?.current_key(base)
    }

    /// The chapters' slugs of an edition whose record is current (see
    /// [`Cache::edition_key`]).
    pub(crate) fn edition_slugs(&self, id: &str, base: &str) -> Option<&[String]> {
        self.edition_key(id, base)?;
        Some(self.store.editions.get(id)?.slugs())
    }

    pub(crate) fn edition_warnings(&self, id: &str) -> &[Diagnostic] {
        self.store
            .editions
            .get(id)
            .map_or(&[], |e| e.warnings.as_slice())
    }

    /// The page map the PDF of key `pdf_key` made, if a build of this
    /// session kept it.
    pub(crate) fn page_map(&self, pdf_key: &str) -> Option<PageMap> {
        self.page_maps.get(pdf_key).cloned()
    }

    /// The last page map the PDF of edition `id` made in this session.
    pub(crate) fn recent_map(&self, id: &str) -> Option<&PageMap> {
        self.recent_maps.get(id)
    }

    /// How many page maps are held in memory (for tests).
    #[cfg(test)]
    fn held(&self) -> usize {
        self.page_maps.len()
    }
}

/// Records each `(id, made)` in `records`; `None` forgets the id.
fn put(records: &mut BTreeMap<String, Made>, made: Vec<(String, Option<Made>)>) {
    for (id, made) in made {
        match made {
            Some(made) => records.insert(id, made),
            None => records.remove(&id),
        };
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
        cache.commit(Ledger::default(), dir.path(), true, &mut warning);
        let warning = warning.expect("a warning").to_string();
        assert!(
            warning.contains("cannot write the build cache"),
            "{warning}"
        );
        // None at all is no warning: a first build.
        let empty = tempfile::tempdir().unwrap();
        assert!(Cache::load_or_why(empty.path()).1.is_none());
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
    fn the_store_survives_a_round_trip_and_a_corrupt_one_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join("a.epub"), "bytes").unwrap();
        let mut cache = Cache::load_or_why(out).0;
        let m = made(out, "k1", "a.epub");
        let ledger = Ledger {
            artifacts: vec![("b/en/epub".into(), Some(m))],
            ..Ledger::default()
        };
        cache.commit(ledger, out, true, &mut None);
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
        cache.commit(Ledger::default(), out, true, &mut None);
    }

    #[test]
    fn an_edition_key_changes_with_its_images() {
        let dir = tempfile::tempdir().unwrap();
        let img = dir.path().join("a.png");
        std::fs::write(&img, "one").unwrap();
        let mut cache = Cache::default();
        let input = EditionInput::new(
            "base".into(),
            vec![img.clone()],
            Vec::new(),
            vec!["a".into()],
        );
        let key = input.full_key();
        let ledger = Ledger {
            editions: vec![("b/en".into(), input)],
            ..Ledger::default()
        };
        cache.commit(ledger, dir.path(), true, &mut None);
        assert_eq!(cache.edition_key("b/en", "base"), Some(key.clone()));
        assert_eq!(cache.edition_slugs("b/en", "base"), Some(&["a".into()][..]));
        assert_eq!(cache.edition_key("b/en", "other"), None);
        assert_eq!(cache.edition_slugs("b/en", "other"), None);
        std::fs::write(&img, "two").unwrap();
        assert_eq!(cache.edition_key("b/en", "base"), None);
        assert_eq!(cache.edition_slugs("b/en", "base"), None);
    }

    #[test]
    fn a_page_map_is_kept_while_its_pdf_is_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join("b.pdf"), "pdf").unwrap();
        let mut cache = Cache::load_or_why(out).0;
        let build = |pdf_key: &str, maps: &[&str]| Ledger {
            artifacts: vec![("b/en/pdf".into(), Some(made(out, pdf_key, "b.pdf")))],
            page_maps: maps
                .iter()
                .map(|k| (k.to_string(), "b/en".to_string(), PageMap::default()))
                .collect(),
            ..Ledger::default()
        };
        cache.commit(build("p1", &["p1", "p2"]), out, true, &mut None);
        assert_eq!(cache.held(), 1, "p2 made no PDF in place");
        assert!(cache.page_map("p1").is_some());
        assert!(cache.recent_map("b/en").is_some());
        cache.commit(Ledger::default(), out, true, &mut None);
        assert_eq!(
            cache.held(),
            1,
            "a build that left the PDF alone keeps its map"
        );
        cache.commit(build("p3", &["p3"]), out, false, &mut None);
        assert_eq!(cache.held(), 2, "a failed build forgets nothing");
        cache.commit(Ledger::default(), out, true, &mut None);
        assert_eq!(cache.held(), 1, "p1's PDF was replaced");
        assert!(cache.page_map("p3").is_some());
    }
}
