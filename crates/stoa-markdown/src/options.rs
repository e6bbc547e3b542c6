//! The Markdown dialect, written once: the pulldown-cmark options of the
//! parser that builds the tree, and of every other reader of a post's
//! Markdown (the content lints), so that what the book shows as a table,
//! a note or a heading id is what the lints see as one.

use pulldown_cmark::Options;

/// What stoa reads: CommonMark with tables, footnotes, strikethrough,
/// task lists, smart punctuation, heading attributes (`{#id .class}`) and
/// math (`$…$` inline, `$$…$$` display; `\$` is a dollar sign), as pandoc
/// and GitHub read them.
pub const PARSER_OPTIONS: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_MATH)
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_SMART_PUNCTUATION)
    .union(Options::ENABLE_HEADING_ATTRIBUTES);

/// The same dialect with the text of every event as the file writes it:
/// for a reader that maps the text back to bytes of the file (the lints'
/// positions). Smart punctuation would break that: `"` becomes `“`, three
/// bytes for one, and `--` becomes `–`. It changes no block, so both
/// readers see the same structure.
pub const VERBATIM_OPTIONS: Options = PARSER_OPTIONS.difference(Options::ENABLE_SMART_PUNCTUATION);

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::{Event, Parser};

    /// The events of `text` under `options` that are not text.
    fn structure(text: &str, options: Options) -> Vec<String> {
        Parser::new_ext(text, options)
            .filter(|e| !matches!(e, Event::Text(_)))
            .map(|e| format!("{e:?}"))
            .collect()
    }

    #[test]
    fn the_verbatim_dialect_differs_only_in_its_quotes() {
        assert_eq!(
            VERBATIM_OPTIONS | Options::ENABLE_SMART_PUNCTUATION,
            PARSER_OPTIONS
        );
        assert!(!VERBATIM_OPTIONS.contains(Options::ENABLE_SMART_PUNCTUATION));
        let post = "# A \"title\" {#t}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\
                    - [x] done -- said[^1]\n\n~~old~~\n\n[^1]: A note.\n";
        assert_eq!(
            structure(post, VERBATIM_OPTIONS),
            structure(post, PARSER_OPTIONS)
        );
        let text = |options| -> String {
            Parser::new_ext("\"a\" -- b", options)
                .filter_map(|e| match e {
                    Event::Text(t) => Some(t.into_string()),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(text(VERBATIM_OPTIONS), "\"a\" -- b");
        assert_eq!(text(PARSER_OPTIONS), "“a” – b");
    }
}
