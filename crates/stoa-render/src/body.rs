//! The bytes of one file a renderer makes: in memory, a file on disk, or
//! written when the file is, so that a book of a thousand pictures never
//! holds them all in memory at once (see [`Body`]).

use std::fmt;
use std::io::{self, BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Where a [`Body::Written`] writes: a file, or memory.
pub trait Sink: Write + Seek {}

impl<T: Write + Seek> Sink for T {}

/// A function that writes a file's bytes, for [`Body::Written`].
pub type WriteFn = Box<dyn Fn(&mut dyn Sink) -> io::Result<()> + Send + Sync>;

/// The bytes of one file of an artifact.
pub enum Body {
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// The bytes of a file on disk (an image made in the build cache),
    /// read as they are written.
    File(PathBuf),
    /// Bytes a function writes when the file is written (a PDF or an EPUB
    /// that streams its images from the build cache). It may be called
    /// more than once and must write the same bytes each time.
    Written(WriteFn),
}

impl Body {
    /// Writes the bytes to `to`, from where it stands; their number.
    pub fn write_to(&self, to: &mut dyn Sink) -> io::Result<u64> {
        match self {
            Body::Bytes(bytes) => to.write_all(bytes).map(|_| bytes.len() as u64),
            Body::File(path) => io::copy(&mut std::fs::File::open(path)?, to),
            Body::Written(write) => {
                let start = to.stream_position()?;
                write(to)?;
                Ok(to.stream_position()? - start)
            }
        }
    }

    /// The bytes, in memory (for tests and small files).
    pub fn to_bytes(&self) -> io::Result<Vec<u8>> {
        match self {
            Body::Bytes(bytes) => Ok(bytes.clone()),
            Body::File(path) => std::fs::read(path),
            Body::Written(_) => {
                let mut out = io::Cursor::new(Vec::new());
                self.write_to(&mut out)?;
                Ok(out.into_inner())
            }
        }
    }

    /// The number of bytes, when known without writing them.
    pub fn known_len(&self) -> Option<u64> {
        match self {
            Body::Bytes(bytes) => Some(bytes.len() as u64),
            Body::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            Body::Written(_) => None,
        }
    }

    /// Whether the file at `path` holds exactly these bytes, read in
    /// pieces (a changed file of known size is seldom read at all). Bytes
    /// known only by writing them are written into memory for it: the
    /// build compares those once written to a file instead.
    pub fn is_in(&self, path: &Path) -> bool {
        let ours: Box<dyn Read> = match self {
            Body::Bytes(bytes) => return file_holds(path, bytes),
            Body::File(ours) => match std::fs::File::open(ours) {
                Ok(file) => Box::new(file),
                Err(_) => return false,
            },
            Body::Written(_) => match self.to_bytes() {
                Ok(bytes) => Box::new(io::Cursor::new(bytes)),
                Err(_) => return false,
            },
        };
        let Ok(meta) = std::fs::metadata(path) else {
            return false;
        };
        if !meta.is_file() || self.known_len().is_some_and(|len| len != meta.len()) {
            return false;
        }
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        same(ours, file).unwrap_or(false)
    }
}

/// Whether the file at `path` holds exactly `bytes` (its size compared
/// first, its content read in pieces).
pub fn file_holds(path: &Path, bytes: &[u8]) -> bool {
    let same_size = std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.len() == bytes.len() as u64);
    same_size
        && std::fs::File::open(path)
            .and_then(|file| same(bytes, file))
            .unwrap_or(false)
}

/// Whether two readers give the same bytes.
fn same(a: impl Read, b: impl Read) -> io::Result<bool> {
    const CHUNK: usize = 1 << 16;
    let (mut a, mut b) = (
        io::BufReader::with_capacity(CHUNK, a),
        io::BufReader::with_capacity(CHUNK, b),
    );
    loop {
        let (x, y) = (a.fill_buf()?, b.fill_buf()?);
        if x.is_empty() || y.is_empty() {
            return Ok(x.is_empty() && y.is_empty());
        }
        let n = x.len().min(y.len());
        if x[..n] != y[..n] {
            return Ok(false);
        }
        a.consume(n);
        b.consume(n);
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Self {
        Body::Bytes(bytes)
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Bytes(bytes) => write!(f, "Bytes({} bytes)", bytes.len()),
            Body::File(path) => write!(f, "File({})", path.display()),
            Body::Written(_) => f.write_str("Written"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_writes_its_bytes_and_knows_a_file_that_holds_them() {
        let dir = tempfile::tempdir().unwrap();
        let on_disk = dir.path().join("a");
        std::fs::write(&on_disk, b"hello, world").unwrap();
        let bodies = [
            Body::Bytes(b"hello, world".to_vec()),
            Body::File(on_disk.clone()),
            Body::Written(Box::new(|w| w.write_all(b"hello, world"))),
        ];
        for body in &bodies {
            assert_eq!(body.to_bytes().unwrap(), b"hello, world", "{body:?}");
            assert!(body.is_in(&on_disk), "{body:?}");
        }
        let other = dir.path().join("b");
        for (text, same) in [
            ("hello, world!", false),
            ("hello, worle", false),
            ("", false),
        ] {
            std::fs::write(&other, text).unwrap();
            for body in &bodies {
                assert_eq!(body.is_in(&other), same, "{body:?} in {text:?}");
            }
        }
        assert!(!bodies[0].is_in(&dir.path().join("missing")));
        assert!(!bodies[2].is_in(dir.path()), "a folder holds no bytes");
    }
}
