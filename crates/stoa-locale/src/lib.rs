//! The locale table: labels, month names, date formats and number style per
//! language, read by every renderer, the Typst theme (as data) and the download page.
//!
//! A language is looked up by its BCP 47 tag: the whole tag first
//! (`en-GB`), then its primary subtag (`en`). [`locale`] says `None` for a
//! language the table has no words for, so that callers decide: the book
//! loader falls back to English and warns.

pub mod breaks;
mod labels;
mod table;

pub use breaks::{bind_title, head_candidates, is_short_word, short_words};
pub use labels::{BookWords, LABEL_KEYS};
pub use table::LOCALES;

/// Words and formats of one language.
#[derive(Debug)]
pub struct Locale {
    /// The tag this entry is for: a primary subtag (`pt`) or a whole tag (`en-GB`).
    pub tag: &'static str,
    /// The language's name in itself, e.g. `Português`.
    pub name: &'static str,
    /// January to December, as written inside a date.
    pub months: [&'static str; 12],
    /// How a date is written, with `{d}` (day), `{m}` (month name) and `{y}` (year).
    pub date_pattern: &'static str,
    /// Decimal separator.
    pub decimal: char,
    /// Where a note's call goes beside punctuation, unless the book says
    /// otherwise (`[notes] call` in book.toml).
    pub note_call: NoteCall,
    /// Words printed in the books, in every format.
    pub book: BookWords,
    /// Words of the web edition's pages.
    pub web: WebWords,
    /// Words of the download page and the catalogs.
    pub site: SiteWords,
    /// The EPUB's accessibility summary.
    pub accessibility: AccessibilityWords,
    /// Words of the text alternatives of diagrams.
    pub diagram: DiagramWords,
}

/// Where a note's call (its superscript number) goes when the note is
/// written next to punctuation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteCall {
    /// After `.`, `,`, `;`, `:`, `?`, `!` and closing quotes and brackets:
    /// English usage (Chicago, Standard Ebooks, Hart's rules).
    AfterPunctuation,
    /// Before them: usual in Portuguese, Spanish and French.
    BeforePunctuation,
    /// Where the author put it.
    AsWritten,
}

impl NoteCall {
    /// The name in book.toml: `after-punctuation`, `before-punctuation`, `as-written`.
    pub fn name(self) -> &'static str {
        match self {
            NoteCall::AfterPunctuation => "after-punctuation",
            NoteCall::BeforePunctuation => "before-punctuation",
            NoteCall::AsWritten => "as-written",
        }
    }
}

/// The EPUB's accessibility summary, in pieces the writer puts together.
#[derive(Debug)]
pub struct AccessibilityWords {
    /// What every book is: structure, navigation, reading order, no hazards.
    pub summary: &'static str,
    /// Added when an image lacks a text description.
    pub some_undescribed: &'static str,
    /// Added when every image has one.
    pub all_described: &'static str,
    /// Added when the EPUB carries the PDF's page breaks.
    pub paged: &'static str,
}

/// Words of the text alternatives of diagrams.
#[derive(Debug)]
pub struct DiagramWords {
    /// A flowchart.
    pub flowchart: &'static str,
    /// A sequence diagram.
    pub sequence: &'static str,
    /// An entity-relationship diagram.
    pub er: &'static str,
    /// Any other diagram.
    pub diagram: &'static str,
    /// Before the nodes that belong to no group.
    pub nodes: &'static str,
    /// Before the list of edges.
    pub arrows: &'static str,
    /// `{a} → {b}` said in words: `a`, this, `b`.
    pub to: &'static str,
    /// An edge without an arrow head.
    pub with: &'static str,
    /// Before a sequence diagram's participants.
    pub participants: &'static str,
    /// Before its messages.
    pub messages: &'static str,
    /// Before an ER diagram's entities.
    pub entities: &'static str,
    /// Before its relationships.
    pub relationships: &'static str,
    /// Before the labels of edges.
    pub labels: &'static str,
}

/// Words of the web edition.
#[derive(Debug)]
pub struct WebWords {
    /// The link to the previous chapter.
    pub previous: &'static str,
    /// The link to the next chapter.
    pub next: &'static str,
    /// The skip link to the text.
    pub skip_to_text: &'static str,
    /// Accessible name of the chapter-to-chapter navigation.
    pub chapter_navigation: &'static str,
    /// The link from the book to the download page.
    pub all_books: &'static str,
    /// Before the publication date on the start page.
    pub published: &'static str,
    /// The button that starts reading.
    pub start_reading: &'static str,
    /// Accessible name of the links to the other languages.
    pub languages: &'static str,
}

/// Words of the download page and the OPDS catalogs.
#[derive(Debug)]
pub struct SiteWords {
    /// The page heading.
    pub heading: &'static str,
    /// The line under the heading: which format to pick.
    pub lede: &'static str,
    /// The verb on the download buttons.
    pub download: &'static str,
    /// The link to the web edition.
    pub read_online: &'static str,
    /// Accessible name of each edition's list of files.
    pub files: &'static str,
    /// Alt text of a cover, before the title.
    pub cover_of: &'static str,
    /// Before the publication date.
    pub published: &'static str,
    /// The skip link.
    pub skip: &'static str,
    /// The footer's note about the OPDS catalog, before its link.
    pub catalog: &'static str,
    /// Between the full catalog's link and this language's.
    pub catalog_or: &'static str,
    /// After this language's catalog link.
    pub catalog_lang: &'static str,
    /// The footer's note on checksums, before the command.
    pub verify: &'static str,
    /// The placeholder in that command.
    pub file_word: &'static str,
    /// What the page says when there is nothing to download.
    pub empty: &'static str,
    /// How complete an edition is, with `{n}` (its posts) and `{total}`
    /// (the book's): "14 of 15 posts".
    pub posts_of: &'static str,
    /// The same when the book has one post.
    pub posts_of_one: &'static str,
    /// A PDF's page count, with `{n}`: "96 pages".
    pub pages: &'static str,
    /// The same for a PDF of one page.
    pub pages_one: &'static str,
    /// The summary of the tucked-away list of checksums.
    pub checksums: &'static str,
}

impl SiteWords {
    /// How complete an edition is: "14 of 15 posts", "14 de 15 textos".
    pub fn completeness(&self, posts: usize, total: usize) -> String {
        let pattern = if total == 1 {
            self.posts_of_one
        } else {
            self.posts_of
        };
        pattern
            .replace("{n}", &posts.to_string())
            .replace("{total}", &total.to_string())
    }

    /// A PDF's page count: "96 pages", "96 páginas".
    pub fn page_count(&self, pages: usize) -> String {
        let pattern = if pages == 1 {
            self.pages_one
        } else {
            self.pages
        };
        pattern.replace("{n}", &pages.to_string())
    }
}

/// The entry for `tag`: the whole tag, else its primary subtag; `None`
/// when the table has no words for the language.
pub fn locale(tag: &str) -> Option<&'static Locale> {
    let primary = primary(tag);
    LOCALES
        .iter()
        .find(|l| l.tag.eq_ignore_ascii_case(tag))
        .or_else(|| LOCALES.iter().find(|l| l.tag.eq_ignore_ascii_case(primary)))
}

/// The entry for `tag`, or English when the table has none.
pub fn locale_or_english(tag: &str) -> &'static Locale {
    locale(tag).unwrap_or(&LOCALES[0])
}

/// The writing direction of the language `tag`: `"rtl"` for the languages
/// whose script is written right to left (Arabic, Hebrew, Persian, Urdu...),
/// `"ltr"` for every other.
pub fn direction(tag: &str) -> &'static str {
    // Primary subtags whose usual script runs right to left. A script
    // subtag overrides it either way (`az-Arab`, `ku-Latn`).
    const RTL_LANGUAGES: [&str; 14] = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi", "syr",
    ];
    const RTL_SCRIPTS: [&str; 8] = [
        "arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand",
    ];
    let mut subtags = tag.split(['-', '_']);
    let primary = subtags.next().unwrap_or_default().to_ascii_lowercase();
    if let Some(script) = subtags.next().filter(|s| s.len() == 4) {
        let script = script.to_ascii_lowercase();
        return if RTL_SCRIPTS.contains(&script.as_str()) {
            "rtl"
        } else {
            "ltr"
        };
    }
    if RTL_LANGUAGES.contains(&primary.as_str()) {
        "rtl"
    } else {
        "ltr"
    }
}

/// Whether `tag` is written right to left (see [`direction`]).
pub fn is_rtl(tag: &str) -> bool {
    direction(tag) == "rtl"
}

/// The primary subtag of a BCP 47 tag: `pt` of `pt-BR`.
pub fn primary(tag: &str) -> &str {
    tag.split(['-', '_']).next().unwrap_or(tag)
}

/// The primary subtags the table knows, for messages.
pub fn known_languages() -> Vec<&'static str> {
    let mut tags: Vec<&str> = LOCALES.iter().map(|l| primary(l.tag)).collect();
    tags.dedup();
    tags
}

impl Locale {
    /// A `YYYY-MM-DD` date in words, e.g. `30 de novembro de 2026`;
    /// the text unchanged when it is not such a date.
    pub fn long_date(&self, date: &str) -> String {
        match parse_date(date) {
            Some((y, m, d)) => self
                .date_pattern
                .replace("{d}", &d.to_string())
                .replace("{m}", self.months[usize::from(m) - 1])
                .replace("{y}", &y.to_string()),
            None => date.to_string(),
        }
    }

    /// A number with one decimal, in this language's style: `1,2`.
    pub fn decimal_number(&self, value: f64, decimals: usize) -> String {
        format!("{value:.decimals$}").replace('.', &self.decimal.to_string())
    }
}

/// A date `YYYY-MM-DD` as year, month and day, if it is one.
pub fn parse_date(date: &str) -> Option<(i32, u8, u8)> {
    let mut parts = date.trim().splitn(3, '-');
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok()?;
    let day = parts.next()?.parse().ok()?;
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_each_language_writes_them() {
        let date = "2024-05-31";
        assert_eq!(
            locale("pt-BR").unwrap().long_date(date),
            "31 de maio de 2024"
        );
        assert_eq!(locale("en").unwrap().long_date(date), "May 31, 2024");
        assert_eq!(locale("en-GB").unwrap().long_date(date), "31 May 2024");
        assert_eq!(locale("es").unwrap().long_date(date), "31 de mayo de 2024");
        assert_eq!(locale("fr").unwrap().long_date(date), "31 mai 2024");
        assert_eq!(locale("de").unwrap().long_date(date), "31. Mai 2024");
        assert_eq!(locale("en").unwrap().long_date("soon"), "soon");
        assert_eq!(locale("en").unwrap().long_date("2024-13-01"), "2024-13-01");
    }

    #[test]
    fn right_to_left_languages_are_known_by_language_or_script() {
        for tag in [
            "ar", "ar-EG", "he", "he-IL", "fa-IR", "ur-PK", "az-Arab", "yi",
        ] {
            assert_eq!(direction(tag), "rtl", "{tag}");
        }
        for tag in ["en", "pt-BR", "es-MX", "de-AT", "it", "ja", "ku-Latn", "ha"] {
            assert_eq!(direction(tag), "ltr", "{tag}");
        }
        assert!(is_rtl("he") && !is_rtl("fr-CA"));
    }

    #[test]
    fn tags_fall_back_to_their_primary_language() {
        assert_eq!(locale("pt-PT").unwrap().tag, "pt");
        assert_eq!(locale("EN-us").unwrap().tag, "en");
        assert!(locale("it").is_none());
        assert_eq!(locale_or_english("it").tag, "en");
        assert_eq!(
            known_languages(),
            ["en", "pt", "es", "fr", "de", "ru", "uk", "nl", "pl"]
        );
    }

    #[test]
    fn every_entry_is_complete() {
        for l in LOCALES {
            let words = [
                l.name,
                l.book.contents,
                l.book.notes,
                l.web.previous,
                l.web.next,
                l.site.heading,
                l.site.read_online,
                l.site.download,
                l.book.glossary,
                l.book.characters,
                l.accessibility.summary,
                l.accessibility.paged,
                l.diagram.flowchart,
                l.diagram.arrows,
            ];
            assert!(words.iter().all(|w| !w.is_empty()), "{}", l.tag);
            assert!(l.months.iter().all(|m| !m.is_empty()), "{}", l.tag);
            for key in ["{d}", "{m}", "{y}"] {
                assert!(l.date_pattern.contains(key), "{} lacks {key}", l.tag);
            }
        }
    }

    #[test]
    fn completeness_reads_as_each_language_says_it() {
        assert_eq!(
            locale("en").unwrap().site.completeness(14, 15),
            "14 of 15 posts"
        );
        assert_eq!(
            locale("pt-BR").unwrap().site.completeness(14, 15),
            "14 de 15 textos"
        );
        assert_eq!(locale("en").unwrap().site.completeness(1, 1), "1 of 1 post");
        for l in LOCALES {
            let text = l.site.completeness(3, 4);
            assert!(
                text.contains('3') && text.contains('4'),
                "{}: {text}",
                l.tag
            );
            assert!(l.site.completeness(0, 1).contains('1'), "{}", l.tag);
        }
    }

    #[test]
    fn page_counts_read_as_each_language_says_them() {
        assert_eq!(locale("en").unwrap().site.page_count(96), "96 pages");
        assert_eq!(locale("en").unwrap().site.page_count(1), "1 page");
        assert_eq!(locale("pt-BR").unwrap().site.page_count(96), "96 páginas");
        assert_eq!(locale("de").unwrap().site.page_count(1), "1 Seite");
        for l in LOCALES {
            assert!(l.site.page_count(7).contains('7'), "{}", l.tag);
            assert!(l.site.page_count(1).contains('1'), "{}", l.tag);
            assert!(l.site.checksums.contains("SHA-256"), "{}", l.tag);
        }
    }

    #[test]
    fn note_calls_follow_each_language_usage() {
        let call = |tag| locale(tag).unwrap().note_call;
        assert_eq!(call("en"), NoteCall::AfterPunctuation);
        assert_eq!(call("en-GB"), NoteCall::AfterPunctuation);
        for tag in ["pt-BR", "es", "fr-CA"] {
            assert_eq!(call(tag), NoteCall::BeforePunctuation, "{tag}");
        }
        assert_eq!(call("de"), NoteCall::AsWritten);
        assert_eq!(NoteCall::AfterPunctuation.name(), "after-punctuation");
    }

    #[test]
    fn decimals_use_the_local_separator() {
        assert_eq!(locale("pt").unwrap().decimal_number(1.25, 1), "1,2");
        assert_eq!(locale("en").unwrap().decimal_number(1.25, 1), "1.2");
    }
}
