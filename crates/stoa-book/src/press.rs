//! The print-on-demand keys of book.toml: `[print] profile`, `trim`,
//! `paper`, `binding` and `spine-width`; `[isbn]` per language; the back
//! cover's `[cover.back]` and `[cover.bio]` per language. Each value is
//! checked at its line; the printers' figures come from stoa-press, the
//! ISBN check from stoa-barcode.

use crate::source::SourceFile;
use std::collections::BTreeMap;
use stoa_barcode::Isbn;
use stoa_doc::{Diagnostic, Press, Print};

/// What differs per language in print: the ISBN and the back cover's texts.
#[derive(Clone, Debug, Default)]
pub struct PressText {
    /// The checked ISBN per language, as ISBN-13 in the author's grouping.
    pub isbn: BTreeMap<String, String>,
    /// The back cover's text per language.
    pub back: BTreeMap<String, String>,
    /// The author's short biography per language.
    pub bio: BTreeMap<String, String>,
}

/// The `[print]` keys of a printer, as written.
pub(crate) struct Keys<'a> {
    pub profile: &'a Option<String>,
    pub trim: &'a Option<String>,
    pub paper: &'a Option<String>,
    pub binding: &'a Option<String>,
    pub spine_width: &'a Option<String>,
    /// Whether `width` or `height` is given too.
    pub sized: bool,
}

/// The per-language tables as written.
pub(crate) struct Written<'a> {
    pub isbn: &'a BTreeMap<String, String>,
    pub back: &'a BTreeMap<String, String>,
    pub bio: &'a BTreeMap<String, String>,
}

/// Checks the print-on-demand keys of `[print]` into `print`, and the
/// per-language tables; errors go to `errors`, at their line.
pub(crate) fn settings(
    file: &SourceFile,
    raw: Keys,
    written: Written,
    languages: &[String],
    print: &mut Print,
    errors: &mut Vec<Diagnostic>,
) -> PressText {
    let section = file.find("[print]", 0);
    let at = |key: &str| file.find(key, section);
    if let Some(trim) = &raw.trim {
        if raw.sized {
            errors.push(
                file.error_at(
                    at("trim"),
                    "`trim` and `width`/`height` both set the page size",
                )
                .with_hint("keep `trim` (e.g. trim = \"6x9\") and remove `width` and `height`"),
            );
        }
        match parse_trim(trim) {
            Ok((w, h)) => (print.width_mm, print.height_mm) = (w, h),
            Err(hint) => errors.push(
                file.error_at(
                    at("trim"),
                    format!("`trim = \"{trim}\"` is not a trim size"),
                )
                .with_hint(hint),
            ),
        }
    }
    let named =
        |key: &str, value: &Option<String>, known: &[&str], errors: &mut Vec<Diagnostic>| {
            let value = value.as_deref()?;
            let found = known.iter().find(|k| k.eq_ignore_ascii_case(value.trim()));
            if found.is_none() {
                let list = known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let hint = match crate::suggest::did_you_mean(value.trim(), known) {
                    Some(near) => format!("{near} use one of {list}"),
                    None => format!("use one of {list}"),
                };
                errors.push(
                    file.error_at(at(key), format!("unknown {key} `{value}`"))
                        .with_hint(hint),
                );
            }
            found.map(|k| (*k).to_owned())
        };
    let profile = named("profile", raw.profile, &stoa_press::PROFILES, errors);
    // `color` is accepted for `colour`, as in [cover].
    let paper_value = raw.paper.as_ref().map(|p| match p.trim() {
        "color" => "colour".to_owned(),
        other => other.to_owned(),
    });
    let paper = named("paper", &paper_value, &stoa_press::PAPERS, errors);
    let binding = match raw.binding.as_deref().map(str::trim) {
        Some(b) if b.eq_ignore_ascii_case("hardcover") => {
            errors.push(
                file.error_at(
                    at("binding"),
                    "stoa draws paperback covers only, not `hardcover`",
                )
                .with_hint(
                    "write binding = \"paperback\", or take the printer's hardcover template",
                ),
            );
            None
        }
        _ => named("binding", raw.binding, &stoa_press::BINDINGS, errors),
    };
    let spine_mm =
        raw.spine_width
            .as_ref()
            .and_then(|text| match crate::length::parse_length(text) {
                Some(mm) if (0.0..=100.0).contains(&mm) => Some(mm),
                _ => {
                    errors.push(
                    file.error_at(
                        at("spine-width"),
                        format!("`spine-width = \"{text}\"` is not a spine width"),
                    )
                    .with_hint(
                        "write the printer's figure with its unit, e.g. spine-width = \"0.52in\"",
                    ),
                );
                    None
                }
            });
    match profile {
        Some(profile) => {
            print.press = Some(Press {
                profile,
                paper: paper.unwrap_or_else(|| "white".into()),
                binding: binding.unwrap_or_else(|| "paperback".into()),
                spine_mm,
                back: None,
                bio: None,
                profile_at: {
                    let (line, column) = crate::source::line_col(&file.text, at("profile"));
                    Some((file.display.clone(), line, column))
                },
                preflight: false,
            })
        }
        None if raw.profile.is_none() => {
            for (key, set) in [
                ("paper", raw.paper.is_some()),
                ("binding", raw.binding.is_some()),
                ("spine-width", raw.spine_width.is_some()),
            ] {
                if set {
                    errors.push(
                        file.error_at(
                            at(key),
                            format!("`{key}` is for a printer, and `[print]` names none"),
                        )
                        .with_hint(format!(
                            "add profile = \"kdp\" (or {}) to [print], or remove `{key}`",
                            stoa_press::PROFILES[1..].join(", ")
                        )),
                    );
                }
            }
        }
        None => {}
    }
    PressText {
        isbn: isbns(file, written.isbn, languages, errors),
        back: texts(file, "cover.back", written.back, languages, errors),
        bio: texts(file, "cover.bio", written.bio, languages, errors),
    }
}

/// A trim size by name (`6x9`, `A5`, `B-format`…) or as `W x H unit`
/// (`6 x 9 in`, `152mm x 229mm`), in millimetres; else the hint to show.
pub(crate) fn parse_trim(text: &str) -> Result<(f64, f64), String> {
    if let Some(size) = stoa_press::named_trim(text) {
        return Ok(size);
    }
    let names: Vec<&str> = stoa_press::TRIMS.iter().map(|(n, _, _)| *n).collect();
    let hint = format!(
        "name a trim size ({}) or give it as width x height with a unit, e.g. \"6in x 9in\" or \"152 x 229 mm\"",
        names.join(", ")
    );
    let lower = text.trim().to_ascii_lowercase().replace('×', "x");
    let (w, h) = lower.split_once('x').ok_or_else(|| hint.clone())?;
    let (w, h) = (w.trim(), h.trim());
    // A unit written once, after the height, is the width's too.
    let unit: String = h.chars().skip_while(|c| !c.is_ascii_alphabetic()).collect();
    let with_unit = |side: &str| {
        if side.chars().any(|c| c.is_ascii_alphabetic()) {
            side.to_owned()
        } else {
            format!("{side}{unit}")
        }
    };
    match (
        crate::length::parse_length(&with_unit(w)),
        crate::length::parse_length(&with_unit(h)),
    ) {
        (Some(w), Some(h)) => {
            let (low, high) = crate::limits::PAGE_MM;
            if (low..=high).contains(&w) && (low..=high).contains(&h) {
                Ok((w, h))
            } else {
                Err(format!("keep each side from {low} to {high} mm"))
            }
        }
        _ => Err(hint),
    }
}

/// `[isbn]`: each entry a language of the book and a sound ISBN.
fn isbns(
    file: &SourceFile,
    written: &BTreeMap<String, String>,
    languages: &[String],
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<String, String> {
    let table = file.find("[isbn]", 0);
    let mut out = BTreeMap::new();
    for (tag, value) in written {
        let at = file.find(value, file.find(tag, table));
        if !languages.contains(tag) {
            errors.push(
                file.error_at(
                    at,
                    format!("`isbn` has an entry for `{tag}`, which is not in `languages`"),
                )
                .with_hint("add the language to `languages` or remove the entry"),
            );
            continue;
        }
        match Isbn::parse(value) {
            Ok(isbn) => {
                out.insert(tag.clone(), isbn.display().to_owned());
            }
            Err(why) => errors.push(
                file.error_at(at, format!("the ISBN `{value}` for `{tag}` {why}"))
                    .with_hint("copy the ISBN exactly as the agency issued it; each edition (language) has its own"),
            ),
        }
    }
    if let Some((a, b)) = duplicate(&out) {
        errors.push(
            file.error_at(table, format!("`{a}` and `{b}` have the same ISBN"))
                .with_hint("each edition (language, format) needs an ISBN of its own"),
        );
    }
    out
}

fn duplicate(isbns: &BTreeMap<String, String>) -> Option<(&str, &str)> {
    let digits = |s: &str| s.replace('-', "");
    isbns.iter().enumerate().find_map(|(i, (a, x))| {
        isbns
            .iter()
            .skip(i + 1)
            .find(|(_, y)| digits(x) == digits(y))
            .map(|(b, _)| (a.as_str(), b.as_str()))
    })
}

/// A per-language text table (`[cover.back]`, `[cover.bio]`): languages of
/// the book, no control characters, folded to one line.
fn texts(
    file: &SourceFile,
    key: &str,
    written: &BTreeMap<String, String>,
    languages: &[String],
    errors: &mut Vec<Diagnostic>,
) -> BTreeMap<String, String> {
    let table = file.find(&format!("[{key}]"), 0);
    let mut out = BTreeMap::new();
    for (tag, value) in written {
        let at = file.find(tag, table);
        if !languages.contains(tag) {
            errors.push(
                file.error_at(
                    at,
                    format!("`{key}` has an entry for `{tag}`, which is not in `languages`"),
                )
                .with_hint("add the language to `languages` or remove the entry"),
            );
        } else if let Some(c) = crate::text::forbidden(value) {
            let (message, hint) = crate::text::message(&format!("{key}.{tag}"), c);
            errors.push(file.error_at(at, message).with_hint(hint));
        } else if !value.trim().is_empty() {
            out.insert(tag.clone(), crate::text::one_line(value.trim()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BookConfig;

    const BOOK: &str = r#"author = "A. Author"
languages = ["en", "pt-BR"]
identifier = "urn:uuid:1"
posts = ["p"]

[title]
en = "T"
pt-BR = "T"
"#;

    fn load(extra: &str) -> Result<BookConfig, Vec<Diagnostic>> {
        crate::config::load_text(&format!("{BOOK}{extra}"))
    }

    #[test]
    fn a_kdp_book_with_isbns_and_back_texts() {
        let c = load(
            "\n[print]\nprofile = \"kdp\"\ntrim = \"6x9\"\npaper = \"cream\"\n\n[isbn]\nen = \"0-306-40615-2\"\npt-BR = \"978-85-333-0227-3\"\n\n[cover.back]\nen = \"Back.\"\n\n[cover.bio]\npt-BR = \"Bio.\"\n",
        )
        .unwrap();
        let en = c.print_for("en");
        assert_eq!((en.width_mm, en.height_mm), (152.4, 228.6));
        assert_eq!(en.isbn.as_deref(), Some("978-0-306-40615-7"));
        let press = en.press.unwrap();
        assert_eq!(
            (press.profile.as_str(), press.paper.as_str()),
            ("kdp", "cream")
        );
        assert_eq!(press.binding, "paperback");
        assert_eq!((press.back.as_deref(), press.bio), (Some("Back."), None));
        let pt = c.print_for("pt-BR");
        assert_eq!(pt.press.unwrap().bio.as_deref(), Some("Bio."));
        assert_eq!(pt.isbn.as_deref(), Some("978-85-333-0227-3"));
    }

    #[test]
    fn a_book_without_a_profile_has_no_press() {
        let c = load("\n[isbn]\nen = \"9780306406157\"\n").unwrap();
        assert!(c.print_for("en").press.is_none());
        assert!(c.print_for("pt-BR").isbn.is_none());
        let default = Print::default();
        assert_eq!(
            (c.print.width_mm, c.print.height_mm),
            (default.width_mm, default.height_mm)
        );
    }

    #[test]
    fn a_wrong_check_digit_is_an_error_at_its_line() {
        let errs = load("\n[isbn]\nen = \"978-0-306-40615-8\"\n").unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].line, Some(11), "{}", errs[0]);
        assert!(errs[0].message.contains("check digit 8"), "{}", errs[0]);
        assert!(errs[0].message.contains("ask for 7"), "{}", errs[0]);
    }

    #[test]
    fn mistakes_in_print_are_errors_at_their_lines() {
        let cases = [
            ("profile = \"kpd\"", "did you mean `kdp`"),
            ("profile = \"kdp\"\ntrim = \"6by9\"", "not a trim size"),
            ("profile = \"kdp\"\npaper = \"glossy\"", "unknown paper"),
            (
                "profile = \"kdp\"\nbinding = \"hardcover\"",
                "paperback covers only",
            ),
            ("paper = \"cream\"", "names none"),
            ("trim = \"6x9\"\nwidth = \"14cm\"", "both set the page size"),
            (
                "profile = \"lulu\"\nspine-width = \"wide\"",
                "not a spine width",
            ),
        ];
        for (keys, why) in cases {
            let errs = load(&format!("\n[print]\n{keys}\n")).unwrap_err();
            assert!(
                errs[0].message.contains(why)
                    || errs[0].hint.as_deref().unwrap_or("").contains(why),
                "{keys}: {}",
                errs[0]
            );
            assert!(errs[0].line.is_some_and(|l| l >= 10), "{keys}: {}", errs[0]);
        }
        let errs = load(
            "\n[isbn]\nfr = \"9780306406157\"\nen = \"9780306406157\"\npt-BR = \"9780306406157\"\n",
        )
        .unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
    }

    #[test]
    fn trims_by_dimensions() {
        let (w, h) = parse_trim("6in x 9in").unwrap();
        assert!(
            (w - 152.4).abs() < 1e-9 && (h - 228.6).abs() < 1e-9,
            "{w} {h}"
        );
        assert_eq!(parse_trim("152 x 229 mm"), Ok((152.0, 229.0)));
        assert_eq!(parse_trim("15cm × 22cm"), Ok((150.0, 220.0)));
        assert!(parse_trim("6 x 10").is_err());
        assert!(
            parse_trim("1mm x 9in")
                .unwrap_err()
                .contains("keep each side")
        );
    }
}
