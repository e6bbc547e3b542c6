//! `stoa check`: everything a build validates, without writing anything:
//! book.toml, the posts, the plugins, the theme, and (unless told to go
//! quickly) every format rendered in memory and thrown away.

use crate::driver::in_pool;
use crate::load::{Loading, in_build_order, report_broken, select};
use crate::options::BuildOptions;
use crate::prepare::prepare;
use crate::report::{Event, Report, Sink};
use rayon::prelude::*;
use stoa_book::{BookConfig, Edition};
use stoa_doc::{Diagnostic, Severity};

/// How far a check goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Load and validate the books, run the plugins, find the theme.
    Load,
    /// Also render every format in memory: what only typesetting finds
    /// (a template error, an image a format cannot take) is found too.
    Render,
    /// Also run the printers' preflight on each print interior (`stoa
    /// check --print`): its errors count as errors, its findings as
    /// warnings.
    Print,
}

/// Checks what `options` would build, writing nothing: no output folder,
/// no lock, no download page.
pub fn check(options: &BuildOptions, depth: Depth, sink: Sink) -> Report {
    in_pool(options, sink, "check", || {
        let mut report = Report::default();
        let Some(configs) = select(options, sink, &mut report) else {
            return report;
        };
        let chosen: Vec<&BookConfig> = configs.iter().flatten().collect();
        // Every edition asked for: a check skips nothing the cache knows.
        let wanted = chosen
            .iter()
            .map(|c| (*c, options.languages_of(c)))
            .collect();
        report_broken(&configs, sink, &mut report);
        let mut loading = Loading::default();
        loading.load(options, wanted, sink, &mut report);
        let editions = in_build_order(&chosen, loading.editions, sink, &mut report);
        validate(options, &editions, depth, sink, &mut report);
        report
    })
}

/// The part of a build after loading, without writing: the theme and the
/// cover of each edition, and at [`Depth::Render`] each format.
fn validate(
    options: &BuildOptions,
    editions: &[(&BookConfig, Edition)],
    depth: Depth,
    sink: Sink,
    report: &mut Report,
) {
    let mut quick = options.clone();
    if depth == Depth::Load {
        // No format: `prepare` then only finds the theme, draws no cover.
        quick.formats.clear();
    }
    let options = &quick;
    let results: Vec<(String, Vec<Diagnostic>, Vec<Diagnostic>)> = editions
        .par_iter()
        .map(|(config, edition)| {
            let name = format!("{} ({})", config.id, edition.book.lang);
            let preflighted = (depth == Depth::Print).then(|| preflighted(edition));
            let edition = preflighted.as_ref().unwrap_or(edition);
            let prepared = match prepare(options, config, edition) {
                Ok(p) => p,
                Err(errors) => return (name, errors, Vec::new()),
            };
            let outcomes: Vec<_> = options
                .formats
                .par_iter()
                .map(|format| {
                    let renderer = options.renderer(format);
                    renderer.render(&prepared.context_with(options, renderer, None))
                })
                .collect();
            let (mut errors, mut warnings) = (Vec::new(), Vec::new());
            for outcome in outcomes {
                match outcome {
                    // The preflight's errors come with the warnings, so
                    // that the check still reports all of them.
                    Ok(rendered) => {
                        for d in rendered.warnings {
                            match d.severity {
                                Severity::Error if depth == Depth::Print => errors.push(d),
                                _ => warnings.push(d),
                            }
                        }
                    }
                    Err(e) => errors.extend(e),
                }
            }
            (name, errors, warnings)
        })
        .collect();
    for (name, errors, warnings) in results {
        for warning in &warnings {
            sink(Event::Warning(warning));
        }
        report.warnings.extend(warnings);
        if !errors.is_empty() {
            sink(Event::Failed(&name, &errors));
            report.errors.extend(errors);
        }
    }
}

/// The edition with its press job told to run the whole preflight; the
/// same edition when it has no `[print]` profile.
fn preflighted(edition: &Edition) -> Edition {
    let mut edition = edition.clone();
    if let Some(press) = edition.book.print.press.as_mut() {
        press.preflight = true;
    }
    edition
}
