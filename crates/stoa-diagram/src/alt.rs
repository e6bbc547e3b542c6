//! The text alternative: what a diagram shows, in sentences a screen
//! reader can speak. Flowcharts say their groups, nodes and arrows;
//! sequence diagrams their participants and messages; entity-relationship
//! diagrams their entities and relationships. Any other kind says its
//! labels.

use crate::words::Words;
use mermaid_svg::ast::{
    Diagram, EdgeHead, EdgeLine, ErDiagram, FlowchartDiagram, SequenceDiagram, SequenceItem,
};
use std::collections::BTreeSet;
use stoa_doc::escape::xml_unescape;

/// The name of the diagram's kind, e.g. "Flowchart".
pub(crate) fn kind_name(diagram: &Diagram, words: &Words) -> &'static str {
    match diagram {
        Diagram::Flowchart(_) => words.flowchart,
        Diagram::Sequence(_) => words.sequence,
        Diagram::Er(_) => words.er,
        _ => words.diagram,
    }
}

/// The whole text alternative. `svg` is the drawing, whose texts say
/// what a diagram of another kind holds.
pub(crate) fn describe(diagram: &Diagram, words: &Words, svg: &str) -> String {
    let mut parts = vec![kind_name(diagram, words).to_string()];
    match diagram {
        Diagram::Flowchart(f) => flowchart(f, words, &mut parts),
        Diagram::Sequence(s) => sequence(s, words, &mut parts),
        Diagram::Er(e) => er(e, words, &mut parts),
        _ => {
            let labels = svg_texts(svg);
            if !labels.is_empty() {
                parts.push(format!("{}: {}", words.labels, labels.join(", ")));
            }
        }
    }
    let mut out = parts.join(". ");
    out.push('.');
    out
}

fn flowchart(f: &FlowchartDiagram, words: &Words, parts: &mut Vec<String>) {
    let label = |id: &str| {
        f.nodes
            .iter()
            .find(|n| n.id == id)
            .map(|n| clean(&n.text))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| id.to_string())
    };
    let mut grouped = BTreeSet::new();
    for group in &f.subgraphs {
        grouped.extend(group.node_ids.iter().map(String::as_str));
        let members: Vec<String> = group.node_ids.iter().map(|id| label(id)).collect();
        if members.is_empty() {
            continue;
        }
        let name = clean(&group.label);
        let name = if name.is_empty() {
            group.id.clone()
        } else {
            name
        };
        parts.push(format!("{name}: {}", members.join(", ")));
    }
    let loose: Vec<String> = f
        .nodes
        .iter()
        .filter(|n| !grouped.contains(n.id.as_str()))
        .map(|n| label(&n.id))
        .collect();
    if !loose.is_empty() && !f.subgraphs.is_empty() {
        parts.push(format!("{}: {}", words.nodes, loose.join(", ")));
    }
    let edges: Vec<String> = f
        .edges
        .iter()
        .filter(|e| e.line != EdgeLine::Invisible)
        .map(|e| {
            let link = if e.head == EdgeHead::None && e.tail == EdgeHead::None {
                words.with
            } else {
                words.to
            };
            let mut s = format!("{} {link} {}", label(&e.from), label(&e.to));
            if let Some(text) = e.label.as_deref().map(clean).filter(|t| !t.is_empty()) {
                s.push_str(&format!(" ({text})"));
            }
            s
        })
        .collect();
    if !edges.is_empty() {
        parts.push(format!("{}: {}", words.arrows, edges.join("; ")));
    }
}

fn sequence(s: &SequenceDiagram, words: &Words, parts: &mut Vec<String>) {
    let name = |id: &str| {
        s.participants
            .iter()
            .find(|p| p.id == id)
            .map(|p| clean(&p.display))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| id.to_string())
    };
    let names: Vec<String> = s.participants.iter().map(|p| name(&p.id)).collect();
    if !names.is_empty() {
        parts.push(format!("{}: {}", words.participants, names.join(", ")));
    }
    let mut messages = Vec::new();
    collect_messages(&s.items, &mut |from, to, text| {
        let mut m = format!("{} {} {}", name(from), words.to, name(to));
        let text = clean(text);
        if !text.is_empty() {
            m.push_str(&format!(": {text}"));
        }
        messages.push(m);
    });
    if !messages.is_empty() {
        parts.push(format!("{}: {}", words.messages, messages.join("; ")));
    }
}

fn collect_messages(items: &[SequenceItem], f: &mut dyn FnMut(&str, &str, &str)) {
    for item in items {
        match item {
            SequenceItem::Message(m) => f(&m.from, &m.to, &m.text),
            SequenceItem::Loop(b) | SequenceItem::Opt(b) | SequenceItem::Break(b) => {
                collect_messages(&b.items, f)
            }
            SequenceItem::Alt(branches)
            | SequenceItem::Par(branches)
            | SequenceItem::Critical(branches) => {
                for branch in branches {
                    collect_messages(&branch.items, f);
                }
            }
            SequenceItem::Rect(r) => collect_messages(&r.items, f),
            _ => {}
        }
    }
}

fn er(e: &ErDiagram, words: &Words, parts: &mut Vec<String>) {
    let label = |name: &str| {
        e.entities
            .iter()
            .find(|x| x.name == name)
            .map(|x| clean(&x.label))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| name.to_string())
    };
    let entities: Vec<String> = e
        .entities
        .iter()
        .map(|x| {
            let attributes: Vec<&str> = x.attributes.iter().map(|a| a.name.as_str()).collect();
            if attributes.is_empty() {
                label(&x.name)
            } else {
                format!("{} ({})", label(&x.name), attributes.join(", "))
            }
        })
        .collect();
    if !entities.is_empty() {
        parts.push(format!("{}: {}", words.entities, entities.join(", ")));
    }
    let relations: Vec<String> = e
        .relations
        .iter()
        .map(|r| format!("{} {} {}", label(&r.left), clean(&r.label), label(&r.right)))
        .collect();
    if !relations.is_empty() {
        parts.push(format!("{}: {}", words.relationships, relations.join("; ")));
    }
}

/// A label as words: Mermaid's `<br>` line breaks and markup quotes become
/// spaces, runs of white space one space.
fn clean(text: &str) -> String {
    let text = text
        .replace("<br/>", " ")
        .replace("<br />", " ")
        .replace("<br>", " ")
        .replace('`', "");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The texts of an SVG's `<text>` elements (and their `<tspan>`s), in
/// order, without repeats.
fn svg_texts(svg: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        rest = &rest[i..];
        let Some(end) = rest.find("</text>") else {
            break;
        };
        let element = &rest[..end];
        let mut text = String::new();
        let mut inside = false;
        for c in element.chars() {
            match c {
                '<' => {
                    inside = true;
                    text.push(' ');
                }
                '>' => inside = false,
                c if !inside => text.push(c),
                _ => {}
            }
        }
        let text = xml_unescape(&clean(&text));
        if !text.is_empty() && !out.contains(&text) {
            out.push(text);
        }
        rest = &rest[end..];
    }
    out
}
