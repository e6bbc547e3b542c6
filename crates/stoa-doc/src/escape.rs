//! Escaping a post's text for raw output ([`crate::Block::Raw`]): text from
//! a post must never become code. A plugin that puts words of the post (a
//! speaker's name, a term) into a raw payload passes them through these
//! first, so that `<`, `&`, `#`, `]` or `#read("/etc/passwd")` are printed,
//! not run. The SDK re-exports them as `stoa_sdk::escape`.

/// `text` escaped for XHTML or HTML content and attribute values (`epub`
/// and `html` payloads, and the download page and catalogs of
/// `stoa-site`): `&`, `<`, `>`, `"` and `'` become references, and
/// characters XML forbids or discourages (controls but tab, newline and
/// carriage return; U+FFFE and U+FFFF) are dropped.
pub fn xhtml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// `text` as a Typst string literal, quotes included: for an argument in a
/// `pdf` payload, e.g. `format!("#smallcaps({})", typst_string(name))`.
pub fn typst_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` for Typst markup (the body of a `pdf` payload): the string
/// literal as an expression, `#"..."`, ended by `;` so that what follows
/// it (say `.txt`) stays text. It prints exactly `text`.
pub fn typst_markup(text: &str) -> String {
    format!("#{};", typst_string(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(
            xhtml("<b class=\"x\">Tom & 'Jerry'</b>"),
            "&lt;b class=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(xhtml("a\u{7}b"), "ab");
        // Not XML characters: a payload holding them is not well-formed.
        assert_eq!(xhtml("a\u{FFFE}b\u{FFFF}\u{85}"), "ab");
        assert_eq!(
            typst_string("say \"hi\" \\ #x\n"),
            r#""say \"hi\" \\ #x\n""#
        );
        assert_eq!(
            typst_markup("#read(\"/etc/passwd\")"),
            r##"#"#read(\"/etc/passwd\")";"##
        );
    }
}
