//! Silences: what the author says is meant. Each carries a reason, so that
//! the next reader of the post knows why; a silence that silences nothing
//! is itself reported, so silences do not outlive the text they were for.
//!
//! - For a whole post, in its front matter:
//!
//!   ```toml
//!   [lint.allow]
//!   web-only = "the author addresses the blog's readers here"
//!   ```
//!
//! - For one block (a paragraph, a list, a quote), an HTML comment on the
//!   line before it (comments never reach a book):
//!   `<!-- lint: allow foreign-sentence: the motto is Latin in the original -->`

use crate::scan::{Block, Kind};
use crate::{Hit, Lint, Post};

/// The front-matter key that holds a post's silences: `[lint.allow]`.
pub const ALLOW_KEY: &str = "lint.allow";

/// One silence, with where it is written.
struct Silence {
    lint: Lint,
    /// Where it is written, for reporting it.
    offset: usize,
    /// The byte range of the file it covers.
    covers: std::ops::Range<usize>,
    used: bool,
}

/// Drops the hits that a silence covers, and adds a hit for each silence
/// that is malformed or covers nothing.
pub(crate) fn apply(post: &Post, blocks: &[Block], hits: Vec<Hit>) -> Vec<Hit> {
    let mut problems = Vec::new();
    let mut silences = front_matter(post, &mut problems);
    silences.extend(comments(blocks, post.text.len(), &mut problems));
    let mut kept = Vec::new();
    for hit in hits {
        let mut silenced = false;
        for s in silences
            .iter_mut()
            .filter(|s| s.lint == hit.lint && s.covers.contains(&hit.offset))
        {
            s.used = true;
            silenced = true;
        }
        if !silenced {
            kept.push(hit);
        }
    }
    for s in silences.iter().filter(|s| !s.used) {
        problems.push(Hit {
            lint: Lint::Silence,
            offset: s.offset,
            message: format!("`{}` is silenced here, but finds nothing", s.lint.id()),
            hint: "remove the silence: the text it was for has changed".into(),
        });
    }
    kept.extend(problems);
    kept
}

/// `[lint.allow]` of the front matter: each key a lint, each value the reason.
fn front_matter(post: &Post, problems: &mut Vec<Hit>) -> Vec<Silence> {
    let front = post.text.get(post.front.clone()).unwrap_or("");
    let table = match &post.front_table {
        Some(table) => table.clone(),
        None => match front.parse::<toml::Table>() {
            Ok(table) => table,
            // stoa check reports a front matter that is not TOML already.
            Err(_) => return Vec::new(),
        },
    };
    let Some(lint) = table.get("lint") else {
        return Vec::new();
    };
    let section = front.find("lint").unwrap_or(0);
    let at = |needle: &str| {
        post.front.start
            + front[section..]
                .find(needle)
                .map_or(section, |i| section + i)
    };
    let Some(allow) = lint
        .as_table()
        .and_then(|t| t.get("allow"))
        .and_then(|a| a.as_table())
    else {
        problems.push(Hit {
            lint: Lint::Silence,
            offset: at("lint"),
            message: "`lint` in the front matter must be a table `[lint.allow]`".into(),
            hint: "write [lint.allow] and under it `lint-id = \"the reason\"`".into(),
        });
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, reason) in allow {
        let offset = at(id);
        let Some(lint) = known(id, offset, problems) else {
            continue;
        };
        if reason.as_str().is_none_or(|r| r.trim().is_empty()) {
            problems.push(no_reason(id, offset));
            continue;
        }
        out.push(Silence {
            lint,
            offset,
            covers: 0..usize::MAX,
            used: false,
        });
    }
    out
}

/// `<!-- lint: allow a, b: reason -->` comments, each covering the next block.
fn comments(blocks: &[Block], end: usize, problems: &mut Vec<Hit>) -> Vec<Silence> {
    let mut out = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if block.kind != Kind::Html {
            continue;
        }
        let Some(inner) = block
            .text
            .trim()
            .strip_prefix("<!--")
            .and_then(|t| t.strip_suffix("-->"))
            .map(str::trim)
        else {
            continue;
        };
        let Some(rest) = inner.strip_prefix("lint:") else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("allow") else {
            problems.push(Hit {
                lint: Lint::Silence,
                offset: block.start,
                message: "a `lint:` comment must say `allow <lint>: <reason>`".into(),
                hint: "write e.g. <!-- lint: allow web-only: the author's voice -->".into(),
            });
            continue;
        };
        let (names, reason) = rest.split_once(':').unwrap_or((rest, ""));
        let target = blocks[i + 1..].iter().position(|b| b.kind != Kind::Html);
        let covers = match target {
            Some(t) => {
                let t = i + 1 + t;
                blocks[t].start..blocks.get(t + 1).map_or(end, |b| b.start)
            }
            None => 0..0,
        };
        for id in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some(lint) = known(id, block.start, problems) else {
                continue;
            };
            if reason.trim().is_empty() {
                problems.push(no_reason(id, block.start));
                continue;
            }
            out.push(Silence {
                lint,
                offset: block.start,
                covers: covers.clone(),
                used: false,
            });
        }
    }
    out
}

fn known(id: &str, offset: usize, problems: &mut Vec<Hit>) -> Option<Lint> {
    match Lint::from_id(id).filter(|l| *l != Lint::Silence) {
        Some(lint) => Some(lint),
        None => {
            let ids: Vec<&str> = Lint::ALL[..Lint::ALL.len() - 1]
                .iter()
                .map(|l| l.id())
                .collect();
            let near = ids
                .iter()
                .map(|c| (strsim::normalized_damerau_levenshtein(id, c), *c))
                .filter(|(s, _)| *s >= 0.6)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, c)| c);
            problems.push(Hit {
                lint: Lint::Silence,
                offset,
                message: format!("there is no lint `{id}`"),
                hint: match near {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!("the lints are: {}", ids.join(", ")),
                },
            });
            None
        }
    }
}

fn no_reason(id: &str, offset: usize) -> Hit {
    Hit {
        lint: Lint::Silence,
        offset,
        message: format!("`{id}` is silenced without a reason"),
        hint: "say why the text is meant as it is, so the next reader knows".into(),
    }
}

#[cfg(test)]
mod tests {
    use crate::{ids, test_post};

    const WEB: &str = "Click here to read more.\n";

    #[test]
    fn a_post_silence_with_a_reason_silences() {
        let f = test_post(
            "[lint.allow]\nweb-only = \"the author's voice\"\n",
            WEB,
            "en",
        );
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn a_comment_silences_the_next_block_only() {
        let body = format!("<!-- lint: allow web-only: a reason -->\n{WEB}\n{WEB}");
        let f = test_post("", &body, "en");
        assert_eq!(ids(&f), ["web-only"]);
        assert_eq!(f[0].line, 7);
    }

    #[test]
    fn silences_without_reason_unknown_or_unused_are_findings() {
        let f = test_post("[lint.allow]\nweb-only = \"\"\n", WEB, "en");
        assert_eq!(ids(&f), ["silence", "web-only"]);
        let f = test_post("[lint.allow]\nweb-onyl = \"x\"\n", "Text.\n", "en");
        assert_eq!(ids(&f), ["silence"]);
        assert!(f[0].hint.contains("did you mean `web-only`"), "{f:?}");
        let f = test_post("[lint.allow]\nempty-section = \"x\"\n", "Text.\n", "en");
        assert_eq!(ids(&f), ["silence"]);
        assert!(f[0].message.contains("finds nothing"));
        let f = test_post("", "<!-- lint: allow web-only -->\nClick here.\n", "en");
        assert_eq!(ids(&f), ["silence", "web-only"]);
    }
}
