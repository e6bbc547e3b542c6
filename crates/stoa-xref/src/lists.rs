//! Step 3: the lists of figures and of tables, as appendices: each item
//! its label, number and caption, a page reference to the element (every
//! format prints its print page).

use crate::find::caption_separator;
use crate::{Settings, Target, Targets, label_text};
use stoa_doc::xref::{self, Kind, label_id};
use stoa_doc::{Block, Book, Chapter, ChapterKind, Inline, Role};

/// Adds the lists `settings` asks for that have an item, after the last
/// chapter.
pub(crate) fn add(book: &mut Book, targets: &Targets, settings: &Settings) {
    let lists = [
        (
            settings.list_of_figures,
            Kind::Figure,
            book.labels.list_of_figures.clone(),
        ),
        (
            settings.list_of_tables,
            Kind::Table,
            book.labels.list_of_tables.clone(),
        ),
    ];
    for (wanted, kind, title) in lists {
        let mut items: Vec<(&String, &Target)> =
            targets.iter().filter(|(_, t)| t.kind == kind).collect();
        if !wanted || items.is_empty() {
            continue;
        }
        items.sort_by_key(|(_, t)| t.order);
        let blocks = items
            .into_iter()
            .map(|(label, target)| item(book, label, target))
            .collect();
        let slug = unique_slug(book, &format!("list-of-{}s", kind.name()));
        book.chapters.push(Chapter {
            slug,
            kind: ChapterKind::Appendix,
            role: Some(Role::Other(xref::LIST_ROLE.into())),
            title,
            blocks,
            ..Chapter::default()
        });
    }
}

/// "Figure 3. A grey wall", linking to the figure, its page after it.
fn item(book: &Book, label: &str, target: &Target) -> Block {
    let mut words = vec![Inline::text(label_text(
        &book.labels,
        target.kind,
        &target.number,
    ))];
    if !stoa_doc::inlines_text(&target.caption).trim().is_empty() {
        words.push(Inline::text(caption_separator(&book.labels)));
        words.extend(target.caption.iter().cloned());
    }
    Block::Paragraph {
        content: vec![Inline::Span {
            role: Some(Role::Other(stoa_doc::PAGE_REF_ROLE.into())),
            class: "xref-list-item".into(),
            attrs: Default::default(),
            content: vec![Inline::Link {
                url: format!("#{}", label_id(label)),
                title: String::new(),
                content: words,
            }],
        }],
    }
}

/// `slug`, or `slug-2`, … when a chapter has it.
fn unique_slug(book: &Book, slug: &str) -> String {
    let mut candidate = slug.to_string();
    let mut n = 1;
    while book.chapters.iter().any(|c| c.slug == candidate) {
        n += 1;
        candidate = format!("{slug}-{n}");
    }
    candidate
}
