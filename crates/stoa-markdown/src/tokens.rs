//! Technical tokens in prose: command-line options, identifiers, configuration
//! keys, paths, URLs, version numbers and names with digits, found without the
//! author marking them. Each is wrapped in a span with the role
//! [`TOKEN_ROLE`] and the class [`TOKEN_CLASS`], so that every format sets it
//! the same way: no hyphenation, no repeated hyphen, lining figures, and line
//! breaks only after `.`, `/`, `_` or `-`. The decision is made once, here.
//!
//! Recognition is conservative: a word is a token only when its shape says so
//! (a lower-to-upper case change, an underscore, a digit in a name, a dot
//! between two names, a leading dash, a slash with a path around it). Words
//! joined by a hyphen (`state-of-the-art`, `guarda-chuva`, `disse-lhe`) are
//! prose; proper names joined by one (`Chandy-Lamport`) are tokens, so that
//! a break keeps a single hyphen.

use std::ops::Range;
use stoa_doc::{Block, Inline, Role, TOKEN_CLASS, TOKEN_ROLE, is_token};

/// Wraps the technical tokens of every text in `blocks` (not in code).
pub fn mark(blocks: &mut [Block]) {
    stoa_doc::walk_blocks_mut(blocks, &mut |block| {
        for run in block.inline_runs_mut() {
            mark_inlines(run);
        }
    });
}

fn mark_inlines(run: &mut Vec<Inline>) {
    for inline in std::mem::take(run) {
        match inline {
            Inline::Text { text } => split(&text, run),
            token if is_token(&token) => run.push(token),
            mut other => {
                if let Some(children) = other.children_mut() {
                    mark_inlines(children);
                }
                run.push(other);
            }
        }
    }
}

/// Pushes `text` onto `out`, its tokens wrapped.
fn split(text: &str, out: &mut Vec<Inline>) {
    let mut plain = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(word_end);
        let (lead, core, trail) = trim(word);
        if !core.is_empty() && recognise(core) {
            plain.push_str(lead);
            if !plain.is_empty() {
                out.push(Inline::text(std::mem::take(&mut plain)));
            }
            out.push(token(core));
            plain.push_str(trail);
        } else {
            plain.push_str(word);
        }
        let space_end = after
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(after.len());
        plain.push_str(&after[..space_end]);
        rest = &after[space_end..];
    }
    if !plain.is_empty() {
        out.push(Inline::text(plain));
    }
}

/// A token's span.
pub fn token(text: &str) -> Inline {
    Inline::Span {
        role: Some(Role::Other(TOKEN_ROLE.to_string())),
        class: TOKEN_CLASS.to_string(),
        attrs: Default::default(),
        content: vec![Inline::text(text)],
    }
}

/// Splits the punctuation of the sentence off a word: opening quotes and
/// brackets before it, closing ones and stops after it (a bracket the word
/// itself opens, as in `f(x)`, stays).
fn trim(word: &str) -> (&str, &str, &str) {
    let opening = |c: char| "\"“‘«'([{*".contains(c);
    let start = word.len() - word.trim_start_matches(opening).len();
    let mut core = &word[start..];
    while let Some(last) = core.chars().last() {
        let unbalanced = |open: char, close: char| {
            last == close && core.matches(close).count() > core.matches(open).count()
        };
        let strip = ",;:!?\"”’»'….*".contains(last)
            || unbalanced('(', ')')
            || unbalanced('[', ']')
            || unbalanced('{', '}');
        if !strip {
            break;
        }
        core = &core[..core.len() - last.len_utf8()];
    }
    let end = start + core.len();
    (&word[..start], core, &word[end..])
}

/// Characters a token may hold.
fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "._-/:()[]{}#@=~+%?&<>$*,".contains(c)
}

/// Whether `word` (its sentence punctuation trimmed) is a technical token.
pub fn recognise(word: &str) -> bool {
    if !word.chars().all(token_char) || !word.chars().any(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    option(word)
        || url(word)
        || path(word)
        || version(word)
        || word.starts_with('@') && word[1..].starts_with(|c: char| c.is_ascii_alphabetic())
        || identifier(word)
        || dotted(word)
        || named_with_digits(word)
        || hyphenated_name(word)
        || artifact(word)
        || call(word)
}

/// `--savepointPath`, `--parallelism=2`, `-j`, `-Xmx2g`.
fn option(word: &str) -> bool {
    if let Some(long) = word.strip_prefix("--") {
        long.starts_with(|c: char| c.is_ascii_alphabetic())
    } else if let Some(short) = word.strip_prefix('-') {
        short.starts_with(|c: char| c.is_ascii_alphabetic())
            && short.chars().all(|c| c.is_ascii_alphanumeric())
    } else {
        false
    }
}

/// `https://flink.apache.org`, `www.example.com`.
fn url(word: &str) -> bool {
    word.contains("://") || word.starts_with("www.") && word.len() > 4
}

/// `/opt/flink/conf`, `~/.m2`, `./bin/flink`, `src/main.rs`; not `e/ou`,
/// `and/or` or `I/O`, which are prose.
fn path(word: &str) -> bool {
    let rooted = ["/", "~/", "./", "../"].iter().any(|p| word.starts_with(p))
        && word.chars().any(|c| c.is_ascii_alphabetic());
    let inner = word.contains('/')
        && (word.matches('/').count() >= 2 || word.contains('.') || word.contains('_'));
    rooted || inner
}

/// `1.0.0`, `v2.3`, `1.18.1-SNAPSHOT`.
fn version(word: &str) -> bool {
    let word = word.strip_prefix(['v', 'V']).unwrap_or(word);
    let numbers = word.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = numbers.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// camelCase, PascalCase with an inner capital (`ValueState`, `ZooKeeper`)
/// and snake_case, alone or inside a longer token.
fn identifier(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    let camel = chars
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let snake = chars
        .windows(3)
        .any(|w| w[1] == '_' && w[0].is_ascii_alphanumeric() && w[2].is_ascii_alphanumeric())
        || word.starts_with('_') && chars.iter().any(|c| c.is_ascii_alphabetic());
    camel || snake
}

/// A dot between two names of two characters or more
/// (`high-availability.storageDir`, `state.backend`, `Node.js`), or one
/// before a name (`.gitignore`); not `e.g` or `Ph.D`.
fn dotted(word: &str) -> bool {
    if let Some(rest) = word.strip_prefix('.') {
        return rest.starts_with(|c: char| c.is_ascii_alphabetic());
    }
    let runs: Vec<&str> = word.split('.').collect();
    runs.windows(2).any(|w| {
        let left = w[0]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        let right = w[1]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        left >= 2 && right >= 2 && w[1].starts_with(|c: char| c.is_ascii_alphabetic())
    })
}

/// A name that starts with a letter and holds a digit: `S3`, `log4j`,
/// `IPv6`, `flink-s3-fs-presto`.
fn named_with_digits(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Proper names joined by a hyphen: `Chandy-Lamport`, `Jean-Paul`.
fn hyphenated_name(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            let mut chars = p.chars();
            chars.next().is_some_and(|c| c.is_ascii_uppercase())
                && p.len() >= 2
                && chars.all(|c| c.is_ascii_lowercase())
        })
}

/// Little words that join the parts of a compound of prose, in English and
/// in Portuguese (`end-to-end`, `state-of-the-art`, `cor-de-rosa`,
/// `bem-te-vi`, `five-year-old`): a lowercase name of three parts or more
/// that holds one is prose, not an artifact's name.
const LITTLE_WORDS: [&str; 74] = [
    "of", "the", "to", "in", "on", "at", "by", "for", "and", "or", "an", "as", "it", "is", "up",
    "out", "off", "with", "from", "into", "over", "not", "all", "be", "so", "no", "my", "me",
    "you", "go", "day", "year", "years", "old", "one", "two", "three", "four", "five", "six",
    "seven", "eight", "nine", "ten", "de", "do", "da", "dos", "das", "em", "na", "nos", "nas",
    "ao", "aos", "com", "por", "sem", "que", "se", "te", "lhe", "lhes", "meu", "minha", "seu",
    "sua", "teu", "tua", "um", "uma", "ou", "os", "vai",
];

/// An artifact's or a package's name: three lowercase parts or more joined
/// by hyphens (`flink-connector-kafka`, `yarn-per-job`,
/// `spring-boot-starter-web`), none of them a little word of prose (see
/// [`LITTLE_WORDS`]). Two parts (`well-known`, `guarda-chuva`,
/// `sexta-feira`) are prose: a name of two parts is a token only when it
/// says so otherwise (a digit, a dot).
fn artifact(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    parts.len() >= 3
        && parts.iter().all(|p| {
            p.len() >= 2
                && p.starts_with(|c: char| c.is_ascii_lowercase())
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
        && !parts.iter().any(|p| LITTLE_WORDS.contains(p))
}

/// A call: `main()`, `close()`, `map(f_1)`; not a word with a gloss
/// written against it, `lote(batch)`.
fn call(word: &str) -> bool {
    let Some(open) = word.find('(') else {
        return false;
    };
    let name = &word[..open];
    let args = &word[open + 1..word.len().saturating_sub(1).max(open + 1)];
    let code_like = args.is_empty() || !args.chars().all(|c| c.is_ascii_alphabetic());
    code_like
        && word.ends_with(')')
        && !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '.')
}

/// Smart punctuation turns `--` into an en dash before stoa sees the text;
/// when the `--` starts a word (`flink stop --savepointPath`), it is a
/// command-line option and gets its two hyphens back. `text` is what the
/// parser made of `body[range]`; anything else is returned as it is.
pub(crate) fn unsmarten_option<'t>(body: &str, text: &'t str, range: &Range<usize>) -> &'t str {
    let source = body.get(range.clone()).unwrap_or("");
    let starts_word = body[..range.start]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || "([{\"'“‘«".contains(c));
    let option_follows = body[range.end..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    if text == "–" && source == "--" && starts_word && option_follows {
        "--"
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_a_token() {
        for word in [
            "--savepointPath",
            "--parallelism=2",
            "-j",
            "-Xmx2g",
            "allowedLateness",
            "ValueState",
            "processElement",
            "ZooKeeper",
            ".setParallelism(2)",
            "snake_case",
            "__init__",
            "high-availability.storageDir",
            "state.backend",
            "flink-s3-fs-presto",
            "/opt/flink/conf",
            "~/.m2",
            "./bin/flink",
            "src/main.rs",
            "https://flink.apache.org/docs",
            "www.example.com",
            "1.0.0",
            "v2.3",
            "1.18.1-SNAPSHOT",
            "S3",
            "log4j",
            "IPv6",
            "Chandy-Lamport",
            "main()",
            "map(f_1)",
            "@Override",
            ".gitignore",
            "flink-connector-kafka",
            "yarn-per-job",
            "spring-boot-starter-web",
        ] {
            assert!(recognise(word), "{word} should be a token");
        }
    }

    #[test]
    fn prose_is_not_a_token() {
        for word in [
            "word",
            "Flink",
            "state-of-the-art",
            "well-known",
            "guarda-chuva",
            "disse-lhe",
            "Guarda-chuva",
            "e/ou",
            "and/or",
            "I/O",
            "e.g",
            "Ph.D",
            "U.S.A",
            "2024",
            "10%",
            "1990s",
            "APIs",
            "NASA",
            "–",
            "ação",
            "pré-requisito",
            "-",
            "--",
            "...",
            "lote(batch)",
            "bem-vindo",
            "sexta-feira",
            "end-to-end",
            "up-to-date",
            "filter-and-projection",
            "five-year-old",
            "cor-de-rosa",
            "bem-te-vi",
            "dia-a-dia",
            "faz-de-conta",
            "bumba-meu-boi",
            "leva-e-traz",
        ] {
            assert!(!recognise(word), "{word} should be prose");
        }
    }

    fn marked(text: &str) -> Vec<Inline> {
        let mut out = Vec::new();
        split(text, &mut out);
        out
    }

    #[test]
    fn sentence_punctuation_stays_outside() {
        let out = marked("Use S3. Then (ValueState), “allowedLateness”: done");
        assert_eq!(
            out,
            vec![
                Inline::text("Use "),
                token("S3"),
                Inline::text(". Then ("),
                token("ValueState"),
                Inline::text("), “"),
                token("allowedLateness"),
                Inline::text("”: done"),
            ]
        );
        assert_eq!(
            marked("call .setParallelism(2) now"),
            vec![
                Inline::text("call "),
                token(".setParallelism(2)"),
                Inline::text(" now"),
            ]
        );
    }

    #[test]
    fn text_without_tokens_is_unchanged() {
        let text = "O guarda-chuva, disse-lhe ele — e foi‑se.";
        assert_eq!(marked(text), vec![Inline::text(text)]);
        assert_eq!(marked(""), Vec::<Inline>::new());
    }

    #[test]
    fn a_leading_double_hyphen_stays_two_hyphens() {
        let body = "flink stop --savepointPath and x -- y and a--b";
        let at = |needle: &str| {
            let start = body.find(needle).unwrap();
            start..start + 2
        };
        assert_eq!(unsmarten_option(body, "–", &at("--s")), "--");
        assert_eq!(unsmarten_option(body, "–", &at("-- ")), "–");
        assert_eq!(unsmarten_option(body, "–", &at("--b")), "–");
    }

    #[test]
    fn markdown_marks_tokens_and_leaves_prose_as_it_was() {
        let parsed = crate::parse(
            "Run `flink run` with --savepointPath and -j, set\n\
             high-availability.storageDir on S3 (version 1.0.0).\n\n\
             It's \"quoted\" -- a well-known guarda-chuva, disse-lhe.\n",
            1,
        );
        let Block::Paragraph { content } = &parsed.blocks[0] else {
            unreachable!()
        };
        let tokens: Vec<String> = content
            .iter()
            .filter(|i| is_token(i))
            .map(stoa_doc::inline_text)
            .collect();
        assert_eq!(
            tokens,
            [
                "--savepointPath",
                "-j",
                "high-availability.storageDir",
                "S3",
                "1.0.0"
            ]
        );
        assert!(matches!(&content[1], Inline::Code { text } if text == "flink run"));
        assert_eq!(
            parsed.blocks[1],
            Block::Paragraph {
                content: vec![Inline::text(
                    "It’s “quoted”\u{a0}– a well-known guarda-chuva, disse-lhe."
                )]
            }
        );
    }

    #[test]
    fn marks_inside_emphasis_and_links_but_not_code() {
        let mut blocks = vec![Block::Paragraph {
            content: vec![
                Inline::Strong {
                    content: vec![Inline::text("the ZooKeeper quorum")],
                },
                Inline::Code {
                    text: "ValueState".into(),
                },
            ],
        }];
        mark(&mut blocks);
        let Block::Paragraph { content } = &blocks[0] else {
            unreachable!()
        };
        assert_eq!(
            content[0],
            Inline::Strong {
                content: vec![
                    Inline::text("the "),
                    token("ZooKeeper"),
                    Inline::text(" quorum")
                ]
            }
        );
        assert!(matches!(content[1], Inline::Code { .. }));
        // Marking twice changes nothing.
        let once = blocks.clone();
        mark(&mut blocks);
        assert_eq!(blocks, once);
    }
}
