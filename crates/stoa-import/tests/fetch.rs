//! `--fetch-images` against a server the test starts on 127.0.0.1: the
//! images a post shows from the web come into its folder; each one that
//! cannot (a 404, a redirect loop, a page instead of an image, text said to
//! be an image, a body over the limit, a server that never answers) becomes a link with a warning
//! that says why, and one warning sums them up; a second import reads the
//! cache, not the network.

#[path = "../../../tests/src/web_server.rs"]
mod web_server;

use std::time::Duration;
use stoa_import::{FetchImages, ImportOptions, Kind, Limits};

fn site(root: &std::path::Path, at: &str) {
    std::fs::create_dir_all(root).unwrap();
    let body = format!(
        "---\ntitle: Pictures\ndate: 2024-01-01\n---\n\n\
         ![A square]({at}/ok.png)\n\n![The same square]({at}/other/ok.png)\n\n\
         ![Gone]({at}/missing.png)\n\n![Round]({at}/loop.png)\n\n![Page]({at}/page.png)\n\n![Fake]({at}/fake.png)\n\n\
         ![Big]({at}/said-huge.png)\n\n![Bigger]({at}/unsaid-huge.png)\n\n![Silent]({at}/silent.png)\n"
    );
    std::fs::write(root.join("pictures.md"), body).unwrap();
}

fn options(cache: &std::path::Path) -> ImportOptions {
    ImportOptions {
        fetch_images: Some(FetchImages {
            limits: Limits {
                max_bytes: 1000,
                timeout: Duration::from_millis(500),
                max_redirects: 3,
            },
            cache: Some(cache.to_path_buf()),
        }),
        ..ImportOptions::default()
    }
}

#[test]
fn web_images_come_in_and_each_failure_is_a_link_that_says_why() {
    let server = web_server::start();
    let tmp = tempfile::tempdir().unwrap();
    let (source, cache) = (tmp.path().join("site"), tmp.path().join("cache"));
    site(&source, &server.address);
    let out = tmp.path().join("book");
    let report =
        stoa_import::import(Kind::Markdown, &source, &out, &options(&cache), false).unwrap();
    let said: Vec<String> = report.warnings.iter().map(|w| w.to_string()).collect();
    let text = said.join("\n");
    for why in [
        "(the server answered 404)",
        "(it redirects more than 3 times)",
        "(the server sent `text/html`, not an image)",
        "(it is larger than 1000 bytes)",
        "(it is not a PNG, JPEG, GIF, WebP or SVG image",
        "(no complete answer within 0.5 s)",
    ] {
        assert!(text.contains(why), "{why} in:\n{text}");
    }
    assert!(
        text.contains("7 of 9 images on the web could not be downloaded"),
        "{text}"
    );
    let post = out.join("books/posts/pictures");
    let files: Vec<String> = std::fs::read_dir(&post)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.contains(&"ok.png".to_string()), "{files:?}");
    assert_eq!(std::fs::read(post.join("ok.png")).unwrap(), web_server::PNG);
    let md = std::fs::read_to_string(post.join("en.md")).unwrap();
    assert!(md.contains("![A square](ok.png)"), "{md}");
    assert!(
        md.contains(&format!("[Gone]({}/missing.png)", server.address)),
        "{md}"
    );
    // A second import, the server gone: the cache has the image.
    let address = server.address.clone();
    drop(server);
    let again = tmp.path().join("again");
    stoa_import::import(Kind::Markdown, &source, &again, &options(&cache), false).unwrap();
    let md = std::fs::read_to_string(again.join("books/posts/pictures/en.md")).unwrap();
    assert!(md.contains("![A square](ok.png)"), "{address}: {md}");
}

#[test]
fn without_the_flag_no_network_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("site");
    // An address nothing answers at: reading it would fail or hang.
    site(&source, "http://127.0.0.1:9");
    let out = tmp.path().join("book");
    let report = stoa_import::import(
        Kind::Markdown,
        &source,
        &out,
        &ImportOptions::default(),
        false,
    )
    .unwrap();
    let text: String = report.warnings.iter().map(|w| w.to_string()).collect();
    assert!(text.contains("stoa import reads no network"), "{text}");
    assert!(text.contains("--fetch-images"), "{text}");
}

/// An export's images on the web (here a feed's, on another site and with
/// no extension in their address, as CDNs serve them) come in the same way.
#[test]
fn an_exports_web_images_come_in_too() {
    let server = web_server::start();
    let tmp = tempfile::tempdir().unwrap();
    let at = &server.address;
    let feed = format!(
        "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><channel>\
         <title>Herons</title><link>https://herons.example</link><language>en</language>\
         <item><title>The Heron</title><link>https://herons.example/heron.html</link>\
         <pubDate>Sat, 13 Apr 2024 07:45:00 +0000</pubDate>\
         <content:encoded><![CDATA[<p>Waiting.</p><img src=\"{at}/ok.png?w=800\" alt=\"A heron\">\
         <img src=\"{at}/gone.png\" alt=\"Gone\">]]></content:encoded></item></channel></rss>"
    );
    std::fs::write(tmp.path().join("feed.xml"), feed).unwrap();
    let out = tmp.path().join("book");
    let options = options(&tmp.path().join("cache"));
    let report = stoa_import::import(
        Kind::Feed,
        &tmp.path().join("feed.xml"),
        &out,
        &options,
        false,
    )
    .unwrap();
    let text: String = report
        .warnings
        .iter()
        .map(|w| w.to_string() + "\n")
        .collect();
    assert!(
        text.contains("could not be downloaded (the server answered 404)"),
        "{text}"
    );
    assert!(
        text.contains("1 of 2 images on the web could not be downloaded"),
        "{text}"
    );
    let post = out.join("books/posts/heron");
    assert_eq!(
        std::fs::read(post.join("ok.png")).unwrap(),
        web_server::PNG,
        "{text}"
    );
}
