//! The application as a design review describes it: a Kafka Streams topology (subtopologies,
//! each with partitions, changelog sizes and a write rate) and the instances that run it (a
//! count, threads each, zones). A scenario file may give these short forms instead of every
//! task and member; the `format` module expands them, and the validated [`super::Scenario`]
//! keeps them so that files and links written from it carry the short form again.

use serde::{Deserialize, Serialize};

/// How changelog sizes spread over a subtopology's partitions.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SizeDistribution {
    /// Every size between `min` and `max` is as likely.
    #[default]
    Uniform,
    /// A few hot partitions hold most of the state: the partition of rank `k` (1 for the
    /// largest) holds `max / k` records, at least `min`; ranks are dealt to partitions in a
    /// deterministic shuffled order.
    Zipf,
}

/// A changelog topic's `cleanup.policy` as a scenario file writes it: `compact` (key-value
/// stores, the default), `compact,delete` (windowed and session stores, with `retention_ms`)
/// or `append` (nothing removed, for teaching).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr,
)]
pub enum CleanupPolicy {
    /// `compact`.
    #[default]
    #[serde(rename = "compact")]
    #[strum(serialize = "compact")]
    Compact,
    /// `compact,delete`.
    #[serde(rename = "compact,delete")]
    #[strum(serialize = "compact,delete")]
    CompactDelete,
    /// `append`.
    #[serde(rename = "append")]
    #[strum(serialize = "append")]
    Append,
}

impl CleanupPolicy {
    /// Whether it is the default (`compact`), which files leave out.
    pub fn is_compact(&self) -> bool {
        *self == CleanupPolicy::Compact
    }
}

/// How long a windowed store's changelog keeps records unless the file says: a day of store
/// retention (Kafka Streams' default for windows) plus
/// `windowstore.changelog.additional.retention.ms`, a day.
pub const DEFAULT_WINDOW_RETENTION_MS: u64 = 2 * 24 * 3_600_000;

/// The range of changelog sizes of a subtopology's partitions, in records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangelogSizes {
    /// The smallest changelog.
    pub min: u64,
    /// The largest changelog.
    pub max: u64,
    /// How sizes spread between them (default `uniform`).
    #[serde(default)]
    pub distribution: SizeDistribution,
}

/// A subtopology: a part of the application whose tasks (one per input partition) Kafka
/// Streams names `<subtopology index>_<partition>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subtopology {
    /// What people call it, such as `orders` (the task names use its index).
    pub name: String,
    /// Input partitions, so tasks.
    pub partitions: u32,
    /// Whether its tasks keep state (default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub stateful: bool,
    /// Changelog sizes of its tasks (stateful subtopologies only; default: empty changelogs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changelog: Option<ChangelogSizes>,
    /// Records per second each of its tasks appends to its changelog (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub write_rate: u64,
    /// How its changelogs keep records (default `compact`: `changelog` counts keys).
    #[serde(default, skip_serializing_if = "CleanupPolicy::is_compact")]
    pub cleanup: CleanupPolicy,
    /// How long a `compact,delete` changelog keeps records (default two days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention_ms: Option<u64>,
    /// Keys per second each of its stores gains while processed (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub key_growth: u64,
    /// Records per second each of its tasks processes (default: the configuration's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_rate: Option<u64>,
}

/// A Kafka Streams topology: the subtopologies in order (their index is their position), and
/// the seed that changelog sizes are derived from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topology {
    /// The number changelog sizes are derived from (default 0): the same seed always gives
    /// the same sizes; another seed gives other sizes from the same ranges.
    #[serde(default)]
    pub seed: u64,
    /// The subtopologies.
    pub subtopologies: Vec<Subtopology>,
}

/// The instances (members) of an application, by count: `S1` to `S<count>`, each with the
/// same threads, in zones dealt in turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instances {
    /// How many.
    pub count: u32,
    /// Stream threads per instance: its capacity (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub threads: u32,
    /// Zones, dealt in turn: `S1` in the first, `S2` in the second, ... (default: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<String>,
    /// Records per second each restores (default: the config's `restore_rate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore_rate: Option<u64>,
    /// They already run the application when the scenario starts: every task dealt in turn
    /// over them, caught up (default false: they start empty).
    #[serde(default, skip_serializing_if = "is_false")]
    pub running: bool,
}

impl Topology {
    /// Tasks of the whole topology.
    pub fn task_count(&self) -> u64 {
        self.subtopologies
            .iter()
            .map(|s| u64::from(s.partitions))
            .sum()
    }
}

impl Instances {
    /// The name of the instance at `index` (from 0): `S1`, `S2`, ...
    pub fn name(index: usize) -> String {
        format!("S{}", index + 1)
    }

    /// The zone of the instance at `index` (from 0), if zones are given.
    pub fn zone(&self, index: usize) -> Option<&str> {
        (!self.zones.is_empty()).then(|| self.zones[index % self.zones.len()].as_str())
    }
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

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
