//! The citation syntax, pandoc's: `[@key]`, `[@key, p. 12]`,
//! `[see @a, ch. 2; @b]`, `[-@key]` (the year alone) and, in running text,
//! `@key` (the author's name as part of the sentence).

/// One citation: the items of one pair of brackets, or one `@key` in the
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cite {
    /// The works cited, in the order written.
    pub items: Vec<CiteItem>,
    /// `@key` in running text ("Plato (1992) says"), not in brackets.
    pub narrative: bool,
}

/// One work cited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CiteItem {
    /// The bibliography key.
    pub key: String,
    /// Where the key begins in the text parsed, in bytes (for errors).
    pub offset: usize,
    /// Words before the key: `see` in `[see @a]`.
    pub prefix: String,
    /// Where in the work: `p. 12` in `[@a, p. 12]`.
    pub locator: Option<String>,
    /// `-@key`: the year without the author, who is named in the sentence.
    pub suppress_author: bool,
}

/// A bracket that looks like a citation but is not one, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the mistake is in the text parsed, in bytes.
    pub offset: usize,
    /// What is wrong and what to write.
    pub message: String,
}

/// Whether `c` may appear inside a key. Keys begin with a letter, digit or
/// `_`; `:`, `.`, `-` and `/` are kept only between such characters (so
/// that the full stop ending a sentence is not part of the key).
pub fn is_key_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_inner_key_char(c: char) -> bool {
    matches!(c, ':' | '.' | '-' | '/' | '+')
}

/// The length in bytes of the key at the start of `text`, 0 if none.
pub fn key_len(text: &str) -> usize {
    let mut end = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_key_char(c) {
            end = i + c.len_utf8();
        } else if end > 0 && is_inner_key_char(c) {
            match chars.peek() {
                Some(&(_, next)) if is_key_char(next) => {}
                _ => break,
            }
        } else {
            break;
        }
    }
    end
}

/// Parses the inside of a bracketed citation (`see @a, p. 12; @b`).
/// `None` when the text is not a citation at all (no `@` where a key
/// begins): the brackets then stay text, as Markdown has them.
pub fn parse(text: &str) -> Option<Result<Cite, SyntaxError>> {
    let looks_like_cite = text
        .split(';')
        .next()
        .is_some_and(|first| first.trim_start().trim_start_matches('-').starts_with('@'))
        || text.contains(" @");
    if !looks_like_cite {
        return None;
    }
    let mut items = Vec::new();
    let mut start = 0;
    for part in text.split(';') {
        items.push(item(part, start));
        start += part.len() + 1;
    }
    Some(
        items
            .into_iter()
            .collect::<Result<_, _>>()
            .map(|items| Cite {
                items,
                narrative: false,
            }),
    )
}

/// One `prefix @key, locator` part, `start` bytes into the whole text.
fn item(part: &str, start: usize) -> Result<CiteItem, SyntaxError> {
    let at = part.find('@').ok_or_else(|| SyntaxError {
        offset: start,
        message: format!(
            "`{}` in a citation has no `@key`: separate works with `;`, each with its key, as in [@a, p. 3; @b]",
            part.trim()
        ),
    })?;
    let (before, rest) = (&part[..at], &part[at + 1..]);
    let suppress_author = before.trim_end().ends_with('-');
    let prefix = before.trim_end().trim_end_matches('-').trim();
    let len = key_len(rest);
    if len == 0 {
        return Err(SyntaxError {
            offset: start + at,
            message: "`@` is not followed by a key: write the bibliography key right after it, as in [@plato1992]"
                .to_string(),
        });
    }
    let key = &rest[..len];
    let after = rest[len..].trim();
    let locator = match after.strip_prefix(',') {
        Some(locator) if !locator.trim().is_empty() => Some(locator.trim().to_string()),
        _ if after.is_empty() => None,
        _ => {
            return Err(SyntaxError {
                offset: start + at + 1 + len,
                message: format!(
                    "`{after}` after @{key}: put a comma before a locator, as in [@{key}, p. 12]"
                ),
            });
        }
    };
    Ok(CiteItem {
        key: key.to_string(),
        offset: start + at + 1,
        prefix: prefix.to_string(),
        locator,
        suppress_author,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<(String, String, Option<String>, bool)> {
        parse(text)
            .expect("a citation")
            .expect("parses")
            .items
            .into_iter()
            .map(|i| (i.key, i.prefix, i.locator, i.suppress_author))
            .collect()
    }

    #[test]
    fn reads_keys_prefixes_and_locators() {
        assert_eq!(items("@plato"), [("plato".into(), "".into(), None, false)]);
        assert_eq!(
            items("see @a:1, p. 12; -@b.c"),
            [
                ("a:1".into(), "see".into(), Some("p. 12".into()), false),
                ("b.c".into(), "".into(), None, true),
            ]
        );
    }

    #[test]
    fn key_stops_before_a_sentence_full_stop() {
        assert_eq!(key_len("plato."), 5);
        assert_eq!(key_len("smith-jones:2020, p"), 16);
        assert_eq!(key_len("é2"), "é2".len());
        assert_eq!(key_len(" x"), 0);
    }

    #[test]
    fn brackets_without_keys_are_not_citations() {
        assert_eq!(parse("see the notes"), None);
        assert_eq!(parse("x"), None);
        assert_eq!(parse("mail me at a@b.org"), None);
    }

    #[test]
    fn mistakes_say_where_and_what_to_write() {
        let error = parse("@a p. 3").unwrap().unwrap_err();
        assert_eq!(error.offset, 2);
        assert!(error.message.contains("comma"), "{}", error.message);
        let error = parse("@a; see also").unwrap().unwrap_err();
        assert_eq!(error.offset, 3);
        let error = parse("@ a").unwrap().unwrap_err();
        assert_eq!(error.offset, 0);
    }
}
