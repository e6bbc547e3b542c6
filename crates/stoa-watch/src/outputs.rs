//! Which output files a rebuild changed, by content: the web edition is
//! swapped in as a whole folder, so a file's time says nothing; its bytes
//! do. The live preview reloads exactly the pages whose files changed.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

/// A fingerprint of each output file seen, by path relative to the output
/// folder (with `/`).
#[derive(Debug, Default)]
pub struct OutputIndex {
    root: PathBuf,
    files: BTreeMap<String, (u64, u64)>,
}

impl OutputIndex {
    /// An empty index of the output folder `root`.
    pub fn new(root: &Path) -> OutputIndex {
        OutputIndex {
            root: root.to_path_buf(),
            files: BTreeMap::new(),
        }
    }

    /// Looks again at `paths` (files, or folders, read recursively) and at
    /// the files directly in the output folder (the download page, the
    /// catalogs), and returns the files that changed, appeared or went
    /// away since last seen, relative to the output folder, sorted.
    pub fn refresh(&mut self, paths: &[PathBuf]) -> Vec<String> {
        let mut seen = BTreeMap::new();
        let mut scopes = BTreeSet::new();
        if let Ok(entries) = std::fs::read_dir(&self.root) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_file()) {
                    self.look(&entry.path(), &mut seen);
                }
            }
        }
        scopes.insert(String::new());
        for path in paths {
            let Some(rel) = self.relative(path) else {
                continue;
            };
            if path.is_dir() {
                walk(path, &mut |file| self.look(file, &mut seen));
            } else {
                self.look(path, &mut seen);
            }
            scopes.insert(rel);
        }
        let mut changed = Vec::new();
        for (rel, print) in &seen {
            if self.files.get(rel) != Some(print) {
                changed.push(rel.clone());
            }
        }
        // Files gone from a folder looked at again.
        let gone: Vec<String> = self
            .files
            .keys()
            .filter(|rel| !seen.contains_key(*rel))
            .filter(|rel| scopes.iter().any(|s| in_scope(rel, s)))
            .cloned()
            .collect();
        for rel in gone {
            self.files.remove(&rel);
            changed.push(rel);
        }
        self.files.extend(seen);
        changed.sort();
        changed
    }

    /// Files known.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is known.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn relative(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.root).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    fn look(&self, file: &Path, seen: &mut BTreeMap<String, (u64, u64)>) {
        let Some(rel) = self.relative(file) else {
            return;
        };
        // Hidden files are the build's own (its temporaries, lock, cache and
        // list of editions), never served.
        if rel.split('/').any(|part| part.starts_with('.')) {
            return;
        }
        if let Some(print) = fingerprint(file) {
            seen.insert(rel, print);
        }
    }
}

/// Whether `rel` is `scope` or inside it (`""` is the output folder's top:
/// only the files directly in it).
fn in_scope(rel: &str, scope: &str) -> bool {
    if scope.is_empty() {
        return !rel.contains('/');
    }
    rel == scope || rel.strip_prefix(scope).is_some_and(|r| r.starts_with('/'))
}

fn walk(dir: &Path, each: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk(&entry.path(), each),
            Ok(t) if t.is_file() => each(&entry.path()),
            _ => {}
        }
    }
}

/// Size and a hash of the content, read in pieces (a PDF may be large).
fn fingerprint(file: &Path) -> Option<(u64, u64)> {
    use std::io::Read;
    let mut f = std::fs::File::open(file).ok()?;
    let len = f.metadata().ok()?.len();
    let mut hasher = DefaultHasher::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.write(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some((len, hasher.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn only_changed_files_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        fs::create_dir_all(out.join("b/en")).unwrap();
        fs::write(out.join("index.html"), "site").unwrap();
        fs::write(out.join("b/b-en.epub"), "epub").unwrap();
        fs::write(out.join("b/en/index.html"), "toc").unwrap();
        fs::write(out.join("b/en/a.html"), "a").unwrap();
        let mut index = OutputIndex::new(out);
        let first = index.refresh(&[out.join("b/b-en.epub"), out.join("b/en")]);
        assert_eq!(
            first,
            [
                "b/b-en.epub",
                "b/en/a.html",
                "b/en/index.html",
                "index.html"
            ]
        );
        // Same bytes written again: nothing changed.
        fs::write(out.join("b/en/a.html"), "a").unwrap();
        assert!(index.refresh(&[out.join("b/en")]).is_empty());
        fs::write(out.join("b/en/a.html"), "a, edited").unwrap();
        fs::remove_file(out.join("b/en/index.html")).unwrap();
        fs::write(out.join("b/en/new.html"), "new").unwrap();
        fs::write(out.join(".stoa-lock"), "").unwrap();
        fs::write(out.join(".editions.json"), "[]").unwrap();
        assert_eq!(
            index.refresh(&[out.join("b/en")]),
            ["b/en/a.html", "b/en/index.html", "b/en/new.html"]
        );
        assert_eq!(index.len(), 4);
    }

    #[test]
    fn scopes() {
        assert!(in_scope("index.html", ""));
        assert!(!in_scope("b/index.html", ""));
        assert!(in_scope("b/en/a.html", "b/en"));
        assert!(!in_scope("b/en2/a.html", "b/en"));
    }
}
