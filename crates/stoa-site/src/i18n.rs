//! The page's words in Portuguese and English, and numbers and dates as each language writes them.

/// The strings of the page and the catalog in one language: the locale
/// table's, so that the page says what the books say.
pub use stoa_locale::SiteWords as Ui;

/// The strings for a language; English when the table has none.
pub fn ui(lang: &str) -> &'static Ui {
    &stoa_locale::locale_or_english(lang).site
}

/// The language's own name, or its tag when the table has no words for it.
pub fn language_name(lang: &str) -> String {
    stoa_locale::locale(lang).map_or_else(|| lang.to_string(), |l| l.name.to_string())
}

fn primary(lang: &str) -> &str {
    lang.split('-').next().unwrap_or(lang)
}

/// Portuguese first, then English, then the rest: the author's blog reads "PT | EN",
/// and the first language is the one shown when nothing else is asked for.
pub fn lang_rank(lang: &str) -> u8 {
    match primary(lang).to_ascii_lowercase().as_str() {
        "pt" => 0,
        "en" => 1,
        _ => 2,
    }
}

/// The distinct languages of the editions, in switch order.
pub fn page_languages<'a>(langs: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut all: Vec<String> = langs.map(str::to_string).collect();
    all.sort_by(|a, b| (lang_rank(a), a).cmp(&(lang_rank(b), b)));
    all.dedup();
    all
}

/// The switch's label for a language: `PT`, `EN`; the whole tag when two
/// languages of the page share their first part (`PT-BR`, `PT-PT`).
pub fn switch_label(lang: &str, all: &[String]) -> String {
    let clash = all
        .iter()
        .filter(|l| primary(l).eq_ignore_ascii_case(primary(lang)))
        .count()
        > 1;
    if clash {
        lang.to_ascii_uppercase()
    } else {
        primary(lang).to_ascii_uppercase()
    }
}

/// A file size as readers expect it: decimal units (like phones and file managers
/// show), one decimal under 100 of a unit, the language's decimal separator.
pub fn format_size(bytes: u64, lang: &str) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64;
    for (i, unit) in UNITS.iter().enumerate() {
        value /= 1000.0;
        // 999.96 kB would print as "1000 kB": say "1.0 MB" instead, unless there is no bigger unit.
        if value < 999.95 || i == UNITS.len() - 1 {
            let decimals = if value < 99.95 { 1 } else { 0 };
            return format!("{} {unit}", stoa_locale::decimal(lang, value, decimals));
        }
    }
    unreachable!("the loop returns at the last unit")
}

/// A `YYYY-MM-DD` date in words, as the books write it; unchanged when it
/// does not parse.
pub fn format_date(date: &str, lang: &str) -> String {
    stoa_locale::long_date(lang, date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_use_decimal_units_and_the_local_separator() {
        assert_eq!(format_size(0, "en"), "0 B");
        assert_eq!(format_size(999, "en"), "999 B");
        assert_eq!(format_size(1000, "en"), "1.0 kB");
        assert_eq!(format_size(1234, "pt-BR"), "1,2 kB");
        assert_eq!(format_size(123_456, "en"), "123 kB");
        assert_eq!(format_size(1_260_000, "pt-BR"), "1,3 MB");
        assert_eq!(format_size(12_345_678, "en"), "12.3 MB");
        assert_eq!(format_size(3_000_000_000, "en"), "3.0 GB");
    }

    #[test]
    fn sizes_round_up_into_the_next_unit() {
        assert_eq!(format_size(999_960, "en"), "1.0 MB");
        assert_eq!(format_size(99_960, "en"), "100 kB");
        assert_eq!(format_size(u64::MAX, "en"), "18446744 TB");
    }

    #[test]
    fn dates_in_words() {
        assert_eq!(format_date("2026-11-30", "pt-BR"), "30 de novembro de 2026");
        assert_eq!(format_date("2026-03-01", "en"), "March 1, 2026");
        assert_eq!(format_date("2026-13-01", "en"), "2026-13-01");
        assert_eq!(format_date("soon", "en"), "soon");
    }

    #[test]
    fn languages_are_ordered_pt_en_then_the_rest() {
        let langs = page_languages(["en", "de", "pt-BR", "en", "ca"].into_iter());
        assert_eq!(langs, ["pt-BR", "en", "ca", "de"]);
    }

    #[test]
    fn switch_labels_are_short_unless_ambiguous() {
        let all = vec!["pt-BR".to_string(), "en".to_string()];
        assert_eq!(switch_label("pt-BR", &all), "PT");
        let all = vec!["pt-BR".to_string(), "pt-PT".to_string()];
        assert_eq!(switch_label("pt-PT", &all), "PT-PT");
    }

    #[test]
    fn strings_fall_back_to_english() {
        assert_eq!(ui("pt-PT").download, "Baixar");
        assert_eq!(ui("de").download, "Herunterladen");
        assert_eq!(ui("sw").download, "Download");
        assert_eq!(language_name("de"), "Deutsch");
        assert_eq!(language_name("sw"), "sw");
        assert_eq!(language_name("it"), "Italiano");
    }
}
