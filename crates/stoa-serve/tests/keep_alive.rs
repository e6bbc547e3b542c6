//! Persistent connections (HTTP/1.1 keep-alive) over real TCP on
//! 127.0.0.1, and the caps per address counting a connection exactly until
//! its client can see it end. Every wait is the server's: a test reads
//! until the answer or the close comes, and never sleeps.

mod common;

use std::fs;
use std::time::Duration;

use common::Client;
use stoa_serve::{KeepAlive, Limits, Server, ServerHandle};

/// A dist/ of three small files, served with `configure` applied.
fn serve_with(configure: impl FnOnce(Server) -> Server) -> (tempfile::TempDir, ServerHandle) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("index.html"), "<!DOCTYPE html><p>home").unwrap();
    fs::write(dir.path().join("a.txt"), "first file").unwrap();
    fs::write(dir.path().join("b.png"), b"\x89PNG\r\n\x1a\nimage").unwrap();
    fs::write(dir.path().join("empty.txt"), "").unwrap();
    let server = Server::bind(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    (dir, configure(server).spawn())
}

fn serve() -> (tempfile::TempDir, ServerHandle) {
    serve_with(|s| s)
}

#[test]
fn two_requests_on_one_connection_are_both_answered() {
    let (_dir, server) = serve();
    let mut client = Client::connect(server.local_addr());
    client.get("/a.txt", "");
    let first = client.reply(false);
    assert_eq!(
        (first.status, first.body.as_slice()),
        (200, &b"first file"[..])
    );
    assert_eq!(first.header("Connection"), Some("keep-alive"));
    assert_eq!(first.header("Keep-Alive"), Some("timeout=5, max=99"));
    client.get("/b.png", "");
    let second = client.reply(false);
    assert_eq!(second.status, 200);
    assert_eq!(second.body, b"\x89PNG\r\n\x1a\nimage");
    assert_eq!(second.header("Keep-Alive"), Some("timeout=5, max=98"));
}

#[test]
fn connection_close_is_honoured() {
    let (_dir, server) = serve();
    let mut client = Client::connect(server.local_addr());
    client.get("/a.txt", "Connection: close\r\n");
    let reply = client.reply(false);
    assert_eq!(
        (reply.status, reply.body.as_slice()),
        (200, &b"first file"[..])
    );
    assert!(reply.closes());
    assert_eq!(reply.header("Keep-Alive"), None);
    assert!(client.closed());
}

#[test]
fn http_1_0_closes_by_default_and_keeps_alive_when_asked() {
    let (_dir, server) = serve();
    let mut plain = Client::connect(server.local_addr());
    plain.send(b"GET /a.txt HTTP/1.0\r\n\r\n");
    assert!(plain.reply(false).closes());
    assert!(plain.closed());
    let mut kept = Client::connect(server.local_addr());
    for _ in 0..2 {
        kept.send(b"GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        let reply = kept.reply(false);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("Connection"), Some("keep-alive"));
    }
}

#[test]
fn the_last_request_a_connection_may_make_is_answered_with_close() {
    let (_dir, server) = serve_with(|s| {
        s.with_keep_alive(KeepAlive {
            max_requests: 3,
            ..KeepAlive::default()
        })
    });
    let mut client = Client::connect(server.local_addr());
    for left in ["2", "1"] {
        client.get("/a.txt", "");
        let reply = client.reply(false);
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.header("Keep-Alive"),
            Some(format!("timeout=5, max={left}").as_str())
        );
    }
    client.get("/a.txt", "");
    let last = client.reply(false);
    assert_eq!(last.status, 200);
    assert!(last.closes());
    assert!(client.closed());
}

#[test]
fn an_idle_connection_is_closed_after_the_timeout() {
    let (_dir, server) = serve_with(|s| {
        s.with_keep_alive(KeepAlive {
            idle: Duration::from_millis(50),
            ..KeepAlive::default()
        })
    });
    let mut client = Client::connect(server.local_addr());
    client.get("/a.txt", "");
    let reply = client.reply(false);
    assert_eq!(reply.header("Connection"), Some("keep-alive"));
    // Under a second: no `Keep-Alive: timeout=0`, which would say "do not reuse".
    assert_eq!(reply.header("Keep-Alive"), None);
    // Nothing is sent: the server closes without a word (no 408).
    assert!(client.closed());
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let (_dir, server) = serve();
    let mut client = Client::connect(server.local_addr());
    client.send(
        b"GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n\
          HEAD /b.png HTTP/1.1\r\nHost: x\r\n\r\n\
          GET /missing HTTP/1.1\r\nHost: x\r\n\r\n\
          GET /empty.txt HTTP/1.1\r\nHost: x\r\n\r\n\
          GET /b.png HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    let a = client.reply(false);
    assert_eq!((a.status, a.body.as_slice()), (200, &b"first file"[..]));
    let head = client.reply(true);
    assert_eq!(
        (head.status, head.header("Content-Length")),
        (200, Some("13"))
    );
    let missing = client.reply(false);
    assert_eq!(missing.status, 404);
    assert!(!missing.closes());
    let empty = client.reply(false);
    assert_eq!((empty.status, empty.body.len()), (200, 0));
    let b = client.reply(false);
    assert_eq!(
        (b.status, b.body.as_slice()),
        (200, &b"\x89PNG\r\n\x1a\nimage"[..])
    );
    assert!(b.closes());
    assert!(client.closed());
}

#[test]
fn a_405_without_a_body_keeps_the_connection_and_one_with_a_body_closes_it() {
    let (_dir, server) = serve();
    let mut client = Client::connect(server.local_addr());
    client.send(b"OPTIONS /a.txt HTTP/1.1\r\nHost: x\r\n\r\n");
    let options = client.reply(false);
    assert_eq!(
        (options.status, options.header("Allow")),
        (405, Some("GET, HEAD"))
    );
    assert!(!options.closes());
    // The body is not read: the connection cannot be reused after it.
    client.send(b"POST /a.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nGET / ...");
    let post = client.reply(false);
    assert_eq!(post.status, 405);
    assert!(post.closes());
    assert!(client.closed());
}

#[test]
fn a_malformed_request_is_answered_and_the_connection_closed() {
    let (_dir, server) = serve();
    let mut client = Client::connect(server.local_addr());
    client.get("/a.txt", "");
    assert_eq!(client.reply(false).status, 200);
    client.send(b"GET / HTTP/1.1\r\n\r\n");
    let bad = client.reply(false);
    assert_eq!(bad.status, 400);
    assert!(bad.closes());
    assert!(client.closed());
}

/// The slowloris defence holds for every request of a connection, not
/// only its first.
#[test]
fn a_second_request_that_trickles_in_is_cut_off_at_the_request_deadline() {
    let (_dir, server) = serve_with(|s| {
        s.with_request_deadline(Duration::from_secs(1))
            .with_keep_alive(KeepAlive {
                idle: Duration::from_secs(60),
                ..KeepAlive::default()
            })
    });
    let mut client = Client::connect(server.local_addr());
    client.get("/a.txt", "");
    assert_eq!(client.reply(false).status, 200);
    client.send(b"GET /a.txt HT");
    let cut = client.reply(false);
    assert_eq!(cut.status, 408);
    assert!(cut.closes());
    assert!(client.closed());
}

/// The issue: a client that had seen its last response end reconnected
/// at once and was refused, because the server still counted the old
/// connection while it waited for the client's close.
#[test]
fn a_client_that_saw_its_last_response_end_gets_its_place_back_at_once() {
    let (_dir, server) = serve_with(|s| {
        s.with_limits(Limits {
            per_client: 1,
            total: 10,
        })
    });
    // The old connection is neither read to its end nor closed: the client
    // knows from Content-Length that it is over.
    let mut old = Client::connect(server.local_addr());
    old.get("/a.txt", "Connection: close\r\n");
    assert!(old.reply(false).closes());
    let mut new = Client::connect(server.local_addr());
    new.get("/a.txt", "Connection: close\r\n");
    assert_eq!(new.reply(false).status, 200);
    drop(old);
    // And one after the other, each closed as soon as it is read.
    for i in 0..50 {
        let mut client = Client::connect(server.local_addr());
        client.get("/b.png", "Connection: close\r\n");
        assert_eq!(client.reply(false).status, 200, "connection {i}");
    }
}

/// At its cap, a client's new connection closes its idle one, which goes
/// without a word (an answer it did not ask for would be taken for the
/// answer to its next request).
#[test]
fn an_idle_kept_alive_connection_makes_room_and_closes_quietly() {
    let (_dir, server) = serve_with(|s| {
        s.with_limits(Limits {
            per_client: 1,
            total: 10,
        })
    });
    let mut idle = Client::connect(server.local_addr());
    idle.get("/a.txt", "");
    assert_eq!(idle.reply(false).header("Connection"), Some("keep-alive"));
    let mut new = Client::connect(server.local_addr());
    new.get("/a.txt", "");
    assert_eq!(new.reply(false).status, 200);
    assert!(idle.closed());
}
