//! `stoa plugins`: every plugin stoa finds, where the build looks for them
//! (built-in ones included), and which plugin each book would use.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use stoa_plugin_host::{Hooks, PluginInfo, SearchPath, Trust};

/// `stoa plugins`'s options.
#[derive(clap::Args)]
pub(crate) struct PluginsArgs {
    /// Look for plugins in this folder first (repeatable).
    #[arg(long = "plugin-dir", value_name = "DIR")]
    plugin_dir: Vec<PathBuf>,
    /// Folder holding one folder per book: each book's `plugin-dir` is
    /// searched too, and each book's plugins are shown as its build finds them.
    #[arg(long, default_value = "books", value_name = "DIR")]
    books: PathBuf,
    /// List (and so load) the native libraries that books bring even if
    /// you have not trusted them, as `stoa build --trust-plugins` does.
    #[arg(long)]
    trust_plugins: bool,
    #[command(subcommand)]
    command: Option<PluginsCommand>,
}

/// What `stoa plugins` does besides listing.
#[derive(clap::Subcommand)]
pub(crate) enum PluginsCommand {
    /// Trust native plugin libraries that a book brings in its `plugin-dir`:
    /// each library's path and the SHA-256 of its bytes go into your trust
    /// list (~/.config/stoa/trusted.toml, or STOA_TRUST_FILE); a library
    /// whose bytes change is untrusted again.
    Trust {
        /// The library files to trust.
        #[arg(required = true, value_name = "LIBRARY")]
        libraries: Vec<PathBuf>,
    },
}

fn search(
    cli_dirs: &[PathBuf],
    book_dir: Option<&std::path::Path>,
    trust: &Arc<Trust>,
) -> SearchPath {
    let env = std::env::var_os("STOA_PLUGIN_PATH");
    let exe_dir = SearchPath::current_exe_dir();
    stoa_build::plugin_search(cli_dirs, env.as_deref(), book_dir, exe_dir.as_deref())
        .with_trust(Arc::clone(trust))
}

fn hook_names(hooks: Hooks) -> String {
    let on = hooks.names();
    if on.is_empty() {
        "none".into()
    } else {
        on.join(", ")
    }
}

fn line(info: &PluginInfo) -> String {
    let origin = if info.builtin {
        "built into stoa".to_string()
    } else {
        info.path.display().to_string()
    };
    format!(
        "{:<16} {:<10} abi {}  hooks: {:<26} {origin}{}",
        info.name,
        info.version,
        info.abi_version,
        hook_names(info.hooks),
        if info.shadowed {
            "  (shadowed by an earlier one)"
        } else {
            ""
        }
    )
}

/// Lists the plugins: those on the search path without a book, then those
/// in each book's `plugin-dir`, then each book's plugins as its build
/// would load them. Fails when a library does not load or a book's plugin
/// is not found.
pub(crate) fn run(args: PluginsArgs) -> ExitCode {
    if let Some(PluginsCommand::Trust { libraries }) = &args.command {
        return crate::trust::run_trust(libraries);
    }
    let trust = match crate::trust::user_trust(args.trust_plugins) {
        Ok(trust) => trust,
        Err(code) => return code,
    };
    let mut failed = false;
    let base = search(&args.plugin_dir, None, &trust);
    for entry in stoa_plugin_host::list(&base) {
        match entry {
            Ok(info) => outln!("{}", line(&info)),
            Err(error) => {
                failed = true;
                eprintln!("{error}");
            }
        }
    }
    let books = stoa_book::discover(&args.books).unwrap_or_default();
    for dir in books {
        let config = match stoa_book::load_config(&dir) {
            Ok(config) => config,
            Err(errors) => {
                for e in errors {
                    eprintln!("{e}");
                }
                failed = true;
                continue;
            }
        };
        let search = search(&args.plugin_dir, config.plugin_dir.as_deref(), &trust);
        if let Some(plugin_dir) = &config.plugin_dir {
            outln!(
                "\nin {} (plugin-dir of {}):",
                plugin_dir.display(),
                config.file
            );
            // The book's own folder: its native libraries are listed (and
            // so loaded) only when trusted, unless the user names it too.
            let only_there = if args.plugin_dir.contains(plugin_dir) {
                SearchPath::new([plugin_dir.clone()])
            } else {
                SearchPath::project(plugin_dir.clone()).with_trust(Arc::clone(&trust))
            };
            let found = stoa_plugin_host::list(&only_there);
            if found.is_empty() {
                outln!("  no plugin libraries");
            }
            for entry in found {
                match entry {
                    Ok(info) => outln!("  {}", line(&info)),
                    Err(error) => {
                        failed = true;
                        eprintln!("{error}");
                    }
                }
            }
        }
        if config.plugins.is_empty() {
            continue;
        }
        outln!("\nbook `{}` ({}) uses:", config.id, config.file);
        for plugin in &config.plugins {
            match stoa_plugin_host::load(&plugin.name, &search) {
                Ok(loaded) => {
                    let from_book = !loaded.is_builtin() && search.is_from_project(loaded.path());
                    let note = match (from_book, trust.trusts_everything()) {
                        (false, _) => "",
                        (true, false) => "  (the book's own library, trusted)",
                        (true, true) => "  (the book's own library, trusted for this run)",
                    };
                    outln!("  {:<16} {}{note}", plugin.name, loaded.origin())
                }
                Err(error) => {
                    failed = true;
                    outln!("  {:<16} NOT LOADED", plugin.name);
                    eprintln!("{}:{}: {error}", config.file, plugin.line);
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
