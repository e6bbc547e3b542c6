//! What the export readers (WordPress, Ghost, Substack, feeds) share: the
//! export's files (a folder or a zip read into memory, every name checked),
//! the images a post shows found among them, HTML bodies made Markdown, and
//! dates made ISO 8601.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

use stoa_html_md::{ImageResolver, ImageSource};

use crate::model::{Diagnostic, Image, ImageData, ImportOptions, Post};
use crate::util;
use crate::web::WebImages;
use stoa_markdown::percent_decode;

/// The most entries a zip export may hold.
const MAX_ZIP_ENTRIES: usize = 100_000;
/// The most bytes a zip export may unpack to, all entries together.
const MAX_ZIP_TOTAL: u64 = 1024 * 1024 * 1024;

/// The image formats stoa shows.
const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "svg"];

/// The files of an export, where images are looked for.
pub(crate) enum Files {
    /// A folder (canonical): the export file's own folder.
    Folder {
        root: PathBuf,
        index: std::cell::OnceCell<HashMap<String, Vec<PathBuf>>>,
    },
    /// A zip's entries, by their checked relative names.
    Zip(BTreeMap<String, Vec<u8>>),
}

impl Files {
    /// The folder `root` (it exists).
    pub fn folder(root: &Path) -> Files {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        Files::Folder {
            root,
            index: std::cell::OnceCell::new(),
        }
    }

    /// The file at the relative path `rel` (plain segments).
    fn get(&self, rel: &str, max: u64) -> Option<ImageData> {
        let rel_path = util::plain_relative(rel)?;
        match self {
            Files::Folder { root, .. } => {
                let real = util::inside(root, &root.join(&rel_path))?;
                stoa_book::limits::regular_file(&real, max).ok()?;
                Some(ImageData::Path(real))
            }
            Files::Zip(entries) => {
                let key = rel_path.to_string_lossy().replace('\\', "/");
                entries.get(&key).map(|b| ImageData::Bytes(b.clone()))
            }
        }
    }

    /// The only file named `name`, wherever it is in the export.
    fn by_name(&self, name: &str, max: u64) -> Option<ImageData> {
        match self {
            Files::Folder { root, index } => {
                let index = index.get_or_init(|| {
                    let mut map: HashMap<String, Vec<PathBuf>> = HashMap::new();
                    let mut ignored = Vec::new();
                    for f in util::walk(root, root, &mut ignored).unwrap_or_default() {
                        if let Some(n) = f.file_name() {
                            map.entry(n.to_string_lossy().to_lowercase())
                                .or_default()
                                .push(f);
                        }
                    }
                    map
                });
                match index.get(&name.to_lowercase()).map(Vec::as_slice) {
                    Some([one]) => {
                        let real = util::inside(root, one)?;
                        stoa_book::limits::regular_file(&real, max).ok()?;
                        Some(ImageData::Path(real))
                    }
                    _ => None,
                }
            }
            Files::Zip(entries) => {
                let mut found = entries.iter().filter(|(k, _)| {
                    k.rsplit('/')
                        .next()
                        .is_some_and(|n| n.eq_ignore_ascii_case(name))
                });
                match (found.next(), found.next()) {
                    (Some((_, b)), None) => Some(ImageData::Bytes(b.clone())),
                    _ => None,
                }
            }
        }
    }
}

/// Reads a zip export into memory: every entry's name must be a relative
/// path of plain segments (a `../` or an absolute name is an error: the
/// export is not what it claims), and sizes are bounded.
pub(crate) fn read_zip(
    path: &Path,
    options: &ImportOptions,
) -> Result<BTreeMap<String, Vec<u8>>, Vec<Diagnostic>> {
    let shown = util::display(path);
    let fail =
        |msg: String, hint: &str| vec![Diagnostic::error(msg).in_file(&shown).with_hint(hint)];
    let file = std::fs::File::open(path)
        .map_err(|e| fail(format!("cannot open the zip: {e}"), "check the path"))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| {
        fail(
            format!("not a readable zip file: {e}"),
            "give the export as it was downloaded (a truncated download cannot be read); download it again",
        )
    })?;
    if zip.len() > MAX_ZIP_ENTRIES {
        return Err(fail(
            format!(
                "the zip holds {} entries, more than {MAX_ZIP_ENTRIES}",
                zip.len()
            ),
            "give the export itself",
        ));
    }
    let mut out = BTreeMap::new();
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| {
            fail(
                format!("entry {i} of the zip cannot be read: {e}"),
                "download the export again",
            )
        })?;
        let name = entry.name().to_string();
        let clean = name.replace('\\', "/");
        let plain = !clean.starts_with('/')
            && !clean.contains(':')
            && clean.split('/').all(|s| s != "..")
            && util::plain_relative(&clean).is_some();
        if !plain {
            return Err(fail(
                format!(
                    "the zip's entry `{}` leaves the export (a `..` or an absolute path)",
                    name.escape_debug()
                ),
                "this is not an export as the platform makes it; nothing was written. Download the export again from the platform itself",
            ));
        }
        if entry.is_dir() {
            continue;
        }
        if entry.size() > options.max_file_size {
            return Err(fail(
                format!(
                    "the zip's entry `{clean}` is {} bytes, more than {}",
                    entry.size(),
                    options.max_file_size
                ),
                "remove it from the zip, or give the export's posts only",
            ));
        }
        let mut bytes = Vec::new();
        (&mut entry)
            .take(options.max_file_size + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| {
                fail(
                    format!("the zip's entry `{clean}` cannot be unpacked: {e}"),
                    "download the export again",
                )
            })?;
        total += bytes.len() as u64;
        if bytes.len() as u64 > options.max_file_size || total > MAX_ZIP_TOTAL {
            return Err(fail(
                format!("the zip's entry `{clean}` unpacks to more than it says"),
                "download the export again from the platform itself",
            ));
        }
        let key = util::plain_relative(&clean)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or(clean);
        out.insert(key, bytes);
    }
    Ok(out)
}

/// The images of one post, found in the export as the converter meets
/// them.
pub(crate) struct PostImages<'a> {
    files: &'a Files,
    /// The site's addresses: an image under one is looked for by its path.
    bases: Vec<String>,
    max: u64,
    pub images: Vec<Image>,
    by_src: HashMap<String, String>,
    /// The downloader, with `--fetch-images`.
    web: Option<&'a WebImages>,
}

impl<'a> PostImages<'a> {
    pub fn new(files: &'a Files, bases: &[String], options: &ImportOptions) -> Self {
        PostImages {
            files,
            bases: bases
                .iter()
                .map(|b| b.trim_end_matches('/').to_string())
                .filter(|b| !b.is_empty())
                .collect(),
            max: options
                .max_file_size
                .min(stoa_book::limits::MAX_IMAGE_BYTES),
            images: Vec::new(),
            by_src: HashMap::new(),
            web: None,
        }
    }

    fn find(&self, src: &str) -> Result<ImageData, String> {
        let src = src.trim();
        if src.starts_with("data:") {
            return Err(
                "an image written into the page (`data:`), which stoa does not import".into(),
            );
        }
        let mut path = src;
        let mut web = false;
        let web_address =
            src.starts_with("http://") || src.starts_with("https://") || src.starts_with("//");
        for base in &self.bases {
            if let Some(rest) = src.strip_prefix(base.as_str()) {
                path = rest;
            }
        }
        if path == src {
            if let Some(rest) = src.strip_prefix("__GHOST_URL__") {
                path = rest;
            } else if let Some(i) = src.find("://") {
                web = true;
                path = src[i + 3..].find('/').map_or("", |j| &src[i + 3 + j..]);
            }
        }
        let path = path.split(['?', '#']).next().unwrap_or("");
        let decoded = percent_decode(path);
        // Substack's CDN wraps the original address, itself encoded.
        let decoded = decoded
            .rsplit("https://")
            .next()
            .unwrap_or(&decoded)
            .to_string();
        let segments: Vec<&str> = decoded
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let Some(&last) = segments.last() else {
            return Err("it has no file name".into());
        };
        let ext = last.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        // With `--fetch-images`, an image on the web the export lacks is
        // downloaded (its bytes, not its address, say what it is).
        let downloader = self.web.filter(|_| web_address);
        let download = |web: &WebImages| {
            web.get(src)
                .map(|(bytes, _)| ImageData::Bytes(bytes))
                .map_err(|e| format!("it could not be downloaded ({e})"))
        };
        if !IMAGE_EXTENSIONS.contains(&ext.as_str()) {
            if let Some(web) = downloader {
                return download(web);
            }
            return Err(format!(
                "`{last}` is not a PNG, JPEG, GIF, WebP or SVG image, the formats stoa shows"
            ));
        }
        if !web && segments.contains(&"..") {
            return Err(
                "its path leaves the export's folder; only files inside the export are read".into(),
            );
        }
        let segments: Vec<&str> = segments.into_iter().filter(|s| *s != "..").collect();
        // The whole path, then shorter and shorter tails of it
        // (`wp-content/uploads/2020/01/a.jpg`, `uploads/2020/01/a.jpg`, …).
        for k in 0..segments.len() {
            if let Some(found) = self.files.get(&segments[k..].join("/"), self.max) {
                return Ok(found);
            }
        }
        // WordPress's resized copy (`a-1024x768.jpg`) of an original.
        if let Some((stem, ext)) = last.rsplit_once('.')
            && let Some((orig, size)) = stem.rsplit_once('-')
            && size.split_once('x').is_some_and(|(w, h)| {
                !w.is_empty()
                    && !h.is_empty()
                    && w.bytes().chain(h.bytes()).all(|b| b.is_ascii_digit())
            })
        {
            let original = format!("{orig}.{ext}");
            let mut tail = segments.clone();
            tail.pop();
            tail.push(&original);
            for k in 0..tail.len() {
                if let Some(found) = self.files.get(&tail[k..].join("/"), self.max) {
                    return Ok(found);
                }
            }
        }
        if let Some(found) = self.files.by_name(last, self.max) {
            return Ok(found);
        }
        if let Some(web) = downloader {
            return download(web);
        }
        Err(
            if web && !self.bases.iter().any(|b| src.starts_with(b.as_str())) {
                "it is on another site and not in the export; import with --fetch-images to download it, or put the file in the export's folder".into()
            } else {
                "it is not in the export's folder; copy the site's uploads there (keeping their folders), or import with --fetch-images to download it".into()
            },
        )
    }
}

impl ImageResolver for PostImages<'_> {
    fn resolve(&mut self, src: &str) -> ImageSource {
        if let Some(name) = self.by_src.get(src) {
            return ImageSource::Local(name.clone());
        }
        match self.find(src) {
            Ok(data) => {
                // A download named by a CDN (`…/image/fetch/w_1456/abc`):
                // the extension its bytes call for.
                let path = src.split(['?', '#']).next().unwrap_or(src);
                let own = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
                let ext = match &data {
                    ImageData::Bytes(bytes)
                        if !own.is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.as_str())) =>
                    {
                        crate::web::image_extension(bytes)
                    }
                    _ => None,
                };
                let name = crate::site::image_name(src, ext, &self.images);
                self.images.push(Image {
                    name: name.clone(),
                    data,
                });
                self.by_src.insert(src.to_string(), name.clone());
                ImageSource::Local(name)
            }
            Err(why) => ImageSource::Unavailable(why),
        }
    }
}

/// What converting an export's posts needs: where its images are, the
/// site's addresses, the options, and the downloader (`--fetch-images`).
#[derive(Clone, Copy)]
pub(crate) struct Export<'a> {
    pub files: &'a Files,
    pub bases: &'a [String],
    pub options: &'a ImportOptions,
    pub web: Option<&'a WebImages>,
}

impl<'a> Export<'a> {
    pub fn new(
        files: &'a Files,
        bases: &'a [String],
        options: &'a ImportOptions,
        web: Option<&'a WebImages>,
    ) -> Self {
        Export {
            files,
            bases,
            options,
            web,
        }
    }
}

/// Converts one post's HTML body: its Markdown and images go into `post`,
/// the converter's warnings into `warnings` at `place`.
pub(crate) fn html_body(
    html: &str,
    post: &mut Post,
    cx: &Export<'_>,
    warnings: &mut Vec<Diagnostic>,
) {
    let Export {
        files,
        bases,
        options,
        web,
    } = *cx;
    let mut images = PostImages::new(files, bases, options);
    images.web = web;
    let base = bases.first().map(String::as_str);
    let converted = stoa_html_md::convert(
        html,
        &stoa_html_md::Options { link_base: base },
        &mut images,
    );
    for w in converted.warnings {
        warnings.push(post.source.warning(format!("post `{}`: {w}", post.slug)));
    }
    post.body = converted.markdown;
    post.images = images.images;
}

/// The lines of an XML document, to say where its elements are.
pub(crate) struct Lines(Vec<usize>);

impl Lines {
    /// The offsets of the text's line feeds, found once: roxmltree's
    /// `text_pos_at` counts from the start for each node, which made a
    /// large export's import quadratic.
    pub fn new(text: &str) -> Lines {
        Lines(memchr_all(text.as_bytes()))
    }

    /// The 1-based line of `node`'s start.
    pub fn of(&self, node: roxmltree::Node<'_, '_>) -> usize {
        self.0.partition_point(|&nl| nl < node.range().start) + 1
    }
}

fn memchr_all(bytes: &[u8]) -> Vec<usize> {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i)
        .collect()
}

/// An XML export parsed, or the error at its line: a truncated file, an
/// entity declaration (refused: they expand without bound).
pub(crate) fn parse_xml<'a>(
    text: &'a str,
    file: &str,
    what: &str,
) -> Result<roxmltree::Document<'a>, Vec<Diagnostic>> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: 50_000_000,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, opts).map_err(|e| {
        let mut pos = e.pos();
        let hint = match e {
            roxmltree::Error::DtdDetected => "exports carry no DTD; remove the <!DOCTYPE …> declaration".to_string(),
            roxmltree::Error::UnexpectedEndOfStream | roxmltree::Error::UnclosedRootNode => {
                pos = roxmltree::TextPos::new(text.lines().count().max(1) as u32, 1);
                format!("the file ends in the middle of an element: it was cut short. Export the {what} again")
            }
            // An error on the last line: the file stops there.
            _ if pos.row as usize >= text.lines().count() => {
                format!("the file ends in the middle of an element: it was cut short. Export the {what} again")
            }
            _ => format!("the {what} is not well-formed XML there; export it again, or fix that line"),
        };
        vec![Diagnostic::error(format!("not a readable {what}: {e}"))
            .in_file(file)
            .at(pos.row as usize, pos.col as usize)
            .with_hint(hint)]
    })
}

/// A date as the writer takes it, ISO 8601, from the forms exports write:
/// `2024-05-31 10:00:00` (WordPress), `2024-05-31T10:00:00.000Z` (Ghost,
/// Substack, Atom), `Fri, 31 May 2024 10:00:00 +0000` (RSS). `None` for
/// anything else (and WordPress's `0000-00-00 00:00:00`).
pub(crate) fn iso_date(text: &str) -> Option<String> {
    let t = text.trim();
    let b = t.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|s| s.iter().all(u8::is_ascii_digit))
    };
    if digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
    {
        if t.starts_with("0000") {
            return None;
        }
        let date = &t[..10];
        let month: u32 = date[5..7].parse().ok()?;
        let day: u32 = date[8..10].parse().ok()?;
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            return None;
        }
        let rest = &t[10..];
        let rest = rest.strip_prefix(['T', ' ']).unwrap_or("");
        if rest.len() >= 8
            && rest.as_bytes()[2] == b':'
            && rest.as_bytes()[5] == b':'
            && rest.as_bytes()[..8]
                .iter()
                .all(|c| c.is_ascii_digit() || *c == b':')
        {
            let time = &rest[..8];
            let mut zone = &rest[8..];
            if let Some(frac) = zone.strip_prefix('.') {
                zone = frac.trim_start_matches(|c: char| c.is_ascii_digit());
            }
            let zone = match zone.trim() {
                "Z" | "z" => "Z".to_string(),
                z if z.len() == 6
                    && (z.starts_with('+') || z.starts_with('-'))
                    && z.as_bytes()[3] == b':' =>
                {
                    z.to_string()
                }
                z if z.len() == 5
                    && (z.starts_with('+') || z.starts_with('-'))
                    && z[1..].bytes().all(|c| c.is_ascii_digit()) =>
                {
                    format!("{}:{}", &z[..3], &z[3..])
                }
                _ => String::new(),
            };
            return Some(format!("{date}T{time}{zone}"));
        }
        return Some(date.to_string());
    }
    // RFC 822 / 2822: `[Fri, ]31 May 2024 10:00:00 +0000`.
    let t = t.split_once(',').map_or(t, |(_, r)| r).trim();
    let mut parts = t.split_whitespace();
    let day: u32 = parts.next()?.parse().ok()?;
    let month = parts.next()?.to_ascii_lowercase();
    let month = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .iter()
    .position(|m| month.starts_with(m))?
        + 1;
    let mut year: u32 = parts.next()?.parse().ok()?;
    if year < 100 {
        year += if year < 50 { 2000 } else { 1900 };
    }
    if !(1..=31).contains(&day) || year > 9999 {
        return None;
    }
    let date = format!("{year:04}-{month:02}-{day:02}");
    let Some(time) = parts.next() else {
        return Some(date);
    };
    let hms: Vec<&str> = time.split(':').collect();
    if hms.len() < 2
        || hms
            .iter()
            .any(|p| p.len() != 2 || !p.bytes().all(|c| c.is_ascii_digit()))
    {
        return Some(date);
    }
    let time = format!("{}:{}:{}", hms[0], hms[1], hms.get(2).unwrap_or(&"00"));
    let zone = match parts.next() {
        Some(z)
            if (z.starts_with('+') || z.starts_with('-'))
                && z.len() == 5
                && z[1..].bytes().all(|c| c.is_ascii_digit()) =>
        {
            format!("{}:{}", &z[..3], &z[3..])
        }
        Some("GMT" | "UT" | "UTC" | "Z") => "Z".into(),
        _ => String::new(),
    };
    Some(format!("{date}T{time}{zone}"))
}

/// A summary of what was left out, as one warning at the export.
pub(crate) fn left_out(file: &str, drafts: usize, private: usize) -> Option<Diagnostic> {
    if drafts + private == 0 {
        return None;
    }
    let mut parts = Vec::new();
    if drafts > 0 {
        parts.push(format!(
            "{drafts} draft{}",
            if drafts == 1 { "" } else { "s" }
        ));
    }
    if private > 0 {
        parts.push(format!(
            "{private} private, paid or scheduled post{}",
            if private == 1 { "" } else { "s" }
        ));
    }
    Some(
        Diagnostic::warning(format!("{} left out", parts.join(" and ")))
            .in_file(file)
            .with_hint("add --drafts to import them too"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_every_export() {
        assert_eq!(
            iso_date("2024-05-31 10:00:00").as_deref(),
            Some("2024-05-31T10:00:00")
        );
        assert_eq!(
            iso_date("2024-05-31T10:00:00.000Z").as_deref(),
            Some("2024-05-31T10:00:00Z")
        );
        assert_eq!(
            iso_date("2024-05-31T10:00:00+02:00").as_deref(),
            Some("2024-05-31T10:00:00+02:00")
        );
        assert_eq!(
            iso_date("Fri, 31 May 2024 10:00:00 +0000").as_deref(),
            Some("2024-05-31T10:00:00+00:00")
        );
        assert_eq!(
            iso_date("31 May 2024 10:00 GMT").as_deref(),
            Some("2024-05-31T10:00:00Z")
        );
        assert_eq!(iso_date("0000-00-00 00:00:00"), None);
        assert_eq!(iso_date("yesterday"), None);
        assert_eq!(iso_date("2024-13-01"), None);
        // Never a panic on a character that is not ASCII.
        for odd in [
            "2024-05-31T10:00:0é",
            "2024-05-31T10:00:00+0é0",
            "1 May 2024 10:00 +0é0",
            "2024-05-31é",
            "é, 1 é 2024",
        ] {
            let _ = iso_date(odd);
        }
    }
}
