//! The vocabulary of the design: tasks, members, the configuration, the join metadata a member
//! reports, the assignment the leader hands back, the commands a person gives, the
//! application's topology and instances, and the scenario they are given in. The bottom layer: it depends on nothing else in the crate.
//!
//! Tasks and members are referred to by dense indices ([`TaskId`], [`MemberId`]) so that the
//! assignor and the engine can use plain vectors; the names people read (`T1`, `S4`) live in a
//! [`Roster`] and are only used at the edges (JSON, notation, UI).

mod application;
mod command;
mod config;
mod metadata;
mod scenario;

pub use application::{
    ChangelogSizes, CleanupPolicy, Instances, SizeDistribution, Subtopology, Topology,
    DEFAULT_WINDOW_RETENTION_MS,
};
pub use command::{Command, MemberSpec, TimedCommand, MAX_DOWN_MS, MAX_THREADS};
pub use config::{
    AssignorConfig, Config, HandoffMode, Kip441Config, Readiness, Strategy, DEFAULT_DIRTY_RATIO,
};
pub use metadata::{subtopologies, Assignment, JoinMetadata, MemberAssignment, TaskInfo};
pub use scenario::Scenario;

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::rc::Rc;

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
    /// The index of its subtopology, when the scenario describes its application as a
    /// [`Topology`] (Kafka Streams names the task `<subtopology>_<partition>`).
    pub subtopology: Option<u32>,
    /// How its changelog topic keeps records (Kafka's `cleanup.policy`); with `compact`,
    /// `changelog` is the store's number of keys.
    pub cleanup: Cleanup,
    /// Keys per second its store gains while it is processed (a compacted changelog keeps
    /// one record per key).
    pub key_growth: u64,
    /// Records per second it processes; `None`: the configuration's. Its input arrives at
    /// its write rate, so after an outage its backlog drains at the difference.
    pub process_rate: Option<u64>,
}

impl Task {
    /// A task named `name` with `changelog` records (keys) and `write_rate` writes a second,
    /// compacted, gaining no keys; stateless when `changelog` and `write_rate` say nothing
    /// else is given.
    pub fn new(name: impl Into<String>, stateful: bool, changelog: u64, write_rate: u64) -> Task {
        Task {
            name: name.into(),
            stateful,
            changelog: if stateful { changelog } else { 0 },
            write_rate: if stateful { write_rate } else { 0 },
            subtopology: None,
            cleanup: Cleanup::Compact,
            key_growth: 0,
            process_rate: None,
        }
    }
}

/// How a changelog topic keeps its records: Kafka's `cleanup.policy` for the topics Kafka
/// Streams creates (`compact` for key-value stores, `compact,delete` for windowed and
/// session stores), and an append-only log for teaching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cleanup {
    /// One record per key survives the log cleaner. Writes update keys and the log grows
    /// until its dirty part reaches the dirty ratio; the cleaner then brings it back to one
    /// record per key.
    #[default]
    Compact,
    /// A windowed or session store's changelog (`compact,delete`): it holds the writes of the
    /// last `retention_ms` (the store's retention plus a day, in Kafka Streams).
    Windowed {
        /// How long records are kept.
        retention_ms: u64,
    },
    /// Nothing is ever removed: every write stays (no real changelog is kept this way).
    Append,
}

/// The names of tasks and members, used to print and parse.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Roster {
    /// Task names by [`TaskId`] (shared: every frame's chips hold them, and every snapshot
    /// of a run the list).
    pub tasks: Rc<[Rc<str>]>,
    /// Member names by [`MemberId`].
    pub members: Vec<String>,
    /// Subtopology names by index (empty unless the scenario has a [`Topology`]).
    pub subtopologies: Vec<String>,
}

impl Roster {
    /// The name of a task.
    pub fn task(&self, task: TaskId) -> &str {
        self.tasks.get(task.index()).map_or("T?", |name| name)
    }

    /// The name of a task, shared (a chip holds it on every frame).
    pub fn task_shared(&self, task: TaskId) -> Rc<str> {
        self.tasks
            .get(task.index())
            .cloned()
            .unwrap_or_else(|| "T?".into())
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
            .position(|t| &**t == name)
            .map(|i| TaskId(i as u32))
    }

    /// Every task by name, to find many at once (each [`Roster::task_id`] reads the whole
    /// list).
    pub fn task_index(&self) -> HashMap<&str, TaskId> {
        self.tasks
            .iter()
            .enumerate()
            .map(|(i, name)| (&**name, TaskId(i as u32)))
            .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_named_by_the_roster_and_an_unknown_one_is_marked() {
        let roster = Roster {
            tasks: ["T1".into(), "orders_0".into()].into(),
            ..Roster::default()
        };
        assert_eq!(&*roster.task_shared(TaskId(1)), "orders_0");
        assert_eq!(roster.task(TaskId(1)), "orders_0");
        assert_eq!(roster.task_id("orders_0"), Some(TaskId(1)));
        assert_eq!(&*roster.task_shared(TaskId(7)), "T?");
        assert_eq!(roster.task(TaskId(7)), "T?");
    }
}
