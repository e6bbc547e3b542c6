//! Plugins in a process of their own: the parent's side (start the child,
//! call a hook with a time limit, say how the child died) and the frames
//! both sides speak.
//!
//! A frame is a little-endian `u32` tag, a little-endian `u64` length and that
//! many bytes. The child first sends its hello: tag 0 and the descriptor as
//! JSON, or tag 1 and why the library would not load. Then the parent sends
//! requests (tag: the hook's [`Hook::tag`] in the SDK's hook table, e.g. 0
//! `transform`; bytes: the hook's JSON input, exactly as the C ABI takes
//! it) and the child answers each with the hook's status as tag and its
//! output bytes. The child ends when its input closes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use stoa_sdk::Hooks;
use stoa_sdk::hook::Hook;

/// How to run plugins in a child process: the program and its leading
/// arguments (the library's path is appended), and how long one hook call
/// may take before the child is killed. Made with [`Isolation::stoa`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Isolation {
    /// The program to start, normally the `stoa` executable itself.
    pub program: PathBuf,
    /// Arguments before the library's path, e.g. `["plugin-host"]`.
    pub args: Vec<OsString>,
    /// The longest one hook call may take.
    pub time_limit: Duration,
}

impl Isolation {
    /// `stoa plugin-host <library>` with `program` as `stoa`.
    pub fn stoa(program: PathBuf, time_limit: Duration) -> Isolation {
        Isolation {
            program,
            args: vec!["plugin-host".into()],
            time_limit,
        }
    }
}

/// What the child says it holds: the descriptor, and for each hook of the
/// table a field of its name, true when the plugin has it (absent from an
/// older child: it has not).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Hello {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) tree_version: u32,
    #[serde(flatten)]
    hooks: Map<String, Value>,
}

impl Hello {
    pub(crate) fn new(name: String, version: String, tree_version: u32, hooks: Hooks) -> Hello {
        let hooks = Hook::ALL
            .into_iter()
            .map(|hook| (hook.name().to_string(), Value::Bool(hooks.has(hook))))
            .collect();
        Hello {
            name,
            version,
            tree_version,
            hooks,
        }
    }

    pub(crate) fn hooks(&self) -> Hooks {
        Hooks::from_fn(|hook| self.hooks.get(hook.name()) == Some(&Value::Bool(true)))
    }
}

/// Tag of a hello that carries the descriptor, and of one that carries why
/// the library did not load.
pub(crate) const HELLO_OK: u32 = 0;
pub(crate) const HELLO_ERROR: u32 = 1;

/// The answer's tag when the hook returned a null buffer with a length:
/// no status of the C ABI, so the parent can say what happened.
pub(crate) const BAD_BUFFER: u32 = u32::MAX;

/// The most bytes one frame may announce: a bad length must not make the
/// reader allocate without bound.
const MAX_FRAME: u64 = 1 << 32;

/// Writes one frame.
pub(crate) fn write_frame(
    out: &mut (impl Write + ?Sized),
    tag: u32,
    bytes: &[u8],
) -> io::Result<()> {
    out.write_all(&tag.to_le_bytes())?;
    out.write_all(&(bytes.len() as u64).to_le_bytes())?;
    out.write_all(bytes)?;
    out.flush()
}

/// Writes a request for `hook`: its tag, then its JSON input.
pub(crate) fn write_request(
    out: &mut (impl Write + ?Sized),
    hook: Hook,
    input: &[u8],
) -> io::Result<()> {
    write_frame(out, hook.tag(), input)
}

/// Reads one frame; `None` when the input ends cleanly before it.
pub(crate) fn read_frame(input: &mut impl Read) -> io::Result<Option<(u32, Vec<u8>)>> {
    let mut tag = [0u8; 4];
    match input.read_exact(&mut tag) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let mut len = [0u8; 8];
    input.read_exact(&mut len)?;
    let len = u64::from_le_bytes(len);
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame of {len} bytes"),
        ));
    }
    let mut bytes = Vec::new();
    input.take(len).read_to_end(&mut bytes)?;
    if bytes.len() as u64 != len {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Some((u32::from_le_bytes(tag), bytes)))
}

/// A running child serving one plugin.
#[derive(Debug)]
pub(crate) struct Session {
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    stdout: ChildStdout,
    time_limit: Duration,
    /// Set when the watchdog killed the child at the deadline.
    timed_out: bool,
}

/// Starts a child for the library at `path` and reads its hello.
pub(crate) fn start(isolation: &Isolation, path: &Path) -> Result<(Session, Hello), String> {
    let mut child = Command::new(&isolation.program)
        .args(&isolation.args)
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", isolation.program.display()))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("its process has no pipes".to_string());
    };
    let mut session = Session {
        child: Arc::new(Mutex::new(child)),
        stdin,
        stdout,
        time_limit: isolation.time_limit,
        timed_out: false,
    };
    let hello = session.with_deadline("loading", |s| read_frame(&mut s.stdout));
    let hello = match hello {
        Ok(Some((HELLO_OK, bytes))) => serde_json::from_slice::<Hello>(&bytes)
            .map_err(|e| format!("its process sent an unreadable descriptor: {e}")),
        Ok(Some((HELLO_ERROR, bytes))) => Err(String::from_utf8_lossy(&bytes).into_owned()),
        Ok(Some((tag, _))) => Err(format!("its process sent an unknown greeting {tag}")),
        Ok(None) | Err(Died(_)) => Err(session.death("loading")),
    };
    hello.map(|hello| (session, hello))
}

/// The descriptor of the library at `path`, read by a child that ends next.
pub(crate) fn handshake(isolation: &Isolation, path: &Path) -> Result<Hello, String> {
    start(isolation, path).map(|(_session, hello)| hello)
}

/// The child stopped answering (it died, or was killed at the deadline).
pub(crate) struct Died(#[allow(dead_code)] io::Error);

impl Session {
    /// Calls `hook` with `input`: the status and output bytes, or why the
    /// child gave none (it died, exited or overran the time limit).
    pub(crate) fn call(&mut self, hook: Hook, input: &[u8]) -> Result<(i32, Vec<u8>), String> {
        let answer = self.with_deadline("call", |s| {
            write_request(&mut s.stdin, hook, input)?;
            read_frame(&mut s.stdout)
        });
        match answer {
            Ok(Some((status, bytes))) => Ok((status as i32, bytes)),
            Ok(None) | Err(Died(_)) => Err(self.death(&format!("`{hook}`"))),
        }
    }

    /// Runs `f` while a watchdog kills the child if `f` takes longer than
    /// the time limit (a pipe has no timeout of its own).
    fn with_deadline<T>(
        &mut self,
        _what: &str,
        f: impl FnOnce(&mut Session) -> io::Result<T>,
    ) -> Result<T, Died> {
        let (done, wait) = channel::<()>();
        let child = Arc::clone(&self.child);
        let limit = self.time_limit;
        let watchdog = std::thread::Builder::new()
            .name("stoa-plugin-watchdog".into())
            .spawn(move || {
                if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                    let mut child = child.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = child.kill();
                    return true;
                }
                false
            });
        let result = f(self);
        drop(done);
        if watchdog.ok().and_then(|w| w.join().ok()) == Some(true) {
            self.timed_out = true;
        }
        result.map_err(Died)
    }

    /// Why the child stopped answering, once it has ended.
    fn death(&mut self, when: &str) -> String {
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        // The pipe may close a moment before the process is gone: wait for it,
        // but never for a child that still runs with its output closed.
        let status = match child.try_wait() {
            Ok(Some(status)) => Some(status),
            _ => {
                let _ = child.kill();
                child.wait().ok()
            }
        };
        let limit = self.time_limit.as_secs_f64();
        match status {
            _ if self.timed_out => format!(
                "did not answer {when} within {limit} s and was stopped \
                 (it hangs, or needs a longer `time-limit`)"
            ),
            Some(status) => format!("its process {} in {when}", describe(status)),
            None => format!("its process stopped answering in {when}"),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
}

#[cfg(unix)]
fn killed_by(status: ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn killed_by(_status: ExitStatus) -> Option<i32> {
    None
}

/// "crashed (signal 11, SIGSEGV)", "exited with status 3".
fn describe(status: ExitStatus) -> String {
    if let Some(signal) = killed_by(status) {
        let name = match signal {
            4 => " (SIGILL)",
            6 => " (SIGABRT: the plugin aborted)",
            7 => " (SIGBUS)",
            8 => " (SIGFPE)",
            11 => " (SIGSEGV: the plugin touched memory it does not own)",
            _ => "",
        };
        return format!("crashed with signal {signal}{name}");
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "ended".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_refuse_absurd_lengths() {
        let mut buf = Vec::new();
        write_frame(&mut buf, 2, b"{\"a\":1}").unwrap();
        write_frame(&mut buf, 0, b"").unwrap();
        let mut input = buf.as_slice();
        assert_eq!(
            read_frame(&mut input).unwrap(),
            Some((2, b"{\"a\":1}".to_vec()))
        );
        assert_eq!(read_frame(&mut input).unwrap(), Some((0, Vec::new())));
        assert_eq!(read_frame(&mut input).unwrap(), None);
        let mut bad = Vec::new();
        bad.extend_from_slice(&0u32.to_le_bytes());
        bad.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(read_frame(&mut bad.as_slice()).is_err());
        let mut cut = Vec::new();
        write_frame(&mut cut, 1, b"abcdef").unwrap();
        cut.truncate(cut.len() - 2);
        assert!(read_frame(&mut cut.as_slice()).is_err());
    }

    #[test]
    fn a_hello_says_each_hook_of_the_table() {
        for hook in Hook::ALL {
            let hooks = Hooks::NONE.with(hook);
            let hello = Hello::new("p".into(), "1.0.0".into(), 1, hooks);
            let json = serde_json::to_vec(&hello).unwrap();
            let read: Hello = serde_json::from_slice(&json).unwrap();
            assert_eq!(read.hooks(), hooks, "{}", String::from_utf8_lossy(&json));
        }
        // From a child that predates `configure` and `source`.
        let old = r#"{"name": "p", "version": "1", "tree_version": 1,
            "transform": true, "finish": false, "styles": true}"#;
        let hello: Hello = serde_json::from_str(old).unwrap();
        assert_eq!(hello.hooks().names(), ["transform", "styles"]);
    }
}
