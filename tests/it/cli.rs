//! The `handoff` command line: its public formats and its errors on bad input (one line,
//! naming the file, the field and why; never a panic).

use crate::harness::{handoff, project, stderr, stdout};
use serde_json::Value;
use std::path::PathBuf;

/// Writes a scenario into a fresh temporary file.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("handoff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

fn fails_with(args: &[&str], expected: &[&str]) {
    let out = handoff(args, None);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for part in expected {
        assert!(err.contains(part), "{err:?} should mention {part:?}");
    }
}

fn bad_scenario(name: &str, text: &str, expected: &[&str]) {
    let path = temp_file(name, text);
    let path = path.to_str().expect("utf-8 path");
    let mut all = vec![path];
    all.extend_from_slice(expected);
    fails_with(&["run", path], &all);
}

#[test]
fn run_prints_the_seed_notation() {
    let out = handoff(&["run", "scenarios/scale-up-running.json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("#First Rebalance"));
    assert!(text.contains(
        "S1 performs task assignments:\n\tS1(assigned: [T1, T2], revoked: [], learning: [])"
    ));
    assert!(text.contains("\tS5(assigned: [T3], revoked: [], learning: [])"));
    assert!(text.contains("Now the group reaches balance with 5 members and 5 tasks"));
}

#[test]
fn run_json_has_the_public_fields() {
    let out = handoff(
        &[
            "run",
            "scenarios/scale-down-running.json",
            "--format",
            "json",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let rounds = v["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3);
    let first = &rounds[0];
    for field in [
        "generation",
        "at_ms",
        "leader",
        "cause",
        "joined",
        "assignment",
    ] {
        assert!(!first[field].is_null(), "round field {field}");
    }
    for field in [
        "assigned", "revoked", "learning", "standby", "lags", "leaving",
    ] {
        assert!(
            !first["joined"]["S2"][field].is_null(),
            "joined field {field}"
        );
    }
    assert_eq!(first["joined"]["S2"]["leaving"], true);
    for field in ["assigned", "revoked", "learning", "standby", "learned"] {
        assert!(
            first["assignment"]["S1"][field].is_array(),
            "assignment field {field}"
        );
    }
    assert_eq!(first["assignment"]["S1"]["learning"][0], "T3");
    let m = &v["metrics"];
    for field in [
        "rebalances",
        "time_to_balance_ms",
        "total_task_downtime_ms",
        "max_task_downtime_ms",
        "task_downtime_ms",
        "records_replayed",
        "assignment",
    ] {
        assert!(!m[field].is_null(), "metrics field {field}");
    }
    assert_eq!(m["rebalances"], 3);
    // Released twice while learned (T3) or once at its handoff (T4), 500 ms each.
    assert_eq!(m["task_downtime_ms"]["T3"], 1000);
    assert_eq!(m["task_downtime_ms"]["T4"], 500);
    assert_eq!(m["total_task_downtime_ms"], 1500);
    assert_eq!(m["assignment"]["S1"], serde_json::json!(["T1", "T2", "T3"]));
    assert!(m["assignment"].get("S2").is_none(), "S2 left");
}

#[test]
fn assign_runs_kafkas_streams_assignor_and_trunks_refiner() {
    let input = |strategy: &str| {
        format!(
            r#"{{ "config": {{ "strategy": "{strategy}", "num_standby_replicas": 1 }},
          "tasks": [ {{ "id": "T1" }}, {{ "id": "T2" }}, {{ "id": "T3", "stateful": false }}, {{ "id": "T4" }} ],
          "members": [ {{ "id": "S1", "assigned": ["T1", "T2", "T3", "T4"] }}, {{ "id": "S2" }} ] }}"#
        )
    };
    let decide = |strategy: &str| -> Value {
        let out = handoff(&["assign"], Some(&input(strategy)));
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).expect("json")
    };
    // 4.3 moves two stateful tasks to the new member at once, cold, and keeps them as
    // standbys on their old owner.
    let v = decide("kip1071");
    assert_eq!(
        v["members"]["S2"]["assigned"],
        serde_json::json!(["T2", "T4"])
    );
    assert_eq!(
        v["members"]["S1"]["revoked"],
        serde_json::json!(["T2", "T4"])
    );
    // The trunk refiner keeps them running on S1 while S2 warms them up.
    let v = decide("kip1071-warmup");
    assert_eq!(
        v["members"]["S1"]["assigned"],
        serde_json::json!(["T1", "T2", "T3", "T4"])
    );
    assert_eq!(
        v["members"]["S2"]["learning"],
        serde_json::json!(["T2", "T4"])
    );
}

#[test]
fn assign_reads_stdin_and_prints_the_decision() {
    let input = r#"{ "config": { "acceptable_recovery_lag": 100, "num_standby_replicas": 0, "max_learners": null },
      "tasks": [ { "id": "T1", "stateful": true }, { "id": "T2", "stateful": true },
                 { "id": "T3", "stateful": false } ],
      "members": [ { "id": "S1", "capacity": 1, "leaving": false, "assigned": ["T1", "T3"],
                     "revoked": [], "learning": [], "standby": [], "lags": {} },
                   { "id": "S2", "capacity": 1, "leaving": false, "assigned": [],
                     "revoked": [], "learning": ["T2"], "standby": [], "lags": { "T2": 40 } } ] }"#;
    let out = handoff(&["assign"], Some(input));
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    // T2 has no owner and S2's learner is ready (40 <= 100): it takes T2 at once.
    assert_eq!(v["members"]["S2"]["assigned"], serde_json::json!(["T2"]));
    assert_eq!(
        v["members"]["S1"]["assigned"],
        serde_json::json!(["T1", "T3"])
    );
    assert_eq!(v["followup"], false);
    let keys: Vec<&String> = v["members"]["S1"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(
        keys,
        ["assigned", "revoked", "learning", "standby", "learned"]
    );
}

#[test]
fn compare_prints_one_row_per_strategy() {
    let out = handoff(
        &[
            "compare",
            "scenarios/scale-down-running.json",
            "--strategies",
            "learner,eager",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(text
        .lines()
        .nth(2)
        .is_some_and(|l| l.starts_with("| learner")));
    let out = handoff(
        &[
            "compare",
            "scenarios/scale-down-running.json",
            "--format",
            "json",
        ],
        None,
    );
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let names: Vec<&str> = v["strategies"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["strategy"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "learner",
            "kip441",
            "cooperative",
            "eager",
            "kip1071",
            "kip1071-warmup"
        ]
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["fly"],
        vec![],
        vec!["run"],
        vec!["run", "scenarios/scale-up-empty.json", "--format", "xml"],
        vec!["run", "scenarios/scale-up-empty.json", "--colour", "red"],
        vec![
            "compare",
            "scenarios/scale-up-empty.json",
            "--strategies",
            "learner,magic",
        ],
    ] {
        let out = handoff(&args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    }
}

#[test]
fn a_missing_file_is_named() {
    fails_with(&["run", "no/such/file.json"], &["no/such/file.json"]);
}

#[test]
fn malformed_scenarios_are_refused_with_field_and_reason() {
    let base = |extra: &str| {
        format!(
            r#"{{ "name": "x", "tasks": [ {{ "id": "T1" }}, {{ "id": "T2" }} ],
                 "members": [ {{ "id": "S1" }}, {{ "id": "S2" }} ] {extra} }}"#
        )
    };
    bad_scenario("syntax.json", "{ \"name\": ", &["name", "EOF", "line 1"]);
    bad_scenario(
        "unknown-task.json",
        &base(r#", "initial": { "S1": ["T9"] }"#),
        &["initial.S1", "T9"],
    );
    bad_scenario(
        "owned-twice.json",
        &base(r#", "initial": { "S1": ["T1"], "S2": ["T1"] }"#),
        &["initial.S2", "T1", "one owner"],
    );
    bad_scenario(
        "member-twice.json",
        r#"{ "name": "x", "tasks": [], "members": [ { "id": "S1" }, { "id": "S1" } ] }"#,
        &["members[1].id", "twice"],
    );
    bad_scenario(
        "negative.json",
        r#"{ "name": "x", "tasks": [ { "id": "T1", "write_rate": -5 } ] }"#,
        &["tasks[0].write_rate", "-5"],
    );
    bad_scenario(
        "unknown-member.json",
        &base(r#", "events": [ { "at_ms": 5, "crash": "S7" } ]"#),
        &["events[0]", "S7"],
    );
    bad_scenario(
        "two-actions.json",
        &base(r#", "events": [ { "at_ms": 5, "crash": "S1", "drain": "S2" } ]"#),
        &["events[0]", "exactly one"],
    );
    bad_scenario(
        "bad-config.json",
        &base(r#", "config": { "rebalance_ms": 0 }"#),
        &["config.rebalance_ms"],
    );
    bad_scenario(
        "bad-mode.json",
        &base(r#", "config": { "handoff": "teleport" }"#),
        &["config.handoff", "teleport"],
    );
    bad_scenario(
        "typo.json",
        &base(r#", "config": { "rebalance": 10 }"#),
        &["config", "rebalance"],
    );
}

#[test]
fn bad_topologies_and_instances_are_refused_with_field_and_reason() {
    let topology = |subtopology: &str| {
        format!(
            r#"{{ "name": "x", "topology": {{ "subtopologies": [ {subtopology} ] }},
                 "instances": {{ "count": 3, "threads": 2, "zones": ["a", "b"] }} }}"#
        )
    };
    bad_scenario(
        "zero-partitions.json",
        &topology(r#"{ "name": "orders", "partitions": 0 }"#),
        &[
            "topology.subtopologies[0].partitions",
            "at least 1 partition",
        ],
    );
    bad_scenario(
        "min-above-max.json",
        &topology(r#"{ "name": "orders", "partitions": 4, "changelog": { "min": 9, "max": 3 } }"#),
        &[
            "topology.subtopologies[0].changelog",
            "min (9) is above max (3)",
        ],
    );
    bad_scenario(
        "distribution.json",
        &topology(
            r#"{ "name": "orders", "partitions": 4, "changelog": { "min": 1, "max": 3, "distribution": "normal" } }"#,
        ),
        &[
            "topology.subtopologies[0].changelog.distribution",
            "normal",
            "uniform",
            "zipf",
        ],
    );
    bad_scenario(
        "too-many-partitions.json",
        &topology(r#"{ "name": "orders", "partitions": 60000 }"#),
        &[
            "topology.subtopologies[0].partitions",
            "60000 tasks, over the limit of 50000",
            "the playground draws every task",
        ],
    );
    bad_scenario(
        "too-many-tasks.json",
        &topology(
            r#"{ "name": "orders", "partitions": 30000 }, { "name": "payments", "partitions": 30000 }"#,
        ),
        &[
            "topology: 60000 tasks, over the limit of 50000",
            "draws every task",
        ],
    );
    bad_scenario(
        "tasks-and-topology.json",
        r#"{ "name": "x", "tasks": [ { "id": "T1" } ],
             "topology": { "subtopologies": [ { "name": "orders", "partitions": 2 } ] } }"#,
        &["topology", "not both"],
    );
    bad_scenario(
        "members-and-instances.json",
        r#"{ "name": "x", "tasks": [], "members": [ { "id": "S1" } ], "instances": { "count": 2 } }"#,
        &["instances", "not both"],
    );
    bad_scenario(
        "no-instances.json",
        r#"{ "name": "x", "tasks": [], "instances": { "count": 0 } }"#,
        &["instances.count", "at least 1"],
    );
    bad_scenario(
        "zone-twice.json",
        r#"{ "name": "x", "tasks": [], "instances": { "count": 2, "zones": ["a", "a"] } }"#,
        &["instances.zones[1]", "twice"],
    );
}

#[test]
fn report_refuses_what_it_cannot_do_in_one_line() {
    fails_with(
        &[
            "report",
            "scenarios/scale-up-running.json",
            "-o",
            "no/such/dir/report.html",
        ],
        &["no/such/dir/report.html"],
    );
    fails_with(
        &["report", "no/such/scenario.json"],
        &["no/such/scenario.json"],
    );
    let out = handoff(
        &[
            "report",
            "scenarios/scale-up-running.json",
            "--strategies",
            "magic",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn report_prints_a_page_for_any_scenario() {
    let out = handoff(&["report", "scenarios/leader-transfer.json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = stdout(&out);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for strategy in ["learner", "kip441", "cooperative", "eager"] {
        assert!(html.contains(&format!(
            "<section class=\"strategy\" id=\"strategy-{strategy}\">"
        )));
    }
    // Without a topology there is no balance per subtopology, and the table keeps the
    // columns `handoff compare` prints.
    assert!(!html.contains("Balance per subtopology"));
    assert!(!html.contains("subtopology spread"));
}

#[test]
fn a_command_that_cannot_happen_is_refused_with_its_time() {
    bad_scenario(
        "crash-twice.json",
        r#"{ "name": "x", "tasks": [ { "id": "T1" } ], "members": [ { "id": "S1" }, { "id": "S2" } ],
            "initial": { "S1": ["T1"] },
            "events": [ { "at_ms": 10, "crash": "S2" }, { "at_ms": 20, "crash": "S2" } ] }"#,
        &["crash S2 at 20 ms", "already crashed"],
    );
}

#[test]
fn every_shipped_scenario_runs() {
    let root = project("scenarios");
    let mut count = 0;
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("scenarios folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            // Files under scenarios/assign/ are join metadata for `handoff assign`.
            let command = if path.starts_with(root.join("assign")) {
                "assign"
            } else {
                "run"
            };
            let out = handoff(&[command, path.to_str().expect("utf-8")], None);
            assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
            count += 1;
        }
    }
    assert!(count >= 8, "{count} files");
}

#[test]
fn assign_takes_the_strategy_and_its_settings() {
    // Kafka's test "should not assign more than max warmup replicas", through the command
    // line: `kip441` reads `kip441.acceptable_recovery_lag` (not the learner design's) and
    // `kip441.max_warmup_replicas`; the warm-up shows as a learner and asks for probing.
    let input = |warmups: u32| {
        format!(
            r#"{{ "config": {{ "strategy": "kip441", "acceptable_recovery_lag": 999999999,
                 "kip441": {{ "max_warmup_replicas": {warmups}, "acceptable_recovery_lag": 100 }} }},
              "tasks": [ {{ "id": "T1", "changelog": 50000 }}, {{ "id": "T2", "changelog": 50000 }},
                         {{ "id": "T3", "changelog": 50000 }}, {{ "id": "T4", "changelog": 50000 }} ],
              "members": [ {{ "id": "S1", "assigned": ["T1", "T2", "T3", "T4"],
                              "lags": {{ "T1": 0, "T2": 0, "T3": 0, "T4": 0 }} }},
                           {{ "id": "S2" }} ] }}"#
        )
    };
    for (warmups, expected) in [(1, vec!["T2"]), (2, vec!["T2", "T4"])] {
        let out = handoff(&["assign"], Some(&input(warmups)));
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert_eq!(v["members"]["S2"]["learning"], serde_json::json!(expected));
        assert_eq!(
            v["members"]["S1"]["assigned"].as_array().map(Vec::len),
            Some(4)
        );
        assert_eq!(v["probing"], true);
        assert_eq!(v["followup"], false);
    }
    let bad = input(0);
    fails_with_stdin(&["assign"], &bad, &["config.kip441.max_warmup_replicas"]);
}

fn fails_with_stdin(args: &[&str], stdin: &str, expected: &[&str]) {
    let out = handoff(args, Some(stdin));
    assert!(!out.status.success(), "{args:?} should fail");
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for part in expected {
        assert!(err.contains(part), "{err:?} should mention {part:?}");
    }
}

#[test]
fn assign_fed_its_own_output_reaches_a_fixed_point_under_every_strategy() {
    // A member joins a group of one with four stateful tasks and a standby each; each output
    // becomes the next input (members keep running what they got, as under `two_phase`, and
    // every placement is caught up one call later), until the output stops changing.
    for strategy in ["learner", "kip441", "cooperative", "eager"] {
        let mut members = serde_json::json!([
            { "id": "S1", "assigned": ["T1", "T2", "T3", "T4"],
              "lags": { "T1": 0, "T2": 0, "T3": 0, "T4": 0 } },
            { "id": "S2" }
        ]);
        let mut previous = Value::Null;
        let mut calls = 0;
        loop {
            calls += 1;
            assert!(calls <= 12, "{strategy}: no fixed point after 12 calls");
            let input = serde_json::json!({
                "config": { "strategy": strategy, "num_standby_replicas": 1 },
                "tasks": [ { "id": "T1", "changelog": 9000 }, { "id": "T2", "changelog": 9000 },
                           { "id": "T3", "changelog": 9000 }, { "id": "T4", "changelog": 9000 } ],
                "members": members,
            });
            let out = handoff(&["assign"], Some(&input.to_string()));
            assert!(out.status.success(), "{strategy}: {}", stderr(&out));
            let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
            if v == previous {
                break;
            }
            let next: Vec<Value> = ["S1", "S2"]
                .iter()
                .map(|m| {
                    let a = &v["members"][m];
                    let mut lags = serde_json::Map::new();
                    for key in ["assigned", "learning", "standby"] {
                        for t in a[key].as_array().expect("list") {
                            lags.insert(t.as_str().expect("name").to_string(), 0.into());
                        }
                    }
                    serde_json::json!({
                        "id": m,
                        "assigned": a["assigned"],
                        "learning": a["learning"],
                        "standby": a["standby"],
                        "lags": lags,
                    })
                })
                .collect();
            members = Value::from(next);
            previous = v;
        }
        for m in ["S1", "S2"] {
            let a = &previous["members"][m];
            assert_eq!(
                a["assigned"].as_array().map(Vec::len),
                Some(2),
                "{strategy}: {m}"
            );
            assert_eq!(
                a["standby"].as_array().map(Vec::len),
                Some(2),
                "{strategy}: {m}"
            );
        }
        assert_eq!(previous["probing"], false);
    }
}

#[test]
fn bad_operations_are_refused_with_field_and_reason() {
    let with = |events: &str| {
        format!(
            r#"{{ "name": "x", "tasks": [ {{ "id": "T1" }} ],
                 "members": [ {{ "id": "S1", "zone": "a" }}, {{ "id": "S2", "zone": "b" }} ],
                 "events": [ {events} ] }}"#
        )
    };
    bad_scenario(
        "restart-negative.json",
        &with(r#"{ "at_ms": 5, "restart": "S1", "down_ms": -5 }"#),
        &["events[0].down_ms", "-5"],
    );
    bad_scenario(
        "restart-zero.json",
        &with(r#"{ "at_ms": 5, "restart": "S1", "down_ms": 0 }"#),
        &["events[0].down_ms", "at least 1 ms"],
    );
    bad_scenario(
        "restart-absurd.json",
        &with(r#"{ "at_ms": 5, "restart": "S1", "down_ms": 90000000 }"#),
        &["events[0].down_ms", "longer than a day"],
    );
    bad_scenario(
        "restart-no-time.json",
        &with(r#"{ "at_ms": 5, "restart": "S1" }"#),
        &["events[0].down_ms", "needs down_ms"],
    );
    bad_scenario(
        "restart-unknown.json",
        &with(r#"{ "at_ms": 5, "restart": "S9", "down_ms": 100 }"#),
        &["events[0].restart", "S9"],
    );
    bad_scenario(
        "restart-keep-state.json",
        &with(r#"{ "at_ms": 5, "restart": "S1", "down_ms": 100, "keep_state": "yes" }"#),
        &["events[0].keep_state", "boolean"],
    );
    bad_scenario(
        "down-on-crash.json",
        &with(r#"{ "at_ms": 5, "crash": "S1", "down_ms": 100 }"#),
        &["events[0]", "belong to a restart"],
    );
    bad_scenario(
        "rolling-zero.json",
        &with(r#"{ "at_ms": 5, "rolling_restart": { "down_ms": 0 } }"#),
        &["events[0].rolling_restart.down_ms", "at least 1 ms"],
    );
    bad_scenario(
        "rolling-typo.json",
        &with(r#"{ "at_ms": 5, "rolling_restart": { "down": 10 } }"#),
        &["events[0].rolling_restart", "down"],
    );
    bad_scenario(
        "zone-unknown.json",
        &with(r#"{ "at_ms": 5, "crash_zone": "c" }"#),
        &["events[0].crash_zone", "zone c", "zones: a, b"],
    );
    bad_scenario(
        "zone-later.json",
        &with(r#"{ "at_ms": 5, "crash_zone": "c" }, { "at_ms": 9, "join": "S3", "zone": "c" }"#),
        &["events[0].crash_zone", "by 5 ms"],
    );
}

#[test]
fn an_operation_that_cannot_happen_is_refused_with_its_time() {
    let with = |events: &str| {
        format!(
            r#"{{ "name": "x", "tasks": [ {{ "id": "T1" }} ],
                 "members": [ {{ "id": "S1", "zone": "a" }}, {{ "id": "S2", "zone": "b" }} ],
                 "initial": {{ "S1": ["T1"] }}, "events": [ {events} ] }}"#
        )
    };
    bad_scenario(
        "restart-crashed.json",
        &with(
            r#"{ "at_ms": 10, "crash": "S2" }, { "at_ms": 20, "restart": "S2", "down_ms": 100 }"#,
        ),
        &["restart S2 at 20 ms", "already crashed"],
    );
    bad_scenario(
        "restart-twice.json",
        &with(
            r#"{ "at_ms": 10, "restart": "S2", "down_ms": 100 }, { "at_ms": 20, "restart": "S2", "down_ms": 100 }"#,
        ),
        &["restart S2 at 20 ms", "S2 is restarting"],
    );
    bad_scenario(
        "zone-twice.json",
        &with(r#"{ "at_ms": 10, "crash_zone": "b" }, { "at_ms": 20, "crash_zone": "b" }"#),
        &["crash zone b at 20 ms", "no live member is left in zone b"],
    );
    bad_scenario(
        "rolling-twice.json",
        &with(
            r#"{ "at_ms": 10, "rolling_restart": { "down_ms": 100 } }, { "at_ms": 20, "rolling_restart": { "down_ms": 100 } }"#,
        ),
        &["rolling restart at 20 ms", "already under way"],
    );
}

const REVIEW: &str = "scenarios/review/scale-out-under-load.json";

#[test]
fn sweep_prints_a_row_per_run_as_markdown_csv_or_json() {
    let args = |format: &str| {
        let out = handoff(
            &[
                "sweep",
                REVIEW,
                "--set",
                "num_standby_replicas=0,1",
                "--set",
                "restore_rate=2e4..4e4x2",
                "--strategies",
                "learner,eager",
                "--format",
                format,
            ],
            None,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).is_empty(), "no progress bar off a terminal");
        stdout(&out)
    };
    let table = args("markdown");
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines.len(),
        2 + 2 * 2 * 2,
        "a header, a rule and a row per run"
    );
    assert!(lines[0].starts_with("| num_standby_replicas | restore_rate | strategy | total downtime ms | worst task ms | rebalances | time to balance ms |"), "{}", lines[0]);
    assert!(
        lines[2].starts_with("| 0                    | 20000        | learner  |"),
        "{}",
        lines[2]
    );
    assert!(
        lines[9].starts_with("| 1                    | 40000        | eager    |"),
        "{}",
        lines[9]
    );
    let csv = args("csv");
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 9);
    assert_eq!(
        rows[0][..4],
        [
            "num_standby_replicas",
            "restore_rate",
            "strategy",
            "total downtime ms"
        ]
    );
    assert!(
        rows.iter().all(|r| r.len() == 10),
        "2 settings, the strategy, 7 measures"
    );
    // The row of the scenario's own values is the comparison's.
    let v: Value = serde_json::from_str(&args("json")).expect("json");
    let cells = v["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 8);
    let own = &cells[6];
    assert_eq!(own["settings"]["num_standby_replicas"], 1);
    assert_eq!(own["settings"]["restore_rate"], 40_000);
    assert_eq!(own["strategy"], "learner");
    let compared = handoff(
        &[
            "compare",
            REVIEW,
            "--strategies",
            "learner",
            "--format",
            "json",
        ],
        None,
    );
    let c: Value = serde_json::from_str(&stdout(&compared)).expect("json");
    let learner = &c["strategies"][0];
    assert_eq!(own["total_downtime_ms"], learner["total_task_downtime_ms"]);
    assert_eq!(own["worst_task_ms"], learner["max_task_downtime_ms"]);
    assert_eq!(own["records_replayed"], learner["records_replayed"]);
    assert_eq!(own["at_rest"], learner["at_rest"]);
    assert_eq!(v["settings"][1]["logarithmic"], true);
    assert!(
        v["knees"].as_array().expect("knees").is_empty(),
        "two settings: no knee"
    );
}

#[test]
fn sweep_refuses_bad_values_naming_the_file_and_the_setting() {
    fails_with(
        &["sweep", REVIEW, "--set", "num_standby_replicas=0,-1"],
        &[
            REVIEW,
            "num_standby_replicas=-1",
            "config.num_standby_replicas",
            "expected u32",
        ],
    );
    fails_with(
        &["sweep", REVIEW, "--set", "standbys=1"],
        &[REVIEW, "standbys: no such setting", "num_standby_replicas"],
    );
    fails_with(
        &["sweep", REVIEW, "--set", "instances.count=12,15"],
        &[REVIEW, "instances.count=15", "S13"],
    );
    for values in [
        "num_standby_replicas=1..x",
        "num_standby_replicas",
        "max_learners=1,,2",
    ] {
        let out = handoff(&["sweep", REVIEW, "--set", values], None);
        assert_eq!(out.status.code(), Some(2), "{values}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("num_standby_replicas") || stderr(&out).contains("max_learners")
        );
    }
}

#[test]
fn sweep_draws_its_charts_and_the_report_gains_a_section() {
    let chart = temp_file("sweep.svg", "");
    let out = handoff(
        &[
            "sweep",
            REVIEW,
            "--set",
            "num_standby_replicas=0,1,2",
            "--strategies",
            "learner,kip441",
            "--chart",
            chart.to_str().expect("utf-8 path"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\n- learner: the knee of "), "{text}");
    assert!(text.contains("\n- kip441: "), "{text}");
    let svg = std::fs::read_to_string(&chart).expect("chart written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
    for title in [
        "Total downtime",
        "Time to balance",
        "Total downtime against records replayed",
    ] {
        assert!(svg.contains(title), "{title}");
    }
    let report = temp_file("sweep.html", "");
    let out = handoff(
        &[
            "report",
            REVIEW,
            "--strategies",
            "learner,kip441",
            "--sweep",
            "num_standby_replicas=0,1,2",
            "-o",
            report.to_str().expect("utf-8 path"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&report).expect("report written");
    assert!(html.contains("<section id=\"sweep\">\n<h2>Sweep: num_standby_replicas</h2>"));
    assert!(
        html.contains("<li>learner: the knee of "),
        "a sentence per strategy"
    );
    assert!(html.contains("<li>kip441: "));
    assert!(html.contains("<table class=\"sweep\">"));
    assert!(html.matches("<figure class=\"chart sweep\">").count() >= 6 + 2);
    assert!(
        !html.contains("http://www.w3.org/2000/svg"),
        "inline SVG, no address"
    );
}
