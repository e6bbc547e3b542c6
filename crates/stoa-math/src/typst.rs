//! The formula as Typst math. Every symbol goes through
//! `stoa_doc::escape::push_typst_math_symbol`, every text through a string
//! literal, and the only code written is this module's own (`frac`,
//! `attach`, `mat`, `#h`…): a formula can print anything and run nothing.

use crate::nodes::{Node, with_tree};
use crate::{Formula, MathError};
use pulldown_latex::event::{
    ColumnAlignment, Content, Dimension, DimensionUnit, Font, Grouping, ScriptPosition, ScriptType,
    StateChange, Style, Visual,
};
use std::fmt::Write;
use stoa_doc::escape::{push_typst_math_symbol, push_typst_string};
use unicode_normalization::UnicodeNormalization;

pub(crate) fn write(formula: &Formula) -> Result<String, MathError> {
    let body = with_tree(formula.tex, |nodes| {
        let mut out = String::new();
        seq(&mut out, nodes);
        out
    })?;
    let body = body.trim();
    Ok(if formula.display {
        format!("$ {body} $")
    } else {
        format!("${body}$")
    })
}

/// Operators Typst defines by these names (upright, with operator
/// spacing, and limits where LaTeX has them).
const TYPST_OPERATORS: &[&str] = &[
    "arccos", "arcsin", "arctan", "arg", "cos", "cosh", "cot", "coth", "csc", "csch", "deg", "det",
    "dim", "exp", "gcd", "lcm", "hom", "inf", "ker", "lg", "lim", "liminf", "limsup", "ln", "log",
    "max", "min", "mod", "Pr", "sec", "sin", "sinh", "sup", "tan", "tanh",
];

/// A sequence of elements. A font or style change applies to what
/// follows it in the same group, so it wraps the rest.
fn seq(out: &mut String, nodes: &[Node]) {
    for (i, node) in nodes.iter().enumerate() {
        if let Node::State(change) = node
            && let Some(wrap) = wrapper(change)
        {
            out.push(' ');
            out.push_str(wrap);
            out.push('(');
            arg_body(out, &nodes[i + 1..]);
            for _ in 0..wrap.matches('(').count() + 1 {
                out.push(')');
            }
            return;
        }
        node_out(out, node);
    }
}

/// The function(s) a font or style change becomes, opening parentheses
/// included but the last; `None` for changes print does not show (colour,
/// the default font).
fn wrapper(change: &StateChange) -> Option<&'static str> {
    Some(match change {
        StateChange::Font(Some(font)) => match font {
            Font::Bold => "upright(bold",
            Font::BoldItalic => "bold(italic",
            Font::BoldSymbol => "bold",
            Font::BoldScript => "bold(cal",
            Font::BoldFraktur => "bold(frak",
            Font::Fraktur => "frak",
            Font::Script => "cal",
            Font::Monospace => "mono",
            Font::SansSerif => "sans",
            Font::BoldSansSerif => "upright(bold(sans",
            Font::SansSerifItalic => "italic(sans",
            Font::SansSerifBoldItalic => "bold(italic(sans",
            Font::DoubleStruck => "bb",
            Font::DoubleStruckItalic => "italic(bb",
            Font::Italic => "italic",
            Font::UpRight => "upright",
        },
        StateChange::Style(style) => match style {
            Style::Display => "display",
            Style::Text => "inline",
            Style::Script => "script",
            Style::ScriptScript => "sscript",
        },
        StateChange::Font(None) | StateChange::Color(_) => return None,
    })
}

fn symbol(out: &mut String, c: char) {
    out.push(' ');
    push_typst_math_symbol(out, c);
}

/// Elements as one argument of a function call: never empty, which Typst
/// would not accept.
fn arg_body(out: &mut String, nodes: &[Node]) {
    let start = out.len();
    seq(out, nodes);
    if out[start..].trim().is_empty() {
        out.truncate(start);
        out.push_str("\"\"");
    }
}

fn arg(out: &mut String, node: Option<&Node>) {
    arg_body(out, node.map(std::slice::from_ref).unwrap_or_default());
}

fn node_out(out: &mut String, node: &Node) {
    match node {
        Node::Content(content) => content_out(out, content),
        Node::Group(grouping, children) => group_out(out, grouping, children),
        Node::Visual(visual, parts) => visual_out(out, *visual, parts),
        Node::Script(ty, position, parts) => script_out(out, *ty, *position, parts),
        Node::Space(Some(width)) => space_out(out, width),
        Node::Space(None) | Node::State(_) | Node::Flow(_) => {}
    }
}

fn content_out(out: &mut String, content: &Content) {
    match content {
        Content::Text(text) => {
            out.push(' ');
            push_typst_string(out, text);
        }
        Content::Number(number) => {
            out.push(' ');
            for c in number.chars() {
                match c {
                    '0'..='9' | '.' => out.push(c),
                    c => push_typst_math_symbol(out, c),
                }
            }
        }
        Content::Function(name) => {
            out.push(' ');
            if TYPST_OPERATORS.contains(name) {
                out.push_str(name);
            } else {
                out.push_str("op(");
                push_typst_string(out, name);
                out.push(')');
            }
        }
        // A bar alone (`|x|`, `\|v\|`) is an ordinary symbol in TeX, set
        // tight against what it encloses; Typst would space it as a
        // relation.
        Content::Ordinary { content: c, .. } | Content::Delimiter { content: c, .. }
            if matches!(c, '|' | '\u{2016}' | '\u{2223}' | '\u{2225}') =>
        {
            out.push_str(" class(\"normal\",");
            symbol(out, *c);
            out.push(')');
        }
        Content::Ordinary { content: c, .. }
        | Content::LargeOp { content: c, .. }
        | Content::BinaryOp { content: c, .. }
        | Content::Delimiter { content: c, .. }
        | Content::Punctuation(c) => symbol(out, *c),
        Content::Relation { content, .. } => {
            let mut buf = [0u8; 8];
            let bytes = content.encode_utf8_to_buf(&mut buf);
            let text = std::str::from_utf8(bytes).unwrap_or("=");
            for c in text.nfc() {
                symbol(out, c);
            }
        }
    }
}

fn group_out(out: &mut String, grouping: &Grouping, children: &[Node]) {
    match grouping {
        Grouping::Normal => seq(out, children),
        // `\binom{n}{k}`: parentheses around a fraction without its line.
        Grouping::LeftRight(Some('('), Some(')'))
            if let [Node::Visual(Visual::Fraction(Some(line)), parts)] = children
                && line.value == 0.0 =>
        {
            out.push_str(" binom(");
            arg(out, parts.first());
            out.push(',');
            arg(out, parts.get(1));
            out.push(')');
        }
        Grouping::LeftRight(open, close) => {
            out.push_str(" lr(");
            if let Some(c) = open {
                symbol(out, *c);
            }
            seq(out, children);
            if let Some(c) = close {
                symbol(out, *c);
            }
            out.push_str(" )");
        }
        Grouping::Matrix { alignment } | Grouping::SubArray { alignment } => {
            matrix_out(out, Some(*alignment), children)
        }
        Grouping::Array(_) => matrix_out(out, None, children),
        Grouping::Cases { left } => {
            out.push_str(if *left {
                " cases("
            } else {
                " cases(reverse: #true,"
            });
            let rows = crate::nodes::rows(children);
            for (i, row) in rows.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                for (j, cell) in row.iter().enumerate() {
                    if j > 0 {
                        out.push_str(" &");
                    }
                    arg_body(out, cell);
                }
            }
            out.push(')');
        }
        Grouping::Equation { .. }
        | Grouping::Align { .. }
        | Grouping::Aligned
        | Grouping::Alignat { .. }
        | Grouping::Alignedat { .. }
        | Grouping::Gather { .. }
        | Grouping::Gathered
        | Grouping::Multline
        | Grouping::Split => {
            let rows = crate::nodes::rows(children);
            for (i, row) in rows.iter().enumerate() {
                if i > 0 {
                    out.push_str(" \\\n");
                }
                for (j, cell) in row.iter().enumerate() {
                    if j > 0 {
                        out.push_str(" &");
                    }
                    seq(out, cell);
                }
            }
        }
    }
}

fn matrix_out(out: &mut String, alignment: Option<ColumnAlignment>, children: &[Node]) {
    out.push_str(" mat(delim: #none,");
    match alignment {
        Some(ColumnAlignment::Left) => out.push_str(" align: #left,"),
        Some(ColumnAlignment::Right) => out.push_str(" align: #right,"),
        Some(ColumnAlignment::Center) | None => {}
    }
    for (i, row) in crate::nodes::rows(children).iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        for (j, cell) in row.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            arg_body(out, cell);
        }
    }
    out.push(')');
}

fn visual_out(out: &mut String, visual: Visual, parts: &[Node]) {
    match visual {
        // A fraction without its line (`\atop`, `\genfrac`): two rows.
        Visual::Fraction(Some(line)) if line.value == 0.0 => {
            out.push_str(" mat(delim: #none,");
            arg(out, parts.first());
            out.push(';');
            arg(out, parts.get(1));
            out.push(')');
        }
        Visual::Fraction(_) => {
            out.push_str(" frac(");
            arg(out, parts.first());
            out.push(',');
            arg(out, parts.get(1));
            out.push(')');
        }
        Visual::Root => {
            out.push_str(" root(");
            arg(out, parts.get(1));
            out.push(',');
            arg(out, parts.first());
            out.push(')');
        }
        Visual::SquareRoot => {
            out.push_str(" sqrt(");
            arg(out, parts.first());
            out.push(')');
        }
        Visual::Negation => match parts.first() {
            Some(Node::Content(Content::Ordinary { content: c, .. }))
            | Some(Node::Content(Content::BinaryOp { content: c, .. })) => {
                let negated: String = [*c, '\u{338}'].into_iter().nfc().collect();
                for c in negated.chars() {
                    symbol(out, c);
                }
            }
            part => {
                out.push_str(" cancel(");
                arg(out, part);
                out.push(')');
            }
        },
    }
}

/// Accents LaTeX puts over a base (`\hat`, `\vec`…), by the character
/// pulldown-latex gives as the superscript.
fn accent(c: char) -> bool {
    matches!(
        c,
        '^' | 'ˆ' | '~' | '˜' | '¯' | '˙' | '¨' | '´' | '`' | '˘' | 'ˇ' | '→' | '←' | '˚' | '⃗'
    )
}

fn script_out(out: &mut String, ty: ScriptType, position: ScriptPosition, parts: &[Node]) {
    let base = parts.first();
    let over_under = position == ScriptPosition::AboveBelow;
    // `\hat{x}`, `\overline{x}`, `\underbrace{x}`: one stretchy character
    // above or below the base.
    if over_under
        && parts.len() == 2
        && let Some(Node::Content(Content::Ordinary { content: c, .. })) = parts.get(1)
    {
        let call = match (ty, *c) {
            (ScriptType::Superscript, '‾' | '¯') => Some("overline("),
            (ScriptType::Subscript, '_' | '‾' | '¯') => Some("underline("),
            (ScriptType::Superscript, '⏞') => Some("overbrace("),
            (ScriptType::Subscript, '⏟') => Some("underbrace("),
            _ => None,
        };
        if let Some(call) = call {
            out.push(' ');
            out.push_str(call);
            arg(out, base);
            out.push(')');
            return;
        }
        if ty == ScriptType::Superscript && accent(*c) {
            // Named in full: the theme's own `accent` (a colour) would
            // otherwise be the one called.
            out.push_str(" std.math.accent(");
            arg(out, base);
            out.push(',');
            symbol(out, *c);
            out.push(')');
            return;
        }
    }
    out.push_str(" attach(");
    if over_under {
        out.push_str("limits(");
        arg(out, base);
        out.push(')');
    } else {
        arg(out, base);
    }
    let (sub, sup) = match ty {
        ScriptType::Subscript => (parts.get(1), None),
        ScriptType::Superscript => (None, parts.get(1)),
        ScriptType::SubSuperscript => (parts.get(1), parts.get(2)),
    };
    if let Some(sub) = sub {
        out.push_str(", b:");
        arg(out, Some(sub));
    }
    if let Some(sup) = sup {
        out.push_str(", t:");
        arg(out, Some(sup));
    }
    out.push(')');
}

/// A space as Typst lengths (TeX's point is 1/72.27 in, Typst's 1/72).
fn space_out(out: &mut String, width: &Dimension) {
    let (value, unit) = match width.unit {
        DimensionUnit::Em => (width.value, "em"),
        DimensionUnit::Mu => (width.value / 18.0, "em"),
        DimensionUnit::Ex => (width.value * 0.45, "em"),
        DimensionUnit::Pt => (width.value * 72.0 / 72.27, "pt"),
        DimensionUnit::Pc => (width.value * 12.0 * 72.0 / 72.27, "pt"),
        DimensionUnit::Bp => (width.value, "pt"),
        DimensionUnit::In => (width.value, "in"),
        DimensionUnit::Cm => (width.value, "cm"),
        DimensionUnit::Mm => (width.value, "mm"),
        DimensionUnit::Dd => (width.value * 1238.0 / 1157.0 * 72.0 / 72.27, "pt"),
        DimensionUnit::Cc => (width.value * 12.0 * 1238.0 / 1157.0 * 72.0 / 72.27, "pt"),
        DimensionUnit::Sp => (width.value / 65536.0 * 72.0 / 72.27, "pt"),
    };
    if value.is_finite() && value != 0.0 {
        let _ = write!(out, " #h({value:.4}{unit})");
    }
}
