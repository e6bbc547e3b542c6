//! `stoa import wordpress|ghost|substack|feed`: each fixture export
//! (tests/fixtures/import/, made by hand in each platform's documented
//! shape, with HTML bodies, images, a draft, a private post and, where the
//! platform has them, two languages) becomes a project that builds every
//! format, with every published post once per language and nothing of the
//! platform's HTML or shortcodes left; hostile exports (truncated XML or
//! JSON, a zip with `../` names, images outside the export, a DTD, HTML
//! nested a hundred thousand deep) are clear errors or warnings that write
//! nothing outside the target.

use crate::prelude::*;
use std::io::Write as _;
use std::path::{Path, PathBuf};

fn export_fixture(rel: &str) -> PathBuf {
    repo_root().join("tests/fixtures/import").join(rel)
}

/// One export to import and what its book must hold.
struct Export {
    kind: &'static str,
    /// The export, relative to tests/fixtures/import/.
    source: &'static str,
    /// Per language: the titles of its posts.
    editions: &'static [(&'static str, &'static [&'static str])],
    /// Text that only drafts, private posts, pages and page furniture hold:
    /// no output may.
    absent: &'static [&'static str],
    /// Text each conversion must leave in the first edition's web pages.
    converted: &'static [&'static str],
    /// Images the posts must have brought along: (slug, file).
    images: &'static [(&'static str, &'static str)],
}

const WORDPRESS: Export = Export {
    kind: "wordpress",
    source: "wordpress-v1/export.xml",
    editions: &[
        (
            "en",
            &["Keeping Bees in the City", "The Smoker &amp; the Hive"],
        ),
        ("pt-BR", &["Abelhas na Cidade", "O Fumigador e a Colmeia"]),
    ],
    absent: &[
        "DRAFT-MARKER-WORDPRESS",
        "PRIVATE-MARKER-WORDPRESS",
        "PAGE-MARKER-WORDPRESS",
        "BUY-BUTTON-MARKER",
    ],
    converted: &[
        "A forager at work",
        "https://www.youtube.com/watch?v=Bee123abc",
        "https://vimeo.com/76979871",
        "Two boxes are plenty for a",
        "The hive in spring",
        "class=\"language-bash\"",
        "like [sic], stay as text",
        "Honey (kg)",
    ],
    images: &[("keeping-bees", "bee-1024x768.png"), ("smoker", "bee.png")],
};

const GHOST: Export = Export {
    kind: "ghost",
    source: "ghost-v1",
    editions: &[("en", &["Owls at Dusk", "The New Editor", "Night Birds"])],
    absent: &[
        "DRAFT-MARKER-GHOST",
        "PRIVATE-MARKER-GHOST",
        "PAGE-MARKER-GHOST",
        "BUTTON-MARKER-GHOST",
        "SIGNUP-MARKER-GHOST",
        "__GHOST_URL__",
    ],
    converted: &[
        "A tawny owl at dusk",
        "https://www.youtube.com/watch?v=Owl456def",
        "Tawny owl | RSPB",
        "Their feathers have soft edges.",
        "A lexical heading",
        "Markdown cards keep their notes.",
        "nightjars",
    ],
    images: &[("owls-at-dusk", "owl.png")],
};

const SUBSTACK: Export = Export {
    kind: "substack",
    source: "substack-v1",
    editions: &[("en", &["The Fox in Winter", "Tracks in the Snow: a"])],
    absent: &[
        "DRAFT-MARKER-SUBSTACK",
        "PRIVATE-MARKER-SUBSTACK",
        "THREAD-MARKER-SUBSTACK",
        "SUBSCRIBE-MARKER-SUBSTACK",
        "SHARE-MARKER-SUBSTACK",
    ],
    converted: &[
        "A red fox, mousing",
        "https://www.youtube.com/watch?v=Fox789ghi",
        "Post: Tracks in the Snow",
        "Their hearing picks up a mouse",
        "https://example.org/photos/lynx.jpg",
    ],
    images: &[("the-fox-in-winter", "fox.png")],
};

const RSS: Export = Export {
    kind: "feed",
    source: "feed-v1/rss.xml",
    editions: &[(
        "en",
        &["The Grey Heron", "Little Egrets &amp; Their Plumes"],
    )],
    absent: &["track()"],
    converted: &["Waiting at the weir", "wingspan", "plumes"],
    images: &[("grey-heron", "heron.png")],
};

const ATOM: Export = Export {
    kind: "feed",
    source: "feed-v1/atom.xml",
    editions: &[
        ("en", &["Spring Tides", "Neap Tides"]),
        ("pt-BR", &["Marés de Sizígia"]),
    ],
    absent: &[],
    converted: &["pull <em>together</em>", "1 &lt; 2 and *nothing* is bold"],
    images: &[("spring-tides", "heron.png")],
};

/// Every text the outputs of `dist` hold: the EPUBs' XHTML, the web
/// editions' pages, the PDFs' text.
fn output_texts(dist: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for rel in files_below(dist) {
        let path = dist.join(&rel);
        let name = rel.display().to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("epub") => {
                for entry in zip_names(&path) {
                    if entry.ends_with(".xhtml")
                        || entry.ends_with(".ncx")
                        || entry.ends_with(".opf")
                    {
                        out.push((format!("{name}!{entry}"), zip_entry(&path, &entry)));
                    }
                }
            }
            Some("html") => out.push((name, std::fs::read_to_string(&path).unwrap())),
            Some("pdf") => out.push((name, pdftotext(&path, &["-enc", "UTF-8"]))),
            _ => {}
        }
    }
    out
}

/// What only HTML or a WordPress shortcode would write: none may be left
/// in an imported post's Markdown.
const TOOL_SYNTAX: &[&str] = &[
    "<p>",
    "</p>",
    "<div",
    "<span",
    "<figure",
    "<img",
    "<a ",
    "<br",
    "<em>",
    "<strong>",
    "<sup",
    "<iframe",
    "<script",
    "<!--",
    "&nbsp;",
    "&amp;",
    "[caption",
    "[/caption]",
    "[gallery",
    "[embed]",
    "[sourcecode",
    "wp:",
    "kg-card",
    "footnote-anchor",
    "data-attrs",
];

fn check_export(export: &Export) {
    let tmp = tempfile::tempdir().unwrap();
    let source = export_fixture(export.source);
    let out = stoa(
        tmp.path(),
        &["import", export.kind, source.to_str().unwrap(), "blog"],
    );
    let log = output_text(&out);
    assert!(out.status.success(), "import failed:\n{log}");
    assert!(!log.contains("panicked"), "{log}");
    let project = tmp.path().join("blog");
    // The posts' Markdown holds nothing of the platform's syntax.
    let posts = project.join("books/posts");
    for rel in files_below(&posts) {
        if rel.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(posts.join(&rel)).unwrap();
            for syntax in TOOL_SYNTAX {
                assert!(
                    !text.contains(syntax),
                    "`{syntax}` left in {}:\n{text}",
                    rel.display()
                );
            }
        }
    }
    for (slug, image) in export.images {
        assert!(
            posts.join(slug).join(image).is_file(),
            "{slug}/{image} missing:\n{log}"
        );
    }
    let built = stoa(&project, &["build"]);
    let build_log = output_text(&built);
    assert!(built.status.success(), "build failed:\n{build_log}");
    let dist = project.join("dist");
    let epubs: Vec<PathBuf> = export
        .editions
        .iter()
        .map(|(lang, _)| dist.join(format!("blog/blog-{lang}.epub")))
        .collect();
    for (lang, _) in export.editions {
        for file in [
            format!("blog/blog-{lang}.epub"),
            format!("blog/blog-{lang}.pdf"),
            format!("blog/{lang}/index.html"),
        ] {
            assert!(
                dist.join(&file).is_file(),
                "{file} missing:\n{log}{build_log}"
            );
        }
    }
    // stoa's own checks find nothing to say of the converted posts.
    let check = stoa(&project, &["check", "--warn", "--quick"]);
    let check_text = output_text(&check);
    assert!(
        check.status.success() && check_text.contains("0 lint findings"),
        "{check_text}"
    );
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "EPUBCheck: {failures:#?}");
    // Each published post once per language, and only those.
    for ((lang, titles), epub) in export.editions.iter().zip(&epubs) {
        let chapters: Vec<String> = post_chapters(epub);
        assert_eq!(chapters.len(), titles.len(), "{lang}: {chapters:?}");
        let nav = zip_entry(epub, "OEBPS/nav.xhtml");
        let nav = nav.split("landmarks").next().unwrap_or(&nav).to_string();
        for title in *titles {
            assert_eq!(
                nav.matches(title).count(),
                1,
                "{lang}: `{title}` not once in the contents:\n{nav}"
            );
        }
    }
    for (file, text) in output_texts(&dist) {
        for absent in export.absent {
            assert!(!text.contains(absent), "`{absent}` in {file}");
        }
    }
    let first = export.editions[0].0;
    let web: String = files_below(&dist.join("blog").join(first))
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "html"))
        .map(|f| std::fs::read_to_string(dist.join("blog").join(first).join(f)).unwrap())
        .collect();
    for text in export.converted {
        let escaped = text.replace('"', "&quot;").replace('\'', "&#39;");
        assert!(
            web.contains(text) || web.contains(&escaped),
            "`{text}` not in the {first} web edition"
        );
    }
}

#[test]
fn import_wordpress_export_builds_every_format_with_every_post_once_per_language() {
    check_export(&WORDPRESS);
}

#[test]
fn import_ghost_export_builds_every_format_with_every_post_once() {
    check_export(&GHOST);
}

#[test]
fn import_substack_export_builds_every_format_with_every_public_post_once() {
    check_export(&SUBSTACK);
}

#[test]
fn import_rss_feed_builds_every_format() {
    check_export(&RSS);
}

#[test]
fn import_atom_feed_builds_every_format_with_every_post_once_per_language() {
    check_export(&ATOM);
}

/// Zips the folder `from` into `to`, each file under `prefix` + its path.
fn zip_folder(from: &Path, to: &Path, prefix: &str) {
    let file = std::fs::File::create(to).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default();
    for rel in files_below(from) {
        let name = format!("{prefix}{}", rel.display());
        zip.start_file(name, options).unwrap();
        zip.write_all(&std::fs::read(from.join(&rel)).unwrap())
            .unwrap();
    }
    zip.finish().unwrap();
}

#[test]
fn import_substack_zip_reads_as_its_folder_and_drafts_come_with_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    zip_folder(&export_fixture("substack-v1"), &root.join("export.zip"), "");
    let out = stoa(
        root,
        &["import", "substack", "export.zip", "blog", "--drafts"],
    );
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    let posts = root.join("blog/books/posts");
    let all: String = files_below(&posts)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
        .map(|f| std::fs::read_to_string(posts.join(f)).unwrap())
        .collect();
    for marker in [
        "DRAFT-MARKER-SUBSTACK",
        "PRIVATE-MARKER-SUBSTACK",
        "Foxes grow a **thick winter coat**",
    ] {
        assert!(all.contains(marker), "`{marker}` not imported:\n{log}");
    }
    assert!(
        !all.contains("THREAD-MARKER-SUBSTACK"),
        "a thread is not a post"
    );
    assert!(posts.join("the-fox-in-winter/fox.png").is_file(), "{log}");
    // A Ghost export zipped with its images reads as its folder.
    zip_folder(&export_fixture("ghost-v1"), &root.join("ghost.zip"), "");
    let out = stoa(root, &["import", "ghost", "ghost.zip", "ghost-blog"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        root.join("ghost-blog/books/posts/owls-at-dusk/owl.png")
            .is_file(),
        "{log}"
    );
    // WordPress and Ghost drafts too.
    for (kind, source, marker) in [
        (
            "wordpress",
            "wordpress-v1/export.xml",
            "DRAFT-MARKER-WORDPRESS",
        ),
        ("ghost", "ghost-v1", "PRIVATE-MARKER-GHOST"),
    ] {
        let dir = format!("with-drafts-{kind}");
        let out = stoa(
            root,
            &[
                "import",
                kind,
                export_fixture(source).to_str().unwrap(),
                &dir,
                "--drafts",
            ],
        );
        assert!(out.status.success(), "{}", output_text(&out));
        let posts = root.join(&dir).join("books/posts");
        let all: String = files_below(&posts)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "md"))
            .map(|f| std::fs::read_to_string(posts.join(f)).unwrap())
            .collect();
        assert!(
            all.contains(marker),
            "{kind}: `{marker}` not imported with --drafts"
        );
    }
}

/// Every file below `root`, for "nothing written" checks.
fn snapshot(root: &Path) -> Vec<PathBuf> {
    files_below(root)
}

#[test]
fn import_hostile_exports_are_clear_errors_and_write_nothing_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // A WordPress export cut short: its file and last line, and why.
    let wxr = std::fs::read_to_string(export_fixture("wordpress-v1/export.xml")).unwrap();
    let cut = &wxr[..wxr.len() / 2];
    std::fs::write(root.join("cut.xml"), cut).unwrap();
    let before = snapshot(root);
    let out = stoa(root, &["import", "wordpress", "cut.xml", "out"]);
    let line = format!("cut.xml:{}:", cut.lines().count());
    assert_fails_with(
        &out,
        &[&line, "not a readable WordPress export", "cut short"],
    );
    assert!(!root.join("out").exists());
    assert_eq!(snapshot(root), before);
    // A DTD (entities that expand without bound): refused.
    std::fs::write(
        root.join("laughs.xml"),
        "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><rss><channel><title>&b;</title></channel></rss>",
    )
    .unwrap();
    let out = stoa(root, &["import", "wordpress", "laughs.xml", "out"]);
    assert_fails_with(&out, &["laughs.xml:1:", "DOCTYPE"]);
    assert!(!root.join("out").exists());
    // A Ghost export cut short.
    let ghost =
        std::fs::read_to_string(export_fixture("ghost-v1/night-notes.ghost.2024-06-03.json"))
            .unwrap();
    std::fs::write(root.join("cut.json"), &ghost[..ghost.len() / 3]).unwrap();
    let out = stoa(root, &["import", "ghost", "cut.json", "out"]);
    assert_fails_with(
        &out,
        &["cut.json:", "not a readable Ghost export", "cut short"],
    );
    assert!(!root.join("out").exists());
    // JSON that is not a Ghost export says which member is missing.
    std::fs::write(
        root.join("other.json"),
        "{\"db\": [{\"data\": {\"users\": []}}]}",
    )
    .unwrap();
    let out = stoa(root, &["import", "ghost", "other.json", "out"]);
    assert_fails_with(&out, &["other.json", "`db[0].data.posts` is missing"]);
    // A Substack zip whose entries climb out of it: refused whole.
    std::fs::create_dir(root.join("inner")).unwrap();
    let evil = root.join("evil.zip");
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&evil).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("posts.csv", options).unwrap();
        zip.write_all(b"post_id,post_date,is_published,type,audience,title\n1.x,2024-01-01,true,newsletter,everyone,X\n").unwrap();
        zip.start_file("../escaped.html", options).unwrap();
        zip.write_all(b"<p>out</p>").unwrap();
        zip.finish().unwrap();
    }
    let out = stoa(
        &root.join("inner"),
        &["import", "substack", "../evil.zip", "out"],
    );
    assert_fails_with(&out, &["evil.zip", "`../escaped.html` leaves the export"]);
    assert!(!root.join("escaped.html").exists() && !root.join("inner/out").exists());
    // A truncated zip.
    let bytes = std::fs::read(&evil).unwrap();
    std::fs::write(root.join("short.zip"), &bytes[..bytes.len() / 2]).unwrap();
    let out = stoa(root, &["import", "substack", "short.zip", "out"]);
    assert_fails_with(&out, &["short.zip", "not a readable zip"]);
    // A row of posts.csv that is not CSV names its row.
    std::fs::create_dir(root.join("ss")).unwrap();
    std::fs::write(root.join("ss/posts.csv"), "title,audience\nX,everyone\n").unwrap();
    let out = stoa(root, &["import", "substack", "ss", "out"]);
    assert_fails_with(&out, &["posts.csv:1:", "no `post_id` column"]);
    assert!(!root.join("out").exists());
}

#[test]
fn import_images_outside_the_export_are_reported_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir(root.join("export")).unwrap();
    // A file beside the export, which an image path tries to reach.
    std::fs::copy(
        export_fixture("feed-v1/images/heron.png"),
        root.join("secret.png"),
    )
    .unwrap();
    let deep = "<div>".repeat(100_000);
    let feed = format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>T</title><link>https://t.example</link><language>en</language>\
         <item><title>Climbing</title><link>https://t.example/climbing/</link><description><![CDATA[<p>Up: <img src=\"../secret.png\" alt=\"up\"> \
         <img src=\"/../../secret.png\" alt=\"root\"> <img src=\"file:///etc/passwd.png\" alt=\"file\"></p>]]></description></item>\
         <item><title>Deep</title><link>https://t.example/deep/</link><description><![CDATA[{deep}deep text]]></description></item>\
         </channel></rss>"
    );
    std::fs::write(root.join("export/feed.xml"), feed).unwrap();
    let started = std::time::Instant::now();
    let out = stoa(root, &["import", "feed", "export/feed.xml", "out"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        started.elapsed().as_secs() < 60,
        "slow: {:?}",
        started.elapsed()
    );
    assert!(log.contains("its path leaves the export's folder"), "{log}");
    assert!(log.contains("more than 512 deep"), "{log}");
    let written = files_below(&root.join("out"));
    assert!(
        written
            .iter()
            .all(|f| !f.to_string_lossy().ends_with(".png")),
        "{written:?}"
    );
    let climbing = std::fs::read_to_string(root.join("out/books/posts/climbing/en.md")).unwrap();
    assert!(climbing.contains("\\[Image: up\\]"), "{climbing}");
    assert!(
        std::fs::read_to_string(root.join("out/books/posts/deep/en.md"))
            .unwrap()
            .contains("deep text")
    );
    let built = stoa(&root.join("out"), &["build"]);
    assert!(built.status.success(), "{}", output_text(&built));
}

/// A WordPress post's featured image (`_thumbnail_id`) opens it, described
/// by its attachment's alternative text, copied from the export.
#[test]
fn import_wordpress_featured_image_opens_its_post() {
    let tmp = tempfile::tempdir().unwrap();
    let source = export_fixture("wordpress-v1/export.xml");
    let out = stoa(
        tmp.path(),
        &["import", "wordpress", source.to_str().unwrap(), "blog"],
    );
    assert!(out.status.success(), "{}", output_text(&out));
    let post = tmp.path().join("blog/books/posts/smoker");
    let text = std::fs::read_to_string(post.join("pt-BR.md")).unwrap();
    let body = text.split("+++").nth(2).unwrap_or_default().trim_start();
    assert!(
        body.starts_with("![A honeybee on a lavender flower](bee.png)"),
        "{text}"
    );
    assert!(post.join("bee.png").is_file());
    // The English post has no featured image: its one bee is its gallery's.
    let en = std::fs::read_to_string(post.join("en.md")).unwrap();
    assert_eq!(en.matches("](bee.png)").count(), 1, "{en}");
}

/// A WordPress post's approved comments come in only when asked, under a
/// heading at the post's end, a reply naming whom it answers; spam,
/// pingbacks and the commenters' e-mail and IP addresses never do.
#[test]
fn import_wordpress_comments_come_in_only_when_asked() {
    let source = export_fixture("wordpress-v1/export.xml");
    let tmp = tempfile::tempdir().unwrap();
    let out = stoa(
        tmp.path(),
        &["import", "wordpress", source.to_str().unwrap(), "blog"],
    );
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("2 approved comments on 1 post left out") && log.contains("add --comments"),
        "{log}"
    );
    let post = |dir: &str| {
        std::fs::read_to_string(tmp.path().join(dir).join("books/posts/keeping-bees/en.md"))
            .unwrap()
    };
    assert!(!post("blog").contains("Lucilius"), "{}", post("blog"));

    let out = stoa(
        tmp.path(),
        &[
            "import",
            "wordpress",
            "--comments",
            source.to_str().unwrap(),
            "with",
        ],
    );
    assert!(out.status.success(), "{}", output_text(&out));
    let text = post("with");
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("`{needle}` in:\n{text}"))
    };
    // In order, after the post's own text.
    let places = [
        at("Saint John Chrysostom"),
        at("## Comments"),
        at("**Lucilius**, 2024-05-04"),
        at("Mine seem calmer on *windy* days."),
        at("**Ana**, 2024-05-05, replying to Lucilius"),
    ];
    assert!(places.is_sorted(), "{places:?}\n{text}");
    for absent in [
        "SPAM-MARKER",
        "PINGBACK-MARKER",
        "EMAIL-MARKER",
        "203.0.113",
    ] {
        let all: String = files_below(&tmp.path().join("with"))
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect();
        assert!(!all.contains(absent), "{absent} imported");
    }
    let check = stoa(&tmp.path().join("with"), &["check", "--quick"]);
    assert!(check.status.success(), "{}", output_text(&check));
}
