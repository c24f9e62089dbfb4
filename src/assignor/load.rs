//! Loads per unit of capacity: comparing them without division, each member's fair share of
//! some units of work, and a heap of the least loaded members.

use super::plan::Pos;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

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
            } else if free_capacity == 0 || capacity[p] == 0 {
                Share { lo: 0, hi: 0 }
            } else {
                let exact = u128::from(free_units) * u128::from(capacity[p]);
                let total = u128::from(free_capacity);
                Share {
                    lo: (exact / total) as u64,
                    hi: exact.div_ceil(total) as u64,
                }
            }
        })
        .collect()
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
/// heap with lazy updates so that handing out many tasks stays cheap. A key is computed from
/// a member's loads (two of them), which tell stale entries apart.
pub(crate) struct LeastLoaded<K> {
    heap: BinaryHeap<Reverse<(K, Pos, u64, u64)>>,
    member: Vec<bool>,
}

impl<K: Ord + Copy> LeastLoaded<K> {
    pub fn new(
        candidates: &[Pos],
        first: &[u64],
        second: &[u64],
        key: impl Fn(Pos) -> K,
    ) -> LeastLoaded<K> {
        let mut member = vec![false; first.len()];
        let heap = candidates
            .iter()
            .map(|&p| {
                member[p] = true;
                Reverse((key(p), p, first[p], second[p]))
            })
            .collect();
        LeastLoaded { heap, member }
    }

    /// The candidate with the smallest key; it stays a candidate. Entries whose loads changed
    /// since they were pushed are stale ([`LeastLoaded::update`] pushed a fresh one) and
    /// dropped.
    pub fn pop_least(&mut self, first: &[u64], second: &[u64]) -> Option<Pos> {
        while let Some(&Reverse((_, p, a, b))) = self.heap.peek() {
            if a == first[p] && b == second[p] {
                return Some(p);
            }
            self.heap.pop();
        }
        None
    }

    /// Records that a member's loads changed, and so its key.
    pub fn update(&mut self, pos: Pos, first: &[u64], second: &[u64], key: K) {
        if self.member[pos] {
            self.heap.push(Reverse((key, pos, first[pos], second[pos])));
        }
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
        let first = [2, 1, 1];
        let second = [2, 5, 3];
        let key = |f: &[u64], s: &[u64], p: Pos| (f[p], s[p]);
        let mut least = LeastLoaded::new(&[0, 1, 2], &first, &second, |p| key(&first, &second, p));
        assert_eq!(least.pop_least(&first, &second), Some(2));
        let second = [2, 5, 6];
        least.update(2, &first, &second, key(&first, &second, 2));
        assert_eq!(least.pop_least(&first, &second), Some(1));
    }
}
