//! Any number, never a hang: scenario files whose numeric fields are set to extreme values
//! (0, 1, the documented limits and one past them, 2^32 - 1, 2^53, 2^63 - 1, u64::MAX) are
//! either refused with an error naming the field, or run to their end within a bounded number
//! of events and a bounded time, under every strategy.

use handoff::history::Run;
use handoff::model::Scenario;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use serde_json::{json, Value};
use std::cell::Cell;
use std::sync::mpsc;
use std::time::Duration;

/// More events than any scenario of this size produces when it is well behaved.
const EVENT_BOUND: usize = 100_000;

/// How long a run may take before it counts as a hang: the test command runs the
/// unoptimized build, many times slower than a release build.
const HANG: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(180)
} else {
    Duration::from_secs(20)
};

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(250, |n: u32| (n / 8).max(16))
}

const EXTREMES: &[u64] = &[
    0,
    1,
    2,
    1_000_000_000_000,
    1_000_000_000_001,
    1_000_000_000_000_000,
    1_000_000_000_000_001,
    31_536_000_000,
    31_536_000_001,
    u32::MAX as u64,
    1 << 53,
    i64::MAX as u64,
    u64::MAX,
];

/// A small scenario with every numeric field present: members and tasks one by one, or an
/// application as a topology on instances.
fn template(topology: bool, strategy: &str) -> Value {
    let config = json!({
        "strategy": strategy, "rebalance_ms": 500, "session_timeout_ms": 10000,
        "restore_rate": 20000, "acceptable_recovery_lag": 1000, "num_standby_replicas": 1,
        "max_learners": 4, "scale_down_timeout_ms": 60000,
        "kip441": { "max_warmup_replicas": 2, "acceptable_recovery_lag": 10000,
                    "probing_interval_ms": 60000 }
    });
    let events = json!([
        { "at_ms": 1000, "join": "S9", "capacity": 2, "restore_rate": 30000 },
        { "at_ms": 2000, "restart": "S1", "down_ms": 5000, "keep_state": true },
        { "at_ms": 3000, "drain": "S2" },
        { "at_ms": 4000, "crash": "S3" }
    ]);
    if topology {
        json!({
            "name": "extreme", "config": config,
            "topology": { "seed": 3, "subtopologies": [
                { "name": "a", "partitions": 6, "changelog": { "min": 100, "max": 5000 },
                  "write_rate": 50 },
                { "name": "b", "partitions": 3, "stateful": false } ] },
            "instances": { "count": 3, "threads": 2, "restore_rate": 25000, "running": true },
            "events": events
        })
    } else {
        json!({
            "name": "extreme", "config": config,
            "tasks": [ { "id": "T1", "changelog": 4000, "write_rate": 20 },
                       { "id": "T2", "changelog": 9000, "write_rate": 5 },
                       { "id": "T3", "stateful": false } ],
            "members": [ { "id": "S1", "capacity": 1, "restore_rate": 10000 },
                         { "id": "S2", "capacity": 2 }, { "id": "S3", "capacity": 1 } ],
            "initial": { "S1": ["T1"], "S2": ["T2", "T3"] },
            "events": events
        })
    }
}

/// The paths of every number in a JSON value.
fn numbers(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Number(_) => out.push(path.clone()),
        Value::Object(map) => {
            for (k, v) in map {
                path.push(k.clone());
                numbers(v, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(i.to_string());
                numbers(v, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn slot<'v>(value: &'v mut Value, path: &[String]) -> &'v mut Value {
    path.iter().fold(value, |v, key| match v {
        Value::Array(items) => &mut items[key.parse::<usize>().expect("an index")],
        other => &mut other[key.as_str()],
    })
}

/// Runs a file to its end on another thread: the number of events, or the error refusing or
/// stopping it; `Err` if it panicked or did not end within the time.
fn run_within(text: String, limit: Duration) -> Result<Result<usize, String>, &'static str> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = Scenario::from_json(&text)
            .map_err(|e| format!("refused: {e}"))
            .and_then(|scenario| {
                let mut run = Run::new(scenario);
                run.run_to_end()
                    .map(|()| run.events().len())
                    .map_err(|e| format!("run error: {e}"))
            });
        let _ = send.send(outcome);
    });
    receive.recv_timeout(limit).map_err(|e| match e {
        mpsc::RecvTimeoutError::Timeout => "did not end in time",
        mpsc::RecvTimeoutError::Disconnected => "panicked",
    })
}

#[test]
fn extreme_numbers_are_refused_or_run_to_a_bounded_end() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        // A case that hangs costs its HANG at every shrinking step.
        max_shrink_iters: 4,
        ..ProptestConfig::default()
    });
    let strategies = prop::sample::select(vec!["learner", "kip441", "cooperative", "eager"]);
    let mutation = (
        any::<bool>(),
        strategies,
        prop::collection::vec(
            (any::<prop::sample::Index>(), prop::sample::select(EXTREMES)),
            1..=3,
        ),
    );
    let (ran, refused) = (Cell::new(0usize), Cell::new(0usize));
    let result = runner.run(&mutation, |(topology, strategy, changes)| {
        let mut file = template(topology, strategy);
        let mut paths = Vec::new();
        numbers(&file, &mut Vec::new(), &mut paths);
        for (index, value) in &changes {
            let path: &Vec<String> = index.get(&paths);
            *slot(&mut file, path) = json!(value);
        }
        let text = file.to_string();
        match run_within(text.clone(), HANG) {
            Err(why) => Err(TestCaseError::fail(format!("{why}: {text}"))),
            Ok(Ok(events)) => {
                ran.set(ran.get() + 1);
                prop_assert!(events <= EVENT_BOUND, "{events} events: {text}");
                Ok(())
            }
            Ok(Err(message)) => {
                refused.set(refused.get() + 1);
                prop_assert!(message.contains(": "), "{message}");
                Ok(())
            }
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The property checks both outcomes, or it checks nothing.
    let (ran, refused) = (ran.get(), refused.get());
    assert!(ran > 0 && refused > 0, "ran {ran}, refused {refused}");
}

#[test]
fn the_limits_are_named_in_one_line() {
    let mut file = template(false, "learner");
    file["tasks"][0]["write_rate"] = json!(1_000_000_000_001u64);
    let error = Scenario::from_json(&file.to_string()).expect_err("over the limit");
    assert_eq!(
        error.to_string(),
        "tasks[0].write_rate: 1000000000001 records/s is over the 1000000000000 records/s a scenario may give"
    );
    let mut file = template(true, "eager");
    file["topology"]["subtopologies"][0]["changelog"]["max"] = json!(u64::MAX);
    let error = Scenario::from_json(&file.to_string()).expect_err("over the limit");
    assert!(error.to_string().starts_with(
        "topology.subtopologies[0].changelog.max: 18446744073709551615 records is over"
    ));
    let mut file = template(true, "eager");
    file["instances"]["restore_rate"] = json!(u64::MAX);
    let error = Scenario::from_json(&file.to_string()).expect_err("over the limit");
    assert!(
        error.to_string().starts_with("instances.restore_rate:"),
        "{error}"
    );
    let mut file = template(false, "cooperative");
    file["tasks"][0]["write_rate"] = json!(1_000_000_000_000u64);
    file["config"]["restore_rate"] = json!(1_000_000_000_000u64);
    file["tasks"][1]["changelog"] = json!(1_000_000_000_000_000u64);
    assert!(
        Scenario::from_json(&file.to_string()).is_ok(),
        "the limits themselves are allowed"
    );
}

/// Found by the property: writes outrunning every restore keep KIP-441 probing every minute
/// (in an append-only log, which compaction does not bring back), and the last command comes
/// a year later. The run stops at the cap on rebalances instead of
/// simulating half a million of them, and its log says so.
#[test]
fn a_group_that_never_rests_stops_after_the_most_rebalances_a_run_is_given() {
    let text = r#"{"name":"extreme","config":{"strategy":"kip441","rebalance_ms":500,"session_timeout_ms":2,"restore_rate":20000,"acceptable_recovery_lag":1000,"num_standby_replicas":1,"max_learners":4,"scale_down_timeout_ms":60000,"kip441":{"max_warmup_replicas":2,"acceptable_recovery_lag":10000,"probing_interval_ms":60000}},"tasks":[{"id":"T1","changelog":4000,"write_rate":20},{"id":"T2","changelog":9000,"write_rate":1000000000000,"cleanup":"append"},{"id":"T3","stateful":false}],"members":[{"id":"S1","capacity":1,"restore_rate":10000},{"id":"S2","capacity":2},{"id":"S3","capacity":1}],"initial":{"S1":["T1"],"S2":["T2","T3"]},"events":[{"at_ms":1000,"join":"S9","capacity":2,"restore_rate":30000},{"at_ms":2000,"restart":"S1","down_ms":5000,"keep_state":true},{"at_ms":3000,"drain":"S2"},{"at_ms":31536000000,"crash":"S3"}]}"#;
    let mut run = Run::new(Scenario::from_json(text).expect("a valid scenario"));
    run.run_to_end().expect("runs");
    assert_eq!(run.rounds().len(), handoff::history::MAX_ROUNDS);
    assert!(
        run.events().len() <= EVENT_BOUND,
        "{} events",
        run.events().len()
    );
    assert!(
        run.frontier() < 31_536_000_000,
        "stopped before the last command"
    );
    let log = handoff::views::notation::log(run.engine(), run.rounds());
    assert!(
        log.trim_end().ends_with("after 10000 rebalances, the most a run is simulated for, before the group came to rest."),
        "{}",
        log.lines().last().unwrap_or_default()
    );
}

#[test]
fn a_small_group_that_waits_a_year_for_its_last_command_runs_to_it() {
    // Found by the property above: a group of seven with a learner that replays slower than
    // its task writes, and a command a year later, must run to it without millions of steps
    // or a pass over every snapshot at each new one.
    let text = r#"{"name":"extreme","config":{"strategy":"learner","rebalance_ms":500,"session_timeout_ms":10000,"restore_rate":20000,"acceptable_recovery_lag":1000,"num_standby_replicas":1,"max_learners":4,"scale_down_timeout_ms":60000,"kip441":{"max_warmup_replicas":2,"acceptable_recovery_lag":10000,"probing_interval_ms":60000}},"tasks":[{"id":"T1","changelog":4000,"write_rate":31536000001},{"id":"T2","changelog":9000,"write_rate":5},{"id":"T3","stateful":false}],"members":[{"id":"S1","capacity":1,"restore_rate":10000},{"id":"S2","capacity":2},{"id":"S3","capacity":1}],"initial":{"S1":["T1"],"S2":["T2","T3"]},"events":[{"at_ms":1000,"join":"S9","capacity":2,"restore_rate":30000},{"at_ms":2000,"restart":"S1","down_ms":5000,"keep_state":true},{"at_ms":31536000000,"drain":"S2"},{"at_ms":4000,"crash":"S3"}]}"#;
    let events = run_within(text.to_string(), HANG).expect("ends");
    let events = events.expect("runs");
    assert!(events <= EVENT_BOUND, "{events} events");
}
