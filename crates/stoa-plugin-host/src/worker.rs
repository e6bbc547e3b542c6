//! The child's side of an isolated plugin: load the library, say what it
//! holds, then answer hook calls read from standard input until it closes.

use crate::ffi;
use crate::isolate::{BAD_BUFFER, HELLO_ERROR, HELLO_OK, Hello, read_frame, write_frame};
use std::io::{self, Write};
use std::path::Path;
use stoa_sdk::abi::STATUS_BAD_INPUT;
use stoa_sdk::builtin::BuiltinPlugin;
use stoa_sdk::hook::Hook;
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
    if crate::search::is_wasm(path) {
        return serve_wasm(&name, path, out);
    }
    let raw = match ffi::open(path) {
        Ok(raw) => raw,
        Err(e) => {
            let why = crate::load::open_error(&name, path, e).to_string();
            let _ = write_frame(&mut out, HELLO_ERROR, why.as_bytes());
            return 1;
        }
    };
    let hello = Hello::new(
        raw.name.clone(),
        raw.version.clone(),
        raw.tree_version,
        raw.provides(),
    );
    if !say_hello(&mut out, &hello) {
        return 1;
    }
    let call = |hook: Hook, out: &mut dyn Write, bytes: &[u8]| {
        let Some(function) = raw.hook(hook) else {
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

/// [`serve_isolated`] for a WebAssembly plugin (`isolate = true` on a
/// `.wasm`): the parent's watchdog keeps the time, the default budget the
/// rest; a trap is answered as a crash of the hook.
fn serve_wasm(name: &str, path: &Path, mut out: impl Write) -> i32 {
    let module = match crate::wasm::open(path) {
        Ok(module) => module,
        Err(e) => {
            let why = crate::load::wasm_open_error(name, path, e).to_string();
            let _ = write_frame(&mut out, HELLO_ERROR, why.as_bytes());
            return 1;
        }
    };
    let hello = Hello::new(
        module.name.clone(),
        module.version.clone(),
        module.tree_version,
        module.provides(),
    );
    if !say_hello(&mut out, &hello) {
        return 1;
    }
    let limits = crate::wasm::WasmLimits::default();
    let call =
        |hook: Hook, out: &mut dyn Write, bytes: &[u8]| match module.call(hook, bytes, &limits) {
            Ok((status, answer)) => write_frame(out, status as u32, &answer),
            Err(failure) => {
                let d = stoa_sdk::PluginDiagnostic::error(format!("{failure} in `{hook}`"));
                let body = wire::to_vec(&wire::FailureOutput::new(vec![d])).unwrap_or_default();
                write_frame(out, stoa_sdk::abi::STATUS_PANIC as u32, &body)
            }
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
    let hello = Hello::new(
        plugin.name().to_string(),
        plugin.version().to_string(),
        plugin.tree_version(),
        plugin.hooks(),
    );
    if !say_hello(&mut out, &hello) {
        return 1;
    }
    let call = |hook, out: &mut dyn Write, bytes: &[u8]| answer_builtin(plugin, hook, out, bytes);
    match answer_calls(call, &mut io::stdin().lock(), &mut out) {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// Answers one request for `hook` of a built-in plugin (one it lacks with
/// `STATUS_BAD_INPUT`, as its exported library would).
fn answer_builtin(
    plugin: &BuiltinPlugin,
    hook: Hook,
    out: &mut dyn Write,
    bytes: &[u8],
) -> io::Result<()> {
    let (status, answer) = plugin.call(hook, bytes);
    write_frame(out, status as u32, &answer)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isolate::write_request;
    use stoa_sdk::Plugin;
    use stoa_sdk::abi::STATUS_PANIC;
    use stoa_sdk::testing::{Everything, any_input};
    use stoa_sdk::wire::FailureOutput;

    #[test]
    fn the_worker_round_trips_every_hook_tag() {
        // The parent's requests, one per hook of the table, then a tag no
        // hook has.
        let mut requests = Vec::new();
        for hook in Hook::ALL {
            write_request(&mut requests, hook, &any_input()).unwrap();
        }
        write_frame(&mut requests, Hook::COUNT as u32, b"{}").unwrap();
        let plugin = stoa_sdk::builtin_plugin!(Everything);
        let call =
            |hook, out: &mut dyn Write, bytes: &[u8]| answer_builtin(&plugin, hook, out, bytes);
        let mut answers = Vec::new();
        answer_calls(call, &mut requests.as_slice(), &mut answers).unwrap();
        let mut answers = answers.as_slice();
        for hook in Hook::ALL {
            let (status, body) = read_frame(&mut answers).unwrap().expect("an answer");
            assert_eq!(status, STATUS_PANIC as u32, "{hook}");
            let failure: FailureOutput = wire::from_slice(&body).unwrap();
            let expected = format!("panicked in `{hook}`: `{hook}` was called");
            assert_eq!(failure.diagnostics[0].message, expected);
        }
        let unknown = read_frame(&mut answers).unwrap();
        assert_eq!(unknown, Some((STATUS_BAD_INPUT as u32, Vec::new())));
        assert_eq!(read_frame(&mut answers).unwrap(), None);
    }

    #[test]
    fn a_hook_the_builtin_lacks_is_refused() {
        let plugin = stoa_sdk::builtin_plugin!(Lacking);
        let mut out = Vec::new();
        answer_builtin(&plugin, Hook::Finish, &mut out, &any_input()).unwrap();
        let answer = read_frame(&mut out.as_slice()).unwrap();
        assert_eq!(answer, Some((STATUS_BAD_INPUT as u32, Vec::new())));
    }

    /// Has no hook at all.
    #[derive(Default)]
    struct Lacking;

    impl Plugin for Lacking {
        const NAME: &'static str = "lacking";
        const VERSION: &'static str = "0.0.1";
    }
}
