//! `[cover]` in book.toml: which of the theme's cover designs a book gets,
//! in which colour, with which ornament. Left out, each is derived from the
//! book's identifier, so that two books look different on a shelf of
//! thumbnails without a setting, and every language of a book looks the same.

use crate::source::SourceFile;
use serde::Deserialize;
use std::path::Path;
use stoa_doc::{Cover, Diagnostic};

/// The cover layouts the classic theme draws: a coloured page in a double
/// frame; a light page crossed by a coloured band; a coloured column down
/// the spine side with the title beside it on a light page.
pub const DESIGNS: [&str; 3] = ["frame", "band", "column"];

/// The ornaments set by the title: a short rule, a diamond between two
/// rules, three dots, or nothing.
pub const ORNAMENTS: [&str; 4] = ["rule", "diamond", "dots", "none"];

/// Named colours, all dark enough to carry light lettering; any other
/// colour can be written as `#rrggbb`.
pub const COLOURS: [(&str, &str); 7] = [
    ("navy", "#1f2a33"),
    ("oxblood", "#5e1f2b"),
    ("forest", "#23443a"),
    ("teal", "#17505a"),
    ("plum", "#43294a"),
    ("slate", "#3b4756"),
    ("umber", "#5a3d22"),
];

/// The `[cover]` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverConfig {
    design: Option<String>,
    #[serde(alias = "color")]
    colour: Option<String>,
    ornament: Option<String>,
    image: Option<String>,
    /// The back cover's text per language (the print cover wrap).
    #[serde(default)]
    pub(crate) back: std::collections::BTreeMap<String, String>,
    /// The author's short biography per language, on the back cover.
    #[serde(default)]
    pub(crate) bio: std::collections::BTreeMap<String, String>,
}

/// The cover a book gets without settings: design, colour and ornament each
/// picked from a different part of a hash of `identifier` (FNV-1a, fixed
/// forever so that a book's cover never changes between stoa versions).
/// Only the ornaments that draw something are picked.
pub fn derive(identifier: &str) -> Cover {
    let h = fnv1a(identifier.trim());
    let pick = |shift: u32, n: usize| ((h >> shift) % n as u64) as usize;
    Cover {
        design: DESIGNS[pick(32, DESIGNS.len())].to_owned(),
        colour: COLOURS[pick(8, COLOURS.len())].1.to_owned(),
        ornament: ORNAMENTS[pick(16, ORNAMENTS.len() - 1)].to_owned(),
        image: None,
    }
}

/// 64-bit FNV-1a: tiny, stable across platforms and releases (unlike std's
/// hasher), and spreads similar identifiers apart.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The book's cover: [`derive`]d from `identifier`, with each key the
/// `[cover]` table gives in its place; `image` is relative to the book's
/// folder `dir`. A value stoa does not know is an error at its line, with
/// the closest known one.
pub(crate) fn settings(
    file: &SourceFile,
    raw: &CoverConfig,
    identifier: &str,
    dir: &Path,
    errors: &mut Vec<Diagnostic>,
) -> Cover {
    let mut cover = derive(identifier);
    let section = file.find("[cover]", 0);
    let at = |key: &str, value: &str| {
        let key_at = file.find(key, section);
        file.find(value, key_at)
    };
    let mut named = |key: &str, value: &Option<String>, known: &[&'static str]| {
        let value = value.as_deref()?;
        let found = known.iter().find(|k| k.eq_ignore_ascii_case(value.trim()));
        if found.is_none() {
            let message = format!("unknown cover {key} `{value}`");
            errors.push(unknown(
                file.error_at(at(key, value), message),
                value,
                known,
            ));
        }
        found.map(|k| (*k).to_owned())
    };
    if let Some(design) = named("design", &raw.design, &DESIGNS) {
        cover.design = design;
    }
    if let Some(ornament) = named("ornament", &raw.ornament, &ORNAMENTS) {
        cover.ornament = ornament;
    }
    if let Some(colour) = &raw.colour {
        match parse_colour(colour) {
            Some(hex) => cover.colour = hex,
            None => {
                let key = if file.text[section..].contains("color") {
                    "color"
                } else {
                    "colour"
                };
                let names: Vec<&str> = COLOURS.iter().map(|(n, _)| *n).collect();
                let near = crate::suggest::did_you_mean(colour.trim(), &names);
                let list = names.join(", ");
                let hint = format!("write one of {list}, or a colour as \"#rrggbb\"");
                errors.push(
                    file.error_at(
                        at(key, colour),
                        format!("`{key} = \"{colour}\"` is not a colour"),
                    )
                    .with_hint(match near {
                        Some(near) => format!("{near} {hint}"),
                        None => hint,
                    }),
                );
            }
        }
    }
    if let Some(image) = &raw.image {
        match cover_image(dir, image) {
            Ok(path) => cover.image = Some(path),
            Err((message, hint)) => errors.push(
                file.error_at(
                    at("image", image),
                    format!("cover image `{image}` {message}"),
                )
                .with_hint(hint),
            ),
        }
    }
    cover
}

/// The author's cover image `image`, relative to the book's folder `dir`:
/// its absolute, canonical path when it is a sound image inside the folder
/// (the PDF's World serves nothing else), else what is wrong and what to do.
fn cover_image(dir: &Path, image: &str) -> Result<String, crate::picture::Problem> {
    let path = dir.join(image.trim());
    let media_type = crate::picture::media_type(&path).ok_or_else(|| {
        (
            "is not a PNG, JPEG, GIF, WebP or SVG file".to_string(),
            "name a .png, .jpg, .gif, .webp or .svg file".to_string(),
        )
    })?;
    let real = path.canonicalize().map_err(|e| {
        (
            format!("cannot be read: {e}"),
            "give its path relative to the book's folder, e.g. image = \"cover.jpg\"".into(),
        )
    })?;
    let folder = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    if !real.starts_with(&folder) {
        return Err((
            "is outside the book's folder".into(),
            "copy the image into the book's folder".into(),
        ));
    }
    crate::picture::check(&real, media_type)?;
    Ok(real.to_string_lossy().into_owned())
}

/// `error` with a hint naming the closest of `known`, and all of them.
fn unknown(error: Diagnostic, word: &str, known: &[&str]) -> Diagnostic {
    let list = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let hint = format!("use one of {list}");
    error.with_hint(match crate::suggest::did_you_mean(word.trim(), known) {
        Some(near) => format!("{near} {hint}"),
        None => hint,
    })
}

/// A colour name from [`COLOURS`], `#rgb` or `#rrggbb`, as lowercase
/// `#rrggbb`; anything else is `None`.
pub fn parse_colour(text: &str) -> Option<String> {
    let text = text.trim();
    if let Some((_, hex)) = COLOURS.iter().find(|(n, _)| n.eq_ignore_ascii_case(text)) {
        return Some((*hex).to_owned());
    }
    let digits = text.strip_prefix('#')?;
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let digits = digits.to_ascii_lowercase();
    match digits.len() {
        6 => Some(format!("#{digits}")),
        3 => Some(digits.chars().fold(String::from("#"), |mut s, c| {
            s.push(c);
            s.push(c);
            s
        })),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BookConfig, load_config};

    const BOOK: &str = r#"author = "A"
languages = ["en", "pt-BR"]
identifier = "urn:uuid:1"
posts = ["p"]

[title]
en = "T"
pt-BR = "T"
"#;

    fn load(extra: &str) -> Result<BookConfig, Vec<Diagnostic>> {
        load_with(extra, &[])
    }

    /// Files to write into a book's folder: (name, bytes).
    type Files<'a> = &'a [(&'a str, &'a [u8])];

    /// Loads a book whose folder also holds `files` (name, bytes); a file
    /// named `../x` lands beside the book's folder.
    fn load_with(extra: &str, files: Files) -> Result<BookConfig, Vec<Diagnostic>> {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("mybook");
        std::fs::create_dir(&book).unwrap();
        std::fs::write(book.join("book.toml"), format!("{BOOK}{extra}")).unwrap();
        for (name, bytes) in files {
            std::fs::write(book.join(name), bytes).unwrap();
        }
        load_config(&book)
    }

    #[test]
    fn the_default_is_derived_from_the_identifier_and_stable() {
        // Fixed values: a stoa upgrade must not repaint a book's cover.
        let a = derive("urn:uuid:99346154-f754-4431-80ff-fa254590c267");
        let b = derive("urn:uuid:887a45dc-4da9-4f7f-9a68-515118631dd3");
        assert_eq!(
            (a.design.as_str(), a.colour.as_str(), a.ornament.as_str()),
            ("band", "#5e1f2b", "diamond")
        );
        assert_eq!(
            (b.design.as_str(), b.colour.as_str(), b.ornament.as_str()),
            ("column", "#23443a", "rule")
        );
        assert_eq!(derive(" urn:uuid:1 "), derive("urn:uuid:1"));
        // Over many books every design, colour and drawn ornament occurs,
        // and `none` is never picked unasked.
        let covers: Vec<Cover> = (0..200).map(|i| derive(&format!("urn:isbn:{i}"))).collect();
        for d in DESIGNS {
            assert!(covers.iter().any(|c| c.design == d), "{d}");
        }
        for (_, hex) in COLOURS {
            assert!(covers.iter().any(|c| c.colour == hex), "{hex}");
        }
        for o in &ORNAMENTS[..3] {
            assert!(covers.iter().any(|c| c.ornament == *o), "{o}");
        }
        assert!(covers.iter().all(|c| c.ornament != "none"));
    }

    #[test]
    fn without_a_table_every_language_gets_the_derived_cover() {
        let config = load("").unwrap();
        assert_eq!(config.print.cover, derive("urn:uuid:1"));
    }

    #[test]
    fn the_table_replaces_what_it_gives() {
        let config = load("\n[cover]\ndesign = \"Frame\"\ncolour = \"teal\"\n").unwrap();
        let derived = derive("urn:uuid:1");
        assert_eq!(config.print.cover.design, "frame");
        assert_eq!(config.print.cover.colour, "#17505a");
        assert_eq!(config.print.cover.ornament, derived.ornament);
        let config = load("\n[cover]\ncolor = \"#ABC\"\nornament = \"none\"\n").unwrap();
        assert_eq!(config.print.cover.colour, "#aabbcc");
        assert_eq!(config.print.cover.ornament, "none");
        assert_eq!(config.print.cover.design, derived.design);
        let config = load("\n[cover]\ncolour = \"#0a1B2c\"\n").unwrap();
        assert_eq!(config.print.cover.colour, "#0a1b2c");
    }

    #[test]
    fn colours_parse_by_name_and_hex_only() {
        assert_eq!(parse_colour(" Navy ").as_deref(), Some("#1f2a33"));
        assert_eq!(parse_colour("#FfF").as_deref(), Some("#ffffff"));
        for bad in [
            "", "#", "#12345", "#1234567", "#ggg", "red", "1f2a33", "#1f2a3\"",
        ] {
            assert_eq!(parse_colour(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_values_are_errors_at_their_line_with_the_value_meant() {
        let errs =
            load("\n[cover]\ndesign = \"bnad\"\ncolour = \"forrest\"\nornament = \"diamonds\"\n")
                .unwrap_err();
        assert_eq!(errs.len(), 3, "{errs:?}");
        let find = |word: &str| errs.iter().find(|e| e.message.contains(word)).unwrap();
        let design = find("design");
        assert_eq!(design.line, Some(11));
        assert!(
            design
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `band`?")
        );
        let colour = find("colour");
        assert_eq!(colour.line, Some(12), "{colour}");
        assert!(colour.message.contains("not a colour"), "{colour}");
        assert!(
            colour
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `forest`?")
        );
        assert!(colour.hint.as_deref().unwrap().contains("#rrggbb"));
        let ornament = find("ornament");
        assert_eq!(ornament.line, Some(13));
        assert!(
            ornament
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `diamond`?")
        );
        let errs = load("\n[cover]\ncolor = \"#12\"\n").unwrap_err();
        assert!(errs[0].message.contains("`color = \"#12\"`"), "{}", errs[0]);
        assert_eq!(errs[0].line, Some(11));
    }

    #[test]
    fn an_unknown_key_is_an_error_with_the_key_meant() {
        let errs = load("\n[cover]\ndesing = \"band\"\n").unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].line, Some(11));
        assert!(
            errs[0]
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `design`?"),
            "{}",
            errs[0]
        );
    }

    #[test]
    fn an_image_is_the_cover_as_is() {
        let png = crate::picture::tests::png(70, 105);
        let config =
            load_with("\n[cover]\nimage = \"cover.png\"\n", &[("cover.png", &png)]).unwrap();
        let image = config.print.cover.image.expect("an image");
        assert!(
            Path::new(&image).is_absolute() && image.ends_with("cover.png"),
            "{image}"
        );
        // The design keys still parse, for a theme that wants them.
        assert_eq!(config.print.cover.design, derive("urn:uuid:1").design);
    }

    #[test]
    fn a_bad_image_is_an_error_at_its_line() {
        let png = crate::picture::tests::png(4, 4);
        // (image = …, files in the book's folder, what the error says)
        let cases: [(&str, Files, &str); 4] = [
            ("cover.png", &[], "cannot be read"),
            (
                "cover.tiff",
                &[("cover.tiff", b"II*")],
                "is not a PNG, JPEG",
            ),
            ("cover.jpg", &[("cover.jpg", &png)], "but its name says"),
            (
                "../outside.png",
                &[("../outside.png", &png)],
                "outside the book's folder",
            ),
        ];
        for (name, files, says) in cases {
            let errs = load_with(&format!("\n[cover]\nimage = \"{name}\"\n"), files).unwrap_err();
            assert_eq!(errs.len(), 1, "{errs:?}");
            assert_eq!(errs[0].line, Some(11), "{}", errs[0]);
            assert!(errs[0].message.contains(name), "{}", errs[0]);
            assert!(errs[0].message.contains(says), "{name}: {}", errs[0]);
            assert!(errs[0].hint.is_some(), "{}", errs[0]);
        }
    }
}
