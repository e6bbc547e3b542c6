//! A web server for tests, on 127.0.0.1, that answers each request by its
//! path with one case a download must handle:
//!
//! - `/ok.png`, `/other/ok.png`: a PNG image ([`PNG`]);
//! - `/loop.png`: a redirect to itself, forever;
//! - `/page.png`: an HTML page where an image was asked for;
//! - `/fake.png`: said to be a PNG, but text;
//! - `/said-huge.png`: a body its header says is 100,000 bytes;
//! - `/unsaid-huge.png`: 4,096 bytes with no length said;
//! - `/silent.png`: no answer at all, until the server is dropped;
//! - anything else: 404.
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
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port on 127.0.0.1");
    let address = format!("http://{}", listener.local_addr().expect("its address"));
    let (hold, held) = mpsc::channel::<()>();
    let held = Arc::new(Mutex::new(held));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let held = held.clone();
            std::thread::spawn(move || answer(stream, &held));
        }
    });
    Server {
        address,
        _hold: hold,
    }
}

fn answer(mut stream: TcpStream, held: &Mutex<mpsc::Receiver<()>>) {
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
        "/silent.png" => {
            // Holds the connection until the server is dropped.
            let _ = held.lock().map(|h| h.recv());
            return;
        }
        _ => head("404 Not Found", "Content-Length: 0\r\n"),
    };
    let _ = stream.write_all(&reply);
}
