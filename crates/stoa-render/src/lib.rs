//! The renderer interface, in the spirit of mdBook's `Renderer`: the driver
//! knows output formats only through [`Renderer`]; each format is one crate.
//!
//! What every renderer needs and no renderer should compute for itself is
//! in the [`RenderContext`]: the notes plan, the id index, the cover.

mod body;
mod layout;
mod raw;
mod registry;

pub use body::{Body, Sink, WriteFn, file_holds};
pub use layout::{Group, Layout, Opening, Part};
pub use raw::check_raw_output;
pub use registry::Renderers;
use std::path::PathBuf;
pub use stoa_doc::Format;
use stoa_doc::{Book, Diagnostic, IdIndex, Inline, NotesPlan};
/// Images made for each output (for [`Renderer::image_target`]).
pub use stoa_image;
pub use stoa_theme::Theme;

/// One edition (a book in one language), ready to render. Made with
/// [`RenderContext::new`] and the `with_` methods: a field added later is
/// not a breaking change.
#[non_exhaustive]
pub struct RenderContext<'a> {
    /// The book, plugins already applied.
    pub book: &'a Book,
    /// Every note numbered and placed, once for all formats.
    pub notes: &'a NotesPlan,
    /// Every id of the book, for links across chapters.
    pub ids: &'a IdIndex,
    /// The theme: a folder (`themes/<name>/`: style sheets, Typst template,
    /// fonts) or the classic theme built into stoa; read through [`Theme::read`].
    pub theme: &'a Theme,
    /// The folders the book may read files from (its folder, the posts
    /// folder); an image outside them is refused.
    pub roots: &'a [PathBuf],
    /// The cover, drawn once per edition, as PNG; `None` when no renderer
    /// could draw one (or none was asked for).
    pub cover_png: Option<&'a [u8]>,
    /// Also return the intermediate sources (e.g. the generated Typst) for
    /// debugging a theme.
    pub emit_sources: bool,
    /// Where the print edition's pages begin, when the driver rendered the
    /// PDF of this edition first; the EPUB and the web edition mark those
    /// pages (page-list, page anchors). `None`: no page markers.
    pub pages: Option<&'a PageMap>,
    /// The same book in its other languages, rendered by the same build:
    /// the web edition links each chapter to the same chapter in them.
    pub alternates: &'a [Alternate],
    /// The book's parts and where each post opens, from book.toml and the
    /// front matter ([`Layout::empty`] for a book without them).
    pub layout: &'a Layout,
    /// The book's formulas drawn as images, when book.toml asks for them
    /// in place of MathML and this renderer
    /// [shows them](Renderer::shows_formula_images); `None`: MathML.
    pub formula_images: Option<&'a FormulaImages>,
    /// The book's images as this renderer takes them, made by the driver's
    /// image step ([`Renderer::image_target`]), by asset name; an asset
    /// without one is used as it is.
    pub images: Option<&'a MadeImages>,
}

/// An image as one renderer takes it: its size, and the file made of it
/// (scaled, or in another format) unless its own is right. A made file is
/// one of the build cache, made by stoa from an asset already checked to
/// lie inside the book's folders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadeImage {
    /// The file made; `None`: the asset's own file, as it is.
    pub path: Option<PathBuf>,
    /// The media type of the file given.
    pub media_type: &'static str,
    /// Its width in pixels, as shown.
    pub width: u32,
    /// Its height in pixels, as shown.
    pub height: u32,
    /// A smaller copy for a web page's `srcset`: its file and width.
    pub smaller: Option<(PathBuf, u32)>,
}

/// The images made for one renderer, by asset name.
pub type MadeImages = std::collections::HashMap<String, MadeImage>;

/// A formula drawn as an image, for reading systems that render no
/// MathML: the SVG the print edition's typesetting makes of it, vector
/// glyphs with no text, and its size in ems of the text around it (so
/// that it grows with the reader's font size).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FormulaImage {
    /// The SVG document.
    pub svg: String,
    /// Width, in ems.
    pub width_em: f64,
    /// Height above the bottom, descent included, in ems.
    pub height_em: f64,
    /// How far it reaches below the text's baseline, in ems (0 for
    /// display formulas, which stand on a line of their own).
    pub depth_em: f64,
}

impl FormulaImage {
    /// An image of these dimensions.
    pub fn new(svg: String, width_em: f64, height_em: f64, depth_em: f64) -> Self {
        FormulaImage {
            svg,
            width_em,
            height_em,
            depth_em,
        }
    }
}

/// The formulas of an edition drawn as images, by their LaTeX source and
/// whether they are display formulas.
pub type FormulaImages = std::collections::BTreeMap<(String, bool), FormulaImage>;

impl<'a> RenderContext<'a> {
    /// The context of `book` with what every renderer reads: no cover, no
    /// page map, no other languages, no intermediate sources.
    pub fn new(
        book: &'a Book,
        notes: &'a NotesPlan,
        ids: &'a IdIndex,
        theme: &'a Theme,
        roots: &'a [PathBuf],
        layout: &'a Layout,
    ) -> Self {
        RenderContext {
            book,
            notes,
            ids,
            theme,
            roots,
            cover_png: None,
            emit_sources: false,
            pages: None,
            alternates: &[],
            layout,
            formula_images: None,
            images: None,
        }
    }

    /// With the book's images as this renderer takes them.
    pub fn with_images(mut self, images: Option<&'a MadeImages>) -> Self {
        self.images = images;
        self
    }

    /// The file to read for `asset` and its media type: the image made
    /// for this renderer, else the asset's own file.
    pub fn image_file(&self, asset: &'a stoa_doc::Asset) -> (&'a std::path::Path, &'a str) {
        match self.images.and_then(|m| m.get(&asset.name)) {
            Some(MadeImage {
                path: Some(path),
                media_type,
                ..
            }) => (path, media_type),
            _ => (std::path::Path::new(&asset.path), &asset.media_type),
        }
    }

    /// With the book's formulas drawn as images, in place of MathML.
    pub fn with_formula_images(mut self, images: Option<&'a FormulaImages>) -> Self {
        self.formula_images = images;
        self
    }

    /// With the cover drawn for this edition, as PNG.
    pub fn with_cover(mut self, cover_png: Option<&'a [u8]>) -> Self {
        self.cover_png = cover_png;
        self
    }

    /// With (or without) the intermediate sources returned.
    pub fn with_sources(mut self, emit_sources: bool) -> Self {
        self.emit_sources = emit_sources;
        self
    }

    /// With the print edition's page map.
    pub fn with_pages(mut self, pages: Option<&'a PageMap>) -> Self {
        self.pages = pages;
        self
    }

    /// With the editions of the book in its other languages.
    pub fn with_alternates(mut self, alternates: &'a [Alternate]) -> Self {
        self.alternates = alternates;
        self
    }
}

/// Another language's edition of the same book, and the chapters it has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alternate {
    /// Its language tag, e.g. `pt-BR`.
    pub lang: String,
    /// The slugs of its chapters, sorted: a chapter links only to the
    /// editions that have it (a post may be untranslated).
    pub slugs: Vec<String>,
}

impl Alternate {
    /// Whether this edition has the chapter `slug`.
    pub fn has(&self, slug: &str) -> bool {
        self.slugs
            .binary_search_by(|s| s.as_str().cmp(slug))
            .is_ok()
    }
}

/// What a renderer made of one edition.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The artifact.
    pub output: Output,
    /// Intermediate sources asked for with [`RenderContext::emit_sources`],
    /// as (extension, bytes), written beside the artifact.
    pub sources: Vec<(String, Vec<u8>)>,
    /// What deserves a look but did not stop the rendering.
    pub warnings: Vec<Diagnostic>,
    /// For a paged format (the PDF): where each page begins, for the
    /// other formats' page markers.
    pub pages: Option<PageMap>,
    /// Further files of the same edition, as (suffix, bytes), written
    /// beside the artifact as `<book>-<lang><suffix>` (the PDF's print
    /// interior `-print.pdf` and cover wrap `-cover.pdf`, for a book with
    /// a print profile).
    pub companions: Vec<(String, Body)>,
}

/// A block of a chapter, by position: the chapter's index in the book and
/// the path of block indices inside it (`[]` is the chapter's opening,
/// `[4]` its fifth top-level block, `[4, 2]` the third block inside that
/// one). Every renderer walks the same tree, so positions agree.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockKey {
    /// The chapter's index in [`Book::chapters`](stoa_doc::Book).
    pub chapter: usize,
    /// Indices of the blocks, outermost first.
    pub path: Vec<usize>,
}

impl BlockKey {
    /// The key of `path` in chapter `chapter`.
    pub fn new(chapter: usize, path: &[usize]) -> Self {
        BlockKey {
            chapter,
            path: path.to_vec(),
        }
    }

    /// The key as text (`3/4/2`), which a paged renderer can carry through
    /// its layout engine and [`BlockKey::parse`] reads back.
    pub fn to_text(&self) -> String {
        std::iter::once(self.chapter)
            .chain(self.path.iter().copied())
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Reads [`BlockKey::to_text`]'s form; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let mut numbers = text.split('/').map(|n| n.parse::<usize>().ok());
        let chapter = numbers.next()??;
        let path = numbers.collect::<Option<Vec<_>>>()?;
        Some(BlockKey { chapter, path })
    }
}

/// Where a print page begins: at a block (the marker goes before it), or
/// at a position inside the block's text (the marker goes there).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PageStart {
    /// The block the page begins in.
    pub block: BlockKey,
    /// `None`: the page begins with the block. `Some(n)`: it begins at text
    /// position `n` of the block, as [`text_len`] counts, always at the
    /// start of a word (a page that begins inside a long paragraph).
    pub offset: Option<usize>,
}

/// How far an inline moves the text position inside a marked block, the
/// rule that lets a paged renderer say "page 41 begins at character 812 of
/// this paragraph" and the others find that character: the characters
/// (Unicode scalar values) of [`Inline::Text`], one for a soft break, and
/// the contents of containers (emphasis, links, spans, technical tokens);
/// everything else (code, images, note references, hard breaks, raw output) counts
/// nothing. Positions run through the block's inlines in tree order, over
/// all blocks nested in it, footnote definitions left out.
pub fn text_len(inline: &Inline) -> usize {
    match inline {
        Inline::Text { text } => text.chars().count(),
        Inline::SoftBreak => 1,
        Inline::Emph { content }
        | Inline::Strong { content }
        | Inline::Strike { content }
        | Inline::Link { content, .. }
        | Inline::Span { content, .. } => content.iter().map(text_len).sum(),
        Inline::Code { .. }
        | Inline::Image { .. }
        | Inline::FootnoteRef { .. }
        | Inline::LineBreak
        | Inline::Raw { .. } => 0,
    }
}

/// Where each page of a paged edition begins: for the first block that
/// starts on a page, that page's label as the PDF prints it (`1`, `41`);
/// for a page that begins inside a block, the position in its text where
/// it does (see [`PageStart`]). A page whose beginning cannot be placed
/// (it begins inside a code block, a table row, a figure) has no entry, or
/// is marked at the next block that starts on it. It also knows the print
/// page of each element with an id (where its anchor lands), for page
/// references.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageMap {
    starts: std::collections::BTreeMap<PageStart, String>,
    /// By (chapter index, id): the label of the page the element is on.
    elements: std::collections::BTreeMap<(usize, String), String>,
    /// How many pages the edition has, cover included, when the renderer
    /// said so: the download page shows it.
    page_count: Option<usize>,
}

impl PageMap {
    /// Records how many pages the edition has in all.
    pub fn set_page_count(&mut self, count: usize) {
        self.page_count = Some(count);
    }

    /// How many pages the edition has in all, when the renderer said so.
    pub fn page_count(&self) -> Option<usize> {
        self.page_count
    }

    /// Records that the page labelled `label` begins at `block`.
    pub fn insert(&mut self, block: BlockKey, label: String) {
        self.starts.insert(
            PageStart {
                block,
                offset: None,
            },
            label,
        );
    }

    /// Records that the page labelled `label` begins at text position
    /// `offset` (see [`text_len`]) of `block`.
    pub fn insert_inline(&mut self, block: BlockKey, offset: usize, label: String) {
        self.starts.insert(
            PageStart {
                block,
                offset: Some(offset),
            },
            label,
        );
    }

    /// The label of the page that begins at block `path` of `chapter`.
    pub fn page_at(&self, chapter: usize, path: &[usize]) -> Option<&str> {
        // Keys are small; building one per lookup keeps the API simple.
        self.starts
            .get(&PageStart {
                block: BlockKey::new(chapter, path),
                offset: None,
            })
            .map(String::as_str)
    }

    /// The pages that begin inside the text of block `path` of `chapter`,
    /// as (text position, label), in order.
    pub fn inside(&self, chapter: usize, path: &[usize]) -> Vec<(usize, &str)> {
        let block = BlockKey::new(chapter, path);
        let from = PageStart {
            block: block.clone(),
            offset: Some(0),
        };
        self.starts
            .range(from..)
            .take_while(|(start, _)| start.block == block)
            .filter_map(|(start, label)| Some((start.offset?, label.as_str())))
            .collect()
    }

    /// Records that element `id` of chapter `chapter` is on the page
    /// labelled `label`.
    pub fn insert_element(&mut self, chapter: usize, id: String, label: String) {
        self.elements.insert((chapter, id), label);
    }

    /// The label of the print page element `id` of chapter `chapter` is
    /// on, for a page reference to it.
    pub fn page_of(&self, chapter: usize, id: &str) -> Option<&str> {
        // Keys are small; building one per lookup keeps the API simple.
        self.elements
            .get(&(chapter, id.to_owned()))
            .map(String::as_str)
    }

    /// Every page start, in book order.
    pub fn iter(&self) -> impl Iterator<Item = (&PageStart, &str)> {
        self.starts.iter().map(|(k, v)| (k, v.as_str()))
    }

    /// The number of page starts.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether no page start is known.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}

/// A rendered artifact: one file, or a folder of files.
#[derive(Debug)]
pub enum Output {
    /// One file, written as `<book>/<book>-<lang>.<format>`.
    File(Body),
    /// A folder of files by relative path (`/`-separated, no `..`), written
    /// as `<book>/<lang>/`.
    Folder(Vec<(String, Body)>),
}

impl Default for Output {
    fn default() -> Self {
        Output::File(Body::Bytes(Vec::new()))
    }
}

/// book.toml's `[images]`, as a renderer's [`Renderer::image_target`]
/// reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageSettings {
    /// The most pixels per inch an image keeps in the reader's PDF.
    pub pdf_ppi: f64,
    /// The quality of a JPEG made (1–100).
    pub jpeg_quality: u8,
    /// The EPUB and the web edition keep WebP.
    pub keep_webp: bool,
}

impl ImageSettings {
    /// What a screen's reading system takes (the EPUB, the web edition):
    /// at most 4 million pixels, Apple Books' limit for an image (Apple
    /// Books Asset Guide), and 3,200 pixels on the long side, more than
    /// the widest tablet shows; JPEG and PNG, which every reading system
    /// shows (WebP only when the book keeps it).
    pub fn screen(&self) -> stoa_image::Target {
        stoa_image::Target {
            max_side: Some(3200),
            max_pixels: Some(4_000_000),
            placement: None,
            keep_webp: self.keep_webp,
            jpeg_quality: self.jpeg_quality,
            srcset_side: None,
        }
    }

    /// What a web page takes: [`ImageSettings::screen`], with a copy 800
    /// pixels wide beside a larger image, for phones (`srcset`).
    pub fn web(&self) -> stoa_image::Target {
        stoa_image::Target {
            srcset_side: Some(SRCSET_SIDE),
            ..self.screen()
        }
    }
}

/// The long side of the smaller copy a web page offers (`srcset`): a
/// phone's screen at twice its density.
const SRCSET_SIDE: u32 = 800;

/// The file name of the smaller copy, `width` pixels wide, of the image
/// `name`: `images/p/1-photo.jpg` → `images/p/1-photo-800w.jpg`.
pub fn smaller_name(name: &str, width: u32) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains('/') => {
            format!("{stem}-{width}w.{ext}")
        }
        _ => format!("{name}-{width}w"),
    }
}

/// An output format's writer. Implementations must be safe to call from
/// many threads at once (the driver renders editions in parallel) and must
/// never read outside the theme and the [`RenderContext::roots`].
pub trait Renderer: Sync {
    /// The name of the format this renderer writes (`epub`, `pdf`,
    /// `html`): the value of `--format`, the key of its artifacts in the
    /// build cache. Unique in a [`Renderers`] registry.
    fn name(&self) -> &'static str;

    /// The extension of the file it writes (`<book>-<lang>.<extension>`);
    /// by default its name.
    fn extension(&self) -> &'static str {
        self.name()
    }

    /// What readers see on the download page's button, e.g. `EPUB`.
    fn label(&self) -> &'static str;

    /// The IANA media type of the file it writes.
    fn media_type(&self) -> &'static str;

    /// Whether it writes a folder ([`Output::Folder`], `<book>/<lang>/`,
    /// opened at `index.html`) rather than one file.
    fn writes_folder(&self) -> bool {
        false
    }

    /// Whether its output depends on the theme file `rel` (`/`-separated,
    /// relative to the theme's folder): the build cache makes it again
    /// when such a file changes, and only then. By default every file.
    fn reads_theme_file(&self, _rel: &str) -> bool {
        true
    }

    /// What of the machine its output depends on beyond the book, the
    /// theme and stoa (the PDF: the fonts it may find there), as a key:
    /// the build cache makes its files again when it changes. By default
    /// nothing.
    fn machine_key(&self) -> String {
        String::new()
    }

    /// Whether this renderer returns a [`PageMap`] in
    /// [`Rendered::pages`]: the driver then renders it before the others,
    /// which get the map in [`RenderContext::pages`].
    fn maps_pages(&self) -> bool {
        false
    }

    /// Whether this renderer reads [`RenderContext::alternates`]: the
    /// driver then makes it again when the chapters of the book's other
    /// editions change, and only then (an edit in one language leaves the
    /// others' files alone).
    fn links_languages(&self) -> bool {
        false
    }

    /// Renders one edition.
    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>>;

    /// What this renderer's images must be (their largest size, or their
    /// placement on a page, and the kinds it takes) with book.toml's
    /// `[images]` as `settings` says: the driver's image step makes each
    /// image that is not, into [`RenderContext::images`]. `None` (the
    /// default): every image as it is.
    fn image_target(&self, _book: &Book, _settings: &ImageSettings) -> Option<stoa_image::Target> {
        None
    }

    /// Checks a plugin's raw output for this format (a `raw` block, or a
    /// raw inline when `inline`): `Err` says what is wrong with it. The
    /// driver calls it right after each plugin, so that the error names the
    /// plugin and the post; [`Renderer::render`] drops raw output for other
    /// formats. A format that takes no raw output refuses it all.
    fn check_raw(&self, _payload: &str, _inline: bool) -> Result<(), String> {
        Err(format!("the {} format takes no raw output", self.name()))
    }

    /// Whether this renderer can draw the book's cover ([`Renderer::cover_png`]).
    fn draws_covers(&self) -> bool {
        false
    }

    /// A key of what the cover at `pixels_per_pt` is drawn from, found
    /// without drawing it: every input but the theme's files, which the
    /// driver keys by [`Renderer::reads_theme_file`]. Two contexts with the
    /// same key must give the same cover: the driver keeps covers by it
    /// between builds. `None` (the default): drawn every time.
    fn cover_key(&self, _ctx: &RenderContext, _pixels_per_pt: f32) -> Option<String> {
        None
    }

    /// The cover, as PNG at `pixels_per_pt`; only called when
    /// [`Renderer::draws_covers`] says so. The context's `cover_png` is `None`.
    fn cover_png(
        &self,
        _ctx: &RenderContext,
        _pixels_per_pt: f32,
    ) -> Result<Vec<u8>, Vec<Diagnostic>> {
        Err(vec![Diagnostic::error(format!(
            "the {} renderer does not draw covers",
            self.name()
        ))])
    }

    /// Whether this renderer can show formulas as images
    /// ([`RenderContext::formula_images`]) when book.toml asks for them in
    /// place of MathML (`[math] epub = "svg"`): the driver then has the
    /// [painter](Renderer::draws_formulas) draw them first.
    fn shows_formula_images(&self) -> bool {
        false
    }

    /// Whether this renderer can draw formulas
    /// ([`Renderer::formula_images`]).
    fn draws_formulas(&self) -> bool {
        false
    }

    /// `formulas` (LaTeX, display) drawn as images in the book's text size;
    /// only called when [`Renderer::draws_formulas`] says so. A formula
    /// that cannot be drawn is left out: the renderer that shows the
    /// images falls back to MathML for it.
    fn formula_images(
        &self,
        _ctx: &RenderContext,
        _formulas: &[(String, bool)],
    ) -> Result<FormulaImages, Vec<Diagnostic>> {
        Err(vec![Diagnostic::error(format!(
            "the {} renderer does not draw formulas",
            self.name()
        ))])
    }
}

/// Whether this process builds again and again (`stoa watch`, `stoa
/// serve`): a renderer may then keep what it computed for the next build
/// (Typst's memoized layout), where a single build frees it as soon as an
/// edition is made (a large book's layout held hundreds of megabytes
/// through the next edition's).
static WARM: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this process as one that builds again and again (see [`is_warm`]).
pub fn set_warm() {
    WARM.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this process builds again and again: what a renderer computed
/// is worth keeping for the next build.
pub fn is_warm() -> bool {
    WARM.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_keys_read_back_and_sort_in_book_order() {
        let key = BlockKey::new(3, &[4, 2]);
        assert_eq!(key.to_text(), "3/4/2");
        assert_eq!(BlockKey::parse("3/4/2"), Some(key.clone()));
        assert_eq!(BlockKey::parse("3"), Some(BlockKey::new(3, &[])));
        assert_eq!(BlockKey::parse("3/x"), None);
        assert_eq!(BlockKey::parse(""), None);
        let mut map = PageMap::default();
        map.insert(BlockKey::new(3, &[10]), "5".into());
        map.insert(key, "4".into());
        map.insert(BlockKey::new(3, &[]), "3".into());
        let labels: Vec<&str> = map.iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["3", "4", "5"]);
        assert_eq!(map.page_at(3, &[4, 2]), Some("4"));
        assert_eq!(map.page_at(3, &[4]), None);
        assert!(map.inside(3, &[4, 2]).is_empty());
        map.insert_element(3, "use-1".into(), "4".into());
        assert_eq!(map.page_of(3, "use-1"), Some("4"));
        assert_eq!(map.page_of(2, "use-1"), None);
        assert_eq!(map.len(), 3, "elements are not page starts");
    }

    #[test]
    fn pages_inside_a_block_come_after_it_and_before_the_next() {
        let mut map = PageMap::default();
        map.insert(BlockKey::new(0, &[5]), "2".into());
        map.insert_inline(BlockKey::new(0, &[4]), 900, "1".into());
        map.insert_inline(BlockKey::new(0, &[4]), 80, "0".into());
        map.insert_inline(BlockKey::new(0, &[4, 1]), 3, "x".into());
        assert_eq!(map.inside(0, &[4]), [(80, "0"), (900, "1")]);
        assert_eq!(map.page_at(0, &[4]), None);
        let labels: Vec<&str> = map.iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["0", "1", "x", "2"]);
    }

    #[test]
    fn the_text_position_counts_text_and_soft_breaks_only() {
        let text = |t: &str| Inline::Text { text: t.into() };
        assert_eq!(text_len(&text("ação")), 4);
        assert_eq!(text_len(&Inline::SoftBreak), 1);
        let emph = Inline::Emph {
            content: vec![text("ab"), Inline::Code { text: "xyz".into() }, text("c")],
        };
        assert_eq!(text_len(&emph), 3);
        assert_eq!(text_len(&Inline::LineBreak), 0);
    }
}
