//! The export readers (WordPress, Ghost, Substack, feeds) on the fixtures
//! of tests/fixtures/import/: what each returns, before any file is
//! written; and hostile exports, which are clear errors.

use std::path::{Path, PathBuf};

use stoa_import::{ImportOptions, Imported, Kind, Status, read};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/import")
        .join(rel)
}

fn import(kind: Kind, rel: &str, drafts: bool) -> Imported {
    let options = ImportOptions {
        drafts,
        ..ImportOptions::default()
    };
    match read(kind, &fixture(rel), &options) {
        Ok(i) => i,
        Err(e) => panic!("{rel}: {e:#?}"),
    }
}

fn dump(i: &Imported) -> String {
    let mut s = String::new();
    for p in &i.posts {
        s.push_str(&format!(
            "=== {} [{:?}] {:?} {:?} {:?} tags={:?} cats={:?} key={:?} images={:?}\n{}\n",
            p.slug,
            p.lang,
            p.title,
            p.date,
            p.status,
            p.tags,
            p.categories,
            p.translation_key,
            p.images.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
            p.body
        ));
    }
    for w in &i.warnings {
        s.push_str(&format!("WARNING {w}\n"));
    }
    s
}

fn slugs(i: &Imported) -> Vec<(String, Option<String>)> {
    i.posts
        .iter()
        .map(|p| (p.slug.clone(), p.lang.clone()))
        .collect()
}

#[test]
fn wordpress_posts_languages_translations_and_images() {
    let i = import(Kind::WordPress, "wordpress-v1/export.xml", false);
    let text = dump(&i);
    assert_eq!(
        slugs(&i),
        [
            ("keeping-bees".into(), Some("en".into())),
            ("abelhas-na-cidade".into(), Some("pt-br".into())),
            ("smoker".into(), Some("en".into())),
            ("fumigador".into(), Some("pt-br".into())),
        ],
        "{text}"
    );
    assert_eq!(i.site.languages, ["en", "pt-br"]);
    assert_eq!(i.site.author.as_deref(), Some("Ana Melissa"));
    assert_eq!(i.site.title.as_deref(), Some("The Apiary & Garden"));
    assert_eq!(i.posts[0].translation_key, i.posts[1].translation_key);
    assert_ne!(i.posts[0].translation_key, i.posts[2].translation_key);
    let bees = &i.posts[0];
    // Each post is placed at its <item>'s line.
    let xml = std::fs::read_to_string(fixture("wordpress-v1/export.xml")).unwrap();
    let title_line = xml
        .lines()
        .position(|l| l.contains("Keeping Bees in the City"))
        .unwrap()
        + 1;
    assert_eq!(bees.source.line, Some(title_line - 1), "{:?}", bees.source);
    assert_eq!(bees.date.as_deref(), Some("2024-05-02T09:30:00"));
    assert_eq!(bees.tags, ["city"]);
    assert_eq!(bees.categories, ["Bees"]);
    assert_eq!(
        bees.description.as_deref(),
        Some("Rooftops, balconies and what you need.")
    );
    assert!(
        bees.urls
            .contains(&"https://blog.example/2024/05/keeping-bees/".to_string())
    );
    assert_eq!(bees.images.len(), 1);
    for needle in [
        "## What you need",
        "- A hive\n  - with frames",
        "```python\ndef count(frames):",
        "![A bee on lavender](bee-1024x768.png)\n\n*A forager at work*",
        "| Month | Honey (kg) |",
        "[^1]: Two boxes are plenty for a *city* hive.",
        "> **YouTube video**",
    ] {
        assert!(
            bees.body.contains(needle),
            "`{needle}` not in:\n{}",
            bees.body
        );
    }
    assert!(!bees.body.contains("BUY-BUTTON-MARKER"));
    let smoker = &i.posts[2];
    assert!(
        smoker
            .body
            .contains("```bash\nsmoke --gently < pine-needles.txt\n```"),
        "{}",
        smoker.body
    );
    assert!(
        smoker.body.contains("like \\[sic\\], stay as text"),
        "{}",
        smoker.body
    );
    assert!(text.contains("1 draft and 1 private"), "{text}");
    // With --drafts: the draft and the private post, as such.
    let all = import(Kind::WordPress, "wordpress-v1/export.xml", true);
    let statuses: Vec<Status> = all.posts.iter().map(|p| p.status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == Status::Draft).count(), 1);
    assert_eq!(
        statuses.iter().filter(|s| **s == Status::Private).count(),
        1
    );
}

#[test]
fn ghost_bodies_from_html_lexical_and_mobiledoc() {
    let i = import(Kind::Ghost, "ghost-v1", false);
    let text = dump(&i);
    let names: Vec<String> = i.posts.iter().map(|p| p.slug.clone()).collect();
    assert_eq!(
        names,
        ["owls-at-dusk", "the-new-editor", "night-birds"],
        "{text}"
    );
    assert_eq!(i.site.languages, ["en"]);
    assert_eq!(i.site.author.as_deref(), Some("Olwen Strix"));
    assert_eq!(i.posts[0].tags, ["Owls", "Birds"]);
    assert!(
        i.posts[0]
            .body
            .contains("[^1]: Their feathers have soft edges."),
        "{text}"
    );
    assert!(
        i.posts[1].body.contains("1. first step\n2. second step"),
        "{text}"
    );
    assert!(
        i.posts[2].body.contains("[night birds](/owls-at-dusk/)"),
        "{text}"
    );
    assert!(
        i.posts[2]
            .body
            .contains("[^1]: Markdown cards keep their notes."),
        "{text}"
    );
    assert!(
        !text.contains("BUTTON-MARKER-GHOST") && !text.contains("SIGNUP-MARKER-GHOST"),
        "{text}"
    );
    let all = import(Kind::Ghost, "ghost-v1", true);
    assert_eq!(
        all.posts.len(),
        5,
        "drafts and members' posts, not the page"
    );
}

#[test]
fn substack_rows_and_bodies() {
    let i = import(Kind::Substack, "substack-v1", false);
    let text = dump(&i);
    let names: Vec<String> = i.posts.iter().map(|p| p.slug.clone()).collect();
    assert_eq!(names, ["the-fox-in-winter", "tracks-in-the-snow"], "{text}");
    assert_eq!(i.posts[1].title, "Tracks in the Snow: a \"field\" guide");
    assert_eq!(
        i.posts[0].description.as_deref(),
        Some("How foxes survive the cold, and what they eat")
    );
    assert_eq!(i.posts[0].images.len(), 1, "fox.png, found by its name");
    assert!(text.contains("posts.csv:3: warning: post `tracks-in-the-snow`: image `https://example.org/photos/lynx.jpg`"), "{text}");
    assert!(
        !text.contains("SUBSCRIBE-MARKER") && !text.contains("SHARE-MARKER"),
        "{text}"
    );
}

#[test]
fn feeds_rss_and_atom() {
    let rss = import(Kind::Feed, "feed-v1/rss.xml", false);
    assert_eq!(
        slugs(&rss),
        [("grey-heron".into(), None), ("egrets".into(), None)]
    );
    assert_eq!(
        rss.posts[0].date.as_deref(),
        Some("2024-04-13T07:45:00+00:00")
    );
    assert_eq!(rss.posts[0].tags, ["herons", "rivers"]);
    assert_eq!(rss.site.author.as_deref(), Some("Ardea Cinerea"));
    assert!(!rss.posts[1].body.contains("track"), "scripts dropped");
    let atom = import(Kind::Feed, "feed-v1/atom.xml", false);
    assert_eq!(
        slugs(&atom),
        [
            ("spring-tides".into(), Some("en".into())),
            ("spring-tides".into(), Some("pt-BR".into())),
            ("neap-tides".into(), Some("en".into())),
        ]
    );
    assert_eq!(
        atom.posts[1].body,
        "Na lua nova e na cheia, o sol e a lua puxam **juntos**.\n"
    );
    assert_eq!(
        atom.posts[2].date.as_deref(),
        Some("2024-05-08T06:00:00Z"),
        "updated when not published"
    );
}

/// Every fixture cut short at many points: an error or a smaller import,
/// never a panic.
#[test]
fn truncated_exports_never_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let options = ImportOptions::default();
    for (kind, rel, name) in [
        (Kind::WordPress, "wordpress-v1/export.xml", "export.xml"),
        (
            Kind::Ghost,
            "ghost-v1/night-notes.ghost.2024-06-03.json",
            "export.json",
        ),
        (Kind::Feed, "feed-v1/rss.xml", "rss.xml"),
        (Kind::Feed, "feed-v1/atom.xml", "atom.xml"),
    ] {
        let bytes = std::fs::read(fixture(rel)).unwrap();
        let step = (bytes.len() / 150).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            let path = tmp.path().join(name);
            std::fs::write(&path, &bytes[..cut]).unwrap();
            if let Err(errors) = read(kind, &path, &options) {
                assert!(
                    !errors.is_empty(),
                    "{rel} cut at {cut}: an error without a message"
                );
                assert!(errors[0].file.is_some(), "{rel} cut at {cut}: {errors:?}");
            }
        }
    }
    // posts.csv cut short, in its folder.
    let csv = std::fs::read(fixture("substack-v1/posts.csv")).unwrap();
    let dir = tmp.path().join("substack");
    std::fs::create_dir_all(dir.join("posts")).unwrap();
    for cut in 0..csv.len() {
        std::fs::write(dir.join("posts.csv"), &csv[..cut]).unwrap();
        let _ = read(Kind::Substack, &dir, &options);
    }
}

/// A `post_id` that climbs out of `posts/` is left out, never read.
#[test]
fn substack_post_ids_stay_in_the_export() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("export");
    std::fs::create_dir_all(dir.join("posts")).unwrap();
    std::fs::write(tmp.path().join("secret.html"), "<p>SECRET</p>").unwrap();
    std::fs::write(dir.join("posts/1.ok.html"), "<p>fine</p>").unwrap();
    std::fs::write(
        dir.join("posts.csv"),
        "post_id,post_date,is_published,type,audience,title\n../../secret,2024-01-01,true,newsletter,everyone,Bad\n1.ok,2024-01-02,true,newsletter,everyone,Good\n",
    )
    .unwrap();
    let i = read(Kind::Substack, &dir, &ImportOptions::default()).unwrap();
    assert_eq!(i.posts.len(), 1);
    assert_eq!(i.posts[0].body, "fine\n");
    let text = dump(&i);
    assert!(
        text.contains("posts.csv:2: warning: post_id `../../secret` is not a file name"),
        "{text}"
    );
    assert!(!text.contains("SECRET"));
}
