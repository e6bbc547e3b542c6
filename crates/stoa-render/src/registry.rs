//! The registry of output formats: one [`Renderer`] per format, in build
//! order. Everything that lists formats (the command line's `--format`,
//! the download page, the build cache, the plugin test kit) reads it, so a
//! new format is one renderer and one registration.

use crate::Renderer;
use std::fmt;
use std::sync::Arc;

/// The formats a build can write, one renderer each, in build order (the
/// order of `--format`'s values and of the download page's buttons).
#[derive(Clone)]
pub struct Renderers {
    list: Arc<[&'static dyn Renderer]>,
}

impl Renderers {
    /// A registry of `renderers`, in that order; a renderer whose name an
    /// earlier one has replaces it in place.
    pub fn new(renderers: impl IntoIterator<Item = &'static dyn Renderer>) -> Self {
        let mut list: Vec<&'static dyn Renderer> = Vec::new();
        for renderer in renderers {
            match list.iter_mut().find(|r| r.name() == renderer.name()) {
                Some(slot) => *slot = renderer,
                None => list.push(renderer),
            }
        }
        Renderers { list: list.into() }
    }

    /// This registry and `renderer` after it (or in the place of the
    /// renderer of its name).
    pub fn with(&self, renderer: &'static dyn Renderer) -> Self {
        Renderers::new(self.list.iter().copied().chain([renderer]))
    }

    /// The renderer of the format called `name`.
    pub fn get(&self, name: &str) -> Option<&'static dyn Renderer> {
        self.list.iter().copied().find(|r| r.name() == name)
    }

    /// Every renderer, in build order.
    pub fn iter(&self) -> impl Iterator<Item = &'static dyn Renderer> + '_ {
        self.list.iter().copied()
    }

    /// Every format's name, in build order.
    pub fn names(&self) -> Vec<&'static str> {
        self.iter().map(|r| r.name()).collect()
    }

    /// The renderer that draws covers, if any (the first that does).
    pub fn cover_painter(&self) -> Option<&'static dyn Renderer> {
        self.iter().find(|r| r.draws_covers())
    }

    /// The renderer that draws formulas as images, if any.
    pub fn formula_painter(&self) -> Option<&'static dyn Renderer> {
        self.iter().find(|r| r.draws_formulas())
    }
}

impl fmt::Debug for Renderers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}
