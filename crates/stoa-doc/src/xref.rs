//! Numbered figures, tables, listings and equations in the tree, and the
//! references to them, as stoa-xref makes them and every renderer reads
//! them (no renderer numbers anything: the numbers are in the tree, so
//! every format prints the same ones).
//!
//! - A figure, table or listing is a div of role [`FIGURE_ROLE`] with its
//!   `id`, its [`KIND`] (`figure`, `table` or `listing`) and its
//!   [`NUMBER`], holding the numbered block and a div of role
//!   [`CAPTION_ROLE`]: one paragraph that begins with a span of role
//!   [`CAPTION_LABEL_ROLE`] ("Figure 3"), then the separator and the
//!   author's caption. A table's or listing's caption comes first, a
//!   figure's last, as books set them.
//! - A numbered equation is a div of role [`EQUATION_ROLE`] (with `id` and
//!   [`NUMBER`]) holding one paragraph: the display formula, then a span of
//!   role [`EQUATION_NUMBER_ROLE`] with "(3)".
//! - A reference is a span of role [`XREF_ROLE`] around one link to the
//!   target's id, its text the target's label ("Figure 3"). In print the
//!   page follows when the target is on another page.
//! - A list of figures or of tables is an appendix of role
//!   [`LIST_ROLE`]: one paragraph per item, each a page reference
//!   ([`crate::PAGE_REF_ROLE`]) to it.

use crate::Role;

/// A numbered figure, table or listing.
pub const FIGURE_ROLE: &str = "figure";
/// Its caption, inside it.
pub const CAPTION_ROLE: &str = "caption";
/// "Figure 3" at the start of a caption.
pub const CAPTION_LABEL_ROLE: &str = "caption-label";
/// A numbered display equation.
pub const EQUATION_ROLE: &str = "equation";
/// "(3)" after a numbered equation.
pub const EQUATION_NUMBER_ROLE: &str = "equation-number";
/// A reference to a numbered element.
pub const XREF_ROLE: &str = "xref";
/// A list of figures or of tables (a chapter's role).
pub const LIST_ROLE: &str = "list-of-figures";
/// The attribute of a figure naming what it numbers.
pub const KIND: &str = "kind";
/// The attribute holding a figure's or equation's number, as printed.
pub const NUMBER: &str = "number";

/// What a label numbers, by the prefix of its name (`fig:wall`), as
/// pandoc-crossref names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An image or diagram: `fig:`.
    Figure,
    /// A table: `tbl:`.
    Table,
    /// A code listing: `lst:`.
    Listing,
    /// A display equation: `eq:`.
    Equation,
}

impl Kind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [Kind; 4] = [Kind::Figure, Kind::Table, Kind::Listing, Kind::Equation];

    /// The prefix of its labels, without the colon.
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Figure => "fig",
            Kind::Table => "tbl",
            Kind::Listing => "lst",
            Kind::Equation => "eq",
        }
    }

    /// The name in a figure's [`KIND`] attribute.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Figure => "figure",
            Kind::Table => "table",
            Kind::Listing => "listing",
            Kind::Equation => "equation",
        }
    }

    /// The kind a label's name says (`tbl:sizes` is a table's).
    pub fn of_label(label: &str) -> Option<Kind> {
        let (prefix, name) = label.split_once(':')?;
        if name.is_empty() {
            return None;
        }
        Kind::ALL.into_iter().find(|k| k.prefix() == prefix)
    }
}

/// The id an element labelled `label` carries: `fig:wall` is `fig-wall`
/// (an XML id holds no colon).
pub fn label_id(label: &str) -> String {
    label.replacen(':', "-", 1)
}

/// The xref role of a container, if it has one.
pub fn role_name(role: Option<&Role>) -> Option<&str> {
    match role {
        Some(Role::Other(name))
            if [
                FIGURE_ROLE,
                CAPTION_ROLE,
                CAPTION_LABEL_ROLE,
                EQUATION_ROLE,
                EQUATION_NUMBER_ROLE,
                XREF_ROLE,
            ]
            .contains(&name.as_str()) =>
        {
            Some(name)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_labels_prefix_says_its_kind() {
        assert_eq!(Kind::of_label("fig:wall"), Some(Kind::Figure));
        assert_eq!(Kind::of_label("tbl:sizes"), Some(Kind::Table));
        assert_eq!(Kind::of_label("lst:main"), Some(Kind::Listing));
        assert_eq!(Kind::of_label("eq:euler"), Some(Kind::Equation));
        assert_eq!(Kind::of_label("sec:intro"), None);
        assert_eq!(Kind::of_label("fig:"), None);
        assert_eq!(Kind::of_label("smith2020"), None);
        assert_eq!(label_id("fig:a:b"), "fig-a:b");
    }

    #[test]
    fn only_xref_roles_are_named() {
        let role = |n: &str| Some(Role::Other(n.into()));
        assert_eq!(role_name(role(FIGURE_ROLE).as_ref()), Some("figure"));
        assert_eq!(role_name(role("index").as_ref()), None);
        assert_eq!(role_name(Some(&Role::Math)), None);
    }
}
