//! WordPress: the WXR file of Tools > Export (RSS 2.0 with the `wp:`
//! namespace), and the site's uploads copied beside it.
//!
//! Each `<item>` whose `wp:post_type` is `post` is a post: `title`,
//! `wp:post_name` (the slug), `wp:post_date`, `wp:status` (`publish`, or
//! `draft`/`pending`/`future`/`private`, left out without `--drafts`),
//! the approved `wp:comment`s (with `--comments`, at the post's end),
//! `content:encoded` (block-editor HTML, or the classic editor's text with
//! blank lines for paragraphs, and shortcodes), `excerpt:encoded`,
//! `category` (`domain="category"` and `domain="post_tag"`), the footnotes
//! block's `footnotes` meta. Polylang's `language` and `post_translations`
//! categories, and WPML's language and translation-group meta, give each
//! post its language and pair translations. Attachments resolve
//! `[gallery]` ids to their files; images are looked for in the export's
//! folder by their path on the site (`wp-content/uploads/2024/05/a.jpg`).

use std::collections::HashMap;
use std::path::Path;

use roxmltree::Node;

use crate::export::{self, Files};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::util;

/// Reads a WordPress export: the WXR file, or a folder holding one.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let file = export_file(source, &["xml"], "WordPress export (WXR)")?;
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

/// The export file: `source` itself, or the only file with one of
/// `extensions` in the folder `source`.
pub(crate) fn export_file(
    source: &Path,
    extensions: &[&str],
    what: &str,
) -> Result<std::path::PathBuf, Vec<Diagnostic>> {
    let shown = util::display(source);
    let meta = std::fs::metadata(source).map_err(|e| {
        vec![
            Diagnostic::error(format!("cannot read the {what}: {e}"))
                .in_file(&shown)
                .with_hint(format!("give the path of the {what}")),
        ]
    })?;
    if !meta.is_dir() {
        return Ok(source.to_path_buf());
    }
    let mut found: Vec<_> = std::fs::read_dir(source)
        .map_err(|e| {
            vec![Diagnostic::error(format!("cannot read the folder: {e}")).in_file(&shown)]
        })?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
        })
        .collect();
    found.sort();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(vec![
            Diagnostic::error(format!(
                "the folder holds no {what} (a .{} file)",
                extensions.join(" or .")
            ))
            .in_file(&shown)
            .with_hint(format!("give the path of the {what} itself")),
        ]),
        _ => Err(vec![
            Diagnostic::error(format!(
                "the folder holds {} .{} files: which is the {what}?",
                found.len(),
                extensions.join("/.")
            ))
            .in_file(&shown)
            .with_hint(format!("give the path of the {what} itself")),
        ]),
    }
}

fn is_wp(n: &Node<'_, '_>) -> bool {
    n.tag_name().namespace().is_some_and(|ns| {
        ns.starts_with("http://wordpress.org/export/") && !ns.ends_with("/excerpt/")
    })
}

/// The text of the child `name` (in the WordPress namespace when `wp`).
fn child<'a>(n: Node<'a, '_>, name: &str, wp: bool) -> Option<&'a str> {
    n.children()
        .find(|c| c.is_element() && c.tag_name().name() == name && (!wp || is_wp(c)))
        .map(|c| c.text().unwrap_or(""))
}

/// `content:encoded` or `excerpt:encoded`.
fn encoded<'a>(n: Node<'a, '_>, excerpt: bool) -> Option<&'a str> {
    n.children()
        .find(|c| {
            c.is_element()
                && c.tag_name().name() == "encoded"
                && c.tag_name()
                    .namespace()
                    .is_some_and(|ns| ns.contains("excerpt") == excerpt)
        })
        .map(|c| c.text().unwrap_or(""))
}

pub(crate) fn read_text(
    text: &str,
    shown: &str,
    files: &Files,
    options: &ImportOptions,
) -> Result<Imported, Vec<Diagnostic>> {
    let web = options
        .fetch_images
        .as_ref()
        .map(crate::web::WebImages::new);
    let doc = export::parse_xml(text, shown, "WordPress export")?;
    let lines = export::Lines::new(text);
    let root = doc.root_element();
    let channel = root.children().find(|c| c.has_tag_name("channel"));
    let (Some(channel), true) = (channel, root.has_tag_name("rss")) else {
        return Err(vec![
            Diagnostic::error("not a WordPress export: no <rss><channel>")
                .in_file(shown)
                .at(lines.of(root), 1)
                .with_hint("export the site from WordPress's Tools > Export, and give that file"),
        ]);
    };
    if !channel.children().any(|c| is_wp(&c)) && !channel.descendants().any(|c| is_wp(&c)) {
        return Err(vec![Diagnostic::error("an RSS feed, not a WordPress export: it has no wp: elements")
            .in_file(shown)
            .with_hint("import a feed with `stoa import feed`, or export the site from WordPress's Tools > Export")]);
    }
    let mut warnings = Vec::new();
    let site_link = child(channel, "link", false)
        .map(str::trim)
        .unwrap_or("")
        .to_string();
    let mut bases: Vec<String> = Vec::new();
    for b in [
        child(channel, "base_blog_url", true),
        child(channel, "base_site_url", true),
        Some(site_link.as_str()),
    ]
    .into_iter()
    .flatten()
    {
        let b = b.trim().trim_end_matches('/').to_string();
        if !b.is_empty() && !bases.contains(&b) {
            bases.push(b);
        }
    }
    let author = channel
        .children()
        .find(|c| c.tag_name().name() == "author" && is_wp(c))
        .and_then(|a| child(a, "author_display_name", true))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let channel_lang = child(channel, "language", false)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());

    let items: Vec<Node> = channel
        .children()
        .filter(|c| c.has_tag_name("item"))
        .collect();
    // Attachments: their addresses by id, for [gallery ids="…"] and the
    // posts' featured images, and their descriptions.
    let mut attachments: HashMap<String, String> = HashMap::new();
    let mut alts: HashMap<String, String> = HashMap::new();
    for item in &items {
        if child(*item, "post_type", true).map(str::trim) == Some("attachment")
            && let (Some(id), Some(url)) = (
                child(*item, "post_id", true),
                child(*item, "attachment_url", true),
            )
        {
            attachments.insert(id.trim().to_string(), url.trim().to_string());
            if let Some(alt) = post_meta(*item).get("_wp_attachment_image_alt") {
                alts.insert(id.trim().to_string(), alt.trim().to_string());
            }
        }
    }

    let mut posts = Vec::new();
    let (mut drafts, mut private, mut other_types) = (0, 0, 0usize);
    let (mut comments_left, mut commented) = (0, 0);
    for item in items {
        let line = lines.of(item);
        let place = Place::new(shown, Some(line));
        let post_type = child(item, "post_type", true).unwrap_or("post").trim();
        if post_type != "post" {
            if post_type != "attachment" && post_type != "revision" && post_type != "nav_menu_item"
            {
                other_types += 1;
            }
            continue;
        }
        let status = match child(item, "status", true).unwrap_or("publish").trim() {
            "publish" => Status::Published,
            "draft" | "pending" | "auto-draft" => Status::Draft,
            "private" | "future" => Status::Private,
            _ => continue, // trash, inherit
        };
        if status != Status::Published && !options.drafts {
            if status == Status::Draft {
                drafts += 1
            } else {
                private += 1
            }
            continue;
        }
        if posts.len() >= options.max_posts {
            return Err(vec![place.error(format!(
                "the export holds more than {} posts",
                options.max_posts
            ))]);
        }
        let title = stoa_html_md::plain_text(child(item, "title", false).unwrap_or(""));
        let id = child(item, "post_id", true)
            .unwrap_or("")
            .trim()
            .to_string();
        let mut slug = child(item, "post_name", true)
            .unwrap_or("")
            .trim()
            .to_string();
        if slug.is_empty() {
            slug = util::post_slug(&title);
        }
        if slug.is_empty() {
            slug = format!("post-{id}");
        }
        let date = child(item, "post_date", true)
            .and_then(export::iso_date)
            .or_else(|| child(item, "pubDate", false).and_then(export::iso_date));
        let mut post = Post {
            slug: stoa_markdown::percent_decode(&slug),
            title: if title.is_empty() {
                slug.clone()
            } else {
                title
            },
            date,
            status,
            source: place.clone(),
            ..Post::default()
        };
        let meta = post_meta(item);
        for c in item.children().filter(|c| c.has_tag_name("category")) {
            let name = stoa_html_md::plain_text(c.text().unwrap_or(""));
            let nice = c.attribute("nicename").unwrap_or("").trim().to_string();
            match c.attribute("domain").unwrap_or("category") {
                "category"
                    if name != "Uncategorized" && nice != "uncategorized" && !name.is_empty() =>
                {
                    post.categories.push(name)
                }
                "post_tag" if !name.is_empty() => post.tags.push(name),
                // Polylang.
                "language" => post.lang = Some(if nice.is_empty() { name } else { nice }),
                "post_translations" => {
                    post.translation_key = Some(if nice.is_empty() { name } else { nice })
                }
                _ => {}
            }
        }
        // WPML (its export plugin's meta, or the plain keys).
        for key in [
            "_wpml_import_language_code",
            "_wpml_language",
            "wpml_language",
        ] {
            if let Some(v) = meta.get(key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
                post.lang = Some(v.to_string());
            }
        }
        for key in ["_wpml_import_translation_group", "_wpml_trid", "wpml_trid"] {
            if let Some(v) = meta.get(key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
                post.translation_key = Some(format!("wpml-{v}"));
            }
        }
        if let Some(excerpt) = encoded(item, true)
            .map(stoa_html_md::plain_text)
            .filter(|e| !e.is_empty())
        {
            post.description = Some(excerpt);
        }
        for u in [child(item, "link", false), child(item, "guid", false)]
            .into_iter()
            .flatten()
        {
            let u = u.trim();
            if !u.is_empty() && !post.urls.iter().any(|x| x == u) {
                post.urls.push(u.to_string());
            }
        }
        if !id.is_empty()
            && let Some(base) = bases.first()
        {
            post.urls.push(format!("{base}/?p={id}"));
        }
        let raw = encoded(item, false).unwrap_or("");
        let mut html = prepare(raw, &meta, &attachments, &place, &post.slug, &mut warnings);
        // The featured image opens the post, as the blog's theme shows it,
        // unless the post already shows it.
        if let Some(id) = meta.get("_thumbnail_id").map(|i| i.trim())
            && let Some(url) = attachments.get(id)
            && !html.contains(url.as_str())
        {
            let alt = alts.get(id).map_or("", String::as_str);
            html = format!(
                "<figure><img src=\"{}\" alt=\"{}\"></figure>\n{html}",
                stoa_doc::escape::xml_attribute(url),
                stoa_doc::escape::xml_attribute(alt)
            );
        }
        let thread = comments(item);
        if options.comments {
            html.push_str(&comments_html(
                &thread,
                post.lang.as_deref().or(channel_lang.as_deref()),
            ));
        } else if !thread.is_empty() {
            comments_left += thread.len();
            commented += 1;
        }
        let cx = export::Export::new(files, &bases, options, web.as_ref());
        export::html_body(&html, &mut post, &cx, &mut warnings);
        posts.push(post);
    }
    warnings.extend(export::left_out(shown, drafts, private));
    if comments_left > 0 {
        warnings.push(
            Diagnostic::warning(format!(
                "{comments_left} approved comment{} on {commented} post{} left out",
                if comments_left == 1 { "" } else { "s" },
                if commented == 1 { "" } else { "s" }
            ))
            .in_file(shown)
            .with_hint("add --comments to bring them in, under a heading at the end of each post"),
        );
    }
    if other_types > 0 {
        warnings.push(
            Diagnostic::warning(format!(
                "{other_types} item{} other than posts (pages, custom types) left out",
                if other_types == 1 { "" } else { "s" }
            ))
            .in_file(shown),
        );
    }
    let mut languages = Vec::new();
    let post_langs: Vec<String> = posts.iter().filter_map(|p| p.lang.clone()).collect();
    if post_langs.is_empty() {
        languages.extend(channel_lang.clone());
    } else {
        // The site's language first, as its posts write it.
        let primary = channel_lang.as_deref().map(|l| {
            l.split(['-', '_'])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase()
        });
        let mut langs: Vec<String> = Vec::new();
        for l in &post_langs {
            if !langs.contains(l) {
                langs.push(l.clone());
            }
        }
        langs.sort_by_key(|l| {
            Some(
                l.split(['-', '_'])
                    .next()
                    .unwrap_or("")
                    .to_ascii_lowercase(),
            ) != primary
        });
        languages = langs;
        // A post without a language is in the site's first.
        for p in &mut posts {
            if p.lang.is_none() {
                p.lang = languages.first().cloned();
            }
        }
    }
    warnings.extend(web.and_then(|w| w.summary()));
    Ok(Imported {
        site: Site {
            translated: Vec::new(),
            title: child(channel, "title", false)
                .map(stoa_html_md::plain_text)
                .filter(|t| !t.is_empty()),
            description: child(channel, "description", false)
                .map(stoa_html_md::plain_text)
                .filter(|t| !t.is_empty()),
            author,
            languages,
            base_url: bases.first().cloned(),
            config: Some(Place::new(shown, Some(lines.of(channel)))),
        },
        posts,
        warnings,
    })
}

/// One approved comment: who wrote it, when, and what (its text as
/// WordPress stores it, HTML with blank lines for paragraphs). The
/// commenter's e-mail and IP address, which the export also holds, are
/// never read.
struct Comment<'a> {
    id: &'a str,
    parent: &'a str,
    author: String,
    date: Option<String>,
    content: &'a str,
}

/// An item's approved comments (not pingbacks or trackbacks), in the
/// order they were written.
fn comments<'a>(item: Node<'a, '_>) -> Vec<Comment<'a>> {
    let mut out: Vec<Comment> = item
        .children()
        .filter(|c| c.tag_name().name() == "comment" && is_wp(c))
        .filter(|c| child(*c, "comment_approved", true).map(str::trim) == Some("1"))
        .filter(|c| {
            matches!(
                child(*c, "comment_type", true).map(str::trim),
                None | Some("" | "comment")
            )
        })
        .map(|c| Comment {
            id: child(c, "comment_id", true).unwrap_or("").trim(),
            parent: child(c, "comment_parent", true).unwrap_or("0").trim(),
            author: stoa_html_md::plain_text(child(c, "comment_author", true).unwrap_or("")),
            date: child(c, "comment_date", true).and_then(export::iso_date),
            content: child(c, "comment_content", true).unwrap_or(""),
        })
        .filter(|c| !c.content.trim().is_empty())
        .collect();
    out.sort_by(|a, b| a.date.cmp(&b.date));
    out
}

/// The comments as HTML to end the post with: a heading in the post's
/// language, then each comment as a quotation opened by its author, its
/// date and, for a reply, whom it answers.
fn comments_html(thread: &[Comment], lang: Option<&str>) -> String {
    if thread.is_empty() {
        return String::new();
    }
    let primary = lang
        .unwrap_or("en")
        .split(['-', '_'])
        .next()
        .unwrap_or("en");
    let (heading, replying) = match primary.to_ascii_lowercase().as_str() {
        "pt" => ("Comentários", "em resposta a"),
        "es" => ("Comentarios", "en respuesta a"),
        "fr" => ("Commentaires", "en réponse à"),
        "de" => ("Kommentare", "als Antwort auf"),
        "it" => ("Commenti", "in risposta a"),
        _ => ("Comments", "replying to"),
    };
    let esc = stoa_doc::escape::xml_text;
    let mut out = format!("\n<h2>{heading}</h2>\n");
    for c in thread {
        let mut byline = format!("<strong>{}</strong>", esc(&c.author));
        if let Some(date) = &c.date {
            byline.push_str(&format!(", {}", esc(date.get(..10).unwrap_or(date))));
        }
        if let Some(parent) = thread.iter().find(|p| p.id == c.parent && c.parent != "0") {
            byline.push_str(&format!(", {replying} {}", esc(&parent.author)));
        }
        out.push_str(&format!(
            "<blockquote><p>{byline}</p>\n{}</blockquote>\n",
            autop(c.content)
        ));
    }
    out
}

/// An item's `wp:postmeta` pairs.
fn post_meta(item: Node) -> HashMap<String, String> {
    let mut meta = HashMap::new();
    for m in item
        .children()
        .filter(|c| c.tag_name().name() == "postmeta" && is_wp(c))
    {
        if let (Some(k), Some(v)) = (child(m, "meta_key", true), child(m, "meta_value", true)) {
            meta.insert(k.trim().to_string(), v.to_string());
        }
    }
    meta
}

/// The HTML of `content:encoded` as WordPress shows it: the footnotes
/// block filled in from its meta, shortcodes made HTML, and the classic
/// editor's paragraphs (blank lines) made `<p>`s.
fn prepare(
    raw: &str,
    meta: &HashMap<String, String>,
    attachments: &HashMap<String, String>,
    place: &Place,
    slug: &str,
    warnings: &mut Vec<Diagnostic>,
) -> String {
    let mut html = shortcodes(raw, attachments, place, slug, warnings);
    if !raw.contains("<!-- wp:") {
        html = autop(&html);
    }
    if let Some(json) = meta.get("footnotes")
        && let Ok(serde_json::Value::Array(notes)) = serde_json::from_str::<serde_json::Value>(json)
    {
        let mut list = String::from("<ol class=\"wp-block-footnotes\">");
        for n in notes {
            let id = n.get("id").and_then(|v| v.as_str()).unwrap_or("");
            let content = n.get("content").and_then(|v| v.as_str()).unwrap_or("");
            list.push_str(&format!(
                "<li id=\"{}\">{content}</li>",
                id.replace(['"', '<', '>', '&'], "")
            ));
        }
        list.push_str("</ol>");
        if html.contains("<!-- wp:footnotes /-->") {
            html = html.replacen("<!-- wp:footnotes /-->", &list, 1);
        } else {
            html.push_str(&list);
        }
    }
    html
}

/// Shortcodes WordPress and Jetpack register: `[name …]` with no closing
/// tag and no attributes is taken as text (`[sic]`), unless it is one of
/// these.
const KNOWN: &[&str] = &[
    "caption",
    "wp_caption",
    "gallery",
    "embed",
    "audio",
    "video",
    "playlist",
    "youtube",
    "vimeo",
    "code",
    "sourcecode",
    "source",
    "gist",
    "tweet",
    "instagram",
    "googlemaps",
    "latex",
    "contact-form",
    "jetpack_subscription_form",
    "jetpack-related-posts",
];

/// Tag names whose content is code.
const CODE: &[&str] = &["code", "sourcecode", "source"];

struct Shortcode<'a> {
    name: &'a str,
    attrs: Vec<(String, String)>,
    /// Byte range of the opening tag.
    end_open: usize,
    self_closing: bool,
}

/// Parses a shortcode opening at `s[0] == '['`.
fn parse_open(s: &str) -> Option<Shortcode<'_>> {
    let body = &s[1..];
    let name_len = body
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
        .count();
    if name_len == 0 {
        return None;
    }
    let name = &body[..name_len];
    let close = body.find(']')?;
    if close < name_len || close > 2000 {
        return None;
    }
    let inside = &body[name_len..close];
    if !(inside.is_empty() || inside.starts_with([' ', '/', '='])) || inside.contains('[') {
        return None;
    }
    let self_closing = inside.trim_end().ends_with('/');
    let attrs = parse_attrs(inside.trim_end_matches('/'));
    Some(Shortcode {
        name,
        attrs,
        end_open: close + 2,
        self_closing,
    })
}

fn parse_attrs(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start_matches('=').trim();
    let mut positional = 0;
    while !rest.is_empty() {
        let key_len = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = rest[..key_len].to_string();
        rest = rest[key_len..].trim_start();
        if let Some(r) = rest.strip_prefix('=') {
            let r = r.trim_start();
            let (value, after) = match r.chars().next() {
                Some(q @ ('"' | '\'' | '“' | '”' | '″')) => {
                    let inner = &r[q.len_utf8()..];
                    let end = inner
                        .find(['"', '\'', '“', '”', '″'])
                        .unwrap_or(inner.len());
                    let skip = inner[end..].chars().next().map_or(0, char::len_utf8);
                    (
                        inner[..end].to_string(),
                        &inner[(end + skip).min(inner.len())..],
                    )
                }
                _ => {
                    let end = r.find(char::is_whitespace).unwrap_or(r.len());
                    (r[..end].to_string(), &r[end..])
                }
            };
            out.push((key.to_ascii_lowercase(), value));
            rest = after.trim_start();
        } else {
            let v = key.trim_matches(['"', '\'']).to_string();
            out.push((format!("{positional}"), v));
            positional += 1;
        }
    }
    out
}

fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Shortcodes made HTML: captions, galleries, embeds, code; other known
/// ones lose their tags and keep their content; unknown `[x]` stays text.
fn shortcodes(
    raw: &str,
    attachments: &HashMap<String, String>,
    place: &Place,
    slug: &str,
    warnings: &mut Vec<Diagnostic>,
) -> String {
    shortcodes_in(raw, attachments, place, slug, warnings, 0)
}

fn shortcodes_in(
    raw: &str,
    attachments: &HashMap<String, String>,
    place: &Place,
    slug: &str,
    warnings: &mut Vec<Diagnostic>,
    depth: usize,
) -> String {
    if depth > 16 {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    let mut reported: Vec<String> = Vec::new();
    let mut guard = 0;
    while let Some(i) = rest.find('[') {
        guard += 1;
        out.push_str(&rest[..i]);
        let at = &rest[i..];
        // `[[x]]` is WordPress's escape for a literal `[x]`.
        if let Some(inner) = at.strip_prefix("[[")
            && let Some(end) = inner.find("]]")
        {
            out.push('[');
            out.push_str(&inner[..end]);
            out.push(']');
            rest = &inner[end + 2..];
            continue;
        }
        let Some(sc) = parse_open(at).filter(|_| guard < 100_000) else {
            out.push('[');
            rest = &at[1..];
            continue;
        };
        let closing = format!("[/{}]", sc.name);
        let close_at = if sc.self_closing {
            None
        } else {
            at[sc.end_open..].find(&closing)
        };
        let known = KNOWN.contains(&sc.name);
        if !known && close_at.is_none() && sc.attrs.iter().all(|(k, _)| k.parse::<usize>().is_ok())
        {
            // `[sic]`, `[1]`: text.
            out.push('[');
            rest = &at[1..];
            continue;
        }
        let (content, after) = match close_at {
            Some(c) => (
                &at[sc.end_open..sc.end_open + c],
                &at[sc.end_open + c + closing.len()..],
            ),
            None => ("", &at[sc.end_open..]),
        };
        let name = sc.name.to_ascii_lowercase();
        let src = attr(&sc.attrs, "url")
            .or_else(|| attr(&sc.attrs, "src"))
            .or_else(|| attr(&sc.attrs, "0"))
            .map(str::to_string)
            .unwrap_or_else(|| content.trim().to_string());
        match name.as_str() {
            "caption" | "wp_caption" => {
                // [caption …]<a><img …></a> The caption.[/caption]
                let inner = shortcodes_in(content, attachments, place, slug, warnings, depth + 1);
                let split = inner.rfind('>').map_or(0, |p| p + 1);
                let caption = attr(&sc.attrs, "caption")
                    .map(str::to_string)
                    .unwrap_or_else(|| inner[split..].trim().to_string());
                out.push_str(&format!(
                    "\n\n<figure>{}<figcaption>{}</figcaption></figure>\n\n",
                    &inner[..split],
                    caption
                ));
            }
            "gallery" => {
                let ids = attr(&sc.attrs, "ids").unwrap_or("");
                out.push_str("\n\n<figure>");
                for id in ids.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match attachments.get(id) {
                        Some(url) => out.push_str(&format!("<figure><img src=\"{}\" alt=\"\"></figure>", stoa_doc::escape::xml_attribute(url))),
                        None => warnings.push(place.warning(format!(
                            "post `{slug}`: the gallery's image {id} is not among the export's attachments, left out"
                        ))),
                    }
                }
                out.push_str("</figure>\n\n");
            }
            "embed" | "youtube" | "vimeo" | "video" | "audio" | "tweet" | "instagram" | "gist"
            | "googlemaps" | "playlist" => {
                let src = src.trim();
                if src.starts_with("http") || src.starts_with("//") {
                    if name == "gist" {
                        out.push_str(&format!(
                            "<script src=\"{}.js\"></script>",
                            stoa_doc::escape::xml_attribute(src.trim_end_matches(".js"))
                        ));
                    } else if name == "tweet" {
                        out.push_str(&format!("<blockquote class=\"twitter-tweet\"><a href=\"{0}\">{0}</a></blockquote>", stoa_doc::escape::xml_attribute(src)));
                    } else {
                        out.push_str(&format!(
                            "\n\n<figure class=\"wp-block-embed\"><div class=\"wp-block-embed__wrapper\">{}</div></figure>\n\n",
                            stoa_doc::escape::xml_attribute(src)
                        ));
                    }
                } else {
                    warnings.push(place.warning(format!(
                        "post `{slug}`: a [{name}] shortcode without an address, left out"
                    )));
                }
            }
            _ if CODE.contains(&name.as_str()) => {
                let lang = attr(&sc.attrs, "language")
                    .or_else(|| attr(&sc.attrs, "lang"))
                    .unwrap_or("");
                // The content is the code as typed; the editor may have
                // escaped it already.
                let code = if content.contains('<') {
                    stoa_doc::escape::xml_text(content)
                } else {
                    content.to_string()
                };
                out.push_str(&format!(
                    "\n\n<pre><code class=\"language-{}\">{}</code></pre>\n\n",
                    stoa_doc::escape::xml_attribute(lang),
                    code.trim_matches('\n')
                ));
            }
            "contact-form" | "jetpack_subscription_form" | "jetpack-related-posts" => {}
            _ => {
                if !reported.contains(&name) {
                    reported.push(name.clone());
                    warnings.push(place.warning(format!(
                        "post `{slug}`: the shortcode [{name}] is WordPress's: its tags are dropped, its content kept"
                    )));
                }
                out.push_str(&shortcodes_in(
                    content,
                    attachments,
                    place,
                    slug,
                    warnings,
                    depth + 1,
                ));
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Block-level tags: a chunk of classic-editor text that starts with one
/// is not wrapped in `<p>`.
fn starts_block(chunk: &str) -> bool {
    const BLOCKS: &[&str] = &[
        "<p",
        "<div",
        "<h1",
        "<h2",
        "<h3",
        "<h4",
        "<h5",
        "<h6",
        "<ul",
        "<ol",
        "<li",
        "<dl",
        "<blockquote",
        "<pre",
        "<table",
        "<figure",
        "<hr",
        "<iframe",
        "<!--",
        "<script",
        "<style",
        "<section",
        "<form",
        "<address",
        "<math",
        "<video",
        "<audio",
        "<object",
    ];
    let lower = chunk
        .trim_start()
        .get(..12)
        .unwrap_or(chunk.trim_start())
        .to_ascii_lowercase();
    BLOCKS.iter().any(|b| lower.starts_with(b))
}

/// WordPress's `wpautop`, simplified: text between blank lines becomes a
/// paragraph, a single line break a `<br>`; `<pre>` is left alone.
fn autop(html: &str) -> String {
    let html = html.replace("\r\n", "\n");
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut rest = html.as_str();
    loop {
        let (before, pre, after) = match rest.find("<pre") {
            Some(i) => {
                let end = rest[i..].find("</pre>").map_or(rest.len(), |e| i + e + 6);
                (&rest[..i], &rest[i..end], &rest[end..])
            }
            None => (rest, "", ""),
        };
        // A line of spaces is a blank line too.
        let before: String = before
            .split('\n')
            .map(|l| if l.trim().is_empty() { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n");
        for chunk in before.split("\n\n") {
            let t = chunk.trim();
            if t.is_empty() {
                continue;
            }
            if starts_block(t) {
                out.push_str(t);
            } else {
                out.push_str("<p>");
                out.push_str(&t.replace('\n', "<br>\n"));
                out.push_str("</p>");
            }
            out.push('\n');
        }
        out.push_str(pre);
        if after.is_empty() {
            break;
        }
        rest = after;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sc(raw: &str) -> (String, Vec<Diagnostic>) {
        let mut w = Vec::new();
        let mut att = HashMap::new();
        att.insert(
            "7".to_string(),
            "https://blog.example/wp-content/uploads/a.jpg".to_string(),
        );
        let out = shortcodes(raw, &att, &Place::new("x.xml", Some(1)), "p", &mut w);
        (out, w)
    }

    #[test]
    fn shortcodes_become_html_or_text() {
        let (out, _) = sc(
            "[caption id=\"attachment_7\" align=\"alignnone\" width=\"300\"]<img src=\"a.jpg\" alt=\"\" /> A cat[/caption]",
        );
        assert!(
            out.contains(
                "<figure><img src=\"a.jpg\" alt=\"\" /><figcaption>A cat</figcaption></figure>"
            ),
            "{out}"
        );
        let (out, _) = sc("[gallery ids=\"7,9\"]");
        assert!(out.contains("uploads/a.jpg"), "{out}");
        let (out, _) = sc("[sic] and [1] stay; [[gallery]] is literal");
        assert_eq!(out, "[sic] and [1] stay; [gallery] is literal");
        let (out, w) = sc("[myplugin color=\"red\"]kept[/myplugin]");
        assert_eq!(out, "kept");
        assert!(w[0].message.contains("[myplugin]"));
        let (out, _) = sc("[sourcecode language=\"python\"]if a < b:\n    pass[/sourcecode]");
        assert!(
            out.contains(
                "<pre><code class=\"language-python\">if a &lt; b:\n    pass</code></pre>"
            ),
            "{out}"
        );
        let (out, _) = sc("[embed]https://www.youtube.com/watch?v=abc[/embed]");
        assert!(
            out.contains("wp-block-embed__wrapper\">https://www.youtube.com/watch?v=abc<"),
            "{out}"
        );
        // Unclosed and hostile: no panic, text kept.
        let (out, _) = sc("[caption width=\"3\"");
        assert_eq!(out, "[caption width=\"3\"");
    }

    #[test]
    fn classic_paragraphs() {
        assert_eq!(
            autop("One\nline\n\nTwo\n\n<pre>a\n\nb</pre>\n\n<h2>H</h2>"),
            "<p>One<br>\nline</p>\n<p>Two</p>\n<pre>a\n\nb</pre><h2>H</h2>\n"
        );
        assert_eq!(autop("One\n   \nTwo"), "<p>One</p>\n<p>Two</p>\n");
    }
}
