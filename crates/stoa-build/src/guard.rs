//! One build at a time per output folder, and nothing of an interrupted build
//! left behind: the lock on the output folder, the removal of stoa's own
//! temporary files, and the gate that lets a signal handler stop every write
//! at a safe point.
//!
//! Signals are a matter of the whole process, so the little state kept here
//! is process-wide: which output folder this process holds locked, and a gate
//! that every write of an artifact passes through.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock, RwLockReadGuard};
use stoa_doc::Diagnostic;

/// The lock file's name, inside the output folder. It exists only while a
/// build runs.
pub const LOCK_FILE: &str = ".stoa-lock";

/// The output folder this process holds locked, if any, for the signal
/// handler to clean.
static LOCKED: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Every write of an artifact holds this for reading; [`interrupt`] takes it
/// for writing, so that no rename is cut in half (a web edition is swapped in
/// with two renames) and no write starts after it.
static WRITES: RwLock<()> = RwLock::new(());

/// Held while one artifact is written.
pub(crate) fn writing() -> RwLockReadGuard<'static, ()> {
    WRITES.read().unwrap_or_else(|e| e.into_inner())
}

/// A lock on an output folder, held for a whole build: an advisory lock
/// (`flock`) on `<out>/.stoa-lock`, which holds the builder's process id.
/// Dropping it removes the file, and the folder too when the build created
/// it and left it empty.
#[derive(Debug)]
pub struct OutputLock {
    file: Option<File>,
    path: PathBuf,
    out_dir: PathBuf,
    created_dir: bool,
}

impl OutputLock {
    /// Locks `out_dir` (created when missing). When another process holds
    /// it, the error names the folder and that process.
    pub fn acquire(out_dir: &Path) -> Result<OutputLock, Diagnostic> {
        Self::acquire_then(out_dir, None)
    }

    /// Like [`OutputLock::acquire`], but when another build holds the
    /// folder, tells `waiting` who (a warning) and waits for it to finish:
    /// `stoa watch` never drops an edit because a build was under way.
    pub fn acquire_waiting(
        out_dir: &Path,
        waiting: &dyn Fn(&Diagnostic),
    ) -> Result<OutputLock, Diagnostic> {
        Self::acquire_then(out_dir, Some(waiting))
    }

    fn acquire_then(
        out_dir: &Path,
        waiting: Option<&dyn Fn(&Diagnostic)>,
    ) -> Result<OutputLock, Diagnostic> {
        let mut told = false;
        let created_dir = !out_dir.exists();
        let create = || {
            std::fs::create_dir_all(out_dir).map_err(|e| {
                Diagnostic::error(format!(
                    "cannot create the output folder {}: {e}",
                    out_dir.display()
                ))
                .with_hint("choose another folder with --out, or fix its permissions")
            })
        };
        let path = out_dir.join(LOCK_FILE);
        let cannot = |e: std::io::Error| {
            Diagnostic::error(format!("cannot lock {}: {e}", path.display()))
                .with_hint("check the permissions of the output folder, or use another --out")
        };
        // The file is removed when a build ends, so the one opened may be
        // removed between opening and locking; then open the new one. Two
        // tries settle any race but a build finishing in a loop.
        for _ in 0..8 {
            // Again after a wait: the build waited for removes the folder
            // it created if it leaves it empty.
            create()?;
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(cannot)?;
            match (file.try_lock(), waiting) {
                (Ok(()), _) => {}
                (Err(TryLockError::WouldBlock), None) => return Err(busy(out_dir, &mut file)),
                (Err(TryLockError::WouldBlock), Some(tell)) => {
                    if !told {
                        tell(&waiting_for(out_dir, &mut file));
                        told = true;
                    }
                    file.lock().map_err(cannot)?;
                }
                (Err(TryLockError::Error(e)), _) => return Err(cannot(e)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            let pid = std::process::id().to_string();
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| file.write_all(pid.as_bytes()))
                .map_err(cannot)?;
            *LOCKED.lock().unwrap_or_else(|e| e.into_inner()) = Some(out_dir.to_path_buf());
            return Ok(OutputLock {
                file: Some(file),
                path,
                out_dir: out_dir.to_path_buf(),
                created_dir,
            });
        }
        Err(cannot(std::io::Error::other(
            "the lock file keeps being replaced",
        )))
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        *LOCKED.lock().unwrap_or_else(|e| e.into_inner()) = None;
        // Removed while still locked, so that a build waiting on this very
        // file sees it replaced (see `same_file`) rather than sharing it.
        let _ = std::fs::remove_file(&self.path);
        drop(self.file.take());
        if self.created_dir {
            // Only succeeds when empty: a failed first build leaves no folder.
            let _ = std::fs::remove_dir(&self.out_dir);
        }
    }
}

/// The build that holds the lock `file`, by its process id if it wrote one.
fn holder(file: &mut File) -> String {
    let mut pid = String::new();
    let _ = file.read_to_string(&mut pid);
    match pid.trim().parse::<u32>() {
        Ok(pid) => format!("another stoa build (process {pid})"),
        Err(_) => "another stoa build".to_string(),
    }
}

/// The warning while waiting for a folder another build holds.
fn waiting_for(out_dir: &Path, file: &mut File) -> Diagnostic {
    Diagnostic::warning(format!(
        "{} is writing into {}; this build starts when it ends",
        holder(file),
        out_dir.display()
    ))
}

/// The error for a folder another build holds, naming its process.
fn busy(out_dir: &Path, file: &mut File) -> Diagnostic {
    let who = holder(file);
    Diagnostic::error(format!(
        "{who} is writing into {}; two builds into one folder would mix their files",
        out_dir.display()
    ))
    .with_hint("wait for it to finish, or build into another folder with --out")
}

/// Whether the open `file` is still the one at `path`.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// Whether `name` is one of stoa's own temporary files or folders: what
/// `tempfile` makes with the prefixes stoa uses (`.stoa-XXXXXX.tmp` for an
/// artifact, `.stoa-XXXXXX` for a web edition being staged, `.stoa-old-XXXXXX`
/// for the one it replaces, `.stoa-site-XXXXXX` for the download page).
pub fn is_leftover(name: &str) -> bool {
    let random = |s: &str| s.len() == 6 && s.bytes().all(|b| b.is_ascii_alphanumeric());
    let Some(rest) = name.strip_prefix(".stoa-") else {
        return false;
    };
    let named = rest
        .strip_prefix("old-")
        .or_else(|| rest.strip_prefix("site-"));
    if named.is_some_and(random) {
        return true;
    }
    random(rest.strip_suffix(".tmp").unwrap_or(rest))
}

/// Removes stoa's temporary files and folders from `out_dir` and from each
/// book folder in it (where they are made); returns what was removed.
pub fn remove_leftovers(out_dir: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let mut dirs = vec![out_dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(out_dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir())
                && !is_leftover(&entry.file_name().to_string_lossy())
            {
                dirs.push(entry.path());
            }
        }
    }
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if !is_leftover(&entry.file_name().to_string_lossy()) {
                continue;
            }
            let path = entry.path();
            let gone = match entry.file_type() {
                Ok(t) if t.is_dir() => std::fs::remove_dir_all(&path),
                _ => std::fs::remove_file(&path),
            };
            if gone.is_ok() {
                removed.push(path);
            }
        }
    }
    removed.sort();
    removed
}

/// For a signal handler: waits for the writes under way to finish and keeps
/// any other from starting, then removes the temporary files of the output
/// folder this process builds into, and its lock file. The caller exits
/// next; the gate stays closed until then.
pub fn interrupt() {
    let gate = WRITES.write().unwrap_or_else(|e| e.into_inner());
    let locked = LOCKED.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(out_dir) = locked {
        remove_leftovers(&out_dir);
        let _ = std::fs::remove_file(out_dir.join(LOCK_FILE));
    }
    // Never reopened: the process is about to exit.
    std::mem::forget(gate);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_stoas_own_temporary_names_are_leftovers() {
        for name in [
            ".stoa-a1B2c3.tmp",
            ".stoa-a1B2c3",
            ".stoa-old-Zz9yY8",
            ".stoa-site-000000",
        ] {
            assert!(is_leftover(name), "{name}");
        }
        for name in [
            ".stoa-lock",
            "book.epub",
            ".stoa-.tmp",
            ".stoa-abc.tmp",
            ".stoa-abcdefg.tmp",
            "stoa-a1B2c3.tmp",
            ".stoa-a1B2c3.epub",
        ] {
            assert!(!is_leftover(name), "{name}");
        }
    }

    #[test]
    fn leftovers_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::create_dir_all(out.join("book/.stoa-Ab12Cd/en")).unwrap();
        std::fs::write(out.join("book/.stoa-Ab12Cd/en/index.html"), "x").unwrap();
        std::fs::write(out.join("book/.stoa-Xy98Zw.tmp"), "x").unwrap();
        std::fs::write(out.join(".stoa-site-Qw12Er"), "x").unwrap();
        std::fs::write(out.join("book/book-en.epub"), "x").unwrap();
        std::fs::write(out.join("index.html"), "x").unwrap();
        let removed = remove_leftovers(out);
        assert_eq!(removed.len(), 3, "{removed:?}");
        let mut left: Vec<_> = walk(out);
        left.sort();
        assert_eq!(left, ["book/book-en.epub", "index.html"]);
    }

    fn walk(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                if e.file_type().unwrap().is_dir() {
                    stack.push(e.path());
                } else {
                    let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        out
    }

    #[test]
    fn a_second_lock_names_the_first_process() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        let first = OutputLock::acquire(&out).unwrap();
        let second = OutputLock::acquire(&out).unwrap_err().to_string();
        assert!(
            second.contains(&format!("process {}", std::process::id()))
                && second.contains(&out.display().to_string()),
            "{second}"
        );
        drop(first);
        assert!(!out.exists(), "an empty folder the build made is removed");
        let again = OutputLock::acquire(&out).unwrap();
        assert!(out.join(LOCK_FILE).is_file());
        drop(again);
    }
}
