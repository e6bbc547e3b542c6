//! The media types of the files a book's output holds, by extension: the
//! one table of them, which stoa-serve answers with and stoa-book reads to
//! tell an image's kind.

/// The media type of a file whose name ends in `.ext` (in any case), with
/// the charset of a text type; `None` for an extension not listed.
pub fn media_type(ext: &str) -> Option<&'static str> {
    Some(match ext.to_ascii_lowercase().as_str() {
        "epub" => "application/epub+zip",
        "pdf" => "application/pdf",
        "html" | "htm" => "text/html; charset=utf-8",
        "xml" => "application/xml",
        "atom" => "application/atom+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::media_type;

    #[test]
    fn extensions_in_any_case_and_unknown_ones() {
        assert_eq!(media_type("JPG"), Some("image/jpeg"));
        assert_eq!(media_type("jpeg"), media_type("jpg"));
        assert_eq!(media_type("html"), Some("text/html; charset=utf-8"));
        assert_eq!(media_type("epub"), Some("application/epub+zip"));
        assert_eq!(media_type("exe"), None);
        assert_eq!(media_type(""), None);
    }
}
