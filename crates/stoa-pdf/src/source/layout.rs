//! Parts and openings in the generated source: a `#part-page(..)` call
//! before the first chapter of each part, and the `opening:` of each
//! chapter that does not open on a recto. A book without parts and with
//! every post on a recto gets neither, so a theme written before parts
//! existed keeps working for it.

use std::collections::HashMap;
use stoa_doc::escape::typst_string;
use stoa_doc::{Chapter, ChapterKind};
use stoa_render::{Layout, Opening};

/// What the generator needs of the layout, by chapter index.
#[derive(Default)]
pub(crate) struct Plan {
    /// Chapter index → the title of the part that starts at it, and the
    /// part's key (its label, for the contents and links).
    starts: HashMap<usize, (String, String)>,
    /// Chapter index → where it opens, as the theme receives it.
    openings: Vec<Opening>,
    /// Chapter index → whether it belongs to a part: its title is then a
    /// level-2 heading and its sections one level deeper, so that the PDF
    /// bookmarks nest it under its part's entry.
    in_part: Vec<bool>,
}

impl Plan {
    /// The plan of `chapters` under `layout`. A post that would run on
    /// cannot when nothing it could run on precedes it (the first chapter,
    /// the first of a part after its part page, the first after back
    /// matter): it then opens on the next page. Back matter opens on a
    /// recto.
    pub(crate) fn of(layout: &Layout, chapters: &[Chapter]) -> Self {
        let mut plan = Plan {
            in_part: vec![false; chapters.len()],
            ..Plan::default()
        };
        for group in layout.groups(chapters) {
            if let (Some(part), Some(&first)) = (group.part, group.chapters.first()) {
                let title = layout.parts[part].title.clone();
                plan.starts
                    .insert(first, (title, format!("part:{}", part + 1)));
                for &index in &group.chapters {
                    plan.in_part[index] = true;
                }
            }
        }
        for (index, chapter) in chapters.iter().enumerate() {
            let opening = if chapter.kind == ChapterKind::Post {
                layout.opening(&chapter.slug)
            } else {
                Opening::Right
            };
            let follows_post = index
                .checked_sub(1)
                .is_some_and(|prev| chapters[prev].kind == ChapterKind::Post);
            let opening = match opening {
                Opening::RunOn if !follows_post || plan.starts.contains_key(&index) => Opening::Any,
                other => other,
            };
            plan.openings.push(opening);
        }
        plan
    }

    /// The `#part-page(..)` call that goes before chapter `index`, if a
    /// part starts there.
    pub(crate) fn part_page(&self, index: usize) -> Option<String> {
        let (title, key) = self.starts.get(&index)?;
        Some(format!(
            "\n#part-page(key: {}, title: {})\n",
            typst_string(key),
            typst_string(title)
        ))
    }

    /// The `, level: 2` argument of chapter `index` when it belongs to a
    /// part (its title's heading level, under the part's level-1 page);
    /// empty otherwise, the theme's default.
    pub(crate) fn level_arg(&self, index: usize) -> &'static str {
        if self.in_part(index) {
            ", level: 2"
        } else {
            ""
        }
    }

    /// How many levels chapter `index`'s headings sit below where they
    /// would in a book without parts: 1 in a part, else 0.
    pub(crate) fn offset(&self, index: usize) -> u8 {
        u8::from(self.in_part(index))
    }

    fn in_part(&self, index: usize) -> bool {
        self.in_part.get(index).copied().unwrap_or(false)
    }

    /// The `, opening: ".."` argument of chapter `index`; empty for a
    /// recto, the theme's default.
    pub(crate) fn opening_arg(&self, index: usize) -> String {
        match self.openings.get(index).copied().unwrap_or_default() {
            Opening::Right => String::new(),
            other => format!(", opening: {}", typst_string(other.name())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_render::Part;

    fn chapter(slug: &str, kind: ChapterKind) -> Chapter {
        Chapter {
            slug: slug.into(),
            kind,
            title: slug.into(),
            ..Chapter::default()
        }
    }

    #[test]
    fn parts_start_at_their_first_chapter_and_run_on_needs_a_post_before() {
        let layout = Layout {
            parts: vec![
                Part {
                    title: "Essays #1".into(),
                    slugs: vec!["a".into(), "b".into()],
                },
                Part {
                    title: "Thoughts".into(),
                    slugs: vec!["c".into(), "d".into()],
                },
            ],
            openings: [
                ("a".to_string(), Opening::RunOn),
                ("b".to_string(), Opening::Any),
                ("c".to_string(), Opening::RunOn),
                ("d".to_string(), Opening::RunOn),
            ]
            .into(),
            short_titles: Default::default(),
        };
        let chapters = [
            chapter("a", ChapterKind::Post),
            chapter("b", ChapterKind::Post),
            chapter("c", ChapterKind::Post),
            chapter("d", ChapterKind::Post),
            chapter("about", ChapterKind::About),
        ];
        let plan = Plan::of(&layout, &chapters);
        assert_eq!(
            plan.part_page(0).unwrap(),
            "\n#part-page(key: \"part:1\", title: \"Essays #1\")\n"
        );
        assert!(plan.part_page(1).is_none());
        assert!(plan.part_page(2).unwrap().contains("\"part:2\""));
        let args: Vec<String> = (0..5).map(|i| plan.opening_arg(i)).collect();
        assert_eq!(
            args,
            [
                ", opening: \"any\"",
                ", opening: \"any\"",
                ", opening: \"any\"",
                ", opening: \"run-on\"",
                ""
            ]
        );
        // The posts of parts nest one level down; back matter does not.
        let levels: Vec<&str> = (0..5).map(|i| plan.level_arg(i)).collect();
        assert_eq!(
            levels,
            [", level: 2", ", level: 2", ", level: 2", ", level: 2", ""]
        );
        assert_eq!((plan.offset(0), plan.offset(4)), (1, 0));
        // Without a layout, nothing changes in the source.
        let plan = Plan::of(Layout::empty(), &chapters);
        assert!((0..5).all(|i| plan.part_page(i).is_none()
            && plan.opening_arg(i).is_empty()
            && plan.level_arg(i).is_empty()
            && plan.offset(i) == 0));
    }
}
