//! Which native libraries a project may make stoa load: those the user
//! trusts, by path and SHA-256, in a list kept outside every project.
//!
//! Loading a native library runs its code (its initialisers run before any
//! hook is called), so a library that a book brings in its `plugin-dir` is
//! loaded only when the user's trust list names it with the hash of its
//! bytes, or when the user trusts every library for one run (a flag meant
//! for CI). The folders the user names (`--plugin-dir`,
//! `STOA_PLUGIN_PATH`), the plugins built into stoa and the folder of the
//! stoa executable are the user's own choice and need no trust; nor does a
//! WebAssembly plugin, which runs sandboxed whoever brings it.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use stoa_sdk::Diagnostic;

/// What the user trusts: libraries by canonical path and SHA-256, or,
/// for one run, every library.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trust {
    /// Canonical path → lowercase hex SHA-256 of the file's bytes.
    libraries: BTreeMap<PathBuf, String>,
    /// `--trust-plugins` or `STOA_TRUST_PLUGINS=1`: trust every library.
    everything: bool,
    /// The file the list was read from, for messages.
    file: Option<PathBuf>,
}

/// The trust list as it is written: one `[[library]]` table per library.
#[derive(serde::Serialize, serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct TrustFile {
    #[serde(default, rename = "library")]
    libraries: Vec<Entry>,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: PathBuf,
    sha256: String,
}

const HEADER: &str = "\
# Native plugin libraries that book projects may make stoa load.
# Written by `stoa plugins trust <library>`: each entry is the library's path
# and the SHA-256 of its bytes; a library whose bytes change is untrusted again.
";

impl Trust {
    /// Trusts no library a project brings.
    pub fn nothing() -> Trust {
        Trust::default()
    }

    /// Trusts every library, for one run (`--trust-plugins`).
    pub fn everything() -> Trust {
        Trust {
            everything: true,
            ..Trust::default()
        }
    }

    /// True when every library is trusted for this run.
    pub fn trusts_everything(&self) -> bool {
        self.everything
    }

    /// The list in `file`; a file that does not exist is an empty list.
    pub fn read(file: &Path) -> Result<Trust, Diagnostic> {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Trust {
                    file: Some(file.to_path_buf()),
                    ..Trust::default()
                });
            }
            Err(e) => {
                return Err(Diagnostic::error(format!(
                    "the trust list {} cannot be read: {e}",
                    file.display()
                ))
                .with_hint("fix its permissions, or remove it to trust no project library"));
            }
        };
        let parsed: TrustFile = toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].lines().count().max(1))
                .unwrap_or(1);
            Diagnostic::error(format!(
                "the trust list {}:{line} is not valid: {}",
                file.display(),
                e.message()
            ))
            .with_hint(
                "each entry is [[library]] with `path` and `sha256`; remove the file and \
                 trust the libraries again with `stoa plugins trust <library>`",
            )
        })?;
        let libraries = parsed
            .libraries
            .into_iter()
            .map(|e| (e.path, e.sha256.to_ascii_lowercase()))
            .collect();
        Ok(Trust {
            libraries,
            everything: false,
            file: Some(file.to_path_buf()),
        })
    }

    /// Adds `library` (its canonical path and its hash now) to the list;
    /// returns the path and hash added.
    pub fn add(&mut self, library: &Path) -> std::io::Result<(PathBuf, String)> {
        let path = library.canonicalize()?;
        if !path.is_file() {
            return Err(std::io::Error::other("not a file"));
        }
        let hash = sha256_file(&path)?;
        self.libraries.insert(path.clone(), hash.clone());
        Ok((path, hash))
    }

    /// Writes the list to `file`, atomically (a temporary file beside it,
    /// then renamed), creating its folder.
    pub fn write(&self, file: &Path) -> std::io::Result<()> {
        let list = TrustFile {
            libraries: self
                .libraries
                .iter()
                .map(|(path, sha256)| Entry {
                    path: path.clone(),
                    sha256: sha256.clone(),
                })
                .collect(),
        };
        let body = toml::to_string(&list).map_err(std::io::Error::other)?;
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut name = file.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".tmp{}", std::process::id()));
        let tmp = file.with_file_name(name);
        std::fs::write(&tmp, format!("{HEADER}\n{body}"))?;
        std::fs::rename(&tmp, file)
    }

    /// Ok when the native library at `path`, found for plugin `name` in
    /// a folder the project chose, may be loaded; otherwise the error that
    /// names it, its hash and the command that trusts it. Nothing of the
    /// library runs here: its bytes are only read.
    pub(crate) fn check(&self, name: &str, path: &Path) -> Result<(), Diagnostic> {
        if self.everything {
            return Ok(());
        }
        let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let hash = sha256_file(&canonical).map_err(|e| {
            Diagnostic::error(format!(
                "plugin `{name}` at {} cannot be read: {e}",
                canonical.display()
            ))
        })?;
        let listed = self.libraries.get(&canonical);
        if listed == Some(&hash) {
            return Ok(());
        }
        let why = match listed {
            Some(_) => "has changed since you trusted it",
            None => "comes with the book (its `plugin-dir`) and you have not trusted it",
        };
        let list = self
            .file
            .as_ref()
            .map(|f| format!(" (your trust list: {})", f.display()))
            .unwrap_or_default();
        Err(Diagnostic::error(format!(
            "plugin `{name}` at {} {why}: stoa runs no native code that a project brings \
             unless you trust it; nothing of it was run (sha256 {hash})",
            canonical.display()
        ))
        .with_hint(format!(
            "if you trust this library, run `stoa plugins trust {}`{list}; for one run \
             (in CI, say), pass --trust-plugins or set STOA_TRUST_PLUGINS=1; a WebAssembly \
             plugin (.wasm) runs sandboxed and needs no trust",
            canonical.display()
        )))
    }
}

/// The lowercase hex SHA-256 of the file's bytes.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_is_trusted_by_its_path_and_bytes_only() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("libstoa_plugin_x.so");
        std::fs::write(&lib, b"first").unwrap();
        let list = dir.path().join("config/trusted.toml");
        let mut trust = Trust::read(&list).unwrap();
        let refused = trust.check("x", &lib).unwrap_err().to_string();
        assert!(refused.contains("you have not trusted it"), "{refused}");
        assert!(refused.contains("stoa plugins trust"), "{refused}");
        assert!(refused.contains(&sha256_file(&lib).unwrap()), "{refused}");

        trust.add(&lib).unwrap();
        trust.write(&list).unwrap();
        let read = Trust::read(&list).unwrap();
        assert!(read.check("x", &lib).is_ok());
        assert!(
            std::fs::read_to_string(&list)
                .unwrap()
                .starts_with("# Native")
        );

        std::fs::write(&lib, b"second").unwrap();
        let changed = read.check("x", &lib).unwrap_err().to_string();
        assert!(
            changed.contains("has changed since you trusted it"),
            "{changed}"
        );
        assert!(Trust::everything().check("x", &lib).is_ok());
    }

    #[test]
    fn a_broken_list_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("trusted.toml");
        std::fs::write(&list, "# mine\n\n[[library]]\npath = 3\n").unwrap();
        let error = Trust::read(&list).unwrap_err().to_string();
        assert!(error.contains("trusted.toml:4"), "{error}");
    }

    #[test]
    fn the_known_hash() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("abc");
        std::fs::write(&file, b"abc").unwrap();
        assert_eq!(
            sha256_file(&file).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
