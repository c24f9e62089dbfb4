//! Deployments without static membership: every member restarts in turn and comes back, with
//! its disk, as a new member that reports only its stores. Nobody ran its tasks while it was
//! away, so its stores are as caught up as any standby: the leader gives the tasks back to it
//! (rule 3) instead of to a standby holder that would then have to shed them through learners.
//! Checked on the review's rolling deployment and, as a property, over random groups.

use crate::harness::{learners_given, project, run_to_end};
use handoff::engine::{Engine, EventKind};
use handoff::history::Run;
use handoff::model::{Scenario, Strategy as Design};
use handoff::views::metrics::Metrics;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{json, Value};

const ROLLING: &str = "scenarios/review/rolling-deployment.json";

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

/// The review's rolling deployment with static membership turned off.
fn review_without_static_membership() -> Scenario {
    let text = std::fs::read_to_string(project(ROLLING)).expect("scenario file");
    let mut file: Value = serde_json::from_str(&text).expect("json");
    file["config"]["static_membership"] = Value::Bool(false);
    Scenario::from_json(&file.to_string()).expect("valid scenario")
}

/// When the first member restarted.
fn first_restart(run: &Run) -> u64 {
    run.events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::MemberRestarted(_)))
        .map(|e| e.at)
        .expect("a member restarted")
}

/// The name of the member running each stateful task.
fn stateful_owners(engine: &Engine) -> Vec<Option<String>> {
    engine
        .tasks()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.stateful)
        .map(|(i, _)| {
            let task = handoff::model::TaskId(i as u32);
            engine.owner(task).map(|m| engine.member(m).name.clone())
        })
        .collect()
}

/// Learners the leader placed in rounds from `since` on.
fn learners_since(run: &Run, since: u64) -> usize {
    run.rounds()
        .iter()
        .filter(|r| r.started_at >= since)
        .map(learners_given)
        .sum()
}

/// What the deployment cost from its first restart to the end: rebalances, records replayed
/// (by learners and restoring owners) and learners placed; and whether every stateful task
/// ended on the member that ran it before.
fn deployment(run: &Run) -> (u32, u64, usize, bool) {
    let start = first_restart(run);
    // The group came to rest at that very moment (the last restore may end then); owners
    // are read just before it, while the restarting member still runs its tasks.
    let was = Metrics::of(&run.state_at(start));
    let now = Metrics::of(run.engine());
    let owners = stateful_owners(&run.state_at(start.saturating_sub(1)));
    (
        now.rebalances - was.rebalances,
        now.records_replayed - was.records_replayed,
        learners_since(run, start),
        owners == stateful_owners(run.engine()),
    )
}

#[test]
fn the_review_deployment_without_static_membership_costs_one_rebalance_per_instance() {
    let scenario = review_without_static_membership();
    let instances = scenario.members.len() as u32;
    for strategy in [Design::Learner, Design::Cooperative] {
        let run = run_to_end(&scenario, strategy);
        assert!(run.violations().is_empty(), "{strategy}");
        let (rebalances, replayed, learners, stayed) = deployment(&run);
        assert_eq!(rebalances, instances, "{strategy}: one per return");
        assert_eq!(replayed, 0, "{strategy}: every store came back caught up");
        assert_eq!(learners, 0, "{strategy}: nothing to move back");
        assert!(
            stayed,
            "{strategy}: every stateful task back on its instance"
        );
        let metrics = Metrics::of(run.engine());
        assert!(metrics.at_rest && metrics.balanced, "{strategy}");
        let spread = metrics.subtopology_balance.iter().map(|b| b.spread());
        assert!(
            spread.max() <= Some(1),
            "{strategy}: spread per subtopology"
        );
    }
}

/// A random group (capacities 1 to 3, in zones or not, 0 to 2 standbys per task, writes going
/// on) at rest, then a rolling restart without static membership, each member away less than
/// its session and back with its disk. The session (10 s) runs from the member's last
/// heartbeat, up to one interval (3 s) before it stops: it is away less than 7 s.
fn group() -> impl Strategy<Value = Scenario> {
    let tasks = (
        prop::collection::vec((1_000u64..200_000, 1u64..500), 1..=10),
        0usize..=4,
    );
    let settings = (
        prop::collection::vec(
            (
                1u32..=3,
                prop_oneof![Just(None), Just(Some("a")), Just(Some("b"))],
            ),
            2..=5,
        ),
        0u32..=2,
        prop_oneof![Just(0u64), Just(10_000)],
        prop_oneof![Just("release_at_join"), Just("two_phase")],
        prop_oneof![Just("eager"), Just("stable")],
        1u64..7_000,
    );
    (tasks, settings).prop_map(
        |((stateful, stateless), (members, standbys, lag, handoff, readiness, down_ms))| {
            let mut tasks: Vec<Value> = stateful
                .iter()
                .enumerate()
                .map(|(i, &(changelog, write_rate))| {
                    json!({ "id": format!("T{}", i + 1), "changelog": changelog,
                            "write_rate": write_rate })
                })
                .collect();
            for i in 0..stateless {
                let id = format!("T{}", stateful.len() + i + 1);
                tasks.push(json!({ "id": id, "stateful": false }));
            }
            let members: Vec<Value> = members
                .iter()
                .enumerate()
                .map(|(i, (capacity, zone))| {
                    json!({ "id": format!("S{}", i + 1), "capacity": capacity, "zone": zone })
                })
                .collect();
            let file = json!({
                "name": "rolling restart",
                "config": { "num_standby_replicas": standbys, "acceptable_recovery_lag": lag,
                            "handoff": handoff, "readiness": readiness,
                            "session_timeout_ms": 10_000, "static_membership": false },
                "tasks": tasks,
                "members": members,
                "events": [ { "at_ms": 0,
                              "rolling_restart": { "down_ms": down_ms, "keep_state": true } } ],
            });
            Scenario::from_json(&file.to_string()).expect("valid scenario")
        },
    )
}

#[test]
fn a_member_back_with_its_disk_gets_its_stateful_tasks_back_without_learners() {
    let config = ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(scenario in group())| {
        let run = run_to_end(&scenario, Design::Learner);
        prop_assert!(run.violations().is_empty(), "{:?}", run.violations());
        let (_, replayed, learners, stayed) = deployment(&run);
        prop_assert_eq!(replayed, 0);
        prop_assert_eq!(learners, 0);
        prop_assert!(stayed);
    });
}

/// Under Kafka's assignor a member back from a restart without static membership reports only
/// its stores; when a task it holds a store of goes to it while another member still runs it,
/// it keeps that store as a temporary standby until the follow-up (as Kafka does), and the
/// store replays meanwhile, so it joins the follow-up closer to the end than it left.
#[test]
fn kip441_keeps_a_returning_members_store_as_a_temporary_standby() {
    let file = json!({
        "name": "restart under kip441",
        "config": { "strategy": "kip441", "rebalance_ms": 2000, "session_timeout_ms": 10000,
                    "restore_rate": 1000, "num_standby_replicas": 1,
                    "kip441": { "acceptable_recovery_lag": 10000 } },
        "tasks": [ { "id": "0_0", "changelog": 50000, "write_rate": 100 },
                   { "id": "0_1", "changelog": 50000, "write_rate": 100 } ],
        "members": [ { "id": "S1" }, { "id": "S2" } ],
        "initial": { "S1": ["0_0"], "S2": ["0_1"] },
        "events": [ { "at_ms": 1000, "restart": "S2", "down_ms": 30000, "keep_state": true } ]
    });
    let mut run = Run::new(Scenario::from_json(&file.to_string()).expect("valid"));
    run.run_to_end().expect("runs");
    let task = handoff::model::TaskId(1);
    let rounds = run.rounds();
    let back = rounds
        .iter()
        .position(|r| r.joined.len() == 2)
        .expect("a round with the returning member");
    let (round, follow_up) = (&rounds[back], &rounds[back + 1]);
    let returning = round.joined[1].member;
    let assigned = round.assignment.of(returning).expect("it takes part");
    assert!(
        !assigned.assigned.contains(&task),
        "0_1 waits for the follow-up"
    );
    assert!(
        assigned.standby.contains(&task),
        "a temporary standby of its store"
    );
    let lag_at = |r: &handoff::engine::coordinator::Round| {
        r.joined
            .iter()
            .find(|m| m.member == returning)
            .and_then(|m| m.lag(task))
    };
    let (before, after) = (
        lag_at(round).expect("a store"),
        lag_at(follow_up).expect("a store"),
    );
    assert!(
        after < before,
        "the temporary standby replays: lag {before} -> {after}"
    );
    assert!(follow_up
        .assignment
        .of(returning)
        .is_some_and(|a| a.assigned.contains(&task)));
}
