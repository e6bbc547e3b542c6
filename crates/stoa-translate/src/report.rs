//! What `stoa status` prints, and the warnings of `stoa build`.

use crate::compare::{ChangeKind, Place, Stale};
use crate::status::{BookStatus, Cell};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;
use stoa_doc::Diagnostic;

/// The matrix of one book, then what is wrong, cell by cell: each stale
/// translation as a short diff of its source against the translation.
pub fn render(status: &BookStatus) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}  ({})", status.id, status.file);
    let width = status
        .rows
        .iter()
        .map(|r| r.slug.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let col = |lang: &str| lang.chars().count().max(12);
    let _ = write!(out, "  {:<width$}", "post");
    for lang in &status.languages {
        let _ = write!(out, "  {:<w$}", lang, w = col(lang));
    }
    out.truncate(out.trim_end_matches(' ').len());
    out.push('\n');
    for row in &status.rows {
        let _ = write!(out, "  {:<width$}", row.slug);
        for (cell, lang) in row.cells.iter().zip(&status.languages) {
            let _ = write!(out, "  {:<w$}", cell.word(lang), w = col(lang));
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    let mut unmarked_told = BTreeSet::new();
    for (row, lang, cell) in status.cells() {
        match cell {
            Cell::Stale(stale) => stale_details(&mut out, &row.slug, lang, stale),
            Cell::Unmarked if unmarked_told.insert(&row.slug) => {
                let _ = writeln!(
                    out,
                    "\n  not marked: no file in {} says which language it translates\n    help: once a translation is up to date, run `stoa translations mark {} <its language> --from <the original's language>`",
                    row.folder.display(),
                    row.slug
                );
            }
            Cell::Only => {
                let _ = writeln!(
                    out,
                    "\n  only in {lang}: `{}` has no translation; the other editions leave it out",
                    row.slug
                );
            }
            Cell::Error(errors) => {
                for e in errors {
                    let _ = writeln!(out, "\n  {}", e.to_string().replace('\n', "\n  "));
                }
            }
            _ => {}
        }
    }
    out
}

fn quote(place: &Place) -> String {
    format!("{}:{}  “{}”", place.file, place.line, place.excerpt)
}

fn stale_details(out: &mut String, slug: &str, lang: &str, stale: &Stale) {
    let source = file_name(&stale.source_file);
    let translation = file_name(&stale.translation_file);
    let _ = writeln!(
        out,
        "\n  stale: {} translates {}, which changed since it was marked:",
        stale.translation_file, stale.source_file
    );
    if stale.changes.is_empty() {
        let _ = writeln!(
            out,
            "    (the mark does not record its paragraphs, so stoa cannot say which changed)"
        );
    }
    for change in &stale.changes {
        let what = match change.kind {
            ChangeKind::Changed => "changed",
            ChangeKind::Added => "new",
            ChangeKind::Removed => "removed",
        };
        match &change.source {
            Some(p) => {
                let _ = writeln!(out, "    {what:<8} {}", quote(p));
            }
            None => {
                let _ = writeln!(out, "    {what:<8} (no longer in {source})");
            }
        }
        match (&change.translation, &stale.divergence) {
            (Some(p), _) => {
                let _ = writeln!(out, "    {:<8} {}", "", quote(p));
            }
            (None, Some(_)) => {
                let _ = writeln!(out, "    {:<8} (in {translation}: see below)", "");
            }
            (None, None) => {
                let _ = writeln!(out, "    {:<8} (nothing in {translation} yet)", "");
            }
        }
    }
    if let Some(d) = &stale.divergence {
        let _ = writeln!(
            out,
            "    the paragraphs of {translation} no longer line up with {source}'s: {source} had {} when {translation} was marked, {translation} has {}; stoa does not guess which paragraph translates which",
            d.source_blocks, d.translation_blocks
        );
        if let Some((t, s)) = &stale.divergence_at {
            let _ = writeln!(out, "    they part near {}", quote(t));
            if let Some(s) = s {
                let _ = writeln!(out, "               and {}", quote(s));
            }
        }
    }
    let _ = writeln!(
        out,
        "    help: update {translation}, then run `stoa translations mark {slug} {lang}`"
    );
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// One warning per stale translation of the books in `statuses` (each file
/// once, though two books include it), in the languages `langs` (all when
/// empty): the translation's file and the line of the first paragraph that
/// translates a changed one.
pub fn check(statuses: &[BookStatus], langs: &[String]) -> Vec<Diagnostic> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for status in statuses {
        for (row, lang, stale) in status.stale() {
            if !langs.is_empty() && !langs.iter().any(|l| l == lang) {
                continue;
            }
            if !seen.insert(stale.translation_file.clone()) {
                continue;
            }
            let what = match stale.changes.iter().find_map(|c| c.source.as_ref()) {
                Some(p) => format!(" (first at {}:{})", p.file, p.line),
                None => String::new(),
            };
            let diverges = if stale.divergence.is_some() {
                "; its paragraphs no longer line up with the source's (`stoa status` shows where)"
            } else {
                ""
            };
            out.push(
                Diagnostic::warning(format!(
                    "stale translation: {} changed since this translation was marked{what}{diverges}",
                    stale.source_file
                ))
                .in_file(&stale.translation_file)
                .at(stale.first_line(), 1)
                .with_hint(format!(
                    "`stoa status` shows what changed; update the translation, then run `stoa translations mark {} {lang}`",
                    row.slug
                )),
            );
        }
    }
    out
}
