//! The settings a sweep can vary: any value of the scenario file, named by its path as the
//! format's errors name it (`topology.subtopologies[0].write_rate`, `instances.count`,
//! `events[1].down_ms`), the configuration's without their `config.` (`num_standby_replicas`,
//! `kip441.max_warmup_replicas`). Values are set on the scenario's JSON form and read back
//! through the format's own parsing and validation, so a sweep accepts exactly what a
//! scenario file would.

use super::values::Value;
use crate::format::{parse, ScenarioError, ScenarioFile};
use crate::model::Scenario;
use serde_json::Value as Json;
use std::fmt;

/// Fields the file leaves out at their default, so that the JSON form does not show them,
/// though they are settings all the same: under each object (its path without indices).
const OMITTED: &[(&str, &[&str])] = &[
    ("", &["until_ms"]),
    ("instances", &["threads", "restore_rate", "running"]),
    ("topology.subtopologies", &["stateful", "write_rate"]),
    ("tasks", &["stateful", "changelog", "write_rate"]),
    ("members", &["capacity", "restore_rate", "zone"]),
];

/// Parts of the file that are not settings: the title, the description and the initial owners
/// (names, not values).
const NOT_SETTINGS: &[&str] = &["name", "description", "initial"];

/// A step of a path into the scenario's JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A setting found in a scenario: where its file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    path: Vec<Step>,
}

impl fmt::Display for Setting {
    /// Its path as the format's errors name it: `config.num_standby_replicas`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&path_text(&self.path))
    }
}

fn path_text(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The path of a name: keys joined by dots, each maybe followed by indices (`events[2].at_ms`).
fn parse_path(name: &str) -> Option<Vec<Step>> {
    let mut path = Vec::new();
    for part in name.split('.') {
        let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        let word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
        if key.is_empty() || !key.chars().all(word) {
            return None;
        }
        path.push(Step::Key(key.to_string()));
        while let Some(inner) = rest.strip_prefix('[') {
            let (index, after) = inner.split_once(']')?;
            path.push(Step::Index(index.parse().ok()?));
            rest = after;
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(path)
}

/// The path of an object without its indices, to look it up in [`OMITTED`].
fn shape(path: &[Step]) -> String {
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|s| match s {
            Step::Key(k) => Some(k.as_str()),
            Step::Index(_) => None,
        })
        .collect();
    keys.join(".")
}

/// Whether `key` is a field the file leaves out under the object at `parent`.
fn omitted(parent: &[Step], key: &str) -> bool {
    let shape = shape(parent);
    OMITTED
        .iter()
        .any(|(object, keys)| *object == shape && keys.contains(&key))
}

/// The name people use for a path: the configuration's without `config.`.
fn short_name(path: &[Step]) -> String {
    let text = path_text(path);
    text.strip_prefix("config.")
        .map_or(text.clone(), str::to_string)
}

/// The scenario as its file's JSON, to which a sweep's values are applied.
#[derive(Clone, Debug)]
pub struct Base {
    json: Json,
}

/// Why a name is not a setting of the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotASetting {
    /// No such value in the scenario: the nearest names there are.
    Unknown(Vec<String>),
    /// A setting a sweep does not vary, and why.
    Excluded(&'static str),
}

impl Base {
    /// The scenario's file form, commands included.
    pub fn of(scenario: &Scenario) -> Base {
        let file = scenario.to_file(&scenario.commands);
        Base {
            json: serde_json::to_value(file).unwrap_or(Json::Null),
        }
    }

    /// The setting a name stands for in this scenario.
    pub fn setting(&self, name: &str) -> Result<Setting, NotASetting> {
        let unknown = || NotASetting::Unknown(self.nearest(name));
        let mut path = parse_path(name).ok_or_else(unknown)?;
        if let Some(Step::Key(first)) = path.first() {
            if NOT_SETTINGS.contains(&first.as_str()) {
                return Err(unknown());
            }
            if self.json["config"].get(first).is_some() {
                path.insert(0, Step::Key("config".to_string()));
            }
        }
        if path_text(&path) == "config.strategy" {
            return Err(NotASetting::Excluded(
                "the strategies are the sweep's other axis: list them with the strategies instead",
            ));
        }
        let (last, parent) = path.split_last().ok_or_else(unknown)?;
        let mut node = &self.json;
        for step in parent {
            node = child(node, step).ok_or_else(unknown)?;
        }
        match (child(node, last), last) {
            (Some(value), _) if !value.is_object() && !value.is_array() => Ok(Setting { path }),
            (None, Step::Key(key)) if node.is_object() && omitted(parent, key) => {
                Ok(Setting { path })
            }
            _ => Err(unknown()),
        }
    }

    /// Every setting of the scenario by the name people use, in the file's order.
    pub fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        collect(&self.json, &mut Vec::new(), &mut names);
        names
    }

    /// The names of the scenario nearest to `name`: first those sharing a word with it, then
    /// by edit distance; three at most.
    pub fn nearest(&self, name: &str) -> Vec<String> {
        let words = |s: &str| -> Vec<String> {
            s.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| w.len() >= 3)
                .map(str::to_ascii_lowercase)
                .collect()
        };
        let asked = words(name);
        let mut scored: Vec<(usize, usize, String)> = self
            .names()
            .into_iter()
            .map(|candidate| {
                let theirs = words(&candidate);
                let shared = asked
                    .iter()
                    .filter(|a| {
                        theirs
                            .iter()
                            .any(|w| w.contains(a.as_str()) || a.contains(w))
                    })
                    .count();
                (
                    usize::MAX - shared,
                    edit_distance(name, &candidate),
                    candidate,
                )
            })
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, _, n)| n).collect()
    }

    /// The scenario with each setting at its value, read back through the format's parsing
    /// and validation; a refusal names the field, as for a scenario file.
    pub fn apply(&self, values: &[(&Setting, &Value)]) -> Result<Scenario, ScenarioError> {
        let mut json = self.json.clone();
        for (setting, value) in values {
            set(&mut json, &setting.path, value.to_json());
        }
        let text = serde_json::to_string(&json).unwrap_or_default();
        let file = parse::<ScenarioFile>(&text).map_err(|e| match e {
            // The position is in the JSON made here, which nobody reads: leave it out.
            ScenarioError::Json { path, message } => ScenarioError::Json {
                path,
                message: message
                    .rfind(" at line ")
                    .map_or(message.clone(), |at| message[..at].to_string()),
            },
            other => other,
        })?;
        Scenario::from_file(file)
    }
}

/// The child of a JSON node at a step, if it has one.
fn child<'a>(node: &'a Json, step: &Step) -> Option<&'a Json> {
    match step {
        Step::Key(k) => node.get(k),
        Step::Index(i) => node.get(i),
    }
}

/// Sets the value at a path whose parent exists (as [`Base::setting`] found it).
fn set(json: &mut Json, path: &[Step], value: Json) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let mut node = json;
    for step in parent {
        let next = match step {
            Step::Key(k) => node.get_mut(k),
            Step::Index(i) => node.get_mut(*i),
        };
        let Some(next) = next else { return };
        node = next;
    }
    match (last, node) {
        (Step::Key(k), Json::Object(map)) => {
            map.insert(k.clone(), value);
        }
        (Step::Index(i), Json::Array(items)) => {
            if let Some(item) = items.get_mut(*i) {
                *item = value;
            }
        }
        _ => {}
    }
}

/// The names of every value under `node` (at `path`), and of the fields left out there.
fn collect(node: &Json, path: &mut Vec<Step>, names: &mut Vec<String>) {
    match node {
        Json::Object(map) => {
            for (key, value) in map {
                if path.is_empty() && NOT_SETTINGS.contains(&key.as_str()) {
                    continue;
                }
                path.push(Step::Key(key.clone()));
                if path_text(path) != "config.strategy" {
                    collect(value, path, names);
                }
                path.pop();
            }
            let shape = shape(path);
            for (_, keys) in OMITTED.iter().filter(|(object, _)| *object == shape) {
                for key in keys.iter().filter(|k| !map.contains_key(**k)) {
                    path.push(Step::Key(key.to_string()));
                    names.push(short_name(path));
                    path.pop();
                }
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                collect(item, path, names);
                path.pop();
            }
        }
        _ => names.push(short_name(path)),
    }
}

/// Levenshtein's edit distance between two names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Base {
        let scenario = Scenario::from_json(
            r#"{ "name": "t", "config": { "num_standby_replicas": 1 },
                 "topology": { "subtopologies": [ { "name": "a", "partitions": 4,
                   "changelog": { "min": 10, "max": 20 } } ] },
                 "instances": { "count": 2, "zones": ["a", "b"] },
                 "events": [ { "at_ms": 100, "join": "S3" }, { "at_ms": 900, "restart": "S1", "down_ms": 5000 } ] }"#,
        )
        .expect("parses");
        Base::of(&scenario)
    }

    fn field(name: &str) -> String {
        base().setting(name).expect(name).to_string()
    }

    #[test]
    fn names_resolve_to_the_fields_of_the_file() {
        assert_eq!(field("num_standby_replicas"), "config.num_standby_replicas");
        assert_eq!(
            field("config.num_standby_replicas"),
            "config.num_standby_replicas"
        );
        assert_eq!(
            field("kip441.max_warmup_replicas"),
            "config.kip441.max_warmup_replicas"
        );
        assert_eq!(
            field("max_learners"),
            "config.max_learners",
            "null is a value too"
        );
        assert_eq!(field("instances.count"), "instances.count");
        assert_eq!(
            field("instances.threads"),
            "instances.threads",
            "left out at 1"
        );
        assert_eq!(field("until_ms"), "until_ms", "left out when none");
        assert_eq!(
            field("topology.subtopologies[0].changelog.max"),
            "topology.subtopologies[0].changelog.max"
        );
        assert_eq!(field("events[1].down_ms"), "events[1].down_ms");
    }

    #[test]
    fn what_is_not_a_value_of_the_scenario_is_refused_with_the_nearest_names() {
        let b = base();
        let Err(NotASetting::Unknown(near)) = b.setting("standbys") else {
            panic!("unknown")
        };
        assert!(
            near.contains(&"num_standby_replicas".to_string()),
            "{near:?}"
        );
        assert!(
            near.contains(&"rack_aware_standbys".to_string()),
            "{near:?}"
        );
        for name in [
            "instances",
            "topology.subtopologies[3].partitions",
            "events[1].colour",
            "name",
            "initial",
            "Bad Name",
            "tasks[0].write_rate",
        ] {
            assert!(
                matches!(b.setting(name), Err(NotASetting::Unknown(_))),
                "{name}"
            );
        }
        assert!(matches!(
            b.setting("strategy"),
            Err(NotASetting::Excluded(_))
        ));
        let Err(NotASetting::Unknown(near)) = b.setting("instance.count") else {
            panic!("unknown")
        };
        assert!(near.contains(&"instances.count".to_string()), "{near:?}");
    }

    #[test]
    fn every_name_listed_resolves() {
        let b = base();
        let names = b.names();
        for name in [
            "num_standby_replicas",
            "instances.threads",
            "topology.seed",
            "events[0].at_ms",
        ] {
            assert!(names.contains(&name.to_string()), "{name} in {names:?}");
        }
        assert!(!names.iter().any(|n| n == "strategy" || n == "name"));
        for name in &names {
            assert!(b.setting(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn applied_values_go_through_the_formats_validation() {
        let b = base();
        let standbys = b.setting("num_standby_replicas").expect("setting");
        let s = b.apply(&[(&standbys, &Value::Number(2))]).expect("valid");
        assert_eq!(s.config.num_standby_replicas, 2);
        let e = b
            .apply(&[(&standbys, &Value::Number(-1))])
            .expect_err("negative");
        assert_eq!(
            e.to_string(),
            "config.num_standby_replicas: invalid value: integer `-1`, expected u32"
        );
        let threads = b.setting("instances.threads").expect("setting");
        let s = b.apply(&[(&threads, &Value::Number(3))]).expect("valid");
        assert_eq!(s.members[0].capacity, 3);
        let e = b
            .apply(&[(&threads, &Value::Number(0))])
            .expect_err("no thread");
        assert!(e.to_string().starts_with("instances.threads: "), "{e}");
        let max = b
            .setting("topology.subtopologies[0].changelog.max")
            .expect("setting");
        let e = b
            .apply(&[(&max, &Value::Number(5))])
            .expect_err("under min");
        assert_eq!(
            e.to_string(),
            "topology.subtopologies[0].changelog: min (10) is above max (5)"
        );
    }

    #[test]
    fn the_edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
