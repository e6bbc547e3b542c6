//! Code blocks highlighted as the PDF highlights them.
//!
//! The grammars are the ones Typst uses for `raw` (two-face's syntax set,
//! looked up by the fence's language the same way), and the palette is the
//! theme's `code.tmTheme`, which the Typst template gives `raw`. Here each
//! token gets a class (`hl-keyword`, ...) instead of a colour, and the
//! theme's CSS colours the classes: reading systems can restyle them for
//! night and sepia modes, and the web edition for a dark scheme. The
//! scope selectors of [`CLASSES`] are the tmTheme's, in the same order; a
//! test holds the two (and the CSS) together.
//!
//! Each source line is a `<span class="line">`: a line too long for the
//! screen wraps with a hanging indent (the line's own indentation, as the
//! PDF keeps it) and the PDF's continuation marker in the gutter, both
//! drawn by the theme's CSS from the `iN` class that says the indentation.

use crate::xml::Xml;
use std::sync::LazyLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{
    Color, ScopeSelectors, StyleModifier, Theme, ThemeItem, ThemeSettings,
};
use syntect::parsing::{SyntaxReference, SyntaxSet};

/// The classes of highlighted tokens and the TextMate scope selectors they
/// stand for, in the order of the theme's `code.tmTheme`.
pub const CLASSES: [(&str, &str); 8] = [
    ("hl-comment", "comment, punctuation.definition.comment"),
    ("hl-string", "string, constant.other.symbol"),
    (
        "hl-keyword",
        "keyword, storage, constant.language, variable.language",
    ),
    (
        "hl-number",
        "constant.numeric, constant.character, constant.other",
    ),
    (
        "hl-type",
        "entity.name.type, entity.name.class, support.type, support.class, entity.other.inherited-class",
    ),
    (
        "hl-function",
        "entity.name.function, support.function, variable.function",
    ),
    (
        "hl-tag",
        "entity.name.tag, entity.other.attribute-name, support.type.property-name",
    ),
    (
        "hl-meta",
        "meta.annotation, storage.type.annotation, punctuation.definition.annotation, variable.parameter",
    ),
];

/// How many indentation classes (`i1` to `i16`) the theme's CSS has: a
/// deeper line wraps to the sixteenth column, as a line indented by more
/// than a third of the measure wraps to the margin in the PDF.
pub const MAX_INDENT: usize = 16;

/// The grammars, as Typst loads them for `raw`.
static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(two_face::syntax::extra_no_newlines);

/// A theme whose colours are not colours but the index of the class in
/// [`CLASSES`] plus one (in the blue channel), so that syntect's own scope
/// matching, which Typst uses too, decides each token's class.
static CLASS_THEME: LazyLock<Theme> = LazyLock::new(|| Theme {
    name: Some("stoa classes".into()),
    author: None,
    settings: ThemeSettings {
        foreground: Some(class_color(0)),
        ..ThemeSettings::default()
    },
    scopes: CLASSES
        .iter()
        .enumerate()
        .filter_map(|(i, (_, selector))| {
            Some(ThemeItem {
                scope: selector.parse::<ScopeSelectors>().ok()?,
                style: StyleModifier {
                    foreground: Some(class_color(i + 1)),
                    background: None,
                    font_style: None,
                },
            })
        })
        .collect(),
});

fn class_color(n: usize) -> Color {
    Color {
        r: 0,
        g: 0,
        b: n as u8,
        a: 0xff,
    }
}

/// The grammar for the fence's language, found as Typst finds it.
fn syntax(lang: &str) -> Option<&'static SyntaxReference> {
    SYNTAXES.find_syntax_by_token(lang)
}

/// Writes a code block: `<pre class="code"><code class="language-x">`,
/// one `<span class="line">` per source line, tokens in class spans when
/// the language is known.
pub(crate) fn code_block(lang: Option<&str>, text: &str, x: &mut Xml) {
    let class = lang.map(|l| format!("language-{l}"));
    let attr = class.as_deref().map_or(("", ""), |c| ("class", c));
    x.open("pre", &[("class", "code")]).open("code", &[attr]);
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut highlighter = lang
        .and_then(syntax)
        .map(|s| HighlightLines::new(s, &CLASS_THEME));
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let indent = line.chars().take_while(|&c| c == ' ').count();
        let indent_class = match indent.min(MAX_INDENT) {
            0 => String::from("line"),
            n => format!("line i{n}"),
        };
        x.open("span", &[("class", &indent_class)]);
        let tokens = highlighter
            .as_mut()
            .and_then(|h| tokens(line, h))
            .unwrap_or_else(|| vec![(None, line)]);
        // No break in the first characters of a line's text: a wrapped
        // `.` alone on a line says nothing.
        let lead = line.len() - line.trim_start().len() + 2;
        let mut at = 0;
        for (i, (class, piece)) in tokens.iter().enumerate() {
            let after = tokens.get(i + 1).and_then(|(_, p)| p.chars().next());
            let from = lead.saturating_sub(at);
            match class {
                Some(class) => {
                    x.open("span", &[("class", class)]);
                    breakable(piece, from, after, x);
                    x.close();
                }
                None => breakable(piece, from, after, x),
            }
            at += piece.len();
        }
        // The newline stays in the text, so that copying and reading
        // systems without the theme's CSS keep the lines.
        if lines.peek().is_some() {
            x.text("\n");
        }
        x.close();
    }
    x.close().close();
}

/// The tokens of one line with their classes; `None` when the grammar
/// fails on it (the line is then written plain).
fn tokens<'l>(
    line: &'l str,
    highlighter: &mut HighlightLines<'_>,
) -> Option<Vec<(Option<&'static str>, &'l str)>> {
    let ranges = highlighter.highlight_line(line, &SYNTAXES).ok()?;
    // Neighbours of one class become one span (a string's quotes and its
    // text, say): the pieces are consecutive slices of `line`.
    let mut out: Vec<(Option<&'static str>, &'l str)> = Vec::new();
    let mut at = 0;
    for (style, piece) in ranges {
        let class = match style.foreground.b as usize {
            0 => None,
            n => CLASSES.get(n - 1).map(|(c, _)| *c),
        };
        let end = at + piece.len();
        match out.last_mut() {
            Some((last, text)) if *last == class => *text = &line[at - text.len()..end],
            _ => out.push((class, &line[at..end])),
        }
        at = end;
    }
    Some(out)
}

/// Text with break opportunities (`<wbr>`) after the characters where a
/// long line of code breaks best: a line too long for a phone breaks
/// after `.` in `Schema.builder()`, not inside `builder`. `after` is the
/// character that follows `text` on the line, if any; no break comes
/// before byte `from`.
fn breakable(text: &str, from: usize, after: Option<char>, x: &mut Xml) {
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if i >= from && matches!(c, '.' | '/' | '(' | ',' | '=' | '&' | '?') {
            let end = i + c.len_utf8();
            let next = text[end..].chars().next().or(after);
            if next.is_some_and(|n| {
                n.is_alphanumeric() || matches!(n, '"' | '\'' | '_' | '$' | '@' | '-' | '/')
            }) {
                x.text(&text[start..end]);
                x.empty("wbr", &[]);
                start = end;
            }
        }
    }
    x.text(&text[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;

    fn html(lang: Option<&str>, text: &str, flavor: Flavor) -> String {
        let mut x = Xml::new(flavor);
        code_block(lang, text, &mut x);
        x.finish()
    }

    #[test]
    fn every_language_of_the_corpus_is_highlighted() {
        for (lang, code, class) in [
            ("java", "public class A { int x = 1; }\n", "hl-keyword"),
            ("sql", "SELECT name FROM t WHERE id = 1;\n", "hl-keyword"),
            ("yaml", "state.backend: rocksdb # comment\n", "hl-tag"),
            ("bash", "flink run -d job.jar # start it\n", "hl-comment"),
            ("sh", "echo \"hi\"\n", "hl-string"),
            ("python", "def f(x):\n    return 1\n", "hl-function"),
            ("rust", "fn main() { let s = \"x\"; }\n", "hl-string"),
        ] {
            let out = html(Some(lang), code, Flavor::Epub);
            assert!(out.contains(&format!("class=\"{class}\"")), "{lang}: {out}");
            assert!(out.starts_with(&format!(
                "<pre class=\"code\"><code class=\"language-{lang}\">"
            )));
        }
    }

    #[test]
    fn text_is_kept_whole_and_escaped() {
        let code = "if (a < b && c) {\n    x.y(\"<&>\");\n}\n";
        for lang in [Some("java"), None, Some("no-such-language")] {
            let out = html(lang, code, Flavor::Epub);
            let text: String = strip_tags(&out)
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&");
            assert_eq!(text, code.trim_end(), "{lang:?}");
        }
    }

    fn strip_tags(s: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        for c in s.chars() {
            match c {
                '<' => inside = true,
                '>' => inside = false,
                c if !inside => out.push(c),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn lines_say_their_indentation_and_long_names_break_after_dots() {
        let out = html(
            Some("java"),
            "a()\n    KafkaRecordSerializationSchema.builder()\n",
            Flavor::Epub,
        );
        assert!(out.contains("<span class=\"line\">"));
        assert!(out.contains("<span class=\"line i4\">"));
        assert!(
            out.contains("KafkaRecordSerializationSchema</span>.<wbr/>"),
            "{out}"
        );
        let lead = html(Some("java"), "    .build()\n", Flavor::Epub);
        assert!(!lead.contains(".<wbr/>"), "{lead}");
        let deep = html(None, &format!("{}x\n", " ".repeat(40)), Flavor::Html);
        assert!(deep.contains("line i16"));
        assert!(!deep.contains("<wbr/>"));
    }

    #[test]
    fn plain_code_has_lines_and_no_classes() {
        let out = html(None, "a\n\nb\n", Flavor::Epub);
        assert_eq!(
            out,
            "<pre class=\"code\"><code><span class=\"line\">a\n</span><span class=\"line\">\n</span><span class=\"line\">b</span></code></pre>"
        );
    }

    /// The theme's tmTheme (which the PDF uses) has the selectors of
    /// [`CLASSES`] in the same order, and the CSS of the EPUB colours each
    /// class with the tmTheme's colour: the formats agree.
    #[test]
    fn the_tmtheme_and_the_css_agree_with_the_classes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../themes/classic");
        let file = std::fs::File::open(dir.join("code.tmTheme")).unwrap();
        let theme =
            syntect::highlighting::ThemeSet::load_from_reader(&mut std::io::BufReader::new(file))
                .unwrap();
        assert_eq!(theme.scopes.len(), CLASSES.len());
        let css = std::fs::read_to_string(dir.join("epub.css")).unwrap();
        let web = std::fs::read_to_string(dir.join("web.css")).unwrap();
        for (item, (class, selector)) in theme.scopes.iter().zip(CLASSES) {
            assert_eq!(item.scope, selector.parse().unwrap(), "{class}");
            let c = item.style.foreground.unwrap();
            let hex = format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
            let rule = format!(".{class} {{ color: {hex};");
            assert!(css.contains(&rule), "epub.css lacks `{rule}`");
            assert!(web.contains(&rule), "web.css lacks `{rule}`");
        }
    }
}
