//! The status matrix of a book: for each post and each of the book's
//! languages, whether the file is the source, an up-to-date or stale
//! translation, not marked, missing, or the only one.

use crate::compare::{Comparison, Stale, compare};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use stoa_book::{BookConfig, PostHeader, read_header};
use stoa_doc::Diagnostic;

/// One post in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The original: another language's file says it translates this one.
    Source,
    /// A translation of this language, as its source is now.
    UpToDate {
        /// The source's language.
        from: String,
    },
    /// A translation whose source changed since it was marked.
    Stale(Box<Stale>),
    /// The post has files in other languages, and none says which
    /// translates which.
    Unmarked,
    /// The post has no file in this language, but has in others.
    Missing,
    /// The post exists in this language only.
    Only,
    /// The file cannot be read or its front matter is wrong.
    Error(Vec<Diagnostic>),
}

impl Cell {
    /// The word the matrix prints in the column of `lang`.
    pub fn word(&self, lang: &str) -> String {
        match self {
            Cell::Source => "source".into(),
            Cell::UpToDate { .. } => "up to date".into(),
            Cell::Stale(_) => "STALE".into(),
            Cell::Unmarked => "not marked".into(),
            Cell::Missing => "missing".into(),
            Cell::Only => format!("only in {lang}"),
            Cell::Error(_) => "ERROR".into(),
        }
    }
}

/// One post's row.
#[derive(Clone, Debug)]
pub struct Row {
    /// The post's slug.
    pub slug: String,
    /// The post's folder.
    pub folder: PathBuf,
    /// One cell per language of the book, in the book's order.
    pub cells: Vec<Cell>,
}

/// The matrix of one book.
#[derive(Clone, Debug)]
pub struct BookStatus {
    /// The book's id.
    pub id: String,
    /// Its `book.toml`, as diagnostics name it.
    pub file: String,
    /// Its languages, the matrix's columns.
    pub languages: Vec<String>,
    /// Its posts in reading order, then the about-the-author page.
    pub rows: Vec<Row>,
}

impl BookStatus {
    /// Every stale translation, with its language.
    pub fn stale(&self) -> impl Iterator<Item = (&Row, &str, &Stale)> {
        self.cells().filter_map(|(row, lang, cell)| match cell {
            Cell::Stale(stale) => Some((row, lang, &**stale)),
            _ => None,
        })
    }

    /// Every cell with its row and language.
    pub fn cells(&self) -> impl Iterator<Item = (&Row, &str, &Cell)> {
        self.rows.iter().flat_map(move |row| {
            row.cells
                .iter()
                .zip(&self.languages)
                .map(move |(cell, lang)| (row, lang.as_str(), cell))
        })
    }
}

/// The matrix of the book `config`.
pub fn book_status(config: &BookConfig) -> BookStatus {
    let languages: Vec<String> = config.languages.iter().map(|l| l.tag.clone()).collect();
    let mut slugs: Vec<&str> = config.posts.iter().map(|(s, _)| s.as_str()).collect();
    if let Some((about, _)) = &config.about {
        slugs.push(about);
    }
    let rows = slugs
        .iter()
        .map(|slug| {
            let folder = config.posts_dir.join(slug);
            let post = PostFiles::read(&folder);
            let cells = languages.iter().map(|lang| post.cell(lang)).collect();
            Row {
                slug: slug.to_string(),
                folder,
                cells,
            }
        })
        .collect();
    BookStatus {
        id: config.id.clone(),
        file: config.file.clone(),
        languages,
        rows,
    }
}

/// The files of one post folder, read once: language -> front matter.
struct PostFiles {
    files: BTreeMap<String, Result<PostHeader, Vec<Diagnostic>>>,
    folder: PathBuf,
}

impl PostFiles {
    fn read(folder: &Path) -> Self {
        let files = languages_of(folder)
            .into_iter()
            .map(|lang| {
                let header = read_header(&folder.join(format!("{lang}.md")));
                (lang, header)
            })
            .collect();
        PostFiles {
            files,
            folder: folder.to_path_buf(),
        }
    }

    fn cell(&self, lang: &str) -> Cell {
        let Some(file) = self.files.get(lang) else {
            if self.files.is_empty() {
                let message = format!("{} holds no post", self.folder.display());
                return Cell::Error(vec![Diagnostic::error(message)]);
            }
            return Cell::Missing;
        };
        let header = match file {
            Ok(h) => h,
            Err(errors) => return Cell::Error(errors.clone()),
        };
        if let Some(record) = &header.translation_of {
            let source = match self.files.get(&record.lang) {
                Some(Ok(source)) => source,
                Some(Err(errors)) => return Cell::Error(errors.clone()),
                None => {
                    return Cell::Error(vec![
                        Diagnostic::error(format!("the source `{}` is gone", record.lang))
                            .in_file(&header.file.display)
                            .at(record.line, 1),
                    ]);
                }
            };
            if source
                .translation_of
                .as_ref()
                .is_some_and(|back| back.lang == lang)
            {
                return Cell::Error(vec![
                    Diagnostic::error(format!(
                        "{} and {} each say they translate the other",
                        header.file.display, source.file.display
                    ))
                    .in_file(&header.file.display)
                    .at(record.line, 1)
                    .with_hint("a post has one original: remove `translation-of` from it"),
                ]);
            }
            return match compare(source, header, record) {
                Comparison::UpToDate => Cell::UpToDate {
                    from: record.lang.clone(),
                },
                Comparison::Stale(stale) => Cell::Stale(stale),
            };
        }
        let translated = self.files.values().any(|other| {
            other
                .as_ref()
                .ok()
                .and_then(|h| h.translation_of.as_ref())
                .is_some_and(|t| t.lang == lang)
        });
        if translated {
            Cell::Source
        } else if self.files.len() == 1 {
            Cell::Only
        } else {
            Cell::Unmarked
        }
    }
}

/// The languages a post folder has a Markdown file for, sorted.
pub fn languages_of(folder: &Path) -> Vec<String> {
    stoa_book::post_languages(folder)
}
