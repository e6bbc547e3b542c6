//! Index terms in Markdown: an attribute span, as pandoc writes one.
//!
//! `[Flink]{.index}` indexes the bracketed words under themselves;
//! `[keyed state]{.index key="state!keyed"}` under a heading and its
//! sub-entry (`!` between levels, as LaTeX's makeindex writes them);
//! `[]{.index key="Flink" see-also="stream processing"}` marks a place
//! without words; `[]{.index key="windows" range="section"}` indexes the
//! whole section that holds it, as a page range. Values may be quoted (`"…"`) or bare. A bracket that is
//! not followed by `{.index …}` stays the text it was, so posts without
//! index terms parse exactly as before.

use stoa_doc::{Attrs, Inline, Role, index};

/// The attribute names an index term takes, besides its class.
const NAMES: [&str; 4] = [index::KEY, index::SEE, index::SEE_ALSO, index::RANGE];

/// A `{.index …}` block read from the source.
pub(crate) struct Marked {
    /// Its attributes, checked.
    pub(crate) attrs: Attrs,
    /// The byte just after its `}`.
    pub(crate) end: usize,
}

/// A mistake in an index term's attributes: where (byte offset) and what.
pub(crate) struct Mistake {
    pub(crate) at: usize,
    pub(crate) message: String,
    pub(crate) hint: String,
}

/// The `{.index …}` block that starts at byte `at` of `body`, if one does
/// (a `{` whose first class is `.index`); `None` for any other text.
pub(crate) fn read(body: &str, at: usize) -> Option<Result<Marked, Mistake>> {
    let rest = body.get(at..)?;
    let inner = rest.strip_prefix('{')?.trim_start_matches([' ', '\t']);
    let after = inner.strip_prefix(".index")?;
    if !after.starts_with([' ', '\t', '\n', '}']) {
        return None;
    }
    Some(parse(body, at))
}

/// Reads the attributes of the block at `at`, which [`read`] found.
fn parse(body: &str, at: usize) -> Result<Marked, Mistake> {
    let mut attrs = Attrs::new();
    let bytes = body.as_bytes();
    let mut i = at + 1;
    let mistake = |at: usize, message: String, hint: &str| Mistake {
        at,
        message,
        hint: hint.to_string(),
    };
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        match bytes.get(i) {
            None => {
                return Err(mistake(
                    at,
                    "this index term's `{` is never closed".into(),
                    "end the attributes with `}`, e.g. `[Flink]{.index}`",
                ));
            }
            Some(b'}') => break,
            _ => {}
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'}' | b'=')
        {
            i += 1;
        }
        let name = &body[start..i];
        if name == ".index" {
            continue;
        }
        if !NAMES.contains(&name) {
            return Err(mistake(
                start,
                format!("`{name}` is not an attribute of an index term"),
                "an index term takes `key`, `see`, `see-also` and `range`, e.g. `[keyed state]{.index key=\"state!keyed\"}`",
            ));
        }
        if bytes.get(i) != Some(&b'=') {
            return Err(mistake(
                start,
                format!("`{name}` has no value"),
                "write it as `name=\"value\"`",
            ));
        }
        i += 1;
        let value = if bytes.get(i) == Some(&b'"') {
            let open = i;
            let close = body[i + 1..].find('"').map(|c| i + 1 + c);
            let Some(close) = close else {
                return Err(mistake(
                    open,
                    format!("the value of `{name}` has no closing `\"`"),
                    "close the quotes before the `}`",
                ));
            };
            i = close + 1;
            &body[open + 1..close]
        } else {
            let open = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'}' {
                i += 1;
            }
            &body[open..i]
        };
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        if value.is_empty() || value.split('!').any(|level| level.trim().is_empty()) {
            return Err(mistake(
                start,
                format!("the value of `{name}` is empty or has an empty level"),
                "write the words of the entry, sub-entries after `!`: `state!keyed`",
            ));
        }
        if name == index::RANGE && value != index::RANGE_SECTION {
            return Err(mistake(
                start,
                format!("`range` is `{value}`, but an index range can only be `section`"),
                "write `range=\"section\"` to index the mark's whole section, or mark each place",
            ));
        }
        if attrs.insert(name.to_string(), value).is_some() {
            return Err(mistake(
                start,
                format!("`{name}` is given twice"),
                "keep one",
            ));
        }
    }
    Ok(Marked { attrs, end: i + 1 })
}

/// The span of an index term around `content`, or the reason it cannot
/// be one (a mark without words and without a key).
pub(crate) fn span(attrs: Attrs, content: Vec<Inline>) -> Result<Inline, &'static str> {
    let words = stoa_doc::inlines_text(&content);
    if words.trim().is_empty() && !attrs.contains_key(index::KEY) {
        return Err("an index term without words needs a `key`");
    }
    Ok(Inline::Span {
        role: Some(Role::Other(index::MARK_ROLE.into())),
        class: index::MARK_ROLE.into(),
        attrs,
        content,
    })
}

/// The Markdown `text` with its index marks taken out and their words
/// kept: `[keyed state]{.index key="state!keyed"}` reads `keyed state`,
/// `[]{.index key="windows" range="section"}` nothing. For whoever compares
/// what a post says (a translation's fingerprint, the corpus check), to
/// whom where the index points is not the text. A bracket or attribute
/// block that is not a whole, valid mark stays as written.
pub fn strip_index_marks(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("]{") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(close) = text[from..].find("]{").map(|i| from + i) {
        from = close + 1;
        let Some(Ok(marked)) = read(text, close + 1) else {
            continue;
        };
        let Some(open) = opening_bracket(&text[copied..close]).map(|o| copied + o) else {
            continue;
        };
        out.push_str(&text[copied..open]);
        out.push_str(&text[open + 1..close]);
        copied = marked.end;
        from = marked.end;
    }
    out.push_str(&text[copied..]);
    out.into()
}

/// Where the `[` that a `]` just after `before` closes is in `before`,
/// nested brackets skipped.
fn opening_bracket(before: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in before.bytes().enumerate().rev() {
        match b {
            b']' => depth += 1,
            b'[' if depth == 0 => return Some(i),
            b'[' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(src: &str) -> Result<Vec<(String, String)>, String> {
        match read(src, 0) {
            None => Err("none".into()),
            Some(Err(m)) => Err(format!("{}: {}", m.at, m.message)),
            Some(Ok(m)) => {
                assert_eq!(&src[m.end - 1..m.end], "}");
                Ok(m.attrs.into_iter().collect())
            }
        }
    }

    #[test]
    fn stripping_marks_keeps_their_words() {
        let cases = [
            ("no marks here", "no marks here"),
            ("[Flink]{.index} runs", "Flink runs"),
            (
                "a [keyed state]{.index key=\"state!keyed\"} and [the [Flink] docs]{.index}",
                "a keyed state and the [Flink] docs",
            ),
            ("[]{.index key=\"windows\" range=\"section\"}", ""),
            (
                "a [link](u){.class} [b]{.index kee=x} [c]{.index",
                "a [link](u){.class} [b]{.index kee=x} [c]{.index",
            ),
            ("x]{.index} y", "x]{.index} y"),
        ];
        for (text, stripped) in cases {
            assert_eq!(strip_index_marks(text), stripped, "{text}");
        }
    }

    #[test]
    fn attributes_are_read_quoted_or_bare() {
        assert_eq!(attrs("{.index}"), Ok(vec![]));
        assert_eq!(
            attrs("{.index key=\"state!keyed\" see-also=Flink}"),
            Ok(vec![
                ("key".into(), "state!keyed".into()),
                ("see-also".into(), "Flink".into())
            ])
        );
        assert_eq!(attrs("{.indexer}"), Err("none".into()));
        assert_eq!(attrs("{.smallcaps}"), Err("none".into()));
    }

    #[test]
    fn mistakes_say_where() {
        assert_eq!(
            attrs("{.index kee=x}"),
            Err("8: `kee` is not an attribute of an index term".into())
        );
        assert_eq!(
            attrs("{.index key=\"a}"),
            Err("12: the value of `key` has no closing `\"`".into())
        );
        assert_eq!(
            attrs("{.index key=\"a!!b\"}"),
            Err("8: the value of `key` is empty or has an empty level".into())
        );
        assert_eq!(
            attrs("{.index key=a range=chapter}"),
            Err("14: `range` is `chapter`, but an index range can only be `section`".into())
        );
        assert_eq!(
            attrs("{.index key=a range=section}"),
            Ok(vec![
                ("key".into(), "a".into()),
                ("range".into(), "section".into())
            ])
        );
        assert!(attrs("{.index key=a").is_err());
        assert!(attrs("{.index key}").is_err());
    }
}
