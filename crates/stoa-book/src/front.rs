//! A post's front matter: TOML between two `+++` lines, or YAML between two
//! `---` lines (as Hugo, Jekyll and Zola write it), with the same keys.
//!
//! TOML is strict: an unknown key is an error at its line. YAML front
//! matter comes from other tools and carries their themes' keys, so a key
//! stoa does not know is ignored, all of a post's such keys named in one
//! warning. In both, the common keys of Hugo, Jekyll and Zola are mapped
//! (`description` is the summary, `categories` and `taxonomies` add tags)
//! or reported when they would change the book and stoa cannot do it
//! (`draft`, a `slug` or `lang` other than the folder's or the file's).

use crate::source::SourceFile;
use std::ops::Range;
use stoa_doc::Diagnostic;

/// How a post's front matter is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontFormat {
    /// TOML between `+++` lines.
    Toml,
    /// YAML between `---` lines.
    Yaml,
}

impl FrontFormat {
    /// The fence line.
    pub fn fence(self) -> &'static str {
        match self {
            FrontFormat::Toml => "+++",
            FrontFormat::Yaml => "---",
        }
    }
}

/// Where the front matter is in a post's file.
pub(crate) struct Split {
    /// The byte range of the TOML or YAML (without the fences).
    pub range: Range<usize>,
    /// Where the Markdown body starts.
    pub body_start: usize,
    /// TOML or YAML.
    pub format: FrontFormat,
}

/// Finds the front matter of `file`.
pub(crate) fn split(file: &SourceFile) -> Result<Split, Vec<Diagnostic>> {
    let text = &file.text;
    let mut start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    // Blank lines before the front matter: Hugo reads past them, and a
    // post so written is linked by its slug from the others.
    while let Some(end) = text[start..].find('\n') {
        match text[start..start + end].trim().is_empty() {
            true => start += end + 1,
            false => break,
        }
    }
    let first_line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let format = match text[start..first_line_end].trim_end() {
        "+++" => FrontFormat::Toml,
        "---" => FrontFormat::Yaml,
        _ => {
            return Err(vec![
                file.error_at(start, "the post does not start with front matter")
                    .with_hint(
                        "begin the file with a line `+++`, then `title = \"…\"`, then a line `+++` \
                         (or YAML between two `---` lines)",
                    ),
            ]);
        }
    };
    let fence = format.fence();
    let body = (first_line_end + 1).min(text.len());
    let mut offset = body;
    for line in text[body..].split_inclusive('\n') {
        if line.trim_end() == fence {
            return Ok(Split {
                range: body..offset,
                body_start: offset + line.len(),
                format,
            });
        }
        offset += line.len();
    }
    Err(vec![
        file.error_at(start, "the front matter is never closed")
            .with_hint(format!(
                "end the front matter with a line that holds only `{fence}`"
            )),
    ])
}

/// The front matter `text` (YAML) as a TOML table, or the error's byte
/// offset in `text` and message. Null values are left out (YAML's
/// `summary:` with nothing after it says nothing), keys that are numbers or
/// booleans become strings, tags (`!foo`) are dropped.
pub fn yaml_table(text: &str) -> Result<toml::Table, (usize, String)> {
    if text.trim().is_empty() {
        return Ok(toml::Table::new());
    }
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| {
        let offset = e.location().map_or(0, |l| l.index());
        (offset, e.to_string())
    })?;
    match yaml_to_toml(value, 0) {
        Some(toml::Value::Table(table)) => Ok(table),
        None => Ok(toml::Table::new()),
        Some(other) => Err((
            0,
            format!(
                "the front matter is a YAML {}, not a mapping of keys",
                other.type_str()
            ),
        )),
    }
}

/// A top-level key written again: the byte offset of the line that
/// repeats it, and the key.
pub type Repeat = (usize, String);

/// [`yaml_table`], taking the last of a top-level key written twice (YAML
/// forbids it; Jekyll's and Hugo's readers take the last, and real posts
/// do it): the table, and for each repeat the byte offset of the line that
/// repeats the key, and the key. The earlier entries are blanked, not
/// removed, so that an error's offset is still the file's.
pub fn yaml_table_last_wins(text: &str) -> Result<(toml::Table, Vec<Repeat>), (usize, String)> {
    let (clean, repeats) = blank_repeated_keys(text);
    Ok((yaml_table(&clean)?, repeats))
}

/// The text with every top-level entry whose key a later entry repeats
/// blanked (each character but line breaks a space), and the repeats.
fn blank_repeated_keys(text: &str) -> (String, Vec<Repeat>) {
    // Top-level entries: (key, start, end) in order. A line at column 0
    // that is not a comment, a list item or a document marker starts one;
    // the indented and blank lines after it belong to it.
    let mut entries: Vec<(String, usize, usize)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let starts =
            !line.starts_with([' ', '\t', '#', '-', '\n', '\r']) && !line.starts_with("...");
        let key = line
            .split_once(':')
            .map(|(k, _)| k.trim().trim_matches(['"', '\'']).to_string());
        match (starts, key) {
            (true, Some(key)) if !key.is_empty() => {
                entries.push((key, offset, offset + line.len()))
            }
            _ => {
                if let Some(last) = entries.last_mut() {
                    last.2 = offset + line.len();
                }
            }
        }
        offset += line.len();
    }
    let mut repeats = Vec::new();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    for (i, (key, start, end)) in entries.iter().enumerate() {
        if let Some((_, later, _)) = entries[i + 1..].iter().find(|(k, _, _)| k == key) {
            blank.push((*start, *end));
            if !repeats.iter().any(|(_, k)| k == key) {
                repeats.push((*later, key.clone()));
            }
        }
    }
    if blank.is_empty() {
        return (text.to_string(), repeats);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let blanked = blank.iter().any(|(s, e)| (*s..*e).contains(&i));
        out.push(if blanked && c != '\n' { ' ' } else { c });
    }
    repeats.sort();
    (out, repeats)
}

/// The deepest nesting converted; deeper values are dropped (serde_yaml
/// itself refuses far deeper input).
const MAX_DEPTH: usize = 64;

fn yaml_to_toml(value: serde_yaml::Value, depth: usize) -> Option<toml::Value> {
    use serde_yaml::Value as Y;
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match value {
        Y::Null => return None,
        Y::Bool(b) => toml::Value::Boolean(b),
        Y::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        Y::String(s) => toml::Value::String(s),
        Y::Sequence(items) => toml::Value::Array(
            items
                .into_iter()
                .filter_map(|v| yaml_to_toml(v, depth + 1))
                .collect(),
        ),
        Y::Mapping(map) => {
            let mut table = toml::Table::new();
            for (k, v) in map {
                let key = match k {
                    Y::String(s) => s,
                    Y::Bool(b) => b.to_string(),
                    Y::Number(n) => n.to_string(),
                    _ => continue,
                };
                if let Some(v) = yaml_to_toml(v, depth + 1) {
                    table.insert(key, v);
                }
            }
            toml::Value::Table(table)
        }
        Y::Tagged(tagged) => return yaml_to_toml(tagged.value, depth + 1),
    })
}

/// The byte offset in `file` of the root key `key` of the front matter at
/// `range` (`key =` in TOML, `key:` in YAML), or the front matter's start.
pub(crate) fn key_offset(file: &SourceFile, range: &Range<usize>, key: &str) -> usize {
    let text = &file.text[range.clone()];
    let mut offset = range.start;
    for line in text.split_inclusive('\n') {
        let rest = line.trim_start();
        let rest = rest
            .strip_prefix('"')
            .and_then(|r| r.strip_prefix(key))
            .and_then(|r| r.strip_prefix('"'))
            .or_else(|| rest.strip_prefix(key));
        if let Some(after) = rest
            && (after.trim_start().starts_with('=') || after.trim_start().starts_with(':'))
        {
            return offset + (line.len() - line.trim_start().len());
        }
        offset += line.len();
    }
    range.start
}

/// The keys of Hugo, Jekyll and Zola stoa reads, beside its own, and what
/// it makes of them.
#[derive(Default, serde::Deserialize)]
pub(crate) struct ToolKeys {
    pub draft: Option<toml::Value>,
    pub slug: Option<toml::Value>,
    #[serde(rename = "translationKey")]
    pub translation_key: Option<toml::Value>,
    pub lang: Option<toml::Value>,
    pub categories: Option<toml::Value>,
    pub taxonomies: Option<toml::Value>,
    pub description: Option<toml::Value>,
    pub aliases: Option<toml::Value>,
    pub weight: Option<toml::Value>,
    pub cover: Option<toml::Value>,
    pub image: Option<toml::Value>,
}

/// The tool keys' names, as written in a front matter.
pub(crate) const TOOL_KEYS: [&str; 11] = [
    "draft",
    "slug",
    "translationKey",
    "lang",
    "categories",
    "taxonomies",
    "description",
    "aliases",
    "weight",
    "cover",
    "image",
];

/// stoa's own keys of a post's front matter.
pub(crate) const STOA_KEYS: [&str; 9] = [
    "title",
    "date",
    "tags",
    "summary",
    "short-title",
    "plugins",
    "translation-of",
    "opening",
    "lint",
];

/// What the tool keys give the post: tags to add and a summary when it has
/// none; warnings for the rest.
pub(crate) struct Mapped {
    /// Tags from `categories` and `taxonomies`.
    pub tags: Vec<String>,
    /// The `description`, for a post without `summary`.
    pub summary: Option<String>,
}

/// Maps or reports the tool keys of the post `slug` in language `lang`.
pub(crate) fn map_tool_keys(
    file: &SourceFile,
    range: &Range<usize>,
    keys: ToolKeys,
    has_summary: bool,
    slug: &str,
    warnings: &mut Vec<Diagnostic>,
) -> Mapped {
    let warn = |key: &str, message: String, hint: &str| {
        let (line, column) = crate::source::line_col(&file.text, key_offset(file, range, key));
        Diagnostic::warning(message)
            .in_file(&file.display)
            .at(line, column)
            .with_hint(hint)
    };
    let own_lang = file
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut ignored = Vec::new();
    if let Some(draft) = keys.draft
        && draft.as_bool() != Some(false)
    {
        warnings.push(warn(
            "draft",
            "the post is marked as a draft, and stoa builds every post a book lists".into(),
            "leave the post out of the book's `posts` until it is ready, and remove `draft`",
        ));
    }
    if let Some(value) = keys.slug {
        let given = value.as_str().unwrap_or_default();
        if given != slug {
            warnings.push(warn(
                "slug",
                format!("`slug` is `{given}`, but a post's slug is its folder's name, `{slug}`"),
                "rename the folder (and the post in book.toml) to change the slug, and remove `slug`",
            ));
        }
    }
    if let Some(value) = keys.lang {
        let given = value.as_str().unwrap_or_default();
        if !given.replace('_', "-").eq_ignore_ascii_case(&own_lang) {
            warnings.push(warn(
                "lang",
                format!(
                    "`lang` is `{given}`, but a post's language is its file's name, `{own_lang}`"
                ),
                "rename the file to change its language, and remove `lang`",
            ));
        }
    }
    let mut tags = Vec::new();
    let strings = |value: &toml::Value, out: &mut Vec<String>| match value {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(items) => {
            out.extend(items.iter().filter_map(|v| v.as_str().map(str::to_string)))
        }
        _ => {}
    };
    if let Some(value) = &keys.categories {
        strings(value, &mut tags);
    }
    if let Some(toml::Value::Table(taxonomies)) = &keys.taxonomies {
        for value in taxonomies.values() {
            strings(value, &mut tags);
        }
    }
    let summary = match keys.description {
        Some(toml::Value::String(s)) if !has_summary => Some(s),
        Some(_) => {
            ignored.push("description (the post has a summary)".to_string());
            None
        }
        None => None,
    };
    if keys.translation_key.is_some() {
        ignored.push("translationKey (a post's translations are the files of its folder)".into());
    }
    if keys.aliases.is_some() {
        ignored.push("aliases (a book has no web addresses to redirect)".into());
    }
    if keys.weight.is_some() {
        ignored.push("weight (book.toml's `posts` gives the order)".into());
    }
    for (key, value) in [("cover", keys.cover), ("image", keys.image)] {
        if value.is_some() {
            warnings.push(warn(
                key,
                format!("`{key}` names an image that stoa does not show"),
                "to show it, put it in the body: ![description](file.jpg), and remove the key",
            ));
        }
    }
    if !ignored.is_empty() {
        warnings.push(warn(
            TOOL_KEYS
                .iter()
                .find(|k| ignored.iter().any(|i| i.starts_with(*k)))
                .copied()
                .unwrap_or("title"),
            format!("front-matter keys ignored: {}", ignored.join(", ")),
            "remove them, or keep them: they change nothing in the book",
        ));
    }
    Mapped { tags, summary }
}

/// The unknown keys of a YAML front matter, named in one warning at the
/// first of them.
pub(crate) fn unknown_yaml_keys(
    file: &SourceFile,
    range: &Range<usize>,
    table: &toml::Table,
) -> Option<Diagnostic> {
    let unknown: Vec<&str> = table
        .keys()
        .map(String::as_str)
        .filter(|k| !STOA_KEYS.contains(k) && !TOOL_KEYS.contains(k))
        .collect();
    let first = unknown.first()?;
    let (line, column) = crate::source::line_col(&file.text, key_offset(file, range, first));
    let near: Vec<String> = unknown
        .iter()
        .filter_map(|k| {
            STOA_KEYS
                .iter()
                .find(|s| strsim::levenshtein(k, s) <= 2 && k.len() > 2)
                .map(|s| format!("`{k}` (did you mean `{s}`?)"))
        })
        .collect();
    let list = unknown
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let hint = if near.is_empty() {
        "stoa ignores keys it has no use for; docs/reference.md lists the keys it reads".to_string()
    } else {
        format!("check the spelling of {}", near.join(", "))
    };
    Some(
        Diagnostic::warning(format!(
            "front-matter keys stoa does not use, ignored: {list}"
        ))
        .in_file(&file.display)
        .at(line, column)
        .with_hint(hint),
    )
}

/// Takes the key `key` out of a YAML front matter's `table` as a `T`; an
/// error at the key's line when it is of the wrong type.
pub(crate) fn take<T: serde::de::DeserializeOwned>(
    file: &SourceFile,
    range: &Range<usize>,
    table: &mut toml::Table,
    key: &str,
    expected: &str,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let value = table.remove(key)?;
    let type_str = value.type_str();
    match T::deserialize(value) {
        Ok(v) => Some(v),
        Err(e) => {
            let mut message = e.message().trim().to_string();
            if message.is_empty() || message.starts_with("invalid type") {
                message = format!("`{key}` must be {expected}, not {type_str}");
            } else {
                message = format!("`{key}`: {message}");
            }
            errors.push(
                file.error_at(key_offset(file, range, key), message)
                    .with_hint("see docs/reference.md for the front matter's keys"),
            );
            None
        }
    }
}

/// A YAML date (`2024-05-31`, or with a time, `2024-05-31 10:00:00 +0200`
/// as Jekyll writes it, `2024-05-31T10:00:00Z`) as a TOML date, its day:
/// a book prints dates, not times.
pub(crate) fn yaml_date(value: &toml::Value) -> Option<toml::value::Datetime> {
    let text = value.as_str()?.trim();
    let day = text.get(..10)?;
    let rest = &text[10..];
    if !(rest.is_empty() || rest.starts_with(['T', 't', ' '])) {
        return None;
    }
    let date: toml::value::Datetime = day.parse().ok()?;
    date.date.is_some().then_some(date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_becomes_a_table() {
        let t = yaml_table("title: \"T\"\ntags: [a, b]\nsummary:\n1: x\n").unwrap();
        assert_eq!(t["title"].as_str(), Some("T"));
        assert_eq!(t["tags"].as_array().unwrap().len(), 2);
        assert!(!t.contains_key("summary"));
        assert_eq!(t["1"].as_str(), Some("x"));
        let (offset, message) = yaml_table("title: x\ntags: [a\n").unwrap_err();
        assert!(offset > 0, "{message}");
        assert!(yaml_table("- a\n- b\n").is_err());
        // A key written twice: the last wins, and the repeat is said.
        let text = "title: Old\ntags:\n  - a\nlayout: post\ntitle: New\ntags: [b]\n";
        assert!(yaml_table(text).is_err());
        let (t, repeats) = yaml_table_last_wins(text).unwrap();
        assert_eq!(t["title"].as_str(), Some("New"));
        assert_eq!(t["tags"].as_array().unwrap()[0].as_str(), Some("b"));
        assert_eq!(t["layout"].as_str(), Some("post"));
        let keys: Vec<_> = repeats
            .iter()
            .map(|(at, k)| (text[..*at].lines().count() + 1, k.as_str()))
            .collect();
        assert_eq!(keys, [(5, "title"), (6, "tags")]);
        let (_, none) = yaml_table_last_wins("a: 1\nb:\n  a: 2\n").unwrap();
        assert!(none.is_empty());
    }

    #[test]
    fn yaml_dates_keep_their_day() {
        let d = |s: &str| yaml_date(&toml::Value::String(s.into())).map(|d| d.to_string());
        assert_eq!(d("2024-05-31").as_deref(), Some("2024-05-31"));
        assert_eq!(
            d("2024-05-31 10:00:00 +0200").as_deref(),
            Some("2024-05-31")
        );
        assert_eq!(d("2024-05-31T10:00:00Z").as_deref(), Some("2024-05-31"));
        assert_eq!(d("May 31"), None);
        assert_eq!(d("2024-05-31x"), None);
    }

    #[test]
    fn blank_lines_before_the_front_matter_are_read_past() {
        let file = SourceFile {
            path: "p.md".into(),
            display: "p.md".into(),
            text: "\u{feff}\n  \n---\ntitle: Late\n---\nBody.\n".into(),
        };
        let found = split(&file).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(found.format, FrontFormat::Yaml);
        assert_eq!(&file.text[found.range.clone()], "title: Late\n");
        assert_eq!(&file.text[found.body_start..], "Body.\n");
    }

    #[test]
    fn yaml_bombs_are_errors_not_hangs() {
        let mut bomb =
            String::from("a: &a [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n");
        let mut prev = 'a';
        for name in "bcdefghijklmnop".chars() {
            bomb.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
            prev = name;
        }
        assert!(yaml_table(&bomb).is_err());
        let deep = format!("a: {}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(yaml_table(&deep).is_err());
    }
}
