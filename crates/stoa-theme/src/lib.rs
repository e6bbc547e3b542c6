//! The themes: the `classic` theme built into stoa (its style sheets, Typst
//! template and code colours, compiled into the binary), and the folders
//! `themes/<name>/` of a project, which override a built-in theme of the same name.
//!
//! Renderers read a theme's files through [`Theme::read`], whichever kind it
//! is, so a book looks the same built by an installed `stoa` anywhere and
//! from this repository. As in mdBook, a folder named after a built-in theme
//! need only hold the files the author changed: the others are the built-in
//! theme's. Fonts are not part of the classic theme: Typst's
//! embedded fonts (typst-assets) are; a folder theme may add its own in `fonts/`.

use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

/// The name of the built-in theme, and the default of `theme` in book.toml.
pub const CLASSIC: &str = "classic";

/// The files of the built-in classic theme, by name; the same bytes as
/// `themes/classic/` of stoa's repository when stoa was compiled.
pub const CLASSIC_FILES: &[(&str, &[u8])] = &[
    (
        "book.typ",
        include_bytes!("../../../themes/classic/book.typ"),
    ),
    (
        "code.tmTheme",
        include_bytes!("../../../themes/classic/code.tmTheme"),
    ),
    (
        "epub.css",
        include_bytes!("../../../themes/classic/epub.css"),
    ),
    ("web.css", include_bytes!("../../../themes/classic/web.css")),
];

/// The names of the built-in themes.
pub const BUILTIN_THEMES: &[&str] = &[CLASSIC];

/// A theme a book is built with: a folder, or one built into stoa.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Theme {
    name: String,
    /// The folder; `None` for a built-in theme.
    dir: Option<PathBuf>,
}

impl Theme {
    /// The theme in folder `dir`, called `name` in book.toml.
    pub fn folder(name: impl Into<String>, dir: impl Into<PathBuf>) -> Theme {
        Theme {
            name: name.into(),
            dir: Some(dir.into()),
        }
    }

    /// The built-in theme `name`, if stoa has one.
    pub fn builtin(name: &str) -> Option<Theme> {
        BUILTIN_THEMES.contains(&name).then(|| Theme {
            name: name.to_string(),
            dir: None,
        })
    }

    /// The theme `name` of a project: the folder `themes_dir/<name>` when
    /// it exists (an author's theme, or the classic one exported to be
    /// changed), else the built-in theme of that name; `None` when neither.
    pub fn resolve(themes_dir: &Path, name: &str) -> Option<Theme> {
        let dir = themes_dir.join(name);
        if dir.is_dir() {
            return Some(Theme::folder(name, dir));
        }
        Theme::builtin(name)
    }

    /// The theme's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its folder, or `None` when it is built in.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// True for a theme compiled into stoa.
    pub fn is_builtin(&self) -> bool {
        self.dir.is_none()
    }

    /// The same theme with its folder made canonical, so that a path
    /// checked against it cannot leave it through `..` or a link.
    pub fn canonical(&self) -> io::Result<Theme> {
        match &self.dir {
            None => Ok(self.clone()),
            Some(dir) => Ok(Theme::folder(self.name.clone(), dir.canonicalize()?)),
        }
    }

    /// Whether the theme has `file` (a `/`-separated path inside it).
    pub fn has(&self, file: &str) -> bool {
        match &self.dir {
            Some(dir) => dir.join(file).is_file() || self.fallback(file).is_some(),
            None => builtin_file(file).is_some(),
        }
    }

    /// The built-in file standing in for `file`, which a folder named after
    /// a built-in theme does not hold; `None` when the folder holds it (or
    /// when this theme is no built-in one's).
    pub fn fallback(&self, file: &str) -> Option<&'static [u8]> {
        let dir = self.dir.as_ref()?;
        if !BUILTIN_THEMES.contains(&self.name.as_str()) || dir.join(file).exists() {
            return None;
        }
        builtin_file(file)
    }

    /// The bytes of `file` (a `/`-separated path inside the theme). A
    /// folder theme's file is read from disk (or, missing from a folder named
    /// after a built-in theme, is the built-in one's); a built-in one's is in stoa.
    pub fn read(&self, file: &str) -> io::Result<Cow<'static, [u8]>> {
        match &self.dir {
            Some(dir) => match std::fs::read(dir.join(file)) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    self.fallback(file).map(Cow::Borrowed).ok_or(e)
                }
                read => read.map(Cow::Owned),
            },
            None => builtin_file(file).map(Cow::Borrowed).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("the built-in theme `{}` has no file {file}", self.name),
                )
            }),
        }
    }

    /// `file` as text; an error when it is missing or not UTF-8.
    pub fn read_to_string(&self, file: &str) -> io::Result<String> {
        let bytes = self.read(file)?.into_owned();
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// How to name `file` of this theme in a message: its path, or
    /// "epub.css of the built-in theme `classic`".
    pub fn describe(&self, file: &str) -> String {
        match &self.dir {
            Some(dir) => dir.join(file).display().to_string(),
            None => format!("{file} of the built-in theme `{}`", self.name),
        }
    }
}

/// A file of the built-in classic theme.
fn builtin_file(file: &str) -> Option<&'static [u8]> {
    let file = file.trim_start_matches("./");
    CLASSIC_FILES
        .iter()
        .find(|(name, _)| *name == file)
        .map(|(_, bytes)| *bytes)
}

/// Why [`export`] wrote nothing.
#[derive(Debug)]
pub enum ExportError {
    /// No built-in theme has this name.
    Unknown(String),
    /// These files exist already and `force` was not given.
    Exists(Vec<PathBuf>),
    /// Writing failed.
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Unknown(name) => write!(
                f,
                "stoa has no built-in theme `{name}`; it has: {}",
                BUILTIN_THEMES.join(", ")
            ),
            ExportError::Exists(files) => {
                let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                write!(f, "{} already exist(s): {}", names.len(), names.join(", "))
            }
            ExportError::Io(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for ExportError {}

/// Writes the built-in theme `name` into `dir` (created if needed), for an
/// author to change; returns the files written. A file that exists is an
/// error, and nothing is written, unless `force`.
pub fn export(name: &str, dir: &Path, force: bool) -> Result<Vec<PathBuf>, ExportError> {
    if !BUILTIN_THEMES.contains(&name) {
        return Err(ExportError::Unknown(name.to_string()));
    }
    let targets: Vec<(PathBuf, &[u8])> = CLASSIC_FILES
        .iter()
        .map(|(file, bytes)| (dir.join(file), *bytes))
        .collect();
    let existing: Vec<PathBuf> = targets
        .iter()
        .filter(|(path, _)| path.exists())
        .map(|(path, _)| path.clone())
        .collect();
    if !existing.is_empty() && !force {
        return Err(ExportError::Exists(existing));
    }
    std::fs::create_dir_all(dir).map_err(|e| ExportError::Io(dir.to_path_buf(), e))?;
    for (path, bytes) in &targets {
        std::fs::write(path, bytes).map_err(|e| ExportError::Io(path.clone(), e))?;
    }
    Ok(targets.into_iter().map(|(path, _)| path).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_overrides_the_builtin_theme() {
        let tmp = tempfile::tempdir().unwrap();
        let builtin = Theme::resolve(tmp.path(), CLASSIC).unwrap();
        assert!(builtin.is_builtin());
        assert!(builtin.read_to_string("epub.css").unwrap().contains("body"));
        std::fs::create_dir_all(tmp.path().join("classic")).unwrap();
        std::fs::write(tmp.path().join("classic/epub.css"), "p {}").unwrap();
        let folder = Theme::resolve(tmp.path(), CLASSIC).unwrap();
        assert_eq!(folder.dir(), Some(tmp.path().join("classic").as_path()));
        assert_eq!(folder.read_to_string("epub.css").unwrap(), "p {}");
        // The files the folder leaves out are the built-in theme's.
        assert!(folder.has("book.typ"));
        assert_eq!(
            folder.read("web.css").unwrap().as_ref(),
            builtin.read("web.css").unwrap().as_ref()
        );
        assert!(folder.fallback("epub.css").is_none());
        // Another theme's folder gets nothing from the built-in one.
        std::fs::create_dir_all(tmp.path().join("modern")).unwrap();
        let modern = Theme::resolve(tmp.path(), "modern").unwrap();
        assert!(!modern.has("web.css") && modern.read("web.css").is_err());
        assert!(Theme::resolve(tmp.path(), "other").is_none());
    }

    #[test]
    fn a_missing_builtin_file_is_an_error_naming_it() {
        let theme = Theme::builtin(CLASSIC).unwrap();
        let e = theme.read("fonts/x.ttf").unwrap_err();
        assert!(e.to_string().contains("fonts/x.ttf"), "{e}");
        assert!(
            theme
                .describe("epub.css")
                .contains("built-in theme `classic`")
        );
    }

    #[test]
    fn export_writes_the_theme_and_refuses_to_overwrite() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("themes/classic");
        let written = export(CLASSIC, &dir, false).unwrap();
        assert_eq!(written.len(), CLASSIC_FILES.len());
        for (file, bytes) in CLASSIC_FILES {
            assert_eq!(std::fs::read(dir.join(file)).unwrap(), *bytes);
        }
        std::fs::write(dir.join("epub.css"), "mine").unwrap();
        let refused = export(CLASSIC, &dir, false).unwrap_err();
        assert!(matches!(refused, ExportError::Exists(ref f) if f.len() == CLASSIC_FILES.len()));
        assert_eq!(
            std::fs::read_to_string(dir.join("epub.css")).unwrap(),
            "mine"
        );
        export(CLASSIC, &dir, true).unwrap();
        assert_ne!(
            std::fs::read_to_string(dir.join("epub.css")).unwrap(),
            "mine"
        );
        assert!(matches!(
            export("nope", &dir, true),
            Err(ExportError::Unknown(_))
        ));
    }
}
