//! Escaping for HTML and XML text and attributes, and percent-encoding for hrefs.

/// Escapes text for element content and double- or single-quoted attributes, in
/// HTML and XML alike. The characters XML forbids or discourages are dropped
/// ([`stoa_doc::escape::xml_dropped`]), so that a stray one in a description
/// cannot make the catalog unparsable. The same escaping plugins use for raw
/// output ([`stoa_doc::escape::xhtml`]).
pub fn text(s: &str) -> String {
    stoa_doc::escape::xhtml(s)
}

/// Percent-encodes a relative path for an href: every byte but the unreserved
/// characters and `/` (the separator), so spaces, `#`, `?` and non-ASCII names work.
pub fn href(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_markup_and_quotes() {
        assert_eq!(
            text(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn text_keeps_unicode_and_drops_forbidden_controls() {
        assert_eq!(text("Diálogos\u{0}\u{1b} – “ok”\n"), "Diálogos – “ok”\n");
    }

    #[test]
    fn text_does_not_double_escape_in_one_pass() {
        assert_eq!(text("&amp;"), "&amp;amp;");
    }

    #[test]
    fn href_encodes_everything_but_unreserved_and_slashes() {
        assert_eq!(
            href("dialogues/dialogues-pt-BR.epub"),
            "dialogues/dialogues-pt-BR.epub"
        );
        assert_eq!(href("a b/ç#?.pdf"), "a%20b/%C3%A7%23%3F.pdf");
        assert_eq!(href("x\"<y>.pdf"), "x%22%3Cy%3E.pdf");
    }
}
