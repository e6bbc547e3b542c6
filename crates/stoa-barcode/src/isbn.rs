//! ISBN-13 and ISBN-10: parsed, checked, ISBN-10 turned into ISBN-13.

use std::fmt;

/// A checked ISBN, always as ISBN-13.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isbn {
    digits: [u8; 13],
    /// The author's grouping (`978-0-306-40615-7`), kept for print:
    /// hyphenation by registration group needs ranges stoa does not carry.
    display: String,
}

/// Why a text is not an ISBN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IsbnError {
    /// A character other than a digit, a hyphen or a space (or an `X`
    /// elsewhere than the end of an ISBN-10).
    Character(char),
    /// Neither 10 nor 13 digits.
    Length(usize),
    /// An ISBN-13 that does not start with 978 or 979.
    Prefix(String),
    /// The check digit is wrong: `written`, where `expected` belongs.
    CheckDigit {
        /// The last digit as written (`X` is 10).
        written: char,
        /// The digit the others ask for.
        expected: char,
    },
}

impl fmt::Display for IsbnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IsbnError::Character(c) => write!(f, "`{c}` cannot be in an ISBN"),
            IsbnError::Length(n) => write!(f, "has {n} digits; an ISBN has 13 (or 10)"),
            IsbnError::Prefix(p) => write!(f, "starts with {p}; an ISBN-13 starts with 978 or 979"),
            IsbnError::CheckDigit { written, expected } => write!(
                f,
                "has the check digit {written}, but its other digits ask for {expected}"
            ),
        }
    }
}

impl std::error::Error for IsbnError {}

impl Isbn {
    /// Reads an ISBN-13 or ISBN-10 (hyphens and spaces allowed, an
    /// `ISBN` prefix too), checking the check digit.
    pub fn parse(text: &str) -> Result<Isbn, IsbnError> {
        let body = text.trim();
        let body = body
            .strip_prefix("ISBN-13")
            .or_else(|| body.strip_prefix("ISBN-10"))
            .or_else(|| body.strip_prefix("ISBN"))
            .unwrap_or(body)
            .trim_start_matches([':', ' ']);
        let mut digits = Vec::with_capacity(13);
        let count = body.chars().filter(|c| !matches!(c, '-' | ' ')).count();
        for c in body.chars() {
            match c {
                '0'..='9' => digits.push(c as u8 - b'0'),
                'X' | 'x' if count == 10 && digits.len() == 9 => digits.push(10),
                '-' | ' ' => {}
                other => return Err(IsbnError::Character(other)),
            }
        }
        match digits.len() {
            13 => Self::from_13(&digits, body),
            10 => Self::from_10(&digits, body),
            n => Err(IsbnError::Length(n)),
        }
    }

    fn from_13(d: &[u8], written: &str) -> Result<Isbn, IsbnError> {
        let prefix: String = d[..3].iter().map(|n| char::from(b'0' + n)).collect();
        if prefix != "978" && prefix != "979" {
            return Err(IsbnError::Prefix(prefix));
        }
        let expected = check_13(&d[..12]);
        if d[12] != expected {
            return Err(IsbnError::CheckDigit {
                written: digit_char(d[12]),
                expected: digit_char(expected),
            });
        }
        let mut digits = [0; 13];
        digits.copy_from_slice(d);
        Ok(Isbn {
            digits,
            display: tidy(written),
        })
    }

    /// An ISBN-10 checked (mod 11) and given the 978 prefix and a new
    /// check digit, its grouping kept.
    fn from_10(d: &[u8], written: &str) -> Result<Isbn, IsbnError> {
        let sum: u32 = d[..9]
            .iter()
            .enumerate()
            .map(|(i, &n)| (10 - i as u32) * u32::from(n))
            .sum();
        let expected = ((11 - sum % 11) % 11) as u8;
        if d[9] != expected {
            return Err(IsbnError::CheckDigit {
                written: digit_char(d[9]),
                expected: digit_char(expected),
            });
        }
        let mut digits = [9, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        digits[3..12].copy_from_slice(&d[..9]);
        digits[12] = check_13(&digits[..12]);
        let written = tidy(written);
        let display = if written.contains('-') {
            // Same groups, the last one (the check digit) replaced.
            let head = written.rsplit_once('-').map_or("", |(h, _)| h);
            format!("978-{head}-{}", digits[12])
        } else {
            digits.iter().map(|n| char::from(b'0' + n)).collect()
        };
        Ok(Isbn { digits, display })
    }

    /// The thirteen digits, no hyphens: `9780306406157`.
    pub fn digits(&self) -> String {
        self.digits.iter().map(|n| char::from(b'0' + n)).collect()
    }

    /// The digits as numbers, for the barcode.
    pub fn digit_values(&self) -> [u8; 13] {
        self.digits
    }

    /// As the author grouped it (spaces made hyphens), as ISBN-13.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// `urn:isbn:9780306406157`, for metadata.
    pub fn urn(&self) -> String {
        format!("urn:isbn:{}", self.digits())
    }
}

/// The ISBN-13 (EAN-13) check digit of twelve digits: weights 1 and 3.
fn check_13(d: &[u8]) -> u8 {
    let sum: u32 = d
        .iter()
        .enumerate()
        .map(|(i, &n)| u32::from(n) * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    ((10 - sum % 10) % 10) as u8
}

fn digit_char(n: u8) -> char {
    if n == 10 { 'X' } else { char::from(b'0' + n) }
}

/// Hyphens for spaces, no doubled or outer hyphens, `X` upper case.
fn tidy(text: &str) -> String {
    text.split(['-', ' '])
        .filter(|g| !g.is_empty())
        .collect::<Vec<_>>()
        .join("-")
        .to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isbn_13_with_and_without_hyphens() {
        let isbn = Isbn::parse("978-0-306-40615-7").unwrap();
        assert_eq!(isbn.digits(), "9780306406157");
        assert_eq!(isbn.display(), "978-0-306-40615-7");
        assert_eq!(isbn.urn(), "urn:isbn:9780306406157");
        assert_eq!(Isbn::parse("ISBN 978 0 306 40615 7").unwrap(), isbn);
        assert_eq!(
            Isbn::parse("9780306406157").unwrap().digits(),
            isbn.digits()
        );
    }

    #[test]
    fn isbn_10_becomes_isbn_13() {
        let isbn = Isbn::parse("0-306-40615-2").unwrap();
        assert_eq!(isbn.digits(), "9780306406157");
        assert_eq!(isbn.display(), "978-0-306-40615-7");
        // A check digit of 10 is written X.
        assert_eq!(
            Isbn::parse("0-8044-2957-X").unwrap().digits(),
            "9780804429573"
        );
        assert_eq!(
            Isbn::parse("080442957x").unwrap().display(),
            "9780804429573"
        );
    }

    #[test]
    fn wrong_check_digits_say_which_digit_belongs() {
        assert_eq!(
            Isbn::parse("978-0-306-40615-8"),
            Err(IsbnError::CheckDigit {
                written: '8',
                expected: '7'
            })
        );
        assert_eq!(
            Isbn::parse("0-306-40615-3").unwrap_err().to_string(),
            "has the check digit 3, but its other digits ask for 2"
        );
    }

    #[test]
    fn other_mistakes() {
        assert_eq!(Isbn::parse("978-0-306"), Err(IsbnError::Length(7)));
        assert_eq!(
            Isbn::parse("978-0-306-4O615-7"),
            Err(IsbnError::Character('O'))
        );
        assert_eq!(Isbn::parse("97X0306406157"), Err(IsbnError::Character('X')));
        assert!(matches!(
            Isbn::parse("4006381333931"),
            Err(IsbnError::Prefix(_))
        ));
        assert_eq!(Isbn::parse(""), Err(IsbnError::Length(0)));
    }
}
