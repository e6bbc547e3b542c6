//! Shared by the readers and the writer: reading the source folder without
//! leaving it, and rewriting the destinations of a Markdown body's links
//! and images.

use crate::model::{Diagnostic, Place};
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};
use std::path::{Component, Path, PathBuf};

/// The most files a site folder may hold (content and static files
/// together); a larger folder is an error rather than a long walk.
pub(crate) const MAX_FILES: usize = 200_000;

/// Folder names never entered: version control, tools' caches and build
/// output (`public/` of Hugo, `_site/` of Jekyll, `node_modules/`).
const SKIPPED: &[&str] = &[
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "_site",
    "public",
    "resources",
    ".jekyll-cache",
    ".sass-cache",
    "vendor",
];

/// A file for messages: relative to the current folder when it is below it.
pub(crate) fn display(path: &Path) -> String {
    if let Ok(cwd) = std::env::current_dir()
        && let Ok(rel) = path.strip_prefix(&cwd)
    {
        return rel.display().to_string();
    }
    path.display().to_string()
}

/// The source folder, checked: it exists and is a folder.
pub(crate) fn source_folder(source: &Path, what: &str) -> Result<PathBuf, Vec<Diagnostic>> {
    let meta = std::fs::metadata(source).map_err(|e| {
        vec![
            Diagnostic::error(format!("cannot read the {what} folder: {e}"))
                .in_file(source.display().to_string())
                .with_hint(format!(
                    "give the folder of the {what} site (the one that holds its configuration)"
                )),
        ]
    })?;
    if !meta.is_dir() {
        return Err(vec![
            Diagnostic::error(format!("this is a file, not the {what} site's folder"))
                .in_file(source.display().to_string())
                .with_hint(format!(
                    "give the folder of the {what} site (the one that holds its configuration)"
                )),
        ]);
    }
    source.canonicalize().map_err(|e| {
        vec![
            Diagnostic::error(format!("cannot read the folder: {e}"))
                .in_file(source.display().to_string()),
        ]
    })
}

/// Every regular file below `dir` (inside `root`), sorted: symbolic links
/// are followed only when they stay inside `root`; a linked folder is not
/// entered (no loops). `Err` when there are more than [`MAX_FILES`].
pub(crate) fn walk(
    root: &Path,
    dir: &Path,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !SKIPPED.contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if kind.is_file() {
                out.push(path);
            } else if kind.is_symlink() {
                match inside(root, &path) {
                    Some(real) if real.is_file() => out.push(path),
                    Some(_) => {}
                    None => warnings.push(
                        Diagnostic::warning(
                            "a link that leads outside the site's folder, left out",
                        )
                        .in_file(display(&path))
                        .with_hint("copy the file into the site's folder to import it"),
                    ),
                }
            }
            if out.len() > MAX_FILES {
                return Err(Diagnostic::error(format!(
                    "the folder holds more than {MAX_FILES} files"
                ))
                .in_file(display(dir))
                .with_hint("give the site's own folder, not one above it"));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `path` with its links resolved, if it exists and is inside `root`
/// (itself canonical).
pub(crate) fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    real.starts_with(root).then_some(real)
}

/// The largest post read: what a stoa post may be (4 MiB), or less.
pub(crate) fn post_limit(options: &crate::model::ImportOptions) -> u64 {
    stoa_book::limits::MAX_TEXT_BYTES.min(options.max_file_size)
}

/// Reads a text file of the source: a regular file of at most `max` bytes,
/// valid UTF-8 (a byte-order mark dropped, CRLF kept as it is).
pub(crate) fn read_text(path: &Path, max: u64) -> Result<String, Diagnostic> {
    let shown = display(path);
    stoa_book::limits::regular_file(path, max).map_err(|why| {
        Diagnostic::error(format!("the file {why}"))
            .in_file(&shown)
            .with_hint(
                "import reads plain text files of a reasonable size; remove or shorten this one",
            )
    })?;
    let bytes = stoa_book::limits::read_bounded(path, max)
        .map_err(|e| Diagnostic::error(format!("cannot read the file: {e}")).in_file(&shown))?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error(format!(
            "the file is not valid UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        ))
        .in_file(&shown)
        .with_hint("save it as UTF-8, then import again")
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

/// A relative path of plain segments (no `..`, not absolute, no drive),
/// with `.` segments removed; `None` when it would leave its folder.
pub(crate) fn plain_relative(path: &str) -> Option<PathBuf> {
    if path.contains('\\') || path.contains('\0') {
        return None;
    }
    let mut out = PathBuf::new();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// The 1-based line of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// A place `offset` bytes into a body that starts at `start`.
pub(crate) fn place_in(start: &Place, body: &str, offset: usize) -> Place {
    start.down(line_of(body, offset) - 1)
}

/// What to do with one destination of a body.
pub(crate) enum Rewrite {
    /// Leave it.
    Keep,
    /// Write this destination instead.
    Dest(String),
    /// Replace the whole link or image with this Markdown.
    Whole(String),
}

/// Whether a destination is a link's or an image's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A link (inline, reference definition or autolink).
    Link,
    /// An image.
    Image,
}

/// `body` with the source of each HTML `<img>` it holds (outside code)
/// passed through `rewrite` (given the source, the `alt` text and the
/// tag's byte offset): `Dest` changes the source, `Whole` replaces the tag.
pub(crate) fn rewrite_html_images(
    body: &str,
    rewrite: &mut dyn FnMut(&str, &str, usize) -> Rewrite,
) -> String {
    let parser = Parser::new_ext(body, markdown_options());
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for (event, range) in parser.into_offset_iter() {
        if !matches!(event, Event::Html(_) | Event::InlineHtml(_)) {
            continue;
        }
        let html = &body[range.clone()];
        let mut from = 0;
        while let Some(at) = html[from..].to_ascii_lowercase().find("<img") {
            let start = from + at;
            let Some(tag) = html_tag(&html[start..]) else {
                break;
            };
            let attr = |name: &str| tag.attrs.iter().find(|(n, _)| n.eq_ignore_ascii_case(name));
            if let Some((_, (src, src_range))) = attr("src") {
                let alt = attr("alt").map_or("", |(_, (a, _))| a.as_str());
                let offset = range.start + start;
                match rewrite(src, alt, offset) {
                    Rewrite::Keep => {}
                    Rewrite::Dest(new) => {
                        let at = offset + src_range.start..offset + src_range.end;
                        edits.push((at, stoa_doc::escape::xml_attribute(&new)));
                    }
                    Rewrite::Whole(text) => edits.push((offset..offset + tag.len, text)),
                }
            }
            from = start + tag.len;
        }
    }
    let mut out = body.to_string();
    for (range, text) in edits.into_iter().rev() {
        out.replace_range(range, &text);
    }
    out
}

/// An HTML start tag: its length and its attributes, each with its value
/// and where the value is in the tag.
struct HtmlTag {
    len: usize,
    attrs: Vec<(String, (String, std::ops::Range<usize>))>,
}

/// The start tag at the beginning of `text` (`<img src="a.png" alt=x>`).
fn html_tag(text: &str) -> Option<HtmlTag> {
    let bytes = text.as_bytes();
    let mut i = 1;
    while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
        i += 1;
    }
    let mut attrs = Vec::new();
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if *bytes.get(i)? == b'>' {
            return Some(HtmlTag { len: i + 1, attrs });
        }
        let name_start = i;
        while i < bytes.len() && !b" \t\n\r=>/".contains(&bytes[i]) {
            i += 1;
        }
        let name = text[name_start..i].to_string();
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes.get(i) != Some(&b'=') {
            attrs.push((name, (String::new(), i..i)));
            continue;
        }
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let (value, range) = match bytes.get(i)? {
            q @ (b'"' | b'\'') => {
                let end = i + 1 + text[i + 1..].find(*q as char)?;
                let r = i + 1..end;
                i = end + 1;
                (text[r.clone()].to_string(), r)
            }
            _ => {
                let start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
                    i += 1;
                }
                (text[start..i].to_string(), start..i)
            }
        };
        attrs.push((name, (stoa_doc::escape::xml_unescape(&value), range)));
    }
}

/// `body` with each link and image destination passed through `rewrite`
/// (given the kind, the destination, the alt text for an image, and its
/// byte offset).
pub(crate) fn rewrite_destinations(
    body: &str,
    rewrite: &mut dyn FnMut(Target, &str, &str, usize) -> Rewrite,
) -> String {
    let parser = Parser::new_ext(body, markdown_options());
    // (range to replace, text)
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for (_, def) in parser.reference_definitions().iter() {
        let span = def.span.clone();
        let text = &body[span.clone()];
        if let Some(at) = text.rfind(def.dest.as_ref())
            && let Rewrite::Dest(new) = rewrite(Target::Link, &def.dest, "", span.start)
        {
            let start = span.start + at;
            edits.push((start..start + def.dest.len(), destination(&new)));
        }
    }
    let mut image: Option<(std::ops::Range<usize>, String, String)> = None;
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::Image {
                dest_url,
                link_type,
                ..
            }) if image.is_none() => {
                let inline = matches!(link_type, LinkType::Inline);
                image = Some((range, dest_url.to_string(), String::new()));
                if !inline {
                    // A reference image: only the whole can be replaced.
                    if let Some((_, _, alt)) = &mut image {
                        alt.push('\u{0}');
                    }
                }
            }
            Event::Text(t) | Event::Code(t) if image.is_some() => {
                if let Some((_, _, alt)) = &mut image {
                    alt.push_str(&t);
                }
            }
            Event::End(pulldown_cmark::TagEnd::Image) => {
                let Some((range, dest, alt)) = image.take() else {
                    continue;
                };
                let reference = alt.starts_with('\u{0}');
                let alt = alt.trim_start_matches('\u{0}').to_string();
                match rewrite(Target::Image, &dest, &alt, range.start) {
                    Rewrite::Keep => {}
                    Rewrite::Whole(text) => edits.push((range, text)),
                    Rewrite::Dest(new) if !reference => {
                        if let Some(edit) = dest_edit(body, &range, &dest, &new) {
                            edits.push(edit);
                        }
                    }
                    Rewrite::Dest(new) => edits.push((
                        range,
                        format!("![{}]({})", escape_brackets(&alt), destination(&new)),
                    )),
                }
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) if image.is_none() => {
                let inline = matches!(
                    link_type,
                    LinkType::Inline | LinkType::Autolink | LinkType::Email
                );
                if !inline {
                    continue;
                }
                if let Rewrite::Dest(new) = rewrite(Target::Link, &dest_url, "", range.start) {
                    if matches!(link_type, LinkType::Autolink) {
                        // `<https://…>` becomes `[https://…](new)`.
                        edits.push((
                            range,
                            format!("[{}]({})", escape_brackets(&dest_url), destination(&new)),
                        ));
                    } else if let Some(edit) = dest_edit(body, &range, &dest_url, &new) {
                        edits.push(edit);
                    }
                }
            }
            _ => {}
        }
    }
    apply(body, edits)
}

/// The edit replacing `dest` inside the inline link or image at `range`:
/// the last `(…)` holding it.
fn dest_edit(
    body: &str,
    range: &std::ops::Range<usize>,
    dest: &str,
    new: &str,
) -> Option<(std::ops::Range<usize>, String)> {
    let text = &body[range.clone()];
    let open = text.rfind("](")? + 2;
    let at = text[open..].find(dest).map(|i| open + i);
    match at {
        Some(at) => {
            // `<dest>` keeps its brackets; the new destination is written
            // so that it needs none.
            let start = range.start + at;
            Some((start..start + dest.len(), destination(new)))
        }
        None => {
            // Escapes in the destination: replace what stands between
            // `(` and the title or `)`.
            let inner = text.get(open..text.len().saturating_sub(1))?;
            let end = inner.find([' ', '\n', '\t']).unwrap_or(inner.len());
            Some((
                range.start + open..range.start + open + end,
                destination(new),
            ))
        }
    }
}

/// A destination as Markdown writes it: bare, or in `<…>` when it holds
/// spaces or parentheses.
pub(crate) fn destination(url: &str) -> String {
    if url.contains([' ', '(', ')', '<', '>']) {
        format!("<{}>", url.replace('<', "%3C").replace('>', "%3E"))
    } else {
        url.to_string()
    }
}

/// Text with `[`, `]` and `\` escaped, for a link's or an image's text.
pub(crate) fn escape_brackets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `body` with non-overlapping `edits` applied (overlapping ones dropped).
fn apply(body: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::with_capacity(body.len());
    let mut at = 0;
    for (range, text) in edits {
        if range.start < at || range.end > body.len() {
            continue;
        }
        out.push_str(&body[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&body[at..]);
    out
}

/// The Markdown dialect stoa reads, as written (no smart punctuation).
pub(crate) fn markdown_options() -> Options {
    stoa_markdown::VERBATIM_OPTIONS
}

/// A post's slug (its folder's name) from any text: lowercase ASCII
/// letters and digits joined by `-`, accents dropped (`Ação` gives `acao`),
/// as [`stoa_markdown::name_slug`] has it, short enough for a folder with
/// room for a `-2` or a language suffix.
pub(crate) fn post_slug(text: &str) -> String {
    let out = stoa_markdown::name_slug(text);
    let max = stoa_book::slug::MAX_LEN - 8;
    if out.len() <= max {
        return out;
    }
    // A slug is ASCII: any byte is a character boundary.
    out[..max].trim_end_matches('-').to_string()
}

/// A BCP 47 tag in the standard's case, from the way tools write it
/// (`pt-br`, `pt_BR`, `EN`): `pt-BR`, `en`, `zh-Hant-TW`.
pub(crate) fn canonical_tag(tag: &str) -> String {
    let mut out = Vec::new();
    for (i, part) in tag.trim().split(['-', '_']).enumerate() {
        let p = if i == 0 {
            part.to_ascii_lowercase()
        } else if part.len() == 4 && part.chars().all(|c| c.is_ascii_alphabetic()) {
            let mut p = part.to_ascii_lowercase();
            p[..1].make_ascii_uppercase();
            p
        } else if part.len() == 2 && part.chars().all(|c| c.is_ascii_alphabetic()) {
            part.to_ascii_uppercase()
        } else {
            part.to_ascii_lowercase()
        };
        out.push(p);
    }
    out.join("-")
}

/// True when `tag` is a language tag stoa takes (once made canonical).
pub(crate) fn is_language(tag: &str) -> bool {
    stoa_book::Language::parse(&canonical_tag(tag)).is_ok()
}

/// `body` with its ATX headings raised so that no level is skipped: a
/// chapter's title is the book's `h1`, and a blog post that starts at
/// `###` (under the page title its theme printed), or goes from `##` to
/// `####`, would skip a level, which a screen reader announces and Ace
/// reports (`heading-order`). Each heading is at most one level below the
/// one before it (the title first), its order kept: `###, ####, ##`
/// becomes `##, ###, ##`. Headings in code are not headings; a setext
/// heading (underlined) counts but is not rewritten.
pub(crate) fn raise_headings(body: &str) -> String {
    // (where its `#`s start, how many, the level it gets)
    let mut atx: Vec<(usize, usize, usize)> = Vec::new();
    let mut previous = 1;
    for (event, range) in Parser::new_ext(body, markdown_options()).into_offset_iter() {
        if let Event::Start(Tag::Heading { level, .. }) = event {
            let level = level as usize;
            let new = level.min(previous + 1);
            previous = new;
            let text = &body[range.clone()];
            let indent = text.len() - text.trim_start_matches(' ').len();
            let hashes = text[indent..].bytes().take_while(|b| *b == b'#').count();
            if hashes == level && new != level {
                atx.push((range.start + indent, hashes, new));
            }
        }
    }
    let mut out = String::with_capacity(body.len());
    let mut from = 0;
    for (at, hashes, new) in atx {
        out.push_str(&body[from..at]);
        out.push_str(&"#".repeat(new));
        from = at + hashes;
    }
    out.push_str(&body[from..]);
    out
}

/// The hex SHA-256 of `bytes`.
pub(crate) fn digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            use std::fmt::Write as _;
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[cfg(test)]
mod tests {

    #[test]
    fn headings_are_raised_so_that_no_level_is_skipped() {
        let post = "### Why\n\ntext\n\n#### How\n\n```\n### not a heading\n```\n\n> ### Quoted\n";
        assert_eq!(
            super::raise_headings(post),
            "## Why\n\ntext\n\n### How\n\n```\n### not a heading\n```\n\n> ### Quoted\n"
        );
        assert_eq!(
            super::raise_headings("### Features\n\n## Links\n\n#### Deep\n"),
            "## Features\n\n## Links\n\n### Deep\n"
        );
        assert_eq!(
            super::raise_headings("Title\n=====\n\n### B\n"),
            "Title\n=====\n\n## B\n"
        );
        for kept in [
            "## A\n\n### B\n",
            "no headings\n",
            "# One\n",
            "## A\n\n## B\n",
        ] {
            assert_eq!(super::raise_headings(kept), kept);
        }
    }
    use super::*;

    #[test]
    fn destinations_are_rewritten_in_place() {
        let body = "See [a](/x/) and ![p](img/p.png \"t\") and <https://e.org/y>.\n\n[r]: /z/\n";
        let out = rewrite_destinations(body, &mut |target, dest, _, _| match (target, dest) {
            (Target::Link, "/x/") => Rewrite::Dest("#x".into()),
            (Target::Image, "img/p.png") => Rewrite::Dest("p.png".into()),
            (Target::Link, "https://e.org/y") => Rewrite::Dest("#y".into()),
            (Target::Link, "/z/") => Rewrite::Dest("#z".into()),
            _ => Rewrite::Keep,
        });
        assert_eq!(
            out,
            "See [a](#x) and ![p](p.png \"t\") and [https://e.org/y](#y).\n\n[r]: #z\n"
        );
        let out = rewrite_destinations("![alt *x*](gone.png)\n", &mut |_, _, alt, _| {
            Rewrite::Whole(format!("({alt})"))
        });
        assert_eq!(out, "(alt x)\n");
    }

    #[test]
    fn paths_stay_inside() {
        assert_eq!(plain_relative("./a/b.png"), Some(PathBuf::from("a/b.png")));
        assert_eq!(plain_relative("../a.png"), None);
        assert_eq!(plain_relative("/etc/passwd"), None);
        assert_eq!(plain_relative("a/../../b"), None);
        assert_eq!(plain_relative("a\\..\\b"), None);
    }

    #[test]
    fn slugs_and_tags() {
        assert_eq!(post_slug("Ação e Reação!"), "acao-e-reacao");
        let long = post_slug(&"abc ".repeat(100));
        assert_eq!(long.len(), stoa_book::slug::MAX_LEN - 9);
        assert!(!long.ends_with('-'));
        assert_eq!(canonical_tag("pt-br"), "pt-BR");
        assert_eq!(canonical_tag("pt_BR"), "pt-BR");
        assert_eq!(canonical_tag("zh-hant-tw"), "zh-Hant-TW");
        assert!(is_language("pt-br"));
        assert!(!is_language("x"));
    }
}
