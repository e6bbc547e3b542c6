//! One post file: front matter (TOML between `+++` lines, or YAML between
//! `---` lines), then Markdown.

use crate::front::{FrontFormat, Split, ToolKeys};
use crate::source::SourceFile;
use crate::translation::{RawTranslationOf, TranslationOf};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use stoa_doc::{Asset, Chapter, Diagnostic, Inline, walk_inlines_mut};

/// A parsed post and the files it needs.
#[derive(Clone, Debug)]
pub struct Post {
    /// The post as a chapter.
    pub chapter: Chapter,
    /// The images it shows.
    pub assets: Vec<Asset>,
    /// Warnings found while reading it.
    pub warnings: Vec<Diagnostic>,
    /// What the post translates, when it is a translation.
    pub translation_of: Option<TranslationOf>,
    /// `opening` from the front matter: where the post opens in print,
    /// over its part's and the book's rule.
    pub opening: Option<stoa_render::Opening>,
    /// `short-title` from the front matter: the PDF's running head
    /// (checked: a non-empty string of one line, smartened).
    pub short_title: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    title: String,
    date: Option<toml::value::Datetime>,
    #[serde(default)]
    tags: Vec<String>,
    summary: Option<String>,
    /// `short-title`: the running head of the PDF; checked below.
    #[serde(rename = "short-title")]
    short_title: Option<toml::Value>,
    #[serde(default)]
    plugins: toml::Table,
    #[serde(rename = "translation-of")]
    translation_of: Option<RawTranslationOf>,
    /// `opening`: "right", "any" or "run-on" (see stoa-book's parts).
    opening: Option<String>,
    /// `[lint.allow]`: silences of `stoa check`'s lints, read by stoa-lint;
    /// a build only needs it to be a table.
    #[serde(default)]
    #[allow(dead_code)]
    lint: Option<toml::Table>,
    /// The keys of Hugo, Jekyll and Zola (`draft`, `categories`…): mapped
    /// or reported by [`crate::front::map_tool_keys`].
    draft: Option<toml::Value>,
    slug: Option<toml::Value>,
    #[serde(rename = "translationKey")]
    translation_key: Option<toml::Value>,
    lang: Option<toml::Value>,
    categories: Option<toml::Value>,
    taxonomies: Option<toml::Value>,
    description: Option<toml::Value>,
    aliases: Option<toml::Value>,
    weight: Option<toml::Value>,
    cover: Option<toml::Value>,
    image: Option<toml::Value>,
}

impl FrontMatter {
    /// Takes the tool keys out.
    fn tool_keys(&mut self) -> ToolKeys {
        ToolKeys {
            draft: self.draft.take(),
            slug: self.slug.take(),
            translation_key: self.translation_key.take(),
            lang: self.lang.take(),
            categories: self.categories.take(),
            taxonomies: self.taxonomies.take(),
            description: self.description.take(),
            aliases: self.aliases.take(),
            weight: self.weight.take(),
            cover: self.cover.take(),
            image: self.image.take(),
        }
    }
}

/// Reads the front matter at `split`: TOML straight into [`FrontMatter`]
/// (an unknown key is an error at its line), YAML key by key (an unknown
/// key is ignored; all of them named in one warning in `warnings`).
fn parse_front(
    file: &SourceFile,
    split: &Split,
    warnings: &mut Vec<Diagnostic>,
) -> Result<FrontMatter, Vec<Diagnostic>> {
    let range = &split.range;
    match split.format {
        FrontFormat::Toml => toml::from_str(&file.text[range.clone()])
            .map_err(|e| vec![file.toml_error(&e, range.start)]),
        FrontFormat::Yaml => {
            let (mut table, repeats) = crate::front::yaml_table_last_wins(
                &file.text[range.clone()],
            )
            .map_err(|(offset, message)| {
                vec![file.error_at(range.start + offset, message).with_hint(
                    "fix the YAML, or write the front matter in TOML between `+++` lines",
                )]
            })?;
            for (offset, key) in repeats {
                let mut warning = file.error_at(
                    range.start + offset,
                    format!(
                        "the key `{key}` is written twice in the front matter; the last is kept"
                    ),
                );
                warning.severity = stoa_doc::Severity::Warning;
                warnings.push(warning.with_hint("remove the earlier one"));
            }
            warnings.extend(crate::front::unknown_yaml_keys(file, range, &table));
            let mut errors = Vec::new();
            let mut take =
                |key: &str, _expected: &str, _errors: &mut Vec<Diagnostic>| table.remove(key);
            let title = take("title", "a string", &mut errors);
            let date = take("date", "a date", &mut errors);
            let tags = take("tags", "a list of strings", &mut errors);
            let summary = take("summary", "a string", &mut errors);
            let short_title = take("short-title", "a string", &mut errors);
            let plugins = take("plugins", "a mapping", &mut errors);
            let translation_of = take("translation-of", "a mapping", &mut errors);
            let opening = take("opening", "a string", &mut errors);
            let lint = take("lint", "a mapping", &mut errors);
            let tool_keys = [
                take("draft", "", &mut errors),
                take("slug", "", &mut errors),
                take("translationKey", "", &mut errors),
                take("lang", "", &mut errors),
                take("categories", "", &mut errors),
                take("taxonomies", "", &mut errors),
                take("description", "", &mut errors),
                take("aliases", "", &mut errors),
                take("weight", "", &mut errors),
                take("cover", "", &mut errors),
                take("image", "", &mut errors),
            ];
            fn typed<T: serde::de::DeserializeOwned>(
                file: &SourceFile,
                range: &std::ops::Range<usize>,
                key: &str,
                value: Option<toml::Value>,
                expected: &str,
                errors: &mut Vec<Diagnostic>,
            ) -> Option<T> {
                let mut one = toml::Table::new();
                one.insert(key.to_string(), value?);
                crate::front::take(file, range, &mut one, key, expected, errors)
            }
            let Some(title) = typed(file, range, "title", title, "a string", &mut errors) else {
                if errors.is_empty() {
                    errors.push(
                        file.error_at(range.start, "missing field `title`")
                            .with_hint("add the post's title: title: \"…\""),
                    );
                }
                return Err(errors);
            };
            let date = match date {
                None => None,
                Some(value) => match crate::front::yaml_date(&value) {
                    Some(d) => Some(d),
                    None => {
                        errors.push(
                            file.error_at(
                                crate::front::key_offset(file, range, "date"),
                                format!(
                                    "`date: {}` is not a date",
                                    value
                                        .as_str()
                                        .map_or_else(|| value.to_string(), str::to_string)
                                ),
                            )
                            .with_hint("write it as date: 2024-05-31"),
                        );
                        None
                    }
                },
            };
            let [
                draft,
                slug,
                translation_key,
                lang,
                categories,
                taxonomies,
                description,
                aliases,
                weight,
                cover,
                image,
            ] = tool_keys;
            let meta = FrontMatter {
                title,
                date,
                tags: typed(file, range, "tags", tags, "a list of strings", &mut errors)
                    .unwrap_or_default(),
                summary: typed(file, range, "summary", summary, "a string", &mut errors),
                short_title,
                plugins: typed(file, range, "plugins", plugins, "a mapping", &mut errors)
                    .unwrap_or_default(),
                translation_of: typed(
                    file,
                    range,
                    "translation-of",
                    translation_of,
                    "a mapping",
                    &mut errors,
                ),
                opening: typed(file, range, "opening", opening, "a string", &mut errors),
                lint: typed(file, range, "lint", lint, "a mapping", &mut errors),
                draft,
                slug,
                translation_key,
                lang,
                categories,
                taxonomies,
                description,
                aliases,
                weight,
                cover,
                image,
            };
            if errors.is_empty() {
                Ok(meta)
            } else {
                Err(errors)
            }
        }
    }
}

/// The front matter's `short-title`: a non-empty string of one line,
/// smartened like the title; an error at its line otherwise.
fn short_title(
    file: &SourceFile,
    front: &std::ops::Range<usize>,
    value: Option<toml::Value>,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    let at = || file.find("short-title", front.start);
    let text = match value? {
        toml::Value::String(s) => s,
        other => {
            errors.push(
                file.error_at(
                    at(),
                    format!("`short-title` must be a string, not {}", other.type_str()),
                )
                .with_hint("write the running head's title in quotes: short-title = \"…\""),
            );
            return None;
        }
    };
    if let Some(c) = crate::text::forbidden(&text) {
        let (message, hint) = crate::text::message("short-title", c);
        errors.push(file.error_at(at(), message).with_hint(hint));
        return None;
    }
    let text = crate::text::one_line(&text);
    if text.trim().is_empty() {
        errors.push(
            file.error_at(at(), "`short-title` is empty").with_hint(
                "write a short form of the title for the running heads, or remove the key",
            ),
        );
        return None;
    }
    Some(stoa_markdown::smarten(text.trim()))
}

/// Reads the post at `path`. Images must exist inside one of `roots`.
pub fn load_post(path: &Path, slug: &str, roots: &[PathBuf]) -> Result<Post, Vec<Diagnostic>> {
    load_post_with(path, slug, roots, None)
}

/// [`load_post`], with the Markdown after the front matter rewritten by
/// `hook` (plugins' `source` hooks) before it is parsed; every line number
/// reported is still the author's.
pub fn load_post_with(
    path: &Path,
    slug: &str,
    roots: &[PathBuf],
    hook: Option<&dyn crate::rewrite::SourceHook>,
) -> Result<Post, Vec<Diagnostic>> {
    let file = SourceFile::read(path).map_err(|d| vec![d])?;
    let split = crate::front::split(&file)?;
    let mut front_warnings = Vec::new();
    let mut meta = parse_front(&file, &split, &mut front_warnings)?;
    let (front, body_start) = (split.range.clone(), split.body_start);
    let mapped = crate::front::map_tool_keys(
        &file,
        &front,
        meta.tool_keys(),
        meta.summary.is_some(),
        slug,
        &mut front_warnings,
    );
    if meta.summary.is_none() {
        meta.summary = mapped.summary;
    }
    for tag in mapped.tags {
        if !meta.tags.contains(&tag) {
            meta.tags.push(tag);
        }
    }
    let mut errors = Vec::new();
    let translation_of = match meta.translation_of.take() {
        Some(raw) => crate::translation::check(&file, &front, raw)
            .map_err(|e| errors.push(e))
            .ok(),
        None => None,
    };
    check_metadata(&file, &front, &mut meta, &mut errors);
    if meta.title.trim().is_empty() {
        errors.push(
            file.error_at(file.find("title", front.start), "the title is empty")
                .with_hint("write the post's title: title = \"…\""),
        );
    }
    let date = match meta.date {
        Some(d) if d.time.is_some() || d.date.is_none() => {
            errors.push(
                file.error_at(
                    file.find("date", front.start),
                    format!("`date = {d}` is not a plain date"),
                )
                .with_hint("write it as date = 2024-05-31"),
            );
            None
        }
        Some(d) => d.date.map(|d| d.to_string()),
        None => None,
    };
    // Plugins' `source` hooks first; the mapper takes every line found
    // in what they made back to the author's file.
    let (body, lines, hook_warnings) = crate::rewrite::rewrite_body(&file, body_start, slug, hook)?;
    let mut parsed = stoa_markdown::parse(&body, lines.parse_from());
    let added_images = lines.images(&mut parsed.images);
    let (parse_errors, mut warnings): (Vec<_>, Vec<_>) = parsed
        .diagnostics
        .into_iter()
        .map(|d| lines.diagnostic(d).in_file(&file.display))
        .partition(Diagnostic::is_error);
    warnings.extend(hook_warnings);
    warnings.splice(0..0, front_warnings);
    errors.extend(parse_errors);
    let mut blocks = parsed.blocks;
    // The chapter's own id is its slug: a heading must not take it too.
    stoa_markdown::free_id(&mut blocks, slug);
    let before = errors.len();
    let assets = resolve_images(
        &file,
        slug,
        &parsed.images,
        roots,
        &mut errors,
        &mut warnings,
    );
    crate::rewrite::LineMapper::mark_added(&mut errors[before..], &added_images);
    rename_images(&mut blocks, &assets);
    if !errors.is_empty() {
        return Err(errors);
    }
    let short_title = short_title(&file, &front, meta.short_title.take(), &mut errors);
    let opening = meta.opening.as_deref().and_then(|value| {
        let at = crate::parts::key_at(&file, "opening", front.start);
        crate::parts::opening(&file, at, value, &mut errors)
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    let plugin_data = meta
        .plugins
        .into_iter()
        .filter_map(|(k, v)| serde_json::to_value(v).ok().map(|v| (k, v)))
        .collect();
    let chapter = Chapter {
        slug: slug.to_string(),
        title: stoa_markdown::smarten(&meta.title),
        date,
        tags: meta.tags,
        summary: meta.summary.as_deref().map(stoa_markdown::smarten),
        source: Some(file.display.clone()),
        plugin_data,
        blocks,
        ..Chapter::default()
    };
    Ok(Post {
        chapter,
        short_title,
        assets: unique_assets(assets),
        warnings,
        translation_of,
        opening,
    })
}

/// Refuses control characters in the title, summary and tags, at their
/// key's line, and folds their line breaks into spaces.
fn check_metadata(
    file: &SourceFile,
    front: &std::ops::Range<usize>,
    meta: &mut FrontMatter,
    errors: &mut Vec<Diagnostic>,
) {
    let mut check = |key: &str, value: &mut String| {
        if let Some(c) = crate::text::forbidden(value) {
            let (message, hint) = crate::text::message(key, c);
            errors.push(
                file.error_at(file.find(key, front.start), message)
                    .with_hint(hint),
            );
        }
        *value = crate::text::one_line(value);
    };
    check("title", &mut meta.title);
    if let Some(summary) = &mut meta.summary {
        check("summary", summary);
    }
    for tag in &mut meta.tags {
        check("tags", tag);
    }
}

/// A post's front matter, read without its Markdown: what the translation
/// checks compare (`stoa-translate`).
pub struct PostHeader {
    /// The file, whole.
    pub file: SourceFile,
    /// The title as written (not smartened).
    pub title: String,
    /// The line of the `title` key.
    pub title_line: usize,
    /// The summary as written, if any, and the line of its key.
    pub summary: Option<(String, usize)>,
    /// What the post translates, checked.
    pub translation_of: Option<TranslationOf>,
    /// The byte range of the front matter's TOML in the file.
    pub front: std::ops::Range<usize>,
    /// Where the Markdown body starts.
    pub body_start: usize,
    /// TOML or YAML.
    pub format: FrontFormat,
}

/// Reads the front matter of the post at `path`, with the same checks as
/// [`load_post`] for the keys it returns.
pub fn read_header(path: &Path) -> Result<PostHeader, Vec<Diagnostic>> {
    let file = SourceFile::read(path).map_err(|d| vec![d])?;
    let split = crate::front::split(&file)?;
    let meta = parse_front(&file, &split, &mut Vec::new())?;
    let (front, body_start, format) = (split.range.clone(), split.body_start, split.format);
    let translation_of = meta
        .translation_of
        .map(|raw| crate::translation::check(&file, &front, raw))
        .transpose()
        .map_err(|e| vec![e])?;
    let line = |key: &str| crate::translation::key_line(&file, &front, key);
    Ok(PostHeader {
        title_line: line("title"),
        summary: meta.summary.map(|s| (s, line("summary"))),
        title: meta.title,
        translation_of,
        front,
        body_start,
        format,
        file,
    })
}

/// Checks every image and gives each a name inside the book: url -> asset.
fn resolve_images(
    file: &SourceFile,
    slug: &str,
    images: &[stoa_markdown::ImageRef],
    roots: &[PathBuf],
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Asset> {
    let mut assets = BTreeMap::new();
    let dir = file.path.parent().unwrap_or(Path::new("."));
    for image in images {
        if assets.contains_key(&image.url) {
            continue;
        }
        let at = |msg: String| {
            Diagnostic::error(msg)
                .in_file(&file.display)
                .at(image.pos.line, image.pos.column)
        };
        if image.url.contains("://") {
            errors.push(
                at(format!("the image `{}` is not a local file", image.url))
                    .with_hint("download it next to the post and refer to it by its file name"),
            );
            continue;
        }
        let path = dir.join(&image.url);
        let Ok(real) = path.canonicalize() else {
            errors.push(
                at(format!(
                    "the image `{}` does not exist (looked for {})",
                    image.url,
                    path.display()
                ))
                .with_hint("check the file name, or put the image in the post's folder"),
            );
            continue;
        };
        if !roots
            .iter()
            .filter_map(|r| r.canonicalize().ok())
            .any(|r| real.starts_with(r))
        {
            errors.push(
                at(format!(
                    "the image `{}` is outside the book's folders",
                    image.url
                ))
                .with_hint("copy it into the post's folder"),
            );
            continue;
        }
        let Some(media_type) = crate::picture::media_type(&real) else {
            errors.push(
                at(format!(
                    "`{}` is not an image format EPUB readers show",
                    image.url
                ))
                .with_hint("use PNG, JPEG, GIF, WebP or SVG"),
            );
            continue;
        };
        match crate::picture::check_bytes(&real, media_type) {
            Err((why, hint)) => {
                errors.push(at(format!("the image `{}` {why}", image.url)).with_hint(hint));
                continue;
            }
            Ok(bytes) if media_type == "image/gif" && crate::picture::is_animated_gif(&bytes) => {
                warnings.push(
                    Diagnostic::warning(format!(
                        "the image `{}` is an animated GIF: the PDF prints its first frame",
                        image.url
                    ))
                    .in_file(&file.display)
                    .at(image.pos.line, image.pos.column)
                    .with_hint("if another frame tells more, save it as a PNG for the book"),
                );
            }
            Ok(_) => {}
        }
        let file_name = real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let safe: String = file_name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let same_file = assets
            .values()
            .find(|a: &&Asset| Path::new(&a.path) == real);
        let name = match same_file {
            Some(a) => a.name.clone(),
            None => format!("images/{slug}/{}-{safe}", assets.len() + 1),
        };
        assets.insert(
            image.url.clone(),
            Asset {
                name,
                path: real.display().to_string(),
                media_type: media_type.to_string(),
            },
        );
    }
    assets
}

/// One asset per file, in name order.
fn unique_assets(by_url: BTreeMap<String, Asset>) -> Vec<Asset> {
    let by_name: BTreeMap<String, Asset> =
        by_url.into_values().map(|a| (a.name.clone(), a)).collect();
    by_name.into_values().collect()
}

fn rename_images(blocks: &mut [stoa_doc::Block], assets: &BTreeMap<String, Asset>) {
    walk_inlines_mut(blocks, &mut |inlines| {
        for inline in inlines.iter_mut() {
            if let Inline::Image { url, .. } = inline
                && let Some(asset) = assets.get(url)
            {
                *url = asset.name.clone();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &[u8]) -> PathBuf {
        let path = dir.join("en.md");
        std::fs::write(&path, text).unwrap();
        path
    }

    fn load(text: &str) -> Result<Post, Vec<Diagnostic>> {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), text.as_bytes());
        load_post(&path, "a-post", &[dir.path().to_path_buf()])
    }

    #[test]
    fn reads_front_matter_and_body() {
        let post = load("+++\ntitle = \"T\"\ndate = 2024-01-02\ntags = [\"x\"]\nsummary = \"S\"\n+++\n\nHello *world*.\n").unwrap();
        assert_eq!(post.chapter.title, "T");
        assert_eq!(post.chapter.date.as_deref(), Some("2024-01-02"));
        assert_eq!(post.chapter.blocks.len(), 1);
    }

    #[test]
    fn short_title_is_a_non_empty_string() {
        let post = load("+++\ntitle = \"A long title: with more\"\nshort-title = \"A 'long' title\"\n+++\nText.\n").unwrap();
        assert_eq!(post.short_title.as_deref(), Some("A ‘long’ title"));
        let errs = load("+++\ntitle = \"t\"\nshort-title = 3\n+++\nText.\n").unwrap_err();
        assert!(
            errs[0]
                .message
                .contains("`short-title` must be a string, not integer")
        );
        assert_eq!(errs[0].line, Some(3));
        let errs = load("+++\ntitle = \"t\"\nshort-title = \"  \"\n+++\nText.\n").unwrap_err();
        assert!(errs[0].message.contains("`short-title` is empty"));
        assert_eq!(errs[0].line, Some(3));
    }

    #[test]
    fn missing_front_matter() {
        let errs = load("# Hello\n").unwrap_err();
        assert!(errs[0].message.contains("does not start with front matter"));
        assert_eq!(errs[0].line, Some(1));
    }

    #[test]
    fn unclosed_front_matter() {
        let errs = load("+++\ntitle = \"x\"\n").unwrap_err();
        assert!(errs[0].message.contains("never closed"));
    }

    #[test]
    fn missing_title_and_unknown_key_point_into_the_file() {
        let errs = load("+++\ntags = []\n+++\nbody\n").unwrap_err();
        assert!(
            errs[0].message.contains("missing field `title`"),
            "{}",
            errs[0]
        );
        let errs = load("+++\ntitle = \"t\"\nauthor = \"me\"\n+++\n").unwrap_err();
        assert!(
            errs[0].message.contains("unknown field `author`"),
            "{}",
            errs[0]
        );
        assert_eq!(errs[0].line, Some(3));
    }

    #[test]
    fn translation_of_is_checked_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("a-post");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("pt-BR.md"), "+++\ntitle = \"o\"\n+++\n").unwrap();
        let post = |key: &str| {
            let path = folder.join("en.md");
            std::fs::write(&path, format!("+++\ntitle = \"t\"\n{key}\n+++\nBody.\n")).unwrap();
            load_post(&path, "a-post", std::slice::from_ref(&folder))
        };
        let good = "translation-of = { lang = \"pt-BR\", fingerprint = \"0123456789abcdef\", paragraphs = \"abcd\" }";
        let record = post(good).unwrap().translation_of.unwrap();
        assert_eq!((record.lang.as_str(), record.line), ("pt-BR", 3));
        let cases = [
            (
                "translation-of = { lang = \"en\", fingerprint = \"0123456789abcdef\" }",
                "own language",
            ),
            (
                "translation-of = { lang = \"fr\", fingerprint = \"0123456789abcdef\" }",
                "does not exist",
            ),
            (
                "translation-of = { lang = \"pt_BR\", fingerprint = \"0123456789abcdef\" }",
                "not a language tag",
            ),
            (
                "translation-of = { lang = \"pt-BR\", fingerprint = \"123\" }",
                "not one stoa wrote",
            ),
            (
                "translation-of = { lang = \"pt-BR\", fingerprint = \"0123456789abcdef\", paragraphs = \"abc\" }",
                "`paragraphs`",
            ),
        ];
        for (key, why) in cases {
            let errs = post(key).unwrap_err();
            assert!(errs[0].message.contains(why), "{key}: {}", errs[0]);
            assert_eq!(errs[0].line, Some(3), "{key}");
        }
        let errs = post("translation-of = { lang = \"pt-BR\", fingerprint = \"0123456789abcdef\", by = \"me\" }").unwrap_err();
        assert!(
            errs[0].message.contains("unknown field `by`"),
            "{}",
            errs[0]
        );
    }

    #[test]
    fn malformed_toml_has_its_line() {
        let errs = load("+++\ntitle = \"t\"\ntags = [\n+++\n").unwrap_err();
        assert!(errs[0].line.unwrap() >= 3, "{}", errs[0]);
    }

    #[test]
    fn missing_image_has_line_and_column() {
        let errs = load("+++\ntitle = \"t\"\n+++\n\nSee ![a](nope.png)\n").unwrap_err();
        assert!(errs[0].message.contains("does not exist"), "{}", errs[0]);
        assert_eq!((errs[0].line, errs[0].column), (Some(5), Some(5)));
    }

    #[test]
    fn image_outside_the_roots_is_refused() {
        let outer = tempfile::tempdir().unwrap();
        let inner = outer.path().join("post");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(outer.path().join("secret.png"), b"x").unwrap();
        let path = write(&inner, b"+++\ntitle = \"t\"\n+++\n![a](../secret.png)\n");
        let errs = load_post(&path, "p", std::slice::from_ref(&inner)).unwrap_err();
        assert!(
            errs[0].message.contains("outside the book's folders"),
            "{}",
            errs[0]
        );
    }

    #[test]
    fn images_get_book_names() {
        let dir = tempfile::tempdir().unwrap();
        let png = crate::picture::tests::png(2, 2);
        std::fs::write(dir.path().join("fig.png"), png).unwrap();
        let path = write(
            dir.path(),
            b"+++\ntitle = \"t\"\n+++\n![a](fig.png) ![b](./fig.png)\n",
        );
        let post = load_post(&path, "p", &[dir.path().to_path_buf()]).unwrap();
        let names: Vec<_> = post.assets.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["images/p/1-fig.png"]);
        let stoa_doc::Block::Paragraph { content } = &post.chapter.blocks[0] else {
            panic!()
        };
        assert!(matches!(&content[0], Inline::Image { url, .. } if url == "images/p/1-fig.png"));
    }

    #[test]
    fn an_animated_gif_is_told_to_print_its_first_frame() {
        use image::{Delay, Frame, RgbaImage, codecs::gif::GifEncoder};
        let dir = tempfile::tempdir().unwrap();
        let mut gif = Vec::new();
        {
            let mut encoder = GifEncoder::new(&mut gif);
            for shade in [0u8, 255] {
                let frame = RgbaImage::from_pixel(4, 4, image::Rgba([shade, 0, 0, 255]));
                let delay = Delay::from_numer_denom_ms(100, 1);
                encoder
                    .encode_frame(Frame::from_parts(frame, 0, 0, delay))
                    .unwrap();
            }
        }
        std::fs::write(dir.path().join("spin.gif"), &gif).unwrap();
        let path = write(dir.path(), b"+++\ntitle = \"t\"\n+++\n\n![a](spin.gif)\n");
        let post = load_post(&path, "p", &[dir.path().to_path_buf()]).unwrap();
        assert_eq!(post.warnings.len(), 1, "{:?}", post.warnings);
        let warning = post.warnings[0].to_string();
        assert!(
            warning.contains("`spin.gif` is an animated GIF"),
            "{warning}"
        );
        assert_eq!(post.warnings[0].line, Some(5));
    }

    #[test]
    fn yaml_front_matter_reads_the_same_keys() {
        let post = load("---\ntitle: \"T\"\ndate: 2024-01-02 10:00:00 +0200\ntags: [x]\nsummary: S\n---\n\nHello *world*.\n").unwrap();
        assert_eq!(post.chapter.title, "T");
        assert_eq!(post.chapter.date.as_deref(), Some("2024-01-02"));
        assert_eq!(post.chapter.tags, ["x"]);
        assert_eq!(post.chapter.summary.as_deref(), Some("S"));
        assert!(post.warnings.is_empty(), "{:?}", post.warnings);
    }

    #[test]
    fn yaml_maps_tool_keys_and_sums_up_unknown_ones() {
        let post = load("---\ntitle: T\nlayout: post\ndescription: D\ncategories: [c]\ntags: [t]\ncomments: true\nweight: 3\ndraft: true\n---\nText.\n").unwrap();
        assert_eq!(post.chapter.summary.as_deref(), Some("D"));
        assert_eq!(post.chapter.tags, ["t", "c"]);
        let texts: Vec<String> = post.warnings.iter().map(ToString::to_string).collect();
        assert!(
            texts.iter().any(|w| w.contains(
                ":3:1: warning: front-matter keys stoa does not use, ignored: `layout`, `comments`"
            )),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|w| w.contains(":9:1: warning: the post is marked as a draft")),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|w| w.contains(":8:1: warning: front-matter keys ignored: weight")),
            "{texts:?}"
        );
    }

    #[test]
    fn toml_takes_tool_keys_but_refuses_unknown_ones() {
        let post = load("+++\ntitle = \"T\"\ncategories = [\"c\"]\nslug = \"other\"\n+++\nText.\n")
            .unwrap();
        assert_eq!(post.chapter.tags, ["c"]);
        assert!(
            post.warnings[0].message.contains("`slug` is `other`"),
            "{}",
            post.warnings[0]
        );
        assert_eq!(post.warnings[0].line, Some(4));
    }

    #[test]
    fn yaml_errors_have_their_line() {
        let errs = load("---\ntitle: t\ntags: [a\n---\n").unwrap_err();
        assert!(errs[0].line.unwrap() >= 3, "{}", errs[0]);
        let errs = load("---\ntitle: t\nsummary: [1]\n---\n").unwrap_err();
        assert_eq!(errs[0].line, Some(3), "{}", errs[0]);
        assert!(
            errs[0]
                .message
                .contains("`summary` must be a string, not array"),
            "{}",
            errs[0]
        );
        let errs = load("---\ntags: [a]\n---\n").unwrap_err();
        assert!(
            errs[0].message.contains("missing field `title`"),
            "{}",
            errs[0]
        );
        let errs = load("---\ntitle: t\ndate: soon\n---\n").unwrap_err();
        assert_eq!(errs[0].line, Some(3), "{}", errs[0]);
        let errs = load("---\ntitle: t\n").unwrap_err();
        assert!(errs[0].message.contains("never closed"), "{}", errs[0]);
    }
}
