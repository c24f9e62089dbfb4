//! The scenario file: what `handoff run` reads, the playground imports and exports, and a share
//! link carries. [`ScenarioFile`] is the JSON as written; [`Scenario::from_file`] validates it
//! into the model's [`Scenario`], expanding a `topology` and `instances` (see
//! [`super::topology`]); [`Scenario::to_file`] writes those short forms back.

use super::events::{self, CommandFile};
use super::topology::{instance_members, running_owners, topology_tasks};
use super::validate::{
    check_changelog, check_rate, cleanup, member_spec, process_rate, unique_names, validate_config,
};
use super::{defaults, parse, ScenarioError, MAX_MEMBERS, MAX_TASKS, MAX_TIME_MS};
use crate::model::{
    Cleanup, CleanupPolicy, Config, Instances, MemberId, MemberSpec, Roster, Scenario, Task,
    TimedCommand, Topology,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A task as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskFile {
    /// Its name, such as `T1`.
    pub id: String,
    /// Whether it has state (default true).
    #[serde(default = "defaults::yes", skip_serializing_if = "defaults::is_true")]
    pub stateful: bool,
    /// Records in its changelog at the start (default 0).
    #[serde(default, skip_serializing_if = "defaults::is_zero")]
    pub changelog: u64,
    /// Records per second appended while it is processed (default 0).
    #[serde(default, skip_serializing_if = "defaults::is_zero")]
    pub write_rate: u64,
    /// How its changelog keeps records (default `compact`: `changelog` counts keys).
    #[serde(default, skip_serializing_if = "CleanupPolicy::is_compact")]
    pub cleanup: CleanupPolicy,
    /// How long a `compact,delete` changelog keeps records (default two days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention_ms: Option<u64>,
    /// Keys per second its store gains while processed (default 0).
    #[serde(default, skip_serializing_if = "defaults::is_zero")]
    pub key_growth: u64,
    /// Records per second it processes (default: the configuration's `process_rate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_rate: Option<u64>,
}

impl TaskFile {
    /// A task file with a name, whether it is stateful, its changelog and write rate, and
    /// every other field at its default.
    pub fn new(id: impl Into<String>, stateful: bool, changelog: u64, write_rate: u64) -> TaskFile {
        TaskFile {
            id: id.into(),
            stateful,
            changelog,
            write_rate,
            cleanup: CleanupPolicy::Compact,
            retention_ms: None,
            key_growth: 0,
            process_rate: None,
        }
    }
}

/// A member as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberFile {
    /// Its name, such as `S1`.
    pub id: String,
    /// Its capacity (default 1).
    #[serde(default = "defaults::one", skip_serializing_if = "defaults::is_one")]
    pub capacity: u32,
    /// Records per second it restores (default: the config's `restore_rate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_rate: Option<u64>,
    /// Its availability zone, such as `"a"` (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

/// A scenario file: the group, its tasks, the configuration and the commands over time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// A title.
    pub name: String,
    /// What it shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Settings; every field has a default.
    #[serde(default)]
    pub config: Config,
    /// The application's tasks, one by one (or give a `topology`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<TaskFile>,
    /// The application as Kafka Streams subtopologies, expanded into tasks (or give `tasks`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
    /// The members at the start, in join order, one by one (or give `instances`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<MemberFile>,
    /// The members at the start by count, with threads and zones (or give `members`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<Instances>,
    /// Tasks the members run, caught up, when the scenario starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<BTreeMap<String, Vec<String>>>,
    /// Commands over time (the file calls them `events`).
    #[serde(default, rename = "events")]
    pub commands: Vec<CommandFile>,
    /// Stop the run here even if the group is not at rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
}

impl Scenario {
    /// Parses and validates a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_file(parse::<ScenarioFile>(text)?)
    }

    /// Validates a parsed scenario file.
    pub fn from_file(file: ScenarioFile) -> Result<Scenario, ScenarioError> {
        validate_config(&file.config)?;
        let tasks = scenario_tasks(&file)?;
        let members = scenario_members(&file)?;
        let roster = Roster {
            tasks: tasks.iter().map(|t| t.name.as_str().into()).collect(),
            members: members.iter().map(|m| m.name.clone()).collect(),
            subtopologies: Vec::new(),
        };
        let initial = match (&file.initial, &file.instances) {
            (Some(_), Some(i)) if i.running => {
                return Err(ScenarioError::invalid(
                    "instances.running",
                    "running instances already run every task, so leave `initial` out (or set running to false)",
                ))
            }
            (None, Some(i)) if i.running => Some(running_owners(&tasks, members.len())),
            (None, _) => None,
            (Some(map), _) => Some(validate_initial(map, &roster)?),
        };
        let (commands, known) = events::commands(&file.commands, &members)?;
        if known > MAX_MEMBERS {
            return Err(ScenarioError::invalid(
                "members",
                format!("{known} members is more than the {MAX_MEMBERS} the playground can show"),
            ));
        }
        if let Some(until) = file.until_ms {
            if until > MAX_TIME_MS {
                return Err(ScenarioError::invalid(
                    "until_ms",
                    format!("{until} ms is beyond the {MAX_TIME_MS} ms a scenario may cover"),
                ));
            }
        }
        Ok(Scenario {
            name: file.name,
            description: file.description,
            config: file.config,
            tasks,
            members,
            initial,
            commands,
            until_ms: file.until_ms,
            topology: file.topology,
            instances: file.instances,
        })
    }

    /// The scenario in the file format with `commands` as its commands (the playground's
    /// export: the commands of the history being viewed, the loaded ones and the person's).
    pub fn to_file(&self, commands: &[TimedCommand]) -> ScenarioFile {
        let member_name = |m: MemberId| self.members[m.index()].name.clone();
        let running = self.instances.as_ref().is_some_and(|i| i.running);
        let initial = self.initial.as_ref().filter(|_| !running).map(|owners| {
            let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (t, owner) in owners.iter().enumerate() {
                if let Some(m) = owner {
                    map.entry(member_name(*m))
                        .or_default()
                        .push(self.tasks[t].name.clone());
                }
            }
            map
        });
        ScenarioFile {
            name: self.name.clone(),
            description: self.description.clone(),
            config: self.config.clone(),
            tasks: if self.topology.is_some() {
                Vec::new()
            } else {
                self.tasks
                    .iter()
                    .map(|t| {
                        let (cleanup, retention_ms) = match t.cleanup {
                            Cleanup::Compact => (CleanupPolicy::Compact, None),
                            Cleanup::Windowed { retention_ms } => {
                                (CleanupPolicy::CompactDelete, Some(retention_ms))
                            }
                            Cleanup::Append => (CleanupPolicy::Append, None),
                        };
                        TaskFile {
                            id: t.name.clone(),
                            stateful: t.stateful,
                            changelog: t.changelog,
                            write_rate: t.write_rate,
                            cleanup,
                            retention_ms,
                            key_growth: t.key_growth,
                            process_rate: t.process_rate,
                        }
                    })
                    .collect()
            },
            topology: self.topology.clone(),
            members: if self.instances.is_some() {
                Vec::new()
            } else {
                self.members
                    .iter()
                    .map(|m| MemberFile {
                        id: m.name.clone(),
                        capacity: m.capacity,
                        restore_rate: m.restore_rate,
                        zone: m.zone.clone(),
                    })
                    .collect()
            },
            instances: self.instances.clone(),
            initial,
            commands: commands.iter().map(CommandFile::of).collect(),
            until_ms: self.until_ms,
        }
    }

    /// The scenario as pretty JSON in the file format, with `commands` as its commands.
    pub fn to_json(&self, commands: &[TimedCommand]) -> String {
        serde_json::to_string_pretty(&self.to_file(commands)).unwrap_or_default()
    }
}

/// The tasks of a file: its `tasks` or its expanded `topology`, never both.
fn scenario_tasks(file: &ScenarioFile) -> Result<Vec<Task>, ScenarioError> {
    if let Some(topology) = &file.topology {
        if !file.tasks.is_empty() {
            return Err(ScenarioError::invalid(
                "topology",
                "give the application's tasks one by one (`tasks`) or as a `topology`, not both",
            ));
        }
        return topology_tasks(topology);
    }
    if file.tasks.len() > MAX_TASKS {
        return Err(ScenarioError::invalid(
            "tasks",
            format!(
                "{} tasks, over the limit of {MAX_TASKS} a scenario may have: the playground draws every task",
                file.tasks.len()
            ),
        ));
    }
    unique_names("tasks", "task", file.tasks.iter().map(|t| t.id.as_str()))?;
    file.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let field = format!("tasks[{i}]");
            check_changelog(&format!("{field}.changelog"), t.changelog)?;
            check_rate(&format!("{field}.write_rate"), t.write_rate)?;
            Ok(Task {
                cleanup: cleanup(&field, t.cleanup, t.retention_ms, t.key_growth)?,
                key_growth: if t.stateful { t.key_growth } else { 0 },
                process_rate: process_rate(&field, t.process_rate)?,
                ..Task::new(t.id.clone(), t.stateful, t.changelog, t.write_rate)
            })
        })
        .collect()
}

/// The members at the start of a file: its `members` or its expanded `instances`, never both.
fn scenario_members(file: &ScenarioFile) -> Result<Vec<MemberSpec>, ScenarioError> {
    if let Some(instances) = &file.instances {
        if !file.members.is_empty() {
            return Err(ScenarioError::invalid(
                "instances",
                "give the members one by one (`members`) or by count (`instances`), not both",
            ));
        }
        return instance_members(instances);
    }
    unique_names(
        "members",
        "member",
        file.members.iter().map(|m| m.id.as_str()),
    )?;
    file.members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            member_spec(
                &format!("members[{i}]"),
                &m.id,
                m.capacity,
                m.restore_rate,
                m.zone.as_deref(),
            )
        })
        .collect()
}

/// The initial owner of each task, from `initial` (member name to its task names).
fn validate_initial(
    map: &BTreeMap<String, Vec<String>>,
    roster: &Roster,
) -> Result<Vec<Option<MemberId>>, ScenarioError> {
    let mut owners: Vec<Option<MemberId>> = vec![None; roster.tasks.len()];
    let index = roster.task_index();
    for (member, tasks) in map {
        let Some(m) = roster.member_id(member) else {
            return Err(ScenarioError::invalid(
                format!("initial.{member}"),
                format!("member {member} is not in `members`"),
            ));
        };
        for task in tasks {
            let Some(&t) = index.get(task.as_str()) else {
                return Err(ScenarioError::invalid(
                    format!("initial.{member}"),
                    format!("task {task} is not in `tasks`"),
                ));
            };
            if let Some(first) = owners[t.index()] {
                return Err(ScenarioError::invalid(
                    format!("initial.{member}"),
                    format!(
                        "task {task} is already owned by {}: a task has one owner",
                        roster.member(first)
                    ),
                ));
            }
            owners[t.index()] = Some(m);
        }
    }
    Ok(owners)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::PRESETS;

    #[test]
    fn every_preset_survives_a_round_trip_through_the_file_format() {
        for preset in PRESETS {
            let scenario = preset.scenario().expect("parses");
            let again =
                Scenario::from_json(&scenario.to_json(&scenario.commands)).expect("parses again");
            assert_eq!(again, scenario, "{}", preset.id);
        }
    }

    #[test]
    fn defaults_fill_what_a_file_leaves_out() {
        let s = Scenario::from_json(r#"{ "name": "tiny", "tasks": [ { "id": "T1" } ] }"#)
            .expect("parses");
        assert_eq!(s.config, Config::default());
        assert!(s.tasks[0].stateful);
        assert!(s.members.is_empty() && s.commands.is_empty() && s.initial.is_none());
    }

    #[test]
    fn events_are_sorted_by_time_keeping_the_order_of_ties() {
        let s = Scenario::from_json(
            r#"{ "name": "x", "tasks": [], "events": [
                { "at_ms": 50, "join": "A" }, { "at_ms": 10, "join": "B" }, { "at_ms": 50, "join": "C" } ] }"#,
        )
        .expect("parses");
        let order: Vec<String> = s.commands.iter().map(|e| e.command.to_string()).collect();
        assert_eq!(order, ["join B", "join A", "join C"]);
    }

    #[test]
    fn a_command_before_its_member_joins_is_refused() {
        let err = Scenario::from_json(
            r#"{ "name": "x", "tasks": [], "events": [
                { "at_ms": 10, "crash": "S5" }, { "at_ms": 20, "join": "S5" } ] }"#,
        )
        .expect_err("S5 is not there yet");
        assert!(err.to_string().contains("has not joined by 10 ms"), "{err}");
    }

    #[test]
    fn names_with_separators_are_refused() {
        let err = Scenario::from_json(r#"{ "name": "x", "tasks": [ { "id": "T[1]" } ] }"#)
            .expect_err("bracket");
        assert!(err.to_string().starts_with("tasks[0].id"), "{err}");
    }
}
