//! Property tests over random groups, configurations and command sequences: joins, crashes,
//! drains, leader crashes, restarts (with or without their disk), rolling restarts and zone
//! outages, over members in zones, with static or dynamic membership.
//!
//! Every run is checked after every event by the invariants of docs/design.md (never two owners,
//! no replica beside its active, no new work for a leaving member, a planned handoff waits for
//! a ready learner, every task owned after a round), and at the end: a drained member ends
//! with nothing and has left; once commands stop (and restarted members are back) the group
//! reaches a fixed point, balanced by Kafka Streams'
//! measures, within a bounded number of rebalances and stays there; a
//! planned handoff costs its task at most one rebalance round of downtime; any past moment
//! replays exactly from snapshots, and acting there (joining, restarting, rolling, failing a
//! zone) forks the history as if the commands after it had never happened. Stepped event by
//! event, no replay reads more than its task's log holds (compacted, windowed or append-only,
//! under a shared disk or not), and a stream thread restoring an active task advances none of
//! its standbys, warm-ups or learners.
//!
//! `PROPTEST_CASES` sets the number of cases (default 1000 per property).

#![cfg(not(target_arch = "wasm32"))]

use handoff::engine::coordinator::Round;
use handoff::engine::member::MemberStatus;
use handoff::engine::replay::ReplayKind;
use handoff::engine::{Engine, EventKind};
use handoff::history::Run;
use handoff::model::{Cleanup, Config, HandoffMode, Readiness, Strategy as Design, Task, TaskId};
use handoff::model::{Command, MemberId, MemberSpec, Scenario, TimedCommand};
use handoff::views::series::{availability, AvailabilityScan};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

/// What a generated command does; the member it targets is picked among those present then.
#[derive(Clone, Debug)]
enum Intent {
    Join {
        capacity: u32,
        restore_rate: u64,
        zone: Option<&'static str>,
    },
    Crash(usize),
    Drain(usize),
    CrashLeader,
    Restart {
        member: usize,
        down_ms: u64,
        keep_state: bool,
    },
    RollingRestart {
        down_ms: u64,
        keep_state: bool,
    },
    CrashZone(usize),
}

/// A member's zone: none, or one of three.
fn zone() -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![
        Just(None),
        Just(Some("a")),
        Just(Some("b")),
        Just(Some("c"))
    ]
}

#[derive(Clone, Debug)]
struct Case {
    scenario: Scenario,
    intents: Vec<(u64, Intent)>,
}

fn config(strategy: Design) -> impl Strategy<Value = Config> {
    (
        prop_oneof![
            Just(HandoffMode::ReleaseAtJoin),
            Just(HandoffMode::TwoPhase)
        ],
        prop_oneof![Just(Readiness::Eager), Just(Readiness::Stable)],
        prop_oneof![Just(0u64), Just(200), Just(20_000)],
        0u32..3,
        prop_oneof![Just(None), (1u32..4).prop_map(Some)],
        prop_oneof![
            Just(Some(100u64)),
            Just(Some(500)),
            Just(Some(1000)),
            Just(None)
        ],
        prop_oneof![Just(1000u64), Just(4000), Just(10_000)],
        prop_oneof![Just(None), (2000u64..30_000).prop_map(Some)],
        prop::bool::ANY,
        prop::bool::ANY,
        (
            prop_oneof![Just(0.5f64), Just(0.1)],
            prop_oneof![Just(None), (500u64..5_000).prop_map(Some)],
            prop_oneof![3 => Just(None), 1 => (10_000u64..40_000).prop_map(Some)],
        ),
    )
        .prop_map(
            move |(
                handoff,
                readiness,
                lag,
                standbys,
                max_learners,
                rebalance,
                session,
                timeout,
                static_membership,
                rack_aware_standbys,
                (dirty_ratio, segment_records, disk_rate),
            )| {
                let mut c = Config {
                    strategy,
                    handoff,
                    readiness,
                    acceptable_recovery_lag: lag,
                    num_standby_replicas: standbys,
                    max_learners,
                    rebalance_ms: rebalance,
                    // Kafka's rounds, scaled to the session: a heartbeat a quarter of it.
                    heartbeat_interval_ms: session / 4,
                    round_trip_ms: 20,
                    assign_ms: 50,
                    initial_rebalance_delay_ms: 300,
                    session_timeout_ms: session,
                    scale_down_timeout_ms: timeout,
                    static_membership,
                    rack_aware_standbys,
                    restore_rate: 20_000,
                    dirty_ratio,
                    segment_records,
                    disk_rate,
                    ..Config::default()
                };
                c.kip441.probing_interval_ms = 5_000;
                c.kip441.acceptable_recovery_lag = lag;
                c
            },
        )
}

/// What a generated group is made of: each task's (stateful, changelog, write rate) and
/// name, each member's (capacity, restore rate, zone).
type Tasks = Vec<((bool, u64, u64), String)>;
type Members = Vec<(u32, Option<u64>, Option<&'static str>)>;

/// How a generated task's changelog keeps records, the keys it gains a second and its
/// processing rate: compacted most often, as Kafka Streams' stores are.
fn keeping() -> impl Strategy<Value = (Cleanup, u64, Option<u64>)> {
    (
        prop_oneof![
            3 => Just(Cleanup::Compact),
            1 => (5_000u64..60_000).prop_map(|retention_ms| Cleanup::Windowed { retention_ms }),
            1 => Just(Cleanup::Append),
        ],
        prop_oneof![3 => Just(0u64), 1 => 1u64..20],
        prop_oneof![Just(None), (50u64..2_000).prop_map(Some)],
    )
}

/// Up to `n` commands over the first 40 s.
fn intents(n: usize) -> impl Strategy<Value = Vec<(u64, Intent)>> {
    prop::collection::vec(
        (
            0u64..40_000,
            prop_oneof![
                3 => (1u32..3, 5_000u64..40_000, zone()).prop_map(|(capacity, restore_rate, zone)| Intent::Join { capacity, restore_rate, zone }),
                2 => (0usize..16).prop_map(Intent::Crash),
                2 => (0usize..16).prop_map(Intent::Drain),
                1 => Just(Intent::CrashLeader),
                3 => (0usize..16, 1u64..20_000, prop::bool::ANY).prop_map(|(member, down_ms, keep_state)| Intent::Restart { member, down_ms, keep_state }),
                1 => (1u64..20_000, prop::bool::ANY).prop_map(|(down_ms, keep_state)| Intent::RollingRestart { down_ms, keep_state }),
                1 => (0usize..4).prop_map(Intent::CrashZone),
            ],
        ),
        0..n,
    )
}

/// A small group: up to 11 tasks named T1, T2... (one subtopology), up to 5 members.
fn case(strategy: Design) -> impl Strategy<Value = Case> {
    let tasks = prop::collection::vec((prop::bool::weighted(0.8), 0u64..60_000, 0u64..120), 1..12)
        .prop_map(|tasks| {
            tasks
                .into_iter()
                .enumerate()
                .map(|(i, t)| (t, format!("T{}", i + 1)))
                .collect::<Tasks>()
        });
    let members = prop::collection::vec(
        (
            1u32..3,
            prop_oneof![Just(None), (5_000u64..40_000).prop_map(Some)],
            zone(),
        ),
        0..6,
    );
    (
        config(strategy),
        tasks,
        members,
        prop::bool::ANY,
        intents(7),
        any::<u64>(),
        prop::collection::vec(keeping(), 1..4),
    )
        .prop_map(into_case)
}

/// A group of an application's size: about a thousand tasks in two to four subtopologies
/// (named `0_0`, `0_1`... as Kafka Streams names them), 10 to 40 members of 1 to 4 threads.
/// No rolling restarts: forty members restored one after another make a case slow, and the
/// small groups cover them.
fn large_case(strategy: Design) -> impl Strategy<Value = Case> {
    let subtopologies = prop::collection::vec((200usize..450, prop::bool::weighted(0.75)), 2..5);
    let tasks = (subtopologies, any::<u64>()).prop_map(|(subtopologies, seed)| {
        let mut seed = seed;
        let mut tasks = Tasks::new();
        for (s, (partitions, stateful)) in subtopologies.into_iter().enumerate() {
            for p in 0..partitions {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let changelog = (seed >> 33) % 60_000;
                let write_rate = (seed >> 20) % 30;
                tasks.push(((stateful, changelog, write_rate), format!("{s}_{p}")));
            }
        }
        tasks
    });
    let members = prop::collection::vec(
        (
            1u32..5,
            prop_oneof![Just(None), (5_000u64..40_000).prop_map(Some)],
            zone(),
        ),
        10..41,
    );
    // Kafka's two warm-ups at a time would take thousands of probing rounds to move a
    // thousand tasks; the small groups keep the default.
    let config = config(strategy).prop_map(|mut c| {
        c.kip441.max_warmup_replicas = 64;
        c
    });
    (
        config,
        tasks,
        members,
        prop::bool::ANY,
        intents(5).prop_map(|mut intents| {
            intents.retain(|(_, i)| !matches!(i, Intent::RollingRestart { .. }));
            intents
        }),
        any::<u64>(),
        prop::collection::vec(keeping(), 1..4),
    )
        .prop_map(into_case)
}

/// What a generated case is drawn from: the configuration, the group, whether it starts
/// stable, the intents, a salt, and how the tasks keep their changelogs.
type Generated = (
    Config,
    Tasks,
    Members,
    bool,
    Vec<(u64, Intent)>,
    u64,
    Vec<(Cleanup, u64, Option<u64>)>,
);

/// The case a generated group makes, its intents in time order.
fn into_case(
    (config, tasks, members, stable_start, mut intents, salt, keeping): Generated,
) -> Case {
    let tasks: Vec<Task> = tasks
        .into_iter()
        .enumerate()
        .map(|(i, ((stateful, changelog, write_rate), name))| {
            let (cleanup, key_growth, process_rate) = keeping[i % keeping.len()];
            Task {
                cleanup,
                key_growth: if stateful { key_growth } else { 0 },
                process_rate,
                ..Task::new(name, stateful, changelog, write_rate)
            }
        })
        .collect();
    let members: Vec<MemberSpec> = members
        .into_iter()
        .enumerate()
        .map(|(i, (capacity, restore_rate, zone))| MemberSpec {
            name: format!("S{}", i + 1),
            capacity,
            restore_rate,
            zone: zone.map(str::to_string),
        })
        .collect();
    // A stable start is balanced (as the leader would have left it): tasks go round the
    // members, starting from a random one.
    let initial = (stable_start && !members.is_empty()).then(|| {
        let first = (salt % members.len() as u64) as usize;
        (0..tasks.len())
            .map(|t| {
                Some(handoff::model::MemberId(
                    ((first + t) % members.len()) as u32,
                ))
            })
            .collect()
    });
    intents.sort_by_key(|(at, _)| *at);
    Case {
        scenario: Scenario {
            name: "generated".to_string(),
            description: String::new(),
            config,
            tasks,
            members,
            initial,
            commands: Vec::new(),
            until_ms: None,
            topology: None,
            instances: None,
        },
        intents,
    }
}

/// Plays the intents as commands (skipping those that would do nothing at their time), then
/// runs the group to rest. Returns the run and the commands actually carried out.
fn play(case: &Case) -> (Run, Vec<TimedCommand>) {
    let mut run = Run::new(case.scenario.clone());
    let mut joined = case.scenario.members.len();
    let mut done = Vec::new();
    for (at, intent) in &case.intents {
        run.advance_to(*at).expect("no scenario commands");
        let engine = run.engine();
        let pick = |i: usize| -> Option<String> {
            let members = engine.members();
            (!members.is_empty()).then(|| members[i % members.len()].name.clone())
        };
        let command = match intent {
            Intent::Join {
                capacity,
                restore_rate,
                zone,
            } => {
                joined += 1;
                Some(Command::Join(MemberSpec {
                    name: format!("S{joined}"),
                    capacity: *capacity,
                    restore_rate: Some(*restore_rate),
                    zone: zone.map(str::to_string),
                }))
            }
            Intent::Crash(i) => pick(*i).map(Command::Crash),
            Intent::Drain(i) => pick(*i).map(Command::Drain),
            Intent::CrashLeader => Some(Command::CrashLeader),
            Intent::Restart {
                member,
                down_ms,
                keep_state,
            } => pick(*member).map(|member| Command::Restart {
                member,
                down_ms: *down_ms,
                keep_state: *keep_state,
            }),
            Intent::RollingRestart {
                down_ms,
                keep_state,
            } => Some(Command::RollingRestart {
                down_ms: *down_ms,
                keep_state: *keep_state,
            }),
            Intent::CrashZone(i) => {
                let zones = engine.zones();
                (!zones.is_empty()).then(|| Command::CrashZone(zones[i % zones.len()].clone()))
            }
        };
        if let Some(command) = command {
            if run.engine().check(&command).is_ok() {
                run.command(*at, command.clone())
                    .expect("checked command applies");
                done.push(TimedCommand {
                    at_ms: *at,
                    command,
                });
            }
        }
    }
    run.run_to_end().expect("no scenario commands");
    (run, done)
}

fn rounds_after(run: &Run, at: u64) -> usize {
    run.rounds().iter().filter(|r| r.started_at >= at).count()
}

/// The outage of a task that ends at or after `at`: (down since, up again).
fn outage_around(run: &Run, task: TaskId, at: u64) -> Option<(u64, u64)> {
    let mut down_since = None;
    for e in run.events() {
        match e.kind {
            EventKind::TaskDown(t) if t == task => down_since = Some(e.at),
            EventKind::TaskUp(t) if t == task => {
                if e.at >= at {
                    return down_since.map(|d| (d, e.at));
                }
                down_since = None;
            }
            _ => {}
        }
    }
    None
}

/// Tasks a round hands from a live member that ran them to a member whose learner was ready.
fn planned_handoffs(round: &Round, ready_lag: u64) -> Vec<TaskId> {
    let mut out = Vec::new();
    for (pos, (_, a)) in round.assignment.members.iter().enumerate() {
        let meta = &round.joined[pos];
        for &t in &a.assigned {
            let from_other = round
                .joined
                .iter()
                .enumerate()
                .any(|(p, m)| p != pos && (m.assigned.contains(&t) || m.revoked.contains(&t)));
            let learner_ready =
                meta.learning.contains(&t) && meta.lag(t).is_some_and(|l| l <= ready_lag);
            let revoked_before = !round
                .joined
                .iter()
                .any(|m| m.assigned.contains(&t) || m.revoked.contains(&t));
            if learner_ready && (from_other || revoked_before) {
                out.push(t);
            }
        }
    }
    out
}

/// At rest, once the replicas have caught up, the leader would decide what the members
/// already have. (A member back from a restart that wiped its state comes to rest at once
/// under static membership while its standby still replays: Kafka's assignor, seeing the
/// lag, would place a warm-up instead, so the check waits for the replay.)
fn check_fixed_point(engine: &Engine) -> Result<(), TestCaseError> {
    let mut engine = engine.clone();
    let mut events = Vec::new();
    for _ in 0..10_000 {
        let Some(next) = engine.next_event_time() else {
            break;
        };
        engine.step(next, &mut events);
    }
    prop_assert!(
        engine.next_event_time().is_none(),
        "replays never finish at rest"
    );
    prop_assert!(
        engine.at_rest(),
        "no longer at rest once the replicas caught up"
    );
    let assignment = engine
        .assign_now()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(
        !assignment.followup,
        "the leader would revoke something at rest"
    );
    for (m, a) in &assignment.members {
        let member = engine.member(*m);
        prop_assert_eq!(
            &a.assigned,
            &member.active,
            "{} would change at rest",
            member.name
        );
        prop_assert!(
            a.learning.is_empty(),
            "{} would get a learner at rest",
            member.name
        );
    }
    Ok(())
}

/// Checks a case; a failure carries the scenario as a file `handoff run` can replay.
fn check_case(case: &Case) -> Result<Checked, TestCaseError> {
    let (run, commands) = play(case);
    check_run(&run, &commands).map_err(|e| {
        TestCaseError::fail(format!(
            "{e}\nreplay with `handoff run`:\n{}",
            case.scenario.to_json(&commands)
        ))
    })
}

/// What a check of a run got to check: a checker that stops checking (a filter that lets
/// nothing through, an early return) shows here, and `the_checker_checks_what_it_claims` fails.
#[derive(Clone, Copy, Debug, Default)]
struct Checked {
    /// Runs that ended with only draining members, every task kept up.
    draining_only: usize,
    /// Runs checked balanced at rest and at a fixed point of the leader.
    balanced: usize,
    /// Drained members checked empty and gone.
    drained: usize,
    /// Planned handoffs whose downtime was checked against its bound.
    handoffs: usize,
}

impl std::ops::AddAssign for Checked {
    fn add_assign(&mut self, other: Checked) {
        self.draining_only += other.draining_only;
        self.balanced += other.balanced;
        self.drained += other.drained;
        self.handoffs += other.handoffs;
    }
}

fn check_run(run: &Run, commands: &[TimedCommand]) -> Result<Checked, TestCaseError> {
    let mut checked = Checked::default();
    let engine = run.engine();
    let config = engine.config();
    prop_assert!(
        run.violations().is_empty(),
        "violations: {:?}",
        run.violations()
    );

    // When every member still alive is draining, nobody can take their tasks: they keep
    // running them (no downtime) and wait for a new member or their scale-down timeout.
    let staying = engine.members().iter().any(|m| m.status.live());
    let draining = engine.members().iter().any(|m| m.status.leaving());
    if !staying && draining {
        prop_assert!(config.scale_down_timeout_ms.is_none());
        for t in 0..engine.tasks().len() {
            prop_assert!(
                engine.is_up(TaskId(t as u32)),
                "a task is down although draining members could run it"
            );
        }
        checked.draining_only += 1;
        return Ok(checked);
    }

    // The group comes to rest: every task runs, no learner, no round pending.
    prop_assert!(engine.at_rest(), "not at rest at {} ms", engine.time());
    // Balanced by Kafka Streams' measures, once any leader had a say (a generated stable
    // start need not be): active, stateful active and stateful replica tasks per unit of
    // capacity within 1 of each other. Kafka's own assignor balances replicas over equal
    // capacities only (its standby balancing can be blocked otherwise).
    if !run.rounds().is_empty() {
        let skew = engine.skew();
        let capacities: Vec<u32> = engine
            .members()
            .iter()
            .filter(|m| m.status.live())
            .map(|m| m.capacity)
            .collect();
        let equal = capacities.windows(2).all(|w| w[0] == w[1]);
        prop_assert!(skew.active <= 1.0 + 1e-9, "active skew at rest: {skew:?}");
        prop_assert!(
            skew.stateful_active <= 1.0 + 1e-9,
            "stateful skew at rest: {skew:?}"
        );
        if config.strategy != Design::Kip441 || equal {
            prop_assert!(engine.balanced(), "not balanced at rest: {skew:?}");
        }
        check_fixed_point(engine)?;
        checked.balanced += 1;
    }

    // Drained members end with nothing and leave: a static or learner member at once, a
    // dynamic one of another strategy by closing (or they crashed meanwhile).
    for (i, m) in engine.members().iter().enumerate() {
        let drained = run
            .events()
            .iter()
            .any(|e| e.kind == EventKind::DrainStarted(MemberId(i as u32)));
        if drained {
            prop_assert!(
                matches!(
                    m.status,
                    MemberStatus::Left | MemberStatus::Closed { .. } | MemberStatus::Crashed { .. }
                ),
                "{} drained but is {:?}",
                m.name,
                m.status
            );
            prop_assert!(m.active.is_empty());
            checked.drained += 1;
        }
    }

    // A bounded number of rebalances after the last disturbance: the last command, or the
    // last member back from a restart (a rolling restart is one command that goes on).
    let last_return = run
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::MemberReturned(_) | EventKind::SessionTimedOut(_)
            )
        })
        .map(|e| e.at)
        .max();
    let last = commands
        .last()
        .map(|c| c.at_ms)
        .max(last_return)
        .unwrap_or(0);
    let bound = 4 * (engine.tasks().len() + engine.members().len()) + 6;
    let rounds = rounds_after(run, last);
    prop_assert!(
        rounds <= bound,
        "{rounds} rebalances after the last command (bound {bound})"
    );

    // At rest it stays at rest: nothing more happens however long we wait.
    let mut later = run.clone();
    let before = later.rounds().len();
    later
        .advance_to(engine.time() + 3_600_000)
        .expect("no commands left");
    prop_assert_eq!(later.rounds().len(), before, "a rebalance happened at rest");

    // A planned handoff costs its task at most one round (plus catching up the acceptable
    // lag), counted from the round that hands it over (or, two-phase, from the revocation
    // that started the follow-up), unless a join phase waited for a crashed member.
    if config.strategy == Design::Learner {
        let ready_lag = config.ready_lag();
        for (i, round) in run.rounds().iter().enumerate() {
            let Some(synced) = round.synced_at else {
                continue;
            };
            let join_ms = config.longest_join_ms();
            let previous_waited = i > 0 && {
                let p = &run.rounds()[i - 1];
                p.assigned_at - p.started_at > join_ms
            };
            if round.assigned_at - round.started_at > join_ms || previous_waited {
                continue;
            }
            for t in planned_handoffs(round, ready_lag) {
                let Some((down, up)) = outage_around(run, t, synced) else {
                    continue;
                };
                // An outage that began earlier (a crash) is not the handoff's doing.
                let down = down.max(round.started_at);
                // Catching up at most the acceptable lag, at the receiver's restore rate
                // shared with whatever else it replays meanwhile (at most one replay per task).
                let Some((member, _)) = round
                    .assignment
                    .members
                    .iter()
                    .find(|(_, a)| a.assigned.contains(&t))
                else {
                    continue;
                };
                // A receiver that crashed (or restarted) before the task came up is a crash's
                // (or a restart's) cost; a task moved on again before it came up (a learner
                // "ready" within a positive acceptable lag may restore for a while) is the
                // next move's cost.
                let crashed_before =
                    |s: MemberStatus| matches!(s, MemberStatus::Crashed { at, .. } if at <= up);
                if crashed_before(engine.member(*member).status) {
                    continue;
                }
                let restarted = run.events().iter().any(|e| {
                    matches!(e.kind, EventKind::MemberRestarted(m) if m == *member)
                        && e.at >= round.started_at
                        && e.at <= up
                });
                if restarted {
                    continue;
                }
                // Two-phase, the next move starts by revoking the task from the receiver; if
                // that move then waits (its new owner went away before the follow-up), the
                // task comes up where it was, later, still at the next move's cost.
                let moved_again = run.events().iter().any(|e| {
                    let started_elsewhere =
                        matches!(e.kind, EventKind::TaskStarted(x, m) if x == t && m != *member);
                    let revoked = config.handoff == HandoffMode::TwoPhase
                        && matches!(e.kind, EventKind::TaskStopped(x, m) if x == t && m == *member);
                    (started_elsewhere || revoked) && e.at > synced && e.at <= up
                });
                if moved_again {
                    continue;
                }
                let replays = engine.tasks().len() as f64;
                let disk = config.disk_rate.map_or(f64::INFINITY, |d| d as f64);
                let rate = engine.member(*member).restore_rate.min(disk) / replays;
                let catch_up = (ready_lag as f64 / rate * 1000.0).ceil() as u64 + 1;
                // Under `release_at_join` a new owner still restoring the task releases it at
                // each join while another learner learns it; its restore pauses for that
                // round, from the join until the assignment is synced back (longer than a
                // round if that join phase waited for a crashed member).
                let paused: u64 = run
                    .rounds()
                    .iter()
                    .filter(|r| r.started_at >= synced && r.started_at < up)
                    .filter(|r| {
                        r.joined
                            .iter()
                            .any(|m| m.member == *member && m.revoked.contains(&t))
                    })
                    .map(|r| {
                        (r.synced_at.unwrap_or(up).min(up) - r.started_at)
                            .max(config.longest_round_ms())
                    })
                    .sum();
                prop_assert!(
                    up - down <= config.longest_round_ms() + paused + catch_up,
                    "{} was down {} ms around its handoff at {} ms (round {})",
                    engine.roster().task(t),
                    up - down,
                    synced,
                    round.index
                );
                checked.handoffs += 1;
            }
        }
    }
    Ok(checked)
}

/// Everything replayed so far, by every kind of replica.
fn replayed(engine: &Engine) -> f64 {
    let r = engine.replayed();
    r.learners + r.actives + r.standbys
}

/// Checks the replays of the moment: none has more to read than its task's log holds, and a
/// stream thread restoring an active task advances none of its standbys, warm-ups or
/// learners (Kafka's state updater reads only active changelogs then). Returns the most the
/// replays can read in the next `dt_ms`: each its rate, and no more than it has to read plus
/// what is written meanwhile.
fn check_replays_now(engine: &Engine, dt_ms: u64) -> Result<f64, TestCaseError> {
    let dt = dt_ms as f64 / 1000.0;
    let mut most = 0.0;
    for (i, member) in engine.members().iter().enumerate() {
        let id = MemberId(i as u32);
        let replays = engine.replays(id);
        for r in replays {
            let to_read = engine.progress(id, r.task, false).lag;
            let held = engine.changelog_records(r.task);
            prop_assert!(
                to_read <= held + 1e-6,
                "{} has {to_read} records of {} to read, its log holds {held}",
                member.name,
                engine.roster().task(r.task)
            );
            most += (r.rate * dt).min(to_read + r.write_rate * dt);
        }
        for thread in &member.threads {
            let restoring = replays
                .iter()
                .any(|r| r.kind == ReplayKind::Active && thread.active.contains(&r.task));
            for r in replays.iter().filter(|r| thread.replicas.contains(&r.task)) {
                prop_assert!(
                    !restoring || r.rate == 0.0,
                    "{} replicates {} at {} records/s on a thread restoring an active",
                    member.name,
                    engine.roster().task(r.task),
                    r.rate
                );
            }
        }
    }
    Ok(most)
}

/// Steps a case's commands through an engine event by event, checking the replays after
/// every step and that each step read no more than they allowed.
fn check_replays(case: &Case) -> Result<u64, TestCaseError> {
    let (run, commands) = play(case);
    let end = run.frontier();
    let mut out = Vec::new();
    let mut engine = Engine::new(&case.scenario, &mut out);
    let mut commands = commands.iter().peekable();
    let mut steps = 0;
    loop {
        let event = engine.next_event_time();
        let command = commands.peek().map(|c| c.at_ms);
        let Some(t) = event.into_iter().chain(command).min().filter(|&t| t <= end) else {
            break;
        };
        let most = check_replays_now(&engine, t - engine.time())?;
        let before = replayed(&engine);
        if event == Some(t) {
            engine.step(t, &mut out);
        } else {
            engine.advance_to(t, &mut out);
            let c = commands.next().expect("a command is due");
            engine
                .apply(&c.command, &mut out)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", c.command)))?;
        }
        let read = replayed(&engine) - before;
        prop_assert!(
            read <= most * (1.0 + 1e-9) + 1e-6,
            "{read} records replayed up to {t} ms where the replays allowed {most}"
        );
        steps += 1;
        prop_assert!(steps < 200_000, "no end of events by {t} ms");
    }
    engine.advance_to(end, &mut out);
    check_replays_now(&engine, 0)?;
    prop_assert!(engine == *run.engine(), "stepping gives the run's end");
    Ok(steps)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 2000, ..ProptestConfig::default() })]

    #[test]
    fn learner_design_keeps_its_rules(case in case(Design::Learner)) {
        check_case(&case)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 4, max_shrink_iters: 1000, ..ProptestConfig::default() })]

    #[test]
    fn other_strategies_keep_the_common_rules(
        case in prop_oneof![case(Design::Kip441), case(Design::Cooperative), case(Design::Eager)]
    ) {
        check_case(&case)?;
    }

    /// No restore or replay reads more than its task's log holds, and a stream thread
    /// restoring an active task advances no standby-type replica.
    #[test]
    fn replays_stay_within_the_log_and_actives_restore_first(
        case in prop_oneof![
            case(Design::Learner),
            case(Design::Kip441),
            case(Design::Cooperative),
            case(Design::Eager)
        ]
    ) {
        check_replays(&case)?;
    }

    /// The task timeline's reading of availability, read on in steps while the history
    /// grows (as the playground does while playing), always equals a reading from 0.
    #[test]
    fn availability_read_on_in_steps_equals_a_reading_from_the_start(
        case in case(Design::Learner),
        mut cuts in proptest::collection::vec(0.0f64..1.0, 1..8),
    ) {
        let (run, commands) = play(&case);
        let end = run.frontier();
        let mut growing = Run::new(Scenario { commands, ..case.scenario.clone() });
        let mut scan = AvailabilityScan::new(&growing);
        cuts.sort_by(f64::total_cmp);
        for cut in cuts.into_iter().chain([1.0]) {
            let until = (end as f64 * cut) as u64;
            growing.advance_to(until).expect("replayed commands apply");
            prop_assert!(scan.follows(&growing, until));
            scan.advance(&growing, until);
            prop_assert_eq!(scan.lines(until), availability(&growing, until), "at {} ms", until);
        }
        // A reading cannot go back, nor on over another history.
        prop_assert!(end == 0 || !scan.follows(&growing, end - 1));
    }

    /// Scrubbing: the state at any past moment, replayed from snapshots, is exactly the
    /// state a fresh run reaches at that moment.
    #[test]
    fn any_moment_replays_exactly(case in case(Design::Learner), fraction in 0.0f64..1.0) {
        let (run, commands) = play(&case);
        let t = (run.frontier() as f64 * fraction) as u64;
        let mut fresh = Run::new(Scenario { commands, ..case.scenario.clone() });
        fresh.advance_to(t).expect("replayed commands apply");
        prop_assert!(run.state_at(t) == *fresh.engine(), "state at {} ms differs", t);
    }

    /// Editing the schedule runs the history again from the edited moment only: what came
    /// before is kept as it was, and the result equals a fresh run of the edited commands
    /// (here the commands from that moment on are dropped or shifted later, and a member
    /// joins there).
    #[test]
    fn rescheduling_runs_again_from_the_edit(
        case in case(Design::Learner),
        fraction in 0.0f64..1.0,
        shift_ms in 0u64..5_000,
        keep_later in any::<bool>(),
    ) {
        let (mut run, commands) = play(&case);
        let from = (run.frontier() as f64 * fraction) as u64;
        let earlier = run.state_at(from.saturating_sub(1));
        let mut later = vec![TimedCommand {
            at_ms: from,
            command: Command::Join(MemberSpec { name: "Z".to_string(), capacity: 1, restore_rate: None, zone: None }),
        }];
        if keep_later {
            later.extend(commands.iter().filter(|c| c.at_ms >= from).map(|c| TimedCommand {
                at_ms: c.at_ms + shift_ms,
                command: c.command.clone(),
            }));
            later.sort_by_key(|c| c.at_ms);
        }
        let mut edited: Vec<TimedCommand> = commands.iter().filter(|c| c.at_ms < from).cloned().collect();
        edited.extend(later.iter().cloned());
        let mut fresh = Run::new(Scenario { commands: edited, ..case.scenario.clone() });
        // A shifted command may no longer apply (its member gone by then): both runs say so.
        let fresh_result = fresh.run_to_end();
        run.reschedule(from, later);
        let result = run.run_to_end();
        prop_assert_eq!(result.is_ok(), fresh_result.is_ok());
        if from > 0 {
            prop_assert!(run.state_at(from - 1) == earlier, "the past before the edit changed");
        }
        if result.is_ok() {
            prop_assert!(run.engine() == fresh.engine(), "rescheduled history differs from a fresh run");
            prop_assert_eq!(run.rounds(), fresh.rounds());
            prop_assert_eq!(run.events(), fresh.events());
            prop_assert!(run.violations().is_empty(), "violations: {:?}", run.violations());
        }
    }

    /// Acting at a past moment forks: the result equals a run that never had the commands
    /// after that moment, plus the new one (a join, or an operation: a restart, a rolling
    /// restart, a zone outage, when it can happen then).
    #[test]
    fn acting_in_the_past_forks_the_history(
        case in case(Design::Learner),
        fraction in 0.0f64..1.0,
        which in 0usize..4,
        down_ms in 1u64..20_000,
    ) {
        let (mut run, commands) = play(&case);
        let t = (run.frontier() as f64 * fraction) as u64;
        let joining = Command::Join(MemberSpec { name: "Z".to_string(), capacity: 1, restore_rate: None , zone: None});
        let state = run.state_at(t);
        let first = state.members().first().map(|m| m.name.clone()).unwrap_or_default();
        let zone = state.zones().first().cloned().unwrap_or_default();
        let command = [
            joining.clone(),
            Command::Restart { member: first, down_ms, keep_state: down_ms % 2 == 0 },
            Command::RollingRestart { down_ms, keep_state: true },
            Command::CrashZone(zone),
        ]
        .into_iter()
        .nth(which)
        .filter(|c| state.check(c).is_ok())
        .unwrap_or(joining);
        run.command(t, command.clone()).expect("a checked command applies");
        run.run_to_end().expect("no scenario commands");
        let mut kept: Vec<TimedCommand> = commands.into_iter().filter(|c| c.at_ms <= t).collect();
        kept.push(TimedCommand { at_ms: t, command });
        let mut fresh = Run::new(Scenario { commands: kept, ..case.scenario.clone() });
        fresh.run_to_end().expect("replayed commands apply");
        prop_assert!(run.engine() == fresh.engine(), "forked history differs from a fresh run");
        prop_assert_eq!(run.rounds(), fresh.rounds());
        prop_assert!(run.violations().is_empty(), "violations: {:?}", run.violations());
        prop_assert_eq!(run.forks().len(), usize::from(t < run.forks().first().map_or(0, |f| f.abandoned_until_ms)));
    }
}

/// At an application's size (about a thousand tasks, up to 40 members) every rule holds
/// under every strategy, and, differentially, the state at any moment replayed from
/// snapshots is the state a fresh run reaches there. A few cases only (a run takes seconds
/// here), so the runner is driven by hand: the `proptest!` macro would let `PROPTEST_CASES`
/// set the count.
#[test]
fn a_thousand_tasks_keep_the_rules_and_replay_exactly() {
    use proptest::test_runner::TestRunner;
    let config = ProptestConfig {
        cases: (cases() / 1000).clamp(2, 4),
        max_shrink_iters: 20,
        ..ProptestConfig::default()
    };
    let strategy = (
        prop_oneof![
            large_case(Design::Learner),
            large_case(Design::Kip441),
            large_case(Design::Cooperative),
            large_case(Design::Eager)
        ],
        0.0f64..1.0,
    );
    let result = TestRunner::new(config).run(&strategy, |(case, fraction)| {
        prop_assert!(case.scenario.tasks.len() >= 400);
        let (run, commands) = play(&case);
        check_run(&run, &commands).map_err(|e| {
            TestCaseError::fail(format!(
                "{e}\nreplay with `handoff run`:\n{}",
                case.scenario.to_json(&commands)
            ))
        })?;
        let t = (run.frontier() as f64 * fraction) as u64;
        let mut fresh = Run::new(Scenario {
            commands,
            ..case.scenario.clone()
        });
        fresh.advance_to(t).expect("replayed commands apply");
        prop_assert!(
            run.state_at(t) == *fresh.engine(),
            "state at {} ms differs",
            t
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// The checker checks what it claims: over a fixed sample of generated groups, most runs are
/// checked balanced at a fixed point, and drains and planned handoffs are checked by the
/// hundred. A change that made a check skip everything fails here.
#[test]
fn the_checker_checks_what_it_claims() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        ProptestConfig::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = case(Design::Learner);
    let mut total = Checked::default();
    let runs = 300;
    for _ in 0..runs {
        let case = strategy.new_tree(&mut runner).expect("a case").current();
        total += check_case(&case).expect("the case passes");
    }
    assert!(total.balanced * 2 >= runs, "{total:?}");
    assert!(total.drained >= 50, "{total:?}");
    assert!(total.handoffs >= 100, "{total:?}");
    assert!(total.draining_only >= 1, "{total:?}");
}

/// The same guard for the common rules' check of the other strategies: for each of them most
/// runs are checked balanced at a fixed point, and drained members by the dozen (planned
/// handoffs and draining-only groups are the learner design's alone).
#[test]
fn the_checker_checks_the_other_strategies_too() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    let runs = 100;
    for strategy in [Design::Kip441, Design::Cooperative, Design::Eager] {
        let mut runner = TestRunner::new_with_rng(
            ProptestConfig::default(),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        let cases = case(strategy);
        let mut total = Checked::default();
        for _ in 0..runs {
            let case = cases.new_tree(&mut runner).expect("a case").current();
            total += check_case(&case).expect("the case passes");
        }
        assert!(total.balanced * 2 >= runs, "{strategy}: {total:?}");
        assert!(total.drained >= 15, "{strategy}: {total:?}");
    }
}
