//! The build driver: finds the books, loads every edition, renders each
//! format in parallel with rayon and writes the artifacts atomically.
//!
//! # Steps
//! A build ([`build`], or a warm [`Session`]) runs these steps, each in
//! its own module, each module using only those above it:
//!
//! 1. **Options** (`options`, `report`): what to build, with the registry
//!    of formats ([`stoa_render::Renderers`]); what the build tells as it
//!    goes and reports at the end.
//! 2. **Lock** (`guard`, `output`): one build per output folder; what an
//!    interrupted build left is removed; every file is written atomically.
//! 3. **Select** (`load::select`, `translations`): the books and
//!    languages asked for, their book.toml read, stale translations told.
//! 4. **Plan** (`cache`, `incremental`): each edition's inputs hashed
//!    without parsing; the editions whose every artifact the cache shows
//!    unchanged are not loaded. A cold build is one with an empty cache.
//! 5. **Load** (`load`, `plugins`, `builtin`, `raw_check`): posts parsed,
//!    plugins run, diagrams drawn, note calls placed, in parallel per book
//!    and per language.
//! 6. **Prepare** (`prepare`, `covers`): per edition, once for all
//!    formats: the notes plan, the id index, the theme, the cover (kept in
//!    the build cache by what it is drawn from).
//! 7. **Render** (`render`, `jobs`): each stale format of each edition, the
//!    formats that map pages (the PDF) first, the others marking the print
//!    pages with their map; each artifact written unless it holds the same
//!    bytes.
//! 8. **Site** (`site`): the download page and the OPDS catalogs, from the
//!    files on disk, written last.
//! 9. **Store** (`cache`): what was made, for the next build.
//!
//! `stoa check` ([`check`]) runs steps 3, 5 and 6 and renders in memory;
//! `driver` runs them all.

mod builtin;
mod cache;
mod check;
mod covers;
mod diagnostics;
mod driver;
mod guard;
mod incremental;
mod jobs;
mod load;
mod note_calls;
mod options;
mod output;
mod plugin_assets;
mod plugins;
mod prepare;
mod raw_check;
mod render;
mod report;
mod session;
mod site;
mod stage;
mod timings;
mod translations;

pub use builtin::{builtin_plugin, builtin_plugins, plugin_search};
pub use cache::CACHE_DIR;
pub use check::{Depth, check};
pub use driver::{build, build_forced};
pub use guard::{LOCK_FILE, OutputLock, interrupt, is_leftover, remove_leftovers};
pub use options::BuildOptions;
pub use output::write_atomically;
pub use report::{Artifact, Event, Report, Sink};
pub use session::Session;
pub use stoa_render::{Renderer, Renderers};
