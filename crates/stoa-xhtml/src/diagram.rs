//! A diagram drawn by stoa-diagram, as a figure: the SVG inline (its text
//! stays text, it scales with the page, and its `<title>` and `<desc>`
//! give screen readers the text alternative), then the caption.

use crate::xml::Xml;
use stoa_diagram::DiagramRef;

/// Writes `drawing` as `<figure class="diagram">`.
pub(crate) fn write(drawing: &DiagramRef<'_>, x: &mut Xml) {
    x.open("figure", &[("class", "diagram")]);
    x.markup(drawing.svg);
    if let Some(caption) = drawing.caption {
        x.element("figcaption", &[], caption);
    }
    x.close();
}
