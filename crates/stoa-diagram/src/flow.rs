//! Flowcharts with groups (subgraphs), laid out by stoa itself.
//!
//! mermaid-svg lays a flowchart out as one flat graph and draws each
//! group's frame round wherever its members landed, so frames overlap and
//! arrows cross group names. Here each group is laid out on its own and
//! then placed as one item of its parent ([`crate::layout`]): frames nest
//! or stand apart, never overlap; arrows enter a group through its top and
//! leave through its bottom in lanes of their own, and the group's name is
//! put where no arrow passes. Anything this drawing does not know (styles,
//! classes, links, shapes other than the common ones, directions other
//! than top-down and left-right) is left to mermaid-svg, unchanged.

use crate::layout::{self, Run};
use mermaid_svg::Theme;
use mermaid_svg::ast::{EdgeHead, EdgeLine, FlowDirection, FlowchartDiagram, NodeShape};
use std::collections::HashMap;
use stoa_doc::escape::{xml_attribute, xml_text};

/// The font size of node labels, in CSS pixels.
const FONT_SIZE: f64 = 14.0;
/// The font size of group names.
const GROUP_FONT_SIZE: f64 = 13.0;
const LINE_H: f64 = 18.0;
const PAD_X: f64 = 14.0;
const PAD_Y: f64 = 7.0;
const MIN_W: f64 = 56.0;
/// Space between neighbours, and between ranks.
const GAP: f64 = 24.0;
const RANK_GAP: f64 = 30.0;
/// A group's inner margin, and the band on top that holds its name.
const GROUP_PAD: f64 = 10.0;
const BAND: f64 = 24.0;
/// The margin round the whole drawing.
const CANVAS: f64 = 8.0;
const ARROW: f64 = 8.0;

/// An axis-aligned box: left, top, width, height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

// The geometry checks are what the tests hold every drawing to.
#[cfg(test)]
impl Rect {
    /// Whether the two boxes share any area.
    pub(crate) fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }

    /// Whether `other` lies inside this box.
    pub(crate) fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.x + other.w <= self.x + self.w
            && other.y + other.h <= self.y + self.h
    }

    /// Whether the segment from `a` to `b` passes through the box.
    pub(crate) fn cut_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        // Liang–Barsky clipping.
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let mut t0: f64 = 0.0;
        let mut t1: f64 = 1.0;
        for (p, q) in [
            (-dx, a.0 - self.x),
            (dx, self.x + self.w - a.0),
            (-dy, a.1 - self.y),
            (dy, self.y + self.h - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        t0 < t1
    }
}

/// A group's frame and where its name is written.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub rect: Rect,
    pub label: String,
    /// The box the name takes.
    pub label_box: Rect,
    /// Which group holds this one, if any (an index into the frames).
    #[cfg_attr(not(test), allow(dead_code))]
    pub parent: Option<usize>,
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub rect: Rect,
    pub shape: NodeShape,
    pub lines: Vec<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub points: Vec<(f64, f64)>,
    pub line: EdgeLine,
    pub head: EdgeHead,
    pub tail: EdgeHead,
    pub label: Option<(String, Rect)>,
    /// The nodes it joins (indices into the nodes).
    #[cfg_attr(not(test), allow(dead_code))]
    pub ends: (usize, usize),
}

/// A flowchart laid out, in CSS pixels.
#[derive(Clone, Debug)]
pub(crate) struct Scene {
    pub width: f64,
    pub height: f64,
    pub frames: Vec<Frame>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// An item of a container: one of its nodes, or a group inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    Node(usize),
    Group(usize),
}

/// One container (the whole chart, or a group) once laid out, relative to
/// its own top left corner, in rank space.
#[derive(Default)]
struct Placed {
    items: Vec<Item>,
    /// Each item's centre and its row (top, bottom), content-relative.
    centers: Vec<(f64, f64)>,
    rows: Vec<(f64, f64)>,
    /// Where the content starts inside the container.
    content: (f64, f64),
    /// The container's outer size (across, along).
    size: (f64, f64),
    /// Lanes, content-relative: of edges joined here, entering, leaving.
    edge_runs: HashMap<usize, Vec<Run>>,
    top_runs: HashMap<usize, Vec<Run>>,
    bottom_runs: HashMap<usize, Vec<Run>>,
    /// Where each edge entering / leaving crosses the container's edge,
    /// across, container-relative.
    entry: HashMap<usize, f64>,
    exit: HashMap<usize, f64>,
    /// The name's box, container-relative, in screen orientation.
    label_at: (f64, f64),
}

/// Lays out `d`, or `None` when it holds something this drawing leaves to
/// mermaid-svg.
pub(crate) fn plan(d: &FlowchartDiagram) -> Option<Scene> {
    let across = match d.direction {
        FlowDirection::TopDown => false,
        FlowDirection::LeftRight => true,
        _ => return None,
    };
    if d.subgraphs.is_empty() || !supported(d) {
        return None;
    }
    let index: HashMap<&str, usize> = d
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let groups: HashMap<&str, usize> = d
        .subgraphs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i + 1))
        .collect();
    // Containers: 0 is the chart, g + 1 is subgraph g.
    let count = d.subgraphs.len() + 1;
    let mut parent = vec![None; count];
    for (g, s) in d.subgraphs.iter().enumerate() {
        for child in &s.child_subgraph_ids {
            let &c = groups.get(child.as_str())?;
            if c == g + 1 || parent[c].is_some() {
                return None;
            }
            parent[c] = Some(g + 1);
        }
    }
    for p in parent.iter_mut().skip(1) {
        if p.is_none() {
            *p = Some(0);
        }
    }
    let mut owner = vec![0usize; d.nodes.len()];
    let mut owned = vec![false; d.nodes.len()];
    for (g, s) in d.subgraphs.iter().enumerate() {
        for id in &s.node_ids {
            let &i = index.get(id.as_str())?;
            if !owned[i] {
                owned[i] = true;
                owner[i] = g + 1;
            }
        }
    }
    let chain = |mut c: usize| {
        let mut out = vec![c];
        while let Some(p) = parent[c] {
            out.push(p);
            c = p;
        }
        out.reverse();
        out
    };
    // A cycle of groups would never end the chain above.
    for c in 0..count {
        let mut seen = 0;
        let mut at = Some(c);
        while let Some(x) = at {
            seen += 1;
            if seen > count {
                return None;
            }
            at = parent[x];
        }
    }

    let node_size: Vec<(f64, f64)> = d.nodes.iter().map(size_of).collect();
    let rank_space = |(w, h): (f64, f64)| if across { (h, w) } else { (w, h) };

    // Items of each container.
    let mut items: Vec<Vec<Item>> = vec![Vec::new(); count];
    for c in 1..count {
        items[parent[c]?].push(Item::Group(c));
    }
    for (i, &o) in owner.iter().enumerate() {
        items[o].push(Item::Node(i));
    }
    // Edges: joined in the lowest container that holds both ends, entering
    // and leaving every group below it on the way.
    let mut joined: Vec<Vec<(Item, Item, usize)>> = vec![Vec::new(); count];
    let mut tops: Vec<Vec<(Item, usize)>> = vec![Vec::new(); count];
    let mut bottoms: Vec<Vec<(Item, usize)>> = vec![Vec::new(); count];
    let mut ends = Vec::new();
    for edge in &d.edges {
        let (&a, &b) = (index.get(edge.from.as_str())?, index.get(edge.to.as_str())?);
        if a == b {
            return None;
        }
        ends.push((a, b));
    }
    // An edge that closes a cycle is laid out turned round (it leaves its
    // group through the top and enters the other through the bottom, as
    // seen from its head), then drawn in the author's direction.
    let turned = back_edges(d.nodes.len(), &ends);
    for (e, end) in ends.iter_mut().enumerate() {
        if turned[e] {
            *end = (end.1, end.0);
        }
    }
    for (e, &(a, b)) in ends.iter().enumerate() {
        let (ca, cb) = (chain(owner[a]), chain(owner[b]));
        let common = ca.iter().zip(&cb).take_while(|(x, y)| x == y).count();
        let item_in = |path: &[usize], depth: usize, node: usize| {
            if depth + 1 < path.len() {
                Item::Group(path[depth + 1])
            } else {
                Item::Node(node)
            }
        };
        let l = common - 1;
        joined[ca[l]].push((item_in(&ca, l, a), item_in(&cb, l, b), e));
        for depth in common..ca.len() {
            bottoms[ca[depth]].push((item_in(&ca, depth, a), e));
        }
        for depth in common..cb.len() {
            tops[cb[depth]].push((item_in(&cb, depth, b), e));
        }
    }

    // Bottom-up: deepest containers first.
    let depth_of = |c: usize| chain(c).len();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&c| std::cmp::Reverse(depth_of(c)));
    let mut placed: Vec<Placed> = (0..count).map(|_| Placed::default()).collect();
    for &c in &order {
        let its = items[c].clone();
        let at: HashMap<Item, usize> = its.iter().enumerate().map(|(i, &it)| (it, i)).collect();
        let sizes: Vec<(f64, f64)> = its
            .iter()
            .map(|it| match *it {
                Item::Node(i) => rank_space(node_size[i]),
                Item::Group(g) => placed[g].size,
            })
            .collect();
        let input = layout::Input {
            sizes,
            edges: joined[c]
                .iter()
                .map(|&(x, y, _)| (at[&x], at[&y]))
                .collect(),
            offsets: joined[c]
                .iter()
                .map(|&(x, y, e)| (exit_offset(&placed, x, e), entry_offset(&placed, y, e)))
                .collect(),
            tops: tops[c]
                .iter()
                .map(|&(x, e)| (at[&x], entry_offset(&placed, x, e)))
                .collect(),
            bottoms: bottoms[c]
                .iter()
                .map(|&(x, e)| (at[&x], exit_offset(&placed, x, e)))
                .collect(),
            gap: GAP,
            rank_gap: RANK_GAP,
        };
        let out = layout::layout(&input);
        let mut p = Placed {
            items: its.clone(),
            centers: out.centers,
            rows: out.rows,
            ..Placed::default()
        };
        for (k, &(_, _, e)) in joined[c].iter().enumerate() {
            p.edge_runs.insert(e, out.edge_runs[k].clone());
        }
        for (k, &(_, e)) in tops[c].iter().enumerate() {
            p.top_runs.insert(e, out.top_runs[k].clone());
        }
        for (k, &(_, e)) in bottoms[c].iter().enumerate() {
            p.bottom_runs.insert(e, out.bottom_runs[k].clone());
        }
        // Where each crossing edge meets the content's edge, content-relative.
        let item_offset = |p: &Placed, i: usize, placed: &[Placed]| match p.items[i] {
            Item::Node(_) => 0.0,
            Item::Group(g) => p.centers[i].0 - placed[g].size.0 / 2.0,
        };
        let mut entries: Vec<(usize, f64)> = Vec::new();
        for &(it, e) in &tops[c] {
            let i = at[&it];
            let x = match p.top_runs[&e].first() {
                Some(run) => run.0,
                None => match it {
                    Item::Node(_) => p.centers[i].0,
                    Item::Group(g) => item_offset(&p, i, &placed) + placed[g].entry[&e],
                },
            };
            entries.push((e, x));
        }
        let mut exits: Vec<(usize, f64)> = Vec::new();
        for &(it, e) in &bottoms[c] {
            let i = at[&it];
            let x = match p.bottom_runs[&e].last() {
                Some(run) => run.0,
                None => match it {
                    Item::Node(_) => p.centers[i].0,
                    Item::Group(g) => item_offset(&p, i, &placed) + placed[g].exit[&e],
                },
            };
            exits.push((e, x));
        }
        // The frame round the content, and the group's name in its band.
        let (cw, ch) = out.size;
        if c == 0 {
            p.content = (CANVAS, CANVAS);
            p.size = (cw + 2.0 * CANVAS, ch + 2.0 * CANVAS);
        } else {
            let label = group_label(d, c);
            let lw = text_width(&label, GROUP_FONT_SIZE);
            if across {
                // Rank space is turned: across is the screen's height, and
                // the band is on the screen's top, that is before across.
                let along = (ch + 2.0 * GROUP_PAD).max(lw + 2.0 * GROUP_PAD);
                p.content = (BAND, (along - ch) / 2.0);
                p.size = (cw + BAND + GROUP_PAD, along);
                p.label_at = (GROUP_PAD, 0.0);
            } else {
                let mut width = (cw + 2.0 * GROUP_PAD).max(lw + 2.0 * GROUP_PAD);
                let mut left = (width - cw) / 2.0;
                let clear = |from: f64, left: f64| {
                    entries
                        .iter()
                        .all(|&(_, x)| x + left < from - 10.0 || x + left > from + lw + 10.0)
                };
                let label_x = if clear(GROUP_PAD, left) {
                    GROUP_PAD
                } else if clear(width - GROUP_PAD - lw, left) {
                    width - GROUP_PAD - lw
                } else {
                    // No room beside the arrows: widen the frame on the
                    // left and write the name there.
                    left += lw + GROUP_PAD;
                    width += lw + GROUP_PAD;
                    GROUP_PAD
                };
                p.content = (left, BAND);
                p.size = (width, ch + BAND + GROUP_PAD);
                p.label_at = (label_x, 0.0);
            }
        }
        for (e, x) in entries {
            p.entry.insert(e, x + p.content.0);
        }
        for (e, x) in exits {
            p.exit.insert(e, x + p.content.0);
        }
        placed[c] = p;
    }

    // Top-down: absolute origins (rank space) of every container.
    let mut origin = vec![(0.0, 0.0); count];
    let mut row_of_group = vec![(0.0, 0.0); count];
    let mut node_center = vec![(0.0, 0.0); d.nodes.len()];
    let mut node_row = vec![(0.0, 0.0); d.nodes.len()];
    let mut by_depth: Vec<usize> = (0..count).collect();
    by_depth.sort_by_key(|&c| depth_of(c));
    for &c in &by_depth {
        let p = &placed[c];
        let (ox, oy) = (origin[c].0 + p.content.0, origin[c].1 + p.content.1);
        for (i, it) in p.items.iter().enumerate() {
            let (cx, cy) = p.centers[i];
            let row = (p.rows[i].0 + oy, p.rows[i].1 + oy);
            match *it {
                Item::Node(n) => {
                    node_center[n] = (cx + ox, cy + oy);
                    node_row[n] = row;
                }
                Item::Group(g) => {
                    let (w, h) = placed[g].size;
                    origin[g] = (cx + ox - w / 2.0, cy + oy - h / 2.0);
                    row_of_group[g] = row;
                }
            }
        }
    }
    let content_origin = |c: usize| {
        (
            origin[c].0 + placed[c].content.0,
            origin[c].1 + placed[c].content.1,
        )
    };
    let shift = |runs: &[Run], c: usize| -> Vec<Run> {
        let (ox, oy) = content_origin(c);
        runs.iter()
            .map(|&(x, a, b)| (x + ox, a + oy, b + oy))
            .collect()
    };

    // Each edge's path, as vertical runs joined across the gaps.
    let mut edges = Vec::new();
    for (e, edge) in d.edges.iter().enumerate() {
        let (a, b) = ends[e];
        let (ca, cb) = (chain(owner[a]), chain(owner[b]));
        let common = ca.iter().zip(&cb).take_while(|(x, y)| x == y).count();
        let (sa, sb) = (rank_space(node_size[a]), rank_space(node_size[b]));
        let mut runs: Vec<Run> = vec![(
            node_center[a].0,
            node_center[a].1 + sa.1 / 2.0,
            node_row[a].1,
        )];
        for &c in ca[common..].iter().rev() {
            runs.extend(shift(&placed[c].bottom_runs[&e], c));
            let x = origin[c].0 + placed[c].exit[&e];
            let here = runs.last().map_or(0.0, |r| r.2);
            runs.push((x, here, row_of_group[c].1));
        }
        runs.extend(shift(&placed[ca[common - 1]].edge_runs[&e], ca[common - 1]));
        for &c in &cb[common..] {
            let x = origin[c].0 + placed[c].entry[&e];
            runs.push((x, row_of_group[c].0, content_origin(c).1));
            runs.extend(shift(&placed[c].top_runs[&e], c));
        }
        runs.push((
            node_center[b].0,
            node_row[b].0,
            node_center[b].1 - sb.1 / 2.0,
        ));
        let mut points: Vec<(f64, f64)> = Vec::new();
        for (x, r0, r1) in runs {
            for p in [(x, r0), (x, r1)] {
                let p = if across { (p.1, p.0) } else { p };
                if points.last().is_none_or(|q: &(f64, f64)| {
                    (q.0 - p.0).abs() > 0.01 || (q.1 - p.1).abs() > 0.01
                }) {
                    points.push(p);
                }
            }
        }
        let mut points = straighten(points);
        let (mut head, mut tail, mut ends_drawn) = (edge.head, edge.tail, (a, b));
        if turned[e] {
            points.reverse();
            std::mem::swap(&mut head, &mut tail);
            ends_drawn = (b, a);
        }
        let label = edge
            .label
            .as_deref()
            .map(clean)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (mx, my) = label_point(&points);
                let w = text_width(&l, FONT_SIZE - 1.0) + 8.0;
                let h = LINE_H;
                (
                    l,
                    Rect {
                        x: mx - w / 2.0,
                        y: my - h / 2.0,
                        w,
                        h,
                    },
                )
            });
        edges.push(Edge {
            points,
            line: edge.line,
            head,
            tail,
            label,
            ends: ends_drawn,
        });
    }

    let screen = |(c, r): (f64, f64)| if across { (r, c) } else { (c, r) };
    let nodes = d
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let (cx, cy) = screen(node_center[i]);
            let (w, h) = node_size[i];
            Node {
                rect: Rect {
                    x: cx - w / 2.0,
                    y: cy - h / 2.0,
                    w,
                    h,
                },
                shape: n.shape,
                lines: label_lines(&n.text),
            }
        })
        .collect();
    let frames = (1..count)
        .map(|c| {
            let (x, y) = screen(origin[c]);
            let (w, h) = screen(placed[c].size);
            let label = group_label(d, c);
            let lw = text_width(&label, GROUP_FONT_SIZE);
            let (lx, _) = placed[c].label_at;
            Frame {
                rect: Rect { x, y, w, h },
                label_box: Rect {
                    x: x + lx,
                    y: y + 5.0,
                    w: lw,
                    h: 16.0,
                },
                label,
                parent: parent[c].filter(|&p| p > 0).map(|p| p - 1),
            }
        })
        .collect();
    let (width, height) = screen(placed[0].size);
    Some(Scene {
        width,
        height,
        frames,
        nodes,
        edges,
    })
}

/// Where edge `e` enters `item`, across, from the item's centre.
fn entry_offset(placed: &[Placed], item: Item, e: usize) -> f64 {
    match item {
        Item::Node(_) => 0.0,
        Item::Group(g) => placed[g].entry.get(&e).copied().unwrap_or(0.0) - placed[g].size.0 / 2.0,
    }
}

/// Where edge `e` leaves `item`, across, from the item's centre.
fn exit_offset(placed: &[Placed], item: Item, e: usize) -> f64 {
    match item {
        Item::Node(_) => 0.0,
        Item::Group(g) => placed[g].exit.get(&e).copied().unwrap_or(0.0) - placed[g].size.0 / 2.0,
    }
}

/// Which edges close a cycle, found by a depth-first walk from each node
/// in the author's order: the edges to a node still on the walk's path.
fn back_edges(count: usize, ends: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); count];
    for (e, &(a, b)) in ends.iter().enumerate() {
        out[a].push((b, e));
    }
    let mut state = vec![0u8; count];
    let mut back = vec![false; ends.len()];
    for s in 0..count {
        if state[s] != 0 {
            continue;
        }
        state[s] = 1;
        let mut stack = vec![(s, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (u, i) = *top;
            if let Some(&(v, e)) = out[u].get(i) {
                top.1 += 1;
                match state[v] {
                    0 => {
                        state[v] = 1;
                        stack.push((v, 0));
                    }
                    1 => back[e] = true,
                    _ => {}
                }
            } else {
                state[u] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// Whether this drawing knows everything `d` asks for.
fn supported(d: &FlowchartDiagram) -> bool {
    d.title.is_none()
        && d.class_defs.is_empty()
        && d.edge_styles.is_empty()
        && d.link_style_default.is_empty()
        && d.nodes.iter().all(|n| {
            n.classes.is_empty()
                && n.style.is_empty()
                && n.click.is_none()
                && matches!(
                    n.shape,
                    NodeShape::Rect
                        | NodeShape::Round
                        | NodeShape::Stadium
                        | NodeShape::Subroutine
                        | NodeShape::Cylinder
                        | NodeShape::Circle
                        | NodeShape::Rhombus
                )
        })
        && d.subgraphs
            .iter()
            .all(|s| s.direction.is_none() && s.classes.is_empty() && s.style.is_empty())
        && d.edges.iter().all(|e| !e.animate)
}

fn group_label(d: &FlowchartDiagram, c: usize) -> String {
    let s = &d.subgraphs[c - 1];
    let label = clean(&s.label);
    if label.is_empty() {
        s.id.clone()
    } else {
        label
    }
}

/// A node's size on screen: its label and padding, by shape.
fn size_of(n: &mermaid_svg::ast::FlowNode) -> (f64, f64) {
    let lines = label_lines(&n.text);
    let tw = lines
        .iter()
        .map(|l| text_width(l, FONT_SIZE))
        .fold(0.0, f64::max);
    let th = lines.len().max(1) as f64 * LINE_H;
    let (w, h) = ((tw + 2.0 * PAD_X).max(MIN_W), th + 2.0 * PAD_Y);
    match n.shape {
        NodeShape::Circle => {
            let d = w.max(h);
            (d, d)
        }
        NodeShape::Rhombus => (2.0 * (tw + 8.0), 2.0 * (th + 5.0)),
        NodeShape::Cylinder => (w, h + 12.0),
        NodeShape::Subroutine => (w + 12.0, h),
        _ => (w, h),
    }
}

/// The label's lines, without markup.
fn label_lines(text: &str) -> Vec<String> {
    let mut t = text.to_string();
    for br in ["<br/>", "<br />", "<BR>", "<br>", "\\n"] {
        t = t.replace(br, "\n");
    }
    t.lines().map(clean).collect()
}

/// Text without tags, entities decoded, spaces collapsed.
pub(crate) fn clean(text: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace('`', "");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How wide `text` is set in Libertinus Serif at `size` pixels, a little
/// generously: a guess per kind of letter, since the drawing is made
/// without the font's metrics.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            ' ' => 0.26,
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.28,
            'f' | 't' | 'r' | 'I' | 'J' | '(' | ')' | '[' | ']' | '/' | '-' => 0.36,
            'm' | 'w' => 0.76,
            'M' | 'W' => 0.92,
            c if c.is_ascii_uppercase() => 0.7,
            c if c.is_ascii_digit() => 0.5,
            c if c.is_ascii_lowercase() => 0.5,
            _ => 0.62,
        })
        .sum();
    em * size * 1.1
}

/// Drops the middle of three points on one line.
fn straighten(points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for p in points {
        if out.len() >= 2 {
            let a = out[out.len() - 2];
            let b = out[out.len() - 1];
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
            if cross.abs() < 0.01 {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}

/// Where an edge's label goes: the middle of its path's middle crossing
/// of a gap (a slanted or the longest segment).
fn label_point(points: &[(f64, f64)]) -> (f64, f64) {
    if points.len() < 2 {
        return points.first().copied().unwrap_or((0.0, 0.0));
    }
    let segments: Vec<usize> = (0..points.len() - 1).collect();
    let slanted: Vec<usize> = segments
        .iter()
        .copied()
        .filter(|&i| {
            let (a, b) = (points[i], points[i + 1]);
            (a.0 - b.0).abs() > 0.5 && (a.1 - b.1).abs() > 0.5
        })
        .collect();
    let i = if slanted.is_empty() {
        *segments
            .iter()
            .max_by(|&&i, &&j| {
                let len = |k: usize| {
                    let (a, b) = (points[k], points[k + 1]);
                    (a.0 - b.0).hypot(a.1 - b.1)
                };
                len(i).total_cmp(&len(j)).then(j.cmp(&i))
            })
            .unwrap_or(&0)
    } else {
        slanted[slanted.len() / 2]
    };
    let (a, b) = (points[i], points[i + 1]);
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The scene as an SVG document in mermaid-svg's manner (a `viewBox`,
/// presentation attributes only), for [`crate::svg::finish`].
pub(crate) fn render(scene: &Scene, theme: &Theme) -> String {
    let n = crate::number;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="{f}" font-size="{fs}">"#,
        w = n(scene.width),
        h = n(scene.height),
        f = xml_attribute(&theme.font_family),
        fs = n(FONT_SIZE),
    );
    let fg = xml_attribute(&theme.fg);
    for frame in &scene.frames {
        let r = frame.rect;
        s.push_str(&format!(
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="{}" stroke="{}" stroke-width="1"/>"#,
            n(r.x),
            n(r.y),
            n(r.w),
            n(r.h),
            xml_attribute(&theme.flow_cluster_fill),
            xml_attribute(&theme.flow_cluster_stroke)
        ));
        s.push_str(&format!(
            r#"<text x="{}" y="{}" fill="{fg}" font-size="{}">{}</text>"#,
            n(frame.label_box.x),
            n(frame.label_box.y + 12.0),
            n(GROUP_FONT_SIZE),
            xml_text(&frame.label)
        ));
    }
    let stroke = xml_attribute(&theme.flow_edge_stroke);
    for edge in &scene.edges {
        if edge.line == EdgeLine::Invisible || edge.points.len() < 2 {
            continue;
        }
        let mut pts = edge.points.clone();
        let mut heads = String::new();
        if edge.head != EdgeHead::None {
            heads.push_str(&head(&mut pts, edge.head, &stroke, false));
        }
        if edge.tail != EdgeHead::None {
            heads.push_str(&head(&mut pts, edge.tail, &stroke, true));
        }
        let (width, dash) = match edge.line {
            EdgeLine::Thick => ("3", ""),
            EdgeLine::Dotted => ("1.5", r#" stroke-dasharray="3 3""#),
            _ => ("1.5", ""),
        };
        s.push_str(&format!(
            r#"<path d="{}" fill="none" stroke="{stroke}" stroke-width="{width}"{dash}/>"#,
            rounded(&pts)
        ));
        s.push_str(&heads);
        if let Some((label, r)) = &edge.label {
            s.push_str(&format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/><text x="{}" y="{}" text-anchor="middle" fill="{fg}" font-size="{}">{}</text>"#,
                n(r.x),
                n(r.y),
                n(r.w),
                n(r.h),
                xml_attribute(&theme.flow_label_bg),
                n(r.x + r.w / 2.0),
                n(r.y + r.h / 2.0 + 4.5),
                n(FONT_SIZE - 1.0),
                xml_text(label)
            ));
        }
    }
    let fill = xml_attribute(&theme.flow_node_fill);
    let line = xml_attribute(&theme.flow_node_stroke);
    let paint = format!(r#"fill="{fill}" stroke="{line}" stroke-width="1.5""#);
    for node in &scene.nodes {
        let Rect { x, y, w, h } = node.rect;
        let (cx, cy) = (x + w / 2.0, y + h / 2.0);
        match node.shape {
            NodeShape::Round => s.push_str(&rect(node.rect, 5.0, &paint)),
            NodeShape::Stadium => s.push_str(&rect(node.rect, h / 2.0, &paint)),
            NodeShape::Subroutine => {
                s.push_str(&rect(node.rect, 2.0, &paint));
                for lx in [x + 6.0, x + w - 6.0] {
                    s.push_str(&format!(
                        r#"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{line}" stroke-width="1"/>"#,
                        n(lx),
                        n(y),
                        n(y + h)
                    ));
                }
            }
            NodeShape::Cylinder => {
                let ry = 6.0;
                s.push_str(&format!(
                    r#"<path d="M{x0} {t} L{x0} {b} A{rx} {ry} 0 0 0 {x1} {b} L{x1} {t} A{rx} {ry} 0 0 0 {x0} {t} Z" {paint}/><path d="M{x0} {t} A{rx} {ry} 0 0 0 {x1} {t}" fill="none" stroke="{line}" stroke-width="1.5"/>"#,
                    x0 = n(x),
                    x1 = n(x + w),
                    t = n(y + ry),
                    b = n(y + h - ry),
                    rx = n(w / 2.0),
                    ry = n(ry),
                ));
            }
            NodeShape::Circle => s.push_str(&format!(
                r#"<circle cx="{}" cy="{}" r="{}" {paint}/>"#,
                n(cx),
                n(cy),
                n(w / 2.0)
            )),
            NodeShape::Rhombus => s.push_str(&format!(
                r#"<polygon points="{},{} {},{} {},{} {},{}" {paint}/>"#,
                n(cx),
                n(y),
                n(x + w),
                n(cy),
                n(cx),
                n(y + h),
                n(x),
                n(cy)
            )),
            _ => s.push_str(&rect(node.rect, 4.0, &paint)),
        }
        let first = cy - (node.lines.len() as f64 - 1.0) * LINE_H / 2.0;
        for (k, text) in node.lines.iter().enumerate() {
            s.push_str(&format!(
                r#"<text x="{}" y="{}" text-anchor="middle" fill="{fg}">{}</text>"#,
                n(cx),
                n(first + k as f64 * LINE_H + FONT_SIZE * 0.35),
                xml_text(text)
            ));
        }
    }
    s.push_str("</svg>");
    s
}

fn rect(r: Rect, rx: f64, paint: &str) -> String {
    let n = crate::number;
    format!(
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" {paint}/>"#,
        n(r.x),
        n(r.y),
        n(r.w),
        n(r.h),
        n(rx)
    )
}

/// Draws a head at the end (or, with `start`, the start) of `pts`, and
/// pulls the line back so that it stops where the head begins.
fn head(pts: &mut [(f64, f64)], kind: EdgeHead, stroke: &str, start: bool) -> String {
    let n = crate::number;
    let len = pts.len();
    let (tip_i, from_i) = if start { (0, 1) } else { (len - 1, len - 2) };
    let (tip, from) = (pts[tip_i], pts[from_i]);
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let d = dx.hypot(dy);
    if d < 1e-6 {
        return String::new();
    }
    let (ux, uy) = (dx / d, dy / d);
    let back = ARROW.min(d * 0.8);
    pts[tip_i] = (tip.0 - ux * back, tip.1 - uy * back);
    match kind {
        EdgeHead::Circle => format!(
            r##"<circle cx="{}" cy="{}" r="4" fill="#ffffff" stroke="{stroke}" stroke-width="1.5"/>"##,
            n(tip.0 - ux * 4.0),
            n(tip.1 - uy * 4.0)
        ),
        EdgeHead::Cross => {
            let (cx, cy) = (tip.0 - ux * 4.0, tip.1 - uy * 4.0);
            format!(
                r#"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="{stroke}" stroke-width="1.5"/>"#,
                n(cx - 3.5),
                n(cy - 3.5),
                n(cx + 3.5),
                n(cy + 3.5),
                n(cx - 3.5),
                n(cy + 3.5),
                n(cx + 3.5),
                n(cy - 3.5)
            )
        }
        _ => {
            let (bx, by) = (tip.0 - ux * ARROW, tip.1 - uy * ARROW);
            let (px, py) = (-uy * ARROW * 0.45, ux * ARROW * 0.45);
            format!(
                r#"<polygon points="{},{} {},{} {},{}" fill="{stroke}"/>"#,
                n(tip.0),
                n(tip.1),
                n(bx + px),
                n(by + py),
                n(bx - px),
                n(by - py)
            )
        }
    }
}

/// A path through `pts` with its corners rounded a little.
fn rounded(pts: &[(f64, f64)]) -> String {
    let n = crate::number;
    let mut d = format!("M{} {}", n(pts[0].0), n(pts[0].1));
    for i in 1..pts.len() {
        let p = pts[i];
        if i + 1 < pts.len() {
            let (a, b) = (pts[i - 1], pts[i + 1]);
            let la = (p.0 - a.0).hypot(p.1 - a.1);
            let lb = (b.0 - p.0).hypot(b.1 - p.1);
            let r = 6.0_f64.min(la / 2.0).min(lb / 2.0);
            if r > 0.5 {
                let s = (p.0 - (p.0 - a.0) / la * r, p.1 - (p.1 - a.1) / la * r);
                let e = (p.0 + (b.0 - p.0) / lb * r, p.1 + (b.1 - p.1) / lb * r);
                d.push_str(&format!(
                    " L{} {} Q{} {} {} {}",
                    n(s.0),
                    n(s.1),
                    n(p.0),
                    n(p.1),
                    n(e.0),
                    n(e.1)
                ));
                continue;
            }
        }
        d.push_str(&format!(" L{} {}", n(p.0), n(p.1)));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corpus's flowcharts (books/posts/data-engineering-reference-
    /// architectures), in both languages.
    const CORPUS: [(&str, &str); 6] = [
        ("lakehouse", include_str!("../fixtures/v1/lakehouse.mmd")),
        ("streaming", include_str!("../fixtures/v1/streaming.mmd")),
        ("ml", include_str!("../fixtures/v1/ml.mmd")),
        (
            "lakehouse.pt-BR",
            include_str!("../fixtures/v1/lakehouse.pt-BR.mmd"),
        ),
        (
            "streaming.pt-BR",
            include_str!("../fixtures/v1/streaming.pt-BR.mmd"),
        ),
        ("ml.pt-BR", include_str!("../fixtures/v1/ml.pt-BR.mmd")),
    ];

    /// Groups nested two deep, an edge that skips a rank, one that goes
    /// back up, edges between groups in both directions, a labelled edge,
    /// loose nodes, and every shape this drawing knows.
    const SYNTHETIC: &str = "flowchart TB
start((Start)) --> a
subgraph outer[\"Outer group with a long name\"]
  subgraph inner[\"Inner\"]
    a[\"First step\"] --> b(Second)
    b --> c{Decide}
  end
  d([Stadium]) --> e[(Store)]
end
subgraph side[\"Side\"]
  f[[Routine]] --> g[\"Last\"]
end
c -->|yes| d
c -->|no| f
e --> g
g -.-> a
start --> g
g --> stop[Stop]
";

    fn scene(source: &str) -> Scene {
        let (diagram, _) = mermaid_svg::parse_with_meta(source).expect("parses");
        let mermaid_svg::Diagram::Flowchart(chart) = diagram else {
            panic!("not a flowchart");
        };
        plan(&chart).expect("drawn by stoa's own layout")
    }

    fn group_of(s: &Scene, f: usize) -> Vec<usize> {
        let mut chain = vec![f];
        let mut at = s.frames[f].parent;
        while let Some(p) = at {
            chain.push(p);
            at = s.frames[p].parent;
        }
        chain
    }

    /// Everything a clean drawing promises.
    fn check(name: &str, s: &Scene) {
        // Frames: apart, or one inside the other (a group in a group).
        for i in 0..s.frames.len() {
            for j in i + 1..s.frames.len() {
                let (a, b) = (&s.frames[i], &s.frames[j]);
                let nested = group_of(s, i).contains(&j) || group_of(s, j).contains(&i);
                if nested {
                    assert!(
                        a.rect.contains(&b.rect) || b.rect.contains(&a.rect),
                        "{name}: {} and {} should nest",
                        a.label,
                        b.label
                    );
                } else {
                    assert!(
                        !a.rect.overlaps(&b.rect),
                        "{name}: frames {} and {} overlap",
                        a.label,
                        b.label
                    );
                }
            }
        }
        // Nodes: apart, and clear of every group's name.
        for (i, a) in s.nodes.iter().enumerate() {
            for b in &s.nodes[i + 1..] {
                assert!(
                    !a.rect.overlaps(&b.rect),
                    "{name}: nodes {:?} and {:?} overlap",
                    a.lines,
                    b.lines
                );
            }
            for f in &s.frames {
                assert!(
                    !a.rect.overlaps(&f.label_box),
                    "{name}: {:?} covers {}",
                    a.lines,
                    f.label
                );
            }
        }
        // Arrows: never across a group's name or a node they do not join,
        // and the name inside its frame.
        for f in &s.frames {
            assert!(
                f.rect.contains(&f.label_box),
                "{name}: {} outside its frame",
                f.label
            );
        }
        for e in &s.edges {
            for w in e.points.windows(2) {
                for f in &s.frames {
                    assert!(
                        !f.label_box.cut_by(w[0], w[1]),
                        "{name}: an arrow crosses the name {}",
                        f.label
                    );
                }
                for (k, n) in s.nodes.iter().enumerate() {
                    if k == e.ends.0 || k == e.ends.1 {
                        continue;
                    }
                    assert!(
                        !n.rect.cut_by(w[0], w[1]),
                        "{name}: an arrow crosses {:?}",
                        n.lines
                    );
                }
            }
        }
    }

    /// The size in points at which the classic theme's PDF sets a 14 px
    /// label: the drawing (with its 8 px margin) shrunk to the measure (a
    /// 140 mm page less 35 mm of margins) and to 90 % of the text's height
    /// (210 mm less 40 mm), at 0.75 pt a pixel.
    fn pdf_label_pt(s: &Scene) -> f64 {
        let mm = 72.0 / 25.4;
        let (w, h) = ((s.width + 16.0) * 0.75, (s.height + 16.0) * 0.75);
        14.0 * 0.75 * 1f64.min(105.0 * mm / w).min(170.0 * mm * 0.9 / h)
    }

    #[test]
    fn the_corpus_flowcharts_are_drawn_cleanly() {
        for (name, source) in CORPUS {
            let s = scene(source);
            assert!(s.frames.len() >= 4, "{name}: its groups are drawn");
            check(name, &s);
            let pt = pdf_label_pt(&s);
            assert!(pt >= 7.5, "{name}: labels {pt:.1} pt in the PDF");
        }
    }

    #[test]
    fn nested_groups_cycles_and_labels_are_drawn_cleanly() {
        let s = scene(SYNTHETIC);
        assert_eq!(s.frames.len(), 3);
        check("synthetic", &s);
        let inner = s.frames.iter().position(|f| f.label == "Inner").unwrap();
        let outer = s
            .frames
            .iter()
            .position(|f| f.label.starts_with("Outer"))
            .unwrap();
        assert!(s.frames[outer].rect.contains(&s.frames[inner].rect));
        assert!(s.edges.iter().filter(|e| e.label.is_some()).count() == 2);
    }

    #[test]
    fn left_to_right_is_drawn_cleanly() {
        let s = scene(&SYNTHETIC.replacen("flowchart TB", "flowchart LR", 1));
        check("synthetic LR", &s);
        assert!(s.width > s.height, "left to right is wider than tall");
    }

    #[test]
    fn frames_of_a_flat_layout_would_overlap() {
        // The reason this module exists: mermaid-svg's own drawing of the
        // lakehouse chart puts group frames over each other.
        let svg = mermaid_svg::render(CORPUS[0].1).unwrap();
        let frames: Vec<Rect> = svg
            .split("<rect ")
            .skip(1)
            .filter(|r| r.contains("fill=\"#ECECFF\"") || r.contains("rx=\"6\""))
            .filter_map(|r| {
                let num = |k: &str| -> Option<f64> {
                    let i = r.find(&format!("{k}=\""))? + k.len() + 2;
                    r[i..].split('"').next()?.parse().ok()
                };
                Some(Rect {
                    x: num("x")?,
                    y: num("y")?,
                    w: num("width")?,
                    h: num("height")?,
                })
            })
            .collect();
        let overlapping = (0..frames.len())
            .any(|i| (i + 1..frames.len()).any(|j| frames[i].overlaps(&frames[j])));
        assert!(
            overlapping,
            "mermaid-svg no longer overlaps frames: {frames:?}"
        );
    }

    #[test]
    fn what_it_does_not_know_is_left_to_mermaid_svg() {
        for source in [
            "flowchart TB\nA --> B\n",
            "flowchart BT\nsubgraph s\nA --> B\nend\n",
            "flowchart TB\nsubgraph s\nA --> B\nend\nstyle A fill:#f00\n",
            "flowchart TB\nsubgraph s\nA{{hex}} --> B\nend\n",
            "flowchart TB\nsubgraph s\nA --> A\nend\n",
        ] {
            let (diagram, _) = mermaid_svg::parse_with_meta(source).unwrap();
            let mermaid_svg::Diagram::Flowchart(chart) = diagram else {
                panic!()
            };
            assert!(plan(&chart).is_none(), "{source}");
        }
    }

    #[test]
    fn text_width_grows_with_the_text() {
        assert!(text_width("MinIO / S3", 14.0) > text_width("dbt", 14.0));
        assert_eq!(clean("a<br>b &amp; <b>c</b>"), "ab & c");
    }
}
