//! The fonts installed on the machine, for a book that asks for them
//! (`[fonts] system = true`): the faces for the scripts the embedded fonts
//! lack (CJK, Devanagari, …), as typst-cli offers. Found once per process
//! in the usual font folders, in path order (so that one machine always
//! gives the same book); each file is read to know what it holds, and read
//! again only when a document uses one of its faces.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use typst::foundations::Bytes;
use typst::text::{Font, FontInfo};

/// How deep the search goes below a font folder.
const MAX_DEPTH: usize = 8;

/// Faces a collection file may hold, at most.
const MAX_FACES: u32 = 256;

/// One face of an installed font file.
pub(crate) struct SystemFace {
    path: PathBuf,
    index: u32,
    info: FontInfo,
    font: OnceLock<Option<Font>>,
}

impl SystemFace {
    /// What Typst reads of the face to choose fonts.
    pub(crate) fn info(&self) -> &FontInfo {
        &self.info
    }

    /// The face, read from its file on first use.
    pub(crate) fn font(&self) -> Option<Font> {
        self.font
            .get_or_init(|| {
                let data = std::fs::read(&self.path).ok()?;
                Font::new(Bytes::new(data), self.index)
            })
            .clone()
    }
}

/// Every face installed on the machine, found once per process.
pub(crate) fn faces() -> &'static [SystemFace] {
    static FACES: OnceLock<Vec<SystemFace>> = OnceLock::new();
    FACES.get_or_init(|| font_files().iter().flat_map(|p| read_faces(p)).collect())
}

/// The machine's font files, in path order (so that one machine always
/// gives the same book).
fn font_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in folders() {
        collect(&dir, 0, &mut files);
    }
    files.sort();
    files.dedup();
    files
}

/// The machine's font files as the build cache knows them: each path,
/// size and time, listed once per process and never read.
pub(crate) fn stamp() -> &'static str {
    static STAMP: OnceLock<String> = OnceLock::new();
    STAMP.get_or_init(|| {
        let mut stamp = String::new();
        for file in font_files() {
            let Ok(meta) = std::fs::metadata(&file) else {
                continue;
            };
            let time = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            stamp.push_str(&format!("{} {} {time}\n", file.display(), meta.len()));
        }
        stamp
    })
}

/// The environment variable that names the folders to look in instead
/// (a path list, as `PATH`; empty: none), for CI and packagers who want a
/// build that does not depend on what the machine has.
pub(crate) const FOLDERS_VAR: &str = "STOA_SYSTEM_FONT_DIRS";

/// The folders where systems keep fonts, for everyone and for the user;
/// those of `STOA_SYSTEM_FONT_DIRS` when it is set.
fn folders() -> Vec<PathBuf> {
    if let Some(list) = std::env::var_os(FOLDERS_VAR) {
        return std::env::split_paths(&list)
            .filter(|p| !p.as_os_str().is_empty())
            .collect();
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut dirs: Vec<PathBuf> = [
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "/System/Library/Fonts",
        "/Library/Fonts",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Some(data) = std::env::var_os("XDG_DATA_HOME") {
        dirs.push(PathBuf::from(data).join("fonts"));
    }
    if let Some(home) = home {
        dirs.push(home.join(".local/share/fonts"));
        dirs.push(home.join(".fonts"));
        dirs.push(home.join("Library/Fonts"));
    }
    if let Some(windows) = std::env::var_os("WINDIR") {
        dirs.push(PathBuf::from(windows).join("Fonts"));
    }
    if let Some(local) = std::env::var_os("LOCALAPPDATA") {
        dirs.push(PathBuf::from(local).join("Microsoft/Windows/Fonts"));
    }
    dirs
}

/// The font files below `dir` (folders followed only as real folders, so
/// that a link loop ends).
fn collect(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && depth < MAX_DEPTH {
            collect(&path, depth + 1, files);
        } else if crate::fonts::is_font_file(&path) && path.is_file() {
            files.push(path);
        }
    }
}

/// The faces of one file (a collection holds several).
pub(crate) fn read_faces(path: &Path) -> Vec<SystemFace> {
    let Ok(data) = std::fs::read(path) else {
        return Vec::new();
    };
    (0..MAX_FACES)
        .map_while(|index| {
            FontInfo::new(&data, index).map(|info| SystemFace {
                path: path.to_path_buf(),
                index,
                info,
                font: OnceLock::new(),
            })
        })
        .collect()
}
