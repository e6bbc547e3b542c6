//! The writer: an [`Imported`] site becomes a stoa project in `DIR`, as
//! `stoa new` makes one: `books/<name>/book.toml` (commented),
//! `books/posts/<slug>/<lang>.md` in TOML front matter, images beside the
//! posts, translations marked (`translation-of`) so that `stoa status` is
//! clean at once.
//!
//! Every path written is made here, from checked slugs, language tags and
//! file names, below `DIR`; nothing a source says is used as a path. The
//! project is written into a staging folder inside `DIR` and moved into
//! place at the end, so a failed import leaves nothing behind.
//!
//! `--update` compares with `.stoa-import.toml`, the record of what the
//! last import wrote (a digest per file): a file the author has not changed
//! since is replaced by the source's new version; a file the author
//! changed is kept (and reported when the source changed too); new posts
//! are added.

use crate::address::{Base, normalize, on_site};
use crate::model::{Diagnostic, ImageData, Imported, Kind, Post};
use crate::util::{self, Rewrite, Target};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The record of an import, at the top of `DIR`.
pub const MANIFEST: &str = ".stoa-import.toml";

/// How to write.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// `--update`: `DIR` holds an earlier import of the same site.
    pub update: bool,
    /// What was imported, for the record.
    pub kind: Kind,
    /// The source, for the record.
    pub source: PathBuf,
}

/// What happened to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Written for the first time.
    Added,
    /// Replaced by the source's new version (the author had not changed it).
    Updated,
    /// The same as before.
    Unchanged,
    /// The author's edit is kept; the source did not change.
    KeptEdit,
    /// The author's edit is kept, although the source changed too.
    KeptEditSourceChanged,
    /// The author removed it after the last import; not written again.
    KeptRemoved,
    /// No longer in the source; the file is kept.
    Gone,
}

/// What an import wrote.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The book's name (its folder in `books/`).
    pub book: String,
    /// Its languages, the original first.
    pub languages: Vec<String>,
    /// The posts, in book order.
    pub posts: Vec<String>,
    /// Every file, relative to `DIR`, and what happened to it.
    pub files: Vec<(PathBuf, Change)>,
    /// Warnings of the writer (a post left out, a language dropped…).
    pub warnings: Vec<Diagnostic>,
    /// New posts that book.toml (kept, since the author changed it) does
    /// not list.
    pub unlisted: Vec<String>,
}

/// One post of the book, all its languages.
struct Group {
    slug: String,
    /// (language, post), the original first.
    posts: Vec<(String, Post)>,
}

/// Checks that `dir` can take the import: new or empty, or with
/// `--update` an earlier import of the same kind of source (its record).
pub(crate) fn check_target(
    dir: &Path,
    options: &WriteOptions,
) -> Result<Option<Manifest>, Vec<Diagnostic>> {
    if !options.update {
        check_empty(dir)?;
        return Ok(None);
    }
    let manifest = read_manifest(dir)?;
    if let Some(kind) = &manifest.kind
        && kind != options.kind.name()
    {
        return Err(vec![
            Diagnostic::error(format!(
                "{} is an import of a {kind} site, not of a {} one",
                util::display(dir),
                options.kind.name()
            ))
            .in_file(util::display(&dir.join(MANIFEST)))
            .with_hint(format!(
                "update it with `stoa import {kind} …`, or import into a new folder"
            )),
        ]);
    }
    Ok(Some(manifest))
}

/// Writes `imported` into `dir`.
pub fn write(
    imported: Imported,
    dir: &Path,
    options: &WriteOptions,
) -> Result<Report, Vec<Diagnostic>> {
    let mut report = Report::default();
    let manifest = check_target(dir, options)?;
    let Imported { site, posts, .. } = imported;
    let languages = languages(&site.languages, &posts, &mut report.warnings);
    let mut groups = group(posts, &languages, &mut report.warnings);
    if groups.is_empty() {
        return Err(vec![
            Diagnostic::error("the source has no post to import")
                .in_file(options.source.display().to_string())
                .with_hint("check that it is the right folder or export (and --drafts, if its posts are drafts)"),
        ]);
    }
    let languages: Vec<String> = languages
        .into_iter()
        .filter(|l| groups.iter().any(|g| g.posts.iter().any(|(pl, _)| pl == l)))
        .collect();
    // Links to the site's own posts lead to their chapters.
    let base = site.base_url.as_deref().map(Base::parse);
    let mut by_url: HashMap<String, String> = HashMap::new();
    for g in &groups {
        for (_, post) in &g.posts {
            for url in &post.urls {
                if let Some(key) = normalize(url, base.as_ref(), None) {
                    by_url.entry(key).or_insert_with(|| g.slug.clone());
                }
            }
        }
    }
    let book = book_id(dir);
    let mut files: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
    let mut errors = Vec::new();
    for g in &mut groups {
        let folder = PathBuf::from("books/posts").join(&g.slug);
        // Images: one file name per distinct image in the folder.
        let mut names: HashMap<ImageKey, String> = HashMap::new();
        let mut taken: Vec<String> = Vec::new();
        for (lang, post) in &mut g.posts {
            let mut renamed: HashMap<String, String> = HashMap::new();
            for image in &post.images {
                let key = ImageKey::of(&image.data);
                let name = match names.get(&key) {
                    Some(n) => n.clone(),
                    None => {
                        let last = image.name.rsplit('/').next().unwrap_or(&image.name);
                        let wanted = crate::site::safe_file_name(last);
                        let mut name = wanted.clone();
                        let mut n = 2;
                        while taken.contains(&name) || name.ends_with(".md") {
                            name = format!("{n}-{wanted}");
                            n += 1;
                        }
                        match image_bytes(&image.data) {
                            Ok(bytes) => {
                                files.insert(folder.join(&name), bytes);
                            }
                            Err(e) => {
                                errors.push(post.source.located(e));
                                continue;
                            }
                        }
                        taken.push(name.clone());
                        names.insert(key, name.clone());
                        name
                    }
                };
                renamed.insert(image.name.clone(), name);
            }
            let own = post.urls.first().cloned();
            let body =
                util::rewrite_destinations(&post.body, &mut |target, dest, _, _| match target {
                    Target::Image => match renamed.get(dest) {
                        Some(n) if n != dest => Rewrite::Dest(n.clone()),
                        _ => Rewrite::Keep,
                    },
                    Target::Link => {
                        let Some(key) = normalize(dest, base.as_ref(), own.as_deref()) else {
                            return Rewrite::Keep;
                        };
                        if let Some(slug) = by_url.get(&key) {
                            return Rewrite::Dest(format!("#{slug}"));
                        }
                        // A file the site serves (a PDF in static/): the
                        // book cannot hold it, the site still does.
                        match on_site(dest, site.base_url.as_deref(), own.as_deref()) {
                            Some(address) => Rewrite::Dest(address),
                            None => Rewrite::Keep,
                        }
                    }
                });
            let body = util::raise_headings(&body);
            files.insert(
                folder.join(format!("{lang}.md")),
                post_file(post, &body).into_bytes(),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let slugs: Vec<String> = groups.iter().map(|g| g.slug.clone()).collect();
    let (book_toml, book_warnings) = book_toml(&site, &languages, &slugs, &book, dir);
    report.warnings.extend(book_warnings);
    files.insert(
        PathBuf::from("books").join(&book).join("book.toml"),
        book_toml.into_bytes(),
    );
    files.insert(PathBuf::from(".gitignore"), b"/dist/\n".to_vec());
    // Stage, mark the translations, then move into place.
    let staging = dir.join(format!(".stoa-import-{}", std::process::id()));
    let created_dir = !dir.exists();
    let result = stage_and_move(
        &staging,
        dir,
        &files,
        &groups,
        manifest.as_ref(),
        options,
        &mut report,
    );
    let _ = std::fs::remove_dir_all(&staging);
    if result.is_err() && created_dir {
        let _ = std::fs::remove_dir(dir);
    }
    result?;
    report.book = book;
    report.languages = languages;
    report.posts = slugs;
    Ok(report)
}

fn stage_and_move(
    staging: &Path,
    dir: &Path,
    files: &BTreeMap<PathBuf, Vec<u8>>,
    groups: &[Group],
    manifest: Option<&Manifest>,
    options: &WriteOptions,
    report: &mut Report,
) -> Result<(), Vec<Diagnostic>> {
    let fail = |path: &Path, e: std::io::Error| {
        vec![
            Diagnostic::error(format!("cannot write {}: {e}", path.display()))
                .with_hint("name a folder you can write to, with room for the project"),
        ]
    };
    std::fs::create_dir_all(staging).map_err(|e| fail(staging, e))?;
    for (rel, bytes) in files {
        let path = staging.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| fail(&path, e))?;
    }
    for g in groups {
        let Some((original, _)) = g.posts.first() else {
            continue;
        };
        let folder = staging.join("books/posts").join(&g.slug);
        for (lang, _) in g.posts.iter().skip(1) {
            stoa_translate::mark(&folder, lang, Some(original)).map_err(|errors| {
                errors
                    .into_iter()
                    .map(|e| e.with_hint("this is a bug in stoa import: please report it"))
                    .collect::<Vec<_>>()
            })?;
        }
    }
    // The final bytes, marks included.
    let mut staged: BTreeMap<PathBuf, String> = BTreeMap::new();
    for rel in files.keys() {
        let bytes = std::fs::read(staging.join(rel)).map_err(|e| fail(rel, e))?;
        staged.insert(rel.clone(), util::digest(&bytes));
    }
    let mut record: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut moves: Vec<PathBuf> = Vec::new();
    let book_file = files.keys().find(|p| p.ends_with("book.toml")).cloned();
    for (rel, new) in &staged {
        let target = dir.join(rel);
        let old = manifest.and_then(|m| m.files.get(rel));
        let change = match std::fs::read(&target) {
            Err(_) if old.is_some() => Change::KeptRemoved,
            Err(_) => Change::Added,
            Ok(current) => {
                let current = util::digest(&current);
                if current == *new {
                    Change::Unchanged
                } else if old == Some(&current) {
                    Change::Updated
                } else if old == Some(new) {
                    Change::KeptEdit
                } else {
                    Change::KeptEditSourceChanged
                }
            }
        };
        match change {
            Change::Added | Change::Updated => {
                moves.push(rel.clone());
                record.insert(rel.clone(), new.clone());
            }
            Change::Unchanged => {
                record.insert(rel.clone(), new.clone());
            }
            _ => {
                if let Some(old) = old {
                    record.insert(rel.clone(), old.clone());
                }
            }
        }
        if Some(rel) == book_file.as_ref()
            && !matches!(change, Change::Added | Change::Updated | Change::Unchanged)
        {
            // The author's book.toml: say which new posts it lacks.
            if let Ok(text) = std::fs::read_to_string(&target) {
                for g in groups {
                    if !text.contains(&format!("\"{}\"", g.slug)) {
                        report.unlisted.push(g.slug.clone());
                    }
                }
            }
        }
        if rel.file_name().is_some_and(|n| n != ".gitignore") {
            report.files.push((rel.clone(), change));
        }
    }
    if let Some(m) = manifest {
        for rel in m.files.keys() {
            if !staged.contains_key(rel) && dir.join(rel).exists() {
                report.files.push((rel.clone(), Change::Gone));
                record.insert(rel.clone(), m.files[rel].clone());
            }
        }
    }
    // Move into place, each file by a rename inside DIR.
    for rel in &moves {
        let from = staging.join(rel);
        let to = dir.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
        }
        refuse_links(dir, &to)?;
        std::fs::rename(&from, &to).map_err(|e| fail(&to, e))?;
    }
    let manifest_text = manifest_text(options, &record);
    let tmp = staging.join(MANIFEST);
    std::fs::write(&tmp, manifest_text).map_err(|e| fail(&tmp, e))?;
    std::fs::rename(&tmp, dir.join(MANIFEST)).map_err(|e| fail(&dir.join(MANIFEST), e))?;
    Ok(())
}

/// Refuses to write through a symbolic link that an earlier project holds
/// (`books/posts/x` linked elsewhere): nothing is written outside `DIR`.
fn refuse_links(dir: &Path, target: &Path) -> Result<(), Vec<Diagnostic>> {
    let Ok(rel) = target.strip_prefix(dir) else {
        return Err(vec![
            Diagnostic::error("a path outside the project").in_file(target.display().to_string()),
        ]);
    };
    let mut at = dir.to_path_buf();
    for part in rel.components() {
        at.push(part);
        if at
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            return Err(vec![
                Diagnostic::error(
                    "this is a symbolic link; stoa import writes no file through one",
                )
                .in_file(util::display(&at))
                .with_hint(
                    "replace the link by a folder or file of the project, then import again",
                ),
            ]);
        }
    }
    Ok(())
}

/// Identity of an image's data, to write each once per folder.
#[derive(Clone, PartialEq, Eq, Hash)]
enum ImageKey {
    Path(PathBuf),
    Bytes(String),
}

impl ImageKey {
    fn of(data: &ImageData) -> Self {
        match data {
            ImageData::Path(p) => ImageKey::Path(p.clone()),
            ImageData::Bytes(b) => ImageKey::Bytes(util::digest(b)),
        }
    }
}

/// The bytes of an image: read (a regular file of bounded size) or given.
fn image_bytes(data: &ImageData) -> Result<Vec<u8>, Diagnostic> {
    let max = stoa_book::limits::MAX_IMAGE_BYTES;
    match data {
        ImageData::Bytes(b) if b.len() as u64 > max => Err(Diagnostic::error(format!(
            "an image of {} MiB, more than the {} MiB allowed",
            b.len() / (1024 * 1024),
            max / (1024 * 1024)
        ))),
        ImageData::Bytes(b) => Ok(b.clone()),
        ImageData::Path(p) => {
            stoa_book::limits::regular_file(p, max).map_err(|why| {
                Diagnostic::error(format!("the image {} {why}", util::display(p)))
            })?;
            stoa_book::limits::read_bounded(p, max).map_err(|e| {
                Diagnostic::error(format!("cannot read the image {}: {e}", util::display(p)))
            })
        }
    }
}

/// The book's languages: the site's (canonical, well-formed), then any
/// other its posts are in.
fn languages(site: &[String], posts: &[Post], warnings: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tag in site {
        let canonical = util::canonical_tag(tag);
        if !util::is_language(&canonical) {
            warnings.push(Diagnostic::warning(format!(
                "the site's language `{tag}` is not a language tag stoa knows; its posts are left out"
            )));
            continue;
        }
        if !out.contains(&canonical) {
            out.push(canonical);
        }
    }
    for post in posts {
        if let Some(tag) = &post.lang {
            let canonical = util::canonical_tag(tag);
            if util::is_language(&canonical)
                && !out.contains(&canonical)
                && !site.iter().any(|s| s == tag)
            {
                out.push(canonical);
            }
        }
    }
    if out.is_empty() {
        out.push("en".into());
    }
    out
}

/// The posts grouped by translation, each group's slug made unique, in
/// date order.
fn group(posts: Vec<Post>, languages: &[String], warnings: &mut Vec<Diagnostic>) -> Vec<Group> {
    let mut keyed: BTreeMap<String, Vec<(String, Post)>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for post in posts {
        let lang = post
            .lang
            .as_deref()
            .map(util::canonical_tag)
            .unwrap_or_else(|| languages[0].clone());
        if !languages.contains(&lang) {
            warnings.push(post.source.warning(format!(
                "the post's language `{lang}` is not one of the book's; left out"
            )));
            continue;
        }
        let key = post
            .translation_key
            .clone()
            .unwrap_or_else(|| format!("slug:{}", post.slug));
        let entry = keyed.entry(key.clone()).or_insert_with(|| {
            order.push(key.clone());
            Vec::new()
        });
        if let Some((_, first)) = entry.iter().find(|(l, _)| *l == lang) {
            warnings.push(
                post.source
                    .warning(format!(
                        "a second `{lang}` version of the post of {}; left out",
                        first.source
                    ))
                    .with_hint(
                        "give the two posts different slugs or translation keys, then import again",
                    ),
            );
            continue;
        }
        entry.push((lang, post));
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut used: Vec<String> = Vec::new();
    for key in order {
        let Some(mut posts) = keyed.remove(&key) else {
            continue;
        };
        posts.sort_by_key(|(l, _)| languages.iter().position(|x| x == l).unwrap_or(usize::MAX));
        let original = &posts[0].1;
        let mut slug = util::post_slug(&original.slug);
        if slug.is_empty() {
            slug = util::post_slug(&original.title);
        }
        if slug.is_empty() {
            slug = "post".into();
        }
        if stoa_book::slug::problem(&slug).is_some() || slug == "posts" {
            slug = format!("{slug}-post");
        }
        let wanted = slug.clone();
        let mut n = 2;
        while used.contains(&slug) {
            slug = format!("{wanted}-{n}");
            n += 1;
        }
        used.push(slug.clone());
        groups.push(Group { slug, posts });
    }
    groups.sort_by(|a, b| {
        let date = |g: &Group| g.posts[0].1.date.clone().unwrap_or_else(|| "~".into());
        (date(a), &a.slug).cmp(&(date(b), &b.slug))
    });
    groups
}

/// Text for metadata: control characters (which no book format holds)
/// made spaces, runs of white space one space.
fn clean(text: &str) -> String {
    let t: String = text
        .chars()
        .map(|c| {
            if c.is_control()
                || (0xfdd0..=0xfdef).contains(&(c as u32))
                || (c as u32) & 0xfffe == 0xfffe
            {
                ' '
            } else {
                c
            }
        })
        .collect();
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A TOML string, as the toml crate writes one (a literal string when
/// that needs no escapes, else a basic one).
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// A post file: TOML front matter, then the body.
fn post_file(post: &Post, body: &str) -> String {
    let mut out = String::from("+++\n");
    let title = clean(&post.title);
    let _ = writeln!(
        out,
        "title = {}",
        quoted(if title.is_empty() { "Untitled" } else { &title })
    );
    if let Some(date) = post
        .date
        .as_deref()
        .filter(|d| crate::frontmatter::valid_day(d))
    {
        let _ = writeln!(out, "date = {}", &date[..10]);
    }
    let mut tags: Vec<String> = Vec::new();
    for t in post.tags.iter().chain(&post.categories) {
        let t = clean(t);
        if !t.is_empty() && !tags.contains(&t) {
            tags.push(t);
        }
    }
    if !tags.is_empty() {
        let list: Vec<String> = tags.iter().map(|t| quoted(t)).collect();
        let _ = writeln!(out, "tags = [{}]", list.join(", "));
    }
    if let Some(summary) = post
        .description
        .as_deref()
        .map(clean)
        .filter(|s| !s.is_empty())
    {
        let _ = writeln!(out, "summary = {}", quoted(&summary));
    }
    out.push_str("+++\n\n");
    let body = body.trim_matches('\n').replace("\r\n", "\n");
    // Blank lines made by conversions: at most one in a row.
    let mut blank = 0;
    for line in body.split('\n') {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
            out.push('\n');
        } else {
            blank = 0;
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The book's name: the project folder's name made a slug, or `blog`.
fn book_id(dir: &Path) -> String {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let slug = util::post_slug(&name);
    if slug.is_empty() || slug == "posts" || stoa_book::slug::problem(&slug).is_some() {
        "blog".into()
    } else {
        slug
    }
}

/// A TOML key: bare when it can be.
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

/// The commented book.toml.
fn book_toml(
    site: &crate::model::Site,
    languages: &[String],
    slugs: &[String],
    book: &str,
    dir: &Path,
) -> (String, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let book_file = format!("books/{book}/book.toml");
    let title = site
        .title
        .as_deref()
        .map(clean)
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| {
            warnings.push(
                Diagnostic::warning("the site has no title; the book is called after its folder")
                    .in_file(&book_file)
                    .with_hint("write the book's title under [title] in book.toml"),
            );
            dir.file_name()
                .map_or_else(|| "Blog".into(), |n| n.to_string_lossy().into_owned())
        });
    let author = site
        .author
        .as_deref()
        .map(clean)
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| {
            warnings.push(
                Diagnostic::warning("the site does not say who its author is")
                    .in_file(&book_file)
                    .with_hint("write your name in `author` in book.toml"),
            );
            "Your Name".into()
        });
    let seed = site
        .base_url
        .clone()
        .unwrap_or_else(|| format!("{title}/{author}"));
    let uuid = uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, seed.as_bytes());
    let langs: Vec<String> = languages.iter().map(|l| quoted(l)).collect();
    let posts: String = slugs
        .iter()
        .map(|s| format!("  {},\n", quoted(s)))
        .collect();
    let in_lang = |lang: &str, pick: fn(&crate::model::Translated) -> Option<&String>| {
        site.translated
            .iter()
            .filter(|t| util::canonical_tag(&t.lang) == lang)
            .find_map(|t| pick(t).map(|s| clean(s)))
            .filter(|s| !s.is_empty())
    };
    let titles: String = languages
        .iter()
        .map(|l| {
            let title = in_lang(l, |t| t.title.as_ref()).unwrap_or_else(|| title.clone());
            format!("{} = {}\n", key(l), quoted(&title))
        })
        .collect();
    let description = site
        .description
        .as_deref()
        .map(clean)
        .filter(|d| !d.is_empty());
    let lines: String = languages
        .iter()
        .filter_map(|l| {
            let d = in_lang(l, |t| t.description.as_ref()).or_else(|| description.clone())?;
            Some(format!("{} = {}\n", key(l), quoted(&d)))
        })
        .collect();
    let descriptions = if lines.is_empty() {
        String::new()
    } else {
        format!("\n[description]\n{lines}")
    };
    let text = format!(
        "\
# One book, imported by `stoa import`: stoa builds an EPUB, a PDF and a web
# edition of it per language. Every key is described in stoa's
# docs/reference.md; unknown keys are errors.

author = {author}
# The editions, as BCP 47 language tags; a post has one file per language
# (books/posts/<slug>/<lang>.md). The first is the original.
languages = [{langs}]
# A stable identifier of the book, derived from the site's address; keep it
# when you rename the book, so that reading apps know it is the same one.
identifier = \"urn:uuid:{uuid}\"
# The posts, by folder name, in reading order (the blog's date order).
posts = [
{posts}]
# Optional: `date = 2026-11-30` (default: the newest post's date),
# `theme = \"classic\"`, `about = \"<slug>\"` (an \"About the Author\" post),
# `opening = \"any\"` or `\"run-on\"` (where posts open in the PDF), and
# [[parts]] tables to group the posts.

[title]
{titles}{descriptions}
# Markdown footnotes (`text[^1]`) at the foot of the page.
[plugins.footnotes]
mode = \"footnotes\"

# More plugins: [plugins.glossary] for a post's \"## Glossary\" list,
# [plugins.dialogue] for dialogues (see docs/reference.md).
",
        author = quoted(&author),
        langs = langs.join(", "),
    );
    (text, warnings)
}

/// `dir` must not exist, or be an empty folder.
fn check_empty(dir: &Path) -> Result<(), Vec<Diagnostic>> {
    let shown = util::display(dir);
    if dir
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(vec![
            Diagnostic::error("the target is a symbolic link")
                .in_file(shown)
                .with_hint("name a new folder for the project"),
        ]);
    }
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()) {
        Ok(true) => Err(vec![
            Diagnostic::error("the target folder already exists and is not empty")
                .in_file(shown)
                .with_hint(
                    "name a new folder, or add --update to bring an earlier import up to date",
                ),
        ]),
        Ok(false) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) if dir.is_file() => Err(vec![
            Diagnostic::error(format!("the target is a file, not a folder: {e}"))
                .in_file(shown)
                .with_hint("name a new folder for the project"),
        ]),
        Err(e) => Err(vec![
            Diagnostic::error(format!("cannot read the target folder: {e}")).in_file(shown),
        ]),
    }
}

/// The record of the last import.
pub(crate) struct Manifest {
    /// What was imported (`hugo`…).
    kind: Option<String>,
    files: BTreeMap<PathBuf, String>,
}

fn read_manifest(dir: &Path) -> Result<Manifest, Vec<Diagnostic>> {
    let path = dir.join(MANIFEST);
    let shown = util::display(&path);
    if !path.is_file() {
        return Err(vec![
            Diagnostic::error(format!(
                "{} was not made by `stoa import`: it has no {MANIFEST}",
                util::display(dir)
            ))
            .with_hint("import into a new folder first (without --update)"),
        ]);
    }
    let text = util::read_text(&path, stoa_book::limits::MAX_TEXT_BYTES).map_err(|e| vec![e])?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| {
        vec![
            Diagnostic::error(format!("the import record is damaged: {}", e.message()))
                .in_file(&shown)
                .with_hint("import into a new folder, or restore the file from version control"),
        ]
    })?;
    let mut files = BTreeMap::new();
    if let Some(t) = table.get("files").and_then(toml::Value::as_table) {
        for (k, v) in t {
            let Some(rel) = util::plain_relative(k) else {
                return Err(vec![
                    Diagnostic::error(format!(
                        "the import record names `{k}`, a path outside the project"
                    ))
                    .in_file(&shown)
                    .with_hint(
                        "restore the file from version control, or import into a new folder",
                    ),
                ]);
            };
            if let Some(v) = v.as_str() {
                files.insert(rel, v.to_string());
            }
        }
    }
    let kind = table
        .get("kind")
        .and_then(toml::Value::as_str)
        .map(str::to_string);
    Ok(Manifest { kind, files })
}

fn manifest_text(options: &WriteOptions, files: &BTreeMap<PathBuf, String>) -> String {
    let mut out = String::from(
        "# Written by `stoa import`: a digest of each file as the import wrote it, so\n\
         # that `stoa import --update` keeps the files you changed since. Keep it.\n\n",
    );
    let _ = writeln!(out, "kind = {}", quoted(options.kind.name()));
    let _ = writeln!(
        out,
        "source = {}",
        quoted(&options.source.display().to_string())
    );
    out.push_str("\n[files]\n");
    for (path, hash) in files {
        let _ = writeln!(
            out,
            "{} = {}",
            quoted(&path.to_string_lossy().replace('\\', "/")),
            quoted(hash)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_files_are_toml() {
        let post = Post {
            title: "A \"quoted\"\u{1} title".into(),
            date: Some("2024-05-31T10:00:00Z".into()),
            tags: vec!["a".into()],
            categories: vec!["a".into(), "b".into()],
            description: Some("S".into()),
            ..Post::default()
        };
        let text = post_file(&post, "\n\nBody.\n\n\n\nMore.\n");
        assert_eq!(
            text,
            "+++\ntitle = 'A \"quoted\" title'\ndate = 2024-05-31\ntags = [\"a\", \"b\"]\nsummary = \"S\"\n+++\n\nBody.\n\nMore.\n"
        );
    }
}
