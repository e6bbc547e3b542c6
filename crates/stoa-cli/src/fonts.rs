//! `stoa fonts`: the font packs too large to bundle (CJK), listed, fetched
//! once into the user's cache, and removed. A build uses an installed pack
//! by itself.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use stoa_font_packs::{PackError, Source};

/// `stoa fonts`' subcommands.
#[derive(clap::Args)]
pub(crate) struct FontsArgs {
    #[command(subcommand)]
    command: FontsCommand,
}

#[derive(clap::Subcommand)]
enum FontsCommand {
    /// List the font packs, their size and whether they are installed.
    List,
    /// Download a font pack into the user's cache (once: every later
    /// build uses it). Each file is checked against the size and SHA-256
    /// stoa pins; a wrong or partial download installs nothing.
    Add {
        /// The pack, e.g. noto-serif-cjk (see `stoa fonts list`).
        #[arg(value_name = "PACK")]
        name: String,
        /// Take the files from this folder, or from this address
        /// (`<URL>/<file name>`: a mirror), instead of the pack's source.
        #[arg(long, value_name = "DIR|URL")]
        from: Option<String>,
        /// The longest one file's download may take, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = stoa_font_packs::DEFAULT_TIMEOUT.as_secs())]
        timeout: u64,
    },
    /// Remove an installed font pack.
    Remove {
        /// The pack.
        #[arg(value_name = "PACK")]
        name: String,
    },
}

/// Runs `stoa fonts`.
pub(crate) fn run(args: FontsArgs) -> ExitCode {
    match go(args.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err((error, hint)) => {
            eprintln!("error: {error}\n  help: {hint}");
            ExitCode::FAILURE
        }
    }
}

type Failure = (String, String);

fn go(command: FontsCommand) -> Result<(), Failure> {
    let packs = stoa_font_packs::catalog().map_err(|e| {
        let hint = format!(
            "fix the file, or unset {} to use stoa's own catalog",
            stoa_font_packs::CATALOG_VAR
        );
        (e.to_string(), hint)
    })?;
    let root = stoa_font_packs::packs_dir().ok_or_else(|| {
        (
            "no cache folder to keep font packs in: HOME and XDG_CACHE_HOME are unset".to_string(),
            "set XDG_CACHE_HOME to a folder you can write to".to_string(),
        )
    })?;
    let find = |name: &str| {
        stoa_font_packs::find(&packs, name)
            .map_err(|e| (e.to_string(), "`stoa fonts list` shows them".to_string()))
    };
    match command {
        FontsCommand::List => {
            for pack in &packs {
                let state = match stoa_font_packs::installed_in(&root, pack) {
                    Some(_) => "installed",
                    None => "not installed",
                };
                outln!(
                    "{} {} ({}, {}): {}\n  {}; {}",
                    pack.name,
                    pack.version,
                    megabytes(pack.size()),
                    state,
                    pack.summary,
                    pack.license,
                    pack.source
                );
            }
            outln!("packs are kept in {}", root.display());
            Ok(())
        }
        FontsCommand::Add {
            name,
            from,
            timeout,
        } => {
            let pack = find(&name)?;
            let client = stoa_font_packs::client(&packs, Duration::from_secs(timeout.max(1)));
            let source = match from {
                None => Source::Web(&client),
                Some(at) if at.contains("://") => Source::Mirror(&client, at),
                Some(dir) => Source::Folder(PathBuf::from(dir)),
            };
            if stoa_font_packs::installed_in(&root, pack).is_some() {
                outln!("{} {} is installed already", pack.name, pack.version);
                return Ok(());
            }
            let mut tell = |file: &stoa_font_packs::PackFile| {
                outln!("fetching {} ({})", file.name, megabytes(file.size));
            };
            let done = stoa_font_packs::add(&root, pack, &source, &mut tell)
                .map_err(|e| failure(&e, &name))?;
            outln!(
                "installed {} {} in {}; builds use it from now on",
                pack.name,
                pack.version,
                done.files[0].parent().unwrap_or(&root).display()
            );
            Ok(())
        }
        FontsCommand::Remove { name } => {
            let pack = find(&name)?;
            match stoa_font_packs::remove(&root, pack) {
                Ok(true) => outln!("removed {} {}", pack.name, pack.version),
                Ok(false) => outln!("{} is not installed", pack.name),
                Err(e) => {
                    let dir = root.join(pack.folder_name());
                    return Err((
                        format!("{}: {e}", dir.display()),
                        "remove the folder by hand".to_string(),
                    ));
                }
            }
            Ok(())
        }
    }
}

/// The error and what to do about it.
fn failure(error: &PackError, name: &str) -> Failure {
    let hint = match error {
        PackError::Fetch { .. } => format!(
            "check the network and run `stoa fonts add {name}` again; on a machine without \
             it, copy the files and use --from <folder>"
        ),
        PackError::Mismatch { .. } => {
            "the source does not hold the pinned file (damaged, or changed since): try again, \
             or take it from another copy with --from"
                .to_string()
        }
        PackError::Io { .. } => {
            "check the file named: a folder given to --from must hold the pack's files, and \
             the cache folder must be writable"
                .to_string()
        }
        PackError::Catalog(..) | PackError::Unknown(..) => {
            "`stoa fonts list` shows the packs".to_string()
        }
    };
    (error.to_string(), hint)
}

/// `56.5 MB`.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
