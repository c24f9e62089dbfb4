//! RefinerInvariants: what every refined assignment must look like, written against the
//! refiner's inputs and output only. The generic checks hold for any refiner; the warm-up
//! ones follow from the warm-up refiner's design.

use super::reconciler::{task_set, ROLES};
use handoff::assignor::kip1071::refiner::{
    is_caught_up, offset_of, MemberTaskOffsets, RefineInput, TaskRole, TasksTuple,
};
use handoff::assignor::kip1071::TaskId;
use std::collections::{BTreeMap, BTreeSet};

struct Facts<'a> {
    input: &'a RefineInput<'a>,
    refined: &'a BTreeMap<String, TasksTuple>,
    process_of: BTreeMap<&'a str, &'a str>,
    target_active_owner: BTreeMap<TaskId, String>,
    refined_active_owners: BTreeMap<TaskId, Vec<String>>,
    refined_warmups: BTreeMap<TaskId, String>,
    current_active_holder: BTreeMap<TaskId, String>,
    current_copy_holders: BTreeMap<TaskId, Vec<String>>,
    held_by_process: BTreeMap<&'a str, BTreeSet<TaskId>>,
    reported_by_process: BTreeMap<&'a str, BTreeSet<TaskId>>,
}

static NO_OFFSETS: MemberTaskOffsets = MemberTaskOffsets {
    offsets: BTreeMap::new(),
    end_offsets: BTreeMap::new(),
};
static EMPTY: TasksTuple = TasksTuple {
    active: BTreeMap::new(),
    standby: BTreeMap::new(),
    warmup: BTreeMap::new(),
};

impl<'a> Facts<'a> {
    fn new(input: &'a RefineInput<'a>, refined: &'a BTreeMap<String, TasksTuple>) -> Facts<'a> {
        let mut facts = Facts {
            input,
            refined,
            process_of: input
                .members
                .iter()
                .map(|m| (m.member_id.as_str(), m.process_id.as_str()))
                .collect(),
            target_active_owner: BTreeMap::new(),
            refined_active_owners: BTreeMap::new(),
            refined_warmups: BTreeMap::new(),
            current_active_holder: BTreeMap::new(),
            current_copy_holders: BTreeMap::new(),
            held_by_process: BTreeMap::new(),
            reported_by_process: BTreeMap::new(),
        };
        for (m, t) in input.target {
            for task in task_set(&t.active) {
                facts.target_active_owner.insert(task, m.clone());
            }
        }
        for (m, t) in refined {
            for task in task_set(&t.active) {
                facts
                    .refined_active_owners
                    .entry(task)
                    .or_default()
                    .push(m.clone());
            }
            for task in task_set(&t.warmup) {
                facts.refined_warmups.insert(task, m.clone());
            }
        }
        for m in input.members {
            let held = facts
                .held_by_process
                .entry(m.process_id.as_str())
                .or_default();
            for task in task_set(&m.assigned.active) {
                facts
                    .current_active_holder
                    .insert(task.clone(), m.member_id.clone());
                held.insert(task);
            }
            for task in task_set(&m.assigned.standby)
                .into_iter()
                .chain(task_set(&m.assigned.warmup))
            {
                facts
                    .current_copy_holders
                    .entry(task.clone())
                    .or_default()
                    .push(m.member_id.clone());
                held.insert(task);
            }
            let offsets = facts.offsets_of(&m.member_id);
            let reported = facts
                .reported_by_process
                .entry(m.process_id.as_str())
                .or_default();
            for (s, ps) in &offsets.offsets {
                reported.extend(ps.keys().map(|&p| TaskId::new(s.clone(), p)));
            }
        }
        facts
    }

    fn offsets_of(&self, member: &str) -> &'a MemberTaskOffsets {
        self.input.task_offsets.get(member).unwrap_or(&NO_OFFSETS)
    }

    fn stateful(&self, task: &TaskId) -> bool {
        self.input
            .stateful_subtopologies
            .contains(&*task.subtopology)
    }

    fn member(&self, id: &str) -> Option<&TasksTuple> {
        self.input
            .members
            .iter()
            .find(|m| m.member_id == id)
            .map(|m| &m.assigned)
    }

    fn holds_copy(&self, member: &str, task: &TaskId) -> bool {
        self.member(member)
            .is_some_and(|a| contains(&a.standby, task) || contains(&a.warmup, task))
    }

    fn holds_in_any_role(&self, member: &str, task: &TaskId) -> bool {
        self.member(member)
            .is_some_and(|a| contains(&a.active, task))
            || self.holds_copy(member, task)
    }

    fn caught_up(&self, member: &str, task: &TaskId) -> bool {
        is_caught_up(
            self.offsets_of(member),
            task,
            self.input.acceptable_recovery_lag,
        )
    }

    fn copy_on_process(&self, process: &str, task: &TaskId, caught_up: bool) -> bool {
        self.current_copy_holders.get(task).is_some_and(|holders| {
            holders.iter().any(|m| {
                self.process_of.get(m.as_str()) == Some(&process)
                    && (!caught_up || self.caught_up(m, task))
            })
        })
    }

    fn on_disk(&self, process: &str, task: &TaskId) -> bool {
        self.reported_by_process
            .get(process)
            .is_some_and(|r| r.contains(task))
            && !self
                .held_by_process
                .get(process)
                .is_some_and(|h| h.contains(task))
    }

    fn hot(&self, member: &str, task: &TaskId) -> bool {
        offset_of(&self.offsets_of(member).offsets, task).is_none() || self.caught_up(member, task)
    }

    fn stateless(
        &self,
        tasks: &BTreeMap<String, BTreeSet<i32>>,
    ) -> BTreeMap<String, BTreeSet<i32>> {
        tasks
            .iter()
            .filter(|(s, ps)| !self.input.stateful_subtopologies.contains(*s) && !ps.is_empty())
            .map(|(s, ps)| (s.clone(), ps.clone()))
            .collect()
    }
}

fn contains(tasks: &BTreeMap<String, BTreeSet<i32>>, task: &TaskId) -> bool {
    tasks
        .get(&*task.subtopology)
        .is_some_and(|p| p.contains(&task.partition))
}

/// The generic checks and, for the warm-up refiner, its own.
pub fn check(
    input: &RefineInput<'_>,
    refined: &BTreeMap<String, TasksTuple>,
    warmup: bool,
) -> Vec<String> {
    let facts = Facts::new(input, refined);
    let mut found = Vec::new();
    generic(&facts, &mut found);
    if warmup {
        warmup_checks(&facts, &mut found);
    }
    found
}

fn generic(f: &Facts<'_>, found: &mut Vec<String>) {
    let tasks: BTreeSet<&TaskId> = f
        .target_active_owner
        .keys()
        .chain(f.refined_active_owners.keys())
        .collect();
    for task in tasks {
        let owners = f.refined_active_owners.get(task).map_or(0, Vec::len);
        if !f.target_active_owner.contains_key(task) || owners != 1 {
            found.push(format!(
                "active-preserved: {task} is active on {owners} members"
            ));
        }
    }
    let mut held: BTreeSet<(&str, TaskId)> = BTreeSet::new();
    for (m, tuple) in f.refined {
        let Some(&process) = f.process_of.get(m.as_str()) else {
            continue;
        };
        for role in ROLES {
            for task in task_set(tuple.role(role)) {
                if !held.insert((process, task.clone())) {
                    found.push(format!(
                        "process-exclusivity: process {process} holds {task} twice"
                    ));
                }
            }
        }
    }
    if f.refined_warmups.len() > f.input.num_warmup_replicas as usize {
        found.push(format!(
            "warmup-budget: {} warm-up tasks",
            f.refined_warmups.len()
        ));
    }
    for (task, m) in &f.refined_warmups {
        if !f.stateful(task) || !f.process_of.contains_key(m.as_str()) {
            found.push(format!("warmup-budget: warm-up {task} on {m}"));
        }
    }
    let ids: BTreeSet<&String> = f.input.target.keys().chain(f.refined.keys()).collect();
    for m in ids {
        if !f.input.target.contains_key(m) && !f.process_of.contains_key(m.as_str()) {
            found.push(format!("stateless-untouched: the result names {m}"));
        }
        let target = f.input.target.get(m).unwrap_or(&EMPTY);
        let refined = f.refined.get(m).unwrap_or(&EMPTY);
        if f.stateless(&refined.active) != f.stateless(&target.active)
            || f.stateless(&refined.standby) != f.stateless(&target.standby)
        {
            found.push(format!("stateless-untouched: {m}"));
        }
    }
    for (m, tuple) in f.refined {
        if ROLES
            .iter()
            .any(|&r| tuple.role(r).values().any(BTreeSet::is_empty))
        {
            found.push(format!("no-empty-entries: {m}"));
        }
        let target = f.input.target.get(m).unwrap_or(&EMPTY);
        for task in task_set(&tuple.active) {
            if !contains(&target.active, &task) && !f.holds_in_any_role(m, &task) {
                found.push(format!("no-invented-placements: active {task} on {m}"));
            }
        }
        for task in task_set(&tuple.standby) {
            if !contains(&target.standby, &task) && !f.holds_copy(m, &task) {
                found.push(format!("no-invented-placements: standby {task} on {m}"));
            }
        }
    }
}

fn warmup_checks(f: &Facts<'_>, found: &mut Vec<String>) {
    for (task, m) in &f.refined_warmups {
        let runs = f
            .refined_active_owners
            .get(task)
            .is_some_and(|o| o.contains(m));
        if f.target_active_owner.get(task) != Some(m) || runs {
            found.push(format!("warmup-on-target-owner: {task} on {m}"));
        }
    }
    for (task, owners) in &f.refined_active_owners {
        for owner in owners {
            if f.target_active_owner.get(task) == Some(owner) {
                continue;
            }
            let holds_state = f.current_active_holder.get(task) == Some(owner)
                || (f.holds_copy(owner, task) && f.caught_up(owner, task));
            if !f.process_of.contains_key(owner.as_str()) || !holds_state {
                found.push(format!("held-back-on-state: {task} on {owner}"));
            }
        }
    }
    for (task, target_owner) in &f.target_active_owner {
        let Some(holder) = f.current_active_holder.get(task) else {
            continue;
        };
        let Some(&target_process) = f.process_of.get(target_owner.as_str()) else {
            continue;
        };
        if !f.stateful(task) || holder == target_owner {
            continue;
        }
        let same_process = f.process_of.get(holder.as_str()) == Some(&target_process);
        let kept = f
            .refined_active_owners
            .get(task)
            .is_some_and(|o| o.contains(holder));
        if !same_process
            && f.hot(holder, task)
            && !f.copy_on_process(target_process, task, true)
            && !f.on_disk(target_process, task)
            && !kept
        {
            found.push(format!("no-cold-grant: {task} taken from {holder}"));
        }
    }
    if f.refined_warmups.len() < f.input.num_warmup_replicas as usize {
        for (task, target_owner) in &f.target_active_owner {
            let Some(&target_process) = f.process_of.get(target_owner.as_str()) else {
                continue;
            };
            let granted = f
                .refined_active_owners
                .get(task)
                .is_some_and(|o| o.contains(target_owner));
            if f.stateful(task)
                && !granted
                && !f.copy_on_process(target_process, task, false)
                && !f.refined_warmups.contains_key(task)
            {
                found.push(format!("park-only-when-budget-spent: {task}"));
            }
        }
    }
    let diverges = f
        .target_active_owner
        .iter()
        .any(|(task, owner)| f.stateful(task) && f.current_active_holder.get(task) != Some(owner));
    let normalized = |a: &BTreeMap<String, TasksTuple>| -> BTreeMap<String, TasksTuple> {
        a.iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(m, t)| (m.clone(), t.clone()))
            .collect()
    };
    if !diverges && normalized(f.refined) != normalized(f.input.target) {
        found.push("identity: nothing diverges but the result differs from the target".into());
    }
    let standby_counts = |a: &BTreeMap<String, TasksTuple>| {
        let mut counts: BTreeMap<TaskId, usize> = BTreeMap::new();
        for t in a.values() {
            for task in task_set(t.role(TaskRole::Standby)) {
                *counts.entry(task).or_default() += 1;
            }
        }
        counts
    };
    let target_counts = standby_counts(f.input.target);
    for (task, count) in standby_counts(f.refined) {
        if count > target_counts.get(&task).copied().unwrap_or(0) + 1 {
            found.push(format!("standby-count: {task} has {count} standbys"));
        }
    }
}
