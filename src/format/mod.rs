//! The JSON formats people write: scenarios (for `handoff run`, the playground's import and
//! export, share links) and the leader's input (for `handoff assign`), read into the model's
//! types with their validation.
//!
//! Parsing never panics: every problem is a [`ScenarioError`] that names the field and the
//! reason, such as `tasks[2].write_rate: invalid value: integer -5, expected u64`.

pub mod assign;
pub mod scenario;
mod validate;

pub use assign::{AssignConfigFile, AssignFile, AssignMemberFile, AssignRequest, AssignTaskFile};
pub use scenario::{CommandFile, MemberFile, ScenarioFile, TaskFile};
pub use validate::validate_config;

use thiserror::Error;

/// The most tasks a scenario may have: beyond this the playground could not draw it.
pub const MAX_TASKS: usize = 20_000;
/// The most members a scenario may have, joins included.
pub const MAX_MEMBERS: usize = 2_000;
/// The latest moment a scenario may mention: about a year of virtual time.
pub const MAX_TIME_MS: u64 = 365 * 24 * 3_600_000;

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
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        ScenarioError::Json {
            path: if path == "." {
                "(root)".to_string()
            } else {
                path
            },
            message: inner.to_string(),
        }
    })?;
    de.end().map_err(|e| ScenarioError::Json {
        path: "(root)".to_string(),
        message: e.to_string(),
    })?;
    Ok(value)
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
