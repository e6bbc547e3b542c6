//! Links from a page to the same page in the book's other languages: a
//! `<link rel="alternate" hreflang>` for browsers and search engines, and
//! a visible switch in the masthead. Each edition is the folder
//! `dist/<book>/<lang>/`, so the same chapter in another language is
//! `../<lang>/<slug>.html`; a chapter links only to the editions that have
//! it (a post may be untranslated), and the driver names only editions it
//! builds, so every link resolves.

use stoa_render::Alternate;
use stoa_xhtml::{Flavor, Markup, Xml};

/// The other editions' pages for a chapter (`Some(slug)`) or the start
/// page (`None`), as (language, href), in the order the driver gave.
fn targets<'a>(alternates: &'a [Alternate], slug: Option<&str>) -> Vec<(&'a str, String)> {
    alternates
        .iter()
        .filter(|a| slug.is_none_or(|s| a.has(s)))
        .map(|a| {
            let file = slug.map_or_else(|| crate::INDEX.to_string(), |s| Flavor::Html.file(s));
            (a.lang.as_str(), format!("../{}/{file}", a.lang))
        })
        .collect()
}

/// `<link rel="alternate">` elements for the head.
pub(crate) fn head_links(alternates: &[Alternate], slug: Option<&str>) -> String {
    let mut x = Xml::new(Flavor::Html);
    for (lang, href) in targets(alternates, slug) {
        x.empty(
            "link",
            &[("rel", "alternate"), ("hreflang", lang), ("href", &href)],
        )
        .newline();
    }
    x.finish()
}

/// The visible switch: each other language named in itself, in the
/// masthead; nothing when the page exists in one language only.
pub(crate) fn switch(m: &Markup, alternates: &[Alternate], slug: Option<&str>, x: &mut Xml) {
    let targets = targets(alternates, slug);
    if targets.is_empty() {
        return;
    }
    x.open(
        "nav",
        &[
            ("class", "languages"),
            ("aria-label", m.locale().web.languages),
        ],
    );
    for (lang, href) in targets {
        let name = stoa_locale::locale(lang).map_or(lang, |l| l.name);
        x.element(
            "a",
            &[
                ("href", &href),
                ("hreflang", lang),
                ("lang", lang),
                ("rel", "alternate"),
            ],
            name,
        );
    }
    x.close();
}
