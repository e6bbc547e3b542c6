use super::*;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::cmp::Ordering;
use stoa_sdk::stoa_doc::walk_inlines_mut;

fn chapter(slug: &str, markdown: &str) -> Chapter {
    Chapter {
        slug: slug.into(),
        title: format!("Post {slug}"),
        blocks: stoa_markdown::parse(markdown, 1).blocks,
        ..Chapter::default()
    }
}

/// Runs `transform` and returns the chapter, the terms and the warnings.
fn run(markdown: &str, config: Value, lang: &str) -> (Chapter, Vec<Entry>, Vec<String>) {
    let mut ch = chapter("post", markdown);
    let settings = Settings::for_edition(&Context::new(config, lang, "b")).expect("settings");
    let warnings = RefCell::new(Vec::new());
    let entries = transform_chapter(&mut ch, &settings, lang, &|w| warnings.borrow_mut().push(w));
    (ch, entries, warnings.into_inner())
}

/// Every span of class `class` in the chapter, with its role, attributes
/// and content.
fn spans_with_roles(ch: &mut Chapter, class: &str) -> Vec<(Option<Role>, Attrs, Vec<Inline>)> {
    let mut out = Vec::new();
    walk_inlines_mut(&mut ch.blocks, &mut |inlines| {
        for inline in inlines.iter() {
            if let Inline::Span {
                role,
                class: c,
                attrs,
                content,
            } = inline
                && c == class
            {
                out.push((role.clone(), attrs.clone(), content.clone()));
            }
        }
    });
    out
}

/// Every span of class `class` in the chapter, with its text.
fn spans(ch: &mut Chapter, class: &str) -> Vec<(Attrs, Vec<Inline>)> {
    spans_with_roles(ch, class)
        .into_iter()
        .map(|(_, attrs, content)| (attrs, content))
        .collect()
}

fn used_texts(ch: &mut Chapter, class: &str) -> Vec<String> {
    spans(ch, class)
        .into_iter()
        .map(|(_, c)| inlines_text(&c))
        .collect()
}

/// The children of a glossary as (role, class, id), checking that the
/// glossary says it is one.
fn glossary_children(list: &Block) -> Vec<(Option<Role>, String, String)> {
    let Block::Div {
        role,
        class,
        attrs,
        blocks,
    } = list
    else {
        panic!("a glossary is a div: {list:?}")
    };
    assert_eq!(
        (role, class.as_str()),
        (&Some(Role::Glossary), "glossary-list")
    );
    assert!(attrs.is_empty(), "no hand-made epub:type: {attrs:?}");
    blocks
        .iter()
        .map(|b| match b {
            Block::Div {
                role, class, attrs, ..
            } => (role.clone(), class.clone(), attrs["id"].clone()),
            other => panic!("only terms and definitions: {other:?}"),
        })
        .collect()
}

const EN: &str = "\
The amphorae were full, and one drachma bought an amphora. No portico here.

## Glossary

- amphorae: ancient vessels
- drachma: a coin
- portico: a columned entrance
";

#[test]
fn look_alike_lists_are_not_glossaries() {
    let md = "\
Tools:

- Airbyte: loads data
- Apache Flink: streams

## Batch and streaming

- Batch: the query is permanent
- Streaming: the data is infinite

## Glossary

Some words first.

- amphorae: vessels
";
    let (ch, entries, warnings) = run(md, json!({}), "en");
    assert!(entries.is_empty(), "{entries:?}");
    assert!(warnings.is_empty());
    assert!(
        !format!("{:?}", ch.blocks).contains("glossary-list"),
        "no list made"
    );
    // A list whose items are sentences is not a glossary either.
    let (_, entries, _) = run(
        "## Glossary\n\n- this is a long sentence with six words: no\n",
        json!({}),
        "en",
    );
    assert!(entries.is_empty());
}

#[test]
fn glossary_becomes_a_semantic_list_and_first_uses_link() {
    let (mut ch, entries, warnings) = run(EN, json!({}), "en");
    let terms: Vec<_> = entries.iter().map(|e| e.term.as_str()).collect();
    assert_eq!(terms, ["amphorae", "drachma", "portico"]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let refs = spans_with_roles(&mut ch, "glossary-ref");
    assert_eq!(refs.len(), 3, "only the first use of each: {refs:?}");
    let (role, attrs, content) = &refs[0];
    assert_eq!(role, &Some(Role::GlossaryRef));
    // The renderers derive epub:type and the ARIA role from the role.
    assert_eq!(
        attrs,
        &Attrs::from([("id".to_string(), "gloss-use-post-amphorae".to_string())])
    );
    let [Inline::Link { url, content, .. }] = content.as_slice() else {
        panic!("one link: {content:?}")
    };
    assert_eq!(url, "#glossdef-amphorae");
    assert_eq!(inlines_text(content), "amphorae");
    let list = ch
        .blocks
        .iter()
        .find(|b| matches!(b, Block::Div { class, .. } if class == "glossary-list"))
        .expect("the glossary");
    let children = glossary_children(list);
    assert_eq!(children.len(), 6);
    assert_eq!(
        children[2],
        (
            Some(Role::Term),
            "glossary-term".into(),
            "gloss-post-drachma".into()
        )
    );
    assert_eq!(
        children[3],
        (
            Some(Role::Definition),
            "glossary-def".into(),
            "gloss-post-drachma-def".into()
        )
    );
    // Nothing inside the glossary itself was linked.
    let json = serde_json::to_string(&ch.blocks).unwrap();
    assert_eq!(json.matches(r#""class":"glossary-ref""#).count(), 3);
}

#[test]
fn footnote_style_gives_the_definition_at_first_use() {
    let (mut ch, _, _) = run(EN, json!({"first-use": "footnote"}), "en");
    assert_eq!(
        used_texts(&mut ch, "glossary-use"),
        ["amphorae", "drachma", "portico"]
    );
    assert!(spans(&mut ch, "glossary-ref").is_empty());
    let Block::Paragraph { content } = &ch.blocks[0] else {
        panic!()
    };
    assert!(content.contains(&Inline::FootnoteRef {
        label: "glossary-amphorae".into()
    }));
    let defs: Vec<_> = ch
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::FootnoteDef { label, blocks } => Some((label.clone(), blocks.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(defs.len(), 3);
    let Block::Paragraph { content } = &defs[1].1[0] else {
        panic!()
    };
    assert_eq!(inlines_text(content), "drachma: a coin");
}

#[test]
fn matching_ignores_case_and_accents_the_term_does_not_write() {
    let m = Matching {
        lang: "pt-BR",
        inflection: true,
        accents: Accents::Term,
    };
    assert!(m.same_word("ÍKOS", "Íkos"));
    assert!(m.same_word("Íkos", "ikos"), "the term lacks the accent");
    assert!(
        !m.same_word("agora", "ágora"),
        "`agora` (now) is not the square"
    );
    assert!(!m.same_word("Agora", "ágora"));
    let loose = Matching {
        accents: Accents::Ignore,
        ..m
    };
    assert!(loose.same_word("Agora", "ágora"));
    let words = |t: &str| words::term_words(t);
    assert_eq!(
        m.find("vejo-te de Cenho  Franzido.", &words("cenho franzido")),
        Some((11, 26))
    );
    assert_eq!(m.find("cenho, franzido", &words("cenho franzido")), None);
    assert_eq!(m.find("as palestras", &words("palestra")), Some((3, 12)));
    assert_eq!(m.find("uma ânfora", &words("ânforas")), Some((4, 11)));
    assert_eq!(m.find("Olympiad", &words("Olympia")), None, "whole words");
}

#[test]
fn inflection_is_tolerated_unless_turned_off() {
    let pt = |inflection| Matching {
        lang: "pt-BR",
        inflection,
        accents: Accents::Term,
    };
    for (text, term) in [
        ("ânfora", "ânforas"),
        ("papiros", "papiro"),
        ("oráculos", "oráculo"),
        ("leões", "leão"),
        ("jornais", "jornal"),
        ("atrizes", "atriz"),
        ("menina", "menino"),
        ("bonita", "bonito"),
    ] {
        assert!(pt(true).same_word(text, term), "{text} ~ {term}");
    }
    assert!(!pt(false).same_word("papiros", "papiro"));
    let en = Matching {
        lang: "en",
        inflection: true,
        accents: Accents::Term,
    };
    for (text, term) in [
        ("amphora", "amphorae"),
        ("oracles", "oracle"),
        ("charioteers", "charioteer"),
        ("boxes", "box"),
        ("stories", "story"),
    ] {
        assert!(en.same_word(text, term), "{text} ~ {term}");
    }
    assert!(en.same_word("papyrus", "papyrus"));
    assert!(!en.same_word("papyru", "papyrus"));
}

#[test]
fn first_use_skips_headings_code_links_and_accent_mismatches() {
    let md = "\
## The oráculo

`oráculo` and [oráculo](https://example.com), agora e Agora. Os *Oráculos* falam.

## Glossário

- oráculo: quem responde
- ágora: praça
";
    let (mut ch, _, warnings) = run(md, json!({}), "pt-BR");
    assert_eq!(used_texts(&mut ch, "glossary-ref"), ["Oráculos"]);
    assert_eq!(
        warnings,
        ["glossary term `ágora` is never used in the text of the post"]
    );
    let (mut ch, _, warnings) = run(md, json!({"accents": "ignore"}), "pt-BR");
    assert_eq!(used_texts(&mut ch, "glossary-ref"), ["agora", "Oráculos"]);
    assert!(warnings.is_empty());
}

#[test]
fn collation_sorts_accents_with_their_base_letter() {
    let mut pt = vec![
        "pórtico",
        "Íkos",
        "ânforas",
        "auriga",
        "ágora",
        "cenho franzido",
        "dracma",
        "Olímpia",
        "oráculo",
        "palestra",
        "papiro",
    ];
    pt.sort_by(|a, b| words::collate(a, b, "pt-BR"));
    assert_eq!(
        pt,
        [
            "ágora",
            "ânforas",
            "auriga",
            "cenho franzido",
            "dracma",
            "Íkos",
            "Olímpia",
            "oráculo",
            "palestra",
            "papiro",
            "pórtico"
        ]
    );
    let mut en = vec!["portico", "Olympia", "oracle", "Ikkos", "agora", "amphorae"];
    en.sort_by(|a, b| words::collate(a, b, "en"));
    assert_eq!(
        en,
        ["agora", "amphorae", "Ikkos", "Olympia", "oracle", "portico"]
    );
    // Ties: unaccented first, then lowercase first; never equal unless identical.
    assert_eq!(words::collate("agora", "ágora", "pt"), Ordering::Less);
    assert_eq!(words::collate("polish", "Polish", "en"), Ordering::Less);
    assert_eq!(words::collate("e", "é", "pt"), Ordering::Less);
}

fn book(chapters: Vec<Chapter>, lang: &str) -> Book {
    serde_json::from_value(json!({
        "version": 1, "id": "b", "lang": lang,
        "meta": {"title": "T", "author": "A", "identifier": "x", "date": "2024-01-01", "modified": "2024-01-01T00:00:00Z"},
        "labels": {"contents": "", "about_author": "", "notes": "", "back_to_text": "", "typeset_with": "",
                   "title_page": "", "cover": "", "colophon": ""},
        "chapters": chapters,
    }))
    .expect("book")
}

fn build(posts: &[(&str, &str)], config: Value, lang: &str) -> (Book, Vec<String>) {
    let ctx = Context::new(config, lang, "b");
    let mut chapters = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    for (slug, md) in posts {
        let mut ch = chapter(slug, md);
        let chapter_ctx = ctx.clone_for_test();
        Glossary
            .transform(&mut ch, &chapter_ctx)
            .expect("transform");
        let diagnostics = chapter_ctx.diagnostics().into_iter();
        warnings.extend(diagnostics.map(|d| format!("{slug}: {}", d.message)));
        chapters.push(ch);
    }
    let mut about = chapter("about", "Me.");
    about.kind = ChapterKind::About;
    chapters.push(about);
    let mut book = book(chapters, lang);
    Glossary.finish(&mut book, &ctx).expect("finish");
    warnings.extend(
        ctx.diagnostics()
            .into_iter()
            .map(|d| format!("{}: {}", d.chapter.unwrap_or_default(), d.message)),
    );
    (book, warnings)
}

trait CloneForTest {
    fn clone_for_test(&self) -> Context;
}
impl CloneForTest for Context {
    fn clone_for_test(&self) -> Context {
        Context::new(self.config().clone(), self.lang(), self.book_id())
    }
}

#[test]
fn appendix_merges_sorts_and_links_back() {
    let a = "The agora and the oracle.\n\n## Glossary\n\n- oracle: a seer\n- agora: a square\n";
    let b = "At the Agora, a portico.\n\n## Glossary\n\n- portico: a porch\n- agora: the square\n- Ikkos: a trainer\n";
    let (mut book, warnings) = build(
        &[("a", a), ("b", b)],
        json!({"title": {"en": "Words"}}),
        "en",
    );
    assert_eq!(
        warnings,
        [
            "b: glossary term `Ikkos` is never used in the text of the post",
            "b: glossary term `agora` has two definitions: “a square” in `a` and “the square” in `b`; the appendix keeps the first"
        ]
    );
    let slugs: Vec<_> = book.chapters.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(slugs, ["a", "b", "glossary", "about"]);
    let appendix = &mut book.chapters[2];
    assert_eq!(appendix.kind, ChapterKind::Appendix);
    assert_eq!(appendix.role, Some(Role::Glossary), "a landmark");
    assert_eq!(appendix.title, "Words");
    let roles: Vec<_> = glossary_children(&appendix.blocks[0])
        .into_iter()
        .map(|(role, _, _)| role)
        .collect();
    assert_eq!(
        roles,
        [Some(Role::Term), Some(Role::Definition)]
            .iter()
            .cycle()
            .take(8)
            .cloned()
            .collect::<Vec<_>>(),
        "only terms and definitions: a list the renderers set as dl"
    );
    let Block::Div { blocks, .. } = &appendix.blocks[0] else {
        panic!()
    };
    let terms: Vec<String> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Div { class, blocks, .. } if class == "glossary-term" => {
                Some(format!("{blocks:?}"))
            }
            _ => None,
        })
        .collect();
    assert_eq!(terms.len(), 4);
    for (t, want) in terms.iter().zip(["agora", "Ikkos", "oracle", "portico"]) {
        assert!(t.contains(&format!("\"{want}\"")), "{t} vs {want}");
    }
    let backrefs = spans(appendix, "glossary-backref");
    let urls: Vec<String> = backrefs
        .iter()
        .map(|(_, c)| match &c[0] {
            Inline::Link { url, .. } => url.clone(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        urls,
        [
            "#gloss-use-a-agora",
            "#gloss-use-b-agora",
            "#gloss-b-ikkos",
            "#gloss-use-a-oracle",
            "#gloss-use-b-portico"
        ]
    );
    assert!(book.chapters.iter().all(|c| c.plugin_data.is_empty()));
}

#[test]
fn unused_terms_warn_and_no_glossary_no_appendix() {
    let (_, warnings) = build(
        &[("a", "Nothing.\n\n## Glossary\n\n- stoa: a porch\n")],
        json!({}),
        "en",
    );
    assert_eq!(
        warnings,
        ["a: glossary term `stoa` is never used in the text of the post"]
    );
    let (book, warnings) = build(&[("a", "No glossary.\n")], json!({}), "en");
    assert!(warnings.is_empty());
    assert_eq!(book.chapters.len(), 2);
}

#[test]
fn settings_are_checked() {
    assert!(Settings::from_config(&json!({"first-use": "margin"})).is_err());
    assert!(Settings::from_config(&json!({"colour": 1})).is_err());
    let s = Settings::from_config(&json!({"headings": {"es": "Glosario"}})).unwrap();
    assert_eq!(s.heading("es-MX"), Some("Glosario"));
    // The book's own, no more: the edition's word comes with the edition.
    assert_eq!(s.heading("pt-BR"), None);
    assert_eq!(s.title("pt-PT"), "Glossário");
}

#[test]
fn the_editions_word_opens_a_glossary_unless_the_book_names_one() {
    let labels = stoa_sdk::Labels {
        glossary: "Glosario".into(),
        ..stoa_sdk::Labels::default()
    };
    let ctx = Context::new(json!({}), "es-MX", "b").with_labels(labels.clone());
    let s = Settings::for_edition(&ctx).unwrap();
    assert_eq!(s.heading("es-MX"), Some("Glosario"));
    assert_eq!(s.title("es-MX"), "Glosario");
    let mut ch = chapter(
        "post",
        "Un viaducto.\n\n## Glosario\n\n- viaducto: un puente\n",
    );
    assert_eq!(transform_chapter(&mut ch, &s, "es-MX", &|_| {}).len(), 1);
    // The book's own heading for the language wins.
    let ctx =
        Context::new(json!({"headings": {"es": "Términos"}}), "es-MX", "b").with_labels(labels);
    let s = Settings::for_edition(&ctx).unwrap();
    assert_eq!(s.heading("es-MX"), Some("Términos"));
    // A host that sends no labels: the locale table's word, through the
    // SDK, for every language the table has (English for another).
    for locale in stoa_locale::LOCALES {
        let ctx = Context::new(json!({}), locale.tag, "b");
        let s = Settings::for_edition(&ctx).unwrap();
        assert_eq!(s.heading(locale.tag), Some(locale.book.glossary));
        let post = format!(
            "A drachma.\n\n## {}\n\n- drachma: a coin\n",
            locale.book.glossary
        );
        let mut ch = chapter("post", &post);
        assert_eq!(transform_chapter(&mut ch, &s, locale.tag, &|_| {}).len(), 1);
    }
    let ctx = Context::new(json!({}), "sw", "b");
    assert_eq!(Settings::for_edition(&ctx).unwrap().title("sw"), "Glossary");
}

#[test]
fn a_name_marked_as_speaker_is_not_a_use() {
    let mut ch = chapter("post", "Name.\n\n## Glossary\n\n- stoa: a porch\n");
    // What the dialogue plugin makes of a turn's opening name: any class,
    // the role says it is a name.
    ch.blocks[0] = Block::Paragraph {
        content: vec![
            stoa_sdk::span_with_role(Role::Speaker, "who", vec![Inline::text("Stoa")]),
            Inline::text(": the stoa was a porch."),
        ],
    };
    let settings = Settings::for_edition(&Context::new(json!({}), "en", "b")).unwrap();
    transform_chapter(&mut ch, &settings, "en", &|w| panic!("{w}"));
    let Block::Paragraph { content } = &ch.blocks[0] else {
        panic!()
    };
    assert_eq!(
        content[0],
        stoa_sdk::span_with_role(Role::Speaker, "who", vec![Inline::text("Stoa")])
    );
    assert_eq!(used_texts(&mut ch, "glossary-ref"), ["stoa"]);
}

/// Whether the chapter still shows its own glossary (its heading or list).
fn shows_post_glossary(ch: &Chapter) -> bool {
    ch.blocks.iter().any(|b| match b {
        Block::Heading { content, .. } => inlines_text(content) == "Glossary",
        Block::Div { class, .. } => class == "glossary-list",
        _ => false,
    })
}

#[test]
fn notes_that_define_terms_drop_the_posts_glossary_unless_kept() {
    let (ch, _, _) = run(EN, json!({"first-use": "footnote"}), "en");
    assert!(!shows_post_glossary(&ch), "{:?}", ch.blocks);
    // The text and its notes stay whole.
    assert!(matches!(ch.blocks[0], Block::Paragraph { .. }));
    assert_eq!(
        ch.blocks
            .iter()
            .filter(|b| matches!(b, Block::FootnoteDef { .. }))
            .count(),
        3
    );
    let (ch, _, _) = run(
        EN,
        json!({"first-use": "footnote", "post-glossary": true}),
        "en",
    );
    assert!(shows_post_glossary(&ch));
    let (ch, _, _) = run(EN, json!({}), "en");
    assert!(shows_post_glossary(&ch), "links keep the list by default");
    let (ch, _, _) = run(EN, json!({"post-glossary": false}), "en");
    assert!(!shows_post_glossary(&ch));
}

#[test]
fn without_the_posts_glossary_the_appendix_points_to_the_uses() {
    let a = "The agora and the oracle.\n\n## Glossary\n\n- oracle: a seer\n- agora: a square\n";
    let b = "At the agora, a portico.\n\n## Glossary\n\n- portico: a porch\n- agora: a square\n- Ikkos: a trainer\n";
    let (mut book, _) = build(
        &[("a", a), ("b", b)],
        json!({"first-use": "footnote"}),
        "en",
    );
    assert!(book.chapters[..2].iter().all(|c| !shows_post_glossary(c)));
    let appendix = &mut book.chapters[2];
    let urls: Vec<String> = spans(appendix, "glossary-backref")
        .iter()
        .map(|(_, c)| match &c[0] {
            Inline::Link { url, .. } => url.clone(),
            _ => panic!(),
        })
        .collect();
    // Every link leads to a use in the text; Ikkos, never used and no
    // longer listed in its post, names its post without a link.
    assert_eq!(
        urls,
        [
            "#gloss-use-a-agora",
            "#gloss-use-b-agora",
            "#gloss-use-a-oracle",
            "#gloss-use-b-portico"
        ]
    );
    let Block::Div { blocks, .. } = &appendix.blocks[0] else {
        panic!()
    };
    let ikkos_places = format!("{:?}", blocks[3]);
    assert!(ikkos_places.contains("\"Post b\"") && !ikkos_places.contains("Link"));
}

#[test]
fn the_appendix_keeps_its_last_two_entries_together() {
    let a = "The agora, the oracle, the portico.\n\n## Glossary\n\n- oracle: a seer\n- agora: a square\n- portico: a porch\n";
    let (book, _) = build(&[("a", a)], json!({}), "en");
    let Block::Div { blocks, .. } = &book.chapters[1].blocks[0] else {
        panic!()
    };
    let keeps: Vec<bool> = blocks
        .iter()
        .map(|b| match b {
            Block::Div { attrs, .. } => attrs.get("keep").is_some_and(|k| k == "with-next"),
            _ => false,
        })
        .collect();
    // agora, oracle, portico: the definition of oracle keeps with portico.
    assert_eq!(keeps, [false, false, false, true, false, false]);
}

#[test]
fn dropping_the_posts_glossary_needs_the_terms_defined_elsewhere() {
    let err = Settings::from_config(&json!({"post-glossary": false, "appendix": false}))
        .expect_err("refused");
    assert!(
        err.message().contains("defined nowhere"),
        "{}",
        err.message()
    );
    assert!(
        Settings::from_config(
            &json!({"post-glossary": false, "appendix": false, "first-use": "footnote"})
        )
        .is_ok()
    );
    assert!(Settings::from_config(&json!({"post-glossary": "no"})).is_err());
}
