//! The refiner's last pass (`assemble`): the target assignment with the patches the decisions
//! imply. A grant needs none; a staged migration keeps the active on its current owner and
//! withholds it from the target owner; warm-ups are placed; a borrowed standby is kept where
//! it is; withheld standbys are dropped. A subtopology whose last task is patched away is
//! dropped with it, so that an unchanged member compares equal.

use super::analyze::TaskDecisions;
use super::index::CurrentAssignmentIndex;
use super::warmups::WarmupPlan;
use super::{Refinement, Refiner, TaskRole, TasksTuple};
use crate::assignor::kip1071::group::{TaskId, Tasks};
use std::collections::{BTreeMap, BTreeSet};

fn add(tasks: &mut Tasks, task: &TaskId) {
    match tasks.get_mut(&*task.subtopology) {
        Some(partitions) => {
            partitions.insert(task.partition);
        }
        None => {
            tasks.insert(task.subtopology.to_string(), [task.partition].into());
        }
    }
}

fn remove(tasks: &mut Tasks, task: &TaskId) {
    if let Some(partitions) = tasks.get_mut(&*task.subtopology) {
        if partitions.remove(&task.partition) && partitions.is_empty() {
            tasks.remove(&*task.subtopology);
        }
    }
}

impl<'a> Refiner<'a> {
    /// `assemble`: the target assignment with the patches (none when nothing diverges, and
    /// the target assignment itself stands).
    pub fn assemble(
        &self,
        index: &CurrentAssignmentIndex<'a>,
        decisions: &TaskDecisions<'a>,
        plan: &WarmupPlan<'a>,
        withheld: &BTreeMap<&'a str, BTreeSet<TaskId>>,
    ) -> Refinement<'a> {
        let target = self.input.target;
        let mut patches: BTreeMap<&'a str, TasksTuple> = BTreeMap::new();
        let mut patch = |member: &'a str, role: TaskRole, task: &TaskId, added: bool| {
            let tuple = patches
                .entry(member)
                .or_insert_with(|| target.get(member).cloned().unwrap_or_default());
            if added {
                add(tuple.role_mut(role), task);
            } else {
                remove(tuple.role_mut(role), task);
            }
        };
        for migration in &decisions.staged {
            let task = &migration.task;
            patch(migration.current_owner, TaskRole::Active, task, true);
            patch(migration.target_owner, TaskRole::Active, task, false);
            if plan.borrowed.contains(task) {
                let copy = migration
                    .target_process_id
                    .and_then(|p| index.copy_on_process(task, p));
                if let Some(copy) = copy {
                    patch(copy.member_id, TaskRole::Standby, task, true);
                }
            }
        }
        for (task, &member) in &plan.warmup_tasks {
            patch(member, TaskRole::Warmup, task, true);
        }
        for (&member, tasks) in withheld {
            for task in tasks {
                patch(member, TaskRole::Standby, task, false);
            }
        }
        Refinement { target, patches }
    }
}
