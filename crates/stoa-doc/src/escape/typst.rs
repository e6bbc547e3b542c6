//! Typst string literals, and such a literal as a markup expression.

use std::fmt::Write;

/// Appends `text` to `out` as a Typst string literal, quotes included.
/// Backslash and quote are escaped, and so is every character Typst could
/// read as a line break or that no reader could see (the controls, U+2028
/// and U+2029), so the literal can never end early or start markup.
pub fn push_typst_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // U+2028 and U+2029 are line breaks to Typst but not controls.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `text` as a Typst string literal, quotes included: for an argument in
/// the PDF's source or a `pdf` payload, e.g.
/// `format!("#smallcaps({})", typst_string(name))`.
pub fn typst_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_typst_string(&mut out, text);
    out
}

/// `text` for Typst markup (the body of a `pdf` payload): the string
/// literal as an expression, `#"..."`, ended by `;` so that what follows
/// it (say `.txt`) stays text. It prints exactly `text`.
pub fn typst_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    out.push('#');
    push_typst_string(&mut out, text);
    out.push(';');
    out
}

/// Appends the character `c` to `out` as one symbol of Typst math (the
/// content of `$ … $`): a letter or digit as itself, ASCII punctuation
/// escaped with a backslash (so that `#`, `$`, `"`, `_`, `^`, `/`, `&`,
/// brackets and commas are printed, never read as code, strings, scripts,
/// fractions, alignment, groups or arguments), `-` as the minus sign
/// Typst would make of it, and a character no reader could see as a
/// space. Writers put a space between two symbols so that letters never
/// join into a name Typst would look up.
pub fn push_typst_math_symbol(out: &mut String, c: char) {
    match c {
        '-' => out.push('\u{2212}'),
        c if c.is_ascii_alphanumeric() => out.push(c),
        c if c.is_ascii_punctuation() => {
            out.push('\\');
            out.push(c);
        }
        c if c.is_control() || c.is_whitespace() => out.push(' '),
        c => out.push(c),
    }
}

// Typst's parser lives in stoa-pdf, which this crate must not depend on:
// the round trips through it are stoa-pdf's tests of these functions.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_would_end_the_literal() {
        assert_eq!(typst_string(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(
            typst_string("say \"hi\" \\ #x\n\r\t"),
            r#""say \"hi\" \\ #x\n\r\t""#
        );
        assert_eq!(typst_string(""), r#""""#);
    }

    #[test]
    fn controls_and_line_separators_are_written_as_code_points() {
        assert_eq!(
            typst_string("x\u{0}\u{7}\u{7f}\u{85}\u{2028}\u{2029}y"),
            r#""x\u{0}\u{7}\u{7f}\u{85}\u{2028}\u{2029}y""#
        );
    }

    #[test]
    fn ordinary_text_is_written_as_it_is() {
        let text = "Diálogos: ‘ok’ – $x$ @ref <l> *a* _b_ #read() [c] // \u{a0}\u{fffe}";
        assert_eq!(typst_string(text), format!("\"{text}\""));
    }

    #[test]
    fn markup_is_one_expression_ended_by_a_semicolon() {
        assert_eq!(
            typst_markup("#read(\"/etc/passwd\")"),
            r##"#"#read(\"/etc/passwd\")";"##
        );
        let mut out = String::from("#strong(");
        push_typst_string(&mut out, "a\"b");
        assert_eq!(out, r#"#strong("a\"b""#);
    }
}
