//! "Did you mean": the closest of the names the user could have meant, for
//! every name stoa looks up (keys, post slugs, plugins, themes, languages).

/// The candidate closest to `word`, when it is close enough to be a typo:
/// a normalised Damerau–Levenshtein similarity of at least 0.6 (one slip in
/// a short name, a few in a long one), the same name in another case, a
/// name cut short, or one slip in a name of two or three letters.
pub fn closest<'a, I, S>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a S>,
    S: AsRef<str> + 'a + ?Sized,
{
    let folded = word.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for candidate in candidates {
        let candidate = candidate.as_ref();
        if candidate == word {
            continue;
        }
        let lower = candidate.to_lowercase();
        let mut score = strsim::normalized_damerau_levenshtein(&folded, &lower);
        // A name cut short (`foot` for `footnote`) is a typo too.
        let (short, long) = if folded.len() < lower.len() {
            (&folded, &lower)
        } else {
            (&lower, &folded)
        };
        if short.chars().count() >= 3 && long.starts_with(short.as_str()) {
            score = score.max(0.6);
        }
        // One slip in a two- or three-letter name (`em` for `en`).
        if strsim::damerau_levenshtein(&folded, &lower) == 1 && short.chars().count() >= 2 {
            score = score.max(0.6);
        }
        if score >= 0.6 && best.is_none_or(|(b, c)| score > b || (score == b && candidate < c)) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `did you mean `x`?` for a hint, or `None`.
pub fn did_you_mean<'a, I, S>(word: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a S>,
    S: AsRef<str> + 'a + ?Sized,
{
    closest(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or "expected
/// `a` or `b`", "unknown variant ...", "unknown key ..."): the unknown name
/// and the closest of the names quoted after it, to say "did you mean".
pub fn unknown_name(message: &str) -> Option<(String, Option<String>)> {
    let rest = ["unknown field `", "unknown variant `", "unknown key `"]
        .iter()
        .find_map(|lead| message.find(lead).map(|i| &message[i + lead.len()..]))?;
    let end = rest.find('`')?;
    let word = &rest[..end];
    let expected: Vec<&str> = rest[end + 1..].split('`').skip(1).step_by(2).collect();
    Some((
        word.to_string(),
        closest(word, &expected).map(str::to_string),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_word() {
        let keys = ["headings", "title", "first-use", "appendix"];
        assert_eq!(closest("headng", &keys), Some("headings"));
        assert_eq!(closest("frist-use", &keys), Some("first-use"));
        assert_eq!(closest("Title", &keys), Some("title"));
        assert_eq!(closest("em", &["en", "pt-BR"]), Some("en"));
    }

    #[test]
    fn serde_messages_name_the_unknown_key_and_its_neighbour() {
        let m = "unknown field `headng`, expected one of `headings`, `title`, `first-use`";
        assert_eq!(
            unknown_name(m),
            Some(("headng".into(), Some("headings".into())))
        );
        let m = "unknown variant `foot`, expected `footnote` or `link`";
        assert_eq!(
            unknown_name(m),
            Some(("foot".into(), Some("footnote".into())))
        );
        let m = "unknown field `zzz`, expected `title`";
        assert_eq!(unknown_name(m), Some(("zzz".into(), None)));
        assert_eq!(unknown_name("missing field `title`"), None);
        let m = "unknown key `mdoe` in [plugins.footnotes]";
        assert_eq!(unknown_name(m), Some(("mdoe".into(), None)));
    }

    #[test]
    fn unrelated_words_find_nothing() {
        let keys = ["headings", "title", "first-use", "appendix"];
        assert_eq!(closest("colour", &keys), None);
        assert_eq!(closest("title", &keys), None, "an exact match is no typo");
        let none: [&str; 0] = [];
        assert_eq!(closest("x", &none), None);
    }

    #[test]
    fn ties_go_to_the_first_in_order_of_name() {
        assert_eq!(closest("abcd", &["abce", "abca"]), Some("abca"));
    }
}
