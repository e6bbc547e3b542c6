//! Running a book's plugins on one edition: in stoa's process (the built-in
//! ones directly, the others through the C ABI), or each in a child process
//! of its own when its `[plugins.<name>]` table says `isolate = true`.

use crate::builtin::search_path;
use crate::options::BuildOptions;
use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;
use stoa_book::rewrite::{PostSource, RewrittenSource, SourceHook};
use stoa_book::{BookConfig, Edition, PluginConfig};
use stoa_doc::Diagnostic;
use stoa_plugin_host::{Isolation, PluginRun, PluginSession, WasmLimits};

/// How long one hook of an isolated plugin may take unless `time-limit` says.
const DEFAULT_TIME_LIMIT: f64 = 60.0;
/// The longest `time-limit` accepted: a day is a typo, not a plan.
const MAX_TIME_LIMIT: f64 = 3600.0;

/// Loads the editions of `config` in `langs` (all when `None`) and runs the
/// book's plugins over each, in the order of its `[plugins.<name>]` tables:
/// every plugin's `configure` first (settings checked once, before any post
/// is read), then each post's Markdown through the `source` hooks as it is
/// loaded, then `transform`, `finish` and `styles`. A failure of any kind,
/// even a panic in the host, fails that edition only.
pub(crate) fn load_editions(
    options: &BuildOptions,
    config: &BookConfig,
    langs: Option<&[String]>,
) -> Vec<(String, Result<Edition, Vec<Diagnostic>>)> {
    let epoch = options.source_date_epoch;
    if config.plugins.is_empty() {
        return stoa_book::load_editions(config, langs, epoch);
    }
    // Languages in parallel, as the renderers after them.
    config
        .languages
        .par_iter()
        .filter(|l| langs.is_none_or(|want| want.contains(&l.tag)))
        .map(|language| {
            let lang = language.tag.clone();
            let edition = catch_unwind(AssertUnwindSafe(|| {
                edition(options, config, &lang, &language.labels)
            }))
            .unwrap_or_else(|_| {
                Err(vec![
                    Diagnostic::error(format!(
                        "running the plugins of this book in {lang} failed inside stoa"
                    ))
                    .in_file(&config.file)
                    .with_hint(
                        "this is a bug in stoa: please report it; `isolate = true` in a \
                         plugin's table may work around it",
                    ),
                ])
            });
            (lang, edition)
        })
        .collect()
}

/// One edition, its plugins run.
fn edition(
    options: &BuildOptions,
    config: &BookConfig,
    lang: &str,
    labels: &stoa_doc::Labels,
) -> Result<Edition, Vec<Diagnostic>> {
    let load = |hook: Option<&dyn SourceHook>| {
        let langs = [lang.to_string()];
        stoa_book::load_editions_with(config, Some(&langs), options.source_date_epoch, hook)
            .pop()
            .map(|(_, edition)| edition)
            .unwrap_or_else(|| Err(Vec::new()))
    };
    let runs = match load_plugins(options, config) {
        Ok(runs) => runs,
        Err(mut errors) => {
            // The posts are still read: one run reports every mistake.
            if let Err(more) = load(None) {
                errors.extend(more);
            }
            return Err(errors);
        }
    };
    let session = PluginSession::new(&runs, lang, &config.id, labels);
    let settings_warnings = match session.configure() {
        Ok(warnings) => warnings,
        Err(errors) => {
            // Wrong settings: no plugin runs, but the posts are still read,
            // so that one run reports every mistake.
            let mut errors: Vec<Diagnostic> = errors
                .into_iter()
                .map(|d| crate::diagnostics::pin_configure(config, d))
                .collect();
            if let Err(more) = load(None) {
                errors.extend(more);
            }
            return Err(errors);
        }
    };
    let hook = Rewriter(&session);
    let mut edition = load(
        session
            .has_source_hooks()
            .then_some(&hook as &dyn SourceHook),
    )?;
    let mut before = edition.book.assets.clone();
    let mut roots = edition.roots.clone();
    let (book, warnings) = session.apply_checked(edition.book, |plugin, book| {
        // Raw output and added files are checked right after the plugin
        // that wrote them, so that the error names it.
        let mut found = crate::raw_check::check(&options.renderers, book, plugin.name());
        let dir = (!plugin.is_builtin())
            .then(|| plugin.path().parent())
            .flatten();
        found.extend(crate::plugin_assets::check(
            plugin.name(),
            dir,
            &before,
            &book.assets,
            &mut roots,
            &config.file,
        ));
        before.clone_from(&book.assets);
        found
    })?;
    edition.roots = roots;
    // A plugin may nest deeper than Markdown can; the renderers recurse.
    stoa_doc::check_depth(&book)?;
    edition.book = book;
    let settings_warnings = settings_warnings
        .into_iter()
        .map(|d| crate::diagnostics::pin_configure(config, d));
    edition.warnings.extend(settings_warnings.chain(warnings));
    Ok(edition)
}

/// The plugins' `source` hooks, as stoa-book calls them on each post.
struct Rewriter<'a>(&'a PluginSession<'a>);

impl SourceHook for Rewriter<'_> {
    fn rewrite(&self, post: PostSource<'_>) -> Result<RewrittenSource, Vec<Diagnostic>> {
        let done = self.0.source(post.slug, Some(post.file), post.markdown)?;
        Ok(RewrittenSource {
            markdown: done.markdown,
            line_map: done.line_map,
            warnings: done.warnings,
        })
    }
}

/// The book's plugins, loaded (or started isolated) in book.toml's order;
/// the errors at each failing table's line.
fn load_plugins(
    options: &BuildOptions,
    config: &BookConfig,
) -> Result<Vec<PluginRun>, Vec<Diagnostic>> {
    let search = search_path(options, config.plugin_dir.as_deref());
    let mut runs = Vec::new();
    let mut errors = Vec::new();
    for plugin in &config.plugins {
        let at = |e: Diagnostic| e.in_file(&config.file).at(plugin.line, 1);
        let loaded = mode(plugin).and_then(|(isolation, mut settings, limit)| {
            let memory = memory_limit(&plugin.name, &mut settings)?;
            let loaded = match &isolation {
                Some(isolation) => {
                    stoa_plugin_host::load_isolated(&plugin.name, &search, isolation)
                }
                None => stoa_plugin_host::load(&plugin.name, &search),
            };
            let loaded = loaded?;
            // A WebAssembly plugin counts its time in fuel, in stoa's
            // process; a native one can only be stopped in a process of its own.
            if isolation.is_none() && !loaded.is_wasm() && limit.is_some() {
                return Err(needs_isolation(&plugin.name));
            }
            let name = &plugin.name;
            if memory.is_some() && (!loaded.is_wasm() || isolation.is_some()) {
                return Err(Diagnostic::error(format!(
                    "`memory-limit` in [plugins.{name}] is for a WebAssembly plugin \
                     running in stoa's process"
                ))
                .with_hint("remove it: a native or isolated plugin's memory is not capped"));
            }
            let limit = Duration::from_secs_f64(limit.unwrap_or(DEFAULT_TIME_LIMIT));
            let mut limits = WasmLimits::for_time_limit(limit);
            if let Some(mib) = memory {
                limits = limits.with_memory(mib << 20);
            }
            Ok(PluginRun::new(loaded, settings).with_wasm_limits(limits))
        });
        match loaded {
            Ok(run) => runs.push(run),
            Err(error) => errors.push(at(error)),
        }
    }
    if errors.is_empty() {
        Ok(runs)
    } else {
        Err(errors)
    }
}

/// The largest `memory-limit`, in MiB: a wasm32 memory holds 4 GiB.
const MAX_MEMORY_LIMIT: u64 = 4096;

/// Takes stoa's `memory-limit` (MiB) out of a plugin's settings.
fn memory_limit(name: &str, settings: &mut serde_json::Value) -> Result<Option<usize>, Diagnostic> {
    let Some(value) = settings
        .as_object_mut()
        .and_then(|t| t.remove("memory-limit"))
    else {
        return Ok(None);
    };
    match value.as_u64() {
        Some(mib) if (1..=MAX_MEMORY_LIMIT).contains(&mib) => Ok(Some(mib as usize)),
        _ => Err(Diagnostic::error(format!(
            "`memory-limit` in [plugins.{name}] is {value}, not a whole number of MiB \
             from 1 to {MAX_MEMORY_LIMIT}"
        ))
        .with_hint("write e.g. `memory-limit = 64`")),
    }
}

/// `time-limit` on a native plugin that runs in stoa's process.
fn needs_isolation(name: &str) -> Diagnostic {
    Diagnostic::error(format!(
        "`time-limit` in [plugins.{name}] needs `isolate = true`"
    ))
    .with_hint(
        "a plugin running inside stoa's process cannot be stopped; \
         add `isolate = true` to run it in a process of its own \
         (a WebAssembly plugin needs neither: its time is counted)",
    )
}

/// How to run `plugin` (isolated or not), the settings it is sent, without
/// `isolate` and `time-limit`, which are stoa's, and the `time-limit` (in
/// seconds) when the table has one.
#[allow(clippy::type_complexity)]
fn mode(
    plugin: &PluginConfig,
) -> Result<(Option<Isolation>, serde_json::Value, Option<f64>), Diagnostic> {
    let mut settings = plugin.settings.clone();
    let name = &plugin.name;
    let (isolate, limit) = match settings.as_object_mut() {
        Some(table) => (table.remove("isolate"), table.remove("time-limit")),
        None => (None, None),
    };
    let isolate = match isolate {
        None => false,
        Some(serde_json::Value::Bool(b)) => b,
        Some(other) => {
            return Err(Diagnostic::error(format!(
                "`isolate` in [plugins.{name}] is {other}, not true or false"
            ))
            .with_hint("write `isolate = true` to run the plugin in a process of its own"));
        }
    };
    let limit = match limit {
        None => None,
        Some(value) => match value.as_f64() {
            Some(s) if s > 0.0 && s <= MAX_TIME_LIMIT => Some(s),
            _ => {
                return Err(Diagnostic::error(format!(
                    "`time-limit` in [plugins.{name}] is {value}, not a number of seconds \
                     between 0 and {MAX_TIME_LIMIT}"
                ))
                .with_hint("write e.g. `time-limit = 30`"));
            }
        },
    };
    if !isolate {
        // Whether the plugin can honour a `time-limit` is known once it is
        // found (a WebAssembly one can): see `load_plugins`.
        return Ok((None, settings, limit));
    }
    let program = std::env::current_exe().map_err(|e| {
        Diagnostic::error(format!(
            "cannot isolate plugin `{name}`: the stoa executable is not found: {e}"
        ))
    })?;
    let seconds = Duration::from_secs_f64(limit.unwrap_or(DEFAULT_TIME_LIMIT));
    Ok((Some(Isolation::stoa(program, seconds)), settings, limit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plugin(settings: serde_json::Value) -> PluginConfig {
        PluginConfig {
            name: "p".into(),
            settings,
            line: 3,
        }
    }

    #[test]
    fn stoas_keys_are_taken_out_of_the_settings() {
        let (isolation, settings, _) = mode(&plugin(
            json!({"isolate": true, "time-limit": 2.5, "word": "x"}),
        ))
        .unwrap();
        let isolation = isolation.expect("isolated");
        assert_eq!(isolation.time_limit, Duration::from_millis(2500));
        assert_eq!(settings, json!({"word": "x"}));
        let (isolation, settings, _) = mode(&plugin(json!({"word": "x"}))).unwrap();
        assert!(isolation.is_none());
        assert_eq!(settings, json!({"word": "x"}));
        // Kept for a WebAssembly plugin, refused for a native one once found.
        let (isolation, settings, limit) = mode(&plugin(json!({"time-limit": 5}))).unwrap();
        assert!(isolation.is_none());
        assert_eq!((settings, limit), (json!({}), Some(5.0)));
    }

    #[test]
    fn memory_limit_is_taken_out_and_checked() {
        let mut settings = json!({"memory-limit": 16, "word": "x"});
        assert_eq!(memory_limit("p", &mut settings).unwrap(), Some(16));
        assert_eq!(settings, json!({"word": "x"}));
        for bad in [json!(0), json!(5000), json!("16"), json!(1.5)] {
            let mut settings = json!({ "memory-limit": bad });
            assert!(memory_limit("p", &mut settings).is_err(), "{bad}");
        }
    }

    #[test]
    fn wrong_values_are_errors() {
        for bad in [
            json!({"isolate": "yes"}),
            json!({"isolate": true, "time-limit": 0}),
            json!({"isolate": true, "time-limit": "10"}),
            json!({"time-limit": 0}),
        ] {
            assert!(mode(&plugin(bad.clone())).is_err(), "{bad}");
        }
    }
}
