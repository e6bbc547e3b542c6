//! Whitespace as HTML shows it: read by the converter (alt texts,
//! captions, titles) and by the writer of the Markdown alike, so it sits
//! below both.

/// Runs of HTML whitespace (space, tab, line feed, form feed, carriage
/// return) as one space, as a browser shows them.
pub(crate) fn fold_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}') {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    out
}
