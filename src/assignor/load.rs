//! Loads: the active tasks each member runs (in all and per subtopology), loads per unit of
//! capacity compared without division, each member's fair share of
//! some units of work, and a heap of the least loaded members.

use rustc_hash::FxHashMap;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A position in the input's member list (join order); the leader is 0.
pub(crate) type Pos = usize;

/// What a load needs to know of a task: whether it is stateful, and its subtopology.
pub(crate) trait TaskKinds {
    /// Whether a task has state to restore.
    fn stateful(&self, task: usize) -> bool;
    /// A task's subtopology, numbered from 0.
    fn group(&self, task: usize) -> u32;
}

/// Active tasks of one subtopology on one member: stateful ones and all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub stateful: u64,
    pub total: u64,
}

/// Active tasks per member, stateful ones and all of them, in all and per subtopology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Loads {
    pub stateful: Vec<u64>,
    pub total: Vec<u64>,
    /// By (subtopology, member); a pair missing runs none. Kept sparse: a group can have as
    /// many subtopologies as tasks.
    pub by_group: FxHashMap<(u32, Pos), Counts>,
}

impl Loads {
    /// No active task on any of `members` members.
    pub fn empty(members: usize) -> Loads {
        Loads {
            stateful: vec![0; members],
            total: vec![0; members],
            by_group: FxHashMap::default(),
        }
    }

    /// One more active task on a member.
    pub fn add(&mut self, tasks: &impl TaskKinds, pos: Pos, task: usize) {
        let stateful = u64::from(tasks.stateful(task));
        self.total[pos] += 1;
        self.stateful[pos] += stateful;
        let counts = self.by_group.entry((tasks.group(task), pos)).or_default();
        counts.total += 1;
        counts.stateful += stateful;
    }

    /// One active task less on a member.
    pub fn remove(&mut self, tasks: &impl TaskKinds, pos: Pos, task: usize) {
        let stateful = u64::from(tasks.stateful(task));
        self.total[pos] -= 1;
        self.stateful[pos] -= stateful;
        if let Some(counts) = self.by_group.get_mut(&(tasks.group(task), pos)) {
            counts.total -= 1;
            counts.stateful -= stateful;
        }
    }

    /// A member's active tasks of one subtopology.
    pub fn of_group(&self, group: u32, pos: Pos) -> Counts {
        self.by_group
            .get(&(group, pos))
            .copied()
            .unwrap_or_default()
    }
}

/// Orders two members by units of work per unit of capacity, without division.
pub(crate) fn compare_load(load_a: u64, cap_a: u64, load_b: u64, cap_b: u64) -> Ordering {
    (u128::from(load_a) * u128::from(cap_b)).cmp(&(u128::from(load_b) * u128::from(cap_a)))
}

/// A member's fair share of some units of work: `lo` to `hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Share {
    pub lo: u64,
    pub hi: u64,
}

impl Share {
    /// A share of `units` in proportion to `capacity` out of `capacity_sum`, without a limit
    /// (what [`fair_shares`] gives each member when no member reaches the limit).
    pub fn proportional(units: u64, capacity: u64, capacity_sum: u64) -> Share {
        if capacity_sum == 0 {
            return Share { lo: 0, hi: 0 };
        }
        let exact = u128::from(units) * u128::from(capacity);
        let total = u128::from(capacity_sum);
        Share {
            lo: (exact / total) as u64,
            hi: exact.div_ceil(total) as u64,
        }
    }

    /// How far a load is into the share: 0 under `lo`, 1 from `lo` up to `hi`, 2 at `hi` or
    /// over (the order in which members take new work).
    pub fn room(&self, load: u64) -> u8 {
        u8::from(load >= self.lo) + u8::from(load >= self.hi)
    }
}

/// Each member's fair share of `units` units of work, in proportion to its capacity (a
/// capacity of 0 takes none), and at most `limit` each (a member holds at most one replica
/// of a task). Members whose proportional share would pass the limit get exactly the limit
/// and the others share the rest ("water filling"), so the shares always add up.
pub(crate) fn fair_shares(capacity: &[u64], units: u64, limit: u64) -> Vec<Share> {
    let k = capacity.len();
    let mut full = vec![false; k];
    let (mut free_units, mut free_capacity) = (units, capacity.iter().sum::<u64>());
    loop {
        if free_capacity == 0 {
            break;
        }
        let newly: Vec<Pos> = (0..k)
            .filter(|&p| {
                !full[p]
                    && capacity[p] > 0
                    && u128::from(free_units) * u128::from(capacity[p])
                        >= u128::from(limit) * u128::from(free_capacity)
            })
            .collect();
        if newly.is_empty() {
            break;
        }
        for p in newly {
            full[p] = true;
            free_units = free_units.saturating_sub(limit);
            free_capacity -= capacity[p];
        }
    }
    (0..k)
        .map(|p| {
            if full[p] {
                Share {
                    lo: limit,
                    hi: limit,
                }
            } else {
                Share::proportional(free_units, capacity[p], free_capacity)
            }
        })
        .collect()
}

/// Some members' capacities, as (capacity, members with it), largest first: what water
/// filling ([`fair_shares`]) depends on.
#[derive(Clone, Debug, Default)]
pub(crate) struct Capacities(Vec<(u64, u64)>);

impl Capacities {
    pub fn of(capacities: impl Iterator<Item = u64>) -> Capacities {
        let mut all: Vec<u64> = capacities.filter(|&c| c > 0).collect();
        all.sort();
        let mut classes: Vec<(u64, u64)> = Vec::new();
        for c in all.into_iter().rev() {
            match classes.last_mut() {
                Some((last, n)) if *last == c => *n += 1,
                _ => classes.push((c, 1)),
            }
        }
        Capacities(classes)
    }
}

/// Where [`fair_shares`] of some units ends over some [`Capacities`]: the members of a
/// capacity of `full_from` or more get the limit, the others share what is left in
/// proportion to capacity. Computed without a vector of members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WaterLevel {
    full_from: u64,
    free_units: u64,
    free_capacity: u64,
    limit: u64,
}

impl WaterLevel {
    pub fn new(capacities: &Capacities, units: u64, limit: u64) -> WaterLevel {
        let mut level = WaterLevel {
            full_from: u64::MAX,
            free_units: units,
            free_capacity: capacities.0.iter().map(|&(c, n)| c * n).sum(),
            limit,
        };
        // The largest capacities fill first; one class full can only fill the next sooner.
        for &(c, n) in &capacities.0 {
            let fills = level.free_capacity > 0
                && u128::from(level.free_units) * u128::from(c)
                    >= u128::from(limit) * u128::from(level.free_capacity);
            if !fills {
                break;
            }
            level.full_from = c;
            level.free_units = level.free_units.saturating_sub(limit.saturating_mul(n));
            level.free_capacity -= c * n;
        }
        level
    }

    /// The share of a member of this capacity.
    pub fn share(&self, capacity: u64) -> Share {
        if capacity == 0 {
            Share { lo: 0, hi: 0 }
        } else if capacity >= self.full_from {
            Share {
                lo: self.limit,
                hi: self.limit,
            }
        } else {
            Share::proportional(self.free_units, capacity, self.free_capacity)
        }
    }
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

    /// The units of work it was made from.
    pub fn load(&self) -> u64 {
        self.load
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

/// The member with the smallest key among some candidates, ties to join order; kept in a
/// heap with lazy updates so that handing out many tasks stays cheap. Each member carries a
/// stamp that changes whenever its loads do, which tells stale entries apart.
pub(crate) struct LeastLoaded<K> {
    heap: BinaryHeap<Reverse<(K, Pos, u64)>>,
}

impl<K: Ord + Copy> LeastLoaded<K> {
    /// The candidates with their keys, as of their current stamps.
    pub fn new(candidates: &[Pos], stamps: &[u64], key: impl Fn(Pos) -> K) -> LeastLoaded<K> {
        let heap = candidates
            .iter()
            .map(|&p| Reverse((key(p), p, stamps[p])))
            .collect();
        LeastLoaded { heap }
    }

    /// The candidate with the smallest key; it stays a candidate. Entries pushed before a
    /// member's stamp last changed are stale ([`LeastLoaded::update`] pushed a fresh one) and
    /// dropped.
    pub fn pop_least(&mut self, stamps: &[u64]) -> Option<Pos> {
        while let Some(&Reverse((_, p, stamp))) = self.heap.peek() {
            if stamp == stamps[p] {
                return Some(p);
            }
            self.heap.pop();
        }
        None
    }

    /// Records a candidate's new key after its loads (and so its stamp) changed.
    pub fn update(&mut self, pos: Pos, stamps: &[u64], key: K) {
        self.heap.push(Reverse((key, pos, stamps[pos])));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares(capacity: &[u64], units: u64, limit: u64) -> Vec<(u64, u64)> {
        fair_shares(capacity, units, limit)
            .into_iter()
            .map(|s| (s.lo, s.hi))
            .collect()
    }

    #[test]
    fn shares_follow_capacity() {
        assert_eq!(shares(&[1, 1, 1], 5, 100), [(1, 2), (1, 2), (1, 2)]);
        assert_eq!(shares(&[2, 1, 0], 6, 100), [(4, 4), (2, 2), (0, 0)]);
    }

    #[test]
    fn a_member_at_the_limit_leaves_the_rest_to_the_others() {
        // Three tasks with one standby each: six replicas, at most three per member.
        assert_eq!(shares(&[1, 3], 6, 3), [(3, 3), (3, 3)]);
        assert_eq!(shares(&[1, 1, 5], 6, 3), [(1, 2), (1, 2), (3, 3)]);
    }

    #[test]
    fn the_least_goes_by_key_and_stale_entries_are_dropped() {
        let mut stamps = [0, 0, 0];
        let key = [(2, 2), (1, 5), (1, 3)];
        let mut least = LeastLoaded::new(&[0, 1, 2], &stamps, |p| key[p]);
        assert_eq!(least.pop_least(&stamps), Some(2));
        stamps[2] += 1;
        least.update(2, &stamps, (1, 6));
        assert_eq!(least.pop_least(&stamps), Some(1));
    }

    #[test]
    fn a_water_level_gives_the_shares_fair_shares_does() {
        for (capacity, units, limit) in [
            (vec![1, 3], 6, 3),
            (vec![1, 1, 5], 6, 3),
            (vec![2, 1, 0, 3, 3], 40, 9),
            (vec![1, 1, 1], 5, 100),
            (vec![4, 1, 1, 1], 468, 156),
        ] {
            let level = WaterLevel::new(&Capacities::of(capacity.iter().copied()), units, limit);
            let each: Vec<Share> = capacity.iter().map(|&c| level.share(c)).collect();
            assert_eq!(
                each,
                fair_shares(&capacity, units, limit),
                "{capacity:?} {units} {limit}"
            );
        }
    }

    #[test]
    fn a_proportional_share_is_the_floor_and_ceiling_and_room_counts_bounds_passed() {
        assert_eq!(Share::proportional(7, 2, 3), Share { lo: 4, hi: 5 });
        assert_eq!(Share::proportional(6, 1, 3), Share { lo: 2, hi: 2 });
        assert_eq!(Share::proportional(6, 1, 0), Share { lo: 0, hi: 0 });
        let share = Share { lo: 2, hi: 3 };
        assert_eq!([1, 2, 3, 4].map(|load| share.room(load)), [0, 1, 2, 2]);
    }
}
