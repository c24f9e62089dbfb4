//! Kafka's reconciler, `CurrentAssignmentBuilder` (trunk, with warm-ups and in-place role
//! changes; file id 59579450734), as the fuzz simulator drives it: the member reports as owned
//! exactly what it was assigned. Active tasks' assignment epochs are not modelled (nothing
//! measured reads them).

use handoff::assignor::kip1071::refiner::{TaskRole, TasksTuple};
use handoff::assignor::kip1071::{TaskId, Tasks};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberState {
    Stable,
    UnrevokedTasks,
    UnreleasedTasks,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub id: String,
    pub process: String,
    pub epoch: i32,
    pub state: MemberState,
    pub assigned: TasksTuple,
    pub pending: TasksTuple,
}

impl Member {
    pub fn is_reconciled_to(&self, epoch: i32) -> bool {
        self.state == MemberState::Stable && self.epoch == epoch
    }
}

pub const ROLES: [TaskRole; 3] = [TaskRole::Active, TaskRole::Standby, TaskRole::Warmup];

pub fn task_set(tasks: &Tasks) -> BTreeSet<TaskId> {
    tasks
        .iter()
        .flat_map(|(s, ps)| ps.iter().map(move |&p| TaskId::new(s.clone(), p)))
        .collect()
}

pub fn to_tasks(set: &BTreeSet<TaskId>) -> Tasks {
    let mut tasks = Tasks::new();
    for t in set {
        tasks
            .entry(t.subtopology.to_string())
            .or_default()
            .insert(t.partition);
    }
    tasks
}

/// Which processes hold each task in each role, over assigned tasks and pending revocations
/// (what `StreamsGroup` maintains for the reconciler).
#[derive(Default)]
pub struct TaskProcessIndex {
    roles: [BTreeMap<TaskId, BTreeMap<String, i32>>; 3],
}

fn role_index(role: TaskRole) -> usize {
    match role {
        TaskRole::Active => 0,
        TaskRole::Standby => 1,
        TaskRole::Warmup => 2,
    }
}

impl TaskProcessIndex {
    pub fn new<'a>(members: impl Iterator<Item = &'a Member>) -> TaskProcessIndex {
        let mut index = TaskProcessIndex::default();
        for m in members {
            index.update(m, 1);
        }
        index
    }

    pub fn update(&mut self, member: &Member, delta: i32) {
        for tuple in [&member.assigned, &member.pending] {
            for role in ROLES {
                for task in task_set(tuple.role(role)) {
                    let counts = self.roles[role_index(role)]
                        .entry(task.clone())
                        .or_default();
                    let count = counts.entry(member.process.clone()).or_default();
                    *count += delta;
                    if *count == 0 {
                        counts.remove(&member.process);
                        if counts.is_empty() {
                            self.roles[role_index(role)].remove(&task);
                        }
                    }
                }
            }
        }
    }

    /// `activeProcessId`: a process running the task (at most one does).
    fn active_process(&self, task: &TaskId) -> Option<&String> {
        self.roles[0].get(task).and_then(|c| c.keys().next())
    }

    fn holds(&self, role: TaskRole, task: &TaskId, process: &str) -> bool {
        self.roles[role_index(role)]
            .get(task)
            .is_some_and(|c| c.contains_key(process))
    }
}

fn sets(tuple: &TasksTuple) -> [BTreeSet<TaskId>; 3] {
    ROLES.map(|role| task_set(tuple.role(role)))
}

fn tuple_of(sets: &[BTreeSet<TaskId>; 3]) -> TasksTuple {
    TasksTuple {
        active: to_tasks(&sets[0]),
        standby: to_tasks(&sets[1]),
        warmup: to_tasks(&sets[2]),
    }
}

/// One heartbeat of `member` towards `target` at `target_epoch`: `CurrentAssignmentBuilder.build`.
pub fn reconcile(
    member: &Member,
    target_epoch: i32,
    target: &TasksTuple,
    index: &TaskProcessIndex,
) -> Member {
    let owned = sets(&member.assigned);
    let released =
        |pending: &[BTreeSet<TaskId>; 3]| (0..3).all(|r| pending[r].is_disjoint(&owned[r]));
    match member.state {
        MemberState::Stable if member.epoch == target_epoch => member.clone(),
        MemberState::Stable | MemberState::UnreleasedTasks => {
            next(member, member.epoch, target_epoch, target, index)
        }
        MemberState::UnrevokedTasks => {
            if !released(&sets(&member.pending)) {
                return member.clone();
            }
            next(member, member.epoch + 1, target_epoch, target, index)
        }
    }
}

/// `computeNextAssignment`.
fn next(
    member: &Member,
    member_epoch: i32,
    target_epoch: i32,
    target: &TasksTuple,
    index: &TaskProcessIndex,
) -> Member {
    let current = sets(&member.assigned);
    let wanted = sets(target);
    let process = member.process.as_str();
    let by_another = |role: TaskRole, r: usize, t: &TaskId| {
        index.holds(role, t, process) && !current[r].contains(t)
    };
    let unreleased = |r: usize, t: &TaskId| match r {
        0 => {
            index.active_process(t).is_some()
                || by_another(TaskRole::Standby, 1, t)
                || by_another(TaskRole::Warmup, 2, t)
        }
        1 => {
            (index.active_process(t).map(String::as_str) == Some(process)
                && !current[0].contains(t))
                || index.holds(TaskRole::Standby, t, process)
                || by_another(TaskRole::Warmup, 2, t)
        }
        _ => {
            index.active_process(t).map(String::as_str) == Some(process)
                || by_another(TaskRole::Standby, 1, t)
                || index.holds(TaskRole::Warmup, t, process)
        }
    };
    let mut kept: [BTreeSet<TaskId>; 3] = Default::default();
    let mut revoke: [BTreeSet<TaskId>; 3] = Default::default();
    let mut grant: [BTreeSet<TaskId>; 3] = Default::default();
    let mut has_unreleased = false;
    for r in 0..3 {
        kept[r] = current[r].intersection(&wanted[r]).cloned().collect();
        revoke[r] = current[r].difference(&kept[r]).cloned().collect();
        for t in wanted[r].difference(&kept[r]) {
            if unreleased(r, t) {
                has_unreleased = true;
            } else {
                grant[r].insert(t.clone());
            }
        }
    }
    // In-place role changes: a demoted active's standby, standby <-> warm-up conversions.
    for t in &current[0] {
        if grant[1].remove(t) {
            kept[1].insert(t.clone());
        }
    }
    for (from, to) in [(1, 2), (2, 1)] {
        for t in &current[from] {
            if grant[to].remove(t) {
                kept[to].insert(t.clone());
                revoke[from].remove(t);
            }
        }
    }
    // A standby or warm-up promoted to active is never revoked, and is kept until the active
    // is granted.
    for r in [1, 2] {
        for t in &current[r] {
            if wanted[0].contains(t) {
                revoke[r].remove(t);
            }
        }
    }
    let has_to_revoke =
        revoke.iter().any(|s| !s.is_empty()) && (0..3).any(|r| !revoke[r].is_disjoint(&current[r]));
    for r in [1, 2] {
        for t in &current[r] {
            let promoted_now = !has_to_revoke && grant[0].contains(t);
            if wanted[0].contains(t) && !promoted_now {
                kept[r].insert(t.clone());
            }
        }
    }
    let mut next = member.clone();
    if has_to_revoke {
        next.state = MemberState::UnrevokedTasks;
        next.epoch = member_epoch;
        next.assigned = tuple_of(&kept);
        next.pending = tuple_of(&revoke);
        return next;
    }
    let granting = grant.iter().any(|s| !s.is_empty());
    next.state = if has_unreleased {
        MemberState::UnreleasedTasks
    } else {
        MemberState::Stable
    };
    next.epoch = target_epoch;
    if granting {
        for r in 0..3 {
            kept[r].extend(grant[r].iter().cloned());
        }
    }
    next.assigned = tuple_of(&kept);
    next.pending = TasksTuple::default();
    next
}
