//! Helpers shared by the end-to-end tests in `tests/tests/`.
//! They find the repository, run the `stoa` binary and the external checkers.

use std::path::PathBuf;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}
