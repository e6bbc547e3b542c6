//! Images on the web, downloaded when the import is asked to
//! (`--fetch-images`): each address once per import, through one client
//! within limits, kept in a cache folder across imports (so that
//! `--update` downloads only what is new), and checked to be an image a
//! book holds. Without the flag an import reads no network.

use crate::model::{Diagnostic, FetchImages};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use stoa_fetch::Client;

/// What became of one address: the image and its extension, or why not.
type Outcome = Result<(Vec<u8>, &'static str), String>;

/// The images of one import, downloaded as the posts meet them.
pub(crate) struct WebImages {
    client: Client,
    cache: Option<PathBuf>,
    seen: Mutex<HashMap<String, Outcome>>,
}

impl WebImages {
    /// The downloader `fetch` asks for.
    pub(crate) fn new(fetch: &FetchImages) -> WebImages {
        WebImages {
            client: Client::new(fetch.limits.clone()),
            cache: fetch.cache.clone(),
            seen: Mutex::default(),
        }
    }

    /// The image at `url` (`//host/x` is read as `https:`), and the
    /// extension its bytes call for.
    pub(crate) fn get(&self, url: &str) -> Outcome {
        let url = match url.strip_prefix("//") {
            Some(rest) => format!("https://{rest}"),
            None => url.to_string(),
        };
        if let Some(known) = self
            .seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&url)
        {
            return known.clone();
        }
        let outcome = self.download(&url);
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(url, outcome.clone());
        outcome
    }

    fn download(&self, url: &str) -> Outcome {
        let cached = self
            .cache
            .as_ref()
            .map(|dir| dir.join(crate::util::digest(url.as_bytes())));
        if let Some(bytes) = cached.as_ref().and_then(|p| std::fs::read(p).ok())
            && let Some(ext) = image_extension(&bytes)
        {
            return Ok((bytes, ext));
        }
        let accept = |found: &str| found.starts_with("image/");
        let fetched = self.client.get(url, &accept).map_err(|e| e.to_string())?;
        let Some(ext) = image_extension(&fetched.bytes) else {
            return Err(
                "it is not a PNG, JPEG, GIF, WebP or SVG image, the formats a book holds".into(),
            );
        };
        if let Some(path) = cached {
            // Only an optimisation: a cache that cannot be written is no
            // failure of the import.
            let _ = store(&path, &fetched.bytes);
        }
        Ok((fetched.bytes, ext))
    }

    /// One warning when some downloads failed (each is its own warning, at
    /// the post that shows it).
    pub(crate) fn summary(&self) -> Option<Diagnostic> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let failed = seen.values().filter(|o| o.is_err()).count();
        (failed > 0).then(|| {
            Diagnostic::warning(format!(
                "{failed} of {} images on the web could not be downloaded; each became a link",
                seen.len()
            ))
            .with_hint("import again later (what was downloaded is kept in the cache), or put those images beside their posts")
        })
    }
}

/// Writes `bytes` at `path` whole or not at all.
fn store(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("part-{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// The extension of an image a book holds, from its first bytes.
pub(crate) fn image_extension(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("jpg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("gif")
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("webp")
    } else {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(1024)]);
        head.contains("<svg").then_some("svg")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_known_by_their_bytes() {
        assert_eq!(image_extension(b"\x89PNG\r\n\x1a\nrest"), Some("png"));
        assert_eq!(image_extension(&[0xff, 0xd8, 0xff, 0xe0]), Some("jpg"));
        assert_eq!(image_extension(b"GIF89a..."), Some("gif"));
        assert_eq!(image_extension(b"RIFF\0\0\0\0WEBPVP8 "), Some("webp"));
        assert_eq!(
            image_extension(b"<?xml version=\"1.0\"?><svg></svg>"),
            Some("svg")
        );
        assert_eq!(image_extension(b"<!doctype html><html>"), None);
    }
}
