//! The leader's input as `handoff assign` reads it: the assignor's settings, the tasks and
//! every member's join metadata, by name. [`AssignRequest::from_json`] validates it into the
//! model's types.

use super::validate::{check_capacity, check_kip441, check_max_learners, check_name, unique_names};
use super::{defaults, parse, ScenarioError};
use crate::model::{
    subtopologies, AssignorConfig, Config, JoinMetadata, Kip441Config, MemberId, Roster, Strategy,
    TaskId, TaskInfo,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The assignor settings of an `assign` input: the same names and defaults as a scenario's
/// `config`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Spread a task's replicas over zones while possible.
    pub rack_aware_standbys: bool,
    /// Settings of the `kip441` strategy (`max_warmup_replicas`, `acceptable_recovery_lag`).
    pub kip441: Kip441Config,
}

impl Default for AssignConfigFile {
    fn default() -> Self {
        let config = Config::default();
        AssignConfigFile {
            strategy: config.strategy,
            acceptable_recovery_lag: config.acceptable_recovery_lag,
            num_standby_replicas: config.num_standby_replicas,
            max_learners: config.max_learners,
            rack_aware_standbys: config.rack_aware_standbys,
            kip441: config.kip441,
        }
    }
}

impl AssignConfigFile {
    /// The settings the assignor works with, chosen by strategy as in a run.
    fn assignor(&self) -> AssignorConfig {
        Config {
            strategy: self.strategy,
            acceptable_recovery_lag: self.acceptable_recovery_lag,
            num_standby_replicas: self.num_standby_replicas,
            max_learners: self.max_learners,
            rack_aware_standbys: self.rack_aware_standbys,
            kip441: self.kip441.clone(),
            ..Config::default()
        }
        .assignor()
    }
}

/// A task of an `assign` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssignTaskFile {
    /// Its name.
    pub id: String,
    /// Whether it has state (default true).
    #[serde(default = "defaults::yes")]
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
    #[serde(default = "defaults::one")]
    pub capacity: u32,
    /// Its availability zone, if known.
    #[serde(default)]
    pub zone: Option<String>,
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
        check_max_learners(file.config.max_learners)?;
        check_kip441(file.config.kip441.max_warmup_replicas)?;
        unique_names("tasks", "task", file.tasks.iter().map(|t| t.id.as_str()))?;
        unique_names(
            "members",
            "member",
            file.members.iter().map(|m| m.id.as_str()),
        )?;
        let roster = Roster {
            tasks: file.tasks.iter().map(|t| t.id.as_str().into()).collect(),
            members: file.members.iter().map(|m| m.id.clone()).collect(),
            subtopologies: Vec::new(),
        };
        let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
        let index = roster.task_index();
        let mut members = Vec::with_capacity(file.members.len());
        for (i, m) in file.members.iter().enumerate() {
            let field = format!("members[{i}]");
            check_capacity(&field, &m.id, m.capacity)?;
            if let Some(zone) = &m.zone {
                check_name(&format!("{field}.zone"), zone)?;
            }
            let ids = |list: &[String], name: &str| -> Result<Vec<TaskId>, ScenarioError> {
                let mut out = Vec::with_capacity(list.len());
                for task in list {
                    let id = index.get(task.as_str()).copied().ok_or_else(|| {
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
                out.sort();
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
                let id = index.get(task.as_str()).copied().ok_or_else(|| {
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
                zone: m.zone.clone(),
                leaving: m.leaving,
                assigned: ids(&m.assigned, "assigned")?,
                revoked: ids(&m.revoked, "revoked")?,
                learning: ids(&m.learning, "learning")?,
                standby: ids(&m.standby, "standby")?,
                lags,
            });
        }
        Ok(AssignRequest {
            config: file.config.assignor(),
            tasks: file
                .tasks
                .iter()
                .zip(subtopologies(file.tasks.iter().map(|t| t.id.as_str())))
                .map(|(t, subtopology)| TaskInfo {
                    stateful: t.stateful,
                    changelog: t.changelog,
                    records: t.changelog,
                    subtopology,
                })
                .collect(),
            members,
            roster,
        })
    }
}
