//! The refiner's standby filter (`filterStandbys`): the target assignment's standby placements
//! this step holds back, because a staged migration keeps the task active on that process, or
//! because a borrowed standby stands in for one relocated placement.

use super::analyze::TaskDecisions;
use super::index::CurrentAssignmentIndex;
use super::warmups::WarmupPlan;
use super::Refiner;
use crate::assignor::kip1071::group::TaskId;
use crate::assignor::kip1071::java::compare_strings;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, BTreeSet};

/// `StandbyConflicts`: where each staged migration keeps its task running, and for each
/// borrowed migration the one member whose relocated placement waits.
struct StandbyConflicts<'a> {
    active_staged_on_process: FxHashMap<TaskId, &'a str>,
    standby_kept_on_member: FxHashMap<TaskId, &'a str>,
}

impl<'a> Refiner<'a> {
    /// `filterStandbys`: the standby tasks to drop from each member's target assignment.
    pub fn filter_standbys(
        &self,
        index: &CurrentAssignmentIndex<'a>,
        decisions: &TaskDecisions<'a>,
        plan: &WarmupPlan<'a>,
    ) -> BTreeMap<&'a str, BTreeSet<TaskId>> {
        let conflicts = self.standby_conflicts(index, decisions, plan);
        let mut withheld: BTreeMap<&'a str, BTreeSet<TaskId>> = BTreeMap::new();
        for (member_id, tasks) in self.input.target {
            let Some(member) = self.member(member_id) else {
                continue;
            };
            self.for_each_stateful(&tasks.standby, |task| {
                let process = conflicts.active_staged_on_process.get(&task);
                let staged_here = process == Some(&member.process_id.as_str());
                let kept_for =
                    conflicts.standby_kept_on_member.get(&task) == Some(&member_id.as_str());
                if staged_here || kept_for {
                    withheld.entry(member_id.as_str()).or_default().insert(task);
                }
            });
        }
        withheld
    }

    /// `indexStandbyConflicts`.
    fn standby_conflicts(
        &self,
        index: &CurrentAssignmentIndex<'a>,
        decisions: &TaskDecisions<'a>,
        plan: &WarmupPlan<'a>,
    ) -> StandbyConflicts<'a> {
        let active_staged_on_process: FxHashMap<TaskId, &'a str> = decisions
            .staged
            .iter()
            .map(|m| (m.task.clone(), self.process_of(m.current_owner)))
            .collect();
        let mut standby_kept_on_member: FxHashMap<TaskId, &'a str> = FxHashMap::default();
        let mut already_undelivered: FxHashSet<TaskId> = FxHashSet::default();
        for (target_member_id, tasks) in self.input.target {
            let target_member_id = target_member_id.as_str();
            self.for_each_stateful(&tasks.standby, |task| {
                if !plan.borrowed.contains(&task) {
                    return;
                }
                let current_process = active_staged_on_process.get(&task).copied();
                match self.member(target_member_id) {
                    None => {
                        already_undelivered.insert(task);
                    }
                    Some(m) if Some(m.process_id.as_str()) == current_process => {
                        already_undelivered.insert(task);
                    }
                    Some(m) if index.copy_on_process(&task, &m.process_id).is_none() => {
                        // One placement per borrow, the first in member order.
                        let kept = standby_kept_on_member
                            .entry(task)
                            .or_insert(target_member_id);
                        if compare_strings(target_member_id, kept).is_lt() {
                            *kept = target_member_id;
                        }
                    }
                    Some(_) => {}
                }
            });
        }
        for task in already_undelivered {
            standby_kept_on_member.remove(&task);
        }
        StandbyConflicts {
            active_staged_on_process,
            standby_kept_on_member,
        }
    }
}
