//! The table of contents as a page shows it, for the EPUB's contents page
//! and the web edition's start page: every chapter with its summary, the
//! posts of each part nested under the part's title.

use crate::Xml;
use stoa_doc::{Book, ChapterKind};
use stoa_render::Layout;

/// The id of part `index` (0-based) in the contents: `part-1`, `part-2`…,
/// which the web edition's chapter pages link back to. (A slug never
/// collides: this is an id inside the contents page, not a file.)
pub fn part_id(index: usize) -> String {
    format!("part-{}", index + 1)
}

/// Writes the contents' `<ol>`: one item per chapter (`href` gives the
/// link of chapter `i`), the chapters of a part nested in an item that
/// starts with the part's title as a heading of level `heading` (`"h2"`
/// under the EPUB's `h1`, `"h3"` under the web page's `h2`).
pub fn contents_list(
    x: &mut Xml,
    book: &Book,
    layout: &Layout,
    heading: &'static str,
    href: &dyn Fn(usize) -> String,
) {
    x.open("ol", &[]).newline();
    for group in layout.groups(&book.chapters) {
        if let Some(part) = group.part {
            let id = part_id(part);
            x.open("li", &[("class", "part"), ("id", &id)]);
            x.element(
                heading,
                &[("class", "part-title")],
                &layout.parts[part].title,
            );
            x.open("ol", &[]).newline();
        }
        for &i in &group.chapters {
            let chapter = &book.chapters[i];
            let class = if chapter.kind == ChapterKind::Post {
                "post"
            } else {
                "back"
            };
            // Bound as the chapter's own title is (no short word ends a
            // line, nor a last word stands alone), for the stylesheets'
            // balanced lines.
            let printed = stoa_locale::bind_title(&chapter.title, &book.lang);
            x.open("li", &[("class", class)])
                .element("a", &[("href", &href(i))], &printed);
            if let Some(summary) = &chapter.summary {
                x.element("p", &[("class", "summary")], summary);
            }
            x.close().newline();
        }
        if group.part.is_some() {
            x.close().close().newline();
        }
    }
    x.close();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Flavor;
    use stoa_doc::Chapter;
    use stoa_render::Part;

    #[test]
    fn the_posts_of_a_part_nest_under_its_title() {
        let chapter = |slug: &str, kind| Chapter {
            slug: slug.into(),
            title: slug.to_uppercase(),
            kind,
            ..Chapter::default()
        };
        let book = Book {
            version: stoa_doc::TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: Default::default(),
            labels: Default::default(),
            chapters: vec![
                chapter("a", ChapterKind::Post),
                chapter("b", ChapterKind::Post),
                chapter("about", ChapterKind::About),
                Chapter {
                    title: "Notes on the Sea".into(),
                    ..chapter("sea", ChapterKind::About)
                },
            ],
            assets: Vec::new(),
            styles: Vec::new(),
            print: Default::default(),
        };
        let layout = Layout {
            parts: vec![Part {
                title: "Essays & <more>".into(),
                slugs: vec!["a".into(), "b".into()],
            }],
            openings: Default::default(),
            short_titles: Default::default(),
        };
        let mut x = Xml::new(Flavor::Html);
        contents_list(&mut x, &book, &layout, "h3", &|i| format!("{i}.html"));
        let html = x.finish();
        assert!(
            html.contains(r#"<li class="part" id="part-1"><h3 class="part-title">Essays &amp; &lt;more&gt;</h3><ol>"#),
            "{html}"
        );
        let nested = html.find("0.html").unwrap() > html.find("part-title").unwrap();
        // Titles are bound as the chapter pages' are: "the" never ends a line.
        assert!(
            html.contains("<a href=\"3.html\">Notes on\u{a0}the\u{a0}Sea</a>"),
            "{html}"
        );
        assert!(nested, "{html}");
        assert!(
            html.find(r#"<li class="back">"#).unwrap() > html.rfind("</ol></li>").unwrap(),
            "{html}"
        );
    }
}
