//! The DOM to a small Markdown tree ([`Block`], [`Inline`]): what each
//! element means, decided once; [`crate::render`] writes it out.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::dom::{Data, Dom, Id};
use crate::{ImageResolver, ImageSource};

/// How deep the converter follows the DOM. Below it an element's text is
/// kept as plain text and the cut is reported: Markdown (and stoa, at 256)
/// limits nesting, and the converter must not recurse without bound.
pub(crate) const MAX_DEPTH: usize = 96;

/// A block of the Markdown tree.
#[derive(Debug, Clone)]
pub(crate) enum Block {
    Para(Vec<Inline>),
    Heading(u8, Vec<Inline>),
    Code {
        lang: String,
        text: String,
    },
    Quote(Vec<Block>),
    List {
        ordered: bool,
        start: u64,
        items: Vec<Vec<Block>>,
    },
    Table {
        head: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
}

/// An inline of the Markdown tree.
#[derive(Debug, Clone)]
pub(crate) enum Inline {
    Text(String),
    Em(Vec<Inline>),
    Strong(Vec<Inline>),
    Strike(Vec<Inline>),
    /// A phrase element Markdown has no syntax for (`sup`, `sub`, `mark`),
    /// written as that element, which stoa reads.
    Phrase(&'static str, Vec<Inline>),
    Code(String),
    Link {
        href: String,
        title: String,
        content: Vec<Inline>,
    },
    Image {
        src: String,
        alt: String,
        title: String,
    },
    Break,
    NoteRef(usize),
}

/// A footnote found in the page: its label once referenced.
struct Note {
    /// The element whose children are the note's text.
    body: Id,
    label: Option<usize>,
}

pub(crate) struct Converter<'a> {
    dom: &'a Dom,
    images: &'a mut dyn ImageResolver,
    link_base: Option<&'a str>,
    pub warnings: Vec<String>,
    /// Unknown elements, reported once each.
    unknown: BTreeSet<String>,
    /// Footnotes by the id their references link to.
    notes: HashMap<String, Note>,
    /// Footnote containers, left out of the text (shown as definitions).
    note_containers: HashSet<Id>,
    /// Labels in the order of their first reference: the note's id.
    note_order: Vec<String>,
    /// Whether the depth cut was reported.
    cut_reported: bool,
    /// Inside a footnote's text: links to `#…` are its back-references.
    in_note: bool,
    /// Inside a link: a link in it keeps its words only.
    in_link: bool,
    in_em: bool,
    in_strong: bool,
    in_strike: bool,
    /// The caption of the figure being converted, the alt text of an image
    /// in it that has none.
    caption: Option<String>,
}

fn is_block_tag(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "center"
            | "dd"
            | "details"
            | "dialog"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "iframe"
            | "li"
            | "main"
            | "menu"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "ul"
            | "video"
            | "audio"
    )
}

/// Elements dropped with everything in them, and not reported: page
/// furniture that is no part of a post.
fn is_dropped_tag(tag: &str) -> bool {
    matches!(
        tag,
        "style"
            | "noscript"
            | "form"
            | "button"
            | "input"
            | "select"
            | "textarea"
            | "option"
            | "nav"
            | "template"
            | "svg"
            | "canvas"
            | "map"
            | "area"
            | "link"
            | "meta"
            | "head"
            | "title"
            | "base"
            | "source"
            | "track"
            | "param"
            | "wbr"
            | "col"
            | "colgroup"
            | "frame"
            | "frameset"
    )
}

/// Inline elements whose text is kept as it is, without a warning: what
/// Markdown has no mark for but a reader loses nothing without.
fn is_plain_inline(tag: &str) -> bool {
    matches!(
        tag,
        "span"
            | "font"
            | "small"
            | "big"
            | "abbr"
            | "acronym"
            | "cite"
            | "dfn"
            | "time"
            | "mark"
            | "u"
            | "ins"
            | "bdi"
            | "bdo"
            | "data"
            | "sub"
            | "sup"
            | "nobr"
            | "label"
            | "output"
            | "ruby"
            | "rb"
            | "rp"
            | "rt"
            | "picture"
            | "legend"
            | "caption"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            | "a"
            | "img"
            | "br"
            | "code"
            | "kbd"
            | "samp"
            | "var"
            | "tt"
            | "b"
            | "strong"
            | "i"
            | "em"
            | "s"
            | "del"
            | "strike"
            | "q"
    )
}

/// Class names of page furniture (subscribe boxes, share buttons, buttons,
/// related posts, ads): the element and everything in it are dropped.
fn is_furniture(dom: &Dom, id: Id) -> bool {
    const WORDS: &[&str] = &[
        "subscribe",
        "subscription",
        "newsletter",
        "share",
        "sharing",
        "social",
        "button",
        "btn",
        "kg-signup-card",
        "kg-cta-card",
        "paywall",
        "advert",
        "adsbygoogle",
        "ad-container",
        "relatedposts",
        "related-posts",
        "post-ufi",
        "like-",
        "comments",
    ];
    if dom
        .attr(id, "data-component-name")
        .is_some_and(|c| c.contains("Button") || c.contains("Subscribe"))
    {
        return true;
    }
    dom.classes(id).any(|c| {
        let c = c.to_ascii_lowercase();
        WORDS.iter().any(|w| c.contains(w))
    })
}

/// An address that serves ads.
fn is_ad_address(src: &str) -> bool {
    const HOSTS: &[&str] = &[
        "doubleclick",
        "googlesyndication",
        "googleadservices",
        "adservice",
        "amazon-adsystem",
        "adnxs",
        "taboola",
        "outbrain",
        "/ads/",
        "/ad/",
        "adserver",
    ];
    let s = src.to_ascii_lowercase();
    HOSTS.iter().any(|h| s.contains(h))
}

/// The language of a code block from its element's attributes.
fn code_language(dom: &Dom, id: Id) -> Option<String> {
    for key in ["data-lang", "data-language", "lang"] {
        if let Some(l) = dom.attr(id, key).map(str::trim).filter(|l| !l.is_empty()) {
            // `lang` is also the human language (`lang="en"`) on `<code>`:
            // only a `<pre>`'s or a `<code>`'s data attributes name code.
            if key != "lang" || dom.tag(id) == "code" && dom.has_class(id, "wp-block-code") {
                return Some(l.to_string());
            }
        }
    }
    let class = dom.attr(id, "class")?;
    // SyntaxHighlighter (old WordPress plugins): `class="brush: php; …"`.
    if let Some(rest) = class.split("brush:").nth(1) {
        let lang = rest.split(';').next().unwrap_or("").trim();
        if !lang.is_empty() {
            return Some(lang.to_string());
        }
    }
    for token in class.split_ascii_whitespace() {
        for prefix in ["language-", "lang-", "highlight-source-", "highlight-"] {
            if let Some(lang) = token.strip_prefix(prefix)
                && !lang.is_empty()
            {
                return Some(lang.to_string());
            }
        }
    }
    None
}

/// A language name as a fence can carry it.
fn clean_language(lang: &str) -> String {
    let lang: String = lang
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '#' | '-' | '_' | '.'))
        .collect();
    match lang.as_str() {
        "none" | "nohighlight" | "plain" | "plaintext" | "no-highlight" => String::new(),
        _ => lang,
    }
}

impl<'a> Converter<'a> {
    pub fn new(
        dom: &'a Dom,
        images: &'a mut dyn ImageResolver,
        link_base: Option<&'a str>,
    ) -> Self {
        Converter {
            dom,
            images,
            link_base,
            warnings: Vec::new(),
            unknown: BTreeSet::new(),
            notes: HashMap::new(),
            note_containers: HashSet::new(),
            note_order: Vec::new(),
            cut_reported: false,
            in_note: false,
            in_link: false,
            in_em: false,
            in_strong: false,
            in_strike: false,
            caption: None,
        }
    }

    /// The whole fragment: its blocks, then its footnotes' definitions.
    pub fn run(&mut self) -> (Vec<Block>, Vec<(usize, Vec<Block>)>) {
        let root = self.dom.root();
        self.find_notes(root);
        let blocks = self.blocks(root, 0);
        // Notes in the order of their labels; a note's text may refer to
        // another note, which then gets the next label.
        let mut defs = Vec::new();
        let mut i = 0;
        while i < self.note_order.len() {
            let id = self.note_order[i].clone();
            let body = self.notes[&id].body;
            self.in_note = true;
            let text = self.blocks(body, 1);
            self.in_note = false;
            defs.push((i + 1, text));
            i += 1;
        }
        for tag in std::mem::take(&mut self.unknown) {
            self.warnings.push(format!(
                "<{tag}> is not something Markdown has: its text is kept, its markup dropped"
            ));
        }
        (blocks, defs)
    }

    /// Finds the footnotes: WordPress's footnotes block, the markdown-it and
    /// kramdown/pandoc lists Ghost's Markdown cards and feeds carry, and
    /// Substack's `div.footnote`s.
    fn find_notes(&mut self, root: Id) {
        let dom = self.dom;
        for n in dom.descendants(root) {
            if !matches!(dom.nodes[n].data, Data::Element { .. }) {
                continue;
            }
            let tag = dom.tag(n);
            let list_container = (tag == "ol"
                && (dom.has_class(n, "wp-block-footnotes") || dom.has_class(n, "footnotes-list")))
                || (matches!(tag, "section" | "div")
                    && (dom.has_class(n, "footnotes")
                        || dom.attr(n, "role") == Some("doc-endnotes")));
            if list_container {
                if self
                    .note_containers
                    .iter()
                    .any(|&c| dom.descendants(c).contains(&n))
                {
                    continue;
                }
                self.note_containers.insert(n);
                for li in dom.descendants(n) {
                    if dom.tag(li) == "li"
                        && let Some(id) = dom.attr(li, "id")
                    {
                        self.notes.entry(id.to_string()).or_insert(Note {
                            body: li,
                            label: None,
                        });
                    }
                }
            } else if tag == "div"
                && dom.has_class(n, "footnote-definition")
                && let Some(id) = dom.attr(n, "id")
            {
                // pulldown-cmark's (and so a Markdown card's) notes.
                self.note_containers.insert(n);
                self.notes.entry(id.to_string()).or_insert(Note {
                    body: n,
                    label: None,
                });
            } else if tag == "div" && dom.has_class(n, "footnote") {
                // Substack: <div class="footnote"><a id="footnote-1"
                // class="footnote-number" href="#footnote-anchor-1">1</a>
                // <div class="footnote-content">…</div></div>
                let anchor = dom.find(n, |d, c| d.tag(c) == "a" && d.attr(c, "id").is_some());
                let content = dom.find(n, |d, c| d.has_class(c, "footnote-content"));
                if let (Some(a), Some(body)) = (anchor, content) {
                    let id = dom.attr(a, "id").unwrap_or_default().to_string();
                    self.note_containers.insert(n);
                    self.notes.entry(id).or_insert(Note { body, label: None });
                }
            }
        }
        if self.notes.is_empty() {
            self.note_containers.clear();
        }
    }

    /// The label of the note a link to `href` refers to, if it is one.
    fn note_label(&mut self, href: &str) -> Option<usize> {
        let id = href.strip_prefix('#')?;
        let note = self.notes.get_mut(id)?;
        Some(match note.label {
            Some(l) => l,
            None => {
                self.note_order.push(id.to_string());
                let l = self.note_order.len();
                note.label = Some(l);
                l
            }
        })
    }

    fn cut(&mut self, id: Id) -> String {
        if !self.cut_reported {
            self.cut_reported = true;
            self.warnings.push(format!(
                "the HTML is nested more than {MAX_DEPTH} elements deep: below that, its text is kept as plain text"
            ));
        }
        self.dom.text(id)
    }

    fn unknown(&mut self, tag: &str) {
        if self.unknown.len() < 64 {
            self.unknown.insert(tag.to_string());
        }
    }

    /// Whether an element holds a block-level element (then it is a
    /// container, whatever its own tag).
    fn holds_blocks(&self, id: Id) -> bool {
        let dom = self.dom;
        let mut stack: Vec<Id> = dom.children(id).to_vec();
        let mut seen = 0;
        while let Some(n) = stack.pop() {
            seen += 1;
            if seen > 10_000 {
                return false;
            }
            let tag = dom.tag(n);
            if is_block_tag(tag) || (tag == "script" && self.gist(n).is_some()) {
                return true;
            }
            if is_plain_inline(tag) && !matches!(tag, "a" | "code") {
                stack.extend(dom.children(n));
            }
        }
        false
    }

    /// The children of `parent` as blocks.
    pub fn blocks(&mut self, parent: Id, depth: usize) -> Vec<Block> {
        let mut out = Vec::new();
        let mut run = Vec::new();
        let children = self.dom.children(parent).to_vec();
        for child in children {
            self.block_node(child, &mut out, &mut run, depth + 1);
        }
        flush(&mut run, &mut out);
        out
    }

    fn block_node(&mut self, n: Id, out: &mut Vec<Block>, run: &mut Vec<Inline>, depth: usize) {
        let dom = self.dom;
        match &dom.nodes[n].data {
            Data::Text(t) => {
                run.push(Inline::Text(t.clone()));
                return;
            }
            Data::Element { .. } => {}
            _ => return,
        }
        if depth > MAX_DEPTH {
            let text = self.cut(n);
            run.push(Inline::Text(text));
            return;
        }
        if self.note_containers.contains(&n) {
            return;
        }
        let tag = dom.tag(n).to_string();
        if is_dropped_tag(&tag) || is_furniture(dom, n) {
            return;
        }
        if let Some(embed) = self.embed(n, depth) {
            flush(run, out);
            out.push(embed);
            return;
        }
        match tag.as_str() {
            "p" | "summary" | "dt" | "figcaption" | "legend" => {
                flush(run, out);
                let content;
                if matches!(tag.as_str(), "summary" | "dt") {
                    content = vec![Inline::Strong(self.inlines(n, depth))];
                } else if tag == "figcaption" {
                    content = vec![Inline::Em(self.emphasized(n, depth))];
                } else {
                    content = self.inlines(n, depth);
                }
                run.extend(content);
                flush(run, out);
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                flush(run, out);
                let level = tag.as_bytes()[1] - b'0';
                let content = self.inlines(n, depth);
                out.push(Block::Heading(level, content));
            }
            "hr" => {
                flush(run, out);
                if !dom.has_class(n, "footnotes-sep") {
                    out.push(Block::Rule);
                }
            }
            "pre" => {
                flush(run, out);
                out.push(self.code_block(n));
            }
            "blockquote" => {
                flush(run, out);
                let inner = self.blocks(n, depth);
                if !inner.is_empty() {
                    out.push(Block::Quote(inner));
                }
            }
            "ul" | "ol" | "menu" => {
                flush(run, out);
                out.push(self.list(n, depth));
            }
            "li" => {
                // A list item outside a list: a list of one.
                flush(run, out);
                let item = self.blocks(n, depth);
                out.push(Block::List {
                    ordered: false,
                    start: 1,
                    items: vec![item],
                });
            }
            "table" => {
                flush(run, out);
                self.table(n, depth, out);
            }
            "figure" => {
                flush(run, out);
                self.figure(n, depth, out);
            }
            "br" => run.push(Inline::Break),
            "script" => {}
            "iframe" | "video" | "audio" | "embed" | "object" => {
                // Not an embed stoa knows (an ad was dropped above): its
                // address, if it has one, as a link.
                flush(run, out);
                let kind = match tag.as_str() {
                    "video" => "Video",
                    "audio" => "Audio",
                    _ => "Embedded content",
                };
                match self.media_src(n) {
                    Some(src) if is_web(&src) => out.push(embed_block(
                        kind,
                        dom.attr(n, "title").unwrap_or(""),
                        &src,
                        Vec::new(),
                    )),
                    Some(src) if !src.is_empty() => self.warnings.push(format!(
                        "a <{tag}> (`{}`) cannot be part of a book: left out",
                        shorten(&src)
                    )),
                    _ => {}
                }
            }
            _ if is_block_tag(&tag) || self.holds_blocks(n) => {
                if !is_block_tag(&tag) && !is_plain_inline(&tag) {
                    self.unknown(&tag);
                }
                flush(run, out);
                let inner = self.blocks(n, depth);
                out.extend(inner);
            }
            _ => {
                let inl = self.inline_node(n, depth);
                run.extend(inl);
            }
        }
    }

    /// The children of `parent` as inlines (a block inside is set inline,
    /// between spaces).
    fn inlines(&mut self, parent: Id, depth: usize) -> Vec<Inline> {
        let mut out = Vec::new();
        for child in self.dom.children(parent).to_vec() {
            out.extend(self.inline_node(child, depth + 1));
        }
        out
    }

    /// The children of `parent` as inlines, set in emphasis (a caption):
    /// emphasis inside is not doubled.
    fn emphasized(&mut self, parent: Id, depth: usize) -> Vec<Inline> {
        let before = self.in_em;
        self.in_em = true;
        let out = self.inlines(parent, depth);
        self.in_em = before;
        out
    }

    fn inline_node(&mut self, n: Id, depth: usize) -> Vec<Inline> {
        let dom = self.dom;
        match &dom.nodes[n].data {
            Data::Text(t) => return vec![Inline::Text(t.clone())],
            Data::Element { .. } => {}
            _ => return Vec::new(),
        }
        if depth > MAX_DEPTH {
            return vec![Inline::Text(self.cut(n))];
        }
        if self.note_containers.contains(&n) {
            return Vec::new();
        }
        let tag = dom.tag(n).to_string();
        if is_dropped_tag(&tag)
            || tag == "script"
            || is_furniture(dom, n)
            || (self.in_note && dom.has_class(n, "footnote-definition-label"))
        {
            return Vec::new();
        }
        match tag.as_str() {
            "br" => vec![Inline::Break],
            "em" | "i" | "dfn" => {
                if self.in_em {
                    return self.inlines(n, depth);
                }
                self.in_em = true;
                let inner = self.inlines(n, depth);
                self.in_em = false;
                vec![Inline::Em(inner)]
            }
            "strong" | "b" => {
                if self.in_strong {
                    return self.inlines(n, depth);
                }
                self.in_strong = true;
                let inner = self.inlines(n, depth);
                self.in_strong = false;
                vec![Inline::Strong(inner)]
            }
            "s" | "del" | "strike" => {
                if self.in_strike {
                    return self.inlines(n, depth);
                }
                self.in_strike = true;
                let inner = self.inlines(n, depth);
                self.in_strike = false;
                vec![Inline::Strike(inner)]
            }
            "sup" | "sub" | "mark" => {
                let inner = self.inlines(n, depth);
                // A note's number in `<sup>` is the note's reference.
                if inner.iter().all(|i| matches!(i, Inline::NoteRef(_))) || !has_visible(&inner) {
                    return inner;
                }
                let name = match tag.as_str() {
                    "sup" => "sup",
                    "sub" => "sub",
                    _ => "mark",
                };
                vec![Inline::Phrase(name, inner)]
            }
            "code" | "kbd" | "samp" | "var" | "tt" => vec![Inline::Code(dom.text(n))],
            "q" => {
                let mut v = vec![Inline::Text("“".into())];
                v.extend(self.inlines(n, depth));
                v.push(Inline::Text("”".into()));
                v
            }
            "a" => self.link(n, depth),
            "img" => self.image(n),
            "iframe" | "video" | "audio" | "embed" | "object" => {
                let src = self.media_src(n).filter(|s| is_web(s) && !is_ad_address(s));
                match src {
                    Some(src) => vec![Inline::Link {
                        content: vec![Inline::Text(src.clone())],
                        href: src,
                        title: String::new(),
                    }],
                    None => Vec::new(),
                }
            }
            "td" | "th" | "li" | "dd" | "dt" | "p" | "div" | "h1" | "h2" | "h3" | "h4" | "h5"
            | "h6" | "blockquote" | "figcaption" | "section" | "article" | "header" | "footer"
            | "tr" => {
                let mut v = vec![Inline::Text(" ".into())];
                v.extend(self.inlines(n, depth));
                v.push(Inline::Text(" ".into()));
                v
            }
            "pre" => vec![Inline::Code(dom.text(n))],
            "hr" => vec![Inline::Text(" ".into())],
            _ => {
                if !is_plain_inline(&tag) && !is_block_tag(&tag) {
                    self.unknown(&tag);
                }
                self.inlines(n, depth)
            }
        }
    }

    fn link(&mut self, n: Id, depth: usize) -> Vec<Inline> {
        let dom = self.dom;
        let href = dom.attr(n, "href").unwrap_or("").trim().to_string();
        if href.starts_with('#') {
            if self.in_note {
                // A note's way back to its reference.
                return Vec::new();
            }
            if let Some(label) = self.note_label(&href) {
                return vec![Inline::NoteRef(label)];
            }
        }
        if self.in_link || href.is_empty() || href.starts_with('#') {
            // An anchor, a link to a place in the page the book does not
            // have, or a link in a link: its words.
            return self.inlines(n, depth);
        }
        let lower = href.to_ascii_lowercase();
        let scheme_ok = !lower.contains(':')
            || ["http:", "https:", "mailto:", "ftp:"]
                .iter()
                .any(|s| lower.starts_with(s))
            || matches!((lower.find(':'), lower.find(['/', '?', '#'])), (Some(c), Some(s)) if s < c);
        if !scheme_ok {
            self.warnings.push(format!(
                "a link to `{}` is not a web address: its words are kept without it",
                shorten(&href)
            ));
            return self.inlines(n, depth);
        }
        let href = self.absolute(&href);
        self.in_link = true;
        let content = self.inlines(n, depth);
        self.in_link = false;
        // A link around an image to the image itself (WordPress's "link
        // to media file"): the image alone.
        if content.len() == 1
            && let Inline::Image { .. } = &content[0]
            && looks_like_image(&href)
        {
            return content;
        }
        if !has_visible(&content) {
            return content;
        }
        vec![Inline::Link {
            href,
            title: dom.attr(n, "title").unwrap_or("").to_string(),
            content,
        }]
    }

    /// A relative address made absolute against the site's address.
    fn absolute(&self, href: &str) -> String {
        if let Some(rest) = href.strip_prefix("//") {
            return format!("https://{rest}");
        }
        match self.link_base {
            Some(base) if href.starts_with('/') => {
                // The origin: scheme and host of the base.
                let origin_end = base
                    .find("://")
                    .map(|i| base[i + 3..].find('/').map_or(base.len(), |j| i + 3 + j))
                    .unwrap_or(base.len());
                format!("{}{}", &base[..origin_end], href)
            }
            _ => href.to_string(),
        }
    }

    fn image_src(&self, n: Id) -> String {
        let dom = self.dom;
        let mut src = dom.attr(n, "src").unwrap_or("").trim().to_string();
        for key in ["data-orig-file", "data-lazy-src", "data-src"] {
            if let Some(s) = dom.attr(n, key).map(str::trim).filter(|s| !s.is_empty())
                && (src.is_empty() || src.starts_with("data:") || key != "data-orig-file")
            {
                src = s.to_string();
                break;
            }
        }
        if (src.is_empty() || src.starts_with("data:"))
            && let Some(set) = dom.attr(n, "srcset").or_else(|| dom.attr(n, "data-srcset"))
            && let Some(first) = set
                .split(',')
                .next()
                .and_then(|c| c.split_whitespace().next())
        {
            src = first.to_string();
        }
        src
    }

    fn image(&mut self, n: Id) -> Vec<Inline> {
        let dom = self.dom;
        let src = self.image_src(n);
        let mut alt = crate::space::fold_space(dom.attr(n, "alt").unwrap_or(""));
        if alt.trim().is_empty()
            && let Some(c) = &self.caption
        {
            alt = c.clone();
        }
        let title = dom.attr(n, "title").unwrap_or("").to_string();
        if src.is_empty() {
            return Vec::new();
        }
        let src_abs = self.absolute(&src);
        match self.images.resolve(&src_abs) {
            ImageSource::Local(path) => vec![Inline::Image {
                src: path,
                alt,
                title,
            }],
            ImageSource::Unavailable(reason) => {
                self.warnings.push(format!(
                    "image `{}`: {reason}; {}",
                    shorten(&src_abs),
                    if is_web(&src_abs) {
                        "a link to it stands in its place"
                    } else {
                        "its alt text stands in its place"
                    }
                ));
                let label = if alt.trim().is_empty() {
                    "Image".to_string()
                } else {
                    format!("Image: {}", alt.trim())
                };
                if is_web(&src_abs) {
                    vec![Inline::Link {
                        href: src_abs,
                        title: String::new(),
                        content: vec![Inline::Text(label)],
                    }]
                } else {
                    vec![Inline::Text(format!("[{label}]"))]
                }
            }
        }
    }

    fn media_src(&self, n: Id) -> Option<String> {
        let dom = self.dom;
        let src = dom
            .attr(n, "src")
            .or_else(|| dom.attr(n, "data-src"))
            // An <object>'s address.
            .or_else(|| dom.attr(n, "data"))
            .map(str::to_string)
            .or_else(|| {
                dom.find(n, |d, c| d.tag(c) == "source")
                    .and_then(|s| dom.attr(s, "src").map(str::to_string))
            })?;
        Some(self.absolute(src.trim()))
    }

    fn code_block(&mut self, n: Id) -> Block {
        let dom = self.dom;
        let code = dom
            .children(n)
            .iter()
            .copied()
            .find(|&c| dom.tag(c) == "code");
        let lang = code
            .and_then(|c| code_language(dom, c))
            .or_else(|| code_language(dom, n))
            .map(|l| clean_language(&l))
            .unwrap_or_default();
        let mut text = dom.text(n).replace("\r\n", "\n").replace('\r', "\n");
        while text.ends_with('\n') {
            text.pop();
        }
        Block::Code { lang, text }
    }

    fn list(&mut self, n: Id, depth: usize) -> Block {
        let dom = self.dom;
        let ordered = dom.tag(n) == "ol";
        let start = dom
            .attr(n, "start")
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(1)
            .min(999_999_999);
        let mut items = Vec::new();
        let mut stray = Vec::new();
        for c in dom.children(n).to_vec() {
            if dom.tag(c) == "li" {
                if !stray.is_empty() {
                    let mut blocks = Vec::new();
                    flush(&mut stray, &mut blocks);
                    if !blocks.is_empty() {
                        items.push(blocks);
                    }
                }
                items.push(self.blocks(c, depth));
            } else if matches!(dom.tag(c), "ul" | "ol") {
                // A list right in a list (old editors): it belongs to the
                // item before it.
                let inner = self.list(c, depth + 1);
                match items.last_mut() {
                    Some(last) => last.push(inner),
                    None => items.push(vec![inner]),
                }
            } else {
                let mut blocks = Vec::new();
                self.block_node(c, &mut blocks, &mut stray, depth + 1);
                if !blocks.is_empty() {
                    items.push(blocks);
                }
            }
        }
        let mut blocks = Vec::new();
        flush(&mut stray, &mut blocks);
        if !blocks.is_empty() {
            items.push(blocks);
        }
        Block::List {
            ordered,
            start,
            items,
        }
    }

    fn table(&mut self, n: Id, depth: usize, out: &mut Vec<Block>) {
        let dom = self.dom;
        let mut rows: Vec<(bool, Vec<Vec<Inline>>)> = Vec::new();
        let mut caption = None;
        let mut stack: Vec<Id> = dom.children(n).iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            match dom.tag(c) {
                "thead" | "tbody" | "tfoot" => stack.extend(dom.children(c).iter().rev()),
                "caption" => caption = Some(self.emphasized(c, depth)),
                "tr" => {
                    let in_head = dom.nodes[c].parent.is_some_and(|p| dom.tag(p) == "thead");
                    let mut cells = Vec::new();
                    let mut all_th = true;
                    for cell in dom.children(c).to_vec() {
                        let t = dom.tag(cell);
                        if t != "td" && t != "th" {
                            continue;
                        }
                        all_th &= t == "th";
                        let content = self.inlines(cell, depth + 1);
                        let span = dom
                            .attr(cell, "colspan")
                            .and_then(|s| s.trim().parse::<usize>().ok())
                            .unwrap_or(1)
                            .clamp(1, 64);
                        cells.push(content);
                        for _ in 1..span {
                            cells.push(Vec::new());
                        }
                    }
                    if !cells.is_empty() {
                        rows.push((in_head || all_th, cells));
                    }
                }
                _ => {}
            }
        }
        if rows.is_empty() {
            return;
        }
        let (_, head) = rows.remove(0);
        let rows: Vec<_> = rows.into_iter().map(|(_, r)| r).collect();
        out.push(Block::Table { head, rows });
        if let Some(c) = caption.filter(|c| has_visible(c)) {
            out.push(Block::Para(vec![Inline::Em(c)]));
        }
    }

    fn figure(&mut self, n: Id, depth: usize, out: &mut Vec<Block>) {
        let dom = self.dom;
        let caption_el = dom
            .children(n)
            .iter()
            .copied()
            .find(|&c| dom.tag(c) == "figcaption");
        let caption = caption_el.map(|c| self.emphasized(c, depth + 1));
        let before = self.caption.take();
        self.caption =
            caption_el.map(|c| crate::space::fold_space(&dom.text(c)).trim().to_string());
        let mut run = Vec::new();
        for c in dom.children(n).to_vec() {
            if Some(c) != caption_el {
                self.block_node(c, out, &mut run, depth + 1);
            }
        }
        flush(&mut run, out);
        self.caption = before;
        if let Some(c) = caption.filter(|c| has_visible(c)) {
            out.push(Block::Para(vec![Inline::Em(c)]));
        }
    }

    fn gist(&self, n: Id) -> Option<String> {
        let src = self.dom.attr(n, "src")?.trim();
        let src = self.absolute(src);
        let rest = src.strip_prefix("https://gist.github.com/")?;
        let rest = rest.split('?').next().unwrap_or(rest);
        Some(format!(
            "https://gist.github.com/{}",
            rest.trim_end_matches(".js")
        ))
    }

    /// An embed (a video, a tweet, a gist, a bookmark, another post) as a
    /// framed block: its kind and title, then its address.
    fn embed(&mut self, n: Id, depth: usize) -> Option<Block> {
        let dom = self.dom;
        let tag = dom.tag(n);
        let caption = |s: &mut Self| -> Vec<Block> {
            dom.children(n)
                .iter()
                .copied()
                .find(|&c| dom.tag(c) == "figcaption")
                .map(|c| {
                    let i = s.emphasized(c, depth + 1);
                    if has_visible(&i) {
                        vec![Block::Para(vec![Inline::Em(i)])]
                    } else {
                        Vec::new()
                    }
                })
                .unwrap_or_default()
        };
        match tag {
            "iframe" => {
                let src = self.media_src(n)?;
                if is_ad_address(&src) || !is_web(&src) {
                    return Some(Block::Para(Vec::new()));
                }
                let (kind, url) = video_address(&src)?;
                Some(embed_block(
                    kind,
                    dom.attr(n, "title").unwrap_or(""),
                    &url,
                    Vec::new(),
                ))
            }
            "script" => {
                let url = self.gist(n)?;
                Some(embed_block("GitHub Gist", "", &url, Vec::new()))
            }
            "blockquote" => {
                let kind = if dom.has_class(n, "twitter-tweet") {
                    "Post on X (Twitter)"
                } else if dom.has_class(n, "instagram-media") {
                    "Instagram post"
                } else if dom.has_class(n, "tiktok-embed") {
                    "TikTok video"
                } else {
                    return None;
                };
                let links: Vec<Id> = dom
                    .descendants(n)
                    .into_iter()
                    .filter(|&c| dom.tag(c) == "a" && dom.attr(c, "href").is_some())
                    .collect();
                let url = dom
                    .attr(n, "cite")
                    .map(str::to_string)
                    .or_else(|| {
                        links
                            .last()
                            .and_then(|&a| dom.attr(a, "href"))
                            .map(str::to_string)
                    })
                    .unwrap_or_default();
                // The text of the post: its paragraphs, without the links.
                let text: Vec<Block> = dom
                    .children(n)
                    .iter()
                    .copied()
                    .filter(|&c| dom.tag(c) == "p")
                    .map(|c| Block::Para(vec![Inline::Text(dom.text(c))]))
                    .collect();
                Some(embed_block(kind, "", &self.absolute(url.trim()), text))
            }
            "figure" | "div" | "a"
                if dom.has_class(n, "wp-block-embed")
                    || dom.has_class(n, "kg-embed-card")
                    || dom.has_class(n, "kg-bookmark-card")
                    || dom.has_class(n, "embedded-post-wrap")
                    || dom.has_class(n, "embedded-post")
                    || dom.has_class(n, "youtube-wrap")
                    || dom.has_class(n, "kg-video-card") =>
            {
                let cap = caption(self);
                // WordPress: the address is the wrapper's text.
                if dom.has_class(n, "wp-block-embed") {
                    let wrapper = dom.find(n, |d, c| d.has_class(c, "wp-block-embed__wrapper"));
                    let inner_iframe = dom.find(n, |d, c| d.tag(c) == "iframe");
                    let url = wrapper
                        .map(|w| dom.text(w).trim().to_string())
                        .filter(|u| is_web(u))
                        .or_else(|| inner_iframe.and_then(|f| self.media_src(f)))
                        .or_else(|| {
                            dom.find(n, |d, c| d.tag(c) == "a")
                                .and_then(|a| dom.attr(a, "href").map(str::to_string))
                        })?;
                    let provider = dom
                        .classes(n)
                        .find_map(|c| c.strip_prefix("is-provider-"))
                        .map(provider_name)
                        .unwrap_or_else(|| {
                            video_address(&url)
                                .map(|(k, _)| k.to_string())
                                .unwrap_or("Embedded content".into())
                        });
                    let url = video_address(&url).map(|(_, u)| u).unwrap_or(url);
                    let title = inner_iframe
                        .and_then(|f| dom.attr(f, "title"))
                        .unwrap_or("");
                    return Some(embed_block(&provider, title, &url, cap));
                }
                if dom.has_class(n, "kg-bookmark-card")
                    || dom.has_class(n, "embedded-post-wrap")
                    || dom.has_class(n, "embedded-post")
                {
                    let link = if tag == "a" {
                        Some(n)
                    } else {
                        dom.find(n, |d, c| d.tag(c) == "a" && d.attr(c, "href").is_some())
                    };
                    let url = dom
                        .attr(n, "data-attrs")
                        .and_then(|j| json_string(j, "url"))
                        .or_else(|| link.and_then(|a| dom.attr(a, "href")).map(str::to_string))?;
                    let title = dom
                        .find(n, |d, c| {
                            d.has_class(c, "kg-bookmark-title")
                                || d.has_class(c, "embedded-post-title")
                        })
                        .map(|t| crate::space::fold_space(&dom.text(t)).trim().to_string())
                        .or_else(|| {
                            dom.attr(n, "data-attrs")
                                .and_then(|j| json_string(j, "title"))
                        })
                        .unwrap_or_default();
                    let description = dom
                        .find(n, |d, c| {
                            d.has_class(c, "kg-bookmark-description")
                                || d.has_class(c, "embedded-post-body")
                        })
                        .map(|t| vec![Block::Para(vec![Inline::Text(dom.text(t))])])
                        .unwrap_or_default();
                    let mut body = description;
                    body.extend(cap);
                    let kind = if dom.has_class(n, "kg-bookmark-card") {
                        "Bookmark"
                    } else {
                        "Post"
                    };
                    return Some(embed_block(kind, &title, &self.absolute(url.trim()), body));
                }
                // A card around an iframe or a video: that, with the caption.
                let inner = dom.find(n, |d, c| matches!(d.tag(c), "iframe" | "video"));
                let src = inner.and_then(|f| self.media_src(f)).or_else(|| {
                    dom.attr(n, "data-attrs")
                        .and_then(|j| json_string(j, "videoId"))
                        .map(|id| format!("https://www.youtube.com/watch?v={id}"))
                })?;
                if !is_web(&src) || is_ad_address(&src) {
                    // A file of the site (a video card): the figure, whose
                    // <video> is reported.
                    return None;
                }
                let (kind, url) = video_address(&src).unwrap_or(("Embedded content", src));
                let title = inner.and_then(|f| dom.attr(f, "title")).unwrap_or("");
                Some(embed_block(kind, title, &url, cap))
            }
            _ => None,
        }
    }
}

fn provider_name(slug: &str) -> String {
    match slug {
        "youtube" => "YouTube video".into(),
        "vimeo" => "Vimeo video".into(),
        "twitter" => "Post on X (Twitter)".into(),
        "spotify" => "Spotify".into(),
        "soundcloud" => "SoundCloud".into(),
        "wordpress" => "Post".into(),
        other => {
            let mut s: String = other.replace('-', " ");
            if let Some(f) = s.get_mut(0..1) {
                f.make_ascii_uppercase();
            }
            s
        }
    }
}

/// A video's page from its player's address: YouTube and Vimeo.
fn video_address(src: &str) -> Option<(&'static str, String)> {
    let s = src.trim();
    let after_host = |host: &str| -> Option<String> {
        for scheme in ["https://", "http://", "//"] {
            for www in ["www.", ""] {
                if let Some(rest) = s.strip_prefix(&format!("{scheme}{www}{host}")) {
                    return Some(rest.to_string());
                }
            }
        }
        None
    };
    let id_of = |rest: &str| -> String {
        rest.split(['?', '&', '#', '/'])
            .next()
            .unwrap_or("")
            .to_string()
    };
    if let Some(rest) =
        after_host("youtube.com/embed/").or_else(|| after_host("youtube-nocookie.com/embed/"))
    {
        return Some((
            "YouTube video",
            format!("https://www.youtube.com/watch?v={}", id_of(&rest)),
        ));
    }
    if let Some(rest) = after_host("youtu.be/") {
        return Some((
            "YouTube video",
            format!("https://www.youtube.com/watch?v={}", id_of(&rest)),
        ));
    }
    if after_host("youtube.com/watch").is_some() {
        return Some(("YouTube video", s.to_string()));
    }
    if let Some(rest) = after_host("player.vimeo.com/video/") {
        return Some(("Vimeo video", format!("https://vimeo.com/{}", id_of(&rest))));
    }
    if after_host("vimeo.com/").is_some() {
        return Some(("Vimeo video", s.to_string()));
    }
    None
}

/// The framed block of an embed: a quotation opened by its kind and title
/// in bold, holding its text and its address.
fn embed_block(kind: &str, title: &str, url: &str, body: Vec<Block>) -> Block {
    let title = crate::space::fold_space(title).trim().to_string();
    let head = if title.is_empty() || title.eq_ignore_ascii_case(kind) {
        kind.to_string()
    } else {
        format!("{kind}: {title}")
    };
    let mut blocks = vec![Block::Para(vec![Inline::Strong(vec![Inline::Text(head)])])];
    blocks.extend(body);
    if !url.is_empty() {
        blocks.push(Block::Para(vec![Inline::Link {
            href: url.to_string(),
            title: String::new(),
            content: vec![Inline::Text(url.to_string())],
        }]));
    }
    Block::Quote(blocks)
}

/// A string member of a small JSON object in an attribute (Substack's
/// `data-attrs`), without a JSON parser: `"key":"value"`.
fn json_string(json: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":");
    let start = json.find(&pat)? + pat.len();
    let rest = json[start..].trim_start().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('\u{fffd}'),
                    );
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

pub(crate) fn is_web(s: &str) -> bool {
    let l = s.trim_start().to_ascii_lowercase();
    l.starts_with("https://") || l.starts_with("http://")
}

fn looks_like_image(href: &str) -> bool {
    let path = href
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"]
        .iter()
        .any(|e| path.ends_with(e))
}

/// An address cut for a message.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() > 120 {
        let cut: String = s.chars().take(117).collect();
        format!("{cut}…")
    } else {
        s.to_string()
    }
}

/// Whether inlines show anything but whitespace.
pub(crate) fn has_visible(inl: &[Inline]) -> bool {
    inl.iter().any(|i| match i {
        Inline::Text(t) => t.chars().any(|c| !c.is_whitespace()),
        Inline::Em(v) | Inline::Strong(v) | Inline::Strike(v) | Inline::Phrase(_, v) => {
            has_visible(v)
        }
        Inline::Link { content, .. } => has_visible(content),
        Inline::Code(c) => !c.trim().is_empty(),
        Inline::Image { .. } | Inline::NoteRef(_) => true,
        Inline::Break => false,
    })
}

/// Ends the running paragraph: two line breaks in a row end a paragraph
/// too (editors that write `<br><br>` for one).
fn flush(run: &mut Vec<Inline>, out: &mut Vec<Block>) {
    if run.is_empty() {
        return;
    }
    let mut para = Vec::new();
    let mut breaks = 0;
    for i in std::mem::take(run) {
        match i {
            Inline::Break => breaks += 1,
            Inline::Text(ref t) if breaks > 0 && t.trim().is_empty() => {}
            other => {
                if breaks >= 2 {
                    if has_visible(&para) {
                        out.push(Block::Para(std::mem::take(&mut para)));
                    }
                    para.clear();
                } else if breaks == 1 {
                    para.push(Inline::Break);
                }
                breaks = 0;
                para.push(other);
            }
        }
    }
    if has_visible(&para) {
        out.push(Block::Para(para));
    }
}
