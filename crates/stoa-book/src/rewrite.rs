//! Plugins' `source` hooks: a post's Markdown rewritten before it is
//! parsed, and every line number found afterwards mapped back to the line
//! the author wrote, so that errors still point into the author's file.

use crate::source::SourceFile;
use stoa_doc::Diagnostic;

/// The post whose Markdown a [`SourceHook`] rewrites.
#[derive(Clone, Copy, Debug)]
pub struct PostSource<'a> {
    /// The post's slug.
    pub slug: &'a str,
    /// Its file, as messages name it.
    pub file: &'a str,
    /// The Markdown after the front matter.
    pub markdown: &'a str,
}

/// What a [`SourceHook`] made of a post.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RewrittenSource {
    /// The Markdown to parse.
    pub markdown: String,
    /// For each of its lines, the 1-based line of [`PostSource::markdown`]
    /// it comes from; `None` for a line that was added.
    pub line_map: Vec<Option<usize>>,
    /// Warnings about the post.
    pub warnings: Vec<Diagnostic>,
}

/// Rewrites each post's Markdown before it is parsed: the plugins' `source`
/// hooks, which the build driver provides (stoa-book knows no plugin).
pub trait SourceHook: Sync {
    /// The new Markdown and its line map, or the errors that stop the post.
    fn rewrite(&self, post: PostSource<'_>) -> Result<RewrittenSource, Vec<Diagnostic>>;
}

/// Said of an error in Markdown that a plugin added rather than the author.
const ADDED: &str = " (in Markdown a plugin's `source` hook added here)";

/// Maps line numbers of the rewritten body back to the author's file.
pub(crate) struct LineMapper {
    /// For each rewritten line, the author's body line (1-based).
    map: Vec<Option<usize>>,
    /// The file line of the body's first line.
    first_line: usize,
}

impl LineMapper {
    /// The identity: nothing was rewritten.
    pub(crate) fn identity(first_line: usize) -> Self {
        LineMapper {
            map: Vec::new(),
            first_line,
        }
    }

    pub(crate) fn new(map: Vec<Option<usize>>, first_line: usize) -> Self {
        LineMapper { map, first_line }
    }

    /// The line to parse the rewritten body from: 1 when there is a map
    /// (its lines are then indexes into it), the body's own first line else.
    pub(crate) fn parse_from(&self) -> usize {
        if self.map.is_empty() {
            self.first_line
        } else {
            1
        }
    }

    /// The author's file line for `line` of the parsed body, and whether
    /// the line was added by a plugin (then the author's nearest line: the
    /// one it was inserted before, else the last one before it).
    pub(crate) fn author_line(&self, line: usize) -> (usize, bool) {
        if self.map.is_empty() {
            return (line, false);
        }
        let at = line.saturating_sub(1);
        if let Some(Some(l)) = self.map.get(at) {
            return (self.first_line + l - 1, false);
        }
        let after = self.map.iter().skip(at).flatten().next();
        let before = self.map.iter().take(at).rev().flatten().next();
        let body_line = after.or(before).copied().unwrap_or(1);
        (self.first_line + body_line - 1, true)
    }

    /// Moves the images' positions to the author's file; the URLs of those
    /// in lines a plugin added, for [`Self::mark_added`].
    pub(crate) fn images(&self, images: &mut [stoa_markdown::ImageRef]) -> Vec<String> {
        let mut added = Vec::new();
        for image in images {
            let (line, was_added) = self.author_line(image.pos.line);
            image.pos.line = line;
            if was_added {
                image.pos.column = 1;
                added.push(image.url.clone());
            }
        }
        added
    }

    /// Says, in the errors about the images at `urls`, that a plugin added them.
    pub(crate) fn mark_added(errors: &mut [Diagnostic], urls: &[String]) {
        for error in errors {
            if urls
                .iter()
                .any(|u| error.message.contains(&format!("`{u}`")))
            {
                error.message.push_str(ADDED);
            }
        }
    }

    /// `diagnostic`, its line moved to the author's file.
    pub(crate) fn diagnostic(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        if let Some(line) = diagnostic.line {
            let (line, added) = self.author_line(line);
            diagnostic.line = Some(line);
            if added {
                diagnostic.column = Some(1);
                diagnostic.message.push_str(ADDED);
            }
        }
        diagnostic
    }
}

/// Runs `hook` on the body of `file` from `body_start`; the Markdown to
/// parse and the mapper of its lines.
pub(crate) fn rewrite_body(
    file: &SourceFile,
    body_start: usize,
    slug: &str,
    hook: Option<&dyn SourceHook>,
) -> Result<(String, LineMapper, Vec<Diagnostic>), Vec<Diagnostic>> {
    let first_line = crate::source::line_col(&file.text, body_start).0;
    let body = &file.text[body_start..];
    let Some(hook) = hook else {
        return Ok((
            body.to_string(),
            LineMapper::identity(first_line),
            Vec::new(),
        ));
    };
    let rewritten = hook.rewrite(PostSource {
        slug,
        file: &file.display,
        markdown: body,
    })?;
    let mapper = LineMapper::new(rewritten.line_map, first_line);
    Ok((rewritten.markdown, mapper, rewritten.warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_map_to_the_authors_and_added_ones_to_their_neighbour() {
        // Body starts on file line 5; two lines added on top, one at the end.
        let mapper = LineMapper::new(vec![None, None, Some(1), Some(2), None], 5);
        assert_eq!(mapper.parse_from(), 1);
        assert_eq!(mapper.author_line(3), (5, false));
        assert_eq!(mapper.author_line(4), (6, false));
        assert_eq!(
            mapper.author_line(1),
            (5, true),
            "before the author's line 1"
        );
        assert_eq!(mapper.author_line(5), (6, true), "after the last line");
        assert_eq!(mapper.author_line(9), (6, true), "past the end");
        let d = mapper.diagnostic(Diagnostic::error("broken").at(4, 7));
        assert_eq!((d.line, d.column), (Some(6), Some(7)));
        let identity = LineMapper::identity(5);
        assert_eq!(identity.parse_from(), 5);
        assert_eq!(identity.author_line(8), (8, false));
    }
}
