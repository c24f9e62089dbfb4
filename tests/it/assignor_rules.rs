//! The learner assignor, one test per rule of docs/design.md (named after it), driven through the
//! `handoff assign` input format.

use handoff::assignor::{self, AssignError, AssignInput};
use handoff::format::AssignRequest;
use handoff::views::json::AssignmentJson;
use serde_json::{json, Value};

fn assign(input: Value) -> Value {
    let request = AssignRequest::from_json(&input.to_string()).expect("valid input");
    let out = assignor::assign(AssignInput {
        config: &request.config,
        tasks: &request.tasks,
        members: &request.members,
    })
    .expect("assignment");
    serde_json::to_value(AssignmentJson::of(&request.roster, &out)).expect("json")
}

fn tasks(names: &[&str]) -> Value {
    Value::from(
        names
            .iter()
            .map(|n| json!({ "id": n, "stateful": true }))
            .collect::<Vec<_>>(),
    )
}

fn list(out: &Value, member: &str, key: &str) -> Vec<String> {
    out["members"][member][key]
        .as_array()
        .unwrap_or_else(|| panic!("{member}.{key} in {out}"))
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}

fn member(id: &str, assigned: &[&str]) -> Value {
    json!({ "id": id, "assigned": assigned })
}

#[test]
fn rule_1_never_two_owners_rejects_a_task_reported_twice() {
    let input = json!({
        "tasks": tasks(&["T1"]),
        "members": [member("S1", &["T1"]), member("S2", &["T1"])],
    });
    let err = AssignRequest::from_json(&input.to_string()).expect_err("owned twice");
    assert!(err.to_string().contains("T1"), "{err}");
    assert!(err.to_string().contains("members[1].assigned"), "{err}");
}

#[test]
fn rule_1_never_two_owners_holds_in_the_assignor_itself() {
    let request = AssignRequest::from_json(
        &json!({ "tasks": tasks(&["T1"]), "members": [member("S1", &[]), member("S2", &[])] })
            .to_string(),
    )
    .expect("valid");
    let mut members = request.members.clone();
    members[0].assigned = vec![handoff::model::TaskId(0)];
    members[1].assigned = vec![handoff::model::TaskId(0)];
    let err = assignor::assign(AssignInput {
        config: &request.config,
        tasks: &request.tasks,
        members: &members,
    })
    .expect_err("two owners");
    assert!(matches!(err, AssignError::OwnedTwice { .. }));
}

#[test]
fn rule_1_a_task_still_running_moves_in_two_phases() {
    // S2's learner of T1 is ready, but S1 still reports running T1 (two_phase): revoke now,
    // assign at the follow-up.
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2"]),
        "members": [
            member("S1", &["T1", "T2"]),
            { "id": "S2", "learning": ["T1"], "lags": { "T1": 0 } },
        ],
    }));
    assert_eq!(list(&out, "S1", "assigned"), ["T2"]);
    assert_eq!(list(&out, "S1", "revoked"), ["T1"]);
    assert_eq!(list(&out, "S2", "assigned"), Vec::<String>::new());
    assert_eq!(list(&out, "S2", "learning"), ["T1"]);
    assert_eq!(out["followup"], true);
}

#[test]
fn rule_2_a_released_task_goes_to_its_ready_learner_in_one_round() {
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2"]),
        "members": [
            { "id": "S1", "assigned": ["T2"], "revoked": ["T1"], "lags": { "T1": 0 } },
            { "id": "S2", "learning": ["T1"], "lags": { "T1": 0 } },
        ],
    }));
    assert_eq!(list(&out, "S2", "assigned"), ["T1"]);
    assert_eq!(list(&out, "S2", "learning"), Vec::<String>::new());
    assert_eq!(list(&out, "S1", "revoked"), ["T1"]);
    assert_eq!(out["followup"], false);
}

#[test]
fn rule_2_a_released_task_goes_back_when_its_learner_is_not_ready() {
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2"]),
        "members": [
            { "id": "S1", "assigned": ["T2"], "revoked": ["T1"] },
            { "id": "S2", "learning": ["T1"], "lags": { "T1": 500 } },
        ],
    }));
    assert_eq!(list(&out, "S1", "assigned"), ["T1", "T2"]);
    assert_eq!(list(&out, "S1", "learned"), ["T1"]);
    assert_eq!(list(&out, "S2", "learning"), ["T1"], "the learner is kept");
}

#[test]
fn rule_3_orphans_are_assigned_at_once_most_caught_up_first() {
    // The leader-crash example: S1 is gone; T1 has a learner on S4, T2 nothing.
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2", "T3", "T4", "T5"]),
        "members": [
            member("S2", &["T3", "T4"]),
            member("S3", &["T5"]),
            { "id": "S4", "learning": ["T1"], "lags": { "T1": 30000 } },
        ],
    }));
    assert_eq!(list(&out, "S4", "assigned"), ["T1"]);
    assert_eq!(list(&out, "S3", "assigned"), ["T2", "T5"]);
    assert_eq!(out["followup"], false);
}

#[test]
fn rule_3_a_caught_up_standby_beats_a_lagging_state() {
    let out = assign(json!({
        "config": { "acceptable_recovery_lag": 100, "num_standby_replicas": 1 },
        "tasks": tasks(&["T1"]),
        "members": [
            { "id": "S1", "lags": { "T1": 5000 } },
            { "id": "S2", "standby": ["T1"], "lags": { "T1": 50 } },
        ],
    }));
    assert_eq!(list(&out, "S2", "assigned"), ["T1"]);
    // The standby moves with its active: it never stays beside it.
    assert!(!list(&out, "S2", "standby").contains(&"T1".to_string()));
}

#[test]
fn rule_3_a_member_back_with_its_disk_takes_back_the_tasks_whose_store_it_kept() {
    // S1 restarted without static membership and joins as a new member; nobody ran T1 and T2
    // while it was away, so its stores are as caught up as S2's standbys. S2 already runs its
    // share: giving it T1 and T2 would only start learners to move them back.
    let out = assign(json!({
        "config": { "acceptable_recovery_lag": 100, "num_standby_replicas": 1 },
        "tasks": tasks(&["T1", "T2", "T3", "T4", "T5", "T6"]),
        "members": [
            { "id": "S2", "assigned": ["T3", "T4"], "standby": ["T1", "T2"],
              "lags": { "T1": 0, "T2": 0, "T3": 0, "T4": 0 } },
            { "id": "S3", "assigned": ["T5", "T6"], "standby": ["T3", "T4"],
              "lags": { "T3": 0, "T4": 0, "T5": 0, "T6": 0 } },
            { "id": "S1", "lags": { "T1": 0, "T2": 0, "T5": 4000, "T6": 4000 } },
        ],
    }));
    assert_eq!(list(&out, "S1", "assigned"), ["T1", "T2"], "{out}");
    for m in ["S1", "S2", "S3"] {
        assert_eq!(
            list(&out, m, "learning"),
            Vec::<String>::new(),
            "{m}: {out}"
        );
    }
    assert_eq!(
        list(&out, "S2", "standby"),
        ["T1", "T2"],
        "the standbys stay where they are"
    );
    assert_eq!(out["followup"], false);
}

#[test]
fn rule_3_a_kept_store_does_not_pull_a_task_back_over_its_members_share() {
    // Cooperative follow-up: T3 was revoked from S1, which ran three tasks for a share of
    // two, and S1 still holds its store. Its copy is as caught up as S2's standby, but S1 is
    // at the upper bound of its share: T3 goes to the standby, not back to S1.
    let out = assign(json!({
        "config": { "strategy": "cooperative", "num_standby_replicas": 1 },
        "tasks": tasks(&["T1", "T2", "T3", "T4", "T5", "T6"]),
        "members": [
            { "id": "S1", "assigned": ["T1", "T2"], "lags": { "T1": 0, "T2": 0, "T3": 0 } },
            { "id": "S2", "assigned": ["T4", "T5"], "standby": ["T3"],
              "lags": { "T3": 0, "T4": 0, "T5": 0 } },
            { "id": "S3", "assigned": ["T6"], "lags": { "T6": 0 } },
        ],
    }));
    assert_eq!(list(&out, "S1", "assigned"), ["T1", "T2"], "{out}");
    assert!(
        list(&out, "S2", "assigned").contains(&"T3".to_string()),
        "{out}"
    );
}

#[test]
fn rule_3_with_no_state_anywhere_the_least_loaded_takes_it() {
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2", "T3"]),
        "members": [member("S1", &["T1", "T2"]), member("S2", &[])],
    }));
    assert_eq!(list(&out, "S2", "assigned"), ["T3"]);
}

#[test]
fn rule_4_learners_before_moving_stateful_tasks() {
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2"]),
        "members": [member("S1", &["T1", "T2"]), member("S2", &[])],
    }));
    assert_eq!(
        list(&out, "S1", "assigned"),
        ["T1", "T2"],
        "nothing moves yet"
    );
    assert_eq!(list(&out, "S2", "assigned"), Vec::<String>::new());
    assert_eq!(list(&out, "S2", "learning").len(), 1);
    assert_eq!(list(&out, "S1", "learned"), list(&out, "S2", "learning"));
}

#[test]
fn rule_4_the_cheapest_task_to_replay_moves_first() {
    let out = assign(json!({
        "tasks": [
            { "id": "T1", "changelog": 90000 },
            { "id": "T2", "changelog": 1000 },
        ],
        "members": [member("S1", &["T1", "T2"]), member("S2", &[])],
    }));
    assert_eq!(list(&out, "S2", "learning"), ["T2"]);
}

#[test]
fn rule_4_the_cheapest_task_is_the_one_its_receiver_replays_least() {
    // S2 came back from a restart holding T2's store 200 records behind: learning T2 there
    // replays 200 records, learning T1 (the shorter changelog) would replay all 5000.
    let mut group = json!({
        "tasks": [
            { "id": "T1", "changelog": 5000 },
            { "id": "T2", "changelog": 90000 },
        ],
        "members": [
            { "id": "S1", "assigned": ["T1", "T2"], "lags": { "T1": 0, "T2": 0 } },
            { "id": "S2", "lags": { "T2": 200 } },
        ],
    });
    let out = assign(group.clone());
    assert_eq!(list(&out, "S2", "learning"), ["T2"], "{out}");
    // Without learners the receiver is chosen at the follow-up, so the changelog decides.
    group["config"] = json!({ "strategy": "cooperative" });
    let cooperative = assign(group);
    assert_eq!(list(&cooperative, "S1", "revoked"), ["T1"], "{cooperative}");
}

#[test]
fn rule_4_standby_holders_are_the_first_choice_for_a_learner() {
    let out = assign(json!({
        "config": { "num_standby_replicas": 1 },
        "tasks": tasks(&["T1", "T2", "T3", "T4"]),
        "members": [
            member("S1", &["T1", "T2", "T3", "T4"]),
            member("S2", &[]),
            { "id": "S3", "standby": ["T4"], "lags": { "T4": 10 } },
        ],
    }));
    assert!(
        list(&out, "S3", "learning").contains(&"T4".to_string()),
        "{out}"
    );
    assert!(
        !list(&out, "S3", "standby").contains(&"T4".to_string()),
        "the standby became the learner"
    );
}

#[test]
fn rule_4_existing_learners_are_kept() {
    // S3 learns T1 although S2 is now the emptier member: no half-way bounce.
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2", "T3"]),
        "members": [
            member("S1", &["T1", "T2", "T3"]),
            member("S2", &[]),
            { "id": "S3", "learning": ["T1"], "lags": { "T1": 999 } },
        ],
    }));
    assert_eq!(list(&out, "S3", "learning"), ["T1"]);
}

#[test]
fn rule_4_max_learners_caps_learners_group_wide() {
    let out = assign(json!({
        "config": { "max_learners": 1 },
        "tasks": tasks(&["T1", "T2", "T3", "T4"]),
        "members": [member("S1", &["T1", "T2", "T3", "T4"]), member("S2", &[]), member("S3", &[])],
    }));
    let learners = list(&out, "S2", "learning").len() + list(&out, "S3", "learning").len();
    assert_eq!(learners, 1);
}

#[test]
fn rule_4_stateless_tasks_move_without_learning() {
    let out = assign(json!({
        "tasks": [{ "id": "T1", "stateful": false }, { "id": "T2", "stateful": false }],
        "members": [member("S1", &["T1", "T2"]), member("S2", &[])],
    }));
    assert_eq!(list(&out, "S2", "learning"), Vec::<String>::new());
    assert_eq!(list(&out, "S1", "revoked").len(), 1, "revoked now");
    assert_eq!(out["followup"], true, "assigned at the follow-up");
}

#[test]
fn rule_6_a_leaving_member_gets_no_new_work_and_sheds_everything() {
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2", "T3", "T4", "T5"]),
        "members": [
            member("S1", &["T1", "T2"]),
            { "id": "S2", "assigned": ["T3", "T4"], "leaving": true },
            member("S3", &["T5"]),
        ],
    }));
    assert_eq!(list(&out, "S1", "learning"), ["T3"]);
    assert_eq!(list(&out, "S3", "learning"), ["T4"]);
    assert_eq!(list(&out, "S2", "learned"), ["T3", "T4"]);
    assert_eq!(list(&out, "S2", "learning"), Vec::<String>::new());
}

#[test]
fn rule_8_actives_are_balanced_by_capacity() {
    let out = assign(json!({
        "tasks": [
            { "id": "T1", "stateful": false }, { "id": "T2", "stateful": false },
            { "id": "T3", "stateful": false }, { "id": "T4", "stateful": false },
            { "id": "T5", "stateful": false }, { "id": "T6", "stateful": false },
        ],
        "members": [
            { "id": "S1", "capacity": 2 },
            { "id": "S2", "capacity": 1 },
        ],
    }));
    assert_eq!(list(&out, "S1", "assigned").len(), 4);
    assert_eq!(list(&out, "S2", "assigned").len(), 2);
}

#[test]
fn rule_8_standbys_never_beside_their_active_and_within_twice_the_share() {
    let names: Vec<String> = (1..=12).map(|i| format!("T{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let out = assign(json!({
        "config": { "num_standby_replicas": 2 },
        "tasks": tasks(&names),
        "members": [
            member("S1", &names[0..3]), member("S2", &names[3..6]),
            member("S3", &names[6..9]), member("S4", &names[9..12]),
        ],
    }));
    // 12 actives + 24 standbys over 4 members: 9 each expected, 4.5 to 18 allowed.
    for m in ["S1", "S2", "S3", "S4"] {
        let active = list(&out, m, "assigned");
        let standby = list(&out, m, "standby");
        assert!(standby.iter().all(|t| !active.contains(t)), "{m}: {out}");
        let total = active.len() + standby.len();
        assert!((5..=18).contains(&total), "{m} holds {total}");
    }
    for t in &names {
        let holders = ["S1", "S2", "S3", "S4"]
            .iter()
            .filter(|m| list(&out, m, "standby").contains(&t.to_string()))
            .count();
        assert_eq!(holders, 2, "{t} has two standbys");
    }
}

#[test]
fn rule_8_a_balanced_group_is_a_fixed_point() {
    let input = json!({
        "config": { "num_standby_replicas": 1 },
        "tasks": tasks(&["T1", "T2", "T3"]),
        "members": [
            { "id": "S1", "assigned": ["T1"], "standby": ["T2"], "lags": { "T1": 0, "T2": 0 } },
            { "id": "S2", "assigned": ["T2"], "standby": ["T3"], "lags": { "T2": 0, "T3": 0 } },
            { "id": "S3", "assigned": ["T3"], "standby": ["T1"], "lags": { "T3": 0, "T1": 0 } },
        ],
    });
    let out = assign(input.clone());
    for (i, m) in ["S1", "S2", "S3"].iter().enumerate() {
        assert_eq!(list(&out, m, "assigned"), [format!("T{}", i + 1)]);
        assert_eq!(list(&out, m, "standby"), [format!("T{}", (i + 1) % 3 + 1)]);
        assert!(list(&out, m, "learning").is_empty());
        assert!(list(&out, m, "revoked").is_empty());
    }
    assert_eq!(out["followup"], false);
}

#[test]
fn rule_8_stateful_tasks_are_balanced_before_stateless_ones() {
    // Scaling 1 -> 2 members with 11 stateful and 7 stateless tasks: the newcomer learns 5
    // stateful tasks (the cheapest) and takes 4 stateless ones, so that stores end 6 to 5
    // and tasks 9 to 9 (not 9 to 2 stores with all stateless tasks on the newcomer).
    let mut tasks: Vec<Value> = (1..=11)
        .map(|i| json!({ "id": format!("T{i}"), "changelog": 1000 * i }))
        .collect();
    tasks.extend((12..=18).map(|i| json!({ "id": format!("T{i}"), "stateful": false })));
    let all: Vec<String> = (1..=18).map(|i| format!("T{i}")).collect();
    let out = assign(json!({
        "tasks": tasks,
        "members": [{ "id": "S1", "assigned": all }, member("S2", &[])],
    }));
    assert_eq!(
        list(&out, "S2", "learning"),
        ["T1", "T2", "T3", "T4", "T5"],
        "the five cheapest stores"
    );
    let revoked = list(&out, "S1", "revoked");
    assert_eq!(revoked.len(), 4, "{out}");
    assert!(revoked
        .iter()
        .all(|t| t[1..].parse::<u32>().is_ok_and(|i| i > 11)));
    assert_eq!(out["followup"], true);
}

#[test]
fn rule_8_standbys_move_to_a_member_that_joins() {
    // Four members run three tasks each with one standby elsewhere (6 replicas each); S5
    // joins: it learns two tasks and takes standbys until every member holds 4 or 5 replicas.
    let names: Vec<String> = (1..=12).map(|i| format!("T{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let members: Vec<Value> = (0..4)
        .map(|m| {
            let own = &names[3 * m..3 * m + 3];
            let next = &names[(3 * m + 3) % 12..(3 * m + 3) % 12 + 3];
            let lags: serde_json::Map<String, Value> = own
                .iter()
                .chain(next)
                .map(|t| (t.to_string(), 0.into()))
                .collect();
            json!({ "id": format!("S{}", m + 1), "assigned": own, "standby": next, "lags": lags })
        })
        .chain([member("S5", &[])])
        .collect();
    let out = assign(json!({
        "config": { "num_standby_replicas": 1 },
        "tasks": tasks(&names),
        "members": members,
    }));
    assert_eq!(list(&out, "S5", "learning").len(), 2);
    for m in ["S1", "S2", "S3", "S4", "S5"] {
        let replicas: usize = ["assigned", "learning", "standby"]
            .iter()
            .map(|k| list(&out, m, k).len())
            .sum();
        assert!((4..=5).contains(&replicas), "{m} holds {replicas}: {out}");
    }
}

#[test]
fn rule_8_a_standby_moves_to_the_member_that_holds_its_state() {
    // S3 comes back with the store of T1: of the standbys it needs, it takes T1's.
    let out = assign(json!({
        "config": { "num_standby_replicas": 1 },
        "tasks": tasks(&["T1", "T2"]),
        "members": [
            { "id": "S1", "assigned": ["T1"], "standby": ["T2"], "lags": { "T1": 0, "T2": 0 } },
            { "id": "S2", "assigned": ["T2"], "standby": ["T1"], "lags": { "T1": 0, "T2": 0 } },
            { "id": "S3", "lags": { "T1": 5 } },
        ],
    }));
    assert_eq!(list(&out, "S3", "standby"), ["T1"]);
    assert_eq!(list(&out, "S2", "standby"), Vec::<String>::new());
}

#[test]
fn rule_8_standbys_and_learners_go_to_another_zone() {
    let zoned = |rack_aware: bool| {
        assign(json!({
            "config": { "num_standby_replicas": 1, "rack_aware_standbys": rack_aware },
            "tasks": tasks(&["T1", "T2"]),
            "members": [
                { "id": "S1", "zone": "a", "assigned": ["T1"] },
                { "id": "S2", "zone": "b", "assigned": ["T2"] },
                { "id": "S3", "zone": "a" },
            ],
        }))
    };
    let out = zoned(true);
    assert_eq!(list(&out, "S2", "standby"), ["T1"], "T1 runs in zone a");
    assert_eq!(list(&out, "S3", "standby"), ["T2"], "T2 runs in zone b");
    let out = zoned(false);
    assert_eq!(
        list(&out, "S3", "standby"),
        ["T1"],
        "without zones: least loaded"
    );
    // A learner too goes to another zone than its task's active while it can.
    let out = assign(json!({
        "tasks": tasks(&["T1", "T2", "T3"]),
        "members": [
            { "id": "S1", "zone": "a", "assigned": ["T1", "T2", "T3"] },
            { "id": "S2", "zone": "a" },
            { "id": "S3", "zone": "b" },
        ],
    }));
    assert_eq!(list(&out, "S3", "learning"), ["T2"]);
    assert_eq!(list(&out, "S2", "learning"), ["T3"]);
}

#[test]
fn malformed_inputs_name_the_field_and_the_reason() {
    let cases = [
        (
            json!({ "tasks": [], "members": [{ "id": "S1", "assigned": ["T9"] }] }),
            "members[0].assigned",
            "T9",
        ),
        (
            json!({ "tasks": tasks(&["T1"]), "members": [{ "id": "S1" }, { "id": "S1" }] }),
            "members[1].id",
            "twice",
        ),
        (
            json!({ "tasks": tasks(&["T1"]), "members": [{ "id": "S1", "capacity": 0 }] }),
            "members[0].capacity",
            "at least 1",
        ),
        (
            json!({ "tasks": tasks(&["T1"]), "members": [{ "id": "S1", "lags": { "T1": -3 } }] }),
            "members[0].lags",
            "-3",
        ),
        (
            json!({ "tasks": tasks(&["T1"]), "members": [{ "id": "S1", "colour": "red" }] }),
            "members[0]",
            "colour",
        ),
    ];
    for (input, field, reason) in cases {
        let err = AssignRequest::from_json(&input.to_string())
            .expect_err("invalid")
            .to_string();
        assert!(err.contains(field) && err.contains(reason), "{err}");
    }
}
