//! Lints on the words of a post: phrases that only make sense on a web page,
//! and sentences written in another language than the post's.

use crate::scan::{Block, Kind};
use crate::{Hit, Lint};

/// The byte offset of `phrase` in `text` where it stands as whole words.
pub(crate) fn find_words(text: &str, phrase: &str) -> Option<usize> {
    let is_word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut from = 0;
    while let Some(i) = text[from..].find(phrase) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        if !is_word(before) && !is_word(after) {
            return Some(at);
        }
        from = at + phrase.len().max(1);
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    None
}

/// Phrases that point at a web page's controls or layout, in lower case.
const WEB_ONLY: &[&str] = &[
    "click here",
    "click on",
    "click the",
    "click this",
    "clicking on",
    "clicking the",
    "tap here",
    "scroll down",
    "scroll up",
    "at the top of the page",
    "at the bottom of the page",
    "top of this page",
    "bottom of this page",
    "in the sidebar",
    "language switch",
    "clique aqui",
    "clique no",
    "clique na",
    "clique em",
    "clicar",
    "clicando",
    "toque aqui",
    "no topo da página",
    "no topo desta página",
    "no fim da página",
    "no final da página",
    "no rodapé da página",
    "role para baixo",
    "role a página",
    "na barra lateral",
    "seletor de idioma",
    "haga clic",
    "cliquez",
    "klicken",
];

/// Blocks whose words a reader reads (code is not prose).
fn prose(blocks: &[Block]) -> impl Iterator<Item = &Block> {
    blocks
        .iter()
        .filter(|b| !matches!(b.kind, Kind::Code | Kind::Html | Kind::Figure))
}

/// "Click", "at the top of the page", a `PT | EN` switch: words about a web
/// page that a book's reader has no way to follow.
pub(crate) fn web_only(blocks: &[Block], hits: &mut Vec<Hit>) {
    for block in prose(blocks) {
        let lower = block.text.to_lowercase();
        let same_len = lower.len() == block.text.len();
        let at = |i: usize| {
            if same_len {
                block.source_of(i)
            } else {
                block.start
            }
        };
        let mut found: Vec<(usize, String)> = WEB_ONLY
            .iter()
            .filter_map(|p| find_words(&lower, p).map(|i| (i, format!("“{p}”"))))
            .collect();
        if let Some(i) = language_switch(&block.text) {
            found.push((i, "a language switch (`XX | YY`)".into()));
        }
        // One finding per place: "click here" holds "click".
        found.sort();
        found.dedup_by_key(|(i, _)| *i);
        for (i, what) in found {
            hits.push(Hit {
                lint: Lint::WebOnly,
                offset: at(i),
                message: format!(
                    "{what} speaks of a web page, which a book's reader does not have"
                ),
                hint: "reword for the book, or silence it if it is the author's voice".into(),
            });
        }
    }
}

/// Two upper-case language codes around a bar, as in "the PT | EN switch".
fn language_switch(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let code = |i: usize| {
        bytes
            .get(i..i + 2)
            .is_some_and(|b| b.iter().all(u8::is_ascii_uppercase))
            && !bytes.get(i + 2).is_some_and(u8::is_ascii_alphanumeric)
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
    };
    text.match_indices(" | ")
        .map(|(i, _)| i)
        .find(|&i| i >= 2 && code(i - 2) && code(i + 3))
        .map(|i| i - 2)
}

/// Very common short words of each language stoa knows, for telling a
/// sentence's language by the share of them (a cheap, well-known detector).
const STOPWORDS: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "and", "of", "to", "is", "that", "it", "in", "was", "for", "with", "you",
            "this", "are", "be", "not", "but", "have", "what", "which", "they", "we", "he", "she",
            "his", "her", "there", "from", "by", "an", "or", "on", "at", "do", "does", "my", "i",
            "who", "will", "would", "can", "about", "all", "one", "if", "has", "had", "been", "no",
        ],
    ),
    (
        "pt",
        &[
            "o", "os", "as", "do", "da", "dos", "das", "não", "é", "um", "uma", "em", "no", "na",
            "para", "com", "por", "se", "mas", "mais", "como", "eu", "ele", "ela", "isso", "está",
            "são", "foi", "também", "já", "muito", "quando", "nos", "pelo", "pela", "você", "seu",
            "sua", "que", "de", "ao", "nas", "nem", "isto", "aquilo", "sobre",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "los", "las", "de", "que", "y", "en", "un", "una", "es", "no", "por",
            "con", "para", "se", "lo", "pero", "más", "como", "del", "al", "su", "sus", "está",
            "son", "fue", "también", "ya", "muy", "cuando", "yo", "él", "ella", "eso", "usted",
            "hay", "sobre",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "de", "des", "du", "un", "une", "et", "est", "que", "qui", "en",
            "dans", "pour", "pas", "ne", "sur", "avec", "au", "aux", "ce", "cette", "il", "elle",
            "je", "nous", "vous", "mais", "plus", "comme", "sont", "été", "aussi", "très", "quand",
            "se", "son", "sa",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "zu", "den", "dem", "mit",
            "von", "auf", "für", "es", "ich", "sie", "er", "wir", "auch", "sich", "des", "im",
            "wie", "aber", "noch", "nur", "oder", "wenn", "so", "war", "sind", "hat", "dass",
            "kann",
        ],
    ),
];

/// Fewest words in a sentence worth judging; shorter ones (a name, a
/// title, a borrowed phrase) are too short to tell.
const MIN_WORDS: usize = 6;
/// Fewest stopwords of the other language.
const MIN_HITS: usize = 3;

/// The language of `sentence` among those of [`STOPWORDS`], when it is
/// clearly another than `own`: at least [`MIN_HITS`] stopwords of it, and
/// more than three times those of `own`.
pub(crate) fn other_language(sentence: &str, own: &str) -> Option<&'static str> {
    let words: Vec<String> = sentence
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.len() < MIN_WORDS {
        return None;
    }
    let count = |list: &[&str]| words.iter().filter(|w| list.contains(&w.as_str())).count();
    let own_hits = STOPWORDS
        .iter()
        .find(|(l, _)| *l == own)
        .map_or(0, |(_, list)| count(list));
    let (lang, hits) = STOPWORDS
        .iter()
        .filter(|(l, _)| *l != own)
        .map(|(l, list)| (*l, count(list)))
        .max_by_key(|&(_, n)| n)?;
    (hits >= MIN_HITS && hits > 3 * own_hits).then_some(lang)
}

/// Sentences of `text`, with their byte offsets: cut after `.`, `!`, `?`
/// or `…` followed by a space, and at line breaks between paragraphs.
fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end_here = match c {
            '\n' => true,
            '.' | '!' | '?' | '…' => chars.peek().is_some_and(|&(_, n)| n.is_whitespace()),
            _ => false,
        };
        if end_here {
            let end = i + c.len_utf8();
            out.push((start, &text[start..end]));
            start = end;
        }
    }
    out.push((start, &text[start..]));
    out.retain(|(_, s)| !s.trim().is_empty());
    out
}

/// A sentence in another language than the post's: in a translation, a
/// sentence left untranslated.
pub(crate) fn foreign_sentences(blocks: &[Block], lang: &str, hits: &mut Vec<Hit>) {
    let own = lang.split('-').next().unwrap_or(lang).to_ascii_lowercase();
    if !STOPWORDS.iter().any(|(l, _)| *l == own) {
        return;
    }
    for block in prose(blocks) {
        for (at, sentence) in sentences(&block.text) {
            let Some(other) = other_language(sentence, &own) else {
                continue;
            };
            // Marked `<span lang="…">` by the author: meant.
            let middle = at + sentence.len() / 2;
            if block.declared.iter().any(|r| r.contains(&middle)) {
                continue;
            }
            let lead = sentence.trim_start();
            let at = at + (sentence.len() - lead.len());
            hits.push(Hit {
                lint: Lint::ForeignSentence,
                offset: block.source_of(at),
                message: format!(
                    "this sentence looks {other}, in a post in {lang}: “{}”",
                    short(lead)
                ),
                hint: "translate it, or silence it if it is quoted in its own language on purpose"
                    .into(),
            });
        }
    }
}

/// The first words of a sentence, for a message.
fn short(sentence: &str) -> String {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    if words.len() <= 8 {
        words.join(" ")
    } else {
        format!("{} …", words[..8].join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ids, test_post};

    #[test]
    fn words_are_found_whole() {
        assert_eq!(find_words("please click it", "click"), Some(7));
        assert_eq!(find_words("clickbait", "click"), None);
        assert_eq!(find_words("a clicking sound", "click"), None);
    }

    #[test]
    fn web_phrases_are_found() {
        let f = test_post("", "Use the PT | EN switch at the top of the page.\n", "en");
        assert_eq!(ids(&f), ["web-only", "web-only"]);
        assert_eq!(f[0].column, 9);
        let f = test_post("", "Clique no link para ler.\n", "pt-BR");
        assert_eq!(ids(&f), ["web-only"]);
    }

    #[test]
    fn book_prose_is_not_web_only() {
        let f = test_post(
            "",
            "He heard the click of the door at the top of the stairs.\n",
            "en",
        );
        assert!(f.is_empty(), "{f:?}");
        assert!(test_post("", "The top of the mountain.\n", "en").is_empty());
        assert!(test_post("", "```\nclick here\n```\n", "en").is_empty());
    }

    #[test]
    fn a_sentence_in_english_in_a_portuguese_post_is_found() {
        let body = "Eu gosto de ler livros sobre a história do Brasil. \
                    He was the one who taught me what it is to read.\n";
        let f = test_post("", body, "pt-BR");
        assert_eq!(ids(&f), ["foreign-sentence"]);
        assert!(f[0].message.contains("looks en"), "{}", f[0].message);
        assert_eq!(f[0].column, 52);
    }

    #[test]
    fn sentences_in_the_posts_language_pass() {
        let body = "Eu gosto de ler livros sobre a história do Brasil. \
                    Ele foi quem me ensinou o que é ler com calma.\n";
        assert!(test_post("", body, "pt-BR").is_empty());
        let body = "He was the one who taught me what it is to read. \
                    I have read the book twice and it is good.\n";
        assert!(test_post("", body, "en").is_empty());
        // Marked as English by the author.
        let body = "Eu gosto de ler livros sobre a história do Brasil. \
                    <span lang=\"en\">He was the one who taught me what it is to read.</span>\n";
        assert!(test_post("", body, "pt-BR").is_empty());
        // "no" is English too.
        let f = test_post(
            "",
            "Deterministic: no sleeps, no real clock, no network.\n",
            "en",
        );
        assert!(f.is_empty(), "{f:?}");
        // Too short to tell.
        assert!(test_post("", "Carpe diem, the Romans said.\n", "en").is_empty());
    }
}
