//! Typst string literals: the only way text from a book enters the source.

use std::fmt::Write;

/// Appends `text` to `out` as a Typst string literal. Backslash, quote and
/// every character Typst could read as a line break are escaped, so the
/// literal can never end early or start markup.
pub(crate) fn push_str_lit(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // U+2028 and U+2029 are line breaks to Typst but not control chars.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `text` as a Typst string literal.
pub(crate) fn str_lit(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_str_lit(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use typst::syntax::{SyntaxKind, parse_code};

    /// Parses the literal as Typst code and returns the string it denotes.
    fn round_trip(text: &str) -> String {
        let lit = str_lit(text);
        let root = parse_code(&lit);
        assert!(
            root.errors_and_warnings().0.is_empty(),
            "{lit} does not parse"
        );
        let node = root
            .children()
            .find(|n| n.kind() == SyntaxKind::Str)
            .unwrap_or_else(|| panic!("{lit} is not one string literal"));
        let s: typst::syntax::ast::Str = node.cast().expect("a string");
        s.get().to_string()
    }

    #[test]
    fn escapes_what_would_end_the_literal() {
        assert_eq!(str_lit(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(str_lit("x\ny\u{7}"), r#""x\ny\u{7}""#);
    }

    #[test]
    fn every_payload_survives_a_round_trip() {
        for text in [
            "#read(\"/etc/passwd\")",
            "\\\"]; #panic() //",
            "$x$ @Override <String> *a* _b_ /* c */",
            "line\u{2028}sep\u{2029}\u{85}end\r\n\t",
            "",
            "caf\u{e9} \u{a0}?",
        ] {
            assert_eq!(round_trip(text), text);
        }
    }
}
