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

/// The text of a PDF, as pdftotext reads it.
fn pdf_text(pdf: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils; scripts/test installs it)");
    assert!(out.status.success(), "pdftotext {}", pdf.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of an EPUB's code (blocks and spans): what may hold tool
/// syntax in every edition.
fn code_text(epub: &Path) -> String {
    let mut code = String::new();
    for name in zip_names(epub)
        .into_iter()
        .filter(|n| n.ends_with(".xhtml"))
    {
        let doc = zip_entry(epub, &name);
        for open in ["<pre", "<code"] {
            let close = if open == "<pre" { "</pre>" } else { "</code>" };
            let mut rest = doc.as_str();
            while let Some(start) = rest.find(open) {
                let Some(end) = rest[start..].find(close) else {
                    break;
                };
                code.push_str(&markup_text(&rest[start..start + end]));
                code.push('\n');
                rest = &rest[start + end..];
            }
        }
    }
    code
}

fn check(blog: &Blog) {
    let corpus = CorpusBlog::named(blog.name);
    let tmp = tempfile::tempdir().unwrap();
    let source = corpus.dir.join("site");
    check_import(blog, &corpus.kind, &source, tmp.path(), &[]);
}

/// Imports `source` as a blog of `kind` into `tmp` (with the `extra`
/// arguments), builds it and checks every edition; gives the import's log.
fn check_import(blog: &Blog, kind: &str, source: &Path, tmp: &Path, extra: &[&str]) -> String {
    let out = std::process::Command::new(stoa_bin())
        .args(["import", kind, source.to_str().unwrap(), "blog"])
        .args(extra)
        .current_dir(tmp)
        .env("XDG_CACHE_HOME", tmp.join("cache"))
        .output()
        .unwrap();
    let log = output_text(&out);
    assert!(out.status.success(), "{}: import failed:\n{log}", blog.name);
    let project = tmp.join("blog");
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
        // The PDF's text holds the code too: a tool's syntax may be there
        // as often as the code has it, no more.
        let pdf = pdf_text(&dist.join(format!("blog-{lang}.pdf")));
        let code = code_text(epub);
        for syntax in TOOL_SYNTAX {
            assert!(
                !text.contains(syntax),
                "{} {lang}: `{syntax}` left in the text:\n{text}",
                blog.name
            );
            assert!(
                pdf.matches(syntax).count() <= code.matches(syntax).count(),
                "{} {lang}: `{syntax}` left in the PDF's text:\n{pdf}",
                blog.name
            );
        }
    }
    log
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

/// AstroPaper's posts (a folder of Markdown: `pubDatetime`, images under
/// Vite's `@/` alias, `<video>` elements, a draft), imported with
/// `--fetch-images` and `--drafts`: its 16 pictures on the web (GitHub
/// attachments with no extension, an SVG, a WebP) come from their hosts,
/// here a server on 127.0.0.1 in their place, into every edition.
#[test]
fn astro_paper_blog_with_its_pictures_on_the_web() {
    let blog = Blog {
        name: "astro-paper",
        editions: &[("en", 4)],
    };
    let corpus = CorpusBlog::named(blog.name);
    let web = corpus.dir.join("web");
    let server = web_server::serve(&web);
    let tmp = tempfile::tempdir().unwrap();
    // The blog as it is, its hosts pointed at the server.
    let source = tmp.path().join("site");
    copy_dir(&corpus.dir.join("site"), &source);
    // Each picture's address, as the posts write it.
    let addresses: Vec<String> = files_below(&web)
        .iter()
        .map(|p| format!("https://{}", p.to_string_lossy().replace('\\', "/")))
        .collect();
    let mut pictures = 0;
    let posts = files_below(&source)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| source.join(p));
    for post in posts {
        let mut text = std::fs::read_to_string(&post).unwrap();
        for address in &addresses {
            pictures += text.matches(&format!("]({address})")).count();
            let local = address.replace("https:/", &server.address);
            text = text.replace(&format!("]({address})"), &format!("]({local})"));
        }
        std::fs::write(&post, text).unwrap();
    }
    assert_eq!(pictures, 16);
    let log = check_import(
        &blog,
        &corpus.kind,
        &source,
        tmp.path(),
        &["--fetch-images", "--drafts"],
    );
    assert!(!log.contains("could not be downloaded"), "{log}");
    assert!(!log.contains("is not in the site"), "{log}");
    let epub = tmp.path().join("blog/dist/blog/blog-en.epub");
    let images = zip_names(&epub)
        .into_iter()
        .filter(|n| {
            [".png", ".jpg", ".jpeg", ".svg", ".webp"]
                .iter()
                .any(|e| n.ends_with(e))
        })
        .filter(|n| !n.contains("cover"))
        .count();
    // The 16 from the web and the 2 of src/assets/.
    assert_eq!(images, 18, "{:?}", zip_names(&epub));
}
