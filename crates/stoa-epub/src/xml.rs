//! A small XHTML writer that escapes everything it is given. Markup is
//! only ever produced by its methods, so text can never break it.

use std::fmt::Write;

/// Builds an XHTML fragment.
#[derive(Default)]
pub struct Xml {
    out: String,
    open: Vec<&'static str>,
}

impl Xml {
    /// An empty fragment.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens `<tag attr="value" ...>`; attributes with an empty name are skipped.
    pub fn open(&mut self, tag: &'static str, attrs: &[(&str, &str)]) -> &mut Self {
        self.start_tag(tag, attrs);
        self.out.push('>');
        self.open.push(tag);
        self
    }

    /// Writes `<tag .../>`.
    pub fn empty(&mut self, tag: &'static str, attrs: &[(&str, &str)]) -> &mut Self {
        self.start_tag(tag, attrs);
        self.out.push_str("/>");
        self
    }

    fn start_tag(&mut self, tag: &str, attrs: &[(&str, &str)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attrs.iter().filter(|(n, _)| !n.is_empty()) {
            let _ = write!(self.out, " {name}=\"");
            escape_into(&mut self.out, value, true);
            self.out.push('"');
        }
    }

    /// Closes the innermost open element.
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
        escape_into(&mut self.out, text, false);
        self
    }

    /// A line break in the source, for readability only.
    pub fn newline(&mut self) -> &mut Self {
        self.out.push('\n');
        self
    }

    /// The finished fragment.
    pub fn finish(self) -> String {
        assert!(
            self.open.is_empty(),
            "every element is closed: {:?}",
            self.open
        );
        self.out
    }
}

/// Escapes text for XML content or attributes, dropping the characters XML
/// 1.0 forbids (most C0 controls), which no reader could show anyway.
pub fn escape_into(out: &mut String, text: &str, attribute: bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\n' | '\t' if attribute => {
                let _ = write!(out, "&#{};", c as u32);
            }
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
}

/// Escaped text as a new string.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text, false);
    out
}

/// A full XHTML document around `body`.
pub fn page(lang: &str, title: &str, body_type: &str, body: &str) -> String {
    let mut head = Xml::new();
    head.element("title", &[], title);
    let lang_attr = escape(lang);
    let body_attr = if body_type.is_empty() {
        String::new()
    } else {
        format!(" epub:type=\"{}\"", escape(body_type))
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n\
         <html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\" \
         lang=\"{lang_attr}\" xml:lang=\"{lang_attr}\">\n<head>\n<meta charset=\"utf-8\"/>\n{}\n\
         <link rel=\"stylesheet\" type=\"text/css\" href=\"stylesheet.css\"/>\n</head>\n\
         <body{body_attr}>\n{body}\n</body>\n</html>\n",
        head.finish()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attributes() {
        let mut x = Xml::new();
        x.open("p", &[("title", "a\"<b>&")])
            .text("x < y && ]]> \u{1}z")
            .close();
        assert_eq!(
            x.finish(),
            "<p title=\"a&quot;&lt;b&gt;&amp;\">x &lt; y &amp;&amp; ]]&gt; z</p>"
        );
    }

    #[test]
    fn page_declares_language_twice() {
        let p = page("pt-BR", "T & U", "bodymatter", "<p/>");
        assert!(p.contains("lang=\"pt-BR\" xml:lang=\"pt-BR\""));
        assert!(p.contains("<title>T &amp; U</title>"));
    }
}
