//! Dates and numbers as the Unicode CLDR writes them, through ICU4X's
//! compiled data: every language CLDR knows, with its month names, date
//! pattern, calendar and digits, pinned by Cargo.lock (so one stoa always
//! writes the same book).
//!
//! The language's own defaults rule: Persian dates are in the Solar Hijri
//! calendar and Persian digits, Thai ones in the Buddhist era, Bengali ones
//! in Bengali digits. A book that wants others says so in its tag, as BCP 47
//! has it: `fa-u-ca-gregory` (Gregorian calendar), `hi-u-nu-deva`
//! (Devanagari digits).

use icu_datetime::{DateTimeFormatter, fieldsets::YMD, input::Date};
use icu_decimal::{DecimalFormatter, input::Decimal};
use icu_locale_core::Locale;
use std::cell::RefCell;
use std::collections::HashMap;

/// The tag as ICU reads it (`pt_BR` is `pt-BR`); English for a tag that is
/// not BCP 47, as for a language CLDR does not know.
fn icu_locale(tag: &str) -> Locale {
    tag.trim()
        .replace('_', "-")
        .parse()
        .unwrap_or(icu_locale_core::locale!("en"))
}

thread_local! {
    /// Formatters made on this thread, by tag: a book asks for the same
    /// one for each of its dates.
    static DATES: RefCell<HashMap<String, Option<DateTimeFormatter<YMD>>>> =
        RefCell::new(HashMap::new());
    static NUMBERS: RefCell<HashMap<String, Option<DecimalFormatter>>> =
        RefCell::new(HashMap::new());
}

/// A `YYYY-MM-DD` date in words as the language `tag` writes it:
/// `May 31, 2024`, `31 de maio de 2024`, `2024年5月31日`; the text unchanged
/// when it is not such a date.
pub fn long_date(tag: &str, date: &str) -> String {
    let Some((y, m, d)) = crate::parse_date(date) else {
        return date.to_string();
    };
    let Ok(iso) = Date::try_new_iso(y, m, d) else {
        return date.to_string();
    };
    DATES.with(|cache| {
        let mut cache = cache.borrow_mut();
        let formatter = cache.entry(tag.to_string()).or_insert_with(|| {
            let locale = icu_locale(tag);
            DateTimeFormatter::try_new(locale.into(), YMD::long()).ok()
        });
        match formatter {
            Some(f) => f.format(&iso).to_string(),
            None => date.to_string(),
        }
    })
}

/// `value` with `decimals` digits after the separator, in the language's
/// digits and separator, without grouping: `1.2`, `1,2`, `۱٫۲`.
pub fn decimal(tag: &str, value: f64, decimals: usize) -> String {
    let plain = format!("{value:.decimals$}");
    let Ok(number) = plain.parse::<Decimal>() else {
        return plain;
    };
    NUMBERS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let formatter = cache.entry(tag.to_string()).or_insert_with(|| {
            let mut options = icu_decimal::options::DecimalFormatterOptions::default();
            options.grouping_strategy = Some(icu_decimal::options::GroupingStrategy::Never);
            DecimalFormatter::try_new(icu_locale(tag).into(), options).ok()
        });
        match formatter {
            Some(f) => f.format(&number).to_string(),
            None => plain,
        }
    })
}

/// The quotation marks of a language, opening and closing, from CLDR 45's
/// delimiters (`quotationStart`, `quotationEnd`): a language not listed
/// has the root's `“` `”`. ICU4X does not carry them yet, so the few that
/// differ are copied here, each as CLDR has it, by tag then language.
const QUOTES: &[(&str, char, char)] = &[
    ("pt-PT", '«', '»'),
    ("zh-Hant", '「', '」'),
    ("zh-TW", '「', '」'),
    ("zh-HK", '「', '」'),
    ("zh-MO", '「', '」'),
    ("am", '«', '»'),
    ("ar", '”', '“'),
    ("de", '„', '“'),
    ("el", '«', '»'),
    ("fa", '«', '»'),
    ("fr", '«', '»'),
    ("he", '”', '”'),
    ("hy", '«', '»'),
    ("it", '«', '»'),
    ("ja", '「', '」'),
    ("ka", '„', '“'),
    ("nl", '‘', '’'),
    ("pl", '„', '”'),
    ("ru", '«', '»'),
    ("uk", '«', '»'),
    ("ur", '”', '“'),
];

/// The quotation marks the language `tag` opens and closes a quotation
/// with: `“` `”` in English and Portuguese, `„` `“` in German, `«` `»` in
/// French, `「` `」` in Japanese (see `QUOTES`).
pub fn quotes(tag: &str) -> (char, char) {
    let tag = tag.replace('_', "-");
    let mut subtags = tag.split('-');
    let language = subtags.next().unwrap_or("").to_ascii_lowercase();
    let rest: Vec<String> = subtags.map(str::to_ascii_lowercase).collect();
    let find = |key: &str| {
        QUOTES
            .iter()
            .find(|(t, ..)| t.eq_ignore_ascii_case(key))
            .map(|&(_, open, close)| (open, close))
    };
    // Script, then region, then the language alone (`zh-Hans-TW` is
    // Simplified: its script says so).
    let script = rest.iter().find(|s| s.len() == 4);
    let region = rest.iter().find(|s| s.len() == 2 || s.len() == 3);
    let simplified = script.is_some_and(|s| s == "hans");
    let by_script = script.and_then(|s| find(&format!("{language}-{s}")));
    let by_region = region
        .filter(|_| !simplified)
        .and_then(|r| find(&format!("{language}-{r}")));
    by_script
        .or(by_region)
        .or_else(|| find(&language))
        .unwrap_or(('“', '”'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_each_language_writes_them() {
        let date = "2024-05-31";
        let cases = [
            ("en", "May 31, 2024"),
            ("en-US", "May 31, 2024"),
            ("en-GB", "31 May 2024"),
            ("pt-BR", "31 de maio de 2024"),
            ("pt", "31 de maio de 2024"),
            ("es", "31 de mayo de 2024"),
            ("fr", "31 mai 2024"),
            ("de", "31. Mai 2024"),
            ("ja", "2024年5月31日"),
            ("zh-Hans", "2024年5月31日"),
            ("ko", "2024년 5월 31일"),
            // Persian: the Solar Hijri calendar, in Persian digits.
            ("fa", "۱۱ خرداد ۱۴۰۳"),
            ("fa-u-ca-gregory", "۳۱ مه ۲۰۲۴"),
            // Thai: the Buddhist era.
            ("th", "31 พฤษภาคม 2567"),
            ("bn", "৩১ মে, ২০২৪"),
        ];
        for (tag, want) in cases {
            assert_eq!(long_date(tag, date), want, "{tag}");
        }
        assert_eq!(long_date("en", "soon"), "soon");
        assert_eq!(long_date("en", "2024-13-01"), "2024-13-01");
        assert_eq!(long_date("en", "2024-02-30"), "2024-02-30");
        // A tag that is not BCP 47 reads as English.
        assert_eq!(long_date("not a tag", date), "May 31, 2024");
        assert_eq!(long_date("pt_BR", date), "31 de maio de 2024");
    }

    #[test]
    fn quotation_marks_are_each_languages() {
        for (tag, marks) in [
            ("en", ('“', '”')),
            ("pt-BR", ('“', '”')),
            ("pt-PT", ('«', '»')),
            ("es-MX", ('“', '”')),
            ("de-AT", ('„', '“')),
            ("fr-CA", ('«', '»')),
            ("ru", ('«', '»')),
            ("pl", ('„', '”')),
            ("ja", ('「', '」')),
            ("zh", ('“', '”')),
            ("zh-Hant", ('「', '」')),
            ("zh-TW", ('「', '」')),
            ("zh-Hans-TW", ('“', '”')),
            ("ko", ('“', '”')),
            ("ar-EG", ('”', '“')),
            ("sw", ('“', '”')),
        ] {
            assert_eq!(quotes(tag), marks, "{tag}");
        }
    }

    #[test]
    fn numbers_take_the_language_separator_and_digits() {
        assert_eq!(decimal("en", 1.25, 1), "1.2");
        assert_eq!(decimal("pt-BR", 1.25, 1), "1,2");
        assert_eq!(decimal("de", 1234.5, 1), "1234,5");
        assert_eq!(decimal("fa", 1.5, 1), "۱٫۵");
        assert_eq!(decimal("en", 12.0, 0), "12");
        // Each language's own digits: a number of every digit.
        let all = |tag| decimal(tag, 1234567890.0, 0);
        assert_eq!(all("en"), "1234567890");
        assert_eq!(all("fa"), "۱۲۳۴۵۶۷۸۹۰");
        assert_eq!(all("bn"), "১২৩৪৫৬৭৮৯০");
        assert_eq!(all("hi-u-nu-deva"), "१२३४५६७८९०");
    }
}
