//! Raw HTML in a post, read as HTML where it is HTML. A tag is HTML when
//! its name is an HTML element written in lower case, as every HTML author
//! writes it: `<sup>`, `<img src=…>`, `<div align="center">`. Anything
//! else that merely looks like a tag (`List<String>`, `Map<Object>`,
//! `<T>`) is the text the author typed, and a comment disappears.
//!
//! Inline tags are read here one at a time, as pulldown-cmark hands them
//! over; the builder pairs them. Whole HTML blocks go to stoa-html-md's
//! parser (`build.rs`).

/// What one piece of raw HTML is.
#[derive(Debug, PartialEq, Eq)]
pub enum RawHtml {
    /// `<!-- ... -->`: dropped.
    Comment,
    /// A start or end tag of an HTML element.
    Tag(Tag),
    /// Anything else: shown literally.
    Text(String),
}

/// One tag as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The element's name, lower case.
    pub name: String,
    /// The attributes in order, their values with character references decoded.
    pub attrs: Vec<(String, String)>,
    /// `</name>`.
    pub end: bool,
}

impl Tag {
    /// The value of the attribute `name` (attribute names are case-blind).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the element never has content (`<br>`, `<img>`).
    pub fn is_void(&self) -> bool {
        VOID.contains(&self.name.as_str())
    }

    /// The language a `<span lang="…">` gives its words: a BCP 47 tag
    /// whose primary subtag is 2 or 3 letters, e.g. `la`, `grc`, `en-GB`.
    pub fn lang(&self) -> Option<&str> {
        let tag = self.attr("lang")?;
        let mut subtags = tag.split('-');
        let primary = subtags.next()?;
        let primary_ok =
            (2..=3).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
        let rest_ok = subtags
            .all(|s| (1..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric()));
        (primary_ok && rest_ok).then_some(tag)
    }
}

/// Elements without content.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// The elements of HTML (the living standard's index, with the obsolete
/// ones blogs still carry: `center`, `font`, `tt`, `strike`, `big`, …).
const ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "bdi",
    "bdo",
    "big",
    "blink",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "img",
    "input",
    "ins",
    "kbd",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "marquee",
    "menu",
    "meta",
    "meter",
    "nav",
    "nobr",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "script",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
];

/// Elements whose content is no text of the post: scripts, styles and
/// forms. They are dropped, with a warning.
pub const DROPPED: &[&str] = &[
    "script", "style", "noscript", "template", "form", "input", "button", "select", "textarea",
    "option", "optgroup", "datalist", "output", "progress", "meter", "canvas", "dialog", "head",
    "title", "meta", "link", "base",
];

/// Whether `name`, as written, is an HTML element: lower case and known.
pub fn is_element(name: &str) -> bool {
    ELEMENTS.binary_search(&name).is_ok()
}

/// Classifies one inline HTML fragment (a tag or a comment).
pub fn classify(html: &str) -> RawHtml {
    let trimmed = html.trim();
    if trimmed.starts_with("<!--") && trimmed.ends_with("-->") {
        return RawHtml::Comment;
    }
    match parse_tag(trimmed) {
        Some((tag, len)) if len == trimmed.len() => RawHtml::Tag(tag),
        _ => RawHtml::Text(html.to_string()),
    }
}

/// The HTML tag at the start of `s` and its length in bytes, if `s`
/// starts with a well-formed tag of an HTML element.
pub fn parse_tag(s: &str) -> Option<(Tag, usize)> {
    let b = s.as_bytes();
    let mut i = 1;
    if b.first() != Some(&b'<') {
        return None;
    }
    let end = b.get(1) == Some(&b'/');
    if end {
        i += 1;
    }
    let name_len = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    let name = &s[i..i + name_len];
    if !is_element(name) {
        return None;
    }
    i += name_len;
    let mut attrs = Vec::new();
    loop {
        let spaces = b[i..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        i += spaces;
        match b.get(i)? {
            b'>' => break,
            b'/' if b.get(i + 1) == Some(&b'>') => {
                i += 1;
                break;
            }
            _ if spaces == 0 || end => return None,
            _ => {}
        }
        let key_len = b[i..]
            .iter()
            .take_while(|c| !c.is_ascii_whitespace() && !b"\"'>/=<".contains(c))
            .count();
        if key_len == 0 {
            return None;
        }
        let key = s[i..i + key_len].to_ascii_lowercase();
        i += key_len;
        let before_eq = b[i..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        let mut value = String::new();
        if b.get(i + before_eq) == Some(&b'=') {
            i += before_eq + 1;
            i += b[i..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
            let (raw, len) = match b.get(i)? {
                q @ (b'"' | b'\'') => {
                    let close = s[i + 1..].find(*q as char)?;
                    (&s[i + 1..i + 1 + close], close + 2)
                }
                _ => {
                    let len = b[i..]
                        .iter()
                        .take_while(|c| !c.is_ascii_whitespace() && !b"\"'=<>`".contains(c))
                        .count();
                    if len == 0 {
                        return None;
                    }
                    (&s[i..i + len], len)
                }
            };
            value = stoa_doc::escape::xml_unescape(raw);
            i += len;
        }
        attrs.push((key, value));
    }
    let tag = Tag {
        name: name.to_string(),
        attrs,
        end,
    };
    Some((tag, i + 1))
}

/// The tags of an HTML block, in order (comments and text skipped).
pub fn tags(html: &str) -> impl Iterator<Item = Tag> + '_ {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let at = rest.find('<')?;
            rest = &rest[at..];
            if let Some(after) = rest.strip_prefix("<!--") {
                rest = after.find("-->").map_or("", |e| &after[e + 3..]);
                continue;
            }
            match parse_tag(rest) {
                Some((tag, len)) => {
                    rest = &rest[len..];
                    return Some(tag);
                }
                None => rest = &rest[1..],
            }
        }
    })
}

/// Whether an HTML block is HTML stoa should read: its first tag (after
/// comments and blank space) is an HTML element's.
pub fn starts_with_element(html: &str) -> bool {
    let mut rest = html.trim_start();
    while let Some(after) = rest.strip_prefix("<!--") {
        rest = after
            .find("-->")
            .map_or("", |e| after[e + 3..].trim_start());
    }
    parse_tag(rest).is_some()
}

/// The HTML without its comments (an unclosed one runs to the end).
pub fn strip_comments(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        rest = after.find("-->").map_or("", |e| &after[e + 3..]);
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(html: &str) -> Tag {
        match classify(html) {
            RawHtml::Tag(tag) => tag,
            other => panic!("{html}: {other:?}"),
        }
    }

    #[test]
    fn the_element_list_is_sorted_for_its_search() {
        assert!(ELEMENTS.windows(2).all(|w| w[0] < w[1]));
        assert!(VOID.iter().all(|v| is_element(v)));
        assert!(DROPPED.iter().all(|v| is_element(v)));
    }

    #[test]
    fn reads_tags_with_their_attributes() {
        let img = tag(r#"<img src="a b.png" alt='A &amp; B' width=300 hidden />"#);
        assert_eq!(img.name, "img");
        assert_eq!(img.attr("src"), Some("a b.png"));
        assert_eq!(img.attr("ALT"), Some("A & B"));
        assert_eq!(img.attr("width"), Some("300"));
        assert_eq!(img.attr("hidden"), Some(""));
        assert!(img.is_void() && !img.end);
        assert!(tag("</sup>").end);
        assert_eq!(tag("<br/>").name, "br");
        assert_eq!(tag("<a\nhref=\"x\"\n>").attr("href"), Some("x"));
        assert_eq!(classify("<!-- hidden -->\n"), RawHtml::Comment);
    }

    #[test]
    fn reads_a_phrase_language() {
        assert_eq!(tag(r#"<span lang="la">"#).lang(), Some("la"));
        assert_eq!(tag("<span lang='en-GB'>").lang(), Some("en-GB"));
        assert_eq!(tag("<span lang=grc class=x>").lang(), Some("grc"));
        for none in [
            r#"<span lang="l">"#,
            r#"<span lang="la-">"#,
            "<span title=la>",
        ] {
            assert_eq!(tag(none).lang(), None, "{none}");
        }
    }

    #[test]
    fn what_is_not_an_html_tag_is_text() {
        for text in [
            "<String>",
            "<Object>",
            "<T>",
            "<DIV>",
            "<div",
            "<div x=\"unclosed>",
            "<sup>2",
            "</sup x>",
            "<b<i>",
        ] {
            assert_eq!(classify(text), RawHtml::Text(text.into()), "{text}");
        }
    }

    #[test]
    fn finds_the_tags_of_a_block() {
        let names: Vec<String> = tags("<!-- <b> --><div>a < b <Map> <img src=x></div>")
            .map(|t| format!("{}{}", if t.end { "/" } else { "" }, t.name))
            .collect();
        assert_eq!(names, ["div", "img", "/div"]);
        assert!(starts_with_element("<!-- c -->\n <center>x"));
        assert!(!starts_with_element("<String> x"));
        assert_eq!(strip_comments("a<!-- {% x %} -->b<!-- open"), "ab");
    }
}
