//! `stoa plugins`: every plugin stoa finds, where the build looks for them
//! (built-in ones included), and which plugin each book would use.

use std::path::PathBuf;
use std::process::ExitCode;
use stoa_plugin_host::{Hooks, PluginInfo, SearchPath};

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
}

fn search(cli_dirs: &[PathBuf], book_dir: Option<&std::path::Path>) -> SearchPath {
    let env = std::env::var_os("STOA_PLUGIN_PATH");
    let exe_dir = SearchPath::current_exe_dir();
    stoa_build::plugin_search(cli_dirs, env.as_deref(), book_dir, exe_dir.as_deref())
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
    let mut failed = false;
    let base = search(&args.plugin_dir, None);
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
        let search = search(&args.plugin_dir, config.plugin_dir.as_deref());
        if let Some(plugin_dir) = &config.plugin_dir {
            outln!(
                "\nin {} (plugin-dir of {}):",
                plugin_dir.display(),
                config.file
            );
            let only_there = SearchPath::new([plugin_dir.clone()]);
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
                Ok(loaded) => outln!("  {:<16} {}", plugin.name, loaded.origin()),
                Err(error) => {
                    failed = true;
                    outln!("  {:<16} NOT FOUND", plugin.name);
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
