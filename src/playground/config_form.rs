//! The configuration form's state in the playground: the scenario's configuration, tasks and
//! starting members as typed, every field kept as its text (nothing a person typed is changed
//! or lost while it does not parse), checked on every edit with the scenario format's own
//! checks (each problem on one line naming its field), and applied with a restart only when
//! nothing is wrong.

use super::application::FieldError;
use super::operations::least_used_zone;
use super::{Effect, Playground};
use crate::format::{MemberFile, ScenarioFile, TaskFile};
use crate::model::CleanupPolicy;
use crate::model::{Config, Scenario};
use std::str::FromStr;

/// A field of the configuration form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigField {
    /// The strategy (`learner`, `kip441`, `cooperative`, `eager`, `kip1071`, `kip1071-warmup`).
    Strategy,
    /// How a handoff goes (`release_at_join`, `two_phase`).
    Handoff,
    /// When learners count as ready (`eager`, `stable`).
    Readiness,
    /// The acceptable recovery lag, in records.
    AcceptableLag,
    /// Standby replicas per stateful task.
    Standbys,
    /// The most learners at once (empty: no cap).
    MaxLearners,
    /// A rebalance round, in ms.
    Rebalance,
    /// The session timeout, in ms.
    SessionTimeout,
    /// The scale-down timeout, in ms (empty: none).
    ScaleDownTimeout,
    /// Static membership (`true` or `false`).
    StaticMembership,
    /// Zone-aware standbys (`true` or `false`).
    RackAwareStandbys,
    /// The default restore rate, in records/s.
    RestoreRate,
    /// KIP-441's most warm-ups at once.
    MaxWarmups,
    /// KIP-441's probing interval, in ms.
    ProbingInterval,
    /// The streams protocol's heartbeat interval, in ms.
    StreamsHeartbeat,
    /// The trunk refiner's most warm-ups at once.
    StreamsWarmups,
    /// Whether a task keeps state (`true` or `false`).
    TaskStateful(usize),
    /// A task's changelog, in records.
    TaskChangelog(usize),
    /// A task's write rate, in records/s.
    TaskWriteRate(usize),
    /// A starting member's capacity (stream threads).
    MemberCapacity(usize),
    /// A starting member's restore rate (empty: the configuration's).
    MemberRestoreRate(usize),
    /// A starting member's zone (empty: none).
    MemberZone(usize),
}

impl ConfigField {
    /// Where the scenario file holds it, as the format's errors name it.
    pub fn path(self) -> String {
        let config = |name: &str| format!("config.{name}");
        match self {
            ConfigField::Strategy => config("strategy"),
            ConfigField::Handoff => config("handoff"),
            ConfigField::Readiness => config("readiness"),
            ConfigField::AcceptableLag => config("acceptable_recovery_lag"),
            ConfigField::Standbys => config("num_standby_replicas"),
            ConfigField::MaxLearners => config("max_learners"),
            ConfigField::Rebalance => config("rebalance_ms"),
            ConfigField::SessionTimeout => config("session_timeout_ms"),
            ConfigField::ScaleDownTimeout => config("scale_down_timeout_ms"),
            ConfigField::StaticMembership => config("static_membership"),
            ConfigField::RackAwareStandbys => config("rack_aware_standbys"),
            ConfigField::RestoreRate => config("restore_rate"),
            ConfigField::MaxWarmups => config("kip441.max_warmup_replicas"),
            ConfigField::ProbingInterval => config("kip441.probing_interval_ms"),
            ConfigField::StreamsHeartbeat => config("kip1071.heartbeat_interval_ms"),
            ConfigField::StreamsWarmups => config("kip1071.num_warmup_replicas"),
            ConfigField::TaskStateful(i) => format!("tasks[{i}].stateful"),
            ConfigField::TaskChangelog(i) => format!("tasks[{i}].changelog"),
            ConfigField::TaskWriteRate(i) => format!("tasks[{i}].write_rate"),
            ConfigField::MemberCapacity(i) => format!("members[{i}].capacity"),
            ConfigField::MemberRestoreRate(i) => format!("members[{i}].restore_rate"),
            ConfigField::MemberZone(i) => format!("members[{i}].zone"),
        }
    }
}

/// A task as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskDraft {
    /// Its name (fixed once added).
    pub id: String,
    /// Whether it keeps state.
    pub stateful: bool,
    /// Changelog records.
    pub changelog: String,
    /// Records written per second.
    pub write_rate: String,
    /// How its changelog keeps records, as the file gave it (this form does not edit it).
    pub cleanup: CleanupPolicy,
    /// A windowed changelog's retention, as the file gave it.
    pub retention_ms: Option<u64>,
    /// Keys per second its store gains, as the file gave it.
    pub key_growth: u64,
    /// Its processing rate, as the file gave it.
    pub process_rate: Option<u64>,
}

/// A starting member as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberDraft {
    /// Its name (fixed once added).
    pub id: String,
    /// Stream threads.
    pub capacity: String,
    /// Records per second it restores (empty: the configuration's).
    pub restore_rate: String,
    /// Its zone (empty: none).
    pub zone: String,
}

/// The configuration, the tasks and the starting members as typed; the rest of the scenario
/// (its name, starting assignment, commands, application) comes along unchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigDraft {
    /// The scenario edited (what the form does not show is kept from it).
    base: ScenarioFile,
    /// Every configuration field's text, by field.
    config: Vec<(ConfigField, String)>,
    /// The tasks, in order (none when the scenario gives a topology).
    pub tasks: Vec<TaskDraft>,
    /// The starting members, in order (none when the scenario gives instances).
    pub members: Vec<MemberDraft>,
}

/// The configuration's fields, in the order the form shows them.
pub const CONFIG_FIELDS: [ConfigField; 16] = [
    ConfigField::Strategy,
    ConfigField::Handoff,
    ConfigField::Readiness,
    ConfigField::AcceptableLag,
    ConfigField::Standbys,
    ConfigField::MaxLearners,
    ConfigField::Rebalance,
    ConfigField::SessionTimeout,
    ConfigField::ScaleDownTimeout,
    ConfigField::StaticMembership,
    ConfigField::RackAwareStandbys,
    ConfigField::RestoreRate,
    ConfigField::MaxWarmups,
    ConfigField::ProbingInterval,
    ConfigField::StreamsHeartbeat,
    ConfigField::StreamsWarmups,
];

/// Text of an optional number: empty for none.
fn optional(value: Option<impl ToString>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

impl ConfigDraft {
    /// The form over a scenario as it is.
    pub fn of(file: &ScenarioFile) -> ConfigDraft {
        let c = &file.config;
        let text = |field: ConfigField| match field {
            ConfigField::Strategy => c.strategy.name().to_string(),
            ConfigField::Handoff => <&str>::from(c.handoff).to_string(),
            ConfigField::Readiness => <&str>::from(c.readiness).to_string(),
            ConfigField::AcceptableLag => c.acceptable_recovery_lag.to_string(),
            ConfigField::Standbys => c.num_standby_replicas.to_string(),
            ConfigField::MaxLearners => optional(c.max_learners),
            ConfigField::Rebalance => optional(c.rebalance_ms),
            ConfigField::SessionTimeout => c.session_timeout_ms.to_string(),
            ConfigField::ScaleDownTimeout => optional(c.scale_down_timeout_ms),
            ConfigField::StaticMembership => c.static_membership.to_string(),
            ConfigField::RackAwareStandbys => c.rack_aware_standbys.to_string(),
            ConfigField::RestoreRate => c.restore_rate.to_string(),
            ConfigField::MaxWarmups => c.kip441.max_warmup_replicas.to_string(),
            ConfigField::ProbingInterval => c.kip441.probing_interval_ms.to_string(),
            ConfigField::StreamsHeartbeat => c.kip1071.heartbeat_interval_ms.to_string(),
            ConfigField::StreamsWarmups => c.kip1071.num_warmup_replicas.to_string(),
            _ => String::new(),
        };
        ConfigDraft {
            base: file.clone(),
            config: CONFIG_FIELDS.iter().map(|&f| (f, text(f))).collect(),
            tasks: file
                .tasks
                .iter()
                .map(|t| TaskDraft {
                    id: t.id.clone(),
                    stateful: t.stateful,
                    changelog: t.changelog.to_string(),
                    write_rate: t.write_rate.to_string(),
                    cleanup: t.cleanup,
                    retention_ms: t.retention_ms,
                    key_growth: t.key_growth,
                    process_rate: t.process_rate,
                })
                .collect(),
            members: file
                .members
                .iter()
                .map(|m| MemberDraft {
                    id: m.id.clone(),
                    capacity: m.capacity.to_string(),
                    restore_rate: optional(m.restore_rate),
                    zone: m.zone.clone().unwrap_or_default(),
                })
                .collect(),
        }
    }

    /// Whether the tasks and members come from the application's short forms (edited in the
    /// application form, not here).
    pub fn from_application(&self) -> bool {
        self.base.topology.is_some() || self.base.instances.is_some()
    }

    /// A field's text, as typed.
    pub fn get(&self, field: ConfigField) -> String {
        match field {
            ConfigField::TaskStateful(i) => self
                .tasks
                .get(i)
                .map_or(String::new(), |t| t.stateful.to_string()),
            ConfigField::TaskChangelog(i) => self
                .tasks
                .get(i)
                .map_or(String::new(), |t| t.changelog.clone()),
            ConfigField::TaskWriteRate(i) => self
                .tasks
                .get(i)
                .map_or(String::new(), |t| t.write_rate.clone()),
            ConfigField::MemberCapacity(i) => self
                .members
                .get(i)
                .map_or(String::new(), |m| m.capacity.clone()),
            ConfigField::MemberRestoreRate(i) => self
                .members
                .get(i)
                .map_or(String::new(), |m| m.restore_rate.clone()),
            ConfigField::MemberZone(i) => self
                .members
                .get(i)
                .map_or(String::new(), |m| m.zone.clone()),
            field => self
                .config
                .iter()
                .find(|(f, _)| *f == field)
                .map_or(String::new(), |(_, text)| text.clone()),
        }
    }

    /// Sets a field to the text typed (a row that is gone is left alone).
    pub fn set(&mut self, field: ConfigField, text: String) {
        match field {
            ConfigField::TaskStateful(i) => {
                if let Some(t) = self.tasks.get_mut(i) {
                    t.stateful = text == "true";
                }
            }
            ConfigField::TaskChangelog(i) => {
                if let Some(t) = self.tasks.get_mut(i) {
                    t.changelog = text;
                }
            }
            ConfigField::TaskWriteRate(i) => {
                if let Some(t) = self.tasks.get_mut(i) {
                    t.write_rate = text;
                }
            }
            ConfigField::MemberCapacity(i) => {
                if let Some(m) = self.members.get_mut(i) {
                    m.capacity = text;
                }
            }
            ConfigField::MemberRestoreRate(i) => {
                if let Some(m) = self.members.get_mut(i) {
                    m.restore_rate = text;
                }
            }
            ConfigField::MemberZone(i) => {
                if let Some(m) = self.members.get_mut(i) {
                    m.zone = text;
                }
            }
            field => {
                if let Some((_, slot)) = self.config.iter_mut().find(|(f, _)| *f == field) {
                    *slot = text;
                }
            }
        }
    }

    /// Adds a stateful task with the first free name `T<n>`.
    pub fn add_task(&mut self) {
        let id = (1..)
            .map(|i| format!("T{i}"))
            .find(|n| self.tasks.iter().all(|t| &t.id != n))
            .unwrap_or_default();
        self.tasks.push(TaskDraft {
            id,
            stateful: true,
            changelog: "50000".into(),
            write_rate: "100".into(),
            cleanup: CleanupPolicy::Compact,
            retention_ms: None,
            key_growth: 0,
            process_rate: None,
        });
    }

    /// Removes a task, and it from the starting assignment.
    pub fn remove_task(&mut self, i: usize) {
        if i >= self.tasks.len() {
            return;
        }
        let removed = self.tasks.remove(i);
        if let Some(initial) = self.base.initial.as_mut() {
            for tasks in initial.values_mut() {
                tasks.retain(|t| t != &removed.id);
            }
        }
    }

    /// Adds a member with the next free name, in the zone with the fewest members.
    pub fn add_member(&mut self, name: String) {
        let mut zones: Vec<String> = self
            .members
            .iter()
            .map(|m| m.zone.trim().to_string())
            .filter(|z| !z.is_empty())
            .collect();
        let members = zones.clone();
        zones.sort();
        zones.dedup();
        self.members.push(MemberDraft {
            id: name,
            capacity: "1".into(),
            restore_rate: String::new(),
            zone: least_used_zone(&zones, members.iter().map(String::as_str)).unwrap_or_default(),
        });
    }

    /// Removes a member, its starting tasks and the commands that name it.
    pub fn remove_member(&mut self, i: usize) {
        if i >= self.members.len() {
            return;
        }
        let removed = self.members.remove(i);
        if let Some(initial) = self.base.initial.as_mut() {
            initial.remove(&removed.id);
        }
        self.base.commands.retain(|e| {
            [&e.crash, &e.drain, &e.restart]
                .iter()
                .all(|m| m.as_deref() != Some(&removed.id))
        });
    }

    /// The scenario the draft gives, or every field that does not read (each named, in the
    /// order of the form), then the first problem the scenario format finds in it.
    pub fn scenario(&self) -> Result<Scenario, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut file = self.base.clone();
        let config = self.config(&mut errors);
        let mut tasks = Vec::with_capacity(self.tasks.len());
        for (i, t) in self.tasks.iter().enumerate() {
            let changelog = whole(&mut errors, ConfigField::TaskChangelog(i), &t.changelog);
            let write_rate = whole(&mut errors, ConfigField::TaskWriteRate(i), &t.write_rate);
            if let (Some(changelog), Some(write_rate)) = (changelog, write_rate) {
                tasks.push(TaskFile {
                    cleanup: t.cleanup,
                    retention_ms: t.retention_ms,
                    key_growth: t.key_growth,
                    process_rate: t.process_rate,
                    ..TaskFile::new(t.id.clone(), t.stateful, changelog, write_rate)
                });
            }
        }
        let mut members = Vec::with_capacity(self.members.len());
        for (i, m) in self.members.iter().enumerate() {
            let capacity = whole(&mut errors, ConfigField::MemberCapacity(i), &m.capacity);
            let restore_rate = maybe_whole(
                &mut errors,
                ConfigField::MemberRestoreRate(i),
                &m.restore_rate,
            );
            if let (Some(capacity), Some(restore_rate)) = (capacity, restore_rate) {
                let zone = m.zone.trim();
                members.push(MemberFile {
                    id: m.id.clone(),
                    capacity,
                    restore_rate,
                    zone: (!zone.is_empty()).then(|| zone.to_string()),
                });
            }
        }
        let Some(config) = config.filter(|_| errors.is_empty()) else {
            return Err(errors);
        };
        file.config = config;
        if !self.from_application() {
            file.tasks = tasks;
            file.members = members;
        }
        Scenario::from_file(file).map_err(|e| vec![e.into()])
    }

    /// The configuration the fields give, with a problem for each that does not read.
    fn config(&self, errors: &mut Vec<FieldError>) -> Option<Config> {
        let mut c = self.base.config.clone();
        let text = |field| self.get(field);
        let before = errors.len();
        macro_rules! read {
            ($field:expr, $slot:expr, $how:ident) => {
                if let Some(v) = $how(errors, $field, &text($field)) {
                    $slot = v;
                }
            };
        }
        read!(ConfigField::Strategy, c.strategy, named);
        read!(ConfigField::Handoff, c.handoff, named);
        read!(ConfigField::Readiness, c.readiness, named);
        read!(ConfigField::AcceptableLag, c.acceptable_recovery_lag, whole);
        read!(ConfigField::Standbys, c.num_standby_replicas, whole);
        read!(ConfigField::MaxLearners, c.max_learners, maybe_whole);
        read!(ConfigField::Rebalance, c.rebalance_ms, maybe_whole);
        read!(ConfigField::SessionTimeout, c.session_timeout_ms, whole);
        read!(
            ConfigField::ScaleDownTimeout,
            c.scale_down_timeout_ms,
            maybe_whole
        );
        c.static_membership = text(ConfigField::StaticMembership) == "true";
        c.rack_aware_standbys = text(ConfigField::RackAwareStandbys) == "true";
        read!(ConfigField::RestoreRate, c.restore_rate, whole);
        read!(ConfigField::MaxWarmups, c.kip441.max_warmup_replicas, whole);
        read!(
            ConfigField::ProbingInterval,
            c.kip441.probing_interval_ms,
            whole
        );
        read!(
            ConfigField::StreamsHeartbeat,
            c.kip1071.heartbeat_interval_ms,
            whole
        );
        read!(
            ConfigField::StreamsWarmups,
            c.kip1071.num_warmup_replicas,
            whole
        );
        (errors.len() == before).then_some(c)
    }
}

/// A whole number typed into a field (read as the application form reads one), or its
/// problem.
fn whole<T: FromStr>(errors: &mut Vec<FieldError>, field: ConfigField, text: &str) -> Option<T> {
    super::application::whole(field.path(), text)
        .map_err(|e| errors.push(e))
        .ok()
}

/// A whole number, or none for an empty field.
fn maybe_whole<T: FromStr>(
    errors: &mut Vec<FieldError>,
    field: ConfigField,
    text: &str,
) -> Option<Option<T>> {
    if text.trim().is_empty() {
        return Some(None);
    }
    whole(errors, field, text).map(Some)
}

/// One of a setting's named values (`two_phase`), or its problem.
fn named<T: FromStr>(errors: &mut Vec<FieldError>, field: ConfigField, text: &str) -> Option<T> {
    match text.trim().parse() {
        Ok(v) => Some(v),
        Err(_) => {
            errors.push(FieldError {
                field: field.path(),
                reason: format!("{text:?} is not one of its choices"),
            });
            None
        }
    }
}

/// The form: the draft, its problems, and why the last apply was refused.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigForm {
    /// The fields as typed.
    pub draft: ConfigDraft,
    /// Every problem of the draft, in the order of the fields.
    pub errors: Vec<FieldError>,
    /// Why the last apply was refused.
    pub problem: Option<String>,
}

impl ConfigForm {
    /// A form over a scenario, checked.
    pub fn of(file: &ScenarioFile) -> ConfigForm {
        let mut form = ConfigForm {
            draft: ConfigDraft::of(file),
            errors: Vec::new(),
            problem: None,
        };
        form.recheck();
        form
    }

    fn recheck(&mut self) {
        self.errors = self.draft.scenario().err().unwrap_or_default();
        self.problem = None;
    }

    /// The problem of a field, if it has one.
    pub fn error(&self, field: ConfigField) -> Option<&FieldError> {
        let path = field.path();
        self.errors.iter().find(|e| e.field == path)
    }

    /// The problems no field of the form shows (the scenario's own, say a member in the
    /// starting assignment that is gone).
    pub fn other_errors(&self) -> impl Iterator<Item = &FieldError> {
        self.errors.iter().filter(|e| {
            !CONFIG_FIELDS.iter().any(|f| f.path() == e.field)
                && !e.field.starts_with("tasks[")
                && !e.field.starts_with("members[")
        })
    }
}

/// What a person does to the configuration form.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigAction {
    /// Open it on the scenario as it is (a draft kept from before stays).
    Open,
    /// Close it; the draft is kept until another scenario is loaded.
    Close,
    /// A field changed to this text.
    Edit(ConfigField, String),
    /// Add a task at the end.
    AddTask,
    /// Remove a task.
    RemoveTask(usize),
    /// Add a starting member at the end.
    AddMember,
    /// Remove a starting member.
    RemoveMember(usize),
    /// Restart with the draft, if nothing is wrong with it.
    Apply,
}

impl Playground {
    /// The configuration form, while it is open.
    pub fn config_form(&self) -> Option<&ConfigForm> {
        self.config_form.as_ref().filter(|_| self.config_open)
    }

    /// Carries out what a person does to the configuration form.
    pub(super) fn configure(&mut self, action: ConfigAction) -> Vec<Effect> {
        if self.config_form.is_none() {
            self.config_form = Some(ConfigForm::of(&self.scenario_file()));
        }
        let Some(form) = self.config_form.as_mut() else {
            return Vec::new();
        };
        match action {
            ConfigAction::Open => self.config_open = true,
            ConfigAction::Close => self.config_open = false,
            ConfigAction::Edit(field, text) => {
                form.draft.set(field, text);
                form.recheck();
            }
            ConfigAction::AddTask => {
                form.draft.add_task();
                form.recheck();
            }
            ConfigAction::RemoveTask(i) => {
                form.draft.remove_task(i);
                form.recheck();
            }
            ConfigAction::AddMember => {
                let names: Vec<String> = form.draft.members.iter().map(|m| m.id.clone()).collect();
                form.draft
                    .add_member(super::screen::next_member_name(&names));
                form.recheck();
            }
            ConfigAction::RemoveMember(i) => {
                form.draft.remove_member(i);
                form.recheck();
            }
            ConfigAction::Apply => return self.apply_config(),
        }
        Vec::new()
    }

    /// Restarts with the form's draft; with a problem, nothing is applied and the form says so.
    fn apply_config(&mut self) -> Vec<Effect> {
        let Some(form) = self.config_form.as_mut() else {
            return Vec::new();
        };
        match form.draft.scenario() {
            Ok(scenario) => {
                self.load_scenario(scenario, "Restarted with the new configuration.".into())
            }
            Err(errors) => {
                form.problem = Some(format!(
                    "Not applied: {}. The current session is kept.",
                    errors
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
                form.errors = errors;
                Vec::new()
            }
        }
    }
}
