//! Downloads over HTTP(S) within limits: the one web client stoa uses,
//! and only for a command that asks for the network (`--fetch-images`).
//!
//! Every limit is the caller's: the largest body, the time a whole request
//! may take, how many redirects it may follow, and which media types it
//! accepts. A body over the limit is never read whole; a request that goes
//! over time is abandoned; an answer of another type is refused before its
//! body is read.

use std::fmt;
use std::time::Duration;

/// What one request may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest body, in bytes.
    pub max_bytes: u64,
    /// The time the whole request may take: connecting, every redirect and
    /// reading the body.
    pub timeout: Duration,
    /// How many redirects it follows.
    pub max_redirects: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 20 * 1024 * 1024,
            timeout: Duration::from_secs(30),
            max_redirects: 5,
        }
    }
}

/// A body, and what the server said it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// The body.
    pub bytes: Vec<u8>,
    /// The media type, without parameters, lowercase (`image/png`).
    pub media_type: Option<String>,
}

/// Why a download failed, in words for a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchError {
    /// Not an `http:` or `https:` address.
    NotHttp,
    /// The server answered with this status (404, 500…).
    Status(u16),
    /// The body is larger than the limit (its size when the server said it).
    TooLarge(u64),
    /// The server said it is something else (`text/html` for an image).
    WrongType(String),
    /// The request took longer than the limit.
    Timeout(Duration),
    /// More redirects than the limit.
    Redirects(u32),
    /// Anything else: the address, the connection, TLS.
    Other(String),
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NotHttp => f.write_str("it is not an http or https address"),
            FetchError::Status(code) => write!(f, "the server answered {code}"),
            FetchError::TooLarge(max) => write!(f, "it is larger than {max} bytes"),
            FetchError::WrongType(found) => write!(f, "the server sent `{found}`, not an image"),
            FetchError::Timeout(limit) => {
                write!(f, "no complete answer within {} s", limit.as_secs_f32())
            }
            FetchError::Redirects(n) => write!(f, "it redirects more than {n} times"),
            FetchError::Other(why) => f.write_str(why),
        }
    }
}

/// A client with its limits; cheap to share between threads.
#[derive(Clone)]
pub struct Client {
    agent: ureq::Agent,
    limits: Limits,
}

impl Client {
    /// A client that keeps to `limits`.
    pub fn new(limits: Limits) -> Client {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(limits.timeout))
            .max_redirects(limits.max_redirects)
            .max_redirects_will_error(true)
            .http_status_as_error(false)
            .user_agent(concat!("stoa/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Client { agent, limits }
    }

    /// The body at `url`, when its media type is one `accept` allows
    /// (`accept("image/png")`); a server that names no type is trusted.
    pub fn get(&self, url: &str, accept: &dyn Fn(&str) -> bool) -> Result<Fetched, FetchError> {
        let mut response = self.answer(url)?;
        let media_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .filter(|v| !v.is_empty());
        if let Some(found) = &media_type
            && !accept(found)
        {
            return Err(FetchError::WrongType(found.clone()));
        }
        let bytes = response
            .body_mut()
            .with_config()
            .limit(self.limits.max_bytes)
            .read_to_vec()
            .map_err(|e| self.error(e))?;
        Ok(Fetched { bytes, media_type })
    }

    /// Streams the body at `url` into `out`, whatever its media type (a
    /// file to keep, not to read), within the limits; the bytes written.
    /// On an error `out` may hold part of the body: the caller writes to a
    /// temporary file and keeps it only on success.
    pub fn download(&self, url: &str, out: &mut dyn std::io::Write) -> Result<u64, FetchError> {
        let mut response = self.answer(url)?;
        let mut body = response
            .body_mut()
            .with_config()
            .limit(self.limits.max_bytes)
            .reader();
        std::io::copy(&mut body, out).map_err(|e| self.read_error(e))
    }

    /// The server's answer to a GET of `url`, when it is a success whose
    /// declared length is within the limit.
    fn answer(&self, url: &str) -> Result<ureq::http::Response<ureq::Body>, FetchError> {
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        if !matches!(scheme.as_deref(), Some("http" | "https")) {
            return Err(FetchError::NotHttp);
        }
        let response = self.agent.get(url).call().map_err(|e| self.error(e))?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(FetchError::Status(status));
        }
        let declared = response
            .headers()
            .get("content-length")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.limits.max_bytes) {
            return Err(FetchError::TooLarge(self.limits.max_bytes));
        }
        Ok(response)
    }

    /// An error met while reading a body: ureq's own when it is one.
    fn read_error(&self, error: std::io::Error) -> FetchError {
        match error.into_inner() {
            Some(inner) => match inner.downcast::<ureq::Error>() {
                Ok(e) => self.error(*e),
                Err(other) => FetchError::Other(other.to_string()),
            },
            None => FetchError::Other("the connection failed while reading".into()),
        }
    }

    fn error(&self, error: ureq::Error) -> FetchError {
        match error {
            ureq::Error::Timeout(_) => FetchError::Timeout(self.limits.timeout),
            ureq::Error::TooManyRedirects => FetchError::Redirects(self.limits.max_redirects),
            ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge(self.limits.max_bytes),
            ureq::Error::StatusCode(code) => FetchError::Status(code),
            other => FetchError::Other(other.to_string()),
        }
    }
}
