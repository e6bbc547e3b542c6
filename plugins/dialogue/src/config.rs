//! The plugin's settings: `[plugins.dialogue]` in book.toml, overridden key
//! by key by `[plugins.dialogue]` in a post's front matter.

use serde_json::Value;
use stoa_sdk::PluginError;

/// How a speaker's name is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Names {
    /// As the author wrote it (`SÓCRATES`).
    #[default]
    AsWritten,
    /// In title case, set in small capitals (`SÓCRATES` → `Sócrates`).
    TitleCase,
}

/// The settings for one chapter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The speakers, when the author names them; `None` to detect them.
    pub speakers: Option<Vec<String>>,
    /// How names are shown.
    pub names: Names,
    /// Whether each dialogue opens with a list of its speakers.
    pub characters: bool,
}

const KEYS_HINT: &str = "the keys of [plugins.dialogue] are `speakers` (a list of names, e.g. \
     speakers = [\"SÓCRATES\", \"GLAUCO\"]), `names` (\"as-written\" or \"title-case\") and \
     `characters` (true or false)";

impl Settings {
    /// Applies one `[plugins.dialogue]` table; `place` says where it was
    /// written, for messages (e.g. `book.toml`).
    pub fn apply(&mut self, table: &Value, place: &str) -> Result<(), PluginError> {
        let table = match table {
            Value::Null => return Ok(()),
            Value::Object(map) => map,
            other => {
                return Err(PluginError::new(format!(
                    "[plugins.dialogue] in {place} must be a table of settings, not {}",
                    kind(other)
                ))
                .with_hint(KEYS_HINT));
            }
        };
        for (key, value) in table {
            match key.as_str() {
                "speakers" => self.speakers = Some(speakers(value, place)?),
                "names" => {
                    self.names = match value.as_str() {
                        Some("as-written") => Names::AsWritten,
                        Some("title-case") => Names::TitleCase,
                        _ => {
                            return Err(PluginError::new(format!(
                                "`names` in [plugins.dialogue] of {place} must be \"as-written\" \
                                 or \"title-case\", not {}",
                                shown(value)
                            ))
                            .with_hint(
                                "write names = \"as-written\" to keep the names as in the posts, \
                                 or names = \"title-case\" for SÓCRATES → Sócrates in small capitals",
                            ));
                        }
                    }
                }
                "characters" => {
                    self.characters = value.as_bool().ok_or_else(|| {
                        PluginError::new(format!(
                            "`characters` in [plugins.dialogue] of {place} must be true or false, \
                             not {}",
                            shown(value)
                        ))
                        .with_hint("write characters = true to list the speakers at the head of each dialogue")
                    })?;
                }
                other => {
                    return Err(PluginError::new(format!(
                        "unknown key `{other}` in [plugins.dialogue] of {place}"
                    ))
                    .with_hint(format!("remove or rename `{other}`: {KEYS_HINT}")));
                }
            }
        }
        Ok(())
    }
}

fn speakers(value: &Value, place: &str) -> Result<Vec<String>, PluginError> {
    let bad = |what: String| {
        PluginError::new(format!(
            "`speakers` in [plugins.dialogue] of {place} {what}"
        ))
        .with_hint("write the names as the posts do, e.g. speakers = [\"SÓCRATES\", \"GLAUCO\"]")
    };
    let Value::Array(items) = value else {
        return Err(bad(format!(
            "must be a list of names, not {}",
            shown(value)
        )));
    };
    items
        .iter()
        .map(|item| match item.as_str().map(str::trim) {
            Some("") => Err(bad("holds an empty name".into())),
            Some(name) if name.contains([':', '\n']) => Err(bad(format!(
                "holds {name:?}: write a name without the colon that follows it in the posts"
            ))),
            Some(name) => Ok(name.to_string()),
            None => Err(bad(format!("must hold only names, not {}", shown(item)))),
        })
        .collect()
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a table",
    }
}

fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        Value::Bool(_) | Value::Number(_) => format!("{} {value}", kind(value)),
        other => kind(other).to_string(),
    }
}
