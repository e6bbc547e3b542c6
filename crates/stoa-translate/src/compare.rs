//! One translation against its source: up to date, or stale with the
//! blocks that changed, located in both files.

use crate::align::{Divergence, Edit, check_shape, diff};
use crate::fingerprint::{fingerprint, paragraph_digests, split_digests};
use crate::text::{Block, blocks};
use stoa_book::{PostHeader, TranslationOf};

/// A block of one file, for a report: where it is and how it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file, as diagnostics name it.
    pub file: String,
    /// The block's first line.
    pub line: usize,
    /// The block's first words.
    pub excerpt: String,
}

/// What happened to one block of the source since the translation was marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Rewritten.
    Changed,
    /// New in the source.
    Added,
    /// No longer in the source.
    Removed,
}

/// One changed block: in the source as it is (none when removed) and the
/// block of the translation that translates its old text (none when it is
/// new, or when the shapes diverge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What happened.
    pub kind: ChangeKind,
    /// The block in the source now.
    pub source: Option<Place>,
    /// Its counterpart in the translation.
    pub translation: Option<Place>,
}

/// A translation whose source changed since it was marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stale {
    /// The source file.
    pub source_file: String,
    /// The translation file.
    pub translation_file: String,
    /// The line of `translation-of` in the translation.
    pub key_line: usize,
    /// The changed blocks; empty when the mark did not record the blocks
    /// (the changes cannot be told apart then).
    pub changes: Vec<Change>,
    /// Set when the translation's blocks do not line up with the source's.
    pub divergence: Option<Divergence>,
    /// Where the shapes part, in the translation and the source, when known.
    pub divergence_at: Option<(Place, Option<Place>)>,
}

impl Stale {
    /// The place to point a diagnostic at: the first change's block in the
    /// translation, else the `translation-of` key.
    pub fn first_line(&self) -> usize {
        self.changes
            .iter()
            .find_map(|c| c.translation.as_ref().map(|p| p.line))
            .unwrap_or(self.key_line)
    }
}

/// The state of a translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// The source is as it was when the translation was marked.
    UpToDate,
    /// The source changed since.
    Stale(Box<Stale>),
}

/// How many characters of a block a report quotes.
const EXCERPT_CHARS: usize = 60;

/// The first words of `text`, cut at a word with an ellipsis.
pub fn excerpt(text: &str) -> String {
    if text.chars().count() <= EXCERPT_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(EXCERPT_CHARS).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > EXCERPT_CHARS / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end())
}

fn place(file: &str, block: &Block) -> Place {
    Place {
        file: file.to_string(),
        line: block.line,
        excerpt: excerpt(&block.text),
    }
}

/// The fingerprint and block digests `stoa translations mark` records for
/// a source.
pub fn mark_of(source: &PostHeader) -> (String, String) {
    let blocks = blocks(source);
    (fingerprint(&blocks), paragraph_digests(&blocks))
}

/// Compares `translation`, which says it translates `source` as `record`.
pub fn compare(
    source: &PostHeader,
    translation: &PostHeader,
    record: &TranslationOf,
) -> Comparison {
    let current = blocks(source);
    if fingerprint(&current) == record.fingerprint {
        return Comparison::UpToDate;
    }
    let translated = blocks(translation);
    let source_file = source.file.display.clone();
    let translation_file = translation.file.display.clone();
    let mut stale = Stale {
        source_file: source_file.clone(),
        translation_file: translation_file.clone(),
        key_line: record.line,
        changes: Vec::new(),
        divergence: None,
        divergence_at: None,
    };
    if record.paragraphs.is_empty() {
        return Comparison::Stale(Box::new(stale));
    }
    let old = split_digests(&record.paragraphs);
    let now_digests = paragraph_digests(&current);
    let now = split_digests(&now_digests);
    let edits = diff(&old, &now);
    let aligned = match check_shape(old.len(), &current, &edits, &translated) {
        Ok(()) => true,
        Err(divergence) => {
            stale.divergence_at = divergence.first_difference.and_then(|i| {
                let t = translated.get(i).or(translated.last())?;
                Some((
                    place(&translation_file, t),
                    current.get(i).map(|s| place(&source_file, s)),
                ))
            });
            stale.divergence = Some(divergence);
            false
        }
    };
    let counterpart = |old: usize| {
        aligned
            .then(|| translated.get(old).map(|t| place(&translation_file, t)))
            .flatten()
    };
    for edit in edits {
        let change = match edit {
            Edit::Same { .. } => continue,
            Edit::Changed { old, new } => Change {
                kind: ChangeKind::Changed,
                source: Some(place(&source_file, &current[new])),
                translation: counterpart(old),
            },
            Edit::Added { new } => Change {
                kind: ChangeKind::Added,
                source: Some(place(&source_file, &current[new])),
                translation: None,
            },
            Edit::Removed { old } => Change {
                kind: ChangeKind::Removed,
                source: None,
                translation: counterpart(old),
            },
        };
        stale.changes.push(change);
    }
    Comparison::Stale(Box::new(stale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_cut_at_a_word() {
        assert_eq!(excerpt("short"), "short");
        let long = "word ".repeat(30);
        let cut = excerpt(long.trim());
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= EXCERPT_CHARS + 1);
    }
}

#[cfg(test)]
mod compare_tests {
    use super::*;
    use stoa_book::read_header;

    /// A post folder with `pt-BR.md` (the source) and `en.md` marked as
    /// translating `marked_source`; then the source is `source`.
    fn compare_after(marked_source: &str, source: &str, translation: &str) -> Comparison {
        let dir = tempfile::tempdir().unwrap();
        let pt = dir.path().join("pt-BR.md");
        let en = dir.path().join("en.md");
        std::fs::write(&pt, format!("+++\ntitle = \"T\"\n+++\n\n{marked_source}")).unwrap();
        let (fingerprint, paragraphs) = mark_of(&read_header(&pt).unwrap());
        std::fs::write(&pt, format!("+++\ntitle = \"T\"\n+++\n\n{source}")).unwrap();
        std::fs::write(
            &en,
            format!(
                "+++\ntitle = \"T\"\ntranslation-of = {{ lang = \"pt-BR\", fingerprint = \"{fingerprint}\", paragraphs = \"{paragraphs}\" }}\n+++\n\n{translation}"
            ),
        )
        .unwrap();
        let source = read_header(&pt).unwrap();
        let translation = read_header(&en).unwrap();
        let record = translation.translation_of.clone().unwrap();
        compare(&source, &translation, &record)
    }

    #[test]
    fn an_unchanged_source_is_up_to_date_whatever_its_whitespace() {
        let c = compare_after("Um.\n\nDois.\n", "Um.  \n\n\n Dois.", "One.\n\nTwo.\n");
        assert_eq!(c, Comparison::UpToDate);
    }

    #[test]
    fn a_changed_paragraph_is_located_in_both_files() {
        let c = compare_after("Um.\n\nDois.\n", "Um.\n\nDois, três.\n", "One.\n\nTwo.\n");
        let Comparison::Stale(stale) = c else {
            panic!("{c:?}")
        };
        assert_eq!(stale.changes.len(), 1);
        let change = &stale.changes[0];
        assert_eq!(change.kind, ChangeKind::Changed);
        let source = change.source.as_ref().unwrap();
        assert_eq!((source.line, source.excerpt.as_str()), (7, "Dois, três."));
        let translation = change.translation.as_ref().unwrap();
        assert_eq!(
            (translation.line, translation.excerpt.as_str()),
            (8, "Two.")
        );
        assert_eq!(stale.first_line(), 8);
        assert!(stale.divergence.is_none());
    }

    #[test]
    fn a_merged_translation_is_not_guessed_at() {
        let c = compare_after("Um.\n\nDois.\n", "Um!\n\nDois.\n", "One. Two.\n");
        let Comparison::Stale(stale) = c else {
            panic!("{c:?}")
        };
        assert!(stale.divergence.is_some());
        assert!(stale.changes.iter().all(|c| c.translation.is_none()));
        assert_eq!(stale.first_line(), 3, "the key's line");
    }
}
