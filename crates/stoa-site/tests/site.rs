//! The page and the catalogs checked against the files of a fake dist/.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use common::{fake_dist, kinds, percent_decode, sha256_hex};
use roxmltree::{Document, Node};
use stoa_site::{SiteEntry, write_site};

const ATOM: &str = "http://www.w3.org/2005/Atom";
const DC: &str = "http://purl.org/dc/terms/";
const ACQUISITION: &str = "http://opds-spec.org/acquisition/open-access";

fn all_files(entries: &[SiteEntry]) -> BTreeSet<String> {
    entries
        .iter()
        .flat_map(|e| e.files.iter())
        .map(|f| f.to_string_lossy().into_owned())
        .collect()
}

fn media_type(path: &str) -> &'static str {
    match Path::new(path).extension().and_then(|e| e.to_str()) {
        Some("epub") => "application/epub+zip",
        Some("pdf") => "application/pdf",
        Some("png") => "image/png",
        Some("html") => "text/html",
        other => panic!("unexpected extension {other:?}"),
    }
}

fn atom_children<'a, 'i>(
    node: Node<'a, 'i>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children()
        .filter(move |n| n.has_tag_name((ATOM, name)))
}

fn atom_text<'a>(node: Node<'a, '_>, ns: &str, name: &str) -> &'a str {
    node.children()
        .find(|n| n.has_tag_name((ns, name)))
        .and_then(|n| n.text())
        .unwrap_or_else(|| panic!("no {name} in {:?}", node.tag_name()))
}

/// Checks one feed: its header, and every entry and link against the files.
/// Returns the acquisition hrefs it lists.
fn check_feed(
    dir: &Path,
    file: &str,
    entries: &[SiteEntry],
    only: Option<&str>,
) -> BTreeSet<String> {
    let xml = fs::read_to_string(dir.join(file)).unwrap();
    let doc = Document::parse(&xml).unwrap_or_else(|e| panic!("{file} is not XML: {e}"));
    let feed = doc.root_element();
    assert!(feed.has_tag_name((ATOM, "feed")));
    assert!(atom_text(feed, ATOM, "id").starts_with("urn:uuid:"));
    assert!(atom_text(feed, ATOM, "title").contains("Vinícius Gomes Batista"));
    assert_eq!(
        atom_text(feed, ATOM, "updated"),
        expected_updated(entries, only)
    );
    assert_eq!(
        atom_text(atom_children(feed, "author").next().unwrap(), ATOM, "name"),
        "Vinícius Gomes Batista"
    );
    let kind = "application/atom+xml;profile=opds-catalog;kind=acquisition";
    let rel = |r: &str| {
        atom_children(feed, "link")
            .find(|l| l.attribute("rel") == Some(r))
            .unwrap_or_else(|| panic!("no {r} link"))
    };
    assert_eq!(rel("self").attribute("href"), Some(file));
    assert_eq!(rel("self").attribute("type"), Some(kind));
    assert_eq!(rel("start").attribute("href"), Some("opds.xml"));
    assert_eq!(rel("start").attribute("type"), Some(kind));

    let expected: Vec<&SiteEntry> = entries
        .iter()
        .filter(|e| only.is_none_or(|l| e.lang == l))
        .collect();
    let listed: Vec<Node> = atom_children(feed, "entry").collect();
    assert_eq!(
        listed.len(),
        expected.len(),
        "{file}: one entry per edition"
    );
    let mut hrefs = BTreeSet::new();
    for node in listed {
        let id = atom_text(node, ATOM, "id");
        let entry = expected
            .iter()
            .find(|e| e.identifier == id)
            .unwrap_or_else(|| panic!("unknown id {id}"));
        assert_eq!(atom_text(node, ATOM, "title"), entry.title);
        assert_eq!(atom_text(node, DC, "language"), entry.lang);
        assert_eq!(atom_text(node, DC, "issued"), entry.date);
        assert_eq!(atom_text(node, ATOM, "updated"), entry.modified);
        assert_eq!(
            Some(atom_text(node, ATOM, "summary")),
            entry.description.as_deref()
        );
        assert_eq!(
            atom_text(atom_children(node, "author").next().unwrap(), ATOM, "name"),
            entry.author
        );
        hrefs.extend(check_entry_links(dir, node, entry));
    }
    hrefs
}

fn expected_updated<'a>(entries: &'a [SiteEntry], only: Option<&str>) -> &'a str {
    entries
        .iter()
        .filter(|e| only.is_none_or(|l| e.lang == l))
        .map(|e| e.modified.as_str())
        .max()
        .unwrap()
}

fn check_entry_links(dir: &Path, node: Node, entry: &SiteEntry) -> Vec<String> {
    let mut acquisitions = Vec::new();
    let mut images = 0;
    for link in atom_children(node, "link") {
        let href = percent_decode(link.attribute("href").unwrap());
        let path = dir.join(&href);
        assert!(path.is_file(), "{href} does not exist");
        assert_eq!(
            link.attribute("type"),
            Some(media_type(&href)),
            "type of {href}"
        );
        match link.attribute("rel").unwrap() {
            ACQUISITION => {
                let length: u64 = link.attribute("length").unwrap().parse().unwrap();
                assert_eq!(
                    length,
                    fs::metadata(&path).unwrap().len(),
                    "length of {href}"
                );
                acquisitions.push(href);
            }
            "http://opds-spec.org/image" => {
                assert_eq!(
                    Some(PathBuf::from(&href)),
                    entry.cover_2x,
                    "the sharper cover"
                );
                images += 1;
            }
            "http://opds-spec.org/image/thumbnail" => {
                assert_eq!(Some(PathBuf::from(&href)), entry.cover);
                images += 1;
            }
            "alternate" => {
                assert_eq!(Some(PathBuf::from(&href)), entry.web, "the web edition");
            }
            other => panic!("unexpected link rel {other}"),
        }
    }
    assert_eq!(images, if entry.cover.is_some() { 2 } else { 0 });
    let mut expected: Vec<String> = entry
        .files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let mut got = acquisitions.clone();
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
    acquisitions
}

#[test]
fn opds_lists_every_edition_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let entries = fake_dist(dir.path());
    let written = write_site(dir.path(), &entries, &kinds()).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["index.html", "opds.xml", "opds-pt-BR.xml", "opds-en.xml"]
    );

    assert_eq!(
        check_feed(dir.path(), "opds.xml", &entries, None),
        all_files(&entries)
    );
    let mut per_language = BTreeSet::new();
    for lang in ["pt-BR", "en"] {
        per_language.extend(check_feed(
            dir.path(),
            &format!("opds-{lang}.xml"),
            &entries,
            Some(lang),
        ));
    }
    assert_eq!(per_language, all_files(&entries));
}

/// Parses the page as XML, which it is written to be; `<!DOCTYPE html>` is a DTD to roxmltree.
fn parse_html(html: &str) -> Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    Document::parse_with_options(html, options).expect("index.html is well-formed")
}

fn has_class(n: &Node, c: &str) -> bool {
    n.attribute("class")
        .is_some_and(|v| v.split(' ').any(|x| x == c))
}

/// Every download link on the page, with the checksum its edition's folded
/// list of sums gives for it.
fn page_downloads(doc: &Document) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for article in doc.descendants().filter(|n| has_class(n, "book")) {
        for li in article
            .descendants()
            .filter(|n| n.has_tag_name("li") && has_class(n, "file") && !has_class(n, "web"))
        {
            let href = li
                .descendants()
                .find(|n| has_class(n, "download"))
                .and_then(|n| n.attribute("href"))
                .expect("a download link");
            // The sum is tucked away in a <details> of the same edition.
            let sum = article
                .descendants()
                .find(|n| has_class(n, "sum") && n.attribute("data-href") == Some(href))
                .filter(|n| n.ancestors().any(|a| a.has_tag_name("details")))
                .and_then(|n| n.descendants().find(|c| has_class(c, "sha256")))
                .expect("a checksum in a details element");
            found.push((percent_decode(href), sum.text().unwrap().to_string()));
        }
    }
    found
}

#[test]
fn page_links_exist_and_match_their_checksums() {
    let dir = tempfile::tempdir().unwrap();
    let entries = fake_dist(dir.path());
    write_site(dir.path(), &entries, &kinds()).unwrap();
    let html = fs::read_to_string(dir.path().join("index.html")).unwrap();
    let doc = parse_html(&html);

    let downloads = page_downloads(&doc);
    for (href, sum) in &downloads {
        let path = dir.path().join(href);
        assert!(path.is_file(), "{href} does not exist");
        assert_eq!(&sha256_hex(&path), sum, "checksum of {href}");
    }
    let linked: BTreeSet<String> = downloads.into_iter().map(|(h, _)| h).collect();
    assert_eq!(linked, all_files(&entries));
    let read: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("download read"))
        .map(|n| n.attribute("href").unwrap())
        .collect();
    let webs: Vec<String> = entries
        .iter()
        .filter_map(|e| e.web.as_ref())
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    assert_eq!(read, webs, "every web edition is offered to read online");
    for href in read {
        assert!(dir.path().join(href).is_file(), "{href} does not exist");
    }

    for img in doc.descendants().filter(|n| n.has_tag_name("img")) {
        assert!(
            img.attribute("alt").is_some_and(|a| !a.trim().is_empty()),
            "an img without alt"
        );
        assert!(
            dir.path()
                .join(percent_decode(img.attribute("src").unwrap()))
                .is_file()
        );
        assert_eq!(
            (img.attribute("width"), img.attribute("height")),
            (Some("120"), Some("180"))
        );
        // High-density screens get the cover at twice the resolution.
        let srcset = img.attribute("srcset").expect("a srcset");
        let (one, two) = srcset.split_once(", ").unwrap();
        assert_eq!(one, format!("{} 1x", img.attribute("src").unwrap()));
        let big = two.strip_suffix(" 2x").expect("a 2x image");
        assert!(dir.path().join(percent_decode(big)).is_file(), "{big}");
    }
    // Each PDF says how many pages it has, in the edition's language; the EPUB does not.
    let articles: Vec<Node> = doc.descendants().filter(|n| has_class(n, "book")).collect();
    assert_eq!(articles.len(), entries.len());
    for article in articles {
        let sizes: Vec<&str> = article
            .descendants()
            .filter(|n| has_class(n, "size"))
            .map(|n| n.text().unwrap())
            .collect();
        assert_eq!(sizes.len(), 2, "{sizes:?}");
        assert!(!sizes[0].contains(" · "), "EPUB: {}", sizes[0]);
        let word = if article.attribute("id").unwrap().ends_with("pt-BR") {
            "páginas"
        } else {
            "pages"
        };
        assert!(sizes[1].ends_with(word), "PDF: {}", sizes[1]);
        // The contents, folded, escaped, in order.
        let contents = article
            .descendants()
            .find(|n| n.has_tag_name("details") && has_class(n, "contents"))
            .expect("the contents");
        let titles: Vec<&str> = contents
            .descendants()
            .filter(|n| n.has_tag_name("li"))
            .map(|n| n.text().unwrap())
            .collect();
        assert_eq!(titles.len(), 2);
        assert_eq!(titles[1], "Dialogue on <Labels> & Truth");
        assert!(contents.attribute("open").is_none(), "folded by default");
        // The book's own word for its contents, else the language's.
        let summary = contents
            .descendants()
            .find(|n| n.has_tag_name("summary"))
            .unwrap();
        let label = if article.attribute("id").unwrap().ends_with("-en") {
            "Table of contents"
        } else {
            "Sumário"
        };
        assert_eq!(
            summary.first_child().unwrap().text(),
            Some(&*format!("{label} "))
        );
    }
    for entry in &entries {
        let count = entry.pages.unwrap().to_string();
        assert!(html.contains(&count), "{count} pages");
    }
    let root = doc.root_element();
    assert_eq!(root.attribute("lang"), Some("pt-BR"));
    for section in doc.descendants().filter(|n| n.has_tag_name("section")) {
        assert!(
            section.attribute("lang").is_some(),
            "every language section says its language"
        );
    }
    assert!(doc.descendants().any(|n| n.has_tag_name("main")));
    assert!(
        doc.descendants()
            .any(|n| n.has_tag_name("nav") && n.attribute("class") == Some("switch"))
    );
    assert!(html.contains("Baixar EPUB") && html.contains("Download PDF"));
    assert!(
        html.contains("Ensaios &amp; &lt;Notas&gt;"),
        "titles are escaped"
    );
    assert!(html.contains("1,2 MB") && html.contains("1.2 MB") && html.contains("2,3 kB"));
    for external in ["src=\"http", "href=\"http", "href=\"//", "url(", "@import"] {
        assert!(
            !html.contains(external),
            "no external assets: found {external}"
        );
    }
}

#[test]
fn output_does_not_depend_on_entry_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut entries = fake_dist(dir.path());
    let read = |name: &str| fs::read(dir.path().join(name)).unwrap();
    write_site(dir.path(), &entries, &kinds()).unwrap();
    let first = (read("index.html"), read("opds.xml"));
    entries.reverse();
    write_site(dir.path(), &entries, &kinds()).unwrap();
    assert_eq!(first, (read("index.html"), read("opds.xml")));
}

#[test]
fn page_lists_books_by_name_within_each_language() {
    let dir = tempfile::tempdir().unwrap();
    let entries = fake_dist(dir.path());
    write_site(dir.path(), &entries, &kinds()).unwrap();
    let html = fs::read_to_string(dir.path().join("index.html")).unwrap();
    let order: Vec<usize> = [
        "book-dialogues-pt-BR",
        "book-essays-pt-BR",
        "book-dialogues-en",
        "book-essays-en",
    ]
    .iter()
    .map(|id| {
        html.find(&format!("id=\"{id}\""))
            .unwrap_or_else(|| panic!("no {id}"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
}

#[test]
fn bad_entries_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let entries = fake_dist(dir.path());
    let with = |change: &dyn Fn(&mut SiteEntry)| {
        let mut changed = entries.clone();
        change(&mut changed[0]);
        write_site(dir.path(), &changed, &kinds())
            .unwrap_err()
            .to_string()
    };
    assert!(with(&|e| e.files.push("dialogues/missing.epub".into())).contains("missing.epub"));
    assert!(with(&|e| e.files[0] = "../outside.epub".into()).contains(".."));
    assert!(with(&|e| e.date = "30/11/2026".into()).contains("YYYY-MM-DD"));
    assert!(with(&|e| e.lang = "en\"><script>".into()).contains("BCP 47"));
    assert!(with(&|e| e.lang = "en".into()).contains("twice"));
    assert!(
        !dir.path().join("index.html").exists(),
        "nothing is written when an entry is wrong"
    );
}

#[test]
fn an_empty_site_is_still_valid() {
    let dir = tempfile::tempdir().unwrap();
    write_site(dir.path(), &[], &kinds()).unwrap();
    parse_html(&fs::read_to_string(dir.path().join("index.html")).unwrap());
    let xml = fs::read_to_string(dir.path().join("opds.xml")).unwrap();
    assert!(
        Document::parse(&xml)
            .unwrap()
            .descendants()
            .all(|n| !n.has_tag_name((ATOM, "entry")))
    );
}
