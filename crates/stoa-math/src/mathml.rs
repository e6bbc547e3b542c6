//! The formula as MathML Core, in XML syntax for XHTML, with the LaTeX
//! source as `alttext` (read aloud by screen readers without MathML) and
//! as a TeX annotation.
//!
//! Written here from the same tree as the Typst math rather than by
//! pulldown-latex's own writer, which puts `<` and `&` into the output
//! unescaped (`$a<b$` made a file no XML parser reads): every character
//! goes through `stoa_doc::escape`.

use crate::nodes::{Node, with_tree};
use crate::{Formula, MathError};
use pulldown_latex::event::{
    ColumnAlignment, Content, Dimension, DimensionUnit, Font, Grouping, ScriptPosition, ScriptType,
    StateChange, Style, Visual,
};
use std::fmt::Write;
use stoa_doc::escape::{push_xml_attribute, push_xml_text};
use unicode_normalization::UnicodeNormalization;

pub(crate) fn write(formula: &Formula) -> Result<String, MathError> {
    with_tree(formula.tex, |nodes| {
        let mut w = Writer {
            out: String::with_capacity(formula.tex.len() * 8 + 160),
            display: formula.display,
        };
        w.out
            .push_str("<math xmlns=\"http://www.w3.org/1998/Math/MathML\"");
        if formula.display {
            w.out.push_str(" display=\"block\"");
        }
        w.out.push_str(" alttext=\"");
        push_xml_attribute(&mut w.out, formula.tex);
        w.out.push_str("\"><semantics><mrow>");
        w.seq(nodes, None);
        w.out
            .push_str("</mrow><annotation encoding=\"application/x-tex\">");
        push_xml_text(&mut w.out, formula.tex);
        w.out.push_str("</annotation></semantics></math>");
        w.out
    })
}

struct Writer {
    out: String,
    display: bool,
}

impl Writer {
    /// A sequence of elements in the font `font`; a font change applies to
    /// what follows it in the same group, a style change wraps the rest.
    fn seq(&mut self, nodes: &[Node], mut font: Option<Font>) {
        for (i, node) in nodes.iter().enumerate() {
            match node {
                Node::State(StateChange::Font(f)) => font = *f,
                Node::State(StateChange::Style(style)) => {
                    let (display, level) = match style {
                        Style::Display => ("true", "0"),
                        Style::Text => ("false", "0"),
                        Style::Script => ("false", "1"),
                        Style::ScriptScript => ("false", "2"),
                    };
                    let _ = write!(
                        self.out,
                        "<mstyle displaystyle=\"{display}\" scriptlevel=\"{level}\">"
                    );
                    self.seq(&nodes[i + 1..], font);
                    self.out.push_str("</mstyle>");
                    return;
                }
                node => self.node(node, font),
            }
        }
    }

    /// One element in an `<mrow>`, as the argument of a schema element
    /// (`mfrac`, `msup`…) that takes exactly one child per argument.
    fn row(&mut self, node: Option<&Node>, font: Option<Font>) {
        self.out.push_str("<mrow>");
        if let Some(node) = node {
            self.seq(std::slice::from_ref(node), font);
        }
        self.out.push_str("</mrow>");
    }

    fn node(&mut self, node: &Node, font: Option<Font>) {
        match node {
            Node::Content(content) => self.content(content, font),
            Node::Group(grouping, children) => self.group(grouping, children, font),
            Node::Visual(visual, parts) => self.visual(*visual, parts, font),
            Node::Script(ty, position, parts) => self.script(*ty, *position, parts, font),
            Node::Space(Some(width)) => self.space(width),
            Node::Space(None) | Node::State(_) | Node::Flow(_) => {}
        }
    }

    fn token(&mut self, tag: &str, attrs: &str, text: &str) {
        let _ = write!(self.out, "<{tag}{attrs}>");
        push_xml_text(&mut self.out, text);
        let _ = write!(self.out, "</{tag}>");
    }

    fn content(&mut self, content: &Content, font: Option<Font>) {
        let mut buf = [0u8; 4];
        match content {
            Content::Text(text) => self.token("mtext", "", text),
            Content::Number(number) => {
                let styled: String = number.chars().map(|c| styled(c, font)).collect();
                self.token("mn", "", &styled);
            }
            Content::Function(name) => {
                self.token("mi", "", name);
                // U+2061 FUNCTION APPLICATION: `sin x` is read "sine of x".
                self.out.push_str("<mo>\u{2061}</mo>");
            }
            Content::Ordinary { content, stretchy } => {
                let c = styled(*content, font);
                if c.is_alphanumeric() || !stretchy {
                    let attrs = if font == Some(Font::UpRight) && c.is_alphabetic() {
                        " mathvariant=\"normal\""
                    } else {
                        ""
                    };
                    self.token("mi", attrs, c.encode_utf8(&mut buf));
                } else {
                    self.token("mo", " stretchy=\"true\"", c.encode_utf8(&mut buf));
                }
            }
            Content::LargeOp { content, .. } => {
                self.token("mo", " largeop=\"true\"", content.encode_utf8(&mut buf));
            }
            Content::BinaryOp { content, .. } => {
                self.token("mo", "", content.encode_utf8(&mut buf));
            }
            Content::Relation { content, .. } => {
                let mut buf = [0u8; 8];
                let bytes = content.encode_utf8_to_buf(&mut buf);
                let text: String = std::str::from_utf8(bytes).unwrap_or("=").nfc().collect();
                self.token("mo", "", &text);
            }
            Content::Delimiter { content, .. } => {
                self.token(
                    "mo",
                    " fence=\"true\" stretchy=\"false\"",
                    content.encode_utf8(&mut buf),
                );
            }
            Content::Punctuation(c) => {
                self.token("mo", " separator=\"true\"", c.encode_utf8(&mut buf));
            }
        }
    }

    fn group(&mut self, grouping: &Grouping, children: &[Node], font: Option<Font>) {
        let mut buf = [0u8; 4];
        match grouping {
            Grouping::Normal => {
                self.out.push_str("<mrow>");
                self.seq(children, font);
                self.out.push_str("</mrow>");
            }
            Grouping::LeftRight(open, close) => {
                self.out.push_str("<mrow>");
                if let Some(c) = open {
                    self.token(
                        "mo",
                        " fence=\"true\" form=\"prefix\"",
                        c.encode_utf8(&mut buf),
                    );
                }
                self.seq(children, font);
                if let Some(c) = close {
                    self.token(
                        "mo",
                        " fence=\"true\" form=\"postfix\"",
                        c.encode_utf8(&mut buf),
                    );
                }
                self.out.push_str("</mrow>");
            }
            Grouping::Matrix { alignment } | Grouping::SubArray { alignment } => {
                self.table(children, font, |_| *alignment, "");
            }
            Grouping::Array(_) => self.table(children, font, |_| ColumnAlignment::Center, ""),
            Grouping::Cases { left } => {
                self.out.push_str("<mrow>");
                if *left {
                    self.token("mo", " fence=\"true\" form=\"prefix\"", "{");
                }
                self.table(children, font, |_| ColumnAlignment::Left, "");
                if !*left {
                    self.token("mo", " fence=\"true\" form=\"postfix\"", "}");
                }
                self.out.push_str("</mrow>");
            }
            // Aligned equations: columns right, left, right… as amsmath sets them.
            Grouping::Align { .. }
            | Grouping::Aligned
            | Grouping::Alignat { .. }
            | Grouping::Alignedat { .. }
            | Grouping::Split => self.table(
                children,
                font,
                |j| {
                    if j % 2 == 0 {
                        ColumnAlignment::Right
                    } else {
                        ColumnAlignment::Left
                    }
                },
                " displaystyle=\"true\"",
            ),
            Grouping::Equation { .. }
            | Grouping::Gather { .. }
            | Grouping::Gathered
            | Grouping::Multline => self.table(
                children,
                font,
                |_| ColumnAlignment::Center,
                " displaystyle=\"true\"",
            ),
        }
    }

    fn table(
        &mut self,
        children: &[Node],
        font: Option<Font>,
        align: impl Fn(usize) -> ColumnAlignment,
        attrs: &str,
    ) {
        let _ = write!(self.out, "<mtable{attrs}>");
        for row in crate::nodes::rows(children) {
            self.out.push_str("<mtr>");
            for (j, cell) in row.iter().enumerate() {
                let side = match align(j) {
                    ColumnAlignment::Left => " columnalign=\"left\"",
                    ColumnAlignment::Right => " columnalign=\"right\"",
                    ColumnAlignment::Center => "",
                };
                let _ = write!(self.out, "<mtd{side}>");
                self.seq(cell, font);
                self.out.push_str("</mtd>");
            }
            self.out.push_str("</mtr>");
        }
        self.out.push_str("</mtable>");
    }

    fn visual(&mut self, visual: Visual, parts: &[Node], font: Option<Font>) {
        match visual {
            Visual::Fraction(thickness) => {
                let attrs = match thickness {
                    Some(d) if d.value == 0.0 => " linethickness=\"0\"",
                    _ => "",
                };
                let _ = write!(self.out, "<mfrac{attrs}>");
                self.row(parts.first(), font);
                self.row(parts.get(1), font);
                self.out.push_str("</mfrac>");
            }
            Visual::Root => {
                self.out.push_str("<mroot>");
                self.row(parts.first(), font);
                self.row(parts.get(1), font);
                self.out.push_str("</mroot>");
            }
            Visual::SquareRoot => {
                self.out.push_str("<msqrt>");
                self.seq(parts, font);
                self.out.push_str("</msqrt>");
            }
            Visual::Negation => match parts.first() {
                Some(Node::Content(Content::Ordinary { content: c, .. }))
                | Some(Node::Content(Content::BinaryOp { content: c, .. })) => {
                    let negated: String = [*c, '\u{338}'].into_iter().nfc().collect();
                    self.token("mo", "", &negated);
                }
                part => {
                    // MathML Core has no strike: the slash follows the element.
                    self.row(part, font);
                    self.token("mo", "", "\u{338}");
                }
            },
        }
    }

    fn script(
        &mut self,
        ty: ScriptType,
        position: ScriptPosition,
        parts: &[Node],
        font: Option<Font>,
    ) {
        // Limits above and below where LaTeX puts them: always for
        // `\overbrace` and friends, in display math for `\sum` and `\lim`.
        let limits = match position {
            ScriptPosition::AboveBelow => true,
            ScriptPosition::Movable => self.display,
            ScriptPosition::Right => false,
        };
        let accent = limits
            && matches!(
                parts.get(1),
                Some(Node::Content(Content::Ordinary { stretchy: true, .. }))
            );
        let tag = match (ty, limits) {
            (ScriptType::Subscript, false) => "msub",
            (ScriptType::Superscript, false) => "msup",
            (ScriptType::SubSuperscript, false) => "msubsup",
            (ScriptType::Subscript, true) => "munder",
            (ScriptType::Superscript, true) => "mover",
            (ScriptType::SubSuperscript, true) => "munderover",
        };
        let attrs = match (accent, ty) {
            (true, ScriptType::Superscript) => " accent=\"true\"",
            (true, ScriptType::Subscript) => " accentunder=\"true\"",
            _ => "",
        };
        let _ = write!(self.out, "<{tag}{attrs}>");
        for i in 0..parts.len().clamp(2, 3) {
            self.row(parts.get(i), font);
        }
        let _ = write!(self.out, "</{tag}>");
    }

    fn space(&mut self, width: &Dimension) {
        let em = match width.unit {
            DimensionUnit::Em => width.value,
            DimensionUnit::Mu => width.value / 18.0,
            DimensionUnit::Ex => width.value * 0.45,
            // Ten points to the em of a ten-point font, as TeX sets it.
            DimensionUnit::Pt | DimensionUnit::Bp => width.value / 10.0,
            DimensionUnit::Pc => width.value * 1.2,
            DimensionUnit::In => width.value * 7.227,
            DimensionUnit::Cm => width.value * 2.845,
            DimensionUnit::Mm => width.value * 0.2845,
            DimensionUnit::Dd => width.value * 0.107,
            DimensionUnit::Cc => width.value * 1.284,
            DimensionUnit::Sp => width.value / 655_360.0,
        };
        if em.is_finite() && em != 0.0 {
            let _ = write!(self.out, "<mspace width=\"{em:.4}em\"/>");
        }
    }
}

/// `c` in the Unicode mathematical alphabet of `font` (MathML Core styles
/// letters by character, not by attribute): Latin letters and digits;
/// other characters as they are.
fn styled(c: char, font: Option<Font>) -> char {
    let Some(font) = font else { return c };
    // The first capital of each alphabet in U+1D400…, then of its digits.
    let (letters, digits): (Option<u32>, Option<u32>) = match font {
        Font::Bold => (Some(0x1D400), Some(0x1D7CE)),
        Font::Italic => (Some(0x1D434), None),
        Font::BoldItalic | Font::BoldSymbol => (Some(0x1D468), Some(0x1D7CE)),
        Font::Script => (Some(0x1D49C), None),
        Font::BoldScript => (Some(0x1D4D0), None),
        Font::Fraktur => (Some(0x1D504), None),
        Font::DoubleStruck | Font::DoubleStruckItalic => (Some(0x1D538), Some(0x1D7D8)),
        Font::BoldFraktur => (Some(0x1D56C), None),
        Font::SansSerif => (Some(0x1D5A0), Some(0x1D7E2)),
        Font::BoldSansSerif => (Some(0x1D5D4), Some(0x1D7EC)),
        Font::SansSerifItalic => (Some(0x1D608), Some(0x1D7E2)),
        Font::SansSerifBoldItalic => (Some(0x1D63C), Some(0x1D7EC)),
        Font::Monospace => (Some(0x1D670), Some(0x1D7F6)),
        Font::UpRight => (None, None),
    };
    let mapped = match c {
        'A'..='Z' => letters.map(|base| base + (c as u32 - 'A' as u32)),
        'a'..='z' => letters.map(|base| base + 26 + (c as u32 - 'a' as u32)),
        '0'..='9' => digits.map(|base| base + (c as u32 - '0' as u32)),
        _ => None,
    };
    let Some(code) = mapped else { return c };
    // The letters Unicode had already encoded elsewhere, where the
    // alphabets have holes.
    let hole = match (font, c) {
        (Font::Italic, 'h') => Some('ℎ'),
        (Font::Script, 'B') => Some('ℬ'),
        (Font::Script, 'E') => Some('ℰ'),
        (Font::Script, 'F') => Some('ℱ'),
        (Font::Script, 'H') => Some('ℋ'),
        (Font::Script, 'I') => Some('ℐ'),
        (Font::Script, 'L') => Some('ℒ'),
        (Font::Script, 'M') => Some('ℳ'),
        (Font::Script, 'R') => Some('ℛ'),
        (Font::Script, 'e') => Some('ℯ'),
        (Font::Script, 'g') => Some('ℊ'),
        (Font::Script, 'o') => Some('ℴ'),
        (Font::Fraktur, 'C') => Some('ℭ'),
        (Font::Fraktur, 'H') => Some('ℌ'),
        (Font::Fraktur, 'I') => Some('ℑ'),
        (Font::Fraktur, 'R') => Some('ℜ'),
        (Font::Fraktur, 'Z') => Some('ℨ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'C') => Some('ℂ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'H') => Some('ℍ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'N') => Some('ℕ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'P') => Some('ℙ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'Q') => Some('ℚ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'R') => Some('ℝ'),
        (Font::DoubleStruck | Font::DoubleStruckItalic, 'Z') => Some('ℤ'),
        _ => None,
    };
    hole.or_else(|| char::from_u32(code)).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabets_map_letters_and_fill_their_holes() {
        assert_eq!(styled('R', Some(Font::DoubleStruck)), 'ℝ');
        assert_eq!(styled('A', Some(Font::DoubleStruck)), '𝔸');
        assert_eq!(styled('v', Some(Font::Bold)), '𝐯');
        assert_eq!(styled('F', Some(Font::Script)), 'ℱ');
        assert_eq!(styled('A', Some(Font::Script)), '𝒜');
        assert_eq!(styled('g', Some(Font::Fraktur)), '𝔤');
        assert_eq!(styled('h', Some(Font::Italic)), 'ℎ');
        assert_eq!(styled('1', Some(Font::Bold)), '𝟏');
        assert_eq!(styled('x', Some(Font::UpRight)), 'x');
        assert_eq!(styled('α', Some(Font::Bold)), 'α');
    }
}
