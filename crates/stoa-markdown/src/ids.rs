//! Anchors for headings: readable, ASCII, unique within a chapter.

use std::collections::HashSet;

/// Turns text into an ASCII anchor: `Diálogo sobre Rótulos` -> `dialogo-sobre-rotulos`.
/// The text is lowered to Unicode's lower case first; accented Latin letters
/// ([`ACCENTS`]) then lose their accents; other characters become dashes.
pub fn slugify(text: &str) -> String {
    let lower = text.chars().flat_map(char::to_lowercase);
    join_slug(lower, |c| fold(c, ACCENTS))
}

/// The slug of a name (a post's folder, as `stoa import` writes it): the
/// letters of [`ACCENTS`] in either case and [`LETTERS`] folded as they are,
/// without lowering to Unicode's lower case first; other characters become
/// dashes.
///
/// It differs from [`slugify`] on purpose, in what existing books already
/// hold: heading ids are addresses readers link to, and folder names are
/// where posts live, so neither changes. `Straße` is `stra-e` as an id and
/// `strasse` as a name; `Ÿ` (whose lower case is `ÿ`) is `y` as an id and a
/// dash as a name.
pub fn name_slug(text: &str) -> String {
    join_slug(text.chars(), |c| {
        fold(c, ACCENTS).or_else(|| fold(c, LETTERS))
    })
}

/// Accented Latin letters, in both cases, and the ASCII letter each folds
/// to. [`slugify`] lowers the case first, so it only meets the lower ones.
const ACCENTS: &[(&str, &str)] = &[
    ("àáâãäåÀÁÂÃÄÅ", "a"),
    ("çÇ", "c"),
    ("èéêëÈÉÊË", "e"),
    ("ìíîïÌÍÎÏ", "i"),
    ("ñÑ", "n"),
    ("òóôõöÒÓÔÕÖ", "o"),
    ("ùúûüÙÚÛÜ", "u"),
    ("ýÿÝ", "y"),
];

/// Letters that are not accented ones, folded in names only ([`name_slug`]):
/// heading ids never folded them.
const LETTERS: &[(&str, &str)] = &[("øØ", "o"), ("ß", "ss"), ("æÆ", "ae"), ("œŒ", "oe")];

/// What `table` folds `c` to, if it holds it.
fn fold(c: char, table: &[(&str, &'static str)]) -> Option<&'static str> {
    table
        .iter()
        .find(|(letters, _)| letters.contains(c))
        .map(|&(_, ascii)| ascii)
}

/// ASCII letters and digits (in lower case) joined by single dashes, each
/// character first passed through `fold`; no dash at either end.
fn join_slug(
    chars: impl Iterator<Item = char>,
    fold: impl Fn(char) -> Option<&'static str>,
) -> String {
    let mut out = String::new();
    let mut push = |c: char| {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    };
    for c in chars {
        match fold(c) {
            Some(ascii) => ascii.chars().for_each(&mut push),
            None => push(c),
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The prefixes of the ids of numbered figures, tables, listings and
/// equations (`{#eq:energy}` is `eq-energy`).
const LABELS: &[&str] = &["eq-", "fig-", "tbl-", "lst-"];

/// Whether the writers give `id` to an element of their own in a chapter's
/// page (its title, page markers, notes and their references, index
/// marks, numbered figures and equations, the web page's main part): a
/// heading must not take it, or the page would hold it twice.
pub fn reserved(id: &str) -> bool {
    const NAMES: &[&str] = &["chapter-title", "contents-title", "main"];
    const NUMBERED: &[&str] = &["page-", "note-", "noteref-", "ix-"];
    let numbered = |prefix: &str| {
        id.strip_prefix(prefix).is_some_and(|n| {
            n.split('-')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    NAMES.contains(&id)
        || NUMBERED.iter().any(|p| numbered(p))
        || LABELS.iter().any(|p| id.starts_with(p))
}

/// Gives a heading whose id is `taken` (the chapter's own id, its slug)
/// another, unique in the chapter: `folium` → `folium-2`.
pub fn free_id(blocks: &mut [stoa_doc::Block], taken: &str) {
    let mut ids = IdSet::default();
    ids.used.insert(taken.to_string());
    stoa_doc::for_each_block(blocks, &mut |block| {
        if let stoa_doc::Block::Heading { id, .. } = block {
            ids.used.insert(id.clone());
        }
    });
    stoa_doc::walk_blocks_mut(blocks, &mut |block| {
        if let stoa_doc::Block::Heading { id, .. } = block
            && id == taken
        {
            *id = ids.unique(taken);
        }
    });
}

/// Hands out unique ids within one chapter.
#[derive(Default)]
pub struct IdSet {
    used: HashSet<String>,
}

impl IdSet {
    /// A unique id from `wanted`; XML ids must start with a letter.
    pub fn unique(&mut self, wanted: &str) -> String {
        let mut base = slugify(wanted);
        if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
            base = format!("s-{base}").trim_end_matches('-').to_string();
        }
        // A name the writers keep for their own elements is changed so
        // that neither it nor its numbered variants can be theirs.
        if reserved(&base) {
            base = match LABELS.iter().any(|p| base.starts_with(p)) {
                true => format!("h-{base}"),
                false => format!("{base}-h"),
            };
        }
        let mut id = base.clone();
        let mut n = 2;
        while !self.used.insert(id.clone()) {
            id = format!("{base}-{n}");
            if reserved(&id) {
                id = format!("{base}-h{n}");
            }
            n += 1;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_accents_and_punctuation() {
        assert_eq!(
            slugify("Diálogo sobre Rótulos, e Verdade!"),
            "dialogo-sobre-rotulos-e-verdade"
        );
        assert_eq!(slugify("  Ação  "), "acao");
    }

    #[test]
    fn names_fold_more_letters_and_lower_no_case() {
        // What each has always done: ids are links, names are folders.
        for (text, id, name) in [
            ("Ação e Reação!", "acao-e-reacao", "acao-e-reacao"),
            ("Straße", "stra-e", "strasse"),
            ("Øre Æsir Œuvre", "re-sir-uvre", "ore-aesir-oeuvre"),
            ("ŸVES", "yves", "ves"),
            ("\u{212a}elvin", "kelvin", "elvin"),
            ("中文 🙂 title", "title", "title"),
        ] {
            assert_eq!(
                (slugify(text), name_slug(text)),
                (id.into(), name.into()),
                "{text}"
            );
        }
    }

    #[test]
    fn ids_are_unique_and_start_with_a_letter() {
        let mut ids = IdSet::default();
        assert_eq!(ids.unique("Nota"), "nota");
        assert_eq!(ids.unique("Nota"), "nota-2");
        assert_eq!(ids.unique("1984"), "s-1984");
        assert_eq!(ids.unique("🙂"), "s");
        assert_eq!(ids.unique("🙂"), "s-2");
        for (wanted, given) in [
            ("Chapter title", "chapter-title-h"),
            ("Page 12", "page-12-h"),
            ("Note 3", "note-3-h"),
            ("Notes", "notes"),
            ("Page", "page"),
            ("Page", "page-h2"),
            ("Page", "page-h3"),
            ("Page one", "page-one"),
            ("eq-x", "h-eq-x"),
            ("eq-x", "h-eq-x-2"),
        ] {
            assert_eq!(ids.unique(wanted), given, "{wanted}");
        }
    }
}

#[cfg(test)]
mod free_tests {
    use stoa_doc::Block;

    #[test]
    fn a_heading_named_as_its_chapter_takes_another_id() {
        let heading = |id: &str| Block::Heading {
            level: 2,
            id: id.into(),
            content: vec![],
        };
        let mut blocks = vec![heading("folium"), heading("folium-2"), heading("other")];
        super::free_id(&mut blocks, "folium");
        let ids: Vec<_> = blocks
            .iter()
            .map(|b| match b {
                Block::Heading { id, .. } => id.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(ids, ["folium-3", "folium-2", "other"]);
    }
}
