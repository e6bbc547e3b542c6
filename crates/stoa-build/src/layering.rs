//! The steps of lib.rs's "# Steps" list, by module, and a test that each
//! module refers only to modules of its own step or of earlier ones: the
//! order the list claims is the order the code has.

/// Each module of the crate and the step it belongs to (lib.rs's list;
/// the driver, the session and `stoa check` run the steps, so they come
/// last).
const STEPS: &[(&str, u8)] = &[
    ("options", 1),
    ("report", 1),
    ("timings", 1),
    ("guard", 2),
    ("output", 2),
    ("stage", 2),
    ("translations", 3),
    ("builtin", 3),
    ("keys", 4),
    ("ledger", 4),
    ("cache", 4),
    ("covers", 4),
    ("plan", 4),
    ("decoded", 5),
    ("load", 5),
    ("plugins", 5),
    ("plugin_assets", 5),
    ("diagnostics", 5),
    ("raw_check", 5),
    ("note_calls", 5),
    ("quotes", 5),
    ("prepare", 6),
    ("images", 6),
    ("jobs", 7),
    ("render", 7),
    ("site", 8),
    ("driver", 9),
    ("session", 9),
    ("check", 9),
    ("layering", 9),
];

mod tests {
    use super::STEPS;
    use std::path::Path;

    /// The code of a source file without its comments (line comments and
    /// doc comments: they may name any module).
    fn code(text: &str) -> String {
        text.lines()
            .map(|line| match line.find("//") {
                Some(at) if !line[..at].contains('"') => &line[..at],
                _ => line,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The modules of this crate that `code` refers to (`crate::name`).
    fn refers_to(code: &str) -> Vec<String> {
        let mut found: Vec<String> = code
            .match_indices("crate::")
            .map(|(at, m)| {
                code[at + m.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .filter(|name| !name.is_empty())
            .collect();
        found.sort();
        found.dedup();
        found
    }

    fn step(module: &str) -> Option<u8> {
        STEPS.iter().find(|(m, _)| *m == module).map(|(_, s)| *s)
    }

    #[test]
    fn every_module_uses_only_its_step_and_earlier_ones() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut wrong = Vec::new();
        for entry in std::fs::read_dir(&src).unwrap() {
            let path = entry.unwrap().path();
            let module = path.file_stem().unwrap().to_string_lossy().into_owned();
            if module == "lib" {
                continue;
            }
            let Some(own) = step(&module) else {
                wrong.push(format!(
                    "{module}.rs is in no step: add it to layering::STEPS"
                ));
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            for used in refers_to(&code(&text)) {
                match step(&used) {
                    Some(theirs) if theirs > own => wrong.push(format!(
                        "{module} (step {own}) uses {used} (step {theirs}), a later step"
                    )),
                    _ => {}
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn the_check_sees_a_later_step() {
        let code = code("use crate::site::write_site; // crate::driver in a comment");
        assert_eq!(refers_to(&code), ["site"]);
        assert!(step("cache") < step("site"));
    }
}
