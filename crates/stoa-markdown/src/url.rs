//! Link targets as valid URLs: Markdown lets an author write
//! `[a](<my notes.md>)` or a target with `|`, which no URL may hold. The
//! characters no URL allows are percent-encoded here, once, so that every
//! format writes the same, valid address; what a URL may hold (`/`, `?`,
//! the first `#`, an existing `%XX`) is kept as written.

/// `url` with every character a URL forbids percent-encoded as UTF-8.
pub fn encode(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    let mut seen_hash = false;
    let bytes = url.as_bytes();
    for (i, c) in url.char_indices() {
        let keep = match c {
            '#' if !seen_hash => {
                seen_hash = true;
                true
            }
            '%' => {
                bytes.len() > i + 2
                    && bytes[i + 1].is_ascii_hexdigit()
                    && bytes[i + 2].is_ascii_hexdigit()
            }
            'a'..='z' | 'A'..='Z' | '0'..='9' => true,
            '-' | '.' | '_' | '~' | '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';'
            | '=' | ':' | '@' | '/' | '?' | '[' | ']' => true,
            _ => false,
        };
        if keep {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// `%20` and friends back to characters (what [`encode`] undoes, and what
/// any address may hold); a malformed escape stays as it is.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {

    #[test]
    fn decode_undoes_encode_and_keeps_what_is_malformed() {
        assert_eq!(decode(&encode("my notes|2.md")), "my notes|2.md");
        assert_eq!(decode("a%2"), "a%2");
        assert_eq!(decode("%zz%C3%A9"), "%zzé");
    }
    use super::{decode, encode};

    #[test]
    fn forbidden_characters_are_encoded_and_the_rest_kept() {
        assert_eq!(encode("https://x.org/a b|c"), "https://x.org/a%20b%7Cc");
        assert_eq!(encode("#sec-1"), "#sec-1");
        assert_eq!(encode("a#b#c"), "a#b%23c");
        assert_eq!(
            encode("https://x.org/?q=1&r=%20"),
            "https://x.org/?q=1&r=%20"
        );
        assert_eq!(encode("100%"), "100%25");
        assert_eq!(
            encode("ação\"<>{}^`\\\u{1}"),
            "a%C3%A7%C3%A3o%22%3C%3E%7B%7D%5E%60%5C%01"
        );
        assert_eq!(encode("mailto:me@x.org"), "mailto:me@x.org");
    }
}
