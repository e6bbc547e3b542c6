//! Limits that turn hostile or mistaken input into an error with a file and
//! a line instead of exhausted memory, a full stack or a hung build. Each is
//! far above what a real book needs; docs/reference.md lists them.

use std::fs::Metadata;
use std::path::Path;

/// The largest post (or `book.toml`) read: a long essay is 100 KiB.
pub const MAX_TEXT_BYTES: u64 = 4 * 1024 * 1024;

/// The largest image file accepted.
pub const MAX_IMAGE_BYTES: u64 = 32 * 1024 * 1024;

/// The most pixels an image may have (width × height): 40 megapixels, a
/// large camera's photo. Decoding costs four bytes a pixel, in every format.
pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;

/// The smallest and largest page side of the PDF, in millimetres: a
/// business card to a large poster (A0 is 841 × 1189 mm).
pub const PAGE_MM: (f64, f64) = (50.0, 1200.0);

/// The smallest and largest base font size of the PDF, in points.
pub const FONT_PT: (f64, f64) = (4.0, 72.0);

/// Metadata of `path` if it is a regular file (after following links) no
/// larger than `max` bytes; otherwise why not, as a phrase that follows
/// the file's name (`is a folder, not a file`). Special files (FIFOs,
/// devices, sockets) are refused without ever being opened: opening a
/// FIFO waits for a writer forever, and a device never ends.
pub fn regular_file(path: &Path, max: u64) -> Result<Metadata, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if meta.is_dir() {
        return Err("is a folder, not a file".into());
    }
    if !meta.is_file() {
        return Err(format!("is {}, not a regular file", special_kind(&meta)));
    }
    if meta.len() > max {
        return Err(format!(
            "is {} MiB, more than the {} MiB allowed",
            meta.len().div_ceil(1024 * 1024),
            max / (1024 * 1024)
        ));
    }
    Ok(meta)
}

#[cfg(unix)]
fn special_kind(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a named pipe (FIFO)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &Metadata) -> &'static str {
    "a special file"
}

/// Reads at most `max` bytes of a regular file: the size was checked
/// before, but a file can grow between the check and the read.
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "the file grew beyond {} MiB while it was read",
            max / (1024 * 1024)
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_large_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            regular_file(dir.path(), 10)
                .unwrap_err()
                .contains("is a folder")
        );
        let file = dir.path().join("f");
        std::fs::write(&file, [0u8; 11]).unwrap();
        assert!(regular_file(&file, 10).unwrap_err().contains("more than"));
        assert!(regular_file(&file, 11).is_ok());
        assert!(read_bounded(&file, 10).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_opening_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("p");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo: nothing to check
        }
        assert!(regular_file(&fifo, 10).unwrap_err().contains("FIFO"));
        assert!(
            regular_file(Path::new("/dev/zero"), 10)
                .unwrap_err()
                .contains("device")
        );
    }
}
