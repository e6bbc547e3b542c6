//! `stoa check`: everything `stoa build` validates, writing nothing, then the
//! content lints of stoa-lint over every post of the selected editions;
//! with `--print`, the printers' preflight of each print interior too.
//! Output is sorted, so that two runs over the same books print the same.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use stoa_build::{BuildOptions, Depth, Renderers};
use stoa_doc::{Diagnostic, Severity};

#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// Folder holding one folder per book.
    #[arg(long, default_value = "books", value_name = "DIR")]
    books: PathBuf,
    /// Folder holding one folder per theme.
    #[arg(long, default_value = "themes", value_name = "DIR")]
    themes: PathBuf,
    /// Check only this book (repeatable).
    #[arg(short, long = "book", value_name = "NAME")]
    book: Vec<String>,
    /// Check only this language (repeatable), e.g. pt-BR.
    #[arg(short, long = "lang", value_name = "TAG")]
    lang: Vec<String>,
    /// Look for plugins in this folder first (repeatable), as `stoa build` does.
    #[arg(long = "plugin-dir", value_name = "DIR")]
    plugin_dir: Vec<PathBuf>,
    /// Load the native plugin libraries that books bring even if you have
    /// not trusted them, as `stoa build --trust-plugins` does.
    #[arg(long)]
    trust_plugins: bool,
    /// Number of worker threads (default: one per core).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Do not render the formats in memory: check the books, the plugins
    /// and the lints only (much faster; misses what only typesetting finds).
    #[arg(long)]
    quick: bool,
    /// Also run the printers' preflight on each book with a `[print]`
    /// profile: image resolution at the placed size, page count, spine,
    /// fonts, colour and bleed, read from the print interior as laid out.
    #[arg(long, conflicts_with = "quick")]
    print: bool,
    /// Report lint findings without failing: exit 0 unless there are errors.
    #[arg(long)]
    warn: bool,
}

/// One lint finding, sortable by file, line, column and lint.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Shown {
    file: String,
    line: usize,
    column: usize,
    lint: &'static str,
    message: String,
    hint: String,
}

pub(crate) fn run(args: CheckArgs, renderers: &Renderers) -> ExitCode {
    let trust = match crate::trust::user_trust(args.trust_plugins) {
        Ok(trust) => trust,
        Err(code) => return code,
    };
    let options = BuildOptions {
        books_dir: args.books.clone(),
        themes_dir: args.themes,
        // Never written: a check writes nothing.
        out_dir: PathBuf::from("dist"),
        books: args.book.clone(),
        languages: args.lang.clone(),
        formats: renderers.names(),
        renderers: renderers.clone(),
        jobs: args.jobs.map(usize::from),
        emit_sources: false,
        source_date_epoch: None,
        site: false,
        deny_stale: false,
        plugin_dirs: args.plugin_dir,
        plugin_path: std::env::var_os("STOA_PLUGIN_PATH"),
        exe_dir: stoa_plugin_host::SearchPath::current_exe_dir(),
        trust,
    };
    let depth = if args.quick {
        Depth::Load
    } else if args.print {
        Depth::Print
    } else {
        Depth::Render
    };
    let report = stoa_build::check(&options, depth, &|_| {});
    let errors = sorted(&report.errors);
    let warnings = sorted(&report.warnings);
    let findings = lint(&args.books, &args.book, &args.lang);
    for d in errors.iter().chain(&warnings) {
        outln!("{d}");
    }
    for f in &findings {
        outln!(
            "{}:{}:{}: warning[{}]: {}\n  help: {}",
            f.file,
            f.line,
            f.column,
            f.lint,
            f.message,
            f.hint
        );
    }
    eprintln!(
        "check: {} error{}, {} lint finding{}, {} warning{}",
        errors.len(),
        plural(errors.len()),
        findings.len(),
        plural(findings.len()),
        warnings.len(),
        plural(warnings.len())
    );
    if !errors.is_empty() || (!findings.is_empty() && !args.warn) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Diagnostics sorted and without repeats, whatever order the threads found them in.
fn sorted(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    let key = |d: &&Diagnostic| {
        (
            d.file.clone(),
            d.line,
            d.column,
            d.severity == Severity::Warning,
            d.message.clone(),
        )
    };
    let mut out: Vec<&Diagnostic> = diagnostics.iter().collect();
    out.sort_by_key(key);
    out.dedup_by(|a, b| key(a) == key(b));
    out
}

/// Lints every post of the selected books and languages, each file once
/// (a post may be in two books).
fn lint(books_dir: &std::path::Path, books: &[String], langs: &[String]) -> Vec<Shown> {
    let Ok(dirs) = stoa_book::discover(books_dir) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for dir in dirs {
        let id = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if !books.is_empty() && !id.is_some_and(|id| books.contains(&id)) {
            continue;
        }
        // A book that does not load is reported by the check above.
        let Ok(config) = stoa_book::load_config(&dir) else {
            continue;
        };
        let headings = glossary_headings(&config);
        let slugs = config
            .posts
            .iter()
            .chain(config.about.iter())
            .map(|(slug, _)| slug);
        for slug in slugs {
            for lang in &config.languages {
                if !langs.is_empty() && !langs.contains(&lang.tag) {
                    continue;
                }
                let folder = config.posts_dir.join(slug);
                let path = folder.join(format!("{}.md", lang.tag));
                if !path.is_file() || !seen.insert(path.clone()) {
                    continue;
                }
                // A post that does not load is reported by the check above.
                let Ok(header) = stoa_book::read_header(&path) else {
                    continue;
                };
                let post = stoa_lint::Post {
                    text: &header.file.text,
                    body_start: header.body_start,
                    front: header.front.clone(),
                    front_table: (header.format == stoa_book::FrontFormat::Yaml)
                        .then(|| {
                            stoa_book::yaml_table(&header.file.text[header.front.clone()]).ok()
                        })
                        .flatten(),
                    lang: &lang.tag,
                    dir: Some(&folder),
                    glossary_headings: &headings,
                };
                for f in stoa_lint::lint_post(&post) {
                    out.push(Shown {
                        file: header.file.display.clone(),
                        line: f.line,
                        column: f.column,
                        lint: f.lint.id(),
                        message: f.message,
                        hint: f.hint,
                    });
                }
            }
        }
    }
    out.sort();
    out
}

/// The glossary headings a book sets in `[plugins.glossary] headings`.
fn glossary_headings(config: &stoa_book::BookConfig) -> Vec<String> {
    config
        .plugins
        .iter()
        .filter(|p| p.name == "glossary")
        .filter_map(|p| p.settings.get("headings")?.as_object().cloned())
        .flat_map(|table| {
            table
                .into_iter()
                .filter_map(|(_, v)| v.as_str().map(String::from))
        })
        .collect()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
