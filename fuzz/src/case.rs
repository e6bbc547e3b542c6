//! One fuzz case: a post's Markdown through the parser, the tree, the EPUB
//! writer and the Typst generator, with the checks every output must pass.
//!
//! Shared, by `#[path]`, between the cargo-fuzz targets of `fuzz/` (long runs
//! on demand) and the bounded run in `tests/testsuite/fuzz.rs` (CI), so both
//! check exactly the same things.

use std::io::Read;
use std::path::Path;
use stoa_doc::{Block, Book, BookMeta, Chapter, IdIndex, Labels, NotesPlan, Print};

/// Nesting the parser may hand on (it refuses deeper input with an error;
/// a list level is two levels of the tree, the list and the item); a tree
/// deeper than this means a limit was bypassed.
pub const MAX_TREE_DEPTH: usize = 2 * stoa_markdown::MAX_NESTING + 2;

/// The input as a post body: invalid UTF-8 becomes replacement characters,
/// as a text editor would show it (stoa itself refuses such files).
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Parses `body`, checks the tree's depth, and returns it as a one-chapter book.
pub fn markdown(body: &str) -> Book {
    let parsed = stoa_markdown::parse(body, 1);
    let depth = stoa_doc::tree_depth(&parsed.blocks);
    assert!(
        depth <= MAX_TREE_DEPTH,
        "the parser built a tree {depth} levels deep (limit {MAX_TREE_DEPTH})"
    );
    for d in &parsed.diagnostics {
        assert!(
            d.line.is_some(),
            "a diagnostic of the parser has no line: {d}"
        );
    }
    book(parsed.blocks)
}

/// The EPUB of `book`: it must be written, and every XML file in it must be
/// well-formed.
pub fn epub(book: &Book) {
    let notes = NotesPlan::of(book);
    let ids = IdIndex::of(book);
    let theme = theme();
    let layout = stoa_render::Layout::empty();
    let ctx = stoa_render::RenderContext::new(book, &notes, &ids, &theme, &[], layout);
    let bytes = stoa_epub::render_epub(&ctx, "p { margin: 0 }")
        .expect("the EPUB is made")
        .into_body()
        .to_bytes()
        .expect("the EPUB is written");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("the EPUB is a zip");
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).expect("a zip entry");
        let name = entry.name().to_string();
        assert!(
            !name.contains("..") && !name.starts_with('/'),
            "zip entry {name} escapes"
        );
        if [".xhtml", ".opf", ".ncx", ".xml"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            let mut xml = String::new();
            entry.read_to_string(&mut xml).expect("UTF-8 XML");
            let options = roxmltree::ParsingOptions {
                allow_dtd: true,
                ..roxmltree::ParsingOptions::default()
            };
            if let Err(e) = roxmltree::Document::parse_with_options(&xml, options) {
                panic!("{name} is not well-formed XML: {e}\n{xml}");
            }
        }
    }
}

/// The Typst source of `book`: it must parse without a syntax error.
pub fn typst(book: &Book) {
    let source = stoa_pdf::generate_source_of(book);
    let root = typst::syntax::parse(&source);
    let (errors, _warnings) = root.errors_and_warnings();
    assert!(
        errors.is_empty(),
        "the Typst source has syntax errors: {errors:?}\n{source}"
    );
}

/// Everything: parse, EPUB and Typst.
pub fn all(data: &[u8]) {
    let book = markdown(&text(data));
    epub(&book);
    typst(&book);
}

/// The theme folder (only read for its name here; the CSS is passed in).
fn theme() -> stoa_render::Theme {
    stoa_render::Theme::folder(
        "classic",
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../themes/classic"),
    )
}

/// A one-chapter book around `blocks`.
fn book(blocks: Vec<Block>) -> Book {
    Book {
        version: stoa_doc::TREE_VERSION,
        id: "fuzz".into(),
        lang: "en".into(),
        meta: BookMeta {
            title: "Fuzz".into(),
            author: "A".into(),
            identifier: "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8".into(),
            date: "2024-05-31".into(),
            modified: "2024-06-01T00:00:00Z".into(),
            ..BookMeta::default()
        },
        labels: Labels {
            contents: "Contents".into(),
            notes: "Notes".into(),
            ..Labels::default()
        },
        chapters: vec![Chapter {
            slug: "post".into(),
            title: "Post".into(),
            source: Some("post.md".into()),
            blocks,
            ..Chapter::default()
        }],
        assets: Vec::new(),
        styles: Vec::new(),
        print: Print::default(),
    }
}

/// A bibliography file read as each format stoa reads (BibTeX, CSL-JSON,
/// hayagriva's YAML): a clear error or a library, never a panic or a
/// stack overflow (an `@string` or a `crossref` that leads back to itself).
pub fn bibliography(data: &[u8]) {
    let text = text(data);
    for name in ["refs.bib", "refs.json", "refs.yaml"] {
        if let Err(e) = stoa_cite::Library::parse(name, &text) {
            assert!(e.line >= 1 && e.column >= 1, "{name}: {e}");
        }
    }
}
