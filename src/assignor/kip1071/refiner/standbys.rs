//! The refiner's standby filter (`filterStandbys`): the target assignment's standby placements
//! this step holds back, because a staged migration keeps the task active on that process, or
//! because a borrowed standby stands in for one relocated placement.

use super::analyze::TaskDecisions;
use super::index::CurrentAssignmentIndex;
use super::warmups::WarmupPlan;
use super::Refiner;
use crate::assignor::kip1071::group::TaskId;
use crate::assignor::kip1071::java::compare_strings;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// `StandbyConflicts`: where each staged migration keeps its task running, and for each
/// borrowed migration the one member whose relocated placement waits.
struct StandbyConflicts {
    active_staged_on_process: HashMap<TaskId, String>,
    standby_kept_on_member: HashMap<TaskId, String>,
}

impl Refiner<'_> {
    /// `filterStandbys`: the standby tasks to drop from each member's target assignment.
    pub fn filter_standbys(
        &self,
        index: &CurrentAssignmentIndex,
        decisions: &TaskDecisions,
        plan: &WarmupPlan,
    ) -> BTreeMap<String, BTreeSet<TaskId>> {
        let conflicts = self.standby_conflicts(index, decisions, plan);
        let mut withheld: BTreeMap<String, BTreeSet<TaskId>> = BTreeMap::new();
        for (member_id, tasks) in self.input.target {
            let Some(member) = self.member(member_id) else {
                continue;
            };
            self.for_each_stateful(&tasks.standby, |task| {
                let staged_here =
                    conflicts.active_staged_on_process.get(&task) == Some(&member.process_id);
                let kept_for = conflicts.standby_kept_on_member.get(&task) == Some(member_id);
                if staged_here || kept_for {
                    withheld.entry(member_id.clone()).or_default().insert(task);
                }
            });
        }
        withheld
    }

    /// `indexStandbyConflicts`.
    fn standby_conflicts(
        &self,
        index: &CurrentAssignmentIndex,
        decisions: &TaskDecisions,
        plan: &WarmupPlan,
    ) -> StandbyConflicts {
        let active_staged_on_process: HashMap<TaskId, String> = decisions
            .staged
            .iter()
            .map(|m| {
                (
                    m.task.clone(),
                    self.process_of(&m.current_owner).to_string(),
                )
            })
            .collect();
        let mut standby_kept_on_member: HashMap<TaskId, String> = HashMap::new();
        let mut already_undelivered: HashSet<TaskId> = HashSet::new();
        for (target_member_id, tasks) in self.input.target {
            self.for_each_stateful(&tasks.standby, |task| {
                if !plan.borrowed.contains(&task) {
                    return;
                }
                let target_member = self.member(target_member_id);
                let current_process = active_staged_on_process.get(&task);
                match target_member {
                    None => {
                        already_undelivered.insert(task);
                    }
                    Some(m) if Some(&m.process_id) == current_process => {
                        already_undelivered.insert(task);
                    }
                    Some(m) if index.copy_on_process(&task, &m.process_id).is_none() => {
                        // One placement per borrow, the first in member order.
                        let kept = standby_kept_on_member
                            .entry(task)
                            .or_insert_with(|| target_member_id.clone());
                        if compare_strings(target_member_id, kept).is_lt() {
                            *kept = target_member_id.clone();
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
