//! Knows whether translations are in step with their sources.
//!
//! A translation says which version of its source it translates with the
//! front matter key `translation-of = { lang = "pt-BR", fingerprint = "…",
//! paragraphs = "…" }` (checked by `stoa-book`), written by `stoa
//! translations mark` ([`mark()`]). The fingerprint is a short hash of the
//! source's normalised text, so whitespace-only edits do not count
//! ([`text`], [`fingerprint`]); the per-paragraph digests let a stale
//! report name the paragraphs that changed, and alignment ([`align`]) finds
//! the paragraph (or dialogue turn) of the translation that translates
//! each, or says that the two no longer have the same shape. [`status`]
//! makes the matrix of posts by languages that `stoa status` prints
//! ([`report`]), and [`check`] the warnings of `stoa build`.

pub mod align;
pub mod compare;
pub mod fingerprint;
pub mod mark;
pub mod report;
pub mod status;
pub mod text;

pub use compare::{Change, ChangeKind, Comparison, Place, Stale, compare};
pub use mark::{Marked, mark};
pub use report::{check, render};
pub use status::{BookStatus, Cell, Row, book_status};
