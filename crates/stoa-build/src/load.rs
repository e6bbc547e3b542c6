//! Loading: the books selected, their stale translations told, and each
//! edition loaded (posts parsed, plugins run, diagrams drawn, note calls
//! placed), in parallel per book and per language.

use crate::options::BuildOptions;
use crate::report::{Report, Sink};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use stoa_book::{BookConfig, Edition, load_config};
use stoa_doc::Diagnostic;

/// Every selected book's configuration (or why it does not load), once
/// the stale translations are told; `None` when the build stops there (an
/// unknown book or language, `--deny-stale`), the report saying why.
pub(crate) fn select(
    options: &BuildOptions,
    sink: Sink,
    report: &mut Report,
) -> Option<Vec<Result<BookConfig, Vec<Diagnostic>>>> {
    let _t = crate::timings::phase(|| "books and stale translations".into());
    if let Err(error) = options.selected() {
        report.fail(sink, "build", vec![error]);
        return None;
    }
    let configs = match select_books(options) {
        Ok(configs) => configs,
        Err(errors) => {
            report.fail(sink, "build", errors);
            return None;
        }
    };
    let chosen: Vec<&BookConfig> = configs.iter().flatten().collect();
    if crate::translations::report_stale(options, &chosen, sink, report) {
        return None;
    }
    Some(configs)
}

/// Tells the errors of the books whose book.toml does not load.
pub(crate) fn report_broken(
    configs: &[Result<BookConfig, Vec<Diagnostic>>],
    sink: Sink,
    report: &mut Report,
) {
    for errors in configs.iter().filter_map(|c| c.as_ref().err()) {
        let file = errors
            .first()
            .and_then(|e| e.file.clone())
            .unwrap_or_default();
        report.fail(sink, &file, errors.clone());
    }
}

/// Puts `editions` in the order of a cold build: books as selected,
/// languages as book.toml lists them; then tells their warnings.
pub(crate) fn in_build_order<'a>(
    chosen: &[&BookConfig],
    mut editions: Vec<(&'a BookConfig, Edition)>,
    sink: Sink,
    report: &mut Report,
) -> Vec<(&'a BookConfig, Edition)> {
    let position = |config: &BookConfig, lang: &str| {
        let book = chosen.iter().position(|c| c.id == config.id);
        (book, config.languages.iter().position(|l| l.tag == lang))
    };
    editions.sort_by_key(|(config, edition)| position(config, &edition.book.lang));
    for (_, edition) in &editions {
        report.warn(sink, &edition.warnings);
    }
    editions
}

/// The editions a build loaded, and the mistakes it told.
#[derive(Default)]
pub(crate) struct Loading<'a> {
    /// Each edition loaded, with its book, in the order they finished.
    pub(crate) editions: Vec<(&'a BookConfig, Edition)>,
    /// A mistake in book.toml met by every edition is told once, at its line.
    reported: crate::diagnostics::Reported,
}

impl<'a> Loading<'a> {
    /// Loads the editions of each book in the languages given with it, with
    /// the book's plugins run, diagrams drawn and note calls placed; reports
    /// those that fail. Returns the index of the first edition it added.
    pub(crate) fn load(
        &mut self,
        options: &BuildOptions,
        wanted: Vec<(&'a BookConfig, Vec<String>)>,
        sink: Sink,
        report: &mut Report,
    ) -> usize {
        let first = self.editions.len();
        let loaded: Vec<_> = wanted
            .into_par_iter()
            .filter(|(_, langs)| !langs.is_empty())
            .map(|(config, langs)| {
                let _t = crate::timings::phase(|| format!("  load {}", config.id));
                let results = crate::plugins::load_editions(options, config, Some(&langs));
                let results: Vec<_> = results
                    .into_par_iter()
                    .map(|(lang, result)| {
                        let result = result
                            .map(draw_diagrams)
                            .map(|e| place_note_calls(config, e))
                            .and_then(|e| number_figures(config, e))
                            .and_then(|e| make_index(config, e))
                            .map(|e| check_links(config, e));
                        (lang, result)
                    })
                    .collect();
                (config, results)
            })
            .collect();
        for (config, results) in loaded {
            for (lang, result) in results {
                match result {
                    Ok(edition) => self.editions.push((config, edition)),
                    Err(errors) => {
                        let names = || crate::diagnostics::plugin_names(options, Some(config));
                        let errors = self.reported.settle(Some(config), errors, &names);
                        report.fail(sink, &format!("{} ({lang})", config.id), errors);
                    }
                }
            }
        }
        first
    }
}

/// Puts the edition's note calls before or after punctuation as its
/// language (or book.toml) says, after the plugins have added their notes,
/// and its quotation marks as its language sets them.
fn place_note_calls(config: &BookConfig, mut edition: Edition) -> Edition {
    crate::quotes::localize(&mut edition.book);
    if let Some(language) = config.languages.iter().find(|l| l.tag == edition.book.lang) {
        crate::note_calls::place(&mut edition.book, language.note_call);
    }
    edition
}

/// The edition's labelled figures, tables, listings and equations numbered
/// and the references to them made links (stoa-xref), after the plugins and
/// the diagrams (a diagram can be a figure), before the index (which then
/// sees the references as the renderers will print them).
fn number_figures(config: &BookConfig, mut edition: Edition) -> Result<Edition, Vec<Diagnostic>> {
    let _t = crate::timings::phase(|| format!("  figures {} ({})", config.id, edition.book.lang));
    let figures = &config.figures;
    let settings = stoa_xref::Settings {
        per_chapter: figures.numbering == stoa_book::figures::Numbering::Chapter,
        list_of_figures: figures.list_of_figures,
        list_of_tables: figures.list_of_tables,
    };
    let warnings = stoa_xref::apply(&mut edition.book, &settings)?;
    edition.warnings.extend(warnings);
    Ok(edition)
}

/// The edition's index, once for every format, from its marks and the
/// book's terms file (`index.toml`), after the plugins and the note calls
/// (the index sees the text as the renderers will). A terms file that
/// cannot be read is an error for the edition.
fn make_index(config: &BookConfig, mut edition: Edition) -> Result<Edition, Vec<Diagnostic>> {
    let _t = crate::timings::phase(|| format!("  index {} ({})", config.id, edition.book.lang));
    let path = config.dir.join(stoa_index::FILE_NAME);
    let shown = path.display().to_string();
    let terms = match std::fs::metadata(&path) {
        Err(_) => Vec::new(),
        Ok(meta) if !meta.is_file() || meta.len() > 4 << 20 => {
            return Err(vec![
                Diagnostic::error(format!("{shown} is not a terms file of at most 4 MB"))
                    .in_file(&shown)
                    .with_hint("make it a plain TOML file of index terms, or remove it"),
            ]);
        }
        Ok(_) => {
            let text = std::fs::read_to_string(&path).map_err(|e| {
                vec![
                    Diagnostic::error(format!("cannot read {shown}: {e}"))
                        .in_file(&shown)
                        .with_hint("save it as UTF-8 text"),
                ]
            })?;
            let languages: Vec<&str> = config.languages.iter().map(|l| l.tag.as_str()).collect();
            stoa_index::terms::parse(&text, &shown, &edition.book.lang, &languages)?
        }
    };
    let warnings = stoa_index::apply(&mut edition.book, &terms, &shown);
    edition.warnings.extend(warnings);
    Ok(edition)
}

/// Links inside the edition that lead nowhere (`[see](#nowhere)`): every
/// format prints their words, and each is a warning at its post's line,
/// with the id the author most likely meant. A link to a post of the book
/// that this edition lacks (not translated) is not one: that is said once,
/// by the edition's loading.
fn check_links(config: &BookConfig, mut edition: Edition) -> Edition {
    use stoa_doc::{Inline, LinkTarget};
    let ids = stoa_doc::IdIndex::of(&edition.book);
    let candidates: Vec<&str> = ids.ids().collect();
    let mut warnings = Vec::new();
    for (index, chapter) in edition.book.chapters.iter().enumerate() {
        let Some(source) = chapter.source.as_deref() else {
            continue;
        };
        let mut dangling: Vec<&str> = Vec::new();
        stoa_doc::for_each_block(&chapter.blocks, &mut |block| {
            stoa_doc::for_each_inline(block, &mut |inline: &Inline| {
                if let Inline::Link { url, .. } = inline
                    && let LinkTarget::Missing(id) = ids.resolve(url, index)
                    && !config.posts.iter().any(|(slug, _)| slug == id)
                    && !dangling.contains(&id)
                {
                    dangling.push(id);
                }
            });
        });
        if dangling.is_empty() {
            continue;
        }
        // Read only to place a warning: most posts have none.
        let text = std::fs::read_to_string(source).unwrap_or_default();
        for id in dangling {
            let mut warning = Diagnostic::warning(format!(
                "the link to `#{id}` leads to nothing in this edition; its words are printed"
            ))
            .in_file(source);
            if let Some(at) = text.find(&format!("#{id}")) {
                let (line, column) = stoa_book::line_col(&text, at);
                warning = warning.at(line, column);
            }
            let hint = match stoa_book::suggest::closest(id, &candidates) {
                Some(near) => format!("did you mean `#{near}`?"),
                None => "link to `#slug` of a post of the book, or to a heading's id".into(),
            };
            warnings.push(warning.with_hint(hint));
        }
    }
    edition.warnings.extend(warnings);
    edition
}

/// Loads the configuration of every selected book. An unknown book or
/// language asked for on the command line is an error for the whole build.
fn select_books(
    options: &BuildOptions,
) -> Result<Vec<Result<BookConfig, Vec<Diagnostic>>>, Vec<Diagnostic>> {
    let dirs = stoa_book::discover(&options.books_dir).map_err(|d| vec![d])?;
    let ids: Vec<String> = dirs.iter().map(|d| file_name(d)).collect();
    let mut errors = Vec::new();
    if dirs.is_empty() {
        errors.push(
            Diagnostic::error(format!("no book found in {}", options.books_dir.display()))
                .with_hint("a book is a folder with a book.toml; see docs/reference.md"),
        );
    }
    for wanted in options.books.iter().filter(|b| !ids.contains(b)) {
        errors.push(
            Diagnostic::error(format!(
                "there is no book `{wanted}` in {}",
                options.books_dir.display()
            ))
            .with_hint(match stoa_book::suggest::closest(wanted, &ids) {
                Some(near) => format!("did you mean `{near}`? The books are: {}", ids.join(", ")),
                None => format!("the books are: {}", ids.join(", ")),
            }),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let chosen: Vec<&PathBuf> = dirs
        .iter()
        .filter(|d| options.books.is_empty() || options.books.contains(&file_name(d)))
        .collect();
    let configs: Vec<_> = chosen.par_iter().map(|d| load_config(d)).collect();
    for lang in &options.languages {
        let known = configs
            .iter()
            .flatten()
            .any(|c| c.languages.iter().any(|l| &l.tag == lang));
        let all_loaded = configs.iter().all(Result::is_ok);
        if !known && all_loaded {
            let tags: Vec<&str> = configs
                .iter()
                .flatten()
                .flat_map(|c| c.languages.iter().map(|l| l.tag.as_str()))
                .collect();
            let hint = match stoa_book::suggest::closest(lang, &tags) {
                Some(near) => format!("did you mean `{near}`? Or drop --lang"),
                None => "check the `languages` of the books, or drop --lang".to_string(),
            };
            errors.push(
                Diagnostic::error(format!("no selected book is written in `{lang}`"))
                    .with_hint(hint),
            );
        }
    }
    if errors.is_empty() {
        Ok(configs)
    } else {
        Err(errors)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Draws the edition's diagrams once, after the plugins (which still see
/// the author's code blocks), for every format to read from the tree.
fn draw_diagrams(mut edition: Edition) -> Edition {
    let read = |file: &str| std::fs::read_to_string(file).ok();
    let warnings = stoa_diagram::draw_book(&mut edition.book, &read);
    edition.warnings.extend(warnings);
    edition
}
