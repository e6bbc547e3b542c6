//! A Hugo site folder: `hugo.toml` (or `config.toml`, `.yaml`, `.json`,
//! or `config/_default/`), `content/` (or one content folder per
//! language), `static/` and page bundles.
//!
//! Languages follow Hugo's rules: a file's language is its name's suffix
//! (`post.pt-br.md`, `index.en.md`) when that is one of the site's
//! languages, else its content folder's language, else
//! `defaultContentLanguage`. Translations are the files of one path (the
//! suffix taken away) or of one `translationKey`.

use crate::frontmatter::{self, Front};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status, Translated};
use crate::site::{Found, Layout};
use crate::syntax::Syntax;
use crate::util;
use std::path::{Path, PathBuf};

/// The configuration files Hugo reads, in its order.
const CONFIGS: &[&str] = &[
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "hugo.json",
    "config.toml",
    "config.yaml",
    "config.yml",
    "config.json",
    "config/_default/hugo.toml",
    "config/_default/hugo.yaml",
    "config/_default/config.toml",
    "config/_default/config.yaml",
];

/// Content file extensions.
pub(crate) const MARKDOWN: &[&str] = &["md", "markdown", "mdown", "mkd", "mkdn"];

/// Adds to `config` the other files of Hugo's configuration folder
/// (`config/_default/`), as Hugo reads them: `params.toml` is the
/// `[params]` table, `languages.toml` the `[languages]` table,
/// `languages.ja.toml` the `[languages.ja]` table, `menus.ja.toml` the
/// menus of Japanese; `main` the file already read.
fn merge_config_dir(
    dir: &Path,
    main: &Path,
    config: &mut toml::Table,
    options: &ImportOptions,
) -> Result<(), Diagnostic> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| {
            Diagnostic::error(format!("cannot read the folder: {e}")).in_file(util::display(dir))
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p != main && p.is_file())
        .filter(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            matches!(ext, "toml" | "yaml" | "yml" | "json")
        })
        .collect();
    files.sort();
    for file in files {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let table = frontmatter::read_config(&file, options.max_file_size)?;
        let (name, lang) = match stem.split_once('.') {
            Some((name, lang)) => (name, Some(lang)),
            None => (stem, None),
        };
        let target = match lang {
            // `languages.ja.toml`: the language's own table.
            Some(lang) if name == "languages" => table_at(config, &["languages", lang]),
            Some(lang) => table_at(config, &["languages", lang, name]),
            None if name == "hugo" || name == "config" => config,
            None => table_at(config, &[name]),
        };
        for (key, value) in table {
            target.insert(key, value);
        }
    }
    Ok(())
}

/// The table at `path` in `table`, made when missing.
fn table_at<'t>(table: &'t mut toml::Table, path: &[&str]) -> &'t mut toml::Table {
    let mut at = table;
    for key in path {
        let entry = at
            .entry(key.to_string())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = toml::Value::Table(toml::Table::new());
        }
        at = entry.as_table_mut().expect("made a table just above");
    }
    at
}

/// Reads the Hugo site at `source`.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let root = util::source_folder(source, "Hugo")?;
    let config_path = CONFIGS.iter().map(|c| root.join(c)).find(|p| p.is_file());
    let Some(config_path) = config_path else {
        return Err(vec![
            Diagnostic::error(
                "this folder has no Hugo configuration (hugo.toml, config.toml, config.yaml…)",
            )
            .in_file(util::display(&root))
            .with_hint("give the Hugo site's own folder, the one `hugo` is run in"),
        ]);
    };
    let mut config =
        frontmatter::read_config(&config_path, options.max_file_size).map_err(|e| vec![e])?;
    if let Some(dir) = config_path
        .parent()
        .filter(|d| d.ends_with("config/_default"))
    {
        merge_config_dir(dir, &config_path, &mut config, options).map_err(|e| vec![e])?;
    }
    let get = |key: &str| frontmatter::get(&config, key);
    let string = |key: &str| get(key).and_then(frontmatter::scalar_string);
    let params = get("params").and_then(toml::Value::as_table);
    let author = author(get("author"))
        .or_else(|| params.and_then(|p| author(frontmatter::get(p, "author"))));
    let description = params
        .and_then(|p| frontmatter::get(p, "description"))
        .and_then(frontmatter::scalar_string);
    let languages_table = get("languages").and_then(toml::Value::as_table);
    let default = string("defaultContentLanguage");
    let mut languages: Vec<(String, i64, Option<PathBuf>)> = Vec::new();
    if let Some(table) = languages_table {
        for (key, value) in table {
            let weight = value
                .as_table()
                .and_then(|t| frontmatter::get(t, "weight"))
                .and_then(toml::Value::as_integer)
                .unwrap_or(0);
            let dir = value
                .as_table()
                .and_then(|t| frontmatter::get(t, "contentDir"))
                .and_then(toml::Value::as_str)
                .map(PathBuf::from);
            languages.push((key.clone(), weight, dir));
        }
        languages.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    }
    let default = default
        .or_else(|| {
            (languages.is_empty())
                .then(|| string("languageCode"))
                .flatten()
        })
        .or_else(|| languages.first().map(|l| l.0.clone()))
        .unwrap_or_else(|| "en".to_string());
    if languages.is_empty() {
        languages.push((default.clone(), 0, None));
    }
    if let Some(i) = languages
        .iter()
        .position(|l| l.0.eq_ignore_ascii_case(&default))
    {
        let d = languages.remove(i);
        languages.insert(0, d);
    }
    let in_subdir = get("defaultContentLanguageInSubdir")
        .and_then(toml::Value::as_bool)
        .unwrap_or(false);
    let codes = language_codes(languages_table, &config_path);
    let translated = translated(get("languages"));
    // A site whose titles are all per language (`languages.en.toml`): the
    // default language's is the book's.
    let own = |f: fn(&Translated) -> Option<&String>| {
        translated
            .iter()
            .find(|t| t.lang.eq_ignore_ascii_case(&default))
            .and_then(f)
            .cloned()
    };
    let site = Site {
        title: string("title").or_else(|| own(|t| t.title.as_ref())),
        description: description.or_else(|| own(|t| t.description.as_ref())),
        translated,
        author,
        languages: languages.iter().map(|l| l.0.clone()).collect(),
        base_url: string("baseURL"),
        config: Some(Place::new(util::display(&config_path), None)),
    };
    let permalinks = get("permalinks")
        .and_then(toml::Value::as_table)
        .cloned()
        .unwrap_or_default();
    let default_dir = string("contentDir").unwrap_or_else(|| "content".into());
    let mut warnings = Vec::new();
    // The content folders: one per language that has its own, else one.
    let mut folders: Vec<(PathBuf, Option<String>)> = Vec::new();
    for (lang, _, dir) in &languages {
        if let Some(dir) = dir {
            folders.push((dir.clone(), Some(lang.clone())));
        }
    }
    if folders.is_empty() || languages.iter().any(|l| l.2.is_none()) {
        folders.push((PathBuf::from(&default_dir), None));
    }
    let mut found = Vec::new();
    for (folder, folder_lang) in folders {
        let Some(rel) = util::plain_relative(&folder.to_string_lossy()) else {
            return Err(vec![
                Place::new(util::display(&config_path), None)
                    .error(format!(
                        "the content folder `{}` is outside the site",
                        folder.display()
                    ))
                    .with_hint("Hugo's contentDir must be a folder inside the site"),
            ]);
        };
        let dir = root.join(rel);
        if !dir.is_dir() {
            if folder_lang.is_some() || found.is_empty() {
                warnings.push(
                    Diagnostic::warning(format!(
                        "the content folder `{}` does not exist",
                        folder.display()
                    ))
                    .in_file(util::display(&config_path)),
                );
            }
            continue;
        }
        let Some(real) = util::inside(&root, &dir) else {
            return Err(vec![
                Diagnostic::error(format!(
                    "the content folder `{}` leads outside the site",
                    folder.display()
                ))
                .in_file(util::display(&dir))
                .with_hint("replace the link by the folder itself"),
            ]);
        };
        let files = util::walk(&root, &real, &mut warnings).map_err(|e| vec![e])?;
        let cx = Walk {
            root: &root,
            content: &real,
            languages: &languages.iter().map(|l| l.0.clone()).collect::<Vec<_>>(),
            default: &default,
            folder_lang: folder_lang.as_deref(),
            in_subdir,
            permalinks: &permalinks,
            options,
        };
        read_folder(&cx, &files, &mut found, &mut warnings)?;
    }
    let layout = Layout {
        root: &root,
        static_dirs: vec![root.join("static"), root.join("assets")],
        syntax: Syntax::Hugo,
        config: None,
        aliases: Vec::new(),
    };
    let (found, site) = codes.apply(found, site, &mut warnings);
    crate::site::finish(found, site, &layout, options, warnings)
}

/// Hugo's language keys (`[languages.br]`) are names the site chooses, not
/// language tags: the tag is the language's `languageCode` (or `locale`,
/// its newer name), when it gives one. Each key with another tag, and where
/// it was read, for the one warning that says what the edition becomes.
struct LanguageCodes {
    codes: Vec<(String, String)>,
    config: Place,
}

fn language_codes(languages: Option<&toml::Table>, config_path: &Path) -> LanguageCodes {
    let mut codes = Vec::new();
    for (key, value) in languages.into_iter().flatten() {
        let table = value.as_table();
        let code = ["languageCode", "locale"].iter().find_map(|name| {
            let code = table.and_then(|t| frontmatter::get(t, name))?;
            frontmatter::scalar_string(code).filter(|c| !c.trim().is_empty())
        });
        if let Some(code) = code.map(|c| util::canonical_tag(&c))
            && code != util::canonical_tag(key)
        {
            codes.push((key.clone(), code));
        }
    }
    LanguageCodes {
        codes,
        config: Place::new(util::display(config_path), None),
    }
}

impl LanguageCodes {
    /// The tag of the language the site calls `key`.
    fn tag<'k>(&'k self, key: &'k str) -> &'k str {
        self.codes
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map_or(key, |(_, code)| code.as_str())
    }

    /// The posts and the site with each language key replaced by its tag,
    /// and one warning per key so replaced.
    fn apply(
        &self,
        mut found: Vec<Found>,
        mut site: Site,
        warnings: &mut Vec<Diagnostic>,
    ) -> (Vec<Found>, Site) {
        for f in &mut found {
            if let Some(lang) = &f.post.lang {
                f.post.lang = Some(self.tag(lang).to_string());
            }
        }
        site.languages = site
            .languages
            .iter()
            .map(|l| self.tag(l).to_string())
            .collect();
        for t in &mut site.translated {
            t.lang = self.tag(&t.lang).to_string();
        }
        for (key, code) in &self.codes {
            warnings.push(self.config.warning(format!(
                "the language `{key}` of the site is `{code}` (its languageCode): the `{code}` \
                 edition is hyphenated and labelled as `{code}`, not as `{key}`"
            )));
        }
        (found, site)
    }
}

/// `author = "Name"`, or `author = { name = "Name" }`.
pub(crate) fn author(value: Option<&toml::Value>) -> Option<String> {
    match value? {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Table(t) => frontmatter::get(t, "name").and_then(frontmatter::scalar_string),
        toml::Value::Array(items) => items.first().and_then(|v| author(Some(v))),
        _ => None,
    }
}

struct Walk<'a> {
    root: &'a Path,
    content: &'a Path,
    languages: &'a [String],
    default: &'a str,
    folder_lang: Option<&'a str>,
    in_subdir: bool,
    permalinks: &'a toml::Table,
    options: &'a ImportOptions,
}

/// The language suffix of a file stem (`post.pt-br` gives `post`, `pt-br`)
/// when it is one of `languages`.
pub(crate) fn split_lang<'s>(stem: &'s str, languages: &[String]) -> (&'s str, Option<String>) {
    if let Some((base, suffix)) = stem.rsplit_once('.')
        && let Some(lang) = languages.iter().find(|l| l.eq_ignore_ascii_case(suffix))
    {
        return (base, Some(lang.clone()));
    }
    (stem, None)
}

fn read_folder(
    cx: &Walk<'_>,
    files: &[PathBuf],
    found: &mut Vec<Found>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Vec<Diagnostic>> {
    // Leaf bundles: folders with an index file; their other files are the
    // bundle's resources, not pages.
    let bundles: Vec<PathBuf> = files
        .iter()
        .filter(|f| {
            let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            MARKDOWN.contains(&ext) && split_lang(stem, cx.languages).0 == "index"
        })
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .collect();
    let mut errors = Vec::new();
    for file in files {
        let ext = file
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if !MARKDOWN.contains(&ext.as_str()) {
            if matches!(
                ext.as_str(),
                "html" | "htm" | "org" | "adoc" | "rst" | "pandoc"
            ) && !bundles.iter().any(|b| file.starts_with(b))
            {
                warnings.push(
                    Diagnostic::warning(format!("content in `{ext}` is not Markdown; left out"))
                        .in_file(util::display(file))
                        .with_hint("convert it to Markdown to import it"),
                );
            }
            continue;
        }
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let (base, suffix_lang) = split_lang(stem, cx.languages);
        if base == "_index" {
            continue;
        }
        let parent = file.parent().unwrap_or(cx.content);
        let is_index = base == "index";
        if !is_index && bundles.iter().any(|b| file.starts_with(b)) {
            continue;
        }
        match read_post(cx, file, base, suffix_lang, is_index, parent, warnings) {
            Ok(Some(f)) => found.push(f),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn read_post(
    cx: &Walk<'_>,
    file: &Path,
    base: &str,
    suffix_lang: Option<String>,
    is_index: bool,
    parent: &Path,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Option<Found>, Diagnostic> {
    let shown = util::display(file);
    let text = util::read_text(file, util::post_limit(cx.options))?;
    let mut front = frontmatter::split(&text, &shown)?;
    warnings.append(&mut front.warnings);
    // A page the theme draws (`layout: archives`, `layout: search`) with
    // no text of its own is the site's furniture, not a post.
    if let Some(layout) = front.str("layout")
        && front.body.trim().is_empty()
    {
        warnings.push(
            Diagnostic::warning(format!(
                "left out: a page the theme's `{layout}` layout draws, with no text of its own"
            ))
            .in_file(&shown)
            .with_hint("write its text in the file to import it as a post"),
        );
        return Ok(None);
    }
    let lang = suffix_lang
        .or_else(|| cx.folder_lang.map(str::to_string))
        .unwrap_or_else(|| cx.default.to_string());
    let rel_dir = if is_index {
        parent
            .strip_prefix(cx.content)
            .unwrap_or(Path::new(""))
            .to_path_buf()
    } else {
        parent
            .strip_prefix(cx.content)
            .unwrap_or(Path::new(""))
            .join(base)
    };
    let rel = rel_dir.to_string_lossy().replace('\\', "/");
    let file_slug = rel.rsplit('/').next().unwrap_or(base).to_string();
    let slug = front.str("slug").unwrap_or_else(|| file_slug.clone());
    let title = front.str("title").unwrap_or_default();
    let date = front.first_date(
        &["date", "publishDate", "pubdate", "lastmod"],
        &shown,
        warnings,
    );
    let status = if front.bool("draft") == Some(true) {
        Status::Draft
    } else {
        Status::Published
    };
    let section = rel.split('/').next().unwrap_or("").to_string();
    let sub_dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let mut urls = Vec::new();
    let prefix = if lang.eq_ignore_ascii_case(cx.default) && !cx.in_subdir {
        String::new()
    } else {
        format!("/{}", lang.to_lowercase())
    };
    if let Some(url) = front.str("url") {
        urls.push(url);
    } else {
        let pattern = frontmatter::get(cx.permalinks, &section)
            .and_then(toml::Value::as_str)
            .map(str::to_string);
        let path = match pattern {
            Some(p) => {
                let (y, m, d) = ymd(date.as_deref());
                crate::site::permalink(
                    &p,
                    &[
                        ("year", y),
                        ("month", m),
                        ("day", d),
                        ("slug", util::post_slug(&slug)),
                        ("title", util::post_slug(&title)),
                        ("filename", file_slug.clone()),
                        ("contentbasename", file_slug.clone()),
                        ("section", section.clone()),
                        ("sections", sub_dir.clone()),
                    ],
                )
            }
            None if sub_dir.is_empty() => format!("/{slug}/"),
            None => format!("/{sub_dir}/{slug}/"),
        };
        urls.push(format!("{prefix}{path}"));
        if !prefix.is_empty() {
            urls.push(path);
        }
    }
    urls.extend(front.strings("aliases"));
    let translation_key = front
        .str("translationKey")
        .map(|k| format!("key:{k}"))
        .unwrap_or_else(|| format!("path:{rel}"));
    let place = Place::new(&shown, Some(1));
    let title = untitled(title, &file_slug, &place, warnings);
    let cover = cover(&front);
    let mut names = vec![rel.clone(), format!("{rel}.md"), file_slug, slug.clone()];
    if let Ok(from_root) = file.strip_prefix(cx.root) {
        names.push(from_root.to_string_lossy().replace('\\', "/"));
    }
    if let Ok(from_content) = file.strip_prefix(cx.content) {
        names.push(from_content.to_string_lossy().replace('\\', "/"));
    }
    Ok(Some(Found {
        post: Post {
            slug,
            lang: Some(lang),
            title,
            date,
            status,
            tags: front.strings("tags"),
            categories: front.strings("categories"),
            description: front.str("description").or_else(|| front.str("summary")),
            translation_key: Some(translation_key),
            body: front.body.clone(),
            images: Vec::new(),
            urls,
            source: place,
        },
        body_place: Place::new(&shown, Some(front.body_line)),
        dir: parent.to_path_buf(),
        names,
        cover,
        translations: crate::site::named(&front),
        front: front.table.clone(),
    }))
}

/// A cover image named in the front matter: `cover.image`, `cover`,
/// `image`, `featured_image`, or the first of `images`.
pub(crate) fn cover(front: &Front) -> Option<String> {
    match front.get("cover") {
        Some(toml::Value::String(s)) => return Some(s.clone()),
        Some(toml::Value::Table(t)) => {
            if let Some(s) = frontmatter::get(t, "image").and_then(toml::Value::as_str) {
                return Some(s.to_string());
            }
        }
        _ => {}
    }
    front
        .str("image")
        .or_else(|| front.str("featured_image"))
        .or_else(|| front.strings("images").into_iter().next())
        .filter(|s| !s.trim().is_empty())
}

/// The titles and descriptions a `[languages.x]` table gives per
/// language (Hugo's and Zola's; Hugo also puts the description in the
/// language's `params`).
pub(crate) fn translated(languages: Option<&toml::Value>) -> Vec<Translated> {
    let Some(table) = languages.and_then(toml::Value::as_table) else {
        return Vec::new();
    };
    let text = |t: &toml::Table, key: &str| {
        frontmatter::get(t, key)
            .and_then(frontmatter::scalar_string)
            .filter(|s| !s.trim().is_empty())
    };
    table
        .iter()
        .filter_map(|(lang, value)| {
            let t = value.as_table()?;
            let params = frontmatter::get(t, "params").and_then(toml::Value::as_table);
            let description =
                text(t, "description").or_else(|| params.and_then(|p| text(p, "description")));
            Some(Translated {
                lang: lang.clone(),
                title: text(t, "title"),
                description,
            })
        })
        .filter(|t| t.title.is_some() || t.description.is_some())
        .collect()
}

/// `title`, or one made from the file's name (reported) when it is empty.
pub(crate) fn untitled(
    title: String,
    file_slug: &str,
    place: &Place,
    warnings: &mut Vec<Diagnostic>,
) -> String {
    if !title.trim().is_empty() {
        return title;
    }
    let words = file_slug.replace(['-', '_'], " ");
    let mut made: String = words.trim().to_string();
    if let Some(first) = made.get(..1) {
        made = first.to_uppercase() + &made[1..];
    }
    if made.is_empty() {
        made = "Untitled".into();
    }
    warnings.push(
        place
            .warning(format!(
                "the post has no title; it is called “{made}” after its file"
            ))
            .with_hint("give it a better title in its front matter after the import"),
    );
    made
}

/// Year, month and day of an ISO date, or empty strings.
pub(crate) fn ymd(date: Option<&str>) -> (String, String, String) {
    match date {
        Some(d) if frontmatter::valid_day(d) => (d[..4].into(), d[5..7].into(), d[8..10].into()),
        _ => Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_suffixes() {
        let langs = vec!["en".to_string(), "pt-br".to_string()];
        assert_eq!(
            split_lang("index.pt-br", &langs),
            ("index", Some("pt-br".into()))
        );
        assert_eq!(split_lang("post.en", &langs), ("post", Some("en".into())));
        assert_eq!(split_lang("v1.2", &langs), ("v1.2", None));
    }
}
