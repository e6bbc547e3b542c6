//! No import circle between the files of one crate: a test over the
//! sources of every crate of the workspace (`cargo test -p
//! stoa-source-checks module_graph`).
//!
//! It links nothing of the crates it reads, so it builds in seconds. Each file of a crate's `src/` is a
//! module (`a.rs` and `a/mod.rs` are `a`, `a/b.rs` is `a::b`); a module
//! refers to another by `use crate::…`, `use super::…`, `use self::…`, a
//! bare `use child::…`, or a path written in the code (`crate::a::f()`).
//! A name re-exported by a module (`pub use a::Thing` in lib.rs) counts as
//! its defining module (a glob, `pub use a::*`, cannot be followed: what it
//! brings in counts as the module that holds the glob). Two modules that refer to each other, directly or
//! through others, are a circle: neither can be read, tested or moved
//! without the other. A child that refers to its parent (or a parent to its
//! child) is how Rust nests modules and is no circle; what counts is the
//! references between siblings (the children of one parent: the crate's
//! top-level files, or the files of one folder). Test code (`#[cfg(test)]`
//! items, and files declared by them) is left out: a test may reach its
//! input through the crate's front door without that being the module's
//! dependency. Comments and string literals are not code.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the workspace's crates are, from its root: the `members` of the
/// root `Cargo.toml` (`*` is any folder). Every crate found there must form
/// no circle; a folder without `Cargo.toml` and `src/` (the C plugin) is
/// no Rust crate and is passed over.
const MEMBERS: &[&str] = &["crates/*", "plugins/*", "plugins/*/cdylib", "tests"];

/// A module's path inside its crate: empty for the crate root.
type ModPath = Vec<String>;

/// A path a `use` item names, and the name it brings in (none for a glob).
type UsePath = (Vec<String>, Option<String>);

/// The tokens of Rust source that matter here; comments, string, character
/// and number literals and lifetimes are dropped.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    /// An identifier or keyword.
    Ident(String),
    /// `::`.
    PathSep,
    /// Any other punctuation character.
    Punct(char),
}

/// Splits `text` into tokens, each with its 1-based line.
fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => i = block_comment(&chars, i, &mut line),
            '"' => i = quoted(&chars, i, &mut line),
            '\'' => i = char_or_lifetime(&chars, i, &mut line),
            c if c.is_ascii_digit() => {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
                let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
                if raw_prefix && chars.get(i + hashes) == Some(&'"') {
                    i = raw_string(&chars, i + hashes, hashes, &mut line);
                } else if word == "r" && hashes == 1 {
                    i += 1; // a raw identifier: `r#type` is `type`
                } else if chars.get(i) != Some(&'"') || !matches!(word.as_str(), "b" | "c") {
                    out.push((Token::Ident(word), start_line));
                }
            }
            ':' if chars.get(i + 1) == Some(&':') => {
                out.push((Token::PathSep, line));
                i += 2;
            }
            c => {
                out.push((Token::Punct(c), line));
                i += 1;
            }
        }
    }
    out
}

/// The end of the (nested) block comment at `i`.
fn block_comment(chars: &[char], mut i: usize, line: &mut usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('/', Some('*')) => {
                depth += 1;
                i += 2;
            }
            ('*', Some('/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            (c, _) => {
                *line += usize::from(c == '\n');
                i += 1;
            }
        }
    }
    i
}

/// The end of the string literal whose opening quote is at `i`.
fn quoted(chars: &[char], mut i: usize, line: &mut usize) -> usize {
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            c => {
                *line += usize::from(c == '\n');
                i += 1;
            }
        }
    }
    i
}

/// The end of the raw string whose opening quote is at `i`, closed by a
/// quote and `hashes` hashes.
fn raw_string(chars: &[char], mut i: usize, hashes: usize, line: &mut usize) -> usize {
    i += 1;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        *line += usize::from(chars[i] == '\n');
        i += 1;
    }
    i
}

/// The end of the character literal or lifetime at `i`.
fn char_or_lifetime(chars: &[char], i: usize, line: &mut usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let mut j = i + 3;
        while j < chars.len() && chars[j] != '\'' {
            j += 1;
        }
        return j + 1;
    }
    if chars.get(i + 2) == Some(&'\'') {
        *line += usize::from(chars[i + 1] == '\n');
        return i + 3;
    }
    let mut j = i + 1;
    while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
        j += 1;
    }
    j
}

/// One file of a crate, as the graph sees it.
#[derive(Debug, Default)]
struct FileModule {
    /// Its path inside the crate.
    module: ModPath,
    /// Its path inside `src/`, for messages.
    file: String,
    /// The paths it refers to, each with the module (possibly an inline
    /// one inside the file) it is written in and its line.
    refs: Vec<(ModPath, Vec<String>, usize)>,
    /// The names its `use` items bring in: name, the module the `use` is
    /// written in, the path.
    names: BTreeMap<String, (ModPath, Vec<String>)>,
    /// Child modules declared under `#[cfg(test)]`: test files.
    test_children: Vec<String>,
}

/// Reads one file: its references and the names it imports.
fn read_file(module: ModPath, file: &str, text: &str) -> FileModule {
    let tokens = tokens(text);
    let mut out = FileModule {
        module: module.clone(),
        file: file.to_string(),
        ..FileModule::default()
    };
    // The inline modules (`mod x { … }`) open at this point, with the
    // brace depth at which each closes.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let here = || {
            let mut m = module.clone();
            m.extend(inline.iter().map(|(n, _)| n.clone()));
            m
        };
        match &tokens[i].0 {
            Token::Punct('#') => {
                let (end, test_only) = attribute(&tokens, i);
                i = end;
                if test_only {
                    let (end, declared) = skip_item(&tokens, i);
                    out.test_children.extend(declared);
                    i = end;
                }
            }
            Token::Ident(word) if word == "use" => {
                let module = here();
                let (end, paths) = use_tree(&tokens, i + 1);
                for (path, name) in paths {
                    let line = tokens[i].1;
                    if let Some(name) = name {
                        out.names.insert(name, (module.clone(), path.clone()));
                    }
                    out.refs.push((module.clone(), path, line));
                }
                i = end;
            }
            Token::Ident(word) if word == "mod" => {
                if let (Some((Token::Ident(name), _)), Some((Token::Punct('{'), _))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    depth += 1;
                    inline.push((name.clone(), depth));
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Token::Ident(word)
                if matches!(word.as_str(), "crate" | "self" | "super")
                    && tokens.get(i + 1).map(|t| &t.0) == Some(&Token::PathSep)
                    && (i == 0 || tokens[i - 1].0 != Token::Punct('$')) =>
            {
                let (end, path) = code_path(&tokens, i);
                out.refs.push((here(), path, tokens[i].1));
                i = end;
            }
            Token::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The end of the attribute at `i` (`#[…]` or `#![…]`), and whether it
/// keeps its item to tests: `cfg(test)`, `cfg(all(test, …))`.
fn attribute(tokens: &[(Token, usize)], i: usize) -> (usize, bool) {
    let mut j = i + 1;
    if tokens.get(j).map(|t| &t.0) == Some(&Token::Punct('!')) {
        j += 1;
    }
    if tokens.get(j).map(|t| &t.0) != Some(&Token::Punct('[')) {
        return (i + 1, false);
    }
    let end = balanced(tokens, j);
    let words: Vec<&str> = tokens[j..end]
        .iter()
        .filter_map(|(t, _)| match t {
            Token::Ident(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    let test_only = words.first() == Some(&"cfg")
        && words.contains(&"test")
        && !words.iter().any(|w| matches!(*w, "not" | "any"));
    (end, test_only && tokens[i + 1].0 != Token::Punct('!'))
}

/// The index after the bracket that closes the one at `i`.
fn balanced(tokens: &[(Token, usize)], i: usize) -> usize {
    let mut depth = 0;
    for (j, (t, _)) in tokens.iter().enumerate().skip(i) {
        match t {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The end of the item starting at `i` (after its first attribute), and
/// the module it declares when it is `mod name;`.
fn skip_item(tokens: &[(Token, usize)], mut i: usize) -> (usize, Option<String>) {
    while tokens.get(i).map(|t| &t.0) == Some(&Token::Punct('#')) {
        i = attribute(tokens, i).0;
    }
    let start = i;
    while i < tokens.len() {
        match &tokens[i].0 {
            Token::Punct(';') => break,
            // The end of a field or an arm, or of the block around it.
            Token::Punct(',') => return (i + 1, None),
            Token::Punct('}') => return (i, None),
            Token::Punct('{') => return (balanced(tokens, i), None),
            Token::Punct('(' | '[') => i = balanced(tokens, i),
            _ => i += 1,
        }
    }
    let declared = tokens[start..i]
        .windows(2)
        .find_map(|w| match (&w[0].0, &w[1].0) {
            (Token::Ident(m), Token::Ident(name)) if m == "mod" => Some(name.clone()),
            _ => None,
        });
    (i + 1, declared)
}

/// The paths of the use tree starting at `i`, each with the name it
/// brings in (none for a glob), and the index after its `;`.
fn use_tree(tokens: &[(Token, usize)], i: usize) -> (usize, Vec<UsePath>) {
    let mut out = Vec::new();
    let end = use_branch(tokens, i, &mut Vec::new(), &mut out);
    let end = tokens[end..]
        .iter()
        .position(|(t, _)| *t == Token::Punct(';'))
        .map_or(tokens.len(), |p| end + p + 1);
    (end, out)
}

/// Reads one branch of a use tree after `prefix`, pushing its paths.
fn use_branch(
    tokens: &[(Token, usize)],
    mut i: usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<UsePath>,
) -> usize {
    let depth = prefix.len();
    loop {
        match tokens.get(i).map(|t| &t.0) {
            Some(Token::Ident(w)) if w == "as" => {
                if let Some((Token::Ident(alias), _)) = tokens.get(i + 1)
                    && let Some(last) = out.last_mut()
                {
                    last.1 = (alias != "_").then(|| alias.clone());
                }
                i += 2;
            }
            Some(Token::Ident(w)) => {
                prefix.push(w.clone());
                i += 1;
                if tokens.get(i).map(|t| &t.0) != Some(&Token::PathSep) {
                    let mut path = prefix.clone();
                    let name = if w == "self" {
                        path.pop();
                        path.last().cloned()
                    } else {
                        Some(w.clone())
                    };
                    out.push((path, name));
                    prefix.truncate(depth);
                }
            }
            Some(Token::PathSep) => i += 1,
            Some(Token::Punct('*')) => {
                out.push((prefix.clone(), None));
                prefix.truncate(depth);
                i += 1;
            }
            Some(Token::Punct('{')) => {
                let mut inner = prefix.clone();
                i = use_branch(tokens, i + 1, &mut inner, out);
                prefix.truncate(depth);
            }
            Some(Token::Punct(',')) => {
                prefix.truncate(depth);
                i += 1;
            }
            Some(Token::Punct('}')) => return i + 1,
            _ => return i,
        }
    }
}

/// The path written at `i` (`crate::a::b`), up to its last segment, and
/// the index after it.
fn code_path(tokens: &[(Token, usize)], mut i: usize) -> (usize, Vec<String>) {
    let mut path = Vec::new();
    while let Some((Token::Ident(w), _)) = tokens.get(i) {
        path.push(w.clone());
        i += 1;
        if tokens.get(i).map(|t| &t.0) != Some(&Token::PathSep) {
            break;
        }
        i += 1;
    }
    (i, path)
}

/// A crate's files as modules, without its test files.
fn modules(files: &[(String, String)]) -> Vec<FileModule> {
    let mut all: Vec<FileModule> = files
        .iter()
        .filter_map(|(file, text)| Some(read_file(module_of(file)?, file, text)))
        .collect();
    let tests: Vec<ModPath> = all
        .iter()
        .flat_map(|m| {
            m.test_children.iter().map(|c| {
                let mut p = m.module.clone();
                p.push(c.clone());
                p
            })
        })
        .collect();
    all.retain(|m| !tests.iter().any(|t| m.module.starts_with(t)));
    all
}

/// The module a file of `src/` is: `None` for binaries.
fn module_of(file: &str) -> Option<ModPath> {
    let stem = file.strip_suffix(".rs")?;
    if stem == "main" || stem.starts_with("bin/") {
        return None;
    }
    let mut path: ModPath = stem.split('/').map(String::from).collect();
    if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
        path.pop();
    }
    Some(path)
}

/// A path resolved against the crate's modules: the file module it ends in.
struct Resolver<'a> {
    /// Every file module, by path.
    modules: BTreeMap<&'a ModPath, &'a FileModule>,
}

impl Resolver<'_> {
    /// The file module `path`, written in module `at`, refers to; `None`
    /// for another crate's.
    fn resolve(&self, at: &[String], path: &[String], hops: usize) -> Option<ModPath> {
        let (mut base, rest) = match path.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &path[1..]),
            Some("self") => (at.to_vec(), &path[1..]),
            Some("super") => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                (at[..at.len().checked_sub(ups)?].to_vec(), &path[ups..])
            }
            Some(first) if self.is_module(&[at, &[first.to_string()]].concat()) => {
                (at.to_vec(), path)
            }
            _ => return None,
        };
        // An inline module's path ends at the file that holds it.
        while !base.is_empty() && !self.is_module(&base) {
            base.pop();
        }
        let mut rest = rest.iter();
        for segment in rest.by_ref() {
            let next = [base.as_slice(), std::slice::from_ref(segment)].concat();
            if !self.is_module(&next) {
                return Some(self.through_reexport(base, segment, hops));
            }
            base = next;
        }
        Some(base)
    }

    /// The module that defines `name` when `module` only imports it.
    fn through_reexport(&self, module: ModPath, name: &str, hops: usize) -> ModPath {
        let imported = self.modules.get(&module).and_then(|m| m.names.get(name));
        match imported {
            Some((at, path)) if hops < 8 => self.resolve(at, path, hops + 1).unwrap_or(module),
            _ => module,
        }
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.modules.contains_key(&path.to_vec())
    }
}

/// A reference between two sibling modules, where it is first written.
type Edges = BTreeMap<(ModPath, ModPath), String>;

/// The references between sibling modules of a crate.
fn sibling_edges(modules: &[FileModule]) -> Edges {
    let resolver = Resolver {
        modules: modules.iter().map(|m| (&m.module, m)).collect(),
    };
    let mut edges = Edges::new();
    for m in modules {
        for (at, path, line) in &m.refs {
            let Some(to) = resolver.resolve(at, path, 0) else {
                continue;
            };
            let common = m.module.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == to.len() || common == m.module.len() {
                continue; // the module itself, an ancestor or a descendant
            }
            let key = (m.module[..=common].to_vec(), to[..=common].to_vec());
            edges
                .entry(key)
                .or_insert_with(|| format!("src/{}:{line}", m.file));
        }
    }
    edges
}

/// A circle: modules that all reach each other, and the references that
/// make it.
#[derive(Debug, PartialEq)]
struct Circle {
    /// The modules, as `a::b`, sorted.
    modules: Vec<String>,
    /// `from → to (file:line)` for each reference inside the circle.
    edges: Vec<String>,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  circle: {}", self.modules.join(", "))?;
        for edge in &self.edges {
            writeln!(f, "    {edge}")?;
        }
        Ok(())
    }
}

/// The circles among the modules of one crate, given as its `src/` files
/// (path inside `src/`, text).
fn circles(files: &[(String, String)]) -> Vec<Circle> {
    let modules = modules(files);
    let edges = sibling_edges(&modules);
    let name = |m: &ModPath| m.join("::");
    let mut found: Vec<Circle> = strongly_connected(&edges)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|component| {
            let edges = edges
                .iter()
                .filter(|((a, b), _)| component.contains(a) && component.contains(b))
                .map(|((a, b), at)| format!("{} → {} ({at})", name(a), name(b)))
                .collect();
            Circle {
                modules: component.iter().map(name).collect(),
                edges,
            }
        })
        .collect();
    found.sort_by(|a, b| a.modules.cmp(&b.modules));
    found
}

/// The strongly connected components of the graph (Tarjan's algorithm).
fn strongly_connected(edges: &Edges) -> Vec<BTreeSet<ModPath>> {
    let mut next: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default();
    }
    let nodes: Vec<&ModPath> = next.keys().copied().collect();
    let mut state = Tarjan {
        next: &next,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for node in nodes {
        if !state.index.contains_key(node) {
            state.visit(node);
        }
    }
    state.out
}

/// Tarjan's algorithm's bookkeeping.
struct Tarjan<'a> {
    next: &'a BTreeMap<&'a ModPath, Vec<&'a ModPath>>,
    index: BTreeMap<&'a ModPath, usize>,
    low: BTreeMap<&'a ModPath, usize>,
    stack: Vec<&'a ModPath>,
    on_stack: BTreeSet<&'a ModPath>,
    out: Vec<BTreeSet<ModPath>>,
}

impl<'a> Tarjan<'a> {
    fn visit(&mut self, node: &'a ModPath) {
        let n = self.index.len();
        self.index.insert(node, n);
        self.low.insert(node, n);
        self.stack.push(node);
        self.on_stack.insert(node);
        for &to in &self.next[node] {
            if !self.index.contains_key(to) {
                self.visit(to);
                let low = self.low[node].min(self.low[to]);
                self.low.insert(node, low);
            } else if self.on_stack.contains(to) {
                let low = self.low[node].min(self.index[to]);
                self.low.insert(node, low);
            }
        }
        if self.low[node] == self.index[node] {
            let mut component = BTreeSet::new();
            while let Some(top) = self.stack.pop() {
                self.on_stack.remove(top);
                component.insert(top.clone());
                if top == node {
                    break;
                }
            }
            self.out.push(component);
        }
    }
}

/// Every `.rs` file under `dir`, as (path inside `dir`, text), sorted.
pub(super) fn read_sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries = std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{folder:?}: {e}"));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let file = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((file, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The folders that [`MEMBERS`] names, sorted.
fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    let mut found = vec![root.to_path_buf()];
    for part in pattern.split('/') {
        found = found
            .into_iter()
            .flat_map(|dir| match part {
                "*" => subfolders(&dir),
                name => vec![dir.join(name)],
            })
            .collect();
    }
    found.sort();
    found
}

/// The folders inside `dir`; none when it cannot be read.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.is_dir())
        .collect()
}

/// Every crate of the workspace: (its folder from the root, its `src/`).
fn workspace_crates() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    MEMBERS
        .iter()
        .flat_map(|pattern| expand(&root, pattern))
        .filter(|dir| dir.join("Cargo.toml").is_file() && dir.join("src").is_dir())
        .map(|dir| {
            let name = dir
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name.replace('\\', "/"), dir.join("src"))
        })
        .collect()
}

#[test]
fn no_crate_has_an_import_circle_between_its_files() {
    let crates = workspace_crates();
    assert!(
        crates.len() > 30,
        "the workspace's crates are found: {crates:?}"
    );
    let mut report = String::new();
    for (name, src) in crates {
        let found = circles(&read_sources(&src));
        if !found.is_empty() {
            report.push_str(&format!("{name}:\n"));
            for circle in found {
                report.push_str(&circle.to_string());
            }
        }
    }
    assert!(
        report.is_empty(),
        "import circles between the files of a crate (move what both sides need into a module of its own, below both):\n{report}"
    );
}

mod checker_tests {
    use super::*;

    /// A crate of `(file, text)` pairs.
    fn fake(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn finds_the_circles_of_a_fake_crate_and_nothing_else() {
        let files = fake(&[
            (
                "lib.rs",
                "mod a; mod b; mod c; mod d; mod e;\npub use c::Thing;\n",
            ),
            ("a.rs", "use crate::b::X;\n"),
            (
                "b.rs",
                "pub struct X;\nfn f() -> crate::Thing { todo!() }\n",
            ),
            ("c.rs", "use super::b::X as Y;\npub struct Thing;\n"),
            // Comments, strings and tests are not references.
            (
                "d.rs",
                "// crate::e::x\n/* use crate::e; */\nconst S: &str = \"crate::e::f\";\n\
                 const R: &str = r#\"use crate::e;\"#;\n\
                 #[cfg(test)]\nmod tests { use crate::e::*; }\n#[cfg(test)]\nmod more;\n",
            ),
            ("d/more.rs", "use crate::e::Y;\n"),
            (
                "e.rs",
                "mod f; mod g;\nuse crate::d;\nfn h<'a>(c: char) -> bool { c == '\"' }\n",
            ),
            // Nested: f and g under e lean on each other, and on their parent.
            ("e/f.rs", "use super::g::Z;\nuse super::*;\n"),
            (
                "e/g.rs",
                "pub struct Z;\nfn z() { crate::e::f::w(); super::h('x'); }\n",
            ),
        ]);
        let found = circles(&files);
        assert_eq!(found.len(), 2, "{found:?}");
        // b reaches c through lib.rs's re-export of `c::Thing`; a leans
        // on b, which does not lean back.
        assert_eq!(found[0].modules, ["b", "c"], "{found:?}");
        assert_eq!(found[0].edges, ["b → c (src/b.rs:2)", "c → b (src/c.rs:1)"]);
        assert_eq!(found[1].modules, ["e::f", "e::g"], "{found:?}");
    }

    #[test]
    fn a_crate_without_circles_passes() {
        let files = fake(&[
            ("lib.rs", "mod a; mod b;\nuse a::A;\n"),
            ("a.rs", "pub struct A;\nuse crate::b::B;\n"),
            ("b.rs", "pub struct B;\n"),
        ]);
        assert!(circles(&files).is_empty());
    }
}
