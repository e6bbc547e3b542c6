//! A web server for tests, on 127.0.0.1, that answers each request by its
//! path with one case a download must handle:
//!
//! - `/ok.png`, `/other/ok.png`: a PNG image ([`PNG`]);
//! - `/loop.png`: a redirect to itself, forever;
//! - `/page.png`: an HTML page where an image was asked for;
//! - `/fake.png`: said to be a PNG, but text;
//! - `/said-huge.png`: a body its header says is 100,000 bytes;
//! - `/unsaid-huge.png`: 4,096 bytes with no length said;
//! - `/silent.png`, and any path below `/silent/` (in both modes): no
//!   answer at all, until the server is dropped;
//! - anything else: 404.
//!
//! [`serve`] answers from a folder instead: `/<host>/<path>` is the file
//! `<folder>/<host>/<path>`, as a real blog's images are on their hosts.
//!
//! Shared by stoa-fetch's tests (through `#[path]`) and the end-to-end
//! tests (`stoa_tests::web_server`).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// A small PNG image (a square of colour, 74 bytes).
pub const PNG: &[u8] = include_bytes!("../fixtures/v1/languages/books/posts/bridges/square.png");

/// A running server; dropping it lets `/silent.png` go.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    _hold: mpsc::Sender<()>,
}

/// Starts a server on a free port of 127.0.0.1.
pub fn start() -> Server {
    start_with(None)
}

/// Starts a server that answers with the files of `folder`, each with the
/// content type its first bytes call for (GitHub serves attachments with
/// no extension in their address); 404 for any other path.
// Not every test that includes this file serves a folder.
#[allow(dead_code)]
pub fn serve(folder: &std::path::Path) -> Server {
    start_with(Some(folder.to_path_buf()))
}

fn start_with(folder: Option<std::path::PathBuf>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port on 127.0.0.1");
    let address = format!("http://{}", listener.local_addr().expect("its address"));
    let (hold, held) = mpsc::channel::<()>();
    let held = Arc::new(Mutex::new(held));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let held = held.clone();
            let folder = folder.clone();
            std::thread::spawn(move || answer(stream, &held, folder.as_deref()));
        }
    });
    Server {
        address,
        _hold: hold,
    }
}

fn answer(
    mut stream: TcpStream,
    held: &Mutex<mpsc::Receiver<()>>,
    folder: Option<&std::path::Path>,
) {
    let Ok(clone) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(clone);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // The path, without its query (`/ok.png?w=800` is `/ok.png`).
    let target = line.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split('?').next().unwrap_or("/").to_string();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
            break;
        }
    }
    let head = |status: &str, headers: &str| {
        format!("HTTP/1.1 {status}\r\n{headers}Connection: close\r\n\r\n").into_bytes()
    };
    if path == "/silent.png" || path.starts_with("/silent/") {
        // Holds the connection until the server is dropped.
        let _ = held.lock().map(|h| h.recv());
        return;
    }
    if let Some(folder) = folder {
        let _ = stream.write_all(&from_folder(folder, &path));
        return;
    }
    let reply: Vec<u8> = match path.as_str() {
        "/ok.png" | "/other/ok.png" => {
            let length = format!(
                "Content-Type: image/png\r\nContent-Length: {}\r\n",
                PNG.len()
            );
            [head("200 OK", &length), PNG.to_vec()].concat()
        }
        "/loop.png" => head("302 Found", "Location: /loop.png\r\nContent-Length: 0\r\n"),
        "/page.png" => [
            head("200 OK", "Content-Type: text/html\r\nContent-Length: 6\r\n"),
            b"<html>".to_vec(),
        ]
        .concat(),
        "/fake.png" => [
            head("200 OK", "Content-Type: image/png\r\nContent-Length: 5\r\n"),
            b"hello".to_vec(),
        ]
        .concat(),
        "/said-huge.png" => head(
            "200 OK",
            "Content-Type: image/png\r\nContent-Length: 100000\r\n",
        ),
        "/unsaid-huge.png" => [
            head("200 OK", "Content-Type: image/png\r\n"),
            vec![0u8; 4096],
        ]
        .concat(),
        _ => head("404 Not Found", "Content-Length: 0\r\n"),
    };
    let _ = stream.write_all(&reply);
}

/// The answer for `path` from the files of `folder`.
fn from_folder(folder: &std::path::Path, path: &str) -> Vec<u8> {
    let rel = path.trim_start_matches('/');
    let file = folder.join(rel);
    let bytes = (!rel.split('/').any(|p| p == ".."))
        .then(|| std::fs::read(&file).ok())
        .flatten();
    let Some(bytes) = bytes else {
        return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .to_vec();
    };
    let kind = if bytes.starts_with(b"\x89PNG") {
        "image/png"
    } else if bytes.starts_with(&[0xff, 0xd8]) {
        "image/jpeg"
    } else if bytes.len() > 12 && &bytes[8..12] == b"WEBP" {
        "image/webp"
    } else if bytes.starts_with(b"GIF8") {
        "image/gif"
    } else if bytes.starts_with(b"<svg") || bytes.starts_with(b"<?xml") {
        "image/svg+xml"
    } else {
        "application/octet-stream"
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        bytes.len()
    );
    [head.into_bytes(), bytes].concat()
}
