//! The last gate before an EPUB or a web edition is written: a structural check of the
//! package as it will be stored, in process, so that a mistake of stoa's
//! own writers (an id given twice, a link to a file the package lacks)
//! stops the edition with an internal error instead of a bad file.
//!
//! What it checks: every XHTML document parses as XML; its ids are
//! unique; every `href` and `src` that is not a web address leads to a
//! file of the package, and its fragment to an id of that file; the
//! navigation document has no empty list; the manifest names every file
//! of the package and every file it names exists; the spine names items
//! of the manifest; the accessibility features the package claims are in
//! its documents. EPUBCheck checks far more; this is what stoa itself
//! can get wrong, checked at a cost a build does not notice (the build
//! bench, `cargo bench -p stoa-tests --bench build`, times it).

mod claims;
mod web;
pub use web::web;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Cursor, Read};

/// What is wrong with a package: one sentence per problem, naming the file.
pub type Problems = Vec<String>;

/// The message of an edition that failed the gate: its first problems,
/// each with the post its file was made from (`post_of` the file's path).
pub fn report(
    edition: &str,
    problems: &[String],
    post_of: impl Fn(&str) -> Option<String>,
) -> String {
    let named: Vec<String> = problems
        .iter()
        .take(10)
        .map(|problem| {
            let file = problem.split(": ").next().unwrap_or_default();
            match post_of(file) {
                Some(post) => format!("{problem} (from {post})"),
                None => problem.clone(),
            }
        })
        .collect();
    format!(
        "internal error: the {edition} stoa made fails its own last check, so it is not written:\n  {}",
        named.join("\n  ")
    )
}

/// What to do about it: nothing the author did.
pub const HINT: &str =
    "this is a bug of stoa, not of the book: please report it with the post named";

/// The files of an EPUB, read from its bytes.
struct Package {
    files: BTreeMap<String, Vec<u8>>,
}

/// Checks the EPUB in `bytes`.
pub fn epub(bytes: &[u8]) -> Result<(), Problems> {
    let package =
        Package::read(bytes).map_err(|e| vec![format!("the EPUB cannot be read: {e}")])?;
    let mut problems = Vec::new();
    package.check(&mut problems);
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}

impl Package {
    fn read(bytes: &[u8]) -> zip::result::ZipResult<Package> {
        let mut archive = zip::ZipArchive::new(Cursor::new(bytes))?;
        let mut files = BTreeMap::new();
        for i in 0..archive.len() {
            let mut entry = archive.by_index(i)?;
            if entry.is_dir() {
                continue;
            }
            // Only the XML files are read; of the others (images, fonts,
            // style sheets) only the names matter.
            let name = entry.name().to_string();
            let mut data = Vec::new();
            if [".xhtml", ".opf", ".xml", ".ncx"]
                .iter()
                .any(|e| name.ends_with(e))
            {
                data.reserve(entry.size() as usize);
                entry.read_to_end(&mut data)?;
            }
            files.insert(name, data);
        }
        Ok(Package { files })
    }

    fn text(&self, name: &str) -> Option<&str> {
        std::str::from_utf8(self.files.get(name)?).ok()
    }

    fn check(&self, problems: &mut Problems) {
        let Some(opf) = self.rootfile() else {
            problems.push("META-INF/container.xml names no package document".into());
            return;
        };
        let Some(manifest) = self.manifest(&opf, problems) else {
            return;
        };
        // Every XHTML document: well-formed, unique ids; their links.
        let mut ids: HashMap<&str, HashSet<String>> = HashMap::new();
        let mut links: Vec<(&str, String)> = Vec::new();
        let mut seen = claims::Seen::default();
        for (path, media) in &manifest {
            if media != "application/xhtml+xml" {
                continue;
            }
            let Some(text) = self.text(path) else {
                problems.push(format!("{path}: not UTF-8"));
                continue;
            };
            let doc = match roxmltree::Document::parse_with_options(text, options()) {
                Ok(doc) => doc,
                Err(e) => {
                    problems.push(format!("{path}: not well-formed XML ({e})"));
                    continue;
                }
            };
            let mine = ids.entry(path.as_str()).or_default();
            for node in doc.descendants().filter(|n| n.is_element()) {
                seen.note(path, node);
                if let Some(id) = node.attribute("id")
                    && !mine.insert(id.to_string())
                {
                    problems.push(format!("{path}: the id `{id}` is given twice"));
                }
                for name in ["href", "src"] {
                    if let Some(target) = node.attribute(name) {
                        links.push((path.as_str(), target.to_string()));
                    }
                }
                if node.tag_name().name() == "ol"
                    && !node
                        .children()
                        .any(|c| c.is_element() && c.tag_name().name() == "li")
                {
                    problems.push(format!("{path}: an empty list (`<ol>` without items)"));
                }
            }
        }
        for (from, target) in links {
            if let Some(problem) = self.broken(from, &target, &ids) {
                problems.push(problem);
            }
        }
        if let Some(text) = self.text(&opf) {
            seen.check(&opf, text, problems);
        }
    }

    /// The package document's path, from the container.
    fn rootfile(&self) -> Option<String> {
        let text = self.text("META-INF/container.xml")?;
        let doc = roxmltree::Document::parse(text).ok()?;
        let root = doc
            .descendants()
            .find(|n| n.tag_name().name() == "rootfile")?;
        root.attribute("full-path").map(str::to_string)
    }

    /// The manifest (path → media type), after checking it against the
    /// files and the spine.
    fn manifest(&self, opf: &str, problems: &mut Problems) -> Option<BTreeMap<String, String>> {
        let Some(text) = self.text(opf) else {
            problems.push(format!("{opf}: the package document is missing"));
            return None;
        };
        let doc = match roxmltree::Document::parse(text) {
            Ok(doc) => doc,
            Err(e) => {
                problems.push(format!("{opf}: not well-formed XML ({e})"));
                return None;
            }
        };
        let base = folder(opf);
        let mut manifest = BTreeMap::new();
        let mut by_id = HashSet::new();
        for item in doc.descendants().filter(|n| n.tag_name().name() == "item") {
            let (Some(id), Some(href)) = (item.attribute("id"), item.attribute("href")) else {
                problems.push(format!("{opf}: a manifest item without id or href"));
                continue;
            };
            by_id.insert(id.to_string());
            let path = join(base, &decode(href));
            if !self.files.contains_key(&path) {
                problems.push(format!(
                    "{opf}: the manifest names `{href}`, which is not in the package"
                ));
            }
            let media = item.attribute("media-type").unwrap_or_default().to_string();
            manifest.insert(path, media);
        }
        for itemref in doc
            .descendants()
            .filter(|n| n.tag_name().name() == "itemref")
        {
            let idref = itemref.attribute("idref").unwrap_or_default();
            if !by_id.contains(idref) {
                problems.push(format!(
                    "{opf}: the spine names `{idref}`, which the manifest lacks"
                ));
            }
        }
        for name in self.files.keys() {
            let outside = name == "mimetype" || name.starts_with("META-INF/") || name == opf;
            if !outside && !manifest.contains_key(name) {
                problems.push(format!("{name}: in the package but not in its manifest"));
            }
        }
        Some(manifest)
    }

    /// Why a link of document `from` leads nowhere, if it does.
    fn broken(
        &self,
        from: &str,
        target: &str,
        ids: &HashMap<&str, HashSet<String>>,
    ) -> Option<String> {
        if has_scheme(target) || target.starts_with("//") {
            return None;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (target, None),
        };
        let file = match path.is_empty() {
            true => from.to_string(),
            false => join(folder(from), &decode(path)),
        };
        if !self.files.contains_key(&file) {
            return Some(format!(
                "{from}: `{target}` leads to no file of the package"
            ));
        }
        let fragment = fragment.filter(|f| !f.is_empty())?;
        let known = ids.get(file.as_str())?;
        (!known.contains(&decode(fragment)))
            .then(|| format!("{from}: `{target}` leads to no id of {file}"))
    }
}

/// DTDs are allowed (an XHTML document may declare one), and entity
/// expansion is what roxmltree bounds itself.
fn options<'a>() -> roxmltree::ParsingOptions<'a> {
    roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    }
}

/// Whether `url` starts with a scheme (`https:`, `mailto:`).
fn has_scheme(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// The folder of a package path, with its slash (`OEBPS/`), or empty.
fn folder(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..=i])
}

/// `relative` read from `base`, `..` and `.` resolved.
fn join(base: &str, relative: &str) -> String {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Percent-decoding, for the file names links encode.
fn decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
