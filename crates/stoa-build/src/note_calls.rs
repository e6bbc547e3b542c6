//! Where note calls stand beside punctuation, settled once in the tree
//! before any format is rendered, so the EPUB, the PDF and the web edition
//! agree: after the punctuation in English (`word.¹`), before it in
//! Portuguese, Spanish and French (`word¹.`), as written when the book says
//! so (`[notes] call`).

use stoa_doc::{Block, Book, Inline};
use stoa_locale::NoteCall;

/// Marks a note call goes after in English: sentence punctuation, the
/// ellipsis and closing quotes.
fn after_mark(c: char) -> bool {
    matches!(
        c,
        '.' | ',' | ';' | ':' | '?' | '!' | '…' | '”' | '’' | '»' | '›'
    )
}

/// Marks a note call goes before where the usage says so: punctuation,
/// with the no-break spaces French sets before `;:?!`. A closing quote is
/// not one: the call stays after it («citation»¹.).
fn before_mark(c: char) -> bool {
    matches!(
        c,
        '.' | ',' | ';' | ':' | '?' | '!' | '…' | '\u{a0}' | '\u{202f}'
    )
}

/// Abbreviations whose period is part of the word, in the languages that
/// put the call before punctuation (and English, for quotations).
const ABBREVIATIONS: &[&str] = &[
    "al", "ap", "art", "c", "cap", "cf", "cit", "dr", "dra", "ed", "eds", "etc", "ex", "fig",
    "ibid", "id", "n", "nº", "núm", "obs", "op", "p", "pág", "pp", "prof", "profa", "s", "sr",
    "sra", "sec", "séc", "ss", "trad", "v", "vol", "vols", "vs",
];

/// Whether `text` ends in an abbreviation whose period follows: a word of
/// the list above, an initial (`J`) or a word with inner periods (`e.g`).
fn ends_in_abbreviation(text: &str) -> bool {
    let word = text
        .rsplit(|c: char| c.is_whitespace() || matches!(c, '(' | '[' | '«' | '“' | '‘'))
        .next()
        .unwrap_or("");
    if word.is_empty() || !word.chars().next().is_some_and(char::is_alphabetic) {
        return false;
    }
    word.contains('.')
        || word.chars().count() == 1
        || ABBREVIATIONS.contains(&word.to_lowercase().as_str())
}

/// Moves the punctuation around every note call of `book` as `call` says.
pub(crate) fn place(book: &mut Book, call: NoteCall) {
    if call == NoteCall::AsWritten {
        return;
    }
    for chapter in &mut book.chapters {
        blocks(&mut chapter.blocks, call);
    }
}

fn blocks(blocks_: &mut [Block], call: NoteCall) {
    for block in blocks_ {
        for run in block.inline_runs_mut() {
            inlines(run, call);
        }
        for children in block.child_blocks_mut() {
            blocks(children, call);
        }
    }
}

fn inlines(run: &mut Vec<Inline>, call: NoteCall) {
    for inline in run.iter_mut() {
        if let Some(children) = inline.children_mut() {
            inlines(children, call);
        }
    }
    let mut i = 0;
    while i < run.len() {
        if !matches!(run[i], Inline::FootnoteRef { .. }) {
            i += 1;
            continue;
        }
        // A group of calls side by side (`word¹²`) moves as one.
        let start = i;
        while i < run.len() && matches!(run[i], Inline::FootnoteRef { .. }) {
            i += 1;
        }
        let end = i;
        // The call must be attached to a word: after text that does not end
        // in a space, or a marked-up word; never at a paragraph's start.
        let attached = start > 0
            && match &run[start - 1] {
                Inline::Text { text } => !text.ends_with(char::is_whitespace),
                Inline::SoftBreak | Inline::LineBreak => false,
                _ => true,
            };
        if !attached {
            continue;
        }
        match call {
            NoteCall::AfterPunctuation => {
                let Some(Inline::Text { text }) = run.get_mut(end) else {
                    continue;
                };
                let cut = text
                    .char_indices()
                    .find(|&(_, c)| !after_mark(c))
                    .map_or(text.len(), |(at, _)| at);
                if cut == 0 {
                    continue;
                }
                let marks: String = text.drain(..cut).collect();
                if text.is_empty() {
                    run.remove(end);
                }
                append_before(run, start, marks);
                // Rescans from the group: nothing more moves there.
                i = start + 1;
            }
            NoteCall::BeforePunctuation => {
                let Inline::Text { text } = &mut run[start - 1] else {
                    continue;
                };
                let cut = text
                    .char_indices()
                    .rev()
                    .take_while(|&(_, c)| before_mark(c))
                    .last()
                    .map_or(text.len(), |(at, _)| at);
                // An abbreviation keeps its period (`etc.¹`, not `etc¹.`).
                let cut = if text[cut..].starts_with('.') && ends_in_abbreviation(&text[..cut]) {
                    cut + 1
                } else {
                    cut
                };
                // Only spaces, no punctuation: nothing to move.
                if text[cut..]
                    .chars()
                    .all(|c| !c.is_ascii_punctuation() && c != '…')
                {
                    continue;
                }
                let marks = text.split_off(cut);
                let mut end = end;
                if text.is_empty() {
                    // The text was the punctuation alone (`*word*.`).
                    run.remove(start - 1);
                    end -= 1;
                }
                match run.get_mut(end) {
                    Some(Inline::Text { text }) => text.insert_str(0, &marks),
                    _ => run.insert(end, Inline::Text { text: marks }),
                }
                i = end;
            }
            NoteCall::AsWritten => {}
        }
    }
}

/// Puts `marks` at the end of what precedes the calls at `start`: the text
/// there, or a text of their own after a marked-up word.
fn append_before(run: &mut Vec<Inline>, start: usize, marks: String) {
    match &mut run[start - 1] {
        Inline::Text { text } => text.push_str(&marks),
        _ => run.insert(start, Inline::Text { text: marks }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Inline {
        Inline::Text { text: s.into() }
    }

    fn call(n: &str) -> Inline {
        Inline::FootnoteRef { label: n.into() }
    }

    /// The run as a string, a call written `[n]`.
    fn show(run: &[Inline]) -> String {
        run.iter()
            .map(|i| match i {
                Inline::Text { text } => text.clone(),
                Inline::FootnoteRef { label } => format!("[{label}]"),
                Inline::Emph { content } => format!("*{}*", show(content)),
                _ => "?".into(),
            })
            .collect()
    }

    fn placed(mut run: Vec<Inline>, how: NoteCall) -> String {
        inlines(&mut run, how);
        show(&run)
    }

    use NoteCall::{AfterPunctuation as After, AsWritten, BeforePunctuation as Before};

    #[test]
    fn english_puts_the_call_after_punctuation_and_closing_quotes() {
        let run = vec![text("a word"), call("1"), text(". Next")];
        assert_eq!(placed(run, After), "a word.[1] Next");
        let run = vec![text("“quoted"), call("1"), call("2"), text("”, then")];
        assert_eq!(placed(run, After), "“quoted”,[1][2] then");
        let run = vec![text("why"), call("1"), text("?")];
        assert_eq!(placed(run, After), "why?[1]");
        // Already after: unchanged.
        let run = vec![text("done."), call("1"), text(" Next")];
        assert_eq!(placed(run, After), "done.[1] Next");
    }

    #[test]
    fn a_marked_up_word_gets_the_punctuation_beside_it() {
        let run = vec![
            Inline::Emph {
                content: vec![text("word")],
            },
            call("1"),
            text(";"),
        ];
        assert_eq!(placed(run, After), "*word*;[1]");
        // Inside the emphasis too.
        let run = vec![Inline::Emph {
            content: vec![text("in"), call("1"), text(", out")],
        }];
        assert_eq!(placed(run, After), "*in,[1] out*");
    }

    #[test]
    fn portuguese_and_french_put_it_before() {
        let run = vec![text("uma palavra."), call("1"), text(" Depois")];
        assert_eq!(placed(run, Before), "uma palavra[1]. Depois");
        let run = vec![text("Quoi\u{202f}?"), call("1")];
        assert_eq!(placed(run, Before), "Quoi[1]\u{202f}?");
        // The call stays after a closing quote.
        let run = vec![text("«\u{a0}citation\u{a0}»."), call("1")];
        assert_eq!(placed(run, Before), "«\u{a0}citation\u{a0}»[1].");
        let run = vec![text("a"), call("1"), text(".")];
        assert_eq!(placed(run, Before), "a[1].");
        let run = vec![
            Inline::Emph {
                content: vec![text("Livro")],
            },
            text("."),
            call("1"),
            text(" E"),
        ];
        assert_eq!(placed(run, Before), "*Livro*[1]. E");
    }

    #[test]
    fn an_abbreviation_keeps_its_period_before_the_call() {
        let run = vec![text("livros, revistas etc."), call("1"), text(" Depois")];
        assert_eq!(placed(run, Before), "livros, revistas etc.[1] Depois");
        let run = vec![text("ver cf."), call("1")];
        assert_eq!(placed(run, Before), "ver cf.[1]");
        let run = vec![text("(e.g."), call("1")];
        assert_eq!(placed(run, Before), "(e.g.[1]");
        // Only the period is the word's: a comma after it still moves.
        let run = vec![text("etc.,"), call("1"), text(" e")];
        assert_eq!(placed(run, Before), "etc.[1], e");
        // An ordinary word's period moves.
        let run = vec![text("o fim."), call("1")];
        assert_eq!(placed(run, Before), "o fim[1].");
    }

    #[test]
    fn loose_calls_and_as_written_stay_put() {
        let run = vec![call("1"), text(". Start")];
        assert_eq!(placed(run, After), "[1]. Start");
        let run = vec![text("word "), call("1"), text(".")];
        assert_eq!(placed(run, After), "word [1].");
        let run = vec![text("word"), call("1"), text(".")];
        assert_eq!(placed(run, AsWritten), "word[1].");
    }

    #[test]
    fn notes_in_lists_and_quotes_are_placed_too() {
        let mut tree = vec![Block::Quote {
            blocks: vec![Block::Paragraph {
                content: vec![text("deep"), call("1"), text(".")],
            }],
        }];
        blocks(&mut tree, After);
        let Block::Quote { blocks: inner } = &tree[0] else {
            panic!()
        };
        let Block::Paragraph { content } = &inner[0] else {
            panic!()
        };
        assert_eq!(show(content), "deep.[1]");
    }
}
