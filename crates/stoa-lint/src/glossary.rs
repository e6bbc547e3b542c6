//! A glossary term the post never uses: the glossary plugin links a term's
//! first use, so a term with none is a definition no reader is sent to.

use crate::scan::{Block, Kind};
use crate::{Hit, Lint};

/// Whether `title` (in lower case) is the word that opens a glossary in
/// one of the languages of stoa's locale table: the heading the glossary
/// plugin reads in each edition, unless the book names another. Any
/// language's, as a post may quote another edition's.
fn is_table_heading(title: &str) -> bool {
    stoa_locale::LOCALES
        .iter()
        .any(|l| l.book.glossary.to_lowercase() == title)
}

/// Each `term: definition` item under a glossary heading whose term does
/// not occur (allowing for a plural or an inflected ending) elsewhere in the post.
pub(crate) fn unused_terms(blocks: &[Block], extra: &[String], hits: &mut Vec<Hit>) {
    let is_glossary = |b: &Block| {
        let title = b.text.trim().to_lowercase();
        matches!(b.kind, Kind::Heading(_))
            && (is_table_heading(&title) || extra.iter().any(|h| h.trim().to_lowercase() == title))
    };
    let Some(at) = blocks.iter().position(is_glossary) else {
        return;
    };
    let Some(list) = blocks[at + 1..].iter().find(|b| b.kind != Kind::Html) else {
        return;
    };
    if list.kind != Kind::List {
        return;
    }
    let text: String = blocks
        .iter()
        .enumerate()
        .filter(|&(i, b)| i != at && !std::ptr::eq(b, list) && b.kind != Kind::Code)
        .map(|(_, b)| b.text.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    for (item, offset) in &list.items {
        let Some((term, _)) = item.split_once(':') else {
            continue;
        };
        let term = term.trim();
        if term.is_empty() || used(&text, &term.to_lowercase()) {
            continue;
        }
        hits.push(Hit {
            lint: Lint::UnusedGlossaryTerm,
            offset: *offset,
            message: format!("the glossary defines “{term}”, which the post never uses"),
            hint: "remove the entry, or use the word where it belongs".into(),
        });
    }
}

/// Whether `term` (lower case) occurs in `text`, or its stem does: the
/// term without a plural ending, and for longer words without its last
/// letter or two (`ânforas` in a post that says `ânfora`).
fn used(text: &str, term: &str) -> bool {
    if crate::words::find_words(text, term).is_some() {
        return true;
    }
    let chars: Vec<char> = term.chars().collect();
    let cut = if chars.len() > 7 { 2 } else { 1 };
    if chars.len() <= 4 {
        return false;
    }
    let stem: String = chars[..chars.len() - cut].iter().collect();
    text.contains(&stem)
}

#[cfg(test)]
mod tests {
    use crate::{ids, test_post};

    #[test]
    fn a_term_never_used_is_found() {
        let body = "The agora was full.\n\n## Glossary\n\n- agora: a square\n- drachma: a coin\n";
        let f = test_post("", body, "en");
        assert_eq!(ids(&f), ["unused-glossary-term"]);
        assert!(f[0].message.contains("drachma"));
        assert_eq!(f[0].line, 9);
    }

    #[test]
    fn used_and_inflected_terms_pass() {
        let body = "As ânforas e o dracma.\n\n## Glossário\n\n- ânfora: vaso\n- dracmas: moeda\n";
        assert!(test_post("", body, "pt-BR").is_empty());
        // No glossary, nothing to say.
        assert!(test_post("", "- agora: a square\n", "en").is_empty());
    }

    #[test]
    fn every_language_of_the_locale_table_opens_a_glossary() {
        for locale in stoa_locale::LOCALES {
            let heading = locale.book.glossary;
            let body = format!("Words.\n\n## {heading}\n\n- drachma: a coin\n");
            assert_eq!(
                ids(&test_post("", &body, "en")),
                ["unused-glossary-term"],
                "{heading}"
            );
        }
        let body = "Words.\n\n## Vocabulary\n\n- drachma: a coin\n";
        assert!(test_post("", body, "en").is_empty());
    }
}
