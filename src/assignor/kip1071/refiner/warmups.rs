//! The refiner's warm-up budget (`planWarmups`): which staged migrations get a warm-up on their
//! target owner, group-wide under `num.warmup.replicas`, and which borrow a standby or park.

use super::analyze::{StagedMigration, TaskDecisions};
use super::index::{CurrentAssignmentIndex, ProcessLoad};
use super::{Refiner, TaskRole};
use crate::assignor::kip1071::group::TaskId;
use crate::assignor::kip1071::java::compare_doubles;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// How each staged migration is warmed: every one is in exactly one of these.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarmupPlan<'a> {
    /// The member holding a warm-up of each task: its target owner.
    pub warmup_tasks: BTreeMap<TaskId, &'a str>,
    /// The migrations warmed for free by a standby on the target owner's process.
    pub borrowed: BTreeSet<TaskId>,
    /// The migrations with nothing warming them for now.
    pub parked: BTreeSet<TaskId>,
}

/// What a staged migration needs from the budget (`Warming`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Warming {
    /// The target member has left: nothing to warm.
    Park,
    /// A standby on the target owner itself warms it.
    Borrow,
    /// A warm-up is already restoring it.
    Keep,
    /// The target owner's process holds nothing: plant a warm-up.
    Plant,
    /// A sibling of the target owner holds a standby: move it onto the target owner.
    SiblingMove,
}

/// A staged migration competing for a warm-up slot (`FundingCandidate`).
#[derive(Clone, Debug)]
struct Candidate<'a> {
    task: TaskId,
    target_owner: &'a str,
    target_process: &'a str,
    current_process: &'a str,
    warming: Warming,
    tier: i32,
}

impl Candidate<'_> {
    /// A plant adds a copy to its target process; a sibling move or a kept warm-up does not.
    fn new_warmups_on_target_process(&self) -> i32 {
        i32::from(self.warming == Warming::Plant)
    }
}

fn warming_of(migration: &StagedMigration<'_>) -> Warming {
    if migration.target_process_id.is_none() {
        return Warming::Park;
    }
    match &migration.copy_on_target_process {
        None => Warming::Plant,
        Some(copy) if copy.role == TaskRole::Warmup => Warming::Keep,
        Some(copy) if copy.member_id == migration.target_owner => Warming::Borrow,
        Some(_) => Warming::SiblingMove,
    }
}

/// `fundingTier`: an in-flight warm-up (0), a new one (1); on a member restoring an active, an
/// in-flight one that restored nothing (2) and a new one (3).
fn funding_tier(
    migration: &StagedMigration<'_>,
    warming: Warming,
    restoring: &FxHashSet<&str>,
) -> i32 {
    let can_progress = !restoring.contains(migration.target_owner);
    if warming == Warming::Keep {
        let restored = migration
            .copy_on_target_process
            .as_ref()
            .is_some_and(|c| c.restore_started);
        return if can_progress || restored { 0 } else { 2 };
    }
    if can_progress {
        1
    } else {
        3
    }
}

/// `comparePriority`: tier, a plant before a sibling move, the lighter target process, the
/// heavier current process (loads with this pass's plants), then the task.
fn compare_priority(
    left: &Candidate<'_>,
    right: &Candidate<'_>,
    load: &BTreeMap<&str, ProcessLoad>,
    new_warmups: &FxHashMap<&str, i32>,
) -> Ordering {
    let load_of = |process: &str| {
        let added = new_warmups.get(process).copied().unwrap_or(0);
        load.get(process).map_or(f64::MAX, |l| l.load_with(added))
    };
    let rank = |w: Warming| i32::from(w == Warming::SiblingMove);
    left.tier
        .cmp(&right.tier)
        .then(rank(left.warming).cmp(&rank(right.warming)))
        .then_with(|| compare_doubles(load_of(left.target_process), load_of(right.target_process)))
        .then_with(|| {
            compare_doubles(
                load_of(right.current_process),
                load_of(left.current_process),
            )
        })
        .then_with(|| left.task.cmp(&right.task))
}

impl<'a> Refiner<'a> {
    /// `planWarmups`.
    pub fn plan_warmups(
        &self,
        decisions: &TaskDecisions<'a>,
        index: &CurrentAssignmentIndex<'a>,
        load: &BTreeMap<&'a str, ProcessLoad>,
    ) -> WarmupPlan<'a> {
        let mut plan = WarmupPlan::default();
        let budget = self.input.num_warmup_replicas as usize;
        if budget == 0 {
            return plan;
        }
        let restoring = self.members_restoring_an_active(index, decisions);
        let load = self.load_after_grants(load, index, decisions);
        let mut candidates: Vec<Candidate<'a>> = Vec::new();
        for migration in &decisions.staged {
            let warming = warming_of(migration);
            match (warming, migration.target_process_id) {
                (Warming::Park, _) | (_, None) => {
                    plan.parked.insert(migration.task.clone());
                }
                (Warming::Borrow, _) => {
                    plan.borrowed.insert(migration.task.clone());
                }
                (_, Some(target_process)) => candidates.push(Candidate {
                    task: migration.task.clone(),
                    target_owner: migration.target_owner,
                    target_process,
                    current_process: self.process_of(migration.current_owner),
                    warming,
                    tier: funding_tier(migration, warming, &restoring),
                }),
            }
        }
        // Each pick raises its target process's load before the next one, so the best is
        // found afresh each time (bounded by the budget).
        let mut new_warmups: FxHashMap<&str, i32> = FxHashMap::default();
        let mut used = 0;
        while used < budget && !candidates.is_empty() {
            let mut best = 0;
            for c in 1..candidates.len() {
                let order =
                    compare_priority(&candidates[c], &candidates[best], &load, &new_warmups);
                if order.is_lt() {
                    best = c;
                }
            }
            let funded = candidates.remove(best);
            *new_warmups.entry(funded.target_process).or_default() +=
                funded.new_warmups_on_target_process();
            plan.warmup_tasks.insert(funded.task, funded.target_owner);
            used += 1;
        }
        for c in candidates {
            if c.warming == Warming::SiblingMove {
                plan.borrowed.insert(c.task);
            } else {
                plan.parked.insert(c.task);
            }
        }
        plan
    }

    /// `loadAfterGrants`: each grant's current process one task lighter, and its target
    /// process one heavier unless it already holds a copy to promote.
    fn load_after_grants(
        &self,
        load: &BTreeMap<&'a str, ProcessLoad>,
        index: &CurrentAssignmentIndex<'a>,
        decisions: &TaskDecisions<'a>,
    ) -> BTreeMap<&'a str, ProcessLoad> {
        let mut updated = load.clone();
        for grant in &decisions.granted {
            if let Some(holder) = index.active_holder.get(&grant.task) {
                if let Some(l) = updated.get_mut(self.process_of(holder.member_id)) {
                    l.stateful_task_count -= 1;
                }
            }
            let target_process = self.process_of(grant.target_owner);
            if index.copy_on_process(&grant.task, target_process).is_none() {
                if let Some(l) = updated.get_mut(target_process) {
                    l.stateful_task_count += 1;
                }
            }
        }
        updated
    }

    /// `membersRestoringAnActive`: those restoring one now, and those this step grants a task
    /// they have to restore.
    fn members_restoring_an_active(
        &self,
        index: &CurrentAssignmentIndex<'a>,
        decisions: &TaskDecisions<'a>,
    ) -> FxHashSet<&'a str> {
        let mut restoring: FxHashSet<&'a str> = index
            .active_holder
            .values()
            .filter(|h| h.restoring)
            .map(|h| h.member_id)
            .collect();
        for grant in &decisions.granted {
            let target_process = self.process_of(grant.target_owner);
            let promotes = index.copy_on_process(&grant.task, target_process).is_some();
            let same_process = index
                .active_holder
                .get(&grant.task)
                .is_some_and(|h| self.process_of(h.member_id) == target_process);
            if !promotes && !same_process {
                restoring.insert(grant.target_owner);
            }
        }
        restoring
    }
}
