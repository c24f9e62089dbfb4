//! Kafka's `ProcessState` (the trunk version with a three-argument `addTask`): one process's
//! members, load and tasks. The states of all processes live in one [`Processes`], which keeps
//! the per-member and per-task tallies they share in flat vectors.

use super::java::{compare_doubles, PriorityQueue};
use std::cmp::Ordering;

/// One process: its members in the order of its `memberToTaskCounts` `HashMap`, its load and
/// the heap of its members by task count, which `addTaskToLeastLoadedMember` builds and
/// `addTask` drops.
#[derive(Clone, Debug)]
struct ProcessState {
    task_count: u32,
    load: f64,
    members: Vec<usize>,
    members_by_load: Option<PriorityQueue<(usize, u32)>>,
}

/// Every process's state, and each member's and task's tallies.
#[derive(Clone, Debug)]
pub(super) struct Processes {
    states: Vec<ProcessState>,
    /// Each member's process.
    pub member_process: Vec<usize>,
    /// Each member's task count (`memberToTaskCounts`).
    pub member_tasks: Vec<u32>,
    /// Each member's active tasks, in the order given.
    pub member_active: Vec<Vec<usize>>,
    /// Each member's standby tasks, in the order given.
    pub member_standby: Vec<Vec<usize>>,
    /// The processes holding each task, as active or standby (`assignedTasks`).
    holders: Vec<Vec<u32>>,
}

fn by_count(a: &(usize, u32), b: &(usize, u32)) -> Ordering {
    a.1.cmp(&b.1)
}

impl Processes {
    /// Processes with the given members each (in `HashMap` order), for `task_count` tasks.
    pub fn new(members_of: Vec<Vec<usize>>, member_count: usize, task_count: usize) -> Processes {
        let mut member_process = vec![0; member_count];
        for (p, members) in members_of.iter().enumerate() {
            for &m in members {
                member_process[m] = p;
            }
        }
        let states = members_of
            .into_iter()
            .map(|members| ProcessState {
                task_count: 0,
                load: if members.is_empty() { f64::MAX } else { 0.0 },
                members,
                members_by_load: None,
            })
            .collect();
        Processes {
            states,
            member_process,
            member_tasks: vec![0; member_count],
            member_active: vec![Vec::new(); member_count],
            member_standby: vec![Vec::new(); member_count],
            holders: vec![Vec::new(); task_count],
        }
    }

    /// `load()`: tasks over members.
    pub fn load(&self, process: usize) -> f64 {
        self.states[process].load
    }

    /// `Comparator.comparingDouble(ProcessState::load)`.
    pub fn compare_load(&self, a: usize, b: usize) -> Ordering {
        compare_doubles(self.load(a), self.load(b))
    }

    /// `hasTask`: whether the process holds the task in any role.
    pub fn has_task(&self, process: usize, task: usize) -> bool {
        self.holders[task].contains(&(process as u32))
    }

    /// `addTask`: gives the task to that member and drops the process's member heap, which
    /// could not be kept in order cheaply. Returns the member's task count.
    pub fn add_task(&mut self, member: usize, task: usize, active: bool) -> u32 {
        let process = self.member_process[member];
        let count = self.add_task_internal(process, member, task, active);
        self.states[process].members_by_load = None;
        count
    }

    fn add_task_internal(
        &mut self,
        process: usize,
        member: usize,
        task: usize,
        active: bool,
    ) -> u32 {
        let state = &mut self.states[process];
        state.task_count += 1;
        if !self.holders[task].contains(&(process as u32)) {
            self.holders[task].push(process as u32);
        }
        if active {
            self.member_active[member].push(task);
        } else {
            self.member_standby[member].push(task);
        }
        self.member_tasks[member] += 1;
        state.load = f64::from(state.task_count) / state.members.len() as f64;
        self.member_tasks[member]
    }

    /// `addTaskToLeastLoadedMember`: the only member if there is one, else the head of the
    /// member heap (built from the members in `HashMap` order on first use, and kept until
    /// `addTask` drops it). `None` for a process without members.
    pub fn add_task_to_least_loaded_member(
        &mut self,
        process: usize,
        task: usize,
        active: bool,
    ) -> Option<u32> {
        let members = &self.states[process].members;
        match members.len() {
            0 => return None,
            1 => {
                let only = members[0];
                return Some(self.add_task_internal(process, only, task, active));
            }
            _ => {}
        }
        let mut heap = match self.states[process].members_by_load.take() {
            Some(heap) => heap,
            None => {
                let mut heap = PriorityQueue::new();
                for &m in &self.states[process].members {
                    heap.offer((m, self.member_tasks[m]), by_count);
                }
                heap
            }
        };
        let (member, _) = heap.poll(by_count)?;
        let count = self.add_task_internal(process, member, task, active);
        heap.offer((member, count), by_count);
        self.states[process].members_by_load = Some(heap);
        Some(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One process of members 0, 1, 2 (in that `HashMap` order) and ten tasks.
    fn one_process() -> Processes {
        Processes::new(vec![vec![0, 1, 2]], 3, 10)
    }

    #[test]
    fn the_member_heap_outlives_a_pass() {
        // Heap [0 1 2] at 0 tasks each. Task 0 goes to 0, which re-enters last: [2 1 0];
        // task 1 to 2 (the root), leaving [1 0 2]; task 2 to 1, leaving [2 0 1]. All at one
        // task, the kept heap gives task 3 to 2, where a heap rebuilt in member order would
        // give it to 0.
        let mut processes = one_process();
        for t in 0..4 {
            processes.add_task_to_least_loaded_member(0, t, t < 3);
        }
        assert_eq!(processes.member_active, vec![vec![0], vec![2], vec![1]]);
        assert_eq!(processes.member_standby, vec![vec![], vec![], vec![3]]);
        assert_eq!(processes.load(0), 4.0 / 3.0);
    }

    #[test]
    fn add_task_drops_the_member_heap() {
        let mut processes = one_process();
        for t in 0..3 {
            processes.add_task_to_least_loaded_member(0, t, true);
        }
        // Giving member 1 a task drops the heap; rebuilt in member order from counts 1, 2, 1
        // it gives the next task to member 0.
        assert_eq!(processes.add_task(1, 3, false), 2);
        assert_eq!(
            processes.add_task_to_least_loaded_member(0, 4, false),
            Some(2)
        );
        assert_eq!(processes.member_standby, vec![vec![4], vec![3], vec![]]);
        assert!(processes.has_task(0, 4));
        assert!(!processes.has_task(0, 5));
    }

    #[test]
    fn a_process_without_members_takes_nothing() {
        let mut processes = Processes::new(vec![vec![]], 0, 1);
        assert_eq!(processes.load(0), f64::MAX);
        assert_eq!(processes.add_task_to_least_loaded_member(0, 0, true), None);
    }
}
