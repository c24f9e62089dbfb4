//! A Kafka Streams instance ("client") as the high-availability task assignor sees it: its
//! capacity, zone and the tasks it is given, its loads, and the lag of every client on every
//! stateful task.

use crate::model::{MemberId, TaskId};
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// One client of a decision. Clients are always handled in the order of their ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    /// Its id; clients are ordered by it, as Kafka orders process ids.
    pub id: MemberId,
    /// Its stream threads: a weight for its load, never a limit.
    pub capacity: u32,
    /// Its zone (rack), for rack-aware standbys.
    pub zone: Option<String>,
    /// Active tasks given to it so far.
    pub active: BTreeSet<TaskId>,
    /// Standby tasks (and warm-ups) given to it so far.
    pub standby: BTreeSet<TaskId>,
}

impl Client {
    /// A client with nothing assigned yet.
    pub fn new(id: MemberId, capacity: u32, zone: Option<String>) -> Client {
        Client {
            id,
            capacity,
            zone,
            active: BTreeSet::new(),
            standby: BTreeSet::new(),
        }
    }

    /// Active and standby tasks.
    pub fn assigned_count(&self) -> usize {
        self.active.len() + self.standby.len()
    }

    /// Active and standby tasks per stream thread: the load that balancing, standby placement
    /// and movements compare.
    pub fn assigned_load(&self) -> f64 {
        self.assigned_count() as f64 / f64::from(self.capacity)
    }

    /// Active tasks per stream thread: the load stateless tasks are placed by.
    pub fn active_load(&self) -> f64 {
        self.active.len() as f64 / f64::from(self.capacity)
    }

    /// Whether it holds a task, as active or standby.
    pub fn holds(&self, task: TaskId) -> bool {
        self.active.contains(&task) || self.standby.contains(&task)
    }
}

/// How far behind a client's copy of a task is. A running active (Kafka's `LATEST_OFFSET`)
/// sorts before every real lag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lag {
    /// The client runs the task as its active, caught up.
    Running,
    /// Records behind the changelog's end (the whole changelog without local state).
    Records(u64),
}

/// The lag of every client on every stateful task: what clients reported, and the whole
/// changelog for the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lags {
    /// Each task's changelog length: the lag of a client without local state.
    changelog: Vec<u64>,
    /// Per task, the clients (by index) that reported a lag, by (lag, index).
    reported: Vec<Vec<(Lag, usize)>>,
}

impl Lags {
    /// No client holds any state yet; `changelog[t]` is task t's changelog length.
    pub fn new(changelog: Vec<u64>) -> Lags {
        let reported = vec![Vec::new(); changelog.len()];
        Lags {
            changelog,
            reported,
        }
    }

    /// Records the lag a client (by index in client order) reports for a task. A lag beyond
    /// the changelog (a corrupt checkpoint) counts as the whole changelog, as in Kafka.
    pub fn report(&mut self, client: usize, task: TaskId, lag: Lag) {
        let t = task.index();
        let lag = match lag {
            Lag::Records(n) => Lag::Records(n.min(self.changelog[t])),
            running => running,
        };
        let list = &mut self.reported[t];
        list.retain(|&(_, c)| c != client);
        let at = list.partition_point(|&entry| entry < (lag, client));
        list.insert(at, (lag, client));
    }

    /// A client's lag on a task.
    pub fn lag(&self, client: usize, task: TaskId) -> Lag {
        self.reported[task.index()]
            .iter()
            .find(|&&(_, c)| c == client)
            .map_or(Lag::Records(self.changelog[task.index()]), |&(l, _)| l)
    }

    /// Whether a client is caught up on a task: it runs it, or its lag is within the
    /// acceptable recovery lag (every client when that is unbounded).
    pub fn caught_up(&self, client: usize, task: TaskId, acceptable: u64) -> bool {
        match self.lag(client, task) {
            Lag::Running => true,
            Lag::Records(n) => acceptable == u64::MAX || n <= acceptable,
        }
    }

    /// The caught-up clients of a task, in client order, among `clients` clients.
    pub fn caught_up_clients(&self, task: TaskId, acceptable: u64, clients: usize) -> Vec<usize> {
        if self.all_caught_up(task, acceptable) {
            return (0..clients).collect();
        }
        let mut out: Vec<usize> = self.reported_caught_up(task, acceptable).collect();
        out.sort();
        out
    }

    /// How many of `clients` clients are caught up on a task (the length of
    /// [`Lags::caught_up_clients`], without listing them).
    pub fn caught_up_count(&self, task: TaskId, acceptable: u64, clients: usize) -> usize {
        if self.all_caught_up(task, acceptable) {
            clients
        } else {
            self.reported_caught_up(task, acceptable).count()
        }
    }

    /// Every client is caught up on a task: the acceptable lag is unbounded or covers its
    /// whole changelog.
    fn all_caught_up(&self, task: TaskId, acceptable: u64) -> bool {
        acceptable == u64::MAX || self.changelog[task.index()] <= acceptable
    }

    /// The clients that reported a lag within `acceptable` on a task, by lag.
    fn reported_caught_up(
        &self,
        task: TaskId,
        acceptable: u64,
    ) -> impl Iterator<Item = usize> + '_ {
        self.reported[task.index()]
            .iter()
            .filter(move |&&(lag, _)| match lag {
                Lag::Running => true,
                Lag::Records(n) => n <= acceptable,
            })
            .map(|&(_, c)| c)
    }

    /// The smallest lag any of `clients` clients has on a task (the first of [`Lags::by_lag`]).
    pub fn best_lag(&self, task: TaskId, clients: usize) -> Option<Lag> {
        let reported = &self.reported[task.index()];
        let first = reported.first().map(|&(lag, _)| lag);
        if reported.len() < clients {
            let full = Lag::Records(self.changelog[task.index()]);
            Some(first.map_or(full, |f| f.min(full)))
        } else {
            first
        }
    }

    /// Every client by (lag, client order): the reported ones merged with those without state.
    pub fn by_lag(&self, task: TaskId, clients: usize) -> impl Iterator<Item = usize> + '_ {
        let reported = &self.reported[task.index()];
        let full = Lag::Records(self.changelog[task.index()]);
        // A task's reports are few (its owner, standbys, learners), and callers read only
        // the first clients: look each one up rather than mark all clients first.
        let mut others = (0..clients)
            .filter(move |&c| !reported.iter().any(|&(_, r)| r == c))
            .peekable();
        let mut reported = reported.iter().peekable();
        std::iter::from_fn(move || match (reported.peek(), others.peek()) {
            (Some(&&(lag, c)), Some(&o)) => {
                if (lag, c) < (full, o) {
                    reported.next();
                    Some(c)
                } else {
                    others.next();
                    Some(o)
                }
            }
            (Some(&&(_, c)), None) => {
                reported.next();
                Some(c)
            }
            (None, Some(_)) => others.next(),
            (None, None) => None,
        })
    }
}

/// A load compared as Java compares doubles (the loads here are finite and non-negative).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Weight(pub f64);

impl Eq for Weight {}

impl PartialOrd for Weight {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Weight {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Kafka's constrained priority set, always holding every client of one group: the least
/// loaded client (load, then client order) that satisfies a condition. Loads are kept current
/// with [`PrioritySet::update`].
pub(crate) struct PrioritySet {
    set: BTreeSet<(Weight, usize)>,
    weight: Vec<Weight>,
}

impl PrioritySet {
    /// The clients `members` (indices) with their current weights.
    pub fn new(
        members: impl Iterator<Item = usize>,
        weight: impl Fn(usize) -> f64,
        n: usize,
    ) -> Self {
        let mut set = PrioritySet {
            set: BTreeSet::new(),
            weight: vec![Weight(0.0); n],
        };
        for c in members {
            set.weight[c] = Weight(weight(c));
            set.set.insert((set.weight[c], c));
        }
        set
    }

    /// Re-sorts a client whose weight changed.
    pub fn update(&mut self, client: usize, weight: f64) {
        if self.set.remove(&(self.weight[client], client)) {
            self.weight[client] = Weight(weight);
            self.set.insert((self.weight[client], client));
        }
    }

    /// The least loaded client satisfying `accept`, if any; it stays in the set.
    pub fn least(&self, accept: impl Fn(usize) -> bool) -> Option<(Weight, usize)> {
        self.set.iter().copied().find(|&(_, c)| accept(c))
    }
}
