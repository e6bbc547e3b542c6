//! Which file-system events ask for a rebuild: those under a watched folder,
//! outside the output and cache folders, that are not an editor's scratch
//! files, and that change content or names (not access times).

use notify::event::{EventKind, ModifyKind};
use std::path::{Path, PathBuf};

/// The folders whose changes matter and those inside them that never do.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    roots: Vec<PathBuf>,
    ignored: Vec<PathBuf>,
}

impl Filter {
    /// Changes under `roots` count, except those under `ignored` (the output
    /// folder, the build's cache: what the build writes must never trigger
    /// the next build). Paths are compared as given: pass absolute ones, as
    /// the watcher reports absolute paths.
    pub fn new(roots: Vec<PathBuf>, ignored: Vec<PathBuf>) -> Filter {
        Filter { roots, ignored }
    }

    /// The folders watched.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether a change of `path` may change what the build makes.
    pub fn wants(&self, path: &Path) -> bool {
        let Some(root) = self.roots.iter().find(|r| path.starts_with(r)) else {
            return false;
        };
        // An ignored folder that holds the root itself (`--out .`) would
        // ignore everything: only what it holds beside the root is ignored.
        if self
            .ignored
            .iter()
            .any(|i| path.starts_with(i) && !root.starts_with(i))
        {
            return false;
        }
        let inside = path.strip_prefix(root).unwrap_or(path);
        !inside.components().any(|c| match c {
            std::path::Component::Normal(name) => {
                let name = name.to_string_lossy();
                is_scratch_name(&name) || is_private_name(&name)
            }
            _ => false,
        })
    }
}

/// Names an editor or a tool writes beside the real file while saving and
/// removes (or renames onto the real name) right after: Emacs' lock and
/// autosave files, Vim's swap, backup and write-test files, backups ending
/// in `~`, JetBrains' and gedit's temporaries, `sed -i`'s, `*.tmp`. The rename onto the
/// real name is what counts; these alone never start a build.
pub fn is_scratch_name(name: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "~",
        ".swp",
        ".swo",
        ".swx",
        ".tmp",
        ".bak",
        ".kate-swp",
        "___jb_tmp___",
        "___jb_old___",
        ".crswap",
    ];
    name.starts_with(".#")
        || (name.starts_with('#') && name.ends_with('#') && name.len() > 1)
        || name.starts_with(".goutputstream-")
        || name.starts_with("~$")
        || name == "4913"
        || is_sed_temporary(name)
        || name == ".DS_Store"
        || SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// GNU `sed -i` writes `sedXXXXXX` (six random letters or digits) beside
/// the file, then renames it onto the file.
fn is_sed_temporary(name: &str) -> bool {
    name.len() == 9
        && name.starts_with("sed")
        && name[3..].bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Folders of version control and stoa's own bookkeeping (`.stoa*`: locks,
/// temporaries, caches), which no book reads.
fn is_private_name(name: &str) -> bool {
    matches!(name, ".git" | ".hg" | ".svn" | ".jj") || name.starts_with(".stoa")
}

/// What one file-system event means for the build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relevance {
    /// Nothing the build reads changed.
    Ignore,
    /// These paths changed (created, written, removed or renamed; both the
    /// old and the new name of a rename).
    Paths(Vec<PathBuf>),
    /// Events were lost (the kernel's queue overflowed): anything may have
    /// changed.
    Rescan,
}

/// Classifies one event: the testable core of the watcher, free of timing.
/// Reads and access times never rebuild; neither do metadata-only changes
/// (a `touch`, permissions), since the build reads content, not timestamps.
pub fn relevance(event: &notify::Event, filter: &Filter) -> Relevance {
    if event.need_rescan() {
        return Relevance::Rescan;
    }
    match event.kind {
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)) => {
            return Relevance::Ignore;
        }
        EventKind::Any
        | EventKind::Create(_)
        | EventKind::Modify(_)
        | EventKind::Remove(_)
        | EventKind::Other => {}
    }
    let paths: Vec<PathBuf> = event
        .paths
        .iter()
        .filter(|p| filter.wants(p))
        .cloned()
        .collect();
    if paths.is_empty() {
        Relevance::Ignore
    } else {
        Relevance::Paths(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::Event;
    use notify::event::{
        AccessKind, AccessMode, CreateKind, DataChange, EventKind, Flag, MetadataKind, ModifyKind,
        RemoveKind, RenameMode,
    };

    fn filter() -> Filter {
        Filter::new(
            vec!["/p/books".into(), "/p/themes".into(), "/plugins".into()],
            vec!["/p/books/dist".into(), "/p/.cache".into()],
        )
    }

    fn event(kind: EventKind, paths: &[&str]) -> Event {
        paths
            .iter()
            .fold(Event::new(kind), |e, p| e.add_path(PathBuf::from(p)))
    }

    fn paths(r: Relevance) -> Vec<String> {
        match r {
            Relevance::Paths(p) => p.iter().map(|p| p.display().to_string()).collect(),
            other => panic!("expected paths, got {other:?}"),
        }
    }

    #[test]
    fn a_write_under_a_watched_folder_counts() {
        let write = event(
            EventKind::Modify(ModifyKind::Data(DataChange::Content)),
            &["/p/books/posts/a/en.md"],
        );
        assert_eq!(
            paths(relevance(&write, &filter())),
            ["/p/books/posts/a/en.md"]
        );
        let css = event(
            EventKind::Create(CreateKind::File),
            &["/p/themes/x/web.css"],
        );
        assert_eq!(paths(relevance(&css, &filter())), ["/p/themes/x/web.css"]);
    }

    #[test]
    fn the_output_and_the_cache_never_trigger_a_build() {
        for p in [
            "/p/books/dist/a/a-en.epub",
            "/p/.cache/x",
            "/p/dist/index.html",
            "/other",
        ] {
            let e = event(EventKind::Create(CreateKind::File), &[p]);
            assert_eq!(relevance(&e, &filter()), Relevance::Ignore, "{p}");
        }
        let lock = event(
            EventKind::Create(CreateKind::File),
            &["/p/books/.stoa-lock"],
        );
        assert_eq!(relevance(&lock, &filter()), Relevance::Ignore);
        let git = event(EventKind::Modify(ModifyKind::Any), &["/p/books/.git/index"]);
        assert_eq!(relevance(&git, &filter()), Relevance::Ignore);
    }

    #[test]
    fn an_output_folder_around_the_books_does_not_hide_them() {
        let f = Filter::new(vec!["/p/books".into()], vec!["/p".into()]);
        let post = event(
            EventKind::Create(CreateKind::File),
            &["/p/books/posts/a/en.md"],
        );
        assert_eq!(paths(relevance(&post, &f)), ["/p/books/posts/a/en.md"]);
    }

    #[test]
    fn an_editor_saving_through_a_temporary_file_counts_once_by_the_real_name() {
        // Write `en.md.tmp`, then rename it onto `en.md` (one event with both names).
        let f = filter();
        let tmp = "/p/books/posts/a/en.md.tmp";
        let real = "/p/books/posts/a/en.md";
        let create = event(EventKind::Create(CreateKind::File), &[tmp]);
        assert_eq!(relevance(&create, &f), Relevance::Ignore);
        let data = event(EventKind::Modify(ModifyKind::Data(DataChange::Any)), &[tmp]);
        assert_eq!(relevance(&data, &f), Relevance::Ignore);
        let rename = event(
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            &[tmp, real],
        );
        assert_eq!(paths(relevance(&rename, &f)), [real]);
    }

    #[test]
    fn scratch_files_of_common_editors_are_ignored() {
        for name in [
            ".#en.md",
            "#en.md#",
            "en.md~",
            ".en.md.swp",
            ".en.md.swx",
            "4913",
            ".goutputstream-XYZ12",
            "en.md___jb_tmp___",
            "book.toml.bak",
            ".DS_Store",
            "sed5ErlPg",
        ] {
            assert!(is_scratch_name(name), "{name}");
            let e = event(
                EventKind::Create(CreateKind::File),
                &[&format!("/p/books/posts/a/{name}")],
            );
            assert_eq!(relevance(&e, &filter()), Relevance::Ignore, "{name}");
        }
        for name in [
            "en.md",
            "book.toml",
            "#hash.md",
            "web.css",
            "cover.png",
            "sedan.md",
        ] {
            assert!(!is_scratch_name(name), "{name}");
        }
    }

    #[test]
    fn deletes_and_folder_renames_count_by_both_names() {
        let f = filter();
        let gone = event(
            EventKind::Remove(RemoveKind::File),
            &["/p/books/posts/a/en.md"],
        );
        assert_eq!(paths(relevance(&gone, &f)), ["/p/books/posts/a/en.md"]);
        let moved = event(
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            &["/p/books/posts/old", "/p/books/posts/new"],
        );
        assert_eq!(
            paths(relevance(&moved, &f)),
            ["/p/books/posts/old", "/p/books/posts/new"]
        );
        // A folder moved out of the books counts by its old name only.
        let out = event(
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            &["/p/books/posts/old", "/p/trash/old"],
        );
        assert_eq!(paths(relevance(&out, &f)), ["/p/books/posts/old"]);
    }

    #[test]
    fn reads_and_metadata_never_rebuild() {
        let f = filter();
        let p = &["/p/books/posts/a/en.md"];
        for kind in [
            EventKind::Access(AccessKind::Read),
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)),
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::Permissions)),
        ] {
            assert_eq!(
                relevance(&event(kind, p), &f),
                Relevance::Ignore,
                "{kind:?}"
            );
        }
    }

    #[test]
    fn a_lost_event_queue_asks_for_a_full_rebuild() {
        let overflow = Event::new(EventKind::Other).set_flag(Flag::Rescan);
        assert_eq!(relevance(&overflow, &filter()), Relevance::Rescan);
    }
}
