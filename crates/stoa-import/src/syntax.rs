//! Hugo shortcodes, Liquid tags (Jekyll) and Zola shortcodes, made book
//! content: every construct becomes Markdown, or a visible block that is
//! reported with its file and line. Nothing of the tool's syntax is left
//! in what a reader sees.
//!
//! | construct | becomes |
//! |---|---|
//! | `{{< figure src= caption= >}}` | an image, its caption in italics under it |
//! | `{{< highlight go >}}…{{< /highlight >}}`, `{% highlight go %}…{% endhighlight %}` | a fenced code block |
//! | `{{< ref "x" >}}`, `relref`, `{% post_url … %}`, `{% link … %}`, Zola's `@/x.md` | the address of that post, which the writer turns into a link to its chapter |
//! | `youtube`, `vimeo`, `tweet`/`x`, `gist`, `instagram`, `streamable` | a quoted block naming what it was and its address |
//! | `{{< details summary= >}}…` | its summary in bold, then its content |
//! | a theme's `{{< image src= >}}`, `{{< code language= >}}…` | an image as `figure` makes it; a fenced code block |
//! | a theme's `notice`/`alert`/`admonition`/`callout` (and `note`, `tip`, `warning`, `info`, `hint`)… | a quoted block led by its kind in bold, then its content |
//! | a theme's `quote`/`blockquote` (Zola's `{% quote(author=) %}`) | a quoted block, then `— author` |
//! | any other paired Hugo or Zola shortcode (`{{< table >}}…`, `{{< raw >}}…`) | its content, which is the author's text; one warning per name and post |
//! | `{% raw %}…{% endraw %}`, `{{</* … */>}}` | the text inside, as written |
//! | `{% comment %}…{% endcomment %}` | nothing |
//! | `{{ site.title }}`, `{{ page.title }}`, `{{ "/x" \| relative_url }}` | the value |
//! | `{% assign x = "…" %}`, `{% capture x %}…{% endcapture %}` | nothing; the `{{ x }}` after them become the value |
//! | anything else (`{% include %}`, a theme's shortcode that wraps nothing) | a quoted block with the name and arguments and the content, after a comment `stoa check` reports; and a warning |
//!
//! Shortcodes inside fenced code blocks are left as they are (their escapes
//! undone), as code.

use crate::model::{Diagnostic, Place};
use crate::util::place_in;

/// Which tool's syntax a body is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// `{{< name >}}` and `{{% name %}}`.
    Hugo,
    /// Liquid: `{% tag %}` and `{{ variable }}`.
    Jekyll,
    /// `{{ name(args) }}` and `{% name(args) %}…{% end %}`.
    Zola,
}

/// The marker of a construct left unconverted, in an HTML comment that
/// never reaches a book and that `stoa check` reports.
pub const NOT_CONVERTED: &str = "stoa-import: not converted:";

/// What the converter needs to know about the post and the site.
pub(crate) struct Context<'a> {
    /// The tool.
    pub syntax: Syntax,
    /// Where the body starts in its file.
    pub place: &'a Place,
    /// The post's language (canonical), for the words of embeds.
    pub lang: &'a str,
    /// A post's address from what a `ref`, `post_url` or `link` names.
    pub resolve: &'a dyn Fn(&str) -> Option<String>,
    /// A Liquid variable's value (`site.title`, `page.title`).
    pub variable: &'a dyn Fn(&str) -> Option<String>,
}

/// The deepest nesting of paired shortcodes converted.
const MAX_DEPTH: usize = 32;

/// Converts every construct of `body`.
pub(crate) fn convert(body: &str, cx: &Context<'_>, warnings: &mut Vec<Diagnostic>) -> String {
    let mut out = Converter {
        cx,
        whole: body,
        warnings,
        assigned: Vec::new(),
    };
    out.run(body, 0, 0)
}

struct Converter<'a, 'w> {
    cx: &'a Context<'a>,
    /// The whole body, for line numbers.
    whole: &'a str,
    warnings: &'w mut Vec<Diagnostic>,
    /// The post's own Liquid variables (`assign`, `capture`), in the order
    /// set: a later one of the same name wins.
    assigned: Vec<(String, String)>,
}

/// A parsed tag.
#[derive(Debug)]
enum Tag {
    /// An opening (or only) tag: its name and arguments; `closed` when it
    /// closes itself (`{{< x />}}`).
    Open {
        name: String,
        args: Args,
        closed: bool,
    },
    /// `{{< /name >}}`, `{% endname %}`, `{% end %}`.
    Close { name: String },
    /// A literal (an escaped shortcode, a Zola `{{/* */}}`).
    Literal(String),
    /// A Liquid output `{{ … }}`.
    Output(String),
}

/// Arguments: positional and named, as strings.
#[derive(Debug, Default)]
pub(crate) struct Args {
    positional: Vec<String>,
    named: Vec<(String, String)>,
}

impl Args {
    fn get(&self, key: &str) -> Option<&str> {
        self.named
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    fn pos(&self, i: usize) -> Option<&str> {
        self.positional.get(i).map(String::as_str)
    }

    /// The named argument `key`, else the positional one at `i`.
    fn arg(&self, key: &str, i: usize) -> Option<&str> {
        self.get(key).or_else(|| self.pos(i))
    }

    fn summary(&self) -> String {
        let mut parts: Vec<String> = self.positional.clone();
        parts.extend(self.named.iter().map(|(k, v)| format!("{k}: {v}")));
        parts.join(", ")
    }
}

impl Converter<'_, '_> {
    /// Converts `text`, which starts `base` bytes into the body.
    fn run(&mut self, text: &str, base: usize, depth: usize) -> String {
        let fences = fenced_ranges(text);
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < text.len() {
            let Some(next) = self.next_start(text, i) else {
                out.push_str(&text[i..]);
                break;
            };
            out.push_str(&text[i..next]);
            let in_fence = fences.iter().any(|r| r.contains(&next));
            let Some((tag, end)) = self.parse_tag(text, next) else {
                // Not a construct after all: keep the brace and go on.
                let step = text[next..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&text[next..next + step]);
                i = next + step;
                continue;
            };
            if in_fence {
                match tag {
                    Tag::Literal(l) => out.push_str(&l),
                    Tag::Open { ref name, .. } | Tag::Close { ref name }
                        if self.cx.syntax == Syntax::Jekyll
                            && (name == "raw" || name == "endraw") => {}
                    _ => out.push_str(&text[next..end]),
                }
                i = end;
                continue;
            }
            let at = base + next;
            match tag {
                Tag::Literal(l) => {
                    out.push_str(&l);
                    i = end;
                }
                Tag::Output(expr) => {
                    out.push_str(&self.output(&expr, at));
                    i = end;
                }
                Tag::Close { name } => {
                    self.warn(
                        at,
                        format!("a closing `{name}` with no opening one, left out"),
                        "check the post's shortcodes or tags: one is closed twice",
                    );
                    i = end;
                }
                Tag::Open { name, args, closed } => {
                    let paired = if closed || self.is_single(&name) {
                        None
                    } else {
                        self.find_close(text, end, &name)
                    };
                    let original_end = paired.map_or(end, |(_, after)| after);
                    let original = &text[next..original_end];
                    let block = alone_on_lines(text, next, original_end);
                    let inner = paired.map(|(inner_end, _)| (&text[end..inner_end], base + end));
                    let rendered = if depth >= MAX_DEPTH {
                        self.warn(
                            at,
                            "shortcodes nested too deeply, left as text".into(),
                            "simplify the post",
                        );
                        original.to_string()
                    } else {
                        self.render(&name, &args, inner, original, block, at, depth)
                    };
                    out.push_str(&rendered);
                    i = original_end;
                }
            }
        }
        out
    }

    /// Where the next construct may start at or after `from`.
    fn next_start(&self, text: &str, from: usize) -> Option<usize> {
        let rest = &text[from..];
        let a = rest.find("{{");
        let b = rest.find("{%");
        let first = match (a, b) {
            (Some(a), Some(b)) => a.min(b),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => return None,
        };
        Some(from + first)
    }

    /// The tag at `at`, and where it ends.
    fn parse_tag(&self, text: &str, at: usize) -> Option<(Tag, usize)> {
        match self.cx.syntax {
            Syntax::Hugo => parse_hugo(text, at),
            Syntax::Jekyll => parse_liquid(text, at),
            Syntax::Zola => parse_zola(text, at),
        }
    }

    /// Tags that never take content.
    fn is_single(&self, name: &str) -> bool {
        match self.cx.syntax {
            Syntax::Hugo => matches!(
                name,
                "figure"
                    | "ref"
                    | "relref"
                    | "youtube"
                    | "vimeo"
                    | "vimeo_simple"
                    | "twitter_simple"
                    | "x_simple"
                    | "tweet"
                    | "x"
                    | "gist"
                    | "instagram"
                    | "param"
            ),
            Syntax::Jekyll => !matches!(
                name,
                "highlight" | "raw" | "comment" | "if" | "unless" | "for" | "case" | "capture"
            ),
            Syntax::Zola => false,
        }
    }

    /// The end of the content and the end of the closing tag of `name`,
    /// from `from`, allowing the same name nested.
    fn find_close(&self, text: &str, from: usize, name: &str) -> Option<(usize, usize)> {
        if self.cx.syntax == Syntax::Jekyll && (name == "raw" || name == "comment") {
            let end = format!("end{name}");
            let mut i = from;
            while let Some(next) = self.next_start(text, i) {
                if let Some((Tag::Close { name: n }, after)) = parse_liquid(text, next)
                    && n == end
                {
                    return Some((next, after));
                }
                i = next + 2;
            }
            return None;
        }
        let close_name = match self.cx.syntax {
            Syntax::Jekyll => format!("end{name}"),
            Syntax::Zola => "end".to_string(),
            Syntax::Hugo => name.to_string(),
        };
        let mut depth = 0usize;
        let mut i = from;
        while let Some(next) = self.next_start(text, i) {
            match self.parse_tag(text, next) {
                Some((
                    Tag::Open {
                        name: n,
                        closed: false,
                        ..
                    },
                    after,
                )) => {
                    let opens = match self.cx.syntax {
                        Syntax::Zola => text[next..].starts_with("{%"),
                        _ => n == name,
                    };
                    if opens {
                        depth += 1;
                    }
                    i = after;
                }
                Some((Tag::Close { name: n }, after)) if n == close_name => {
                    if depth == 0 {
                        return Some((next, after));
                    }
                    depth -= 1;
                    i = after;
                }
                Some((_, after)) => i = after,
                None => i = next + 2,
            }
        }
        None
    }

    fn warn(&mut self, at: usize, message: String, hint: &str) {
        let place = place_in(self.cx.place, self.whole, at.min(self.whole.len()));
        self.warnings.push(place.warning(message).with_hint(hint));
    }

    /// A Liquid `{{ expression }}`.
    fn output(&mut self, expr: &str, at: usize) -> String {
        let mut parts = expr.split('|').map(str::trim);
        let head = parts.next().unwrap_or_default();
        let filters: Vec<&str> = parts.collect();
        let quoted = unquote(head);
        if let Some(path) = quoted
            && filters.iter().all(|f| {
                matches!(
                    *f,
                    "relative_url" | "absolute_url" | "prepend: site.baseurl" | "url"
                )
            })
        {
            return path.to_string();
        }
        if matches!(head, "site.baseurl" | "site.url" | "site.base_url") {
            return String::new();
        }
        if filters.is_empty()
            && let Some(value) = self.value_of(head)
        {
            return value;
        }
        self.warn(
            at,
            format!("the Liquid expression `{{{{ {expr} }}}}` has no value outside Jekyll; kept as its text"),
            "replace it with the text it stood for",
        );
        format!("`{}`", expr.replace('`', "'"))
    }

    /// One construct: `inner` is its content and where it starts, for a
    /// paired one; `block` when it stands alone on its lines.
    #[allow(clippy::too_many_arguments)]
    fn render(
        &mut self,
        name: &str,
        args: &Args,
        inner: Option<(&str, usize)>,
        original: &str,
        block: bool,
        at: usize,
        depth: usize,
    ) -> String {
        let syntax = self.cx.syntax;
        let lang = self.cx.lang;
        match (syntax, name) {
            // A theme's `image` takes the arguments Hugo's `figure` does.
            (Syntax::Hugo, "figure" | "image") => self.figure(name, args, at),
            (Syntax::Hugo | Syntax::Jekyll, "highlight") => {
                let language = args.pos(0).unwrap_or_default();
                let code = inner.map_or("", |(t, _)| t);
                // Liquid reads a highlight's body: `{% raw %}` in it only
                // keeps the code's own `{{ }}` from being read, and shows
                // nothing itself.
                let code = if syntax == Syntax::Jekyll {
                    without_raw_tags(code)
                } else {
                    code.to_string()
                };
                fence(language, &code)
            }
            // Hugo's privacy-minded embeds are the embeds themselves.
            (Syntax::Hugo, "vimeo_simple" | "twitter_simple" | "x_simple") => {
                let base = name.trim_end_matches("_simple");
                self.render(base, args, inner, original, block, at, depth)
            }
            // Themes' diagrams: a Mermaid block, which stoa draws.
            (Syntax::Hugo | Syntax::Zola, "mermaid") if inner.is_some() => {
                fence("mermaid", inner.map_or("", |(t, _)| t))
            }
            // Themes' code blocks: `{{< code language="shell" >}}…`.
            (Syntax::Hugo | Syntax::Zola, "code") if inner.is_some() => {
                let language = args
                    .get("language")
                    .or(args.get("lang"))
                    .or(args.pos(0))
                    .unwrap_or_default();
                fence(language, inner.map_or("", |(t, _)| t))
            }
            // Themes' admonitions: a quoted block led by its kind.
            (
                Syntax::Hugo | Syntax::Zola,
                "notice" | "alert" | "admonition" | "callout" | "hint" | "note" | "tip" | "warning"
                | "info",
            ) if inner.is_some() => self.admonition(name, args, inner, depth),
            // Themes' side notes (`aside`, `sidenote`, `marginnote`): the
            // text, set apart as a quoted block, as a book sets an aside.
            (Syntax::Hugo | Syntax::Zola, "aside" | "sidenote" | "marginnote")
                if inner.is_some() || args.get("text").is_some() =>
            {
                let content = match inner {
                    Some((t, start)) => self.run(t, start, depth + 1),
                    None => args.get("text").unwrap_or_default().to_string(),
                };
                let mut out = String::from("\n\n");
                quote_each(&mut out, content.trim_matches('\n'));
                out.push('\n');
                out
            }
            // Themes' quotations: the quoted text, then who said it.
            (Syntax::Hugo | Syntax::Zola, "quote" | "blockquote") if inner.is_some() => {
                let content =
                    inner.map_or(String::new(), |(t, start)| self.run(t, start, depth + 1));
                let mut out = String::from("\n\n");
                let mut body = content.trim_matches('\n').to_string();
                let by = args
                    .get("author")
                    .or(args.get("cite"))
                    .or(args.get("source"));
                if let Some(by) = by {
                    body.push_str(&format!("\n\n— {}", one_line(by)));
                }
                quote_each(&mut out, &body);
                out.push('\n');
                out
            }
            (Syntax::Hugo, "ref" | "relref") | (Syntax::Jekyll, "post_url" | "link") => {
                let Some(target) = args.arg("path", 0) else {
                    self.warn(
                        at,
                        format!("a `{name}` that names no post"),
                        "name the post it links to",
                    );
                    return String::new();
                };
                match (self.cx.resolve)(target) {
                    Some(url) => url,
                    None => {
                        self.warn(
                            at,
                            format!("`{name}` names `{target}`, which is no post of this import"),
                            "fix the link after the import, or import the post it names",
                        );
                        target.to_string()
                    }
                }
            }
            (Syntax::Jekyll, "raw") => inner.map_or(String::new(), |(t, _)| t.to_string()),
            (Syntax::Jekyll, "assign") => self.assign(original, at),
            (Syntax::Jekyll, "capture") if inner.is_some() => {
                let Some(name) = args.pos(0).filter(|n| is_variable(n)) else {
                    return self.unknown(name, args, inner, original, block, at, depth);
                };
                let value = inner.map_or(String::new(), |(t, start)| self.run(t, start, depth + 1));
                self.assigned
                    .push((name.to_string(), value.trim().to_string()));
                String::new()
            }
            (Syntax::Jekyll, "comment") => String::new(),
            (_, "details") => {
                let summary = args.arg("summary", 0).unwrap_or_default();
                let content = match inner {
                    Some((t, start)) => self.run(t, start, depth + 1),
                    None => String::new(),
                };
                let mut out = String::from("\n\n");
                if !summary.is_empty() {
                    out.push_str(&format!("**{}**\n\n", one_line(summary)));
                }
                out.push_str(content.trim_matches('\n'));
                out.push_str("\n\n");
                out
            }
            (
                _,
                "youtube" | "vimeo" | "streamable" | "tweet" | "twitter" | "x" | "gist"
                | "instagram",
            ) => match embed(name, args) {
                Some((service, url)) => embed_block(lang, name, &service, args.get("title"), &url),
                None => self.unknown(name, args, inner, original, block, at, depth),
            },
            (Syntax::Jekyll, "include") => {
                let file = args.pos(0).unwrap_or_default().to_ascii_lowercase();
                let service = ["youtube", "vimeo"].into_iter().find(|s| file.contains(s));
                if let Some(service) = service
                    && let Some((label, url)) = embed(service, args)
                {
                    return embed_block(lang, service, &label, args.get("title"), &url);
                }
                self.unknown(name, args, inner, original, block, at, depth)
            }
            _ => self.unknown(name, args, inner, original, block, at, depth),
        }
    }

    /// A Liquid variable's value: the post's own (`assign`, `capture`),
    /// else the site's or the page's.
    fn value_of(&self, name: &str) -> Option<String> {
        let own = self.assigned.iter().rev().find(|(n, _)| n == name);
        own.map(|(_, v)| v.clone())
            .or_else(|| (self.cx.variable)(name))
    }

    /// `{% assign name = value %}`: remembered for the `{{ name }}` after
    /// it, and nothing printed. The value is a quoted text, a number or
    /// another variable; one with filters is not evaluated (a warning, and
    /// the variable keeps no value).
    fn assign(&mut self, original: &str, at: usize) -> String {
        let inner = original
            .trim()
            .trim_start_matches("{%")
            .trim_end_matches("%}")
            .trim_matches('-')
            .trim();
        let rest = inner.strip_prefix("assign").unwrap_or(inner);
        let value = rest.split_once('=').and_then(|(name, expr)| {
            let (name, expr) = (name.trim(), expr.trim());
            if !is_variable(name) || expr.contains('|') {
                return None;
            }
            let value = match unquote(expr) {
                Some(text) => text.to_string(),
                None if expr.parse::<f64>().is_ok() => expr.to_string(),
                None => self.value_of(expr)?,
            };
            Some((name.to_string(), value))
        });
        match value {
            Some(pair) => self.assigned.push(pair),
            None => self.warn(
                at,
                format!(
                    "the Liquid tag `{}` could not be evaluated; the variable has no value",
                    excerpt(inner)
                ),
                "replace the `{{ }}` that use it with the text it stood for",
            ),
        }
        String::new()
    }

    /// Hugo's `figure` (and a theme's `image`): the image, its caption in
    /// italics under it.
    fn figure(&mut self, name: &str, args: &Args, at: usize) -> String {
        let Some(src) = args.get("src") else {
            self.warn(
                at,
                format!("a `{name}` without `src`, left out"),
                "give the figure its image",
            );
            return String::new();
        };
        let caption = args.get("caption").or(args.get("title"));
        let alt = args.get("alt").or(caption).unwrap_or_default();
        let mut out = format!(
            "\n\n![{}]({})\n\n",
            crate::util::escape_brackets(&plain(alt)),
            crate::util::destination(src)
        );
        if let Some(caption) = caption {
            let caption = one_line(caption);
            if caption.contains('_') {
                out.push_str(&format!("{caption}\n\n"));
            } else if !caption.is_empty() {
                out.push_str(&format!("_{caption}_\n\n"));
            }
        }
        out
    }

    /// A theme's notice, alert, admonition or callout: a quoted block led
    /// by its kind (`{{< notice warning >}}`: "Warning") or its title, then
    /// its content, which is the author's text.
    fn admonition(
        &mut self,
        name: &str,
        args: &Args,
        inner: Option<(&str, usize)>,
        depth: usize,
    ) -> String {
        let kind = args
            .get("title")
            .or(args.get("type"))
            .or(args.pos(0))
            .unwrap_or(name);
        let mut head = one_line(kind);
        if let Some(first) = head.get(..1) {
            head = first.to_uppercase() + &head[1..];
        }
        let content = inner.map_or(String::new(), |(t, start)| self.run(t, start, depth + 1));
        let mut out = format!("\n\n> **{head}**\n");
        quote_lines(&mut out, &content);
        out.push('\n');
        out
    }

    /// A construct stoa does not know: a visible block (or, inside a line,
    /// its name in brackets), reported.
    #[allow(clippy::too_many_arguments)]
    fn unknown(
        &mut self,
        name: &str,
        args: &Args,
        inner: Option<(&str, usize)>,
        original: &str,
        block: bool,
        at: usize,
        depth: usize,
    ) -> String {
        let what = match self.cx.syntax {
            Syntax::Hugo | Syntax::Zola => "shortcode",
            Syntax::Jekyll => "Liquid tag",
        };
        let first_line = original.lines().next().unwrap_or_default();
        if let (Syntax::Hugo | Syntax::Zola, Some((text, start))) = (self.cx.syntax, inner) {
            let kept = self.kept_content(name, text, start, at, depth);
            return if block {
                format!("\n\n{kept}\n\n")
            } else {
                one_line(&kept)
            };
        }
        self.warn(
            at,
            format!("the {what} `{name}` is not something stoa can convert; kept as a visible block: {}", excerpt(first_line)),
            "rewrite it in Markdown, then remove the block (stoa check points at it until then)",
        );
        let summary = args.summary();
        let comment = format!(
            "<!-- {NOT_CONVERTED} {} -->",
            excerpt(first_line).replace("--", "- -")
        );
        let content = inner.map(|(t, start)| self.run(t, start, depth + 1));
        if !block {
            let label = if summary.is_empty() {
                format!("**\\[{name}\\]**")
            } else {
                format!(
                    "**\\[{name}: {}\\]**",
                    crate::util::escape_brackets(&one_line(&summary))
                )
            };
            return match content {
                Some(c) => format!("{comment}{label} {}", one_line(&c)),
                None => format!("{comment}{label}"),
            };
        }
        let mut out = format!("\n\n{comment}\n\n> **{name}**");
        if !summary.is_empty() {
            out.push_str(&format!(" ({})", one_line(&summary)));
        }
        out.push('\n');
        if let Some(content) = content {
            quote_lines(&mut out, &content);
        }
        out.push('\n');
        out
    }

    /// A paired shortcode stoa does not know: what it wraps is the author's
    /// text (a theme's `table`, `raw`, `columns`…), kept as Markdown; the
    /// wrapper goes, said once per shortcode name in the post.
    fn kept_content(
        &mut self,
        name: &str,
        text: &str,
        start: usize,
        at: usize,
        depth: usize,
    ) -> String {
        let said = format!("the shortcode `{name}` is not something stoa knows");
        if !self.warnings.iter().any(|w| w.message.starts_with(&said)) {
            self.warn(
                at,
                format!("{said}; what it wraps is kept as the post's text, without it"),
                "check how that text reads without the shortcode's formatting",
            );
        }
        let content = self.run(text, start, depth + 1);
        content.trim_matches('\n').to_string()
    }
}

/// `content` as the lines of a quoted block (after its first line), an
/// empty line between them kept as `>`.
fn quote_lines(out: &mut String, content: &str) {
    let content = content.trim_matches('\n');
    if content.is_empty() {
        return;
    }
    out.push_str(">\n");
    quote_each(out, content);
}

/// Each line of `text` quoted (`> line`; an empty line as `>`).
fn quote_each(out: &mut String, text: &str) {
    for line in text.lines() {
        if line.is_empty() {
            out.push_str(">\n");
        } else {
            out.push_str(&format!("> {line}\n"));
        }
    }
}

/// Whether `name` is a Liquid variable name (`ficha_url`, `page.title`).
fn is_variable(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
}

/// The first 80 characters of a construct, for messages.
fn excerpt(text: &str) -> String {
    let t: String = text.chars().take(80).collect();
    if t.len() < text.len() {
        format!("{t}…")
    } else {
        t
    }
}

/// Line breaks and runs of spaces as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text without Markdown emphasis marks, for an alt text.
fn plain(text: &str) -> String {
    one_line(&text.replace(['*', '_', '`'], ""))
}

/// A fenced code block of `code` in `language`, its fence longer than any
/// run of backticks inside.
fn fence(language: &str, code: &str) -> String {
    let code = code
        .strip_prefix("\r\n")
        .or(code.strip_prefix('\n'))
        .unwrap_or(code);
    let code = code
        .trim_end_matches([' ', '\t'])
        .trim_end_matches(['\n', '\r']);
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest.max(2) + 1);
    let language: String = language
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "+-_.#".contains(*c))
        .collect();
    format!("\n\n{ticks}{language}\n{code}\n{ticks}\n\n")
}

/// The service's name and the address of an embed, from its arguments.
fn embed(name: &str, args: &Args) -> Option<(String, String)> {
    let id = |key: &str| {
        args.arg(key, 0)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let safe = |v: &str| {
        v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:?=&%#@".contains(c))
    };
    let (service, url) = match name {
        "youtube" => {
            let id = id("id")?;
            ("YouTube", format!("https://www.youtube.com/watch?v={id}"))
        }
        "vimeo" => {
            let id = id("id")?;
            ("Vimeo", format!("https://vimeo.com/{id}"))
        }
        "streamable" => {
            let id = id("id")?;
            ("Streamable", format!("https://streamable.com/{id}"))
        }
        "instagram" => {
            let id = id("id")?;
            ("Instagram", format!("https://www.instagram.com/p/{id}/"))
        }
        "tweet" | "twitter" | "x" => {
            let user = args.get("user");
            let id = args.get("id").map(str::to_string).or_else(|| {
                args.positional
                    .iter()
                    .find(|p| p.chars().all(|c| c.is_ascii_digit()))
                    .cloned()
            });
            let url = match (user, id) {
                (_, None) => args.pos(0).filter(|p| p.starts_with("http"))?.to_string(),
                (Some(user), Some(id)) => format!("https://x.com/{user}/status/{id}"),
                (None, Some(id)) => format!("https://x.com/i/status/{id}"),
            };
            ("X (Twitter)", url)
        }
        "gist" => {
            let url = if let Some(url) = args.get("url") {
                url.to_string()
            } else {
                let first = args.pos(0)?;
                match args.pos(1) {
                    Some(id) if !first.contains('/') => {
                        format!("https://gist.github.com/{first}/{id}")
                    }
                    _ => format!("https://gist.github.com/{first}"),
                }
            };
            ("GitHub Gist", url)
        }
        _ => return None,
    };
    safe(&url).then(|| (service.to_string(), url))
}

/// The block an embed becomes: a quotation that says what it was, its
/// title, and its address alone on the last line, which print sets
/// beside a QR code of it.
fn embed_block(lang: &str, kind: &str, service: &str, title: Option<&str>, url: &str) -> String {
    let primary = lang.split('-').next().unwrap_or("en");
    let word = match kind {
        "youtube" | "vimeo" | "streamable" => match primary {
            "pt" | "es" => "Vídeo",
            "fr" => "Vidéo",
            _ => "Video",
        },
        "gist" => match primary {
            "pt" | "es" => "Código",
            _ => "Code",
        },
        "instagram" => match primary {
            "pt" => "Imagem",
            "es" => "Imagen",
            "de" => "Bild",
            _ => "Image",
        },
        _ => match primary {
            "pt" => "Publicação",
            "es" => "Publicación",
            "fr" => "Publication",
            "de" => "Beitrag",
            _ => "Post",
        },
    };
    let head = match title.map(one_line).filter(|t| !t.is_empty()) {
        Some(title) => format!("{word} ({service}): {title}"),
        None => format!("{word} ({service})"),
    };
    format!("\n\n> **{head}**\n>\n> <{url}>\n\n")
}

/// True when `text[start..end]` has nothing but white space before it on
/// its first line and after it on its last.
fn alone_on_lines(text: &str, start: usize, end: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    text[line_start..start].trim().is_empty() && text[end..line_end].trim().is_empty()
}

/// The byte ranges of fenced code blocks (``` or ~~~) in `text`.
/// `code` without its `{% raw %}` and `{% endraw %}` tags (in any of
/// Liquid's spellings: `{%- raw -%}`), their content kept as it is.
fn without_raw_tags(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("{%") {
        let Some(end) = rest[at..].find("%}") else {
            break;
        };
        let tag = rest[at + 2..at + end].trim_matches('-').trim();
        out.push_str(&rest[..at]);
        if tag != "raw" && tag != "endraw" {
            out.push_str(&rest[at..at + end + 2]);
        }
        rest = &rest[at + end + 2..];
        // A tag alone on its line takes its line with it.
        if (tag == "raw" || tag == "endraw") && (out.is_empty() || out.ends_with('\n')) {
            rest = rest.strip_prefix('\n').unwrap_or(rest);
        }
    }
    out.push_str(rest);
    out
}

fn fenced_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char, usize)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let mark = trimmed.chars().next();
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        match (open, mark) {
            (None, Some(c @ ('`' | '~'))) if indent <= 3 && run(c) >= 3 => {
                open = Some((offset, c, run(c)));
            }
            (Some((start, c, n)), Some(m))
                if m == c && indent <= 3 && run(c) >= n && trimmed[run(c)..].trim().is_empty() =>
            {
                out.push(start..offset + line.len());
                open = None;
            }
            _ => {}
        }
        offset += line.len();
    }
    if let Some((start, _, _)) = open {
        out.push(start..text.len());
    }
    out
}

/// The end of a quoted string starting at `at` (the quote), or `None`.
fn skip_quoted(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote != b'`' => i += 2,
            q if q == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The index just after `close` from `from`, skipping quoted strings, or
/// `None`; also `None` past a blank line (a construct never spans one
/// unless it is content) or 4 KiB.
fn find_end(text: &str, from: usize, close: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    let limit = (from + 4096).min(text.len());
    while i < limit {
        // Bytes, not `str` slices: `i` may fall inside a character.
        let rest = &bytes[i..];
        if rest.starts_with(close.as_bytes()) {
            return Some(i + close.len());
        }
        if rest.starts_with(b"\n\n") || rest.starts_with(b"\r\n\r\n") {
            return None;
        }
        match bytes[i] {
            b'"' | b'`' | b'\'' => i = skip_quoted(text, i)?,
            _ => i += 1,
        }
    }
    None
}

/// `{{< … >}}` or `{{% … %}}` at `at`.
fn parse_hugo(text: &str, at: usize) -> Option<(Tag, usize)> {
    let rest = &text[at..];
    let close = if rest.starts_with("{{<") {
        ">}}"
    } else if rest.starts_with("{{%") {
        "%}}"
    } else {
        return None;
    };
    let open = &rest[..3];
    let end = find_end(text, at + 3, close)?;
    let inner = text[at + 3..end - 3].trim();
    if let Some(escaped) = inner.strip_prefix("/*").and_then(|i| i.strip_suffix("*/")) {
        return Some((
            Tag::Literal(format!("{open} {} {close}", escaped.trim())),
            end,
        ));
    }
    if let Some(name) = inner.strip_prefix('/') {
        return Some((
            Tag::Close {
                name: name.trim().to_string(),
            },
            end,
        ));
    }
    let (inner, closed) = match inner.strip_suffix('/') {
        Some(i) => (i.trim_end(), true),
        None => (inner, false),
    };
    let name_end = inner.find(char::is_whitespace).unwrap_or(inner.len());
    let name = &inner[..name_end];
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || "-_/.".contains(c))
    {
        return None;
    }
    Some((
        Tag::Open {
            name: name.to_string(),
            args: hugo_args(&inner[name_end..]),
            closed,
        },
        end,
    ))
}

/// Hugo's arguments: `"positional"`, `bare`, `key="value"`, `key=value`,
/// ``key=`raw` ``.
fn hugo_args(text: &str) -> Args {
    let mut args = Args::default();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (token, after) = token(rest);
        rest = after.trim_start();
        if let Some((key, value)) = split_named(&token) {
            args.named.push((key, value));
        } else {
            args.positional
                .push(unquote(&token).map_or(token.clone(), str::to_string));
        }
    }
    args
}

/// One argument token (a run without spaces outside quotes) and the rest.
fn token(text: &str) -> (String, &str) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
        match bytes[i] {
            b'"' | b'`' | b'\'' => i = skip_quoted(text, i).unwrap_or(bytes.len()),
            _ => i += 1,
        }
    }
    let i = i.min(text.len());
    (text[..i].to_string(), &text[i..])
}

/// `key=value` as the key and the value unquoted.
fn split_named(token: &str) -> Option<(String, String)> {
    let eq = token.find('=')?;
    let key = &token[..eq];
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let value = &token[eq + 1..];
    Some((
        key.to_string(),
        unquote(value).map_or(value.to_string(), str::to_string),
    ))
}

/// The inside of `"…"`, `'…'` or `` `…` `` (escapes of `"` undone), or
/// `None` when `text` is not quoted.
fn unquote(text: &str) -> Option<&str> {
    let text = text.trim();
    for q in ['"', '\'', '`'] {
        if text.len() >= 2 && text.starts_with(q) && text.ends_with(q) {
            return Some(&text[1..text.len() - 1]);
        }
    }
    None
}

/// A Liquid tag `{% … %}` or output `{{ … }}` at `at`.
fn parse_liquid(text: &str, at: usize) -> Option<(Tag, usize)> {
    let rest = &text[at..];
    if rest.starts_with("{{") {
        let end = find_end(text, at + 2, "}}")?;
        let inner = text[at + 2..end - 2].trim_matches('-').trim();
        if inner.is_empty() {
            return None;
        }
        return Some((Tag::Output(inner.to_string()), end));
    }
    if !rest.starts_with("{%") {
        return None;
    }
    let end = find_end(text, at + 2, "%}")?;
    let inner = text[at + 2..end - 2].trim_matches('-').trim();
    let name_end = inner.find(char::is_whitespace).unwrap_or(inner.len());
    let name = &inner[..name_end];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    if name.starts_with("end") && name.len() > 3 {
        return Some((
            Tag::Close {
                name: name.to_string(),
            },
            end,
        ));
    }
    let mut args = hugo_args(&inner[name_end..]);
    // `{% include x.html id="…" %}`, `{% youtube ID %}`; Liquid also
    // writes `key: value`.
    let mut positional = Vec::new();
    for p in args.positional.drain(..) {
        match p.split_once(':') {
            Some((k, v))
                if !k.is_empty()
                    && !v.starts_with("//")
                    && k.chars().all(|c| c.is_alphanumeric() || c == '_') =>
            {
                args.named
                    .push((k.to_string(), unquote(v).unwrap_or(v).to_string()))
            }
            _ => positional.push(p),
        }
    }
    args.positional = positional;
    Some((
        Tag::Open {
            name: name.to_string(),
            args,
            closed: false,
        },
        end,
    ))
}

/// Zola's `{{ name(args) }}`, `{% name(args) %}`, `{% end %}` and the
/// escapes `{{/* … */}}`, `{%/* … */%}` at `at`.
fn parse_zola(text: &str, at: usize) -> Option<(Tag, usize)> {
    let rest = &text[at..];
    let (close, block) = if rest.starts_with("{{") {
        ("}}", false)
    } else if rest.starts_with("{%") {
        ("%}", true)
    } else {
        return None;
    };
    let open = &rest[..2];
    if let Some(after) = rest[2..].strip_prefix("/*") {
        let end_rel = after.find(&format!("*/{close}"))?;
        let inner = &after[..end_rel];
        let end = at + 4 + end_rel + 2 + close.len();
        return Some((Tag::Literal(format!("{open}{inner}{close}")), end));
    }
    let end = find_end(text, at + 2, close)?;
    let inner = text[at + 2..end - 2].trim();
    if block && inner == "end" {
        return Some((Tag::Close { name: "end".into() }, end));
    }
    let paren = inner.find('(')?;
    let name = inner[..paren].trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || !inner.ends_with(')')
    {
        return None;
    }
    let args = zola_args(&inner[paren + 1..inner.len() - 1]);
    Some((
        Tag::Open {
            name: name.to_string(),
            args,
            closed: !block,
        },
        end,
    ))
}

/// Zola's arguments: `key=value` separated by commas.
fn zola_args(text: &str) -> Args {
    let mut args = Args::default();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut parts = Vec::new();
    let mut depth = 0i32;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' | b'`' => {
                i = skip_quoted(text, i).unwrap_or(bytes.len());
                continue;
            }
            b'[' => depth += 1,
            b']' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&text[start.min(text.len())..]);
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        match part.split_once('=') {
            Some((k, v)) => args.named.push((
                k.trim().to_string(),
                unquote(v).map_or(v.trim().to_string(), str::to_string),
            )),
            None => args
                .positional
                .push(unquote(part).unwrap_or(part).to_string()),
        }
    }
    args
}

/// `body` without kramdown's attribute lists (`{: .center}` on a line of
/// its own or after an image, `{:toc}` with the `* TOC` line before it):
/// styling of Jekyll's Markdown, which a book's theme does instead.
pub(crate) fn strip_kramdown(body: &str) -> String {
    let fences = fenced_ranges(body);
    let mut out = String::with_capacity(body.len());
    let mut offset = 0;
    let lines: Vec<&str> = body.split_inclusive('\n').collect();
    let is_ial = |l: &str| {
        let t = l.trim();
        t.starts_with("{:") && t.ends_with('}') && !t[1..].contains('{')
    };
    for (i, line) in lines.iter().enumerate() {
        let in_fence = fences.iter().any(|r| r.contains(&offset));
        offset += line.len();
        if in_fence {
            out.push_str(line);
            continue;
        }
        // A blank line in its place keeps the lines of later messages.
        let t = line.trim();
        if is_ial(line)
            || ((t == "* TOC" || t == "- TOC" || t == "1. TOC")
                && lines.get(i + 1).is_some_and(|n| is_ial(n)))
        {
            out.push('\n');
            continue;
        }
        // `![a](b.png){: .center}` keeps the image.
        let mut rest: &str = line;
        while let Some(at) = rest.find("){:") {
            let Some(end) = rest[at..].find('}') else {
                break;
            };
            out.push_str(&rest[..at + 1]);
            rest = &rest[at + end + 1..];
        }
        out.push_str(rest);
    }
    out
}

/// Where a Zola site is: its address and its languages, the default first.
pub(crate) struct ZolaSite<'a> {
    pub base_url: &'a str,
    pub languages: &'a [String],
}

impl ZolaSite<'_> {
    /// The address on the site of the page at content path `path`
    /// (`blog/post/index.es.md`): `<base>/es/blog/post/`, as Zola makes it.
    fn address(&self, path: &str, fragment: Option<&str>) -> String {
        let path = path.trim_start_matches('/');
        let (folder, file) = path.rsplit_once('/').unwrap_or(("", path));
        let stem = file.trim_end_matches(".md");
        let (stem, lang) = match stem.rsplit_once('.') {
            Some((s, l))
                if self
                    .languages
                    .iter()
                    .skip(1)
                    .any(|x| x.eq_ignore_ascii_case(l)) =>
            {
                (s, Some(l))
            }
            _ => (stem, None),
        };
        let mut page = String::new();
        if let Some(lang) = lang {
            page.push('/');
            page.push_str(lang);
        }
        for part in folder.split('/').filter(|p| !p.is_empty()) {
            page.push('/');
            page.push_str(part);
        }
        if stem != "index" && stem != "_index" {
            page.push('/');
            page.push_str(stem);
        }
        page.push('/');
        let fragment = fragment.map_or(String::new(), |f| format!("#{f}"));
        format!("{}{page}{fragment}", self.base_url.trim_end_matches('/'))
    }
}

/// Zola's internal links `@/path.md` in `body`, each passed to `resolve`;
/// one that names no post of the import leads to its page on the site
/// (`site`), or, when the site has no address, is reported at `place`.
pub(crate) fn zola_links(
    body: &str,
    place: &Place,
    resolve: &dyn Fn(&str) -> Option<String>,
    site: Option<&ZolaSite<'_>>,
    warnings: &mut Vec<Diagnostic>,
) -> String {
    crate::util::rewrite_destinations(body, &mut |target, dest, _, offset| {
        let Some(path) = dest.strip_prefix("@/") else {
            return crate::util::Rewrite::Keep;
        };
        if target == crate::util::Target::Image {
            return crate::util::Rewrite::Keep;
        }
        let (path, fragment) = match path.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (path, None),
        };
        match resolve(path) {
            Some(url) => crate::util::Rewrite::Dest(match fragment {
                Some(f) => format!("{url}#{f}"),
                None => url,
            }),
            None => match site {
                Some(site) => crate::util::Rewrite::Dest(site.address(path, fragment)),
                None => {
                    warnings.push(
                        place_in(place, body, offset)
                            .warning(format!("the link `{dest}` names no post of this import"))
                            .with_hint(
                                "fix the link after the import, or import the post it names",
                            ),
                    );
                    crate::util::Rewrite::Keep
                }
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(syntax: Syntax, body: &str) -> (String, Vec<String>) {
        let place = Place::new("content/p.md", Some(5));
        let cx = Context {
            syntax,
            place: &place,
            lang: "en",
            resolve: &|t: &str| (t.contains("other")).then(|| "/posts/other/".to_string()),
            variable: &|v: &str| (v == "site.title").then(|| "My Blog".to_string()),
        };
        let mut warnings = Vec::new();
        let out = convert(body, &cx, &mut warnings);
        (out, warnings.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn hugo_figures_code_and_refs() {
        let (out, w) = run(
            Syntax::Hugo,
            "Intro.\n\n{{< figure src=\"cat.jpg\" caption=\"A *cat*\" >}}\n\n{{< highlight go \"linenos=table\" >}}\nfmt.Println(1)\n{{< /highlight >}}\n\nSee [it]({{< ref \"posts/other.md\" >}}).\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("![A cat](cat.jpg)\n\n_A *cat*_"), "{out}");
        assert!(out.contains("```go\nfmt.Println(1)\n```"), "{out}");
        assert!(out.contains("[it](/posts/other/)"), "{out}");
        assert!(!out.contains("{{"), "{out}");
    }

    #[test]
    fn embeds_become_quoted_blocks() {
        let (out, w) = run(
            Syntax::Hugo,
            "{{< youtube id=\"abc_1\" title=\"Talk\" >}}\n\n{{< tweet user=\"jack\" id=\"20\" >}}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(
            out.contains(
                "> **Video (YouTube): Talk**\n>\n> <https://www.youtube.com/watch?v=abc_1>"
            ),
            "{out}"
        );
        assert!(out.contains("<https://x.com/jack/status/20>"), "{out}");
        let (out, _) = run(Syntax::Zola, "{{ youtube(id=\"xyz\") }}\n");
        assert!(out.contains("watch?v=xyz"), "{out}");
        let (out, _) = run(Syntax::Jekyll, "{% include youtube.html id=\"q1\" %}\n");
        assert!(out.contains("watch?v=q1"), "{out}");
    }

    #[test]
    fn details_keep_their_content_and_unknown_ones_are_visible_and_reported() {
        let (out, w) = run(
            Syntax::Hugo,
            "{{< details summary=\"More\" >}}\nHidden *text*.\n{{< /details >}}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("**More**\n\nHidden *text*."), "{out}");
        let (out, w) = run(
            Syntax::Hugo,
            "Before.\n\n{{< notice warning >}}\nCareful.\n{{< /notice >}}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("> **Warning**\n>\n> Careful."), "{out}");
        // One the theme made up: visible and reported.
        let (out, w) = run(Syntax::Hugo, "Before.\n\n{{< sparkle >}}\n");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("content/p.md:7: warning: the shortcode `sparkle`"),
            "{w:?}"
        );
        assert!(out.contains("> **sparkle**"), "{out}");
        assert!(out.contains(NOT_CONVERTED), "{out}");
        let (_, w) = run(Syntax::Jekyll, "{% include footer.html %}\n");
        assert!(w[0].contains("Liquid tag `include`"), "{w:?}");
    }

    #[test]
    fn themes_shortcodes_become_book_content_and_unknown_pairs_keep_their_text() {
        let (out, w) = run(
            Syntax::Hugo,
            "{{< image src=\"a.png\" alt=\"A cat\" >}}\n\n{{< code language=\"shell\" >}}\nls -l\n{{< /code >}}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("![A cat](a.png)"), "{out}");
        assert!(out.contains("```shell\nls -l\n```"), "{out}");
        // A theme's paired `table` and `raw` wrap plain Markdown: the text
        // stays, the wrapper goes, one warning per name.
        let (out, w) = run(
            Syntax::Hugo,
            "{{< table >}}\n| a | b |\n|---|---|\n| 1 | 2 |\n{{< /table >}}\n\n{{< table >}}\nMore *text*.\n{{< /table >}}\n\nAn {{< raw >}}inline{{< /raw >}} word.\n",
        );
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].contains("shortcode `table` is not something stoa knows"),
            "{w:?}"
        );
        assert!(w[1].contains("shortcode `raw`"), "{w:?}");
        assert!(out.contains("| a | b |\n|---|---|\n| 1 | 2 |"), "{out}");
        assert!(out.contains("More *text*."), "{out}");
        assert!(out.contains("An inline word."), "{out}");
        assert!(
            !out.contains("table") && !out.contains(NOT_CONVERTED),
            "{out}"
        );
    }

    #[test]
    fn liquid_assign_and_capture_set_the_variables_after_them() {
        let (out, w) = run(
            Syntax::Jekyll,
            "{% assign ficha_url = \"https://example.org/ficha: 1\" %}\n{%- assign n = 3 -%}\n{% assign same = ficha_url %}{% capture who %}  Ana *e* Bia {% endcapture %}\n[Ficha]({{ ficha_url }}) x{{ n }} {{ same }} por {{ who }}. {{ site.title }}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(
            out.contains("[Ficha](https://example.org/ficha: 1) x3 https://example.org/ficha: 1 por Ana *e* Bia. My Blog"),
            "{out}"
        );
        assert!(
            !out.contains("assign") && !out.contains(NOT_CONVERTED),
            "{out}"
        );
        // A value with filters is not evaluated: said once, nothing printed.
        let (out, w) = run(
            Syntax::Jekyll,
            "{% assign t = page.title | upcase %}{{ t }}\n",
        );
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("could not be evaluated"), "{w:?}");
        assert_eq!(out, "`t`\n");
    }

    #[test]
    fn liquid_code_raw_comments_and_variables() {
        let (out, w) = run(
            Syntax::Jekyll,
            "{% highlight ruby linenos %}\nputs 1\n{% endhighlight %}\n{% raw %}{{ x }}{% endraw %} {% comment %}no{% endcomment %}in {{ site.title }} ![a]({{ '/assets/a.png' | relative_url }}) {{ site.baseurl }}/b [p]({% post_url 2020-01-01-other %})\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("```ruby\nputs 1\n```"), "{out}");
        assert!(
            out.contains("{{ x }} in My Blog ![a](/assets/a.png) /b [p](/posts/other/)"),
            "{out}"
        );
        let (out, w) = run(Syntax::Jekyll, "{{ page.nope }}\n");
        assert_eq!(w.len(), 1);
        assert_eq!(out, "`page.nope`\n");
    }

    #[test]
    fn code_fences_keep_shortcodes_as_code_and_escapes_are_undone() {
        let (out, w) = run(
            Syntax::Hugo,
            "```\n{{< youtube x >}}\n```\n\n{{</* figure src=\"a\" */>}}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.starts_with("```\n{{< youtube x >}}\n```"), "{out}");
        assert!(out.contains("{{< figure src=\"a\" >}}"), "{out}");
    }

    #[test]
    fn zola_shortcodes_blocks_and_links() {
        let (out, w) = run(
            Syntax::Zola,
            "{% quote(author=\"Me\") %}\nWise.\n{% end %}\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("> Wise.\n>\n> — Me\n"), "{out}");
        let place = Place::new("content/p.md", Some(1));
        let mut warnings = Vec::new();
        let out = zola_links(
            "[a](@/blog/other.md#x) [b](@/nope.md)\n",
            &place,
            &|p: &str| p.contains("other").then(|| "/blog/other/".to_string()),
            None,
            &mut warnings,
        );
        assert_eq!(out, "[a](/blog/other/#x) [b](@/nope.md)\n");
        assert_eq!(warnings.len(), 1);
        // With the site's address, a page not imported is linked there.
        let languages = ["en".to_string(), "es".to_string()];
        let site = ZolaSite {
            base_url: "https://example.org/tabi/",
            languages: &languages,
        };
        let mut warnings = Vec::new();
        let out = zola_links(
            "[a](@/blog/settings/index.es.md#busqueda) [b](@/blog/faq.md)\n",
            &place,
            &|_: &str| None,
            Some(&site),
            &mut warnings,
        );
        assert_eq!(
            out,
            "[a](https://example.org/tabi/es/blog/settings/#busqueda) [b](https://example.org/tabi/blog/faq/)\n"
        );
        assert!(warnings.is_empty());
    }

    #[test]
    fn broken_constructs_are_text() {
        let (out, w) = run(Syntax::Hugo, "a {{< unclosed\n\nb {{ plain }}\n");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(out, "a {{< unclosed\n\nb {{ plain }}\n");
    }

    #[test]
    fn kramdown_attribute_lists_are_dropped() {
        let body = "* TOC\n{:toc}\n\n![a](b.png){: .center width=\"50%\"}\n{: .note}\nText.\n\n```\n{: kept}\n```\n";
        assert_eq!(
            strip_kramdown(body),
            "\n\n\n![a](b.png)\n\nText.\n\n```\n{: kept}\n```\n"
        );
    }

    #[test]
    fn text_around_and_inside_is_any_unicode() {
        let (out, w) = run(
            Syntax::Hugo,
            "Ação {{< figure src=\"a.png\" caption=\"Pórtico — “ἡ στοά”\" >}} é {{< fim\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(out.contains("_Pórtico — “ἡ στοά”_"), "{out}");
        for syntax in [Syntax::Hugo, Syntax::Jekyll, Syntax::Zola] {
            for body in [
                "{{ ç",
                "{% é %",
                "{{< ã \"õ",
                "{{ f(a=\"ü\") }",
                "{%/* ç",
                "ç{{",
                "{{/* ü */}}",
            ] {
                let _ = run(syntax, body);
            }
        }
    }

    #[test]
    fn raw_tags_in_a_highlight_show_nothing() {
        let code = "{% raw %}\n{{ site.hello }}\n{% endraw %}\n<p>{%- raw -%}{{ x }}{%- endraw -%}</p>\n{% if a %}\n";
        assert_eq!(
            without_raw_tags(code),
            "{{ site.hello }}\n<p>{{ x }}</p>\n{% if a %}\n"
        );
    }

    #[test]
    fn no_input_makes_it_panic() {
        // A fixed pseudo-random walk over the characters that matter.
        let alphabet: Vec<char> = "{}<>%/*\"'`()=,[] \n#-_aé€𝄞|.:".chars().collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..3000 {
            let mut body = String::new();
            for _ in 0..40 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                body.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            for syntax in [Syntax::Hugo, Syntax::Jekyll, Syntax::Zola] {
                let _ = run(syntax, &body);
            }
            let _ = strip_kramdown(&body);
            let _ = crate::util::rewrite_destinations(&body, &mut |_, _, _, _| {
                crate::util::Rewrite::Dest("x y".into())
            });
        }
    }
}
