//! A diagram drawn by stoa-diagram, as a call to the theme's `diagram`:
//! the SVG, the text alternative and the caption as string literals, so
//! that nothing of the author's reaches Typst as markup.

use stoa_diagram::DiagramRef;
use stoa_doc::escape::typst_string;

/// `#diagram("<svg…>", alt: "…", caption: [...] or none)`.
pub(crate) fn call(drawing: &DiagramRef<'_>) -> String {
    let caption = drawing
        .caption
        .map_or_else(|| "none".to_owned(), |c| format!("[#{}]", typst_string(c)));
    format!(
        "#diagram({}, alt: {}, caption: {})",
        typst_string(drawing.svg),
        typst_string(drawing.alt),
        caption
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_arrives_as_string_literals() {
        let d = DiagramRef {
            svg: "<svg>#read(\"/etc/passwd\")</svg>",
            alt: "a \"b\"",
            caption: Some("*c* #d"),
            width: 1.0,
            height: 1.0,
        };
        assert_eq!(
            call(&d),
            r##"#diagram("<svg>#read(\"/etc/passwd\")</svg>", alt: "a \"b\"", caption: [#"*c* #d"])"##
        );
    }
}
