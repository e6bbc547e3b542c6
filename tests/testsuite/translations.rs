//! Translations that stay in step (issue 18), end to end on the fixture
//! tests/fixtures/v1/translations: a Portuguese dialogue with an English
//! translation and no Spanish one, an essay in three languages, a post in
//! English only. Editing a source makes its translation stale and `stoa
//! status` names the paragraph in both files; whitespace does not count;
//! marking clears it; `--deny-stale` fails the build with file and line;
//! the web edition links each chapter to its translations; the download
//! page says how complete each edition is.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Output;

fn project() -> tempfile::TempDir {
    project_from(&fixture("translations/books"))
}

fn dialogue(project: &Path, lang: &str) -> PathBuf {
    project.join(format!("books/posts/dialogue/{lang}.md"))
}

/// Replaces `from` by `to` in `path`, once.
fn replace_once(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        text.matches(from).count(),
        1,
        "{from} in {}",
        path.display()
    );
    std::fs::write(path, text.replace(from, to)).unwrap();
}

/// `stoa status`'s output, checked for no panic.
fn status(project: &Path, args: &[&str]) -> (Output, String) {
    let mut all = vec!["status"];
    all.extend(args);
    let result = stoa(project, &all);
    let text = output_text(&result);
    assert!(!text.contains("panicked"), "{text}");
    (result, text)
}

/// The row of `slug` in the matrix, its cells split on runs of spaces.
fn row(text: &str, slug: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{slug} ")))
        .unwrap_or_else(|| panic!("no row {slug} in:\n{text}"));
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_fixture_is_in_step_and_reports_missing_and_single_language_posts() {
    let project = project();
    let (result, text) = status(project.path(), &["--check"]);
    assert!(result.status.success(), "{text}");
    assert_eq!(row(&text, "post"), ["post", "pt-BR", "en", "es"], "{text}");
    assert_eq!(
        row(&text, "dialogue"),
        ["dialogue", "source", "up to date", "missing"]
    );
    assert_eq!(
        row(&text, "essay"),
        ["essay", "source", "up to date", "up to date"]
    );
    assert_eq!(
        row(&text, "english-only"),
        ["english-only", "missing", "only in en", "missing"]
    );
    assert!(
        text.contains("only in en: `english-only` has no translation"),
        "{text}"
    );
}

#[test]
fn an_edited_paragraph_makes_the_translation_stale_in_both_files_and_marking_clears_it() {
    let project = project();
    let p = project.path();
    let before = std::fs::read_to_string(dialogue(p, "en")).unwrap();
    // Line 11 of pt-BR.md; its translation is line 12 of en.md (which has
    // one more line of front matter: its translation-of key).
    replace_once(
        &dialogue(p, "pt-BR"),
        "E quem disse isso já comeu",
        "E quem te disse isso já comeu",
    );
    let (result, text) = status(p, &[]);
    assert!(
        result.status.success(),
        "status without --check reports: {text}"
    );
    assert_eq!(row(&text, "dialogue")[2], "STALE", "{text}");
    assert_eq!(row(&text, "essay")[2], "up to date", "{text}");
    assert!(
        text.contains("changed  books/posts/dialogue/pt-BR.md:11  “SÓCRATES: E quem te disse isso"),
        "{text}"
    );
    assert!(
        text.contains("books/posts/dialogue/en.md:12  “SOCRATES: And has whoever said so"),
        "{text}"
    );
    // Only that paragraph.
    assert_eq!(text.matches("changed  ").count(), 1, "{text}");
    assert!(
        text.contains("help: update en.md, then run `stoa translations mark dialogue en`"),
        "{text}"
    );
    let (result, text) = status(p, &["--check"]);
    assert_eq!(result.status.code(), Some(1), "{text}");
    assert!(text.contains("1 stale translation"), "{text}");

    let marked = stoa(p, &["translations", "mark", "dialogue", "en"]);
    assert!(marked.status.success(), "{}", output_text(&marked));
    assert!(
        output_text(&marked).contains("as translating pt-BR"),
        "{}",
        output_text(&marked)
    );
    let (result, text) = status(p, &["--check"]);
    assert!(result.status.success(), "{text}");
    assert_eq!(row(&text, "dialogue")[2], "up to date", "{text}");
    // Only the key's line changed.
    let after = std::fs::read_to_string(dialogue(p, "en")).unwrap();
    let (old, new): (Vec<_>, Vec<_>) = (before.lines().collect(), after.lines().collect());
    assert_eq!(old.len(), new.len());
    let differ: Vec<_> = old.iter().zip(&new).filter(|(a, b)| a != b).collect();
    assert_eq!(differ.len(), 1, "{after}");
    assert!(
        differ[0]
            .1
            .starts_with("translation-of = { lang = \"pt-BR\"")
    );
    // Marking again changes nothing.
    let again = stoa(p, &["translations", "mark", "dialogue", "en"]);
    assert!(
        output_text(&again).contains("already translates pt-BR"),
        "{}",
        output_text(&again)
    );
    assert_eq!(std::fs::read_to_string(dialogue(p, "en")).unwrap(), after);
}

#[test]
fn whitespace_only_edits_do_not_count() {
    let project = project();
    let p = project.path();
    replace_once(
        &dialogue(p, "pt-BR"),
        "GLAUCO: Não sei. Mas todos repetem.\n",
        "GLAUCO:   Não sei.\n   Mas todos repetem.   \n\n\n",
    );
    let (result, text) = status(p, &["--check"]);
    assert!(result.status.success(), "{text}");
    assert_eq!(row(&text, "dialogue")[2], "up to date", "{text}");
}

#[test]
fn new_paragraphs_and_merged_turns_are_reported_without_guessing() {
    let project = project();
    let p = project.path();
    replace_once(
        &dialogue(p, "pt-BR"),
        "SÓCRATES: Então atravessemos",
        "GLAUCO: Espera.\n\nSÓCRATES: Então atravessemos",
    );
    let (_, text) = status(p, &[]);
    assert!(
        text.contains("new      books/posts/dialogue/pt-BR.md:15  “GLAUCO: Espera.”"),
        "{text}"
    );
    assert!(text.contains("(nothing in en.md yet)"), "{text}");

    // The translator merged two turns: the report says the structure
    // diverges instead of pointing at the wrong paragraph.
    replace_once(
        &dialogue(p, "en"),
        "both sides?\n\nGLAUCON: I do not know.",
        "both sides? I do not know.",
    );
    let (_, text) = status(p, &[]);
    assert!(
        text.contains("the paragraphs of en.md no longer line up with pt-BR.md's"),
        "{text}"
    );
    assert!(
        text.contains("had 7 when en.md was marked, en.md has 6"),
        "{text}"
    );
    assert!(text.contains("(in en.md: see below)"), "{text}");
}

#[test]
fn deny_stale_fails_the_build_naming_file_and_line() {
    let project = project();
    let p = project.path();
    replace_once(
        &dialogue(p, "pt-BR"),
        "E quem disse isso já comeu",
        "E quem te disse isso já comeu",
    );
    let warned = stoa(
        p,
        &["build", "--no-site", "-f", "epub", "-l", "en", "-o", "dist"],
    );
    let text = output_text(&warned);
    assert!(warned.status.success(), "{text}");
    assert!(
        text.contains("books/posts/dialogue/en.md:12:1: warning: stale translation: books/posts/dialogue/pt-BR.md changed"),
        "{text}"
    );
    let denied = stoa(
        p,
        &[
            "build",
            "--no-site",
            "-f",
            "epub",
            "-o",
            "dist-denied",
            "--deny-stale",
        ],
    );
    let text = output_text(&denied);
    assert_eq!(denied.status.code(), Some(1), "{text}");
    assert!(
        text.contains("books/posts/dialogue/en.md:12:1: error: stale translation"),
        "{text}"
    );
    assert!(
        text.contains("(first at books/posts/dialogue/pt-BR.md:11)"),
        "{text}"
    );
    assert!(
        !p.join("dist-denied/shelf/shelf-en.epub").exists(),
        "{text}"
    );
}

#[test]
fn mark_and_the_front_matter_key_give_clear_errors() {
    let project = project();
    let p = project.path();
    let unknown_post = stoa(p, &["translations", "mark", "nope", "en"]);
    assert_eq!(unknown_post.status.code(), Some(1));
    assert!(
        output_text(&unknown_post).contains("there is no post `nope`"),
        "{}",
        output_text(&unknown_post)
    );
    let unknown_lang = stoa(p, &["translations", "mark", "dialogue", "fr"]);
    assert_eq!(unknown_lang.status.code(), Some(1));
    assert!(
        output_text(&unknown_lang).contains("post `dialogue` has no `fr` file"),
        "{}",
        output_text(&unknown_lang)
    );
    assert!(output_text(&unknown_lang).contains("its languages are: en, pt-BR"));
    let alone = stoa(p, &["translations", "mark", "english-only", "en"]);
    assert!(
        output_text(&alone).contains("exists only in `en`"),
        "{}",
        output_text(&alone)
    );

    // A hand-written fingerprint is refused at its line.
    replace_once(&dialogue(p, "en"), "fingerprint = \"", "fingerprint = \"zz");
    let (result, text) = status(p, &[]);
    assert_eq!(result.status.code(), Some(1), "{text}");
    assert!(
        text.contains("books/posts/dialogue/en.md:5:1: error: `translation-of`: the fingerprint"),
        "{text}"
    );
    let build = stoa(p, &["build", "--no-site", "-f", "epub", "-o", "dist"]);
    assert_eq!(build.status.code(), Some(1));
    assert!(
        output_text(&build).contains("books/posts/dialogue/en.md:5:1: error: `translation-of`"),
        "{}",
        output_text(&build)
    );
}

/// Every `href` of `html` that starts with `prefix`.
fn hrefs<'a>(html: &'a str, prefix: &str) -> Vec<&'a str> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|h| h.starts_with(prefix))
        .collect()
}

#[test]
fn web_editions_link_their_languages_and_the_download_page_says_how_complete_each_is() {
    let project = project();
    let p = project.path();
    let built = stoa(p, &["build", "-f", "html", "-o", "dist"]);
    assert!(built.status.success(), "{}", output_text(&built));
    let dist = p.join("dist");
    let page = |rel: &str| std::fs::read_to_string(dist.join(rel)).unwrap();

    // The English dialogue links to the Portuguese one, not to a Spanish
    // page that does not exist; the essay to both.
    let en_dialogue = page("shelf/en/dialogue.html");
    assert!(
        en_dialogue.contains(
            "<link rel=\"alternate\" hreflang=\"pt-BR\" href=\"../pt-BR/dialogue.html\">"
        ),
        "{en_dialogue}"
    );
    assert!(en_dialogue.contains(">Português</a>"), "{en_dialogue}");
    assert!(!en_dialogue.contains("../es/"), "{en_dialogue}");
    let es_essay = page("shelf/es/essay.html");
    assert!(es_essay.contains("aria-label=\"Idiomas\""), "{es_essay}");
    assert_eq!(hrefs(&es_essay, "../en/").len(), 2, "{es_essay}");
    assert!(!page("shelf/en/english-only.html").contains("hreflang"));

    // Every language link of every page resolves.
    let mut checked = 0;
    for lang in ["pt-BR", "en", "es"] {
        let folder = dist.join("shelf").join(lang);
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "html") {
                continue;
            }
            let html = std::fs::read_to_string(&path).unwrap();
            for other in ["pt-BR", "en", "es"] {
                for href in hrefs(&html, &format!("../{other}/")) {
                    assert!(
                        folder.join(href).is_file(),
                        "{} links to {href}, which does not exist",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} language links");

    let index = page("index.html");
    assert!(index.contains("2 de 3 textos"), "pt-BR: 2 of 3 posts");
    assert!(index.contains("3 of 3 posts"), "en is complete");
    assert!(index.contains("1 de 3 textos"), "es: 1 of 3 posts");
    let catalog = page("opds.xml");
    assert!(
        catalog.contains("<content type=\"text\">2 de 3 textos</content>"),
        "{catalog}"
    );
}

#[test]
fn the_real_books_are_in_step_and_the_english_only_post_is_reported() {
    let root = repo_root();
    let (result, text) = status(&root, &["--check", "--books", "books"]);
    assert!(result.status.success(), "{text}");
    assert!(
        !text.contains("STALE") && !text.contains("not marked"),
        "{text}"
    );
    assert_eq!(
        row(&text, "knowledge-frees"),
        ["knowledge-frees", "missing", "only in en"],
        "{text}"
    );
    assert_eq!(
        row(&text, "dialogue-on-masters"),
        ["dialogue-on-masters", "source", "up to date"],
        "{text}"
    );
}
