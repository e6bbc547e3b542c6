//! A folder of Markdown files with YAML or TOML front matter, as the rest
//! of the ecosystem keeps a blog: Eleventy, Astro content collections,
//! MkDocs' blog plugin, an Obsidian vault.
//!
//! Every Markdown file below the folder is a post, but for a `README.md`
//! and the folders tools keep for themselves (`.obsidian`, `node_modules`,
//! `_site`, `_includes`…). A post's language is its front matter's `lang`
//! (or `language`, `locale`), else its file name's suffix (`post.pt.md`),
//! else the language folder it is in when the site keeps one per language
//! (`en/`, `pt-br/`); translations are the posts of one `translationKey`
//! (or `translation_key`, `lang_ref`, `ref`), else of one path once the
//! language is taken out of it. A page the site keeps out of its lists
//! (`eleventyExcludeFromCollections`, `permalink: false`) is no post.
//! Eleventy's Liquid is read as Jekyll's is;
//! Obsidian's `[[note]]` links and `![[image.png]]` embeds become Markdown.

use crate::frontmatter;
use crate::hugo::{MARKDOWN, author, untitled};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::site::{Found, Layout};
use crate::syntax::Syntax;
use crate::util;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Folders of a site's taxonomies: a file there describes a tag or an
/// author (Astro's `content/tags/`, Hugo's `content/authors/`), no post.
const TAXONOMY_FOLDERS: &[&str] = &["tags", "tag", "categories", "category", "authors", "author"];

/// Folders of the tools themselves, never posts.
const TOOL_FOLDERS: &[&str] = &[
    ".obsidian",
    ".trash",
    ".github",
    ".vscode",
    "_includes",
    "_layouts",
    "_data",
    "dist",
    "site",
    "overrides",
];

/// Reads the folder of Markdown files at `source`.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let root = util::source_folder(source, "Markdown")?;
    let mut warnings = Vec::new();
    let files = util::walk(&root, &root, &mut warnings).map_err(|e| vec![e])?;
    let posts: Vec<PathBuf> = files.into_iter().filter(|f| is_post(&root, f)).collect();
    let folders = language_folders(&root, &posts);
    let site = site(&root, options);
    let default = site
        .languages
        .first()
        .cloned()
        .unwrap_or_else(|| "en".into());
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for file in &posts {
        match read_post(&root, file, &folders, &default, options, &mut warnings) {
            Ok(Some(f)) => found.push(f),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    obsidian_links(&mut found, &mut warnings);
    for f in &mut found {
        if f.post.body.contains(":::") {
            f.post.body = directives(&f.post.body);
        }
    }
    let mut site = site;
    if site.author.is_none() {
        site.author = one_author(&found);
    }
    let mut languages: Vec<String> = site.languages.clone();
    for f in &found {
        if let Some(lang) = &f.post.lang
            && !languages.iter().any(|l| l.eq_ignore_ascii_case(lang))
        {
            languages.push(lang.clone());
        }
    }
    site.languages = languages;
    let layout = Layout {
        root: &root,
        static_dirs: ["", "public", "static", "assets", "src", "docs"]
            .iter()
            .map(|d| root.join(d))
            .filter(|d| d.is_dir())
            .collect(),
        syntax: Syntax::Jekyll,
        config: None,
        aliases: aliases(&root, options),
    };
    crate::site::finish(found, site, &layout, options, warnings)
}

/// The author every post that names one names (AstroPaper's posts say
/// `author: Sat Naing`, its settings are code): the book's author.
fn one_author(found: &[Found]) -> Option<String> {
    let authors: BTreeSet<String> = found
        .iter()
        .filter_map(|f| author(frontmatter::get(&f.front, "author")))
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .collect();
    (authors.len() == 1).then(|| authors.into_iter().next())?
}

/// The body without a "Table of contents" heading left empty for the
/// site's generator to fill (remark-toc, markdown-it-toc): the book makes
/// its own contents, and an empty section would print as a bare heading.
fn without_empty_toc(body: &str) -> String {
    let lines: Vec<&str> = body.split_inclusive('\n').collect();
    let mut out = String::with_capacity(body.len());
    let mut fence: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if let Some(open) = &fence {
            if trimmed.starts_with(open.as_str()) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_string());
            out.push_str(line);
            continue;
        }
        if let Some(rank) = toc_heading(trimmed) {
            // Empty: the next line with text is a heading of its rank or
            // above, or there is none.
            let next = lines[i + 1..]
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.is_empty());
            let empty = next.is_none_or(|n| {
                let hashes = n.chars().take_while(|c| *c == '#').count();
                hashes > 0 && hashes <= rank && n[hashes..].starts_with(' ')
            });
            if empty {
                // A blank line in its place keeps the lines' numbers.
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

/// The rank of an ATX heading that names a table of contents.
fn toc_heading(line: &str) -> Option<usize> {
    let rank = line.chars().take_while(|c| *c == '#').count();
    let text = line
        .get(rank..)?
        .strip_prefix(' ')?
        .trim()
        .trim_end_matches('#')
        .trim();
    let text = text.to_ascii_lowercase();
    ((1..=6).contains(&rank)
        && matches!(
            text.as_str(),
            "table of contents" | "table of content" | "contents" | "toc"
        ))
    .then_some(rank)
}

/// Whether `file` is a post: Markdown, outside the tools' folders, and not
/// a README.
fn is_post(root: &Path, file: &Path) -> bool {
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if !MARKDOWN.contains(&ext.as_str()) {
        return false;
    }
    let rel = file.strip_prefix(root).unwrap_or(file);
    let in_tool_folder = rel.parent().is_some_and(|p| {
        p.components().any(|c| {
            let name = c.as_os_str().to_string_lossy();
            TOOL_FOLDERS.contains(&name.as_ref()) || TAXONOMY_FOLDERS.contains(&name.as_ref())
        })
    });
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    !in_tool_folder && !stem.eq_ignore_ascii_case("readme")
}

/// Whether `name` reads as a language tag: `en`, `pt-br`, `zh-Hant`.
fn looks_like_tag(name: &str) -> bool {
    let mut parts = name.split(['-', '_']);
    let primary = parts.next().unwrap_or("");
    (2..=3).contains(&primary.len())
        && primary.chars().all(|c| c.is_ascii_lowercase())
        && parts.all(|p| (2..=4).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The folders that hold one language each: at some depth, two or more
/// sibling folders named like language tags that hold posts (`blog/en/`,
/// `blog/pt/`). One such folder alone is a folder like any other.
fn language_folders(root: &Path, posts: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut by_parent: HashMap<PathBuf, BTreeSet<PathBuf>> = HashMap::new();
    for post in posts {
        let rel = post.strip_prefix(root).unwrap_or(post);
        let mut at = PathBuf::new();
        for part in rel.parent().into_iter().flat_map(Path::components) {
            let name = part.as_os_str().to_string_lossy();
            let folder = at.join(name.as_ref());
            if looks_like_tag(&name) {
                by_parent
                    .entry(at.clone())
                    .or_default()
                    .insert(folder.clone());
            }
            at = folder;
        }
    }
    by_parent
        .into_values()
        .filter(|siblings| siblings.len() >= 2)
        .flatten()
        .collect()
}

/// The site's title, address and languages, from the tool's own settings
/// when there are any (MkDocs' `mkdocs.yml`, Eleventy's
/// `_data/metadata.json`), else the folder's name.
fn site(root: &Path, options: &ImportOptions) -> Site {
    let mut site = Site {
        title: root.file_name().map(|n| n.to_string_lossy().into_owned()),
        ..Site::default()
    };
    let configs = [
        "mkdocs.yml",
        "_data/metadata.json",
        "src/_data/metadata.json",
    ];
    for config in configs.iter().map(|c| root.join(c)).filter(|p| p.is_file()) {
        let Ok(table) = read_settings(&config, options) else {
            continue;
        };
        let text = |keys: &[&str]| {
            keys.iter()
                .find_map(|k| frontmatter::get(&table, k))
                .and_then(frontmatter::scalar_string)
        };
        site.title = text(&["site_name", "title"]).or(site.title);
        site.description = text(&["site_description", "description"]);
        site.base_url = text(&["site_url", "url"]);
        site.author = text(&["site_author"]).or_else(|| author(frontmatter::get(&table, "author")));
        if let Some(lang) = text(&["language", "lang"]) {
            site.languages = vec![util::canonical_tag(&lang)];
        }
        site.config = Some(Place::new(util::display(&config), None));
        break;
    }
    site
}

/// The import aliases of the site's tsconfig.json or jsconfig.json
/// (`"paths": {"@/*": ["./src/*"]}`, from `baseUrl`): Astro and Vite sites
/// write `![](@/assets/a.png)` for `src/assets/a.png`. Only aliases that
/// stay inside the site count.
fn aliases(root: &Path, options: &ImportOptions) -> Vec<(String, PathBuf)> {
    let Some(config) = ["tsconfig.json", "jsconfig.json"]
        .iter()
        .map(|c| root.join(c))
        .find(|p| p.is_file())
    else {
        return Vec::new();
    };
    // A settings file that is not plain JSON (comments, trailing commas)
    // gives no aliases rather than a warning: the site's code is not ours.
    let Ok(table) = read_settings(&config, options) else {
        return Vec::new();
    };
    let Some(compiler) = frontmatter::get(&table, "compilerOptions").and_then(|v| v.as_table())
    else {
        return Vec::new();
    };
    let base = compiler
        .get("baseUrl")
        .and_then(|v| v.as_str())
        .unwrap_or(".");
    let Some(paths) = compiler.get("paths").and_then(|v| v.as_table()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (alias, targets) in paths {
        let first = targets
            .as_array()
            .and_then(|t| t.first())
            .and_then(|t| t.as_str());
        let (Some(prefix), Some(target)) = (
            alias.strip_suffix('*'),
            first.and_then(|t| t.strip_suffix('*')),
        ) else {
            continue;
        };
        let folder = root.join(base).join(target);
        if prefix.is_empty() || crate::util::inside(root, &folder).is_none() {
            continue;
        }
        out.push((prefix.to_string(), folder));
    }
    // The longest alias first: `@/components/` before `@/`.
    out.sort_by_key(|(prefix, _)| std::cmp::Reverse(prefix.len()));
    out
}

/// A settings file: YAML (MkDocs) or JSON (Eleventy's data), as a table.
fn read_settings(path: &Path, options: &ImportOptions) -> Result<toml::Table, Diagnostic> {
    if path.extension().is_some_and(|e| e == "json") {
        let text = util::read_text(path, options.max_file_size)?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            Diagnostic::warning(format!("not JSON: {e}")).in_file(util::display(path))
        })?;
        return match frontmatter::json_to_toml(value, 0) {
            Some(toml::Value::Table(table)) => Ok(table),
            _ => Err(Diagnostic::warning("not a JSON object").in_file(util::display(path))),
        };
    }
    frontmatter::read_config(path, options.max_file_size)
}

fn read_post(
    root: &Path,
    file: &Path,
    folders: &BTreeSet<PathBuf>,
    default: &str,
    options: &ImportOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Option<Found>, Diagnostic> {
    let shown = util::display(file);
    let text = util::read_text(file, util::post_limit(options))?;
    let mut front = frontmatter::split(&text, &shown)?;
    warnings.append(&mut front.warnings);
    // A page the site keeps out of its lists (Eleventy's 404 page, a page
    // with no address of its own) is no post.
    if front.bool("eleventyExcludeFromCollections") == Some(true)
        || front.bool("permalink") == Some(false)
    {
        return Ok(None);
    }
    let rel = file.strip_prefix(root).unwrap_or(file);
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    // `post.pt.md`: a language suffix.
    let (base, suffix) = match stem.rsplit_once('.') {
        Some((base, tag)) if looks_like_tag(&tag.to_ascii_lowercase()) => (base, Some(tag)),
        _ => (stem, None),
    };
    let folder = rel.ancestors().find(|a| folders.contains(*a));
    let folder_lang = folder
        .and_then(|f| f.file_name())
        .map(|n| n.to_string_lossy());
    let lang = front
        .str("lang")
        .or_else(|| front.str("language"))
        .or_else(|| front.str("locale"))
        .or_else(|| suffix.map(str::to_string))
        .or_else(|| folder_lang.map(|l| l.into_owned()))
        .map_or_else(|| default.to_string(), |l| util::canonical_tag(&l));
    // The path without its language: what pairs the translations.
    let mut path: Vec<String> = rel
        .parent()
        .into_iter()
        .flat_map(Path::components)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(folder) = folder {
        let depth = folder.components().count() - 1;
        path.remove(depth);
    }
    let (name_date, name) = match base.get(..11) {
        Some(d) if frontmatter::valid_day(d) && d.ends_with('-') => {
            (Some(d[..10].to_string()), &base[11..])
        }
        _ => (None, base),
    };
    let is_index = name.eq_ignore_ascii_case("index") && !path.is_empty();
    let name = if is_index {
        path.pop().unwrap_or_default()
    } else {
        name.to_string()
    };
    path.push(name.clone());
    let key_path = path.join("/");
    let slug = front.str("slug").unwrap_or_else(|| util::post_slug(&name));
    let place = Place::new(&shown, Some(1));
    let mut body = front.body.clone();
    let mut title = front.str("title").unwrap_or_default();
    if title.trim().is_empty()
        && let Some((heading, rest)) = first_heading(&body)
    {
        // The heading is the title: the book prints it once, as a title.
        title = heading;
        body = rest;
    }
    let taken = front.body[..front.body.len() - body.len()]
        .matches('\n')
        .count();
    let body = without_empty_toc(&body);
    let title = untitled(title, &name, &place, warnings);
    let date = front
        .first_date(
            &[
                "date",
                "pubDate",
                "pubDatetime",
                "publishDate",
                "published",
                "created",
            ],
            &shown,
            warnings,
        )
        .or(name_date);
    let status = if front.bool("draft") == Some(true) || front.bool("published") == Some(false) {
        Status::Draft
    } else {
        Status::Published
    };
    let key = front
        .str("translationKey")
        .or_else(|| front.str("translation_key"))
        .or_else(|| front.str("lang_ref"))
        .or_else(|| front.str("ref"))
        .map_or_else(|| format!("path:{key_path}"), |k| format!("key:{k}"));
    let own = rel.with_extension("").to_string_lossy().replace('\\', "/");
    let own = own.strip_suffix("/index").unwrap_or(&own).to_string();
    let mut urls = vec![format!("/{own}/")];
    urls.extend(front.str("permalink").filter(|p| p.starts_with('/')));
    urls.extend(front.strings("aliases"));
    urls.extend(front.strings("redirect_from"));
    let cover = crate::hugo::cover(&front).or_else(|| front.str("heroImage"));
    Ok(Some(Found {
        post: Post {
            slug,
            lang: Some(lang),
            title,
            date,
            status,
            tags: front.strings("tags"),
            categories: front.strings("categories"),
            description: front
                .str("description")
                .or_else(|| front.str("summary"))
                .or_else(|| front.str("excerpt")),
            translation_key: Some(key),
            body,
            images: Vec::new(),
            urls,
            source: place,
        },
        // Lines taken out with a heading that became the title.
        body_place: Place::new(&shown, Some(front.body_line + taken)),
        dir: file.parent().map(Path::to_path_buf).unwrap_or_default(),
        names: vec![stem.to_string(), name, own.clone(), format!("{own}.md")],
        cover,
        translations: crate::site::named(&front),
        front: front.table.clone(),
    }))
}

/// The text of the body's first `# heading` when the body opens with it
/// (the title of a note that has none in its front matter: Obsidian's,
/// MkDocs'), and the body without it.
fn first_heading(body: &str) -> Option<(String, String)> {
    let start = body.trim_start_matches(['\n', '\r', ' ']);
    let line = start.lines().next()?;
    let title = line.strip_prefix("# ")?.trim().to_string();
    let rest = start[line.len()..]
        .trim_start_matches(['\r', '\n'])
        .to_string();
    (!title.is_empty()).then_some((title, rest))
}

/// Obsidian's links by note name: `[[note]]`, `[[note|words]]` and
/// `[[note#part]]` become links to the note's address, `![[image.png]]`
/// an image; a name that is no note keeps its words, with a warning.
fn obsidian_links(found: &mut [Found], warnings: &mut Vec<Diagnostic>) {
    let mut by_name: HashMap<String, String> = HashMap::new();
    for f in found.iter() {
        for name in &f.names {
            by_name
                .entry(name.to_lowercase())
                .or_insert_with(|| f.post.urls[0].clone());
        }
    }
    for f in found.iter_mut() {
        if f.post.body.contains("[[") {
            let mut missing = Vec::new();
            f.post.body = wikilinks(&f.post.body, &by_name, &mut missing);
            for note in missing {
                warnings.push(
                    f.body_place
                        .warning(format!(
                            "the link [[{note}]] names no note of the folder; its words are kept"
                        ))
                        .with_hint("correct the note's name, or import the note it names"),
                );
            }
        }
    }
}

/// `body` with its `[[…]]` links and `![[…]]` embeds written as Markdown.
/// The names that are no note go into `missing`.
fn wikilinks(body: &str, by_name: &HashMap<String, String>, missing: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find("[[") {
        let Some(len) = rest[at + 2..].find("]]") else {
            break;
        };
        let inner = &rest[at + 2..at + 2 + len];
        if inner.contains('\n') || inner.contains("[[") {
            out.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
            continue;
        }
        let embed = at > 0 && rest.as_bytes()[at - 1] == b'!';
        out.push_str(&rest[..if embed { at - 1 } else { at }]);
        let (target, words) = inner.split_once('|').unwrap_or((inner, ""));
        let (note, part) = target.split_once('#').unwrap_or((target, ""));
        let note = note.trim();
        if embed {
            out.push_str(&format!("![{}]({})", words.trim(), util::destination(note)));
        } else {
            let shown = if words.trim().is_empty() {
                target.trim()
            } else {
                words.trim()
            };
            match by_name.get(&note.to_lowercase()) {
                Some(url) => {
                    let anchor = if part.is_empty() {
                        String::new()
                    } else {
                        format!("#{}", stoa_markdown::slugify(part))
                    };
                    out.push_str(&format!(
                        "[{}]({url}{anchor})",
                        util::escape_brackets(shown)
                    ));
                }
                None => {
                    missing.push(note.to_string());
                    out.push_str(shown);
                }
            }
        }
        rest = &rest[at + 2 + len + 2..];
    }
    out.push_str(rest);
    out
}

/// Admonitions written as container directives (`:::note` … `:::`, as
/// Docusaurus, VitePress and Astro themes write them, with a title as
/// `:::tip[Title]` or `:::tip Title`): a quoted block led by its kind, as
/// the other imports give admonitions. Code blocks are left alone.
fn directives(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut fence: Option<&str> = None;
    let mut depth = 0usize;
    let quoted = |depth: usize, line: &str, out: &mut String| {
        for _ in 0..depth {
            out.push('>');
            if !line.trim().is_empty() {
                out.push(' ');
            }
        }
        out.push_str(line);
    };
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(mark) = fence {
            if trimmed.starts_with(mark) {
                fence = None;
            }
            quoted(depth, line, &mut out);
            continue;
        }
        if let Some(mark) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            fence = Some(mark);
            quoted(depth, line, &mut out);
            continue;
        }
        let Some(rest) = trimmed.strip_prefix(":::") else {
            quoted(depth, line, &mut out);
            continue;
        };
        let rest = rest.trim_start_matches(':').trim();
        if rest.is_empty() {
            if depth > 0 {
                depth -= 1;
                continue;
            }
            quoted(depth, line, &mut out);
            continue;
        }
        let (kind, title) = match rest.split_once(['[', ' ']) {
            Some((kind, title)) => (kind, title.trim_end_matches(']').trim()),
            None => (rest, ""),
        };
        let mut lead: String = kind.chars().take(1).flat_map(char::to_uppercase).collect();
        lead.push_str(kind.get(1..).unwrap_or(""));
        if !title.is_empty() {
            lead = format!("{lead}: {title}");
        }
        quoted(depth + 1, &format!("**{lead}**\n"), &mut out);
        quoted(depth + 1, "\n", &mut out);
        depth += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_told_from_folder_names() {
        for tag in ["en", "pt", "pt-br", "zh-hant", "es_ar"] {
            assert!(looks_like_tag(tag), "{tag}");
        }
        for name in ["posts", "blog", "2024", "e", "images"] {
            assert!(!looks_like_tag(name), "{name}");
        }
    }

    #[test]
    fn an_empty_table_of_contents_heading_goes() {
        // AstroPaper's posts: remark-toc fills the section on the site.
        let body = "Intro.\n\n## Table of contents\n\n## Features\n\nText.\n";
        assert_eq!(
            without_empty_toc(body),
            "Intro.\n\n\n\n## Features\n\nText.\n"
        );
        // One the author filled, one at the end, one in code.
        let kept = "## Contents\n\n- [A](#a)\n\n## A\n";
        assert_eq!(without_empty_toc(kept), kept);
        assert_eq!(without_empty_toc("Text.\n\n### TOC\n"), "Text.\n\n\n");
        let code = "```md\n## Table of contents\n\n## A\n```\n";
        assert_eq!(without_empty_toc(code), code);
        // A subsection under it is its content.
        let nested = "## Table of contents\n\n### Part\n";
        assert_eq!(without_empty_toc(nested), nested);
    }

    #[test]
    fn directives_become_quoted_admonitions() {
        let body = "Before.\n\n:::note\nTake this into account.\n:::\n\n:::tip[Fast]\nA tip.\n\n```md\n:::note\n```\n:::\n";
        assert_eq!(
            directives(body),
            "Before.\n\n> **Note**\n>\n> Take this into account.\n\n> **Tip: Fast**\n>\n> A tip.\n>\n> ```md\n> :::note\n> ```\n"
        );
    }

    #[test]
    fn obsidian_links_become_markdown() {
        let mut by_name = HashMap::new();
        by_name.insert("on anger".to_string(), "/notes/on-anger/".to_string());
        let body = "See [[On Anger]], [[On Anger|the essay]], [[On Anger#First Part]] and [[Missing]].\n![[figure.png]]\n";
        let mut missing = Vec::new();
        assert_eq!(
            wikilinks(body, &by_name, &mut missing),
            "See [On Anger](/notes/on-anger/), [the essay](/notes/on-anger/), \
             [On Anger#First Part](/notes/on-anger/#first-part) and Missing.\n![](figure.png)\n"
        );
        assert_eq!(missing, ["Missing"]);
    }
}
