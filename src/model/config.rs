//! What a scenario can tune: the strategy and its settings, rounds, timeouts and rates.

use serde::{Deserialize, Serialize};

/// Which rebalancing design decides and carries out the assignment. Declared in the order
/// the playground lists them; the names (`learner`, `kip441`, ...) are those of files, links
/// and the command line.
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
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Strategy {
    /// The seed's design: learners replay a changelog before ownership moves.
    #[default]
    Learner,
    /// Kafka Streams' warm-up replicas, promoted at probing rebalances (KIP-441).
    Kip441,
    /// Incremental two-phase moves without learners (KIP-429 / KIP-415).
    Cooperative,
    /// Stop-the-world: every rebalance revokes every task from every member.
    Eager,
}

impl Strategy {
    /// Every strategy, in the order the playground lists them.
    pub const ALL: &'static [Strategy] = <Strategy as strum::VariantArray>::VARIANTS;

    /// Their names, in the same order.
    pub const NAMES: &'static [&'static str] = <Strategy as strum::VariantNames>::VARIANTS;

    /// The name used in files, links and the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// How a learned task changes hands once its learner is ready (docs/design.md, rule 2).
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
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum HandoffMode {
    /// The owner releases its learned tasks when it joins; the leader gives each to its ready
    /// learner or back to the owner (the seed's examples).
    #[default]
    ReleaseAtJoin,
    /// The leader revokes a learned task once its learner is ready and assigns it at the
    /// follow-up rebalance (KIP-429 style).
    TwoPhase,
}

/// When a member with learners rejoins to report them ready (docs/design.md, rule 5).
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
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Readiness {
    /// As soon as any one of its learners is ready.
    #[default]
    Eager,
    /// Only when all of its learners are ready.
    Stable,
}

/// Settings of Kafka Streams' warm-up replicas (KIP-441), used by [`Strategy::Kip441`] only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Kip441Config {
    /// `max.warmup.replicas`: warm-ups allowed group-wide at once.
    pub max_warmup_replicas: u32,
    /// `acceptable.recovery.lag`: a warm-up or standby this close to the end is caught up.
    pub acceptable_recovery_lag: u64,
    /// `probing.rebalance.interval.ms`: how often warm-ups are checked for promotion.
    pub probing_interval_ms: u64,
}

impl Default for Kip441Config {
    fn default() -> Self {
        Kip441Config {
            max_warmup_replicas: 2,
            acceptable_recovery_lag: 10_000,
            probing_interval_ms: 600_000,
        }
    }
}

/// Everything a scenario can tune; every field has a default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The rebalancing design to simulate.
    pub strategy: Strategy,
    /// How a learned task changes hands.
    pub handoff: HandoffMode,
    /// When a member rejoins to report ready learners.
    pub readiness: Readiness,
    /// A learner or standby at most this many records behind is ready.
    pub acceptable_recovery_lag: u64,
    /// Standby replicas per stateful task.
    pub num_standby_replicas: u32,
    /// Learners allowed group-wide at once; `None` means no cap, as in the seed.
    pub max_learners: Option<u32>,
    /// How long a rebalance round (join, assign, sync) lasts, in the seed's teaching examples;
    /// `None` (the default): as long as Kafka's protocol makes it, from the heartbeats below.
    pub rebalance_ms: Option<u64>,
    /// `heartbeat.interval.ms`: a member that did not cause a rebalance learns of it at its
    /// next heartbeat and rejoins then; a crashed member's session runs from its last one.
    pub heartbeat_interval_ms: u64,
    /// One round trip between a member and the coordinator, its stream thread's next poll
    /// included (an assumption: nothing in Kafka fixes it).
    pub round_trip_ms: u64,
    /// What the leader spends between the join phase and the sync: listing the changelogs'
    /// end offsets, assigning, writing the group's metadata (an assumption).
    pub assign_ms: u64,
    /// `group.initial.rebalance.delay.ms`: how long the coordinator waits before the first
    /// round of an empty group.
    pub initial_rebalance_delay_ms: u64,
    /// How long the coordinator waits before it declares a silent member dead.
    pub session_timeout_ms: u64,
    /// How long a drained member may wait for its learners; `None` means no limit.
    pub scale_down_timeout_ms: Option<u64>,
    /// Members keep their identity across a restart (Kafka's `group.instance.id`, KIP-345).
    pub static_membership: bool,
    /// Standbys and learners go to another zone than their task's other replicas while one
    /// exists (Kafka's rack-aware standby assignment, KIP-708).
    pub rack_aware_standbys: bool,
    /// Records per second each stream thread of a member restores, unless the member says
    /// otherwise (each thread has its own restore consumer).
    pub restore_rate: u64,
    /// Records per second an instance's disk can take from all its threads' restores at
    /// once; `None`: no such limit.
    pub disk_rate: Option<u64>,
    /// `min.cleanable.dirty.ratio`: the log cleaner compacts a changelog once its dirty part
    /// (records written since the last cleaning) is this share of the log.
    pub dirty_ratio: f64,
    /// `segment.bytes` in records: the cleaner never touches the segment being written, so
    /// with segments a log swings up to one more segment above its keys. None: segments small
    /// beside the store (the log swings between one and two times its keys at 0.5).
    pub segment_records: Option<u64>,
    /// `state.cleanup.delay.ms`: a store no thread holds is deleted by the instance's cleaner,
    /// which runs this often, once it has been left this long.
    pub state_cleanup_delay_ms: u64,
    /// Records per second a task processes, unless the task says otherwise: after an outage
    /// its input backlog drains at this rate less what keeps arriving (an assumption: Kafka
    /// Streams bounds no processing rate).
    pub process_rate: u64,
    /// Settings of the `kip441` strategy.
    pub kip441: Kip441Config,
}

/// Kafka's `min.cleanable.dirty.ratio` default.
pub const DEFAULT_DIRTY_RATIO: f64 = 0.5;

impl Default for Config {
    fn default() -> Self {
        Config {
            strategy: Strategy::Learner,
            handoff: HandoffMode::ReleaseAtJoin,
            readiness: Readiness::Eager,
            acceptable_recovery_lag: 0,
            num_standby_replicas: 0,
            max_learners: None,
            rebalance_ms: None,
            heartbeat_interval_ms: 3_000,
            round_trip_ms: 50,
            assign_ms: 150,
            initial_rebalance_delay_ms: 3_000,
            session_timeout_ms: 45_000,
            scale_down_timeout_ms: None,
            static_membership: false,
            rack_aware_standbys: true,
            restore_rate: 10_000,
            disk_rate: None,
            dirty_ratio: DEFAULT_DIRTY_RATIO,
            segment_records: None,
            state_cleanup_delay_ms: 600_000,
            process_rate: 10_000,
            kip441: Kip441Config::default(),
        }
    }
}

/// The part of the configuration the leader's assignor reads.
#[derive(Clone, Debug, PartialEq)]
pub struct AssignorConfig {
    /// The rebalancing design.
    pub strategy: Strategy,
    /// A learner or standby at most this many records behind is ready.
    pub acceptable_recovery_lag: u64,
    /// Standby replicas per stateful task.
    pub num_standby_replicas: u32,
    /// Learners (warm-ups) allowed group-wide at once.
    pub max_learners: Option<u32>,
    /// Spread a task's replicas over zones while possible.
    pub rack_aware_standbys: bool,
}

impl Config {
    /// The settings the leader's assignor works with. For `kip441` they are Kafka Streams'
    /// own knobs (`max.warmup.replicas`, `acceptable.recovery.lag`).
    pub fn assignor(&self) -> AssignorConfig {
        match self.strategy {
            Strategy::Kip441 => AssignorConfig {
                strategy: self.strategy,
                acceptable_recovery_lag: self.kip441.acceptable_recovery_lag,
                num_standby_replicas: self.num_standby_replicas,
                max_learners: Some(self.kip441.max_warmup_replicas),
                rack_aware_standbys: self.rack_aware_standbys,
            },
            _ => AssignorConfig {
                strategy: self.strategy,
                acceptable_recovery_lag: self.acceptable_recovery_lag,
                num_standby_replicas: self.num_standby_replicas,
                max_learners: self.max_learners,
                rack_aware_standbys: self.rack_aware_standbys,
            },
        }
    }

    /// The longest a rebalance round lasts when no silent member holds its join phase open:
    /// the teaching round, or the longest wait for a member's heartbeat (or for an empty
    /// group's initial delay), a new member's two round trips, the leader's work and the sync.
    pub fn longest_round_ms(&self) -> u64 {
        self.rebalance_ms.unwrap_or(
            self.heartbeat_interval_ms
                .max(self.initial_rebalance_delay_ms)
                + 3 * self.round_trip_ms
                + self.assign_ms,
        )
    }

    /// The longest a round's join phase lasts when no silent member holds it open.
    pub fn longest_join_ms(&self) -> u64 {
        match self.rebalance_ms {
            Some(round) => round / 2,
            None => {
                self.heartbeat_interval_ms
                    .max(self.initial_rebalance_delay_ms)
                    + 2 * self.round_trip_ms
            }
        }
    }

    /// The lag at or under which a learner is ready under this configuration.
    pub fn ready_lag(&self) -> u64 {
        self.assignor().acceptable_recovery_lag
    }
}
