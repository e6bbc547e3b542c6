//! Raw HTML inside a paragraph, tag by tag: a phrase element opens a frame
//! that its end tag (or the end of the paragraph) closes into the tree's
//! node for it; an image is an image; what is no text of the post is
//! dropped, with a warning.

use crate::ImageRef;
use crate::build::{Builder, Frame, InlinesKind, Level};
use crate::html::{DROPPED, RawHtml, Tag, classify};
use crate::tag_node::TagNode;
use stoa_doc::{Attrs, Diagnostic, Inline, Role};

impl Builder<'_> {
    /// One inline piece of raw HTML: a tag, a comment (dropped), or text
    /// that only looks like a tag (`List<String>`).
    pub(crate) fn inline_html(&mut self, html: &str, offset: usize) {
        match classify(html) {
            RawHtml::Comment => {}
            RawHtml::Text(text) => self.inline(Inline::text(text)),
            RawHtml::Tag(tag) if tag.end => self.close_tag(&tag.name),
            RawHtml::Tag(tag) => self.open_tag(tag, offset),
        }
    }

    fn open_tag(&mut self, tag: Tag, offset: usize) {
        if self.dropping() {
            return;
        }
        match tag.name.as_str() {
            "br" => return self.inline(Inline::LineBreak),
            "img" => return self.html_image(&tag, offset),
            "embed" => {
                if let Some(url) = tag.attr("src").and_then(|s| self.embed_url(s, offset)) {
                    self.inline(Inline::Link {
                        content: vec![Inline::text(url.clone())],
                        url,
                        title: String::new(),
                    });
                }
                return;
            }
            "wbr" | "hr" | "col" | "area" | "source" | "track" => return,
            _ if tag.is_void() => return self.unsupported(&tag.name, offset, true),
            _ => {}
        }
        let node = self.node_for(&tag, offset);
        if self.at_limit(offset, Level::Inline) {
            return;
        }
        self.push(Frame::Inlines {
            kind: InlinesKind::Tag {
                name: tag.name,
                node,
            },
            content: Vec::new(),
        });
    }

    fn node_for(&mut self, tag: &Tag, offset: usize) -> TagNode {
        let role = |role: Role| TagNode::Role(role, Attrs::new());
        match tag.name.as_str() {
            "span" => match tag.lang() {
                Some(lang) => TagNode::Lang(lang.to_string()),
                None => TagNode::Wrapper,
            },
            "em" | "i" | "cite" | "dfn" | "var" => TagNode::Emph,
            "strong" | "b" => TagNode::Strong,
            "s" | "del" | "strike" => TagNode::Strike,
            "code" | "tt" | "samp" => TagNode::Code,
            "sup" => role(Role::Superscript),
            "sub" => role(Role::Subscript),
            "kbd" => role(Role::Keyboard),
            "mark" => role(Role::Highlight),
            "u" | "ins" => role(Role::Underline),
            "abbr" | "acronym" => {
                let mut attrs = Attrs::new();
                if let Some(title) = tag.attr("title").filter(|t| !t.trim().is_empty()) {
                    attrs.insert("title".into(), title.trim().to_string());
                }
                TagNode::Role(Role::Abbreviation, attrs)
            }
            "q" => TagNode::Quote,
            "a" if self.in_link() => TagNode::Wrapper,
            "a" => match tag.attr("href") {
                Some(href) => TagNode::Link(
                    self.checked_url(href, offset),
                    tag.attr("title").unwrap_or_default().to_string(),
                ),
                None => TagNode::Wrapper,
            },
            "iframe" | "video" | "audio" | "object" => {
                let src = tag.attr("src").or_else(|| tag.attr("data"));
                match src.and_then(|s| self.embed_url(s, offset)) {
                    Some(url) => TagNode::Embed(url),
                    None => TagNode::Wrapper,
                }
            }
            name if DROPPED.contains(&name) => {
                self.unsupported(name, offset, true);
                TagNode::Drop
            }
            // Presentation, or blocks written inside a paragraph (a block
            // element alone on its lines is an HTML block): their words.
            "font" | "small" | "big" | "center" | "div" | "p" | "section" | "article" | "aside"
            | "header" | "footer" | "main" | "figure" | "figcaption" | "details" | "summary"
            | "bdi" | "bdo" | "time" | "data" | "label" | "nobr" | "address" | "blockquote"
            | "ruby" | "rt" | "rp" | "picture" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                TagNode::Wrapper
            }
            name => {
                self.unsupported(name, offset, false);
                TagNode::Wrapper
            }
        }
    }

    /// An end tag closes the innermost open element of that name among the
    /// elements open in this paragraph (those opened after it close too,
    /// as a browser closes misnested tags); an end tag that closes nothing
    /// is dropped.
    fn close_tag(&mut self, name: &str) {
        let open = self
            .stack
            .iter()
            .rev()
            .take_while(|f| matches!(f, Frame::Inlines { kind, .. } if kind.is_tag()))
            .position(|f| matches!(f, Frame::Inlines { kind: InlinesKind::Tag { name: n, .. }, .. } if n == name));
        if let Some(depth) = open {
            for _ in 0..=depth {
                self.close_top_tag();
            }
        }
    }

    /// Closes the innermost frame, an HTML element's.
    pub(crate) fn close_top_tag(&mut self) {
        if let Some(Frame::Inlines {
            kind: InlinesKind::Tag { node, .. },
            content,
        }) = self.pop()
        {
            self.close_node(node, content);
        }
    }

    pub(crate) fn close_node(&mut self, node: TagNode, content: Vec<Inline>) {
        let span = |role: Option<Role>, attrs: Attrs, content| Inline::Span {
            role,
            class: String::new(),
            attrs,
            content,
        };
        let inline = match node {
            TagNode::Lang(lang) => span(None, [("lang".to_string(), lang)].into(), content),
            TagNode::Emph => Inline::Emph { content },
            TagNode::Strong => Inline::Strong { content },
            TagNode::Strike => Inline::Strike { content },
            TagNode::Code => Inline::Code {
                text: stoa_doc::inlines_text(&content),
            },
            TagNode::Role(role, attrs) => span(Some(role), attrs, content),
            TagNode::Link(Some(url), title) => Inline::Link {
                url,
                title,
                content,
            },
            TagNode::Embed(url) => Inline::Link {
                content: match stoa_doc::inlines_text(&content).trim().is_empty() {
                    true => vec![Inline::text(url.clone())],
                    false => content,
                },
                url,
                title: String::new(),
            },
            TagNode::Quote => {
                self.inline(Inline::text("“"));
                content.into_iter().for_each(|i| self.inline(i));
                return self.inline(Inline::text("”"));
            }
            TagNode::Link(None, _) | TagNode::Wrapper => {
                return content.into_iter().for_each(|i| self.inline(i));
            }
            TagNode::Drop => return,
        };
        self.inline(inline);
    }

    /// Whether the words now read are a link's: links do not nest.
    fn in_link(&self) -> bool {
        self.stack.iter().any(|f| {
            matches!(
                f,
                Frame::Inlines {
                    kind: InlinesKind::Link { .. }
                        | InlinesKind::Tag {
                            node: TagNode::Link(..) | TagNode::Embed(_),
                            ..
                        },
                    ..
                }
            )
        })
    }

    /// Whether the words now read belong to a script, a style or a form.
    pub(crate) fn dropping(&self) -> bool {
        self.stack.iter().rev().any(|f| {
            matches!(
                f,
                Frame::Inlines {
                    kind: InlinesKind::Tag {
                        node: TagNode::Drop,
                        ..
                    },
                    ..
                }
            )
        })
    }

    /// `<img>` inside a paragraph: an image of the book when its file is
    /// the post's (checked and copied as a Markdown image is); a link to
    /// it, with a warning, when it is on the web.
    fn html_image(&mut self, tag: &Tag, offset: usize) {
        let src = tag.attr("src").unwrap_or_default().trim();
        let alt = tag.attr("alt").unwrap_or_default().to_string();
        let title = tag.attr("title").unwrap_or_default().to_string();
        let pos = self.lines.pos(offset);
        match image_source(src) {
            Ok(url) => {
                self.out.images.push(ImageRef {
                    url: url.clone(),
                    pos,
                });
                self.inline(Inline::Image { url, alt, title });
            }
            Err(why) => {
                self.out.diagnostics.push(
                    Diagnostic::warning(format!("the image `{src}` is not shown: {why}"))
                        .at(pos.line, pos.column)
                        .with_hint(
                            "save the image beside the post and write `![description](file.png)`",
                        ),
                );
                let text = if alt.trim().is_empty() {
                    src
                } else {
                    alt.trim()
                };
                match self.checked_url(src, offset).filter(|_| !src.is_empty()) {
                    Some(url) => self.inline(Inline::Link {
                        url,
                        title,
                        content: vec![Inline::text(text)],
                    }),
                    None if !text.is_empty() => self.inline(Inline::text(text)),
                    None => {}
                }
            }
        }
    }

    /// The address of an embedded player, made absolute (`//host/x`).
    fn embed_url(&mut self, src: &str, offset: usize) -> Option<String> {
        let src = src.trim();
        let src = match src.strip_prefix("//") {
            Some(rest) => format!("https://{rest}"),
            None => src.to_string(),
        };
        self.checked_url(&src, offset)
            .filter(|u| u.starts_with("http"))
    }

    /// An element stoa does not read: once per post and name.
    pub(crate) fn unsupported(&mut self, name: &str, offset: usize, dropped: bool) {
        if !self.reported_tags.insert(name.to_string()) {
            return;
        }
        let pos = self.lines.pos(offset);
        let (message, hint) = if dropped {
            (
                format!("the HTML element `<{name}>` is left out: a book cannot hold it"),
                "scripts, styles and forms do nothing on a page; remove it",
            )
        } else {
            (
                format!("the HTML element `<{name}>` is not one stoa reads: its text is kept"),
                "write it in Markdown, or with an element stoa reads (see the reference's raw HTML)",
            )
        };
        self.out.diagnostics.push(
            Diagnostic::warning(message)
                .at(pos.line, pos.column)
                .with_hint(hint),
        );
    }
}

/// Where a post's HTML has an image: the path of a file beside the post,
/// or why it has none.
pub(crate) fn image_source(src: &str) -> Result<String, &'static str> {
    let lower = src.to_ascii_lowercase();
    if src.is_empty() {
        Err("it has no address")
    } else if lower.starts_with("data:") {
        Err("it is written inside the HTML (a `data:` address)")
    } else if src.starts_with("//") || lower.starts_with("http:") || lower.starts_with("https:") {
        Err("it is on the web, and stoa does not download while it builds")
    } else if crate::build::scheme(src).is_some() {
        Err("its address is neither a file nor a web address")
    } else {
        Ok(src.to_string())
    }
}
