//! `stoa watch` and `stoa serve --watch`: build once, then again after
//! every burst of saves in the books, themes and plugin folders, through one
//! warm [`Session`]; one short line per rebuild, the errors of a broken
//! edit with file and line (the last good files stay), `--events` for
//! scripts and tests, and with `--serve` a live preview that reloads the
//! pages whose files changed.

use crate::progress::{Display, Verbosity};
use crate::{BuildArgs, ServeArgs};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use stoa_build::{BuildOptions, Event, Renderers, Report, Session};
use stoa_doc::Diagnostic;
use stoa_serve::{Live, LiveError, Server, ServerHandle};
use stoa_watch::{Batch, OutputIndex, WatchConfig, Watcher};

/// How long a burst of events must be quiet before building: an editor's
/// save is over in a few milliseconds.
const DEFAULT_QUIET_MS: u64 = 30;
/// The longest a burst is waited for, whatever keeps coming.
const LONGEST_BURST: Duration = Duration::from_secs(2);

/// `stoa watch`.
#[derive(clap::Args)]
pub struct WatchArgs {
    #[command(flatten)]
    build: BuildArgs,
    /// Also serve the output folder with a live preview: pages reload when
    /// their files change, and a failed build shows its errors over them.
    #[arg(long)]
    serve: bool,
    /// With --serve: address to listen on.
    #[arg(
        long,
        default_value = "127.0.0.1",
        value_name = "IP",
        requires = "serve"
    )]
    address: IpAddr,
    /// With --serve: port to listen on (0 picks a free one).
    #[arg(short, long, default_value_t = 8000, requires = "serve")]
    port: u16,
    #[command(flatten)]
    common: Common,
}

/// What `stoa watch` and `stoa serve --watch` share.
#[derive(clap::Args)]
struct Common {
    /// Print one JSON object per line on standard output for each build
    /// (and one when the server listens), for scripts and tests.
    #[arg(long)]
    events: bool,
    /// Milliseconds without changes before building (a save is a burst of
    /// file-system events).
    #[arg(long, default_value_t = DEFAULT_QUIET_MS, value_name = "MS")]
    debounce: u64,
}

/// The flags `stoa serve` takes for `--watch`.
#[derive(clap::Args)]
pub struct ServeWatchArgs {
    /// Build the books first and again on every change, and reload the
    /// pages open in the browser (a live preview): `stoa watch --serve`
    /// with the output folder being --dir.
    #[arg(long)]
    watch: bool,
    /// With --watch: the folder holding one folder per book.
    #[arg(long, default_value = "books", value_name = "DIR", requires = "watch")]
    books: PathBuf,
    /// With --watch: the folder holding one folder per theme.
    #[arg(long, default_value = "themes", value_name = "DIR", requires = "watch")]
    themes: PathBuf,
    #[command(flatten)]
    common: Common,
}

impl ServeWatchArgs {
    /// Whether `--watch` was given.
    pub fn on(&self) -> bool {
        self.watch
    }
}

/// `stoa watch`.
pub fn run(args: WatchArgs, renderers: &Renderers) -> ExitCode {
    let serve = args.serve.then(|| SocketAddr::new(args.address, args.port));
    run_with(&args.build, renderers, serve, true, &args.common)
}

/// `stoa serve --watch`: the build's other settings are their defaults.
pub fn serve(args: ServeArgs, renderers: &Renderers) -> ExitCode {
    use clap::{Args, FromArgMatches};
    let command = BuildArgs::augment_args(clap::Command::new("stoa serve --watch"));
    let argv: [std::ffi::OsString; 7] = [
        "stoa".into(),
        "--books".into(),
        args.watch.books.clone().into(),
        "--themes".into(),
        args.watch.themes.clone().into(),
        "--out".into(),
        args.dir.clone().into(),
    ];
    let build = match command
        .try_get_matches_from(argv)
        .and_then(|m| BuildArgs::from_arg_matches(&m))
    {
        Ok(build) => build,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let addr = SocketAddr::new(args.address, args.port);
    run_with(
        &build,
        renderers,
        Some(addr),
        !args.quiet,
        &args.watch.common,
    )
}

fn run_with(
    build: &BuildArgs,
    renderers: &Renderers,
    serve: Option<SocketAddr>,
    log: bool,
    common: &Common,
) -> ExitCode {
    let options = match crate::build_options(build, renderers) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let verbosity = Verbosity::from_flags(build.quiet, build.verbose);
    let config = WatchConfig {
        roots: watched_folders(&options),
        ignored: vec![options.out_dir.clone()],
        quiet: Duration::from_millis(common.debounce),
        longest: LONGEST_BURST.max(Duration::from_millis(common.debounce)),
    };
    // Watching starts before the first build, so that a save during it
    // is not lost.
    let mut watcher = match Watcher::start(config) {
        Ok(watcher) => watcher,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let live = serve.map(|_| Live::new());
    let _server = match (serve, &live) {
        (Some(addr), Some(live)) => match start_server(&options.out_dir, addr, live, log, common) {
            Ok(server) => Some(server),
            Err(code) => return code,
        },
        _ => None,
    };
    // One guard for the whole session: Ctrl-C at any time removes the
    // temporary files of a build under way and exits 130.
    let guard = crate::signals::guard_build();
    let mut watch = Watch {
        session: Session::new(options.clone()),
        outputs: OutputIndex::new(&options.out_dir),
        verbosity,
        events: common.events,
        live,
        builds: 0,
        warnings: BTreeSet::new(),
    };
    if verbosity > Verbosity::Quiet {
        let folders: Vec<String> = watcher.roots().iter().map(|r| shown(r)).collect();
        eprintln!("watching {} (Ctrl-C stops)", folders.join(", "));
    }
    if build.force {
        // `--force`: the first build makes everything again; later ones
        // skip what did not change, as watching is for.
        watch.session.force_next();
    }
    watch.rebuild(None);
    let code = loop {
        match watcher.wait() {
            Ok(batch) => watch.rebuild(Some(batch)),
            Err(e) => {
                eprintln!("error: {e}");
                break ExitCode::FAILURE;
            }
        }
    };
    drop(guard);
    code
}

/// The folders a change in which may change the output: the books, the
/// themes, the plugin folders of the command line, of STOA_PLUGIN_PATH and
/// of each book's `plugin-dir`.
fn watched_folders(options: &BuildOptions) -> Vec<PathBuf> {
    folders_to_watch(
        &options.books_dir,
        &options.themes_dir,
        &options.plugin_dirs,
        options.plugin_path.as_deref(),
    )
}

fn folders_to_watch(
    books: &Path,
    themes: &Path,
    plugin_dirs: &[PathBuf],
    plugin_path: Option<&std::ffi::OsStr>,
) -> Vec<PathBuf> {
    let mut folders = vec![books.to_path_buf(), themes.to_path_buf()];
    folders.extend(plugin_dirs.iter().cloned());
    if let Some(path) = plugin_path {
        folders.extend(std::env::split_paths(path).filter(|p| !p.as_os_str().is_empty()));
    }
    if let Ok(books) = stoa_book::discover(books) {
        for book in books {
            if let Ok(config) = stoa_book::load_config(&book)
                && let Some(dir) = config.plugin_dir
            {
                folders.push(dir);
            }
        }
    }
    // A folder inside another is watched through it.
    let absolute: Vec<PathBuf> = folders
        .iter()
        .map(|f| std::path::absolute(f).unwrap_or_else(|_| f.clone()))
        .collect();
    let mut kept: Vec<PathBuf> = Vec::new();
    for (i, folder) in absolute.iter().enumerate() {
        let inside = absolute
            .iter()
            .enumerate()
            .any(|(j, other)| j != i && folder.starts_with(other) && (folder != other || j < i));
        if !inside {
            kept.push(folders[i].clone());
        }
    }
    kept
}

fn start_server(
    out: &Path,
    addr: SocketAddr,
    live: &Live,
    log: bool,
    common: &Common,
) -> Result<ServerHandle, ExitCode> {
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!(
            "error: {}: cannot create the output folder: {e}",
            out.display()
        );
        return Err(ExitCode::FAILURE);
    }
    match Server::bind(out, addr) {
        Ok(server) => {
            let server = server.with_log(log).with_live(live.clone()).spawn();
            let bound = server.local_addr();
            let url = format!("http://{}/", stoa_address(bound));
            eprintln!("serving {} at {url} with live reload", out.display());
            if addr.ip().is_unspecified() {
                eprintln!(
                    "  open to the network: devices can use this machine's address, port {}",
                    bound.port()
                );
            }
            if common.events {
                print_event(&json!({"event": "serving", "url": url, "port": bound.port()}));
            }
            Ok(server)
        }
        Err(e) => {
            eprintln!(
                "error: cannot listen on {addr}: {e}\n  help: pick another --port, or stop what uses it"
            );
            Err(ExitCode::FAILURE)
        }
    }
}

/// The address to show: a wildcard address is reached through loopback.
fn stoa_address(addr: SocketAddr) -> SocketAddr {
    let mut addr = addr;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    addr
}

/// The watch loop's state between builds: nothing in it grows with the
/// number of builds.
struct Watch {
    session: Session,
    outputs: OutputIndex,
    verbosity: Verbosity,
    events: bool,
    live: Option<Live>,
    builds: u64,
    /// The warnings of the last build, so that a rebuild shows only new ones.
    warnings: BTreeSet<String>,
}

/// An artifact as the build reported it, with when.
struct Seen {
    path: PathBuf,
    format: &'static str,
    written: bool,
    at: SystemTime,
}

impl Watch {
    /// Builds; `batch` is what changed (none for the first build).
    fn rebuild(&mut self, batch: Option<Batch>) {
        self.builds += 1;
        let first = batch.is_none();
        let detected = batch
            .as_ref()
            .and_then(|b| b.first)
            .map(|t| SystemTime::now() - t.elapsed());
        let started = SystemTime::now();
        let clock = Instant::now();
        let seen: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
        // The first build shows its progress as `stoa build` does; later
        // ones are summed up in one line.
        let display = first.then(|| Display::new(self.verbosity));
        let report = self.session.build(&|event| {
            if let Event::Built(artifact) = &event {
                seen.lock().unwrap_or_else(|e| e.into_inner()).push(Seen {
                    path: artifact.path.clone(),
                    format: artifact.format,
                    written: artifact.written,
                    at: SystemTime::now(),
                });
            }
            if let Some(display) = &display {
                display.event(event);
            }
        });
        let seconds = clock.elapsed().as_secs_f64();
        let finished = SystemTime::now();
        let mut seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
        seen.sort_by(|a, b| a.path.cmp(&b.path));
        // A file made early (the EPUB before its PDF) and again once the
        // PDF's pages moved is told twice: it counts once, when last written.
        seen.dedup_by(|later, earlier| {
            let same = later.path == earlier.path;
            if same {
                earlier.written |= later.written;
                earlier.at = later.at;
            }
            same
        });
        // The first build looks at every artifact, written or left as it
        // was, so that later builds compare with what is on disk.
        let looked_at: Vec<PathBuf> = seen
            .iter()
            .filter(|s| s.written || first)
            .map(|s| s.path.clone())
            .collect();
        let files = self.outputs.refresh(&looked_at);
        if let Some(display) = &display {
            display.finish(&report);
        } else {
            self.summarize(batch.as_ref(), &seen, &report, seconds);
        }
        self.warnings = report.warnings.iter().map(|w| w.to_string()).collect();
        if let Some(live) = &self.live {
            let errors: Vec<LiveError> = report.errors.iter().map(live_error).collect();
            live.publish(&files, &errors);
        }
        if self.events {
            let record = json!({
                "event": "build",
                "build": self.builds,
                "ok": report.ok(),
                "changed": batch.as_ref().map_or(Vec::new(), |b| b.paths.iter().map(|p| shown(p)).collect()),
                "rescan": batch.as_ref().is_some_and(|b| b.rescan),
                "detected_ms": detected.map(epoch_ms),
                "started_ms": epoch_ms(started),
                "finished_ms": epoch_ms(finished),
                "seconds": seconds,
                "written": seen.iter().filter(|s| s.written).map(|s| json!({
                    "path": s.path.display().to_string(),
                    "format": s.format.to_string(),
                    "at_ms": epoch_ms(s.at),
                })).collect::<Vec<Value>>(),
                "unchanged": seen.iter().filter(|s| !s.written).map(|s| s.path.display().to_string()).collect::<Vec<_>>(),
                "files": files,
                "errors": report.errors.iter().map(|d| json!({
                    "file": d.file, "line": d.line, "column": d.column, "message": d.message,
                })).collect::<Vec<Value>>(),
                "warnings": report.warnings.len(),
            });
            print_event(&record);
        }
    }

    /// One line for a rebuild, then its errors and its new warnings.
    fn summarize(&self, batch: Option<&Batch>, seen: &[Seen], report: &Report, seconds: f64) {
        let cause = match batch {
            Some(b) if b.rescan => "many files changed".to_string(),
            Some(b) => changed_list(&b.paths),
            None => String::new(),
        };
        let written: Vec<String> = seen
            .iter()
            .filter(|s| s.written)
            .map(|s| {
                let folder = self.session.options().renderers.get(s.format);
                let slash = if folder.is_some_and(|r| r.writes_folder()) {
                    "/"
                } else {
                    ""
                };
                format!("{}{slash}", s.path.display())
            })
            .collect();
        let unchanged = seen.len() - written.len();
        let what = if written.is_empty() {
            "nothing to rewrite".to_string()
        } else {
            format!("rewrote {}", written.join(", "))
        };
        if report.ok() {
            if self.verbosity > Verbosity::Quiet {
                eprintln!("{cause}: {what}, {unchanged} unchanged ({:.2} s)", seconds);
            }
        } else {
            let errors = report.errors.len();
            eprintln!(
                "{cause}: build failed, {errors} error{}; the last good files stay ({what}, {:.2} s)",
                if errors == 1 { "" } else { "s" },
                seconds
            );
            for error in &report.errors {
                eprintln!("{}", indent(error));
            }
        }
        if self.verbosity > Verbosity::Quiet {
            for warning in &report.warnings {
                let text = warning.to_string();
                if !self.warnings.contains(&text) {
                    eprintln!("{}", indent(warning));
                }
            }
        }
    }
}

fn live_error(d: &Diagnostic) -> LiveError {
    LiveError {
        file: d.file.clone(),
        line: d.line,
        column: d.column,
        message: d.message.clone(),
        hint: d.hint.clone(),
    }
}

fn indent(d: &Diagnostic) -> String {
    d.to_string()
        .lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The changed paths as a user reads them: at most three, then a count.
fn changed_list(paths: &[PathBuf]) -> String {
    // A save names the file and often its folder: the file says it all.
    let files: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| !paths.iter().any(|q| q != *p && q.starts_with(p)))
        .collect();
    let mut shown_paths: Vec<String> = files.iter().take(3).map(|p| shown(p)).collect();
    if files.len() > 3 {
        shown_paths.push(format!("{} more", files.len() - 3));
    }
    format!("{} changed", shown_paths.join(", "))
}

/// `path` relative to the current folder when it is inside it.
fn shown(path: &Path) -> String {
    let here = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok());
    match here.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
        Some(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}

fn epoch_ms(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// One JSON object on one line of standard output, flushed at once (a
/// test or script waits for it).
fn print_event(value: &Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_is_named_by_its_file() {
        let paths = vec![
            PathBuf::from("/x/posts/a"),
            PathBuf::from("/x/posts/a/en.md"),
        ];
        assert_eq!(changed_list(&paths), "/x/posts/a/en.md changed");
        let many: Vec<PathBuf> = (0..5)
            .map(|i| PathBuf::from(format!("/x/{i}.md")))
            .collect();
        assert_eq!(
            changed_list(&many),
            "/x/0.md, /x/1.md, /x/2.md, 2 more changed"
        );
    }

    #[test]
    fn nested_folders_are_watched_once() {
        let plugins = [
            PathBuf::from("/p/books/plugins"),
            PathBuf::from("/q/plugins"),
        ];
        let env = std::ffi::OsString::from("/q/plugins::/r");
        assert_eq!(
            folders_to_watch(
                Path::new("/p/books"),
                Path::new("/p/themes"),
                &plugins,
                Some(&env)
            ),
            [
                PathBuf::from("/p/books"),
                PathBuf::from("/p/themes"),
                PathBuf::from("/q/plugins"),
                PathBuf::from("/r")
            ]
        );
    }
}
