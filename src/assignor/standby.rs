//! Standby replicas for the sticky strategies (docs/design.md, rule 8): never beside the
//! task's active or learner, never on a leaving member, spread over zones first (KIP-708),
//! and balanced so that each member's stateful replicas (actives, learners and standbys) stay
//! within its share by capacity. Standbys stay where they are unless balance or zones say
//! otherwise; a standby that moves replays on its new member, so members that already hold
//! the state are preferred.

use super::load::{fair_shares, LoadKey, Share};
use super::plan::{Plan, Pos};
use crate::model::sort;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The standbys of one decision while they are being placed.
struct Standbys<'p, 'a> {
    plan: &'p Plan<'a>,
    /// Standby holders of each task.
    of_task: Vec<Vec<Pos>>,
    /// Standby tasks of each member.
    of_member: Vec<Vec<usize>>,
    /// Stateful replicas each member holds: actives (of members that stay), learners and
    /// standbys.
    load: Vec<u64>,
    /// Each member's share of the replicas.
    share: Vec<Share>,
    /// The most replicas a member can hold: one of each stateful task.
    limit: u64,
    /// Members that may hold standbys.
    receivers: Vec<Pos>,
    /// Standbys each task should have.
    wanted: Vec<usize>,
}

impl Plan<'_> {
    /// Places standby replicas (rule 8): keeps the standbys members report unless their member
    /// is over its share or their task's replicas could use another zone, places the missing
    /// ones (a learner counts as one of its task's replicas) on members with room, zones first,
    /// then members holding the state, then the least loaded, and finally moves standbys from
    /// members over their share to members under it.
    pub fn place_standbys(&mut self) {
        let replicas = self.input.config.num_standby_replicas as usize;
        if replicas == 0 {
            return;
        }
        let receivers: Vec<Pos> = (0..self.input.members.len())
            .filter(|&p| !self.leaving(p))
            .collect();
        if receivers.is_empty() {
            return;
        }
        let mut standbys = Standbys::new(self, receivers, replicas);
        standbys.fill();
        standbys.shed_excess();
        standbys.raise_to_share();
        standbys.level();
        let mut of_task = standbys.of_task;
        for (t, holders) in of_task.iter_mut().enumerate() {
            sort::ascending(holders);
            self.standbys[t] = std::mem::take(holders);
        }
    }
}

impl<'p, 'a> Standbys<'p, 'a> {
    /// The standbys worth keeping and the shares of the replicas.
    fn new(plan: &'p Plan<'a>, receivers: Vec<Pos>, replicas: usize) -> Self {
        let k = plan.input.members.len();
        let stateful: Vec<usize> = (0..plan.task_count())
            .filter(|&t| plan.stateful(t))
            .collect();
        let mut is_receiver = vec![false; k];
        for &p in &receivers {
            is_receiver[p] = true;
        }
        let mut standbys = Standbys {
            plan,
            of_task: vec![Vec::new(); plan.task_count()],
            of_member: vec![Vec::new(); k],
            load: vec![0; k],
            share: Vec::new(),
            limit: stateful.len() as u64,
            receivers,
            wanted: vec![0; plan.task_count()],
        };
        let mut units = 0;
        for &t in &stateful {
            let (owner, learner) = (plan.owner[t], plan.learner[t]);
            let mut holding = 0;
            for p in owner.into_iter().chain(learner) {
                if is_receiver[p] {
                    standbys.load[p] += 1;
                    holding += 1;
                }
            }
            let wanted = replicas
                .saturating_sub(usize::from(learner.is_some()))
                .min(standbys.receivers.len() - holding);
            units += (holding + wanted) as u64;
            standbys.wanted[t] = wanted;
            let mut kept: Vec<Pos> = plan.reported_standbys[t]
                .iter()
                .copied()
                .filter(|&p| is_receiver[p] && Some(p) != owner && Some(p) != learner)
                .collect();
            sort::by_key(&mut kept, |&p| (plan.lag(t, p).unwrap_or(u64::MAX), p));
            kept.truncate(wanted);
            for p in standbys.spread_over_zones(t, kept) {
                standbys.add(t, p);
            }
        }
        let capacity: Vec<u64> = (0..k)
            .map(|p| if is_receiver[p] { plan.capacity(p) } else { 0 })
            .collect();
        standbys.share = fair_shares(&capacity, units, standbys.limit);
        // A member over its share keeps the standbys it holds state of best.
        for p in standbys.receivers.clone() {
            while standbys.load[p] > standbys.share[p].hi {
                let Some(&t) = standbys.of_member[p]
                    .iter()
                    .max_by_key(|&&t| (plan.lag(t, p).unwrap_or(u64::MAX), t))
                else {
                    break;
                };
                standbys.remove(t, p);
            }
        }
        standbys
    }

    /// The standbys of a task worth keeping for its zones (KIP-708): those that add a zone to
    /// its owner's and learner's, and of the others only as many as cannot move to a zone no
    /// replica uses yet (the most caught-up ones; `kept` is sorted by lag).
    fn spread_over_zones(&self, t: usize, kept: Vec<Pos>) -> Vec<Pos> {
        let plan = self.plan;
        if !plan.zoned {
            return kept;
        }
        let mut used = self.zones_of(t, None);
        let (mut spread, mut doubled) = (Vec::new(), Vec::new());
        for p in kept {
            if used.contains(&plan.zone_of[p]) {
                doubled.push(p);
            } else {
                used.push(plan.zone_of[p]);
                spread.push(p);
            }
        }
        let free = plan
            .receiver_zones
            .iter()
            .enumerate()
            .filter(|&(z, &has)| has && !used.contains(&z))
            .count();
        doubled.truncate(doubled.len().saturating_sub(free));
        spread.extend(doubled);
        spread
    }

    /// The zones of a task's replicas (its owner, learner and standbys placed so far), leaving
    /// out one member; none when replicas are not spread over zones (as
    /// [`Plan::replica_zones`]).
    fn zones_of(&self, t: usize, without: Option<Pos>) -> Vec<usize> {
        let plan = self.plan;
        if !plan.zoned {
            return Vec::new();
        }
        let mut zones: Vec<usize> = plan.owner[t]
            .into_iter()
            .chain(plan.learner[t])
            .chain(self.of_task[t].iter().copied())
            .filter(|&p| Some(p) != without)
            .map(|p| plan.zone_of[p])
            .collect();
        sort::ascending(&mut zones);
        zones.dedup();
        zones
    }

    fn holds(&self, t: usize, p: Pos) -> bool {
        self.plan.owner[t] == Some(p)
            || self.plan.learner[t] == Some(p)
            || self.of_task[t].contains(&p)
    }

    fn add(&mut self, t: usize, p: Pos) {
        self.of_task[t].push(p);
        self.of_member[p].push(t);
        self.load[p] += 1;
    }

    fn remove(&mut self, t: usize, p: Pos) {
        self.of_task[t].retain(|&x| x != p);
        self.of_member[p].retain(|&x| x != t);
        self.load[p] -= 1;
    }

    fn key(&self, p: Pos) -> LoadKey {
        LoadKey::new(self.load[p], self.plan.capacity(p))
    }

    /// How much room a member has: 2 under its share's lower bound, 1 under its upper bound.
    fn room(&self, p: Pos) -> u8 {
        if self.load[p] < self.share[p].lo {
            2
        } else if self.load[p] < self.share[p].hi {
            1
        } else {
            0
        }
    }

    /// Places the missing standbys of every stateful task, in task order. The members are
    /// kept in one heap per zone (one heap when zones are not used), by load.
    fn fill(&mut self) {
        let plan = self.plan;
        let groups = if plan.zoned {
            plan.receiver_zones.len()
        } else {
            1
        };
        let group = |p: Pos| if plan.zoned { plan.zone_of[p] } else { 0 };
        let mut heaps: Vec<BinaryHeap<Reverse<(LoadKey, Pos)>>> = vec![BinaryHeap::new(); groups];
        for &p in &self.receivers {
            heaps[group(p)].push(Reverse((self.key(p), p)));
        }
        for t in 0..plan.task_count() {
            while self.of_task[t].len() < self.wanted[t] {
                let used = self.zones_of(t, None);
                let rank = |p: Pos| {
                    (
                        !plan.zone_is_new(p, &used),
                        Reverse(self.room(p)),
                        plan.lag(t, p).unwrap_or(u64::MAX),
                        self.key(p),
                        p,
                    )
                };
                let mut best: Option<Pos> = plan.holders[t]
                    .iter()
                    .map(|&(p, _)| p)
                    .filter(|&p| !plan.leaving(p) && !self.holds(t, p))
                    .min_by_key(|&p| rank(p));
                for heap in &mut heaps {
                    let mut stash = Vec::new();
                    while let Some(Reverse((key, p))) = heap.pop() {
                        if key_load_changed(&key, self.load[p]) {
                            continue;
                        }
                        stash.push(Reverse((key, p)));
                        if !self.holds(t, p) {
                            if best.is_none_or(|b| rank(p) < rank(b)) {
                                best = Some(p);
                            }
                            break;
                        }
                    }
                    heap.extend(stash);
                }
                let Some(p) = best else { break };
                self.add(t, p);
                heaps[group(p)].push(Reverse((self.key(p), p)));
            }
        }
    }

    /// A standby of `from` that `to` could hold instead without losing a zone, preferring one
    /// whose state `to` already holds.
    fn movable(&self, from: Pos, to: Pos) -> Option<usize> {
        let plan = self.plan;
        self.of_member[from]
            .iter()
            .copied()
            .filter(|&t| !self.holds(t, to) && self.keeps_zones(t, from, to))
            .min_by_key(|&t| (plan.lag(t, to).unwrap_or(u64::MAX), t))
    }

    /// Whether moving a task's replica from one member to another keeps as many zones among
    /// its replicas.
    fn keeps_zones(&self, t: usize, from: Pos, to: Pos) -> bool {
        let plan = self.plan;
        if !plan.zoned {
            return true;
        }
        let others = self.zones_of(t, Some(from));
        others.contains(&plan.zone_of[from]) || !others.contains(&plan.zone_of[to])
    }

    fn shift(&mut self, t: usize, from: Pos, to: Pos) {
        self.remove(t, from);
        self.add(t, to);
    }

    /// A standby of `from` and a member with room holding its state that could take it
    /// instead (the most caught up).
    fn warm_taker(&self, from: Pos) -> Option<(usize, Pos)> {
        let plan = self.plan;
        self.of_member[from]
            .iter()
            .flat_map(|&t| plan.holders[t].iter().map(move |&(q, lag)| (lag, t, q)))
            .filter(|&(_, t, q)| {
                q != from
                    && !plan.leaving(q)
                    && self.room(q) > 0
                    && !self.holds(t, q)
                    && self.keeps_zones(t, from, q)
            })
            .min()
            .map(|(_, t, q)| (t, q))
    }

    /// A standby whose state `to` holds, on a member over its share's lower bound that could
    /// hand it over (the most caught up state first).
    fn warm_donor(&self, to: Pos) -> Option<(usize, Pos)> {
        let plan = self.plan;
        let mut held: Vec<(u64, usize)> = plan.input.members[to]
            .lags
            .iter()
            .map(|&(t, lag)| (lag, t.index()))
            .filter(|&(_, t)| plan.stateful(t) && !self.holds(t, to))
            .collect();
        sort::ascending(&mut held);
        held.into_iter().find_map(|(_, t)| {
            self.of_task[t]
                .iter()
                .copied()
                .filter(|&p| self.load[p] > self.share[p].lo && self.keeps_zones(t, p, to))
                .max_by_key(|&p| (self.key(p), Reverse(p)))
                .map(|p| (t, p))
        })
    }

    /// Members over their share hand standbys to the least loaded members under theirs.
    fn shed_excess(&mut self) {
        let mut under: BinaryHeap<Reverse<(LoadKey, Pos)>> = self
            .receivers
            .iter()
            .filter(|&&q| self.room(q) > 0)
            .map(|&q| Reverse((self.key(q), q)))
            .collect();
        for p in self.receivers.clone() {
            while self.load[p] > self.share[p].hi {
                // A member with room that holds the state of one of these standbys first.
                if let Some((t, q)) = self.warm_taker(p) {
                    self.shift(t, p, q);
                    if self.room(q) > 0 {
                        under.push(Reverse((self.key(q), q)));
                    }
                    continue;
                }
                let mut stash = Vec::new();
                let mut moved = false;
                while let Some(Reverse((key, q))) = under.pop() {
                    if key_load_changed(&key, self.load[q]) || self.room(q) == 0 {
                        continue;
                    }
                    if let Some(t) = self.movable(p, q) {
                        self.shift(t, p, q);
                        if self.room(q) > 0 {
                            under.push(Reverse((self.key(q), q)));
                        }
                        moved = true;
                        break;
                    }
                    stash.push(Reverse((key, q)));
                }
                under.extend(stash);
                if !moved {
                    break;
                }
            }
        }
        // What no direct move could fix, a chain of moves may: a member with room takes a
        // standby from one that hands one on, and so on back to a member over its share.
        let mut with_room: Vec<Pos> = self
            .receivers
            .iter()
            .copied()
            .filter(|&q| self.room(q) > 0)
            .collect();
        sort::by_key(&mut with_room, |&q| (self.key(q), q));
        for q in with_room {
            while self.room(q) > 0
                && self
                    .receivers
                    .iter()
                    .any(|&p| self.load[p] > self.share[p].hi)
                && self.chain_to(q, |s, p| s.load[p] > s.share[p].hi)
            {}
        }
    }

    /// Members under their share take standbys from the most loaded members over theirs.
    fn raise_to_share(&mut self) {
        let mut short: Vec<Pos> = self
            .receivers
            .iter()
            .copied()
            .filter(|&q| self.load[q] < self.share[q].lo)
            .collect();
        if short.is_empty() {
            return;
        }
        sort::by_key(&mut short, |&q| (self.key(q), q));
        let mut donors: BinaryHeap<(LoadKey, Reverse<Pos>)> = self
            .receivers
            .iter()
            .filter(|&&p| self.load[p] > self.share[p].lo)
            .map(|&p| (self.key(p), Reverse(p)))
            .collect();
        for q in short {
            while self.load[q] < self.share[q].lo {
                // A standby whose state the member already holds first.
                if let Some((t, p)) = self.warm_donor(q) {
                    self.shift(t, p, q);
                    if self.load[p] > self.share[p].lo {
                        donors.push((self.key(p), Reverse(p)));
                    }
                    continue;
                }
                let mut stash = Vec::new();
                let mut moved = false;
                while let Some((key, Reverse(p))) = donors.pop() {
                    if key_load_changed(&key, self.load[p]) || self.load[p] <= self.share[p].lo {
                        continue;
                    }
                    if let Some(t) = self.movable(p, q) {
                        self.shift(t, p, q);
                        if self.load[p] > self.share[p].lo {
                            donors.push((self.key(p), Reverse(p)));
                        }
                        moved = true;
                        break;
                    }
                    stash.push((key, Reverse(p)));
                }
                donors.extend(stash);
                if !moved {
                    break;
                }
            }
            while self.load[q] < self.share[q].lo
                && self.chain_to(q, |s, p| s.load[p] > s.share[p].lo)
            {}
        }
    }

    /// Moves one standby toward `to` along a chain of members, each handing a standby to the
    /// next, starting from a member `donor` accepts (found breadth first, so the chain is as
    /// short as can be). Returns whether there was one.
    fn chain_to(&mut self, to: Pos, donor: impl Fn(&Self, Pos) -> bool) -> bool {
        let k = self.plan.input.members.len();
        let mut gives_to: Vec<Option<(Pos, usize)>> = vec![None; k];
        let mut seen = vec![false; k];
        seen[to] = true;
        let mut queue = VecDeque::from([to]);
        while let Some(x) = queue.pop_front() {
            for i in 0..self.receivers.len() {
                let p = self.receivers[i];
                if seen[p] {
                    continue;
                }
                let Some(t) = self.movable(p, x) else {
                    continue;
                };
                seen[p] = true;
                gives_to[p] = Some((x, t));
                if donor(self, p) {
                    let mut giver = p;
                    while let Some((taker, t)) = gives_to[giver] {
                        self.shift(t, giver, taker);
                        giver = taker;
                    }
                    return true;
                }
                queue.push_back(p);
            }
        }
        false
    }

    /// Kafka Streams' measure as a last resort: while some member holds more than one replica
    /// per unit of capacity beyond another that could take one (within a zone when zones are
    /// used), move a standby between them, through others if need be.
    fn level(&mut self) {
        let plan = self.plan;
        let group = |p: Pos| if plan.zoned { plan.zone_of[p] } else { 0 };
        loop {
            let mut most: Vec<Option<Pos>> = vec![None; plan.receiver_zones.len().max(1)];
            for &p in &self.receivers {
                let top = &mut most[group(p)];
                if top.is_none_or(|m| self.key(p) > self.key(m)) {
                    *top = Some(p);
                }
            }
            let mut takers: Vec<Pos> = self
                .receivers
                .iter()
                .copied()
                .filter(|&q| {
                    self.load[q] < self.limit
                        && most[group(q)].is_some_and(|p| self.too_far_apart(p, q))
                })
                .collect();
            sort::by_key(&mut takers, |&q| (self.key(q), q));
            let moved = takers
                .into_iter()
                .any(|q| self.chain_to(q, |s, p| group(p) == group(q) && s.too_far_apart(p, q)));
            if !moved {
                break;
            }
        }
    }

    /// Whether `p` holds more than one replica per unit of capacity beyond `q`.
    fn too_far_apart(&self, p: Pos, q: Pos) -> bool {
        let (cp, cq) = (self.plan.capacity(p), self.plan.capacity(q));
        u128::from(self.load[p]) * u128::from(cq)
            > u128::from(self.load[q]) * u128::from(cp) + u128::from(cp) * u128::from(cq)
    }
}

/// Whether a heap entry is stale: the member's load changed since it was pushed.
fn key_load_changed(key: &LoadKey, load: u64) -> bool {
    key.load() != load
}
