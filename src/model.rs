//! The vocabulary of the design: tasks, members, roles, the join metadata a member reports and
//! the assignment the leader hands back.
//!
//! Tasks and members are referred to by dense indices ([`TaskId`], [`MemberId`]) so that the
//! assignor and the engine can use plain vectors; the names people read (`T1`, `S4`) live in a
//! [`Roster`] and are only used at the edges (JSON, notation, UI).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A task, by its position in the scenario's task list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TaskId(pub u32);

/// A member, by its position in the order members joined the group (initial members first).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct MemberId(pub u32);

impl TaskId {
    /// The index into per-task vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl MemberId {
    /// The index into per-member vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A task as the simulation knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The name people read, such as `T1`.
    pub name: String,
    /// Stateful tasks keep a store backed by a changelog; stateless ones have nothing to restore.
    pub stateful: bool,
    /// Records in the changelog when the scenario starts.
    pub changelog: u64,
    /// Records per second appended to the changelog while an active owner processes the task.
    pub write_rate: u64,
}

/// The names of tasks and members, used to print and parse.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Roster {
    /// Task names by [`TaskId`].
    pub tasks: Vec<String>,
    /// Member names by [`MemberId`].
    pub members: Vec<String>,
}

impl Roster {
    /// The name of a task.
    pub fn task(&self, task: TaskId) -> &str {
        self.tasks.get(task.index()).map_or("T?", String::as_str)
    }

    /// The name of a member.
    pub fn member(&self, member: MemberId) -> &str {
        self.members
            .get(member.index())
            .map_or("S?", String::as_str)
    }

    /// Finds a task by name.
    pub fn task_id(&self, name: &str) -> Option<TaskId> {
        self.tasks
            .iter()
            .position(|t| t == name)
            .map(|i| TaskId(i as u32))
    }

    /// Finds a member by name.
    pub fn member_id(&self, name: &str) -> Option<MemberId> {
        self.members
            .iter()
            .position(|m| m == name)
            .map(|i| MemberId(i as u32))
    }

    /// Task names of a list, in the list's order.
    pub fn task_names(&self, tasks: &[TaskId]) -> Vec<String> {
        tasks.iter().map(|&t| self.task(t).to_string()).collect()
    }
}

/// Which rebalancing design decides and carries out the assignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The seed's design: learners replay a changelog before ownership moves.
    #[default]
    Learner,
    /// Stop-the-world: every rebalance revokes every task from every member.
    Eager,
    /// Incremental two-phase moves without learners (KIP-429 / KIP-415).
    Cooperative,
    /// Kafka Streams' warm-up replicas, promoted at probing rebalances (KIP-441).
    Kip441,
}

impl Strategy {
    /// Every strategy, in the order the playground lists them.
    pub const ALL: [Strategy; 4] = [
        Strategy::Learner,
        Strategy::Kip441,
        Strategy::Cooperative,
        Strategy::Eager,
    ];

    /// The name used in files, links and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Learner => "learner",
            Strategy::Eager => "eager",
            Strategy::Cooperative => "cooperative",
            Strategy::Kip441 => "kip441",
        }
    }

    /// Parses a strategy name as [`Strategy::name`] prints it.
    pub fn parse(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a learned task changes hands once its learner is ready (system.md, rule 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandoffMode {
    /// The owner releases its learned tasks when it joins; the leader gives each to its ready
    /// learner or back to the owner (the seed's examples).
    #[default]
    ReleaseAtJoin,
    /// The leader revokes a learned task once its learner is ready and assigns it at the
    /// follow-up rebalance (KIP-429 style).
    TwoPhase,
}

/// When a member with learners rejoins to report them ready (system.md, rule 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// How long a rebalance round (join, assign, sync) lasts.
    pub rebalance_ms: u64,
    /// How long the coordinator waits before it declares a silent member dead.
    pub session_timeout_ms: u64,
    /// How long a drained member may wait for its learners; `None` means no limit.
    pub scale_down_timeout_ms: Option<u64>,
    /// Records per second a member restores, unless the member says otherwise.
    pub restore_rate: u64,
    /// Settings of the `kip441` strategy.
    pub kip441: Kip441Config,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            strategy: Strategy::Learner,
            handoff: HandoffMode::ReleaseAtJoin,
            readiness: Readiness::Eager,
            acceptable_recovery_lag: 0,
            num_standby_replicas: 0,
            max_learners: None,
            rebalance_ms: 500,
            session_timeout_ms: 10_000,
            scale_down_timeout_ms: None,
            restore_rate: 10_000,
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
            },
            _ => AssignorConfig {
                strategy: self.strategy,
                acceptable_recovery_lag: self.acceptable_recovery_lag,
                num_standby_replicas: self.num_standby_replicas,
                max_learners: self.max_learners,
            },
        }
    }

    /// The lag at or under which a learner is ready under this configuration.
    pub fn ready_lag(&self) -> u64 {
        self.assignor().acceptable_recovery_lag
    }
}

/// What the leader knows of a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskInfo {
    /// Whether the task has state to restore.
    pub stateful: bool,
    /// The changelog's end offset: what a member with no state would have to replay. The
    /// leader reads it to move the cheapest tasks first; zero when unknown.
    pub changelog: u64,
}

/// What a member reports when it joins a rebalance (the seed's join metadata).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JoinMetadata {
    /// The member.
    pub member: MemberId,
    /// Its capacity; active tasks are balanced in proportion to it.
    pub capacity: u32,
    /// The member was told to drain and will leave once it runs nothing.
    pub leaving: bool,
    /// Tasks it still runs.
    pub assigned: Vec<TaskId>,
    /// Tasks it released since its last assignment.
    pub revoked: Vec<TaskId>,
    /// Tasks it is learning.
    pub learning: Vec<TaskId>,
    /// Tasks it keeps a standby replica of.
    pub standby: Vec<TaskId>,
    /// Records behind the changelog end, for every task whose state it holds. A task
    /// missing here has no local state.
    pub lags: Vec<(TaskId, u64)>,
}

impl JoinMetadata {
    /// The lag of a task's local state, if the member holds any.
    pub fn lag(&self, task: TaskId) -> Option<u64> {
        self.lags.iter().find(|(t, _)| *t == task).map(|&(_, l)| l)
    }
}

/// What the leader hands one member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberAssignment {
    /// Active tasks it runs from now on.
    pub assigned: Vec<TaskId>,
    /// Tasks it ran before this round and no longer runs.
    pub revoked: Vec<TaskId>,
    /// Tasks it learns (replays) while another member runs them.
    pub learning: Vec<TaskId>,
    /// Tasks it keeps a standby replica of.
    pub standby: Vec<TaskId>,
    /// Its active tasks that some learner is replaying (the seed's `isLearned`).
    pub learned: Vec<TaskId>,
}

/// The leader's decision for the whole group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    /// One entry per member that joined, in join order.
    pub members: Vec<(MemberId, MemberAssignment)>,
    /// Another rebalance is needed at once: a revoked task waits to be reassigned.
    pub followup: bool,
}

impl Assignment {
    /// The assignment of one member, if it took part.
    pub fn of(&self, member: MemberId) -> Option<&MemberAssignment> {
        self.members
            .iter()
            .find(|(m, _)| *m == member)
            .map(|(_, a)| a)
    }
}
