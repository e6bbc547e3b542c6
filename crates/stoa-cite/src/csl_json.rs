//! CSL-JSON (what Zotero, Mendeley and pandoc export): each item mapped to
//! the hayagriva entry it describes, parents for what an item is published
//! in, then read as hayagriva's own format (JSON being YAML), so that one
//! reader checks every format's entries alike.

use crate::error::SourceError;
use stoa_doc::serde_json::{Map, Value, json};

/// The hayagriva library of a CSL-JSON file (an array of items, or an
/// object with an `items` array).
pub(crate) fn to_hayagriva(text: &str) -> Result<String, SourceError> {
    let value: Value = stoa_doc::serde_json::from_str(text).map_err(|e| SourceError {
        line: e.line().max(1),
        column: e.column().max(1),
        message: format!("CSL-JSON: {e}"),
    })?;
    let items = match &value {
        Value::Array(items) => items,
        Value::Object(o) => match o.get("items") {
            Some(Value::Array(items)) => items,
            _ => return Err(at_start("CSL-JSON: the file is not a list of items")),
        },
        _ => return Err(at_start("CSL-JSON: the file is not a list of items")),
    };
    // Written by hand, not as a map: the entries stay in the file's order.
    let mut library: Vec<(String, Value)> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let Some(item) = item.as_object() else {
            return Err(item_error(text, n, None, "is not an object"));
        };
        let Some(id) = item.get("id").and_then(scalar) else {
            return Err(item_error(text, n, None, "has no `id`"));
        };
        if library.iter().any(|(known, _)| *known == id) {
            return Err(item_error(text, n, Some(&id), "repeats an `id`"));
        }
        library.push((id, entry(item)));
    }
    let entries: Vec<String> = library
        .iter()
        .map(|(id, e)| format!("{}: {e}", Value::String(id.clone())))
        .collect();
    Ok(format!("{{{}}}", entries.join(", ")))
}

fn at_start(message: &str) -> SourceError {
    SourceError {
        line: 1,
        column: 1,
        message: message.into(),
    }
}

/// A mistake in the `n`th item (from 0), at its `"id"` when it has one.
fn item_error(text: &str, n: usize, id: Option<&str>, what: &str) -> SourceError {
    let at = id
        .and_then(|id| text.find(&format!("\"{id}\"")))
        .unwrap_or(0);
    let before = &text[..at];
    SourceError {
        line: before.matches('\n').count() + 1,
        column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
        message: format!("CSL-JSON: item {} {what}", n + 1),
    }
}

/// A string or number as text.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The hayagriva entry of one CSL item.
fn entry(item: &Map<String, Value>) -> Value {
    let get = |key: &str| item.get(key).and_then(scalar);
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
    let (own, parent) = match kind {
        "book" => ("book", None),
        "chapter" | "entry-encyclopedia" | "entry-dictionary" => ("chapter", Some("book")),
        "article-journal" => ("article", Some("periodical")),
        "article-magazine" => ("article", Some("periodical")),
        "article-newspaper" => ("article", Some("newspaper")),
        "paper-conference" => ("article", Some("proceedings")),
        "post-weblog" => ("article", Some("blog")),
        "thesis" => ("thesis", None),
        "report" => ("report", None),
        "webpage" | "post" => ("web", None),
        "manuscript" => ("manuscript", None),
        "patent" => ("patent", None),
        _ => ("misc", None),
    };
    let mut e = Map::new();
    e.insert("type".into(), json!(own));
    for (csl, ours) in [("title", "title"), ("URL", "url"), ("edition", "edition")] {
        if let Some(v) = get(csl) {
            e.insert(ours.into(), json!(v));
        }
    }
    for (csl, ours) in [("author", "author"), ("editor", "editor")] {
        if let Some(names) = names(item.get(csl)) {
            e.insert(ours.into(), names);
        }
    }
    if let Some(names) = names(item.get("translator")) {
        e.insert(
            "affiliated".into(),
            json!([{ "role": "translator", "names": names }]),
        );
    }
    if let Some(date) = date(item.get("issued")) {
        e.insert("date".into(), json!(date));
    }
    if let Some(pages) = get("page") {
        e.insert("page-range".into(), json!(pages.replace('–', "-")));
    }
    let mut serial = Map::new();
    for (csl, ours) in [("DOI", "doi"), ("ISBN", "isbn"), ("ISSN", "issn")] {
        if let Some(v) = get(csl) {
            serial.insert(ours.into(), json!(v));
        }
    }
    if !serial.is_empty() {
        e.insert("serial-number".into(), Value::Object(serial));
    }
    // Where it was published: the item's, or its parent's.
    let mut publisher = Map::new();
    if let Some(name) = get("publisher") {
        publisher.insert("name".into(), json!(name));
    }
    if let Some(place) = get("publisher-place") {
        publisher.insert("location".into(), json!(place));
    }
    let mut home = Map::new();
    if !publisher.is_empty() {
        home.insert("publisher".into(), Value::Object(publisher));
    }
    for (csl, ours) in [("volume", "volume"), ("issue", "issue")] {
        if let Some(v) = get(csl) {
            home.insert(ours.into(), json!(v));
        }
    }
    match parent {
        Some(parent) => {
            let mut p = home;
            p.insert("type".into(), json!(parent));
            if let Some(title) = get("container-title") {
                p.insert("title".into(), json!(title));
            }
            e.insert("parent".into(), Value::Object(p));
        }
        None => e.extend(home),
    }
    Value::Object(e)
}

/// CSL names (`{"family", "given"}` or `{"literal"}`) as hayagriva's
/// `Family, Given`.
fn names(v: Option<&Value>) -> Option<Value> {
    let list: Vec<String> = v?
        .as_array()?
        .iter()
        .filter_map(|n| {
            let n = n.as_object()?;
            let part = |k: &str| n.get(k).and_then(scalar);
            if let Some(literal) = part("literal") {
                return Some(literal);
            }
            let family = part("family")?;
            let family = match part("non-dropping-particle") {
                Some(particle) => format!("{particle} {family}"),
                None => family,
            };
            Some(match part("given") {
                Some(given) => format!("{family}, {given}"),
                None => family,
            })
        })
        .collect();
    (!list.is_empty()).then(|| json!(list))
}

/// `{"date-parts": [[2016, 5, 1]]}` as `2016-05-01` (or `2016`), or the
/// item's `raw` / `literal` date when it has no parts.
fn date(v: Option<&Value>) -> Option<String> {
    let v = v?.as_object()?;
    if let Some(parts) = v
        .get("date-parts")
        .and_then(Value::as_array)
        .and_then(|p| p.first())
        .and_then(Value::as_array)
    {
        let numbers: Vec<i64> = parts
            .iter()
            .filter_map(|p| p.as_i64().or_else(|| p.as_str()?.trim().parse().ok()))
            .collect();
        return match numbers.as_slice() {
            [] => None,
            [y] => Some(format!("{y:04}")),
            [y, m] => Some(format!("{y:04}-{m:02}")),
            [y, m, d, ..] => Some(format!("{y:04}-{m:02}-{d:02}")),
        };
    }
    ["raw", "literal"]
        .iter()
        .find_map(|k| v.get(*k).and_then(scalar))
}

#[cfg(test)]
mod tests {
    use crate::Library;

    const CSL: &str = r#"[
  {"id": "strang2016", "type": "book", "title": "Introduction to Linear Algebra",
   "author": [{"family": "Strang", "given": "Gilbert"}], "edition": "5",
   "issued": {"date-parts": [[2016]]}, "publisher": "Wellesley-Cambridge Press",
   "publisher-place": "Wellesley", "ISBN": "978-0-9802327-7-6"},
  {"id": "knuth1984", "type": "article-journal", "title": "Literate Programming",
   "author": [{"family": "Knuth", "given": "Donald E."}],
   "container-title": "The Computer Journal", "volume": 27, "issue": "2",
   "page": "97–111", "issued": {"date-parts": [[1984, 1, 1]]},
   "DOI": "10.1093/comjnl/27.2.97"},
  {"id": "unicef", "type": "report", "title": "The State of the World's Children",
   "author": [{"literal": "UNICEF"}], "issued": {"date-parts": [["2023"]]}}
]"#;

    #[test]
    fn csl_json_items_are_read_as_their_entries() {
        let library = Library::parse("refs.json", CSL).unwrap();
        assert_eq!(
            library.keys().collect::<Vec<_>>(),
            ["strang2016", "knuth1984", "unicef"]
        );
        let knuth = library.entry("knuth1984").unwrap();
        assert_eq!(knuth.title().unwrap().to_string(), "Literate Programming");
        let journal = &knuth.parents()[0];
        assert_eq!(journal.title().unwrap().to_string(), "The Computer Journal");
        assert_eq!(knuth.authors().unwrap()[0].name, "Knuth");
        let strang = library.entry("strang2016").unwrap();
        assert_eq!(strang.date().unwrap().year, 2016);
        assert_eq!(
            strang.publisher().unwrap().name().unwrap().to_string(),
            "Wellesley-Cambridge Press"
        );
        let unicef = library.entry("unicef").unwrap();
        assert_eq!(unicef.authors().unwrap()[0].name, "UNICEF");
    }

    #[test]
    fn a_broken_file_or_item_says_where() {
        let e = Library::parse("refs.json", "[\n  {\"id\": \"a\",,}\n]").unwrap_err();
        assert_eq!(
            (e.line, e.message.starts_with("CSL-JSON:")),
            (2, true),
            "{e}"
        );
        let e = Library::parse("refs.json", "[{\"title\": \"No id\"}]").unwrap_err();
        assert_eq!(e.message, "CSL-JSON: item 1 has no `id`");
        let e = Library::parse("refs.json", "[{\"id\": \"a\"},\n{\"id\": \"a\"}]").unwrap_err();
        assert_eq!(e.message, "CSL-JSON: item 2 repeats an `id`");
        let e = Library::parse("refs.json", "{\"a\": 1}").unwrap_err();
        assert_eq!(e.message, "CSL-JSON: the file is not a list of items");
    }
}
