//! The build driver: finds the books, loads every edition, renders each
//! format in parallel with rayon and writes the artifacts atomically.
//!
//! # Steps
//! A build ([`build`], or a warm [`Session`]: both run
//! [`driver::build_cached`]) runs these steps in this order. Each module
//! belongs to one step and uses only modules of its own step or earlier
//! ones (checked by a test, `layering.rs`). What the steps share (the
//! options with the registry of renderers, the sink, the plan) is one
//! value, [`plan::Build`]; the cache is only read until the last step, and
//! each step that makes something returns its part of a [`ledger::Ledger`].
//!
//! 1. **Options** (`options`, `report`, `timings`): what to build, with
//!    the registry of formats ([`stoa_render::Renderers`]); what the build
//!    tells as it goes and reports at the end.
//! 2. **Lock** (`guard`, `output`, `stage`): one build per output folder
//!    ([`guard::OutputLock`], waited for by a session); what an interrupted
//!    build left is removed; files written atomically, an edition's files
//!    staged and moved into place together ([`stage::Stage`]).
//! 3. **Select** (`translations`, `builtin`): the books and languages asked
//!    for ([`load::select`]), their book.toml read, stale translations told;
//!    where plugins are looked for.
//! 4. **Plan** (`keys`, `ledger`, `cache`, `covers`, `plan`): the build cache read
//!    ([`cache::Cache::attach`]); each edition's inputs hashed without
//!    parsing ([`plan::Plan::new`]); the editions whose every artifact the
//!    cache shows unchanged are not loaded. The plan answers every
//!    question of freshness. A cold build is one with an empty cache.
//! 5. **Load** (`load`, `plugins`, `plugin_assets`, `diagnostics`,
//!    `raw_check`, `note_calls`): posts parsed, plugins run, diagrams
//!    drawn, note calls placed, in parallel per book and per language
//!    ([`load::Loading::load`]), and learnt by the plan
//!    ([`plan::Plan::learn`]); twice: the stale editions, then those whose
//!    links to them changed ([`plan::Plan::settle_pending`]).
//! 6. **Prepare** (`prepare`, `images`): per edition, once for all formats
//!    ([`prepare::prepare_with`]): the notes plan, the id index, the theme,
//!    the cover (kept in the build cache by what it is drawn from), and
//!    each image made as each stale format shows it (kept in the build
//!    cache by its bytes and what was made of it).
//! 7. **Render** (`render`, `jobs`): each stale format of each edition
//!    ([`render::render_all`]), the formats that map pages (the PDF) first,
//!    the others marking the print pages with their map; each file staged
//!    unless it holds the same bytes.
//! 8. **Site** (`site`): thumbnails drawn, the complete editions moved into
//!    place ([`render::Rendered::commit`]), then the download page and the
//!    OPDS catalogs replaced, from the files in place
//!    ([`site::write_site`]).
//! 9. **Store**: the ledger of everything the steps made committed to the
//!    cache and written, once, last ([`cache::Cache::commit`]).
//!
//! `stoa check` ([`check`]) runs steps 3, 5 and 6 and renders in memory;
//! `driver` runs them all ([`driver::run`]).
// The steps above link to the crate's own functions, so that `cargo doc`
// warns when the list and the code drift apart.
#![allow(rustdoc::private_intra_doc_links)]

mod builtin;
mod cache;
mod check;
mod covers;
mod decoded;
mod diagnostics;
mod driver;
mod guard;
mod images;
mod jobs;
mod keys;
#[cfg(test)]
mod layering;
mod ledger;
mod load;
mod note_calls;
mod options;
mod output;
mod plan;
mod plugin_assets;
mod plugins;
mod prepare;
mod quotes;
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
