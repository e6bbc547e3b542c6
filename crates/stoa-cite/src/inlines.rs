//! hayagriva's formatted output as the tree's inlines: italics as
//! emphasis, bold as strong, links kept when their scheme is safe, and
//! text as text, for every renderer to escape its own way.

use hayagriva::citationberg::{FontStyle, FontWeight};
use hayagriva::{ElemChild, ElemChildren, ElemMeta, Formatted};
use stoa_doc::Inline;

/// Where the part of a citation that stands for its item `n` links to
/// (its entry in the bibliography); `None` for no link.
pub(crate) type ItemLink<'a> = &'a dyn Fn(usize) -> Option<String>;

/// The inlines of `children`, adjacent plain texts merged; each cited
/// item's part a link where `link` gives one.
pub(crate) fn to_inlines(children: &ElemChildren, link: ItemLink<'_>) -> Vec<Inline> {
    let mut out = Vec::new();
    push_children(&children.0, link, false, &mut out);
    out
}

fn push_children(children: &[ElemChild], link: ItemLink<'_>, in_link: bool, out: &mut Vec<Inline>) {
    for child in children {
        match child {
            ElemChild::Text(formatted) => push_formatted(formatted, out),
            ElemChild::Elem(elem) => {
                let target = match elem.meta {
                    Some(ElemMeta::Entry(n)) if !in_link => link(n),
                    _ => None,
                };
                match target {
                    Some(url) => {
                        let mut content = Vec::new();
                        push_children(&elem.children.0, link, true, &mut content);
                        out.push(Inline::Link {
                            url,
                            title: String::new(),
                            content,
                        });
                    }
                    None => push_children(&elem.children.0, link, in_link, out),
                }
            }
            // Typst markup in a style (rare): its text, never as code.
            ElemChild::Markup(text) => push_text(text, out),
            ElemChild::Link { text, url } => {
                let mut content = Vec::new();
                push_formatted(text, &mut content);
                // A link inside a citation's own link would be invalid.
                if is_safe_url(url) && !in_link {
                    out.push(Inline::Link {
                        url: url.clone(),
                        title: String::new(),
                        content,
                    });
                } else {
                    out.extend(content);
                }
            }
            // Only produced for transparent locators, which stoa never
            // passes.
            ElemChild::Transparent { .. } => {}
        }
    }
}

fn push_formatted(formatted: &Formatted, out: &mut Vec<Inline>) {
    let mut inner = Vec::new();
    push_text(&formatted.text, &mut inner);
    let style = formatted.formatting;
    if style.font_weight == FontWeight::Bold {
        inner = vec![Inline::Strong { content: inner }];
    }
    if style.font_style == FontStyle::Italic {
        inner = vec![Inline::Emph { content: inner }];
    }
    for inline in inner {
        match inline {
            Inline::Text { text } => push_text(&text, out),
            other => out.push(other),
        }
    }
}

fn push_text(text: &str, out: &mut Vec<Inline>) {
    if text.is_empty() {
        return;
    }
    if let Some(Inline::Text { text: last }) = out.last_mut() {
        last.push_str(text);
    } else {
        out.push(Inline::text(text));
    }
}

/// The schemes a book's link may have (DOIs and URLs of entries).
fn is_safe_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_links_stay_links() {
        assert!(is_safe_url("https://doi.org/10.1/x"));
        assert!(!is_safe_url("javascript:alert(1)"));
    }
}
