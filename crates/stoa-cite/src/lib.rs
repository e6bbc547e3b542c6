//! Citations and bibliographies: a BibTeX, BibLaTeX, CSL-JSON or hayagriva YAML file and
//! a CSL style, formatted by hayagriva into the document tree's own inlines.
//!
//! hayagriva is the formatter Typst uses, so it is in the tree already, with
//! the CSL styles and locales it archives. Its output is turned into
//! [`stoa_doc::Inline`]s rather than its HTML (which does not escape), so that
//! every format writes the same words through its own escaping.
//!
//! The order of use: [`Library::parse`] the file, pick a [`Style`], [`parse`]
//! each `[@key, p. 12]` of the book into a [`Cite`], then [`format`] them all
//! at once, in reading order (numbering and "ibid." depend on the order).

mod bib_graph;
mod csl_json;
mod error;
mod format;
mod inlines;
mod library;
mod style;
mod syntax;

pub use error::SourceError;
pub use format::{Entry, Formatted, format};
pub use library::Library;
pub use style::Style;
pub use syntax::{Cite, CiteItem, SyntaxError, is_key_char, key_len, parse};
