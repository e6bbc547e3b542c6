//! A small read-only HTTP server for dist/: local preview and devices on the same network.
//! HTTP/1.1 GET and HEAD with byte ranges, std only, a few worker threads, nothing served from outside the root.

mod date;
mod request;
mod resolve;
mod response;

use std::io;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use request::{Method, Request};
use response::Response;

/// Connections served at once. Enough for a browser's parallel requests and a
/// couple of e-readers; each connection carries one request.
const WORKERS: usize = 4;
/// Accepted connections waiting for a worker; beyond this they get a 503.
const QUEUE: usize = 32;
/// How long a client may take to send its request (and each read of it).
const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one write may block: a phone on weak Wi-Fi drains slowly.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to keep reading after the response, so that a request not read in
/// full does not turn the close into a reset that loses the response.
const LINGER: Duration = Duration::from_secs(2);

/// A bound, not yet running, server of one directory.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    root: PathBuf,
    log: bool,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Binds `addr` to serve the files under `root` (which must be a directory).
    /// Port 0 picks a free port: see [`Server::local_addr`].
    pub fn bind(root: &Path, addr: SocketAddr) -> io::Result<Server> {
        let root = root.canonicalize()?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a directory", root.display()),
            ));
        }
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        Ok(Server {
            listener,
            addr,
            root,
            log: false,
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The address actually bound, with the port chosen when 0 was asked for.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The directory served, canonical.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Prints one line per request on standard error (`peer METHOD target status`).
    pub fn with_log(mut self, log: bool) -> Server {
        self.log = log;
        self
    }

    /// Serves until the process ends (or, for a spawned server, until shutdown).
    pub fn run(self) {
        let (queue, incoming) = sync_channel::<TcpStream>(QUEUE);
        let incoming = Arc::new(Mutex::new(incoming));
        let site = Arc::new(Site {
            root: self.root,
            log: self.log,
        });
        let workers: Vec<JoinHandle<()>> = (0..WORKERS)
            .map(|_| spawn_worker(Arc::clone(&incoming), Arc::clone(&site)))
            .collect();
        accept_loop(&self.listener, &self.stop, &queue);
        drop(queue);
        for worker in workers {
            let _ = worker.join();
        }
    }

    /// Runs the server on a thread of its own; the handle stops it.
    pub fn spawn(self) -> ServerHandle {
        let addr = self.addr;
        let stop = Arc::clone(&self.stop);
        let thread = thread::Builder::new()
            .name("stoa-serve".into())
            .spawn(move || self.run())
            .expect("spawn the server thread");
        ServerHandle {
            addr,
            stop,
            thread: Some(thread),
        }
    }
}

/// A server running on its own thread.
#[derive(Debug)]
pub struct ServerHandle {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ServerHandle {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, lets the requests under way finish, and waits for the threads.
    pub fn shutdown(mut self) {
        self.stop_and_join();
    }

    fn stop_and_join(&mut self) {
        let Some(thread) = self.thread.take() else {
            return;
        };
        self.stop.store(true, Ordering::SeqCst);
        // `accept` blocks; a connection of our own wakes it to see the flag.
        let _ = TcpStream::connect_timeout(&wake_addr(self.addr), Duration::from_secs(5));
        let _ = thread.join();
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

/// Where to connect to reach our own listener: an unspecified address
/// (0.0.0.0, ::) is not connectable everywhere, its loopback is.
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut addr = addr;
    if addr.ip().is_unspecified() {
        let loopback = match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        };
        addr.set_ip(loopback);
    }
    addr
}

/// What the workers share.
struct Site {
    root: PathBuf,
    log: bool,
}

fn accept_loop(listener: &TcpListener, stop: &AtomicBool, queue: &SyncSender<TcpStream>) {
    for conn in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let stream = match conn {
            Ok(stream) => stream,
            // Out of descriptors, or a client that hung up before accept: keep serving the others.
            Err(_) => continue,
        };
        match queue.try_send(stream) {
            Ok(()) => {}
            Err(TrySendError::Full(stream)) => refuse_busy(stream),
            Err(TrySendError::Disconnected(_)) => break,
        }
    }
}

/// Answers 503 at once rather than letting a connection wait for a worker without bound.
fn refuse_busy(stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = Response::error(503).write_to(&stream, false);
    let _ = stream.shutdown(Shutdown::Both);
}

fn spawn_worker(incoming: Arc<Mutex<Receiver<TcpStream>>>, site: Arc<Site>) -> JoinHandle<()> {
    thread::spawn(move || {
        loop {
            // The lock is held only while waiting, never while serving.
            let next = match incoming.lock() {
                Ok(receiver) => receiver.recv(),
                Err(_) => return,
            };
            let Ok(stream) = next else { return };
            // A bug must cost one connection, not a worker.
            let _ = catch_unwind(AssertUnwindSafe(|| serve_connection(stream, &site)));
        }
    })
}

/// Reads one request, answers it, and closes the connection.
fn serve_connection(stream: TcpStream, site: &Site) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut reader = io::BufReader::new(&stream);
    let (response, head_only, line) = match request::read(&mut reader) {
        Ok(request) => {
            let response = respond(&site.root, &request);
            (
                response,
                request.method == Method::Head,
                format!("{} {}", request.method_name, request.target),
            )
        }
        Err(request::Error::Closed) => return,
        Err(request::Error::Status(status)) => (Response::error(status), false, "-".to_string()),
    };
    if site.log {
        let peer = stream
            .peer_addr()
            .map_or("?".to_string(), |a| a.to_string());
        eprintln!("{peer} {line} {}", response.status);
    }
    let _ = response.write_to(&stream, head_only);
    linger_close(&stream);
}

fn respond(root: &Path, request: &Request) -> Response {
    if request.method == Method::Other {
        return Response::error(405);
    }
    match resolve::resolve(root, &request.target) {
        Ok(found) => Response::file(&found, request.range.as_deref(), request.if_range),
        Err(status) => Response::error(status),
    }
}

/// Half-closes, then reads what the client still sends until it closes too (or
/// a short while passes). Closing with unread data would send a reset, and the
/// client could lose the response it had not read yet.
fn linger_close(stream: &TcpStream) {
    use std::io::Read;
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(LINGER));
    let mut sink = [0u8; 4096];
    let mut left = 256 * 1024;
    let mut reader = stream;
    while left > 0 {
        match reader.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left -= n.min(left),
        }
    }
}
