//! Deciding what a build may skip: each artifact's key, from the content of
//! its inputs, against what the [`Cache`] remembers. A book whose every
//! artifact is fresh is not even loaded; in a book that is, only the stale
//! artifacts are rendered.

use crate::cache::{Cache, Hasher, Key, Made, edition_base_key, theme_key};
use crate::plan::{BuildOptions, CoverPlan, EditionJob, Event, Format, Report, Sink, renderer};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;
use stoa_book::BookConfig;
use stoa_book::Edition;
use stoa_doc::Diagnostic;
use stoa_render::PageMap;
use stoa_render::Theme;

/// The id of an edition in the cache: `<book>/<lang>`.
pub(crate) fn edition_id(book: &str, lang: &str) -> String {
    format!("{book}/{lang}")
}

/// The id of an artifact in the cache: `<book>/<lang>/<format>`.
pub(crate) fn artifact_id(book: &str, lang: &str, format: Format) -> String {
    format!("{book}/{lang}/{}", format.name())
}

/// What this build knows before loading anything.
pub(crate) struct Plan {
    /// Each selected edition's base key (its files), by edition id.
    base: HashMap<String, Key>,
    /// Each selected book's languages in this build.
    languages: HashMap<String, Vec<String>>,
    /// Books whose artifacts are all fresh: not loaded, told from the cache.
    fresh_books: Vec<String>,
    /// The keys of those books' artifacts, by artifact id.
    fresh_keys: BTreeMap<String, Key>,
    /// Theme keys, computed once per theme and kind.
    themes: Mutex<HashMap<(Theme, bool), Key>>,
}

impl Plan {
    /// Hashes every selected edition's files and finds the books with
    /// nothing to do. With `load_all`, no book is skipped (the download page
    /// needs every edition's entry).
    pub(crate) fn new(
        options: &BuildOptions,
        configs: &[&BookConfig],
        cache: &Cache,
        load_all: bool,
    ) -> Plan {
        use rayon::prelude::*;
        let mut plan = Plan {
            base: HashMap::new(),
            languages: HashMap::new(),
            fresh_books: Vec::new(),
            fresh_keys: BTreeMap::new(),
            themes: Mutex::default(),
        };
        let selected = |config: &BookConfig| -> Vec<String> {
            config
                .languages
                .iter()
                .filter(|l| options.languages.is_empty() || options.languages.contains(&l.tag))
                .map(|l| l.tag.clone())
                .collect()
        };
        let pairs: Vec<(&BookConfig, String)> = configs
            .iter()
            .flat_map(|c| selected(c).into_iter().map(move |l| (*c, l)))
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
        for config in configs {
            plan.languages.insert(config.id.clone(), selected(config));
        }
        if load_all {
            return plan;
        }
        for config in configs {
            let mut keys = BTreeMap::new();
            let fresh = plan.languages[&config.id].iter().all(|lang| {
                let id = edition_id(&config.id, lang);
                let Some(full) = cache.edition_key(&id, &plan.base[&id]) else {
                    return false;
                };
                options.formats.iter().all(|&format| {
                    let key = plan.artifact_key(options, config, lang, &full, format);
                    let id = artifact_id(&config.id, lang, format);
                    key.is_some_and(|key| {
                        let fresh = cache
                            .artifact(&id)
                            .is_some_and(|m| m.fresh(&options.out_dir, &key));
                        keys.insert(id, key);
                        fresh
                    })
                })
            });
            if fresh {
                plan.fresh_books.push(config.id.clone());
                plan.fresh_keys.extend(keys);
            }
        }
        plan
    }

    /// The books told from the cache.
    pub(crate) fn fresh_books(&self) -> &[String] {
        &self.fresh_books
    }

    /// The languages of book `id` in this build.
    pub(crate) fn languages(&self, book: &str) -> &[String] {
        self.languages.get(book).map_or(&[], Vec::as_slice)
    }

    /// The base key of an edition.
    pub(crate) fn base(&self, book: &str, lang: &str) -> Option<&Key> {
        self.base.get(&edition_id(book, lang))
    }

    fn theme(&self, theme: &Theme, typst_only: bool) -> Key {
        let mut themes = self.themes.lock().unwrap_or_else(|e| e.into_inner());
        themes
            .entry((theme.clone(), typst_only))
            .or_insert_with(|| theme_key(theme, typst_only))
            .clone()
    }

    /// The key of the artifact of `format` for the edition of `config` in
    /// `lang` whose full key is `edition`; `None` when the theme is missing
    /// (the build then says so).
    pub(crate) fn artifact_key(
        &self,
        options: &BuildOptions,
        config: &BookConfig,
        lang: &str,
        edition: &str,
        format: Format,
    ) -> Option<Key> {
        let theme = Theme::resolve(&options.themes_dir, &config.theme)?;
        let mut h = Hasher::new("artifact");
        h.str(format.name()).str(edition);
        if renderer(format).maps_pages() {
            h.str(&self.theme(&theme, true));
            return Some(h.finish());
        }
        // The other formats read every theme file (the cover is drawn
        // from the Typst side), the page map of the paged formats of this
        // build, and (the web edition's links to the other languages) which
        // other editions of the book this build makes.
        h.str(&self.theme(&theme, false));
        for &paged in options
            .formats
            .iter()
            .filter(|&&f| renderer(f).maps_pages())
        {
            h.str(&self.artifact_key(options, config, lang, edition, paged)?);
        }
        for other in self.languages(&config.id) {
            if other != lang {
                let base = self.base(&config.id, other).map_or("", String::as_str);
                h.str(other).str(base);
            }
        }
        Some(h.finish())
    }

    /// The key of the cover drawn for an edition, and of its thumbnails:
    /// the edition and the theme's Typst side.
    pub(crate) fn cover_key(
        &self,
        options: &BuildOptions,
        config: &BookConfig,
        edition: &str,
        kind: &str,
    ) -> Option<Key> {
        let theme = Theme::resolve(&options.themes_dir, &config.theme)?;
        let mut h = Hasher::new(kind);
        h.str(edition).str(&self.theme(&theme, true));
        Some(h.finish())
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

/// A build's use of the cache: the plan, and what it learns as it goes.
pub(crate) struct Incremental<'c> {
    /// The cache, updated as artifacts are made.
    pub(crate) cache: &'c mut Cache,
    /// What was known before loading.
    pub(crate) plan: Plan,
    /// The full key of each loaded edition, by edition id.
    full: HashMap<String, Key>,
    /// Every artifact's key in this build, by artifact id.
    keys: BTreeMap<String, Key>,
}

/// What the cache says of one loaded edition before it is rendered.
pub(crate) struct Work {
    /// Each format of the build: its key (when known) and, when fresh,
    /// what the cache remembers of it.
    formats: Vec<(Format, Option<Key>, Option<Made>)>,
    /// The page map of its paged format, kept by this session.
    pub(crate) page_map: Option<PageMap>,
    /// When the paged format is stale: the page map its last rendering in
    /// this session made, for the other formats to be made with before it
    /// (see `plan::render_all`).
    pub(crate) previous_map: Option<PageMap>,
    /// Where its cover comes from (taken when it is prepared).
    pub(crate) cover: Option<CoverPlan>,
    /// The cover's key, to keep a drawn cover for the next build.
    pub(crate) cover_key: Option<Key>,
}

impl Work {
    /// An edition with no cache: everything is made.
    pub(crate) fn cold(options: &BuildOptions) -> Work {
        let wants_cover = options.formats.iter().any(|&f| !renderer(f).draws_covers());
        Work {
            formats: options.formats.iter().map(|&f| (f, None, None)).collect(),
            page_map: None,
            previous_map: None,
            cover: Some(if wants_cover {
                CoverPlan::Draw
            } else {
                CoverPlan::Skip
            }),
            cover_key: None,
        }
    }

    /// What the cache remembers of `format` when it is fresh.
    pub(crate) fn fresh(&self, format: Format) -> Option<&Made> {
        self.formats
            .iter()
            .find(|(f, _, _)| *f == format)
            .and_then(|(_, _, made)| made.as_ref())
    }
}

impl<'c> Incremental<'c> {
    pub(crate) fn new(cache: &'c mut Cache, plan: Plan) -> Self {
        let keys = plan.fresh_keys.clone();
        Incremental {
            cache,
            plan,
            full: HashMap::new(),
            keys,
        }
    }

    /// Tells again the warnings of the editions not loaded.
    pub(crate) fn replay_warnings(&self, sink: Sink, report: &mut Report) {
        for book in self.plan.fresh_books() {
            for lang in self.plan.languages(book) {
                for warning in self.cache.edition_warnings(&edition_id(book, lang)) {
                    sink(Event::Warning(warning));
                    report.warnings.push(warning.clone());
                }
            }
        }
    }

    /// Remembers what each loaded edition read, and computes its artifacts'
    /// keys.
    pub(crate) fn record_editions(
        &mut self,
        options: &BuildOptions,
        editions: &[(&BookConfig, Edition)],
    ) {
        for (config, edition) in editions {
            let lang = &edition.book.lang;
            let id = edition_id(&config.id, lang);
            let base = match self.plan.base(&config.id, lang) {
                Some(base) => base.clone(),
                None => edition_base_key(options, config, lang),
            };
            let images = edition
                .book
                .assets
                .iter()
                .map(|a| PathBuf::from(&a.path))
                .collect();
            let full = self
                .cache
                .set_edition(id.clone(), base, images, edition.warnings.clone());
            for &format in &options.formats {
                if let Some(key) = self.plan.artifact_key(options, config, lang, &full, format) {
                    self.keys.insert(artifact_id(&config.id, lang, format), key);
                }
            }
            self.full.insert(id, full);
        }
    }

    /// The key of the download page (see [`site_key`]).
    pub(crate) fn site_key(
        &self,
        options: &BuildOptions,
        configs: &[Result<BookConfig, Vec<Diagnostic>>],
        failed: bool,
    ) -> Option<Key> {
        site_key(options, &self.keys, configs, failed)
    }

    /// What the cache says of a loaded edition before it is rendered.
    pub(crate) fn work(&mut self, options: &BuildOptions, config: &BookConfig, lang: &str) -> Work {
        let mut work = Work::cold(options);
        let Some(full) = self.full.get(&edition_id(&config.id, lang)).cloned() else {
            return work;
        };
        for (format, key, made) in &mut work.formats {
            *key = self
                .keys
                .get(&artifact_id(&config.id, lang, *format))
                .cloned();
            if let Some(k) = key {
                *made = self
                    .cache
                    .artifact(&artifact_id(&config.id, lang, *format))
                    .filter(|m| m.fresh(&options.out_dir, k))
                    .cloned();
            }
        }
        let paged = work
            .formats
            .iter()
            .find(|(f, _, _)| renderer(*f).maps_pages())
            .and_then(|(_, k, _)| k.clone());
        work.page_map = paged.and_then(|k| self.cache.page_map(&k));
        if work.page_map.is_none() {
            let id = edition_id(&config.id, lang);
            work.previous_map = self.cache.recent_map(&id).cloned();
        }
        let stale_needs_cover = work
            .formats
            .iter()
            .any(|(f, _, made)| made.is_none() && !renderer(*f).draws_covers());
        work.cover_key = self.plan.cover_key(options, config, &full, "cover");
        work.cover = Some(if !stale_needs_cover {
            CoverPlan::Skip
        } else {
            match work.cover_key.as_ref().and_then(|k| self.cache.cover(k)) {
                Some(png) => CoverPlan::Known(png),
                None => CoverPlan::Draw,
            }
        });
        work
    }

    /// How many artifacts [`Incremental::replay_artifacts`] tells.
    pub(crate) fn replayed_count(&self, options: &BuildOptions) -> usize {
        self.plan
            .fresh_books()
            .iter()
            .map(|b| self.plan.languages(b).len() * options.formats.len())
            .sum()
    }

    /// Tells the artifacts of the books not loaded, as built and not written.
    pub(crate) fn replay_artifacts(&self, options: &BuildOptions, sink: Sink, report: &mut Report) {
        for book in self.plan.fresh_books() {
            for lang in self.plan.languages(book) {
                for &format in &options.formats {
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
    }

    /// Keeps the covers drawn (or reused) by this build for the next one.
    pub(crate) fn record_covers(&mut self, covers: impl Iterator<Item = (Key, Vec<u8>)>) {
        for (key, png) in covers {
            self.cache.set_cover(key, png);
        }
    }

    /// Remembers what the jobs made. An edition whose paged format failed
    /// keeps no record of its other formats, made without its page map.
    pub(crate) fn record_results(&mut self, options: &BuildOptions, results: &[EditionJob]) {
        let paged_failed: Vec<&(String, String)> = results
            .iter()
            .filter(|(_, (f, r))| renderer(*f).maps_pages() && r.is_err())
            .map(|(k, _)| k)
            .collect();
        for ((book, lang), (format, result)) in results {
            let id = artifact_id(book, lang, *format);
            let Ok(done) = result else { continue };
            if done.cached {
                continue;
            }
            let key = self.keys.get(&id).cloned();
            if let (Some(map), Some(key)) = (&done.pages, &key) {
                self.cache.set_page_map(key.clone(), map.clone());
                self.cache
                    .set_recent_map(edition_id(book, lang), map.clone());
            }
            let keep = !paged_failed.contains(&&(book.clone(), lang.clone()))
                || renderer(*format).maps_pages();
            let made = key.filter(|_| keep).and_then(|key| {
                Made::new(
                    &options.out_dir,
                    key,
                    done.artifact.path.clone(),
                    done.artifact.bytes,
                    &done.files,
                    done.warnings.clone(),
                    done.page_count,
                )
            });
            self.cache.set_artifact(id, made);
        }
    }

    /// The key of an edition's thumbnails and whether they are fresh.
    pub(crate) fn thumbnails(
        &self,
        options: &BuildOptions,
        config: &BookConfig,
        lang: &str,
    ) -> (Option<Key>, bool) {
        let id = edition_id(&config.id, lang);
        let key = self
            .full
            .get(&id)
            .and_then(|full| self.plan.cover_key(options, config, full, "thumbnails"));
        let fresh = key.as_ref().is_some_and(|k| {
            self.cache
                .thumbnails(&id)
                .is_some_and(|m| m.fresh(&options.out_dir, k))
        });
        (key, fresh)
    }

    /// Forgets what the cache holds of editions no longer built, after a
    /// build of every book in every language.
    pub(crate) fn forget_others(&mut self, options: &BuildOptions) {
        if !options.books.is_empty() || !options.languages.is_empty() {
            return;
        }
        let keep: HashSet<String> = self.plan.base.keys().cloned().collect();
        self.cache.retain_editions(&keep);
    }
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

    /// Every artifact's key, by `<lang>/<format>`.
    fn keys(options: &BuildOptions) -> BTreeMap<String, Key> {
        let config = stoa_book::load_config(&options.books_dir.join("b")).unwrap();
        let mut cache = Cache::default();
        let plan = Plan::new(options, &[&config], &cache, true);
        let mut out = BTreeMap::new();
        for lang in ["en", "pt-BR"] {
            let base = plan.base("b", lang).unwrap().clone();
            let full = cache.set_edition(edition_id("b", lang), base, Vec::new(), Vec::new());
            for format in Format::ALL {
                let key = plan.artifact_key(options, &config, lang, &full, format);
                out.insert(format!("{lang}/{}", format.name()), key.unwrap());
            }
        }
        out
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
    fn a_translation_moves_its_edition_and_the_web_links_to_it() {
        let dir = project();
        let options = options(dir.path());
        let before = keys(&options);
        let md = "+++\ntitle = \"T\"\n+++\n\nUm, editado.\n";
        std::fs::write(dir.path().join("books/posts/p/pt-BR.md"), md).unwrap();
        // The English web edition links to the Portuguese one's chapters;
        // the driver does not know which other format reads those links, so
        // the English EPUB is made again too (its bytes the same, it is not
        // written). The English PDF does not move.
        assert_eq!(
            moved(&before, &keys(&options)),
            [
                "en/epub",
                "en/html",
                "pt-BR/epub",
                "pt-BR/html",
                "pt-BR/pdf"
            ]
        );
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
