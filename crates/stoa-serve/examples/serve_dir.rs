//! Serves a folder as `stoa serve` does, through the crate's public API
//! alone, so that the server can be measured (`scripts/bench-serve`) without
//! building the whole `stoa` program:
//!
//! ```text
//! cargo build --release -p stoa-serve --example serve_dir
//! target/release/examples/serve_dir serve --dir dist --port 0 --quiet
//! ```
//!
//! It takes the flags of `stoa serve` (`--dir`, `--address`, `--port`,
//! `--quiet`; a leading `serve` is allowed so that a script can run either
//! program the same way) and prints the same "serving … at http://…/" line.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use stoa_serve::Server;

/// What the command line asked for.
struct Options {
    dir: PathBuf,
    address: IpAddr,
    port: u16,
    quiet: bool,
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!(
                "error: {message}\n  usage: serve_dir [serve] [--dir DIR] [--address IP] [--port N] [--quiet]"
            );
            return ExitCode::FAILURE;
        }
    };
    let addr = SocketAddr::new(options.address, options.port);
    match Server::bind(&options.dir, addr) {
        Ok(server) => {
            eprintln!(
                "serving {} at http://{}/ (Ctrl-C stops)",
                options.dir.display(),
                server.local_addr()
            );
            server.with_log(!options.quiet).run();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "error: cannot serve {} on {addr}: {e}",
                options.dir.display()
            );
            ExitCode::FAILURE
        }
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        dir: PathBuf::from("dist"),
        address: IpAddr::V4(Ipv4Addr::LOCALHOST),
        port: 8000,
        quiet: false,
    };
    let mut first = true;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "serve" if first => {}
            "--dir" => options.dir = value("--dir")?.into(),
            "--address" => {
                options.address = value("--address")?
                    .parse()
                    .map_err(|e| format!("--address: {e}"))?;
            }
            "-p" | "--port" => {
                options.port = value("--port")?
                    .parse()
                    .map_err(|e| format!("--port: {e}"))?;
            }
            "-q" | "--quiet" => options.quiet = true,
            other => return Err(format!("unknown argument {other}")),
        }
        first = false;
    }
    Ok(options)
}
