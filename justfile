# The everyday commands. `just` is optional: each recipe is one line you can
# also type yourself.

# Build every book, language and format into dist/ (release build).
build *ARGS:
    scripts/build-books {{ARGS}}

# Run every test (installs EPUBCheck, poppler and qpdf if missing).
test:
    scripts/test

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --all --check
    cargo clippy --locked --workspace --all-targets -- -D warnings

# Format the code.
fmt:
    cargo fmt --all

# Benchmarks: build times of books/ (EPUB, PDF, Typst alone, with and without plugins).
bench:
    scripts/bench

# Remove build outputs.
clean:
    cargo clean
    rm -rf dist
