//! What the three site-folder readers (Hugo, Jekyll, Zola) share once each
//! has found its posts: drafts left out, shortcodes or Liquid converted,
//! references between posts resolved, images found inside the site.

use crate::address::{Base, normalize};
use crate::model::{
    Diagnostic, Image, ImageData, ImportOptions, Imported, Place, Post, Site, Status,
};
use crate::syntax::{Context, Syntax};
use crate::util::{Rewrite, Target};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// One content file, read, before its body is converted.
pub(crate) struct Found {
    /// The post, its body still in the tool's syntax.
    pub post: Post,
    /// Where the body starts.
    pub body_place: Place,
    /// The folder relative images are looked for in first.
    pub dir: PathBuf,
    /// The names a `ref`, `post_url`, `link` or `@/` link may give it.
    pub names: Vec<String>,
    /// A cover image (`cover`, `image` of the front matter), shown first.
    pub cover: Option<String>,
    /// The other-language versions the post names (see [`named`]).
    pub translations: Named,
    /// Its front matter, for `{{ page.x }}`.
    pub front: toml::Table,
}

/// The other-language versions a post names in its front matter, by their
/// addresses on the site, and the line that names them.
#[derive(Debug, Default)]
pub(crate) struct Named {
    pub line: usize,
    pub addresses: Vec<String>,
}

/// The translations a post's front matter names: a `translations:` list of
/// `{lang, url}` (or of addresses), or a map of language to address.
pub(crate) fn named(front: &crate::frontmatter::Front) -> Named {
    const KEYS: [&str; 5] = ["url", "link", "href", "path", "permalink"];
    let Some(value) = front.get("translations") else {
        return Named::default();
    };
    let address = |item: &toml::Value| -> Option<String> {
        match item {
            toml::Value::String(s) => Some(s.clone()),
            toml::Value::Table(t) => KEYS
                .iter()
                .find_map(|k| crate::frontmatter::get(t, k))
                .and_then(crate::frontmatter::scalar_string),
            _ => None,
        }
    };
    let addresses: Vec<String> = match value {
        toml::Value::Array(items) => items.iter().filter_map(address).collect(),
        toml::Value::Table(by_lang) => by_lang.values().filter_map(address).collect(),
        other => address(other).into_iter().collect(),
    };
    Named {
        line: front.line("translations"),
        addresses: addresses
            .into_iter()
            .filter(|a| !a.trim().is_empty())
            .collect(),
    }
}

/// Pairs the posts that name each other's addresses as translations
/// (through the site's permalinks, `base_url` and aliases): every post of
/// one pairing takes one translation key. An address that is no imported
/// post is a warning at the line that names it.
fn pair_named(kept: &mut [Found], base_url: Option<&str>, warnings: &mut Vec<Diagnostic>) {
    if kept.iter().all(|f| f.translations.addresses.is_empty()) {
        return;
    }
    let base = base_url.map(Base::parse);
    let mut at: HashMap<String, usize> = HashMap::new();
    for (i, f) in kept.iter().enumerate() {
        for url in &f.post.urls {
            if let Some(path) = normalize(url, base.as_ref(), None) {
                at.entry(path).or_insert(i);
            }
        }
    }
    let mut parent: Vec<usize> = (0..kept.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let join = |parent: &mut Vec<usize>, a: usize, b: usize| {
        let (a, b) = (root(parent, a), root(parent, b));
        // The earlier post leads: its key is the pairing's.
        parent[a.max(b)] = a.min(b);
    };
    // Posts that share a key already are one.
    let mut first: HashMap<String, usize> = HashMap::new();
    for (i, f) in kept.iter().enumerate() {
        if let Some(key) = &f.post.translation_key {
            let j = *first.entry(key.clone()).or_insert(i);
            join(&mut parent, i, j);
        }
    }
    for (i, f) in kept.iter().enumerate() {
        let own = f.post.urls.first().map(String::as_str);
        for address in &f.translations.addresses {
            let found = normalize(address, base.as_ref(), own).and_then(|p| at.get(&p));
            match found {
                Some(&j) => join(&mut parent, i, j),
                None => warnings.push(
                    Place::new(&f.post.source.file, Some(f.translations.line))
                        .warning(format!(
                            "the post names `{}` as its translation, which is none of the posts imported; it stays unpaired",
                            address.trim()
                        ))
                        .with_hint("correct the address in its `translations` list, or import with --drafts if that post is a draft"),
                ),
            }
        }
    }
    let keys: Vec<Option<String>> = (0..kept.len())
        .map(|i| {
            let r = root(&mut parent, i);
            kept[r].post.translation_key.clone()
        })
        .collect();
    for (f, key) in kept.iter_mut().zip(keys) {
        f.post.translation_key = key;
    }
}

/// A site, its root and where its files for `/…` addresses are.
pub(crate) struct Layout<'a> {
    /// The site's folder (canonical).
    pub root: &'a Path,
    /// Folders whose files the site serves from its root (`static/`, the
    /// site's folder itself for Jekyll).
    pub static_dirs: Vec<PathBuf>,
    /// The tool.
    pub syntax: Syntax,
    /// The site's configuration, for `{{ site.x }}` (Jekyll's).
    pub config: Option<&'a toml::Table>,
    /// Import aliases an image path may start with, and the folder each
    /// stands for: Vite's and TypeScript's `@/` for `src/` (the paths of a
    /// tsconfig.json).
    pub aliases: Vec<(String, PathBuf)>,
}

/// The text of the value at the dotted `path` (`author.name`) of `table`,
/// when it is a plain value.
fn value_at(table: &toml::Table, path: &str) -> Option<String> {
    let mut parts = path.split('.');
    let mut value = crate::frontmatter::get(table, parts.next()?)?;
    for part in parts {
        value = crate::frontmatter::get(value.as_table()?, part)?;
    }
    crate::frontmatter::scalar_string(value)
}

/// A name as references write it: no leading `/` or `./`, no extension,
/// no trailing `/`, lowercase.
pub(crate) fn ref_name(name: &str) -> String {
    let mut n = name
        .trim()
        .trim_start_matches("./")
        .trim_start_matches('/')
        .to_string();
    for ext in [".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".html"] {
        if let Some(stripped) = n.strip_suffix(ext) {
            n = stripped.to_string();
            break;
        }
    }
    let n = n.trim_end_matches('/');
    let n = n.strip_suffix("/index").unwrap_or(n);
    n.to_lowercase()
}

/// Converts and checks every post found.
pub(crate) fn finish(
    found: Vec<Found>,
    site: Site,
    layout: &Layout<'_>,
    options: &ImportOptions,
    mut warnings: Vec<Diagnostic>,
) -> Result<Imported, Vec<Diagnostic>> {
    let total = found.len();
    let (kept, drafts): (Vec<Found>, Vec<Found>) = found
        .into_iter()
        .partition(|f| options.drafts || f.post.status == Status::Published);
    if !drafts.is_empty() {
        let names: Vec<String> = drafts
            .iter()
            .take(5)
            .map(|f| f.post.source.file.clone())
            .collect();
        let more = if drafts.len() > 5 {
            format!(" and {} more", drafts.len() - 5)
        } else {
            String::new()
        };
        warnings.push(
            Diagnostic::warning(format!(
                "{} of {total} post files {}, left out: {}{more}",
                drafts.len(),
                if drafts.len() == 1 {
                    "is a draft"
                } else {
                    "are drafts"
                },
                names.join(", ")
            ))
            .with_hint("import them too with --drafts"),
        );
    }
    let mut kept = kept;
    pair_named(&mut kept, site.base_url.as_deref(), &mut warnings);
    if kept.len() > options.max_posts {
        return Err(vec![
            Diagnostic::error(format!(
                "the site has {} posts, more than the {} an import takes",
                kept.len(),
                options.max_posts
            ))
            .with_hint("import a smaller part of the site"),
        ]);
    }
    // Names -> address, per language and for any language.
    let mut by_lang: HashMap<(String, String), String> = HashMap::new();
    let mut any: HashMap<String, String> = HashMap::new();
    for f in &kept {
        let Some(url) = f.post.urls.first() else {
            continue;
        };
        let lang = f.post.lang.clone().unwrap_or_default().to_lowercase();
        for name in &f.names {
            let name = ref_name(name);
            by_lang
                .entry((name.clone(), lang.clone()))
                .or_insert_with(|| url.clone());
            any.entry(name).or_insert_with(|| url.clone());
        }
    }
    let mut errors = Vec::new();
    let mut posts = Vec::with_capacity(kept.len());
    let web = options
        .fetch_images
        .as_ref()
        .map(crate::web::WebImages::new);
    for f in kept {
        let Found {
            mut post,
            body_place,
            dir,
            cover,
            front,
            ..
        } = f;
        let lang = crate::util::canonical_tag(post.lang.as_deref().unwrap_or("en"));
        let lower = lang.to_lowercase();
        let resolve = |target: &str| -> Option<String> {
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target, None),
            };
            let name = ref_name(path);
            let url = by_lang
                .get(&(name.clone(), lower.clone()))
                .or_else(|| any.get(&name))
                .or_else(|| {
                    // `ref "other"`: the last segment alone.
                    let last = name.rsplit('/').next().unwrap_or(&name).to_string();
                    by_lang
                        .get(&(last.clone(), lower.clone()))
                        .or_else(|| any.get(&last))
                })?;
            Some(match fragment {
                Some(f) => format!("{url}#{f}"),
                None => url.clone(),
            })
        };
        let title = post.title.clone();
        let site_title = site.title.clone();
        let site_description = site.description.clone();
        let site_author = site.author.clone();
        let variable = |name: &str| -> Option<String> {
            match name {
                "page.title" => Some(title.clone()),
                "page.lang" => Some(lang.clone()),
                "site.title" => site_title.clone(),
                "site.description" => site_description.clone(),
                "site.author" | "site.author.name" => site_author.clone(),
                // Anything else the front matter or the configuration
                // holds, as Jekyll reads `page.x` and `site.x`.
                _ => match name.split_once('.') {
                    Some(("page", path)) => value_at(&front, path),
                    Some(("site", path)) => layout.config.and_then(|c| value_at(c, path)),
                    _ => None,
                },
            }
        };
        let cx = Context {
            syntax: layout.syntax,
            place: &body_place,
            lang: &lang,
            resolve: &resolve,
            variable: &variable,
        };
        let source_body = match layout.syntax {
            Syntax::Jekyll => crate::syntax::strip_kramdown(&post.body),
            Syntax::Hugo => site_root_marks(&post.body),
            Syntax::Zola => std::mem::take(&mut post.body),
        };
        let mut body = crate::syntax::convert(&source_body, &cx, &mut warnings);
        if layout.syntax == Syntax::Zola {
            let on_site = site
                .base_url
                .as_deref()
                .map(|base_url| crate::syntax::ZolaSite {
                    base_url,
                    languages: &site.languages,
                });
            body = crate::syntax::zola_links(
                &body,
                &body_place,
                &resolve,
                on_site.as_ref(),
                &mut warnings,
            );
        }
        if let Some(cover) = cover {
            body = format!(
                "![{}]({})\n\n{}",
                crate::util::escape_brackets(&post.title),
                crate::util::destination(&cover),
                body.trim_start_matches('\n')
            );
        }
        let at = PostSite {
            place: &body_place,
            dir: &dir,
            layout,
            base_url: site.base_url.as_deref(),
            web: web.as_ref(),
        };
        let (body, images) = images(&body, &at, &mut warnings, &mut errors);
        post.body = body;
        post.images = images;
        posts.push(post);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    warnings.extend(web.and_then(|w| w.summary()));
    Ok(Imported {
        site,
        posts,
        warnings,
    })
}

/// Where one post's images are looked for.
#[derive(Clone, Copy)]
struct PostSite<'a> {
    /// Where the body starts.
    place: &'a Place,
    /// The post's folder.
    dir: &'a Path,
    layout: &'a Layout<'a>,
    base_url: Option<&'a str>,
    /// The downloader, with `--fetch-images`.
    web: Option<&'a crate::web::WebImages>,
}

/// The file name an image at `src` takes beside its post: the address's
/// last segment (`image` when it has none), with the extension `ext` when
/// one is given (what a download's bytes call for), made unique among the
/// post's `images` (`photo-2.jpg`). Site folders and exports alike.
pub(crate) fn image_name(src: &str, ext: Option<&str>, images: &[Image]) -> String {
    let path = stoa_markdown::percent_decode(src.split(['?', '#']).next().unwrap_or(src));
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let (stem, own) = match last.rsplit_once('.') {
        Some((stem, own)) => (stem, Some(own)),
        None => (last, None),
    };
    let stem = if stem.is_empty() { "image" } else { stem };
    let ext = ext.or(own);
    let named = |n: usize| {
        let stem = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        safe_file_name(&match ext {
            Some(ext) => format!("{stem}.{ext}"),
            None => stem,
        })
    };
    (1..)
        .map(named)
        .find(|name| !images.iter().any(|i| i.name == *name))
        .unwrap_or_else(|| "image".into())
}

/// The marks Hugo sites put before their own addresses (`{{base}}/img/a.png`,
/// `{{ .Site.BaseURL }}/slides/`, replaced by the site's templates or a
/// render hook): the site's root, so that the address is the site's own
/// (`/img/a.png`), found in its static folder or led to on the site.
fn site_root_marks(body: &str) -> String {
    const MARKS: [&str; 6] = [
        "{{base}}",
        "{{ base }}",
        "{{.Site.BaseURL}}",
        "{{ .Site.BaseURL }}",
        "{{site.BaseURL}}",
        "{{ site.BaseURL }}",
    ];
    let mut out = body.to_string();
    for mark in MARKS {
        if out.contains(mark) {
            // `{{base}}/x` and `{{base}}x` are both `/x`.
            out = out.replace(&format!("{mark}/"), "/").replace(mark, "/");
        }
    }
    out
}

/// Image formats a book can hold, by extension.
const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "svg"];

/// The body with every image found in the site and named by its file name
/// (remote and missing ones replaced by their text, reported); an image
/// outside the site is an error.
fn images(
    body: &str,
    cx: &PostSite<'_>,
    warnings: &mut Vec<Diagnostic>,
    errors: &mut Vec<Diagnostic>,
) -> (String, Vec<Image>) {
    let PostSite {
        place,
        dir,
        layout,
        base_url,
        web,
    } = *cx;
    let mut found: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut images = Vec::new();
    let mut on_image = |dest: &str, alt: &str, at: Place| -> Rewrite {
        let text = if alt.trim().is_empty() {
            "image".to_string()
        } else {
            alt.to_string()
        };
        let mut dest = dest.trim().to_string();
        if let Some(base) = base_url {
            let base = base.trim_end_matches('/');
            if !base.is_empty()
                && let Some(rest) = dest.strip_prefix(base)
                && (rest.starts_with('/') || rest.is_empty())
            {
                dest = rest.to_string();
            }
        }
        let on_web = dest.starts_with("//") || dest.contains("://");
        if let (true, Some(web)) = (on_web, web) {
            match web.get(&dest) {
                Ok((bytes, ext)) => {
                    let name = image_name(&dest, Some(ext), &images);
                    images.push(Image {
                        name: name.clone(),
                        data: ImageData::Bytes(bytes),
                    });
                    return Rewrite::Dest(name);
                }
                Err(why) => warnings.push(
                    at.warning(format!(
                        "the image `{}` could not be downloaded ({why}); it became a link",
                        excerpt(&dest)
                    ))
                    .with_hint("download it into the post's folder and write ![…](its-file-name)"),
                ),
            }
            return Rewrite::Whole(format!(
                "[{}]({})",
                crate::util::escape_brackets(&text),
                crate::util::destination(&dest)
            ));
        }
        if on_web || dest.starts_with("data:") {
            warnings.push(
                at.warning(format!("the image `{}` is on the web; stoa import reads no network, so it became a link", excerpt(&dest)))
                    .with_hint("import with --fetch-images to download it, or download it into the post's folder and write ![…](its-file-name)"),
            );
            if dest.starts_with("data:") {
                return Rewrite::Whole(crate::util::escape_brackets(&text));
            }
            return Rewrite::Whole(format!(
                "[{}]({})",
                crate::util::escape_brackets(&text),
                crate::util::destination(&dest)
            ));
        }
        let path_part = dest.split(['?', '#']).next().unwrap_or("").to_string();
        let decoded = stoa_markdown::percent_decode(&path_part);
        let aliased = layout
            .aliases
            .iter()
            .find_map(|(prefix, folder)| Some(folder.join(decoded.strip_prefix(prefix.as_str())?)));
        let candidates: Vec<PathBuf> = if let Some(aliased) = aliased {
            vec![aliased]
        } else if let Some(rooted) = decoded.strip_prefix('/') {
            let mut c: Vec<PathBuf> = layout.static_dirs.iter().map(|d| d.join(rooted)).collect();
            if layout.syntax != Syntax::Jekyll {
                c.push(layout.root.join("content").join(rooted));
            }
            c
        } else {
            let mut c = vec![dir.join(&decoded)];
            c.extend(layout.static_dirs.iter().map(|d| d.join(&decoded)));
            c
        };
        let mut outside = false;
        let mut real = None;
        for candidate in &candidates {
            if candidate.symlink_metadata().is_err() {
                continue;
            }
            match crate::util::inside(layout.root, candidate) {
                Some(r) => {
                    real = Some(r);
                    break;
                }
                None => outside = true,
            }
        }
        if real.is_none() && (outside || escapes(&decoded, dir, layout.root)) {
            errors.push(
                at.error(format!("the image `{}` is outside the site's folder", excerpt(&dest)))
                    .with_hint("copy the image into the site (beside the post, or in its static folder), then import again"),
            );
            return Rewrite::Keep;
        }
        let Some(real) = real else {
            warnings.push(
                at.warning(format!(
                    "the image `{}` is not in the site; its description is kept instead",
                    excerpt(&dest)
                ))
                .with_hint(
                    "put the image beside the post after the import and write ![…](its-file-name)",
                ),
            );
            return Rewrite::Whole(format!(
                "*{}*",
                crate::util::escape_brackets(&text).replace('*', "")
            ));
        };
        let ext = real
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if !IMAGE_EXTENSIONS.contains(&ext.as_str()) {
            warnings.push(
                at.warning(format!("`{}` is not an image a book can hold (PNG, JPEG, GIF, WebP or SVG); its description is kept instead", excerpt(&dest)))
                    .with_hint("convert it to PNG or JPEG beside the post after the import"),
            );
            return Rewrite::Whole(format!(
                "*{}*",
                crate::util::escape_brackets(&text).replace('*', "")
            ));
        }
        if let Err(why) = stoa_book::limits::regular_file(&real, stoa_book::limits::MAX_IMAGE_BYTES)
        {
            warnings.push(
                at.warning(format!(
                    "the image `{}` {why}; its description is kept instead",
                    excerpt(&dest)
                ))
                .with_hint("make it smaller, then import again"),
            );
            return Rewrite::Whole(format!(
                "*{}*",
                crate::util::escape_brackets(&text).replace('*', "")
            ));
        }
        if let Some(name) = found.get(&real) {
            return Rewrite::Dest(name.clone());
        }
        let file_name = real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "image".into());
        let mut name = safe_file_name(&file_name);
        let mut n = 2;
        while found.values().any(|v| *v == name) {
            name = format!("{n}-{}", safe_file_name(&file_name));
            n += 1;
        }
        found.insert(real.clone(), name.clone());
        images.push(Image {
            name: name.clone(),
            data: ImageData::Path(real),
        });
        Rewrite::Dest(name)
    };
    let out = crate::util::rewrite_destinations(body, &mut |target, dest, alt, offset| {
        if target != Target::Image {
            return Rewrite::Keep;
        }
        on_image(dest, alt, crate::util::place_in(place, body, offset))
    });
    // Images written as HTML (`<img src="./possum.png">`) come too.
    let out = crate::util::rewrite_html_images(&out, &mut |src, alt, offset| {
        on_image(src, alt, crate::util::place_in(place, &out, offset))
    });
    (out, images)
}

/// True when `path`, taken from `dir`, climbs out of `root`.
fn escapes(path: &str, dir: &Path, root: &Path) -> bool {
    if path.starts_with('/') {
        return path.split('/').any(|p| p == "..");
    }
    let Ok(rel) = dir.strip_prefix(root) else {
        return true;
    };
    let mut depth = rel.components().count() as i64;
    for part in path.split('/') {
        match part {
            ".." => depth -= 1,
            "." | "" => {}
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// A file name safe on every system: ASCII letters, digits, `.`, `-`, `_`.
pub(crate) fn safe_file_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.starts_with('.') {
        out.remove(0);
    }
    if out.is_empty() {
        out = "image".into();
    }
    out
}

fn excerpt(text: &str) -> String {
    let t: String = text.chars().take(100).collect();
    if t.len() < text.len() {
        format!("{t}…")
    } else {
        t
    }
}

/// A permalink from a pattern with `:year`, `:month`, `:day`, `:slug`,
/// `:title`, `:filename`, `:section`, `:categories` (Hugo's and Jekyll's
/// tokens), always starting and, unless it names a file, ending with `/`.
pub(crate) fn permalink(pattern: &str, tokens: &[(&str, String)]) -> String {
    let mut out = pattern.to_string();
    // Longest first: `:title` before `:t…`.
    let mut tokens: Vec<&(&str, String)> = tokens.iter().collect();
    tokens.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    for (key, value) in tokens {
        out = out.replace(&format!(":{key}"), value);
    }
    let mut cleaned = String::from("/");
    for part in out.split('/').filter(|p| !p.is_empty()) {
        cleaned.push_str(part);
        cleaned.push('/');
    }
    if pattern.ends_with(".html") || out.ends_with(".html") {
        cleaned.pop();
    }
    cleaned
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_sites_root_marks_are_the_root() {
        assert_eq!(
            site_root_marks("![a]({{base}}/img/a.png) [s]({{ .Site.BaseURL }}slides/x.pdf)"),
            "![a](/img/a.png) [s](/slides/x.pdf)"
        );
        assert_eq!(site_root_marks("{{< figure >}}"), "{{< figure >}}");
    }

    #[test]
    fn reference_names() {
        assert_eq!(ref_name("/posts/Hello.md"), "posts/hello");
        assert_eq!(ref_name("posts/bundle/index.md"), "posts/bundle");
        assert_eq!(ref_name("./x/"), "x");
    }

    #[test]
    fn permalinks() {
        let t = [
            ("year", "2024".to_string()),
            ("title", "hi".to_string()),
            ("categories", String::new()),
        ];
        assert_eq!(
            permalink(
                "/:categories/:year/:title:output_ext",
                &[
                    t[0].clone(),
                    t[1].clone(),
                    t[2].clone(),
                    ("output_ext", ".html".into())
                ]
            ),
            "/2024/hi.html"
        );
        assert_eq!(permalink("/:year/:title/", &t), "/2024/hi/");
    }

    #[test]
    fn climbing_out_is_seen() {
        let root = Path::new("/site");
        assert!(escapes("../../x.png", Path::new("/site/content"), root));
        assert!(!escapes("../x.png", Path::new("/site/content"), root));
        assert!(escapes("/../x.png", Path::new("/site/content"), root));
    }
}
