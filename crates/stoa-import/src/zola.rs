//! A Zola site folder: `config.toml` (`base_url`, `default_language`,
//! `[languages.<code>]`), `content/` with its sections (`_index.md`) and
//! pages (`post.md`, or `post/index.md` with its assets), `static/`.
//!
//! A page's language is its name's suffix (`post.fr.md`, `index.fr.md`)
//! when that is one of the site's languages, else `default_language`.
//! Translations are the pages of one path, the suffix taken away.

use crate::frontmatter;
use crate::hugo::{MARKDOWN, split_lang, translated, untitled};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::site::{Found, Layout};
use crate::syntax::Syntax;
use crate::util;
use std::path::{Path, PathBuf};

/// Reads the Zola site at `source`.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let root = util::source_folder(source, "Zola")?;
    let config_path = ["config.toml", "zola.toml"]
        .iter()
        .map(|c| root.join(c))
        .find(|p| p.is_file());
    let Some(config_path) = config_path else {
        return Err(vec![
            Diagnostic::error("this folder has no Zola configuration (config.toml)")
                .in_file(util::display(&root))
                .with_hint(
                    "give the Zola site's own folder, the one that holds config.toml and content/",
                ),
        ]);
    };
    let config =
        frontmatter::read_config(&config_path, options.max_file_size).map_err(|e| vec![e])?;
    let string = |key: &str| frontmatter::get(&config, key).and_then(frontmatter::scalar_string);
    let default = string("default_language").unwrap_or_else(|| "en".into());
    let mut languages = vec![default.clone()];
    match frontmatter::get(&config, "languages") {
        Some(toml::Value::Table(table)) => languages.extend(table.keys().cloned()),
        // Zola before 0.15: `languages = [{ code = "fr" }]`.
        Some(toml::Value::Array(items)) => languages.extend(
            items
                .iter()
                .filter_map(|i| {
                    i.as_table()
                        .and_then(|t| t.get("code"))
                        .and_then(toml::Value::as_str)
                })
                .map(str::to_string),
        ),
        _ => {}
    }
    languages.dedup();
    let extra = frontmatter::get(&config, "extra").and_then(toml::Value::as_table);
    let author = string("author")
        .or_else(|| crate::hugo::author(extra.and_then(|e| frontmatter::get(e, "author"))));
    let site = Site {
        title: string("title"),
        description: string("description"),
        translated: translated(frontmatter::get(&config, "languages")),
        author,
        languages: languages.clone(),
        base_url: string("base_url"),
        config: Some(Place::new(util::display(&config_path), None)),
    };
    let content = root.join("content");
    let mut warnings = Vec::new();
    if !content.is_dir() {
        return Err(vec![
            Diagnostic::error("the site has no content folder")
                .in_file(util::display(&root))
                .with_hint("Zola's pages are in content/; give the site's own folder"),
        ]);
    }
    let files = util::walk(&root, &content, &mut warnings).map_err(|e| vec![e])?;
    let bundles: Vec<PathBuf> = files
        .iter()
        .filter(|f| {
            let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            f.extension().and_then(|e| e.to_str()) == Some("md")
                && split_lang(stem, &languages).0 == "index"
        })
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .collect();
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for file in &files {
        let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !MARKDOWN.contains(&ext) {
            continue;
        }
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let (base, lang) = split_lang(stem, &languages);
        if base == "_index" {
            continue;
        }
        let is_index = base == "index";
        if !is_index && bundles.iter().any(|b| file.starts_with(b)) {
            continue;
        }
        let cx = PostCx {
            file,
            content: &content,
            base,
            lang: lang.unwrap_or_else(|| default.clone()),
            default: &default,
            is_index,
            options,
        };
        match read_post(&cx, &mut warnings) {
            Ok(f) => found.push(f),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let layout = Layout {
        root: &root,
        static_dirs: vec![root.join("static")],
        syntax: Syntax::Zola,
        config: None,
        aliases: Vec::new(),
    };
    crate::site::finish(found, site, &layout, options, warnings)
}

struct PostCx<'a> {
    file: &'a Path,
    content: &'a Path,
    base: &'a str,
    lang: String,
    default: &'a str,
    is_index: bool,
    options: &'a ImportOptions,
}

fn read_post(cx: &PostCx<'_>, warnings: &mut Vec<Diagnostic>) -> Result<Found, Diagnostic> {
    let shown = util::display(cx.file);
    let text = util::read_text(cx.file, util::post_limit(cx.options))?;
    let mut front = frontmatter::split(&text, &shown)?;
    warnings.append(&mut front.warnings);
    let parent = cx.file.parent().unwrap_or(cx.content);
    let rel_dir = parent.strip_prefix(cx.content).unwrap_or(Path::new(""));
    let rel = if cx.is_index {
        rel_dir.to_path_buf()
    } else {
        rel_dir.join(cx.base)
    };
    let rel = rel.to_string_lossy().replace('\\', "/");
    let name = rel.rsplit('/').next().unwrap_or(cx.base).to_string();
    // `2024-05-31-title.md` (or `_title`) gives the date and the slug.
    let (name_date, name_slug) = if name.len() > 11
        && frontmatter::valid_day(&name)
        && matches!(name.as_bytes()[10], b'-' | b'_')
    {
        (Some(name[..10].to_string()), name[11..].to_string())
    } else {
        (None, name.clone())
    };
    let place = Place::new(&shown, Some(1));
    let slug = front.str("slug").unwrap_or_else(|| name_slug.clone());
    let title = untitled(
        front.str("title").unwrap_or_default(),
        &name_slug,
        &place,
        warnings,
    );
    let date = front.first_date(&["date"], &shown, warnings).or(name_date);
    let status = if front.bool("draft") == Some(true) {
        Status::Draft
    } else {
        Status::Published
    };
    let taxonomies = front.get("taxonomies").and_then(toml::Value::as_table);
    let list = |key: &str| {
        taxonomies
            .and_then(|t| t.get(key))
            .map(frontmatter::strings)
            .unwrap_or_default()
    };
    let mut tags = list("tags");
    tags.extend(front.strings("tags"));
    let mut categories = list("categories");
    categories.extend(front.strings("categories"));
    let prefix = if cx.lang == cx.default {
        String::new()
    } else {
        format!("/{}", cx.lang)
    };
    let section = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let path = match front.str("path") {
        Some(p) => format!("/{}/", p.trim_matches('/')),
        None if section.is_empty() => format!("/{}/", util::post_slug(&slug)),
        None => format!("/{section}/{}/", util::post_slug(&slug)),
    };
    let mut urls = vec![format!("{prefix}{path}")];
    if !prefix.is_empty() {
        urls.push(path);
    }
    urls.extend(front.strings("aliases"));
    let from_content = cx
        .file
        .strip_prefix(cx.content)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    // `@/blog/post.md` names the default language's file; a translation's
    // link names its own (`@/blog/post.fr.md`), which is that path too.
    let names = vec![rel.clone(), from_content, format!("{rel}.md"), slug.clone()];
    let mut description = front.str("description");
    if description.is_none() {
        description = front.str("summary");
    }
    Ok(Found {
        post: Post {
            slug,
            lang: Some(cx.lang.clone()),
            title,
            date,
            status,
            tags,
            categories,
            description,
            translation_key: Some(format!("path:{rel}")),
            body: front.body.clone(),
            images: Vec::new(),
            urls,
            source: place,
        },
        body_place: Place::new(&shown, Some(front.body_line)),
        dir: parent.to_path_buf(),
        names,
        cover: crate::hugo::cover(&front),
        translations: crate::site::named(&front),
        front: front.table.clone(),
    })
}
