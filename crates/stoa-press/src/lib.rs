//! Print-on-demand printers as data, the one place their figures live:
//! the trim sizes stoa knows by name, the bleed each printer asks for,
//! the inside margin (gutter) by page count, the paper's thickness per
//! page and so the spine, the page counts a binding allows, and what a
//! printer forbids in the interior file (bookmarks, links).
//!
//! Figures and their sources (read in 2026; printers change them, and
//! docs/printing.md says so):
//! - Amazon KDP, help pages "Set Trim Size, Bleed, and Margins" and
//!   "Create a Paperback Cover": bleed 0.125 in on the top, bottom and
//!   outside of interior pages, on all sides of the cover; gutter 0.375 in
//!   to 150 pages, 0.5 in to 300, 0.625 in to 500, 0.75 in to 700, 0.875 in
//!   to 828; outside margin 0.25 in (0.375 in with bleed); 24 to 828
//!   pages; spine 0.002252 in per page on white paper, 0.0025 in on cream,
//!   0.002347 in on colour paper; no spine text at 79 pages or fewer.
//! - Lulu, "How is spine width calculated?" (help.api.lulu.com) and its
//!   Book Creation Guide: perfect-bound spine = pages / 444 + 0.06 in;
//!   32 to 800 pages; bleed 0.125 in on every side; a 0.5 in safety margin
//!   plus a gutter of 0, 0.125, 0.5, 0.625 and 0.75 in up to 60, 150,
//!   400, 600 and more pages.
//! - IngramSpark publishes its spine in its cover template generator, not
//!   as a formula: stoa uses KDP's per-page figures and gutters for it (an
//!   estimate; `spine-width` in book.toml overrides it with the template's
//!   figure), 18 to 1,200 pages, bleed 0.125 in on the top, bottom and
//!   outside.
//! - `generic`: a local printer: 3 mm bleed on every side, the KDP gutters,
//!   any page count, the cream figure for the spine unless `spine-width`
//!   says otherwise.

/// Millimetres in an inch.
pub const MM_PER_IN: f64 = 25.4;

/// A printer whose rules stoa follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Amazon Kindle Direct Publishing.
    Kdp,
    /// IngramSpark (Lightning Source).
    IngramSpark,
    /// Lulu.
    Lulu,
    /// A local printer: common rules, nothing forbidden.
    Generic,
}

/// The paper of the interior.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// White, black-and-white printing.
    White,
    /// Cream, black-and-white printing.
    Cream,
    /// White paper for colour printing (KDP's premium colour).
    Colour,
}

/// Which sides of an interior page bleed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BleedSides {
    /// Top, bottom and the outside edge: the binding edge never shows.
    Outside,
    /// All four sides.
    All,
}

/// The profiles' names as book.toml writes them.
pub const PROFILES: [&str; 4] = ["kdp", "ingramspark", "lulu", "generic"];

/// The papers' names as book.toml writes them.
pub const PAPERS: [&str; 3] = ["white", "cream", "colour"];

/// The bindings stoa draws a cover for.
pub const BINDINGS: [&str; 1] = ["paperback"];

/// Trim sizes by name, width × height in millimetres: the common trade
/// sizes (inches, as US printers list them) and the British and ISO ones.
pub const TRIMS: [(&str, f64, f64); 10] = [
    ("5x8", 127.0, 203.2),
    ("5.25x8", 133.35, 203.2),
    ("5.5x8.5", 139.7, 215.9),
    ("6x9", 152.4, 228.6),
    ("7x10", 177.8, 254.0),
    ("8.5x11", 215.9, 279.4),
    ("a5", 148.0, 210.0),
    ("a-format", 110.0, 178.0),
    ("b-format", 129.0, 198.0),
    ("royal", 156.0, 234.0),
];

impl Profile {
    /// The profile named `name` (as in [`PROFILES`], any case).
    pub fn parse(name: &str) -> Option<Profile> {
        match name.trim().to_ascii_lowercase().as_str() {
            "kdp" => Some(Profile::Kdp),
            "ingramspark" => Some(Profile::IngramSpark),
            "lulu" => Some(Profile::Lulu),
            "generic" => Some(Profile::Generic),
            _ => None,
        }
    }

    /// Its name in book.toml.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Kdp => "kdp",
            Profile::IngramSpark => "ingramspark",
            Profile::Lulu => "lulu",
            Profile::Generic => "generic",
        }
    }

    /// The printer's name, for messages and the docs.
    pub fn label(self) -> &'static str {
        match self {
            Profile::Kdp => "Amazon KDP",
            Profile::IngramSpark => "IngramSpark",
            Profile::Lulu => "Lulu",
            Profile::Generic => "a generic printer",
        }
    }

    /// The bleed, in millimetres: 0.125 in, or 3 mm for a generic printer.
    pub fn bleed_mm(self) -> f64 {
        match self {
            Profile::Generic => 3.0,
            _ => 0.125 * MM_PER_IN,
        }
    }

    /// Which sides of an interior page bleed.
    pub fn bleed_sides(self) -> BleedSides {
        match self {
            Profile::Kdp | Profile::IngramSpark => BleedSides::Outside,
            Profile::Lulu | Profile::Generic => BleedSides::All,
        }
    }

    /// The least inside margin for a book of `pages` pages, in millimetres.
    pub fn gutter_mm(self, pages: usize) -> f64 {
        let inches = match self {
            Profile::Lulu => {
                0.5 + match pages {
                    0..=60 => 0.0,
                    61..=150 => 0.125,
                    151..=400 => 0.5,
                    401..=600 => 0.625,
                    _ => 0.75,
                }
            }
            _ => match pages {
                0..=150 => 0.375,
                151..=300 => 0.5,
                301..=500 => 0.625,
                501..=700 => 0.75,
                _ => 0.875,
            },
        };
        inches * MM_PER_IN
    }

    /// The least outside (and top and bottom) margin, in millimetres: what
    /// the printer may trim off or cover, where text must not go.
    pub fn safe_margin_mm(self) -> f64 {
        match self {
            Profile::Kdp => 0.375 * MM_PER_IN,
            Profile::Lulu => 0.5 * MM_PER_IN,
            Profile::IngramSpark | Profile::Generic => 0.25 * MM_PER_IN,
        }
    }

    /// The page counts a paperback may have, inclusive.
    pub fn pages(self) -> (usize, usize) {
        match self {
            Profile::Kdp => (24, 828),
            Profile::IngramSpark => (18, 1200),
            Profile::Lulu => (32, 800),
            Profile::Generic => (4, 2000),
        }
    }

    /// The spine's width for `pages` pages of `paper`, in millimetres.
    pub fn spine_mm(self, pages: usize, paper: Paper) -> f64 {
        let pages = pages as f64;
        let inches = match (self, paper) {
            (Profile::Lulu, _) => pages / 444.0 + 0.06,
            (_, Paper::White) => pages * 0.002252,
            (_, Paper::Cream) => pages * 0.0025,
            (_, Paper::Colour) => pages * 0.002347,
        };
        inches * MM_PER_IN
    }

    /// The fewest pages whose spine may carry text (KDP: more than 79).
    pub fn spine_text_pages(self) -> usize {
        80
    }

    /// Whether the printer refuses bookmarks and link annotations in the
    /// interior file (KDP's "no bookmarks, annotations or crop marks").
    pub fn bare_interior(self) -> bool {
        self == Profile::Kdp
    }

    /// Whether the printer prefers CMYK images (IngramSpark's PDF/X-1a).
    pub fn wants_cmyk(self) -> bool {
        self == Profile::IngramSpark
    }
}

impl Paper {
    /// The paper named `name` (as in [`PAPERS`]; `color` too).
    pub fn parse(name: &str) -> Option<Paper> {
        match name.trim().to_ascii_lowercase().as_str() {
            "white" => Some(Paper::White),
            "cream" => Some(Paper::Cream),
            "colour" | "color" => Some(Paper::Colour),
            _ => None,
        }
    }

    /// Its name in book.toml.
    pub fn name(self) -> &'static str {
        match self {
            Paper::White => "white",
            Paper::Cream => "cream",
            Paper::Colour => "colour",
        }
    }
}

/// The trim size named `name` (as in [`TRIMS`]; `6 x 9`, `6x9in` and
/// `A5` too), width × height in millimetres.
pub fn named_trim(name: &str) -> Option<(f64, f64)> {
    let key: String = name
        .trim()
        .to_ascii_lowercase()
        .trim_end_matches("in")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let key = key.replace('×', "x");
    TRIMS
        .iter()
        .find(|(n, _, _)| *n == key)
        .map(|&(_, w, h)| (w, h))
}

/// Whether a spine in language `tag` reads from bottom to top (the
/// custom of German, French, Italian, Spanish, Dutch and the
/// Scandinavian languages), rather than top to bottom (English, and
/// Portuguese after ABNT NBR 12225).
pub fn spine_reads_up(tag: &str) -> bool {
    let primary = tag
        .split(['-', '_'])
        .next()
        .unwrap_or(tag)
        .to_ascii_lowercase();
    [
        "de", "fr", "it", "es", "ca", "nl", "sv", "da", "no", "nb", "nn", "fi",
    ]
    .contains(&primary.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in PROFILES {
            assert_eq!(Profile::parse(name).unwrap().name(), name);
        }
        for name in PAPERS {
            assert_eq!(Paper::parse(name).unwrap().name(), name);
        }
        assert_eq!(Paper::parse("Color"), Some(Paper::Colour));
        assert_eq!(Profile::parse("KDP"), Some(Profile::Kdp));
        assert_eq!(Profile::parse("amazon"), None);
    }

    #[test]
    fn trims_by_name() {
        assert_eq!(named_trim("6x9"), Some((152.4, 228.6)));
        assert_eq!(named_trim("6 x 9 in"), Some((152.4, 228.6)));
        assert_eq!(named_trim("A5"), Some((148.0, 210.0)));
        assert_eq!(named_trim("B-format"), Some((129.0, 198.0)));
        assert_eq!(named_trim("tabloid"), None);
    }

    #[test]
    fn spines_match_the_printers_figures() {
        // KDP's calculator: 300 cream pages make a 0.75 in spine.
        let kdp = Profile::Kdp.spine_mm(300, Paper::Cream) / MM_PER_IN;
        assert!((kdp - 0.75).abs() < 1e-9);
        let white = Profile::Kdp.spine_mm(100, Paper::White) / MM_PER_IN;
        assert!((white - 0.2252).abs() < 1e-9);
        // Lulu: 444 pages make 1.06 in.
        let lulu = Profile::Lulu.spine_mm(444, Paper::White) / MM_PER_IN;
        assert!((lulu - 1.06).abs() < 1e-9);
    }

    #[test]
    fn gutters_grow_with_the_page_count() {
        let kdp: Vec<f64> = [24, 150, 151, 300, 301, 600, 828]
            .iter()
            .map(|&p| (Profile::Kdp.gutter_mm(p) / MM_PER_IN * 1000.0).round() / 1000.0)
            .collect();
        assert_eq!(kdp, [0.375, 0.375, 0.5, 0.5, 0.625, 0.75, 0.875]);
        assert!(Profile::Lulu.gutter_mm(500) > Profile::Lulu.gutter_mm(100));
        assert!(Profile::Kdp.bare_interior() && !Profile::Lulu.bare_interior());
    }

    #[test]
    fn spines_read_down_in_english_and_up_in_german() {
        assert!(!spine_reads_up("en") && !spine_reads_up("pt-BR"));
        assert!(spine_reads_up("de-AT") && spine_reads_up("fr"));
    }
}
