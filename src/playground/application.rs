//! An application as a person types it into the application form: the scenario's `topology`
//! (subtopologies with partitions, changelog sizes and write rates) and `instances` (count,
//! threads, zones). Every field is kept as the text typed, so nothing is lost while it does not
//! parse; [`ApplicationDraft::check`] reads it with the scenario format's own checks, each
//! problem on one line naming its field, with the totals it gives.

use crate::format::topology::{instance_members, topology_tasks};
use crate::format::{
    ChangelogSizes, Instances, ScenarioError, ScenarioFile, SizeDistribution, Subtopology, Topology,
};
use crate::model::CleanupPolicy;

/// One subtopology as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct SubtopologyDraft {
    /// What people call it.
    pub name: String,
    /// Input partitions (tasks).
    pub partitions: String,
    /// Whether its tasks keep state.
    pub stateful: bool,
    /// The smallest changelog, in records.
    pub min: String,
    /// The largest changelog, in records.
    pub max: String,
    /// `uniform` or `zipf`.
    pub distribution: String,
    /// Records per second each task writes.
    pub write_rate: String,
    /// How its changelogs keep records: `compact`, `compact,delete` or `append`.
    pub cleanup: String,
    /// How long a `compact,delete` changelog keeps records, in ms (empty: two days).
    pub retention_ms: String,
    /// Keys per second each store gains.
    pub key_growth: String,
    /// Records per second each task processes, as the file gave it (the form does not edit
    /// it; `None`: the configuration's).
    pub process_rate: Option<u64>,
}

/// The application as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplicationDraft {
    /// The scenario's title.
    pub name: String,
    /// The seed changelog sizes are derived from.
    pub seed: String,
    /// The subtopologies, in order (their index names their tasks).
    pub subtopologies: Vec<SubtopologyDraft>,
    /// How many instances.
    pub count: String,
    /// Stream threads per instance.
    pub threads: String,
    /// Zones dealt in turn, separated by commas or spaces.
    pub zones: String,
    /// Records per second each instance restores (empty: the configuration's).
    pub restore_rate: String,
    /// The instances already run the application at the start.
    pub running: bool,
    /// Keep the scenario's scheduled commands.
    pub keep_commands: bool,
}

/// A field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The scenario's title.
    Name,
    /// The topology's seed.
    Seed,
    /// A subtopology's name.
    SubtopologyName(usize),
    /// A subtopology's partitions.
    Partitions(usize),
    /// Whether a subtopology is stateful (`true` or `false`).
    Stateful(usize),
    /// A subtopology's smallest changelog.
    Min(usize),
    /// A subtopology's largest changelog.
    Max(usize),
    /// A subtopology's size distribution.
    Distribution(usize),
    /// A subtopology's write rate.
    WriteRate(usize),
    /// How a subtopology's changelogs keep records.
    Cleanup(usize),
    /// How long a subtopology's windowed changelogs keep records.
    Retention(usize),
    /// Keys per second a subtopology's stores gain.
    KeyGrowth(usize),
    /// How many instances.
    Count,
    /// Threads per instance.
    Threads,
    /// The zones.
    Zones,
    /// The instances' restore rate.
    RestoreRate,
    /// Whether the instances already run (`true` or `false`).
    Running,
    /// Whether the scheduled commands are kept (`true` or `false`).
    KeepCommands,
}

impl Field {
    /// Where the scenario file holds it, as the format's errors name it.
    pub fn path(self) -> String {
        let sub = |i: usize, rest: &str| format!("topology.subtopologies[{i}].{rest}");
        match self {
            Field::Name => "name".into(),
            Field::Seed => "topology.seed".into(),
            Field::SubtopologyName(i) => sub(i, "name"),
            Field::Partitions(i) => sub(i, "partitions"),
            Field::Stateful(i) => sub(i, "stateful"),
            Field::Min(i) => sub(i, "changelog.min"),
            Field::Max(i) => sub(i, "changelog.max"),
            Field::Distribution(i) => sub(i, "changelog.distribution"),
            Field::WriteRate(i) => sub(i, "write_rate"),
            Field::Cleanup(i) => sub(i, "cleanup"),
            Field::Retention(i) => sub(i, "retention_ms"),
            Field::KeyGrowth(i) => sub(i, "key_growth"),
            Field::Count => "instances.count".into(),
            Field::Threads => "instances.threads".into(),
            Field::Zones => "instances.zones".into(),
            Field::RestoreRate => "instances.restore_rate".into(),
            Field::Running => "instances.running".into(),
            Field::KeepCommands => "events".into(),
        }
    }
}

/// What the application amounts to, as far as its fields can be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Tasks (one per partition).
    pub tasks: Option<u64>,
    /// Stateful tasks.
    pub stateful: Option<u64>,
    /// Changelog records of every task, as derived from the seed.
    pub changelog: Option<u64>,
    /// Instances.
    pub instances: Option<u64>,
    /// Stream threads in all.
    pub threads: Option<u64>,
}

/// A problem with one field, in one line: `topology.subtopologies[0].changelog: min (9) is
/// above max (3)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Where, as the scenario file names it.
    pub field: String,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl From<ScenarioError> for FieldError {
    fn from(e: ScenarioError) -> FieldError {
        match e {
            ScenarioError::Invalid { field, reason } => FieldError { field, reason },
            ScenarioError::Json { path, message } => FieldError {
                field: path,
                reason: message,
            },
        }
    }
}

impl SubtopologyDraft {
    /// A stateful subtopology to start from.
    pub(super) fn example(name: &str) -> SubtopologyDraft {
        SubtopologyDraft {
            name: name.to_string(),
            partitions: "12".into(),
            stateful: true,
            min: "100000".into(),
            max: "1000000".into(),
            distribution: "uniform".into(),
            write_rate: "100".into(),
            cleanup: "compact".into(),
            retention_ms: String::new(),
            key_growth: "0".into(),
            process_rate: None,
        }
    }

    fn of(s: &Subtopology) -> SubtopologyDraft {
        let sizes = s.changelog.unwrap_or_default();
        SubtopologyDraft {
            name: s.name.clone(),
            partitions: s.partitions.to_string(),
            stateful: s.stateful,
            min: sizes.min.to_string(),
            max: sizes.max.to_string(),
            distribution: sizes.distribution.to_string(),
            write_rate: s.write_rate.to_string(),
            cleanup: <&str>::from(s.cleanup).to_string(),
            retention_ms: s.retention_ms.map(|r| r.to_string()).unwrap_or_default(),
            key_growth: s.key_growth.to_string(),
            process_rate: s.process_rate,
        }
    }
}

impl SubtopologyDraft {
    /// How its changelogs keep records, as typed (subtopology `i`): the policy, the
    /// retention (empty for the default) and the keys it gains; a stateless one keeps none.
    fn store(&self, i: usize, errors: &mut Vec<FieldError>) -> (CleanupPolicy, Option<u64>, u64) {
        if !self.stateful {
            return (CleanupPolicy::Compact, None, 0);
        }
        let cleanup = match self.cleanup.trim() {
            "" | "compact" => CleanupPolicy::Compact,
            "compact,delete" => CleanupPolicy::CompactDelete,
            "append" => CleanupPolicy::Append,
            other => {
                errors.push(FieldError {
                    field: Field::Cleanup(i).path(),
                    reason: format!(
                        "unknown cleanup \"{other}\": compact, compact,delete or append"
                    ),
                });
                CleanupPolicy::Compact
            }
        };
        let retention_ms = match self.retention_ms.trim() {
            "" => None,
            text => Some(take(errors, whole(Field::Retention(i).path(), text))),
        };
        let key_growth = match self.key_growth.trim() {
            "" => 0,
            text => take(errors, whole(Field::KeyGrowth(i).path(), text)),
        };
        (cleanup, retention_ms, key_growth)
    }
}

/// A whole number as typed: thousands separators (`,`, `_`, spaces) are allowed.
pub(super) fn whole<T: std::str::FromStr>(path: String, text: &str) -> Result<T, FieldError> {
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    let error = |reason: String| FieldError {
        field: path.clone(),
        reason,
    };
    if digits.is_empty() {
        return Err(error("give a whole number".into()));
    }
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(error(format!("\"{}\" is not a whole number", text.trim())));
    }
    digits
        .parse()
        .map_err(|_| error(format!("{} is too large", text.trim())))
}

impl ApplicationDraft {
    /// The application of a scenario file: its own if it gives a topology and instances, or a
    /// starting example (one subtopology, instances as many as its members).
    pub fn of(file: &ScenarioFile) -> ApplicationDraft {
        let subtopologies = match &file.topology {
            Some(t) => t.subtopologies.iter().map(SubtopologyDraft::of).collect(),
            None => vec![SubtopologyDraft::example("orders")],
        };
        let instances = file.instances.clone().unwrap_or(Instances {
            count: u32::try_from(file.members.len()).unwrap_or(3).clamp(1, 12),
            threads: 1,
            zones: Vec::new(),
            restore_rate: None,
            running: true,
        });
        ApplicationDraft {
            name: if file.topology.is_some() {
                file.name.clone()
            } else {
                "My application".into()
            },
            seed: file.topology.as_ref().map_or(1, |t| t.seed).to_string(),
            subtopologies,
            count: instances.count.to_string(),
            threads: instances.threads.to_string(),
            zones: instances.zones.join(", "),
            restore_rate: instances
                .restore_rate
                .map(|r| r.to_string())
                .unwrap_or_default(),
            running: instances.running,
            keep_commands: file.topology.is_some(),
        }
    }

    /// A field's text as typed (a flag as `true` or `false`).
    pub fn get(&self, field: Field) -> String {
        let sub = |i: usize| self.subtopologies.get(i);
        let text = |s: Option<&String>| s.cloned().unwrap_or_default();
        match field {
            Field::Name => self.name.clone(),
            Field::Seed => self.seed.clone(),
            Field::Count => self.count.clone(),
            Field::Threads => self.threads.clone(),
            Field::Zones => self.zones.clone(),
            Field::RestoreRate => self.restore_rate.clone(),
            Field::Running => self.running.to_string(),
            Field::KeepCommands => self.keep_commands.to_string(),
            Field::Stateful(i) => sub(i).is_some_and(|s| s.stateful).to_string(),
            Field::SubtopologyName(i) => text(sub(i).map(|s| &s.name)),
            Field::Partitions(i) => text(sub(i).map(|s| &s.partitions)),
            Field::Min(i) => text(sub(i).map(|s| &s.min)),
            Field::Max(i) => text(sub(i).map(|s| &s.max)),
            Field::Distribution(i) => text(sub(i).map(|s| &s.distribution)),
            Field::WriteRate(i) => text(sub(i).map(|s| &s.write_rate)),
            Field::Cleanup(i) => text(sub(i).map(|s| &s.cleanup)),
            Field::Retention(i) => text(sub(i).map(|s| &s.retention_ms)),
            Field::KeyGrowth(i) => text(sub(i).map(|s| &s.key_growth)),
        }
    }

    /// Sets a field to the text typed (a flag to `true` or anything else).
    pub fn set(&mut self, field: Field, text: String) {
        let flag = text == "true";
        let slot = match field {
            Field::Running => {
                self.running = flag;
                return;
            }
            Field::KeepCommands => {
                self.keep_commands = flag;
                return;
            }
            Field::Name => &mut self.name,
            Field::Seed => &mut self.seed,
            Field::Count => &mut self.count,
            Field::Threads => &mut self.threads,
            Field::Zones => &mut self.zones,
            Field::RestoreRate => &mut self.restore_rate,
            Field::SubtopologyName(i)
            | Field::Partitions(i)
            | Field::Stateful(i)
            | Field::Min(i)
            | Field::Max(i)
            | Field::Distribution(i)
            | Field::WriteRate(i)
            | Field::Cleanup(i)
            | Field::Retention(i)
            | Field::KeyGrowth(i) => {
                let Some(s) = self.subtopologies.get_mut(i) else {
                    return;
                };
                match field {
                    Field::Stateful(_) => {
                        s.stateful = flag;
                        return;
                    }
                    Field::SubtopologyName(_) => &mut s.name,
                    Field::Partitions(_) => &mut s.partitions,
                    Field::Min(_) => &mut s.min,
                    Field::Max(_) => &mut s.max,
                    Field::Distribution(_) => &mut s.distribution,
                    Field::Cleanup(_) => &mut s.cleanup,
                    Field::Retention(_) => &mut s.retention_ms,
                    Field::KeyGrowth(_) => &mut s.key_growth,
                    _ => &mut s.write_rate,
                }
            }
        };
        *slot = text;
    }

    /// The topology as typed, or every field that does not read.
    fn topology(&self) -> Result<Topology, Vec<FieldError>> {
        let mut errors = Vec::new();
        let seed = take(&mut errors, whole(Field::Seed.path(), &self.seed));
        let mut subtopologies = Vec::new();
        for (i, s) in self.subtopologies.iter().enumerate() {
            let partitions = take(
                &mut errors,
                whole(Field::Partitions(i).path(), &s.partitions),
            );
            let (cleanup, retention_ms, key_growth) = s.store(i, &mut errors);
            let (changelog, write_rate) = if s.stateful {
                let min = take(&mut errors, whole(Field::Min(i).path(), &s.min));
                let max = take(&mut errors, whole(Field::Max(i).path(), &s.max));
                let distribution = match s.distribution.trim() {
                    "uniform" => SizeDistribution::Uniform,
                    "zipf" => SizeDistribution::Zipf,
                    other => {
                        errors.push(FieldError {
                            field: Field::Distribution(i).path(),
                            reason: format!("unknown distribution \"{other}\": uniform or zipf"),
                        });
                        SizeDistribution::Uniform
                    }
                };
                let sizes = ChangelogSizes {
                    min,
                    max,
                    distribution,
                };
                let rate = take(
                    &mut errors,
                    whole(Field::WriteRate(i).path(), &s.write_rate),
                );
                (Some(sizes), rate)
            } else {
                (None, 0)
            };
            subtopologies.push(Subtopology {
                name: s.name.trim().to_string(),
                partitions,
                stateful: s.stateful,
                changelog,
                write_rate,
                cleanup,
                retention_ms,
                key_growth,
                process_rate: s.process_rate,
            });
        }
        if errors.is_empty() {
            Ok(Topology {
                seed,
                subtopologies,
            })
        } else {
            Err(errors)
        }
    }

    /// The instances as typed, or every field that does not read.
    fn instances(&self) -> Result<Instances, Vec<FieldError>> {
        let count = whole::<u32>(Field::Count.path(), &self.count);
        let threads = whole::<u32>(Field::Threads.path(), &self.threads);
        let restore_rate = match self.restore_rate.trim() {
            "" => Ok(None),
            text => whole::<u64>(Field::RestoreRate.path(), text).map(Some),
        };
        match (count, threads, restore_rate) {
            (Ok(count), Ok(threads), Ok(restore_rate)) => Ok(Instances {
                count,
                threads,
                zones: self
                    .zones
                    .split([',', ' '])
                    .filter(|z| !z.is_empty())
                    .map(str::to_string)
                    .collect(),
                restore_rate,
                running: self.running,
            }),
            (count, threads, rate) => Err([count.err(), threads.err(), rate.err()]
                .into_iter()
                .flatten()
                .collect()),
        }
    }

    /// The totals and every problem: first what does not read, then what the scenario format
    /// refuses (the first problem of the topology, the first of the instances).
    pub fn check(&self) -> (Totals, Vec<FieldError>) {
        let mut totals = Totals::default();
        let mut errors = Vec::new();
        let sum = |stateful_only: bool| {
            self.subtopologies
                .iter()
                .filter(|s| s.stateful || !stateful_only)
                .map(|s| keep_partitions(&s.partitions))
                .try_fold(0u64, |total, p| Some(total + p?))
        };
        totals.tasks = sum(false);
        totals.stateful = sum(true);
        match self.topology() {
            Ok(topology) => {
                // Each subtopology on its own first, so that every one's problem shows at once;
                // then the whole (names listed twice, too many tasks in all).
                for (i, s) in topology.subtopologies.iter().enumerate() {
                    let one = Topology {
                        seed: topology.seed,
                        subtopologies: vec![s.clone()],
                    };
                    if let Err(e) = topology_tasks(&one) {
                        let mut e = FieldError::from(e);
                        e.field = e.field.replacen(
                            "topology.subtopologies[0]",
                            &format!("topology.subtopologies[{i}]"),
                            1,
                        );
                        errors.push(e);
                    }
                }
                if errors.is_empty() {
                    match topology_tasks(&topology) {
                        Ok(tasks) => {
                            totals.changelog = Some(tasks.iter().map(|t| t.changelog).sum());
                        }
                        Err(e) => errors.push(e.into()),
                    }
                }
            }
            Err(mut bad) => errors.append(&mut bad),
        }
        if self.name.trim().is_empty() {
            errors.insert(
                0,
                FieldError {
                    field: Field::Name.path(),
                    reason: "give the scenario a name".into(),
                },
            );
        }
        match self.instances() {
            Ok(instances) => {
                totals.instances = Some(u64::from(instances.count));
                totals.threads = Some(u64::from(instances.count) * u64::from(instances.threads));
                if let Err(e) = instance_members(&instances) {
                    errors.push(e.into());
                }
            }
            Err(mut bad) => errors.append(&mut bad),
        }
        (totals, errors)
    }

    /// The scenario file of this application on `base` (its configuration and, if kept, its
    /// scheduled commands), or the first problem.
    pub fn file(&self, base: &ScenarioFile) -> Result<ScenarioFile, FieldError> {
        let first = |mut errors: Vec<FieldError>| errors.remove(0);
        let (_, errors) = self.check();
        if !errors.is_empty() {
            return Err(first(errors));
        }
        let topology = self.topology().map_err(first)?;
        let instances = self.instances().map_err(first)?;
        Ok(ScenarioFile {
            name: self.name.trim().to_string(),
            description: if base.topology.is_some() {
                base.description.clone()
            } else {
                String::new()
            },
            config: base.config.clone(),
            tasks: Vec::new(),
            topology: Some(topology),
            members: Vec::new(),
            instances: Some(instances),
            initial: None,
            commands: if self.keep_commands {
                base.commands.clone()
            } else {
                Vec::new()
            },
            until_ms: base.until_ms,
        })
    }
}

/// The value read, or its default with the problem noted.
fn take<T: Default>(errors: &mut Vec<FieldError>, read: Result<T, FieldError>) -> T {
    read.unwrap_or_else(|e| {
        errors.push(e);
        T::default()
    })
}

/// A subtopology's partitions as typed, if they read as a whole number.
fn keep_partitions(text: &str) -> Option<u64> {
    whole::<u64>(Field::Partitions(0).path(), text).ok()
}
