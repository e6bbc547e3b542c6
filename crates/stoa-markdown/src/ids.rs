//! Anchors for headings: readable, ASCII, unique within a chapter.

use std::collections::HashSet;

/// Turns text into an ASCII anchor: `Diálogo sobre Rótulos` -> `dialogo-sobre-rotulos`.
/// Accented Latin letters lose their accents; other characters become dashes.
pub fn slugify(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        let c = fold_accent(c);
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        _ => c,
    }
}

/// Hands out unique ids within one chapter.
#[derive(Default)]
pub struct IdSet {
    used: HashSet<String>,
}

impl IdSet {
    /// A unique id from `wanted`; XML ids must start with a letter.
    pub fn unique(&mut self, wanted: &str) -> String {
        let mut base = slugify(wanted);
        if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
            base = format!("s-{base}").trim_end_matches('-').to_string();
        }
        let mut id = base.clone();
        let mut n = 2;
        while !self.used.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_accents_and_punctuation() {
        assert_eq!(
            slugify("Diálogo sobre Rótulos, e Verdade!"),
            "dialogo-sobre-rotulos-e-verdade"
        );
        assert_eq!(slugify("  Ação  "), "acao");
    }

    #[test]
    fn ids_are_unique_and_start_with_a_letter() {
        let mut ids = IdSet::default();
        assert_eq!(ids.unique("Nota"), "nota");
        assert_eq!(ids.unique("Nota"), "nota-2");
        assert_eq!(ids.unique("1984"), "s-1984");
        assert_eq!(ids.unique("🙂"), "s");
        assert_eq!(ids.unique("🙂"), "s-2");
    }
}
