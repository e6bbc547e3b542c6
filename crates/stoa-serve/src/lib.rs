//! A small read-only HTTP server for dist/: local preview and devices on the same network.
//! HTTP/1.1 GET and HEAD with byte ranges and persistent connections, std (with
//! chrono for dates and percent-encoding for paths: nothing else), a
//! thread per connection under caps per client and in all, nothing served from outside
//! the root; with a live preview (`stoa serve --watch`), an event stream of builds and a
//! reload script added to pages.

mod connection;
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

use connection::Handle;
pub use connection::KeepAlive;
pub use limits::Limits;
use limits::{Admission, Slot, Table};
pub use live::{EVENTS_PATH, Live, LiveError};
use response::Response;

/// How long a client may take to send a whole request head, however it
/// trickles it (each request of a kept-alive connection anew): a slow
/// client holds a connection for this long at most, and is the first to be
/// closed when room is needed.
const REQUEST_DEADLINE: Duration = Duration::from_secs(10);
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
    keep_alive: KeepAlive,
    request_deadline: Duration,
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
            keep_alive: KeepAlive::default(),
            request_deadline: REQUEST_DEADLINE,
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

    /// How long a connection is kept open between requests, and for how
    /// many (see [`KeepAlive`]).
    pub fn with_keep_alive(mut self, keep_alive: KeepAlive) -> Server {
        self.keep_alive = keep_alive;
        self
    }

    /// How long a client may take to send a whole request head, each
    /// request of a connection anew (10 seconds by default); past it, the
    /// request is answered 408 and the connection closed.
    pub fn with_request_deadline(mut self, deadline: Duration) -> Server {
        self.request_deadline = deadline;
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
            keep_alive: self.keep_alive,
            request_deadline: self.request_deadline,
            stop: Arc::clone(&self.stop),
            table: Mutex::new(Table::new(self.limits)),
            live: Mutex::new(0),
            ended: Condvar::new(),
        });
        accept_loop(&self.listener, &self.stop, &site);
        // Event streams would otherwise wait for their next heartbeat.
        if let Some(live) = &site.preview {
            live.close();
        }
        // Connections still waiting for a request will not get one now, and
        // those lingering after their last response need not wait for more.
        for evicted in site.table().closable() {
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
    keep_alive: KeepAlive,
    request_deadline: Duration,
    /// Set when the server stops: connections answer no more requests.
    stop: Arc<AtomicBool>,
    /// The open connections, for the caps, each with the flag that asks it
    /// to make room.
    table: Mutex<Table<Handle>>,
    /// Connection threads still running, and a signal when one ends.
    live: Mutex<usize>,
    ended: Condvar,
}

impl Site {
    fn table(&self) -> MutexGuard<'_, Table<Handle>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
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
            // Each sees it within a poll: one that was waiting for its first
            // request (or had begun one) answers 503 with Retry-After, one
            // idle between requests or lingering after its last just closes.
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
            let _end = Ending { site: &shared };
            // A bug must cost one connection, not the server (the slot is
            // given back as the panic unwinds).
            let _ = catch_unwind(AssertUnwindSafe(|| {
                let slot = Slot::new(&shared.table, id);
                connection::serve(&stream, slot, &evicted, &shared);
            }));
        });
    if spawned.is_err() {
        // The closure, and the stream in it, are gone: clean up by hand.
        site.table().remove(id);
        connection_ended(site);
    }
}

/// Counts a connection's thread out when it finishes, however it finishes
/// (its place in the table is its [`Slot`]'s, given back before).
struct Ending<'a> {
    site: &'a Site,
}

impl Drop for Ending<'_> {
    fn drop(&mut self) {
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
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    let _ = Response::busy().write_to(&stream, false);
    let _ = stream.shutdown(Shutdown::Write);
    connection::drain_now(&stream);
}
