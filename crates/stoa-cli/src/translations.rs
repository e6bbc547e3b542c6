//! `stoa status` and `stoa translations mark`: whether translations are in
//! step with their sources, and recording that one is.

use std::path::PathBuf;
use std::process::ExitCode;
use stoa_book::{BookConfig, discover, load_config};
use stoa_doc::Diagnostic;

/// `stoa status`.
#[derive(clap::Args)]
pub struct StatusArgs {
    /// Folder holding one folder per book.
    #[arg(long, default_value = "books", value_name = "DIR")]
    books: PathBuf,
    /// Only this book (repeatable).
    #[arg(short, long = "book", value_name = "NAME")]
    book: Vec<String>,
    /// Exit with status 1 when a translation is stale (for CI and releases).
    #[arg(long)]
    check: bool,
}

/// `stoa translations`.
#[derive(clap::Args)]
pub struct TranslationsArgs {
    #[command(subcommand)]
    command: TranslationsCommand,
}

#[derive(clap::Subcommand)]
enum TranslationsCommand {
    /// Record that a post's translation is up to date with its source, as the
    /// source is now: writes `translation-of` into the translation's front matter.
    Mark(MarkArgs),
}

#[derive(clap::Args)]
struct MarkArgs {
    /// The post: its slug (a folder of a book's posts folder) or the path of its folder.
    post: String,
    /// The language of the translation to mark, e.g. en.
    lang: String,
    /// The language it translates; by default the one it names already, or
    /// the post's only other language.
    #[arg(long, value_name = "TAG")]
    from: Option<String>,
    /// Folder holding one folder per book.
    #[arg(long, default_value = "books", value_name = "DIR")]
    books: PathBuf,
}

fn print_errors(errors: &[Diagnostic]) {
    for e in errors {
        eprintln!("{e}");
    }
}

/// The configurations of the books in `dir` (only `wanted` if not empty).
fn configs(dir: &std::path::Path, wanted: &[String]) -> Result<Vec<BookConfig>, Vec<Diagnostic>> {
    let dirs = discover(dir).map_err(|d| vec![d])?;
    let ids: Vec<String> = dirs
        .iter()
        .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    if dirs.is_empty() {
        return Err(vec![
            Diagnostic::error(format!("no book found in {}", dir.display()))
                .with_hint("a book is a folder with a book.toml; see docs/reference.md"),
        ]);
    }
    let mut errors = Vec::new();
    for w in wanted.iter().filter(|w| !ids.contains(w)) {
        errors.push(
            Diagnostic::error(format!("there is no book `{w}` in {}", dir.display()))
                .with_hint(format!("the books are: {}", ids.join(", "))),
        );
    }
    let mut out = Vec::new();
    for (d, id) in dirs.iter().zip(&ids) {
        if wanted.is_empty() || wanted.contains(id) {
            match load_config(d) {
                Ok(c) => out.push(c),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Prints the matrix of every book; with `--check`, fails on a stale translation.
pub fn status(args: StatusArgs) -> ExitCode {
    let configs = match configs(&args.books, &args.book) {
        Ok(c) => c,
        Err(errors) => {
            print_errors(&errors);
            return ExitCode::FAILURE;
        }
    };
    let statuses: Vec<_> = configs.iter().map(stoa_translate::book_status).collect();
    let mut stale = 0;
    let mut broken = 0;
    for (i, status) in statuses.iter().enumerate() {
        if i > 0 {
            outln!();
        }
        out!("{}", stoa_translate::render(status));
        stale += status.stale().count();
        broken += status
            .cells()
            .filter(|(_, _, c)| matches!(c, stoa_translate::Cell::Error(_)))
            .count();
    }
    if broken > 0 {
        return ExitCode::FAILURE;
    }
    if args.check && stale > 0 {
        eprintln!(
            "error: {stale} stale translation{}",
            if stale == 1 { "" } else { "s" }
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `stoa translations …`.
pub fn translations(args: TranslationsArgs) -> ExitCode {
    match args.command {
        TranslationsCommand::Mark(args) => mark(args),
    }
}

/// The folder of a post named by slug (in any book's posts folder) or path.
fn post_folder(post: &str, books: &std::path::Path) -> Result<PathBuf, Vec<Diagnostic>> {
    let as_path = PathBuf::from(post);
    if post.contains(['/', '\\']) {
        return if as_path.is_dir() {
            Ok(as_path)
        } else {
            Err(vec![
                Diagnostic::error(format!("{post} is not a folder"))
                    .with_hint("name the post by its slug, or give the path of its folder"),
            ])
        };
    }
    let configs = configs(books, &[])?;
    let mut dirs: Vec<PathBuf> = configs.iter().map(|c| c.posts_dir.clone()).collect();
    dirs.sort();
    dirs.dedup();
    if let Some(found) = dirs.iter().map(|d| d.join(post)).find(|f| f.is_dir()) {
        return Ok(found);
    }
    let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    Err(vec![
        Diagnostic::error(format!(
            "there is no post `{post}` (looked in {})",
            shown.join(", ")
        ))
        .with_hint("the post is the name of its folder, e.g. dialogue-on-masters"),
    ])
}

fn mark(args: MarkArgs) -> ExitCode {
    let result = post_folder(&args.post, &args.books)
        .and_then(|folder| stoa_translate::mark(&folder, &args.lang, args.from.as_deref()));
    match result {
        Ok(marked) if marked.written => {
            outln!(
                "marked {} as translating {} ({})",
                marked.path.display(),
                marked.from,
                marked.fingerprint
            );
            ExitCode::SUCCESS
        }
        Ok(marked) => {
            outln!(
                "{} already translates {} as it is ({})",
                marked.path.display(),
                marked.from,
                marked.fingerprint
            );
            ExitCode::SUCCESS
        }
        Err(errors) => {
            print_errors(&errors);
            ExitCode::FAILURE
        }
    }
}
