//! A small (X)HTML writer that escapes everything it is given. Markup is
//! only ever produced by its methods, so text can never break it. The
//! escaping is `stoa_doc::escape`'s, every writer's.

use crate::Flavor;
use std::fmt::Write;
use stoa_doc::escape::{push_xml_attribute, push_xml_text};

/// Builds an (X)HTML fragment.
pub struct Xml {
    out: String,
    open: Vec<&'static str>,
    flavor: Flavor,
}

impl Xml {
    /// An empty fragment written as `flavor` wants it.
    pub fn new(flavor: Flavor) -> Self {
        Xml {
            out: String::new(),
            open: Vec::new(),
            flavor,
        }
    }

    /// The flavour this fragment is written in.
    pub fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// Opens `<tag attr="value" ...>`; attributes with an empty name are skipped.
    pub fn open(&mut self, tag: &'static str, attrs: &[(&str, &str)]) -> &mut Self {
        self.start_tag(tag, attrs);
        self.out.push('>');
        self.open.push(tag);
        self
    }

    /// [`Xml::open`] with owned attributes.
    pub fn open_owned(&mut self, tag: &'static str, attrs: &[(String, String)]) -> &mut Self {
        let attrs: Vec<(&str, &str)> = attrs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        self.open(tag, &attrs)
    }

    /// A void element: `<tag .../>` in XHTML, `<tag ...>` in HTML (where
    /// the slash is only tolerated).
    pub fn empty(&mut self, tag: &'static str, attrs: &[(&str, &str)]) -> &mut Self {
        self.start_tag(tag, attrs);
        self.out.push_str(match self.flavor {
            Flavor::Epub => "/>",
            Flavor::Html => ">",
        });
        self
    }

    fn start_tag(&mut self, tag: &str, attrs: &[(&str, &str)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attrs.iter().filter(|(n, _)| !n.is_empty()) {
            let _ = write!(self.out, " {name}=\"");
            push_xml_attribute(&mut self.out, value);
            self.out.push('"');
        }
    }

    /// Closes the innermost open element.
    ///
    /// # Panics
    /// When no element is open: a bug in the caller, never in the input.
    pub fn close(&mut self) -> &mut Self {
        let tag = self.open.pop().expect("close matches an open");
        let _ = write!(self.out, "</{tag}>");
        self
    }

    /// `<tag attrs>text</tag>`.
    pub fn element(&mut self, tag: &'static str, attrs: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attrs).text(text).close()
    }

    /// Escaped text.
    pub fn text(&mut self, text: &str) -> &mut Self {
        push_xml_text(&mut self.out, text);
        self
    }

    /// A line break in the source, for readability only.
    pub fn newline(&mut self) -> &mut Self {
        self.out.push('\n');
        self
    }

    /// Appends markup this crate wrote (a finished fragment of the same flavour).
    pub(crate) fn markup(&mut self, markup: &str) -> &mut Self {
        self.out.push_str(markup);
        self
    }

    /// The finished fragment.
    ///
    /// # Panics
    /// When an element is still open: a bug in the caller.
    pub fn finish(self) -> String {
        assert!(
            self.open.is_empty(),
            "every element is closed: {:?}",
            self.open
        );
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attributes() {
        let mut x = Xml::new(Flavor::Epub);
        x.open("p", &[("title", "a\"<b>&")])
            .text("x < y && ]]> \u{1}\u{85}\u{ffff}z")
            .close();
        assert_eq!(
            x.finish(),
            "<p title=\"a&quot;&lt;b&gt;&amp;\">x &lt; y &amp;&amp; ]]&gt; z</p>"
        );
    }

    #[test]
    fn void_elements_follow_the_flavor() {
        let mut x = Xml::new(Flavor::Epub);
        x.empty("br", &[]);
        assert_eq!(x.finish(), "<br/>");
        let mut x = Xml::new(Flavor::Html);
        x.empty("img", &[("src", "a.png"), ("", "skipped"), ("alt", "")]);
        assert_eq!(x.finish(), "<img src=\"a.png\" alt=\"\">");
    }
}
