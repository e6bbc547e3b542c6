//! No code: the features that the workspace's dev-dependencies turn on in
//! shared dependencies, turned on in every build (see Cargo.toml).
//!
//! Cargo resolves each dependency's features once per build, and a
//! dependency built with other features is compiled again, with all that
//! depends on it. `cargo install` builds stoa-cli alone, `cargo build
//! --workspace` adds the other crates, `cargo test` adds the
//! dev-dependencies: the test below checks that each package any of the
//! three builds has the same features in all of them, so that CI compiles
//! the dependency tree once.

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;
    use std::process::Command;

    /// Each package of the build (name and version) with its feature sets
    /// (a dependency of build scripts and proc macros may have a second).
    type Features = BTreeMap<String, BTreeSet<String>>;

    /// What `cargo tree` says `args` build: every package but the
    /// workspace's own, with its features.
    fn features(args: &[&str]) -> Features {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .current_dir(&root)
            .args(["tree", "--locked", "--offline", "--prefix", "none"])
            .args(["--format", "{p}|{f}"])
            .args(args)
            .output()
            .expect("cargo runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && !text.is_empty(),
            "cargo tree {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut packages = Features::new();
        for line in text.lines() {
            let line = line.trim_end_matches(" (*)");
            let Some((package, features)) = line.split_once('|') else {
                continue;
            };
            // A workspace crate names its folder: `stoa-doc v0.1.0 (/…)`;
            // its features count too (a dev-dependency may turn one on).
            let package = package.split(" (").next().unwrap_or(package);
            packages
                .entry(package.to_owned())
                .or_default()
                .insert(features.to_owned());
        }
        packages
    }

    /// The packages of `smaller` whose features differ in `larger`.
    fn differences(smaller: &Features, larger: &Features) -> Vec<String> {
        smaller
            .iter()
            .filter(|(package, sets)| larger.get(*package) != Some(*sets))
            .map(|(package, sets)| format!("{package}: {sets:?}, then {:?}", larger.get(package)))
            .collect()
    }

    #[test]
    fn building_and_testing_share_one_dependency_tree() {
        let normal = ["--edges", "normal,build"];
        let install = features(&[&["--package", "stoa-cli"], &normal[..]].concat());
        let build = features(&[&["--workspace"], &normal[..]].concat());
        let test = features(&["--workspace", "--edges", "normal,build,dev"]);
        assert!(install.len() > 100 && build.len() >= install.len());
        let mut wrong = differences(&install, &build);
        wrong.extend(differences(&build, &test));
        assert!(
            wrong.is_empty(),
            "these dependencies would be compiled twice, with other features: \
             turn the features of the second build on in \
             crates/stoa-feature-pins/Cargo.toml\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_difference_is_found() {
        let one = |f: &str| Features::from([("a v1".into(), BTreeSet::from([f.into()]))]);
        assert!(differences(&one("std"), &one("std")).is_empty());
        assert_eq!(differences(&one("std"), &one("std,alloc")).len(), 1);
        assert_eq!(differences(&one("std"), &Features::new()).len(), 1);
    }
}
