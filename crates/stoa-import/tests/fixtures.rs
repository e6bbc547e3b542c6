//! The readers on the fixture sites of tests/fixtures/import: languages,
//! translations, drafts, images and links as each tool's rules say.

use std::path::PathBuf;
use stoa_import::{ImageData, ImportOptions, Imported, Kind, Status};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/import")
        .join(name)
}

fn read(kind: Kind, name: &str, drafts: bool) -> Imported {
    let options = ImportOptions {
        drafts,
        ..ImportOptions::default()
    };
    match stoa_import::read(kind, &fixture(name), &options) {
        Ok(i) => i,
        Err(e) => panic!("{e:?}"),
    }
}

/// A site in a temporary folder: each file at its path, folders made.
fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn summary(imported: &Imported) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = imported
        .posts
        .iter()
        .map(|p| {
            (
                p.translation_key.clone().unwrap_or_default(),
                p.lang.clone().unwrap_or_default(),
                p.slug.clone(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn hugo_pairs_by_path_and_translation_key() {
    let site = read(Kind::Hugo, "hugo-v1", false);
    // content/search.md is the theme's search page, not a post.
    assert!(
        site.warnings.iter().any(|w| w
            .message
            .contains("left out: a page the theme's `search` layout draws")),
        "{:?}",
        site.warnings
    );
    assert_eq!(site.site.title.as_deref(), Some("Notes from the Stoa"));
    assert_eq!(site.site.author.as_deref(), Some("Ana Lima"));
    assert_eq!(site.site.languages, ["en", "pt-br"]);
    // `[languages.pt-br] title`: the Portuguese edition's own title.
    let titles: Vec<_> = site
        .site
        .translated
        .iter()
        .map(|t| (t.lang.as_str(), t.title.as_deref()))
        .collect();
    assert_eq!(titles, [("pt-br", Some("Notas do Pórtico"))]);
    let s = summary(&site);
    assert_eq!(
        s,
        [
            ("key:second".into(), "en".into(), "second-thoughts".into()),
            (
                "key:second".into(),
                "pt-br".into(),
                "segundos-pensamentos".into()
            ),
            (
                "path:posts/first-light".into(),
                "en".into(),
                "first-light".into()
            ),
            (
                "path:posts/first-light".into(),
                "pt-br".into(),
                "first-light".into()
            ),
            (
                "path:posts/only-in-english".into(),
                "en".into(),
                "only-in-english".into()
            ),
        ]
    );
    let first = site
        .posts
        .iter()
        .find(|p| p.slug == "first-light" && p.lang.as_deref() == Some("en"))
        .unwrap();
    assert_eq!(first.urls[0], "/2024/first-light/");
    assert!(matches!(&first.images[0].data, ImageData::Path(p) if p.ends_with("portico.png")));
    assert!(
        first
            .body
            .contains("[Second Thoughts](/2024/second-thoughts/)"),
        "{}",
        first.body
    );
    let drafts = read(Kind::Hugo, "hugo-v1", true);
    assert!(drafts.posts.iter().any(|p| p.status == Status::Draft));
}

#[test]
fn jekyll_pairs_by_slug_and_reads_polyglot_languages() {
    let site = read(Kind::Jekyll, "jekyll-v1", false);
    assert_eq!(site.site.author.as_deref(), Some("Bruno Costa"));
    assert_eq!(site.site.languages, ["en", "pt-br"]);
    let s = summary(&site);
    assert_eq!(s.len(), 5, "{s:?}");
    assert!(s.contains(&("slug:on-anger".into(), "pt-br".into(), "on-anger".into())));
    let leisure = site
        .posts
        .iter()
        .find(|p| p.slug == "on-leisure" && p.lang.as_deref() == Some("en"))
        .unwrap();
    assert_eq!(leisure.urls[0], "/letters/2023/11/05/on-leisure/");
    assert_eq!(leisure.date.as_deref(), Some("2023-11-05"));
    assert_eq!(
        leisure.description.as_deref(),
        Some("Leisure without study is death.")
    );
}

#[test]
fn zola_pairs_by_path_and_resolves_internal_links() {
    let site = read(Kind::Zola, "zola-v1", false);
    assert_eq!(site.site.languages, ["en", "fr"]);
    assert_eq!(site.site.author.as_deref(), Some("Clara Dumont"));
    let s = summary(&site);
    assert_eq!(s.len(), 5, "{s:?}");
    let first_fr = site
        .posts
        .iter()
        .find(|p| p.slug == "first-post" && p.lang.as_deref() == Some("fr"))
        .unwrap();
    assert!(
        first_fr.body.contains("](/fr/blog/fear-of-death/)"),
        "{}",
        first_fr.body
    );
    let letter = site
        .posts
        .iter()
        .find(|p| p.slug == "letter-to-menoeceus")
        .unwrap();
    assert_eq!(letter.date.as_deref(), Some("2022-12-01"));
    // Zola's `quote` shortcode is a quotation with its author.
    let first = site
        .posts
        .iter()
        .find(|p| p.slug == "first-post" && p.lang.as_deref() != Some("fr"))
        .unwrap();
    assert!(first.body.contains("> — Epicurus"), "{}", first.body);
    let warnings: Vec<String> = site.warnings.iter().map(ToString::to_string).collect();
    assert!(
        !warnings.iter().any(|w| w.contains("shortcode `quote`")),
        "{warnings:?}"
    );
}

#[test]
fn hugo_content_folders_per_language_pair_by_translation_key() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("hugo.yaml"),
        "title: Two Folders\ndefaultContentLanguage: pt-br\nlanguages:\n  en:\n    contentDir: content/english\n    weight: 2\n  pt-br:\n    contentDir: content/portugues\n    weight: 1\n",
    )
    .unwrap();
    for (folder, name, title, key) in [
        ("content/english/posts", "hello.md", "Hello", "greeting"),
        ("content/portugues/posts", "ola.md", "Olá", "greeting"),
        ("content/portugues/posts", "so-aqui.md", "Só aqui", "only"),
    ] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
        std::fs::write(
            root.join(folder).join(name),
            format!("---\ntitle: {title}\ndate: 2024-01-01\ntranslationKey: {key}\n---\nText.\n"),
        )
        .unwrap();
    }
    let site = stoa_import::read(Kind::Hugo, root, &ImportOptions::default()).unwrap();
    assert_eq!(site.site.languages, ["pt-br", "en"]);
    let s = summary(&site);
    assert_eq!(
        s,
        [
            ("key:greeting".into(), "en".into(), "hello".into()),
            ("key:greeting".into(), "pt-br".into(), "ola".into()),
            ("key:only".into(), "pt-br".into(), "so-aqui".into()),
        ]
    );
    let hello = site.posts.iter().find(|p| p.slug == "hello").unwrap();
    assert_eq!(hello.urls[0], "/en/posts/hello/");
    // Written: one folder per key, the default language the original.
    let out = dir.path().join("project");
    let report = stoa_import::write::write(
        site,
        &out,
        &stoa_import::WriteOptions {
            update: false,
            kind: Kind::Hugo,
            source: root.to_path_buf(),
        },
    )
    .unwrap();
    assert_eq!(report.languages, ["pt-BR", "en"]);
    assert_eq!(report.posts, ["ola", "so-aqui"]);
    let en = std::fs::read_to_string(out.join("books/posts/ola/en.md")).unwrap();
    assert!(en.contains("translation-of = { lang = \"pt-BR\""), "{en}");
}

/// Hugo's language keys are the site's names, not tags: `[languages.br]`
/// with `languageCode = "pt-BR"` is a Brazilian Portuguese edition (with
/// one warning saying so), never a Breton one; `locale` (its newer name)
/// counts too, and `pt_BR` is `pt-BR`.
#[test]
fn hugo_language_keys_become_the_tags_their_language_code_gives() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("hugo.toml"),
        "title = \"Codes\"\ndefaultContentLanguage = \"br\"\n\n\
         [languages.br]\nlanguageCode = \"pt-BR\"\nweight = 1\ntitle = \"Códigos\"\n\n\
         [languages.es]\nlocale = \"es_AR\"\nweight = 2\n\n\
         [languages.en]\nlanguageCode = \"en\"\nweight = 3\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("content/posts")).unwrap();
    for (name, title) in [
        ("hola.br.md", "Olá"),
        ("hola.es.md", "Hola"),
        ("hola.en.md", "Hello"),
    ] {
        std::fs::write(
            root.join("content/posts").join(name),
            format!("+++\ntitle = \"{title}\"\ndate = 2024-01-01\n+++\nText.\n"),
        )
        .unwrap();
    }
    let site = stoa_import::read(Kind::Hugo, root, &ImportOptions::default()).unwrap();
    assert_eq!(site.site.languages, ["pt-BR", "es-AR", "en"]);
    let mut langs: Vec<String> = site.posts.iter().filter_map(|p| p.lang.clone()).collect();
    langs.sort();
    assert_eq!(langs, ["en", "es-AR", "pt-BR"], "no `br` (Breton) post");
    assert!(site.site.translated.iter().any(|t| t.lang == "pt-BR"));
    let said: Vec<String> = site.warnings.iter().map(|w| w.to_string()).collect();
    let about = |key: &str| {
        said.iter()
            .filter(|w| w.contains(&format!("`{key}` of the site")))
            .count()
    };
    assert_eq!(
        (about("br"), about("es"), about("en")),
        (1, 1, 0),
        "{said:#?}"
    );
}

/// `{{ page.x }}` and `{{ site.x }}` are the front matter's and the
/// configuration's values (nested ones too), as Jekyll prints them.
#[test]
fn jekyll_page_and_site_variables_are_their_values() {
    let dir = site(&[
        (
            "_config.yml",
            "title: Notes\ngithub_username: seneca\nsocial:\n  mastodon: \"@seneca@example.social\"\n",
        ),
        (
            "_posts/2024-01-01-letters.md",
            "---\ntitle: Letters\nsubtitle: To Lucilius\nvolume: 3\n---\n\n\
             *{{ page.subtitle }}*, volume {{ page.volume }}, by {{ site.github_username }} \
             ({{ site.social.mastodon }}).\n",
        ),
    ]);
    let root = dir.path();
    let site = stoa_import::read(Kind::Jekyll, root, &ImportOptions::default()).unwrap();
    let body = &site.posts[0].body;
    assert!(
        body.contains("*To Lucilius*, volume 3, by seneca (@seneca@example.social)."),
        "{body}"
    );
    let said: Vec<String> = site.warnings.iter().map(|w| w.to_string()).collect();
    assert!(!said.iter().any(|w| w.contains("no value")), "{said:#?}");
}

/// jekyll-polyglot's `page_id` pairs a post's languages, whatever their
/// file names and permalinks.
#[test]
fn jekyll_page_id_pairs_translations() {
    let dir = site(&[
        (
            "_config.yml",
            "languages: [\"en\", \"de\"]\ndefault_lang: en\n",
        ),
        (
            "_posts/2024-01-01-about-anger.md",
            "---\ntitle: About Anger\nlang: en\npage_id: anger\n---\nText.\n",
        ),
        (
            "_posts/de/2024-01-01-ueber-den-zorn.md",
            "---\ntitle: Über den Zorn\nlang: de\npage_id: anger\npermalink: /de/zorn/\n---\nText.\n",
        ),
    ]);
    let root = dir.path();
    let site = stoa_import::read(Kind::Jekyll, root, &ImportOptions::default()).unwrap();
    let keys: Vec<Option<String>> = site
        .posts
        .iter()
        .map(|p| p.translation_key.clone())
        .collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1], "{keys:?}");
}
