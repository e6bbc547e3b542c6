//! The glossary appendix as an EPUB Dictionaries and Glossaries 1.0
//! glossary: the appendix XHTML already marks its entries (`<dt
//! epub:type="glossterm">` holding a `<dfn>`, then `<dd
//! epub:type="glossdef">`); this module adds the Search Key Map, which
//! tells a reading system which words look an entry up, and the manifest
//! properties that name both documents (`glossary`, and `search-key-map
//! glossary`). A book without a glossary gets nothing of this.

use stoa_doc::escape::xml_unescape;

/// The Search Key Map's name inside `OEBPS/`.
pub(crate) const SEARCH_KEY_MAP: &str = "search-key-map.xml";

/// Its media type (EPUB Dictionaries and Glossaries 1.0, §2.5).
pub(crate) const MEDIA_TYPE: &str = "application/vnd.epub.search-key-map+xml";

/// Adds the manifest properties of a glossary whose document is
/// `glossary` (relative to `OEBPS/`) to those found for each document:
/// `glossary` on the document, `search-key-map glossary` on its map.
pub(crate) fn mark(properties: &mut Vec<(String, String)>, glossary: &str) {
    match properties.iter_mut().find(|(name, _)| name == glossary) {
        Some((_, found)) => found.push_str(" glossary"),
        None => properties.push((glossary.to_string(), "glossary".into())),
    }
    properties.push((SEARCH_KEY_MAP.into(), "search-key-map glossary".into()));
}

/// One entry of the appendix: the id of its `<dt>` and its term as text.
#[derive(Debug, PartialEq)]
pub(crate) struct Entry {
    pub id: String,
    pub term: String,
}

/// The entries of a glossary XHTML document, in document order: every
/// `<dt>` typed `glossterm` that has an id. Read from the written XHTML so
/// that each key group points to an id the document really has.
pub(crate) fn entries(xhtml: &str) -> Vec<Entry> {
    let mut found = Vec::new();
    for chunk in xhtml.split("<dt ").skip(1) {
        let Some((tag, rest)) = chunk.split_once('>') else {
            continue;
        };
        if !tag.contains("epub:type=\"glossterm\"") {
            continue;
        }
        let Some(id) = attribute(tag, "id") else {
            continue;
        };
        let content = rest.split("</dt>").next().unwrap_or_default();
        let term = xml_unescape(&strip_tags(content)).trim().to_string();
        if !term.is_empty() {
            found.push(Entry {
                id: xml_unescape(id),
                term,
            });
        }
    }
    found
}

/// The value of attribute `name` in a start tag's text.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let pattern = format!(" {name}=\"");
    let (_, after) = tag.split_once(&pattern)?;
    after.split_once('"').map(|(value, _)| value)
}

/// The text of some markup, its tags left out.
fn strip_tags(markup: &str) -> String {
    let mut text = String::with_capacity(markup.len());
    let mut in_tag = false;
    for c in markup.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

/// The Search Key Map of a glossary document `href` in language `lang`:
/// one key group per entry, matching the term and its other forms.
/// `None` when the glossary has no entry (the map must have a group).
pub(crate) fn search_key_map(href: &str, lang: &str, entries: &[Entry]) -> Option<String> {
    if entries.is_empty() {
        return None;
    }
    let attr = stoa_doc::escape::xml_attribute;
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<search-key-map xmlns=\"http://www.idpf.org/2007/ops\" xml:lang=\"{}\">\n",
        attr(lang)
    );
    for entry in entries {
        xml.push_str(&format!(
            "  <search-key-group href=\"{}#{}\">\n    <match value=\"{}\"",
            attr(href),
            attr(&entry.id),
            attr(&entry.term)
        ));
        let others = forms(&entry.term, lang);
        let others: Vec<_> = others.iter().filter(|f| **f != entry.term).collect();
        if others.is_empty() {
            xml.push_str("/>\n");
        } else {
            xml.push('>');
            for form in others {
                xml.push_str(&format!("\n      <value value=\"{}\"/>", attr(form)));
            }
            xml.push_str("\n    </match>\n");
        }
        xml.push_str("  </search-key-group>\n");
    }
    xml.push_str("</search-key-map>\n");
    Some(xml)
}

/// The forms a reader may look `term` up by, in language `lang`: the term,
/// its plural, and both in lower case, each once, the term first.
///
/// The plural follows the regular rules of English and Portuguese and is
/// given only for a one-word term (a phrase's plural depends on its
/// grammar: "cenhos franzidos", but "dias de festa"); other languages get
/// the lower-case form only. A wrong guess costs nothing: a form no one
/// types is never matched.
pub(crate) fn forms(term: &str, lang: &str) -> Vec<String> {
    let plural = stoa_doc::words::plural(term, lang);
    let mut as_written = vec![term.to_string()];
    as_written.extend(plural);
    let lower = as_written
        .iter()
        .map(|f| f.to_lowercase())
        .collect::<Vec<_>>();
    let mut found = Vec::new();
    for form in as_written.into_iter().chain(lower) {
        if !found.contains(&form) {
            found.push(form);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_forms() {
        assert_eq!(forms("oracle", "en"), ["oracle", "oracles"]);
        assert_eq!(forms("city", "en-GB"), ["city", "cities"]);
        assert_eq!(forms("day", "en"), ["day", "days"]);
        assert_eq!(forms("portico", "en"), ["portico", "porticos"]);
        assert_eq!(forms("box", "en"), ["box", "boxes"]);
        assert_eq!(forms("church", "en"), ["church", "churches"]);
        assert_eq!(
            forms("Olympia", "en"),
            ["Olympia", "Olympias", "olympia", "olympias"]
        );
        assert_eq!(forms("Old Agora", "en"), ["Old Agora", "old agora"]);
    }

    #[test]
    fn portuguese_forms() {
        assert_eq!(forms("ágora", "pt-BR"), ["ágora", "ágoras"]);
        assert_eq!(forms("canção", "pt"), ["canção", "canções"]);
        assert_eq!(forms("jornal", "pt"), ["jornal", "jornais"]);
        assert_eq!(forms("papel", "pt"), ["papel", "papéis"]);
        assert_eq!(forms("homem", "pt"), ["homem", "homens"]);
        assert_eq!(forms("mar", "pt"), ["mar", "mares"]);
        assert_eq!(forms("luz", "pt"), ["luz", "luzes"]);
        assert_eq!(forms("lápis", "pt"), ["lápis"]);
        assert_eq!(forms("Íkos", "pt-BR"), ["Íkos", "íkos"]);
        assert_eq!(forms("cenho franzido", "pt"), ["cenho franzido"]);
    }

    #[test]
    fn other_languages_get_the_lower_case_only() {
        assert_eq!(forms("Haus", "de"), ["Haus", "haus"]);
        assert_eq!(forms("agora", "fr"), ["agora"]);
    }

    #[test]
    fn entries_are_read_from_the_glossary_terms() {
        let xhtml = r#"<dl><dt class="t" epub:type="glossterm" id="glossary-a"><dfn>A &amp; <em>B</em></dfn></dt>
<dd epub:type="glossdef" id="glossdef-a"><p>x</p></dd>
<dt id="plain"><dfn>not a glossary term</dfn></dt>
<dt epub:type="glossterm"><dfn>no id</dfn></dt>
<dt epub:type="glossterm" id="glossary-c"><dfn>c</dfn></dt></dl>"#;
        let got = entries(xhtml);
        let terms: Vec<_> = got
            .iter()
            .map(|e| (e.id.as_str(), e.term.as_str()))
            .collect();
        assert_eq!(terms, [("glossary-a", "A & B"), ("glossary-c", "c")]);
    }

    #[test]
    fn the_map_is_escaped_and_parses() {
        let entries = [
            Entry {
                id: "glossary-a".into(),
                term: "<a> & \"b\"".into(),
            },
            Entry {
                id: "glossary-city".into(),
                term: "city".into(),
            },
        ];
        let xml = search_key_map("glossary.xhtml", "en", &entries).expect("a map");
        let doc = roxmltree::Document::parse(&xml).expect("well-formed");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "search-key-map");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.idpf.org/2007/ops")
        );
        let groups: Vec<_> = root.children().filter(|n| n.is_element()).collect();
        assert_eq!(groups.len(), 2);
        assert_eq!(
            groups[0].attribute("href"),
            Some("glossary.xhtml#glossary-a")
        );
        let first = groups[0].first_element_child().expect("match");
        assert_eq!(first.attribute("value"), Some("<a> & \"b\""));
        let city = groups[1].first_element_child().expect("match");
        let values: Vec<_> = city
            .children()
            .filter_map(|v| v.attribute("value"))
            .collect();
        assert_eq!(values, ["cities"]);
        assert_eq!(search_key_map("glossary.xhtml", "en", &[]), None);
    }
}
