//! `stoa theme export`: writes a built-in theme into a folder, for an
//! author to change; a book then uses the folder instead.

use std::path::PathBuf;
use std::process::ExitCode;

/// `stoa theme`'s subcommands.
#[derive(clap::Args)]
pub(crate) struct ThemeArgs {
    #[command(subcommand)]
    command: ThemeCommand,
}

#[derive(clap::Subcommand)]
enum ThemeCommand {
    /// Write a built-in theme's files (book.typ, epub.css, web.css,
    /// code.tmTheme) into a folder, to change them. A folder
    /// themes/<name>/ beside books/ replaces the built-in theme of that name.
    Export {
        /// The built-in theme.
        #[arg(default_value = stoa_theme::CLASSIC, value_name = "NAME")]
        name: String,
        /// Where to write it; default themes/<name>.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Overwrite files that exist.
        #[arg(long)]
        force: bool,
    },
}

/// Runs `stoa theme`.
pub(crate) fn run(args: ThemeArgs) -> ExitCode {
    let ThemeCommand::Export { name, dir, force } = args.command;
    let dir = dir.unwrap_or_else(|| PathBuf::from("themes").join(&name));
    match stoa_theme::export(&name, &dir, force) {
        Ok(files) => {
            for file in files {
                outln!("wrote {}", file.display());
            }
            if dir.file_name().is_some_and(|n| n == name.as_str()) {
                outln!(
                    "books with `theme = \"{name}\"` (or no `theme`) now use {}",
                    dir.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            let hint = match &error {
                stoa_theme::ExportError::Unknown(_) => {
                    "name a built-in theme, e.g. `stoa theme export classic`".to_string()
                }
                stoa_theme::ExportError::Exists(_) => format!(
                    "pass --force to overwrite them, or --dir to write elsewhere than {}",
                    dir.display()
                ),
                stoa_theme::ExportError::Io(..) => "name a folder you can write to".to_string(),
            };
            eprintln!("error: {error}\n  help: {hint}");
            ExitCode::FAILURE
        }
    }
}
