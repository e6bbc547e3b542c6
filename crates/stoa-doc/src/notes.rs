//! How a chapter's notes are set. The footnotes plugin records its settings
//! in `plugin_data["footnotes"]` (docs/footnotes.md); both renderers read
//! them through these functions so that the convention lives in one place.

use crate::{Chapter, ChapterKind};

/// The key of the footnotes plugin's data in `Chapter::plugin_data`.
pub const FOOTNOTES_KEY: &str = "footnotes";

/// The mode the footnotes plugin set for `chapter` (`"footnotes"`,
/// `"endnotes"` or `"notes-chapter"`) and whether numbering is continuous;
/// `None` when no plugin set one (notes are then the post's endnotes).
pub fn note_mode(chapter: &Chapter) -> Option<(&str, bool)> {
    let data = chapter.plugin_data.get(FOOTNOTES_KEY)?;
    let mode = data.get("mode")?.as_str()?;
    let continuous = data.get("numbering").and_then(|n| n.as_str()) == Some("continuous");
    Some((mode, continuous))
}

/// Whether `chapter` is the notes chapter that collects the posts' notes.
pub fn collects_notes(chapter: &Chapter) -> bool {
    chapter.kind == ChapterKind::Notes
        && chapter
            .plugin_data
            .get(FOOTNOTES_KEY)
            .and_then(|d| d.get("collect"))
            .and_then(|c| c.as_bool())
            == Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_plugin_settings() {
        let mut chapter = Chapter::default();
        assert_eq!(note_mode(&chapter), None);
        chapter.plugin_data.insert(
            FOOTNOTES_KEY.into(),
            serde_json::json!({"mode": "footnotes", "numbering": "continuous", "collect": true}),
        );
        assert_eq!(note_mode(&chapter), Some(("footnotes", true)));
        assert!(!collects_notes(&chapter), "only a notes chapter collects");
        chapter.kind = ChapterKind::Notes;
        assert!(collects_notes(&chapter));
    }
}
