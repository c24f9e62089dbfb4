//! The JSON formats people write: scenarios (for `handoff run`, the playground's import and
//! export, share links), with the short forms of an application ([`topology`]: subtopologies
//! and instances), and the leader's input (for `handoff assign`), read into the model's types
//! with their validation.
//!
//! Parsing never panics: every problem is a [`ScenarioError`] that names the field and the
//! reason, such as `tasks[2].write_rate: invalid value: integer -5, expected u64`.

pub mod assign;
pub mod events;
pub mod scenario;
pub mod topology;
mod validate;

pub use assign::{AssignConfigFile, AssignFile, AssignMemberFile, AssignRequest, AssignTaskFile};
pub use events::{CommandFile, RollingRestartFile};
pub use scenario::{MemberFile, ScenarioFile, TaskFile};
pub use topology::{ChangelogSizes, Instances, SizeDistribution, Subtopology, Topology};
pub use validate::{member_spec, validate_config};

use thiserror::Error;

/// The most tasks a scenario may have, given one by one or as a topology: the playground
/// draws every task, and beyond this it could not.
pub const MAX_TASKS: usize = 50_000;
/// The most members a scenario may have, joins included.
pub const MAX_MEMBERS: usize = 5_000;
pub use crate::model::MAX_THREADS;
/// The latest moment a scenario may mention: about a year of virtual time.
pub const MAX_TIME_MS: u64 = 365 * 24 * 3_600_000;
/// The fastest write or restore rate a scenario may give, in records per second.
pub const MAX_RATE: u64 = 1_000_000_000_000;
/// The longest changelog a scenario may give, in records.
pub const MAX_CHANGELOG: u64 = 1_000_000_000_000_000;

/// Something wrong with a scenario or an assignor input; the message names the field.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ScenarioError {
    /// The JSON does not parse or does not have the expected shape.
    #[error("{path}: {message}")]
    Json {
        /// Where: `tasks[2].write_rate`, or `(root)`.
        path: String,
        /// Why, as serde reports it.
        message: String,
    },
    /// A field has a value the simulation cannot work with.
    #[error("{field}: {reason}")]
    Invalid {
        /// Where.
        field: String,
        /// Why.
        reason: String,
    },
}

impl ScenarioError {
    /// A field with a value the simulation cannot work with.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
        ScenarioError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Parses JSON text into a file type, naming the path of the first problem. Every reader of
/// JSON goes through here, so the browser build holds one deserializer of each type.
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    serde_json::from_str(text).map_err(|e| ScenarioError::Json {
        path: path_at(text, e.line(), e.column()),
        message: e.to_string(),
    })
}

/// One level of nesting while scanning JSON.
enum Level {
    /// In an object: the key being read, and whether a key comes next.
    Object(Option<String>, bool),
    /// In an array: the index of the element being read.
    Array(usize),
}

/// The path (`tasks[2].write_rate`) of the value being read where serde stopped (its line
/// and column, as serde reports them): the text up to there is scanned for the objects and
/// arrays it is inside. Serde reports the position just after what it could not take, so
/// the path names that value (or, for a missing field, the object just closed).
fn path_at(text: &str, line: usize, column: usize) -> String {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let end = (start + column).min(text.len());
    let bytes = &text.as_bytes()[..end];
    let mut stack: Vec<Level> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => stack.push(Level::Object(None, true)),
            b'[' => stack.push(Level::Array(0)),
            b'}' | b']' => {
                // Serde stops on the brace closing an object when a field is missing: the
                // path is then the object's own.
                if i + 1 < bytes.len() {
                    stack.pop();
                } else if let Some(Level::Object(key, _)) = stack.last_mut() {
                    *key = None;
                }
            }
            b',' => match stack.last_mut() {
                Some(Level::Array(index)) => *index += 1,
                Some(Level::Object(key, next)) => {
                    *key = None;
                    *next = true;
                }
                None => {}
            },
            b'"' => {
                let from = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Level::Object(key, next)) = stack.last_mut() {
                    if *next {
                        *key = text.get(from..i.min(end)).map(str::to_string);
                        *next = false;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for level in &stack {
        match level {
            Level::Object(Some(key), _) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Level::Object(None, _) => {}
            Level::Array(index) => path.push_str(&format!("[{index}]")),
        }
    }
    if path.is_empty() {
        "(root)".to_string()
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Task {
        id: String,
        #[serde(default)]
        write_rate: u64,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct File {
        name: String,
        tasks: Vec<Task>,
        #[serde(default)]
        lags: std::collections::BTreeMap<String, u64>,
    }

    fn error(text: &str) -> String {
        parse::<File>(text).expect_err("invalid").to_string()
    }

    #[test]
    fn errors_name_the_path_of_the_value() {
        let e = error(
            r#"{ "name": "x", "tasks": [ { "id": "T1" }, { "id": "T2", "write_rate": -5 } ] }"#,
        );
        assert!(
            e.starts_with("tasks[1].write_rate: invalid value: integer `-5`"),
            "{e}"
        );
        let e = error("{\n  \"name\": \"x\",\n  \"tasks\": [\n    { \"write_rate\": 3 }\n  ]\n}");
        assert!(e.starts_with("tasks[0]: missing field `id`"), "{e}");
        let e = error(r#"{ "name": "x", "tasks": [ { "id": "T1", "colour": "red" } ] }"#);
        assert!(
            e.starts_with("tasks[0].colour: unknown field `colour`"),
            "{e}"
        );
        let e = error(r#"{ "name": "x", "tasks": [], "lags": { "T1": -3 } }"#);
        assert!(e.starts_with("lags.T1: invalid value"), "{e}");
        let e = error(r#"{ "name": 7, "tasks": [] }"#);
        assert!(e.starts_with("name: invalid type"), "{e}");
        assert!(error(r#"{ "tasks": [] }"#).starts_with("(root): missing field `name`"));
        assert!(
            error("[1, 2").starts_with("[0]: invalid type"),
            "{}",
            error("[1, 2")
        );
        assert!(
            error("{ \"name\": ").starts_with("name: "),
            "{}",
            error("{ \"name\": ")
        );
        let e = error(
            r#"{ "name": "a \"quoted\" one", "tasks": [ { "id": "T1", "write_rate": "x" } ] }"#,
        );
        assert!(e.starts_with("tasks[0].write_rate: invalid type"), "{e}");
    }
}

/// Serde defaults and skips shared by the file formats.
mod defaults {
    pub fn yes() -> bool {
        true
    }

    pub fn one() -> u32 {
        1
    }

    pub fn is_true(b: &bool) -> bool {
        *b
    }

    pub fn is_one(n: &u32) -> bool {
        *n == 1
    }

    pub fn is_zero(n: &u64) -> bool {
        *n == 0
    }
}
