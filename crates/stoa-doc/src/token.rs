//! Technical tokens in prose (`--savepointPath`, `high-availability.dir`):
//! the role that marks them and where a line may break inside one, shared
//! by the Markdown stage that finds them and every renderer that sets them.

use crate::{Inline, Role};

/// The role of the span that holds a technical token.
pub const TOKEN_ROLE: &str = "token";

/// The class the token's span carries, for themes.
pub const TOKEN_CLASS: &str = "tok";

/// Whether `inline` is a technical token's span.
pub fn is_token(inline: &Inline) -> bool {
    matches!(inline, Inline::Span { role: Some(Role::Other(r)), .. } if r == TOKEN_ROLE)
}

/// The text of a technical token's span that begins with `@` (stoa-markdown
/// marks `@name` as one, in case it is a handle): what a pass that reads
/// `@key` in the text (citations, cross-references) must read too.
pub fn at_token(inline: &Inline) -> Option<String> {
    if !is_token(inline) {
        return None;
    }
    let text = crate::inline_text(inline);
    text.starts_with('@').then_some(text)
}

/// `text` onto `out` as text inlines, its line breaks given back as soft
/// breaks: what a pass that rewrote a run's text as one string puts back.
pub fn push_text_lines(text: &str, out: &mut Vec<Inline>) {
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push(Inline::SoftBreak);
        }
        if !line.is_empty() {
            out.push(Inline::text(line));
        }
    }
}

/// `token` cut where a line may break: after each inner `.`, `/`, `_` or
/// `-` that a letter follows. Leading separators (`--opt`, `.method`,
/// `~/.m2`) and separators before digits (`1.0.0`) never break, so options,
/// method calls and versions stay whole; no hyphen is ever added. A long
/// camelCase piece (see [`MIN_HUMPED`]) may also break where a capital
/// follows a small letter: such a name has nothing else to break after, and
/// a justified line ending before it would be left with holes.
pub fn token_pieces(token: &str) -> Vec<&str> {
    separated_pieces(token)
        .into_iter()
        .flat_map(humps)
        .collect()
}

/// The shortest piece cut at its humps, and the fewest letters left on
/// either side of a hump cut (`number|OfTask|Slots`, never `getX|Value`).
pub const MIN_HUMPED: (usize, usize) = (12, 4);

/// `piece` cut before each capital that follows a small letter, when it is
/// long enough and each part keeps at least four characters.
fn humps(piece: &str) -> Vec<&str> {
    let (shortest, side) = MIN_HUMPED;
    let chars: Vec<(usize, char)> = piece.char_indices().collect();
    if chars.len() < shortest {
        return vec![piece];
    }
    let mut parts = Vec::new();
    let (mut start, mut start_char) = (0, 0);
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        if chars[i - 1].1.is_lowercase()
            && c.is_uppercase()
            && i - start_char >= side
            && chars.len() - i >= side
        {
            parts.push(&piece[start..at]);
            (start, start_char) = (at, i);
        }
    }
    parts.push(&piece[start..]);
    parts
}

/// `token` cut after its inner separators (see [`token_pieces`]).
fn separated_pieces(token: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut leading = true;
    let mut chars = token.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let separator = matches!(c, '.' | '/' | '_' | '-');
        leading &= separator || c == '~';
        if let Some(&(next_at, next)) = chars.peek()
            && separator
            && !leading
            && next.is_ascii_alphabetic()
        {
            pieces.push(&token[start..next_at]);
            start = next_at;
        }
    }
    pieces.push(&token[start..]);
    pieces
}

#[cfg(test)]
mod tests {
    use super::token_pieces;

    #[test]
    fn tokens_break_after_inner_separators_before_letters_only() {
        let cut = |s: &str| token_pieces(s).join("|");
        assert_eq!(cut("--savepoint"), "--savepoint");
        assert_eq!(cut(".setParallelism(2)"), ".set|Parallelism(2)");
        assert_eq!(cut(".keyBy(0)"), ".keyBy(0)");
        assert_eq!(
            cut("high-availability.storageDir"),
            "high-|availability.|storageDir"
        );
        assert_eq!(cut("/opt/flink"), "/opt/|flink");
        assert_eq!(cut("~/.m2"), "~/.m2");
        assert_eq!(cut("1.0.0"), "1.0.0");
        assert_eq!(cut("flink-s3-fs"), "flink-|s3-|fs");
        assert_eq!(cut("a_b"), "a_|b");
        assert_eq!(cut(""), "");
    }

    #[test]
    fn long_camel_case_names_break_at_their_humps_short_ones_never() {
        let cut = |s: &str| token_pieces(s).join("|");
        assert_eq!(cut("numberOfTaskSlots"), "number|OfTask|Slots");
        assert_eq!(
            cut("KafkaRecordSerializationSchema"),
            "Kafka|Record|Serialization|Schema"
        );
        assert_eq!(cut("processElement"), "process|Element");
        // Under twelve letters, or a part under four: whole.
        assert_eq!(cut("ValueState"), "ValueState");
        assert_eq!(cut("getXValueOfIt"), "getXValue|OfIt");
        assert_eq!(cut("allowedLateness"), "allowed|Lateness");
        assert_eq!(cut("--savepointPath"), "--savepoint|Path");
        assert_eq!(
            cut("high-availability.storageDir"),
            "high-|availability.|storageDir"
        );
    }
}
