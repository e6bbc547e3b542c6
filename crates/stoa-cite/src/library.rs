//! The bibliography file: read once per book, its errors at their line.

use crate::error::{SourceError, line_column};
use hayagriva::io::BibLaTeXError;

/// The entries of a bibliography file, by key, in the file's order.
#[derive(Debug)]
pub struct Library {
    inner: hayagriva::Library,
}

impl Library {
    /// Reads a bibliography from `text`, in the format its file name's
    /// extension says: `.bib` (BibTeX or BibLaTeX), `.json` (CSL-JSON, as
    /// Zotero exports it) or `.yaml`/`.yml` (hayagriva's YAML).
    pub fn parse(file_name: &str, text: &str) -> Result<Self, SourceError> {
        let extension = file_name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase());
        let inner = match extension.as_deref() {
            Some("bib") => from_bib(text)?,
            Some("yaml" | "yml") => from_yaml(text)?,
            // The converted text is not the file: a value hayagriva refuses
            // is told at the file's start, with hayagriva's words.
            Some("json") => {
                from_yaml(&crate::csl_json::to_hayagriva(text)?).map_err(|e| SourceError {
                    line: 1,
                    column: 1,
                    message: e.message.replacen("YAML:", "CSL-JSON:", 1),
                })?
            }
            _ => {
                return Err(SourceError {
                    line: 1,
                    column: 1,
                    message: format!(
                        "`{file_name}` is not a bibliography format stoa reads: \
                         name it .bib (BibTeX or BibLaTeX), .json (CSL-JSON) or .yaml \
                         (hayagriva)"
                    ),
                });
            }
        };
        Ok(Library { inner })
    }

    /// Whether an entry has this key.
    pub fn contains(&self, key: &str) -> bool {
        self.inner.get(key).is_some()
    }

    /// The keys, in the file's order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.inner.iter().map(|entry| entry.key())
    }

    /// How many entries the file has.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the file has no entry.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The key closest to a mistyped one, for "did you mean".
    pub fn suggest(&self, key: &str) -> Option<&str> {
        self.keys()
            .map(|k| (strsim::normalized_damerau_levenshtein(key, k), k))
            .filter(|(score, _)| *score >= 0.6)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, k)| k)
    }

    pub(crate) fn entry(&self, key: &str) -> Option<&hayagriva::Entry> {
        self.inner.get(key)
    }
}

fn from_bib(text: &str) -> Result<hayagriva::Library, SourceError> {
    // The parser resolves @strings and crossrefs by recursion: a cycle
    // would end the process, so the file's references are checked first.
    crate::bib_graph::check(text)?;
    hayagriva::io::from_biblatex_str(text).map_err(|errors| {
        let first = errors.into_iter().next();
        let (span, message) = match first {
            Some(BibLaTeXError::Parse(e)) => (e.span.start, e.kind.to_string()),
            Some(BibLaTeXError::Type(e)) => (e.span.start, e.kind.to_string()),
            None => (0, "the file could not be read".to_string()),
        };
        let (line, column) = line_column(text, span);
        SourceError {
            line,
            column,
            message: format!("BibTeX: {message}"),
        }
    })
}

fn from_yaml(text: &str) -> Result<hayagriva::Library, SourceError> {
    hayagriva::io::from_yaml_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |at| (at.line(), at.column()));
        // serde_yaml's message ends with its own "at line … column …".
        let message = e.to_string();
        let message = message
            .split_once(" at line ")
            .map_or(message.as_str(), |(head, _)| head);
        SourceError {
            line,
            column,
            message: format!("YAML: {message}"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIB: &str = "@book{plato-republic,\n  author = {Plato},\n  title = {The Republic},\n  year = {1992},\n  publisher = {Hackett},\n}\n\n@article{kleppmann2017,\n  author = {Kleppmann, Martin},\n  title = {Designing Data-Intensive Applications},\n  year = {2017},\n  journal = {O'Reilly},\n}\n";

    #[test]
    fn reads_bibtex_keys_in_order() {
        let library = Library::parse("refs.bib", BIB).unwrap();
        assert_eq!(
            library.keys().collect::<Vec<_>>(),
            ["plato-republic", "kleppmann2017"]
        );
        assert!(library.contains("kleppmann2017"));
        assert!(!library.contains("kleppmann"));
        assert_eq!(library.suggest("kleppman2017"), Some("kleppmann2017"));
        assert_eq!(library.suggest("zzz"), None);
    }

    #[test]
    fn bibtex_errors_name_their_line() {
        let broken = "@book{a,\n  title = {A},\n}\n\n@book{b,\n  title = {B\n}\n";
        let error = Library::parse("refs.bib", broken).unwrap_err();
        assert!(error.line >= 5, "{error}");
        assert!(error.message.starts_with("BibTeX: "), "{error}");
    }

    /// Each of these ended the process with a stack overflow inside the
    /// parser (exit 134, no message) before the file's references were
    /// checked first.
    #[test]
    fn reference_cycles_are_errors_at_their_line_not_a_crash() {
        for (text, line, words) in [
            (
                "@string{s = s # s}\n@book{a, title = s}\n",
                1,
                "built from itself",
            ),
            (
                "@book{a, title = {A}}\n@book{b, crossref = {b}}\n",
                2,
                "takes its fields from itself",
            ),
            (
                "@book{a, xdata = {b}}\n@xdata{b, xdata = {a}}\n",
                1,
                "(a → b → a)",
            ),
        ] {
            let error = Library::parse("refs.bib", text).unwrap_err();
            assert_eq!(error.line, line, "{error}");
            assert!(error.message.contains(words), "{error}");
        }
    }

    #[test]
    fn reads_hayagriva_yaml_and_reports_its_line() {
        let yaml = "turing:\n  type: article\n  title: Computing Machinery and Intelligence\n  author: Turing, Alan\n  date: 1950\n";
        let library = Library::parse("refs.yaml", yaml).unwrap();
        assert_eq!(library.len(), 1);
        let error = Library::parse("refs.yml", "turing:\n  type: article\n  title: [unclosed\n")
            .unwrap_err();
        assert!(error.line >= 3, "{error}");
        assert!(error.message.starts_with("YAML: "), "{error}");
    }

    #[test]
    fn an_unknown_extension_says_which_ones_are_read() {
        let error = Library::parse("refs.ris", "TY  - BOOK").unwrap_err();
        assert!(error.message.contains(".bib"), "{error}");
        assert!(error.message.contains(".json (CSL-JSON)"), "{error}");
    }
}
