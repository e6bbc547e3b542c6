//! A fourth format registered in one place: a plain-text renderer defined
//! here, added to stoa's registry, makes `stoa build -f text`, the cache and
//! the download page work with no other change.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use stoa_doc::{Block, Diagnostic, FnVisitor, Walk, inlines_text, visit};
use stoa_render::{Output, RenderContext, Rendered, Renderer, Renderers};

/// Each chapter's title, then its paragraphs and headings, as plain text.
struct TextRenderer;

impl Renderer for TextRenderer {
    fn name(&self) -> &'static str {
        "text"
    }

    fn extension(&self) -> &'static str {
        "txt"
    }

    fn label(&self) -> &'static str {
        "TXT"
    }

    fn media_type(&self) -> &'static str {
        "text/plain"
    }

    /// Reads no theme file: a style sheet or template edit leaves it alone.
    fn reads_theme_file(&self, _rel: &str) -> bool {
        false
    }

    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>> {
        let mut text = format!("{}\n\n", ctx.book.meta.title);
        for chapter in &ctx.book.chapters {
            text.push_str(&format!("# {}\n\n", chapter.title));
            let mut lines = Vec::new();
            visit(
                &chapter.blocks,
                &mut FnVisitor {
                    on_block: |block: &Block| {
                        match block {
                            Block::Paragraph { content } | Block::Heading { content, .. } => {
                                lines.push(inlines_text(content));
                            }
                            _ => {}
                        }
                        Walk::Continue
                    },
                    on_inline: |_: &stoa_doc::Inline| Walk::Continue,
                },
            );
            text.push_str(&lines.join("\n\n"));
            text.push_str("\n\n");
        }
        Ok(Rendered {
            output: Output::File(text.into_bytes().into()),
            ..Rendered::default()
        })
    }
}

static TEXT: TextRenderer = TextRenderer;

/// stoa's formats and the plain-text one: the one registration.
fn with_text() -> Renderers {
    stoa_renderers::builtin().with(&TEXT)
}

/// Runs the `stoa` command in this process with `renderers` (paths given
/// absolute: the process's folder is every test's); its exit code.
fn stoa_with(renderers: Renderers, args: &[&str]) -> std::process::ExitCode {
    let argv = std::iter::once("stoa").chain(args.iter().copied());
    stoa_cli::run(renderers, argv.map(OsString::from))
}

/// The `stoa build` arguments for `project`, output in `dist/`, then `more`.
fn build_args(project: &Path, more: &[&str]) -> Vec<String> {
    let at = |p: &str| project.join(p).to_string_lossy().into_owned();
    let mut args = vec![
        "build".to_string(),
        "-q".into(),
        "--books".into(),
        at("books"),
        "--themes".into(),
        at("themes"),
        "--out".into(),
        at("dist"),
    ];
    args.extend(more.iter().map(|a| a.to_string()));
    args
}

#[test]
fn a_registered_format_builds_from_the_command_line_and_lists_on_the_download_page() {
    let project = stoa_tests::project_from(&stoa_tests::repo_root().join("books"));
    let dir = project.path();
    let args = build_args(dir, &["-b", "dialogues", "-f", "text", "-f", "epub"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();

    // stoa's own command knows no such format.
    assert_eq!(
        stoa_with(stoa_renderers::builtin(), &args),
        ExitCode::from(2)
    );
    assert!(
        !dir.join("dist").exists(),
        "a refused command writes nothing"
    );

    assert_eq!(stoa_with(with_text(), &args), ExitCode::SUCCESS);
    let book = dir.join("dist/dialogues");
    for lang in ["en", "pt-BR"] {
        let text = std::fs::read_to_string(book.join(format!("dialogues-{lang}.txt")))
            .expect("the text edition is written");
        assert!(
            text.lines().filter(|l| l.starts_with("# ")).count() >= 4,
            "{text}"
        );
        assert!(book.join(format!("dialogues-{lang}.epub")).is_file());
        assert!(
            !book.join(format!("dialogues-{lang}.pdf")).exists(),
            "not asked for"
        );
    }
    let page = std::fs::read_to_string(dir.join("dist/index.html")).expect("download page");
    assert!(
        page.contains("dialogues-en.txt") && page.contains("text/plain"),
        "{page}"
    );
    let epub_at = page.find("dialogues-en.epub").expect("EPUB listed");
    let text_at = page.find("dialogues-en.txt").expect("TXT listed");
    assert!(epub_at < text_at, "files listed in the registry's order");
}

#[test]
fn the_cache_keeps_a_registered_format_and_follows_what_it_reads() {
    let project = stoa_tests::project_from(&stoa_tests::repo_root().join("books"));
    let dir = project.path();
    let mut options =
        stoa_build::BuildOptions::new(dir.join("books"), dir.join("themes"), dir.join("dist"))
            .with_renderers(with_text());
    options.books = vec!["dialogues".into()];
    options.formats = vec!["text"];
    let written = |options: &stoa_build::BuildOptions| -> Vec<String> {
        let report = stoa_build::build(options, &|_| {});
        assert!(report.ok(), "{:?}", report.errors);
        assert!(report.artifacts.iter().all(|a| a.format == "text"));
        let mut names: Vec<String> = report
            .artifacts
            .iter()
            .filter(|a| a.written)
            .map(|a| a.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        written(&options),
        ["dialogues-en.txt", "dialogues-pt-BR.txt"]
    );
    assert!(
        written(&options).is_empty(),
        "nothing changed: nothing written"
    );
    // The format reads no theme file: a template edit leaves it alone.
    let css = dir.join("themes/classic/epub.css");
    std::fs::write(&css, "p { margin: 0 }").expect("edit the theme");
    assert!(
        written(&options).is_empty(),
        "a theme edit it does not read"
    );
    // A post edit in one language makes that edition again, only.
    let post = dir.join("books/posts/dialogue-on-masters/en.md");
    let text = std::fs::read_to_string(&post).expect("post");
    std::fs::write(&post, format!("{text}\nOne more line.\n")).expect("edit");
    assert_eq!(written(&options), ["dialogues-en.txt"]);
    let txt = std::fs::read_to_string(dir.join("dist/dialogues/dialogues-en.txt")).unwrap();
    assert!(txt.contains("One more line."));
}
