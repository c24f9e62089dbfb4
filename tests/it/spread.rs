//! Every subtopology spread evenly at rest (docs/design.md, rule 9), through whole simulations:
//! random applications of two to five subtopologies (up to 80 partitions each, stateful or
//! not), on members of equal or unequal threads, with one to four joins, crashes and drains,
//! and zero to two standbys. At rest, for the learner design, cooperative and eager
//! rebalancing, each subtopology's active tasks per thread differ by at most one between any
//! two members, and no member holds more than twice its share of a subtopology's stateful
//! replicas (actives and standbys; the seed's 0.5x-2x rule, for each subtopology), so none
//! holds most of one subtopology's standbys.

use handoff::engine::member::Member;
use handoff::engine::Engine;
use handoff::history::Run;
use handoff::model::{Scenario, Strategy as Design, TaskId};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use serde_json::{json, Value};

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(25, |n: u32| (n / 160).max(4))
}

/// A membership change, by what it picks among the members at that moment.
#[derive(Clone, Debug)]
enum Change {
    Join(u32),
    Crash(usize),
    Drain(usize),
}

/// A random application, group and history, as a scenario file.
fn scenario(strategy: Design) -> impl Strategy<Value = Value> {
    let subtopology = (1u32..=80, prop::bool::weighted(0.75), 1_000u64..50_000);
    let change = prop_oneof![
        (1u32..=3).prop_map(Change::Join),
        (0usize..64).prop_map(Change::Crash),
        (0usize..64).prop_map(Change::Drain),
    ];
    (
        prop::collection::vec(subtopology, 2..=5),
        prop::collection::vec(1u32..=3, 2..=10),
        any::<bool>(),
        prop::collection::vec((change, 0u64..60_000), 1..=4),
        (0u32..=2, any::<bool>(), any::<bool>(), any::<u64>()),
    )
        .prop_map(
            move |(subs, threads, equal, changes, (standbys, zoned, two_phase, seed))| {
                let subtopologies: Vec<Value> = subs
                    .iter()
                    .enumerate()
                    .map(|(i, &(partitions, stateful, size))| {
                        if stateful {
                            json!({ "name": format!("s{i}"), "partitions": partitions,
                                    "changelog": { "min": size / 2, "max": size }, "write_rate": 10 })
                        } else {
                            json!({ "name": format!("s{i}"), "partitions": partitions, "stateful": false })
                        }
                    })
                    .collect();
                let zone = |i: usize| zoned.then(|| ["a", "b", "c"][i % 3]);
                let mut members: Vec<Value> = threads
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| {
                        let capacity = if equal { threads[0] } else { t };
                        json!({ "id": format!("S{}", i + 1), "capacity": capacity, "zone": zone(i) })
                    })
                    .collect();
                for m in &mut members {
                    if !zoned {
                        m.as_object_mut().map(|o| o.remove("zone"));
                    }
                }
                // Members that stay live, to pick crashes and drains from; at least one stays.
                let mut live: Vec<String> = (1..=threads.len()).map(|i| format!("S{i}")).collect();
                let mut next = threads.len();
                let mut events = Vec::new();
                let mut times: Vec<u64> = changes.iter().map(|&(_, at)| at).collect();
                times.sort();
                for ((change, _), at) in changes.iter().zip(times) {
                    match *change {
                        Change::Join(t) => {
                            next += 1;
                            let name = format!("S{next}");
                            let capacity = if equal { threads[0] } else { t };
                            let mut e = json!({ "at_ms": at, "join": name, "capacity": capacity });
                            if let Some(z) = zone(next - 1) {
                                e["zone"] = json!(z);
                            }
                            events.push(e);
                            live.push(name);
                        }
                        Change::Crash(i) | Change::Drain(i) if live.len() > 1 => {
                            let name = live.remove(i % live.len());
                            let kind = if matches!(change, Change::Crash(_)) { "crash" } else { "drain" };
                            events.push(json!({ "at_ms": at, kind: name }));
                        }
                        _ => {}
                    }
                }
                json!({
                    "name": "generated",
                    "config": {
                        "strategy": strategy.to_string(),
                        "handoff": if two_phase { "two_phase" } else { "release_at_join" },
                        "num_standby_replicas": standbys,
                        "acceptable_recovery_lag": 1000,
                        "rebalance_ms": 500,
                        "session_timeout_ms": 10000,
                        "restore_rate": 20000
                    },
                    "topology": { "seed": seed, "subtopologies": subtopologies },
                    "members": members,
                    "events": events
                })
            },
        )
}

/// Over subtopologies: the largest difference between two staying members' active tasks of
/// it per thread, and the largest ratio of a member's stateful replicas of it (actives and
/// standbys) to its share of them, where that share is a task or more.
fn spreads(engine: &Engine) -> (f64, f64) {
    let staying: Vec<_> = engine
        .members()
        .iter()
        .filter(|m| m.status.live())
        .collect();
    let zoned = staying.iter().all(|m| m.zone.is_some());
    let groups = engine.tasks().iter().filter_map(|t| t.subtopology).max();
    let (mut actives, mut replicas) = (0.0f64, 0.0f64);
    for g in 0..=groups.unwrap_or(0) {
        let ours = |t: &TaskId| engine.tasks()[t.index()].subtopology == Some(g);
        let of = |list: &[TaskId]| list.iter().filter(|t| ours(t)).count();
        let all = (0..engine.tasks().len() as u32)
            .filter(|&t| ours(&TaskId(t)))
            .count();
        let per_thread = staying
            .iter()
            .map(|m| of(&m.active) as f64 / f64::from(m.capacity));
        let max = per_thread.clone().fold(f64::NEG_INFINITY, f64::max);
        actives = actives.max(max - per_thread.fold(f64::INFINITY, f64::min));
        // A member holding every task of a subtopology is at the limit of one replica each;
        // the others share the rest in proportion to their threads (within their zone where
        // replicas are spread over zones, since each zone holds its replicas).
        let held = |m: &Member| of(&m.active) + of(&m.standby);
        for m in staying.iter().filter(|m| held(m) < all) {
            let peers = staying
                .iter()
                .filter(|o| held(o) < all && (!zoned || o.zone == m.zone));
            let (units, threads) = peers.fold((0, 0), |(u, c), o| (u + held(o), c + o.capacity));
            let share = units as f64 * f64::from(m.capacity) / f64::from(threads);
            if share >= 1.0 {
                replicas = replicas.max(held(m) as f64 / share);
            }
        }
    }
    (actives, replicas)
}

fn check(file: &Value) -> Result<(), TestCaseError> {
    let scenario = Scenario::from_json(&file.to_string())
        .map_err(|e| TestCaseError::fail(format!("invalid scenario: {e}\n{file}")))?;
    let mut run = Run::new(scenario);
    run.run_to_end()
        .map_err(|e| TestCaseError::fail(format!("{e}\n{file}")))?;
    let engine = run.engine();
    prop_assert!(
        run.violations().is_empty(),
        "{:?}\n{file}",
        run.violations()
    );
    prop_assert!(
        engine.at_rest(),
        "not at rest at {} ms\n{file}",
        engine.time()
    );
    let (actives, replicas) = spreads(engine);
    prop_assert!(
        actives <= 1.0 + 1e-9,
        "active spread {actives} per thread at rest\n{file}"
    );
    prop_assert!(
        replicas <= 2.0 + 1e-9,
        "a member holds {replicas} times its share of a subtopology's replicas at rest\n{file}"
    );
    Ok(())
}

/// Runs the property over `cases()` random scenarios of one strategy. A runner of its own,
/// since `proptest!` lets `PROPTEST_CASES` override the count, and a whole simulation per
/// case is too slow to run as many as the assignor-only properties do.
fn spreads_every_subtopology(strategy: Design) {
    let config = ProptestConfig {
        cases: cases(),
        max_shrink_iters: 500,
        source_file: Some(file!()),
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&scenario(strategy), |file| check(&file)) {
        panic!("{e}");
    }
}

#[test]
fn the_learner_design_spreads_every_subtopology() {
    spreads_every_subtopology(Design::Learner);
}

#[test]
fn cooperative_rebalancing_spreads_every_subtopology() {
    spreads_every_subtopology(Design::Cooperative);
}

#[test]
fn eager_rebalancing_spreads_every_subtopology() {
    spreads_every_subtopology(Design::Eager);
}
