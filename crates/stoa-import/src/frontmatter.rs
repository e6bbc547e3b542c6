//! The front matter of a Hugo, Jekyll or Zola content file (TOML between
//! `+++`, YAML between `---`, or Hugo's JSON object), and the site
//! configurations, read into TOML tables whatever their format.

use crate::model::{Diagnostic, Place};
use std::path::Path;

/// A content file split into its front matter and its body.
pub(crate) struct Front {
    /// The front matter's keys (an empty table when there is none).
    pub table: toml::Table,
    /// The Markdown after it.
    pub body: String,
    /// The 1-based line the body starts on.
    pub body_line: usize,
    /// The 1-based line of each root key, for messages.
    pub lines: Vec<(String, usize)>,
    /// What reading it noticed (a key written twice).
    pub warnings: Vec<Diagnostic>,
}

impl Front {
    /// The line of the root key `key` (any case), else the first line.
    pub fn line(&self, key: &str) -> usize {
        self.lines
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map_or(1, |(_, l)| *l)
    }

    /// The value of `key`, its case ignored (Hugo's keys are).
    pub fn get(&self, key: &str) -> Option<&toml::Value> {
        get(&self.table, key)
    }

    /// A string value.
    pub fn str(&self, key: &str) -> Option<String> {
        self.get(key).and_then(scalar_string)
    }

    /// A string, or the strings of a list.
    pub fn strings(&self, key: &str) -> Vec<String> {
        self.get(key).map(strings).unwrap_or_default()
    }

    /// A boolean (`true`, or the string `"true"`).
    pub fn bool(&self, key: &str) -> Option<bool> {
        match self.get(key)? {
            toml::Value::Boolean(b) => Some(*b),
            toml::Value::String(s) => match s.trim() {
                "true" | "yes" => Some(true),
                "false" | "no" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// The first of `keys` that holds a date; one that holds something
    /// else is reported at its line of `file`.
    pub fn first_date(
        &self,
        keys: &[&str],
        file: &str,
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        for key in keys {
            let Some(value) = self.get(key) else { continue };
            match date(value) {
                Some(d) => return Some(d),
                None => warnings.push(
                    Place::new(file, Some(self.line(key)))
                        .warning(format!("`{key}` is not a date stoa can read (YYYY-MM-DD); the post is imported without it"))
                        .with_hint("write the date after the import: date = 2024-05-31"),
                ),
            }
        }
        None
    }
}

/// `table[key]`, the key's case ignored.
pub(crate) fn get<'t>(table: &'t toml::Table, key: &str) -> Option<&'t toml::Value> {
    table.get(key).or_else(|| {
        table
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    })
}

/// A string, number or boolean as text.
pub(crate) fn scalar_string(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        toml::Value::Datetime(d) => Some(d.to_string()),
        _ => None,
    }
}

/// A string, or the strings of a list.
pub(crate) fn strings(value: &toml::Value) -> Vec<String> {
    match value {
        toml::Value::Array(items) => items.iter().filter_map(scalar_string).collect(),
        other => scalar_string(other)
            .map(|s| {
                // Jekyll's `tags: a b` is a list separated by spaces;
                // `categories: "a, b"` is common too.
                if s.contains(',') {
                    s.split(',')
                        .map(|t| t.trim().to_string())
                        .filter(|t| !t.is_empty())
                        .collect()
                } else {
                    vec![s]
                }
            })
            .unwrap_or_default(),
    }
}

/// A date as ISO 8601 text: a TOML date or datetime, or a string such as
/// `2024-05-31`, `2024-05-31 10:00:00 +0200` or `2024-05-31T10:00:00Z`;
/// `None` when it does not start with a valid day.
pub(crate) fn date(value: &toml::Value) -> Option<String> {
    let text = match value {
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    if valid_day(&text) {
        return Some(text.replacen(' ', "T", 1));
    }
    written_date(&text)
}

/// A date as people write it in front matter that the tools read too
/// (`25 Aug 2024`, `August 25, 2024`, `2024/08/25`, an RFC 2822 date):
/// its day, `YYYY-MM-DD`.
fn written_date(text: &str) -> Option<String> {
    use chrono::NaiveDate;
    const FORMATS: [&str; 7] = [
        "%d %b %Y",
        "%d %B %Y",
        "%b %d, %Y",
        "%B %d, %Y",
        "%b %d %Y",
        "%B %d %Y",
        "%Y/%m/%d",
    ];
    let day = FORMATS
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(text, f).ok())
        .or_else(|| {
            chrono::DateTime::parse_from_rfc2822(text)
                .ok()
                .map(|d| d.date_naive())
        })?;
    Some(day.format("%Y-%m-%d").to_string())
}

/// True when `text` starts with `YYYY-MM-DD` of a real month and day.
pub(crate) fn valid_day(text: &str) -> bool {
    let Some(day) = text.get(..10) else {
        return false;
    };
    let b = day.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return false;
    }
    let month: u32 = day[5..7].parse().unwrap_or(0);
    let d: u32 = day[8..10].parse().unwrap_or(0);
    (1..=12).contains(&month) && (1..=31).contains(&d)
}

/// Splits `text` (the file `file`) into front matter and body.
/// The plain constants of JavaScript front matter (`const title = "A";`,
/// `let draft = true;`, a number), and whether it holds anything else.
fn js_constants(code: &str) -> (toml::Table, bool) {
    let mut table = toml::Table::new();
    let mut unread = false;
    for line in code.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let constant = ["const ", "let ", "var "]
            .iter()
            .find_map(|k| line.strip_prefix(k))
            .and_then(|rest| rest.split_once('='))
            .and_then(|(name, value)| {
                let name = name.trim();
                let value = value.trim().trim_end_matches(';').trim();
                let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                let value = match value {
                    "true" => toml::Value::Boolean(true),
                    "false" => toml::Value::Boolean(false),
                    v if v.len() >= 2
                        && (v.starts_with('"') && v.ends_with('"')
                            || v.starts_with('\'') && v.ends_with('\'')
                            || v.starts_with('`') && v.ends_with('`') && !v.contains("${")) =>
                    {
                        toml::Value::String(v[1..v.len() - 1].to_string())
                    }
                    v => toml::Value::Integer(v.parse().ok()?),
                };
                plain.then(|| (name.to_string(), value))
            });
        match constant {
            Some((name, value)) => {
                table.insert(name, value);
            }
            None => unread = true,
        }
    }
    (table, unread)
}

pub(crate) fn split(full: &str, file: &str) -> Result<Front, Diagnostic> {
    // A BOM and blank lines before the front matter: the sites' tools
    // read past them.
    let (lead, lead_lines) = leading_blank(full);
    let text = &full[lead..];
    let first_end = text.find('\n').map_or(text.len(), |i| i + 1);
    let first = text[..first_end].trim_end();
    // Eleventy names the language after the fence: `---json`, `---js`.
    let (fence, kind) = match first {
        "+++" => ("+++", "toml"),
        "---" | "---yaml" | "---yml" => ("---", "yaml"),
        "{" => ("}", "json"),
        "---json" => ("---", "json-fenced"),
        "---js" | "---javascript" => ("---", "js"),
        _ => {
            return Ok(Front {
                table: toml::Table::new(),
                body: full.to_string(),
                body_line: 1,
                lines: Vec::new(),
                warnings: Vec::new(),
            });
        }
    };
    let mut offset = first_end;
    let mut close = None;
    for line in text[first_end..].split_inclusive('\n') {
        if line.trim_end() == fence {
            close = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let Some((front_end, body_start)) = close else {
        return Err(Place::new(file, Some(1 + lead_lines))
            .error("the front matter is never closed")
            .with_hint(format!("end it with a line that holds only `{fence}`")));
    };
    let front = &text[first_end..front_end];
    let base_line = 2 + lead_lines;
    let mut warnings = Vec::new();
    let table = match kind {
        "toml" => toml::from_str::<toml::Table>(front).map_err(|e| {
            let line = e
                .span()
                .map_or(0, |s| crate::util::line_of(front, s.start) - 1);
            Place::new(file, Some(base_line + line))
                .error(format!(
                    "the TOML front matter is not valid: {}",
                    e.message().trim()
                ))
                .with_hint("fix the front matter, then import again")
        })?,
        "yaml" => {
            let (table, repeats) =
                stoa_book::yaml_table_last_wins(front).map_err(|(at, message)| {
                    let line = crate::util::line_of(front, at) - 1;
                    Place::new(file, Some(base_line + line))
                        .error(format!("the YAML front matter is not valid: {message}"))
                        .with_hint("fix the front matter, then import again")
                })?;
            // A key written twice: the last wins, as the site's own tool reads it.
            for (at, key) in repeats {
                let line = crate::util::line_of(front, at) - 1;
                warnings.push(
                    Place::new(file, Some(base_line + line))
                        .warning(format!(
                            "the key `{key}` is written twice in the front matter; the last is kept, as the site's tool keeps it"
                        ))
                        .with_hint("remove the earlier one"),
                );
            }
            table
        }
        // Code, which only the site's tool can run: its plain constants
        // (`const title = "…";`) are read, nothing else.
        "js" => {
            let (table, unread) = js_constants(front);
            if unread {
                warnings.push(
                    Place::new(file, Some(1 + lead_lines))
                        .warning("the front matter is JavaScript, which stoa does not run; only its plain constants are read")
                        .with_hint("write what else it sets as YAML front matter (`---`) to keep it"),
                );
            }
            table
        }
        _ => {
            let json = if kind == "json-fenced" {
                front
            } else {
                &text[..body_start]
            };
            let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
                Place::new(file, Some(e.line()))
                    .error(format!("the JSON front matter is not valid: {e}"))
                    .with_hint("fix the front matter, then import again")
            })?;
            match json_to_toml(value, 0) {
                Some(toml::Value::Table(t)) => t,
                _ => toml::Table::new(),
            }
        }
    };
    let mut lines = Vec::new();
    for (i, line) in front.lines().enumerate() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let key = line
            .split([':', '='])
            .next()
            .unwrap_or_default()
            .trim()
            .trim_matches('"');
        if !key.is_empty() && !key.starts_with('#') {
            lines.push((key.to_string(), base_line + i));
        }
    }
    Ok(Front {
        table,
        body: text[body_start..].to_string(),
        body_line: lead_lines + crate::util::line_of(text, body_start),
        lines,
        warnings,
    })
}

/// Where the text starts after a BOM and blank lines, and how many lines
/// that skips.
fn leading_blank(text: &str) -> (usize, usize) {
    let mut start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lines = 0;
    while let Some(end) = text[start..].find('\n') {
        if !text[start..start + end].trim().is_empty() {
            break;
        }
        start += end + 1;
        lines += 1;
    }
    (start, lines)
}

/// A JSON value as TOML (nulls dropped).
pub(crate) fn json_to_toml(value: serde_json::Value, depth: usize) -> Option<toml::Value> {
    use serde_json::Value as J;
    if depth > 64 {
        return None;
    }
    Some(match value {
        J::Null => return None,
        J::Bool(b) => toml::Value::Boolean(b),
        J::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        J::String(s) => toml::Value::String(s),
        J::Array(items) => toml::Value::Array(
            items
                .into_iter()
                .filter_map(|v| json_to_toml(v, depth + 1))
                .collect(),
        ),
        J::Object(map) => toml::Value::Table(
            map.into_iter()
                .filter_map(|(k, v)| json_to_toml(v, depth + 1).map(|v| (k, v)))
                .collect(),
        ),
    })
}

/// Reads a configuration file (TOML, YAML or JSON, by its extension).
pub(crate) fn read_config(path: &Path, max: u64) -> Result<toml::Table, Diagnostic> {
    let text = crate::util::read_text(path, max)?;
    let file = crate::util::display(path);
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "toml" => toml::from_str(&text).map_err(|e| {
            let line = e.span().map_or(1, |s| crate::util::line_of(&text, s.start));
            Place::new(&file, Some(line))
                .error(format!(
                    "the configuration is not valid TOML: {}",
                    e.message().trim()
                ))
                .with_hint("fix it (the site's own tool would refuse it too), then import again")
        }),
        "yaml" | "yml" => stoa_book::yaml_table(&text).map_err(|(at, message)| {
            Place::new(&file, Some(crate::util::line_of(&text, at)))
                .error(format!("the configuration is not valid YAML: {message}"))
                .with_hint("fix it (the site's own tool would refuse it too), then import again")
        }),
        _ => {
            let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                Place::new(&file, Some(e.line()))
                    .error(format!("the configuration is not valid JSON: {e}"))
                    .with_hint("fix it, then import again")
            })?;
            match json_to_toml(value, 0) {
                Some(toml::Value::Table(t)) => Ok(t),
                _ => {
                    Err(Place::new(&file, None).error("the configuration is not an object of keys"))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_formats() {
        let f = split(
            "+++\ntitle = \"T\"\ndate = 2024-05-31T10:00:00Z\n+++\nBody\n",
            "a.md",
        )
        .unwrap();
        assert_eq!(f.str("title").as_deref(), Some("T"));
        assert_eq!(
            f.first_date(&["date"], "a.md", &mut Vec::new()).as_deref(),
            Some("2024-05-31T10:00:00Z")
        );
        assert_eq!((f.body.as_str(), f.body_line), ("Body\n", 5));
        assert_eq!(f.line("date"), 3);
        let f = split(
            "---\nTitle: T\ndate: 2024-05-31 10:00:00 +0200\ntags: a, b\n---\nB\n",
            "a.md",
        )
        .unwrap();
        assert_eq!(f.str("title").as_deref(), Some("T"));
        assert_eq!(
            f.first_date(&["date"], "a.md", &mut Vec::new()).as_deref(),
            Some("2024-05-31T10:00:00 +0200")
        );
        assert_eq!(f.strings("tags"), ["a", "b"]);
        let f = split("{\n\"title\": \"J\"\n}\nB\n", "a.md").unwrap();
        assert_eq!(f.str("title").as_deref(), Some("J"));
        assert_eq!(f.body, "B\n");
        let f = split("# no front matter\n", "a.md").unwrap();
        assert!(f.table.is_empty());
    }

    #[test]
    fn a_bom_and_blank_lines_before_the_front_matter_are_read_past() {
        let text = "\u{feff}\n\n---\ntitle: Late\n---\nBody.\n";
        let front = split(text, "x.md").unwrap();
        assert_eq!(front.str("title").as_deref(), Some("Late"));
        assert_eq!(front.body, "Body.\n");
        assert_eq!(front.body_line, 6);
        assert_eq!(front.line("title"), 4);
        let plain = split("\nNo front matter.\n", "y.md").unwrap();
        assert_eq!(plain.body, "\nNo front matter.\n");
    }

    #[test]
    fn a_key_written_twice_is_the_last_with_a_warning_at_its_line() {
        let text =
            "---\ntitle: Sobre o ócio\nlang: pt\ntitle: Sobre o ócio\nlayout: post\n---\nTexto.\n";
        let front = split(text, "_posts/2023-11-05-x.md").unwrap();
        assert_eq!(front.str("title").as_deref(), Some("Sobre o ócio"));
        assert_eq!(front.warnings.len(), 1, "{:?}", front.warnings);
        let w = &front.warnings[0];
        assert_eq!(w.line, Some(4));
        assert!(
            w.message.contains("`title` is written twice"),
            "{}",
            w.message
        );
        assert!(!w.is_error());
    }

    #[test]
    fn errors_have_their_line() {
        let e = split("---\ntitle: T\ntags: [a\n---\n", "a.md")
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("a.md:"), "{e}");
        let e = split("+++\ntitle = \"T\"\nx = \n+++\n", "a.md")
            .err()
            .unwrap();
        assert_eq!(e.line, Some(3), "{e}");
        let e = split("---\ntitle: T\n", "a.md").err().unwrap();
        assert!(e.message.contains("never closed"));
    }

    #[test]
    fn eleventys_named_front_matter_is_read_or_said() {
        let json = split("---json\n{\"title\": \"J\"}\n---\nBody.\n", "j.md").unwrap();
        assert_eq!(json.str("title").as_deref(), Some("J"));
        assert_eq!(json.body, "Body.\n");
        let js = split(
            "---js\nconst eleventyNavigation = { key: \"About\" };\n---\n# About\n",
            "about.md",
        )
        .unwrap();
        assert_eq!(js.body, "# About\n", "the code is not text of the post");
        assert!(js.table.is_empty());
        assert_eq!(js.warnings.len(), 1);
        assert!(js.warnings[0].message.contains("JavaScript"));
        let plain = split(
            "---js\nconst title = \"A fifth post\";\nconst date = '2023-01-23';\nconst draft = true;\n---\nText.\n",
            "fifth.md",
        )
        .unwrap();
        assert_eq!(plain.str("title").as_deref(), Some("A fifth post"));
        assert_eq!(plain.str("date").as_deref(), Some("2023-01-23"));
        assert_eq!(plain.bool("draft"), Some(true));
        assert!(plain.warnings.is_empty(), "all of it read");
    }

    #[test]
    fn dates_as_people_write_them_are_read() {
        let read = |s: &str| date(&toml::Value::String(s.into()));
        assert_eq!(read("25 Aug 2024").as_deref(), Some("2024-08-25"));
        assert_eq!(read("4 July 2025").as_deref(), Some("2025-07-04"));
        assert_eq!(read("August 25, 2024").as_deref(), Some("2024-08-25"));
        assert_eq!(read("2024/08/25").as_deref(), Some("2024-08-25"));
        assert_eq!(
            read("Sat, 13 Apr 2024 07:45:00 +0000").as_deref(),
            Some("2024-04-13")
        );
        assert_eq!(read("someday"), None);
    }

    #[test]
    fn days_are_checked() {
        assert!(valid_day("2024-05-31"));
        assert!(!valid_day("2024-13-01"));
        assert!(!valid_day("May 2024"));
    }
}
