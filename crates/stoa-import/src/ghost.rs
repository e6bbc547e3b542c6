//! Ghost: the JSON file of Settings > Migrate > Export (or a zip holding
//! it, with `content/images/`), and the site's `content/images/` copied
//! beside it.
//!
//! `db[0].data.posts[]` (`type` `post`; pages are left out): `title`,
//! `slug`, `status` (`published`; `draft` and `scheduled` are left out
//! without `--drafts`), `visibility` (`members`, `paid` or tiers: private,
//! left out without `--drafts`), `published_at`, `custom_excerpt`, and the
//! body: `html`, or, where only that exists, `lexical` (Ghost 5) or
//! `mobiledoc` (Ghost 1–4) made HTML here. Tags through `posts_tags`
//! (internal `#tags` left out), the author through `posts_authors`, the
//! site's `title`, `description` and `locale` from `settings`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::export::{self, Files};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::util;

/// Reads a Ghost export: the JSON file, a zip holding it, or a folder
/// holding one.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let file = crate::wordpress::export_file(source, &["json", "zip"], "Ghost export (JSON)")?;
    let shown = util::display(&file);
    if file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
    {
        let entries = export::read_zip(&file, options)?;
        let json_name = entries
            .keys()
            .find(|k| k.ends_with(".json") && !k.contains('/'))
            .or_else(|| entries.keys().find(|k| k.ends_with(".json")))
            .cloned()
            .ok_or_else(|| {
                vec![Diagnostic::error("the zip holds no .json file: it is not a Ghost export")
                    .in_file(&shown)
                    .with_hint("export the site from Ghost's Settings > Migrate > Export, and give that file")]
            })?;
        let text = String::from_utf8(entries[&json_name].clone()).map_err(|_| {
            vec![
                Diagnostic::error(format!("`{json_name}` in the zip is not UTF-8 text"))
                    .in_file(&shown),
            ]
        })?;
        let shown = format!("{shown}:{json_name}");
        return read_text(&text, &shown, &Files::Zip(entries), options);
    }
    let text = util::read_text(&file, options.max_file_size).map_err(|d| vec![d])?;
    let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let files = Files::folder(if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        &folder
    });
    read_text(&text, &shown, &files, options)
}

/// A JSON path for messages: `db[0].data.posts[3].title`.
fn at(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn id_of(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
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
    let json: Value = serde_json::from_str(text).map_err(|e| {
        let hint = if e.to_string().contains("recursion limit") {
            "the JSON nests deeper than 128 levels, which no Ghost export does; give the export as Ghost wrote it"
        } else if e.is_eof() {
            "the file ends in the middle of the JSON: it was cut short. Export the site from Ghost again"
        } else {
            "the export is not valid JSON there; export the site from Ghost again"
        };
        vec![Diagnostic::error(format!("not a readable Ghost export: {e}"))
            .in_file(shown)
            .at(e.line().max(1), e.column().max(1))
            .with_hint(hint)]
    })?;
    let not_ghost = |what: &str| {
        vec![Diagnostic::error(format!("not a Ghost export: {what}"))
            .in_file(shown)
            .with_hint("export the site from Ghost's Settings > Migrate > Export, and give that JSON file")]
    };
    // `{"db": [{"meta": …, "data": …}]}`, or the inner object alone.
    let (data, data_path) = match json.get("db") {
        Some(Value::Array(dbs)) => (
            dbs.first()
                .and_then(|d| d.get("data"))
                .ok_or_else(|| not_ghost("`db[0].data` is missing"))?,
            "db[0].data",
        ),
        Some(_) => return Err(not_ghost("`db` is not an array")),
        None => (
            json.get("data")
                .ok_or_else(|| not_ghost("it has neither `db` nor `data`"))?,
            "data",
        ),
    };
    let posts_json = match data.get("posts") {
        Some(Value::Array(p)) => p,
        Some(_) => return Err(not_ghost(&format!("`{data_path}.posts` is not an array"))),
        None => return Err(not_ghost(&format!("`{data_path}.posts` is missing"))),
    };
    let array = |key: &str| {
        data.get(key)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    };
    let mut settings: HashMap<&str, &str> = HashMap::new();
    for s in array("settings") {
        if let (Some(k), Some(v)) = (str_of(s, "key"), s.get("value").and_then(Value::as_str)) {
            settings.insert(k, v);
        }
    }
    let tags: HashMap<String, &Value> = array("tags")
        .iter()
        .filter_map(|t| Some((id_of(t, "id")?, t)))
        .collect();
    let users: HashMap<String, &Value> = array("users")
        .iter()
        .filter_map(|u| Some((id_of(u, "id")?, u)))
        .collect();
    let mut post_tags: HashMap<String, Vec<(i64, String)>> = HashMap::new();
    for pt in array("posts_tags") {
        if let (Some(p), Some(t)) = (id_of(pt, "post_id"), id_of(pt, "tag_id")) {
            let order = pt.get("sort_order").and_then(Value::as_i64).unwrap_or(0);
            post_tags.entry(p).or_default().push((order, t));
        }
    }
    let mut post_authors: HashMap<String, String> = HashMap::new();
    for pa in array("posts_authors") {
        if let (Some(p), Some(a)) = (id_of(pa, "post_id"), id_of(pa, "author_id")) {
            post_authors.entry(p).or_insert(a);
        }
    }
    let site_url = settings
        .get("url")
        .map(|u| u.trim_end_matches('/').to_string());
    let bases: Vec<String> = site_url.iter().cloned().collect();
    let mut warnings = Vec::new();
    let mut posts = Vec::new();
    let mut authors: Vec<String> = Vec::new();
    let (mut drafts, mut private) = (0, 0);
    for (i, p) in posts_json.iter().enumerate() {
        let path = format!("{data_path}.posts[{i}]");
        let place = Place::new(format!("{shown} ({path})"), None);
        if !p.is_object() {
            warnings.push(place.warning("not an object: left out"));
            continue;
        }
        if str_of(p, "type").is_some_and(|t| t != "post") {
            continue;
        }
        let visibility = str_of(p, "visibility").unwrap_or("public");
        let status = match str_of(p, "status").unwrap_or("published") {
            "published" if visibility == "public" => Status::Published,
            "published" | "scheduled" | "sent" => Status::Private,
            _ => Status::Draft,
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
        let Some(title) = str_of(p, "title") else {
            warnings.push(place.warning(format!(
                "`{}` is missing or not a string: the post is left out",
                at(&path, "title")
            )));
            continue;
        };
        let id = id_of(p, "id").unwrap_or_default();
        let slug = str_of(p, "slug")
            .map(str::to_string)
            .unwrap_or_else(|| util::post_slug(title));
        let mut post = Post {
            slug: slug.clone(),
            title: title.to_string(),
            date: str_of(p, "published_at")
                .or_else(|| str_of(p, "created_at"))
                .and_then(export::iso_date),
            status,
            description: str_of(p, "custom_excerpt").map(stoa_html_md::plain_text),
            source: place.clone(),
            ..Post::default()
        };
        if let Some(list) = post_tags.get_mut(&id) {
            list.sort();
            for (_, t) in list.iter() {
                if let Some(name) = tags.get(t).and_then(|t| str_of(t, "name"))
                    && !name.starts_with('#')
                {
                    post.tags.push(name.to_string());
                }
            }
        }
        if let Some(name) = post_authors
            .get(&id)
            .and_then(|a| users.get(a))
            .and_then(|u| str_of(u, "name"))
            && !authors.iter().any(|a| a == name)
        {
            authors.push(name.to_string());
        }
        if let Some(base) = &site_url {
            post.urls.push(format!("{base}/{slug}/"));
        }
        post.urls.push(format!("/{slug}/"));
        let html = match str_of(p, "html") {
            Some(h) => h.to_string(),
            None => {
                match (str_of(p, "lexical"), str_of(p, "mobiledoc")) {
                    (Some(lex), _) => match serde_json::from_str::<Value>(lex) {
                        Ok(v) => lexical_html(&v),
                        Err(e) => {
                            warnings.push(place.warning(format!(
                                "`{}` is not readable JSON ({e}): the post's body is empty",
                                at(&path, "lexical")
                            )));
                            String::new()
                        }
                    },
                    (None, Some(md)) => match serde_json::from_str::<Value>(md) {
                        Ok(v) => mobiledoc_html(&v),
                        Err(e) => {
                            warnings.push(place.warning(format!(
                                "`{}` is not readable JSON ({e}): the post's body is empty",
                                at(&path, "mobiledoc")
                            )));
                            String::new()
                        }
                    },
                    (None, None) => {
                        warnings.push(place.warning(format!("post `{slug}` has no `html`, `lexical` or `mobiledoc`: its body is empty")));
                        String::new()
                    }
                }
            }
        };
        let html = html.replace("__GHOST_URL__", site_url.as_deref().unwrap_or(""));
        let cx = export::Export::new(files, &bases, options, web.as_ref());
        export::html_body(&html, &mut post, &cx, &mut warnings);
        posts.push(post);
    }
    warnings.extend(export::left_out(shown, drafts, private));
    let locale = settings
        .get("locale")
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty());
    warnings.extend(web.and_then(|w| w.summary()));
    Ok(Imported {
        site: Site {
            translated: Vec::new(),
            title: settings
                .get("title")
                .map(|t| stoa_html_md::plain_text(t))
                .filter(|t| !t.is_empty()),
            description: settings
                .get("description")
                .map(|t| stoa_html_md::plain_text(t))
                .filter(|t| !t.is_empty()),
            author: (!authors.is_empty()).then(|| authors.join(", ")),
            languages: locale.into_iter().collect(),
            base_url: site_url,
            config: Some(Place::new(shown, None)),
        },
        posts,
        warnings,
    })
}

fn esc(s: &str) -> String {
    // Read back by html5ever, which decodes every reference.
    stoa_doc::escape::xml_attribute(s)
}

/// A Lexical document (Ghost 5's editor) as HTML: the nodes Ghost's
/// renderer writes, cards as Ghost renders them.
fn lexical_html(doc: &Value) -> String {
    let mut out = String::new();
    if let Some(children) = doc
        .get("root")
        .and_then(|r| r.get("children"))
        .and_then(Value::as_array)
    {
        for c in children {
            lexical_node(c, &mut out, 0);
        }
    }
    out
}

fn lexical_children(n: &Value, out: &mut String, depth: usize) {
    if let Some(children) = n.get("children").and_then(Value::as_array) {
        for c in children {
            lexical_node(c, out, depth + 1);
        }
    }
}

fn lexical_node(n: &Value, out: &mut String, depth: usize) {
    if depth > 64 {
        return;
    }
    let s = |k: &str| n.get(k).and_then(Value::as_str).unwrap_or("");
    match s("type") {
        "paragraph" | "extended-text" => {
            out.push_str("<p>");
            lexical_children(n, out, depth);
            out.push_str("</p>");
        }
        "heading" | "extended-heading" => {
            let tag = match s("tag") {
                t @ ("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => t,
                _ => "h2",
            };
            let _ = write!(out, "<{tag}>");
            lexical_children(n, out, depth);
            let _ = write!(out, "</{tag}>");
        }
        "quote" | "extended-quote" | "aside" => {
            out.push_str("<blockquote>");
            lexical_children(n, out, depth);
            out.push_str("</blockquote>");
        }
        "list" => {
            let tag = if s("listType") == "number" {
                "ol"
            } else {
                "ul"
            };
            let _ = write!(out, "<{tag}>");
            lexical_children(n, out, depth);
            let _ = write!(out, "</{tag}>");
        }
        "listitem" => {
            out.push_str("<li>");
            lexical_children(n, out, depth);
            out.push_str("</li>");
        }
        "text" | "extended-text-node" => {
            let format = n.get("format").and_then(Value::as_u64).unwrap_or(0);
            let marks = [(1, "strong"), (2, "em"), (4, "s"), (16, "code")];
            for (bit, tag) in marks {
                if format & bit != 0 {
                    let _ = write!(out, "<{tag}>");
                }
            }
            out.push_str(&esc(s("text")));
            for (bit, tag) in marks.iter().rev() {
                if format & bit != 0 {
                    let _ = write!(out, "</{tag}>");
                }
            }
        }
        "link" | "autolink" => {
            let _ = write!(out, "<a href=\"{}\">", esc(s("url")));
            lexical_children(n, out, depth);
            out.push_str("</a>");
        }
        "linebreak" => out.push_str("<br>"),
        "horizontalrule" => out.push_str("<hr>"),
        "codeblock" => {
            let _ = write!(
                out,
                "<pre><code class=\"language-{}\">{}</code></pre>",
                esc(s("language")),
                esc(s("code"))
            );
        }
        "code" => {
            out.push_str("<pre><code>");
            lexical_children(n, out, depth);
            out.push_str("</code></pre>");
        }
        "image" => {
            let _ = write!(
                out,
                "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
                esc(s("src")),
                esc(s("alt")),
                s("caption")
            );
        }
        "gallery" => {
            out.push_str("<figure>");
            for img in n
                .get("images")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let src = img.get("src").and_then(Value::as_str).unwrap_or("");
                let alt = img.get("alt").and_then(Value::as_str).unwrap_or("");
                let _ = write!(out, "<img src=\"{}\" alt=\"{}\">", esc(src), esc(alt));
            }
            let _ = write!(out, "<figcaption>{}</figcaption></figure>", s("caption"));
        }
        "markdown" => out.push_str(&markdown_html(s("markdown"))),
        "html" => out.push_str(s("html")),
        "embed" => {
            let _ = write!(
                out,
                "<figure class=\"wp-block-embed\"><div class=\"wp-block-embed__wrapper\">{}</div><figcaption>{}</figcaption></figure>",
                esc(s("url")),
                s("caption")
            );
        }
        "bookmark" => {
            let meta = n.get("metadata");
            let title = meta
                .and_then(|m| m.get("title"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let desc = meta
                .and_then(|m| m.get("description"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let _ = write!(
                out,
                "<figure class=\"kg-card kg-bookmark-card\"><a class=\"kg-bookmark-container\" href=\"{}\"><div class=\"kg-bookmark-title\">{}</div><div class=\"kg-bookmark-description\">{}</div></a><figcaption>{}</figcaption></figure>",
                esc(s("url")),
                esc(title),
                esc(desc),
                s("caption")
            );
        }
        "callout" => {
            let _ = write!(
                out,
                "<blockquote><p>{} {}</p></blockquote>",
                esc(s("calloutEmoji")),
                s("calloutText")
            );
        }
        "toggle" => {
            let _ = write!(
                out,
                "<p><strong>{}</strong></p>{}",
                s("heading"),
                s("content")
            );
        }
        // Buttons, sign-up forms, paywall markers, products, files: page
        // furniture.
        "button" | "signup" | "paywall" | "email-cta" | "email" | "product" | "file" | "header"
        | "call-to-action" => {}
        "video" | "audio" => {
            let _ = write!(out, "<video src=\"{}\"></video>", esc(s("src")));
        }
        _ => lexical_children(n, out, depth),
    }
}

/// Markdown (a Ghost Markdown card) as HTML, to join the rest of the body.
fn markdown_html(md: &str) -> String {
    let mut html = String::new();
    pulldown_cmark::html::push_html(
        &mut html,
        pulldown_cmark::Parser::new_ext(md, util::markdown_options()),
    );
    html
}

/// A Mobiledoc document (Ghost 1–4) as HTML: its sections, markups and
/// cards.
fn mobiledoc_html(doc: &Value) -> String {
    let empty = Vec::new();
    let arr = |k: &str| doc.get(k).and_then(Value::as_array).unwrap_or(&empty);
    let markups = arr("markups");
    let cards = arr("cards");
    let atoms = arr("atoms");
    let mut out = String::new();
    let markers = |ms: &Value, out: &mut String| {
        let mut open: Vec<String> = Vec::new();
        for m in ms.as_array().into_iter().flatten() {
            let Some(m) = m.as_array() else { continue };
            let kind = m.first().and_then(Value::as_u64).unwrap_or(0);
            for idx in m.get(1).and_then(Value::as_array).into_iter().flatten() {
                let Some(mk) = idx
                    .as_u64()
                    .and_then(|i| markups.get(i as usize))
                    .and_then(Value::as_array)
                else {
                    continue;
                };
                let tag = mk.first().and_then(Value::as_str).unwrap_or("span");
                let tag = match tag {
                    "a" | "strong" | "b" | "em" | "i" | "code" | "s" | "sup" | "sub" | "u" => tag,
                    _ => "span",
                };
                let mut attrs = String::new();
                if let Some(list) = mk.get(1).and_then(Value::as_array) {
                    for pair in list.chunks(2) {
                        if let [Value::String(k), Value::String(v)] = pair
                            && k == "href"
                        {
                            let _ = write!(attrs, " href=\"{}\"", esc(v));
                        }
                    }
                }
                let _ = write!(out, "<{tag}{attrs}>");
                open.push(tag.to_string());
            }
            let value = m.get(3);
            if kind == 1 {
                let atom = value
                    .and_then(Value::as_u64)
                    .and_then(|i| atoms.get(i as usize));
                if let Some(text) = atom.and_then(|a| a.get(1)).and_then(Value::as_str) {
                    out.push_str(&esc(text));
                }
            } else if let Some(t) = value.and_then(Value::as_str) {
                out.push_str(&esc(t));
            }
            let closed = m.get(2).and_then(Value::as_u64).unwrap_or(0) as usize;
            for _ in 0..closed.min(open.len()) {
                if let Some(t) = open.pop() {
                    let _ = write!(out, "</{t}>");
                }
            }
        }
        while let Some(t) = open.pop() {
            let _ = write!(out, "</{t}>");
        }
    };
    for sec in arr("sections") {
        let Some(sec) = sec.as_array() else { continue };
        match sec.first().and_then(Value::as_u64) {
            Some(1) => {
                let tag =
                    match sec
                        .get(1)
                        .and_then(Value::as_str)
                        .unwrap_or("p")
                        .to_ascii_lowercase()
                        .as_str()
                    {
                        t @ ("p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote"
                        | "aside") => t.to_string(),
                        _ => "p".to_string(),
                    };
                let tag = if tag == "aside" {
                    "blockquote".to_string()
                } else {
                    tag
                };
                let _ = write!(out, "<{tag}>");
                if let Some(ms) = sec.get(2) {
                    markers(ms, &mut out);
                }
                let _ = write!(out, "</{tag}>");
            }
            Some(3) => {
                let tag = if sec.get(1).and_then(Value::as_str) == Some("ol") {
                    "ol"
                } else {
                    "ul"
                };
                let _ = write!(out, "<{tag}>");
                for item in sec.get(2).and_then(Value::as_array).into_iter().flatten() {
                    out.push_str("<li>");
                    markers(item, &mut out);
                    out.push_str("</li>");
                }
                let _ = write!(out, "</{tag}>");
            }
            Some(10) => {
                let card = sec
                    .get(1)
                    .and_then(Value::as_u64)
                    .and_then(|i| cards.get(i as usize))
                    .and_then(Value::as_array);
                let Some(card) = card else { continue };
                let name = card.first().and_then(Value::as_str).unwrap_or("");
                let payload = card.get(1).cloned().unwrap_or(Value::Null);
                let p = |k: &str| {
                    payload
                        .get(k)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                match name {
                    "markdown" | "card-markdown" => out.push_str(&markdown_html(&p("markdown"))),
                    "html" => out.push_str(&p("html")),
                    "image" => {
                        let _ = write!(
                            out,
                            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
                            esc(&p("src")),
                            esc(&p("alt")),
                            p("caption")
                        );
                    }
                    "code" => {
                        let _ = write!(
                            out,
                            "<pre><code class=\"language-{}\">{}</code></pre>",
                            esc(&p("language")),
                            esc(&p("code"))
                        );
                    }
                    "hr" => out.push_str("<hr>"),
                    "embed" => {
                        let _ = write!(
                            out,
                            "<figure class=\"wp-block-embed\"><div class=\"wp-block-embed__wrapper\">{}</div><figcaption>{}</figcaption></figure>",
                            esc(&p("url")),
                            p("caption")
                        );
                    }
                    "bookmark" => {
                        let meta = payload.get("metadata");
                        let title = meta
                            .and_then(|m| m.get("title"))
                            .and_then(Value::as_str)
                            .unwrap_or("");
                        let _ = write!(
                            out,
                            "<figure class=\"kg-bookmark-card\"><a href=\"{}\"><div class=\"kg-bookmark-title\">{}</div></a></figure>",
                            esc(&p("url")),
                            esc(title)
                        );
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_and_mobiledoc_bodies() {
        let lex: Value = serde_json::from_str(r##"{"root":{"children":[
            {"type":"heading","tag":"h2","children":[{"type":"text","text":"Head","format":0}]},
            {"type":"paragraph","children":[{"type":"text","text":"bold","format":1},{"type":"text","text":" <x>","format":0},
              {"type":"link","url":"https://a.org","children":[{"type":"text","text":"link","format":2}]}]},
            {"type":"codeblock","language":"rust","code":"fn a() {}"},
            {"type":"button","buttonText":"Subscribe","buttonUrl":"x"}]}}"##).unwrap();
        let md = stoa_html_md::to_markdown(&lexical_html(&lex)).markdown;
        assert_eq!(
            md,
            "## Head\n\n**bold** \\<x>[*link*](https://a.org)\n\n```rust\nfn a() {}\n```\n"
        );
        let mob: Value = serde_json::from_str(r#"{"version":"0.3.1","atoms":[],"markups":[["strong"],["a",["href","https://b.org"]]],
            "cards":[["markdown",{"markdown":"- one\n- two"}],["hr",{}]],
            "sections":[[1,"p",[[0,[0],1,"Bold"],[0,[],0," and "],[0,[1],1,"a link"]]],[10,0],[10,1],[3,"ol",[[[0,[],0,"first"]]]]]}"#).unwrap();
        let md = stoa_html_md::to_markdown(&mobiledoc_html(&mob)).markdown;
        assert_eq!(
            md,
            "**Bold** and [a link](https://b.org)\n\n- one\n- two\n\n---\n\n1. first\n"
        );
    }
}
