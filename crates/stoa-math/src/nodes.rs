//! pulldown-latex's flat events, grouped into the tree they describe: an
//! event stream says "a fraction: the next two elements", a writer wants
//! the fraction holding its two parts.

use crate::MathError;
use pulldown_latex::event::{
    Content, Dimension, EnvironmentFlow, Event, Grouping, ScriptPosition, ScriptType, StateChange,
    Visual,
};
use pulldown_latex::{Parser, Storage};

/// One element of a formula.
#[derive(Debug)]
pub(crate) enum Node<'a> {
    Content(Content<'a>),
    /// `{…}`, `\left…\right`, an environment: its children in order,
    /// alignment marks and line breaks among them.
    Group(Grouping, Vec<Node<'a>>),
    /// A fraction, a root (radicand, then index) or a negation.
    Visual(Visual, Vec<Node<'a>>),
    /// A base and its sub- and/or superscript.
    Script(ScriptType, ScriptPosition, Vec<Node<'a>>),
    Space(Option<Dimension>),
    /// A change of font or style for what follows in the same group.
    State(StateChange),
    Flow(EnvironmentFlow),
}

/// Nesting beyond this is refused: a hostile formula of ten thousand
/// braces must not exhaust the stack of the writers, which recurse.
const MAX_DEPTH: usize = 64;

/// Parses `tex`, then hands its tree to `f`.
pub(crate) fn with_tree<R>(tex: &str, f: impl FnOnce(&[Node<'_>]) -> R) -> Result<R, MathError> {
    let storage = Storage::new();
    let events = collect(Parser::new(tex, &storage))?;
    let mut iter = events.into_iter();
    let nodes = group(&mut iter, 0)?;
    Ok(f(&nodes))
}

/// The events of `tex`, or the first error.
pub(crate) fn events(tex: &str) -> Result<(), MathError> {
    with_tree(tex, |_| ())
}

fn collect<'a>(parser: Parser<'a>) -> Result<Vec<Event<'a>>, MathError> {
    parser.collect::<Result<Vec<_>, _>>().map_err(|e| error(&e))
}

/// The error as the parser prints it, split into what and where.
fn error(e: &pulldown_latex::ParserError) -> MathError {
    let text = e.to_string();
    let text = text.strip_prefix("parsing error: ").unwrap_or(&text);
    let (message, context) = text.split_once('\n').unwrap_or((text, ""));
    MathError {
        message: message.trim().to_string(),
        context: context.trim_end().to_string(),
    }
}

fn too_deep() -> MathError {
    MathError {
        message: format!("the formula nests more than {MAX_DEPTH} groups deep"),
        context: String::new(),
    }
}

/// The elements up to the end of the current group (or of the formula).
fn group<'a>(
    events: &mut std::vec::IntoIter<Event<'a>>,
    depth: usize,
) -> Result<Vec<Node<'a>>, MathError> {
    let mut nodes = Vec::new();
    while let Some(event) = events.next() {
        if matches!(event, Event::End) {
            break;
        }
        nodes.push(element(event, events, depth)?);
    }
    Ok(nodes)
}

/// The element that `event` begins, with the elements it takes.
fn element<'a>(
    event: Event<'a>,
    events: &mut std::vec::IntoIter<Event<'a>>,
    depth: usize,
) -> Result<Node<'a>, MathError> {
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    let take = |n: usize, events: &mut std::vec::IntoIter<Event<'a>>| {
        let mut parts = Vec::with_capacity(n);
        for _ in 0..n {
            match events.next() {
                Some(e) => parts.push(element(e, events, depth + 1)?),
                None => break,
            }
        }
        Ok::<_, MathError>(parts)
    };
    Ok(match event {
        Event::Content(c) => Node::Content(c),
        Event::Begin(g) => Node::Group(g, group(events, depth + 1)?),
        // A stray end (the parser balances groups) closes nothing.
        Event::End => Node::Group(Grouping::Normal, Vec::new()),
        Event::Visual(v) => {
            let n = match v {
                Visual::Root | Visual::Fraction(_) => 2,
                Visual::SquareRoot | Visual::Negation => 1,
            };
            Node::Visual(v, take(n, events)?)
        }
        Event::Script { ty, position } => {
            let n = match ty {
                ScriptType::SubSuperscript => 3,
                ScriptType::Subscript | ScriptType::Superscript => 2,
            };
            Node::Script(ty, position, take(n, events)?)
        }
        Event::Space { width, .. } => Node::Space(width),
        Event::StateChange(s) => Node::State(s),
        Event::EnvironmentFlow(f) => Node::Flow(f),
    })
}

/// An environment's children cut at its line breaks and alignment marks:
/// rows of cells. A line break closing the last row makes no empty row.
pub(crate) fn rows<'n, 'a>(children: &'n [Node<'a>]) -> Vec<Vec<&'n [Node<'a>]>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut start = 0;
    for (i, node) in children.iter().enumerate() {
        match node {
            Node::Flow(EnvironmentFlow::Alignment) => {
                row.push(&children[start..i]);
                start = i + 1;
            }
            Node::Flow(EnvironmentFlow::NewLine { .. }) => {
                row.push(&children[start..i]);
                rows.push(std::mem::take(&mut row));
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = &children[start..];
    if !row.is_empty() || !last.iter().all(|n| matches!(n, Node::Flow(_))) {
        row.push(last);
        rows.push(row);
    }
    rows
}
