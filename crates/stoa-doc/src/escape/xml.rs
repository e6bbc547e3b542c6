//! Text for XML and HTML: element content, attribute values, or either.
//! The module's comment says which function is for what.

/// Whether `c` is dropped by every XML and HTML escaper rather than
/// written. No reader could show these characters, and each would make a
/// file invalid or at least be reported:
/// - the controls XML 1.0 forbids: C0 but tab and line feed;
/// - carriage return: XML and HTML parsers read a literal one as a line
///   feed and HTML reports `&#13;` as an error, so no spelling of it
///   survives both; in a post it is what is left of a Windows line end;
/// - DEL and the C1 controls, which XML discourages and HTML reports;
/// - the noncharacters: U+FDD0 to U+FDEF and the last two code points of
///   every plane (U+FFFE and U+FFFF among them, which XML forbids).
pub fn xml_dropped(c: char) -> bool {
    let n = c as u32;
    (n < 0x20 && c != '\t' && c != '\n')
        || (0x7f..=0x9f).contains(&n)
        || (0xfdd0..=0xfdef).contains(&n)
        || n & 0xfffe == 0xfffe
}

/// Where escaped text goes, which decides what is escaped besides `&`,
/// `<` and `>` (see the module's comment for why each exists).
#[derive(Clone, Copy)]
enum Context {
    /// Element content.
    Text,
    /// A double-quoted attribute value.
    Attribute,
    /// Content, or an attribute value quoted either way.
    Anywhere,
}

/// Appends `text` escaped for `context`.
fn push(out: &mut String, text: &str, context: Context) {
    use Context::{Anywhere, Attribute};
    for c in text.chars() {
        match (c, context) {
            ('&', _) => out.push_str("&amp;"),
            ('<', _) => out.push_str("&lt;"),
            ('>', _) => out.push_str("&gt;"),
            ('"', Attribute | Anywhere) => out.push_str("&quot;"),
            ('\'', Anywhere) => out.push_str("&#39;"),
            // A parser turns a literal tab or line feed in an attribute
            // into a space; a reference stays what it was.
            ('\t', Attribute) => out.push_str("&#9;"),
            ('\n', Attribute) => out.push_str("&#10;"),
            (c, _) if xml_dropped(c) => {}
            (c, _) => out.push(c),
        }
    }
}

/// Appends `text` as element content: `&`, `<` and `>` become references,
/// quotes, tabs and line feeds stay as they are.
pub fn push_xml_text(out: &mut String, text: &str) {
    push(out, text, Context::Text);
}

/// `text` as element content ([`push_xml_text`]).
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_xml_text(&mut out, text);
    out
}

/// Appends `text` as the value of a double-quoted attribute: `&`, `<`,
/// `>` and `"` become references, and so do tab and line feed, which a
/// parser would otherwise read as spaces. `'` stays as it is.
pub fn push_xml_attribute(out: &mut String, text: &str) {
    push(out, text, Context::Attribute);
}

/// `text` as a double-quoted attribute value ([`push_xml_attribute`]).
pub fn xml_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_xml_attribute(&mut out, text);
    out
}

/// `text` escaped for XHTML, HTML or XML content and attribute values
/// quoted either way (`epub` and `html` payloads, the download page and
/// the catalogs of `stoa-site`): `&`, `<`, `>`, `"` and `'` become
/// references. Tabs and line feeds stay as they are: in an attribute value
/// a parser reads them as spaces.
pub fn xhtml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push(&mut out, text, Context::Anywhere);
    out
}

/// The text that escaped XML `text` stands for: the references every
/// escaper here writes (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`,
/// `&#9;`, `&#10;`), `&apos;`, and any other numeric reference, read in one
/// pass, so that `&amp;lt;` stays `&lt;`. A reference that is not one is
/// kept as written. For readers of markup stoa wrote (an SVG's texts, a
/// glossary's terms); not a parser for markup from elsewhere.
pub fn xml_unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let reference = rest
            .find(';')
            .filter(|end| *end <= 12)
            .and_then(|end| Some((referenced(&rest[1..end])?, end)));
        match reference {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character a reference's name (between `&` and `;`) stands for.
fn referenced(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn unescaping_reads_each_reference_once() {
        assert_eq!(
            xml_unescape("A &amp; B &lt;i&gt; &quot;q&quot; &#39;s&apos;"),
            "A & B <i> \"q\" 's'"
        );
        assert_eq!(xml_unescape("&amp;lt; &#9;&#x41;&#10;"), "&lt; \tA\n");
        assert_eq!(
            xml_unescape("AT&T &nope; & &#xZZ; &"),
            "AT&T &nope; & &#xZZ; &"
        );
    }

    proptest! {
        #[test]
        fn unescaping_inverts_every_escaper(text in "\\PC*") {
            let kept: String = text.chars().filter(|c| !xml_dropped(*c)).collect();
            prop_assert_eq!(&xml_unescape(&xml_text(&text)), &kept);
            prop_assert_eq!(&xml_unescape(&xml_attribute(&text)), &kept);
            prop_assert_eq!(&xml_unescape(&xhtml(&text)), &kept);
        }
    }

    // The exact output for ordinary text is what each writer wrote before
    // the escapers became one: the books' bytes depend on it.
    #[test]
    fn each_context_escapes_what_it_says() {
        let text = "<b class=\"x\">Tom & 'Jerry'</b>\t\n";
        assert_eq!(
            xml_text(text),
            "&lt;b class=\"x\"&gt;Tom &amp; 'Jerry'&lt;/b&gt;\t\n"
        );
        assert_eq!(
            xml_attribute(text),
            "&lt;b class=&quot;x&quot;&gt;Tom &amp; 'Jerry'&lt;/b&gt;&#9;&#10;"
        );
        assert_eq!(
            xhtml(text),
            "&lt;b class=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;\t\n"
        );
    }

    #[test]
    fn ordinary_text_is_written_as_it_is() {
        let text = "Diálogos – “ok” ]] # $ \u{a0}\u{2028} 😀";
        for escape in [xml_text, xml_attribute, xhtml] {
            assert_eq!(escape(text), text);
        }
    }

    #[test]
    fn forbidden_characters_are_dropped_everywhere() {
        let text = "a\u{0}\u{7}\r\u{1b}\u{7f}\u{85}\u{9f}\u{fdd0}\u{fdef}\u{fffe}\u{ffff}\u{1fffe}\u{10ffff}b";
        for escape in [xml_text, xml_attribute, xhtml] {
            assert_eq!(escape(text), "ab");
        }
        // Their neighbours are characters like any other.
        let kept = "\u{a0}\u{fdcf}\u{fdf0}\u{fffd}\u{10000}\u{10fffd}";
        assert_eq!(xml_text(kept), kept);
    }

    #[test]
    fn pushing_appends() {
        let mut out = String::from("<p title=\"");
        push_xml_attribute(&mut out, "a\"b");
        out.push_str("\">");
        push_xml_text(&mut out, "c<d");
        assert_eq!(out, "<p title=\"a&quot;b\">c&lt;d");
    }

    /// Characters that matter to one of the contexts, mixed into arbitrary
    /// ones so that every case is met often.
    const SPECIAL: &[char] = &[
        '&',
        '<',
        '>',
        '"',
        '\'',
        '\t',
        '\n',
        '\r',
        ' ',
        ']',
        ';',
        '#',
        '\0',
        '\u{1}',
        '\u{b}',
        '\u{1f}',
        '\u{7f}',
        '\u{85}',
        '\u{9f}',
        '\u{a0}',
        '\u{2028}',
        '\u{fdd0}',
        '\u{fdef}',
        '\u{fffe}',
        '\u{ffff}',
        '\u{1fffe}',
        '\u{10ffff}',
    ];

    /// Arbitrary Unicode text, rich in [`SPECIAL`] characters.
    fn text() -> impl Strategy<Value = String> {
        let c = prop_oneof![3 => any::<char>(), 2 => prop::sample::select(SPECIAL)];
        prop::collection::vec(c, 0..40).prop_map(String::from_iter)
    }

    /// `text` without what every escaper drops.
    fn kept(text: &str) -> String {
        text.chars().filter(|&c| !xml_dropped(c)).collect()
    }

    /// The XML document `doc`, which must parse.
    fn parse(doc: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(doc).unwrap_or_else(|e| panic!("{doc:?} does not parse: {e}"))
    }

    /// The text an XML parser reads in `<r>{escaped}</r>`.
    fn read_text(escaped: &str) -> String {
        let source = format!("<r>{escaped}</r>");
        let doc = parse(&source);
        doc.root_element().text().unwrap_or_default().to_string()
    }

    /// The value an XML parser reads in `<r a={quote}{escaped}{quote}/>`.
    fn read_attribute(escaped: &str, quote: char) -> String {
        let source = format!("<r a={quote}{escaped}{quote}/>");
        let doc = parse(&source);
        doc.root_element()
            .attribute("a")
            .expect("the attribute")
            .to_string()
    }

    proptest! {
        #[test]
        fn text_reads_back_as_written(text in text()) {
            let out = xml_text(&text);
            prop_assert!(!out.chars().any(xml_dropped), "{out:?}");
            prop_assert_eq!(read_text(&out), kept(&text));
        }

        #[test]
        fn attributes_read_back_as_written(text in text()) {
            let out = xml_attribute(&text);
            prop_assert!(!out.chars().any(xml_dropped), "{out:?}");
            prop_assert_eq!(read_attribute(&out, '"'), kept(&text));
        }

        #[test]
        fn xhtml_reads_back_anywhere(text in text()) {
            let out = xhtml(&text);
            prop_assert!(!out.chars().any(xml_dropped), "{out:?}");
            prop_assert_eq!(read_text(&out), kept(&text));
            // Attribute-value normalization: literal whitespace is a space.
            let spaced = kept(&text).replace(['\t', '\n'], " ");
            prop_assert_eq!(read_attribute(&out, '"'), spaced.as_str());
            prop_assert_eq!(read_attribute(&out, '\''), spaced.as_str());
        }
    }
}
