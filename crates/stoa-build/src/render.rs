//! Rendering: every stale format of every loaded edition, in parallel,
//! the formats that map their pages first within each edition.

use crate::covers::CoverPlan;
use crate::jobs::{EditionJob, Job, JobResult, cached, run_reported};
use crate::keys::Key;
use crate::ledger::Ledger;
use crate::plan::{Build, Record, Work, edition_id};
use crate::prepare::prepare_with;
use crate::report::{Event, Report, Sink};
use crate::stage::Stage;
use rayon::prelude::*;
use stoa_book::{BookConfig, Edition};
use stoa_doc::Diagnostic;
use stoa_render::Renderer;

/// The PDF's page count of each edition rendered, by (book id, language).
pub(crate) type PageCounts = std::collections::BTreeMap<(String, String), usize>;

/// What rendering made: the editions whose every format was made, with
/// their files staged, and every job's result.
pub(crate) struct Rendered {
    /// The PDF's page count of each edition rendered.
    pub(crate) page_counts: PageCounts,
    /// The staged files of each edition that has all its formats.
    pub(crate) stages: Vec<Stage>,
    results: Vec<EditionJob>,
    /// The cover of the build cache each edition prepared used, by
    /// `<book>/<lang>/cover`.
    covers: Vec<(String, Key)>,
}

impl Rendered {
    /// The places the staged files will fill.
    pub(crate) fn pending(&self) -> std::collections::HashSet<std::path::PathBuf> {
        self.stages.iter().flat_map(Stage::targets).collect()
    }

    /// Moves every complete edition's files into place, adds the results
    /// to `report`, and returns what the jobs made, the files stamped in
    /// place, for the cache.
    pub(crate) fn commit(self, build: &Build, report: &mut Report) -> Ledger {
        let _t = crate::timings::phase(|| "move into place".into());
        for stage in self.stages {
            if let Err(error) = stage.commit() {
                report.fail(build.sink, "output folder", vec![error]);
            }
        }
        let mut ledger = Ledger {
            covers: self.covers,
            ..Ledger::default()
        };
        for ((book, lang), (format, result)) in &self.results {
            let Ok(done) = result else { continue };
            if done.cached {
                continue;
            }
            build.plan.record(
                Record {
                    book,
                    lang,
                    format,
                    path: &done.artifact.path,
                    bytes: done.artifact.bytes,
                    files: &done.files,
                    warnings: &done.warnings,
                    page_count: done.page_count,
                    pages: done.pages.as_ref(),
                },
                &mut ledger,
            );
        }
        for (_, (_, result)) in self.results {
            match result {
                Ok(done) => {
                    report.artifacts.push(done.artifact);
                    report.warnings.extend(done.warnings);
                }
                // Already shown by `run_reported` or `keep_failed`.
                Err(errors) => report.errors.extend(errors),
            }
        }
        report.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
        ledger
    }
}

/// The image data an edition's render may hold before it is rendered in
/// a round of its own: a renderer holds the edition's images (a PDF about
/// three times their size while it is written), so two editions of a
/// picture-heavy blog side by side would double the build's peak.
const HEAVY_IMAGE_BYTES: u64 = 128 << 20;

/// The editions' rounds, as ranges of their indices: at most `per_round`
/// each, and an edition `heavy` with images alone in its own.
fn rounds(heavy: &[bool], per_round: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &h) in heavy.iter().enumerate() {
        if h || i - start == per_round {
            if i > start {
                out.push(start..i);
            }
            start = i;
        }
        if h {
            out.push(i..i + 1);
            start = i + 1;
        }
    }
    if start < heavy.len() {
        out.push(start..heavy.len());
    }
    out
}

/// Renders every stale artifact of `editions` and stages its files (see
/// `crate::stage`): [`Rendered::commit`] moves them into place.
pub(crate) fn render_all(
    build: &Build,
    editions: &[(&BookConfig, Edition)],
    report: &mut Report,
) -> Rendered {
    let (options, sink, plan) = (build.options, build.sink, &build.plan);
    // What the cache says of each edition: which formats are fresh, the
    // page map and the cover it still holds.
    let works: Vec<Work> = editions
        .iter()
        .map(|(config, edition)| plan.work(config, &edition.book.lang))
        .collect();
    let prepared: Vec<_> = editions
        .par_iter()
        .zip(works)
        .map(|((config, edition), mut work)| {
            let cover = work.cover.take().unwrap_or(CoverPlan::Skip);
            prepare_with(
                options,
                config,
                edition,
                cover,
                &work.stale(),
                plan.stored(),
            )
            .map(|p| (p, work))
        })
        .collect();
    let mut ready = Vec::new();
    for result in prepared {
        match result {
            Ok((p, work)) => ready.push((p, work, Stage::default())),
            Err(errors) => report.fail(sink, "cover", errors),
        }
    }
    let books = ready
        .iter()
        .map(|(p, _, _)| (p.config.id.as_str(), &p.edition.book));
    let alternates = crate::translations::alternates(books);
    for ((p, _, _), mut alternates) in ready.iter_mut().zip(alternates) {
        let lang = &p.edition.book.lang;
        plan.add_unloaded_alternates(p.config, lang, &mut alternates);
        crate::translations::add_kept_alternates(options, p.config, lang, &mut alternates);
        p.alternates = alternates;
    }
    let replayed = plan.replayed_count();
    let rewrite = plan.rewrite();
    sink(Event::Planned(
        (ready.len() * options.formats.len()) + replayed,
    ));
    plan.replay_artifacts(sink, report);
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
        .map(|(prepared, work, stage)| {
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
                            stage,
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
    let all: Vec<&'static dyn Renderer> = first.iter().chain(&rest).copied().collect();
    let heavy: Vec<bool> = ready
        .iter()
        .map(|(p, _, _)| all.iter().any(|r| p.image_bytes(*r) > HEAVY_IMAGE_BYTES))
        .collect();
    let mut early = early.into_iter();
    let mut results: Vec<EditionJob> = Vec::new();
    for range in rounds(&heavy, per_round) {
        let round = &ready[range];
        let early: Vec<_> = early.by_ref().take(round.len()).collect();
        let made: Vec<EditionJob> = round
            .par_iter()
            .zip(early)
            .flat_map_iter(|((prepared, work, stage), early)| {
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
                                stage,
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
                                    stage,
                                };
                                let mut result = run_reported(options, &job, pages.as_ref(), sink);
                                // What was staged first is dropped: only
                                // this one can be written.
                                if let (Some(Ok(early)), Ok(done)) = (&early, &mut result) {
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
    let mut covers: Vec<(String, Key)> = ready
        .iter()
        .filter_map(|(p, _, _)| {
            let edition = edition_id(&p.config.id, &p.edition.book.lang);
            Some((format!("{edition}/cover"), p.cover_key.clone()?))
        })
        .collect();
    // The images each edition prepared uses, kept as its covers are.
    for (p, _, _) in &ready {
        let edition = edition_id(&p.config.id, &p.edition.book.lang);
        for file in p.image_files() {
            covers.push((crate::images::slot(&edition, &file), file));
        }
    }
    let mut page_counts = PageCounts::new();
    let mut stages = Vec::new();
    for (prepared, _, stage) in ready {
        let key = (
            prepared.config.id.clone(),
            prepared.edition.book.lang.clone(),
        );
        let failed = results.iter().any(|(k, (_, r))| *k == key && r.is_err());
        let mine = results.iter_mut().filter(|(k, _)| *k == key);
        if failed {
            // The stage is dropped: every file the last build left stays.
            keep_failed(mine, sink);
            continue;
        }
        for (_, (_, result)) in mine {
            if let Ok(Some(count)) = result.as_ref().map(|d| d.page_count) {
                page_counts.insert(key.clone(), count);
            }
        }
        stages.push(stage);
    }
    Rendered {
        page_counts,
        stages,
        results,
        covers,
    }
}

/// Turns the formats an edition made into failures when another format of
/// it failed: an edition's files change together, so none is written and
/// the last build's stay.
fn keep_failed<'a>(results: impl Iterator<Item = &'a mut EditionJob>, sink: Sink) {
    let results: Vec<&mut EditionJob> = results.collect();
    let failed: Vec<String> = results
        .iter()
        .filter(|(_, (_, r))| r.is_err())
        .map(|(_, (format, _))| format.to_string())
        .collect();
    for (_, (_, result)) in results {
        let Ok(done) = result else { continue };
        if done.cached {
            continue;
        }
        let name = done
            .artifact
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let error = Diagnostic::error(format!(
            "{name} was made but not written: the {} of the same edition failed, and an \
             edition's files change together, so the last build's are kept",
            failed.join(" and ")
        ));
        sink(Event::Failed(&name, std::slice::from_ref(&error)));
        *result = Err(vec![error]);
    }
}

#[cfg(test)]
mod tests {
    use super::rounds;

    #[test]
    fn an_edition_heavy_with_images_is_rendered_in_a_round_of_its_own() {
        assert_eq!(rounds(&[false; 5], 2), [0..2, 2..4, 4..5]);
        assert_eq!(
            rounds(&[false, true, false, false, true, true], 4),
            [0..1, 1..2, 2..4, 4..5, 5..6]
        );
        assert!(rounds(&[], 4).is_empty());
    }
}
