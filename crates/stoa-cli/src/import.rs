//! `stoa import <kind> <SOURCE> <DIR>`: a blog made a stoa project.

use std::path::PathBuf;
use std::process::ExitCode;
use stoa_import::{Change, ImportOptions, Kind};

/// The sources `stoa import` reads.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum Source {
    /// A Hugo site folder.
    Hugo,
    /// A Jekyll site folder.
    Jekyll,
    /// A Zola site folder.
    Zola,
    /// A WordPress export (WXR XML).
    Wordpress,
    /// A Ghost export (JSON).
    Ghost,
    /// A Substack export (zip or folder).
    Substack,
    /// An RSS or Atom feed saved to a file.
    Feed,
    /// A folder of Markdown files with front matter (Eleventy, Astro,
    /// MkDocs' blog, an Obsidian vault).
    Markdown,
}

impl From<Source> for Kind {
    fn from(s: Source) -> Kind {
        match s {
            Source::Hugo => Kind::Hugo,
            Source::Jekyll => Kind::Jekyll,
            Source::Zola => Kind::Zola,
            Source::Wordpress => Kind::WordPress,
            Source::Ghost => Kind::Ghost,
            Source::Substack => Kind::Substack,
            Source::Feed => Kind::Feed,
            Source::Markdown => Kind::Markdown,
        }
    }
}

/// `stoa import`'s options.
#[derive(clap::Args)]
pub(crate) struct ImportArgs {
    /// What the source is.
    #[arg(value_enum, value_name = "KIND")]
    kind: Source,
    /// The site's folder (Hugo, Jekyll, Zola, Markdown) or the export file.
    #[arg(value_name = "SOURCE")]
    source: PathBuf,
    /// The project folder to write: new or empty (with --update, an
    /// earlier import of the same source).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Import drafts (and private or scheduled posts) too.
    #[arg(long)]
    drafts: bool,
    /// Bring a WordPress post's approved comments in, under a heading at
    /// the post's end (the commenters' e-mail and IP addresses never).
    #[arg(long)]
    comments: bool,
    /// Bring an earlier import in DIR up to date: new and changed posts
    /// come in, files you edited since are kept.
    #[arg(long)]
    update: bool,
    /// Download the images posts show from the web into their folders
    /// (HTTP and HTTPS, 20 MB and 30 s each at most, kept in the user's
    /// cache across imports); without it the import reads no network and
    /// such an image becomes a link.
    #[arg(long)]
    fetch_images: bool,
    /// Print only errors.
    #[arg(short, long)]
    quiet: bool,
}

/// Where downloaded images are kept across imports:
/// `$XDG_CACHE_HOME/stoa/web-images`, else `~/.cache/stoa/web-images`.
fn image_cache() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let cache = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(cache.join("stoa/web-images"))
}

/// Runs `stoa import`.
pub(crate) fn run(args: ImportArgs) -> ExitCode {
    let fetch_images = args.fetch_images.then(|| stoa_import::FetchImages {
        limits: stoa_import::Limits::default(),
        cache: image_cache(),
    });
    let options = ImportOptions {
        drafts: args.drafts,
        comments: args.comments,
        fetch_images,
        ..ImportOptions::default()
    };
    let kind = Kind::from(args.kind);
    match stoa_import::import(kind, &args.source, &args.dir, &options, args.update) {
        Ok(report) => {
            if !args.quiet {
                for w in &report.warnings {
                    eprintln!("{w}");
                }
            }
            let count = |c: &Change| report.files.iter().filter(|(_, x)| x == c).count();
            let dir = args.dir.display();
            if args.update {
                for (path, change) in &report.files {
                    let line = match change {
                        Change::Added => format!("added     {}", path.display()),
                        Change::Updated => format!("updated   {}", path.display()),
                        Change::KeptEdit => format!("kept      {} (your edit)", path.display()),
                        Change::KeptEditSourceChanged => format!(
                            "kept      {} (your edit; the source changed too: compare, or delete the file and update again)",
                            path.display()
                        ),
                        Change::KeptRemoved => {
                            format!("left out  {} (you removed it)", path.display())
                        }
                        Change::Gone => {
                            format!("kept      {} (no longer in the source)", path.display())
                        }
                        Change::Unchanged => continue,
                    };
                    crate::new::say(&line);
                }
                for slug in &report.unlisted {
                    crate::new::say(&format!(
                        "note: the new post `{slug}` is not in books/{}/book.toml (which you changed): add it to `posts`",
                        report.book
                    ));
                }
                crate::new::say(&format!(
                    "updated {dir}: {} added, {} updated, {} kept, {} unchanged",
                    count(&Change::Added),
                    count(&Change::Updated),
                    count(&Change::KeptEdit) + count(&Change::KeptEditSourceChanged),
                    count(&Change::Unchanged)
                ));
            } else if !args.quiet {
                crate::new::say(&format!(
                    "imported {} posts ({}) from {} into {dir}, book `{}`\n\n  cd {dir}\n  stoa check        # what the import could not convert, and more\n  stoa build        # EPUB, PDF and web edition into dist/",
                    report.posts.len(),
                    report.languages.join(", "),
                    args.source.display(),
                    report.book,
                ));
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            eprintln!("error: nothing was written");
            ExitCode::FAILURE
        }
    }
}
