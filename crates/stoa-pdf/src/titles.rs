//! Page makeup the generated Typst asks for: a chapter's title bound so
//! that a line never ends on a short word of the book's language, the
//! running head's choices (the post's `short-title`, else the title cut at
//! a word boundary), which the theme measures and picks from, and lead-ins
//! (a paragraph ending in a colon) kept with what they introduce.

use stoa_doc::escape::push_typst_string;
use stoa_doc::{Block, Chapter, Inline};

/// Characters of text up to which a paragraph ending in a colon is kept
/// with what follows: about two lines of the page. The theme can only keep
/// a whole paragraph with the next block, and moving a longer one to the
/// next page leaves more lines empty at the foot of this one than a colon
/// ending the page costs the reader.
const LEAD_IN_MAX_CHARS: usize = 160;

/// Whether `blocks[i]` is a lead-in: a short paragraph of text ending in a
/// colon followed (past notes) by the list, code, quote, table or paragraph
/// it introduces ("Some examples, as they stood:" before the examples'
/// paragraphs). The theme's `lead-in` keeps it on the page of what follows.
pub(crate) fn is_lead_in(blocks: &[Block], i: usize) -> bool {
    let Some(Block::Paragraph { content }) = blocks.get(i) else {
        return false;
    };
    if !ends_with_colon(content)
        || stoa_doc::inlines_text(content).chars().count() > LEAD_IN_MAX_CHARS
    {
        return false;
    }
    let next = blocks[i + 1..]
        .iter()
        .find(|b| !matches!(b, Block::FootnoteDef { .. }));
    matches!(
        next,
        Some(
            Block::List { .. }
                | Block::Code { .. }
                | Block::Quote { .. }
                | Block::Table { .. }
                | Block::Paragraph { .. }
        )
    )
}

/// Whether the text of `content` ends with `:` (a note call or closing
/// emphasis after it still counts).
fn ends_with_colon(content: &[Inline]) -> bool {
    let text = stoa_doc::inlines_text(content);
    text.trim_end().ends_with(':')
}

/// The title as the page shows it (`display:`; the contents and the
/// bookmarks keep the plain title): short words bound to the next with no-break spaces
/// ([`stoa_locale::bind_title`]); the theme balances the lines.
pub(crate) fn printed_title(chapter: &Chapter, lang: &str) -> String {
    stoa_locale::bind_title(&chapter.title, lang)
}

/// The running head's choices as a Typst array literal, longest first:
/// the theme keeps the first that fits its line. With a `short-title`
/// (from [`stoa_render::Layout::short_title`]),
/// that title and its cuts; else the title's ([`stoa_locale::head_candidates`]).
pub(crate) fn head_array(chapter: &Chapter, short_title: Option<&str>, lang: &str) -> String {
    let source = short_title
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(&chapter.title);
    let mut out = String::from("(");
    for candidate in stoa_locale::head_candidates(source, lang) {
        push_typst_string(&mut out, &candidate);
        out.push_str(", ");
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(title: &str) -> Chapter {
        Chapter {
            title: title.into(),
            ..Chapter::default()
        }
    }

    #[test]
    fn the_short_title_leads_the_heads() {
        let c = chapter("Engenharia de dados: arquiteturas de referência");
        assert_eq!(
            head_array(&c, Some("Arquiteturas"), "pt-BR"),
            "(\"Arquiteturas\", )"
        );
        let heads = head_array(&c, None, "pt-BR");
        assert!(heads.starts_with(
            "(\"Engenharia de dados: arquiteturas de referência\", \"Engenharia de dados\", "
        ));
        assert!(!heads.contains("de\u{a0}…"));
    }

    fn par(text: &str) -> Block {
        Block::Paragraph {
            content: vec![Inline::text(text)],
        }
    }

    #[test]
    fn a_colon_before_a_list_code_quote_table_or_paragraph_is_a_lead_in() {
        let list = Block::List {
            start: None,
            tight: true,
            items: Vec::new(),
        };
        let quote = Block::Quote { blocks: Vec::new() };
        assert!(is_lead_in(&[par("These:"), list.clone()], 0));
        assert!(is_lead_in(&[par("He said: "), quote.clone()], 0));
        assert!(is_lead_in(&[par("As they stood:"), par("The first.")], 0));
        assert!(!is_lead_in(&[par("These:"), Block::Rule], 0));
        // A long paragraph would leave the foot of its page empty.
        let long = format!("{} these:", "word ".repeat(40));
        assert!(!is_lead_in(&[par(&long), list.clone()], 0));
        assert!(!is_lead_in(&[par("These."), list.clone()], 0));
        assert!(!is_lead_in(&[par("At the end:")], 0));
        assert!(!is_lead_in(&[list.clone(), quote], 0));
    }

    #[test]
    fn titles_bind_short_words() {
        let c = chapter("Dialogue on Labels and Truth");
        assert_eq!(
            printed_title(&c, "en"),
            "Dialogue on\u{a0}Labels and\u{a0}Truth"
        );
    }
}
