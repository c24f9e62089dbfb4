//! Kafka's streams rebalance protocol (KIP-1071) as the engine runs it under `kip1071` (Kafka
//! 4.3) and `kip1071-warmup` (trunk with the proposed warm-up refiner), each against the
//! figure worked out by hand from the protocol's rules (docs/kip1071.md, "The engine"):
//! heartbeats every 5 s that restart at each one a member sends, the assignor run in the
//! heartbeat that finds the group epoch moved, a task granted only once its owner has
//! acknowledged giving it up, an empty group's first assignment held back 3 s, a crashed
//! member fenced a session after its last heartbeat, a leaving member fenced at once.

use crate::harness::run_to_end;
use handoff::engine::Engine;
use handoff::history::Run;
use handoff::model::{Scenario, Strategy, TaskId};
use handoff::views::metrics::Metrics;

/// Two members running two tasks each (no state unless `changelog` says so), Kafka's streams
/// defaults, and the commands `events`.
fn group(changelog: u64, events: &str) -> Scenario {
    let task =
        |id: &str| format!(r#"{{ "id": "{id}", "changelog": {changelog}, "write_rate": 0 }}"#);
    let tasks = ["T1", "T2", "T3", "T4"].map(task).join(", ");
    Scenario::from_json(&format!(
        r#"{{ "name": "streams", "config": {{ "restore_rate": 10000 }}, "tasks": [ {tasks} ],
            "members": [ {{ "id": "S1" }}, {{ "id": "S2" }} ],
            "initial": {{ "S1": ["T1", "T2"], "S2": ["T3", "T4"] }}, "events": [ {events} ] }}"#
    ))
    .expect("valid scenario")
}

fn task(engine: &Engine, name: &str) -> TaskId {
    engine.roster().task_id(name).expect("task")
}

fn downtime(run: &Run, name: &str) -> u64 {
    Metrics::of(run.engine()).task_downtime[task(run.engine(), name).index()].total_ms
}

fn owner(run: &Run, name: &str) -> String {
    let engine = run.engine();
    let m = engine.owner(task(engine, name)).expect("an owner");
    engine.roster().member(m).to_string()
}

#[test]
fn a_joining_member_gets_a_moved_task_at_its_first_heartbeat_after_the_owner_gave_it_up() {
    // S3 joins at 1,000 ms and the assignor runs in its first heartbeat: T4 is to move from
    // S2. S2 learns of it at its next heartbeat, 5,000 ms (beats every 5 s from 0), stops T4
    // and acknowledges; S3's next heartbeat, 5 s after its first, is at 6,000 ms: T4 runs
    // there, down 1,000 ms. Nothing else moves.
    let r = run_to_end(
        &group(0, r#"{ "at_ms": 1000, "join": "S3" }"#),
        Strategy::Kip1071,
    );
    assert_eq!(downtime(&r, "T4"), 1000);
    assert_eq!(owner(&r, "T4"), "S3");
    for name in ["T1", "T2", "T3"] {
        assert_eq!(downtime(&r, name), 0, "{name}");
    }
    let m = Metrics::of(r.engine());
    assert_eq!((m.rebalances, m.moves), (1, 1));
    assert!(m.at_rest && m.balanced);
}

#[test]
fn a_crashed_member_is_fenced_a_session_after_its_last_heartbeat() {
    // S2 crashes at 7,000 ms; its last heartbeat was at 5,000 ms, so the coordinator fences
    // it at 50,000 ms (45 s sessions), and S1's heartbeat at that moment runs the assignor
    // and takes T3 and T4: each down from 7,000 to 50,000 ms.
    let r = run_to_end(
        &group(0, r#"{ "at_ms": 7000, "crash": "S2" }"#),
        Strategy::Kip1071,
    );
    for name in ["T3", "T4"] {
        assert_eq!(downtime(&r, name), 43_000, "{name}");
        assert_eq!(owner(&r, name), "S1");
    }
    assert_eq!(r.rounds().len(), 1);
    assert_eq!(r.rounds()[0].assigned_at, 50_000);
}

#[test]
fn a_drained_member_leaves_at_once_and_its_tasks_wait_for_the_next_heartbeat() {
    // A streams member sends a leave heartbeat as it closes (4.1 to 4.3 always): fenced at
    // 1,000 ms, its tasks wait for S1's heartbeat at 5,000 ms, which runs the assignor and
    // takes them at once (nobody else holds them).
    for strategy in [Strategy::Kip1071, Strategy::Kip1071Warmup] {
        let r = run_to_end(&group(0, r#"{ "at_ms": 1000, "drain": "S2" }"#), strategy);
        for name in ["T3", "T4"] {
            assert_eq!(downtime(&r, name), 4000, "{strategy}: {name}");
        }
    }
}

#[test]
fn an_empty_group_holds_its_first_assignment_back_for_the_initial_delay() {
    // S1 joins the empty group at 1,000 ms, S2 at 2,000 ms: the first assignment waits until
    // 4,000 ms (3 s after the first join), and each member learns of it at its next
    // heartbeat, 5 s after its join: T1 runs on S1 at 6,000 ms, T2 on S2 at 7,000 ms. A task
    // is down while some member is alive: from 1,000 ms.
    let s = Scenario::from_json(
        r#"{ "name": "empty", "tasks": [ { "id": "T1", "changelog": 0 }, { "id": "T2", "changelog": 0 } ],
            "members": [],
            "events": [ { "at_ms": 1000, "join": "S1" }, { "at_ms": 2000, "join": "S2" } ] }"#,
    )
    .expect("valid scenario");
    let r = run_to_end(&s, Strategy::Kip1071);
    assert_eq!(r.rounds().len(), 1, "one assignment for both joins");
    assert_eq!(r.rounds()[0].assigned_at, 4000);
    assert_eq!(downtime(&r, "T1") + downtime(&r, "T2"), 5000 + 6000);
}

#[test]
fn on_trunk_a_warm_up_is_promoted_once_it_has_caught_up_and_costs_a_heartbeat() {
    // Stores of 100,000 records, restored at 10,000 records/s. S3 joins at 1,000 ms and warms
    // T4 up at once (its heartbeats then fall at 1,050 ms, after its acknowledgement, and
    // every 5 s). The warm-up is within the acceptable lag (10,000) at 10,000 ms and S3
    // reports it at 11,050 ms; the refiner's new epoch reaches S2 at 15,000 ms, which stops
    // T4, and S3 runs it at 16,050 ms from its caught-up store: T4 is down 1,050 ms.
    let join = r#"{ "at_ms": 1000, "join": "S3" }"#;
    let r = run_to_end(&group(100_000, join), Strategy::Kip1071Warmup);
    assert_eq!(downtime(&r, "T4"), 1050);
    assert_eq!(owner(&r, "T4"), "S3");
    let rounds = r.rounds();
    assert_eq!(rounds.len(), 2, "the join, then the refined epoch");
    assert_eq!(rounds[1].assigned_at, 11_050);
    // On 4.3 the moved task restores on S3 while down: from 5,000 ms (S2's heartbeat) to
    // 6,000 ms (S3's), then 100,000 records at 10,000 records/s.
    let r = run_to_end(&group(100_000, join), Strategy::Kip1071);
    assert_eq!(downtime(&r, "T4"), 1000 + 10_000);
}

#[test]
fn trunk_keeps_a_static_members_tasks_while_it_restarts() {
    // Trunk's static member leaves for a while (epoch -2) and comes back to its assignment
    // with no new epoch. 4.3 has no static members: the restart is a leave (a new epoch the
    // assignor meets at the next heartbeat), and S2 comes back at 4,000 ms as a new member,
    // whose first heartbeat, before S1's at 5,000 ms, runs the assignor: the two tasks nobody
    // holds go to the least loaded member, S2, at once.
    let s = group(
        0,
        r#"{ "at_ms": 1000, "restart": "S2", "down_ms": 3000, "keep_state": true }"#,
    );
    let mut s = s;
    s.config.static_membership = true;
    let r = run_to_end(&s, Strategy::Kip1071Warmup);
    assert!(r.rounds().is_empty());
    assert_eq!(downtime(&r, "T3") + downtime(&r, "T4"), 2 * 3000);
    let r = run_to_end(&s, Strategy::Kip1071);
    assert_eq!(r.rounds().len(), 1);
    assert_eq!(r.rounds()[0].assigned_at, 4000);
    assert_eq!(
        r.engine().coordinator().generation(),
        3,
        "the start's epoch 1, a leave, a join"
    );
    assert_eq!(
        (owner(&r, "T3"), owner(&r, "T4")),
        ("S2".into(), "S2".into())
    );
}
