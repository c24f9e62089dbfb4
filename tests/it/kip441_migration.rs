//! How fast Kafka Streams' assignor (`kip441`) migrates state after the review's scale-out
//! (`scenarios/review/scale-out-under-load.json`): every stateful copy its fresh placement puts
//! on an instance without that task's state costs exactly one warm-up, warm-ups run without
//! interruption until promoted, and at most `max.warmup.replicas` run at once, so the
//! migration takes one probing interval per two copies, under writes too (the changelogs are
//! compacted): the review's `kip441` row comes to rest after twelve hours, not because
//! anything is warmed twice or thrown away.

use crate::harness::{learners_given, run_to_end, scenario_file};
use handoff::engine::coordinator::Cause;
use handoff::history::Run;
use handoff::model::{MemberId, Scenario, Strategy, TaskId};
use std::collections::{BTreeMap, BTreeSet};

const SCALE_OUT: &str = "scenarios/review/scale-out-under-load.json";

/// Every (member, task) warm-up of a run, with the indices of the rounds that carried it.
fn warm_ups(run: &Run) -> BTreeMap<(MemberId, TaskId), Vec<usize>> {
    let mut out: BTreeMap<(MemberId, TaskId), Vec<usize>> = BTreeMap::new();
    for (i, round) in run.rounds().iter().enumerate() {
        for (member, given) in &round.assignment.members {
            for &task in &given.learning {
                out.entry((*member, task)).or_default().push(i);
            }
        }
    }
    out
}

/// The stateful copies (active or standby, as (member, task)) of the last assignment that no
/// member held before the first round.
fn new_copies(run: &Run, scenario: &Scenario) -> BTreeSet<(MemberId, TaskId)> {
    let rounds = run.rounds();
    let first = rounds.first().expect("the join rebalances");
    let last = rounds.last().expect("the join rebalances");
    let stateful = |t: &TaskId| scenario.tasks[t.index()].stateful;
    let held: BTreeSet<(MemberId, TaskId)> = first
        .joined
        .iter()
        .flat_map(|m| {
            m.assigned
                .iter()
                .chain(&m.standby)
                .map(move |&t| (m.member, t))
        })
        .collect();
    last.assignment
        .members
        .iter()
        .flat_map(|(member, given)| {
            given
                .assigned
                .iter()
                .chain(&given.standby)
                .filter(|t| stateful(t))
                .map(move |&t| (*member, t))
        })
        .filter(|copy| !held.contains(copy))
        .collect()
}

/// The review's scale-out under `kip441` with its changelogs not growing (no writes), so that
/// every warm-up catches up within one probing interval.
fn scale_out_without_writes() -> Scenario {
    let mut scenario = scenario_file(SCALE_OUT).with_strategy(Strategy::Kip441);
    for task in &mut scenario.tasks {
        task.write_rate = 0;
    }
    scenario
}

#[test]
fn every_copy_the_fresh_placement_moves_costs_one_warm_up_and_two_per_probing_interval() {
    let scenario = scale_out_without_writes();
    let budget = scenario.config.kip441.max_warmup_replicas as usize;
    // Where the assignor wants every copy: with every member caught up it places them at once.
    let mut ideal = scenario.clone();
    ideal.config.kip441.acceptable_recovery_lag = 1_000_000_000_000_000;
    let placed = run_to_end(&ideal, Strategy::Kip441);
    let wanted = new_copies(&placed, &ideal);
    assert!(wanted.len() > 100, "the scale-out reshuffles most copies");

    let run = run_to_end(&scenario, Strategy::Kip441);
    assert!(run.violations().is_empty());
    assert!(run.finished(), "at rest once the warm-ups are done");
    let warmed = warm_ups(&run);
    let targets: BTreeSet<(MemberId, TaskId)> = warmed.keys().copied().collect();
    assert_eq!(targets, wanted, "one warm-up per copy moved, nothing else");
    assert_eq!(new_copies(&run, &scenario), wanted, "the same placement");
    let probing = run
        .rounds()
        .iter()
        .filter(|r| r.causes.contains(&Cause::Probing))
        .count();
    assert_eq!(
        probing,
        wanted.len().div_ceil(budget),
        "probing rebalances for {} copies",
        wanted.len()
    );
}

#[test]
fn under_writes_warm_ups_are_never_dropped_nor_more_than_the_budget() {
    let scenario = scenario_file(SCALE_OUT).with_strategy(Strategy::Kip441);
    let budget = scenario.config.kip441.max_warmup_replicas as usize;
    let run = run_to_end(&scenario, Strategy::Kip441);
    assert!(run.violations().is_empty());
    assert!(run.finished(), "at rest once the warm-ups are done");
    let copies = warm_ups(&run).len();
    let probing = run
        .rounds()
        .iter()
        .filter(|r| r.causes.contains(&Cause::Probing))
        .count();
    assert_eq!(probing, copies.div_ceil(budget), "{copies} warm-ups");
    for (i, round) in run.rounds().iter().enumerate() {
        let running = learners_given(round);
        assert!(running <= budget, "round {i}: {running} warm-ups");
    }
    for ((member, task), rounds) in warm_ups(&run) {
        let span = rounds[rounds.len() - 1] - rounds[0] + 1;
        assert_eq!(
            span,
            rounds.len(),
            "the warm-up of {task:?} on {member:?} was dropped and given again"
        );
    }
}
