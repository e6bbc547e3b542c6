//! The web edition: for each book and language a folder of static pages
//! (`stoa build -f html`), read in any browser, no JavaScript needed.
//!
//! The folder holds `index.html` (cover, title, description, contents),
//! one `<slug>.html` per chapter (with its notes, previous and next),
//! `style.css` (the theme's `web.css` and the plugins' `html` styles),
//! `cover.png` when the driver drew a cover, and the book's images under
//! the names the chapters use. The chapters are written by `stoa-xhtml`,
//! the same code as the EPUB's, so both editions say the same.

mod languages;
mod pages;

use stoa_doc::{Book, Diagnostic};
use stoa_render::stoa_image::Target as ImageTarget;
use stoa_render::{Body, Format, ImageSettings, Output, RenderContext, Rendered, Renderer};
use stoa_xhtml::{Flavor, Markup};

/// The web edition's renderer.
pub struct HtmlRenderer;

impl Renderer for HtmlRenderer {
    fn name(&self) -> &'static str {
        Format::Html.name()
    }

    /// Images for a screen, and a smaller copy for phones: see
    /// [`ImageSettings::web`].
    fn image_target(&self, _book: &Book, settings: &ImageSettings) -> Option<ImageTarget> {
        Some(settings.web())
    }

    fn label(&self) -> &'static str {
        "HTML"
    }

    fn media_type(&self) -> &'static str {
        "text/html"
    }

    /// The web edition is a folder of pages, opened at `index.html`.
    fn writes_folder(&self) -> bool {
        true
    }

    /// Each chapter links to the same chapter in the other languages.
    fn links_languages(&self) -> bool {
        true
    }

    /// Raw output for this format: see [`Renderer::check_raw`].
    fn check_raw(&self, payload: &str, inline: bool) -> Result<(), String> {
        stoa_xhtml::raw::render(payload, stoa_xhtml::Flavor::Html, inline).map(drop)
    }

    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>> {
        let css = ctx.theme.read_to_string("web.css").map_err(|e| {
            vec![Diagnostic::error(format!(
                "cannot read the theme's style sheet {}: {e}",
                ctx.theme.describe("web.css")
            ))]
        })?;
        let files = render_site(ctx, &css)?;
        Ok(Rendered {
            output: Output::Folder(files),
            ..Rendered::default()
        })
    }
}

/// The internal error of a web edition that failed the last gate.
fn gate_error(book: &stoa_doc::Book, problems: &[String]) -> Diagnostic {
    let post_of = |file: &str| {
        let chapter = book
            .chapters
            .iter()
            .find(|c| file == format!("{}.html", c.slug))?;
        chapter.source.clone()
    };
    Diagnostic::error(stoa_gate::report("web edition", problems, post_of))
        .with_hint(stoa_gate::HINT)
}

/// The start page's file.
const INDEX: &str = "index.html";
/// The style sheet's file.
const STYLESHEET: &str = "style.css";
/// The cover's file.
const COVER: &str = "cover.png";

/// Every file of the edition of `ctx`, styled by the theme's `css`, as
/// (relative path, body), sorted by path: the pages in memory, each image
/// the file it is copied from.
pub fn render_site(
    ctx: &RenderContext,
    theme_css: &str,
) -> Result<Vec<(String, Body)>, Vec<Diagnostic>> {
    let book = ctx.book;
    check_names(book)?;
    let markup = Markup::new(book, ctx.notes, ctx.ids, Flavor::Html)
        .with_pages(ctx.pages)
        .with_images(ctx.images);
    let cover = ctx.cover_png.map(|png| pages::Cover {
        file: COVER,
        size: png_size(png),
    });
    let mut files: Vec<(String, Body)> = vec![
        (
            INDEX.to_string(),
            pages::index(&markup, cover.as_ref(), ctx.alternates, ctx.layout)
                .into_bytes()
                .into(),
        ),
        (
            STYLESHEET.to_string(),
            stylesheet(book, theme_css).into_bytes().into(),
        ),
    ];
    // Each chapter's part, once for the edition.
    let parts = ctx.layout.part_of_chapters(&book.chapters);
    for (i, part) in parts.into_iter().enumerate() {
        let part = part.map(|p| (p, ctx.layout.parts[p].title.as_str()));
        files.push((
            markup.chapter_file(i),
            pages::chapter(&markup, i, ctx.alternates, part)
                .into_bytes()
                .into(),
        ));
    }
    if let Some(png) = ctx.cover_png {
        files.push((COVER.to_string(), png.to_vec().into()));
    }
    // An image is copied from its file as the edition is written.
    let read = |path: &std::path::Path| match std::fs::metadata(path) {
        Ok(_) => Ok(Body::File(path.to_path_buf())),
        Err(e) => Err(vec![Diagnostic::error(format!(
            "cannot read the image {}: {e}",
            path.display()
        ))]),
    };
    for asset in &book.assets {
        let (path, _) = ctx.image_file(asset);
        files.push((asset.name.clone(), read(path)?));
        // The smaller copy its page offers phones (`srcset`).
        let smaller = ctx
            .images
            .and_then(|m| m.get(&asset.name))
            .and_then(|made| made.smaller.as_ref());
        if let Some((path, width)) = smaller {
            files.push((stoa_render::smaller_name(&asset.name, *width), read(path)?));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    // The last gate: a page of stoa's own making that links nowhere or
    // repeats an id stops the edition, never reaches a reader.
    let pages: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, body)| match body {
            Body::Bytes(bytes) => (name.as_str(), bytes.as_slice()),
            _ => (name.as_str(), [].as_slice()),
        })
        .collect();
    stoa_gate::web(&pages).map_err(|problems| vec![gate_error(book, &problems)])?;
    Ok(files)
}

/// Refuses what would overwrite a page or leave the folder: a chapter
/// called like the start page, an image name that is not a plain
/// relative path, or one file name used twice.
fn check_names(book: &Book) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut names = vec![INDEX.to_string(), STYLESHEET.to_string(), COVER.to_string()];
    for chapter in &book.chapters {
        let file = Flavor::Html.file(&chapter.slug);
        if names.contains(&file) {
            let mut error = Diagnostic::error(format!(
                "the chapter `{}` would be written over the web edition's {file}",
                chapter.slug
            ))
            .with_hint("rename the post's folder, and its name in book.toml's `posts`");
            if let Some(source) = &chapter.source {
                error = error.in_file(source);
            }
            errors.push(error);
        }
        names.push(file);
    }
    for asset in &book.assets {
        let plain = !asset.name.is_empty()
            && !asset.name.starts_with('/')
            && !asset.name.contains('\\')
            && asset
                .name
                .split('/')
                .all(|part| !part.is_empty() && part != "." && part != "..");
        if !plain || names.contains(&asset.name) {
            errors.push(Diagnostic::error(format!(
                "the image name `{}` cannot be a file of the web edition",
                asset.name
            )));
        }
        names.push(asset.name.clone());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The theme's style sheet, then each plugin's styles for the web.
fn stylesheet(book: &Book, theme_css: &str) -> String {
    let mut css = theme_css.to_string();
    for style in book
        .styles
        .iter()
        .filter(|s| s.format == Format::Html.name())
    {
        css.push_str(&format!(
            "\n/* from plugin {} */\n{}\n",
            style.origin, style.code
        ));
    }
    css
}

/// Width and height of a PNG, from its header, so that the page keeps the
/// cover's place before it loads.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if png.len() < 24 || !png.starts_with(SIGNATURE) || &png[12..16] != b"IHDR" {
        return None;
    }
    let number = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    Some((number(16), number(20)))
}

#[cfg(test)]
mod tests;
