//! The hook table against the copies of it that cannot be made from it: the
//! C header's structs (their hook fields, in order, and their layout
//! against the Rust mirror, byte for byte), the header's notes on each hook,
//! and the table of hooks in the plugin guide. Each failure names the hook
//! or field that is missing or out of place.

use std::mem::{offset_of, size_of};
use stoa_sdk::abi::{StoaHooksV1, StoaPluginV1};
use stoa_sdk::hook::{Hook, Slot};

const HEADER: &str = include_str!("../include/stoa_plugin.h");

/// The C type of a hook's field.
const HOOK_TYPE: &str = "StoaHookFn";

/// A field of a C struct: its type and its name.
#[derive(Debug)]
struct Field {
    ty: String,
    name: String,
}

/// The fields of `typedef struct <name> { ... } <name>;` in stoa_plugin.h.
fn c_fields(name: &str) -> Vec<Field> {
    let open = format!("typedef struct {name} {{");
    let close = format!("}} {name};");
    let body = HEADER
        .split_once(&open)
        .and_then(|(_, rest)| rest.split_once(&close))
        .unwrap_or_else(|| panic!("stoa_plugin.h has no `{open} ... {close}`"))
        .0;
    without_comments(body)
        .split(';')
        .map(str::trim)
        .filter(|decl| !decl.is_empty())
        .map(|decl| {
            let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let split = decl.trim_end_matches(ident).len();
            Field {
                ty: decl[..split].trim().to_string(),
                name: decl[split..].to_string(),
            }
        })
        .collect()
}

fn without_comments(mut code: &str) -> String {
    let mut out = String::new();
    while let Some((before, rest)) = code.split_once("/*") {
        out.push_str(before);
        code = rest.split_once("*/").map_or("", |(_, after)| after);
    }
    out.push_str(code);
    out
}

/// Size and alignment of the C types the two structs use, with pointers of
/// `pointer` (size, alignment): this target's, or (4, 4) on wasm32.
fn size_and_align_with(ty: &str, pointer: (usize, usize)) -> (usize, usize) {
    match ty {
        "uint32_t" => (4, 4),
        HOOK_TYPE | "StoaFreeBufferFn" => pointer,
        _ if ty.ends_with('*') => pointer,
        _ => panic!("stoa_plugin.h: no size known for the C type `{ty}`"),
    }
}

/// Each field's offset under C's layout rules, and the struct's size.
fn c_layout(fields: &[Field]) -> (Vec<(String, usize)>, usize) {
    c_layout_with(fields, (size_of::<usize>(), align_of::<usize>()))
}

/// The same, with pointers of `pointer` (size, alignment).
fn c_layout_with(fields: &[Field], pointer: (usize, usize)) -> (Vec<(String, usize)>, usize) {
    let (mut offset, mut align_of_struct) = (0usize, 1);
    let mut offsets = Vec::new();
    for field in fields {
        let (size, align) = size_and_align_with(&field.ty, pointer);
        offset = offset.next_multiple_of(align);
        offsets.push((field.name.clone(), offset));
        offset += size;
        align_of_struct = align_of_struct.max(align);
    }
    (offsets, offset.next_multiple_of(align_of_struct))
}

/// The Rust mirror's fields and their offsets, and its size.
fn rust_layout(slot: Slot) -> (Vec<(&'static str, usize)>, usize) {
    match slot {
        Slot::Descriptor => (
            vec![
                ("abi_version", offset_of!(StoaPluginV1, abi_version)),
                ("tree_version", offset_of!(StoaPluginV1, tree_version)),
                ("name", offset_of!(StoaPluginV1, name)),
                ("version", offset_of!(StoaPluginV1, version)),
                ("transform", offset_of!(StoaPluginV1, transform)),
                ("finish", offset_of!(StoaPluginV1, finish)),
                ("styles", offset_of!(StoaPluginV1, styles)),
                ("free_buffer", offset_of!(StoaPluginV1, free_buffer)),
            ],
            size_of::<StoaPluginV1>(),
        ),
        Slot::MoreHooks => (
            vec![
                ("size", offset_of!(StoaHooksV1, size)),
                ("reserved", offset_of!(StoaHooksV1, reserved)),
                ("configure", offset_of!(StoaHooksV1, configure)),
                ("source", offset_of!(StoaHooksV1, source)),
            ],
            size_of::<StoaHooksV1>(),
        ),
    }
}

const SLOTS: [Slot; 2] = [Slot::Descriptor, Slot::MoreHooks];

#[test]
fn the_headers_hook_fields_are_the_tables_in_its_order() {
    for slot in SLOTS {
        let c_struct = slot.c_struct();
        let in_header: Vec<String> = c_fields(c_struct)
            .into_iter()
            .filter(|f| f.ty == HOOK_TYPE)
            .map(|f| f.name)
            .collect();
        let in_table: Vec<&str> = slot.hooks().map(Hook::name).collect();
        let missing: Vec<&&str> = in_table
            .iter()
            .filter(|name| !in_header.iter().any(|h| h == **name))
            .collect();
        let unknown: Vec<&String> = in_header
            .iter()
            .filter(|h| !in_table.contains(&h.as_str()))
            .collect();
        assert!(
            missing.is_empty() && unknown.is_empty(),
            "{c_struct} in stoa_plugin.h lacks the hook fields {missing:?} of the hook table \
             (stoa_sdk::hook) and has the hook fields {unknown:?} the table does not know"
        );
        assert_eq!(
            in_header, in_table,
            "the hook fields of {c_struct} in stoa_plugin.h are not in the hook table's order"
        );
    }
}

#[test]
fn the_rust_mirror_has_the_headers_layout_byte_for_byte() {
    for slot in SLOTS {
        let c_struct = slot.c_struct();
        let (c_offsets, c_size) = c_layout(&c_fields(c_struct));
        let (rust_offsets, rust_size) = rust_layout(slot);
        let rust_offsets: Vec<(String, usize)> = rust_offsets
            .into_iter()
            .map(|(name, offset)| (name.to_string(), offset))
            .collect();
        assert_eq!(
            c_offsets, rust_offsets,
            "{c_struct}: fields and offsets of stoa_plugin.h, then of stoa_sdk::abi"
        );
        assert_eq!(c_size, rust_size, "the size of {c_struct}");
    }
    // The offsets the host reads an older plugin's StoaHooksV1 by.
    let (c_offsets, _) = c_layout(&c_fields(Slot::MoreHooks.c_struct()));
    for hook in Slot::MoreHooks.hooks() {
        let c_offset = c_offsets.iter().find(|(name, _)| name == hook.name());
        assert_eq!(
            StoaHooksV1::offset_of(hook),
            c_offset.map(|(_, offset)| *offset),
            "the offset of `{hook}` in StoaHooksV1"
        );
    }
}

#[test]
fn each_struct_comes_from_its_symbol() {
    for slot in SLOTS {
        let declaration = format!("const {} *{}(void);", slot.c_struct(), slot.symbol());
        assert!(
            HEADER.contains(&declaration),
            "stoa_plugin.h does not declare `{declaration}`"
        );
    }
}

/// When the table says `hook` is called, in the words of the docs: how
/// often, and whether in parallel, e.g. "once per chapter, in parallel".
fn when(hook: Hook, in_parallel: &str) -> String {
    let scope = hook.scope();
    let mut words = scope.phrase().to_string();
    if scope.in_parallel() {
        words.push_str(&format!(", {in_parallel}"));
    }
    words
}

#[test]
fn the_header_tells_when_each_hook_is_called() {
    for hook in Hook::ALL {
        let note = format!(" * {hook}, {}", when(hook, "in parallel"));
        let found = HEADER.lines().find(|line| line.starts_with(&note));
        let found = found
            .unwrap_or_else(|| panic!("stoa_plugin.h has no note on `{hook}` beginning `{note}`"));
        let rest = &found[note.len()..];
        assert!(
            !rest.starts_with(", in parallel"),
            "stoa_plugin.h calls `{hook}` in parallel; the table does not: {found}"
        );
    }
}

#[test]
fn the_guides_table_lists_every_hook_in_order() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/plugins.md");
    let guide = std::fs::read_to_string(path).expect("docs/plugins.md");
    let section = guide
        .split_once("## The hooks\n")
        .and_then(|(_, rest)| rest.split("\n## ").next())
        .expect("docs/plugins.md has a section `## The hooks`");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| `")).collect();
    let named: Vec<&str> = rows
        .iter()
        .filter_map(|row| row.split('`').nth(1))
        .collect();
    assert_eq!(
        named,
        Hook::ALL.map(Hook::name),
        "the hooks of the table in docs/plugins.md, then of the hook table"
    );
    for (row, hook) in rows.iter().zip(Hook::ALL) {
        let cell = format!("| `{hook}` | {}", when(hook, "**in parallel**"));
        assert!(
            row.starts_with(&cell) && !row[cell.len()..].starts_with(", **in parallel**"),
            "docs/plugins.md's row for `{hook}` should begin `{cell}`: {row}"
        );
    }
}

#[test]
fn the_wasm_layout_of_each_hook_field_is_the_headers_on_wasm32() {
    use stoa_sdk::abi::wasm;
    let pointer = (wasm::POINTER as usize, wasm::POINTER as usize);
    for slot in SLOTS {
        let (offsets, size) = c_layout_with(&c_fields(slot.c_struct()), pointer);
        assert_eq!(
            wasm::struct_size(slot) as usize,
            size,
            "the size of {} on wasm32",
            slot.c_struct()
        );
        for hook in slot.hooks() {
            let c_offset = offsets
                .iter()
                .find(|(name, _)| name == hook.name())
                .map(|(_, o)| *o);
            assert_eq!(
                Some(wasm::hook_offset(hook) as usize),
                c_offset,
                "the offset of `{hook}` in {} on wasm32",
                slot.c_struct()
            );
        }
    }
    for hook in Hook::ALL {
        assert_eq!(wasm::hook_export(hook), format!("stoa_{hook}"));
    }
}
