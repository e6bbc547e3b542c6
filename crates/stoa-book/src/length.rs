//! Lengths as book.toml writes them: a number and a unit.

/// A length in millimetres from `14cm`, `140mm`, `5.5in` or `10.5pt`.
pub(crate) fn parse_length(text: &str) -> Option<f64> {
    let text = text.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let n: f64 = number.trim().parse().ok()?;
    let per_unit = match unit {
        "mm" => 1.0,
        "cm" => 10.0,
        "in" => 25.4,
        "pt" => 25.4 / 72.0,
        _ => return None,
    };
    Some(n * per_unit)
}
