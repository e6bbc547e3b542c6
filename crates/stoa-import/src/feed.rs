//! A feed saved to a file: RSS 2.0 (`<rss><channel><item>`) or Atom
//! (`<feed><entry>`). A feed holds published posts only, often the latest
//! few; images are looked for in the feed's folder by their path on the
//! site, and left as links otherwise (nothing is downloaded).
//!
//! RSS: `title`, `link`, `guid`, `pubDate`, `content:encoded` (else
//! `description`), `category`, `dc:language`; the channel's `title`,
//! `description`, `link`, `language`, `managingEditor`/`dc:creator`.
//! Atom: `title`, `link rel="alternate"`, `id`, `published` (else
//! `updated`), `content` (else `summary`; `type` text, html or xhtml),
//! `category term`, `xml:lang`; the feed's `title`, `subtitle`, `author`.

use std::path::Path;

use roxmltree::Node;

use crate::export::{self, Files};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::util;

/// Reads an RSS 2.0 or Atom feed file (or a folder holding one).
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let file = crate::wordpress::export_file(source, &["xml", "rss", "atom"], "feed")?;
    let shown = util::display(&file);
    let text = util::read_text(&file, options.max_file_size).map_err(|d| vec![d])?;
    let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let files = Files::folder(if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        &folder
    });
    read_text(&text, &shown, &files, options)
}

fn child<'a>(n: Node<'a, '_>, name: &str) -> Option<Node<'a, 'a>> {
    n.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

fn child_text<'a>(n: Node<'a, '_>, name: &str) -> Option<&'a str> {
    child(n, name)
        .map(|c| c.text().unwrap_or(""))
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// An element's `xml:lang`.
fn xml_lang<'a>(n: Node<'a, '_>) -> Option<&'a str> {
    n.attribute(("http://www.w3.org/XML/1998/namespace", "lang"))
        .filter(|l| !l.trim().is_empty())
}

/// An Atom text construct as HTML (`type` text, html or xhtml).
fn atom_html(n: Node<'_, '_>, text: &str) -> String {
    match n.attribute("type").unwrap_or("text") {
        "html" | "text/html" => n.text().unwrap_or("").to_string(),
        "xhtml" | "application/xhtml+xml" => {
            // The markup itself is the content: its source, minus the
            // wrapping <div>.
            let range = n.range();
            let inner = &text[range];
            let start = inner.find('>').map_or(0, |i| i + 1);
            let end = inner.rfind("</").unwrap_or(inner.len()).max(start);
            inner[start..end].to_string()
        }
        _ => format!(
            "<p>{}</p>",
            stoa_doc::escape::xml_text(n.text().unwrap_or(""))
        ),
    }
}

fn read_text(
    text: &str,
    shown: &str,
    files: &Files,
    options: &ImportOptions,
) -> Result<Imported, Vec<Diagnostic>> {
    let web = options
        .fetch_images
        .as_ref()
        .map(crate::web::WebImages::new);
    let doc = export::parse_xml(text, shown, "feed")?;
    let lines = export::Lines::new(text);
    let root = doc.root_element();
    let mut warnings = Vec::new();
    let mut posts = Vec::new();
    let site;
    let mut bases = Vec::new();
    if root.has_tag_name("rss") {
        let Some(channel) = child(root, "channel") else {
            return Err(vec![
                Diagnostic::error("an RSS feed without a <channel>")
                    .in_file(shown)
                    .at(lines.of(root), 1)
                    .with_hint("save the feed as the site serves it"),
            ]);
        };
        if channel.children().any(|c| {
            c.tag_name()
                .namespace()
                .is_some_and(|ns| ns.starts_with("http://wordpress.org/export/"))
        }) {
            warnings.push(
                Diagnostic::warning("this is a WordPress export: `stoa import wordpress` reads its drafts, pages' attachments and translations too")
                    .in_file(shown),
            );
        }
        let link = child_text(channel, "link")
            .unwrap_or("")
            .trim_end_matches('/')
            .to_string();
        if !link.is_empty() {
            bases.push(link.clone());
        }
        let lang = child_text(channel, "language");
        site = Site {
            translated: Vec::new(),
            title: child_text(channel, "title").map(stoa_html_md::plain_text),
            description: child_text(channel, "description")
                .map(stoa_html_md::plain_text)
                .filter(|d| !d.is_empty()),
            author: child_text(channel, "managingEditor")
                .or_else(|| child_text(channel, "creator"))
                .map(|a| {
                    a.split('(')
                        .nth(1)
                        .map(|n| n.trim_end_matches(')'))
                        .unwrap_or(a)
                        .trim()
                        .to_string()
                }),
            languages: lang.map(|l| vec![l.to_string()]).unwrap_or_default(),
            base_url: (!link.is_empty()).then_some(link),
            config: Some(Place::new(shown, Some(lines.of(channel)))),
        };
        for item in channel.children().filter(|c| c.has_tag_name("item")) {
            if posts.len() >= options.max_posts {
                return Err(vec![
                    Diagnostic::error(format!(
                        "the feed holds more than {} posts",
                        options.max_posts
                    ))
                    .in_file(shown),
                ]);
            }
            let place = Place::new(shown, Some(lines.of(item)));
            let title = child_text(item, "title")
                .map(stoa_html_md::plain_text)
                .unwrap_or_default();
            let link = child_text(item, "link").unwrap_or("");
            let content = item
                .children()
                .find(|c| {
                    c.tag_name().name() == "encoded"
                        && c.tag_name()
                            .namespace()
                            .is_some_and(|n| n.contains("content"))
                })
                .and_then(|c| c.text())
                .or_else(|| child_text(item, "description"))
                .unwrap_or("");
            let mut post = Post {
                slug: slug_of(link, &title),
                title: title.clone(),
                date: child_text(item, "pubDate")
                    .or_else(|| child_text(item, "date"))
                    .and_then(export::iso_date),
                status: Status::Published,
                lang: child_text(item, "language").map(str::to_string),
                tags: item
                    .children()
                    .filter(|c| c.has_tag_name("category"))
                    .map(|c| stoa_html_md::plain_text(c.text().unwrap_or("")))
                    .filter(|t| !t.is_empty())
                    .collect(),
                urls: [Some(link), child_text(item, "guid")]
                    .into_iter()
                    .flatten()
                    .filter(|u| u.starts_with("http"))
                    .map(str::to_string)
                    .collect(),
                source: place,
                ..Post::default()
            };
            if post.title.is_empty() {
                post.title = post.slug.clone();
            }
            if content.is_empty() {
                warnings.push(post.source.warning(format!(
                    "post `{}`: the item has no content (only a title)",
                    post.slug
                )));
            }
            let cx = export::Export::new(files, &bases, options, web.as_ref());
            export::html_body(content, &mut post, &cx, &mut warnings);
            posts.push(post);
        }
    } else if root.has_tag_name("feed") {
        let link = root
            .children()
            .filter(|c| c.has_tag_name("link"))
            .find(|c| c.attribute("rel").is_none_or(|r| r == "alternate"))
            .and_then(|c| c.attribute("href"))
            .unwrap_or("")
            .trim_end_matches('/')
            .to_string();
        if !link.is_empty() {
            bases.push(link.clone());
        }
        let feed_lang = xml_lang(root);
        site = Site {
            translated: Vec::new(),
            title: child(root, "title").map(|t| stoa_html_md::plain_text(&atom_html(t, text))),
            description: child(root, "subtitle")
                .map(|t| stoa_html_md::plain_text(&atom_html(t, text)))
                .filter(|d| !d.is_empty()),
            author: child(root, "author")
                .and_then(|a| child_text(a, "name"))
                .map(str::to_string),
            languages: feed_lang.map(|l| vec![l.to_string()]).unwrap_or_default(),
            base_url: (!link.is_empty()).then_some(link),
            config: Some(Place::new(shown, Some(lines.of(root)))),
        };
        for entry in root.children().filter(|c| c.has_tag_name("entry")) {
            if posts.len() >= options.max_posts {
                return Err(vec![
                    Diagnostic::error(format!(
                        "the feed holds more than {} posts",
                        options.max_posts
                    ))
                    .in_file(shown),
                ]);
            }
            let place = Place::new(shown, Some(lines.of(entry)));
            let title = child(entry, "title")
                .map(|t| stoa_html_md::plain_text(&atom_html(t, text)))
                .unwrap_or_default();
            let link = entry
                .children()
                .filter(|c| c.has_tag_name("link"))
                .find(|c| c.attribute("rel").is_none_or(|r| r == "alternate"))
                .and_then(|c| c.attribute("href"))
                .unwrap_or("");
            let content = child(entry, "content")
                .or_else(|| child(entry, "summary"))
                .map(|c| atom_html(c, text))
                .unwrap_or_default();
            let mut post = Post {
                slug: slug_of(link, &title),
                title,
                date: child_text(entry, "published")
                    .or_else(|| child_text(entry, "updated"))
                    .and_then(export::iso_date),
                status: Status::Published,
                lang: xml_lang(entry)
                    .or_else(|| child(entry, "content").and_then(xml_lang))
                    .map(str::to_string),
                tags: entry
                    .children()
                    .filter(|c| c.has_tag_name("category"))
                    .filter_map(|c| c.attribute("label").or(c.attribute("term")))
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect(),
                description: child(entry, "summary")
                    .filter(|_| child(entry, "content").is_some())
                    .map(|s| stoa_html_md::plain_text(&atom_html(s, text)))
                    .filter(|s| !s.is_empty()),
                urls: [Some(link), child_text(entry, "id")]
                    .into_iter()
                    .flatten()
                    .filter(|u| u.starts_with("http"))
                    .map(str::to_string)
                    .collect(),
                source: place,
                ..Post::default()
            };
            if post.title.is_empty() {
                post.title = post.slug.clone();
            }
            let cx = export::Export::new(files, &bases, options, web.as_ref());
            export::html_body(&content, &mut post, &cx, &mut warnings);
            posts.push(post);
        }
    } else {
        return Err(vec![Diagnostic::error(format!(
            "not a feed: the document is a <{}>, not an RSS <rss> or an Atom <feed>",
            root.tag_name().name()
        ))
        .in_file(shown)
        .at(lines.of(root), 1)
        .with_hint("save the site's RSS or Atom feed (its address usually ends in /feed, /rss or /atom.xml) and give that file")]);
    }
    // A language on some posts only: the others are in the site's.
    if posts.iter().any(|p| p.lang.is_some()) {
        let first = site
            .languages
            .first()
            .cloned()
            .or_else(|| posts.iter().find_map(|p| p.lang.clone()));
        for p in &mut posts {
            if p.lang.is_none() {
                p.lang = first.clone();
            }
        }
    }
    warnings.extend(web.and_then(|w| w.summary()));
    Ok(Imported {
        site,
        posts,
        warnings,
    })
}

/// A slug from the post's address (its last path segment), else its title.
fn slug_of(link: &str, title: &str) -> String {
    let path = link.split(['?', '#']).next().unwrap_or("");
    let path = path.find("://").map_or(path, |i| &path[i + 3..]);
    let last = path
        .split('/')
        .skip(1)
        .filter(|s| !s.is_empty())
        .last()
        .unwrap_or("");
    let last = last.trim_end_matches(".html").trim_end_matches(".htm");
    let slug = util::post_slug(&stoa_markdown::percent_decode(last));
    if !slug.is_empty() && last != "index" {
        return slug;
    }
    let slug = util::post_slug(title);
    if slug.is_empty() { "post".into() } else { slug }
}
