//! Technical tokens in prose (stoa-markdown marks them): a `<span>` with
//! the token's class and a `<wbr>` after each inner `.`, `/` and `_` before
//! a letter and at a long camelCase name's humps; with the break a browser
//! already allows after a `-`, these are the only places it may break. The theme's CSS sets it unhyphenated, in
//! lining figures.

use crate::xml::Xml;

/// Writes the token `text` as a span of `class`, with a `<wbr>` at each of
/// [`stoa_doc::token_pieces`]'s cuts except after a hyphen, where a browser
/// breaks by itself (a `<wbr>` there would split the token's text in the
/// markup for nothing).
pub(crate) fn write(class: &str, text: &str, x: &mut Xml) {
    x.open("span", &[("class", class)]);
    let pieces = stoa_doc::token_pieces(text);
    let mut pending = String::new();
    for (i, piece) in pieces.iter().enumerate() {
        pending.push_str(piece);
        let last = i + 1 == pieces.len();
        if !last && !piece.ends_with('-') {
            x.text(&pending);
            pending.clear();
            x.empty("wbr", &[]);
        }
    }
    x.text(&pending);
    x.close();
}

#[cfg(test)]
mod tests {
    use super::write;
    use crate::Flavor;
    use crate::xml::Xml;

    fn html(text: &str) -> String {
        let mut x = Xml::new(Flavor::Epub);
        write("tok", text, &mut x);
        x.finish()
    }

    #[test]
    fn breaks_only_after_inner_separators_and_at_long_names_humps() {
        assert_eq!(
            html("--savepoint"),
            r#"<span class="tok">--savepoint</span>"#
        );
        assert_eq!(
            html("--savepointPath"),
            r#"<span class="tok">--savepoint<wbr/>Path</span>"#
        );
        assert_eq!(
            html("high-availability.storageDir"),
            r#"<span class="tok">high-availability.<wbr/>storageDir</span>"#
        );
        assert_eq!(html("1.0.0"), r#"<span class="tok">1.0.0</span>"#);
        assert_eq!(
            html("/opt/a&b"),
            r#"<span class="tok">/opt/<wbr/>a&amp;b</span>"#
        );
    }
}
