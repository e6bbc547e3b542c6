//! Reading an HTTP/1.x request head with limits on every part of it.

use std::io::{self, BufRead};

/// Longest request line; a longer one is answered 414.
const MAX_REQUEST_LINE: usize = 8 * 1024;
/// Longest header line, and the most bytes and lines of headers; beyond, 431.
const MAX_HEADER_LINE: usize = 8 * 1024;
const MAX_HEADER_BYTES: usize = 32 * 1024;
const MAX_HEADERS: usize = 100;
/// Empty lines tolerated before the request line (RFC 9112 §2.2 asks for at least one).
const MAX_LEADING_EMPTY_LINES: usize = 4;

/// The methods this server tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// HEAD.
    Head,
    /// Any other well-formed method: answered 405.
    Other,
}

/// The parts of a request the server uses.
#[derive(Debug)]
pub struct Request {
    /// GET, HEAD or another.
    pub method: Method,
    /// The method as sent, for the log.
    pub method_name: String,
    /// The request target as sent.
    pub target: String,
    /// The `Range` header, if exactly one was sent.
    pub range: Option<String>,
    /// Whether an `If-Range` header was sent (the range is then ignored: this
    /// server has no validators to compare, and a full answer is always correct).
    pub if_range: bool,
    /// The `Last-Event-ID` header of a reconnecting event stream (the live
    /// preview's), if it is a number.
    pub last_event_id: Option<u64>,
    /// Whether the request is HTTP/1.0 (else HTTP/1.1).
    pub http_1_0: bool,
    /// Whether a `Connection` header lists `close`.
    pub close: bool,
    /// Whether a `Connection` header lists `keep-alive`.
    pub keep_alive: bool,
    /// Whether a body may follow the head (`Transfer-Encoding`, or a
    /// `Content-Length` other than 0): this server reads none, so the
    /// connection cannot be reused.
    pub has_body: bool,
}

impl Request {
    /// Whether the client would keep the connection for another request
    /// (RFC 9112 §9.3): HTTP/1.1 unless it said `close`, HTTP/1.0 only if
    /// it said `keep-alive`; never after a body this server does not read.
    pub fn persistent(&self) -> bool {
        let asked = if self.http_1_0 {
            self.keep_alive && !self.close
        } else {
            !self.close
        };
        asked && !self.has_body
    }
}

/// Why no request came out.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    /// The client closed (or went silent) before sending anything: nothing to answer.
    Closed,
    /// Answer with this status.
    Status(u16),
}

/// Reads the request line and headers.
pub fn read(reader: &mut impl BufRead) -> Result<Request, Error> {
    let line = request_line(reader)?;
    let (method_name, target, version) = parse_request_line(&line)?;
    let headers = headers(reader)?;
    let mut host = 0;
    let mut ranges = Vec::new();
    let mut if_range = false;
    let mut last_event_id = None;
    let (mut close, mut keep_alive, mut has_body) = (false, false, false);
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("connection") {
            for option in value.split(',').map(str::trim) {
                close |= option.eq_ignore_ascii_case("close");
                keep_alive |= option.eq_ignore_ascii_case("keep-alive");
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            has_body = true;
        } else if name.eq_ignore_ascii_case("content-length") {
            // Anything but a zero, even malformed, may have a body behind it.
            has_body |= value.is_empty() || !value.bytes().all(|b| b == b'0');
        } else if name.eq_ignore_ascii_case("host") {
            host += 1;
        } else if name.eq_ignore_ascii_case("range") {
            ranges.push(value);
        } else if name.eq_ignore_ascii_case("if-range") {
            if_range = true;
        } else if name.eq_ignore_ascii_case("last-event-id") {
            last_event_id = value.trim().parse().ok();
        }
    }
    // RFC 9112 §3.2: an HTTP/1.1 request without exactly one Host is answered 400.
    if version == "HTTP/1.1" && host != 1 {
        return Err(Error::Status(400));
    }
    let method = match method_name.as_str() {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        _ => Method::Other,
    };
    let range = if ranges.len() == 1 {
        ranges.pop()
    } else {
        None
    };
    Ok(Request {
        method,
        method_name,
        target,
        range,
        if_range,
        last_event_id,
        http_1_0: version == "HTTP/1.0",
        close,
        keep_alive,
        has_body,
    })
}

fn request_line(reader: &mut impl BufRead) -> Result<String, Error> {
    for attempt in 0..=MAX_LEADING_EMPTY_LINES {
        let line = match read_line(reader, MAX_REQUEST_LINE) {
            Ok(line) => line,
            Err(LineError::Eof { read_nothing: true }) if attempt == 0 => {
                return Err(Error::Closed);
            }
            Err(LineError::TimedOut { read_nothing: true }) if attempt == 0 => {
                return Err(Error::Closed);
            }
            Err(e) => return Err(e.into_error(414)),
        };
        if !line.is_empty() {
            return String::from_utf8(line).map_err(|_| Error::Status(400));
        }
    }
    Err(Error::Status(400))
}

/// Splits `METHOD SP target SP HTTP/1.x`, refusing anything else.
fn parse_request_line(line: &str) -> Result<(String, String, String), Error> {
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Error::Status(400));
    };
    if !is_token(method) || target.is_empty() || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Error::Status(400));
    }
    match version {
        "HTTP/1.1" | "HTTP/1.0" => {
            Ok((method.to_string(), target.to_string(), version.to_string()))
        }
        v if v.starts_with("HTTP/") && v.len() == 8 && v.as_bytes()[5].is_ascii_digit() => {
            Err(Error::Status(505))
        }
        _ => Err(Error::Status(400)),
    }
}

fn headers(reader: &mut impl BufRead) -> Result<Vec<(String, String)>, Error> {
    let mut headers = Vec::new();
    let mut total = 0;
    loop {
        let line = read_line(reader, MAX_HEADER_LINE).map_err(|e| e.into_error(431))?;
        if line.is_empty() {
            return Ok(headers);
        }
        total += line.len();
        if total > MAX_HEADER_BYTES || headers.len() >= MAX_HEADERS {
            return Err(Error::Status(431));
        }
        headers.push(parse_header(&line)?);
    }
}

fn parse_header(line: &[u8]) -> Result<(String, String), Error> {
    // Obsolete line folding is refused, as RFC 9112 §5.2 allows.
    let colon = line
        .iter()
        .position(|&b| b == b':')
        .ok_or(Error::Status(400))?;
    let name = std::str::from_utf8(&line[..colon]).map_err(|_| Error::Status(400))?;
    if !is_token(name) {
        return Err(Error::Status(400));
    }
    if line.iter().any(|&b| b == 0 || b == b'\r' || b == b'\n') {
        return Err(Error::Status(400));
    }
    let value = String::from_utf8_lossy(&line[colon + 1..])
        .trim_matches([' ', '\t'])
        .to_string();
    Ok((name.to_string(), value))
}

/// RFC 9110 `token`: what methods and header names are made of.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

enum LineError {
    TooLong,
    Eof { read_nothing: bool },
    TimedOut { read_nothing: bool },
    Io,
}

impl LineError {
    fn into_error(self, too_long: u16) -> Error {
        match self {
            LineError::TooLong => Error::Status(too_long),
            LineError::TimedOut { .. } => Error::Status(408),
            LineError::Eof { .. } => Error::Status(400),
            LineError::Io => Error::Closed,
        }
    }
}

/// One line without its CRLF (or bare LF), at most `limit` bytes, without ever
/// buffering more than that.
fn read_line(reader: &mut impl BufRead, limit: usize) -> Result<Vec<u8>, LineError> {
    let mut line = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(LineError::TimedOut {
                    read_nothing: line.is_empty(),
                });
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(LineError::Io),
        };
        if buf.is_empty() {
            return Err(LineError::Eof {
                read_nothing: line.is_empty(),
            });
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..take]);
        reader.consume(take);
        if line.len() > limit + 2 {
            return Err(LineError::TooLong);
        }
        if done {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return if line.len() > limit {
                Err(LineError::TooLong)
            } else {
                Ok(line)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> Result<Request, Error> {
        read(&mut io::Cursor::new(raw.as_bytes().to_vec()))
    }

    #[test]
    fn a_plain_get() {
        let r = parse("GET /a.epub HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n").unwrap();
        assert_eq!(
            (r.method, r.target.as_str(), r.range.as_deref()),
            (Method::Get, "/a.epub", Some("bytes=0-9"))
        );
    }

    #[test]
    fn bare_newlines_and_leading_empty_lines_are_tolerated() {
        let r = parse("\r\nHEAD / HTTP/1.0\n\n").unwrap();
        assert_eq!(r.method, Method::Head);
    }

    #[test]
    fn malformed_requests_are_400() {
        for raw in [
            "garbage\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
            "G(T / HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET / FTP/1.0\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
            "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n",
            "\u{1}\u{2}\u{3}",
        ] {
            assert_eq!(parse(raw).unwrap_err(), Error::Status(400), "{raw:?}");
        }
    }

    #[test]
    fn other_versions_are_505() {
        assert_eq!(
            parse("GET / HTTP/2.0\r\n\r\n").unwrap_err(),
            Error::Status(505)
        );
    }

    #[test]
    fn limits() {
        let long_target = format!(
            "GET /{} HTTP/1.1\r\nHost: x\r\n\r\n",
            "a".repeat(MAX_REQUEST_LINE)
        );
        assert_eq!(parse(&long_target).unwrap_err(), Error::Status(414));
        let long_header = format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX: {}\r\n\r\n",
            "a".repeat(MAX_HEADER_LINE)
        );
        assert_eq!(parse(&long_header).unwrap_err(), Error::Status(431));
        let many = format!(
            "GET / HTTP/1.1\r\nHost: x\r\n{}\r\n",
            "X: y\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(parse(&many).unwrap_err(), Error::Status(431));
    }

    #[test]
    fn http_1_1_persists_unless_closed_and_http_1_0_only_when_asked() {
        let persistent = |raw: &str| parse(raw).unwrap().persistent();
        assert!(persistent("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(!persistent(
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n"
        ));
        assert!(!persistent(
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, close\r\n\r\n"
        ));
        assert!(!persistent("GET / HTTP/1.0\r\n\r\n"));
        assert!(persistent(
            "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"
        ));
    }

    #[test]
    fn a_request_with_a_body_does_not_persist() {
        let persistent = |raw: &str| parse(raw).unwrap().persistent();
        assert!(persistent(
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        ));
        for header in [
            "Content-Length: 2",
            "Content-Length: x",
            "Content-Length:",
            "Transfer-Encoding: chunked",
        ] {
            let raw = format!("POST / HTTP/1.1\r\nHost: x\r\n{header}\r\n\r\n");
            assert!(!persistent(&raw), "{header}");
        }
    }

    #[test]
    fn nothing_sent_is_no_request() {
        assert_eq!(parse("").unwrap_err(), Error::Closed);
    }

    #[test]
    fn other_methods_parse_for_a_405() {
        assert_eq!(
            parse("POST / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap().method,
            Method::Other
        );
    }
}
