//! Tests for stoa plugins: runs a plugin on a Markdown snippet as `stoa build` would and returns
//! the transformed tree, the diagnostics, the EPUB chapter's XHTML and the PDF's text, with no book folder.
//!
//! A plugin crate names it in `[dev-dependencies]` only (the library it
//! ships links `stoa-sdk` alone) and asserts on what a reader would see:
//!
//! ```no_run
//! use stoa_plugin_testkit::Kit;
//! # #[derive(Default)] struct Highlight;
//! # impl stoa_sdk::Plugin for Highlight {
//! #     const NAME: &'static str = "example";
//! #     const VERSION: &'static str = "0.1.0";
//! # }
//!
//! // `builtin_plugin!` finds the hooks the type implements, as `export_plugin!` does.
//! let kit = Kit::new(stoa_sdk::builtin_plugin!(Highlight)).settings(r#"word = "stoa""#);
//! let out = kit.run("The stoa was a porch.");
//! assert!(out.diagnostics().is_empty(), "{}", out.report());
//! assert!(out.xhtml().contains(r#"<span class="highlight">stoa</span>"#));
//! ```
//!
//! The PDF's text ([`Outcome::pdf_text`]) and the check of raw Typst come
//! with the feature `pdf`, off by default: it compiles Typst, minutes on a
//! first build, where the rest of the kit takes seconds. A plugin that
//! writes raw Typst or PDF styles turns it on:
//! `stoa-plugin-testkit = { version = "…", features = ["pdf"] }`.
//!
//! What runs is what a build runs: the snippet is parsed by stoa's Markdown
//! parser (`stoa-markdown`) into one chapter of a one-chapter book; the
//! plugins run in this process through the host's own code
//! (`stoa-plugin-host`: the JSON of the C ABI, the SDK's hooks, the host's
//! checks of the answers), in order, each hook as the build calls it;
//! diagrams are drawn; then the EPUB and the PDF are rendered with the
//! built-in classic theme by the renderers `stoa build` uses. Rendering is
//! done on first use of [`Outcome::xhtml`] or [`Outcome::pdf_text`], so a
//! test of the tree alone costs no layout.
//!
//! A WebAssembly plugin runs the same way from its `.wasm` file:
//! `Kit::wasm("target/wasm32-unknown-unknown/release/stoa_plugin_demo.wasm")`
//! ([`Kit::wasm`]), sandboxed and under the budget `stoa build` gives it.
//!
//! Not done here, as in no test of one chapter: images (there is no book
//! folder to read them from: an image is an error), the page markers the
//! PDF gives the EPUB, and moving punctuation around note calls per
//! language (`[notes] call`).

use std::sync::OnceLock;

use stoa_plugin_host::{LoadedPlugin, PluginRun, PluginSession};
use stoa_render::{Format, RenderContext, Renderer, Theme};
use stoa_sdk::builtin::BuiltinPlugin;
use stoa_sdk::{
    Book, BookMeta, Chapter, Diagnostic, IdIndex, Labels, NotesPlan, Print, TREE_VERSION,
};

/// The snippet's chapter slug; its XHTML file in the EPUB is `snippet.xhtml`.
pub const SLUG: &str = "snippet";
/// The file diagnostics about the snippet name, with the snippet's lines.
pub const SOURCE: &str = "snippet.md";
/// The test book's id (`ctx.book_id()` in a hook).
pub const BOOK_ID: &str = "testkit";

/// A chapter edit applied after parsing, before the plugins.
type Edit = Box<dyn Fn(&mut Chapter) + Send + Sync>;

/// What to run: plugins with their settings, the language, the chapter's
/// title and any other change to the parsed chapter. Build it, then
/// [`Kit::run`] it on as many snippets as you like.
pub struct Kit {
    runs: Vec<PluginRun>,
    lang: String,
    title: String,
    edits: Vec<Edit>,
}

impl Kit {
    /// A kit running `plugin` with no settings (`{}`), in English. Make
    /// it with `stoa_sdk::builtin_plugin!(MyPlugin)` (or
    /// `builtin_plugin!(MyPlugin, MyPlugin::new(..))`), which finds the
    /// hooks your type implements exactly as `export_plugin!` does.
    pub fn new(plugin: BuiltinPlugin) -> Kit {
        Kit {
            runs: Vec::new(),
            lang: "en".to_string(),
            title: "Snippet".to_string(),
            edits: Vec::new(),
        }
        .then(plugin)
    }

    /// A kit running the WebAssembly plugin in the `.wasm` file at `path`
    /// (no settings, English), as `stoa build` runs it: sandboxed, each
    /// call in a fresh instance under the default budget (60 s of
    /// `time-limit`, 256 MiB). The error says why the file is no plugin.
    pub fn wasm(path: impl AsRef<std::path::Path>) -> Result<Kit, Diagnostic> {
        let kit = Kit {
            runs: Vec::new(),
            lang: "en".to_string(),
            title: "Snippet".to_string(),
            edits: Vec::new(),
        };
        kit.then_wasm(path)
    }

    /// Runs the WebAssembly plugin at `path` after those already added.
    pub fn then_wasm(mut self, path: impl AsRef<std::path::Path>) -> Result<Kit, Diagnostic> {
        let plugin = stoa_plugin_host::load_wasm(path.as_ref())?;
        self.runs.push(PluginRun::new(
            plugin,
            serde_json::Value::Object(serde_json::Map::new()),
        ));
        Ok(self)
    }

    /// The budget of each call of the WebAssembly plugin added last (e.g.
    /// `WasmLimits::for_time_limit(..)`, as `time-limit` in book.toml).
    pub fn wasm_limits(mut self, limits: stoa_plugin_host::WasmLimits) -> Kit {
        if let Some(last) = self.runs.last_mut() {
            last.wasm_limits = limits;
        }
        self
    }

    /// Runs `plugin` after those already added (with no settings until
    /// [`Kit::settings`]), as a second `[plugins.<name>]` table would.
    pub fn then(mut self, plugin: BuiltinPlugin) -> Kit {
        // Through JSON, as the plugin's library will be called.
        self.runs.push(PluginRun::new(
            LoadedPlugin::in_process(plugin.through_json()),
            serde_json::Value::Object(serde_json::Map::new()),
        ));
        self
    }

    /// The settings of the plugin added last, written as the body of its
    /// `[plugins.<name>]` table in book.toml, e.g. `word = "stoa"`.
    ///
    /// # Panics
    ///
    /// When `toml` is not TOML: the test's own mistake, told with the line.
    pub fn settings(mut self, toml: &str) -> Kit {
        let table: toml::Table = toml
            .parse()
            .unwrap_or_else(|e| panic!("the settings are not TOML: {e}\n{toml}"));
        let json = serde_json::to_value(table)
            .unwrap_or_else(|e| panic!("the settings cannot be sent to a plugin: {e}"));
        if let Some(last) = self.runs.last_mut() {
            last.config = json;
        }
        self
    }

    /// The edition's language (default `en`): `ctx.lang()`, the labels,
    /// hyphenation and quotes of the PDF.
    pub fn lang(mut self, tag: &str) -> Kit {
        self.lang = tag.to_string();
        self
    }

    /// The chapter's title (default `Snippet`).
    pub fn title(mut self, title: &str) -> Kit {
        self.title = title.to_string();
        self
    }

    /// Changes the parsed chapter before the plugins see it: what a post's
    /// front matter sets (`plugin_data`, `date`, `notes`, `tags`).
    pub fn chapter(mut self, edit: impl Fn(&mut Chapter) + Send + Sync + 'static) -> Kit {
        self.edits.push(Box::new(edit));
        self
    }

    /// Runs the plugins on `markdown` as a build runs them on a post:
    /// `configure`, then `source` on the Markdown, which stoa's parser then
    /// reads (line 1 is the snippet's first line, and diagnostics keep
    /// naming the snippet's own lines after a `source` hook added some),
    /// then `transform`, `finish` and `styles`. Never panics: a plugin's
    /// failure is in [`Outcome::diagnostics`].
    pub fn run(&self, markdown: &str) -> Outcome {
        let mut chapter = Chapter {
            slug: SLUG.to_string(),
            title: self.title.clone(),
            source: Some(SOURCE.to_string()),
            ..Chapter::default()
        };
        for edit in &self.edits {
            edit(&mut chapter);
        }
        let book = book(&self.lang, Vec::new());
        let session = PluginSession::new(&self.runs, &book.lang, &book.id, &book.labels);
        let failed = |diagnostics| Outcome::of(None, diagnostics);
        let mut diagnostics = match session.configure() {
            Ok(warnings) => warnings,
            Err(errors) => return failed(errors),
        };
        let (markdown, line_map) = if session.has_source_hooks() {
            match session.source(SLUG, Some(SOURCE), markdown) {
                Ok(rewritten) => {
                    diagnostics.extend(rewritten.warnings);
                    (rewritten.markdown, Some(rewritten.line_map))
                }
                Err(errors) => {
                    diagnostics.extend(errors);
                    return failed(diagnostics);
                }
            }
        } else {
            (markdown.to_string(), None)
        };
        let parsed = stoa_markdown::parse(&markdown, 1);
        for mut d in parsed.diagnostics {
            if let (Some(map), Some(line)) = (&line_map, d.line) {
                // A line a plugin added has no line of the author's.
                d.line = map.get(line - 1).copied().flatten();
                d.column = d.column.filter(|_| d.line.is_some());
            }
            diagnostics.push(d.in_file(SOURCE));
        }
        if diagnostics.iter().any(Diagnostic::is_error) {
            return failed(diagnostics);
        }
        chapter.blocks = parsed.blocks;
        let mut book = Book {
            chapters: vec![chapter],
            ..book
        };
        // Plugin by plugin, as the build does, so that raw output a
        // renderer refuses is blamed on the plugin that wrote it.
        for run in self.runs.chunks(1) {
            let one = PluginSession::new(run, &book.lang, &book.id, &book.labels);
            match one.apply(book) {
                Ok((done, warnings)) => {
                    diagnostics.extend(warnings);
                    book = done;
                }
                Err(errors) => {
                    diagnostics.extend(errors);
                    return failed(diagnostics);
                }
            }
            let raw = check_raw(&book, run[0].plugin.name());
            let refused = raw.iter().any(Diagnostic::is_error);
            diagnostics.extend(raw);
            if refused {
                return failed(diagnostics);
            }
        }
        diagnostics.extend(stoa_diagram::draw_book(&mut book, &|_| None));
        Outcome::of(Some(book), diagnostics)
    }
}

/// Runs `plugin` with `settings` (the body of its `[plugins.<name>]`
/// table) on `markdown`: [`Kit::new`], [`Kit::settings`], [`Kit::run`].
pub fn run(plugin: BuiltinPlugin, settings: &str, markdown: &str) -> Outcome {
    Kit::new(plugin).settings(settings).run(markdown)
}

/// A one-chapter book in `lang`, with the words of stoa's locale table and
/// fixed dates, so that every output is the same on every run.
fn book(lang: &str, chapters: Vec<Chapter>) -> Book {
    Book {
        version: TREE_VERSION,
        id: BOOK_ID.to_string(),
        lang: lang.to_string(),
        meta: BookMeta {
            title: "Test Book".to_string(),
            author: "Test Author".to_string(),
            identifier: "urn:uuid:00000000-0000-4000-8000-000000000000".to_string(),
            date: "2024-06-01".to_string(),
            modified: "2024-06-01T00:00:00Z".to_string(),
            ..BookMeta::default()
        },
        labels: Labels::for_language(lang),
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: Print::default(),
    }
}

/// The diagnostics for the raw output in `book` after `plugin` ran, as the
/// build words them ([`stoa_render::check_raw_output`]): an error for a
/// payload its format's renderer refuses, a warning for a format stoa does
/// not write.
fn check_raw(book: &Book, plugin: &str) -> Vec<Diagnostic> {
    // stoa's own formats; raw Typst is checked with the `pdf` feature only.
    let renderers = stoa_renderers::builtin();
    stoa_render::check_raw_output(book, plugin, |format| renderers.get(format.name()))
}

/// The EPUB's chapters as (slug, XHTML), or why it was not made.
type Epub = Result<Vec<(String, String)>, Vec<Diagnostic>>;
/// The PDF's text per page, or why it was not laid out.
#[cfg(feature = "pdf")]
type Pdf = Result<Vec<String>, Vec<Diagnostic>>;

/// What a run gave: the book after the plugins, every diagnostic, and on
/// demand the EPUB's XHTML and the PDF's text.
///
/// The accessors that return output panic when there is none (a plugin
/// failed, a renderer refused the book), with every diagnostic in the
/// message: in a test that is the failure to read. The `try_` ones return
/// the diagnostics instead, to test a failure.
pub struct Outcome {
    book: Option<Book>,
    diagnostics: Vec<Diagnostic>,
    epub: OnceLock<Epub>,
    #[cfg(feature = "pdf")]
    pdf: OnceLock<Pdf>,
}

impl std::fmt::Debug for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outcome")
            .field("book", &self.book)
            .field("diagnostics", &self.diagnostics)
            .finish_non_exhaustive()
    }
}

impl Outcome {
    fn of(book: Option<Book>, diagnostics: Vec<Diagnostic>) -> Outcome {
        Outcome {
            book,
            diagnostics,
            epub: OnceLock::new(),
            #[cfg(feature = "pdf")]
            pdf: OnceLock::new(),
        }
    }

    /// Every warning and error of the parser and the plugins, as stoa
    /// would print them (`snippet.md:3:1: …`, "plugin `name` …").
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The errors among [`Outcome::diagnostics`].
    pub fn errors(&self) -> Vec<&Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error()).collect()
    }

    /// The diagnostics as text, one per line, for an assertion's message.
    pub fn report(&self) -> String {
        report(&self.diagnostics)
    }

    /// True when every plugin ran without an error.
    pub fn is_ok(&self) -> bool {
        self.book.is_some()
    }

    /// The book after every plugin: the snippet's chapter, the chapters
    /// `finish` added, the plugins' styles.
    ///
    /// # Panics
    ///
    /// When a plugin failed (see [`Outcome::is_ok`]).
    pub fn book(&self) -> &Book {
        match &self.book {
            Some(book) => book,
            None => panic!("a plugin failed:\n{}", self.report()),
        }
    }

    /// The snippet's chapter after every plugin.
    ///
    /// # Panics
    ///
    /// When a plugin failed, or removed the chapter.
    pub fn chapter(&self) -> &Chapter {
        self.book()
            .chapters
            .iter()
            .find(|c| c.slug == SLUG)
            .unwrap_or_else(|| panic!("no chapter `{SLUG}` is left in the book"))
    }

    /// The code the plugins gave for `format`'s styles, in order.
    ///
    /// # Panics
    ///
    /// When a plugin failed.
    pub fn styles(&self, format: Format) -> String {
        let styles = self.book().styles.iter();
        let mine = styles.filter(|s| s.format == format.name());
        mine.map(|s| s.code.as_str()).collect::<Vec<_>>().join("\n")
    }

    /// The snippet's chapter in the EPUB: its whole XHTML file.
    ///
    /// # Panics
    ///
    /// When a plugin failed or the EPUB could not be made.
    pub fn xhtml(&self) -> &str {
        self.chapter_xhtml(SLUG)
    }

    /// The XHTML file of chapter `slug` in the EPUB (an appendix a
    /// plugin's `finish` added, say).
    ///
    /// # Panics
    ///
    /// When a plugin failed, the EPUB could not be made, or it has no
    /// such chapter.
    pub fn chapter_xhtml(&self, slug: &str) -> &str {
        let chapters = self.try_epub().unwrap_or_else(|d| panic!("{}", report(d)));
        match chapters.iter().find(|(s, _)| s == slug) {
            Some((_, xhtml)) => xhtml,
            None => panic!("the EPUB has no chapter `{slug}`"),
        }
    }

    /// The snippet's chapter in the EPUB, or the diagnostics of the plugins
    /// or of the EPUB writer that refused it.
    pub fn try_xhtml(&self) -> Result<&str, &[Diagnostic]> {
        let chapters = self.try_epub()?;
        let found = chapters.iter().find(|(s, _)| s == SLUG);
        Ok(found.map(|(_, x)| x.as_str()).unwrap_or_default())
    }

    /// The PDF's text, as laid out: every page (the title page, the
    /// contents and the colophon too), lines joined by `\n`, pages by a
    /// form feed (`\f`), as pdftotext does. Words a line breaks with a
    /// hyphen keep it.
    ///
    /// # Panics
    ///
    /// When a plugin failed or the PDF could not be laid out.
    #[cfg(feature = "pdf")]
    pub fn pdf_text(&self) -> String {
        self.pdf_pages().join("\n\u{c}")
    }

    /// The PDF's text, one string per page.
    ///
    /// # Panics
    ///
    /// As [`Outcome::pdf_text`].
    #[cfg(feature = "pdf")]
    pub fn pdf_pages(&self) -> &[String] {
        self.try_pdf_pages()
            .unwrap_or_else(|d| panic!("{}", report(d)))
    }

    /// The PDF's text per page, or the diagnostics of the plugins or of the
    /// layout that refused it (a plugin's Typst style that does not
    /// compile, say).
    #[cfg(feature = "pdf")]
    pub fn try_pdf_pages(&self) -> Result<&[String], &[Diagnostic]> {
        let Some(book) = &self.book else {
            return Err(&self.diagnostics);
        };
        let pdf = self.pdf.get_or_init(|| {
            with_context(book, |ctx| {
                stoa_pdf::page_texts(ctx).map(|(pages, _)| pages)
            })
        });
        pdf.as_deref().map_err(Vec::as_slice)
    }

    fn try_epub(&self) -> Result<&[(String, String)], &[Diagnostic]> {
        let Some(book) = &self.book else {
            return Err(&self.diagnostics);
        };
        let epub = self.epub.get_or_init(|| {
            with_context(book, |ctx| {
                let rendered = stoa_epub::EpubRenderer.render(ctx)?;
                let stoa_render::Output::File(body) = rendered.output else {
                    return Err(vec![Diagnostic::error("the EPUB writer made no file")]);
                };
                let bytes = body
                    .to_bytes()
                    .map_err(|e| vec![Diagnostic::error(format!("cannot write the EPUB: {e}"))])?;
                chapters(&bytes, book)
            })
        });
        epub.as_deref().map_err(Vec::as_slice)
    }
}

/// Calls `f` with the render context of `book`, as the build makes it for
/// one edition: notes planned and ids indexed once, the classic theme.
fn with_context<T>(book: &Book, f: impl FnOnce(&RenderContext) -> T) -> T {
    let notes = NotesPlan::of(book);
    let ids = IdIndex::of(book);
    let layout = stoa_render::Layout::empty();
    // The classic theme is compiled into stoa-theme: it is always there.
    let theme = Theme::builtin("classic").unwrap_or_else(|| Theme::folder("classic", "."));
    let ctx = RenderContext::new(book, &notes, &ids, &theme, &[], layout);
    f(&ctx)
}

/// Each chapter's XHTML file, read back from the EPUB's bytes.
fn chapters(epub: &[u8], book: &Book) -> Epub {
    use std::io::Read;
    let unreadable = |e: &dyn std::fmt::Display| vec![Diagnostic::error(format!("the EPUB: {e}"))];
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(epub)).map_err(|e| unreadable(&e))?;
    let mut out = Vec::new();
    for chapter in &book.chapters {
        let name = format!("OEBPS/{}.xhtml", chapter.slug);
        let mut file = zip.by_name(&name).map_err(|e| unreadable(&e))?;
        let mut xhtml = String::new();
        file.read_to_string(&mut xhtml)
            .map_err(|e| unreadable(&e))?;
        out.push((chapter.slug.clone(), xhtml));
    }
    Ok(out)
}

fn report(diagnostics: &[Diagnostic]) -> String {
    let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_sdk::{
        Block, Context, Inline, Plugin, PluginError, Styles, Transform, rewrite_text, span,
    };

    /// Wraps "stoa" in a span, warns once, styles the span in each format.
    #[derive(Default)]
    struct Mark;

    impl Plugin for Mark {
        const NAME: &'static str = "mark";
        const VERSION: &'static str = "0.0.1";
    }

    impl Transform for Mark {
        fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
            if ctx.config()["fail"].as_bool() == Some(true) {
                return Err(PluginError::new("told to fail").with_hint("do not"));
            }
            ctx.warn(format!("marked in {}", ctx.lang()));
            rewrite_text(&mut chapter.blocks, &mut |text| {
                let (before, after) = text.split_once("stoa")?;
                Some(vec![
                    Inline::text(before),
                    span("mark", vec![Inline::text("stoa")]),
                    Inline::text(after),
                ])
            });
            Ok(())
        }
    }

    impl Styles for Mark {
        fn styles(&self, format: Format, _: &Context) -> String {
            match format {
                Format::Pdf => String::new(),
                _ => ".mark { font-weight: bold; }".to_string(),
            }
        }
    }

    #[test]
    fn a_plugin_runs_on_a_snippet_and_both_formats_show_it() {
        let out = Kit::new(stoa_sdk::builtin_plugin!(Mark))
            .lang("pt-BR")
            .run("The *stoa* was a porch.\n");
        assert_eq!(out.diagnostics().len(), 1, "{}", out.report());
        let warning = out.diagnostics()[0].to_string();
        assert!(
            warning.contains("plugin `mark`: marked in pt-BR"),
            "{warning}"
        );
        assert!(
            out.xhtml().contains(r#"<span class="mark">stoa</span>"#),
            "{}",
            out.xhtml()
        );
        assert!(out.xhtml().contains(r#"lang="pt-BR""#));
        assert!(out.styles(Format::Epub).contains(".mark"));
        assert_eq!(out.styles(Format::Pdf), "");
        #[cfg(feature = "pdf")]
        {
            let text = out.pdf_text();
            assert!(text.contains("The stoa was a porch."), "{text}");
            // The locale's words: the contents page in Portuguese.
            assert!(text.contains("Sumário"), "{text}");
        }
    }

    #[test]
    fn a_failing_plugin_gives_its_error_and_no_output() {
        let out = run(stoa_sdk::builtin_plugin!(Mark), "fail = true", "stoa");
        assert!(!out.is_ok());
        let errors = out.errors();
        assert_eq!(errors.len(), 1, "{}", out.report());
        assert!(errors[0].message.contains("told to fail"), "{errors:?}");
        assert_eq!(errors[0].file.as_deref(), Some(SOURCE));
        assert!(out.try_xhtml().is_err());
        #[cfg(feature = "pdf")]
        assert!(out.try_pdf_pages().is_err());
    }

    #[test]
    fn parser_diagnostics_name_the_snippets_lines() {
        let out = Kit::new(stoa_sdk::builtin_plugin!(Mark)).run("one\n\ntwo\u{1}\n");
        let d = out
            .diagnostics()
            .iter()
            .find(|d| d.message.contains("U+0001"));
        let d = d.unwrap_or_else(|| panic!("{}", out.report()));
        assert_eq!((d.file.as_deref(), d.line), (Some(SOURCE), Some(3)), "{d}");
    }

    /// Checks its settings once, opens the post with two lines of
    /// Markdown, and ends it with raw XHTML as its settings say.
    #[derive(Default)]
    struct Opener;

    impl Plugin for Opener {
        const NAME: &'static str = "opener";
        const VERSION: &'static str = "0.0.1";
    }

    impl stoa_sdk::Configure for Opener {
        fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
            match ctx
                .config()
                .as_object()
                .and_then(|t| t.keys().find(|k| *k != "raw"))
            {
                Some(key) => Err(PluginError::new(format!("unknown key `{key}`"))),
                None => Ok(()),
            }
        }
    }

    impl stoa_sdk::Source for Opener {
        fn source(
            &self,
            markdown: &mut stoa_sdk::Markdown,
            _: &Context,
        ) -> Result<(), PluginError> {
            markdown.insert_lines(0, "Opening.\n\n");
            Ok(())
        }
    }

    impl Transform for Opener {
        fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
            if let Some(raw) = ctx.config()["raw"].as_str() {
                chapter.blocks.push(Block::raw("epub", raw));
            }
            Ok(())
        }
    }

    fn opener() -> Kit {
        Kit::new(stoa_sdk::builtin_plugin!(Opener))
    }

    #[test]
    fn a_settings_error_is_told_once_before_any_post_is_read() {
        let out = opener().settings("mdoe = 1").run("Text.\n");
        assert!(!out.is_ok());
        assert_eq!(out.diagnostics().len(), 1, "{}", out.report());
        assert!(
            out.report().contains("unknown key `mdoe`"),
            "{}",
            out.report()
        );
    }

    #[test]
    fn after_the_source_hook_lines_are_still_the_snippets() {
        let out = opener().run("First.\n\nSecond\u{1}.\n");
        assert!(out.xhtml().contains("<p>Opening.</p>"), "{}", out.xhtml());
        let d = out
            .diagnostics()
            .iter()
            .find(|d| d.message.contains("U+0001"));
        let d = d.unwrap_or_else(|| panic!("{}", out.report()));
        assert_eq!(d.line, Some(3), "{d}");
    }

    #[test]
    fn raw_output_is_checked_and_blamed_on_its_plugin() {
        let out = opener()
            .settings(r#"raw = "<p class='end'>∗</p>""#)
            .run("Text.\n");
        assert!(
            out.xhtml().contains("<p class='end'>∗</p>") || out.xhtml().contains("class=\"end\"")
        );
        #[cfg(feature = "pdf")]
        assert!(!out.pdf_text().contains("<p"), "{}", out.pdf_text());
        let out = opener().settings(r#"raw = "<p>unclosed""#).run("Text.\n");
        assert!(!out.is_ok());
        let errors = out.errors();
        assert!(
            errors[0].message.starts_with("plugin `opener`: "),
            "{errors:?}"
        );
        assert_eq!(errors[0].file.as_deref(), Some(SOURCE));
    }

    #[test]
    fn plugins_run_in_order_each_with_its_settings_on_the_chapter_given() {
        let kit = Kit::new(stoa_sdk::builtin_plugin!(Mark))
            .then(stoa_sdk::builtin_plugin!(Opener))
            .settings(r#"raw = "<hr class='end'/>""#)
            .title("The Porch")
            .chapter(|c| c.date = Some("2024-05-31".to_string()));
        let out = kit.run("A stoa.\n");
        // The settings went to Opener, the plugin added last (its raw
        // block is there), and it ran after Mark.
        assert_eq!(out.errors().len(), 0, "{}", out.report());
        let xhtml = out.xhtml();
        let mark = xhtml.find(r#"<span class="mark">stoa</span>"#);
        let end = xhtml
            .find("<hr class='end'/>")
            .or(xhtml.find(r#"<hr class="end"/>"#));
        assert!(mark.is_some() && end > mark, "{xhtml}");
        assert!(xhtml.contains("The Porch") && xhtml.contains(r#"datetime="2024-05-31""#));
        assert_eq!(out.chapter().title, "The Porch");
    }

    #[test]
    #[should_panic(expected = "the settings are not TOML")]
    fn settings_that_are_not_toml_are_the_tests_mistake() {
        let _ = Kit::new(stoa_sdk::builtin_plugin!(Mark)).settings("word = ");
    }

    /// Has every hook; each warns that it ran.
    #[derive(Default)]
    struct Every;

    impl Plugin for Every {
        const NAME: &'static str = "every";
        const VERSION: &'static str = "0.0.1";
    }

    impl stoa_sdk::Configure for Every {
        fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
            ctx.warn("`configure` ran");
            Ok(())
        }
    }

    impl stoa_sdk::Source for Every {
        fn source(&self, _: &mut stoa_sdk::Markdown, ctx: &Context) -> Result<(), PluginError> {
            ctx.warn("`source` ran");
            Ok(())
        }
    }

    impl Transform for Every {
        fn transform(&self, _: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
            ctx.warn("`transform` ran");
            Ok(())
        }
    }

    impl stoa_sdk::Finish for Every {
        fn finish(&self, _: &mut stoa_sdk::Book, ctx: &Context) -> Result<(), PluginError> {
            ctx.warn("`finish` ran");
            Ok(())
        }
    }

    impl Styles for Every {
        fn styles(&self, _: Format, ctx: &Context) -> String {
            ctx.warn("`styles` ran");
            String::new()
        }
    }

    /// The committed WebAssembly build of the C example.
    fn reading_time_wasm() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../plugins/reading-time-c/stoa_plugin_reading_time_c.wasm")
    }

    #[test]
    fn a_wasm_plugin_runs_in_the_kit() {
        let kit = Kit::wasm(reading_time_wasm())
            .unwrap()
            .settings("words-per-minute = 50");
        let out = kit.run(&"word ".repeat(120));
        assert!(out.is_ok(), "{}", out.report());
        assert!(out.xhtml().contains("3 min read"), "{}", out.xhtml());
        let out = Kit::wasm(reading_time_wasm())
            .unwrap()
            .settings("words-per-minute = 5")
            .run("One.");
        assert_eq!(out.errors().len(), 1, "{}", out.report());
        let limits =
            stoa_plugin_host::WasmLimits::for_time_limit(std::time::Duration::from_nanos(1));
        let out = Kit::wasm(reading_time_wasm())
            .unwrap()
            .wasm_limits(limits)
            .run("One.");
        assert!(
            out.report()
                .contains("ran out of its budget in post `snippet`"),
            "{}",
            out.report()
        );
        let missing = Kit::wasm("no-such.wasm").err().map(|d| d.to_string());
        assert!(missing.unwrap_or_default().contains("no-such.wasm"));
    }

    #[test]
    fn the_kit_runs_every_hook_of_the_table_in_its_order() {
        use stoa_sdk::hook::Hook;
        let plugin = stoa_sdk::builtin_plugin!(Every);
        // A hook added to the table and not to `Every` is named here.
        assert_eq!(plugin.hooks().names(), Hook::ALL.map(Hook::name));
        let out = Kit::new(plugin).run("Text.\n");
        let mut ran: Vec<String> = out
            .diagnostics()
            .iter()
            .map(|d| d.message.clone())
            .collect();
        // `styles` runs once per format.
        ran.dedup();
        let expected = Hook::ALL.map(|hook| format!("plugin `every`: `{hook}` ran"));
        assert_eq!(ran, expected, "{}", out.report());
    }
}
