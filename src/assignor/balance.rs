//! The balance step shared by the sticky strategies (learner, eager, cooperative): which
//! active tasks must move so that each member runs its share (docs/design.md, rules 8 and 9),
//! and which member receives each of them.
//!
//! Balance has two levels, as Kafka Streams measures it: stateful tasks are spread by
//! capacity first (so that stores, restores and disk are shared, not just task counts), then
//! stateless tasks fill each member up to its share of all tasks. At each level every
//! subtopology is spread too: each member runs its share of each subtopology's tasks, so
//! that no member runs most of the heavy join while another runs only cheap filters. A
//! member within all its shares keeps everything it runs, which makes a balanced group a
//! fixed point; when tasks must move, the step chooses which, so that spreading each
//! subtopology costs as few extra moves as it can.

use super::load::{LoadKey, Loads, Pos, Share};
use super::plan::Plan;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Units of work each member should receive, by subtopology.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Gains {
    /// Per subtopology, (member, units) in join order.
    by_group: FxHashMap<u32, Vec<(Pos, u64)>>,
}

impl Gains {
    fn slot(&mut self, group: u32, pos: Pos) -> Option<&mut u64> {
        let list = self.by_group.get_mut(&group)?;
        let at = list.binary_search_by_key(&pos, |&(p, _)| p).ok()?;
        Some(&mut list[at].1)
    }

    /// Units of a subtopology a member should still receive.
    pub fn of(&self, group: u32, pos: Pos) -> u64 {
        self.by_group.get(&group).map_or(0, |list| {
            list.binary_search_by_key(&pos, |&(p, _)| p)
                .map_or(0, |at| list[at].1)
        })
    }
}

/// Units of work to hand over at one level: the tasks that move off their owner, and how many
/// of each subtopology each member should receive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rebalance {
    /// Tasks to move off their owner, in task order.
    pub moving: Vec<usize>,
    /// Units of work each member should receive.
    pub gains: Gains,
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

/// Decides which tasks must move to balance the group (rules 8 and 9) given effective
/// `loads` (learners in flight count as moved): first the stateful tasks against each
/// member's share of the stateful tasks and of each subtopology's, then the stateless ones
/// against each member's share of all tasks and of each subtopology's. `movable(task)` says
/// which tasks may be chosen; `cost` how they are priced. Returns the two levels' moves.
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
        return (Rebalance::default(), Rebalance::default());
    }
    let stateful_tasks = plan.group_sizes().map(|s| s.stateful).sum::<u64>();
    let stateful_share = proportional_shares(&capacity, stateful_tasks);
    let cost: Vec<u64> = match cost {
        Cost::Changelog => (0..plan.task_count()).map(|t| plan.move_cost(t)).collect(),
        Cost::Receiver => move_costs(plan, &loads.stateful, &stateful_share),
    };
    let mut stateful = Level::new(plan, &capacity, &cost, true);
    let mut stateless = Level::new(plan, &capacity, &cost, false);
    for t in 0..plan.task_count() {
        if let Some(o) = plan.owner(t).filter(|_| movable(t)) {
            let level = if plan.stateful(t) {
                &mut stateful
            } else {
                &mut stateless
            };
            level.cell(plan.group(t), o).movable.push(t);
        }
    }
    for (&(g, p), counts) in &loads.by_group {
        if counts.stateful > 0 {
            stateful.cell(g, p).count = counts.stateful;
        }
    }
    stateful.total.clone_from(&loads.stateful);
    let mut stateful = stateful.solve();
    // The stateless level counts every task of a subtopology, the stateful ones where the
    // first level put them; it carries on the cells of the stateful subtopologies, whose
    // tasks it moves only along a chain that nothing else can make (keeping the stateful
    // shares), when where the first level put them leaves the level no balance.
    for (&(g, p), counts) in &loads.by_group {
        if counts.total > counts.stateful {
            stateless.cell(g, p).count = counts.total - counts.stateful;
        }
    }
    let keys: Vec<(u32, Pos)> = stateful.cells.keys().copied().collect();
    for (g, p) in keys {
        if plan.only_stateful(g) {
            if let Some(mut cell) = stateful.cells.remove(&(g, p)) {
                cell.carried = true;
                *stateless.cell(g, p) = cell;
            }
        } else {
            let target = stateful.cells[&(g, p)].target;
            stateless.cell(g, p).count += target;
        }
    }
    stateless.total = (0..k)
        .map(|p| loads.total[p] - loads.stateful[p] + stateful.total[p])
        .collect();
    stateless.stateful_rows = Some(Rows {
        total: std::mem::take(&mut stateful.total),
        share: stateful.total_share.clone(),
    });
    let stateless = stateless.solve();
    let (carried, rest) = stateless.into_rebalances();
    let (_, mixed) = stateful.into_rebalances();
    (mixed.join(carried), rest)
}

/// Each member's proportional share of `units`.
fn proportional_shares(capacity: &[u64], units: u64) -> Vec<Share> {
    let sum = capacity.iter().sum();
    capacity
        .iter()
        .map(|&c| Share::proportional(units, c, sum))
        .collect()
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
                    Some(p) != plan.owner(t) && !plan.leaving(p) && stateful_loads[p] < share[p].lo
                })
                .map(|&(_, lag)| lag)
                .min();
            held.map_or(plan.move_cost(t), |lag| lag.min(plan.move_cost(t)))
        })
        .collect()
}

/// One subtopology on one member, at one level.
#[derive(Clone, Debug, Default)]
struct Cell {
    /// Tasks it runs (learners in flight counted as moved).
    count: u64,
    /// Tasks it should run.
    target: u64,
    /// Those that may move, cheapest first once the level is solved.
    movable: Vec<usize>,
    /// A stateful subtopology's cell carried on from the first level: its tasks move only
    /// along chains, within the stateful shares.
    carried: bool,
}

/// The members' stateful tasks and their shares, which the second level keeps when it moves
/// a stateful task.
struct Rows {
    total: Vec<u64>,
    share: Vec<Share>,
}

impl Cell {
    /// Tasks that cannot move.
    fn fixed(&self) -> u64 {
        self.count.saturating_sub(self.movable.len() as u64)
    }

    /// The next of its own tasks to move, if any is left.
    fn next(&self) -> Option<usize> {
        let taken = self.count.checked_sub(self.target)?;
        self.movable.get(taken as usize).copied()
    }
}

/// A candidate task to pull toward a member short of its share: cheapest first, then from
/// the most loaded member, then join order, then the later task.
type Candidate = (u64, Reverse<LoadKey>, Pos, Reverse<usize>, u32);

/// One level of [`plan_moves`] while it is solved: how many tasks of each subtopology each
/// member should run (`target`, per cell), within its share of them and of the level's
/// tasks, as close to what it runs as can be.
struct Level<'p, 'a> {
    plan: &'p Plan<'a>,
    /// Capacities, 0 for a leaving member.
    capacity: &'p [u64],
    capacity_sum: u64,
    cost: &'p [u64],
    /// The level's tasks of each subtopology, which its shares are of.
    group_tasks: Vec<u64>,
    /// Each member's share of the level's tasks.
    total_share: Vec<Share>,
    /// Tasks each member should run, over all subtopologies.
    total: Vec<u64>,
    cells: FxHashMap<(u32, Pos), Cell>,
    /// The subtopologies each member has a cell of, and the members of each subtopology.
    groups_of: Vec<Vec<u32>>,
    members_of: Vec<Vec<Pos>>,
    /// Units taken off their members and not placed yet, by subtopology, with the members
    /// they came from (in the order taken).
    pool: Vec<Vec<Pos>>,
    /// At the second level, the stateful tasks of each member and their shares.
    stateful_rows: Option<Rows>,
}

impl<'p, 'a> Level<'p, 'a> {
    fn new(plan: &'p Plan<'a>, capacity: &'p [u64], cost: &'p [u64], stateful: bool) -> Self {
        let group_tasks: Vec<u64> = plan
            .group_sizes()
            .map(|s| if stateful { s.stateful } else { s.total })
            .collect();
        let tasks = group_tasks.iter().sum();
        Level {
            plan,
            capacity,
            capacity_sum: capacity.iter().sum(),
            cost,
            total_share: proportional_shares(capacity, tasks),
            total: vec![0; capacity.len()],
            cells: FxHashMap::default(),
            groups_of: vec![Vec::new(); capacity.len()],
            members_of: vec![Vec::new(); group_tasks.len()],
            pool: vec![Vec::new(); group_tasks.len()],
            group_tasks,
            stateful_rows: None,
        }
    }

    fn cell(&mut self, group: u32, pos: Pos) -> &mut Cell {
        let carried = self.carries(group);
        let (groups_of, members_of) = (&mut self.groups_of, &mut self.members_of);
        self.cells.entry((group, pos)).or_insert_with(|| {
            groups_of[pos].push(group);
            members_of[group as usize].push(pos);
            Cell {
                carried,
                ..Cell::default()
            }
        })
    }

    fn target(&self, group: u32, pos: Pos) -> u64 {
        self.cells.get(&(group, pos)).map_or(0, |c| c.target)
    }

    /// A member's share of a subtopology's tasks.
    fn share(&self, group: u32, pos: Pos) -> Share {
        Share::proportional(
            self.group_tasks[group as usize],
            self.capacity[pos],
            self.capacity_sum,
        )
    }

    fn give(&mut self, group: u32, pos: Pos) {
        self.cell(group, pos).target += 1;
        self.total[pos] += 1;
    }

    fn take(&mut self, group: u32, pos: Pos) {
        self.cell(group, pos).target -= 1;
        self.total[pos] -= 1;
    }

    /// Takes one of a member's tasks of a subtopology into the pool.
    fn take_to_pool(&mut self, group: u32, pos: Pos) {
        self.take(group, pos);
        self.pool[group as usize].push(pos);
    }

    fn receivers(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.capacity.len()).filter(|&p| !self.plan.leaving(p))
    }

    fn solve(mut self) -> Self {
        for cell in self.cells.values_mut().filter(|c| !c.carried) {
            cell.target = cell.count;
            let cost = self.cost;
            cell.movable.sort_by_key(|&t| (cost[t], Reverse(t)));
        }
        self.shed_excess();
        self.place_pool();
        self.pull_to_subtopology_shares();
        self.pull_to_total_shares();
        self.shed_to_total_shares();
        self
    }

    /// Everything a leaving member still runs goes to the pool, and whatever puts a member
    /// over its share of a subtopology or of the level's tasks: for the latter, its cheapest
    /// task among the subtopologies it runs more than its lower share of.
    fn shed_excess(&mut self) {
        for p in 0..self.capacity.len() {
            let groups: Vec<u32> = self.groups_of[p]
                .iter()
                .copied()
                .filter(|&g| !self.cells[&(g, p)].carried)
                .collect();
            for &g in &groups {
                let cell = &self.cells[&(g, p)];
                let movable = cell.target - cell.fixed();
                let excess = if self.plan.leaving(p) {
                    movable
                } else {
                    cell.target.saturating_sub(self.share(g, p).hi).min(movable)
                };
                for _ in 0..excess {
                    self.take_to_pool(g, p);
                }
            }
            if self.plan.leaving(p) {
                continue;
            }
            while self.total[p] > self.total_share[p].hi {
                let next = groups
                    .iter()
                    .filter_map(|&g| {
                        let cell = &self.cells[&(g, p)];
                        let t = cell.next()?;
                        let at_share = cell.target <= self.share(g, p).lo;
                        Some(((at_share, self.cost[t], Reverse(t)), g))
                    })
                    .min();
                let Some((_, g)) = next else { break };
                self.take_to_pool(g, p);
            }
        }
    }

    /// Places the pool: first members short of their share of a subtopology, in join order;
    /// then members short of their share of the level's tasks; then, for what is left, the
    /// least loaded members still under their upper shares. What fits nowhere goes back to
    /// where it came from.
    fn place_pool(&mut self) {
        let groups: Vec<u32> = (0..self.pool.len() as u32)
            .filter(|&g| !self.pool[g as usize].is_empty())
            .collect();
        let mut left: Vec<u64> = self.pool.iter().map(|p| p.len() as u64).collect();
        let receivers: Vec<Pos> = self.receivers().collect();
        for &g in &groups {
            if !self.can_be_short(g) {
                continue;
            }
            for &p in &receivers {
                while left[g as usize] > 0
                    && self.target(g, p) < self.share(g, p).lo
                    && self.total[p] < self.total_share[p].hi
                {
                    self.give(g, p);
                    left[g as usize] -= 1;
                }
            }
        }
        for &p in &receivers {
            while self.total[p] < self.total_share[p].lo {
                let fits = groups
                    .iter()
                    .copied()
                    .find(|&g| left[g as usize] > 0 && self.target(g, p) < self.share(g, p).hi);
                let Some(g) = fits else { break };
                self.give(g, p);
                left[g as usize] -= 1;
            }
        }
        let mut heap: BinaryHeap<Reverse<(LoadKey, Pos)>> = receivers
            .iter()
            .filter(|&&p| self.total[p] < self.total_share[p].hi)
            .map(|&p| Reverse((LoadKey::new(self.total[p], self.capacity[p]), p)))
            .collect();
        for &g in &groups {
            let mut full = Vec::new();
            while left[g as usize] > 0 {
                let Some(Reverse((key, p))) = heap.pop() else {
                    break;
                };
                if key.load() != self.total[p] {
                    continue;
                }
                if self.target(g, p) >= self.share(g, p).hi {
                    full.push(Reverse((key, p)));
                    continue;
                }
                self.give(g, p);
                left[g as usize] -= 1;
                if self.total[p] < self.total_share[p].hi {
                    heap.push(Reverse((LoadKey::new(self.total[p], self.capacity[p]), p)));
                }
            }
            heap.extend(full);
            while left[g as usize] > 0 && self.place_along_chain(g) {
                left[g as usize] -= 1;
            }
            // Every staying member is at its upper bound: the rest stay where they are.
            while left[g as usize] > 0 {
                let Some(p) = self.pool[g as usize].pop() else {
                    break;
                };
                self.give(g, p);
                left[g as usize] -= 1;
            }
        }
    }

    /// Places a unit of the pool with one of the least loaded members that can take its
    /// subtopology but is at its share of the level's tasks, which hands a task on along a
    /// chain of members to one with room. Returns whether it could.
    fn place_along_chain(&mut self, group: u32) -> bool {
        const TRIED: usize = 4;
        let mut takers: Vec<Pos> = self
            .receivers()
            .filter(|&v| self.can_take(group, v))
            .collect();
        takers.sort_by_key(|&v| (LoadKey::new(self.total[v], self.capacity[v]), v));
        for &v in takers.iter().take(TRIED) {
            self.give(group, v);
            if self.total[v] <= self.total_share[v].hi
                || self.hop_along(&[v], &mut Vec::new(), |level, x| {
                    level.total[x] < level.total_share[x].hi
                })
            {
                return true;
            }
            self.take(group, v);
        }
        false
    }

    /// Whether some member's share of a subtopology has a lower bound above 0.
    fn can_be_short(&self, group: u32) -> bool {
        let most = self.capacity.iter().copied().max().unwrap_or(0);
        u128::from(self.group_tasks[group as usize]) * u128::from(most)
            >= u128::from(self.capacity_sum)
    }

    /// A member short of its share of a subtopology takes that subtopology's cheapest tasks
    /// from members above theirs (the most loaded first); a member already at its share of
    /// the level's tasks hands one of another subtopology back in exchange, or along a chain
    /// of members when no exchange fits.
    fn pull_to_subtopology_shares(&mut self) {
        let receivers: Vec<Pos> = self.receivers().collect();
        for g in 0..self.group_tasks.len() as u32 {
            if !self.can_be_short(g) || self.carries(g) {
                continue;
            }
            let short = |level: &Self, q: Pos| level.target(g, q) < level.share(g, q).lo;
            if !receivers.iter().any(|&q| short(self, q)) {
                continue;
            }
            let mut candidates = self.candidates(&[g], |level, g, p| {
                level.target(g, p) > level.share(g, p).lo
            });
            for &q in &receivers {
                while short(self, q) {
                    if self.redirect(g, q) {
                        continue;
                    }
                    let pulled = self.pull(&mut candidates, q, false, |level, g, p| {
                        if level.total[q] < level.total_share[q].hi
                            && level.total[p] > level.total_share[p].lo
                        {
                            Some(None)
                        } else {
                            level.exchange(q, p, g).map(Some)
                        }
                    });
                    if !pulled && !self.pull_along_chains(&mut candidates, q) {
                        break;
                    }
                }
            }
        }
    }

    /// Gives `q` a unit of `g` that another member was to receive above its lower share of
    /// `g`, which costs no move of its own; `q` hands a task of another subtopology back when
    /// the totals allow no plain move. Returns whether it could.
    fn redirect(&mut self, g: u32, q: Pos) -> bool {
        let receiving = |level: &Self, p: Pos| {
            let cell = &level.cells[&(g, p)];
            p != q && cell.target > cell.count && cell.target > level.share(g, p).lo
        };
        let from: Vec<Pos> = self.members_of[g as usize]
            .iter()
            .copied()
            .filter(|&p| receiving(self, p))
            .collect();
        for p in from {
            let exchange = if self.total[q] < self.total_share[q].hi
                && self.total[p] > self.total_share[p].lo
            {
                None
            } else if let Some(g2) = self.exchange(q, p, g) {
                Some(g2)
            } else {
                continue;
            };
            self.take(g, p);
            self.give(g, q);
            if let Some(g2) = exchange {
                self.take(g2, q);
                self.give(g2, p);
            }
            return true;
        }
        false
    }

    /// Moves one of the first few candidates to `q` and evens out the members' totals along
    /// chains: `q` hands a task on toward a member with room, and the candidate's member
    /// takes one from a member above its share. Returns whether it could.
    fn pull_along_chains(&mut self, candidates: &mut [Option<Candidate>], q: Pos) -> bool {
        const TRIED: usize = 4;
        let mut tried = 0;
        for slot in candidates.iter_mut() {
            let Some((_, _, p, Reverse(t), g)) = *slot else {
                continue;
            };
            let cell = &self.cells[&(g, p)];
            if cell.next() != Some(t) || cell.target <= self.share(g, p).lo {
                *slot = None;
                continue;
            }
            if p == q {
                continue;
            }
            if tried == TRIED {
                break;
            }
            tried += 1;
            let mut done = vec![(g, p, q)];
            self.hop(g, p, q);
            let mut fits = true;
            if self.total[q] > self.total_share[q].hi {
                fits = self.hop_along(&[q], &mut done, |level, v| {
                    level.total[v] < level.total_share[v].hi
                });
            }
            if fits && self.total[p] < self.total_share[p].lo {
                let sources = self.with_surplus();
                fits = self.hop_along(&sources, &mut done, |_, v| v == p);
            }
            if fits {
                *slot = None;
                return true;
            }
            for &(g, from, to) in done.iter().rev() {
                self.hop(g, to, from);
            }
        }
        false
    }

    /// A member short of its share of the level's tasks takes the cheapest task it has room
    /// for from members above their shares, or one handed along a chain of members; if none
    /// can come without breaking a subtopology's share, the cheapest task regardless (the
    /// level's balance comes first: a subtopology of stateful and stateless tasks together
    /// cannot always be spread as well).
    fn pull_to_total_shares(&mut self) {
        let receivers: Vec<Pos> = self.receivers().collect();
        let short = |level: &Self, q: Pos| level.total[q] < level.total_share[q].lo;
        if !receivers.iter().any(|&q| short(self, q)) {
            return;
        }
        let groups: Vec<u32> = (0..self.group_tasks.len() as u32).collect();
        let surplus = |level: &Self, p: Pos| level.total[p] > level.total_share[p].lo;
        let mut candidates = self.candidates(&groups, |level, g, p| {
            level.target(g, p) > level.share(g, p).lo && surplus(level, p)
        });
        let mut anyhow: Option<Vec<Option<Candidate>>> = None;
        for &q in &receivers {
            while short(self, q) {
                let pulled = self.pull(&mut candidates, q, false, |level, g, p| {
                    (surplus(level, p) && level.target(g, q) < level.share(g, q).hi).then_some(None)
                });
                if pulled {
                    continue;
                }
                let sources = self.with_surplus();
                if self.hop_along(&sources, &mut Vec::new(), |_, v| v == q) {
                    continue;
                }
                let all = anyhow.get_or_insert_with(|| {
                    self.candidates(&groups, |level, _, p| surplus(level, p))
                });
                if !self.pull(all, q, true, |level, _, p| {
                    surplus(level, p).then_some(None)
                }) {
                    break;
                }
            }
        }
    }

    /// A member over its share of the level's tasks hands one on, along a chain of members, to
    /// a member with room; if no chain keeps every subtopology's share, straight to the least
    /// loaded member with room. With no room anywhere the rest stay where they are.
    fn shed_to_total_shares(&mut self) {
        let over = |level: &Self, x: Pos| level.total[x] > level.total_share[x].hi;
        let room = |level: &Self, v: Pos| level.total[v] < level.total_share[v].hi;
        for x in 0..self.capacity.len() {
            while over(self, x) {
                if self.hop_along(&[x], &mut Vec::new(), room) {
                    continue;
                }
                // A task it was to receive first (it then stays put), else its cheapest.
                let spare = self.groups_of[x]
                    .iter()
                    .copied()
                    .filter(|&g| {
                        let cell = &self.cells[&(g, x)];
                        !cell.carried && cell.target > cell.fixed()
                    })
                    .min_by_key(|&g| {
                        let cell = &self.cells[&(g, x)];
                        cell.next().map(|t| (self.cost[t], Reverse(t)))
                    });
                let least = self
                    .receivers()
                    .filter(|&v| v != x && room(self, v))
                    .min_by_key(|&v| (LoadKey::new(self.total[v], self.capacity[v]), v));
                let (Some(g), Some(v)) = (spare, least) else {
                    break;
                };
                self.hop(g, x, v);
            }
        }
    }

    /// Moves one task of a subtopology from one member to another.
    fn hop(&mut self, group: u32, from: Pos, to: Pos) {
        self.take(group, from);
        self.give(group, to);
        if self.carries(group) {
            if let Some(rows) = self.stateful_rows.as_mut() {
                rows.total[from] -= 1;
                rows.total[to] += 1;
            }
        }
    }

    /// Whether the level carries a stateful subtopology on from the first level.
    fn carries(&self, group: u32) -> bool {
        self.stateful_rows.is_some() && self.plan.only_stateful(group)
    }

    /// Whether a member can hand over one task of a subtopology without going under its
    /// share of it (or, for a carried one, of the stateful tasks).
    fn spare(&self, group: u32, pos: Pos) -> bool {
        let cell = &self.cells[&(group, pos)];
        let rows = self.stateful_rows.as_ref().filter(|_| cell.carried);
        cell.target > cell.fixed()
            && cell.target > self.share(group, pos).lo
            && rows.is_none_or(|r| r.total[pos] > r.share[pos].lo)
    }

    /// Whether a member can take one more task of a subtopology.
    fn can_take(&self, group: u32, pos: Pos) -> bool {
        let rows = self.stateful_rows.as_ref().filter(|_| self.carries(group));
        !self.plan.leaving(pos)
            && self.target(group, pos) < self.share(group, pos).hi
            && rows.is_none_or(|r| r.total[pos] < r.share[pos].hi)
    }

    /// The members above their share of the level's tasks.
    fn with_surplus(&self) -> Vec<Pos> {
        (0..self.capacity.len())
            .filter(|&p| self.total[p] > self.total_share[p].lo)
            .collect()
    }

    /// Finds the shortest chain of members from one of `sources` to a member `end` accepts,
    /// each handing the next a task of a subtopology it can spare and the next can take, and
    /// carries it out (recording each hop in `done`). Members in between keep their totals.
    /// Gives up past a bounded effort. Returns whether there was one.
    fn hop_along(
        &mut self,
        sources: &[Pos],
        done: &mut Vec<(u32, Pos, Pos)>,
        end: impl Fn(&Self, Pos) -> bool,
    ) -> bool {
        const EFFORT: usize = 1 << 20;
        let k = self.capacity.len();
        let receivers: Vec<Pos> = self.receivers().collect();
        let mut from: Vec<Option<(Pos, u32)>> = vec![None; k];
        let mut seen = vec![false; k];
        let mut queue = std::collections::VecDeque::new();
        for &s in sources {
            seen[s] = true;
            queue.push_back(s);
        }
        // Each member is looked at once per subtopology: a member that cannot take it now
        // cannot later in the same search.
        let mut looked: FxHashMap<u32, usize> = FxHashMap::default();
        let mut effort = 0;
        while let Some(u) = queue.pop_front() {
            for &g in &self.groups_of[u] {
                if !self.spare(g, u) {
                    continue;
                }
                let at = looked.entry(g).or_insert(0);
                while *at < receivers.len() && effort < EFFORT {
                    let v = receivers[*at];
                    *at += 1;
                    effort += 1;
                    if seen[v] || !self.can_take(g, v) {
                        continue;
                    }
                    seen[v] = true;
                    from[v] = Some((u, g));
                    if end(self, v) {
                        let mut chain = Vec::new();
                        let mut x = v;
                        while let Some((u, g)) = from[x] {
                            chain.push((g, u, x));
                            x = u;
                        }
                        for &(g, u, x) in chain.iter().rev() {
                            self.hop(g, u, x);
                            done.push((g, u, x));
                        }
                        return true;
                    }
                    queue.push_back(v);
                }
            }
        }
        false
    }

    /// The tasks of `groups` that members may give up (`donor`), in the order they are pulled.
    fn candidates(
        &self,
        groups: &[u32],
        donor: impl Fn(&Self, u32, Pos) -> bool,
    ) -> Vec<Option<Candidate>> {
        let mut out: Vec<Option<Candidate>> = Vec::new();
        for &g in groups {
            for &p in &self.members_of[g as usize] {
                let cell = &self.cells[&(g, p)];
                if self.plan.leaving(p)
                    || cell.carried
                    || cell.target > cell.count
                    || !donor(self, g, p)
                {
                    continue;
                }
                let key = Reverse(LoadKey::new(self.total[p], self.capacity[p]));
                let taken = (cell.count - cell.target) as usize;
                for &t in cell.movable.iter().skip(taken) {
                    out.push(Some((self.cost[t], key, p, Reverse(t), g)));
                }
            }
        }
        out.sort();
        out
    }

    /// Moves the first candidate that can go to `q` (its subtopology's next task on its
    /// member, above the member's share of it unless `anyhow`) where `accept(g, p)` allows:
    /// `Some(None)` as a plain move, `Some(Some(g2))` with `q` handing a task of `g2` back to
    /// `p`. Candidates that can no longer move are dropped; returns whether one moved.
    fn pull(
        &mut self,
        candidates: &mut [Option<Candidate>],
        q: Pos,
        anyhow: bool,
        accept: impl Fn(&Self, u32, Pos) -> Option<Option<u32>>,
    ) -> bool {
        for slot in candidates.iter_mut() {
            let Some((_, _, p, Reverse(t), g)) = *slot else {
                continue;
            };
            let cell = &self.cells[&(g, p)];
            if cell.next() != Some(t) || (!anyhow && cell.target <= self.share(g, p).lo) {
                *slot = None;
                continue;
            }
            if p == q {
                continue;
            }
            let Some(exchange) = accept(self, g, p) else {
                continue;
            };
            *slot = None;
            self.take(g, p);
            self.give(g, q);
            if let Some(g2) = exchange {
                self.take(g2, q);
                self.give(g2, p);
            }
            return true;
        }
        false
    }

    /// A subtopology other than `g` that `q` runs more than its lower share of and can hand
    /// to `p` (under its upper share of it), so that `q` can take a task of `g` from `p`
    /// without either member's total changing: one that `q` was to receive first, then the
    /// first by number.
    fn exchange(&self, q: Pos, p: Pos, g: u32) -> Option<u32> {
        self.groups_of[q]
            .iter()
            .copied()
            .filter(|&g2| {
                let cell = &self.cells[&(g2, q)];
                g2 != g
                    && !cell.carried
                    && cell.target > self.share(g2, q).lo
                    && cell.target > cell.fixed()
                    && self.target(g2, p) < self.share(g2, p).hi
            })
            .min_by_key(|&g2| {
                let cell = &self.cells[&(g2, q)];
                (cell.target <= cell.count, g2)
            })
    }

    /// The tasks that move off their members and the units each member receives: of the
    /// carried cells, and of the others.
    fn into_rebalances(self) -> (Rebalance, Rebalance) {
        let (mut carried, mut rest) = (Rebalance::default(), Rebalance::default());
        for (&(g, p), cell) in &self.cells {
            let out = if cell.carried {
                &mut carried
            } else {
                &mut rest
            };
            if cell.target < cell.count {
                let n = (cell.count - cell.target) as usize;
                out.moving
                    .extend_from_slice(&cell.movable[..n.min(cell.movable.len())]);
            } else if cell.target > cell.count {
                out.gains
                    .by_group
                    .entry(g)
                    .or_default()
                    .push((p, cell.target - cell.count));
            }
        }
        (carried.sorted(), rest.sorted())
    }
}

impl Rebalance {
    /// Both rebalances' moves together (of different subtopologies).
    fn join(mut self, other: Rebalance) -> Rebalance {
        self.moving.extend(other.moving);
        self.gains.by_group.extend(other.gains.by_group);
        self.sorted()
    }

    fn sorted(mut self) -> Rebalance {
        self.moving.sort();
        for list in self.gains.by_group.values_mut() {
            list.sort();
        }
        self
    }
}

/// Matches moving tasks to receivers of their subtopology: first to receivers that already
/// hold the task's state (standby holders first, then the smallest lag), then the rest in
/// task order to receivers in join order, each up to its gain. Where replicas are spread over
/// zones, a receiver in a zone the task's replicas do not use yet comes first (KIP-708).
/// Returns (task, receiver) pairs.
pub(crate) fn match_receivers(
    plan: &Plan<'_>,
    moving: &[usize],
    gains: &mut Gains,
) -> Vec<(usize, Pos)> {
    let mut pairs = Vec::with_capacity(moving.len());
    let mut rest = Vec::new();
    for &t in moving {
        let g = plan.group(t);
        let warm = if plan.stateful(t) {
            let used = plan.replica_zones(t);
            plan.holders[t]
                .iter()
                .filter(|&&(p, _)| gains.of(g, p) > 0 && Some(p) != plan.owner(t))
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
        match warm.and_then(|p| gains.slot(g, p).map(|slot| (p, slot))) {
            Some((p, slot)) => {
                *slot -= 1;
                pairs.push((t, p));
            }
            None => rest.push(t),
        }
    }
    let mut first: FxHashMap<u32, usize> = FxHashMap::default();
    for t in rest {
        let g = plan.group(t);
        let Some(list) = gains.by_group.get_mut(&g) else {
            continue;
        };
        let start = first.entry(g).or_insert(0);
        while *start < list.len() && list[*start].1 == 0 {
            *start += 1;
        }
        let owner = plan.owner(t);
        let with_room = |&(p, units): &(Pos, u64)| units > 0 && Some(p) != owner;
        let open = &list[*start..];
        let chosen = if plan.zoned && plan.stateful(t) {
            let used = plan.replica_zones(t);
            open.iter()
                .position(|e| with_room(e) && plan.zone_is_new(e.0, &used))
                .or_else(|| open.iter().position(with_room))
        } else {
            // A task never moves to its own owner; the next receiver with room takes it.
            open.iter().position(with_room)
        };
        if let Some(i) = chosen {
            let entry = &mut list[*start + i];
            entry.1 -= 1;
            pairs.push((t, entry.0));
        }
    }
    pairs
}
