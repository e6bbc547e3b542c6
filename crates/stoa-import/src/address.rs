//! Addresses on the imported site: a link's target as a path of the site,
//! to compare with the posts' addresses, and the address on the web of a
//! file the site serves.

/// A site's address: its host and the path it is served under.
pub(crate) struct Base {
    host: String,
    path: String,
}

impl Base {
    pub(crate) fn parse(url: &str) -> Base {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let rest = rest.trim_start_matches('/');
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        Base {
            host: host.trim_start_matches("www.").to_ascii_lowercase(),
            path: format!("/{}", path.trim_matches('/'))
                .trim_end_matches('/')
                .to_string(),
        }
    }
}

/// A link's target as a site path to compare with the posts' addresses
/// (`/posts/x`), or `None` when it leads elsewhere: another site, a mail
/// address, an anchor in the post.
pub(crate) fn normalize(url: &str, base: Option<&Base>, own: Option<&str>) -> Option<String> {
    let url = url.trim();
    let url = url.split(['#', '?']).next().unwrap_or("");
    if url.is_empty() {
        return None;
    }
    let mut path = if let Some((scheme, rest)) = url.split_once("://") {
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        let base = base?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        if host.trim_start_matches("www.").to_ascii_lowercase() != base.host {
            return None;
        }
        format!("/{path}")
    } else if let Some(rest) = url.strip_prefix("//") {
        let base = base?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        if host.trim_start_matches("www.").to_ascii_lowercase() != base.host {
            return None;
        }
        format!("/{path}")
    } else if url.starts_with('/') {
        url.to_string()
    } else if url.contains(':') {
        return None;
    } else {
        // Relative to the post's own address.
        let own = own?;
        let own_path = normalize(own, base, None)?;
        joined(&own_path, url)?
    };
    if let Some(base) = base
        && !base.path.is_empty()
        && let Some(rest) = path.strip_prefix(&base.path)
        && (rest.is_empty() || rest.starts_with('/'))
    {
        path = rest.to_string();
    }
    let mut path = stoa_markdown::percent_decode(&path).to_lowercase();
    for suffix in ["/index.html", "/index.htm", ".html", ".htm"] {
        if let Some(p) = path.strip_suffix(suffix) {
            path = p.to_string();
            break;
        }
    }
    let path = path.trim_end_matches('/');
    Some(if path.is_empty() {
        "/".into()
    } else {
        path.to_string()
    })
}

/// The site path `relative` leads to from the folder `folder` (both
/// `/`-separated); `None` when its `..` climb above the site's root.
fn joined(folder: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            ".." => {
                parts.pop()?;
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// The address on the web of a file the site serves that a post links to
/// (`/slides/talk.pdf`, `{{ site.baseurl }}/files/a.zip`, `files/a.pdf`
/// beside the post): the site's address `base_url` with the link's path.
/// `None` for a link that leaves the site, one with no file name (a page
/// of the site that is no post: the book cannot hold it either), or when
/// the site has no address.
pub(crate) fn on_site(dest: &str, base_url: Option<&str>, own: Option<&str>) -> Option<String> {
    let base_url = base_url?;
    let base = Base::parse(base_url);
    let dest = dest.trim();
    if dest.starts_with("//") || dest.contains("://") || dest.starts_with('#') {
        return None;
    }
    let (path, rest) = match dest.find(['#', '?']) {
        Some(at) => dest.split_at(at),
        None => (dest, ""),
    };
    let last = path.rsplit('/').next().unwrap_or_default();
    if !last.contains('.') || last.ends_with(".md") || last.ends_with(".html") {
        return None;
    }
    let path = if path.starts_with('/') {
        path.to_string()
    } else if path.contains(':') {
        return None;
    } else {
        // Beside the post: in its folder (`/post/` or `/2020/post.html`).
        let own = own?;
        let own = match own.split_once("://") {
            Some((_, rest)) => rest.find('/').map_or("/", |at| &rest[at..]),
            None => own,
        };
        joined(&own[..own.rfind('/').map_or(0, |at| at + 1)], path)?
    };
    // The site's own path (`/blog`) is added unless the link has it.
    let under =
        base.path.is_empty() || path == base.path || path.starts_with(&format!("{}/", base.path));
    let path = if under {
        path
    } else {
        format!("{}{path}", base.path)
    };
    let scheme = base_url.split_once("://").map_or("https", |(s, _)| s);
    let host = base_url
        .split_once("://")
        .map_or(base_url, |(_, r)| r)
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or_default();
    Some(format!("{scheme}://{host}{path}{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_normalised() {
        let base = Base::parse("https://example.org/blog/");
        let n = |u: &str| normalize(u, Some(&base), Some("/posts/a/"));
        assert_eq!(
            n("https://www.example.org/blog/posts/x/").as_deref(),
            Some("/posts/x")
        );
        assert_eq!(n("/blog/posts/x/index.html").as_deref(), Some("/posts/x"));
        assert_eq!(n("/posts/X.html#top").as_deref(), Some("/posts/x"));
        assert_eq!(n("../b/").as_deref(), Some("/posts/b"));
        assert_eq!(n("https://other.org/posts/x/"), None);
        assert_eq!(n("mailto:a@b.c"), None);
        assert_eq!(n("#here"), None);
    }

    #[test]
    fn a_file_the_site_serves_gets_its_address_on_the_web() {
        let base = Some("https://example.org/blog/");
        let own = Some("/blog/2020/01/01/post.html");
        let at = |dest: &str| on_site(dest, base, own);
        assert_eq!(
            at("/slides/talk.pdf").as_deref(),
            Some("https://example.org/blog/slides/talk.pdf")
        );
        assert_eq!(
            at("/blog/files/a.zip#x").as_deref(),
            Some("https://example.org/blog/files/a.zip#x")
        );
        assert_eq!(
            at("notes.pdf").as_deref(),
            Some("https://example.org/blog/2020/01/01/notes.pdf")
        );
        assert_eq!(at("/about/"), None, "a page, not a file");
        assert_eq!(at("https://other.org/a.pdf"), None);
        assert_eq!(at("//cdn.org/a.pdf"), None);
        assert_eq!(on_site("/a.pdf", None, own), None, "no address to give");
    }
}
