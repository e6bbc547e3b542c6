//! Raw output from plugins for the PDF (`pdf`): Typst markup, placed in a
//! content block of its own (`#[...]`) so that its `set` and `show` rules
//! end with it.
//!
//! Before it is placed, the payload must parse, and parse as exactly that
//! one block once wrapped: a stray `]`, an unclosed `[` or string, or a
//! line comment that would swallow the closing bracket is refused, so a
//! payload cannot reach the source around its slot. It may not read files
//! (`import`, `include`, `read`, `image`, the data loaders, `plugin`) nor
//! set up pages (`page`, `pagebreak`, `document`), which only the theme does.

use typst::syntax::{SyntaxKind, SyntaxNode};

/// Names a payload may not use: they read files or change the page setup.
const DENIED: &[(&str, &str)] = &[
    ("read", "reads a file"),
    ("image", "reads a file (add images to the tree instead)"),
    ("json", "reads a file"),
    ("csv", "reads a file"),
    ("yaml", "reads a file"),
    ("toml", "reads a file"),
    ("xml", "reads a file"),
    ("cbor", "reads a file"),
    ("plugin", "loads a WebAssembly plugin"),
    ("bibliography", "reads a file"),
    ("page", "sets up pages, which is the theme's job"),
    ("pagebreak", "breaks pages, which is the theme's job"),
    (
        "document",
        "sets the document's metadata, which is stoa's job",
    ),
];

/// Checks a raw `pdf` payload and returns the Typst code to place: the
/// payload in a content block. The error says what is wrong, for a message
/// that names the plugin and the post.
pub fn render(payload: &str) -> Result<String, String> {
    let wrapped = format!("#[{payload}]");
    let root = typst::syntax::parse(&wrapped);
    if let Some(error) = root.errors_and_warnings().0.first() {
        return Err(format!(
            "raw `pdf` output is not Typst that parses: {}",
            error.message
        ));
    }
    let children: Vec<&SyntaxNode> = root.children().collect();
    let one_block = matches!(
        children.as_slice(),
        [hash, block] if hash.kind() == SyntaxKind::Hash
            && block.kind() == SyntaxKind::ContentBlock
            && block.children().last().map(SyntaxNode::kind) == Some(SyntaxKind::RightBracket)
    );
    if !one_block {
        return Err(
            "raw `pdf` output leaves its slot: its brackets do not balance, or a comment \
             swallows the end"
                .into(),
        );
    }
    denied(&root)?;
    Ok(wrapped)
}

fn denied(node: &SyntaxNode) -> Result<(), String> {
    match node.kind() {
        SyntaxKind::ModuleImport | SyntaxKind::ModuleInclude => {
            return Err("raw `pdf` output may not `import` or `include` files".into());
        }
        SyntaxKind::Ident | SyntaxKind::MathIdent => {
            let name = node.leaf_text().as_str();
            if let Some((_, why)) = DENIED.iter().find(|(n, _)| *n == name) {
                return Err(format!("raw `pdf` output may not use `{name}`: it {why}"));
            }
        }
        _ => {}
    }
    node.children().try_for_each(denied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_markup_is_placed_in_a_block() {
        let code = "#set text(fill: red)\n#align(center)[\u{2042}]";
        assert_eq!(render(code).unwrap(), format!("#[{code}]"));
        assert_eq!(render("*bold* _it_").unwrap(), "#[*bold* _it_]");
    }

    #[test]
    fn markup_that_leaves_its_slot_or_reads_files_is_refused() {
        for (payload, says) in [
            ("a ] #set text(red) [", "parses"),
            ("#text[open", "parses"),
            ("a // comment", "parses"),
            ("#\"open", "parses"),
            ("/* open", "parses"),
            ("#import \"/etc/x.typ\": *", "import"),
            ("#include \"x.typ\"", "import"),
            ("#read(\"/etc/passwd\")", "`read`"),
            ("#let r = read\n#r(\"/etc/passwd\")", "`read`"),
            ("#image(\"/x.png\")", "`image`"),
            ("#set page(width: 1cm)", "`page`"),
            ("#pagebreak()", "`pagebreak`"),
            ("$ json $", "`json`"),
        ] {
            let err = render(payload).unwrap_err();
            assert!(err.contains(says), "{payload}: {err}");
        }
    }

    #[test]
    fn post_text_escaped_by_the_sdk_stays_text() {
        use stoa_doc::escape::{typst_markup, typst_string};
        let hostile = "] #read(\"/etc/passwd\") // [ $x$ \\ \"";
        // As markup, followed by what would extend an expression.
        let code = render(&format!("{}.len()", typst_markup(hostile))).unwrap();
        let root = typst::syntax::parse(&code);
        let mut strings = Vec::new();
        fn collect(node: &SyntaxNode, out: &mut Vec<String>) {
            if node.kind() == SyntaxKind::Str {
                out.push(node.leaf_text().to_string());
            }
            // No call, no field access: `.len()` stayed text.
            assert!(!matches!(
                node.kind(),
                SyntaxKind::FuncCall | SyntaxKind::FieldAccess
            ));
            node.children().for_each(|c| collect(c, out));
        }
        collect(&root, &mut strings);
        assert_eq!(strings, [typst_string(hostile)], "{code}");
        // As an argument.
        assert!(render(&format!("#smallcaps({})", typst_string(hostile))).is_ok());
    }

    /// The PDF's source holds the `pdf` raw nodes, blocks and inlines, each
    /// in its block, and none of the other formats'.
    #[test]
    fn the_source_keeps_pdf_raw_nodes_only() {
        use stoa_doc::{Block, Book, Chapter, IdIndex, Inline, NotesPlan, serde_json};
        let chapter = Chapter {
            slug: "a".into(),
            blocks: vec![
                Block::Paragraph {
                    content: vec![
                        Inline::text("x"),
                        Inline::raw("pdf", "*P-IN*"),
                        Inline::raw("epub", "<em>E-IN</em>"),
                    ],
                },
                Block::raw("pdf", "#set text(red)\nP-BLOCK"),
                Block::raw("html", "<aside>H-BLOCK</aside>"),
            ],
            ..Chapter::default()
        };
        let book: Book = serde_json::from_value(serde_json::json!({
            "version": 1, "id": "b", "lang": "en",
            "meta": {"title": "T", "author": "A", "identifier": "u", "date": "2024-01-01",
                     "modified": "2024-01-01T00:00:00Z"},
            "labels": {}, "chapters": [chapter],
        }))
        .unwrap();
        let source = crate::source::generate(
            &book,
            &NotesPlan::of(&book),
            &IdIndex::of(&book),
            crate::source::Parts::Book,
        )
        .source;
        assert!(source.contains("#[*P-IN*]"), "{source}");
        assert!(source.contains("#[#set text(red)\nP-BLOCK]"), "{source}");
        assert!(
            !source.contains("E-IN") && !source.contains("H-BLOCK"),
            "{source}"
        );
    }
}
