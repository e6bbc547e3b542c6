//! Every citation of a book formatted at once, in reading order, with the
//! bibliography of the works cited.

use crate::inlines::to_inlines;
use crate::{Cite, Library, Style};
use hayagriva::citationberg::taxonomy::Locator;
use hayagriva::citationberg::{Locale, LocaleCode};
use hayagriva::{
    BibliographyDriver, BibliographyRequest, CitationItem, CitationRequest, CitePurpose,
    LocatorPayload, SpecificLocator,
};
use std::sync::OnceLock;
use stoa_doc::Inline;

/// The book's citations and bibliography, as the tree's inlines.
#[derive(Clone, Debug, PartialEq)]
pub struct Formatted {
    /// One per [`Cite`] given, in the same order.
    pub citations: Vec<Vec<Inline>>,
    /// The works cited, in the style's order; empty for a style with no
    /// bibliography.
    pub bibliography: Vec<Entry>,
}

/// One work of the bibliography.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its key in the bibliography file.
    pub key: String,
    /// The label a numbered style prints before it (`[1]`), if any.
    pub label: Option<Vec<Inline>>,
    /// The entry as the style writes it.
    pub content: Vec<Inline>,
}

/// Formats `cites` (in reading order) with `style`, in the language `lang`
/// (a BCP 47 tag such as `pt-BR`: the style's terms, "and", "p.", in that
/// language). Each work's part of a citation links to `entry_url(key)`.
/// Every key must be in `library`: check them first, where their file and
/// line are known; an unknown one here is an error naming it.
pub fn format(
    library: &Library,
    style: &Style,
    lang: &str,
    cites: &[Cite],
    entry_url: &dyn Fn(&str) -> String,
) -> Result<Formatted, String> {
    let locales = locales();
    let locale = Some(LocaleCode(lang.to_string()));
    let mut driver = BibliographyDriver::new();
    for cite in cites {
        let mut items = Vec::with_capacity(cite.items.len());
        for item in &cite.items {
            let entry = library
                .entry(&item.key)
                .ok_or_else(|| format!("no work has the key `{}`", item.key))?;
            let locator = item.locator.as_deref().map(specific_locator);
            let purpose = if item.suppress_author {
                Some(CitePurpose::Year)
            } else if cite.narrative && style.is_note() {
                // In the sentence, not in a note: the author's name.
                Some(CitePurpose::Author)
            } else if cite.narrative {
                Some(CitePurpose::Prose)
            } else {
                None
            };
            items.push(CitationItem::new(entry, locator, None, false, purpose));
        }
        driver.citation(CitationRequest::new(
            items,
            &style.csl,
            locale.clone(),
            locales,
            None,
        ));
    }
    let rendered = driver.finish(BibliographyRequest::new(&style.csl, locale, locales));
    let citations = rendered
        .citations
        .iter()
        .zip(cites)
        .map(|(done, cite)| {
            let link = |n: usize| cite.items.get(n).map(|item| entry_url(&item.key));
            let inlines = linked(to_inlines(&done.citation, &link), cite, entry_url);
            with_prefix(inlines, cite, style)
        })
        .collect();
    let bibliography = rendered
        .bibliography
        .map(|b| b.items)
        .unwrap_or_default()
        .into_iter()
        .map(|item| Entry {
            key: item.key,
            label: item
                .first_field
                .map(|f| to_inlines(&hayagriva::ElemChildren(vec![f]), &|_| None)),
            content: to_inlines(&item.content, &|_| None),
        })
        .collect();
    Ok(Formatted {
        citations,
        bibliography,
    })
}

/// A citation whose style marks no item's part links as a whole to its
/// first work's entry.
fn linked(inlines: Vec<Inline>, cite: &Cite, entry_url: &dyn Fn(&str) -> String) -> Vec<Inline> {
    let has_link = inlines.iter().any(|i| matches!(i, Inline::Link { .. }));
    match cite.items.first() {
        Some(first) if !has_link => vec![Inline::Link {
            url: entry_url(&first.key),
            title: String::new(),
            content: inlines,
        }],
        _ => inlines,
    }
}

/// The CSL locales hayagriva archives, decoded once per process.
fn locales() -> &'static [Locale] {
    static LOCALES: OnceLock<Vec<Locale>> = OnceLock::new();
    LOCALES.get_or_init(hayagriva::archive::locales)
}

/// `p. 12` → a page locator `12`; a label stoa does not know is kept whole,
/// printed as written.
fn specific_locator(text: &str) -> SpecificLocator<'_> {
    const LABELS: [(&str, Locator); 22] = [
        ("pp.", Locator::Page),
        ("p.", Locator::Page),
        ("págs.", Locator::Page),
        ("pág.", Locator::Page),
        ("chap.", Locator::Chapter),
        ("ch.", Locator::Chapter),
        ("cap.", Locator::Chapter),
        ("sec.", Locator::Section),
        ("§§", Locator::Section),
        ("§", Locator::Section),
        ("fig.", Locator::Figure),
        ("vol.", Locator::Volume),
        ("vv.", Locator::Verse),
        ("v.", Locator::Verse),
        ("ll.", Locator::Line),
        ("l.", Locator::Line),
        ("n.", Locator::Note),
        ("para.", Locator::Paragraph),
        ("¶", Locator::Paragraph),
        ("pt.", Locator::Part),
        ("bk.", Locator::Book),
        ("col.", Locator::Column),
    ];
    for (label, locator) in LABELS {
        if let Some(rest) = text.strip_prefix(label) {
            return SpecificLocator(locator, LocatorPayload::Str(rest.trim_start()));
        }
    }
    if text
        .chars()
        .all(|c| c.is_ascii_digit() || "–-, ".contains(c))
    {
        return SpecificLocator(Locator::Page, LocatorPayload::Str(text));
    }
    SpecificLocator(Locator::Custom, LocatorPayload::Str(text))
}

/// The words before the first key (`see` in `[see @a]`), put inside the
/// style's opening bracket when it has one: "(see Plato 1992)".
fn with_prefix(mut inlines: Vec<Inline>, cite: &Cite, style: &Style) -> Vec<Inline> {
    let prefix = cite.items.first().map_or("", |item| item.prefix.as_str());
    if prefix.is_empty() {
        return inlines;
    }
    let open = style.csl.citation.layout.prefix.as_deref().unwrap_or("");
    if let Some(Inline::Text { text }) = inlines.first_mut()
        && !open.is_empty()
        && text.starts_with(open)
    {
        text.insert_str(open.len(), &format!("{prefix} "));
        return inlines;
    }
    inlines.insert(0, Inline::text(format!("{prefix} ")));
    inlines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;
    use stoa_doc::Inline;

    const BIB: &str = "@book{plato,\n  author = {Plato},\n  title = {The Republic},\n  translator = {Grube, G. M. A.},\n  year = {1992},\n  publisher = {Hackett},\n  address = {Indianapolis},\n}\n\n@book{kleppmann,\n  author = {Kleppmann, Martin},\n  title = {Designing Data-Intensive Applications},\n  year = {2017},\n  publisher = {O'Reilly},\n}\n";

    fn plain(inlines: &[Inline]) -> String {
        let mut out = String::new();
        for inline in inlines {
            match inline {
                Inline::Text { text } => out.push_str(text),
                Inline::Emph { content }
                | Inline::Strong { content }
                | Inline::Link { content, .. }
                | Inline::Span { content, .. } => out.push_str(&plain(content)),
                _ => {}
            }
        }
        out
    }

    fn url(key: &str) -> String {
        format!("#ref-{key}")
    }

    fn links(inlines: &[Inline]) -> Vec<String> {
        inlines
            .iter()
            .filter_map(|i| match i {
                Inline::Link { url, .. } => Some(url.clone()),
                _ => None,
            })
            .collect()
    }

    fn cites(texts: &[&str]) -> Vec<Cite> {
        texts.iter().map(|t| parse(t).unwrap().unwrap()).collect()
    }

    #[test]
    fn author_date_citations_with_locators_and_prefixes() {
        let library = Library::parse("refs.bib", BIB).unwrap();
        let style = Style::named("apa").unwrap();
        let done = format(
            &library,
            &style,
            "en-US",
            &cites(&["@plato, p. 12", "see @kleppmann"]),
            &url,
        )
        .unwrap();
        assert_eq!(plain(&done.citations[0]), "(Plato, 1992, p. 12)");
        assert_eq!(plain(&done.citations[1]), "(see Kleppmann, 2017)");
        assert_eq!(done.bibliography.len(), 2);
        // APA sorts by author: Kleppmann before Plato.
        assert_eq!(done.bibliography[0].key, "kleppmann");
        let entry = plain(&done.bibliography[0].content);
        assert!(
            entry.contains("Designing Data-Intensive Applications"),
            "{entry}"
        );
        // The title is italic: an Emph, not asterisks in the text.
        assert!(
            done.bibliography[0]
                .content
                .iter()
                .any(|i| matches!(i, Inline::Emph { .. }))
        );
    }

    #[test]
    fn numbered_styles_number_in_order_of_citation() {
        let library = Library::parse("refs.bib", BIB).unwrap();
        let style = Style::named("ieee").unwrap();
        let done = format(
            &library,
            &style,
            "en-US",
            &cites(&["@kleppmann", "@plato", "@kleppmann"]),
            &url,
        )
        .unwrap();
        assert_eq!(plain(&done.citations[0]), "[1]");
        assert_eq!(plain(&done.citations[1]), "[2]");
        assert_eq!(plain(&done.citations[2]), "[1]");
        assert_eq!(done.bibliography[0].key, "kleppmann");
    }

    #[test]
    fn terms_come_in_the_book_language() {
        let library = Library::parse("refs.bib", BIB).unwrap();
        let style = Style::named("chicago-author-date").unwrap();
        let two = "@plato; @kleppmann";
        let en = format(&library, &style, "en-US", &cites(&[two]), &url).unwrap();
        let pt = format(&library, &style, "pt-BR", &cites(&[two]), &url).unwrap();
        assert_ne!(
            plain(&en.bibliography[1].content),
            plain(&pt.bibliography[1].content)
        );
        // Each work of a citation links to its own entry.
        assert_eq!(links(&en.citations[0]), ["#ref-plato", "#ref-kleppmann"]);
        // The translator's role is named in Portuguese.
        assert!(
            plain(&pt.bibliography[1].content).contains("Tradução")
                || plain(&pt.bibliography[1].content).contains("Traduzido"),
            "{}",
            plain(&pt.bibliography[1].content)
        );
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_it() {
        let library = Library::parse("refs.bib", BIB).unwrap();
        let style = Style::named("apa").unwrap();
        let error = format(&library, &style, "en-US", &cites(&["@platon"]), &url).unwrap_err();
        assert!(error.contains("`platon`"), "{error}");
    }

    #[test]
    fn locators_are_read_by_label() {
        assert_eq!(specific_locator("p. 12").0, Locator::Page);
        assert_eq!(specific_locator("pp. 3–4").0, Locator::Page);
        assert_eq!(specific_locator("cap. 2").0, Locator::Chapter);
        assert_eq!(specific_locator("12").0, Locator::Page);
        assert_eq!(specific_locator("the preface").0, Locator::Custom);
    }
}
