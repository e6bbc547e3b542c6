//! What a build made, as the cache will remember it: each step that makes
//! something returns its part of the ledger, the driver adds the parts
//! together, and the cache takes the whole ledger once, after the last step
//! ([`Cache::commit`](crate::cache::Cache::commit)). Until then the cache
//! is only read, so what a step sees of it never depends on what another
//! step of the same build made.

use crate::keys::{Key, file_key, full_edition_key, mtime};
use crate::report::Artifact;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use stoa_doc::Diagnostic;
use stoa_render::PageMap;

/// The records of one build, in the order they were made.
#[derive(Default)]
pub(crate) struct Ledger {
    /// Each loaded edition's inputs, by edition id.
    pub(crate) editions: Vec<(String, EditionInput)>,
    /// Each artifact made, by artifact id; `None` when its files were gone
    /// before they could be stamped (the next build makes it again).
    pub(crate) artifacts: Vec<(String, Option<Made>)>,
    /// The page maps the paged formats made: the PDF's key, the edition id.
    pub(crate) page_maps: Vec<(Key, String, PageMap)>,
    /// The covers of the build cache each edition uses, by
    /// `<book>/<lang>/<use>`.
    pub(crate) covers: Vec<(String, Key)>,
    /// The thumbnails drawn, by edition id.
    pub(crate) thumbnails: Vec<(String, Option<Made>)>,
    /// The download page: `Some(None)` when it was replaced by one the
    /// cache must not trust (a partial or failed build), `None` when this
    /// build left it alone.
    pub(crate) site: Option<Option<Made>>,
    /// After a build of every book in every language: the editions that
    /// exist. The cache forgets the others, and the covers no edition uses
    /// may go.
    pub(crate) complete: Option<HashSet<String>>,
}

impl Ledger {
    /// Adds what a later step made.
    pub(crate) fn extend(&mut self, later: Ledger) {
        self.editions.extend(later.editions);
        self.artifacts.extend(later.artifacts);
        self.page_maps.extend(later.page_maps);
        self.covers.extend(later.covers);
        self.thumbnails.extend(later.thumbnails);
        if later.site.is_some() {
            self.site = later.site;
        }
        if later.complete.is_some() {
            self.complete = later.complete;
        }
    }
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
    /// The key of its files before loading ([`edition_base_key`](crate::keys::edition_base_key)).
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

impl EditionInput {
    /// The record of an edition whose files hash to `base` and that, once
    /// loaded, read `extra` as well (each file keyed now).
    pub(crate) fn new(
        base: Key,
        extra: Vec<PathBuf>,
        warnings: Vec<Diagnostic>,
        slugs: Vec<String>,
    ) -> EditionInput {
        let mut extra: Vec<(PathBuf, Key)> = extra
            .into_iter()
            .map(|p| {
                let k = file_key(&p);
                (p, k)
            })
            .collect();
        extra.sort();
        extra.dedup();
        EditionInput {
            base,
            extra,
            warnings,
            slugs,
        }
    }

    /// The edition's full key: its files and what else it read.
    pub(crate) fn full_key(&self) -> Key {
        full_edition_key(&self.base, &self.extra)
    }

    /// The full key, when the edition's files still hash to `base` and
    /// what else it read is unchanged.
    pub(crate) fn current_key(&self, base: &str) -> Option<Key> {
        if self.base != base {
            return None;
        }
        let extra: Vec<(PathBuf, Key)> = self
            .extra
            .iter()
            .map(|(p, _)| (p.clone(), file_key(p)))
            .collect();
        (extra == self.extra).then(|| full_edition_key(base, &extra))
    }

    /// Its chapters' slugs, sorted.
    pub(crate) fn slugs(&self) -> &[String] {
        &self.slugs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
