//! Unit tests of the engine's parts: the coordinator's rounds (causes riding along, a join
//! phase waiting for a crashed member, the release at join, an assignment lost with its
//! leader), the members' commands (refused ones change nothing) and the replay arithmetic
//! (the engine jumps exactly to the moment a learner is ready).

use super::coordinator::{Cause, Phase, Round};
use super::member::MemberStatus;
use super::{CommandError, Engine, Event, EventKind};
use crate::model::{Command, MemberId, MemberSpec, Scenario, TaskId};

/// Three members running five tasks (S1: T1 T2, S2: T3 T4, S3: T5), 10,000 records each,
/// restored at 10,000 records/s, no writes; rounds of 500 ms, sessions of 10 s.
fn stable_group(config: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{ "name": "unit", "config": {{ "rebalance_ms": 500, "session_timeout_ms": 10000,
              "restore_rate": 10000 {config} }},
            "tasks": [ {{ "id": "T1", "changelog": 10000 }}, {{ "id": "T2", "changelog": 20000 }},
                       {{ "id": "T3", "changelog": 10000 }}, {{ "id": "T4", "changelog": 20000 }},
                       {{ "id": "T5", "changelog": 10000 }} ],
            "members": [ {{ "id": "S1" }}, {{ "id": "S2" }}, {{ "id": "S3" }} ],
            "initial": {{ "S1": ["T1", "T2"], "S2": ["T3", "T4"], "S3": ["T5"] }} }}"#
    ))
    .expect("valid scenario")
}

fn join(name: &str) -> Command {
    Command::Join(MemberSpec {
        name: name.to_string(),
        capacity: 1,
        restore_rate: None,
        zone: None,
    })
}

fn engine(scenario: &Scenario) -> (Engine, Vec<Event>) {
    let mut out = Vec::new();
    let engine = Engine::new(scenario, &mut out);
    (engine, out)
}

fn round_starts(events: &[Event]) -> Vec<(u64, Vec<Cause>)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RoundStarted { causes, .. } => Some((e.at, causes.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_stable_group_starts_at_rest_with_no_round() {
    let (engine, out) = engine(&stable_group(""));
    assert!(engine.at_rest());
    assert!(engine.balanced());
    assert!(engine.coordinator().round().is_none());
    assert!(round_starts(&out).is_empty());
    assert_eq!(
        engine.leader(),
        Some(MemberId(0)),
        "the longest-standing member leads"
    );
}

#[test]
fn a_cause_arriving_during_the_join_phase_rides_along() {
    let (mut engine, mut out) = engine(&stable_group(""));
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(100, &mut out);
    engine.apply(&join("S5"), &mut out).expect("joins");
    engine.advance_to(600, &mut out);
    assert_eq!(round_starts(&out).len(), 1);
    let rounds: Vec<&Round> = out
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RoundAssigned(round) => Some(&**round),
            _ => None,
        })
        .collect();
    assert_eq!(rounds.len(), 1);
    assert_eq!(
        rounds[0].causes,
        [
            Cause::MemberJoined(MemberId(3)),
            Cause::MemberJoined(MemberId(4))
        ]
    );
    assert_eq!(rounds[0].joined.len(), 5, "S5 joined the round too");
}

#[test]
fn a_cause_arriving_while_syncing_starts_the_next_round() {
    let (mut engine, mut out) = engine(&stable_group(""));
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(300, &mut out);
    assert!(matches!(
        engine.coordinator().round().map(|r| &r.phase),
        Some(Phase::Syncing { .. })
    ));
    engine.apply(&join("S5"), &mut out).expect("joins");
    assert_eq!(
        engine.coordinator().pending(),
        [Cause::MemberJoined(MemberId(4))]
    );
    engine.advance_to(600, &mut out);
    let starts = round_starts(&out);
    assert_eq!(starts.len(), 2);
    assert_eq!(starts[1].0, 500, "the next round starts at the sync");
}

#[test]
fn the_join_phase_waits_for_a_crashed_member_until_its_session_times_out() {
    let (mut engine, mut out) = engine(&stable_group(""));
    engine
        .apply(&Command::Crash("S3".into()), &mut out)
        .expect("crashes");
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(9_999, &mut out);
    assert!(
        matches!(
            engine.coordinator().round().map(|r| &r.phase),
            Some(Phase::Joining { .. })
        ),
        "still joining: S3 has not been noticed"
    );
    engine.advance_to(10_000, &mut out);
    let assigned: Vec<u64> = out
        .iter()
        .filter(|e| matches!(e.kind, EventKind::RoundAssigned(_)))
        .map(|e| e.at)
        .collect();
    assert_eq!(assigned, [10_000]);
    assert!(out
        .iter()
        .any(|e| e.kind == EventKind::CrashDetected(MemberId(2)) && e.at == 10_000));
}

#[test]
fn a_crashed_leader_leads_until_the_coordinator_notices() {
    let (mut engine, mut out) = engine(&stable_group(""));
    engine
        .apply(&Command::CrashLeader, &mut out)
        .expect("crashes");
    assert!(engine.member(MemberId(0)).status.crashed());
    assert_eq!(engine.leader(), Some(MemberId(0)));
    assert_eq!(
        engine.check(&Command::CrashLeader),
        Err(CommandError::NoLeader),
        "crashing it again would do nothing"
    );
    engine.advance_to(10_000, &mut out);
    assert_eq!(engine.participants(), [MemberId(1), MemberId(2)]);
    engine.advance_to(20_000, &mut out);
    assert_eq!(engine.leader(), Some(MemberId(1)), "S2 now leads");
}

#[test]
fn under_release_at_join_a_member_releases_its_learned_tasks_when_it_rejoins() {
    for (handoff, releases) in [("release_at_join", true), ("two_phase", false)] {
        let scenario = stable_group(&format!(r#", "handoff": "{handoff}""#));
        let (mut engine, mut out) = engine(&scenario);
        engine.apply(&join("S4"), &mut out).expect("joins");
        engine.advance_to(500, &mut out);
        let learned = engine.member(MemberId(0)).learned.clone();
        assert_eq!(learned, [TaskId(0)], "S4 learns T1 from S1");
        // S4 needs 1 s to replay T1; it rejoins then, and S1 rejoins with it.
        engine.advance_to(1_500, &mut out);
        let stopped = out
            .iter()
            .any(|e| e.kind == EventKind::TaskStopped(TaskId(0), MemberId(0)) && e.at == 1_500);
        assert_eq!(stopped, releases, "{handoff}");
    }
}

#[test]
fn under_eager_rebalancing_every_member_releases_everything_at_a_round() {
    let (mut engine, mut out) = engine(&stable_group(r#", "strategy": "eager""#));
    engine.apply(&join("S4"), &mut out).expect("joins");
    let stopped = out
        .iter()
        .filter(|e| matches!(e.kind, EventKind::TaskStopped(..)))
        .count();
    assert_eq!(stopped, 5);
    assert!((0..5).all(|t| engine.owner(TaskId(t)).is_none()));
}

#[test]
fn an_assignment_is_lost_when_its_leader_crashes_before_the_sync() {
    let (mut engine, mut out) = engine(&stable_group(""));
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(300, &mut out);
    engine
        .apply(&Command::Crash("S1".into()), &mut out)
        .expect("crashes");
    engine.advance_to(500, &mut out);
    assert!(out
        .iter()
        .any(|e| e.kind == EventKind::RoundAbandoned(1) && e.at == 500));
    assert!(
        engine.member(MemberId(3)).learning.is_empty(),
        "S4 never got its learner"
    );
}

#[test]
fn a_refused_command_changes_nothing() {
    let (mut engine, _) = engine(&stable_group(""));
    let mut out = Vec::new();
    let before = engine.clone();
    for (command, error) in [
        (join("S2"), CommandError::DuplicateMember("S2".into())),
        (
            Command::Crash("S9".into()),
            CommandError::UnknownMember("S9".into()),
        ),
    ] {
        assert_eq!(engine.apply(&command, &mut out), Err(error));
    }
    assert_eq!(engine, before);
    assert!(out.is_empty());
    engine
        .apply(&Command::Drain("S2".into()), &mut out)
        .expect("drains");
    assert_eq!(
        engine.check(&Command::Drain("S2".into())),
        Err(CommandError::AlreadyDraining("S2".into()))
    );
}

#[test]
fn without_learners_a_static_member_drained_leaves_at_once() {
    let (mut engine, mut out) = engine(&stable_group(
        r#", "strategy": "cooperative", "static_membership": true"#,
    ));
    engine
        .apply(&Command::Drain("S2".into()), &mut out)
        .expect("drains");
    assert_eq!(engine.member(MemberId(1)).status, MemberStatus::Left);
    assert!(engine.owner(TaskId(2)).is_none() && engine.owner(TaskId(3)).is_none());
    assert_eq!(
        round_starts(&out),
        [(0, vec![Cause::MemberLeft(MemberId(1))])]
    );
}

#[test]
fn without_learners_a_dynamic_member_drained_closes_and_waits_for_its_session() {
    let (mut engine, mut out) = engine(&stable_group(r#", "strategy": "kip441""#));
    engine.advance_to(1_000, &mut out);
    engine
        .apply(&Command::Drain("S2".into()), &mut out)
        .expect("drains");
    // Kafka Streams closes without a LeaveGroup: S2 still counts, its tasks are down.
    let s2 = engine.member(MemberId(1)).status;
    assert_eq!(
        s2,
        MemberStatus::Closed {
            at: 1_000,
            in_group: true
        }
    );
    assert!(!engine.is_up(TaskId(2)) && !engine.is_up(TaskId(3)));
    assert!(round_starts(&out).is_empty());
    // Its session (10 s, in this group's teaching rounds) times out; then the round.
    engine.advance_to(10_999, &mut out);
    assert!(round_starts(&out).is_empty());
    engine.advance_to(11_000, &mut out);
    assert_eq!(
        round_starts(&out),
        [(11_000, vec![Cause::Closed(MemberId(1))])]
    );
    assert!(!engine.member(MemberId(1)).status.in_group());
}

#[test]
fn the_engine_jumps_to_the_moment_a_learner_is_ready() {
    let (mut engine, mut out) = engine(&stable_group(""));
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(500, &mut out);
    // S4 replays T1's 10,000 records at 10,000 records/s from the sync at 500 ms.
    assert_eq!(engine.next_event_time(), Some(1_500));
    engine.advance_to(1_000, &mut out);
    let lag = engine
        .lag(MemberId(3), TaskId(0))
        .expect("S4 holds T1's state");
    assert!((lag - 5_000.0).abs() < 1e-6, "{lag}");
    assert!(!engine.learner_ready(MemberId(3), TaskId(0)));
    engine.advance_to(1_500, &mut out);
    assert!(out
        .iter()
        .any(|e| e.kind == EventKind::LearnerReady(MemberId(3), TaskId(0)) && e.at == 1_500));
}

#[test]
fn a_learner_is_ready_within_the_acceptable_lag_and_says_when_it_will_be() {
    let (mut engine, mut out) = engine(&stable_group(r#", "acceptable_recovery_lag": 2000"#));
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(1_000, &mut out);
    // 5,000 of T1's 10,000 records replayed; 3,000 more to the acceptable lag of 2,000.
    let learner = engine.progress(MemberId(3), TaskId(0), true);
    assert!((learner.lag - 5_000.0).abs() < 1e-6 && learner.target == 2_000.0);
    assert!(!learner.done);
    assert_eq!(learner.eta_ms, Some(300));
    // The same store read as a replica that must catch up fully: 500 ms to go.
    let replica = engine.progress(MemberId(3), TaskId(0), false);
    assert_eq!((replica.done, replica.eta_ms), (false, Some(500)));
    engine.advance_to(1_300, &mut out);
    let ready = engine.progress(MemberId(3), TaskId(0), true);
    assert!(ready.done && ready.eta_ms.is_none());
    assert!(engine.learner_ready(MemberId(3), TaskId(0)));
    assert!(!engine.caught_up(MemberId(3), TaskId(0)));
    // A member without a store of a task is the whole changelog behind and never ready.
    let none = engine.progress(MemberId(3), TaskId(4), true);
    assert_eq!((none.lag, none.done, none.eta_ms), (10_000.0, false, None));
}

#[test]
fn checks_of_a_member_by_id_answer_as_the_commands_by_name_do_in_every_state() {
    let scenario = stable_group(r#", "static_membership": true"#);
    let (mut engine, mut out) = engine(&scenario);
    let by_name = |engine: &Engine, name: &str| {
        (
            engine.check(&Command::Crash(name.into())),
            engine.check(&Command::Drain(name.into())),
            engine.check(&Command::Restart {
                member: name.into(),
                down_ms: 1,
                keep_state: true,
            }),
        )
    };
    let by_id = |engine: &Engine, id: MemberId| {
        (
            engine.check_crash(id),
            engine.check_drain(id),
            engine.check_restart(id),
        )
    };
    let mut seen = Vec::new();
    let mut compare = |engine: &Engine| {
        for (i, name) in ["S1", "S2", "S3", "S4"].into_iter().enumerate() {
            let id = MemberId(i as u32);
            if i < engine.members().len() {
                assert_eq!(by_id(engine, id), by_name(engine, name), "{name}");
                seen.push(engine.members()[i].status.name());
            }
        }
    };
    compare(&engine);
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine
        .apply(&Command::Drain("S1".into()), &mut out)
        .expect("drains");
    engine
        .apply(&Command::Crash("S2".into()), &mut out)
        .expect("crashes");
    engine
        .apply(
            &Command::Restart {
                member: "S3".into(),
                down_ms: 5_000,
                keep_state: true,
            },
            &mut out,
        )
        .expect("restarts");
    compare(&engine);
    engine.advance_to(60_000, &mut out);
    compare(&engine);
    for status in ["live", "leaving", "crashed", "restarting", "left"] {
        assert!(seen.contains(&status), "{status} was checked");
    }
}

#[test]
fn ownership_has_one_record_and_the_checks_see_it_drift() {
    use crate::history::invariants::{check_state, Invariant};
    let (mut engine, _) = engine(&stable_group(""));
    let mut out = Vec::new();
    engine
        .apply(&Command::Crash("S2".into()), &mut out)
        .expect("S2 is there");
    // Crashing stopped S2's tasks in both records at once.
    assert_eq!(engine.owner(TaskId(2)), None);
    assert!(engine.members[1].active.is_empty());
    assert!(check_state(&engine).is_empty());
    // Written behind the engine's back, the two records disagree, and the check says so.
    engine.owner[0] = None;
    let found = check_state(&engine);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].invariant, Invariant::OwnershipAgrees);
    assert_eq!(found[0].detail, "T1 is owned by nobody but run by S1");
}

#[test]
fn the_step_by_step_checks_read_what_changed_and_see_a_second_owner() {
    use crate::history::invariants::{Invariant, StateChecker};
    let (mut engine, _) = engine(&stable_group(""));
    engine.keep_changes();
    let (mut checker, found) = StateChecker::new(&engine);
    assert!(found.is_empty(), "{found:?}");
    let mut out = Vec::new();
    engine.apply(&join("S4"), &mut out).expect("joins");
    engine.advance_to(100, &mut out);
    let changes = engine.take_changes();
    assert!(changes.members.contains(&MemberId(3)), "{changes:?}");
    assert!(checker
        .check(&engine, &changes.members, &changes.tasks)
        .is_empty());
    // S3 lists T1 behind the engine's back: S1 still runs it, and S3 is read again.
    let (t1, s3) = (TaskId(0), MemberId(2));
    let active = &mut engine.member_mut(s3).active;
    active.insert(active.partition_point(|&t| t < t1), t1);
    let found = checker.check(&engine, &[s3], &[]);
    let kinds: Vec<Invariant> = found.iter().map(|v| v.invariant).collect();
    assert_eq!(
        kinds,
        [Invariant::NeverTwoOwners, Invariant::OwnershipAgrees],
        "{found:?}"
    );
    assert_eq!(found[0].detail, "T1 runs on both S1 and S3");
    assert_eq!(found[1].detail, "T1 is owned by S1 but run by S3");
}

/// Runs `scenario` to rest (or 120 s), its commands at their times, reading every task's
/// status at every step when `read_all`: the events, and the engine after each step.
fn run_reading(scenario: &Scenario, read_all: bool) -> (Vec<Event>, Vec<Engine>) {
    let (mut engine, mut events) = engine(scenario);
    let mut states = Vec::new();
    let mut commands = scenario.commands.clone();
    commands.sort_by_key(|c| c.at_ms);
    let mut next = commands.iter().peekable();
    loop {
        let due = next.peek().map_or(120_000, |c| c.at_ms);
        if read_all {
            engine.forget_readings();
        }
        if engine.step(due, &mut events) {
            states.push(engine.clone());
            continue;
        }
        let Some(command) = next.next() else { break };
        engine.advance_to(command.at_ms, &mut events);
        if read_all {
            engine.forget_readings();
        }
        // A command refused here is refused alike in both runs.
        let _ = engine.apply(&command.command, &mut events);
        states.push(engine.clone());
    }
    (events, states)
}

#[test]
fn reading_only_the_tasks_that_can_have_changed_gives_what_reading_every_task_gives() {
    use crate::model::{Task, TimedCommand};
    let mut scenarios: Vec<Scenario> = crate::presets::PRESETS
        .iter()
        .map(|p| Scenario::from_json(p.json).expect("a preset"))
        .collect();
    // A scale-out with stateless tasks, writes and a standby, then members crashed, drained,
    // restarted with and without their disks, a zone lost and a rolling restart.
    let mut busy = crate::presets::scale_out(8, 11, 60);
    for (i, task) in busy.tasks.iter_mut().enumerate() {
        *task = Task {
            stateful: i % 7 != 0,
            write_rate: 20 * (i as u64 % 4),
            ..task.clone()
        };
    }
    busy.config.num_standby_replicas = 1;
    for (i, member) in busy.members.iter_mut().enumerate() {
        member.zone = Some(["a", "b", "c"][i % 3].to_string());
    }
    let at = |at_ms: u64, command: Command| TimedCommand { at_ms, command };
    let restart = |member: &str, keep_state: bool| Command::Restart {
        member: member.to_string(),
        down_ms: 3_000,
        keep_state,
    };
    busy.commands.extend([
        at(1_500, Command::Crash("S2".into())),
        at(2_500, Command::Drain("S4".into())),
        at(4_000, restart("S5", true)),
        at(4_000, restart("S6", false)),
        at(9_000, Command::CrashZone("c".into())),
        at(
            15_000,
            Command::RollingRestart {
                down_ms: 1_000,
                keep_state: false,
            },
        ),
    ]);
    scenarios.push(busy);
    for scenario in &scenarios {
        let (events, states) = run_reading(scenario, false);
        let (all_events, all_states) = run_reading(scenario, true);
        assert_eq!(events, all_events, "{}: the events", scenario.name);
        assert_eq!(states.len(), all_states.len(), "{}", scenario.name);
        for (a, b) in states.iter().zip(&all_states) {
            assert_eq!(
                a.up, b.up,
                "{} at {} ms: which tasks are up",
                scenario.name, a.time
            );
            assert_eq!(
                a.tally, b.tally,
                "{} at {} ms: the tally",
                scenario.name, a.time
            );
        }
        let idle = scenario.members.is_empty() && scenario.commands.is_empty();
        assert!(
            idle || events
                .iter()
                .any(|e| matches!(e.kind, EventKind::TaskUp(_) | EventKind::TaskDown(_))),
            "{}: some task went up or down",
            scenario.name
        );
    }
}

/// Three members in Kafka's rounds: heartbeats every 3 s, a round trip of 50 ms, the leader's
/// work 150 ms, sessions of 45 s.
fn kafka_group(strategy: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{ "name": "kafka", "config": {{ "strategy": "{strategy}", "restore_rate": 10000 }},
            "tasks": [ {{ "id": "T1", "changelog": 10000 }}, {{ "id": "T2", "changelog": 20000 }},
                       {{ "id": "T3", "changelog": 10000 }}, {{ "id": "T4", "changelog": 20000 }},
                       {{ "id": "T5", "changelog": 10000 }} ],
            "members": [ {{ "id": "S1" }}, {{ "id": "S2" }}, {{ "id": "S3" }} ],
            "initial": {{ "S1": ["T1", "T2"], "S2": ["T3", "T4"], "S3": ["T5"] }} }}"#
    ))
    .expect("valid scenario")
}

fn assigned_at(events: &[Event]) -> Vec<u64> {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::RoundAssigned(_)))
        .map(|e| e.at)
        .collect()
}

#[test]
fn a_new_member_rejoins_at_once_and_the_others_at_their_next_heartbeat() {
    let (mut engine, mut out) = engine(&kafka_group("learner"));
    engine.advance_to(1_000, &mut out);
    engine.apply(&join("S4"), &mut out).expect("joins");
    // S4 is in after two round trips (its first JoinGroup is answered MEMBER_ID_REQUIRED);
    // S1 to S3 heartbeat every 3 s from their start and rejoin at 3,000 ms, in at 3,050 ms.
    engine.advance_to(3_049, &mut out);
    assert!(assigned_at(&out).is_empty(), "still joining");
    engine.advance_to(3_050, &mut out);
    assert_eq!(assigned_at(&out), [3_050]);
    // The leader lists end offsets and assigns (150 ms), the sync is a round trip more.
    let synced = |out: &[Event]| {
        out.iter()
            .filter(|e| matches!(e.kind, EventKind::RoundSynced { .. }))
            .map(|e| e.at)
            .collect::<Vec<_>>()
    };
    engine.advance_to(3_249, &mut out);
    assert!(synced(&out).is_empty());
    engine.advance_to(3_250, &mut out);
    assert_eq!(synced(&out), [3_250]);
}

#[test]
fn a_follow_up_round_waits_a_heartbeat_for_the_members_that_revoked_nothing() {
    let (mut engine, mut out) = engine(&kafka_group("cooperative"));
    engine.apply(&join("S4"), &mut out).expect("joins at once");
    engine.advance_to(20_000, &mut out);
    // The first round closes at 3,050 ms (the others' heartbeat at 3 s), and the heartbeats
    // restart then; the follow-up starts at its sync (3,250 ms): the revoking member is in a
    // round trip later, the others at their next heartbeat, 6,050 ms, in at 6,100 ms.
    assert_eq!(assigned_at(&out), [3_050, 6_100]);
}

#[test]
fn a_crash_is_noticed_a_session_after_the_last_heartbeat() {
    let (mut engine, mut out) = engine(&kafka_group("learner"));
    engine.advance_to(4_000, &mut out);
    engine
        .apply(&Command::Crash("S3".into()), &mut out)
        .expect("crashes");
    engine.advance_to(100_000, &mut out);
    let noticed: Vec<u64> = out
        .iter()
        .filter(|e| matches!(e.kind, EventKind::CrashDetected(_)))
        .map(|e| e.at)
        .collect();
    // Heartbeats at 0, 3,000 ms: the last before the crash at 4,000 ms is at 3,000 ms.
    assert_eq!(noticed, [48_000]);
}
