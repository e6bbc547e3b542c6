//! Page references ("Dialogue on Masters, p. 7"): a span around one link to
//! an element of the book, after which every format prints the print page
//! of the link's target. The PDF knows it from its layout; the EPUB and the
//! web edition read it from the PDF's page map, so both name the same page.

use crate::{Inline, Role};

/// The role of a span holding one link whose target's print page is
/// printed after it (the glossary appendix's references to each use).
pub const PAGE_REF_ROLE: &str = "page-ref";

/// The link of a page reference: `inline` is a span with
/// [`PAGE_REF_ROLE`] around exactly one link; its URL.
pub fn page_ref_url(inline: &Inline) -> Option<&str> {
    match inline {
        Inline::Span {
            role: Some(Role::Other(role)),
            content,
            ..
        } if role == PAGE_REF_ROLE => match content.as_slice() {
            [Inline::Link { url, .. }] => Some(url),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_reference_is_a_span_around_one_link() {
        let link = Inline::Link {
            url: "#use".into(),
            title: String::new(),
            content: vec![Inline::text("Masters")],
        };
        let span = |role: &str, content: Vec<Inline>| Inline::Span {
            role: Some(Role::Other(role.into())),
            class: String::new(),
            attrs: Default::default(),
            content,
        };
        assert_eq!(
            page_ref_url(&span(PAGE_REF_ROLE, vec![link.clone()])),
            Some("#use")
        );
        assert_eq!(page_ref_url(&span("other", vec![link.clone()])), None);
        assert_eq!(
            page_ref_url(&span(PAGE_REF_ROLE, vec![link.clone(), link])),
            None
        );
    }
}
