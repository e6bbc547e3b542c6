//! Running the plugins of a book: transform every chapter, finish the book,
//! collect the styles; every failure becomes a diagnostic, never a panic.

use crate::LoadedPlugin;
use crate::isolate::{self, BAD_BUFFER, Session};
use crate::load::Backend;
use crate::wasm::{WasmFailure, WasmLimits};
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use stoa_sdk::abi::{STATUS_BAD_INPUT, STATUS_ERROR, STATUS_OK, STATUS_PANIC};
use stoa_sdk::hook::Hook;
use stoa_sdk::stoa_doc::compat;
use stoa_sdk::wire::{self, FailureOutput};
use stoa_sdk::{Book, Chapter, Diagnostic, Labels, PluginDiagnostic, Severity, Style, TREE_MINOR};

/// One plugin to run on a book, with its `[plugins.<name>]` table. Made
/// with [`PluginRun::new`]: a field may be added.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PluginRun {
    /// The plugin, from [`crate::load`].
    pub plugin: Arc<LoadedPlugin>,
    /// Its table from book.toml as JSON; an empty object when there is none.
    pub config: Value,
    /// The budget of each call of a WebAssembly plugin (from the table's
    /// `time-limit`); unused by the others.
    pub wasm_limits: WasmLimits,
}

impl PluginRun {
    /// Runs `plugin` with `config`, its table as JSON.
    pub fn new(plugin: Arc<LoadedPlugin>, config: Value) -> PluginRun {
        PluginRun {
            plugin,
            config,
            wasm_limits: WasmLimits::default(),
        }
    }

    /// The same, a WebAssembly plugin's calls under `limits`.
    pub fn with_wasm_limits(mut self, limits: WasmLimits) -> PluginRun {
        self.wasm_limits = limits;
        self
    }
}

/// Runs `plugins` on `book`, in order: [`PluginSession::configure`], then
/// [`PluginSession::apply`]. (The `source` hook runs on Markdown, before
/// there is a book: a driver that parses posts calls
/// [`PluginSession::source`] in between.)
///
/// Returns the book and the warnings; or, when a plugin fails in any way
/// (an error it reports, a panic, malformed JSON, a tree that does not
/// read), every diagnostic so far, the errors naming the plugin and its
/// file. Plugins after a failed one are not run.
pub fn apply(
    plugins: &[PluginRun],
    book: Book,
) -> Result<(Book, Vec<Diagnostic>), Vec<Diagnostic>> {
    let session = PluginSession::new(plugins, &book.lang, &book.id, &book.labels);
    let mut warnings = session.configure()?;
    let (book, more) = session.apply(book)?;
    warnings.extend(more);
    Ok((book, warnings))
}

/// The plugins of one edition (one book in one language), called hook by
/// hook in the order stoa needs: [`configure`](Self::configure) once before
/// anything is read, [`source`](Self::source) on each post's Markdown
/// before it is parsed, then [`apply`](Self::apply) on the parsed book. An
/// isolated plugin keeps one child process for the whole session.
pub struct PluginSession<'a> {
    steps: Vec<Step<'a>>,
    lang: String,
    book_id: String,
    labels: Labels,
}

/// A post's Markdown after every `source` hook.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rewritten {
    /// The Markdown to parse.
    pub markdown: String,
    /// For each of its lines, the 1-based line of the author's Markdown it
    /// comes from, or `None` for a line a plugin added.
    pub line_map: Vec<Option<usize>>,
    /// What the plugins warned about.
    pub warnings: Vec<Diagnostic>,
}

impl<'a> PluginSession<'a> {
    /// A session for `plugins` (in book.toml's order) on the edition of
    /// book `book_id` in `lang`, whose words are `labels`.
    pub fn new(plugins: &'a [PluginRun], lang: &str, book_id: &str, labels: &Labels) -> Self {
        PluginSession {
            steps: plugins
                .iter()
                .map(|run| Step {
                    run,
                    child: Mutex::new(Child::NotStarted),
                })
                .collect(),
            lang: lang.to_string(),
            book_id: book_id.to_string(),
            labels: labels.clone(),
        }
    }

    /// Calls every plugin's `configure` hook (those that have one) with its
    /// settings. The warnings; or every diagnostic, errors included, when a
    /// plugin found its settings wrong. Every plugin is asked, so that one
    /// run reports the mistakes of every table. The diagnostics name no
    /// file: they are about book.toml, whose lines the caller knows.
    pub fn configure(&self) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        let mut out = Vec::new();
        let mut ok = true;
        for step in &self.steps {
            ok &= step.configure(self, &mut out);
        }
        if ok { Ok(out) } else { Err(out) }
    }

    /// True when a plugin has a `source` hook, so that posts must go
    /// through [`Self::source`] before they are parsed.
    pub fn has_source_hooks(&self) -> bool {
        self.steps.iter().any(|s| s.has(Hook::Source))
    }

    /// Passes one post's Markdown (after its front matter) through every
    /// plugin's `source` hook, in order; the result maps each line back to
    /// the author's. `file` names the post in messages.
    pub fn source(
        &self,
        slug: &str,
        file: Option<&str>,
        markdown: &str,
    ) -> Result<Rewritten, Vec<Diagnostic>> {
        let lines = stoa_sdk::Markdown::new(markdown).len();
        let mut rewritten = Rewritten {
            markdown: markdown.to_string(),
            line_map: (1..=lines).map(Some).collect(),
            warnings: Vec::new(),
        };
        let mut errors = Vec::new();
        for step in &self.steps {
            if !step.has(Hook::Source) {
                continue;
            }
            let diagnostics = step.source(self, slug, file, &mut rewritten);
            if !step.report(diagnostics, &mut errors) {
                return Err(errors);
            }
        }
        rewritten.warnings = errors;
        Ok(rewritten)
    }

    /// Runs `transform` on every chapter (in parallel, on the current rayon
    /// pool), then `finish` on the book, then `styles` for every format the
    /// plugin knows (EPUB, PDF, and HTML from tree 1.1 on), appended to
    /// `book.styles`; plugin by plugin.
    ///
    /// A plugin built against an older minor tree version gets each chapter
    /// and book lowered to that minor ([`compat`]) and its answer raised
    /// back, so that nothing it cannot read is lost on the way.
    pub fn apply(self, book: Book) -> Result<(Book, Vec<Diagnostic>), Vec<Diagnostic>> {
        self.apply_checked(book, |_, _| Vec::new())
    }

    /// [`Self::apply`], with `check` called on the book after each
    /// plugin's turn: its diagnostics join the plugin's, and an error among
    /// them stops there, as a plugin's own would (the driver checks a
    /// plugin's raw output and added files right after the plugin that
    /// wrote them; `check` may fix the book up, e.g. drop a refused file).
    pub fn apply_checked(
        self,
        mut book: Book,
        mut check: impl FnMut(&LoadedPlugin, &mut Book) -> Vec<Diagnostic>,
    ) -> Result<(Book, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut diagnostics = Vec::new();
        for step in &self.steps {
            let ok = step.transform(&mut book, &mut diagnostics)
                && step.finish(&mut book, &mut diagnostics)
                && step.styles(&mut book, &mut diagnostics)
                && step.report(check(step.plugin(), &mut book), &mut diagnostics);
            if !ok {
                return Err(diagnostics);
            }
        }
        Ok((book, diagnostics))
    }
}

/// One plugin's turn; each hook returns false when it failed.
struct Step<'a> {
    run: &'a PluginRun,
    /// The child process of an isolated plugin, one per book and turn, so
    /// that a crash costs this book only.
    child: Mutex<Child>,
}

/// The state of an isolated plugin's child process.
enum Child {
    /// Started at the first call.
    NotStarted,
    Running(Session),
    /// It died; the reason was reported by the call that saw it.
    Dead,
}

/// Why a hook call gave nothing usable.
enum Failure {
    /// A status other than OK, with the plugin's own diagnostics.
    Status(i32, Vec<PluginDiagnostic>),
    /// The output is not the JSON it should be.
    Output(String),
    /// An isolated plugin's process crashed, exited or overran its time.
    Process(String),
    /// Its process had already died in an earlier call of this turn, which
    /// reported it: nothing more to say.
    AlreadyDead,
    /// A WebAssembly plugin trapped or ran out of its fuel or memory, in
    /// `hook` of the post named, if any.
    Wasm(WasmFailure, Hook, Option<String>),
}

impl Step<'_> {
    fn plugin(&self) -> &LoadedPlugin {
        &self.run.plugin
    }

    /// Whether the plugin has `hook`.
    fn has(&self, hook: Hook) -> bool {
        self.plugin().hooks().has(hook)
    }

    /// The plugin's settings, as every input carries them.
    fn config(&self) -> Cow<'_, Value> {
        Cow::Borrowed(&self.run.config)
    }

    /// Whether the plugin reads an older minor tree than ours, so that what
    /// it is sent must be lowered first.
    fn needs_lowering(&self) -> bool {
        self.plugin().tree_minor() < TREE_MINOR
    }

    /// `chapter` as the plugin can read it: itself, or a lowered copy.
    fn outgoing_chapter<'c>(&self, chapter: &'c Chapter) -> Cow<'c, Chapter> {
        if !self.needs_lowering() {
            return Cow::Borrowed(chapter);
        }
        let mut lowered = chapter.clone();
        compat::lower_chapter(&mut lowered, self.plugin().tree_minor());
        Cow::Owned(lowered)
    }

    /// `book` as the plugin can read it: itself, or a lowered copy.
    fn outgoing_book<'b>(&self, book: &'b Book) -> Cow<'b, Book> {
        if !self.needs_lowering() {
            return Cow::Borrowed(book);
        }
        let mut lowered = book.clone();
        compat::lower_book(&mut lowered, self.plugin().tree_minor());
        Cow::Owned(lowered)
    }

    /// Calls `configure`; false when the settings are wrong.
    fn configure(&self, session: &PluginSession, out: &mut Vec<Diagnostic>) -> bool {
        let hook = Hook::Configure;
        if !self.has(hook) {
            return true;
        }
        let input = wire::ConfigureInput::new(self.config(), &session.lang, &session.book_id)
            .with_labels(Cow::Borrowed(&session.labels));
        let diagnostics = match self.call::<wire::ConfigureOutput>(hook, &input) {
            Ok(output) => self.convert(output.diagnostics, |_| None),
            Err(failure) => self.failed(hook, failure, |_| None),
        };
        self.report(diagnostics, out)
    }

    /// Calls `source` on `post` and composes its line map with the one
    /// so far; the diagnostics, with errors when it failed.
    fn source(
        &self,
        session: &PluginSession,
        slug: &str,
        file: Option<&str>,
        post: &mut Rewritten,
    ) -> Vec<Diagnostic> {
        let hook = Hook::Source;
        let input = wire::SourceInput::new(
            self.config(),
            &session.lang,
            &session.book_id,
            slug,
            &post.markdown,
        )
        .with_labels(Cow::Borrowed(&session.labels))
        .with_file(file.map(Cow::Borrowed));
        let at = |_: Option<&str>| file.map(str::to_string);
        let output =
            wire::with_deep_stack(|| self.call_on::<wire::SourceOutput>(hook, &input, Some(slug)));
        let output = match output {
            Ok(output) => output,
            Err(failure) => return self.failed(hook, failure, at),
        };
        let markdown = output.markdown.into_owned();
        let old = stoa_sdk::Markdown::new(&post.markdown);
        let new = stoa_sdk::Markdown::new(&markdown);
        let map = match output.line_map {
            Some(map) => map,
            None => stoa_sdk::guess_line_map(
                &old.lines().collect::<Vec<_>>(),
                &new.lines().collect::<Vec<_>>(),
            )
            .into_iter()
            .map(|i| i.map(|i| i + 1))
            .collect(),
        };
        let bad = if map.len() != new.len() {
            Some(format!(
                "returned a `line_map` of {} entries for {} lines of Markdown from `source`",
                map.len(),
                new.len()
            ))
        } else {
            map.iter().flatten().find(|&&l| l == 0 || l > old.len()).map(|l| {
                format!(
                    "returned a `line_map` naming line {l} of a Markdown of {} lines from `source`",
                    old.len()
                )
            })
        };
        if let Some(why) = bad {
            let error =
                Diagnostic::error(self.prefixed(&why)).with_hint(self.default_hint(STATUS_PANIC));
            return vec![attach(error, file.map(str::to_string))];
        }
        post.line_map = map
            .into_iter()
            .map(|line| line.and_then(|l| post.line_map.get(l - 1).copied().flatten()))
            .collect();
        post.markdown = markdown;
        self.convert(output.diagnostics, at)
    }

    fn transform(&self, book: &mut Book, out: &mut Vec<Diagnostic>) -> bool {
        let hook = Hook::Transform;
        if !self.has(hook) {
            return true;
        }
        let (lang, id, labels) = (book.lang.as_str(), book.id.as_str(), &book.labels);
        let per_chapter: Vec<Vec<Diagnostic>> = book
            .chapters
            .par_iter_mut()
            .map(|chapter| {
                wire::with_deep_stack(|| self.transform_one(hook, (lang, id, labels), chapter))
            })
            .collect();
        self.report(per_chapter.into_iter().flatten(), out)
    }

    /// Transforms one chapter in place; its diagnostics, with errors when it failed.
    fn transform_one(
        &self,
        hook: Hook,
        (lang, id, labels): (&str, &str, &Labels),
        chapter: &mut Chapter,
    ) -> Vec<Diagnostic> {
        let file = chapter.source.clone();
        if let Some(plugin) = self.in_process() {
            let answer = plugin.transform_in_place(chapter, &self.run.config, (lang, id), labels);
            if let Some((status, reported)) = answer {
                return self.answered(hook, status, reported, |_| file.clone());
            }
        }
        let input =
            wire::TransformInput::new(self.config(), lang, id, self.outgoing_chapter(chapter))
                .with_labels(Cow::Borrowed(labels));
        match self.call_on::<wire::TransformOutput>(hook, &input, Some(&chapter.slug)) {
            Ok(output) => {
                *chapter = output.chapter.into_owned();
                if self.needs_lowering() {
                    compat::raise_chapter(chapter);
                }
                self.convert(output.diagnostics, |_| file.clone())
            }
            Err(failure) => self.failed(hook, failure, |_| file.clone()),
        }
    }

    fn finish(&self, book: &mut Book, out: &mut Vec<Diagnostic>) -> bool {
        let hook = Hook::Finish;
        if !self.has(hook) {
            return true;
        }
        let diagnostics = wire::with_deep_stack(|| self.finish_book(hook, book));
        self.report(diagnostics, out)
    }

    /// Finishes the book in place; its diagnostics, with errors when it failed.
    fn finish_book(&self, hook: Hook, book: &mut Book) -> Vec<Diagnostic> {
        let (labels, print) = (book.labels.clone(), book.print.clone());
        if let Some(plugin) = self.in_process() {
            let lang = book.lang.clone();
            if let Some((status, reported)) = plugin.finish_in_place(book, &self.run.config, &lang)
            {
                if status != STATUS_OK {
                    return self.answered(hook, status, reported, |slug| source_of(book, slug));
                }
                return self.finished(book, (labels, print), reported);
            }
        }
        let input = wire::FinishInput::new(self.config(), &book.lang, self.outgoing_book(book));
        match self.call::<wire::FinishOutput>(hook, &input) {
            Ok(output) => {
                *book = output.book.into_owned();
                self.finished(book, (labels, print), output.diagnostics)
            }
            Err(failure) => self.failed(hook, failure, |slug| source_of(book, slug)),
        }
    }

    /// The book as `finish` left it, with the host's own words and print
    /// settings put back; the plugin's diagnostics and ours.
    fn finished(
        &self,
        book: &mut Book,
        (labels, print): (Labels, stoa_sdk::Print),
        reported: Vec<PluginDiagnostic>,
    ) -> Vec<Diagnostic> {
        keep_labels(&mut book.labels, labels);
        keep_print(&mut book.print, print);
        if self.needs_lowering() {
            compat::raise_book(book);
        }
        let mut d = self.convert(reported, |slug| source_of(book, slug));
        d.extend(self.duplicate_slugs(book));
        d
    }

    /// A built-in plugin reading our own tree: its tree hooks are called on
    /// the tree itself, not on JSON of it (stoa-sdk's `builtin`).
    fn in_process(&self) -> Option<&stoa_sdk::builtin::BuiltinPlugin> {
        match self.plugin().backend() {
            Backend::Builtin(plugin) if !self.needs_lowering() => Some(plugin),
            _ => None,
        }
    }

    /// The diagnostics of a hook called in place, as those of its JSON.
    fn answered(
        &self,
        hook: Hook,
        status: i32,
        reported: Vec<PluginDiagnostic>,
        file: impl Fn(Option<&str>) -> Option<String>,
    ) -> Vec<Diagnostic> {
        match status {
            STATUS_OK => self.convert(reported, file),
            _ => self.failed(hook, Failure::Status(status, reported), file),
        }
    }

    fn styles(&self, book: &mut Book, out: &mut Vec<Diagnostic>) -> bool {
        let hook = Hook::Styles;
        if !self.has(hook) {
            return true;
        }
        let mut diagnostics = Vec::new();
        // A plugin is never asked for a format newer than its tree minor:
        // one built before that format could take it for another.
        for format in compat::formats_known(self.plugin().tree_minor()) {
            let input = wire::StylesInput::new(self.config(), &book.lang, &book.id, format.name())
                .with_labels(Cow::Borrowed(&book.labels));
            match self.call::<wire::StylesOutput>(hook, &input) {
                Ok(output) => {
                    diagnostics.extend(self.convert(output.diagnostics, |_| None));
                    if !output.code.trim().is_empty() {
                        book.styles.push(Style {
                            origin: self.plugin().name().to_string(),
                            format: format.name().to_string(),
                            code: output.code,
                        });
                    }
                }
                Err(failure) => diagnostics.extend(self.failed(hook, failure, |_| None)),
            }
        }
        self.report(diagnostics, out)
    }

    /// Sends `input` to `hook` and reads its answer, whatever the plugin does.
    fn call<T: DeserializeOwned>(&self, hook: Hook, input: &impl Serialize) -> Result<T, Failure> {
        self.call_on(hook, input, None)
    }

    /// [`Self::call`] for a call on post `post` (its slug), which a
    /// WebAssembly plugin's failure names.
    fn call_on<T: DeserializeOwned>(
        &self,
        hook: Hook,
        input: &impl Serialize,
        post: Option<&str>,
    ) -> Result<T, Failure> {
        let input = wire::to_vec(input)
            .map_err(|e| Failure::Output(format!("could not be sent its input: {e}")))?;
        let bad_buffer = |why: &str| Failure::Output(format!("returned {why} from `{hook}`"));
        match self.plugin().backend() {
            Backend::Native(raw) => {
                let Some(function) = raw.hook(hook) else {
                    return Err(Failure::Output(format!("has no `{hook}` hook")));
                };
                // A crash here ends stoa: it names the plugin first.
                crate::crash::arm();
                let (status, output) = raw.call(function, &input);
                let bytes = output.bytes().map_err(bad_buffer)?;
                Self::decode(hook, status, bytes)
            }
            Backend::Builtin(plugin) => {
                let (status, bytes) = plugin.call(hook, &input);
                Self::decode(hook, status, &bytes)
            }
            Backend::Wasm(module) => {
                let (status, bytes) = module
                    .call(hook, &input, &self.run.wasm_limits)
                    .map_err(|e| Failure::Wasm(e, hook, post.map(str::to_string)))?;
                Self::decode(hook, status, &bytes)
            }
            Backend::Isolated(isolation) => {
                let (status, bytes) = self.call_child(isolation, hook, &input)?;
                if status == BAD_BUFFER as i32 {
                    return Err(bad_buffer("a null buffer with a non-zero length"));
                }
                Self::decode(hook, status, &bytes)
            }
        }
    }

    /// Calls `hook` in the plugin's child process, started at the first call.
    fn call_child(
        &self,
        isolation: &isolate::Isolation,
        hook: Hook,
        input: &[u8],
    ) -> Result<(i32, Vec<u8>), Failure> {
        // Calls take turns: the child answers one at a time.
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        if let Child::NotStarted = *child {
            match isolate::start(isolation, self.plugin().path()) {
                Ok((session, _hello)) => *child = Child::Running(session),
                Err(why) => {
                    *child = Child::Dead;
                    return Err(Failure::Process(why));
                }
            }
        }
        let Child::Running(session) = &mut *child else {
            return Err(Failure::AlreadyDead);
        };
        session.call(hook, input).map_err(|why| {
            // Dropping the session reaps the process.
            *child = Child::Dead;
            Failure::Process(why)
        })
    }

    /// A hook's answer: the output read as `T`, or the failure it reports.
    fn decode<T: DeserializeOwned>(hook: Hook, status: i32, bytes: &[u8]) -> Result<T, Failure> {
        if status != STATUS_OK {
            // A failure's body is best effort: unreadable means no details.
            let body: FailureOutput = wire::from_slice(bytes).unwrap_or_default();
            return Err(Failure::Status(status, body.diagnostics));
        }
        wire::from_slice(bytes).map_err(|e| Failure::Output(unreadable(hook, &e)))
    }

    /// Appends `diagnostics` to `out`; false when one of them is an error.
    fn report(
        &self,
        diagnostics: impl IntoIterator<Item = Diagnostic>,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let before = out.len();
        out.extend(diagnostics);
        !out[before..].iter().any(Diagnostic::is_error)
    }

    /// The plugin's own diagnostics, worded for the author.
    fn convert(
        &self,
        diagnostics: Vec<PluginDiagnostic>,
        file: impl Fn(Option<&str>) -> Option<String>,
    ) -> Vec<Diagnostic> {
        diagnostics
            .into_iter()
            .map(|d| {
                let hint = d
                    .hint
                    .clone()
                    .unwrap_or_else(|| self.default_hint(STATUS_ERROR));
                let diagnostic = match d.severity {
                    Severity::Error => Diagnostic::error(self.prefixed(&d.message)).with_hint(hint),
                    Severity::Warning => {
                        let message = format!("plugin `{}`: {}", self.plugin().name(), d.message);
                        let warning = Diagnostic::warning(message);
                        match d.hint {
                            Some(h) => warning.with_hint(h),
                            None => warning,
                        }
                    }
                };
                attach(diagnostic, file(d.chapter.as_deref()))
            })
            .collect()
    }

    /// The errors for a failed call: the plugin's diagnostics when it gave
    /// any error, else one of ours saying what happened.
    fn failed(
        &self,
        hook: Hook,
        failure: Failure,
        file: impl Fn(Option<&str>) -> Option<String>,
    ) -> Vec<Diagnostic> {
        match failure {
            Failure::Output(why) => {
                let d = Diagnostic::error(self.prefixed(&why))
                    .with_hint(self.default_hint(STATUS_PANIC));
                vec![attach(d, file(None))]
            }
            Failure::Process(why) => {
                let why = format!("{why}; the books that use it are not built");
                let d = Diagnostic::error(self.prefixed(&why))
                    .with_hint(self.default_hint(STATUS_PANIC));
                vec![attach(d, file(None))]
            }
            Failure::AlreadyDead => Vec::new(),
            Failure::Wasm(why, hook, post) => {
                let place = match post {
                    Some(slug) => format!("in post `{slug}` (`{hook}`)"),
                    None => format!("in `{hook}`"),
                };
                let name = self.plugin().name();
                let hint = match why {
                    WasmFailure::OutOfFuel(_) => format!(
                        "it loops, or needs more: raise `time-limit` in [plugins.{name}] of \
                         book.toml; or remove the table to build without it"
                    ),
                    _ => self.default_hint(STATUS_PANIC),
                };
                let budget = why.budget().map(|b| format!(" ({b})")).unwrap_or_default();
                let why = format!("{why} {place}{budget}; the books that use it are not built");
                vec![attach(
                    Diagnostic::error(self.prefixed(&why)).with_hint(hint),
                    file(None),
                )]
            }
            Failure::Status(status, reported) => {
                let mut d = self.convert(reported, &file);
                if !d.iter().any(Diagnostic::is_error) {
                    let why = match status {
                        STATUS_ERROR => format!("failed in `{hook}` without saying why"),
                        STATUS_PANIC => format!("crashed in `{hook}` without saying why"),
                        STATUS_BAD_INPUT => format!("could not read its input in `{hook}`"),
                        other => format!("returned unknown status {other} from `{hook}`"),
                    };
                    let error =
                        Diagnostic::error(self.prefixed(&why)).with_hint(self.default_hint(status));
                    d.push(attach(error, file(None)));
                }
                if status == STATUS_PANIC {
                    for e in d.iter_mut().filter(|e| e.is_error()) {
                        e.hint = Some(self.default_hint(STATUS_PANIC));
                    }
                }
                d
            }
        }
    }

    /// Chapters must keep unique slugs: they name files and anchors.
    fn duplicate_slugs(&self, book: &Book) -> Vec<Diagnostic> {
        let mut seen = HashSet::new();
        book.chapters
            .iter()
            .filter(|c| !seen.insert(c.slug.as_str()))
            .map(|c| {
                let why = format!("`finish` returned a second chapter with slug `{}`", c.slug);
                Diagnostic::error(self.prefixed(&why)).with_hint(self.default_hint(STATUS_PANIC))
            })
            .collect()
    }

    /// `plugin `name` (path): message`, so that every error says which
    /// library to look at (or that the plugin is built into stoa).
    fn prefixed(&self, message: &str) -> String {
        let plugin = self.plugin();
        format!(
            "plugin `{}` ({}): {message}",
            plugin.name(),
            plugin.origin()
        )
    }

    fn default_hint(&self, status: i32) -> String {
        let name = self.plugin().name();
        match status {
            STATUS_ERROR => format!(
                "fix what the plugin reports, or its settings in [plugins.{name}] of book.toml"
            ),
            STATUS_BAD_INPUT => "rebuild the plugin against the stoa-sdk of this stoa".to_string(),
            _ => format!(
                "this is a bug in the plugin: report it to its author; \
                 remove [plugins.{name}] from book.toml to build without it"
            ),
        }
    }
}

fn attach(diagnostic: Diagnostic, file: Option<String>) -> Diagnostic {
    match file {
        Some(file) => diagnostic.in_file(file),
        None => diagnostic,
    }
}

/// The file of the chapter with this slug, for a diagnostic of `finish`.
fn source_of(book: &Book, slug: Option<&str>) -> Option<String> {
    let slug = slug?;
    book.chapters
        .iter()
        .find(|c| c.slug == slug)?
        .source
        .clone()
}

fn unreadable(hook: Hook, e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Data => format!("returned a tree stoa cannot read from `{hook}`: {e}"),
        _ => format!("returned malformed JSON from `{hook}`: {e}"),
    }
}

/// The print settings come from book.toml, not from plugins: a plugin
/// built before a setting existed (the cover, the ISBN, the printer's
/// profile, QR codes) returns the book without it, and the book's own
/// stays. The cover alone a plugin may restyle: when it returns one that
/// is not the default, it is kept.
fn keep_print(returned: &mut stoa_sdk::Print, sent: stoa_sdk::Print) {
    let cover = std::mem::take(&mut returned.cover);
    *returned = sent;
    if cover != stoa_sdk::Cover::default() {
        returned.cover = cover;
    }
}

/// A plugin built before a label existed returns the book without it: the
/// host's word stays, so that the plugins after it still read it.
fn keep_labels(returned: &mut Labels, sent: Labels) {
    let Labels {
        glossary,
        characters,
        ..
    } = sent;
    if returned.glossary.is_empty() {
        returned.glossary = glossary;
    }
    if returned.characters.is_empty() {
        returned.characters = characters;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_keeps_the_books_print_settings_and_may_restyle_its_cover() {
        let mut sent = stoa_sdk::Print {
            isbn: Some("978-0-306-40615-7".into()),
            qr_codes: false,
            ..stoa_sdk::Print::default()
        };
        sent.cover.colour = "#224466".into();
        // A plugin built before these settings returns the defaults.
        let mut returned = stoa_sdk::Print::default();
        keep_print(&mut returned, sent.clone());
        assert_eq!(returned, sent);
        // One that restyles the cover keeps its cover, not the rest.
        let mut restyled = stoa_sdk::Print::default();
        restyled.cover.colour = "#880000".into();
        keep_print(&mut restyled, sent.clone());
        assert_eq!(restyled.cover.colour, "#880000");
        assert_eq!(restyled.isbn, sent.isbn);
        assert!(!restyled.qr_codes);
    }
}
