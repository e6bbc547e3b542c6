//! A layered (Sugiyama) layout of one container's items, in rank space:
//! ranks grow downwards (`r`), items sit side by side across (`c`).
//!
//! The flowchart drawing ([`crate::flow`]) lays out every group on its
//! own, then the group as one item of its parent, so that a group's
//! members stay together inside a frame no other frame enters. Edges that
//! leave a group go through its bottom, edges that enter it come through
//! its top: the layout gives them a lane of their own (a chain of thin
//! dummy items) from the member to the group's edge, so that no arrow
//! crosses a member on its way.

/// What to lay out.
pub(crate) struct Input {
    /// Each item's size: `(across, along the ranks)`.
    pub sizes: Vec<(f64, f64)>,
    /// Edges between items, in the author's direction.
    pub edges: Vec<(usize, usize)>,
    /// Where each edge leaves its first item and enters its second, across,
    /// from the item's centre (a group's arrows cross its frame off
    /// centre).
    pub offsets: Vec<(f64, f64)>,
    /// Items that an edge from outside enters (one entry per edge), and
    /// where across, from the item's centre.
    pub tops: Vec<(usize, f64)>,
    /// Items that an edge to outside leaves (one entry per edge), and
    /// where.
    pub bottoms: Vec<(usize, f64)>,
    /// Space between neighbours across.
    pub gap: f64,
    /// Space between ranks.
    pub rank_gap: f64,
}

/// A vertical run of an edge's path: at `c`, from `r0` down to `r1`.
pub(crate) type Run = (f64, f64, f64);

/// Where everything went; the content's top left corner is `(0, 0)`.
pub(crate) struct Output {
    /// Each item's centre, `(c, r)`.
    pub centers: Vec<(f64, f64)>,
    /// Each item's row: its top and bottom along the ranks.
    pub rows: Vec<(f64, f64)>,
    /// For each input edge, the runs of its lane between its two items,
    /// in the edge's direction.
    pub edge_runs: Vec<Vec<Run>>,
    /// For each entry of `tops`, the runs from the content's top edge to
    /// the item's row (empty when the item is in the first row).
    pub top_runs: Vec<Vec<Run>>,
    /// For each entry of `bottoms`, the runs from the item's row to the
    /// content's bottom edge.
    pub bottom_runs: Vec<Vec<Run>>,
    /// The content's size, `(across, along)`.
    pub size: (f64, f64),
}

/// The width of a lane.
const LANE: f64 = 6.0;

pub(crate) fn layout(input: &Input) -> Output {
    let n = input.sizes.len();
    // Two virtual items: the top port (rank 0) and the bottom port (last
    // rank), which edges from and to the outside reach.
    let top = n;
    let bottom = n + 1;
    let mut sizes = input.sizes.clone();
    sizes.push((0.0, 0.0));
    sizes.push((0.0, 0.0));
    let mut edges: Vec<(usize, usize)> = input.edges.clone();
    let mut offsets: Vec<(f64, f64)> = input.offsets.clone();
    offsets.resize(edges.len(), (0.0, 0.0));
    let first_port = edges.len();
    edges.extend(input.tops.iter().map(|&(v, _)| (top, v)));
    offsets.extend(input.tops.iter().map(|&(_, o)| (0.0, o)));
    edges.extend(input.bottoms.iter().map(|&(u, _)| (u, bottom)));
    offsets.extend(input.bottoms.iter().map(|&(_, o)| (o, 0.0)));

    // Ranks: cycles broken, then the longest path from the sources.
    let forward = acyclic(n + 2, &edges, top, bottom);
    let mut rank = vec![1usize; n + 2];
    rank[top] = 0;
    let order = topological(n + 2, &forward);
    for &u in &order {
        for &(a, b) in &forward {
            if a == u && b != bottom {
                rank[b] = rank[b].max(rank[a] + 1);
            }
        }
    }
    let last = (0..n).map(|i| rank[i]).max().unwrap_or(0) + 1;
    rank[bottom] = last;

    // Dummy items along every edge longer than one rank.
    let mut ranks_of: Vec<usize> = rank.clone();
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    // Each link: from, to, and where across it leaves and enters.
    let mut links: Vec<(usize, usize, f64, f64)> = Vec::new();
    for (i, &(a, b)) in forward.iter().enumerate() {
        let (oa, ob) = if forward[i] == edges[i] {
            offsets[i]
        } else {
            (offsets[i].1, offsets[i].0)
        };
        let mut chain = Vec::new();
        let mut prev = (a, oa);
        for r in rank[a] + 1..rank[b] {
            let d = sizes.len();
            sizes.push((LANE, 0.0));
            ranks_of.push(r);
            links.push((prev.0, d, prev.1, 0.0));
            chain.push(d);
            prev = (d, 0.0);
        }
        links.push((prev.0, b, prev.1, ob));
        chains.push(chain);
    }
    let total = sizes.len();
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); last + 1];
    for (v, &r) in ranks_of.iter().enumerate() {
        rows[r].push(v);
    }
    let preds = neighbours(total, &links, true);
    let succs = neighbours(total, &links, false);
    order_rows(&mut rows, &preds, &succs, n, &sizes);

    // Across: barycentres, kept in order and apart.
    let mut x = vec![0.0; total];
    for row in &rows {
        let mut at = 0.0;
        for &v in row {
            x[v] = at + sizes[v].0 / 2.0;
            at += sizes[v].0 + gap_after(v, n, input.gap);
        }
    }
    for sweep in 0..8 {
        let (range, neighbours): (Vec<usize>, _) = if sweep % 2 == 0 {
            ((1..=last).collect(), &preds)
        } else {
            ((0..last).rev().collect(), &succs)
        };
        for r in range {
            let wanted: Vec<f64> = rows[r]
                .iter()
                .map(|&v| {
                    // The ports have no place of their own: they do not pull.
                    // Where v's arrows would go straight: each arrow's end
                    // over the other end, less where it meets v.
                    let ns: Vec<f64> = neighbours[v]
                        .iter()
                        .filter(|&&(u, _, _)| u != top && u != bottom)
                        .map(|&(u, ou, ov)| x[u] + ou - ov)
                        .collect();
                    if ns.is_empty() {
                        x[v]
                    } else {
                        ns.iter().sum::<f64>() / ns.len() as f64
                    }
                })
                .collect();
            place(&rows[r], &wanted, &sizes, n, input.gap, &mut x);
        }
    }
    let left = (0..total)
        .filter(|&v| v < n || v >= n + 2)
        .map(|v| x[v] - sizes[v].0 / 2.0)
        .fold(f64::INFINITY, f64::min);
    let left = if left.is_finite() { left } else { 0.0 };
    for v in &mut x {
        *v -= left;
    }
    let width = (0..total)
        .filter(|&v| v < n || v >= n + 2)
        .map(|v| x[v] + sizes[v].0 / 2.0)
        .fold(0.0, f64::max);

    // Along: each real rank as tall as its tallest item.
    let mut row_span = vec![(0.0, 0.0); last + 1];
    let mut y = 0.0;
    for r in 1..last {
        let h = rows[r].iter().map(|&v| sizes[v].1).fold(0.0, f64::max);
        row_span[r] = (y, y + h);
        y += h + input.rank_gap;
    }
    let height = (y - input.rank_gap).max(0.0);
    row_span[0] = (0.0, 0.0);
    row_span[last] = (height, height);

    let runs_of = |chain: &[usize]| -> Vec<Run> {
        chain
            .iter()
            .map(|&d| {
                let (r0, r1) = row_span[ranks_of[d]];
                (x[d], r0, r1)
            })
            .collect()
    };
    let mut edge_runs = Vec::new();
    let mut top_runs = Vec::new();
    let mut bottom_runs = Vec::new();
    for (i, &(a, b)) in edges.iter().enumerate() {
        let mut runs = runs_of(&chains[i]);
        if forward[i] != (a, b) {
            runs.reverse();
            runs = runs.into_iter().map(|(c, r0, r1)| (c, r1, r0)).collect();
        }
        if i < first_port {
            edge_runs.push(runs);
        } else if i < first_port + input.tops.len() {
            top_runs.push(runs);
        } else {
            bottom_runs.push(runs);
        }
    }
    Output {
        centers: (0..n)
            .map(|v| {
                let (r0, r1) = row_span[rank[v]];
                (x[v], (r0 + r1) / 2.0)
            })
            .collect(),
        rows: (0..n).map(|v| row_span[rank[v]]).collect(),
        edge_runs,
        top_runs,
        bottom_runs,
        size: (width, height),
    }
}

/// The space after item `v` in its row: lanes sit closer than items.
fn gap_after(v: usize, n: usize, gap: f64) -> f64 {
    if v < n { gap } else { gap / 3.0 }
}

/// The edges with every edge that closes a cycle turned round, so that
/// ranks can be given; ports keep their direction.
fn acyclic(
    count: usize,
    edges: &[(usize, usize)],
    top: usize,
    bottom: usize,
) -> Vec<(usize, usize)> {
    let out = adjacency(count, edges, false);
    let mut state = vec![0u8; count];
    let mut back = std::collections::BTreeSet::new();
    let mut starts: Vec<usize> = vec![top];
    starts.extend(0..count);
    for s in starts {
        if state[s] != 0 {
            continue;
        }
        let mut stack = vec![(s, 0usize)];
        state[s] = 1;
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if *i < out[u].len() {
                let v = out[u][*i];
                *i += 1;
                match state[v] {
                    0 => {
                        state[v] = 1;
                        stack.push((v, 0));
                    }
                    1 => {
                        back.insert((u, v));
                    }
                    _ => {}
                }
            } else {
                state[u] = 2;
                stack.pop();
            }
        }
    }
    edges
        .iter()
        .map(|&(a, b)| {
            if a == top || b == bottom || !back.contains(&(a, b)) {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect()
}

/// For each item, its neighbours through `links` (before it with
/// `incoming`, after it otherwise): the neighbour, where across the link
/// meets the neighbour and where it meets the item.
type Neighbours = Vec<Vec<(usize, f64, f64)>>;

fn neighbours(count: usize, links: &[(usize, usize, f64, f64)], incoming: bool) -> Neighbours {
    let mut adj = vec![Vec::new(); count];
    for &(a, b, oa, ob) in links {
        if incoming {
            adj[b].push((a, oa, ob));
        } else {
            adj[a].push((b, ob, oa));
        }
    }
    adj
}

fn adjacency(count: usize, edges: &[(usize, usize)], incoming: bool) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); count];
    for &(a, b) in edges {
        if a == b {
            continue;
        }
        if incoming {
            adj[b].push(a);
        } else {
            adj[a].push(b);
        }
    }
    adj
}

/// A topological order of an acyclic graph (Kahn, smallest index first,
/// so that the result does not depend on anything but the input).
fn topological(count: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut indegree = vec![0usize; count];
    for &(a, b) in edges {
        if a != b {
            indegree[b] += 1;
        }
    }
    let out = adjacency(count, edges, false);
    let mut ready: std::collections::BTreeSet<usize> =
        (0..count).filter(|&v| indegree[v] == 0).collect();
    let mut order = Vec::with_capacity(count);
    while let Some(u) = ready.pop_first() {
        order.push(u);
        for &v in &out[u] {
            indegree[v] -= 1;
            if indegree[v] == 0 {
                ready.insert(v);
            }
        }
    }
    order
}

/// Orders each row by the barycentre of its neighbours, sweeping down and
/// up, and keeps the order with the fewest crossings.
fn order_rows(
    rows: &mut [Vec<usize>],
    preds: &Neighbours,
    succs: &Neighbours,
    n: usize,
    sizes: &[(f64, f64)],
) {
    let port = |v: usize| v == n || v == n + 1;
    let mut best = rows.to_vec();
    let mut best_crossings = crossings(rows, succs);
    for sweep in 0..12 {
        let down = sweep % 2 == 0;
        let range: Vec<usize> = if down {
            (1..rows.len()).collect()
        } else {
            (0..rows.len().saturating_sub(1)).rev().collect()
        };
        for r in range {
            let (fixed, neighbours) = if down { (r - 1, preds) } else { (r + 1, succs) };
            let position: std::collections::HashMap<usize, usize> = rows[fixed]
                .iter()
                .enumerate()
                .map(|(i, &v)| (v, i))
                .collect();
            let mut keyed: Vec<(f64, usize, usize)> = rows[r]
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    // A neighbour's place, moved by where on it the
                    // link lands (a fraction of its width).
                    let ps: Vec<f64> = neighbours[v]
                        .iter()
                        .filter(|&&(u, _, _)| !port(u))
                        .filter_map(|&(u, ou, _)| {
                            let w = sizes[u].0.max(1.0);
                            position
                                .get(&u)
                                .map(|&p| p as f64 + (ou / w).clamp(-0.45, 0.45))
                        })
                        .collect();
                    let key = if ps.is_empty() {
                        i as f64
                    } else {
                        ps.iter().sum::<f64>() / ps.len() as f64
                    };
                    (key, i, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            rows[r] = lanes_in_the_middle(&keyed, n);
        }
        let c = crossings(rows, succs);
        if c <= best_crossings {
            best_crossings = c;
            best = rows.to_vec();
        }
    }
    rows.clone_from_slice(&best);
}

/// The row in key order, where items that want the same place have their
/// lanes (dummies) in the middle: a lane that goes straight on between its
/// neighbours is better than one bent round them.
fn lanes_in_the_middle(keyed: &[(f64, usize, usize)], n: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(keyed.len());
    let mut i = 0;
    while i < keyed.len() {
        let mut j = i + 1;
        while j < keyed.len() && (keyed[j].0 - keyed[i].0).abs() < 1e-9 {
            j += 1;
        }
        let group = &keyed[i..j];
        let real: Vec<usize> = group.iter().map(|k| k.2).filter(|&v| v < n).collect();
        let lanes: Vec<usize> = group.iter().map(|k| k.2).filter(|&v| v >= n).collect();
        let half = real.len() / 2;
        out.extend(&real[..half]);
        out.extend(&lanes);
        out.extend(&real[half..]);
        i = j;
    }
    out
}

fn crossings(rows: &[Vec<usize>], succs: &Neighbours) -> usize {
    let mut count = 0;
    for r in 0..rows.len().saturating_sub(1) {
        let below: std::collections::HashMap<usize, usize> = rows[r + 1]
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i))
            .collect();
        let mut pairs = Vec::new();
        for (i, &u) in rows[r].iter().enumerate() {
            for (v, _, _) in &succs[u] {
                if let Some(&j) = below.get(v) {
                    pairs.push((i, j));
                }
            }
        }
        for a in 0..pairs.len() {
            for b in a + 1..pairs.len() {
                let (p, q) = (pairs[a], pairs[b]);
                if (p.0 < q.0 && p.1 > q.1) || (p.0 > q.0 && p.1 < q.1) {
                    count += 1;
                }
            }
        }
    }
    count
}

/// Puts the items of `row` (in this order, apart) as near as they can be
/// to `wanted`, in the least-squares sense: pool-adjacent-violators on the
/// positions less their minimal offsets.
fn place(row: &[usize], wanted: &[f64], sizes: &[(f64, f64)], n: usize, gap: f64, x: &mut [f64]) {
    if row.is_empty() {
        return;
    }
    let mut offset = vec![0.0; row.len()];
    for i in 1..row.len() {
        let (a, b) = (row[i - 1], row[i]);
        offset[i] = offset[i - 1]
            + sizes[a].0 / 2.0
            + sizes[b].0 / 2.0
            + gap_after(a, n, gap).max(gap_after(b, n, gap));
    }
    // Blocks of (sum, count), merged while they are out of order.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for i in 0..row.len() {
        blocks.push((wanted[i] - offset[i], 1));
        while blocks.len() > 1 {
            let (s1, c1) = blocks[blocks.len() - 1];
            let (s0, c0) = blocks[blocks.len() - 2];
            if s0 / c0 as f64 > s1 / c1 as f64 {
                blocks.pop();
                let last = blocks.len() - 1;
                blocks[last] = (s0 + s1, c0 + c1);
            } else {
                break;
            }
        }
    }
    let mut i = 0;
    for (s, c) in blocks {
        let mean = s / c as f64;
        for _ in 0..c {
            x[row[i]] = mean + offset[i];
            i += 1;
        }
    }
}
