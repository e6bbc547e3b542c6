//! What every reader returns: the shape of an imported site, independent of
//! the tool it came from.
//!
//! A reader (`hugo`, `jekyll`, `zola`, `wordpress`, `ghost`, `substack`,
//! `feed`) turns its source into an [`Imported`]; the writer
//! ([`crate::write`]) alone turns that into a stoa project. A reader never
//! writes a file, and nothing of the source tool survives the reader: the
//! bodies are plain Markdown (CommonMark with stoa's extensions), every
//! shortcode, Liquid tag or HTML construct already converted or reported.
//!
//! The contract, in short:
//!
//! - Strings are as the source wrote them, minus the tool's syntax: the
//!   writer validates and normalises slugs and language tags and escapes
//!   everything it writes into TOML.
//! - A body refers to its images by [`Image::name`] (`![alt](name)`), and
//!   to other posts of the same site by any of their [`Post::urls`] (an
//!   absolute address on the site's [`Site::base_url`] or a path such as
//!   `/posts/slug/`): the writer turns those links into links to the
//!   chapter.
//! - Everything a reader could not convert stays visible in the body and is
//!   reported as a warning at its [`Place`].
//!
//! Reader signature, one per [`Kind`]:
//!
//! ```text
//! pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>>
//! ```
//!
//! `Err` means nothing can be imported (a missing folder, an export that is
//! not one); a problem with one post is a warning in [`Imported::warnings`]
//! and the post is left out or kept as well as it can be.

use std::fmt;
use std::path::PathBuf;
pub use stoa_doc::Diagnostic;

/// The tools and exports `stoa import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A Hugo site folder (`hugo.toml`/`config.*`, `content/`).
    Hugo,
    /// A Jekyll site folder (`_config.yml`, `_posts/`).
    Jekyll,
    /// A Zola site folder (`config.toml`, `content/`).
    Zola,
    /// A WordPress export (WXR XML, from Tools > Export).
    WordPress,
    /// A Ghost export (the JSON file from Settings > Migrate, or its zip).
    Ghost,
    /// A Substack export (the zip or its folder: `posts.csv`, `posts/*.html`).
    Substack,
    /// An RSS 2.0 or Atom feed, saved to a file.
    Feed,
    /// A folder of Markdown files with front matter (Eleventy, Astro,
    /// MkDocs' blog, an Obsidian vault).
    Markdown,
}

impl Kind {
    /// Every kind, in the order the command line lists them.
    pub const ALL: [Kind; 8] = [
        Kind::Hugo,
        Kind::Jekyll,
        Kind::Zola,
        Kind::WordPress,
        Kind::Ghost,
        Kind::Substack,
        Kind::Feed,
        Kind::Markdown,
    ];

    /// The name on the command line: `hugo`, `jekyll`, `zola`,
    /// `wordpress`, `ghost`, `substack`, `feed`, `markdown`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Hugo => "hugo",
            Kind::Jekyll => "jekyll",
            Kind::Zola => "zola",
            Kind::WordPress => "wordpress",
            Kind::Ghost => "ghost",
            Kind::Substack => "substack",
            Kind::Feed => "feed",
            Kind::Markdown => "markdown",
        }
    }

    /// The kind of a command-line name (case-insensitive), if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// True for a folder (a static-site generator's site, or a folder of
    /// Markdown files); false for an export file of a hosted platform or a
    /// feed.
    pub fn is_site_folder(self) -> bool {
        matches!(
            self,
            Kind::Hugo | Kind::Jekyll | Kind::Zola | Kind::Markdown
        )
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the command line asks of a reader.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// Import drafts (and private or scheduled posts) too: `--drafts`.
    pub drafts: bool,
    /// Bring a WordPress post's approved comments in, under a heading at
    /// its end: `--comments`.
    pub comments: bool,
    /// The largest file a reader reads (a post, an image, an export), in
    /// bytes; a larger one is a warning (or an error for the export
    /// itself), never read whole.
    pub max_file_size: u64,
    /// The most posts an import takes; more is an error.
    pub max_posts: usize,
    /// `--fetch-images`: how images on the web are downloaded; `None`, the
    /// default: the import reads no network, and such an image becomes a
    /// link.
    pub fetch_images: Option<FetchImages>,
}

/// How an import downloads the images its posts show from the web.
#[derive(Clone, Debug)]
pub struct FetchImages {
    /// What one download may do (size, time, redirects).
    pub limits: stoa_fetch::Limits,
    /// Where downloads are kept across imports (`None`: not kept).
    pub cache: Option<std::path::PathBuf>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            drafts: false,
            comments: false,
            max_file_size: 64 * 1024 * 1024,
            max_posts: 100_000,
            fetch_images: None,
        }
    }
}

/// Everything a reader found.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    /// The site as a whole: the book's title, author and languages.
    pub site: Site,
    /// The posts, in any order (the writer sorts them by date).
    /// Drafts are here only when [`ImportOptions::drafts`] asked for them.
    pub posts: Vec<Post>,
    /// Warnings (never errors) with their place: unknown front-matter keys,
    /// shortcodes kept as text, images left behind, drafts left out…
    pub warnings: Vec<Diagnostic>,
}

/// The site: what becomes the book's `book.toml`.
#[derive(Clone, Debug, Default)]
pub struct Site {
    /// The site's title (`title` of hugo.toml, _config.yml…), if it has one.
    pub title: Option<String>,
    /// Its description or tagline, if any.
    pub description: Option<String>,
    /// A title or description of one language, where the site gives one
    /// (Hugo's and Zola's `[languages.x] title`), keyed by the language
    /// as the source writes it; the others take `title` and `description`.
    pub translated: Vec<Translated>,
    /// The author's name, if the site says it.
    pub author: Option<String>,
    /// Its languages as the source writes them (`pt-br`, `pt_BR`, `en`),
    /// the default (original) language first. Empty when the source does
    /// not say: the writer then takes the posts' languages.
    pub languages: Vec<String>,
    /// The site's address (`baseURL`, `url` + `baseurl`, `base_url`,
    /// the feed's link), used to recognise links to its own posts.
    pub base_url: Option<String>,
    /// Where the site's configuration was read, for messages.
    pub config: Option<Place>,
}

/// The site's title and description in one of its languages.
#[derive(Clone, Debug, Default)]
pub struct Translated {
    /// The language, as the source writes it (`pt-br`).
    pub lang: String,
    /// The title in that language, if the site gives one.
    pub title: Option<String>,
    /// The description in that language, if the site gives one.
    pub description: Option<String>,
}

/// Whether a post was public.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Status {
    /// Published.
    #[default]
    Published,
    /// A draft (`draft: true`, `_drafts/`, WordPress "draft"…).
    Draft,
    /// Published for some readers only (WordPress "private", Ghost members,
    /// Substack paid posts), or scheduled for later.
    Private,
}

/// One post in one language.
#[derive(Clone, Debug, Default)]
pub struct Post {
    /// The slug as the source gives it (`slug:` or the file or folder
    /// name, the date prefix removed); the writer makes it a stoa slug.
    /// The translations of one post share a slug or a translation key.
    pub slug: String,
    /// The language as the source writes it (`pt-br`, `en`); `None` when
    /// the source does not say: the site's first language.
    pub lang: Option<String>,
    /// The title, plain text.
    pub title: String,
    /// The date, ISO 8601: `2024-05-31`, or with a time
    /// (`2024-05-31T10:00:00+02:00`), which orders posts of one day.
    pub date: Option<String>,
    /// Published, draft or private.
    pub status: Status,
    /// Tags, plain text.
    pub tags: Vec<String>,
    /// Categories, plain text (stoa has none: the writer adds them to tags).
    pub categories: Vec<String>,
    /// A one-sentence description or summary, plain text.
    pub description: Option<String>,
    /// Pairs translations: the posts with the same key (Hugo's
    /// `translationKey`, a polyglot `lang_id`…) are one post in several
    /// languages. `None`: the slug pairs them.
    pub translation_key: Option<String>,
    /// The body, Markdown, with nothing of the source tool's syntax left.
    pub body: String,
    /// The images the body shows, by the name it uses for them.
    pub images: Vec<Image>,
    /// The addresses the post had on the site: its permalink (absolute or
    /// from the site's root, `/posts/slug/`) and its aliases. Links to any
    /// of them, in any post, become links to this post's chapter.
    pub urls: Vec<String>,
    /// Where the post was read (the file and the line of its front matter
    /// or of its item in an export), for messages.
    pub source: Place,
}

/// An image a post shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// The name the body uses (`![alt](name)`): a relative path of plain
    /// segments (`figure.png`, `img/figure.png`). The writer puts the image
    /// beside the post under its last segment, renaming on a clash and
    /// rewriting the body to match.
    pub name: String,
    /// Its bytes.
    pub data: ImageData,
}

/// Where an image's bytes are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageData {
    /// Read already (from a zip, from an export).
    Bytes(Vec<u8>),
    /// A file inside the source folder, checked by the reader to be a
    /// regular file that does not leave it; the writer copies it.
    Path(PathBuf),
}

/// A place in the source, for messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The file as the user would type it (relative to the current folder
    /// when it can be).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
}

impl Place {
    /// A place in `file` at `line`.
    pub fn new(file: impl Into<String>, line: Option<usize>) -> Self {
        Place {
            file: file.into(),
            line,
        }
    }

    /// A warning here.
    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        self.located(Diagnostic::warning(message))
    }

    /// An error here.
    pub fn error(&self, message: impl Into<String>) -> Diagnostic {
        self.located(Diagnostic::error(message))
    }

    /// `diagnostic` at this place.
    pub fn located(&self, diagnostic: Diagnostic) -> Diagnostic {
        let d = diagnostic.in_file(&self.file);
        match self.line {
            Some(line) => Diagnostic {
                line: Some(line),
                ..d
            },
            None => d,
        }
    }

    /// This place, `lines` lines further down (for a line inside a body
    /// that starts at this place).
    pub fn down(&self, lines: usize) -> Place {
        Place {
            file: self.file.clone(),
            line: self.line.map(|l| l + lines),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_their_names() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(Kind::from_name("WordPress"), Some(Kind::WordPress));
        assert_eq!(Kind::from_name("blogger"), None);
    }

    #[test]
    fn places_locate_diagnostics() {
        let place = Place::new("content/a.md", Some(3));
        let d = place.down(2).warning("w");
        assert_eq!(d.to_string(), "content/a.md:5: warning: w");
        assert_eq!(Place::new("f", None).to_string(), "f");
    }
}
