//! Content keys: a SHA-256 over everything that decides an artifact's
//! bytes, made without parsing anything (see `crate::cache`).

use crate::options::BuildOptions;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use stoa_book::BookConfig;

/// A content key: a SHA-256 as lowercase hex.
pub(crate) type Key = String;

/// A SHA-256 fed with length-prefixed pieces, so that two different lists
/// of pieces never hash alike.
#[derive(Clone)]
pub(crate) struct Hasher(Sha256);

impl Hasher {
    /// A hasher for keys of one kind (`domain`), so that keys of different
    /// kinds never collide.
    pub(crate) fn new(domain: &str) -> Self {
        let mut h = Hasher(Sha256::new());
        h.str(domain);
        h
    }

    /// Adds `bytes`, with their length.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// Adds a string.
    pub(crate) fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    /// Adds a path as text.
    pub(crate) fn path(&mut self, path: &Path) -> &mut Self {
        self.bytes(path.as_os_str().as_encoded_bytes())
    }

    /// The key.
    pub(crate) fn finish(self) -> Key {
        hex(&self.0.finalize())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a file's bytes, or a key saying it cannot be read (so a
/// file that appears later changes the key).
pub(crate) fn file_key(path: &Path) -> Key {
    let mut h = Hasher::new("file");
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        h.str("not a file");
        return h.finish();
    }
    match std::fs::read(path) {
        Ok(bytes) => h.bytes(&bytes),
        Err(_) => h.str("unreadable"),
    };
    h.finish()
}

/// Adds every file below `dir` (sorted, by relative path) to `h`: names
/// always, contents unless `skip_content` says so for that relative path.
/// Nothing is followed out of the tree but what `std::fs` follows itself.
pub(crate) fn hash_tree(h: &mut Hasher, dir: &Path, skip_content: &dyn Fn(&str) -> bool) {
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    // Depth-first in sorted order; a bound keeps a link cycle from looping.
    let mut seen = 0usize;
    while let Some((folder, prefix)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            h.str("unreadable folder").str(&prefix);
            continue;
        };
        let mut names: Vec<(String, PathBuf)> = entries
            .flatten()
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
            .collect();
        names.sort();
        let mut subfolders = Vec::new();
        for (name, path) in names {
            seen += 1;
            if seen > 100_000 {
                h.str("too many files");
                return;
            }
            let rel = format!("{prefix}{name}");
            let meta = std::fs::metadata(&path);
            if meta.as_ref().is_ok_and(|m| !m.is_dir() && !m.is_file()) {
                // A FIFO or a device is never read (it could block); the
                // build refuses it with a clear error of its own.
                h.str("special").str(&rel);
                continue;
            }
            if meta.is_ok_and(|m| m.is_dir()) {
                h.str("dir").str(&rel);
                subfolders.push((path, format!("{rel}/")));
            } else {
                h.str("file").str(&rel);
                if skip_content(&rel) {
                    continue;
                }
                match std::fs::read(&path) {
                    Ok(bytes) => h.bytes(&bytes),
                    Err(_) => h.str("unreadable"),
                };
            }
        }
        // Reversed so that the stack pops them in sorted order.
        stack.extend(subfolders.into_iter().rev());
    }
}

/// Who made the cache: this stoa's version and its executable (size and
/// modification time), so that a rebuilt or upgraded stoa starts afresh.
pub(crate) fn stoa_identity() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let mut h = Hasher::new("stoa");
        h.str(env!("CARGO_PKG_VERSION"));
        if let Ok(exe) = std::env::current_exe() {
            h.path(&exe);
            if let Ok(meta) = std::fs::metadata(&exe) {
                h.str(&meta.len().to_string())
                    .str(&mtime(&meta).to_string());
            }
        }
        h.finish()
    })
}

/// A file's modification time, in nanoseconds since 1970.
pub(crate) fn mtime(meta: &std::fs::Metadata) -> i128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128)
}

pub(crate) fn full_edition_key(base: &str, extra: &[(PathBuf, Key)]) -> Key {
    let mut h = Hasher::new("edition");
    h.str(base);
    for (path, key) in extra {
        h.path(path).str(key);
    }
    h.finish()
}

/// The options that decide artifacts' bytes (not `jobs`, not the selection).
fn options_key(h: &mut Hasher, options: &BuildOptions) {
    h.path(&options.books_dir).path(&options.themes_dir);
    h.str(&format!(
        "{:?} {}",
        options.source_date_epoch, options.emit_sources
    ));
    for dir in &options.plugin_dirs {
        h.path(dir);
    }
    h.str(&format!("{:?} {:?}", options.plugin_path, options.exe_dir));
}

/// The key of one edition's files, read without parsing anything: the
/// book's folder, each post folder it lists (the Markdown of its other
/// languages named but not read), the plugins it runs, and the options.
pub(crate) fn edition_base_key(options: &BuildOptions, config: &BookConfig, lang: &str) -> Key {
    let mut h = Hasher::new("edition-files");
    options_key(&mut h, options);
    h.str(lang);
    h.path(&config.dir);
    hash_tree(&mut h, &config.dir, &|_| false);
    h.path(&config.posts_dir);
    let others: Vec<String> = config
        .languages
        .iter()
        .filter(|l| l.tag != lang)
        .map(|l| format!("{}.md", l.tag))
        .collect();
    let slugs = config
        .posts
        .iter()
        .map(|(s, _)| s)
        .chain(config.about.as_ref().map(|(s, _)| s));
    for slug in slugs {
        h.str("post").str(slug);
        hash_tree(&mut h, &config.posts_dir.join(slug), &|rel| {
            others.iter().any(|o| o == rel)
        });
    }
    plugins_key(&mut h, options, config);
    // The project's own fonts (`fonts/` beside the books), which the PDF
    // sets text in.
    if let Some(fonts) = &config.print.fonts_folder {
        h.str("fonts").str(fonts);
        hash_tree(&mut h, Path::new(fonts), &|_| false);
    }
    h.finish()
}

/// The plugins a book runs: their names and settings are in book.toml
/// (hashed with the book's folder); a plugin found as a library is known by
/// its files' names, sizes and times in the search path (a built-in one is
/// part of stoa).
fn plugins_key(h: &mut Hasher, options: &BuildOptions, config: &BookConfig) {
    if config.plugins.is_empty() {
        return;
    }
    let search = crate::builtin::search_path(options, config.plugin_dir.as_deref());
    for dir in search.dirs() {
        h.path(dir);
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut found: Vec<String> = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let normal = name.replace('-', "_");
            let ours = config
                .plugins
                .iter()
                .any(|p| normal.contains(&p.name.replace('-', "_")));
            if !ours {
                continue;
            }
            if let Ok(meta) = entry.metadata() {
                found.push(format!("{name} {} {}", meta.len(), mtime(&meta)));
            }
        }
        found.sort();
        for f in found {
            h.str(&f);
        }
    }
}

/// The key of a theme's files as `renderer` reads them
/// ([`Renderer::reads_theme_file`](stoa_render::Renderer::reads_theme_file)):
/// the PDF leaves the style sheets out, so a CSS edit leaves it alone. A
/// built-in theme is part of stoa. What the renderer reads of the machine
/// (its [`machine_key`](stoa_render::Renderer::machine_key)) goes with it.
pub(crate) fn theme_key(theme: &stoa_render::Theme, renderer: &dyn stoa_render::Renderer) -> Key {
    let mut h = Hasher::new("theme");
    h.str(theme.name()).str(renderer.name());
    h.str(&renderer.machine_key());
    if let Some(dir) = theme.dir() {
        h.path(dir);
        hash_tree(&mut h, dir, &|rel| !renderer.reads_theme_file(rel));
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_length_prefixed() {
        let mut a = Hasher::new("t");
        a.str("ab").str("c");
        let mut b = Hasher::new("t");
        b.str("a").str("bc");
        assert_ne!(a.finish(), b.finish());
    }

    #[test]
    fn a_tree_key_follows_content_names_and_skips() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p/img")).unwrap();
        std::fs::write(dir.path().join("p/en.md"), "one").unwrap();
        std::fs::write(dir.path().join("p/pt.md"), "um").unwrap();
        std::fs::write(dir.path().join("p/img/a.png"), "png").unwrap();
        let key = |skip: &dyn Fn(&str) -> bool| {
            let mut h = Hasher::new("t");
            hash_tree(&mut h, &dir.path().join("p"), skip);
            h.finish()
        };
        let skip_pt = |rel: &str| rel == "pt.md";
        let before = key(&skip_pt);
        assert_eq!(before, key(&skip_pt), "the same files give the same key");
        std::fs::write(dir.path().join("p/pt.md"), "dois").unwrap();
        assert_eq!(
            before,
            key(&skip_pt),
            "a skipped file's content is not read"
        );
        std::fs::write(dir.path().join("p/img/a.png"), "png2").unwrap();
        let after = key(&skip_pt);
        assert_ne!(before, after, "a nested file's content counts");
        std::fs::write(dir.path().join("p/es.md"), "x").unwrap();
        assert_ne!(after, key(&skip_pt), "a new file counts");
    }

    /// The regression: a FIFO in a post folder blocked the build forever,
    /// read to hash it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_named_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("en.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        let mut h = Hasher::new("t");
        hash_tree(&mut h, dir.path(), &|_| false);
        assert_eq!(file_key(&fifo), file_key(&dir.path().join("missing")));
    }
}
