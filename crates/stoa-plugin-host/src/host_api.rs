//! The host API: stoa's functions lent to a plugin through the optional
//! symbol [`HOST_API_SYMBOL`], so that a plugin in C reads and changes a
//! chapter without parsing JSON (see `stoa_plugin.h`, "The host API").
//!
//! The plugin still receives and returns the ordinary `transform` JSON:
//! `chapter_open` reads the input into a [`Open`] chapter the host owns,
//! the plugin works on it through the table, and `chapter_finish` writes
//! the output. So nothing else in the host changes, an isolated plugin
//! (whose child process loads the library the same way) gets the same
//! table, and the answer is checked like any other.
//!
//! Every function catches panics (none should happen) and refuses null
//! pointers and invalid UTF-8 with -1 or null, never undefined behaviour
//! beyond what a C caller passing a dangling pointer brings on itself.

use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use stoa_sdk::abi::{
    HOST_API_SYMBOL, HOST_API_VERSION, HostApiEntryFn, STATUS_BAD_INPUT, STATUS_ERROR, STATUS_OK,
    STATUS_PANIC, StoaBuffer, StoaChapter, StoaHostApiV1,
};
use stoa_sdk::wire::{self, TransformInput, TransformOutput};
use stoa_sdk::{Block, Chapter, Inline, PluginDiagnostic, Severity, inlines_text};

/// The table handed to every plugin that asks for it.
pub(crate) static HOST_API: StoaHostApiV1 = StoaHostApiV1 {
    size: size_of::<StoaHostApiV1>() as u32,
    version: HOST_API_VERSION,
    chapter_open,
    chapter_finish,
    chapter_close,
    free_buffer,
    lang,
    config,
    block_count,
    block_kind,
    block_text,
    insert_markdown,
    insert_paragraph,
    insert_raw,
    remove_block,
    report,
};

/// Hands [`HOST_API`] to the library when it exports [`HOST_API_SYMBOL`].
pub(crate) fn offer(library: &libloading::Library) {
    // SAFETY: the header declares the symbol with exactly this type.
    if let Ok(symbol) = unsafe { library.get::<HostApiEntryFn>(HOST_API_SYMBOL.as_bytes()) } {
        // SAFETY: the table is static and valid for ever.
        unsafe { symbol(&HOST_API) };
    }
}

/// A chapter open in one `transform` call.
struct Open {
    chapter: Chapter,
    lang: CString,
    config: serde_json::Value,
    /// Strings handed out, kept until the chapter changes or closes.
    strings: Vec<CString>,
    diagnostics: Vec<PluginDiagnostic>,
}

fn guard<R>(failed: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(failed)
}

/// # Safety
/// `chapter` is null or came from `chapter_open` and is still open.
unsafe fn open_mut<'a>(chapter: *mut StoaChapter) -> Option<&'a mut Open> {
    // SAFETY: the caller's contract; null is refused.
    unsafe { chapter.cast::<Open>().as_mut() }
}

/// # Safety
/// As [`open_mut`].
unsafe fn open_ref<'a>(chapter: *const StoaChapter) -> Option<&'a Open> {
    // SAFETY: the caller's contract; null is refused.
    unsafe { chapter.cast::<Open>().as_ref() }
}

/// # Safety
/// `ptr` is null or points to `len` readable bytes.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Option<&'a [u8]> {
    if ptr.is_null() {
        return (len == 0).then_some(&[]);
    }
    // SAFETY: the caller's contract.
    Some(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// # Safety
/// `ptr` is null or a NUL-terminated string.
unsafe fn c_str<'a>(ptr: *const c_char) -> Option<&'a str> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(ptr) }.to_str().ok()
}

unsafe extern "C" fn chapter_open(input: *const u8, len: usize) -> *mut StoaChapter {
    guard(std::ptr::null_mut(), || {
        // SAFETY: the plugin passes transform's input as it got it.
        let Some(input) = (unsafe { bytes(input, len) }) else {
            return std::ptr::null_mut();
        };
        let read = wire::with_deep_stack(|| wire::from_slice::<TransformInput>(input));
        let Ok(input) = read else {
            return std::ptr::null_mut();
        };
        let open = Open {
            lang: CString::new(input.lang.as_ref()).unwrap_or_default(),
            config: input.config.into_owned(),
            chapter: input.chapter.into_owned(),
            strings: Vec::new(),
            diagnostics: Vec::new(),
        };
        Box::into_raw(Box::new(open)).cast()
    })
}

unsafe extern "C" fn chapter_finish(chapter: *mut StoaChapter, output: *mut StoaBuffer) -> i32 {
    guard(STATUS_PANIC, || {
        if chapter.is_null() || output.is_null() {
            return STATUS_BAD_INPUT;
        }
        // SAFETY: from chapter_open, and this is its end.
        let open = unsafe { Box::from_raw(chapter.cast::<Open>()) };
        let failed = open
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
        let chapter = std::borrow::Cow::Borrowed(&open.chapter);
        let answer = TransformOutput::new(chapter, open.diagnostics.clone());
        let Ok(bytes) = wire::with_deep_stack(|| wire::to_vec(&answer)) else {
            return STATUS_PANIC;
        };
        let mut bytes = bytes.into_boxed_slice();
        let buffer = StoaBuffer {
            ptr: bytes.as_mut_ptr(),
            len: bytes.len(),
        };
        std::mem::forget(bytes);
        // SAFETY: checked non-null; the plugin's output slot.
        unsafe { output.write(buffer) };
        if failed { STATUS_ERROR } else { STATUS_OK }
    })
}

unsafe extern "C" fn chapter_close(chapter: *mut StoaChapter) {
    guard((), || {
        if !chapter.is_null() {
            // SAFETY: from chapter_open, and this is its end.
            drop(unsafe { Box::from_raw(chapter.cast::<Open>()) });
        }
    })
}

unsafe extern "C" fn free_buffer(buffer: StoaBuffer) {
    guard((), || {
        if !buffer.ptr.is_null() {
            // SAFETY: written by chapter_finish as a boxed slice of this length.
            drop(unsafe {
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(buffer.ptr, buffer.len))
            });
        }
    })
}

unsafe extern "C" fn lang(chapter: *const StoaChapter) -> *const c_char {
    guard(std::ptr::null(), || {
        // SAFETY: an open chapter or null.
        unsafe { open_ref(chapter) }.map_or(std::ptr::null(), |o| o.lang.as_ptr())
    })
}

/// Keeps `text` for as long as the chapter is unchanged and returns it.
fn hand_out(open: &mut Open, text: String) -> (*const c_char, usize) {
    // An inner NUL would cut the string short in C: it becomes a space.
    let text = CString::new(text.replace('\0', " ")).unwrap_or_default();
    let len = text.as_bytes().len();
    let ptr = text.as_ptr();
    open.strings.push(text);
    (ptr, len)
}

unsafe extern "C" fn config(chapter: *mut StoaChapter, key: *const c_char) -> *const c_char {
    guard(std::ptr::null(), || {
        // SAFETY: an open chapter or null; a string or null.
        let (Some(open), Some(key)) = (unsafe { open_mut(chapter) }, unsafe { c_str(key) }) else {
            return std::ptr::null();
        };
        let text = match open.config.get(key) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => v.to_string(),
            _ => return std::ptr::null(),
        };
        hand_out(open, text).0
    })
}

unsafe extern "C" fn block_count(chapter: *const StoaChapter) -> usize {
    // SAFETY: an open chapter or null.
    guard(0, || {
        unsafe { open_ref(chapter) }.map_or(0, |o| o.chapter.blocks.len())
    })
}

/// The wire name of a block's kind, NUL-terminated.
pub(crate) fn kind_of(block: &Block) -> &'static CStr {
    match block {
        Block::Heading { .. } => c"heading",
        Block::Paragraph { .. } => c"paragraph",
        Block::List { .. } => c"list",
        Block::Quote { .. } => c"quote",
        Block::Code { .. } => c"code",
        Block::Table { .. } => c"table",
        Block::Rule => c"rule",
        Block::FootnoteDef { .. } => c"footnote_def",
        Block::Div { .. } => c"div",
        Block::Raw { .. } => c"raw",
    }
}

unsafe extern "C" fn block_kind(chapter: *const StoaChapter, index: usize) -> *const c_char {
    guard(std::ptr::null(), || {
        // SAFETY: an open chapter or null.
        let block = unsafe { open_ref(chapter) }.and_then(|o| o.chapter.blocks.get(index));
        block.map_or(std::ptr::null(), |b| kind_of(b).as_ptr())
    })
}

/// The words of a block and of all it holds, runs joined by spaces.
pub(crate) fn text_of(block: &Block) -> String {
    let mut parts = Vec::new();
    stoa_sdk::for_each_block(std::slice::from_ref(block), &mut |b| {
        if let Block::Code { text, .. } = b {
            parts.push(text.clone());
        }
        for run in b.inline_runs() {
            parts.push(inlines_text(run));
        }
    });
    parts.retain(|p| !p.trim().is_empty());
    parts.join(" ")
}

unsafe extern "C" fn block_text(
    chapter: *mut StoaChapter,
    index: usize,
    len: *mut usize,
) -> *const c_char {
    guard(std::ptr::null(), || {
        // SAFETY: an open chapter or null.
        let Some(open) = (unsafe { open_mut(chapter) }) else {
            return std::ptr::null();
        };
        let Some(text) = open.chapter.blocks.get(index).map(text_of) else {
            return std::ptr::null();
        };
        let (ptr, n) = hand_out(open, text);
        if !len.is_null() {
            // SAFETY: the plugin's slot, checked non-null.
            unsafe { len.write(n) };
        }
        ptr
    })
}

/// Puts `blocks` before block `index`; -1 when past the end.
fn insert(open: &mut Open, index: usize, blocks: Vec<Block>) -> i32 {
    if index > open.chapter.blocks.len() {
        return -1;
    }
    open.strings.clear();
    open.chapter.blocks.splice(index..index, blocks);
    0
}

/// # Safety
/// As [`bytes`]; the result must be UTF-8.
unsafe fn utf8<'a>(ptr: *const u8, len: usize) -> Option<&'a str> {
    // SAFETY: the caller's contract.
    std::str::from_utf8(unsafe { bytes(ptr, len) }?).ok()
}

unsafe extern "C" fn insert_markdown(
    chapter: *mut StoaChapter,
    index: usize,
    markdown: *const u8,
    len: usize,
) -> i32 {
    guard(-1, || {
        // SAFETY: an open chapter or null; the plugin's bytes.
        let (Some(open), Some(markdown)) =
            (unsafe { open_mut(chapter) }, unsafe { utf8(markdown, len) })
        else {
            return -1;
        };
        let parsed = stoa_markdown::parse(markdown, 1);
        if !parsed.images.is_empty() {
            return -1;
        }
        insert(open, index, parsed.blocks)
    })
}

unsafe extern "C" fn insert_paragraph(
    chapter: *mut StoaChapter,
    index: usize,
    class: *const c_char,
    text: *const u8,
    len: usize,
) -> i32 {
    guard(-1, || {
        // SAFETY: an open chapter or null; the plugin's bytes.
        let (Some(open), Some(text)) = (unsafe { open_mut(chapter) }, unsafe { utf8(text, len) })
        else {
            return -1;
        };
        let paragraph = Block::Paragraph {
            content: vec![Inline::text(text)],
        };
        // SAFETY: a string or null.
        let block = match unsafe { c_str(class) } {
            Some(class) => stoa_sdk::div(class, vec![paragraph]),
            None if class.is_null() => paragraph,
            None => return -1,
        };
        insert(open, index, vec![block])
    })
}

unsafe extern "C" fn insert_raw(
    chapter: *mut StoaChapter,
    index: usize,
    format: *const c_char,
    payload: *const u8,
    len: usize,
) -> i32 {
    guard(-1, || {
        // SAFETY: an open chapter or null; a string; the plugin's bytes.
        let (Some(open), Some(format), Some(payload)) = (
            unsafe { open_mut(chapter) },
            unsafe { c_str(format) },
            unsafe { utf8(payload, len) },
        ) else {
            return -1;
        };
        insert(open, index, vec![Block::raw(format, payload)])
    })
}

unsafe extern "C" fn remove_block(chapter: *mut StoaChapter, index: usize) -> i32 {
    guard(-1, || {
        // SAFETY: an open chapter or null.
        let Some(open) = (unsafe { open_mut(chapter) }) else {
            return -1;
        };
        if index >= open.chapter.blocks.len() {
            return -1;
        }
        open.strings.clear();
        open.chapter.blocks.remove(index);
        0
    })
}

unsafe extern "C" fn report(chapter: *mut StoaChapter, severity: i32, message: *const c_char) {
    guard((), || {
        // SAFETY: an open chapter or null; a string or null.
        let (Some(open), Some(message)) = (unsafe { open_mut(chapter) }, unsafe { c_str(message) })
        else {
            return;
        };
        open.diagnostics.push(if severity == 1 {
            PluginDiagnostic::error(message)
        } else {
            PluginDiagnostic::warning(message)
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input() -> Vec<u8> {
        let chapter = Chapter {
            slug: "a".into(),
            blocks: vec![
                Block::Paragraph {
                    content: vec![Inline::text("one two")],
                },
                Block::Quote {
                    blocks: vec![Block::Paragraph {
                        content: vec![Inline::text("three")],
                    }],
                },
            ],
            ..Chapter::default()
        };
        serde_json::to_vec(&json!({
            "tree_version": 1, "tree_minor": 2, "config": {"wpm": 200, "label": "min"},
            "lang": "en", "book_id": "b", "chapter": chapter,
        }))
        .unwrap()
    }

    #[test]
    fn a_chapter_is_read_changed_and_answered() {
        let api = &HOST_API;
        let bytes = input();
        unsafe {
            let ch = (api.chapter_open)(bytes.as_ptr(), bytes.len());
            assert!(!ch.is_null());
            assert_eq!((api.block_count)(ch), 2);
            assert_eq!(CStr::from_ptr((api.block_kind)(ch, 1)), c"quote");
            assert!((api.block_kind)(ch, 2).is_null());
            let mut len = 0;
            let text = (api.block_text)(ch, 1, &mut len);
            assert_eq!((CStr::from_ptr(text), len), (c"three", 5));
            assert_eq!(CStr::from_ptr((api.config)(ch, c"wpm".as_ptr())), c"200");
            assert!((api.config)(ch, c"nope".as_ptr()).is_null());
            assert_eq!(CStr::from_ptr((api.lang)(ch)), c"en");
            let md = "*Hi* <script>x</script>";
            assert_eq!((api.insert_markdown)(ch, 2, md.as_ptr(), md.len()), 0);
            let t = "a <b> & #c";
            assert_eq!(
                (api.insert_paragraph)(ch, 0, c"note".as_ptr(), t.as_ptr(), t.len()),
                0
            );
            assert_eq!(
                (api.insert_paragraph)(ch, 9, std::ptr::null(), t.as_ptr(), t.len()),
                -1
            );
            assert_eq!((api.remove_block)(ch, 1), 0);
            let img = "![x](a.png)";
            assert_eq!((api.insert_markdown)(ch, 0, img.as_ptr(), img.len()), -1);
            (api.report)(ch, 0, c"careful".as_ptr());
            let mut out = StoaBuffer::EMPTY;
            assert_eq!((api.chapter_finish)(ch, &mut out), STATUS_OK);
            let answer: TransformOutput =
                serde_json::from_slice(std::slice::from_raw_parts(out.ptr, out.len)).unwrap();
            (api.free_buffer)(out);
            let blocks = &answer.chapter.blocks;
            assert_eq!(blocks.len(), 3, "{blocks:?}");
            assert_eq!(
                blocks[0],
                stoa_sdk::div(
                    "note",
                    vec![Block::Paragraph {
                        content: vec![Inline::text(t)]
                    }]
                )
            );
            assert!(matches!(blocks[1], Block::Quote { .. }));
            assert!(
                matches!(&blocks[2], Block::Paragraph { content } if matches!(content[0], Inline::Emph { .. }))
            );
            assert_eq!(answer.diagnostics[0].message, "careful");
        }
    }

    #[test]
    fn the_sdk_offers_the_escaping_helpers_the_guide_names() {
        assert_eq!(stoa_sdk::escape::xhtml("<a>"), "&lt;a&gt;");
        assert_eq!(stoa_sdk::escape::typst_string("\""), "\"\\\"\"");
    }

    #[test]
    fn bad_input_and_null_pointers_are_refused() {
        let api = &HOST_API;
        unsafe {
            assert!((api.chapter_open)(b"{".as_ptr(), 1).is_null());
            assert!((api.chapter_open)(std::ptr::null(), 3).is_null());
            let null = std::ptr::null_mut();
            assert_eq!((api.block_count)(null), 0);
            assert!((api.block_text)(null, 0, std::ptr::null_mut()).is_null());
            assert_eq!((api.remove_block)(null, 0), -1);
            (api.chapter_close)(null);
            let bytes = input();
            let ch = (api.chapter_open)(bytes.as_ptr(), bytes.len());
            (api.report)(ch, 1, c"bad".as_ptr());
            let mut out = StoaBuffer::EMPTY;
            assert_eq!((api.chapter_finish)(ch, &mut out), STATUS_ERROR);
            (api.free_buffer)(out);
        }
    }
}
