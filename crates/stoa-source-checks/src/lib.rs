//! Tests over the workspace's own sources, read as text, with no code of
//! their own to ship (`cargo test -p stoa-source-checks`):
//!
//! - `module_graph`: no import circle between the files of any crate of
//!   the workspace;
//! - `copies`: fixed lists (label keys, glossary headings, the Markdown
//!   dialect) written once.

#[cfg(test)]
mod copies;
#[cfg(test)]
mod module_graph;
