//! The package's accessibility claims held against its documents: a
//! feature the metadata states must be in the book, so that a reader's
//! system (and a store) is never told something false. Text alternatives
//! (`alternativeText`, and any WCAG conformance) need every image
//! described; `pageNavigation` a page list; `MathML` MathML; `index` an
//! index.

/// What the documents hold that a claim may need.
#[derive(Default)]
pub(crate) struct Seen {
    /// Documents with an image that has no text alternative (and is not
    /// marked decorative).
    undescribed: Vec<String>,
    page_list: bool,
    math: bool,
    index: bool,
}

impl Seen {
    /// Notes what element `node` of document `path` holds.
    pub(crate) fn note(&mut self, path: &str, node: roxmltree::Node) {
        let name = node.tag_name().name();
        let types = node
            .attributes()
            .find(|a| a.name() == "type" && a.namespace().is_some_and(|n| n.ends_with("/ops")))
            .map(|a| a.value())
            .unwrap_or_default();
        let has_type = |t: &str| types.split_whitespace().any(|x| x == t);
        match name {
            "img" => {
                let decorative = matches!(node.attribute("role"), Some("presentation" | "none"))
                    || node.attribute("aria-hidden") == Some("true");
                let described = node.attribute("alt").is_some_and(|a| !a.trim().is_empty());
                if !described && !decorative && !self.undescribed.iter().any(|p| p == path) {
                    self.undescribed.push(path.to_string());
                }
            }
            "nav" if has_type("page-list") => self.page_list = true,
            "math" => self.math = true,
            _ => {}
        }
        if has_type("index") {
            self.index = true;
        }
    }

    /// The claims of the package document `opf` (its text) that the
    /// documents do not bear out.
    pub(crate) fn check(&self, opf: &str, text: &str, problems: &mut Vec<String>) {
        let Ok(doc) = roxmltree::Document::parse(text) else {
            return;
        };
        let meta = |property: &str| -> Vec<String> {
            doc.descendants()
                .filter(|n| {
                    n.tag_name().name() == "meta" && n.attribute("property") == Some(property)
                })
                .filter_map(|n| n.text().map(|t| t.trim().to_string()))
                .collect()
        };
        let features = meta("schema:accessibilityFeature");
        let claims = |f: &str| features.iter().any(|x| x == f);
        let wcag = meta("dcterms:conformsTo")
            .iter()
            .any(|c| c.contains("WCAG"));
        if (claims("alternativeText") || wcag) && !self.undescribed.is_empty() {
            let what = if wcag {
                "WCAG conformance"
            } else {
                "alternativeText"
            };
            problems.push(format!(
                "{opf}: claims {what}, but images have no text alternative in {}",
                self.undescribed.join(", ")
            ));
        }
        for (feature, held) in [
            ("pageNavigation", self.page_list),
            ("MathML", self.math),
            ("index", self.index),
        ] {
            if claims(feature) && !held {
                problems.push(format!(
                    "{opf}: claims {feature}, which the book does not have"
                ));
            }
        }
    }
}
