//! The server over real TCP on 127.0.0.1, with raw requests.

mod common;

use std::fs;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{CLIENT_TIMEOUT, Client, Reply};
use stoa_serve::{Server, ServerHandle};

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    server: ServerHandle,
}

impl Fixture {
    fn addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    fn file(&self, rel: &str) -> Vec<u8> {
        fs::read(self.root.join(rel)).unwrap()
    }

    fn get(&self, path: &str) -> Reply {
        self.send(format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())
    }

    fn send(&self, raw: &[u8]) -> Reply {
        send(self.addr(), raw)
    }
}

/// A dist/ with a page, a catalog, a book of a few hundred kilobytes, and,
/// outside it, a secret that symlinks inside point to.
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("dist");
    fs::create_dir_all(root.join("dialogues")).unwrap();
    fs::write(
        root.join("index.html"),
        "<!DOCTYPE html><title>Books</title>",
    )
    .unwrap();
    fs::write(root.join("opds.xml"), "<?xml version=\"1.0\"?><feed/>").unwrap();
    let book: Vec<u8> = (0..300_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    fs::write(root.join("dialogues/dialogues-en.epub"), &book).unwrap();
    fs::write(
        root.join("dialogues/dialogues-en.pdf"),
        b"%PDF-1.7\n%%EOF\n",
    )
    .unwrap();
    fs::write(root.join("dialogues/cover.png"), b"\x89PNG\r\n\x1a\n").unwrap();
    fs::write(root.join("dialogues/a b.txt"), b"spaces").unwrap();
    fs::write(dir.path().join("secret.txt"), b"SECRET").unwrap();
    symlink(&dir.path().join("secret.txt"), &root.join("leak.txt"));
    symlink(dir.path(), &root.join("outside"));
    symlink(
        &root.join("dialogues/dialogues-en.pdf"),
        &root.join("latest.pdf"),
    );
    let server = Server::bind(&root, "127.0.0.1:0".parse().unwrap())
        .unwrap()
        .spawn();
    Fixture {
        _dir: dir,
        root,
        server,
    }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[cfg(not(unix))]
fn symlink(_target: &Path, _link: &Path) {}

fn send(addr: SocketAddr, raw: &[u8]) -> Reply {
    send_then(addr, raw, false)
}

/// Sends `raw` and reads the one reply, half-closing the connection after
/// the request when `close` is set (the server then sees the end of an
/// incomplete request instead of waiting for more).
fn send_then(addr: SocketAddr, raw: &[u8], close: bool) -> Reply {
    let mut client = Client::connect(addr);
    client.send(raw);
    if close {
        client
            .reader
            .get_ref()
            .shutdown(std::net::Shutdown::Write)
            .unwrap();
    }
    client.reply(raw.starts_with(b"HEAD "))
}

#[test]
fn downloads_are_byte_identical_with_the_right_types() {
    let f = fixture();
    for (path, file, media_type) in [
        (
            "/dialogues/dialogues-en.epub",
            "dialogues/dialogues-en.epub",
            "application/epub+zip",
        ),
        (
            "/dialogues/dialogues-en.pdf",
            "dialogues/dialogues-en.pdf",
            "application/pdf",
        ),
        ("/dialogues/cover.png", "dialogues/cover.png", "image/png"),
        (
            "/opds.xml",
            "opds.xml",
            "application/atom+xml;profile=opds-catalog",
        ),
        ("/", "index.html", "text/html; charset=utf-8"),
        (
            "/index.html?lang=en",
            "index.html",
            "text/html; charset=utf-8",
        ),
        (
            "/dialogues/a%20b.txt",
            "dialogues/a b.txt",
            "text/plain; charset=utf-8",
        ),
        (
            "/latest.pdf",
            "dialogues/dialogues-en.pdf",
            "application/pdf",
        ),
    ] {
        let reply = f.get(path);
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.body, f.file(file), "{path}");
        assert_eq!(reply.header("Content-Type"), Some(media_type), "{path}");
        assert_eq!(
            reply.header("Content-Length"),
            Some(reply.body.len().to_string().as_str())
        );
        assert_eq!(reply.header("Accept-Ranges"), Some("bytes"));
    }
}

#[test]
fn head_has_the_headers_of_get_and_no_body() {
    let f = fixture();
    let reply = f.send(b"HEAD /dialogues/dialogues-en.epub HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(reply.status, 200);
    assert!(reply.body.is_empty());
    assert_eq!(reply.header("Content-Length"), Some("300000"));
    assert_eq!(reply.header("Content-Type"), Some("application/epub+zip"));
    assert!(
        reply
            .header("Last-Modified")
            .is_some_and(|d| d.ends_with(" GMT"))
    );
}

#[test]
fn ways_out_of_the_root_are_refused() {
    let f = fixture();
    for path in [
        "/../secret.txt",
        "/dialogues/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/..%2fsecret.txt",
        "/dialogues/%2e%2e/%2e%2e/secret.txt",
        "//etc/passwd",
        "/..%5csecret.txt",
        "/secret.txt%00.html",
        "http://localhost/../secret.txt",
        "/leak.txt",
        "/outside/secret.txt",
    ] {
        let reply = f.get(path);
        assert!(
            matches!(reply.status, 403 | 404),
            "{path}: {}",
            reply.status
        );
        assert!(
            !String::from_utf8_lossy(&reply.body).contains("SECRET"),
            "{path}"
        );
    }
    for path in [
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "//etc/passwd",
        "/leak.txt",
    ] {
        assert_eq!(f.get(path).status, 403, "{path}");
    }
}

#[test]
fn directories_and_missing_files_are_404() {
    let f = fixture();
    for path in [
        "/dialogues",
        "/dialogues/",
        "/missing.epub",
        "/index.html/",
        "/outside",
    ] {
        let status = f.get(path).status;
        assert!(matches!(status, 403 | 404), "{path}: {status}");
    }
    assert_eq!(f.get("/dialogues/").status, 404);
    assert_eq!(f.get("/missing.epub").status, 404);
}

fn range(f: &Fixture, spec: &str) -> Reply {
    f.send(
        format!("GET /dialogues/dialogues-en.epub HTTP/1.1\r\nHost: x\r\nRange: {spec}\r\n\r\n")
            .as_bytes(),
    )
}

#[test]
fn ranges_answer_206_with_the_bytes_asked_for() {
    let f = fixture();
    let book = f.file("dialogues/dialogues-en.epub");
    let len = book.len();
    for (spec, from, to) in [
        ("bytes=0-99", 0, 99),
        ("bytes=-500", len - 500, len - 1),
        ("bytes=299000-", 299_000, len - 1),
        ("bytes=10-10", 10, 10),
        ("bytes=1000-999999999", 1000, len - 1),
    ] {
        let reply = range(&f, spec);
        assert_eq!(reply.status, 206, "{spec}");
        assert_eq!(reply.body, &book[from..=to], "{spec}");
        assert_eq!(
            reply.header("Content-Range"),
            Some(format!("bytes {from}-{to}/{len}").as_str()),
            "{spec}"
        );
        assert_eq!(
            reply.header("Content-Length"),
            Some((to - from + 1).to_string().as_str())
        );
    }
}

#[test]
fn unsatisfiable_ranges_are_416_and_others_are_ignored() {
    let f = fixture();
    for spec in ["bytes=300000-", "bytes=400000-500000", "bytes=-0"] {
        let reply = range(&f, spec);
        assert_eq!(reply.status, 416, "{spec}");
        assert_eq!(
            reply.header("Content-Range"),
            Some("bytes */300000"),
            "{spec}"
        );
    }
    for spec in ["bytes=0-1,5-6", "bytes=9-3", "lines=1-2"] {
        let reply = range(&f, spec);
        assert_eq!(reply.status, 200, "{spec}");
        assert_eq!(reply.body.len(), 300_000, "{spec}");
    }
    let head = f
        .send(b"HEAD /dialogues/dialogues-en.epub HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n");
    assert_eq!(
        (head.status, head.header("Content-Length"), head.body.len()),
        (206, Some("10"), 0)
    );
}

#[test]
fn other_methods_are_405_with_allow() {
    let f = fixture();
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
        let reply = f.send(
            format!("{method} /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
                .as_bytes(),
        );
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("Allow"), Some("GET, HEAD"));
    }
}

#[test]
fn garbage_is_400_and_the_server_keeps_serving() {
    let f = fixture();
    for raw in [
        &b"\x00\x01\x02garbage\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
        b"\xff\xfe\xfd / HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\n",
    ] {
        assert_eq!(
            send_then(f.addr(), raw, true).status,
            400,
            "{:?}",
            String::from_utf8_lossy(raw)
        );
    }
    // A client that connects and leaves without a word gets nothing, and costs nothing.
    drop(TcpStream::connect(f.addr()).unwrap());
    assert_eq!(f.get("/").status, 200);
}

#[test]
fn oversized_requests_are_414_and_431() {
    let f = fixture();
    let long_target = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(20_000));
    assert_eq!(f.send(long_target.as_bytes()).status, 414);
    let long_header = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nCookie: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(f.send(long_header.as_bytes()).status, 431);
    let many = format!(
        "GET / HTTP/1.1\r\nHost: x\r\n{}\r\n",
        "X-A: b\r\n".repeat(500)
    );
    assert_eq!(f.send(many.as_bytes()).status, 431);
}

#[test]
fn parallel_downloads_all_complete() {
    let f = fixture();
    let book = f.file("dialogues/dialogues-en.epub");
    let addr = f.addr();
    let clients: Vec<_> = (0..12)
        .map(|_| {
            std::thread::spawn(move || {
                send(
                    addr,
                    b"GET /dialogues/dialogues-en.epub HTTP/1.1\r\nHost: x\r\n\r\n",
                )
            })
        })
        .collect();
    for client in clients {
        let reply = client.join().unwrap();
        assert!(
            reply.status == 200 || reply.status == 503,
            "{}",
            reply.status
        );
        if reply.status == 200 {
            assert_eq!(reply.body, book);
        }
    }
}

#[test]
fn shutdown_stops_listening() {
    let f = fixture();
    let addr = f.addr();
    assert_eq!(f.get("/").status, 200);
    f.server.shutdown();
    assert!(
        TcpStream::connect(addr).is_err(),
        "the port is closed after shutdown"
    );
}

#[test]
fn bind_refuses_a_missing_root() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Server::bind(&dir.path().join("nope"), "127.0.0.1:0".parse().unwrap()).is_err());
    let file = dir.path().join("file");
    fs::write(&file, b"x").unwrap();
    assert!(Server::bind(&file, "127.0.0.1:0".parse().unwrap()).is_err());
}

/// A fixture whose server has the given caps, and a file of 32 MiB: more
/// than the socket buffers hold, so a client that stops reading keeps its
/// connection busy.
fn fixture_with(limits: stoa_serve::Limits) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("dist");
    fs::create_dir_all(&root).unwrap();
    fs::write(
        root.join("index.html"),
        "<!DOCTYPE html><title>Books</title>",
    )
    .unwrap();
    fs::write(root.join("big.pdf"), vec![7u8; 32 << 20]).unwrap();
    let server = Server::bind(&root, "127.0.0.1:0".parse().unwrap())
        .unwrap()
        .with_limits(limits)
        .spawn();
    Fixture {
        _dir: dir,
        root,
        server,
    }
}

/// A connection that has sent part of a request and then goes quiet.
fn trickle(addr: SocketAddr, part: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(part).unwrap();
    stream
}

/// A GET of `/` that must be answered within `within`.
fn get_within(addr: SocketAddr, within: Duration) -> Reply {
    let mut client = Client::connect(addr);
    client
        .reader
        .get_ref()
        .set_read_timeout(Some(within))
        .unwrap();
    client.get("/", "");
    client.reply(false)
}

/// The regression: four connections trickling bytes held every worker.
#[test]
fn slow_clients_do_not_delay_the_others() {
    let f = fixture();
    let slow: Vec<_> = (0..8)
        .map(|i| trickle(f.addr(), &b"GET /index.html HTTP/1.1\r\nHo"[..10 + i]))
        .collect();
    let reply = get_within(f.addr(), Duration::from_secs(2));
    assert_eq!(reply.status, 200);
    drop(slow);
}

/// The regression: forty idle connections made every request fail with 503.
#[test]
fn idle_connections_make_room_for_requests() {
    let f = fixture();
    let idle: Vec<_> = (0..40)
        .map(|_| TcpStream::connect(f.addr()).unwrap())
        .collect();
    for _ in 0..3 {
        assert_eq!(get_within(f.addr(), Duration::from_secs(2)).status, 200);
    }
    drop(idle);
}

/// At the caps with every connection busy answering, a newcomer gets 503
/// with `Retry-After`, and is served once a connection ends.
#[test]
fn a_refusal_says_when_to_retry() {
    let f = fixture_with(stoa_serve::Limits {
        per_client: 2,
        total: 4,
    });
    let busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = trickle(f.addr(), b"GET /big.pdf HTTP/1.1\r\nHost: x\r\n\r\n");
            // The answer has begun: this connection is busy, not idle.
            let mut first = [0u8; 12];
            s.set_read_timeout(Some(CLIENT_TIMEOUT)).unwrap();
            s.read_exact(&mut first).unwrap();
            assert_eq!(&first, b"HTTP/1.1 200");
            s
        })
        .collect();
    let refused = f.get("/");
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("Retry-After"), Some("1"));
    drop(busy);
    // The server sees the closes as failed writes; a request soon gets through.
    let deadline = std::time::Instant::now() + CLIENT_TIMEOUT;
    while f.get("/").status != 200 {
        assert!(std::time::Instant::now() < deadline, "never served again");
    }
}

#[test]
fn parallel_downloads_are_served_or_told_when_to_retry() {
    let f = fixture();
    let book = f.file("dialogues/dialogues-en.epub");
    let addr = f.addr();
    let clients: Vec<_> = (0..200)
        .map(|_| {
            std::thread::spawn(move || {
                send(
                    addr,
                    b"GET /dialogues/dialogues-en.epub HTTP/1.1\r\nHost: x\r\n\r\n",
                )
            })
        })
        .collect();
    for client in clients {
        let reply = client.join().unwrap();
        match reply.status {
            200 => assert_eq!(reply.body, book),
            503 => assert_eq!(reply.header("Retry-After"), Some("1")),
            other => panic!("{other}"),
        }
    }
}
