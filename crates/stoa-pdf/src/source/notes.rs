//! Notes as the notes plan numbers and places them: references, footnotes,
//! endnotes and the notes chapter. The numbers printed are the plan's, in
//! every mode: Typst's footnote counter never decides one.

use std::borrow::Cow;
use std::fmt::Write;

use stoa_doc::{Chapter, ChapterNotes, Note, Placement};

use super::{ChapterCtx, Gen, opt_lit};
use crate::depth::bounded;

/// The label of `note` (where it is printed) in the chapter with key `key`.
fn note_label(key: &str, note: &Note) -> String {
    format!("{key}:{}", note.id)
}

/// The label of the first reference to `note`, which the note links back to.
fn ref_label(key: &str, note: &Note) -> String {
    format!("{key}:{}", ChapterNotes::ref_id(note, 1))
}

impl Gen<'_> {
    /// A reference: the note itself at the foot of the page in footnote
    /// mode, else its number linking to the note. Only the first reference
    /// to a note is labelled, as a label must be unique to be linked to.
    pub(super) fn note_ref(&mut self, label: &str, ctx: &mut ChapterCtx) {
        let plan = ctx.notes;
        let Some(note) = plan.note(label) else {
            // Reported once per chapter, by `report_undefined`.
            self.out.push('#');
            self.lit(&format!("[^{label}]"));
            return;
        };
        let first = self.first_refs[ctx.index].insert(note.number);
        let target = note_label(&ctx.key, note);
        match plan.placement {
            Placement::Footnotes if first => {
                let _ = write!(self.out, "#note-foot({}, ", note.number);
                self.lit(&target);
                self.out.push_str(", ");
                let blocks = bounded(&note.blocks);
                self.block_content(&blocks, ctx);
                self.out.push(')');
            }
            Placement::Footnotes => {
                let _ = write!(self.out, "#note-foot-again({}, ", note.number);
                self.lit(&target);
                self.out.push(')');
            }
            Placement::Endnotes | Placement::Collected { .. } => {
                let _ = write!(self.out, "#note-ref({}, ", note.number);
                self.lit(&target);
                self.out.push_str(", ");
                let back = first.then(|| ref_label(&ctx.key, note));
                self.out.push_str(&opt_lit(back.as_deref()));
                self.out.push(')');
            }
        }
    }

    /// The chapter's endnotes, after its text, when the plan puts them there.
    pub(super) fn endnotes(&mut self, ctx: &mut ChapterCtx, title: &str) {
        if ctx.notes.placement == Placement::Endnotes && !ctx.notes.notes.is_empty() {
            self.note_list(ctx, Some(title));
        }
    }

    /// In the notes chapter: the notes of every chapter that collects its
    /// notes there, under a heading per chapter linking to it.
    pub(super) fn collected_notes(&mut self, chapters: &[Cow<Chapter>]) {
        for index in self.notes.collected() {
            let chapter = &chapters[index];
            let ctx = &mut self.chapter_ctx(chapter, index);
            self.out.push_str("\n\n#notes-heading(");
            self.lit(&chapter.title);
            self.out.push_str(", ");
            self.lit(&ctx.key);
            self.out.push(')');
            self.note_list(ctx, None);
        }
    }

    /// `#endnotes(title: …, ((number:, id:, back:, body:), …))`: the notes
    /// in number order, each number linking back to the first reference
    /// (every planned note has one, in the text or in an earlier note).
    fn note_list(&mut self, ctx: &mut ChapterCtx, title: Option<&str>) {
        let plan = ctx.notes;
        self.out.push_str("\n\n#endnotes(title: ");
        self.out.push_str(&opt_lit(title));
        self.out.push_str(", (");
        for note in &plan.notes {
            let _ = write!(self.out, "\n  (number: {}, id: ", note.number);
            self.lit(&note_label(&ctx.key, note));
            self.out.push_str(", back: ");
            self.lit(&ref_label(&ctx.key, note));
            self.out.push_str(", body: ");
            let blocks = bounded(&note.blocks);
            self.block_content(&blocks, ctx);
            self.out.push_str("),");
        }
        self.out.push_str("\n))");
    }
}
