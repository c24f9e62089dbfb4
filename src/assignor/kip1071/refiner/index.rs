//! The refiner's first pass: what the members hold, indexed by task, and how loaded their
//! processes are (`indexCurrentAssignment`, `indexProcessLoad`).

use super::{within_lag, Refiner, TaskRole};
use crate::assignor::kip1071::group::TaskId;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};

/// The member holding a task as active, and how usable its state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActiveHolder<'a> {
    /// The member.
    pub member_id: &'a str,
    /// Whether it reports offsets for the task, that is, still restores it.
    pub restoring: bool,
    /// Whether it has restored the task to within the acceptable lag.
    pub caught_up: bool,
}

impl ActiveHolder<'_> {
    /// Whether its state can run the task now: processing it, or restored close enough.
    pub fn hot(&self) -> bool {
        !self.restoring || self.caught_up
    }
}

/// A standby or warm-up copy of a task on a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskCopy<'a> {
    /// The member holding it.
    pub member_id: &'a str,
    /// That member's process.
    pub process_id: &'a str,
    /// Standby or warm-up.
    pub role: TaskRole,
    /// Whether it is within the acceptable lag.
    pub caught_up: bool,
    /// Whether it has restored anything.
    pub restore_started: bool,
}

/// The members' current assignment by task (stateful tasks only): `CurrentAssignmentIndex`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CurrentAssignmentIndex<'a> {
    /// Each task's active holder (tasks pending revocation are left out).
    pub active_holder: BTreeMap<TaskId, ActiveHolder<'a>>,
    /// Each task's standby and warm-up copies, in member order.
    pub task_copies: BTreeMap<TaskId, Vec<TaskCopy<'a>>>,
    /// Per process, the tasks it reports state on disk for while holding no copy of them.
    pub on_disk_by_process: BTreeMap<&'a str, BTreeSet<TaskId>>,
}

impl<'a> CurrentAssignmentIndex<'a> {
    /// `findCopyOnProcess`: the first copy of the task on that process.
    pub fn copy_on_process(&self, task: &TaskId, process_id: &str) -> Option<TaskCopy<'a>> {
        self.task_copies
            .get(task)?
            .iter()
            .find(|c| c.process_id == process_id)
            .copied()
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

impl<'a> Refiner<'a> {
    /// `indexCurrentAssignment`: active holders, copies and state on disk, one pass over the
    /// members' granted tasks and reported offsets.
    pub fn index_current_assignment(&self) -> CurrentAssignmentIndex<'a> {
        let lag = self.input.acceptable_recovery_lag;
        // Gathered in member order and sorted once: a stable sort keeps each task's copies in
        // member order, and the last active claim of a task wins, as in a map put in turn.
        let mut holders: Vec<(TaskId, ActiveHolder<'a>)> = Vec::new();
        let mut copies: Vec<(TaskId, TaskCopy<'a>)> = Vec::new();
        let mut reported_by_process: FxHashMap<&'a str, Vec<TaskId>> = FxHashMap::default();
        let mut held_by_process: FxHashMap<&'a str, FxHashSet<TaskId>> = FxHashMap::default();
        for member in self.input.members {
            let offsets = self.offsets_of(&member.member_id);
            let held = held_by_process.entry(&member.process_id).or_default();
            for role in [TaskRole::Active, TaskRole::Standby, TaskRole::Warmup] {
                for (sub, partitions) in member.assigned.role(role) {
                    let Some(id) = self.stateful.get(sub.as_str()) else {
                        continue;
                    };
                    // Each subtopology's reports looked up once for all its partitions.
                    let reported = offsets.offsets.get(sub);
                    let ends = offsets.end_offsets.get(sub);
                    for &p in partitions {
                        let task = TaskId::new(id.clone(), p);
                        held.insert(task.clone());
                        let offset = reported.and_then(|o| o.get(&p)).copied();
                        let end = ends.and_then(|e| e.get(&p)).copied();
                        let caught_up = within_lag(offset, end, lag);
                        if role == TaskRole::Active {
                            let restoring = offset.is_some();
                            let member_id = member.member_id.as_str();
                            holders.push((
                                task,
                                ActiveHolder {
                                    member_id,
                                    restoring,
                                    caught_up,
                                },
                            ));
                        } else {
                            let copy = TaskCopy {
                                member_id: &member.member_id,
                                process_id: &member.process_id,
                                role,
                                caught_up,
                                restore_started: offset.is_some_and(|o| o != i64::MAX),
                            };
                            copies.push((task, copy));
                        }
                    }
                }
            }
            for (sub, partitions) in &offsets.offsets {
                if let Some(id) = self.stateful.get(sub.as_str()) {
                    let reported = reported_by_process.entry(&member.process_id).or_default();
                    reported.extend(partitions.keys().map(|&p| TaskId::new(id.clone(), p)));
                }
            }
        }
        let mut index = CurrentAssignmentIndex {
            active_holder: holders.into_iter().collect(),
            ..CurrentAssignmentIndex::default()
        };
        copies.sort_by(|a, b| a.0.cmp(&b.0));
        for (task, copy) in copies {
            match index.task_copies.last_entry() {
                Some(mut last) if *last.key() == task => last.get_mut().push(copy),
                _ => {
                    index.task_copies.insert(task, vec![copy]);
                }
            }
        }
        // A task the process holds in any role is not state on disk but that copy's progress.
        for (process, reported) in reported_by_process {
            let held = held_by_process.get(process);
            let on_disk: BTreeSet<TaskId> = reported
                .into_iter()
                .filter(|t| !held.is_some_and(|h| h.contains(t)))
                .collect();
            if !on_disk.is_empty() {
                index.on_disk_by_process.insert(process, on_disk);
            }
        }
        index
    }

    /// `indexProcessLoad`: every process's stateful tasks (granted, in every role) and members.
    pub fn index_process_load(&self) -> BTreeMap<&'a str, ProcessLoad> {
        let mut load: BTreeMap<&'a str, ProcessLoad> = BTreeMap::new();
        for member in self.input.members {
            let mut count = 0;
            for role in [TaskRole::Active, TaskRole::Standby, TaskRole::Warmup] {
                self.for_each_stateful(member.assigned.role(role), |_| count += 1);
            }
            let entry = load.entry(&member.process_id).or_insert(ProcessLoad {
                stateful_task_count: 0,
                member_count: 0,
            });
            entry.member_count += 1;
            entry.stateful_task_count += count;
        }
        load
    }
}
