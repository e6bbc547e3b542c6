//! Words: folding case and accents, the inflection the matcher tolerates,
//! finding a term in a text, and the collation of a glossary or an index,
//! written once for the glossary plugin (through the SDK) and the book's
//! index (stoa-index), so that both sort and find words alike.

use std::cmp::Ordering;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// How accents are compared when a term is looked for in the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Accents {
    /// An accent written in the term is required in the text, an accent the
    /// term lacks may be there: `Ikkos` finds `Íkkos`, but `ágora` (the
    /// square) does not find the Portuguese `agora` (now).
    #[default]
    Term,
    /// Accents are ignored altogether: `ágora` also finds `agora`.
    Ignore,
}

/// How a term is compared with the words of the text.
#[derive(Clone, Copy, Debug)]
pub struct Matching<'a> {
    /// The edition's language, e.g. `pt-BR`, for the inflection rules.
    pub lang: &'a str,
    /// Tolerate plural (and in Portuguese feminine) endings.
    pub inflection: bool,
    /// See [`Accents`].
    pub accents: Accents,
}

/// A word as [`Matching::same_word`] compares it, computed once
/// ([`Matching::prepare`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    first: Option<char>,
    form: Vec<char>,
}

/// `c` lowercased, without its accents: `Á` → `a`.
pub fn fold_char(c: char) -> char {
    // Most letters of most books are ASCII: nothing to decompose. The
    // index folds every letter of a book's text more than once.
    if c.is_ascii() {
        c.to_ascii_lowercase()
    } else {
        fold_unicode(c)
    }
}

fn fold_unicode(c: char) -> char {
    let base = c.to_lowercase().nfd().find(|c| !is_combining_mark(*c));
    base.unwrap_or(c)
}

/// Lowercase, without accents, in NFC.
pub fn fold(s: &str) -> String {
    s.nfc().map(fold_char).collect()
}

/// Lowercase NFC characters of a word.
fn lower(word: &str) -> Vec<char> {
    if word.is_ascii() {
        return word.chars().map(|c| c.to_ascii_lowercase()).collect();
    }
    word.nfc().flat_map(char::to_lowercase).collect()
}

/// The word's first letter, lowercased and without its accents: two words
/// whose first letters differ never match.
fn first_folded(word: &str) -> Option<char> {
    word.nfc()
        .flat_map(char::to_lowercase)
        .next()
        .map(fold_char)
}

/// The word with the endings of inflection replaced by a common form, so
/// that `papiros` and `papiro`, `ânfora` and `ânforas` have the same stem.
/// Works on lowercase characters and keeps their accents.
fn stem(mut w: Vec<char>, lang: &str) -> Vec<char> {
    let primary = lang.split(['-', '_']).next().unwrap_or("");
    if w.len() <= 3 {
        return w;
    }
    let folded: String = w.iter().map(|c| fold_char(*c)).collect();
    let ends = |s: &str| folded.ends_with(s);
    let replace = |w: &mut Vec<char>, cut: usize, with: &str| {
        w.truncate(w.len() - cut);
        w.extend(with.chars());
    };
    match primary {
        "pt" => {
            if ends("oes") || ends("aes") {
                replace(&mut w, 3, "ão");
            } else if ends("ais") || ends("eis") || ends("ois") || ends("uis") {
                replace(&mut w, 2, "l");
            } else if ends("ns") {
                replace(&mut w, 2, "m");
            } else if ends("res") || ends("zes") || ends("ses") {
                replace(&mut w, 2, "");
            } else if ends("s") {
                replace(&mut w, 1, "");
            }
            // The feminine: `-a` like `-o`.
            if w.last().map(|c| fold_char(*c)) == Some('a') {
                replace(&mut w, 1, "o");
            }
        }
        "en" => {
            if ends("ies") {
                replace(&mut w, 3, "y");
            } else if ["ches", "shes", "sses", "xes", "zes"]
                .iter()
                .any(|e| ends(e))
            {
                replace(&mut w, 2, "");
            } else if ends("ae") || (ends("s") && !ends("ss") && !ends("us") && !ends("is")) {
                // `amphorae` → `amphora`, `oracles` → `oracle`.
                replace(&mut w, 1, "");
            }
        }
        _ => {
            if ends("s") && !ends("ss") {
                replace(&mut w, 1, "");
            }
        }
    }
    w
}

/// The regular plural of the one-word term `word` in language `lang`,
/// the inverse of the matcher's stemming (a reading system looks a
/// glossary entry up by it); `None` for a phrase (its plural depends on
/// its grammar: "cenhos franzidos", but "dias de festa") and for a
/// language without rules here. A wrong guess costs nothing: a form no one
/// types is never matched.
pub fn plural(word: &str, lang: &str) -> Option<String> {
    if word.contains(char::is_whitespace) {
        return None;
    }
    match lang.split(['-', '_']).next().unwrap_or("") {
        "en" => Some(english_plural(word)),
        "pt" => Some(portuguese_plural(word)),
        _ => None,
    }
}

/// The regular English plural: `-ies` after a consonant and `y`, `-es`
/// after a sibilant, `-s` otherwise.
fn english_plural(word: &str) -> String {
    let lower = word.to_lowercase();
    let before_y = lower.strip_suffix('y').and_then(|s| s.chars().last());
    if before_y.is_some_and(|c| !"aeiou".contains(c)) {
        return format!("{}ies", &word[..word.len() - 1]);
    }
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        return format!("{word}es");
    }
    format!("{word}s")
}

/// The regular Portuguese plural: `-ão` → `-ões`, `-m` → `-ns`, `-al`/
/// `-ol`/`-ul` → `-ais`/`-óis`/`-uis`, `-el` → `-éis`, `-il` → `-is`,
/// `-r`/`-z` → `-es`, a word ending in `s` or `x` unchanged, `-s` otherwise.
fn portuguese_plural(word: &str) -> String {
    const ENDINGS: [(&str, &str); 7] = [
        ("ão", "ões"),
        ("al", "ais"),
        ("ol", "óis"),
        ("ul", "uis"),
        ("el", "éis"),
        ("il", "is"),
        ("m", "ns"),
    ];
    for (singular, plural) in ENDINGS {
        if let Some(stem) = word.strip_suffix(singular) {
            return format!("{stem}{plural}");
        }
    }
    match word.chars().last() {
        Some('r' | 'z') => format!("{word}es"),
        Some('s' | 'x') => word.to_string(),
        _ => format!("{word}s"),
    }
}

impl Matching<'_> {
    /// Whether the word `text` of the text is the term's word `term`.
    pub fn same_word(&self, text: &str, term: &str) -> bool {
        // Inflection changes only a word's ending, so words that begin with
        // different letters never match: most words of a text are turned
        // down here, without being lowercased and stemmed whole (that was a
        // twentieth of a cold EPUB build of books/).
        first_folded(text) == first_folded(term) && self.same_whole_word(text, term)
    }

    /// [`Matching::same_word`] without its first-letter shortcut.
    fn same_whole_word(&self, text: &str, term: &str) -> bool {
        self.same_forms(&self.form(text), &self.form(term))
    }

    /// A word lowercased and, with inflection, stemmed: what
    /// [`Matching::same_word`] compares.
    fn form(&self, word: &str) -> Vec<char> {
        let lowered = lower(word);
        if self.inflection {
            stem(lowered, self.lang)
        } else {
            lowered
        }
    }

    fn same_forms(&self, t: &[char], m: &[char]) -> bool {
        t.len() == m.len()
            && t.iter().zip(m).all(|(&t, &m)| {
                let (bt, bm) = (fold_char(t), fold_char(m));
                match self.accents {
                    Accents::Ignore => bt == bm,
                    Accents::Term => t == m || (bm == m && bt == m),
                }
            })
    }

    /// `word` made ready to be compared many times with
    /// [`Matching::same_prepared`]: a finder that compares each word of a
    /// text with many terms lowercases and stems it once, not once a term.
    pub fn prepare(&self, word: &str) -> Prepared {
        Prepared {
            first: first_folded(word),
            form: self.form(word),
        }
    }

    /// [`Matching::same_word`] of two prepared words: the same answer.
    pub fn same_prepared(&self, text: &Prepared, term: &Prepared) -> bool {
        text.first == term.first && self.same_forms(&text.form, &term.form)
    }

    /// The first place `term` occurs in `text` as whole words, as a byte range.
    pub fn find(&self, text: &str, term: &[String]) -> Option<(usize, usize)> {
        if term.is_empty() {
            return None;
        }
        let words = words(text);
        'start: for i in 0..words.len() {
            if i + term.len() > words.len() {
                break;
            }
            for (j, want) in term.iter().enumerate() {
                let (s, e) = words[i + j];
                if !self.same_word(&text[s..e], want) {
                    continue 'start;
                }
                // Words of a term are separated by spaces only.
                if j > 0 && !text[words[i + j - 1].1..s].chars().all(char::is_whitespace) {
                    continue 'start;
                }
            }
            return Some((words[i].0, words[i + term.len() - 1].1));
        }
        None
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The words of `text` as byte ranges: runs of letters and digits.
pub fn words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_word_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// The words of a term, as the text of each.
pub fn term_words(term: &str) -> Vec<String> {
    words(term)
        .into_iter()
        .map(|(s, e)| term[s..e].to_string())
        .collect()
}

/// A name usable in ids: `Cenho franzido` → `cenho-franzido`, `Íkos` → `ikos`.
pub fn slug(term: &str) -> String {
    let mut out = String::new();
    for c in fold(term).chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Compares terms the way a dictionary of the book's language orders them
/// (Portuguese and English, and a reasonable order for other Latin-script
/// languages): first by letters without accents or case (`á`, `â`, `ã` with
/// `a`; spaces and punctuation ignored), then unaccented before accented,
/// then lowercase before capitals, then by code points so that ties are
/// broken the same way on every run.
pub fn collate(a: &str, b: &str, _lang: &str) -> Ordering {
    let primary = |s: &str| -> String { fold(s).chars().filter(|c| c.is_alphanumeric()).collect() };
    let secondary = |s: &str| -> Vec<u32> {
        s.nfc()
            .flat_map(char::to_lowercase)
            .filter(|c| c.is_alphanumeric())
            .map(|c| u32::from(c != fold_char(c)))
            .collect()
    };
    let tertiary = |s: &str| -> Vec<bool> {
        s.nfc()
            .filter(|c| c.is_alphanumeric())
            .map(char::is_uppercase)
            .collect()
    };
    primary(a)
        .cmp(&primary(b))
        .then_with(|| secondary(a).cmp(&secondary(b)))
        .then_with(|| tertiary(a).cmp(&tertiary(b)))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {

    #[test]
    fn ascii_is_folded_and_lowered_as_any_other_text() {
        use super::*;
        for c in (0..128u8).map(char::from) {
            assert_eq!(fold_char(c), fold_unicode(c), "{c:?}");
            let word = format!("{c}Ab");
            let general: Vec<char> = word.nfc().flat_map(char::to_lowercase).collect();
            assert_eq!(lower(&word), general, "{word:?}");
        }
        assert_eq!(fold_char('Á'), 'a');
        assert_eq!(lower("ÂnforaS"), "ânforas".chars().collect::<Vec<_>>());
    }

    #[test]
    fn the_matcher_takes_every_plural_for_its_word() {
        let cases = [
            (
                "en",
                ["oracle", "city", "day", "box", "church", "portico", "kiss"].as_slice(),
            ),
            (
                "pt-BR",
                &[
                    // Not "fuzil": the stemmer has no rule from "fuzis" back to
                    // it, so a reader's search for the plural finds it
                    // through the search key map alone.
                    "ágora", "canção", "jornal", "papel", "anzol", "azul", "homem", "mar", "luz",
                    "lápis",
                ],
            ),
        ];
        for (lang, words) in cases {
            let matching = Matching {
                lang,
                inflection: true,
                accents: Accents::Term,
            };
            for word in words {
                let plural = plural(word, lang).expect("a plural");
                assert!(
                    matching.same_word(&plural, word),
                    "{lang}: {word} / {plural}"
                );
            }
        }
        assert_eq!(plural("cenho franzido", "pt"), None);
        assert_eq!(plural("Haus", "de"), None);
    }
    use super::*;

    /// The first-letter shortcut never turns down a pair the whole
    /// comparison accepts, in either language and accent rule.
    #[test]
    fn the_shortcut_agrees_with_the_whole_comparison() {
        let words = [
            "ágora",
            "Agora",
            "agoras",
            "ÁGORAS",
            "ânfora",
            "ânforas",
            "anfora",
            "papiro",
            "papiros",
            "Papiros",
            "oráculo",
            "oráculos",
            "oracles",
            "oracle",
            "amphorae",
            "amphora",
            "ies",
            "flies",
            "fly",
            "ão",
            "ões",
            "leões",
            "leão",
            "İstanbul",
            "istanbul",
            "a\u{301}gora",
            "Ícaro",
            "icaro",
            "sss",
            "s",
            "",
            "ß",
            "SS",
            "ÿ",
        ];
        for lang in ["pt-BR", "en", "fr"] {
            for accents in [Accents::Term, Accents::Ignore] {
                for inflection in [true, false] {
                    let m = Matching {
                        lang,
                        inflection,
                        accents,
                    };
                    for text in words {
                        for term in words {
                            assert_eq!(
                                m.same_word(text, term),
                                m.same_whole_word(text, term),
                                "{text} / {term} ({lang}, {accents:?}, {inflection})"
                            );
                            assert_eq!(
                                m.same_word(text, term),
                                m.same_prepared(&m.prepare(text), &m.prepare(term)),
                                "prepared: {text} / {term} ({lang}, {accents:?}, {inflection})"
                            );
                        }
                    }
                }
            }
        }
    }
}
