//! `stoa translations mark`: records in a translation's front matter which
//! version of its source it translates, touching nothing else in the file.

use crate::compare::mark_of;
use crate::status::languages_of;
use std::io::Write;
use std::path::{Path, PathBuf};
use stoa_book::{TRANSLATION_OF, read_header};
use stoa_doc::Diagnostic;

/// What marking did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    /// The translation's file.
    pub path: PathBuf,
    /// The language of its source.
    pub from: String,
    /// The fingerprint recorded.
    pub fingerprint: String,
    /// False when the file already said so and was left alone.
    pub written: bool,
}

/// Marks `<folder>/<lang>.md` as translating the current text of its
/// source: the language in `from`, else the one its key names, else the
/// folder's only other language.
pub fn mark(folder: &Path, lang: &str, from: Option<&str>) -> Result<Marked, Vec<Diagnostic>> {
    let slug = folder
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let present = languages_of(folder);
    let path = folder.join(format!("{lang}.md"));
    if !present.iter().any(|l| l == lang) {
        return Err(vec![
            Diagnostic::error(format!(
                "post `{slug}` has no `{lang}` file ({})",
                path.display()
            ))
            .with_hint(format!("its languages are: {}", present.join(", "))),
        ]);
    }
    let header = read_header(&path)?;
    let others: Vec<&String> = present.iter().filter(|l| *l != lang).collect();
    let from = match (from, &header.translation_of) {
        (Some(f), _) => f.to_string(),
        (None, Some(record)) => record.lang.clone(),
        (None, None) => match others.as_slice() {
            [only] => only.to_string(),
            [] => {
                return Err(vec![
                    Diagnostic::error(format!(
                        "post `{slug}` exists only in `{lang}`: there is no source to translate"
                    ))
                    .in_file(&header.file.display),
                ]);
            }
            _ => match original(folder, &others) {
                Some(original) => original,
                None => {
                    let list: Vec<&str> = others.iter().map(|s| s.as_str()).collect();
                    return Err(vec![
                        Diagnostic::error(format!(
                            "post `{slug}` is written in {}; which one does `{lang}` translate?",
                            list.join(", ")
                        ))
                        .in_file(&header.file.display)
                        .with_hint(format!(
                            "say it: stoa translations mark {slug} {lang} --from {}",
                            list[0]
                        )),
                    ]);
                }
            },
        },
    };
    if from == lang {
        return Err(vec![
            Diagnostic::error(format!("`{lang}` cannot translate itself"))
                .with_hint("name the language of the original with --from"),
        ]);
    }
    if !others.iter().any(|l| **l == from) {
        return Err(vec![
            Diagnostic::error(format!(
                "post `{slug}` has no `{from}` file to translate from"
            ))
            .with_hint(format!("its languages are: {}", present.join(", "))),
        ]);
    }
    let source = read_header(&folder.join(format!("{from}.md")))?;
    if source
        .translation_of
        .as_ref()
        .is_some_and(|back| back.lang == lang)
    {
        return Err(vec![
            Diagnostic::error(format!(
                "{} says it translates {}; a post has one original",
                source.file.display, header.file.display
            ))
            .with_hint(format!(
                "remove `{TRANSLATION_OF}` from {} first",
                source.file.display
            )),
        ]);
    }
    let (fingerprint, paragraphs) = mark_of(&source);
    let yaml = header.format == stoa_book::FrontFormat::Yaml;
    let line = if yaml {
        format!(
            "{TRANSLATION_OF}: {{ lang: \"{from}\", fingerprint: \"{fingerprint}\", paragraphs: \"{paragraphs}\" }}"
        )
    } else {
        format!(
            "{TRANSLATION_OF} = {{ lang = \"{from}\", fingerprint = \"{fingerprint}\", paragraphs = \"{paragraphs}\" }}"
        )
    };
    let text = &header.file.text;
    let front = &header.front;
    let set = if yaml { set_yaml_key } else { set_key };
    let new_front = set(&text[front.clone()], &line)
        .map_err(|why| vec![Diagnostic::error(why).in_file(&header.file.display)])?;
    let new_text = format!(
        "{}{}{}",
        &text[..front.start],
        new_front,
        &text[front.end..]
    );
    let marked = Marked {
        path: path.clone(),
        from,
        fingerprint,
        written: new_text != *text,
    };
    if marked.written {
        write_atomically(&path, new_text.as_bytes()).map_err(|e| {
            vec![Diagnostic::error(format!(
                "cannot write {}: {e}",
                path.display()
            ))]
        })?;
    }
    Ok(marked)
}

/// The one language among `others` that the post's other translations
/// already name as their source, if there is exactly one.
fn original(folder: &Path, others: &[&String]) -> Option<String> {
    let mut named: Vec<String> = others
        .iter()
        .filter_map(|l| read_header(&folder.join(format!("{l}.md"))).ok())
        .filter_map(|h| h.translation_of.map(|t| t.lang))
        .filter(|l| others.contains(&l))
        .collect();
    named.sort();
    named.dedup();
    match named.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The front matter `front` (TOML) with the root key written as `line`:
/// in place of the old one-line key, else after the last root key (before
/// the first table). Refuses, leaving the file alone, when the result would
/// not read back as the same front matter with only that key changed.
pub fn set_key(front: &str, line: &str) -> Result<String, String> {
    let eol = if front.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = front.split_inclusive('\n').collect();
    let is_key = |l: &str| {
        l.trim_start()
            .strip_prefix(TRANSLATION_OF)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    let is_table = |l: &str| l.trim_start().starts_with('[');
    let mut out = String::with_capacity(front.len() + line.len() + 2);
    if let Some(i) = lines.iter().position(|l| is_key(l)) {
        for (j, l) in lines.iter().enumerate() {
            if j == i {
                out.push_str(line);
                out.push_str(eol);
            } else {
                out.push_str(l);
            }
        }
    } else {
        let at = lines
            .iter()
            .position(|l| is_table(l))
            .unwrap_or(lines.len());
        // Keep blank lines and comments that introduce the first table
        // with that table.
        let mut at_key = at;
        while at_key > 0 && {
            let t = lines[at_key - 1].trim();
            t.is_empty() || t.starts_with('#')
        } {
            at_key -= 1;
        }
        for l in &lines[..at_key] {
            out.push_str(l);
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        out.push_str(line);
        out.push_str(eol);
        for l in &lines[at_key..] {
            out.push_str(l);
        }
    }
    verify(front, &out)?;
    Ok(out)
}

/// The YAML front matter `front` with the root key written as `line`: in
/// place of the old key (and the indented lines of its value), else at the
/// end. Refuses, as [`set_key`] does, a result that would not read back as
/// the same front matter with only that key changed.
pub fn set_yaml_key(front: &str, line: &str) -> Result<String, String> {
    let eol = if front.contains("\r\n") { "\r\n" } else { "\n" };
    let lines: Vec<&str> = front.split_inclusive('\n').collect();
    let is_key = |l: &str| {
        l.strip_prefix(TRANSLATION_OF)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    };
    let mut out = String::with_capacity(front.len() + line.len() + 2);
    let mut replaced = false;
    let mut skipping = false;
    for l in &lines {
        if skipping && (l.starts_with([' ', '\t']) || l.trim().is_empty()) {
            continue;
        }
        skipping = false;
        if !replaced && is_key(l) {
            out.push_str(line);
            out.push_str(eol);
            replaced = true;
            skipping = true;
            continue;
        }
        out.push_str(l);
    }
    if !replaced {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        out.push_str(line);
        out.push_str(eol);
    }
    let refuse = || {
        format!(
            "stoa cannot add `{TRANSLATION_OF}` to this front matter without changing its meaning; write `{TRANSLATION_OF}: {{ … }}` as a one-line key, then mark again"
        )
    };
    let mut old = stoa_book::yaml_table(front).map_err(|(_, e)| e)?;
    let mut new = stoa_book::yaml_table(&out).map_err(|_| refuse())?;
    old.remove(TRANSLATION_OF);
    if !new.remove(TRANSLATION_OF).is_some_and(|v| v.is_table()) || old != new {
        return Err(refuse());
    }
    Ok(out)
}

/// Both texts parse, and they differ only in the key.
fn verify(before: &str, after: &str) -> Result<(), String> {
    let refuse = || {
        format!(
            "stoa cannot add `{TRANSLATION_OF}` to this front matter without changing its meaning; write `{TRANSLATION_OF} = {{ … }}` as a one-line key before any [table], then mark again"
        )
    };
    let mut old: toml::Table = toml::from_str(before).map_err(|e| e.message().to_string())?;
    let mut new: toml::Table = toml::from_str(after).map_err(|_| refuse())?;
    old.remove(TRANSLATION_OF);
    if !new.remove(TRANSLATION_OF).is_some_and(|v| v.is_table()) || old != new {
        return Err(refuse());
    }
    Ok(())
}

/// Writes a temporary file beside `path` and renames it over `path`,
/// keeping the file's permissions, so an interrupted mark leaves the old file.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(path)?.permissions();
    let mut tmp = tempfile::Builder::new()
        .prefix(".stoa-mark-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().set_permissions(permissions)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "translation-of = { lang = \"pt-BR\", fingerprint = \"0123456789abcdef\" }";

    #[test]
    fn adds_the_key_before_the_first_table() {
        let front = "title = \"T\"\ntags = [\n  \"a\",\n]\n\n# settings\n[plugins.dialogue]\nnames = \"title-case\"\n";
        let out = set_key(front, KEY).unwrap();
        assert_eq!(
            out,
            format!(
                "title = \"T\"\ntags = [\n  \"a\",\n]\n{KEY}\n\n# settings\n[plugins.dialogue]\nnames = \"title-case\"\n"
            )
        );
    }

    #[test]
    fn replaces_the_old_key_in_place_and_keeps_crlf() {
        let front = "title = \"T\"\r\ntranslation-of = { lang = \"en\", fingerprint = \"x\" }\r\nsummary = \"S\"\r\n";
        let out = set_key(front, KEY).unwrap();
        assert_eq!(
            out,
            format!("title = \"T\"\r\n{KEY}\r\nsummary = \"S\"\r\n")
        );
    }

    #[test]
    fn refuses_what_it_cannot_place_safely() {
        let front = "title = \"T\"\n[translation-of]\nlang = \"en\"\n";
        assert!(set_key(front, KEY).is_err());
    }

    #[test]
    fn yaml_front_matter_gets_a_yaml_key() {
        let line =
            "translation-of: { lang: \"en\", fingerprint: \"0123456789abcdef\", paragraphs: \"\" }";
        let out = set_yaml_key("title: T\ntags: [a]\n", line).unwrap();
        assert_eq!(out, format!("title: T\ntags: [a]\n{line}\n"));
        let again = set_yaml_key(
            "title: T\ntranslation-of:\n  lang: fr\n  fingerprint: x\ntags: [a]\n",
            line,
        )
        .unwrap();
        assert_eq!(again, format!("title: T\n{line}\ntags: [a]\n"));
    }
}
