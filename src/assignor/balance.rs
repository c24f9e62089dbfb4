//! The balance step shared by the strategies: each member's share of the active tasks by
//! capacity, which tasks must move to reach it (cheapest first), and which member receives
//! each of them.

use super::plan::{Plan, Pos};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// Orders two members by active tasks per unit of capacity, without division.
pub(crate) fn compare_load(load_a: u64, cap_a: u64, load_b: u64, cap_b: u64) -> Ordering {
    (load_a * cap_b).cmp(&(load_b * cap_a))
}

/// A member's fair share of the active tasks: `lo` to `hi`, in proportion to capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Share {
    pub lo: u64,
    pub hi: u64,
}

/// The share of each member (zero for leaving members) when `tasks` tasks are spread over
/// the members that stay (rule 8).
pub(crate) fn shares(plan: &Plan<'_>, tasks: u64) -> Vec<Share> {
    let k = plan.input.members.len();
    let staying: Vec<Pos> = (0..k).filter(|&p| !plan.leaving(p)).collect();
    let total: u64 = staying.iter().map(|&p| plan.capacity(p)).sum();
    let mut out = vec![Share { lo: 0, hi: 0 }; k];
    if total == 0 {
        return out;
    }
    for p in staying {
        let exact = tasks * plan.capacity(p);
        out[p] = Share {
            lo: exact / total,
            hi: exact.div_ceil(total),
        };
    }
    out
}

/// Hands out units of new work so that the group ends up balanced: who must give up tasks
/// and who must receive them. `loads` are the effective loads (after learners in flight);
/// `locked` tasks cannot be chosen to move. Returns the tasks to move (in task order) and
/// how many each receiver should get.
pub(crate) struct Rebalance {
    /// Tasks to move off their owner, in task order.
    pub moving: Vec<usize>,
    /// Units of work each member should receive.
    pub gains: Vec<u64>,
}

/// Decides which tasks must move to balance the group (rule 8) given effective `loads`:
/// everything a leaving member still runs, whatever puts a member over its share, and, if
/// some member is still under its share, the cheapest tasks of members above theirs. Within a
/// member the cheapest tasks move first, ties to the later task (a member keeps its first
/// tasks). `movable(task)` says which of an owner's tasks may be chosen.
pub(crate) fn plan_moves(
    plan: &Plan<'_>,
    loads: &[u64],
    movable: impl Fn(usize) -> bool,
) -> Rebalance {
    let k = plan.input.members.len();
    let share = shares(plan, plan.task_count() as u64);
    let any_staying = (0..k).any(|p| !plan.leaving(p));
    let mut gains = vec![0u64; k];
    if !any_staying {
        return Rebalance {
            moving: Vec::new(),
            gains,
        };
    }
    let mut by_owner: Vec<Vec<usize>> = vec![Vec::new(); k];
    for t in 0..plan.task_count() {
        if let Some(o) = plan.owner[t] {
            if movable(t) {
                by_owner[o].push(t);
            }
        }
    }
    let shed_order = |t: &usize| (plan.move_cost(*t), Reverse(*t));
    for tasks in &mut by_owner {
        tasks.sort_by_key(shed_order);
    }
    let mut left = loads.to_vec();
    let mut moving = Vec::new();
    let mut taken = vec![0usize; k];
    for p in 0..k {
        let excess = if plan.leaving(p) {
            left[p]
        } else {
            left[p].saturating_sub(share[p].hi)
        };
        let n = (excess as usize).min(by_owner[p].len());
        moving.extend_from_slice(&by_owner[p][..n]);
        taken[p] = n;
        left[p] -= n as u64;
    }
    let mut deficit: u64 = 0;
    for p in 0..k {
        if !plan.leaving(p) && left[p] < share[p].lo {
            gains[p] = share[p].lo - left[p];
            deficit += gains[p];
        }
    }
    let supply = moving.len() as u64;
    if supply < deficit {
        // Members above their lower bound give their cheapest tasks, the most loaded first.
        let mut candidates: Vec<(u64, Reverse<LoadKey>, usize, Reverse<usize>)> = Vec::new();
        for p in 0..k {
            if plan.leaving(p) || left[p] <= share[p].lo {
                continue;
            }
            for &t in &by_owner[p][taken[p]..] {
                candidates.push((
                    plan.move_cost(t),
                    Reverse(LoadKey::new(left[p], plan.capacity(p))),
                    p,
                    Reverse(t),
                ));
            }
        }
        candidates.sort_unstable();
        let mut need = deficit - supply;
        for (_, _, p, Reverse(t)) in candidates {
            if need == 0 {
                break;
            }
            if left[p] > share[p].lo {
                left[p] -= 1;
                moving.push(t);
                need -= 1;
            }
        }
        // Whatever could not be found stays unbalanced until more tasks become movable.
        let found = moving.len() as u64;
        if found < deficit {
            trim_gains(&mut gains, deficit - found);
        }
    } else if supply > deficit {
        // Extra tasks go to the least loaded members that are still under their upper bound.
        let mut extra = supply - deficit;
        let mut heap: BinaryHeap<Reverse<(LoadKey, usize)>> = (0..k)
            .filter(|&p| !plan.leaving(p) && left[p] + gains[p] < share[p].hi)
            .map(|p| Reverse((LoadKey::new(left[p] + gains[p], plan.capacity(p)), p)))
            .collect();
        while extra > 0 {
            let Some(Reverse((_, p))) = heap.pop() else {
                break;
            };
            gains[p] += 1;
            extra -= 1;
            if left[p] + gains[p] < share[p].hi {
                heap.push(Reverse((
                    LoadKey::new(left[p] + gains[p], plan.capacity(p)),
                    p,
                )));
            }
        }
        if extra > 0 {
            // Every staying member is at its upper bound: the rest stay where they are.
            moving.truncate(moving.len() - extra as usize);
        }
    }
    moving.sort_unstable();
    Rebalance { moving, gains }
}

/// Removes `excess` units of gain, from the last receivers first.
fn trim_gains(gains: &mut [u64], mut excess: u64) {
    for g in gains.iter_mut().rev() {
        let cut = excess.min(*g);
        *g -= cut;
        excess -= cut;
        if excess == 0 {
            break;
        }
    }
}

/// Matches moving tasks to receivers: first to receivers that already hold the task's state
/// (standby holders first, then the smallest lag), then the rest in task order to receivers
/// in join order, each up to its gain. Returns (task, receiver) pairs.
pub(crate) fn match_receivers(
    plan: &Plan<'_>,
    moving: &[usize],
    gains: &mut [u64],
) -> Vec<(usize, Pos)> {
    let mut pairs = Vec::with_capacity(moving.len());
    let mut rest = Vec::new();
    for &t in moving {
        let warm = if plan.stateful(t) {
            plan.holders[t]
                .iter()
                .filter(|&&(p, _)| gains[p] > 0 && Some(p) != plan.owner[t])
                .min_by_key(|&&(p, lag)| (!plan.reported_standbys[t].contains(&p), lag, p))
                .map(|&(p, _)| p)
        } else {
            None
        };
        match warm {
            Some(p) => {
                gains[p] -= 1;
                pairs.push((t, p));
            }
            None => rest.push(t),
        }
    }
    let mut receiver = 0;
    for t in rest {
        while receiver < gains.len() && gains[receiver] == 0 {
            receiver += 1;
        }
        if receiver == gains.len() {
            break;
        }
        if Some(receiver) == plan.owner[t] {
            // A task never moves to its own owner; try the next receiver with room.
            if let Some(p) = (receiver + 1..gains.len()).find(|&p| gains[p] > 0) {
                gains[p] -= 1;
                pairs.push((t, p));
            }
            continue;
        }
        gains[receiver] -= 1;
        pairs.push((t, receiver));
    }
    pairs
}

/// A load per unit of capacity that orders without division.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LoadKey {
    load: u64,
    capacity: u64,
}

impl LoadKey {
    pub fn new(load: u64, capacity: u64) -> LoadKey {
        LoadKey { load, capacity }
    }
}

impl Ord for LoadKey {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_load(self.load, self.capacity, other.load, other.capacity)
    }
}

impl PartialEq for LoadKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for LoadKey {}

impl PartialOrd for LoadKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The least loaded member among some candidates, ties to join order, kept in a heap with
/// lazy updates so that handing out many tasks stays cheap.
pub(crate) struct LeastLoaded {
    heap: BinaryHeap<Reverse<(LoadKey, Pos)>>,
    capacity: Vec<u64>,
    member: Vec<bool>,
}

impl LeastLoaded {
    pub fn new(candidates: &[Pos], loads: &[u64], capacity: impl Fn(Pos) -> u64) -> LeastLoaded {
        let caps: Vec<u64> = (0..loads.len()).map(&capacity).collect();
        let mut member = vec![false; loads.len()];
        let heap = candidates
            .iter()
            .map(|&p| {
                member[p] = true;
                Reverse((LoadKey::new(loads[p], caps[p]), p))
            })
            .collect();
        LeastLoaded {
            heap,
            capacity: caps,
            member,
        }
    }

    /// The least loaded candidate; it stays a candidate. Entries whose load changed since
    /// they were pushed are stale ([`LeastLoaded::update`] pushed a fresh one) and dropped.
    pub fn pop_least(&mut self, loads: &[u64]) -> Option<Pos> {
        while let Some(&Reverse((key, p))) = self.heap.peek() {
            if key.load == loads[p] {
                return Some(p);
            }
            self.heap.pop();
        }
        None
    }

    /// Removes the entry on top of the heap (the member returned by the last pop).
    pub fn discard(&mut self, pos: Pos) {
        if let Some(&Reverse((_, p))) = self.heap.peek() {
            if p == pos {
                self.heap.pop();
            }
        }
    }

    /// Records that a member's load changed.
    pub fn update(&mut self, pos: Pos, loads: &[u64]) {
        if self.member[pos] {
            self.heap
                .push(Reverse((LoadKey::new(loads[pos], self.capacity[pos]), pos)));
        }
    }
}
