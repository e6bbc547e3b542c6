//! Where a title may break and where it may be cut: the short words
//! (articles, prepositions, conjunctions) that must not end a line of a
//! title or a shortened running head, per language, as data.
//!
//! Why here: every format sets chapter titles (the PDF binds these words
//! in its generated Typst, the EPUB and the web edition in their XHTML), and
//! the PDF's running heads are cut by the same rule; one list per language
//! keeps them in agreement.

/// The no-break space that binds a short word to the next one.
pub const NBSP: char = '\u{a0}';

/// Short words per primary language subtag, lowercase.
const SHORT_WORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "a", "an", "the", "of", "on", "and", "in", "to", "for", "with", "at", "by", "or",
            "from", "as",
        ],
    ),
    (
        "pt",
        &[
            "de", "da", "do", "das", "dos", "a", "o", "as", "os", "e", "em", "no", "na", "nos",
            "nas", "sobre", "para", "com", "um", "uma", "ao", "à", "por", "pelo", "pela", "ou",
        ],
    ),
    (
        "es",
        &[
            "de", "del", "el", "la", "los", "las", "lo", "y", "e", "o", "u", "en", "a", "al", "un",
            "una", "con", "por", "para", "sobre", "sin",
        ],
    ),
    (
        "fr",
        &[
            "de", "du", "des", "le", "la", "les", "l’", "d’", "et", "ou", "en", "à", "au", "aux",
            "un", "une", "sur", "pour", "par", "dans", "avec", "sans",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "des", "dem", "den", "ein", "eine", "einer", "eines", "und",
            "oder", "in", "im", "an", "am", "auf", "mit", "von", "vom", "zu", "zum", "zur", "für",
            "über", "aus", "bei",
        ],
    ),
];

/// The words that must not end a line of a title in language `tag` (its
/// primary subtag decides); empty for a language stoa has no list for.
pub fn short_words(tag: &str) -> &'static [&'static str] {
    let primary = crate::primary(tag).to_ascii_lowercase();
    SHORT_WORDS
        .iter()
        .find(|(lang, _)| *lang == primary)
        .map_or(&[], |(_, words)| words)
}

/// Whether `word` (as written, with any trailing punctuation) is one of
/// `tag`'s short words.
pub fn is_short_word(word: &str, tag: &str) -> bool {
    let word = word.to_lowercase();
    short_words(tag).contains(&word.as_str())
}

/// `title` with a no-break space after each short word of `tag` (so that a
/// line never ends on "de" or "the") and, when the last two words are short
/// enough to stand on a line together, between them (so that the last line
/// never holds a single word). Renderers set the result as the chapter's
/// printed title; the text stays the title for every other use.
pub fn bind_title(title: &str, tag: &str) -> String {
    let words: Vec<&str> = title.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out = String::with_capacity(title.len() + 8);
    for (i, word) in words.iter().enumerate() {
        out.push_str(word);
        if i + 1 == words.len() {
            break;
        }
        let last_pair = i + 2 == words.len()
            && words.len() >= 3
            && word.chars().count() + words[i + 1].chars().count() <= 16;
        if is_short_word(word, tag) || last_pair {
            out.push(NBSP);
        } else {
            out.push(' ');
        }
    }
    out
}

/// Ways to shorten `title` for a running head, longest first: the title
/// itself; the part before a colon or a dash that sets off a subtitle
/// (`Engenharia de dados: arquiteturas …` gives `Engenharia de dados`);
/// then the title cut after each word from the last to the second, never
/// after a short word of `tag` nor leaving a colon or comma at the end,
/// each with an ellipsis, none longer than [`MAX_CUT_CHARS`]. The theme
/// keeps the first that fits its line.
pub fn head_candidates(title: &str, tag: &str) -> Vec<String> {
    let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = vec![title.clone()];
    let mut push = |s: String| {
        if !s.is_empty() && !out.contains(&s) {
            out.push(s);
        }
    };
    // A main title before its subtitle is whole: no ellipsis.
    for sep in [": ", " — ", " – ", " - "] {
        if let Some(at) = title.find(sep) {
            push(trim_end_punct(&title[..at]).to_string());
            break;
        }
    }
    let words: Vec<&str> = title.split(' ').collect();
    // Only the cuts up to MAX_CUT_CHARS: ending at the first word that
    // passes it keeps this linear in the title's length.
    let mut fitting = 0;
    let mut chars = 0;
    for (n, word) in words.iter().enumerate().take(words.len().saturating_sub(1)) {
        chars += word.chars().count() + usize::from(n > 0);
        if chars > MAX_CUT_CHARS {
            break;
        }
        fitting = n + 1;
    }
    for n in (1..=fitting).rev() {
        let cut = trim_end_punct(&words[..n].join(" ")).to_string();
        let last = cut.rsplit(' ').next().unwrap_or("");
        if n > 1 && is_short_word(last, tag) {
            continue;
        }
        push(format!("{cut}{NBSP}…"));
    }
    out
}

/// The longest cut [`head_candidates`] offers, in characters: more than a
/// running head of any common page holds (an A4 line of small capitals at
/// 8pt holds about 110), and a head is read at a glance; a poster-wide page
/// gets the head cut here. The theme measures every candidate on every
/// page: offering every cut of a title of thousands of words made a build
/// take minutes.
pub const MAX_CUT_CHARS: usize = 200;

fn trim_end_punct(s: &str) -> &str {
    s.trim_end_matches([':', ';', ',', '—', '–', '-', ' ', NBSP])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_short_words_and_the_last_pair() {
        assert_eq!(
            bind_title("Diálogo sobre a Ferramenta Nova", "pt-BR"),
            "Diálogo sobre\u{a0}a\u{a0}Ferramenta\u{a0}Nova"
        );
        assert_eq!(
            bind_title("Dialogue on Labels and Truth", "en"),
            "Dialogue on\u{a0}Labels and\u{a0}Truth"
        );
        // Two words: free to break; an unknown language binds only the pair.
        assert_eq!(bind_title("Market value", "en"), "Market value");
        assert_eq!(
            bind_title("Dialogo sui maestri antichi", "it"),
            "Dialogo sui maestri\u{a0}antichi"
        );
    }

    #[test]
    fn a_long_last_pair_stays_free() {
        assert_eq!(
            bind_title("On extraordinarily incomprehensible", "en"),
            "On\u{a0}extraordinarily incomprehensible"
        );
    }

    #[test]
    fn heads_cut_at_the_colon_and_never_after_a_short_word() {
        let c = head_candidates("Engenharia de dados: arquiteturas de referência", "pt-BR");
        assert_eq!(c[0], "Engenharia de dados: arquiteturas de referência");
        assert_eq!(c[1], "Engenharia de dados");
        assert!(
            c.iter()
                .all(|s| !s.ends_with("de\u{a0}…") && !s.ends_with(":\u{a0}…"))
        );
        assert!(c.contains(&"Engenharia de dados: arquiteturas\u{a0}…".to_string()));
        let e = head_candidates("Dialogue on the New Tool", "en");
        assert_eq!(
            e,
            vec![
                "Dialogue on the New Tool",
                "Dialogue on the New\u{a0}…",
                "Dialogue\u{a0}…"
            ]
        );
    }

    #[test]
    fn a_title_of_thousands_of_words_offers_few_short_cuts() {
        let title = vec!["Word"; 2_000].join(" ");
        let c = head_candidates(&title, "en");
        assert_eq!(c[0], title);
        // The longest cut is the longest within the bound: 40 words of 4
        // letters and a space (199 characters), then the ellipsis.
        assert_eq!(c[1], format!("{}\u{a0}…", vec!["Word"; 40].join(" ")));
        assert_eq!(c.len(), 41);
        assert!(
            c[1..]
                .iter()
                .all(|s| s.chars().count() <= MAX_CUT_CHARS + 2)
        );
    }

    #[test]
    fn lists_by_primary_subtag() {
        assert!(is_short_word("Da", "pt-BR"));
        assert!(is_short_word("the", "en-GB"));
        assert!(short_words("ja").is_empty());
    }
}
