//! Kafka Streams' mechanics as the engine spends them (docs/design.md, "Timing"), each against
//! the figure worked out by hand from Kafka's own rules: compacted changelogs, actives restored
//! before standbys, a restore per stream thread, a closed member waiting for its session, stores
//! deleted by the state cleaner, and the backlog an outage leaves.

use crate::harness::run_to_end;
use handoff::engine::Engine;
use handoff::history::Run;
use handoff::model::{MemberId, Scenario, Strategy, TaskId};
use handoff::views::metrics::Metrics;

fn scenario(config: &str, tasks: &str, members: &str, initial: &str, events: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{ "name": "mechanics", "config": {{ {config} }}, "tasks": [ {tasks} ],
            "members": [ {members} ], "initial": {{ {initial} }}, "events": [ {events} ] }}"#
    ))
    .expect("valid scenario")
}

/// The seed's teaching rounds (500 ms, sessions of 10 s), one restore consumer of 10,000
/// records/s per thread, and more.
const TEACHING: &str = r#""rebalance_ms": 500, "session_timeout_ms": 10000, "restore_rate": 10000"#;

fn task(engine: &Engine, name: &str) -> TaskId {
    engine.roster().task_id(name).expect("task")
}

fn member(engine: &Engine, name: &str) -> MemberId {
    engine.roster().member_id(name).expect("member")
}

fn downtime(run: &Run, name: &str) -> u64 {
    Metrics::of(run.engine()).task_downtime[task(run.engine(), name).index()].total_ms
}

fn replayed_by_actives(run: &Run) -> f64 {
    run.engine().replayed().actives
}

/// Two members each running a store of 1,000,000 keys written 1,000 times a second; S2
/// crashes after ten hours and a quarter of an hour, and S1 restores T2 from its changelog.
fn crash_after_ten_hours(cleanup: &str) -> Run {
    let store = format!(r#""changelog": 1000000, "write_rate": 1000 {cleanup}"#);
    let s = scenario(
        TEACHING,
        &format!(r#"{{ "id": "T1", {store} }}, {{ "id": "T2", {store} }}"#),
        r#"{ "id": "S1" }, { "id": "S2" }"#,
        r#""S1": ["T1"], "S2": ["T2"]"#,
        r#"{ "at_ms": 36250000, "crash": "S2" }"#,
    );
    run_to_end(&s, Strategy::Cooperative)
}

#[test]
fn a_compacted_store_restores_its_keys_and_what_was_written_since_the_last_cleaning() {
    // The log holds 1,000,000 keys clean; the cleaner runs when the dirty part reaches half
    // the log, every 1,000,000 writes (1,000 s), the 36th at 36,000 s. At the crash it holds
    // 1,000,000 + 250 s x 1,000 = 1,250,000 records, restored at 10,000 a second: 125 s, after
    // the session (10 s) and the round (0.5 s).
    let run = crash_after_ten_hours("");
    assert_eq!(replayed_by_actives(&run).round(), 1_250_000.0);
    assert_eq!(downtime(&run, "T2"), 10_000 + 500 + 125_000);
    // An append-only log keeps every write of the 10 h 15 min: 37,250,000 records, 3,725 s.
    let run = crash_after_ten_hours(r#", "cleanup": "append""#);
    assert_eq!(replayed_by_actives(&run).round(), 37_250_000.0);
    assert_eq!(downtime(&run, "T2"), 10_000 + 500 + 3_725_000);
    // A windowed store's log keeps its retention's writes: an hour, 3,600,000 records.
    let run = crash_after_ten_hours(r#", "cleanup": "compact,delete", "retention_ms": 3600000"#);
    assert_eq!(replayed_by_actives(&run).round(), 3_600_000.0);
    assert_eq!(downtime(&run, "T2"), 10_000 + 500 + 360_000);
}

#[test]
fn a_thread_restores_its_actives_before_its_standbys() {
    // S1 has one thread: T1 active and a standby of T2, both 500,000 records. It restarts
    // without its disk and, static, comes back at 2 s to the same assignment. T1 restores
    // alone at 10,000 a second (50 s), and only then the standby (50 s more).
    let s = scenario(
        &format!(r#"{TEACHING}, "num_standby_replicas": 1, "static_membership": true"#),
        r#"{ "id": "T1", "changelog": 500000 }, { "id": "T2", "changelog": 500000 }"#,
        r#"{ "id": "S1" }, { "id": "S2" }"#,
        r#""S1": ["T1"], "S2": ["T2"]"#,
        r#"{ "at_ms": 1000, "restart": "S1", "down_ms": 1000, "keep_state": false }"#,
    );
    let mut run = run_to_end(&s, Strategy::Learner);
    assert_eq!(downtime(&run, "T1"), 1_000 + 50_000);
    // At rest once T1 runs; the standby catches up after.
    run.advance_to(110_000).expect("no more commands");
    let standby_to_read = |at: u64| {
        let engine = run.state_at(at);
        let (s1, t2) = (member(&engine, "S1"), task(&engine, "T2"));
        assert!(engine.member(s1).standby.contains(&t2));
        engine.progress(s1, t2, false).lag.round()
    };
    assert_eq!(standby_to_read(52_000), 500_000.0);
    assert_eq!(standby_to_read(77_000), 250_000.0);
    assert_eq!(standby_to_read(102_000), 0.0);
}

/// S1 with two threads runs two stores of 500,000 records and restarts without its disk;
/// static, it comes back at 2 s to both.
fn two_threads_restore(config: &str) -> Run {
    let s = scenario(
        &format!(r#"{TEACHING}, "static_membership": true {config}"#),
        r#"{ "id": "T1", "changelog": 500000 }, { "id": "T2", "changelog": 500000 },
           { "id": "T3", "changelog": 500000 }"#,
        r#"{ "id": "S1", "capacity": 2 }, { "id": "S2" }"#,
        r#""S1": ["T1", "T2"], "S2": ["T3"]"#,
        r#"{ "at_ms": 1000, "restart": "S1", "down_ms": 1000, "keep_state": false }"#,
    );
    run_to_end(&s, Strategy::Learner)
}

#[test]
fn each_stream_thread_restores_at_the_restore_rate_up_to_the_disk() {
    // Kafka deals T1 and T2 to the two threads, each with its own restore consumer: both
    // restore at 10,000 a second, up 50 s after the return.
    let run = two_threads_restore("");
    assert_eq!(downtime(&run, "T1"), 1_000 + 50_000);
    assert_eq!(downtime(&run, "T2"), 1_000 + 50_000);
    // A disk of 10,000 records a second shared by both threads halves each: 100 s.
    let run = two_threads_restore(r#", "disk_rate": 10000"#);
    assert_eq!(downtime(&run, "T1"), 1_000 + 100_000);
    assert_eq!(downtime(&run, "T2"), 1_000 + 100_000);
}

#[test]
fn a_closed_member_leaves_its_tasks_down_until_its_session_ends() {
    // Kafka's defaults: heartbeats every 3 s, sessions of 45 s, round trips of 50 ms, the
    // leader's work 150 ms. S2 closes at 10 s; its last heartbeat was at 9 s, so the
    // coordinator drops it at 54 s, when S1's heartbeat learns of the round: S1 joins
    // (54,050 ms), assigns (54,200 ms) and has T2 at the sync, 54,250 ms.
    let closing = |strategy: Strategy, membership: &str| {
        let s = scenario(
            membership,
            r#"{ "id": "T1", "changelog": 1000, "write_rate": 10 }, { "id": "T2", "stateful": false }"#,
            r#"{ "id": "S1" }, { "id": "S2" }"#,
            r#""S1": ["T1"], "S2": ["T2"]"#,
            r#"{ "at_ms": 10000, "drain": "S2" }"#,
        );
        let run = run_to_end(&s, strategy);
        assert!(run.violations().is_empty(), "{:?}", run.violations());
        downtime(&run, "T2")
    };
    for strategy in [Strategy::Cooperative, Strategy::Kip441] {
        assert_eq!(closing(strategy, ""), 44_250, "{strategy}");
        // A static member closes with a LeaveGroup (CloseOptions.leaveGroup): S1 learns of the
        // round at its heartbeat at 12 s, and has T2 at 12,250 ms.
        assert_eq!(
            closing(strategy, r#""static_membership": true"#),
            2_250,
            "{strategy}"
        );
    }
}

/// Four stores of 500,000 keys written 10 times a second, on S1 and S2; S3 joins at 1 s and
/// learns one of them, and is drained at `drain_ms`. Returns the run, the member that gave the
/// task to S3 and the task.
fn join_then_drain(drain_ms: u64) -> (Run, MemberId, TaskId) {
    let store = r#""changelog": 500000, "write_rate": 10"#;
    let s = scenario(
        TEACHING,
        &format!(
            r#"{{ "id": "T1", {store} }}, {{ "id": "T2", {store} }}, {{ "id": "T3", {store} }},
               {{ "id": "T4", {store} }}"#
        ),
        r#"{ "id": "S1" }, { "id": "S2" }"#,
        r#""S1": ["T1", "T2"], "S2": ["T3", "T4"]"#,
        &format!(r#"{{ "at_ms": 1000, "join": "S3" }}, {{ "at_ms": {drain_ms}, "drain": "S3" }}"#),
    );
    let run = run_to_end(&s, Strategy::Learner);
    let before = run.state_at(drain_ms - 1);
    let s3 = member(&before, "S3");
    let moved = before.member(s3).active[0];
    let giver = [member(&before, "S1"), member(&before, "S2")]
        .into_iter()
        .find(|&m| run.state_at(900).member(m).runs(moved))
        .expect("someone ran it");
    assert_eq!(run.engine().owner(moved), Some(giver), "it goes back");
    (run, giver, moved)
}

/// Records the learners replayed from `from_ms` on.
fn learned_since(run: &Run, from_ms: u64) -> f64 {
    run.engine().replayed().learners - run.state_at(from_ms).replayed().learners
}

#[test]
fn a_store_left_longer_than_the_cleanup_delay_is_restored_from_scratch() {
    // The cleaner runs every 10 min from the instance's start (at 10 and 20 min) and deletes
    // a store left more than 10 min. Its giver left the task's store at about 1.5 s: back at
    // 5 min, it replays only what was written since (under 10 records a second x 300 s).
    let (run, giver, moved) = join_then_drain(300_000);
    assert!(learned_since(&run, 299_999) < 3_000.0);
    assert!(run
        .state_at(299_999)
        .member(giver)
        .stores
        .contains_key(&moved));
    // At 18 min the store is 10 min old but the cleaner has not run since: still there.
    let (run, _, _) = join_then_drain(1_080_000);
    assert!(learned_since(&run, 1_079_999) < 10_800.0);
    // At 25 min the cleaner of 20 min has deleted it: the whole log again, 500,000 keys and
    // what 25 min of writes added (under 15,000), then what is written during its 52 s replay.
    let (run, _, _) = join_then_drain(1_500_000);
    let learned = learned_since(&run, 1_499_999);
    assert!((514_000.0..=515_600.0).contains(&learned), "{learned}");
}

#[test]
fn an_outage_leaves_a_backlog_worked_off_at_the_spare_processing_rate() {
    // T1 takes 1,000 records a second and processes 5,000. S1 restarts (static, with its
    // disk) for 10 s: 10,000 records pile up, worked off at 4,000 a second, 2.5 s after its
    // return at 11 s. From the restart, 12.5 s to catch up; 10 s to balance.
    let outage = |process_rate: u64| {
        let s = scenario(
            &format!(r#"{TEACHING}, "static_membership": true"#),
            &format!(
                r#"{{ "id": "T1", "changelog": 1000, "write_rate": 1000, "process_rate": {process_rate} }},
                   {{ "id": "T2", "changelog": 1000 }}"#
            ),
            r#"{ "id": "S1" }, { "id": "S2" }"#,
            r#""S1": ["T1"], "S2": ["T2"]"#,
            r#"{ "at_ms": 1000, "restart": "S1", "down_ms": 10000, "keep_state": true }"#,
        );
        Metrics::of(run_to_end(&s, Strategy::Learner).engine())
    };
    let m = outage(5_000);
    assert_eq!(m.time_to_balance_ms, Some(10_000));
    assert_eq!(m.time_to_catch_up_ms, Some(12_500));
    // Processing slower than the input, the backlog only grows.
    assert_eq!(outage(900).time_to_catch_up_ms, None);
}

#[test]
fn what_a_replay_read_counts_though_a_cleaning_then_passes_it() {
    // T1 and T2 hold 1,000 keys written 100 times a second: the cleaner compacts each every
    // 10 s (1,000 writes), moving its log's start on by 1,000 records. S2 joins at 5 s and
    // learns one of them from its log's start at 150 records a second: by the cleaning at
    // 10 s it has read about 675 records, short of the new start at 1,000, and goes on from
    // there. The learner reads 150 records a second all along, the cleaning included.
    let store = r#""changelog": 1000, "write_rate": 100"#;
    let s = scenario(
        r#""rebalance_ms": 500, "session_timeout_ms": 10000, "restore_rate": 150"#,
        &format!(r#"{{ "id": "T1", {store} }}, {{ "id": "T2", {store} }}"#),
        r#"{ "id": "S1" }"#,
        r#""S1": ["T1", "T2"]"#,
        r#"{ "at_ms": 5000, "join": "S2" }"#,
    );
    let run = run_to_end(&s, Strategy::Learner);
    let learned = |ms| run.state_at(ms).replayed().learners;
    let s2 = member(run.engine(), "S2");
    let learning = run.state_at(9_000).member(s2).learning.clone();
    assert_eq!(learning.len(), 1, "S2 learns one task at 9 s");
    let lag = |ms| run.state_at(ms).progress(s2, learning[0], true).lag;
    assert!(lag(11_000) > 0.0, "still learning at 11 s");
    assert!((learned(11_000) - learned(9_000) - 300.0).abs() < 1e-6);
}

#[test]
fn a_learner_that_falls_behind_after_its_member_rejoined_is_reported_again_when_ready() {
    // Found by the learner design's property. S3 is handed a learner of T2 already caught up
    // with an active T4 to restore on its only thread: the learner is ready at once and S3
    // rejoins, but T2's learner waits for T4's restore (Kafka restores actives first), so the
    // join finds it a record behind. Once T4 is up, the learner catches up again: S3 must
    // rejoin then, or it learns T2 for ever.
    let s = scenario(
        r#""strategy": "learner", "handoff": "two_phase", "readiness": "eager",
            "acceptable_recovery_lag": 0, "num_standby_replicas": 1, "max_learners": 1,
            "rebalance_ms": 100, "heartbeat_interval_ms": 250, "session_timeout_ms": 1000"#,
        r#"{ "id": "T1", "stateful": false }, { "id": "T2", "write_rate": 1 },
           { "id": "T3", "changelog": 16199, "write_rate": 67 },
           { "id": "T4", "changelog": 22220, "write_rate": 37 },
           { "id": "T5", "changelog": 15370, "write_rate": 114 }"#,
        r#"{ "id": "S1" }"#,
        r#""S1": ["T1", "T2", "T3", "T4", "T5"]"#,
        r#"{ "at_ms": 0, "drain": "S1" },
           { "at_ms": 15654, "join": "S2", "restore_rate": 15213 },
           { "at_ms": 17432, "join": "S3", "restore_rate": 5000 },
           { "at_ms": 17582, "crash": "S1" }"#,
    );
    let run = run_to_end(&s, Strategy::Learner);
    let (s3, t2, t4) = (
        member(run.engine(), "S3"),
        task(run.engine(), "T2"),
        task(run.engine(), "T4"),
    );
    assert!(
        run.engine().at_rest(),
        "at rest at {} ms",
        run.engine().time()
    );
    assert_eq!(run.engine().owner(t2), Some(s3));
    let rejoins: Vec<u64> = run
        .rounds()
        .iter()
        .filter(|r| {
            r.causes
                .contains(&handoff::engine::coordinator::Cause::LearnerReady(s3))
        })
        .map(|r| r.started_at)
        .collect();
    assert_eq!(
        rejoins.len(),
        2,
        "S3 rejoins twice for its learner: {rejoins:?}"
    );
    assert_eq!(run.engine().owner(t4), Some(s3));
}
