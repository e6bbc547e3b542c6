//! book.toml's `[[parts]]` and `opening`: the posts grouped into parts,
//! each with a title per language, and where posts open in print.
//!
//! ```toml
//! opening = "right"            # the book's rule; "any" or "run-on"
//!
//! [[parts]]
//! title = { en = "Dialogues", pt-BR = "Diálogos" }
//! posts = ["dialogue-on-masters", "dialogue-on-the-new-tool"]
//!
//! [[parts]]
//! title = { en = "Short thoughts", pt-BR = "Pensamentos curtos" }
//! opening = "run-on"           # for this part's posts
//! posts = ["market-value", "knowledge-frees"]
//! ```
//!
//! With `posts` also given, the parts must hold exactly its posts, in its
//! order; without it, the parts' posts are the book's, in their order.
//! Every mistake is an error at its line, with what to write instead.

use crate::source::SourceFile;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use stoa_doc::Diagnostic;
use stoa_render::Opening;

/// One `[[parts]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPart {
    #[serde(default)]
    title: BTreeMap<String, String>,
    #[serde(default)]
    posts: Vec<String>,
    opening: Option<String>,
}

/// A part, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct PartConfig {
    /// Its title per language tag (one for each of the book's languages).
    pub title: BTreeMap<String, String>,
    /// Its posts' slugs, in reading order.
    pub posts: Vec<String>,
    /// Where its posts open, unless a post's front matter says otherwise.
    pub opening: Option<Opening>,
    /// The line of its `[[parts]]` header.
    pub line: usize,
}

/// What [`check`] makes of the parts and the book's `opening`.
pub(crate) struct Checked {
    pub parts: Vec<PartConfig>,
    pub opening: Opening,
    /// The book's posts, when `posts` was left out and the parts list them.
    pub posts: Option<Vec<String>>,
}

/// Reads an `opening` value written at `at`; an error with the names to
/// use otherwise.
pub(crate) fn opening(
    file: &SourceFile,
    at: usize,
    value: &str,
    errors: &mut Vec<Diagnostic>,
) -> Option<Opening> {
    if let Some(opening) = Opening::parse(value) {
        return Some(opening);
    }
    let names = Opening::NAMES.map(|n| format!("\"{n}\"")).join(", ");
    let hint = match crate::suggest::closest(value, &Opening::NAMES) {
        Some(near) => format!("did you mean \"{near}\"? The openings are {names}"),
        None => format!("write one of {names}"),
    };
    errors.push(
        file.error_at(at, format!("unknown opening `{value}`"))
            .with_hint(hint),
    );
    None
}

/// Checks the parts against the book's `posts` (`None` when left out)
/// and `languages`.
pub(crate) fn check(
    file: &SourceFile,
    raw: Vec<RawPart>,
    book_opening: Option<&str>,
    posts: Option<&[String]>,
    about: Option<&str>,
    languages: &[String],
    errors: &mut Vec<Diagnostic>,
) -> Checked {
    let book_opening = book_opening
        .and_then(|value| opening(file, key_at(file, "opening", 0), value, errors))
        .unwrap_or_default();
    if raw.is_empty() {
        return Checked {
            parts: Vec::new(),
            opening: book_opening,
            posts: None,
        };
    }
    let headers = headers(file, raw.len());
    // Where each post of `posts` is listed, to point at it: found in one
    // pass from the list's start, as a long blog's list must be.
    let mut listed: HashMap<&str, usize> = HashMap::new();
    let mut from = key_at(file, "posts", 0);
    for slug in posts.unwrap_or_default() {
        let at = file.find(&format!("\"{slug}\""), from);
        from = at + 1;
        listed.entry(slug.as_str()).or_insert(at);
    }
    let mut parts = Vec::new();
    // Each post's part (index) and where the part lists it.
    let mut owner: HashMap<String, (usize, usize)> = HashMap::new();
    let mut order: Vec<(String, usize)> = Vec::new();
    for (index, part) in raw.into_iter().enumerate() {
        let (start, end) = headers[index];
        let name = part_name(&part.title, languages, index);
        let line = crate::source::line_col(&file.text, start).0;
        check_titles(file, &part.title, languages, start, end, &name, errors);
        if part.posts.is_empty() {
            errors.push(
                file.error_at(start, format!("{name} has no posts"))
                    .with_hint("list its posts: posts = [\"…\"], or remove the part"),
            );
        }
        let opening = part.opening.as_deref().and_then(|value| {
            let at = key_at(file, "opening", start).min(end);
            opening(file, at, value, errors)
        });
        let mut from = key_at(file, "posts", start).min(end);
        for slug in &part.posts {
            let at = file.find(&format!("\"{slug}\""), from);
            from = at + 1;
            if let Some((message, hint)) = crate::slug::problem(slug) {
                errors.push(file.error_at(at, message).with_hint(hint));
            } else if let Some(&(other, other_at)) = owner.get(slug) {
                let message = if other == index {
                    format!("post `{slug}` is listed twice in {name}")
                } else {
                    format!(
                        "post `{slug}` is in two parts: {} (line {}) and {name}",
                        part_name_at(&parts, other, languages),
                        crate::source::line_col(&file.text, other_at).0
                    )
                };
                errors.push(
                    file.error_at(at, message)
                        .with_hint("a post belongs to one part; remove it from one of them"),
                );
            } else if Some(slug.as_str()) == about {
                errors.push(
                    file.error_at(at, format!("post `{slug}` is the book's `about` page"))
                        .with_hint("the about page is back matter, outside the parts; remove it from the part"),
                );
            } else if posts.is_some() && !listed.contains_key(slug.as_str()) {
                let known: Vec<&str> = listed.keys().copied().collect();
                let hint = match crate::suggest::closest(slug, &known) {
                    Some(near) => format!(
                        "did you mean `{near}`? Otherwise add `{slug}` to `posts` or remove it from the part"
                    ),
                    None => format!("add `{slug}` to `posts`, or remove it from the part"),
                };
                errors.push(
                    file.error_at(
                        at,
                        format!("{name} lists `{slug}`, which is not in `posts`"),
                    )
                    .with_hint(hint),
                );
            } else {
                owner.insert(slug.clone(), (index, at));
                order.push((slug.clone(), at));
            }
        }
        parts.push(PartConfig {
            title: part.title,
            posts: part.posts,
            opening,
            line,
        });
    }
    let Some(posts) = posts else {
        return Checked {
            posts: Some(order.into_iter().map(|(slug, _)| slug).collect()),
            parts,
            opening: book_opening,
        };
    };
    let before = errors.len();
    for (position, slug) in posts.iter().enumerate() {
        if owner.contains_key(slug) || Some(slug.as_str()) == about {
            continue;
        }
        let hint = match position.checked_sub(1).and_then(|p| owner.get(&posts[p])) {
            Some(&(part, _)) => format!(
                "add it to the `posts` of a [[parts]] table, e.g. {} (line {}), after `{}`",
                part_name_at(&parts, part, languages),
                parts[part].line,
                posts[position - 1]
            ),
            None => "add it to the `posts` of one of the [[parts]] tables".to_string(),
        };
        errors.push(
            file.error_at(
                listed.get(slug.as_str()).copied().unwrap_or(0),
                format!("post `{slug}` is in no part"),
            )
            .with_hint(format!(
                "{hint}: when a book has parts, every post is in one"
            )),
        );
    }
    // The parts must read in the order of `posts` (a mismatch is reported
    // once, at the first post out of place, when nothing else is wrong).
    if errors.len() == before {
        let expected = posts.iter().filter(|s| Some(s.as_str()) != about);
        if let Some(((slug, at), want)) = order
            .iter()
            .zip(expected)
            .find(|((slug, _), want)| slug != *want)
        {
            let want_line = crate::source::line_col(&file.text, listed[want.as_str()]).0;
            errors.push(
                file.error_at(
                    *at,
                    format!(
                        "the parts list `{slug}` where `posts` has `{want}` (line {want_line})"
                    ),
                )
                .with_hint(
                    "list the posts in the parts in the order of `posts`, or leave `posts` out: the parts then give the order",
                ),
            );
        }
    }
    Checked {
        parts,
        opening: book_opening,
        posts: None,
    }
}

/// Each title's language must be one of the book's, and each of the
/// book's languages needs a title that is one line of text.
fn check_titles(
    file: &SourceFile,
    titles: &BTreeMap<String, String>,
    languages: &[String],
    start: usize,
    end: usize,
    name: &str,
    errors: &mut Vec<Diagnostic>,
) {
    let title_at = key_at(file, "title", start).min(end);
    for (tag, value) in titles {
        let at = file.find(tag, title_at).min(end);
        if !languages.contains(tag) {
            errors.push(
                file.error_at(
                    at,
                    format!("{name} has a title for `{tag}`, which is not in `languages`"),
                )
                .with_hint("add the language to `languages` or remove the title"),
            );
        } else if value.trim().is_empty() {
            errors.push(
                file.error_at(at, format!("{name} has an empty title for `{tag}`"))
                    .with_hint("write the part's title as its readers see it"),
            );
        } else if let Some(c) = crate::text::forbidden(value) {
            let (message, hint) = crate::text::message(&format!("title.{tag}"), c);
            errors.push(file.error_at(at, message).with_hint(hint));
        }
    }
    for tag in languages.iter().filter(|t| !titles.contains_key(*t)) {
        errors.push(
            file.error_at(start, format!("{name} has no title for `{tag}`"))
                .with_hint(format!(
                    "add `title.{tag} = \"…\"` to the part (or `{tag} = \"…\"` in its `title = {{ … }}`)"
                )),
        );
    }
}

/// How messages name a part: its title in the book's first language that
/// has one, or its number.
fn part_name(titles: &BTreeMap<String, String>, languages: &[String], index: usize) -> String {
    languages
        .iter()
        .find_map(|tag| titles.get(tag))
        .or_else(|| titles.values().next())
        .filter(|t| !t.trim().is_empty())
        .map_or_else(
            || format!("part {}", index + 1),
            |t| format!("part `{}`", crate::text::one_line(t.trim())),
        )
}

fn part_name_at(parts: &[PartConfig], index: usize, languages: &[String]) -> String {
    part_name(&parts[index].title, languages, index)
}

/// The byte offset of the key `key` (at a line's start, before `=`) at
/// or after `from`; `from` when there is none.
pub(crate) fn key_at(file: &SourceFile, key: &str, from: usize) -> usize {
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        if here < from {
            continue;
        }
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(key)
            && (rest.trim_start().starts_with('=') || rest.starts_with('.'))
        {
            return here + (line.len() - trimmed.len());
        }
    }
    from
}

/// Where each `[[parts]]` table starts and where the next table (or the
/// file) does: parts written as an inline array point at `parts`.
fn headers(file: &SourceFile, count: usize) -> Vec<(usize, usize)> {
    let mut tables: Vec<(usize, bool)> = Vec::new();
    let mut offset = 0;
    for line in file.text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            let at = offset + (line.len() - trimmed.len());
            let is_part = trimmed
                .trim_start_matches('[')
                .trim_start()
                .starts_with("parts")
                && trimmed.starts_with("[[");
            tables.push((at, is_part));
        }
        offset += line.len();
    }
    let starts: Vec<usize> = tables.iter().filter(|t| t.1).map(|t| t.0).collect();
    if starts.len() != count {
        let at = key_at(file, "parts", 0);
        return vec![(at, file.text.len()); count];
    }
    starts
        .iter()
        .map(|&start| {
            let end = tables
                .iter()
                .map(|t| t.0)
                .find(|&t| t > start)
                .unwrap_or(file.text.len());
            (start, end)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use stoa_doc::Diagnostic;
    use stoa_render::Opening;

    const HEAD: &str = r#"author = "A. Author"
languages = ["en", "pt-BR"]
identifier = "urn:uuid:00000000-0000-0000-0000-000000000001"
opening = "any"
posts = ["a", "b", "c"]

[title]
en = "Title"
pt-BR = "Título"
"#;

    const PARTS: &str = r#"
[[parts]]
title = { en = "One", pt-BR = "Um" }
posts = ["a", "b"]

[[parts]]
title.en = "Two"
title.pt-BR = "Dois"
opening = "run-on"
posts = ["c"]
"#;

    fn load(text: &str) -> Result<crate::BookConfig, Vec<Diagnostic>> {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("b");
        std::fs::create_dir(&book).unwrap();
        std::fs::write(book.join("book.toml"), text).unwrap();
        crate::load_config(&book)
    }

    fn one_error(text: &str) -> Diagnostic {
        let errs = load(text).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        errs.into_iter().next().unwrap()
    }

    #[test]
    fn parts_and_openings_are_read() {
        let c = load(&format!("{HEAD}{PARTS}")).unwrap();
        assert_eq!(c.opening, Opening::Any);
        assert_eq!(c.parts.len(), 2);
        assert_eq!(c.parts[0].posts, ["a", "b"]);
        assert_eq!(c.parts[0].line, 11);
        assert_eq!(c.parts[1].opening, Some(Opening::RunOn));
        assert_eq!(c.parts[1].title["pt-BR"], "Dois");
        // Without `posts`, the parts give the posts and their order.
        let c =
            load(&format!("{HEAD}{PARTS}").replace("posts = [\"a\", \"b\", \"c\"]\n", "")).unwrap();
        let slugs: Vec<&str> = c.posts.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(slugs, ["a", "b", "c"]);
        assert_eq!(c.posts[2].1, 18, "the line of `c` in its part");
    }

    #[test]
    fn each_mistake_is_an_error_at_its_line() {
        let text = format!("{HEAD}{PARTS}");
        let e = one_error(&text.replace("posts = [\"c\"]", "posts = [\"c\", \"a\"]"));
        assert!(
            e.message.contains("is in two parts: part `One` (line 13)"),
            "{e}"
        );
        assert_eq!(e.line, Some(19));
        let e = one_error(&text.replace("posts = [\"c\"]", "posts = [\"c\", \"cc\"]"));
        assert!(
            e.message.contains("lists `cc`, which is not in `posts`"),
            "{e}"
        );
        assert!(
            e.hint.as_deref().unwrap().contains("add `cc` to `posts`"),
            "{e}"
        );
        let e = one_error(&text.replace("posts = [\"a\", \"b\"]", "posts = [\"a\"]"));
        assert!(e.message.contains("post `b` is in no part"), "{e}");
        assert_eq!(e.line, Some(5));
        assert!(e.hint.as_deref().unwrap().contains("after `a`"), "{e}");
        let e = one_error(&text.replace("title.pt-BR = \"Dois\"\n", ""));
        assert!(
            e.message.contains("part `Two` has no title for `pt-BR`"),
            "{e}"
        );
        assert_eq!(e.line, Some(15));
        let e = one_error(&text.replace("\"run-on\"", "\"runon\""));
        assert!(e.message.contains("unknown opening `runon`"), "{e}");
        assert!(
            e.hint
                .as_deref()
                .unwrap()
                .contains("did you mean \"run-on\"")
        );
        assert_eq!(e.line, Some(18));
        let e = one_error(&text.replace(
            "posts = [\"a\", \"b\", \"c\"]",
            "posts = [\"b\", \"a\", \"c\"]",
        ));
        assert!(
            e.message
                .contains("the parts list `a` where `posts` has `b`"),
            "{e}"
        );
        let e = one_error(
            &text
                .replace("posts = [\"c\"]", "posts = []\n")
                .replace("[\"a\", \"b\", \"c\"]", "[\"a\", \"b\"]"),
        );
        assert!(e.message.contains("part `Two` has no posts"), "{e}");
        let e = one_error(&text.replace(
            "title.en = \"Two\"",
            "title.en = \"Two\"\ntitle.fr = \"Deux\"",
        ));
        assert!(
            e.message.contains("`fr`, which is not in `languages`"),
            "{e}"
        );
        let e =
            one_error(&text.replace("opening = \"run-on\"", "opening = \"run-on\"\ncolour = 1"));
        assert!(e.message.contains("colour"), "{e}");
        let e = one_error(&HEAD.replace("posts = [\"a\", \"b\", \"c\"]\n", ""));
        assert!(e.message.contains("missing field `posts`"), "{e}");
    }
}
