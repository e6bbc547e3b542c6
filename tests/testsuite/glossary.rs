//! The glossary plugin on the real books: the dialogues' appendix holds the
//! union of the dialogues' glossaries in collation order, in each language;
//! every EPUB passes EPUBCheck and every PDF link reaches a destination.

use crate::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The glossaries of the dialogues, read from the Markdown: the items
/// after the glossary heading.
fn glossary_terms(lang: &str, heading: &str) -> Vec<String> {
    let mut terms = Vec::new();
    for entry in std::fs::read_dir(repo_root().join("books/posts")).expect("posts") {
        let path = entry.expect("entry").path().join(format!("{lang}.md"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some((_, after)) = text.split_once(&format!("\n## {heading}\n")) else {
            continue;
        };
        let items = after.lines().skip_while(|l| l.trim().is_empty());
        for line in items.take_while(|l| l.starts_with("- ")) {
            let (term, _) = line[2..].split_once(':').expect("term: definition");
            terms.push(term.trim().to_string());
        }
    }
    terms
}

/// The text of every `<dfn>` of the appendix, in document order.
fn appendix_terms(epub: &Path) -> Vec<String> {
    let page = zip_entry(epub, "OEBPS/glossary.xhtml");
    page.split("<dfn>")
        .skip(1)
        .map(|s| s.split("</dfn>").next().expect("closed dfn").to_string())
        .collect()
}

#[test]
fn dialogues_appendix_is_the_sorted_union_of_the_glossaries() {
    let log = books().log();
    assert!(
        log.contains("glossary term `papyrus` is never used"),
        "{log}"
    );
    let dist = books().dist();
    let mut counts = Vec::new();
    for (lang, heading, expected) in [
        (
            "en",
            "Glossary",
            &[
                "agora",
                "amphorae",
                "charioteer",
                "drachma",
                "Ikkos",
                "Olympia",
                "oracle",
                "palaestra",
                "papyrus",
                "portico",
            ][..],
        ),
        (
            "pt-BR",
            "Glossário",
            &[
                "ágora",
                "ânforas",
                "auriga",
                "cenho franzido",
                "dracma",
                "Íkos",
                "Olímpia",
                "oráculo",
                "palestra",
                "papiro",
                "pórtico",
            ][..],
        ),
    ] {
        let epub = dist.join(format!("dialogues/dialogues-{lang}.epub"));
        let got = appendix_terms(&epub);
        assert_eq!(got, expected, "{lang}: the appendix in collation order");
        let mut union = glossary_terms(lang, heading);
        union.sort();
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(sorted, union, "{lang}: exactly the posts' terms");
        counts.push(got.len());
        // The appendix is in the spine after the posts, and a landmark.
        let spine = spine(&epub);
        let at = spine
            .iter()
            .position(|h| h == "glossary.xhtml")
            .expect("in spine");
        assert_eq!(spine[at + 1], "about-the-author.xhtml", "{spine:?}");
        let nav = zip_entry(&epub, "OEBPS/nav.xhtml");
        assert!(nav.contains(r#"<a epub:type="glossary" href="glossary.xhtml">"#));
        // The dialogues give the definition in a note at first use; the
        // collection links first uses to the appendix, across files.
        let post = zip_entry(&epub, "OEBPS/dialogue-on-masters.xhtml");
        // The notes define the terms: the post's own glossary is left out
        // (each term is said in its note and in the appendix only).
        assert!(post.contains(r#"class="glossary-use""#), "footnote mode");
        assert!(!post.contains("glossary-list"), "{lang}: no post glossary");
        assert!(
            !post.contains(&format!(">{heading}</h2>")),
            "{lang}: no heading"
        );
        // The appendix refers to the uses in the text, with their pages.
        let appendix = zip_entry(&epub, "OEBPS/glossary.xhtml");
        let refs = appendix_refs(&appendix);
        assert!(refs.len() >= 7, "{lang}: {refs:?}");
        for (href, _) in &refs {
            assert!(
                href.contains(".xhtml#gloss-use-"),
                "{lang}: {href} is not a use"
            );
        }
        check_pages_of_uses(
            &dist.join(format!("dialogues/dialogues-{lang}.pdf")),
            &refs,
            lang,
        );
        let epub = dist.join(format!("collection/collection-{lang}.epub"));
        assert_eq!(appendix_terms(&epub), expected, "{lang}: collection");
        let post = zip_entry(&epub, "OEBPS/dialogue-on-masters.xhtml");
        // Links keep the post's glossary. The list has no
        // `epub:type="glossary"`: a `dl` cannot take the matching
        // `doc-glossary` role, and Ace requires the match.
        assert!(post.contains(r#"<dl class="glossary-list">"#));
        assert!(post.contains(r#"epub:type="glossterm""#));
        let post = zip_entry(&epub, "OEBPS/dialogue-on-those-who-teach.xhtml");
        assert!(
            post.contains(r#"<a class="glossary-ref" epub:type="glossref" role="doc-glossref""#)
                && post.contains(r#"href="glossary.xhtml#glossdef-"#),
            "{post}"
        );
    }
    assert_eq!(counts, [10, 11], "the Portuguese has one term more");

    let epubs: Vec<PathBuf> = ["dialogues", "collection"]
        .iter()
        .flat_map(|b| ["en", "pt-BR"].map(|l| dist.join(format!("{b}/{b}-{l}.epub"))))
        .collect();
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "{failures:#?}");

    for pdf in epubs.iter().map(|e| e.with_extension("pdf")) {
        tool("qpdf", &["--check"], &pdf);
        let links = check_link_destinations(&pdf);
        assert!(links > 20, "{}: {links} links", pdf.display());
    }
}

/// Lowercase, without the accents of the books' terms (as their ids).
fn fold(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' => 'a',
            'é' | 'ê' => 'e',
            'í' => 'i',
            'ó' | 'ô' | 'õ' => 'o',
            'ú' => 'u',
            'ç' => 'c',
            c => c,
        })
        .collect()
}

/// The appendix's page references: (href of the page number, the page),
/// each `, p. <a href="…">N</a>`.
fn appendix_refs(appendix: &str) -> Vec<(String, String)> {
    appendix
        .split(", p.\u{a0}<a href=\"")
        .skip(1)
        .map(|s| {
            let (href, rest) = s.split_once("\">").expect("href");
            let page = rest.split("</a>").next().expect("page").to_string();
            (href.to_string(), page)
        })
        .collect()
}

/// Checks, in the PDF, that the page each reference names holds the
/// term's use: the page whose folio (in the running head, or under an
/// opening) is that number has the use's note, whose text starts with the
/// term; the term is read from the EPUB's use anchor.
fn check_pages_of_uses(pdf: &Path, refs: &[(String, String)], lang: &str) {
    let pages = pdf_pages(pdf);
    let folio = |page: &str| -> Option<String> {
        let lines: Vec<&str> = page.lines().filter(|l| !l.trim().is_empty()).collect();
        let head = lines.first()?.split_whitespace().collect::<Vec<_>>();
        let foot = lines.last()?.trim();
        [head.first(), head.last()]
            .into_iter()
            .flatten()
            .map(|s| s.to_string())
            .chain(std::iter::once(foot.to_string()))
            .find(|s| s.parse::<u32>().is_ok())
    };
    for (href, page) in refs {
        let term = href.rsplit("-").next().expect("term key");
        let held = pages
            .iter()
            .filter(|p| folio(p).as_deref() == Some(page.as_str()))
            .any(|p| fold(p).contains(&term[..term.len().min(4)]));
        assert!(
            held,
            "{lang}: {href} is said to be on p. {page}, which does not hold it"
        );
    }
}

/// Checks that every link annotation of `pdf` reaches a page, by name or
/// by an explicit destination; returns how many internal links there are.
fn check_link_destinations(pdf: &Path) -> usize {
    let json = tool("qpdf", &["--json=2", "--json-key=qpdf"], pdf);
    let json: Value = serde_json::from_str(&json).expect("qpdf JSON");
    let objects = json["qpdf"][1].as_object().expect("objects");
    let value = |r: &str| &objects[&format!("obj:{r}")]["value"];
    let is_page = |v: &Value| v["/Type"] == "/Page";
    let catalog = objects
        .values()
        .map(|o| &o["value"])
        .find(|v| v["/Type"] == "/Catalog")
        .expect("catalog");
    let mut names = std::collections::HashMap::new();
    let mut nodes = vec![catalog["/Names"]["/Dests"].clone()];
    while let Some(mut node) = nodes.pop() {
        if let Some(r) = node.as_str() {
            node = value(r).clone();
        }
        if let Some(pairs) = node["/Names"].as_array() {
            for pair in pairs.chunks(2) {
                names.insert(pair[0].as_str().expect("name").to_string(), pair[1].clone());
            }
        }
        nodes.extend(node["/Kids"].as_array().into_iter().flatten().cloned());
    }
    let reaches_page = |dest: &Value| -> bool {
        let dest = match dest.as_str() {
            Some(r) if r.ends_with(" R") => value(r).clone(),
            _ => dest.clone(),
        };
        let dest = if dest.is_object() {
            dest["/D"].clone()
        } else {
            dest
        };
        let first = dest
            .as_array()
            .and_then(|a| a.first())
            .and_then(Value::as_str);
        first.is_some_and(|p| is_page(value(p)))
    };
    let mut count = 0;
    for object in objects.values() {
        let v = &object["value"];
        if v["/Subtype"] != "/Link" {
            continue;
        }
        let dest = if v["/Dest"].is_null() {
            match &v["/A"] {
                a if a["/S"] == "/GoTo" => a["/D"].clone(),
                _ => continue, // a URI
            }
        } else {
            v["/Dest"].clone()
        };
        count += 1;
        let ok = match dest.as_str() {
            Some(name) if !name.ends_with(" R") => names.get(name).is_some_and(&reaches_page),
            _ => reaches_page(&dest),
        };
        assert!(ok, "{}: link to {dest} goes nowhere", pdf.display());
    }
    count
}

/// The glossary's Search Key Map (EPUB Dictionaries and Glossaries 1.0):
/// in the manifest with its properties, one group per appendix term,
/// each leading to that term's entry, with the plural a reader may type.
#[test]
fn the_glossary_has_a_search_key_map_for_reading_systems() {
    let dist = books().dist();
    for (book, lang, term, plural) in [
        ("dialogues", "en", "oracle", "oracles"),
        ("dialogues", "pt-BR", "oráculo", "oráculos"),
        ("collection", "pt-BR", "pórtico", "pórticos"),
    ] {
        let epub = dist.join(format!("{book}/{book}-{lang}.epub"));
        let opf = zip_entry(&epub, "OEBPS/content.opf");
        assert!(
            opf.contains(
                r#"media-type="application/vnd.epub.search-key-map+xml" id="id_search-key-map.xml" href="search-key-map.xml" properties="search-key-map glossary""#
            ),
            "{book} {lang}: {opf}"
        );
        let map = zip_entry(&epub, "OEBPS/search-key-map.xml");
        let doc = roxmltree::Document::parse(&map).expect("the map is XML");
        let appendix = zip_entry(&epub, "OEBPS/glossary.xhtml");
        let groups: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("search-key-group"))
            .collect();
        let terms = appendix_terms(&epub);
        assert_eq!(groups.len(), terms.len(), "{book} {lang}: a group per term");
        for (group, term) in groups.iter().zip(&terms) {
            let href = group.attribute("href").expect("href");
            let id = href
                .strip_prefix("glossary.xhtml#")
                .expect("into the appendix");
            assert!(
                appendix.contains(&format!(r#"id="{id}""#)),
                "{book} {lang}: {href} leads nowhere"
            );
            let value = group
                .children()
                .find(|n| n.has_tag_name("match"))
                .and_then(|m| m.attribute("value"));
            assert_eq!(value, Some(term.as_str()), "{book} {lang}: in order");
        }
        let forms: Vec<&str> = groups
            .iter()
            .find(|g| g.descendants().any(|m| m.attribute("value") == Some(term)))
            .expect("the term's group")
            .descendants()
            .filter(|n| n.has_tag_name("value"))
            .filter_map(|n| n.attribute("value"))
            .collect();
        assert!(forms.contains(&plural), "{book} {lang}: {term} {forms:?}");
    }
}
