//! The live preview over real TCP on 127.0.0.1: the event stream, the
//! injected script, the cap on streams.

mod common;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use stoa_serve::{EVENTS_PATH, KeepAlive, Live, LiveError, Server, ServerHandle};

/// Bounds every read so a server bug fails the test instead of hanging it.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);

fn serve(live: Option<Live>) -> (tempfile::TempDir, ServerHandle) {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("b/en")).unwrap();
    fs::write(
        dir.path().join("b/en/a.html"),
        "<!DOCTYPE html><html><body><p>A</p></body></html>",
    )
    .unwrap();
    fs::write(dir.path().join("b/b-en.epub"), "PK").unwrap();
    let server = Server::bind(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let server = match live {
        Some(live) => server.with_live(live),
        None => server,
    };
    (dir, server.spawn())
}

fn connect(addr: SocketAddr, target: &str, extra: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(CLIENT_TIMEOUT)).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: localhost\r\n{extra}\r\n"
    )
    .unwrap();
    BufReader::new(stream)
}

/// The whole answer to a GET of `target`, read up to the close it asks for.
fn get(addr: SocketAddr, target: &str) -> String {
    let mut reader = connect(addr, target, "Connection: close\r\n");
    let mut text = String::new();
    reader.read_to_string(&mut text).unwrap();
    text
}

/// Reads the response head, then the next event's `data`.
fn head(reader: &mut BufReader<TcpStream>) -> String {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            return head;
        }
        head.push_str(&line);
    }
}

/// The next `build` event: its id and data.
fn next_event(reader: &mut BufReader<TcpStream>) -> (String, String) {
    let (mut id, mut data, mut event) = (String::new(), String::new(), String::new());
    loop {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "stream ended");
        let line = line.trim_end_matches('\n');
        if line.is_empty() {
            if event == "build" {
                return (id, data);
            }
            continue;
        }
        if let Some(v) = line.strip_prefix("id: ") {
            id = v.into();
        } else if let Some(v) = line.strip_prefix("event: ") {
            event = v.into();
        } else if let Some(v) = line.strip_prefix("data: ") {
            data.push_str(v);
        }
    }
}

#[test]
fn a_client_of_the_stream_hears_which_pages_changed_and_why_a_build_failed() {
    let live = Live::new();
    let (_dir, server) = serve(Some(live.clone()));
    let mut stream = connect(server.local_addr(), &format!("{EVENTS_PATH}?since=0"), "");
    let answer = head(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains("Content-Type: text/event-stream"),
        "{answer}"
    );
    // The greeting: the state now.
    let (id, data) = next_event(&mut stream);
    assert_eq!(id, "0");
    assert!(data.contains("\"ok\":true"), "{data}");
    live.publish(&["b/en/a.html".into()], &[]);
    let (id, data) = next_event(&mut stream);
    assert_eq!(id, "1");
    assert!(data.contains("\"changed\":[\"/b/en/a.html\"]"), "{data}");
    live.publish(
        &[],
        &[LiveError {
            file: Some("books/posts/a/en.md".into()),
            line: Some(4),
            message: "bad front matter".into(),
            ..LiveError::default()
        }],
    );
    let (_, data) = next_event(&mut stream);
    assert!(data.contains("\"ok\":false"), "{data}");
    assert!(
        data.contains("\"file\":\"books/posts/a/en.md\",\"line\":4"),
        "{data}"
    );
    // A browser that reconnects says what it saw last and gets what it missed.
    live.publish(&["b/en/b.html".into()], &[]);
    let mut again = connect(server.local_addr(), EVENTS_PATH, "Last-Event-ID: 2\r\n");
    head(&mut again);
    let (id, data) = next_event(&mut again);
    assert_eq!(id, "3");
    assert!(data.contains("/b/en/b.html"), "{data}");
    drop(stream);
    drop(again);
    server.shutdown();
}

#[test]
fn pages_get_the_script_when_live_and_the_files_on_disk_never_do() {
    let (dir, server) = serve(Some(Live::new()));
    let page = get(server.local_addr(), "/b/en/a.html");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let body = page.split("\r\n\r\n").nth(1).unwrap();
    assert!(body.contains("<p>A</p><script id=\"stoa-live\">"), "{body}");
    assert!(body.ends_with("</script></body></html>"), "{body}");
    let length: usize = page
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(length, body.len());
    let on_disk = fs::read_to_string(dir.path().join("b/en/a.html")).unwrap();
    assert!(!on_disk.contains("script"));
    // Other files are served as they are.
    let epub = get(server.local_addr(), "/b/b-en.epub");
    assert!(epub.ends_with("\r\n\r\nPK"), "{epub}");
    server.shutdown();
}

#[test]
fn without_watch_there_is_no_stream_and_no_script() {
    let (_dir, server) = serve(None);
    let answer = get(server.local_addr(), EVENTS_PATH);
    assert!(answer.starts_with("HTTP/1.1 40"), "{answer}");
    assert!(!answer.contains("event-stream"), "{answer}");
    let page = get(server.local_addr(), "/b/en/a.html");
    assert!(!page.contains("stoa-live"), "{page}");
    server.shutdown();
}

#[test]
fn streams_are_capped_and_a_stream_does_not_hold_up_other_requests() {
    let live = Live::with_max_streams(2);
    let (_dir, server) = serve(Some(live.clone()));
    let addr = server.local_addr();
    let mut a = connect(addr, EVENTS_PATH, "");
    let mut b = connect(addr, EVENTS_PATH, "");
    head(&mut a);
    head(&mut b);
    next_event(&mut a);
    next_event(&mut b);
    assert_eq!(live.streams(), 2);
    let refused = get(addr, EVENTS_PATH);
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(refused.contains("Retry-After: 1"), "{refused}");
    // Pages are still served while the streams are open and idle.
    assert!(get(addr, "/b/en/a.html").starts_with("HTTP/1.1 200"));
    // Shutdown ends the open streams instead of waiting for them: the
    // clients see the end of their streams.
    let readers: Vec<_> = [a, b]
        .into_iter()
        .map(|mut r| {
            std::thread::spawn(move || {
                let mut rest = String::new();
                let _ = r.read_to_string(&mut rest);
            })
        })
        .collect();
    server.shutdown();
    for r in readers {
        r.join().unwrap();
    }
}

/// A browser may ask for the stream on a connection it kept from the page:
/// the stream is served whatever the cap on requests per connection, is
/// never cut by the wait between requests, and ends its connection.
#[test]
fn the_stream_can_follow_a_page_on_a_kept_alive_connection() {
    let live = Live::new();
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("index.html"), "<body></body>").unwrap();
    let server = Server::bind(dir.path(), "127.0.0.1:0".parse().unwrap())
        .unwrap()
        .with_live(live.clone())
        .with_keep_alive(KeepAlive {
            idle: Duration::from_millis(50),
            max_requests: 2,
        })
        .spawn();
    let mut client = common::Client::connect(server.local_addr());
    client.get("/", "");
    let page = client.reply(false);
    assert_eq!(page.header("Connection"), Some("keep-alive"));
    client.get(&format!("{EVENTS_PATH}?since=0"), "");
    let answer = head(&mut client.reader);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("Connection: close"), "{answer}");
    next_event(&mut client.reader);
    // Well past the idle timeout, a build still reaches the stream.
    live.publish(&["index.html".into()], &[]);
    let (id, _) = next_event(&mut client.reader);
    assert_eq!(id, "1");
    drop(client);
    server.shutdown();
}
