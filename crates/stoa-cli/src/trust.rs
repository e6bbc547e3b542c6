//! The user's trust in native plugin libraries that book projects bring:
//! where the trust list lives, `--trust-plugins` and `STOA_TRUST_PLUGINS`,
//! and `stoa plugins trust`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use stoa_plugin_host::Trust;

/// The user's trust list: `STOA_TRUST_FILE`, else
/// `$XDG_CONFIG_HOME/stoa/trusted.toml`, else
/// `~/.config/stoa/trusted.toml`. Outside every project: a book cannot
/// trust its own libraries.
pub(crate) fn trust_file() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(file) = var("STOA_TRUST_FILE") {
        return Some(PathBuf::from(file));
    }
    let config = var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("stoa/trusted.toml"))
}

/// What this run trusts: every library with `--trust-plugins` or
/// `STOA_TRUST_PLUGINS=1` (meant for CI, which builds what it was given),
/// otherwise the user's trust list. A list that cannot be read is an error,
/// printed here.
pub(crate) fn user_trust(flag: bool) -> Result<Arc<Trust>, ExitCode> {
    let from_env = std::env::var("STOA_TRUST_PLUGINS").unwrap_or_default();
    let everything = match from_env.trim() {
        "" | "0" | "false" | "no" => flag,
        "1" | "true" | "yes" => true,
        other => {
            eprintln!(
                "error: STOA_TRUST_PLUGINS is `{other}`\n  help: set it to 1 to trust every \
                 plugin library for this run, or unset it"
            );
            return Err(ExitCode::from(2));
        }
    };
    if everything {
        return Ok(Arc::new(Trust::everything()));
    }
    let Some(file) = trust_file() else {
        return Ok(Arc::new(Trust::nothing()));
    };
    Trust::read(&file).map(Arc::new).map_err(|error| {
        eprintln!("{error}");
        ExitCode::from(2)
    })
}

/// `stoa plugins trust <library>…`: adds each library, with the SHA-256 of
/// its bytes now, to the user's trust list.
pub(crate) fn run_trust(libraries: &[PathBuf]) -> ExitCode {
    let Some(file) = trust_file() else {
        eprintln!(
            "error: no place for the trust list: HOME, XDG_CONFIG_HOME and STOA_TRUST_FILE are unset\n  \
             help: set STOA_TRUST_FILE to the file to keep it in"
        );
        return ExitCode::from(2);
    };
    let mut trust = match Trust::read(&file) {
        Ok(trust) => trust,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let mut added = Vec::new();
    for library in libraries {
        match trust.add(library) {
            Ok(entry) => added.push(entry),
            Err(e) => {
                eprintln!(
                    "error: {} cannot be trusted: {e}\n  help: give the path of a plugin library file",
                    library.display()
                );
                return ExitCode::FAILURE;
            }
        }
    }
    if let Err(e) = trust.write(&file) {
        eprintln!(
            "error: the trust list {} cannot be written: {e}",
            file.display()
        );
        return ExitCode::FAILURE;
    }
    for (path, hash) in added {
        outln!("trusted {} (sha256 {hash})", path.display());
    }
    outln!("in {}", file.display());
    ExitCode::SUCCESS
}
