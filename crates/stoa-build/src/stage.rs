//! An edition's files, all or nothing: each format of an edition is written
//! beside its place in the output folder (temporary names, same file
//! system) and the edition's files are moved into place together once
//! every format of it is made; an edition with a failed format keeps every
//! file the last build left. The download page, written after the moves,
//! then lists the files in place (see `crate::site`).

use crate::output::{cannot_write, put_file, put_folder, stage_file, stage_folder};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use stoa_doc::Diagnostic;

/// One file or folder written under a temporary name, and its place.
#[derive(Debug)]
struct Staged {
    temp: PathBuf,
    target: PathBuf,
    folder: bool,
}

impl Staged {
    fn remove(&self) {
        let _ = if self.folder {
            std::fs::remove_dir_all(&self.temp)
        } else {
            std::fs::remove_file(&self.temp)
        };
    }
}

/// The files one edition's formats made, waiting to be moved into place.
/// Dropped without [`Stage::commit`], it removes them.
#[derive(Debug, Default)]
pub(crate) struct Stage {
    staged: Mutex<Vec<Staged>>,
}

impl Stage {
    /// Stages `bytes` for `path` unless the file there already holds them
    /// (and `rewrite` is off); true when staged. What an earlier format of
    /// this build staged for the same path is dropped: the last one made
    /// is the one that goes into place.
    pub(crate) fn file(
        &self,
        path: &Path,
        bytes: &[u8],
        rewrite: bool,
    ) -> Result<bool, Vec<Diagnostic>> {
        let unchanged = || !rewrite && crate::output::holds(path, bytes);
        self.stage(path, false, unchanged, || stage_file(path, bytes))
    }

    /// Stages the folder `files` for `path` unless the folder there holds
    /// exactly them (and `rewrite` is off); true when staged.
    pub(crate) fn folder(
        &self,
        path: &Path,
        files: &[(String, Vec<u8>)],
        rewrite: bool,
    ) -> Result<bool, Vec<Diagnostic>> {
        let unchanged = || !rewrite && crate::output::folder_holds(path, files);
        self.stage(path, true, unchanged, || stage_folder(path, files))
    }

    /// Drops what was staged for `path`, then stages what `write` makes
    /// unless `unchanged` says the place already holds it.
    fn stage(
        &self,
        path: &Path,
        folder: bool,
        unchanged: impl FnOnce() -> bool,
        write: impl FnOnce() -> std::io::Result<PathBuf>,
    ) -> Result<bool, Vec<Diagnostic>> {
        let _writing = crate::guard::writing();
        self.drop_target(path);
        if unchanged() {
            return Ok(false);
        }
        let temp = write().map_err(|e| vec![cannot_write(path, &e)])?;
        self.lock().push(Staged {
            temp,
            target: path.to_path_buf(),
            folder,
        });
        Ok(true)
    }

    /// The places this stage will fill.
    pub(crate) fn targets(&self) -> Vec<PathBuf> {
        self.lock().iter().map(|s| s.target.clone()).collect()
    }

    /// Moves every staged file into place, in the order staged; an
    /// interrupting signal waits until all are moved. A move that fails
    /// (rare: the same file system) is an error, and what was not moved yet
    /// is removed.
    pub(crate) fn commit(self) -> Result<(), Diagnostic> {
        let _writing = crate::guard::writing();
        let staged = std::mem::take(&mut *self.lock());
        let mut failed = None;
        for item in staged {
            if failed.is_some() {
                item.remove();
                continue;
            }
            let moved = if item.folder {
                put_folder(&item.temp, &item.target)
            } else {
                put_file(&item.temp, &item.target)
            };
            if let Err(e) = moved {
                item.remove();
                failed = Some(Diagnostic::error(format!(
                    "cannot move {} into place: {e}",
                    item.target.display()
                )));
            }
        }
        failed.map_or(Ok(()), Err)
    }

    /// Forgets (and removes) what was staged for `target`.
    fn drop_target(&self, target: &Path) {
        self.lock().retain(|s| {
            let other = s.target != target;
            if !other {
                s.remove();
            }
            other
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Staged>> {
        self.staged.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        for item in self.lock().drain(..) {
            item.remove();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn nothing_moves_until_the_commit_and_then_everything_does() {
        let dir = tempfile::tempdir().unwrap();
        let (pdf, web) = (dir.path().join("b-en.pdf"), dir.path().join("en"));
        std::fs::write(&pdf, "old pdf").unwrap();
        let stage = Stage::default();
        assert!(stage.file(&pdf, b"new pdf", false).unwrap());
        let files = vec![("index.html".to_string(), b"page".to_vec())];
        assert!(stage.folder(&web, &files, false).unwrap());
        assert_eq!(std::fs::read(&pdf).unwrap(), b"old pdf");
        assert!(!web.exists());
        stage.commit().unwrap();
        assert_eq!(std::fs::read(&pdf).unwrap(), b"new pdf");
        assert_eq!(std::fs::read(web.join("index.html")).unwrap(), b"page");
        assert_eq!(names(dir.path()), ["b-en.pdf", "en"]);
    }

    #[test]
    fn a_stage_dropped_without_commit_leaves_the_old_files_and_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let epub = dir.path().join("b-en.epub");
        std::fs::write(&epub, "old").unwrap();
        let stage = Stage::default();
        stage.file(&epub, b"new", false).unwrap();
        let files = vec![("index.html".to_string(), b"page".to_vec())];
        stage.folder(&dir.path().join("en"), &files, false).unwrap();
        assert_eq!(names(dir.path()).len(), 3, "two staged beside the old");
        drop(stage);
        assert_eq!(names(dir.path()), ["b-en.epub"]);
        assert_eq!(std::fs::read(&epub).unwrap(), b"old");
    }

    #[test]
    fn the_last_version_staged_for_a_place_wins_even_when_it_is_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let epub = dir.path().join("b-en.epub");
        std::fs::write(&epub, "on disk").unwrap();
        let stage = Stage::default();
        // Made first with an older page map, then again with the same
        // bytes as on disk: nothing is to change.
        assert!(stage.file(&epub, b"early", false).unwrap());
        assert!(!stage.file(&epub, b"on disk", false).unwrap());
        assert!(stage.targets().is_empty());
        stage.commit().unwrap();
        assert_eq!(std::fs::read(&epub).unwrap(), b"on disk");
        assert_eq!(names(dir.path()), ["b-en.epub"]);
    }

    #[test]
    fn a_folder_path_that_leaves_the_folder_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let stage = Stage::default();
        let files = vec![("../escape.html".to_string(), b"x".to_vec())];
        assert!(stage.folder(&dir.path().join("en"), &files, false).is_err());
        assert!(names(dir.path()).is_empty());
    }
}
