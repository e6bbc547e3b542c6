//! One binary is the whole tool. The `stoa` executable alone (the one
//! `cargo install` made, under scripts/test), copied into a
//! temporary folder with no file of this repository and run with an empty
//! environment, starts a book (`stoa new`), builds it with its built-in
//! theme and plugins, and the EPUBs pass EPUBCheck; a theme folder the
//! author exports and changes overrides the built-in theme (file by file);
//! the built-in plugins make the same books as their shared libraries; and
//! `stoa plugins` searches where the build searches.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the stoa at `exe` in `cwd` with nothing in the environment but a
/// fixed date and a system PATH: no variable can point at this repository.
fn run(exe: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("SOURCE_DATE_EPOCH", "1717200000")
        .output()
        .expect("stoa runs")
}

fn ok(out: &Output) -> String {
    let text = output_text(out);
    assert!(out.status.success(), "stoa failed:\n{text}");
    text
}

/// A folder outside the repository holding a copy of the `stoa` binary
/// only: the one `cargo install` put in `STOA_INSTALLED` (scripts/test
/// installs it), else the one this build made.
fn lone_binary() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    assert!(
        !dir.path().starts_with(repo_root()),
        "the temporary folder must be outside the repository"
    );
    let source = match std::env::var_os("STOA_INSTALLED") {
        Some(installed) => {
            let installed = PathBuf::from(installed);
            assert!(
                installed.is_file(),
                "STOA_INSTALLED names no file: {}",
                installed.display()
            );
            installed
        }
        None => stoa_bin(),
    };
    let exe = dir.path().join("stoa");
    // Copied by another process: a copy made here would hold the file open
    // for writing in this one, and a child another test forks meanwhile
    // inherits that descriptor until it execs, so that running the copy
    // can fail with ETXTBSY ("Text file busy").
    let copied = Command::new("cp")
        .arg(&source)
        .arg(&exe)
        .status()
        .expect("cp runs");
    assert!(
        copied.success(),
        "cp {} {}",
        source.display(),
        exe.display()
    );
    (dir, exe)
}

#[test]
fn the_binary_alone_starts_and_builds_a_book() {
    let (tmp, exe) = lone_binary();
    let root = tmp.path();
    ok(&run(&exe, root, &["new", "blog", "--lang", "es,en"]));
    let blog = root.join("blog");
    assert!(!blog.join("themes").exists(), "the theme is built in");

    // Nothing beside the binary: the bundled plugins are built in.
    let plugins = ok(&run(&exe, &blog, &["plugins"]));
    for name in ["dialogue", "footnotes", "glossary"] {
        assert!(
            plugins
                .lines()
                .any(|l| l.starts_with(name) && l.contains("built into stoa")),
            "{name} is listed as built in:\n{plugins}"
        );
    }
    assert!(plugins.contains("book `blog`"), "{plugins}");

    let built = ok(&run(&exe, &blog, &["build"]));
    assert!(
        built.contains(", 0 warnings"),
        "a new book builds clean:\n{built}"
    );
    let dist = blog.join("dist/blog");
    let epubs: Vec<PathBuf> = ["es", "en"]
        .iter()
        .map(|l| dist.join(format!("blog-{l}.epub")))
        .collect();
    for lang in ["es", "en"] {
        let pdf = std::fs::read(dist.join(format!("blog-{lang}.pdf"))).expect("the PDF");
        assert!(pdf.starts_with(b"%PDF-"), "blog-{lang}.pdf is a PDF");
        // Laid out with the built-in template: its glossary appendix is there.
        let text = pdftotext(&dist.join(format!("blog-{lang}.pdf")), &[]);
        let glossary = if lang == "es" { "Glosario" } else { "Glossary" };
        assert!(
            text.contains(glossary),
            "{glossary} in blog-{lang}.pdf:\n{text}"
        );
        assert!(dist.join(lang).join("index.html").is_file());
    }
    // The sample shows each feature, in the language asked for.
    let es = zip_entry(&epubs[0], "OEBPS/welcome.xhtml");
    for expected in ["Glosario", "portico.png", "footnote", "Bruno"] {
        assert!(
            es.contains(expected),
            "`{expected}` in the Spanish post:\n{es}"
        );
    }
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "EPUBCheck: {failures:#?}");

    // A second `stoa new` into the same folder is refused, and changes nothing.
    let before = files_below(&blog);
    let again = run(&exe, root, &["new", "blog"]);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("is not empty"),
        "{again:?}"
    );
    assert_eq!(files_below(&blog), before);
}

#[test]
fn an_exported_theme_overrides_the_built_in_one() {
    let (tmp, exe) = lone_binary();
    ok(&run(&exe, tmp.path(), &["new", "book"]));
    let project = tmp.path().join("book");
    ok(&run(&exe, &project, &["theme", "export"]));
    let css = project.join("themes/classic/epub.css");
    assert!(css.is_file(), "exported into themes/classic/");
    // Exporting again would overwrite the author's changes: refused.
    let again = run(&exe, &project, &["theme", "export"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    ok(&run(&exe, &project, &["theme", "export", "--force"]));

    let mut text = std::fs::read_to_string(&css).unwrap();
    text.push_str("\n.author-was-here { color: red; }\n");
    std::fs::write(&css, text).unwrap();
    // The author keeps only the file changed: the others are the built-in ones.
    for file in ["book.typ", "web.css", "code.tmTheme"] {
        std::fs::remove_file(project.join("themes/classic").join(file)).unwrap();
    }
    ok(&run(&exe, &project, &["build"]));
    assert!(project.join("dist/book/book-en.pdf").is_file());
    let style = zip_entry(
        &project.join("dist/book/book-en.epub"),
        "OEBPS/stylesheet.css",
    );
    assert!(
        style.contains(".author-was-here"),
        "the folder's CSS is used"
    );

    // A theme that is neither a folder nor built in names both places.
    let toml = project.join("books/book/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("author =", "theme = \"modern\"\nauthor ="),
    )
    .unwrap();
    let out = run(&exe, &project, &["build", "-f", "epub"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("the theme `modern` does not exist") && stderr.contains("built-in"),
        "{stderr}"
    );
}

/// The built-in plugins and their libraries (the `cdylib` crates, which
/// `cargo build --workspace` leaves next to the stoa under test) make the
/// same bytes: a library in a `--plugin-dir` overrides the built-in one.
#[test]
fn built_in_plugins_make_the_same_books_as_their_libraries() {
    let tmp = tempfile::tempdir().unwrap();
    ok(&stoa(tmp.path(), &["new", "pair", "--lang", "pt-BR,en"]));
    let project = tmp.path().join("pair");
    let libraries = stoa_bin().parent().unwrap().to_path_buf();
    let dir = libraries.to_str().unwrap();
    let listed = ok(&stoa(&project, &["plugins", "--plugin-dir", dir]));
    for name in ["dialogue", "footnotes", "glossary"] {
        // The first line of each name is the one a build uses.
        let first = listed.lines().find(|l| l.starts_with(name));
        assert!(
            first.is_some_and(|l| l.contains(dir) && !l.contains("built into stoa")),
            "{name} is loaded from {dir}:\n{listed}"
        );
    }
    let build = |out: &str, extra: &[&str]| {
        let mut args = vec!["build", "-q", "-o", out];
        args.extend_from_slice(extra);
        let result = Command::new(stoa_bin())
            .args(&args)
            .current_dir(&project)
            .env("SOURCE_DATE_EPOCH", "1717200000")
            .output()
            .unwrap();
        ok(&result);
    };
    build("built-in", &[]);
    build("libraries", &["--plugin-dir", dir]);
    let (a, b) = (project.join("built-in"), project.join("libraries"));
    let files = files_below(&a);
    assert_eq!(files, files_below(&b));
    assert!(files.len() > 5, "{files:?}");
    let differ: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| std::fs::read(a.join(f)).unwrap() != std::fs::read(b.join(f)).unwrap())
        .collect();
    assert!(
        differ.is_empty(),
        "the libraries make other books than the built-in plugins: {differ:?} \
         (after changing a plugin, `cargo build --workspace` rebuilds its library too)"
    );
}

/// `stoa plugins` searches where the build searches: a book's `plugin-dir`
/// too, and says which plugin each book's build loads from where.
#[test]
fn stoa_plugins_searches_each_books_plugin_dir() {
    let (tmp, exe) = lone_binary();
    ok(&run(&exe, tmp.path(), &["new", "shelf"]));
    let project = tmp.path().join("shelf");
    let book = project.join("books/shelf");
    let example = format!(
        "{}stoa_plugin_example{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    std::fs::create_dir_all(book.join("plugins")).unwrap();
    std::fs::copy(
        stoa_bin().parent().unwrap().join(&example),
        book.join("plugins").join(&example),
    )
    .expect("the example plugin is built (cargo build --workspace)");
    let toml = book.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let text = text.replace("author =", "plugin-dir = \"plugins\"\nauthor =");
    std::fs::write(
        &toml,
        format!("{text}\n[plugins.example]\nword = \"stoa\"\n"),
    )
    .unwrap();

    // A library the book brings is not loaded until trusted.
    let untrusted = run(&exe, &project, &["plugins"]);
    assert!(!untrusted.status.success());
    let text = output_text(&untrusted);
    assert!(
        text.contains("NOT LOADED") && text.contains("you have not trusted it"),
        "{text}"
    );
    let listed = ok(&run(&exe, &project, &["plugins", "--trust-plugins"]));
    assert!(listed.contains("(plugin-dir of "), "{listed}");
    let uses = listed
        .split("book `shelf`")
        .nth(1)
        .unwrap_or_else(|| panic!("the book's plugins are listed:\n{listed}"));
    let example_line = uses.lines().find(|l| l.trim_start().starts_with("example"));
    assert!(
        example_line.is_some_and(|l| l.contains(&example) && l.contains("plugins")),
        "example comes from the book's plugin-dir:\n{listed}"
    );
    assert!(
        uses.lines()
            .any(|l| l.trim_start().starts_with("glossary") && l.contains("built into stoa")),
        "{listed}"
    );
    // A plugin no place has fails the listing, as it would fail the build.
    std::fs::remove_file(book.join("plugins").join(&example)).unwrap();
    let missing = run(&exe, &project, &["plugins", "--trust-plugins"]);
    assert!(!missing.status.success());
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("plugin `example` not found"), "{stderr}");
}
