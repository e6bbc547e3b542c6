//! The plan of a build: what it may skip, decided in one place. Each
//! artifact's key comes from the content of its inputs and is compared with
//! what the [`Cache`] remembers: a book whose every artifact is fresh is not
//! even loaded; in a book that is, only the stale artifacts are rendered.
//! The plan only reads the cache; what the build makes goes into its
//! [`Ledger`].

use crate::cache::Cache;
use crate::covers::{CoverPlan, Stored};
use crate::keys::{Hasher, Key, edition_base_key, theme_key};
use crate::ledger::{EditionInput, Ledger, Made};
use crate::options::BuildOptions;
use crate::report::{Event, Report, Sink};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use stoa_book::BookConfig;
use stoa_book::Edition;
use stoa_doc::Diagnostic;
use stoa_render::{PageMap, Renderer, Theme};

/// What every step of one build shares: what was asked (the options, with
/// the registry of renderers), where the build tells what it does, and the
/// plan.
pub(crate) struct Build<'a> {
    pub(crate) options: &'a BuildOptions,
    pub(crate) sink: Sink<'a>,
    pub(crate) plan: Plan<'a>,
}

/// The id of an edition in the cache: `<book>/<lang>`.
pub(crate) fn edition_id(book: &str, lang: &str) -> String {
    format!("{book}/{lang}")
}

/// The id of an artifact in the cache: `<book>/<lang>/<format>`.
pub(crate) fn artifact_id(book: &str, lang: &str, format: &str) -> String {
    format!("{book}/{lang}/{format}")
}

/// What one format of an edition made, as the cache keeps it.
pub(crate) struct Record<'a> {
    pub(crate) book: &'a str,
    pub(crate) lang: &'a str,
    pub(crate) format: &'a str,
    /// The artifact (a file, or a web edition's folder).
    pub(crate) path: &'a Path,
    pub(crate) bytes: u64,
    /// Every file written for it, stamped by the cache.
    pub(crate) files: &'a [PathBuf],
    pub(crate) warnings: &'a [Diagnostic],
    pub(crate) page_count: Option<usize>,
    /// The page map a paged format made.
    pub(crate) pages: Option<&'a PageMap>,
}

/// What the build knows of each edition, first before loading anything,
/// then as the editions are loaded: the one place that says what is fresh.
pub(crate) struct Plan<'a> {
    options: &'a BuildOptions,
    /// What the last build made; read, never written, during the build.
    cache: &'a Cache,
    /// Each selected edition's base key (its files), by edition id.
    base: HashMap<String, Key>,
    /// Each selected book's languages in this build.
    languages: HashMap<String, Vec<String>>,
    /// Every selected edition (book, language), in the build's order.
    order: Vec<(String, String)>,
    /// Editions whose artifacts are all fresh: not loaded, told from the
    /// cache (by edition id).
    fresh: BTreeSet<String>,
    /// Editions fresh but for the web edition's links to the other
    /// languages, which wait for those editions' chapters (book, language).
    pending: Vec<(String, String)>,
    /// Every artifact's key in this build, by artifact id: the fresh
    /// editions' at first, the loaded ones' as they are loaded.
    keys: BTreeMap<String, Key>,
    /// Each edition this build loaded: its full key and its chapters'
    /// slugs, by edition id.
    loaded: HashMap<String, (Key, Vec<String>)>,
    /// Theme keys, computed once per theme and renderer.
    themes: Mutex<HashMap<(Theme, &'static str), Key>>,
}

/// The chapters' slugs of another edition of the book, as an artifact's key
/// needs them: `None` while unknown (not loaded yet), `Some(None)` when the
/// edition is not made by this build (it failed), else its slugs.
type Slugs<'a> = dyn Fn(&str) -> Option<Option<Vec<String>>> + 'a;

/// What the cache says of one edition before it is loaded.
enum State {
    /// Every artifact fresh: these are their keys.
    Fresh(BTreeMap<String, Key>),
    /// Fresh but for the artifacts that link to editions not known yet.
    Pending,
    /// To be loaded.
    Stale,
}

/// What the plan says of one loaded edition before it is rendered.
pub(crate) struct Work {
    /// Each format of the build: its key (when known) and, when fresh,
    /// what the cache remembers of it.
    formats: Vec<(&'static str, Option<Key>, Option<Made>)>,
    /// The page map of its paged format, kept by this session.
    pub(crate) page_map: Option<PageMap>,
    /// When the paged format is stale: the page map its last rendering in
    /// this session made, for the other formats to be made with before it
    /// (see `render::render_all`).
    pub(crate) previous_map: Option<PageMap>,
    /// Where its cover comes from (taken when it is prepared).
    pub(crate) cover: Option<CoverPlan>,
}

impl Work {
    /// An edition the cache knows nothing of: everything is made, the
    /// cover drawn or taken from the build cache as `stored` says.
    pub(crate) fn cold(options: &BuildOptions, stored: Stored) -> Work {
        let wants_cover = options
            .formats
            .iter()
            .any(|f| !options.renderer(f).draws_covers());
        Work {
            formats: options.formats.iter().map(|&f| (f, None, None)).collect(),
            page_map: None,
            previous_map: None,
            cover: Some(if wants_cover {
                CoverPlan::Draw(stored)
            } else {
                CoverPlan::Skip
            }),
        }
    }

    /// The formats the cache does not hold: those this build makes.
    pub(crate) fn stale(&self) -> Vec<&'static str> {
        self.formats
            .iter()
            .filter(|(_, _, made)| made.is_none())
            .map(|(f, _, _)| *f)
            .collect()
    }

    /// What the cache remembers of `format` when it is fresh.
    pub(crate) fn fresh(&self, format: &str) -> Option<&Made> {
        self.formats
            .iter()
            .find(|(f, _, _)| *f == format)
            .and_then(|(_, _, made)| made.as_ref())
    }
}

impl<'a> Plan<'a> {
    /// Hashes every selected edition's files and finds the editions with
    /// nothing to do. When the download page must be made again and its
    /// own list is gone, no edition is skipped: the page needs every
    /// edition's entry.
    pub(crate) fn new(
        options: &'a BuildOptions,
        configs: &[&BookConfig],
        cache: &'a Cache,
    ) -> Plan<'a> {
        use rayon::prelude::*;
        let mut plan = Plan {
            options,
            cache,
            base: HashMap::new(),
            languages: HashMap::new(),
            order: Vec::new(),
            fresh: BTreeSet::new(),
            pending: Vec::new(),
            keys: BTreeMap::new(),
            loaded: HashMap::new(),
            themes: Mutex::default(),
        };
        for config in configs {
            let langs = options.languages_of(config);
            let pairs = langs.iter().map(|l| (config.id.clone(), l.clone()));
            plan.order.extend(pairs);
            plan.languages.insert(config.id.clone(), langs);
        }
        let pairs: Vec<(&BookConfig, &String)> = configs
            .iter()
            .flat_map(|c| plan.languages[&c.id].iter().map(move |l| (*c, l)))
            .collect();
        let keys: Vec<(String, Key)> = pairs
            .par_iter()
            .map(|(config, lang)| {
                (
                    edition_id(&config.id, lang),
                    edition_base_key(options, config, lang),
                )
            })
            .collect();
        plan.base.extend(keys);
        let load_all = options.site && !cache.site().is_some_and(|m| m.intact(&options.out_dir));
        if load_all {
            return plan;
        }
        let mut found = Vec::new();
        for config in configs {
            // Before loading, only the editions the cache knows tell their
            // chapters.
            let known = |other: &str| {
                let id = edition_id(&config.id, other);
                let slugs = cache.edition_slugs(&id, plan.base.get(&id)?)?;
                Some(Some(slugs.to_vec()))
            };
            for lang in plan.languages(&config.id) {
                let state = plan.state(config, lang, &known);
                found.push((config.id.clone(), lang.clone(), state));
            }
        }
        for (book, lang, state) in found {
            match state {
                State::Fresh(keys) => {
                    plan.fresh.insert(edition_id(&book, &lang));
                    plan.keys.extend(keys);
                }
                State::Pending => plan.pending.push((book, lang)),
                State::Stale => {}
            }
        }
        plan
    }

    /// What the cache says of the edition of `config` in `lang`, the other
    /// editions' chapters as `slugs` tells them.
    fn state(&self, config: &BookConfig, lang: &str, slugs: &Slugs) -> State {
        let options = self.options;
        let id = edition_id(&config.id, lang);
        let Some(full) = self
            .base
            .get(&id)
            .and_then(|b| self.cache.edition_key(&id, b))
        else {
            return State::Stale;
        };
        let links = self.links_key(&config.id, lang, slugs);
        let mut keys = BTreeMap::new();
        let mut pending = false;
        for &format in &options.formats {
            if options.renderer(format).links_languages() && links.is_none() {
                pending = true;
                continue;
            }
            let key = self.artifact_key(config, &full, format, links.as_deref());
            let id = artifact_id(&config.id, lang, format);
            let Some(key) = key.filter(|k| self.is_made(&id, k)) else {
                return State::Stale;
            };
            keys.insert(id, key);
        }
        if pending {
            State::Pending
        } else {
            State::Fresh(keys)
        }
    }

    /// Whether the cache holds artifact `id` made from `key`, its files as
    /// they were left.
    fn is_made(&self, id: &str, key: &str) -> bool {
        self.cache
            .artifact(id)
            .is_some_and(|m| m.fresh(&self.options.out_dir, key))
    }

    /// The editions told from the cache (book, language), in order.
    fn fresh_editions(&self) -> impl Iterator<Item = &(String, String)> {
        self.order.iter().filter(|(b, l)| self.is_fresh(b, l))
    }

    /// Whether the edition `<book>/<lang>` is told from the cache.
    pub(crate) fn is_fresh(&self, book: &str, lang: &str) -> bool {
        self.fresh.contains(&edition_id(book, lang))
    }

    /// The languages of `book` to load first: those neither told from the
    /// cache nor waiting for the others' chapters.
    pub(crate) fn to_load(&self, book: &str) -> Vec<String> {
        let waits = |l: &String| self.pending.iter().any(|(b, p)| b == book && p == l);
        self.languages(book)
            .iter()
            .filter(|l| !self.is_fresh(book, l) && !waits(l))
            .cloned()
            .collect()
    }

    /// The languages of book `id` in this build.
    pub(crate) fn languages(&self, book: &str) -> &[String] {
        self.languages.get(book).map_or(&[], Vec::as_slice)
    }

    /// The base key of an edition.
    pub(crate) fn base(&self, book: &str, lang: &str) -> Option<&Key> {
        self.base.get(&edition_id(book, lang))
    }

    /// How covers are found in the build cache: `--force` draws them again.
    pub(crate) fn stored(&self) -> Stored {
        if self.cache.rewrite {
            Stored::Replace
        } else {
            Stored::Reuse
        }
    }

    /// Whether every file is written even when it holds the same bytes
    /// (`--force`).
    pub(crate) fn rewrite(&self) -> bool {
        self.cache.rewrite
    }

    /// The key of the files of `theme` that `renderer` reads.
    fn theme(&self, theme: &Theme, renderer: &dyn Renderer) -> Key {
        let mut themes = self.themes.lock().unwrap_or_else(|e| e.into_inner());
        themes
            .entry((theme.clone(), renderer.name()))
            .or_insert_with(|| theme_key(theme, renderer))
            .clone()
    }

    /// The key of what the web edition of `book` in `lang` links to: the
    /// other editions of this build and their chapters; `None` while one of
    /// them is not known.
    fn links_key(&self, book: &str, lang: &str, slugs: &Slugs) -> Option<Key> {
        let mut h = Hasher::new("links");
        for other in self.languages(book).iter().filter(|l| *l != lang) {
            h.str(other);
            match slugs(other)? {
                Some(slugs) => {
                    h.str(&slugs.len().to_string());
                    for slug in &slugs {
                        h.str(slug);
                    }
                }
                None => {
                    h.str("absent");
                }
            }
        }
        Some(h.finish())
    }

    /// The key of the artifact of `format` for an edition of `config`
    /// whose full key is `edition` (its language is in it), `links` the key of what it links
    /// to in the other languages when its renderer does; `None` when the
    /// theme is missing (the build then says so).
    pub(crate) fn artifact_key(
        &self,
        config: &BookConfig,
        edition: &str,
        format: &str,
        links: Option<&str>,
    ) -> Option<Key> {
        let options = self.options;
        let theme = Theme::resolve(&options.themes_dir, &config.theme)?;
        let renderer = options.renderer(format);
        let mut h = Hasher::new("artifact");
        h.str(format).str(edition);
        h.str(&self.theme(&theme, renderer));
        if renderer.maps_pages() {
            return Some(h.finish());
        }
        // The other formats read the cover, drawn by the painter from its
        // side of the theme, and the page map of the paged formats of this
        // build.
        if let Some(painter) = options.renderers.cover_painter() {
            h.str(&self.theme(&theme, painter));
        }
        for paged in options
            .formats
            .iter()
            .filter(|f| options.renderer(f).maps_pages())
        {
            h.str(&self.artifact_key(config, edition, paged, None)?);
        }
        if renderer.links_languages() {
            h.str(links.unwrap_or_default());
        }
        Some(h.finish())
    }

    /// The key of the cover drawn for an edition, and of its thumbnails:
    /// the edition and the theme's Typst side.
    pub(crate) fn cover_key(&self, config: &BookConfig, edition: &str, kind: &str) -> Option<Key> {
        let options = self.options;
        let theme = Theme::resolve(&options.themes_dir, &config.theme)?;
        let mut h = Hasher::new(kind);
        h.str(edition);
        if let Some(painter) = options.renderers.cover_painter() {
            h.str(&self.theme(&theme, painter));
        }
        Some(h.finish())
    }

    /// Tells again the warnings of the editions not loaded.
    pub(crate) fn replay_warnings(&self, sink: Sink, report: &mut Report) {
        for (book, lang) in self.fresh_editions() {
            for warning in self.cache.edition_warnings(&edition_id(book, lang)) {
                sink(Event::Warning(warning));
                report.warnings.push(warning.clone());
            }
        }
    }

    /// Learns what each loaded edition read and its chapters, and computes
    /// its artifacts' keys; returns the editions' records for the cache.
    pub(crate) fn learn(&mut self, editions: &[(&BookConfig, Edition)]) -> Ledger {
        let mut ledger = Ledger::default();
        let mut learnt = Vec::new();
        for (config, edition) in editions {
            let lang = &edition.book.lang;
            let id = edition_id(&config.id, lang);
            let base = match self.base(&config.id, lang) {
                Some(base) => base.clone(),
                None => edition_base_key(self.options, config, lang),
            };
            let images = edition
                .book
                .assets
                .iter()
                .map(|a| PathBuf::from(&a.path))
                .collect();
            let slugs = crate::translations::slugs(&edition.book);
            let input = EditionInput::new(base, images, edition.warnings.clone(), slugs);
            let full = input.full_key();
            self.loaded
                .insert(id.clone(), (full.clone(), input.slugs().to_vec()));
            ledger.editions.push((id, input));
            learnt.push((*config, lang, full));
        }
        for (config, lang, full) in learnt {
            let links = self.links_key(&config.id, lang, &|other| self.made(&config.id, other));
            for &format in &self.options.formats {
                let key = self.artifact_key(config, &full, format, links.as_deref());
                if let Some(key) = key {
                    self.keys.insert(artifact_id(&config.id, lang, format), key);
                }
            }
        }
        ledger
    }

    /// The chapters of the edition `<book>/<other>` once this build loaded
    /// what it had to: those loaded now, or those the cache knows unchanged;
    /// none for an edition that failed.
    fn made(&self, book: &str, other: &str) -> Option<Option<Vec<String>>> {
        let id = edition_id(book, other);
        if let Some((_, slugs)) = self.loaded.get(&id) {
            return Some(Some(slugs.clone()));
        }
        let slugs = self
            .base
            .get(&id)
            .and_then(|b| self.cache.edition_slugs(&id, b));
        Some(slugs.map(<[String]>::to_vec))
    }

    /// Decides the editions that waited for the others' chapters, once the
    /// stale ones are loaded and learnt: each is fresh, or returned (book,
    /// language) to be loaded as well.
    pub(crate) fn settle_pending(&mut self, configs: &[&BookConfig]) -> Vec<(String, String)> {
        let mut load = Vec::new();
        for (book, lang) in std::mem::take(&mut self.pending) {
            let Some(config) = configs.iter().find(|c| c.id == book) else {
                continue;
            };
            let made = |other: &str| self.made(&book, other);
            match self.state(config, &lang, &made) {
                State::Fresh(keys) => {
                    self.fresh.insert(edition_id(&book, &lang));
                    self.keys.extend(keys);
                }
                State::Pending | State::Stale => load.push((book, lang)),
            }
        }
        load
    }

    /// The key of the download page (see [`site_key`]).
    pub(crate) fn site_key(
        &self,
        configs: &[Result<BookConfig, Vec<Diagnostic>>],
        failed: bool,
    ) -> Option<Key> {
        site_key(self.options, &self.keys, configs, failed)
    }

    /// Whether the download page in place was made from `key`, its files as
    /// it left them.
    pub(crate) fn site_is_fresh(&self, key: Option<&Key>) -> bool {
        key.is_some_and(|k| {
            self.cache
                .site()
                .is_some_and(|m| m.fresh(&self.options.out_dir, k))
        })
    }

    /// What the plan says of a loaded edition before it is rendered.
    pub(crate) fn work(&self, config: &BookConfig, lang: &str) -> Work {
        let options = self.options;
        let stored = self.stored();
        let mut work = Work::cold(options, stored);
        if !self.loaded.contains_key(&edition_id(&config.id, lang)) {
            return work;
        }
        for (format, key, made) in &mut work.formats {
            let id = artifact_id(&config.id, lang, format);
            *key = self.keys.get(&id).cloned();
            if let Some(k) = key {
                *made = self
                    .cache
                    .artifact(&id)
                    .filter(|m| m.fresh(&options.out_dir, k))
                    .cloned();
            }
        }
        let paged = work
            .formats
            .iter()
            .find(|(f, _, _)| options.renderer(f).maps_pages())
            .and_then(|(_, k, _)| k.clone());
        work.page_map = paged.and_then(|k| self.cache.page_map(&k));
        if work.page_map.is_none() {
            let id = edition_id(&config.id, lang);
            work.previous_map = self.cache.recent_map(&id).cloned();
        }
        let stale_needs_cover = work
            .formats
            .iter()
            .any(|(f, _, made)| made.is_none() && !options.renderer(f).draws_covers());
        work.cover = Some(if stale_needs_cover {
            CoverPlan::Draw(stored)
        } else {
            CoverPlan::Skip
        });
        work
    }

    /// How many artifacts [`Plan::replay_artifacts`] tells.
    pub(crate) fn replayed_count(&self) -> usize {
        self.fresh_editions().count() * self.options.formats.len()
    }

    /// Tells the artifacts of the editions not loaded, as built and not
    /// written.
    pub(crate) fn replay_artifacts(&self, sink: Sink, report: &mut Report) {
        for (book, lang) in self.fresh_editions() {
            for &format in &self.options.formats {
                let Some(made) = self.cache.artifact(&artifact_id(book, lang, format)) else {
                    continue;
                };
                for warning in &made.warnings {
                    sink(Event::Warning(warning));
                    report.warnings.push(warning.clone());
                }
                let artifact = made.artifact(book, lang, format);
                sink(Event::Built(&artifact));
                report.artifacts.push(artifact);
            }
        }
    }

    /// The web edition's links of a loaded edition of `config` to the
    /// editions of the book not loaded, added to `alternates` (those of the
    /// loaded ones), in book.toml's order of languages as a cold build has
    /// them.
    pub(crate) fn add_unloaded_alternates(
        &self,
        config: &BookConfig,
        lang: &str,
        alternates: &mut Vec<stoa_render::Alternate>,
    ) {
        for other in self.languages(&config.id) {
            if other == lang || !self.is_fresh(&config.id, other) {
                continue;
            }
            if let Some(Some(slugs)) = self.made(&config.id, other) {
                alternates.push(stoa_render::Alternate {
                    lang: other.clone(),
                    slugs,
                });
            }
        }
        let position = |tag: &str| config.languages.iter().position(|l| l.tag == tag);
        alternates.sort_by_key(|a| position(&a.lang));
    }

    /// Adds to `ledger` what one format of an edition made (its files in
    /// place, stamped now).
    pub(crate) fn record(&self, made: Record, ledger: &mut Ledger) {
        let Record {
            book,
            lang,
            format,
            path,
            bytes,
            files,
            warnings,
            page_count,
            pages,
        } = made;
        let id = artifact_id(book, lang, format);
        let key = self.keys.get(&id).cloned();
        if let (Some(map), Some(key)) = (pages, &key) {
            let edition = edition_id(book, lang);
            ledger.page_maps.push((key.clone(), edition, map.clone()));
        }
        let made = key.and_then(|key| {
            Made::new(
                &self.options.out_dir,
                key,
                path.to_path_buf(),
                bytes,
                files,
                warnings.to_vec(),
                page_count,
            )
        });
        ledger.artifacts.push((id, made));
    }

    /// The key of an edition's thumbnails and whether they are fresh.
    pub(crate) fn thumbnails(&self, config: &BookConfig, lang: &str) -> (Option<Key>, bool) {
        let id = edition_id(&config.id, lang);
        let key = self
            .loaded
            .get(&id)
            .and_then(|(full, _)| self.cover_key(config, full, "thumbnails"));
        let fresh = key.as_ref().is_some_and(|k| {
            self.cache
                .thumbnails(&id)
                .is_some_and(|m| m.fresh(&self.options.out_dir, k))
        });
        (key, fresh)
    }

    /// After a build of every book in every language, the editions that
    /// exist: the cache forgets the others.
    pub(crate) fn complete(&self) -> Option<HashSet<String>> {
        let options = self.options;
        if !options.books.is_empty() || !options.languages.is_empty() {
            return None;
        }
        Some(self.base.keys().cloned().collect())
    }
}

/// The key of the download page: every artifact of the build by key, and
/// which books and languages exist (an edition of a book removed leaves the
/// page). `None` after a failure: the page is then always made again.
pub(crate) fn site_key(
    options: &BuildOptions,
    artifacts: &BTreeMap<String, Key>,
    configs: &[Result<BookConfig, Vec<Diagnostic>>],
    failed: bool,
) -> Option<Key> {
    if failed {
        return None;
    }
    let mut h = Hasher::new("site");
    for (id, key) in artifacts {
        h.str(id).str(key);
    }
    for config in configs {
        let config = config.as_ref().ok()?;
        h.str(&config.id);
        for l in &config.languages {
            h.str(&l.tag);
        }
    }
    if let Ok(dirs) = stoa_book::discover(&options.books_dir) {
        for dir in dirs {
            h.path(&dir);
        }
    }
    Some(h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A book in two languages with one post, and a theme folder.
    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("books/b")).unwrap();
        std::fs::create_dir_all(root.join("books/posts/p")).unwrap();
        std::fs::create_dir_all(root.join("themes/classic")).unwrap();
        std::fs::write(
            root.join("books/b/book.toml"),
            "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\nidentifier = \"urn:x\"\n\
             posts = [\"p\"]\n\n[title]\nen = \"B\"\npt-BR = \"B\"\n",
        )
        .unwrap();
        for (lang, text) in [("en", "One."), ("pt-BR", "Um.")] {
            let md = format!("+++\ntitle = \"T\"\n+++\n\n{text}\n");
            std::fs::write(root.join(format!("books/posts/p/{lang}.md")), md).unwrap();
        }
        for file in ["epub.css", "web.css", "book.typ"] {
            std::fs::write(root.join("themes/classic").join(file), file).unwrap();
        }
        dir
    }

    fn options(root: &Path) -> BuildOptions {
        BuildOptions {
            site: true,
            ..BuildOptions::new(root.join("books"), root.join("themes"), root.join("dist"))
        }
    }

    /// Every artifact's key, by `<lang>/<format>`, each edition having the
    /// chapters `slugs` gives for its language.
    fn keys_with(
        options: &BuildOptions,
        slugs: &dyn Fn(&str) -> Vec<String>,
    ) -> BTreeMap<String, Key> {
        let config = stoa_book::load_config(&options.books_dir.join("b")).unwrap();
        let cache = Cache::default();
        let plan = Plan::new(options, &[&config], &cache);
        let mut full = BTreeMap::new();
        for lang in ["en", "pt-BR"] {
            let base = plan.base("b", lang).unwrap().clone();
            let input = EditionInput::new(base, Vec::new(), Vec::new(), slugs(lang));
            full.insert(lang, input.full_key());
        }
        let mut out = BTreeMap::new();
        for lang in ["en", "pt-BR"] {
            let known = |other: &str| Some(Some(slugs(other)));
            let links = plan.links_key("b", lang, &known);
            for format in options.renderers.names() {
                let key = plan.artifact_key(&config, &full[lang], format, links.as_deref());
                out.insert(format!("{lang}/{format}"), key.unwrap());
            }
        }
        out
    }

    /// [`keys_with`] the one post in both languages.
    fn keys(options: &BuildOptions) -> BTreeMap<String, Key> {
        keys_with(options, &|_| vec!["p".to_string()])
    }

    /// The artifacts whose key differs.
    fn moved(a: &BTreeMap<String, Key>, b: &BTreeMap<String, Key>) -> Vec<String> {
        a.keys().filter(|k| a[*k] != b[*k]).cloned().collect()
    }

    #[test]
    fn a_style_sheet_moves_the_epub_and_the_web_edition_not_the_pdf() {
        let dir = project();
        let options = options(dir.path());
        let before = keys(&options);
        assert_eq!(before, keys(&options), "keys are stable");
        std::fs::write(dir.path().join("themes/classic/epub.css"), "p {}").unwrap();
        assert_eq!(
            moved(&before, &keys(&options)),
            ["en/epub", "en/html", "pt-BR/epub", "pt-BR/html"]
        );
    }

    #[test]
    fn the_typst_template_moves_everything() {
        let dir = project();
        let options = options(dir.path());
        let before = keys(&options);
        std::fs::write(dir.path().join("themes/classic/book.typ"), "#let x = 1").unwrap();
        assert_eq!(moved(&before, &keys(&options)).len(), 6);
    }

    #[test]
    fn a_translation_moves_its_edition_only() {
        let dir = project();
        let options = options(dir.path());
        let before = keys(&options);
        let md = "+++\ntitle = \"T\"\n+++\n\nUm, editado.\n";
        std::fs::write(dir.path().join("books/posts/p/pt-BR.md"), md).unwrap();
        assert_eq!(
            moved(&before, &keys(&options)),
            ["pt-BR/epub", "pt-BR/html", "pt-BR/pdf"]
        );
    }

    #[test]
    fn a_chapter_added_in_one_language_moves_the_other_web_edition() {
        let dir = project();
        let options = options(dir.path());
        let before = keys(&options);
        // The Portuguese edition gains a chapter: the English web edition
        // links to it; nothing else moves (its own files are the same in
        // this test).
        let after = keys_with(&options, &|lang| match lang {
            "pt-BR" => vec!["p".to_string(), "q".to_string()],
            _ => vec!["p".to_string()],
        });
        assert_eq!(moved(&before, &after), ["en/html"]);
    }

    #[test]
    fn the_book_and_the_options_move_everything() {
        let dir = project();
        let mut options = options(dir.path());
        let before = keys(&options);
        options.source_date_epoch = Some(1_700_000_000);
        assert_eq!(moved(&before, &keys(&options)).len(), 6);
        options.source_date_epoch = None;
        let toml = dir.path().join("books/b/book.toml");
        let text = std::fs::read_to_string(&toml).unwrap();
        std::fs::write(&toml, text.replace("author = \"A\"", "author = \"Z\"")).unwrap();
        assert_eq!(moved(&before, &keys(&options)).len(), 6);
    }
}
