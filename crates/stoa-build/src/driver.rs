//! The build: the steps of lib.rs's "# Steps" in order, under the output
//! folder's lock, in a pool of worker threads.

use crate::cache::Cache;
use crate::ledger::Ledger;
use crate::load::{Loading, in_build_order, report_broken, select};
use crate::options::BuildOptions;
use crate::plan::{Build, Plan};
use crate::report::{Event, Report, Sink};
use crate::timings::phase;
use std::path::Path;
use stoa_book::{BookConfig, Edition};
use stoa_doc::Diagnostic;

/// Builds what `options` asks for, telling `sink` as it goes. What the
/// cache in the output folder shows unchanged since the last build is
/// neither rendered nor written (see `crate::cache`).
pub fn build(options: &BuildOptions, sink: Sink) -> Report {
    build_cached(options, sink, &mut Cache::default(), false)
}

/// Builds like [`build`], but makes every artifact again whatever the cache
/// says (`stoa build --force`); the cache is then written afresh.
pub fn build_forced(options: &BuildOptions, sink: Sink) -> Report {
    build_cached(options, sink, &mut Cache::forced(&options.out_dir), false)
}

/// A build that reads and updates `cache` (read from the output folder
/// unless it already holds that folder's store).
/// With `wait`, a build that finds another one writing into the same folder
/// waits for it (with a warning) instead of failing.
pub(crate) fn build_cached(
    options: &BuildOptions,
    sink: Sink,
    cache: &mut Cache,
    wait: bool,
) -> Report {
    // One build per output folder at a time; what an interrupted build left
    // is removed before anything new is written.
    let waited = std::sync::Mutex::new(None);
    let tell = |warning: &Diagnostic| {
        sink(Event::Warning(warning));
        *waited.lock().unwrap_or_else(|e| e.into_inner()) = Some(warning.clone());
    };
    let lock = if wait {
        crate::guard::OutputLock::acquire_waiting(&options.out_dir, &tell)
    } else {
        crate::guard::OutputLock::acquire(&options.out_dir)
    };
    let _lock = match lock {
        Ok(lock) => lock,
        Err(error) => return Report::failed(sink, "output folder", vec![error]),
    };
    let _whole = phase(|| "build".into());
    crate::guard::remove_leftovers(&options.out_dir);
    if let Some(error) = link_inside(&options.out_dir) {
        return Report::failed(sink, "output folder", vec![error]);
    }
    // Read under the lock: another build may be writing it until then.
    let unreadable = cache.attach(&options.out_dir);
    if let Some(warning) = &unreadable {
        sink(Event::Warning(warning));
    }
    crate::decoded::recall(&options.out_dir);
    let mut ledger = Ledger::default();
    let mut report = in_pool(options, sink, "build", || {
        let (report, made) = run(options, sink, cache);
        ledger = made;
        report
    });
    let waited = waited.into_inner().unwrap_or_else(|e| e.into_inner());
    report.warnings.extend(waited);
    let _t = phase(|| "cache store".into());
    report.warnings.extend(unreadable);
    let mut unwritable = None;
    crate::decoded::keep(&options.out_dir);
    if let Some(kept) = cache.commit(ledger, &options.out_dir, report.ok(), &mut unwritable) {
        crate::covers::prune(&options.out_dir, &kept);
        crate::images::prune(&options.out_dir, &kept);
    }
    if let Some(warning) = unwritable {
        sink(Event::Warning(&warning));
        report.warnings.push(warning);
    }
    report
}

/// Runs `work` in a pool of `options.jobs` threads.
pub(crate) fn in_pool(
    options: &BuildOptions,
    sink: Sink,
    name: &str,
    work: impl FnOnce() -> Report + Send,
) -> Report {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.unwrap_or(0))
        .build();
    match pool {
        Ok(pool) => pool.install(work),
        Err(e) => {
            let error = Diagnostic::error(format!("cannot start worker threads: {e}"));
            Report::failed(sink, name, vec![error])
        }
    }
}

/// The error for a link to a folder inside the output folder: what stoa
/// wrote into it would land outside the output folder.
fn link_inside(out_dir: &Path) -> Option<Diagnostic> {
    let (link, to) = crate::output::folder_link_inside(out_dir)?;
    Some(
        Diagnostic::error(format!(
            "{} is a link to {}: stoa writes only inside its output folder, never through a link",
            link.display(),
            to.display()
        ))
        .with_hint("remove the link (the build makes the folder again), or build into another folder with --out"),
    )
}

/// The steps, skipping what `cache` shows unchanged; returns the report
/// and what the build made, for the cache to commit.
pub(crate) fn run(options: &BuildOptions, sink: Sink, cache: &Cache) -> (Report, Ledger) {
    let mut report = Report::default();
    let Some(configs) = select(options, sink, &mut report) else {
        return (report, Ledger::default());
    };
    let chosen: Vec<&BookConfig> = configs.iter().flatten().collect();
    let t = phase(|| "plan (hash inputs)".into());
    let mut build = Build {
        options,
        sink,
        plan: Plan::new(options, &chosen, cache),
    };
    drop(t);
    let t = phase(|| "load editions (parse, plugins, diagrams)".into());
    report_broken(&configs, sink, &mut report);
    let (editions, mut ledger) = load(&mut build, &chosen, &mut report);
    drop(t);
    build.plan.replay_warnings(sink, &mut report);
    let site_key = build.plan.site_key(&configs, !report.ok());
    let t = phase(|| "render".into());
    let rendered = crate::render::render_all(&build, &editions, &mut report);
    drop(t);
    let _t = phase(|| "download page".into());
    ledger.complete = build.plan.complete();
    if build.plan.site_is_fresh(site_key.as_ref()) {
        ledger.extend(rendered.commit(&build, &mut report));
        return (report, ledger);
    }
    // The download page and the catalogs are never removed: the editions'
    // files are moved into place (the thumbnails drawn first), then the
    // page is replaced, listing them with their sums.
    let made = crate::site::write_site(&build, &editions, rendered, &mut report, site_key);
    ledger.extend(made);
    (report, ledger)
}

/// Loads the editions the plan does not show unchanged, in build order,
/// then those that link to them when their chapters changed; returns them
/// with their records for the cache.
fn load<'c>(
    build: &mut Build,
    chosen: &[&'c BookConfig],
    report: &mut Report,
) -> (Vec<(&'c BookConfig, Edition)>, Ledger) {
    let (options, sink) = (build.options, build.sink);
    let wanted = chosen
        .iter()
        .map(|c| (*c, build.plan.to_load(&c.id)))
        .collect();
    let mut loading = Loading::default();
    loading.load(options, wanted, sink, report);
    let mut ledger = build.plan.learn(&loading.editions);
    // Editions that link to the ones just loaded are loaded too when
    // those editions' chapters changed.
    let more = build.plan.settle_pending(chosen);
    let wanted = chosen
        .iter()
        .map(|c| {
            let langs = more.iter().filter(|(b, _)| *b == c.id);
            (*c, langs.map(|(_, l)| l.clone()).collect())
        })
        .collect();
    let first = loading.load(options, wanted, sink, report);
    ledger.extend(build.plan.learn(&loading.editions[first..]));
    let editions = in_build_order(chosen, loading.editions, sink, report);
    (editions, ledger)
}
