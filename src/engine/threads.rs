//! How a member deals its tasks to its stream threads, as Kafka Streams does once the group
//! leader has given each instance its tasks (`StreamsPartitionAssignor.assignTasksToThreads`,
//! Kafka 3.8 to trunk). Each thread restores through its own restore consumer and state
//! updater, so where a task lands decides whose restore rate it shares.
//!
//! Three passes share one count of tasks per thread: stateful actives, then standbys (warm-ups
//! and learners are standbys to the instance), then stateless actives. In each, a thread
//! first takes back its previous tasks (most caught up first) up to the floor of an even
//! share; the threads still short then take the smallest remaining tasks in turn; what is left
//! goes to a previous owner still at the floor, then one each to the threads at the floor.
//! Stateless tasks keep no previous thread. Threads are taken in the order of their consumer
//! names (`StreamThread-1`, `StreamThread-10`, `StreamThread-2`, ...).

use crate::model::TaskId;
use std::collections::VecDeque;

/// A running active's place among a thread's previous tasks: before every real lag (Kafka's
/// `Task.LATEST_OFFSET`).
pub(crate) const RUNNING: i64 = -2;

/// What one stream thread runs and replicates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thread {
    /// Active tasks, in the order dealt.
    pub active: Vec<TaskId>,
    /// Standbys, warm-ups and learners, in the order dealt.
    pub replicas: Vec<TaskId>,
}

impl Thread {
    /// Whether it holds a task in any role.
    pub fn holds(&self, task: TaskId) -> bool {
        self.active.contains(&task) || self.replicas.contains(&task)
    }
}

/// Threads in the order Kafka takes them: by their consumers' names, where thread `n` (from 1)
/// is `...-StreamThread-<n>-consumer`, so `10` comes before `2`.
pub(crate) fn consumer_order(threads: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..threads).collect();
    // Names of one digit sort as their numbers do.
    if threads > 9 {
        order.sort_by_cached_key(|&i| (i + 1).to_string());
    }
    order
}

/// Deals a member's tasks to `previous.len()` threads (at least one). `previous[i]` is what
/// thread `i` held before with its lag ([`RUNNING`] for a running active), in any order.
pub(crate) fn deal(
    previous: Vec<Vec<(i64, TaskId)>>,
    stateful: &[TaskId],
    replicas: &[TaskId],
    stateless: &[TaskId],
) -> Vec<Thread> {
    let mut by_lag: Vec<Vec<TaskId>> = previous
        .into_iter()
        .map(|mut held| {
            held.sort();
            held.dedup_by_key(|(_, t)| *t);
            held.into_iter().map(|(_, t)| t).collect()
        })
        .collect();
    if by_lag.len() <= 1 {
        // Every pass gives one thread all its tasks: what it held first, then the rest.
        let held = by_lag.pop().unwrap_or_default();
        let mut active = held_first(&held, stateful);
        active.extend(held_first(&[], stateless));
        return vec![Thread {
            active,
            replicas: held_first(&held, replicas),
        }];
    }
    deal_in_passes(&by_lag, stateful, replicas, stateless)
}

/// [`deal`] to two threads or more, `by_lag[i]` what thread `i` held, most caught up first.
fn deal_in_passes(
    by_lag: &[Vec<TaskId>],
    stateful: &[TaskId],
    replicas: &[TaskId],
    stateless: &[TaskId],
) -> Vec<Thread> {
    let n = by_lag.len();
    let order = consumer_order(n);
    let mut load = vec![0usize; n];
    let actives = pass(&order, by_lag, &mut load, stateful, true);
    let standbys = pass(&order, by_lag, &mut load, replicas, true);
    let stateless = pass(&order, by_lag, &mut load, stateless, false);
    actives
        .into_iter()
        .zip(standbys)
        .zip(stateless)
        .map(|((mut active, replicas), stateless)| {
            active.extend(stateless);
            Thread { active, replicas }
        })
        .collect()
}

/// A single thread's pass: the tasks it `held`, in that order, then the others smallest first.
fn held_first(held: &[TaskId], tasks: &[TaskId]) -> Vec<TaskId> {
    let mut pool = Pool::of(tasks);
    let mut dealt = Vec::with_capacity(pool.left);
    dealt.extend(held.iter().copied().filter(|&t| pool.remove(t)));
    dealt.extend(std::iter::from_fn(|| pool.pop_first()));
    dealt
}

/// One pass of `assignTasksToThreads` over `tasks`; `load` counts what earlier passes dealt.
fn pass(
    order: &[usize],
    previous: &[Vec<TaskId>],
    load: &mut [usize],
    tasks: &[TaskId],
    sticky: bool,
) -> Vec<Vec<TaskId>> {
    let n = order.len();
    let mut dealt: Vec<Vec<TaskId>> = vec![Vec::new(); n];
    let mut unassigned = Pool::of(tasks);
    if unassigned.left == 0 {
        return dealt;
    }
    let min = (unassigned.left + load.iter().sum::<usize>()) / n;
    let mut to_fill: VecDeque<usize> = VecDeque::new();
    // Kafka keeps these in a map by task: a task skipped again keeps its last thread.
    let mut skipped: Vec<(TaskId, usize)> = Vec::new();
    for &c in order {
        let target = min.saturating_sub(load[c]);
        if sticky {
            for &t in &previous[c] {
                if unassigned.contains(t) {
                    if dealt[c].len() < target {
                        dealt[c].push(t);
                        unassigned.remove(t);
                    } else {
                        skipped.push((t, c));
                    }
                }
            }
        }
        if dealt[c].len() < target {
            to_fill.push_back(c);
        }
    }
    while let Some(c) = to_fill.pop_front() {
        let Some(t) = unassigned.pop_first() else {
            break;
        };
        dealt[c].push(t);
        if dealt[c].len() + load[c] < min {
            to_fill.push_back(c);
        }
    }
    if unassigned.left > 0 {
        let mut at_min: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&c| dealt[c].len() + load[c] == min)
            .collect();
        skipped.sort_by_key(|&(t, _)| t);
        let last_of_each = skipped
            .iter()
            .enumerate()
            .filter(|&(i, &(t, _))| skipped.get(i + 1).is_none_or(|&(next, _)| next != t))
            .map(|(_, &skip)| skip);
        for (t, c) in last_of_each {
            if let Some(k) = at_min.iter().position(|&m| m == c) {
                if unassigned.remove(t) {
                    dealt[c].push(t);
                    at_min.remove(k);
                }
            }
        }
        // Kafka walks what is left in its heap's order; sorted order only changes which of
        // the threads at the floor takes which.
        for (t, c) in unassigned.left_in_order().zip(at_min) {
            dealt[c].push(t);
        }
    }
    for (c, tasks) in dealt.iter().enumerate() {
        load[c] += tasks.len();
    }
    dealt
}

/// The tasks a pass has still to deal, smallest first: a sorted list with a mark for each
/// dealt, as a member's few tasks are dealt at every rebalance of every member.
struct Pool {
    tasks: Vec<TaskId>,
    dealt: Vec<bool>,
    /// Every task before this one is dealt.
    first: usize,
    /// How many are not dealt.
    left: usize,
}

impl Pool {
    fn of(tasks: &[TaskId]) -> Pool {
        let mut tasks = tasks.to_vec();
        tasks.sort_unstable();
        tasks.dedup();
        let left = tasks.len();
        Pool {
            dealt: vec![false; left],
            tasks,
            first: 0,
            left,
        }
    }

    fn contains(&self, task: TaskId) -> bool {
        self.tasks
            .binary_search(&task)
            .is_ok_and(|i| !self.dealt[i])
    }

    /// Deals `task`, if it is still to deal.
    fn remove(&mut self, task: TaskId) -> bool {
        match self.tasks.binary_search(&task) {
            Ok(i) if !self.dealt[i] => {
                self.dealt[i] = true;
                self.left -= 1;
                true
            }
            _ => false,
        }
    }

    fn pop_first(&mut self) -> Option<TaskId> {
        while self.first < self.tasks.len() && self.dealt[self.first] {
            self.first += 1;
        }
        let t = *self.tasks.get(self.first)?;
        self.dealt[self.first] = true;
        self.left -= 1;
        Some(t)
    }

    fn left_in_order(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.tasks
            .iter()
            .zip(&self.dealt)
            .filter(|&(_, &dealt)| !dealt)
            .map(|(&t, _)| t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[u32]) -> Vec<TaskId> {
        list.iter().map(|&t| TaskId(t)).collect()
    }

    #[test]
    fn threads_are_taken_in_the_order_of_their_consumer_names() {
        assert_eq!(consumer_order(3), [0, 1, 2]);
        // StreamThread-1, -10, -11, -12, -2, ..., -9.
        assert_eq!(consumer_order(12)[..5], [0, 9, 10, 11, 1]);
    }

    /// The worked example of Kafka's algorithm: a client of three threads, seven stateful
    /// actives 0_0..0_6 and two standbys 1_0 and 1_1. Before, thread 1 ran 0_0, 0_1, 0_2,
    /// thread 2 ran 0_3 and kept 1_0, thread 3 ran 0_4 and 0_5; 0_6 is new.
    #[test]
    fn stickiness_holds_up_to_an_even_share_and_the_rest_is_dealt_in_turn() {
        let running = |list: &[u32]| -> Vec<(i64, TaskId)> {
            list.iter().map(|&t| (RUNNING, TaskId(t))).collect()
        };
        let mut second = running(&[3]);
        second.push((0, TaskId(7)));
        let previous = vec![running(&[0, 1, 2]), second, running(&[4, 5])];
        let threads = deal(previous, &ids(&[0, 1, 2, 3, 4, 5, 6]), &ids(&[7, 8]), &[]);
        // 0_2 moves to thread 2 (short of the floor of 2) and the new 0_6 goes to thread 1.
        assert_eq!(threads[0].active, ids(&[0, 1, 6]));
        assert_eq!(threads[1].active, ids(&[3, 2]));
        assert_eq!(threads[2].active, ids(&[4, 5]));
        // Standbys over loads 3/2/2 (floor 3): thread 2 takes back 1_0, thread 3 gets 1_1.
        assert_eq!(threads[0].replicas, ids(&[]));
        assert_eq!(threads[1].replicas, ids(&[7]));
        assert_eq!(threads[2].replicas, ids(&[8]));
    }

    #[test]
    fn stateless_tasks_even_out_the_threads_without_stickiness() {
        let previous = vec![vec![(RUNNING, TaskId(5))], Vec::new()];
        let threads = deal(previous, &ids(&[0]), &[], &ids(&[4, 5, 6]));
        // Thread 1 ran the stateless 0_5 before; it goes where the turn puts it.
        assert_eq!(threads[0].active, ids(&[0, 4]));
        assert_eq!(threads[1].active, ids(&[5, 6]));
    }

    /// Random passes (proptest does not build for wasm32, where clippy also checks the tests).
    #[cfg(not(target_arch = "wasm32"))]
    mod random {
        use super::*;
        use proptest::prelude::*;
        use std::collections::{BTreeMap, BTreeSet};

        /// A pass as Kafka writes it, with a sorted set of the tasks left and a map of the
        /// tasks skipped: what [`pass`] must deal exactly as.
        fn kafka_pass(
            order: &[usize],
            previous: &[Vec<TaskId>],
            load: &mut [usize],
            tasks: &[TaskId],
            sticky: bool,
        ) -> Vec<Vec<TaskId>> {
            let n = order.len();
            let mut dealt: Vec<Vec<TaskId>> = vec![Vec::new(); n];
            let mut unassigned: BTreeSet<TaskId> = tasks.iter().copied().collect();
            if unassigned.is_empty() {
                return dealt;
            }
            let min = (unassigned.len() + load.iter().sum::<usize>()) / n;
            let mut to_fill: VecDeque<usize> = VecDeque::new();
            let mut skipped: BTreeMap<TaskId, usize> = BTreeMap::new();
            for &c in order {
                let target = min.saturating_sub(load[c]);
                if sticky {
                    for &t in &previous[c] {
                        if unassigned.contains(&t) {
                            if dealt[c].len() < target {
                                dealt[c].push(t);
                                unassigned.remove(&t);
                            } else {
                                skipped.insert(t, c);
                            }
                        }
                    }
                }
                if dealt[c].len() < target {
                    to_fill.push_back(c);
                }
            }
            while let Some(c) = to_fill.pop_front() {
                let Some(t) = unassigned.pop_first() else {
                    break;
                };
                dealt[c].push(t);
                if dealt[c].len() + load[c] < min {
                    to_fill.push_back(c);
                }
            }
            if !unassigned.is_empty() {
                let mut at_min: Vec<usize> = order
                    .iter()
                    .copied()
                    .filter(|&c| dealt[c].len() + load[c] == min)
                    .collect();
                for (t, c) in skipped {
                    if let Some(k) = at_min.iter().position(|&m| m == c) {
                        if unassigned.remove(&t) {
                            dealt[c].push(t);
                            at_min.remove(k);
                        }
                    }
                }
                for (t, c) in std::mem::take(&mut unassigned).into_iter().zip(at_min) {
                    dealt[c].push(t);
                }
            }
            for (c, tasks) in dealt.iter().enumerate() {
                load[c] += tasks.len();
            }
            dealt
        }

        proptest! {
            #[test]
            fn a_pass_deals_as_kafkas_sets_and_maps_do(
                threads in 1usize..12,
                held in proptest::collection::vec(proptest::collection::vec(0u32..40, 0..12), 12),
                tasks in proptest::collection::vec(0u32..40, 0..40),
                loads in proptest::collection::vec(0usize..6, 12),
                sticky in any::<bool>(),
            ) {
                let order = consumer_order(threads);
                let previous: Vec<Vec<TaskId>> = held[..threads].iter().map(|h| ids(h)).collect();
                let tasks = ids(&tasks);
                let (mut load, mut kafka_load) = (loads[..threads].to_vec(), loads[..threads].to_vec());
                let dealt = pass(&order, &previous, &mut load, &tasks, sticky);
                prop_assert_eq!(dealt, kafka_pass(&order, &previous, &mut kafka_load, &tasks, sticky));
                prop_assert_eq!(load, kafka_load);
            }

            #[test]
            fn one_thread_is_dealt_as_the_passes_deal_it(
                held in proptest::collection::vec((-2i64..5, 0u32..30), 0..20),
                stateful in proptest::collection::vec(0u32..30, 0..15),
                replicas in proptest::collection::vec(0u32..30, 0..15),
                stateless in proptest::collection::vec(0u32..30, 0..15),
            ) {
                let previous: Vec<(i64, TaskId)> = held.iter().map(|&(lag, t)| (lag, TaskId(t))).collect();
                let (stateful, replicas, stateless) = (ids(&stateful), ids(&replicas), ids(&stateless));
                let mut by_lag = previous.clone();
                by_lag.sort();
                by_lag.dedup_by_key(|(_, t)| *t);
                let held = [by_lag.into_iter().map(|(_, t)| t).collect::<Vec<TaskId>>()];
                let mut load = [0];
                let mut active = kafka_pass(&[0], &held, &mut load, &stateful, true).remove(0);
                let replicas_dealt = kafka_pass(&[0], &held, &mut load, &replicas, true).remove(0);
                active.extend(kafka_pass(&[0], &held, &mut load, &stateless, false).remove(0));
                let threads = deal(vec![previous], &stateful, &replicas, &stateless);
                prop_assert_eq!(threads, vec![Thread { active, replicas: replicas_dealt }]);
            }
        }
    }

    #[test]
    fn one_thread_takes_everything() {
        let threads = deal(vec![Vec::new()], &ids(&[2, 0]), &ids(&[1]), &ids(&[3]));
        assert_eq!(threads.len(), 1);
        assert_eq!(threads[0].active, ids(&[0, 2, 3]));
        assert_eq!(threads[0].replicas, ids(&[1]));
    }
}
