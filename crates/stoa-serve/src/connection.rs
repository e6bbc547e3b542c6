//! One connection, from its first request to its close: requests read and
//! answered in turn for as long as the client keeps the connection (HTTP/1.1
//! persistent connections, RFC 9112 §9.3), within a wait between requests
//! and a number of requests, each request under the same deadline as the
//! first.

use std::io::{self, BufReader, Read};
use std::net::{Shutdown, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::Site;
use crate::limits::{After, DeadlineReader, Slot};
use crate::live::{self, EVENTS_PATH, Live};
use crate::request::{self, Method, Request};
use crate::resolve;
use crate::response::{self, Response, Reuse};

/// How long an open connection waits for the first byte of its next
/// request: a browser asks for a page's images right after the page.
const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// Requests answered on one connection at most, so that one client does not
/// keep one thread for ever; the last answer says `Connection: close`.
const MAX_REQUESTS: usize = 100;
/// How long one write may block: a phone on weak Wi-Fi drains slowly.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to keep reading after the last response, so that a request not
/// read in full does not turn the close into a reset that loses the response.
const LINGER: Duration = Duration::from_secs(2);
/// The most read (and dropped) while lingering.
const MAX_LINGER_BYTES: usize = 256 * 1024;

/// How long a connection is kept open between requests, and for how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeepAlive {
    /// How long an open connection waits for the first byte of the next
    /// request before it is closed (5 seconds by default). The whole
    /// request must still come within the request deadline.
    pub idle: Duration,
    /// Requests answered on one connection at most (100 by default); the
    /// last answer says `Connection: close`. 1 (or 0) turns keep-alive off.
    pub max_requests: usize,
}

impl Default for KeepAlive {
    fn default() -> Self {
        KeepAlive {
            idle: IDLE_TIMEOUT,
            max_requests: MAX_REQUESTS,
        }
    }
}

/// What closes a connection to make room: a flag it looks at while waiting.
pub(crate) type Handle = Arc<AtomicBool>;

/// What a connection does after an exchange.
enum Step {
    /// Waits for the next request.
    Next,
    /// Its last response is sent: it lingers, then closes.
    Linger,
    /// Closes now: the client left, a write failed, or there is nothing to say.
    Quit,
}

/// Serves the requests of `stream`, admitted in `slot`, until the client or
/// the server ends the connection. `evicted` is set when it must make room.
pub(crate) fn serve(stream: &TcpStream, slot: Slot<'_, Handle>, evicted: &AtomicBool, site: &Site) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    // Every response ends with one byte written on its own (see
    // `Slot::send_last`): Nagle's algorithm would hold that byte back until
    // the client acknowledged the rest, which it may delay by 40 ms.
    let _ = stream.set_nodelay(true);
    let reader = DeadlineReader::new(stream, site.request_deadline, evicted);
    let mut connection = Connection {
        stream,
        reader: BufReader::new(reader),
        slot,
        site,
        answered: 0,
    };
    loop {
        match connection.exchange() {
            Step::Next if connection.next_request() => {}
            Step::Next | Step::Quit => return,
            Step::Linger => return connection.linger(),
        }
    }
}

/// One connection being served.
struct Connection<'a> {
    stream: &'a TcpStream,
    /// Kept from one request to the next: it may hold the start of the next
    /// (pipelined) request.
    reader: BufReader<DeadlineReader<'a>>,
    slot: Slot<'a, Handle>,
    site: &'a Site,
    /// Responses sent.
    answered: usize,
}

impl Connection<'_> {
    /// Reads a request and answers it.
    fn exchange(&mut self) -> Step {
        let read = request::read(&mut self.reader);
        // From here on the connection is busy answering: never closed for room.
        if !self.slot.answering() {
            // It was closed to make room. A client between two requests is
            // owed nothing (it asks again on a new connection, as after any
            // idle close); one that had begun a request is told to come back.
            if self.answered > 0 && !self.reader.get_ref().began() {
                return Step::Quit;
            }
            return self.send(Response::busy(), false, Reuse::Close);
        }
        match read {
            Ok(request) => self.answer(&request),
            Err(request::Error::Closed) => Step::Quit,
            // The rest of the connection cannot be read as requests: it ends.
            Err(request::Error::Status(status)) => {
                self.log("-", status);
                self.send(Response::error(status), false, Reuse::Close)
            }
        }
    }

    fn answer(&mut self, request: &Request) -> Step {
        let line = format!("{} {}", request.method_name, request.target);
        let head_only = request.method == Method::Head;
        if let Some(live) = &self.site.preview
            && is_events(request)
        {
            return self.events(live, request, &line);
        }
        let response = respond(&self.site.root, request, self.site.preview.as_ref());
        self.log(&line, response.status);
        let reuse = self.reuse(request);
        self.send(response, head_only, reuse)
    }

    /// Whether to keep the connection after answering `request`, and what
    /// to tell the client.
    fn reuse(&self, request: &Request) -> Reuse {
        let keep_alive = self.site.keep_alive;
        let left = keep_alive.max_requests.saturating_sub(self.answered + 1);
        if !request.persistent() || left == 0 || self.site.stopping() {
            return Reuse::Close;
        }
        Reuse::KeepAlive {
            idle: keep_alive.idle,
            left,
        }
    }

    /// Sends `response`, its last byte as the connection moves on (see
    /// `Slot::send_last`).
    fn send(&mut self, response: Response, head_only: bool, reuse: Reuse) -> Step {
        self.answered += 1;
        let after = match reuse {
            Reuse::Close => After::End,
            Reuse::KeepAlive { .. } => After::Wait,
        };
        let give_up = Instant::now() + WRITE_TIMEOUT;
        let sent = response
            .send_all_but_last(self.stream, head_only, reuse)
            .and_then(|last| self.slot.send_last(self.stream, last, after, give_up));
        match (sent, after) {
            (Err(_), _) => Step::Quit,
            (Ok(()), After::Wait) => Step::Next,
            (Ok(()), After::End) => Step::Linger,
        }
    }

    /// The live preview's event stream: the last thing on its connection,
    /// however many requests came before (it is delimited by the close),
    /// and never cut by the wait between requests (it writes, it does not
    /// wait to read).
    fn events(&mut self, live: &Live, request: &Request, line: &str) -> Step {
        let since = request
            .last_event_id
            .or_else(|| since_param(&request.target));
        let head_only = request.method == Method::Head;
        let log = |status| self.log(line, status);
        match live::serve_events(self.stream, live, since, head_only, &log) {
            Some(refused) => self.send(refused, false, Reuse::Close),
            None => {
                // The client sees the stream end at the close, after this.
                self.slot.end();
                Step::Linger
            }
        }
    }

    /// Starts waiting for the next request; false when the server is
    /// stopping instead. Checked once the connection is marked waiting: a
    /// shutdown that began meanwhile either found it waiting and closes it,
    /// or is seen here.
    fn next_request(&mut self) -> bool {
        if self.site.stopping() {
            return false;
        }
        let began = !self.reader.buffer().is_empty();
        let (idle, deadline) = (self.site.keep_alive.idle, self.site.request_deadline);
        self.reader.get_mut().next_request(idle, deadline, began);
        true
    }

    /// Half-closes, then reads what the client still sends until it closes
    /// too (or a short while passes, or the room is needed). Closing with
    /// unread data would send a reset, and the client could lose the
    /// response it had not read yet.
    fn linger(mut self) {
        let _ = self.stream.shutdown(Shutdown::Write);
        let reader = self.reader.get_mut();
        reader.next_request(LINGER, LINGER, true);
        let mut sink = [0u8; 4096];
        let mut left = MAX_LINGER_BYTES;
        while left > 0 {
            match reader.read(&mut sink) {
                Ok(0) => break,
                Ok(n) => left -= n.min(left),
                // Room is needed now: what already came is read, no more awaited.
                Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => {
                    return drain_now(self.stream);
                }
                Err(_) => break,
            }
        }
    }

    fn log(&self, line: &str, status: u16) {
        if self.site.log {
            log_line(self.stream, line, status);
        }
    }
}

/// Reads, without waiting, what the client has already sent (a little at
/// most), so that the close that follows is not a reset that could lose the
/// answer: for a connection that must end at once.
pub(crate) fn drain_now(stream: &TcpStream) {
    if stream.set_nonblocking(true).is_ok() {
        let mut sink = [0u8; 4096];
        let mut reader = stream;
        for _ in 0..16 {
            match reader.read(&mut sink) {
                Ok(n) if n > 0 => {}
                _ => break,
            }
        }
    }
}

fn is_events(request: &Request) -> bool {
    request.method != Method::Other && request.target.split('?').next() == Some(EVENTS_PATH)
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
