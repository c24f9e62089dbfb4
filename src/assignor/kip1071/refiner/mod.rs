//! Trunk's warm-up refiner (`AssignmentRefinerImpl`, unreleased): the assignor's target
//! assignment turned into what each member gets now, so that a stateful task moving to a
//! member without its state keeps running where it is while the new owner warms up.
//!
//! Five passes, as in Kafka: index what the members hold today and how loaded their processes
//! are ([`Refiner::index_current_assignment`], [`Refiner::index_process_load`]); decide per task
//! whether its move is granted now or staged behind a warm-up ([`Refiner::analyze_tasks`]);
//! fund warm-ups group-wide under `num.warmup.replicas` ([`Refiner::plan_warmups`]); hold back
//! the standby placements that collide with those decisions ([`Refiner::filter_standbys`]); and
//! patch the target assignment ([`Refiner::assemble`]).
//!
//! Kafka iterates its members and the target assignment as hash maps; the refiner's result
//! does not depend on that order (Kafka's fuzz test checks it by reversing every input), so
//! here the members go in the order given and the target assignment by member id.

mod analyze;
mod assemble;
mod index;
mod standbys;
mod warmups;

pub use analyze::{StagedMigration, TaskDecisions, TaskGrant};
pub use index::{ActiveHolder, CurrentAssignmentIndex, ProcessLoad, TaskCopy};
pub use warmups::WarmupPlan;

use super::group::{GroupAssignment, Offsets, TaskId, Tasks};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A member's tasks in each role (Kafka's `TasksTuple`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TasksTuple {
    /// Active tasks.
    pub active: Tasks,
    /// Standby tasks.
    pub standby: Tasks,
    /// Warm-up tasks.
    pub warmup: Tasks,
}

impl TasksTuple {
    /// Whether it holds no task in any role.
    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    /// The tasks of one role.
    pub fn role(&self, role: TaskRole) -> &Tasks {
        match role {
            TaskRole::Active => &self.active,
            TaskRole::Standby => &self.standby,
            TaskRole::Warmup => &self.warmup,
        }
    }

    /// The tasks of one role, to change.
    pub fn role_mut(&mut self, role: TaskRole) -> &mut Tasks {
        match role {
            TaskRole::Active => &mut self.active,
            TaskRole::Standby => &mut self.standby,
            TaskRole::Warmup => &mut self.warmup,
        }
    }
}

/// The role in which a member holds a task (Kafka's `TaskRole`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaskRole {
    /// It runs the task.
    Active,
    /// It keeps a replica of the task's state.
    Standby,
    /// It restores the task's state before taking it over.
    Warmup,
}

/// What the refiner knows of a member (the parts of Kafka's `StreamsGroupMember` it reads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamsGroupMember {
    /// Its id.
    pub member_id: String,
    /// Its process.
    pub process_id: String,
    /// The tasks it has been granted.
    pub assigned: TasksTuple,
    /// The tasks it has been told to give up and has not yet released.
    pub pending_revocation: TasksTuple,
}

/// The offsets a member last reported (Kafka's `MemberTaskOffsets`): for tasks it restores,
/// for its copies, and for state left on disk (an offset without an end offset).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberTaskOffsets {
    /// Changelog positions; `i64::MAX` for a copy that has not started restoring.
    pub offsets: Offsets,
    /// Changelog end offsets.
    pub end_offsets: Offsets,
}

/// One refinement's inputs (the arguments of Kafka's `AssignmentRefiner.refine`).
#[derive(Clone, Copy, Debug)]
pub struct RefineInput<'a> {
    /// The group's members with what they hold.
    pub members: &'a [StreamsGroupMember],
    /// The assignor's target assignment by member id; it may name members that have left.
    pub target: &'a BTreeMap<String, TasksTuple>,
    /// The offsets each member last reported; absent for one not heard from yet.
    pub task_offsets: &'a BTreeMap<String, MemberTaskOffsets>,
    /// The subtopologies with changelogs: only their tasks are warmed up.
    pub stateful_subtopologies: &'a BTreeSet<String>,
    /// `group.streams.num.warmup.replicas` (Kafka's default 2).
    pub num_warmup_replicas: u32,
    /// `acceptable.recovery.lag` (Kafka Streams' default 10,000).
    pub acceptable_recovery_lag: i64,
}

/// One refinement: its inputs, with the members indexed by id and the stateful subtopology
/// ids shared by the tasks made of them. What the passes return borrows member and process
/// ids from the inputs.
#[derive(Clone, Debug)]
pub struct Refiner<'a> {
    input: RefineInput<'a>,
    by_id: FxHashMap<&'a str, &'a StreamsGroupMember>,
    stateful: FxHashMap<&'a str, Arc<str>>,
}

static NO_OFFSETS: MemberTaskOffsets = MemberTaskOffsets {
    offsets: BTreeMap::new(),
    end_offsets: BTreeMap::new(),
};

impl<'a> Refiner<'a> {
    /// A refinement of the given inputs.
    pub fn new(input: RefineInput<'a>) -> Refiner<'a> {
        let by_id = input
            .members
            .iter()
            .map(|m| (m.member_id.as_str(), m))
            .collect();
        let stateful = input
            .stateful_subtopologies
            .iter()
            .map(|s| (s.as_str(), Arc::from(s.as_str())))
            .collect();
        Refiner {
            input,
            by_id,
            stateful,
        }
    }

    /// The member of that id, if the group has it.
    fn member(&self, member_id: &str) -> Option<&'a StreamsGroupMember> {
        self.by_id.get(member_id).copied()
    }

    /// The process of a member the group has (the empty string for one it has not).
    fn process_of(&self, member_id: &str) -> &'a str {
        self.member(member_id).map_or("", |m| m.process_id.as_str())
    }

    fn offsets_of(&self, member_id: &str) -> &'a MemberTaskOffsets {
        self.input
            .task_offsets
            .get(member_id)
            .unwrap_or(&NO_OFFSETS)
    }

    /// Calls `action` on every task of a stateful subtopology among `tasks`.
    fn for_each_stateful(&self, tasks: &Tasks, mut action: impl FnMut(TaskId)) {
        for (sub, partitions) in tasks {
            if let Some(id) = self.stateful.get(sub.as_str()) {
                for &p in partitions {
                    action(TaskId::new(id.clone(), p));
                }
            }
        }
    }

    /// `refine`: the intermediate assignment: the target with the members it patches (none
    /// when `num.warmup.replicas` is 0 or nothing has to be held back).
    pub fn refine(&self) -> Refinement<'a> {
        if self.input.num_warmup_replicas == 0 {
            return Refinement {
                target: self.input.target,
                patches: BTreeMap::new(),
            };
        }
        let index = self.index_current_assignment();
        let load = self.index_process_load();
        let decisions = self.analyze_tasks(&index, &load);
        let plan = self.plan_warmups(&decisions, &index, &load);
        let withheld = self.filter_standbys(&index, &decisions, &plan);
        self.assemble(&index, &decisions, &plan, &withheld)
    }
}

/// What the refiner gives each member now: the target assignment, with the members whose
/// tasks it patches. Kafka copies the target map and puts the patches in; here the target is
/// borrowed and only the patched members are new.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refinement<'a> {
    /// The assignor's target assignment.
    pub target: &'a BTreeMap<String, TasksTuple>,
    /// The members whose tasks differ from the target, with their tasks now.
    pub patches: BTreeMap<&'a str, TasksTuple>,
}

impl<'a> Refinement<'a> {
    /// Whether the target assignment stands as it is (Kafka returns the same map).
    pub fn is_target(&self) -> bool {
        self.patches.is_empty()
    }

    /// What the member gets now, if the target or a patch names it.
    pub fn get(&self, member: &str) -> Option<&TasksTuple> {
        self.patches.get(member).or_else(|| self.target.get(member))
    }

    /// Every member the target or a patch names, by id, with what it gets now.
    pub fn members(&self) -> impl Iterator<Item = (&str, &TasksTuple)> {
        let ids: BTreeSet<&str> = self
            .target
            .keys()
            .map(String::as_str)
            .chain(self.patches.keys().copied())
            .collect();
        ids.into_iter()
            .filter_map(|id| self.get(id).map(|tasks| (id, tasks)))
    }

    /// The whole intermediate assignment, as a map of its own.
    pub fn to_map(&self) -> BTreeMap<String, TasksTuple> {
        self.members()
            .map(|(id, tasks)| (id.to_string(), tasks.clone()))
            .collect()
    }
}

/// Kafka's default `group.streams.num.warmup.replicas`.
pub const DEFAULT_NUM_WARMUP_REPLICAS: u32 = 2;

/// Kafka Streams' default `acceptable.recovery.lag`.
pub const DEFAULT_ACCEPTABLE_RECOVERY_LAG: i64 = 10_000;

/// The assignor's result as the refiner's target assignment (no warm-ups).
pub fn target_of(assignment: &GroupAssignment) -> BTreeMap<String, TasksTuple> {
    assignment
        .members
        .iter()
        .map(|(member, a)| {
            let tasks = TasksTuple {
                active: a.active.clone(),
                standby: a.standby.clone(),
                warmup: Tasks::new(),
            };
            (member.clone(), tasks)
        })
        .collect()
}

/// Runs the refiner on one group: what each member gets now.
pub fn refine(input: RefineInput<'_>) -> Refinement<'_> {
    Refiner::new(input).refine()
}

/// The offset reported for a task, if any.
pub fn offset_of(offsets: &Offsets, task: &TaskId) -> Option<i64> {
    offsets
        .get(&*task.subtopology)?
        .get(&task.partition)
        .copied()
}

/// `isCaughtUp`: both offsets reported, neither the "restore not started" cap `i64::MAX`, and
/// the end offset at most `acceptable_recovery_lag` past the offset (a lag of -1 is a fully
/// restored copy).
pub fn is_caught_up(
    offsets: &MemberTaskOffsets,
    task: &TaskId,
    acceptable_recovery_lag: i64,
) -> bool {
    let offset = offset_of(&offsets.offsets, task);
    let end = offset_of(&offsets.end_offsets, task);
    within_lag(offset, end, acceptable_recovery_lag)
}

/// `isCaughtUp` on the two reported offsets.
fn within_lag(offset: Option<i64>, end: Option<i64>, acceptable_recovery_lag: i64) -> bool {
    match (offset, end) {
        (Some(offset), Some(end)) if offset != i64::MAX && end != i64::MAX => {
            end.wrapping_sub(offset) <= acceptable_recovery_lag
        }
        _ => false,
    }
}

/// `AssignmentRefiner.preservesActiveTaskCount`: whether the refined assignment hands out as
/// many active tasks as the target (Kafka falls back to the target when it does not).
pub fn preserves_active_task_count(
    target: &BTreeMap<String, TasksTuple>,
    refined: &BTreeMap<String, TasksTuple>,
) -> bool {
    let count = |a: &BTreeMap<String, TasksTuple>| -> usize {
        a.values()
            .map(|t| t.active.values().map(BTreeSet::len).sum::<usize>())
            .sum()
    };
    count(target) == count(refined)
}
