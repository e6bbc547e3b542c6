//! Errors as the author should read them: a mistake in book.toml is reported
//! once, at its line in book.toml, although every post of every edition ran
//! into it; names that are nearly right get a "did you mean".

use std::collections::HashSet;
use stoa_book::{BookConfig, PluginConfig};
use stoa_doc::Diagnostic;

/// What makes two diagnostics the same: file, line, column and message.
type Key = (Option<String>, Option<usize>, Option<usize>, String);

/// What has been reported so far in this build, so that an error met by
/// several editions (a plugin setting, a missing post) is shown once.
#[derive(Default)]
pub(crate) struct Reported {
    seen: HashSet<Key>,
}

impl Reported {
    /// `errors` of one edition of `config`, each pinned to book.toml when it
    /// is about a plugin's settings, without those already reported.
    pub(crate) fn settle(
        &mut self,
        config: Option<&BookConfig>,
        errors: Vec<Diagnostic>,
        plugin_names: &dyn Fn() -> Vec<String>,
    ) -> Vec<Diagnostic> {
        let book_toml = config
            .map(|c| std::fs::read_to_string(c.dir.join(stoa_book::BOOK_FILE)).unwrap_or_default());
        let mut out = Vec::new();
        for error in errors {
            let error = match (config, &book_toml) {
                (Some(config), Some(text)) => pin(config, text, error, plugin_names),
                _ => error,
            };
            let key = (
                error.file.clone(),
                error.line,
                error.column,
                error.message.clone(),
            );
            if self.seen.insert(key) {
                out.push(error);
            }
        }
        out
    }
}

/// The names of the plugins stoa finds for `config`, for "did you mean".
pub(crate) fn plugin_names(
    options: &crate::options::BuildOptions,
    config: Option<&BookConfig>,
) -> Vec<String> {
    // The build's own search path, built-in plugins included.
    let search = crate::builtin::search_path(options, config.and_then(|c| c.plugin_dir.as_deref()));
    stoa_plugin_host::list(&search)
        .into_iter()
        .flatten()
        .map(|info| info.name)
        .collect()
}

/// What to do about a theme that is not found: the closest theme folder.
pub(crate) fn theme_hint(options: &crate::options::BuildOptions, theme: &str) -> String {
    let mut themes: Vec<String> = std::fs::read_dir(&options.themes_dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    // The theme built into stoa.
    themes.push("classic".into());
    let fix = "set `theme` to the name of a folder in themes/, or leave it out for `classic`";
    match stoa_book::suggest::closest(theme, &themes) {
        Some(near) => format!("did you mean `{near}`? Otherwise {fix}"),
        None => fix.to_string(),
    }
}

/// A plugin's complaint about its settings, moved from the post it was
/// running on to the setting's line in book.toml; a plugin that is not
/// found gets the closest name of those stoa finds.
fn pin(
    config: &BookConfig,
    book_toml: &str,
    mut error: Diagnostic,
    plugin_names: &dyn Fn() -> Vec<String>,
) -> Diagnostic {
    for plugin in &config.plugins {
        if error
            .message
            .starts_with(&format!("plugin `{}` not found", plugin.name))
        {
            let names = plugin_names();
            if let Some(near) = stoa_book::suggest::closest(&plugin.name, &names) {
                error.hint = Some(match error.hint.take() {
                    Some(hint) => format!("did you mean `{near}`? Otherwise {hint}"),
                    None => format!("did you mean `{near}`?"),
                });
            }
            return error;
        }
    }
    // Already at its line (a `configure` hook's error, see `pin_configure`).
    if error.file.as_deref() == Some(config.file.as_str()) {
        return error;
    }
    for plugin in &config.plugins {
        if about_settings(&error.message, &plugin.name) {
            return pin_setting(config, book_toml, plugin, error);
        }
    }
    error
}

/// An error or warning of a plugin's `configure` hook, which is always about
/// its settings: at the line in book.toml of the key it names (or of its
/// table), with "did you mean" for a misspelt key.
pub(crate) fn pin_configure(config: &BookConfig, diagnostic: Diagnostic) -> Diagnostic {
    let plugin = config.plugins.iter().find(|p| {
        diagnostic
            .message
            .starts_with(&format!("plugin `{}` ", p.name))
            || diagnostic
                .message
                .starts_with(&format!("plugin `{}`:", p.name))
    });
    let Some(plugin) = plugin else {
        return diagnostic.in_file(&config.file);
    };
    let book_toml =
        std::fs::read_to_string(config.dir.join(stoa_book::BOOK_FILE)).unwrap_or_default();
    let severity = diagnostic.severity;
    let mut pinned = pin_setting(config, &book_toml, plugin, diagnostic);
    pinned.severity = severity;
    pinned
}

/// `error`, about the settings of `plugin`, at the line of the key it
/// names in book.toml (else of the table), with its message shortened to
/// the plugin's name and "did you mean" the closest key it quotes.
fn pin_setting(
    config: &BookConfig,
    book_toml: &str,
    plugin: &PluginConfig,
    mut error: Diagnostic,
) -> Diagnostic {
    let unknown = stoa_book::suggest::unknown_name(&error.message);
    let key = match &unknown {
        Some((word, _)) => Some(word.clone()),
        None => named_key(&error.message, plugin),
    };
    let line = key
        .as_deref()
        .and_then(|k| key_line(book_toml, plugin.line, k))
        .unwrap_or(plugin.line);
    // The message stays the plugin's; only where it points changes.
    let message = error
        .message
        .split_once("): ")
        .filter(|(head, _)| head.starts_with("plugin `"))
        .map_or(error.message.clone(), |(_, rest)| {
            format!("plugin `{}`: {rest}", plugin.name)
        });
    let mut pinned = Diagnostic::error(message).in_file(&config.file).at(line, 1);
    // The names a plugin lists may be in its hint rather than its message.
    let unknown = unknown.map(|(word, near)| {
        let near = near.or_else(|| {
            let hint = error.hint.as_deref().unwrap_or("");
            let quoted: Vec<&str> = hint.split('`').skip(1).step_by(2).collect();
            stoa_book::suggest::closest(&word, &quoted).map(str::to_string)
        });
        (word, near)
    });
    pinned.hint = match (unknown, error.hint.take()) {
        (Some((_, Some(near))), Some(hint)) => Some(format!("did you mean `{near}`? {hint}")),
        (Some((_, Some(near))), None) => Some(format!("did you mean `{near}`?")),
        (_, hint) => hint,
    };
    pinned
}

/// Whether `message` is plugin `name` complaining about its settings in
/// book.toml (not those of a post's front matter, which stay at the post).
fn about_settings(message: &str, name: &str) -> bool {
    !message.contains("front matter")
        && (message.contains(&format!("[plugins.{name}]"))
            || (message.starts_with(&format!("plugin `{name}`"))
                && message.contains("bad plugin settings")))
}

/// A key of the plugin's table that the message names in backticks.
fn named_key(message: &str, plugin: &PluginConfig) -> Option<String> {
    let table = plugin.settings.as_object()?;
    message
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|word| word.split([' ', '=']).next().unwrap_or(word))
        .find(|word| table.contains_key(*word))
        .map(str::to_string)
}

/// The line of `key = …` in the table that starts on `table_line`.
fn key_line(text: &str, table_line: usize, key: &str) -> Option<usize> {
    for (n, line) in text.lines().enumerate().skip(table_line) {
        let line = line.trim_start();
        if line.starts_with('[') {
            break;
        }
        let name = line.split('=').next().unwrap_or("").trim();
        if name.trim_matches(['"', '\'']) == key && line.contains('=') {
            return Some(n + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = "title = 1\n\n[plugins.glossary]\nfirst-use = \"x\"\nheadng = \"y\"\n\n[plugins.footnotes]\nheadng = 2\n";

    #[test]
    fn keys_are_found_in_their_own_table() {
        assert_eq!(key_line(TOML, 3, "headng"), Some(5));
        assert_eq!(key_line(TOML, 3, "first-use"), Some(4));
        assert_eq!(key_line(TOML, 7, "headng"), Some(8));
        assert_eq!(key_line(TOML, 3, "mode"), None);
    }

    /// A book whose book.toml is [`TOML`], in `dir`.
    fn config(dir: &std::path::Path) -> BookConfig {
        std::fs::write(dir.join("book.toml"), TOML).unwrap();
        BookConfig {
            id: "b".into(),
            dir: dir.to_path_buf(),
            file: "books/b/book.toml".into(),
            title: Default::default(),
            subtitle: Default::default(),
            description: Default::default(),
            author: "A".into(),
            languages: Vec::new(),
            identifier: "urn:x".into(),
            date: None,
            theme: "classic".into(),
            posts: Vec::new(),
            about: None,
            posts_dir: dir.to_path_buf(),
            print: Default::default(),
            press: Default::default(),
            bibliography: None,
            figures: Default::default(),
            math: Default::default(),
            images: Default::default(),
            plugins: vec![PluginConfig {
                name: "glossary".into(),
                settings: serde_json::json!({"first-use": "x", "headng": "y"}),
                line: 3,
            }],
            plugin_dir: None,
            parts: Vec::new(),
            opening: Default::default(),
        }
    }

    #[test]
    fn a_configure_error_is_pinned_once_to_its_key_with_a_suggestion() {
        let dir = tempfile::tempdir().unwrap();
        let config = config(dir.path());
        let error = Diagnostic::error(
            "plugin `glossary` (built into stoa): bad plugin settings: unknown field `headng`, \
             expected one of `headings`, `title`",
        );
        let pinned = pin_configure(&config, error.clone());
        assert_eq!(pinned.file.as_deref(), Some("books/b/book.toml"));
        assert_eq!(pinned.line, Some(5));
        assert!(
            pinned.message.starts_with("plugin `glossary`: bad plugin"),
            "{}",
            pinned.message
        );
        assert_eq!(pinned.hint.as_deref(), Some("did you mean `headings`?"));
        // Met by a second edition: the build shows it once, unchanged.
        let mut reported = Reported::default();
        let none = || Vec::new();
        let shown = reported.settle(Some(&config), vec![pinned.clone()], &none);
        assert_eq!(shown, vec![pinned.clone()]);
        assert!(
            reported
                .settle(Some(&config), vec![pin_configure(&config, error)], &none)
                .is_empty()
        );
        // A warning stays a warning, at the table when it names no key.
        let warning = Diagnostic::warning("plugin `glossary`: nothing to do");
        let pinned = pin_configure(&config, warning);
        assert_eq!((pinned.line, pinned.is_error()), (Some(3), false));
    }

    #[test]
    fn a_settings_error_is_told_once_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let config = config(dir.path());
        let error = |post: &str| {
            Diagnostic::error(
                "plugin `glossary` (/x/libstoa_plugin_glossary.so): [plugins.glossary] in \
                 book.toml: unknown field `headng`, expected one of `headings`, `title`",
            )
            .in_file(post)
        };
        let mut reported = Reported::default();
        let none = || Vec::new();
        let first = reported.settle(
            Some(&config),
            vec![error("a/en.md"), error("b/en.md")],
            &none,
        );
        let second = reported.settle(Some(&config), vec![error("a/pt.md")], &none);
        assert_eq!(first.len(), 1, "{first:?}");
        assert!(second.is_empty(), "{second:?}");
        let shown = &first[0];
        assert_eq!(shown.file.as_deref(), Some("books/b/book.toml"));
        assert_eq!(shown.line, Some(5));
        assert!(
            shown
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `headings`?")
        );
        assert!(!shown.message.contains(".so"), "{}", shown.message);
        // A post's own settings stay at the post.
        let post = Diagnostic::error(
            "plugin `glossary`: unknown key `x` in [plugins.glossary] of the front matter of a/en.md",
        )
        .in_file("a/en.md");
        assert_eq!(
            reported.settle(Some(&config), vec![post.clone()], &none),
            vec![post]
        );
        // Anything else passes untouched.
        let other = Diagnostic::error("something else").in_file("a/en.md");
        assert_eq!(
            reported.settle(Some(&config), vec![other.clone()], &none),
            vec![other]
        );
    }
}
