//! Criterion benchmarks of the core: one assignment at 1,000 members x 10,000 tasks (the
//! learner design without standbys, every strategy with one standby, and the sticky ones over
//! four subtopologies), a whole scale-out simulation at 100 members x 1,000 tasks, and the
//! four-strategy comparison of it; the single view's reading of a 300 members x 3,000 tasks
//! group on each frame (part of what the page's `view` measure times in the browser);
//! Kafka's KIP-1071 assignor, alone and with trunk's warm-up refiner, at 1,000 x 10,000;
//! `simulate`, whole runs of the benchmark groups of `benches/scale/` from 100 x 1,000 to
//! 5,000 x 50,000; `scrub`, twenty moments of a churn of 1,000 x 10,000; and a 3 x 3 sweep
//! of the review example under four strategies, in order and on every core.
//!
//! Run with `cargo bench --bench core` (one group: `cargo bench --bench core -- simulate`).

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{criterion_group, BatchSize, Criterion};
    use handoff::assignor::{self, AssignInput};
    use handoff::compare::Comparison;
    use handoff::engine::Engine;
    use handoff::history::Run;
    use handoff::model::{
        AssignorConfig, JoinMetadata, MemberId, Scenario, Strategy, TaskId, TaskInfo,
    };
    use handoff::playground::{Action, Local, Playback};
    use handoff::presets::scale_out;
    use handoff::sweep::{Axis, Question, Sweep};
    use std::hint::black_box;

    /// Join metadata of `members` members, the first `owners` of which share `tasks` tasks evenly
    /// (caught up); the others just joined with nothing.
    fn metadata(members: usize, owners: usize, tasks: usize) -> Vec<JoinMetadata> {
        (0..members)
            .map(|m| {
                let assigned: Vec<TaskId> = if m < owners {
                    (m..tasks)
                        .step_by(owners)
                        .map(|t| TaskId(t as u32))
                        .collect()
                } else {
                    Vec::new()
                };
                JoinMetadata {
                    member: MemberId(m as u32),
                    capacity: 1,
                    leaving: false,
                    lags: assigned.iter().map(|&t| (t, 0)).collect(),
                    assigned,
                    ..JoinMetadata::default()
                }
            })
            .collect()
    }

    fn assignor_benches(c: &mut Criterion) {
        let config = AssignorConfig {
            strategy: Strategy::Learner,
            acceptable_recovery_lag: 0,
            num_standby_replicas: 0,
            max_learners: None,
            rack_aware_standbys: true,
        };
        let tasks: Vec<TaskInfo> = (0..10_000)
            .map(|i| TaskInfo {
                stateful: true,
                changelog: 20_000 + (i * 7_919) % 60_000,
                records: 20_000 + (i * 7_919) % 60_000,
                subtopology: 0,
            })
            .collect();
        let mut group = c.benchmark_group("assignor 1000 members x 10000 tasks");
        for (name, owners) in [
            ("scale-out 900 to 1000", 900),
            ("steady state", 1000),
            ("empty group", 0),
        ] {
            let members = metadata(1000, owners, 10_000);
            group.bench_function(name, |b| {
                b.iter(|| {
                    assignor::assign(AssignInput {
                        config: &config,
                        tasks: &tasks,
                        members: black_box(&members),
                    })
                })
            });
        }
        let members = metadata(1000, 900, 10_000);
        for &strategy in Strategy::ALL {
            let standby = AssignorConfig {
                strategy,
                num_standby_replicas: 1,
                max_learners: (strategy == Strategy::Kip441).then_some(2),
                ..config.clone()
            };
            group.bench_function(
                format!("{strategy} scale-out 900 to 1000, 1 standby"),
                |b| {
                    b.iter(|| {
                        assignor::assign(AssignInput {
                            config: &standby,
                            tasks: &tasks,
                            members: black_box(&members),
                        })
                    })
                },
            );
        }
        // The same with members spread over three zones: standbys and learners go to other
        // zones first (KIP-708).
        let zoned: Vec<JoinMetadata> = members
            .iter()
            .enumerate()
            .map(|(i, m)| JoinMetadata {
                zone: Some(["a", "b", "c"][i % 3].to_string()),
                ..m.clone()
            })
            .collect();
        for strategy in [Strategy::Learner, Strategy::Kip441] {
            let standby = AssignorConfig {
                strategy,
                num_standby_replicas: 1,
                max_learners: (strategy == Strategy::Kip441).then_some(2),
                ..config.clone()
            };
            group.bench_function(
                format!("{strategy} scale-out 900 to 1000, 1 standby, 3 zones"),
                |b| {
                    b.iter(|| {
                        assignor::assign(AssignInput {
                            config: &standby,
                            tasks: &tasks,
                            members: black_box(&zoned),
                        })
                    })
                },
            );
        }
        // The same tasks in four subtopologies of 4,000, 3,000, 2,000 and 1,000 partitions:
        // the sticky strategies spread each one (rule 9).
        let grouped: Vec<TaskInfo> = tasks
            .iter()
            .enumerate()
            .map(|(i, t)| TaskInfo {
                subtopology: [0, 4_000, 7_000, 9_000].iter().filter(|&&s| i >= s).count() as u32
                    - 1,
                ..*t
            })
            .collect();
        for strategy in [Strategy::Learner, Strategy::Cooperative] {
            let standby = AssignorConfig {
                strategy,
                num_standby_replicas: 1,
                ..config.clone()
            };
            group.bench_function(
                format!("{strategy} scale-out 900 to 1000, 1 standby, 4 subtopologies"),
                |b| {
                    b.iter(|| {
                        assignor::assign(AssignInput {
                            config: &standby,
                            tasks: &grouped,
                            members: black_box(&members),
                        })
                    })
                },
            );
        }
        group.finish();
    }

    fn simulation_benches(c: &mut Criterion) {
        let scenario = scale_out(50, 100, 1000);
        let mut group = c.benchmark_group("simulation 100 members x 1000 tasks");
        group.sample_size(20);
        group.bench_function("learner scale-out 50 to 100, to rest", |b| {
            b.iter_batched(
                || Run::new(scenario.clone()).without_invariant_checks(),
                |mut run| {
                    run.run_to_end().expect("runs");
                    assert!(run.engine().at_rest());
                    run
                },
                BatchSize::LargeInput,
            )
        });
        group.bench_function("compare every strategy, scale-out 50 to 100", |b| {
            b.iter(|| Comparison::run(black_box(&scenario), Strategy::ALL).expect("runs"))
        });
        let mut run = Run::new(scenario.clone());
        run.run_to_end().expect("runs");
        let middle = run.frontier() / 2;
        group.bench_function("scrub to the middle of the scale-out", |b| {
            b.iter(|| -> Engine { run.state_at(black_box(middle)) })
        });
        group.finish();
    }

    /// What the single view and the timeline editor read on every frame of play, in the
    /// middle of a 300 x 3,000 scale-out (the browser benchmark's large group) at top speed.
    fn frame_benches(c: &mut Criterion) {
        let scenario = scale_out(280, 300, 3000);
        let mut group = c.benchmark_group("playground 300 members x 3000 tasks");
        group.sample_size(20);
        // The page and its worker in one thread: the views are the page's, read off what
        // the worker sent.
        let mut playground = Local::with(scenario, None);
        playground.act(Action::Playback(Playback::Speed(16.0)));
        playground.act(Action::Playback(Playback::Play(true)));
        let mut now = 0.0;
        // Into the scale-out, with learners replaying and tasks restoring.
        while playground.clock() < 2_000 {
            now += 1000.0 / 60.0;
            playground.act(Action::Playback(Playback::Frame(now)));
        }
        group.bench_function("read the single view", |b| {
            b.iter(|| black_box(playground.single()))
        });
        group.bench_function("read the timeline editor's marks and menus", |b| {
            b.iter(|| black_box(playground.schedule()))
        });
        group.bench_function("autosave text", |b| {
            b.iter(|| black_box(playground.autosave_text()))
        });
        group.finish();
    }

    /// `handoff run` of the benchmark groups in `benches/scale/` (a 5 % scale-out with one
    /// standby and a fifth of the tasks stateless, then a drain and a crash), with the
    /// history's invariant checks, at every size: the cost should grow with the group, not
    /// its square.
    fn simulate_benches(c: &mut Criterion) {
        let mut group = c.benchmark_group("simulate");
        group.sample_size(10);
        for size in [
            "100x1000",
            "300x3000",
            "1000x10000",
            "2000x20000",
            "5000x50000",
        ] {
            let path = format!("{}/benches/scale/{size}.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a benchmark group");
            let scenario = Scenario::from_json(&text).expect("a valid scenario");
            group.bench_function(size, |b| {
                b.iter_batched(
                    || Run::new(scenario.clone()),
                    |mut run| {
                        run.run_to_end().expect("runs");
                        assert!(run.finished());
                        run
                    },
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }

    /// Scrubbing the browser benchmark's churn of 1,000 x 10,000 (`churn-1000x10000.json`: 50
    /// members joining 2 s apart, a drain and a crash, a rebalance about every second): the
    /// state at twenty moments spread over it, each replayed from the nearest snapshot (what
    /// the worker does before it draws a moment the reader jumped to).
    fn scrub_benches(c: &mut Criterion) {
        let mut group = c.benchmark_group("scrub");
        group.sample_size(10);
        let path = format!(
            "{}/benches/scale/churn-1000x10000.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("a benchmark group");
        let mut run = Run::new(Scenario::from_json(&text).expect("a valid scenario"));
        run.run_to_end().expect("runs");
        let end = run.frontier();
        group.bench_function("churn 1000x10000, 20 moments", |b| {
            b.iter(|| {
                (1..=20u64)
                    .map(|k| run.state_at(black_box(end * k / 21)).time())
                    .sum::<u64>()
            })
        });
        group.finish();
    }

    /// Kafka's broker-side assignor (KIP-1071) and trunk's warm-up refiner on a scale-out of
    /// 1,000 members (200 processes of five stream threads) x 10,000 tasks: ten subtopologies
    /// of 1,000 partitions, two of them stateless, one standby; the first 190 processes hold
    /// the assignor's own assignment of them, ten processes join. The refiner sees caught-up
    /// standbys and processing actives.
    fn kip1071_benches(c: &mut Criterion) {
        use handoff::assignor::kip1071::refiner::{
            self, MemberTaskOffsets, RefineInput, StreamsGroupMember, TasksTuple,
        };
        use handoff::assignor::kip1071::{self, GroupSpec, MemberSpec, Subtopology, Topology};
        use std::collections::{BTreeMap, BTreeSet};

        let topology = Topology {
            subtopologies: (0..10)
                .map(|s| Subtopology {
                    id: format!("{s}"),
                    partitions: 1_000,
                    stateful: s % 5 != 4,
                })
                .collect(),
        };
        let members = |processes: usize| -> Vec<(String, MemberSpec)> {
            (0..processes)
                .flat_map(|p| {
                    (0..5).map(move |t| {
                        let spec = MemberSpec {
                            process_id: format!("process-{p}"),
                            ..MemberSpec::default()
                        };
                        (format!("process-{p}-thread-{t}"), spec)
                    })
                })
                .collect()
        };
        let before = GroupSpec {
            members: members(190),
            num_standby_replicas: 1,
            release: kip1071::Release::Trunk,
        };
        let held = kip1071::assign(&before, &topology).expect("assigns");
        let mut group = GroupSpec {
            members: members(200),
            num_standby_replicas: 1,
            release: kip1071::Release::Trunk,
        };
        for (id, spec) in &mut group.members {
            if let Some(a) = held.members.get(id) {
                spec.active = a.active.clone();
                spec.standby = a.standby.clone();
            }
        }
        let mut bench = c.benchmark_group("kip1071 1000 members x 10000 tasks");
        bench.bench_function("assignor, scale-out 950 to 1000, 1 standby", |b| {
            b.iter(|| kip1071::assign(black_box(&group), &topology).expect("assigns"))
        });
        let current: Vec<StreamsGroupMember> = group
            .members
            .iter()
            .map(|(id, spec)| StreamsGroupMember {
                member_id: id.clone(),
                process_id: spec.process_id.clone(),
                assigned: TasksTuple {
                    active: spec.active.clone(),
                    standby: spec.standby.clone(),
                    warmup: BTreeMap::new(),
                },
                pending_revocation: TasksTuple::default(),
            })
            .collect();
        let offsets: BTreeMap<String, MemberTaskOffsets> = group
            .members
            .iter()
            .map(|(id, spec)| {
                let caught_up: BTreeMap<String, BTreeMap<i32, i64>> = spec
                    .standby
                    .iter()
                    .map(|(s, ps)| (s.clone(), ps.iter().map(|&p| (p, 5_000)).collect()))
                    .collect();
                let report = MemberTaskOffsets {
                    offsets: caught_up.clone(),
                    end_offsets: caught_up,
                };
                (id.clone(), report)
            })
            .collect();
        let stateful: BTreeSet<String> = topology
            .subtopologies
            .iter()
            .filter(|s| s.stateful)
            .map(|s| s.id.clone())
            .collect();
        bench.bench_function(
            "assignor + warm-up refiner, scale-out 950 to 1000, 1 standby",
            |b| {
                b.iter(|| {
                    let result = kip1071::assign(black_box(&group), &topology).expect("assigns");
                    let target = refiner::target_of(&result);
                    let refined = refiner::refine(RefineInput {
                        members: &current,
                        target: &target,
                        task_offsets: &offsets,
                        stateful_subtopologies: &stateful,
                        num_warmup_replicas: refiner::DEFAULT_NUM_WARMUP_REPLICAS,
                        acceptable_recovery_lag: refiner::DEFAULT_ACCEPTABLE_RECOVERY_LAG,
                    });
                    refined.patches.len()
                })
            },
        );
        bench.finish();
    }

    /// Issue 44's budget: a 3 x 3 sweep of the review example under the four strategies (36
    /// runs) in under 5 s natively on two cores, in order and on every core.
    fn sweep_benches(c: &mut Criterion) {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/review/scale-out-under-load.json"
        );
        let text = std::fs::read_to_string(path).expect("the review example");
        let scenario = Scenario::from_json(&text).expect("parses");
        let mut question = Question::new(vec![
            "num_standby_replicas=0,1,2"
                .parse::<Axis>()
                .expect("values"),
            "restore_rate=2e4..8e4x2".parse::<Axis>().expect("values"),
        ]);
        // The classic protocol's four, as issue 44's budget counts them.
        question.strategies = vec![
            Strategy::Learner,
            Strategy::Kip441,
            Strategy::Cooperative,
            Strategy::Eager,
        ];
        let mut group = c.benchmark_group("sweep 3 x 3 x 4 strategies, scale-out under load");
        group.sample_size(10);
        group.bench_function("in order", |b| {
            b.iter(|| Sweep::run(black_box(&question), &scenario).expect("runs"))
        });
        group.bench_function("on every core", |b| {
            b.iter(|| Sweep::run_parallel(black_box(&question), &scenario, &|| ()).expect("runs"))
        });
        group.finish();
    }

    criterion_group!(
        benches,
        assignor_benches,
        simulation_benches,
        frame_benches,
        simulate_benches,
        scrub_benches,
        kip1071_benches,
        sweep_benches
    );
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

/// Benchmarks run natively only; the wasm build of this file is empty.
#[cfg(target_arch = "wasm32")]
fn main() {}
