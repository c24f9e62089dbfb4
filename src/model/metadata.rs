//! What the leader reads and writes: the tasks as it knows them, the join metadata each
//! member reports, and the assignment it hands back.

use super::{MemberId, TaskId};
use std::collections::HashMap;
use std::rc::Rc;

/// What the leader knows of a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskInfo {
    /// Whether the task has state to restore.
    pub stateful: bool,
    /// The changelog's end offset: the lag of a member with no state of it (Kafka Streams
    /// counts lags in offsets); zero when unknown.
    pub changelog: u64,
    /// Records the changelog holds: what a member with no state would replay (less than the
    /// end offset once the log is compacted). The leader reads it to move the cheapest tasks
    /// first.
    pub records: u64,
    /// Its subtopology, as the leader groups tasks to spread each group evenly (see
    /// [`subtopologies`]).
    pub subtopology: u32,
}

/// The subtopology of each task, by name, as dense indices in order of first appearance: a
/// task named `<subtopology>_<partition>` (Kafka Streams' names, `0_3`, or `orders_3`)
/// belongs to the subtopology before its last `_`; tasks named without one (`T1`) form one
/// subtopology together.
pub fn subtopologies<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
    let mut seen: HashMap<&str, u32> = HashMap::new();
    names
        .into_iter()
        .map(|name| {
            let prefix = name.rsplit_once('_').map_or("", |(prefix, _)| prefix);
            let next = seen.len() as u32;
            *seen.entry(prefix).or_insert(next)
        })
        .collect()
}

/// What a member reports when it joins a rebalance (the seed's join metadata).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JoinMetadata {
    /// The member.
    pub member: MemberId,
    /// Its capacity; active tasks are balanced in proportion to it.
    pub capacity: u32,
    /// Its availability zone (rack), if known: replicas of a task are spread over zones.
    pub zone: Option<String>,
    /// The member was told to drain and will leave once it runs nothing.
    pub leaving: bool,
    /// Tasks it still runs.
    pub assigned: Vec<TaskId>,
    /// Tasks it released since its last assignment.
    pub revoked: Vec<TaskId>,
    /// Tasks it is learning.
    pub learning: Vec<TaskId>,
    /// Tasks it keeps a standby replica of.
    pub standby: Vec<TaskId>,
    /// Records behind the changelog end, for every task whose state it holds. A task
    /// missing here has no local state.
    pub lags: Vec<(TaskId, u64)>,
}

impl JoinMetadata {
    /// The lag of a task's local state, if the member holds any.
    pub fn lag(&self, task: TaskId) -> Option<u64> {
        self.lags.iter().find(|(t, _)| *t == task).map(|&(_, l)| l)
    }
}

/// What the leader hands one member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberAssignment {
    /// Active tasks it runs from now on.
    pub assigned: Vec<TaskId>,
    /// Tasks it ran before this round and no longer runs.
    pub revoked: Vec<TaskId>,
    /// Tasks it learns (replays) while another member runs them.
    pub learning: Vec<TaskId>,
    /// Tasks it keeps a standby replica of.
    pub standby: Vec<TaskId>,
    /// Its active tasks that some learner is replaying (the seed's `isLearned`).
    pub learned: Vec<TaskId>,
}

/// The leader's decision for the whole group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    /// One entry per member that joined, in join order (shared with the member's entry in
    /// an earlier round when it is the same: a history keeps one copy of it).
    pub members: Vec<(MemberId, Rc<MemberAssignment>)>,
    /// Another rebalance is needed at once: a revoked task waits to be reassigned.
    pub followup: bool,
    /// A probing rebalance is needed later: some task is not yet where the assignor wants it
    /// and waits for a warm-up to catch up (Kafka Streams' KIP-441).
    pub probing: bool,
}

impl Assignment {
    /// The assignment of one member, if it took part.
    pub fn of(&self, member: MemberId) -> Option<&MemberAssignment> {
        self.members
            .iter()
            .find(|(m, _)| *m == member)
            .map(|(_, a)| &**a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tasks_subtopology_is_the_prefix_before_its_last_underscore() {
        let names = [
            "0_0",
            "0_1",
            "1_0",
            "T1",
            "orders_2",
            "T2",
            "my_store_0",
            "1_1",
        ];
        assert_eq!(subtopologies(names), [0, 0, 1, 2, 3, 2, 4, 1]);
        assert_eq!(subtopologies(["T1", "T2", "T3"]), [0, 0, 0]);
    }
}
