//! Rendering: every stale format of every loaded edition, in parallel,
//! the formats that map their pages first within each edition.

use crate::incremental::{Incremental, Work, edition_id};
use crate::jobs::{EditionJob, Job, JobResult, cached, run_reported};
use crate::options::BuildOptions;
use crate::prepare::{CoverPlan, prepare_with};
use crate::report::{Event, Report, Sink};
use rayon::prelude::*;
use stoa_book::{BookConfig, Edition};
use stoa_render::Renderer;

/// The PDF's page count of each edition rendered, by (book id, language).
pub(crate) type PageCounts = std::collections::BTreeMap<(String, String), usize>;

/// Renders and writes every stale artifact of `editions`; returns the page
/// counts of the paged formats made.
pub(crate) fn render_all(
    options: &BuildOptions,
    editions: &[(&BookConfig, Edition)],
    sink: Sink,
    report: &mut Report,
    incr: &mut Incremental,
) -> PageCounts {
    // What the cache says of each edition: which formats are fresh, the
    // page map and the cover it still holds.
    let works: Vec<Work> = editions
        .iter()
        .map(|(config, edition)| incr.work(options, config, &edition.book.lang))
        .collect();
    let prepared: Vec<_> = editions
        .par_iter()
        .zip(works)
        .map(|((config, edition), mut work)| {
            let cover = work.cover.take().unwrap_or(CoverPlan::Skip);
            prepare_with(options, config, edition, cover, &work.stale()).map(|p| (p, work))
        })
        .collect();
    let mut ready = Vec::new();
    for result in prepared {
        match result {
            Ok(p) => ready.push(p),
            Err(errors) => report.fail(sink, "cover", errors),
        }
    }
    let books = ready
        .iter()
        .map(|(p, _)| (p.config.id.as_str(), &p.edition.book));
    let alternates = crate::translations::alternates(books);
    for ((p, _), mut alternates) in ready.iter_mut().zip(alternates) {
        incr.add_unloaded_alternates(p.config, &p.edition.book.lang, &mut alternates);
        p.alternates = alternates;
    }
    let replayed = incr.replayed_count(options);
    let rewrite = incr.cache.rewrite;
    sink(Event::Planned(
        (ready.len() * options.formats.len()) + replayed,
    ));
    incr.replay_artifacts(options, sink, report);
    let formats = options
        .selected()
        .expect("the formats were checked when the books were selected");
    let (first, rest): (Vec<&'static dyn Renderer>, Vec<&'static dyn Renderer>) =
        formats.into_iter().partition(|r| r.maps_pages());
    // After an edit, the EPUB and the web edition are made first, with the
    // page map the edition's PDF made last time in this session: the author
    // sees them without waiting for Typst. They are made again below only
    // if the new PDF maps its pages differently, so that what ends on disk
    // is what a cold build writes.
    let early: Vec<Vec<(&'static dyn Renderer, Option<JobResult>)>> = ready
        .par_iter()
        .map(|(prepared, work)| {
            let stale = |r: &dyn Renderer| work.fresh(r.name()).is_none();
            let map = work
                .previous_map
                .as_ref()
                .filter(|_| first.iter().any(|r| stale(*r)));
            rest.par_iter()
                .map(|&renderer| {
                    let result = map.filter(|_| stale(renderer)).map(|map| {
                        let job = Job {
                            prepared,
                            renderer,
                            rewrite,
                        };
                        run_reported(options, &job, Some(map), sink)
                    });
                    (renderer, result)
                })
                .collect()
        })
        .collect();
    // Per edition, the formats that map pages (the PDF) come first: the
    // others mark the print pages with their map. Editions run in parallel,
    // in rounds of two per thread: Typst works in parallel inside a
    // compilation, and a thread waiting there starts another edition (rayon
    // steals work), so that without rounds a build of hundreds of editions
    // held many half-made books at once (15 MiB each); two per thread keep
    // the threads busy while one edition waits.
    let per_round = 2 * rayon::current_num_threads().max(1);
    let mut early = early.into_iter();
    let mut results: Vec<EditionJob> = Vec::new();
    for round in ready.chunks(per_round) {
        let early: Vec<_> = early.by_ref().take(round.len()).collect();
        let made: Vec<EditionJob> = round
            .par_iter()
            .zip(early)
            .flat_map_iter(|((prepared, work), early)| {
                let key = (
                    prepared.config.id.clone(),
                    prepared.edition.book.lang.clone(),
                );
                let first = first.clone();
                // A fresh PDF is rendered again (and, its bytes the same, not
                // written) only when a stale format needs its page map and no
                // earlier build of this session kept it.
                let rest_stale = rest.iter().any(|r| work.fresh(r.name()).is_none());
                let mut pages = None;
                let mut results = Vec::new();
                for renderer in first {
                    let format = renderer.name();
                    let result = match work.fresh(format) {
                        Some(made) if !rest_stale || work.page_map.is_some() => {
                            pages = work.page_map.clone();
                            cached(prepared, format, made, sink)
                        }
                        _ => run_reported(
                            options,
                            &Job {
                                prepared,
                                renderer,
                                rewrite,
                            },
                            None,
                            sink,
                        ),
                    };
                    if let Ok(done) = &result
                        && let Some(map) = &done.pages
                    {
                        pages = Some(map.clone());
                    }
                    results.push((format, result));
                }
                let later: Vec<_> = early
                    .into_par_iter()
                    .map(|(renderer, early)| {
                        let format = renderer.name();
                        let result = match (work.fresh(format), early) {
                            (Some(made), _) => cached(prepared, format, made, sink),
                            // Made with the map the PDF made again: final.
                            (None, Some(result))
                                if pages.is_some() && pages == work.previous_map =>
                            {
                                result
                            }
                            (None, early) => {
                                let job = Job {
                                    prepared,
                                    renderer,
                                    rewrite,
                                };
                                let mut result = run_reported(options, &job, pages.as_ref(), sink);
                                // Written by this build either way.
                                if let (Some(Ok(early)), Ok(done)) = (&early, &mut result) {
                                    done.artifact.written |= early.artifact.written;
                                    done.artifact.seconds += early.artifact.seconds;
                                }
                                result
                            }
                        };
                        (format, result)
                    })
                    .collect();
                results.extend(later);
                results.into_iter().map(move |r| (key.clone(), r))
            })
            .collect();
        results.extend(made);
    }
    incr.record_covers(ready.iter().filter_map(|(p, _)| {
        let edition = edition_id(&p.config.id, &p.edition.book.lang);
        Some((format!("{edition}/cover"), p.cover_key.clone()?))
    }));
    incr.record_results(options, &results);
    let mut page_counts = PageCounts::new();
    for (key, (_, result)) in results {
        match result {
            Ok(done) => {
                if let Some(count) = done.page_count {
                    page_counts.insert(key, count);
                }
                report.artifacts.push(done.artifact);
                report.warnings.extend(done.warnings);
            }
            // Already shown by `run_reported`.
            Err(errors) => report.errors.extend(errors),
        }
    }
    report.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    page_counts
}
