//! Metadata text (titles, summaries, tags, the author) goes into XML, the
//! PDF's metadata and file listings; characters XML 1.0 forbids make an
//! EPUB unreadable. Line breaks and tabs, which a multi-line TOML string
//! brings in innocently, become spaces; other control characters and
//! noncharacters are refused, since no reader could show them.

/// The first character of `text` that no metadata may hold.
pub fn forbidden(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        let n = c as u32;
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
            || (0xfdd0..=0xfdef).contains(&n)
            || n & 0xfffe == 0xfffe
    })
}

/// `text` with line breaks and tabs as single spaces.
pub fn one_line(text: &str) -> String {
    if !text.contains(['\t', '\n', '\r']) {
        return text.to_string();
    }
    text.split(['\t', '\n', '\r'])
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The error message for `key` holding `c`.
pub fn message(key: &str, c: char) -> (String, String) {
    (
        format!(
            "`{key}` holds the control character U+{:04X}, which no book format allows",
            c as u32
        ),
        "remove it (it is invisible in most editors; retype the text around it)".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_found_and_breaks_folded() {
        assert_eq!(forbidden("a\u{1}b"), Some('\u{1}'));
        assert_eq!(forbidden("a\u{85}b"), Some('\u{85}'));
        assert_eq!(forbidden("a\u{fffe}"), Some('\u{fffe}'));
        assert_eq!(forbidden("Ação — “x”\n"), None);
        assert_eq!(one_line("A long\n  title\tthere"), "A long title there");
    }
}
