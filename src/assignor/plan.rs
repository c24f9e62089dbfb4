//! The working state of one decision of the leader: the join metadata indexed per task, who
//! owns what after this round, orphans (rule 3), revocations (rule 1) and the assignment it
//! becomes.

pub(crate) use super::load::Pos;
use super::load::{
    compare_load, fair_shares, Counts, LeastLoaded, LoadKey, Loads, Share, TaskKinds,
};
use super::measure::zones_in_use;
use super::{AssignError, AssignInput};
use crate::model::{Assignment, MemberAssignment, TaskId};
use std::ops::Deref;
use std::rc::Rc;

/// Lists by task, read-only once built, in one allocation rather than one per task: a large
/// group has thousands of short lists, and growing and freeing each one is most of the cost.
pub(crate) struct ByTask<T> {
    /// Where each task's list starts in `items`; the last entry is the end of the last list.
    start: Vec<usize>,
    items: Vec<T>,
}

impl<T: Copy> ByTask<T> {
    /// Groups `(task, item)` pairs (tasks below `n`) by task, each task's items in the order
    /// given.
    fn group(n: usize, pairs: impl Iterator<Item = (TaskId, T)> + Clone) -> ByTask<T> {
        // Count each task's items, then make the counts the ends of their runs.
        let mut end = vec![0; n + 1];
        for (t, _) in pairs.clone() {
            end[t.index() + 1] += 1;
        }
        for k in 0..n {
            end[k + 1] += end[k];
        }
        // Fill each run from its start (the previous run's end), moving that mark along; the
        // first item fills every slot until it is written.
        let mut items = pairs
            .clone()
            .next()
            .map_or_else(Vec::new, |(_, first)| vec![first; end[n]]);
        for (t, item) in pairs {
            let at = &mut end[t.index()];
            items[*at] = item;
            *at += 1;
        }
        end.rotate_right(1);
        end[0] = 0;
        ByTask { start: end, items }
    }
}

impl<T> std::ops::Index<usize> for ByTask<T> {
    type Output = [T];

    fn index(&self, task: usize) -> &[T] {
        &self.items[self.start[task]..self.start[task + 1]]
    }
}

/// What the members reported at this join, indexed per task: fixed once [`Plan::new`] has
/// checked it, read by every rule (a [`Plan`] reads as its `Reported`).
pub(crate) struct Reported<'a> {
    pub input: AssignInput<'a>,
    /// Who reported running each task at this join.
    pub reported_owner: Vec<Option<Pos>>,
    /// Who released each task at this join (it ran the task until it joined).
    pub releaser: Vec<Option<Pos>>,
    /// The learner each task had when members joined.
    pub reported_learner: Vec<Option<Pos>>,
    /// Members holding local state of each task, with its lag, as reported.
    pub holders: ByTask<(Pos, u64)>,
    /// Standby holders of each task, as reported.
    pub reported_standbys: ByTask<Pos>,
    /// Replicas are spread over zones (rack-aware placement is on and every member reports
    /// a zone).
    pub zoned: bool,
    /// Each member's zone as a small number (members without a zone share one).
    pub zone_of: Vec<usize>,
    /// Which of those zones have a member that stays (one that can take new replicas).
    pub receiver_zones: Vec<bool>,
    /// Each task's subtopology, numbered from 0 in order of first appearance.
    group: Vec<u32>,
    /// The tasks of each subtopology: stateful ones and all of them.
    group_sizes: Vec<Counts>,
}

/// The working state of one assignment: the join as reported, and per-task vectors filled in
/// rule by rule, each written only through its own methods.
pub(crate) struct Plan<'a> {
    reported: Reported<'a>,
    /// Who runs each task after this round (written by [`Plan::assign`] and
    /// [`Plan::revoke`]).
    owner: Vec<Option<Pos>>,
    /// The learner of each task after this round (written by [`Plan::add_learner`] and
    /// [`Plan::drop_learner`]).
    learner: Vec<Option<Pos>>,
    /// Standby holders of each task after this round, in order (written by
    /// [`Plan::add_standby`] and [`Plan::set_standbys`]).
    standbys: Vec<Vec<Pos>>,
    /// Tasks revoked from their owner this round, to be assigned at the follow-up.
    revoking: Vec<bool>,
    /// Another rebalance is needed right after this one.
    followup: bool,
    /// Learners that will not take the task over: warm-ups of standbys (KIP-441).
    warmups: Vec<Vec<Pos>>,
}

impl<'a> Deref for Plan<'a> {
    type Target = Reported<'a>;

    fn deref(&self) -> &Reported<'a> {
        &self.reported
    }
}

impl TaskKinds for Plan<'_> {
    fn stateful(&self, task: usize) -> bool {
        Plan::stateful(self, task)
    }

    fn group(&self, task: usize) -> u32 {
        Plan::group(self, task)
    }
}

impl<'a> Reported<'a> {
    /// Indexes the join metadata, checking that it could have come from correct members.
    fn new(input: AssignInput<'a>) -> Result<Reported<'a>, AssignError> {
        let n = input.tasks.len();
        let (group, group_sizes) = subtopology_numbers(input);
        let (zone_of, receiver_zones) = zone_numbers(input);
        let mut reported_owner: Vec<Option<Pos>> = vec![None; n];
        let mut reported_learner = vec![None; n];
        let mut seen = rustc_hash::FxHashSet::with_capacity_and_hasher(
            input.members.len(),
            Default::default(),
        );
        for (pos, meta) in input.members.iter().enumerate() {
            if !seen.insert(meta.member) {
                return Err(AssignError::DuplicateMember(meta.member));
            }
            check_member(meta, n)?;
            for &task in &meta.assigned {
                if let Some(first) = reported_owner[task.index()] {
                    return Err(AssignError::OwnedTwice {
                        task,
                        first: input.members[first].member,
                        second: meta.member,
                    });
                }
                reported_owner[task.index()] = Some(pos);
            }
            for &task in &meta.learning {
                reported_learner[task.index()].get_or_insert(pos);
            }
        }
        let members = || input.members.iter().enumerate();
        let holders = ByTask::group(
            n,
            members().flat_map(|(pos, m)| m.lags.iter().map(move |&(t, lag)| (t, (pos, lag)))),
        );
        let reported_standbys = ByTask::group(
            n,
            members().flat_map(|(pos, m)| m.standby.iter().map(move |&t| (t, pos))),
        );
        let mut releaser = vec![None; n];
        for (pos, meta) in members() {
            for &task in &meta.revoked {
                if reported_owner[task.index()].is_none() {
                    releaser[task.index()].get_or_insert(pos);
                }
            }
        }
        Ok(Reported {
            input,
            reported_owner,
            releaser,
            reported_learner,
            holders,
            reported_standbys,
            zoned: zones_in_use(
                input.config.rack_aware_standbys,
                input.members.iter().map(|m| m.zone.as_deref()),
            ),
            zone_of,
            receiver_zones,
            group,
            group_sizes,
        })
    }
}

/// Each task's subtopology numbered from 0 in order of first appearance, and the tasks of
/// each: stateful ones and all of them.
fn subtopology_numbers(input: AssignInput<'_>) -> (Vec<u32>, Vec<Counts>) {
    let mut numbers = rustc_hash::FxHashMap::default();
    let mut group = Vec::with_capacity(input.tasks.len());
    let mut sizes: Vec<Counts> = Vec::new();
    for task in input.tasks {
        let next = numbers.len() as u32;
        let g = *numbers.entry(task.subtopology).or_insert(next);
        if g as usize == sizes.len() {
            sizes.push(Counts::default());
        }
        let size = &mut sizes[g as usize];
        size.total += 1;
        size.stateful += u64::from(task.stateful);
        group.push(g);
    }
    (group, sizes)
}

/// Each member's zone as a small number (members without a zone share one), and which of
/// those zones have a member that stays.
fn zone_numbers(input: AssignInput<'_>) -> (Vec<usize>, Vec<bool>) {
    let mut names: Vec<Option<&str>> = Vec::new();
    let zone_of: Vec<usize> = input
        .members
        .iter()
        .map(|meta| {
            let zone = meta.zone.as_deref();
            names.iter().position(|&z| z == zone).unwrap_or_else(|| {
                names.push(zone);
                names.len() - 1
            })
        })
        .collect();
    let mut receiver_zones = vec![false; names.len()];
    for p in receivers(input) {
        receiver_zones[zone_of[p]] = true;
    }
    (zone_of, receiver_zones)
}

/// The members that may receive new work: those not leaving, or everyone if all leave.
fn receivers(input: AssignInput<'_>) -> Vec<Pos> {
    let all = 0..input.members.len();
    let staying: Vec<Pos> = all.clone().filter(|&p| !input.members[p].leaving).collect();
    if staying.is_empty() {
        all.collect()
    } else {
        staying
    }
}

/// Refuses a member's report that names a task beyond the task list or has no capacity.
fn check_member(meta: &crate::model::JoinMetadata, n: usize) -> Result<(), AssignError> {
    if meta.capacity == 0 {
        return Err(AssignError::ZeroCapacity(meta.member));
    }
    let lists = [&meta.assigned, &meta.revoked, &meta.learning, &meta.standby];
    let listed = lists.into_iter().flatten().copied();
    let unknown = listed
        .chain(meta.lags.iter().map(|&(t, _)| t))
        .find(|t| t.index() >= n);
    match unknown {
        Some(task) => Err(AssignError::UnknownTask {
            member: meta.member,
            task,
        }),
        None => Ok(()),
    }
}

impl<'a> Plan<'a> {
    /// Indexes the join metadata, checking that it could have come from correct members; at
    /// first every task stays with the member that reported running it.
    pub fn new(input: AssignInput<'a>) -> Result<Plan<'a>, AssignError> {
        let reported = Reported::new(input)?;
        let n = input.tasks.len();
        Ok(Plan {
            owner: reported.reported_owner.clone(),
            reported,
            learner: vec![None; n],
            standbys: vec![Vec::new(); n],
            revoking: vec![false; n],
            followup: false,
            warmups: vec![Vec::new(); n],
        })
    }

    /// The active tasks each member runs after this round, as currently planned.
    pub fn loads(&self) -> Loads {
        let mut loads = Loads::empty(self.input.members.len());
        for (t, owner) in self.owner.iter().enumerate() {
            if let Some(&o) = owner.as_ref() {
                loads.add(self, o, t);
            }
        }
        loads
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

    /// A task's subtopology, numbered from 0.
    pub fn group(&self, task: usize) -> u32 {
        self.group[task]
    }

    /// Whether every task of a subtopology is stateful.
    pub fn only_stateful(&self, group: u32) -> bool {
        let size = self.group_sizes[group as usize];
        size.stateful == size.total
    }

    /// The tasks of each subtopology, by number: stateful ones and all of them.
    pub fn group_sizes(&self) -> impl Iterator<Item = Counts> + '_ {
        self.group_sizes.iter().copied()
    }

    /// The lag of a member's local state of a task, if it holds any.
    pub fn lag(&self, task: usize, pos: Pos) -> Option<u64> {
        self.holders[task]
            .iter()
            .find(|&&(p, _)| p == pos)
            .map(|&(_, l)| l)
    }

    /// What moving a task to a member without its state costs: the records to replay.
    pub fn move_cost(&self, task: usize) -> u64 {
        if self.stateful(task) {
            self.input.tasks[task].records
        } else {
            0
        }
    }

    /// The members that may receive new work: those not leaving, or everyone if all leave.
    pub fn receivers(&self) -> Vec<Pos> {
        receivers(self.input)
    }

    /// Gives an orphan to the best candidate by rule 3 (docs/design.md): its ready learner, else
    /// the member that released it, else a caught-up copy of its state, else the member with the
    /// smallest lag, else the least loaded member (under its shares first, rule 9): by stateful
    /// tasks for a stateful task, then by all tasks (so that a new group starts balanced at both
    /// levels and in every subtopology).
    pub fn assign_orphans(&mut self, loads: &mut Loads) {
        let candidates = self.receivers();
        let acceptable = self.input.config.acceptable_recovery_lag;
        let mut is_candidate = vec![false; self.input.members.len()];
        for &c in &candidates {
            is_candidate[c] = true;
        }
        let orphans = self.orphans_in_order(&is_candidate);
        let shares = OrphanShares::new(self, &is_candidate);
        // Candidates under the lower bound of their share of the stateful tasks.
        let mut short = candidates
            .iter()
            .filter(|&&p| loads.stateful[p] < shares.stateful[p].lo)
            .count();
        // One heap for the subtopology at hand: the orphans that need one come by subtopology.
        let mut stamps = vec![0u64; self.input.members.len()];
        let mut least: Option<(usize, LeastLoaded<OrphanKey>)> = None;
        for t in orphans {
            let ready_learner = self.learner[t]
                .filter(|&l| is_candidate[l] && self.lag(t, l).is_some_and(|g| g <= acceptable));
            let chosen = ready_learner
                .or(self.releaser[t])
                .or_else(|| self.caught_up_holder(t, &is_candidate, loads, &shares, short > 0))
                .or_else(|| self.best_holder(t, &is_candidate, loads, &shares, short > 0))
                .or_else(|| {
                    if least
                        .as_ref()
                        .is_none_or(|(like, _)| !OrphanShares::same_heap(self, *like, t))
                    {
                        let heap = LeastLoaded::new(&candidates, &stamps, |p| {
                            shares.key(self, loads, p, t)
                        });
                        least = Some((t, heap));
                    }
                    least.as_mut()?.1.pop_least(&stamps)
                });
            if let Some(pos) = chosen {
                self.assign(t, pos);
                loads.add(self, pos, t);
                if is_candidate[pos]
                    && self.stateful(t)
                    && loads.stateful[pos] == shares.stateful[pos].lo
                {
                    short -= 1;
                }
                stamps[pos] += 1;
                if let Some((like, heap)) = least.as_mut() {
                    heap.update(pos, &stamps, shares.key(self, loads, pos, *like));
                }
            }
        }
    }

    /// The orphans, most caught up first, so the tasks that can resume soonest pick first;
    /// among the others the stateful tasks first, so that the stateless ones even out the
    /// totals, each kind by subtopology.
    fn orphans_in_order(&self, is_candidate: &[bool]) -> Vec<usize> {
        let mut orphans: Vec<(bool, Option<u64>, bool, u32, usize)> = (0..self.task_count())
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
                (best.is_none(), best, !self.stateful(t), self.group(t), t)
            })
            .collect();
        orphans.sort();
        orphans.into_iter().map(|(.., t)| t).collect()
    }

    /// The candidate holding a caught-up copy of a task's state, which can run it at once (rule
    /// 3, step 3): a member with a caught-up standby, or a member under its share of the
    /// stateful tasks that kept a caught-up store (back from a restart with its disk, and
    /// nobody ran the task meanwhile). Members under their share come first (as for every
    /// orphan; of the stateful tasks, then not full in all tasks, then of the task's
    /// subtopology: a task revoked from a member over its share of all tasks keeps a standby
    /// there, and going back to it would undo the revocation), then the least loaded,
    /// then the smallest lag, then a kept store before a standby (the standby then stays where
    /// it is), then join order. See [`Plan::store_counts`] for when a kept store counts.
    fn caught_up_holder(
        &self,
        task: usize,
        is_candidate: &[bool],
        loads: &Loads,
        shares: &OrphanShares,
        someone_short: bool,
    ) -> Option<Pos> {
        if !self.stateful(task) {
            return None;
        }
        let acceptable = self.input.config.acceptable_recovery_lag;
        let g = self.group(task);
        self.holders[task]
            .iter()
            .filter(|&&(p, lag)| {
                is_candidate[p]
                    && lag <= acceptable
                    && (self.reported_standbys[task].contains(&p)
                        || self.store_counts(task, p, loads, shares, someone_short))
            })
            .min_by(|&&(a, la), &&(b, lb)| {
                let standby = |p: Pos| self.reported_standbys[task].contains(&p);
                let room = |p: Pos| {
                    let in_group = loads.of_group(g, p).stateful;
                    (
                        shares.stateful[p].room(loads.stateful[p]),
                        loads.total[p] >= shares.total[p].hi,
                        shares.group(g, p, true).room(in_group),
                    )
                };
                room(a)
                    .cmp(&room(b))
                    .then_with(|| self.by_load(a, b, loads))
                    .then(la.cmp(&lb))
                    .then(standby(a).cmp(&standby(b)))
                    .then(a.cmp(&b))
            })
            .map(|&(p, _)| p)
    }

    /// The candidate holding a task's state with the smallest lag (rule 3, step 4), ties to
    /// the least loaded, then join order; a holder already at its share of the stateful
    /// tasks, of all tasks or of the task's subtopology is passed over, so that a task revoked
    /// to balance the group does not go straight back to the member it left.
    fn best_holder(
        &self,
        task: usize,
        is_candidate: &[bool],
        loads: &Loads,
        shares: &OrphanShares,
        someone_short: bool,
    ) -> Option<Pos> {
        if !self.stateful(task) {
            return None;
        }
        let g = self.group(task);
        let full = |p: Pos| {
            shares.stateful[p].room(loads.stateful[p]) == 2
                || shares.total[p].room(loads.total[p]) == 2
                || shares.group(g, p, true).room(loads.of_group(g, p).stateful) == 2
        };
        self.holders[task]
            .iter()
            .filter(|&&(p, _)| {
                is_candidate[p]
                    && !full(p)
                    && self.store_counts(task, p, loads, shares, someone_short)
            })
            .min_by(|&&(a, la), &&(b, lb)| {
                la.cmp(&lb)
                    .then_with(|| self.by_load(a, b, loads))
                    .then(a.cmp(&b))
            })
            .map(|&(p, _)| p)
    }

    /// Whether a member's copy of a task's state draws the orphan to it: a standby or a learner
    /// always; a store it merely kept only under the upper bound of its share of the stateful
    /// tasks, and, while some candidate is under the lower bound of its own, only under the
    /// lower bound (as a member back from a restart is). A member that gave the task up to
    /// make room for a member short of its share is at its share, so the task does not go
    /// straight back to it (under cooperative rebalancing the leader would revoke it again at
    /// every follow-up).
    fn store_counts(
        &self,
        task: usize,
        p: Pos,
        loads: &Loads,
        shares: &OrphanShares,
        someone_short: bool,
    ) -> bool {
        let (load, share) = (loads.stateful[p], shares.stateful[p]);
        self.reported_standbys[task].contains(&p)
            || self.learner[task] == Some(p)
            || self.reported_learner[task] == Some(p)
            || (load < share.hi && (load < share.lo || !someone_short))
    }

    /// Orders two members by stateful tasks per unit of capacity, then by all tasks.
    fn by_load(&self, a: Pos, b: Pos, loads: &Loads) -> std::cmp::Ordering {
        let by = |l: &[u64]| compare_load(l[a], self.capacity(a), l[b], self.capacity(b));
        by(&loads.stateful).then_with(|| by(&loads.total))
    }

    /// The zones a task's replicas use: its owner's, its learner's and its reported
    /// standbys' (of members that stay), each once; none when replicas are not spread over
    /// zones (no rule looks at them then, see [`Plan::zone_is_new`]).
    pub fn replica_zones(&self, task: usize) -> Vec<usize> {
        if !self.zoned {
            return Vec::new();
        }
        let mut zones: Vec<usize> = self.owner[task]
            .into_iter()
            .chain(self.learner[task])
            .chain(
                self.reported_standbys[task]
                    .iter()
                    .copied()
                    .filter(|&p| !self.leaving(p)),
            )
            .map(|p| self.zone_of[p])
            .collect();
        zones.sort();
        zones.dedup();
        zones
    }

    /// Whether a member is a good place for another replica of a task whose replicas use the
    /// zones `used` (KIP-708): it is in a zone they do not use yet, or no staying member is.
    /// Always true when replicas are not spread over zones.
    pub fn zone_is_new(&self, pos: Pos, used: &[usize]) -> bool {
        !self.zoned || !used.contains(&self.zone_of[pos]) || !self.free_zone_exists(used)
    }

    /// Whether some staying member is in a zone outside `used`.
    fn free_zone_exists(&self, used: &[usize]) -> bool {
        self.receiver_zones
            .iter()
            .enumerate()
            .any(|(z, &has)| has && !used.contains(&z))
    }

    /// Who runs a task after this round.
    pub fn owner(&self, task: usize) -> Option<Pos> {
        self.owner[task]
    }

    /// The learner of a task after this round.
    pub fn learner(&self, task: usize) -> Option<Pos> {
        self.learner[task]
    }

    /// How many tasks have a learner.
    pub fn learner_count(&self) -> usize {
        self.learner.iter().flatten().count()
    }

    /// Whether a task is revoked this round, to be assigned at the follow-up.
    pub fn revoking(&self, task: usize) -> bool {
        self.revoking[task]
    }

    /// Gives a task to a member to run from this round. Never a second owner (rule 1): the
    /// task is reported run by nobody else, and the member neither learns it nor stands by
    /// for it any longer.
    pub fn assign(&mut self, task: usize, to: Pos) {
        debug_assert!(
            self.reported_owner[task].is_none_or(|r| r == to),
            "assigned while another member runs it"
        );
        self.owner[task] = Some(to);
        if self.learner[task] == Some(to) {
            self.learner[task] = None;
        }
        self.standbys[task].retain(|&p| p != to);
    }

    /// A member learns a task (rule 4); that it is not the task's owner once the plan is
    /// done is checked by [`Plan::into_assignment`] (KIP-441 lays a plan out in Kafka's order,
    /// where an owner is replaced after its warm-up is placed).
    pub fn add_learner(&mut self, task: usize, learner: Pos) {
        self.learner[task] = Some(learner);
    }

    /// The task has no learner any more.
    pub fn drop_learner(&mut self, task: usize) {
        self.learner[task] = None;
    }

    /// A member keeps a standby of a task (once, however often it is added).
    pub fn add_standby(&mut self, task: usize, holder: Pos) {
        let at = self.standbys[task].partition_point(|&p| p < holder);
        if self.standbys[task].get(at) != Some(&holder) {
            self.standbys[task].insert(at, holder);
        }
    }

    /// A task's standby holders, all at once (kept in order).
    pub fn set_standbys(&mut self, task: usize, mut holders: Vec<Pos>) {
        holders.sort();
        holders.dedup();
        self.standbys[task] = holders;
    }

    /// A member warms a task up without taking it over (KIP-441).
    pub fn add_warmup(&mut self, task: usize, member: Pos) {
        self.warmups[task].push(member);
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
        debug_assert!(
            (0..self.task_count()).all(|t| self.owner[t].is_none()
                || (self.learner[t] != self.owner[t]
                    && !self.owner[t].is_some_and(|o| self.standbys[t].contains(&o)))),
            "a learner or standby beside its active"
        );
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
            for &l in self.learner[t].iter().chain(&self.warmups[t]) {
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
            before.sort();
            before.dedup();
            a.revoked = before;
        }
        Assignment {
            members: self
                .input
                .members
                .iter()
                .map(|m| m.member)
                .zip(out.into_iter().map(Rc::new))
                .collect(),
            followup: self.followup,
            probing: false,
        }
    }
}

/// How an orphan without a holder picks its member: full in its subtopology last, then full
/// in its share of all tasks, then by room in the share of the stateful tasks (for a
/// stateful task), room in the subtopology's share, stateful tasks per unit of capacity, and
/// all tasks per unit of capacity; a stateless task skips the stateful measures.
type OrphanKey = (bool, bool, u8, u8, LoadKey, LoadKey);

/// The shares orphans are placed by: of the candidates (members that stay), in proportion to
/// capacity.
struct OrphanShares {
    capacity: Vec<u64>,
    capacity_sum: u64,
    stateful: Vec<Share>,
    total: Vec<Share>,
    group_sizes: Vec<Counts>,
}

impl OrphanShares {
    fn new(plan: &Plan<'_>, is_candidate: &[bool]) -> OrphanShares {
        let capacity: Vec<u64> = (0..plan.input.members.len())
            .map(|p| if is_candidate[p] { plan.capacity(p) } else { 0 })
            .collect();
        let stateful_tasks = plan.group_sizes().map(|s| s.stateful).sum();
        OrphanShares {
            stateful: fair_shares(&capacity, stateful_tasks, u64::MAX),
            total: fair_shares(&capacity, plan.task_count() as u64, u64::MAX),
            capacity_sum: capacity.iter().sum(),
            capacity,
            group_sizes: plan.group_sizes.clone(),
        }
    }

    /// A member's share of a subtopology's stateful tasks, or of all its tasks.
    fn group(&self, group: u32, pos: Pos, stateful: bool) -> Share {
        let size = self.group_sizes[group as usize];
        let units = if stateful { size.stateful } else { size.total };
        Share::proportional(units, self.capacity[pos], self.capacity_sum)
    }

    /// Whether tasks `a` and `b` pick their member from the same heap: the same kind and the
    /// same subtopology.
    fn same_heap(plan: &Plan<'_>, a: usize, b: usize) -> bool {
        plan.stateful(a) == plan.stateful(b) && plan.group(a) == plan.group(b)
    }

    /// How good a place member `pos` is for task `task` (smaller is better).
    fn key(&self, plan: &Plan<'_>, loads: &Loads, pos: Pos, task: usize) -> OrphanKey {
        let g = plan.group(task);
        let cap = plan.capacity(pos);
        let in_group = loads.of_group(g, pos);
        let total_room = self.total[pos].room(loads.total[pos]);
        let total_key = LoadKey::new(loads.total[pos], cap);
        if plan.stateful(task) {
            let group_room = self.group(g, pos, true).room(in_group.stateful);
            (
                group_room == 2,
                total_room == 2,
                self.stateful[pos].room(loads.stateful[pos]),
                group_room,
                LoadKey::new(loads.stateful[pos], cap),
                total_key,
            )
        } else {
            let group_room = self.group(g, pos, false).room(in_group.total);
            (
                group_room == 2,
                total_room == 2,
                total_room,
                group_room,
                total_key,
                LoadKey::new(0, 1),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_by_task_keep_each_tasks_items_in_the_order_given() {
        let pairs = [(2, 'a'), (0, 'b'), (2, 'c'), (0, 'd'), (2, 'e')].map(|(t, c)| (TaskId(t), c));
        let by_task = ByTask::group(4, pairs.iter().copied());
        assert_eq!(&by_task[0], ['b', 'd']);
        assert!(by_task[1].is_empty());
        assert_eq!(&by_task[2], ['a', 'c', 'e']);
        assert!(by_task[3].is_empty());
        let none = ByTask::<char>::group(3, std::iter::empty());
        assert!((0..3).all(|t| none[t].is_empty()));
    }
}
