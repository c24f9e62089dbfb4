//! A member as the simulation runs it: what it owns in each role, its local state stores and
//! how it shares its restore rate among everything it replays.

use crate::model::TaskId;
use std::collections::BTreeMap;

/// Lags closer than this to a threshold have reached it (float noise on millions of records).
pub(crate) const EPSILON: f64 = 1e-6;

/// Where a member is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemberStatus {
    /// Running normally.
    Live,
    /// Draining: it was told to leave and gets no new work.
    Leaving,
    /// Killed; the coordinator may not have noticed yet.
    Crashed,
    /// Left the group after draining (or at its scale-down timeout).
    Left,
}

impl MemberStatus {
    /// The name the UI and tests use (`data-state`).
    pub fn name(self) -> &'static str {
        match self {
            MemberStatus::Live => "live",
            MemberStatus::Leaving => "leaving",
            MemberStatus::Crashed => "crashed",
            MemberStatus::Left => "left",
        }
    }

    /// Whether the member is running (live or draining).
    pub fn alive(self) -> bool {
        matches!(self, MemberStatus::Live | MemberStatus::Leaving)
    }
}

/// A local state store: how far into the task's changelog it has replayed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Store {
    /// Records of the changelog applied to this store.
    pub position: f64,
}

/// A member of the group.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Its name, such as `S4`.
    pub name: String,
    /// Its capacity: actives are balanced in proportion to it.
    pub capacity: u32,
    /// Records per second it can restore, shared by everything it replays.
    pub restore_rate: f64,
    /// Where it is in its life.
    pub status: MemberStatus,
    /// When it joined the group; the longest-standing live member leads.
    pub joined_at: u64,
    /// The coordinator counts it as a member (joined, not yet removed).
    pub in_group: bool,
    /// Tasks it runs (or restores as their active owner), sorted.
    pub active: Vec<TaskId>,
    /// Tasks it learns, sorted.
    pub learning: Vec<TaskId>,
    /// Tasks it keeps a standby of, sorted.
    pub standby: Vec<TaskId>,
    /// Its active tasks that a learner replays (from its last assignment).
    pub learned: Vec<TaskId>,
    /// The active tasks of its last assignment; what it released since is `revoked`.
    pub last_assigned: Vec<TaskId>,
    /// Its local state stores, including leftovers of tasks it no longer has.
    pub stores: BTreeMap<TaskId, Store>,
    /// Learners that are ready now (within the acceptable recovery lag).
    pub ready: Vec<TaskId>,
    /// Ready learners it already rejoined for, so it rejoins once for each.
    pub reported: Vec<TaskId>,
    /// When it was drained.
    pub drained_at: Option<u64>,
    /// When it crashed.
    pub crashed_at: Option<u64>,
    /// When it left or was removed from the group.
    pub left_at: Option<u64>,
}

impl Member {
    /// A member that just joined, holding nothing.
    pub fn new(name: String, capacity: u32, restore_rate: f64, joined_at: u64) -> Member {
        Member {
            name,
            capacity,
            restore_rate,
            status: MemberStatus::Live,
            joined_at,
            in_group: true,
            active: Vec::new(),
            learning: Vec::new(),
            standby: Vec::new(),
            learned: Vec::new(),
            last_assigned: Vec::new(),
            stores: BTreeMap::new(),
            ready: Vec::new(),
            reported: Vec::new(),
            drained_at: None,
            crashed_at: None,
            left_at: None,
        }
    }

    /// The lag of its store of a task against the changelog end, if it has one.
    pub fn lag(&self, task: TaskId, changelog_end: f64) -> Option<f64> {
        self.stores
            .get(&task)
            .map(|s| (changelog_end - s.position).max(0.0))
    }

    /// What it released since its last assignment.
    pub fn revoked(&self) -> Vec<TaskId> {
        self.last_assigned
            .iter()
            .copied()
            .filter(|t| self.active.binary_search(t).is_err())
            .collect()
    }

    /// Whether it runs a task.
    pub fn runs(&self, task: TaskId) -> bool {
        self.active.binary_search(&task).is_ok()
    }

    /// Whether it learns a task.
    pub fn learns(&self, task: TaskId) -> bool {
        self.learning.binary_search(&task).is_ok()
    }
}

/// Why a member replays a changelog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayKind {
    /// It owns the task and must catch up before processing (the task is down).
    Active,
    /// It learns the task while another member runs it.
    Learner,
    /// It keeps a standby replica.
    Standby,
}

/// One changelog a member replays, with the rate it gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    /// The task.
    pub task: TaskId,
    /// Why.
    pub kind: ReplayKind,
    /// Records behind the end.
    pub lag: f64,
    /// Records per second appended to the changelog right now.
    pub write_rate: f64,
    /// Records per second this replay gets from the member's restore rate.
    pub rate: f64,
}

/// Shares a member's restore rate evenly among what it replays (system.md): a caught-up
/// replay only needs the task's write rate to stay caught up, and what it leaves over goes
/// to the others in equal parts (water-filling).
pub fn share_restore_rate(total: f64, replays: &mut [Replay]) {
    if replays.is_empty() {
        return;
    }
    // Demand: a lagging replay takes all it can get; a caught-up one its write rate.
    let demand = |r: &Replay| {
        if r.lag > EPSILON {
            f64::INFINITY
        } else {
            r.write_rate
        }
    };
    let mut order: Vec<usize> = (0..replays.len()).collect();
    order.sort_by(|&a, &b| {
        demand(&replays[a])
            .total_cmp(&demand(&replays[b]))
            .then(a.cmp(&b))
    });
    let mut left = total;
    for (i, &idx) in order.iter().enumerate() {
        let fair = left / (order.len() - i) as f64;
        let want = demand(&replays[idx]);
        if want <= fair {
            replays[idx].rate = want;
            left -= want;
        } else {
            for &rest in &order[i..] {
                replays[rest].rate = fair;
            }
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(lag: f64, write_rate: f64) -> Replay {
        Replay {
            task: TaskId(0),
            kind: ReplayKind::Learner,
            lag,
            write_rate,
            rate: 0.0,
        }
    }

    #[test]
    fn restore_rate_is_shared_evenly_among_lagging_replays() {
        let mut r = vec![replay(100.0, 0.0), replay(5.0, 50.0), replay(7.0, 0.0)];
        share_restore_rate(9000.0, &mut r);
        assert!(r.iter().all(|x| (x.rate - 3000.0).abs() < 1e-9));
    }

    #[test]
    fn caught_up_replays_take_only_their_write_rate() {
        let mut r = vec![replay(0.0, 100.0), replay(1000.0, 0.0), replay(0.0, 300.0)];
        share_restore_rate(1000.0, &mut r);
        assert_eq!(r[0].rate, 100.0);
        assert_eq!(r[2].rate, 300.0);
        assert_eq!(r[1].rate, 600.0);
    }

    #[test]
    fn caught_up_replays_fall_behind_when_the_rate_is_too_small() {
        let mut r = vec![replay(0.0, 800.0), replay(0.0, 800.0)];
        share_restore_rate(1000.0, &mut r);
        assert_eq!(r[0].rate, 500.0);
        assert_eq!(r[1].rate, 500.0);
    }
}
