//! The child's side of an isolated plugin: load the library, say what it
//! holds, then answer hook calls read from standard input until it closes.

use crate::ffi;
use crate::isolate::{BAD_BUFFER, HELLO_ERROR, HELLO_OK, Hello, Hook, read_frame, write_frame};
use std::io::{self, Write};
use std::path::Path;
use stoa_sdk::abi::STATUS_BAD_INPUT;
use stoa_sdk::builtin::BuiltinPlugin;
use stoa_sdk::wire;

/// Serves the plugin library at `path` over standard input and output, for
/// a parent that called [`crate::load_isolated`]; what `stoa plugin-host
/// <library>` runs. Returns the process's exit status: 0 when the parent
/// closed the input, 1 when the library would not load or a pipe failed.
///
/// The plugin's own writes to standard output go to standard error, so that
/// they never mix with the answers.
pub fn serve_isolated(path: &Path) -> i32 {
    let Some(mut out) = start() else {
        return 1;
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let raw = match ffi::open(path) {
        Ok(raw) => raw,
        Err(e) => {
            let why = crate::load::open_error(&name, path, e).to_string();
            let _ = write_frame(&mut out, HELLO_ERROR, why.as_bytes());
            return 1;
        }
    };
    let hello = Hello {
        name: raw.name.clone(),
        version: raw.version.clone(),
        tree_version: raw.tree_version,
        transform: raw.transform.is_some(),
        finish: raw.finish.is_some(),
        styles: raw.styles.is_some(),
        configure: raw.configure.is_some(),
        source: raw.source.is_some(),
    };
    if !say_hello(&mut out, &hello) {
        return 1;
    }
    let call = |hook: Hook, out: &mut dyn Write, bytes: &[u8]| {
        let function = match hook {
            Hook::Transform => raw.transform,
            Hook::Finish => raw.finish,
            Hook::Styles => raw.styles,
            Hook::Configure => raw.configure,
            Hook::Source => raw.source,
        };
        let Some(function) = function else {
            return write_frame(out, STATUS_BAD_INPUT as u32, b"");
        };
        wire::with_deep_stack(|| {
            let (status, output) = raw.call(function, bytes);
            match output.bytes() {
                Ok(answer) => write_frame(out, status as u32, answer),
                Err(_) => write_frame(out, BAD_BUFFER, b""),
            }
        })
    };
    match answer_calls(call, &mut io::stdin().lock(), &mut out) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// Ends with the parent process and takes the channel to it; `None`
/// (said on standard error) when the channel cannot be set up.
fn start() -> Option<impl Write> {
    ffi::follow_parent();
    match ffi::protocol_output() {
        Ok(out) => Some(out),
        Err(e) => {
            eprintln!("stoa plugin-host: cannot set up its output: {e}");
            None
        }
    }
}

/// Sends the plugin's description; whether the parent got it.
fn say_hello(out: &mut impl Write, hello: &Hello) -> bool {
    let hello = serde_json::to_vec(hello).unwrap_or_default();
    write_frame(out, HELLO_OK, &hello).is_ok()
}

/// Serves a plugin built into stoa over standard input and output, as
/// [`serve_isolated`] serves a library: what `stoa plugin-host --builtin
/// <name>` runs for a built-in plugin whose table says `isolate = true`.
pub fn serve_builtin(plugin: &BuiltinPlugin) -> i32 {
    let Some(mut out) = start() else {
        return 1;
    };
    let hooks = plugin.hooks();
    let hello = Hello {
        name: plugin.name().to_string(),
        version: plugin.version().to_string(),
        tree_version: plugin.tree_version(),
        transform: hooks.transform,
        finish: hooks.finish,
        styles: hooks.styles,
        configure: hooks.configure,
        source: hooks.source,
    };
    if !say_hello(&mut out, &hello) {
        return 1;
    }
    let call = |hook: Hook, out: &mut dyn Write, bytes: &[u8]| {
        let (status, answer) = match hook {
            Hook::Transform if hooks.transform => plugin.transform(bytes),
            Hook::Finish if hooks.finish => plugin.finish(bytes),
            Hook::Styles if hooks.styles => plugin.styles(bytes),
            Hook::Configure if hooks.configure => plugin.configure(bytes),
            Hook::Source if hooks.source => plugin.source(bytes),
            _ => return write_frame(out, STATUS_BAD_INPUT as u32, b""),
        };
        write_frame(out, status as u32, &answer)
    };
    match answer_calls(call, &mut io::stdin().lock(), &mut out) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// Answers each request read from `input` with `call`, until it closes.
fn answer_calls<W: Write>(
    call: impl Fn(Hook, &mut dyn Write, &[u8]) -> io::Result<()>,
    input: &mut impl io::Read,
    out: &mut W,
) -> io::Result<()> {
    while let Some((tag, bytes)) = read_frame(input)? {
        match Hook::from_tag(tag) {
            Some(hook) => call(hook, out, &bytes)?,
            None => write_frame(out, STATUS_BAD_INPUT as u32, b"")?,
        }
    }
    Ok(())
}
