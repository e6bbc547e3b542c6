use super::*;
use stoa_doc::{Chapter, Severity};

const CORPUS: &str = "flowchart TB
subgraph ing[\"Ingestion\"]
  airbyte[\"Airbyte\"]
  debezium[\"Debezium + Kafka Connect\"]
end
subgraph proc[\"Processing\"]
  spark[\"Apache Spark\"]
end
airbyte --> spark
debezium --> spark
spark -.- airbyte
";

#[test]
fn a_flowchart_becomes_svg_with_its_labels_as_text() {
    let d = draw(CORPUS, "en", "p-").unwrap();
    assert!(
        d.svg
            .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")
    );
    assert!(d.svg.contains("role=\"img\""));
    for label in [
        "Airbyte",
        "Debezium + Kafka Connect",
        "Apache Spark",
        "Ingestion",
    ] {
        let escaped = label.replace('&', "&amp;");
        assert!(
            d.svg.contains(&format!(">{escaped}<")),
            "{label} in {}",
            d.svg
        );
    }
    assert!(!d.svg.contains("flowchart TB"));
    assert!(d.width > 0.0 && d.height > 0.0);
    assert!(d.svg.contains(&format!("width=\"{}\"", number(d.width))));
    assert!(d.svg.contains(FONT));
    assert!(!d.svg.contains("sans-serif\""));
    assert_eq!(d.caption, None);
}

#[test]
fn the_text_alternative_says_groups_nodes_and_arrows() {
    let d = draw(CORPUS, "en", "p-").unwrap();
    assert_eq!(
        d.alt,
        "Flowchart. Ingestion: Airbyte, Debezium + Kafka Connect. Processing: Apache Spark. \
         Arrows: Airbyte to Apache Spark; Debezium + Kafka Connect to Apache Spark; \
         Apache Spark linked with Airbyte."
    );
    assert!(d.svg.contains("<desc id=\"p-desc\">Flowchart. Ingestion"));
    let pt = draw(CORPUS, "pt-BR", "p-").unwrap();
    assert!(pt.alt.starts_with("Fluxograma. "), "{}", pt.alt);
    assert!(pt.alt.contains("Airbyte para Apache Spark"));
}

#[test]
fn sequence_and_er_diagrams_are_described() {
    let seq = draw(
        "sequenceDiagram\n  participant C as Client\n  participant J as JobManager\n  \
         C->>J: submit job\n  loop every second\n    J-->>C: heartbeat\n  end\n",
        "en",
        "s-",
    )
    .unwrap();
    assert_eq!(
        seq.alt,
        "Sequence diagram. Participants: Client, JobManager. \
         Messages: Client to JobManager: submit job; JobManager to Client: heartbeat."
    );
    assert!(seq.svg.contains(">submit job<"));
    let er = draw(
        "erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  CUSTOMER {\n    string name\n  }\n",
        "en",
        "e-",
    )
    .unwrap();
    assert!(
        er.alt
            .starts_with("Entity-relationship diagram. Entities: CUSTOMER (name)")
    );
    assert!(
        er.alt.contains("Relationships: CUSTOMER places ORDER"),
        "{}",
        er.alt
    );
}

#[test]
fn the_title_is_the_caption_and_is_not_drawn() {
    let d = draw(
        "---\ntitle: \"Batch: daily loads\"\n---\nflowchart LR\n  a --> b\n",
        "en",
        "t-",
    )
    .unwrap();
    assert_eq!(d.caption.as_deref(), Some("Batch: daily loads"));
    assert!(
        d.svg
            .contains("<title id=\"t-title\">Batch: daily loads</title>")
    );
    assert_eq!(d.svg.matches("daily loads").count(), 1, "{}", d.svg);
}

#[test]
fn an_author_description_wins_over_the_generated_one() {
    let d = draw(
        "flowchart LR\n  accDescr: Two steps, one after the other\n  a --> b\n",
        "en",
        "a-",
    )
    .unwrap();
    assert_eq!(d.alt, "Two steps, one after the other");
    assert_eq!(d.svg.matches("<desc").count(), 1);
}

#[test]
fn ids_are_prefixed_with_their_references() {
    let d = draw("flowchart LR\n  a --> b\n", "en", "dg-x-1-").unwrap();
    let ids: Vec<&str> = d.svg.split(" id=\"").skip(1).collect();
    assert!(!ids.is_empty());
    assert!(
        ids.iter().all(|rest| rest.starts_with("dg-x-1-")),
        "{}",
        d.svg
    );
    assert!(!d.svg.contains("url(#arrow"));
}

#[test]
fn drawing_is_deterministic() {
    assert_eq!(draw(CORPUS, "en", "p-"), draw(CORPUS, "en", "p-"));
}

#[test]
fn what_cannot_be_drawn_is_an_error() {
    let e = draw("notadiagram\n  a --> b\n", "en", "x-").unwrap_err();
    assert!(e.message.contains("unknown diagram type"), "{}", e.message);
}

fn book(blocks: Vec<Block>) -> Book {
    let mut book: Book = serde_json_book();
    book.chapters.push(Chapter {
        slug: "post".into(),
        source: Some("books/posts/post/en.md".into()),
        blocks,
        ..Chapter::default()
    });
    book
}

fn serde_json_book() -> Book {
    stoa_doc::serde_json::from_value(stoa_doc::serde_json::json!({
        "version": stoa_doc::TREE_VERSION,
        "id": "b",
        "lang": "en",
        "meta": {"title": "B", "author": "A", "identifier": "urn:b", "date": "2024-01-01", "modified": "2024-01-01T00:00:00Z"},
        "labels": {"contents": "", "about_author": "", "notes": "", "back_to_text": "", "typeset_with": "", "title_page": "", "cover": "", "colophon": ""},
        "chapters": []
    }))
    .unwrap()
}

fn code(lang: &str, text: &str) -> Block {
    Block::Code {
        lang: Some(lang.into()),
        text: text.into(),
    }
}

#[test]
fn the_pass_replaces_mermaid_blocks_and_keeps_their_code() {
    let mut b = book(vec![
        code("mermaid", "flowchart LR\n  a --> b\n"),
        code("mermaid-source", "flowchart LR\n  a --> b\n"),
        code("java", "class A {}\n"),
        Block::Quote {
            blocks: vec![code("mermaid", "flowchart LR\n  c --> d\n")],
        },
    ]);
    let warnings = draw_book(&mut b, &|_| None);
    assert!(warnings.is_empty());
    let blocks = &b.chapters[0].blocks;
    let first = diagram_of(&blocks[0]).expect("a drawing");
    assert!(first.svg.contains("dg-post-1-"));
    let Block::Div { blocks: inner, .. } = &blocks[0] else {
        panic!()
    };
    assert_eq!(inner[0], code("mermaid", "flowchart LR\n  a --> b\n"));
    assert!(diagram_of(&blocks[1]).is_none());
    assert_eq!(
        blocks[1],
        code("mermaid-source", "flowchart LR\n  a --> b\n")
    );
    assert_eq!(blocks[2], code("java", "class A {}\n"));
    let Block::Quote { blocks: quoted } = &blocks[3] else {
        panic!()
    };
    assert!(diagram_of(&quoted[0]).unwrap().svg.contains("dg-post-2-"));
}

#[test]
fn a_broken_diagram_warns_with_file_and_line_and_stays_code() {
    let broken = "notadiagram\n  a --> b\n";
    let mut b = book(vec![code("mermaid", broken)]);
    let source = "---\ntitle: P\n---\n\nText.\n\n```mermaid\nnotadiagram\n  a --> b\n```\n";
    let warnings = draw_book(&mut b, &|file| {
        (file == "books/posts/post/en.md").then(|| source.to_string())
    });
    assert_eq!(warnings.len(), 1);
    let w = &warnings[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.file.as_deref(), Some("books/posts/post/en.md"));
    assert_eq!(w.line, Some(7));
    assert!(w.message.contains("cannot be drawn"), "{}", w.message);
    assert_eq!(b.chapters[0].blocks[0], code("mermaid", broken));
}

#[test]
fn the_fence_of_each_broken_diagram_is_found_in_turn() {
    let source = "```mermaid\nx\n```\n\n```mermaid\nx\n```\n";
    assert_eq!(fence_line(source, "x\n", 0), Some((1, 11)));
    assert_eq!(fence_line(source, "x\n", 11).map(|f| f.0), Some(5));
    assert_eq!(fence_line(source, "y\n", 0), None);
}

#[test]
fn the_svg_is_well_formed_xml_whatever_the_labels_say() {
    for source in [
        "flowchart LR\n  a[\"x & y < z > w\"] -->|\"a&b\"| b[\"'quoted' \\\"q\\\"\"]\n",
        "sequenceDiagram\n  A->>B: if a < b && c > d\n",
        "erDiagram\n  A ||--o{ B : \"has & holds\"\n",
        "pie title Pets & <things>\n  \"Dogs\" : 3\n  \"Cats\" : 2\n",
    ] {
        let d = draw(source, "en", "x-").unwrap_or_else(|e| panic!("{source}: {e:?}"));
        let doc = roxmltree::Document::parse(&d.svg).unwrap_or_else(|e| panic!("{e}: {}", d.svg));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.attribute("role"), Some("img"));
        let desc = root.children().find(|n| n.has_tag_name("desc")).unwrap();
        assert_eq!(desc.text(), Some(d.alt.as_str()));
    }
    let pie = draw(
        "pie title Pets\n  \"Dogs\" : 3\n  \"Cats\" : 2\n",
        "en",
        "p-",
    )
    .unwrap();
    assert!(pie.alt.starts_with("Diagram. Labels: "), "{}", pie.alt);
    assert!(pie.alt.contains("Dogs"), "{}", pie.alt);
}

#[test]
fn a_diagram_too_long_to_draw_is_an_error() {
    let mut source = String::from("flowchart TB\n");
    let mut i = 0;
    while source.len() <= MAX_SOURCE_BYTES {
        source.push_str(&format!("  n{i} --> n{}\n", i + 1));
        i += 1;
    }
    let e = draw(&source, "en", "x-").unwrap_err();
    assert_eq!(
        e.message,
        "its code is 17 KiB, more than the 16 KiB stoa draws"
    );
}
