//! What keeps a few clients from starving the others: a table of open
//! connections with a cap per client address and in all, where a connection
//! still waiting for its request (idle or trickling) is closed first to make
//! room; each connection's place in it, given back exactly when the client
//! can see the connection end; and a reader with one deadline for the whole
//! request.

use std::io::{self, Read, Write};
use std::net::{IpAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread;
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

/// Where a connection is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for a request (the first, or the next on a kept-alive
    /// connection) since then: closed first when room is needed.
    Reading(Instant),
    /// Answering: never closed for room.
    Answering,
    /// Its last response is sent: for its client it has ended, and it no
    /// longer counts toward the client's cap. Its thread still reads what
    /// the client sends until the client closes (so that the close is no
    /// reset that loses the response): that counts toward the total, and is
    /// the first thing stopped to make room.
    Lingering(Instant),
}

/// One open connection.
struct Entry<H> {
    id: u64,
    client: IpAddr,
    phase: Phase,
    /// What closes it when it must make room.
    handle: H,
}

/// What a connection does after the last byte of a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// Waits for the client's next request (keep-alive).
    Wait,
    /// Ends: the response said `Connection: close`, or was delimited by the close.
    End,
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
    /// waiting for its request is closed; over the total cap, the oldest
    /// lingering connection of any address, else the oldest waiting one.
    /// When none can be closed, it is refused.
    pub fn admit(&mut self, client: IpAddr, now: Instant, handle: H) -> Admission<H> {
        let mut evicted = Vec::new();
        if self.count(client) >= self.limits.per_client {
            match self.oldest(Some(client), Self::reading) {
                Some(i) => evicted.push(self.entries.swap_remove(i).handle),
                None => return Admission::Refuse,
            }
        }
        // After an eviction above the table has room: the total cap can
        // only bite when nothing was evicted, so nothing evicted is lost.
        if self.entries.len() >= self.limits.total {
            let victim = self
                .oldest(None, Self::lingering)
                .or_else(|| self.oldest(None, Self::reading));
            match victim {
                Some(i) => evicted.push(self.entries.swap_remove(i).handle),
                None => return Admission::Refuse,
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        self.entries.push(Entry {
            id,
            client,
            phase: Phase::Reading(now),
            handle,
        });
        Admission::Admit { id, evicted }
    }

    /// The connection's request was read: it is busy and never evicted.
    /// False when it was evicted already.
    pub fn answering(&mut self, id: u64) -> bool {
        self.set_phase(id, Phase::Answering)
    }

    /// The connection's response is sent (to its last byte): it waits for
    /// the next request from `now`, or has ended. False when it was evicted.
    pub fn answered(&mut self, id: u64, after: After, now: Instant) -> bool {
        let phase = match after {
            After::Wait => Phase::Reading(now),
            After::End => Phase::Lingering(now),
        };
        self.set_phase(id, phase)
    }

    /// The connection is closed.
    pub fn remove(&mut self, id: u64) {
        self.entries.retain(|e| e.id != id);
    }

    /// The handles of the connections that can be closed at once: those
    /// waiting for a request, and those lingering after their last response.
    pub fn closable(&self) -> impl Iterator<Item = &H> {
        self.entries
            .iter()
            .filter(|e| e.phase != Phase::Answering)
            .map(|e| &e.handle)
    }

    /// How many connections count toward `client`'s cap.
    #[cfg(test)]
    pub fn of(&self, client: IpAddr) -> usize {
        self.count(client)
    }

    /// Open connections.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    fn set_phase(&mut self, id: u64, phase: Phase) -> bool {
        match self.entries.iter_mut().find(|e| e.id == id) {
            Some(e) => {
                e.phase = phase;
                true
            }
            None => false,
        }
    }

    /// The connections of `client` that are open for it: a lingering one has
    /// ended, as far as the client can tell, and may already be replaced.
    fn count(&self, client: IpAddr) -> usize {
        self.entries
            .iter()
            .filter(|e| e.client == client && !matches!(e.phase, Phase::Lingering(_)))
            .count()
    }

    fn reading(phase: Phase) -> Option<Instant> {
        match phase {
            Phase::Reading(since) => Some(since),
            _ => None,
        }
    }

    fn lingering(phase: Phase) -> Option<Instant> {
        match phase {
            Phase::Lingering(since) => Some(since),
            _ => None,
        }
    }

    /// The index of the connection (of `client`, or of anyone) in the phase
    /// `since` picks that has been in it longest.
    fn oldest(&self, client: Option<IpAddr>, since: fn(Phase) -> Option<Instant>) -> Option<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| client.is_none_or(|c| e.client == c))
            .filter_map(|(i, e)| since(e.phase).map(|t| (t, e.id, i)))
            .min()
            .map(|(_, _, i)| i)
    }
}

/// How often the last byte of a response is tried again while the client's
/// window is full (a slow reader): rare, and never under the table's lock.
const LAST_BYTE_POLL: Duration = Duration::from_millis(5);

/// A connection's place in the table, from its admission until its end:
/// given back when dropped, however the connection ends.
///
/// Why the last byte of every response goes through [`Slot::send_last`]:
/// the client knows a response is whole from its last byte, and may open
/// a new connection at once. Were the place given back after that (after
/// the close, say), the new connection could find the old one still
/// counted and busy, and be refused below its cap.
pub struct Slot<'a, H> {
    table: &'a Mutex<Table<H>>,
    id: u64,
}

impl<'a, H> Slot<'a, H> {
    /// The place of the connection admitted as `id`.
    pub fn new(table: &'a Mutex<Table<H>>, id: u64) -> Self {
        Slot { table, id }
    }

    fn table(&self) -> MutexGuard<'a, Table<H>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A request was read: the connection is busy answering, and is not
    /// closed for room. False when it was closed for room already.
    pub fn answering(&self) -> bool {
        self.table().answering(self.id)
    }

    /// The connection ends without another byte sent: its client sees the
    /// end only at the close, which comes after this.
    pub fn end(&self) {
        self.table().answered(self.id, After::End, Instant::now());
    }

    /// Sends `last`, a response's last byte, and moves the connection on to
    /// `after` in one step under the table's lock: no connection is admitted
    /// between the byte leaving and the table knowing, so a client that
    /// reconnects on seeing the response end always finds its place free.
    /// The byte is sent without blocking (the lock is never held while
    /// waiting on a client); when the client's window is full it is tried
    /// again a little later, until `give_up`.
    pub fn send_last(
        &self,
        stream: &TcpStream,
        last: u8,
        after: After,
        give_up: Instant,
    ) -> io::Result<()> {
        stream.set_nonblocking(true)?;
        let sent = self.try_send_last(stream, last, after, give_up);
        let restored = stream.set_nonblocking(false);
        sent.and(restored)
    }

    fn try_send_last(
        &self,
        stream: &TcpStream,
        last: u8,
        after: After,
        give_up: Instant,
    ) -> io::Result<()> {
        let mut out = stream;
        loop {
            let attempt = {
                let mut table = self.table();
                let attempt = out.write(&[last]);
                if let Ok(1) = attempt {
                    table.answered(self.id, after, Instant::now());
                }
                attempt
            };
            match attempt {
                Ok(1) => return Ok(()),
                Ok(_) => return Err(io::ErrorKind::WriteZero.into()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if Instant::now() >= give_up {
                        return Err(io::ErrorKind::TimedOut.into());
                    }
                    thread::sleep(LAST_BYTE_POLL);
                }
                Err(e) => return Err(e),
            }
        }
    }
}

impl<H> Drop for Slot<'_, H> {
    fn drop(&mut self) {
        self.table().remove(self.id);
    }
}

/// How often a connection waiting for its request looks whether it was
/// asked to make room.
const POLL: Duration = Duration::from_millis(100);

/// Reads from a stream with one deadline for everything read of a request:
/// a client that sends a byte now and then gets no more time than one that
/// sends nothing. Between requests of a kept-alive connection, a shorter
/// wait for the next request's first byte. Reading stops too when `evicted`
/// is set (the connection must make room for another), with
/// `ConnectionAborted`.
pub struct DeadlineReader<'a> {
    stream: &'a TcpStream,
    /// Until when the request's first byte may take.
    first_byte: Instant,
    /// Until when the whole request may take.
    deadline: Instant,
    /// Whether a byte of the request was read.
    began: bool,
    evicted: &'a AtomicBool,
}

impl<'a> DeadlineReader<'a> {
    /// Reads from `stream` until `limit` from now, or until `evicted`.
    pub fn new(stream: &'a TcpStream, limit: Duration, evicted: &'a AtomicBool) -> Self {
        let deadline = Instant::now() + limit;
        DeadlineReader {
            stream,
            first_byte: deadline,
            deadline,
            began: false,
            evicted,
        }
    }

    /// Starts the deadlines of the next request on the connection: its
    /// first byte within `idle` from now, all of it within `limit` from now
    /// (so a request that trickles in gets no more time than the first did).
    /// `began` when a byte of it was read already (pipelined).
    pub fn next_request(&mut self, idle: Duration, limit: Duration, began: bool) {
        let now = Instant::now();
        self.first_byte = now + idle.min(limit);
        self.deadline = now + limit;
        self.began = began;
    }

    /// Whether a byte of the current request was read.
    pub fn began(&self) -> bool {
        self.began
    }
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.evicted.load(Ordering::SeqCst) {
                return Err(io::ErrorKind::ConnectionAborted.into());
            }
            let until = if self.began {
                self.deadline
            } else {
                self.first_byte
            };
            let left = until.saturating_duration_since(Instant::now());
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
                Ok(n) => {
                    self.began |= n > 0;
                    return Ok(n);
                }
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

    /// The cause: a connection counted for its client until its
    /// thread had lingered to the client's close, long after the client saw
    /// the last response end and came back, to be refused below its cap.
    #[test]
    fn a_connection_that_sent_its_last_response_no_longer_counts_for_its_client() {
        let mut t = Table::new(Limits {
            per_client: 1,
            total: 10,
        });
        let now = Instant::now();
        let (a, _) = admitted(t.admit(ip(1), now, "a"));
        t.answering(a);
        assert_eq!(t.admit(ip(1), now, "refused"), Admission::Refuse);
        t.answered(a, After::End, now);
        assert_eq!(t.of(ip(1)), 0);
        let (_, evicted) = admitted(t.admit(ip(1), now, "b"));
        assert!(evicted.is_empty(), "the lingering one is not in the way");
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn a_kept_alive_connection_waiting_for_its_next_request_makes_room() {
        let mut t = Table::new(Limits {
            per_client: 1,
            total: 10,
        });
        let now = Instant::now();
        let (a, _) = admitted(t.admit(ip(1), now, "a"));
        t.answering(a);
        t.answered(a, After::Wait, now);
        let (_, evicted) = admitted(t.admit(ip(1), now, "b"));
        assert_eq!(evicted, ["a"]);
        assert!(!t.answering(a), "closed for room: it answers no more");
    }

    /// Lingering threads count toward the total (one thread each) but
    /// never keep anyone out: they are the first stopped for room.
    #[test]
    fn lingering_connections_are_the_first_closed_at_the_total_cap() {
        let mut t = Table::new(Limits {
            per_client: 5,
            total: 2,
        });
        let now = Instant::now();
        let (_waiting, _) = admitted(t.admit(ip(1), now, "waiting"));
        let (done, _) = admitted(t.admit(ip(2), now + Duration::from_secs(1), "done"));
        t.answering(done);
        t.answered(done, After::End, now + Duration::from_secs(2));
        let (_, evicted) = admitted(t.admit(ip(3), now + Duration::from_secs(3), "c"));
        assert_eq!(evicted, ["done"]);
        assert_eq!(t.closable().count(), 2);
    }
}

#[cfg(test)]
mod slot_tests {
    use super::*;
    use std::net::TcpListener;

    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (client, server)
    }

    fn one() -> Mutex<Table<()>> {
        Mutex::new(Table::new(Limits {
            per_client: 1,
            total: 10,
        }))
    }

    fn admit(table: &Mutex<Table<()>>) -> Admission<()> {
        let client = IpAddr::from([127, 0, 0, 1]);
        table.lock().unwrap().admit(client, Instant::now(), ())
    }

    /// Once the client can read a response's last byte, its place is free.
    #[test]
    fn the_place_is_free_when_the_last_byte_is_out() {
        let table = one();
        let Admission::Admit { id, .. } = admit(&table) else {
            panic!("refused")
        };
        let slot = Slot::new(&table, id);
        assert!(slot.answering());
        assert_eq!(admit(&table), Admission::Refuse);
        let (mut client, server) = pair();
        let give_up = Instant::now() + Duration::from_secs(10);
        slot.send_last(&server, b'!', After::End, give_up).unwrap();
        let mut byte = [0u8];
        client.read_exact(&mut byte).unwrap();
        assert_eq!(&byte, b"!");
        assert!(matches!(admit(&table), Admission::Admit { .. }));
    }

    /// A client that reads slowly: the last byte waits for room in its
    /// window (tried again, never under the lock), and goes out whole.
    #[test]
    fn the_last_byte_waits_for_a_slow_reader() {
        let table = one();
        let Admission::Admit { id, .. } = admit(&table) else {
            panic!("refused")
        };
        let slot = Slot::new(&table, id);
        slot.answering();
        let (mut client, server) = pair();
        let queued = fill(&server);
        let give_up = Instant::now() + Duration::from_secs(10);
        thread::scope(|s| {
            let sender = s.spawn(|| slot.send_last(&server, b'!', After::End, give_up));
            let mut all = vec![0u8; queued + 1];
            client.read_exact(&mut all).unwrap();
            assert_eq!(all.last(), Some(&b'!'));
            sender.join().unwrap().unwrap();
        });
        assert!(matches!(admit(&table), Admission::Admit { .. }));
    }

    /// Writes to `stream` until its buffers are full; how much it took.
    fn fill(stream: &TcpStream) -> usize {
        stream.set_nonblocking(true).unwrap();
        let mut out = stream;
        let mut queued = 0;
        for size in [64 * 1024, 1] {
            let chunk = vec![0u8; size];
            loop {
                match out.write(&chunk) {
                    Ok(n) => queued += n,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) => panic!("{e}"),
                }
            }
        }
        stream.set_nonblocking(false).unwrap();
        queued
    }

    #[test]
    fn the_place_is_given_back_when_the_slot_goes() {
        let table = one();
        let Admission::Admit { id, .. } = admit(&table) else {
            panic!("refused")
        };
        let slot = Slot::new(&table, id);
        slot.answering();
        drop(slot);
        assert_eq!(table.lock().unwrap().len(), 0);
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

    /// Each request of a kept-alive connection gets the deadline anew: the
    /// wait for its first byte, then the whole request's.
    #[test]
    fn every_request_has_its_deadlines() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        client.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        let no = AtomicBool::new(false);
        let mut reader = DeadlineReader::new(&server, Duration::from_secs(10), &no);
        let mut buf = [0u8; 4];
        // Idle time used up: even bytes that are there are not read.
        reader.next_request(Duration::ZERO, Duration::from_secs(10), false);
        let err = reader.read(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        // Begun (pipelined): the idle wait is over, the request's is not.
        reader.next_request(Duration::ZERO, Duration::from_secs(10), true);
        assert_eq!(reader.read(&mut buf).unwrap(), 4);
        // The request's time is used up: a trickle is cut off.
        reader.next_request(Duration::from_secs(10), Duration::ZERO, false);
        let err = reader.read(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        // A first byte read starts the whole request's deadline.
        reader.next_request(Duration::from_secs(10), Duration::from_secs(10), false);
        assert!(!reader.began());
        assert_eq!(reader.read(&mut buf).unwrap(), 4);
        assert!(reader.began());
    }
}
