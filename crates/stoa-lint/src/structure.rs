//! Lints on the order of blocks: a lead-in that introduces nothing, a
//! heading with nothing under it, a "table above" with no table above.

use crate::scan::{Block, Kind};
use crate::{Hit, Lint};

/// The next block that a reader sees, skipping comments.
fn next_visible(blocks: &[Block], i: usize) -> Option<&Block> {
    blocks[i + 1..].iter().find(|b| b.kind != Kind::Html)
}

/// A paragraph ending in `:` followed by a heading, a rule or the end: on the
/// web something (a widget, a link list) followed it; in a book nothing does.
pub(crate) fn dangling_lead_ins(blocks: &[Block], hits: &mut Vec<Hit>) {
    for (i, block) in blocks.iter().enumerate() {
        let text = block.text.trim_end();
        // `(:` is a smile, not a lead-in.
        if block.kind != Kind::Paragraph || !text.ends_with(':') || text.ends_with("(:") {
            continue;
        }
        let next = next_visible(blocks, i);
        let dangling = match next.map(|b| b.kind) {
            None => Some("the post ends"),
            Some(Kind::Heading(_)) => Some("a heading follows"),
            Some(Kind::Rule) => Some("a rule follows"),
            _ => None,
        };
        if let Some(why) = dangling {
            let at = block.text.trim_end().len() - 1;
            hits.push(Hit {
                lint: Lint::DanglingLeadIn,
                offset: block.source_of(at),
                message: format!("this paragraph ends in `:` but introduces nothing: {why}"),
                hint: "add what it introduces, end it with a full stop, or remove it".into(),
            });
        }
    }
}

/// A heading followed by a heading of the same or a higher level, or by
/// the end of the post.
pub(crate) fn empty_sections(blocks: &[Block], hits: &mut Vec<Hit>) {
    for (i, block) in blocks.iter().enumerate() {
        let Kind::Heading(level) = block.kind else {
            continue;
        };
        let empty = match next_visible(blocks, i).map(|b| b.kind) {
            None => true,
            Some(Kind::Heading(next)) => next <= level,
            _ => false,
        };
        if empty {
            hits.push(Hit {
                lint: Lint::EmptySection,
                offset: block.start,
                message: format!("the section `{}` is empty", block.text.trim()),
                hint: "write its content, or remove the heading".into(),
            });
        }
    }
}

/// What a phrase refers to, and where.
#[derive(Clone, Copy, PartialEq)]
enum Referent {
    Table,
    Figure,
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Above,
    Below,
}

/// Phrases that point at a table or a figure, in lower case.
const PHRASES: &[(&str, Referent, Side)] = &[
    ("table above", Referent::Table, Side::Above),
    ("table below", Referent::Table, Side::Below),
    ("following table", Referent::Table, Side::Below),
    ("previous table", Referent::Table, Side::Above),
    ("figure above", Referent::Figure, Side::Above),
    ("figure below", Referent::Figure, Side::Below),
    ("following figure", Referent::Figure, Side::Below),
    ("image above", Referent::Figure, Side::Above),
    ("image below", Referent::Figure, Side::Below),
    ("diagram above", Referent::Figure, Side::Above),
    ("diagram below", Referent::Figure, Side::Below),
    ("chart above", Referent::Figure, Side::Above),
    ("chart below", Referent::Figure, Side::Below),
    ("tabela acima", Referent::Table, Side::Above),
    ("tabela abaixo", Referent::Table, Side::Below),
    ("tabela a seguir", Referent::Table, Side::Below),
    ("tabela seguinte", Referent::Table, Side::Below),
    ("tabela anterior", Referent::Table, Side::Above),
    ("quadro acima", Referent::Table, Side::Above),
    ("quadro abaixo", Referent::Table, Side::Below),
    ("figura acima", Referent::Figure, Side::Above),
    ("figura abaixo", Referent::Figure, Side::Below),
    ("figura a seguir", Referent::Figure, Side::Below),
    ("imagem acima", Referent::Figure, Side::Above),
    ("imagem abaixo", Referent::Figure, Side::Below),
    ("diagrama acima", Referent::Figure, Side::Above),
    ("diagrama abaixo", Referent::Figure, Side::Below),
    ("gráfico acima", Referent::Figure, Side::Above),
    ("gráfico abaixo", Referent::Figure, Side::Below),
];

/// "The table above" with no table before it in the post, "a figura
/// abaixo" with no figure after it.
pub(crate) fn missing_referents(blocks: &[Block], hits: &mut Vec<Hit>) {
    let has = |range: &[Block], what: Referent| {
        range.iter().any(|b| match what {
            Referent::Table => b.kind == Kind::Table,
            Referent::Figure => b.kind == Kind::Figure,
        })
    };
    for (i, block) in blocks.iter().enumerate() {
        if matches!(block.kind, Kind::Code | Kind::Html) {
            continue;
        }
        let lower = block.text.to_lowercase();
        // Lower-casing may change byte lengths; find in the lower-cased
        // text, then map back only when lengths agree.
        let same_len = lower.len() == block.text.len();
        for &(phrase, what, side) in PHRASES {
            let Some(at) = crate::words::find_words(&lower, phrase) else {
                continue;
            };
            let present = match side {
                Side::Above => has(&blocks[..i], what),
                Side::Below => has(&blocks[i + 1..], what),
            };
            if present {
                continue;
            }
            let (noun, prefix) = match what {
                Referent::Table => ("table", "tbl"),
                Referent::Figure => ("figure", "fig"),
            };
            let place = match side {
                Side::Above => "before",
                Side::Below => "after",
            };
            hits.push(Hit {
                lint: Lint::MissingReferent,
                offset: if same_len {
                    block.source_of(at)
                } else {
                    block.start
                },
                message: format!("“{phrase}”, but there is no {noun} {place} this paragraph"),
                hint: format!(
                    "add the {noun}, label it `{{#{prefix}:name}}` and write `@{prefix}:name` \
                     here (the book prints its number), or reword: the page it was on is gone"
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{ids, test_post};

    #[test]
    fn a_lead_in_before_a_heading_or_the_end_dangles() {
        let f = test_post("", "Read these:\n\n## Next\n\nText.\n", "en");
        assert_eq!(ids(&f), ["dangling-lead-in"]);
        assert_eq!(f[0].line, 4);
        let f = test_post("", "Intro.\n\nSee:\n", "en");
        assert_eq!(ids(&f), ["dangling-lead-in"]);
    }

    #[test]
    fn a_lead_in_before_its_list_is_fine() {
        assert!(test_post("", "Read these:\n\n- one\n- two\n", "en").is_empty());
        assert!(test_post("", "He said:\n\n> yes\n", "en").is_empty());
        assert!(test_post("", "More soon (:\n\n## Next\n\nText.\n", "en").is_empty());
    }

    #[test]
    fn a_heading_with_nothing_under_it_is_empty() {
        let f = test_post("", "## A\n\n## B\n\ntext\n", "en");
        assert_eq!(ids(&f), ["empty-section"]);
        let f = test_post("", "## A\n\ntext\n\n## B\n", "en");
        assert_eq!(ids(&f), ["empty-section"]);
    }

    #[test]
    fn a_heading_with_subsections_or_text_is_not_empty() {
        assert!(test_post("", "## A\n\n### B\n\ntext\n", "en").is_empty());
        assert!(test_post("", "## A\n\n<!-- x -->\n\ntext\n", "en").is_empty());
    }

    #[test]
    fn a_table_above_must_be_above() {
        let f = test_post("", "As the table above shows, it works.\n", "en");
        assert_eq!(ids(&f), ["missing-referent"]);
        let f = test_post("", "Como mostra a tabela abaixo, funciona.\n", "pt-BR");
        assert_eq!(ids(&f), ["missing-referent"]);
        let f = test_post(
            "",
            "Text.\n\n![a](x.png)\n\nThe figure below shows it.\n",
            "en",
        );
        assert_eq!(ids(&f), ["missing-referent"]);
    }

    #[test]
    fn a_table_above_that_is_there_is_fine() {
        let table = "| a | b |\n|---|---|\n| 1 | 2 |\n\n";
        assert!(test_post("", &format!("{table}As the table above shows.\n"), "en").is_empty());
        let f = test_post("", "A figura abaixo mostra.\n\n![a](x.png)\n", "pt-BR");
        assert!(f.is_empty(), "{f:?}");
        let f = test_post(
            "",
            "The diagram below.\n\n```mermaid\ngraph TD\nA-->B\n```\n",
            "en",
        );
        assert!(f.is_empty(), "{f:?}");
    }
}
