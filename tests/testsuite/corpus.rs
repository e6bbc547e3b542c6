//! Corpus fidelity: the posts under `books/posts/` are the author's blog export
//! (`tests/fixtures/v1/corpus/blog-<lang>.txt`) split into posts, with Markdown
//! added around his words and nothing else.
//!
//! For each language, every non-blank line of the export must appear, with its
//! words unchanged, in exactly one post of that language, and no post may hold a
//! line that is not in the export (or hold it more often than the export does).
//! Lines are compared after removing only the Markdown markers the split adds:
//! list bullets, heading markers, block-quote markers, backslash escapes,
//! language marks (`<span lang="en">…</span>`) and code fences. Any corpus
//! line allowed to be missing is listed, with its reason, in
//! `tests/testsuite/corpus-exceptions.toml`.

use crate::prelude::repo_root;
use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// Language tags a post file may be named after (`<tag>.md`).
const LANGS: [&str; 2] = ["en", "pt-BR"];

/// Keys allowed in a post's front matter.
// `translation-of` is written by `stoa translations mark` (issue 18):
// every English post that has a Portuguese original carries it. `lint`
// holds the silences of `stoa check`'s lints, each with its reason.
const FRONT_MATTER_KEYS: [&str; 6] = ["title", "date", "tags", "summary", "translation-of", "lint"];

// ---------------------------------------------------------------------------
// Locations

fn posts_dir() -> PathBuf {
    repo_root().join("books").join("posts")
}

fn corpus_path(lang: &str) -> PathBuf {
    repo_root()
        .join("tests")
        .join("fixtures")
        .join("v1")
        .join("corpus")
        .join(format!("blog-{lang}.txt"))
}

fn exceptions_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testsuite")
        .join("corpus-exceptions.toml")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// Posts

/// Splits a post file into its TOML front matter (between `+++` lines) and its body.
fn split_front_matter(text: &str) -> Result<(&str, &str), String> {
    let rest = text
        .strip_prefix("+++\n")
        .ok_or("the file does not start with a `+++` line")?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches('\n') == "+++" {
            return Ok((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    Err("the front matter has no closing `+++` line".to_string())
}

/// Checks a post file's front matter and returns its title.
fn check_front_matter(front: &str) -> Result<String, String> {
    let table: toml::Table =
        toml::from_str(front).map_err(|e| format!("front matter is not valid TOML: {e}"))?;
    for key in table.keys() {
        if !FRONT_MATTER_KEYS.contains(&key.as_str()) {
            return Err(format!("front matter key `{key}` is not allowed"));
        }
    }
    let title = match table.get("title") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(_) => return Err("`title` must be a non-empty string".into()),
        None => return Err("front matter has no `title`".into()),
    };
    if let Some(date) = table.get("date") {
        match date {
            toml::Value::Datetime(d) if d.date.is_some() && d.time.is_none() => {}
            _ => return Err("`date` must be a TOML date such as 2024-03-01".into()),
        }
    }
    if let Some(tags) = table.get("tags") {
        let ok = tags.as_array().is_some_and(|a| {
            a.iter()
                .all(|t| t.as_str().is_some_and(|s| !s.trim().is_empty()))
        });
        if !ok {
            return Err("`tags` must be an array of non-empty strings".into());
        }
    }
    if let Some(summary) = table.get("summary")
        && summary.as_str().is_none_or(|s| s.trim().is_empty())
    {
        return Err("`summary` must be a non-empty string".into());
    }
    Ok(title)
}

fn is_kebab_ascii(slug: &str) -> bool {
    !slug.is_empty()
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Every post folder, sorted by slug.
fn post_slugs() -> Vec<String> {
    let dir = posts_dir();
    let mut slugs: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.expect("directory entry");
            entry.file_name().into_string().expect("UTF-8 folder name")
        })
        .collect();
    slugs.sort();
    slugs
}

/// The body of every post written in `lang`, as (slug, body).
fn posts_in(lang: &str) -> Vec<(String, String)> {
    post_slugs()
        .into_iter()
        .filter_map(|slug| {
            let path = posts_dir().join(&slug).join(format!("{lang}.md"));
            if !path.exists() {
                return None;
            }
            let text = read(&path);
            let (_, body) =
                split_front_matter(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Some((slug, body.to_string()))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Normalization

/// The words of a line of the export: trimmed, without the `•` bullet the
/// export uses for list items.
fn corpus_key(line: &str) -> Option<String> {
    let t = line.trim();
    if t.is_empty() {
        return None;
    }
    let t = t.strip_prefix("• ").map(str::trim_start).unwrap_or(t);
    Some(t.to_string())
}

/// Removes the Markdown markers the split adds around the author's words:
/// block-quote markers, a heading marker, one list bullet (`- ` or `* `) with
/// its indentation, language and index marks and backslash escapes. The result
/// is trimmed.
fn normalize_markdown_line(line: &str) -> String {
    let unmarked = stoa_markdown::strip_index_marks(&strip_lang_spans(line)).into_owned();
    let mut t = unmarked.trim();
    while let Some(rest) = t.strip_prefix('>') {
        t = rest.trim_start();
    }
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) {
        let rest = &t[hashes..];
        if rest.is_empty() || rest.starts_with([' ', '\t']) {
            t = rest.trim_start();
        }
    }
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        t = rest.trim_start();
    }
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next) = chars.peek()
            && next.is_ascii_punctuation()
        {
            out.push(next);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out.trim().to_string()
}

/// Removes `<span lang="…">` and `</span>`: the mark that says which
/// language the author's words are in, added around them.
fn strip_lang_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let end = tail.find('>').map(|e| e + 1);
        let tag = end.map(|e| &tail[..e]);
        let is_mark = tag.is_some_and(|t| {
            t == "</span>"
                || (t.starts_with("<span lang=\"") && t.ends_with("\">") && !t[12..].contains(' '))
        });
        match (is_mark, end) {
            (true, Some(e)) => rest = &tail[e..],
            _ => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// One non-blank line of a post body, as it counts against the corpus.
#[derive(Debug)]
struct PostLine {
    post: String,
    /// The line with the added Markdown markers removed (code lines: trimmed only).
    normalized: String,
    /// The line as written, trimmed.
    raw: String,
}

/// The text lines of a post body: fence lines are dropped, lines inside fenced
/// code blocks are kept as written (trimmed), every other non-blank line is
/// normalized. Lines that hold nothing but markers (a lone `>`) are dropped.
fn post_text_lines(post: &str, body: &str) -> Result<Vec<PostLine>, String> {
    let mut lines = Vec::new();
    let mut fence: Option<&str> = None;
    for line in body.lines() {
        let trimmed = line.trim();
        match fence {
            None if trimmed.starts_with("```") => {
                fence = Some("```");
                continue;
            }
            Some(marker) if trimmed == marker => {
                fence = None;
                continue;
            }
            _ => {}
        }
        if trimmed.is_empty() {
            continue;
        }
        let normalized = if fence.is_some() {
            trimmed.to_string()
        } else {
            normalize_markdown_line(line)
        };
        if normalized.is_empty() {
            continue;
        }
        lines.push(PostLine {
            post: post.to_string(),
            normalized,
            raw: trimmed.to_string(),
        });
    }
    if fence.is_some() {
        return Err(format!("{post}: a fenced code block is never closed"));
    }
    Ok(lines)
}

// ---------------------------------------------------------------------------
// The check

/// Checks that the posts (slug, body) hold exactly the non-blank lines of
/// `corpus`, each in one post: a corpus line must equal a normalized post line
/// or, failing that, a whole post line as written. Every post line must be
/// used by exactly one corpus line. `excused` lists corpus lines (trimmed,
/// one entry per excused occurrence) allowed to be absent from the posts.
/// Returns one message per problem; empty means faithful.
fn check_fidelity(corpus: &str, posts: &[(String, String)], excused: &[String]) -> Vec<String> {
    let mut errors = Vec::new();

    let mut wanted: Vec<(usize, String)> = corpus
        .lines()
        .enumerate()
        .filter_map(|(i, line)| corpus_key(line).map(|k| (i + 1, k)))
        .collect();
    for line in excused {
        let key = corpus_key(line).unwrap_or_default();
        match wanted.iter().position(|(_, k)| *k == key) {
            Some(i) => {
                wanted.remove(i);
            }
            None => errors.push(format!("stale exception, no such corpus line: {line:?}")),
        }
    }

    let mut pool = Vec::new();
    for (post, body) in posts {
        match post_text_lines(post, body) {
            Ok(lines) => pool.extend(lines),
            Err(e) => errors.push(e),
        }
    }
    let mut used = vec![false; pool.len()];
    let mut by_normalized: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_raw: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, line) in pool.iter().enumerate() {
        by_normalized
            .entry(line.normalized.as_str())
            .or_default()
            .push(i);
        by_raw.entry(line.raw.as_str()).or_default().push(i);
    }

    // First every line that matches a normalized post line, then the rest
    // against whole post lines as written.
    let mut pending = Vec::new();
    for (number, key) in &wanted {
        if !take(&by_normalized, key, &mut used) {
            pending.push((number, key));
        }
    }
    for (number, key) in pending {
        if !take(&by_raw, key, &mut used) {
            errors.push(format!("corpus line {number} is in no post: {key:?}"));
        }
    }
    for (line, used) in pool.iter().zip(&used) {
        if !used {
            errors.push(format!(
                "post `{}` has a line that is not in the corpus, or more often than the corpus has it: {:?}",
                line.post, line.raw
            ));
        }
    }
    errors
}

/// Marks as used the first unused post line filed under `key`; false if none.
fn take(index: &HashMap<&str, Vec<usize>>, key: &str, used: &mut [bool]) -> bool {
    let found = index
        .get(key)
        .and_then(|candidates| candidates.iter().copied().find(|&i| !used[i]));
    if let Some(i) = found {
        used[i] = true;
    }
    found.is_some()
}

/// Corpus lines excused for `lang` by `tests/testsuite/corpus-exceptions.toml`.
fn exceptions_for(lang: &str) -> Vec<String> {
    let path = exceptions_path();
    let table: toml::Table = toml::from_str(&read(&path))
        .unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", path.display()));
    for key in table.keys() {
        assert_eq!(key, "exception", "{}: unknown key `{key}`", path.display());
    }
    let Some(list) = table.get("exception") else {
        return Vec::new();
    };
    let list = list
        .as_array()
        .unwrap_or_else(|| panic!("{}: `exception` must be an array of tables", path.display()));
    let mut lines = Vec::new();
    for entry in list {
        let entry = entry
            .as_table()
            .unwrap_or_else(|| panic!("{}: each exception is a table", path.display()));
        let field = |name: &str| {
            entry
                .get(name)
                .and_then(|v| v.as_str())
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| panic!("{}: an exception lacks `{name}`", path.display()))
        };
        let (entry_lang, line, _reason) = (field("lang"), field("line"), field("reason"));
        assert!(
            LANGS.contains(&entry_lang),
            "{}: unknown language {entry_lang:?}",
            path.display()
        );
        if entry_lang == lang {
            lines.push(line.to_string());
        }
    }
    lines
}

fn assert_faithful(lang: &str) {
    let corpus = read(&corpus_path(lang));
    let posts = posts_in(lang);
    assert!(!posts.is_empty(), "no post in {lang}");
    let errors = check_fidelity(&corpus, &posts, &exceptions_for(lang));
    assert!(
        errors.is_empty(),
        "{} problem(s) between blog-{lang}.txt and the {lang} posts:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Tests against the repository

#[test]
fn every_english_corpus_line_is_in_exactly_one_post() {
    assert_faithful("en");
}

#[test]
fn every_portuguese_corpus_line_is_in_exactly_one_post() {
    assert_faithful("pt-BR");
}

#[test]
fn post_folders_hold_only_language_files_with_titles() {
    let slugs = post_slugs();
    assert!(
        !slugs.is_empty(),
        "no post folder in {}",
        posts_dir().display()
    );
    let mut problems = Vec::new();
    for slug in &slugs {
        let dir = posts_dir().join(slug);
        if !dir.is_dir() {
            problems.push(format!("{slug}: not a folder"));
            continue;
        }
        if !is_kebab_ascii(slug) {
            problems.push(format!(
                "{slug}: the slug is not lowercase ASCII kebab-case"
            ));
        }
        let mut files = 0;
        for entry in fs::read_dir(&dir).expect("post folder") {
            let entry = entry.expect("directory entry");
            let name = entry.file_name().into_string().expect("UTF-8 file name");
            let allowed = LANGS.iter().any(|lang| name == format!("{lang}.md"));
            if !allowed || !entry.path().is_file() {
                problems.push(format!(
                    "{slug}/{name}: only en.md and pt-BR.md are allowed"
                ));
                continue;
            }
            files += 1;
            let text = read(&entry.path());
            match split_front_matter(&text) {
                Err(e) => problems.push(format!("{slug}/{name}: {e}")),
                Ok((front, body)) => {
                    if let Err(e) = check_front_matter(front) {
                        problems.push(format!("{slug}/{name}: {e}"));
                    }
                    if body.trim().is_empty() {
                        problems.push(format!("{slug}/{name}: empty body"));
                    }
                    let mut in_code = false;
                    for line in body.lines() {
                        if line.trim_start().starts_with("```") {
                            in_code = !in_code;
                        } else if !in_code && (line.starts_with("# ") || line == "#") {
                            problems.push(format!(
                                "{slug}/{name}: level-1 heading in the body (the title comes from front matter): {line:?}"
                            ));
                        }
                    }
                }
            }
        }
        if files == 0 {
            problems.push(format!("{slug}: no en.md or pt-BR.md"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn load_book(name: &str) -> toml::Table {
    let path = repo_root().join("books").join(name).join("book.toml");
    toml::from_str(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn book_posts(book: &toml::Table, name: &str) -> Vec<String> {
    book.get("posts")
        .and_then(|p| p.as_array())
        .unwrap_or_else(|| panic!("{name}: `posts` must be an array"))
        .iter()
        .map(|p| {
            p.as_str()
                .unwrap_or_else(|| panic!("{name}: posts are strings"))
                .to_string()
        })
        .collect()
}

#[test]
fn books_use_the_schema_and_existing_posts() {
    let slugs: BTreeSet<String> = post_slugs().into_iter().collect();
    for name in ["dialogues", "collection"] {
        let book = load_book(name);
        // The loader is the schema: it refuses unknown keys and bad values.
        if let Err(errors) = stoa_book::load_config(&repo_root().join("books").join(name)) {
            let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("{name}: {}", errors.join("\n"));
        }
        for key in ["author", "identifier", "theme", "about"] {
            assert!(
                book.get(key)
                    .and_then(|v| v.as_str())
                    .is_some_and(|s| !s.is_empty()),
                "{name}: `{key}` must be a non-empty string"
            );
        }
        for key in ["title", "subtitle", "description"] {
            let table = book
                .get(key)
                .and_then(|v| v.as_table())
                .unwrap_or_else(|| panic!("{name}: [{key}] missing"));
            for lang in LANGS {
                assert!(
                    table
                        .get(lang)
                        .and_then(|v| v.as_str())
                        .is_some_and(|s| !s.is_empty()),
                    "{name}: [{key}] has no {lang}"
                );
            }
        }
        let about = book["about"].as_str().unwrap();
        assert!(
            slugs.contains(about),
            "{name}: about post `{about}` does not exist"
        );
        let posts = book_posts(&book, name);
        let unique: BTreeSet<&String> = posts.iter().collect();
        assert_eq!(unique.len(), posts.len(), "{name}: a post is listed twice");
        for post in &posts {
            assert!(slugs.contains(post), "{name}: post `{post}` does not exist");
            assert_ne!(
                post, about,
                "{name}: the about post is not listed among the posts"
            );
        }
    }
    let collection: BTreeSet<String> = book_posts(&load_book("collection"), "collection")
        .into_iter()
        .collect();
    let about = load_book("collection")["about"]
        .as_str()
        .unwrap()
        .to_string();
    let expected: BTreeSet<String> = slugs.iter().filter(|s| **s != about).cloned().collect();
    assert_eq!(
        collection, expected,
        "the collection must list every post but the about page"
    );
    for post in book_posts(&load_book("dialogues"), "dialogues") {
        assert!(
            collection.contains(&post),
            "dialogue `{post}` is not in the collection"
        );
    }
}

// ---------------------------------------------------------------------------
// The checker checks itself

fn sample_posts(first: &str, second: &str) -> Vec<(String, String)> {
    vec![
        ("first".to_string(), first.to_string()),
        ("second".to_string(), second.to_string()),
    ]
}

const SAMPLE_CORPUS: &str = "\
SOCRATES: What is a label?

Glossary

• agora: the square
• 1. Documentation
  • 1.1 README.md

“Only knowledge frees man.” — E.C.

SELECT
    COUNT(*) AS total
FROM orders;

Note

Note
";

const SAMPLE_FIRST: &str = "\
SOCRATES: What is a label?

## Glossary

- agora: the square
- 1\\. Documentation
  - 1.1 README.md

## Note
";

const SAMPLE_SECOND: &str = "\
> “Only knowledge frees man.” — E.C.
>

```sql
SELECT
    COUNT(*) AS total
FROM orders;
```

## Note
";

#[test]
fn normalizer_removes_only_the_added_markers() {
    assert_eq!(normalize_markdown_line("## Glossary"), "Glossary");
    assert_eq!(
        normalize_markdown_line("### 1.1 README.md"),
        "1.1 README.md"
    );
    assert_eq!(
        normalize_markdown_line("  - 1\\. Documentation"),
        "1. Documentation"
    );
    assert_eq!(
        normalize_markdown_line("* agora: the square"),
        "agora: the square"
    );
    assert_eq!(normalize_markdown_line("> — Dr. Enéas"), "— Dr. Enéas");
    assert_eq!(
        normalize_markdown_line("<span lang=\"en\">“a” is a name</span>"),
        "“a” is a name"
    );
    assert_eq!(normalize_markdown_line("List<span>"), "List<span>");
    assert_eq!(
        normalize_markdown_line("[]{.index key=\"state\" range=\"section\"}I started."),
        "I started."
    );
    assert_eq!(normalize_markdown_line("[a]{.index} b"), "a b");
    assert_eq!(normalize_markdown_line(">"), "");
    assert_eq!(normalize_markdown_line("\\#hashtag"), "#hashtag");
    assert_eq!(normalize_markdown_line("List\\<String\\>"), "List<String>");
    // Words and the author's punctuation are left alone.
    assert_eq!(
        normalize_markdown_line("Sobra o quê ?? Sobra você =)))))"),
        "Sobra o quê ?? Sobra você =)))))"
    );
    assert_eq!(
        normalize_markdown_line("..then the two went for a beer."),
        "..then the two went for a beer."
    );
    assert_eq!(normalize_markdown_line("#hashtag"), "#hashtag");
    assert_eq!(normalize_markdown_line("1. README"), "1. README");
    assert_eq!(
        corpus_key("  • 1.1 README.md").as_deref(),
        Some("1.1 README.md")
    );
    assert_eq!(corpus_key("   "), None);
}

#[test]
fn checker_accepts_a_faithful_split() {
    let errors = check_fidelity(
        SAMPLE_CORPUS,
        &sample_posts(SAMPLE_FIRST, SAMPLE_SECOND),
        &[],
    );
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn checker_catches_a_dropped_line() {
    let dropped = SAMPLE_FIRST.replace("- agora: the square\n", "");
    let errors = check_fidelity(SAMPLE_CORPUS, &sample_posts(&dropped, SAMPLE_SECOND), &[]);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].contains("agora: the square"), "{errors:#?}");

    // A line dropped from a code block counts too.
    let dropped = SAMPLE_SECOND.replace("FROM orders;\n", "");
    let errors = check_fidelity(SAMPLE_CORPUS, &sample_posts(SAMPLE_FIRST, &dropped), &[]);
    assert_eq!(errors.len(), 1, "{errors:#?}");

    // A repeated corpus line ("Note") must be there as often as in the corpus.
    let dropped = SAMPLE_SECOND.replace("## Note\n", "");
    let errors = check_fidelity(SAMPLE_CORPUS, &sample_posts(SAMPLE_FIRST, &dropped), &[]);
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

#[test]
fn checker_catches_a_duplicated_line() {
    // Duplicated inside one post.
    let doubled = SAMPLE_FIRST.replace(
        "SOCRATES: What is a label?\n",
        "SOCRATES: What is a label?\n\nSOCRATES: What is a label?\n",
    );
    let errors = check_fidelity(SAMPLE_CORPUS, &sample_posts(&doubled, SAMPLE_SECOND), &[]);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].contains("What is a label?"), "{errors:#?}");

    // Copied into a second post.
    let copied = format!("{SAMPLE_SECOND}\n- agora: the square\n");
    let errors = check_fidelity(SAMPLE_CORPUS, &sample_posts(SAMPLE_FIRST, &copied), &[]);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].contains("`second`"), "{errors:#?}");
}

#[test]
fn checker_catches_edited_words() {
    let edited = SAMPLE_FIRST.replace("What is a label?", "What is a label ?");
    let errors = check_fidelity(SAMPLE_CORPUS, &sample_posts(&edited, SAMPLE_SECOND), &[]);
    // The corpus line is missing and the edited line is not in the corpus.
    assert_eq!(errors.len(), 2, "{errors:#?}");
}

#[test]
fn exceptions_excuse_one_occurrence_and_must_not_go_stale() {
    let dropped = SAMPLE_FIRST.replace("- agora: the square\n", "");
    let excused = vec!["• agora: the square".to_string()];
    let errors = check_fidelity(
        SAMPLE_CORPUS,
        &sample_posts(&dropped, SAMPLE_SECOND),
        &excused,
    );
    assert!(errors.is_empty(), "{errors:#?}");

    let stale = vec!["a line the corpus does not have".to_string()];
    let errors = check_fidelity(
        SAMPLE_CORPUS,
        &sample_posts(SAMPLE_FIRST, SAMPLE_SECOND),
        &stale,
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

#[test]
fn front_matter_is_checked() {
    let (front, body) = split_front_matter("+++\ntitle = \"T\"\n+++\n\nBody\n").unwrap();
    assert_eq!(check_front_matter(front).unwrap(), "T");
    assert_eq!(body.trim(), "Body");
    assert!(split_front_matter("title = \"T\"\n").is_err());
    assert!(
        check_front_matter("tags = [\"a\"]\n").is_err(),
        "a title is required"
    );
    assert!(
        check_front_matter("title = \"T\"\nauthor = \"x\"\n").is_err(),
        "unknown key"
    );
    assert!(check_front_matter("title = \"T\"\ndate = 2024-03-01\n").is_ok());
    assert!(check_front_matter("title = \"T\"\ndate = \"2024-03-01\"\n").is_err());
    assert!(is_kebab_ascii("dialogue-on-masters"));
    assert!(!is_kebab_ascii("Dialogue_on_masters"));
}
