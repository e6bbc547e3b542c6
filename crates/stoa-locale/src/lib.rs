//! The locale table: the words stoa prints around the author's text, per
//! language, and dates and numbers as CLDR writes them (`cldr`), read by
//! every renderer, the Typst theme (as data) and the download page.
//!
//! A language is looked up by its BCP 47 tag: the whole tag first
//! (`en-GB`), then its primary subtag (`en`); Chinese by its script, then
//! its region (`zh-TW` reads Traditional Chinese). [`locale`] says `None`
//! for a language the table has no words for, so that callers decide: the
//! book loader falls back to English and warns.

pub mod breaks;
mod cldr;
mod labels;
mod table;
mod words;

pub use breaks::{bind_title, head_candidates, is_short_word, short_words};
pub use cldr::{decimal, long_date, quotes};
pub use labels::{BookWords, LABEL_KEYS};
pub use table::LOCALES;

/// The words of one language.
#[derive(Debug)]
pub struct Locale {
    /// The tag this entry is for: a primary subtag (`pt`) or a whole tag (`en-GB`).
    pub tag: &'static str,
    /// The language's name in itself, e.g. `Português`.
    pub name: &'static str,
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
    /// How complete an edition in `lang` is: "14 of 15 posts", "14 de 15
    /// textos", in the language's digits ("۱۴ از ۱۵ نوشته").
    pub fn completeness(&self, lang: &str, posts: usize, total: usize) -> String {
        let pattern = if total == 1 {
            self.posts_of_one
        } else {
            self.posts_of
        };
        pattern
            .replace("{n}", &count(lang, posts))
            .replace("{total}", &count(lang, total))
    }

    /// A PDF's page count in `lang`: "96 pages", "96 páginas", "৯৬ পৃষ্ঠা".
    pub fn page_count(&self, lang: &str, pages: usize) -> String {
        let pattern = if pages == 1 {
            self.pages_one
        } else {
            self.pages
        };
        pattern.replace("{n}", &count(lang, pages))
    }
}

/// A count in the language's digits, without grouping.
fn count(lang: &str, n: usize) -> String {
    cldr::decimal(lang, n as f64, 0)
}

/// The entry for `tag`: the whole tag, else its primary subtag; `None`
/// when the table has no words for the language. Case does not matter
/// (`EN-us` is `en`).
///
/// Chinese has two entries, Simplified (`zh-Hans`) and Traditional
/// (`zh-Hant`); a `zh` tag picks one by its script subtag, else by its
/// region: Taiwan, Hong Kong and Macau write Traditional characters
/// (`zh-TW`, `zh-HK`, `zh-MO`, like `zh-Hant` and `zh-Hant-HK`), every other
/// region and no region Simplified (`zh`, `zh-CN`, `zh-SG`, like `zh-Hans`
/// and `zh-Hans-CN`). The script wins over the region: `zh-Hans-HK` is
/// Simplified, `zh-Hant-CN` Traditional.
pub fn locale(tag: &str) -> Option<&'static Locale> {
    let tag = chinese(tag).unwrap_or(tag);
    let primary = primary(tag);
    LOCALES
        .iter()
        .find(|l| l.tag.eq_ignore_ascii_case(tag))
        .or_else(|| LOCALES.iter().find(|l| l.tag.eq_ignore_ascii_case(primary)))
}

/// The entry a Chinese tag reads, `zh-Hans` or `zh-Hant` (see [`locale`]);
/// `None` for a tag of another language.
fn chinese(tag: &str) -> Option<&'static str> {
    let mut subtags = tag.split(['-', '_']);
    if !subtags.next()?.eq_ignore_ascii_case("zh") {
        return None;
    }
    let mut traditional_region = false;
    // The subtags before an extension or private use (`-u-…`, `-x-…`): a
    // script comes before the region, so it decides first.
    for subtag in subtags.take_while(|s| s.len() > 1) {
        let is = |name: &str| subtag.eq_ignore_ascii_case(name);
        if is("Hans") {
            return Some("zh-Hans");
        }
        if is("Hant") {
            return Some("zh-Hant");
        }
        traditional_region |= is("TW") || is("HK") || is("MO");
    }
    Some(if traditional_region {
        "zh-Hant"
    } else {
        "zh-Hans"
    })
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
        assert_eq!(locale("it-CH").unwrap().tag, "it");
        assert_eq!(locale("fa_IR").unwrap().tag, "fa");
        for tag in ["sw", "eo", "fi-FI"] {
            assert!(locale(tag).is_none(), "{tag}");
            assert_eq!(locale_or_english(tag).tag, "en", "{tag}");
        }
        assert_eq!(
            known_languages(),
            [
                "en", "pt", "es", "fr", "de", "ru", "uk", "nl", "pl", "ar", "fa", "ur", "hi", "bn",
                "th", "zh", "ja", "ko", "tr", "it", "id", "vi", "am", "he", "ta", "ka", "hy", "si",
                "km", "el"
            ]
        );
    }

    #[test]
    fn chinese_is_simplified_or_traditional_by_script_then_region() {
        let simplified = [
            "zh",
            "zh-CN",
            "zh-SG",
            "zh-Hans",
            "zh-Hans-CN",
            "zh-Hans-HK",
            "zh-Hans-TW",
            "ZH-hans-tw",
            "zh_CN",
            "zh-Latn",
            "zh-u-nu-hanidec",
        ];
        for tag in simplified {
            assert_eq!(locale(tag).unwrap().tag, "zh-Hans", "{tag}");
        }
        let traditional = [
            "zh-TW",
            "zh-HK",
            "zh-MO",
            "zh-Hant",
            "zh-Hant-HK",
            "zh-Hant-TW",
            "zh-Hant-CN",
            "zh-hant",
            "ZH-tw",
            "zh_HK",
            "zh-TW-u-ca-roc",
        ];
        for tag in traditional {
            assert_eq!(locale(tag).unwrap().tag, "zh-Hant", "{tag}");
        }
        assert_eq!(locale("zh-Hans").unwrap().name, "简体中文");
        assert_eq!(locale("zh-TW").unwrap().name, "繁體中文");
        assert_eq!(locale("zh-TW").unwrap().book.contents, "目錄");
        assert_eq!(locale("zh-CN").unwrap().book.contents, "目录");
        assert_eq!(chinese("ja-JP"), None);
        assert_eq!(chinese("zha"), None);
    }

    /// Pushes every field of `$value`, a `$ty`, with its name: the pattern
    /// names every field, so that a field added to the struct and not here
    /// does not compile.
    macro_rules! fields {
        ($words:ident, $value:expr, $ty:ident { $($field:ident),* $(,)? }) => {
            let $ty { $($field),* } = $value;
            $($words.push((stringify!($field), *$field));)*
        };
    }

    /// Every word of an entry, with its field's name: its tag and name,
    /// the book's words (one per label key) and every field of the other
    /// structs.
    fn every_word(l: &Locale) -> Vec<(&'static str, &'static str)> {
        let Locale {
            tag,
            name,
            note_call: _,
            book,
            web,
            site,
            accessibility,
            diagram,
        } = l;
        let mut words = vec![("tag", *tag), ("name", *name)];
        for key in LABEL_KEYS {
            words.push((key, book.get(key).unwrap_or_default()));
        }
        fields!(
            words,
            web,
            WebWords {
                previous,
                next,
                skip_to_text,
                chapter_navigation,
                all_books,
                published,
                start_reading,
                languages,
            }
        );
        fields!(
            words,
            site,
            SiteWords {
                heading,
                lede,
                download,
                read_online,
                files,
                cover_of,
                published,
                skip,
                catalog,
                catalog_or,
                catalog_lang,
                verify,
                file_word,
                empty,
                posts_of,
                posts_of_one,
                pages,
                pages_one,
                checksums,
            }
        );
        fields!(
            words,
            accessibility,
            AccessibilityWords {
                summary,
                some_undescribed,
                all_described,
                paged,
            }
        );
        fields!(
            words,
            diagram,
            DiagramWords {
                flowchart,
                sequence,
                er,
                diagram,
                nodes,
                arrows,
                to,
                with,
                participants,
                messages,
                entities,
                relationships,
                labels,
            }
        );
        words
    }

    #[test]
    fn every_entry_is_complete() {
        assert_eq!(LOCALES[0].tag, "en", "English, the fallback, comes first");
        for l in LOCALES {
            let words = every_word(l);
            assert_eq!(words.len(), 2 + LABEL_KEYS.len() + 8 + 19 + 4 + 13);
            for (field, word) in words {
                // A caption separator may be a space alone (Thai, CJK).
                let blank = match field {
                    "caption-separator" => word.is_empty(),
                    _ => word.trim().is_empty(),
                };
                assert!(!blank, "{} lacks `{field}`", l.tag);
            }
            // Each entry is the one its own tag finds.
            assert!(std::ptr::eq(locale(l.tag).unwrap(), l), "{}", l.tag);
            assert_ne!(l.name, l.tag, "{}: the name in the language", l.tag);
        }
        let mut tags: Vec<String> = LOCALES.iter().map(|l| l.tag.to_lowercase()).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), LOCALES.len(), "a tag given twice");
    }

    #[test]
    fn every_entry_keeps_its_placeholders_and_names() {
        let patterns: [(&str, &[&str]); 4] = [
            ("posts_of", &["{n}", "{total}"]),
            ("posts_of_one", &["{n}"]),
            ("pages", &["{n}"]),
            ("pages_one", &["{n}"]),
        ];
        for l in LOCALES {
            for (field, word) in every_word(l) {
                let keys = patterns
                    .iter()
                    .find(|(name, _)| *name == field)
                    .map_or(&[][..], |(_, keys)| *keys);
                for key in keys {
                    assert_eq!(word.matches(key).count(), 1, "{} {field}: {key}", l.tag);
                }
                // No other placeholder, and none misspelt (`{N}`, `{ n }`).
                let braces = word.matches(['{', '}']).count();
                assert_eq!(braces, 2 * keys.len(), "{} {field}: {word}", l.tag);
            }
            let site = &l.site;
            for name in ["OPDS", "KOReader", "Thorium", "Calibre"] {
                assert!(site.catalog.contains(name), "{}: {name}", l.tag);
            }
            assert!(site.verify.contains("SHA-256"), "{}", l.tag);
            assert!(site.checksums.contains("SHA-256"), "{}", l.tag);
            assert!(l.book.typeset_with.contains("stoa"), "{}", l.tag);
            // Dutch writes `pdf` in running text.
            let lede = site.lede.to_lowercase();
            assert!(lede.contains("epub") && lede.contains("pdf"), "{}", l.tag);
            let paged = l.accessibility.paged.to_lowercase();
            assert!(paged.contains("pdf"), "{}", l.tag);
        }
    }

    #[test]
    fn each_script_keeps_its_own_punctuation() {
        // Chinese and Japanese: full-width marks, never the Latin ones.
        for tag in ["zh-Hans", "zh-Hant", "ja"] {
            for (field, word) in every_word(locale(tag).unwrap()) {
                let latin = word.contains([',', '.', ';', ':', '(', ')', '!', '?']);
                assert!(!latin, "{tag} {field}: {word}");
            }
        }
        // Arabic, Persian and Urdu: the Arabic comma, semicolon and question mark.
        for tag in ["ar", "fa", "ur"] {
            assert!(is_rtl(tag));
            for (field, word) in every_word(locale(tag).unwrap()) {
                let latin = word.contains([',', ';', '?']);
                assert!(!latin, "{tag} {field}: {word}");
            }
        }
        // Sentences end in the script's own stop: । in Hindi and Bengali, ۔ in
        // Urdu, ። in Amharic, ។ in Khmer, none in Thai.
        for tag in ["hi", "bn", "ur", "am", "km", "th"] {
            for (field, word) in every_word(locale(tag).unwrap()) {
                assert!(!word.ends_with('.'), "{tag} {field}: {word}");
            }
        }
        // Armenian ends them with ։ (its point is a colon, as in captions).
        let hy = locale("hy-AM").unwrap();
        for sentence in [
            hy.site.empty,
            hy.accessibility.summary,
            hy.accessibility.paged,
        ] {
            assert!(sentence.ends_with('։'), "hy: {sentence}");
        }
        // Greek: the ano teleia (·), never the Latin semicolon, which reads
        // as a Greek question mark.
        for (field, word) in every_word(locale("el").unwrap()) {
            assert!(!word.contains(';'), "el {field}: {word}");
        }
        // Hebrew: right to left, with the maqaf before a Latin name.
        assert!(is_rtl("he") && locale("he").unwrap().site.lede.contains("ה־EPUB"));
    }

    #[test]
    fn completeness_reads_as_each_language_says_it() {
        let site = |tag| &locale(tag).unwrap().site;
        assert_eq!(site("en").completeness("en", 14, 15), "14 of 15 posts");
        assert_eq!(
            site("pt-BR").completeness("pt-BR", 14, 15),
            "14 de 15 textos"
        );
        assert_eq!(site("en").completeness("en", 1, 1), "1 of 1 post");
        // In the language's digits.
        assert!(site("fa").completeness("fa", 14, 15).contains("۱۴"));
        assert!(site("bn").completeness("bn", 14, 15).contains("১৫"));
        for l in LOCALES {
            let text = l.site.completeness("en", 3, 4);
            assert!(
                text.contains('3') && text.contains('4'),
                "{}: {text}",
                l.tag
            );
            assert!(l.site.completeness("en", 0, 1).contains('1'), "{}", l.tag);
        }
    }

    #[test]
    fn page_counts_read_as_each_language_says_them() {
        let site = |tag| &locale(tag).unwrap().site;
        assert_eq!(site("en").page_count("en", 96), "96 pages");
        assert_eq!(site("en").page_count("en", 1), "1 page");
        assert_eq!(site("pt-BR").page_count("pt-BR", 96), "96 páginas");
        assert_eq!(site("de").page_count("de", 1), "1 Seite");
        assert!(site("bn").page_count("bn", 96).contains("৯৬"));
        for l in LOCALES {
            assert!(l.site.page_count("en", 7).contains('7'), "{}", l.tag);
            assert!(l.site.page_count("en", 1).contains('1'), "{}", l.tag);
            assert!(l.site.checksums.contains("SHA-256"), "{}", l.tag);
        }
    }

    #[test]
    fn note_calls_follow_each_language_usage() {
        let call = |tag| locale(tag).unwrap().note_call;
        assert_eq!(call("en"), NoteCall::AfterPunctuation);
        for tag in ["pt-BR", "es", "fr-CA"] {
            assert_eq!(call(tag), NoteCall::BeforePunctuation, "{tag}");
        }
        assert_eq!(call("de"), NoteCall::AsWritten);
        for tag in ["it", "ja", "ar", "fa"] {
            assert_eq!(call(tag), NoteCall::BeforePunctuation, "{tag}");
        }
        for tag in ["zh-CN", "zh-TW", "ko", "tr", "id", "vi"] {
            assert_eq!(call(tag), NoteCall::AfterPunctuation, "{tag}");
        }
        assert_eq!(call("he-IL"), NoteCall::AfterPunctuation);
        for tag in [
            "th", "hi", "bn", "ur", "am", "ta", "ka", "hy", "si", "km", "el",
        ] {
            assert_eq!(call(tag), NoteCall::AsWritten, "{tag}");
        }
        assert_eq!(NoteCall::AfterPunctuation.name(), "after-punctuation");
    }
}
