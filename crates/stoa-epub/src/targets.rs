//! Where the ids of the book live, so that a `#id` link reaches an id in
//! another chapter: it becomes `other-chapter.xhtml#id`.

use std::collections::HashMap;
use stoa_doc::{Block, Book, Inline};

/// Every id of the book (heading ids, `id` attributes of divs and spans)
/// with the chapter files it is in, in reading order.
#[derive(Debug, Default)]
pub struct Targets {
    files: HashMap<String, Vec<String>>,
}

impl Targets {
    /// The ids of every chapter of `book`.
    pub fn of(book: &Book) -> Self {
        let mut targets = Targets::default();
        for chapter in &book.chapters {
            let file = crate::chapter_file(&chapter.slug);
            let mut ids = Vec::new();
            // The chapter's own section carries its slug as id (pages.rs).
            ids.push(chapter.slug.clone());
            collect(&chapter.blocks, &mut ids);
            for id in ids {
                let files = targets.files.entry(id).or_default();
                if !files.contains(&file) {
                    files.push(file.clone());
                }
            }
        }
        targets
    }

    /// `url` as written in `file`: a `#id` that is not in `file` but in
    /// another chapter points there (the first in reading order); anything
    /// else is kept.
    pub fn href<'u>(&self, url: &'u str, file: &str) -> std::borrow::Cow<'u, str> {
        let Some(id) = url.strip_prefix('#') else {
            return url.into();
        };
        match self.files.get(id) {
            Some(files) if !files.iter().any(|f| f == file) => format!("{}{url}", files[0]).into(),
            _ => url.into(),
        }
    }
}

fn collect(blocks: &[Block], ids: &mut Vec<String>) {
    for block in blocks {
        match block {
            Block::Heading { id, content, .. } => {
                ids.push(id.clone());
                collect_inlines(content, ids);
            }
            Block::Paragraph { content } => collect_inlines(content, ids),
            Block::List { items, .. } => items.iter().for_each(|i| collect(&i.blocks, ids)),
            Block::Quote { blocks } | Block::FootnoteDef { blocks, .. } => collect(blocks, ids),
            Block::Div { attrs, blocks, .. } => {
                ids.extend(attrs.get("id").cloned());
                collect(blocks, ids);
            }
            Block::Table { head, rows, .. } => head
                .iter()
                .chain(rows.iter().flatten())
                .for_each(|c| collect_inlines(c, ids)),
            Block::Code { .. } | Block::Rule => {}
        }
    }
}

fn collect_inlines(inlines: &[Inline], ids: &mut Vec<String>) {
    for inline in inlines {
        match inline {
            Inline::Span { attrs, content, .. } => {
                ids.extend(attrs.get("id").cloned());
                collect_inlines(content, ids);
            }
            Inline::Emph { content }
            | Inline::Strong { content }
            | Inline::Strike { content }
            | Inline::Link { content, .. } => collect_inlines(content, ids),
            _ => {}
        }
    }
}
