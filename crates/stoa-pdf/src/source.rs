//! The generated Typst main file: calls into the theme's functions whose
//! arguments are string literals, numbers and content built from them.
//!
//! Inline content is written as markup made only of `#` expressions with no
//! text between them (`[#"Hello "#emph[#"world"]]`), so nothing from the book
//! is ever read as markup.
//!
//! Nothing here decides what the book means: note numbers and places come
//! from the [`NotesPlan`], link targets from the [`IdIndex`], dates from the
//! locale table, and containers reach the theme with their [`Role`].

mod layout;
mod notes;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::ops::Range;

use stoa_doc::escape::{push_typst_string, typst_string};
use stoa_doc::{
    Align, Block, Book, Chapter, ChapterKind, ChapterNotes, Diagnostic, FnVisitor, IdIndex, Inline,
    LinkTarget, ListItem, NotesPlan, Role, Walk, for_each_block, visit,
};
use stoa_locale::parse_date;

use crate::pages::{PAGE_MARK, PageTraces};

/// What the main file should lay out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parts {
    /// The whole book.
    Book,
    /// Only the cover page, for the EPUB's cover image.
    Cover,
}

/// The generated main file and what it takes to explain errors in it.
pub(crate) struct Generated {
    pub parts: Parts,
    pub source: String,
    /// 1-based line ranges of plugin style code, with the plugin's name.
    pub styles: Vec<(Range<usize>, String)>,
    pub warnings: Vec<Diagnostic>,
    /// The literals that hold the text of marked blocks, for tracing a
    /// page's first word back to its block (`pages.rs`).
    pub runs: PageTraces,
}

/// The virtual path under which the World serves the book's `index`-th asset.
/// Names from the book never become paths: an index cannot climb out of `/assets/`.
pub(crate) fn asset_vpath(index: usize, name: &str) -> String {
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    // A raster image's kind is told by Typst from its bytes: the file read
    // may be one the image step made in another format (a WebP given as
    // JPEG), or, in a check, the WebP a JPEG's name stands for. A drawing
    // keeps its extension: an SVG is text, told by its name.
    if ext.eq_ignore_ascii_case("svg") {
        format!("/assets/{index}.svg")
    } else {
        format!("/assets/{index}")
    }
}

/// The virtual path under which the World serves the author's cover image
/// (`[cover] image`): beside the assets, under a name no index takes.
pub(crate) fn cover_vpath(path: &str) -> String {
    asset_vpath(0, path).replacen("/assets/0", "/assets/cover", 1)
}

/// Splits a BCP 47 tag into the ISO 639 language and ISO 3166 region Typst
/// wants (`pt-BR` → `pt`, `BR`); unknown shapes fall back to English.
pub(crate) fn lang_region(tag: &str) -> (String, Option<String>) {
    let mut subtags = tag.split(['-', '_']);
    let lang = subtags.next().unwrap_or("").to_ascii_lowercase();
    let lang = if (2..=3).contains(&lang.len()) && lang.chars().all(|c| c.is_ascii_alphabetic()) {
        lang
    } else {
        "en".to_owned()
    };
    let region = subtags
        .find(|s| s.len() == 2 && s.chars().all(|c| c.is_ascii_alphabetic()))
        .map(str::to_ascii_uppercase);
    (lang, region)
}

/// Writes the main file for `book`, whose notes `notes` planned and whose
/// ids `ids` indexed (both of this very book: chapters are looked up by index).
pub(crate) fn generate(book: &Book, notes: &NotesPlan, ids: &IdIndex, parts: Parts) -> Generated {
    generate_with(book, notes, ids, parts, stoa_render::Layout::empty())
}

/// [`generate`], with the book's parts and openings.
pub(crate) fn generate_with(
    book: &Book,
    notes: &NotesPlan,
    ids: &IdIndex,
    parts: Parts,
    layout: &stoa_render::Layout,
) -> Generated {
    let mut flattened = Vec::new();
    let chapters: Vec<Cow<Chapter>> = book
        .chapters
        .iter()
        .map(|chapter| match crate::depth::flatten_chapter(chapter) {
            Some((flat, warning)) => {
                flattened.push(warning);
                Cow::Owned(flat)
            }
            None => Cow::Borrowed(chapter),
        })
        .collect();
    let mut g = Gen {
        out: String::new(),
        assets: book
            .assets
            .iter()
            .enumerate()
            .map(|(i, a)| (a.name.as_str(), asset_vpath(i, &a.name)))
            .collect(),
        warnings: Vec::new(),
        styles: Vec::new(),
        notes,
        ids,
        lang: &book.lang,
        targets: chapters
            .iter()
            .enumerate()
            .map(|(i, c)| Target::of(c, i))
            .collect(),
        anchored: HashSet::new(),
        first_refs: vec![HashSet::new(); chapters.len()],
        runs: PageTraces::default(),
        layout: layout::Plan::of(layout, &book.chapters),
        short_titles: layout.short_titles.clone(),
        qr_codes: book.print.qr_codes,
    };
    g.out
        .push_str("// Generated by stoa. Every text from the book is a string literal.\n");
    g.out.push_str("#import \"/theme/book.typ\": *\n\n");
    g.book_call(book, parts);
    if parts == Parts::Book {
        g.plugin_styles(book);
        for (index, chapter) in chapters.iter().enumerate() {
            g.chapter(chapter, index, &chapters, &book.labels.notes);
        }
    }
    g.warnings.extend(flattened);
    Generated {
        parts,
        source: g.out,
        styles: g.styles,
        warnings: g.warnings,
        runs: g.runs,
    }
}

struct Gen<'a> {
    out: String,
    /// Asset name → virtual path.
    assets: HashMap<&'a str, String>,
    warnings: Vec<Diagnostic>,
    styles: Vec<(Range<usize>, String)>,
    notes: &'a NotesPlan,
    ids: &'a IdIndex,
    /// The book's language tag: which short words a title binds, how a
    /// date is written.
    lang: &'a str,
    /// What a link needs to know of each chapter, by index.
    targets: Vec<Target>,
    /// Labels of div and span ids already written (a label must be unique).
    anchored: HashSet<String>,
    /// By chapter: numbers of the notes whose first reference has been
    /// written (and labelled). Shared by a chapter's text and the notes
    /// chapter, which may print references inside collected notes.
    first_refs: Vec<HashSet<usize>>,
    /// Where the text of each marked block is in the source.
    runs: PageTraces,
    /// Where parts start and how chapters open.
    layout: layout::Plan,
    /// The posts' `short-title`s by slug, for the running heads (a few
    /// strings: copied, not borrowed).
    short_titles: std::collections::BTreeMap<String, String>,
    /// Whether a paragraph that is a web address gets a QR code.
    qr_codes: bool,
}

/// A chapter as the target of links.
struct Target {
    /// The chapter's key, which the theme puts on its title.
    key: String,
    slug: String,
    /// Whether an element of the chapter carries the slug as its id: a
    /// `#slug` link then goes to that element, else to the title.
    slug_is_element: bool,
}

impl Target {
    fn of(chapter: &Chapter, index: usize) -> Self {
        let slug = chapter.slug.as_str();
        let found = Cell::new(false);
        let has_slug = |attrs: &stoa_doc::Attrs| attrs.get("id").is_some_and(|id| id == slug);
        visit(
            &chapter.blocks,
            &mut FnVisitor {
                on_block: |block: &Block| {
                    // Ids inside notes are not link targets (see IdIndex).
                    let hit = match block {
                        Block::FootnoteDef { .. } => return Walk::Skip,
                        Block::Heading { id, .. } => id == slug,
                        Block::Div { attrs, .. } => has_slug(attrs),
                        Block::Paragraph { .. }
                        | Block::List { .. }
                        | Block::Quote { .. }
                        | Block::Code { .. }
                        | Block::Table { .. }
                        | Block::Rule
                        | Block::Raw { .. } => false,
                    };
                    found.set(hit);
                    if hit { Walk::Stop } else { Walk::Continue }
                },
                on_inline: |inline: &Inline| {
                    if let Inline::Span { attrs, .. } = inline
                        && has_slug(attrs)
                    {
                        found.set(true);
                        return Walk::Stop;
                    }
                    Walk::Continue
                },
            },
        );
        Target {
            key: chapter_key(chapter, index),
            slug: chapter.slug.clone(),
            slug_is_element: found.get(),
        }
    }

    /// The label of the element with id `id` in this chapter, or of the
    /// chapter itself for its slug.
    fn label(&self, id: &str) -> String {
        if id == self.slug && !self.slug_is_element {
            self.key.clone()
        } else {
            id_label(&self.key, id)
        }
    }
}

/// The key of a chapter: the prefix of its labels, unique in the book.
fn chapter_key(chapter: &Chapter, index: usize) -> String {
    match chapter.slug.is_empty() {
        true => format!("ch:{index}"),
        false => format!("ch:{}", chapter.slug),
    }
}

/// The label of the element with id `id` in the chapter with key `key`.
fn id_label(key: &str, id: &str) -> String {
    format!("{key}:h:{id}")
}

/// What the writer needs to know about the chapter it is in.
struct ChapterCtx<'c> {
    /// The chapter's index in the book.
    index: usize,
    /// Prefix of every label in the chapter, unique in the book.
    key: String,
    /// Heading ids: a heading carries its own label.
    headings: HashSet<&'c str>,
    /// The chapter's notes, as planned.
    notes: &'c ChapterNotes,
    /// How many lists the writer is inside.
    list_depth: usize,
    /// The block path whose children the next block sequence marks with
    /// [`PAGE_MARK`] metadata: the chapter's top level, and the blocks of a
    /// top-level container (a dialogue's turns, a glossary's entries).
    mark: Option<Vec<usize>>,
    /// Inside a marked block: its index in [`PageTraces`] and the text
    /// position ([`stoa_render::text_len`]) reached; `None` elsewhere
    /// (notes, titles), whose text is not traced.
    text: Option<(usize, usize)>,
    /// How many spans the writer is inside: a link in none is the
    /// author's own, which print follows with its target's page.
    spans: usize,
}

impl<'a> Gen<'a> {
    fn lit(&mut self, text: &str) {
        push_typst_string(&mut self.out, text);
    }

    /// `#show: book.with(...)`: everything the theme needs to know about the book.
    fn book_call(&mut self, book: &Book, parts: Parts) {
        let meta = &book.meta;
        let (lang, region) = lang_region(&book.lang);
        let p = &book.print;
        // The colophon's © year, as the EPUB's: the date's first four characters.
        let year = meta.date.get(..4).unwrap_or(&meta.date);
        let mut args = vec![
            format!("title: {}", typst_string(&meta.title)),
            format!("subtitle: {}", opt_lit(meta.subtitle.as_deref())),
            format!("author: {}", typst_string(&meta.author)),
            format!("date: {}", date_expr(&meta.date)),
            format!("date-text: {}", self.date_text(Some(&meta.date))),
            format!("description: {}", opt_lit(meta.description.as_deref())),
            format!("identifier: {}", typst_string(&meta.identifier)),
            format!("lang: {}", typst_string(&lang)),
            format!("region: {}", opt_lit(region.as_deref())),
            format!("labels: {}", labels_dict(&book.labels)),
            format!("page-width: {}mm", num(p.width_mm)),
            format!("page-height: {}mm", num(p.height_mm)),
            format!("margin-inside: {}mm", num(p.inner_mm)),
            format!("margin-outside: {}mm", num(p.outer_mm)),
            format!("margin-top: {}mm", num(p.top_mm)),
            format!("margin-bottom: {}mm", num(p.bottom_mm)),
            format!("font-size: {}pt", num(p.font_size_pt)),
            format!("cover: {}", cover_dict(&p.cover)),
            format!("year: {}", typst_string(year)),
        ];
        if parts == Parts::Cover {
            args.push("cover-only: true".to_owned());
        }
        // Only when there are some: a theme of an older stoa knows no
        // `cjk-fonts` (Typst's fallback still finds a face for the text).
        let cjk = crate::cjk::families_for(book);
        if !cjk.is_empty() {
            let list: Vec<String> = cjk.iter().map(|f| typst_string(f)).collect();
            args.push(format!("cjk-fonts: ({},)", list.join(", ")));
        }
        // Only when given: a theme of an older stoa knows no `isbn`.
        if let Some(isbn) = &p.isbn {
            args.push(format!("isbn: {}", typst_string(isbn)));
        }
        if stoa_locale::is_rtl(&book.lang) {
            // Set before the theme's rule, so that every page it makes runs
            // right to left too, whatever theme (Typst's `auto` would miss a
            // script subtag such as `az-Arab`).
            self.out.push_str("#set text(dir: rtl)\n");
        }
        self.out.push_str("#show: book.with(\n");
        for arg in args {
            let _ = writeln!(self.out, "  {arg},");
        }
        self.out.push_str(")\n");
        if parts == Parts::Book && parse_date(&meta.date).is_none() {
            self.warnings.push(Diagnostic::warning(format!(
                "the book's date `{}` is not YYYY-MM-DD; the PDF carries no date",
                meta.date
            )));
        }
    }

    /// A date as the book's language writes it (the EPUB and the web
    /// edition print the same words), as a literal; `none` without one.
    fn date_text(&self, date: Option<&str>) -> String {
        let date = date.map(str::trim).filter(|d| !d.is_empty());
        opt_lit(
            date.map(|d| stoa_locale::long_date(self.lang, d))
                .as_deref(),
        )
    }

    /// Plugin code for the PDF, trusted and pasted as is, after the theme so
    /// that it can override the theme's functions and rules.
    fn plugin_styles(&mut self, book: &Book) {
        let pdf = stoa_doc::Format::Pdf.name();
        for style in book.styles.iter().filter(|s| s.format == pdf) {
            self.out.push('\n');
            let start = self.out.lines().count() + 1;
            self.out.push_str(style.code.trim_end());
            self.out.push('\n');
            let end = self.out.lines().count() + 1;
            self.styles.push((start..end, style.origin.clone()));
        }
    }

    /// One chapter: the theme's `chapter` call around its text, its
    /// endnotes and, in the notes chapter, the notes collected there.
    fn chapter(
        &mut self,
        chapter: &Chapter,
        index: usize,
        chapters: &[Cow<Chapter>],
        notes_title: &str,
    ) {
        let mut ctx = self.chapter_ctx(chapter, index);
        self.report_undefined(chapter, ctx.notes);
        let kind = match chapter.kind {
            ChapterKind::Post => "post",
            ChapterKind::About => "about",
            ChapterKind::Appendix => "appendix",
            ChapterKind::Notes => "notes",
        };
        if let Some(part) = self.layout.part_page(index) {
            self.out.push_str(&part);
        }
        self.out.push_str("\n#chapter(kind: ");
        self.lit(kind);
        self.out.push_str(", key: ");
        self.lit(&ctx.key);
        self.out.push_str(", title: ");
        self.lit(&chapter.title);
        self.out.push_str(", display: ");
        self.lit(&crate::titles::printed_title(chapter, self.lang));
        self.out.push_str(", head: ");
        self.out.push_str(&crate::titles::head_array(
            chapter,
            self.short_titles.get(&chapter.slug).map(String::as_str),
            self.lang,
        ));
        let date = chapter.date.as_deref().map(date_expr);
        let _ = write!(self.out, ", date: {}", date.as_deref().unwrap_or("none"));
        let _ = write!(
            self.out,
            ", date-text: {}",
            self.date_text(chapter.date.as_deref())
        );
        let opening = self.layout.opening_arg(index);
        self.out.push_str(&opening);
        self.out.push_str(self.layout.level_arg(index));
        let _ = writeln!(self.out, ", role: {})[", role_lit(chapter.role.as_ref()));
        self.page_mark(index, &[]);
        ctx.mark = Some(Vec::new());
        self.block_seq(&chapter.blocks, &mut ctx);
        self.endnotes(&mut ctx, notes_title);
        if self.notes.collector() == Some(index) {
            self.collected_notes(chapters);
        }
        self.out.push_str("\n]\n");
    }

    fn chapter_ctx<'c>(&self, chapter: &'c Chapter, index: usize) -> ChapterCtx<'c>
    where
        'a: 'c,
    {
        let mut headings = HashSet::new();
        for_each_block(&chapter.blocks, &mut |b| {
            if let Block::Heading { id, .. } = b {
                headings.insert(id.as_str());
            }
        });
        ChapterCtx {
            index,
            key: self.targets[index].key.clone(),
            headings,
            notes: self.notes.chapter(index),
            list_depth: 0,
            mark: None,
            text: None,
            spans: 0,
        }
    }

    /// Warns about references without a definition, which are printed as
    /// written; a chapter with a note style was set up by a plugin, which
    /// has already said so.
    fn report_undefined(&mut self, chapter: &Chapter, notes: &ChapterNotes) {
        if notes.styled {
            return;
        }
        for label in &notes.undefined {
            let mut d = Diagnostic::warning(format!(
                "footnote reference `[^{label}]` has no definition; it is printed as written"
            ));
            if let Some(source) = &chapter.source {
                d = d.in_file(source);
            }
            self.warnings.push(d);
        }
    }

    /// Blocks separated by blank lines (paragraph breaks), footnote
    /// definitions left out: the notes plan places them.
    fn block_seq(&mut self, blocks: &[Block], ctx: &mut ChapterCtx) {
        let marked = ctx.mark.take();
        let mut first = true;
        for (i, block) in blocks.iter().enumerate() {
            if matches!(block, Block::FootnoteDef { .. }) || is_empty_par(block) {
                continue;
            }
            if !first {
                self.out.push_str("\n\n");
            }
            first = false;
            // A lead-in stays on the page of what it introduces; indented
            // as the paragraph it is when one comes before it. Its page
            // mark goes inside, where its text begins.
            let lead_in = crate::titles::is_lead_in(blocks, i);
            if lead_in {
                let after_par = i > 0 && matches!(blocks[i - 1], Block::Paragraph { .. });
                let _ = write!(self.out, "#lead-in(indent: {after_par})[");
            }
            if let Some(parent) = &marked {
                let mut path = parent.clone();
                path.push(i);
                self.page_mark(ctx.index, &path);
                let key = stoa_render::BlockKey::new(ctx.index, &path);
                ctx.text = Some((self.runs.block(key), 0));
                // One level down, inside a top-level container only.
                if parent.is_empty() && matches!(block, Block::Div { .. }) {
                    ctx.mark = Some(path);
                }
            }
            self.block(block, ctx);
            if lead_in {
                self.out.push(']');
            }
            ctx.mark = None;
            if marked.is_some() {
                ctx.text = None;
            }
        }
    }

    /// `#metadata("3/4")#label("stoa-page")`, right before the block it marks (a
    /// paragraph takes it in as its first, invisible, inline), so that its
    /// location is where the block begins.
    fn page_mark(&mut self, chapter: usize, path: &[usize]) {
        let key = stoa_render::BlockKey::new(chapter, path).to_text();
        let _ = write!(self.out, "#metadata(\"{key}\")#label(\"{PAGE_MARK}\")");
    }

    fn block_content(&mut self, blocks: &[Block], ctx: &mut ChapterCtx) {
        self.out.push('[');
        self.block_seq(blocks, ctx);
        self.out.push(']');
    }

    fn block(&mut self, block: &Block, ctx: &mut ChapterCtx) {
        if let Some(drawing) = stoa_diagram::diagram_of(block) {
            self.out.push_str(&crate::diagram::call(&drawing));
            return;
        }
        match block {
            Block::Heading { level, id, content } => self.heading(*level, id, content, ctx),
            Block::Paragraph { content } => self.paragraph(content, ctx),
            Block::List {
                start,
                tight,
                items,
            } => self.list(*start, *tight, items, ctx),
            Block::Quote { blocks } => {
                self.out.push_str("#quote(block: true)");
                self.block_content(blocks, ctx);
            }
            Block::Code { lang, text } => {
                self.out.push_str("#code-block(lang: ");
                self.out
                    .push_str(&opt_lit(lang.as_deref().filter(|l| !l.is_empty())));
                self.out.push_str(", ");
                self.lit(text.strip_suffix('\n').unwrap_or(text));
                self.out.push(')');
            }
            Block::Table { align, head, rows } => self.table(align, head, rows, ctx),
            Block::Rule => self.out.push_str("#section-break()"),
            Block::FootnoteDef { .. } => {}
            Block::Raw { format, payload } => self.raw(format, payload),
            Block::Div {
                role,
                class,
                attrs,
                blocks,
            } => {
                self.container_call("#div(", class, attrs, role.as_ref());
                self.out.push_str(", [");
                self.anchor(attrs, ctx);
                self.block_seq(blocks, ctx);
                self.out.push_str("])");
            }
        }
    }

    /// `#div(class, attrs` or `#span(class, attrs`, the role (if any) in
    /// `attrs` under `stoa:role`, the key the tree's compatibility shims use
    /// (`stoa_doc::compat`). A style written before roles existed, that
    /// redefines `div` as `(class, attrs, body) => …`, keeps working.
    fn container_call(
        &mut self,
        func: &str,
        class: &str,
        attrs: &stoa_doc::Attrs,
        role: Option<&Role>,
    ) {
        self.out.push_str(func);
        self.lit(class);
        self.out.push_str(", ");
        match role {
            Some(role) => {
                let mut with_role = attrs.clone();
                with_role.insert(stoa_doc::compat::ROLE_KEY.into(), role.name().into());
                self.attrs(&with_role);
            }
            None => self.attrs(attrs),
        }
    }

    /// Headings inside a chapter start at level 2 (the chapter title is 1);
    /// they go to the PDF bookmarks but not to the table of contents. In a
    /// chapter of a part, every level is one more (the part's page is 1),
    /// so that the bookmarks nest the chapter under its part; `offset: 1`
    /// tells the theme, which sets them as their depth in the chapter
    /// (`level - offset`) says.
    fn heading(&mut self, level: u8, id: &str, content: &[Inline], ctx: &mut ChapterCtx) {
        let level = level.clamp(2, 6);
        match self.layout.offset(ctx.index) {
            0 => {
                let _ = write!(
                    self.out,
                    "#heading(level: {level}, outlined: false, bookmarked: true)"
                );
            }
            offset => {
                // PDF tags stop at H6: the deepest levels share it.
                let level = (level + offset).min(6);
                let _ = write!(
                    self.out,
                    "#heading(level: {level}, offset: {offset}, outlined: false, bookmarked: true)"
                );
            }
        }
        self.inline_content(content, ctx);
        if !id.is_empty() {
            self.out.push_str("#label(");
            self.lit(&id_label(&ctx.key, id));
            self.out.push(')');
        }
    }

    /// A paragraph that is just an image becomes a figure; any other is text.
    fn paragraph(&mut self, content: &[Inline], ctx: &mut ChapterCtx) {
        let mut visible = content.iter().filter(|i| !is_blank(i));
        if let (Some(Inline::Image { url, alt, title }), None) = (visible.next(), visible.next())
            && let Some(vpath) = self.assets.get(url.as_str()).cloned()
        {
            self.out.push_str("#figure-image(");
            self.lit(&vpath);
            self.out.push_str(", alt: ");
            self.lit(alt);
            self.out.push_str(", caption: ");
            self.out
                .push_str(&opt_lit(Some(title.as_str()).filter(|t| !t.is_empty())));
            self.out.push(')');
            return;
        }
        if self.qr_codes
            && let Some(url) = web_address(content)
            && let Ok(qr) = stoa_barcode::Qr::of(url)
        {
            // Paper cannot follow the link: the theme prints the address
            // beside a QR code of it (an address too long to encode is
            // just printed).
            self.out.push_str("#web-address(");
            self.lit(&qr.svg(qr.printed_side_mm(QR_SIDE_MM)));
            self.out.push_str(")[");
            self.inlines(content, ctx);
            self.out.push(']');
            return;
        }
        self.inlines(content, ctx);
    }

    /// A list; one that is not inside another list's item goes through
    /// the theme's `list-block`, which sets it off from the text around it.
    fn list(&mut self, start: Option<u64>, tight: bool, items: &[ListItem], ctx: &mut ChapterCtx) {
        let outer = ctx.list_depth == 0;
        if outer {
            self.out.push_str("#list-block[");
        }
        ctx.list_depth += 1;
        self.list_call(start, tight, items, ctx);
        ctx.list_depth -= 1;
        if outer {
            self.out.push(']');
        }
    }

    fn list_call(
        &mut self,
        start: Option<u64>,
        tight: bool,
        items: &[ListItem],
        ctx: &mut ChapterCtx,
    ) {
        match start {
            Some(n) => {
                let _ = write!(self.out, "#enum(start: {n}, tight: {tight}");
            }
            None => {
                let _ = write!(self.out, "#list(tight: {tight}");
            }
        }
        for item in items {
            self.out.push_str(",\n  [");
            if let Some(checked) = item.checked {
                // No newline: the box joins the item's first paragraph.
                let _ = write!(self.out, "#task-box({checked})");
            }
            self.block_seq(&item.blocks, ctx);
            self.out.push(']');
        }
        self.out.push_str(",\n)");
    }

    fn table(
        &mut self,
        align: &[Align],
        head: &[Vec<Inline>],
        rows: &[Vec<Vec<Inline>>],
        ctx: &mut ChapterCtx,
    ) {
        self.out.push_str("#data-table(aligns: (");
        for a in align {
            self.out.push_str(match a {
                Align::None => "auto",
                Align::Left => "left",
                Align::Center => "center",
                Align::Right => "right",
            });
            self.out.push_str(", ");
        }
        self.out.push_str("), head: ");
        self.cells(head, ctx);
        self.out.push_str(", rows: (");
        for row in rows {
            self.out.push_str("\n  ");
            self.cells(row, ctx);
            self.out.push(',');
        }
        self.out.push_str("\n))");
    }

    fn cells(&mut self, cells: &[Vec<Inline>], ctx: &mut ChapterCtx) {
        self.out.push('(');
        for cell in cells {
            self.inline_content(cell, ctx);
            self.out.push_str(", ");
        }
        self.out.push(')');
    }

    /// `("key": "value", ...)`; keys are strings, so any attribute name is safe.
    fn attrs(&mut self, attrs: &stoa_doc::Attrs) {
        if attrs.is_empty() {
            self.out.push_str("(:)");
            return;
        }
        self.out.push('(');
        for (k, v) in attrs {
            self.lit(k);
            self.out.push_str(": ");
            self.lit(v);
            self.out.push_str(", ");
        }
        self.out.push(')');
    }

    /// A plugin's raw output: its Typst in a block of its own when it is
    /// for the PDF, nothing otherwise. stoa-build checked it right after the
    /// plugin returned it, naming the plugin; one that fails here (a tree
    /// built without the driver) is left out rather than compiled.
    fn raw(&mut self, format: &str, payload: &str) {
        if format == "pdf"
            && let Ok(code) = crate::raw::render(payload)
        {
            self.out.push_str(&code);
        }
    }

    fn inline_content(&mut self, inlines: &[Inline], ctx: &mut ChapterCtx) {
        self.out.push('[');
        self.inlines(inlines, ctx);
        self.out.push(']');
    }

    /// Inlines as `#` expressions with nothing between them; neighbouring
    /// text and soft breaks merge into one literal.
    /// Inside a marked block, each literal's place in the block's text is
    /// recorded (see [`PageTraces`]); the source written is the same either way.
    fn inlines(&mut self, inlines: &[Inline], ctx: &mut ChapterCtx) {
        let mut text = String::new();
        // The text position of `text`'s first character.
        let mut start = 0;
        for inline in inlines {
            let pos = ctx.text.map_or(0, |(_, pos)| pos);
            match inline {
                Inline::Text { text: t } => {
                    if text.is_empty() {
                        start = pos;
                    }
                    text.push_str(t);
                }
                Inline::SoftBreak => {
                    if text.is_empty() {
                        start = pos;
                    }
                    text.push(' ');
                }
                other => {
                    self.flush_text(&mut text, start, ctx);
                    self.inline(other, ctx);
                }
            }
            // Whatever the inline wrote, the position moves by the rule
            // every renderer follows.
            if let Some((_, at)) = &mut ctx.text {
                *at = pos + stoa_render::text_len(inline);
            }
        }
        self.flush_text(&mut text, start, ctx);
    }

    fn flush_text(&mut self, text: &mut String, start: usize, ctx: &ChapterCtx) {
        if !text.is_empty() {
            self.out.push('#');
            if let Some((block, _)) = ctx.text {
                self.runs.push(self.out.len(), block, start);
            }
            self.lit(text);
            text.clear();
        }
    }

    fn inline(&mut self, inline: &Inline, ctx: &mut ChapterCtx) {
        match inline {
            Inline::Text { .. } | Inline::SoftBreak => unreachable!("merged by the caller"),
            Inline::Raw { format, payload } => self.raw(format, payload),
            Inline::Emph { content } => self.wrapped("#emph", content, ctx),
            Inline::Strong { content } => self.wrapped("#strong", content, ctx),
            Inline::Strike { content } => self.wrapped("#strike", content, ctx),
            Inline::Code { text } => {
                self.out.push_str("#raw(");
                self.lit(text);
                self.out.push(')');
            }
            Inline::Link { url, content, .. } => self.link(url, content, ctx),
            Inline::Image { url, alt, .. } => match self.assets.get(url.as_str()).cloned() {
                Some(vpath) => {
                    self.out.push_str("#inline-image(");
                    self.lit(&vpath);
                    self.out.push_str(", alt: ");
                    self.lit(alt);
                    self.out.push(')');
                }
                None => {
                    self.out.push('#');
                    self.lit(alt);
                }
            },
            Inline::FootnoteRef { label } => {
                // A footnote's text is set where it is referenced, but it
                // is not the block's text: it is not traced.
                let text = ctx.text.take();
                self.note_ref(label, ctx);
                ctx.text = text;
            }
            Inline::LineBreak => self.out.push_str("#linebreak()"),
            // A technical token (stoa-markdown's `tokens`): the theme's
            // `tok` sets it unhyphenated, in lining figures.
            Inline::Span {
                role: Some(Role::Other(role)),
                content,
                ..
            } if role == stoa_doc::TOKEN_ROLE => {
                self.out.push_str("#tok((");
                for piece in stoa_doc::token_pieces(&stoa_doc::inlines_text(content)) {
                    self.lit(piece);
                    self.out.push(',');
                }
                self.out.push_str("))");
            }
            // A formula: Typst math made from its LaTeX (only symbols,
            // strings and stoa-math's own calls: nothing of it runs); the
            // LaTeX as code where it cannot be read (the post's loading
            // reported it).
            Inline::Span {
                role: Some(Role::Math),
                attrs,
                content,
                ..
            } => {
                let (tex, display) = stoa_math::of_span(attrs, content);
                let formula = stoa_math::Formula { tex: &tex, display };
                match formula.typst() {
                    Ok(math) => self.out.push_str(&math),
                    Err(_) => self.inlines(content, ctx),
                }
            }
            Inline::Span {
                role: Some(role),
                class,
                attrs,
                content,
            } if stoa_doc::index::role_name(Some(role)) == Some(stoa_doc::index::LOCATORS_ROLE) => {
                self.locators(class, attrs, role, content, ctx);
            }
            // An index mark: its words, then its anchor (after the first
            // words: at the space before them, a line and page break would
            // leave the anchor on the page before the term). Not the
            // theme's `span`: a mark shows nothing in print, and the call
            // around each of a book's hundreds of marks cost its layout
            // passes some 8 %.
            Inline::Span {
                role: Some(role),
                attrs,
                content,
                ..
            } if stoa_doc::index::role_name(Some(role)) == Some(stoa_doc::index::MARK_ROLE) => {
                ctx.spans += 1;
                self.inlines(content, ctx);
                ctx.spans -= 1;
                self.anchor(attrs, ctx);
            }
            Inline::Span {
                role,
                class,
                attrs,
                content,
            } => {
                self.container_call("#span(", class, attrs, role.as_ref());
                self.out.push_str(", [");
                self.anchor(attrs, ctx);
                ctx.spans += 1;
                self.inlines(content, ctx);
                ctx.spans -= 1;
                self.out.push_str("])");
            }
        }
    }

    fn wrapped(&mut self, func: &str, content: &[Inline], ctx: &mut ChapterCtx) {
        self.out.push_str(func);
        self.inline_content(content, ctx);
    }

    /// An invisible, locatable mark labelled with the container's `id`, so
    /// that links (from any chapter) reach it; not for an id a heading of
    /// the chapter or an earlier container already carries.
    fn anchor(&mut self, attrs: &stoa_doc::Attrs, ctx: &ChapterCtx) {
        let Some(id) = attrs.get("id").filter(|id| !id.is_empty()) else {
            return;
        };
        let label = id_label(&ctx.key, id);
        if ctx.headings.contains(id.as_str()) || !self.anchored.insert(label.clone()) {
            return;
        }
        self.out.push_str("#metadata(none)#label(");
        self.lit(&label);
        self.out.push(')');
        // Its page goes to the page map, for the others' page references.
        self.runs.anchor(label, ctx.index, id);
    }

    /// An index entry's places, as the labels its locators lead to: a
    /// list, not content. In print the theme prints each place's page
    /// (stoa-index's index.typ); the chapter titles an EPUB shows as their
    /// words were written, evaluated and thrown away, a third of what the
    /// index cost a book. A locator whose place is missing is left out.
    fn locators(
        &mut self,
        class: &str,
        attrs: &stoa_doc::Attrs,
        role: &Role,
        content: &[Inline],
        ctx: &ChapterCtx,
    ) {
        let mut urls = Vec::new();
        let mut links = FnVisitor {
            on_block: |_: &Block| Walk::Continue,
            on_inline: |inline: &Inline| {
                if let Inline::Link { url, .. } = inline {
                    urls.push(url.clone());
                }
                Walk::Continue
            },
        };
        stoa_doc::visit_inlines(content, &mut links);
        self.container_call("#span(", class, attrs, Some(role));
        self.out.push_str(", (");
        for url in urls {
            let Some(label) = self.label_of(&self.ids.resolve(&url, ctx.index), ctx.index) else {
                continue;
            };
            self.out.push_str("label(");
            self.lit(&label);
            self.out.push_str("),");
        }
        self.out.push_str("))");
    }

    /// The label a link inside the book leads to in print, from chapter
    /// `from`: none for a web address or a fragment no chapter has.
    fn label_of(&self, target: &LinkTarget, from: usize) -> Option<String> {
        match *target {
            LinkTarget::Here(id) => Some(self.targets[from].label(id)),
            LinkTarget::Chapter { chapter, id } => Some(self.targets[chapter].label(id)),
            LinkTarget::External(_) | LinkTarget::Missing(_) => None,
        }
    }

    /// External links keep their URL; a `#fragment` goes where the id
    /// index says (an element, or a chapter's title for its slug), and is
    /// plain text when no chapter has it (Typst refuses a link to a label
    /// that does not exist).
    fn link(&mut self, url: &str, content: &[Inline], ctx: &mut ChapterCtx) {
        let resolved = self.ids.resolve(url, ctx.index);
        let target = match (&resolved, self.label_of(&resolved, ctx.index)) {
            (LinkTarget::External(url), _) => typst_string(url),
            (_, Some(label)) => format!("label({})", typst_string(&label)),
            (_, None) => {
                self.inlines(content, ctx);
                return;
            }
        };
        let elsewhere = matches!(resolved, LinkTarget::Chapter { .. }).then(|| target.clone());
        let _ = write!(self.out, "#link({target})");
        if !content.is_empty() {
            self.inline_content(content, ctx);
        }
        // A link to another chapter cannot be followed on paper: the
        // author's own (not a citation's, a reference's or an index
        // locator's, which are inside spans that print their own) is
        // followed by its target's page, when that is another page.
        if let Some(label) = elsewhere.filter(|_| ctx.spans == 0) {
            let _ = write!(
                self.out,
                "#context {{ let at = locate({label}); if at.page() != here().page() [, p.#sym.space.nobreak#numbering(if at.page-numbering() == none {{ \"1\" }} else {{ at.page-numbering() }}, ..counter(page).at(at))] }}"
            );
        }
    }
}

/// The printed side of a QR code, quiet zone included, for a symbol of up
/// to 41 modules (an address of about 100 bytes); a denser one is printed
/// larger ([`stoa_barcode::Qr::printed_side_mm`]).
const QR_SIDE_MM: f64 = 18.0;

/// The address of a paragraph that holds nothing but a link to the web
/// whose text is the address (`<https://…>`, or the address as its own
/// text), as an author gives an address to visit and an imported embed
/// ends; `None` for any other paragraph.
fn web_address(content: &[Inline]) -> Option<&str> {
    let mut visible = content.iter().filter(|i| !is_blank(i));
    let (Some(Inline::Link { url, content, .. }), None) = (visible.next(), visible.next()) else {
        return None;
    };
    // The address is often a technical token (a span breaking it at its
    // slashes): its text is what counts.
    let text = stoa_doc::inlines_text(content);
    let web = url.starts_with("https://") || url.starts_with("http://");
    let bare = |u: &str| {
        u.trim_start_matches("https://")
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned()
    };
    (web && bare(text.trim()) == bare(url)).then_some(url.as_str())
}

fn is_blank(inline: &Inline) -> bool {
    match inline {
        Inline::SoftBreak => true,
        Inline::Text { text } => text.trim().is_empty(),
        _ => false,
    }
}

fn is_empty_par(block: &Block) -> bool {
    matches!(block, Block::Paragraph { content } if content.iter().all(is_blank))
}

fn opt_lit(text: Option<&str>) -> String {
    text.map_or_else(|| "none".to_owned(), typst_string)
}

/// A role as the theme reads it: its name, or `none`.
fn role_lit(role: Option<&Role>) -> String {
    opt_lit(role.map(Role::name))
}

/// A `datetime(...)` for a valid date; the text as a string otherwise, so
/// the theme can still print it.
fn date_expr(date: &str) -> String {
    match parse_date(date) {
        Some((y, m, d)) => format!("datetime(year: {y}, month: {m}, day: {d})"),
        None if date.trim().is_empty() => "none".to_owned(),
        None => typst_string(date),
    }
}

/// A length number as Typst reads it; non-finite values (which the caller
/// has already refused) become 0 rather than invalid syntax.
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "0".to_owned()
    }
}

/// The cover's design, colour and ornament, as a dictionary of strings:
/// data the theme chooses by, never code; `image` is the virtual path of
/// the author's own cover, or `none`.
fn cover_dict(c: &stoa_doc::Cover) -> String {
    let image = c.image.as_deref().map(cover_vpath);
    format!(
        "(design: {}, colour: {}, ornament: {}, image: {})",
        typst_string(&c.design),
        typst_string(&c.colour),
        typst_string(&c.ornament),
        opt_lit(image.as_deref())
    )
}

/// The edition's labels as the theme's `labels` dictionary: every key of
/// the locale table, as book.toml writes it (`typeset-with`).
fn labels_dict(l: &stoa_doc::Labels) -> String {
    let fields: Vec<String> = l
        .entries()
        .map(|(k, v)| format!("{k}: {}", typst_string(v)))
        .collect();
    format!("({})", fields.join(", "))
}
