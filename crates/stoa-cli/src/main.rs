//! The `stoa` command, with the formats stoa writes (see `stoa-renderers`).

use std::process::ExitCode;

fn main() -> ExitCode {
    stoa_cli::run(stoa_renderers::builtin(), std::env::args_os())
}
