//! The one place where text becomes markup. Every writer escapes through
//! these functions: the XHTML of the EPUB and the web edition
//! (stoa-xhtml), the SVG of drawings (stoa-diagram), the download page and
//! the catalogs (stoa-site), the Typst source of the PDF (stoa-pdf), and the
//! plugins, which put words of a post (a speaker's name, a term) into a raw
//! payload ([`crate::Block::Raw`]) through `stoa_sdk::escape`, so that `<`,
//! `&`, `#`, `]` or `#read("/etc/passwd")` are printed, not run. A test
//! fails if a second escaper appears anywhere in the workspace.
//!
//! # XML and HTML
//!
//! One set of rules: `&`, `<` and `>` always become references, and the
//! characters of [`xml_dropped`] (those XML forbids or discourages and HTML
//! calls parse errors) never reach the output. The three functions differ
//! only in what else they escape, and each exists because a writer needs
//! its output exactly as it is:
//!
//! | function          | also escapes                         | for |
//! |-------------------|--------------------------------------|-----|
//! | [`xml_text`]      | nothing                              | element content, by a writer that knows it writes content (stoa-xhtml, the text of stoa-diagram's drawings): quotes stay as the author typed them |
//! | [`xml_attribute`] | `"`; tab and line feed as references | double-quoted attribute values: a parser reads a literal tab or line feed there as a space, a reference as itself |
//! | [`xhtml`]         | `"` and `'`                          | text whose place the escaper cannot see (a plugin's raw payload, stoa-site's pages): safe in content and in attributes quoted either way, where a literal tab or line feed reads as a space |
//!
//! HTML needs no flavour of its own: every reference written here means
//! the same in HTML and XML, and what the HTML parser would report (controls
//! and noncharacters in the text, a reference to a carriage return) is
//! among the dropped characters.
//!
//! # Typst
//!
//! [`typst_string`] (or [`push_typst_string`]) writes a string literal and
//! [`typst_markup`] that literal as an expression in markup: text from a
//! post reaches Typst in no other way. A formula's symbols reach Typst
//! math through [`push_typst_math_symbol`].

#[cfg(test)]
mod guard;
mod typst;
mod xml;

pub use typst::{push_typst_math_symbol, push_typst_string, typst_markup, typst_string};
pub use xml::{
    push_xml_attribute, push_xml_text, xhtml, xml_attribute, xml_dropped, xml_text, xml_unescape,
};
