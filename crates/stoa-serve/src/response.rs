//! Responses: status and headers, and bodies streamed from the file.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::net::TcpStream;
use std::time::{Duration, SystemTime};

use crate::date::http_date;
use crate::resolve::Found;

/// A response ready to send.
pub struct Response {
    /// The status code.
    pub status: u16,
    headers: Vec<(&'static str, String)>,
    body: Body,
}

enum Body {
    Text(String),
    /// `len` bytes of the file from `start`.
    File {
        file: File,
        start: u64,
        len: u64,
    },
}

/// What a `Range` header asks of a file of a given length.
#[derive(Debug, PartialEq, Eq)]
pub enum Range {
    /// No usable range: send everything (also for several ranges, which HTTP allows).
    Full,
    /// Bytes `start..=end`.
    Part { start: u64, end: u64 },
    /// No byte of the file is in the range: 416.
    Unsatisfiable,
}

impl Response {
    /// A short plain-text error, with the headers its status needs.
    pub fn error(status: u16) -> Response {
        let mut response = Response::text(status, format!("{status} {}\n", reason(status)));
        if status == 405 {
            response.headers.push(("Allow", "GET, HEAD".into()));
        }
        response
    }

    /// 503 for a server at its connection caps, saying when to try again
    /// (RFC 9110 §10.2.3), so that clients retry instead of giving up.
    pub fn busy() -> Response {
        let mut response = Response::error(503);
        response.headers.push(("Retry-After", "1".into()));
        response
    }

    fn text(status: u16, body: String) -> Response {
        let headers = vec![
            ("Content-Type", "text/plain; charset=utf-8".into()),
            ("Content-Length", body.len().to_string()),
        ];
        Response {
            status,
            headers,
            body: Body::Text(body),
        }
    }

    /// The file, whole or the part `range` asks for.
    pub fn file(found: &Found, range: Option<&str>, if_range: bool) -> Response {
        let opened = File::open(&found.path).and_then(|f| f.metadata().map(|m| (f, m)));
        let Ok((file, meta)) = opened else {
            return Response::error(404);
        };
        let len = meta.len();
        let wanted = if if_range {
            Range::Full
        } else {
            range.map_or(Range::Full, |r| parse_range(r, len))
        };
        let mut response = match wanted {
            Range::Full => Response {
                status: 200,
                headers: Vec::new(),
                body: Body::File {
                    file,
                    start: 0,
                    len,
                },
            },
            Range::Part { start, end } => {
                let mut part = Response {
                    status: 206,
                    headers: Vec::new(),
                    body: Body::File {
                        file,
                        start,
                        len: end - start + 1,
                    },
                };
                part.headers
                    .push(("Content-Range", format!("bytes {start}-{end}/{len}")));
                part
            }
            Range::Unsatisfiable => {
                let mut refused = Response::error(416);
                refused
                    .headers
                    .push(("Content-Range", format!("bytes */{len}")));
                refused.headers.push(("Accept-Ranges", "bytes".into()));
                return refused;
            }
        };
        if let Body::File { len, .. } = &response.body {
            let len = *len;
            response
                .headers
                .push(("Content-Type", content_type(&found.name).into()));
            response.headers.push(("Content-Length", len.to_string()));
        }
        response.headers.push(("Accept-Ranges", "bytes".into()));
        if let Ok(modified) = meta.modified() {
            response
                .headers
                .push(("Last-Modified", http_date(modified)));
        }
        response
    }

    /// An HTML page with the live preview's `script` added, whole (a range
    /// of a page that changed size would be wrong); `None` when the page is
    /// too large to hold in memory, to be served as it is.
    pub fn page(found: &Found, script: &str) -> Option<Response> {
        let file = File::open(&found.path).ok()?;
        let meta = file.metadata().ok()?;
        if meta.len() > MAX_INJECTED_PAGE {
            return None;
        }
        let mut bytes = Vec::new();
        file.take(MAX_INJECTED_PAGE).read_to_end(&mut bytes).ok()?;
        let page = String::from_utf8(bytes).ok()?;
        let body = inject(&page, script);
        let mut response = Response::text(200, body);
        response.headers[0].1 = content_type(&found.name).into();
        if let Ok(modified) = meta.modified() {
            response
                .headers
                .push(("Last-Modified", http_date(modified)));
        }
        Some(response)
    }

    /// Sends the whole response, on a connection that closes after it.
    pub fn write_to(self, stream: &TcpStream, head_only: bool) -> io::Result<()> {
        let last = self.send_all_but_last(stream, head_only, Reuse::Close)?;
        let mut out = stream;
        out.write_all(&[last])
    }

    /// Sends the status line, the headers (with what `reuse` says about the
    /// connection), and the body unless `head_only`, all but the last byte,
    /// which it returns for the caller to send: the client knows the
    /// response is whole from that byte, so the caller sends it at the
    /// moment the connection's next state is settled.
    pub fn send_all_but_last(
        self,
        stream: &TcpStream,
        head_only: bool,
        reuse: Reuse,
    ) -> io::Result<u8> {
        let mut head = Vec::with_capacity(256);
        self.write_head(&mut head, reuse)?;
        let mut out = io::BufWriter::new(stream);
        let last = match self.body {
            Body::File { file, start, len } if len > SMALL_FILE && !head_only => {
                out.write_all(&head)?;
                send_file(&mut out, file, start, len)?
            }
            // Read with its head, to go out in one write (then the last byte).
            Body::File {
                mut file,
                start,
                len,
            } if !head_only => {
                file.seek(SeekFrom::Start(start))?;
                let before = head.len();
                file.take(len).read_to_end(&mut head)?;
                if (head.len() - before) as u64 != len {
                    return Err(shrank());
                }
                hold_back_last(&mut out, head)?
            }
            Body::Text(text) if !head_only => {
                head.extend_from_slice(text.as_bytes());
                hold_back_last(&mut out, head)?
            }
            // No body: the head's final LF is the last byte.
            _ => hold_back_last(&mut out, head)?,
        };
        out.flush()?;
        Ok(last)
    }

    fn write_head(&self, head: &mut Vec<u8>, reuse: Reuse) -> io::Result<()> {
        write!(head, "HTTP/1.1 {} {}\r\n", self.status, reason(self.status))?;
        write!(
            head,
            "Date: {}\r\nServer: stoa\r\n",
            http_date(SystemTime::now())
        )?;
        for (name, value) in &self.headers {
            write!(head, "{name}: {value}\r\n")?;
        }
        // A rebuild changes the files under the same names: make browsers ask again.
        head.extend_from_slice(b"Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n");
        reuse.write_headers(head)?;
        head.extend_from_slice(b"\r\n");
        Ok(())
    }
}

/// Whether the connection stays open after a response, as its headers say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// The connection closes after this response: `Connection: close`.
    Close,
    /// The connection stays open: `Connection: keep-alive`, and
    /// `Keep-Alive` with how long it waits for the next request (whole
    /// seconds, left out under one) and how many more it answers.
    KeepAlive {
        /// How long the connection waits for the next request.
        idle: Duration,
        /// How many more requests it answers (at least one).
        left: usize,
    },
}

impl Reuse {
    fn write_headers(self, head: &mut Vec<u8>) -> io::Result<()> {
        match self {
            Reuse::Close => head.extend_from_slice(b"Connection: close\r\n"),
            Reuse::KeepAlive { idle, left } => {
                head.extend_from_slice(b"Connection: keep-alive\r\n");
                // `timeout=0` would tell the client not to reuse it at all.
                if idle.as_secs() > 0 {
                    write!(
                        head,
                        "Keep-Alive: timeout={}, max={left}\r\n",
                        idle.as_secs()
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// Writes `bytes` but the last, and returns that one (a response always
/// has at least its head's CRLF).
fn hold_back_last(out: &mut impl Write, mut bytes: Vec<u8>) -> io::Result<u8> {
    let last = bytes.pop().ok_or(io::ErrorKind::InvalidInput)?;
    out.write_all(&bytes)?;
    Ok(last)
}

/// Sends `len` (at least 1) bytes of `file` from `start` but the last, and
/// returns that one.
fn send_file(
    out: &mut io::BufWriter<&TcpStream>,
    mut file: File,
    start: u64,
    len: u64,
) -> io::Result<u8> {
    let but_last = len.checked_sub(1).ok_or(io::ErrorKind::InvalidInput)?;
    out.flush()?;
    file.seek(SeekFrom::Start(start))?;
    // Streamed: io::copy moves it in small chunks (or with sendfile).
    let mut part = file.take(but_last);
    let sent = io::copy(&mut part, out.get_mut())?;
    let mut last = [0u8];
    let read = part.into_inner().read(&mut last)?;
    if sent != but_last || read != 1 {
        return Err(shrank());
    }
    Ok(last[0])
}

/// The file shrank while being sent: the client must not take it as whole,
/// so the connection ends short of the length it was told.
fn shrank() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "file changed while sent")
}

/// Files up to this size are read into memory and sent with their head in
/// one write; larger ones are streamed from the file.
const SMALL_FILE: u64 = 64 * 1024;

/// Pages larger than this get no live-preview script (none is near it).
const MAX_INJECTED_PAGE: u64 = 16 << 20;

/// Whether a file of this name is an HTML page, which the live preview
/// adds its script to.
pub fn is_page(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".html") || lower.ends_with(".htm")
}

/// Parses a `Range` header (RFC 9110 §14.2) for a representation of `len` bytes.
/// Anything not understood gives `Full`, as the RFC lets a server ignore Range.
pub fn parse_range(header: &str, len: u64) -> Range {
    let Some((unit, spec)) = header.split_once('=') else {
        return Range::Full;
    };
    if !unit.trim().eq_ignore_ascii_case("bytes") || spec.contains(',') {
        return Range::Full;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return Range::Full;
    };
    let (first, last) = (first.trim(), last.trim());
    match (digits(first), digits(last)) {
        (Some(start), Some(end)) if start <= end => {
            part(start, end.min(len.saturating_sub(1)), len)
        }
        (Some(start), None) if last.is_empty() => part(start, len.saturating_sub(1), len),
        (None, Some(suffix)) if first.is_empty() => match suffix.min(len) {
            0 => Range::Unsatisfiable,
            n => Range::Part {
                start: len - n,
                end: len - 1,
            },
        },
        _ => Range::Full,
    }
}

fn part(start: u64, end: u64, len: u64) -> Range {
    if start >= len {
        Range::Unsatisfiable
    } else {
        Range::Part { start, end }
    }
}

/// A decimal number, saturating: `bytes=0-99999999999999999999` means "to the end".
fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    }))
}

/// The media type for a file name. OPDS catalogs are recognised by name
/// (`opds.xml`, `opds-en.xml`), since reading apps check the profile.
pub fn content_type(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    if ext == "xml" && lower.starts_with("opds") {
        return "application/atom+xml;profile=opds-catalog";
    }
    stoa_mime::media_type(ext).unwrap_or("application/octet-stream")
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        206 => "Partial Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        414 => "URI Too Long",
        416 => "Range Not Satisfiable",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

/// `page` with `script` added just before its last `</body>` (in any case),
/// or at its end when it has none.
fn inject(page: &str, script: &str) -> String {
    let lower = page.to_ascii_lowercase();
    let at = lower.rfind("</body").unwrap_or(page.len());
    let mut out = String::with_capacity(page.len() + script.len());
    out.push_str(&page[..at]);
    out.push_str(script);
    out.push_str(&page[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        assert_eq!(
            inject("<p>x</p></BODY></html>", "<s/>"),
            "<p>x</p><s/></BODY></html>"
        );
        assert_eq!(inject("<p>x</p>", "<s/>"), "<p>x</p><s/>");
    }

    #[test]
    fn ranges() {
        let part = |start, end| Range::Part { start, end };
        assert_eq!(parse_range("bytes=0-9", 100), part(0, 9));
        assert_eq!(parse_range("bytes=90-", 100), part(90, 99));
        assert_eq!(parse_range("bytes=-10", 100), part(90, 99));
        assert_eq!(parse_range("bytes=-1000", 100), part(0, 99));
        assert_eq!(parse_range("bytes=50-1000", 100), part(50, 99));
        assert_eq!(parse_range("BYTES = 5-5", 100), part(5, 5));
        assert_eq!(
            parse_range("bytes=0-99999999999999999999999", 100),
            part(0, 99)
        );
    }

    #[test]
    fn unsatisfiable_ranges() {
        assert_eq!(parse_range("bytes=100-", 100), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=100-200", 100), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=-0", 100), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=0-", 0), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=-5", 0), Range::Unsatisfiable);
    }

    #[test]
    fn ignored_ranges() {
        for header in [
            "bytes=0-1,5-6",
            "items=0-1",
            "bytes=5-3",
            "bytes=a-b",
            "bytes=-",
            "bytes",
            "bytes=--1",
        ] {
            assert_eq!(parse_range(header, 100), Range::Full, "{header}");
        }
    }

    #[test]
    fn content_types() {
        assert_eq!(
            content_type("opds.xml"),
            "application/atom+xml;profile=opds-catalog"
        );
        assert_eq!(
            content_type("opds-pt-BR.xml"),
            "application/atom+xml;profile=opds-catalog"
        );
        assert_eq!(content_type("other.xml"), "application/xml");
        assert_eq!(content_type("a.EPUB"), "application/epub+zip");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("README"), "application/octet-stream");
    }
}
