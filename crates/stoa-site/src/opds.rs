//! OPDS 1.2 acquisition feeds (Atom): one of every edition, one per language.

use std::fmt::Write;

use chrono::DateTime;

use crate::escape::{href as url, text as esc};
use crate::{Edition, INDEX_HTML, OPDS_XML, i18n, opds_file_name};

/// The media type OPDS 1.2 gives an acquisition feed.
pub const ACQUISITION: &str = "application/atom+xml;profile=opds-catalog;kind=acquisition";

/// What an Atom feed needs as `updated` when it has no entries: a fixed instant,
/// never the clock, so that the output stays reproducible.
const EPOCH: &str = "1970-01-01T00:00:00Z";

/// The feed of `only` one language's editions, or of all when `None`.
pub fn render(editions: &[Edition], langs: &[String], only: Option<&str>) -> String {
    let listed: Vec<&Edition> = editions
        .iter()
        .filter(|e| only.is_none_or(|l| e.entry.lang == l))
        .collect();
    let authors = distinct_authors(&listed);
    let self_href = only.map_or(OPDS_XML.to_string(), opds_file_name);
    let mut out = String::with_capacity(8 * 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:dc=\"http://purl.org/dc/terms/\" xmlns:opds=\"http://opds-spec.org/2010/catalog\"");
    if let Some(lang) = only {
        let _ = write!(out, " xml:lang=\"{}\"", esc(lang));
    }
    out.push_str(">\n");
    let _ = writeln!(out, "  <id>{}</id>", feed_id(&authors, only));
    let _ = writeln!(
        out,
        "  <title>{}</title>",
        esc(&feed_title(&authors, langs, only))
    );
    let _ = writeln!(out, "  <updated>{}</updated>", esc(latest(&listed)));
    for author in &authors {
        let _ = writeln!(out, "  <author><name>{}</name></author>", esc(author));
    }
    link(&mut out, "self", &self_href, ACQUISITION, None);
    link(&mut out, "start", OPDS_XML, ACQUISITION, None);
    link(&mut out, "alternate", INDEX_HTML, "text/html", None);
    facets(&mut out, langs, only);
    for edition in listed {
        entry(&mut out, edition);
    }
    out.push_str("</feed>\n");
    out
}

fn distinct_authors(editions: &[&Edition]) -> Vec<String> {
    let mut authors: Vec<String> = editions.iter().map(|e| e.entry.author.clone()).collect();
    authors.sort();
    authors.dedup();
    authors
}

/// A stable id: a name-based UUID of the authors (and the language), so a reading
/// app keeps recognising the catalog when books are added or rebuilt.
fn feed_id(authors: &[String], only: Option<&str>) -> String {
    let name = format!("stoa-opds:{}:{}", authors.join("\n"), only.unwrap_or("*"));
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes())
        .urn()
        .to_string()
}

fn feed_title(authors: &[String], langs: &[String], only: Option<&str>) -> String {
    let mut headings: Vec<&str> = match only {
        Some(lang) => vec![i18n::ui(lang).heading],
        None => langs.iter().map(|l| i18n::ui(l).heading).collect(),
    };
    headings.dedup();
    let headings = headings.join(" · ");
    match authors {
        [author] => format!("{author} — {headings}"),
        _ => headings,
    }
}

/// The most recent `modified`, compared as instants: RFC 3339 strings with
/// different offsets do not sort as text.
fn latest<'a>(editions: &[&'a Edition]) -> &'a str {
    editions
        .iter()
        .map(|e| e.entry.modified.as_str())
        .max_by_key(|m| DateTime::parse_from_rfc3339(m).ok())
        .unwrap_or(EPOCH)
}

fn link(out: &mut String, rel: &str, href: &str, media_type: &str, extra: Option<&str>) {
    let _ = writeln!(
        out,
        "  <link rel=\"{}\" href=\"{}\" type=\"{}\"{}/>",
        esc(rel),
        esc(&url(href)),
        esc(media_type),
        extra.unwrap_or("")
    );
}

/// Language facets, so an app can narrow the catalog to one language.
fn facets(out: &mut String, langs: &[String], only: Option<&str>) {
    if langs.len() < 2 {
        return;
    }
    for lang in langs {
        let active = if only == Some(lang.as_str()) {
            " opds:activeFacet=\"true\""
        } else {
            ""
        };
        let extra = format!(
            " title=\"{}\" opds:facetGroup=\"Language\"{active}",
            esc(&i18n::language_name(lang))
        );
        link(
            out,
            "http://opds-spec.org/facet",
            &opds_file_name(lang),
            ACQUISITION,
            Some(&extra),
        );
    }
}

fn entry(out: &mut String, edition: &Edition) {
    let e = edition.entry;
    out.push_str("  <entry>\n");
    let _ = writeln!(out, "    <title>{}</title>", esc(&e.title));
    let _ = writeln!(out, "    <id>{}</id>", esc(&e.identifier));
    let _ = writeln!(out, "    <updated>{}</updated>", esc(&e.modified));
    let _ = writeln!(out, "    <author><name>{}</name></author>", esc(&e.author));
    let _ = writeln!(out, "    <dc:language>{}</dc:language>", esc(&e.lang));
    let _ = writeln!(out, "    <dc:issued>{}</dc:issued>", esc(&e.date));
    if let Some(summary) = e.description.as_ref().or(e.subtitle.as_ref()) {
        let _ = writeln!(out, "    <summary type=\"text\">{}</summary>", esc(summary));
    }
    if e.book_posts > 0 {
        let words = crate::i18n::ui(&e.lang).completeness(&e.lang, e.posts, e.book_posts);
        let _ = writeln!(out, "    <content type=\"text\">{}</content>", esc(&words));
    }
    if let Some(thumbnail) = &edition.cover {
        // Reading apps show the image on a book's page: the sharper one
        // when there is one.
        let image = edition.cover_2x.as_ref().unwrap_or(thumbnail);
        for (rel, cover) in [
            ("http://opds-spec.org/image", image),
            ("http://opds-spec.org/image/thumbnail", thumbnail),
        ] {
            let _ = writeln!(
                out,
                "    <link rel=\"{rel}\" href=\"{}\" type=\"{}\"/>",
                esc(&cover.href),
                cover.media_type
            );
        }
    }
    for file in &edition.files {
        let _ = writeln!(
            out,
            "    <link rel=\"http://opds-spec.org/acquisition/open-access\" href=\"{}\" type=\"{}\" length=\"{}\" title=\"{}\"/>",
            esc(&file.href),
            file.format.media_type,
            file.size,
            file.format.label
        );
    }
    if let Some(web) = &edition.web {
        let _ = writeln!(
            out,
            "    <link rel=\"alternate\" href=\"{}\" type=\"text/html\" title=\"{}\"/>",
            esc(web),
            esc(crate::i18n::ui(&e.lang).read_online)
        );
    }
    out.push_str("  </entry>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_ids_are_stable_and_differ_by_language() {
        let authors = vec!["A".to_string()];
        assert_eq!(feed_id(&authors, None), feed_id(&authors, None));
        assert_ne!(feed_id(&authors, None), feed_id(&authors, Some("en")));
        assert!(feed_id(&authors, None).starts_with("urn:uuid:"));
    }

    #[test]
    fn titles_name_a_single_author() {
        let langs = vec!["pt-BR".to_string(), "en".to_string()];
        assert_eq!(
            feed_title(&["A".into()], &langs, None),
            "A — Livros · Books"
        );
        assert_eq!(
            feed_title(&["A".into(), "B".into()], &langs, Some("en")),
            "Books"
        );
    }
}
