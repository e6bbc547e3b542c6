//! The dialogue plugin on the real books: each dialogue has the turns the
//! corpus has (41, 74, 29 and 29 in the order the export gives them: masters,
//! the new tool, labels and truth, those who teach), and the PDF prints every
//! speaker's name before the speech, in reading order.

use crate::prelude::*;

const TURNS: [(&str, usize); 4] = [
    ("dialogue-on-masters", 41),
    ("dialogue-on-the-new-tool", 74),
    ("dialogue-on-labels-and-truth", 29),
    ("dialogue-on-those-who-teach", 29),
];

#[test]
fn dialogues_have_their_turns_in_both_formats() {
    let dist = books().dist();
    for (lang, names) in [
        ("pt-BR", ["Sócrates:", "Glauco:"]),
        ("en", ["Socrates:", "Glaucon:"]),
    ] {
        let epub = dist.join(format!("dialogues/dialogues-{lang}.epub"));
        for (slug, turns) in TURNS {
            let page = zip_entry(&epub, &format!("OEBPS/{slug}.xhtml"));
            assert_eq!(
                page.matches("class=\"turn\"").count(),
                turns,
                "{lang} {slug}"
            );
            assert_eq!(
                page.matches("class=\"dialogue-ending\"").count(),
                1,
                "{lang} {slug}: the closing line"
            );
        }
        let text = pdftotext(&dist.join(format!("dialogues/dialogues-{lang}.pdf")), &[]);
        let spoken = text
            .lines()
            .filter(|l| names.iter().any(|n| l.starts_with(n)))
            .count();
        assert_eq!(
            spoken, 173,
            "{lang}: every turn starts a line with its speaker's name"
        );
    }
}
