//! `stoa new <dir>`: a new project that builds at once: a commented
//! book.toml and a sample post per language showing what a post can hold
//! (a footnote, an image, a dialogue, a glossary).

mod samples;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The sample post's image, a small drawing of a portico, shipped in stoa.
const IMAGE: &[u8] = include_bytes!("../../assets/sample.png");
/// Its file name in the post's folder.
const IMAGE_NAME: &str = "portico.png";
/// The sample post's slug.
const POST: &str = "welcome";

/// `stoa new`'s options.
#[derive(clap::Args)]
pub(crate) struct NewArgs {
    /// The project folder to create; it must not exist or be empty.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The book's languages, comma-separated BCP 47 tags; the first is the
    /// one the sample post is written in, the others translate it.
    #[arg(long, value_name = "TAGS", value_delimiter = ',', default_value = "en")]
    lang: Vec<String>,
}

/// Runs `stoa new`.
pub(crate) fn run(args: NewArgs) -> ExitCode {
    match create(&args.dir, &args.lang) {
        Ok(notes) => {
            for note in notes {
                eprintln!("note: {note}");
            }
            let cd = args.dir.display();
            say(&format!(
                "created a new book in {cd}\n\n  cd {cd}\n  stoa build        # EPUB, PDF and web edition into dist/\n\n\
                 Write posts in books/posts/<slug>/<lang>.md and list them in books/*/book.toml."
            ));
            ExitCode::SUCCESS
        }
        Err((message, hint)) => {
            eprintln!("error: {message}\n  help: {hint}");
            ExitCode::FAILURE
        }
    }
}

/// An error and what to do about it.
pub(crate) type Failure = (String, String);

/// Prints `text` and a newline on stdout; shared with `stoa plugin new`.
/// A reader gone already (`| head -1`) is no error: the files are written,
/// and `println!` would panic on the broken pipe.
pub(crate) fn say(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// Writes the project into `dir`; the notes to print (a language without
/// sample text). Nothing is written when the arguments are wrong.
fn create(dir: &Path, langs: &[String]) -> Result<Vec<String>, Failure> {
    let langs = check_languages(langs)?;
    check_empty(dir, "name a new folder, or an empty one")?;
    let id = book_id(dir);
    let mut notes = Vec::new();
    for lang in &langs {
        if samples::sample(lang).is_none() {
            notes.push(format!(
                "stoa has no sample text in `{lang}`: the `{lang}` post is in English; translate it, \
                 and its title in book.toml"
            ));
        }
    }
    let date = today();
    let books = dir.join("books");
    let post_dir = books.join("posts").join(POST);
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![
        (
            books.join(&id).join("book.toml"),
            book_toml(&langs).into_bytes(),
        ),
        (post_dir.join(IMAGE_NAME), IMAGE.to_vec()),
        (dir.join(".gitignore"), b"/dist/\n".to_vec()),
    ];
    for lang in &langs {
        files.push((
            post_dir.join(format!("{lang}.md")),
            post(lang, &date).into_bytes(),
        ));
    }
    for (path, bytes) in &files {
        write(path, bytes)?;
    }
    // The first language is the original; recording that the others
    // translate it, as `stoa translations mark` does, keeps `stoa status`
    // and the build quiet until the original changes.
    for lang in langs.iter().skip(1) {
        stoa_translate::mark(&post_dir, lang, Some(&langs[0])).map_err(|errors| {
            let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
            (
                text.join("\n"),
                "this is a bug in stoa: please report it".to_string(),
            )
        })?;
    }
    Ok(notes)
}

/// The tags, checked for form and duplicates.
fn check_languages(langs: &[String]) -> Result<Vec<String>, Failure> {
    let mut out: Vec<String> = Vec::new();
    for tag in langs.iter().map(|t| t.trim()) {
        if tag.is_empty() {
            continue;
        }
        if !is_language_tag(tag) {
            return Err((
                format!("`{tag}` is not a language tag"),
                "write BCP 47 tags separated by commas, e.g. --lang pt-BR,en".to_string(),
            ));
        }
        if out.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
            return Err((
                format!("the language `{tag}` is given twice"),
                "name each language once".to_string(),
            ));
        }
        out.push(tag.to_string());
    }
    if out.is_empty() {
        return Err((
            "no language given".to_string(),
            "write e.g. --lang en, or --lang pt-BR,en".to_string(),
        ));
    }
    Ok(out)
}

/// A BCP 47 tag's shape: a primary language of 2 or 3 letters, then
/// subtags of 1 to 8 letters or digits (`pt-BR`, `es-419`, `zh-Hant`).
fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let primary = parts.next().unwrap_or_default();
    (2..=3).contains(&primary.len())
        && primary.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `dir` must not exist, or be an empty folder: what stoa creates (a
/// project, a plugin) never mixes with files already there. `instead` says
/// what to name instead; shared with `stoa plugin new`.
pub(crate) fn check_empty(dir: &Path, instead: &str) -> Result<(), Failure> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err((
                    format!("{} already exists and is not empty", dir.display()),
                    format!("{instead}: stoa never writes among existing files"),
                ));
            }
            Ok(())
        }
        // A link to nothing is "not found" to read_dir, yet creating the
        // folder fails on it with "File exists".
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir.symlink_metadata().is_ok() => {
            Err((
                format!(
                    "{} is a link to {}, which does not exist",
                    dir.display(),
                    std::fs::read_link(dir).unwrap_or_default().display()
                ),
                format!("{instead}, or remove the link"),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) if dir.exists() && !dir.is_dir() => Err((
            format!("{} is a file, not a folder: {e}", dir.display()),
            instead.to_string(),
        )),
        Err(e) => Err((
            format!("cannot read {}: {e}", dir.display()),
            "name a folder you can write to".to_string(),
        )),
    }
}

/// The book's id (its folder in books/): the project folder's name made a
/// slug, or `my-book`.
fn book_id(dir: &Path) -> String {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-').to_string();
    if slug.is_empty() || slug == "posts" || stoa_book::slug::problem(&slug).is_some() {
        "my-book".to_string()
    } else {
        slug
    }
}

/// Writes `bytes` to `path`, creating its folder; shared with `stoa plugin new`.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        (
            format!("cannot write {}: {e}", path.display()),
            "name a folder you can write to".to_string(),
        )
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    std::fs::write(path, bytes).map_err(fail)
}

/// A TOML basic string; shared with `stoa plugin new`.
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML key: bare when it can be, quoted otherwise.
fn key(tag: &str) -> String {
    if tag
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        tag.to_string()
    } else {
        quoted(tag)
    }
}

fn sample(lang: &str) -> &'static samples::Sample {
    samples::sample(lang).unwrap_or(&samples::EN)
}

/// The commented book.toml for `langs`.
fn book_toml(langs: &[String]) -> String {
    let list: Vec<String> = langs.iter().map(|l| quoted(l)).collect();
    let per_lang = |field: fn(&samples::Sample) -> &'static str| {
        let mut out = String::new();
        for lang in langs {
            let _ = writeln!(out, "{} = {}", key(lang), quoted(field(sample(lang))));
        }
        out
    };
    let headings: Vec<String> = langs
        .iter()
        .map(|l| format!("{} = {}", key(l), quoted(sample(l).glossary)))
        .collect();
    format!(
        "\
# One book: stoa builds an EPUB, a PDF and a web edition of it per language.
# Every key is described in stoa's docs/reference.md; unknown keys are errors.

author = \"Your Name\"
# The editions, as BCP 47 language tags; a post has one file per language
# (books/posts/<slug>/<lang>.md).
languages = [{langs}]
# A stable identifier of the book, made for it by `stoa new`; keep it when
# you rename the book, so that reading apps know it is the same one.
identifier = \"urn:uuid:{uuid}\"
# The posts, by folder name, in reading order.
posts = [
  \"{post}\",
]
# Optional: `date = 2026-11-30` (default: the newest post's date),
# `theme = \"classic\"` (the built-in theme; `stoa theme export` writes it
# into themes/classic/ for you to change), `about = \"<slug>\"` (an
# \"About the Author\" post).
# `opening = \"any\"` or `\"run-on\"`: where posts open in the PDF (default
# \"right\": on a right-hand page). To group the posts into parts, add a
# [[parts]] table per part, e.g. title = {{ en = \"Essays\" }} and
# posts = [\"<slug>\"], with an `opening` of its own if you like.

[title]
{titles}
[subtitle]
{subtitles}
[description]
{descriptions}
# The PDF's page; these are the defaults.
[print]
width = \"14cm\"
height = \"21cm\"

# The cover is drawn from the identifier; to choose, add a [cover] table:
# design = \"frame\", \"band\" or \"column\"; colour = \"teal\" or \"#rrggbb\";
# ornament = \"rule\", \"diamond\", \"dots\" or \"none\"; or image = \"cover.jpg\".

# Plugins run in the order of their tables; delete a table to turn one off.

# Paragraphs starting with a speaker's name in capitals and a colon become
# a dialogue.
[plugins.dialogue]
names = \"title-case\"

# A post's \"## Glossary\" list of `term: definition` becomes a glossary; the
# book gets an appendix merging them.
[plugins.glossary]
headings = {{ {headings} }}

# Markdown footnotes (`text[^1]`) at the foot of the page.
[plugins.footnotes]
mode = \"footnotes\"
",
        langs = list.join(", "),
        uuid = new_uuid(),
        post = POST,
        titles = per_lang(|s| s.title),
        subtitles = per_lang(|s| s.subtitle),
        descriptions = per_lang(|s| s.description),
        headings = headings.join(", "),
    )
}

/// The sample post in `lang`.
fn post(lang: &str, date: &str) -> String {
    let s = sample(lang);
    format!(
        "+++\ntitle = {}\ndate = {date}\nsummary = {}\n+++\n\n{}",
        quoted(s.post_title),
        quoted(s.summary),
        s.body.replace("{image}", IMAGE_NAME)
    )
}

/// A random (version 4) UUID, the new book's identifier.
fn new_uuid() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Today's date (UTC) as `YYYY-MM-DD`, the sample post's date.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut date = stoa_book::epoch_to_iso(i64::try_from(secs).unwrap_or(0));
    date.truncate("YYYY-MM-DD".len());
    date
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_version_4_and_differ() {
        let (a, b) = (new_uuid(), new_uuid());
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
    }

    #[test]
    fn tags_are_checked() {
        assert!(
            is_language_tag("pt-BR") && is_language_tag("es-419") && is_language_tag("zh-Hant")
        );
        for bad in ["", "p", "english", "pt_BR", "pt--BR", "1a"] {
            assert!(!is_language_tag(bad), "{bad}");
        }
        assert!(check_languages(&["en".into(), "EN".into()]).is_err());
        assert_eq!(
            check_languages(&["es".into(), " en".into()]).unwrap(),
            ["es", "en"]
        );
    }

    #[test]
    fn a_non_empty_folder_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("notes.txt"), "mine").unwrap();
        let (message, _) = create(tmp.path(), &["en".into()]).unwrap_err();
        assert!(message.contains("is not empty"), "{message}");
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_nothing_is_named_as_such() {
        let tmp = tempfile::tempdir().unwrap();
        let link = tmp.path().join("book");
        std::os::unix::fs::symlink(tmp.path().join("gone"), &link).unwrap();
        let (message, hint) = create(&link, &["en".into()]).unwrap_err();
        assert!(message.contains("is a link to"), "{message}");
        assert!(message.contains("gone, which does not exist"), "{message}");
        assert!(hint.contains("remove the link"), "{hint}");
    }

    #[test]
    fn a_language_without_sample_text_gets_english_and_a_note() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("libro");
        let notes = create(&dir, &["it".into(), "es".into()]).unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("no sample text in `it`"), "{notes:?}");
        let posts = dir.join("books/posts/welcome");
        let it = std::fs::read_to_string(posts.join("it.md")).unwrap();
        assert!(it.contains("Welcome to stoa"), "{it}");
        let es = std::fs::read_to_string(posts.join("es.md")).unwrap();
        assert!(es.contains("Bienvenido") && es.contains("translation-of = { lang = \"it\""));
        assert!(dir.join("books/libro/book.toml").is_file());
        assert_eq!(std::fs::read(posts.join(IMAGE_NAME)).unwrap(), IMAGE);
    }

    #[test]
    fn book_ids_are_slugs() {
        assert_eq!(book_id(Path::new("/nowhere/My Blog!")), "my-blog");
        assert_eq!(book_id(Path::new("/nowhere/posts")), "my-book");
        assert_eq!(book_id(Path::new("/nowhere/---")), "my-book");
    }

    #[test]
    fn the_book_toml_is_valid_toml_with_every_language() {
        let text = book_toml(&["pt-BR".into(), "en".into(), "it".into()]);
        let value: toml::Value = toml::from_str(&text).unwrap();
        assert_eq!(value["title"]["pt-BR"].as_str(), Some("Meu livro"));
        assert_eq!(value["title"]["it"].as_str(), Some("My Book"));
        assert_eq!(
            value["plugins"]["glossary"]["headings"]["it"].as_str(),
            Some("Glossary")
        );
    }
}
