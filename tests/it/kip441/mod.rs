//! Kafka Streams' own tests of its high-availability task assignor, ported to the `kip441`
//! strategy under their names (snake_case): HighAvailabilityTaskAssignorTest (through the
//! assignor the engine and `handoff assign` run), TaskMovementTest and the single-tag (zone)
//! cases of ClientTagAwareStandbyTaskAssignorTest (through the strategy's own functions).
//!
//! Kafka's tests also hand the assignor each client's previous tasks, which it never reads
//! (its stickiness comes from lags only); here a client reports lags only, so every decision
//! is Kafka's one-rebalance decision. Kafka's warm-ups are standbys; here they are learners,
//! so "standbys" below counts both. Not ported: the KIP-925 rack-aware traffic optimiser
//! (`shouldRemainOriginalAssignmentWithoutTrafficCostForMinCostStrategy`, the 4-argument
//! movement checks) and the cases that need two tag keys (zone and cluster).

mod high_availability;
mod movement;
mod tags;

use handoff::assignor::kip441::{
    assign_active_task_movements, assign_standby_task_movements, assign_standbys,
    should_move_a_task, standby_move_allowed, Client, Lag, Lags,
};
use handoff::assignor::measure::{MemberLoad, Skew};
use handoff::assignor::{self, AssignInput};
use handoff::model::{AssignorConfig, JoinMetadata, MemberId, Strategy, TaskId, TaskInfo};
use std::collections::{BTreeMap, BTreeSet};

/// A lag of "nothing": the whole changelog (Kafka's tests use `Long.MAX_VALUE`).
pub(super) const NONE: u64 = 1_000_000_000;

/// Task names in Kafka's order (subtopology, then partition).
pub(super) fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    v.sort_by_key(|n| subtopology_and_partition(n));
    v.dedup();
    v
}

pub(super) fn subtopology_and_partition(name: &str) -> (u32, u32) {
    let (s, p) = name.split_once('_').expect("a task is named s_p");
    (
        s.parse().expect("subtopology"),
        p.parse().expect("partition"),
    )
}

/// One client of a test: capacity and its lag per task (tasks left out have no state).
pub(super) struct ClientSpec {
    capacity: u32,
    lags: Vec<(&'static str, u64)>,
}

pub(super) fn client(capacity: u32, lags: &[(&'static str, u64)]) -> ClientSpec {
    ClientSpec {
        capacity,
        lags: lags.to_vec(),
    }
}

/// Kafka's `mock`: capacity 1, lag 0 on the given tasks.
pub(super) fn caught_up_on(tasks: &[&'static str]) -> ClientSpec {
    client(1, &tasks.iter().map(|&t| (t, 0)).collect::<Vec<_>>())
}

/// The settings of a test: acceptable recovery lag, max warm-up replicas, standbys.
pub(super) struct Settings(u64, u32, u32);

pub(super) const NO_STANDBY: Settings = Settings(100, 2, 0);
pub(super) const ONE_STANDBY: Settings = Settings(100, 2, 1);

/// What a client ended up with.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Got {
    active: Vec<String>,
    /// Standbys and warm-ups, as Kafka counts them.
    standby: Vec<String>,
    warmup: Vec<String>,
}

pub(super) struct Outcome {
    clients: Vec<Got>,
    capacity: Vec<u32>,
    stateful: Vec<String>,
    probing: bool,
}

/// Runs the `kip441` strategy once, as the leader would, on clients reporting lags only.
pub(super) fn hata(
    clients: &[ClientSpec],
    all: &[&str],
    stateful: &[&str],
    settings: Settings,
) -> Outcome {
    let names = sorted(all);
    let stateful = sorted(stateful);
    let id = |n: &str| TaskId(names.iter().position(|x| x == n).expect("known task") as u32);
    let tasks: Vec<TaskInfo> = names
        .iter()
        .map(|n| {
            let s = stateful.contains(n);
            TaskInfo {
                stateful: s,
                changelog: if s { NONE } else { 0 },
                records: if s { NONE } else { 0 },
                subtopology: 0,
            }
        })
        .collect();
    let members: Vec<JoinMetadata> = clients
        .iter()
        .enumerate()
        .map(|(i, c)| JoinMetadata {
            member: MemberId(i as u32),
            capacity: c.capacity,
            lags: c
                .lags
                .iter()
                .filter(|(_, l)| *l < NONE)
                .map(|&(t, l)| (id(t), l))
                .collect(),
            ..JoinMetadata::default()
        })
        .collect();
    let config = AssignorConfig {
        strategy: Strategy::Kip441,
        acceptable_recovery_lag: settings.0,
        num_standby_replicas: settings.2,
        max_learners: Some(settings.1),
        rack_aware_standbys: false,
    };
    let out = assignor::assign(AssignInput {
        config: &config,
        tasks: &tasks,
        members: &members,
    })
    .expect("assigns");
    assert!(!out.followup, "nobody ran anything, so nothing is revoked");
    let name = |t: &TaskId| names[t.index()].clone();
    Outcome {
        clients: out
            .members
            .iter()
            .map(|(_, a)| {
                let mut standby: Vec<String> =
                    a.standby.iter().chain(&a.learning).map(name).collect();
                standby.sort_by_key(|n| subtopology_and_partition(n));
                Got {
                    active: a.assigned.iter().map(name).collect(),
                    standby,
                    warmup: a.learning.iter().map(name).collect(),
                }
            })
            .collect(),
        capacity: clients.iter().map(|c| c.capacity).collect(),
        stateful,
        probing: out.probing,
    }
}

pub(super) fn set(names: &[&str]) -> Vec<String> {
    sorted(names)
}

pub(super) const A9: [&str; 9] = [
    "0_0", "0_1", "0_2", "1_0", "1_1", "1_2", "2_0", "2_1", "2_2",
];
pub(super) const T4: [&str; 4] = ["0_0", "0_1", "0_2", "0_3"];

impl Outcome {
    pub(super) fn active(&self, c: usize) -> Vec<String> {
        self.clients[c].active.clone()
    }

    pub(super) fn standby(&self, c: usize) -> Vec<String> {
        self.clients[c].standby.clone()
    }

    pub(super) fn assigned(&self, c: usize) -> usize {
        self.clients[c].active.len() + self.clients[c].standby.len()
    }

    /// Kafka's `assertValidAssignment`: every task on min(clients, 1 + standbys) clients
    /// (stateless: one), up to `warmups` tasks with one more; no standby of a stateless task.
    pub(super) fn valid(&self, standbys: usize, warmups: usize) {
        let mut holders: BTreeMap<String, usize> = BTreeMap::new();
        for got in &self.clients {
            for t in got.active.iter().chain(&got.standby) {
                *holders.entry(t.clone()).or_default() += 1;
            }
            for t in &got.standby {
                assert!(self.stateful.contains(t), "standby of stateless {t}");
            }
        }
        let mut allowance = warmups;
        for (t, n) in holders {
            let stateful = self.stateful.contains(&t);
            let expected = self
                .clients
                .len()
                .min(1 + if stateful { standbys } else { 0 });
            if n == expected + 1 && allowance > 0 {
                allowance -= 1;
            } else {
                assert_eq!(n, expected, "{t} is held by {n} clients");
            }
        }
    }

    pub(super) fn skew(&self) -> Skew {
        let loads: Vec<MemberLoad> = self
            .clients
            .iter()
            .zip(&self.capacity)
            .map(|(got, &capacity)| {
                let stateful_active = got
                    .active
                    .iter()
                    .filter(|t| self.stateful.contains(t))
                    .count();
                MemberLoad {
                    capacity,
                    zone: None,
                    active: got.active.len(),
                    stateful_active,
                    stateful_replicas: stateful_active
                        + got
                            .standby
                            .iter()
                            .filter(|t| self.stateful.contains(t))
                            .count(),
                }
            })
            .collect();
        Skew::of(&loads, usize::MAX, false)
    }

    /// Kafka's `assertBalancedActiveAssignment`.
    pub(super) fn balanced_active(&self) {
        assert!(self.skew().active <= 1.0, "{:?}", self.skew());
    }

    /// Kafka's `assertBalancedStatefulAssignment`.
    pub(super) fn balanced_stateful(&self) {
        assert!(self.skew().stateful_replicas <= 1.0, "{:?}", self.skew());
    }

    /// Kafka's `analyzeTaskAssignmentBalance`: the largest spread, over subtopologies with an
    /// active task, of their active tasks per client.
    pub(super) fn subtopology_skew(&self) -> usize {
        let mut per: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (c, got) in self.clients.iter().enumerate() {
            for t in &got.active {
                let s = subtopology_and_partition(t).0;
                per.entry(s).or_insert_with(|| vec![0; self.clients.len()])[c] += 1;
            }
        }
        per.values()
            .map(|counts| counts.iter().max().unwrap_or(&0) - counts.iter().min().unwrap_or(&0))
            .max()
            .unwrap_or(0)
    }
}

pub(super) fn lagging(tasks: &[&'static str], lag: u64) -> Vec<(&'static str, u64)> {
    tasks.iter().map(|&t| (t, lag)).collect()
}

/// Task ids of some names among `all`.
pub(super) fn ids(all: &[&str], tasks: &[&str]) -> BTreeSet<TaskId> {
    let names = sorted(all);
    tasks
        .iter()
        .map(|t| TaskId(names.iter().position(|x| x == t).expect("task") as u32))
        .collect()
}

pub(super) const THREE: [&str; 3] = ["0_0", "0_1", "0_2"];
