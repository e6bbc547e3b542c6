use super::*;
use stoa_doc::{Align, Block, Inline, inlines_text};

fn only(md: &str) -> Block {
    let mut parsed = parse(md, 1);
    assert_eq!(parsed.blocks.len(), 1, "{:#?}", parsed.blocks);
    parsed.blocks.remove(0)
}

fn para_text(md: &str) -> String {
    match only(md) {
        Block::Paragraph { content } => inlines_text(&content),
        other => panic!("not a paragraph: {other:?}"),
    }
}

#[test]
fn smart_punctuation_and_bound_question_marks() {
    assert_eq!(
        para_text("\"Sim\" -- disse ele --- não é ?"),
        "“Sim”\u{a0}– disse ele\u{a0}— não é\u{a0}?"
    );
}

#[test]
fn what_only_looks_like_html_is_text_and_comments_vanish() {
    let Block::Paragraph { content } =
        only("Use List<String> and Map<Object> here<br>now <!-- x -->")
    else {
        panic!()
    };
    assert_eq!(
        content,
        vec![
            Inline::text("Use List<String> and Map<Object> here"),
            Inline::LineBreak,
            Inline::text("now "),
        ]
    );
    assert_eq!(
        para_text(
            "<String>
<Map>
"
        ),
        "<String> <Map>"
    );
}

/// The (role, text) of every span with a role in a paragraph.
fn roles(content: &[Inline]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for inline in content {
        if let Inline::Span {
            role: Some(role),
            content,
            ..
        } = inline
        {
            found.push((role.name().to_string(), inlines_text(content)));
        }
        found.extend(roles(inline.children()));
    }
    found
}

#[test]
fn phrase_elements_become_what_they_mean() {
    let parsed = parse(
        "H<sub>2</sub>O, mc<sup>2</sup>, <kbd>Ctrl</kbd>, <mark>this</mark>, \
         <abbr title=\"HyperText\">HTML</abbr>, <u>under</u>, <b>bold</b>, \
         <i>it</i>, <del>gone</del>, <code>x<y</code>, <q>said</q>, \
         <font color=red>red</font>, <a href=\"https://a.b\">link</a>",
        1,
    );
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let Block::Paragraph { content } = &parsed.blocks[0] else {
        panic!()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        roles(content),
        pairs(&[
            ("subscript", "2"),
            ("superscript", "2"),
            ("keyboard", "Ctrl"),
            ("highlight", "this"),
            ("abbreviation", "HTML"),
            ("underline", "under"),
        ])
    );
    assert!(content.iter().any(|i| matches!(i, Inline::Span { attrs, .. } if attrs.get("title").is_some_and(|t| t == "HyperText"))));
    assert!(content.contains(&Inline::Strong {
        content: vec![Inline::text("bold")]
    }));
    assert!(content.contains(&Inline::Emph {
        content: vec![Inline::text("it")]
    }));
    assert!(content.contains(&Inline::Strike {
        content: vec![Inline::text("gone")]
    }));
    assert!(content.contains(&Inline::Code { text: "x<y".into() }));
    assert!(
        content
            .iter()
            .any(|i| matches!(i, Inline::Link { url, .. } if url == "https://a.b"))
    );
    let text = inlines_text(content);
    assert!(text.contains("“said”") && text.contains(" red, "), "{text}");
    assert!(!text.contains('<') || text.contains("x<y"), "{text}");
}

#[test]
fn misnested_and_unclosed_elements_close_as_a_browser_closes_them() {
    let Block::Paragraph { content } = only("a <b>bold <i>both</b> after</i> <sup>open") else {
        panic!()
    };
    let text = inlines_text(&content);
    assert_eq!(text, "a bold both after open");
    assert!(
        matches!(&content[1], Inline::Strong { content } if inlines_text(content) == "bold both")
    );
    assert_eq!(roles(&content), [("superscript".into(), "open".into())]);
}

#[test]
fn scripts_are_dropped_and_unknown_elements_keep_their_text_with_a_warning() {
    let parsed = parse(
        "Before <script>alert(1)</script> <blink>on</blink> <blink>off</blink>.",
        4,
    );
    let Block::Paragraph { content } = &parsed.blocks[0] else {
        panic!()
    };
    assert_eq!(inlines_text(content), "Before  on off.");
    let messages: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].1.contains("`<script>` is left out"),
        "{messages:?}"
    );
    assert!(
        messages[1].1.contains("`<blink>` is not one stoa reads"),
        "{messages:?}"
    );
    assert_eq!(messages[0].0, Some(4));
}

#[test]
fn an_image_in_html_is_the_posts_file_or_a_link_with_a_warning() {
    let parsed = parse(
        "A <img src=\"pic.png\" alt=\"Pic\" width=20> and <img src=\"https://x.org/a.png\" alt=\"web\">\n\n\
         <p align=\"center\"><img src=\"b.jpg\" alt=\"B\"></p>\n",
        10,
    );
    let urls: Vec<_> = parsed
        .images
        .iter()
        .map(|i| (i.url.as_str(), i.pos.line))
        .collect();
    assert_eq!(urls, [("pic.png", 10), ("b.jpg", 12)]);
    let Block::Paragraph { content } = &parsed.blocks[0] else {
        panic!()
    };
    assert!(content.contains(&Inline::Image {
        url: "pic.png".into(),
        alt: "Pic".into(),
        title: String::new()
    }));
    assert!(content.iter().any(|i| matches!(i, Inline::Link { url, content, .. } if url == "https://x.org/a.png" && inlines_text(content) == "web")));
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert!(parsed.diagnostics[0].message.contains("is on the web"));
    assert!(
        matches!(&parsed.blocks[1], Block::Paragraph { content } if matches!(content.as_slice(), [Inline::Image { url, .. }] if url == "b.jpg"))
    );
}

#[test]
fn html_blocks_are_read_as_html() {
    let md = "<center>Centred *words*.</center>\n\n\
        <div align=\"center\">\n\n**Markdown inside.**\n\n</div>\n\n\
        <table>\n<tr><th>Name</th><th>Value</th></tr>\n<tr><td>a</td><td>1</td></tr>\n</table>\n\n\
        <details>\n<summary>More</summary>\n<p>Folded.</p>\n</details>\n\n\
        <iframe src=\"https://www.youtube.com/embed/abc\" title=\"Talk\"></iframe>\n\n\
        <h2>A heading</h2>\n\n## A heading\n\n<style>p { color: red }</style>\n";
    let parsed = parse(md, 1);
    let kinds: Vec<String> = parsed
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph { content } => format!("p:{}", inlines_text(content)),
            Block::Table { head, rows, .. } => format!("table:{}x{}", head.len(), rows.len()),
            Block::Heading { id, .. } => format!("h:{id}"),
            Block::Quote { blocks } => format!("quote:{}", blocks.len()),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds[0], "p:Centred *words*.");
    assert_eq!(kinds[1], "p:Markdown inside.");
    assert_eq!(kinds[2], "table:2x1");
    assert_eq!(kinds[3..5], ["p:More".to_string(), "p:Folded.".to_string()]);
    assert!(kinds[5].starts_with("quote:"), "an embed: {kinds:?}");
    assert_eq!(
        kinds[6..],
        ["h:a-heading".to_string(), "h:a-heading-2".to_string()]
    );
    let all = format!("{:?}", parsed.blocks);
    assert!(
        all.contains("https://www.youtube.com/watch?v=abc")
            || all.contains("youtube.com/embed/abc"),
        "{all}"
    );
    assert!(
        !all.contains("<center") && !all.contains("<td") && !all.contains("color: red"),
        "{all}"
    );
    let messages: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["the HTML element `<style>` is left out: a book cannot hold it"]
    );
}
#[test]
fn javascript_links_are_dropped_with_a_warning() {
    let parsed = parse(
        "intro\n\n[click](javascript:alert(1)) and [ok](https://a.b)",
        3,
    );
    let Block::Paragraph { content } = &parsed.blocks[1] else {
        panic!()
    };
    assert_eq!(content[0], Inline::text("click and "));
    assert!(matches!(&content[1], Inline::Link { url, .. } if url == "https://a.b"));
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].line, Some(5));
}

#[test]
fn a_link_with_no_address_is_its_text_with_a_warning() {
    let parsed = parse("intro\n\nsee [the docs]() and [this]( <> ) now", 3);
    let Block::Paragraph { content } = &parsed.blocks[1] else {
        panic!()
    };
    assert_eq!(content, &vec![Inline::text("see the docs and this now")]);
    assert_eq!(parsed.diagnostics.len(), 2, "{:?}", parsed.diagnostics);
    let first = &parsed.diagnostics[0];
    assert!(first.message.contains("no address"), "{first}");
    assert_eq!((first.line, first.column), (Some(5), Some(5)));
}

/// The targets of the links among `content`, in order.
fn link_urls(content: &[Inline]) -> Vec<&str> {
    content
        .iter()
        .filter_map(|i| match i {
            Inline::Link { url, .. } => Some(url.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_web_address_without_its_scheme_is_an_https_link() {
    let Block::Paragraph { content } = only("[site](<www.example.com/a b>) and [up](WWW.X.org)")
    else {
        panic!()
    };
    let urls = link_urls(&content);
    assert_eq!(urls, ["https://www.example.com/a%20b", "https://WWW.X.org"]);
    // A file whose name starts so is not a web address: it has a folder
    // or an extension, never a bare `www.` host; it names no post either.
    let Block::Paragraph { content } = only("[f](./www.notes.md)") else {
        panic!()
    };
    assert_eq!(content, [Inline::text("f")]);
}

#[test]
fn obfuscated_schemes_are_caught() {
    assert_eq!(scheme_of("JaVaScRiPt:x"), Some("JaVaScRiPt".into()));
    assert_eq!(scheme_of("java&#9;script:x"), Some("javascript".into()));
    assert_eq!(scheme_of("../a:b"), None);
    assert_eq!(scheme_of("#note"), None);
}

fn scheme_of(url: &str) -> Option<String> {
    let parsed = parse(&format!("[a]({url})"), 1);
    let dropped = parsed
        .diagnostics
        .iter()
        .find(|d| d.message.starts_with("link to `"));
    dropped.map(|d| {
        d.message
            .trim_start_matches("link to `")
            .split(':')
            .next()
            .unwrap()
            .to_string()
    })
}

#[test]
fn headings_get_unique_ids() {
    let parsed = parse("## Nota\n\n## Nota\n\n## Custom {#mine}", 1);
    let ids: Vec<_> = parsed
        .blocks
        .iter()
        .map(|b| match b {
            Block::Heading { id, level, .. } => (id.clone(), *level),
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        ids,
        [("nota".into(), 2), ("nota-2".into(), 2), ("mine".into(), 2)]
    );
}

#[test]
fn tight_and_loose_lists() {
    let Block::List { tight, items, .. } = only("- a\n- b\n  - c\n") else {
        panic!()
    };
    assert!(tight);
    assert_eq!(items.len(), 2);
    assert!(matches!(items[1].blocks[1], Block::List { .. }));
    let Block::List { tight, .. } = only("- a\n\n- b\n") else {
        panic!()
    };
    assert!(!tight);
}

#[test]
fn code_keeps_everything_verbatim() {
    let Block::Code { lang, text } = only("```java\nif (a < b && c) { x = \"]]>\"; }\n```") else {
        panic!()
    };
    assert_eq!(lang.as_deref(), Some("java"));
    assert_eq!(text, "if (a < b && c) { x = \"]]>\"; }\n");
}

#[test]
fn tables_have_full_rows() {
    let Block::Table { align, head, rows } = only("| a | b |\n|:--|--:|\n| 1 |\n") else {
        panic!()
    };
    assert_eq!(align, [Align::Left, Align::Right]);
    assert_eq!(head.len(), 2);
    assert_eq!(rows[0].len(), 2);
}

#[test]
fn footnotes_and_images() {
    let parsed = parse("Text[^1] ![alt *x*](img.png \"t\")\n\n[^1]: The note.", 10);
    assert!(matches!(&parsed.blocks[1], Block::FootnoteDef { label, .. } if label == "1"));
    assert_eq!(parsed.images[0].url, "img.png");
    assert_eq!(
        parsed.images[0].pos,
        Pos {
            line: 10,
            column: 10
        }
    );
    let Block::Paragraph { content } = &parsed.blocks[0] else {
        panic!()
    };
    assert!(matches!(&content[3], Inline::Image { alt, .. } if alt == "alt x"));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let quotes = ">".repeat(200) + " deep";
    assert!(!parse(&quotes, 1).blocks.is_empty());
    let list: String = (0..200)
        .map(|i| format!("{}- item {i}\n", "  ".repeat(i)))
        .collect();
    assert!(!parse(&list, 1).blocks.is_empty());
}

#[test]
fn empty_body_is_empty() {
    assert!(parse("", 1).blocks.is_empty());
    assert!(parse("\n\n", 1).blocks.is_empty());
}

#[test]
fn undefined_and_unused_notes_are_warnings_with_lines() {
    let parsed = parse(
        "One[^a] two[^missing].\n\n[^a]: used\n\n[^spare]: unused\n",
        4,
    );
    let messages: Vec<String> = parsed
        .diagnostics
        .iter()
        .map(|d| format!("{}:{} {}", d.line.unwrap(), d.column.unwrap(), d.message))
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with("4:12 the note `[^missing]` is never defined"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("8:1 the note `[^spare]` is defined but never referred to"),
        "{messages:?}"
    );
}

#[test]
fn a_span_with_a_language_tags_its_phrase() {
    let Block::Paragraph { content } = only(
        r#"He said <span lang="la">*carpe* diem</span>, and <span lang="grc">λόγος</span> </span>."#,
    ) else {
        panic!("a paragraph");
    };
    let spans: Vec<(&str, String)> = content
        .iter()
        .filter_map(|i| match i {
            Inline::Span { attrs, content, .. } => {
                Some((attrs["lang"].as_str(), stoa_doc::inlines_text(content)))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        spans,
        [("la", "carpe diem".to_owned()), ("grc", "λόγος".to_owned())]
    );
    assert!(
        stoa_doc::inlines_text(&content).ends_with("λόγος ."),
        "an end tag that closes nothing is dropped: {content:?}"
    );
    let Block::Paragraph { content } = only(r#"Open <span lang="la">to the end"#) else {
        panic!("a paragraph");
    };
    assert!(
        matches!(&content[1], Inline::Span { attrs, .. } if attrs["lang"] == "la"),
        "an unclosed span ends with its paragraph: {content:?}"
    );
}

/// Levels of nested blocks and inlines, without recursion.
fn depth(blocks: &[Block]) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Block, usize)> = blocks.iter().map(|b| (b, 1)).collect();
    let mut inlines: Vec<(&Inline, usize)> = Vec::new();
    while let Some((block, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(
            block
                .child_blocks()
                .into_iter()
                .flatten()
                .map(|b| (b, d + 1)),
        );
        inlines.extend(
            block
                .inline_runs()
                .into_iter()
                .flatten()
                .map(|i| (i, d + 1)),
        );
    }
    while let Some((inline, d)) = inlines.pop() {
        deepest = deepest.max(d);
        inlines.extend(inline.children().iter().map(|i| (i, d + 1)));
    }
    deepest
}

#[test]
fn nesting_beyond_the_limit_is_an_error_at_its_line_and_the_tree_stays_bounded() {
    let cases = [
        format!("Intro.\n\n{} deep\n", ">".repeat(5000)),
        format!(
            "Intro.\n\n{}",
            (0..5000)
                .map(|i| format!("{}- item\n", "  ".repeat(i)))
                .collect::<String>()
        ),
        format!("Intro.\n\n{}x{}\n", "*a ".repeat(3000), " a*".repeat(3000)),
        format!("Intro.\n\n{}x\n", "<span lang=\"en\">".repeat(5000)),
    ];
    // The error stands where the nesting goes too deep: a list goes one
    // level deeper per line.
    let limits = ["256 levels", "256 levels", "32 levels", "32 levels"];
    for ((md, line), limit) in cases.iter().zip([12, 12 + MAX_NESTING, 12, 12]).zip(limits) {
        let parsed = parse(md, 10);
        assert!(
            depth(&parsed.blocks) <= 2 * MAX_NESTING + 2,
            "{}",
            depth(&parsed.blocks)
        );
        let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{md:.40}: {:?}", parsed.diagnostics);
        assert!(errors[0].message.contains(limit), "{}", errors[0]);
        assert_eq!(errors[0].line, Some(line), "{}", errors[0]);
    }
    // Within the limits: no error.
    let parsed = parse(&format!("{} ok\n", ">".repeat(MAX_NESTING)), 1);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let emphasis = format!("{}x{}", "*a _b ".repeat(16), " b_ a*".repeat(16));
    let parsed = parse(&emphasis, 1);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(depth(&parsed.blocks), MAX_INLINE_NESTING + 2);
}

#[test]
fn control_characters_are_removed_with_a_warning_at_their_line() {
    let parsed = parse("Intro.\n\n## The heading\0\0\0As\u{85}\n", 4);
    let Block::Heading { content, .. } = &parsed.blocks[1] else {
        panic!("{:?}", parsed.blocks)
    };
    let text = inlines_text(content);
    assert!(!text.contains(['\0', '\u{85}']), "{text:?}");
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert_eq!(parsed.diagnostics[0].line, Some(6));
    assert!(parsed.diagnostics[0].message.contains("U+0000"));
}

#[test]
fn relative_links_lead_to_posts_or_keep_their_words_with_a_warning() {
    let md = "[a](../on-anger/) [b](on-anger.md) [c](/posts/on-anger/index.html#part) \
              [d](github) [e](slides.pdf) [f](images/x.png) [g](//cdn.org/x) [h](#here)\n\n\
              [github]: https://github.com/x\n";
    let parsed = parse(md, 1);
    let Block::Paragraph { content } = &parsed.blocks[0] else {
        panic!()
    };
    let urls = link_urls(content);
    assert_eq!(
        urls,
        [
            "#on-anger",
            "#on-anger",
            "#part",
            "https://cdn.org/x",
            "#here"
        ]
    );
    let text = inlines_text(content);
    assert!(text.contains(" d e f "), "{text}");
    let messages: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.column,
                d.message.as_str(),
                d.hint.as_deref().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages[0]
            .1
            .contains("the link to `github` leads to no web address")
    );
    assert!(messages[0].2.contains("`[text][github]`"), "{messages:?}");
    assert!(messages[1].1.contains("`slides.pdf`") && messages[1].2.contains("https://"));
}

#[test]
fn an_empty_heading_is_left_out() {
    let parsed = parse("Text.\n\n##\n\n## \n\n## Real\n", 1);
    assert_eq!(parsed.blocks.len(), 2, "{:?}", parsed.blocks);
    assert!(matches!(&parsed.blocks[1], Block::Heading { id, .. } if id == "real"));
}

#[test]
fn links_do_not_nest() {
    let Block::Paragraph { content } =
        only("<a href=\"https://x.org\">out <a href=\"https://y.org\">in</a></a>")
    else {
        panic!()
    };
    let nested = content.iter().any(|i| match i {
        Inline::Link { content, .. } => content.iter().any(|c| matches!(c, Inline::Link { .. })),
        _ => false,
    });
    assert!(!nested, "{content:?}");
    assert_eq!(inlines_text(&content), "out in");
}
