//! The watcher itself: the operating system's notifications (inotify,
//! FSEvents, ReadDirectoryChangesW through `notify`) for each folder,
//! recursively, filtered and debounced into batches.

use crate::debounce::{Batch, Debouncer};
use crate::filter::{Filter, Relevance, relevance};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// What to watch and how long a burst of events may be.
#[derive(Clone, Debug)]
pub struct WatchConfig {
    /// Folders watched recursively. One that does not exist yet is watched
    /// for from its nearest existing parent, and watched once it appears.
    pub roots: Vec<PathBuf>,
    /// Folders whose changes never count: the output folder, the cache.
    pub ignored: Vec<PathBuf>,
    /// A batch is ready once no event came for this long.
    pub quiet: Duration,
    /// ... or this long after its first event, whatever keeps coming.
    pub longest: Duration,
}

/// Why watching failed.
#[derive(Debug)]
pub struct WatchError {
    /// The folder concerned, if one.
    pub path: Option<PathBuf>,
    /// What went wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

impl fmt::Display for WatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}: ", path.display())?;
        }
        write!(f, "{}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  help: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for WatchError {}

fn watch_error(e: notify::Error, path: &Path) -> WatchError {
    let hint = match e.kind {
        notify::ErrorKind::MaxFilesWatch => Some(
            "the system's limit of watched folders is reached: raise it \
             (e.g. `sudo sysctl fs.inotify.max_user_watches=524288`) or watch fewer folders"
                .to_string(),
        ),
        _ => None,
    };
    let message = match e.kind {
        notify::ErrorKind::MaxFilesWatch => "cannot watch more folders".to_string(),
        notify::ErrorKind::Io(ref io) => format!("cannot watch: {io}"),
        notify::ErrorKind::Generic(ref s) => format!("cannot watch: {s}"),
        ref other => format!("cannot watch: {other:?}"),
    };
    WatchError {
        path: Some(path.to_path_buf()),
        message,
        hint,
    }
}

/// Watches folders and hands out one [`Batch`] per burst of changes.
pub struct Watcher {
    inner: RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
    filter: Filter,
    debouncer: Debouncer,
    /// Roots not there yet (or removed), with the parent watched for them.
    missing: Vec<(PathBuf, Option<PathBuf>)>,
}

impl Watcher {
    /// Starts watching. Paths are made absolute, so that the events'
    /// paths compare with them.
    pub fn start(config: WatchConfig) -> Result<Watcher, WatchError> {
        let (tx, events) = channel();
        let inner = notify::recommended_watcher(tx).map_err(|e| watch_error(e, Path::new(".")))?;
        let roots: Vec<PathBuf> = config.roots.iter().map(|r| absolute(r)).collect();
        let ignored = config.ignored.iter().map(|r| absolute(r)).collect();
        let mut watcher = Watcher {
            inner,
            events,
            filter: Filter::new(roots.clone(), ignored),
            debouncer: Debouncer::new(config.quiet, config.longest),
            missing: Vec::new(),
        };
        for root in roots {
            watcher.watch_root(root)?;
        }
        Ok(watcher)
    }

    /// The folders watched (or waited for), absolute.
    pub fn roots(&self) -> &[PathBuf] {
        self.filter.roots()
    }

    fn watch_root(&mut self, root: PathBuf) -> Result<(), WatchError> {
        if root.is_dir() {
            match self.inner.watch(&root, RecursiveMode::Recursive) {
                Ok(()) => return Ok(()),
                // Removed between the check and the watch: wait for it.
                Err(e) if root.exists() => return Err(watch_error(e, &root)),
                Err(_) => {}
            }
        }
        // Not there yet: watch the nearest existing parent (not
        // recursively: only for the root to appear).
        let parent = root
            .ancestors()
            .skip(1)
            .find(|a| a.is_dir())
            .map(Path::to_path_buf);
        if let Some(parent) = &parent {
            self.inner
                .watch(parent, RecursiveMode::NonRecursive)
                .map_err(|e| watch_error(e, parent))?;
        }
        self.missing.push((root, parent));
        Ok(())
    }

    /// Blocks until a burst of changes is over, and returns it.
    pub fn wait(&mut self) -> Result<Batch, WatchError> {
        loop {
            if let Some(batch) = self.wait_until(None)? {
                return Ok(batch);
            }
        }
    }

    /// Like [`Watcher::wait`], but gives up at `limit` (with `None`) when
    /// no burst is over by then.
    pub fn wait_until(&mut self, limit: Option<Instant>) -> Result<Option<Batch>, WatchError> {
        loop {
            let wake = match (self.debouncer.deadline(), limit) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let received = match wake {
                None => self
                    .events
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(wake) => {
                    let left = wake.saturating_duration_since(Instant::now());
                    self.events.recv_timeout(left)
                }
            };
            match received {
                Ok(Ok(event)) => self.record(&event),
                // Lost events, or a watch that broke: rebuild everything.
                Ok(Err(_)) => self.debouncer.add_rescan(Instant::now()),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(WatchError {
                        path: None,
                        message: "the file watcher stopped".into(),
                        hint: Some("start `stoa watch` again".into()),
                    });
                }
            }
            let now = Instant::now();
            if let Some(batch) = self.debouncer.take(now) {
                return Ok(Some(batch));
            }
            if limit.is_some_and(|l| now >= l) && self.debouncer.is_empty() {
                return Ok(None);
            }
        }
    }

    fn record(&mut self, event: &notify::Event) {
        let now = Instant::now();
        self.follow_roots(event);
        match relevance(event, &self.filter) {
            Relevance::Ignore => {}
            Relevance::Paths(paths) => self.debouncer.add(paths, now),
            Relevance::Rescan => self.debouncer.add_rescan(now),
        }
    }

    /// A root that appears is watched from now on (and counts as changed:
    /// files may be in it already); one that is removed is waited for again.
    fn follow_roots(&mut self, event: &notify::Event) {
        let now = Instant::now();
        let appeared: Vec<PathBuf> = self
            .missing
            .iter()
            .filter(|(root, _)| event.paths.iter().any(|p| root.starts_with(p)) && root.is_dir())
            .map(|(root, _)| root.clone())
            .collect();
        for root in appeared {
            let Some(i) = self.missing.iter().position(|(r, _)| *r == root) else {
                continue;
            };
            let (_, parent) = self.missing.swap_remove(i);
            if let Some(parent) = parent
                && !self
                    .missing
                    .iter()
                    .any(|(_, p)| p.as_ref() == Some(&parent))
                && !self.filter.roots().contains(&parent)
            {
                let _ = self.inner.unwatch(&parent);
            }
            if self.watch_root(root.clone()).is_err() {
                self.debouncer.add_rescan(now);
            }
            self.debouncer.add([root], now);
        }
        let removed = matches!(event.kind, notify::EventKind::Remove(_))
            || matches!(
                event.kind,
                notify::EventKind::Modify(notify::event::ModifyKind::Name(_))
            );
        if removed {
            let gone: Vec<PathBuf> = self
                .filter
                .roots()
                .iter()
                .filter(|r| event.paths.contains(r) && !r.is_dir())
                .filter(|r| !self.missing.iter().any(|(m, _)| m == *r))
                .cloned()
                .collect();
            for root in gone {
                let _ = self.inner.unwatch(&root);
                if self.watch_root(root).is_err() {
                    self.debouncer.add_rescan(now);
                }
            }
        }
    }
}

/// `path` made absolute, symbolic links resolved as far as it exists, so
/// that it compares with the paths the watcher reports.
fn absolute(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            let mut full = canonical;
            full.extend(rest.iter().rev());
            return full;
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => return std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Batches until one satisfies `done`; fails after ten seconds, a bound
    /// for a broken watcher, not a timing the test relies on.
    fn until(w: &mut Watcher, done: impl Fn(&Batch) -> bool) -> Batch {
        let limit = Instant::now() + Duration::from_secs(10);
        loop {
            match w.wait_until(Some(limit)).unwrap() {
                Some(batch) if done(&batch) => return batch,
                Some(_) => {}
                None => panic!("no such batch within ten seconds"),
            }
        }
    }

    #[test]
    fn absolute_paths_resolve_what_exists_and_keep_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        assert_eq!(absolute(dir.path()), real);
        assert_eq!(absolute(&dir.path().join("a/b")), real.join("a/b"));
    }

    /// One real save through the operating system, end to end: a temporary
    /// file renamed onto a post is one batch naming the post, and the output
    /// folder inside the watched one is never reported.
    #[test]
    fn a_save_by_rename_is_one_batch() {
        let dir = tempfile::tempdir().unwrap();
        let books = dir.path().join("books");
        std::fs::create_dir_all(books.join("posts/a")).unwrap();
        std::fs::write(books.join("posts/a/en.md"), "old").unwrap();
        let mut w = Watcher::start(WatchConfig {
            roots: vec![books.clone(), dir.path().join("themes")],
            ignored: vec![books.join("dist")],
            quiet: Duration::from_millis(20),
            longest: Duration::from_secs(1),
        })
        .unwrap();
        std::fs::create_dir_all(books.join("dist")).unwrap();
        std::fs::write(books.join("dist/out.epub"), "x").unwrap();
        std::fs::write(books.join("posts/a/.en.md.swp"), "x").unwrap();
        std::fs::write(books.join("posts/a/en.md.tmp"), "new").unwrap();
        std::fs::rename(books.join("posts/a/en.md.tmp"), books.join("posts/a/en.md")).unwrap();
        let real = books.canonicalize().unwrap();
        let post = real.join("posts/a/en.md");
        let batch = until(&mut w, |b| b.paths.contains(&post));
        assert!(
            batch
                .paths
                .iter()
                .all(|p| !p.starts_with(real.join("dist"))),
            "{batch:?}"
        );
        // A root that did not exist is watched once it appears.
        std::fs::create_dir_all(dir.path().join("themes/x")).unwrap();
        let themes = dir.path().canonicalize().unwrap().join("themes");
        until(&mut w, |b| b.paths.iter().any(|p| p.starts_with(&themes)));
        std::fs::write(dir.path().join("themes/x/web.css"), "a{}").unwrap();
        let css = themes.join("x/web.css");
        until(&mut w, |b| b.paths.contains(&css));

        // A post folder renamed: both names count, and a save inside the
        // folder under its new name is still seen.
        std::fs::rename(books.join("posts/a"), books.join("posts/b")).unwrap();
        let (old, new) = (real.join("posts/a"), real.join("posts/b"));
        until(&mut w, |b| b.paths.contains(&old) && b.paths.contains(&new));
        std::fs::write(books.join("posts/b/en.md"), "renamed").unwrap();
        until(&mut w, |b| b.paths.iter().any(|p| p.ends_with("en.md")));

        // A folder deleted and made again, then files written in it. A
        // file written at once may beat the watch on the new folder (the
        // system cannot report it), but the new folder itself is reported,
        // and a rebuild reads everything below it.
        let folder = real.join("posts/b");
        std::fs::remove_dir_all(books.join("posts/b")).unwrap();
        until(&mut w, |b| b.paths.contains(&folder));
        std::fs::create_dir_all(books.join("posts/b")).unwrap();
        std::fs::write(books.join("posts/b/pt-BR.md"), "again").unwrap();
        until(&mut w, |b| b.paths.iter().any(|p| p.starts_with(&folder)));
        // Once the folder's creation is reported, it is watched.
        std::fs::write(books.join("posts/b/en.md"), "later").unwrap();
        let later = folder.join("en.md");
        until(&mut w, |b| b.paths.contains(&later));
    }
}
