//! The EPUB writer: a book of the document tree becomes an EPUB 3.3 file,
//! assembled by epub-builder and repacked so that the bytes are reproducible.

mod content;
mod normalize;
mod pages;
mod targets;
mod xml;

use epub_builder::{
    EpubBuilder, EpubContent, EpubVersion, MetadataOpfV3, ReferenceType, TocElement, ZipLibrary,
};
use stoa_doc::{Block, Book, ChapterKind, Diagnostic, inlines_text};

/// What goes into an EPUB besides the tree.
pub struct EpubRequest<'a> {
    /// The book.
    pub book: &'a Book,
    /// The theme's style sheet.
    pub css: &'a str,
    /// The cover as a PNG image, if one was rendered.
    pub cover_png: Option<&'a [u8]>,
}

/// Writes the EPUB into memory.
pub fn render_epub(req: &EpubRequest) -> Result<Vec<u8>, Diagnostic> {
    build(req).map_err(|e| Diagnostic::error(format!("cannot assemble the EPUB: {e}")))
}

/// The file name of a chapter inside the EPUB.
pub fn chapter_file(slug: &str) -> String {
    format!("{slug}.xhtml")
}

fn build(req: &EpubRequest) -> epub_builder::Result<Vec<u8>> {
    let book = req.book;
    let mut epub = EpubBuilder::new(ZipLibrary::new()?)?;
    epub.epub_version(EpubVersion::V33);
    metadata(&mut epub, book)?;
    let css = stylesheet(req);
    epub.stylesheet(css.as_bytes())?;
    for asset in &book.assets {
        let bytes = std::fs::read(&asset.path).map_err(|e| epub_builder::Error::IoError {
            msg: format!("cannot read {}", asset.path),
            cause: e,
        })?;
        epub.add_resource(&asset.name, bytes.as_slice(), asset.media_type.as_str())?;
    }
    if let Some(png) = req.cover_png {
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
        let file = chapter_file(&chapter.slug);
        let xhtml = pages::chapter(book, chapter);
        let mut content = EpubContent::new(file.as_str(), xhtml.as_bytes()).title(&chapter.title);
        for (id, title) in sections(&chapter.blocks) {
            content = content.child(TocElement::new(format!("{file}#{id}"), title).level(2));
        }
        if i == 0 {
            content = content.reftype(ReferenceType::Text);
        }
        if chapter.kind == ChapterKind::Notes {
            content = content.reftype(ReferenceType::Notes);
        }
        if chapter.kind == ChapterKind::Appendix && chapter.slug.contains("glossar") {
            content = content.reftype(ReferenceType::Glossary);
        }
        epub.add_content(content)?;
    }
    epub.add_content(
        EpubContent::new("colophon.xhtml", pages::colophon(book).as_bytes())
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

fn stylesheet(req: &EpubRequest) -> String {
    let mut css = req.css.to_string();
    for style in req.book.styles.iter().filter(|s| s.format == "epub") {
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
            xml::escape(&value),
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
