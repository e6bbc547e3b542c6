//! Raw output from plugins ([`stoa_doc::Block::Raw`], [`stoa_doc::Inline::Raw`])
//! for the EPUB (`epub`, an XHTML fragment) and the web edition (`html`).
//!
//! A payload is parsed as XML (so it must be well-formed even for the web
//! edition) and checked against an allowlist of elements and attributes: no
//! script, no event handlers, no element that loads a resource (whose file
//! the EPUB's manifest would lack), no `javascript:` link, and, for a raw
//! inline, phrasing elements only (a `div` inside a `p` would break the
//! page). What passes is written again by this crate in the edition's
//! dialect, so a `<span/>` becomes `<span></span>` on the web and the
//! output is the same whatever spelling the plugin used.

use crate::Flavor;
use stoa_doc::escape::{push_xml_attribute, push_xml_text};

const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";
const EPUB_NS: &str = "http://www.idpf.org/2007/ops";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Elements allowed inside a sentence (a raw inline).
const PHRASING: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "del", "dfn", "em", "i", "ins",
    "kbd", "mark", "q", "rp", "rt", "ruby", "s", "samp", "small", "span", "strong", "sub", "sup",
    "time", "u", "var", "wbr",
];

/// Elements allowed in a raw block besides [`PHRASING`].
const FLOW: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "caption",
    "col",
    "colgroup",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
];

/// Elements written as `<x/>` (XHTML) or `<x>` (HTML), never with content.
const VOID: &[&str] = &["br", "col", "hr", "wbr"];

/// Attributes allowed on any element (besides `aria-*` and `data-*`).
const ATTRIBUTES: &[&str] = &[
    "class",
    "id",
    "title",
    "lang",
    "dir",
    "role",
    "href",
    "colspan",
    "rowspan",
    "scope",
    "headers",
    "abbr",
    "datetime",
    "start",
    "reversed",
    "value",
    "open",
    "translate",
];

/// The format name a flavour's raw nodes carry: `epub` or `html`.
pub fn format_of(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::Epub => "epub",
        Flavor::Html => "html",
    }
}

/// Checks a raw payload for `flavor` and returns it written in that
/// dialect; `inline` for a raw inline. The error says what is wrong, for a
/// message that names the plugin and the post.
pub fn render(payload: &str, flavor: Flavor, inline: bool) -> Result<String, String> {
    let what = format!("raw `{}` output", format_of(flavor));
    let wrapped =
        format!("<stoa-raw xmlns=\"{XHTML_NS}\" xmlns:epub=\"{EPUB_NS}\">{payload}</stoa-raw>");
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(&wrapped, options)
        .map_err(|e| format!("{what} is not a well-formed XHTML fragment: {e}"))?;
    let mut out = String::new();
    for child in doc.root_element().children() {
        write_node(child, flavor, inline, &what, &mut out, 1)?;
    }
    Ok(out)
}

fn write_node(
    node: roxmltree::Node,
    flavor: Flavor,
    inline: bool,
    what: &str,
    out: &mut String,
    depth: usize,
) -> Result<(), String> {
    // Elements nested thousands deep overflowed the stack of this
    // recursion (a crash, not an error): refuse them at the tree's limit.
    if depth > stoa_doc::MAX_TREE_DEPTH {
        return Err(format!(
            "{what} nests elements more than {} deep",
            stoa_doc::MAX_TREE_DEPTH
        ));
    }
    if node.is_text() {
        push_xml_text(out, node.text().unwrap_or_default());
        return Ok(());
    }
    if !node.is_element() {
        // Comments and processing instructions say nothing to a reader.
        return Ok(());
    }
    let tag = node.tag_name();
    let name = tag.name();
    if tag.namespace() != Some(XHTML_NS) {
        return Err(format!(
            "{what} may hold only XHTML elements, not `{name}` of another namespace"
        ));
    }
    let allowed = PHRASING.contains(&name) || (!inline && FLOW.contains(&name));
    if !allowed {
        let why = match name {
            "script" | "noscript" => "scripts are not allowed in books",
            "img" | "audio" | "video" | "source" | "iframe" | "object" | "embed" | "link" => {
                "raw output may not load files (add images to the tree instead)"
            }
            "style" => "style rules belong in the plugin's `styles` hook",
            _ if inline && FLOW.contains(&name) => "a raw inline may hold only phrasing elements",
            _ => "the element is not on stoa's list for raw output",
        };
        return Err(format!("{what} may not contain <{name}>: {why}"));
    }
    let element = name.to_string();
    out.push('<');
    out.push_str(&element);
    for attr in node.attributes() {
        let local = attr.name();
        let written = match attr.namespace() {
            None => {
                let ok = ATTRIBUTES.contains(&local)
                    || local.starts_with("aria-")
                    || local.starts_with("data-");
                if !ok {
                    let why = if local.starts_with("on") {
                        "event handlers are scripts"
                    } else {
                        "the attribute is not on stoa's list for raw output"
                    };
                    return Err(format!(
                        "{what} may not use the attribute `{local}` on <{name}>: {why}"
                    ));
                }
                if local == "href" && !safe_href(attr.value()) {
                    return Err(format!(
                        "{what} links to `{}`: a raw link may go to `#id`, http(s) or mailto only",
                        attr.value()
                    ));
                }
                local.to_string()
            }
            Some(EPUB_NS) if local == "type" && flavor == Flavor::Epub => "epub:type".into(),
            Some(XML_NS) if local == "lang" => match flavor {
                Flavor::Epub => "xml:lang".into(),
                Flavor::Html => "lang".into(),
            },
            Some(_) => {
                return Err(format!(
                    "{what} may not use the namespaced attribute `{local}` on <{name}>"
                ));
            }
        };
        out.push(' ');
        out.push_str(&written);
        out.push_str("=\"");
        push_xml_attribute(out, attr.value());
        out.push('"');
    }
    if VOID.contains(&name) {
        if node.has_children() {
            return Err(format!("{what}: <{name}> may not have content"));
        }
        out.push_str(match flavor {
            Flavor::Epub => "/>",
            Flavor::Html => ">",
        });
        return Ok(());
    }
    out.push('>');
    for child in node.children() {
        write_node(child, flavor, inline, what, out, depth + 1)?;
    }
    out.push_str("</");
    out.push_str(&element);
    out.push('>');
    Ok(())
}

/// A link a raw fragment may hold: to an id, or to the web by a safe scheme.
fn safe_href(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    lower.starts_with('#')
        || lower.starts_with("https://")
        || lower.starts_with("http://")
        || lower.starts_with("mailto:")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_fragment_is_written_in_each_dialect() {
        let payload = r#"<p class="end" epub:type="z3998:fiction"><span/>A<br/></p><hr/>"#;
        assert_eq!(
            render(payload, Flavor::Epub, false).unwrap(),
            r#"<p class="end" epub:type="z3998:fiction"><span></span>A<br/></p><hr/>"#
        );
        let html = r#"<p class="end" xml:lang="la"><span/>A<br/></p><hr/>"#;
        assert_eq!(
            render(html, Flavor::Html, false).unwrap(),
            r#"<p class="end" lang="la"><span></span>A<br></p><hr>"#
        );
    }

    #[test]
    fn text_is_escaped_again() {
        assert_eq!(
            render("a &lt;b&gt; &amp; c", Flavor::Epub, true).unwrap(),
            "a &lt;b&gt; &amp; c"
        );
    }

    #[test]
    fn elements_nested_too_deep_are_refused_not_a_stack_overflow() {
        let deep = |n: usize| format!("<p>{}x{}</p>", "<span>".repeat(n), "</span>".repeat(n));
        let why = render(&deep(10_000), Flavor::Epub, false).unwrap_err();
        assert!(why.contains("more than 520 deep"), "{why}");
        assert!(render(&deep(500), Flavor::Html, false).is_ok());
    }

    #[test]
    fn bad_fragments_are_refused_with_a_reason() {
        for (payload, inline, says) in [
            ("<p>open", false, "well-formed"),
            ("<p>a</b>", false, "well-formed"),
            ("&nbsp;", false, "well-formed"),
            ("<script>alert(1)</script>", false, "scripts"),
            ("<p onclick=\"x()\">a</p>", false, "event handlers"),
            ("<img src=\"/etc/passwd\"/>", false, "load files"),
            ("<div>a</div>", true, "phrasing"),
            ("<a href=\"javascript:x()\">a</a>", true, "mailto"),
            (
                "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                false,
                "namespace",
            ),
            ("<style>p{}</style>", false, "styles"),
            ("<hr>x</hr>", false, "content"),
        ] {
            let err = render(payload, Flavor::Epub, inline).unwrap_err();
            assert!(err.contains(says), "{payload}: {err}");
        }
        let err = render("<b epub:type=\"x\">a</b>", Flavor::Html, true).unwrap_err();
        assert!(err.contains("namespaced"), "{err}");
    }

    /// Each flavour writes the raw nodes of its own format, blocks and
    /// inlines, and drops the others'.
    #[test]
    fn each_flavour_keeps_its_own_raw_nodes() {
        use stoa_doc::{Block, Book, Chapter, IdIndex, Inline, NotesPlan};
        let chapter = Chapter {
            slug: "a".into(),
            blocks: vec![
                Block::Paragraph {
                    content: vec![
                        Inline::text("x"),
                        Inline::raw("epub", "<em>E-IN</em>"),
                        Inline::raw("html", "<em>H-IN</em>"),
                        Inline::raw("pdf", "*P-IN*"),
                    ],
                },
                Block::raw("epub", "<aside>E-BLOCK</aside>"),
                Block::raw("html", "<aside>H-BLOCK</aside>"),
                Block::raw("pdf", "P-BLOCK"),
            ],
            ..Chapter::default()
        };
        let book: Book = stoa_doc::serde_json::from_value(stoa_doc::serde_json::json!({
            "version": 1, "id": "b", "lang": "en",
            "meta": {"title": "T", "author": "A", "identifier": "u", "date": "2024-01-01",
                     "modified": "2024-01-01T00:00:00Z"},
            "labels": {}, "chapters": [chapter],
        }))
        .unwrap();
        let notes = NotesPlan::of(&book);
        let ids = IdIndex::of(&book);
        let epub = crate::Markup::new(&book, &notes, &ids, Flavor::Epub).chapter(0);
        assert!(epub.contains("x<em>E-IN</em></p>"), "{epub}");
        assert!(epub.contains("<aside>E-BLOCK</aside>"), "{epub}");
        let html = crate::Markup::new(&book, &notes, &ids, Flavor::Html).chapter(0);
        assert!(html.contains("x<em>H-IN</em></p>"), "{html}");
        assert!(html.contains("<aside>H-BLOCK</aside>"), "{html}");
        for (page, others) in [(&epub, ["H-", "P-"]), (&html, ["E-", "P-"])] {
            for other in others {
                assert!(!page.contains(other), "{other} in {page}");
            }
        }
    }
}
