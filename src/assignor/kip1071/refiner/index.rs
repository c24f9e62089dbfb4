//! The refiner's first pass: what the members hold, indexed by task, and how loaded their
//! processes are (`indexCurrentAssignment`, `indexProcessLoad`).

use super::{is_caught_up, offset_of, Refiner, TaskRole};
use crate::assignor::kip1071::group::TaskId;
use std::collections::{BTreeMap, BTreeSet};

/// The member holding a task as active, and how usable its state is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveHolder {
    /// The member.
    pub member_id: String,
    /// Whether it reports offsets for the task, that is, still restores it.
    pub restoring: bool,
    /// Whether it has restored the task to within the acceptable lag.
    pub caught_up: bool,
}

impl ActiveHolder {
    /// Whether its state can run the task now: processing it, or restored close enough.
    pub fn hot(&self) -> bool {
        !self.restoring || self.caught_up
    }
}

/// A standby or warm-up copy of a task on a member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskCopy {
    /// The member holding it.
    pub member_id: String,
    /// That member's process.
    pub process_id: String,
    /// Standby or warm-up.
    pub role: TaskRole,
    /// Whether it is within the acceptable lag.
    pub caught_up: bool,
    /// Whether it has restored anything.
    pub restore_started: bool,
}

/// The members' current assignment by task (stateful tasks only): `CurrentAssignmentIndex`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CurrentAssignmentIndex {
    /// Each task's active holder (tasks pending revocation are left out).
    pub active_holder: BTreeMap<TaskId, ActiveHolder>,
    /// Each task's standby and warm-up copies, in member order.
    pub task_copies: BTreeMap<TaskId, Vec<TaskCopy>>,
    /// Per process, the tasks it reports state on disk for while holding no copy of them.
    pub on_disk_by_process: BTreeMap<String, BTreeSet<TaskId>>,
}

impl CurrentAssignmentIndex {
    /// `findCopyOnProcess`: the first copy of the task on that process.
    pub fn copy_on_process(&self, task: &TaskId, process_id: &str) -> Option<&TaskCopy> {
        self.task_copies
            .get(task)?
            .iter()
            .find(|c| c.process_id == process_id)
    }
}

/// How much stateful work a process carries: its stateful tasks in every role over its members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessLoad {
    /// Stateful tasks granted to its members, in every role.
    pub stateful_task_count: i32,
    /// Its members (stream threads).
    pub member_count: i32,
}

impl ProcessLoad {
    /// Tasks per member.
    pub fn load(&self) -> f64 {
        self.load_with(0)
    }

    /// Tasks per member with that many warm-ups added.
    pub fn load_with(&self, new_warmups: i32) -> f64 {
        f64::from(self.stateful_task_count + new_warmups) / f64::from(self.member_count)
    }
}

impl Refiner<'_> {
    /// `indexCurrentAssignment`: active holders, copies and state on disk, one pass over the
    /// members' granted tasks and reported offsets.
    pub fn index_current_assignment(&self) -> CurrentAssignmentIndex {
        let lag = self.input.acceptable_recovery_lag;
        let mut index = CurrentAssignmentIndex::default();
        let mut reported_by_process: BTreeMap<String, BTreeSet<TaskId>> = BTreeMap::new();
        let mut held_by_process: BTreeMap<String, BTreeSet<TaskId>> = BTreeMap::new();
        for member in self.input.members {
            let offsets = self.offsets_of(&member.member_id);
            let held = held_by_process
                .entry(member.process_id.clone())
                .or_default();
            self.for_each_stateful(&member.assigned.active, |task| {
                let holder = ActiveHolder {
                    member_id: member.member_id.clone(),
                    restoring: offset_of(&offsets.offsets, &task).is_some(),
                    caught_up: is_caught_up(offsets, &task, lag),
                };
                index.active_holder.insert(task.clone(), holder);
                held.insert(task);
            });
            for role in [TaskRole::Standby, TaskRole::Warmup] {
                self.for_each_stateful(member.assigned.role(role), |task| {
                    let copy = TaskCopy {
                        member_id: member.member_id.clone(),
                        process_id: member.process_id.clone(),
                        role,
                        caught_up: is_caught_up(offsets, &task, lag),
                        restore_started: offset_of(&offsets.offsets, &task)
                            .is_some_and(|o| o != i64::MAX),
                    };
                    index
                        .task_copies
                        .entry(task.clone())
                        .or_default()
                        .push(copy);
                    held.insert(task);
                });
            }
            for (sub, partitions) in &offsets.offsets {
                if self.input.stateful_subtopologies.contains(sub) {
                    let reported = reported_by_process
                        .entry(member.process_id.clone())
                        .or_default();
                    reported.extend(partitions.keys().map(|&p| TaskId::new(sub.clone(), p)));
                }
            }
        }
        for (process, mut reported) in reported_by_process {
            if let Some(held) = held_by_process.get(&process) {
                reported.retain(|t| !held.contains(t));
            }
            if !reported.is_empty() {
                index.on_disk_by_process.insert(process, reported);
            }
        }
        index
    }

    /// `indexProcessLoad`: every process's stateful tasks (granted, in every role) and members.
    pub fn index_process_load(&self) -> BTreeMap<String, ProcessLoad> {
        let mut load: BTreeMap<String, ProcessLoad> = BTreeMap::new();
        for member in self.input.members {
            let mut count = 0;
            for role in [TaskRole::Active, TaskRole::Standby, TaskRole::Warmup] {
                self.for_each_stateful(member.assigned.role(role), |_| count += 1);
            }
            let entry = load
                .entry(member.process_id.clone())
                .or_insert(ProcessLoad {
                    stateful_task_count: 0,
                    member_count: 0,
                });
            entry.member_count += 1;
            entry.stateful_task_count += count;
        }
        load
    }
}
