//! The EPUB writer: a book of the document tree becomes an EPUB 3.3 file,
//! assembled by epub-builder and repacked so that the bytes are reproducible.
//! The chapters' XHTML is written by `stoa-xhtml`, shared with the web edition.

mod normalize;
mod pages;

use epub_builder::{
    EpubBuilder, EpubContent, EpubVersion, MetadataOpfV3, ReferenceType, TocElement, ZipLibrary,
};
use stoa_doc::{Block, Book, Chapter, ChapterKind, Diagnostic, Role, inlines_text};
use stoa_render::{Format, Output, RenderContext, Rendered, Renderer};
use stoa_xhtml::{Flavor, Markup};

/// The EPUB renderer: the theme's `epub.css` and the plugins' EPUB styles,
/// the cover the driver drew, and every chapter as XHTML.
pub struct EpubRenderer;

impl Renderer for EpubRenderer {
    fn format(&self) -> Format {
        Format::Epub
    }

    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>> {
        let css_path = ctx.theme.join("epub.css");
        let css = std::fs::read_to_string(&css_path).map_err(|e| {
            vec![Diagnostic::error(format!(
                "cannot read the theme's style sheet {}: {e}",
                css_path.display()
            ))]
        })?;
        let bytes = render_epub(ctx, &css).map_err(|d| vec![d])?;
        Ok(Rendered {
            output: Output::File(bytes),
            ..Rendered::default()
        })
    }
}

/// Writes the EPUB of `ctx` into memory, styled by the theme's `css`.
pub fn render_epub(ctx: &RenderContext, css: &str) -> Result<Vec<u8>, Diagnostic> {
    build(ctx, css).map_err(|e| Diagnostic::error(format!("cannot assemble the EPUB: {e}")))
}

fn build(ctx: &RenderContext, theme_css: &str) -> epub_builder::Result<Vec<u8>> {
    let book = ctx.book;
    let markup = Markup::new(book, ctx.notes, ctx.ids, Flavor::Epub);
    let mut epub = EpubBuilder::new(ZipLibrary::new()?)?;
    epub.epub_version(EpubVersion::V33);
    metadata(&mut epub, book)?;
    epub.stylesheet(stylesheet(book, theme_css).as_bytes())?;
    for asset in &book.assets {
        let bytes = std::fs::read(&asset.path).map_err(|e| epub_builder::Error::IoError {
            msg: format!("cannot read {}", asset.path),
            cause: e,
        })?;
        epub.add_resource(&asset.name, bytes.as_slice(), asset.media_type.as_str())?;
    }
    if let Some(png) = ctx.cover_png {
        epub.add_cover_image("images/cover.png", png, "image/png")?;
        epub.add_content(
            EpubContent::new("cover.xhtml", pages::cover(book).as_bytes())
                .title(&book.labels.cover)
                .reftype(ReferenceType::Cover),
        )?;
    }
    epub.add_content(
        EpubContent::new("title.xhtml", pages::title_page(book).as_bytes())
            .title(&book.labels.title_page)
            .reftype(ReferenceType::TitlePage),
    )?;
    epub.add_content(
        EpubContent::new("contents.xhtml", pages::contents(book).as_bytes())
            .title(&book.labels.contents)
            .reftype(ReferenceType::Toc),
    )?;
    for (i, chapter) in book.chapters.iter().enumerate() {
        let file = markup.chapter_file(i);
        let xhtml = pages::chapter(&markup, i);
        let mut content = EpubContent::new(file.as_str(), xhtml.as_bytes()).title(&chapter.title);
        for (id, title) in sections(&chapter.blocks) {
            content = content.child(TocElement::new(format!("{file}#{id}"), title).level(2));
        }
        if i == 0 {
            content = content.reftype(ReferenceType::Text);
        }
        if let Some(landmark) = landmark(chapter) {
            content = content.reftype(landmark);
        }
        epub.add_content(content)?;
    }
    epub.add_content(
        EpubContent::new("colophon.xhtml", pages::colophon(&markup).as_bytes())
            .title(&book.labels.colophon)
            .reftype(ReferenceType::Colophon),
    )?;
    let mut raw = Vec::new();
    epub.generate(&mut raw)?;
    normalize::repack(&raw, book).map_err(|e| epub_builder::Error::IoError {
        msg: "cannot repack the EPUB".into(),
        cause: e,
    })
}

/// The landmark a chapter is, beyond a chapter: the notes chapter, or a
/// chapter whose role says it is the glossary.
fn landmark(chapter: &Chapter) -> Option<ReferenceType> {
    if chapter.kind == ChapterKind::Notes {
        Some(ReferenceType::Notes)
    } else if chapter.role == Some(Role::Glossary) {
        Some(ReferenceType::Glossary)
    } else {
        None
    }
}

/// The second-level headings of a chapter, for the navigation document.
fn sections(blocks: &[Block]) -> Vec<(String, String)> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Heading {
                level: 2,
                id,
                content,
            } => Some((id.clone(), inlines_text(content))),
            _ => None,
        })
        .collect()
}

/// The theme's style sheet, then each plugin's EPUB styles.
fn stylesheet(book: &Book, theme_css: &str) -> String {
    let mut css = theme_css.to_string();
    for style in book
        .styles
        .iter()
        .filter(|s| s.format == Format::Epub.name())
    {
        css.push_str(&format!(
            "\n/* from plugin {} */\n{}\n",
            style.origin, style.code
        ));
    }
    css
}

fn metadata(epub: &mut EpubBuilder<ZipLibrary>, book: &Book) -> epub_builder::Result<()> {
    let meta = &book.meta;
    epub.set_title(&meta.title);
    epub.add_author(&meta.author);
    epub.add_language(&book.lang);
    epub.set_generator(concat!("stoa ", env!("CARGO_PKG_VERSION")));
    epub.set_toc_name(&book.labels.contents);
    if let Some(description) = &meta.description {
        epub.add_description(description);
    }
    if let Some(uuid) = meta
        .identifier
        .strip_prefix("urn:uuid:")
        .and_then(|u| uuid::Uuid::parse_str(u).ok())
    {
        epub.set_uuid(uuid);
    }
    let parse = |s: &str| {
        chrono::DateTime::parse_from_rfc3339(s)
            .map(|d| d.with_timezone(&chrono::Utc))
            .map_err(|e| epub_builder::Error::InvalidMetadataError(format!("date `{s}`: {e}")))
    };
    epub.set_modified_date(parse(&meta.modified)?);
    epub.set_publication_date(parse(&format!("{}T00:00:00Z", meta.date))?);
    for (property, value) in accessibility(book) {
        epub.add_metadata_opf(Box::new(MetadataOpfV3::new(
            property.into(),
            stoa_xhtml::escape(&value),
        )));
    }
    Ok(())
}

/// Accessibility metadata, stated only where true of this book: text with
/// structure, a table of contents, a reading order, and alt text when the
/// book has images (which the Markdown gives).
fn accessibility(book: &Book) -> Vec<(&'static str, String)> {
    let has_images = !book.assets.is_empty();
    let mut meta = vec![("schema:accessMode", "textual".to_string())];
    if has_images {
        meta.push(("schema:accessMode", "visual".into()));
    }
    meta.push(("schema:accessModeSufficient", "textual".into()));
    for feature in [
        "structuralNavigation",
        "tableOfContents",
        "readingOrder",
        "displayTransformability",
    ] {
        meta.push(("schema:accessibilityFeature", feature.into()));
    }
    if has_images {
        meta.push(("schema:accessibilityFeature", "alternativeText".into()));
    }
    meta.push(("schema:accessibilityHazard", "none".into()));
    meta.push((
        "schema:accessibilitySummary",
        "This publication is text with semantic structure: headings, lists, tables and notes are marked up, \
         the navigation document lists every chapter and section, the reading order follows the text, \
         and no content flashes, moves or plays sound."
            .into(),
    ));
    meta.push((
        "dcterms:conformsTo",
        "EPUB Accessibility 1.1 - WCAG 2.1 Level AA".into(),
    ));
    meta
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use stoa_doc::{BookMeta, IdIndex, Inline, Labels, NotesPlan, Print, Style};

    fn book() -> Book {
        let chapter = |slug: &str, kind, role| Chapter {
            slug: slug.into(),
            title: slug.to_uppercase(),
            kind,
            role,
            date: Some("2024-05-31".into()),
            blocks: vec![Block::Paragraph {
                content: vec![Inline::text("text")],
            }],
            ..Chapter::default()
        };
        Book {
            version: stoa_doc::TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: BookMeta {
                title: "T".into(),
                author: "A".into(),
                identifier: "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8".into(),
                date: "2024-05-31".into(),
                modified: "2024-06-01T00:00:00Z".into(),
                ..BookMeta::default()
            },
            labels: Labels {
                contents: "Contents".into(),
                colophon: "Colophon".into(),
                ..Labels::default()
            },
            chapters: vec![
                chapter("post", ChapterKind::Post, None),
                // The slug says nothing: the role makes the landmark.
                chapter("words", ChapterKind::Appendix, Some(Role::Glossary)),
                chapter("appendix", ChapterKind::Appendix, None),
            ],
            assets: Vec::new(),
            styles: vec![
                Style {
                    origin: "p".into(),
                    format: "epub".into(),
                    code: ".mine { color: red; }".into(),
                },
                Style {
                    origin: "p".into(),
                    format: "html".into(),
                    code: ".web-only {}".into(),
                },
            ],
            print: Print::default(),
        }
    }

    fn entry(epub: &[u8], name: &str) -> String {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(epub)).unwrap();
        let mut text = String::new();
        zip.by_name(name)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    }

    fn epub(book: &Book) -> Vec<u8> {
        let notes = NotesPlan::of(book);
        let ids = IdIndex::of(book);
        let ctx = RenderContext {
            book,
            notes: &notes,
            ids: &ids,
            theme: std::path::Path::new("/no/theme"),
            roots: &[],
            cover_png: None,
            emit_sources: false,
        };
        render_epub(&ctx, "body {}").unwrap()
    }

    #[test]
    fn writes_the_same_bytes_twice_with_landmarks_from_roles() {
        let book = book();
        let bytes = epub(&book);
        assert_eq!(bytes, epub(&book), "byte-identical");
        let nav = entry(&bytes, "OEBPS/nav.xhtml");
        assert!(
            nav.contains(r#"<a epub:type="glossary" href="words.xhtml">"#),
            "{nav}"
        );
        assert!(!nav.contains(r#"epub:type="glossary" href="appendix.xhtml""#));
        let css = entry(&bytes, "OEBPS/stylesheet.css");
        assert!(css.contains(".mine") && !css.contains(".web-only"), "{css}");
        let post = entry(&bytes, "OEBPS/post.xhtml");
        assert!(post.contains("<time datetime=\"2024-05-31\">May 31, 2024</time>"));
        assert!(post.contains("<body epub:type=\"bodymatter\">"));
    }

    #[test]
    fn a_theme_without_a_style_sheet_is_a_clear_error() {
        let book = book();
        let notes = NotesPlan::of(&book);
        let ids = IdIndex::of(&book);
        let ctx = RenderContext {
            book: &book,
            notes: &notes,
            ids: &ids,
            theme: std::path::Path::new("/no/theme"),
            roots: &[],
            cover_png: None,
            emit_sources: false,
        };
        let errors = EpubRenderer.render(&ctx).unwrap_err();
        assert!(
            errors[0].message.contains("/no/theme/epub.css"),
            "{errors:?}"
        );
    }
}
