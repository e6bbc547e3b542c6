//! Typst's half of the proof for `stoa_doc::escape`: its Typst functions
//! checked with Typst's own parser, which stoa-doc cannot depend on. Every
//! string becomes a literal that denotes exactly that string, and markup
//! that is one string expression, whatever follows it.

use proptest::prelude::*;
use stoa_doc::escape::{typst_markup, typst_string};
use typst::syntax::{SyntaxKind, SyntaxNode, ast, parse, parse_code};

/// Characters that end, break or escape a literal, or start markup or
/// code, mixed into arbitrary ones so that every case is met often.
const SPECIAL: &[char] = &[
    '"', '\\', '\n', '\r', '\t', '\0', '\u{b}', '\u{c}', '\u{1b}', '\u{7f}', '\u{85}', '\u{2028}',
    '\u{2029}', '#', '$', '@', '<', '>', '*', '_', '[', ']', '(', ')', '{', '}', '/', ';', '`',
    'u', '\u{fffe}',
];

/// Arbitrary Unicode text, rich in [`SPECIAL`] characters.
fn text() -> impl Strategy<Value = String> {
    let c = prop_oneof![3 => any::<char>(), 2 => prop::sample::select(SPECIAL)];
    prop::collection::vec(c, 0..40).prop_map(String::from_iter)
}

/// The children of `root` that are not trivia (spaces, comments).
fn significant(root: &SyntaxNode) -> Vec<&SyntaxNode> {
    root.children().filter(|n| !n.kind().is_trivia()).collect()
}

/// The string `node` denotes, which must be a string literal.
fn denoted(node: &SyntaxNode) -> String {
    let s: ast::Str = node.cast().expect("a string literal");
    s.get().to_string()
}

/// Parses `source` (with `parser`), which must have no error.
fn parsed(source: &str, parser: fn(&str) -> SyntaxNode) -> SyntaxNode {
    let root = parser(source);
    let (errors, _) = root.errors_and_warnings();
    assert!(errors.is_empty(), "{source:?}: {errors:?}");
    root
}

/// What may follow a payload's text in markup and would extend an
/// expression that did not end where it should.
const AFTER: &[&str] = &["", ".len()", "(1)", "[x]", " text", "\n", ";"];

proptest! {
    #[test]
    fn a_literal_denotes_its_text(text in text()) {
        let lit = typst_string(&text);
        let root = parsed(&lit, parse_code);
        let nodes = significant(&root);
        prop_assert_eq!(nodes.len(), 1, "{:?} is more than one literal", lit);
        prop_assert_eq!(nodes[0].kind(), SyntaxKind::Str);
        prop_assert_eq!(denoted(nodes[0]), text);
    }

    #[test]
    fn markup_is_one_string_expression(text in text(), after in prop::sample::select(AFTER)) {
        let source = format!("{}{after}", typst_markup(&text));
        let root = parsed(&source, parse);
        let kinds: Vec<SyntaxKind> = root.children().take(3).map(|n| n.kind()).collect();
        prop_assert_eq!(
            kinds,
            [SyntaxKind::Hash, SyntaxKind::Str, SyntaxKind::Semicolon],
            "{:?}",
            source
        );
        let string = root.children().nth(1).expect("the literal");
        prop_assert_eq!(denoted(string), text);
    }
}

#[test]
fn hostile_payloads_survive_a_round_trip() {
    for text in [
        "#read(\"/etc/passwd\")",
        "\\\"]; #panic() //",
        "$x$ @Override <String> *a* _b_ /* c */",
        "line\u{2028}sep\u{2029}\u{85}end\r\n\t",
        "",
        "caf\u{e9} \u{a0}?",
    ] {
        let root = parsed(&typst_string(text), parse_code);
        assert_eq!(denoted(significant(&root)[0]), text);
    }
}
