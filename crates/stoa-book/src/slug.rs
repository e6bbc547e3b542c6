//! Post slugs: a slug names the post's folder and becomes a file name in
//! every format (`<slug>.xhtml` in the EPUB, `<slug>.html` on the web,
//! `images/<slug>/` for its images), so it must be safe everywhere.
//!
//! A slug is one folder name of lowercase ASCII letters, digits, `-` and `_`,
//! starting with a letter or a digit, at most [`MAX_LEN`] bytes, and not one
//! of the names the formats use for their own files ([`RESERVED`]). Being
//! lowercase, two slugs can never differ only in case, so a book builds the
//! same on a case-insensitive file system.

/// The longest slug: file names stay well under every file system's limit.
pub const MAX_LEN: usize = 100;

/// Names of files the EPUB (`cover.xhtml`, `title.xhtml`, `contents.xhtml`,
/// `nav.xhtml`, `colophon.xhtml`, `toc.ncx`, `content.opf`,
/// `stylesheet.css`, `images/`) and the web edition (`index.html`,
/// `style.css`, `cover.png`) write beside the chapters, and the EPUB's
/// container folders.
pub const RESERVED: &[&str] = &[
    "colophon",
    "contents",
    "content",
    "cover",
    "images",
    "index",
    "meta-inf",
    "mimetype",
    "nav",
    "oebps",
    "style",
    "stylesheet",
    "title",
    "toc",
];

/// Why `slug` cannot be used, and what to write instead; `None` when it is fine.
pub fn problem(slug: &str) -> Option<(String, String)> {
    let suggest = || {
        let better = stoa_markdown::slugify(slug);
        if better.is_empty() || better == slug || RESERVED.contains(&better.as_str()) {
            "use lowercase ASCII letters, digits, `-` and `_`, and rename the post's folder to match"
                .to_string()
        } else {
            format!("did you mean `{better}`? (rename the post's folder to match)")
        }
    };
    if slug.is_empty() {
        return Some((
            "a post's name is empty".into(),
            "write the name of the post's folder".into(),
        ));
    }
    if slug.contains(['/', '\\']) || slug.starts_with('.') {
        let why = if slug.split(['/', '\\']).any(|p| p == "..") || slug.starts_with('.') {
            "leaves the posts folder"
        } else if slug.starts_with(['/', '\\']) {
            "is an absolute path"
        } else {
            "is a path, not a folder name"
        };
        let last = slug
            .rsplit(['/', '\\'])
            .find(|p| !p.is_empty() && *p != "..")
            .unwrap_or("");
        let hint = if last.is_empty() {
            "write the name of a folder inside the posts folder".to_string()
        } else {
            format!(
                "write only the folder's name, e.g. `{last}`, and move the folder into the posts folder"
            )
        };
        return Some((format!("the post `{slug}` {why}"), hint));
    }
    if slug.len() > MAX_LEN {
        return Some((
            format!("the post name `{slug:.40}…` is longer than {MAX_LEN} bytes"),
            "shorten the post's folder name".into(),
        ));
    }
    if let Some(bad) = slug
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_')))
    {
        let what = if bad.is_ascii_uppercase() {
            "an uppercase letter".to_string()
        } else if bad.is_control() {
            format!("the control character U+{:04X}", bad as u32)
        } else if bad == ' ' {
            "a space".to_string()
        } else {
            format!("`{bad}`")
        };
        return Some((
            format!(
                "the post name `{}` has {what}, which is not safe in file names and links",
                slug.escape_debug()
            ),
            suggest(),
        ));
    }
    if slug.starts_with(['-', '_']) {
        return Some((
            format!("the post name `{slug}` starts with `{}`", &slug[..1]),
            suggest(),
        ));
    }
    if RESERVED.contains(&slug) {
        return Some((
            format!(
                "the post name `{slug}` is taken by a page the EPUB or the web edition writes itself"
            ),
            format!("rename the post's folder, e.g. `{slug}-post`, and its name in book.toml"),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_slugs_pass() {
        for slug in ["a", "dialogue-on-masters", "post_2", "2024-review"] {
            assert_eq!(problem(slug), None, "{slug}");
        }
    }

    #[test]
    fn bad_slugs_say_why_and_what_to_do() {
        let cases = [
            ("", "empty", ""),
            ("../extra/p", "leaves the posts folder", "`p`"),
            ("/etc/passwd", "absolute path", "`passwd`"),
            ("a/b", "is a path", "`b`"),
            (".hidden", "leaves the posts folder", ""),
            ("My Post", "uppercase", "did you mean `my-post`?"),
            ("my post", "a space", "did you mean `my-post`?"),
            ("a#b", "`#`", "`a-b`"),
            ("a%20b", "`%`", "`a-20b`"),
            ("a\"b", "`\"`", ""),
            ("a\u{1}b", "control character U+0001", ""),
            ("ação", "`ç`", "`acao`"),
            ("-x", "starts with", "`x`"),
            ("cover", "taken by a page", "`cover-post`"),
            ("nav", "taken by a page", ""),
            ("index", "taken by a page", ""),
            ("style", "taken by a page", ""),
            ("toc", "taken by a page", ""),
        ];
        for (slug, why, hint) in cases {
            let (message, advice) = problem(slug).unwrap_or_else(|| panic!("{slug} passes"));
            assert!(message.contains(why), "{slug}: {message}");
            assert!(advice.contains(hint), "{slug}: {advice}");
        }
        assert!(problem(&"a".repeat(MAX_LEN + 1)).is_some());
    }
}
