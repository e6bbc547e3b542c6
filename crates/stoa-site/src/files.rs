//! What the page and the catalog say about each file: link, media type, size, checksum.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Component, Path};

use sha2::{Digest, Sha256};
use stoa_doc::Diagnostic;

use crate::escape;

/// A kind of downloadable file: what the build's registry of formats says
/// of it (see `stoa-renderers`), in the order the page lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// The file's extension, without the dot, e.g. `epub`.
    pub extension: &'static str,
    /// What readers see on the button, e.g. `EPUB`.
    pub label: &'static str,
    /// The IANA media type.
    pub media_type: &'static str,
    /// Whether it is paged (the PDF): the page shows its page count.
    pub paged: bool,
}

/// A downloadable file of an edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// Percent-encoded relative URL, `/`-separated.
    pub href: String,
    /// The file's own name, as `sha256sum` prints it.
    pub name: String,
    /// Its kind.
    pub format: FileKind,
    /// Its kind's position in the build's list: the page lists files in
    /// that order.
    pub rank: usize,
    /// Size in bytes.
    pub size: u64,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
}

impl FileInfo {
    /// Reads `rel` (relative to `out_dir`), one of the `kinds` by its
    /// extension, to learn its size and checksum.
    pub fn read(out_dir: &Path, rel: &Path, kinds: &[FileKind]) -> Result<FileInfo, Diagnostic> {
        let href = relative_href(rel)?;
        let (rank, format) = kind_of(rel, kinds)?;
        let path = out_dir.join(rel);
        let (size, sha256) = hash_file(&path)
            .map_err(|e| Diagnostic::error(format!("cannot read {}: {e}", path.display())))?;
        let name = rel
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        Ok(FileInfo {
            href,
            name,
            format,
            rank,
            size,
            sha256,
        })
    }
}

/// A cover thumbnail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cover {
    /// Percent-encoded relative URL.
    pub href: String,
    /// Image media type, from the extension.
    pub media_type: &'static str,
    /// Pixel size when the image is a PNG, so the page reserves its box before it loads.
    pub size: Option<(u32, u32)>,
}

impl Cover {
    /// Checks the cover exists and reads its pixel size.
    pub fn read(out_dir: &Path, rel: &Path) -> Result<Cover, Diagnostic> {
        let href = relative_href(rel)?;
        let ext = extension(rel);
        let media_type = match ext.as_str() {
            "png" => "image/png",
            "jpg" | "jpeg" => "image/jpeg",
            "webp" => "image/webp",
            "gif" => "image/gif",
            "svg" => "image/svg+xml",
            _ => {
                return Err(Diagnostic::error(format!(
                    "the cover {} is not a PNG, JPEG, WebP, GIF or SVG image",
                    rel.display()
                )));
            }
        };
        let path = out_dir.join(rel);
        let mut head = [0u8; 24];
        let read = File::open(&path)
            .and_then(|mut f| read_up_to(&mut f, &mut head))
            .map_err(|e| {
                Diagnostic::error(format!("cannot read the cover {}: {e}", path.display()))
            })?;
        Ok(Cover {
            href,
            media_type,
            size: png_size(&head[..read]),
        })
    }
}

/// The href of a web edition's start page, which must exist in the output directory.
pub fn web_href(out_dir: &Path, rel: &Path) -> Result<String, Diagnostic> {
    if !out_dir.join(rel).is_file() {
        return Err(Diagnostic::error(format!(
            "the web edition's page {} is not in {}",
            rel.display(),
            out_dir.display()
        )));
    }
    relative_href(rel)
}

/// The `/`-separated, percent-encoded href of a path that must stay inside the output directory.
pub(crate) fn relative_href(rel: &Path) -> Result<String, Diagnostic> {
    let mut parts = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(part) => match part.to_str() {
                Some(s) => parts.push(s),
                None => {
                    return Err(Diagnostic::error(format!(
                        "the file name {} is not UTF-8",
                        rel.display()
                    )));
                }
            },
            Component::CurDir => {}
            _ => {
                return Err(Diagnostic::error(format!(
                    "{} must be a path relative to the output directory, without `..`",
                    rel.display()
                )));
            }
        }
    }
    if parts.is_empty() {
        return Err(Diagnostic::error(
            "an empty path was given as a file of the site",
        ));
    }
    Ok(escape::href(&parts.join("/")))
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The kind of the file at `path` by its extension, with its position in
/// `kinds`.
fn kind_of(path: &Path, kinds: &[FileKind]) -> Result<(usize, FileKind), Diagnostic> {
    let ext = extension(path);
    kinds
        .iter()
        .position(|k| k.extension.eq_ignore_ascii_case(&ext))
        .map(|rank| (rank, kinds[rank]))
        .ok_or_else(|| {
            let known: Vec<String> = kinds.iter().map(|k| format!(".{}", k.extension)).collect();
            Diagnostic::error(format!(
                "{}: unknown download format `.{ext}`",
                path.display()
            ))
            .with_hint(format!("the download page knows {}", known.join(", ")))
        })
}

/// Size and SHA-256, streaming: a PDF with images can be large.
fn hash_file(path: &Path) -> io::Result<(u64, String)> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let size = io::copy(&mut file, &mut hasher)?;
    Ok((size, hex(&hasher.finalize())))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

/// Width and height from a PNG's IHDR chunk, which the format puts first.
fn png_size(head: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if head.len() < 24 || &head[..8] != SIGNATURE || &head[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(head[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(head[20..24].try_into().ok()?);
    (width > 0 && height > 0).then_some((width, height))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn hrefs_are_relative_and_slash_separated() {
        let rel: PathBuf = ["dialogues", "dialogues pt.epub"].iter().collect();
        assert_eq!(
            relative_href(&rel).unwrap(),
            "dialogues/dialogues%20pt.epub"
        );
        assert!(relative_href(Path::new("../etc/passwd")).is_err());
        assert!(relative_href(Path::new("/etc/passwd")).is_err());
        assert!(relative_href(Path::new("")).is_err());
    }

    #[test]
    fn formats_come_from_the_extension() {
        let kinds = [
            FileKind {
                extension: "epub",
                label: "EPUB",
                media_type: "application/epub+zip",
                paged: false,
            },
            FileKind {
                extension: "pdf",
                label: "PDF",
                media_type: "application/pdf",
                paged: true,
            },
        ];
        let (rank, epub) = kind_of(Path::new("a/b.EPUB"), &kinds).unwrap();
        assert_eq!((rank, epub.media_type), (0, "application/epub+zip"));
        assert_eq!(
            kind_of(Path::new("a/b.pdf"), &kinds).unwrap().1.label,
            "PDF"
        );
        let unknown = kind_of(Path::new("a/b.docx"), &kinds).unwrap_err();
        assert!(unknown.to_string().contains(".epub, .pdf"), "{unknown}");
    }

    #[test]
    fn png_size_reads_ihdr() {
        let mut head = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        head.extend_from_slice(&300u32.to_be_bytes());
        head.extend_from_slice(&450u32.to_be_bytes());
        assert_eq!(png_size(&head), Some((300, 450)));
        assert_eq!(png_size(b"GIF89a"), None);
    }

    #[test]
    fn sha256_of_known_input() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abc.txt");
        std::fs::write(&path, b"abc").unwrap();
        let (size, sum) = hash_file(&path).unwrap();
        assert_eq!(size, 3);
        assert_eq!(
            sum,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
