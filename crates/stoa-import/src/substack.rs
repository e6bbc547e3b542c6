//! Substack: the zip of Settings > Exports (or that zip unpacked into a
//! folder): `posts.csv`, one row per post, and `posts/<post_id>.html`, its
//! body.
//!
//! `posts.csv`'s columns: `post_id` (`123456.the-slug`: the slug after the
//! dot), `post_date`, `is_published` (`false`: a draft), `type`
//! (`newsletter` and `podcast` are posts; a `thread` is not), `audience`
//! (`everyone`; `only_free`, `only_paid` and `founding` are for subscribers:
//! private), `title`, `subtitle` (the summary). Drafts and private posts
//! are left out without `--drafts`. The export holds no images (they stay
//! on Substack's servers): an image whose file is found in the export
//! (by its name, e.g. in an `images/` folder added by hand) is imported,
//! the others become links, with a warning.

use std::collections::BTreeMap;
use std::path::Path;

use crate::export::{self, Files};
use crate::model::{Diagnostic, ImportOptions, Imported, Place, Post, Site, Status};
use crate::util;

/// Reads a Substack export: its zip, or the folder it unpacks to.
pub fn read(source: &Path, options: &ImportOptions) -> Result<Imported, Vec<Diagnostic>> {
    let shown = util::display(source);
    let meta = std::fs::metadata(source).map_err(|e| {
        vec![
            Diagnostic::error(format!("cannot read the Substack export: {e}"))
                .in_file(&shown)
                .with_hint(
                    "give the zip of Substack's Settings > Exports, or the folder it unpacks to",
                ),
        ]
    })?;
    let entries: BTreeMap<String, Vec<u8>>;
    let files;
    let csv_text;
    let folder;
    if meta.is_dir() {
        folder = Some(source.to_path_buf());
        let csv_path = source.join("posts.csv");
        csv_text = util::read_text(&csv_path, options.max_file_size).map_err(|d| {
            vec![Diagnostic { hint: Some("a Substack export holds posts.csv and a posts/ folder; give the folder the zip unpacks to".into()), ..d }]
        })?;
        files = Files::folder(source);
    } else {
        folder = None;
        entries = export::read_zip(source, options)?;
        // The export's files may sit in one folder inside the zip.
        let prefix = entries
            .keys()
            .find(|k| k.rsplit('/').next() == Some("posts.csv"))
            .map(|k| k.trim_end_matches("posts.csv").to_string())
            .ok_or_else(|| {
                vec![Diagnostic::error("the zip holds no posts.csv: it is not a Substack export")
                    .in_file(&shown)
                    .with_hint("export the publication from Substack's Settings > Exports, and give that zip")]
            })?;
        let csv = &entries[&format!("{prefix}posts.csv")];
        csv_text = String::from_utf8(csv.clone()).map_err(|_| {
            vec![Diagnostic::error("posts.csv in the zip is not UTF-8 text").in_file(&shown)]
        })?;
        let stripped: BTreeMap<String, Vec<u8>> = entries
            .into_iter()
            .filter_map(|(k, v)| k.strip_prefix(prefix.as_str()).map(|k| (k.to_string(), v)))
            .collect();
        files = Files::Zip(stripped);
    }
    let csv_shown = match &folder {
        Some(f) => util::display(&f.join("posts.csv")),
        None => format!("{shown}:posts.csv"),
    };
    read_posts(
        csv_text.trim_start_matches('\u{feff}'),
        &csv_shown,
        &shown,
        &files,
        folder.as_deref(),
        options,
    )
}

fn read_posts(
    csv_text: &str,
    csv_shown: &str,
    shown: &str,
    files: &Files,
    folder: Option<&Path>,
    options: &ImportOptions,
) -> Result<Imported, Vec<Diagnostic>> {
    let web = options
        .fetch_images
        .as_ref()
        .map(crate::web::WebImages::new);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(csv_text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| {
            vec![
                Diagnostic::error(format!("posts.csv cannot be read: {e}"))
                    .in_file(csv_shown)
                    .at(1, 1),
            ]
        })?
        .clone();
    let column = |name: &str| headers.iter().position(|h| h.trim() == name);
    let Some(id_col) = column("post_id") else {
        return Err(vec![
            Diagnostic::error(format!(
                "posts.csv has no `post_id` column (its columns: {})",
                headers.iter().collect::<Vec<_>>().join(", ")
            ))
            .in_file(csv_shown)
            .at(1, 1)
            .with_hint("give the posts.csv of a Substack export, as the export wrote it"),
        ]);
    };
    let cols = (
        column("post_date"),
        column("is_published"),
        column("title"),
        column("subtitle"),
        column("audience"),
        column("type"),
    );
    let mut warnings = Vec::new();
    let mut posts = Vec::new();
    let (mut drafts, mut private) = (0, 0);
    for (i, record) in reader.records().enumerate() {
        let row = i + 2;
        let place = Place::new(csv_shown, Some(row));
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(row, |p| p.line() as usize);
                return Err(vec![Diagnostic::error(format!("posts.csv cannot be read at row {row}: {e}"))
                    .in_file(csv_shown)
                    .at(line, 1)
                    .with_hint("the file was cut short or changed by hand; export the publication again")]);
            }
        };
        let get = |c: Option<usize>| c.and_then(|c| record.get(c)).map(str::trim).unwrap_or("");
        let post_id = get(Some(id_col));
        if post_id.is_empty() {
            warnings.push(place.warning("row without a post_id: left out"));
            continue;
        }
        if matches!(get(cols.5), "thread" | "discussion") {
            continue;
        }
        let published = !get(cols.1).eq_ignore_ascii_case("false");
        let audience = get(cols.4);
        let status = if !published {
            Status::Draft
        } else if audience.is_empty() || audience == "everyone" {
            Status::Published
        } else {
            Status::Private
        };
        if status != Status::Published && !options.drafts {
            if status == Status::Draft {
                drafts += 1
            } else {
                private += 1
            }
            continue;
        }
        if posts.len() >= options.max_posts {
            return Err(vec![place.error(format!(
                "the export holds more than {} posts",
                options.max_posts
            ))]);
        }
        // The body's file: posts/<post_id>.html, post_id checked to be one
        // plain name.
        let name = format!("posts/{post_id}.html");
        if post_id.contains(['/', '\\'])
            || post_id.contains("..")
            || util::plain_relative(&name).is_none()
        {
            warnings.push(place.warning(format!(
                "post_id `{post_id}` is not a file name: the post is left out"
            )));
            continue;
        }
        let html = match (folder, files) {
            (Some(f), _) => {
                let path = f.join(&name);
                if !path.exists() {
                    None
                } else {
                    match util::inside(&f.canonicalize().unwrap_or_else(|_| f.to_path_buf()), &path)
                    {
                        Some(real) => Some(
                            util::read_text(&real, util::post_limit(options))
                                .map_err(|d| vec![d])?,
                        ),
                        None => {
                            warnings.push(place.warning(format!(
                                "{name} leads outside the export: the post is left out"
                            )));
                            continue;
                        }
                    }
                }
            }
            (None, Files::Zip(entries)) => entries
                .get(&name)
                .map(|b| String::from_utf8_lossy(b).into_owned()),
            (None, Files::Folder { .. }) => None,
        };
        let Some(html) = html else {
            warnings.push(place.warning(format!(
                "the post's body, {name}, is not in the export: the post is left out"
            )));
            continue;
        };
        let slug = post_id
            .split_once('.')
            .map_or(post_id, |(_, s)| s)
            .to_string();
        let title = get(cols.2);
        let mut post = Post {
            slug: if slug.is_empty() {
                util::post_slug(title)
            } else {
                slug.clone()
            },
            title: if title.is_empty() {
                slug.clone()
            } else {
                title.to_string()
            },
            date: export::iso_date(get(cols.0)),
            status,
            description: Some(get(cols.3).to_string()).filter(|s| !s.is_empty()),
            urls: vec![format!("/p/{slug}")],
            source: place,
            ..Post::default()
        };
        let cx = export::Export::new(files, &[], options, web.as_ref());
        export::html_body(&html, &mut post, &cx, &mut warnings);
        posts.push(post);
    }
    warnings.extend(export::left_out(csv_shown, drafts, private));
    warnings.extend(web.and_then(|w| w.summary()));
    Ok(Imported {
        site: Site {
            translated: Vec::new(),
            config: Some(Place::new(shown, None)),
            ..Site::default()
        },
        posts,
        warnings,
    })
}
