//! The refiner's case analysis (`analyzeTasks`): for each stateful task not yet on its target
//! owner, whether the move completes now (a grant) or waits behind a warm-up (a staged
//! migration), and on which member it keeps running meanwhile.

use super::index::{CurrentAssignmentIndex, ProcessLoad, TaskCopy};
use super::Refiner;
use crate::assignor::kip1071::group::TaskId;
use crate::assignor::kip1071::java::{compare_doubles, compare_strings};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A move held back: the task keeps running on `current_owner`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StagedMigration {
    /// The task.
    pub task: TaskId,
    /// The member it runs on for now: its active holder, or a caught-up copy promoted.
    pub current_owner: String,
    /// The member the target assignment moves it to.
    pub target_owner: String,
    /// That member's process; `None` when the target names a member the group no longer has.
    pub target_process_id: Option<String>,
    /// The copy of the task the target owner's process already holds, if any.
    pub copy_on_target_process: Option<TaskCopy>,
}

/// A move granted in this step: the target assignment stands for the task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskGrant {
    /// The task.
    pub task: TaskId,
    /// The member it moves to.
    pub target_owner: String,
}

/// What the case analysis decided, each list in task order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskDecisions {
    /// The moves held back.
    pub staged: Vec<StagedMigration>,
    /// The moves granted.
    pub granted: Vec<TaskGrant>,
}

impl Refiner<'_> {
    /// `statefulActiveOwners`: each stateful task's target owner, in task order.
    pub(super) fn target_owners(&self) -> BTreeMap<TaskId, String> {
        let mut owners = BTreeMap::new();
        for (member, tasks) in self.input.target {
            self.for_each_stateful(&tasks.active, |t| {
                owners.insert(t, member.clone());
            });
        }
        owners
    }

    /// `statefulStandbyHolders`: each stateful task's target standby holders.
    fn target_standby_holders(&self) -> HashMap<TaskId, BTreeSet<String>> {
        let mut holders: HashMap<TaskId, BTreeSet<String>> = HashMap::new();
        for (member, tasks) in self.input.target {
            self.for_each_stateful(&tasks.standby, |t| {
                holders.entry(t).or_default().insert(member.clone());
            });
        }
        holders
    }

    /// `analyzeTasks`.
    pub fn analyze_tasks(
        &self,
        index: &CurrentAssignmentIndex,
        load: &BTreeMap<String, ProcessLoad>,
    ) -> TaskDecisions {
        let standby_holders = self.target_standby_holders();
        let mut decisions = TaskDecisions::default();
        for (task, target_owner) in self.target_owners() {
            let holder = index.active_holder.get(&task);
            if holder.is_some_and(|h| h.member_id == target_owner) {
                continue;
            }
            // A target member that has left: keep the task where it runs, or put it on a
            // caught-up copy, until the assignor runs again.
            let Some(target_member) = self.member(&target_owner) else {
                let current_owner = match holder {
                    Some(h) => Some(h.member_id.clone()),
                    None => best_copy_to_promote(index, &task, &standby_holders, load),
                };
                if let Some(owner) = current_owner {
                    decisions
                        .staged
                        .push(staged_migration(index, task, owner, target_owner, None));
                }
                continue;
            };
            let target_process = target_member.process_id.as_str();
            let current_process = holder.map(|h| self.process_of(&h.member_id));
            if is_ready(index, &task, current_process, target_process) {
                decisions.granted.push(TaskGrant { task, target_owner });
                continue;
            }
            let current_owner = match holder {
                Some(h) if h.hot() => Some(h.member_id.clone()),
                None if on_disk(index, target_process, &task) => None,
                _ => best_copy_to_promote(index, &task, &standby_holders, load),
            };
            match current_owner {
                None => decisions.granted.push(TaskGrant { task, target_owner }),
                Some(owner) => {
                    let target_process = Some(target_process.to_string());
                    decisions.staged.push(staged_migration(
                        index,
                        task,
                        owner,
                        target_owner,
                        target_process,
                    ));
                }
            }
        }
        decisions
    }
}

/// `bestCopyToPromote`: the caught-up copy the target assignment does not keep as a standby
/// first, then the least loaded process, then the member id; the first such copy on a tie.
fn best_copy_to_promote(
    index: &CurrentAssignmentIndex,
    task: &TaskId,
    standby_holders: &HashMap<TaskId, BTreeSet<String>>,
    load: &BTreeMap<String, ProcessLoad>,
) -> Option<String> {
    let designated = standby_holders.get(task);
    let key = |c: &TaskCopy| {
        let kept = designated.is_some_and(|d| d.contains(&c.member_id));
        let process_load = load.get(&c.process_id).map_or(f64::MAX, ProcessLoad::load);
        (kept, process_load)
    };
    let mut best: Option<&TaskCopy> = None;
    for copy in index
        .task_copies
        .get(task)
        .into_iter()
        .flatten()
        .filter(|c| c.caught_up)
    {
        let better = best.is_none_or(|b| {
            let (ck, cl) = key(copy);
            let (bk, bl) = key(b);
            ck.cmp(&bk)
                .then(compare_doubles(cl, bl))
                .then(compare_strings(&copy.member_id, &b.member_id))
                .is_lt()
        });
        if better {
            best = Some(copy);
        }
    }
    best.map(|c| c.member_id.clone())
}

fn on_disk(index: &CurrentAssignmentIndex, process_id: &str, task: &TaskId) -> bool {
    index
        .on_disk_by_process
        .get(process_id)
        .is_some_and(|s| s.contains(task))
}

fn staged_migration(
    index: &CurrentAssignmentIndex,
    task: TaskId,
    current_owner: String,
    target_owner: String,
    target_process_id: Option<String>,
) -> StagedMigration {
    let copy_on_target_process = target_process_id
        .as_deref()
        .and_then(|p| index.copy_on_process(&task, p))
        .cloned();
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
    index: &CurrentAssignmentIndex,
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
