//! What the user sees while a build runs: a live counter on a terminal,
//! plain lines otherwise (CI logs, pipes).

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use stoa_build::{Event, Report};
use stoa_doc::Diagnostic;

/// How much to print.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Errors only.
    Quiet,
    /// Errors, warnings, a line per artifact on non-terminals, a summary.
    Normal,
    /// Also sizes and timings.
    Verbose,
}

impl Verbosity {
    pub fn from_flags(quiet: bool, verbose: bool) -> Self {
        match (quiet, verbose) {
            (true, _) => Verbosity::Quiet,
            (_, true) => Verbosity::Verbose,
            _ => Verbosity::Normal,
        }
    }
}

struct State {
    total: usize,
    done: usize,
    line_open: bool,
}

/// Prints build events to standard error; safe to call from many threads.
pub struct Display {
    verbosity: Verbosity,
    terminal: bool,
    state: Mutex<State>,
}

impl Display {
    pub fn new(verbosity: Verbosity) -> Self {
        Display {
            verbosity,
            terminal: std::io::stderr().is_terminal(),
            state: Mutex::new(State {
                total: 0,
                done: 0,
                line_open: false,
            }),
        }
    }

    pub fn event(&self, event: Event) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            Event::Planned(total) => state.total = total,
            Event::Built(artifact) => {
                state.done += 1;
                // A web edition is a folder: say so the way `ls -F` does.
                let slash = if artifact.path.is_dir() { "/" } else { "" };
                // Left alone: its bytes were already these (see the cache).
                let verb = if artifact.written {
                    "built"
                } else {
                    "unchanged"
                };
                let line = if self.verbosity == Verbosity::Verbose {
                    format!(
                        "{verb} {}{slash} ({}, {:.2} s)",
                        artifact.path.display(),
                        size(artifact.bytes),
                        artifact.seconds
                    )
                } else {
                    format!("{verb} {}{slash}", artifact.path.display())
                };
                self.progress(&mut state, &line);
            }
            Event::Failed(name, diagnostics) => {
                // Only a planned artifact moves the counter: an edition that
                // failed to load, or the download page, is not one of them.
                if state.done < state.total {
                    state.done += 1;
                }
                self.clear(&mut state);
                eprintln!("failed: {name}");
                for d in diagnostics {
                    eprintln!("{}", indent(d));
                }
            }
            Event::Warning(warning) if self.verbosity > Verbosity::Quiet => {
                self.clear(&mut state);
                let text = if self.verbosity == Verbosity::Verbose {
                    warning.to_string()
                } else {
                    Diagnostic {
                        hint: None,
                        ..warning.clone()
                    }
                    .to_string()
                };
                eprintln!("{text}");
            }
            Event::Warning(_) => {}
        }
    }

    /// One line per artifact, or a counter rewritten in place on a terminal.
    fn progress(&self, state: &mut State, line: &str) {
        if self.verbosity == Verbosity::Quiet {
            return;
        }
        let mut err = std::io::stderr().lock();
        if self.terminal && self.verbosity == Verbosity::Normal {
            let _ = write!(err, "\r\x1b[2K[{}/{}] {line}", state.done, state.total);
            state.line_open = true;
        } else {
            let _ = writeln!(err, "[{}/{}] {line}", state.done, state.total);
        }
        let _ = err.flush();
    }

    fn clear(&self, state: &mut State) {
        if state.line_open {
            eprint!("\r\x1b[2K");
            state.line_open = false;
        }
    }

    pub fn finish(&self, report: &Report) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.clear(&mut state);
        if self.verbosity == Verbosity::Quiet && report.ok() {
            return;
        }
        let built = report.artifacts.len();
        let warnings = report.warnings.len();
        let unchanged = report.artifacts.iter().filter(|a| !a.written).count();
        if report.ok() && unchanged > 0 {
            eprintln!(
                "built {built} file{} ({unchanged} unchanged, left as they were), {warnings} warning{}",
                plural(built),
                plural(warnings)
            );
        } else if report.ok() {
            eprintln!(
                "built {built} file{}, {warnings} warning{}",
                plural(built),
                plural(warnings)
            );
        } else {
            let errors = report.errors.len();
            eprintln!(
                "build failed: {errors} error{}, {built} file{} built, {warnings} warning{}",
                plural(errors),
                plural(built),
                plural(warnings)
            );
        }
    }
}

fn indent(d: &Diagnostic) -> String {
    d.to_string()
        .lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.0} KiB", (bytes as f64 / 1024.0).ceil())
    }
}
