//! Writing artifacts so that a reader of dist/ never sees half a file.

use std::io::Write;
use std::path::{Path, PathBuf};
use stoa_render::Body;

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk and
/// renames it over `path`. On any failure the old file is untouched and the
/// temporary file is removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // An interrupting signal waits for this write to finish (see `guard`).
    let _writing = crate::guard::writing();
    let staged = stage_file(path, bytes)?;
    put_file(&staged, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&staged);
    })
}

/// Writes `bytes` to a new temporary file beside `path` (a leftover's name,
/// see `guard::is_leftover`), flushed to disk and readable by all, and
/// returns its path; [`put_file`] moves it into place. On failure nothing
/// is left behind.
pub(crate) fn stage_file(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    stage_written(path, |file| file.write_all(bytes))
}

/// [`stage_file`] for a renderer's [`Body`], streamed into the file.
pub(crate) fn stage_body(path: &Path, body: &Body) -> std::io::Result<PathBuf> {
    stage_written(path, |file| body.write_to(file).map(drop))
}

/// [`stage_file`] with the bytes `write` writes.
fn stage_written(
    path: &Path,
    write: impl FnOnce(&mut dyn stoa_render::Sink) -> std::io::Result<()>,
) -> std::io::Result<PathBuf> {
    if injected_full_disk(path) {
        return Err(std::io::Error::from_raw_os_error(ENOSPC));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".stoa-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    {
        let mut buffered = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        write(&mut buffered)?;
        buffered.flush()?;
    }
    // Temporary files are private; an artifact is for readers.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.as_file().sync_all()?;
    let (_, kept) = tmp.keep().map_err(|e| e.error)?;
    Ok(kept)
}

/// The error for a file or folder of the output that cannot be written.
pub(crate) fn cannot_write(path: &Path, e: &std::io::Error) -> stoa_doc::Diagnostic {
    stoa_doc::Diagnostic::error(format!("cannot write {}: {e}", path.display()))
}

/// `ENOSPC`, "No space left on device": what a full disk answers.
const ENOSPC: i32 = 28;

/// Whether the fault tests asked this write to fail as on a full disk:
/// `STOA_FAULT_FULL_DISK` names the files (by file name, comma-separated)
/// whose writes fail. A real full disk fails whichever write comes when it
/// fills; the tests (tests/testsuite/faults.rs) need it to be one chosen
/// file, every time.
fn injected_full_disk(path: &Path) -> bool {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        std::env::var("STOA_FAULT_FULL_DISK")
            .map(|v| v.split(',').map(str::to_string).collect())
            .unwrap_or_default()
    });
    let name = path.file_name().map(|n| n.to_string_lossy());
    name.is_some_and(|n| names.iter().any(|f| *f == n))
}

/// Moves a file made by [`stage_file`] over `path`: one rename.
pub(crate) fn put_file(staged: &Path, path: &Path) -> std::io::Result<()> {
    std::fs::rename(staged, path)
}

/// Writes `files` into a new temporary folder beside `path` (a leftover's
/// name) and returns it; [`put_folder`] swaps it in. A relative path that
/// would leave the folder is refused before anything is written; on failure
/// nothing is left behind.
pub(crate) fn stage_folder(path: &Path, files: &[(String, Body)]) -> std::io::Result<PathBuf> {
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    for (rel, _) in files {
        check_relative(rel)?;
    }
    let staged = tempfile::Builder::new()
        .prefix(".stoa-")
        .tempdir_in(parent)?;
    for (rel, body) in files {
        let target = staged.path().join(rel);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)?;
        }
        match body {
            // The kernel copies a file without bringing it into memory.
            Body::File(from) => std::fs::copy(from, &target).map(drop)?,
            Body::Bytes(bytes) => std::fs::write(&target, bytes)?,
            Body::Written(_) => {
                let mut file = std::io::BufWriter::new(std::fs::File::create(&target)?);
                body.write_to(&mut file)?;
                file.flush()?;
            }
        }
    }
    #[cfg(unix)]
    publish_permissions(staged.path())?;
    Ok(staged.keep())
}

/// Swaps a folder made by [`stage_folder`] in for `path`: the old folder is
/// parked in a temporary folder (removed with it), then the new one renamed
/// into place; if that fails, the old one goes back.
pub(crate) fn put_folder(staged: &Path, path: &Path) -> std::io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    let old = tempfile::Builder::new()
        .prefix(".stoa-old-")
        .tempdir_in(parent)?;
    let parked = old.path().join("previous");
    let had_old = std::fs::symlink_metadata(path).is_ok();
    if had_old {
        std::fs::rename(path, &parked)?;
    }
    if let Err(e) = std::fs::rename(staged, path) {
        if had_old {
            std::fs::rename(&parked, path)?;
        }
        return Err(e);
    }
    Ok(())
}

fn check_relative(rel: &str) -> std::io::Result<()> {
    let ok = !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
    if ok {
        Ok(())
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("a renderer asked to write `{rel}`, outside its folder"),
        ))
    }
}

/// The first link to a folder found inside `out_dir` (not following
/// links), with where it leads. stoa writes only inside its output folder,
/// and a file written into `dist/<book>/` when that is a link to another
/// place would land there; a link to a file is harmless (a write replaces
/// the link itself). The walk gives up after 100,000 entries: an output
/// folder is stoa's own, and one that large is not walked to the end.
pub fn folder_link_inside(out_dir: &Path) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    const LIMIT: usize = 100_000;
    let mut seen = 0;
    let mut stack = vec![out_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > LIMIT {
                return None;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_symlink() && path.is_dir() {
                let to = std::fs::read_link(&path).unwrap_or_default();
                return Some((path, to));
            }
        }
    }
    None
}

/// Temporary folders are private; a web edition is for readers.
#[cfg(unix)]
fn publish_permissions(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            publish_permissions(&entry.path())?;
        } else {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o644))?;
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
}

/// The size of the file or, for a folder, of every file inside it.
pub(crate) fn size_on_disk(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| size_on_disk(&e.path())).sum())
        .unwrap_or(0)
}

/// Whether the folder at `path` holds exactly `files` (relative,
/// `/`-separated) and nothing else.
pub(crate) fn folder_holds(path: &Path, files: &[(String, Body)]) -> bool {
    let inside = |rel: &str| {
        !rel.is_empty()
            && Path::new(rel)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
    };
    // A path that would leave the folder is for `output::stage_folder` to refuse.
    if !path.is_dir() || !files.iter().all(|(rel, _)| inside(rel)) {
        return false;
    }
    let mut count = 0usize;
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return false;
        };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(entry.path()),
                Ok(t) if t.is_file() => count += 1,
                _ => return false,
            }
        }
    }
    count == files.len() && files.iter().all(|(rel, body)| body.is_in(&path.join(rel)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder staged and swapped in, as `crate::stage` does.
    fn replace_folder(path: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
        let files: Vec<(String, Body)> = files
            .iter()
            .map(|(rel, bytes)| (rel.clone(), Body::from(bytes.clone())))
            .collect();
        let staged = stage_folder(path, &files)?;
        put_folder(&staged, path)
    }

    #[test]
    fn a_folder_is_swapped_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book/en");
        let files = |text: &str| {
            vec![
                ("index.html".to_string(), text.as_bytes().to_vec()),
                ("img/cover.png".to_string(), vec![1, 2]),
            ]
        };
        replace_folder(&path, &files("one")).unwrap();
        std::fs::write(path.join("stale.html"), "old").unwrap();
        replace_folder(&path, &files("two")).unwrap();
        assert_eq!(
            std::fs::read_to_string(path.join("index.html")).unwrap(),
            "two"
        );
        assert!(
            !path.join("stale.html").exists(),
            "nothing of the old folder stays"
        );
        assert!(path.join("img/cover.png").is_file());
        let names: Vec<_> = std::fs::read_dir(dir.path().join("book"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["en"], "no temporary folder is left behind");
    }

    #[test]
    fn a_folder_never_writes_outside_itself() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("en");
        for bad in ["../escape.html", "/etc/x", "", "a/../../b"] {
            let files = vec![(bad.to_string(), b"x".to_vec())];
            assert!(replace_folder(&path, &files).is_err(), "{bad}");
        }
        assert!(!dir.path().join("escape.html").exists());
        assert!(!path.exists());
    }

    #[test]
    fn replaces_the_file_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/out.epub");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.epub"]);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.epub");
        write_atomically(&path, b"good").unwrap();
        // Renaming over a directory fails after the bytes are written.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomically(&blocked, b"new").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"good");
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["blocked", "out.epub"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_folder_inside_the_output_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir_all(out.join("book/en")).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(out.join("book/a.epub"), "x").unwrap();
        // A link to a file is harmless: a write replaces the link.
        std::os::unix::fs::symlink(out.join("book/a.epub"), out.join("book/b.epub")).unwrap();
        assert_eq!(folder_link_inside(&out), None);
        std::os::unix::fs::symlink(&elsewhere, out.join("book/en/web")).unwrap();
        assert_eq!(
            folder_link_inside(&out),
            Some((out.join("book/en/web"), elsewhere.clone()))
        );
    }
}
