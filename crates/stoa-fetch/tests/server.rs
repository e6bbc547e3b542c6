//! The client against a server the test starts on 127.0.0.1: an image, a
//! 404, a redirect loop, a page that is no image, bodies over the limit
//! (said and unsaid), and a server that never answers; and downloads,
//! which stream a body of any type, against the same.

use std::time::Duration;
use stoa_fetch::{Client, FetchError, Limits};

#[path = "../../../tests/src/web_server.rs"]
mod web_server;

use web_server::PNG;

fn client() -> Client {
    Client::new(Limits {
        max_bytes: 1000,
        timeout: Duration::from_millis(500),
        max_redirects: 3,
    })
}

fn image(found: &str) -> bool {
    found.starts_with("image/")
}

#[test]
fn an_image_comes_whole() {
    let server = web_server::start();
    let at = &server.address;
    let fetched = client().get(&format!("{at}/ok.png"), &image).unwrap();
    assert_eq!(fetched.bytes, PNG);
    assert_eq!(fetched.media_type.as_deref(), Some("image/png"));
}

#[test]
fn each_failure_is_told_in_words() {
    let server = web_server::start();
    let at = &server.address;
    let get = |path: &str| client().get(&format!("{at}{path}"), &image).unwrap_err();
    assert_eq!(get("/missing.png"), FetchError::Status(404));
    assert_eq!(get("/loop.png"), FetchError::Redirects(3));
    assert_eq!(get("/page.png"), FetchError::WrongType("text/html".into()));
    assert_eq!(get("/said-huge.png"), FetchError::TooLarge(1000));
    assert_eq!(get("/unsaid-huge.png"), FetchError::TooLarge(1000));
    assert_eq!(
        client().get("ftp://example.org/a.png", &image).unwrap_err(),
        FetchError::NotHttp
    );
    assert_eq!(get("/missing.png").to_string(), "the server answered 404");
}

#[test]
fn a_server_that_never_answers_runs_out_of_time() {
    let server = web_server::start();
    let at = &server.address;
    let error = client()
        .get(&format!("{at}/silent.png"), &image)
        .unwrap_err();
    assert_eq!(error, FetchError::Timeout(Duration::from_millis(500)));
}

#[test]
fn an_address_without_extension_is_typed_by_the_server() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("host/assets")).unwrap();
    std::fs::write(folder.path().join("host/assets/1ef0cf03"), PNG).unwrap();
    let server = web_server::serve(folder.path());
    let at = &server.address;
    let fetched = client()
        .get(&format!("{at}/host/assets/1ef0cf03"), &image)
        .unwrap();
    assert_eq!(fetched.bytes, PNG);
    assert_eq!(fetched.media_type.as_deref(), Some("image/png"));
    assert_eq!(
        client().get(&format!("{at}/host/assets/gone"), &image),
        Err(FetchError::Status(404))
    );
}

#[test]
fn a_download_streams_any_body_and_fails_as_a_get_does() {
    let server = web_server::start();
    let at = &server.address;
    let mut out = Vec::new();
    let written = client()
        .download(&format!("{at}/page.png"), &mut out)
        .unwrap();
    assert_eq!((written, out.as_slice()), (6, b"<html>".as_slice()));
    let fail = |path: &str| {
        client()
            .download(&format!("{at}{path}"), &mut Vec::new())
            .unwrap_err()
    };
    assert_eq!(fail("/missing.png"), FetchError::Status(404));
    assert_eq!(fail("/said-huge.png"), FetchError::TooLarge(1000));
    assert_eq!(fail("/unsaid-huge.png"), FetchError::TooLarge(1000));
    assert_eq!(
        fail("/silent/a.ttc"),
        FetchError::Timeout(Duration::from_millis(500))
    );
}
