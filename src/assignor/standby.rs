//! Standby replicas for the sticky strategies (docs/design.md, rule 8): never beside the
//! task's active or learner, never on a leaving member, spread over zones first (KIP-708),
//! and balanced so that each member's stateful replicas (actives, learners and standbys) stay
//! within its share by capacity. Standbys stay where they are unless balance or zones say
//! otherwise; a standby that moves replays on its new member, so members that already hold
//! the state are preferred.

use super::load::{fair_shares, Capacities, LoadKey, Share, WaterLevel};
use super::plan::{Plan, Pos};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
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
    /// Stateful replicas of each subtopology each member holds, counted as `load` is; a pair
    /// missing holds none.
    group_load: FxHashMap<(u32, Pos), u64>,
    /// Replicas of each subtopology to place (held and wanted), and of all of them.
    group_units: Vec<u64>,
    units: u64,
    /// The stateful tasks of each subtopology: a member holds at most one replica of each.
    group_limit: Vec<u64>,
    /// Where replicas are spread over zones: each subtopology's replicas in each zone, and the
    /// capacity of each zone's receivers.
    zone_units: FxHashMap<(u32, usize), u64>,
    /// The receivers' capacities, of each zone where replicas are spread over zones, else of
    /// all (as zone 0).
    capacities: Vec<Capacities>,
    /// Each subtopology's water level by zone, with the units it was found for.
    levels: RefCell<FxHashMap<(u32, usize), (u64, WaterLevel)>>,
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
        standbys.spread_subtopologies();
        let mut of_task = standbys.of_task;
        for (t, holders) in of_task.iter_mut().enumerate() {
            self.set_standbys(t, std::mem::take(holders));
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
            group_load: FxHashMap::default(),
            group_units: plan.group_sizes().map(|_| 0).collect(),
            units: 0,
            group_limit: plan.group_sizes().map(|s| s.stateful).collect(),
            zone_units: FxHashMap::default(),
            capacities: Vec::new(),
            levels: RefCell::new(FxHashMap::default()),
        };
        for &t in &stateful {
            let (owner, learner) = (plan.owner(t), plan.learner(t));
            let mut holding = 0;
            for p in owner.into_iter().chain(learner) {
                if is_receiver[p] {
                    standbys.count(t, p, true);
                    holding += 1;
                }
            }
            let wanted = replicas
                .saturating_sub(usize::from(learner.is_some()))
                .min(standbys.receivers.len() - holding);
            standbys.units += (holding + wanted) as u64;
            standbys.group_units[plan.group(t) as usize] += (holding + wanted) as u64;
            standbys.wanted[t] = wanted;
            let mut kept: Vec<Pos> = plan.reported_standbys[t]
                .iter()
                .copied()
                .filter(|&p| is_receiver[p] && Some(p) != owner && Some(p) != learner)
                .collect();
            kept.sort_by_key(|&p| (plan.lag(t, p).unwrap_or(u64::MAX), p));
            kept.truncate(wanted);
            for p in standbys.spread_over_zones(t, kept) {
                standbys.add(t, p);
            }
        }
        let capacity: Vec<u64> = (0..k)
            .map(|p| if is_receiver[p] { plan.capacity(p) } else { 0 })
            .collect();
        standbys.share = fair_shares(&capacity, standbys.units, standbys.limit);
        let zones = if plan.zoned {
            plan.receiver_zones.len()
        } else {
            1
        };
        standbys.capacities = (0..zones)
            .map(|z| {
                Capacities::of(
                    standbys
                        .receivers
                        .iter()
                        .filter(|&&p| !plan.zoned || plan.zone_of[p] == z)
                        .map(|&p| plan.capacity(p)),
                )
            })
            .collect();
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
        let mut zones: Vec<usize> = plan
            .owner(t)
            .into_iter()
            .chain(plan.learner(t))
            .chain(self.of_task[t].iter().copied())
            .filter(|&p| Some(p) != without)
            .map(|p| plan.zone_of[p])
            .collect();
        zones.sort();
        zones.dedup();
        zones
    }

    fn holds(&self, t: usize, p: Pos) -> bool {
        self.plan.owner(t) == Some(p)
            || self.plan.learner(t) == Some(p)
            || self.of_task[t].contains(&p)
    }

    fn add(&mut self, t: usize, p: Pos) {
        self.of_task[t].push(p);
        self.of_member[p].push(t);
        self.count(t, p, true);
    }

    fn remove(&mut self, t: usize, p: Pos) {
        self.of_task[t].retain(|&x| x != p);
        self.of_member[p].retain(|&x| x != t);
        self.count(t, p, false);
    }

    /// Counts one replica of a task more or less on a member.
    fn count(&mut self, t: usize, p: Pos, more: bool) {
        let g = self.plan.group(t);
        let zone = self.plan.zone_of[p];
        for n in [
            &mut self.load[p],
            self.group_load.entry((g, p)).or_default(),
            self.zone_units.entry((g, zone)).or_default(),
        ] {
            if more {
                *n += 1;
            } else {
                *n -= 1;
            }
        }
    }

    /// A member's replicas of a subtopology.
    fn group_load(&self, group: u32, p: Pos) -> u64 {
        self.group_load.get(&(group, p)).copied().unwrap_or(0)
    }

    /// A member's share of a subtopology's replicas: in proportion to its capacity (among the
    /// members of its zone, of the replicas there, where replicas are spread over zones), at
    /// most one of each task; a subtopology of every stateful task shares as the whole does.
    fn group_share(&self, group: u32, p: Pos) -> Share {
        let plan = self.plan;
        let units = self.group_units[group as usize];
        if units == self.units {
            return self.share[p];
        }
        if plan.leaving(p) {
            return Share { lo: 0, hi: 0 };
        }
        let (zone, units) = if plan.zoned {
            let zone = plan.zone_of[p];
            (
                zone,
                self.zone_units.get(&(group, zone)).copied().unwrap_or(0),
            )
        } else {
            (0, units)
        };
        let mut levels = self.levels.borrow_mut();
        let entry = levels.entry((group, zone)).or_insert_with(|| {
            let limit = self.group_limit[group as usize];
            (units, WaterLevel::new(&self.capacities[zone], units, limit))
        });
        if entry.0 != units {
            let limit = self.group_limit[group as usize];
            *entry = (units, WaterLevel::new(&self.capacities[zone], units, limit));
        }
        entry.1.share(plan.capacity(p))
    }

    /// How much room a member has in its share of a subtopology's replicas, as [`Self::room`].
    fn group_room(&self, group: u32, p: Pos) -> u8 {
        let (load, share) = (self.group_load(group, p), self.group_share(group, p));
        2 - share.room(load)
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
    /// kept in one heap per zone (one heap when zones are not used), by load; a member with
    /// room but already holding its share of the task's subtopology gives way to the next
    /// ones (a few at most).
    fn fill(&mut self) {
        const PASSED_OVER: usize = 32;
        let plan = self.plan;
        let zones = if plan.zoned {
            plan.receiver_zones.len()
        } else {
            1
        };
        let zone = |p: Pos| if plan.zoned { plan.zone_of[p] } else { 0 };
        let mut heaps: Vec<BinaryHeap<Reverse<(LoadKey, Pos)>>> = vec![BinaryHeap::new(); zones];
        for &p in &self.receivers {
            heaps[zone(p)].push(Reverse((self.key(p), p)));
        }
        for t in 0..plan.task_count() {
            let g = plan.group(t);
            while self.of_task[t].len() < self.wanted[t] {
                let used = self.zones_of(t, None);
                let rank = |p: Pos| {
                    (
                        !plan.zone_is_new(p, &used),
                        Reverse(self.room(p)),
                        Reverse(self.group_room(g, p)),
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
                    let mut passed_over = 0;
                    while let Some(Reverse((key, p))) = heap.pop() {
                        if key_load_changed(&key, self.load[p]) {
                            continue;
                        }
                        stash.push(Reverse((key, p)));
                        if !self.holds(t, p) {
                            if best.is_none_or(|b| rank(p) < rank(b)) {
                                best = Some(p);
                            }
                            let full_in_group = self.group_room(g, p) == 0 && self.room(p) > 0;
                            if !full_in_group || passed_over == PASSED_OVER {
                                break;
                            }
                            passed_over += 1;
                        }
                    }
                    heap.extend(stash);
                }
                let Some(p) = best else { break };
                self.add(t, p);
                heaps[zone(p)].push(Reverse((self.key(p), p)));
            }
        }
    }

    /// A standby of `from` that `to` could hold instead without losing a zone, preferring one
    /// whose state `to` already holds, then one of a subtopology `from` holds more than its
    /// share of and `to` less.
    fn movable(&self, from: Pos, to: Pos) -> Option<usize> {
        let plan = self.plan;
        self.of_member[from]
            .iter()
            .copied()
            .filter(|&t| !self.holds(t, to) && self.keeps_zones(t, from, to))
            .min_by_key(|&t| {
                let g = plan.group(t);
                let evens = self.group_load(g, from) > self.group_share(g, from).lo
                    && self.group_load(g, to) < self.group_share(g, to).hi;
                (plan.lag(t, to).unwrap_or(u64::MAX), !evens, t)
            })
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
        held.sort();
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
        with_room.sort_by_key(|&q| (self.key(q), q));
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
        short.sort_by_key(|&q| (self.key(q), q));
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

    /// Rule 9 for standbys: while a member holds more than its share of a subtopology's
    /// replicas, it hands one of its standbys of it to a member under its share (under its
    /// lower share first, then the least loaded); while a member holds less than its lower
    /// share, it takes one from a member above its own (the most loaded first). A taker at its
    /// share of all replicas (or a giver at its lower share) exchanges a standby of another
    /// subtopology, so that neither total changes.
    fn spread_subtopologies(&mut self) {
        let plan = self.plan;
        if self.group_units.len() < 2 {
            return;
        }
        let mut givers: Vec<(u32, Pos)> = self
            .group_load
            .iter()
            .filter(|&(&(g, p), &load)| !plan.leaving(p) && load > self.group_share(g, p).hi)
            .map(|(&key, _)| key)
            .collect();
        givers.sort();
        for (g, p) in givers {
            while self.group_load(g, p) > self.group_share(g, p).hi {
                let mut takers: Vec<Pos> = self
                    .receivers
                    .iter()
                    .copied()
                    .filter(|&q| q != p && self.group_load(g, q) < self.group_share(g, q).hi)
                    .collect();
                takers.sort_by_key(|&q| (Reverse(self.group_room(g, q)), self.key(q), q));
                if !takers.into_iter().any(|q| self.hand_over(g, p, q)) {
                    break;
                }
            }
        }
        let most = self
            .receivers
            .iter()
            .map(|&p| plan.capacity(p))
            .max()
            .unwrap_or(0);
        let capacity: u64 = self.receivers.iter().map(|&p| plan.capacity(p)).sum();
        for g in 0..self.group_units.len() as u32 {
            // Only a subtopology with enough replicas gives any member a lower share above 0.
            if u128::from(self.group_units[g as usize]) * u128::from(most) < u128::from(capacity) {
                continue;
            }
            for q in self.receivers.clone() {
                while self.group_load(g, q) < self.group_share(g, q).lo {
                    let mut donors: Vec<Pos> = self
                        .receivers
                        .iter()
                        .copied()
                        .filter(|&p| p != q && self.group_load(g, p) > self.group_share(g, p).lo)
                        .collect();
                    donors.sort_by_key(|&p| {
                        (
                            LoadKey::new(self.group_load(g, p), plan.capacity(p)),
                            Reverse(p),
                        )
                    });
                    if !donors.into_iter().rev().any(|p| self.hand_over(g, p, q)) {
                        break;
                    }
                }
            }
        }
    }

    /// One standby of subtopology `g` from `p` to `q`, the one `q` holds state of best, as
    /// [`Self::spread_subtopologies`] says: straight if both totals allow, else in exchange
    /// for one of another subtopology. Returns whether it could.
    fn hand_over(&mut self, g: u32, p: Pos, q: Pos) -> bool {
        let plan = self.plan;
        let mine = self.of_member[p]
            .iter()
            .copied()
            .filter(|&t| plan.group(t) == g && !self.holds(t, q) && self.keeps_zones(t, p, q))
            .min_by_key(|&t| (plan.lag(t, q).unwrap_or(u64::MAX), t));
        let Some(t) = mine else { return false };
        if self.load[q] < self.share[q].hi && self.load[p] > self.share[p].lo {
            self.shift(t, p, q);
            return true;
        }
        let back = self.of_member[q]
            .iter()
            .copied()
            .filter(|&u| {
                let h = plan.group(u);
                h != g
                    && self.group_load(h, q) > self.group_share(h, q).lo
                    && self.group_load(h, p) < self.group_share(h, p).hi
                    && !self.holds(u, p)
                    && self.keeps_zones(u, q, p)
            })
            .min_by_key(|&u| (plan.lag(u, p).unwrap_or(u64::MAX), u));
        let Some(u) = back else { return false };
        self.shift(t, p, q);
        self.shift(u, q, p);
        true
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
            takers.sort_by_key(|&q| (self.key(q), q));
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
