//! An edition's files, all or nothing: each format of an edition is written
//! beside its place in the output folder (temporary names, same file
//! system) and the edition's files are moved into place together once
//! every format of it is made; an edition with a failed format keeps every
//! file the last build left. The download page, written after the moves,
//! then lists the files in place (see `crate::site`).

use crate::output::{cannot_write, put_file, put_folder, size_on_disk, stage_body, stage_folder};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use stoa_doc::Diagnostic;
use stoa_render::Body;

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
    /// Stages `body` for `path` unless the file there already holds it
    /// (and `rewrite` is off); whether it was staged, and the file's size.
    /// What an earlier format of this build staged for the same path is
    /// dropped: the last one made is the one that goes into place.
    pub(crate) fn file(
        &self,
        path: &Path,
        body: &Body,
        rewrite: bool,
    ) -> Result<(bool, u64), Vec<Diagnostic>> {
        // Bytes that are only known by writing them are written first,
        // then compared with the file in place.
        let known = body.known_len().is_some();
        let unchanged = || !rewrite && known && body.is_in(path);
        let same = |temp: &Path| !rewrite && !known && Body::File(temp.to_owned()).is_in(path);
        self.stage(path, false, unchanged, || stage_body(path, body), same)
    }

    /// Stages the folder `files` for `path` unless the folder there holds
    /// exactly them (and `rewrite` is off); whether it was staged, and the
    /// size of its files.
    pub(crate) fn folder(
        &self,
        path: &Path,
        files: &[(String, Body)],
        rewrite: bool,
    ) -> Result<(bool, u64), Vec<Diagnostic>> {
        let unchanged = || !rewrite && crate::output::folder_holds(path, files);
        self.stage(
            path,
            true,
            unchanged,
            || stage_folder(path, files),
            |_| false,
        )
    }

    /// Drops what was staged for `path`, then stages what `write` makes
    /// unless `unchanged` says the place already holds it, or `same` says
    /// so of what was written.
    fn stage(
        &self,
        path: &Path,
        folder: bool,
        unchanged: impl FnOnce() -> bool,
        write: impl FnOnce() -> std::io::Result<PathBuf>,
        same: impl FnOnce(&Path) -> bool,
    ) -> Result<(bool, u64), Vec<Diagnostic>> {
        let _writing = crate::guard::writing();
        self.drop_target(path);
        if unchanged() {
            return Ok((false, size_on_disk(path)));
        }
        let temp = write().map_err(|e| vec![cannot_write(path, &e)])?;
        let staged = Staged {
            temp,
            target: path.to_path_buf(),
            folder,
        };
        let size = size_on_disk(&staged.temp);
        if same(&staged.temp) {
            staged.remove();
            return Ok((false, size));
        }
        self.lock().push(staged);
        Ok((true, size))
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

    fn body(bytes: &[u8]) -> Body {
        Body::from(bytes.to_vec())
    }

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
        assert!(stage.file(&pdf, &body(b"new pdf"), false).unwrap().0);
        let files = vec![("index.html".to_string(), body(b"page"))];
        assert!(stage.folder(&web, &files, false).unwrap().0);
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
        stage.file(&epub, &body(b"new"), false).unwrap();
        let files = vec![("index.html".to_string(), body(b"page"))];
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
        assert!(stage.file(&epub, &body(b"early"), false).unwrap().0);
        assert!(!stage.file(&epub, &body(b"on disk"), false).unwrap().0);
        assert!(stage.targets().is_empty());
        stage.commit().unwrap();
        assert_eq!(std::fs::read(&epub).unwrap(), b"on disk");
        assert_eq!(names(dir.path()), ["b-en.epub"]);
    }

    #[test]
    fn a_folder_path_that_leaves_the_folder_is_refused_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let stage = Stage::default();
        let files = vec![("../escape.html".to_string(), body(b"x"))];
        assert!(stage.folder(&dir.path().join("en"), &files, false).is_err());
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn bytes_known_only_by_writing_them_are_compared_once_written() {
        let dir = tempfile::tempdir().unwrap();
        let pdf = dir.path().join("b-en.pdf");
        std::fs::write(&pdf, "streamed").unwrap();
        let stage = Stage::default();
        let same = Body::Written(Box::new(|w| w.write_all(b"streamed")));
        assert_eq!(stage.file(&pdf, &same, false).unwrap(), (false, 8));
        assert_eq!(names(dir.path()), ["b-en.pdf"], "the written copy is gone");
        let other = Body::Written(Box::new(|w| w.write_all(b"streamed again")));
        assert_eq!(stage.file(&pdf, &other, false).unwrap(), (true, 14));
        stage.commit().unwrap();
        assert_eq!(std::fs::read(&pdf).unwrap(), b"streamed again");
    }
}
