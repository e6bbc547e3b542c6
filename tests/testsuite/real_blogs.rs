//! Real blogs by other authors (issue 50), each trimmed to a small fixture
//! in tests/fixtures/corpus/<name>/ with its source, commit and licence in
//! SOURCE.toml: each imports and builds with exit 0, every EPUB passes
//! EPUBCheck (and Ace: accessibility.rs), each language's edition holds the posts the site has in that
//! language, and no tool syntax (Liquid, shortcodes, wiki links, front
//! matter) is left in any edition's text outside code.

use crate::prelude::*;
use std::path::{Path, PathBuf};

/// One blog of the corpus: its folder, and per language the number of
/// posts its edition holds.
struct Blog {
    name: &'static str,
    editions: &'static [(&'static str, usize)],
}

/// Text no edition may hold outside code: what the site's tools write.
const TOOL_SYNTAX: &[&str] = &[
    "{%", "%}", "{{<", ">}}", "{{%", "[[", "]]", "---js", "+++", ":::",
];

/// The text of an EPUB's chapters with their code (blocks and spans)
/// taken out.
fn prose(epub: &Path) -> String {
    zip_names(epub)
        .into_iter()
        .filter(|n| n.ends_with(".xhtml"))
        .map(|n| {
            let doc = zip_entry(epub, &n);
            let mut text = doc.split_once("<body").map_or("", |(_, b)| b).to_string();
            for (open, close) in [("<pre", "</pre>"), ("<code", "</code>")] {
                while let Some(start) = text.find(open) {
                    let Some(end) = text[start..].find(close) else {
                        break;
                    };
                    text.replace_range(start..start + end + close.len(), " ");
                }
            }
            markup_text(&text)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn check(blog: &Blog) {
    let corpus = CorpusBlog::named(blog.name);
    let tmp = tempfile::tempdir().unwrap();
    let source = corpus.dir.join("site");
    let out = stoa(
        tmp.path(),
        &["import", &corpus.kind, source.to_str().unwrap(), "blog"],
    );
    let log = output_text(&out);
    assert!(out.status.success(), "{}: import failed:\n{log}", blog.name);
    let project = tmp.path().join("blog");
    let built = stoa(&project, &["build"]);
    let build_log = output_text(&built);
    assert!(
        built.status.success(),
        "{}: build failed:\n{build_log}",
        blog.name
    );
    let dist = project.join("dist/blog");
    let epubs: Vec<PathBuf> = blog
        .editions
        .iter()
        .map(|(lang, _)| dist.join(format!("blog-{lang}.epub")))
        .collect();
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "{}: {failures:#?}", blog.name);
    for ((lang, posts), epub) in blog.editions.iter().zip(&epubs) {
        assert!(
            dist.join(format!("blog-{lang}.pdf")).is_file(),
            "{lang} PDF"
        );
        assert!(
            dist.join(lang).join("index.html").is_file(),
            "{lang} web edition"
        );
        let chapters = post_chapters(epub).len();
        assert_eq!(chapters, *posts, "{} {lang}: chapters\n{log}", blog.name);
        let text = prose(epub);
        for syntax in TOOL_SYNTAX {
            assert!(
                !text.contains(syntax),
                "{} {lang}: `{syntax}` left in the text:\n{text}",
                blog.name
            );
        }
    }
}

/// jekyll-polyglot's own site (Jekyll, polyglot's languages, a post dated
/// with a one-digit month, `{% raw %}` inside `{% highlight %}`).
#[test]
fn polyglot_jekyll_blog_in_five_languages() {
    check(&Blog {
        name: "polyglot",
        editions: &[("en", 3), ("es", 2), ("de", 2), ("nl", 1), ("ar", 1)],
    });
}

/// The tabi theme's demo blog (Zola, English, Spanish, Catalan and Arabic;
/// the theme's `aside` shortcode; KaTeX; links to posts left out).
#[test]
fn tabi_zola_blog_in_four_languages() {
    check(&Blog {
        name: "tabi",
        editions: &[("en", 3), ("es", 3), ("ca", 3), ("ar", 1)],
    });
}

/// eleventy-base-blog (a folder of Markdown: a 404 page kept out of the
/// lists, JavaScript front matter, a draft, an `<img>` beside its post).
#[test]
fn eleventy_base_blog_as_a_folder_of_markdown() {
    check(&Blog {
        name: "eleventy-base-blog",
        editions: &[("en", 3)],
    });
}

/// The hugo-coder theme's example site (Hugo, English and Brazilian
/// Portuguese by suffix; raw HTML with <style> and <script>, math,
/// Mermaid and `vimeo_simple` shortcodes, emoji).
#[test]
fn hugo_coder_blog_in_english_and_portuguese() {
    check(&Blog {
        name: "hugo-coder",
        editions: &[("en", 12), ("pt-BR", 12)],
    });
}

/// minima, Jekyll's default theme: its example posts (no titles of their
/// own, `{% highlight %}`, kramdown attributes, a long article).
#[test]
fn minima_jekyll_example_posts() {
    check(&Blog {
        name: "minima",
        editions: &[("en", 6)],
    });
}

/// The Astro Cactus theme's posts and notes (a folder of Markdown:
/// `publishDate: "25 Aug 2024"`, `:::note` admonitions, a cover beside its
/// post, a draft, a tag page that is no post).
#[test]
fn astro_cactus_blog_as_a_folder_of_markdown() {
    check(&Blog {
        name: "astro-cactus",
        editions: &[("en", 7)],
    });
}

/// The hugo-blog-awesome theme's example site (Hugo, a content folder per
/// language, a language keyed `br` that is pt-BR, British English first;
/// an image on the web).
#[test]
fn hugo_blog_awesome_with_a_content_folder_per_language() {
    check(&Blog {
        name: "hugo-blog-awesome",
        editions: &[("en-GB", 7), ("de-DE", 7), ("pt-BR", 7)],
    });
}

/// The Congo theme's samples (Hugo with its configuration split into
/// config/_default/, a file per language; English, Spanish, German,
/// Japanese and Chinese; Mermaid).
#[test]
fn congo_hugo_site_with_its_configuration_in_a_folder() {
    check(&Blog {
        name: "congo",
        editions: &[
            ("en-AU", 3),
            ("es-MX", 3),
            ("ja", 3),
            ("zh-Hans", 3),
            ("de-DE", 3),
        ],
    });
}
