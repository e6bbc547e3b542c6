//! `stoa import hugo|jekyll|zola`: each fixture site (tests/fixtures/import/,
//! written from each tool's documented format, with a draft, two
//! languages, images and shortcodes or Liquid tags) becomes a project that
//! builds every format, with every published post once per language and
//! nothing of the tool's syntax left; bad input is a clear error that
//! writes nothing; `--update` brings changes in and keeps the author's edits.

use crate::prelude::*;
use std::path::{Path, PathBuf};

fn import_fixture(name: &str) -> PathBuf {
    repo_root().join("tests/fixtures/import").join(name)
}

/// One site to import and what its book must hold.
struct Site {
    kind: &'static str,
    fixture: &'static str,
    /// Per language: the titles of its posts, in book order.
    editions: &'static [(&'static str, &'static [&'static str])],
    /// Text a draft holds, which no output may.
    draft: &'static str,
    /// The tool's syntax, which no output may hold.
    syntax: &'static [&'static str],
    /// Text each conversion must leave in the English web edition.
    converted: &'static [&'static str],
    /// A link between posts: the English page, the link's HTML.
    link: (&'static str, &'static str),
}

const HUGO: Site = Site {
    kind: "hugo",
    fixture: "hugo-v1",
    editions: &[
        ("en", &["First Light", "Second Thoughts", "Only in English"]),
        ("pt-BR", &["Primeira Luz", "Segundos Pensamentos"]),
    ],
    draft: "DRAFT-MARKER-HUGO",
    syntax: &[
        "{{<",
        ">}}",
        "{{%",
        "%}}",
        "figure src",
        "relref",
        "highlight python",
    ],
    converted: &[
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "A lecture on Zeno",
        "https://x.com/seneca/status/1234567890",
        "https://gist.github.com/seneca/42",
        "hello, portico",
        "A note on sources",
        "Keep a journal, as Marcus did.",
    ],
    link: (
        "first-light.html",
        "href=\"only-in-english.html#only-in-english\">its follow-up</a>",
    ),
};

const JEKYLL: Site = Site {
    kind: "jekyll",
    fixture: "jekyll-v1",
    editions: &[
        ("en", &["On Leisure", "On Anger", "On Travel"]),
        ("pt-BR", &["Sobre o Ócio", "Sobre a Ira"]),
    ],
    draft: "DRAFT-MARKER-JEKYLL",
    syntax: &[
        "{%",
        "%}",
        "{{",
        "post_url",
        "site.baseurl",
        "relative_url",
        "endhighlight",
    ],
    converted: &[
        "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
        "https://gist.github.com/senecafan/abc123",
        "This blog is Letters to Lucilius.",
        "ira furor brevis est",
    ],
    link: (
        "on-anger.html",
        "href=\"on-leisure.html#on-leisure\">on leisure</a>",
    ),
};

const ZOLA: Site = Site {
    kind: "zola",
    fixture: "zola-v1",
    editions: &[
        (
            "en",
            &[
                "The Pleasant Life",
                "Death Is Nothing to Us",
                "Letter to Menoeceus",
            ],
        ),
        ("fr", &["La Vie Agréable", "La mort n’est rien pour nous"]),
    ],
    draft: "DRAFT-MARKER-ZOLA",
    syntax: &[
        "youtube(",
        "vimeo(",
        "gist(",
        "{% quote",
        "{% end %}",
        "@/blog",
    ],
    converted: &[
        "https://www.youtube.com/watch?v=ScMzIvxBSi4",
        "https://vimeo.com/76979871",
        "https://gist.github.com/epicurus/0123abcd",
        "the greatest is friendship",
    ],
    link: (
        "fear-of-death.html",
        "href=\"first-post.html#first-post\">the first note</a>",
    ),
};

const MARKDOWN: Site = Site {
    kind: "markdown",
    fixture: "markdown-v1",
    editions: &[
        ("en", &["On Leisure", "On Anger", "On Reading"]),
        ("pt-BR", &["Sobre o Ócio", "Sobre a Ira"]),
    ],
    draft: "DRAFT-MARKER-MARKDOWN",
    syntax: &["{{", "}}", "[[", "]]", "README-MARKER", "| url"],
    converted: &[
        "Leisure without study is death",
        "https://portico.example/feed.xml",
        "ira furor brevis est",
    ],
    link: (
        "stoic-reading.html",
        "href=\"on-leisure.html#on-leisure\">on leisure</a>",
    ),
};

/// Imports `site` into a new project and builds it.
fn import_and_build(site: &Site, extra: &[&str]) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let source = import_fixture(site.fixture);
    let mut args = vec!["import", site.kind, source.to_str().unwrap(), "blog"];
    args.extend_from_slice(extra);
    let out = stoa(tmp.path(), &args);
    let log = output_text(&out);
    assert!(out.status.success(), "import failed:\n{log}");
    assert!(!log.contains("panicked"), "{log}");
    let project = tmp.path().join("blog");
    let built = stoa(&project, &["build"]);
    let build_log = output_text(&built);
    assert!(built.status.success(), "build failed:\n{build_log}");
    (tmp, format!("{log}{build_log}"))
}

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
            Some("html") | Some("xml") => out.push((name, std::fs::read_to_string(&path).unwrap())),
            Some("pdf") => out.push((name, pdftotext(&path, &["-enc", "UTF-8"]))),
            _ => {}
        }
    }
    out
}

fn check_site(site: &Site) {
    let (tmp, log) = import_and_build(site, &[]);
    let project = tmp.path().join("blog");
    let dist = project.join("dist");
    // Every format, every language.
    let epubs: Vec<PathBuf> = site
        .editions
        .iter()
        .map(|(lang, _)| dist.join(format!("blog/blog-{lang}.epub")))
        .collect();
    for (lang, _) in site.editions {
        for file in [
            format!("blog/blog-{lang}.epub"),
            format!("blog/blog-{lang}.pdf"),
            format!("blog/{lang}/index.html"),
        ] {
            assert!(dist.join(&file).is_file(), "{file} missing:\n{log}");
        }
    }
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "EPUBCheck: {failures:#?}");
    // Each published post once per language, in date order; no draft.
    for ((lang, titles), epub) in site.editions.iter().zip(&epubs) {
        let chapters: Vec<String> = post_chapters(epub);
        assert_eq!(chapters.len(), titles.len(), "{lang}: {chapters:?}");
        let nav = zip_entry(epub, "OEBPS/nav.xhtml");
        // The contents, not the landmarks after them.
        let nav = nav.split("landmarks").next().unwrap_or(&nav).to_string();
        let mut at = 0;
        for title in *titles {
            let title_xml = title.replace('\'', "&#39;");
            let found = nav[at..].find(title).or_else(|| nav[at..].find(&title_xml));
            let Some(i) = found else {
                panic!("{lang}: `{title}` missing or out of order in nav:\n{nav}");
            };
            at += i + title.len();
            assert_eq!(nav.matches(title).count(), 1, "{lang}: `{title}` twice");
        }
    }
    let texts = output_texts(&dist);
    for (file, text) in &texts {
        assert!(!text.contains(site.draft), "a draft in {file}");
        for syntax in site.syntax {
            assert!(!text.contains(syntax), "`{syntax}` left in {file}");
        }
        assert!(!text.contains("stoa-import"), "the import's mark in {file}");
    }
    let web: String = files_below(&dist.join("blog/en"))
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "html"))
        .map(|f| std::fs::read_to_string(dist.join("blog/en").join(f)).unwrap())
        .collect();
    for text in site.converted {
        let escaped = text.replace('"', "&quot;").replace('\'', "&#39;");
        assert!(
            web.contains(text) || web.contains(&escaped),
            "`{text}` not in the web edition"
        );
    }
    // Links between posts lead to chapters.
    let page = std::fs::read_to_string(dist.join("blog/en").join(site.link.0)).unwrap();
    assert!(
        page.contains(site.link.1),
        "no link `{}` in {}",
        site.link.1,
        site.link.0
    );
    // Translations are marked: status is clean at once.
    let status = stoa(&project, &["status", "--check"]);
    assert!(status.status.success(), "{}", output_text(&status));
    let status_text = output_text(&status);
    assert!(
        !status_text.contains("not marked") && !status_text.contains("STALE"),
        "{status_text}"
    );
    // What the import could not convert is what `stoa check` reports, and
    // nothing else of the tool.
    let check = stoa(&project, &["check", "--warn", "--quick"]);
    let check_text = output_text(&check);
    assert!(check.status.success(), "{check_text}");
    let unconverted = log.matches("is not something stoa can convert").count();
    assert_eq!(
        check_text.matches("warning[tool-syntax]").count(),
        unconverted,
        "{check_text}\n{log}"
    );
    // The record of the import is beside the project, nothing else.
    assert!(project.join(".stoa-import.toml").is_file());
}

#[test]
fn import_hugo_site_builds_every_format_with_every_post_once_per_language() {
    check_site(&HUGO);
}

#[test]
fn import_hugo_gives_each_edition_its_own_title() {
    let (tmp, _log) = import_and_build(&HUGO, &[]);
    let book = std::fs::read_to_string(tmp.path().join("blog/books/blog/book.toml")).unwrap();
    // `[languages.pt-br] title` for pt-BR; the site's `title` for English.
    assert!(book.contains("pt-BR = \"Notas do Pórtico\""), "{book}");
    assert!(book.contains("en = \"Notes from the Stoa\""), "{book}");
    let opf = zip_entry(
        &tmp.path().join("blog/dist/blog/blog-pt-BR.epub"),
        "OEBPS/content.opf",
    );
    assert!(opf.contains("Notas do Pórtico"), "{opf}");
}

#[test]
fn import_jekyll_site_builds_every_format_with_every_post_once_per_language() {
    check_site(&JEKYLL);
}

#[test]
fn import_zola_site_builds_every_format_with_every_post_once_per_language() {
    check_site(&ZOLA);
}

/// A folder of Markdown files (Eleventy's posts by language folder, an
/// Obsidian note with `[[links]]`, a README that is no post).
#[test]
fn import_markdown_folder_builds_every_format_with_every_post_once_per_language() {
    check_site(&MARKDOWN);
}

#[test]
fn import_drafts_come_in_with_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    for site in [&HUGO, &JEKYLL, &ZOLA] {
        let source = import_fixture(site.fixture);
        let dir = format!("with-drafts-{}", site.kind);
        let out = stoa(
            tmp.path(),
            &[
                "import",
                site.kind,
                source.to_str().unwrap(),
                &dir,
                "--drafts",
            ],
        );
        assert!(out.status.success(), "{}", output_text(&out));
        let posts = tmp.path().join(&dir).join("books/posts");
        let all: String = files_below(&posts)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "md"))
            .map(|f| std::fs::read_to_string(posts.join(f)).unwrap())
            .collect();
        assert!(
            all.contains(site.draft),
            "{}: the draft is missing",
            site.kind
        );
    }
}

/// Everything below `dir`, for "nothing written" checks.
fn snapshot(dir: &Path) -> Vec<PathBuf> {
    files_below(dir)
}

#[test]
fn import_bad_input_is_a_clear_error_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // A folder that does not exist.
    let out = stoa(root, &["import", "hugo", "no-such-site", "out"]);
    assert_fails_with(&out, &["no-such-site", "cannot read the Hugo folder"]);
    assert!(!root.join("out").exists());
    // A folder that is not a site of that kind.
    std::fs::create_dir(root.join("empty-site")).unwrap();
    let out = stoa(root, &["import", "jekyll", "empty-site", "out"]);
    assert_fails_with(&out, &["no Jekyll configuration (_config.yml)"]);
    assert!(!root.join("out").exists());
    // A target that holds files already.
    std::fs::create_dir(root.join("taken")).unwrap();
    std::fs::write(root.join("taken/notes.txt"), "mine").unwrap();
    let out = stoa(
        root,
        &[
            "import",
            "hugo",
            import_fixture("hugo-v1").to_str().unwrap(),
            "taken",
        ],
    );
    assert_fails_with(&out, &["already exists and is not empty", "--update"]);
    assert_eq!(snapshot(&root.join("taken")), [PathBuf::from("notes.txt")]);
    // An image that climbs out of the site.
    let site = root.join("sites/hostile");
    copy_dir(&import_fixture("hugo-v1"), &site);
    std::fs::write(root.join("sites/secret.png"), b"\x89PNG not really").unwrap();
    std::fs::write(
        site.join("content/posts/escape.md"),
        "+++\ntitle = \"Escape\"\ndate = 2024-07-01\n+++\n\n![the secret](../../../secret.png)\n",
    )
    .unwrap();
    let before = snapshot(root);
    let out = stoa(root, &["import", "hugo", "sites/hostile", "out"]);
    assert_fails_with(
        &out,
        &["content/posts/escape.md:6", "outside the site's folder"],
    );
    assert_eq!(snapshot(root), before, "nothing is written");
    // A `..` content folder in the configuration.
    std::fs::remove_file(site.join("content/posts/escape.md")).unwrap();
    let before = snapshot(root);
    let config = std::fs::read_to_string(site.join("hugo.toml")).unwrap();
    std::fs::write(
        site.join("hugo.toml"),
        format!("contentDir = \"../../elsewhere\"\n{config}"),
    )
    .unwrap();
    let out = stoa(root, &["import", "hugo", "sites/hostile", "out"]);
    assert_fails_with(&out, &["hugo.toml", "outside the site"]);
    assert_eq!(snapshot(root), before, "nothing is written");
    std::fs::write(site.join("hugo.toml"), &config).unwrap();
    // A post linked from outside the site is left out, with a warning.
    #[cfg(unix)]
    {
        std::fs::write(
            root.join("sites/outside.md"),
            "+++\ntitle = \"Outside\"\n+++\nSECRET-OUTSIDE\n",
        )
        .unwrap();
        std::os::unix::fs::symlink(
            root.join("sites/outside.md"),
            site.join("content/posts/linked.md"),
        )
        .unwrap();
        let out = stoa(root, &["import", "hugo", "sites/hostile", "linked-out"]);
        let text = output_text(&out);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("leads outside the site's folder"), "{text}");
        let posts = root.join("linked-out/books/posts");
        for f in files_below(&posts) {
            let content = std::fs::read(posts.join(&f)).unwrap();
            assert!(
                !String::from_utf8_lossy(&content).contains("SECRET-OUTSIDE"),
                "{}",
                f.display()
            );
        }
    }
    // A malformed front matter names its file and line.
    std::fs::write(
        site.join("content/posts/broken.md"),
        "---\ntitle: \"Broken\ntags: [a\n---\nBody\n",
    )
    .unwrap();
    let out = stoa(root, &["import", "hugo", "sites/hostile", "broken-out"]);
    assert_fails_with(
        &out,
        &["content/posts/broken.md:", "YAML front matter is not valid"],
    );
    assert!(!root.join("broken-out").exists());
}

#[test]
fn import_update_brings_new_and_changed_posts_and_keeps_the_authors_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let site = root.join("site");
    copy_dir(&import_fixture("jekyll-v1"), &site);
    let out = stoa(root, &["import", "jekyll", "site", "blog"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let posts = root.join("blog/books/posts");
    // The author edits one post in stoa; the blog changes another and
    // gains a new one.
    let edited = posts.join("on-travel/en.md");
    let mine = std::fs::read_to_string(&edited)
        .unwrap()
        .replace("You must change", "You must, the author insists, change");
    std::fs::write(&edited, &mine).unwrap();
    let anger = site.join("_posts/2024-01-20-on-anger.md");
    let text = std::fs::read_to_string(&anger).unwrap().replace(
        "Anger is a brief madness.",
        "Anger is a brief madness, wrote Horace.",
    );
    std::fs::write(&anger, text).unwrap();
    std::fs::write(
        site.join("_posts/2024-05-05-on-friendship.md"),
        "---\ntitle: \"On Friendship\"\nlang: en\n---\n\nA friend is another self.\n",
    )
    .unwrap();
    let out = stoa(root, &["import", "jekyll", "site", "blog", "--update"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("added     books/posts/on-friendship/en.md"),
        "{log}"
    );
    assert!(
        log.contains("updated   books/posts/on-anger/en.md"),
        "{log}"
    );
    assert!(
        log.contains("kept      books/posts/on-travel/en.md (your edit)"),
        "{log}"
    );
    assert!(log.contains("updated   books/blog/book.toml"), "{log}");
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), mine);
    assert!(
        std::fs::read_to_string(posts.join("on-anger/en.md"))
            .unwrap()
            .contains("wrote Horace")
    );
    let book = std::fs::read_to_string(root.join("blog/books/blog/book.toml")).unwrap();
    assert!(book.contains("\"on-friendship\""), "{book}");
    // Once more with nothing changed: nothing is rewritten.
    let out = stoa(root, &["import", "jekyll", "site", "blog", "--update"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(log.contains("0 added, 0 updated"), "{log}");
    // The author's book.toml is kept; a new post is named for it.
    let book_path = root.join("blog/books/blog/book.toml");
    std::fs::write(&book_path, book.replace("# The posts", "# My posts")).unwrap();
    std::fs::write(
        site.join("_posts/2024-06-06-on-providence.md"),
        "---\ntitle: \"On Providence\"\nlang: en\n---\n\nWhy good men suffer.\n",
    )
    .unwrap();
    let out = stoa(root, &["import", "jekyll", "site", "blog", "--update"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("the new post `on-providence` is not in books/blog/book.toml"),
        "{log}"
    );
    assert!(
        std::fs::read_to_string(&book_path)
            .unwrap()
            .contains("# My posts")
    );
    // The project still builds.
    let built = stoa(&root.join("blog"), &["build", "--format", "epub"]);
    assert!(built.status.success(), "{}", output_text(&built));
    // --update from another kind of site is refused.
    let out = stoa(root, &["import", "hugo", "site", "blog", "--update"]);
    assert_fails_with(&out, &["is an import of a jekyll site, not of a hugo one"]);
    // --update of a folder no import made is refused.
    std::fs::create_dir(root.join("other")).unwrap();
    let out = stoa(root, &["import", "jekyll", "site", "other", "--update"]);
    assert_fails_with(&out, &["was not made by `stoa import`"]);
}

#[test]
fn import_yaml_front_matter_builds_marks_and_reports_like_toml() {
    let tmp = tempfile::tempdir().unwrap();
    let out = stoa(tmp.path(), &["new", "proj", "--lang", "en,pt-BR"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let project = tmp.path().join("proj");
    let folder = project.join("books/posts/from-a-blog");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("en.md"),
        "---\ntitle: \"From a Blog\"\ndate: 2024-05-31 10:00:00 +0200\nlayout: post\ncomments: true\ncategories: [essays]\ndescription: \"Copied as it was.\"\nlint:\n  allow:\n    web-only: \"the blog's own words\"\n---\n\nClick here to read more.\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("pt-BR.md"),
        "---\ntitle: \"De um Blog\"\n---\n\nCopiado como era.\n",
    )
    .unwrap();
    edit(
        &project,
        "books/proj/book.toml",
        "\"welcome\",",
        "\"welcome\",\n  \"from-a-blog\",",
    );
    let out = stoa(&project, &["translations", "mark", "from-a-blog", "pt-BR"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let marked = std::fs::read_to_string(folder.join("pt-BR.md")).unwrap();
    assert!(
        marked.contains("translation-of: { lang: \"en\", fingerprint: \""),
        "{marked}"
    );
    let status = stoa(&project, &["status", "--check"]);
    assert!(status.status.success(), "{}", output_text(&status));
    let built = stoa(&project, &["build", "--format", "epub"]);
    let log = output_text(&built);
    assert!(built.status.success(), "{log}");
    assert_eq!(
        log.matches("front-matter keys stoa does not use, ignored: `layout`, `comments`")
            .count(),
        1,
        "{log}"
    );
    assert!(log.contains("books/posts/from-a-blog/en.md:4:1"), "{log}");
    let epub = project.join("dist/proj/proj-en.epub");
    let opf = zip_entry(&epub, "OEBPS/content.opf");
    assert!(opf.contains("essays"), "categories are tags");
    // The silence in YAML is read by stoa check.
    let check = stoa(&project, &["check", "--quick"]);
    let text = output_text(&check);
    assert!(!text.contains("web-only"), "{text}");
    // A YAML mistake is an error at its line.
    std::fs::write(
        folder.join("pt-BR.md"),
        "---\ntitle: \"De um Blog\"\ntags: [a\n---\nTexto.\n",
    )
    .unwrap();
    let out = stoa(&project, &["build", "--format", "epub"]);
    assert_fails_with(&out, &["books/posts/from-a-blog/pt-BR.md:"]);
}

/// A link to one of the blog's own posts is a link in the EPUB and on the
/// web; in print, where it cannot be followed, the page of that post
/// follows it, and that page opens the post.
#[test]
fn import_links_to_own_posts_print_the_page_of_the_post() {
    let (tmp, log) = import_and_build(&HUGO, &[]);
    let dist = tmp.path().join("blog/dist/blog");
    let pdf = dist.join("blog-en.pdf");
    let text = pdf_text(&pdf);
    let lead = "The next post, Second Thoughts, p. ";
    let at = text
        .find(lead)
        .unwrap_or_else(|| panic!("{lead:?} in:\n{text}\n{log}"));
    let page: usize = text[at + lead.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a page number");
    let first = first_body_page(&pdf);
    let pages = pdf_pages(&pdf);
    assert!(
        squeeze(&pages[first + page - 1]).contains("Second Thoughts"),
        "page {page}:\n{}",
        pages[first + page - 1]
    );
    // The EPUB keeps the link, without a page of its own.
    let epub = epub_text(&dist.join("blog-en.epub"));
    assert!(
        epub.contains("The next post, Second Thoughts, goes on"),
        "{epub}"
    );
}

/// An embed's address cannot be followed on paper either: the PDF prints
/// a QR code beside it, which a reader (rqrr, as a phone) reads back off
/// the rendered page as the address itself.
#[test]
fn import_embeds_print_a_qr_code_of_their_address() {
    let (tmp, log) = import_and_build(&HUGO, &[]);
    let pdf = tmp.path().join("blog/dist/blog/blog-en.pdf");
    let pages = pdf_pages(&pdf);
    for url in [
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://gist.github.com/seneca/42",
    ] {
        let page = pages
            .iter()
            // The address may break across lines.
            .position(|p| p.split_whitespace().collect::<String>().contains(url))
            .unwrap_or_else(|| panic!("{url} printed:\n{log}"));
        let read = qr_codes_on_page(&pdf, page + 1);
        assert!(
            read.iter().any(|r| r == url),
            "page {} holds a QR code of {url}; read {read:?}",
            page + 1
        );
    }
}

/// The contents of every QR code on page `page` (from 1) of `pdf`, drawn
/// at 200 dpi in grey by pdftoppm and read by zbarimg (a phone's reader).
fn qr_codes_on_page(pdf: &Path, page: usize) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("page");
    let n = page.to_string();
    let status = std::process::Command::new("pdftoppm")
        .args([
            "-r",
            "200",
            "-gray",
            "-png",
            "-singlefile",
            "-f",
            &n,
            "-l",
            &n,
        ])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs (poppler-utils)");
    assert!(status.success(), "pdftoppm draws page {page}");
    let out = std::process::Command::new("zbarimg")
        .args(["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable"])
        .arg(prefix.with_extension("png"))
        .output()
        .expect("zbarimg runs (zbar-tools; scripts/install-test-tools installs it)");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A Jekyll blog whose posts name each other in a `translations:` list
/// (as sites with their own language system do), under a base URL, with
/// `{{ site.baseurl }}` links to files the site serves: the versions are
/// paired into one post, a version named but missing is one warning that
/// names both, and a link to a served file leads to its address on the
/// site, which the EPUB accepts.
#[test]
fn import_pairs_translations_lists_and_links_served_files_on_the_site() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("_posts")).unwrap();
    std::fs::write(
        site.join("_config.yml"),
        "title: Dois\nurl: https://example.org\nbaseurl: /blog\nlang: pt\n",
    )
    .unwrap();
    let post = |name: &str, front: &str, body: &str| {
        std::fs::write(
            site.join("_posts").join(name),
            format!("---\n{front}\n---\n\n{body}\n"),
        )
        .unwrap();
    };
    post(
        "2024-01-01-sobre-a-ira.md",
        "title: Sobre a ira\nlang: pt\ntranslations:\n  - lang: en\n    url: /2024/01/02/on-anger.html",
        "Os [slides]({{ site.baseurl }}/slides/ira.pdf) da palestra.",
    );
    post(
        "2024-01-02-on-anger.md",
        "title: On Anger\nlang: en\ntranslations:\n  - lang: pt\n    url: https://example.org/blog/2024/01/01/sobre-a-ira.html",
        "The [slides](/slides/anger.pdf) of the talk.",
    );
    post(
        "2024-02-01-sobre-o-lazer.md",
        "title: Sobre o lazer\nlang: pt\ntranslations:\n  - lang: en\n    url: /2024/02/01/on-leisure.html",
        "Sem tradução ainda.",
    );
    let out = stoa(tmp.path(), &["import", "jekyll", "site", "blog"]);
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    let said = "names `/2024/02/01/on-leisure.html` as its translation";
    assert_eq!(log.matches(said).count(), 1, "{log}");
    assert!(log.contains("2024-02-01-sobre-o-lazer.md:4"), "{log}");
    let posts = tmp.path().join("blog/books/posts");
    let mut folders: Vec<String> = std::fs::read_dir(&posts)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert_eq!(folders, ["sobre-a-ira", "sobre-o-lazer"], "{log}");
    assert!(posts.join("sobre-a-ira/en.md").is_file(), "paired: {log}");
    let en = std::fs::read_to_string(posts.join("sobre-a-ira/en.md")).unwrap();
    assert!(
        en.contains("(https://example.org/blog/slides/anger.pdf)"),
        "{en}"
    );
    let pt = std::fs::read_to_string(posts.join("sobre-a-ira/pt.md")).unwrap();
    assert!(
        pt.contains("(https://example.org/blog/slides/ira.pdf)"),
        "{pt}"
    );
    let project = tmp.path().join("blog");
    let built = stoa(&project, &["build", "--format", "epub"]);
    assert!(built.status.success(), "{}", output_text(&built));
    let epubs = [
        project.join("dist/blog/blog-en.epub"),
        project.join("dist/blog/blog-pt.epub"),
    ];
    let found = epubcheck(&epubs);
    assert!(found.is_empty(), "{found:#?}");
}

/// `stoa import --fetch-images`: the image a post shows from the web comes
/// into its folder (kept in the user's cache, here `XDG_CACHE_HOME`) and
/// into the book; one the server does not have becomes a link, said once.
#[test]
fn import_fetch_images_brings_web_images_into_the_book() {
    let server = web_server::start();
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(
        site.join("pictures.md"),
        format!(
            "---\ntitle: Pictures\ndate: 2024-01-01\n---\n\n![A square]({0}/ok.png)\n\n![Gone]({0}/missing.png)\n",
            server.address
        ),
    )
    .unwrap();
    let cache = tmp.path().join("cache");
    let out = std::process::Command::new(stoa_bin())
        .args(["import", "markdown", "site", "blog", "--fetch-images"])
        .current_dir(tmp.path())
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    let log = output_text(&out);
    assert!(out.status.success(), "{log}");
    assert_eq!(
        log.matches("could not be downloaded (the server answered 404)")
            .count(),
        1,
        "{log}"
    );
    let post = tmp.path().join("blog/books/posts/pictures");
    assert_eq!(std::fs::read(post.join("ok.png")).unwrap(), web_server::PNG);
    let kept = std::fs::read_dir(cache.join("stoa/web-images"))
        .unwrap()
        .count();
    assert_eq!(kept, 1, "the image is kept in the cache");
    let project = tmp.path().join("blog");
    let built = stoa(&project, &["build", "--format", "epub"]);
    assert!(built.status.success(), "{}", output_text(&built));
    let epub = project.join("dist/blog/blog-en.epub");
    let opf = zip_entry(&epub, "OEBPS/content.opf");
    assert!(opf.contains("image/png"), "{opf}");
}
