//! Kafka's `StickyTaskAssignor` (trunk after KAFKA-20719, with KAFKA-21001's warm-ups): the
//! active tasks in three passes (previous owner, best previous standby, least loaded process),
//! then the standby tasks (previous active, least loaded previous standby, least loaded
//! process), with per-member quotas recomputed as members fill up.

use super::group::{
    AssignorError, GroupAssignment, GroupSpec, MemberAssignment, Release, TaskId, Tasks, Topology,
};
use super::java::{compare_strings, string_map_order, HashMapCapacity, PriorityQueue};
use super::process::Processes;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// The topology's tasks, numbered subtopology by subtopology in the describer's order.
struct TaskTable<'a> {
    topology: &'a Topology,
    /// The subtopology ids, shared by the tasks made of them.
    ids: Vec<Arc<str>>,
    index_of: FxHashMap<&'a str, usize>,
    first_task: Vec<usize>,
    /// Each subtopology's place among all ids in Java's string order.
    rank: Vec<usize>,
    /// Each task's subtopology and partition.
    tasks: Vec<(usize, i32)>,
}

impl<'a> TaskTable<'a> {
    fn new(topology: &'a Topology) -> Result<TaskTable<'a>, AssignorError> {
        let subtopologies = &topology.subtopologies;
        let mut index_of = FxHashMap::default();
        let mut first_task = Vec::with_capacity(subtopologies.len());
        let mut tasks = Vec::new();
        for (s, sub) in subtopologies.iter().enumerate() {
            if index_of.insert(sub.id.as_str(), s).is_some() {
                return Err(AssignorError::DuplicateSubtopology(sub.id.clone()));
            }
            first_task.push(tasks.len());
            tasks.extend((0..sub.partitions).map(|p| (s, p as i32)));
        }
        let mut by_id: Vec<usize> = (0..subtopologies.len()).collect();
        by_id.sort_by(|&a, &b| compare_strings(&subtopologies[a].id, &subtopologies[b].id));
        let mut rank = vec![0; subtopologies.len()];
        for (r, s) in by_id.into_iter().enumerate() {
            rank[s] = r;
        }
        Ok(TaskTable {
            topology,
            ids: subtopologies
                .iter()
                .map(|s| Arc::from(s.id.as_str()))
                .collect(),
            index_of,
            first_task,
            rank,
            tasks,
        })
    }

    /// The task's number, if the topology has it.
    fn index(&self, subtopology: &str, partition: i32) -> Option<usize> {
        let &s = self.index_of.get(subtopology)?;
        let count = self.topology.subtopologies[s].partitions;
        (partition >= 0 && (partition as u32) < count)
            .then(|| self.first_task[s] + partition as usize)
    }

    fn stateful(&self, task: usize) -> bool {
        self.topology.subtopologies[self.tasks[task].0].stateful
    }

    fn id(&self, task: usize) -> TaskId {
        let (s, p) = self.tasks[task];
        TaskId::new(self.ids[s].clone(), p)
    }

    /// `Comparator.comparing(TaskId::partition).thenComparing(TaskId::subtopologyId)`.
    fn by_partition(&self, task: usize) -> (i32, usize) {
        let (s, p) = self.tasks[task];
        (p, self.rank[s])
    }

    /// `Comparator.comparing(TaskId::subtopologyId).thenComparing(TaskId::partition)`.
    fn by_subtopology(&self, task: usize) -> (usize, i32) {
        let (s, p) = self.tasks[task];
        (self.rank[s], p)
    }

    /// The tasks of the given subtopology, partition by partition.
    fn of(&self, subtopology: &str, partitions: &std::collections::BTreeSet<i32>) -> Vec<usize> {
        partitions
            .iter()
            .filter_map(|&p| self.index(subtopology, p))
            .collect()
    }
}

/// `computeTasksPerMember`: tasks over members, rounded up (0 without members), in Java's
/// integer arithmetic.
fn tasks_per_member(tasks: i64, members: i64) -> i64 {
    if members == 0 {
        return 0;
    }
    let mut per_member = tasks / members;
    if tasks % members > 0 {
        per_member += 1;
    }
    per_member
}

/// The quotas of `LocalState`: active tasks and all tasks per member, each recomputed over the
/// members still below it whenever a member reaches it.
#[derive(Clone, Copy, Debug)]
struct Quotas {
    total_active_tasks: i64,
    total_tasks: i64,
    members_with_active_capacity: i64,
    members_with_task_capacity: i64,
    active_tasks_per_member: i64,
    total_tasks_per_member: i64,
}

impl Quotas {
    /// `maybeUpdateActiveTasksPerMember`.
    fn member_reached_active(&mut self, count: u32) {
        let count = i64::from(count);
        if count == self.active_tasks_per_member {
            self.members_with_active_capacity -= 1;
            self.total_active_tasks -= count;
            self.active_tasks_per_member =
                tasks_per_member(self.total_active_tasks, self.members_with_active_capacity);
        }
    }

    /// `maybeUpdateTotalTasksPerMember`.
    fn member_reached_total(&mut self, count: u32) {
        let count = i64::from(count);
        if count == self.total_tasks_per_member {
            self.members_with_task_capacity -= 1;
            self.total_tasks -= count;
            self.total_tasks_per_member =
                tasks_per_member(self.total_tasks, self.members_with_task_capacity);
        }
    }
}

/// `LocalState`: the assignment in progress.
struct LocalState<'a> {
    table: TaskTable<'a>,
    num_standby_replicas: u32,
    release: Release,
    quotas: Quotas,
    processes: Processes,
    /// The processes in the iteration order of `processIdToState`.
    process_order: Vec<usize>,
    /// `activeTaskToPrevMember`.
    active_prev: Vec<Option<usize>>,
    /// `standbyTaskToPrevMember`: each task's previous standby, warm-up and on-disk holders,
    /// best first.
    standby_prev: Vec<Vec<usize>>,
    unassigned_standbys: Vec<(TaskId, u32)>,
}

/// One previous holder of a task below the active one (`StandbyCandidate`).
struct Candidate {
    member: usize,
    prev_standby: bool,
    offset_sum: i64,
}

/// Runs Kafka's sticky assignor on the group: every task of the topology active on one member,
/// and up to `num_standby_replicas` standbys of each stateful task on other processes.
pub fn assign(group: &GroupSpec, topology: &Topology) -> Result<GroupAssignment, AssignorError> {
    let mut state = LocalState::initialize(group, TaskTable::new(topology)?)?;
    state.assign_active()?;
    if state.num_standby_replicas > 0 {
        state.assign_standby();
    }
    Ok(state.build(group))
}

/// The processes in order of first appearance, and each member's process.
fn index_processes(group: &GroupSpec) -> Result<(Vec<&str>, Vec<Vec<usize>>), AssignorError> {
    let mut seen = HashSet::new();
    let mut process_ids: Vec<&str> = Vec::new();
    let mut index_of: FxHashMap<&str, usize> = FxHashMap::default();
    let mut members_of: Vec<Vec<usize>> = Vec::new();
    for (m, (member_id, spec)) in group.members.iter().enumerate() {
        if !seen.insert(member_id.as_str()) {
            return Err(AssignorError::DuplicateMember(member_id.clone()));
        }
        let p = *index_of.entry(spec.process_id.as_str()).or_insert_with(|| {
            process_ids.push(spec.process_id.as_str());
            members_of.push(Vec::new());
            members_of.len() - 1
        });
        members_of[p].push(m);
    }
    Ok((process_ids, members_of))
}

impl<'a> LocalState<'a> {
    /// `initialize`: the quotas, one process state per process, and every task's previous
    /// active member and ranked previous standby members.
    fn initialize(
        group: &GroupSpec,
        table: TaskTable<'a>,
    ) -> Result<LocalState<'a>, AssignorError> {
        let (process_ids, members_of) = index_processes(group)?;
        let members = group.members.len();
        let (process_order, _) = string_map_order(&process_ids, HashMapCapacity::Initial(members));
        // Each process's `memberToTaskCounts` is a default `HashMap` of its member ids.
        let members_of: Vec<Vec<usize>> = members_of
            .into_iter()
            .map(|ms| {
                let ids: Vec<&str> = ms.iter().map(|&m| group.members[m].0.as_str()).collect();
                let (order, _) = string_map_order(&ids, HashMapCapacity::Default);
                order.into_iter().map(|i| ms[i]).collect()
            })
            .collect();
        let standby = i64::from(group.num_standby_replicas);
        let (mut total_active, mut total_tasks) = (0i64, 0i64);
        for sub in &table.topology.subtopologies {
            let n = i64::from(sub.partitions);
            total_active += n;
            total_tasks += n + if sub.stateful { n * standby } else { 0 };
        }
        let quotas = Quotas {
            total_active_tasks: total_active,
            total_tasks,
            members_with_active_capacity: members as i64,
            members_with_task_capacity: members as i64,
            active_tasks_per_member: tasks_per_member(total_active, members as i64),
            total_tasks_per_member: tasks_per_member(total_tasks, members as i64),
        };
        let task_count = table.tasks.len();
        let mut state = LocalState {
            processes: Processes::new(members_of, members, task_count),
            table,
            num_standby_replicas: group.num_standby_replicas,
            release: group.release,
            quotas,
            process_order,
            active_prev: vec![None; task_count],
            standby_prev: Vec::new(),
            unassigned_standbys: Vec::new(),
        };
        state.collect_previous_holders(group);
        Ok(state)
    }

    /// The previous active member of each task (the last member to claim it), and its standby
    /// candidates ranked by `STANDBY_CANDIDATE_ORDER`: current standbys and warm-ups first,
    /// then on-disk state known only from reported offsets; most caught up first in each.
    fn collect_previous_holders(&mut self, group: &GroupSpec) {
        let table = &self.table;
        let mut candidates: Vec<Vec<Candidate>> =
            (0..table.tasks.len()).map(|_| Vec::new()).collect();
        for (m, (_, spec)) in group.members.iter().enumerate() {
            for (sub, partitions) in &spec.active {
                for t in table.of(sub, partitions) {
                    self.active_prev[t] = Some(m);
                }
            }
            let offset_sum = |sub: &str, p: i32| {
                spec.task_offsets
                    .get(sub)
                    .and_then(|o| o.get(&p))
                    .copied()
                    .unwrap_or(0)
            };
            for held in [&spec.standby, &spec.warmup] {
                for (sub, partitions) in held {
                    for &p in partitions {
                        if let Some(t) = table.index(sub, p) {
                            let offset_sum = offset_sum(sub, p);
                            candidates[t].push(Candidate {
                                member: m,
                                prev_standby: true,
                                offset_sum,
                            });
                        }
                    }
                }
            }
            let holds =
                |tasks: &Tasks, sub: &str, p: i32| tasks.get(sub).is_some_and(|s| s.contains(&p));
            for (sub, offsets) in &spec.task_offsets {
                for (&p, &offset_sum) in offsets {
                    if holds(&spec.standby, sub, p) || holds(&spec.warmup, sub, p) {
                        continue;
                    }
                    if let Some(t) = table.index(sub, p) {
                        candidates[t].push(Candidate {
                            member: m,
                            prev_standby: false,
                            offset_sum,
                        });
                    }
                }
            }
        }
        self.standby_prev = candidates
            .into_iter()
            .map(|mut list| {
                list.sort_by_key(|c| (!c.prev_standby, Reverse(c.offset_sum)));
                list.into_iter().map(|c| c.member).collect()
            })
            .collect();
    }

    fn has_unfulfilled_active_quota(&self, member: usize) -> bool {
        i64::from(self.processes.member_tasks[member]) < self.quotas.active_tasks_per_member
    }

    fn has_unfulfilled_task_quota(&self, member: usize) -> bool {
        i64::from(self.processes.member_tasks[member]) < self.quotas.total_tasks_per_member
    }

    fn add_active(&mut self, member: usize, task: usize) {
        let count = self.processes.add_task(member, task, true);
        self.quotas.member_reached_active(count);
        self.quotas.member_reached_total(count);
    }

    /// `findPrevMemberWithLeastLoad`: the first candidate, replaced only by one whose process
    /// and member are both strictly less loaded; with a task, processes holding it are skipped.
    fn find_prev_member_with_least_load(
        &self,
        members: &[usize],
        standby_task: Option<usize>,
    ) -> Option<usize> {
        if self.release == Release::Kafka43 {
            return self.find_prev_member_with_least_load_4_3(members, standby_task);
        }
        let mut candidate = None;
        let (mut candidate_process_load, mut candidate_member_load) = (f64::MAX, f64::MAX);
        for &member in members {
            let process = self.processes.member_process[member];
            if standby_task.is_some_and(|t| self.processes.has_task(process, t)) {
                continue;
            }
            let process_load = self.processes.load(process);
            let member_load = f64::from(self.processes.member_tasks[member]);
            if candidate.is_none()
                || (process_load < candidate_process_load && member_load < candidate_member_load)
            {
                candidate_process_load = process_load;
                candidate_member_load = member_load;
                candidate = Some(member);
            }
        }
        candidate
    }

    /// 4.3.0's `findPrevMemberWithLeastLoad`: the first holder is the candidate, replaced by
    /// one strictly less loaded whose process lacks the task; but the last check reads the first
    /// holder's process, so when that one holds the task no candidate is returned.
    fn find_prev_member_with_least_load_4_3(
        &self,
        members: &[usize],
        task: Option<usize>,
    ) -> Option<usize> {
        let (&first, rest) = members.split_first()?;
        let first_process = self.processes.member_process[first];
        let mut candidate = first;
        let mut candidate_process_load = self.processes.load(first_process);
        let mut candidate_member_load = f64::from(self.processes.member_tasks[first]);
        for &member in rest {
            let process = self.processes.member_process[member];
            let process_load = self.processes.load(process);
            if process_load < candidate_process_load
                && task.is_none_or(|t| !self.processes.has_task(process, t))
            {
                let member_load = f64::from(self.processes.member_tasks[member]);
                if member_load < candidate_member_load {
                    candidate_process_load = process_load;
                    candidate_member_load = member_load;
                    candidate = member;
                }
            }
        }
        task.is_none_or(|t| !self.processes.has_task(first_process, t))
            .then_some(candidate)
    }

    /// `assignActive`: by (partition, subtopology), each task to its previous owner if under
    /// quota, then the rest to their best previous standby if under quota, then by
    /// (subtopology, partition) to the least loaded process's least loaded member.
    fn assign_active(&mut self) -> Result<(), AssignorError> {
        let mut tasks: Vec<usize> = (0..self.table.tasks.len()).collect();
        tasks.sort_by_key(|&t| self.table.by_partition(t));
        let mut rest = Vec::with_capacity(tasks.len());
        for t in tasks {
            match self.active_prev[t] {
                Some(m) if self.has_unfulfilled_active_quota(m) => self.add_active(m, t),
                _ => rest.push(t),
            }
        }
        let tasks = std::mem::take(&mut rest);
        for t in tasks {
            match self.find_prev_member_with_least_load(&self.standby_prev[t], None) {
                Some(m) if self.has_unfulfilled_active_quota(m) => self.add_active(m, t),
                _ => rest.push(t),
            }
        }
        rest.sort_by_key(|&t| self.table.by_subtopology(t));
        let mut by_load = self.processes_by_load();
        for t in rest {
            let processes = &self.processes;
            let p = by_load
                .poll(|&a, &b| processes.compare_load(a, b))
                .ok_or_else(|| AssignorError::NoMembers(self.table.id(t)))?;
            let count = self
                .processes
                .add_task_to_least_loaded_member(p, t, true)
                .ok_or_else(|| AssignorError::NoMembers(self.table.id(t)))?;
            self.quotas.member_reached_active(count);
            self.quotas.member_reached_total(count);
            let processes = &self.processes;
            by_load.offer(p, |&a, &b| processes.compare_load(a, b));
        }
        Ok(())
    }

    /// `new PriorityQueue<>(comparingDouble(load))` and `addAll(processIdToState.values())`.
    fn processes_by_load(&self) -> PriorityQueue<usize> {
        let mut queue = PriorityQueue::new();
        for &p in &self.process_order {
            queue.offer(p, |&a, &b| self.processes.compare_load(a, b));
        }
        queue
    }

    /// `assignStandby`: by (partition, subtopology) descending, each replica to the previous
    /// active member if its process lacks the task and it is under quota, else to the least
    /// loaded previous standby if under quota; what is left goes, by (subtopology, partition)
    /// descending, to the least loaded processes that lack the task.
    fn assign_standby(&mut self) {
        let replicas = self.num_standby_replicas;
        let mut tasks: Vec<usize> = (0..self.table.tasks.len())
            .filter(|&t| self.table.stateful(t))
            .collect();
        tasks.sort_by_key(|&t| Reverse(self.table.by_partition(t)));
        let mut to_least_loaded: Vec<(usize, u32)> = Vec::new();
        for t in tasks {
            for i in 0..replicas {
                if let Some(m) = self.active_prev[t] {
                    let process = self.processes.member_process[m];
                    if !self.processes.has_task(process, t) && self.has_unfulfilled_task_quota(m) {
                        let count = self.processes.add_task(m, t, false);
                        self.quotas.member_reached_total(count);
                        continue;
                    }
                }
                if let Some(m) =
                    self.find_prev_member_with_least_load(&self.standby_prev[t], Some(t))
                {
                    if self.has_unfulfilled_task_quota(m) {
                        let count = self.processes.add_task(m, t, false);
                        self.quotas.member_reached_total(count);
                        continue;
                    }
                }
                to_least_loaded.push((t, replicas - i));
                break;
            }
        }
        to_least_loaded.sort_by_key(|&(t, _)| Reverse(self.table.by_subtopology(t)));
        let mut by_load = self.processes_by_load();
        for (t, remaining) in to_least_loaded {
            for i in 0..remaining {
                if !self.assign_standby_to_least_loaded(&mut by_load, t) {
                    self.unassigned_standbys
                        .push((self.table.id(t), remaining - i));
                    break;
                }
            }
        }
    }

    /// `assignStandbyToMemberWithLeastLoad`, its recursion unrolled: polls processes until
    /// one lacks the task and gives it to that process's least loaded member, then offers the
    /// polled processes back, the last polled first (as the recursion unwinds).
    fn assign_standby_to_least_loaded(
        &mut self,
        by_load: &mut PriorityQueue<usize>,
        task: usize,
    ) -> bool {
        let mut polled = Vec::new();
        let mut found = false;
        loop {
            let processes = &self.processes;
            let Some(p) = by_load.poll(|&a, &b| processes.compare_load(a, b)) else {
                break;
            };
            polled.push(p);
            if !self.processes.has_task(p, task) {
                if let Some(count) = self
                    .processes
                    .add_task_to_least_loaded_member(p, task, false)
                {
                    found = true;
                    self.quotas.member_reached_total(count);
                }
                break;
            }
            if by_load.is_empty() {
                break;
            }
        }
        for &p in polled.iter().rev() {
            let processes = &self.processes;
            by_load.offer(p, |&a, &b| processes.compare_load(a, b));
        }
        found
    }

    /// `buildGroupAssignment`: every member's tasks, by subtopology.
    fn build(self, group: &GroupSpec) -> GroupAssignment {
        let compact = |tasks: &[usize]| {
            let mut out = Tasks::new();
            for &t in tasks {
                let (s, p) = self.table.tasks[t];
                let id = &self.table.topology.subtopologies[s].id;
                out.entry(id.clone()).or_default().insert(p);
            }
            out
        };
        let members: BTreeMap<String, MemberAssignment> = group
            .members
            .iter()
            .enumerate()
            .map(|(m, (id, _))| {
                let assignment = MemberAssignment {
                    active: compact(&self.processes.member_active[m]),
                    standby: compact(&self.processes.member_standby[m]),
                };
                (id.clone(), assignment)
            })
            .collect();
        GroupAssignment {
            members,
            unassigned_standbys: self.unassigned_standbys,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::kip1071::group::Subtopology;

    #[test]
    fn tasks_per_member_rounds_up_in_java_arithmetic() {
        assert_eq!(tasks_per_member(7, 3), 3);
        assert_eq!(tasks_per_member(6, 3), 2);
        assert_eq!(tasks_per_member(5, 0), 0);
        // Truncating division: -1 / 2 is 0 and -1 % 2 is -1, so no rounding up.
        assert_eq!(tasks_per_member(-1, 2), 0);
    }

    #[test]
    fn subtopologies_order_as_java_strings() {
        let sub = |id: &str| Subtopology {
            id: id.into(),
            partitions: 2,
            stateful: true,
        };
        let topology = Topology {
            subtopologies: vec![sub("2"), sub("10"), sub("1")],
        };
        let table = TaskTable::new(&topology).expect("distinct ids");
        // Tasks 0, 1 are "2"; 2, 3 are "10"; 4, 5 are "1". By subtopology: "1" < "10" < "2".
        let mut tasks: Vec<usize> = (0..6).collect();
        tasks.sort_by_key(|&t| table.by_subtopology(t));
        assert_eq!(tasks, vec![4, 5, 2, 3, 0, 1]);
        tasks.sort_by_key(|&t| table.by_partition(t));
        assert_eq!(tasks, vec![4, 2, 0, 5, 3, 1]);
        assert_eq!(table.index("10", 1), Some(3));
        assert_eq!(table.index("10", 2), None);
        assert_eq!(table.index("3", 0), None);
        assert_eq!(table.id(3), TaskId::new("10", 1));
    }

    #[test]
    fn a_subtopology_given_twice_is_an_error() {
        let sub = Subtopology {
            id: "a".into(),
            partitions: 1,
            stateful: false,
        };
        let topology = Topology {
            subtopologies: vec![sub.clone(), sub],
        };
        assert!(
            matches!(TaskTable::new(&topology), Err(AssignorError::DuplicateSubtopology(id)) if id == "a")
        );
    }
}
