//! What keeps a few clients from starving the others: a table of open
//! connections with a cap per client address and in all, where a connection
//! still waiting for its request (idle or trickling) is closed first to make
//! room, and a reader with one deadline for the whole request.

use std::io::{self, Read};
use std::net::{IpAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How many connections may be open at once, per client address and in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections from one address (a browser opens six per host).
    pub per_client: usize,
    /// Open connections in all: one thread each.
    pub total: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            per_client: 32,
            total: 256,
        }
    }
}

/// One open connection.
struct Entry<H> {
    id: u64,
    client: IpAddr,
    /// When it started waiting for its request; `None` once it is answered.
    reading_since: Option<Instant>,
    /// What closes it when it must make room.
    handle: H,
}

/// What to do with a new connection.
#[derive(Debug, PartialEq, Eq)]
pub enum Admission<H> {
    /// Serve it under this id; close the connections in `evicted` to make
    /// room (they had not sent their requests yet).
    Admit { id: u64, evicted: Vec<H> },
    /// Answer 503 with `Retry-After`: every connection it could replace is
    /// busy sending a response.
    Refuse,
}

/// The open connections.
pub struct Table<H> {
    limits: Limits,
    entries: Vec<Entry<H>>,
    next_id: u64,
}

impl<H> Table<H> {
    /// An empty table.
    pub fn new(limits: Limits) -> Table<H> {
        Table {
            limits,
            entries: Vec::new(),
            next_id: 0,
        }
    }

    /// Decides about a connection from `client`, opened at `now`. Over the
    /// cap for its address, the oldest connection of that address still
    /// waiting for its request is closed; over the total cap, the oldest such
    /// connection of any address. When none can be closed, it is refused.
    pub fn admit(&mut self, client: IpAddr, now: Instant, handle: H) -> Admission<H> {
        let mut evicted = Vec::new();
        if self.count(client) >= self.limits.per_client {
            match self.oldest_reading(Some(client)) {
                Some(i) => evicted.push(self.entries.swap_remove(i).handle),
                None => return Admission::Refuse,
            }
        }
        // After an eviction above the table has room: the total cap can
        // only bite when nothing was evicted, so nothing evicted is lost.
        if self.entries.len() >= self.limits.total {
            match self.oldest_reading(None) {
                Some(i) => evicted.push(self.entries.swap_remove(i).handle),
                None => return Admission::Refuse,
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        self.entries.push(Entry {
            id,
            client,
            reading_since: Some(now),
            handle,
        });
        Admission::Admit { id, evicted }
    }

    /// The connection's request was read: it is busy and never evicted.
    /// False when it was evicted already.
    pub fn answering(&mut self, id: u64) -> bool {
        match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => {
                e.reading_since = None;
                true
            }
            None => false,
        }
    }

    /// The connection is closed.
    pub fn remove(&mut self, id: u64) {
        self.entries.retain(|e| e.id != id);
    }

    /// The handles of the connections still waiting for their request.
    pub fn waiting(&self) -> impl Iterator<Item = &H> {
        self.entries
            .iter()
            .filter(|e| e.reading_since.is_some())
            .map(|e| &e.handle)
    }

    /// Open connections.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    fn count(&self, client: IpAddr) -> usize {
        self.entries.iter().filter(|e| e.client == client).count()
    }

    fn oldest_reading(&self, client: Option<IpAddr>) -> Option<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| client.is_none_or(|c| e.client == c))
            .filter_map(|(i, e)| e.reading_since.map(|t| (t, e.id, i)))
            .min()
            .map(|(_, _, i)| i)
    }
}

/// How often a connection waiting for its request looks whether it was
/// asked to make room.
const POLL: Duration = Duration::from_millis(100);

/// Reads from a stream with one deadline for everything read: a client
/// that sends a byte now and then gets no more time than one that sends
/// nothing. Reading stops too when `evicted` is set (the connection must make
/// room for another), with `ConnectionAborted`.
pub struct DeadlineReader<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
    evicted: &'a AtomicBool,
}

impl<'a> DeadlineReader<'a> {
    /// Reads from `stream` until `limit` from now, or until `evicted`.
    pub fn new(stream: &'a TcpStream, limit: Duration, evicted: &'a AtomicBool) -> Self {
        DeadlineReader {
            stream,
            deadline: Instant::now() + limit,
            evicted,
        }
    }
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.evicted.load(Ordering::SeqCst) {
                return Err(io::ErrorKind::ConnectionAborted.into());
            }
            let left = self.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            self.stream.set_read_timeout(Some(left.min(POLL)))?;
            let mut stream = self.stream;
            match stream.read(buf) {
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) => {}
                other => return other,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    fn admitted(a: Admission<&'static str>) -> (u64, Vec<&'static str>) {
        match a {
            Admission::Admit { id, evicted } => (id, evicted),
            Admission::Refuse => panic!("refused"),
        }
    }

    #[test]
    fn a_client_over_its_cap_loses_its_oldest_idle_connection() {
        let mut t = Table::new(Limits {
            per_client: 2,
            total: 10,
        });
        let start = Instant::now();
        let at = |s| start + Duration::from_secs(s);
        let (a, _) = admitted(t.admit(ip(1), at(0), "a"));
        let (_b, _) = admitted(t.admit(ip(1), at(1), "b"));
        // Another client is not affected by the first one's cap.
        admitted(t.admit(ip(2), at(2), "other"));
        let (_, evicted) = admitted(t.admit(ip(1), at(3), "c"));
        assert_eq!(evicted, ["a"]);
        t.remove(a); // the evicted one's thread ends: nothing changes
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn busy_connections_are_never_evicted_and_the_newcomer_is_refused() {
        let mut t = Table::new(Limits {
            per_client: 2,
            total: 3,
        });
        let now = Instant::now();
        let (a, _) = admitted(t.admit(ip(1), now, "a"));
        let (b, _) = admitted(t.admit(ip(1), now, "b"));
        t.answering(a);
        t.answering(b);
        assert_eq!(t.admit(ip(1), now, "c"), Admission::Refuse);
        // Over the total cap, the idle connection of another client goes.
        let (_, _) = admitted(t.admit(ip(2), now, "d"));
        let (_, evicted) = admitted(t.admit(ip(3), now + Duration::from_secs(1), "e"));
        assert_eq!(evicted, ["d"]);
        t.remove(a);
        let (_, evicted) = admitted(t.admit(ip(1), now, "f"));
        assert!(evicted.is_empty());
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpListener;

    /// The deadline is for everything read: once it has passed, bytes that
    /// are there to read are not read (a per-read timeout would read them).
    #[test]
    fn the_deadline_covers_the_whole_request() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        client.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        let no = AtomicBool::new(false);
        let mut open = DeadlineReader::new(&server, Duration::from_secs(10), &no);
        let mut buf = [0u8; 4];
        assert_eq!(open.read(&mut buf).unwrap(), 4);
        let mut spent = DeadlineReader::new(&server, Duration::ZERO, &no);
        let err = spent.read(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        let yes = AtomicBool::new(true);
        let mut evicted = DeadlineReader::new(&server, Duration::from_secs(10), &yes);
        let err = evicted.read(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::ConnectionAborted);
    }
}
