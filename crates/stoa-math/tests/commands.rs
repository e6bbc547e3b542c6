//! The LaTeX math commands KaTeX and MathJax read (lists generated from
//! their sources by scripts/math-commands.py), each tried in the forms it
//! takes, with what stoa makes of it: the table `commands/results.tsv`
//! says, per command, `ok` (written as MathML and as Typst math that
//! parses) or why stoa cannot have it (the parser's reason). The test fails
//! when a result changes; `STOA_BLESS=1 cargo test -p stoa-math --test
//! commands` writes the new table, to be read and committed.

use std::collections::BTreeMap;
use stoa_math::Formula;

const KATEX: &str = include_str!("commands/katex.txt");
const MATHJAX: &str = include_str!("commands/mathjax.txt");
const RESULTS: &str = "tests/commands/results.tsv";

/// MathJax's numbering commands: stoa-markdown takes them out of the
/// formula and numbers the equation with stoa's own numbers (its
/// `mathjax` module), so the formula never holds them.
const NUMBERING: &[&str] = &[
    "\\tag",
    "\\label",
    "\\ref",
    "\\eqref",
    "\\notag",
    "\\nonumber",
];

/// The commands the issue names, which must all be read.
const REQUIRED: &[&str] = &[
    "\\operatorname",
    "\\text",
    "\\boldsymbol",
    "\\mathbb",
    "\\xrightarrow",
    "\\cancel",
    "\\color",
    "env:align",
    "env:gather",
    "env:multline",
    "env:split",
    "env:cases",
    "env:matrix",
    "env:array",
];

fn names(list: &str) -> impl Iterator<Item = &str> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The forms a command is tried in, until one is read.
fn probes(name: &str) -> Vec<String> {
    if let Some(env) = name.strip_prefix("env:") {
        return [
            "a & b \\\\ c & d".to_string(),
            "{cc} a & b \\\\ c & d".to_string(),
            "{2} a & b \\\\ c & d".to_string(),
            "{c} a".to_string(),
        ]
        .into_iter()
        .map(|body| format!("\\begin{{{env}}}{body}\\end{{{env}}}"))
        .chain([format!(
            "\\begin{{aligned}}\\begin{{{env}}} a \\end{{{env}}}\\end{{aligned}}"
        )])
        .collect();
    }
    [
        name.to_string(),
        format!("{name}{{a}}"),
        format!("{name}{{a}}{{b}}"),
        format!("{name}{{a}}{{b}}{{c}}"),
        format!("{name}[a]{{b}}"),
        format!("{name}{{red}}{{a}}"),
        format!("{name} x"),
        format!("{name}( x \\right)"),
        format!("\\left( x {name}| y \\right)"),
        format!("a {name} b"),
        format!("\\left( x {name})"),
        format!("\\sum{name}_{{i}} x"),
        format!("\\begin{{array}}{{c}} a \\\\ {name} b \\end{{array}}"),
        format!("\\begin{{matrix}} a {name} b \\end{{matrix}}"),
    ]
    .into()
}

/// What stoa makes of a command: `ok`, or why not.
fn result(name: &str) -> String {
    if NUMBERING.contains(&name) {
        return "ok: equation numbering (stoa-markdown)".into();
    }
    let mut first_error = None;
    for probe in probes(name) {
        let formula = Formula::display(&probe);
        match (formula.mathml(), formula.typst()) {
            (Ok(_), Ok(typst)) => {
                let parsed = typst::syntax::parse(&typst);
                if parsed.errors_and_warnings().0.is_empty() {
                    return "ok".into();
                }
                first_error.get_or_insert_with(|| "its Typst does not parse".to_string());
            }
            (Err(e), _) | (_, Err(e)) => {
                first_error.get_or_insert(e.message);
            }
        }
    }
    format!("no: {}", first_error.unwrap_or_default())
}

#[test]
fn every_katex_and_mathjax_command_has_its_recorded_result() {
    let mut table: BTreeMap<&str, (bool, bool)> = BTreeMap::new();
    for name in names(KATEX) {
        table.entry(name).or_default().0 = true;
    }
    for name in names(MATHJAX) {
        table.entry(name).or_default().1 = true;
    }
    assert!(table.len() > 1000, "the lists are read: {}", table.len());
    let mut written = String::from("# command\tread by\tstoa\n");
    let mut ok = 0;
    for (name, (katex, mathjax)) in &table {
        let by = match (katex, mathjax) {
            (true, true) => "KaTeX, MathJax",
            (true, false) => "KaTeX",
            _ => "MathJax",
        };
        let result = result(name);
        ok += usize::from(result.starts_with("ok"));
        written.push_str(&format!("{name}\t{by}\t{result}\n"));
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RESULTS);
    if std::env::var_os("STOA_BLESS").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    if kept != written {
        let changed: Vec<String> = written
            .lines()
            .filter(|l| !kept.lines().any(|k| k == *l))
            .take(20)
            .map(String::from)
            .collect();
        panic!(
            "the commands' results changed (now {ok} of {} read); first changes:\n{}\n\
             read them, then STOA_BLESS=1 cargo test -p stoa-math --test commands",
            table.len(),
            changed.join("\n")
        );
    }
    for name in REQUIRED {
        let line = written
            .lines()
            .find(|l| l.split('\t').next() == Some(*name))
            .unwrap_or_else(|| panic!("{name} is in the lists"));
        assert!(line.ends_with("\tok"), "{line}");
    }
}
