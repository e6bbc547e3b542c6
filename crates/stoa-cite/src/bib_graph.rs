//! What a BibTeX file refers to inside itself, checked before the parser
//! sees it: an `@string` built from itself (`@string{s = s # s}`) or an
//! entry whose `crossref` or `xdata` leads back to it would send the
//! parser's resolution into endless recursion (the process dies of a
//! stack overflow), and chains or braces nested without end exhaust the
//! stack too. Each is an error at its line instead.
//!
//! The scan is a light reading of BibTeX's syntax, linear in the file and
//! without recursion; what it cannot read it leaves to the parser, which
//! reports syntax errors with its own words.

use crate::error::{SourceError, line_column};
use std::collections::HashMap;

/// How long a chain of `@string`s built from other `@string`s, or of
/// entries taking fields from others, may be. Real files use one or two
/// levels.
pub const MAX_CHAIN: usize = 32;

/// How deeply braces may nest in a value; TeX markup in titles uses a few.
pub const MAX_BRACES: usize = 64;

/// A name defined in the file, what it refers to, and where.
struct Node {
    refs: Vec<String>,
    at: usize,
}

/// Checks `text` for reference cycles, over-long chains and deep braces.
pub fn check(text: &str) -> Result<(), SourceError> {
    let scan = Scanner::new(text).run()?;
    let error = |at: usize, message: String| {
        let (line, column) = line_column(text, at);
        SourceError {
            line,
            column,
            message: format!("BibTeX: {message}"),
        }
    };
    if let Some((at, path)) = first_cycle(&scan.strings) {
        return Err(error(
            at,
            format!(
                "the @string `{}` is built from itself ({}): define it with text",
                path[0],
                path.join(" → ")
            ),
        ));
    }
    if let Some((at, path)) = first_cycle(&scan.entries) {
        return Err(error(
            at,
            format!(
                "the entry `{}` takes its fields from itself through crossref or xdata ({}): \
                 remove one of the links",
                path[0],
                path.join(" → ")
            ),
        ));
    }
    for (what, nodes) in [("@string", &scan.strings), ("entry", &scan.entries)] {
        if let Some((at, name)) = too_long(nodes) {
            return Err(error(
                at,
                format!(
                    "the {what} `{name}` starts a chain of more than {MAX_CHAIN} \
                     references: shorten the chain"
                ),
            ));
        }
    }
    Ok(())
}

/// The first cycle found, in the file's order: where its first name is
/// defined, and the names around it (the first repeated at the end).
fn first_cycle(nodes: &HashMap<String, Node>) -> Option<(usize, Vec<String>)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut marks: HashMap<&str, Mark> = nodes.keys().map(|k| (k.as_str(), Mark::New)).collect();
    let mut order: Vec<(&String, &Node)> = nodes.iter().collect();
    order.sort_by_key(|(_, n)| n.at);
    for (start, _) in order {
        if marks[start.as_str()] != Mark::New {
            continue;
        }
        // Depth-first, with an explicit stack: (name, next ref to follow).
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        marks.insert(start, Mark::Open);
        while let Some(&mut (name, ref mut next)) = stack.last_mut() {
            let refs = &nodes[name].refs;
            if *next == refs.len() {
                marks.insert(name, Mark::Done);
                stack.pop();
                continue;
            }
            let target = refs[*next].as_str();
            *next += 1;
            match marks.get(target) {
                Some(Mark::New) => {
                    marks.insert(target, Mark::Open);
                    stack.push((target, 0));
                }
                Some(Mark::Open) => {
                    let from = stack.iter().position(|(n, _)| *n == target).unwrap_or(0);
                    let mut path: Vec<String> =
                        stack[from..].iter().map(|(n, _)| n.to_string()).collect();
                    path.push(target.to_string());
                    return Some((nodes[target].at, path));
                }
                _ => {}
            }
        }
    }
    None
}

/// A name whose chain of references (in a graph without cycles) is longer
/// than [`MAX_CHAIN`], and where it is defined.
fn too_long(nodes: &HashMap<String, Node>) -> Option<(usize, String)> {
    let mut depth: HashMap<&str, usize> = HashMap::new();
    let mut order: Vec<(&String, &Node)> = nodes.iter().collect();
    order.sort_by_key(|(_, n)| n.at);
    for (start, _) in order {
        let mut stack: Vec<&str> = vec![start];
        while let Some(&name) = stack.last() {
            if depth.contains_key(name) {
                stack.pop();
                continue;
            }
            let refs = &nodes[name].refs;
            let pending: Vec<&str> = refs
                .iter()
                .map(String::as_str)
                .filter(|r| nodes.contains_key(*r) && !depth.contains_key(r))
                .collect();
            if pending.is_empty() {
                let d = refs.iter().filter_map(|r| depth.get(r.as_str())).max();
                let d = d.map_or(0, |d| d + 1);
                if d > MAX_CHAIN {
                    return Some((nodes[name].at, name.to_string()));
                }
                depth.insert(name, d);
                stack.pop();
            } else {
                stack.extend(pending);
            }
        }
    }
    None
}

/// What the scan found.
#[derive(Default)]
struct Scan {
    /// `@string` names (lower case) and the names their values use.
    strings: HashMap<String, Node>,
    /// Entry keys (lower case) and the keys their `crossref` and `xdata` name.
    entries: HashMap<String, Node>,
}

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    scan: Scan,
    /// Where braces first nested deeper than [`MAX_BRACES`].
    deep_at: Option<usize>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            b: text.as_bytes(),
            i: 0,
            scan: Scan::default(),
            deep_at: None,
        }
    }

    fn run(mut self) -> Result<Scan, SourceError> {
        while let Some(at) = self.b[self.i..].iter().position(|&c| c == b'@') {
            self.i += at + 1;
            if self.entry().is_none() {
                // Not BibTeX this scan reads: the parser will say.
                break;
            }
            if let Some(at) = self.deep_at.take() {
                let (line, column) = line_column(self.text, at);
                return Err(SourceError {
                    line,
                    column,
                    message: format!(
                        "BibTeX: braces nested more than {MAX_BRACES} deep: close them"
                    ),
                });
            }
        }
        Ok(self.scan)
    }
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Skips blank space and `%` comments.
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() {
                self.i += 1;
            } else if c == b'%' {
                self.i += self.b[self.i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .unwrap_or(self.b.len() - self.i);
            } else {
                break;
            }
        }
    }

    /// A name: an entry type, a field, a key or an @string's name.
    fn ident(&mut self) -> Option<(&'a str, usize)> {
        let start = self.i;
        let len = self.b[start..]
            .iter()
            .take_while(|c| !c.is_ascii_whitespace() && !b"{}(),=#\"%@".contains(c))
            .count();
        self.i += len;
        (len > 0).then(|| (&self.text[start..start + len], start))
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        self.skip_ws();
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// One `@type{…}` (or `@type(…)`), after its `@`. `None` when the
    /// text is not BibTeX this scan reads.
    fn entry(&mut self) -> Option<()> {
        self.skip_ws();
        let (kind, _) = self.ident()?;
        let kind = kind.to_ascii_lowercase();
        self.skip_ws();
        let close = match self.peek()? {
            b'{' => b'}',
            b'(' => b')',
            // `@` in the text between entries: a comment.
            _ => return Some(()),
        };
        match kind.as_str() {
            "comment" if close == b'}' => {
                self.braced()?;
                return Some(());
            }
            "comment" | "preamble" => {
                self.i += 1;
                self.value()?;
                return self.expect(close);
            }
            _ => self.i += 1,
        }
        if kind == "string" {
            self.skip_ws();
            let (name, at) = self.ident()?;
            self.expect(b'=')?;
            let (refs, _) = self.value()?;
            let refs = refs.into_iter().map(|r| r.to_ascii_lowercase()).collect();
            self.scan
                .strings
                .insert(name.to_ascii_lowercase(), Node { refs, at });
            return self.expect(close);
        }
        self.skip_ws();
        let (key, at) = self.ident()?;
        let mut parents = Vec::new();
        loop {
            self.skip_ws();
            match self.peek()? {
                c if c == close => {
                    self.i += 1;
                    break;
                }
                b',' => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let (field, _) = self.ident()?;
            self.expect(b'=')?;
            let (_, text) = self.value()?;
            if field.eq_ignore_ascii_case("crossref") || field.eq_ignore_ascii_case("xdata") {
                parents.extend(
                    text.split(',')
                        .map(|k| k.trim().to_ascii_lowercase())
                        .filter(|k| !k.is_empty()),
                );
            }
        }
        self.scan
            .entries
            .insert(key.to_ascii_lowercase(), Node { refs: parents, at });
        Some(())
    }

    /// A field's value: pieces joined by `#`. The names of @strings it
    /// uses, and its text (braces and quotes taken off).
    fn value(&mut self) -> Option<(Vec<String>, String)> {
        let mut names = Vec::new();
        let mut text = String::new();
        loop {
            self.skip_ws();
            match self.peek()? {
                b'{' => text.push_str(self.braced()?),
                b'"' => text.push_str(self.quoted()?),
                _ => {
                    let (name, _) = self.ident()?;
                    if !name.bytes().all(|c| c.is_ascii_digit()) {
                        names.push(name.to_string());
                    }
                    text.push_str(name);
                }
            }
            self.skip_ws();
            if self.peek() != Some(b'#') {
                return Some((names, text));
            }
            self.i += 1;
        }
    }

    /// `{…}` with its braces balanced; the text inside.
    fn braced(&mut self) -> Option<&'a str> {
        let start = self.i + 1;
        let end = self.balanced(start, 1, None)?;
        Some(&self.text[start..end])
    }

    /// `"…"`, ending at a quote outside braces; the text inside.
    fn quoted(&mut self) -> Option<&'a str> {
        let start = self.i + 1;
        let end = self.balanced(start, 0, Some(b'"'))?;
        Some(&self.text[start..end])
    }

    /// Scans from `from` at brace depth `depth` to the brace that closes
    /// it (or to `quote` at depth 0); returns where it stands and moves past.
    fn balanced(&mut self, from: usize, mut depth: usize, quote: Option<u8>) -> Option<usize> {
        let mut i = from;
        loop {
            let c = *self.b.get(i)?;
            match c {
                b'\\' => i += 1,
                b'{' => {
                    depth += 1;
                    if depth > MAX_BRACES && self.deep_at.is_none() {
                        self.deep_at = Some(i);
                    }
                }
                b'}' if depth == 0 => return None,
                b'}' => {
                    depth -= 1;
                    if depth == 0 && quote.is_none() {
                        self.i = i + 1;
                        return Some(i);
                    }
                }
                q if Some(q) == quote && depth == 0 => {
                    self.i = i + 1;
                    return Some(i);
                }
                _ => {}
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> String {
        match check(text) {
            Err(e) => format!("{}:{}: {}", e.line, e.column, e.message),
            Ok(()) => "ok".into(),
        }
    }

    #[test]
    fn a_string_built_from_itself_is_an_error_at_its_line() {
        let m = message("% strings\n@string{s = s # s}\n@book{a, title = s}\n");
        assert!(
            m.starts_with("2:9: BibTeX: the @string `s` is built from itself (s → s)"),
            "{m}"
        );
        let m = message("@string{a = b}\n@STRING(b = \"x\" # A)\n");
        assert!(
            m.contains("the @string `a` is built from itself (a → b → a)"),
            "{m}"
        );
    }

    #[test]
    fn an_entry_that_leads_back_to_itself_is_an_error() {
        let m = message("@book{self, crossref = {self}, title = {T}}");
        assert!(
            m.starts_with("1:7: BibTeX: the entry `self` takes its fields from itself"),
            "{m}"
        );
        let m = message("@book{a, xdata = {c, b}}\n@book{b, crossref = \"a\"}\n@book{c}\n");
        assert!(m.contains("(a → b → a)"), "{m}");
    }

    #[test]
    fn long_chains_and_deep_braces_are_errors() {
        let chain: String = (0..40)
            .map(|i| format!("@book{{k{i}, crossref = {{k{}}}}}\n", i + 1))
            .collect();
        assert!(message(&chain).contains("a chain of more than 32 references"));
        let strings: String = (0..40)
            .map(|i| format!("@string{{s{i} = s{}}}\n", i + 1))
            .collect();
        assert!(
            message(&strings).contains("a chain of more than 32"),
            "{}",
            message(&strings)
        );
        let deep = format!(
            "@book{{a, title = {}x{}}}",
            "{".repeat(100),
            "}".repeat(100)
        );
        assert!(message(&deep).contains("braces nested more than 64 deep"));
    }

    #[test]
    fn real_files_and_what_it_cannot_read_pass() {
        let real = "@string{jan = \"January\"}\n@comment{ a { b } }\n@preamble{\"\\\\newcommand\"}\n\
            @article{knuth84, author = {Donald E. Knuth}, title = \"Literate {P}rogramming\",\n\
            journal = {The Computer Journal}, year = 1984, month = jan # {~1}, crossref = {proc}}\n\
            @proceedings{proc, title = {Proc.}, xdata = {}}\nfree text with an @ sign\n";
        assert_eq!(message(real), "ok");
        for broken in [
            "@book{",
            "@book{a, title = {x",
            "@string{",
            "@{}",
            "@book{a, = }",
        ] {
            assert_eq!(message(broken), "ok", "{broken}");
        }
    }
}
