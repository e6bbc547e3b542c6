//! The EPUB writer: a book of the document tree becomes an EPUB 3.3 file,
//! assembled by epub-builder and repacked so that the bytes are reproducible.
//! The chapters' XHTML is written by `stoa-xhtml`, shared with the web edition.

mod glossary;
mod normalize;
mod page_list;
mod pages;
mod svg;

use epub_builder::{
    EpubBuilder, EpubContent, EpubVersion, MetadataOpfV3, ReferenceType, TocElement, ZipLibrary,
};
use stoa_doc::{
    Block, Book, Chapter, ChapterKind, Diagnostic, Inline, Role, for_each_block, for_each_inline,
    inlines_text,
};
use stoa_render::stoa_image::Target as ImageTarget;
use stoa_render::{Format, ImageSettings, Output, RenderContext, Rendered, Renderer};
use stoa_xhtml::{Flavor, Markup};

/// The EPUB renderer: the theme's `epub.css` and the plugins' EPUB styles,
/// the cover the driver drew, and every chapter as XHTML.
pub struct EpubRenderer;

impl Renderer for EpubRenderer {
    fn name(&self) -> &'static str {
        Format::Epub.name()
    }

    /// Images for a screen: see [`ImageSettings::screen`].
    fn image_target(&self, _book: &Book, settings: &ImageSettings) -> Option<ImageTarget> {
        Some(settings.screen())
    }

    fn label(&self) -> &'static str {
        "EPUB"
    }

    fn media_type(&self) -> &'static str {
        "application/epub+zip"
    }

    /// Raw output for this format: see [`Renderer::check_raw`].
    fn check_raw(&self, payload: &str, inline: bool) -> Result<(), String> {
        stoa_xhtml::raw::render(payload, stoa_xhtml::Flavor::Epub, inline).map(drop)
    }

    /// Reading systems vary in their MathML (Kindle renders none): a book
    /// may ask for its formulas as images.
    fn shows_formula_images(&self) -> bool {
        true
    }

    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>> {
        let css = ctx.theme.read_to_string("epub.css").map_err(|e| {
            vec![Diagnostic::error(format!(
                "cannot read the theme's style sheet {}: {e}",
                ctx.theme.describe("epub.css")
            ))]
        })?;
        let packed = render_epub(ctx, &css).map_err(|d| vec![d])?;
        Ok(Rendered {
            output: Output::File(packed.into_body()),
            ..Rendered::default()
        })
    }
}

/// Makes the EPUB of `ctx`, styled by the theme's `css`: everything but
/// its images in memory, the images read from their files as it is
/// written (a book of a thousand pictures never holds them all).
pub fn render_epub(ctx: &RenderContext, css: &str) -> Result<normalize::Packed, Diagnostic> {
    let packed =
        build(ctx, css).map_err(|e| Diagnostic::error(format!("cannot assemble the EPUB: {e}")))?;
    // The last gate: what stoa's own writers could get wrong stops the
    // edition here, never reaches a reader. It reads the documents and
    // the names of the other files, which the images' stand-ins share.
    stoa_gate::epub(&packed.bytes).map_err(|problems| gate_error(ctx.book, &problems))?;
    Ok(packed)
}

/// The internal error of an EPUB that failed the last gate.
fn gate_error(book: &Book, problems: &[String]) -> Diagnostic {
    let post_of = |file: &str| {
        let chapter = book
            .chapters
            .iter()
            .find(|c| file == format!("OEBPS/{}.xhtml", c.slug))?;
        chapter.source.clone()
    };
    Diagnostic::error(stoa_gate::report("EPUB", problems, post_of)).with_hint(stoa_gate::HINT)
}

fn build(ctx: &RenderContext, theme_css: &str) -> epub_builder::Result<normalize::Packed> {
    let book = ctx.book;
    let markup = Markup::new(book, ctx.notes, ctx.ids, Flavor::Epub)
        .with_pages(ctx.pages)
        .with_formula_images(ctx.formula_images);
    let mut epub = EpubBuilder::new(ZipLibrary::new()?)?;
    epub.epub_version(EpubVersion::V33);
    if stoa_locale::is_rtl(&book.lang) {
        // Pages turn right to left, as the text runs. (epub-builder's
        // `epub_direction` sets a field its template never reads: the
        // spine's attribute comes from this metadata key.)
        epub.metadata("direction", "rtl")?;
    }
    // The page list is known once the chapters are written; the metadata
    // that depends on it waits until then.
    let mut page_list = Vec::new();
    epub.stylesheet(stylesheet(book, theme_css).as_bytes())?;
    // Each image as the image step made it for reading systems: an empty
    // stand-in now, its file when the EPUB is written.
    let mut images = Vec::new();
    for asset in &book.assets {
        let (path, media_type) = ctx.image_file(asset);
        if let Err(e) = std::fs::metadata(path) {
            return Err(epub_builder::Error::IoError {
                msg: format!("cannot read {}", path.display()),
                cause: e,
            });
        }
        epub.add_resource(&asset.name, [].as_slice(), media_type)?;
        images.push((format!("OEBPS/{}", asset.name), path.to_path_buf()));
    }
    // Formulas drawn as images (book.toml's `[math] epub = "svg"`), named
    // as the chapters name them.
    for (n, image) in ctx
        .formula_images
        .into_iter()
        .flat_map(|m| m.values())
        .enumerate()
    {
        epub.add_resource(
            stoa_xhtml::formula_file(n + 1),
            image.svg.as_bytes(),
            "image/svg+xml",
        )?;
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
        EpubContent::new(
            "contents.xhtml",
            pages::contents(book, ctx.layout).as_bytes(),
        )
        .title(&book.labels.contents)
        .reftype(ReferenceType::Toc),
    )?;
    let nav = PartNav::of(ctx.layout, &book.chapters);
    // The glossary appendix that has a Search Key Map (the first one: EPUB
    // asks several glossaries for collections, which stoa does not make).
    let mut glossary = None;
    for (i, chapter) in book.chapters.iter().enumerate() {
        let file = markup.chapter_file(i);
        let xhtml = pages::chapter(&markup, i);
        if chapter.role == Some(Role::Glossary) && glossary.is_none() {
            let entries = glossary::entries(&xhtml);
            if let Some(map) = glossary::search_key_map(&file, &book.lang, &entries) {
                epub.add_resource(
                    glossary::SEARCH_KEY_MAP,
                    map.as_bytes(),
                    glossary::MEDIA_TYPE,
                )?;
                glossary = Some(file.clone());
            }
        }
        page_list.extend(
            page_list::markers(&xhtml)
                .into_iter()
                .map(|(id, label)| (label, format!("{file}#{id}"))),
        );
        let mut entry = TocElement::new(file.as_str(), &chapter.title).level(nav.level(i));
        for (id, title) in sections(&chapter.blocks) {
            entry = entry.child(TocElement::new(format!("{file}#{id}"), title));
        }
        let mut content = EpubContent::new(file.as_str(), xhtml.as_bytes());
        content = match nav.starts(i) {
            // The part's entry leads to its first chapter's file and holds
            // the chapter, whose own entry leads to its title (the NCX may
            // not give one target two play orders); the part's next
            // chapters (level 2) nest under it.
            Some(part) => {
                entry.url = format!("{file}#{CHAPTER_TITLE}");
                content.title(part).child(entry)
            }
            None => {
                let mut content = content.title(&chapter.title).level(nav.level(i));
                for child in entry.children {
                    content = content.child(child);
                }
                content
            }
        };
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
    let math = match ctx.formula_images.is_some() {
        true => Math::Images,
        false => Math::MathMl,
    };
    metadata(&mut epub, book, !page_list.is_empty(), math)?;
    let mut raw = Vec::new();
    epub.generate(&mut raw)?;
    let extras = normalize::Extras {
        page_list: &page_list,
        glossary: glossary.as_deref(),
    };
    let bytes =
        normalize::repack(&raw, book, &extras).map_err(|e| epub_builder::Error::IoError {
            msg: "cannot repack the EPUB".into(),
            cause: e,
        })?;
    Ok(normalize::Packed {
        bytes,
        images,
        time: normalize::zip_time(&book.meta.modified),
    })
}

/// The id stoa-xhtml gives every chapter's title.
const CHAPTER_TITLE: &str = "chapter-title";

/// Where the book's parts sit in the navigation: a part's entry (at the
/// first chapter it holds) and its chapters one level down.
struct PartNav<'a> {
    /// Chapter index → the title of the part that starts there.
    starts: std::collections::HashMap<usize, &'a str>,
    /// The chapters inside a part.
    in_part: std::collections::HashSet<usize>,
}

impl<'a> PartNav<'a> {
    fn of(layout: &'a stoa_render::Layout, chapters: &[Chapter]) -> Self {
        let mut nav = PartNav {
            starts: Default::default(),
            in_part: Default::default(),
        };
        for group in layout.groups(chapters) {
            let Some(part) = group.part else { continue };
            if let Some(&first) = group.chapters.first() {
                nav.starts.insert(first, layout.parts[part].title.as_str());
            }
            nav.in_part.extend(group.chapters);
        }
        nav
    }

    /// The title of the part that starts at chapter `index`.
    fn starts(&self, index: usize) -> Option<&'a str> {
        self.starts.get(&index).copied()
    }

    /// The navigation level of chapter `index`'s entry.
    fn level(&self, index: usize) -> i32 {
        if self.in_part.contains(&index) { 2 } else { 1 }
    }
}

/// The landmark a chapter is, beyond a chapter: the notes chapter, or a
/// chapter whose role says it is the glossary.
fn landmark(chapter: &Chapter) -> Option<ReferenceType> {
    if chapter.kind == ChapterKind::Notes {
        Some(ReferenceType::Notes)
    } else if chapter.role == Some(Role::Glossary) {
        Some(ReferenceType::Glossary)
    } else if stoa_doc::index::is_index(chapter) {
        Some(ReferenceType::Index)
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
        // An empty heading (`##` alone, or only markup) names nothing a
        // reader could choose: no entry, and so no empty list in nav.xhtml.
        .filter(|(_, title)| !title.trim().is_empty())
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

/// The book's metadata; `paged` says whether the EPUB marks the print
/// edition's pages.
fn metadata(
    epub: &mut EpubBuilder<ZipLibrary>,
    book: &Book,
    paged: bool,
    math: Math,
) -> epub_builder::Result<()> {
    let meta = &book.meta;
    epub.set_title(&meta.title);
    epub.add_author(&meta.author);
    epub.add_language(&book.lang);
    epub.set_generator(concat!("stoa ", env!("CARGO_PKG_VERSION")));
    epub.set_toc_name(&book.labels.contents);
    if let Some(description) = &meta.description {
        epub.add_description(description);
    }
    for subject in subjects(book) {
        epub.add_subject(subject);
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
    for (property, value) in accessibility(book, paged, math) {
        epub.add_metadata_opf(Box::new(MetadataOpfV3::new(
            property.into(),
            stoa_doc::escape::xml_text(&value),
        )));
    }
    Ok(())
}

/// The subjects of the book: its posts' tags, each once (the first
/// spelling met, compared without case), in the order the book meets them.
fn subjects(book: &Book) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    book.chapters
        .iter()
        .filter(|c| c.kind == ChapterKind::Post)
        .flat_map(|c| c.tags.iter())
        .map(|t| t.trim())
        .filter(|t| !t.is_empty() && seen.insert(t.to_lowercase()))
        .collect()
}

/// How the EPUB writes formulas: MathML, or images with their LaTeX as
/// alternative text (`[math] epub = "svg"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Math {
    MathMl,
    Images,
}

/// What the book holds that its accessibility metadata speaks of.
#[derive(Debug, Default, PartialEq, Eq)]
struct Holds {
    /// Images of the posts.
    images: bool,
    /// Every such image has alternative text.
    described: bool,
    /// Formulas.
    math: bool,
    /// A formula that MathML can write (the others print as LaTeX).
    mathml: bool,
    /// Diagrams (each with its text alternative: title, nodes, arrows).
    diagrams: bool,
    /// An index.
    index: bool,
}

/// What `book` holds, in one walk.
fn holds(book: &Book) -> Holds {
    let mut h = Holds {
        described: true,
        index: book.chapters.iter().any(stoa_doc::index::is_index),
        ..Holds::default()
    };
    for chapter in &book.chapters {
        for_each_block(&chapter.blocks, &mut |block| {
            if let stoa_doc::Block::Div {
                role: Some(stoa_doc::Role::Other(role)),
                ..
            } = block
                && role == stoa_diagram::ROLE
            {
                h.diagrams = true;
            }
            for_each_inline(block, &mut |inline| match inline {
                Inline::Image { alt, .. } => {
                    h.images = true;
                    h.described &= !alt.trim().is_empty();
                }
                Inline::Span {
                    role: Some(stoa_doc::Role::Math),
                    attrs,
                    content,
                    ..
                } => {
                    h.math = true;
                    // A formula that cannot be read is printed as its
                    // LaTeX: it gives the book no MathML.
                    if !h.mathml {
                        let (tex, display) = stoa_math::of_span(attrs, content);
                        let formula = stoa_math::Formula { tex: &tex, display };
                        h.mathml = formula.mathml().is_ok();
                    }
                }
                _ => {}
            });
        });
    }
    h
}

/// Accessibility metadata, stated only where true of this book: text with
/// structure, a table of contents, a reading order; alternative text when
/// the book has images and every one is described; the print edition's
/// page breaks and page list when the EPUB has them (`paged`); an index,
/// MathML (or described math), long descriptions of diagrams when it has
/// them. The book
/// claims WCAG 2.1 AA only when no image lacks its description: the rest
/// (language, roles, landmarks, contrast left to the reading system) is
/// checked by Ace in the test suite.
fn accessibility(book: &Book, paged: bool, math: Math) -> Vec<(&'static str, String)> {
    let holds = holds(book);
    let (has_images, described) = (holds.images, holds.described);
    let mut meta = vec![("schema:accessMode", "textual".to_string())];
    if has_images {
        meta.push(("schema:accessMode", "visual".into()));
    }
    // Text alone suffices when every image is described; otherwise a
    // reader needs text and sight together, which is said too (an EPUB
    // that states no sufficient mode leaves reading systems guessing).
    let sufficient = if !has_images || described {
        "textual"
    } else {
        "textual,visual"
    };
    meta.push(("schema:accessModeSufficient", sufficient.into()));
    let mut features = vec![
        "structuralNavigation",
        "tableOfContents",
        "readingOrder",
        "displayTransformability",
    ];
    if has_images && described {
        features.push("alternativeText");
    }
    if paged {
        features.extend(["pageBreakMarkers", "pageNavigation"]);
    }
    if holds.index {
        features.push("index");
    }
    // Formulas: MathML a reading system can speak and zoom, or images
    // whose alternative text is their LaTeX.
    match math {
        Math::MathMl if holds.mathml => features.push("MathML"),
        Math::Images if holds.math => features.push("describedMath"),
        _ => {}
    }
    // A diagram's text alternative lists its nodes and arrows: a long
    // description of the picture.
    if holds.diagrams {
        features.push("longDescription");
    }
    for feature in features {
        meta.push(("schema:accessibilityFeature", feature.into()));
    }
    meta.push(("schema:accessibilityHazard", "none".into()));
    // In the book's language: the package's xml:lang says it is.
    let words = &stoa_locale::locale_or_english(&book.lang).accessibility;
    let mut summary = String::from(words.summary);
    // Sentences follow each other after a space, but not after a
    // full-width stop (`。`), which holds its own.
    let mut add = |sentence: &str| {
        if !summary.ends_with(['。', '．', '！', '？']) {
            summary.push(' ');
        }
        summary.push_str(sentence);
    };
    if has_images && !described {
        add(words.some_undescribed);
    } else if has_images {
        add(words.all_described);
    }
    if paged {
        add(words.paged);
    }
    meta.push(("schema:accessibilitySummary", summary));
    if !has_images || described {
        meta.push((
            "dcterms:conformsTo",
            "EPUB Accessibility 1.1 - WCAG 2.1 Level AA".into(),
        ));
    }
    meta
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use stoa_doc::{BookMeta, IdIndex, Inline, Labels, NotesPlan, Print, Style};

    /// The accessibility features of `book`, in order.
    fn features(book: &Book, math: Math) -> Vec<String> {
        accessibility(book, false, math)
            .into_iter()
            .filter(|(p, _)| *p == "schema:accessibilityFeature")
            .map(|(_, v)| v)
            .collect()
    }

    #[test]
    fn features_are_claimed_only_for_what_the_book_holds() {
        let plain = book();
        let base = features(&plain, Math::MathMl);
        for absent in [
            "index",
            "MathML",
            "describedMath",
            "longDescription",
            "alternativeText",
        ] {
            assert!(!base.iter().any(|f| f == absent), "{absent} in {base:?}");
        }
        let mut rich = book();
        let formula = Inline::Span {
            role: Some(Role::Math),
            class: String::new(),
            attrs: Default::default(),
            content: vec![Inline::text("x^2")],
        };
        let diagram = Block::Div {
            role: Some(Role::Other(stoa_diagram::ROLE.into())),
            class: String::new(),
            attrs: Default::default(),
            blocks: Vec::new(),
        };
        rich.chapters[0].blocks.push(Block::Paragraph {
            content: vec![formula],
        });
        rich.chapters[0].blocks.push(diagram);
        rich.chapters[2].role = Some(Role::Other(stoa_doc::index::INDEX_ROLE.into()));
        let claimed = features(&rich, Math::MathMl);
        for present in ["index", "MathML", "longDescription"] {
            assert!(
                claimed.iter().any(|f| f == present),
                "{present} not in {claimed:?}"
            );
        }
        let drawn = features(&rich, Math::Images);
        assert!(drawn.iter().any(|f| f == "describedMath"), "{drawn:?}");
        assert!(!drawn.iter().any(|f| f == "MathML"), "{drawn:?}");
        // A formula that cannot be read prints as LaTeX: no MathML then.
        let mut unread = book();
        unread.chapters[0].blocks.push(Block::Paragraph {
            content: vec![Inline::Span {
                role: Some(Role::Math),
                class: String::new(),
                attrs: Default::default(),
                content: vec![Inline::text("\\left( x")],
            }],
        });
        let claimed = features(&unread, Math::MathMl);
        assert!(!claimed.iter().any(|f| f == "MathML"), "{claimed:?}");
    }

    pub(crate) fn book() -> Book {
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
        epub_paged(book, None)
    }

    fn epub_paged(book: &Book, pages: Option<&stoa_render::PageMap>) -> Vec<u8> {
        let notes = NotesPlan::of(book);
        let ids = IdIndex::of(book);
        let theme = stoa_render::Theme::folder("none", "/no/theme");
        let ctx = RenderContext::new(
            book,
            &notes,
            &ids,
            &theme,
            &[],
            stoa_render::Layout::empty(),
        )
        .with_pages(pages);
        render_epub(&ctx, "body {}")
            .unwrap()
            .into_body()
            .to_bytes()
            .unwrap()
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
        let theme = stoa_render::Theme::folder("none", "/no/theme");
        let ctx = RenderContext::new(
            &book,
            &notes,
            &ids,
            &theme,
            &[],
            stoa_render::Layout::empty(),
        );
        let errors = EpubRenderer.render(&ctx).unwrap_err();
        assert!(
            errors[0].message.contains("/no/theme/epub.css"),
            "{errors:?}"
        );
    }

    #[test]
    fn an_empty_heading_is_no_navigation_entry() {
        let mut book = book();
        let heading = |id: &str, text: &str| Block::Heading {
            level: 2,
            id: id.into(),
            content: if text.is_empty() {
                Vec::new()
            } else {
                vec![Inline::text(text)]
            },
        };
        book.chapters[0].blocks = vec![heading("empty", ""), heading("blank", " ")];
        let nav = entry(&epub(&book), "OEBPS/nav.xhtml");
        assert!(!nav.contains("#empty") && !nav.contains("#blank"), "{nav}");
        assert!(
            !nav.contains("<ol></ol>") && !nav.contains("<ol/>"),
            "{nav}"
        );
        book.chapters[0].blocks.push(heading("real", "Real"));
        let nav = entry(&epub(&book), "OEBPS/nav.xhtml");
        assert!(nav.contains("#real") && !nav.contains("#empty"), "{nav}");
    }

    #[test]
    fn package_metadata_and_navigation_are_accessible() {
        let mut book = book();
        book.meta.subtitle = Some("Sub & title".into());
        book.chapters[0].tags = vec!["Flink".into(), "study".into(), "flink".into()];
        let bytes = epub(&book);
        let opf = entry(&bytes, "OEBPS/content.opf");
        for wanted in [
            r#"<package xml:lang="en" version="3.0""#,
            r#"<dc:title id="title">T</dc:title>"#,
            r#"<dc:title id="subtitle">Sub &amp; title</dc:title>"#,
            r##"<meta refines="#subtitle" property="title-type">subtitle</meta>"##,
            "<dc:subject>Flink</dc:subject>",
            "<dc:subject>study</dc:subject>",
            "EPUB Accessibility 1.1 - WCAG 2.1 Level AA",
        ] {
            assert!(opf.contains(wanted), "`{wanted}` in {opf}");
        }
        assert_eq!(opf.matches("<dc:subject>").count(), 2, "tags once each");
        assert!(!opf.contains("pageBreakMarkers") && !opf.contains("dc:source"));
        let nav = entry(&bytes, "OEBPS/nav.xhtml");
        assert!(
            nav.contains(
                r#"<nav epub:type="toc" id="toc" role="doc-toc" aria-labelledby="toc-title">"#
            ),
            "{nav}"
        );
        assert!(nav.contains(r#"<nav epub:type="landmarks" hidden="hidden">"#));
        assert!(!nav.contains("page-list"));
    }

    #[test]
    fn with_the_print_pages_the_epub_has_a_page_list_and_says_so() {
        use stoa_render::{BlockKey, PageMap};
        let book = book();
        let mut pages = PageMap::default();
        pages.insert(BlockKey::new(0, &[]), "1".into());
        pages.insert(BlockKey::new(1, &[0]), "3".into());
        let bytes = epub_paged(&book, Some(&pages));
        let nav = entry(&bytes, "OEBPS/nav.xhtml");
        assert!(
            nav.contains(
                "<li><a href=\"post.xhtml#page-1\">1</a></li>\n      <li><a href=\"words.xhtml#page-3\">3</a></li>"
            ),
            "{nav}"
        );
        let opf = entry(&bytes, "OEBPS/content.opf");
        for wanted in [
            "pageBreakMarkers",
            "pageNavigation",
            r#"<dc:source id="print-edition">urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8</dc:source>"#,
            r##"<meta refines="#print-edition" property="source-of">pagination</meta>"##,
        ] {
            assert!(opf.contains(wanted), "`{wanted}` in {opf}");
        }
        let words = entry(&bytes, "OEBPS/words.xhtml");
        assert!(
            words.contains(r#"<span id="page-3" epub:type="pagebreak""#),
            "{words}"
        );
        assert_eq!(bytes, epub_paged(&book, Some(&pages)), "byte-identical");
    }
}
