//! Links inside the book that lead nowhere: an anchor no heading has, a
//! file next to the post that is not there.

use crate::scan::Block;
use crate::{Hit, Lint};
use std::path::Path;

/// `#anchor` links must name an id of the post (a heading's, `{#id}`, a
/// note's); relative links must name a file or folder next to the post.
pub(crate) fn broken_links(blocks: &[Block], dir: Option<&Path>, hits: &mut Vec<Hit>) {
    let ids: Vec<&str> = blocks
        .iter()
        .flat_map(|b| b.id.iter().chain(b.ids.iter()))
        .map(String::as_str)
        .collect();
    for block in blocks {
        for (target, offset) in &block.links {
            let problem = if let Some(anchor) = target.strip_prefix('#') {
                let anchor = stoa_markdown::percent_decode(anchor);
                // `#slug` leads to another post's chapter.
                let other_post = dir.and_then(Path::parent).is_some_and(|posts| {
                    !anchor.contains(['/', '\\', '.']) && posts.join(&anchor).is_dir()
                });
                (!anchor.is_empty() && !ids.contains(&anchor.as_str()) && !other_post)
                    .then(|| format!("the link to `#{anchor}` names no heading of this post"))
            } else if is_relative(target) {
                let path =
                    stoa_markdown::percent_decode(target.split(['#', '?']).next().unwrap_or(""));
                match dir {
                    Some(dir) if !path.is_empty() && !dir.join(&path).exists() => Some(format!(
                        "the link to `{path}` leads to no file next to the post"
                    )),
                    _ => None,
                }
            } else {
                None
            };
            if let Some(message) = problem {
                hits.push(Hit {
                    lint: Lint::BrokenLink,
                    offset: *offset,
                    message,
                    hint: "fix the target, or link to the page's full address".into(),
                });
            }
        }
    }
}

/// A link with no scheme and not rooted at a site: `notes.pdf`, `../x/`.
fn is_relative(target: &str) -> bool {
    let scheme = target.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    !scheme && !target.starts_with('/') && !target.starts_with('#') && !target.is_empty()
}

#[cfg(test)]
mod tests {
    use crate::{Post, ids, lint_post, test_post};

    #[test]
    fn an_anchor_to_no_heading_is_broken() {
        let f = test_post("", "## Start\n\nSee [the end](#the-end).\n", "en");
        assert_eq!(ids(&f), ["broken-link"]);
    }

    #[test]
    fn anchors_to_headings_and_web_links_are_fine() {
        let body = "## The End {#end}\n\nSee [x](#end), [y](#start) and [z](https://e.org/a#b).\n\n## Start\n\nText.\n";
        assert!(test_post("", body, "en").is_empty());
    }

    #[test]
    fn relative_links_must_exist_next_to_the_post() {
        let dir = tempfile_dir();
        std::fs::write(dir.join("here.pdf"), b"x").unwrap();
        let text = "+++\ntitle = \"t\"\n+++\n[a](here.pdf) and [b](gone.pdf)\n";
        let post = Post {
            text,
            body_start: text.rfind("+++\n").unwrap() + 4,
            front: 4..18,
            front_table: None,
            lang: "en",
            dir: Some(&dir),
            glossary_headings: &[],
        };
        let f = lint_post(&post);
        assert_eq!(ids(&f), ["broken-link"]);
        assert!(f[0].message.contains("gone.pdf"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A fresh folder under the target's temporary directory.
    fn tempfile_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("stoa-lint-links-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_anchor_naming_another_post_is_its_chapter() {
        let dir = tempfile::tempdir().unwrap();
        let posts = dir.path();
        std::fs::create_dir_all(posts.join("this")).unwrap();
        std::fs::create_dir_all(posts.join("other")).unwrap();
        let text = "+++\ntitle = \"t\"\n+++\n[a](#other) and [b](#nobody)\n";
        let post = Post {
            text,
            body_start: text.rfind("+++\n").unwrap() + 4,
            front: 4..18,
            front_table: None,
            lang: "en",
            dir: Some(&posts.join("this")),
            glossary_headings: &[],
        };
        let f = lint_post(&post);
        assert_eq!(ids(&f), ["broken-link"]);
        assert!(f[0].message.contains("#nobody"), "{}", f[0].message);
    }
}
