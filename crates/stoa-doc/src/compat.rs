//! Keeping plugins built against an older minor tree version working.
//!
//! A tree version is `major.minor`. A new major breaks the wire: plugins of
//! another major are refused. A new minor only adds (a field, a role, a
//! block kind, a format), and an older plugin must pass what it does not know
//! through untouched. serde drops fields a plugin's types lack, so before a
//! tree goes to such a plugin the host *lowers* it: each addition is moved
//! into a place every version keeps (`attrs` of containers, `plugin_data` of
//! chapters, under `stoa:` keys). After the plugin answers, the host
//! *raises* the tree back. Nothing a plugin never saw is lost.
//!
//! Additions by minor version:
//! - 1.1: `role` of divs, spans and chapters; `notes` of chapters; the `html`
//!   format (a 1.0 plugin is never asked for `html` styles).
//! - 1.2: the `raw` block and inline (output for one format). For an older
//!   plugin a raw block becomes an empty div of class [`RAW_CLASS`] and a
//!   raw inline an empty span of it, the format and payload in `attrs`
//!   under [`RAW_FORMAT_KEY`] and [`RAW_PAYLOAD_KEY`].

use crate::walk::{walk_blocks_mut, walk_inlines_mut};
use crate::{Attrs, Block, Book, Chapter, Format, Inline, Role};

/// The key under which a lowered role waits in `attrs` or `plugin_data`.
pub const ROLE_KEY: &str = "stoa:role";
/// The key under which a lowered note style waits in `plugin_data`.
pub const NOTES_KEY: &str = "stoa:notes";

/// The class of the div or span that stands for a raw block or inline
/// in a tree lowered below 1.2.
pub const RAW_CLASS: &str = "stoa:raw";
/// The key of a lowered raw node's format in `attrs`.
pub const RAW_FORMAT_KEY: &str = "stoa:raw-format";
/// The key of a lowered raw node's payload in `attrs`.
pub const RAW_PAYLOAD_KEY: &str = "stoa:raw-payload";

/// Prepares `chapter` for a plugin that reads tree minor version `minor`.
pub fn lower_chapter(chapter: &mut Chapter, minor: u32) {
    if minor < 2 {
        lower_raw(chapter);
    }
    if minor >= 1 {
        return;
    }
    if let Some(role) = chapter.role.take() {
        chapter
            .plugin_data
            .insert(ROLE_KEY.into(), role.name().into());
    }
    if let Some(notes) = chapter.notes.take()
        && let Ok(value) = serde_json::to_value(notes)
    {
        chapter.plugin_data.insert(NOTES_KEY.into(), value);
    }
    walk_blocks_mut(&mut chapter.blocks, &mut |block| {
        if let Block::Div { role, attrs, .. } = block {
            lower_role(role, attrs);
        }
    });
    walk_inlines_mut(&mut chapter.blocks, &mut |inlines| {
        for inline in inlines {
            if let Inline::Span { role, attrs, .. } = inline {
                lower_role(role, attrs);
            }
        }
    });
}

/// Replaces every raw node of `chapter` by its tree 1.1 stand-in.
fn lower_raw(chapter: &mut Chapter) {
    fn raw_attrs(format: &mut String, payload: &mut String) -> Attrs {
        Attrs::from([
            (RAW_FORMAT_KEY.into(), std::mem::take(format)),
            (RAW_PAYLOAD_KEY.into(), std::mem::take(payload)),
        ])
    }
    walk_blocks_mut(&mut chapter.blocks, &mut |block| {
        if let Block::Raw { format, payload } = block {
            *block = Block::Div {
                role: None,
                class: RAW_CLASS.into(),
                attrs: raw_attrs(format, payload),
                blocks: Vec::new(),
            };
        }
    });
    walk_inlines_mut(&mut chapter.blocks, &mut |inlines| {
        for inline in inlines {
            if let Inline::Raw { format, payload } = inline {
                *inline = Inline::Span {
                    role: None,
                    class: RAW_CLASS.into(),
                    attrs: raw_attrs(format, payload),
                    content: Vec::new(),
                };
            }
        }
    });
}

/// The raw node a lowered stand-in holds: a container of [`RAW_CLASS`]
/// with both keys (what else an old plugin put in it is dropped: a raw
/// node has no children).
fn raised_raw(class: &str, attrs: &mut Attrs) -> Option<(String, String)> {
    if class != RAW_CLASS || !attrs.contains_key(RAW_FORMAT_KEY) {
        return None;
    }
    attrs.get(RAW_PAYLOAD_KEY)?;
    let format = attrs.remove(RAW_FORMAT_KEY)?;
    let payload = attrs.remove(RAW_PAYLOAD_KEY)?;
    Some((format, payload))
}

/// Undoes [`lower_chapter`] on what a plugin returned.
pub fn raise_chapter(chapter: &mut Chapter) {
    walk_blocks_mut(&mut chapter.blocks, &mut |block| {
        if let Block::Div { class, attrs, .. } = block
            && let Some((format, payload)) = raised_raw(class, attrs)
        {
            *block = Block::Raw { format, payload };
        }
    });
    walk_inlines_mut(&mut chapter.blocks, &mut |inlines| {
        for inline in inlines {
            if let Inline::Span { class, attrs, .. } = inline
                && let Some((format, payload)) = raised_raw(class, attrs)
            {
                *inline = Inline::Raw { format, payload };
            }
        }
    });
    if let Some(name) = chapter.plugin_data.remove(ROLE_KEY)
        && let Some(name) = name.as_str()
    {
        chapter.role = Some(Role::from_name(name));
    }
    if let Some(notes) = chapter.plugin_data.remove(NOTES_KEY) {
        chapter.notes = serde_json::from_value(notes).ok();
    }
    walk_blocks_mut(&mut chapter.blocks, &mut |block| {
        if let Block::Div { role, attrs, .. } = block {
            raise_role(role, attrs);
        }
    });
    walk_inlines_mut(&mut chapter.blocks, &mut |inlines| {
        for inline in inlines {
            if let Inline::Span { role, attrs, .. } = inline {
                raise_role(role, attrs);
            }
        }
    });
}

/// The formats a plugin reading tree minor version `minor` knows, in
/// build order.
pub fn formats_known(minor: u32) -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|f| f.since_minor() <= minor)
        .collect()
}

/// [`lower_chapter`] on every chapter of `book`.
pub fn lower_book(book: &mut Book, minor: u32) {
    book.chapters
        .iter_mut()
        .for_each(|c| lower_chapter(c, minor));
}

/// [`raise_chapter`] on every chapter of `book`.
pub fn raise_book(book: &mut Book) {
    book.chapters.iter_mut().for_each(raise_chapter);
}

fn lower_role(role: &mut Option<Role>, attrs: &mut Attrs) {
    if let Some(role) = role.take() {
        attrs.insert(ROLE_KEY.into(), role.name().into());
    }
}

fn raise_role(role: &mut Option<Role>, attrs: &mut Attrs) {
    if let Some(name) = attrs.remove(ROLE_KEY) {
        *role = Some(Role::from_name(&name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NotePlacement, NoteStyle};

    /// What a plugin built against tree 1.0 sees of a value: the JSON
    /// without the fields it does not know, as serde reads it.
    fn through_old_plugin(chapter: &Chapter) -> Chapter {
        let mut json = serde_json::to_value(chapter).unwrap();
        fn strip(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Object(map) => {
                    map.remove("role");
                    map.remove("notes");
                    map.values_mut().for_each(strip);
                }
                serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
                _ => {}
            }
        }
        strip(&mut json);
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn an_old_plugin_loses_nothing() {
        let chapter = Chapter {
            slug: "glossary".into(),
            role: Some(Role::Glossary),
            notes: Some(NoteStyle {
                placement: NotePlacement::Footnotes,
                ..NoteStyle::default()
            }),
            blocks: vec![Block::Div {
                role: Some(Role::DefinitionList),
                class: "list".into(),
                attrs: Attrs::new(),
                blocks: vec![Block::Paragraph {
                    content: vec![Inline::Span {
                        role: Some(Role::Speaker),
                        class: "who".into(),
                        attrs: Attrs::new(),
                        content: vec![],
                    }],
                }],
            }],
            ..Chapter::default()
        };
        let unprotected = through_old_plugin(&chapter);
        assert_ne!(unprotected, chapter, "serde drops what it does not know");
        let mut lowered = chapter.clone();
        lower_chapter(&mut lowered, 0);
        let mut back = through_old_plugin(&lowered);
        raise_chapter(&mut back);
        assert_eq!(back, chapter);
    }

    #[test]
    fn a_one_point_zero_plugin_knows_epub_and_pdf() {
        assert_eq!(formats_known(0), [Format::Epub, Format::Pdf]);
        assert_eq!(formats_known(crate::TREE_MINOR), Format::ALL);
    }

    #[test]
    fn a_current_plugin_gets_the_tree_as_is() {
        let chapter = Chapter {
            role: Some(Role::Glossary),
            ..Chapter::default()
        };
        let mut same = chapter.clone();
        lower_chapter(&mut same, crate::TREE_MINOR);
        assert_eq!(same, chapter);
    }

    /// A chapter with a raw block, a raw inline inside a div, and a div
    /// with a role, for the 1.2 tests.
    fn with_raw() -> Chapter {
        Chapter {
            slug: "raw".into(),
            blocks: vec![
                Block::raw("epub", "<hr class=\"end\"/>"),
                Block::Div {
                    role: Some(Role::Dialogue),
                    class: "dialogue".into(),
                    attrs: Attrs::new(),
                    blocks: vec![Block::Paragraph {
                        content: vec![Inline::text("a"), Inline::raw("pdf", "#h(1em)")],
                    }],
                },
            ],
            ..Chapter::default()
        }
    }

    /// What a plugin built against tree 1.1 can read: any `raw` node
    /// makes serde refuse the whole chapter.
    fn readable_by_one_point_one(chapter: &Chapter) -> bool {
        !serde_json::to_string(chapter)
            .unwrap()
            .contains("\"type\":\"raw\"")
    }

    #[test]
    fn raw_nodes_are_lowered_for_a_one_point_one_plugin_and_raised_back() {
        let chapter = with_raw();
        assert!(!readable_by_one_point_one(&chapter));
        let mut lowered = chapter.clone();
        lower_chapter(&mut lowered, 1);
        assert!(readable_by_one_point_one(&lowered));
        let Block::Div {
            class,
            attrs,
            blocks,
            ..
        } = &lowered.blocks[0]
        else {
            panic!("a raw block becomes a div: {:?}", lowered.blocks[0]);
        };
        assert_eq!(class, RAW_CLASS);
        assert_eq!(attrs[RAW_FORMAT_KEY], "epub");
        assert_eq!(attrs[RAW_PAYLOAD_KEY], "<hr class=\"end\"/>");
        assert!(blocks.is_empty());
        // The role is kept as 1.1 knows it.
        assert!(matches!(
            &lowered.blocks[1],
            Block::Div {
                role: Some(Role::Dialogue),
                ..
            }
        ));
        // Through the JSON, as the plugin would send it back.
        let json = serde_json::to_string(&lowered).unwrap();
        let mut back: Chapter = serde_json::from_str(&json).unwrap();
        raise_chapter(&mut back);
        assert_eq!(back, chapter);
    }

    #[test]
    fn raw_nodes_survive_a_one_point_zero_plugin() {
        let chapter = with_raw();
        let mut lowered = chapter.clone();
        lower_chapter(&mut lowered, 0);
        let mut back = through_old_plugin(&lowered);
        raise_chapter(&mut back);
        assert_eq!(back, chapter);
    }

    #[test]
    fn a_one_point_two_plugin_sees_raw_nodes_as_they_are() {
        let chapter = with_raw();
        let mut same = chapter.clone();
        lower_chapter(&mut same, 2);
        assert_eq!(same, chapter);
    }

    #[test]
    fn a_stand_in_missing_its_payload_stays_a_div() {
        // A plugin's own div that merely shares the class is not made raw
        // unless it carries both keys.
        let div = Block::Div {
            role: None,
            class: RAW_CLASS.into(),
            attrs: Attrs::from([(RAW_FORMAT_KEY.into(), "epub".into())]),
            blocks: vec![],
        };
        let mut chapter = Chapter {
            blocks: vec![div.clone()],
            ..Chapter::default()
        };
        raise_chapter(&mut chapter);
        assert_eq!(chapter.blocks, [div]);
    }
}
