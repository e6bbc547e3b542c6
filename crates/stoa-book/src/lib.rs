//! Loads and validates books: `book.toml`, posts with TOML front matter, images.
//! Turns a book folder into one `stoa_doc::Book` per language, or clear errors.

pub mod cite;
mod config;
pub mod cover;
mod edition;
pub mod figures;
mod front;
pub mod images;
mod labels;
mod lang;
mod length;
pub mod limits;
pub mod math;
mod notes;
pub mod parts;
mod picture;
mod post;
mod press;
pub mod rewrite;
pub mod slug;
mod source;
pub mod suggest;
mod text;
mod translation;

pub use config::{BookConfig, PluginConfig, PrintConfig, load_config};
pub use edition::{Edition, epoch_to_iso, load_editions, load_editions_with, post_languages};
pub use front::{FrontFormat, yaml_table, yaml_table_last_wins};
pub use lang::Language;
pub use picture::{decoded_images, remember_decoded};
pub use post::{Post, PostHeader, load_post, read_header};
pub use press::PressText;
pub use source::{SourceFile, line_col};
pub use translation::{FINGERPRINT_LEN, PARAGRAPH_DIGEST_LEN, TRANSLATION_OF, TranslationOf};

use std::path::{Path, PathBuf};
use stoa_doc::Diagnostic;

/// The file that marks a folder as a book.
pub const BOOK_FILE: &str = "book.toml";

/// Every folder below `books_dir` that holds a `book.toml`, sorted by name.
pub fn discover(books_dir: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    let entries = std::fs::read_dir(books_dir).map_err(|e| {
        Diagnostic::error(format!("cannot read the books folder: {e}"))
            .in_file(books_dir.display().to_string())
            .with_hint("run stoa from the folder that holds books/, or pass --books DIR")
    })?;
    let mut books: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(BOOK_FILE).is_file())
        .collect();
    books.sort();
    Ok(books)
}

/// book.toml of one English book with no posts, then `extra`, loaded from
/// a temporary folder: for the tests of one table.
#[cfg(test)]
pub(crate) fn load_english_with(extra: &str) -> Result<BookConfig, Vec<stoa_doc::Diagnostic>> {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "title = {{ en = \"T\" }}\nauthor = \"A\"\nlanguages = [\"en\"]\nidentifier = \"urn:x\"\nposts = []\n{extra}"
    );
    std::fs::write(dir.path().join(BOOK_FILE), toml).unwrap();
    load_config(dir.path())
}
