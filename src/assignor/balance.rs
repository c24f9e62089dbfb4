//! The balance step shared by the sticky strategies (learner, eager, cooperative): which
//! active tasks must move so that each member runs its share (docs/design.md, rule 8), and
//! which member receives each of them.
//!
//! Balance has two levels, as Kafka Streams measures it: stateful tasks are spread by
//! capacity first (so that stores, restores and disk are shared, not just task counts), then
//! stateless tasks fill each member up to its share of all tasks. A member within its share
//! keeps everything it runs, which makes a balanced group a fixed point.

use super::load::{fair_shares, LoadKey, Share};
use super::plan::{Plan, Pos};
use crate::model::sort;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Active tasks per member, stateful ones and all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Loads {
    pub stateful: Vec<u64>,
    pub total: Vec<u64>,
}

impl Loads {
    /// The active tasks each member runs after this round, as currently planned.
    pub fn of_owners(plan: &Plan<'_>) -> Loads {
        let k = plan.input.members.len();
        let mut loads = Loads {
            stateful: vec![0; k],
            total: vec![0; k],
        };
        for (t, owner) in plan.owner.iter().enumerate() {
            if let Some(o) = *owner {
                loads.add(o, plan.stateful(t));
            }
        }
        loads
    }

    /// One more active task on a member.
    pub fn add(&mut self, pos: Pos, stateful: bool) {
        self.total[pos] += 1;
        if stateful {
            self.stateful[pos] += 1;
        }
    }

    /// One active task less on a member.
    pub fn remove(&mut self, pos: Pos, stateful: bool) {
        self.total[pos] -= 1;
        if stateful {
            self.stateful[pos] -= 1;
        }
    }
}

/// Units of work to hand over at one level: the tasks that move off their owner, and how many
/// each member should receive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rebalance {
    /// Tasks to move off their owner, in task order.
    pub moving: Vec<usize>,
    /// Units of work each member should receive.
    pub gains: Vec<u64>,
}

/// How the balance step prices moving a task, to move the cheapest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    /// The whole changelog: the receiver is decided later (by rule 3 at the follow-up
    /// rebalance, under the cooperative protocol), so its state cannot be counted on.
    Changelog,
    /// What the receiver will replay: the balance step places the task's learner itself, on
    /// a receiver holding its state first (the learner design).
    Receiver,
}

/// Decides which tasks must move to balance the group (rule 8) given effective `loads`
/// (learners in flight count as moved): first the stateful tasks against each member's share
/// of the stateful tasks, then the stateless ones against each member's share of all tasks.
/// `movable(task)` says which tasks may be chosen; `cost` how they are priced. Returns the
/// two levels' moves.
pub(crate) fn plan_moves(
    plan: &Plan<'_>,
    loads: &Loads,
    movable: impl Fn(usize) -> bool,
    cost: Cost,
) -> (Rebalance, Rebalance) {
    let k = plan.input.members.len();
    let capacity: Vec<u64> = (0..k)
        .map(|p| if plan.leaving(p) { 0 } else { plan.capacity(p) })
        .collect();
    if capacity.iter().all(|&c| c == 0) {
        let none = Rebalance {
            moving: Vec::new(),
            gains: vec![0; k],
        };
        return (none.clone(), none);
    }
    let stateful_tasks = (0..plan.task_count()).filter(|&t| plan.stateful(t)).count() as u64;
    let mut stateful_by_owner: Vec<Vec<usize>> = vec![Vec::new(); k];
    let mut stateless_by_owner: Vec<Vec<usize>> = vec![Vec::new(); k];
    for t in 0..plan.task_count() {
        if let Some(o) = plan.owner[t] {
            if movable(t) {
                if plan.stateful(t) {
                    stateful_by_owner[o].push(t);
                } else {
                    stateless_by_owner[o].push(t);
                }
            }
        }
    }
    let stateful_share = fair_shares(&capacity, stateful_tasks, u64::MAX);
    let cost: Vec<u64> = match cost {
        Cost::Changelog => (0..plan.task_count()).map(|t| plan.move_cost(t)).collect(),
        Cost::Receiver => move_costs(plan, &loads.stateful, &stateful_share),
    };
    // Within a member the cheapest tasks move first, ties to the later task (a member keeps
    // its first tasks).
    for tasks in stateful_by_owner.iter_mut().chain(&mut stateless_by_owner) {
        sort::by_key(tasks, |&t| (cost[t], Reverse(t)));
    }
    let stateful = level(
        plan,
        &loads.stateful,
        &stateful_share,
        &stateful_by_owner,
        &cost,
    );
    let mut total = loads.total.clone();
    for &t in &stateful.moving {
        if let Some(o) = plan.owner[t] {
            total[o] -= 1;
        }
    }
    for (p, g) in stateful.gains.iter().enumerate() {
        total[p] += g;
    }
    let stateless = level(
        plan,
        &total,
        &fair_shares(&capacity, plan.task_count() as u64, u64::MAX),
        &stateless_by_owner,
        &cost,
    );
    (stateful, stateless)
}

/// What moving each task costs: the records its cheapest receiver must replay. A member that
/// will receive stateful work (not leaving, under its share) and already holds some of the
/// task's state replays only its lag (a member back from a restart with its disk, a standby);
/// otherwise the receiver restores the whole changelog. A stateless task costs nothing.
fn move_costs(plan: &Plan<'_>, stateful_loads: &[u64], share: &[Share]) -> Vec<u64> {
    (0..plan.task_count())
        .map(|t| {
            let held = plan.holders[t]
                .iter()
                .filter(|&&(p, _)| {
                    Some(p) != plan.owner[t] && !plan.leaving(p) && stateful_loads[p] < share[p].lo
                })
                .map(|&(_, lag)| lag)
                .min();
            held.map_or(plan.move_cost(t), |lag| lag.min(plan.move_cost(t)))
        })
        .collect()
}

/// One level of [`plan_moves`]: everything a leaving member still runs moves, and whatever
/// puts a member over its share; if some member is still under its share, members above
/// theirs give their cheapest tasks, the most loaded first. `by_owner` lists each member's
/// movable tasks of this level, cheapest first by `cost`.
fn level(
    plan: &Plan<'_>,
    loads: &[u64],
    share: &[Share],
    by_owner: &[Vec<usize>],
    cost: &[u64],
) -> Rebalance {
    let k = plan.input.members.len();
    let mut gains = vec![0u64; k];
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
        let mut candidates: Vec<(u64, Reverse<LoadKey>, usize, Reverse<usize>)> = Vec::new();
        for p in 0..k {
            if plan.leaving(p) || left[p] <= share[p].lo {
                continue;
            }
            for &t in &by_owner[p][taken[p]..] {
                candidates.push((
                    cost[t],
                    Reverse(LoadKey::new(left[p], plan.capacity(p))),
                    p,
                    Reverse(t),
                ));
            }
        }
        sort::ascending(&mut candidates);
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
    sort::ascending(&mut moving);
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
/// in join order, each up to its gain. Where replicas are spread over zones, a receiver in a
/// zone the task's replicas do not use yet comes first (KIP-708). Returns (task, receiver)
/// pairs.
pub(crate) fn match_receivers(
    plan: &Plan<'_>,
    moving: &[usize],
    gains: &mut [u64],
) -> Vec<(usize, Pos)> {
    let mut pairs = Vec::with_capacity(moving.len());
    let mut rest = Vec::new();
    for &t in moving {
        let warm = if plan.stateful(t) {
            let used = plan.replica_zones(t);
            plan.holders[t]
                .iter()
                .filter(|&&(p, _)| gains[p] > 0 && Some(p) != plan.owner[t])
                .min_by_key(|&&(p, lag)| {
                    (
                        !plan.zone_is_new(p, &used),
                        !plan.reported_standbys[t].contains(&p),
                        lag,
                        p,
                    )
                })
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
        let owner = plan.owner[t];
        let with_room = |p: &Pos| gains[*p] > 0 && Some(*p) != owner;
        let chosen = if plan.zoned && plan.stateful(t) {
            let used = plan.replica_zones(t);
            (receiver..gains.len())
                .filter(with_room)
                .find(|&p| plan.zone_is_new(p, &used))
                .or_else(|| (receiver..gains.len()).find(with_room))
        } else {
            // A task never moves to its own owner; the next receiver with room takes it.
            (receiver..gains.len()).find(with_room)
        };
        if let Some(p) = chosen {
            gains[p] -= 1;
            pairs.push((t, p));
        }
    }
    pairs
}
