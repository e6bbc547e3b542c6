//! A Jekyll site folder: `_config.yml`, `_posts/YYYY-MM-DD-title.md`
//! (also `<category>/_posts/`), `_drafts/`, files served from the site's
//! root (`/assets/…`).
//!
//! Languages follow jekyll-polyglot: `languages` and `default_lang` in
//! `_config.yml`, a post's language in its `lang:`; without them the
//! site's `lang`. Translations are the posts of one `lang_ref` (or `ref`,
//! `translation_key`), else of one `permalink`, else of one slug (the file
//! name without its date).

use crate::frontmatter;
use crate::hugo::{MARKDOWN, author, untitled, ymd};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::site::{Found, Layout};
use crate::syntax::Syntax;
use crate::util;
use std::path::{Path, PathBuf};

/// Reads the Jekyll site at `source`.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let root = util::source_folder(source, "Jekyll")?;
    let config_path = ["_config.yml", "_config.yaml", "_config.toml"]
        .iter()
        .map(|c| root.join(c))
        .find(|p| p.is_file());
    let Some(config_path) = config_path else {
        return Err(vec![
            Diagnostic::error("this folder has no Jekyll configuration (_config.yml)")
                .in_file(util::display(&root))
                .with_hint(
                    "give the Jekyll site's own folder, the one that holds _config.yml and _posts/",
                ),
        ]);
    };
    let config =
        frontmatter::read_config(&config_path, options.max_file_size).map_err(|e| vec![e])?;
    let string = |key: &str| frontmatter::get(&config, key).and_then(frontmatter::scalar_string);
    let mut languages: Vec<String> = frontmatter::get(&config, "languages")
        .map(frontmatter::strings)
        .unwrap_or_default();
    let default = string("default_lang")
        .or_else(|| string("lang"))
        .or_else(|| string("locale"))
        .or_else(|| languages.first().cloned())
        .unwrap_or_else(|| "en".into());
    languages.retain(|l| !l.eq_ignore_ascii_case(&default));
    languages.insert(0, default.clone());
    let base_url = match (string("url"), string("baseurl")) {
        (Some(url), Some(base)) => Some(format!(
            "{}/{}",
            url.trim_end_matches('/'),
            base.trim_matches('/')
        )),
        (Some(url), None) => Some(url),
        _ => None,
    };
    let baseurl_path = string("baseurl").unwrap_or_default();
    let site = Site {
        translated: Vec::new(),
        title: string("title"),
        description: string("description").or_else(|| string("tagline")),
        author: author(frontmatter::get(&config, "author")),
        languages: languages.clone(),
        base_url,
        config: Some(Place::new(util::display(&config_path), None)),
    };
    let style = string("permalink").unwrap_or_else(|| "date".into());
    let pattern = match style.as_str() {
        "date" => "/:categories/:year/:month/:day/:title:output_ext".to_string(),
        "pretty" => "/:categories/:year/:month/:day/:title/".to_string(),
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext".to_string(),
        "weekdate" => "/:categories/:year/W:week/:short_day/:title:output_ext".to_string(),
        "none" => "/:categories/:title:output_ext".to_string(),
        other => other.to_string(),
    };
    let mut warnings = Vec::new();
    let files = util::walk(&root, &root, &mut warnings).map_err(|e| vec![e])?;
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap_or(file);
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let Some(at) = parts.iter().position(|p| p == "_posts" || p == "_drafts") else {
            continue;
        };
        let draft_folder = parts[at] == "_drafts";
        let ext = file
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if !MARKDOWN.contains(&ext.as_str()) {
            if matches!(ext.as_str(), "html" | "htm" | "textile") {
                warnings.push(
                    Diagnostic::warning(format!("a post in `{ext}` is not Markdown; left out"))
                        .in_file(util::display(file))
                        .with_hint("convert it to Markdown to import it"),
                );
            }
            continue;
        }
        let folder_categories: Vec<String> = parts[..at].to_vec();
        let cx = PostCx {
            file,
            rel,
            draft_folder,
            folder_categories,
            default: &default,
            pattern: &pattern,
            baseurl: &baseurl_path,
            options,
        };
        match read_post(&cx, &mut warnings) {
            Ok(Some(f)) => found.push(f),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if found.is_empty() && !root.join("_posts").is_dir() {
        warnings.push(
            Diagnostic::warning("the site has no _posts folder")
                .in_file(util::display(&root))
                .with_hint("Jekyll's posts are in _posts/YYYY-MM-DD-title.md"),
        );
    }
    let layout = Layout {
        root: &root,
        static_dirs: vec![root.clone()],
        syntax: Syntax::Jekyll,
        config: Some(&config),
        aliases: Vec::new(),
    };
    crate::site::finish(found, site, &layout, options, warnings)
}

struct PostCx<'a> {
    file: &'a PathBuf,
    rel: &'a Path,
    draft_folder: bool,
    folder_categories: Vec<String>,
    default: &'a str,
    pattern: &'a str,
    baseurl: &'a str,
    options: &'a ImportOptions,
}

/// `2024-05-31-title` as the date and the title part. Jekyll reads the
/// month and the day in one digit too (`2015-9-19-title`), as here; the
/// date is given back whole (`2015-09-19`).
fn dated_name(stem: &str) -> Option<(String, String)> {
    let mut parts = stem.splitn(4, '-');
    let (year, month, day, title) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str, lens: std::ops::RangeInclusive<usize>| {
        lens.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if !(digits(year, 4..=4) && digits(month, 1..=2) && digits(day, 1..=2)) || title.is_empty() {
        return None;
    }
    let date = format!("{year}-{month:0>2}-{day:0>2}");
    frontmatter::valid_day(&date).then(|| (date, title.to_string()))
}

fn read_post(cx: &PostCx<'_>, warnings: &mut Vec<Diagnostic>) -> Result<Option<Found>, Diagnostic> {
    let shown = util::display(cx.file);
    let stem = cx
        .file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .to_string();
    let (name_date, name_slug) = match dated_name(&stem) {
        Some((d, s)) => (Some(d), s),
        None if cx.draft_folder => (None, stem.clone()),
        None => {
            warnings.push(
                Diagnostic::warning("a file in _posts without a date in its name (YYYY-MM-DD-title.md): Jekyll ignores it, and so does the import")
                    .in_file(&shown)
                    .with_hint("rename it 2024-05-31-title.md to import it"),
            );
            return Ok(None);
        }
    };
    let text = util::read_text(cx.file, util::post_limit(cx.options))?;
    let mut front = frontmatter::split(&text, &shown)?;
    warnings.append(&mut front.warnings);
    let place = Place::new(&shown, Some(1));
    let slug = front.str("slug").unwrap_or_else(|| name_slug.clone());
    let title = untitled(
        front.str("title").unwrap_or_default(),
        &name_slug,
        &place,
        warnings,
    );
    let date = front.first_date(&["date"], &shown, warnings).or(name_date);
    let status = if cx.draft_folder
        || front.bool("published") == Some(false)
        || front.bool("draft") == Some(true)
    {
        Status::Draft
    } else {
        Status::Published
    };
    let lang = front.str("lang").unwrap_or_else(|| cx.default.to_string());
    let mut categories = cx.folder_categories.clone();
    for c in front
        .strings("categories")
        .into_iter()
        .chain(front.strings("category"))
    {
        if !categories.contains(&c) {
            categories.push(c);
        }
    }
    let prefix = if lang.eq_ignore_ascii_case(cx.default) {
        String::new()
    } else {
        format!("/{lang}")
    };
    let mut urls = Vec::new();
    let (y, m, d) = ymd(date.as_deref());
    let path = match front.str("permalink") {
        Some(p) => crate::site::permalink(
            &p,
            &[
                ("title", util::post_slug(&slug)),
                ("year", y.clone()),
                ("month", m.clone()),
                ("day", d.clone()),
            ],
        ),
        None => crate::site::permalink(
            cx.pattern,
            &[
                (
                    "categories",
                    categories
                        .iter()
                        .map(|c| util::post_slug(c))
                        .collect::<Vec<_>>()
                        .join("/"),
                ),
                ("year", y.clone()),
                ("month", m.clone()),
                ("i_month", m.trim_start_matches('0').to_string()),
                ("day", d.clone()),
                ("i_day", d.trim_start_matches('0').to_string()),
                ("short_year", y.get(2..).unwrap_or("").to_string()),
                ("title", slug.clone()),
                ("slug", util::post_slug(&slug)),
                ("output_ext", ".html".into()),
            ],
        ),
    };
    let base = cx.baseurl.trim_matches('/');
    urls.push(format!("{prefix}{path}"));
    if !base.is_empty() {
        urls.push(format!("/{base}{prefix}{path}"));
    }
    if !prefix.is_empty() {
        urls.push(path.clone());
    }
    urls.extend(front.strings("redirect_from"));
    let key = front
        .str("lang_ref")
        .or_else(|| front.str("lang-ref"))
        .or_else(|| front.str("ref"))
        .or_else(|| front.str("translation_key"))
        // jekyll-polyglot 1.7: one page_id across a post's languages.
        .or_else(|| front.str("page_id"))
        .map(|k| format!("ref:{k}"))
        .or_else(|| {
            front
                .str("permalink")
                .map(|p| format!("permalink:{}", p.trim_matches('/')))
        })
        .unwrap_or_else(|| format!("slug:{name_slug}"));
    let rel = cx.rel.to_string_lossy().replace('\\', "/");
    let names = vec![
        stem.clone(),
        rel.clone(),
        format!("/{rel}"),
        name_slug,
        slug.clone(),
    ];
    Ok(Some(Found {
        post: Post {
            slug,
            lang: Some(lang),
            title,
            date,
            status,
            tags: front.strings("tags"),
            categories,
            description: front
                .str("description")
                .or_else(|| front.str("excerpt"))
                .or_else(|| front.str("summary")),
            translation_key: Some(key),
            body: front.body.clone(),
            images: Vec::new(),
            urls,
            source: place,
        },
        body_place: Place::new(&shown, Some(front.body_line)),
        dir: cx.file.parent().map(Path::to_path_buf).unwrap_or_default(),
        names,
        cover: crate::hugo::cover(&front),
        translations: crate::site::named(&front),
        front: front.table.clone(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dated_names() {
        assert_eq!(
            dated_name("2024-05-31-hello-world"),
            Some(("2024-05-31".into(), "hello-world".into()))
        );
        assert_eq!(dated_name("hello"), None);
        assert_eq!(dated_name("2024-05-31"), None);
        assert_eq!(
            dated_name("2015-9-19-presenting-polyglot"),
            Some(("2015-09-19".into(), "presenting-polyglot".into()))
        );
        assert_eq!(dated_name("2015-13-40-nonsense"), None);
    }
}
