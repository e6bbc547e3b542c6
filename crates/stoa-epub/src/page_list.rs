//! The page list: the print edition's page breaks the chapters carry
//! (written by `stoa-xhtml` where the PDF's pages begin), gathered from the
//! chapters as written, so that the list never names a marker that is not
//! there, and set as the navigation document's `page-list` nav.

/// The page-break markers of a chapter's XHTML, in order, as (id, label),
/// both as written (already escaped).
pub fn markers(xhtml: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = xhtml;
    while let Some(at) = rest.find("role=\"doc-pagebreak\"") {
        let start = rest[..at].rfind('<').unwrap_or(0);
        let end = rest[at..].find('>').map_or(rest.len(), |e| at + e);
        let tag = &rest[start..end];
        if let (Some(id), Some(label)) = (attr(tag, "id"), attr(tag, "aria-label")) {
            found.push((id.to_owned(), label.to_owned()));
        }
        rest = &rest[end..];
    }
    found
}

/// The value of attribute `name` in a start tag.
fn attr<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let needle = format!(" {name}=\"");
    let from = tag.find(&needle)? + needle.len();
    let len = tag[from..].find('"')?;
    Some(&tag[from..from + len])
}

/// The `page-list` nav of the navigation document: every (label, href),
/// hidden, as reading systems show it in their own page navigation.
pub fn nav(entries: &[(String, String)]) -> String {
    let mut nav = String::from(
        "  <nav epub:type=\"page-list\" role=\"doc-pagelist\" hidden=\"hidden\">\n    <ol>\n",
    );
    for (label, href) in entries {
        nav.push_str(&format!("      <li><a href=\"{href}\">{label}</a></li>\n"));
    }
    nav.push_str("    </ol>\n  </nav>\n");
    nav
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_markers_as_written() {
        let xhtml = r#"<p>a</p><span id="page-3" epub:type="pagebreak" role="doc-pagebreak" aria-label="3"></span><p>b</p>
<span id="page-iv" epub:type="pagebreak" role="doc-pagebreak" aria-label="iv"/>"#;
        assert_eq!(
            markers(xhtml),
            [
                ("page-3".to_owned(), "3".to_owned()),
                ("page-iv".to_owned(), "iv".to_owned())
            ]
        );
        assert!(markers("<p role=\"note\">x</p>").is_empty());
        let nav = nav(&[("3".into(), "a.xhtml#page-3".into())]);
        assert!(
            nav.contains(r##"<li><a href="a.xhtml#page-3">3</a></li>"##),
            "{nav}"
        );
    }
}
