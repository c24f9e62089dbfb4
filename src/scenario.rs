//! The JSON formats people write and read: scenarios (for `handoff run`, the playground's
//! import and export) and the assignor's input (for `handoff assign`), with their validation.
//!
//! Parsing never panics: every problem is a [`ScenarioError`] that names the field and the
//! reason, such as `tasks[2].write_rate: invalid value: integer -5, expected u64`.

use crate::model::{
    AssignorConfig, Config, JoinMetadata, MemberId, Roster, Strategy, Task, TaskId, TaskInfo,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
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
    fn invalid(field: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
        ScenarioError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
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

fn yes() -> bool {
    true
}

fn one() -> u32 {
    1
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A task as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskFile {
    /// Its name, such as `T1`.
    pub id: String,
    /// Whether it has state (default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub stateful: bool,
    /// Records in its changelog at the start (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub changelog: u64,
    /// Records per second appended while it is processed (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub write_rate: u64,
}

/// A member as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberFile {
    /// Its name, such as `S1`.
    pub id: String,
    /// Its capacity (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub capacity: u32,
    /// Records per second it restores (default: the config's `restore_rate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_rate: Option<u64>,
}

/// A timed command as written in a scenario file: exactly one of `join`, `drain`, `crash`,
/// `crash_leader`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventFile {
    /// When, in virtual milliseconds from the start.
    pub at_ms: u64,
    /// A new member joins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<String>,
    /// A member is told to drain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drain: Option<String>,
    /// A member is killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash: Option<String>,
    /// Whoever leads at that moment is killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash_leader: Option<bool>,
    /// Capacity of a joining member (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<u32>,
    /// Restore rate of a joining member (default: the config's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_rate: Option<u64>,
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
    /// The application's tasks.
    pub tasks: Vec<TaskFile>,
    /// The members at the start, in join order.
    #[serde(default)]
    pub members: Vec<MemberFile>,
    /// Tasks the members run, caught up, when the scenario starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<BTreeMap<String, Vec<String>>>,
    /// Commands over time.
    #[serde(default)]
    pub events: Vec<EventFile>,
    /// Stop the run here even if the group is not at rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<u64>,
}

/// A member to add: its name, capacity and restore rate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemberSpec {
    /// Its name.
    pub name: String,
    /// Its capacity, at least 1.
    pub capacity: u32,
    /// Its restore rate in records per second, or the config's.
    pub restore_rate: Option<u64>,
}

/// Something a person (or a scenario) does to the group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// A new member joins.
    Join(MemberSpec),
    /// A member is killed.
    Crash(String),
    /// A member is told to drain.
    Drain(String),
    /// The current leader is killed.
    CrashLeader,
}

impl Command {
    /// A short description, such as "crash S1".
    pub fn describe(&self) -> String {
        match self {
            Command::Join(spec) => format!("join {}", spec.name),
            Command::Crash(m) => format!("crash {m}"),
            Command::Drain(m) => format!("drain {m}"),
            Command::CrashLeader => "crash the leader".to_string(),
        }
    }
}

/// A command at a moment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimedCommand {
    /// When, in virtual milliseconds.
    pub at_ms: u64,
    /// What.
    pub command: Command,
}

impl TimedCommand {
    /// The command in the file format.
    pub fn to_file(&self) -> EventFile {
        let mut e = EventFile {
            at_ms: self.at_ms,
            ..EventFile::default()
        };
        match &self.command {
            Command::Join(spec) => {
                e.join = Some(spec.name.clone());
                e.capacity = (spec.capacity != 1).then_some(spec.capacity);
                e.restore_rate = spec.restore_rate;
            }
            Command::Crash(m) => e.crash = Some(m.clone()),
            Command::Drain(m) => e.drain = Some(m.clone()),
            Command::CrashLeader => e.crash_leader = Some(true),
        }
        e
    }
}

/// A validated scenario, ready to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// A title.
    pub name: String,
    /// What it shows.
    pub description: String,
    /// Settings.
    pub config: Config,
    /// The tasks.
    pub tasks: Vec<Task>,
    /// The members at the start, in join order.
    pub members: Vec<MemberSpec>,
    /// The initial owner of each task, if the group starts stable.
    pub initial: Option<Vec<Option<MemberId>>>,
    /// Commands, sorted by time (ties keep the file's order).
    pub events: Vec<TimedCommand>,
    /// Where a run stops at the latest.
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
        if file.tasks.len() > MAX_TASKS {
            return Err(ScenarioError::invalid(
                "tasks",
                format!(
                    "{} tasks is more than the {MAX_TASKS} the playground can show",
                    file.tasks.len()
                ),
            ));
        }
        let mut task_names = HashSet::new();
        for (i, t) in file.tasks.iter().enumerate() {
            check_name(&format!("tasks[{i}].id"), &t.id)?;
            if !task_names.insert(t.id.as_str()) {
                return Err(ScenarioError::invalid(
                    format!("tasks[{i}].id"),
                    format!("task {} is listed twice", t.id),
                ));
            }
        }
        let tasks: Vec<Task> = file
            .tasks
            .iter()
            .map(|t| Task {
                name: t.id.clone(),
                stateful: t.stateful,
                changelog: if t.stateful { t.changelog } else { 0 },
                write_rate: if t.stateful { t.write_rate } else { 0 },
            })
            .collect();
        let roster = Roster {
            tasks: tasks.iter().map(|t| t.name.clone()).collect(),
            members: file.members.iter().map(|m| m.id.clone()).collect(),
        };
        let mut member_names = HashSet::new();
        let mut members = Vec::with_capacity(file.members.len());
        for (i, m) in file.members.iter().enumerate() {
            let field = format!("members[{i}]");
            check_name(&format!("{field}.id"), &m.id)?;
            if !member_names.insert(m.id.clone()) {
                return Err(ScenarioError::invalid(
                    format!("{field}.id"),
                    format!("member {} is listed twice", m.id),
                ));
            }
            members.push(member_spec(&field, &m.id, m.capacity, m.restore_rate)?);
        }
        let initial = match &file.initial {
            None => None,
            Some(map) => Some(validate_initial(map, &roster)?),
        };
        let mut order: Vec<usize> = (0..file.events.len()).collect();
        order.sort_by_key(|&i| file.events[i].at_ms);
        let mut known: HashSet<String> = member_names;
        let mut events = Vec::with_capacity(order.len());
        for i in order {
            let e = &file.events[i];
            let field = format!("events[{i}]");
            if e.at_ms > MAX_TIME_MS {
                return Err(ScenarioError::invalid(
                    format!("{field}.at_ms"),
                    format!(
                        "{} ms is beyond the {MAX_TIME_MS} ms a scenario may cover",
                        e.at_ms
                    ),
                ));
            }
            let command = event_command(&field, e)?;
            match &command {
                Command::Join(spec) => {
                    if !known.insert(spec.name.clone()) {
                        return Err(ScenarioError::invalid(
                            format!("{field}.join"),
                            format!("member {} already exists", spec.name),
                        ));
                    }
                }
                Command::Crash(name) | Command::Drain(name) => {
                    if !known.contains(name) {
                        return Err(ScenarioError::invalid(
                            field,
                            format!(
                                "{} names member {name}, which is not in `members` and has not joined by {} ms",
                                command.describe(),
                                e.at_ms
                            ),
                        ));
                    }
                }
                Command::CrashLeader => {}
            }
            events.push(TimedCommand {
                at_ms: e.at_ms,
                command,
            });
        }
        if known.len() > MAX_MEMBERS {
            return Err(ScenarioError::invalid(
                "members",
                format!(
                    "{} members is more than the {MAX_MEMBERS} the playground can show",
                    known.len()
                ),
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
            events,
            until_ms: file.until_ms,
        })
    }

    /// The scenario in the file format with `events` as its commands (the playground's
    /// export: the commands of the history being viewed, the loaded ones and the person's).
    pub fn to_file(&self, events: &[TimedCommand]) -> ScenarioFile {
        let member_name = |m: MemberId| self.members[m.index()].name.clone();
        let initial = self.initial.as_ref().map(|owners| {
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
            tasks: self
                .tasks
                .iter()
                .map(|t| TaskFile {
                    id: t.name.clone(),
                    stateful: t.stateful,
                    changelog: t.changelog,
                    write_rate: t.write_rate,
                })
                .collect(),
            members: self
                .members
                .iter()
                .map(|m| MemberFile {
                    id: m.name.clone(),
                    capacity: m.capacity,
                    restore_rate: m.restore_rate,
                })
                .collect(),
            initial,
            events: events.iter().map(TimedCommand::to_file).collect(),
            until_ms: self.until_ms,
        }
    }

    /// The scenario as pretty JSON in the file format, with `events` as its commands.
    pub fn to_json(&self, events: &[TimedCommand]) -> String {
        serde_json::to_string_pretty(&self.to_file(events)).unwrap_or_default()
    }
}

fn check_name(field: &str, name: &str) -> Result<(), ScenarioError> {
    if name.trim().is_empty() {
        return Err(ScenarioError::invalid(field, "a name cannot be empty"));
    }
    if name.len() > 40 {
        return Err(ScenarioError::invalid(
            field,
            "a name is at most 40 characters",
        ));
    }
    if name
        .chars()
        .any(|c| c.is_control() || c == ',' || c == '[' || c == ']')
    {
        return Err(ScenarioError::invalid(
            field,
            format!("{name:?} holds a character names cannot use (control characters, commas, brackets)"),
        ));
    }
    Ok(())
}

fn member_spec(
    field: &str,
    name: &str,
    capacity: u32,
    restore_rate: Option<u64>,
) -> Result<MemberSpec, ScenarioError> {
    if capacity == 0 {
        return Err(ScenarioError::invalid(
            format!("{field}.capacity"),
            format!("member {name} needs a capacity of at least 1"),
        ));
    }
    if restore_rate == Some(0) {
        return Err(ScenarioError::invalid(
            format!("{field}.restore_rate"),
            format!("member {name} needs a restore rate above 0 records/s"),
        ));
    }
    Ok(MemberSpec {
        name: name.to_string(),
        capacity,
        restore_rate,
    })
}

fn event_command(field: &str, e: &EventFile) -> Result<Command, ScenarioError> {
    let actions = [
        e.join.is_some(),
        e.drain.is_some(),
        e.crash.is_some(),
        e.crash_leader.is_some(),
    ];
    let count = actions.iter().filter(|&&a| a).count();
    if count != 1 {
        return Err(ScenarioError::invalid(
            field,
            format!("an event needs exactly one of join, drain, crash, crash_leader; this one has {count}"),
        ));
    }
    if e.join.is_none() && (e.capacity.is_some() || e.restore_rate.is_some()) {
        return Err(ScenarioError::invalid(
            field,
            "capacity and restore_rate belong to a join event",
        ));
    }
    Ok(if let Some(name) = &e.join {
        check_name(&format!("{field}.join"), name)?;
        Command::Join(member_spec(
            field,
            name,
            e.capacity.unwrap_or(1),
            e.restore_rate,
        )?)
    } else if let Some(name) = &e.drain {
        Command::Drain(name.clone())
    } else if let Some(name) = &e.crash {
        Command::Crash(name.clone())
    } else if e.crash_leader == Some(true) {
        Command::CrashLeader
    } else {
        return Err(ScenarioError::invalid(
            format!("{field}.crash_leader"),
            "crash_leader must be true (leave the event out otherwise)",
        ));
    })
}

fn validate_initial(
    map: &BTreeMap<String, Vec<String>>,
    roster: &Roster,
) -> Result<Vec<Option<MemberId>>, ScenarioError> {
    let mut owners: Vec<Option<MemberId>> = vec![None; roster.tasks.len()];
    for (member, tasks) in map {
        let Some(m) = roster.member_id(member) else {
            return Err(ScenarioError::invalid(
                format!("initial.{member}"),
                format!("member {member} is not in `members`"),
            ));
        };
        for task in tasks {
            let Some(t) = roster.task_id(task) else {
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

/// Checks settings the simulation cannot work with.
pub fn validate_config(config: &Config) -> Result<(), ScenarioError> {
    if config.rebalance_ms < 2 {
        return Err(ScenarioError::invalid(
            "config.rebalance_ms",
            "a rebalance round needs at least 2 ms (a join phase and a sync phase)",
        ));
    }
    if config.rebalance_ms > MAX_TIME_MS {
        return Err(ScenarioError::invalid(
            "config.rebalance_ms",
            "longer than a year",
        ));
    }
    if config.session_timeout_ms == 0 || config.session_timeout_ms > MAX_TIME_MS {
        return Err(ScenarioError::invalid(
            "config.session_timeout_ms",
            "must be between 1 ms and a year",
        ));
    }
    if config.restore_rate == 0 {
        return Err(ScenarioError::invalid(
            "config.restore_rate",
            "members need a restore rate above 0 records/s",
        ));
    }
    if config.max_learners == Some(0) {
        return Err(ScenarioError::invalid(
            "config.max_learners",
            "0 would forbid every learner, so no stateful task could ever move; use null for no cap",
        ));
    }
    if config
        .scale_down_timeout_ms
        .is_some_and(|t| t > MAX_TIME_MS)
    {
        return Err(ScenarioError::invalid(
            "config.scale_down_timeout_ms",
            "longer than a year",
        ));
    }
    if config.kip441.max_warmup_replicas == 0 {
        return Err(ScenarioError::invalid(
            "config.kip441.max_warmup_replicas",
            "must be at least 1, as in Kafka Streams",
        ));
    }
    if config.kip441.probing_interval_ms < 1 || config.kip441.probing_interval_ms > MAX_TIME_MS {
        return Err(ScenarioError::invalid(
            "config.kip441.probing_interval_ms",
            "must be between 1 ms and a year",
        ));
    }
    Ok(())
}

// ----- the assignor's input and output (`handoff assign`) -----

/// The assignor settings of an `assign` input.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AssignConfigFile {
    /// The strategy (default `learner`).
    pub strategy: Strategy,
    /// A learner or standby at most this many records behind is ready.
    pub acceptable_recovery_lag: u64,
    /// Standby replicas per stateful task.
    pub num_standby_replicas: u32,
    /// Learners allowed group-wide at once.
    pub max_learners: Option<u32>,
}

/// A task of an `assign` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssignTaskFile {
    /// Its name.
    pub id: String,
    /// Whether it has state (default true).
    #[serde(default = "yes")]
    pub stateful: bool,
    /// Its changelog's end offset, if known (the leader moves the cheapest tasks first).
    #[serde(default)]
    pub changelog: u64,
}

/// A member's join metadata in an `assign` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssignMemberFile {
    /// Its name.
    pub id: String,
    /// Its capacity (default 1).
    #[serde(default = "one")]
    pub capacity: u32,
    /// Whether it is draining.
    #[serde(default)]
    pub leaving: bool,
    /// Tasks it still runs.
    #[serde(default)]
    pub assigned: Vec<String>,
    /// Tasks it released since its last assignment.
    #[serde(default)]
    pub revoked: Vec<String>,
    /// Tasks it learns.
    #[serde(default)]
    pub learning: Vec<String>,
    /// Tasks it keeps a standby of.
    #[serde(default)]
    pub standby: Vec<String>,
    /// Records behind, for every task whose state it holds.
    #[serde(default)]
    pub lags: BTreeMap<String, u64>,
}

/// The whole `assign` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssignFile {
    /// The assignor settings.
    #[serde(default)]
    pub config: AssignConfigFile,
    /// The tasks.
    pub tasks: Vec<AssignTaskFile>,
    /// The members in join order; the first is the leader.
    pub members: Vec<AssignMemberFile>,
}

/// A validated `assign` input.
#[derive(Clone, Debug, PartialEq)]
pub struct AssignRequest {
    /// Names of tasks and members.
    pub roster: Roster,
    /// The assignor settings.
    pub config: AssignorConfig,
    /// The tasks.
    pub tasks: Vec<TaskInfo>,
    /// The join metadata, in join order.
    pub members: Vec<JoinMetadata>,
}

impl AssignRequest {
    /// Parses and validates an `assign` input.
    pub fn from_json(text: &str) -> Result<AssignRequest, ScenarioError> {
        let file: AssignFile = parse(text)?;
        if file.config.max_learners == Some(0) {
            return Err(ScenarioError::invalid(
                "config.max_learners",
                "0 would forbid every learner; use null for no cap",
            ));
        }
        let mut roster = Roster::default();
        let mut seen = HashSet::new();
        for (i, t) in file.tasks.iter().enumerate() {
            check_name(&format!("tasks[{i}].id"), &t.id)?;
            if !seen.insert(t.id.clone()) {
                return Err(ScenarioError::invalid(
                    format!("tasks[{i}].id"),
                    format!("task {} is listed twice", t.id),
                ));
            }
            roster.tasks.push(t.id.clone());
        }
        let mut seen = HashSet::new();
        for (i, m) in file.members.iter().enumerate() {
            check_name(&format!("members[{i}].id"), &m.id)?;
            if !seen.insert(m.id.clone()) {
                return Err(ScenarioError::invalid(
                    format!("members[{i}].id"),
                    format!("member {} is listed twice", m.id),
                ));
            }
            roster.members.push(m.id.clone());
        }
        let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
        let mut members = Vec::with_capacity(file.members.len());
        for (i, m) in file.members.iter().enumerate() {
            let field = format!("members[{i}]");
            if m.capacity == 0 {
                return Err(ScenarioError::invalid(
                    format!("{field}.capacity"),
                    format!("member {} needs a capacity of at least 1", m.id),
                ));
            }
            let ids = |list: &[String], name: &str| -> Result<Vec<TaskId>, ScenarioError> {
                let mut out = Vec::with_capacity(list.len());
                for task in list {
                    let id = roster.task_id(task).ok_or_else(|| {
                        ScenarioError::invalid(
                            format!("{field}.{name}"),
                            format!("task {task} is not in `tasks`"),
                        )
                    })?;
                    if out.contains(&id) {
                        return Err(ScenarioError::invalid(
                            format!("{field}.{name}"),
                            format!("task {task} is listed twice"),
                        ));
                    }
                    out.push(id);
                }
                out.sort_unstable();
                Ok(out)
            };
            for task in &m.assigned {
                if let Some(first) = owner.insert(task, &m.id) {
                    return Err(ScenarioError::invalid(
                        format!("{field}.assigned"),
                        format!("task {task} is also assigned to {first}: a task has one owner"),
                    ));
                }
            }
            let mut lags = Vec::with_capacity(m.lags.len());
            for (task, &lag) in &m.lags {
                let id = roster.task_id(task).ok_or_else(|| {
                    ScenarioError::invalid(
                        format!("{field}.lags"),
                        format!("task {task} is not in `tasks`"),
                    )
                })?;
                lags.push((id, lag));
            }
            members.push(JoinMetadata {
                member: MemberId(i as u32),
                capacity: m.capacity,
                leaving: m.leaving,
                assigned: ids(&m.assigned, "assigned")?,
                revoked: ids(&m.revoked, "revoked")?,
                learning: ids(&m.learning, "learning")?,
                standby: ids(&m.standby, "standby")?,
                lags,
            });
        }
        Ok(AssignRequest {
            config: AssignorConfig {
                strategy: file.config.strategy,
                acceptable_recovery_lag: file.config.acceptable_recovery_lag,
                num_standby_replicas: file.config.num_standby_replicas,
                max_learners: file.config.max_learners,
            },
            tasks: file
                .tasks
                .iter()
                .map(|t| TaskInfo {
                    stateful: t.stateful,
                    changelog: t.changelog,
                })
                .collect(),
            members,
            roster,
        })
    }
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
                Scenario::from_json(&scenario.to_json(&scenario.events)).expect("parses again");
            assert_eq!(again, scenario, "{}", preset.id);
        }
    }

    #[test]
    fn defaults_fill_what_a_file_leaves_out() {
        let s = Scenario::from_json(r#"{ "name": "tiny", "tasks": [ { "id": "T1" } ] }"#)
            .expect("parses");
        assert_eq!(s.config, Config::default());
        assert!(s.tasks[0].stateful);
        assert!(s.members.is_empty() && s.events.is_empty() && s.initial.is_none());
    }

    #[test]
    fn events_are_sorted_by_time_keeping_the_order_of_ties() {
        let s = Scenario::from_json(
            r#"{ "name": "x", "tasks": [], "events": [
                { "at_ms": 50, "join": "A" }, { "at_ms": 10, "join": "B" }, { "at_ms": 50, "join": "C" } ] }"#,
        )
        .expect("parses");
        let order: Vec<String> = s.events.iter().map(|e| e.command.describe()).collect();
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
