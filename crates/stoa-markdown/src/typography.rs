//! Typographic care that Markdown's smart punctuation does not give.

/// No-break space.
const NBSP: char = '\u{a0}';

/// Binds a space to the punctuation after it, so that no line starts with
/// `?`, `!`, `:`, `;`, `»` or a dash. Portuguese writers (this author among
/// them) often put a space before `?` and `!`; it stays, but it no longer
/// breaks. A space after `«` is bound too.
pub fn bind_punctuation(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let binds_next = matches!(next, Some('?' | '!' | ':' | ';' | '»' | '—' | '–'));
        let after_guillemet = prev == Some('«');
        if c == ' ' && (binds_next || after_guillemet) {
            out.push(NBSP);
        } else {
            out.push(c);
        }
    }
    out
}

/// Typographic quotes, dashes and ellipses for plain text that is not
/// Markdown (titles, summaries, descriptions), with the rules Markdown's smart
/// punctuation uses in prose, then [`bind_punctuation`].
pub fn smarten(text: &str) -> String {
    let text = text
        .replace("---", "—")
        .replace("--", "–")
        .replace("...", "…");
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let opens =
            i == 0 || chars[i - 1].is_whitespace() || "([{—–-/\u{a0}“‘".contains(chars[i - 1]);
        match c {
            '"' if opens => out.push('“'),
            '"' => out.push('”'),
            '\'' if opens => out.push('‘'),
            '\'' => out.push('’'),
            c => out.push(c),
        }
    }
    bind_punctuation(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smartens_plain_text() {
        assert_eq!(
            smarten(r#"Torture <Book> & "Friends""#),
            "Torture <Book> & “Friends”"
        );
        assert_eq!(
            smarten("It's 'quoted' -- and... \"x\" ?"),
            "It’s ‘quoted’\u{a0}– and… “x”\u{a0}?"
        );
    }

    #[test]
    fn binds_space_before_question_and_exclamation() {
        assert_eq!(bind_punctuation("Será ?"), "Será\u{a0}?");
        assert_eq!(bind_punctuation("Sim !! Não ??"), "Sim\u{a0}!! Não\u{a0}??");
    }

    #[test]
    fn binds_dashes_and_guillemets() {
        assert_eq!(bind_punctuation("isto — aquilo"), "isto\u{a0}— aquilo");
        assert_eq!(bind_punctuation("« oui »"), "«\u{a0}oui\u{a0}»");
    }

    #[test]
    fn leaves_ordinary_spaces() {
        assert_eq!(bind_punctuation("a b. c?"), "a b. c?");
    }
}
