//! Sweeps (`src/sweep/`): a sweep's cell is the comparison's run at that value, whether the
//! value is applied through the file format by the sweep or set by hand on the scenario;
//! parallel and sequential sweeps agree; bad values and unknown settings are refused with the
//! setting's name before anything runs; and a property of the learner design read off sweeps:
//! for a group at rest, more standbys never make a crash cost more downtime.

use crate::harness::{run_to_end, scenario_file};
use handoff::compare::{self, Comparison};
use handoff::engine::EventKind;
use handoff::history::Run;
use handoff::model::{
    Command, MemberId, MemberSpec, Scenario, Strategy, Task, TaskId, TimedCommand,
};
use handoff::model::{Config, HandoffMode, Readiness};
use handoff::sweep::{self, Axis, Question, Sweep, SweepError};
use handoff::views::metrics::Measure;
use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use proptest::test_runner::Config as ProptestConfig;
use std::sync::atomic::{AtomicUsize, Ordering};

const REVIEW: &str = "scenarios/review/scale-out-under-load.json";

fn question(settings: &[&str]) -> Question {
    Question::new(
        settings
            .iter()
            .map(|s| s.parse::<Axis>().expect(s))
            .collect(),
    )
}

/// Every measure's figure of every strategy in a comparison, as `handoff compare` prints it.
fn compared(c: &Comparison) -> Vec<Vec<String>> {
    let (header, rows) = compare::cells(c);
    rows.iter()
        .map(|row| {
            header
                .iter()
                .zip(row)
                .filter(|(h, _)| {
                    handoff::views::metrics::MEASURES
                        .iter()
                        .any(|m| m.column == **h)
                })
                .map(|(_, cell)| cell.clone())
                .collect()
        })
        .collect()
}

/// The same figures of a sweep of one value, one row per strategy.
fn swept(s: &Sweep, columns: &[&str]) -> Vec<Vec<String>> {
    s.cells
        .iter()
        .map(|cell| {
            columns
                .iter()
                .map(|c| {
                    let m = handoff::views::metrics::MEASURES
                        .iter()
                        .find(|m| m.column == *c)
                        .expect("a measure");
                    handoff::views::metrics::figure(cell.figure(m))
                })
                .collect()
        })
        .collect()
}

/// A sweep of one value against the comparison of a scenario set to it by hand, measure by
/// measure (every measure the comparison shows).
fn equals_compare(setting: &str, by_hand: &Scenario) {
    let base = scenario_file(REVIEW);
    let mut q = question(&[setting]);
    q.measures = handoff::views::metrics::MEASURES.to_vec();
    let s = Sweep::run(&q, &base).expect("runs");
    let c = Comparison::run(by_hand, Strategy::ALL).expect("runs");
    let (header, _) = compare::cells(&c);
    let columns: Vec<&str> = header[1..].to_vec();
    assert_eq!(s.cells.len(), Strategy::ALL.len());
    for (cell, outcome) in s.cells.iter().zip(&c.outcomes) {
        assert_eq!(cell.strategy, outcome.strategy);
        assert_eq!(cell.at_rest, outcome.metrics.at_rest);
    }
    assert_eq!(swept(&s, &columns), compared(&c), "{setting}");
}

#[test]
fn a_sweep_of_one_value_is_the_comparison_at_that_value() {
    let base = scenario_file(REVIEW);
    // The scenario's own value: the scenario itself.
    equals_compare("num_standby_replicas=1", &base);
    // Other values, set by hand on the validated scenario rather than through the file.
    let mut two = base.clone();
    two.config.num_standby_replicas = 2;
    equals_compare("num_standby_replicas=2", &two);
    let mut warmups = base.clone();
    warmups.config.kip441.max_warmup_replicas = 5;
    equals_compare("kip441.max_warmup_replicas=5", &warmups);
    let mut slow = base.clone();
    slow.config.restore_rate = 20_000;
    equals_compare("restore_rate=2e4", &slow);
}

#[test]
fn parallel_and_sequential_sweeps_are_identical() {
    let base = scenario_file(REVIEW);
    let q = question(&[
        "num_standby_replicas=0,1,2",
        "acceptable_recovery_lag=0,10000,1e6",
    ]);
    let done = AtomicUsize::new(0);
    let parallel = Sweep::run_parallel(&q, &base, &|| {
        done.fetch_add(1, Ordering::Relaxed);
    })
    .expect("runs");
    let sequential = Sweep::run(&q, &base).expect("runs");
    assert_eq!(parallel, sequential);
    assert_eq!(parallel.cells.len(), 36);
    assert_eq!(done.load(Ordering::Relaxed), 36, "every cell reported once");
    for (i, cell) in parallel.cells.iter().enumerate() {
        assert_eq!(cell.index, i, "in index order");
        assert_eq!(sweep::run_cell(&q, &base, i).expect("runs"), *cell, "alone");
    }
}

#[test]
fn bad_values_are_refused_with_the_setting_before_anything_runs() {
    let base = scenario_file(REVIEW);
    let refused = |settings: &[&str]| {
        let q = question(settings);
        let ran = AtomicUsize::new(0);
        let e = Sweep::run_parallel(&q, &base, &|| {
            ran.fetch_add(1, Ordering::Relaxed);
        })
        .expect_err("refused");
        assert_eq!(ran.load(Ordering::Relaxed), 0, "{settings:?}: nothing ran");
        assert_eq!(sweep::check(&q, &base), Err(e.clone()));
        e
    };
    let e = refused(&["num_standby_replicas=0,1,-1"]);
    assert_eq!(
        e.to_string(),
        "num_standby_replicas=-1: config.num_standby_replicas: invalid value: integer `-1`, expected u32"
    );
    let e = refused(&["restore_rate=1e4..1e6x10", "max_learners=null,0"]);
    assert!(
        e.to_string()
            .starts_with("max_learners=0: config.max_learners: 0 would forbid every learner"),
        "{e}"
    );
    // Twelve running instances already hold S13, which the scenario's first join names.
    let e = refused(&["instances.count=12,13"]);
    assert!(
        matches!(&e, SweepError::Refused { setting, value, .. } if setting == "instances.count" && value == "13"),
        "{e}"
    );
    assert!(e.to_string().contains("S13"), "{e}");
    // Each value valid alone, not together.
    let e = refused(&[
        "topology.subtopologies[1].changelog.min=1e6,3e6",
        "topology.subtopologies[1].changelog.max=2e6,4e6",
    ]);
    assert_eq!(
        e.to_string(),
        "topology.subtopologies[1].changelog.min=3000000, topology.subtopologies[1].changelog.max=2000000: topology.subtopologies[1].changelog: min (3000000) is above max (2000000)"
    );
    let e = refused(&["standbys=0,1"]);
    let SweepError::Unknown { setting, nearest } = &e else {
        panic!("{e}")
    };
    assert_eq!(setting, "standbys");
    assert!(nearest.contains(&"num_standby_replicas".to_string()), "{e}");
    assert!(
        e.to_string()
            .starts_with("standbys: no such setting in this scenario; the nearest are "),
        "{e}"
    );
    let e = refused(&["strategy=learner"]);
    assert!(
        e.to_string().starts_with("strategy: the strategies are"),
        "{e}"
    );
    let e = refused(&["rebalance_ms=1000", "config.rebalance_ms=2000"]);
    assert_eq!(
        e.to_string(),
        "config.rebalance_ms: swept twice: give each setting once"
    );
    let e = refused(&["a=1", "b=1", "c=1"]);
    assert_eq!(e, SweepError::Settings(3));
    let e = refused(&["num_standby_replicas=0..200", "restore_rate=1..100"]);
    assert_eq!(e, SweepError::TooLarge(201 * 100 * 4));
}

#[test]
fn the_application_can_be_swept_by_instances_and_threads() {
    let base = scenario_file(REVIEW);
    let mut q = question(&["instances.threads=1..3"]);
    q.strategies = vec![Strategy::Learner];
    let s = Sweep::run(&q, &base).expect("runs");
    let by_hand = |threads: u32| {
        let mut scenario = base.clone();
        for m in &mut scenario.members {
            m.capacity = threads;
        }
        if let Some(i) = scenario.instances.as_mut() {
            i.threads = threads;
        }
        Comparison::run(&scenario, &[Strategy::Learner]).expect("runs")
    };
    let moves = Measure::find("moves").expect("moves");
    for (cell, threads) in s.cells.iter().zip(1..=3) {
        let c = by_hand(threads);
        assert_eq!(
            cell.figure(&moves),
            moves.read(&c.outcomes[0].metrics),
            "{threads} threads"
        );
    }
}

/// A group at rest: `tasks` (changelog, write rate) dealt round `members` of `capacity`
/// threads (each with its restore rate), balanced as the leader leaves a group, each standby
/// caught up (the engine places them so at the start), and one member crashing at `crash_at`.
fn at_rest(
    config: Config,
    tasks: &[(u64, u64)],
    (capacity, members): (u32, &[u64]),
    (crashed, crash_at): (usize, u64),
) -> Scenario {
    let member_count = members.len();
    Scenario {
        name: "a crash at rest".to_string(),
        description: String::new(),
        config,
        tasks: tasks
            .iter()
            .enumerate()
            .map(|(i, &(changelog, write_rate))| {
                Task::new(format!("T{}", i + 1), true, changelog, write_rate)
            })
            .collect(),
        members: members
            .iter()
            .enumerate()
            .map(|(i, &rate)| MemberSpec {
                name: format!("S{}", i + 1),
                capacity,
                restore_rate: Some(rate),
                zone: None,
            })
            .collect(),
        initial: Some(
            (0..tasks.len())
                .map(|t| Some(MemberId((t % member_count) as u32)))
                .collect(),
        ),
        commands: vec![TimedCommand {
            at_ms: crash_at,
            command: Command::Crash(format!("S{}", crashed % member_count + 1)),
        }],
        until_ms: None,
        topology: None,
        instances: None,
    }
}

/// `PROPTEST_CASES`, or 500.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

fn crash_case() -> impl proptest::strategy::Strategy<Value = Scenario> {
    (
        prop_oneof![
            Just(HandoffMode::ReleaseAtJoin),
            Just(HandoffMode::TwoPhase)
        ],
        prop_oneof![Just(Readiness::Eager), Just(Readiness::Stable)],
        prop_oneof![Just(0u64), Just(200), Just(20_000)],
        prop_oneof![Just(500u64), Just(2_000)],
        prop_oneof![Just(1_000u64), Just(10_000), Just(45_000)],
        prop::collection::vec((0u64..200_000, 0u64..500), 1..12),
        (1u32..3, prop::collection::vec(5_000u64..50_000, 3..6)),
        (0usize..6, 1u64..60_000),
    )
        .prop_map(
            |(handoff, readiness, lag, rebalance_ms, session_timeout_ms, tasks, members, crash)| {
                let config = Config {
                    handoff,
                    readiness,
                    acceptable_recovery_lag: lag,
                    rebalance_ms: Some(rebalance_ms),
                    session_timeout_ms,
                    ..Config::default()
                };
                at_rest(config, &tasks, (members.0, &members.1), crash)
            },
        )
}

/// The outage of each of the crashed member's tasks: from the crash until it runs again.
fn crash_outages(scenario: &Scenario) -> Vec<u64> {
    let run = run_to_end(scenario, Strategy::Learner);
    let crash = &scenario.commands[0];
    let Command::Crash(name) = &crash.command else {
        return Vec::new();
    };
    let crashed = run.engine().roster().member_id(name);
    let orphans = scenario
        .initial
        .iter()
        .flatten()
        .enumerate()
        .filter(|(_, o)| **o == crashed);
    orphans
        .map(|(t, _)| {
            let task = TaskId(t as u32);
            let up = run
                .events()
                .iter()
                .find(|e| e.at >= crash.at_ms && e.kind == EventKind::TaskUp(task));
            up.map_or(u64::MAX, |e| e.at - crash.at_ms)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// In the learner design, for a group at rest, the outage a crash causes (the crashed
    /// member's tasks, from the crash until each runs again) never lengthens as standbys go
    /// from 0 to 1 to 2: each standby is a caught-up copy such a task moves to at once (rule
    /// 3). The crash's total downtime can grow; `one_standby_can_make_a_crash_cost_more`
    /// names why.
    #[test]
    fn more_standbys_never_lengthen_the_outage_of_a_crash_at_rest(scenario in crash_case()) {
        let mut outages = Vec::new();
        for standbys in 0..3u32 {
            let mut s = scenario.clone();
            s.config.num_standby_replicas = standbys;
            // At rest as the leader leaves a group: every task has its standbys at the start.
            let start = Run::new(s.clone());
            let copies = start.engine().members().iter().map(|m| m.standby.len()).sum::<usize>();
            let wanted = (standbys as usize).min(s.members.len() - 1) * s.tasks.len();
            prop_assert_eq!(copies, wanted, "standbys at the start");
            outages.push(crash_outages(&s));
        }
        for pair in outages.windows(2) {
            prop_assert!(
                pair[0].iter().zip(&pair[1]).all(|(fewer, more)| more <= fewer),
                "outages of the crashed member's tasks with 0, 1, 2 standbys: {outages:?}"
            );
        }
    }
}

/// Where the model says otherwise, and why: one standby makes this crash cost more downtime
/// in all than none. S1 runs T1 (100,000 records), S2 runs T2 (2,000 records), S3 runs
/// nothing; S2 crashes at 1 s, noticed at 11 s (the 10 s session timeout), each round 500 ms,
/// restores at 10,000 records/s. Figures by hand:
/// - no standby: T2 goes to S3, the least loaded (rule 3), which restores its 2,000 records
///   while it is down: 10 s + 0.5 s + 0.2 s = 10,700 ms;
/// - one standby: T1's is on S3, T2's on S1. T2 goes to its caught-up copy on S1 at once
///   (10,500 ms), and S1, now running two tasks while S3 runs none, hands T1 to S3, whose
///   standby is a ready learner: a planned handoff, which costs T1 a round under
///   `release_at_join` (500 ms). 11,000 ms: the round costs more than the 200 ms restore the
///   standby saved;
/// - two standbys: S3 holds both copies, and T2 goes to it at once: 10,500 ms.
#[test]
fn one_standby_can_make_a_crash_cost_more() {
    let teaching = Config {
        rebalance_ms: Some(500),
        session_timeout_ms: 10_000,
        ..Config::default()
    };
    let scenario = at_rest(
        teaching,
        &[(100_000, 0), (2_000, 0)],
        (1, &[10_000; 3]),
        (1, 1_000),
    );
    let mut q = question(&["num_standby_replicas=0,1,2"]);
    q.strategies = vec![Strategy::Learner];
    let s = Sweep::run(&q, &scenario).expect("runs");
    let downtime = Measure::find("total_downtime_ms").expect("measure");
    let moves = Measure::find("moves").expect("measure");
    let figures = |m: &Measure| s.cells.iter().map(|c| c.figure(m)).collect::<Vec<_>>();
    assert_eq!(
        figures(&downtime),
        [Some(10_700), Some(11_000), Some(10_500)]
    );
    assert_eq!(
        figures(&moves),
        [Some(1), Some(2), Some(1)],
        "the extra handoff"
    );
    assert_eq!(crash_outages(&scenario), [10_700]);
}
