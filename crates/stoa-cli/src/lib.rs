//! The `stoa` command: builds anthologies of blog posts as EPUB and PDF.
//! `stoa build` with no arguments builds every book in ./books.
//!
//! The binary is [`run`] with stoa's own formats; a test (or another
//! front end) can run the same command with more formats registered.

/// `println!` that ignores a closed pipe: with `stoa plugins | head -1`
/// the reader has left, and there is nobody to tell (`println!` would
/// panic). stoa ignores SIGPIPE, as Rust programs do, so that a plugin
/// worker or a browser that goes away never kills it.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `print!` that ignores a closed pipe, as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod check;
mod fonts;
mod import;
mod new;
mod plugin_list;
mod plugin_new;
mod progress;
mod signals;
mod theme;
mod translations;
mod trust;
mod watch;

use clap::{CommandFactory, FromArgMatches, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use stoa_build::{BuildOptions, Renderers};

#[derive(clap::Parser)]
#[command(
    name = "stoa",
    version,
    about = "Publishing toolkit: blog posts in Markdown to EPUB and print-ready PDF anthologies"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build books: every book, language and format unless told otherwise.
    Build(BuildArgs),
    /// Check books without writing anything: everything `stoa build`
    /// validates, plus content lints (web-only phrases, dangling lead-ins...).
    Check(check::CheckArgs),
    /// Start a new book: a project folder with a commented book.toml and a
    /// sample post per language, ready for `stoa build`.
    New(new::NewArgs),
    /// Make a blog a stoa project: a Hugo, Jekyll or Zola site folder, or a
    /// WordPress, Ghost, Substack or feed export, into books/ and book.toml.
    Import(import::ImportArgs),
    /// List the plugins stoa can find (built in, in plugin folders, in each
    /// book's `plugin-dir`), with their versions, ABI and hooks.
    Plugins(plugin_list::PluginsArgs),
    /// Work with plugins: `new` starts a plugin crate that builds, passes
    /// its test and loads at once.
    #[command(subcommand)]
    Plugin(plugin_new::PluginCommand),
    /// Work with themes: `export` writes the built-in one out to change it.
    Theme(theme::ThemeArgs),
    /// Font packs too large to bundle (Chinese, Japanese, Korean): `list`,
    /// `add` (once: every later build uses it), `remove`.
    Fonts(fonts::FontsArgs),
    /// Serve the output folder over HTTP, read-only, for preview and for
    /// devices on the same network.
    Serve(ServeArgs),
    /// Build, then build again on every change to the books, themes and
    /// plugins, redoing only what the change affects (`--serve`: with a
    /// live preview in the browser).
    Watch(watch::WatchArgs),
    /// Show, per book, which translations are up to date, stale, missing.
    Status(translations::StatusArgs),
    /// Work with translations: `mark` records that one is up to date.
    Translations(translations::TranslationsArgs),
    /// Serves one plugin library over standard input and output, for a
    /// build that runs the plugin isolated (`isolate = true`).
    #[command(hide = true, name = "plugin-host")]
    PluginHost {
        /// The plugin library to load; with --builtin, the built-in plugin's name.
        library: PathBuf,
        /// Serve the plugin built into stoa of that name.
        #[arg(long)]
        builtin: bool,
    },
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The folder to serve.
    #[arg(long, default_value = "dist", value_name = "DIR")]
    dir: PathBuf,
    /// Address to listen on; 127.0.0.1 keeps it on this machine, 0.0.0.0 opens it to the network.
    #[arg(long, default_value = "127.0.0.1", value_name = "IP")]
    address: std::net::IpAddr,
    /// Port to listen on (0 picks a free one).
    #[arg(short, long, default_value_t = 8000)]
    port: u16,
    /// Print nothing per request.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    watch: watch::ServeWatchArgs,
}

#[derive(clap::Args)]
struct BuildArgs {
    /// Folder holding one folder per book.
    #[arg(long, default_value = "books", value_name = "DIR")]
    books: PathBuf,
    /// Folder holding one folder per theme; a folder named like a built-in
    /// theme (`classic`) replaces it.
    #[arg(long, default_value = "themes", value_name = "DIR")]
    themes: PathBuf,
    /// Where to write the artifacts: <out>/<book>/<book>-<lang>.<format>, and
    /// the web edition as the folder <out>/<book>/<lang>/.
    #[arg(short, long, default_value = "dist", value_name = "DIR")]
    out: PathBuf,
    /// Build only this book (repeatable).
    #[arg(short, long = "book", value_name = "NAME")]
    book: Vec<String>,
    /// Build only this language (repeatable), e.g. pt-BR.
    #[arg(short, long = "lang", value_name = "TAG")]
    lang: Vec<String>,
    /// Build only this format (repeatable); the values are the registered
    /// formats' names.
    #[arg(short, long = "format", value_name = "FORMAT")]
    format: Vec<String>,
    /// Number of worker threads (default: one per core).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Also write the generated Typst source next to each PDF, for theme work.
    #[arg(long)]
    emit_typst: bool,
    /// Do not write the download page and OPDS catalogs (index.html, opds*.xml).
    #[arg(long)]
    no_site: bool,
    /// Fail when a translation is stale (its source changed since it was marked).
    #[arg(long)]
    deny_stale: bool,
    /// Make every file again, ignoring the build cache in the output folder
    /// (`<out>/.cache/stoa/`), which otherwise skips what did not change.
    #[arg(long)]
    force: bool,
    /// Look for plugins in this folder first (repeatable); then STOA_PLUGIN_PATH,
    /// a book's `plugin-dir`, the plugins built into stoa, and the folder of
    /// the stoa executable.
    #[arg(long = "plugin-dir", value_name = "DIR")]
    plugin_dir: Vec<PathBuf>,
    /// Load the native plugin libraries that books bring in their
    /// `plugin-dir` for this run even if you have not trusted them (`stoa
    /// plugins trust`); for CI, also STOA_TRUST_PLUGINS=1.
    #[arg(long)]
    trust_plugins: bool,
    /// Print only errors.
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,
    /// Print every artifact with its size and time, and every warning's help.
    #[arg(short, long)]
    verbose: bool,
}

/// Runs the `stoa` command on `args` (the program's name first), writing
/// the formats `renderers` registers: `--format` takes their names.
pub fn run(renderers: Renderers, args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let command = with_formats(Cli::command(), &renderers.names());
    let cli = match command
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version on stdout with status 0.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    dispatch(cli, &renderers)
}

/// `command` with every `--format` (of every subcommand) taking the
/// formats `names`, which `--help` lists.
fn with_formats(mut command: clap::Command, names: &[&'static str]) -> clap::Command {
    if command.get_arguments().any(|a| a.get_id() == "format") {
        let values = clap::builder::PossibleValuesParser::new(names.iter().copied());
        command = command.mut_arg("format", |a| a.value_parser(values));
    }
    let subcommands: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in subcommands {
        command = command.mut_subcommand(name, |s| with_formats(s, names));
    }
    command
}

fn dispatch(cli: Cli, renderers: &Renderers) -> ExitCode {
    match cli.command {
        Command::Build(args) => build(args, renderers),
        Command::Check(args) => check::run(args, renderers),
        Command::Serve(args) => serve(args, renderers),
        Command::Watch(args) => watch::run(args, renderers),
        Command::New(args) => new::run(args),
        Command::Import(args) => import::run(args),
        Command::Plugins(args) => plugin_list::run(args),
        Command::Plugin(command) => plugin_new::run(command),
        Command::Theme(args) => theme::run(args),
        Command::Fonts(args) => fonts::run(args),
        Command::Status(args) => translations::status(args),
        Command::Translations(args) => translations::translations(args),
        Command::PluginHost { library, builtin } => {
            let code = if builtin {
                let name = library.to_string_lossy();
                match stoa_build::builtin_plugin(&name) {
                    Some(plugin) => stoa_plugin_host::serve_builtin(plugin),
                    None => {
                        eprintln!("stoa plugin-host: no built-in plugin `{name}`");
                        1
                    }
                }
            } else {
                stoa_plugin_host::serve_isolated(&library)
            };
            ExitCode::from(u8::try_from(code).unwrap_or(1))
        }
    }
}

fn serve(args: ServeArgs, renderers: &Renderers) -> ExitCode {
    if args.watch.on() {
        return watch::serve(args, renderers);
    }
    if !args.dir.join("index.html").is_file() {
        eprintln!(
            "error: {} has no index.html\n  help: run `stoa build` first, or pass --dir",
            args.dir.display()
        );
        return ExitCode::FAILURE;
    }
    let addr = std::net::SocketAddr::new(args.address, args.port);
    match stoa_serve::Server::bind(&args.dir, addr) {
        Ok(server) => {
            let bound = server.local_addr();
            eprintln!(
                "serving {} at http://{bound}/ (Ctrl-C stops)",
                args.dir.display()
            );
            if args.address.is_unspecified() {
                eprintln!(
                    "  open to the network: devices can use this machine's address, port {}",
                    bound.port()
                );
            }
            server.with_log(!args.quiet).run();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "error: cannot listen on {addr}: {e}\n  help: pick another --port, or stop what uses it"
            );
            ExitCode::FAILURE
        }
    }
}

fn build(args: BuildArgs, renderers: &Renderers) -> ExitCode {
    let options = match build_options(&args, renderers) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let verbosity = progress::Verbosity::from_flags(args.quiet, args.verbose);
    let display = progress::Display::new(verbosity);
    let building = signals::guard_build();
    let report = if args.force {
        stoa_build::build_forced(&options, &|event| display.event(event))
    } else {
        stoa_build::build(&options, &|event| display.event(event))
    };
    drop(building);
    display.finish(&report);
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What `args` ask to build (shared by `stoa build` and `stoa watch`); the
/// exit code when the environment is wrong (a bad SOURCE_DATE_EPOCH).
fn build_options(args: &BuildArgs, renderers: &Renderers) -> Result<BuildOptions, ExitCode> {
    let source_date_epoch = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(v) => match v.trim().parse::<i64>() {
            Ok(n) => Some(n),
            Err(_) => {
                eprintln!(
                    "error: SOURCE_DATE_EPOCH is `{v}`, not a number of seconds\n  help: unset it or set it to e.g. 1717200000"
                );
                return Err(ExitCode::from(2));
            }
        },
        Err(_) => None,
    };
    // In build order, each once: `-f pdf -f epub` builds as `-f epub -f pdf`.
    let formats: Vec<&'static str> = renderers
        .names()
        .into_iter()
        .filter(|name| args.format.is_empty() || args.format.iter().any(|f| f == name))
        .collect();
    Ok(BuildOptions {
        books_dir: args.books.clone(),
        themes_dir: args.themes.clone(),
        out_dir: args.out.clone(),
        books: args.book.clone(),
        languages: args.lang.clone(),
        formats,
        renderers: renderers.clone(),
        jobs: args.jobs.map(usize::from),
        emit_sources: args.emit_typst,
        source_date_epoch,
        site: !args.no_site,
        deny_stale: args.deny_stale,
        plugin_dirs: args.plugin_dir.clone(),
        plugin_path: std::env::var_os("STOA_PLUGIN_PATH"),
        exe_dir: stoa_plugin_host::SearchPath::current_exe_dir(),
        trust: trust::user_trust(args.trust_plugins)?,
    })
}
