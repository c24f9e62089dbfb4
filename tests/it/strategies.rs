//! Each strategy held to its nature on shared scenarios: the learner design hands a task over
//! in at most one round, cooperative moves cost a restore, eager stops every task at every
//! rebalance, KIP-441 promotes only at probing rebalances with at most `max.warmup.replicas`
//! warm-ups, and draining costs least under the learner design.

use crate::harness::{learners_given, preset, run_to_end, scenario_file};
use handoff::compare::Comparison;
use handoff::engine::coordinator::Cause;
use handoff::engine::EventKind;
use handoff::history::Run;
use handoff::model::Scenario;
use handoff::model::{Strategy, TaskId};
use handoff::views::metrics::Metrics;
use handoff::views::series::{availability, Availability};

fn run(scenario: &Scenario, strategy: Strategy) -> Run {
    let run = run_to_end(scenario, strategy);
    assert!(
        run.violations().is_empty(),
        "{strategy}: {:?}",
        run.violations()
    );
    run
}

fn shared() -> Vec<Scenario> {
    vec![
        preset("scale-up-running"),
        preset("scale-down-running"),
        preset("leader-transfer"),
        preset("scale-up-empty"),
        scenario_file("scenarios/realistic/scale-up.json"),
        scenario_file("scenarios/realistic/scale-down.json"),
    ]
}

/// (task, from, to, moment) for every change of owner.
fn moves(run: &Run) -> Vec<(TaskId, u64)> {
    run.events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::TaskStarted(t, _) => Some((t, e.at)),
            _ => None,
        })
        .collect()
}

#[test]
fn learner_a_planned_handoff_costs_at_most_one_round() {
    for scenario in [
        preset("scale-up-running"),
        preset("scale-down-running"),
        scenario_file("scenarios/realistic/scale-up.json"),
    ] {
        let r = run(&scenario, Strategy::Learner);
        let round = scenario.config.longest_round_ms();
        let lines = availability(&r, r.frontier());
        for line in &lines {
            for span in line.spans.iter().filter(|s| s.state != Availability::Up) {
                assert!(
                    span.to - span.from <= round,
                    "{}: {} down {} ms (a round is {round} ms)",
                    scenario.name,
                    r.engine().roster().task(line.task),
                    span.to - span.from
                );
            }
        }
        let metrics = Metrics::of(r.engine());
        assert!(metrics.at_rest && metrics.balanced, "{}", scenario.name);
    }
}

#[test]
fn cooperative_a_moved_stateful_task_restores_while_down() {
    for scenario in [
        preset("scale-up-running"),
        scenario_file("scenarios/realistic/scale-up.json"),
        scenario_file("scenarios/realistic/scale-down.json"),
    ] {
        let r = run(&scenario, Strategy::Cooperative);
        let lines = availability(&r, r.frontier());
        let initial = scenario.initial.clone().expect("a stable start");
        let fastest = scenario
            .members
            .iter()
            .map(|m| m.restore_rate.unwrap_or(scenario.config.restore_rate))
            .chain([scenario.config.restore_rate])
            .max()
            .unwrap_or(1) as f64;
        let mut moved = 0;
        for (t, task) in scenario.tasks.iter().enumerate() {
            let id = TaskId(t as u32);
            let owner = r.engine().owner(id);
            if owner.is_none() || owner == initial[t] {
                continue;
            }
            moved += 1;
            // At least the changelog it had when the scenario started, at the fastest rate.
            let restore_ms = (task.changelog as f64 / fastest * 1000.0) as u64;
            let down: u64 = lines[t]
                .spans
                .iter()
                .filter(|s| s.state != Availability::Up)
                .map(|s| s.to - s.from)
                .sum();
            assert!(
                down >= restore_ms,
                "{}: {} down {down} ms < restore {restore_ms} ms",
                scenario.name,
                task.name
            );
        }
        assert!(moved >= 2, "{}: some task moved", scenario.name);
    }
}

#[test]
fn eager_pauses_every_task_at_every_rebalance() {
    for scenario in shared() {
        let r = run(&scenario, Strategy::Eager);
        let lines = availability(&r, r.frontier());
        for round in r.rounds() {
            let Some(synced) = round.synced_at else {
                continue;
            };
            // Each member revokes everything as it joins (at its next heartbeat, in Kafka's
            // rounds), so nothing runs from the join phase's close to the sync.
            let middle = (round.assigned_at + synced) / 2;
            for line in &lines {
                let state = line
                    .spans
                    .iter()
                    .find(|s| s.from <= middle && middle < s.to)
                    .map(|s| s.state);
                assert_ne!(
                    state,
                    Some(Availability::Up),
                    "{}: {} runs during eager round {}",
                    scenario.name,
                    r.engine().roster().task(line.task),
                    round.index
                );
            }
        }
        assert!(!r.rounds().is_empty());
    }
}

#[test]
fn kip441_caps_warm_ups_and_promotes_only_at_probing_rebalances() {
    for scenario in [
        preset("scale-up-running"),
        scenario_file("scenarios/realistic/scale-up.json"),
        preset("scale-down-running"),
    ] {
        let r = run(&scenario, Strategy::Kip441);
        let cap = scenario.config.kip441.max_warmup_replicas as usize;
        for round in r.rounds() {
            let warmups = learners_given(round);
            assert!(
                warmups <= cap,
                "{}: round {} runs {warmups} warm-ups",
                scenario.name,
                round.index
            );
        }
        // A warm-up becomes the owner only in a probing rebalance or its follow-up.
        let scripted: Vec<u64> = scenario.commands.iter().map(|e| e.at_ms).collect();
        for round in r.rounds() {
            let promotes = round
                .assignment
                .members
                .iter()
                .enumerate()
                .any(|(pos, (_, a))| {
                    a.assigned
                        .iter()
                        .any(|t| round.joined[pos].learning.contains(t))
                });
            let revokes_for_warmup = round.assignment.followup
                && round.assignment.members.iter().any(|(_, a)| {
                    a.revoked
                        .iter()
                        .any(|t| r.engine().tasks()[t.index()].stateful)
                });
            if promotes || revokes_for_warmup {
                let probing_or_followup = round
                    .causes
                    .iter()
                    .all(|c| matches!(c, Cause::Probing | Cause::FollowUp));
                let scripted_round = scripted.contains(&round.started_at);
                assert!(
                    probing_or_followup || scripted_round,
                    "{}: round {} ({:?}) promotes a warm-up",
                    scenario.name,
                    round.index,
                    round.causes
                );
            }
        }
        let warmed = r.rounds().iter().any(|round| {
            round
                .assignment
                .members
                .iter()
                .any(|(_, a)| !a.learning.is_empty())
        });
        assert_eq!(
            warmed,
            r.rounds()
                .iter()
                .any(|round| round.causes.contains(&Cause::Probing)),
            "{}: warm-ups are promoted at probing rebalances (and a drain warms nothing)",
            scenario.name
        );
    }
    // No promotion before the first probing rebalance, even once the warm-up is ready.
    let scenario = scenario_file("scenarios/realistic/scale-up.json");
    let r = run(&scenario, Strategy::Kip441);
    let first_probe = r
        .rounds()
        .iter()
        .find(|round| round.causes.contains(&Cause::Probing))
        .map(|round| round.started_at)
        .expect("a probing rebalance");
    let ready = r
        .events()
        .iter()
        .find_map(|e| matches!(e.kind, EventKind::LearnerReady(..)).then_some(e.at))
        .expect("a warm-up catches up");
    assert!(
        ready < first_probe,
        "the warm-up was ready at {ready} ms, long before the probe at {first_probe} ms"
    );
    let initial = scenario.initial.clone().expect("stable start");
    for (t, at) in moves(&r) {
        if at < first_probe {
            assert_eq!(
                r.state_at(at).owner(t),
                initial[t.index()],
                "task moved at {at} ms before the probe"
            );
        }
    }
}

#[test]
fn draining_costs_least_under_the_learner_design() {
    for scenario in [
        preset("scale-down-running"),
        scenario_file("scenarios/realistic/scale-down.json"),
    ] {
        let c = Comparison::run(&scenario, Strategy::ALL).expect("runs");
        let learner = c.outcomes[0].metrics.total_task_downtime_ms;
        assert_eq!(c.outcomes[0].strategy, Strategy::Learner);
        for other in &c.outcomes[1..] {
            assert!(
                learner < other.metrics.total_task_downtime_ms,
                "{}: learner {learner} ms vs {} {} ms",
                scenario.name,
                other.strategy,
                other.metrics.total_task_downtime_ms
            );
        }
    }
}

#[test]
fn every_strategy_keeps_the_common_invariants_on_the_shared_scenarios() {
    for scenario in shared() {
        for &strategy in Strategy::ALL {
            let r = run(&scenario, strategy);
            let m = Metrics::of(r.engine());
            assert!(m.rebalances > 0, "{} under {strategy}", scenario.name);
        }
    }
}
