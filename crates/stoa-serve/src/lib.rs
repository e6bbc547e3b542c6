//! A small read-only HTTP server for dist/: local preview and devices on the same network.
//! HTTP/1.1 GET and HEAD with byte ranges, std only, a thread per connection under
//! caps per client and in all, nothing served from outside the root; with a live preview
//! (`stoa serve --watch`), an event stream of builds and a reload script added to pages.

mod date;
mod limits;
mod live;
mod request;
mod resolve;
mod response;

use std::io;
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub use limits::Limits;
use limits::{Admission, DeadlineReader, Table};
pub use live::{EVENTS_PATH, Live, LiveError};
use request::{Method, Request};
use response::Response;

/// How long a client may take to send its whole request head, however it
/// trickles it: a slow client holds a connection for this long at most, and
/// is the first to be closed when room is needed.
const REQUEST_DEADLINE: Duration = Duration::from_secs(10);
/// How long one write may block: a phone on weak Wi-Fi drains slowly.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to keep reading after the response, so that a request not read in
/// full does not turn the close into a reset that loses the response.
const LINGER: Duration = Duration::from_secs(2);
/// A connection's thread needs little: the request head and an 8 KiB buffer.
const THREAD_STACK: usize = 256 * 1024;

/// A bound, not yet running, server of one directory.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    root: PathBuf,
    log: bool,
    limits: Limits,
    live: Option<Live>,
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
            limits: Limits::default(),
            live: None,
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

    /// How many connections may be open at once, per client address and in
    /// all (see [`Limits`]).
    pub fn with_limits(mut self, limits: Limits) -> Server {
        self.limits = limits;
        self
    }

    /// Serves the live preview too (`stoa serve --watch`): the event stream
    /// at [`EVENTS_PATH`] that `live` feeds, and the script that listens to
    /// it added to every HTML page served (never to the files on disk).
    pub fn with_live(mut self, live: Live) -> Server {
        self.live = Some(live);
        self
    }

    /// Serves until the process ends (or, for a spawned server, until shutdown).
    pub fn run(self) {
        let site = Arc::new(Site {
            root: self.root,
            log: self.log,
            preview: self.live,
            table: Mutex::new(Table::new(self.limits)),
            live: Mutex::new(0),
            ended: Condvar::new(),
        });
        accept_loop(&self.listener, &self.stop, &site);
        // Event streams would otherwise wait for their next heartbeat.
        if let Some(live) = &site.preview {
            live.close();
        }
        // Connections still waiting for their request will not get one now.
        for evicted in site.table().waiting() {
            evicted.store(true, Ordering::SeqCst);
        }
        let mut live = site.live.lock().unwrap_or_else(|e| e.into_inner());
        while *live > 0 {
            live = site.ended.wait(live).unwrap_or_else(|e| e.into_inner());
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

/// What the connections share.
struct Site {
    root: PathBuf,
    log: bool,
    /// The live preview's channel, when serving with `--watch`.
    preview: Option<Live>,
    /// The open connections, for the caps, each with the flag that asks it
    /// to make room.
    table: Mutex<Table<Arc<AtomicBool>>>,
    /// Connection threads still running, and a signal when one ends.
    live: Mutex<usize>,
    ended: Condvar,
}

impl Site {
    fn table(&self) -> MutexGuard<'_, Table<Arc<AtomicBool>>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn accept_loop(listener: &TcpListener, stop: &AtomicBool, site: &Arc<Site>) {
    for conn in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let stream = match conn {
            Ok(stream) => stream,
            // Out of descriptors, or a client that hung up before accept: keep serving the others.
            Err(_) => continue,
        };
        admit(stream, site);
    }
}

/// Serves `stream` on a thread of its own if the caps allow, closing idle
/// connections to make room; answers 503 with `Retry-After` otherwise.
fn admit(stream: TcpStream, site: &Arc<Site>) {
    let client = stream
        .peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
    let evicted = Arc::new(AtomicBool::new(false));
    let admission = site
        .table()
        .admit(client, Instant::now(), Arc::clone(&evicted));
    let id = match admission {
        Admission::Admit { id, evicted } => {
            // Each sees it within a poll, and answers 503 with Retry-After.
            for idle in evicted {
                idle.store(true, Ordering::SeqCst);
            }
            id
        }
        Admission::Refuse => return refuse_busy(stream),
    };
    *site.live.lock().unwrap_or_else(|e| e.into_inner()) += 1;
    let shared = Arc::clone(site);
    let spawned = thread::Builder::new()
        .name("stoa-serve-conn".into())
        .stack_size(THREAD_STACK)
        .spawn(move || {
            let _end = Ending { site: &shared, id };
            // A bug must cost one connection, not the server.
            let _ = catch_unwind(AssertUnwindSafe(|| {
                serve_connection(&stream, id, &evicted, &shared)
            }));
        });
    if spawned.is_err() {
        // The closure, and the stream in it, are gone: clean up by hand.
        site.table().remove(id);
        connection_ended(site);
    }
}

/// Marks a connection's end when its thread finishes, however it finishes.
struct Ending<'a> {
    site: &'a Site,
    id: u64,
}

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        self.site.table().remove(self.id);
        connection_ended(self.site);
    }
}

fn connection_ended(site: &Site) {
    let mut live = site.live.lock().unwrap_or_else(|e| e.into_inner());
    *live = live.saturating_sub(1);
    site.ended.notify_all();
}

/// Answers 503 at once, with `Retry-After`, rather than letting a connection wait without bound.
/// Runs on the accepting thread, so it never waits on the client: what the
/// client already sent is read without blocking before the close, so that
/// the close is not a reset that could lose the answer.
fn refuse_busy(stream: TcpStream) {
    use std::io::Read;
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    let _ = Response::busy().write_to(&stream, false);
    let _ = stream.shutdown(Shutdown::Write);
    if stream.set_nonblocking(true).is_ok() {
        let mut sink = [0u8; 4096];
        let mut reader = &stream;
        for _ in 0..16 {
            match reader.read(&mut sink) {
                Ok(n) if n > 0 => {}
                _ => break,
            }
        }
    }
}

/// Reads one request, answers it, and closes the connection.
fn serve_connection(stream: &TcpStream, id: u64, evicted: &AtomicBool, site: &Site) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut reader = io::BufReader::new(DeadlineReader::new(stream, REQUEST_DEADLINE, evicted));
    let read = request::read(&mut reader);
    // From here on the connection is busy answering: never closed for room.
    // One that was asked to make room first is told to come back.
    if !site.table().answering(id) {
        let _ = Response::busy().write_to(stream, false);
        linger_close(stream);
        return;
    }
    let (response, head_only, line) = match read {
        Ok(request) => {
            if let Some(live) = &site.preview
                && request.method != Method::Other
                && request.target.split('?').next() == Some(EVENTS_PATH)
            {
                let line = format!("{} {}", request.method_name, request.target);
                let log = |status| {
                    if site.log {
                        log_line(stream, &line, status);
                    }
                };
                let since = request
                    .last_event_id
                    .or_else(|| since_param(&request.target));
                let head_only = request.method == Method::Head;
                live::serve_events(stream, live, since, head_only, &log);
                linger_close(stream);
                return;
            }
            let response = respond(&site.root, &request, site.preview.as_ref());
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
        log_line(stream, &line, response.status);
    }
    let _ = response.write_to(stream, head_only);
    linger_close(stream);
}

fn log_line(stream: &TcpStream, line: &str, status: u16) {
    let peer = stream
        .peer_addr()
        .map_or("?".to_string(), |a| a.to_string());
    eprintln!("{peer} {line} {status}");
}

/// The `since=<generation>` of an event stream's first request: the build
/// its page was served from.
fn since_param(target: &str) -> Option<u64> {
    let (_, query) = target.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("since="))
        .and_then(|n| n.parse().ok())
}

fn respond(root: &Path, request: &Request, live: Option<&Live>) -> Response {
    if request.method == Method::Other {
        return Response::error(405);
    }
    match resolve::resolve(root, &request.target) {
        Ok(found) => match live {
            Some(live) if response::is_page(&found.name) => Response::page(&found, &live.script())
                .unwrap_or_else(|| {
                    Response::file(&found, request.range.as_deref(), request.if_range)
                }),
            _ => Response::file(&found, request.range.as_deref(), request.if_range),
        },
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

#[cfg(test)]
mod tests {
    use super::since_param;

    #[test]
    fn the_generation_a_page_was_served_from_comes_in_the_query() {
        assert_eq!(since_param("/.stoa/events?since=12"), Some(12));
        assert_eq!(since_param("/.stoa/events?x=1&since=3"), Some(3));
        assert_eq!(since_param("/.stoa/events"), None);
        assert_eq!(since_param("/.stoa/events?since=-1"), None);
    }
}
