//! The renderer interface, in the spirit of mdBook's `Renderer`: the driver
//! knows output formats only through [`Renderer`]; each format is one crate.
//!
//! What every renderer needs and no renderer should compute for itself is
//! in the [`RenderContext`]: the notes plan, the id index, the cover.

use std::path::{Path, PathBuf};
pub use stoa_doc::Format;
use stoa_doc::{Book, Diagnostic, IdIndex, NotesPlan};

/// One edition (a book in one language), ready to render.
pub struct RenderContext<'a> {
    /// The book, plugins already applied.
    pub book: &'a Book,
    /// Every note numbered and placed, once for all formats.
    pub notes: &'a NotesPlan,
    /// Every id of the book, for links across chapters.
    pub ids: &'a IdIndex,
    /// The theme's folder (`themes/<name>/`): style sheets, Typst template, fonts.
    pub theme: &'a Path,
    /// The folders the book may read files from (its folder, the posts
    /// folder); an image outside them is refused.
    pub roots: &'a [PathBuf],
    /// The cover, drawn once per edition, as PNG; `None` when no renderer
    /// could draw one (or none was asked for).
    pub cover_png: Option<&'a [u8]>,
    /// Also return the intermediate sources (e.g. the generated Typst) for
    /// debugging a theme.
    pub emit_sources: bool,
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
}

/// A rendered artifact: one file, or a folder of files.
#[derive(Debug)]
pub enum Output {
    /// One file, written as `<book>/<book>-<lang>.<format>`.
    File(Vec<u8>),
    /// A folder of files by relative path (`/`-separated, no `..`), written
    /// as `<book>/<lang>/`.
    Folder(Vec<(String, Vec<u8>)>),
}

impl Default for Output {
    fn default() -> Self {
        Output::File(Vec::new())
    }
}

impl Output {
    /// The artifact's size in bytes, all files counted.
    pub fn bytes(&self) -> u64 {
        match self {
            Output::File(bytes) => bytes.len() as u64,
            Output::Folder(files) => files.iter().map(|(_, b)| b.len() as u64).sum(),
        }
    }
}

/// An output format's writer. Implementations must be safe to call from
/// many threads at once (the driver renders editions in parallel) and must
/// never read outside the theme and the [`RenderContext::roots`].
pub trait Renderer: Sync {
    /// The format this renderer writes.
    fn format(&self) -> Format;

    /// Renders one edition.
    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>>;

    /// Whether this renderer can draw the book's cover ([`Renderer::cover_png`]).
    fn draws_covers(&self) -> bool {
        false
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
            self.format()
        ))])
    }
}
