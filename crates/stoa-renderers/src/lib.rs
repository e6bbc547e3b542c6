//! The formats stoa writes: one renderer each, registered here and nowhere
//! else, in build order (EPUB, PDF, web edition).
//!
//! The command line's `--format`, the download page, the build cache and
//! the plugin test kit all read [`builtin`]; a new format is a crate
//! implementing [`stoa_render::Renderer`] and one line below.

use stoa_render::{Renderer, Renderers};

/// Every format stoa writes, in build order. Without the `pdf` feature
/// (the plugin test kit's default) the PDF is left out.
pub fn builtin() -> Renderers {
    let all: [Option<&'static dyn Renderer>; 3] = [
        Some(&stoa_epub::EpubRenderer),
        pdf(),
        Some(&stoa_html::HtmlRenderer),
    ];
    Renderers::new(all.into_iter().flatten())
}

#[cfg(feature = "pdf")]
fn pdf() -> Option<&'static dyn Renderer> {
    Some(&stoa_pdf::PdfRenderer)
}

#[cfg(not(feature = "pdf"))]
fn pdf() -> Option<&'static dyn Renderer> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_one_renderer_with_its_own_name() {
        let names = builtin().names();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        #[cfg(feature = "pdf")]
        assert_eq!(names, ["epub", "pdf", "html"]);
        assert!(builtin().cover_painter().is_some() == cfg!(feature = "pdf"));
    }

    /// The files of the workspace's crates and plugins, by path.
    fn sources() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut found = Vec::new();
        let mut stack = vec![root.join("crates"), root.join("plugins")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                let name = entry.file_name();
                if path.is_dir() && name != "target" {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    found.push((path, text));
                }
            }
        }
        found
    }

    #[test]
    fn no_other_crate_keeps_a_list_of_formats() {
        // The registry type itself, and this one list, are the only places
        // a list of renderers is made.
        let allowed = ["stoa-render/src/registry.rs", "stoa-renderers/src/lib.rs"];
        let mut copies = Vec::new();
        for (path, text) in sources() {
            let shown = path.to_string_lossy().replace('\\', "/");
            if allowed.iter().any(|a| shown.ends_with(a)) {
                continue;
            }
            // A second registry, or the command line's own enum of formats.
            for pattern in ["Renderers::new(", "enum FormatArg", "&[&dyn Renderer]"] {
                if text.contains(pattern) {
                    copies.push(format!("{shown}: `{pattern}`"));
                }
            }
        }
        assert!(
            copies.is_empty(),
            "formats are registered in stoa-renderers only (`builtin()`), found: {copies:#?}"
        );
        assert!(!sources().is_empty(), "the workspace's sources were found");
    }
}
