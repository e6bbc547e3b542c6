use super::*;
use proptest::prelude::*;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

fn md(html: &str) -> String {
    to_markdown(html).markdown
}

/// Images found at `a.png` and `b.png`, none else.
fn with_images(html: &str) -> Converted {
    let mut resolve = |src: &str| match src {
        "a.png" | "https://blog.example/wp-content/uploads/b.png" => {
            ImageSource::Local(src.rsplit('/').next().unwrap_or(src).to_string())
        }
        _ => ImageSource::Unavailable("not in the export".into()),
    };
    convert(
        html,
        &Options {
            link_base: Some("https://blog.example"),
        },
        &mut resolve,
    )
}

/// The text of a Markdown document as stoa's parser reads it (no smart
/// punctuation: that changes quotes on purpose).
fn text_of(markdown: &str) -> String {
    let mut out = String::new();
    for e in Parser::new_ext(markdown, stoa_markdown::VERBATIM_OPTIONS) {
        match e {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push('\n'),
            Event::Html(h) | Event::InlineHtml(h) => out.push_str(&format!("<HTML {h}>")),
            Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph) => {}
            Event::Start(t) => out.push_str(&format!("<{t:?}>")),
            Event::End(t) => out.push_str(&format!("</{t:?}>")),
            other => out.push_str(&format!("<{other:?}>")),
        }
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Text in a paragraph comes back from the Markdown as the same text
    /// (with HTML's whitespace folding), whatever Markdown syntax it holds.
    #[test]
    fn text_survives_the_round_trip(text in "[ -~«»“”é\u{a0}]{0,60}") {
        let html = format!("<p>{}</p>", html_escape(&text));
        let markdown = md(&html);
        let mut expected = space::fold_space(&text).trim_matches(' ').to_string();
        // A paragraph of no-break spaces only (WordPress's `<p>&nbsp;</p>`)
        // is an empty one, left out.
        if expected.chars().all(char::is_whitespace) {
            expected.clear();
        }
        prop_assert_eq!(text_of(&markdown), expected, "markdown: {:?}", markdown);
    }

    /// The same for text split by line breaks and set in emphasis.
    #[test]
    fn lines_and_emphasis_survive(a in "[ -~]{1,30}", b in "[ -~]{1,30}") {
        let html = format!("<p>{}<br>{}</p>", html_escape(&a), html_escape(&b));
        let markdown = md(&html);
        let (a, b) = (space::fold_space(&a).trim().to_string(), space::fold_space(&b).trim().to_string());
        let expected = match (a.is_empty(), b.is_empty()) {
            (false, false) => format!("{a}\n{b}"),
            (true, _) => b,
            (_, true) => a,
        };
        prop_assert_eq!(text_of(&markdown), expected, "markdown: {:?}", markdown);
    }

    /// The same in every block that holds text: a heading, a list item, a
    /// quotation, a table cell, a caption, a footnote.
    #[test]
    fn text_survives_in_every_block(text in "[ -~é“]{1,40}", block in 0usize..6) {
        let t = html_escape(&text);
        let html = match block {
            0 => format!("<h2>{t}</h2>"),
            1 => format!("<ul><li>{t}</li></ul>"),
            2 => format!("<blockquote><p>{t}</p></blockquote>"),
            3 => format!("<table><tr><th>{t}</th></tr><tr><td>{t}</td></tr></table>"),
            4 => format!("<figure><img src=\"a.png\" alt=\"x\"><figcaption>{t}</figcaption></figure>"),
            _ => format!("<p>a<sup><a href=\"#n\">1</a></sup></p><ol class=\"wp-block-footnotes\"><li id=\"n\">{t}</li></ol>"),
        };
        let markdown = with_images(&html).markdown;
        let mut expected = space::fold_space(&text).trim_matches(' ').to_string();
        if expected.chars().all(char::is_whitespace) {
            expected.clear();
        }
        let mut got = String::new();
        for e in Parser::new_ext(&markdown, stoa_markdown::VERBATIM_OPTIONS) {
            match e {
                Event::Text(x) | Event::Code(x) => got.push_str(&x),
                Event::Html(_) | Event::InlineHtml(_) => got.push_str("<HTML>"),
                _ => got.push('\u{1}'),
            }
        }
        let pieces: Vec<&str> = got.split('\u{1}').filter(|p| !p.is_empty()).collect();
        let wanted = match block {
            3 => vec![expected.as_str(), expected.as_str()],
            4 => vec!["x", expected.as_str()],
            5 => vec!["a", expected.as_str()],
            _ => vec![expected.as_str()],
        };
        let wanted: Vec<&str> = wanted.into_iter().filter(|p| !p.is_empty()).collect();
        prop_assert_eq!(pieces, wanted, "markdown: {:?}", markdown);
    }

    /// No input panics.
    #[test]
    fn anything_converts(html in "(<[a-z/!]{0,4}[ a-z=\"'#]{0,8}>?|[ -~]{0,5}|&[a-z#0-9]{0,5};?){0,40}") {
        let _ = md(&html);
    }
}

#[test]
fn headings_shift_to_start_at_two() {
    assert_eq!(md("<h1>A</h1><p>x</p><h2>B</h2>"), "## A\n\nx\n\n### B\n");
    assert_eq!(md("<h3>A</h3><h4>B</h4>"), "## A\n\n### B\n");
    assert_eq!(
        md("<h2>C# and #tags {x}</h2>"),
        "## C\\# and \\#tags \\{x\\}\n"
    );
}

#[test]
fn emphasis_links_and_code() {
    assert_eq!(
        md(
            "<p>Some <em>italic</em>, <strong>bold </strong>and <a href=\"https://x.org/a b\" title=\"T\">a link</a> with <code>a`b</code>.</p>"
        ),
        "Some *italic*, **bold** and [a link](https://x.org/a%20b \"T\") with ``a`b``.\n"
    );
    assert_eq!(
        md("<p><s>gone</s> <b><b>nested</b></b></p>"),
        "~~gone~~ **nested**\n"
    );
    assert_eq!(
        md("<p>snake_case and _under_ *star*</p>"),
        "snake_case and \\_under\\_ \\*star\\*\n"
    );
}

#[test]
fn dangerous_links_keep_their_words() {
    let c = to_markdown("<p><a href=\"javascript:alert(1)\">click</a></p>");
    assert_eq!(c.markdown, "click\n");
    assert!(
        c.warnings[0].contains("not a web address"),
        "{:?}",
        c.warnings
    );
    assert_eq!(
        with_images("<p><a href=\"/about/\">me</a></p>").markdown,
        "[me](https://blog.example/about/)\n"
    );
}

#[test]
fn lists_nest() {
    let html = "<ul><li>one</li><li>two<ul><li>two.a</li><li>two.b<ol start=\"3\"><li>deep</li></ol></li></ul></li><li>three</li></ul>";
    assert_eq!(
        md(html),
        "- one\n- two\n  - two.a\n  - two.b\n    3. deep\n- three\n"
    );
    let loose = "<ol><li><p>first</p><p>more</p></li><li><p>second</p></li></ol>";
    assert_eq!(md(loose), "1. first\n\n   more\n\n2. second\n");
}

#[test]
fn code_blocks_keep_their_language() {
    assert_eq!(
        md(
            "<pre class=\"wp-block-code\"><code class=\"language-rust\">fn main() {\n    println!(\"&lt;hi&gt;\");\n}\n</code></pre>"
        ),
        "```rust\nfn main() {\n    println!(\"<hi>\");\n}\n```\n"
    );
    assert_eq!(
        md("<pre class=\"brush: php; title: ; notranslate\">echo 1;</pre>"),
        "```php\necho 1;\n```\n"
    );
    assert_eq!(
        md("<pre><code class=\"lang-js\">a ``` b</code></pre>"),
        "````js\na ``` b\n````\n"
    );
    assert_eq!(
        md("<pre><code><span class=\"k\">let</span> x</code></pre>"),
        "```\nlet x\n```\n"
    );
}

#[test]
fn quotes_tables_and_rules() {
    assert_eq!(
        md("<blockquote><p>a</p><p>b</p></blockquote><hr>"),
        "> a\n>\n> b\n\n---\n"
    );
    let table = "<figure class=\"wp-block-table\"><table><thead><tr><th>A</th><th>B|C</th></tr></thead><tbody><tr><td>1</td><td><code>x|y</code></td></tr><tr><td colspan=\"2\">wide</td></tr></tbody></table><figcaption>Numbers</figcaption></figure>";
    assert_eq!(
        md(table),
        "| A | B\\|C |\n| --- | --- |\n| 1 | `x\\|y` |\n| wide |  |\n\n*Numbers*\n"
    );
}

#[test]
fn images_with_captions_and_remote_images() {
    let c = with_images(
        "<figure class=\"wp-block-image\"><a href=\"https://blog.example/wp-content/uploads/b.png\"><img src=\"/wp-content/uploads/b.png\" alt=\"\"></a><figcaption>A <em>bee</em></figcaption></figure>",
    );
    assert_eq!(c.markdown, "![A bee](b.png)\n\n*A bee*\n");
    let c = with_images(
        "<p><img src=\"https://cdn.example/x.jpg\" alt=\"cat\"> and <img src=\"../../etc/passwd\"></p>",
    );
    assert_eq!(
        c.markdown,
        "[Image: cat](https://cdn.example/x.jpg) and \\[Image\\]\n"
    );
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert!(c.warnings[0].contains("not in the export"));
}

#[test]
fn furniture_is_dropped() {
    let html = r#"<p>text</p>
        <div class="subscription-widget-wrap"><form><input type="email"><button>Subscribe</button></form></div>
        <div class="wp-block-buttons"><div class="wp-block-button"><a class="wp-block-button__link">Buy</a></div></div>
        <p class="button-wrapper"><a class="button primary" href="https://x.substack.com/subscribe">Subscribe now</a></p>
        <div class="sharedaddy">Share this</div>
        <script>alert(1)</script><style>p{}</style>
        <iframe src="https://googleads.g.doubleclick.net/pagead/ads"></iframe>
        <p>end</p>"#;
    assert_eq!(md(html), "text\n\nend\n");
}

#[test]
fn embeds_become_framed_blocks() {
    let yt = md(
        r#"<iframe width="560" src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" title="Never gonna"></iframe>"#,
    );
    assert_eq!(
        yt,
        "> **YouTube video: Never gonna**\n>\n> [https://www.youtube.com/watch?v=dQw4w9WgXcQ](https://www.youtube.com/watch?v=dQw4w9WgXcQ)\n"
    );
    let tweet = md(
        r#"<blockquote class="twitter-tweet"><p lang="en">Hello *world*</p>&mdash; Someone (@some) <a href="https://twitter.com/some/status/1">May 1, 2020</a></blockquote><script async src="https://platform.twitter.com/widgets.js"></script>"#,
    );
    assert!(tweet.starts_with("> **Post on X (Twitter)**\n>\n> Hello \\*world\\*\n>\n> [https://twitter.com/some/status/1]"), "{tweet}");
    let gist = md(r#"<script src="https://gist.github.com/someone/abc123.js"></script>"#);
    assert!(
        gist.contains("[https://gist.github.com/someone/abc123]"),
        "{gist}"
    );
    let wp = md(
        r#"<figure class="wp-block-embed is-type-video is-provider-vimeo"><div class="wp-block-embed__wrapper">
https://vimeo.com/76979871
</div><figcaption>A film</figcaption></figure>"#,
    );
    assert!(
        wp.starts_with("> **Vimeo video**\n>\n> *A film*\n>\n> [https://vimeo.com/76979871]"),
        "{wp}"
    );
    let sub = md(
        r#"<div class="embedded-post-wrap" data-attrs="{&quot;url&quot;:&quot;https://a.substack.com/p/x&quot;,&quot;title&quot;:&quot;Other post&quot;}"><div class="embedded-post"><div class="embedded-post-title">Other post</div></div></div>"#,
    );
    assert!(sub.starts_with("> **Post: Other post**"), "{sub}");
    assert!(sub.contains("(https://a.substack.com/p/x)"), "{sub}");
    let ghost = md(
        r#"<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="https://ghost.org/"><div class="kg-bookmark-content"><div class="kg-bookmark-title">Ghost</div><div class="kg-bookmark-description">Publishing</div></div></a></figure>"#,
    );
    assert!(
        ghost.starts_with("> **Bookmark: Ghost**\n>\n> Publishing\n>\n> [https://ghost.org/]"),
        "{ghost}"
    );
}

#[test]
fn footnotes_of_each_tool() {
    // WordPress's footnotes block.
    let wp = md(
        r##"<p>Claim<sup data-fn="f1" class="fn"><a href="#f1" id="f1-link">1</a></sup>.</p><ol class="wp-block-footnotes"><li id="f1">The source. <a href="#f1-link" aria-label="Jump to footnote reference 1">↩︎</a></li></ol>"##,
    );
    assert_eq!(wp, "Claim[^1].\n\n[^1]: The source.\n");
    // Substack.
    let ss = md(
        r##"<p>Claim<a class="footnote-anchor" data-component-name="FootnoteAnchorToDOM" id="footnote-anchor-1" href="#footnote-1" target="_self">1</a> and more<a class="footnote-anchor" id="footnote-anchor-2" href="#footnote-2">2</a>.</p><div class="footnote" data-component-name="FootnoteToDOM"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number" contenteditable="false" target="_self">1</a><div class="footnote-content"><p>First.</p><p>Second paragraph.</p></div></div><div class="footnote"><a id="footnote-2" href="#footnote-anchor-2" class="footnote-number">2</a><div class="footnote-content"><p>Other.</p></div></div>"##,
    );
    assert_eq!(
        ss,
        "Claim[^1] and more[^2].\n\n[^1]: First.\n\n    Second paragraph.\n\n[^2]: Other.\n"
    );
    // markdown-it (Ghost's Markdown card), in reference order.
    let gh = md(
        r##"<p>A<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup> B<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup></p><hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list"><li id="fn1" class="footnote-item"><p>One <a href="#fnref1" class="footnote-backref">↩︎</a></p></li><li id="fn2" class="footnote-item"><p>Two <a href="#fnref2" class="footnote-backref">↩︎</a></p></li></ol></section>"##,
    );
    assert_eq!(gh, "A[^1] B[^2]\n\n[^1]: Two\n\n[^2]: One\n");
    // What pulldown-cmark reads back: references and definitions.
    let events: Vec<_> = Parser::new_ext(&ss, stoa_markdown::PARSER_OPTIONS).collect();
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::FootnoteReference(_)))
            .count(),
        2
    );
}

#[test]
fn unknown_elements_keep_their_text_and_are_reported() {
    let c =
        to_markdown("<p>a <blink>b</blink> <x-widget>c</x-widget></p><marquee><p>d</p></marquee>");
    assert_eq!(c.markdown, "a b c\n\nd\n");
    assert_eq!(c.warnings.len(), 3, "{:?}", c.warnings);
    assert!(c.warnings.iter().any(|w| w.contains("<marquee>")));
}

#[test]
fn broken_markup_is_read_as_a_browser_reads_it() {
    assert_eq!(
        md("<p>one<p>two <b>bold <i>both</b> italic</i>"),
        "one\n\ntwo **bold *both*** *italic*\n"
    );
    assert_eq!(
        md("<table><tr><td>a</td>stray</table>"),
        "stray\n\n| a |\n| --- |\n"
    );
    assert_eq!(
        md("line one<br><br>line two<br>three"),
        "line one\n\nline two\\\nthree\n"
    );
    assert_eq!(md("<p>&nbsp;</p><p></p>"), "");
}

#[test]
fn hostile_nesting_is_cut_not_overflowed() {
    let html = "<blockquote>".repeat(400) + "deep" + &"</blockquote>".repeat(400);
    let c = to_markdown(&html);
    assert!(c.markdown.contains("deep"));
    assert!(
        c.warnings.iter().any(|w| w.contains("nested")),
        "{:?}",
        c.warnings
    );
    // What stoa reads: at most 256 levels.
    assert!(c.markdown.lines().all(|l| l.matches('>').count() <= 100));
    let html = "<div><span><em>".repeat(100_000) + "x";
    let started = std::time::Instant::now();
    let c = to_markdown(&html);
    assert!(c.markdown.contains('x'));
    assert!(c.warnings[0].contains("plain text"), "{:?}", c.warnings);
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn plain_text_of_titles() {
    assert_eq!(
        plain_text("Tom &amp; <b>Jerry</b>\n  again"),
        "Tom & Jerry again"
    );
}

#[test]
fn media_without_a_web_address_is_reported() {
    let c = to_markdown(
        "<figure class=\"kg-card kg-video-card\"><video src=\"/content/media/owl.mp4\"></video></figure><p>after</p>",
    );
    assert_eq!(c.markdown, "after\n");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("<video> (`/content/media/owl.mp4`) cannot be part of a book")),
        "{:?}",
        c.warnings
    );
    let c = to_markdown(
        "<iframe src=\"https://www.google.com/maps/embed?pb=1\" title=\"Map\"></iframe>",
    );
    assert!(
        c.markdown.starts_with("> **Embedded content: Map**"),
        "{}",
        c.markdown
    );
    // A video on the web (GitHub's attachments, as AstroPaper's posts
    // show them) is said to be one.
    let c = to_markdown(
        "<video autoplay muted=\"muted\"><source src=\"https://github.com/o/r/assets/1/18fd\" type=\"video/mp4\"></video>",
    );
    assert!(
        c.markdown
            .starts_with("> **Video**\n>\n> [https://github.com/o/r/assets/1/18fd]"),
        "{}",
        c.markdown
    );
}

#[test]
fn superscripts_subscripts_and_marks_stay_the_elements_stoa_reads() {
    let md =
        to_markdown("<p>E = mc<sup>2</sup>, H<sub>2</sub>O, <mark>this</mark>, <sup> </sup>x</p>")
            .markdown;
    assert_eq!(
        md,
        "E = mc<sup>2</sup>, H<sub>2</sub>O, <mark>this</mark>, x\n"
    );
    let parsed = stoa_markdown::parse(&md, 1);
    let text = format!("{:?}", parsed.blocks);
    assert!(
        text.contains("Superscript") && text.contains("Subscript") && text.contains("Highlight"),
        "{text}"
    );
}

#[test]
fn embeds_and_objects_are_framed_links_like_frames() {
    let md = md(
        "<embed src=\"https://example.com/a.swf\"><object data=\"https://example.com/doc.pdf\">fallback</object>",
    );
    assert!(md.contains("https://example.com/a.swf"), "{md}");
    assert!(md.contains("https://example.com/doc.pdf"), "{md}");
    assert!(!md.contains("fallback"), "{md}");
}
