//! Preparing an edition for its renderers: what every format reads,
//! computed once (the notes plan, the id index, the theme, the cover).

use crate::covers::{CoverPlan, Stored};
use crate::keys::Key;
use crate::options::BuildOptions;
use stoa_book::{BookConfig, Edition};
use stoa_doc::{Diagnostic, IdIndex, NotesPlan};
use stoa_render::{FormulaImages, PageMap, RenderContext, Renderer, Theme};

/// One edition with what every format reads, computed once: the notes
/// plan, the id index, the theme and the cover.
pub(crate) struct Prepared<'a> {
    pub(crate) config: &'a BookConfig,
    pub(crate) edition: &'a Edition,
    notes: NotesPlan,
    ids: IdIndex,
    theme: Theme,
    pub(crate) cover: Option<Vec<u8>>,
    /// The key the cover is kept under in the build cache.
    pub(crate) cover_key: Option<Key>,
    pub(crate) alternates: Vec<stoa_render::Alternate>,
    /// The formulas drawn as images, when book.toml asks for them
    /// (`[math] epub = "svg"`) and a format of this build shows them.
    formulas: Option<FormulaImages>,
    /// The images made for each format being made (the image step), by
    /// format name.
    images: std::collections::HashMap<&'static str, stoa_render::MadeImages>,
}

impl Prepared<'_> {
    /// The context every format shares (what draws the cover reads).
    pub(crate) fn context(&self, options: &BuildOptions) -> RenderContext<'_> {
        self.shared_context(options, None)
    }

    /// The context of `renderer`, with the print edition's page map when
    /// there is one, and the formulas drawn as images when it shows them.
    pub(crate) fn context_with<'p>(
        &'p self,
        options: &BuildOptions,
        renderer: &dyn Renderer,
        pages: Option<&'p PageMap>,
    ) -> RenderContext<'p> {
        let images = self
            .formulas
            .as_ref()
            .filter(|_| renderer.shows_formula_images());
        self.shared_context(options, pages)
            .with_formula_images(images)
            .with_images(self.images.get(renderer.name()))
    }

    fn shared_context<'p>(
        &'p self,
        options: &BuildOptions,
        pages: Option<&'p PageMap>,
    ) -> RenderContext<'p> {
        let edition = self.edition;
        let (book, layout) = (&edition.book, &edition.layout);
        RenderContext::new(
            book,
            &self.notes,
            &self.ids,
            &self.theme,
            &edition.roots,
            layout,
        )
        .with_cover(self.cover.as_deref())
        .with_sources(options.emit_sources)
        .with_pages(pages)
        .with_alternates(&self.alternates)
    }

    /// The bytes of the image files `renderer` is given (those made for
    /// it, else the book's own).
    pub(crate) fn image_bytes(&self, renderer: &dyn Renderer) -> u64 {
        let made = self.images.get(renderer.name());
        self.edition
            .book
            .assets
            .iter()
            .map(|asset| {
                let path = made
                    .and_then(|m| m.get(&asset.name))
                    .and_then(|m| m.path.as_deref())
                    .unwrap_or(std::path::Path::new(&asset.path));
                std::fs::metadata(path).map_or(0, |m| m.len())
            })
            .sum()
    }

    /// The files of the build cache this edition's images use.
    pub(crate) fn image_files(&self) -> Vec<String> {
        crate::images::files(&self.images)
    }

    pub(crate) fn stem(&self) -> String {
        format!("{}-{}", self.config.id, self.edition.book.lang)
    }
}

/// Cover resolution: 3 pixels per point makes a 14 × 21 cm cover about
/// 1190 × 1786 pixels, sharp on tablets without bloating the EPUB.
const COVER_PIXELS_PER_PT: f32 = 3.0;

pub(crate) fn prepare<'a>(
    options: &BuildOptions,
    config: &'a BookConfig,
    edition: &'a Edition,
) -> Result<Prepared<'a>, Vec<Diagnostic>> {
    // The EPUB's and the web edition's cover is the print edition's first
    // page, drawn once for both, so that every edition looks alike.
    let wants_cover = options
        .formats
        .iter()
        .any(|f| !options.renderer(f).draws_covers());
    // A check writes nothing, not even a cover into the cache.
    let cover = if wants_cover {
        CoverPlan::Draw(Stored::Off)
    } else {
        CoverPlan::Skip
    };
    // A check writes nothing: it reads the images as they are.
    prepare_with(
        options,
        config,
        edition,
        cover,
        &options.formats,
        Stored::Off,
    )
}

/// [`prepare`], with the cover as `cover` says, for the formats `making`
/// (those of the build the cache does not hold), their images made as
/// `images` says (the image step; [`Stored::Off`]: none made, the images
/// given as they are).
pub(crate) fn prepare_with<'a>(
    options: &BuildOptions,
    config: &'a BookConfig,
    edition: &'a Edition,
    cover: CoverPlan,
    making: &[&str],
    images: Stored,
) -> Result<Prepared<'a>, Vec<Diagnostic>> {
    let mut prepared = Prepared {
        config,
        edition,
        notes: NotesPlan::of(&edition.book),
        ids: IdIndex::of(&edition.book),
        theme: theme_dir(options, config)?,
        cover: None,
        cover_key: None,
        alternates: Vec::new(),
        formulas: None,
        images: std::collections::HashMap::new(),
    };
    if let (CoverPlan::Draw(stored), Some(painter)) = (cover, options.renderers.cover_painter()) {
        let _t = crate::timings::phase(|| format!("  cover {}", prepared.stem()));
        let ctx = prepared.context(options);
        let (png, key) =
            crate::covers::cover_png(options, painter, &ctx, COVER_PIXELS_PER_PT, stored)?;
        prepared.cover = Some(png);
        prepared.cover_key = key;
    }
    prepared.formulas = formula_images(options, &prepared, making)?;
    if images != Stored::Off {
        prepared.images = crate::images::make_all(options, config, edition, making, images)?;
    }
    Ok(prepared)
}

/// The edition's formulas drawn by the painter, when book.toml asks for
/// images in place of MathML and a format being made shows them (an EPUB
/// the cache holds needs none drawn).
fn formula_images(
    options: &BuildOptions,
    prepared: &Prepared,
    making: &[&str],
) -> Result<Option<FormulaImages>, Vec<Diagnostic>> {
    let wanted = prepared.config.math.epub == stoa_book::math::MathOutput::Svg
        && making
            .iter()
            .any(|f| options.renderer(f).shows_formula_images());
    let Some(painter) = options.renderers.formula_painter().filter(|_| wanted) else {
        return Ok(None);
    };
    let formulas = stoa_math::formulas_of(&prepared.edition.book);
    if formulas.is_empty() {
        return Ok(None);
    }
    let _t = crate::timings::phase(|| format!("  formulas {}", prepared.stem()));
    let images = painter.formula_images(&prepared.context(options), &formulas)?;
    Ok(Some(images))
}

/// The book's theme: the folder `themes/<name>/` when there is one, else
/// the theme of that name built into stoa (`classic`).
pub(crate) fn theme_dir(
    options: &BuildOptions,
    config: &BookConfig,
) -> Result<Theme, Vec<Diagnostic>> {
    let dir = options.themes_dir.join(&config.theme);
    if let Some(theme) = Theme::resolve(&options.themes_dir, &config.theme) {
        Ok(theme)
    } else {
        Err(vec![
            Diagnostic::error(format!(
                "the theme `{}` does not exist: no folder {} and no built-in theme of that name",
                config.theme,
                dir.display()
            ))
            .in_file(&config.file)
            .with_hint(crate::diagnostics::theme_hint(options, &config.theme)),
        ])
    }
}
