//! QR codes of web addresses, for print: a reader of paper cannot follow
//! a link, but a phone can read its address off the page.
//!
//! The symbol is encoded by Project Nayuki's `qrcodegen` (the reference
//! implementation, with no dependency of its own); this module turns its
//! modules into an SVG of one path, which any renderer scales without loss.

use std::fmt::Write;

use qrcodegen::{QrCode, QrCodeEcc};

/// The light margin around the symbol, in modules (ISO/IEC 18004 asks for
/// four).
pub const QUIET_ZONE: usize = 4;

/// A QR code: a square of dark and light modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qr {
    size: usize,
    dark: Vec<bool>,
}

/// Why a text has no QR code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QrError {
    /// The text's length in bytes.
    pub len: usize,
}

impl std::fmt::Display for QrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} bytes are too many for a QR code that can be printed and scanned",
            self.len
        )
    }
}

impl std::error::Error for QrError {}

impl Qr {
    /// The longest text this module encodes. A longer address makes a
    /// symbol too dense to scan at the size a book prints it.
    pub const MAX_BYTES: usize = 500;

    /// `text` encoded at error correction level M (15 % of the symbol can
    /// be lost: a printed page can be worn), raised to Q or H when that
    /// costs no larger symbol.
    pub fn of(text: &str) -> Result<Qr, QrError> {
        let too_long = QrError { len: text.len() };
        if text.len() > Self::MAX_BYTES {
            return Err(too_long);
        }
        let code = QrCode::encode_text(text, QrCodeEcc::Medium).map_err(|_| too_long)?;
        // qrcodegen's sizes are small positive numbers (21 to 177).
        let size = usize::try_from(code.size()).unwrap_or(0);
        let side = code.size();
        let dark = (0..side)
            .flat_map(|y| (0..side).map(move |x| (x, y)))
            .map(|(x, y)| code.get_module(x, y))
            .collect();
        Ok(Qr { size, dark })
    }

    /// The smallest printed module, in millimetres, that a phone's camera
    /// resolves from a hand's length.
    pub const MIN_MODULE_MM: f64 = 0.35;

    /// Modules along one side, without the quiet zone (21 to 177).
    pub fn size(&self) -> usize {
        self.size
    }

    /// The side to print the symbol at, quiet zone included: `side_mm`,
    /// or more for a dense symbol, so that no module is smaller than
    /// [`Qr::MIN_MODULE_MM`].
    pub fn printed_side_mm(&self, side_mm: f64) -> f64 {
        let modules = (self.size + 2 * QUIET_ZONE) as f64;
        side_mm.max(modules * Self::MIN_MODULE_MM)
    }

    /// Whether the module at column `x`, row `y` is dark; outside the
    /// symbol (in the quiet zone), light.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.dark[y * self.size + x]
    }

    /// The symbol as SVG: one path of the dark modules, a row's adjacent
    /// modules merged into one rectangle, on a white square with the quiet
    /// zone. The view box counts modules; `side_mm` is the printed side,
    /// quiet zone included.
    pub fn svg(&self, side_mm: f64) -> String {
        let full = self.size + 2 * QUIET_ZONE;
        let mut path = String::new();
        for y in 0..self.size {
            let mut x = 0;
            while x < self.size {
                if !self.is_dark(x, y) {
                    x += 1;
                    continue;
                }
                let start = x;
                while self.is_dark(x, y) {
                    x += 1;
                }
                let _ = write!(
                    path,
                    "M{} {}h{}v1h-{}z",
                    start + QUIET_ZONE,
                    y + QUIET_ZONE,
                    x - start,
                    x - start
                );
            }
        }
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side_mm:.2}mm\" height=\"{side_mm:.2}mm\" \
             viewBox=\"0 0 {full} {full}\" shape-rendering=\"crispEdges\">\
             <rect width=\"{full}\" height=\"{full}\" fill=\"#fff\"/>\
             <path fill=\"#000\" d=\"{path}\"/></svg>"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The symbol drawn as a grey image, `scale` pixels a module, and read
    /// back by a decoder that knows nothing of how it was made.
    fn decode(qr: &Qr, scale: usize) -> String {
        let side = (qr.size() + 2 * QUIET_ZONE) * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
            let module = |p: usize| (p / scale).checked_sub(QUIET_ZONE);
            match (module(x), module(y)) {
                (Some(mx), Some(my)) if qr.is_dark(mx, my) => 0,
                _ => 255,
            }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one symbol is found");
        grids[0].decode().expect("the symbol decodes").1
    }

    #[test]
    fn addresses_read_back_as_they_were_written() {
        for url in [
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
            "https://gist.github.com/octocat/6cad326836d38bd3a7ae",
            "https://example.org/caminho/ação?q=é#fim",
            &format!("https://example.org/{}", "a".repeat(300)),
        ] {
            let qr = Qr::of(url).unwrap();
            assert_eq!(decode(&qr, 4), url);
        }
    }

    #[test]
    fn a_short_address_makes_a_small_symbol() {
        let qr = Qr::of("https://vimeo.com/76979871").unwrap();
        // Version 2 or 3 at level M: 25 or 29 modules a side.
        assert!(qr.size() <= 29, "{}", qr.size());
    }

    #[test]
    fn a_dense_symbol_is_printed_larger_so_that_its_modules_stay_readable() {
        let short = Qr::of("https://vimeo.com/76979871").unwrap();
        assert_eq!(short.printed_side_mm(18.0), 18.0);
        let long = Qr::of(&format!("https://example.org/{}", "a".repeat(300))).unwrap();
        let side = long.printed_side_mm(18.0);
        let module = side / (long.size() + 2 * QUIET_ZONE) as f64;
        assert!(
            side > 18.0 && module >= Qr::MIN_MODULE_MM - 1e-9,
            "{side} mm"
        );
    }

    #[test]
    fn too_long_a_text_is_an_error_not_a_dense_symbol() {
        let long = "x".repeat(Qr::MAX_BYTES + 1);
        let err = Qr::of(&long).unwrap_err();
        assert_eq!(err.len, Qr::MAX_BYTES + 1);
        assert!(err.to_string().contains("too many"));
    }

    #[test]
    fn the_svg_draws_every_dark_module_and_nothing_else() {
        let qr = Qr::of("https://example.org/").unwrap();
        let svg = qr.svg(18.0);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"18.00mm\""));
        let full = qr.size() + 2 * QUIET_ZONE;
        assert!(svg.contains(&format!("viewBox=\"0 0 {full} {full}\"")));
        // Replay the path: each `M x y h w v1 h-w z` covers w modules of row y.
        let d = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let mut drawn = vec![false; full * full];
        for run in d.split('z').filter(|r| !r.is_empty()) {
            let nums: Vec<usize> = run
                .split(|c: char| !c.is_ascii_digit())
                .filter(|n| !n.is_empty())
                .map(|n| n.parse().unwrap())
                .collect();
            let [x, y, w, _one, _w] = nums[..] else {
                panic!("a run is M x y h w v1 h-w: {run}")
            };
            for i in x..x + w {
                assert!(!drawn[y * full + i], "drawn twice");
                drawn[y * full + i] = true;
            }
        }
        for y in 0..full {
            for x in 0..full {
                let dark = x >= QUIET_ZONE
                    && y >= QUIET_ZONE
                    && qr.is_dark(x - QUIET_ZONE, y - QUIET_ZONE);
                assert_eq!(drawn[y * full + x], dark, "module {x},{y}");
            }
        }
    }
}
