//! Whole documents around a body: the XML prologue and namespaces of
//! EPUB's XHTML, or the HTML5 head of a web page.

use crate::Flavor;
use crate::xml::Xml;

/// What a document's head says.
pub struct Page<'a> {
    /// The language of the text (BCP 47).
    pub lang: &'a str,
    /// The document's title.
    pub title: &'a str,
    /// The style sheet's file.
    pub stylesheet: &'a str,
    /// More elements for the head, already written with an [`Xml`] of the
    /// same flavour.
    pub head: &'a str,
    /// Attributes of `body`.
    pub body_attrs: &'a [(&'a str, &'a str)],
}

/// The writing direction of `lang`: `rtl` for the scripts written right to
/// left, `ltr` otherwise (the locale table decides, for every format).
pub fn direction(lang: &str) -> &'static str {
    stoa_locale::direction(lang)
}

/// A whole document around `body`.
pub fn document(flavor: Flavor, page: &Page, body: &str) -> String {
    let mut head = Xml::new(flavor);
    let lang = stoa_doc::escape::xml_attribute(page.lang);
    let dir = direction(page.lang);
    let mut out = match flavor {
        Flavor::Epub => {
            // EPUB keeps the default direction unsaid, as it always has.
            let dir = if dir == "rtl" { " dir=\"rtl\"" } else { "" };
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n\
                 <html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\" \
                 lang=\"{lang}\" xml:lang=\"{lang}\"{dir}>\n<head>\n"
            )
        }
        Flavor::Html => format!("<!DOCTYPE html>\n<html lang=\"{lang}\" dir=\"{dir}\">\n<head>\n"),
    };
    head.empty("meta", &[("charset", "utf-8")]).newline();
    if flavor == Flavor::Html {
        head.empty(
            "meta",
            &[
                ("name", "viewport"),
                ("content", "width=device-width, initial-scale=1"),
            ],
        )
        .newline();
        head.empty(
            "meta",
            &[("name", "color-scheme"), ("content", "light dark")],
        )
        .newline();
    }
    head.element("title", &[], page.title).newline();
    let css_type = if flavor.is_epub() { "type" } else { "" };
    head.empty(
        "link",
        &[
            ("rel", "stylesheet"),
            (css_type, "text/css"),
            ("href", page.stylesheet),
        ],
    )
    .newline();
    out.push_str(&head.finish());
    out.push_str(page.head);
    out.push_str("</head>\n");
    let mut tail = Xml::new(flavor);
    tail.open("body", page.body_attrs).newline();
    tail.markup(body);
    tail.newline().close().newline();
    out.push_str(&tail.finish());
    out.push_str("</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page<'a>(lang: &'a str, body_attrs: &'a [(&'a str, &'a str)]) -> Page<'a> {
        Page {
            lang,
            title: "T & U",
            stylesheet: "style.css",
            head: "",
            body_attrs,
        }
    }

    #[test]
    fn xhtml_declares_language_twice() {
        let p = document(
            Flavor::Epub,
            &page("pt-BR", &[("epub:type", "bodymatter")]),
            "<p/>",
        );
        assert!(p.starts_with("<?xml"));
        assert!(p.contains("lang=\"pt-BR\" xml:lang=\"pt-BR\">"), "{p}");
        assert!(p.contains("<title>T &amp; U</title>"));
        assert!(p.contains("<body epub:type=\"bodymatter\">\n<p/>\n</body>"));
    }

    #[test]
    fn html_says_language_and_direction_and_fits_phones() {
        let p = document(Flavor::Html, &page("ar", &[]), "<p>x</p>");
        assert!(p.starts_with("<!DOCTYPE html>\n<html lang=\"ar\" dir=\"rtl\">"));
        assert!(p.contains("<meta charset=\"utf-8\">"));
        assert!(p.contains("name=\"viewport\""));
        assert!(p.contains("<link rel=\"stylesheet\" href=\"style.css\">"));
        assert!(!p.contains("xmlns") && !p.contains("/>"), "{p}");
        assert_eq!(direction("pt-BR"), "ltr");
    }
}
