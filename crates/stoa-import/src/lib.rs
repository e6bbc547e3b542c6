//! `stoa import`: a front end that turns a blog (a Hugo, Jekyll or Zola
//! site folder, a folder of Markdown files, or a WordPress, Ghost,
//! Substack or feed export) into an
//! ordinary stoa project: `books/<name>/book.toml` and
//! `books/posts/<slug>/<lang>.md` with their images.
//!
//! Each reader returns the same [`model::Imported`]; the writer
//! ([`write::write`]) alone writes files, and only inside the target
//! folder. Nothing of the source tool remains after an import: shortcodes
//! and Liquid tags become Markdown, or visible blocks that are reported.
//! Readers read only the source they are given (no network, unless
//! `--fetch-images` asks them to download the images a post shows from
//! the web) and treat it as hostile: every path is checked to stay inside it, every file's size
//! is bounded.

pub mod model;
pub mod write;

mod address;
mod frontmatter;
mod site;
mod syntax;
mod util;
mod web;

pub mod hugo;
pub mod jekyll;
pub mod markdown;
pub mod zola;

mod export;
pub mod feed;
pub mod ghost;
pub mod substack;
pub mod wordpress;

pub use model::{
    Diagnostic, FetchImages, Image, ImageData, ImportOptions, Imported, Kind, Place, Post, Site,
    Status, Translated,
};
pub use stoa_fetch::Limits;
pub use syntax::NOT_CONVERTED;
pub use write::{Change, MANIFEST, Report, WriteOptions};

use std::path::Path;

/// Reads `source` as a `kind` site or export.
pub fn read(
    kind: Kind,
    source: &Path,
    options: &ImportOptions,
) -> Result<Imported, Vec<Diagnostic>> {
    match kind {
        Kind::Hugo => hugo::read(source, options),
        Kind::Jekyll => jekyll::read(source, options),
        Kind::Zola => zola::read(source, options),
        Kind::WordPress => wordpress::read(source, options),
        Kind::Ghost => ghost::read(source, options),
        Kind::Substack => substack::read(source, options),
        Kind::Feed => feed::read(source, options),
        Kind::Markdown => markdown::read(source, options),
    }
}

/// Reads `source` and writes the project into `dir`: the readers'
/// warnings, then the writer's, are in the report.
pub fn import(
    kind: Kind,
    source: &Path,
    dir: &Path,
    options: &ImportOptions,
    update: bool,
) -> Result<Report, Vec<Diagnostic>> {
    let write_options = WriteOptions {
        update,
        kind,
        source: source.to_path_buf(),
    };
    // The target first: a wrong one is said before the source is read.
    write::check_target(dir, &write_options)?;
    let imported = read(kind, source, options)?;
    let mut warnings = imported.warnings.clone();
    let mut report = write::write(imported, dir, &write_options)?;
    warnings.append(&mut report.warnings);
    report.warnings = warnings;
    Ok(report)
}
