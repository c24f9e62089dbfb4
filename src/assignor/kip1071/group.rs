//! The assignor's input and output, after Kafka's `GroupSpec`, `MemberAssignmentState`,
//! `TopologyDescriber` and `GroupAssignment`.

use super::java::compare_strings;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;
use thiserror::Error;

/// Tasks by subtopology id: the partitions of each (Kafka's `Map<String, Set<Integer>>`).
pub type Tasks = BTreeMap<String, BTreeSet<i32>>;

/// Offsets by subtopology id and partition (Kafka's `Map<String, Map<Integer, Long>>`).
pub type Offsets = BTreeMap<String, BTreeMap<i32, i64>>;

/// A task: a subtopology and one partition of its input topics. Ordered as Kafka's `TaskId`:
/// by subtopology id as Java compares strings (so "10" before "2"), then by partition. The id
/// is shared, so that a task is copied without allocating.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TaskId {
    /// The subtopology's id.
    pub subtopology: Arc<str>,
    /// The partition.
    pub partition: i32,
}

impl TaskId {
    /// The task of a subtopology and partition.
    pub fn new(subtopology: impl Into<Arc<str>>, partition: i32) -> TaskId {
        TaskId {
            subtopology: subtopology.into(),
            partition,
        }
    }
}

impl Ord for TaskId {
    fn cmp(&self, other: &TaskId) -> Ordering {
        // Tasks of one subtopology usually share its id: no need to compare the strings.
        let by_subtopology = if Arc::ptr_eq(&self.subtopology, &other.subtopology) {
            Ordering::Equal
        } else {
            compare_strings(&self.subtopology, &other.subtopology)
        };
        by_subtopology.then(self.partition.cmp(&other.partition))
    }
}

impl PartialOrd for TaskId {
    fn partial_cmp(&self, other: &TaskId) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

/// One subtopology as Kafka's `TopologyDescriber` tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtopology {
    /// Its id.
    pub id: String,
    /// The largest partition count of its input topics: its tasks are partitions 0 to this.
    pub partitions: u32,
    /// Whether it has state with a changelog (only those tasks get standbys).
    pub stateful: bool,
}

/// The group's topology: its subtopologies in the describer's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Topology {
    /// The subtopologies.
    pub subtopologies: Vec<Subtopology>,
}

/// What one member (stream thread) tells the assignor: its process and its current tasks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberSpec {
    /// The process (Kafka Streams instance) it runs in.
    pub process_id: String,
    /// Its current active tasks.
    pub active: Tasks,
    /// Its current standby tasks.
    pub standby: Tasks,
    /// Its current warm-up tasks.
    pub warmup: Tasks,
    /// The offset sums it last reported, for assigned tasks and for state left on disk.
    pub task_offsets: Offsets,
}

/// The group as the assignor sees it (Kafka's `GroupSpec`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupSpec {
    /// The members by id, in the order of Kafka's `groupSpec.memberIds()`: it decides ties
    /// (which member of two equally good ones comes first), as in Kafka.
    pub members: Vec<(String, MemberSpec)>,
    /// `num.standby.replicas`.
    pub num_standby_replicas: u32,
    /// Which Kafka's assignor to be.
    pub release: Release,
}

/// The Kafka release whose `StickyTaskAssignor` runs. Without task offsets (which 4.1 to 4.3
/// do not report) trunk's differs from 4.3's only by KAFKA-20899.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Release {
    /// 4.1.0 to 4.3.0: `findPrevMemberWithLeastLoad` judges a standby candidate by the first
    /// previous holder's process, so a task that process holds gets no sticky standby.
    Kafka43,
    /// Trunk (August 2026), after KAFKA-20899: every previous holder is tried.
    #[default]
    Trunk,
}

/// What the assignor gives one member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberAssignment {
    /// Its active tasks.
    pub active: Tasks,
    /// Its standby tasks.
    pub standby: Tasks,
}

/// The assignor's result (Kafka's `GroupAssignment`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupAssignment {
    /// Every member's tasks, by member id.
    pub members: BTreeMap<String, MemberAssignment>,
    /// The standby replicas no process could take (Kafka logs "not enough available
    /// capacity"): each task with how many of its replicas are missing.
    pub unassigned_standbys: Vec<(TaskId, u32)>,
}

/// A group the assignor cannot assign.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AssignorError {
    /// A member id given twice.
    #[error("member {0:?} is given twice")]
    DuplicateMember(String),
    /// A subtopology id given twice.
    #[error("subtopology {0:?} is given twice")]
    DuplicateSubtopology(String),
    /// Tasks but no member to run them (Kafka's "No process available to assign active task").
    #[error("no process available to assign active task {0}")]
    NoMembers(TaskId),
}
