//! A post's Markdown as the `source` hook edits it: lines that remember
//! which line of the author's text each came from, so that stoa can report
//! a later error at the author's line however the plugin rewrote the text.

use std::ops::Range;

/// One line of the Markdown and the author's line it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    text: String,
    /// 1-based line of the text the hook was given; `None` for a line the
    /// plugin added.
    origin: Option<usize>,
}

/// The Markdown of one post (after its front matter), line by line.
///
/// Every edit keeps a *line map*: for each line, the line of the text the
/// hook was given that it comes from. stoa maps the line numbers of later
/// errors through it, so a post's author reads their own line numbers.
/// Edit with [`insert_lines`](Self::insert_lines),
/// [`replace_lines`](Self::replace_lines) and
/// [`remove_lines`](Self::remove_lines); line indexes are 0-based, as in a
/// `Vec`. [`set_text`](Self::set_text) replaces everything and guesses the
/// map from the lines that stayed the same at the start and the end.
///
/// ```
/// use stoa_sdk::Markdown;
/// let mut md = Markdown::new("Hello.\n\n![a](a.png)\n");
/// md.insert_lines(0, "> An epigraph.\n\n");
/// assert_eq!(md.text(), "> An epigraph.\n\nHello.\n\n![a](a.png)\n");
/// // The image, now on line 5, is the author's line 3.
/// assert_eq!(md.line_map(), vec![None, None, Some(1), Some(2), Some(3)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Markdown {
    lines: Vec<Line>,
    /// Whether the text ends with a line break.
    final_newline: bool,
}

impl Markdown {
    /// The text as the hook receives it: every line its own origin.
    pub fn new(text: &str) -> Markdown {
        let (lines, final_newline) = split(text);
        let lines = lines
            .into_iter()
            .enumerate()
            .map(|(i, text)| Line {
                text,
                origin: Some(i + 1),
            })
            .collect();
        Markdown {
            lines,
            final_newline,
        }
    }

    /// The text as it is now.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&line.text);
        }
        if self.final_newline && !self.lines.is_empty() {
            out.push('\n');
        }
        out
    }

    /// The lines as they are now, without their line breaks.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(|l| l.text.as_str())
    }

    /// How many lines there are.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True when there is no line at all.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The author's line (1-based) that line `index` (0-based) comes from;
    /// `None` for an added line or an index past the end.
    pub fn origin(&self, index: usize) -> Option<usize> {
        self.lines.get(index).and_then(|l| l.origin)
    }

    /// For each line, the author's line it comes from (`None`: added), as
    /// the hook's output carries it.
    pub fn line_map(&self) -> Vec<Option<usize>> {
        self.lines.iter().map(|l| l.origin).collect()
    }

    /// Inserts the lines of `text` before line `index` (0-based; the line
    /// count appends). An error in them is reported at the author's line
    /// they precede. Indexes past the end append.
    pub fn insert_lines(&mut self, index: usize, text: &str) {
        let index = index.min(self.lines.len());
        let added = split(text)
            .0
            .into_iter()
            .map(|text| Line { text, origin: None });
        self.lines.splice(index..index, added);
    }

    /// Replaces lines `range` (0-based, end excluded) with the lines of
    /// `text`, each of which maps to the first line replaced: an error in
    /// the new text points at the text it replaced. The range is clamped
    /// to the lines there are.
    pub fn replace_lines(&mut self, range: Range<usize>, text: &str) {
        let end = range.end.min(self.lines.len());
        let start = range.start.min(end);
        let origin = self.lines[start..end].iter().find_map(|l| l.origin);
        let new = split(text).0.into_iter().map(|text| Line { text, origin });
        self.lines.splice(start..end, new);
    }

    /// Removes lines `range` (0-based, end excluded; clamped).
    pub fn remove_lines(&mut self, range: Range<usize>) {
        let end = range.end.min(self.lines.len());
        let start = range.start.min(end);
        self.lines.drain(start..end);
    }

    /// Replaces line `index` with `text` (one line or several), keeping its
    /// origin; nothing when there is no such line.
    pub fn set_line(&mut self, index: usize, text: &str) {
        if index < self.lines.len() {
            self.replace_lines(index..index + 1, text);
        }
    }

    /// Replaces the whole text. The lines the new text shares with the old
    /// one at its start and at its end keep their origins; the lines
    /// between map to the first old line they replace. Prefer the line
    /// operations when the edit is known: their map is exact.
    pub fn set_text(&mut self, text: &str) {
        let (new, final_newline) = split(text);
        let map = guess_line_map(
            &self
                .lines
                .iter()
                .map(|l| l.text.as_str())
                .collect::<Vec<_>>(),
            &new.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let old: Vec<Option<usize>> = self.lines.iter().map(|l| l.origin).collect();
        self.lines = new
            .into_iter()
            .zip(map)
            .map(|(text, from)| Line {
                text,
                origin: from.and_then(|i| old.get(i).copied().flatten()),
            })
            .collect();
        self.final_newline = final_newline;
    }
}

/// The lines of `text` and whether it ends with a line break. A `\r` before
/// a line break stays in its line, as the Markdown parser expects it.
fn split(text: &str) -> (Vec<String>, bool) {
    if text.is_empty() {
        return (Vec::new(), false);
    }
    let final_newline = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    (
        body.split('\n').map(str::to_string).collect(),
        final_newline,
    )
}

/// Above this many cells (old lines × new lines) the map is guessed from
/// the common start and end only: a longest common subsequence would take
/// too much memory.
const MAX_LCS_CELLS: usize = 4_000_000;

/// For each line of `new`, the index of the line of `old` it comes from.
/// Lines of a longest common subsequence map one to one; a line between two
/// of them maps to the first old line those two enclose (it replaces it),
/// or to none when they enclose no old line (it was inserted). Used by
/// [`Markdown::set_text`], and by the host for a plugin that returns no map.
pub fn guess_line_map(old: &[&str], new: &[&str]) -> Vec<Option<usize>> {
    // The common start and end first: most edits touch a few lines.
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut pairs: Vec<(usize, usize)> = (0..prefix).map(|i| (i, i)).collect();
    pairs.extend(
        common_lines(old_mid, new_mid)
            .into_iter()
            .map(|(i, j)| (i + prefix, j + prefix)),
    );
    pairs.extend((0..suffix).map(|k| (old.len() - suffix + k, new.len() - suffix + k)));
    let mut map = vec![None; new.len()];
    for &(i, j) in &pairs {
        map[j] = Some(i);
    }
    // Unmatched lines: between the matched pair before and the one after.
    let mut before: Option<(usize, usize)> = None;
    let mut next = 0;
    for slot in map.iter_mut() {
        if slot.is_some() {
            before = pairs.get(next).copied();
            next += 1;
            continue;
        }
        let first_old = before.map_or(0, |(i, _)| i + 1);
        let end_old = pairs.get(next).map_or(old.len(), |&(i, _)| i);
        *slot = (first_old < end_old).then_some(first_old);
    }
    map
}

/// The pairs (old index, new index) of a longest common subsequence of
/// lines, in order; none when the table would be too big.
fn common_lines(old: &[&str], new: &[&str]) -> Vec<(usize, usize)> {
    let (n, m) = (old.len(), new.len());
    if n == 0 || m == 0 || n.saturating_mul(m) > MAX_LCS_CELLS {
        return Vec::new();
    }
    // dp[i * (m + 1) + j]: the LCS length of old[i..] and new[j..].
    let mut dp = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            dp[at(i, j)] = if old[i] == new[j] {
                dp[at(i + 1, j + 1)] + 1
            } else {
                dp[at(i + 1, j)].max(dp[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < n && j < m {
        if old[i] == new[j] {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if dp[at(i + 1, j)] >= dp[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_keep_the_authors_lines() {
        let mut md = Markdown::new("a\nb\nc\nd");
        md.insert_lines(1, "x\ny\n");
        md.replace_lines(4..5, "C1\nC2");
        md.remove_lines(0..1);
        assert_eq!(md.text(), "x\ny\nb\nC1\nC2\nd");
        assert_eq!(
            md.line_map(),
            vec![None, None, Some(2), Some(3), Some(3), Some(4)]
        );
        md.set_line(0, "X");
        assert_eq!(md.origin(0), None);
        md.insert_lines(99, "end\n");
        assert_eq!(md.lines().last(), Some("end"));
        md.remove_lines(5..99);
        md.replace_lines(40..50, "tail");
        assert_eq!(md.lines().last(), Some("tail"));
    }

    #[test]
    fn the_final_line_break_is_kept_and_crlf_survives() {
        assert_eq!(Markdown::new("a\r\nb\r\n").text(), "a\r\nb\r\n");
        assert_eq!(Markdown::new("").text(), "");
        let mut empty = Markdown::new("");
        empty.insert_lines(0, "new\n");
        assert_eq!(empty.text(), "new");
        assert!(!empty.is_empty());
    }

    #[test]
    fn a_whole_new_text_maps_what_it_shares() {
        let mut md = Markdown::new("one\ntwo\nthree\nfour\n");
        md.set_text("zero\none\ntwo\nTHREE!\nfour\n");
        assert_eq!(md.line_map(), [None, Some(1), Some(2), Some(3), Some(4)]);
        assert_eq!(md.text(), "zero\none\ntwo\nTHREE!\nfour\n");
    }

    #[test]
    fn guessing_handles_insertions_replacements_and_removals() {
        assert_eq!(
            guess_line_map(&["a", "b"], &["x", "a", "b"]),
            [None, Some(0), Some(1)]
        );
        assert_eq!(
            guess_line_map(&["a", "b", "c"], &["a", "B", "B2", "c"]),
            [Some(0), Some(1), Some(1), Some(2)]
        );
        assert_eq!(
            guess_line_map(&["a", "b", "c"], &["a", "c"]),
            [Some(0), Some(2)]
        );
        assert_eq!(
            guess_line_map(&["a", "a"], &["a", "a", "a"]),
            [Some(0), Some(1), None]
        );
    }
}
