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

/// `token` cut where a line may break: after each inner `.`, `/`, `_` or
/// `-` that a letter follows. Leading separators (`--opt`, `.method`,
/// `~/.m2`) and separators before digits (`1.0.0`) never break, so options,
/// method calls and versions stay whole; no hyphen is ever added.
pub fn token_pieces(token: &str) -> Vec<&str> {
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
        assert_eq!(cut("--savepointPath"), "--savepointPath");
        assert_eq!(cut(".setParallelism(2)"), ".setParallelism(2)");
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
}
