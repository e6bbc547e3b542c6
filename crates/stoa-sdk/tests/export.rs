//! The exported entry point, called as stoa calls it (through the descriptor's
//! function pointers), in-process: panics stay inside, buffers round-trip.
#![allow(unsafe_code)] // calling the C ABI is what this test is about

use serde_json::json;
use stoa_sdk::abi::{self, StoaBuffer, StoaPluginV1};
use stoa_sdk::wire::{self, FailureOutput, TransformOutput};
use stoa_sdk::{
    Block, Chapter, Configure, Context, Finish, Inline, ListItem, Plugin, PluginError, Transform,
};

#[derive(Default)]
struct Tester;

impl Plugin for Tester {
    const NAME: &'static str = "tester";
    const VERSION: &'static str = "1.2.3";
}

impl Configure for Tester {
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        match ctx.config().get("bad") {
            Some(_) => Err(PluginError::new("unknown key `bad`")),
            None => Ok(()),
        }
    }
}

impl Finish for Tester {
    fn finish(&self, _: &mut stoa_sdk::Book, _: &Context) -> Result<(), PluginError> {
        Ok(())
    }
}

impl Transform for Tester {
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        if ctx.config()["panic"] == true {
            panic!("told to panic in {}", chapter.slug);
        }
        chapter.title.push('!');
        Ok(())
    }
}

stoa_sdk::export_plugin!(Tester);

fn descriptor() -> &'static StoaPluginV1 {
    // SAFETY: the descriptor is a static of this test binary.
    unsafe { stoa_plugin_v1().as_ref() }.expect("descriptor")
}

/// Calls a hook like the host does and returns the status and output.
fn call(hook: abi::HookFn, input: &[u8]) -> (i32, Vec<u8>) {
    let d = descriptor();
    let mut out = StoaBuffer::EMPTY;
    // SAFETY: `input` is a live slice and `out` a writable buffer.
    let status = unsafe { hook(input.as_ptr(), input.len(), &mut out) };
    let bytes = if out.ptr.is_null() {
        Vec::new()
    } else {
        // SAFETY: the hook wrote `len` bytes at `ptr`, ours until freed.
        unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec()
    };
    // SAFETY: freed once, by the library that allocated it.
    unsafe { (d.free_buffer.unwrap())(out) };
    (status, bytes)
}

fn input(config: serde_json::Value, chapter: &Chapter) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"tree_version": stoa_sdk::TREE_VERSION, "config": config,
        "lang": "en", "book_id": "b", "chapter": chapter}),
    )
    .unwrap()
}

fn chapter(blocks: Vec<Block>) -> Chapter {
    Chapter {
        slug: "s".into(),
        title: "T".into(),
        blocks,
        ..Chapter::default()
    }
}

#[test]
fn the_descriptor_names_the_plugin_and_its_hooks() {
    let d = descriptor();
    assert_eq!(d.abi_version, abi::ABI_VERSION);
    let code = stoa_sdk::tree_version_code(stoa_sdk::TREE_VERSION, stoa_sdk::TREE_MINOR);
    assert_eq!(d.tree_version, code);
    assert_eq!(
        stoa_sdk::split_tree_version(d.tree_version),
        (stoa_sdk::TREE_VERSION, stoa_sdk::TREE_MINOR)
    );
    // SAFETY: NUL-terminated strings owned by the static descriptor.
    let name = unsafe { std::ffi::CStr::from_ptr(d.name) };
    assert_eq!(name.to_str().unwrap(), "tester");
    // The hooks it implements, and no other.
    assert!(d.transform.is_some() && d.finish.is_some() && d.styles.is_none());
    // SAFETY: a static of this test binary.
    let more = unsafe { stoa_plugin_hooks_v1().as_ref() }.expect("more hooks");
    assert_eq!(more.size as usize, std::mem::size_of::<abi::StoaHooksV1>());
    assert!(more.configure.is_some() && more.source.is_none());
    assert!(
        std::ptr::eq(d, descriptor()),
        "the same descriptor every time"
    );
}

#[test]
fn a_panic_in_a_hook_comes_back_as_a_status() {
    let (status, body) = call(
        descriptor().transform.unwrap(),
        &input(json!({"panic": true}), &chapter(vec![])),
    );
    assert_eq!(status, abi::STATUS_PANIC);
    let failure: FailureOutput = wire::from_slice(&body).unwrap();
    let message = &failure.diagnostics[0].message;
    assert!(
        message.contains("panicked in `transform`: told to panic in s"),
        "{message}"
    );
}

#[test]
fn configure_answers_with_the_settings_errors() {
    // SAFETY: a static of this test binary.
    let more = unsafe { stoa_plugin_hooks_v1().as_ref() }.unwrap();
    let input = |config: serde_json::Value| {
        serde_json::to_vec(
            &json!({"tree_version": stoa_sdk::TREE_VERSION, "config": config,
            "lang": "en", "book_id": "b"}),
        )
        .unwrap()
    };
    let (status, _) = call(more.configure.unwrap(), &input(json!({})));
    assert_eq!(status, abi::STATUS_OK);
    let (status, body) = call(more.configure.unwrap(), &input(json!({"bad": 1})));
    assert_eq!(status, abi::STATUS_ERROR);
    let failure: FailureOutput = wire::from_slice(&body).unwrap();
    assert_eq!(failure.diagnostics[0].message, "unknown key `bad`");
}

#[test]
fn garbage_input_is_refused_not_fatal() {
    let (status, _) = call(descriptor().finish.unwrap(), b"\xff not json");
    assert_eq!(status, abi::STATUS_BAD_INPUT);
}

#[test]
fn a_200_deep_tree_crosses_both_ways() {
    let mut blocks = vec![Block::Paragraph {
        content: vec![Inline::text("bottom")],
    }];
    for _ in 0..200 {
        let items = vec![ListItem {
            checked: None,
            blocks,
        }];
        blocks = vec![Block::List {
            start: None,
            tight: true,
            items,
        }];
    }
    let deep = chapter(blocks);
    let (status, body) = call(descriptor().transform.unwrap(), &input(json!({}), &deep));
    assert_eq!(status, abi::STATUS_OK, "{}", String::from_utf8_lossy(&body));
    let out: TransformOutput = wire::from_slice(&body).unwrap();
    assert_eq!(out.chapter.title, "T!");
    assert_eq!(out.chapter.blocks, deep.blocks);
}

#[test]
fn the_header_agrees_with_the_rust_side() {
    let header = include_str!("../include/stoa_plugin.h");
    for line in [
        format!("#define STOA_ABI_VERSION {}u", abi::ABI_VERSION),
        format!("#define STOA_TREE_MAJOR {}u", stoa_sdk::TREE_VERSION),
        format!("#define STOA_TREE_MINOR {}u", stoa_sdk::TREE_MINOR),
        // The packing of `tree_version_code`, spelled in C.
        "#define STOA_TREE_VERSION ((STOA_TREE_MINOR << 16) | STOA_TREE_MAJOR)".to_string(),
        format!("#define STOA_ENTRY_SYMBOL \"{}\"", abi::ENTRY_SYMBOL),
        format!("#define STOA_HOOKS_SYMBOL \"{}\"", abi::HOOKS_SYMBOL),
        format!("#define STOA_STATUS_OK {}", abi::STATUS_OK),
        format!("#define STOA_STATUS_ERROR {}", abi::STATUS_ERROR),
        format!("#define STOA_STATUS_PANIC {}", abi::STATUS_PANIC),
        format!("#define STOA_STATUS_BAD_INPUT {}", abi::STATUS_BAD_INPUT),
    ] {
        assert!(header.contains(&line), "stoa_plugin.h lacks `{line}`");
    }
}
