//! The one rule for files a plugin adds to `book.assets`, checked right
//! after the plugin ran so that every format obeys it alike: the file must
//! exist and lie inside the book's folders (the edition's roots) or the
//! plugin's own folder (where its library is). Anything else is refused
//! with the plugin's name, before any renderer packs or reads it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use stoa_doc::{Asset, Diagnostic};

/// The assets of `before` and `after` that the plugin added or changed.
fn added<'a>(before: &[Asset], after: &'a [Asset]) -> Vec<&'a Asset> {
    let known: HashSet<(&str, &str)> = before
        .iter()
        .map(|a| (a.name.as_str(), a.path.as_str()))
        .collect();
    after
        .iter()
        .filter(|a| !known.contains(&(a.name.as_str(), a.path.as_str())))
        .collect()
}

/// Checks the assets plugin `plugin` (whose library is in `plugin_dir`,
/// `None` for one built into stoa) added, given the assets `before` it ran.
/// A file in the plugin's own folder adds that folder to `roots`, so that
/// the PDF, which reads only inside the roots, reads it too. Errors name
/// the plugin.
pub(crate) fn check(
    plugin: &str,
    plugin_dir: Option<&Path>,
    before: &[Asset],
    after: &[Asset],
    roots: &mut Vec<PathBuf>,
    book_file: &str,
) -> Vec<Diagnostic> {
    let canonical_roots: Vec<PathBuf> =
        roots.iter().filter_map(|r| r.canonicalize().ok()).collect();
    let own = plugin_dir.and_then(|d| d.canonicalize().ok());
    let mut errors = Vec::new();
    for asset in added(before, after) {
        let fail = |why: String| {
            Diagnostic::error(format!(
                "plugin `{plugin}` adds the file `{}` as `{}`, {why}",
                asset.path, asset.name
            ))
            .in_file(book_file)
            .with_hint(
                "a plugin may add only files inside the book's folder or its own folder (where \
                 its library is); this is a bug in the plugin or in its settings",
            )
        };
        let real = match Path::new(&asset.path).canonicalize() {
            Ok(real) if real.is_file() => real,
            Ok(_) => {
                errors.push(fail("which is not a file".into()));
                continue;
            }
            Err(e) => {
                errors.push(fail(format!("which cannot be read ({e})")));
                continue;
            }
        };
        let in_book = canonical_roots.iter().any(|r| real.starts_with(r));
        let in_own = own.as_ref().is_some_and(|d| real.starts_with(d));
        if !in_book && !in_own {
            errors.push(fail(
                "which is outside the book's folder and the plugin's own folder".into(),
            ));
            continue;
        }
        if in_own
            && !in_book
            && let Some(dir) = &own
            && !roots.contains(dir)
        {
            roots.push(dir.clone());
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(path: &Path) -> Asset {
        Asset {
            name: "images/x.png".into(),
            path: path.to_string_lossy().into_owned(),
            media_type: "image/png".into(),
        }
    }

    #[test]
    fn files_in_the_book_or_the_plugins_folder_pass_and_others_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let (book, plugin, elsewhere) = (
            tmp.path().join("book"),
            tmp.path().join("plugin"),
            tmp.path().join("elsewhere"),
        );
        for dir in [&book, &plugin, &elsewhere] {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join("x.png"), b"png").unwrap();
        }
        let mut roots = vec![book.clone()];
        let ok = vec![asset(&book.join("x.png")), asset(&plugin.join("x.png"))];
        let found = check("p", Some(&plugin), &[], &ok, &mut roots, "book.toml");
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(roots.len(), 2, "the plugin's folder is read too: {roots:?}");

        let mut roots = vec![book.clone()];
        let outside = tmp.path().join("book/../elsewhere/x.png");
        for (path, dir, says) in [
            (
                outside.clone(),
                Some(plugin.as_path()),
                "outside the book's folder",
            ),
            (plugin.join("x.png"), None, "outside"),
            (book.join("missing.png"), None, "cannot be read"),
            (book.clone(), None, "not a file"),
        ] {
            let assets = vec![asset(&path)];
            let found = check("pics", dir, &[], &assets, &mut roots, "book.toml");
            let text = found[0].to_string();
            assert!(
                text.contains("plugin `pics`") && text.contains(says),
                "{text}"
            );
        }
        // What was there before the plugin ran is not its doing.
        let same = vec![asset(&outside)];
        assert!(check("p", None, &same, &same, &mut roots, "book.toml").is_empty());
    }
}
