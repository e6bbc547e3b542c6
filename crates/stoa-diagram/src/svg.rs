//! From the renderer's SVG to one that every format can embed: a root
//! with a natural size (Typst needs one), `role="img"` with a title and a
//! description (screen readers), the book's font, and ids unique in the
//! book (several drawings share one XHTML page).

use stoa_doc::escape::{xml_attribute, xml_text};

/// The caption written as the diagram's front-matter `title:`, and the
/// code without it (so the renderer does not draw the title as well).
pub(crate) fn split_caption(source: &str) -> (Option<String>, String) {
    let lines: Vec<&str> = source.lines().collect();
    let start = lines.iter().position(|l| !l.trim().is_empty());
    let Some(start) = start.filter(|&i| lines[i].trim() == "---") else {
        return (None, source.to_string());
    };
    let Some(end) = lines[start + 1..]
        .iter()
        .position(|l| l.trim() == "---")
        .map(|i| start + 1 + i)
    else {
        return (None, source.to_string());
    };
    let mut caption = None;
    let mut kept: Vec<&str> = Vec::new();
    for line in &lines[start + 1..end] {
        match line.strip_prefix("title:") {
            Some(value) if caption.is_none() => {
                let value = value.trim();
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                    .unwrap_or(value);
                caption = Some(value.to_string()).filter(|c| !c.is_empty());
            }
            _ => kept.push(line),
        }
    }
    let mut out = String::new();
    if kept.iter().any(|l| !l.trim().is_empty()) {
        out.push_str("---\n");
        for line in kept {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str("---\n");
    }
    for line in &lines[end + 1..] {
        out.push_str(line);
        out.push('\n');
    }
    (caption, out)
}

/// The space added round a drawing, in CSS pixels.
const MARGIN: f64 = 8.0;

/// An SVG ready to embed, with its natural size.
pub(crate) struct Finished {
    pub(crate) svg: String,
    pub(crate) width: f64,
    pub(crate) height: f64,
}

/// Rewrites the renderer's `raw` SVG: see the module's comment. `None`
/// when `raw` has no `<svg>` root with a usable `viewBox`.
pub(crate) fn finish(raw: &str, prefix: &str, title: &str, desc: &str) -> Option<Finished> {
    let open = raw.find("<svg")?;
    let close = open + raw[open..].find('>')?;
    let root = &raw[open..=close];
    let view_box = attr(root, "viewBox")?;
    let numbers: Vec<f64> = view_box
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    let [x, y, width, height] = numbers[..] else {
        return None;
    };
    if !(width.is_finite() && height.is_finite() && width > 0.0 && height > 0.0) {
        return None;
    }
    // A margin all round: the renderer draws some frames a few pixels
    // outside its own view box, and a drawing should not touch its edge.
    let (x, y, width, height) = (
        x - MARGIN,
        y - MARGIN,
        width + 2.0 * MARGIN,
        height + 2.0 * MARGIN,
    );
    let view_box = [x, y, width, height].map(crate::number).join(" ");
    let font_size = attr(root, "font-size").unwrap_or("14");
    let body = &raw[close + 1..];
    let body = without_elements(body, "title");
    let body = without_elements(&body, "desc");
    let body = prefixed_ids(&body, prefix);
    let body = replace_font(&body);
    let svg = format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vb}" width="{w}" height="{h}" "#,
            r#"role="img" aria-labelledby="{p}title {p}desc" font-family="{font}" font-size="{fs}">"#,
            r#"<title id="{p}title">{title}</title><desc id="{p}desc">{desc}</desc>"#,
            r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#ffffff"/>{body}"##
        ),
        vb = view_box,
        x = crate::number(x),
        y = crate::number(y),
        w = crate::number(width),
        h = crate::number(height),
        p = prefix,
        font = crate::FONT,
        fs = xml_attribute(font_size),
        title = xml_text(title),
        desc = xml_text(desc),
        body = body,
    );
    Some(Finished { svg, width, height })
}

/// The value of attribute `name` in the start tag `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let needle = format!(" {name}=\"");
    let start = tag.find(&needle)? + needle.len();
    let end = start + tag[start..].find('"')?;
    Some(&tag[start..end])
}

/// `body` without any `<name …>…</name>` element (the renderer's own title
/// and description, which ours replace).
fn without_elements(body: &str, name: &str) -> String {
    let open = format!("<{name}");
    let close = format!("</{name}>");
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find(&open) {
        let after = rest[i + open.len()..].chars().next();
        if !matches!(after, Some('>' | ' ')) {
            out.push_str(&rest[..i + open.len()]);
            rest = &rest[i + open.len()..];
            continue;
        }
        out.push_str(&rest[..i]);
        match rest[i..].find(&close) {
            Some(j) => rest = &rest[i + j + close.len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every `id="x"` becomes `id="<prefix>x"`, and every reference to it
/// (`url(#x)`, `href="#x"`) follows.
fn prefixed_ids(body: &str, prefix: &str) -> String {
    let mut ids = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find(" id=\"") {
        let start = i + 5;
        let Some(len) = rest[start..].find('"') else {
            break;
        };
        ids.push(rest[start..start + len].to_string());
        rest = &rest[start + len..];
    }
    let mut out = body.to_string();
    ids.sort();
    ids.dedup();
    // Longest first, so that `a-b` is not half-rewritten by `a`.
    ids.sort_by_key(|id| std::cmp::Reverse(id.len()));
    for id in ids {
        for (from, to) in [
            (format!(" id=\"{id}\""), format!(" id=\"{prefix}{id}\"")),
            (format!("url(#{id})"), format!("url(#{prefix}{id})")),
            (format!("href=\"#{id}\""), format!("href=\"#{prefix}{id}\"")),
        ] {
            out = out.replace(&from, &to);
        }
    }
    out
}

/// The renderer's own font families give way to the book's.
fn replace_font(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    let needle = " font-family=\"";
    while let Some(i) = rest.find(needle) {
        let start = i + needle.len();
        let Some(len) = rest[start..].find('"') else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(crate::FONT);
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out
}
