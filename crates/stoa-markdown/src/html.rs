//! Raw HTML in a post. stoa never passes it through: a line break becomes a
//! line break, a comment disappears, and everything else is printed as the
//! text the author typed (so `List<String>` reads as written).

/// What one piece of raw HTML becomes.
#[derive(Debug, PartialEq, Eq)]
pub enum RawHtml {
    /// `<br>`, `<br/>`, `<br />`.
    LineBreak,
    /// `<!-- ... -->`: dropped.
    Comment,
    /// `<span lang="la">`: what follows, up to `</span>`, is in that
    /// language (the only attribute stoa reads from raw HTML).
    LangOpen(String),
    /// `</span>`: closes a [`RawHtml::LangOpen`], else shown literally.
    SpanClose,
    /// Anything else: shown literally.
    Text(String),
}

/// The language of `<span lang="…">` (single or double quotes): a BCP 47
/// tag whose primary subtag is 2 or 3 letters, e.g. `la`, `grc`, `en-GB`.
fn lang_span(trimmed: &str) -> Option<String> {
    let rest = trimmed.strip_prefix('<')?.strip_suffix('>')?.trim();
    let (name, attrs) = rest.split_once(char::is_whitespace)?;
    if !name.eq_ignore_ascii_case("span") {
        return None;
    }
    let (key, value) = attrs.trim().split_once('=')?;
    if !key.trim().eq_ignore_ascii_case("lang") {
        return None;
    }
    let value = value.trim();
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let tag = value.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut subtags = tag.split('-');
    let primary = subtags.next()?;
    let primary_ok =
        (2..=3).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
    let rest_ok =
        subtags.all(|s| (1..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric()));
    (primary_ok && rest_ok).then(|| tag.to_string())
}

/// Classifies one inline HTML fragment or HTML block.
pub fn classify(html: &str) -> RawHtml {
    let trimmed = html.trim();
    if trimmed.starts_with("<!--") && trimmed.ends_with("-->") {
        return RawHtml::Comment;
    }
    let lower = trimmed.to_ascii_lowercase();
    let inner = lower
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim_end_matches('/')
        .trim();
    if inner == "br" {
        return RawHtml::LineBreak;
    }
    if inner == "/span" {
        return RawHtml::SpanClose;
    }
    if let Some(lang) = lang_span(trimmed) {
        return RawHtml::LangOpen(lang);
    }
    RawHtml::Text(html.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_breaks_and_comments() {
        assert_eq!(classify("<br>"), RawHtml::LineBreak);
        assert_eq!(
            classify(r#"<span lang="la">"#),
            RawHtml::LangOpen("la".into())
        );
        assert_eq!(
            classify("<SPAN LANG='en-GB'>"),
            RawHtml::LangOpen("en-GB".into())
        );
        assert_eq!(classify("</span>"), RawHtml::SpanClose);
        for literal in [
            r#"<span lang="l">"#,
            r#"<span lang="la" class="x">"#,
            r#"<span lang=la>"#,
            r#"<span lang="la-">"#,
            r#"<span title="la">"#,
        ] {
            assert_eq!(
                classify(literal),
                RawHtml::Text(literal.into()),
                "{literal}"
            );
        }
        assert_eq!(classify("<BR />"), RawHtml::LineBreak);
        assert_eq!(classify("<!-- hidden -->\n"), RawHtml::Comment);
    }

    #[test]
    fn keeps_everything_else_as_text() {
        assert_eq!(classify("<String>"), RawHtml::Text("<String>".into()));
        assert_eq!(
            classify("<div onclick=x>"),
            RawHtml::Text("<div onclick=x>".into())
        );
    }
}
