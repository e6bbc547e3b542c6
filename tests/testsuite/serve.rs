//! `stoa serve` under clients that misbehave, through the real command: slow
//! or idle connections never lock the others out.

use crate::prelude::spawn_serve;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Child;
use std::time::Duration;

/// `stoa serve` on a free port of 127.0.0.1; killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("index.html"),
        "<!DOCTYPE html><title>Books</title>",
    )
    .unwrap();
    let (child, addr) = spawn_serve(&dist);
    Served {
        child,
        addr,
        _dir: dir,
    }
}

/// A GET of `/` whose answer must come within `within`.
fn get_within(addr: SocketAddr, within: Duration) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(within)).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut bytes = Vec::new();
    stream
        .read_to_end(&mut bytes)
        .expect("answered within the time, not stuck behind other clients");
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The regression: four connections sending a byte every few seconds held
/// every worker, and every other client waited for as long as they liked.
#[test]
fn with_eight_slow_clients_a_request_is_answered_within_two_seconds() {
    let served = serve();
    let request = b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n";
    let slow: Vec<TcpStream> = (0..8)
        .map(|i| {
            let mut s = TcpStream::connect(served.addr).unwrap();
            // Each has trickled a few bytes of its request, and goes on later.
            s.write_all(&request[..3 + i]).unwrap();
            s
        })
        .collect();
    let answer = get_within(served.addr, Duration::from_secs(2));
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(slow);
}

/// The regression: forty idle connections made every request fail with 503.
#[test]
fn forty_idle_connections_do_not_make_requests_fail() {
    let served = serve();
    let idle: Vec<TcpStream> = (0..40)
        .map(|_| TcpStream::connect(served.addr).unwrap())
        .collect();
    for _ in 0..3 {
        let answer = get_within(served.addr, Duration::from_secs(2));
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    drop(idle);
}
