//! `book.toml`: what a book is made of. Unknown keys are errors, so a typo
//! never silently changes a book.

use crate::lang::Language;
use crate::source::SourceFile;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use stoa_doc::{Diagnostic, Print};

pub(crate) use crate::length::parse_length;

/// A book's configuration, validated.
#[derive(Clone, Debug)]
pub struct BookConfig {
    /// The book's folder name, used in output file names.
    pub id: String,
    /// The book's folder.
    pub dir: PathBuf,
    /// `book.toml` as diagnostics name it.
    pub file: String,
    /// Title per language tag.
    pub title: BTreeMap<String, String>,
    /// Subtitle per language tag (may be empty).
    pub subtitle: BTreeMap<String, String>,
    /// Description per language tag (may be empty).
    pub description: BTreeMap<String, String>,
    /// The author's name.
    pub author: String,
    /// The editions, in the order given.
    pub languages: Vec<Language>,
    /// Stable identifier of the book (all languages).
    pub identifier: String,
    /// Publication date `YYYY-MM-DD`, if given.
    pub date: Option<String>,
    /// Theme folder name under themes/.
    pub theme: String,
    /// Post slugs in reading order, each with the line it is listed on.
    pub posts: Vec<(String, usize)>,
    /// `[[parts]]`: the posts grouped, with a title per language; empty
    /// when the book has no parts.
    pub parts: Vec<crate::parts::PartConfig>,
    /// `opening`: where posts open in print unless a part or a post says
    /// otherwise.
    pub opening: stoa_render::Opening,
    /// The post that presents the author, set as back matter.
    pub about: Option<(String, usize)>,
    /// Where the post folders are.
    pub posts_dir: PathBuf,
    /// Page layout of the PDF.
    pub print: Print,
    /// The ISBN and back-cover texts per language (see [`BookConfig::print_for`]).
    pub press: crate::press::PressText,
    /// `[bibliography]`: the works the posts cite and the style.
    pub bibliography: Option<crate::cite::Bibliography>,
    /// `[figures]`: how labelled figures are numbered and listed.
    pub figures: crate::figures::Figures,
    /// `[math]`: how the EPUB shows formulas.
    pub math: crate::math::Math,
    /// `[images]`: how images are made for each output.
    pub images: crate::images::Images,
    /// `[plugins.<name>]` tables, in the order written.
    pub plugins: Vec<PluginConfig>,
    /// A folder to look for plugins in, from `plugin-dir`.
    pub plugin_dir: Option<PathBuf>,
}

/// One `[plugins.<name>]` table: a plugin to run, with its settings.
#[derive(Clone, Debug)]
pub struct PluginConfig {
    /// The plugin's name.
    pub name: String,
    /// Its settings, as JSON.
    pub settings: serde_json::Value,
    /// The line of book.toml that enables it.
    pub line: usize,
}

/// The `[print]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PrintConfig {
    pub(crate) width: Option<String>,
    pub(crate) height: Option<String>,
    inner_margin: Option<String>,
    outer_margin: Option<String>,
    top_margin: Option<String>,
    bottom_margin: Option<String>,
    font_size: Option<String>,
    pdf_standard: Option<String>,
    /// The printer (stoa-press's profiles): only with it is a print
    /// interior and a cover wrap made.
    pub(crate) profile: Option<String>,
    pub(crate) trim: Option<String>,
    pub(crate) paper: Option<String>,
    pub(crate) binding: Option<String>,
    pub(crate) spine_width: Option<String>,
    qr_codes: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    title: BTreeMap<String, String>,
    #[serde(default)]
    subtitle: BTreeMap<String, String>,
    #[serde(default)]
    description: BTreeMap<String, String>,
    author: String,
    languages: Vec<String>,
    identifier: String,
    date: Option<toml::value::Datetime>,
    #[serde(default = "default_theme")]
    theme: String,
    /// Left out, the parts' posts are the book's.
    posts: Option<Vec<String>>,
    #[serde(default)]
    parts: Vec<crate::parts::RawPart>,
    opening: Option<String>,
    about: Option<String>,
    #[serde(default = "default_posts_dir")]
    posts_dir: String,
    #[serde(default)]
    print: PrintConfig,
    #[serde(default)]
    isbn: BTreeMap<String, String>,
    #[serde(default)]
    plugins: toml::Table,
    plugin_dir: Option<String>,
    #[serde(default)]
    labels: BTreeMap<String, crate::labels::LabelsConfig>,
    #[serde(default)]
    cover: crate::cover::CoverConfig,
    bibliography: Option<crate::cite::RawBibliography>,
    #[serde(default)]
    notes: crate::notes::NotesConfig,
    #[serde(default)]
    figures: crate::figures::Figures,
    #[serde(default)]
    math: crate::math::Math,
    #[serde(default)]
    images: crate::images::Images,
    #[serde(default)]
    fonts: FontsConfig,
}

/// The `[fonts]` table: where the PDF may find faces besides the embedded
/// ones and the theme's.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FontsConfig {
    /// Also the fonts installed on this machine (for scripts the embedded
    /// faces lack, such as CJK); off by default, so that a book prints the
    /// same on every machine.
    #[serde(default)]
    system: bool,
}

fn default_theme() -> String {
    "classic".into()
}

fn default_posts_dir() -> String {
    "../posts".into()
}

/// Reads and validates `<dir>/book.toml`.
pub fn load_config(dir: &Path) -> Result<BookConfig, Vec<Diagnostic>> {
    let file = SourceFile::read(&dir.join(crate::BOOK_FILE)).map_err(|d| vec![d])?;
    let raw: Raw = toml::from_str(&file.text).map_err(|e| vec![file.toml_error(&e, 0)])?;
    validate(dir, &file, raw)
}

fn validate(dir: &Path, file: &SourceFile, raw: Raw) -> Result<BookConfig, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut languages = Vec::new();
    for tag in &raw.languages {
        let at = file.find(&format!("\"{tag}\""), 0);
        match Language::parse(tag) {
            Ok(lang) if languages.iter().any(|l: &Language| l.tag == *tag) => {
                errors.push(file.error_at(at, format!("language `{}` is listed twice", lang.tag)));
            }
            Ok(lang) => languages.push(lang),
            Err(why) => errors.push(
                file.error_at(at, why)
                    .with_hint("write a BCP 47 tag such as `en` or `pt-BR`"),
            ),
        }
    }
    crate::labels::apply(file, &raw.labels, &mut languages, &mut errors);
    raw.notes.apply(&mut languages);
    if raw.languages.is_empty() {
        errors.push(
            file.error_at(file.find("languages", 0), "`languages` is empty")
                .with_hint("list at least one language, e.g. languages = [\"en\"]"),
        );
    }
    check_per_language(file, "title", &raw.title, &raw.languages, true, &mut errors);
    check_per_language(
        file,
        "subtitle",
        &raw.subtitle,
        &raw.languages,
        false,
        &mut errors,
    );
    check_per_language(
        file,
        "description",
        &raw.description,
        &raw.languages,
        false,
        &mut errors,
    );
    let mut raw = raw;
    check_metadata(file, &mut raw, &mut errors);
    if raw.author.trim().is_empty() {
        errors.push(file.error_at(file.find("author", 0), "`author` is empty"));
    }
    if raw.identifier.trim().is_empty() {
        errors.push(
            file.error_at(file.find("identifier", 0), "`identifier` is empty")
                .with_hint("use a URN such as urn:uuid:… or urn:isbn:…; it must never change"),
        );
    }
    let checked = crate::parts::check(
        file,
        std::mem::take(&mut raw.parts),
        raw.opening.as_deref(),
        raw.posts.as_deref(),
        raw.about.as_deref(),
        &raw.languages,
        &mut errors,
    );
    let slugs = match (raw.posts.take(), checked.posts) {
        (Some(posts), _) | (None, Some(posts)) => posts,
        (None, None) => {
            errors.push(file.error_at(0, "missing field `posts`").with_hint(
                "list the posts in reading order: posts = [\"…\"] (or group them in [[parts]])",
            ));
            Vec::new()
        }
    };
    let posts = listed_posts(file, &slugs, raw.about.as_deref(), &mut errors);
    let about = raw.about.as_ref().map(|slug| {
        let at = file.find(&format!("\"{slug}\""), file.find("about", 0));
        if let Some((message, hint)) = crate::slug::problem(slug) {
            errors.push(file.error_at(at, message).with_hint(hint));
        }
        (slug.clone(), crate::source::line_col(&file.text, at).0)
    });
    let date = raw.date.and_then(|d| match date_only(&d) {
        Some(date) => Some(date),
        None => {
            errors.push(
                file.error_at(
                    file.find("date", 0),
                    format!("`date = {d}` is not a plain date"),
                )
                .with_hint("write it as date = 2024-05-31"),
            );
            None
        }
    });
    let mut print = print_settings(file, &raw.print, &mut errors);
    print.system_fonts = raw.fonts.system;
    // The project's fonts: `fonts/` beside the books' folder.
    let project_fonts = dir.parent().and_then(Path::parent).map(|p| p.join("fonts"));
    print.fonts_folder = project_fonts
        .filter(|f| f.is_dir())
        .and_then(|f| f.canonicalize().ok())
        .map(|f| f.display().to_string());
    print.cover = crate::cover::settings(file, &raw.cover, &raw.identifier, dir, &mut errors);
    let written = crate::press::Written {
        isbn: &raw.isbn,
        back: &raw.cover.back,
        bio: &raw.cover.bio,
    };
    let keys = crate::press::Keys {
        profile: &raw.print.profile,
        trim: &raw.print.trim,
        paper: &raw.print.paper,
        binding: &raw.print.binding,
        spine_width: &raw.print.spine_width,
        sized: raw.print.width.is_some() || raw.print.height.is_some(),
    };
    let press =
        crate::press::settings(file, keys, written, &raw.languages, &mut print, &mut errors);
    let bibliography = crate::cite::settings(file, raw.bibliography.as_ref(), dir, &mut errors);
    let plugins = plugin_tables(file, raw.plugins, &mut errors);
    raw.images.check(file, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(BookConfig {
        id: dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        dir: dir.to_path_buf(),
        file: file.display.clone(),
        title: raw.title,
        subtitle: raw.subtitle,
        description: raw.description,
        author: raw.author,
        languages,
        identifier: raw.identifier,
        date,
        theme: raw.theme,
        posts,
        parts: checked.parts,
        opening: checked.opening,
        about,
        posts_dir: normalize(&dir.join(raw.posts_dir)),
        print,
        press,
        bibliography,
        figures: raw.figures,
        math: raw.math,
        images: raw.images,
        plugins,
        plugin_dir: raw.plugin_dir.map(|d| normalize(&dir.join(d))),
    })
}

/// Refuses control characters in the texts of the book that reach its
/// metadata, at their key's line, and folds line breaks into spaces.
fn check_metadata(file: &SourceFile, raw: &mut Raw, errors: &mut Vec<Diagnostic>) {
    let mut check = |key: &str, at: usize, value: &mut String| {
        if let Some(c) = crate::text::forbidden(value) {
            let (message, hint) = crate::text::message(key, c);
            errors.push(file.error_at(at, message).with_hint(hint));
        }
        *value = crate::text::one_line(value);
    };
    for (table, values) in [
        ("title", &mut raw.title),
        ("subtitle", &mut raw.subtitle),
        ("description", &mut raw.description),
    ] {
        let start = file.find(&format!("[{table}]"), 0);
        for (tag, value) in values.iter_mut() {
            check(&format!("{table}.{tag}"), file.find(tag, start), value);
        }
    }
    check("author", file.find("author", 0), &mut raw.author);
    check(
        "identifier",
        file.find("identifier", 0),
        &mut raw.identifier,
    );
}

/// Removes `.` and `dir/..` pairs without touching the file system, so
/// messages show `books/posts/x` rather than `books/collection/../posts/x`.
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn line_of(file: &SourceFile, needle: &str, from: usize) -> usize {
    crate::source::line_col(&file.text, file.find(needle, from)).0
}

/// Each language needs its title; no entry may name a language the book lacks.
fn check_per_language(
    file: &SourceFile,
    key: &str,
    values: &BTreeMap<String, String>,
    languages: &[String],
    required: bool,
    errors: &mut Vec<Diagnostic>,
) {
    let table = file.find(&format!("[{key}]"), 0);
    for tag in values.keys().filter(|t| !languages.contains(t)) {
        errors.push(
            file.error_at(
                file.find(tag, table),
                format!("`{key}` has an entry for `{tag}`, which is not in `languages`"),
            )
            .with_hint("add the language to `languages` or remove the entry"),
        );
    }
    if required {
        for tag in languages.iter().filter(|t| !values.contains_key(*t)) {
            errors.push(
                file.error_at(table, format!("`{key}` has no entry for `{tag}`"))
                    .with_hint(format!("add `{tag} = \"…\"` under [{key}]")),
            );
        }
    }
}

/// The posts with the line each is listed on; a slug listed twice is an error.
fn listed_posts(
    file: &SourceFile,
    posts: &[String],
    about: Option<&str>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, usize)> {
    let list_start = file.find("posts", 0);
    let mut seen: Vec<(String, usize)> = Vec::new();
    // First line of each slug, and the line counted on from the previous
    // entry: a blog of ten thousand posts must not rescan the file per post.
    let mut first_line: HashMap<&str, usize> = HashMap::new();
    let mut line = crate::source::line_col(&file.text, list_start).0;
    let (mut from, mut counted_to) = (list_start, list_start);
    for slug in posts {
        let at = file.find(&format!("\"{slug}\""), from);
        let newlines = file
            .text
            .get(counted_to..at)
            .map_or(0, |s| s.matches('\n').count());
        line += newlines;
        counted_to = at;
        from = at + 1;
        if let Some((message, hint)) = crate::slug::problem(slug) {
            errors.push(file.error_at(at, message).with_hint(hint));
        } else if let Some(first) = first_line.get(slug.as_str()) {
            errors.push(
                file.error_at(
                    at,
                    format!("post `{slug}` is listed twice (first on line {first})"),
                )
                .with_hint("each post appears once in a book; remove one of the two"),
            );
        } else if Some(slug.as_str()) == about {
            errors.push(
                file.error_at(
                    at,
                    format!("post `{slug}` is both in `posts` and the `about` page"),
                )
                .with_hint("remove it from `posts`"),
            );
        } else {
            first_line.insert(slug, line);
            seen.push((slug.clone(), line));
        }
    }
    seen
}

fn date_only(d: &toml::value::Datetime) -> Option<String> {
    match (d.date, d.time) {
        (Some(date), None) => Some(date.to_string()),
        _ => None,
    }
}

fn print_settings(file: &SourceFile, raw: &PrintConfig, errors: &mut Vec<Diagnostic>) -> Print {
    let mut print = Print::default();
    let section = file.find("[print]", 0);
    let mut length = |key: &str, value: &Option<String>, unit_pt: bool, target: &mut f64| {
        let Some(text) = value else { return };
        let at = file.find(key, section);
        match parse_length(text) {
            Some(mm) if mm > 0.0 || (mm == 0.0 && key.ends_with("margin")) => {
                let value = if unit_pt { mm / 25.4 * 72.0 } else { mm };
                match out_of_bounds(key, value) {
                    None => *target = value,
                    Some((why, hint)) => errors.push(
                        file.error_at(at, format!("`{key} = \"{text}\"` is {why}"))
                            .with_hint(hint),
                    ),
                }
            }
            _ => errors.push(
                file.error_at(at, format!("`{key} = \"{text}\"` is not a length"))
                    .with_hint("write a number and a unit: mm, cm, in or pt, e.g. \"14cm\""),
            ),
        }
    };
    length("width", &raw.width, false, &mut print.width_mm);
    length("height", &raw.height, false, &mut print.height_mm);
    length(
        "inner-margin",
        &raw.inner_margin,
        false,
        &mut print.inner_mm,
    );
    length(
        "outer-margin",
        &raw.outer_margin,
        false,
        &mut print.outer_mm,
    );
    length("top-margin", &raw.top_margin, false, &mut print.top_mm);
    length(
        "bottom-margin",
        &raw.bottom_margin,
        false,
        &mut print.bottom_mm,
    );
    length("font-size", &raw.font_size, true, &mut print.font_size_pt);
    let text_area = |side: f64, a: f64, b: f64| side - a - b >= crate::limits::PAGE_MM.0 / 2.0;
    if !text_area(print.width_mm, print.inner_mm, print.outer_mm) {
        errors.push(
            file.error_at(
                section,
                "the margins leave no room for text across the page",
            )
            .with_hint(format!(
                "keep at least {} mm between the inner and outer margins",
                crate::limits::PAGE_MM.0 / 2.0
            )),
        );
    }
    if !text_area(print.height_mm, print.top_mm, print.bottom_mm) {
        errors.push(
            file.error_at(section, "the margins leave no room for text down the page")
                .with_hint(format!(
                    "keep at least {} mm between the top and bottom margins",
                    crate::limits::PAGE_MM.0 / 2.0
                )),
        );
    }
    if let Some(standard) = &raw.pdf_standard {
        let lower = standard.to_ascii_lowercase();
        if ["pdf/a-2b", "pdf/ua-1"].contains(&lower.as_str()) {
            print.standard = Some(lower);
        } else {
            errors.push(
                file.error_at(
                    file.find("pdf-standard", 0),
                    format!("unknown PDF standard `{standard}`"),
                )
                .with_hint("use \"pdf/a-2b\" or \"pdf/ua-1\", or leave the key out"),
            );
        }
    }
    print.qr_codes = raw.qr_codes.unwrap_or(true);
    print
}

/// Why a `[print]` length (in mm, or pt for `font-size`) is out of the
/// bounds of [`crate::limits`], and what to write; `None` when it fits.
/// Typst lays out whatever it is given, and a page of ten metres asks for
/// gigabytes.
fn out_of_bounds(key: &str, value: f64) -> Option<(String, String)> {
    use crate::limits::{FONT_PT, PAGE_MM};
    let (low, high, unit) = match key {
        "width" | "height" => (PAGE_MM.0, PAGE_MM.1, "mm"),
        "font-size" => (FONT_PT.0, FONT_PT.1, "pt"),
        _ => (0.0, PAGE_MM.1 / 4.0, "mm"),
    };
    if (low..=high).contains(&value) {
        return None;
    }
    let why = if value < low {
        "too small"
    } else {
        "too large"
    };
    Some((
        format!("{why} for a printed book"),
        format!("use a value from {low} to {high} {unit}"),
    ))
}

impl BookConfig {
    /// The print settings of the edition in `lang`: the book's, with its
    /// ISBN and back-cover texts.
    pub fn print_for(&self, lang: &str) -> Print {
        let mut print = self.print.clone();
        print.isbn = self.press.isbn.get(lang).cloned();
        if let Some(press) = &mut print.press {
            press.back = self.press.back.get(lang).cloned();
            press.bio = self.press.bio.get(lang).cloned();
        }
        print
    }
}

fn plugin_tables(
    file: &SourceFile,
    plugins: toml::Table,
    errors: &mut Vec<Diagnostic>,
) -> Vec<PluginConfig> {
    let mut out = Vec::new();
    for (name, value) in plugins {
        let line = line_of(file, &format!("plugins.{name}"), 0);
        if !value.is_table() {
            errors.push(
                file.error_at(
                    file.find(&format!("plugins.{name}"), 0)
                        .max(file.find(&name, 0)),
                    format!("`plugins.{name}` must be a table"),
                )
                .with_hint(format!(
                    "write it as [plugins.{name}] followed by its settings"
                )),
            );
            continue;
        }
        match serde_json::to_value(&value) {
            Ok(settings) => out.push(PluginConfig {
                name,
                settings,
                line,
            }),
            Err(e) => errors.push(file.error_at(0, format!("`plugins.{name}`: {e}"))),
        }
    }
    out
}

/// Loads a book.toml of `text` from a folder `mybook` made for it, for
/// the tests of the modules that read parts of it.
#[cfg(test)]
pub(crate) fn load_text(text: &str) -> Result<BookConfig, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("mybook");
    std::fs::create_dir(&book).unwrap();
    std::fs::write(book.join("book.toml"), text).unwrap();
    load_config(&book)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
author = "A. Author"
languages = ["pt-BR", "en"]
identifier = "urn:uuid:00000000-0000-0000-0000-000000000001"
date = 2024-05-31
posts = ["one", "two"]

[title]
pt-BR = "Título"
en = "Title"

[print]
width = "15cm"
font-size = "11pt"
"#;

    fn load(text: &str) -> Result<BookConfig, Vec<Diagnostic>> {
        super::load_text(text)
    }

    #[test]
    fn reads_a_good_book() {
        let c = load(GOOD).unwrap();
        assert_eq!(c.id, "mybook");
        assert_eq!(c.languages.len(), 2);
        assert_eq!(c.posts, [("one".to_string(), 6), ("two".to_string(), 6)]);
        assert_eq!(c.date.as_deref(), Some("2024-05-31"));
        assert_eq!(c.print.width_mm, 150.0);
        assert!((c.print.font_size_pt - 11.0).abs() < 1e-9);
        assert_eq!(c.theme, "classic");
    }

    #[test]
    fn unknown_key_names_the_key_and_line() {
        let errs = load(&GOOD.replace("posts =", "colour = 1\nposts =")).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message.contains("colour"), "{}", errs[0]);
        assert_eq!(errs[0].line, Some(6));
        assert!(errs[0].file.as_deref().unwrap().ends_with("book.toml"));
    }

    #[test]
    fn unknown_language_and_missing_title() {
        // `xx-YY` is a well-formed tag stoa has no words for: it is allowed
        // (with English labels), but the book still needs its title.
        let errs = load(&GOOD.replace("\"en\"]", "\"en\", \"xx-YY\"]")).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].message.contains("`title` has no entry for `xx-YY`"));
        let errs = load(&GOOD.replace("\"en\"]", "\"en\", \"xx_YY\"]")).unwrap_err();
        assert!(
            errs.iter().any(|e| e.message.contains("write `xx-YY`")),
            "{errs:?}"
        );
        assert!(errs.iter().all(|e| e.line.is_some()));
    }

    #[test]
    fn post_listed_twice() {
        let errs = load(&GOOD.replace("[\"one\", \"two\"]", "[\"one\",\n \"one\"]")).unwrap_err();
        assert!(
            errs[0].message.contains("listed twice (first on line 6)"),
            "{}",
            errs[0]
        );
        assert_eq!(errs[0].line, Some(7));
    }

    #[test]
    fn bad_lengths_and_standards() {
        let errs = load(
            &GOOD
                .replace("\"15cm\"", "\"wide\"")
                .replace("[print]", "[print]\npdf-standard = \"pdf/x\""),
        )
        .unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
    }

    #[test]
    fn malformed_toml_points_at_the_line() {
        let errs = load("author = \n").unwrap_err();
        assert_eq!(errs[0].line, Some(1));
    }

    #[test]
    fn paths_are_normalized() {
        assert_eq!(
            normalize(Path::new("books/a/../posts")),
            Path::new("books/posts")
        );
        assert_eq!(normalize(Path::new("../x/./y")), Path::new("../x/y"));
    }

    #[test]
    fn page_sizes_and_margins_are_bounded_at_their_line() {
        let cases = [
            ("width = \"15cm\"", "width = \"1000cm\"", "too large"),
            ("width = \"15cm\"", "width = \"1mm\"", "too small"),
            ("font-size = \"11pt\"", "font-size = \"900pt\"", "too large"),
            (
                "font-size = \"11pt\"",
                "font-size = \"11pt\"\nheight = \"99999999mm\"",
                "too large",
            ),
            (
                "font-size = \"11pt\"",
                "font-size = \"11pt\"\ninner-margin = \"1000mm\"",
                "too large",
            ),
            (
                "font-size = \"11pt\"",
                "font-size = \"11pt\"\ninner-margin = \"140mm\"",
                "no room",
            ),
        ];
        for (from, to, why) in cases {
            let errs = load(&GOOD.replace(from, to)).unwrap_err();
            assert!(errs[0].message.contains(why), "{to}: {}", errs[0]);
            assert!(errs[0].line.is_some_and(|l| l >= 12), "{to}: {}", errs[0]);
        }
        // Zero margins are fine.
        assert!(load(&GOOD.replace("font-size", "inner-margin = \"0mm\"\nfont-size")).is_ok());
    }

    #[test]
    fn unsafe_slugs_are_refused_at_their_line() {
        for slug in ["../extra/p", "/abs/p", "My Post", "cover", "nav", "a#b"] {
            let errs = load(&GOOD.replace("\"two\"]", &format!("\n  \"{slug}\"]"))).unwrap_err();
            assert_eq!(errs.len(), 1, "{slug}: {errs:?}");
            assert_eq!(errs[0].line, Some(7), "{slug}: {}", errs[0]);
            assert!(errs[0].hint.is_some());
        }
        let errs = load(&GOOD.replace("posts =", "about = \"Nav\"\nposts =")).unwrap_err();
        assert!(errs[0].message.contains("uppercase"), "{}", errs[0]);
    }

    #[test]
    fn control_characters_in_metadata_are_refused_at_their_line() {
        let errs = load(&GOOD.replace("en = \"Title\"", "en = \"Ti\\u0001tle\"")).unwrap_err();
        assert!(errs[0].message.contains("U+0001"), "{}", errs[0]);
        assert_eq!(errs[0].line, Some(10));
        let c = load(&GOOD.replace("\"A. Author\"", "\"\"\"A.\n Author\"\"\"")).unwrap();
        assert_eq!(c.author, "A. Author");
    }

    #[test]
    fn lengths() {
        assert_eq!(parse_length("14cm"), Some(140.0));
        assert_eq!(parse_length("1in"), Some(25.4));
        assert_eq!(parse_length("12"), None);
        assert_eq!(parse_length("3 furlongs"), None);
    }
}
