//! The hook table: every hook of the plugin ABI, once, with what the SDK,
//! the host, the isolated worker and the C header need to know of it; and
//! [`Hooks`], the set of hooks a plugin provides.
//!
//! Adding a hook is a row of the table and a variant of [`Hook`]. Made from
//! the table: [`Hook::ALL`], each hook's name and request tag,
//! [`Hooks::names`], the isolated worker's requests and the hello of an
//! isolated plugin's process. Every `match` on a hook is exhaustive, so the
//! compiler names the places that need code of their own (the field of
//! [`Hooks`], the trait's shim, the C field, the host's call). What cannot
//! be compiled is compared with the table by tests that name what is
//! missing: the C header's structs and notes, the plugin guide's table.
//!
//! [`Hook`] is stoa's own, not plugin API: a plugin never names a hook (it
//! implements the hook's trait), and a new hook adds a variant.

/// One hook of the plugin ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hook {
    /// Checks the settings: [`crate::Configure`].
    Configure,
    /// Rewrites a post's Markdown: [`crate::Source`].
    Source,
    /// Changes a chapter's tree: [`crate::Transform`].
    Transform,
    /// Changes the whole book: [`crate::Finish`].
    Finish,
    /// Gives styles for a format: [`crate::Styles`].
    Styles,
}

/// Which C struct holds a hook's function pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `StoaPluginV1`, the descriptor `stoa_plugin_v1` returns.
    Descriptor,
    /// `StoaHooksV1`, the hooks added to ABI version 1, which the optional
    /// `stoa_plugin_hooks_v1` returns.
    MoreHooks,
}

/// How often stoa calls a hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Once per book and language (an edition).
    Edition,
    /// Once per post and language, on its Markdown, in parallel.
    Post,
    /// Once per chapter, in parallel.
    Chapter,
    /// Once per book, language and format.
    Format,
}

/// What the table says of one hook.
struct Row {
    hook: Hook,
    /// The hook's name: its trait method's, its C field's, its messages'.
    name: &'static str,
    /// The request tag of the isolated worker's frames; never reused.
    tag: u32,
    slot: Slot,
    scope: Scope,
}

/// The table, one row per hook in the order stoa calls them for an
/// edition, which is also [`Hook`]'s order.
#[rustfmt::skip]
const TABLE: [Row; 5] = [
    Row { hook: Hook::Configure, name: "configure", tag: 3, slot: Slot::MoreHooks, scope: Scope::Edition },
    Row { hook: Hook::Source, name: "source", tag: 4, slot: Slot::MoreHooks, scope: Scope::Post },
    Row { hook: Hook::Transform, name: "transform", tag: 0, slot: Slot::Descriptor, scope: Scope::Chapter },
    Row { hook: Hook::Finish, name: "finish", tag: 1, slot: Slot::Descriptor, scope: Scope::Edition },
    Row { hook: Hook::Styles, name: "styles", tag: 2, slot: Slot::Descriptor, scope: Scope::Format },
];

impl Hook {
    /// How many hooks there are.
    pub const COUNT: usize = TABLE.len();

    /// Every hook, in the order stoa calls them for an edition:
    /// `configure`, `source`, then `transform`, `finish` and `styles`.
    pub const ALL: [Hook; Hook::COUNT] = {
        let mut all = [Hook::Configure; Hook::COUNT];
        let mut i = 0;
        while i < Hook::COUNT {
            all[i] = TABLE[i].hook;
            i += 1;
        }
        all
    };

    const fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// Its position in [`Hook::ALL`], for tables indexed by hook.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Its name, e.g. `transform`: the trait method's, the C field's, the
    /// one messages and `stoa plugins` show.
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    /// The tag of a request for it in the isolated worker's frames.
    pub const fn tag(self) -> u32 {
        self.row().tag
    }

    /// The hook a request tag names; `None` for a tag no hook has.
    pub fn from_tag(tag: u32) -> Option<Hook> {
        Hook::ALL.into_iter().find(|hook| hook.tag() == tag)
    }

    /// Which C struct holds its function pointer (in a field of its name).
    pub const fn slot(self) -> Slot {
        self.row().slot
    }

    /// How often stoa calls it.
    pub const fn scope(self) -> Scope {
        self.row().scope
    }
}

impl std::fmt::Display for Hook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Slot {
    /// The C struct's name in `stoa_plugin.h`.
    pub const fn c_struct(self) -> &'static str {
        match self {
            Slot::Descriptor => "StoaPluginV1",
            Slot::MoreHooks => "StoaHooksV1",
        }
    }

    /// Its hooks, in the order of their fields in the struct.
    pub fn hooks(self) -> impl Iterator<Item = Hook> {
        Hook::ALL
            .into_iter()
            .filter(move |hook| hook.slot() == self)
    }
}

impl Scope {
    /// How often, in the words of the C header and the plugin guide.
    pub const fn phrase(self) -> &'static str {
        match self {
            Scope::Edition => "once per book and language",
            Scope::Post => "once per post and language",
            Scope::Chapter => "once per chapter",
            Scope::Format => "once per book, language and format",
        }
    }

    /// True when calls for different posts or chapters of one edition run
    /// at the same time.
    pub const fn in_parallel(self) -> bool {
        matches!(self, Scope::Post | Scope::Chapter)
    }
}

/// Which hooks a plugin provides, so the host skips the others (and does not
/// send every chapter across the boundary for nothing). A Rust plugin never
/// writes one: [`crate::export_plugin!`] reads it from the hook traits it implements.
///
/// Each field is named after its hook. A new hook adds a field, hence
/// `#[non_exhaustive]`: start from [`Hooks::NONE`] or [`Hooks::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hooks {
    /// [`crate::Configure::configure`] is called, once per book and language.
    pub configure: bool,
    /// [`crate::Source::source`] is called, on each post's Markdown.
    pub source: bool,
    /// [`crate::Transform::transform`] is called.
    pub transform: bool,
    /// [`crate::Finish::finish`] is called.
    pub finish: bool,
    /// [`crate::Styles::styles`] is called.
    pub styles: bool,
}

impl Hooks {
    /// Every hook.
    pub const ALL: Hooks = {
        let mut hooks = Hooks::NONE;
        let mut i = 0;
        while i < Hook::COUNT {
            hooks = hooks.with(Hook::ALL[i]);
            i += 1;
        }
        hooks
    };

    /// No hook at all.
    pub const NONE: Hooks = Hooks {
        configure: false,
        source: false,
        transform: false,
        finish: false,
        styles: false,
    };

    /// The hooks for which `has` says yes.
    #[doc(hidden)]
    pub fn from_fn(has: impl Fn(Hook) -> bool) -> Hooks {
        Hook::ALL
            .into_iter()
            .filter(|&hook| has(hook))
            .fold(Hooks::NONE, Hooks::with)
    }

    /// These hooks and `hook`.
    #[doc(hidden)]
    pub const fn with(mut self, hook: Hook) -> Hooks {
        *self.flag(hook) = true;
        self
    }

    /// Whether `hook` is among them.
    #[doc(hidden)]
    pub const fn has(mut self, hook: Hook) -> bool {
        *self.flag(hook)
    }

    /// The field of `hook`: the one place that pairs fields and hooks.
    const fn flag(&mut self, hook: Hook) -> &mut bool {
        match hook {
            Hook::Configure => &mut self.configure,
            Hook::Source => &mut self.source,
            Hook::Transform => &mut self.transform,
            Hook::Finish => &mut self.finish,
            Hook::Styles => &mut self.styles,
        }
    }

    /// The names of the hooks provided, in the order stoa calls them.
    pub fn names(self) -> Vec<&'static str> {
        Hook::ALL
            .into_iter()
            .filter(|&hook| self.has(hook))
            .map(Hook::name)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_of_hooks_is_named_after_its_hook() {
        assert_eq!(Hooks::ALL.names(), Hook::ALL.map(Hook::name));
        assert!(Hooks::NONE.names().is_empty());
        for hook in Hook::ALL {
            let one = Hooks::NONE.with(hook);
            assert_eq!(one.names(), [hook.name()]);
            assert_eq!(Hooks::from_fn(|h| h == hook), one);
            // The field set is the one of the hook's name, and no other.
            let fields = format!("{one:?}");
            assert_eq!(fields.matches(": true").count(), 1, "{fields}");
            assert!(fields.contains(&format!(" {hook}: true")), "{fields}");
        }
    }

    #[test]
    fn the_table_has_one_row_per_hook_in_order() {
        for (i, hook) in Hook::ALL.into_iter().enumerate() {
            assert_eq!(TABLE[i].hook, hook, "row {i} of the table");
            assert_eq!(hook.index(), i, "{hook}");
        }
    }

    #[test]
    fn tags_round_trip_and_names_are_distinct() {
        for hook in Hook::ALL {
            assert_eq!(Hook::from_tag(hook.tag()), Some(hook), "{hook}");
            assert_eq!(hook.to_string(), hook.name());
        }
        assert_eq!(Hook::from_tag(Hook::COUNT as u32), None);
        let names: std::collections::HashSet<&str> = Hook::ALL.map(Hook::name).into();
        assert_eq!(names.len(), Hook::COUNT, "{names:?}");
    }

    #[test]
    fn tags_follow_the_c_fields() {
        // ABI 1's descriptor came first, its hooks tagged 0.. in field
        // order; the hooks of `stoa_plugin_hooks_v1` came after, and a new
        // hook takes the next tag.
        let in_c_order = Slot::Descriptor.hooks().chain(Slot::MoreHooks.hooks());
        let tags: Vec<u32> = in_c_order.map(Hook::tag).collect();
        assert_eq!(tags, (0..Hook::COUNT as u32).collect::<Vec<_>>());
    }
}
