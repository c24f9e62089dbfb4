//! RefinerFuzzTest: seed 1071 draws 100 scenario seeds (`Random(1071).nextLong()`), each
//! scenario is run under the warm-up refiner and under the no-op refiner (the target
//! assignment as it is), every refiner call is checked against RefinerInvariants, and the
//! totals are held to Kafka's pinned upper bounds with Kafka's 5 % tolerance. The warm-up
//! refiner must also hand over fewer tasks cold, and leave fewer task-ticks unprocessed, than
//! the no-op one.

mod invariants;
mod reconciler;
mod scenario;
mod simulator;

use handoff::assignor::kip1071::java::JavaRandom;
use scenario::{Scenario, CI};
use simulator::{Metrics, RefinerKind, Simulator};

const CI_SEED: i64 = 1071;
const CI_SCENARIOS: usize = 100;
const PINNED_TOLERANCE_PERCENT: i64 = 5;

/// Kafka's pinned totals: cold hand-overs, task-ticks not processing, ticks, refinement steps.
const PINNED_NO_OP: [i64; 4] = [388, 1638, 2242, 0];
const PINNED_WARMUP: [i64; 4] = [130, 1078, 2517, 190];

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Totals {
    cold_hand_overs: i64,
    not_processing_task_ticks: i64,
    ticks: i64,
    refinement_steps: i64,
}

impl Totals {
    fn add(&mut self, m: &Metrics) {
        self.cold_hand_overs += m.cold_hand_overs;
        self.not_processing_task_ticks += m.not_processing_task_ticks;
        self.ticks += m.ticks;
        self.refinement_steps += m.refinement_steps;
    }

    fn as_array(&self) -> [i64; 4] {
        [
            self.cold_hand_overs,
            self.not_processing_task_ticks,
            self.ticks,
            self.refinement_steps,
        ]
    }

    /// `Pinned.check`: each total at most the pinned value plus 5 % (at least 1).
    fn regressions(&self, pinned: [i64; 4]) -> Vec<String> {
        let names = [
            "cold hand-overs",
            "task-ticks not processing",
            "ticks to converge",
            "refinement steps",
        ];
        self.as_array()
            .iter()
            .zip(pinned)
            .zip(names)
            .filter(|((&actual, pinned), _)| {
                actual > pinned + (pinned * PINNED_TOLERANCE_PERCENT / 100).max(1)
            })
            .map(|((actual, pinned), name)| {
                format!("regression: {actual} {name}, above the pinned {pinned} (+5%)")
            })
            .collect()
    }
}

fn scenario_seeds() -> Vec<i64> {
    let mut seeds = JavaRandom::new(CI_SEED);
    (0..CI_SCENARIOS).map(|_| seeds.next_long()).collect()
}

#[test]
fn should_keep_invariants_and_improve_on_baseline() {
    let (mut warmup, mut no_op) = (Totals::default(), Totals::default());
    let mut failures = Vec::new();
    for seed in scenario_seeds() {
        let scenario = Scenario::generate(seed, &CI);
        for (kind, totals) in [
            (RefinerKind::Warmup, &mut warmup),
            (RefinerKind::NoOp, &mut no_op),
        ] {
            let (metrics, violations) = Simulator::new(&scenario, kind).run();
            totals.add(&metrics);
            if !violations.is_empty() {
                failures.push(format!(
                    "scenario {seed} under {kind:?}: {}",
                    violations.join("; ")
                ));
            }
        }
    }
    eprintln!(
        "NO_OP totals {:?}; WARMUP totals {:?}",
        no_op.as_array(),
        warmup.as_array()
    );
    failures.extend(no_op.regressions(PINNED_NO_OP));
    failures.extend(warmup.regressions(PINNED_WARMUP));
    if warmup.cold_hand_overs >= no_op.cold_hand_overs && no_op.cold_hand_overs > 0 {
        failures.push(format!(
            "{} cold hand-overs, no fewer than the no-op's {}",
            warmup.cold_hand_overs, no_op.cold_hand_overs
        ));
    }
    if warmup.not_processing_task_ticks >= no_op.not_processing_task_ticks {
        failures.push("no fewer task-ticks not processing than the no-op refiner".into());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
