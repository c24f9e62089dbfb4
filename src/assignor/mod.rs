//! The leader's decision: a pure function from what the members report when they join to
//! what each of them runs, learns and keeps as a standby.
//!
//! [`assign`] dispatches on the strategy. The seed's rules live in [`learner`]; the designs it
//! is compared with live beside it. They share the bookkeeping in [`Plan`]: who owns what after
//! the join, who holds which state, the balanced share of each member, and the standby rule.

pub mod kip441;
pub mod learner;
pub mod sticky;

use crate::model::{
    Assignment, AssignorConfig, JoinMetadata, MemberAssignment, MemberId, Strategy, TaskId,
    TaskInfo,
};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use thiserror::Error;

/// What the leader reads: the configuration, the tasks and every member's join metadata.
#[derive(Clone, Copy, Debug)]
pub struct AssignInput<'a> {
    /// The assignor's settings.
    pub config: &'a AssignorConfig,
    /// Every task of the application, indexed by [`TaskId`].
    pub tasks: &'a [TaskInfo],
    /// The members that joined, in join order; the first is the leader.
    pub members: &'a [JoinMetadata],
}

/// Join metadata that no correct member could have sent.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AssignError {
    /// Two members report running the same task: the rule "never two owners" is broken.
    #[error("task {task:?} is reported as assigned by two members, {first:?} and {second:?}")]
    OwnedTwice {
        /// The task.
        task: TaskId,
        /// The first member reporting it.
        first: MemberId,
        /// The second member reporting it.
        second: MemberId,
    },
    /// A member joined twice in the same round.
    #[error("member {0:?} joined twice")]
    DuplicateMember(MemberId),
    /// A task id beyond the task list.
    #[error("member {member:?} reports task {task:?}, which does not exist")]
    UnknownTask {
        /// The member.
        member: MemberId,
        /// The task id it reported.
        task: TaskId,
    },
    /// A member with no capacity cannot be balanced against.
    #[error("member {0:?} has capacity 0")]
    ZeroCapacity(MemberId),
}

/// Runs the assignor of the configured strategy.
pub fn assign(input: AssignInput<'_>) -> Result<Assignment, AssignError> {
    let plan = Plan::new(input)?;
    Ok(match input.config.strategy {
        Strategy::Learner => learner::assign(plan),
        Strategy::Eager | Strategy::Cooperative => sticky::assign(plan),
        Strategy::Kip441 => kip441::assign(plan),
    })
}

/// A position in the input's member list (join order); the leader is 0.
pub(crate) type Pos = usize;

/// The working state of one assignment: per-task vectors, filled in rule by rule.
pub(crate) struct Plan<'a> {
    pub input: AssignInput<'a>,
    /// Who runs each task after this round.
    pub owner: Vec<Option<Pos>>,
    /// Who reported running each task at this join.
    pub reported_owner: Vec<Option<Pos>>,
    /// Who released each task at this join (it ran the task until it joined).
    pub releaser: Vec<Option<Pos>>,
    /// The learner of each task after this round.
    pub learner: Vec<Option<Pos>>,
    /// The learner each task had when members joined.
    pub reported_learner: Vec<Option<Pos>>,
    /// Standby holders of each task after this round.
    pub standbys: Vec<Vec<Pos>>,
    /// Members holding local state of each task, with its lag, as reported.
    pub holders: Vec<Vec<(Pos, u64)>>,
    /// Standby holders of each task, as reported.
    pub reported_standbys: Vec<Vec<Pos>>,
    /// Tasks revoked from their owner this round, to be assigned at the follow-up.
    pub revoking: Vec<bool>,
    /// Another rebalance is needed right after this one.
    pub followup: bool,
}

impl<'a> Plan<'a> {
    /// Indexes the join metadata, checking that it could have come from correct members.
    pub fn new(input: AssignInput<'a>) -> Result<Plan<'a>, AssignError> {
        let n = input.tasks.len();
        let mut plan = Plan {
            input,
            owner: vec![None; n],
            reported_owner: vec![None; n],
            releaser: vec![None; n],
            learner: vec![None; n],
            reported_learner: vec![None; n],
            standbys: vec![Vec::new(); n],
            holders: vec![Vec::new(); n],
            reported_standbys: vec![Vec::new(); n],
            revoking: vec![false; n],
            followup: false,
        };
        let mut seen = std::collections::HashSet::with_capacity(input.members.len());
        for (pos, meta) in input.members.iter().enumerate() {
            if !seen.insert(meta.member) {
                return Err(AssignError::DuplicateMember(meta.member));
            }
            if meta.capacity == 0 {
                return Err(AssignError::ZeroCapacity(meta.member));
            }
            let lists = [&meta.assigned, &meta.revoked, &meta.learning, &meta.standby];
            for &task in lists.into_iter().flatten() {
                if task.index() >= n {
                    return Err(AssignError::UnknownTask {
                        member: meta.member,
                        task,
                    });
                }
            }
            for &(task, lag) in &meta.lags {
                if task.index() >= n {
                    return Err(AssignError::UnknownTask {
                        member: meta.member,
                        task,
                    });
                }
                plan.holders[task.index()].push((pos, lag));
            }
            for &task in &meta.assigned {
                if let Some(first) = plan.reported_owner[task.index()] {
                    return Err(AssignError::OwnedTwice {
                        task,
                        first: input.members[first].member,
                        second: meta.member,
                    });
                }
                plan.reported_owner[task.index()] = Some(pos);
            }
            for &task in &meta.learning {
                plan.reported_learner[task.index()].get_or_insert(pos);
            }
            for &task in &meta.standby {
                plan.reported_standbys[task.index()].push(pos);
            }
        }
        for (pos, meta) in input.members.iter().enumerate() {
            for &task in &meta.revoked {
                if plan.reported_owner[task.index()].is_none() {
                    plan.releaser[task.index()].get_or_insert(pos);
                }
            }
        }
        plan.owner = plan.reported_owner.clone();
        Ok(plan)
    }

    /// Number of tasks.
    pub fn task_count(&self) -> usize {
        self.input.tasks.len()
    }

    /// Whether a member told the group it is leaving.
    pub fn leaving(&self, pos: Pos) -> bool {
        self.input.members[pos].leaving
    }

    /// The capacity of a member.
    pub fn capacity(&self, pos: Pos) -> u64 {
        u64::from(self.input.members[pos].capacity)
    }

    /// Whether a task has state to restore.
    pub fn stateful(&self, task: usize) -> bool {
        self.input.tasks[task].stateful
    }

    /// The lag of a member's local state of a task, if it holds any.
    pub fn lag(&self, task: usize, pos: Pos) -> Option<u64> {
        self.holders[task]
            .iter()
            .find(|&&(p, _)| p == pos)
            .map(|&(_, l)| l)
    }

    /// Whether a member's state of a task is within the acceptable recovery lag. A member
    /// without the state is as far behind as the whole changelog (as Kafka Streams counts
    /// it), so a task with a short changelog is caught up everywhere.
    pub fn caught_up(&self, task: usize, pos: Pos) -> bool {
        if !self.stateful(task) {
            return true;
        }
        let lag = self
            .lag(task, pos)
            .unwrap_or(self.input.tasks[task].changelog);
        lag <= self.input.config.acceptable_recovery_lag
    }

    /// What moving a task to a member without its state costs: the records to replay.
    pub fn move_cost(&self, task: usize) -> u64 {
        if self.stateful(task) {
            self.input.tasks[task].changelog
        } else {
            0
        }
    }

    /// The members that may receive new work: those not leaving, or everyone if all leave.
    pub fn receivers(&self) -> Vec<Pos> {
        let staying: Vec<Pos> = (0..self.input.members.len())
            .filter(|&p| !self.leaving(p))
            .collect();
        if staying.is_empty() {
            (0..self.input.members.len()).collect()
        } else {
            staying
        }
    }

    /// Active tasks per member after this round, as currently planned.
    pub fn active_counts(&self) -> Vec<u64> {
        let mut counts = vec![0; self.input.members.len()];
        for &o in self.owner.iter().flatten() {
            counts[o] += 1;
        }
        counts
    }

    /// Gives an orphan to the best candidate by rule 3 (system.md): its ready learner, else
    /// the member that released it, else a caught-up standby, else the member with the
    /// smallest lag, ties to the least loaded.
    pub fn assign_orphans(&mut self, loads: &mut [u64]) {
        let candidates = self.receivers();
        let acceptable = self.input.config.acceptable_recovery_lag;
        let is_candidate = {
            let mut v = vec![false; self.input.members.len()];
            for &c in &candidates {
                v[c] = true;
            }
            v
        };
        // Most caught up first, so the tasks that can resume soonest pick first.
        let mut orphans: Vec<(Option<u64>, usize)> = (0..self.task_count())
            .filter(|&t| self.owner[t].is_none() && !self.revoking[t])
            .map(|t| {
                let best = if self.releaser[t].is_some() {
                    Some(0)
                } else if self.stateful(t) {
                    self.holders[t]
                        .iter()
                        .filter(|&&(p, _)| is_candidate[p])
                        .map(|&(_, l)| l)
                        .min()
                } else {
                    None
                };
                (best, t)
            })
            .collect();
        orphans.sort_by_key(|&(best, t)| (best.is_none(), best, t));
        let mut least = LeastLoaded::new(&candidates, loads, |p| self.capacity(p));
        for (_, t) in orphans {
            let ready_learner = self.learner[t]
                .filter(|&l| is_candidate[l] && self.lag(t, l).is_some_and(|g| g <= acceptable));
            let chosen = ready_learner
                .or(self.releaser[t])
                .or_else(|| self.best_holder(t, &is_candidate, loads, true))
                .or_else(|| self.best_holder(t, &is_candidate, loads, false))
                .or_else(|| least.pop_least(loads));
            if let Some(pos) = chosen {
                self.owner[t] = Some(pos);
                loads[pos] += 1;
                least.update(pos, loads);
            }
        }
    }

    /// The candidate holding a task's state with the smallest lag (only caught-up standbys
    /// when `standby_only`), ties to the least loaded, then join order.
    fn best_holder(
        &self,
        task: usize,
        is_candidate: &[bool],
        loads: &[u64],
        standby_only: bool,
    ) -> Option<Pos> {
        if !self.stateful(task) {
            return None;
        }
        let acceptable = self.input.config.acceptable_recovery_lag;
        self.holders[task]
            .iter()
            .filter(|&&(p, lag)| {
                is_candidate[p]
                    && (!standby_only
                        || (lag <= acceptable && self.reported_standbys[task].contains(&p)))
            })
            .min_by(|&&(a, la), &&(b, lb)| {
                la.cmp(&lb)
                    .then_with(|| {
                        compare_load(loads[a], self.capacity(a), loads[b], self.capacity(b))
                    })
                    .then(a.cmp(&b))
            })
            .map(|&(p, _)| p)
    }

    /// Places standby replicas (system.md rule 8): never beside the task's active or
    /// learner, never on a leaving member, each member's total within twice its share.
    /// Existing standbys are kept; a learner counts as one of its task's replicas, since it
    /// holds a warm copy and its old owner keeps one once the task moves. New standbys go to
    /// the least loaded members, and among those to one that already holds the state.
    pub fn place_standbys(&mut self) {
        let replicas = self.input.config.num_standby_replicas as usize;
        if replicas == 0 {
            return;
        }
        let k = self.input.members.len();
        let receivers: Vec<Pos> = (0..k).filter(|&p| !self.leaving(p)).collect();
        if receivers.is_empty() {
            return;
        }
        let stateful = (0..self.task_count()).filter(|&t| self.stateful(t)).count() as u64;
        let units = self.task_count() as u64 + stateful * replicas as u64;
        let total_capacity: u64 = receivers.iter().map(|&p| self.capacity(p)).sum();
        // Twice the expected share, rounded up so that a share under one still allows one.
        let max_total: Vec<u64> = (0..k)
            .map(|p| (2 * units * self.capacity(p)).div_ceil(total_capacity))
            .collect();
        let mut totals = self.active_counts();
        for &l in self.learner.iter().flatten() {
            totals[l] += 1;
        }
        let mut kept_per_task: Vec<Vec<Pos>> = vec![Vec::new(); self.task_count()];
        for (t, kept) in kept_per_task.iter_mut().enumerate() {
            if !self.stateful(t) {
                continue;
            }
            let (owner, learner) = (self.owner[t], self.learner[t]);
            *kept = self.reported_standbys[t]
                .iter()
                .copied()
                .filter(|&p| !self.leaving(p) && Some(p) != owner && Some(p) != learner)
                .collect();
            kept.sort_by_key(|&p| (self.lag(t, p).unwrap_or(u64::MAX), p));
            kept.truncate(replicas.saturating_sub(usize::from(learner.is_some())));
            for &p in kept.iter() {
                totals[p] += 1;
            }
        }
        let mut least = LeastLoaded::new(&receivers, &totals, |p| self.capacity(p));
        for (t, mut kept) in kept_per_task.into_iter().enumerate() {
            if !self.stateful(t) {
                continue;
            }
            let (owner, learner) = (self.owner[t], self.learner[t]);
            let wanted = replicas.saturating_sub(usize::from(learner.is_some()));
            let eligible = |p: Pos, kept: &[Pos], totals: &[u64]| {
                Some(p) != owner
                    && Some(p) != learner
                    && !kept.contains(&p)
                    && totals[p] < max_total[p]
            };
            while kept.len() < wanted {
                // Set aside the least loaded members that cannot take this task.
                let mut skipped = Vec::new();
                let pick = loop {
                    match least.pop_least(&totals) {
                        None => break None,
                        Some(p) if totals[p] >= max_total[p] => least.discard(p),
                        Some(p) if !eligible(p, &kept, &totals) => {
                            skipped.push(p);
                            least.discard(p);
                        }
                        Some(p) => break Some(p),
                    }
                };
                for p in skipped {
                    least.update(p, &totals);
                }
                let Some(p) = pick else { break };
                // Among members as lightly loaded as the pick, prefer one holding the state.
                let key = LoadKey::new(totals[p], self.capacity(p));
                let warm = self.holders[t]
                    .iter()
                    .filter(|&&(h, _)| {
                        !self.leaving(h)
                            && eligible(h, &kept, &totals)
                            && LoadKey::new(totals[h], self.capacity(h)) == key
                    })
                    .min_by_key(|&&(h, lag)| (lag, h))
                    .map(|&(h, _)| h);
                let chosen = warm.unwrap_or(p);
                totals[chosen] += 1;
                least.update(chosen, &totals);
                kept.push(chosen);
            }
            kept.sort_unstable();
            self.standbys[t] = kept;
        }
    }

    /// Revokes a task from its owner now; it is assigned at the follow-up rebalance, once no
    /// member runs it (rule 1).
    pub fn revoke(&mut self, task: usize) {
        self.owner[task] = None;
        self.revoking[task] = true;
        self.followup = true;
    }

    /// Turns the per-task plan into one assignment per member, in join order.
    pub fn into_assignment(self) -> Assignment {
        let k = self.input.members.len();
        let mut out: Vec<MemberAssignment> = vec![MemberAssignment::default(); k];
        for t in 0..self.task_count() {
            let task = TaskId(t as u32);
            if let Some(o) = self.owner[t] {
                out[o].assigned.push(task);
                if self.learner[t].is_some() {
                    out[o].learned.push(task);
                }
            }
            if let Some(l) = self.learner[t] {
                out[l].learning.push(task);
            }
            for &s in &self.standbys[t] {
                out[s].standby.push(task);
            }
        }
        for (pos, a) in out.iter_mut().enumerate() {
            let meta = &self.input.members[pos];
            let mut before: Vec<TaskId> = meta
                .assigned
                .iter()
                .chain(&meta.revoked)
                .copied()
                .filter(|t| self.owner[t.index()] != Some(pos))
                .collect();
            before.sort_unstable();
            before.dedup();
            a.revoked = before;
        }
        Assignment {
            members: self
                .input
                .members
                .iter()
                .map(|m| m.member)
                .zip(out)
                .collect(),
            followup: self.followup,
        }
    }
}

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
