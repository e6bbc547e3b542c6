//! What an open inline HTML element becomes: held in the builder's frames
//! (build.rs), made and closed by the reader of raw HTML (raw_inline.rs),
//! so it sits below both.

use stoa_doc::{Attrs, Role};

/// What an open HTML element becomes when it closes.
pub(crate) enum TagNode {
    /// `<span lang>`: a phrase in another language.
    Lang(String),
    Emph,
    Strong,
    Strike,
    /// `<code>`, `<tt>`, `<samp>`: the words as inline code.
    Code,
    /// `<sup>`, `<sub>`, `<kbd>`, `<mark>`, `<abbr>`, `<u>`: a span with
    /// that meaning.
    Role(Role, Attrs),
    /// `<a href>`: a link, or its words when the address is unsafe.
    Link(Option<String>, String),
    /// `<q>`: the words in quotation marks.
    Quote,
    /// An embedded player (`<iframe>`, `<video>`, `<audio>`, `<object>`):
    /// a link to its address.
    Embed(String),
    /// Presentation only (`<span>`, `<font>`, `<center>`, `<small>`) or an
    /// element stoa does not know: the words.
    Wrapper,
    /// A script, a style, a form: nothing.
    Drop,
}
