use super::*;
use serde_json::{Value, json};

fn chapter(markdown: &str) -> Chapter {
    Chapter {
        slug: "post".into(),
        title: "Post".into(),
        source: Some("books/posts/post/en.md".into()),
        blocks: stoa_markdown::parse(markdown, 1).blocks,
        ..Chapter::default()
    }
}

fn run_with(markdown: &str, config: Value, lang: &str, front: Option<Value>) -> Chapter {
    let mut chapter = chapter(markdown);
    if let Some(front) = front {
        chapter.plugin_data.insert("dialogue".into(), front);
    }
    let ctx = Context::new(config, lang, "book");
    Dialogue.transform(&mut chapter, &ctx).expect("transform");
    assert!(ctx.diagnostics().is_empty());
    chapter
}

fn run(markdown: &str) -> Chapter {
    run_with(markdown, json!({}), "en", None)
}

fn error(markdown: &str, config: Value, front: Option<Value>) -> PluginError {
    let mut chapter = chapter(markdown);
    if let Some(front) = front {
        chapter.plugin_data.insert("dialogue".into(), front);
    }
    let ctx = Context::new(config, "en", "book");
    Dialogue
        .transform(&mut chapter, &ctx)
        .expect_err("a config error")
}

/// Every turn of the chapter as (speaker attribute, shown name, plain
/// text), checking that each container says what it is by its role.
fn turns(chapter: &Chapter) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for block in &chapter.blocks {
        if let Block::Div {
            role,
            class,
            blocks,
            ..
        } = block
        {
            if class != "dialogue" {
                continue;
            }
            assert_eq!(role, &Some(Role::Dialogue));
            for turn in blocks {
                let Block::Div {
                    role,
                    class,
                    attrs,
                    blocks,
                } = turn
                else {
                    panic!("a dialogue holds divs")
                };
                if class != "turn" {
                    assert_eq!(role, &None, "only turns are turns");
                    continue;
                }
                assert_eq!(role, &Some(Role::Turn));
                let [Block::Paragraph { content }] = blocks.as_slice() else {
                    panic!("a turn holds one paragraph")
                };
                let Some(Inline::Span {
                    role,
                    class,
                    content: name,
                    ..
                }) = content.first()
                else {
                    panic!("a turn opens with the speaker")
                };
                assert_eq!(class, "speaker");
                assert_eq!(role, &Some(Role::Speaker));
                out.push((
                    attrs["speaker"].clone(),
                    stoa_sdk::inlines_text(name),
                    stoa_sdk::inlines_text(content),
                ));
            }
        }
    }
    out
}

fn classes(chapter: &Chapter) -> Vec<&str> {
    chapter
        .blocks
        .iter()
        .map(|b| match b {
            Block::Div { class, .. } => class.as_str(),
            Block::Paragraph { .. } => "p",
            Block::List { .. } => "list",
            Block::Code { .. } => "code",
            Block::Quote { .. } => "quote",
            _ => "other",
        })
        .collect()
}

const DIALOGUE: &str = "\
SOCRATES: Where are you going, Glaucon?

GLAUCON: To the Piraeus, Socrates.

SOCRATES: And what will you find there?

GLAUCON: A festival, they say.

..then the two went down together.

## Note

A paragraph after the dialogue.
";

#[test]
fn detects_turns_in_capitals_and_groups_them() {
    let chapter = run(DIALOGUE);
    assert_eq!(
        classes(&chapter),
        ["dialogue", "dialogue-ending", "other", "p"]
    );
    let turns = turns(&chapter);
    assert_eq!(turns.len(), 4);
    assert_eq!(turns[0].0, "SOCRATES");
    assert_eq!(turns[0].1, "SOCRATES");
    assert_eq!(turns[0].2, "SOCRATES:\u{a0}Where are you going, Glaucon?");
    assert_eq!(turns[1].2, "GLAUCON:\u{a0}To the Piraeus, Socrates.");
}

#[test]
fn the_ending_keeps_its_dots_and_words() {
    let chapter = run(DIALOGUE);
    let Block::Div { class, blocks, .. } = &chapter.blocks[1] else {
        panic!()
    };
    assert_eq!(class, "dialogue-ending");
    let [Block::Paragraph { content }, ornament @ ..] = blocks.as_slice() else {
        panic!()
    };
    // The ornament follows, as raw output for each format.
    assert_eq!(ornament, crate::ornament());
    assert_eq!(
        stoa_sdk::inlines_text(content),
        "..then the two went down together."
    );
}

#[test]
fn an_ending_needs_a_dialogue_just_before() {
    let chapter = run(&format!("{DIALOGUE}\n..a stray line of dots.\n"));
    assert_eq!(classes(&chapter).last(), Some(&"p"));
    let chapter = run("Intro.\n\n..not an ending.\n");
    assert_eq!(classes(&chapter), ["p", "p"]);
}

#[test]
fn look_alikes_never_become_turns() {
    let chapter = run("\
- Batch: data at rest.
- Streaming: data in motion.
- Batch: again.
- Streaming: again.
- Batch: once more.

Note: this is a note.

Note: and another note.

```yaml
NAME: value
KIND: other
NAME: again
KIND: again
```

- term: definition
- other term: its definition

> SOCRATES: quoted, not spoken here.
>
> GLAUCON: quoted too.
>
> SOCRATES: still quoted.

WARNING: a single capitalized label used once.

The time was 12:00:30.
");
    assert!(turns(&chapter).is_empty());
    assert!(!classes(&chapter).contains(&"dialogue"));
}

#[test]
fn a_label_used_once_is_not_a_speaker() {
    let chapter = run("ALICE: hello.\n\nBOB: hi.\n\nALICE: bye.\n");
    assert!(turns(&chapter).is_empty(), "BOB starts only one paragraph");
}

#[test]
fn speakers_who_never_alternate_are_not_a_dialogue() {
    let chapter = run("ALPHA: one.\n\nALPHA: two.\n\nBETA: three.\n\nBETA: four.\n");
    assert!(turns(&chapter).is_empty());
}

#[test]
fn a_single_speaker_is_not_a_dialogue() {
    let chapter = run("NOTE: one.\n\nNOTE: two.\n\nNOTE: three.\n");
    assert!(turns(&chapter).is_empty());
}

#[test]
fn mixed_case_names_are_not_detected() {
    let chapter = run("Socrates: one.\n\nGlaucon: two.\n\nSocrates: three.\n\nGlaucon: four.\n");
    assert!(turns(&chapter).is_empty());
}

#[test]
fn configured_speakers_make_turns_in_any_case() {
    let markdown = "Socrates: one.\n\nGlaucon: two.\n\nNote: not a speaker.\n";
    let chapter = run_with(
        markdown,
        json!({"speakers": ["SOCRATES", "Glaucon"]}),
        "en",
        None,
    );
    let turns = turns(&chapter);
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0].0, "Socrates");
    assert_eq!(classes(&chapter), ["dialogue", "p"]);
}

#[test]
fn front_matter_speakers_win_over_book_toml() {
    let markdown = "ANNA: one.\n\nBRUNO: two.\n\nANNA: three.\n\nBRUNO: four.\n";
    let front = Some(json!({"speakers": ["ANNA"]}));
    let chapter = run_with(markdown, json!({"speakers": ["BRUNO"]}), "en", front);
    let speakers: Vec<String> = turns(&chapter).into_iter().map(|t| t.0).collect();
    assert_eq!(speakers, ["ANNA", "ANNA"]);
    assert_eq!(classes(&chapter), ["dialogue", "p", "dialogue", "p"]);
}

#[test]
fn an_empty_speaker_list_turns_detection_off() {
    let chapter = run_with(DIALOGUE, json!({}), "en", Some(json!({"speakers": []})));
    assert!(turns(&chapter).is_empty());
}

#[test]
fn title_case_handles_accented_capitals() {
    assert_eq!(title_case("SÓCRATES"), "Sócrates");
    assert_eq!(title_case("ÉDIPO"), "Édipo");
    assert_eq!(title_case("ÉDIPO REI"), "Édipo Rei");
    assert_eq!(title_case("JEAN-LUC"), "Jean-Luc");
    assert_eq!(title_case("ÇÃO"), "Ção");
    // Decomposed: E + combining acute.
    assert_eq!(title_case("E\u{301}DIPO"), "E\u{301}dipo");

    let markdown =
        "ÉDIPO: Quem sou ?\n\nSÓCRATES: Pergunta difícil.\n\nÉDIPO: Responde.\n\nSÓCRATES: Não.\n";
    let chapter = run_with(markdown, json!({"names": "title-case"}), "pt-BR", None);
    let turns = turns(&chapter);
    assert_eq!(turns.len(), 4);
    assert_eq!(
        turns[0].0, "ÉDIPO",
        "the attribute keeps the name as written"
    );
    assert_eq!(turns[0].1, "Édipo");
    assert_eq!(turns[1].1, "Sócrates");
    assert_eq!(turns[0].2, "Édipo:\u{a0}Quem sou\u{a0}?");
}

#[test]
fn names_in_capitals_are_marked_for_small_capitals() {
    let speaker = |chapter: &Chapter| {
        let Block::Div { blocks, .. } = &chapter.blocks[0] else {
            panic!()
        };
        let Block::Div { blocks, .. } = &blocks[0] else {
            panic!()
        };
        let Block::Paragraph { content } = &blocks[0] else {
            panic!()
        };
        let Inline::Span { attrs, .. } = &content[0] else {
            panic!()
        };
        attrs.get("case").cloned()
    };
    assert_eq!(speaker(&run(DIALOGUE)).as_deref(), Some("upper"));
    let chapter = run_with(DIALOGUE, json!({"names": "title-case"}), "en", None);
    assert_eq!(speaker(&chapter), None);
}

#[test]
fn the_same_speaker_twice_in_a_row_makes_two_turns() {
    let markdown = "\
SOCRATES: One.

GLAUCON: Two.

GLAUCON: And three, after a pause.

SOCRATES: Four.
";
    let chapter = run(markdown);
    let speakers: Vec<String> = turns(&chapter).into_iter().map(|t| t.0).collect();
    assert_eq!(speakers, ["SOCRATES", "GLAUCON", "GLAUCON", "SOCRATES"]);
    assert_eq!(classes(&chapter), ["dialogue"]);
}

#[test]
fn a_narrating_paragraph_splits_the_dialogue() {
    let markdown = "\
SOCRATES: One.

GLAUCON: Two.

They walked on.

SOCRATES: Three.

GLAUCON: Four.
";
    let chapter = run(markdown);
    assert_eq!(classes(&chapter), ["dialogue", "p", "dialogue"]);
    assert_eq!(turns(&chapter).len(), 4);
}

#[test]
fn bold_labels_and_emphasis_after_the_colon() {
    let markdown = "\
**SOCRATES:** One.

**GLAUCON**: Two.

SOCRATES: *Three*, he said.

GLAUCON:
Four.
";
    let chapter = run(markdown);
    let turns = turns(&chapter);
    assert_eq!(turns.len(), 4, "{:#?}", chapter.blocks);
    assert_eq!(turns[0].2, "SOCRATES:\u{a0}One.");
    assert_eq!(turns[1].2, "GLAUCON:\u{a0}Two.");
    assert_eq!(turns[2].2, "SOCRATES:\u{a0}Three, he said.");
    assert_eq!(turns[3].2, "GLAUCON:\u{a0}Four.");
}

fn characters_block(chapter: &Chapter) -> (String, String) {
    let Block::Div { blocks, .. } = &chapter.blocks[0] else {
        panic!()
    };
    let Block::Div { class, blocks, .. } = &blocks[0] else {
        panic!("the list comes first")
    };
    assert_eq!(class, "dialogue-characters");
    let [
        Block::Paragraph { content: head },
        Block::Paragraph { content: names },
    ] = blocks.as_slice()
    else {
        panic!()
    };
    (stoa_sdk::inlines_text(head), stoa_sdk::inlines_text(names))
}

#[test]
fn characters_list_in_english_and_portuguese() {
    let config = json!({"characters": true, "names": "title-case"});
    let chapter = run_with(DIALOGUE, config.clone(), "en", None);
    assert_eq!(
        characters_block(&chapter),
        ("Characters".into(), "Socrates, Glaucon".into())
    );
    assert_eq!(turns(&chapter).len(), 4, "the list is not a turn");

    let markdown = "SÓCRATES: Olá.\n\nGLAUCO: Olá.\n\nSÓCRATES: Tudo bem ?\n\nGLAUCO: Sim.\n";
    let chapter = run_with(markdown, config, "pt-BR", None);
    assert_eq!(
        characters_block(&chapter),
        ("Personagens".into(), "Sócrates, Glauco".into())
    );
}

#[test]
fn no_characters_list_by_default() {
    let chapter = run(DIALOGUE);
    let Block::Div { blocks, .. } = &chapter.blocks[0] else {
        panic!()
    };
    assert!(matches!(&blocks[0], Block::Div { class, .. } if class == "turn"));
}

#[test]
fn config_errors_name_the_key() {
    let e = error(DIALOGUE, json!({"speaker": ["A"]}), None);
    assert!(e.message().contains("unknown key `speaker`"), "{e}");
    assert!(e.message().contains("book.toml"), "{e}");
    assert!(e.hint().unwrap().contains("speakers"));

    let e = error(DIALOGUE, json!({"names": "upper"}), None);
    assert!(
        e.message().contains("`names`") && e.message().contains("\"upper\""),
        "{e}"
    );
    assert!(e.message().contains("\"title-case\""), "{e}");

    let e = error(DIALOGUE, json!({"characters": "yes"}), None);
    assert!(
        e.message().contains("`characters`") && e.message().contains("true or false"),
        "{e}"
    );

    let e = error(DIALOGUE, json!({"speakers": "SOCRATES"}), None);
    assert!(
        e.message().contains("`speakers`") && e.message().contains("list"),
        "{e}"
    );

    let e = error(DIALOGUE, json!({"speakers": ["SOCRATES:"]}), None);
    assert!(e.message().contains("colon"), "{e}");

    let e = error(DIALOGUE, json!({}), Some(json!({"names": 3})));
    assert!(
        e.message()
            .contains("front matter of books/posts/post/en.md"),
        "{e}"
    );
    assert!(e.message().contains("a number 3"), "{e}");

    let e = error(DIALOGUE, json!(["x"]), None);
    assert!(e.message().contains("must be a table"), "{e}");
}

#[test]
fn styles_cover_both_formats() {
    let ctx = Context::new(json!({}), "en", "book");
    let css = Dialogue.styles(Format::Epub, &ctx);
    assert!(css.contains(".speaker") && css.contains("small-caps"));
    assert!(css.contains("text-indent: -1.4em"), "hanging indent");
    let typst = Dialogue.styles(Format::Pdf, &ctx);
    assert!(typst.contains("let base = div") && typst.contains("let base = span"));
    assert!(typst.contains("smallcaps") && typst.contains("hanging-indent"));
}

#[test]
fn configure_checks_the_books_settings_and_there_is_no_finish() {
    let ctx = |config| Context::new(config, "en", "b");
    assert!(
        Dialogue
            .configure(&ctx(json!({"names": "title-case"})))
            .is_ok()
    );
    let e = Dialogue.configure(&ctx(json!({"nmaes": "x"}))).unwrap_err();
    assert!(
        e.message().contains("unknown key `nmaes`"),
        "{}",
        e.message()
    );
    let hooks = stoa_sdk::builtin_plugin!(Dialogue).hooks();
    assert_eq!(hooks.names(), ["configure", "transform", "styles"]);
}
