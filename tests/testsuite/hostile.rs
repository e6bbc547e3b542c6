//! Hostile input: what would exhaust memory or the stack, hang the build,
//! escape the books folder or write an invalid file is refused with an
//! error at the file and line that caused it, and the build ends with exit
//! status 1 and no panic. Fixtures are built in temporary folders.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A project with one book `b` in English whose posts are `posts`
/// (slug, Markdown body after the front matter), and `extra` lines at the
/// end of book.toml (after `[title]`). Slugs that are not folder names (`../x`) get no
/// folder.
fn project(posts: &[(&str, &str)], extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let books = dir.path().join("books");
    std::fs::create_dir_all(books.join("b")).unwrap();
    let list: Vec<String> = posts.iter().map(|(s, _)| format!("  {s:?},")).collect();
    std::fs::write(
        books.join("b/book.toml"),
        format!(
            "author = \"A\"\nlanguages = [\"en\"]\nidentifier = \"urn:x:b\"\nposts = [\n{}\n]\n\n[title]\nen = \"B\"\n{extra}",
            list.join("\n")
        ),
    )
    .unwrap();
    for (slug, body) in posts {
        if slug.contains(['/', '.']) {
            continue;
        }
        let folder = books.join("posts").join(slug);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("en.md"),
            format!("+++\ntitle = \"{slug}\"\n+++\n\n{body}"),
        )
        .unwrap();
    }
    copy_dir(&repo_root().join("themes"), &dir.path().join("themes"));
    dir
}

/// The post file of `slug` in `project`.
fn post(project: &Path, slug: &str) -> PathBuf {
    project.join("books/posts").join(slug).join("en.md")
}

/// Runs `stoa build` under a deadline (a hang is a failure, not a stuck
/// test run): `timeout` kills it after two minutes with status 124.
fn build(project: &Path, formats: &[&str]) -> Output {
    let mut args = vec![
        "120".to_string(),
        stoa_bin().display().to_string(),
        "build".into(),
    ];
    for f in formats {
        args.push("--format".into());
        args.push(f.to_string());
    }
    Command::new("timeout")
        .args(&args)
        .current_dir(project)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("timeout and stoa run")
}

/// The build fails (status 1, no panic, no abort) with every fragment in
/// its errors, and every error says what to do.
fn fails_with(out: &Output, expected: &[&str]) {
    crate::prelude::assert_fails_with(out, expected);
}

fn succeeds(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
fn markdown_nested_five_thousand_deep_is_an_error_at_its_line_not_a_stack_overflow() {
    let quotes = format!("Intro.\n\n{} deep\n", ">".repeat(5000));
    let lists: String = (0..600)
        .map(|i| format!("{}- item\n", "  ".repeat(i)))
        .collect();
    let p = project(&[("quotes", &quotes), ("lists", &lists)], "");
    let out = build(p.path(), &["epub"]);
    fails_with(
        &out,
        &[
            "books/posts/quotes/en.md:7:257: error: the Markdown is nested more than 256 levels deep",
            // A list goes one level deeper per line, from line 5.
            "books/posts/lists/en.md:261:",
        ],
    );
}

#[test]
fn nesting_at_the_limit_builds_in_every_format() {
    // 256 levels of lists, and of quotes: the deepest a post may go; every
    // renderer walks them without running out of stack.
    let lists: String = (0..256)
        .map(|i| format!("{}- level {i}\n", "  ".repeat(i)))
        .collect();
    let quotes = format!("{} deep\n", "> ".repeat(256));
    // 31 levels of emphasis and links, in 224 quotes: near both limits.
    let inlines = format!(
        "{}{}*d x d*{}\n",
        "> ".repeat(224),
        "*a _b [c ".repeat(10),
        " c](https://example.org) b_ a*".repeat(10)
    );
    let p = project(
        &[
            ("lists", &lists),
            ("quotes", &quotes),
            ("inlines", &inlines),
        ],
        "",
    );
    succeeds(&build(p.path(), &["epub", "html", "pdf"]));
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[cfg(unix)]
#[test]
fn a_fifo_as_post_or_image_is_refused_not_waited_on() {
    let p = project(&[("pipe", "Text.\n"), ("picture", "![a](a.png)\n")], "");
    let file = post(p.path(), "pipe");
    std::fs::remove_file(&file).unwrap();
    mkfifo(&file);
    mkfifo(&p.path().join("books/posts/picture/a.png"));
    let out = build(p.path(), &["epub"]);
    fails_with(
        &out,
        &[
            "books/posts/pipe/en.md: error: the file is a named pipe (FIFO), not a regular file",
            "books/posts/picture/en.md:5:1: error: the image `a.png` is a named pipe (FIFO)",
        ],
    );
}

#[test]
fn a_page_a_thousand_centimetres_wide_is_refused_at_its_line() {
    let p = project(&[("a", "Text.\n")], "\n[print]\nwidth = \"1000cm\"\n");
    let toml = std::fs::read_to_string(p.path().join("books/b/book.toml")).unwrap();
    let line = toml.lines().position(|l| l.starts_with("width")).unwrap() + 1;
    let out = build(p.path(), &["pdf"]);
    fails_with(
        &out,
        &[&format!(
            "books/b/book.toml:{line}:1: error: `width = \"1000cm\"` is too large for a printed book"
        )],
    );
}

/// A PNG header claiming `width` × `height` pixels, with a correct CRC and
/// no pixel data.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    let mut crc = !0u32;
    for &b in &ihdr {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0d".to_vec();
    png.extend(ihdr);
    png.extend((!crc).to_be_bytes());
    png
}

#[test]
fn bad_images_are_refused_at_the_posts_line_in_every_format() {
    let square = std::fs::read(fixture("torture/posts/image/square.png")).unwrap();
    let body = "Text.\n\n![text](text.png)\n\n![empty](empty.png)\n\n![cut](cut.png)\n\n![huge](huge.png)\n\n![named](named.jpg)\n\n![svg](script.svg)\n\n![ext](external.svg)\n";
    let p = project(&[("pictures", body)], "");
    let folder = p.path().join("books/posts/pictures");
    std::fs::write(folder.join("text.png"), b"this is not a picture\n").unwrap();
    std::fs::write(folder.join("empty.png"), b"").unwrap();
    std::fs::write(folder.join("cut.png"), &square[..square.len() / 2]).unwrap();
    std::fs::write(folder.join("huge.png"), png_header(40_000, 40_000)).unwrap();
    std::fs::write(folder.join("named.jpg"), &square).unwrap();
    std::fs::write(
        folder.join("script.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
    )
    .unwrap();
    std::fs::write(
        folder.join("external.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"https://tracker.example/p.png\"/></svg>",
    )
    .unwrap();
    let file = "books/posts/pictures/en.md";
    let expected = [
        format!("{file}:7:1: error: the image `text.png` is not an image"),
        format!("{file}:9:1: error: the image `empty.png` is empty"),
        format!("{file}:11:1: error: the image `cut.png` is damaged or truncated"),
        format!("{file}:13:1: error: the image `huge.png` is 40000 × 40000 pixels"),
        format!(
            "{file}:15:1: error: the image `named.jpg` is a PNG image but its name says a JPEG image"
        ),
        format!("{file}:17:1: error: the image `script.svg` has a <script> element"),
        format!(
            "{file}:19:1: error: the image `external.svg` refers to `https://tracker.example/p.png` outside itself"
        ),
    ];
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    for format in ["epub", "pdf", "html"] {
        let out = build(p.path(), &[format]);
        fails_with(&out, &expected);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("book.typ"),
            "{format}: the theme is not blamed:\n{stderr}"
        );
    }
}

#[test]
fn a_post_larger_than_the_limit_is_refused() {
    let big = "word ".repeat(1024 * 1024);
    let p = project(&[("big", &big)], "");
    fails_with(
        &build(p.path(), &["epub"]),
        &["books/posts/big/en.md: error: the file is 6 MiB, more than the 4 MiB allowed"],
    );
}

#[test]
fn unsafe_slugs_are_refused_at_their_book_toml_line() {
    let cases = [
        ("../extra/p", "leaves the posts folder"),
        ("/etc", "is an absolute path"),
        ("my post", "did you mean `my-post`?"),
        ("a#b", "`#`"),
        ("100%", "`%`"),
        ("it's", "`'`"),
        ("Post", "uppercase"),
        (
            "cover",
            "taken by a page the EPUB or the web edition writes itself",
        ),
        ("nav", "taken by a page"),
        ("index", "taken by a page"),
    ];
    for (slug, why) in cases {
        let p = project(&[("fine", "Text.\n"), (slug, "Text.\n")], "");
        // `posts = [` is line 4; the bad slug is the second entry.
        let out = build(p.path(), &["epub"]);
        fails_with(&out, &["books/b/book.toml:6:", why]);
        assert!(
            !p.path().join("dist").exists() || files_below(&p.path().join("dist")).is_empty(),
            "{slug}: nothing is written"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_folder_inside_the_output_folder_is_refused_and_nothing_lands_outside() {
    let p = project(&[("a", "Text.\n")], "");
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(p.path().join("dist")).unwrap();
    std::os::unix::fs::symlink(outside.path(), p.path().join("dist/b")).unwrap();
    fails_with(
        &build(p.path(), &["epub"]),
        &[
            "dist/b is a link to",
            "writes only inside its output folder",
        ],
    );
    let landed = std::fs::read_dir(outside.path()).unwrap().count();
    assert_eq!(landed, 0, "nothing is written through the link");
}

#[test]
fn a_post_linked_from_outside_the_books_is_refused() {
    let p = project(&[("linked", "Text.\n")], "");
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    std::fs::write(&secret, "+++\ntitle = \"secret\"\n+++\nThe secret.\n").unwrap();
    let file = post(p.path(), "linked");
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&secret, &file).unwrap();
    fails_with(
        &build(p.path(), &["epub"]),
        &[
            "books/posts/linked/en.md: error: the post is a link to",
            "outside the book's folders",
        ],
    );
}

#[test]
fn a_control_character_in_a_title_is_refused_at_its_line() {
    let p = project(&[("a", "Text.\n")], "");
    std::fs::write(
        post(p.path(), "a"),
        "+++\ntitle = \"Bell\\u0007\"\n+++\nText.\n",
    )
    .unwrap();
    fails_with(
        &build(p.path(), &["epub"]),
        &["books/posts/a/en.md:2:1: error: `title` holds the control character U+0007"],
    );
    let toml = p.path().join("books/b/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("en = \"B\"", "en = \"B\\u001b[31m\"")).unwrap();
    fails_with(
        &build(p.path(), &["epub"]),
        &["books/b/book.toml:9:1: error: `title.en` holds the control character U+001B"],
    );
}

#[test]
fn link_targets_with_spaces_or_bars_are_percent_encoded_in_every_format() {
    let body = "See [the notes](<https://example.org/my notes|draft.html>) and [a mail](mailto:me@example.org).\n";
    let p = project(&[("links", body)], "");
    succeeds(&build(p.path(), &["epub", "html"]));
    let epub = p.path().join("dist/b/b-en.epub");
    let chapter = zip_entry(&epub, "OEBPS/links.xhtml");
    assert!(
        chapter.contains("href=\"https://example.org/my%20notes%7Cdraft.html\""),
        "{chapter}"
    );
    assert!(
        chapter.contains("href=\"mailto:me@example.org\""),
        "{chapter}"
    );
    let failures = epubcheck(std::slice::from_ref(&epub));
    assert!(failures.is_empty(), "{failures:?}");
    let page = std::fs::read_to_string(p.path().join("dist/b/en/links.html")).unwrap();
    assert!(
        page.contains("href=\"https://example.org/my%20notes%7Cdraft.html\""),
        "{page}"
    );
}
