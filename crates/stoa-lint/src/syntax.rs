//! Syntax of another tool left in a post: a Hugo or Zola shortcode
//! (`{{< figure >}}`, `{{ youtube(id="…") }}`), a Liquid tag or output
//! (`{% include %}`, `{{ site.title }}`), or the mark `stoa import` leaves
//! on what it could not convert. No book shows them as they were meant.

use crate::scan::{Block, Kind};
use crate::{Hit, Lint};

/// The comment `stoa import` puts before what it could not convert.
const NOT_CONVERTED: &str = "stoa-import: not converted:";

/// Reports each leftover construct of `blocks` (code is left alone: a post
/// about Hugo shows shortcodes in code). `text` is the whole file.
pub(crate) fn leftover_syntax(blocks: &[Block], text: &str, hits: &mut Vec<Hit>) {
    for (i, block) in blocks.iter().enumerate() {
        let end = blocks.get(i + 1).map_or(text.len(), |b| b.start);
        let source = text.get(block.start..end).unwrap_or("");
        if let Some(at) = source.find(NOT_CONVERTED) {
            let what = source[at + NOT_CONVERTED.len()..]
                .split("-->")
                .next()
                .unwrap_or("")
                .trim();
            hits.push(Hit {
                lint: Lint::ToolSyntax,
                offset: block.start + at,
                message: format!("`stoa import` could not convert `{what}`; the block after this comment shows what it was"),
                hint: "rewrite it in Markdown, then remove the comment and the block".into(),
            });
        }
        if matches!(block.kind, Kind::Code | Kind::Html) {
            continue;
        }
        for (at, what) in constructs(&block.text) {
            hits.push(Hit {
                lint: Lint::ToolSyntax,
                offset: block.source_of(at),
                message: format!("`{}` is {what}, which no book shows", excerpt(&block.text[at..])),
                hint: "write it in Markdown (an image, a code block, a link), or import the post with `stoa import`".into(),
            });
        }
    }
}

/// Each construct's offset in `text` and what it is.
fn constructs(text: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(rel) = text[i..].find('{') {
        let at = i + rel;
        let rest = &text[at..];
        let found = if rest.starts_with("{{<") || rest.starts_with("{{%") {
            rest.find(">}}")
                .or_else(|| rest.find("%}}"))
                .map(|_| "a Hugo shortcode")
        } else if rest.starts_with("{%") {
            rest.find("%}").map(|_| "a Liquid or Zola tag")
        } else if let Some(inner) = rest.strip_prefix("{{") {
            let end = inner.find("}}");
            end.and_then(|end| {
                let expr = inner[..end].trim().trim_matches('-').trim();
                let name_end = expr
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(expr.len());
                let name = &expr[..name_end];
                if name.is_empty() || name.starts_with('.') {
                    None
                } else if expr[name_end..].starts_with('(') {
                    Some("a Zola shortcode")
                } else if name.contains('.') || expr[name_end..].trim_start().starts_with('|') {
                    Some("a Liquid expression")
                } else {
                    None
                }
            })
        } else {
            None
        };
        if let Some(what) = found {
            out.push((at, what));
            let close = rest.find("}}").or_else(|| rest.find("%}")).unwrap_or(1);
            i = at + close.max(1);
        } else {
            i = at + 1;
        }
    }
    out
}

fn excerpt(text: &str) -> String {
    let end = text
        .find("}}")
        .map(|e| e + 2)
        .or_else(|| text.find("%}").map(|e| e + 2))
        .unwrap_or(text.len());
    let t: String = text[..end].chars().take(60).collect();
    if t.len() < end { format!("{t}…") } else { t }
}

#[cfg(test)]
mod tests {
    use crate::{ids, test_post};

    #[test]
    fn shortcodes_and_liquid_outside_code_are_found() {
        let f = test_post(
            "",
            "See {{< figure src=\"a.png\" >}} and {% include x.html %}.\n\nAt {{ site.title }} and {{ youtube(id=\"x\") }}.\n",
            "en",
        );
        assert_eq!(
            ids(&f),
            ["tool-syntax", "tool-syntax", "tool-syntax", "tool-syntax"]
        );
        assert!(
            f[0].message
                .contains("`{{< figure src=\"a.png\" >}}` is a Hugo shortcode"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn code_and_plain_braces_are_fine() {
        let body = "```\n{{< figure src=\"a.png\" >}}\n```\n\nA set {a, b} and {{ plain }} text.\n";
        assert!(test_post("", body, "en").is_empty());
    }

    #[test]
    fn the_import_mark_is_found() {
        let f = test_post(
            "",
            "<!-- stoa-import: not converted: {{< notice >}} -->\n\n> **notice**\n",
            "en",
        );
        assert_eq!(ids(&f), ["tool-syntax"]);
        assert!(
            f[0].message.contains("could not convert `{{< notice >}}`"),
            "{}",
            f[0].message
        );
    }
}
