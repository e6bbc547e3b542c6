//! One book in one language: its posts loaded in parallel, in order, with
//! the about-the-author page as back matter.

use crate::config::BookConfig;
use crate::post::Post;
use rayon::prelude::*;
use std::path::PathBuf;
use stoa_doc::{Book, BookMeta, ChapterKind, Diagnostic, TREE_VERSION};
use stoa_markdown::smarten;

/// A book ready for plugins and renderers, with what was noticed on the way.
#[derive(Clone, Debug)]
pub struct Edition {
    /// The tree.
    pub book: Book,
    /// Warnings (missing translations, dropped links...).
    pub warnings: Vec<Diagnostic>,
    /// The folders the book may read files from.
    pub roots: Vec<PathBuf>,
    /// The parts in this language and where each post opens, for the
    /// renderers (beside the tree: plugins neither see nor change it).
    pub layout: stoa_render::Layout,
}

/// Loads the editions of `config` for `languages` (all when `None`), each on
/// its own: an error in one language does not stop the others.
pub fn load_editions(
    config: &BookConfig,
    languages: Option<&[String]>,
    source_date_epoch: Option<i64>,
) -> Vec<(String, Result<Edition, Vec<Diagnostic>>)> {
    load_editions_with(config, languages, source_date_epoch, None)
}

/// [`load_editions`], each post's Markdown rewritten by `hook` (the
/// plugins' `source` hooks) before it is parsed.
pub fn load_editions_with(
    config: &BookConfig,
    languages: Option<&[String]>,
    source_date_epoch: Option<i64>,
    hook: Option<&dyn crate::rewrite::SourceHook>,
) -> Vec<(String, Result<Edition, Vec<Diagnostic>>)> {
    let roots = vec![config.dir.clone(), config.posts_dir.clone()];
    config
        .languages
        .iter()
        .filter(|l| languages.is_none_or(|want| want.contains(&l.tag)))
        .map(|lang| {
            let edition = load_edition(config, &lang.tag, &roots, source_date_epoch, hook);
            (lang.tag.clone(), edition)
        })
        .collect()
}

fn load_edition(
    config: &BookConfig,
    lang: &str,
    roots: &[PathBuf],
    source_date_epoch: Option<i64>,
    hook: Option<&dyn crate::rewrite::SourceHook>,
) -> Result<Edition, Vec<Diagnostic>> {
    let language = config
        .languages
        .iter()
        .find(|l| l.tag == lang)
        .expect("editions are made only for the book's languages");
    let mut listed: Vec<(&str, usize, ChapterKind)> = config
        .posts
        .iter()
        .map(|(slug, line)| (slug.as_str(), *line, ChapterKind::Post))
        .collect();
    if let Some((slug, line)) = &config.about {
        listed.push((slug, *line, ChapterKind::About));
    }
    let loaded: Vec<_> = listed
        .par_iter()
        .map(|&(slug, line, kind)| (kind, find_post(config, slug, line, lang, roots, hook)))
        .collect();
    let mut errors = Vec::new();
    let mut warnings: Vec<Diagnostic> = crate::labels::missing_warning(&config.file, language)
        .into_iter()
        .collect();
    let mut chapters = Vec::new();
    let mut assets = Vec::new();
    let mut openings = std::collections::BTreeMap::new();
    let mut short_titles = std::collections::BTreeMap::new();
    // Each part's opening by post, once: a lookup per post keeps a long
    // book linear.
    let part_openings: std::collections::HashMap<&str, stoa_render::Opening> = config
        .parts
        .iter()
        .filter_map(|part| Some((part, part.opening?)))
        .flat_map(|(part, opening)| part.posts.iter().map(move |s| (s.as_str(), opening)))
        .collect();
    for (kind, result) in loaded {
        match result {
            Ok(Found::Post(post)) => {
                let mut post = *post;
                if kind == ChapterKind::Post {
                    let slug = post.chapter.slug.clone();
                    let opening = post
                        .opening
                        .or_else(|| part_openings.get(slug.as_str()).copied())
                        .unwrap_or(config.opening);
                    if let Some(short) = post.short_title.take() {
                        short_titles.insert(slug.clone(), short);
                    }
                    openings.insert(slug, opening);
                }
                post.chapter.kind = kind;
                // The presentation is the book's "About the Author" part,
                // whatever the post calls itself on the blog.
                if kind == ChapterKind::About {
                    post.chapter.title = language.labels.about_author.clone();
                }
                warnings.extend(post.warnings);
                assets.extend(post.assets);
                chapters.push(post.chapter);
            }
            Ok(Found::Untranslated(warning)) => warnings.push(warning),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if !chapters.iter().any(|c| c.kind == ChapterKind::Post) {
        return Err(vec![empty_edition(config, lang)]);
    }
    if !config.images.epub_webp {
        deliver_webp(&mut chapters, &mut assets);
    }
    let mut styles = Vec::new();
    if let Some(bibliography) = &config.bibliography {
        let labels = &language.labels;
        let (cite_styles, uncited) = crate::cite::apply(
            bibliography,
            lang,
            &labels.references,
            &labels.back_to_text,
            &mut chapters,
        )?;
        styles = cite_styles;
        warnings.extend(uncited);
    }
    let date = config.date.clone().unwrap_or_else(|| {
        let newest = chapters.iter().filter_map(|c| c.date.clone()).max();
        newest.unwrap_or_else(|| "2000-01-01".into())
    });
    let modified = source_date_epoch
        .map(epoch_to_iso)
        .unwrap_or_else(|| format!("{date}T00:00:00Z"));
    Ok(Edition {
        book: Book {
            version: TREE_VERSION,
            id: config.id.clone(),
            lang: lang.to_string(),
            meta: BookMeta {
                title: smarten(&config.title[lang]),
                subtitle: config.subtitle.get(lang).map(|s| smarten(s)),
                author: config.author.clone(),
                description: config.description.get(lang).map(|s| smarten(s)),
                identifier: edition_identifier(&config.identifier, lang),
                date,
                modified,
            },
            labels: language.labels.clone(),
            chapters,
            assets,
            styles,
            print: config.print_for(lang),
        },
        warnings,
        roots: roots.to_vec(),
        layout: stoa_render::Layout {
            parts: config
                .parts
                .iter()
                .map(|part| stoa_render::Part {
                    title: smarten(&crate::text::one_line(part.title[lang].trim())),
                    slugs: part.posts.clone(),
                })
                .collect(),
            openings,
            short_titles,
        },
    })
}

/// WebP images named, and typed, as the file every format is given: a
/// JPEG for a photograph, a PNG for a lossless image or one with
/// transparency (Kindle and older Apple Books show no WebP, and a PDF
/// would hold one as raw pixels). The driver's image step makes the file.
fn deliver_webp(chapters: &mut [stoa_doc::Chapter], assets: &mut [stoa_doc::Asset]) {
    let mut renamed = std::collections::HashMap::new();
    for asset in assets.iter_mut().filter(|a| a.media_type == "image/webp") {
        // The header tells lossy from lossless; the image was checked whole
        // when its post was read.
        let Ok(bytes) = crate::limits::read_bounded(
            std::path::Path::new(&asset.path),
            crate::limits::MAX_IMAGE_BYTES,
        ) else {
            continue;
        };
        let Some(probe) = stoa_image::probe(&bytes) else {
            continue;
        };
        let kind = stoa_image::delivered(&probe, false);
        let stem = asset
            .name
            .rsplit_once('.')
            .map_or(asset.name.as_str(), |(s, _)| s);
        let name = format!("{stem}.{}", kind.extension());
        renamed.insert(std::mem::replace(&mut asset.name, name.clone()), name);
        asset.media_type = kind.media_type().to_string();
    }
    if renamed.is_empty() {
        return;
    }
    for chapter in chapters {
        stoa_doc::walk_inlines_mut(&mut chapter.blocks, &mut |inlines| {
            for inline in inlines.iter_mut() {
                if let stoa_doc::Inline::Image { url, .. } = inline
                    && let Some(name) = renamed.get(url.as_str())
                {
                    url.clone_from(name);
                }
            }
        });
    }
}

/// An edition none of whose posts is written in its language would be a
/// book of blank pages: an error at the language in `languages`.
fn empty_edition(config: &BookConfig, lang: &str) -> Diagnostic {
    let text = std::fs::read_to_string(config.dir.join(crate::BOOK_FILE)).unwrap_or_default();
    let (line, column) = text
        .lines()
        .enumerate()
        .find(|(_, l)| {
            let l = l.trim_start();
            l.starts_with("languages") && l["languages".len()..].trim_start().starts_with('=')
        })
        .map_or((1, 1), |(n, l)| {
            let column = l
                .find(&format!("\"{lang}\""))
                .map_or(1, |i| l[..i].chars().count() + 1);
            (n + 1, column)
        });
    let message = if config.posts.is_empty() {
        format!("the {lang} edition has no posts: `posts` is empty")
    } else {
        format!(
            "the {lang} edition has no posts: none of the {} listed is written in {lang}",
            config.posts.len()
        )
    };
    Diagnostic::error(message)
        .in_file(&config.file)
        .at(line, column)
        .with_hint(format!(
            "write {lang}.md in a post's folder, or remove `{lang}` from `languages`"
        ))
}

/// The names of the post folders, for "did you mean" (read only when a
/// listed post is missing).
fn post_folders(config: &BookConfig) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(&config.posts_dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

enum Found {
    Post(Box<Post>),
    Untranslated(Diagnostic),
}

fn find_post(
    config: &BookConfig,
    slug: &str,
    line: usize,
    lang: &str,
    roots: &[PathBuf],
    hook: Option<&dyn crate::rewrite::SourceHook>,
) -> Result<Found, Vec<Diagnostic>> {
    let folder = config.posts_dir.join(slug);
    let at_listing = |message: String| Diagnostic::error(message).in_file(&config.file).at(line, 1);
    // A folder or file that is there but cannot be read says so, rather
    // than passing for missing.
    let unreadable = |path: &std::path::Path, e: std::io::Error| {
        vec![
            at_listing(format!(
                "cannot read {} (post `{slug}`): {e}",
                path.display()
            ))
            .with_hint("check the permissions of the folder and the files in it"),
        ]
    };
    let readable = |path: &std::path::Path| match std::fs::metadata(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(unreadable(path, e)),
        found => Ok(found.ok()),
    };
    if !readable(&folder)?.is_some_and(|m| m.is_dir()) {
        let hint = match crate::suggest::closest(slug, &post_folders(config)) {
            Some(near) => format!(
                "did you mean `{near}`? Otherwise create {}/{lang}.md or remove `{slug}` from the list",
                folder.display()
            ),
            None => format!(
                "create {}/{lang}.md or remove `{slug}` from the list",
                folder.display()
            ),
        };
        return Err(vec![
            at_listing(format!(
                "the book lists post `{slug}`, but {} does not exist",
                folder.display()
            ))
            .with_hint(hint),
        ]);
    }
    let path = folder.join(format!("{lang}.md"));
    if readable(&path)?.is_none() {
        if let Err(e) = std::fs::read_dir(&folder) {
            return Err(unreadable(&folder, e));
        }
        let others = post_languages(&folder);
        if others.is_empty() {
            return Err(vec![
                at_listing(format!(
                    "post `{slug}` has no Markdown file in {}",
                    folder.display()
                ))
                .with_hint(format!("add {lang}.md to the folder")),
            ]);
        }
        return Ok(Found::Untranslated(
            Diagnostic::warning(format!(
                "post `{slug}` has no {lang} translation (only {}); the {lang} edition leaves it out",
                others.join(", ")
            ))
            .in_file(&config.file)
            .at(line, 1)
            .with_hint(format!("write {} to include it", path.display())),
        ));
    }
    check_inside(&path, roots)?;
    crate::post::load_post_with(&path, slug, roots, hook).map(|p| Found::Post(Box::new(p)))
}

/// Refuses a post file that is, or lies in a folder that is, a link to a
/// place outside the book's folders, as images are refused.
fn check_inside(path: &std::path::Path, roots: &[PathBuf]) -> Result<(), Vec<Diagnostic>> {
    let real = path.canonicalize().map_err(|e| {
        vec![
            Diagnostic::error(format!("cannot read the file: {e}"))
                .in_file(path.display().to_string()),
        ]
    })?;
    let inside = roots
        .iter()
        .filter_map(|r| r.canonicalize().ok())
        .any(|root| real.starts_with(root));
    if inside {
        return Ok(());
    }
    Err(vec![
        Diagnostic::error(format!(
            "the post is a link to {}, outside the book's folders",
            real.display()
        ))
        .in_file(path.display().to_string())
        .with_hint("copy the file into the post's folder instead of linking to it"),
    ])
}

/// The language tags a post folder has a Markdown file for (`en.md`,
/// `pt-BR.md`), sorted.
pub fn post_languages(folder: &std::path::Path) -> Vec<String> {
    let mut tags: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".md")
                .map(str::to_string)
        })
        .collect();
    tags.sort();
    tags
}

/// A stable identifier per book and language: a name-based UUID, so that
/// each edition keeps its own identity across builds.
pub fn edition_identifier(book_identifier: &str, lang: &str) -> String {
    let name = format!("{book_identifier}#{lang}");
    let id = uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes());
    format!("urn:uuid:{id}")
}

/// Seconds since 1970 to `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, UTC).
/// A year past 9999 is written with its sign (`+10000`), as ISO 8601 has
/// it; a time past chrono's range (some 262,000 years) as its last.
pub fn epoch_to_iso(secs: i64) -> String {
    let date = chrono::DateTime::from_timestamp(secs, 0).unwrap_or(match secs < 0 {
        true => chrono::DateTime::<chrono::Utc>::MIN_UTC,
        false => chrono::DateTime::<chrono::Utc>::MAX_UTC,
    });
    date.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_post_linked_from_outside_the_books_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("secret.md"),
            "+++\ntitle = \"s\"\n+++\n",
        )
        .unwrap();
        let books = tempfile::tempdir().unwrap();
        let folder = books.path().join("posts/p");
        std::fs::create_dir_all(&folder).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.md"), folder.join("en.md")).unwrap();
        let errs = check_inside(&folder.join("en.md"), &[books.path().to_path_buf()]).unwrap_err();
        assert!(
            errs[0].message.contains("outside the book's folders"),
            "{}",
            errs[0]
        );
        // A link that stays inside is fine.
        std::fs::write(books.path().join("posts/p/real.md"), "x").unwrap();
        std::os::unix::fs::symlink("real.md", folder.join("pt.md")).unwrap();
        assert!(check_inside(&folder.join("pt.md"), &[books.path().to_path_buf()]).is_ok());
    }

    #[test]
    fn epoch_dates() {
        assert_eq!(epoch_to_iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(epoch_to_iso(1_717_200_000), "2024-06-01T00:00:00Z");
        assert_eq!(epoch_to_iso(951_782_400 + 3_661), "2000-02-29T01:01:01Z");
        assert_eq!(epoch_to_iso(-1), "1969-12-31T23:59:59Z");
        assert_eq!(epoch_to_iso(253_402_300_799), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn identifiers_differ_per_language_and_are_stable() {
        let a = edition_identifier("urn:x", "en");
        assert_eq!(a, edition_identifier("urn:x", "en"));
        assert_ne!(a, edition_identifier("urn:x", "pt-BR"));
        assert!(a.starts_with("urn:uuid:"));
    }
}
