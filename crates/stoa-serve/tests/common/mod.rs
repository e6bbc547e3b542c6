//! A raw HTTP/1.1 client for the tests: replies read by their framing
//! (`Content-Length`, or the close), so that a connection can carry more
//! than one.

#![allow(dead_code)] // each test file uses its part

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Bounds every read so a server bug fails the test instead of hanging it.
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);

/// One response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the reply says the connection closes after it.
    pub fn closes(&self) -> bool {
        self.header("Connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }
}

/// A connection to the server, read through a buffer kept between replies.
pub struct Client {
    pub reader: BufReader<TcpStream>,
}

impl Client {
    pub fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(CLIENT_TIMEOUT)).unwrap();
        Client {
            reader: BufReader::new(stream),
        }
    }

    pub fn send(&mut self, raw: &[u8]) {
        self.reader.get_mut().write_all(raw).unwrap();
    }

    /// Sends a GET of `path` with the `extra` header lines.
    pub fn get(&mut self, path: &str, extra: &str) {
        self.send(format!("GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n").as_bytes());
    }

    /// The next reply, to a request of method HEAD when `head`.
    pub fn reply(&mut self, head: bool) -> Reply {
        read_reply(&mut self.reader, head)
    }

    /// Whether the server closed the connection with nothing more sent
    /// (waits for it: a read timeout fails the test).
    pub fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        self.reader
            .read_to_end(&mut rest)
            .expect("the server closes the connection");
        assert!(rest.is_empty(), "{:?}", String::from_utf8_lossy(&rest));
        true
    }
}

/// Reads a status line, headers, and the body its framing says.
pub fn read_reply(reader: &mut impl BufRead, head: bool) -> Reply {
    let mut status_line = String::new();
    reader.read_line(&mut status_line).expect("a status line");
    assert!(status_line.starts_with("HTTP/1.1 "), "{status_line:?}");
    let status = status_line[9..12].parse().unwrap();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a header line");
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let (n, v) = line.split_once(':').expect("a header");
        headers.push((n.to_string(), v.trim().to_string()));
    }
    let mut reply = Reply {
        status,
        headers,
        body: Vec::new(),
    };
    let length = reply.header("Content-Length").map(|l| l.parse().unwrap());
    match length {
        _ if head => {}
        Some(length) => {
            reply.body.resize(length, 0);
            reader.read_exact(&mut reply.body).expect("the whole body");
        }
        None => {
            reader
                .read_to_end(&mut reply.body)
                .expect("a body up to the close");
        }
    }
    reply
}
