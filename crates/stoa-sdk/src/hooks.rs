//! The safe half of the exported hooks: read the JSON input, call the
//! plugin, write the JSON output, and never let a panic escape.

use crate::abi::{STATUS_BAD_INPUT, STATUS_ERROR, STATUS_OK, STATUS_PANIC};
use crate::wire::{
    self, ConfigureOutput, FailureOutput, FinishOutput, SourceOutput, StylesOutput, TransformOutput,
};
use crate::{
    Book, Chapter, Configure, Context, Finish, Format, Labels, Markdown, PluginDiagnostic,
    PluginError, Source, Styles, TREE_VERSION, Transform,
};
use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A hook's answer: a status code and the JSON to hand back.
pub(crate) type Answer = (i32, Vec<u8>);

/// Runs `hook` and turns a panic into a [`STATUS_PANIC`] answer, so that no
/// unwinding ever reaches the `extern "C"` frame (which would abort stoa).
pub(crate) fn guarded(hook_name: &str, hook: impl FnOnce() -> Answer) -> Answer {
    match catch_unwind(AssertUnwindSafe(hook)) {
        Ok(answer) => answer,
        Err(payload) => {
            let diagnostic = panicked(hook_name, payload.as_ref());
            // Serializing a plain diagnostic cannot panic; if it did, the
            // empty answer still says STATUS_PANIC.
            let body = catch_unwind(|| failure(vec![diagnostic])).unwrap_or_default();
            (STATUS_PANIC, body)
        }
    }
}

/// What the host is told of a panic in `hook_name`.
pub(crate) fn panicked(hook_name: &str, payload: &(dyn std::any::Any + Send)) -> PluginDiagnostic {
    let why = panic_message(payload);
    PluginDiagnostic::error(format!("panicked in `{hook_name}`: {why}"))
        .with_hint("this is a bug in the plugin: report it to its author")
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "a panic without a message"
    }
}

pub(crate) fn transform<P: Transform>(plugin: &P, input: &[u8]) -> Answer {
    let input: wire::TransformInput = match read(input) {
        Ok(input) => input,
        Err(answer) => return answer,
    };
    let mut chapter = input.chapter.into_owned();
    let (config, labels) = (input.config.into_owned(), input.labels.into_owned());
    let ctx = chapter_context(
        P::NAME,
        config,
        (input.lang, input.book_id),
        labels,
        &chapter,
    );
    let result = plugin.transform(&mut chapter, &ctx);
    let output = |diagnostics| TransformOutput::new(Cow::Borrowed(&chapter), diagnostics);
    answer(result, ctx.into_diagnostics(), output)
}

/// What plugin `name`'s `transform` of `chapter` is given, from its JSON
/// input or, for a built-in plugin, from the host's tree itself.
pub(crate) fn chapter_context(
    name: &'static str,
    config: serde_json::Value,
    (lang, book_id): (impl Into<String>, impl Into<String>),
    labels: Labels,
    chapter: &Chapter,
) -> Context {
    Context::new(config, lang, book_id)
        .for_plugin(name)
        .with_labels(labels)
        .for_chapter(chapter.slug.clone())
}

/// What plugin `name`'s `finish` of `book` is given, as [`chapter_context`].
pub(crate) fn book_context(
    name: &'static str,
    config: serde_json::Value,
    lang: impl Into<String>,
    book: &Book,
) -> Context {
    Context::new(config, lang, book.id.clone())
        .for_plugin(name)
        .with_labels(book.labels.clone())
}

pub(crate) fn finish<P: Finish>(plugin: &P, input: &[u8]) -> Answer {
    let input: wire::FinishInput = match read(input) {
        Ok(input) => input,
        Err(answer) => return answer,
    };
    let mut book = input.book.into_owned();
    let ctx = book_context(P::NAME, input.config.into_owned(), input.lang, &book);
    let result = plugin.finish(&mut book, &ctx);
    let output = |diagnostics| FinishOutput::new(Cow::Borrowed(&book), diagnostics);
    answer(result, ctx.into_diagnostics(), output)
}

pub(crate) fn styles<P: Styles>(plugin: &P, input: &[u8]) -> Answer {
    let input: wire::StylesInput = match read(input) {
        Ok(input) => input,
        Err(answer) => return answer,
    };
    // A format newer than this SDK: the plugin has no style for it, which
    // is not an error (a new format must not break every plugin built before).
    let Some(format) = Format::from_name(&input.format) else {
        return answer(Ok(()), Vec::new(), |diagnostics| {
            StylesOutput::new(String::new(), diagnostics)
        });
    };
    let ctx = Context::new(input.config.into_owned(), input.lang, input.book_id)
        .for_plugin(P::NAME)
        .with_labels(input.labels.into_owned());
    let code = plugin.styles(format, &ctx);
    let output = |diagnostics| StylesOutput::new(code, diagnostics);
    answer(Ok(()), ctx.into_diagnostics(), output)
}

pub(crate) fn configure<P: Configure>(plugin: &P, input: &[u8]) -> Answer {
    let input: wire::ConfigureInput = match read(input) {
        Ok(input) => input,
        Err(answer) => return answer,
    };
    let ctx = Context::new(input.config.into_owned(), input.lang, input.book_id)
        .for_plugin(P::NAME)
        .with_labels(input.labels.into_owned());
    let result = plugin.configure(&ctx);
    answer(result, ctx.into_diagnostics(), ConfigureOutput::new)
}

pub(crate) fn source<P: Source>(plugin: &P, input: &[u8]) -> Answer {
    let input: wire::SourceInput = match read(input) {
        Ok(input) => input,
        Err(answer) => return answer,
    };
    let ctx = Context::new(input.config.into_owned(), input.lang, input.book_id)
        .for_plugin(P::NAME)
        .with_labels(input.labels.into_owned())
        .for_chapter(input.slug.into_owned());
    let mut markdown = Markdown::new(&input.markdown);
    let result = plugin.source(&mut markdown, &ctx);
    let output =
        |diagnostics| SourceOutput::new(markdown.text(), Some(markdown.line_map()), diagnostics);
    answer(result, ctx.into_diagnostics(), output)
}

/// Reads a hook's input, refusing another major tree version. The minor
/// does not matter: the host lowers its tree to this plugin's minor
/// (`stoa_doc::compat`), and refuses to load a plugin of a newer one.
fn read<T: serde::de::DeserializeOwned + HasTreeVersion>(input: &[u8]) -> Result<T, Answer> {
    let input: T = wire::from_slice(input).map_err(|e| {
        let d = PluginDiagnostic::error(format!("could not read stoa's input: {e}"));
        (STATUS_BAD_INPUT, failure(vec![d]))
    })?;
    if input.tree_version() != TREE_VERSION {
        let d = PluginDiagnostic::error(format!(
            "stoa sends tree version {}.x, this plugin reads tree version {TREE_VERSION}.x",
            input.tree_version()
        ))
        .with_hint("rebuild the plugin against the stoa-sdk of this stoa");
        return Err((STATUS_BAD_INPUT, failure(vec![d])));
    }
    Ok(input)
}

/// The answer for a hook's result: its output, or a failure carrying the
/// error after whatever the hook reported.
fn answer<O: serde::Serialize>(
    result: Result<(), PluginError>,
    mut diagnostics: Vec<PluginDiagnostic>,
    output: impl FnOnce(Vec<PluginDiagnostic>) -> O,
) -> Answer {
    match result {
        Ok(()) => match wire::to_vec(&output(diagnostics)) {
            Ok(json) => (STATUS_OK, json),
            Err(e) => {
                let d = PluginDiagnostic::error(format!("could not write the output: {e}"));
                (STATUS_PANIC, failure(vec![d]))
            }
        },
        Err(e) => {
            push_error(&mut diagnostics, &e);
            (STATUS_ERROR, failure(diagnostics))
        }
    }
}

/// A hook's error, after what it reported.
pub(crate) fn push_error(diagnostics: &mut Vec<PluginDiagnostic>, e: &PluginError) {
    let mut d = PluginDiagnostic::error(e.message());
    d.hint = e.hint().map(str::to_string);
    diagnostics.push(d);
}

fn failure(diagnostics: Vec<PluginDiagnostic>) -> Vec<u8> {
    wire::to_vec(&FailureOutput::new(diagnostics)).unwrap_or_default()
}

/// The inputs all carry the host's tree version (its major).
pub(crate) trait HasTreeVersion {
    fn tree_version(&self) -> u32;
}

macro_rules! has_tree_version {
    ($($t:ident),*) => {$(
        impl HasTreeVersion for wire::$t<'_> {
            fn tree_version(&self) -> u32 {
                self.tree_version
            }
        }
    )*};
}
has_tree_version!(
    TransformInput,
    FinishInput,
    StylesInput,
    ConfigureInput,
    SourceInput
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chapter, Format, Plugin};
    use serde_json::json;

    #[derive(Default)]
    struct Boom;

    impl Plugin for Boom {
        const NAME: &'static str = "boom";
        const VERSION: &'static str = "0.0.1";
    }

    impl Transform for Boom {
        fn transform(&self, _: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
            ctx.warn("about to fail");
            match ctx.config()["how"].as_str() {
                Some("panic") => panic!("kaboom"),
                Some("error") => Err(PluginError::new("bad word").with_hint("remove it")),
                _ => Ok(()),
            }
        }
    }

    fn input(how: &str) -> Vec<u8> {
        let chapter = Chapter {
            slug: "a".into(),
            ..Chapter::default()
        };
        serde_json::to_vec(&json!({
            "tree_version": TREE_VERSION, "config": {"how": how}, "lang": "en",
            "book_id": "b", "chapter": chapter,
        }))
        .unwrap()
    }

    fn diagnostics(body: &[u8]) -> Vec<PluginDiagnostic> {
        wire::from_slice::<FailureOutput>(body).unwrap().diagnostics
    }

    #[test]
    fn a_panic_becomes_a_status_with_its_message() {
        let (status, body) = guarded("transform", || transform(&Boom, &input("panic")));
        assert_eq!(status, STATUS_PANIC);
        let d = diagnostics(&body);
        assert!(
            d[0].message.contains("panicked in `transform`: kaboom"),
            "{d:?}"
        );
    }

    #[test]
    fn an_error_keeps_what_was_reported_before() {
        let (status, body) = transform(&Boom, &input("error"));
        assert_eq!(status, STATUS_ERROR);
        let d = diagnostics(&body);
        assert_eq!(d[0].message, "about to fail");
        assert_eq!(d[0].chapter.as_deref(), Some("a"));
        assert_eq!(
            (d[1].message.as_str(), d[1].hint.as_deref()),
            ("bad word", Some("remove it"))
        );
    }

    #[test]
    fn another_tree_version_is_refused() {
        let mut v: serde_json::Value = serde_json::from_slice(&input("ok")).unwrap();
        v["tree_version"] = json!(TREE_VERSION + 1);
        let (status, body) = transform(&Boom, &serde_json::to_vec(&v).unwrap());
        assert_eq!(status, STATUS_BAD_INPUT);
        assert!(diagnostics(&body)[0].message.contains("tree version"));
    }

    #[test]
    fn another_minor_is_read() {
        let mut v: serde_json::Value = serde_json::from_slice(&input("ok")).unwrap();
        v["tree_minor"] = json!(crate::TREE_MINOR + 7);
        let (status, _) = transform(&Boom, &serde_json::to_vec(&v).unwrap());
        assert_eq!(status, STATUS_OK);
    }

    #[derive(Default)]
    struct Styled;

    impl Plugin for Styled {
        const NAME: &'static str = "styled";
        const VERSION: &'static str = "0.0.1";
    }

    impl Styles for Styled {
        fn styles(&self, format: Format, _: &Context) -> String {
            format!("/* {format} */")
        }
    }

    fn styles_for(format: &str) -> (i32, StylesOutput) {
        let input = json!({"tree_version": TREE_VERSION, "config": {}, "lang": "en",
            "book_id": "b", "format": format});
        let (status, body) = styles(&Styled, &serde_json::to_vec(&input).unwrap());
        (status, wire::from_slice(&body).unwrap())
    }

    #[test]
    fn an_unknown_format_gets_no_style_and_no_error() {
        let (status, output) = styles_for("docx");
        assert_eq!(status, STATUS_OK);
        assert_eq!(output.code, "");
        assert!(output.diagnostics.is_empty());
        for format in Format::ALL {
            let (status, output) = styles_for(format.name());
            assert_eq!(status, STATUS_OK);
            assert_eq!(output.code, format!("/* {} */", format.name()));
        }
    }

    #[test]
    fn malformed_input_is_refused() {
        let (status, _) = styles(&Styled, b"{\"tree_version\":");
        assert_eq!(status, STATUS_BAD_INPUT);
        let ok = json!({"tree_version": TREE_VERSION, "config": {}, "lang": "en",
            "book_id": "b", "format": Format::Pdf});
        let (status, body) = styles(&Styled, &serde_json::to_vec(&ok).unwrap());
        assert_eq!(status, STATUS_OK);
        assert_eq!(
            wire::from_slice::<StylesOutput>(&body).unwrap().code,
            "/* pdf */"
        );
    }

    #[derive(Default)]
    struct Epigraph;

    impl Plugin for Epigraph {
        const NAME: &'static str = "epigraph";
        const VERSION: &'static str = "0.0.1";
    }

    impl crate::Source for Epigraph {
        fn source(&self, md: &mut Markdown, ctx: &Context) -> Result<(), PluginError> {
            assert_eq!(ctx.chapter(), Some("a"));
            md.insert_lines(0, "> Words.\n");
            Ok(())
        }
    }

    #[test]
    fn source_returns_the_markdown_and_its_line_map() {
        let input = json!({"tree_version": TREE_VERSION, "config": {}, "lang": "en",
            "book_id": "b", "slug": "a", "markdown": "One.\n\nTwo.\n"});
        let (status, body) = source(&Epigraph, &serde_json::to_vec(&input).unwrap());
        assert_eq!(status, STATUS_OK);
        let out: SourceOutput = wire::from_slice(&body).unwrap();
        assert_eq!(out.markdown, "> Words.\nOne.\n\nTwo.\n");
        assert_eq!(out.line_map, Some(vec![None, Some(1), Some(2), Some(3)]));
    }
}
