//! The `translation-of` key of a post's front matter: which language the
//! post translates and which version of that source it matches.
//!
//! The source is the post's file in the language named by `lang`, in the
//! same folder: `translation-of = { lang = "pt-BR", … }` in `en.md` says
//! that `en.md` translates `pt-BR.md`. A post without the key is an
//! original. The fingerprint is never written by hand: `stoa translations
//! mark` computes it (crate `stoa-translate`); here it is only checked for
//! its shape, so that a typo is an error instead of a stale report.

use crate::source::SourceFile;
use serde::Deserialize;
use std::path::Path;
use stoa_doc::Diagnostic;

/// The key's name in the front matter.
pub const TRANSLATION_OF: &str = "translation-of";

/// Hex digits of a fingerprint: 64 bits, short enough to read, long
/// enough that two versions of a post never share one by chance.
pub const FINGERPRINT_LEN: usize = 16;

/// Hex digits per paragraph in `paragraphs`.
pub const PARAGRAPH_DIGEST_LEN: usize = 4;

/// A checked `translation-of` key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslationOf {
    /// The language of the source, e.g. `pt-BR`: the file `pt-BR.md` beside the post.
    pub lang: String,
    /// The fingerprint of the source's normalised text when the
    /// translation was last brought up to date.
    pub fingerprint: String,
    /// One short digest per paragraph of the source at that time, so that a
    /// stale report can say which paragraphs changed; empty when unknown.
    pub paragraphs: String,
    /// The line of the key in the translation's file.
    pub line: usize,
}

/// The key as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTranslationOf {
    lang: String,
    fingerprint: String,
    #[serde(default)]
    paragraphs: String,
}

/// The 1-based line of the root key `key` in the front matter at `front`,
/// or the front matter's first line.
pub(crate) fn key_line(file: &SourceFile, front: &std::ops::Range<usize>, key: &str) -> usize {
    let text = &file.text[front.clone()];
    let mut offset = front.start;
    for line in text.split_inclusive('\n') {
        let rest = line.trim_start();
        if let Some(after) = rest.strip_prefix(key)
            && (after.trim_start().starts_with('=') || after.starts_with(':'))
        {
            return crate::source::line_col(&file.text, offset).0;
        }
        offset += line.len();
    }
    crate::source::line_col(&file.text, front.start).0
}

/// Checks the key of the post at `path` (whose own language is its file
/// name): a known language other than the post's own, whose file exists
/// beside it, and a fingerprint of the shape stoa writes.
pub(crate) fn check(
    file: &SourceFile,
    front: &std::ops::Range<usize>,
    raw: RawTranslationOf,
) -> Result<TranslationOf, Diagnostic> {
    let line = key_line(file, front, TRANSLATION_OF);
    let at = |message: String| {
        Diagnostic::error(message)
            .in_file(&file.display)
            .at(line, 1)
    };
    let own = file
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let slug = file
        .path
        .parent()
        .and_then(Path::file_name)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mark = format!("after updating the translation, run `stoa translations mark {slug} {own}`");
    if let Err(why) = crate::Language::parse(&raw.lang) {
        return Err(at(format!("`{TRANSLATION_OF}`: {why}"))
            .with_hint("name the language of the source, e.g. lang = \"pt-BR\""));
    }
    if raw.lang == own {
        return Err(at(format!(
            "`{TRANSLATION_OF}` names the post's own language `{own}`"
        ))
        .with_hint("name the language this post was translated from, or remove the key"));
    }
    let source = file.path.with_file_name(format!("{}.md", raw.lang));
    if !source.is_file() {
        return Err(at(format!(
            "`{TRANSLATION_OF}` names `{}`, but {} does not exist",
            raw.lang,
            source.display()
        ))
        .with_hint("name a language the post is written in, or remove the key"));
    }
    let hex = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    };
    if raw.fingerprint.len() != FINGERPRINT_LEN || !hex(&raw.fingerprint) {
        return Err(at(format!(
            "`{TRANSLATION_OF}`: the fingerprint `{}` is not one stoa wrote ({FINGERPRINT_LEN} hex digits)",
            raw.fingerprint
        ))
        .with_hint(mark));
    }
    if !raw.paragraphs.len().is_multiple_of(PARAGRAPH_DIGEST_LEN) || !hex(&raw.paragraphs) {
        return Err(at(format!(
            "`{TRANSLATION_OF}`: `paragraphs` is not a list stoa wrote"
        ))
        .with_hint(mark));
    }
    Ok(TranslationOf {
        lang: raw.lang,
        fingerprint: raw.fingerprint,
        paragraphs: raw.paragraphs,
        line,
    })
}
