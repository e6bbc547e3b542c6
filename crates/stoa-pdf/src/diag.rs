//! Typst's diagnostics in stoa's terms: the theme file and line, the plugin
//! whose style failed, or the generated file.

use std::ops::Range;

use stoa_doc::Diagnostic;
use typst::World;
use typst::WorldExt;
use typst::diag::{Severity, SourceDiagnostic};
use typst::syntax::DiagSpan;

use crate::world::StoaWorld;

/// Where the parts of the generated file came from.
pub(crate) struct Origins<'a> {
    pub book_id: &'a str,
    pub styles: &'a [(Range<usize>, String)],
}

/// Converts one Typst diagnostic. An error inside the theme names the theme
/// file; one inside the generated file names the plugin style or the book.
pub(crate) fn convert(world: &StoaWorld, origins: &Origins, diag: &SourceDiagnostic) -> Diagnostic {
    let mut out = match diag.severity {
        Severity::Error => Diagnostic::error(diag.message.to_string()),
        Severity::Warning => Diagnostic::warning(diag.message.to_string()),
    };
    // A diagnostic detached from any file (e.g. from PDF export) is best
    // placed at the innermost call in its trace that has a place.
    let span = std::iter::once(diag.span)
        .chain(diag.trace.iter().map(|t| DiagSpan::from(t.span)))
        .find(|s| s.id().is_some());
    if let Some(span) = span {
        out = locate(world, origins, span, out);
    }
    let hints: Vec<String> = diag.hints.iter().map(|h| h.v.to_string()).collect();
    if !hints.is_empty() {
        out = out.with_hint(hints.join("; "));
    }
    out
}

fn locate(world: &StoaWorld, origins: &Origins, span: DiagSpan, out: Diagnostic) -> Diagnostic {
    let Some(id) = span.id() else { return out };
    let position = world.range(span).and_then(|range| {
        let source = world.source(id).ok()?;
        let (line, col) = source.lines().byte_to_line_column(range.start)?;
        Some((line + 1, col + 1))
    });
    let (file, line) = if id == world.main() {
        let line = position.map(|p| p.0);
        match origins
            .styles
            .iter()
            .find(|(r, _)| line.is_some_and(|l| r.contains(&l)))
        {
            Some((range, plugin)) => (
                format!("Typst style of plugin `{plugin}`"),
                line.map(|l| l + 1 - range.start),
            ),
            None => (
                format!("generated Typst for book `{}`", origins.book_id),
                line,
            ),
        }
    } else {
        let file = match world.real_path(id) {
            Ok(path) => path.display().to_string(),
            Err(_) => world.describe(id),
        };
        (file, position.map(|p| p.0))
    };
    let mut out = out.in_file(file.clone());
    if let (Some(line), Some((_, col))) = (line, position) {
        out = out.at(line, col);
    }
    let generated = id == world.main() && file.starts_with("generated Typst");
    if generated && out.hint.is_none() && out.message.starts_with("unexpected argument") {
        // stoa passes the theme a new argument (such as `cover:`) that a
        // theme folder exported from an older stoa does not declare.
        out = out.with_hint(
            "the theme's book.typ predates this argument: declare it in the theme's function \
             (`stoa theme export --dir <folder>` writes the current classic theme to compare), \
             or delete the theme's book.typ to use the built-in one",
        );
    }
    if id == world.main() && out.hint.is_none() {
        out = out.with_hint("write the generated Typst out (--emit-typst) to see the line");
    }
    out
}
