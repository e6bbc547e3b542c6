//! The live preview of `stoa serve --watch`: a channel of server-sent events
//! (`/.stoa/events`) that the watch loop feeds after every build ("these
//! files changed", "the build failed: file, line, message"), and the small
//! script injected into served pages that reloads a page when its own files
//! changed (keeping the scroll position) and shows a failed build's errors
//! over it. Nothing polls the disk: the builder pushes.
//!
//! Each stream has a thread, as every connection does, but never pins it:
//! a heartbeat every few seconds finds clients that went away, a write
//! timeout drops one that stopped reading, a stream ends after a while (the
//! browser reconnects and, through `Last-Event-ID`, misses nothing), and the
//! number of streams is capped.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::TcpStream;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::response::Response;

/// The path of the event stream. Served files never start with a dot, so it
/// cannot hide one.
pub const EVENTS_PATH: &str = "/.stoa/events";

/// Builds remembered for streams that reconnect.
const HISTORY: usize = 64;
/// More changed files than this in one build are sent as "everything".
const MAX_LISTED: usize = 2000;
/// How often an idle stream sends a comment, to find clients that left.
const HEARTBEAT: Duration = Duration::from_secs(15);
/// How long one write to a stream may block: a client that stops reading
/// is dropped after this.
const STREAM_WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a stream lasts before the browser is asked to reconnect.
const STREAM_LIFETIME: Duration = Duration::from_secs(600);
/// Default cap on open streams (one per open tab).
const DEFAULT_MAX_STREAMS: usize = 16;

/// One error of a failed build, as the overlay shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveError {
    /// The file, as the user would type it.
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
}

/// The reload channel: cheap to clone, shared by the watch loop (which
/// publishes) and the server (which streams).
#[derive(Clone, Debug)]
pub struct Live {
    hub: Arc<Hub>,
}

#[derive(Debug)]
struct Hub {
    state: Mutex<State>,
    changed: Condvar,
    max_streams: usize,
}

#[derive(Debug, Default)]
struct State {
    generation: u64,
    /// The last builds' events, oldest first, with their generation.
    history: VecDeque<(u64, Arc<str>)>,
    /// The last build's errors, as JSON.
    errors: Arc<str>,
    ok: bool,
    streams: usize,
    closed: bool,
}

impl Default for Live {
    fn default() -> Self {
        Live::new()
    }
}

impl Live {
    /// A channel with no build published yet.
    pub fn new() -> Live {
        Live::with_max_streams(DEFAULT_MAX_STREAMS)
    }

    /// A channel that serves at most `max` streams at once; more are
    /// answered 503 (the page's script tries again a little later).
    pub fn with_max_streams(max: usize) -> Live {
        Live {
            hub: Arc::new(Hub {
                state: Mutex::new(State {
                    errors: "[]".into(),
                    ok: true,
                    ..State::default()
                }),
                changed: Condvar::new(),
                max_streams: max,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.hub.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells every open page what a build did: `changed` are the files it
    /// changed, relative to the served folder (`book/en/a.html`); `errors`
    /// are why it failed (empty when it succeeded).
    pub fn publish(&self, changed: &[String], errors: &[LiveError]) {
        let mut state = self.state();
        state.generation += 1;
        state.ok = errors.is_empty();
        state.errors = errors_json(errors).into();
        let all = changed.len() > MAX_LISTED;
        let listed: &[String] = if all { &[] } else { changed };
        let data = event_json(state.generation, state.ok, all, listed, &state.errors);
        let generation = state.generation;
        state.history.push_back((generation, data.into()));
        while state.history.len() > HISTORY {
            state.history.pop_front();
        }
        drop(state);
        self.hub.changed.notify_all();
    }

    /// How many builds were published.
    pub fn generation(&self) -> u64 {
        self.state().generation
    }

    /// Ends every stream (the server is stopping).
    pub fn close(&self) {
        self.state().closed = true;
        self.hub.changed.notify_all();
    }

    /// Open streams.
    pub fn streams(&self) -> usize {
        self.state().streams
    }

    /// The script injected into served pages, for a page of this generation.
    pub fn script(&self) -> String {
        script(self.generation())
    }

    /// Takes a place for a stream, if one is free.
    fn join(&self) -> Option<Place<'_>> {
        let mut state = self.state();
        if state.closed || state.streams >= self.hub.max_streams {
            return None;
        }
        state.streams += 1;
        Some(Place { live: self })
    }

    /// What a stream that has seen `since` must be sent now, and the
    /// generation it has then seen; `None` when the channel is closed.
    /// Waits until there is something, or `wait` passed (then nothing).
    fn next_for(&self, since: u64, wait: Duration) -> Option<(Vec<Frame>, u64)> {
        let mut state = self.state();
        let deadline = Instant::now() + wait;
        while !state.closed && state.generation <= since {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Some((Vec::new(), since));
            }
            state = self
                .hub
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        if state.closed {
            return None;
        }
        Some((frames_since(&state, since), state.generation))
    }

    /// What a newly connected stream is sent first: the builds it missed
    /// (none when it is up to date), else the state of the last build, so
    /// that a page opened while the build is broken shows the errors.
    fn greeting(&self, since: Option<u64>) -> (Vec<Frame>, u64) {
        let state = self.state();
        let generation = state.generation;
        match since {
            Some(since) if since < generation => (frames_since(&state, since), generation),
            _ => {
                let data = event_json(generation, state.ok, false, &[], &state.errors);
                (
                    vec![Frame {
                        id: generation,
                        data,
                    }],
                    generation,
                )
            }
        }
    }
}

/// A stream's place under the cap, given back when the stream ends.
struct Place<'a> {
    live: &'a Live,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        let mut state = self.live.state();
        state.streams = state.streams.saturating_sub(1);
    }
}

/// One `build` event to send.
#[derive(Debug, PartialEq, Eq)]
struct Frame {
    id: u64,
    data: String,
}

/// The events after `since`; when the history no longer reaches back that
/// far, one event saying that everything changed.
fn frames_since(state: &State, since: u64) -> Vec<Frame> {
    let oldest = state.history.front().map_or(u64::MAX, |(g, _)| *g);
    if since + 1 < oldest {
        let data = event_json(state.generation, state.ok, true, &[], &state.errors);
        return vec![Frame {
            id: state.generation,
            data,
        }];
    }
    state
        .history
        .iter()
        .filter(|(g, _)| *g > since)
        .map(|(g, data)| Frame {
            id: *g,
            data: data.to_string(),
        })
        .collect()
}

/// Serves the event stream on `stream` for a client that has seen the
/// builds up to `since`, until the client leaves, stops reading, the
/// stream's lifetime ends, or the server stops. The stream is delimited by
/// the connection's close, which is for the caller to do. When the cap on
/// streams is reached, returns the 503 to answer instead. `log` is told the
/// status.
pub(crate) fn serve_events(
    stream: &TcpStream,
    live: &Live,
    since: Option<u64>,
    head_only: bool,
    log: &dyn Fn(u16),
) -> Option<Response> {
    let Some(_place) = live.join() else {
        log(503);
        return Some(Response::busy());
    };
    log(200);
    stream_events(stream, live, since, head_only);
    None
}

fn stream_events(stream: &TcpStream, live: &Live, since: Option<u64>, head_only: bool) {
    let _ = stream.set_write_timeout(Some(STREAM_WRITE_TIMEOUT));
    let mut out = stream;
    let head = "HTTP/1.1 200 OK\r\nServer: stoa\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n\
                Connection: close\r\n\r\n";
    if out.write_all(head.as_bytes()).is_err() || head_only {
        return;
    }
    let started = Instant::now();
    let (frames, mut seen) = live.greeting(since);
    // `retry`: how soon the browser reconnects after the stream ends.
    if send(&mut out, "retry: 1000\n\n", &frames).is_err() {
        return;
    }
    while started.elapsed() < STREAM_LIFETIME {
        let Some((frames, now_seen)) = live.next_for(seen, HEARTBEAT) else {
            return;
        };
        seen = now_seen;
        let heartbeat = if frames.is_empty() { ": ping\n\n" } else { "" };
        if send(&mut out, heartbeat, &frames).is_err() {
            return;
        }
    }
}

fn send(out: &mut &TcpStream, prefix: &str, frames: &[Frame]) -> io::Result<()> {
    let mut text = String::from(prefix);
    for f in frames {
        text.push_str(&frame(Some(f.id), "build", &f.data));
    }
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// One server-sent event (the HTML standard's `text/event-stream`): each
/// line of `data` on a `data:` line of its own (a bare CR or LF would end
/// the field), then an empty line.
pub fn frame(id: Option<u64>, event: &str, data: &str) -> String {
    let mut text = String::new();
    if let Some(id) = id {
        text.push_str(&format!("id: {id}\n"));
    }
    text.push_str(&format!("event: {event}\n"));
    for line in data.split("\r\n").flat_map(|l| l.split(['\r', '\n'])) {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    text
}

fn event_json(generation: u64, ok: bool, all: bool, changed: &[String], errors: &str) -> String {
    let changed: Vec<String> = changed
        .iter()
        .map(|c| json_string(&format!("/{}", c.trim_start_matches('/'))))
        .collect();
    format!(
        "{{\"generation\":{generation},\"ok\":{ok},\"all\":{all},\"changed\":[{}],\"errors\":{errors}}}",
        changed.join(",")
    )
}

fn errors_json(errors: &[LiveError]) -> String {
    let items: Vec<String> = errors
        .iter()
        .map(|e| {
            let opt_str = |s: &Option<String>| s.as_deref().map_or("null".into(), json_string);
            let opt_num = |n: Option<usize>| n.map_or("null".into(), |n| n.to_string());
            format!(
                "{{\"file\":{},\"line\":{},\"column\":{},\"message\":{},\"hint\":{}}}",
                opt_str(&e.file),
                opt_num(e.line),
                opt_num(e.column),
                json_string(&e.message),
                opt_str(&e.hint)
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// A JSON string literal. `<`, `>` and `&` are escaped too, so the text is
/// also safe inside an HTML `<script>`.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The page's side, as small as it can be: listens to the stream; on a
/// build that changed this page or a file it uses (its style sheets,
/// images, scripts), stores the scroll position for this tab and reloads;
/// shows a failed build's errors in a box over the page (built with
/// `textContent`, never as markup) and removes it after a good build.
fn script(generation: u64) -> String {
    const SOURCE: &str = r#"(function(){
var since=GEN,key="stoa-scroll:"+location.pathname,box=null;
try{var y=sessionStorage.getItem(key);if(y!==null){sessionStorage.removeItem(key);var go=function(){window.scrollTo(0,+y)};if(document.readyState==="complete"){go()}else{addEventListener("load",go)}}}catch(e){}
function path(u){try{var p=decodeURIComponent(new URL(u,location.href).pathname);return p.slice(-1)==="/"?p+"index.html":p}catch(e){return""}}
function mine(changed){var own=[path(location.href)];document.querySelectorAll("link[href],img[src],script[src],source[src],object[data]").forEach(function(el){own.push(path(el.href||el.src||el.data))});return changed.some(function(c){return own.indexOf(c)>=0})}
function show(errors){if(!errors.length){if(box){box.remove();box=null}return}
if(!box){box=document.createElement("div");box.id="stoa-build-error";box.setAttribute("role","alert");box.style.cssText="position:fixed;left:0;right:0;top:0;z-index:2147483647;max-height:60vh;overflow:auto;margin:0;padding:1em;background:#fff4f4;color:#7a0000;border-bottom:3px solid #c00;font:14px/1.5 monospace;white-space:pre-wrap;text-align:left";box.title="Click to hide";box.addEventListener("click",function(){box.style.display="none"});document.body.appendChild(box)}
box.style.display="";box.textContent="stoa: the last build failed; the files shown are the last good ones.\n\n"+errors.map(function(e){var at=e.file?e.file+(e.line?":"+e.line+(e.column?":"+e.column:""):"")+": ":"";return at+e.message+(e.hint?"\n  help: "+e.hint:"")}).join("\n\n")}
function connect(){var es=new EventSource("/.stoa/events?since="+since);
es.addEventListener("build",function(m){var d=JSON.parse(m.data);since=d.generation;show(d.errors);if(d.all||mine(d.changed)){try{sessionStorage.setItem(key,String(window.scrollY))}catch(e){}es.close();location.reload()}});
es.onerror=function(){if(es.readyState===2){setTimeout(connect,3000)}}}
connect()})();"#;
    format!(
        "<script id=\"stoa-live\">{}</script>",
        SOURCE.replace("GEN", &generation.to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_follow_the_event_stream_format() {
        assert_eq!(
            frame(Some(3), "build", "{\"a\":1}"),
            "id: 3\nevent: build\ndata: {\"a\":1}\n\n"
        );
        // A line break in the data never ends the event early.
        assert_eq!(
            frame(None, "build", "one\ntwo\r\nthree\rfour"),
            "event: build\ndata: one\ndata: two\ndata: three\ndata: four\n\n"
        );
    }

    #[test]
    fn json_strings_are_escaped_for_json_and_for_html() {
        assert_eq!(json_string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(json_string("x\ny\u{1}"), r#""x\ny\u0001""#);
        assert_eq!(
            json_string("</script><b>&"),
            r#""\u003c/script\u003e\u003cb\u003e\u0026""#
        );
    }

    #[test]
    fn a_build_event_lists_the_changed_pages_and_the_errors() {
        let live = Live::new();
        let error = LiveError {
            file: Some("books/posts/a/en.md".into()),
            line: Some(3),
            column: None,
            message: "unclosed \"quote\"".into(),
            hint: None,
        };
        live.publish(&["b/en/a.html".into()], &[error]);
        let (frames, seen) = live.greeting(Some(0));
        assert_eq!(seen, 1);
        assert_eq!(
            frames,
            [Frame {
                id: 1,
                data:
                    "{\"generation\":1,\"ok\":false,\"all\":false,\"changed\":[\"/b/en/a.html\"],\
                       \"errors\":[{\"file\":\"books/posts/a/en.md\",\"line\":3,\"column\":null,\
                       \"message\":\"unclosed \\\"quote\\\"\",\"hint\":null}]}"
                        .into()
            }]
        );
        // Up to date: only the state, so the overlay shows at once.
        let (frames, _) = live.greeting(Some(1));
        assert_eq!(frames.len(), 1);
        assert!(
            frames[0].data.contains("\"changed\":[]") && frames[0].data.contains("\"ok\":false")
        );
        // The next good build clears the errors.
        live.publish(&[], &[]);
        let (frames, _) = live.greeting(None);
        assert!(frames[0].data.contains("\"ok\":true") && frames[0].data.contains("\"errors\":[]"));
    }

    #[test]
    fn a_stream_that_missed_more_than_the_history_reloads_everything() {
        let live = Live::new();
        for i in 0..(HISTORY as u64 + 10) {
            live.publish(&[format!("p{i}.html")], &[]);
        }
        let (frames, _) = live.greeting(Some(1));
        assert_eq!(frames.len(), 1);
        assert!(
            frames[0].data.contains("\"all\":true"),
            "{}",
            frames[0].data
        );
        let (frames, _) = live.greeting(Some(live.generation() - 2));
        assert_eq!(frames.len(), 2);
        assert!(frames[1].data.contains(&format!("p{}.html", HISTORY + 9)));
    }

    #[test]
    fn waiting_returns_at_the_heartbeat_or_on_a_build_and_ends_when_closed() {
        let live = Live::new();
        assert_eq!(live.next_for(0, Duration::ZERO), Some((Vec::new(), 0)));
        live.publish(&["a.html".into()], &[]);
        let (frames, seen) = live.next_for(0, Duration::from_secs(60)).unwrap();
        assert_eq!((frames.len(), seen), (1, 1));
        let other = live.clone();
        let waiter = std::thread::spawn(move || other.next_for(1, Duration::from_secs(60)));
        live.close();
        assert_eq!(waiter.join().unwrap(), None);
    }

    #[test]
    fn streams_are_capped() {
        let live = Live::with_max_streams(2);
        let a = live.join();
        let b = live.join();
        assert!(a.is_some() && b.is_some());
        assert!(live.join().is_none());
        drop(a);
        assert_eq!(live.streams(), 1);
        assert!(live.join().is_some());
    }

    #[test]
    fn the_script_knows_its_generation_and_is_one_element() {
        let script = script(7);
        assert!(script.contains("var since=7,"));
        assert!(!script.contains("</script") || script.ends_with("</script>"));
        assert_eq!(script.matches("</script").count(), 1);
    }
}
