//! EAN-13: thirteen digits as 95 modules, and the modules as bars.

use std::fmt::Write;

/// The left-hand digits with odd parity (set A), seven modules each,
/// dark as 1 (GS1 General Specifications, figure 5.2.2.2-1).
const L: [u8; 10] = [
    0b0001101, 0b0011001, 0b0010011, 0b0111101, 0b0100011, 0b0110001, 0b0101111, 0b0111011,
    0b0110111, 0b0001011,
];

/// Which left-hand digits use set B (even parity, the mirror of set C),
/// by the first digit, which has no bars of its own: bit 5 is the second
/// digit of the number, bit 0 the seventh.
const PARITY: [u8; 10] = [
    0b000000, 0b001011, 0b001101, 0b001110, 0b010011, 0b011001, 0b011100, 0b010101, 0b010110,
    0b011010,
];

/// Modules of the symbol between the quiet zones.
pub const MODULES: usize = 95;

/// An EAN-13 symbol: its digits and its 95 modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ean13 {
    digits: [u8; 13],
    modules: [bool; MODULES],
}

/// One bar: `x` and `width` in modules from the symbol's first module
/// (the left quiet zone not counted); guard bars (the start, centre and
/// end patterns) run longer, down between the digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bar {
    /// The first module of the bar.
    pub x: usize,
    /// How many modules wide (1 to 4).
    pub width: usize,
    /// A guard bar, drawn longer.
    pub guard: bool,
}

/// The printed size of a symbol, in millimetres, at a magnification.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// One module's width: 0.330 mm at 100 %.
    pub module_mm: f64,
    /// The height of an ordinary bar: 22.85 mm at 100 %.
    pub bar_mm: f64,
    /// How much longer a guard bar is: five modules.
    pub guard_extra_mm: f64,
    /// The height of the human-readable digits (OCR-B's 2.75 mm at 100 %).
    pub digit_mm: f64,
}

impl Geometry {
    /// Quiet zone left of the symbol, in modules (the first digit stands in it).
    pub const QUIET_LEFT: usize = 11;
    /// Quiet zone right of the symbol, in modules.
    pub const QUIET_RIGHT: usize = 7;

    /// The sizes at `magnification` (1.0 is 100 %); GS1 allows 0.80 to 2.00.
    pub fn at(magnification: f64) -> Geometry {
        let m = magnification.clamp(0.8, 2.0);
        Geometry {
            module_mm: 0.33 * m,
            bar_mm: 22.85 * m,
            guard_extra_mm: 5.0 * 0.33 * m,
            digit_mm: 2.75 * m,
        }
    }

    /// The whole symbol's width, quiet zones included (37.29 mm at 100 %).
    pub fn width_mm(&self) -> f64 {
        (Self::QUIET_LEFT + MODULES + Self::QUIET_RIGHT) as f64 * self.module_mm
    }

    /// The whole symbol's height, the digits under the bars included.
    pub fn height_mm(&self) -> f64 {
        self.bar_mm + self.guard_extra_mm.max(self.digit_mm * 1.1)
    }
}

impl Ean13 {
    /// The symbol of `digits`, each 0 to 9 (the check digit is the caller's:
    /// [`crate::Isbn`] has checked it).
    pub fn of(digits: [u8; 13]) -> Ean13 {
        let mut modules = [false; MODULES];
        let mut at = 0;
        let mut put = |bits: u8, n: usize| {
            for i in (0..n).rev() {
                modules[at] = bits >> i & 1 == 1;
                at += 1;
            }
        };
        put(0b101, 3);
        let parity = PARITY[usize::from(digits[0] % 10)];
        for (i, &d) in digits[1..7].iter().enumerate() {
            let l = L[usize::from(d % 10)];
            let even = parity >> (5 - i) & 1 == 1;
            put(if even { mirror(!l & 0x7f) } else { l }, 7);
        }
        put(0b01010, 5);
        for &d in &digits[7..] {
            put(!L[usize::from(d % 10)] & 0x7f, 7);
        }
        put(0b101, 3);
        Ean13 { digits, modules }
    }

    /// The modules, dark as `true`.
    pub fn modules(&self) -> &[bool; MODULES] {
        &self.modules
    }

    /// The dark runs as bars, left to right.
    pub fn bars(&self) -> Vec<Bar> {
        let mut bars: Vec<Bar> = Vec::new();
        for (x, &dark) in self.modules.iter().enumerate() {
            if !dark {
                continue;
            }
            match bars.last_mut() {
                Some(bar) if bar.x + bar.width == x => bar.width += 1,
                _ => bars.push(Bar {
                    x,
                    width: 1,
                    guard: is_guard(x),
                }),
            }
        }
        bars
    }

    /// The human-readable digits in their three groups: the first (set in
    /// the left quiet zone), the left six and the right six, each with the
    /// module its text is centred on (from the symbol's first module; the
    /// first group's is negative, in the quiet zone).
    pub fn digit_groups(&self) -> [(String, f64); 3] {
        let text = |r: std::ops::Range<usize>| -> String {
            self.digits[r]
                .iter()
                .map(|n| char::from(b'0' + n))
                .collect()
        };
        [
            (text(0..1), -(Geometry::QUIET_LEFT as f64) / 2.0 - 1.0),
            (text(1..7), 3.0 + 21.0),
            (text(7..13), 50.0 + 21.0),
        ]
    }

    /// The symbol as an SVG document at `geometry`, quiet zones included,
    /// on white.
    pub fn svg(&self, geometry: &Geometry) -> String {
        let g = geometry;
        let left = Geometry::QUIET_LEFT as f64 * g.module_mm;
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.3}mm\" height=\"{h:.3}mm\" viewBox=\"0 0 {w:.3} {h:.3}\">\
             <rect width=\"{w:.3}\" height=\"{h:.3}\" fill=\"#fff\"/>",
            w = g.width_mm(),
            h = g.height_mm()
        );
        for bar in self.bars() {
            let height = g.bar_mm + if bar.guard { g.guard_extra_mm } else { 0.0 };
            let _ = write!(
                out,
                "<rect x=\"{:.3}\" y=\"0\" width=\"{:.3}\" height=\"{height:.3}\"/>",
                left + bar.x as f64 * g.module_mm,
                bar.width as f64 * g.module_mm
            );
        }
        for (text, centre) in self.digit_groups() {
            let _ = write!(
                out,
                "<text x=\"{:.3}\" y=\"{:.3}\" font-family=\"monospace\" font-size=\"{:.3}\" text-anchor=\"middle\">{text}</text>",
                left + centre * g.module_mm,
                g.bar_mm + g.digit_mm,
                g.digit_mm * 1.2
            );
        }
        out.push_str("</svg>");
        out
    }
}

/// Whether module `x` belongs to a guard pattern (start, centre, end).
fn is_guard(x: usize) -> bool {
    x < 3 || (45..50).contains(&x) || x >= 92
}

/// The seven low bits of `bits` in reverse order.
fn mirror(bits: u8) -> u8 {
    (0..7).fold(0, |acc, i| acc | ((bits >> i) & 1) << (6 - i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modules_text(e: &Ean13) -> String {
        e.modules()
            .iter()
            .map(|&d| if d { '1' } else { '0' })
            .collect()
    }

    #[test]
    fn a_known_symbol_module_by_module() {
        // 4006381333931, written out by hand from GS1's tables: the first
        // digit 4 gives the parity L G L L G G to 0 0 6 3 8 1; the right
        // half is set C.
        let e = Ean13::of([4, 0, 0, 6, 3, 8, 1, 3, 3, 3, 9, 3, 1]);
        let expected = [
            "101", "0001101", "0100111", "0101111", "0111101", "0001001", "0110011", "01010",
            "1000010", "1000010", "1000010", "1110100", "1000010", "1100110", "101",
        ]
        .concat();
        assert_eq!(modules_text(&e), expected);
    }

    #[test]
    fn bars_cover_exactly_the_dark_modules() {
        let e = Ean13::of([9, 7, 8, 0, 3, 0, 6, 4, 0, 6, 1, 5, 7]);
        let bars = e.bars();
        let dark: usize = bars.iter().map(|b| b.width).sum();
        assert_eq!(dark, e.modules().iter().filter(|&&d| d).count());
        // 3 guard patterns of 2, 2 and 2 bars; 2 bars per digit.
        assert_eq!(bars.len(), 6 + 12 * 2);
        assert_eq!(bars.iter().filter(|b| b.guard).count(), 6);
        assert!(bars.iter().all(|b| (1..=4).contains(&b.width)));
    }

    #[test]
    fn sizes_follow_gs1() {
        let g = Geometry::at(1.0);
        assert!((g.width_mm() - 37.29).abs() < 1e-9);
        assert!((Geometry::at(0.5).module_mm - 0.264).abs() < 1e-9);
        let svg = Ean13::of([9, 7, 8, 0, 3, 0, 6, 4, 0, 6, 1, 5, 7]).svg(&g);
        assert!(svg.starts_with("<svg"), "{svg}");
        for group in [">9</text>", ">780306</text>", ">406157</text>"] {
            assert!(svg.contains(group), "{group}: {svg}");
        }
    }
}
