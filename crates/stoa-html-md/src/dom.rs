//! A small arena DOM that html5ever builds: nodes in one `Vec`, linked by
//! index. Dropping it frees one vector, whatever the nesting (a tree of
//! `Rc`s drops recursively, and a hostile page a million `<div>`s deep would
//! overflow the stack), and nothing in it is shared or reference-counted.

use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, LocalName, Namespace, ParseOpts, QualName, local_name, ns};

/// A node's index in [`Dom::nodes`].
pub(crate) type Id = usize;

/// What a node is.
#[derive(Debug)]
pub(crate) enum Data {
    /// The document, or a template's contents.
    Document,
    /// An element: its local name (lowercase for HTML) and attributes.
    Element {
        name: QualName,
        attrs: Vec<(String, String)>,
    },
    /// Text, with adjacent runs merged.
    Text(String),
    /// A comment, a doctype or a processing instruction: never shown.
    Ignored,
}

/// One node.
#[derive(Debug)]
pub(crate) struct Node {
    pub parent: Option<Id>,
    pub children: Vec<Id>,
    pub data: Data,
}

/// The parsed fragment.
#[derive(Debug, Default)]
pub(crate) struct Dom {
    pub nodes: Vec<Node>,
}

impl Dom {
    /// Parses `html` as the contents of a `<body>`, as a browser does
    /// (html5ever follows the WHATWG algorithm: unclosed tags, misnested
    /// formatting, stray `</p>` all end as a browser ends them).
    pub fn parse(html: &str) -> Dom {
        let sink = Sink::default();
        let mut opts = ParseOpts::default();
        // `<noscript>` holds markup for readers without scripts (often the
        // real `<img>` of a lazy-loaded one): parse it as markup.
        opts.tree_builder.scripting_enabled = false;
        let context = QualName::new(None, ns!(html), local_name!("body"));
        let parser = html5ever::parse_fragment(sink, opts, context, Vec::new(), false);
        parser.one(StrTendril::from(html))
    }

    /// The element that holds the fragment's nodes (html5ever wraps a
    /// fragment in an `<html>` element under the document).
    pub fn root(&self) -> Id {
        self.nodes[0]
            .children
            .iter()
            .copied()
            .find(|&c| matches!(self.nodes[c].data, Data::Element { .. }))
            .unwrap_or(0)
    }

    /// The local name of an element (`""` for anything else).
    pub fn tag(&self, id: Id) -> &str {
        match &self.nodes[id].data {
            Data::Element { name, .. } => &name.local,
            _ => "",
        }
    }

    /// An attribute's value.
    pub fn attr(&self, id: Id, key: &str) -> Option<&str> {
        match &self.nodes[id].data {
            Data::Element { attrs, .. } => attrs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    /// Whether the element's `class` has `token`.
    pub fn has_class(&self, id: Id, token: &str) -> bool {
        self.attr(id, "class")
            .is_some_and(|c| c.split_ascii_whitespace().any(|t| t == token))
    }

    /// The tokens of the element's `class`.
    pub fn classes(&self, id: Id) -> impl Iterator<Item = &str> {
        self.attr(id, "class")
            .unwrap_or("")
            .split_ascii_whitespace()
    }

    /// The element's children.
    pub fn children(&self, id: Id) -> &[Id] {
        &self.nodes[id].children
    }

    /// Every node below `id` (not `id` itself), in document order, without
    /// recursion.
    pub fn descendants(&self, id: Id) -> Vec<Id> {
        let mut out = Vec::new();
        let mut stack: Vec<Id> = self.nodes[id].children.iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.nodes[n].children.iter().rev().copied());
        }
        out
    }

    /// The first element below `id` for which `pred` holds.
    pub fn find(&self, id: Id, pred: impl Fn(&Dom, Id) -> bool) -> Option<Id> {
        self.descendants(id).into_iter().find(|&n| pred(self, n))
    }

    /// The text below `id`, as written (no whitespace folded); `<br>` is a
    /// line break; scripts and styles say nothing.
    pub fn text(&self, id: Id) -> String {
        let mut out = String::new();
        let mut stack: Vec<Id> = self.nodes[id].children.iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            match &self.nodes[n].data {
                Data::Text(t) => out.push_str(t),
                Data::Element { name, .. } => match &*name.local {
                    "br" => out.push('\n'),
                    "script" | "style" | "template" => {}
                    _ => stack.extend(self.nodes[n].children.iter().rev().copied()),
                },
                _ => {}
            }
        }
        out
    }
}

/// html5ever's view of the arena while it parses.
#[derive(Default)]
struct Sink {
    dom: RefCell<Dom>,
    ready: std::cell::Cell<bool>,
}

impl Sink {
    fn ensure_document(&self) {
        if !self.ready.get() {
            self.ready.set(true);
            self.dom.borrow_mut().nodes.push(Node {
                parent: None,
                children: Vec::new(),
                data: Data::Document,
            });
        }
    }

    fn new_node(&self, data: Data) -> Id {
        self.ensure_document();
        let mut dom = self.dom.borrow_mut();
        dom.nodes.push(Node {
            parent: None,
            children: Vec::new(),
            data,
        });
        dom.nodes.len() - 1
    }

    /// Puts `child` among `parent`'s children at `index`, merging text with
    /// the text before it.
    fn insert(&self, parent: Id, index: usize, child: NodeOrText<Id>) {
        self.ensure_document();
        let mut dom = self.dom.borrow_mut();
        match child {
            NodeOrText::AppendText(text) => {
                if index > 0 {
                    let before = dom.nodes[parent].children[index - 1];
                    if let Data::Text(t) = &mut dom.nodes[before].data {
                        t.push_str(&text);
                        return;
                    }
                }
                dom.nodes.push(Node {
                    parent: Some(parent),
                    children: Vec::new(),
                    data: Data::Text(text.to_string()),
                });
                let id = dom.nodes.len() - 1;
                dom.nodes[parent].children.insert(index, id);
            }
            NodeOrText::AppendNode(node) => {
                detach(&mut dom, node);
                let index = index.min(dom.nodes[parent].children.len());
                dom.nodes[node].parent = Some(parent);
                dom.nodes[parent].children.insert(index, node);
            }
        }
    }
}

fn detach(dom: &mut Dom, node: Id) {
    if let Some(p) = dom.nodes[node].parent.take() {
        dom.nodes[p].children.retain(|&c| c != node);
    }
}

/// An element's name as html5ever asks for it.
#[derive(Debug)]
struct Name(QualName);

impl ElemName for Name {
    fn ns(&self) -> &Namespace {
        &self.0.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.0.local
    }
}

impl TreeSink for Sink {
    type Handle = Id;
    type Output = Dom;
    type ElemName<'a> = Name;

    fn finish(self) -> Dom {
        self.ensure_document();
        self.dom.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Id {
        self.ensure_document();
        0
    }

    fn elem_name<'a>(&'a self, target: &'a Id) -> Name {
        match &self.dom.borrow().nodes[*target].data {
            Data::Element { name, .. } => Name(name.clone()),
            _ => Name(QualName::new(None, ns!(html), local_name!(""))),
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _flags: ElementFlags) -> Id {
        let attrs = attrs
            .into_iter()
            .map(|a| (a.name.local.to_string(), a.value.to_string()))
            .collect();
        self.new_node(Data::Element { name, attrs })
    }

    fn create_comment(&self, _text: StrTendril) -> Id {
        self.new_node(Data::Ignored)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Id {
        self.new_node(Data::Ignored)
    }

    fn append(&self, parent: &Id, child: NodeOrText<Id>) {
        self.ensure_document();
        let len = self.dom.borrow().nodes[*parent].children.len();
        self.insert(*parent, len, child);
    }

    fn append_based_on_parent_node(&self, element: &Id, prev: &Id, child: NodeOrText<Id>) {
        let has_parent = self.dom.borrow().nodes[*element].parent.is_some();
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev, child);
        }
    }

    fn append_doctype_to_document(&self, _n: StrTendril, _p: StrTendril, _s: StrTendril) {}

    fn get_template_contents(&self, target: &Id) -> Id {
        // A template's contents are never shown: they go to the element
        // itself, which the converter skips.
        *target
    }

    fn same_node(&self, x: &Id, y: &Id) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Id, new_node: NodeOrText<Id>) {
        let place = {
            let dom = self.dom.borrow();
            dom.nodes[*sibling].parent.map(|p| {
                let i = dom.nodes[p]
                    .children
                    .iter()
                    .position(|c| c == sibling)
                    .unwrap_or(0);
                (p, i)
            })
        };
        if let Some((parent, index)) = place {
            // Moving a node that sits before the sibling shifts the index.
            let index = match &new_node {
                NodeOrText::AppendNode(n) => {
                    let dom = self.dom.borrow();
                    let earlier = dom.nodes[*n].parent == Some(parent)
                        && dom.nodes[parent].children[..index].contains(n);
                    if earlier { index - 1 } else { index }
                }
                NodeOrText::AppendText(_) => index,
            };
            self.insert(parent, index, new_node);
        }
    }

    fn add_attrs_if_missing(&self, target: &Id, new: Vec<Attribute>) {
        let mut dom = self.dom.borrow_mut();
        if let Data::Element { attrs, .. } = &mut dom.nodes[*target].data {
            for a in new {
                let key = a.name.local.to_string();
                if !attrs.iter().any(|(k, _)| *k == key) {
                    attrs.push((key, a.value.to_string()));
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &Id) {
        detach(&mut self.dom.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &Id, new_parent: &Id) {
        let mut dom = self.dom.borrow_mut();
        let children = std::mem::take(&mut dom.nodes[*node].children);
        for &c in &children {
            dom.nodes[c].parent = Some(*new_parent);
        }
        dom.nodes[*new_parent].children.extend(children);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_markup_ends_as_a_browser_ends_it() {
        let dom = Dom::parse("<p>one<p>two <b>bold <i>both</b> italic</i>");
        let root = dom.root();
        let ps: Vec<_> = dom
            .children(root)
            .iter()
            .filter(|&&c| dom.tag(c) == "p")
            .collect();
        assert_eq!(ps.len(), 2);
        assert_eq!(dom.text(root), "onetwo bold both italic");
    }

    #[test]
    fn deep_nesting_parses_and_drops() {
        let html = "<div>".repeat(2_000) + "x";
        let dom = Dom::parse(&html);
        assert_eq!(dom.text(dom.root()), "x");
    }
}
