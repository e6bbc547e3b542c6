//! The notes plan: every note of an edition numbered and placed once, in
//! one place, so that the EPUB, the PDF and the web edition agree.
//!
//! Rules, the same for every renderer:
//! - A chapter numbers the notes it references, in the order of their first
//!   reference, reading the text outside note definitions. When a block's
//!   notes themselves refer to notes, those are numbered right after the
//!   block's own, breadth first; a definition never referenced is left out.
//! - [`NoteNumbering::Continuous`] goes on from the notes of the earlier
//!   chapters that set a [`crate::NoteStyle`]; otherwise numbers start at 1.
//! - [`NotePlacement::NotesChapter`] needs a chapter of kind
//!   [`ChapterKind::Notes`]; without one the notes are the chapter's endnotes.

use crate::walk::{for_each_block, for_each_inline};
use crate::{Block, Book, Chapter, ChapterKind, Inline, NoteNumbering, NotePlacement};
use std::collections::{HashMap, HashSet, VecDeque};

/// Where one chapter's notes are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// After the chapter's text, under the notes heading.
    Endnotes,
    /// At the foot of the page (print) or after the block that refers to
    /// them (screens).
    Footnotes,
    /// In the notes chapter, the book's chapter of this index.
    Collected {
        /// Index of the notes chapter.
        chapter: usize,
    },
}

/// One note, numbered.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The label as the author wrote it.
    pub label: String,
    /// The number printed, continuous numbering included.
    pub number: usize,
    /// The note's anchor, unique in the file or page that prints it:
    /// `note-3`, or `<slug>-note-3` in the notes chapter.
    pub id: String,
    /// The note's content.
    pub blocks: Vec<Block>,
}

/// How one chapter's notes are numbered and placed.
#[derive(Clone, Debug, PartialEq)]
pub struct ChapterNotes {
    /// Where the notes go.
    pub placement: Placement,
    /// Whether numbering starts again at 1 in this chapter.
    pub restarts: bool,
    /// Whether the chapter set a note style (a plugin has then already
    /// reported undefined and unused notes).
    pub styled: bool,
    /// The notes, in number order.
    pub notes: Vec<Note>,
    /// Labels referenced in the text that have no definition.
    pub undefined: Vec<String>,
    by_label: HashMap<String, usize>,
}

impl ChapterNotes {
    /// The note `label` refers to, if it has a definition.
    pub fn note(&self, label: &str) -> Option<&Note> {
        self.by_label.get(label).map(|&i| &self.notes[i])
    }

    /// The anchor of the `nth` (1-based) reference to `note`: the first is
    /// `noteref-3`, the next `noteref-3-2`; a note links back to the first.
    pub fn ref_id(note: &Note, nth: usize) -> String {
        if nth <= 1 {
            format!("noteref-{}", note.number)
        } else {
            format!("noteref-{}-{nth}", note.number)
        }
    }

    /// The number of the first note, for lists that must say where they start.
    pub fn first_number(&self) -> Option<usize> {
        self.notes.first().map(|n| n.number)
    }
}

/// Every chapter's notes, by chapter index.
#[derive(Clone, Debug, PartialEq)]
pub struct NotesPlan {
    chapters: Vec<ChapterNotes>,
    collector: Option<usize>,
}

impl NotesPlan {
    /// Plans the notes of every chapter of `book`.
    pub fn of(book: &Book) -> Self {
        let collector = book
            .chapters
            .iter()
            .position(|c| c.kind == ChapterKind::Notes);
        let mut numbered = 0;
        let chapters = book
            .chapters
            .iter()
            .enumerate()
            .map(|(index, chapter)| {
                let plan = plan_chapter(chapter, index, collector, numbered);
                if chapter.notes.is_some() && Some(index) != collector {
                    numbered += plan.notes.len();
                }
                plan
            })
            .collect();
        NotesPlan {
            chapters,
            collector,
        }
    }

    /// The plan of chapter `index`.
    ///
    /// # Panics
    /// When `index` is not a chapter of the planned book.
    pub fn chapter(&self, index: usize) -> &ChapterNotes {
        &self.chapters[index]
    }

    /// The index of the notes chapter, if the book has one.
    pub fn collector(&self) -> Option<usize> {
        self.collector
    }

    /// The chapters whose notes the notes chapter prints, in reading order,
    /// leaving out those with no notes.
    pub fn collected(&self) -> Vec<usize> {
        self.chapters
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.placement, Placement::Collected { .. }))
            .filter(|(_, c)| !c.notes.is_empty())
            .map(|(i, _)| i)
            .collect()
    }
}

fn plan_chapter(
    chapter: &Chapter,
    index: usize,
    collector: Option<usize>,
    numbered_before: usize,
) -> ChapterNotes {
    let style = chapter.notes.unwrap_or_default();
    let placement = match (style.placement, collector) {
        (NotePlacement::Footnotes, _) => Placement::Footnotes,
        (NotePlacement::NotesChapter, Some(c)) if c != index => Placement::Collected { chapter: c },
        _ => Placement::Endnotes,
    };
    let continuous = chapter.notes.is_some() && style.numbering == NoteNumbering::Continuous;
    let offset = if continuous { numbered_before } else { 0 };
    let definitions = definitions(&chapter.blocks);
    let (order, undefined) = reference_order(&chapter.blocks, &definitions);
    let notes: Vec<Note> = order
        .into_iter()
        .enumerate()
        .map(|(i, label)| {
            let number = offset + i + 1;
            let id = match placement {
                Placement::Collected { .. } => format!("{}-note-{number}", chapter.slug),
                _ => format!("note-{number}"),
            };
            let blocks = definitions[label.as_str()].clone();
            Note {
                label,
                number,
                id,
                blocks,
            }
        })
        .collect();
    let by_label = notes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.label.clone(), i))
        .collect();
    ChapterNotes {
        placement,
        restarts: !continuous,
        styled: chapter.notes.is_some(),
        notes,
        undefined,
        by_label,
    }
}

/// Every definition, wherever it is written; the first of a label wins.
fn definitions(blocks: &[Block]) -> HashMap<&str, &Vec<Block>> {
    let mut out = HashMap::new();
    for_each_block(blocks, &mut |block| {
        if let Block::FootnoteDef { label, blocks } = block {
            out.entry(label.as_str()).or_insert(blocks);
        }
    });
    out
}

/// The labels in number order (see the module's rules), and the labels
/// referenced without a definition, each once.
fn reference_order(
    blocks: &[Block],
    definitions: &HashMap<&str, &Vec<Block>>,
) -> (Vec<String>, Vec<String>) {
    let mut order: Vec<String> = Vec::new();
    let mut undefined: Vec<String> = Vec::new();
    // Labels met so far: a set, as a chapter may have thousands of notes.
    let mut seen: HashSet<String> = HashSet::new();
    let mut take = |label: &str, queue: &mut VecDeque<String>| {
        if !seen.insert(label.to_string()) {
            return;
        }
        if definitions.contains_key(label) {
            order.push(label.to_string());
            queue.push_back(label.to_string());
        } else {
            undefined.push(label.to_string());
        }
    };
    for_each_text_block(blocks, &mut |block| {
        let mut queue = VecDeque::new();
        for label in refs_in(block) {
            take(label, &mut queue);
        }
        while let Some(label) = queue.pop_front() {
            let inner = definitions[label.as_str()];
            let mut refs = Vec::new();
            for_each_text_block(inner, &mut |b| refs.extend(refs_in(b)));
            for label in refs {
                take(label, &mut queue);
            }
        }
    });
    (order, undefined)
}

/// Calls `f` on every block outside note definitions, in reading order.
fn for_each_text_block<'a>(blocks: &'a [Block], f: &mut dyn FnMut(&'a Block)) {
    for block in blocks {
        if matches!(block, Block::FootnoteDef { .. }) {
            continue;
        }
        f(block);
        for child in block.child_blocks() {
            for_each_text_block(child, f);
        }
    }
}

/// The note labels a block refers to in its own text, in order.
fn refs_in(block: &Block) -> Vec<&str> {
    let mut labels = Vec::new();
    for_each_inline(block, &mut |inline| {
        if let Inline::FootnoteRef { label } = inline {
            labels.push(label.as_str());
        }
    });
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoteStyle;

    fn par(inlines: Vec<Inline>) -> Block {
        Block::Paragraph { content: inlines }
    }

    fn r(label: &str) -> Inline {
        Inline::FootnoteRef {
            label: label.into(),
        }
    }

    fn def(label: &str, content: Vec<Inline>) -> Block {
        Block::FootnoteDef {
            label: label.into(),
            blocks: vec![par(content)],
        }
    }

    fn chapter(slug: &str, notes: Option<NoteStyle>, blocks: Vec<Block>) -> Chapter {
        Chapter {
            slug: slug.into(),
            notes,
            blocks,
            ..Chapter::default()
        }
    }

    fn labels(c: &ChapterNotes) -> Vec<(&str, usize)> {
        c.notes
            .iter()
            .map(|n| (n.label.as_str(), n.number))
            .collect()
    }

    #[test]
    fn numbers_by_first_reference_then_notes_in_notes() {
        let blocks = vec![
            def("a", vec![Inline::text("a, see"), r("c")]),
            par(vec![r("b"), r("a"), r("b"), r("x")]),
            def("b", vec![Inline::text("b")]),
            def("c", vec![Inline::text("c")]),
            def("unused", vec![Inline::text("never")]),
            par(vec![r("d")]),
            def("d", vec![Inline::text("d")]),
        ];
        let book = Book {
            chapters: vec![chapter("one", None, blocks)],
            ..crate::tests::empty_book()
        };
        let plan = NotesPlan::of(&book);
        let c = plan.chapter(0);
        assert_eq!(labels(c), [("b", 1), ("a", 2), ("c", 3), ("d", 4)]);
        assert_eq!(c.undefined, ["x"]);
        assert_eq!(c.placement, Placement::Endnotes);
        assert_eq!(c.note("a").map(|n| n.id.as_str()), Some("note-2"));
        assert_eq!(ChapterNotes::ref_id(c.note("b").unwrap(), 2), "noteref-1-2");
    }

    #[test]
    fn continuous_numbering_and_the_notes_chapter() {
        let style = |placement, numbering| {
            Some(NoteStyle {
                placement,
                numbering,
            })
        };
        let collected = style(NotePlacement::NotesChapter, NoteNumbering::Continuous);
        let mut notes_chapter = chapter("notes", collected, vec![]);
        notes_chapter.kind = ChapterKind::Notes;
        let book = Book {
            chapters: vec![
                chapter("a", collected, vec![par(vec![r("1")]), def("1", vec![])]),
                chapter("plain", None, vec![par(vec![r("1")]), def("1", vec![])]),
                chapter(
                    "b",
                    collected,
                    vec![
                        par(vec![r("1"), r("2")]),
                        def("1", vec![]),
                        def("2", vec![]),
                    ],
                ),
                chapter(
                    "c",
                    style(NotePlacement::Footnotes, NoteNumbering::PerChapter),
                    vec![par(vec![r("1")]), def("1", vec![])],
                ),
                notes_chapter,
            ],
            ..crate::tests::empty_book()
        };
        let plan = NotesPlan::of(&book);
        assert_eq!(plan.collector(), Some(4));
        assert_eq!(
            plan.chapter(0).placement,
            Placement::Collected { chapter: 4 }
        );
        assert_eq!(labels(plan.chapter(2)), [("1", 2), ("2", 3)]);
        assert_eq!(plan.chapter(2).notes[0].id, "b-note-2");
        assert_eq!(labels(plan.chapter(1)), [("1", 1)], "no style: from 1");
        assert_eq!(plan.chapter(1).placement, Placement::Endnotes);
        assert_eq!(plan.chapter(3).placement, Placement::Footnotes);
        assert_eq!(labels(plan.chapter(3)), [("1", 1)]);
        assert_eq!(plan.collected(), [0, 2]);
    }

    #[test]
    fn without_a_notes_chapter_collected_notes_are_endnotes() {
        let style = Some(NoteStyle {
            placement: NotePlacement::NotesChapter,
            numbering: NoteNumbering::PerChapter,
        });
        let book = Book {
            chapters: vec![chapter(
                "a",
                style,
                vec![par(vec![r("1")]), def("1", vec![])],
            )],
            ..crate::tests::empty_book()
        };
        assert_eq!(
            NotesPlan::of(&book).chapter(0).placement,
            Placement::Endnotes
        );
    }
}
