//! Font packs: faces too large to bundle in stoa (CJK), fetched once by
//! `stoa fonts add` into the user's cache and used by every later build.
//!
//! The catalog (`packs.toml`) pins each file by address, size and SHA-256.
//! A pack is downloaded into a temporary folder beside its place, checked
//! file by file, and renamed into place whole: a folder named
//! `<name>-<version>` is a complete pack, and a failed or killed download
//! leaves nothing a build would read.

use sha2::{Digest, Sha256};
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The catalog stoa ships.
const CATALOG: &str = include_str!("packs.toml");

/// The environment variable naming a catalog to read in place of the
/// built-in one (a mirror of one's own; the tests).
pub const CATALOG_VAR: &str = "STOA_FONT_PACK_CATALOG";

/// One pack of the catalog.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    /// What `stoa fonts add` is given: `noto-serif-cjk`.
    pub name: String,
    /// The faces' version.
    pub version: String,
    /// One line on what it holds.
    pub summary: String,
    /// The faces' license.
    pub license: String,
    /// Where the files come from, in words.
    pub source: String,
    /// `serif` or `sans`: which themes' text it suits.
    pub style: String,
    /// Its files.
    #[serde(rename = "file")]
    pub files: Vec<PackFile>,
}

/// One file of a pack, pinned.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackFile {
    /// Its name in the pack's folder (and after `--from`).
    pub name: String,
    /// Where it is downloaded from.
    pub url: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256, in lowercase hex.
    pub sha256: String,
}

impl Pack {
    /// The pack's folder name: `noto-serif-cjk-2.001`.
    pub fn folder_name(&self) -> String {
        format!("{}-{}", self.name, self.version)
    }

    /// Its size to download, in bytes.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Catalog {
    #[serde(rename = "pack")]
    packs: Vec<Pack>,
}

/// The catalog: `STOA_FONT_PACK_CATALOG`'s file when set, else stoa's own.
pub fn catalog() -> Result<Vec<Pack>, PackError> {
    match std::env::var_os(CATALOG_VAR).filter(|v| !v.is_empty()) {
        Some(path) => {
            let path = PathBuf::from(path);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| PackError::Catalog(path.clone(), e.to_string()))?;
            parse_catalog(&text).map_err(|why| PackError::Catalog(path, why))
        }
        None => parse_catalog(CATALOG).map_err(|why| PackError::Catalog("packs.toml".into(), why)),
    }
}

fn parse_catalog(text: &str) -> Result<Vec<Pack>, String> {
    let catalog: Catalog = toml::from_str(text).map_err(|e| e.to_string())?;
    for pack in &catalog.packs {
        for file in &pack.files {
            let plain = !file.name.is_empty()
                && !file.name.starts_with('.')
                && !file.name.contains(['/', '\\']);
            if !plain {
                return Err(format!(
                    "`{}`: `{}` is not a plain file name",
                    pack.name, file.name
                ));
            }
            if file.sha256.len() != 64 || !file.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("`{}`: `{}` has no SHA-256", pack.name, file.name));
            }
        }
    }
    Ok(catalog.packs)
}

/// The folder packs are installed in: `$XDG_CACHE_HOME/stoa/font-packs`,
/// else the user's cache folder (`~/.cache`, `~/Library/Caches`,
/// `%LOCALAPPDATA%`); `None` when the environment names none.
pub fn packs_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let cache = var("XDG_CACHE_HOME").map(PathBuf::from).or_else(|| {
        if cfg!(windows) {
            var("LOCALAPPDATA").map(PathBuf::from)
        } else if cfg!(target_os = "macos") {
            var("HOME").map(|h| PathBuf::from(h).join("Library/Caches"))
        } else {
            var("HOME").map(|h| PathBuf::from(h).join(".cache"))
        }
    })?;
    Some(cache.join("stoa").join("font-packs"))
}

/// A pack installed: its files, in the catalog's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// The pack.
    pub pack: Pack,
    /// Its files.
    pub files: Vec<PathBuf>,
}

/// The pack as installed in `root`, when every file is there with its size.
pub fn installed_in(root: &Path, pack: &Pack) -> Option<Installed> {
    let dir = root.join(pack.folder_name());
    let files: Vec<PathBuf> = pack.files.iter().map(|f| dir.join(&f.name)).collect();
    let whole =
        pack.files.iter().zip(&files).all(|(f, path)| {
            std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == f.size)
        });
    whole.then(|| Installed {
        pack: pack.clone(),
        files,
    })
}

/// Every pack of the catalog installed in the user's folder.
pub fn installed() -> Vec<Installed> {
    let (Some(root), Ok(packs)) = (packs_dir(), catalog()) else {
        return Vec::new();
    };
    packs
        .iter()
        .filter_map(|p| installed_in(&root, p))
        .collect()
}

/// Why a pack was not installed.
#[derive(Debug)]
pub enum PackError {
    /// The catalog could not be read.
    Catalog(PathBuf, String),
    /// No pack of that name.
    Unknown(String, Vec<String>),
    /// A file could not be fetched.
    Fetch {
        /// Its address.
        url: String,
        /// What went wrong.
        why: stoa_fetch::FetchError,
    },
    /// A file is not the one the catalog pins.
    Mismatch {
        /// The file's name.
        file: String,
        /// Where it came from.
        from: String,
        /// How it differs.
        why: String,
    },
    /// The pack's folder could not be written (or `--from` read).
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The system's words.
        why: String,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Catalog(path, why) => {
                write!(
                    f,
                    "the font pack catalog {} cannot be used: {why}",
                    path.display()
                )
            }
            PackError::Unknown(name, known) => {
                write!(
                    f,
                    "no font pack is called `{name}`; the packs are: {}",
                    known.join(", ")
                )
            }
            PackError::Fetch { url, why } => write!(f, "could not download {url}: {why}"),
            PackError::Mismatch { file, from, why } => write!(
                f,
                "`{file}` from {from} is not the file the pack pins: {why}; nothing was installed"
            ),
            PackError::Io { path, why } => write!(f, "{}: {why}", path.display()),
        }
    }
}

/// Where `add` takes the files from.
pub enum Source<'a> {
    /// Each file's own address, with this client.
    Web(&'a stoa_fetch::Client),
    /// `<base>/<file name>`, with this client (a mirror).
    Mirror(&'a stoa_fetch::Client, String),
    /// `<folder>/<file name>` on this machine.
    Folder(PathBuf),
}

/// The pack named `name` of `packs`.
pub fn find<'p>(packs: &'p [Pack], name: &str) -> Result<&'p Pack, PackError> {
    packs.iter().find(|p| p.name == name).ok_or_else(|| {
        PackError::Unknown(
            name.to_string(),
            packs.iter().map(|p| p.name.clone()).collect(),
        )
    })
}

/// Installs `pack` into `root` from `source`, telling `progress` of each
/// file as it starts; an installed pack is left as it is.
pub fn add(
    root: &Path,
    pack: &Pack,
    source: &Source,
    progress: &mut dyn FnMut(&PackFile),
) -> Result<Installed, PackError> {
    if let Some(done) = installed_in(root, pack) {
        return Ok(done);
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| PackError::Io {
            path,
            why: e.to_string(),
        }
    };
    std::fs::create_dir_all(root).map_err(io(root))?;
    remove_abandoned(root, pack);
    let partial = root.join(format!(
        ".partial-{}-{}",
        pack.folder_name(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir(&partial).map_err(io(&partial))?;
    let fetched = pack.files.iter().try_for_each(|file| {
        progress(file);
        fetch_file(file, source, &partial.join(&file.name))
    });
    if let Err(e) = fetched {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(e);
    }
    let dir = root.join(pack.folder_name());
    // Another stoa may have installed it meanwhile: theirs is as good.
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::rename(&partial, &dir) {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(io(&dir)(e));
    }
    installed_in(root, pack).ok_or_else(|| PackError::Io {
        path: dir,
        why: "the pack's folder changed while it was installed".into(),
    })
}

/// Removes the partial downloads of `pack` that a killed `stoa fonts add`
/// left (its process gone), so that they do not pile up in the cache. A
/// process's liveness is read where the system says it (`/proc`); where
/// it does not, they are left.
fn remove_abandoned(root: &Path, pack: &Pack) {
    let prefix = format!(".partial-{}-", pack.folder_name());
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(&prefix)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && gone(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` has ended.
fn gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

/// Removes `pack` from `root`; whether it was there.
pub fn remove(root: &Path, pack: &Pack) -> std::io::Result<bool> {
    let dir = root.join(pack.folder_name());
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Writes `file` from `source` to `to`, checking its size and SHA-256 as
/// it is written.
fn fetch_file(file: &PackFile, source: &Source, to: &Path) -> Result<(), PackError> {
    let io = |e: std::io::Error| PackError::Io {
        path: to.to_path_buf(),
        why: e.to_string(),
    };
    let out = std::fs::File::create(to).map_err(io)?;
    let mut out = Hashing::new(std::io::BufWriter::new(out));
    let from = match source {
        Source::Web(client) => download(client, &file.url, &mut out)?,
        Source::Mirror(client, base) => {
            let url = format!("{}/{}", base.trim_end_matches('/'), file.name);
            download(client, &url, &mut out)?
        }
        Source::Folder(folder) => {
            let path = folder.join(&file.name);
            let mut input = std::fs::File::open(&path).map_err(|e| PackError::Io {
                path: path.clone(),
                why: e.to_string(),
            })?;
            copy_limited(&mut input, &mut out, file.size).map_err(io)?;
            path.display().to_string()
        }
    };
    out.inner.flush().map_err(io)?;
    let mismatch = |why: String| PackError::Mismatch {
        file: file.name.clone(),
        from: from.clone(),
        why,
    };
    if out.len != file.size {
        return Err(mismatch(format!("{} bytes, not {}", out.len, file.size)));
    }
    let sha = hex(&out.hasher.finalize());
    if !sha.eq_ignore_ascii_case(&file.sha256) {
        return Err(mismatch(format!(
            "its SHA-256 is {sha}, not {}",
            file.sha256
        )));
    }
    out.inner.get_ref().sync_all().map_err(io)
}

/// Downloads `url` into `out`; the address, for messages.
fn download(
    client: &stoa_fetch::Client,
    url: &str,
    out: &mut dyn Write,
) -> Result<String, PackError> {
    client.download(url, out).map_err(|why| PackError::Fetch {
        url: url.to_string(),
        why,
    })?;
    Ok(url.to_string())
}

/// Copies at most one byte more than `size` (enough to see that a file is
/// too long without reading a huge one whole).
fn copy_limited(input: &mut dyn Read, out: &mut dyn Write, size: u64) -> std::io::Result<u64> {
    std::io::copy(&mut input.take(size + 1), out)
}

/// A writer that hashes and counts what passes through it.
struct Hashing<W> {
    inner: W,
    hasher: Sha256,
    len: u64,
}

impl<W> Hashing<W> {
    fn new(inner: W) -> Self {
        Hashing {
            inner,
            hasher: Sha256::new(),
            len: 0,
        }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The default time a whole file's download may take: the largest pack
/// file is 27 MB, which a slow line (0.5 Mbit/s) fetches in about 7 min.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(900);

/// A client for packs: no size limit beyond the largest file, `timeout`
/// per file.
pub fn client(packs: &[Pack], timeout: Duration) -> stoa_fetch::Client {
    let largest = packs
        .iter()
        .flat_map(|p| p.files.iter().map(|f| f.size))
        .max()
        .unwrap_or(0);
    stoa_fetch::Client::new(stoa_fetch::Limits {
        max_bytes: largest + 1,
        timeout,
        max_redirects: 5,
    })
}

#[cfg(test)]
mod tests;
