//! What to build and where: the options of one build, and the formats it
//! may write.

use std::path::PathBuf;
use stoa_book::BookConfig;
use stoa_doc::Diagnostic;
use stoa_render::{Renderer, Renderers};

/// What to build and where.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The folder that holds one folder per book.
    pub books_dir: PathBuf,
    /// The folder that holds one folder per theme.
    pub themes_dir: PathBuf,
    /// Where artifacts go: `<out>/<book>/<book>-<lang>.<ext>`.
    pub out_dir: PathBuf,
    /// Book ids to build; empty means all.
    pub books: Vec<String>,
    /// Languages to build; empty means all.
    pub languages: Vec<String>,
    /// The formats to build, by name (`epub`, `pdf`, `html`): each a
    /// renderer of [`BuildOptions::renderers`].
    pub formats: Vec<&'static str>,
    /// The formats this build knows: stoa's own (see `stoa-renderers`),
    /// or more.
    pub renderers: Renderers,
    /// Worker threads; `None` means one per core.
    pub jobs: Option<usize>,
    /// Also write the renderers' intermediate sources (the generated
    /// Typst) beside each artifact.
    pub emit_sources: bool,
    /// SOURCE_DATE_EPOCH, for the modification date in the metadata.
    pub source_date_epoch: Option<i64>,
    /// Also write the download page (index.html) and the OPDS catalogs.
    pub site: bool,
    /// Make stale translations errors instead of warnings (`--deny-stale`).
    pub deny_stale: bool,
    /// Folders to look for plugins in first (`--plugin-dir`).
    pub plugin_dirs: Vec<PathBuf>,
    /// The value of STOA_PLUGIN_PATH, if set.
    pub plugin_path: Option<std::ffi::OsString>,
    /// The folder of the stoa executable, searched last.
    pub exe_dir: Option<PathBuf>,
    /// Which native libraries a book's own `plugin-dir` may make stoa
    /// load: the user's trust list, or every library for one run. Nothing,
    /// by default.
    pub trust: std::sync::Arc<stoa_plugin_host::Trust>,
}

impl BuildOptions {
    /// Every book, language and format of `books_dir` into `out_dir`, with
    /// the themes of `themes_dir`, one worker per core: what `stoa build`
    /// does with no options but `--no-site`. Change the fields to narrow it.
    pub fn new(books_dir: PathBuf, themes_dir: PathBuf, out_dir: PathBuf) -> BuildOptions {
        let renderers = stoa_renderers::builtin();
        BuildOptions {
            books_dir,
            themes_dir,
            out_dir,
            books: Vec::new(),
            languages: Vec::new(),
            formats: renderers.names(),
            renderers,
            jobs: None,
            emit_sources: false,
            source_date_epoch: None,
            site: false,
            deny_stale: false,
            plugin_dirs: Vec::new(),
            plugin_path: None,
            exe_dir: None,
            trust: Default::default(),
        }
    }

    /// The same options with `renderers` as the formats known, and all of
    /// them built.
    pub fn with_renderers(mut self, renderers: Renderers) -> BuildOptions {
        self.formats = renderers.names();
        self.renderers = renderers;
        self
    }

    /// The renderers of the formats to build, in build order; an error for
    /// a format no renderer writes.
    pub(crate) fn selected(&self) -> Result<Vec<&'static dyn Renderer>, Diagnostic> {
        for name in &self.formats {
            if self.renderers.get(name).is_none() {
                let names = self.renderers.names();
                let known = names.join(", ");
                let hint = match stoa_book::suggest::closest(name, &names) {
                    Some(near) => format!("did you mean `{near}`? The formats are: {known}"),
                    None => format!("the formats are: {known}"),
                };
                return Err(
                    Diagnostic::error(format!("stoa writes no format `{name}`")).with_hint(hint)
                );
            }
        }
        Ok(self
            .formats
            .iter()
            .map(|name| self.renderer(name))
            .collect())
    }

    /// The languages of `config` this build makes, in book.toml's order.
    pub(crate) fn languages_of(&self, config: &BookConfig) -> Vec<String> {
        config
            .languages
            .iter()
            .filter(|l| self.languages.is_empty() || self.languages.contains(&l.tag))
            .map(|l| l.tag.clone())
            .collect()
    }

    /// The renderer of the format `name`, which [`BuildOptions::selected`]
    /// found.
    pub(crate) fn renderer(&self, name: &str) -> &'static dyn Renderer {
        self.renderers
            .get(name)
            .expect("every format of a build has a renderer (checked first)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_format_is_an_error_that_names_the_formats() {
        let mut options = BuildOptions::new("b".into(), "t".into(), "o".into());
        assert_eq!(options.selected().unwrap().len(), 3);
        options.formats = vec!["html", "epub"];
        let names: Vec<&str> = options
            .selected()
            .unwrap()
            .iter()
            .map(|r| r.name())
            .collect();
        assert_eq!(names, ["html", "epub"], "in the order asked");
        options.formats = vec!["epbu"];
        let Err(error) = options.selected() else {
            panic!("`epbu` is no format");
        };
        let error = error.to_string();
        assert!(error.contains("no format `epbu`"), "{error}");
        assert!(error.contains("did you mean `epub`"), "{error}");
    }
}
