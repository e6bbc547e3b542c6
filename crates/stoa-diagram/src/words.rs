//! The words of the text alternatives, per language.
//!
//! Kept here rather than in stoa-locale because only this crate writes
//! them; a language without an entry gets English.

/// Words that describe a diagram.
pub(crate) struct Words {
    pub(crate) flowchart: &'static str,
    pub(crate) sequence: &'static str,
    pub(crate) er: &'static str,
    pub(crate) diagram: &'static str,
    /// Before the nodes that belong to no group.
    pub(crate) nodes: &'static str,
    /// Before the list of edges.
    pub(crate) arrows: &'static str,
    /// `{a} → {b}` said in words: `a`, this, `b`.
    pub(crate) to: &'static str,
    /// An edge without an arrow head.
    pub(crate) with: &'static str,
    pub(crate) participants: &'static str,
    pub(crate) messages: &'static str,
    pub(crate) entities: &'static str,
    pub(crate) relationships: &'static str,
    pub(crate) labels: &'static str,
}

const EN: Words = Words {
    flowchart: "Flowchart",
    sequence: "Sequence diagram",
    er: "Entity-relationship diagram",
    diagram: "Diagram",
    nodes: "Nodes",
    arrows: "Arrows",
    to: "to",
    with: "linked with",
    participants: "Participants",
    messages: "Messages",
    entities: "Entities",
    relationships: "Relationships",
    labels: "Labels",
};

const PT: Words = Words {
    flowchart: "Fluxograma",
    sequence: "Diagrama de sequência",
    er: "Diagrama entidade-relacionamento",
    diagram: "Diagrama",
    nodes: "Nós",
    arrows: "Setas",
    to: "para",
    with: "ligado a",
    participants: "Participantes",
    messages: "Mensagens",
    entities: "Entidades",
    relationships: "Relacionamentos",
    labels: "Rótulos",
};

const ES: Words = Words {
    flowchart: "Diagrama de flujo",
    sequence: "Diagrama de secuencia",
    er: "Diagrama entidad-relación",
    diagram: "Diagrama",
    nodes: "Nodos",
    arrows: "Flechas",
    to: "a",
    with: "unido a",
    participants: "Participantes",
    messages: "Mensajes",
    entities: "Entidades",
    relationships: "Relaciones",
    labels: "Etiquetas",
};

/// The words for the BCP 47 tag `lang`, English when there are none.
pub(crate) fn for_lang(lang: &str) -> &'static Words {
    let primary = lang.split(['-', '_']).next().unwrap_or("");
    match primary.to_ascii_lowercase().as_str() {
        "pt" => &PT,
        "es" => &ES,
        _ => &EN,
    }
}
