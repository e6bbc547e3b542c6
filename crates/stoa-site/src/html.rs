//! The download page: one static HTML file with inline CSS and a language switch.
//!
//! The markup is also well-formed XML (every element closed, no named entities
//! beyond XML's, nothing in the script or style that XML would misread), so tests
//! and tools can parse it with an XML parser.

use std::fmt::Write;

use crate::escape::{href as url, text as esc};
use crate::files::{Cover, FileInfo};
use crate::i18n::{self, Ui};
use crate::{Edition, OPDS_XML, opds_file_name};

/// The media type of an OPDS acquisition feed, for the autodiscovery link.
const OPDS_TYPE: &str = "application/atom+xml;profile=opds-catalog;kind=acquisition";

/// The whole page.
pub fn render(editions: &[Edition], langs: &[String]) -> String {
    let default = langs.first().map_or("en", String::as_str);
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<!DOCTYPE html>\n");
    let _ = writeln!(out, "<html lang=\"{}\"{}>", esc(default), dir_attr(default));
    head(&mut out, editions, langs, default);
    out.push_str("<body>\n");
    // Empty anchors at the very top are the switch's targets: following `#en`
    // scrolls to the top instead of jumping past the header.
    for lang in langs {
        let _ = writeln!(
            out,
            "<span class=\"lang-anchor\" id=\"{}\"></span>",
            esc(lang)
        );
    }
    per_language(&mut out, langs, |out, lang, ui| {
        let _ = write!(
            out,
            "<a class=\"skip\" href=\"#main\" {}>{}</a>",
            lang_attrs(lang),
            esc(ui.skip)
        );
    });
    site_header(&mut out, editions, langs);
    out.push_str("<main id=\"main\" class=\"wrap\">\n");
    for lang in langs {
        language_section(&mut out, editions, lang);
    }
    if langs.is_empty() {
        let _ = writeln!(
            out,
            "<h1>{}</h1>\n<p class=\"lede\">{}</p>",
            esc(i18n::ui("en").heading),
            esc(i18n::ui("en").empty)
        );
    }
    out.push_str("</main>\n");
    site_footer(&mut out, langs);
    script(&mut out, langs);
    out.push_str("</body>\n</html>\n");
    out
}

fn head(out: &mut String, editions: &[Edition], langs: &[String], default: &str) {
    let ui = i18n::ui(default);
    let mut headings: Vec<&str> = langs.iter().map(|l| i18n::ui(l).heading).collect();
    headings.dedup();
    let mut title = headings.join(" · ");
    if let Some(author) = common_author(editions) {
        let _ = write!(title, " — {author}");
    }
    out.push_str("<head>\n<meta charset=\"utf-8\"/>\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\"/>\n");
    let _ = writeln!(
        out,
        "<meta name=\"description\" content=\"{}\"/>",
        esc(ui.lede)
    );
    let _ = writeln!(out, "<title>{}</title>", esc(&title));
    let _ = writeln!(
        out,
        "<link rel=\"alternate\" type=\"{OPDS_TYPE}\" href=\"{OPDS_XML}\" title=\"OPDS\"/>"
    );
    let _ = writeln!(
        out,
        "<style>\n{}{}</style>\n</head>",
        STYLE,
        switch_style(langs)
    );
}

/// The author's name when every edition has the same one: it names the site.
fn common_author<'a>(editions: &'a [Edition]) -> Option<&'a str> {
    let first = editions.first()?.entry.author.as_str();
    editions
        .iter()
        .all(|e| e.entry.author == first)
        .then_some(first)
}

/// Rules that show one language at a time. `:has()` keeps them in CSS, so the
/// switch works without JavaScript; a browser without `:has()` drops the rules
/// and shows every language, which is still a usable page.
fn switch_style(langs: &[String]) -> String {
    let Some(default) = langs.first() else {
        return String::new();
    };
    let mut css = String::new();
    let none = "body:not(:has(.lang-anchor:target))";
    let _ = writeln!(
        css,
        "{none} [data-lang]:not([data-lang=\"{default}\"]) {{ display: none; }}"
    );
    let _ = writeln!(
        css,
        "{none} .switch a[hreflang=\"{default}\"] {{ {CURRENT} }}"
    );
    for lang in langs {
        let chosen = format!("body:has([id=\"{lang}\"]:target)");
        let _ = writeln!(
            css,
            "{chosen} [data-lang]:not([data-lang=\"{lang}\"]) {{ display: none; }}"
        );
        let _ = writeln!(
            css,
            "{chosen} .switch a[hreflang=\"{lang}\"] {{ {CURRENT} }}"
        );
    }
    css
}

/// How the switch marks the language shown.
const CURRENT: &str = "color: var(--fg); font-weight: 700; text-decoration: underline; text-decoration-thickness: 2px; text-underline-offset: 0.4em;";

/// Writes one element per language, each shown only with its language.
fn per_language(out: &mut String, langs: &[String], mut write: impl FnMut(&mut String, &str, &Ui)) {
    for lang in langs {
        write(out, lang, i18n::ui(lang));
        out.push('\n');
    }
}

fn lang_attrs(lang: &str) -> String {
    format!(
        "lang=\"{0}\" data-lang=\"{0}\"{1}",
        esc(lang),
        dir_attr(lang)
    )
}

/// ` dir="rtl"` for a language written right to left (its part of the page
/// runs that way), nothing otherwise: left to right is the default.
fn dir_attr(lang: &str) -> &'static str {
    if stoa_locale::is_rtl(lang) {
        " dir=\"rtl\""
    } else {
        ""
    }
}

fn site_header(out: &mut String, editions: &[Edition], langs: &[String]) {
    out.push_str("<header class=\"site\">\n<div class=\"wrap bar\">\n");
    match common_author(editions) {
        Some(author) => {
            let _ = writeln!(out, "<p class=\"brand\">{}</p>", esc(author));
        }
        None => out.push_str("<p class=\"brand\"></p>\n"),
    }
    if langs.len() > 1 {
        language_switch(out, langs);
    }
    out.push_str("</div>\n</header>\n");
}

/// "PT | EN": plain links to the anchors, so they work with the keyboard and without scripts.
fn language_switch(out: &mut String, langs: &[String]) {
    let label: Vec<String> = langs.iter().map(|l| i18n::language_name(l)).collect();
    let _ = writeln!(
        out,
        "<nav class=\"switch\" aria-label=\"{}\">",
        esc(&label.join(" / "))
    );
    for (i, lang) in langs.iter().enumerate() {
        if i > 0 {
            out.push_str("<span class=\"sep\" aria-hidden=\"true\">|</span>\n");
        }
        let _ = writeln!(
            out,
            "<a href=\"#{0}\" hreflang=\"{0}\" lang=\"{0}\" title=\"{1}\"><span class=\"vh\">{1} </span><span aria-hidden=\"true\">{2}</span></a>",
            esc(lang),
            esc(&i18n::language_name(lang)),
            esc(&i18n::switch_label(lang, langs)),
        );
    }
    out.push_str("</nav>\n");
}

fn language_section(out: &mut String, editions: &[Edition], lang: &str) {
    let ui = i18n::ui(lang);
    let heading_id = format!("heading-{}", id_part(lang));
    let _ = writeln!(
        out,
        "<section {} aria-labelledby=\"{}\">",
        lang_attrs(lang),
        esc(&heading_id)
    );
    let _ = writeln!(
        out,
        "<h1 id=\"{}\">{}</h1>",
        esc(&heading_id),
        esc(ui.heading)
    );
    let _ = writeln!(out, "<p class=\"lede\">{}</p>", esc(ui.lede));
    for edition in editions.iter().filter(|e| e.entry.lang == lang) {
        book(out, edition, ui);
    }
    out.push_str("</section>\n");
}

fn book(out: &mut String, edition: &Edition, ui: &Ui) {
    let e = edition.entry;
    let id = format!("book-{}-{}", id_part(&e.book), id_part(&e.lang));
    let _ = writeln!(
        out,
        "<article class=\"book\" id=\"{0}\" aria-labelledby=\"{0}-title\">",
        esc(&id)
    );
    cover(
        out,
        edition.cover.as_ref(),
        edition.cover_2x.as_ref(),
        &e.title,
        ui,
    );
    let _ = writeln!(
        out,
        "<div class=\"head\">\n<h2 id=\"{}-title\">{}</h2>",
        esc(&id),
        esc(&e.title)
    );
    if let Some(subtitle) = &e.subtitle {
        let _ = writeln!(out, "<p class=\"subtitle\">{}</p>", esc(subtitle));
    }
    // How complete the edition is, when the book lists its posts: the
    // reader of a translation sees what it leaves out.
    let completeness = if e.book_posts > 0 {
        format!(
            " · <span class=\"completeness\">{}</span>",
            esc(&ui.completeness(&e.lang, e.posts, e.book_posts))
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "<p class=\"byline\">{} · {} <time datetime=\"{}\">{}</time>{completeness}</p>\n</div>",
        esc(&e.author),
        esc(ui.published),
        esc(&e.date),
        esc(&i18n::format_date(&e.date, &e.lang)),
    );
    if let Some(description) = &e.description {
        let _ = writeln!(out, "<p class=\"description\">{}</p>", esc(description));
    }
    let _ = writeln!(out, "<ul class=\"files\" aria-label=\"{}\">", esc(ui.files));
    for file in &edition.files {
        // The page count belongs to the PDF: the EPUB reflows.
        let pages = e.pages.filter(|_| file.format.paged);
        download(out, file, &e.title, &e.lang, pages, ui);
    }
    if let Some(web) = &edition.web {
        read_online(out, web, &e.title, ui);
    }
    out.push_str("</ul>\n");
    if !e.contents.is_empty() || !edition.files.is_empty() {
        out.push_str("<div class=\"more\">\n");
        contents(out, e);
        checksums(out, &edition.files, ui);
        out.push_str("</div>\n");
    }
    out.push_str("</article>\n");
}

/// The edition's chapters, folded: a reader who wants to know what is in
/// the book opens it; the others scroll past one line.
fn contents(out: &mut String, entry: &crate::SiteEntry) {
    let titles = &entry.contents;
    if titles.is_empty() {
        return;
    }
    let label = entry
        .contents_label
        .as_deref()
        .unwrap_or(stoa_locale::locale_or_english(&entry.lang).book.contents);
    let _ = writeln!(
        out,
        "<details class=\"contents\">\n<summary>{} <span class=\"count\">({})</span></summary>\n<ol>",
        esc(label),
        titles.len()
    );
    // Each part's chapters nest under its title, as in the book.
    let mut parts = entry.parts.iter().peekable();
    let mut part_end = None;
    for (i, title) in titles.iter().enumerate() {
        if part_end == Some(i) {
            out.push_str("</ol></li>\n");
            part_end = None;
        }
        while let Some(part) = parts.next_if(|p| p.start <= i) {
            if part.start == i && part.len > 0 {
                let _ = writeln!(
                    out,
                    "<li class=\"part\"><span class=\"part-title\">{}</span><ol>",
                    esc(&part.title)
                );
                part_end = Some(i + part.len);
                break;
            }
        }
        let _ = writeln!(out, "<li>{}</li>", esc(title));
    }
    if part_end.is_some() {
        out.push_str("</ol></li>\n");
    }
    out.push_str("</ol>\n</details>\n");
}

/// The files' SHA-256 sums, folded away: they are for the few who verify a
/// download, who find them, with the command, one click away.
fn checksums(out: &mut String, files: &[FileInfo], ui: &Ui) {
    if files.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<details class=\"sums\">\n<summary>{}</summary>\n<p>{} <code>sha256sum {}</code>.</p>\n<ul>",
        esc(ui.checksums),
        // Keeps "SHA-256" from breaking at its hyphen on a phone.
        esc(ui.verify).replace("SHA-256", "<span class=\"nowrap\">SHA-256</span>"),
        esc(ui.file_word),
    );
    for file in files {
        let _ = writeln!(
            out,
            "<li class=\"sum\" data-href=\"{}\"><span class=\"sum-file\">{}</span> <code class=\"sha256\">{}</code></li>",
            esc(&file.href),
            esc(&file.name),
            esc(&file.sha256),
        );
    }
    out.push_str("</ul>\n</details>\n");
}

fn cover(out: &mut String, cover: Option<&Cover>, cover_2x: Option<&Cover>, title: &str, ui: &Ui) {
    let Some(cover) = cover else {
        // Keeps the layout of a book without a cover the same as the others.
        let _ = writeln!(
            out,
            "<div class=\"cover placeholder\" aria-hidden=\"true\">{}</div>",
            esc(title)
        );
        return;
    };
    let size = cover.size.map_or(String::new(), |(w, h)| {
        format!(" width=\"{w}\" height=\"{h}\"")
    });
    // High-density screens take the sharper image; the box keeps the
    // thumbnail's size, so the layout is the same either way.
    let srcset = cover_2x.map_or(String::new(), |big| {
        format!(" srcset=\"{} 1x, {} 2x\"", esc(&cover.href), esc(&big.href))
    });
    let _ = writeln!(
        out,
        "<img class=\"cover\" src=\"{}\"{srcset} alt=\"{} {}\"{size} loading=\"lazy\" decoding=\"async\"/>",
        esc(&cover.href),
        esc(ui.cover_of),
        esc(title),
    );
}

fn download(
    out: &mut String,
    file: &FileInfo,
    title: &str,
    lang: &str,
    pages: Option<usize>,
    ui: &Ui,
) {
    let mut facts = i18n::format_size(file.size, lang);
    if let Some(pages) = pages {
        let _ = write!(facts, " · {}", ui.page_count(lang, pages));
    }
    // The hidden title makes "Download EPUB" unambiguous in a screen reader's list of links.
    let _ = writeln!(
        out,
        "<li class=\"file\">\n<a class=\"download\" href=\"{}\" type=\"{}\">{} {}<span class=\"vh\"> — {}</span></a>\n<span class=\"size\">{}</span>\n</li>",
        esc(&file.href),
        esc(file.format.media_type),
        esc(ui.download),
        esc(file.format.label),
        esc(title),
        esc(&facts),
    );
}

/// The link to the web edition, beside the downloads.
fn read_online(out: &mut String, href: &str, title: &str, ui: &Ui) {
    let _ = writeln!(
        out,
        "<li class=\"file web\">\n<a class=\"download read\" href=\"{}\">{}<span class=\"vh\"> — {}</span></a>\n</li>",
        esc(href),
        esc(ui.read_online),
        esc(title),
    );
}

fn site_footer(out: &mut String, langs: &[String]) {
    out.push_str("<footer class=\"site\">\n<div class=\"wrap\">\n");
    per_language(out, langs, |out, lang, ui| {
        let _ = write!(
            out,
            "<p {attrs}>{intro} <a class=\"opds\" href=\"{OPDS_XML}\" type=\"{OPDS_TYPE}\">{OPDS_XML}</a>{or} <a class=\"opds\" href=\"{own}\" type=\"{OPDS_TYPE}\">{own}</a> {only}</p>",
            attrs = lang_attrs(lang),
            intro = esc(ui.catalog),
            or = esc(ui.catalog_or),
            own = esc(&url(&opds_file_name(lang))),
            only = esc(ui.catalog_lang),
        );
    });
    out.push_str("</div>\n</footer>\n");
}

/// The optional part of the switch: picks the reader's language on a first visit,
/// keeps `<html lang>` and `aria-current` in step, and shows the catalog's full URL
/// when the page is served over HTTP (what a reading app needs typed in). Written
/// without `<` or `&` so the page stays well-formed XML.
fn script(out: &mut String, langs: &[String]) {
    let list: Vec<String> = langs.iter().map(|l| format!("\"{}\"", esc(l))).collect();
    let _ = writeln!(
        out,
        "<script>\nvar stoaLangs = [{}];\n{}</script>",
        list.join(", "),
        SCRIPT
    );
}

const SCRIPT: &str = r##"(function () {
  var langs = stoaLangs;
  if (!langs.length) return;
  function primary(tag) { return String(tag).toLowerCase().split("-")[0]; }
  function current() {
    var hash = decodeURIComponent(location.hash.slice(1));
    return langs.indexOf(hash) === -1 ? null : hash;
  }
  if (!location.hash) {
    var wanted = navigator.languages || [navigator.language || ""];
    wanted.some(function (tag) {
      var match = langs.filter(function (l) { return l === tag || primary(l) === primary(tag); })[0];
      if (match) { if (match !== langs[0]) location.replace("#" + match); return true; }
      return false;
    });
  }
  function sync() {
    var lang = current() || langs[0];
    document.documentElement.lang = lang;
    var part = document.querySelector("[data-lang=\"" + lang + "\"]");
    document.documentElement.dir = (part ? part.dir : "") || "ltr";
    document.querySelectorAll(".switch a").forEach(function (a) {
      a.setAttribute("aria-current", a.getAttribute("hreflang") === lang ? "true" : "false");
    });
  }
  if (/^https?:$/.test(location.protocol)) {
    document.querySelectorAll("a.opds").forEach(function (a) { a.textContent = a.href; });
  }
  addEventListener("hashchange", sync);
  sync();
})();
"##;

/// A fragment of an id: letters, digits, `-` and `_`; anything else becomes `-`.
fn id_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// The page's look: quiet book typography, system fonts only, light and dark.
const STYLE: &str = r##":root {
  color-scheme: light dark;
  --bg: #f7f4ee; --fg: #1e1b18; --muted: #5b554c; --rule: #ddd5c8; --card: #fffdf9;
  --accent: #8a2f1c; --accent-fg: #ffffff; --focus: #1a56db;
  --serif: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "Noto Serif", "DejaVu Serif", serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #171614; --fg: #ece7df; --muted: #b5ada0; --rule: #3a3631; --card: #24211e;
    --accent: #f0a07a; --accent-fg: #1b1310; --focus: #8ab4ff;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
}
.wrap { max-width: 60rem; margin: 0 auto; padding: 0 1.25rem; }
a { color: inherit; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; border-radius: 2px; }
.vh {
  position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap;
}
.skip { position: absolute; left: -100vw; top: 0.75rem; }
.skip:focus { left: 1rem; z-index: 1; padding: 0.5rem 1rem; background: var(--card); border: 1px solid var(--rule); }
.site { border-color: var(--rule); }
header.site { border-bottom: 1px solid var(--rule); }
.bar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; min-height: 3.5rem; }
.brand { margin: 0; font-family: var(--serif); font-size: 1.05rem; letter-spacing: 0.01em; }
.switch { display: flex; align-items: center; font-size: 0.9rem; letter-spacing: 0.08em; }
.switch a {
  display: inline-flex; align-items: center; justify-content: center;
  min-width: 2.75rem; min-height: 2.75rem; padding: 0 0.5rem;
  color: var(--muted); text-decoration: none;
}
.switch a:hover { color: var(--fg); text-decoration: underline; }
.sep { color: var(--rule); }
h1 {
  font-family: var(--serif); font-weight: 400; line-height: 1.1;
  font-size: clamp(2.1rem, 7vw, 3rem); margin: 2.25rem 0 0.6rem;
}
.lede { color: var(--muted); max-width: 36rem; margin: 0 0 2rem; }
.book {
  display: grid; grid-template-columns: 6.5rem minmax(0, 1fr);
  grid-template-areas: "cover head" "text text" "files files" "more more";
  gap: 1.1rem 1.25rem; padding: 2rem 0; border-top: 1px solid var(--rule);
}
.cover {
  grid-area: cover; display: block; width: 100%; height: auto;
  border-radius: 2px; background: var(--card);
  box-shadow: 0 1px 2px rgb(0 0 0 / 0.2), 0 8px 20px -6px rgb(0 0 0 / 0.25);
}
.placeholder {
  display: flex; align-items: center; justify-content: center; aspect-ratio: 2 / 3; padding: 0.75rem; overflow: hidden;
  font-family: var(--serif); font-size: 0.9rem; line-height: 1.25; text-align: center; color: var(--muted);
  border: 1px solid var(--rule);
}
@media (min-width: 42rem) { .placeholder { font-size: 1.1rem; padding: 1.25rem; } }
.head { grid-area: head; align-self: center; }
.head h2 { font-family: var(--serif); font-weight: 400; font-size: 1.55rem; line-height: 1.15; margin: 0; text-wrap: balance; }
.subtitle { font-family: var(--serif); font-style: italic; font-size: 1.1rem; color: var(--muted); margin: 0.3rem 0 0; text-wrap: balance; }
.byline { font-size: 0.875rem; color: var(--muted); margin: 0.6rem 0 0; }
.description { grid-area: text; margin: 0; max-width: 38rem; hyphens: auto; -webkit-hyphens: auto; }
.files { grid-area: files; list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; max-width: 38rem; }
.file { display: flex; flex-wrap: wrap; align-items: center; gap: 0.35rem 0.9rem; }
.download {
  display: inline-flex; align-items: center; min-height: 2.75rem; padding: 0.5rem 1.1rem;
  border-radius: 0.375rem; background: var(--accent); color: var(--accent-fg);
  font-weight: 600; text-decoration: none;
}
.download:hover { text-decoration: underline; text-underline-offset: 0.2em; }
.size { color: var(--muted); font-size: 0.9rem; font-variant-numeric: tabular-nums; }
.more { grid-area: more; max-width: 38rem; font-size: 0.9rem; }
details { border-top: 1px solid var(--rule); }
details:last-child { border-bottom: 1px solid var(--rule); }
summary { padding: 0.7rem 0; cursor: pointer; color: var(--muted); }
summary:hover { color: var(--fg); }
.count { font-variant-numeric: tabular-nums; }
.contents ol { list-style: none; margin: 0 0 1rem; padding-left: 1.4em; font-family: var(--serif); font-size: 1rem; line-height: 1.45; }
/* Titles break in balanced lines, as in the books (no word left alone). */
.contents li { padding-left: 1em; text-indent: -1em; text-wrap: balance; }
.contents li + li { margin-top: 0.2rem; }
/* A part: its title in small capitals, its chapters under it. */
.contents li.part { padding-left: 0; text-indent: 0; margin-top: 0.6rem; }
.contents .part-title { font-variant: small-caps; letter-spacing: 0.05em; color: var(--muted); }
.contents li.part ol { margin: 0.2rem 0 0; padding-left: 1em; }
.contents li.part + li:not(.part) { margin-top: 0.8rem; }
.sums p { margin: 0 0 0.6rem; color: var(--muted); }
.sums ul { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; gap: 0.5rem; }
.sum { font-size: 0.8rem; line-height: 1.4; }
.sum-file { display: block; font-weight: 600; }
.nowrap { white-space: nowrap; }
.sum code, .sums p code, footer code {
  font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
  font-size: 0.95em;
}
.sum code { overflow-wrap: anywhere; word-break: break-all; color: var(--muted); }
footer.site { border-top: 1px solid var(--rule); margin-top: 1rem; padding: 1.5rem 0 3rem; font-size: 0.875rem; color: var(--muted); }
footer p { margin: 0 0 0.6rem; max-width: 44rem; }
footer a { color: var(--fg); overflow-wrap: anywhere; }
@media (min-width: 42rem) {
  .wrap { padding: 0 2rem; }
  .book {
    grid-template-columns: 11rem minmax(0, 1fr); grid-template-rows: auto auto auto 1fr;
    grid-template-areas: "cover head" "cover text" "cover files" "cover more"; column-gap: 2.25rem; row-gap: 1rem;
  }
  .head { align-self: start; }
}
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SiteEntry;
    use crate::files::FileKind;

    fn entry(book: &str, lang: &str, title: &str) -> SiteEntry {
        SiteEntry {
            book: book.into(),
            lang: lang.into(),
            title: title.into(),
            subtitle: None,
            author: "A <b>".into(),
            description: Some("x & y".into()),
            identifier: format!("urn:uuid:{book}-{lang}"),
            date: "2026-01-02".into(),
            modified: "2026-01-02T00:00:00Z".into(),
            cover: None,
            cover_2x: None,
            files: vec![],
            web: None,
            pages: Some(96),
            contents: vec!["One & two".into(), "Three".into()],
            contents_label: None,
            parts: Vec::new(),
            posts: 14,
            book_posts: 15,
        }
    }

    fn edition(entry: &SiteEntry) -> Edition<'_> {
        let format = FileKind {
            extension: "epub",
            label: "EPUB",
            media_type: "application/epub+zip",
            paged: false,
        };
        let file = FileInfo {
            href: "a%20b.epub".into(),
            name: "a b.epub".into(),
            format,
            rank: 0,
            size: 1500,
            sha256: "ab".repeat(32),
        };
        Edition {
            entry,
            cover: None,
            cover_2x: None,
            files: vec![file],
            web: Some("b/en/index.html".into()),
        }
    }

    #[test]
    fn every_text_is_escaped() {
        let e = entry("b", "en", "<script>alert(1)</script>");
        let page = render(&[edition(&e)], &["en".into()]);
        assert!(!page.contains("<script>alert"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("A &lt;b&gt;"));
        assert!(page.contains("x &amp; y"));
        assert!(page.contains("href=\"a%20b.epub\""));
    }

    #[test]
    fn each_edition_says_how_complete_it_is() {
        let (pt, en) = (entry("b", "pt-BR", "Livro"), entry("b", "en", "Book"));
        let page = render(
            &[edition(&pt), edition(&en)],
            &["pt-BR".into(), "en".into()],
        );
        assert!(page.contains("<span class=\"completeness\">14 de 15 textos</span>"));
        assert!(page.contains("<span class=\"completeness\">14 of 15 posts</span>"));
        let catalog = crate::opds::render(&[edition(&en)], &["en".into()], None);
        assert!(catalog.contains("<content type=\"text\">14 of 15 posts</content>"));
    }

    #[test]
    fn sections_follow_the_language_order() {
        let (pt, en) = (entry("b", "pt-BR", "Livro"), entry("b", "en", "Book"));
        let page = render(
            &[edition(&pt), edition(&en)],
            &["pt-BR".into(), "en".into()],
        );
        let pt_at = page.find("<h1 id=\"heading-pt-BR\"").unwrap();
        let en_at = page.find("<h1 id=\"heading-en\"").unwrap();
        assert!(pt_at < en_at);
        assert!(page.contains("<html lang=\"pt-BR\">"));
        assert!(page.contains("Baixar EPUB") && page.contains("Download EPUB"));
        assert!(page.contains("1,5 kB") && page.contains("1.5 kB"));
    }

    #[test]
    fn checksums_and_contents_are_folded_and_pages_go_with_the_pdf() {
        let e = entry("b", "en", "Book");
        let mut ed = edition(&e);
        let mut pdf = ed.files[0].clone();
        pdf.format = FileKind {
            extension: "pdf",
            label: "PDF",
            media_type: "application/pdf",
            paged: true,
        };
        pdf.rank = 1;
        pdf.href = "b.pdf".into();
        ed.files.push(pdf);
        let page = render(&[ed], &["en".into()]);
        // One count, beside the PDF only.
        assert_eq!(page.matches("96 pages").count(), 1);
        assert!(page.contains("<span class=\"size\">1.5 kB · 96 pages</span>"));
        assert!(page.contains("<span class=\"size\">1.5 kB</span>"));
        // Every sum is inside the folded list, none beside a button.
        let sums = page.find("<details class=\"sums\">").unwrap();
        let first_sum = page.find("class=\"sha256\"").unwrap();
        assert!(sums < first_sum);
        assert_eq!(page.matches("class=\"sha256\"").count(), 2);
        assert!(page.contains("<span class=\"sum-file\">a b.epub</span>"));
        assert!(page.contains("<li>One &amp; two</li>\n<li>Three</li>"));
        assert!(page.contains("Contents <span class=\"count\">(2)</span>"));
    }

    #[test]
    fn the_contents_nest_each_part_s_chapters_under_its_title() {
        let mut e = entry("b", "en", "Book");
        e.contents = ["A", "B", "C", "D", "Glossary"].map(String::from).to_vec();
        e.parts = vec![
            crate::ContentsPart {
                title: "Essays & notes".into(),
                start: 0,
                len: 2,
            },
            crate::ContentsPart {
                title: "Thoughts".into(),
                start: 2,
                len: 2,
            },
        ];
        let page = render(&[edition(&e)], &["en".into()]);
        let want = "<ol>\n\
            <li class=\"part\"><span class=\"part-title\">Essays &amp; notes</span><ol>\n\
            <li>A</li>\n<li>B</li>\n</ol></li>\n\
            <li class=\"part\"><span class=\"part-title\">Thoughts</span><ol>\n\
            <li>C</li>\n<li>D</li>\n</ol></li>\n\
            <li>Glossary</li>\n</ol>";
        assert!(page.contains(want), "{page}");
        // A part that ends the contents closes its list too.
        e.contents.pop();
        let page = render(&[edition(&e)], &["en".into()]);
        assert!(
            page.contains("<li>D</li>\n</ol></li>\n</ol>\n</details>"),
            "{page}"
        );
    }

    #[test]
    fn the_cover_offers_its_sharper_version() {
        let e = entry("b", "en", "Book");
        let mut ed = edition(&e);
        let cover = |href: &str, w| Cover {
            href: href.into(),
            media_type: "image/png",
            size: Some((w, w * 3 / 2)),
        };
        ed.cover = Some(cover("c.png", 300));
        ed.cover_2x = Some(cover("c-2x.png", 600));
        let page = render(&[ed], &["en".into()]);
        assert!(page.contains(
            "src=\"c.png\" srcset=\"c.png 1x, c-2x.png 2x\" alt=\"Cover of Book\" width=\"300\" height=\"450\""
        ));
    }

    #[test]
    fn script_and_style_stay_well_formed_xml() {
        assert!(!SCRIPT.contains('<') && !SCRIPT.contains('&'));
        assert!(!STYLE.contains('<') && !STYLE.contains('&'));
    }
}
