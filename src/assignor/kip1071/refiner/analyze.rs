//! The refiner's case analysis (`analyzeTasks`): for each stateful task not yet on its target
//! owner, whether the move completes now (a grant) or waits behind a warm-up (a staged
//! migration), and on which member it keeps running meanwhile.

use super::index::{CurrentAssignmentIndex, ProcessLoad, TaskCopy};
use super::Refiner;
use crate::assignor::kip1071::group::TaskId;
use crate::assignor::kip1071::java::{compare_doubles, compare_strings};
use std::collections::BTreeMap;

/// A move held back: the task keeps running on `current_owner`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StagedMigration<'a> {
    /// The task.
    pub task: TaskId,
    /// The member it runs on for now: its active holder, or a caught-up copy promoted.
    pub current_owner: &'a str,
    /// The member the target assignment moves it to.
    pub target_owner: &'a str,
    /// That member's process; `None` when the target names a member the group no longer has.
    pub target_process_id: Option<&'a str>,
    /// The copy of the task the target owner's process already holds, if any.
    pub copy_on_target_process: Option<TaskCopy<'a>>,
}

/// A move granted in this step: the target assignment stands for the task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskGrant<'a> {
    /// The task.
    pub task: TaskId,
    /// The member it moves to.
    pub target_owner: &'a str,
}

/// What the case analysis decided, each list in task order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskDecisions<'a> {
    /// The moves held back.
    pub staged: Vec<StagedMigration<'a>>,
    /// The moves granted.
    pub granted: Vec<TaskGrant<'a>>,
}

impl<'a> Refiner<'a> {
    /// `statefulActiveOwners`: each stateful task's target owner, in task order.
    fn target_owners(&self) -> BTreeMap<TaskId, &'a str> {
        // Sorted once; the last claim of a task wins, as in a map put in turn.
        let mut owners = Vec::new();
        for (member, tasks) in self.input.target {
            self.for_each_stateful(&tasks.active, |t| owners.push((t, member.as_str())));
        }
        owners.into_iter().collect()
    }

    /// `analyzeTasks`.
    pub fn analyze_tasks(
        &self,
        index: &CurrentAssignmentIndex<'a>,
        load: &BTreeMap<&'a str, ProcessLoad>,
    ) -> TaskDecisions<'a> {
        let mut decisions = TaskDecisions::default();
        for (task, target_owner) in self.target_owners() {
            let holder = index.active_holder.get(&task);
            if holder.is_some_and(|h| h.member_id == target_owner) {
                continue;
            }
            // A target member that has left: keep the task where it runs, or put it on a
            // caught-up copy, until the assignor runs again.
            let Some(target_member) = self.member(target_owner) else {
                let current_owner = match holder {
                    Some(h) => Some(h.member_id),
                    None => self.best_copy_to_promote(index, &task, load),
                };
                if let Some(owner) = current_owner {
                    let staged = staged_migration(index, task, owner, target_owner, None);
                    decisions.staged.push(staged);
                }
                continue;
            };
            let target_process = target_member.process_id.as_str();
            let current_process = holder.map(|h| self.process_of(h.member_id));
            if is_ready(index, &task, current_process, target_process) {
                decisions.granted.push(TaskGrant { task, target_owner });
                continue;
            }
            let current_owner = match holder {
                Some(h) if h.hot() => Some(h.member_id),
                None if on_disk(index, target_process, &task) => None,
                _ => self.best_copy_to_promote(index, &task, load),
            };
            match current_owner {
                None => decisions.granted.push(TaskGrant { task, target_owner }),
                Some(owner) => {
                    let process = Some(target_process);
                    let staged = staged_migration(index, task, owner, target_owner, process);
                    decisions.staged.push(staged);
                }
            }
        }
        decisions
    }

    /// `bestCopyToPromote`: the caught-up copy the target assignment does not keep as a
    /// standby first (`statefulStandbyHolders`, read off the target), then the least loaded
    /// process, then the member id; the first such copy on a tie.
    fn best_copy_to_promote(
        &self,
        index: &CurrentAssignmentIndex<'a>,
        task: &TaskId,
        load: &BTreeMap<&'a str, ProcessLoad>,
    ) -> Option<&'a str> {
        let key = |c: &TaskCopy<'a>| {
            let kept = self.input.target.get(c.member_id).is_some_and(|t| {
                t.standby
                    .get(&*task.subtopology)
                    .is_some_and(|p| p.contains(&task.partition))
            });
            let process_load = load.get(c.process_id).map_or(f64::MAX, ProcessLoad::load);
            (kept, process_load)
        };
        let mut best: Option<&TaskCopy<'a>> = None;
        let copies = index.task_copies.get(task).into_iter().flatten();
        for copy in copies.filter(|c| c.caught_up) {
            let better = best.is_none_or(|b| {
                let (copy_kept, copy_load) = key(copy);
                let (best_kept, best_load) = key(b);
                copy_kept
                    .cmp(&best_kept)
                    .then(compare_doubles(copy_load, best_load))
                    .then(compare_strings(copy.member_id, b.member_id))
                    .is_lt()
            });
            if better {
                best = Some(copy);
            }
        }
        best.map(|c| c.member_id)
    }
}

fn on_disk(index: &CurrentAssignmentIndex<'_>, process_id: &str, task: &TaskId) -> bool {
    index
        .on_disk_by_process
        .get(process_id)
        .is_some_and(|s| s.contains(task))
}

fn staged_migration<'a>(
    index: &CurrentAssignmentIndex<'a>,
    task: TaskId,
    current_owner: &'a str,
    target_owner: &'a str,
    target_process_id: Option<&'a str>,
) -> StagedMigration<'a> {
    let copy_on_target_process = target_process_id.and_then(|p| index.copy_on_process(&task, p));
    StagedMigration {
        task,
        current_owner,
        target_owner,
        target_process_id,
        copy_on_target_process,
    }
}

/// `isReady`: a move within one process, or onto a process holding a caught-up copy.
fn is_ready(
    index: &CurrentAssignmentIndex<'_>,
    task: &TaskId,
    current_process: Option<&str>,
    target_process: &str,
) -> bool {
    if current_process == Some(target_process) {
        return true;
    }
    index.task_copies.get(task).is_some_and(|copies| {
        copies
            .iter()
            .any(|c| c.process_id == target_process && c.caught_up)
    })
}
