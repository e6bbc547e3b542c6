//! The web edition's gate: its pages are HTML (void elements unclosed), so
//! they are read tag by tag rather than as XML: every page's ids unique,
//! every `href` and `src` inside the edition leading to one of its files
//! and, with a fragment, to an id of that page. Links that leave the
//! edition's folder (`../en/…`, the other languages, the download page)
//! are the site's, written after every edition, and not checked here.

use std::collections::{HashMap, HashSet};

use crate::{Problems, decode, folder, has_scheme, join};

/// Checks the files of a web edition, as (relative path, bytes); only the
/// pages' bytes are read (an image may be given empty).
pub fn web<N: AsRef<str>, B: AsRef<[u8]>>(files: &[(N, B)]) -> Result<(), Problems> {
    let names: HashSet<&str> = files.iter().map(|(name, _)| name.as_ref()).collect();
    let mut problems = Vec::new();
    let mut ids: HashMap<&str, HashSet<String>> = HashMap::new();
    let mut links: Vec<(&str, String)> = Vec::new();
    for (name, bytes) in files.iter().filter(|(n, _)| n.as_ref().ends_with(".html")) {
        let name = name.as_ref();
        let Ok(text) = std::str::from_utf8(bytes.as_ref()) else {
            problems.push(format!("{name}: not UTF-8"));
            continue;
        };
        let mine = ids.entry(name).or_default();
        for tag in tags(text) {
            for (key, value) in tag {
                match key {
                    "id" if !mine.insert(value.clone()) => {
                        problems.push(format!("{name}: the id `{value}` is given twice"));
                    }
                    "href" | "src" => links.push((name, value)),
                    _ => {}
                }
            }
        }
    }
    for (from, target) in links {
        if has_scheme(&target) || target.starts_with("//") {
            continue;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (target.as_str(), None),
        };
        let file = match path.is_empty() {
            true => from.to_string(),
            false => {
                // `..` out of the edition's folder: another edition's.
                let mut depth = folder(from).matches('/').count() as isize;
                let leaves = path.split('/').any(|part| {
                    depth += match part {
                        ".." => -1,
                        "" | "." => 0,
                        _ => 1,
                    };
                    depth < 0
                });
                if leaves {
                    continue;
                }
                join(folder(from), &decode(path))
            }
        };
        if !names.contains(file.as_str()) {
            problems.push(format!(
                "{from}: `{target}` leads to no file of the edition"
            ));
            continue;
        }
        if let (Some(fragment), Some(known)) =
            (fragment.filter(|f| !f.is_empty()), ids.get(file.as_str()))
            && !known.contains(&decode(fragment))
        {
            problems.push(format!("{from}: `{target}` leads to no id of {file}"));
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}

/// The attributes of every start tag of `html`, in order; comments, the
/// doctype and the insides of `script` and `style` are skipped.
fn tags(html: &str) -> Vec<Vec<(&str, String)>> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        if rest.starts_with(['!', '/', '?']) {
            rest = rest.find('>').map_or("", |e| &rest[e + 1..]);
            continue;
        }
        let name_len = rest
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_len].to_ascii_lowercase();
        let (attrs, end) = attributes(&rest[name_len..]);
        rest = &rest[name_len + end..];
        found.push(attrs);
        if name == "script" || name == "style" {
            let close = format!("</{name}");
            rest = rest.find(&close).map_or("", |e| &rest[e..]);
        }
    }
    found
}

/// The attributes of a tag from just after its name, and where the tag
/// ends (after its `>`).
fn attributes(s: &str) -> (Vec<(&str, String)>, usize) {
    let b = s.as_bytes();
    let mut attrs = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() {
            return (attrs, i);
        }
        if b[i] == b'>' {
            return (attrs, i + 1);
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !b"=>/".contains(&b[i]) {
            i += 1;
        }
        let key = &s[start..i];
        let mut value = String::new();
        if b.get(i) == Some(&b'=') {
            i += 1;
            match b.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    let end = s[i + 1..].find(q as char).map_or(b.len(), |e| i + 1 + e);
                    value = stoa_doc::escape::xml_unescape(&s[i + 1..end.min(s.len())]);
                    i = (end + 1).min(b.len());
                }
                _ => {
                    let start = i;
                    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                        i += 1;
                    }
                    value = stoa_doc::escape::xml_unescape(&s[start..i]);
                }
            }
        }
        if key.is_empty() {
            i += 1;
            continue;
        }
        attrs.push((key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> Vec<u8> {
        format!("<!DOCTYPE html>\n<html><head><link rel=\"stylesheet\" href=\"style.css\"></head><body><main id=\"main\"><h2 id=\"a\">A</h2>{body}</main></body></html>").into_bytes()
    }

    fn check(body: &str) -> Vec<String> {
        let files = vec![
            (
                "index.html".to_string(),
                page("<a href=\"one.html#a\">one</a>"),
            ),
            ("one.html".to_string(), page(body)),
            ("style.css".to_string(), b"p{}".to_vec()),
            ("images/p/x.png".to_string(), Vec::new()),
        ];
        web(&files).err().unwrap_or_default()
    }

    #[test]
    fn a_sound_edition_passes_and_other_editions_are_not_its_concern() {
        let body = "<img src=\"images/p/x.png\" alt=\"\"><br><a href=\"#a\">up</a> <a href=\"../en/one.html#zz\">en</a> <a href=\"https://x.org/?a=1&amp;b=2\">web</a><script>if (a<b) {}</script><!-- <a href=\"gone\"> -->";
        assert_eq!(check(body), Vec::<String>::new());
    }

    #[test]
    fn each_mistake_is_named_with_its_page() {
        for (body, expected) in [
            (
                "<p id=\"a\">again</p>",
                "one.html: the id `a` is given twice",
            ),
            (
                "<a href=\"github\">x</a>",
                "one.html: `github` leads to no file of the edition",
            ),
            (
                "<a href=\"index.html#nope\">x</a>",
                "one.html: `index.html#nope` leads to no id of index.html",
            ),
            (
                "<img src='images/p/y.png' alt=''>",
                "`images/p/y.png` leads to no file",
            ),
        ] {
            let found = check(body);
            assert!(
                found.iter().any(|p| p.contains(expected)),
                "{expected}: {found:?}"
            );
        }
    }
}
