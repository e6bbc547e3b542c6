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
    /// Anything else: shown literally.
    Text(String),
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
    RawHtml::Text(html.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_breaks_and_comments() {
        assert_eq!(classify("<br>"), RawHtml::LineBreak);
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
