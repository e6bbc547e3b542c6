//! From a request target to a file under the root, refusing every way out of it.

use std::io;
use std::path::{Path, PathBuf};

/// The page served for `/`.
const INDEX: &str = "index.html";

/// A file found for a request.
#[derive(Debug)]
pub struct Found {
    /// Canonical path, inside the root.
    pub path: PathBuf,
    /// The name the client asked for (its last segment), which decides the
    /// content type: a symlink's target may be named otherwise.
    pub name: String,
}

/// Maps `target` to a regular file inside `root` (canonical), or to the status to answer.
///
/// Checks twice: each decoded segment must be a plain name (no `..`, `.`, `/`,
/// `\`, NUL, nor a leading dot), and the canonical path, symlinks followed,
/// must still be inside the root.
pub fn resolve(root: &Path, target: &str) -> Result<Found, u16> {
    let path = path_of(target)?;
    let segments = decode_segments(path)?;
    let name = segments
        .last()
        .cloned()
        .unwrap_or_else(|| INDEX.to_string());
    let mut candidate = root.to_path_buf();
    candidate.extend(&segments);
    if segments.is_empty() {
        candidate.push(INDEX);
    }
    let canonical = candidate
        .canonicalize()
        .map_err(|e| not_found_or_forbidden(&e))?;
    if !canonical.starts_with(root) {
        return Err(403);
    }
    // Directories (other than the root, mapped to its index above) have no listing.
    if !canonical.is_file() || (path.ends_with('/') && !segments.is_empty()) {
        return Err(404);
    }
    Ok(Found {
        path: canonical,
        name,
    })
}

fn not_found_or_forbidden(e: &io::Error) -> u16 {
    if e.kind() == io::ErrorKind::PermissionDenied {
        403
    } else {
        404
    }
}

/// The path of an origin-form (`/a/b?q`) or absolute-form (`http://host/a/b`) target.
fn path_of(target: &str) -> Result<&str, u16> {
    let path = if target.starts_with('/') {
        target
    } else if let Some(rest) = strip_scheme(target) {
        rest.find('/').map_or("/", |i| &rest[i..])
    } else {
        return Err(400);
    };
    Ok(path.split(['?', '#']).next().unwrap_or(path))
}

fn strip_scheme(target: &str) -> Option<&str> {
    ["http://", "https://"].iter().find_map(|scheme| {
        let head = target.get(..scheme.len())?;
        head.eq_ignore_ascii_case(scheme)
            .then(|| &target[scheme.len()..])
    })
}

/// The decoded segments of `path`; `/` gives none, a trailing `/` is dropped
/// (and checked by the caller).
fn decode_segments(path: &str) -> Result<Vec<String>, u16> {
    let inner = path.strip_prefix('/').ok_or(400u16)?;
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    if inner.is_empty() {
        return Ok(Vec::new());
    }
    inner.split('/').map(decode_segment).collect()
}

fn decode_segment(raw: &str) -> Result<String, u16> {
    // An empty segment (`//etc/passwd`) would make the rest an absolute path when joined.
    if raw.is_empty() {
        return Err(403);
    }
    let bytes = percent_decode(raw)?;
    let forbidden = bytes.starts_with(b".") || bytes.iter().any(|&b| matches!(b, b'/' | b'\\' | 0));
    if forbidden {
        return Err(403);
    }
    String::from_utf8(bytes).map_err(|_| 404)
}

/// The bytes `raw` stands for; a `%` without two hex digits after it is a
/// bad request (400), where the crate would keep it as it is: a client that
/// sent it meant something else, and guessing what is no way to a file.
fn percent_decode(raw: &str) -> Result<Vec<u8>, u16> {
    let bytes = raw.as_bytes();
    let escaped = |at: usize| {
        bytes
            .get(at + 1..at + 3)
            .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    };
    if !raw.match_indices('%').all(|(at, _)| escaped(at)) {
        return Err(400);
    }
    Ok(percent_encoding::percent_decode(bytes).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_decoded() {
        assert_eq!(decode_segments("/a%20b/c.epub").unwrap(), ["a b", "c.epub"]);
        assert_eq!(decode_segments("/").unwrap(), Vec::<String>::new());
        assert_eq!(decode_segments("/dir/").unwrap(), ["dir"]);
    }

    #[test]
    fn ways_out_are_forbidden() {
        for path in [
            "/../etc/passwd",
            "/a/../../etc",
            "/%2e%2e/etc/passwd",
            "/%2E%2E%2Fetc%2Fpasswd",
            "//etc/passwd",
            "/a//b",
            "/..%5c..%5cetc",
            "/a%00.epub",
            "/.",
            "/.hidden",
            "/a/%2f/b",
        ] {
            assert_eq!(decode_segments(path).unwrap_err(), 403, "{path}");
        }
    }

    #[test]
    fn bad_escapes_are_400() {
        assert_eq!(decode_segments("/a%2").unwrap_err(), 400);
        assert_eq!(decode_segments("/a%zz").unwrap_err(), 400);
        assert_eq!(decode_segments("/a%+1").unwrap_err(), 400);
        assert_eq!(decode_segments("/a%%41").unwrap_err(), 400);
        assert_eq!(decode_segments("/a%é1").unwrap_err(), 400);
        assert_eq!(decode_segments("/a%").unwrap_err(), 400);
        // An escape decoded to `%` is a `%`, not the start of another.
        assert_eq!(decode_segments("/a%25zz").unwrap(), ["a%zz"]);
        // Bytes that are no UTF-8 name no file.
        assert_eq!(decode_segments("/a%ff").unwrap_err(), 404);
    }

    #[test]
    fn targets() {
        assert_eq!(path_of("/a?b=c").unwrap(), "/a");
        assert_eq!(path_of("http://host:8080/x/y").unwrap(), "/x/y");
        assert_eq!(path_of("HTTP://host").unwrap(), "/");
        assert_eq!(path_of("*").unwrap_err(), 400);
        assert_eq!(path_of("a/b").unwrap_err(), 400);
    }
}
