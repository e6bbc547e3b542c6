//! `stoa plugin new <name>`: a plugin crate that builds, passes its test
//! and loads at once: a Cargo.toml (cdylib and rlib), a small real plugin
//! on the SDK, a test with stoa's test kit, and a README.
//!
//! stoa's SDK is not on crates.io, so the crate names `stoa-sdk` and
//! `stoa-plugin-testkit` by path: in the stoa sources this binary was built
//! from (when that folder is still there) or in the folder `--sdk` names.

use crate::new::{Failure, check_empty, quoted, say, write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the stoa sources of this binary were, when it was built: the
/// default for `--sdk`.
const BUILT_FROM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The longest plugin name accepted: it names a crate, a library file and
/// a book.toml table.
const MAX_NAME: usize = 64;

/// The bundled plugins' names: a plugin of one of them replaces the
/// built-in one wherever it is found first.
const BUILTIN_NAMES: [&str; 3] = ["dialogue", "footnotes", "glossary"];

/// `stoa plugin`'s subcommands.
#[derive(clap::Subcommand)]
pub(crate) enum PluginCommand {
    /// Start a new plugin: a Rust crate in a folder named after it that
    /// builds, passes its test (`cargo test`) and loads (`--plugin-dir`).
    New(PluginNewArgs),
}

/// `stoa plugin new`'s options.
#[derive(clap::Args)]
pub(crate) struct PluginNewArgs {
    /// The plugin's name, as authors will write it in `[plugins.<name>]`:
    /// lowercase letters, digits, `-` and `_`, starting with a letter.
    #[arg(value_name = "NAME")]
    name: String,
    /// The folder to create (default: ./<NAME>); it must not exist or be empty.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The stoa sources to build against (the folder holding
    /// crates/stoa-sdk); default: those this stoa was built from.
    #[arg(long, value_name = "DIR")]
    sdk: Option<PathBuf>,
    /// Also say how to build it as a WebAssembly plugin (a `.wasm` that
    /// stoa runs sandboxed, from the same source).
    #[arg(long)]
    wasm: bool,
}

/// Runs `stoa plugin <command>`.
pub(crate) fn run(command: PluginCommand) -> ExitCode {
    let PluginCommand::New(args) = command;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    match create(&args.name, &dir, args.sdk.as_deref(), args.wasm) {
        Ok(notes) => {
            for note in notes {
                eprintln!("note: {note}");
            }
            let name = &args.name;
            let cd = dir.display();
            let lib = library_file(name);
            if args.wasm {
                let wasm = wasm_file(name);
                say(&format!(
                    "created the plugin `{name}` in {cd}, for WebAssembly\n\n  \
                     cd {cd}\n  \
                     cargo test              # its test, with stoa's test kit (natively)\n  \
                     rustup target add wasm32-unknown-unknown\n  \
                     cargo build --release --target wasm32-unknown-unknown\n  \
                     # -> target/wasm32-unknown-unknown/release/{wasm}\n\n\
                     Then turn it on in a book.toml with [plugins.{name}] and build with\n  \
                     stoa build --plugin-dir {cd}/target/wasm32-unknown-unknown/release\n\
                     The guide: docs/plugins.md in stoa's sources, \"WebAssembly plugins\"."
                ));
                return ExitCode::SUCCESS;
            }
            say(&format!(
                "created the plugin `{name}` in {cd}\n\n  \
                 cd {cd}\n  \
                 cargo test              # its test, with stoa's test kit\n  \
                 cargo build --release   # target/release/{lib}\n\n\
                 Then turn it on in a book.toml with [plugins.{name}] and build with\n  \
                 stoa build --plugin-dir {cd}/target/release\n\
                 The guide: docs/plugins.md in stoa's sources."
            ));
            ExitCode::SUCCESS
        }
        Err((message, hint)) => {
            eprintln!("error: {message}\n  help: {hint}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the plugin crate into `dir`; the notes to print. Nothing is
/// written when an argument is wrong.
fn create(name: &str, dir: &Path, sdk: Option<&Path>, wasm: bool) -> Result<Vec<String>, Failure> {
    check_name(name)?;
    let sdk = find_sdk(sdk)?;
    check_empty(dir, "pick another name, or --dir a new folder")?;
    let mut notes = Vec::new();
    if BUILTIN_NAMES.contains(&name) {
        notes.push(format!(
            "`{name}` is the name of a plugin built into stoa: yours replaces it in the builds \
             that find it first (--plugin-dir, STOA_PLUGIN_PATH, plugin-dir)"
        ));
    }
    let ty = type_name(name);
    let files = [
        ("Cargo.toml", cargo_toml(name, &sdk)),
        ("src/lib.rs", lib_rs(name, &ty)),
        (
            &format!("tests/{}.rs", name.replace('-', "_")),
            test_rs(name, &ty),
        ),
        ("README.md", readme(name, wasm)),
        (".gitignore", "/target\n".to_string()),
    ];
    for (file, text) in files {
        write(&dir.join(file), text.as_bytes())?;
    }
    Ok(notes)
}

/// A plugin name: it becomes the crate `stoa-plugin-<name>`, the library
/// `libstoa_plugin_<name>.so` and the table `[plugins.<name>]`.
fn check_name(name: &str) -> Result<(), Failure> {
    let rule = "a plugin name has lowercase letters, digits, `-` and `_`, and starts with a \
                letter, e.g. `reading-time`";
    if name.is_empty() {
        return Err(("the plugin's name is empty".into(), rule.into()));
    }
    if name.len() > MAX_NAME {
        return Err((
            format!("the plugin's name is {} bytes long", name.len()),
            format!("keep it to {MAX_NAME}: it names the library file and a book.toml table"),
        ));
    }
    if name.chars().any(|c| c.is_ascii_uppercase()) && is_name(&name.to_ascii_lowercase()) {
        return Err((
            format!("`{name}` has capital letters"),
            format!(
                "write it in lowercase, `{}`: library files and crate names are",
                name.to_ascii_lowercase()
            ),
        ));
    }
    if !is_name(name) {
        let what = match name
            .chars()
            .find(|c| !c.is_ascii_alphanumeric() && !"-_".contains(*c))
        {
            Some(c) => format!("`{name}` is not a plugin name: it has `{c}`"),
            None => format!("`{name}` is not a plugin name: it does not start with a letter"),
        };
        return Err((what, rule.into()));
    }
    Ok(())
}

fn is_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// The stoa sources holding the SDK and the test kit: `sdk` if given,
/// else those this binary was built from.
fn find_sdk(sdk: Option<&Path>) -> Result<PathBuf, Failure> {
    let has_sdk = |dir: &Path| {
        ["stoa-sdk", "stoa-plugin-testkit"]
            .iter()
            .all(|c| dir.join("crates").join(c).join("Cargo.toml").is_file())
    };
    let canonical = |dir: &Path| dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    match sdk {
        Some(dir) if has_sdk(dir) => Ok(canonical(dir)),
        Some(dir) => Err((
            format!(
                "{} holds no stoa sources (no crates/stoa-sdk and crates/stoa-plugin-testkit)",
                dir.display()
            ),
            "pass --sdk the folder of a clone of stoa's repository, the one holding `crates/`"
                .into(),
        )),
        None if has_sdk(Path::new(BUILT_FROM)) => Ok(canonical(Path::new(BUILT_FROM))),
        None => Err((
            format!(
                "cannot find stoa's sources to build the plugin against: the SDK is not on \
                 crates.io, and {} (where this stoa was built) holds it no more",
                Path::new(BUILT_FROM).display()
            ),
            "clone stoa's repository and pass its folder: stoa plugin new <name> --sdk <folder>"
                .into(),
        )),
    }
}

/// Names the template's code uses (its imports, its settings type, the
/// prelude's types), and `Self`, a keyword: a plugin type of one of them
/// would not compile.
const TAKEN_TYPES: &[&str] = &[
    "Block",
    "Chapter",
    "ChapterKind",
    "Configure",
    "Context",
    "Default",
    "Deserialize",
    "Err",
    "Format",
    "Inline",
    "None",
    "Ok",
    "Option",
    "Plugin",
    "PluginError",
    "Result",
    "Self",
    "Settings",
    "Some",
    "String",
    "Styles",
    "Transform",
    "Vec",
];

/// The plugin's Rust type: `reading-time` → `ReadingTime`; `PluginPlugin`
/// for `plugin`, whose type would clash with a name the code uses.
fn type_name(name: &str) -> String {
    let mut out = String::new();
    for part in name.split(['-', '_']).filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if TAKEN_TYPES.contains(&out.as_str()) {
        out.push_str("Plugin");
    }
    out
}

/// The file `cargo build` makes of the plugin on this system.
fn library_file(name: &str) -> String {
    format!(
        "{}stoa_plugin_{}{}",
        std::env::consts::DLL_PREFIX,
        name.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    )
}

fn cargo_toml(name: &str, sdk: &Path) -> String {
    let path = |krate: &str| quoted(&sdk.join("crates").join(krate).to_string_lossy());
    format!(
        "\
[package]
name = \"stoa-plugin-{name}\"   # the library becomes {lib}
version = \"0.1.0\"
edition = \"2024\"
publish = false

[lib]
# cdylib: the shared library stoa loads; rlib: what the tests link.
crate-type = [\"cdylib\", \"rlib\"]

[dependencies]
# stoa's SDK is not on crates.io: these paths lead to stoa's sources.
stoa-sdk = {{ path = {sdk} }}
serde = {{ version = \"1\", features = [\"derive\"] }}

[dev-dependencies]
# Runs the plugin on a Markdown snippet and returns the EPUB's XHTML; the
# library you ship does not link it. To assert on the PDF's text too (and
# have raw Typst checked), add `features = [\"pdf\"]`: it compiles Typst,
# some minutes on the first build.
stoa-plugin-testkit = {{ path = {kit} }}

# Optimise the dependencies even in a debug build, as stoa does: rendering
# (and with the `pdf` feature, Typst's layout) is slow unoptimised.
[profile.dev.package.\"*\"]
opt-level = 2
debug = false

# A crate of its own, even in a folder inside another Cargo workspace.
[workspace]
",
        lib = library_file(name),
        sdk = path("stoa-sdk"),
        kit = path("stoa-plugin-testkit"),
    )
}

fn lib_rs(name: &str, ty: &str) -> String {
    const TEMPLATE: &str = r####"//! The `{name}` stoa plugin: a line under each post's title saying how
//! long it takes to read, styled for EPUB, the web edition and PDF.
//!
//! Settings, in the book's book.toml:
//!
//! ```toml
//! [plugins.{name}]
//! words-per-minute = 200           # the default
//! label = "{minutes} min read"     # the default; {minutes} is the number
//! ```
#![forbid(unsafe_code)]

use serde::Deserialize;
use stoa_sdk::{
    Block, Chapter, ChapterKind, Configure, Context, Format, Inline, Plugin, PluginError, Styles,
    Transform, div, for_each_block, for_each_inline,
};

/// The class of the line this plugin adds; plugin classes carry its name
/// so that they never meet another plugin's.
const CLASS: &str = "{name}-reading-time";
const CSS: &str = ".{name}-reading-time { font-style: italic; color: #555; }";
/// Typst: wraps the theme's `div` (and other plugins') rather than replacing it.
const TYPST: &str = r##"#let div = { let base = div; (class, attrs, body) => {
  if class == "{name}-reading-time" { text(style: "italic", fill: luma(35%), body) } else { base(class, attrs, body) }
} }"##;

/// The plugin. One value serves every book, from several threads at once.
#[derive(Default)]
pub struct {Type};

/// The `[plugins.{name}]` table; a key it does not know is an error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", default)]
struct Settings {
    words_per_minute: usize,
    label: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            words_per_minute: 200,
            label: "{minutes} min read".to_string(),
        }
    }
}

/// The settings, read and checked.
fn settings(ctx: &Context) -> Result<Settings, PluginError> {
    let settings: Settings = ctx.config_as()?;
    if settings.words_per_minute == 0 {
        return Err(PluginError::new("[plugins.{name}] `words-per-minute` is 0")
            .with_hint("set it to how many words a reader reads in a minute, e.g. 200"));
    }
    Ok(settings)
}

impl Plugin for {Type} {
    const NAME: &'static str = "{name}";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
}

impl Configure for {Type} {
    /// Once per book and language, before any post: a typo in the settings
    /// is told once, at its line in book.toml.
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        settings(ctx).map(|_| ())
    }
}

impl Transform for {Type} {
    /// Once per chapter, in parallel.
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        if chapter.kind != ChapterKind::Post {
            return Ok(());
        }
        let settings = settings(ctx)?;
        let mut words = 0;
        for_each_block(&chapter.blocks, &mut |block| {
            for_each_inline(block, &mut |inline| {
                if let Inline::Text { text } = inline {
                    words += text.split_whitespace().count();
                }
            });
        });
        let minutes = words.div_ceil(settings.words_per_minute).max(1);
        let line = settings.label.replace("{minutes}", &minutes.to_string());
        let paragraph = Block::Paragraph {
            content: vec![Inline::text(line)],
        };
        chapter.blocks.insert(0, div(CLASS, vec![paragraph]));
        Ok(())
    }
}

impl Styles for {Type} {
    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub | Format::Html => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

stoa_sdk::export_plugin!({Type});
"####;
    TEMPLATE.replace("{name}", name).replace("{Type}", ty)
}

fn test_rs(name: &str, ty: &str) -> String {
    const TEMPLATE: &str = r####"//! The `{name}` plugin run on Markdown snippets with stoa's test kit: the
//! same parser, host and renderers as `stoa build`, no book folder.

use stoa_plugin_testkit::Kit;

fn kit() -> Kit {
    Kit::new(stoa_sdk::builtin_plugin!({crate}::{Type}))
}

#[test]
fn each_post_says_how_long_it_takes_to_read() {
    let out = kit()
        .settings("words-per-minute = 2")
        .run("One *two* three four five.");
    assert!(out.diagnostics().is_empty(), "{}", out.report());
    let xhtml = out.xhtml();
    assert!(xhtml.contains(r#"class="{name}-reading-time""#), "{xhtml}");
    assert!(xhtml.contains("3 min read"), "{xhtml}");
    // With the test kit's `pdf` feature (see Cargo.toml), the PDF too:
    // assert!(out.pdf_text().contains("3 min read"));
}

#[test]
fn a_misspelt_setting_is_an_error_naming_it() {
    let out = kit().settings("words-per-minit = 2").run("Text.");
    assert!(!out.is_ok());
    assert!(out.report().contains("words-per-minit"), "{}", out.report());
}
"####;
    TEMPLATE
        .replace("{name}", name)
        .replace("{Type}", ty)
        .replace(
            "{crate}",
            &format!("stoa_plugin_{}", name.replace('-', "_")),
        )
}

/// The file a wasm32 build of plugin `name` makes: what stoa looks for.
fn wasm_file(name: &str) -> String {
    format!("stoa_plugin_{}.wasm", name.replace('-', "_"))
}

/// How to build the plugin for WebAssembly, for the README of `--wasm`.
fn readme_wasm(name: &str) -> String {
    format!(
        "
## As a WebAssembly plugin

The same source builds a `.wasm` that stoa runs sandboxed (no files, no
environment, a budget of time and memory per call), on any platform:

    rustup target add wasm32-unknown-unknown
    cargo build --release --target wasm32-unknown-unknown
    # -> target/wasm32-unknown-unknown/release/{wasm}

    stoa build --plugin-dir path/to/{name}/target/wasm32-unknown-unknown/release

`export_plugin!` adds the exports stoa calls in a WebAssembly build; the
tests (`cargo test`) run the same code natively. `time-limit` in
`[plugins.{name}]` sets each call's budget, `memory-limit` its memory (MiB).
",
        wasm = wasm_file(name),
    )
}

fn readme(name: &str, wasm: bool) -> String {
    let wasm = if wasm {
        readme_wasm(name)
    } else {
        String::new()
    };
    let text = format!(
        "\
# The `{name}` stoa plugin

Adds a line under each post's title saying how long it takes to read, in
every format stoa makes (EPUB, PDF, web edition). Made by `stoa plugin new
{name}`: change it into your own plugin.

    cargo test              # tests/{test}.rs: the plugin on Markdown snippets
    cargo build --release   # target/release/{lib}

Turn it on in a book's `book.toml`, with its settings:

```toml
[plugins.{name}]
words-per-minute = 200
label = \"{{minutes}} min read\"
```

and tell stoa where the library is:

    stoa build --plugin-dir path/to/{name}/target/release

(or `plugin-dir = \"...\"` in book.toml, or `STOA_PLUGIN_PATH`); `stoa
plugins` shows what stoa finds.

- `src/lib.rs`: the plugin: its `configure` hook checks the settings once
  per book, `transform` adds the line to each post, `styles` gives its CSS
  and Typst.
- `tests/{test}.rs`: tests with `stoa-plugin-testkit`, which runs the plugin
  on a snippet as `stoa build` would and returns the EPUB's XHTML (and,
  with its `pdf` feature, the PDF's text).

The guide to every hook, the document tree and the C ABI is
`docs/plugins.md` in stoa's sources.
",
        test = name.replace('-', "_"),
        lib = library_file(name),
    );
    text + &wasm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_with_what_to_do() {
        for good in ["demo", "reading-time", "a1_b"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        let message = |name: &str| check_name(name).unwrap_err();
        assert!(message("").0.contains("empty"));
        assert!(
            message("Demo").1.contains("`demo`"),
            "{:?}",
            message("Demo")
        );
        assert!(message("my plugin").0.contains("has ` `"));
        assert!(message("9lives").0.contains("start with a letter"));
        assert!(message("../x").0.contains("has `.`"));
        assert!(message(&"a".repeat(65)).0.contains("65 bytes"));
    }

    #[test]
    fn a_wasm_plugin_says_how_to_build_its_wasm() {
        let readme = readme("reading-time", true);
        assert!(readme.contains("cargo build --release --target wasm32-unknown-unknown"));
        assert!(readme.contains("release/stoa_plugin_reading_time.wasm"));
        assert!(!super::readme("reading-time", false).contains("wasm32"));
    }

    #[test]
    fn types_are_camel_case() {
        assert_eq!(type_name("reading-time"), "ReadingTime");
        assert_eq!(type_name("a_b-c"), "ABC");
        assert_eq!(type_name("demo2"), "Demo2");
        assert_eq!(type_name("plugin"), "PluginPlugin");
        assert_eq!(type_name("settings"), "SettingsPlugin");
        assert_eq!(type_name("plugin-error"), "PluginErrorPlugin");
        // `pub struct Self;` is no Rust.
        assert_eq!(type_name("self"), "SelfPlugin");
    }

    #[test]
    fn a_folder_that_is_not_empty_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("keep.txt"), "mine").unwrap();
        let (message, _) = create("demo", tmp.path(), None, false).unwrap_err();
        assert!(message.contains("is not empty"), "{message}");
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn sources_without_the_sdk_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let (message, hint) = find_sdk(Some(tmp.path())).unwrap_err();
        assert!(message.contains("holds no stoa sources"), "{message}");
        assert!(hint.contains("--sdk"), "{hint}");
    }

    #[test]
    fn the_cargo_toml_is_toml_with_both_paths() {
        let text = cargo_toml("reading-time", Path::new("/src/st\"oa"));
        let value: toml::Value = toml::from_str(&text).unwrap();
        assert_eq!(
            value["package"]["name"].as_str(),
            Some("stoa-plugin-reading-time")
        );
        assert_eq!(
            value["dependencies"]["stoa-sdk"]["path"].as_str(),
            Some("/src/st\"oa/crates/stoa-sdk")
        );
        let kit = &value["dev-dependencies"]["stoa-plugin-testkit"]["path"];
        assert_eq!(kit.as_str(), Some("/src/st\"oa/crates/stoa-plugin-testkit"));
    }
}
