//! The languages stoa can set a book in, and the words it prints in each.

use stoa_doc::Labels;

/// A language stoa knows: its tag and its labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Language {
    /// The BCP 47 tag as the author wrote it, e.g. `pt-BR`.
    pub tag: String,
    /// The words around the content.
    pub labels: Labels,
}

struct Known {
    primary: &'static str,
    labels: [&'static str; 8],
}

/// contents, about author, notes, back to text, typeset with, title page, cover, colophon.
const KNOWN: &[Known] = &[
    Known {
        primary: "en",
        labels: [
            "Contents",
            "About the Author",
            "Notes",
            "Back to text",
            "Typeset with stoa",
            "Title Page",
            "Cover",
            "Colophon",
        ],
    },
    Known {
        primary: "pt",
        labels: [
            "Sumário",
            "Sobre o Autor",
            "Notas",
            "Voltar ao texto",
            "Composto com stoa",
            "Folha de rosto",
            "Capa",
            "Colofão",
        ],
    },
    Known {
        primary: "es",
        labels: [
            "Índice",
            "Sobre el autor",
            "Notas",
            "Volver al texto",
            "Compuesto con stoa",
            "Portada interior",
            "Cubierta",
            "Colofón",
        ],
    },
    Known {
        primary: "fr",
        labels: [
            "Table des matières",
            "À propos de l’auteur",
            "Notes",
            "Retour au texte",
            "Composé avec stoa",
            "Page de titre",
            "Couverture",
            "Colophon",
        ],
    },
    Known {
        primary: "de",
        labels: [
            "Inhalt",
            "Über den Autor",
            "Anmerkungen",
            "Zurück zum Text",
            "Gesetzt mit stoa",
            "Titelseite",
            "Umschlag",
            "Impressum",
        ],
    },
];

impl Language {
    /// Looks a tag up. `Err` says why the tag is not usable.
    pub fn parse(tag: &str) -> Result<Self, String> {
        let mut parts = tag.split('-');
        let primary = parts.next().unwrap_or_default();
        let region = parts.next();
        let well_formed = (2..=3).contains(&primary.len())
            && primary.chars().all(|c| c.is_ascii_lowercase())
            && region.is_none_or(|r| {
                (r.len() == 2 && r.chars().all(|c| c.is_ascii_uppercase()))
                    || (r.len() == 3 && r.chars().all(|c| c.is_ascii_digit()))
            })
            && parts.next().is_none();
        if !well_formed {
            return Err(format!(
                "`{tag}` is not a language tag of the form `pt` or `pt-BR`"
            ));
        }
        let known = KNOWN.iter().find(|k| k.primary == primary).ok_or_else(|| {
            let names: Vec<_> = KNOWN.iter().map(|k| k.primary).collect();
            format!(
                "stoa does not know the language `{tag}`; it knows {}",
                names.join(", ")
            )
        })?;
        let [
            contents,
            about_author,
            notes,
            back_to_text,
            typeset_with,
            title_page,
            cover,
            colophon,
        ] = known.labels.map(str::to_string);
        Ok(Language {
            tag: tag.to_string(),
            labels: Labels {
                contents,
                about_author,
                notes,
                back_to_text,
                typeset_with,
                title_page,
                cover,
                colophon,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_portuguese_and_english() {
        assert_eq!(Language::parse("pt-BR").unwrap().labels.contents, "Sumário");
        assert_eq!(Language::parse("en").unwrap().labels.contents, "Contents");
    }

    #[test]
    fn refuses_malformed_and_unknown_tags() {
        assert!(
            Language::parse("pt_BR")
                .unwrap_err()
                .contains("not a language tag")
        );
        assert!(Language::parse("PT").is_err());
        assert!(Language::parse("xx").unwrap_err().contains("does not know"));
        assert!(Language::parse("").is_err());
    }
}
